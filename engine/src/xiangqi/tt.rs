//! The transposition table: what earlier searches learned about positions, keyed by
//! Zobrist key. Clusters of four 12-byte entries, one cluster per index; an entry keeps
//! the key's upper 32 bits, the best move, the score and static eval, the depth, and the
//! bound with the search generation that wrote it. Replacement prefers the same position,
//! then the shallowest or oldest entry.

use super::square::Move;

/// What a stored score says about the true score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
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
    /// Depth searched (0 for quiescence).
    depth: u8,
    /// Generation (upper 6 bits) and bound (lower 2; 0 = empty).
    gen_bound: u8,
}

#[derive(Clone, Copy, Default)]
struct Cluster {
    /// Four entries sharing one index, about a cache line.
    entries: [Entry; 4],
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
    /// The depth it was searched to.
    pub depth: i32,
    /// What the score says.
    pub bound: Bound,
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
        self.generation = self.generation.wrapping_add(4);
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
            .find(|e| e.gen_bound & 3 != 0 && e.check == check)
            .map(|e| Hit {
                mv: Move::from_bits(e.mv),
                score: i32::from(e.score),
                eval: i32::from(e.eval),
                depth: i32::from(e.depth),
                bound: match e.gen_bound & 3 {
                    1 => Bound::Upper,
                    2 => Bound::Lower,
                    _ => Bound::Exact,
                },
            })
    }

    /// Stores what a search learned about `key`.
    #[inline]
    pub fn store(
        &mut self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let check = (key >> 32) as u32;
        let generation = self.generation;
        let index = self.index(key);
        let cluster = &mut self.clusters[index];
        let age = |e: &Entry| i32::from(generation.wrapping_sub(e.gen_bound & !3) >> 2);
        let slot = match cluster
            .entries
            .iter()
            .position(|e| e.check == check && e.gen_bound & 3 != 0)
        {
            Some(i) => i,
            None => (0..4)
                .min_by_key(|&i| {
                    let e = &cluster.entries[i];
                    if e.gen_bound & 3 == 0 {
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
            && e.gen_bound & 3 != 0
            && bound != Bound::Exact
            && i32::from(e.depth) > depth + 2
            && age(e) == 0
        {
            e.mv = mv;
            return;
        }
        *e = Entry {
            check,
            mv,
            score: score.clamp(-32000, 32000) as i16,
            eval: eval.clamp(-32000, 32000) as i16,
            depth: depth.clamp(0, 255) as u8,
            gen_bound: generation & !3 | bound as u8,
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
                    .filter(|e| e.gen_bound & 3 != 0 && e.gen_bound & !3 == self.generation & !3)
                    .count()
            })
            .sum();
        (used * 1000 / (sample * 4).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds() {
        let mut t = Table::new(1);
        let mv: Move = "h2e2".parse().unwrap();
        t.store(0xDEAD_BEEF_1234_5678, Some(mv), 55, 10, 7, Bound::Exact);
        let hit = t.probe(0xDEAD_BEEF_1234_5678).unwrap();
        assert_eq!(
            (hit.mv, hit.score, hit.eval, hit.depth, hit.bound),
            (Some(mv), 55, 10, 7, Bound::Exact)
        );
        assert!(t.probe(0x1111_1111_1234_5678).is_none());
        t.clear();
        assert!(t.probe(0xDEAD_BEEF_1234_5678).is_none());
    }
}
