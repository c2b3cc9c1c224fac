//! Drawing. Every function here reads the [`App`] and writes to a frame; none changes
//! the app.
//!
//! - [`connect`], [`lobby`], [`room`]: one module per screen; [`records`] draws the
//!   leaderboard and the history, [`replay`] a finished game step by step, [`profile`]
//!   someone's record with its rating chart (and the change-password screen).
//! - [`editor`]: arranging a position to start a room from.
//! - [`people`]: who is on the server and the challenges, with the challenge form.
//! - [`board`]: the per-game board widgets (caro today, xiangqi drops in beside it).
//! - [`popup`]: dialogs (offers, confirmations, game over, settings).
//! - [`help`]: the `?` overlay.

pub mod board;
pub mod connect;
pub mod editor;
pub mod help;
pub mod lobby;
pub mod people;
pub mod popup;
pub mod profile;
pub mod qr;
pub mod records;
pub mod replay;
pub mod review;
pub mod room;
pub mod tournaments;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear};
use unicode_width::UnicodeWidthStr;

use crate::app::keys::KeyHelp;
use crate::app::{App, Screen};
use crate::theme::Theme;
use crate::tr;

pub use crate::layout::wrap;

/// Draws the whole app.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    frame.render_widget(Block::new().style(app.theme.style()), area);
    match &app.screen {
        Screen::Connect(form) => connect::draw(frame, area, app, form),
        Screen::Lobby(lobby) => lobby::draw(frame, area, app, lobby),
        Screen::Room(rs) => room::draw(frame, area, app, rs),
        Screen::Leaderboard(b) => records::draw_leaderboard(frame, area, app, b),
        Screen::History(h) => records::draw_history(frame, area, app, h),
        Screen::Replay(r) => replay::draw(frame, area, app, r),
        Screen::Profile(p) => profile::draw(frame, area, app, p),
        Screen::Password(p) => profile::draw_password(frame, area, app, p),
        Screen::Editor(ed) => editor::draw(frame, area, app, ed),
        Screen::People(p) => people::draw(frame, area, app, p),
        Screen::Tournaments(t) => tournaments::draw(frame, area, app, t),
    }
    if let Some(p) = &app.popup {
        popup::draw(frame, area, app, p);
    }
    if app.help {
        help::draw(frame, area, app);
    }
}

/// A rectangle of at most `width` x `height` centred in `area`.
pub fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let w = width.min(area.width);
    let h = height.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// Clears `area` and draws a bordered dialog box there; returns the inside.
pub fn dialog(frame: &mut Frame, area: Rect, theme: &Theme, title: &str) -> Rect {
    frame.render_widget(Clear, area);
    let block = Block::bordered()
        .border_type(ratatui::widgets::BorderType::Rounded)
        .border_style(theme.accent())
        .title(Span::styled(format!(" {title} "), theme.accent()))
        .style(Style::new().bg(theme.colors.popup_bg).fg(theme.colors.text));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    inner
}

/// The top bar: `banco` and where we are on the left, who we are on the right.
pub fn title_bar(frame: &mut Frame, area: Rect, app: &App, place: &str) {
    let theme = &app.theme;
    let bar = Style::new()
        .bg(theme.colors.selected_bg)
        .fg(theme.colors.text);
    let left = vec![
        Span::styled(" banco ", theme.accent().bg(theme.colors.selected_bg)),
        Span::styled(format!(" {place}"), bar),
    ];
    let mut right = String::new();
    if let Some(w) = &app.session.welcome {
        right = tr!(app.loc, "title.who", name = w.name, server = w.server);
    }
    if let Some(h) = &app.hosting {
        right = format!(
            "{right} · {}",
            tr!(app.loc, "title.hosting", addr = h.listen)
        );
    }
    right.push(' ');
    let used: usize = left.iter().map(|s| s.content.width()).sum();
    // On a narrow terminal the place wins: who and where are in the lobby too.
    if used + right.width() > area.width as usize {
        right = room::truncate(&right, (area.width as usize).saturating_sub(used + 1));
    }
    let pad = (area.width as usize).saturating_sub(used + right.width());
    let mut spans = left;
    spans.push(Span::styled(" ".repeat(pad), bar));
    spans.push(Span::styled(right, bar.add_modifier(Modifier::DIM)));
    frame.render_widget(Line::from(spans).style(bar), area);
}

/// The width of each column of a [`ratatui::widgets::Table`] drawn `width` columns wide
/// (inside its borders) with a highlight symbol `selection` columns wide: the layout
/// the table itself makes, so each cell can be cut to fit with an ellipsis instead of
/// running into the next one.
pub fn column_widths(width: u16, selection: u16, columns: &[Constraint]) -> Vec<u16> {
    let area = Rect::new(0, 0, width.saturating_sub(selection), 1);
    Layout::horizontal(columns.iter().copied())
        .spacing(1)
        .split(area)
        .iter()
        .map(|r| r.width)
        .collect()
}

/// `text` cut to `width` columns with an ellipsis, as a table cell.
pub fn fit(text: &str, width: u16) -> String {
    room::truncate(text, usize::from(width))
}

/// The widest of `texts`, in columns.
pub fn widest<'a>(texts: impl IntoIterator<Item = &'a str>) -> u16 {
    texts
        .into_iter()
        .map(|t| t.width() as u16)
        .max()
        .unwrap_or(0)
}

/// Key legend items flowed into at most `rows` lines of `width`.
pub fn legend(
    items: &[(String, String)],
    theme: &Theme,
    width: u16,
    rows: usize,
) -> Vec<Line<'static>> {
    let mut lines: Vec<Vec<Span<'static>>> = vec![Vec::new()];
    let mut used = 0usize;
    for (keys, what) in items {
        let w = keys.width() + 1 + what.width() + 2;
        if used + w > width as usize && used > 0 {
            if lines.len() == rows {
                break;
            }
            lines.push(Vec::new());
            used = 0;
        }
        let line = lines
            .last_mut()
            .expect("lines starts non-empty and only grows");
        line.push(Span::styled(format!(" {keys}"), theme.key()));
        line.push(Span::styled(format!(" {what} "), theme.dim()));
        used += w;
    }
    lines.into_iter().map(Line::from).collect()
}

/// The legend entries for a key table, described in the user's language: the short
/// description (`keys.undo_short`) where there is one.
pub fn legend_items(app: &App, keys: &[KeyHelp]) -> Vec<(String, String)> {
    keys.iter()
        .map(|k| {
            let short = format!("{}_short", k.what);
            let text = match app.loc.get(&short) {
                s if s == short => app.loc.get(k.what),
                s => s,
            };
            (k.keys.to_string(), text.to_string())
        })
        .collect()
}

/// The notice line: the latest thing that happened, or an error, while it is fresh.
pub fn notice_line(app: &App) -> Line<'static> {
    match app.live_notice() {
        Some(n) if n.error => Line::from(Span::styled(format!(" ! {}", n.text), app.theme.error())),
        Some(n) => Line::from(Span::styled(format!(" {}", n.text), app.theme.style())),
        None => Line::default(),
    }
}

/// The line that stays while something is wrong between us and the server: the
/// connection lost and being dialled again (and why), else the server not saving games.
/// `None` while all is well (then the lobby and the room give it no space).
pub fn banner(app: &App) -> Option<Line<'static>> {
    let text = app.trouble()?;
    Some(Line::from(Span::styled(
        format!(" ! {text}"),
        app.theme.error().add_modifier(Modifier::BOLD),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_columns_are_measured_as_the_table_lays_them_out() {
        let columns = [
            Constraint::Length(4),
            Constraint::Fill(1),
            Constraint::Length(6),
        ];
        // 30 wide, 2 for the highlight symbol, 1 between columns.
        assert_eq!(column_widths(30, 2, &columns), [4, 16, 6]);
        assert_eq!(fit("cờ tướng, thế cờ bày sẵn", 10), "cờ tướng,…");
        assert_eq!(fit("xiangqi", 10), "xiangqi");
        assert_eq!(widest(["no clock", "10m+5s"]), 8);
    }
}
