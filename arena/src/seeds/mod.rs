//! The bots of the seed programs, reimplemented faithfully as reference opponents.
//!
//! Each follows its document in `shared/seeds/`: its scoring tables, its search, its
//! quirks. Where a document leaves a detail out, the module says what was chosen and why
//! (usually: what the code family the document cites does).
//!
//! - [`seed000`]: depth-3 minimax with alpha-beta over the bounding box, "combo" evaluation.
//! - [`seed002`]: xiangqi, depth-4 alpha-beta with its piece values and square tables.
//! - [`seed001`]: one-ply attack + defence score tables (C#, LAN caro).
//! - [`seed003`]: one-ply `MAP_SCORE` tables, random among equals (JavaScript).
//! - [`seed004`]: depth-2 alpha-beta over attack/defence scores (C#, AI course).

pub mod seed000;
pub mod seed001;
pub mod seed002;
pub mod seed003;
pub mod seed004;

use banco_rules::caro::{Board, Game, Point, Stone};

/// A seed program's bot: picks a move for the side to move.
pub trait SeedBot {
    /// `seed:NNN`.
    fn name(&self) -> &'static str;
    /// The move for the side to move; `None` only on a full board.
    fn choose(&mut self, game: &Game) -> Option<Point>;
}

/// Whether `number` names seed 002, the xiangqi engine (it is not a [`SeedBot`]: those
/// play caro).
pub fn is_xiangqi(number: &str) -> bool {
    matches!(number, "002" | "2")
}

/// The caro seed bots by number.
pub fn by_number(number: &str, seed: u64) -> Option<Box<dyn SeedBot>> {
    match number {
        "000" | "0" => Some(Box::new(seed000::Seed000::new(seed))),
        "001" | "1" => Some(Box::new(seed001::Seed001)),
        "003" | "3" => Some(Box::new(seed003::Seed003::new(seed))),
        "004" | "4" => Some(Box::new(seed004::Seed004)),
        _ => None,
    }
}

/// What is on a point, seen from one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Seen {
    Off,
    Empty,
    Mine,
    Theirs,
}

/// The point (x, y) on `board` as `me` sees it.
#[inline]
pub(crate) fn seen(board: &Board, x: i32, y: i32, me: Stone) -> Seen {
    match board.cell(x, y) {
        None => Seen::Off,
        Some(None) => Seen::Empty,
        Some(Some(s)) if s == me => Seen::Mine,
        Some(Some(_)) => Seen::Theirs,
    }
}

/// The first empty point row by row: the last resort of bots whose scan can come up empty.
pub(crate) fn first_empty(board: &Board) -> Option<Point> {
    board.points().find(|p| board.is_empty_at(*p))
}

/// The four line directions as (dx, dy).
pub(crate) const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

#[cfg(test)]
mod tests {
    use super::*;
    use banco_rules::caro::Rule;

    /// Every seed bot blocks a four; those whose documents look for a win take it.
    /// (Seed 004's search has no terminal test: facing its own five and the opponent's
    /// four it weighs the five's score against the reply's and may block instead, as the
    /// original would.)
    #[test]
    fn every_seed_bot_sees_the_obvious() {
        for n in ["000", "001", "003"] {
            // X to move with four in a row and O too: X must complete its five.
            let mut g = Game::new(15, 15, Rule::Caro).unwrap();
            for i in 0..4u8 {
                g.play(Point::new(3 + i, 7)).unwrap();
                g.play(Point::new(3 + i, 9)).unwrap();
            }
            let mut bot = by_number(n, 7).unwrap();
            let p = bot.choose(&g).unwrap();
            let mut g2 = g.clone();
            let out = g2.play(p).unwrap();
            assert!(out.is_some(), "{n} missed the win, played {p}");
        }
        for n in ["000", "001", "003", "004"] {
            // O to move facing X's open four on one side: must block at (7,7).
            let mut g = Game::new(15, 15, Rule::Caro).unwrap();
            for (x, y) in [(3, 7), (10, 10), (4, 7), (0, 14), (5, 7), (14, 0)] {
                g.play(Point::new(x, y)).unwrap();
            }
            g.play(Point::new(6, 7)).unwrap(); // X: 3..6 on row 7, open both ends.
            g.play(Point::new(2, 7)).unwrap(); // O blocks the left.
            g.play(Point::new(12, 3)).unwrap(); // X elsewhere; X threatens (7,7).
            let mut bot = by_number(n, 7).unwrap();
            let p = bot.choose(&g).unwrap();
            assert_eq!(p, Point::new(7, 7), "{n} failed to block");
        }
    }
}
