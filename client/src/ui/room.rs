//! The room screen: board on the left; players and clocks, moves and chat on the right;
//! status, latest event and keys at the bottom. Narrow terminals stack the side panel
//! under the board.

use banco_protocol::{GameSettings, Seat};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Paragraph};
use std::time::Duration;
use unicode_width::UnicodeWidthStr;

use super::{banner, legend, legend_items, notice_line, title_bar, wrap};
use crate::app::keys::KeyHelp;
use crate::app::{App, RoomScreen};
use crate::narrate;
use crate::room::clock::{chat_time, clock_text};
use crate::tr;

/// The chat line shows how many characters it holds once it is this close to the
/// limit.
const CHAT_COUNT_FROM: usize = 50;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, rs: &RoomScreen) {
    let l = app.room_layout(area, rs);
    let room = &rs.room;
    let mut place = tr!(
        app.loc,
        "title.room",
        room = room.id,
        game = narrate::game_line(&room.settings.game, &app.loc)
    );
    if let Some(g) = &room.game {
        place = format!(
            "{place} · {}",
            tr!(app.loc, "title.game_number", number = g.number)
        );
    }
    title_bar(frame, l.title, app, &place);
    if let Some(line) = banner(app) {
        frame.render_widget(line, l.banner);
    }
    super::board::render(app, rs, l.board, frame.buffer_mut());
    draw_players(frame, l.players, app, rs);
    draw_moves(frame, l.moves, app, rs);
    draw_chat(frame, l.chat, app, rs);
    frame.render_widget(status_line(app, rs), l.status);
    frame.render_widget(notice_line(app), l.notice);
    let table: &[KeyHelp] = if rs.chat_focus {
        crate::app::keys::CHAT
    } else if rs.draft.is_some() {
        crate::app::keys::DRAFT
    } else {
        crate::app::keys::ROOM
    };
    let items = footer_items(app, rs, table);
    frame.render_widget(
        Paragraph::new(legend(&items, &app.theme, l.keys.width, 2)),
        l.keys,
    );
}

/// The legend: what matters now first (answering an offer, cancelling one's own), then
/// the everyday keys.
fn footer_items(app: &App, rs: &RoomScreen, table: &[KeyHelp]) -> Vec<(String, String)> {
    if rs.chat_focus || rs.draft.is_some() {
        return legend_items(app, table);
    }
    let room = &rs.room;
    let player = room.my_seat().is_some();
    let caro = matches!(room.settings.game, GameSettings::Caro { .. });
    let over = room.game.as_ref().is_some_and(|g| g.over.is_some());
    let mut shown: Vec<&str> = Vec::new();
    if room.offer_to_me().is_some() {
        shown.push("keys.answer");
    }
    if room.my_offer().is_some() {
        shown.push("keys.withdraw");
    }
    shown.push("keys.cursor");
    if player {
        shown.push(if caro {
            "keys.place"
        } else {
            "keys.move_piece"
        });
    }
    if player && room.in_match() && room.game.is_none() {
        // A match reopened between two games: ready for the next, or give it up.
        shown.extend(["keys.newgame", "keys.resign_match"]);
    }
    if player && room.game.is_some() {
        if over {
            shown.extend(["keys.newgame", "keys.show_result"]);
            if room.in_match() {
                shown.push("keys.resign_match");
            }
        } else {
            shown.extend([
                "keys.undo",
                "keys.newgame",
                "keys.resign",
                "keys.hint",
                "keys.draw",
            ]);
            if room.in_match() {
                shown.push("keys.resign_match");
            }
        }
    }
    if room.game.is_some() {
        shown.push("keys.draft");
    }
    shown.extend(["keys.chat", "keys.last_move"]);
    if player && caro {
        shown.push("keys.threats");
    }
    shown.extend(["keys.help", "keys.leave"]);
    shown
        .into_iter()
        .filter_map(|what| table.iter().find(|k| k.what == what))
        .map(|k| {
            let short = k.keys.split(' ').next().unwrap_or(k.keys);
            let keys = if k.what == "keys.cursor" {
                "←↑→↓"
            } else {
                short
            };
            (
                keys.to_string(),
                app.loc.get(&format!("{}_short", k.what)).to_string(),
            )
        })
        .collect()
}

/// After a game of a match: the match's result once it is over (and, for a player, the
/// key for another), else when the next game begins. `None` outside a match.
fn match_status(app: &App, room: &crate::room::Room) -> Option<String> {
    let loc = &app.loc;
    let m = room.match_state?;
    Some(match m.result {
        Some(result) => {
            let headline = narrate::match_over(room, &result, loc);
            if room.my_seat().is_some() {
                format!("{headline} {}", tr!(loc, "match.another"))
            } else {
                headline
            }
        }
        None => narrate::match_next(room, app.now, loc)?,
    })
}

/// Whose turn it is, an open offer, or the result: the one thing to know now.
fn status_line(app: &App, rs: &RoomScreen) -> Line<'static> {
    let room = &rs.room;
    let loc = &app.loc;
    let theme = &app.theme;
    if let Some(offer) = room.offer_to_me() {
        return Line::from(vec![
            Span::styled(
                format!(" {} ", narrate::offered(room, &offer, loc)),
                theme.accent(),
            ),
            Span::styled(tr!(loc, "status.answer_keys").to_string(), theme.key()),
        ]);
    }
    if let Some(offer) = room.my_offer() {
        return Line::from(vec![
            Span::styled(
                format!(" {} ", narrate::offered(room, &offer, loc)),
                theme.style(),
            ),
            Span::styled(tr!(loc, "status.cancel_key").to_string(), theme.key()),
        ]);
    }
    if let Some(draft) = &rs.draft {
        let next = match &draft.board {
            crate::room::Board::Caro(g) => theme
                .glyph(g.to_move() == banco_rules::caro::Stone::X)
                .to_string(),
            crate::room::Board::Xiangqi(g) => {
                let key = match g.to_move() {
                    banco_rules::xiangqi::piece::Color::Red => "side.red",
                    banco_rules::xiangqi::piece::Color::Black => "side.black",
                };
                tr!(loc, key).to_string()
            }
            crate::room::Board::Unsupported => String::new(),
        };
        return Line::from(Span::styled(
            format!(
                " ✎ {}",
                tr!(loc, "draft.status", n = draft.trials(), side = next)
            ),
            Style::new()
                .fg(theme.colors.text)
                .bg(theme.colors.draft_bg)
                .add_modifier(Modifier::BOLD),
        ));
    }
    let Some(game) = &room.game else {
        // A match reopened between two games waits for its next; any other room for
        // its second player.
        let text = narrate::match_next(room, app.now, loc)
            .unwrap_or_else(|| tr!(loc, "status.waiting_opponent").to_string());
        return Line::from(Span::styled(format!(" {text}"), theme.dim()));
    };
    if let Some(over) = &game.over {
        let won = over.winner.is_some() && over.winner == room.my_seat();
        let style = if won || over.winner.is_none() || room.my_seat().is_none() {
            theme.good()
        } else {
            theme.error()
        };
        let mut spans = vec![Span::styled(
            format!(" {} ", narrate::game_over(room, over, loc)),
            style,
        )];
        if let Some(text) = match_status(app, room) {
            spans.push(Span::styled(text, theme.accent()));
        } else if room.my_seat().is_some() {
            spans.push(Span::styled(
                tr!(loc, "status.after_game").to_string(),
                theme.dim(),
            ));
        }
        return Line::from(spans);
    }
    let Some(text) = narrate::turn(room, loc) else {
        return Line::default();
    };
    let mover = room.to_move();
    let bot = mover
        .and_then(|s| room.seats[s.index()].as_ref())
        .and_then(|s| s.bot);
    let mut spans = if room.my_turn() {
        vec![Span::styled(format!(" ▶ {text}"), theme.good())]
    } else {
        vec![Span::styled(format!(" {text}"), theme.style())]
    };
    if game.board.xiangqi().is_some_and(|g| g.in_check()) {
        spans.push(Span::styled(
            format!(" {}", tr!(loc, "status.check")),
            theme.error(),
        ));
    }
    if bot.is_some() {
        spans.push(Span::styled(
            format!(" {}", tr!(loc, "status.thinking")),
            theme.dim(),
        ));
    }
    // A timed game whose clocks have not started: each player's first move is free.
    if game
        .clocks
        .is_some_and(|c| c.clocks.running.is_none() && game.moves.len() < 2)
    {
        spans.push(Span::styled(
            format!("  {}", tr!(loc, "status.first_moves")),
            theme.dim(),
        ));
    }
    if game.out_of_step {
        spans.push(Span::styled(
            format!("  {}", tr!(loc, "status.out_of_step")),
            theme.error(),
        ));
    }
    Line::from(spans)
}

fn panel<'a>(app: &App, title: String) -> Block<'a> {
    Block::bordered()
        .padding(ratatui::widgets::Padding::horizontal(1))
        .border_type(BorderType::Rounded)
        .border_style(app.theme.border())
        .title(Span::styled(format!(" {title} "), app.theme.accent()))
}

/// Time left for a seat as shown (the running side counts down).
fn time_left(rs: &RoomScreen, seat: Seat, now: std::time::Instant) -> Option<Duration> {
    let clocks = rs.room.game.as_ref()?.clocks?;
    Some(clocks.remaining(seat, now))
}

fn draw_players(frame: &mut Frame, area: Rect, app: &App, rs: &RoomScreen) {
    let room = &rs.room;
    let loc = &app.loc;
    let theme = &app.theme;
    let block = panel(app, tr!(loc, "room.players").to_string());
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let mover = room.to_move();
    let mut lines = Vec::new();
    for seat in Seat::BOTH {
        // X's colour in caro (the first mover's, unless an odd opening made it O's);
        // the first mover's in xiangqi.
        let first = match room.settings.game {
            GameSettings::Caro { .. } => room.caro_stone(seat) == banco_rules::caro::Stone::X,
            GameSettings::Xiangqi { .. } => room.moves_first(seat),
        };
        let in_swap = room
            .game
            .as_ref()
            .is_some_and(|g| g.swap_in_progress().is_some());
        let glyph = match room.settings.game {
            // A swap opening decides the colours: none yet.
            GameSettings::Caro { .. } if in_swap => "?".to_string(),
            GameSettings::Caro { .. } => theme.glyph(first).to_string(),
            GameSettings::Xiangqi { .. } => narrate::side(room, seat, loc),
        };
        let winner = room
            .game
            .as_ref()
            .and_then(|g| g.over.as_ref())
            .is_some_and(|o| o.winner == Some(seat));
        let marker = if winner {
            "★"
        } else if mover == Some(seat) {
            "▶"
        } else {
            " "
        };
        let mut name = narrate::seat_name(room, seat, loc);
        if room.my_seat() == Some(seat) {
            name = format!("{name} {}", tr!(loc, "room.you"));
        }
        let away = room.seats[seat.index()]
            .as_ref()
            .is_some_and(|s| !s.connected);
        if away {
            name = format!("{name} {}", tr!(loc, "room.away"));
        }
        if room.departed(seat) {
            name = format!("{name} {}", tr!(loc, "room.left"));
        }
        let clock = time_left(rs, seat, app.now)
            .map(clock_text)
            .unwrap_or_default();
        // Marker, side (X, O, Red, Black) and a space each, then the name, then the clock.
        let name_w =
            (inner.width as usize).saturating_sub(2 + glyph.width() + 1 + clock.width() + 1);
        let name = truncate(&name, name_w);
        let pad = name_w.saturating_sub(name.width());
        let running = mover == Some(seat)
            && room
                .game
                .as_ref()
                .and_then(|g| g.clocks)
                .is_some_and(|c| c.clocks.running == Some(seat));
        let low = time_left(rs, seat, app.now).is_some_and(|d| d < Duration::from_secs(10));
        let clock_style = if running && low {
            Style::new()
                .fg(theme.colors.clock_low)
                .add_modifier(Modifier::BOLD)
        } else if running {
            Style::new()
                .fg(theme.colors.clock_running)
                .add_modifier(Modifier::BOLD)
        } else {
            theme.dim()
        };
        let name_style = if room.seats[seat.index()].is_none() || away {
            theme.dim()
        } else if mover == Some(seat) {
            theme.style().add_modifier(Modifier::BOLD)
        } else {
            theme.style()
        };
        lines.push(Line::from(vec![
            Span::styled(format!("{marker} "), theme.accent()),
            Span::styled(format!("{glyph} "), theme.stone(first)),
            Span::styled(name, name_style),
            Span::raw(" ".repeat(pad + 1)),
            Span::styled(clock, clock_style),
        ]));
    }
    let time = match room.settings.time {
        banco_protocol::TimeControl::Unlimited => tr!(loc, "time.none").to_string(),
        banco_protocol::TimeControl::PerMove { .. } => tr!(
            loc,
            "room.per_move",
            time = crate::room::clock::time_control_text(&room.settings.time)
        ),
        tc => tr!(loc, "room.clock", time = tc.to_string()),
    };
    // The rematch series, once a game has ended: seat one's wins first, as listed above.
    // (A match says its score on a line of its own.)
    let series = &room.series;
    let time = match (series.games(), series.draws) {
        _ if room.match_state.is_some() => time,
        (0, _) => time,
        (_, 0) => tr!(
            loc,
            "room.series",
            time = time,
            one = series.wins[0],
            two = series.wins[1]
        ),
        (_, draws) => tr!(
            loc,
            "room.series_draws",
            time = time,
            one = series.wins[0],
            two = series.wins[1],
            draws = draws
        ),
    };
    lines.push(Line::from(Span::styled(
        truncate(&format!("  {time}"), inner.width as usize),
        theme.dim(),
    )));
    if let Some(line) = narrate::match_line(room, loc) {
        lines.push(Line::from(Span::styled(
            truncate(&format!("  {line}"), inner.width as usize),
            theme.accent(),
        )));
    }
    if !room.spectators.is_empty() {
        let names = room.spectators.join(", ");
        lines.push(Line::from(Span::styled(
            truncate(
                &format!("  {}", tr!(loc, "room.watching", names = names)),
                inner.width as usize,
            ),
            theme.dim(),
        )));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

fn draw_moves(frame: &mut Frame, area: Rect, app: &App, rs: &RoomScreen) {
    if area.is_empty() {
        return;
    }
    let room = &rs.room;
    let theme = &app.theme;
    let count = room.game.as_ref().map_or(0, |g| g.moves.len());
    let block = panel(app, tr!(app.loc, "room.moves", count = count));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let Some(game) = &room.game else { return };
    let first_is_x = |seat: Seat| match game.board.caro() {
        Some(_) => room.caro_stone(seat) == banco_rules::caro::Stone::X,
        None => seat == game.first,
    };
    // Xiangqi moves in WXF, with their ICCS squares too where the panel is wide enough.
    let with_iccs = inner.width >= 32;
    let mut lines = Vec::new();
    // A swap opening heads the list step by step: who placed which stone, who decided.
    if let (Some(swap), GameSettings::Caro { width, height, .. }) =
        (&game.swap, &room.settings.game)
    {
        for step in &swap.steps {
            let text = match *step {
                banco_protocol::SwapStep::Stone { by, point } => {
                    let n = swap.stones.iter().position(|p| *p == point).unwrap_or(0);
                    tr!(
                        app.loc,
                        "room.swap_stone_line",
                        name = crate::narrate::seat_name(room, by, &app.loc),
                        point = crate::room::board::caro_point_text(point, *width, *height),
                        stone = if n % 2 == 0 { "X" } else { "O" }
                    )
                    .to_string()
                }
                banco_protocol::SwapStep::Decided { by, choice } => {
                    crate::narrate::swap_decided(room, by, choice, &app.loc)
                }
            };
            lines.push(Line::from(Span::styled(
                truncate(&format!("  {text}"), inner.width as usize),
                theme.dim(),
            )));
        }
    }
    // A caro opening heads the list: its stones stand on the board but are not moves.
    if !game.opening.is_empty()
        && game.swap.is_none()
        && let GameSettings::Caro { width, height, .. } = room.settings.game
    {
        let stones = crate::room::opening::stones_text(&game.opening, width, height);
        lines.push(Line::from(Span::styled(
            truncate(
                &format!("  {}", tr!(app.loc, "room.opening_stones", stones = stones)),
                inner.width as usize,
            ),
            theme.dim(),
        )));
    }
    for (i, pair) in game.moves.chunks(2).enumerate() {
        let mut spans = vec![Span::styled(format!("{:>3}. ", i + 1), theme.dim())];
        for (j, m) in pair.iter().enumerate() {
            let iccs = room.move_text(&m.mv);
            let text = if m.wxf.is_empty() {
                format!("{iccs:<6}")
            } else {
                let wxf = format!("{}{}", m.wxf, if m.check { "+" } else { "" });
                if with_iccs {
                    format!("{wxf:<6} {iccs:<4}")
                } else {
                    format!("{wxf:<6}")
                }
            };
            let last = i * 2 + j + 1 == game.moves.len();
            let mut style = theme.stone(first_is_x(m.by));
            if last {
                style = style.bg(theme.colors.last_bg);
            }
            spans.push(Span::styled(text, style));
            spans.push(Span::raw(" "));
        }
        lines.push(Line::from(spans));
    }
    let h = inner.height as usize;
    let skip = lines.len().saturating_sub(h);
    frame.render_widget(Paragraph::new(lines.split_off(skip)), inner);
}

fn draw_chat(frame: &mut Frame, area: Rect, app: &App, rs: &RoomScreen) {
    let theme = &app.theme;
    let loc = &app.loc;
    let title = if rs.chat_scroll > 0 {
        tr!(loc, "room.chat_scrolled", lines = rs.chat_scroll)
    } else {
        tr!(loc, "room.chat").to_string()
    };
    let block = panel(app, title).border_style(if rs.chat_focus {
        theme.accent()
    } else {
        theme.border()
    });
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if inner.height == 0 || inner.width < 4 {
        return;
    }
    let [history, input] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(inner);
    let width = history.width as usize;
    let mut lines: Vec<Line> = Vec::new();
    for line in &rs.room.chat {
        let time = chat_time(line.at_ms);
        let head = format!("{time} {}: ", line.from);
        let body = format!("{head}{}", line.text);
        for (k, part) in wrap(&body, width).into_iter().enumerate() {
            if k == 0 && part.len() >= head.len() && part.starts_with(&head) {
                let rest = part[head.len()..].to_string();
                lines.push(Line::from(vec![
                    Span::styled(format!("{time} "), theme.dim()),
                    Span::styled(format!("{}: ", line.from), theme.accent()),
                    Span::styled(rest, theme.style()),
                ]));
            } else {
                lines.push(Line::from(Span::styled(part, theme.style())));
            }
        }
    }
    if lines.is_empty() {
        lines.push(Line::from(Span::styled(
            tr!(loc, "room.chat_empty").to_string(),
            theme.dim(),
        )));
    }
    let h = history.height as usize;
    let end = lines
        .len()
        .saturating_sub(rs.chat_scroll.min(lines.len().saturating_sub(h)));
    let start = end.saturating_sub(h);
    let shown: Vec<Line> = lines[start..end].to_vec();
    frame.render_widget(Paragraph::new(shown), history);
    // The input line.
    if rs.chat_focus {
        let prompt = "› ";
        let text = rs.chat.text();
        let before: String = text.chars().take(rs.chat.cursor()).collect();
        // Near the limit a count shows at the right, so a long message is never cut
        // unseen.
        let (used, max) = (rs.chat.len(), rs.chat.max());
        let counter = if used + CHAT_COUNT_FROM >= max {
            format!(" {used}/{max}")
        } else {
            String::new()
        };
        let input_w = (input.width as usize).saturating_sub(counter.width());
        let room_w = input_w.saturating_sub(prompt.width() + 1);
        // Keep the cursor in view on long lines.
        let skip = before.width().saturating_sub(room_w);
        let visible: String = skip_width(text, skip);
        frame.render_widget(
            Paragraph::new(Line::from(vec![
                Span::styled(prompt, theme.accent()),
                Span::styled(visible, theme.style()),
            ])),
            input,
        );
        if !counter.is_empty() {
            let style = if used >= max {
                theme.error()
            } else {
                theme.dim()
            };
            let at = Rect {
                x: input.right().saturating_sub(counter.width() as u16),
                width: (counter.width() as u16).min(input.width),
                ..input
            };
            frame.render_widget(Paragraph::new(Span::styled(counter, style)), at);
        }
        let x = input.x + (prompt.width() + before.width() - skip) as u16;
        frame.set_cursor_position(Position::new(
            x.min(input.right().saturating_sub(1)),
            input.y,
        ));
    } else {
        frame.render_widget(
            Paragraph::new(Span::styled(
                tr!(loc, "room.chat_prompt").to_string(),
                theme.dim(),
            )),
            input,
        );
    }
}

/// `text` without its first `skip` columns.
fn skip_width(text: &str, skip: usize) -> String {
    let mut used = 0;
    text.chars()
        .skip_while(|c| {
            let w = c.to_string().width();
            if used + w <= skip {
                used += w;
                true
            } else {
                false
            }
        })
        .collect()
}

/// `text` cut to `width` columns, with an ellipsis when cut.
pub fn truncate(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_string();
    }
    let mut out = String::new();
    for c in text.chars() {
        if out.width() + c.to_string().width() + 1 > width {
            break;
        }
        out.push(c);
    }
    out.push('…');
    out
}
