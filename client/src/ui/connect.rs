//! The connect screen: server address and player name.

use ratatui::Frame;
use ratatui::layout::{Alignment, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use unicode_width::UnicodeWidthStr;

use super::{centered, dialog, legend, legend_items, wrap};
use crate::app::input::TextInput;
use crate::app::{App, ConnectField, ConnectForm};
use crate::tr;

/// Servers listed at once; more scroll.
const LIST_ROWS: usize = 5;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, form: &ConnectForm) {
    let loc = &app.loc;
    let theme = &app.theme;
    let width = 70u16.min(area.width);
    // The inside of the dialog, before its height is known (from the lines).
    let inner_w = width.saturating_sub(2);
    let mut lines = vec![
        Line::from(Span::styled(
            tr!(loc, "connect.tagline").to_string(),
            theme.dim(),
        ))
        .alignment(Alignment::Center),
        Line::default(),
    ];
    let label_w = 10usize;
    let field_line = |label: &str, input: &TextInput, focused: bool, placeholder: &str| {
        let mut style = if focused {
            theme.selected()
        } else {
            theme.style()
        };
        let shown = if input.is_empty() && !placeholder.is_empty() {
            style = style.patch(theme.dim());
            format!(" {placeholder} ")
        } else {
            format!(" {} ", input.text())
        };
        let pad = (inner_w as usize).saturating_sub(label_w + 3 + shown.width());
        Line::from(vec![
            Span::styled(
                format!(" {label:>label_w$} "),
                if focused { theme.accent() } else { theme.dim() },
            ),
            Span::styled(format!("{shown}{}", " ".repeat(pad)), style),
        ])
    };
    lines.push(field_line(
        tr!(loc, "connect.address"),
        &form.address,
        form.focus == ConnectField::Address,
        tr!(loc, "connect.address_example"),
    ));
    lines.push(Line::default());
    lines.push(field_line(
        tr!(loc, "connect.name"),
        &form.name,
        form.focus == ConnectField::Name,
        "",
    ));
    lines.push(Line::default());
    // Dots, one per character typed: the password itself is never drawn.
    let dots = TextInput::with_text(
        banco_protocol::MAX_PASSWORD_CHARS,
        &"•".repeat(form.password.text().chars().count()),
    );
    lines.push(field_line(
        tr!(loc, "connect.password"),
        &dots,
        form.focus == ConnectField::Password,
        tr!(loc, "connect.password_hint"),
    ));
    let register = if form.register {
        tr!(loc, "connect.register_on")
    } else {
        tr!(loc, "connect.register_off")
    };
    lines.push(Line::from(Span::styled(
        format!(" {:>label_w$} {register}", ""),
        if form.register {
            theme.accent()
        } else {
            theme.dim()
        },
    )));
    if form.connecting {
        lines.push(Line::from(Span::styled(
            format!(
                " {}",
                tr!(loc, "connect.connecting", addr = form.address.text())
            ),
            theme.accent(),
        )));
    } else {
        lines.push(Line::from(Span::styled(
            format!(" {}", tr!(loc, "connect.default_port")),
            theme.dim(),
        )));
    }
    if let Some(e) = &form.error {
        for l in wrap(e, inner_w.saturating_sub(2) as usize) {
            lines.push(Line::from(Span::styled(format!(" {l}"), theme.error())));
        }
    } else if let Some(n) = app.live_notice() {
        // What brought the reader here (logged out; register this name), while fresh.
        let style = if n.error {
            theme.error()
        } else {
            theme.accent()
        };
        for l in wrap(&n.text, inner_w.saturating_sub(2) as usize) {
            lines.push(Line::from(Span::styled(format!(" {l}"), style)));
        }
    }
    lines.push(Line::default());
    lines.extend(server_lines(app, form, inner_w as usize));
    lines.push(Line::default());
    let items = legend_items(app, crate::app::keys::CONNECT);
    lines.extend(legend(&items, theme, inner_w, 2));
    let inner = dialog(
        frame,
        centered(area, width, lines.len() as u16 + 2),
        theme,
        tr!(loc, "connect.title"),
    );
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
    let row = match form.focus {
        ConnectField::Address => Some((&form.address, 2)),
        ConnectField::Name => Some((&form.name, 4)),
        ConnectField::Password => Some((&dots, 6)),
        ConnectField::Servers => None,
    };
    if let (false, Some((input, row))) = (form.connecting, row) {
        let before: String = input.text().chars().take(input.cursor()).collect();
        let x = inner.x + (label_w + 3 + before.width()) as u16;
        frame.set_cursor_position(Position::new(
            x.min(inner.right().saturating_sub(1)),
            inner.y + row,
        ));
    }
}

/// The servers found on the network: a heading, then one line each (name, address,
/// rooms and players, or that it runs another version), the highlighted one marked.
fn server_lines(app: &App, form: &ConnectForm, width: usize) -> Vec<Line<'static>> {
    let loc = &app.loc;
    let theme = &app.theme;
    let focused = form.focus == ConnectField::Servers;
    let heading = if form.servers.is_empty() {
        String::new()
    } else {
        tr!(loc, "connect.found", count = form.servers.len())
    };
    let mut lines = vec![Line::from(Span::styled(
        format!(" {heading}"),
        if focused { theme.accent() } else { theme.dim() },
    ))];
    if form.servers.is_empty() {
        let text = if app.scan.done_once {
            tr!(loc, "connect.none_found")
        } else {
            tr!(loc, "connect.searching")
        };
        return wrap(text, width.saturating_sub(2))
            .into_iter()
            .map(|l| Line::from(Span::styled(format!(" {l}"), theme.dim())))
            .collect();
    }
    let first = (form.selected + 1).saturating_sub(LIST_ROWS);
    let name_w = form
        .servers
        .iter()
        .map(|f| f.name.width())
        .max()
        .unwrap_or(0)
        .min(20);
    let addr_w = form
        .servers
        .iter()
        .map(|f| f.address_text().width())
        .max()
        .unwrap_or(0);
    for (i, f) in form.servers.iter().enumerate().skip(first).take(LIST_ROWS) {
        let here = focused && i == form.selected;
        let marker = if here { "▶" } else { " " };
        let name = super::room::truncate(&f.name, name_w);
        let what = if f.compatible() {
            tr!(
                loc,
                "connect.server_load",
                rooms = f.rooms,
                players = f.players
            )
        } else {
            tr!(loc, "connect.server_other_version", version = f.version)
        };
        // The key matters only where one can join.
        let key = crate::discover::key_text(f, loc)
            .filter(|_| f.compatible())
            .map(|k| format!(" · {k}"))
            .unwrap_or_default();
        let text = format!(
            "{marker} {name:<name_w$}  {:<addr_w$}  {what}{key}",
            f.address_text()
        );
        let text = super::room::truncate(&text, width.saturating_sub(2));
        let style = if here {
            theme.selected()
        } else if f.compatible() {
            theme.style()
        } else {
            theme.dim()
        };
        lines.push(Line::from(Span::styled(format!(" {text}"), style)));
    }
    lines
}
