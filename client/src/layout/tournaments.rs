//! The Tournaments screen's regions: the title, the list (or the opened tournament's
//! head line and its pane), the notice and the keys.

use ratatui::layout::{Constraint, Layout, Rect};

/// Where the Tournaments screen's parts go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TournamentsLayout {
    /// The title bar.
    pub title: Rect,
    /// The connection or the store in trouble: one line while it lasts.
    pub banner: Rect,
    /// The opened tournament's line (format, status, round, your game); empty for the
    /// list.
    pub head: Rect,
    /// The list, or the opened tournament's pane, with its border.
    pub body: Rect,
    /// The latest event.
    pub notice: Rect,
    /// The key legend, two lines.
    pub keys: Rect,
}

impl TournamentsLayout {
    /// The parts in `area`; `banner` takes a line while it shows, `head` two while a
    /// tournament is open.
    pub fn new(area: Rect, banner: bool, head: bool) -> TournamentsLayout {
        let [title, banner, head, body, notice, keys] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(u16::from(banner)),
            Constraint::Length(if head { 2 } else { 0 }),
            Constraint::Min(3),
            Constraint::Length(1),
            Constraint::Length(2),
        ])
        .areas(area);
        TournamentsLayout {
            title,
            banner,
            head,
            body,
            notice,
            keys,
        }
    }

    /// The first line shown so that line `selected` stays in view.
    pub fn first_shown(&self, selected: usize) -> usize {
        let rows = usize::from(self.body.height.saturating_sub(2));
        (selected + 1).saturating_sub(rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_takes_what_the_lines_leave() {
        let l = TournamentsLayout::new(Rect::new(0, 0, 80, 24), false, true);
        assert_eq!(l.body.height, 24 - 1 - 2 - 1 - 2);
        assert_eq!(l.first_shown(3), 0);
        assert_eq!(l.first_shown(40), 41 - 16);
    }
}
