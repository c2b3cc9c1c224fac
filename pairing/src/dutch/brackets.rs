//! The bracket-by-bracket procedure: one maximum weight matching over all players,
//! refined bracket by bracket from the top score group down.
//!
//! Weights (see [`super::weights`]) already rank whole pairings by the quality criteria.
//! What they cannot say is the Dutch order among pairings that tie on every criterion:
//! which moved-down players to pair (the highest first), which players to exchange
//! between S1 and S2 (as few, and as close to the S1/S2 border, as possible) and which
//! transposition of S2 to take (the first). Each such choice is settled one player at a
//! time: nudge that player's edges by one unit in the low "room" bits, solve again, and
//! keep the choice if the optimum still allows it. Settled pairs are locked with the
//! largest weight and every other edge of their players cleared.
//!
//! Vocabulary: the *bracket* holds the moved-down players (MDPs) first, then the
//! *residents* (the score group), then the *next* score group appended for look-ahead.
//! Players are *vertices*, numbered by their place in the score order.

use super::entrant::Entrant;
use super::weights::{Layout, WeightContext, edge_weight};
use crate::matching::Matcher;
use crate::wide::Wide;

/// Everything fixed for the round.
pub(super) struct Setup<'a> {
    /// Players to pair, in score order (score down, then effective pairing number).
    pub players: &'a [Entrant],
    /// `may_meet[u * n + v]`: no absolute criterion forbids u-v.
    pub may_meet: &'a [bool],
    /// The weight fields.
    pub layout: &'a Layout,
    /// Offset of each score group's counter, by score.
    pub shift: &'a dyn Fn(u32) -> u32,
    /// An odd number of players: one of them gets the pairing-allocated bye.
    pub odd: bool,
}

/// The procedure failed: no pairing satisfies the absolute criteria.
pub(super) struct NoPairing;

/// Pairs the players; returns each vertex's opponent vertex (`None` for the bye).
pub(super) fn pair<const L: usize>(setup: &Setup<'_>) -> Result<Vec<Option<usize>>, NoPairing> {
    let mut run = Run::<L>::new(setup);
    run.first_solve()?;
    run.brackets();
    Ok(run.partner)
}

/// The state of one pairing run.
struct Run<'a, const L: usize> {
    /// The fixed inputs.
    setup: &'a Setup<'a>,
    /// Number of players.
    n: usize,
    /// The matcher over all players.
    matcher: Matcher<L>,
    /// The weight that locks a settled pair.
    lock: Wide<L>,
    /// Score of the player the bye goes to (meaningful when `setup.odd`).
    bye_score: u32,
    /// C9 in force for the bracket at hand.
    single_bye_floater: bool,
    /// Rank of each number of played games among the players with the bye score.
    unplayed_rank: Vec<(u32, u64)>,
    /// Settled pairs: each vertex's partner.
    partner: Vec<Option<usize>>,
    /// Vertices whose pairing is settled in the bracket at hand.
    matched: Vec<bool>,
}

impl<'a, const L: usize> Run<'a, L> {
    fn new(setup: &'a Setup<'a>) -> Self {
        let n = setup.players.len();
        Run {
            setup,
            n,
            matcher: Matcher::new(n),
            lock: Wide::ones(setup.layout.max_bits()),
            bye_score: 0,
            single_bye_floater: false,
            unplayed_rank: Vec::new(),
            partner: vec![None; n],
            matched: vec![false; n],
        }
    }

    fn score(&self, v: usize) -> u32 {
        self.setup.players[v].now()
    }

    fn may_meet(&self, u: usize, v: usize) -> bool {
        self.setup.may_meet[u * self.n + v]
    }

    /// The vertex matched to `v` in the last solve, or `v` itself.
    fn mate(&self, v: usize) -> usize {
        self.matcher.mate(v).unwrap_or(v)
    }

    /// The weight of `higher`-`lower` with `lower` in the current or next bracket.
    fn weight(&self, higher: usize, lower: usize, in_current: bool, in_next: bool) -> Wide<L> {
        let ranks = &self.unplayed_rank;
        let rank_of = |games: u32| -> u64 {
            ranks
                .iter()
                .find(|(g, _)| *g == games)
                .map_or(0, |&(_, r)| r)
        };
        let cx = WeightContext {
            layout: self.setup.layout,
            shift: self.setup.shift,
            bye_score: self.bye_score,
            single_bye_floater: self.single_bye_floater,
            unplayed_rank: &rank_of,
        };
        edge_weight(
            &self.setup.players[higher],
            &self.setup.players[lower],
            self.may_meet(higher, lower),
            in_current,
            in_next,
            &cx,
        )
    }

    /// Checks that everybody can be paired (all but one bye candidate when odd), finds
    /// the bye score, and sets the weights every later bracket starts from.
    fn first_solve(&mut self) -> Result<(), NoPairing> {
        let n = self.n;
        let players = self.setup.players;
        let lay = self.setup.layout;
        let top = if n > 0 { self.score(0) } else { 0 };
        for v in 0..n {
            for u in 0..v {
                let w = if self.setup.odd {
                    if self.may_meet(u, v) {
                        let not_eligible = u64::from(!players[v].bye_eligible)
                            + u64::from(!players[u].bye_eligible);
                        let shifts = u64::from((self.setup.shift)(self.score(v)))
                            + u64::from((self.setup.shift)(self.score(u)));
                        Wide::ZERO
                            .add_at(lay.group_bits + lay.groups_bits, 1 + not_eligible)
                            .add_at(lay.group_bits, shifts)
                            .add_at(0, u64::from(self.score(v) >= top))
                    } else {
                        Wide::ZERO
                    }
                } else {
                    self.weight(u, v, false, false)
                };
                self.matcher.set_weight(v, u, w);
            }
        }
        self.matcher.solve();
        let mut left_over = None;
        for (v, player) in players.iter().enumerate() {
            if self.matcher.mate(v).is_none() {
                if left_over.is_some() || !player.bye_eligible {
                    return Err(NoPairing);
                }
                left_over = Some(v);
            }
        }
        if !self.setup.odd {
            return Ok(());
        }
        let Some(bye) = left_over else {
            return Err(NoPairing);
        };
        self.bye_score = self.score(bye);
        self.single_bye_floater = self.bye_score >= top
            && (0..n)
                .take_while(|&v| self.score(v) >= top)
                .all(|v| self.score(self.mate(v)) >= top);
        let mut games: Vec<u32> = (0..n)
            .filter(|&v| self.score(v) == self.bye_score)
            .map(|v| players[v].played_games)
            .collect();
        games.sort_unstable_by(|a, b| b.cmp(a));
        for (rank, g) in games.into_iter().enumerate() {
            match self.unplayed_rank.iter_mut().find(|(x, _)| *x == g) {
                Some(entry) => entry.1 = rank as u64,
                None => self.unplayed_rank.push((g, rank as u64)),
            }
        }
        for v in 0..n {
            for u in 0..v {
                let w = self.weight(u, v, false, false);
                self.matcher.set_weight(v, u, w);
            }
        }
        Ok(())
    }

    /// Locks `a`-`b` as a pair.
    fn lock_pair(&mut self, a: usize, b: usize) {
        for u in 0..self.n {
            if u != a {
                let w = if u == b { self.lock } else { Wide::ZERO };
                self.matcher.set_weight(a, u, w);
            }
            if u != b {
                let w = if u == a { self.lock } else { Wide::ZERO };
                self.matcher.set_weight(b, u, w);
            }
        }
    }

    /// Pairs bracket after bracket, top score group first.
    fn brackets(&mut self) {
        let n = self.n;
        if n == 0 {
            return;
        }
        // `bracket` lists vertices: MDPs, residents, then (during a pass) the next group.
        let mut bracket: Vec<usize> = Vec::new();
        let mut next = 0;
        let top = self.score(0);
        while next < n && self.score(next) >= top {
            bracket.push(next);
            next += 1;
        }
        let mut mdps = 0; // number of moved-down players at the front of `bracket`
        let mut residents_from = 0; // first resident's vertex

        while bracket.len() > 1 || next < n {
            let next_from_index = bracket.len();
            let next_from = residents_from + (next_from_index - mdps);
            let group_start = next;
            while next < n && self.score(next) >= self.score(group_start) {
                bracket.push(next);
                next += 1;
            }
            let b = Bracket {
                vertices: bracket.clone(),
                mdps,
                next_from_index,
                residents_from,
                next_from,
            };
            self.pair_bracket(&b);

            // The unpaired players of this bracket move down into the next.
            let mut following = Vec::new();
            let mut moved = 0;
            self.single_bye_floater =
                self.setup.odd && group_start < n && self.bye_score >= self.score(group_start);
            for (index, &v) in bracket.iter().enumerate() {
                if index < next_from_index && self.matched[v] {
                    let m = self.mate(v);
                    self.partner[v] = Some(m);
                    self.partner[m] = Some(v);
                } else {
                    following.push(v);
                    if index < next_from_index {
                        moved += 1;
                    }
                    if self.single_bye_floater && self.score(self.mate(v)) < self.score(group_start)
                    {
                        self.single_bye_floater = false;
                    }
                }
            }
            bracket = following;
            mdps = moved;
            residents_from = next_from;
        }
    }

    /// Settles the pairs of one bracket.
    fn pair_bracket(&mut self, b: &Bracket) {
        let mut base = self.base_weights(b);
        for j in b.mdps..b.vertices.len() {
            for i in 0..j {
                self.matcher
                    .set_weight(b.vertices[j], b.vertices[i], base.get(j, i));
            }
        }
        self.matcher.solve();
        self.choose_moved_down(b, &base);
        self.pair_moved_down(b, &base);
        self.pair_remainder(b, &mut base);
    }

    /// Weights of every pair with its lower player among the residents or the next group.
    fn base_weights(&self, b: &Bracket) -> BaseWeights<L> {
        let mut rows = Vec::with_capacity(b.vertices.len());
        for j in 0..b.vertices.len() {
            let mut row = Vec::new();
            if j >= b.mdps {
                row.reserve(j);
                for i in 0..j {
                    let in_current = j < b.next_from_index;
                    row.push(self.weight(b.vertices[i], b.vertices[j], in_current, !in_current));
                }
            }
            rows.push(row);
        }
        BaseWeights { rows }
    }

    /// Decides which MDPs are paired in this bracket: as many of each score as the
    /// optimum allows, the highest-ranked first.
    fn choose_moved_down(&mut self, b: &Bracket, base: &BaseWeights<L>) {
        let residents = b.next_from_index - b.mdps;
        let mut i = 0;
        while i < b.mdps {
            let score = self.score(b.vertices[i]);
            let same: Vec<usize> = (i..b.mdps)
                .take_while(|&k| self.score(b.vertices[k]) >= score)
                .collect();
            let mut remaining = same.len();
            let mut can_match = same
                .iter()
                .filter(|&&k| b.is_resident(self.mate(b.vertices[k])))
                .count();
            for &k in &same {
                if can_match == 0 {
                    break;
                }
                let v = b.vertices[k];
                if remaining <= can_match {
                    self.matched[v] = true;
                    continue;
                }
                remaining -= 1;
                if !b.is_resident(self.mate(v)) {
                    // Try to pair this one: its edges to residents gain one unit.
                    for opp in b.mdps..b.next_from_index {
                        let w = base.get(opp, k);
                        if !w.is_zero() {
                            self.matcher.set_weight(v, b.vertices[opp], w.add_small(1));
                        }
                    }
                    self.matcher.solve();
                }
                if b.is_resident(self.mate(v)) {
                    self.matched[v] = true;
                    can_match -= 1;
                    for opp in b.mdps..b.next_from_index {
                        let w = base.get(opp, k);
                        if !w.is_zero() {
                            let w = w.add_small(residents as u64 + 1);
                            self.matcher.set_weight(v, b.vertices[opp], w);
                        }
                    }
                }
            }
            i += same.len();
        }
    }

    /// Pairs each chosen MDP, in order, with the highest resident the optimum allows.
    fn pair_moved_down(&mut self, b: &Bracket, base: &BaseWeights<L>) {
        for k in 0..b.mdps {
            let v = b.vertices[k];
            if !self.matched[v] {
                continue;
            }
            let mut addend = b.vertices.len() as u64;
            for opp in (b.mdps..b.next_from_index).rev() {
                let ov = b.vertices[opp];
                if self.matched[ov] {
                    continue;
                }
                let w = base.get(opp, k);
                if !w.is_zero() {
                    self.matcher.set_weight(v, ov, w.add_small(addend));
                    addend += 1;
                }
            }
            self.matcher.solve();
            let m = self.mate(v);
            self.matched[m] = true;
            self.lock_pair(v, m);
        }
    }

    /// Pairs the residents left after the MDPs: the fewest exchanges between S1 and S2,
    /// the closest to the S1/S2 border, then the first transposition.
    fn pair_remainder(&mut self, b: &Bracket, base: &mut BaseWeights<L>) {
        let mut remainder = Vec::new();
        let mut pairs = 0;
        for index in b.mdps..b.next_from_index {
            let v = b.vertices[index];
            let m = self.mate(v);
            if m < b.residents_from {
                continue;
            }
            remainder.push(index);
            if m < v {
                pairs += 1;
            }
        }
        let flag_at = self.setup.layout.exchange_flag();
        // The weight with the exchange preferences: S1 players paired forward count, and
        // the lower an S1 player sits, the better it is to exchange them.
        let ordered = |base: &BaseWeights<L>, smaller: usize, larger: usize, place: usize| {
            let w = base.get(larger, smaller);
            if w.is_zero() {
                w
            } else {
                w.add_at(flag_at, u64::from(place < pairs))
                    .sub_small(2 * place as u64)
            }
        };
        for (oi, &opp) in remainder.iter().enumerate() {
            for (place, &player) in remainder[..oi].iter().enumerate() {
                let w = ordered(base, player, opp, place);
                self.matcher
                    .set_weight(b.vertices[player], b.vertices[opp], w);
            }
        }
        self.matcher.solve();
        let forward = |run: &Self, index: usize| {
            let v = b.vertices[index];
            let m = run.mate(v);
            m > v && m < b.next_from
        };
        let exchanges = remainder[..pairs]
            .iter()
            .filter(|&&p| !forward(self, p))
            .count();

        // Exchange out of S1 the lowest S1 players that can be.
        let mut left = exchanges;
        let mut pos = pairs;
        while pos > 0 && left > 0 {
            pos -= 1;
            let player = remainder[pos];
            let v = b.vertices[player];
            if forward(self, player) {
                for &opp in &remainder[pos + 1..] {
                    let w = ordered(base, player, opp, pos);
                    if !w.is_zero() {
                        self.matcher.set_weight(v, b.vertices[opp], w.sub_small(1));
                    }
                }
                self.matcher.solve();
            }
            let exchanged = !forward(self, player);
            if exchanged {
                left -= 1;
            }
            for &opp in &remainder[pos + 1..] {
                if exchanged {
                    base.clear(opp, player);
                }
                let w = ordered(base, player, opp, pos);
                self.matcher.set_weight(v, b.vertices[opp], w);
            }
        }

        // Exchange into S1 the highest S2 players that can be.
        let mut left = exchanges;
        let mut pos = pairs;
        while pos < remainder.len() && left > 1 {
            let player = remainder[pos];
            let v = b.vertices[player];
            let already = forward(self, player);
            if !already {
                for &opp in &remainder[pos + 1..] {
                    let w = ordered(base, player, opp, pos);
                    if !w.is_zero() {
                        self.matcher.set_weight(v, b.vertices[opp], w.add_small(1));
                    }
                }
                self.matcher.solve();
            }
            if forward(self, player) {
                left -= 1;
                for &opp in &remainder[..pos] {
                    base.clear(player, opp);
                    self.matcher.set_weight(v, b.vertices[opp], Wide::ZERO);
                }
                for opp in b.next_from_index..b.vertices.len() {
                    base.clear(opp, player);
                    self.matcher.set_weight(v, b.vertices[opp], Wide::ZERO);
                }
            }
            if !already {
                for &opp in &remainder[pos + 1..] {
                    let w = ordered(base, player, opp, pos);
                    self.matcher.set_weight(v, b.vertices[opp], w);
                }
            }
            pos += 1;
        }

        // Fix who is in S1 (paired forward) and who in S2; drop the ordering bits.
        for (pi, &player) in remainder.iter().enumerate() {
            let v = b.vertices[player];
            let player_forward = forward(self, player);
            for &opp in &remainder[pi + 1..] {
                if !player_forward || forward(self, opp) {
                    base.clear(opp, player);
                }
                self.matcher
                    .set_weight(v, b.vertices[opp], base.get(opp, player));
            }
        }

        // Each S1 player, in order, takes the first S2 player the optimum allows.
        for &player in &remainder {
            if !forward(self, player) {
                continue;
            }
            let v = b.vertices[player];
            let mut addend = 0u64;
            for &opp in remainder.iter().rev() {
                let ov = b.vertices[opp];
                if opp <= player || self.matched[ov] {
                    continue;
                }
                let w = base.get(opp, player);
                if !w.is_zero() {
                    self.matcher.set_weight(v, ov, w.add_small(addend));
                }
                addend += 1;
            }
            self.matcher.solve();
            let m = self.mate(v);
            self.matched[v] = true;
            self.matched[m] = true;
            self.lock_pair(v, m);
        }
    }
}

/// One bracket during its pass.
struct Bracket {
    /// MDPs, residents, then the next score group.
    vertices: Vec<usize>,
    /// How many MDPs lead the list.
    mdps: usize,
    /// Index in `vertices` where the next score group starts.
    next_from_index: usize,
    /// Vertex of the first resident.
    residents_from: usize,
    /// Vertex of the first player of the next score group.
    next_from: usize,
}

impl Bracket {
    /// Whether vertex `v` is a resident of this bracket.
    fn is_resident(&self, v: usize) -> bool {
        v >= self.residents_from && v < self.next_from
    }
}

/// The bracket's base weights, `rows[larger][smaller]` by bracket index; rows of MDPs are
/// empty (their mutual edges keep their earlier weights).
struct BaseWeights<const L: usize> {
    /// The weights.
    rows: Vec<Vec<Wide<L>>>,
}

impl<const L: usize> BaseWeights<L> {
    fn get(&self, larger: usize, smaller: usize) -> Wide<L> {
        self.rows
            .get(larger)
            .and_then(|row| row.get(smaller))
            .copied()
            .unwrap_or(Wide::ZERO)
    }

    fn clear(&mut self, larger: usize, smaller: usize) {
        if let Some(w) = self
            .rows
            .get_mut(larger)
            .and_then(|row| row.get_mut(smaller))
        {
            *w = Wide::ZERO;
        }
    }
}
