//! The transposition table: what earlier searches learned about positions, keyed by
//! Zobrist key. Clusters of five 12-byte entries, each cluster one 64-byte cache line (a
//! probe costs one memory access); an entry keeps
//! the key's upper 32 bits, the best move, the score and static eval, the depth, and a
//! flag byte: the bound, whether the position was on a principal variation, and the
//! search generation that wrote it. An entry may hold only a static evaluation
//! ([`Bound::None`], score [`NO_SCORE`]). Replacement prefers the same position, then the
//! shallowest or oldest entry.

use banco_rules::xiangqi::square::Move;

/// What a stored score says about the true score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// No score, only the static evaluation.
    None = 0,
    /// The score is at most this (every move failed low).
    Upper = 1,
    /// The score is at least this (a move failed high).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    /// Upper 32 bits of the key (the lower bits chose the cluster).
    check: u32,
    /// Best move found, or 0.
    mv: u16,
    /// The search's score (mate scores relative to this node).
    score: i16,
    /// The static evaluation, saved so a hit spares recomputing it.
    eval: i16,
    /// Depth searched plus [`DEPTH_OFFSET`]; 0 = an empty slot.
    depth: u8,
    /// Generation (upper 5 bits), principal variation (bit 2) and bound (lower 2).
    gen_bound: u8,
}

/// Stored depths are shifted by this, so that quiescence (depth 0) and evaluation-only
/// entries (depth -1) are told apart from an empty slot.
const DEPTH_OFFSET: i32 = 2;
/// The depth of an entry that holds only a static evaluation.
pub const DEPTH_NONE: i32 = -1;
/// The score of an entry that holds only a static evaluation.
pub const NO_SCORE: i32 = 32_002;
/// Generations count in steps of this (the low bits hold the bound and the PV flag).
const GENERATION_STEP: u8 = 8;

#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Cluster {
    /// Five entries sharing one index, in one cache line.
    entries: [Entry; 5],
}

/// A probe hit.
#[derive(Debug, Clone, Copy)]
pub struct Hit {
    /// The best move found, if any.
    pub mv: Option<Move>,
    /// The stored score (mate scores relative to the node).
    pub score: i32,
    /// The stored static evaluation.
    pub eval: i32,
    /// The depth it was searched to ([`DEPTH_NONE`] for an evaluation only).
    pub depth: i32,
    /// What the score says.
    pub bound: Bound,
    /// The position was on a principal variation when stored.
    pub pv: bool,
}

/// The table. Its size is fixed at creation (or [`Table::resize`]).
pub struct Table {
    /// The clusters; the index is the key scaled into their count.
    clusters: Vec<Cluster>,
    /// Bumped at each new search, so old entries are replaced first.
    generation: u8,
}

impl Table {
    /// A table of about `mb` megabytes (at least one cluster).
    pub fn new(mb: usize) -> Table {
        let n = (mb * 1024 * 1024 / std::mem::size_of::<Cluster>()).max(1);
        Table {
            clusters: vec![Cluster::default(); n],
            generation: 0,
        }
    }

    pub fn resize(&mut self, mb: usize) {
        *self = Table::new(mb);
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.clusters.fill(Cluster::default());
        self.generation = 0;
    }

    /// Marks the start of a new search.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(GENERATION_STEP);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((u128::from(key as u32) * self.clusters.len() as u128) >> 32) as usize
    }

    /// What the table knows about `key`.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let check = (key >> 32) as u32;
        let cluster = &self.clusters[self.index(key)];
        cluster
            .entries
            .iter()
            .find(|e| e.depth != 0 && e.check == check)
            .map(|e| Hit {
                mv: Move::from_bits(e.mv),
                score: i32::from(e.score),
                eval: i32::from(e.eval),
                depth: i32::from(e.depth) - DEPTH_OFFSET,
                bound: match e.gen_bound & 3 {
                    0 => Bound::None,
                    1 => Bound::Upper,
                    2 => Bound::Lower,
                    _ => Bound::Exact,
                },
                pv: e.gen_bound & 4 != 0,
            })
    }

    /// Stores what a search learned about `key`. `pv`: the position is or was on a
    /// principal variation.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        let check = (key >> 32) as u32;
        let generation = self.generation;
        let index = self.index(key);
        let cluster = &mut self.clusters[index];
        let age =
            |e: &Entry| i32::from(generation.wrapping_sub(e.gen_bound & !7) / GENERATION_STEP);
        let slot = match cluster
            .entries
            .iter()
            .position(|e| e.check == check && e.depth != 0)
        {
            Some(i) => i,
            None => (0..cluster.entries.len())
                .min_by_key(|&i| {
                    let e = &cluster.entries[i];
                    if e.depth == 0 {
                        i32::MIN
                    } else {
                        i32::from(e.depth) - 8 * age(e)
                    }
                })
                .unwrap_or(0),
        };
        let e = &mut cluster.entries[slot];
        // Keep a known best move when the new result has none for the same position.
        let mv = match mv {
            Some(m) => m.bits(),
            None if e.check == check => e.mv,
            None => 0,
        };
        // Do not let a shallow non-exact result overwrite a deeper one of this search.
        if e.check == check
            && e.depth != 0
            && bound != Bound::Exact
            && i32::from(e.depth) - DEPTH_OFFSET > depth + 2
            && age(e) == 0
        {
            e.mv = mv;
            return;
        }
        *e = Entry {
            check,
            mv,
            score: score.clamp(-32_002, 32_002) as i16,
            eval: eval.clamp(-32_002, 32_002) as i16,
            depth: (depth + DEPTH_OFFSET).clamp(1, 255) as u8,
            gen_bound: generation & !7 | u8::from(pv) << 2 | bound as u8,
        };
    }

    /// How full the table is, in permille, from a sample (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.clusters.len().min(250);
        let used: usize = self.clusters[..sample]
            .iter()
            .map(|c| {
                c.entries
                    .iter()
                    .filter(|e| e.depth != 0 && e.gen_bound & !7 == self.generation & !7)
                    .count()
            })
            .sum();
        (used * 1000 / (sample * 5).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds() {
        let mut t = Table::new(1);
        let mv: Move = "h2e2".parse().unwrap();
        t.store(
            0xDEAD_BEEF_1234_5678,
            Some(mv),
            55,
            10,
            7,
            Bound::Exact,
            true,
        );
        let hit = t.probe(0xDEAD_BEEF_1234_5678).unwrap();
        assert_eq!(
            (hit.mv, hit.score, hit.eval, hit.depth, hit.bound, hit.pv),
            (Some(mv), 55, 10, 7, Bound::Exact, true)
        );
        // An evaluation-only entry is found, and says it has no score.
        t.store(0x1234, None, NO_SCORE, -40, DEPTH_NONE, Bound::None, false);
        let hit = t.probe(0x1234).unwrap();
        assert_eq!(
            (hit.mv, hit.score, hit.eval, hit.depth, hit.bound, hit.pv),
            (None, NO_SCORE, -40, DEPTH_NONE, Bound::None, false)
        );
        assert!(t.probe(0x1111_1111_1234_5678).is_none());
        t.clear();
        assert!(t.probe(0xDEAD_BEEF_1234_5678).is_none());
    }
}
