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

pub fn draw(frame: &mut Frame, area: Rect, app: &App, form: &ConnectForm) {
    let loc = &app.loc;
    let theme = &app.theme;
    let width = 70u16.min(area.width);
    let error_lines = form.error.as_ref().map_or(0, |e| {
        wrap(e, width.saturating_sub(4) as usize).len() as u16
    });
    let height = 12 + error_lines;
    let inner = dialog(
        frame,
        centered(area, width, height),
        theme,
        tr!(loc, "connect.title"),
    );
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
        let pad = (inner.width as usize).saturating_sub(label_w + 3 + shown.width());
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
        for l in wrap(e, inner.width.saturating_sub(2) as usize) {
            lines.push(Line::from(Span::styled(format!(" {l}"), theme.error())));
        }
    }
    lines.push(Line::default());
    let items = legend_items(app, crate::app::keys::CONNECT);
    lines.extend(legend(&items, theme, inner.width, 1));
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
    if !form.connecting {
        let (input, row) = match form.focus {
            ConnectField::Address => (&form.address, 2),
            ConnectField::Name => (&form.name, 4),
        };
        let before: String = input.text().chars().take(input.cursor()).collect();
        let x = inner.x + (label_w + 3 + before.width()) as u16;
        frame.set_cursor_position(Position::new(
            x.min(inner.right().saturating_sub(1)),
            inner.y + row,
        ));
    }
}
