//! Material and piece-square values, the part of the evaluation the position keeps up to
//! date incrementally as moves are made and unmade.
//!
//! The square tables start from seed 002's (its tables 4.3-4.6, after C. L. Lim), scaled
//! by 3/2 to our units (a chariot is worth 900 in the middlegame), with small tables of
//! our own for the general, advisors and elephants. Each entry is a middlegame and an
//! endgame value; the evaluation blends them by the material left on the board.

use super::piece::{Color, Kind, Piece};
use super::square::Square;

/// Material by kind, middlegame then endgame: general, advisor, elephant, horse, chariot,
/// cannon, soldier. The general's value never changes hands, so it is 0.
pub const MATERIAL: [(i32, i32); 7] = [
    (0, 0),
    (190, 180),
    (190, 180),
    (400, 440),
    (900, 950),
    (450, 410),
    // Seed 002's 30 would be 45; self-play preferred 65 / 100 (see the README).
    (65, 100),
];

/// Seed 002's tables, for Red, first row = Black's back rank (rank 9), in seed units.
const SEED_ROOK: [[i32; 9]; 10] = [
    [14, 14, 12, 18, 16, 18, 12, 14, 14],
    [16, 20, 18, 24, 26, 24, 18, 20, 16],
    [12, 12, 12, 18, 18, 18, 12, 12, 12],
    [12, 18, 16, 22, 22, 22, 16, 18, 12],
    [12, 14, 12, 18, 18, 18, 12, 14, 12],
    [12, 16, 14, 20, 20, 20, 14, 16, 12],
    [6, 10, 8, 14, 14, 14, 8, 10, 6],
    [4, 8, 6, 14, 12, 14, 6, 8, 4],
    [8, 4, 8, 16, 8, 16, 8, 4, 8],
    [-2, 10, 6, 14, 12, 14, 6, 10, -2],
];

const SEED_HORSE: [[i32; 9]; 10] = [
    [4, 8, 16, 12, 14, 12, 16, 8, 4],
    [4, 10, 28, 16, 8, 16, 28, 10, 4],
    [12, 14, 16, 20, 18, 20, 16, 14, 12],
    [8, 24, 18, 24, 20, 24, 18, 24, 8],
    [6, 16, 14, 18, 16, 18, 14, 16, 6],
    [4, 12, 16, 14, 12, 14, 16, 12, 4],
    [2, 6, 8, 6, 10, 6, 8, 6, 2],
    [4, 2, 8, 8, 4, 8, 8, 2, 4],
    [0, 2, 4, 4, -2, 4, 4, 2, 0],
    [0, -4, 0, 0, 0, 0, 0, -4, 0],
];

const SEED_CANNON: [[i32; 9]; 10] = [
    [6, 4, 0, -10, -12, -10, 0, 4, 6],
    [2, 2, 0, -4, -14, -4, 0, 2, 2],
    [2, 2, 0, -10, -8, -10, 0, 2, 2],
    [0, 0, -2, 4, 10, 4, -2, 0, 0],
    [0, 0, 0, 2, 8, 2, 0, 0, 0],
    [-2, 0, 4, 2, 6, 2, 4, 0, -2],
    [0, 0, 0, 2, 4, 2, 0, 0, 0],
    [4, 0, 8, 6, 10, 6, 8, 0, 4],
    [0, 2, 4, 6, 6, 6, 4, 2, 0],
    [0, 0, 2, 6, 6, 6, 2, 0, 0],
];

const SEED_PAWN: [[i32; 9]; 10] = [
    [0, 3, 6, 9, 12, 9, 6, 3, 0],
    [18, 36, 56, 80, 120, 80, 56, 36, 18],
    [14, 26, 42, 60, 80, 60, 42, 26, 14],
    [10, 20, 30, 34, 40, 34, 30, 20, 10],
    [6, 12, 18, 18, 20, 18, 18, 12, 6],
    [2, 0, 8, 0, 8, 0, 8, 0, 2],
    [0, 0, -2, 0, 4, 0, -2, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
];

/// Our own small tables for the palace pieces (same layout): the general prefers its home
/// point, advisors and elephants their central defensive points.
const KING: [[i32; 9]; 10] = {
    let mut t = [[0; 9]; 10];
    t[9] = [0, 0, 0, 6, 10, 6, 0, 0, 0];
    t[8] = [0, 0, 0, -6, -4, -6, 0, 0, 0];
    t[7] = [0, 0, 0, -16, -14, -16, 0, 0, 0];
    t
};

const ADVISOR: [[i32; 9]; 10] = {
    let mut t = [[0; 9]; 10];
    t[9] = [0, 0, 0, 2, 0, 2, 0, 0, 0];
    t[8] = [0, 0, 0, 0, 6, 0, 0, 0, 0];
    t[7] = [0, 0, 0, -2, 0, -2, 0, 0, 0];
    t
};

const ELEPHANT: [[i32; 9]; 10] = {
    let mut t = [[0; 9]; 10];
    t[9] = [0, 0, 2, 0, 0, 0, 2, 0, 0];
    t[7] = [-2, 0, 0, 0, 6, 0, 0, 0, -2];
    t[5] = [0, 0, -2, 0, 0, 0, -2, 0, 0];
    t
};

/// Square bonus (seed units) for a Red piece of `kind` on (`file`, `rank`).
const fn square_bonus(kind: usize, file: usize, rank: usize) -> i32 {
    let row = 9 - rank;
    match kind {
        0 => KING[row][file],
        1 => ADVISOR[row][file],
        2 => ELEPHANT[row][file],
        3 => SEED_HORSE[row][file],
        4 => SEED_ROOK[row][file],
        5 => SEED_CANNON[row][file],
        _ => SEED_PAWN[row][file],
    }
}

/// `PSQ[piece code][square]`: (middlegame, endgame) value of that piece on that square for
/// its owner, material included.
pub static PSQ: [[(i32, i32); Square::COUNT]; Piece::CODES] = {
    let mut t = [[(0, 0); Square::COUNT]; Piece::CODES];
    let mut color = 0;
    while color < 2 {
        let mut kind = 0;
        while kind < 7 {
            let code = 1 + kind + 8 * color;
            let mut s = 0;
            while s < Square::COUNT {
                let (file, rank) = (s % 9, s / 9);
                // Black reads the table from its own side of the board.
                let own_rank = if color == 0 { rank } else { 9 - rank };
                let bonus = square_bonus(kind, file, own_rank) * 3 / 2;
                let (mg, eg) = MATERIAL[kind];
                // Soldiers' advance matters more as the board empties.
                let eg_bonus = if kind == 6 { bonus * 5 / 4 } else { bonus };
                t[code][s] = (mg + bonus, eg + eg_bonus);
                s += 1;
            }
            kind += 1;
        }
        color += 1;
    }
    t
};

/// The (middlegame, endgame) value of `piece` on `sq`, from Red's point of view.
#[inline]
pub fn signed(piece: Piece, sq: Square) -> (i32, i32) {
    let (mg, eg) = PSQ[piece.code()][sq.index()];
    match piece.color() {
        Color::Red => (mg, eg),
        Color::Black => (-mg, -eg),
    }
}

/// Weight of each kind in the game phase (middlegame = full weight): chariots, horses and
/// cannons.
pub const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 1, 2, 1, 0];
/// Phase at the start: 2 x (2 horses + 2 x 2 chariots + 2 cannons).
pub const PHASE_MAX: i32 = 16;

/// The value of a kind in move ordering and exchange counting (middlegame material).
#[inline]
pub const fn kind_value(kind: Kind) -> i32 {
    match kind {
        Kind::King => 5000,
        _ => MATERIAL[kind as usize].0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_mirrored_between_colours() {
        for kind in Kind::ALL {
            let red = Piece::new(Color::Red, kind);
            let black = Piece::new(Color::Black, kind);
            for sq in Square::all() {
                assert_eq!(
                    PSQ[red.code()][sq.index()],
                    PSQ[black.code()][sq.flip_rank().index()]
                );
            }
        }
        // A soldier that crossed to the point before Black's palace is worth far more than
        // one at home.
        let p = Piece::new(Color::Red, Kind::Pawn);
        let e8: Square = "e8".parse().unwrap();
        let e3: Square = "e3".parse().unwrap();
        assert!(PSQ[p.code()][e8.index()].0 > PSQ[p.code()][e3.index()].0 + 100);
    }
}
