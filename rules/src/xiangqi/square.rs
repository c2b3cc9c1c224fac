//! Points on the board and moves between them, in ICCS coordinates.
//!
//! Files `a..=i` run from Red's left, ranks `0..=9` from Red's side: Red's general starts
//! on `e0`, Black's on `e9`. A move is written as its two squares, `h2e2`.

use std::fmt;
use std::str::FromStr;

/// A point on the 9x10 board. The index is `rank * 9 + file`, so squares fit tables of
/// [`Square::COUNT`] entries and bit `index` of a `u128` set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const COUNT: usize = 90;
    pub const FILES: u8 = 9;
    pub const RANKS: u8 = 10;

    /// The square on `file` (0..9, a..i) and `rank` (0..10), if both are on the board.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < Self::FILES && rank < Self::RANKS {
            Some(Square(rank * 9 + file))
        } else {
            None
        }
    }

    /// The square with this index, if it is below [`Square::COUNT`].
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < Self::COUNT {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// For callers that derived `index` from a valid square (tables, bit sets).
    #[inline]
    pub const fn from_index_unchecked(index: usize) -> Square {
        debug_assert!(index < Self::COUNT);
        Square(index as u8)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0..9, a..i from Red's left.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 9
    }

    /// 0..10 from Red's side.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    /// The same point seen from the other side of the board (rank `r` becomes `9 - r`).
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square((9 - self.rank()) * 9 + self.file())
    }

    /// Every square, a0 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..Self::COUNT as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Text that is not an ICCS square or move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CoordError {
    #[error("'{0}' is not a square: write a file a..i and a rank 0..9, like e0")]
    Square(String),
    #[error("'{0}' is not a move: write two squares, like h2e2")]
    Move(String),
}

impl FromStr for Square {
    type Err = CoordError;

    fn from_str(s: &str) -> Result<Square, CoordError> {
        let err = || CoordError::Square(s.to_string());
        let b = s.trim().as_bytes();
        if b.len() != 2 {
            return Err(err());
        }
        let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'0');
        Square::new(file, rank).ok_or_else(err)
    }
}

/// A move from one square to another. Packed as `from | to << 7` in a `u16`; the value 0
/// (a0 to a0) is never a real move and serves as "no move" in tables.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u16);

impl Move {
    /// Not a move: a placeholder for empty table slots.
    pub const NONE: Move = Move(0);

    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 7)
    }

    #[inline]
    pub const fn from(self) -> Square {
        Square((self.0 & 0x7F) as u8)
    }

    #[inline]
    pub const fn to(self) -> Square {
        Square((self.0 >> 7) as u8)
    }

    /// The packed form, for hash tables and books.
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The move with these packed bits, if they name two distinct squares on the board.
    pub const fn from_bits(bits: u16) -> Option<Move> {
        let from = (bits & 0x7F) as usize;
        let to = (bits >> 7) as usize;
        if from < Square::COUNT && to < Square::COUNT && from != to {
            Some(Move(bits))
        } else {
            None
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Move {
    type Err = CoordError;

    /// Reads `h2e2`, and the older ICCS forms `H2-E2` and `h2-e2`.
    fn from_str(s: &str) -> Result<Move, CoordError> {
        let err = || CoordError::Move(s.to_string());
        let t: String = s.trim().chars().filter(|&c| c != '-').collect();
        if t.len() != 4 || !t.is_ascii() {
            return Err(err());
        }
        let from: Square = t[..2].parse().map_err(|_| err())?;
        let to: Square = t[2..].parse().map_err(|_| err())?;
        if from == to {
            return Err(err());
        }
        Ok(Move::new(from, to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_read_and_write() {
        let s: Square = "e0".parse().unwrap();
        assert_eq!((s.file(), s.rank()), (4, 0));
        assert_eq!(s.to_string(), "e0");
        let s: Square = "I9".parse().unwrap();
        assert_eq!((s.file(), s.rank()), (8, 9));
        assert_eq!(s.flip_rank().to_string(), "i0");
        for bad in ["j0", "a10", "e", "", "0e", "e-"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
    }

    #[test]
    fn moves_read_and_write() {
        let m: Move = "h2e2".parse().unwrap();
        assert_eq!(m.from().to_string(), "h2");
        assert_eq!(m.to().to_string(), "e2");
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!("H2-E2".parse::<Move>(), Ok(m));
        assert_eq!(Move::from_bits(m.bits()), Some(m));
        assert_eq!(Move::from_bits(0), None);
        for bad in ["h2e", "h2h2", "h2e2e", "z2e2", "ééé"] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
    }
}
