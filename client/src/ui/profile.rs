//! The profile screen ("My info"): who, a line per game, the rating chart of the game
//! chosen, and the recent games; and the change-password screen over it.

use banco_protocol::{GUEST_MARK, GameKind, GameSummary, KindRecord, Profile, RatingPoint};
use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Axis, Block, BorderType, Cell, Chart, Dataset, GraphType, Paragraph, Row, Table, TableState,
    Wrap,
};
use unicode_width::UnicodeWidthStr;

use super::{centered, column_widths, fit, legend, legend_items, notice_line, title_bar};
use crate::app::App;
use crate::app::account::{PasswordField, PasswordScreen};
use crate::app::profile::{ProfileScreen, SeatProfile};
use crate::locale::Locale;
use crate::narrate;
use crate::tr;

/// Title, body, notice and keys; returns the body.
fn frame_parts(
    frame: &mut Frame,
    area: Rect,
    app: &App,
    place: &str,
    keys: &[crate::app::keys::KeyHelp],
) -> Rect {
    let [title, body, notice, legend_area] = Layout::vertical([
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
    body
}

fn boxed<'a>(app: &App, title: String) -> Block<'a> {
    Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(app.theme.border())
        .title(Span::styled(format!(" {title} "), app.theme.accent()))
}

/// The name as shown: a bot by its level, in the reader's language.
pub fn shown_name(name: &str, bot: Option<banco_protocol::Level>, loc: &Locale) -> String {
    match bot {
        Some(level) => format!(
            "⚙ {}",
            tr!(loc, "seat.bot", level = narrate::level_name(level, loc))
        ),
        None => name.to_string(),
    }
}

/// A day, local time: `2025-05-01`.
fn day(ms: u64) -> String {
    narrate::ended_at(ms).chars().take(10).collect()
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App, ps: &ProfileScreen) {
    let loc = &app.loc;
    let keys = crate::app::keys::profile_keys(ps.mine, app.logged_in());
    let name = shown_name(&ps.who.name, ps.who.bot, loc);
    let place = if ps.mine {
        tr!(loc, "profile.title_mine").to_string()
    } else {
        tr!(loc, "profile.title", name = name)
    };
    let body = frame_parts(frame, area, app, &place, &keys);
    let mut title = name.clone();
    if ps.opening.is_some() {
        title = format!("{title} · {}", tr!(loc, "history.opening"));
    }
    let block = boxed(app, title);
    let inner = block.inner(body);
    frame.render_widget(block, body);
    let Some(profile) = &ps.profile else {
        let text = match &ps.refused {
            Some(why) => why.clone(),
            None => tr!(loc, "records.loading").to_string(),
        };
        let mut text = text;
        if ps.mine && !app.logged_in() {
            text = format!("{text}\n\n{}", tr!(loc, "profile.guest_how"));
        }
        frame.render_widget(
            Paragraph::new(text)
                .style(app.theme.dim())
                .alignment(Alignment::Center)
                .wrap(Wrap { trim: true }),
            centered(inner, inner.width.min(70), 6),
        );
        return;
    };
    let guest_help = ps.mine && !app.logged_in();
    let who_lines = if guest_help {
        1 + super::wrap(tr!(loc, "profile.guest_how"), usize::from(inner.width)).len() as u16
    } else {
        1
    };
    let [who, kinds, chart, recent] = Layout::vertical([
        Constraint::Length(who_lines),
        Constraint::Length(4),
        Constraint::Fill(3),
        Constraint::Fill(2),
    ])
    .areas(inner);
    draw_who(frame, who, app, profile, guest_help);
    draw_kinds(frame, kinds, app, profile, ps.game);
    let record = profile.games.iter().find(|k| k.game == ps.game);
    draw_chart(frame, chart, app, ps.game, record);
    draw_recent(frame, recent, app, profile, ps.selected);
}

/// Registered when, or what kind of record this is; and since when it plays here.
fn draw_who(frame: &mut Frame, area: Rect, app: &App, profile: &Profile, guest_help: bool) {
    let loc = &app.loc;
    let what = match (profile.bot, profile.registered_at_ms) {
        (Some(_), _) => tr!(loc, "profile.bot").to_string(),
        (None, Some(at)) if profile.bot_account => format!(
            "{} {}",
            tr!(loc, "challenge.bot_tag"),
            tr!(loc, "profile.registered", date = day(at))
        ),
        (None, Some(at)) => tr!(loc, "profile.registered", date = day(at)),
        (None, None) if profile.name.starts_with(GUEST_MARK) => {
            tr!(loc, "profile.guest").to_string()
        }
        (None, None) => tr!(loc, "profile.unclaimed").to_string(),
    };
    let since = tr!(loc, "profile.first_seen", date = day(profile.first_seen_ms));
    let mut lines = vec![Line::from(vec![
        Span::styled(format!("{what} · "), app.theme.style()),
        Span::styled(since, app.theme.dim()),
    ])];
    if guest_help {
        lines.push(Line::from(Span::styled(
            tr!(loc, "profile.guest_how").to_string(),
            app.theme.dim(),
        )));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), area);
}

/// One line per game: rating, rank, counts, best win; the charted one marked.
fn draw_kinds(frame: &mut Frame, area: Rect, app: &App, profile: &Profile, charted: GameKind) {
    let loc = &app.loc;
    let theme = &app.theme;
    let widths = [
        Constraint::Length(8),
        Constraint::Length(11),
        Constraint::Length(5),
        Constraint::Length(6),
        Constraint::Length(5),
        Constraint::Length(5),
        Constraint::Length(6),
        Constraint::Min(12),
    ];
    let cols = column_widths(area.width, 2, &widths);
    let width = |i: usize| cols.get(i).copied().unwrap_or(0);
    let header = Row::new(
        [
            tr!(loc, "profile.col_game"),
            tr!(loc, "leaderboard.col_rating"),
            tr!(loc, "profile.col_rank"),
            tr!(loc, "leaderboard.col_games"),
            tr!(loc, "leaderboard.col_wins"),
            tr!(loc, "leaderboard.col_losses"),
            tr!(loc, "leaderboard.col_draws"),
            tr!(loc, "profile.col_best_win"),
        ]
        .iter()
        .enumerate()
        .map(|(i, h)| Cell::from(fit(h, width(i)))),
    )
    .style(theme.dim().add_modifier(Modifier::BOLD));
    let rows = profile.games.iter().map(|k| {
        let best = k.best_win.as_ref().map_or("—".to_string(), |b| {
            tr!(
                loc,
                "profile.best_win",
                name = b.opponent,
                rating = b.opponent_rating,
                game = b.game
            )
        });
        let rating_style = if k.rating.provisional {
            theme.dim()
        } else {
            theme.accent()
        };
        Row::new(vec![
            Cell::from(
                loc.get(&format!("game_kind.{}", k.game.as_str()))
                    .to_string(),
            ),
            Cell::from(Span::styled(
                format!("{} ±{}", k.rating, k.rating.deviation),
                rating_style,
            )),
            Cell::from(k.rank.map_or("—".to_string(), |r| format!("#{r}"))),
            Cell::from(k.games.to_string()),
            Cell::from(k.wins.to_string()),
            Cell::from(k.losses.to_string()),
            Cell::from(k.draws.to_string()),
            Cell::from(fit(&best, width(7))),
        ])
    });
    let selected = profile.games.iter().position(|k| k.game == charted);
    let table = Table::new(rows, widths)
        .header(header)
        .row_highlight_style(theme.selected())
        .highlight_symbol("▶ ");
    let mut state = TableState::new().with_selected(selected);
    frame.render_stateful_widget(table, area, &mut state);
}

/// The y-axis range of a chart of `points`: their lowest and highest, padded and rounded
/// out to 25s so the line never runs along the frame.
pub fn rating_bounds(points: &[RatingPoint]) -> (f64, f64) {
    let lo = points.iter().map(|p| p.rating).min().unwrap_or(1500);
    let hi = points.iter().map(|p| p.rating).max().unwrap_or(1500);
    let lo = (lo - 10).div_euclid(25) * 25;
    let hi = (hi + 10 + 24).div_euclid(25) * 25;
    (f64::from(lo), f64::from(hi.max(lo + 25)))
}

/// The rating after each rated game, a line across the games played.
fn draw_chart(
    frame: &mut Frame,
    area: Rect,
    app: &App,
    game: GameKind,
    record: Option<&KindRecord>,
) {
    let loc = &app.loc;
    let theme = &app.theme;
    let game_name = loc.get(&format!("game_kind.{}", game.as_str())).to_string();
    let points = record.map_or(&[][..], |r| r.history.as_slice());
    let mut title = tr!(loc, "profile.chart_title", game = game_name);
    if let Some(r) = record.filter(|r| r.rating.provisional) {
        title = format!(
            "{title} · {}",
            tr!(loc, "profile.provisional", deviation = r.rating.deviation)
        );
    }
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(theme.border())
        .title(Span::styled(format!(" {title} "), theme.accent()));
    if points.is_empty() {
        let inner = block.inner(area);
        frame.render_widget(block, area);
        frame.render_widget(
            Paragraph::new(tr!(loc, "profile.no_chart", game = game_name))
                .style(theme.dim())
                .alignment(Alignment::Center)
                .wrap(Wrap { trim: true }),
            centered(inner, inner.width.min(60), 2),
        );
        return;
    }
    // One step per rated game: a burst of games on one evening reads as clearly as a
    // month of one a day.
    let mut data: Vec<(f64, f64)> = points
        .iter()
        .enumerate()
        .map(|(i, p)| (i as f64, f64::from(p.rating)))
        .collect();
    if data.len() == 1 {
        // A single game still draws a line, flat, across the chart.
        data.push((1.0, data[0].1));
    }
    let last_x = (data.len() - 1) as f64;
    let (lo, hi) = rating_bounds(points);
    let first_day = day(points[0].at_ms);
    let last_day = day(points[points.len() - 1].at_ms);
    let x_labels = vec![
        Span::styled(first_day, theme.dim()),
        Span::styled(
            tr!(loc, "profile.chart_games", count = points.len()),
            theme.dim(),
        ),
        Span::styled(last_day, theme.dim()),
    ];
    let y_labels = vec![
        Span::styled(format!("{lo:.0}"), theme.dim()),
        Span::styled(format!("{:.0}", f64::midpoint(lo, hi)), theme.dim()),
        Span::styled(format!("{hi:.0}"), theme.dim()),
    ];
    let dataset = Dataset::default()
        .marker(Marker::Braille)
        .graph_type(GraphType::Line)
        .style(theme.accent())
        .data(&data);
    let chart = Chart::new(vec![dataset])
        .block(block)
        .x_axis(
            Axis::default()
                .style(theme.dim())
                .bounds([0.0, last_x])
                .labels(x_labels),
        )
        .y_axis(
            Axis::default()
                .style(theme.dim())
                .bounds([lo, hi])
                .labels(y_labels),
        );
    frame.render_widget(chart, area);
}

/// The newest games, from the profile's side: won, lost or drawn, rated or not.
fn draw_recent(frame: &mut Frame, area: Rect, app: &App, profile: &Profile, selected: usize) {
    let loc = &app.loc;
    let theme = &app.theme;
    let block = boxed(app, tr!(loc, "profile.recent").to_string());
    if profile.recent.is_empty() {
        let inner = block.inner(area);
        frame.render_widget(block, area);
        frame.render_widget(
            Paragraph::new(tr!(loc, "history.empty").to_string())
                .style(theme.dim())
                .alignment(Alignment::Center),
            centered(inner, inner.width, 1),
        );
        return;
    }
    // On a narrow terminal the date loses its year.
    let wide = area.width >= 90;
    let widths = [
        Constraint::Length(5),
        Constraint::Length(8),
        Constraint::Min(12),
        Constraint::Min(20),
        Constraint::Length(8),
        Constraint::Length(if wide { 16 } else { 11 }),
        Constraint::Length(0),
    ];
    let cols = column_widths(area.width.saturating_sub(2), 2, &widths);
    let width = |i: usize| cols.get(i).copied().unwrap_or(0);
    let header = Row::new(
        [
            "#",
            tr!(loc, "profile.col_game"),
            tr!(loc, "profile.col_opponent"),
            tr!(loc, "history.col_result"),
            tr!(loc, "profile.col_rated"),
            tr!(loc, "history.col_ended"),
        ]
        .iter()
        .enumerate()
        .map(|(i, h)| Cell::from(fit(h, width(i)))),
    )
    .style(theme.dim().add_modifier(Modifier::BOLD));
    let rows = profile.recent.iter().map(|g| {
        let (opponent, result, style) = from_side(g, &profile.name, app);
        let result = if g.over.reason == banco_protocol::EndReason::Aborted {
            result
        } else {
            let reason = narrate::record_reason(&g.over, &g.players, loc);
            format!("{result}: {reason}")
        };
        let result = fit(&result, width(3));
        let rated = if g.rated {
            tr!(loc, "profile.rated_yes")
        } else {
            tr!(loc, "profile.rated_no")
        };
        Row::new(vec![
            Cell::from(g.id.to_string()),
            Cell::from(
                loc.get(&format!("game_kind.{}", GameKind::of(&g.game).as_str()))
                    .to_string(),
            ),
            Cell::from(fit(&opponent, width(2))),
            Cell::from(Span::styled(result, style)),
            Cell::from(Span::styled(rated.to_string(), theme.dim())),
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
    let mut state = TableState::new().with_selected(Some(selected));
    frame.render_stateful_widget(table, area, &mut state);
}

/// The opponent of `name` in `g`, and how the game went for `name`, with its colour.
fn from_side(g: &GameSummary, name: &str, app: &App) -> (String, String, ratatui::style::Style) {
    let loc = &app.loc;
    let theme = &app.theme;
    let seat = g.players.iter().position(|p| p.eq_ignore_ascii_case(name));
    let Some(seat) = seat else {
        // Not among the players (a bot's record names it otherwise): both names.
        let headline = narrate::record_headline(Some(&g.over), &g.players, loc)
            .trim_end_matches('.')
            .to_string();
        return (
            format!(
                "{} – {}",
                narrate::shown_name(&g.players[0], loc),
                narrate::shown_name(&g.players[1], loc)
            ),
            headline,
            theme.style(),
        );
    };
    let opponent = narrate::shown_name(&g.players[1 - seat], loc);
    match g.over.winner {
        _ if g.over.reason == banco_protocol::EndReason::Aborted => (
            opponent,
            tr!(loc, "profile.aborted").to_string(),
            theme.dim(),
        ),
        None => (
            opponent,
            tr!(loc, "profile.drew").to_string(),
            theme.style(),
        ),
        Some(w) if w.index() == seat => {
            (opponent, tr!(loc, "profile.won").to_string(), theme.good())
        }
        Some(_) => (
            opponent,
            tr!(loc, "profile.lost").to_string(),
            theme.error(),
        ),
    }
}

/// The change-password screen: three fields of dots, the error in a sentence.
pub fn draw_password(frame: &mut Frame, area: Rect, app: &App, ps: &PasswordScreen) {
    let loc = &app.loc;
    let theme = &app.theme;
    let place = tr!(loc, "password.title");
    let body = frame_parts(frame, area, app, place, crate::app::keys::PASSWORD);
    let inner = super::dialog(frame, centered(body, 64, 13), theme, place);
    let label_w = ["password.old", "password.new", "password.again"]
        .iter()
        .map(|k| loc.get(k).width())
        .max()
        .unwrap_or(0);
    let field = |label: &str, len: usize, focused: bool| {
        let style = if focused {
            theme.selected()
        } else {
            theme.style()
        };
        // Dots, one per character typed: the password itself is never drawn.
        let dots = "•".repeat(len);
        let pad = (inner.width as usize).saturating_sub(label_w + 4 + dots.width());
        Line::from(vec![
            Span::styled(
                format!(" {label:>label_w$} "),
                if focused { theme.accent() } else { theme.dim() },
            ),
            Span::styled(format!(" {dots}{}", " ".repeat(pad)), style),
        ])
    };
    let mut lines = vec![
        Line::from(Span::styled(
            format!(
                " {}",
                tr!(
                    loc,
                    "password.intro",
                    name = app.session.welcome.as_ref().map_or("", |w| w.name.as_str()),
                    min = banco_protocol::MIN_PASSWORD_CHARS
                )
            ),
            theme.dim(),
        )),
        Line::default(),
        field(
            loc.get("password.old"),
            ps.old.len(),
            ps.focus == PasswordField::Old,
        ),
        Line::default(),
        field(
            loc.get("password.new"),
            ps.new.len(),
            ps.focus == PasswordField::New,
        ),
        Line::default(),
        field(
            loc.get("password.again"),
            ps.again.len(),
            ps.focus == PasswordField::Again,
        ),
        Line::default(),
    ];
    let status = if ps.waiting {
        Line::from(Span::styled(
            format!(" {}", tr!(loc, "password.waiting")),
            theme.dim(),
        ))
    } else if let Some(e) = &ps.error {
        Line::from(Span::styled(format!(" ! {e}"), theme.error()))
    } else {
        Line::default()
    };
    lines.push(status);
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
}

/// A seated player's profile over the room: who, a line per game, the chart.
pub fn draw_seat_profile(frame: &mut Frame, area: Rect, app: &App, sp: &SeatProfile) {
    let loc = &app.loc;
    let name = shown_name(&sp.who.name, sp.who.bot, loc);
    let width = area.width.min(96);
    let height = area.height.min(22);
    let inner = super::dialog(frame, centered(area, width, height), &app.theme, &name);
    let [body, keys] = Layout::vertical([Constraint::Min(3), Constraint::Length(1)]).areas(inner);
    let items = legend_items(app, crate::app::keys::SEAT_PROFILE);
    frame.render_widget(
        Paragraph::new(legend(&items, &app.theme, keys.width, 1)),
        keys,
    );
    let Some(profile) = &sp.profile else {
        let text = sp
            .refused
            .clone()
            .unwrap_or_else(|| tr!(loc, "records.loading").to_string());
        frame.render_widget(
            Paragraph::new(text)
                .style(app.theme.dim())
                .alignment(Alignment::Center)
                .wrap(Wrap { trim: true }),
            centered(body, body.width, 2),
        );
        return;
    };
    let [who, kinds, chart] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(4),
        Constraint::Min(5),
    ])
    .areas(body);
    draw_who(frame, who, app, profile, false);
    draw_kinds(frame, kinds, app, profile, sp.game);
    let record = profile.games.iter().find(|k| k.game == sp.game);
    draw_chart(frame, chart, app, sp.game, record);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(rating: i32) -> RatingPoint {
        RatingPoint {
            at_ms: 0,
            rating,
            deviation: 100,
        }
    }

    #[test]
    fn the_chart_frames_its_ratings_with_room_to_spare() {
        // Padded and rounded out to 25s, the line never touching the frame.
        assert_eq!(rating_bounds(&[at(1500), at(1724)]), (1475.0, 1750.0));
        assert_eq!(rating_bounds(&[at(1490)]), (1475.0, 1500.0));
        // A flat line still gets a band of its own.
        assert_eq!(rating_bounds(&[at(1510), at(1510)]), (1500.0, 1525.0));
        assert_eq!(rating_bounds(&[]), (1475.0, 1525.0));
    }
}
