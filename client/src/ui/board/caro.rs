//! The caro board widget.
//!
//! Each point takes two screen columns, a separator then the stone, so the separators on
//! either side of the cursor can carry its brackets: `· ·[X]· ·`. Coordinates run along
//! all four edges: letters and rows counted from the bottom (`h8`) on boards of at most
//! 26 columns, 0-based numbers from the top-left (`x,y`, as the Gomocup protocol and the
//! plain mode's `move 7,7`) on wider ones, where every other column (and the cursor's)
//! is numbered so two-digit numbers stay apart. A board larger than its area shows the window
//! around the cursor.

use banco_protocol::{Move, Point};
use banco_rules::caro::{Game, Stone};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::Widget;

use crate::app::{App, RoomScreen};
use crate::room::threats::{self, Warnings};
use crate::theme::Theme;

/// Columns of a row label (`15`, `63`).
const LABEL: u16 = 2;

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

/// Everything the widget draws.
pub struct CaroBoard<'a> {
    game: &'a Game,
    theme: &'a Theme,
    cursor: Option<Point>,
    /// The point the view centres on when the board does not fit: the cursor, or the
    /// last move of a replay.
    focus: Option<Point>,
    /// Whether the cursor is shown (it is hidden while typing in the chat).
    cursor_live: bool,
    /// The winning line, once the game is won.
    winning: &'a [Point],
    hint: Option<Point>,
    /// The opponent's threats: the four warning.
    warnings: Warnings,
    /// Draft mode: the moves from this index on are trial moves, drawn apart.
    trial_from: Option<usize>,
}

impl<'a> CaroBoard<'a> {
    pub fn new(app: &'a App, rs: &'a RoomScreen, game: &'a Game) -> CaroBoard<'a> {
        let state = rs.room.game.as_ref();
        let winning = state
            .and_then(|g| g.over.as_ref())
            .map_or(&[][..], |o| o.line.as_slice());
        let hint = match rs.room.hint {
            Some(Move::Caro(p)) => Some(p),
            _ => None,
        };
        let warnings = match (
            rs.room.my_seat(),
            app.settings.threat_warning,
            rs.room.playing(),
        ) {
            (Some(me), true, true) => threats::warnings(game, rs.room.caro_stone(me.other())),
            _ => Warnings::default(),
        };
        CaroBoard {
            game,
            theme: &app.theme,
            cursor: rs.cursor.point(),
            focus: rs.cursor.point(),
            cursor_live: !rs.chat_focus,
            winning,
            hint,
            warnings,
            trial_from: None,
        }
    }

    /// The board as a draft: moves from `base` on are trial moves, and a five they make
    /// lights up as a real one would.
    pub fn trials(mut self, base: usize) -> CaroBoard<'a> {
        self.trial_from = Some(base);
        self.hint = None;
        self.winning = &[];
        self
    }

    /// A board to look at, not play on (a replay): no cursor, the view follows the last
    /// move, `winning` lit.
    pub fn still(theme: &'a Theme, game: &'a Game, winning: &'a [Point]) -> CaroBoard<'a> {
        CaroBoard {
            game,
            theme,
            cursor: None,
            focus: game.last_move(),
            cursor_live: false,
            winning,
            hint: None,
            warnings: Warnings::default(),
            trial_from: None,
        }
    }

    /// Marks `mv` as a hint is marked (a replay's review: the engine's choice).
    pub fn with_hint(mut self, mv: Option<Move>) -> CaroBoard<'a> {
        if let Some(Move::Caro(p)) = mv {
            self.hint = Some(p);
        }
        self
    }

    fn point_style(&self, p: Point, stone: Option<Stone>) -> (char, Style) {
        let c = &self.theme.colors;
        let base = Style::new().bg(c.board_bg);
        let (glyph, mut style) = match stone {
            Some(s) => (
                self.theme.glyph(s == Stone::X),
                self.theme.stone(s == Stone::X).bg(c.board_bg),
            ),
            None if self.hint == Some(p) => (
                self.theme.hint_glyph,
                base.fg(c.hint).add_modifier(Modifier::BOLD),
            ),
            None => (self.theme.empty_glyph, base.fg(c.grid)),
        };
        if self.warnings.fives.contains(&p) {
            style = style.bg(c.threat_bg).add_modifier(Modifier::BOLD);
        } else if self.warnings.three_stops.contains(&p) {
            style = style.bg(c.three_bg);
        }
        if self.game.last_move() == Some(p) {
            style = style.bg(c.last_bg);
        }
        // The opening's stones were dealt, not played: underlined, so a glance tells
        // them from the moves.
        if stone.is_some() && self.game.opening().contains(&p) {
            style = style.add_modifier(Modifier::UNDERLINED);
        }
        if let Some(base) = self.trial_from
            && self
                .game
                .moves()
                .get(base..)
                .is_some_and(|t| t.contains(&p))
        {
            style = style.bg(c.draft_bg);
            if self.game.last_move() == Some(p) {
                style = style.add_modifier(Modifier::UNDERLINED);
            }
        }
        let draft_five = match (self.trial_from, self.game.outcome()) {
            (Some(_), Some(banco_rules::caro::Outcome::Win { line, .. })) => {
                line.points().any(|q| q == p)
            }
            _ => false,
        };
        if self.winning.contains(&p) || draft_five {
            style = style.bg(c.win_bg).fg(c.win_fg).add_modifier(Modifier::BOLD);
        }
        (glyph, style)
    }
}

impl Widget for CaroBoard<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let board = self.game.board();
        let focus = self
            .focus
            .unwrap_or(Point::new(board.width() / 2, board.height() / 2));
        let g = Geometry::new(area, board.width(), board.height(), focus);
        if g.cols == 0 || g.rows == 0 {
            return;
        }
        let cursor = self.cursor.filter(|_| self.cursor_live);
        draw_frame(buf, area, &g, self.theme, cursor);
        for y in g.first_y..g.first_y + g.rows {
            let Some(sy) = g.row(y) else { continue };
            for x in g.first_x..g.first_x + g.cols {
                let Some(sx) = g.stone_col(x) else { continue };
                let p = Point::new(x, y);
                let (glyph, style) = self.point_style(p, board.stone_at(p));
                buf.set_string(sx, sy, glyph.to_string(), style);
            }
        }
    }
}

/// Everything but the points: the board's background, the coordinates along its edges
/// (the cursor's column and row lit), the cursor's brackets, and arrows in the corners
/// when part of the board is out of view. The caller draws each point.
pub fn draw_frame(
    buf: &mut Buffer,
    area: Rect,
    g: &Geometry,
    theme: &Theme,
    cursor: Option<Point>,
) {
    let c = &theme.colors;
    let (w, h) = g.size();
    let bg = Style::new().bg(c.board_bg);
    buf.set_style(Rect::new(g.left, g.top, w, h).intersection(area), bg);
    let letters = g.width <= 26;
    let label = Style::new().bg(c.board_bg).fg(c.label);
    let label_hot = Style::new()
        .bg(c.board_bg)
        .fg(c.accent)
        .add_modifier(Modifier::BOLD);
    // Column labels, top and bottom. Two-digit numbers two columns apart would run
    // together (`91011`), so wide boards label every other column, and always the
    // cursor's (its neighbours then give way).
    for x in g.first_x..g.first_x + g.cols {
        let Some(sx) = g.stone_col(x) else { continue };
        if !letters && !column_labelled(x, cursor.map(|p| p.x)) {
            continue;
        }
        let text = if letters {
            char::from(b'a' + x).to_string()
        } else {
            format!("{x:>2}")
        };
        let style = if cursor.is_some_and(|p| p.x == x) {
            label_hot
        } else {
            label
        };
        let sx = sx + 1 - text.len() as u16;
        buf.set_string(sx, g.top, &text, style);
        buf.set_string(sx, g.top + u16::from(g.rows) + 1, &text, style);
    }
    // Row labels, left and right.
    for y in g.first_y..g.first_y + g.rows {
        let Some(sy) = g.row(y) else { continue };
        let number = if letters {
            u16::from(g.height - y)
        } else {
            u16::from(y)
        };
        let style = if cursor.is_some_and(|p| p.y == y) {
            label_hot
        } else {
            label
        };
        buf.set_string(g.left, sy, format!("{number:>2}"), style);
        let right = g.left + LABEL + 2 * u16::from(g.cols) + 1;
        buf.set_string(right, sy, format!("{number:<2}"), style);
    }
    // The cursor's brackets sit in the separators either side of its point.
    if let Some(p) = cursor
        && let (Some(sx), Some(sy)) = (g.stone_col(p.x), g.row(p.y))
    {
        let style = Style::new()
            .bg(c.board_bg)
            .fg(c.cursor)
            .add_modifier(Modifier::BOLD);
        buf.set_string(sx - 1, sy, "[", style);
        buf.set_string(sx + 1, sy, "]", style);
    }
    // Arrows in the corners when part of the board is out of view.
    if g.scrolls() {
        let more = Style::new().bg(c.board_bg).fg(c.accent);
        let bottom = g.top + u16::from(g.rows) + 1;
        let right = g.left + w - 1;
        if g.first_x > 0 {
            buf.set_string(g.left, g.top, "◀", more);
        }
        if g.first_x + g.cols < g.width {
            buf.set_string(right, g.top, "▶", more);
        }
        if g.first_y > 0 {
            buf.set_string(g.left + 1, g.top, "▲", more);
        }
        if g.first_y + g.rows < g.height {
            buf.set_string(g.left + 1, bottom, "▼", more);
        }
    }
}

/// Whether column `x` of a numbered (wide) board carries its label: the even ones, and
/// the cursor's column instead of its neighbours.
fn column_labelled(x: u8, cursor: Option<u8>) -> bool {
    match cursor {
        Some(c) if c == x => true,
        Some(c) if c.abs_diff(x) == 1 => false,
        _ => x.is_multiple_of(2),
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

    #[test]
    fn wide_boards_label_every_other_column_and_the_cursors() {
        let shown =
            |cursor| -> Vec<u8> { (0..8).filter(|&x| column_labelled(x, cursor)).collect() };
        assert_eq!(shown(None), [0, 2, 4, 6]);
        assert_eq!(shown(Some(4)), [0, 2, 4, 6]);
        assert_eq!(shown(Some(3)), [0, 3, 6]);
    }
}
