//! WXF notation, the way players write moves: `C2.5`, `H8+7`, `R1-2`, `P+.4`.
//!
//! A move is the piece letter (`K A E H R C P`), the file it stands on (numbered 1..9 from
//! the mover's right), a direction (`+` forward, `-` back, `.` sideways) and either the
//! destination file (sideways moves, and every advisor, elephant and horse move) or the
//! number of ranks moved (generals, chariots, cannons and soldiers moving along a file).
//! Two pieces of a kind on one file are told apart by `+` (front) and `-` (rear) in
//! place of the file: `R+.3`. Soldiers follow the WXF's special cases: with three or more
//! on a file the middle one keeps its file number (`P3.4`), the outer ones of four or five
//! are `++`/`--`, and when two files hold several soldiers the letter is dropped and the
//! file comes first (`3+.4`, `33.4`).
//!
//! ICCS coordinates (`h2e2`) are [`super::Move`]'s own text form.

use super::piece::{Color, Kind, Piece};
use super::position::{Position, Tally};
use super::square::{Move, Square};

/// The file number a player uses: 1..9 from their own right.
fn file_number(color: Color, file: u8) -> u8 {
    match color {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

/// How far `to` is ahead of `from` for `color` (negative: backward).
fn advance(color: Color, from: Square, to: Square) -> i32 {
    let d = i32::from(to.rank()) - i32::from(from.rank());
    match color {
        Color::Red => d,
        Color::Black => -d,
    }
}

/// The squares on `file` holding `piece`, frontmost first from `piece`'s owner's side.
fn column<T: Tally>(pos: &Position<T>, piece: Piece, file: u8) -> Vec<Square> {
    let mut squares: Vec<Square> = (0..10)
        .filter_map(|rank| Square::new(file, rank))
        .filter(|&sq| pos.piece_at(sq) == Some(piece))
        .collect();
    if piece.color() == Color::Red {
        squares.reverse();
    }
    squares
}

fn digit(n: u8) -> char {
    char::from(b'0' + n)
}

/// The part of the notation that names the moving piece.
fn source<T: Tally>(pos: &Position<T>, piece: Piece, from: Square) -> String {
    let color = piece.color();
    let letter = piece.kind().wxf_letter();
    let file_no = digit(file_number(color, from.file()));
    let col = column(pos, piece, from.file());
    let n = col.len();
    if piece.kind() == Kind::King || n <= 1 {
        return format!("{letter}{file_no}");
    }
    let idx = col.iter().position(|&s| s == from).unwrap_or(0);
    if piece.kind() != Kind::Pawn {
        return format!("{letter}{}", if idx == 0 { '+' } else { '-' });
    }
    let crowded_files = (0..9).filter(|&f| column(pos, piece, f).len() >= 2).count();
    if crowded_files >= 2 {
        // Several files with tandem soldiers: the file, then the soldier's place in it.
        let marker = match (n, idx) {
            (_, 0) => '+',
            (3, 1) => file_no,
            _ => '-',
        };
        return format!("{file_no}{marker}");
    }
    match (n, idx) {
        (2, 0) | (3, 0) => "P+".to_string(),
        (2, _) | (3, 2) => "P-".to_string(),
        (3, 1) | (5, 2) => format!("P{file_no}"),
        (4 | 5, 0) => "++".to_string(),
        (4 | 5, 1) => "P+".to_string(),
        (4, 2) | (5, 3) => "P-".to_string(),
        _ => "--".to_string(),
    }
}

/// `mv` (legal in `pos`) in WXF notation.
pub fn to_wxf<T: Tally>(pos: &Position<T>, mv: Move) -> String {
    let Some(piece) = pos.piece_at(mv.from()) else {
        return mv.to_string();
    };
    let color = piece.color();
    let (from, to) = (mv.from(), mv.to());
    let ahead = advance(color, from, to);
    let op = match ahead.signum() {
        1 => '+',
        -1 => '-',
        _ => '.',
    };
    let straight = matches!(
        piece.kind(),
        Kind::King | Kind::Rook | Kind::Cannon | Kind::Pawn
    );
    let dest = if straight && from.file() == to.file() {
        ahead.unsigned_abs() as u8
    } else {
        file_number(color, to.file())
    };
    format!("{}{op}{}", source(pos, piece, from), digit(dest))
}

/// Text that names no legal move in WXF notation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a legal move here in WXF notation (like C2.5 or H8+7)")]
pub struct WxfError(pub String);

/// Puts WXF text in the form [`to_wxf`] writes: uppercase, `.` for sideways (`=` is read
/// too), `E`/`H` for `B`/`N`, and the tandem marker after the letter (`+R` reads as `R+`).
fn normalize(text: &str) -> String {
    let mut chars: Vec<char> = text
        .trim()
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c.to_ascii_uppercase() {
            '=' => '.',
            'B' => 'E',
            'N' => 'H',
            other => other,
        })
        .collect();
    if chars.len() == 4 && matches!(chars[0], '+' | '-') && chars[1].is_ascii_alphabetic() {
        chars.swap(0, 1);
    }
    chars.into_iter().collect()
}

/// Reads WXF text as one of the legal moves of `pos`.
pub fn parse_wxf<T: Tally>(pos: &Position<T>, text: &str) -> Result<Move, WxfError> {
    let want = normalize(text);
    pos.legal_moves()
        .iter()
        .copied()
        .find(|&m| to_wxf(pos, m) == want)
        .ok_or_else(|| WxfError(text.trim().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wxf(fen: &str, mv: &str) -> String {
        let pos = Position::from_fen(fen).unwrap();
        let mv: Move = mv.parse().unwrap();
        assert!(pos.is_legal_move(mv), "{mv} in {fen}");
        let text = to_wxf(&pos, mv);
        assert_eq!(parse_wxf(&pos, &text), Ok(mv), "{text} reads back");
        text
    }

    #[test]
    fn opening_moves() {
        let start = super::super::fen::START;
        assert_eq!(wxf(start, "h2e2"), "C2.5");
        assert_eq!(wxf(start, "h0g2"), "H2+3");
        assert_eq!(wxf(start, "b0c2"), "H8+7");
        assert_eq!(wxf(start, "c3c4"), "P7+1");
        assert_eq!(wxf(start, "i0i1"), "R1+1");
        assert_eq!(wxf(start, "g0e2"), "E3+5");
        assert_eq!(wxf(start, "f0e1"), "A4+5");
        assert_eq!(wxf(start, "e0e1"), "K5+1");
        assert_eq!(wxf(start, "b2b9"), "C8+7");
        // Black counts files from its own right, which is Red's left.
        let black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/4C2C1/9/RNBAKABNR b - - 1 1";
        assert_eq!(wxf(black, "h7e7"), "C8.5");
        assert_eq!(wxf(black, "b7e7"), "C2.5");
        assert_eq!(wxf(black, "b9c7"), "H2+3");
        assert_eq!(wxf(black, "g6g5"), "P7+1");
        assert_eq!(wxf(black, "a9a8"), "R1+1");
    }

    #[test]
    fn backward_and_sideways() {
        let fen = "3k5/9/9/9/9/4R4/9/9/9/5K3 w";
        assert_eq!(wxf(fen, "e4e2"), "R5-2");
        assert_eq!(wxf(fen, "e4a4"), "R5.9");
        assert_eq!(wxf(fen, "f0f1"), "K4+1");
        let fen = "3k5/9/9/9/9/4R4/9/9/9/5K3 b";
        assert_eq!(wxf(fen, "d9d8"), "K4+1");
    }

    #[test]
    fn tandem_pieces() {
        // Two red chariots on the e file.
        let fen = "3k5/9/9/9/9/4R4/9/9/4R4/5K3 w";
        assert_eq!(wxf(fen, "e4e6"), "R++2");
        assert_eq!(wxf(fen, "e1a1"), "R-.9");
        // Two black cannons on one file: the front one is nearer Red.
        let fen = "3k5/9/2c6/9/2c6/9/9/9/9/4K4 b";
        assert_eq!(wxf(fen, "c5c4"), "C++1");
        assert_eq!(wxf(fen, "c7a7"), "C-.1");
        // The "+R" form and "=" for sideways are read too.
        let pos = Position::from_fen("3k5/9/9/9/9/4R4/9/9/4R4/5K3 w").unwrap();
        assert_eq!(parse_wxf(&pos, "+R+2"), Ok("e4e6".parse().unwrap()));
        assert_eq!(parse_wxf(&pos, "r-=9"), Ok("e1a1".parse().unwrap()));
        assert!(parse_wxf(&pos, "R5+2").is_err());
    }

    #[test]
    fn tandem_soldiers() {
        // Three red soldiers on the f file (Red's file 4).
        let fen = "3k5/9/5P3/5P3/5P3/9/P8/9/9/4K4 w";
        assert_eq!(wxf(fen, "f7e7"), "P+.5");
        assert_eq!(wxf(fen, "f6g6"), "P4.3");
        assert_eq!(wxf(fen, "f5e5"), "P-.5");
        assert_eq!(wxf(fen, "a3a4"), "P9+1");
        // Five on one file.
        let fen = "3k1P3/5P3/5P3/5P3/5P3/9/9/9/9/4K4 w";
        assert_eq!(wxf(fen, "f9e9"), "++.5");
        assert_eq!(wxf(fen, "f8e8"), "P+.5");
        assert_eq!(wxf(fen, "f7e7"), "P4.5");
        assert_eq!(wxf(fen, "f6e6"), "P-.5");
        assert_eq!(wxf(fen, "f5e5"), "--.5");
        // Four on one file: no middle one.
        let fen = "3k5/5P3/5P3/5P3/5P3/9/9/9/9/4K4 w";
        assert_eq!(wxf(fen, "f8e8"), "++.5");
        assert_eq!(wxf(fen, "f7e7"), "P+.5");
        assert_eq!(wxf(fen, "f6e6"), "P-.5");
        assert_eq!(wxf(fen, "f5e5"), "--.5");
        // Tandem soldiers on two files: the file comes first, no letter.
        let fen = "3k5/9/2P6/2P2P3/2P2P3/9/9/9/9/4K4 w";
        assert_eq!(wxf(fen, "c7b7"), "7+.8");
        assert_eq!(wxf(fen, "c6b6"), "77.8");
        assert_eq!(wxf(fen, "c5b5"), "7-.8");
        assert_eq!(wxf(fen, "f6g6"), "4+.3");
        assert_eq!(wxf(fen, "f5g5"), "4-.3");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(16))]
        #[test]
        fn wxf_names_each_legal_move_once(seed in proptest::prelude::any::<u64>()) {
            let mut pos = Position::start();
            let mut state = seed | 1;
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let texts: Vec<String> = moves.iter().map(|&m| to_wxf(&pos, m)).collect();
                for (&m, t) in moves.iter().zip(&texts) {
                    proptest::prop_assert_eq!(texts.iter().filter(|x| *x == t).count(), 1, "{} {}", t, pos.fen());
                    proptest::prop_assert_eq!(parse_wxf(&pos, t), Ok(m));
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                pos.make(moves[(state >> 8) as usize % moves.len()]);
            }
        }
    }
}
