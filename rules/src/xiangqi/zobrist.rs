//! Zobrist keys for xiangqi positions: one 64-bit key per (piece, square), and one for
//! Black to move. Generated at compile time by splitmix64 from a fixed seed, so keys (and
//! the opening book built on them) are the same on every machine and every run.

use super::piece::Piece;
use super::square::Square;

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

static PIECE_KEYS: [[u64; Square::COUNT]; Piece::CODES] = {
    let mut keys = [[0u64; Square::COUNT]; Piece::CODES];
    let mut state = 0x0C0_7A06_u64;
    let mut p = 0;
    while p < Piece::CODES {
        let mut s = 0;
        while s < Square::COUNT {
            let (next, key) = splitmix64(state);
            state = next;
            keys[p][s] = key;
            s += 1;
        }
        p += 1;
    }
    keys
};

/// XORed in when Black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix64(0xB1AC_C0DE).1;

/// The key of `piece` standing on `sq`.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    PIECE_KEYS[piece.code()][sq.index()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::piece::{Color, Kind};

    #[test]
    fn keys_are_distinct() {
        let mut seen = std::collections::HashSet::new();
        for color in Color::BOTH {
            for kind in Kind::ALL {
                for sq in Square::all() {
                    assert!(seen.insert(piece_key(Piece::new(color, kind), sq)));
                }
            }
        }
        assert!(!seen.contains(&BLACK_TO_MOVE));
    }
}
