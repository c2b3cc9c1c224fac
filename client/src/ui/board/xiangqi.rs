//! The xiangqi board widget: 9 files by 10 ranks of intersections, with the river and
//! both palaces drawn, pieces as Chinese characters (帥仕相俥傌炮兵 / 將士象車馬砲卒) or, in
//! themes for terminals without CJK fonts, as WXF letters (upper case Red, lower case
//! Black). Red sits at the bottom unless this client plays Black.
//!
//! Each file takes four screen columns: the piece (two columns for a CJK character)
//! and the line to the next file. Ranks sit on every other screen row with the vertical
//! lines, the river and the palace diagonals between them; a terminal too short for
//! that gets the compact board, one row per rank.

use banco_protocol::{Move, XqSquare};
use banco_rules::xiangqi::game::Game;
use banco_rules::xiangqi::piece::{Color as Side, Piece};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use unicode_width::UnicodeWidthStr;

use crate::app::board::BoardCursor;
use crate::app::{App, RoomScreen};
use crate::layout::xiangqi::{COL, Geometry, WIDE, fits};
use crate::locale::Locale;
use crate::room::board::{wire_square, xq_square};
use crate::theme::Theme;
use crate::tr;

/// What the widget draws.
pub struct XiangqiBoard<'a> {
    game: &'a Game,
    theme: &'a Theme,
    /// For the sentence shown when the window is too small for the board.
    loc: &'a Locale,
    geometry_flip: bool,
    /// The square under the cursor, when the board has the keys.
    cursor: Option<XqSquare>,
    /// The picked-up piece and where it may go.
    selected: Option<XqSquare>,
    targets: Vec<XqSquare>,
    /// The engine's suggested move.
    hint: Option<(XqSquare, XqSquare)>,
    /// Draft mode: the squares trial moves came from and went to.
    trial: Vec<XqSquare>,
}

impl<'a> XiangqiBoard<'a> {
    pub fn new(app: &'a App, rs: &'a RoomScreen, game: &'a Game) -> XiangqiBoard<'a> {
        let (cursor, selected) = match rs.cursor {
            BoardCursor::Xiangqi { at, selected } => (Some(at), selected),
            _ => (None, None),
        };
        let targets = selected
            .and_then(xq_square)
            .map(|sq| game.targets(sq).into_iter().map(wire_square).collect())
            .unwrap_or_default();
        let hint = match rs.room.hint {
            Some(Move::Xiangqi { from, to }) => Some((from, to)),
            _ => None,
        };
        XiangqiBoard {
            game,
            theme: &app.theme,
            loc: &app.loc,
            geometry_flip: rs.room.flipped(),
            cursor: cursor.filter(|_| !rs.chat_focus),
            selected,
            targets,
            hint,
            trial: Vec::new(),
        }
    }

    /// The board as a draft: the squares of the moves from `base` on are marked.
    pub fn trials(mut self, base: usize) -> XiangqiBoard<'a> {
        self.hint = None;
        self.trial = self
            .game
            .plies()
            .get(base..)
            .unwrap_or_default()
            .iter()
            .flat_map(|p| [wire_square(p.mv.from()), wire_square(p.mv.to())])
            .collect();
        self
    }

    /// A board to look at, not play on (a replay): no cursor or selection.
    pub fn still(
        theme: &'a Theme,
        loc: &'a Locale,
        game: &'a Game,
        flipped: bool,
    ) -> XiangqiBoard<'a> {
        XiangqiBoard {
            game,
            theme,
            loc,
            geometry_flip: flipped,
            cursor: None,
            selected: None,
            targets: Vec::new(),
            hint: None,
            trial: Vec::new(),
        }
    }

    /// Marks `mv` as a hint is marked (a replay's review: the engine's choice).
    pub fn with_hint(mut self, mv: Option<Move>) -> XiangqiBoard<'a> {
        if let Some(Move::Xiangqi { from, to }) = mv {
            self.hint = Some((from, to));
        }
        self
    }
}

/// How `piece` is drawn in `theme`: its Chinese character, or its WXF letter (upper case
/// Red, lower case Black) in themes for terminals without CJK fonts.
pub fn piece_glyph(theme: &Theme, piece: Piece) -> String {
    if theme.xiangqi_letters {
        let l = piece.kind().wxf_letter();
        match piece.color() {
            Side::Red => l.to_string(),
            Side::Black => l.to_ascii_lowercase().to_string(),
        }
    } else {
        piece.chinese().to_string()
    }
}

/// The screen columns a piece takes in `theme`.
pub fn piece_width(theme: &Theme) -> u16 {
    if theme.xiangqi_letters { 1 } else { 2 }
}

/// The style of a piece of `color` on the board.
pub fn piece_style(theme: &Theme, color: Side) -> Style {
    let c = &theme.colors;
    let fg = if color == Side::Red { c.x } else { c.o };
    Style::new()
        .bg(c.board_bg)
        .fg(fg)
        .add_modifier(Modifier::BOLD)
}

/// The line junction drawn on the empty point at screen column `col`, row `row`.
pub fn empty_point(col: u16, row: u16) -> char {
    let up = row > 0 && !(row == 5 && col > 0 && col < 8);
    let down = row < 9 && !(row == 4 && col > 0 && col < 8);
    junction(up, down, col > 0, col < 8)
}

/// Everything under the pieces: the board's background, the coordinates on its edges,
/// the lines between ranks (verticals broken by the river, the palace diagonals, the
/// river's words) and along each rank, and the empty points' junctions. The caller
/// draws the points and their marks on top.
pub fn draw_frame(buf: &mut Buffer, area: Rect, g: &Geometry, theme: &Theme) {
    let c = &theme.colors;
    let bg = Style::new().bg(c.board_bg);
    let line = bg.fg(c.grid);
    let label = bg.fg(c.label);
    let board_rect = Rect::new(g.left - 2, g.top, WIDE + 5, g.height()).intersection(area);
    buf.set_style(board_rect, bg);

    // File letters above and below, rank digits left and right.
    for col in 0..9u16 {
        let sq = g.square_of(col, 0);
        let x = g.left + COL * col;
        let letter = char::from(b'a' + sq.file).to_string();
        buf.set_string(x, g.top, &letter, label);
        buf.set_string(x, g.top + g.height() - 1, &letter, label);
    }
    for row in 0..10u16 {
        let sq = g.square_of(0, row);
        let y = g.top + 1 + row * g.step();
        buf.set_string(g.left - 2, y, sq.rank.to_string(), label);
        buf.set_string(g.left + WIDE + 1, y, sq.rank.to_string(), label);
    }

    // Lines between ranks: verticals (broken by the river), palace diagonals.
    if !g.compact {
        for gap in 0..9u16 {
            let y = g.top + 2 + gap * 2;
            for col in 0..9u16 {
                let river = gap == 4 && col > 0 && col < 8;
                if !river {
                    buf.set_string(g.left + COL * col, y, "│", line);
                }
            }
            let diagonals = match gap {
                0 | 7 => Some(("╲", "╱")),
                1 | 8 => Some(("╱", "╲")),
                _ => None,
            };
            if let Some((a, b)) = diagonals {
                buf.set_string(g.left + COL * 3 + 2, y, a, line);
                buf.set_string(g.left + COL * 4 + 2, y, b, line);
            }
            if gap == 4 {
                let (left_text, right_text) = if theme.xiangqi_letters {
                    ("~ river ~", "~ river ~")
                } else {
                    ("楚 河", "漢 界")
                };
                let river_style = bg.fg(c.label).add_modifier(Modifier::BOLD);
                // Each label centred in its half of the river, clear of the edge files'
                // lines: the halves are the 15 columns inside files a-e and e-i.
                let half = 4 * COL - 1;
                for (text, start) in [(left_text, 1), (right_text, 4 * COL + 1)] {
                    let pad = half.saturating_sub(text.width() as u16) / 2;
                    buf.set_string(g.left + start + pad, y, text, river_style);
                }
            }
        }
    }

    // Along each rank: the lines between points, and the empty points.
    for row in 0..10u16 {
        let y = g.top + 1 + row * g.step();
        for col in 0..9u16 {
            let x = g.left + COL * col;
            if col < 8 {
                buf.set_string(x + 1, y, "───", line);
            }
            buf.set_string(x, y, empty_point(col, row).to_string(), line);
        }
    }
}

/// The box-drawing character for an empty point with lines going the given ways.
fn junction(up: bool, down: bool, left: bool, right: bool) -> char {
    match (up, down, left, right) {
        (false, true, false, true) => '┌',
        (false, true, true, false) => '┐',
        (true, false, false, true) => '└',
        (true, false, true, false) => '┘',
        (false, true, true, true) => '┬',
        (true, false, true, true) => '┴',
        (true, true, false, true) => '├',
        (true, true, true, false) => '┤',
        _ => '┼',
    }
}

impl Widget for XiangqiBoard<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let g = Geometry::new(area, self.geometry_flip);
        if !fits(&g, area) {
            // Too small even for the compact board: say so, and what size would do (the
            // side panel still lists the moves).
            let (w, h) = crate::layout::room::xiangqi_window();
            let text = tr!(self.loc, "room.board_too_small", width = w, height = h);
            Paragraph::new(text)
                .style(self.theme.error())
                .wrap(Wrap { trim: true })
                .render(area, buf);
            return;
        }
        draw_frame(buf, area, &g, self.theme);
        let c = &self.theme.colors;
        let bg = Style::new().bg(c.board_bg);
        let line = bg.fg(c.grid);
        let pos = self.game.position();
        let pw = piece_width(self.theme);

        // The ranks: points, pieces and the lines along each rank.
        let last = self
            .game
            .plies()
            .last()
            .map(|p| (wire_square(p.mv.from()), wire_square(p.mv.to())));
        let checked = self
            .game
            .in_check()
            .then(|| wire_square(pos.king(pos.side_to_move())));
        for row in 0..10u16 {
            for col in 0..9u16 {
                let sq = g.square_of(col, row);
                let x = g.left + COL * col;
                let y = g.top + 1 + row * g.step();
                let piece = xq_square(sq).and_then(|s| pos.piece_at(s));
                let target = self.targets.contains(&sq);
                let (text, mut style) = match piece {
                    Some(p) => (
                        piece_glyph(self.theme, p),
                        piece_style(self.theme, p.color()),
                    ),
                    None if target => ("•".to_string(), bg.fg(c.hint).add_modifier(Modifier::BOLD)),
                    None => (empty_point(col, row).to_string(), line),
                };
                if last.is_some_and(|(f, t)| f == sq || t == sq) {
                    style = style.bg(c.last_bg);
                }
                if self.trial.contains(&sq) {
                    style = style.bg(c.draft_bg);
                    if last.is_some_and(|(f, t)| f == sq || t == sq) {
                        style = style.add_modifier(Modifier::UNDERLINED);
                    }
                }
                if self.hint.is_some_and(|(f, t)| f == sq || t == sq) {
                    style = style.bg(c.hint).fg(c.win_fg);
                }
                if checked == Some(sq) {
                    style = style.bg(c.threat_bg);
                }
                if target && piece.is_some() {
                    style = style.bg(c.three_bg);
                }
                if self.selected == Some(sq) {
                    style = style.bg(c.selected_bg).add_modifier(Modifier::REVERSED);
                }
                let width = if piece.is_some() { pw } else { 1 };
                // Clear the second column a wide piece covers before drawing it.
                if width == 2 {
                    buf.set_string(x + 1, y, " ", style);
                }
                buf.set_string(x, y, &text, style);
                if self.cursor == Some(sq) {
                    let cur = bg.fg(c.cursor).add_modifier(Modifier::BOLD);
                    buf.set_string(x - 1, y, "[", cur);
                    buf.set_string(x + width, y, "]", cur);
                }
            }
        }
    }
}
