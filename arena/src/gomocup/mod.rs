//! The Gomocup ("pbrain", piskvork) protocol, caro's engine protocol, from both sides.
//!
//! - [`engine`]: the engine side, banco answering a tournament manager (`pbrain-banco`).
//! - [`manager`]: the manager side, the arena driving an external engine as a
//!   [`crate::player::Player`].
//!
//! [`crate::uci`] is xiangqi's twin, with the same two files.

pub mod engine;
pub mod manager;

pub use engine::Brain;
pub use manager::GomocupEngine;
