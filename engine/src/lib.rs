//! banco-engine: the bots that play banco's games, on top of [`banco_rules`].
//!
//! No I/O, no async, no threads: everything here is plain computation a caller drives.
//!
//! - [`caro`]: the caro / gomoku engine (pattern tables, VCF/VCT, PVS search, levels) and
//!   the threat finder behind the "four warning".
//! - [`xiangqi`]: the xiangqi engine (book, PVS search with quiescence, levels).
//! - [`bot`]: the one [`bot::Bot`] interface every engine implements: `think(game, limits)`,
//!   and [`bot::GameBot`], one bot over every game.

pub mod bot;
pub mod caro;
mod memory;
pub mod xiangqi;
