//! Xiangqi (Chinese chess): the engine that plays it, on the rules of
//! [`banco_rules::xiangqi`].
//!
//! - [`psq`]: material and piece-square values, the [`Tally`] the search's position keeps
//!   up to date as pieces come and go.
//! - [`eval`]: static evaluation (material, squares, king safety, mobility).
//! - [`see`]: static exchange evaluation (what a capture wins once the recaptures are done).
//! - [`tt`]: the transposition table.
//! - [`history`]: what the search learns about moves (history, continuation history,
//!   capture history, countermoves).
//! - [`movepick`]: the staged move picker.
//! - [`search`]: iterative deepening, PVS, quiescence, pruning, reductions, extensions.
//! - [`timeman`]: the time manager (how much of its budget a search spends).
//! - [`book`]: the opening book.
//! - [`level`]: what each level may spend and how imprecise it is.
//! - [`engine`]: the bot (book + search) behind the [`crate::bot::Bot`] interface.

pub(crate) mod book;
pub(crate) mod engine;
pub mod eval;
pub(crate) mod history;
pub(crate) mod level;
pub(crate) mod movepick;
pub mod psq;
pub(crate) mod search;
pub mod see;
pub(crate) mod timeman;
pub(crate) mod tt;

pub use engine::Engine;
pub use level::Config;
pub use search::{Info, MATE, MATE_BOUND, Options, Searcher};
pub use timeman::OPTIMUM_SHARE;

use banco_rules::xiangqi::FenError;

/// The search's position: the rules' position keeping the evaluation's material and square
/// values ([`psq::Psq`]) up to date.
pub type Position = banco_rules::xiangqi::Position<psq::Psq>;

/// What [`Position::make`] returns, to take a move back.
pub type Undo = banco_rules::xiangqi::Undo<psq::Psq>;

/// The search's position from a FEN (see [`banco_rules::xiangqi::Position::from_fen`]).
pub fn from_fen(fen: &str) -> Result<Position, FenError> {
    banco_rules::xiangqi::Position::from_fen(fen).map(|p| p.with_tally())
}

/// The search's position at the usual start.
pub fn start() -> Position {
    banco_rules::xiangqi::Position::start().with_tally()
}
