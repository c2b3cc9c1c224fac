//! Xiangqi (Chinese chess): the rules.
//!
//! - [`piece`]: the two colours, the seven kinds, a piece.
//! - [`square`]: points in ICCS coordinates (`e0`) and moves between them (`h2e2`).
//! - [`tables`]: leaper and slide tables, computed at compile time.
//! - [`zobrist`]: the hash keys.
//! - [`position`]: the board (mailbox + colour sets + line occupancy), make/unmake, attacks,
//!   and the [`Tally`] a search keeps up to date as pieces come and go.
//! - [`fen`]: reading and writing FEN, and what makes a position legal.
//! - [`setup`]: a board being arranged by hand, and every reason it cannot be played yet,
//!   with the points each concerns.
//! - [`movegen`]: pseudo-legal generation and the legality filter.
//! - [`perft`]: counting the move tree.
//! - [`notation`]: WXF notation (`C2.5`), written and read.
//! - [`rules`]: judging repetitions (perpetual check) and the sixty-move count.
//! - [`game`]: a game record rooms drive: play with reasons for refusals, undo, the end.

pub mod fen;
pub mod game;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod rules;
pub mod setup;
pub mod square;
pub mod tables;
pub mod zobrist;

pub use fen::{FenError, START};
pub use game::{Game, MoveError, MoveTextError, Outcome, Ply, Reason};
pub use movegen::{GenType, MoveList};
pub use piece::{Color, Kind, Piece};
pub use position::{Position, Tally, Undo};
pub use setup::Setup;
pub use square::{CoordError, Move, Square};
