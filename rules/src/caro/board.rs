//! The caro board: which stone stands on which point.
//!
//! Layout: a row-major `Vec` of cells, index = `y * width + x`, with (0,0) the top-left
//! corner as in the Gomocup protocol. This board is the rules' board: simple and exact.
//! Searches keep their own faster structures and build them from it.

use serde::{Deserialize, Serialize};
use std::fmt;

use super::zobrist;

/// The smallest board side banco allows.
pub const MIN_SIDE: u8 = 5;
/// The largest board side banco allows.
pub const MAX_SIDE: u8 = 64;

/// One of the two players' stones. X always moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Stone {
    X,
    O,
}

impl Stone {
    /// The other player's stone.
    #[inline]
    pub fn opponent(self) -> Stone {
        match self {
            Stone::X => Stone::O,
            Stone::O => Stone::X,
        }
    }

    /// 0 for X, 1 for O: for tables indexed by stone.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The character this stone is drawn with.
    pub fn symbol(self) -> char {
        match self {
            Stone::X => 'X',
            Stone::O => 'O',
        }
    }
}

impl fmt::Display for Stone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.symbol())
    }
}

/// A point on the board: `x` is the column from the left, `y` the row from the top, both
/// 0-based (the Gomocup convention).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Point {
    pub x: u8,
    pub y: u8,
}

impl Point {
    pub const fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }

    /// The point `steps` steps from here in direction (dx, dy), if it has non-negative
    /// coordinates that fit a `u8`. Whether it is on a given board is the board's question.
    #[inline]
    pub fn offset(self, dx: i32, dy: i32, steps: i32) -> Option<Point> {
        let x = i32::from(self.x) + dx * steps;
        let y = i32::from(self.y) + dy * steps;
        if (0..256).contains(&x) && (0..256).contains(&y) {
            Some(Point::new(x as u8, y as u8))
        } else {
            None
        }
    }
}

impl fmt::Display for Point {
    /// Gomocup form: `x,y`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// A board size outside what banco allows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a board must be {MIN_SIDE} to {MAX_SIDE} cells on each side, not {width}x{height}")]
pub struct SizeError {
    pub width: u32,
    pub height: u32,
}

/// Stones on a rectangular board, with an incrementally kept Zobrist hash.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    /// Columns, `MIN_SIDE..=MAX_SIDE`.
    width: u8,
    /// Rows, `MIN_SIDE..=MAX_SIDE`.
    height: u8,
    /// `y * width + x` -> the stone there, if any.
    cells: Vec<Option<Stone>>,
    /// How many stones stand on the board: a full board is a draw.
    stones: usize,
    /// XOR of the keys of every stone on the board.
    hash: u64,
}

impl Board {
    /// An empty board of `width` columns and `height` rows.
    pub fn new(width: u32, height: u32) -> Result<Board, SizeError> {
        let range = u32::from(MIN_SIDE)..=u32::from(MAX_SIDE);
        if !range.contains(&width) || !range.contains(&height) {
            return Err(SizeError { width, height });
        }
        Ok(Board {
            width: width as u8,
            height: height as u8,
            cells: vec![None; (width * height) as usize],
            stones: 0,
            hash: 0,
        })
    }

    pub fn width(&self) -> u8 {
        self.width
    }

    pub fn height(&self) -> u8 {
        self.height
    }

    /// Number of stones on the board.
    pub fn stones(&self) -> usize {
        self.stones
    }

    /// Every cell holds a stone.
    pub fn is_full(&self) -> bool {
        self.stones == self.cells.len()
    }

    /// The Zobrist hash of the stones (side to move not included).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Whether (x, y) lies on the board; takes signed coordinates so callers can walk off
    /// an edge without wrapping.
    #[inline]
    pub fn contains(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < i32::from(self.width) && y < i32::from(self.height)
    }

    /// Whether `p` lies on the board.
    #[inline]
    pub fn contains_point(&self, p: Point) -> bool {
        p.x < self.width && p.y < self.height
    }

    /// The cell at (x, y): `None` off the board, `Some(None)` empty, `Some(Some(stone))`.
    #[inline]
    pub fn cell(&self, x: i32, y: i32) -> Option<Option<Stone>> {
        if self.contains(x, y) {
            Some(self.cells[y as usize * self.width as usize + x as usize])
        } else {
            None
        }
    }

    /// The stone on `p`; `None` if the point is empty or off the board.
    #[inline]
    pub fn stone_at(&self, p: Point) -> Option<Stone> {
        self.cell(i32::from(p.x), i32::from(p.y)).flatten()
    }

    /// Whether `p` is on the board and empty.
    #[inline]
    pub fn is_empty_at(&self, p: Point) -> bool {
        self.cell(i32::from(p.x), i32::from(p.y)) == Some(None)
    }

    /// Puts `stone` on `p`. The caller guarantees `p` is on the board and empty
    /// ([`super::Game::play`] checks both for moves that come from outside).
    pub fn place(&mut self, p: Point, stone: Stone) {
        debug_assert!(self.is_empty_at(p), "place on {p}: not an empty point");
        let i = self.index(p);
        self.cells[i] = Some(stone);
        self.stones += 1;
        self.hash ^= zobrist::key(p, stone);
    }

    /// Lifts the stone off `p` and returns it (`None` if the point was empty).
    pub fn remove(&mut self, p: Point) -> Option<Stone> {
        if !self.contains_point(p) {
            return None;
        }
        let i = self.index(p);
        let stone = self.cells[i].take()?;
        self.stones -= 1;
        self.hash ^= zobrist::key(p, stone);
        Some(stone)
    }

    /// Every point of the board, row by row.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Point::new(x, y)))
    }

    #[inline]
    fn index(&self, p: Point) -> usize {
        p.y as usize * self.width as usize + p.x as usize
    }
}

impl fmt::Debug for Board {
    /// One text row per board row: `.` empty, `X`, `O`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..self.height {
            for x in 0..self.width {
                let c = self.stone_at(Point::new(x, y)).map_or('.', Stone::symbol);
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_checked() {
        assert!(Board::new(15, 15).is_ok());
        assert!(Board::new(5, 64).is_ok());
        assert_eq!(
            Board::new(4, 15),
            Err(SizeError {
                width: 4,
                height: 15
            })
        );
        assert!(Board::new(65, 15).is_err());
    }

    #[test]
    fn place_and_remove_restore_hash() {
        let mut b = Board::new(15, 10).unwrap();
        let empty = b.hash();
        b.place(Point::new(3, 4), Stone::X);
        b.place(Point::new(14, 9), Stone::O);
        assert_eq!(b.stone_at(Point::new(14, 9)), Some(Stone::O));
        assert_eq!(b.stones(), 2);
        assert_eq!(b.remove(Point::new(3, 4)), Some(Stone::X));
        assert_eq!(b.remove(Point::new(14, 9)), Some(Stone::O));
        assert_eq!(b.remove(Point::new(14, 9)), None);
        assert_eq!(b.hash(), empty);
        assert!(b.cell(15, 0).is_none());
        assert!(b.cell(-1, 0).is_none());
        assert_eq!(b.cell(0, 9), Some(None));
    }
}
