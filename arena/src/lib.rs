//! banco-arena: banco's engines against each other, the seed programs' bots and external
//! engines, and the adapters that let banco play in Gomocup and UCI tournament managers.
//!
//! Players, from the bottom up (arrows point one way: every player knows only the trait,
//! the factory knows every player):
//! - [`player`]: the game-generic [`player::Player`] trait and its [`player::Reply`]
//!   (re-exported from `banco-adapters`, where the external engines implement it).
//! - [`banco_player`]: banco's engines, at any level, as a player.
//! - [`seeds`]: the seed programs' bots, reimplemented from their documents, as players.
//! - [`beginner`]: a beginner's plain play at caro, the yardstick under `easy`.
//! - [`gomocup`] (caro) and [`uci`] (xiangqi): the two engine protocols, each with an
//!   `engine` side (`pbrain-banco`, `banco-uci`: banco answering a manager) and a
//!   `manager` side (an external engine driven as a player), the latter in
//!   `banco-adapters` (shared with `banco bot`) and re-exported here.
//! - [`process`]: an external engine's process, with timeouts on every read (from
//!   `banco-adapters`).
//! - [`spec`]: players as named on the command line (`banco:max`, `seed:lan-caro`,
//!   `gomocup:CMD`, `uci:CMD`) and the factory that builds them.
//!
//! Matches:
//! - [`matches`]: N games with both colours of each opening, several at once, scored by
//!   pairs, stopped by an SPRT, each game kept as a file and as PGN.
//! - [`affinity`]: keeping each game's engines on a CPU of their own.
//! - [`record`]: a finished game: moves, what the players said of them, how it ended.
//! - [`pgn`]: games written as PGN.
//! - [`openings`]: opening files.
//! - [`stats`]: wins/draws/losses, game pairs (pentanomial), Elo with its error margin and
//!   LOS, move statistics.
//! - [`sprt`]: the sequential probability ratio test on game pairs.
//! - [`rng`]: a small seeded random generator.
//!
//! Tuning ([`tune`]): files named `GAME_METHOD`: `caro_texel`, `xiangqi_texel`,
//! `xiangqi_selfplay`.
//!
//! Binaries: `banco-arena` (matches, openings, tuning), `pbrain-banco` (the Gomocup
//! adapter), `banco-uci` (the UCI xiangqi adapter).

pub mod affinity;
pub mod banco_player;
pub mod beginner;
pub mod gomocup;
pub mod matches;
pub mod openings;
pub mod pgn;
pub use banco_adapters::{player, process};
pub mod record;
pub mod rng;
pub mod seeds;
pub mod spec;
pub mod sprt;
pub mod stats;
pub mod tune;
pub mod uci;
