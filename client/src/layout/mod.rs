//! Where things go on the screen: rectangles computed from the terminal's size and the
//! state shown, and the board geometries inside them. [`crate::ui`] draws into these
//! rectangles and [`crate::app`] maps mouse clicks through the same numbers, so a click
//! lands where the picture is. Nothing here reads the app or draws (the ratatui
//! template's rule: `ui` draws, `app` decides; both use this).
//!
//! - [`room`], [`lobby`], [`editor`], [`people`], [`tournaments`]: one screen's regions each, and what a
//!   click there lands on.
//! - [`caro`], [`xiangqi`]: where each point of a board sits.
//! - [`qr`]: the browser address's QR code as text, and the cells it takes.
//! - [`wrap`]: text broken into lines of a width (a sentence takes as many rows).

pub mod caro;
pub mod editor;
pub mod lobby;
pub mod people;
pub mod qr;
pub mod room;
pub mod tournaments;
pub mod xiangqi;

use banco_protocol::{GameSettings, Point, XqSquare};
use unicode_width::UnicodeWidthStr;

/// A point of either board: what a mouse click lands on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spot {
    Caro(Point),
    Xiangqi(XqSquare),
}

/// A board as the layouts size it: its game, and for caro its width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardShape {
    Caro { width: u8 },
    Xiangqi,
}

impl BoardShape {
    /// The board of a room's game.
    pub fn of(game: &GameSettings) -> BoardShape {
        match game {
            GameSettings::Caro { width, .. } => BoardShape::Caro { width: *width },
            GameSettings::Xiangqi { .. } => BoardShape::Xiangqi,
        }
    }

    /// The columns the board would like beside a side panel: two per caro point, the
    /// labels and a margin; the compact xiangqi board and a column either side.
    pub fn wants(self) -> u16 {
        match self {
            BoardShape::Caro { width } => 2 * u16::from(width) + 5 + 2,
            BoardShape::Xiangqi => xiangqi::MIN_WIDTH + 2,
        }
    }
}

/// Breaks `text` into lines of at most `width` columns, at spaces where possible.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut out = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let sep = usize::from(!line.is_empty());
        if line.width() + sep + word.width() <= width {
            if sep == 1 {
                line.push(' ');
            }
            line.push_str(word);
            continue;
        }
        if !line.is_empty() {
            out.push(std::mem::take(&mut line));
        }
        // A word longer than the line is cut.
        for c in word.chars() {
            if line.width() + c.to_string().width() > width {
                out.push(std::mem::take(&mut line));
            }
            line.push(c);
        }
    }
    if !line.is_empty() || out.is_empty() {
        out.push(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_breaks_at_spaces_and_cuts_long_words() {
        assert_eq!(wrap("xin chào các bạn", 8), ["xin chào", "các bạn"]);
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("", 5), [""]);
    }

    #[test]
    fn boards_want_room_for_their_points_and_labels() {
        assert_eq!(BoardShape::Caro { width: 15 }.wants(), 37);
        assert_eq!(BoardShape::Xiangqi.wants(), 41);
    }
}
