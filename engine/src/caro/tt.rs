//! The transposition table: what the search already knows about a position.
//!
//! Layout: a power-of-two array of two-entry buckets (32 bytes), indexed by the low bits
//! of the Zobrist hash; an entry is recognised by the high 32 bits. A new result goes to
//! the entry holding the same position, else to the less valuable of the two (older
//! generation first, then shallower). Each entry keeps the search score with its bound
//! and depth, the best move, the static evaluation (so a revisited node need not
//! evaluate again) and whether the node was on a principal variation. Mate scores are
//! stored relative to the node (distance to mate from here), so an entry is valid at any
//! ply: see [`to_tt`] and [`from_tt`].

use super::position::Cell;

/// What kind of bound a stored score is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Bound {
    /// No score stored (the entry may still hold an evaluation).
    None = 0,
    /// The score is at most this (no move reached alpha).
    Upper,
    /// The score is at least this (a move reached beta).
    Lower,
    /// The exact score.
    Exact,
}

/// The static evaluation slot of an entry that has none.
pub const NO_EVAL: i16 = i16::MIN;

/// One remembered search result.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// High 32 bits of the position's hash.
    check: u32,
    /// Score, mate-adjusted for storage.
    pub score: i32,
    /// Static evaluation of the position ([`NO_EVAL`] if not stored).
    pub eval: i16,
    /// Best move found (`u16::MAX` for none).
    best: u16,
    /// Remaining depth the score was searched to, in whole plies.
    pub depth: i8,
    /// Bits 0-4: search generation; bit 5: on a principal variation; bits 6-7: bound.
    meta: u8,
}

impl Entry {
    const EMPTY: Entry = Entry {
        check: 0,
        score: 0,
        eval: NO_EVAL,
        best: u16::MAX,
        depth: i8::MIN,
        meta: 0,
    };

    pub fn bound(&self) -> Bound {
        match self.meta >> 6 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        }
    }

    /// Whether the node was on a principal variation when stored.
    pub fn is_pv(&self) -> bool {
        self.meta & 0x20 != 0
    }

    fn generation(&self) -> u8 {
        self.meta & 0x1F
    }

    pub fn best(&self) -> Option<Cell> {
        (self.best != u16::MAX).then_some(usize::from(self.best))
    }
}

/// What [`Tt::store`] writes.
#[derive(Debug, Clone, Copy)]
pub struct Record {
    /// The score, already passed through [`to_tt`].
    pub score: i32,
    /// Its bound ([`Bound::None`] when only the evaluation is worth keeping).
    pub bound: Bound,
    /// Remaining depth in whole plies.
    pub depth: i32,
    /// The best move, if one is known.
    pub best: Option<Cell>,
    /// The static evaluation, if computed.
    pub eval: Option<i32>,
    /// Whether the node is on a principal variation.
    pub pv: bool,
}

/// The table.
pub struct Tt {
    /// `2^bits` buckets of two entries.
    buckets: Vec<[Entry; 2]>,
    /// Bumped once per search, so old entries give way.
    generation: u8,
}

/// What one bucket of the table costs, for callers that size the table by memory.
pub const BUCKET_BYTES: usize = std::mem::size_of::<[Entry; 2]>();

impl Tt {
    /// A table of `2^bits` buckets ([`BUCKET_BYTES`] each).
    pub fn new(bits: u32) -> Tt {
        Tt {
            buckets: crate::memory::table(1 << bits, [Entry::EMPTY; 2]),
            generation: 0,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.buckets.fill([Entry::EMPTY; 2]);
        self.generation = 0;
    }

    /// Starts a new search generation.
    pub fn age(&mut self) {
        self.generation = (self.generation + 1) & 0x1F;
    }

    #[inline]
    fn index(&self, hash: u64) -> usize {
        (hash as usize) & (self.buckets.len() - 1)
    }

    /// Asks the processor to start loading `hash`'s bucket, so that a probe soon after
    /// (the child node's, once the move is made) finds it in cache rather than waiting on
    /// memory: the table is far larger than any cache.
    #[inline]
    #[allow(unsafe_code)]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const [Entry; 2] = &self.buckets[self.index(hash)];
            // SAFETY: a prefetch is only a hint; it reads nothing the program sees and cannot
            // fault, and the pointer is to a live bucket anyway. SSE is part of x86-64.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// The entry for `hash`, if one is stored.
    #[inline]
    pub fn probe(&self, hash: u64) -> Option<Entry> {
        let check = (hash >> 32) as u32;
        self.buckets[self.index(hash)]
            .iter()
            .find(|e| e.check == check && e.depth != i8::MIN)
            .copied()
    }

    /// Stores a result for `hash`.
    #[inline]
    pub fn store(&mut self, hash: u64, r: Record) {
        let generation = self.generation;
        let check = (hash >> 32) as u32;
        let i = self.index(hash);
        let bucket = &mut self.buckets[i];
        let slot = match bucket.iter().position(|e| e.check == check) {
            Some(k) => k,
            None => {
                // Replace the entry worth less: an older search's, else the shallower.
                let worth = |e: &Entry| {
                    let age = i32::from((generation.wrapping_sub(e.generation())) & 0x1F);
                    i32::from(e.depth) - 8 * age
                };
                usize::from(worth(&bucket[1]) < worth(&bucket[0]))
            }
        };
        let old = bucket[slot];
        let same = old.check == check;
        // Keep a deeper result of the same position from this search unless the new one is
        // exact.
        if same
            && r.bound != Bound::Exact
            && old.generation() == generation
            && i32::from(old.depth) > r.depth + 3
            && old.bound() != Bound::None
        {
            return;
        }
        let best = match r.best {
            Some(c) => c as u16,
            None if same => old.best,
            None => u16::MAX,
        };
        let eval = match r.eval {
            Some(v) => v.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16,
            None if same => old.eval,
            None => NO_EVAL,
        };
        bucket[slot] = Entry {
            check,
            score: r.score,
            eval,
            best,
            depth: r.depth.clamp(-100, 100) as i8,
            meta: generation | (u8::from(r.pv) << 5) | ((r.bound as u8) << 6),
        };
    }
}

/// Scores at or beyond this are mates.
pub const MATE_BOUND: i32 = super::engine::MATE - 1_000;

/// A score as stored: mates counted from this node, not from the root.
#[inline]
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score read back at `ply`.
#[inline]
pub fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_probe_and_mate_adjust() {
        let mut tt = Tt::new(10);
        let h = 0xDEAD_BEEF_1234_5678;
        assert!(tt.probe(h).is_none());
        tt.store(
            h,
            Record {
                score: to_tt(super::super::engine::MATE - 7, 3),
                bound: Bound::Exact,
                depth: 5,
                best: Some(42),
                eval: Some(-31),
                pv: true,
            },
        );
        let e = tt.probe(h).unwrap();
        assert_eq!(e.bound(), Bound::Exact);
        assert_eq!(e.best(), Some(42));
        assert_eq!(e.depth, 5);
        assert_eq!(e.eval, -31);
        assert!(e.is_pv());
        // Seen two plies deeper, the same mate is two plies further from the root.
        assert_eq!(from_tt(e.score, 5), super::super::engine::MATE - 9);
        // A different position in the same bucket does not match...
        let other = h ^ (1 << 40);
        assert!(tt.probe(other).is_none());
        // ...and takes the bucket's other entry, keeping the first.
        let shallow = Record {
            score: 12,
            bound: Bound::Lower,
            depth: 1,
            best: None,
            eval: None,
            pv: false,
        };
        tt.store(other, shallow);
        assert_eq!(tt.probe(other).unwrap().score, 12);
        assert_eq!(tt.probe(other).unwrap().eval, NO_EVAL);
        assert_eq!(tt.probe(h).unwrap().best(), Some(42));
        // A third position replaces the shallower of the two.
        let third = h ^ (2 << 40);
        tt.store(third, shallow);
        assert!(tt.probe(other).is_none());
        assert!(tt.probe(h).is_some());
    }
}
