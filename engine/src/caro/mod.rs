//! Caro (gomoku, five in a row): the rules and the engine that plays them.
//!
//! Rules:
//! - [`board`]: stones on a rectangular board, [`Point`] coordinates, incremental Zobrist hash.
//! - [`rule`]: what counts as a winning five under each [`Rule`], and the winning [`Line`].
//! - [`game`]: a game record: board, rule, opening stones, move list, outcome; play and
//!   undo.
//! - [`setup`]: a board being arranged by hand, and every reason it cannot start a game
//!   yet, with the points each concerns.
//! - [`openings`]: balanced three-stone openings to start games from, and picking one.
//! - [`notation`]: reading and writing points as `x,y` (Gomocup) or `h8` (letter + row).
//! - [`zobrist`]: the hash keys.
//!
//! Engine:
//! - [`pattern`]: line patterns (five, open four, four, open three, ...) from tables built
//!   per rule; their per-point combinations.
//! - [`position`]: the search board, with patterns, threat counts and evaluation kept up to
//!   date incrementally on make/unmake.
//! - [`eval`]: pattern scores and the static evaluation.
//! - [`movegen`]: exact forced defences and move ordering.
//! - [`vcf`]: threat-space search: VCF and VCT solvers.
//! - [`tt`]: the transposition table.
//! - [`search`]: [`Engine`], iterative deepening PVS under a deadline.
//! - [`level`]: what each level may spend and how it plays.
//! - [`threat`]: a player's fours and open threes on a board, for the "four warning".

pub mod board;
pub mod eval;
pub mod game;
pub mod level;
pub mod movegen;
pub mod notation;
pub mod openings;
pub mod pattern;
pub mod position;
pub mod rule;
pub mod search;
pub mod setup;
pub mod threat;
pub mod tt;
pub mod vcf;
pub mod zobrist;

pub use board::{Board, MAX_SIDE, MIN_SIDE, Point, SizeError, Stone};
pub use game::{Game, MoveError, OpeningError, Outcome};
pub use rule::{Line, Rule};
pub use search::Engine;
pub use threat::{Threat, ThreatKind, threats};

#[cfg(test)]
use notation::parse_point;
#[cfg(test)]
#[path = "../../benches/support/suite.rs"]
mod suite;
#[cfg(test)]
mod tactics;
