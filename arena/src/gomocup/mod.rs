//! The Gomocup ("pbrain", piskvork) protocol, caro's engine protocol, from both sides.
//!
//! - [`engine`]: the engine side, banco answering a tournament manager (`pbrain-banco`).
//! - [`manager`]: the manager side, the arena driving an external engine as a
//!   [`crate::player::Player`]; it lives in `banco-adapters` (`banco bot` drives engines
//!   through the same code) and is re-exported here.
//!
//! [`crate::uci`] is xiangqi's twin, with the same two files.

pub mod engine;
pub use banco_adapters::gomocup as manager;

pub use engine::Brain;
pub use manager::GomocupEngine;
