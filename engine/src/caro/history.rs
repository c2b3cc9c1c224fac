//! What the search learnt about moves regardless of position: which cells tend to be good
//! for each side, and which answer tends to refute each move.
//!
//! - Main history: per side and cell, two scores, one for attacking moves (an open three
//!   or better) and one for quiet moves. A move that was best gets a bonus growing with
//!   the depth; the moves tried before it get the same as a malus. Updates are "gravity"
//!   updates, `v += b - v * |b| / LIMIT`, so a score stays within `±LIMIT` and old news
//!   fades as new news comes.
//! - Counter moves: per side and cell of the opponent's last move, the answer that last
//!   refuted it.
//!
//! Both are kept between the moves of a game and aged, not cleared, when a new search
//! starts.

use super::position::Cell;
use banco_rules::caro::board::Stone;

/// The bound of every history score.
pub const LIMIT: i32 = 10_000;

/// Which of a cell's two scores a move uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An open three, a four or better for the mover.
    Attack = 0,
    /// Anything else.
    Quiet = 1,
}

/// History scores and counter moves for one game.
#[derive(Default)]
pub struct History {
    /// `[side][cell][kind]`.
    main: Vec<[[i16; 2]; 2]>,
    /// `[side][cell of the opponent's move]`: our last refutation of it.
    counter: Vec<[Cell; 2]>,
}

impl History {
    /// Makes room for a grid of `cells` cells, keeping what it knows if the size is the same;
    /// otherwise starts afresh. Scores are halved: they were learnt for an earlier position.
    pub fn prepare(&mut self, cells: usize) {
        if self.main.len() != cells {
            self.main = vec![[[0; 2]; 2]; cells];
            self.counter = vec![[usize::MAX; 2]; cells];
            return;
        }
        for m in &mut self.main {
            for side in m.iter_mut() {
                for v in side.iter_mut() {
                    *v /= 2;
                }
            }
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.main.clear();
        self.counter.clear();
    }

    /// The score of `stone` playing `cell` as a move of `kind`.
    #[inline]
    pub fn score(&self, stone: Stone, cell: Cell, kind: Kind) -> i32 {
        i32::from(self.main[cell][stone.index()][kind as usize])
    }

    /// Moves the score of `stone` playing `cell` by `bonus` (negative: a malus).
    #[inline]
    pub fn update(&mut self, stone: Stone, cell: Cell, kind: Kind, bonus: i32) {
        let bonus = bonus.clamp(-LIMIT, LIMIT);
        let v = &mut self.main[cell][stone.index()][kind as usize];
        let old = i32::from(*v);
        *v = (old + bonus - old * bonus.abs() / LIMIT) as i16;
    }

    /// `stone`'s last refutation of the opponent's move on `last`.
    #[inline]
    pub fn counter(&self, stone: Stone, last: Cell) -> Option<Cell> {
        let c = self.counter[last][stone.index()];
        (c != usize::MAX).then_some(c)
    }

    /// Remembers `answer` as `stone`'s refutation of the opponent's move on `last`.
    #[inline]
    pub fn set_counter(&mut self, stone: Stone, last: Cell, answer: Cell) {
        self.counter[last][stone.index()] = answer;
    }
}

/// The bonus for a best move found at `depth` plies.
pub fn bonus(depth: f32) -> i32 {
    ((25.0 * depth * depth + 105.0 * depth - 157.0) as i32).clamp(0, 8_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_keeps_scores_bounded_and_fading() {
        let mut h = History::default();
        h.prepare(10);
        for _ in 0..1000 {
            h.update(Stone::X, 3, Kind::Quiet, 8_000);
        }
        let top = h.score(Stone::X, 3, Kind::Quiet);
        assert!(top <= LIMIT && top > 9_000, "{top}");
        // The other side and kind are untouched.
        assert_eq!(h.score(Stone::O, 3, Kind::Quiet), 0);
        assert_eq!(h.score(Stone::X, 3, Kind::Attack), 0);
        // A malus pulls it back down.
        h.update(Stone::X, 3, Kind::Quiet, -8_000);
        assert!(h.score(Stone::X, 3, Kind::Quiet) < top / 2);
        // A new search halves what is known.
        h.update(Stone::O, 5, Kind::Attack, 4_000);
        h.prepare(10);
        assert_eq!(h.score(Stone::O, 5, Kind::Attack), 2_000);
        // Counter moves.
        assert_eq!(h.counter(Stone::X, 7), None);
        h.set_counter(Stone::X, 7, 2);
        assert_eq!(h.counter(Stone::X, 7), Some(2));
        assert_eq!(h.counter(Stone::O, 7), None);
    }
}
