//! The leaderboard and the history: one table each, under the title bar.

use banco_protocol::{GameKind, GameSettings, GameSummary, Standing};
use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Cell, Paragraph, Row, Table, TableState, Tabs, Wrap};

use super::{centered, column_widths, fit, legend, legend_items, notice_line, title_bar};
use crate::app::App;
use crate::app::keys::KeyHelp;
use crate::app::records::{History, HistoryFilter, Leaderboard};
use crate::narrate;
use crate::tr;

/// Title, the table's box, notice and keys.
fn frame_parts(frame: &mut Frame, area: Rect, app: &App, place: &str, keys: &[KeyHelp]) -> Rect {
    let [title, table, notice, legend_area] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    title_bar(frame, title, app, place);
    frame.render_widget(notice_line(app), notice);
    let items = legend_items(app, keys);
    frame.render_widget(
        Paragraph::new(legend(&items, &app.theme, legend_area.width, 1)),
        legend_area,
    );
    table
}

/// A bordered box with `title`; returns it and its inside.
fn boxed<'a>(app: &App, title: String) -> Block<'a> {
    Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(app.theme.border())
        .title(Span::styled(format!(" {title} "), app.theme.accent()))
}

/// A sentence in the middle of an empty table.
fn empty_text(frame: &mut Frame, area: Rect, app: &App, block: Block, text: &str) {
    let inner = block.inner(area);
    frame.render_widget(block, area);
    frame.render_widget(
        Paragraph::new(text.to_string())
            .style(app.theme.dim())
            .alignment(Alignment::Center)
            .wrap(Wrap { trim: true }),
        centered(inner, inner.width.min(64), 3),
    );
}

pub fn draw_leaderboard(frame: &mut Frame, area: Rect, app: &App, board: &Leaderboard) {
    let loc = &app.loc;
    let theme = &app.theme;
    let game_name = |g: GameKind| loc.get(&format!("game_kind.{}", g.as_str())).to_string();
    let place = tr!(loc, "leaderboard.title_game", game = game_name(board.game));
    let area = frame_parts(frame, area, app, &place, crate::app::keys::LEADERBOARD);
    let [tabs_area, table_area] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(3)]).areas(area);
    // One tab per game; Tab switches.
    let tabs = Tabs::new(GameKind::ALL.map(|g| format!(" {} ", game_name(g))))
        .select(GameKind::ALL.iter().position(|g| *g == board.game))
        .style(theme.dim())
        .highlight_style(theme.selected().add_modifier(Modifier::BOLD))
        .divider("│");
    frame.render_widget(tabs, tabs_area);
    let block = boxed(app, place.clone());
    let Some(standings) = &board.standings else {
        return empty_text(frame, table_area, app, block, tr!(loc, "records.loading"));
    };
    if standings.is_empty() {
        return empty_text(frame, table_area, app, block, tr!(loc, "leaderboard.empty"));
    }
    let me = app.session.welcome.as_ref().map(|w| w.name.as_str());
    let header = Row::new(
        [
            "#",
            tr!(loc, "leaderboard.col_name"),
            tr!(loc, "leaderboard.col_rating"),
            tr!(loc, "leaderboard.col_games"),
            tr!(loc, "leaderboard.col_wins"),
            tr!(loc, "leaderboard.col_losses"),
            tr!(loc, "leaderboard.col_draws"),
        ]
        .map(|h| Cell::from(h.to_string())),
    )
    .style(theme.dim().add_modifier(Modifier::BOLD));
    let places = narrate::places(standings);
    let rows = standings.iter().zip(places).map(|(s, place)| {
        let mine = s.bot.is_none() && me.is_some_and(|m| m.eq_ignore_ascii_case(&s.name));
        let style = if mine { theme.good() } else { theme.style() };
        let mut name = standing_name(s, app);
        if mine {
            name = format!("{name} {}", tr!(loc, "leaderboard.you"));
        }
        // A provisional rating (`1500?`) is dim: it still moves a lot.
        let rating_style = if s.rating.provisional {
            theme.dim()
        } else {
            theme.accent()
        };
        Row::new(vec![
            // No place for a provisional rating: "not ranked yet", as its profile says.
            Cell::from(place.map_or_else(|| "—".to_string(), |p| p.to_string())),
            Cell::from(name),
            Cell::from(Span::styled(s.rating.to_string(), rating_style)),
            Cell::from(s.games.to_string()),
            Cell::from(s.wins.to_string()),
            Cell::from(s.losses.to_string()),
            Cell::from(s.draws.to_string()),
        ])
        .style(style)
    });
    let table = Table::new(
        rows,
        [
            Constraint::Length(4),
            Constraint::Min(16),
            Constraint::Length(7),
            Constraint::Length(6),
            Constraint::Length(6),
            Constraint::Length(6),
            Constraint::Length(6),
        ],
    )
    .header(header)
    .block(block)
    .row_highlight_style(theme.selected())
    .highlight_symbol("▶ ");
    let mut state = TableState::new().with_selected(Some(board.selected));
    frame.render_stateful_widget(table, table_area, &mut state);
}

/// A leaderboard name; a bot is shown as its level, in the user's language.
fn standing_name(s: &Standing, app: &App) -> String {
    match s.bot {
        Some(level) => format!(
            "⚙ {}",
            tr!(
                app.loc,
                "seat.bot",
                level = narrate::level_name(level, &app.loc)
            )
        ),
        None => crate::challenges::tagged(&s.name, s.bot_account, &app.loc),
    }
}

pub fn draw_history(frame: &mut Frame, area: Rect, app: &App, history: &History) {
    let loc = &app.loc;
    let theme = &app.theme;
    let place = match &history.filter {
        HistoryFilter::Everyone => tr!(loc, "history.title_all").to_string(),
        HistoryFilter::Mine => tr!(loc, "history.title_mine").to_string(),
        HistoryFilter::Player(name) => tr!(loc, "history.title_player", name = name),
    };
    let table_area = frame_parts(frame, area, app, &place, crate::app::keys::HISTORY);
    let mut title = place.clone();
    if history.opening.is_some() {
        title = format!("{title} · {}", tr!(loc, "history.opening"));
    }
    let block = boxed(app, title);
    let Some(games) = &history.games else {
        return empty_text(frame, table_area, app, block, tr!(loc, "records.loading"));
    };
    if games.is_empty() {
        return empty_text(frame, table_area, app, block, tr!(loc, "history.empty"));
    }
    let me = app.session.welcome.as_ref().map(|w| w.name.as_str());
    // On a narrow terminal the game loses its rule and the date its year.
    let wide = table_area.width >= 110;
    let widths = if wide {
        [
            Constraint::Length(5),
            Constraint::Length(22),
            Constraint::Min(18),
            Constraint::Min(24),
            Constraint::Length(5),
            Constraint::Length(16),
            // An empty last column keeps the date off the border.
            Constraint::Length(0),
        ]
    } else {
        [
            Constraint::Length(4),
            Constraint::Length(10),
            Constraint::Min(12),
            Constraint::Min(18),
            Constraint::Length(5),
            Constraint::Length(11),
            Constraint::Length(0),
        ]
    };
    // Every cell is cut to its column with `…`; the whole result is in the replay.
    let cols = column_widths(table_area.width.saturating_sub(2), 2, &widths);
    let width = |i: usize| cols.get(i).copied().unwrap_or(0);
    let header = Row::new(
        [
            "#",
            tr!(loc, "history.col_game"),
            tr!(loc, "history.col_players"),
            tr!(loc, "history.col_result"),
            tr!(loc, "history.col_moves"),
            tr!(loc, "history.col_ended"),
        ]
        .iter()
        .enumerate()
        .map(|(i, h)| Cell::from(fit(h, width(i)))),
    )
    .style(theme.dim().add_modifier(Modifier::BOLD));
    let rows = games.iter().map(|g| {
        let players = history_players(g, loc);
        let headline = narrate::record_headline(Some(&g.over), &g.players, loc);
        let reason = narrate::record_reason(&g.over, &g.players, loc);
        let mine_won = g
            .over
            .winner
            .is_some_and(|w| Some(g.players[w.index()].as_str()) == me);
        let mine_lost = g
            .over
            .winner
            .is_some_and(|w| Some(g.players[w.other().index()].as_str()) == me);
        let result_style = if mine_won {
            theme.good()
        } else if mine_lost {
            theme.error()
        } else {
            theme.style()
        };
        let headline = format!("{} ", headline.trim_end_matches('.'));
        let result = fit(&format!("{headline}{reason}"), width(3));
        // The headline keeps its colour as far as it shows; the reason, dim, follows.
        let split = result
            .char_indices()
            .nth(headline.chars().count())
            .map_or(result.len(), |(i, _)| i);
        let (head, rest) = result.split_at(split);
        Row::new(vec![
            Cell::from(fit(&g.id.to_string(), width(0))),
            Cell::from(fit(&game_cell(&g.game, wide, loc), width(1))),
            Cell::from(fit(&players, width(2))),
            Cell::from(Line::from(vec![
                Span::styled(head.to_string(), result_style),
                Span::styled(rest.to_string(), theme.dim()),
            ])),
            Cell::from(g.plies.to_string()),
            Cell::from(Span::styled(
                if wide {
                    narrate::ended_at(g.ended_at_ms)
                } else {
                    narrate::ended_at(g.ended_at_ms)
                        .get(5..)
                        .unwrap_or_default()
                        .to_string()
                },
                theme.dim(),
            )),
        ])
    });
    let table = Table::new(rows, widths)
        .header(header)
        .block(block)
        .row_highlight_style(theme.selected())
        .highlight_symbol("▶ ");
    let mut state = TableState::new().with_selected(Some(history.selected));
    frame.render_stateful_widget(table, table_area, &mut state);
}

/// `An – Bình`, first mover first.
fn history_players(g: &GameSummary, loc: &crate::locale::Locale) -> String {
    let first = narrate::shown_name(&g.players[g.first.index()], loc);
    let second = narrate::shown_name(&g.players[g.first.other().index()], loc);
    format!("{first} – {second}")
}

/// The game column: `caro 15x15, caro rule` or `xiangqi`; narrow, `caro 15x15`.
fn game_cell(game: &GameSettings, wide: bool, loc: &crate::locale::Locale) -> String {
    match game {
        GameSettings::Caro { width, height, .. } if !wide => format!("caro {width}x{height}"),
        _ => narrate::game_line(game, loc),
    }
}
