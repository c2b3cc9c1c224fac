//! banco-pairing: who plays whom next, as a pure function of a tournament's history.
//!
//! No I/O (a TRF file is read from and written to a string), no clocks, no async: the
//! server hands over the history and gets the pairings back, and a test can re-pair any
//! recorded round and compare.
//!
//! - [`tournament`]: the history: players, rounds of games and byes, scoring, colours.
//! - [`berger`]: round robins by the FIDE Berger tables (C.05 Annex 1).
//! - [`dutch`]: the FIDE Dutch Swiss system (C.04.3, 2025 rules).
//! - [`tiebreak`]: FIDE tie-breaks (C.07) and standings.
//! - [`arena`]: lichess-style arena waves: pair the free players by close score.
//! - [`trf`]: FIDE Tournament Report Files, as bbpPairings reads and writes them.
//! - [`matching`]: maximum weight matching (Edmonds' blossoms) with warm starts.
//! - [`wide`]: the wide unsigned integers the Dutch weights need.

pub mod arena;
pub mod berger;
pub mod dutch;
pub mod matching;
pub mod tiebreak;
pub mod tournament;
pub mod trf;
pub mod wide;

pub use tournament::{
    Board, Bye, ByeKind, Colour, Game, GameResult, Player, Points, Round, RoundPairing, Scoring,
    Tournament,
};
