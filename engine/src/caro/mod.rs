//! Caro (gomoku, five in a row): the engine that plays it, on the rules of
//! [`banco_rules::caro`].
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
//! - [`history`]: move statistics (history scores, counter moves) across searches.
//! - [`search`]: the tree search below the root (PVS with pruning and extensions, VCF
//!   quiescence).
//! - [`timeman`]: the time manager (how long a move may think).
//! - [`engine`]: [`Engine`], the bot: the per-move procedure and iterative deepening.
//! - [`level`]: what each level may spend and how it plays.
//! - [`threat`]: a player's fours and open threes on a board, for the "four warning".

pub(crate) mod engine;
pub mod eval;
pub(crate) mod history;
pub(crate) mod level;
pub(crate) mod movegen;
pub mod pattern;
pub mod position;
pub(crate) mod search;
pub(crate) mod threat;
pub(crate) mod timeman;
pub(crate) mod tt;
pub mod vcf;

pub use engine::{Engine, MATE};
pub use level::Config;
pub use threat::{Threat, ThreatKind, threats};
pub use tt::MATE_BOUND;

#[cfg(test)]
#[path = "../../benches/support/suite.rs"]
mod suite;
#[cfg(test)]
mod tactics;
