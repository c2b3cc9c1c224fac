//! The Dutch criteria packed into one edge weight.
//!
//! C.04.3 ranks candidate pairings by a list of criteria, each only breaking ties of the
//! ones before it. Here each criterion is a field of the edge weight, most important at
//! the top, each wide enough that the sum over a whole matching cannot spill into the
//! field above. A maximum weight matching then optimises them lexicographically, the
//! approach bbpPairings takes. From the top:
//!
//! | field | criterion (C.04.3, 2025) |
//! |---|---|
//! | bye | C5/C6-ish: pair everyone; leave out only a bye candidate (eligible, lowest score) |
//! | pairs in bracket | C6: maximise the pairs in the current bracket |
//! | scores in bracket | C7: maximise the scores paired in the current bracket |
//! | pairs in next | C8: the same for the next bracket, so the rest stays pairable |
//! | scores in next | C8 |
//! | unplayed games | C9: minimise the unplayed games of the bye assignee |
//! | colours (4) | C10-C13: top scorers' colour differences and triple colours, colour preferences, strong preferences |
//! | floats (4) | C14-C17: repeated down/up floats from one and two rounds before |
//! | float scores (4) | C18-C21: the scores of those repeated floaters |
//! | room | the order of exchanges and transpositions (C.04.3 article 4), set by the bracket procedure |
//!
//! Score fields hold one counter per score group (`shift` gives each group's offset),
//! wide enough to count every player of that group.

use super::entrant::{Entrant, Float};
use crate::tournament::Colour;
use crate::wide::Wide;

/// Bit positions and widths of the fields of a round's weights.
#[derive(Clone, Debug)]
pub(super) struct Layout {
    /// Bits to count the players of the largest score group.
    pub group_bits: u32,
    /// Bits of a per-score-group field (sum over groups of each group's count bits).
    pub groups_bits: u32,
    /// Rounds played before this one (floats only count when there are some).
    pub rounds: usize,
    /// Positions of the fields, low bit of each.
    pub bye: u32,
    pub pairs_current: u32,
    pub scores_current: u32,
    pub pairs_next: u32,
    pub scores_next: u32,
    pub unplayed: u32,
    pub colour: [u32; 4],
    pub floats: [u32; 4],
    pub float_scores: [u32; 4],
}

impl Layout {
    /// Lays out the fields for a round with the given score-group sizes.
    pub fn new(group_bits: u32, groups_bits: u32, rounds: usize) -> Layout {
        let s = group_bits;
        let g = groups_bits;
        // Built from the bottom: the room left for exchanges, then the fields in reverse.
        let mut at = 3 * s + 1;
        let mut next = |width: u32| {
            let here = at;
            at += width;
            here
        };
        let mut floats = [0; 4];
        let mut float_scores = [0; 4];
        if rounds > 1 {
            float_scores[3] = next(g);
            float_scores[2] = next(g);
        }
        if rounds > 0 {
            float_scores[1] = next(g);
            float_scores[0] = next(g);
        }
        if rounds > 1 {
            floats[3] = next(s);
            floats[2] = next(s);
        }
        if rounds > 0 {
            floats[1] = next(s);
            floats[0] = next(s);
        }
        let c3 = next(s);
        let c2 = next(s);
        let c1 = next(s);
        let c0 = next(s);
        let unplayed = next(2 * s);
        let scores_next = next(g);
        let pairs_next = next(s);
        let scores_current = next(g);
        let pairs_current = next(s);
        let bye = next(0);
        Layout {
            group_bits,
            groups_bits,
            rounds,
            bye,
            pairs_current,
            scores_current,
            pairs_next,
            scores_next,
            unplayed,
            colour: [c0, c1, c2, c3],
            floats,
            float_scores,
        }
    }

    /// The largest weight of the round (also the weight that locks a finished pair):
    /// all bits below two above the bye field.
    pub fn max_bits(&self) -> u32 {
        self.bye + 2
    }

    /// Where the procedure's own ordering bits sit: the exchange flag.
    pub fn exchange_flag(&self) -> u32 {
        2 * self.group_bits + 1
    }
}

/// What an edge weight needs to know beyond the two players.
pub(super) struct WeightContext<'a> {
    /// The fields.
    pub layout: &'a Layout,
    /// Offset of each score group's counter, by score.
    pub shift: &'a dyn Fn(u32) -> u32,
    /// The score of the player the pairing-allocated bye goes to.
    pub bye_score: u32,
    /// Whether C9 applies: the bye assignee is the only player left over from above.
    pub single_bye_floater: bool,
    /// For C9: the rank of each number of played games among bye candidates.
    pub unplayed_rank: &'a dyn Fn(u32) -> u64,
}

/// Whether the pairing-allocated bye could go to `p` given the bye score.
fn bye_candidate(p: &Entrant, bye_score: u32) -> bool {
    p.bye_eligible && p.now() <= bye_score
}

/// Whether two colour preferences can both be met.
pub(super) fn preferences_compatible(a: Option<Colour>, b: Option<Colour>) -> bool {
    a != b || a.is_none()
}

/// The weight of pairing `higher` (earlier in the score order) with `lower`, where
/// `lower` lies in the current bracket (`in_current`) or the next (`in_next`). Zero when
/// they may not meet (`compatible` false).
pub(super) fn edge_weight<const L: usize>(
    higher: &Entrant,
    lower: &Entrant,
    compatible: bool,
    in_current: bool,
    in_next: bool,
    cx: &WeightContext<'_>,
) -> Wide<L> {
    if !compatible {
        return Wide::ZERO;
    }
    let lay = cx.layout;
    let hs = higher.now();
    let ls = lower.now();
    let mut w = Wide::<L>::ZERO;
    let not_candidates = u64::from(!bye_candidate(higher, cx.bye_score))
        + u64::from(!bye_candidate(lower, cx.bye_score));
    w = w.add_at(lay.bye, 1 + not_candidates);
    if in_current {
        w = w.add_at(lay.pairs_current, 1);
        w = w.add_at(lay.scores_current + (cx.shift)(hs), 1);
    }
    if in_next {
        w = w.add_at(lay.pairs_next, 1);
        w = w.add_at(lay.scores_next + (cx.shift)(hs), 1);
    }
    if cx.single_bye_floater {
        if hs == cx.bye_score {
            w = w.add_at(lay.unplayed, (cx.unplayed_rank)(higher.played_games));
        }
        if ls == cx.bye_score {
            w = w.add_at(lay.unplayed, (cx.unplayed_rank)(lower.played_games));
        }
    }
    if in_current {
        // Colours, seen from the lower player `p` against `o`.
        let (p, o) = (lower, higher);
        let same = p.preference == o.preference;
        let top_difference = !p.absolute_imbalance() || !o.absolute_imbalance() || !same;
        let triple = !p.absolute()
            || !o.absolute()
            || !same
            || if p.imbalance == o.imbalance {
                p.repeated.is_none() || p.repeated != o.repeated
            } else {
                let yielding = if p.imbalance > o.imbalance { o } else { p };
                yielding.repeated != p.preference.map(Colour::other)
            };
        let preference = preferences_compatible(p.preference, o.preference);
        let strong = (!p.strong && !p.absolute())
            || (!o.strong && !o.absolute())
            || (p.absolute() && o.absolute())
            || !same;
        for (at, ok) in lay
            .colour
            .iter()
            .zip([top_difference, triple, preference, strong])
        {
            w = w.add_at(*at, u64::from(ok));
        }
        for back in 0..lay.rounds.min(2) {
            let lf = lower.floats[back];
            let hf = higher.floats[back];
            let down = u64::from(lf == Float::Down) + u64::from(hs <= ls && hf == Float::Down);
            w = w.add_at(lay.floats[2 * back], down);
            let up = !(hs > ls && lf == Float::Up);
            w = w.add_at(lay.floats[2 * back + 1], u64::from(up));
            let at = lay.float_scores[2 * back];
            w = w.add_at(at + (cx.shift)(ls), u64::from(lf == Float::Down));
            w = w.add_at(at + (cx.shift)(hs), u64::from(hf == Float::Down));
            if up {
                w = w.add_at(lay.float_scores[2 * back + 1] + (cx.shift)(hs), 1);
            }
        }
    }
    w
}
