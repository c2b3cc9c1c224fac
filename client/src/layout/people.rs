//! The people screen's regions: the list (challenges, then people) under the title, a
//! line for an open challenge's link when this machine hosts, the notice and the keys.

use ratatui::layout::{Constraint, Layout, Rect};

/// Where the people screen's parts go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PeopleLayout {
    /// The title bar.
    pub title: Rect,
    /// The connection or the server's store in trouble: one line, while it lasts.
    pub banner: Rect,
    /// The list, with its border.
    pub list: Rect,
    /// Where an open challenge can be taken from (its link), when there is one.
    pub link: Rect,
    /// The latest event.
    pub notice: Rect,
    /// The key legend, two lines.
    pub keys: Rect,
}

impl PeopleLayout {
    /// The parts in `area`; `banner` and `link` take a line each while they show.
    pub fn new(area: Rect, banner: bool, link: bool) -> PeopleLayout {
        let [title, banner, list, link, notice, keys] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(u16::from(banner)),
            Constraint::Min(3),
            Constraint::Length(u16::from(link)),
            Constraint::Length(1),
            Constraint::Length(2),
        ])
        .areas(area);
        PeopleLayout {
            title,
            banner,
            list,
            link,
            notice,
            keys,
        }
    }

    /// The first line of the list shown so that line `selected` of `count` (each drawn
    /// on one row, among `extra` section headings) stays in view.
    pub fn first_shown(&self, selected: usize, extra: usize) -> usize {
        let rows = usize::from(self.list.height.saturating_sub(2));
        (selected + extra + 1).saturating_sub(rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_takes_what_the_lines_leave() {
        let l = PeopleLayout::new(Rect::new(0, 0, 80, 24), false, true);
        assert_eq!(l.list.height, 24 - 1 - 1 - 1 - 2);
        assert_eq!(l.link.height, 1);
        assert_eq!(l.first_shown(3, 2), 0);
        assert_eq!(l.first_shown(30, 4), 30 + 4 + 1 - 17);
    }
}
