//! Static evaluation: what the empty points are worth to each side.
//!
//! Every empty point is worth something to each side: a stone of that side landing there
//! would make its four line patterns into a combination (two open threes, a four with an
//! open three, ...). What that is worth depends on whether the side is the one to move
//! (it can use the point at once) or the one that just moved (the opponent may take it
//! first), so each point has two worths per side. The search board keeps, per side and
//! role, the sum of these worths (its *potential*) up to date incrementally, so evaluating
//! a position is one subtraction: the side to move's potential as mover less the
//! opponent's as waiter.
//!
//! A point's worth, per role, is a sum of [`Weights`]: one value per line pattern, one
//! per pair of line patterns (how two lines through the point combine) and one for the
//! point's [`Combo`]. The weights are fitted to game results (Texel's method: the
//! evaluation, through a logistic curve, predicts the result of the game the position
//! came from; see `banco-arena caro-tune`). Values are in quarter evaluation units.
//!
//! Move ordering uses a separate, hand-made score per point ([`CellValue::score`]).
//!
//! A [`PointTable`] is the general form: one worth per role for every unordered set of a
//! point's four patterns (what the weights sum to, or any other values; `banco-arena
//! caro-tune --table` fits one, `pbrain-banco --points` plays with it).
//!
//! Scores come from a table over the 11^4 combinations of four patterns, built once.

use std::sync::OnceLock;

use super::pattern::{Combo, Pattern};
use super::position::Position;

/// The value of one line pattern at an empty point for move ordering (index:
/// `Pattern as usize`).
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

/// Extra ordering value of a combination (index: `Combo as usize`) on top of its
/// patterns.
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

/// The patterns and combos a weight can belong to.
pub const PATTERNS: usize = 11;
pub const COMBOS: usize = 13;

/// Evaluation weights for one role (side to move, or side that just moved).
#[derive(Debug, Clone, PartialEq)]
pub struct RoleWeights {
    /// Per line pattern.
    pub single: [i32; PATTERNS],
    /// Per unordered pair of line patterns (`pair[a][b]` with `a <= b`; the rest unused).
    pub pair: [[i32; PATTERNS]; PATTERNS],
    /// Per combo.
    pub combo: [i32; COMBOS],
}

/// Evaluation weights: `[mover, waiter]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Weights(pub [RoleWeights; 2]);

impl Weights {
    /// The weights the engine plays with: fitted to 1,200 games of Rapfi against itself
    /// at 0.1 s a move (freestyle, random openings), 11,179 quiet positions, by
    /// `banco-arena caro-tune --iterations 3000 --l2 0` from the earlier hand-made ones.
    pub fn default_weights() -> Weights {
        Weights([
            // mover
            RoleWeights {
                single: [0, 0, 3, 1, 14, 37, 71, 61, 238, 460, 1380],
                pair: [
                    [0, 0, -2, 16, -36, 72, 11, 80, -15, 0, 0],
                    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                    [0, 0, 43, -6, -38, 56, 36, 143, -136, 0, 0],
                    [0, 0, 0, 4, 12, -19, -7, 23, -53, 0, 0],
                    [0, 0, 0, 0, -10, 25, -59, -138, 205, 0, 0],
                    [0, 0, 0, 0, 0, -13, 40, -46, 440, 0, 0],
                    [0, 0, 0, 0, 0, 0, 51, 72, 544, 0, 0],
                    [0, 0, 0, 0, 0, 0, 0, -557, 625, 0, 0],
                    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                ],
                combo: [0, -23, -9, -34, 4, 88, 236, -215, 241, 28, 1200, 690, 0],
            },
            // waiter
            RoleWeights {
                single: [0, 0, -4, 20, 13, 45, 36, 130, 161, 290, 1527],
                pair: [
                    [0, 0, -8, -15, 1, -67, -61, -58, -64, -116, -242],
                    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                    [0, 0, -37, 8, -2, -37, 5, -132, 195, 40, 316],
                    [0, 0, 0, -10, -11, 14, 3, 61, 30, -98, 245],
                    [0, 0, 0, 0, 21, 24, 36, 141, -53, -64, 256],
                    [0, 0, 0, 0, 0, 50, -49, -10, 75, 413, 387],
                    [0, 0, 0, 0, 0, 0, 16, 6, 85, -426, 1437],
                    [0, 0, 0, 0, 0, 0, 0, 14, 346, -594, 212],
                    [0, 0, 0, 0, 0, 0, 0, 0, -547, -1001, -986],
                    [0, 0, 0, 0, 0, 0, 0, 0, 0, -1771, -1636],
                    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                ],
                combo: [
                    0, -57, -11, -54, 170, -118, 164, 262, -43, 157, 846, 931, 327,
                ],
            },
        ])
    }

    /// Renju's weights, Black's then White's: under renju the colours play different
    /// games (Black may not make a double three, a double four or an overline), so each
    /// has its own, fitted to 1,788 games of Rapfi against itself under renju at 0.1 s a
    /// move (random openings of three stones, seeds 1129 and 1130), 25,937 quiet
    /// positions, by `banco-arena caro-tune --renju --iterations 3000 --l2 0` from the
    /// freestyle weights ([`Weights::default_weights`]); the points forbidden to Black
    /// count nothing for Black, as in [`ValueTable::renju_black`].
    pub fn renju() -> [Weights; 2] {
        [
            // Black
            Weights([
                // mover
                RoleWeights {
                    single: [0, 0, 3, -3, 14, 27, 53, 33, 179, 9, 1380],
                    pair: [
                        [0, 0, -7, 16, 7, 41, -8, 139, -120, 92, 0],
                        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                        [0, 0, 40, -2, -6, 41, -17, 42, -102, -147, 0],
                        [0, 0, 0, -2, 2, -14, -40, -17, -68, 16, 0],
                        [0, 0, 0, 0, 8, -16, -31, -69, -76, -901, 0],
                        [0, 0, 0, 0, 0, -73, 125, -114, 417, -386, 0],
                        [0, 0, 0, 0, 0, 0, 75, 133, 333, -637, 0],
                        [0, 0, 0, 0, 0, 0, 0, -557, 574, 359, 0],
                        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                    ],
                    combo: [0, -20, -18, -55, -54, 118, 106, -215, 156, 45, 1149, 239, 0],
                },
                // waiter
                RoleWeights {
                    single: [0, 0, -9, 17, 5, 42, 42, 113, 153, 247, 1418],
                    pair: [
                        [0, 0, -9, -22, -11, -40, -37, -130, -50, -284, -174],
                        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                        [0, 0, -40, 1, -25, -19, -45, -124, 14, -59, 226],
                        [0, 0, 0, -9, -16, -2, 13, 20, 31, -181, 208],
                        [0, 0, 0, 0, -17, 48, 59, 81, 88, 7, -129],
                        [0, 0, 0, 0, 0, 33, -32, 110, 19, 141, 63],
                        [0, 0, 0, 0, 0, 0, -27, 11, 260, 131, 1076],
                        [0, 0, 0, 0, 0, 0, 0, 14, 216, 583, -437],
                        [0, 0, 0, 0, 0, 0, 0, 0, -547, -1001, -221],
                        [0, 0, 0, 0, 0, 0, 0, 0, 0, -1771, -1636],
                        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                    ],
                    combo: [0, -66, 30, -15, 62, -92, 72, 262, -72, 205, 717, 888, 218],
                },
            ]),
            // White
            Weights([
                // mover
                RoleWeights {
                    single: [0, 0, -2, -2, 11, 30, 56, 28, 195, 460, 1380],
                    pair: [
                        [0, 0, 6, 2, -7, 38, 20, 104, -15, 0, 0],
                        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                        [0, 0, 22, -1, -22, 30, 0, 74, 64, 0, 0],
                        [0, 0, 0, 0, 9, -4, -28, -3, -117, 0, 0],
                        [0, 0, 0, 0, -45, -34, -35, -123, -51, 0, 0],
                        [0, 0, 0, 0, 0, -58, 78, -70, 388, 0, 0],
                        [0, 0, 0, 0, 0, 0, 40, -246, 233, 0, 0],
                        [0, 0, 0, 0, 0, 0, 0, -569, -155, 0, 0],
                        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                    ],
                    combo: [0, -21, 31, -41, -130, 105, 105, 94, 211, -36, 643, 690, 0],
                },
                // waiter
                RoleWeights {
                    single: [0, 0, -7, 17, 11, 41, 30, 115, 147, 213, 1396],
                    pair: [
                        [0, 0, 5, -17, -11, -31, -58, -101, -95, -101, 110],
                        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                        [0, 0, -48, 5, 2, -7, 25, -74, 58, 192, 368],
                        [0, 0, 0, -12, -10, 0, -19, 29, 11, -266, 76],
                        [0, 0, 0, 0, -22, 50, -26, 154, 87, 19, -112],
                        [0, 0, 0, 0, 0, -13, 47, -69, 71, 243, -59],
                        [0, 0, 0, 0, 0, 0, 9, 111, 350, 55, 962],
                        [0, 0, 0, 0, 0, 0, 0, -120, 290, -855, -1100],
                        [0, 0, 0, 0, 0, 0, 0, 0, -95, -528, -669],
                        [0, 0, 0, 0, 0, 0, 0, 0, 0, -1771, -1636],
                        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                    ],
                    combo: [0, -55, -4, -41, 99, -115, 117, 293, -40, 80, 928, 865, 196],
                },
            ]),
        ]
    }

    /// The hand-made weights the fit started from: per pattern and combo, the move
    /// ordering values, 15% more for the side to move.
    pub fn hand_made() -> Weights {
        let role = |percent: i32| RoleWeights {
            single: PATTERN_VALUE.map(|v| v * percent / 100),
            pair: [[0; PATTERNS]; PATTERNS],
            combo: COMBO_BONUS.map(|v| v * percent / 100),
        };
        Weights([role(115), role(100)])
    }

    /// The worth of a point with these four patterns (and their combo) in `role`
    /// (0: mover, 1: waiter).
    pub fn worth(&self, role: usize, pats: [Pattern; 4], combo: Combo) -> i32 {
        let w = &self.0[role];
        let mut v = w.combo[combo as usize];
        for i in 0..4 {
            v += w.single[pats[i] as usize];
            for j in i + 1..4 {
                let (a, b) = ordered(pats[i], pats[j]);
                v += w.pair[a][b];
            }
        }
        v
    }
}

/// A pair of patterns as indices, smaller first.
#[inline]
pub fn ordered(a: Pattern, b: Pattern) -> (usize, usize) {
    let (a, b) = (a as usize, b as usize);
    (a.min(b), a.max(b))
}

/// What a stone on a point is worth to one side, from its four line patterns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellValue {
    /// The tactical meaning of a stone there (four, open three, ...).
    pub combo: Combo,
    /// Its move-ordering score.
    pub score: i16,
    /// Its worth to the evaluation when its side is to move.
    pub mover: i16,
    /// Its worth when its side has just moved.
    pub waiter: i16,
}

/// Four patterns packed as nibbles (`p0 | p1 << 4 | p2 << 8 | p3 << 12`) -> their value.
/// 64 Ki entries of 8 bytes: one lookup per point and side on every board update.
pub struct ValueTable(
    /// Indexed by the packed patterns.
    Vec<CellValue>,
);

/// The number of unordered sets of four line patterns (with repeats): C(11 + 3, 4).
pub const POINT_KEYS: usize = 1001;

/// The rank of the unordered set of `pats` among the [`POINT_KEYS`] (the same for every
/// order of the four).
pub fn point_key(pats: [Pattern; 4]) -> usize {
    // By the four patterns in ascending order, as a base-11 number.
    fn index(pats: [Pattern; 4]) -> usize {
        let mut p = pats.map(|p| p as usize);
        p.sort_unstable();
        p.iter().fold(0, |i, &v| i * PATTERNS + v)
    }
    static RANKS: OnceLock<Vec<u16>> = OnceLock::new();
    let ranks = RANKS.get_or_init(|| {
        let mut ranks = vec![0u16; PATTERNS.pow(4)];
        for (rank, set) in PointTable::sets().into_iter().enumerate() {
            ranks[index(set)] = rank as u16;
        }
        ranks
    });
    usize::from(ranks[index(pats)])
}

/// A point's worth per role (`[mover, waiter]`) for every unordered set of its four line
/// patterns: the most general form of the evaluation ([`Weights`] are a sum over the set's
/// members, pairs and combo; this is one value per set).
#[derive(Debug, Clone, PartialEq)]
pub struct PointTable(pub [Vec<i32>; 2]);

impl PointTable {
    /// The worths `weights` give.
    pub fn from_weights(weights: &Weights) -> PointTable {
        let mut t = PointTable([vec![0; POINT_KEYS], vec![0; POINT_KEYS]]);
        for pats in Self::sets() {
            let combo = Combo::of(pats);
            for role in 0..2 {
                t.0[role][point_key(pats)] = weights.worth(role, pats, combo);
            }
        }
        t
    }

    /// Every unordered set of four patterns, once, in rank order.
    pub fn sets() -> Vec<[Pattern; 4]> {
        let mut out = Vec::with_capacity(POINT_KEYS);
        for a in 0..PATTERNS {
            for b in a..PATTERNS {
                for c in b..PATTERNS {
                    for d in c..PATTERNS {
                        out.push([a, b, c, d].map(|i| Pattern::ALL[i]));
                    }
                }
            }
        }
        out
    }

    /// Reads the text [`PointTable::to_text`] writes: lines `MOVER WAITER`, one per set
    /// in rank order (`#` lines are comments).
    pub fn parse(text: &str) -> Result<PointTable, String> {
        let mut t = PointTable([Vec::new(), Vec::new()]);
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            for role in 0..2 {
                let v = words
                    .next()
                    .and_then(|w| w.parse::<i32>().ok())
                    .ok_or_else(|| format!("line {}: two whole numbers expected", n + 1))?;
                t.0[role].push(v);
            }
        }
        if t.0[0].len() != POINT_KEYS {
            return Err(format!(
                "{} lines of worths, {POINT_KEYS} expected",
                t.0[0].len()
            ));
        }
        Ok(t)
    }

    /// The table as text: one line per set of patterns, `MOVER WAITER  # the set`.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (k, pats) in Self::sets().into_iter().enumerate() {
            out.push_str(&format!(
                "{} {}  # {:?}\n",
                self.0[0][k], self.0[1][k], pats
            ));
        }
        out
    }
}

impl ValueTable {
    /// The shared table, built on first use from [`Weights::default_weights`] unless
    /// [`ValueTable::install`] came first.
    pub fn get() -> &'static ValueTable {
        Self::cell().get_or_init(|| ValueTable::build(&Weights::default_weights()))
    }

    /// Makes the worths of `points` the evaluation of every caro search in this process
    /// (an engine binary trying a fitted table); `false` if a search has already used the
    /// table, which then stays as it is.
    pub fn install(points: &PointTable) -> bool {
        Self::cell().set(ValueTable::build_from(points)).is_ok()
    }

    /// Renju's table for X (Black), from Black's [`Weights::renju`], where a point at
    /// which a Black stone would make a double three, a double four or an overline (by
    /// its line patterns, and no five beside them) is worth nothing to Black: Black may
    /// not play there, so the shape that would win under the other rules is no asset.
    /// The combos and ordering scores stay (the search judges the points it plays
    /// exactly, by the rules' finder).
    pub fn renju_black() -> &'static ValueTable {
        static TABLE: OnceLock<ValueTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            let [black, _] = Weights::renju();
            ValueTable(
                ValueTable::build(&black)
                    .0
                    .into_iter()
                    .enumerate()
                    .map(|(i, v)| {
                        let nibbles = [i & 15, (i >> 4) & 15, (i >> 8) & 15, (i >> 12) & 15];
                        match nibbles.map(|n| Pattern::ALL.get(n).copied()) {
                            [Some(a), Some(b), Some(c), Some(d)]
                                if forbidden_shape([a, b, c, d]) =>
                            {
                                CellValue {
                                    mover: 0,
                                    waiter: 0,
                                    ..v
                                }
                            }
                            _ => v,
                        }
                    })
                    .collect(),
            )
        })
    }

    /// Renju's table for O (White), from White's [`Weights::renju`].
    pub fn renju_white() -> &'static ValueTable {
        static TABLE: OnceLock<ValueTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            let [_, white] = Weights::renju();
            ValueTable::build(&white)
        })
    }

    fn cell() -> &'static OnceLock<ValueTable> {
        static TABLE: OnceLock<ValueTable> = OnceLock::new();
        &TABLE
    }

    /// A table for `weights`.
    pub fn build(weights: &Weights) -> ValueTable {
        ValueTable::build_from(&PointTable::from_weights(weights))
    }

    /// A table for the worths of `points`.
    pub fn build_from(points: &PointTable) -> ValueTable {
        let clamp = |v: i32| v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
        ValueTable(
            (0..1usize << 16)
                .map(|i| {
                    let nibbles = [i & 15, (i >> 4) & 15, (i >> 8) & 15, (i >> 12) & 15];
                    if nibbles.iter().any(|n| *n >= Pattern::ALL.len()) {
                        return CellValue {
                            combo: Combo::None,
                            score: 0,
                            mover: 0,
                            waiter: 0,
                        };
                    }
                    let pats = nibbles.map(|n| Pattern::ALL[n]);
                    let (combo, score) = cell_value(pats);
                    CellValue {
                        combo,
                        score: clamp(score),
                        mover: clamp(points.0[0][point_key(pats)]),
                        waiter: clamp(points.0[1][point_key(pats)]),
                    }
                })
                .collect(),
        )
    }

    /// The value of four packed patterns.
    #[inline]
    pub fn value(&self, packed: u16) -> CellValue {
        self.0[usize::from(packed)]
    }
}

/// Whether a Black stone with these four line patterns would be forbidden under renju by
/// its shape alone: two open threes, two fours, or an overline, with no five (a five
/// wins whatever else it makes). Fake threes need the whole board; this does not see them.
pub fn forbidden_shape(pats: [Pattern; 4]) -> bool {
    let n = |p: Pattern| pats.iter().filter(|&&q| q == p).count();
    n(Pattern::F5) == 0
        && (n(Pattern::F3) >= 2 || n(Pattern::F4) + n(Pattern::B4) >= 2 || n(Pattern::Overline) > 0)
}

/// The combo and ordering score of a stone on a point with these four line patterns.
pub fn cell_value(pats: [Pattern; 4]) -> (Combo, i32) {
    let combo = Combo::of(pats);
    let score: i32 = pats.iter().map(|p| PATTERN_VALUE[*p as usize]).sum();
    (combo, score + COMBO_BONUS[combo as usize])
}

/// The position's value for the side to move, within `±EVAL_LIMIT`: the mean of what the
/// potentials say now and what they said before the last move (from the other side's
/// view, negated), which evens out the swing of who happens to be to move.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    let us = pos.to_move();
    let them = us.opponent();
    let now = pos.potential(us, true) - pos.potential(them, false);
    let value = match (
        pos.previous_potential(them, true),
        pos.previous_potential(us, false),
    ) {
        (Some(their_before), Some(ours_before)) => (now - (their_before - ours_before)) / 8,
        _ => now / 4,
    };
    value.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::caro::position::tests::position;
    use banco_rules::caro::Rule;

    #[test]
    fn each_set_of_four_patterns_has_one_key_whatever_the_order() {
        let sets = PointTable::sets();
        assert_eq!(sets.len(), POINT_KEYS);
        for (k, pats) in sets.iter().enumerate() {
            assert_eq!(point_key(*pats), k);
            let [a, b, c, d] = *pats;
            assert_eq!(point_key([d, b, a, c]), k);
            assert_eq!(point_key([c, d, b, a]), k);
        }
    }

    #[test]
    fn a_point_table_reads_back_what_it_wrote_and_refuses_a_short_one() {
        let table = PointTable::from_weights(&Weights::default_weights());
        let text = table.to_text();
        assert_eq!(PointTable::parse(&text), Ok(table.clone()));
        let short: String = text.lines().skip(1).map(|l| format!("{l}\n")).collect();
        assert!(
            PointTable::parse(&short)
                .unwrap_err()
                .contains("1000 lines")
        );
        assert!(PointTable::parse("1 x\n").unwrap_err().contains("line 1"));
        // The table gives the same values as the weights it was made from.
        let (a, b) = (
            ValueTable::build(&Weights::default_weights()),
            ValueTable::build_from(&table),
        );
        assert!((0..=u16::MAX).all(|i| a.value(i) == b.value(i)));
        // Once a search has used the evaluation, another table is refused.
        ValueTable::get();
        assert!(!ValueTable::install(&table));
    }

    #[test]
    fn renju_black_has_no_worth_on_its_forbidden_shapes() {
        use Pattern::*;
        let pack = |p: [Pattern; 4]| {
            p.iter()
                .enumerate()
                .fold(0u16, |k, (i, &q)| k | (q as u16) << (4 * i))
        };
        let all = &ValueTable::build(&Weights::renju()[0]);
        let black = ValueTable::renju_black();
        for pats in [
            [F3, F3, Dead, Dead],
            [B4, B4, F1, Dead],
            [F4, B4, Dead, Dead],
            [Overline, F3, Dead, Dead],
        ] {
            let v = black.value(pack(pats));
            assert_eq!((v.mover, v.waiter), (0, 0), "{pats:?}");
            assert_eq!(v.combo, all.value(pack(pats)).combo);
            assert_ne!(all.value(pack(pats)).mover, 0, "{pats:?}");
        }
        // A four-three, an open four and a five beside anything keep their worth.
        for pats in [
            [B4, F3, Dead, Dead],
            [F4, F2, Dead, Dead],
            [F5, F3, F3, Dead],
            [F5, Overline, Dead, Dead],
        ] {
            assert_eq!(black.value(pack(pats)), all.value(pack(pats)), "{pats:?}");
        }
    }

    #[test]
    fn stronger_shapes_score_higher() {
        use Pattern::*;
        let v = |p: [Pattern; 4]| cell_value(p).1;
        assert!(v([F5, Dead, Dead, Dead]) > v([F4, Dead, Dead, Dead]));
        assert!(v([B4, F3, Dead, Dead]) > v([B4, B3, Dead, Dead]));
        assert!(v([F3, F3, Dead, Dead]) > v([F3, B3, Dead, Dead]));
        assert_eq!(cell_value([B4, F3, Dead, Dead]).0, Combo::Block4Flex3);
    }

    /// The position of `rows` (see `position`) as reached by `last`, the last stone placed.
    fn after(rows: &[&str], last: (u8, u8)) -> Position {
        let pos = position(rows, Rule::Freestyle);
        Position::from_board_after(
            &pos.to_board(),
            Rule::Freestyle,
            pos.to_move(),
            Some(banco_rules::caro::Point::new(last.0, last.1)),
        )
    }

    #[test]
    fn the_side_with_more_shape_is_ahead() {
        // X has two open twos that cross, O two scattered stones; O to move.
        let pos = after(
            &[
                "...............",
                "...............",
                "....XX.........",
                "....X..........",
                "...............",
                "..O.........O..",
                "...............",
            ],
            (4, 3),
        );
        assert_eq!(pos.ply(), 1);
        assert!(evaluate(&pos) < 0, "{}", evaluate(&pos));
        // The same shapes for O, X to move.
        let pos = after(
            &[
                "...............",
                "...............",
                "....OO.......X.",
                "....O..........",
                "...............",
                "..X.........X..",
                "...............",
            ],
            (4, 3),
        );
        assert!(evaluate(&pos) < 0, "{}", evaluate(&pos));
    }
}
