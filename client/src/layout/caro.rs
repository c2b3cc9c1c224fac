//! Where each point of a caro board sits on the screen.
//!
//! Each point takes two screen columns, a separator then the stone, so the separators on
//! either side of the cursor can carry its brackets; two label columns run down each
//! side and a label row along the top and the bottom. A board larger than its area
//! shows the window around a focus point (the cursor, or the last move).

use banco_protocol::Point;
use ratatui::layout::Rect;

/// Columns of a row label (`15`, `63`).
pub const LABEL: u16 = 2;

/// Where each visible point of a board sits on the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    /// Board size.
    pub width: u8,
    pub height: u8,
    /// The first visible column and row, and how many of each are visible.
    pub first_x: u8,
    pub first_y: u8,
    pub cols: u8,
    pub rows: u8,
    /// Screen column of the left row labels; the first point's separator follows them.
    pub left: u16,
    /// Screen row of the top column labels; the first visible row is below it.
    pub top: u16,
}

impl Geometry {
    /// Fits a `width` x `height` board into `area`, showing the part around `focus`
    /// when it does not all fit, and centring it when it does.
    pub fn new(area: Rect, width: u8, height: u8, focus: Point) -> Geometry {
        // Two label columns each side plus the trailing separator; a label row above and
        // below.
        let fit_cols = (area.width.saturating_sub(2 * LABEL + 1) / 2).min(u16::from(width));
        let fit_rows = area.height.saturating_sub(2).min(u16::from(height));
        let cols = fit_cols as u8;
        let rows = fit_rows as u8;
        let window = |focus: u8, visible: u8, size: u8| -> u8 {
            if visible >= size || visible == 0 {
                0
            } else {
                focus.saturating_sub(visible / 2).min(size - visible)
            }
        };
        let total_w = 2 * LABEL + 2 * u16::from(cols) + 1;
        let total_h = u16::from(rows) + 2;
        Geometry {
            width,
            height,
            first_x: window(focus.x, cols, width),
            first_y: window(focus.y, rows, height),
            cols,
            rows,
            left: area.x + area.width.saturating_sub(total_w) / 2,
            top: area.y + area.height.saturating_sub(total_h) / 2,
        }
    }

    /// The screen column of point column `x`'s stone, if visible.
    pub fn stone_col(&self, x: u8) -> Option<u16> {
        let i = x.checked_sub(self.first_x).filter(|i| *i < self.cols)?;
        Some(self.left + LABEL + 1 + 2 * u16::from(i))
    }

    /// The screen row of point row `y`, if visible.
    pub fn row(&self, y: u8) -> Option<u16> {
        let i = y.checked_sub(self.first_y).filter(|i| *i < self.rows)?;
        Some(self.top + 1 + u16::from(i))
    }

    /// The point drawn at screen cell (`col`, `row`): a click on a stone or on the
    /// separator just left of it.
    pub fn point_at(&self, col: u16, row: u16) -> Option<Point> {
        let dy = row.checked_sub(self.top + 1)?;
        let dx = col.checked_sub(self.left + LABEL)?;
        let (i, j) = (dx / 2, dy);
        if i >= u16::from(self.cols) || j >= u16::from(self.rows) {
            return None;
        }
        Some(Point::new(self.first_x + i as u8, self.first_y + j as u8))
    }

    /// Whether the board has more columns/rows than are shown.
    pub fn scrolls(&self) -> bool {
        self.cols < self.width || self.rows < self.height
    }

    /// The width and height the drawn board takes.
    pub fn size(&self) -> (u16, u16) {
        (
            2 * LABEL + 2 * u16::from(self.cols) + 1,
            u16::from(self.rows) + 2,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_boards_are_centred_and_clicks_find_points() {
        let g = Geometry::new(Rect::new(0, 0, 60, 30), 15, 15, Point::new(7, 7));
        assert_eq!((g.cols, g.rows, g.first_x, g.first_y), (15, 15, 0, 0));
        let (w, h) = g.size();
        assert_eq!((w, h), (35, 17));
        assert_eq!(g.left, (60 - 35) / 2);
        let (sx, sy) = (g.stone_col(7).unwrap(), g.row(7).unwrap());
        assert_eq!(g.point_at(sx, sy), Some(Point::new(7, 7)));
        // The separator left of a stone belongs to it too.
        assert_eq!(g.point_at(sx - 1, sy), Some(Point::new(7, 7)));
        assert_eq!(g.point_at(sx + 1, sy), Some(Point::new(8, 7)));
        // Labels are not points.
        assert_eq!(g.point_at(sx, g.top), None);
        assert_eq!(g.point_at(g.left, sy), None);
        assert!(!g.scrolls());
    }

    #[test]
    fn large_boards_scroll_with_the_cursor() {
        let area = Rect::new(0, 0, 45, 20);
        let g = Geometry::new(area, 64, 64, Point::new(0, 0));
        assert_eq!((g.cols, g.rows), (20, 18));
        assert_eq!((g.first_x, g.first_y), (0, 0));
        let g = Geometry::new(area, 64, 64, Point::new(40, 40));
        assert_eq!((g.first_x, g.first_y), (30, 31));
        assert!(g.stone_col(40).is_some() && g.row(40).is_some());
        let g = Geometry::new(area, 64, 64, Point::new(63, 63));
        assert_eq!((g.first_x, g.first_y), (44, 46));
        assert!(g.stone_col(63).is_some() && g.row(63).is_some());
        assert!(g.scrolls());
    }
}
