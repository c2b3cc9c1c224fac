//! The review under a replay: while the server analyses, a progress bar ("analysing
//! 34 / 80"); then the graph of the first mover's chances over the game (ratatui's
//! Chart), the ply shown marked by a vertical line, and beside it each player's errors.

use banco_protocol::{GameReview, Move};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Block, BorderType, Chart, Dataset, Gauge, GraphType, Paragraph};

use crate::app::App;
use crate::app::records::ReplayScreen;
use crate::app::review::ReviewView;
use crate::tr;

/// The engine's choice in the position before the move shown, when that move was not it.
pub fn better_move(rs: &ReplayScreen) -> Option<Move> {
    let review = rs.review.as_ref()?.done()?;
    let ply = review.plies.get(rs.replay.at().checked_sub(1)?)?;
    ply.best.filter(|b| *b != ply.played)
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App, rs: &ReplayScreen, view: &ReviewView) {
    let theme = &app.theme;
    let loc = &app.loc;
    match view {
        ReviewView::Asked => frame.render_widget(
            Paragraph::new(format!(" {}", tr!(loc, "review.asked"))).style(theme.dim()),
            area,
        ),
        ReviewView::Running { done, total } => {
            let ratio = if *total == 0 {
                0.0
            } else {
                f64::from(*done) / f64::from(*total)
            };
            let label = tr!(loc, "review.progress", done = done, total = total).to_string();
            frame.render_widget(
                Gauge::default()
                    .ratio(ratio.clamp(0.0, 1.0))
                    .label(label)
                    .gauge_style(theme.accent())
                    .use_unicode(true),
                area,
            );
        }
        ReviewView::Done(review) => draw_done(frame, area, app, rs, review),
    }
}

fn draw_done(frame: &mut Frame, area: Rect, app: &App, rs: &ReplayScreen, review: &GameReview) {
    let theme = &app.theme;
    let loc = &app.loc;
    let r = &rs.replay;
    let side_w = 34.min(area.width / 2);
    let [chart_area, side] =
        Layout::horizontal([Constraint::Min(20), Constraint::Length(side_w)]).areas(area);
    let chances: Vec<(f64, f64)> = (0..=review.plies.len())
        .map(|i| (i as f64, f64::from(review.chances_after(i)) / 10.0))
        .collect();
    let at = r.at() as f64;
    let marker = [(at, 0.0), (at, 100.0)];
    let n = review.plies.len().max(1) as f64;
    let even = [(0.0, 50.0), (n, 50.0)];
    let first = crate::narrate::shown_name(&r.players[review.first.index()], &app.loc);
    let chart = Chart::new(vec![
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.dim())
            .data(&even),
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.stone(true))
            .data(&chances),
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.accent())
            .data(&marker),
    ])
    .block(
        Block::bordered()
            .border_type(BorderType::Rounded)
            .border_style(theme.border())
            .title(Span::styled(
                format!(" {} ", tr!(loc, "review.chart", name = first)),
                theme.accent(),
            )),
    )
    .x_axis(
        Axis::default()
            .bounds([0.0, n])
            .style(theme.dim())
            .labels(vec![
                Span::raw("0"),
                Span::raw(format!("{}", review.plies.len())),
            ]),
    )
    .y_axis(
        Axis::default()
            .bounds([0.0, 100.0])
            .style(theme.dim())
            .labels(vec![Span::raw("0%"), Span::raw("50%"), Span::raw("100%")]),
    );
    frame.render_widget(chart, chart_area);

    let mut lines = Vec::new();
    for seat in [review.first, review.first.other()] {
        let p = &review.players[seat.index()];
        let mut stats = format!(
            " ?! {} ? {} ?? {} ~{}",
            p.inaccuracies, p.mistakes, p.blunders, p.average_loss
        );
        if p.missed_wins + p.missed_defences > 0 {
            stats.push_str(&format!(" ?w {} ?d {}", p.missed_wins, p.missed_defences));
        }
        let name_room = usize::from(inner_width(side)).saturating_sub(stats.chars().count());
        lines.push(Line::from(vec![
            Span::styled(
                crate::ui::room::truncate(
                    &crate::narrate::shown_name(&r.players[seat.index()], &app.loc),
                    name_room.max(3),
                ),
                theme.stone(seat == review.first),
            ),
            Span::styled(stats, theme.style()),
        ]));
    }
    // The move shown: its class and the engine's view of it.
    if let Some(ply) = r.at().checked_sub(1).and_then(|i| review.plies.get(i)) {
        let key = crate::app::review::class_key(ply);
        let class = tr!(loc, &key).to_string();
        let style = if ply.class.is_error() {
            theme.error()
        } else {
            theme.good()
        };
        lines.push(Line::from(Span::styled(
            format!("{}. {class} (−{}%)", r.at(), ply.loss / 10),
            style,
        )));
        if let Some(best) = ply.best.filter(|b| *b != ply.played) {
            let line: Vec<String> = ply.line.iter().take(5).map(|m| r.move_text(m)).collect();
            lines.push(Line::from(Span::styled(
                tr!(loc, "review.better", point = r.move_text(&best)).to_string(),
                theme.accent(),
            )));
            if line.len() > 1 {
                lines.push(Line::from(Span::styled(
                    tr!(loc, "review.line", line = line.join(" ")).to_string(),
                    theme.dim(),
                )));
            }
        }
        if let Some(reply) = ply.reply.filter(|_| ply.class.is_error()) {
            lines.push(Line::from(Span::styled(
                tr!(loc, "review.answer", point = r.move_text(&reply)).to_string(),
                theme.dim(),
            )));
        }
    }
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(theme.border())
        .title(Span::styled(
            format!(" {} ", tr!(loc, "review.title")),
            theme.accent(),
        ));
    let inner = block.inner(side);
    frame.render_widget(block, side);
    frame.render_widget(Paragraph::new(lines), inner);
}

/// Columns inside a bordered panel.
fn inner_width(area: Rect) -> u16 {
    area.width.saturating_sub(2)
}
