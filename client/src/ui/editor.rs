//! The position editor's screen: the board being arranged on the left, marked where the
//! rules object; on the right the side to move, the palette (xiangqi) or the stone
//! counts (caro), every reason the position cannot be played yet, and the position as
//! text (the FEN, or the stones) to copy; the point under the cursor below.

use banco_rules::caro::{Point, Stone};
use banco_rules::xiangqi::{Color, Kind, Square};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use unicode_width::UnicodeWidthStr;

use super::board::{caro as caro_board, xiangqi as xq_board};
use super::{dialog, legend, legend_items, notice_line, title_bar, wrap};
use crate::app::App;
use crate::app::editor::caro::CaroEdit;
use crate::app::editor::xiangqi::{PALETTE, XiangqiEdit};
use crate::app::editor::{EditBoard, EditorScreen, EditorSpot};
use crate::app::keys;
use crate::layout::editor::{CELL, PALETTE_LABEL, panel_block};
use crate::layout::{caro as caro_geometry, xiangqi as xq_geometry};
use crate::room::board::{caro_point_text, wire_square};
use crate::tr;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, ed: &EditorScreen) {
    let l = ed.layout(area);
    let loc = &app.loc;
    let game = match &ed.board {
        EditBoard::Xiangqi(_) => tr!(loc, "room.xiangqi_line").to_string(),
        EditBoard::Caro(c) => {
            let board = c.setup.board();
            tr!(
                loc,
                "room.caro_line",
                size = format!("{}x{}", board.width(), board.height()),
                rule = tr!(loc, &format!("rule.{}", c.setup.rule().name()))
            )
        }
    };
    title_bar(frame, l.title, app, &tr!(loc, "editor.title", game = game));
    let reasons = ed.reasons();
    match &ed.board {
        EditBoard::Xiangqi(x) => {
            let marked: Vec<Square> = marked(&reasons)
                .filter_map(|s| match s {
                    EditorSpot::Xiangqi(sq) => Some(sq),
                    _ => None,
                })
                .collect();
            draw_xiangqi(frame.buffer_mut(), l.board, app, x, &marked);
        }
        EditBoard::Caro(c) => {
            let marked: Vec<Point> = marked(&reasons)
                .filter_map(|s| match s {
                    EditorSpot::Caro(p) => Some(p),
                    _ => None,
                })
                .collect();
            draw_caro(frame.buffer_mut(), l.board, app, c, &marked);
        }
    }
    draw_panel(frame, l.panel, app, ed, &reasons);
    frame.render_widget(status_line(app, ed, &reasons), l.status);
    frame.render_widget(notice_line(app), l.notice);
    let table = match (&ed.board, ed.import.is_some()) {
        (_, true) => keys::EDITOR_IMPORT,
        (EditBoard::Xiangqi(_), false) => keys::EDITOR_XIANGQI,
        (EditBoard::Caro(_), false) => keys::EDITOR_CARO,
    };
    let items = legend_items(app, table);
    frame.render_widget(
        Paragraph::new(legend(&items, &app.theme, l.keys.width, 2)),
        l.keys,
    );
    if let Some(input) = &ed.import {
        draw_import(frame, area, app, ed, input);
    }
}

/// Every point some reason concerns.
fn marked(reasons: &[(String, Vec<EditorSpot>)]) -> impl Iterator<Item = EditorSpot> + '_ {
    reasons.iter().flat_map(|(_, spots)| spots.iter().copied())
}

fn draw_xiangqi(buf: &mut Buffer, area: Rect, app: &App, x: &XiangqiEdit, marked: &[Square]) {
    let theme = &app.theme;
    let g = xq_geometry::Geometry::new(area, x.flipped);
    if !xq_geometry::fits(&g, area) {
        return;
    }
    xq_board::draw_frame(buf, area, &g, theme);
    let c = &theme.colors;
    let bg = Style::new().bg(c.board_bg);
    let pw = xq_board::piece_width(theme);
    for sq in Square::all() {
        let piece = x.setup.piece_at(sq);
        let mut style = match piece {
            Some(p) => xq_board::piece_style(theme, p.color()),
            None => bg.fg(c.grid),
        };
        if marked.contains(&sq) {
            style = style.bg(c.threat_bg);
        }
        if x.held == Some(sq) {
            style = style.bg(c.selected_bg).add_modifier(Modifier::REVERSED);
        }
        let (col, row) = g.cell(wire_square(sq));
        let (text, width) = match piece {
            Some(p) => (xq_board::piece_glyph(theme, p), pw),
            None => {
                let (c, r) = screen_index(&g, sq);
                (xq_board::empty_point(c, r).to_string(), 1)
            }
        };
        if width == 2 {
            buf.set_string(col + 1, row, " ", style);
        }
        buf.set_string(col, row, &text, style);
        if x.cursor == sq {
            let cur = bg.fg(c.cursor).add_modifier(Modifier::BOLD);
            buf.set_string(col - 1, row, "[", cur);
            buf.set_string(col + width, row, "]", cur);
        }
    }
}

/// The screen column and row index (0 at the top left) a square is drawn at.
fn screen_index(g: &xq_geometry::Geometry, sq: Square) -> (u16, u16) {
    if g.flipped {
        (u16::from(8 - sq.file()), u16::from(sq.rank()))
    } else {
        (u16::from(sq.file()), u16::from(9 - sq.rank()))
    }
}

fn draw_caro(buf: &mut Buffer, area: Rect, app: &App, c: &CaroEdit, marked: &[Point]) {
    let theme = &app.theme;
    let board = c.setup.board();
    let g = caro_geometry::Geometry::new(area, board.width(), board.height(), c.cursor);
    if g.cols == 0 || g.rows == 0 {
        return;
    }
    caro_board::draw_frame(buf, area, &g, theme, Some(c.cursor));
    let colors = &theme.colors;
    for y in g.first_y..g.first_y + g.rows {
        let Some(sy) = g.row(y) else { continue };
        for x in g.first_x..g.first_x + g.cols {
            let Some(sx) = g.stone_col(x) else { continue };
            let p = Point::new(x, y);
            let (glyph, mut style) = match board.stone_at(p) {
                Some(s) => (
                    theme.glyph(s == Stone::X),
                    theme.stone(s == Stone::X).bg(colors.board_bg),
                ),
                None => (
                    theme.empty_glyph,
                    Style::new().bg(colors.board_bg).fg(colors.grid),
                ),
            };
            if marked.contains(&p) {
                style = style.bg(colors.threat_bg).add_modifier(Modifier::BOLD);
            }
            buf.set_string(sx, sy, glyph.to_string(), style);
        }
    }
}

fn draw_panel(
    frame: &mut Frame,
    area: Rect,
    app: &App,
    ed: &EditorScreen,
    reasons: &[(String, Vec<EditorSpot>)],
) {
    let theme = &app.theme;
    let loc = &app.loc;
    let block = panel_block(tr!(loc, "editor.panel"))
        .border_style(theme.border())
        .title_style(theme.accent());
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let text_w = inner.width as usize;
    let mut lines: Vec<Line> = Vec::new();
    let export = match &ed.board {
        EditBoard::Xiangqi(x) => {
            let side = side_name(app, x.setup.side());
            lines.push(Line::from(vec![
                Span::styled(format!("{} ", tr!(loc, "editor.to_move")), theme.dim()),
                Span::styled(side, theme.accent()),
                Span::styled("  (t)", theme.key()),
            ]));
            lines.push(Line::default());
            lines.extend(palette_lines(app, x));
            (tr!(loc, "editor.fen").to_string(), x.setup.fen())
        }
        EditBoard::Caro(c) => {
            let (xs, os) = c.setup.counts();
            let next = match c.setup.to_move() {
                Some(s) => tr!(loc, "editor.moves_next", stone = theme.glyph(s == Stone::X)),
                None => tr!(loc, "editor.no_one_next").to_string(),
            };
            lines.push(Line::from(vec![
                Span::styled(format!("{} ", theme.glyph(true)), theme.stone(true)),
                Span::styled(format!("{xs}   "), theme.style()),
                Span::styled(format!("{} ", theme.glyph(false)), theme.stone(false)),
                Span::styled(format!("{os}   "), theme.style()),
                Span::styled(next, theme.accent()),
            ]));
            let board = c.setup.board();
            let text = |stones: &[Point]| {
                crate::room::opening::stones_text(stones, board.width(), board.height())
            };
            // X first, alternating, as the room takes them; a board that cannot be
            // written so yet lists each colour's stones.
            let stones = match c.setup.opening() {
                Ok(opening) => text(&opening),
                Err(_) => {
                    let of = |stone| text(&c.setup.stones(stone).collect::<Vec<_>>());
                    format!("X: {} · O: {}", of(Stone::X), of(Stone::O))
                }
            };
            (tr!(loc, "editor.stones").to_string(), stones)
        }
    };
    lines.push(Line::default());
    if reasons.is_empty() {
        let side = match &ed.board {
            EditBoard::Xiangqi(x) => side_name(app, x.setup.side()),
            EditBoard::Caro(c) => c
                .setup
                .to_move()
                .map_or_else(String::new, |s| theme.glyph(s == Stone::X).to_string()),
        };
        for l in wrap(&tr!(loc, "editor.ready", side = side), text_w) {
            lines.push(Line::from(Span::styled(l, theme.good())));
        }
    } else {
        lines.push(Line::from(Span::styled(
            tr!(loc, "editor.problems").to_string(),
            theme.error().add_modifier(Modifier::BOLD),
        )));
        for (why, _) in reasons {
            for (i, l) in wrap(why, text_w.saturating_sub(2)).into_iter().enumerate() {
                let mark = if i == 0 { "✗ " } else { "  " };
                lines.push(Line::from(vec![
                    Span::styled(mark, theme.error()),
                    Span::styled(l, theme.style()),
                ]));
            }
        }
    }
    lines.push(Line::default());
    lines.push(Line::from(Span::styled(export.0, theme.dim())));
    let shown = if export.1.is_empty() {
        tr!(loc, "editor.nothing").to_string()
    } else {
        export.1
    };
    frame.render_widget(Paragraph::new(lines.clone()), inner);
    // The text to copy wraps anywhere (a FEN has no spaces to break at).
    let used = lines.len() as u16;
    if used < inner.height {
        let rest = Rect::new(inner.x, inner.y + used, inner.width, inner.height - used);
        frame.render_widget(
            Paragraph::new(shown)
                .style(theme.style())
                .wrap(Wrap { trim: false }),
            rest,
        );
    }
}

/// Four lines: each side's seven pieces, and under each its letter and how many stand
/// on the board (in the error colour past the most a side may have).
fn palette_lines(app: &App, x: &XiangqiEdit) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let mut lines = Vec::new();
    for (row, color) in [Color::Red, Color::Black].into_iter().enumerate() {
        let label = format!("{:<w$}", side_name(app, color), w = PALETTE_LABEL as usize);
        let mut pieces = vec![Span::styled(label, theme.dim())];
        let mut counts = vec![Span::raw(" ".repeat(PALETTE_LABEL as usize))];
        for (i, kind) in Kind::ALL.into_iter().enumerate() {
            let index = row * 7 + i;
            let piece = PALETTE[index];
            let glyph = xq_board::piece_glyph(theme, piece);
            let mut style = xq_board::piece_style(theme, color);
            if index == x.palette {
                style = style.add_modifier(Modifier::REVERSED);
            }
            let pad = CELL as usize - glyph.width();
            pieces.push(Span::styled(glyph, style));
            pieces.push(Span::raw(" ".repeat(pad)));
            let count = x.setup.count(color, kind);
            let most = banco_rules::xiangqi::fen::most(kind);
            let count_style = if count > most {
                theme.error().add_modifier(Modifier::BOLD)
            } else {
                theme.dim()
            };
            counts.push(Span::styled(piece.fen_char().to_string(), theme.key()));
            counts.push(Span::styled(
                format!("{count:<w$}", w = CELL as usize - 1),
                count_style,
            ));
        }
        lines.push(Line::from(pieces));
        lines.push(Line::from(counts));
    }
    lines
}

fn side_name(app: &App, color: Color) -> String {
    let key = match color {
        Color::Red => "side.red",
        Color::Black => "side.black",
    };
    tr!(app.loc, key).to_string()
}

/// The point under the cursor, and the reason most about it; or the piece picked up.
fn status_line(
    app: &App,
    ed: &EditorScreen,
    reasons: &[(String, Vec<EditorSpot>)],
) -> Line<'static> {
    let theme = &app.theme;
    let loc = &app.loc;
    let (spot, name, what) = match &ed.board {
        EditBoard::Xiangqi(x) => {
            if let Some(from) = x.held
                && let Some(piece) = x.setup.piece_at(from)
            {
                let text = tr!(
                    loc,
                    "editor.holding",
                    piece = xq_board::piece_glyph(theme, piece),
                    square = from
                );
                return Line::from(Span::styled(format!(" {text}"), theme.accent()));
            }
            let what = x.setup.piece_at(x.cursor).map_or_else(
                || tr!(loc, "editor.empty").to_string(),
                |p| xq_board::piece_glyph(theme, p),
            );
            (EditorSpot::Xiangqi(x.cursor), x.cursor.to_string(), what)
        }
        EditBoard::Caro(c) => {
            let board = c.setup.board();
            let what = c.setup.stone_at(c.cursor).map_or_else(
                || tr!(loc, "editor.empty").to_string(),
                |s| theme.glyph(s == Stone::X).to_string(),
            );
            (
                EditorSpot::Caro(c.cursor),
                caro_point_text(c.cursor, board.width(), board.height()),
                what,
            )
        }
    };
    let mut spans = vec![Span::styled(format!(" {name}: {what}"), theme.style())];
    // The reason most about this point: the one concerning the fewest points.
    if let Some((why, _)) = reasons
        .iter()
        .filter(|(_, spots)| spots.contains(&spot))
        .min_by_key(|(_, spots)| spots.len())
    {
        spans.push(Span::styled(format!(" ✗ {why}"), theme.error()));
    }
    Line::from(spans)
}

/// The import line, over the bottom of the screen.
fn draw_import(
    frame: &mut Frame,
    area: Rect,
    app: &App,
    ed: &EditorScreen,
    input: &crate::app::input::TextInput,
) {
    let loc = &app.loc;
    let title = match ed.board {
        EditBoard::Xiangqi(_) => tr!(loc, "editor.import_fen"),
        EditBoard::Caro(_) => tr!(loc, "editor.import_stones"),
    };
    let width = area.width.min(96);
    let spot = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + area.height.saturating_sub(9),
        width,
        5.min(area.height),
    );
    let inner = dialog(frame, spot, &app.theme, title);
    let room = inner.width.saturating_sub(2) as usize;
    let text = input.text();
    let before: String = text.chars().take(input.cursor()).collect();
    let skip = before.chars().count().saturating_sub(room);
    let shown: String = text.chars().skip(skip).take(room).collect();
    let lines = vec![
        Line::from(Span::styled(
            tr!(loc, "editor.import_hint").to_string(),
            app.theme.dim(),
        )),
        Line::from(Span::styled(format!(" {shown}"), app.theme.selected())),
    ];
    frame.render_widget(Paragraph::new(lines), inner);
    let x = inner.x + 1 + (before.width().saturating_sub(skip)) as u16;
    frame.set_cursor_position(ratatui::layout::Position::new(
        x.min(inner.right().saturating_sub(1)),
        inner.y + 1,
    ));
}
