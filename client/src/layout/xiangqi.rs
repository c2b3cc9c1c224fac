//! Where each square of a xiangqi board sits on the screen.
//!
//! Each file takes four screen columns: the piece (two columns for a CJK character)
//! and the line to the next file. Ranks sit on every other screen row with the vertical
//! lines, the river and the palace diagonals between them; an area too short for that
//! gets the compact board, one row per rank. Red sits at the bottom unless flipped.

use banco_protocol::XqSquare;
use ratatui::layout::Rect;

/// Screen columns per file.
pub const COL: u16 = 4;
/// Width of the drawn board between the rank labels: eight gaps and the last piece.
pub const WIDE: u16 = 8 * COL + 2;
/// Rows of the full board: ten ranks and the nine rows between them.
pub const FULL_ROWS: u16 = 19;

/// The smallest area the board is drawn in: the compact board (one row per rank) with
/// its labels all round. A smaller area says how big the window must be instead.
pub const MIN_WIDTH: u16 = 2 + WIDE + 3;
pub const MIN_HEIGHT: u16 = 10 + 2;

/// Where each square sits on the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    /// Black at the bottom.
    pub flipped: bool,
    /// One row per rank, no lines between ranks.
    pub compact: bool,
    /// Screen column of file column 0's piece.
    pub left: u16,
    /// Screen row of the top labels; the top rank is the row below.
    pub top: u16,
}

impl Geometry {
    pub fn new(area: Rect, flipped: bool) -> Geometry {
        let compact = area.height < FULL_ROWS + 2;
        let rows = if compact { 10 } else { FULL_ROWS };
        let total_w = MIN_WIDTH;
        Geometry {
            flipped,
            compact,
            left: area.x + area.width.saturating_sub(total_w) / 2 + 2,
            top: area.y + area.height.saturating_sub(rows + 2) / 2,
        }
    }

    pub fn step(&self) -> u16 {
        if self.compact { 1 } else { 2 }
    }

    /// Screen column index (0 left) of a file, and row index (0 top) of a rank.
    fn screen_of(&self, sq: XqSquare) -> (u16, u16) {
        if self.flipped {
            (u16::from(8 - sq.file), u16::from(sq.rank))
        } else {
            (u16::from(sq.file), u16::from(9 - sq.rank))
        }
    }

    pub fn square_of(&self, c: u16, r: u16) -> XqSquare {
        let (c, r) = (c as u8, r as u8);
        if self.flipped {
            XqSquare {
                file: 8 - c,
                rank: r,
            }
        } else {
            XqSquare {
                file: c,
                rank: 9 - r,
            }
        }
    }

    /// The screen cell of a square's piece.
    pub fn cell(&self, sq: XqSquare) -> (u16, u16) {
        let (c, r) = self.screen_of(sq);
        (self.left + COL * c, self.top + 1 + r * self.step())
    }

    /// The square drawn at screen cell (`col`, `row`): a click on a piece, on the column
    /// just before it, or on its second half.
    pub fn square_at(&self, col: u16, row: u16) -> Option<XqSquare> {
        let dy = row.checked_sub(self.top + 1)?;
        if dy % self.step() != 0 || dy / self.step() > 9 {
            return None;
        }
        let dx = (col + 1).checked_sub(self.left)?;
        let (c, within) = (dx / COL, dx % COL);
        if c > 8 || within == 3 {
            return None;
        }
        Some(self.square_of(c, dy / self.step()))
    }

    /// The rows the drawn board takes, labels included.
    pub fn height(&self) -> u16 {
        if self.compact { 12 } else { FULL_ROWS + 2 }
    }
}

/// Whether a board drawn with `g` fits in `area`.
pub fn fits(g: &Geometry, area: Rect) -> bool {
    area.width >= MIN_WIDTH && area.height >= MIN_HEIGHT.max(g.height())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_map_both_ways_in_both_orientations() {
        for flipped in [false, true] {
            for height in [30, 14] {
                let g = Geometry::new(Rect::new(0, 0, 60, height), flipped);
                assert_eq!(g.compact, height < 21);
                for file in 0..9 {
                    for rank in 0..10 {
                        let sq = XqSquare { file, rank };
                        let (x, y) = g.cell(sq);
                        assert_eq!(g.square_at(x, y), Some(sq));
                        assert_eq!(
                            g.square_at(x + 1, y),
                            Some(sq),
                            "second half of a wide piece"
                        );
                        assert_eq!(g.square_at(x - 1, y), Some(sq), "the cell before it");
                    }
                }
            }
        }
        let g = Geometry::new(Rect::new(0, 0, 60, 30), false);
        // Red's corner, bottom left; Black's top left.
        assert_eq!(
            g.square_at(g.left, g.top + 19),
            Some(XqSquare { file: 0, rank: 0 })
        );
        assert_eq!(
            g.square_at(g.left, g.top + 1),
            Some(XqSquare { file: 0, rank: 9 })
        );
        // Between ranks and on the labels: nothing.
        assert_eq!(g.square_at(g.left, g.top + 2), None);
        assert_eq!(g.square_at(g.left, g.top), None);
        let f = Geometry::new(Rect::new(0, 0, 60, 30), true);
        assert_eq!(
            f.square_at(f.left, f.top + 1),
            Some(XqSquare { file: 8, rank: 0 })
        );
    }
}
