//! Zobrist keys for caro positions: one 64-bit key per (cell, stone) on the largest board.
//!
//! Keys are indexed by the cell's position on a 64x64 grid, not by the board's own
//! indexing, so the same stone on the same point has the same key on every board size.
//! They are generated at compile time by splitmix64 from a fixed seed: hashes are
//! reproducible across runs and machines (useful for opening books and test fixtures).

use super::board::{MAX_SIDE, Point, Stone};

const GRID: usize = MAX_SIDE as usize;
const KEYS: usize = GRID * GRID * 2;

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn generate() -> [u64; KEYS] {
    let mut keys = [0u64; KEYS];
    let mut state = 0x0BA4_C0C0_CA20_u64;
    let mut i = 0;
    while i < KEYS {
        let (next, key) = splitmix64(state);
        state = next;
        keys[i] = key;
        i += 1;
    }
    keys
}

static STONE_KEYS: [u64; KEYS] = generate();

/// XOR this in when it is O's turn, for searches that hash the side to move separately.
pub const SIDE_KEY: u64 = splitmix64(0x51DE).1;

/// The key of `stone` standing on `p`.
#[inline]
pub fn key(p: Point, stone: Stone) -> u64 {
    STONE_KEYS[(p.y as usize * GRID + p.x as usize) * 2 + stone.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut seen = std::collections::HashSet::new();
        for k in STONE_KEYS.iter() {
            assert!(seen.insert(*k), "duplicate zobrist key");
        }
        assert!(!seen.contains(&SIDE_KEY));
    }
}
