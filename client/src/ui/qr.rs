//! The browser address's QR code ([`crate::layout::qr`]) drawn dark on light, whatever
//! the terminal's own colours, so a phone's camera opens the game from the host's lobby.

use ratatui::style::{Color, Style};
use ratatui::text::Line;

/// The lines to draw: black on white, as scanners expect.
pub fn styled(lines: &[String]) -> Vec<Line<'static>> {
    let style = Style::new().fg(Color::Black).bg(Color::White);
    lines
        .iter()
        .map(|l| Line::styled(l.clone(), style))
        .collect()
}
