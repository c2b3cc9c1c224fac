//! banco-rules: the rules of the games banco plays, and nothing else.
//!
//! No search, no I/O, no async, no threads: every front end (the server's rooms, the
//! terminal client, plain mode, the arena) and the engine agree on a game because they all
//! ask this crate.
//!
//! - [`caro`]: caro / gomoku on any board from 5x5 to 64x64: stones, the rules of a five,
//!   games with their openings, setting up a board by hand, notation, Zobrist keys.
//! - [`xiangqi`]: xiangqi (Chinese chess): pieces, squares, the position and its legal
//!   moves, FEN, WXF and ICCS notation, repetition and sixty-move rules, perft, games.
//! - [`game`]: one view over every game (play, undo, who moves, how it ended) for code that
//!   runs games without caring which.
//! - [`level`]: the names of the bots' strengths.
//! - [`time`]: time controls (`20s/move`, `5m+3s`) and how they read and print.
//! - [`record`]: the game record file format, its reader and its writer.

pub mod caro;
pub mod game;
pub mod level;
pub mod record;
pub mod time;
pub mod xiangqi;

pub use level::{Level, UnknownLevel};
