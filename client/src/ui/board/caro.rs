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
use crate::layout::caro::{Geometry, LABEL};
use crate::room::threats::{self, Warnings};
use crate::theme::Theme;

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
    /// Renju, while Black (X) is to move: the points forbidden to Black, drawn `×`.
    forbidden: Vec<Point>,
}

/// The glyph of a point forbidden to Black under renju.
pub const FORBIDDEN_GLYPH: char = '×';

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
            forbidden: forbidden(game),
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
            forbidden: Vec::new(),
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
            None if self.forbidden.contains(&p) => (FORBIDDEN_GLYPH, base.fg(c.error)),
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

/// The points forbidden to Black now (renju, Black to move, the game running): none
/// under the other rules.
fn forbidden(game: &Game) -> Vec<Point> {
    game.forbidden_points()
        .into_iter()
        .map(|(p, _)| p)
        .collect()
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
    fn wide_boards_label_every_other_column_and_the_cursors() {
        let shown =
            |cursor| -> Vec<u8> { (0..8).filter(|&x| column_labelled(x, cursor)).collect() };
        assert_eq!(shown(None), [0, 2, 4, 6]);
        assert_eq!(shown(Some(4)), [0, 2, 4, 6]);
        assert_eq!(shown(Some(3)), [0, 3, 6]);
    }
}
