//! What the search learns about moves as it goes, for ordering and pruning them: which
//! quiet moves cut off (by side, from and to), which quiet moves answer which
//! (continuation history: the move one, two and four plies back, then this one), which
//! captures turned out well, and the move that last refuted each move (countermove).
//!
//! Every entry moves toward its bound by "gravity" (`h += bonus - h * |bonus| / LIMIT`),
//! as in Stockfish: a steady stream of bonuses saturates instead of overflowing, and old
//! knowledge fades as new arrives.

use banco_rules::xiangqi::piece::{Color, Kind, Piece};
use banco_rules::xiangqi::square::{Move, Square};

/// The bound every history entry stays within.
pub const LIMIT: i32 = 16_384;

/// Continuation tables are indexed by the previous move's piece and destination:
/// `piece code * 90 + to`. Code 0 (no piece) is the slot for "no previous move" (the
/// root, a null move), whose entries are written but never mean much.
pub const CONT_SLOTS: usize = Piece::CODES * Square::COUNT;

/// The slot of `piece` moving to `to`.
#[inline]
pub fn slot(piece: Piece, to: Square) -> usize {
    piece.code() * Square::COUNT + to.index()
}

/// The bonus for a move that cut off at `depth` (and the malus for those that did not).
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (12 * depth * depth + 160 * depth - 120).clamp(0, 2400)
}

#[inline]
fn nudge(entry: &mut i16, bonus: i32) {
    let b = bonus.clamp(-LIMIT, LIMIT);
    let h = i32::from(*entry);
    *entry = (h + b - h * b.abs() / LIMIT) as i16;
}

/// All the move statistics a search keeps.
pub struct History {
    /// `main[side][from * 90 + to]`: quiet moves by side and squares.
    main: Box<[[i16; Square::COUNT * Square::COUNT]; 2]>,
    /// `capture[piece][to][captured kind]`.
    capture: Box<[[[i16; 7]; Square::COUNT]; Piece::CODES]>,
    /// `cont[previous slot][slot]`.
    cont: Vec<[i16; CONT_SLOTS]>,
    /// `counter[previous slot]`: the quiet move that last refuted that move.
    counter: Box<[Move; CONT_SLOTS]>,
}

impl Default for History {
    fn default() -> History {
        History::new()
    }
}

impl History {
    pub fn new() -> History {
        History {
            main: Box::new([[0; Square::COUNT * Square::COUNT]; 2]),
            capture: Box::new([[[0; 7]; Square::COUNT]; Piece::CODES]),
            cont: vec![[0; CONT_SLOTS]; CONT_SLOTS],
            counter: Box::new([Move::NONE; CONT_SLOTS]),
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        for side in self.main.iter_mut() {
            side.fill(0);
        }
        for row in self.capture.iter_mut() {
            row.fill([0; 7]);
        }
        for row in &mut self.cont {
            row.fill(0);
        }
        self.counter.fill(Move::NONE);
    }

    /// Fades what the last search learned before the next one (a new move).
    pub fn age(&mut self) {
        for side in self.main.iter_mut() {
            for h in side.iter_mut() {
                *h /= 2;
            }
        }
    }

    #[inline]
    pub fn main(&self, side: Color, mv: Move) -> i32 {
        i32::from(self.main[side.index()][mv.from().index() * Square::COUNT + mv.to().index()])
    }

    #[inline]
    pub fn add_main(&mut self, side: Color, mv: Move, bonus: i32) {
        nudge(
            &mut self.main[side.index()][mv.from().index() * Square::COUNT + mv.to().index()],
            bonus,
        );
    }

    #[inline]
    pub fn capture(&self, piece: Piece, to: Square, victim: Kind) -> i32 {
        i32::from(self.capture[piece.code()][to.index()][victim.index()])
    }

    #[inline]
    pub fn add_capture(&mut self, piece: Piece, to: Square, victim: Kind, bonus: i32) {
        nudge(
            &mut self.capture[piece.code()][to.index()][victim.index()],
            bonus,
        );
    }

    /// The continuation entry for a move into `slot` after the move that filled `prev`.
    #[inline]
    pub fn cont(&self, prev: usize, slot: usize) -> i32 {
        i32::from(self.cont[prev][slot])
    }

    #[inline]
    pub fn add_cont(&mut self, prev: usize, slot: usize, bonus: i32) {
        nudge(&mut self.cont[prev][slot], bonus);
    }

    #[inline]
    pub fn counter(&self, prev: usize) -> Move {
        self.counter[prev]
    }

    #[inline]
    pub fn set_counter(&mut self, prev: usize, mv: Move) {
        self.counter[prev] = mv;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_saturate_within_the_limit() {
        let mut h = History::new();
        let mv: Move = "h2e2".parse().unwrap();
        for _ in 0..1000 {
            h.add_main(Color::Red, mv, bonus(20));
        }
        let v = h.main(Color::Red, mv);
        assert!(v > LIMIT * 9 / 10 && v <= LIMIT, "{v}");
        assert_eq!(h.main(Color::Black, mv), 0);
        for _ in 0..1000 {
            h.add_main(Color::Red, mv, -bonus(20));
        }
        assert!(h.main(Color::Red, mv) < -LIMIT * 9 / 10);
        h.clear();
        assert_eq!(h.main(Color::Red, mv), 0);
    }
}
