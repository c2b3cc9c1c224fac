//! banco-arena: banco's engines against each other, the seed programs' bots and external
//! engines, and the adapter that lets banco play in Gomocup tournament managers.
//!
//! - [`player`]: the game-generic [`player::Player`] and the player kinds named on the
//!   command line (banco levels, seed bots, external engines).
//! - [`seeds`]: the seed programs' bots, reimplemented from their documents.
//! - [`gomocup`]: an external engine over the Gomocup protocol (the manager side).
//! - [`pbrain`]: the Gomocup protocol, engine side (`pbrain-banco`).
//! - [`uci_external`]: an external xiangqi engine over UCI (the manager side).
//! - [`uci`]: UCI for xiangqi, engine side (`banco-uci`).
//! - [`process`]: an external engine's process, with timeouts on every read.
//! - [`matches`]: playing N games with both colours of each opening, saving them.
//! - [`openings`]: opening files.
//! - [`stats`]: wins/draws/losses, Elo difference with error margin, move statistics.
//! - [`rng`]: a small seeded random generator.
//! - [`tune`]: self-play tests of xiangqi evaluation weights.
//! - [`texel`]: Texel tuning of the xiangqi evaluation (openings, positions, the fit).
//!
//! Binaries: `banco-arena` (matches and opening generation), `pbrain-banco` (the
//! Gomocup adapter), `banco-uci` (the UCI xiangqi adapter).

pub mod gomocup;
pub mod matches;
pub mod openings;
pub mod pbrain;
pub mod player;
pub mod process;
pub mod rng;
pub mod seeds;
pub mod stats;
pub mod texel;
pub mod tune;
pub mod uci;
pub mod uci_external;
