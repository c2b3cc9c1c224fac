//! UCI for xiangqi (with UCCI's move form), from both sides.
//!
//! - [`engine`]: the engine side, banco answering a GUI or a tournament manager
//!   (`banco-uci`).
//! - [`manager`]: the manager side, the arena driving an external engine as a
//!   [`crate::player::Player`]; it lives in `banco-adapters` (`banco bot` drives engines
//!   through the same code) and is re-exported here.
//!
//! [`crate::gomocup`] is caro's twin, with the same two files.

pub mod engine;
pub use banco_adapters::uci as manager;

pub use engine::Uci;
pub use manager::UciEngine;
