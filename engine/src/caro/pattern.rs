//! Line patterns: what one more stone on a point makes of each line through it.
//!
//! Every point has, in each of the four directions, a window of eleven cells centred on it:
//! five neighbours on each side, each one empty, X, O or off the board (a wall). The window
//! decides exactly what the centre stone can still become in that line under a given rule,
//! because any five through the centre lies inside cells 1..=9 and the cells that could
//! block or lengthen it (0 and 10) are in the window too.
//!
//! The ten neighbours pack into a 20-bit [`Key`] (2 bits each, farthest-left first) that the
//! search board keeps up to date on every move. A [`PatternTable`] per rule maps each key to
//! the [`Pattern`] the centre would make for X and for O, both in one byte. Tables are built
//! once, lazily, by classifying every window from the rule's own definition of a win
//! ([`Rule::run_wins`]): nothing about fours or threes is written by hand, so the caro
//! rule's blocked ends, standard's overlines and freestyle come out exact by construction.
//!
//! One approximation remains, for `caro-overline` (Gomocup rule 8) only: a run of six or
//! more that reaches the window's edge has its far end out of sight, and that end is taken
//! as not blocked.

use std::sync::OnceLock;

use banco_rules::caro::rules::Rule;

/// A window of ten neighbours, 2 bits each: see the module doc.
pub type Key = u32;

/// Cell codes inside a key and on the search board.
pub const EMPTY: u8 = 0;
/// An X stone (in a table's own perspective: the side the pattern is for).
pub const X_CODE: u8 = 1;
/// An O stone (in a table's own perspective: the other side).
pub const O_CODE: u8 = 2;
/// Off the board. Blocks a line but is not an opponent's stone (the caro rule cares).
pub const WALL: u8 = 3;

/// Neighbours on each side of the centre that a key covers.
pub const HALF: usize = 5;
/// Cells in a window, centre included.
const SPAN: usize = 2 * HALF + 1;
/// Distinct keys.
const KEYS: usize = 1 << (4 * HALF);

/// The bit position of the neighbour `offset` cells from the centre (`offset` in
/// `-5..=-1` or `1..=5`) inside a key.
#[inline]
pub const fn shift(offset: i32) -> u32 {
    let slot = if offset < 0 {
        offset + HALF as i32
    } else {
        offset + HALF as i32 - 1
    };
    2 * slot as u32
}

/// What a stone on the centre point makes of one line, strongest last.
///
/// `F` ("flex", open) shapes cannot be stopped with one reply inside the line; `B`
/// ("blocked") shapes can. The number is how many more stones a five needs after the
/// centre: `F4` is an open four, `B4` a four with one way to five, `F3` a three that can
/// become an open four, and so on down to `B1`, a lone stone with room for a five.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// No five through the centre is possible any more.
    Dead = 0,
    /// The centre makes a run of five or more that does not win (six or more where only
    /// exactly five counts, or a caro five blocked at both ends).
    Overline,
    B1,
    F1,
    B2,
    F2,
    B3,
    F3,
    B4,
    F4,
    /// The centre completes a winning five.
    F5,
}

impl Pattern {
    /// Every pattern, weakest first; `ALL[p as usize] == p`.
    pub const ALL: [Pattern; 11] = [
        Pattern::Dead,
        Pattern::Overline,
        Pattern::B1,
        Pattern::F1,
        Pattern::B2,
        Pattern::F2,
        Pattern::B3,
        Pattern::F3,
        Pattern::B4,
        Pattern::F4,
        Pattern::F5,
    ];

    #[inline]
    fn from_u8(v: u8) -> Pattern {
        Pattern::ALL
            .get(usize::from(v))
            .copied()
            .unwrap_or(Pattern::Dead)
    }

    /// The pattern one stone weaker: what a point is when a further stone would make
    /// `self`. `F4 -> F3`, `B4 -> B3`, ..., anything at or below `B1` -> `Dead`.
    fn one_less(self) -> Pattern {
        match self {
            Pattern::F4 => Pattern::F3,
            Pattern::B4 => Pattern::B3,
            Pattern::F3 => Pattern::F2,
            Pattern::B3 => Pattern::B2,
            Pattern::F2 => Pattern::F1,
            Pattern::B2 => Pattern::B1,
            _ => Pattern::Dead,
        }
    }
}

/// What one more stone on a point makes across all four lines, strongest last: the
/// tactical meaning of a move (Rapfi calls it `Pattern4`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Combo {
    None = 0,
    /// One two that can become an open three.
    Flex2,
    /// A three that can become a four (not an open one).
    Block3,
    /// Two twos that can each become an open three.
    Flex2x2,
    /// A blocked three and another two or three.
    Block3Plus,
    /// An open three: threatens an open four next.
    Flex3,
    /// An open three and another developing line.
    Flex3Plus,
    /// Two open threes.
    Flex3x2,
    /// A four: threatens five next, one way.
    Block4,
    /// A four and a developing line.
    Block4Plus,
    /// A four and an open three: wins unless the reply to the four also stops the three.
    Block4Flex3,
    /// An open four or two fours: wins unless the opponent completes a five first.
    Flex4,
    /// Completes a winning five.
    Five,
}

impl Combo {
    /// Every combo, weakest first.
    pub const ALL: [Combo; 13] = [
        Combo::None,
        Combo::Flex2,
        Combo::Block3,
        Combo::Flex2x2,
        Combo::Block3Plus,
        Combo::Flex3,
        Combo::Flex3Plus,
        Combo::Flex3x2,
        Combo::Block4,
        Combo::Block4Plus,
        Combo::Block4Flex3,
        Combo::Flex4,
        Combo::Five,
    ];

    /// The combination of the four directional patterns of one point for one side.
    pub fn of(patterns: [Pattern; 4]) -> Combo {
        let mut n = [0u8; 11];
        for p in patterns {
            n[p as usize] += 1;
        }
        let count = |p: Pattern| n[p as usize];
        let (f5, f4, b4, f3, b3, f2) = (
            count(Pattern::F5),
            count(Pattern::F4),
            count(Pattern::B4),
            count(Pattern::F3),
            count(Pattern::B3),
            count(Pattern::F2),
        );
        if f5 > 0 {
            Combo::Five
        } else if f4 > 0 || b4 >= 2 {
            Combo::Flex4
        } else if b4 == 1 {
            if f3 > 0 {
                Combo::Block4Flex3
            } else if b3 + f2 > 0 {
                Combo::Block4Plus
            } else {
                Combo::Block4
            }
        } else if f3 >= 2 {
            Combo::Flex3x2
        } else if f3 == 1 {
            if b3 + f2 > 0 {
                Combo::Flex3Plus
            } else {
                Combo::Flex3
            }
        } else if b3 > 0 && b3 + f2 >= 2 {
            Combo::Block3Plus
        } else if f2 >= 2 {
            Combo::Flex2x2
        } else if b3 > 0 {
            Combo::Block3
        } else if f2 > 0 {
            Combo::Flex2
        } else {
            Combo::None
        }
    }

    /// Whether this move threatens a five next move (a four of some kind).
    #[inline]
    pub fn is_four(self) -> bool {
        self >= Combo::Block4
    }

    /// Whether this move makes at least an open three.
    #[inline]
    pub fn is_three_or_better(self) -> bool {
        self >= Combo::Flex3
    }
}

/// Key -> (pattern for X, pattern for O) for one rule, packed as `x | o << 4`.
///
/// Under freestyle a window's two outermost cells never matter (any five through the
/// centre lies within four cells of it, and a longer run wins too), so its table is
/// indexed by the inner eight neighbours only: 64 KiB instead of 1 MiB, which stays in
/// the cache the search reads it from on every board update.
pub struct PatternTable {
    /// Which rule the table was built for.
    rule: Rule,
    /// Packed pattern pairs, indexed by `(key >> shift) & mask`.
    pairs: Vec<u8>,
    /// Bits of the key dropped at the low end (the farthest-left neighbours).
    shift: u32,
    /// The index bits kept after the shift.
    mask: Key,
}

impl PatternTable {
    /// The shared table for `rule`, built on first use (about a tenth of a second;
    /// [`GameBot::warm_up`](crate::bot::GameBot::warm_up) builds them all ahead).
    pub fn get(rule: Rule) -> &'static PatternTable {
        Self::slot(rule).get_or_init(|| PatternTable::build(rule))
    }

    /// Whether `rule`'s shared table has been built.
    pub fn is_built(rule: Rule) -> bool {
        Self::slot(rule).get().is_some()
    }

    fn slot(rule: Rule) -> &'static OnceLock<PatternTable> {
        static TABLES: [OnceLock<PatternTable>; 5] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        let slot = Rule::ALL.iter().position(|r| *r == rule).unwrap_or(0);
        &TABLES[slot]
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Both sides' patterns for a window, packed: X in the low nibble, O in the high.
    #[inline]
    pub fn pair(&self, key: Key) -> u8 {
        self.pairs[((key >> self.shift) & self.mask) as usize]
    }

    /// The pattern for X (`side == 0`) or O (`side == 1`) from a packed pair.
    #[inline]
    pub fn unpack(pair: u8, side: usize) -> Pattern {
        Pattern::from_u8((pair >> (4 * side)) & 0xF)
    }

    fn build(rule: Rule) -> PatternTable {
        if rule == Rule::Renju {
            return PatternTable::build_renju();
        }
        let mut own = vec![UNKNOWN; KEYS];
        for key in 0..KEYS as Key {
            if is_valid(key) {
                classify(key, rule, &mut own);
            }
        }
        let pair_of = |key: Key| {
            if !is_valid(key) {
                return 0;
            }
            let x = own[key as usize];
            let o = own[swap_sides(key) as usize];
            x | (o << 4)
        };
        if rule == Rule::Freestyle {
            // The inner neighbours, with walls on the outermost cells (valid whenever the
            // inner ones are, and the outer cells change nothing: see the type's doc).
            let inner_bits = 4 * (HALF as u32 - 1);
            let walls = Key::from(WALL) | Key::from(WALL) << (2 + inner_bits);
            let pairs = (0..1 << inner_bits)
                .map(|inner: Key| pair_of(inner << 2 | walls))
                .collect();
            return PatternTable {
                rule,
                pairs,
                shift: 2,
                mask: (1 << inner_bits) - 1,
            };
        }
        let pairs = (0..KEYS as Key).map(pair_of).collect();
        PatternTable {
            rule,
            pairs,
            shift: 0,
            mask: Key::MAX,
        }
    }
}

impl PatternTable {
    /// Renju's table: X (Black) judged as standard (exactly five; a six is an
    /// `Overline`), O (White) as freestyle (five or more). Black's forbidden points need
    /// the whole board and are the search's to check ([`super::position::Position::forbidden`]).
    fn build_renju() -> PatternTable {
        let mut black = vec![UNKNOWN; KEYS];
        let mut white = vec![UNKNOWN; KEYS];
        for key in 0..KEYS as Key {
            if is_valid(key) {
                classify(key, Rule::Standard, &mut black);
                classify(key, Rule::Freestyle, &mut white);
            }
        }
        let pairs = (0..KEYS as Key)
            .map(|key| {
                if !is_valid(key) {
                    return 0;
                }
                black[key as usize] | (white[swap_sides(key) as usize] << 4)
            })
            .collect();
        PatternTable {
            rule: Rule::Renju,
            pairs,
            shift: 0,
            mask: Key::MAX,
        }
    }
}

const UNKNOWN: u8 = 0xFF;

/// The cell code at neighbour slot `slot` (0..10) of a key.
#[inline]
fn slot_code(key: Key, slot: usize) -> u8 {
    ((key >> (2 * slot)) & 3) as u8
}

/// The key with X and O exchanged: the same window seen from the other side.
fn swap_sides(key: Key) -> Key {
    let mut out = 0;
    for slot in 0..2 * HALF {
        let c = match slot_code(key, slot) {
            X_CODE => O_CODE,
            O_CODE => X_CODE,
            c => c,
        };
        out |= Key::from(c) << (2 * slot);
    }
    out
}

/// Whether a key can occur: walls only run inwards from the window's ends (a board edge).
fn is_valid(key: Key) -> bool {
    let w = window(key);
    // Left side: slots 0..5 (farthest first). Once a non-wall appears, no wall may follow.
    let left_ok = w[..HALF]
        .iter()
        .skip_while(|c| **c == WALL)
        .all(|c| *c != WALL);
    let right_ok = w[HALF + 1..]
        .iter()
        .rev()
        .skip_while(|c| **c == WALL)
        .all(|c| *c != WALL);
    left_ok && right_ok
}

/// The eleven cells of a window with the centre holding the table's own stone (X).
fn window(key: Key) -> [u8; SPAN] {
    let mut w = [EMPTY; SPAN];
    for (slot, cell) in (0..HALF).chain(HALF + 1..SPAN).enumerate() {
        w[cell] = slot_code(key, slot);
    }
    w[HALF] = X_CODE;
    w
}

/// The key slot of window cell `cell` (not the centre).
#[inline]
fn slot_of(cell: usize) -> usize {
    if cell < HALF { cell } else { cell - 1 }
}

/// The run of own stones through the centre: (first cell, last cell).
fn centre_run(w: &[u8; SPAN]) -> (usize, usize) {
    let mut lo = HALF;
    while lo > 0 && w[lo - 1] == X_CODE {
        lo -= 1;
    }
    let mut hi = HALF;
    while hi < SPAN - 1 && w[hi + 1] == X_CODE {
        hi += 1;
    }
    (lo, hi)
}

/// Whether the centre's run wins under `rule`. A run reaching the window's edge is at
/// least six long; its unseen end counts as not blocked.
fn centre_wins(w: &[u8; SPAN], rule: Rule) -> bool {
    let (lo, hi) = centre_run(w);
    let len = hi - lo + 1;
    if len < 5 {
        return false;
    }
    let blocked_before = lo > 0 && w[lo - 1] == O_CODE;
    let blocked_after = hi < SPAN - 1 && w[hi + 1] == O_CODE;
    rule.run_wins(len, blocked_before, blocked_after)
}

/// Window cells (never the centre) that are empty.
fn empties(w: &[u8; SPAN]) -> impl Iterator<Item = usize> + '_ {
    (0..SPAN).filter(move |&c| c != HALF && w[c] == EMPTY)
}

/// Whether own stone on some empty cell of `w` wins through the centre.
fn has_five_point(w: &[u8; SPAN], rule: Rule) -> bool {
    empties(w).any(|e| {
        let mut v = *w;
        v[e] = X_CODE;
        centre_wins(&v, rule)
    })
}

/// The pattern of `key` for its own side (X), memoised in `own`.
fn classify(key: Key, rule: Rule, own: &mut [u8]) -> u8 {
    if own[key as usize] != UNKNOWN {
        return own[key as usize];
    }
    let w = window(key);
    let (lo, hi) = centre_run(&w);
    let pattern = if centre_wins(&w, rule) {
        Pattern::F5
    } else if hi - lo + 1 >= 5 {
        Pattern::Overline
    } else if has_five_point(&w, rule) {
        // A four. Open if no single reply inside the window takes every five away.
        let open = empties(&w).all(|r| {
            let mut v = w;
            v[r] = O_CODE;
            has_five_point(&v, rule)
        });
        if open { Pattern::F4 } else { Pattern::B4 }
    } else {
        let mut best = Pattern::Dead;
        for e in empties(&w) {
            let child = key | (Key::from(X_CODE) << (2 * slot_of(e)));
            let p = Pattern::from_u8(classify(child, rule, own)).one_less();
            best = best.max(p);
        }
        best
    };
    own[key as usize] = pattern as u8;
    pattern as u8
}

/// Builds the key of a window from its eleven cells (centre ignored). For tests and tools.
pub fn key_of(cells: &[u8; SPAN]) -> Key {
    let mut key = 0;
    for cell in (0..HALF).chain(HALF + 1..SPAN) {
        key |= Key::from(cells[cell]) << (2 * slot_of(cell));
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A window from text: `x` own, `o` other, `.` empty, `#` wall, centre written `*`
    /// (the point being classified). Exactly 11 characters.
    fn key(text: &str) -> Key {
        let cells: Vec<u8> = text
            .chars()
            .map(|c| match c {
                'x' | '*' => X_CODE,
                'o' => O_CODE,
                '#' => WALL,
                _ => EMPTY,
            })
            .collect();
        assert_eq!(cells.len(), SPAN, "{text}");
        assert_eq!(text.chars().nth(HALF), Some('*'), "{text}");
        key_of(&cells.try_into().unwrap())
    }

    fn pat(rule: Rule, text: &str) -> Pattern {
        PatternTable::unpack(PatternTable::get(rule).pair(key(text)), 0)
    }

    #[test]
    fn fives_per_rule() {
        for rule in Rule::ALL {
            assert_eq!(pat(rule, "...xx*xx..."), Pattern::F5, "{rule}");
            assert_eq!(pat(rule, "#####*xxxx."), Pattern::F5, "{rule} edge");
        }
        // Overline.
        assert_eq!(pat(Rule::Freestyle, "..xxx*xx..."), Pattern::F5);
        assert_eq!(pat(Rule::CaroOverline, "..xxx*xx..."), Pattern::F5);
        assert_eq!(pat(Rule::Standard, "..xxx*xx..."), Pattern::Overline);
        assert_eq!(pat(Rule::Caro, "..xxx*xx..."), Pattern::Overline);
        // Blocked at both ends.
        assert_eq!(pat(Rule::Caro, "..oxx*xxo.."), Pattern::Overline);
        assert_eq!(pat(Rule::Standard, "..oxx*xxo.."), Pattern::F5);
        // Edge is not a block.
        assert_eq!(pat(Rule::Caro, "###xx*xxo.."), Pattern::F5);
    }

    #[test]
    fn fours_per_rule() {
        for rule in Rule::ALL {
            assert_eq!(pat(rule, "....x*xx..."), Pattern::F4, "{rule}");
            assert_eq!(pat(rule, "...ox*xx..."), Pattern::B4, "{rule}");
            assert_eq!(pat(rule, "...x.*xx..."), Pattern::B4, "{rule}");
        }
        // The caro rule: both five points lead to a five blocked at both ends once the
        // opponent takes one of them.
        assert_eq!(pat(Rule::Caro, "..o.x*xx.o."), Pattern::B4);
        assert_eq!(pat(Rule::Freestyle, "..o.x*xx.o."), Pattern::F4);
        // Standard: a five point that makes six is no five point.
        assert_eq!(pat(Rule::Standard, "..x.x*xx..."), Pattern::B4);
        assert_eq!(pat(Rule::Freestyle, "..x.x*xx..."), Pattern::F4);
    }

    #[test]
    fn threes_per_rule() {
        for rule in Rule::ALL {
            assert_eq!(pat(rule, "....x*x...."), Pattern::F3, "{rule}");
            assert_eq!(pat(rule, "...x.*x...."), Pattern::F3, "{rule}");
            assert_eq!(pat(rule, "...ox*x...."), Pattern::B3, "{rule}");
            assert_eq!(pat(rule, "....o*xx.o."), Pattern::Dead, "{rule}");
        }
        // Caro: .xxx. with opponent stones two away on both sides: every four it could
        // make is stopped by one reply that leaves the last five blocked at both ends.
        assert_eq!(pat(Rule::Caro, "..o..*xx..o"), Pattern::B3);
        assert_eq!(pat(Rule::Freestyle, "..o..*xx..o"), Pattern::F3);
        // Only one five fits between the opponent's stones: dead in caro (it would be
        // blocked at both ends), a blocked three elsewhere.
        assert_eq!(pat(Rule::Caro, "...o.*xx.o."), Pattern::Dead);
        assert_eq!(pat(Rule::Freestyle, "...o.*xx.o."), Pattern::B3);
    }

    /// Brute force, from the rules alone: the window becomes a plain line (walls cut it,
    /// open ends continue with empty points), fives are judged by `Rule::run_wins` on
    /// that line, and each pattern is found by trying moves (and, for open fours, every
    /// reply). Memoised by window only to keep the exhaustive test quick.
    struct Brute {
        rule: Rule,
        memo: std::collections::HashMap<[u8; SPAN], Pattern>,
    }

    impl Brute {
        /// The window's line without walls, five empty points past each open end, and
        /// the centre's index in it.
        fn line(w: &[u8; SPAN]) -> (Vec<u8>, usize) {
            let left_walls = w.iter().take_while(|c| **c == WALL).count();
            let right_walls = w.iter().rev().take_while(|c| **c == WALL).count();
            let pad = |walls: usize| if walls == 0 { 5 } else { 0 };
            let mut line = vec![EMPTY; pad(left_walls)];
            let centre = line.len() + HALF - left_walls;
            line.extend_from_slice(&w[left_walls..SPAN - right_walls]);
            line.extend(std::iter::repeat_n(EMPTY, pad(right_walls)));
            (line, centre)
        }

        /// The centre's run length and whether it wins.
        fn centre(&self, w: &[u8; SPAN]) -> (usize, bool) {
            let (line, c) = Brute::line(w);
            let (mut lo, mut hi) = (c, c);
            while lo > 0 && line[lo - 1] == X_CODE {
                lo -= 1;
            }
            while hi + 1 < line.len() && line[hi + 1] == X_CODE {
                hi += 1;
            }
            let before = lo > 0 && line[lo - 1] == O_CODE;
            let after = hi + 1 < line.len() && line[hi + 1] == O_CODE;
            let len = hi - lo + 1;
            (len, self.rule.run_wins(len, before, after))
        }

        fn empties(w: &[u8; SPAN]) -> Vec<usize> {
            (0..SPAN).filter(|&i| i != HALF && w[i] == EMPTY).collect()
        }

        fn with(w: &[u8; SPAN], i: usize, code: u8) -> [u8; SPAN] {
            let mut v = *w;
            v[i] = code;
            v
        }

        fn can_five(&self, w: &[u8; SPAN]) -> bool {
            Brute::empties(w)
                .into_iter()
                .any(|e| self.centre(&Brute::with(w, e, X_CODE)).1)
        }

        fn classify(&mut self, w: [u8; SPAN]) -> Pattern {
            if let Some(p) = self.memo.get(&w) {
                return *p;
            }
            let (len, wins) = self.centre(&w);
            let p = if wins {
                Pattern::F5
            } else if len >= 5 {
                Pattern::Overline
            } else if self.can_five(&w) {
                let open = Brute::empties(&w)
                    .into_iter()
                    .all(|r| self.can_five(&Brute::with(&w, r, O_CODE)));
                if open { Pattern::F4 } else { Pattern::B4 }
            } else {
                let mut best = Pattern::Dead;
                for e in Brute::empties(&w) {
                    let next = match self.classify(Brute::with(&w, e, X_CODE)) {
                        Pattern::F4 => Pattern::F3,
                        Pattern::B4 => Pattern::B3,
                        Pattern::F3 => Pattern::F2,
                        Pattern::B3 => Pattern::B2,
                        Pattern::F2 => Pattern::F1,
                        Pattern::B2 => Pattern::B1,
                        _ => Pattern::Dead,
                    };
                    best = best.max(next);
                }
                best
            };
            self.memo.insert(w, p);
            p
        }
    }

    /// Every window that can occur on a board: walls only from the ends inwards.
    fn every_window() -> Vec<[u8; SPAN]> {
        let mut out = Vec::new();
        for left in 0..=HALF {
            for right in 0..=HALF {
                let free: Vec<usize> = (left..SPAN - right).filter(|&i| i != HALF).collect();
                for mut n in 0..3usize.pow(free.len() as u32) {
                    let mut w = [WALL; SPAN];
                    w[HALF] = X_CODE;
                    for &i in &free {
                        w[i] = (n % 3) as u8;
                        n /= 3;
                    }
                    out.push(w);
                }
            }
        }
        out
    }

    /// The tables against the brute force, for every window, both sides, every rule.
    #[test]
    fn tables_match_brute_force_on_every_window() {
        let windows = every_window();
        assert_eq!(windows.len(), 364 * 364);
        for rule in Rule::ALL {
            let table = PatternTable::get(rule);
            let mut brute = Brute {
                rule,
                memo: std::collections::HashMap::new(),
            };
            // Renju judges O (White) as freestyle.
            let mut brute_o = Brute {
                rule: rule.for_stone(banco_rules::caro::board::Stone::O),
                memo: std::collections::HashMap::new(),
            };
            for w in &windows {
                let expected = brute.classify(*w);
                let expected_o = if rule == Rule::Renju {
                    brute_o.classify(*w)
                } else {
                    expected
                };
                let pair = table.pair(key_of(w));
                assert_eq!(PatternTable::unpack(pair, 0), expected, "{rule} X {w:?}");
                // The same window with colours swapped is O's view.
                let swapped = w.map(|c| match c {
                    X_CODE => O_CODE,
                    O_CODE => X_CODE,
                    c => c,
                });
                let o_key = key_of(&swapped);
                assert_eq!(
                    PatternTable::unpack(table.pair(o_key), 1),
                    expected_o,
                    "{rule} O {w:?}"
                );
            }
        }
    }

    /// The brute force's fives agree with the rules' own win detection on a real board.
    #[test]
    fn brute_force_fives_agree_with_winning_line() {
        use banco_rules::caro::board::{Board, Point, Stone};
        use banco_rules::caro::rules::winning_line;
        for rule in Rule::ALL {
            let brute = Brute {
                rule,
                memo: std::collections::HashMap::new(),
            };
            for w in every_window().into_iter().step_by(7) {
                let (line, c) = Brute::line(&w);
                if line.len() < 5 {
                    continue;
                }
                let mut board = Board::new(line.len() as u32, 5).unwrap();
                for (x, code) in line.iter().enumerate() {
                    let p = Point::new(x as u8, 2);
                    match *code {
                        X_CODE => board.place(p, Stone::X),
                        O_CODE => board.place(p, Stone::O),
                        _ => {}
                    }
                }
                let real = winning_line(&board, Point::new(c as u8, 2), rule).is_some();
                assert_eq!(brute.centre(&w).1, real, "{rule} {w:?}");
            }
        }
    }

    #[test]
    fn swap_is_an_involution() {
        for key in [0u32, 0b01_10_11_00, 0xF_FFFF, 0x5_5555] {
            assert_eq!(swap_sides(swap_sides(key)), key);
        }
    }

    #[test]
    fn combos() {
        use Pattern::*;
        assert_eq!(Combo::of([F5, Dead, Dead, Dead]), Combo::Five);
        assert_eq!(Combo::of([B4, B4, Dead, Dead]), Combo::Flex4);
        assert_eq!(Combo::of([B4, F3, Dead, Dead]), Combo::Block4Flex3);
        assert_eq!(Combo::of([F3, F3, B1, Dead]), Combo::Flex3x2);
        assert_eq!(Combo::of([B2, B1, F1, Dead]), Combo::None);
    }
}
