//! banco-adapters: external engines driven as players, over the two engine protocols
//! banco speaks. One code path for every program that runs someone else's engine: the
//! arena's matches (`banco-arena`) and the bot client (`banco bot`).
//!
//! - [`player`]: the game-generic [`player::Player`] trait, its [`player::Reply`] and
//!   [`player::Eval`], and [`player::TimeLeft`], a game clock as an engine is told it.
//! - [`process`]: an external engine's process, with timeouts on every read.
//! - [`gomocup`]: a caro engine over the Gomocup ("pbrain") protocol,
//!   [`gomocup::GomocupEngine`], and what it can play ([`gomocup::probe`]).
//! - [`uci`]: a xiangqi engine over UCI, [`uci::UciEngine`].
//!
//! Depends on `banco-rules` only: no sockets, no async runtime. Engine work blocks, so
//! callers run it on a thread of its own.

pub mod gomocup;
pub mod player;
pub mod process;
pub mod uci;
