//! The replay screen: the board at the step shown on the left; the players, the result
//! and the move list (the step shown marked) on the right; where we are and the keys at
//! the bottom.

use banco_protocol::{GameSettings, Seat};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Paragraph, Widget};
use unicode_width::UnicodeWidthStr;

use super::board::{caro::CaroBoard, xiangqi::XiangqiBoard};
use super::room::truncate;
use super::{legend, legend_items, notice_line, title_bar};
use crate::app::App;
use crate::app::records::ReplayScreen;
use crate::narrate;
use crate::record::{Replay, Side};
use crate::room::Board;
use crate::tr;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, rs: &ReplayScreen) {
    let loc = &app.loc;
    let r = &rs.replay;
    let [title, body, status, notice, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(4),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(2),
    ])
    .areas(area);
    let mut place = format!(
        "{} · {}",
        tr!(loc, "replay.title"),
        narrate::game_line(&r.game, loc)
    );
    if let Some(id) = r.id {
        place = format!("{place} · {}", tr!(loc, "replay.game_id", id = id));
    }
    title_bar(frame, title, app, &place);
    // The review, once asked for, takes the bottom of the body: a progress bar while
    // the server analyses, then the graph of chances.
    let body = match &rs.review {
        None => body,
        Some(view) => {
            let want = if view.done().is_some() { 9 } else { 1 };
            let h = want.min(body.height.saturating_sub(8));
            let [b, r] = Layout::vertical([Constraint::Min(4), Constraint::Length(h)]).areas(body);
            super::review::draw(frame, r, app, rs, view);
            b
        }
    };
    let board_wants = crate::layout::BoardShape::of(&r.game).wants();
    let beside = match r.game {
        GameSettings::Xiangqi { .. } if body.width < 70 => {
            crate::layout::room::xiangqi_beside(body, 7)
        }
        _ => None,
    };
    let (board_area, side) = if body.width < 70 && beside.is_none() {
        let [b, s] = Layout::vertical([Constraint::Min(6), Constraint::Length(7)]).areas(body);
        (b, s)
    } else {
        let side_w = beside.unwrap_or_else(|| body.width.saturating_sub(board_wants).clamp(30, 48));
        let [b, s] =
            Layout::horizontal([Constraint::Min(20), Constraint::Length(side_w)]).areas(body);
        (b, s)
    };
    draw_board(frame.buffer_mut(), board_area, app, rs);
    // The panel's inside: borders and a column of padding either side.
    let info_lines = info(app, r, side.width.saturating_sub(4));
    let info_h = (info_lines.len() as u16 + 2).min(side.height / 2).max(3);
    let [info_area, moves_area] =
        Layout::vertical([Constraint::Length(info_h), Constraint::Min(3)]).areas(side);
    let block = panel(app, tr!(loc, "replay.game").to_string());
    let inner = block.inner(info_area);
    frame.render_widget(block, info_area);
    frame.render_widget(Paragraph::new(info_lines), inner);
    draw_moves(frame, moves_area, app, rs);
    draw_status(frame, status, app, rs);
    frame.render_widget(notice_line(app), notice);
    let table = if rs.save.is_some() {
        crate::app::keys::SAVE
    } else {
        crate::app::keys::REPLAY
    };
    // Turning the board round is xiangqi's; playing on from a position needs a server.
    let xiangqi = matches!(r.game, GameSettings::Xiangqi { .. });
    let table: Vec<_> = table
        .iter()
        .filter(|k| match k.what {
            "keys.flip" => xiangqi,
            "keys.play_from_here" => app.session.welcome.is_some(),
            _ => true,
        })
        .copied()
        .collect();
    let items = legend_items(app, &table);
    frame.render_widget(
        Paragraph::new(legend(&items, &app.theme, keys.width, 2)),
        keys,
    );
}

fn panel<'a>(app: &App, title: String) -> Block<'a> {
    Block::bordered()
        .padding(ratatui::widgets::Padding::horizontal(1))
        .border_type(BorderType::Rounded)
        .border_style(app.theme.border())
        .title(Span::styled(format!(" {title} "), app.theme.accent()))
}

fn draw_board(buf: &mut ratatui::buffer::Buffer, area: Rect, app: &App, rs: &ReplayScreen) {
    let r = &rs.replay;
    // The engine's choice where the move shown was played, marked as a hint is.
    let better = super::review::better_move(rs);
    match r.board() {
        Board::Caro(game) => CaroBoard::still(&app.theme, game, r.winning_line())
            .with_hint(better)
            .render(area, buf),
        Board::Xiangqi(game) => XiangqiBoard::still(&app.theme, &app.loc, game, rs.flipped)
            .with_hint(better)
            .render(area, buf),
        Board::Unsupported => {
            Paragraph::new(tr!(app.loc, "room.no_board_picture"))
                .style(app.theme.dim())
                .render(area, buf);
        }
    }
}

/// A side's word in the user's language: X, O, Red, Black.
fn side_text(side: Side, app: &App) -> String {
    match side {
        Side::X => app.theme.x_glyph.to_string(),
        Side::O => app.theme.o_glyph.to_string(),
        Side::Red => tr!(app.loc, "side.red").to_string(),
        Side::Black => tr!(app.loc, "side.black").to_string(),
    }
}

/// The players, the result and the facts of the game, `width` columns wide. The result
/// wraps rather than being cut: the history's column shows only its start.
fn info(app: &App, r: &Replay, width: u16) -> Vec<Line<'static>> {
    let loc = &app.loc;
    let theme = &app.theme;
    let mut lines = Vec::new();
    for seat in [r.first, r.first.other()] {
        let won = r.over.as_ref().is_some_and(|o| o.winner == Some(seat));
        let first = seat == r.first;
        lines.push(Line::from(vec![
            Span::styled(if won { "★ " } else { "  " }, theme.accent()),
            Span::styled(
                format!("{} ", side_text(r.side(seat), app)),
                theme.stone(first),
            ),
            Span::styled(
                narrate::shown_name(&r.players[seat.index()], loc),
                theme.style(),
            ),
        ]));
    }
    let headline = narrate::record_headline(r.over.as_ref(), &r.players, loc);
    let reason = r
        .over
        .as_ref()
        .map(|over| narrate::record_reason(over, &r.players, loc))
        .unwrap_or_default();
    let text = format!("{headline} {reason}");
    let head_len = headline.chars().count();
    let mut seen = 0;
    for part in super::wrap(text.trim_end(), usize::from(width.saturating_sub(2))) {
        // The headline in bold accent, the reason plain, wherever the wrap falls.
        let count = part.chars().count();
        let cut = head_len.saturating_sub(seen).min(count);
        let at = part.char_indices().nth(cut).map_or(part.len(), |(i, _)| i);
        let (head, rest) = part.split_at(at);
        lines.push(Line::from(vec![
            Span::raw("  "),
            Span::styled(
                head.to_string(),
                theme.accent().add_modifier(Modifier::BOLD),
            ),
            Span::styled(rest.to_string(), theme.style()),
        ]));
        // `wrap` drops the space it breaks at.
        seen += count + 1;
    }
    let mut facts = Vec::new();
    if let Some(t) = &r.time {
        facts.push(match t {
            banco_protocol::TimeControl::Unlimited => tr!(loc, "time.none").to_string(),
            tc => crate::room::clock::time_control_text(tc),
        });
    }
    if let Some(ms) = r.ended_at_ms {
        facts.push(narrate::ended_at(ms));
    }
    if !facts.is_empty() {
        lines.push(Line::from(Span::styled(
            format!("  {}", facts.join(" · ")),
            theme.dim(),
        )));
    }
    // A swap opening: how it was played, wrapped under the facts.
    if let (
        Some(swap),
        banco_protocol::GameSettings::Caro {
            width: board_width,
            height: board_height,
            ..
        },
    ) = (&r.swap, &r.game)
    {
        let text = format!(
            "{}: {}",
            tr!(loc, "plain.swap_played"),
            narrate::swap_steps(swap, &r.players, *board_width, *board_height)
        );
        for part in super::wrap(&text, usize::from(width.saturating_sub(2))) {
            lines.push(Line::from(Span::styled(format!("  {part}"), theme.dim())));
        }
    }
    lines
}

/// The move list, the move just played marked, scrolled to keep it in view; with a
/// review, each move's class mark after it (`??` a blunder).
fn draw_moves(frame: &mut Frame, area: Rect, app: &App, rs: &ReplayScreen) {
    let r = &rs.replay;
    let review = rs.review.as_ref().and_then(|v| v.done());
    let theme = &app.theme;
    let block = panel(app, tr!(app.loc, "room.moves", count = r.moves.len()));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let mut lines = Vec::new();
    let mut current_line = 0;
    for (i, pair) in r.moves.chunks(2).enumerate() {
        let mut spans = vec![Span::styled(format!("{:>3}. ", i + 1), theme.dim())];
        for (j, m) in pair.iter().enumerate() {
            let ply = i * 2 + j;
            let mut text = r.move_text(&m.mv);
            if !m.wxf.is_empty() {
                text = m.wxf.clone();
            }
            if m.check {
                text.push('+');
            }
            let reviewed = review.and_then(|v| v.plies.get(ply));
            if let Some(p) = reviewed {
                text.push_str(crate::app::review::class_mark(p));
            }
            let mut style = theme.stone(r.mover(ply) == r.first);
            if reviewed.is_some_and(|p| p.class.is_error()) {
                style = theme.error();
            }
            if ply + 1 == r.at() {
                style = style.bg(theme.colors.last_bg);
                current_line = lines.len();
            } else if ply >= r.at() {
                style = theme.dim();
            }
            if r.broken_at() == Some(ply) {
                style = theme.error();
            }
            spans.push(Span::styled(format!("{text:<6}"), style));
            spans.push(Span::raw(" "));
        }
        lines.push(Line::from(spans));
    }
    let h = inner.height as usize;
    // Keep the current move a third of the way down, so what comes next shows too.
    let skip = current_line
        .saturating_sub(h / 3)
        .min(lines.len().saturating_sub(h));
    let shown: Vec<Line> = lines.into_iter().skip(skip).take(h).collect();
    frame.render_widget(Paragraph::new(shown), inner);
}

/// Where the replay stands, or the save prompt.
fn draw_status(frame: &mut Frame, area: Rect, app: &App, rs: &ReplayScreen) {
    let loc = &app.loc;
    let theme = &app.theme;
    let r = &rs.replay;
    if let Some(input) = &rs.save {
        let prompt = match &app.games_dir {
            Some(dir) => {
                // The folder gives way to the name on a narrow line: its start goes
                // first (`…/banco/games`); the settings dialog shows it whole.
                let dir = crate::settings::home_short(dir);
                let bare = tr!(loc, "replay.save_in", dir = "").width() + 2;
                let room = (area.width as usize)
                    .saturating_sub(bare + input.text().width() + 1)
                    .max(8);
                let dir = if dir.width() > room {
                    let tail: String = dir.chars().rev().take(room - 1).collect();
                    format!("…{}", tail.chars().rev().collect::<String>())
                } else {
                    dir
                };
                format!(" {} ", tr!(loc, "replay.save_in", dir = dir))
            }
            None => format!(" {} ", tr!(loc, "replay.save_as")),
        };
        let text = input.text();
        let before: String = text.chars().take(input.cursor()).collect();
        frame.render_widget(
            Paragraph::new(Line::from(vec![
                Span::styled(prompt.clone(), theme.accent()),
                Span::styled(text.to_string(), theme.selected()),
            ])),
            area,
        );
        let x = area.x + (prompt.width() + before.width()) as u16;
        frame.set_cursor_position(Position::new(x.min(area.right().saturating_sub(1)), area.y));
        return;
    }
    let mut spans = Vec::new();
    let at = r.at();
    if at == 0 {
        spans.push(Span::styled(
            format!(" {}", tr!(loc, "replay.at_start", total = r.moves.len())),
            theme.style(),
        ));
    } else {
        let m = &r.moves[at - 1];
        let seat: Seat = r.mover(at - 1);
        let mut text = r.move_text(&m.mv);
        if !m.wxf.is_empty() {
            text = format!("{text} ({})", m.wxf);
        }
        spans.push(Span::styled(
            format!(
                " {}",
                tr!(
                    loc,
                    "replay.at_move",
                    n = at,
                    total = r.moves.len(),
                    name = narrate::shown_name(&r.players[seat.index()], loc),
                    side = side_text(r.side(seat), app),
                    point = text
                )
            ),
            theme.style(),
        ));
        if m.check {
            spans.push(Span::styled(
                tr!(loc, "event.check").to_string(),
                theme.error(),
            ));
        }
    }
    if r.at_end()
        && r.broken_at().is_none()
        && let Some(over) = &r.over
    {
        let text = format!(
            "  {} {}.",
            narrate::record_headline(Some(over), &r.players, loc),
            narrate::record_reason(over, &r.players, loc)
        );
        spans.push(Span::styled(text, theme.good()));
    }
    if let Some(n) = r.broken_at() {
        spans.push(Span::styled(
            format!("  {}", tr!(loc, "replay.broken", n = n + 1)),
            theme.error(),
        ));
    }
    if rs.autoplay.is_some() {
        spans.push(Span::styled(
            format!("  ▶ {}", tr!(loc, "replay.playing")),
            theme.accent(),
        ));
    }
    let line = Line::from(spans);
    let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
    if text.width() > area.width as usize {
        frame.render_widget(
            Paragraph::new(truncate(&text, area.width as usize)).style(theme.style()),
            area,
        );
    } else {
        frame.render_widget(Paragraph::new(line), area);
    }
}
