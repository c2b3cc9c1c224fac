//! Game record files: a small text format a person can read, write by hand and edit.
//! The one reader and writer of it: the terminal client uses them for `banco replay
//! FILE` and its save key, the server uses them for the browser page (which sends the
//! file's text over the socket and gets the game back, and the other way round).
//!
//! - [`Record`]: a game as a file holds it, in the rules' own words (sides, not seats).
//! - [`read`]: [`parse`], text to a checked [`Record`], refusing with the line at fault.
//! - [`write`]: [`write()`], a [`Record`] to text; [`Record::check`] first checks one
//!   made elsewhere (a server's game, a page's), so whatever is written reads back.
//! - [`wall`]: the `ended:` date as a wall clock reads it; time zones are the caller's.
//!
//! Why here, with its own types, and not in the protocol crate: the format is about a
//! game (its board, its moves checked by the rules, how it ended) and nothing about the
//! wire, and keeping it beside the rules keeps it free of I/O, clocks and time zones.
//! `banco-protocol` converts between a [`Record`] and its wire form (seats, `MoveRecord`s).
//!
//! # Format
//! ```text
//! # banco game record. `banco replay FILE` shows it; # starts a comment.
//! game: caro
//! board: 15x15
//! rule: caro
//! time: 20s/move
//! x: An
//! o: Bình
//! result: x
//! reason: five
//! ended: 2025-05-01 19:42
//! id: 42
//!
//! 1. h8 i9
//! 2. h9 i8
//! ```
//! Headers are `name: value` lines before the moves, in any order, names in any case:
//!
//! - `game`: `caro` or `xiangqi` (the only one required).
//! - caro: `board` (`15x15`, or `15`; default 15x15), `rule` (`caro`, `freestyle`,
//!   `standard`, `caro-overline`; default caro), `opening` (stones already on the board
//!   before the first move, X first and alternating, written like moves: `h8 i9 h10`;
//!   default none), `x` and `o` (who played them; X moves first, or O after an odd
//!   opening).
//! - xiangqi: `start` (a FEN; default the usual start), `red` and `black` (the side to
//!   move in the start position moves first).
//! - `result`: the winner's side (`x`, `o`, `red`, `black`), `draw`, or `unfinished`;
//!   left out, the rules decide (a five, a checkmate, ...) or the game is unfinished.
//! - `reason`: how it ended: `five`, `draw` (a full board), `timeout`, `quit`,
//!   `abandoned`, `resign`, `checkmate`, `stalemate`, `perpetual_check`, `repetition`,
//!   `sixty_moves`, `no_material`, `agreement`.
//! - `time` (`none`, `20s/move`, `5m+3s`), `ended` (`2025-05-01 19:42`, local time),
//!   `id` (the server's game number): for the record only.
//!
//! Then the moves, in order, as many per line as you like: caro points as `h8` (letter
//! and row from the bottom, up to 26 columns) or `7,7` (0-based column and row from the
//! top left); xiangqi moves in ICCS (`h2e2`), in WXF (`C2.5`), or both (`h2e2 C2.5`: the
//! WXF is checked against the ICCS). Move numbers (`12.`) are for the eye and ignored.
//! Every move is checked against the rules, and the result against the moves; a file
//! that does not hold together is refused with the line at fault.

mod read;
pub mod wall;
mod write;

pub use read::parse;
pub use write::{file_name, write};

use crate::game::{EndReason, GameSpec, Move, MoveNote, Side};
use crate::time::TimeControl;
use crate::{caro, xiangqi};

/// The largest file read: a 64x64 board's every point fits many times over.
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// A game as a record file holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Which game, board, rule, opening stones or start position.
    pub game: GameSpec,
    /// The time control it was played with, when the file says.
    pub time: Option<TimeControl>,
    /// The players' names, by side: the first mover's, then the other's (`?` for a name
    /// the file leaves out).
    pub players: [String; 2],
    /// How it ended; `None` for an unfinished game.
    pub ending: Option<Ending>,
    /// When it ended, as the writer's wall clock read it ([`wall`]), when the file says.
    pub ended: Option<wall::WallTime>,
    /// The server's number for the game, when it has one.
    pub id: Option<u64>,
    /// Every move after the opening, in order, with its notation.
    pub moves: Vec<Played>,
}

/// One move of a record and what people are shown of it (WXF, check).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    /// The move, in the rules' coordinates.
    pub mv: Move,
    /// Filled in by the rules when the record is read or checked.
    pub note: MoveNote,
}

/// How a recorded game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ending {
    /// `None` for a draw.
    pub winner: Option<Side>,
    /// By the rules, or by something only the players or the clock know.
    pub reason: Reason,
    /// Caro: the winning line's points, for highlighting. Empty otherwise.
    pub line: Vec<caro::Point>,
}

/// Why a recorded game ended: by the rules (which the moves must show), or by something
/// only the players or the clock know (taken as written).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    /// A five, a full board, a checkmate, ...: the moves must end the game this way.
    Rules(EndReason),
    /// The player to move ran out of time.
    Timeout,
    /// A player left mid-game.
    Quit,
    /// A player's connection dropped and did not come back in time.
    Abandoned,
    Resign,
    /// Both players agreed to a draw.
    Agreement,
    /// Ended before both players had made a move: no result.
    Aborted,
    /// The players agreed to start a new game before this one ended: no result.
    NewGame,
}

impl Reason {
    /// Every reason a file may give, in the order a refusal lists them.
    pub const ALL: [Reason; 15] = [
        Reason::Rules(EndReason::Five),
        Reason::Rules(EndReason::BoardFull),
        Reason::Timeout,
        Reason::Quit,
        Reason::Abandoned,
        Reason::Resign,
        Reason::Rules(EndReason::Checkmate),
        Reason::Rules(EndReason::Stalemate),
        Reason::Rules(EndReason::PerpetualCheck),
        Reason::Rules(EndReason::Repetition),
        Reason::Rules(EndReason::SixtyMoves),
        Reason::Rules(EndReason::NoMaterial),
        Reason::Agreement,
        Reason::Aborted,
        Reason::NewGame,
    ];

    /// The word a file uses (the protocol's JSON name too): `five`, `draw` for a full
    /// board, `resign`, ...
    pub fn word(self) -> &'static str {
        match self {
            Reason::Rules(EndReason::BoardFull) => "draw",
            Reason::Rules(r) => r.name(),
            Reason::Timeout => "timeout",
            Reason::Quit => "quit",
            Reason::Abandoned => "abandoned",
            Reason::Resign => "resign",
            Reason::Agreement => "agreement",
            Reason::Aborted => "aborted",
            Reason::NewGame => "new_game",
        }
    }

    /// The reason a file's word names (`perpetual-check` and `Perpetual Check` too).
    pub fn from_word(word: &str) -> Option<Reason> {
        let word = word.trim().to_ascii_lowercase().replace([' ', '-'], "_");
        Reason::ALL.into_iter().find(|r| r.word() == word)
    }
}

/// A side's word in a record: `x`/`o` in caro, `red`/`black` in xiangqi.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SideWord {
    X,
    O,
    Red,
    Black,
}

impl SideWord {
    pub fn as_str(self) -> &'static str {
        match self {
            SideWord::X => "x",
            SideWord::O => "o",
            SideWord::Red => "red",
            SideWord::Black => "black",
        }
    }
}

/// What is wrong with a record, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct RecordError {
    /// 1-based; 0 when the fault is the record as a whole (or a record not read from
    /// text).
    pub line: usize,
    /// What is wrong, in a sentence a person can act on.
    pub message: String,
}

impl Record {
    /// The words of the two sides, the first mover's first: X and O (O and X after an
    /// odd opening), or the start position's side to move and the other colour. `None`
    /// for a xiangqi start position that is not a FEN.
    pub fn side_words(&self) -> Option<[SideWord; 2]> {
        match &self.game {
            GameSpec::Caro { opening, .. } => Some(if opening.len() % 2 == 0 {
                [SideWord::X, SideWord::O]
            } else {
                [SideWord::O, SideWord::X]
            }),
            GameSpec::Xiangqi { fen } => {
                let first = match fen {
                    Some(fen) => xiangqi::Game::from_fen(fen).ok()?.start().side_to_move(),
                    None => xiangqi::Color::Red,
                };
                Some(match first {
                    xiangqi::Color::Red => [SideWord::Red, SideWord::Black],
                    xiangqi::Color::Black => [SideWord::Black, SideWord::Red],
                })
            }
        }
    }

    /// Checks a record made elsewhere (a server's finished game, a page's room) against
    /// the rules as [`parse`] checks a file: every move is played, the notes are filled
    /// in from the rules, and the ending must agree with the moves. What passes writes a
    /// file that reads back as the same record.
    pub fn check(mut self) -> Result<Record, RecordError> {
        let whole = |message: String| RecordError { line: 0, message };
        let mut game = crate::game::Game::new(&self.game).map_err(|e| whole(e.to_string()))?;
        for (i, played) in self.moves.iter_mut().enumerate() {
            let result = match (&mut game, played.mv) {
                // As the reader does: a xiangqi move after the rules' end (a repetition
                // the players played on from) is taken if it is legal.
                (crate::game::Game::Xiangqi(g), Move::Xiangqi(mv)) => {
                    g.play_on(mv).map(|_| ()).map_err(|e| e.to_string())
                }
                (g, _) if g.ending().is_some() => {
                    return Err(whole(format!(
                        "move {}: the game was already over before it",
                        i + 1
                    )));
                }
                (g, mv) => g.play(mv).map(|_| ()).map_err(|e| e.to_string()),
            };
            result.map_err(|e| whole(format!("move {} is not legal: {e}", i + 1)))?;
            played.note = game.note(i).unwrap_or_default();
        }
        let ruled = game.ending();
        self.ending = match (self.ending, ruled) {
            (None, None) => None,
            (None, Some(r)) => {
                return Err(whole(format!(
                    "the moves end the game ({}), but it is given as unfinished",
                    Reason::Rules(r.reason).word()
                )));
            }
            (Some(given), Some(r)) => {
                if given.winner != r.winner || given.reason != Reason::Rules(r.reason) {
                    return Err(whole(format!(
                        "the moves end the game by {}, not as given ({})",
                        Reason::Rules(r.reason).word(),
                        given.reason.word()
                    )));
                }
                Some(Ending {
                    winner: r.winner,
                    reason: given.reason,
                    line: r.line,
                })
            }
            (Some(given), None) => {
                declared(given.winner, given.reason).map_err(whole)?;
                Some(Ending {
                    line: Vec::new(),
                    ..given
                })
            }
        };
        Ok(self)
    }
}

/// Whether an ending the moves did not make can stand as declared: a draw by agreement,
/// or a win by something the rules do not see (resign, timeout, ...). `Err` says why not.
fn declared(winner: Option<Side>, reason: Reason) -> Result<(), String> {
    match (winner, reason) {
        (_, Reason::Rules(r)) => Err(format!(
            "the result says {}, but the moves do not end that way",
            Reason::Rules(r).word()
        )),
        // Ended with no result at all: nobody won, nothing is drawn by the rules.
        (None, Reason::Agreement | Reason::Aborted | Reason::NewGame) => Ok(()),
        (None, other) => Err(format!(
            "a draw ends by agreement or by the rules, not by {}",
            other.word()
        )),
        (Some(_), Reason::Agreement) => Err("agreement ends in a draw: write result: draw".into()),
        (Some(_), _) => Ok(()),
    }
}

#[cfg(test)]
mod tests;
