//! Caro (gomoku, five in a row): the rules.
//!
//! - [`board`]: stones on a rectangular board, [`Point`] coordinates, incremental Zobrist hash.
//! - [`rules`]: what counts as a winning five under each [`Rule`], the winning [`Line`],
//!   and why a five that does not win does not ([`NotAWin`]).
//! - [`game`]: a game record: board, rule, opening stones, move list, outcome; play and
//!   undo.
//! - [`setup`]: a board being arranged by hand, and every reason it cannot start a game
//!   yet, with the points each concerns.
//! - [`swap`]: the Swap1 and Swap2 openings: who places which stones and decides
//!   which colour, before the game starts.
//! - [`renju`]: Black's forbidden points under the renju rule (overline, double four,
//!   double three), as the RIF defines them.
//! - [`openings`]: balanced three-stone openings to start games from, and picking one.
//! - [`notation`]: reading and writing points as `x,y` (Gomocup) or `h8` (letter + row).
//! - [`zobrist`]: the hash keys.

pub mod board;
pub mod game;
pub mod notation;
pub mod openings;
pub mod renju;
pub mod rules;
pub mod setup;
pub mod swap;
pub mod zobrist;

pub use board::{Board, MAX_SIDE, MIN_SIDE, Point, SizeError, Stone};
pub use game::{Game, MoveError, OpeningError, Outcome};
pub use rules::{Line, NotAWin, Rule};
