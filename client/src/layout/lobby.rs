//! The lobby's regions: the room table (with the browser address's QR code beside it
//! when there is room), the host's hint under it, and what a click on the table hits.

use ratatui::layout::{Constraint, Layout, Margin, Position, Rect};

/// What shapes the lobby besides the terminal's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LobbyChrome<'a> {
    /// A banner line shows (the connection or the server's store in trouble).
    pub banner: bool,
    /// This machine hosts: three lines say where others join.
    pub hosting: bool,
    /// The sentence naming the browser addresses, when hosting with the page on; it
    /// takes as many more lines as it wraps to.
    pub web_hint: Option<&'a str>,
    /// The sentence giving the server's key fingerprint (or saying nothing is
    /// encrypted), hosting or not; as many lines as it wraps to.
    pub key_hint: Option<&'a str>,
    /// The QR code's size in cells, when there is one.
    pub qr: Option<(u16, u16)>,
    /// The sentence with our open challenge's link, when this machine hosts and we
    /// have one out; as many lines as it wraps to.
    pub challenge_link: Option<&'a str>,
}

/// Where the lobby's parts go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LobbyLayout {
    /// The title bar.
    pub title: Rect,
    /// The connection or the server's store in trouble: one line, while it lasts.
    pub banner: Rect,
    /// The room table, with its border.
    pub table: Rect,
    /// The browser address's QR code, when there is one and room for it.
    pub qr: Option<Rect>,
    /// Where others join this machine (empty unless hosting).
    pub hint: Rect,
    /// The latest event.
    pub notice: Rect,
    /// The key legend, two lines.
    pub keys: Rect,
}

impl LobbyLayout {
    /// The lobby's parts; the host's hint takes three lines when this machine hosts
    /// (more with the browser address), the banner one while there is one, and the
    /// address's QR code sits beside the rooms when the terminal has room for it.
    pub fn new(area: Rect, chrome: &LobbyChrome) -> LobbyLayout {
        let lines =
            |text: &str| super::wrap(text, area.width.saturating_sub(2) as usize).len() as u16;
        let web = chrome.web_hint.map_or(0, lines);
        let key = chrome.key_hint.map_or(0, lines);
        let link = chrome.challenge_link.map_or(0, lines);
        let hint_lines = if chrome.hosting { 3 + web } else { 0 } + key + link;
        let [title, banner, table, hint, notice, keys] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(u16::from(chrome.banner)),
            Constraint::Min(3),
            Constraint::Length(hint_lines),
            Constraint::Length(1),
            Constraint::Length(2),
        ])
        .areas(area);
        let (table, qr) = match chrome.qr {
            Some((w, h)) if table.height >= h + 2 && table.width >= w + 2 + 60 => {
                let [table, qr] =
                    Layout::horizontal([Constraint::Min(60), Constraint::Length(w + 2)])
                        .areas(table);
                (table, Some(qr))
            }
            _ => (table, None),
        };
        LobbyLayout {
            title,
            banner,
            table,
            qr,
            hint,
            notice,
            keys,
        }
    }

    /// The index into the room list (`count` rooms, `selected` highlighted) of the row
    /// under a click, if it falls on one.
    pub fn row_at(&self, selected: usize, count: usize, col: u16, row: u16) -> Option<usize> {
        let inner = self.table.inner(Margin::new(1, 1));
        if !inner.contains(Position::new(col, row)) || row < inner.y + 1 {
            return None;
        }
        // One header row, then the rooms; the table scrolls just far enough to show the
        // selected one, as ratatui's TableState does from a zero offset.
        let visible = usize::from(inner.height.saturating_sub(1)).max(1);
        let offset = (selected + 1).saturating_sub(visible);
        let i = offset + usize::from(row - inner.y - 1);
        (i < count).then_some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clicks_on_the_table_find_rooms_as_it_scrolls() {
        let l = LobbyLayout::new(Rect::new(0, 0, 80, 24), &LobbyChrome::default());
        // Border, header, then the first room.
        let first = l.table.y + 2;
        assert_eq!(l.row_at(0, 3, 5, first), Some(0));
        assert_eq!(l.row_at(0, 3, 5, first + 2), Some(2));
        assert_eq!(l.row_at(0, 3, 5, first + 3), None, "past the last room");
        assert_eq!(l.row_at(0, 3, 5, first - 1), None, "the header");
        // Scrolled to show room 40 of 50: the top row is further down the list.
        let visible = usize::from(l.table.height - 3);
        assert_eq!(l.row_at(40, 50, 5, first), Some(41 - visible));
    }

    #[test]
    fn the_host_hint_and_banner_take_lines_from_the_table() {
        let area = Rect::new(0, 0, 80, 24);
        let plain = LobbyLayout::new(area, &LobbyChrome::default());
        let hosting = LobbyLayout::new(
            area,
            &LobbyChrome {
                challenge_link: None,
                banner: true,
                hosting: true,
                web_hint: Some("Browsers open http://192.168.1.20:7373/"),
                key_hint: Some("This server's key fingerprint: 8939 9d96"),
                qr: None,
            },
        );
        assert_eq!(hosting.hint.height, 5);
        assert_eq!(hosting.banner.height, 1);
        assert_eq!(plain.table.height, hosting.table.height + 6);
    }
}
