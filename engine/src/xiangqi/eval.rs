//! Static evaluation, in centipawn-like units (a chariot is 900), from the side to move.
//!
//! The position keeps material and piece-square values up to date ([`super::psq`]); this
//! adds what depends on several pieces at once, computed fresh per call:
//! - king safety: missing advisors and elephants cost more the more attackers the other
//!   side has, and an enemy cannon on the general's file with nothing between
//!   ("hollow cannon", 空头炮) or with one screen (the central cannon) is a lasting threat;
//! - mobility: chariots by the points they reach, horses by their unblocked jumps (a horse
//!   with none is trapped);
//! - soldiers across the river side by side;
//! - a side with no attacking piece cannot win, so its advantage is scaled down.
//!
//! The middlegame and endgame halves are blended by the chariots, horses and cannons
//! left. Weights live in [`Weights`] so self-play tuning can vary them.

use super::Position;
use super::psq::PHASE_MAX;
use banco_rules::xiangqi::piece::{Color, Kind, Piece};
use banco_rules::xiangqi::tables::{
    FILE_OF, FILE_SLIDES, HORSE_MOVES, IN_PALACE, NONE, RANK_OF, RANK_SLIDES,
};

/// The tunable weights of the evaluation terms (middlegame, endgame).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// Per missing advisor, per unit of enemy attacking force.
    pub missing_advisor: i32,
    /// Per missing elephant, per unit of enemy cannon force.
    pub missing_elephant: i32,
    /// An enemy cannon facing the general on an open file.
    pub hollow_cannon: (i32, i32),
    /// An enemy cannon on the general's file behind one screen.
    pub central_cannon: (i32, i32),
    /// Per point a chariot reaches, around a baseline of 6.
    pub rook_mobility: (i32, i32),
    /// Per unblocked horse jump, around a baseline of 3.
    pub horse_mobility: (i32, i32),
    /// Per point a cannon reaches (empty points, and the piece past a screen when it
    /// is an enemy), around a baseline of 6.
    pub cannon_mobility: (i32, i32),
    /// A horse with no jump at all.
    pub trapped_horse: (i32, i32),
    /// Two crossed soldiers side by side.
    pub pawn_pair: (i32, i32),
    /// For the side to move.
    pub tempo: i32,
    /// Added to each piece's material by kind (middlegame, endgame), for tuning piece
    /// values without rebuilding the square tables.
    pub material: [(i32, i32); 7],
    /// Scale (16 = as tabled) of the attack on the enemy palace: see [`ATTACK`].
    pub king_attack: (i32, i32),
}

/// The worth of an attack on the palace by its units (two or more attacking pieces):
/// growing faster than the units, since attackers combine.
const ATTACK: [i32; 16] = [
    0, 0, 6, 14, 24, 36, 50, 66, 84, 104, 126, 150, 176, 204, 234, 266,
];

impl Weights {
    pub const DEFAULT: Weights = Weights {
        missing_advisor: 10,
        missing_elephant: 8,
        hollow_cannon: (70, 20),
        central_cannon: (18, 6),
        rook_mobility: (4, 4),
        horse_mobility: (8, 8),
        cannon_mobility: (0, 0),
        trapped_horse: (25, 25),
        pawn_pair: (15, 25),
        tempo: 10,
        material: [(0, 0); 7],
        king_attack: (0, 0),
    };
}

/// A weight name [`Weights::set`] does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown weight '{0}': use missing_advisor, missing_elephant, hollow_cannon, central_cannon, rook_mobility, horse_mobility, cannon_mobility, trapped_horse, pawn_pair, king_attack, tempo, or material.KIND (advisor, elephant, horse, chariot, cannon, soldier)"
)]
pub struct UnknownWeight(pub String);

impl Weights {
    /// Sets the weight called `name` to (`mg`, `eg`); single-valued weights take `mg`.
    /// For tuning tools: `material.soldier` shifts a soldier's value.
    pub fn set(&mut self, name: &str, mg: i32, eg: i32) -> Result<(), UnknownWeight> {
        let pair = match name {
            "missing_advisor" => {
                self.missing_advisor = mg;
                return Ok(());
            }
            "missing_elephant" => {
                self.missing_elephant = mg;
                return Ok(());
            }
            "tempo" => {
                self.tempo = mg;
                return Ok(());
            }
            "hollow_cannon" => &mut self.hollow_cannon,
            "central_cannon" => &mut self.central_cannon,
            "rook_mobility" => &mut self.rook_mobility,
            "horse_mobility" => &mut self.horse_mobility,
            "cannon_mobility" => &mut self.cannon_mobility,
            "trapped_horse" => &mut self.trapped_horse,
            "pawn_pair" => &mut self.pawn_pair,
            "king_attack" => &mut self.king_attack,
            _ => {
                let kind = name
                    .strip_prefix("material.")
                    .and_then(|k| Kind::ALL.into_iter().find(|kind| kind.name() == k))
                    .filter(|&k| k != Kind::King)
                    .ok_or_else(|| UnknownWeight(name.to_string()))?;
                &mut self.material[kind.index()]
            }
        };
        *pair = (mg, eg);
        Ok(())
    }
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}

/// The evaluation with the default weights.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &Weights::DEFAULT)
}

/// The evaluation of `pos` for the side to move.
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    let (mut mg, mut eg) = pos.tally().score;
    for kind in [
        Kind::Advisor,
        Kind::Elephant,
        Kind::Horse,
        Kind::Rook,
        Kind::Cannon,
        Kind::Pawn,
    ] {
        let (m, e) = w.material[kind.index()];
        if m != 0 || e != 0 {
            let diff = pos.count(Color::Red, kind) as i32 - pos.count(Color::Black, kind) as i32;
            mg += diff * m;
            eg += diff * e;
        }
    }
    for color in Color::BOTH {
        let (m, e) = side_terms(pos, color, w);
        let sign = if color == Color::Red { 1 } else { -1 };
        mg += sign * m;
        eg += sign * e;
    }
    let phase = pos.tally().phase.clamp(0, PHASE_MAX);
    let mut score = (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
    // A side that cannot attack cannot win: shrink its advantage.
    if score > 0 && !pos.has_attackers(Color::Red) || score < 0 && !pos.has_attackers(Color::Black)
    {
        score /= 8;
    }
    let score = match pos.side_to_move() {
        Color::Red => score,
        Color::Black => -score,
    };
    score + w.tempo
}

/// Terms for `color`'s pieces and safety, from `color`'s side (middlegame, endgame).
fn side_terms(pos: &Position, color: Color, w: &Weights) -> (i32, i32) {
    let them = !color;
    let mut mg = 0;
    let mut eg = 0;

    // King safety: defenders against the attackers that exploit their absence.
    let rooks = pos.count(them, Kind::Rook) as i32;
    let horses = pos.count(them, Kind::Horse) as i32;
    let cannons = pos.count(them, Kind::Cannon) as i32;
    let force = 2 * rooks + horses + cannons;
    let advisors_missing = 2 - pos.count(color, Kind::Advisor) as i32;
    let elephants_missing = 2 - pos.count(color, Kind::Elephant) as i32;
    mg -= advisors_missing * force * w.missing_advisor;
    mg -= elephants_missing * (2 * cannons + rooks) * w.missing_elephant;

    // Cannons on the general's file, looking from the general toward the enemy.
    let king = pos.king(color).index();
    let (kf, kr) = (FILE_OF[king] as usize, RANK_OF[king] as usize);
    let fb = &FILE_SLIDES[kr][pos.file_occupancy()[kf] as usize];
    let up = if color == Color::Red { 1 } else { 0 };
    let enemy_cannon = Some(Piece::new(them, Kind::Cannon));
    if fb[up] != NONE && pos.mailbox()[fb[up] as usize * 9 + kf] == enemy_cannon {
        mg -= w.hollow_cannon.0;
        eg -= w.hollow_cannon.1;
    } else if fb[up + 2] != NONE && pos.mailbox()[fb[up + 2] as usize * 9 + kf] == enemy_cannon {
        mg -= w.central_cannon.0;
        eg -= w.central_cannon.1;
    }

    // Mobility.
    let mut own = pos.color_set(color);
    while own != 0 {
        let s = own.trailing_zeros() as usize;
        own &= own - 1;
        let Some(piece) = pos.mailbox()[s] else {
            continue;
        };
        match piece.kind() {
            Kind::Rook => {
                let n = rook_reach(pos, s, color) - 6;
                mg += n * w.rook_mobility.0;
                eg += n * w.rook_mobility.1;
            }
            Kind::Horse => {
                let steps = &HORSE_MOVES[s];
                let mut n = 0;
                for i in 0..steps.len as usize {
                    if pos.mailbox()[steps.block[i] as usize].is_none()
                        && pos.mailbox()[steps.to[i] as usize].is_none_or(|p| p.color() != color)
                    {
                        n += 1;
                    }
                }
                mg += (n - 3) * w.horse_mobility.0;
                eg += (n - 3) * w.horse_mobility.1;
                if n == 0 {
                    mg -= w.trapped_horse.0;
                    eg -= w.trapped_horse.1;
                }
            }
            Kind::Cannon if w.cannon_mobility != (0, 0) => {
                let n = cannon_reach(pos, s, color) - 6;
                mg += n * w.cannon_mobility.0;
                eg += n * w.cannon_mobility.1;
            }
            Kind::Pawn => {
                let crossed = match color {
                    Color::Red => RANK_OF[s] >= 5,
                    Color::Black => RANK_OF[s] <= 4,
                };
                // Count each pair once: look at the right-hand neighbour only.
                if crossed && FILE_OF[s] < 8 && pos.mailbox()[s + 1] == Some(piece) {
                    mg += w.pawn_pair.0;
                    eg += w.pawn_pair.1;
                }
            }
            _ => {}
        }
    }
    if w.king_attack != (0, 0) {
        let (units, attackers) = palace_attack(pos, color);
        if attackers >= 2 {
            let a = ATTACK[(units as usize).min(ATTACK.len() - 1)];
            mg += a * w.king_attack.0 / 16;
            eg += a * w.king_attack.1 / 16;
        }
    }
    (mg, eg)
}

/// `color`'s attack on the enemy palace: units for each piece bearing on it (chariots
/// and cannons on the general's file or rank, chariots on a palace file, cannons on the
/// back rank, horses that can jump into the palace, soldiers beside the general), and how
/// many pieces take part.
fn palace_attack(pos: &Position, color: Color) -> (i32, i32) {
    let them = !color;
    let king = pos.king(them).index();
    let (kf, kr) = (FILE_OF[king], RANK_OF[king]);
    let back_rank = if them == Color::Red { 0 } else { 9 };
    let mut units = 0;
    let mut attackers = 0;
    let mut own = pos.color_set(color);
    while own != 0 {
        let s = own.trailing_zeros() as usize;
        own &= own - 1;
        let Some(piece) = pos.mailbox()[s] else {
            continue;
        };
        let (f, r) = (FILE_OF[s], RANK_OF[s]);
        let u = match piece.kind() {
            Kind::Rook if f == kf || r == kr => 3,
            Kind::Rook if (3..=5).contains(&f) => 1,
            Kind::Cannon if f == kf || r == kr => 2,
            Kind::Cannon if r == back_rank => 1,
            Kind::Horse => {
                let steps = &HORSE_MOVES[s];
                let hits = (0..steps.len as usize)
                    .filter(|&i| {
                        let to = steps.to[i] as usize;
                        IN_PALACE[to]
                            && RANK_OF[to].abs_diff(kr) <= 2
                            && pos.mailbox()[steps.block[i] as usize].is_none()
                    })
                    .count() as i32;
                if hits > 0 { 1 + hits.min(2) } else { 0 }
            }
            Kind::Pawn if f.abs_diff(kf) <= 1 && r.abs_diff(kr) <= 1 => 2,
            Kind::Pawn if (2..=6).contains(&f) && r.abs_diff(kr) <= 1 => 1,
            _ => 0,
        };
        if u > 0 {
            units += u;
            attackers += 1;
        }
    }
    (units, attackers)
}

/// The points a cannon on `s` reaches: empty points up to the first piece (the screen)
/// in each direction, plus the piece past the screen when it is an enemy.
fn cannon_reach(pos: &Position, s: usize, color: Color) -> i32 {
    let f = FILE_OF[s] as usize;
    let r = RANK_OF[s] as usize;
    let rb = &RANK_SLIDES[f][pos.rank_occupancy()[r] as usize];
    let fb = &FILE_SLIDES[r][pos.file_occupancy()[f] as usize];
    let enemy = |sq: usize| i32::from(pos.mailbox()[sq].is_some_and(|p| p.color() != color));
    let mut n = 0;
    // Empty points toward file a and file i, then toward rank 0 and rank 9.
    n += if rb[0] == NONE {
        f as i32
    } else {
        (f - rb[0] as usize - 1) as i32
    };
    n += if rb[1] == NONE {
        (8 - f) as i32
    } else {
        (rb[1] as usize - f - 1) as i32
    };
    n += if fb[0] == NONE {
        r as i32
    } else {
        (r - fb[0] as usize - 1) as i32
    };
    n += if fb[1] == NONE {
        (9 - r) as i32
    } else {
        (fb[1] as usize - r - 1) as i32
    };
    for dir in 2..4 {
        if rb[dir] != NONE {
            n += enemy(r * 9 + rb[dir] as usize);
        }
        if fb[dir] != NONE {
            n += enemy(fb[dir] as usize * 9 + f);
        }
    }
    n
}

/// The points a chariot on `s` reaches: empty points up to the first piece in each
/// direction, plus that piece when it is an enemy.
fn rook_reach(pos: &Position, s: usize, color: Color) -> i32 {
    let f = FILE_OF[s] as i32;
    let r = RANK_OF[s] as i32;
    let rb = &RANK_SLIDES[f as usize][pos.rank_occupancy()[r as usize] as usize];
    let fb = &FILE_SLIDES[r as usize][pos.file_occupancy()[f as usize] as usize];
    let enemy = |sq: usize| pos.mailbox()[sq].is_some_and(|p| p.color() != color) as i32;
    let mut n = 0;
    n += if rb[0] == NONE {
        f
    } else {
        f - rb[0] as i32 - 1 + enemy(r as usize * 9 + rb[0] as usize)
    };
    n += if rb[1] == NONE {
        8 - f
    } else {
        rb[1] as i32 - f - 1 + enemy(r as usize * 9 + rb[1] as usize)
    };
    n += if fb[0] == NONE {
        r
    } else {
        r - fb[0] as i32 - 1 + enemy(fb[0] as usize * 9 + f as usize)
    };
    n += if fb[1] == NONE {
        9 - r
    } else {
        fb[1] as i32 - r - 1 + enemy(fb[1] as usize * 9 + f as usize)
    };
    n
}

/// The names of the weights [`terms`] reports on, in its order (the single-valued ones
/// take only a middlegame part).
pub const TERM_NAMES: [&str; 10] = [
    "missing_advisor",
    "missing_elephant",
    "hollow_cannon",
    "central_cannon",
    "rook_mobility",
    "horse_mobility",
    "cannon_mobility",
    "trapped_horse",
    "pawn_pair",
    "king_attack",
];

/// How much each weight of [`TERM_NAMES`] counts in `pos`, from Red's side, as a
/// (middlegame, endgame) multiplier: the evaluation's multi-piece terms are
/// `sum(coefficient * weight)`, which is what tuning needs to fit the weights.
pub fn terms(pos: &Position) -> [(f64, f64); 10] {
    let mut t = [(0.0, 0.0); 10];
    for color in Color::BOTH {
        let sign = if color == Color::Red { 1.0 } else { -1.0 };
        let mut add = |i: usize, mg: f64, eg: f64| {
            t[i].0 += sign * mg;
            t[i].1 += sign * eg;
        };
        let them = !color;
        let rooks = f64::from(pos.count(them, Kind::Rook));
        let horses = f64::from(pos.count(them, Kind::Horse));
        let cannons = f64::from(pos.count(them, Kind::Cannon));
        let force = 2.0 * rooks + horses + cannons;
        let advisors_missing = 2.0 - f64::from(pos.count(color, Kind::Advisor));
        let elephants_missing = 2.0 - f64::from(pos.count(color, Kind::Elephant));
        add(0, -advisors_missing * force, 0.0);
        add(1, -elephants_missing * (2.0 * cannons + rooks), 0.0);

        let king = pos.king(color).index();
        let (kf, kr) = (FILE_OF[king] as usize, RANK_OF[king] as usize);
        let fb = &FILE_SLIDES[kr][pos.file_occupancy()[kf] as usize];
        let up = if color == Color::Red { 1 } else { 0 };
        let enemy_cannon = Some(Piece::new(them, Kind::Cannon));
        if fb[up] != NONE && pos.mailbox()[fb[up] as usize * 9 + kf] == enemy_cannon {
            add(2, -1.0, -1.0);
        } else if fb[up + 2] != NONE && pos.mailbox()[fb[up + 2] as usize * 9 + kf] == enemy_cannon
        {
            add(3, -1.0, -1.0);
        }

        let mut own = pos.color_set(color);
        while own != 0 {
            let s = own.trailing_zeros() as usize;
            own &= own - 1;
            let Some(piece) = pos.mailbox()[s] else {
                continue;
            };
            match piece.kind() {
                Kind::Rook => {
                    let n = f64::from(rook_reach(pos, s, color) - 6);
                    add(4, n, n);
                }
                Kind::Horse => {
                    let steps = &HORSE_MOVES[s];
                    let mut n = 0;
                    for i in 0..steps.len as usize {
                        if pos.mailbox()[steps.block[i] as usize].is_none()
                            && pos.mailbox()[steps.to[i] as usize]
                                .is_none_or(|p| p.color() != color)
                        {
                            n += 1;
                        }
                    }
                    add(5, f64::from(n - 3), f64::from(n - 3));
                    if n == 0 {
                        add(7, -1.0, -1.0);
                    }
                }
                Kind::Cannon => {
                    let n = f64::from(cannon_reach(pos, s, color) - 6);
                    add(6, n, n);
                }
                Kind::Pawn => {
                    let crossed = match color {
                        Color::Red => RANK_OF[s] >= 5,
                        Color::Black => RANK_OF[s] <= 4,
                    };
                    if crossed && FILE_OF[s] < 8 && pos.mailbox()[s + 1] == Some(piece) {
                        add(8, 1.0, 1.0);
                    }
                }
                _ => {}
            }
        }
        let (units, attackers) = palace_attack(pos, color);
        if attackers >= 2 {
            let a = f64::from(ATTACK[(units as usize).min(ATTACK.len() - 1)]) / 16.0;
            add(9, a, a);
        }
    }
    t
}

/// The evaluation mirrored: used by tests to check the terms are colour-blind.
#[cfg(test)]
fn mirrored(pos: &Position) -> Position {
    use banco_rules::xiangqi::square::Square;
    let mut fen = String::new();
    for rank in 0..10u8 {
        let mut empty = 0;
        for file in 0..9u8 {
            let sq = Square::new(file, rank).expect("on board");
            match pos.piece_at(sq) {
                Some(p) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    let c = p.fen_char();
                    fen.push(if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    });
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank < 9 {
            fen.push('/');
        }
    }
    let side = if pos.side_to_move() == Color::Red {
        'b'
    } else {
        'w'
    };
    crate::xiangqi::from_fen(&format!("{fen} {side}")).expect("a mirrored legal position is legal")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_and_colour_blind() {
        let start = crate::xiangqi::start();
        assert_eq!(evaluate(&start), Weights::DEFAULT.tempo);
        for fen in [
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
        ] {
            let pos = crate::xiangqi::from_fen(fen).unwrap();
            assert_eq!(evaluate(&pos), evaluate(&mirrored(&pos)), "{fen}");
        }
    }

    #[test]
    fn material_and_threats_count() {
        // Red a chariot up is far ahead.
        let up = crate::xiangqi::from_fen(
            "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        )
        .unwrap();
        assert!(evaluate(&up) > 700);
        // A red cannon on Black's general's file: behind two screens, one, or none.
        let w = Weights::DEFAULT;
        let black_mg =
            |fen: &str| side_terms(&crate::xiangqi::from_fen(fen).unwrap(), Color::Black, &w).0;
        let two = black_mg("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/4C2C1/9/RNBAKABNR b");
        let one = black_mg("rnbakabnr/9/1c5c1/p1p3p1p/9/9/P1P1P1P1P/4C2C1/9/RNBAKABNR b");
        let none = black_mg("rnbakabnr/9/1c5c1/p1p3p1p/9/9/P1P3P1P/4C2C1/9/RNBAKABNR b");
        assert_eq!(one, two - w.central_cannon.0);
        assert_eq!(none, two - w.hollow_cannon.0);
    }

    #[test]
    fn terms_times_weights_are_the_evaluation() {
        // The multi-piece terms, recomputed from `terms` and the weights, give the same
        // middlegame and endgame sums as the evaluation's own code (king attack on, so
        // that it is checked too).
        let mut w = Weights::DEFAULT;
        w.king_attack = (16, 16);
        w.cannon_mobility = (5, 3);
        for fen in [
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "rnbakabnr/9/1c5c1/p1p3p1p/9/9/P1P3P1P/4C2C1/9/RNBAKABNR b",
            "3ak4/4a4/4b4/p3p3p/9/2P3P2/P7P/4B4/4A4/2BAK4 w - - 0 1",
            "2bak4/3Ra4/4bc3/4N4/2p6/9/9/4C4/9/3AK4 w",
        ] {
            let pos = crate::xiangqi::from_fen(fen).unwrap();
            let t = terms(&pos);
            let weight = |i: usize| match TERM_NAMES[i] {
                "missing_advisor" => (w.missing_advisor, 0),
                "missing_elephant" => (w.missing_elephant, 0),
                "hollow_cannon" => w.hollow_cannon,
                "central_cannon" => w.central_cannon,
                "rook_mobility" => w.rook_mobility,
                "horse_mobility" => w.horse_mobility,
                "cannon_mobility" => w.cannon_mobility,
                "trapped_horse" => w.trapped_horse,
                "pawn_pair" => w.pawn_pair,
                _ => w.king_attack,
            };
            let (mut mg, mut eg) = (0.0, 0.0);
            for (i, &(cm, ce)) in t.iter().enumerate() {
                let (wm, we) = weight(i);
                mg += cm * f64::from(wm);
                eg += ce * f64::from(we);
            }
            let (rm, re) = side_terms(&pos, Color::Red, &w);
            let (bm, be) = side_terms(&pos, Color::Black, &w);
            assert_eq!(mg.round() as i32, rm - bm, "{fen}");
            assert_eq!(eg.round() as i32, re - be, "{fen}");
        }
    }

    #[test]
    fn weights_are_set_by_name() {
        let mut w = Weights::DEFAULT;
        w.set("material.soldier", 20, 30).unwrap();
        w.set("rook_mobility", 8, 6).unwrap();
        w.set("tempo", 12, 0).unwrap();
        assert_eq!(w.material[Kind::Pawn.index()], (20, 30));
        assert_eq!((w.rook_mobility, w.tempo), ((8, 6), 12));
        assert!(w.set("material.general", 1, 1).is_err());
        assert!(w.set("charisma", 1, 1).is_err());
        // A material shift moves the score by the piece-count difference.
        let up = crate::xiangqi::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p2/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        )
        .unwrap();
        let mut more = Weights::DEFAULT;
        more.set("material.soldier", 50, 50).unwrap();
        assert_eq!(evaluate_with(&up, &more), evaluate(&up) + 50);
    }
}
