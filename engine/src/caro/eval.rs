//! Static evaluation: what the empty points are worth to each side.
//!
//! Every empty point gets, per side, a score for a stone of that side landing there: the
//! sum of its four line patterns' values plus a bonus for the combination they make (two
//! open threes, a four with an open three, ...). The search board keeps each side's sum
//! of these scores (its *potential*) up to date incrementally, so evaluating a position
//! is one subtraction. Potential counts both what a side can build and, seen from the
//! other side, what must be stopped.
//!
//! Scores come from a table over the 11^4 combinations of four patterns, built once.

use std::sync::OnceLock;

use super::pattern::{Combo, Pattern};
use super::position::Position;

/// The value of one line pattern at an empty point (index: `Pattern as usize`).
const PATTERN_VALUE: [i32; 11] = [
    0,    // Dead
    0,    // Overline
    2,    // B1
    5,    // F1
    10,   // B2
    28,   // F2
    30,   // B3
    90,   // F3
    110,  // B4
    400,  // F4
    1200, // F5
];

/// Extra value of a combination (index: `Combo as usize`) on top of its patterns.
const COMBO_BONUS: [i32; 13] = [
    0,   // None
    0,   // Flex2
    0,   // Block3
    20,  // Flex2x2
    20,  // Block3Plus
    0,   // Flex3
    40,  // Flex3Plus
    300, // Flex3x2
    0,   // Block4
    60,  // Block4Plus
    500, // Block4Flex3
    600, // Flex4
    0,   // Five
];

/// The largest evaluation a position can get; mate scores lie far above it.
pub const EVAL_LIMIT: i32 = 40_000;

/// A stone of the side to move counts this much more than one of the side that just
/// moved, in percent: the mover gets to use its chances first.
const TEMPO_PERCENT: i32 = 115;

/// What a stone on a point is worth to one side, from its four line patterns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellValue {
    /// The tactical meaning of a stone there (four, open three, ...).
    pub combo: Combo,
    /// Its evaluation score.
    pub score: i16,
}

/// Four patterns packed as nibbles (`p0 | p1 << 4 | p2 << 8 | p3 << 12`) -> their value.
/// 64 Ki entries of 4 bytes: one lookup per point and side on every board update.
pub struct ValueTable(
    /// Indexed by the packed patterns.
    Vec<CellValue>,
);

impl ValueTable {
    /// The shared table, built on first use.
    pub fn get() -> &'static ValueTable {
        static TABLE: OnceLock<ValueTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            ValueTable(
                (0..1usize << 16)
                    .map(|i| {
                        let nibbles = [i & 15, (i >> 4) & 15, (i >> 8) & 15, (i >> 12) & 15];
                        if nibbles.iter().any(|n| *n >= Pattern::ALL.len()) {
                            return CellValue {
                                combo: Combo::None,
                                score: 0,
                            };
                        }
                        let (combo, score) = cell_value(nibbles.map(|n| Pattern::ALL[n]));
                        CellValue {
                            combo,
                            score: score as i16,
                        }
                    })
                    .collect(),
            )
        })
    }

    /// The value of four packed patterns.
    #[inline]
    pub fn value(&self, packed: u16) -> CellValue {
        self.0[usize::from(packed)]
    }
}

/// The combo and score of a stone on a point with these four line patterns.
pub fn cell_value(pats: [Pattern; 4]) -> (Combo, i32) {
    let combo = Combo::of(pats);
    let score: i32 = pats.iter().map(|p| PATTERN_VALUE[*p as usize]).sum();
    (combo, score + COMBO_BONUS[combo as usize])
}

/// The position's value for the side to move, within `±EVAL_LIMIT`.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    let us = pos.to_move();
    let own = pos.potential(us) * TEMPO_PERCENT / 100;
    let theirs = pos.potential(us.opponent());
    ((own - theirs) / 4).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::caro::Rule;
    use crate::caro::position::tests::position;

    #[test]
    fn stronger_shapes_score_higher() {
        use Pattern::*;
        let v = |p: [Pattern; 4]| cell_value(p).1;
        assert!(v([F5, Dead, Dead, Dead]) > v([F4, Dead, Dead, Dead]));
        assert!(v([B4, F3, Dead, Dead]) > v([B4, B3, Dead, Dead]));
        assert!(v([F3, F3, Dead, Dead]) > v([F3, B3, Dead, Dead]));
        assert_eq!(cell_value([B4, F3, Dead, Dead]).0, Combo::Block4Flex3);
    }

    #[test]
    fn the_side_with_more_shape_is_ahead() {
        let pos = position(
            &[
                "...............",
                "...............",
                "....XX.........",
                "...XO..........",
                ".....O.........",
                "...............",
                "...............",
            ],
            Rule::Caro,
        );
        // X: three stones, O: two; X has just moved? counts 3 vs 2 -> O to move.
        assert!(evaluate(&pos) < 0);
    }
}
