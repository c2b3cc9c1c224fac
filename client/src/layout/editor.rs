//! The position editor's regions: the board being arranged on the left (on top when the
//! terminal is narrow), the panel with the side to move, the palette (xiangqi) and the
//! reasons on the right; status, notice and keys below. And what a click lands on: a
//! point of the board or an entry of the palette.

use banco_protocol::{Point, XqSquare};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::widgets::{Block, Padding};

use super::{BoardShape, caro, xiangqi};

/// Where the editor's parts go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EditorLayout {
    /// The title bar.
    pub title: Rect,
    /// The board being arranged.
    pub board: Rect,
    /// The side to move, the palette or the stone counts, the reasons, the position as
    /// text.
    pub panel: Rect,
    /// The point under the cursor.
    pub status: Rect,
    /// The latest event.
    pub notice: Rect,
    /// The key legend, two lines.
    pub keys: Rect,
}

/// Screen columns of one palette entry: the piece, then its letter and count below.
pub const CELL: u16 = 4;
/// Columns before the first palette entry (the side's name).
pub const PALETTE_LABEL: u16 = 7;
/// The palette's first line inside the panel (after the side to move and a gap).
pub const PALETTE_TOP: u16 = 2;

/// The panel's frame: rounded borders and a column of padding each side.
pub fn panel_block(title: &str) -> Block<'_> {
    Block::bordered()
        .padding(Padding::horizontal(1))
        .border_type(ratatui::widgets::BorderType::Rounded)
        .title(format!(" {title} "))
}

/// What a click in the editor lands on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditorHit {
    /// A xiangqi square.
    Square(XqSquare),
    /// A caro point.
    Point(Point),
    /// A palette entry (xiangqi): Red's seven kinds, then Black's.
    Palette(usize),
}

impl EditorLayout {
    /// Splits `area` for a `board` being arranged.
    pub fn new(area: Rect, board: BoardShape) -> EditorLayout {
        let [title, body, status, notice, keys] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(8),
            Constraint::Length(1),
            Constraint::Length(1),
            Constraint::Length(2),
        ])
        .areas(area);
        let board_wants = board.wants();
        let (board, panel) = if body.width >= 76 {
            let panel_w = body.width.saturating_sub(board_wants).clamp(36, 52);
            let [b, p] =
                Layout::horizontal([Constraint::Min(20), Constraint::Length(panel_w)]).areas(body);
            (b, p)
        } else {
            let [b, p] = Layout::vertical([Constraint::Min(12), Constraint::Length(9)]).areas(body);
            (b, p)
        };
        EditorLayout {
            title,
            board,
            panel,
            status,
            notice,
            keys,
        }
    }

    /// The panel's inside, where its lines (and the palette) are drawn.
    pub fn panel_inner(&self) -> Rect {
        panel_block("").inner(self.panel)
    }

    /// What a click at (`col`, `row`) on a xiangqi editor (`flipped`: Black at the
    /// bottom) lands on: a square, or a palette entry.
    pub fn xiangqi_hit(&self, flipped: bool, col: u16, row: u16) -> Option<EditorHit> {
        let g = xiangqi::Geometry::new(self.board, flipped);
        if let Some(sq) = g.square_at(col, row) {
            return Some(EditorHit::Square(sq));
        }
        let inner = self.panel_inner();
        let dy = row.checked_sub(inner.y + PALETTE_TOP)?;
        let dx = col.checked_sub(inner.x + PALETTE_LABEL)?;
        let (colour, kind) = (dy / 2, dx / CELL);
        (colour < 2 && kind < 7).then_some(EditorHit::Palette(usize::from(colour * 7 + kind)))
    }

    /// The point a click at (`col`, `row`) lands on in a caro editor of `width` x
    /// `height` drawn around `cursor`.
    pub fn caro_hit(
        &self,
        width: u8,
        height: u8,
        cursor: Point,
        col: u16,
        row: u16,
    ) -> Option<EditorHit> {
        caro::Geometry::new(self.board, width, height, cursor)
            .point_at(col, row)
            .map(EditorHit::Point)
    }
}
