//! Xiangqi (Chinese chess).
//!
//! - [`piece`]: the two colours, the seven kinds, a piece.
//! - [`square`]: points in ICCS coordinates (`e0`) and moves between them (`h2e2`).
//! - [`tables`]: leaper and slide tables, computed at compile time.
//! - [`zobrist`]: the hash keys.
//! - [`psq`]: material and piece-square values kept incrementally by the position.
//! - [`position`]: the board (mailbox + colour sets + line occupancy), make/unmake, attacks.
//! - [`fen`]: reading and writing FEN, and what makes a position legal.
//! - [`setup`]: a board being arranged by hand, and every reason it cannot be played yet,
//!   with the points each concerns.
//! - [`movegen`]: pseudo-legal generation and the legality filter.
//! - [`perft`]: counting the move tree.
//! - [`eval`]: static evaluation (material, squares, king safety, mobility).
//! - [`see`]: static exchange evaluation (what a capture wins once the recaptures are done).
//! - [`tt`]: the transposition table.
//! - [`history`]: what the search learns about moves (history, continuation history,
//!   capture history, countermoves).
//! - [`movepick`]: the staged move picker.
//! - [`search`]: iterative deepening, PVS, quiescence, pruning, reductions, extensions.
//! - [`time`]: the time manager (how much of its budget a search spends).
//! - [`book`]: the opening book.
//! - [`level`]: what each level may spend and how imprecise it is.
//! - [`engine`]: the bot (book + search) behind the [`crate::bot::Bot`] interface.
//! - [`notation`]: WXF notation (`C2.5`), written and read.
//! - [`rules`]: judging repetitions (perpetual check) and the sixty-move count.
//! - [`game`]: a game record rooms drive: play with reasons for refusals, undo, the end.

pub mod book;
pub mod engine;
pub mod eval;
pub mod fen;
pub mod game;
pub mod history;
pub mod level;
pub mod movegen;
pub mod movepick;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod psq;
pub mod rules;
pub mod search;
pub mod see;
pub mod setup;
pub mod square;
pub mod tables;
pub mod time;
pub mod tt;
pub mod zobrist;

pub use engine::Engine;
pub use fen::{FenError, START};
pub use game::{Game, MoveError, MoveTextError, Outcome, Ply, Reason};
pub use movegen::{GenType, MoveList};
pub use piece::{Color, Kind, Piece};
pub use position::{Position, Undo};
pub use setup::Setup;
pub use square::{CoordError, Move, Square};
