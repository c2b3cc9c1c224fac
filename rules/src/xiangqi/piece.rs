//! The two colours, the seven kinds of piece, and a piece (a kind of one colour).

use std::fmt;
use std::num::NonZeroU8;
use std::ops::Not;

/// One of the two armies. Red moves first in the usual start position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Red,
    Black,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Red, Color::Black];

    /// 0 for Red, 1 for Black: for tables indexed by colour.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }
}

impl Not for Color {
    type Output = Color;

    #[inline]
    fn not(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a piece is, whatever its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// 帥/將: steps orthogonally inside the palace; never faces the other general.
    King,
    /// 仕/士: steps diagonally inside the palace.
    Advisor,
    /// 相/象: two points diagonally, blocked at the eye, never across the river.
    Elephant,
    /// 傌/馬: one point orthogonally then one diagonally outward, blocked at the leg.
    Horse,
    /// 俥/車: any distance orthogonally.
    Rook,
    /// 炮/砲: moves like a rook, captures by jumping exactly one screen.
    Cannon,
    /// 兵/卒: one point forward; also sideways once across the river.
    Pawn,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::King,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Horse,
        Kind::Rook,
        Kind::Cannon,
        Kind::Pawn,
    ];

    /// 0..7, for tables indexed by kind.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The letter in UCI/UCCI FEN (uppercase; Black's pieces are written lowercase).
    pub const fn fen_letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'B',
            Kind::Horse => 'N',
            Kind::Rook => 'R',
            Kind::Cannon => 'C',
            Kind::Pawn => 'P',
        }
    }

    /// The letter in WXF notation (`C2.5`, `H8+7`).
    pub const fn wxf_letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'E',
            Kind::Horse => 'H',
            Kind::Rook => 'R',
            Kind::Cannon => 'C',
            Kind::Pawn => 'P',
        }
    }

    /// Reads a piece letter in any case, in either alphabet: UCI's `KABNRCP` or the
    /// `KAEHRCP` that WXF and the Pygame xiangqi thesis's FEN use.
    pub fn from_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'K' => Kind::King,
            'A' => Kind::Advisor,
            'B' | 'E' => Kind::Elephant,
            'N' | 'H' => Kind::Horse,
            'R' => Kind::Rook,
            'C' => Kind::Cannon,
            'P' => Kind::Pawn,
            _ => return None,
        })
    }

    /// The English name used in messages.
    pub fn name(self) -> &'static str {
        match self {
            Kind::King => "general",
            Kind::Advisor => "advisor",
            Kind::Elephant => "elephant",
            Kind::Horse => "horse",
            Kind::Rook => "chariot",
            Kind::Cannon => "cannon",
            Kind::Pawn => "soldier",
        }
    }

    /// Chariots, horses, cannons and soldiers can attack; generals, advisors and
    /// elephants cannot leave their own half. With none of these on the board the game is
    /// a draw.
    #[inline]
    pub const fn is_attacker(self) -> bool {
        matches!(self, Kind::Horse | Kind::Rook | Kind::Cannon | Kind::Pawn)
    }
}

/// A piece: a kind and a colour, packed in one non-zero byte so `Option<Piece>` is a byte
/// too. The code is `1 + kind + 8 * colour` (Red 1..=7, Black 9..=15): tables indexed by
/// [`Piece::code`] have 16 rows.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece(NonZeroU8);

impl Piece {
    /// Rows in a table indexed by [`Piece::code`].
    pub const CODES: usize = 16;

    #[inline]
    pub const fn new(color: Color, kind: Kind) -> Piece {
        match NonZeroU8::new(1 + kind as u8 + 8 * color as u8) {
            Some(code) => Piece(code),
            None => unreachable!(),
        }
    }

    #[inline]
    pub const fn color(self) -> Color {
        if self.0.get() & 8 == 0 {
            Color::Red
        } else {
            Color::Black
        }
    }

    #[inline]
    pub const fn kind(self) -> Kind {
        match (self.0.get() & 7) - 1 {
            0 => Kind::King,
            1 => Kind::Advisor,
            2 => Kind::Elephant,
            3 => Kind::Horse,
            4 => Kind::Rook,
            5 => Kind::Cannon,
            _ => Kind::Pawn,
        }
    }

    /// 1..=15, for tables indexed by piece.
    #[inline]
    pub const fn code(self) -> usize {
        self.0.get() as usize
    }

    #[inline]
    pub const fn is(self, color: Color, kind: Kind) -> bool {
        self.0.get() == 1 + kind as u8 + 8 * color as u8
    }

    /// The FEN letter: uppercase for Red, lowercase for Black.
    pub fn fen_char(self) -> char {
        let c = self.kind().fen_letter();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// Reads a FEN letter in either alphabet (`N`/`H`, `B`/`E`); case gives the colour.
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let kind = Kind::from_letter(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        Some(Piece::new(color, kind))
    }

    /// The traditional character: 帥仕相俥傌炮兵 for Red, 將士象車馬砲卒 for Black.
    pub fn chinese(self) -> char {
        const RED: [char; 7] = ['帥', '仕', '相', '俥', '傌', '炮', '兵'];
        const BLACK: [char; 7] = ['將', '士', '象', '車', '馬', '砲', '卒'];
        // The arrays follow 帥仕相俥傌炮兵 order: king, advisor, elephant, rook, horse,
        // cannon, pawn; map our kind order onto it.
        let i = match self.kind() {
            Kind::King => 0,
            Kind::Advisor => 1,
            Kind::Elephant => 2,
            Kind::Rook => 3,
            Kind::Horse => 4,
            Kind::Cannon => 5,
            Kind::Pawn => 6,
        };
        match self.color() {
            Color::Red => RED[i],
            Color::Black => BLACK[i],
        }
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color(), self.kind().name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for color in Color::BOTH {
            for kind in Kind::ALL {
                let p = Piece::new(color, kind);
                assert_eq!(p.color(), color);
                assert_eq!(p.kind(), kind);
                assert!(p.is(color, kind));
                assert!(p.code() < Piece::CODES);
                assert_eq!(Piece::from_fen_char(p.fen_char()), Some(p));
            }
        }
        assert_eq!(std::mem::size_of::<Option<Piece>>(), 1);
    }

    #[test]
    fn both_alphabets_are_read() {
        assert_eq!(
            Piece::from_fen_char('H'),
            Some(Piece::new(Color::Red, Kind::Horse))
        );
        assert_eq!(
            Piece::from_fen_char('e'),
            Some(Piece::new(Color::Black, Kind::Elephant))
        );
        assert_eq!(Piece::from_fen_char('x'), None);
        assert_eq!(Piece::new(Color::Black, Kind::Cannon).chinese(), '砲');
        assert_eq!(Piece::new(Color::Red, Kind::Horse).chinese(), '傌');
    }
}
