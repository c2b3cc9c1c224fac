//! The Tournaments screen: the list; one tournament opened with its current round's
//! pairings, its standings with the tie-breaks, or its crosstable (Tab); the create
//! form over it (its first page here, the games' settings the create-room form's).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Paragraph};

use super::{banner, legend, legend_items, notice_line, title_bar};
use crate::app::App;
use crate::app::keys;
use crate::app::tournaments::{Pane, TournamentsScreen, TourneyField, TourneyForm};
use crate::layout::tournaments::TournamentsLayout;
use crate::locale::Locale;
use crate::tr;
use banco_protocol::{TournamentStatus, TournamentSummary, TournamentView};

/// A value in hundredths as a short decimal (`2.5`).
fn hundredths(v: i64) -> String {
    let sign = if v < 0 { "-" } else { "" };
    let v = v.abs();
    match (v % 100, v % 10) {
        (0, _) => format!("{sign}{}", v / 100),
        (_, 0) => format!("{sign}{}.{}", v / 100, (v % 100) / 10),
        _ => format!("{sign}{}.{:02}", v / 100, v % 100),
    }
}

fn status_text(status: TournamentStatus, loc: &Locale) -> &str {
    loc.get(match status {
        TournamentStatus::Entries => "tournament.status_entries",
        TournamentStatus::Running => "tournament.status_running",
        TournamentStatus::Paused => "tournament.status_paused",
        TournamentStatus::Over => "tournament.status_over",
    })
}

/// A line of the list.
fn list_line(t: &TournamentSummary, loc: &Locale) -> String {
    let rounds = if t.rounds > 0 {
        format!(" {}/{}", t.round, t.rounds)
    } else {
        String::new()
    };
    let game = format!(
        "{} {}",
        t.game.as_str(),
        crate::narrate::time_text(&t.time, loc)
    );
    format!(
        "#{:<3} {:<15} {:<16} {:<13} {}{}  {} ({})",
        t.id,
        t.name,
        crate::narrate::tournament_format(&t.format, loc),
        game,
        status_text(t.status, loc),
        rounds,
        t.entrants,
        t.organiser
    )
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App, ts: &TournamentsScreen) {
    let loc = &app.loc;
    let theme = &app.theme;
    let l = TournamentsLayout::new(area, app.trouble().is_some(), ts.open.is_some());
    title_bar(frame, l.title, app, tr!(loc, "tournament.title"));
    if let Some(line) = banner(app) {
        frame.render_widget(line, l.banner);
    }
    let (title, lines, selected, legend_keys) = match &ts.open {
        None => {
            let mut lines: Vec<Line> = Vec::new();
            for (i, t) in ts.list.iter().enumerate() {
                let (mark, style) = if i == ts.selected && ts.form.is_none() {
                    ("▶ ", theme.selected())
                } else {
                    ("  ", theme.style())
                };
                lines.push(Line::from(Span::styled(
                    format!("{mark}{}", list_line(t, loc)),
                    style,
                )));
            }
            if lines.is_empty() {
                lines.push(Line::from(Span::styled(
                    format!("  {}", tr!(loc, "tournament.none")),
                    theme.dim(),
                )));
            }
            (
                tr!(loc, "tournament.title").to_string(),
                lines,
                ts.selected,
                keys::TOURNAMENTS,
            )
        }
        Some(v) => {
            let me = app.session.name().unwrap_or_default();
            draw_head(frame, l.head, app, ts, v, &me);
            let (title, lines) = match ts.pane {
                Pane::Pairings => pairings(app, ts, v, &me),
                Pane::Standings => standings(app, ts, v),
                Pane::Crosstable => crosstable(app, v),
            };
            let selected = match ts.pane {
                Pane::Pairings | Pane::Standings => ts.selected + 1,
                Pane::Crosstable => 0,
            };
            (title, lines, selected, keys::TOURNAMENT)
        }
    };
    let first = l.first_shown(selected);
    let shown: Vec<Line> = lines.into_iter().skip(first).collect();
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(theme.border())
        .title(Span::styled(format!(" {title} "), theme.accent()));
    frame.render_widget(Paragraph::new(shown).block(block), l.body);
    match &ts.bot_account {
        // The bot account's name being typed takes the notice line.
        Some(field) => {
            let line = Line::from(vec![
                Span::styled(tr!(loc, "tournament.bot_account_prompt"), theme.accent()),
                Span::styled(format!(" {}▏", field.text()), theme.style()),
            ]);
            frame.render_widget(Paragraph::new(line), l.notice);
        }
        None => frame.render_widget(notice_line(app), l.notice),
    }
    let legend_keys = match &ts.form {
        Some(form) => keys::tournament_form_keys(form),
        None => legend_keys,
    };
    let items = legend_items(app, legend_keys);
    frame.render_widget(
        Paragraph::new(legend(&items, theme, l.keys.width, 2)),
        l.keys,
    );
    if let Some(form) = &ts.form {
        match &form.games {
            Some(games) => super::lobby::draw_create(frame, area, app, games),
            None => draw_form(frame, area, app, form),
        }
    }
}

/// The opened tournament's two head lines: what it is, and where you stand.
fn draw_head(
    frame: &mut Frame,
    area: Rect,
    app: &App,
    ts: &TournamentsScreen,
    v: &TournamentView,
    me: &str,
) {
    let loc = &app.loc;
    let theme = &app.theme;
    let s = &v.summary;
    let mut first = format!(
        " #{} {} · {} · {} · {}",
        s.id,
        s.name,
        crate::narrate::tournament_format(&s.format, loc),
        s.game.as_str(),
        status_text(s.status, loc)
    );
    // Before the first round is paired there is no round to name (the format says how
    // many there will be).
    if s.rounds > 0 && s.round > 0 {
        first.push_str(&format!(
            " · {}",
            tr!(
                loc,
                "tournament.round_of",
                round = s.round,
                rounds = s.rounds
            )
        ));
    }
    // Both countdowns run from when the view came, as the clocks of a room do.
    let gone = ts.opened_at.map_or(0, |at| {
        app.now.saturating_duration_since(at).as_millis() as u64
    });
    let left = |ms: u64| {
        let ms = ms.saturating_sub(gone);
        format!("{}:{:02}", ms / 60_000, (ms / 1000) % 60)
    };
    if let Some(ms) = v.ends_in_ms {
        first.push_str(&format!(" · {}", left(ms)));
    } else if let Some(ms) = v.starts_in_ms {
        first.push_str(&format!(
            " · {}",
            tr!(loc, "tournament.starts_in", time = left(ms))
        ));
    }
    let mine = v
        .boards
        .iter()
        .rev()
        .find(|b| b.result.is_none() && [b.white, b.black].iter().any(|n| v.name_of(*n) == me));
    let second = match mine {
        Some(b) => {
            let opponent = if v.name_of(b.white) == me {
                b.black
            } else {
                b.white
            };
            tr!(
                loc,
                "tournament.my_board",
                board = b.board,
                opponent = v.name_of(opponent),
                room = b.room.map_or_else(|| "-".to_string(), |r| r.to_string())
            )
        }
        None if v.entrants.iter().any(|e| e.name == me && !e.withdrawn) => {
            tr!(loc, "tournament.entered").to_string()
        }
        None => tr!(
            loc,
            "tournament.organised_by",
            organiser = s.organiser,
            entrants = s.entrants
        ),
    };
    // Before entering, what a late first move and a bye cost.
    let second = if mine.is_none() {
        format!(
            "{second} {}.",
            crate::narrate::tournament_terms(&v.settings, loc)
        )
    } else {
        second.to_string()
    };
    frame.render_widget(
        Paragraph::new(vec![
            Line::from(Span::styled(
                first,
                theme.accent().add_modifier(Modifier::BOLD),
            )),
            Line::from(Span::styled(format!(" {second}"), theme.style())),
        ]),
        area,
    );
}

fn pairings<'a>(
    app: &App,
    ts: &TournamentsScreen,
    v: &TournamentView,
    me: &str,
) -> (String, Vec<Line<'a>>) {
    let loc = &app.loc;
    let theme = &app.theme;
    let title = if v.summary.round == 0 {
        tr!(loc, "tournament.entrants").to_string()
    } else {
        tr!(loc, "tournament.round", round = v.summary.round)
            .trim_end_matches(':')
            .to_string()
    };
    let mut lines = Vec::new();
    if v.summary.round == 0 {
        for e in &v.entrants {
            let style = if e.withdrawn {
                theme.dim()
            } else {
                theme.style()
            };
            let mut spans = vec![Span::styled(
                format!("  {:>3}. {} {}", e.number, e.name, e.rating),
                style,
            )];
            if e.away && !e.withdrawn {
                spans.push(Span::styled(
                    format!("  {}", loc.get("tournament.away")),
                    theme.dim(),
                ));
            }
            lines.push(Line::from(spans));
        }
        bye_requests(app, v, &mut lines);
        return (title, lines);
    }
    lines.push(Line::default());
    for (i, b) in ts.current_boards().iter().enumerate() {
        let result = match (b.result, b.room) {
            (Some(r), _) if b.by_hand => {
                format!("{} ({})", r.text(), tr!(loc, "tournament.by_hand"))
            }
            (Some(r), _) => r.text().to_string(),
            (None, Some(room)) => tr!(loc, "tournament.playing_in", room = room).to_string(),
            (None, None) => tr!(loc, "tournament.playing").to_string(),
        };
        let mine = [b.white, b.black].iter().any(|n| v.name_of(*n) == me);
        let (mark, style) = if i == ts.selected && ts.form.is_none() {
            ("▶", theme.selected())
        } else if mine {
            (" ", theme.accent())
        } else {
            (" ", theme.style())
        };
        lines.push(Line::from(Span::styled(
            format!(
                "{mark}{:>3}. {:<24} {:<24} {result}",
                b.board,
                v.name_of(b.white),
                v.name_of(b.black)
            ),
            style,
        )));
    }
    for y in v.byes.iter().filter(|y| y.round == v.summary.round) {
        lines.push(Line::from(Span::styled(
            format!(
                "      {}: {} ({})",
                tr!(loc, "tournament.bye"),
                v.name_of(y.entrant),
                hundredths(i64::from(y.points) * 10)
            ),
            theme.dim(),
        )));
    }
    bye_requests(app, v, &mut lines);
    (title, lines)
}

/// The byes asked for rounds not yet paired, dim under the pairings.
fn bye_requests(app: &App, v: &TournamentView, lines: &mut Vec<Line<'_>>) {
    for r in &v.bye_requests {
        lines.push(Line::from(Span::styled(
            format!(
                "      {}",
                tr!(
                    app.loc,
                    "tournament.bye_asked",
                    round = r.round,
                    name = v.name_of(r.entrant)
                )
            ),
            app.theme.dim(),
        )));
    }
}

fn standings<'a>(app: &App, ts: &TournamentsScreen, v: &TournamentView) -> (String, Vec<Line<'a>>) {
    let loc = &app.loc;
    let theme = &app.theme;
    let mut head = format!(
        "  {:>3}  {:<24} {:>5}",
        "#",
        "",
        loc.get("tournament.points")
    );
    for t in &v.tie_breaks {
        head.push_str(&format!(" {:>6}", t.code()));
    }
    let mut lines = vec![Line::from(Span::styled(head, theme.dim()))];
    for (i, s) in v.standings.iter().enumerate() {
        let chosen = i == ts.selected && ts.form.is_none();
        let withdrawn = v.entrant(s.entrant).is_some_and(|e| e.withdrawn);
        let away = v.entrant(s.entrant).is_some_and(|e| e.away) && !withdrawn;
        let mut text = format!(
            "{}{:>3}. {:<24} {:>5}",
            if chosen { "▶ " } else { "  " },
            s.rank,
            v.name_of(s.entrant),
            hundredths(i64::from(s.points) * 10)
        );
        for x in &s.tie_breaks {
            text.push_str(&format!(" {:>6}", hundredths(*x)));
        }
        if s.on_fire {
            text.push_str(" 🔥");
        }
        let style = if chosen {
            theme.selected()
        } else if withdrawn {
            theme.dim()
        } else {
            theme.style()
        };
        let mut spans = vec![Span::styled(text, style)];
        if away {
            spans.push(Span::styled(
                format!("  {}", loc.get("tournament.away")),
                theme.dim(),
            ));
        }
        lines.push(Line::from(spans));
    }
    (tr!(loc, "tournament.standings").to_string(), lines)
}

fn crosstable<'a>(app: &App, v: &TournamentView) -> (String, Vec<Line<'a>>) {
    let loc = &app.loc;
    let theme = &app.theme;
    let mut head = format!("  {:>3}  {:<18}", "#", "");
    for r in 1..=v.summary.round {
        head.push_str(&format!(" {:>6}", format!("R{r}")));
    }
    let mut lines = vec![Line::from(Span::styled(head, theme.dim()))];
    for row in &v.crosstable {
        let mut text = format!("  {:>3}. {:<18}", row.entrant, v.name_of(row.entrant));
        for c in &row.cells {
            let score = match c.points {
                Some(p) if p >= 10 => "+",
                Some(p) if p > 0 => "=",
                Some(_) => "-",
                None => "?",
            };
            let cell = match (c.opponent, c.white) {
                (Some(o), Some(w)) => format!("{score}{o}{}", if w { "w" } else { "b" }),
                _ => format!("{score}bye"),
            };
            text.push_str(&format!(" {cell:>6}"));
        }
        lines.push(Line::from(Span::styled(text, theme.style())));
    }
    (tr!(loc, "tournament.crosstable").to_string(), lines)
}

/// The form's first page: name, format, length, berserk or the bye, the start.
fn draw_form(frame: &mut Frame, area: Rect, app: &App, form: &TourneyForm) {
    let loc = &app.loc;
    let theme = &app.theme;
    let inner = super::dialog(
        frame,
        super::centered(area, 60, form.fields().len() as u16 + 6),
        theme,
        tr!(loc, "tournament.create_title"),
    );
    let format = loc.get(match form.format {
        0 => "tournament.swiss",
        1 => "tournament.round_robin",
        _ => "tournament.arena",
    });
    let length = match form.format {
        0 => tr!(loc, "tournament.rounds", n = form.length[0]).to_string(),
        1 if form.length[1] >= 2 => tr!(loc, "tournament.double").to_string(),
        1 => tr!(loc, "tournament.single").to_string(),
        _ => tr!(loc, "tournament.minutes", n = form.length[2]).to_string(),
    };
    let worth = |w: banco_protocol::ByeValue| {
        loc.get(match w {
            banco_protocol::ByeValue::Win => "tournament.bye_win",
            banco_protocol::ByeValue::Draw => "tournament.bye_draw",
            banco_protocol::ByeValue::Nothing => "tournament.bye_nothing",
        })
        .to_string()
    };
    let rows: Vec<(TourneyField, &str, String)> = form
        .fields()
        .into_iter()
        .map(|field| {
            let (label, value) = match field {
                TourneyField::Name => (loc.get("tournament.name"), form.name.text().to_string()),
                TourneyField::Format => (loc.get("tournament.format"), format.to_string()),
                TourneyField::Length => (loc.get("tournament.length"), length.clone()),
                TourneyField::Extra if form.format == 2 => (
                    loc.get("tournament.berserk_field"),
                    loc.get(if form.berserk {
                        "create.on"
                    } else {
                        "create.off"
                    })
                    .to_string(),
                ),
                TourneyField::Extra => (loc.get("tournament.bye_field"), worth(form.bye)),
                TourneyField::RequestedBye => (
                    loc.get("tournament.requested_bye_field"),
                    worth(form.requested_bye),
                ),
                TourneyField::Forfeit => (
                    loc.get("tournament.forfeit_field"),
                    match form.forfeit_secs() {
                        s if s % 60 == 0 => tr!(loc, "tournament.minutes", n = s / 60).to_string(),
                        s => tr!(loc, "tournament.seconds", n = s).to_string(),
                    },
                ),
                TourneyField::TieBreaks => (
                    loc.get("tournament.tiebreaks_field"),
                    form.tie_breaks.text().to_string(),
                ),
                TourneyField::Start => (
                    loc.get("tournament.start_field"),
                    match form.start_minutes() {
                        0 => loc.get("tournament.start_manual").to_string(),
                        n => tr!(loc, "tournament.start_in", n = n).to_string(),
                    },
                ),
            };
            (field, label, value)
        })
        .collect();
    let width = rows
        .iter()
        .map(|(_, label, _)| label.chars().count())
        .max()
        .unwrap_or(0);
    let mut lines = vec![Line::default()];
    for (field, label, value) in rows {
        let style = if field == form.focus {
            theme.selected()
        } else {
            theme.style()
        };
        lines.push(Line::from(vec![
            Span::styled(format!(" {label:<width$}"), theme.dim()),
            Span::styled(format!(" {value} "), style),
        ]));
    }
    lines.push(Line::default());
    if form.focus == TourneyField::TieBreaks {
        let codes: Vec<&str> = banco_protocol::TieBreak::ALL
            .iter()
            .map(|t| t.code())
            .collect();
        lines.push(Line::from(Span::styled(
            format!(
                " {}",
                tr!(loc, "tournament.tiebreaks_hint", codes = codes.join(" "))
            ),
            theme.dim(),
        )));
    }
    lines.push(Line::from(Span::styled(
        format!(" {}", tr!(loc, "tournament.form_next")),
        theme.dim(),
    )));
    frame.render_widget(Paragraph::new(lines), inner);
}
