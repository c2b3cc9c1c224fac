//! Caro (gomoku, five in a row).
//!
//! - [`board`]: stones on a rectangular board, [`Point`] coordinates, incremental Zobrist hash.
//! - [`rule`]: what counts as a winning five under each [`Rule`], and the winning [`Line`].
//! - [`game`]: a game record: board, rule, move list, outcome; play and undo.
//! - [`notation`]: reading and writing points as `x,y` (Gomocup) or `h8` (letter + row).
//! - [`zobrist`]: the hash keys.

pub mod board;
pub mod game;
pub mod notation;
pub mod rule;
pub mod zobrist;

pub use board::{Board, MAX_SIDE, MIN_SIDE, Point, SizeError, Stone};
pub use game::{Game, MoveError, Outcome};
pub use rule::{Line, Rule};
