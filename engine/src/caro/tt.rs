//! The transposition table: what the search already knows about a position.
//!
//! Layout: a power-of-two array of 12-byte entries, indexed by the low bits of the
//! Zobrist hash and checked with its high 32 bits. One entry per slot; a new result
//! replaces an old one unless the old one is for the same search generation and deeper.
//! Mate scores are stored relative to the node (distance to mate from here), so an entry
//! is valid at any ply: see [`to_tt`] and [`from_tt`].

use super::position::Cell;

/// What kind of bound a stored score is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Bound {
    /// Nothing stored.
    None = 0,
    /// The score is at most this (no move reached alpha).
    Upper,
    /// The score is at least this (a move reached beta).
    Lower,
    /// The exact score.
    Exact,
}

/// One remembered search result.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// High 32 bits of the position's hash.
    check: u32,
    /// Score, mate-adjusted for storage.
    pub score: i32,
    /// Best move found (`u16::MAX` for none).
    best: u16,
    /// Remaining depth the score was searched to.
    pub depth: i8,
    /// Low 6 bits: search generation; high 2 bits: bound.
    meta: u8,
}

impl Entry {
    const EMPTY: Entry = Entry {
        check: 0,
        score: 0,
        best: u16::MAX,
        depth: 0,
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

    fn generation(&self) -> u8 {
        self.meta & 0x3F
    }

    pub fn best(&self) -> Option<Cell> {
        (self.best != u16::MAX).then_some(usize::from(self.best))
    }
}

/// The table.
pub struct Tt {
    /// `2^bits` entries.
    entries: Vec<Entry>,
    /// Bumped once per search, so old entries give way.
    generation: u8,
}

impl Tt {
    /// A table of `2^bits` entries (12 bytes each).
    pub fn new(bits: u32) -> Tt {
        Tt {
            entries: vec![Entry::EMPTY; 1 << bits],
            generation: 0,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::EMPTY);
        self.generation = 0;
    }

    /// Starts a new search generation.
    pub fn age(&mut self) {
        self.generation = (self.generation + 1) & 0x3F;
    }

    #[inline]
    fn index(&self, hash: u64) -> usize {
        (hash as usize) & (self.entries.len() - 1)
    }

    /// The entry for `hash`, if one is stored.
    #[inline]
    pub fn probe(&self, hash: u64) -> Option<Entry> {
        let e = self.entries[self.index(hash)];
        (e.check == (hash >> 32) as u32 && e.bound() != Bound::None).then_some(e)
    }

    /// Stores a result.
    #[inline]
    pub fn store(&mut self, hash: u64, score: i32, bound: Bound, depth: i32, best: Option<Cell>) {
        let i = self.index(hash);
        let old = self.entries[i];
        let check = (hash >> 32) as u32;
        if old.check != check
            && old.generation() == self.generation
            && i32::from(old.depth) > depth + 2
        {
            return;
        }
        let best = match best {
            Some(c) => c as u16,
            None if old.check == check => old.best,
            None => u16::MAX,
        };
        self.entries[i] = Entry {
            check,
            score,
            best,
            depth: depth.clamp(-100, 100) as i8,
            meta: self.generation | ((bound as u8) << 6),
        };
    }
}

/// Scores at or beyond this are mates.
pub const MATE_BOUND: i32 = super::search::MATE - 1_000;

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
            to_tt(super::super::search::MATE - 7, 3),
            Bound::Exact,
            5,
            Some(42),
        );
        let e = tt.probe(h).unwrap();
        assert_eq!(e.bound(), Bound::Exact);
        assert_eq!(e.best(), Some(42));
        assert_eq!(e.depth, 5);
        // Seen two plies deeper, the same mate is two plies further from the root.
        assert_eq!(from_tt(e.score, 5), super::super::search::MATE - 9);
        // A different position in the same slot does not match.
        assert!(tt.probe(h ^ (1 << 40)).is_none());
    }
}
