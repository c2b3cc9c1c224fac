//! The lobby: the room table, and the create-room form over it.

use banco_protocol::{FirstMove, RoomStatus};
use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Cell, Paragraph, Row, Table, TableState, Wrap};
use unicode_width::UnicodeWidthStr;

use super::{
    banner, centered, column_widths, dialog, fit, legend, legend_items, notice_line, title_bar,
    widest,
};
use crate::app::create::{
    CreateForm, Field, GameKind, MatchKind, OpeningKind, Players, Target, TimeKind,
};
use crate::app::{App, Lobby};
use crate::narrate;
use crate::tr;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, lobby: &Lobby) {
    let l = app.lobby_layout(area);
    let loc = &app.loc;
    let theme = &app.theme;
    title_bar(frame, l.title, app, tr!(loc, "lobby.title"));
    if let Some(line) = banner(app) {
        frame.render_widget(line, l.banner);
    }
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(theme.border())
        .title(Span::styled(
            format!(
                " {} ",
                tr!(loc, "lobby.rooms", count = app.session.rooms.len())
            ),
            theme.accent(),
        ));
    // Challenges waiting for our answer, where the eye goes first.
    let waiting = app.session.challenges.incoming.len();
    let block = if waiting > 0 {
        block.title(
            ratatui::text::Line::from(Span::styled(
                format!(" {} ", tr!(loc, "challenge.lobby_waiting", count = waiting)),
                theme.good().add_modifier(Modifier::BOLD),
            ))
            .right_aligned(),
        )
    } else {
        block
    };
    if app.session.rooms.is_empty() {
        let inner = block.inner(l.table);
        frame.render_widget(block, l.table);
        let text = tr!(loc, "lobby.empty");
        let box_area = centered(inner, inner.width.min(60), 3);
        frame.render_widget(
            Paragraph::new(text.to_string())
                .style(theme.dim())
                .alignment(ratatui::layout::Alignment::Center)
                .wrap(Wrap { trim: true }),
            box_area,
        );
    } else {
        let headers = [
            "#",
            tr!(loc, "lobby.col_game"),
            tr!(loc, "lobby.col_time"),
            tr!(loc, "lobby.col_players"),
            tr!(loc, "lobby.col_watching"),
            tr!(loc, "lobby.col_status"),
        ];
        let cells: Vec<[String; 6]> = app
            .session
            .rooms
            .iter()
            .map(|s| {
                let mut game = narrate::game_line(&s.settings.game, loc);
                if s.settings.first == FirstMove::Random {
                    game.push_str(" ⚄");
                }
                [
                    s.id.to_string(),
                    game,
                    narrate::summary_time(s, loc),
                    narrate::summary_players(s, loc),
                    s.spectators.to_string(),
                    narrate::summary_status(s, loc),
                ]
            })
            .collect();
        // The short columns take what their words need (in this language); the game
        // and the players share the rest, and whatever does not fit ends in `…`.
        let need = |i: usize| widest(cells.iter().map(|c| c[i].as_str()).chain([headers[i]]));
        let widths = [
            Constraint::Length(need(0).max(2)),
            Constraint::Fill(1),
            Constraint::Length(need(2)),
            Constraint::Fill(1),
            Constraint::Length(need(4)),
            Constraint::Length(need(5)),
            // An empty last column keeps the status off the border.
            Constraint::Length(0),
        ];
        let cols = column_widths(l.table.width.saturating_sub(2), 2, &widths);
        let width = |i: usize| cols.get(i).copied().unwrap_or(0);
        let header = Row::new(
            headers
                .iter()
                .enumerate()
                .map(|(i, h)| Cell::from(fit(h, width(i)))),
        )
        .style(theme.dim().add_modifier(Modifier::BOLD));
        let rows = app.session.rooms.iter().zip(&cells).map(|(s, texts)| {
            let status_style = match s.status {
                RoomStatus::Waiting => theme.good(),
                RoomStatus::Playing => theme.style(),
                RoomStatus::Finished => theme.dim(),
            };
            Row::new(texts.iter().enumerate().map(|(i, text)| {
                let text = fit(text, width(i));
                if i == 5 {
                    Cell::from(Span::styled(text, status_style))
                } else {
                    Cell::from(text)
                }
            }))
        });
        let table = Table::new(rows, widths)
            .header(header)
            .block(block)
            .row_highlight_style(theme.selected())
            .highlight_symbol("▶ ");
        let mut state = TableState::new().with_selected(Some(lobby.selected));
        frame.render_stateful_widget(table, l.table, &mut state);
    }
    // Where others join from, when this machine hosts.
    let mut hint = Vec::new();
    if let Some(hosting) = &app.hosting {
        let addr = &hosting.listen;
        let port = addr.rsplit(':').next().unwrap_or_default();
        let target = if !hosting.join_hint.is_empty() {
            hosting
                .join_hint
                .join(&format!(" {} ", tr!(loc, "lobby.or")))
        } else if port == banco_protocol::DEFAULT_PORT.to_string() {
            tr!(loc, "lobby.this_ip").to_string()
        } else {
            format!("{}:{port}", tr!(loc, "lobby.this_ip"))
        };
        let text = tr!(
            loc,
            "lobby.hosting_hint",
            addr = addr,
            target = target,
            port = port,
            udp = banco_protocol::discovery::DISCOVERY_PORT
        );
        for l in super::wrap(&text, l.hint.width.saturating_sub(2) as usize) {
            hint.push(Line::from(Span::styled(format!(" {l}"), theme.dim())));
        }
    }
    if let Some(text) = app.web_hint() {
        for l in super::wrap(&text, l.hint.width.saturating_sub(2) as usize) {
            hint.push(Line::from(Span::styled(format!(" {l}"), theme.accent())));
        }
    }
    if let Some((text, clear)) = app.key_hint() {
        let style = if clear { theme.error() } else { theme.dim() };
        for l in super::wrap(&text, l.hint.width.saturating_sub(2) as usize) {
            hint.push(Line::from(Span::styled(format!(" {l}"), style)));
        }
    }
    if let Some(text) = app.open_challenge_link() {
        for l in super::wrap(&text, l.hint.width.saturating_sub(2) as usize) {
            hint.push(Line::from(Span::styled(format!(" {l}"), theme.good())));
        }
    }
    frame.render_widget(Paragraph::new(hint), l.hint);
    if let (Some(area), Some(code)) = (
        l.qr,
        app.qr_url().and_then(|url| crate::layout::qr::lines(&url)),
    ) {
        let title = match app.my_open_challenge() {
            Some(ch) => tr!(loc, "challenge.open_qr", id = ch.id),
            None => tr!(loc, "lobby.web_qr").to_string(),
        };
        let block = Block::bordered()
            .border_type(BorderType::Rounded)
            .border_style(theme.border())
            .title(Span::styled(format!(" {title} "), theme.accent()));
        let inner = block.inner(area);
        frame.render_widget(block, area);
        frame.render_widget(Paragraph::new(super::qr::styled(&code)), inner);
    }
    frame.render_widget(notice_line(app), l.notice);
    let items = legend_items(app, crate::app::keys::LOBBY);
    frame.render_widget(
        Paragraph::new(legend(&items, theme, l.keys.width, 2)),
        l.keys,
    );
    if let Some(form) = &lobby.create {
        draw_create(frame, area, app, form);
    }
}

/// The create-room form (or the challenge form, which is the same with a target).
pub(super) fn draw_create(frame: &mut Frame, area: Rect, app: &App, form: &CreateForm) {
    let loc = &app.loc;
    let theme = &app.theme;
    let fields = form.fields();
    let height = fields.len() as u16 + 6;
    let width = if form.game == GameKind::Xiangqi {
        78
    } else {
        62
    };
    let title = match &form.target {
        None => tr!(loc, "create.title").to_string(),
        Some(Target::Player(name)) => tr!(loc, "challenge.title", name = name),
        Some(Target::Anyone) => tr!(loc, "challenge.title_open").to_string(),
        Some(Target::Tournament) => tr!(loc, "tournament.games_title").to_string(),
    };
    let inner = dialog(frame, centered(area, width, height), theme, &title);
    const LABEL_W: usize = 18;
    let keys = match form.target {
        None => crate::app::keys::CREATE,
        Some(Target::Tournament) => crate::app::keys::TOURNAMENT_GAMES_FORM,
        Some(_) => crate::app::keys::CHALLENGE_FORM,
    };
    let items = legend_items(app, keys);
    let legend_lines = legend(&items, theme, inner.width, 2);
    // On a short terminal the fields scroll: the focused one stays in view, and the keys
    // stay at the bottom.
    let roomy = inner.height as usize >= fields.len() + legend_lines.len() + 2;
    let rows = (inner.height as usize)
        .saturating_sub(legend_lines.len() + if roomy { 2 } else { 0 })
        .max(1);
    let at = fields.iter().position(|f| *f == form.focus).unwrap_or(0);
    let first = (at + 1)
        .saturating_sub(rows)
        .min(fields.len().saturating_sub(rows));
    let mut lines = if roomy {
        vec![Line::default()]
    } else {
        Vec::new()
    };
    let mut cursor = None;
    for f in fields.iter().skip(first).take(rows) {
        let (label, value) = field_text(app, form, *f);
        let focused = *f == form.focus;
        let label_style = if focused { theme.accent() } else { theme.dim() };
        let mut value_style = if focused {
            theme.selected()
        } else {
            theme.style()
        };
        if matches!(f, Field::Width | Field::Height) && !form.size_ok() {
            value_style = theme.error();
        }
        if matches!(f, Field::MatchFirstTo | Field::MatchGames) && !form.match_ok() {
            value_style = theme.error();
        }
        let typed = match f {
            Field::Fen => Some((&form.fen, form.fen_ok().is_ok())),
            Field::Stones => Some((&form.stones, form.opening_ok().is_ok())),
            _ => None,
        };
        let value = if let Some((input, valid)) = typed {
            // A text line: typed, not stepped; the end stays in view as it grows.
            let room = (inner.width as usize).saturating_sub(LABEL_W + 7);
            if input.is_empty() {
                value_style = value_style.patch(theme.dim());
                format!("  {value}  ")
            } else {
                if !valid {
                    value_style = theme.error();
                }
                let text = input.text();
                if focused {
                    let before: String = text.chars().take(input.cursor()).collect();
                    let skip = before.width().saturating_sub(room);
                    let shown: String = text.chars().skip(skip).take(room).collect();
                    let x = inner.x + (LABEL_W + 5 + before.width() - skip) as u16;
                    cursor = Some((x, inner.y + lines.len() as u16));
                    format!("  {shown} ")
                } else {
                    format!("  {} ", super::room::truncate(text, room))
                }
            }
        } else if focused {
            format!("‹ {value} ›")
        } else {
            format!("  {value}  ")
        };
        if focused && typed.is_some_and(|(input, _)| input.is_empty()) {
            cursor = Some((inner.x + LABEL_W as u16 + 5, inner.y + lines.len() as u16));
        }
        lines.push(Line::from(vec![
            Span::styled(format!(" {label:>LABEL_W$}  "), label_style),
            Span::styled(value, value_style),
        ]));
    }
    if roomy {
        lines.push(Line::default());
    }
    lines.extend(legend_lines);
    frame.render_widget(Paragraph::new(lines), inner);
    if let Some((x, y)) = cursor {
        frame.set_cursor_position(ratatui::layout::Position::new(
            x.min(inner.right().saturating_sub(1)),
            y,
        ));
    }
}

fn field_text(app: &App, form: &CreateForm, f: Field) -> (String, String) {
    let loc = &app.loc;
    let label = |k: &str| loc.get(k).to_string();
    match f {
        Field::Game => (
            label("create.game"),
            label(match form.game {
                GameKind::Caro => "create.game_caro",
                GameKind::Xiangqi => "create.game_xiangqi",
            }),
        ),
        Field::Fen => (label("create.fen"), label("create.fen_usual")),
        Field::Arrange => (label("create.arrange"), label("create.arrange_hint")),
        Field::Opening => (
            label("create.opening"),
            label(match form.opening {
                OpeningKind::None => "create.opening_none",
                OpeningKind::Balanced => "create.opening_balanced",
                OpeningKind::Stones => "create.opening_stones",
                OpeningKind::Swap1 => "create.opening_swap1",
                OpeningKind::Swap2 => "create.opening_swap2",
            }),
        ),
        Field::Stones => (label("create.stones"), label("create.stones_hint")),
        Field::Width => (label("create.width"), form.width.to_string()),
        Field::Height => (label("create.height"), form.height.to_string()),
        Field::Rule => (
            label("create.rule"),
            label(&format!("rule.{}", form.rule.name())),
        ),
        Field::First => (
            label("create.first"),
            label(match form.first {
                FirstMove::Me => "create.first_me",
                FirstMove::Them => "create.first_them",
                FirstMove::Random => "create.first_random",
            }),
        ),
        Field::Time => (
            label("create.time"),
            label(match form.time {
                TimeKind::None => "create.time_none",
                TimeKind::PerMove => "create.time_per_move",
                TimeKind::Clock => "create.time_clock",
            }),
        ),
        Field::PerMove => (
            label("create.per_move"),
            tr!(loc, "create.seconds", n = form.per_move_secs),
        ),
        Field::ClockMinutes => (
            label("create.clock_minutes"),
            tr!(loc, "create.minutes", n = form.clock_minutes),
        ),
        Field::Increment => (
            label("create.increment"),
            tr!(loc, "create.seconds", n = form.increment_secs),
        ),
        Field::Players => (
            label("create.players"),
            label(match form.players {
                Players::MeAndPerson => "create.players_me_person",
                Players::MeAndBot => "create.players_me_bot",
                Players::Bots => "create.players_bots",
                Players::BotAndPerson => "create.players_bot_person",
            }),
        ),
        Field::BotOne | Field::BotTwo => {
            let seat = usize::from(f == Field::BotTwo);
            let key = match (form.players, seat) {
                (Players::Bots, 0) => "create.bot_one",
                (Players::Bots, _) => "create.bot_two",
                _ => "create.bot",
            };
            // The name and the place on the ladder, so the order reads without the docs.
            let level = form.bots[seat];
            let place = format!(
                "{} ({}/{})",
                narrate::level_name(level, loc),
                level.number(),
                banco_protocol::Level::ALL.len()
            );
            (label(key), place)
        }
        Field::Rated => (
            label("challenge.rated_field"),
            label(if form.rated {
                "create.on"
            } else {
                "create.off"
            }),
        ),
        Field::Hints => (
            label("create.hints"),
            label(if form.hints {
                "create.on"
            } else {
                "create.off"
            }),
        ),
        Field::Match => (
            label("create.match"),
            label(match form.match_kind {
                MatchKind::Off => "create.match_off",
                MatchKind::Games => "create.match_games",
                MatchKind::FirstTo => "create.match_first_to",
            }),
        ),
        Field::MatchGames => (
            label(match form.match_kind {
                MatchKind::FirstTo => "create.match_of",
                _ => "create.match_games_count",
            }),
            form.match_games.to_string(),
        ),
        Field::MatchFirstTo => (
            label("create.match_first_to_count"),
            form.match_first_to.to_string(),
        ),
    }
}
