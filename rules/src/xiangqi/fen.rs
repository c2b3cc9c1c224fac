//! FEN in the UCI/UCCI convention: `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`.
//!
//! Ranks are listed from Black's side (rank 9) down to Red's (rank 0); uppercase is Red.
//! Letters `KABNRCP` are written; `E` (elephant) and `H` (horse), as the Pygame xiangqi thesis writes them,
//! are read too. The side is `w` (or `r`) for Red and `b` for Black. The two `-` fields
//! and the counters are optional; the halfmove counter is plies since the last capture.
//! A position read is checked (by [`Setup::flaws`], the same checks an editor shows as the
//! board is arranged) to be one a game could reach the board of: one general each, no
//! more pieces of a kind than a side starts with, every piece on a point it can stand
//! on, generals not facing, and the side that just moved not in check.

use super::piece::{Color, Kind, Piece};
use super::position::{Position, Tally};
use super::setup::Setup;
use super::square::Square;

/// The usual start position.
pub const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why a FEN was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("the FEN is empty")]
    Empty,
    #[error("a FEN board has 10 ranks separated by '/'; this one has {0}")]
    RankCount(usize),
    #[error("rank {rank} describes {files} files; every rank has 9")]
    RankWidth { rank: u8, files: usize },
    #[error(
        "'{ch}' in rank {rank} is neither a piece letter (KABNRCP, or E and H) nor a count 1-9"
    )]
    BadChar { ch: char, rank: u8 },
    #[error("the FEN needs the side to move after the board: w (red) or b (black)")]
    MissingSide,
    #[error("'{0}' is not a side to move: write w (red) or b (black)")]
    BadSide(String),
    #[error("the {field} '{text}' is not a number")]
    BadNumber { field: &'static str, text: String },
    #[error("unexpected '{0}' after the FEN")]
    Trailing(String),
    #[error("{color} has no general")]
    NoGeneral { color: Color },
    #[error("{color} has {count} {kind}s; a side has at most {max}")]
    TooMany {
        color: Color,
        kind: &'static str,
        count: u32,
        max: u32,
    },
    #[error("a {piece} can never stand on {square}")]
    Misplaced { piece: Piece, square: Square },
    #[error("the generals face each other on the open {0} file")]
    GeneralsFace(char),
    #[error(
        "{to_move} to move could capture the {other} general: {other} cannot have just moved into check"
    )]
    CanCaptureGeneral { to_move: Color, other: Color },
}

/// How many of each kind a side starts with: the most it can ever have.
const MAX_COUNT: [u32; 7] = [1, 2, 2, 2, 2, 2, 5];

/// The most pieces of `kind` a side can have: as many as it starts with.
pub const fn most(kind: Kind) -> u32 {
    MAX_COUNT[kind.index()]
}

/// Whether `piece` can ever stand on `sq`: generals and advisors on their palace points,
/// elephants on their seven points, soldiers never behind their start rank nor beside it
/// before crossing the river.
pub fn can_stand(piece: Piece, sq: Square) -> bool {
    let file = sq.file();
    let rank = match piece.color() {
        Color::Red => sq.rank(),
        Color::Black => 9 - sq.rank(),
    };
    match piece.kind() {
        Kind::King => (3..=5).contains(&file) && rank <= 2,
        Kind::Advisor => (3..=5).contains(&file) && rank <= 2 && (file + rank) % 2 == 1,
        Kind::Elephant => match rank {
            0 | 4 => file == 2 || file == 6,
            2 => file.is_multiple_of(4),
            _ => false,
        },
        Kind::Pawn => rank >= 5 || (rank >= 3 && file.is_multiple_of(2)),
        Kind::Horse | Kind::Rook | Kind::Cannon => true,
    }
}

impl Setup {
    /// Reads a FEN's text without judging the position: any pieces on any points, so an
    /// editor can import a position that still needs work. [`Setup::flaws`] judges it.
    pub fn from_fen(fen: &str) -> Result<Setup, FenError> {
        let mut fields = fen.split_whitespace();
        let board = fields.next().ok_or(FenError::Empty)?;
        let mut setup = Setup::empty();

        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 10 {
            return Err(FenError::RankCount(ranks.len()));
        }
        for (i, text) in ranks.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file = 0usize;
            for ch in text.chars() {
                if let Some(d) = ch.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as usize;
                } else if let Some(piece) = Piece::from_fen_char(ch) {
                    if let Some(sq) = Square::new(file as u8, rank).filter(|_| file < 9) {
                        setup.put(sq, piece);
                    }
                    file += 1;
                } else {
                    return Err(FenError::BadChar { ch, rank });
                }
            }
            if file != 9 {
                return Err(FenError::RankWidth { rank, files: file });
            }
        }

        let side = fields.next().ok_or(FenError::MissingSide)?;
        let side = match side {
            "w" | "W" | "r" | "R" => Color::Red,
            "b" | "B" => Color::Black,
            other => return Err(FenError::BadSide(other.to_string())),
        };
        setup.set_side(side);

        // Optional: two placeholder fields, then the halfmove and fullmove counters.
        let rest: Vec<&str> = fields.collect();
        let mut numbers = rest.as_slice();
        if numbers.first() == Some(&"-") {
            numbers = &numbers[1..];
            if numbers.first() == Some(&"-") {
                numbers = &numbers[1..];
            }
        }
        let parse = |field: &'static str, text: &str| {
            text.parse::<u32>().map_err(|_| FenError::BadNumber {
                field,
                text: text.to_string(),
            })
        };
        let mut halfmove = 0;
        let mut fullmove = 1;
        if let Some(text) = numbers.first() {
            halfmove = parse("halfmove clock", text)?;
        }
        if let Some(text) = numbers.get(1) {
            fullmove = parse("move number", text)?.max(1);
        }
        if let Some(extra) = numbers.get(2) {
            return Err(FenError::Trailing((*extra).to_string()));
        }
        setup.set_counters(halfmove, fullmove);
        Ok(setup)
    }

    /// The arrangement as a FEN, in the UCI letters (`KABNRCP`), with all six fields.
    pub fn fen(&self) -> String {
        write(
            |sq| self.piece_at(sq),
            self.side(),
            self.halfmove_clock(),
            self.fullmove_number(),
        )
    }
}

impl Position {
    /// Reads a FEN and checks the position is legal; see the module documentation. The
    /// refusal is the first of [`Setup::flaws`].
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Setup::from_fen(fen)?.position()
    }
}

impl<T: Tally> Position<T> {
    /// The position as a FEN, in the UCI letters (`KABNRCP`), with all six fields.
    pub fn fen(&self) -> String {
        write(
            |sq| self.piece_at(sq),
            self.side_to_move(),
            self.halfmove,
            self.fullmove,
        )
    }
}

/// A FEN from whatever stands on each point.
fn write(
    piece_at: impl Fn(Square) -> Option<Piece>,
    side: Color,
    halfmove: u32,
    fullmove: u32,
) -> String {
    let mut out = String::with_capacity(90);
    for rank in (0..10u8).rev() {
        let mut empty = 0;
        for file in 0..9u8 {
            let Some(sq) = Square::new(file, rank) else {
                continue;
            };
            match piece_at(sq) {
                Some(p) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(p.fen_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    let side = match side {
        Color::Red => 'w',
        Color::Black => 'b',
    };
    format!("{out} {side} - - {halfmove} {fullmove}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trips() {
        let pos = Position::from_fen(START).unwrap();
        assert_eq!(pos.fen(), START);
        assert_eq!(pos.side_to_move(), Color::Red);
        assert_eq!(pos.count(Color::Black, Kind::Pawn), 5);
        assert_eq!(pos.king(Color::Red).to_string(), "e0");
        assert_eq!(pos.key(), pos.key_from_scratch());
        assert!(!pos.in_check());
    }

    #[test]
    fn round_trips() {
        for fen in [
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "1rbakab2/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKABR1 b - - 3 7",
            "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(pos.fen(), fen);
            assert_eq!(Position::from_fen(&pos.fen()).unwrap(), pos);
            assert_eq!(pos.key(), pos.key_from_scratch());
        }
    }

    #[test]
    fn seed_letters_and_short_forms_are_read() {
        // The Pygame xiangqi thesis writes elephants as E and horses as H, and stops after the side.
        let seed = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w";
        assert_eq!(Position::from_fen(seed).unwrap().fen(), START);
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 b 12").unwrap();
        assert_eq!((pos.halfmove_clock(), pos.fullmove_number()), (12, 1));
        assert_eq!(pos.side_to_move(), Color::Black);
    }

    #[test]
    fn malformed_fens_get_clear_errors() {
        let cases: &[(&str, FenError)] = &[
            ("", FenError::Empty),
            // The thesis's own example lost a rank in print: nine ranks.
            (
                "4kaR2/4a4/3hR4/7H1/9/9/9/4Ap1r1/3AK3c w",
                FenError::RankCount(9),
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w",
                FenError::RankWidth { rank: 0, files: 10 },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/8/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                FenError::RankWidth { rank: 5, files: 8 },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w",
                FenError::BadChar { ch: 'X', rank: 0 },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/0/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                FenError::BadChar { ch: '0', rank: 5 },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
                FenError::MissingSide,
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
                FenError::BadSide("x".into()),
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1",
                FenError::BadNumber {
                    field: "halfmove clock",
                    text: "x".into(),
                },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves",
                FenError::Trailing("moves".into()),
            ),
            (
                "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                FenError::NoGeneral {
                    color: Color::Black,
                },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/R8/RNBAKABNR w",
                FenError::TooMany {
                    color: Color::Red,
                    kind: "chariot",
                    count: 3,
                    max: 2,
                },
            ),
            (
                "4k4/9/9/9/2B6/9/9/9/9/3K5 w",
                FenError::Misplaced {
                    piece: Piece::new(Color::Red, Kind::Elephant),
                    square: "c5".parse().unwrap(),
                },
            ),
            (
                "4k4/9/9/9/9/9/1P7/9/9/3K5 w",
                FenError::Misplaced {
                    piece: Piece::new(Color::Red, Kind::Pawn),
                    square: "b3".parse().unwrap(),
                },
            ),
            ("4k4/9/9/9/9/9/9/9/9/4K4 w", FenError::GeneralsFace('e')),
            (
                "3rk4/9/9/9/9/9/9/9/9/3K5 b",
                FenError::CanCaptureGeneral {
                    to_move: Color::Black,
                    other: Color::Red,
                },
            ),
        ];
        for (fen, want) in cases {
            assert_eq!(Position::from_fen(fen).as_ref().err(), Some(want), "{fen}");
            // Every error reads as a sentence.
            assert!(!want.to_string().is_empty());
        }
    }
}
