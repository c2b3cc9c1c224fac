//! Material and piece-square values, the part of the evaluation the position keeps up to
//! date incrementally as moves are made and unmade.
//!
//! The square tables started from those of the Python/Pygame xiangqi thesis banco grew from (its tables 4.3-4.6, after C. L. Lim),
//! scaled by 3/2 to our units (a chariot is worth about 900), with small tables of our
//! own for the general, advisors and elephants; they are written out here in our units,
//! each table centred on 0 over the points its kind can reach (the centre is in the
//! material), so that `banco-arena texel` can print tuned ones in the same form. Each
//! entry is a middlegame and an endgame value; the evaluation blends them by the
//! material left on the board.

use banco_rules::xiangqi::Tally;
use banco_rules::xiangqi::piece::{Color, Kind, Piece};
use banco_rules::xiangqi::square::Square;

/// Material by kind, middlegame then endgame: general, advisor, elephant, horse, chariot,
/// cannon, soldier. The general's value never changes hands, so it is 0.
pub const MATERIAL: [(i32, i32); 7] = [
    (0, 0),
    (193, 183),
    (192, 182),
    (415, 455),
    (920, 970),
    (452, 412),
    (103, 147),
];

/// Square bonuses by kind for the owner, middlegame then endgame:
/// `SQUARES[kind][rank counted from the owner's side][file]`, files a..e (f..i mirror
/// them). Points a kind can never stand on are 0.
const SQUARES: [[[(i32, i32); 5]; 10]; 7] = [
    // general
    [
        [(0, 0), (0, 0), (0, 0), (9, 9), (15, 15)],
        [(0, 0), (0, 0), (0, 0), (-9, -9), (-6, -6)],
        [(0, 0), (0, 0), (0, 0), (-24, -24), (-21, -21)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
    ],
    // advisor
    [
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (6, 6)],
        [(0, 0), (0, 0), (0, 0), (-6, -6), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
    ],
    // elephant
    [
        [(0, 0), (0, 0), (2, 2), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(-5, -5), (0, 0), (0, 0), (0, 0), (8, 8)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (-5, -5), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
    ],
    // horse
    [
        [(-15, -15), (-21, -21), (-15, -15), (-15, -15), (-15, -15)],
        [(-15, -15), (-12, -12), (-9, -9), (-9, -9), (-18, -18)],
        [(-9, -9), (-12, -12), (-3, -3), (-3, -3), (-9, -9)],
        [(-12, -12), (-6, -6), (-3, -3), (-6, -6), (0, 0)],
        [(-9, -9), (3, 3), (9, 9), (6, 6), (3, 3)],
        [(-6, -6), (9, 9), (6, 6), (12, 12), (9, 9)],
        [(-3, -3), (21, 21), (12, 12), (21, 21), (15, 15)],
        [(3, 3), (6, 6), (9, 9), (15, 15), (12, 12)],
        [(-9, -9), (0, 0), (27, 27), (9, 9), (-3, -3)],
        [(-9, -9), (-3, -3), (9, 9), (3, 3), (6, 6)],
    ],
    // chariot
    [
        [(-23, -23), (-5, -5), (-11, -11), (1, 1), (-2, -2)],
        [(-8, -8), (-14, -14), (-8, -8), (4, 4), (-8, -8)],
        [(-14, -14), (-8, -8), (-11, -11), (1, 1), (-2, -2)],
        [(-11, -11), (-5, -5), (-8, -8), (1, 1), (1, 1)],
        [(-2, -2), (4, 4), (1, 1), (10, 10), (10, 10)],
        [(-2, -2), (1, 1), (-2, -2), (7, 7), (7, 7)],
        [(-2, -2), (7, 7), (4, 4), (13, 13), (13, 13)],
        [(-2, -2), (-2, -2), (-2, -2), (7, 7), (7, 7)],
        [(4, 4), (10, 10), (7, 7), (16, 16), (19, 19)],
        [(1, 1), (1, 1), (-2, -2), (7, 7), (4, 4)],
    ],
    // cannon
    [
        [(-2, -2), (-2, -2), (1, 1), (7, 7), (7, 7)],
        [(-2, -2), (1, 1), (4, 4), (7, 7), (7, 7)],
        [(4, 4), (-2, -2), (10, 10), (7, 7), (13, 13)],
        [(-2, -2), (-2, -2), (-2, -2), (1, 1), (4, 4)],
        [(-5, -5), (-2, -2), (4, 4), (1, 1), (7, 7)],
        [(-2, -2), (-2, -2), (-2, -2), (1, 1), (10, 10)],
        [(-2, -2), (-2, -2), (-5, -5), (4, 4), (13, 13)],
        [(1, 1), (1, 1), (-2, -2), (-17, -17), (-14, -14)],
        [(1, 1), (1, 1), (-2, -2), (-8, -8), (-23, -23)],
        [(7, 7), (4, 4), (-2, -2), (-17, -17), (-20, -20)],
    ],
    // soldier
    [
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(-38, -47), (0, 0), (-41, -50), (0, 0), (-32, -40)],
        [(-35, -44), (0, 0), (-26, -32), (0, 0), (-26, -32)],
        [(-29, -36), (-20, -25), (-11, -14), (-11, -14), (-8, -10)],
        [(-23, -29), (-8, -10), (7, 9), (13, 16), (22, 28)],
        [(-17, -21), (1, 1), (25, 31), (52, 65), (82, 103)],
        [(-11, -14), (16, 20), (46, 58), (82, 103), (142, 178)],
        [(-38, -47), (-34, -42), (-29, -36), (-25, -31), (-20, -25)],
    ],
];

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
                let half_file = if file <= 4 { file } else { 8 - file };
                let (bm, be) = SQUARES[kind][own_rank][half_file];
                let (mg, eg) = MATERIAL[kind];
                t[code][s] = (mg + bm, eg + be);
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

/// The material and square values and the phase a search position keeps up to date as
/// pieces come and go ([`Tally`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Psq {
    /// Material plus piece-square values from Red's side, (middlegame, endgame).
    pub score: (i32, i32),
    /// Chariots, horses and cannons on the board, weighted (see [`PHASE_WEIGHT`]): 16 at
    /// the start, 0 when none are left.
    pub phase: i32,
}

impl Tally for Psq {
    #[inline]
    fn add(&mut self, piece: Piece, sq: Square) {
        let (mg, eg) = signed(piece, sq);
        self.score.0 += mg;
        self.score.1 += eg;
        self.phase += PHASE_WEIGHT[piece.kind().index()];
    }

    #[inline]
    fn remove(&mut self, piece: Piece, sq: Square) {
        let (mg, eg) = signed(piece, sq);
        self.score.0 -= mg;
        self.score.1 -= eg;
        self.phase -= PHASE_WEIGHT[piece.kind().index()];
    }

    #[inline]
    fn shift(&mut self, piece: Piece, from: Square, to: Square) {
        let (fm, fe) = signed(piece, from);
        let (tm, te) = signed(piece, to);
        self.score.0 += tm - fm;
        self.score.1 += te - fe;
    }
}

/// Weight of each kind in the game phase (middlegame = full weight): chariots, horses and
/// cannons.
pub const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 1, 2, 1, 0];
/// Phase at the start: 2 x (2 horses + 2 x 2 chariots + 2 cannons).
pub const PHASE_MAX: i32 = 16;

/// The value of a kind in move ordering and exchange counting (SEE): fixed, whatever
/// the evaluation's tuning says, so that the search's pruning margins keep their meaning.
#[inline]
pub const fn kind_value(kind: Kind) -> i32 {
    match kind {
        Kind::King => 5000,
        Kind::Advisor | Kind::Elephant => 190,
        Kind::Horse => 400,
        Kind::Rook => 900,
        Kind::Cannon => 450,
        Kind::Pawn => 65,
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
