//! banco-engine: the rules of the games banco plays and the bots that play them.
//!
//! No I/O, no async, no threads: everything here is plain computation a caller drives.
//!
//! - [`caro`]: caro / gomoku on any board from 5x5 to 64x64: rules, win lines, Zobrist keys,
//!   and the engine (pattern tables, VCF/VCT, PVS search, levels, threat finder).
//! - [`bot`]: the one [`bot::Bot`] interface every engine implements: `think(position, limits)`.
//! - [`game`]: a game-agnostic view of a game in progress (play, undo, who moves, how it ended)
//!   that servers and tools drive without caring which game it is.
//! - [`xiangqi`]: xiangqi (Chinese chess); exact rules, FEN, ICCS and WXF notation, perft.

pub mod bot;
pub mod caro;
pub mod game;
mod memory;
pub mod xiangqi;
