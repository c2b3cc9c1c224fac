//! The Dutch criteria packed into one edge weight.
//!
//! C.04.3 ranks candidate pairings by a list of criteria, each only breaking ties of the
//! ones before it. Here each criterion is a field of the edge weight, most important at
//! the top, each wide enough that the sum over a whole matching cannot spill into the
//! field above. A maximum weight matching then optimises them lexicographically, the
//! approach bbpPairings takes. From the top:
//!
//! | field | what the matching maximises |
//! |---|---|
//! | bye | completion: everyone paired but at most one player who may have the bye, the lowest scorer possible |
//! | pairs in bracket | the number of pairs in the current bracket |
//! | scores in bracket | the scores paired there (the fewest and lowest downfloaters) |
//! | pairs, scores in next | the same for the next bracket, so that the floaters can be paired |
//! | unplayed games | the played games of the bye assignee (C9: fewest unplayed) |
//! | colours (4) | top scorers: no colour difference over 2, no third colour in a row; then colour preferences met; then strong ones |
//! | floats (4) | no downfloat or upfloat repeated from the last round, then from the one before |
//! | float scores (4) | the lowest scores among those repeated floaters |
//! | room | the Dutch order of exchanges and transpositions, set by the bracket procedure |
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
    /// Low bit of the bye field (the top field: 1 plus the non-candidates of a pair).
    pub bye: u32,
    /// Low bit of the count of pairs in the current bracket.
    pub pairs_current: u32,
    /// Low bit of the per-score-group counts of pairs in the current bracket.
    pub scores_current: u32,
    /// Low bit of the count of pairs in the next bracket.
    pub pairs_next: u32,
    /// Low bit of the per-score-group counts of pairs in the next bracket.
    pub scores_next: u32,
    /// Low bit of the bye assignee's played-games rank (C9).
    pub unplayed: u32,
    /// Low bits of the four colour fields, most important first.
    pub colour: [u32; 4],
    /// Low bits of: downfloat and upfloat repeated from the last round, then from the
    /// round before.
    pub floats: [u32; 4],
    /// Low bits of the per-score-group fields of the same four floats.
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
