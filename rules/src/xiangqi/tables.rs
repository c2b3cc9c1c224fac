//! Move and attack tables, computed at compile time.
//!
//! Leapers (general, advisor, elephant, horse, soldier) get per-square lists of
//! destinations with the point that blocks each one (the elephant's eye, the horse's leg).
//! Sliders (chariot, cannon) use line tables in the style of ElephantEye: every rank's
//! occupancy is kept as 9 bits and every file's as 10, and [`RANK_SLIDES`] /
//! [`FILE_SLIDES`] give, for a point on the line and the line's occupancy, the first and
//! second occupied points in each direction: the chariot's capture, and past the screen,
//! the cannon's. Nothing is computed while playing.

/// "No square" in the tables below.
pub const NONE: u8 = 0xFF;

/// Destinations from one square for one kind of leaper: `to[i]`, blocked when `block[i]`
/// (if not [`NONE`]) is occupied.
#[derive(Clone, Copy)]
pub struct Steps {
    /// How many destinations.
    pub len: u8,
    /// Destination square indices.
    pub to: [u8; 8],
    /// The point that must be empty for each (eye, leg), or [`NONE`].
    pub block: [u8; 8],
}

impl Steps {
    const EMPTY: Steps = Steps {
        len: 0,
        to: [NONE; 8],
        block: [NONE; 8],
    };

    const fn push(&mut self, to: u8, block: u8) {
        self.to[self.len as usize] = to;
        self.block[self.len as usize] = block;
        self.len += 1;
    }

    /// The (destination, blocker) pairs.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        (0..self.len as usize).map(|i| (self.to[i], self.block[i]))
    }
}

pub const fn file_of(sq: usize) -> i32 {
    (sq % 9) as i32
}

pub const fn rank_of(sq: usize) -> i32 {
    (sq / 9) as i32
}

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < 9 && r >= 0 && r < 10
}

const fn sq(f: i32, r: i32) -> u8 {
    (r * 9 + f) as u8
}

/// Whether (f, r) is inside a palace: 0 Red's (ranks 0..=2), 1 Black's (7..=9).
const fn palace_of(f: i32, r: i32) -> i32 {
    if f < 3 || f > 5 || r < 0 || r > 9 {
        -1
    } else if r <= 2 {
        0
    } else if r >= 7 {
        1
    } else {
        -1
    }
}

/// Whether a square is inside either palace.
pub const IN_PALACE: [bool; 90] = {
    let mut t = [false; 90];
    let mut s = 0;
    while s < 90 {
        t[s] = palace_of(file_of(s), rank_of(s)) >= 0;
        s += 1;
    }
    t
};

const HORSE_DELTAS: [(i32, i32, i32, i32); 8] = [
    // (df, dr, leg df, leg dr)
    (1, 2, 0, 1),
    (-1, 2, 0, 1),
    (1, -2, 0, -1),
    (-1, -2, 0, -1),
    (2, 1, 1, 0),
    (2, -1, 1, 0),
    (-2, 1, -1, 0),
    (-2, -1, -1, 0),
];

/// Where a horse on each square can jump, and the leg that blocks each jump.
pub static HORSE_MOVES: [Steps; 90] = {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = (file_of(s), rank_of(s));
        let mut i = 0;
        while i < 8 {
            let (df, dr, lf, lr) = HORSE_DELTAS[i];
            if on_board(f + df, r + dr) {
                t[s].push(sq(f + df, r + dr), sq(f + lf, r + lr));
            }
            i += 1;
        }
        s += 1;
    }
    t
};

/// The squares a horse must stand on to attack each square, and the leg it needs free.
/// The leg is the point diagonally next to the target, toward the horse.
pub static HORSE_ATTACKERS: [Steps; 90] = {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = (file_of(s), rank_of(s));
        let mut i = 0;
        while i < 8 {
            let (df, dr, _, _) = HORSE_DELTAS[i];
            if on_board(f + df, r + dr) {
                let leg = sq(f + df.signum(), r + dr.signum());
                t[s].push(sq(f + df, r + dr), leg);
            }
            i += 1;
        }
        s += 1;
    }
    t
};

/// Where an elephant on each square can go (never across the river), and the eye.
pub static ELEPHANT_MOVES: [Steps; 90] = {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = (file_of(s), rank_of(s));
        let home_red = r <= 4;
        let mut i = 0;
        while i < 4 {
            let df = if i & 1 == 0 { 2 } else { -2 };
            let dr = if i & 2 == 0 { 2 } else { -2 };
            let (nf, nr) = (f + df, r + dr);
            if on_board(nf, nr) && (nr <= 4) == home_red {
                t[s].push(sq(nf, nr), sq(f + df / 2, r + dr / 2));
            }
            i += 1;
        }
        s += 1;
    }
    t
};

/// Where an advisor on each square can step, inside the palace it stands in.
pub static ADVISOR_MOVES: [Steps; 90] = {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = (file_of(s), rank_of(s));
        let p = palace_of(f, r);
        let mut i = 0;
        while i < 4 {
            let df = if i & 1 == 0 { 1 } else { -1 };
            let dr = if i & 2 == 0 { 1 } else { -1 };
            if p >= 0 && palace_of(f + df, r + dr) == p {
                t[s].push(sq(f + df, r + dr), NONE);
            }
            i += 1;
        }
        s += 1;
    }
    t
};

/// Where a general on each square can step, inside the palace it stands in.
pub static KING_MOVES: [Steps; 90] = {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = (file_of(s), rank_of(s));
        let p = palace_of(f, r);
        let d = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        let mut i = 0;
        while i < 4 {
            let (df, dr) = d[i];
            if p >= 0 && palace_of(f + df, r + dr) == p {
                t[s].push(sq(f + df, r + dr), NONE);
            }
            i += 1;
        }
        s += 1;
    }
    t
};

/// Where a soldier of each colour (0 Red, 1 Black) on each square can step: forward,
/// and sideways once it has crossed the river.
pub static PAWN_MOVES: [[Steps; 90]; 2] = {
    let mut t = [[Steps::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 90 {
            let (f, r) = (file_of(s), rank_of(s));
            let fwd = if c == 0 { 1 } else { -1 };
            let crossed = if c == 0 { r >= 5 } else { r <= 4 };
            if on_board(f, r + fwd) {
                t[c][s].push(sq(f, r + fwd), NONE);
            }
            if crossed {
                if f > 0 {
                    t[c][s].push(sq(f - 1, r), NONE);
                }
                if f < 8 {
                    t[c][s].push(sq(f + 1, r), NONE);
                }
            }
            s += 1;
        }
        c += 1;
    }
    t
};

/// For a point at position `pos` on a line of `len` points with occupancy `occ`: the
/// first and second occupied positions below `pos` and above it, as
/// `[first_down, first_up, second_down, second_up]` ([`NONE`] where there is none).
const fn blockers(pos: i32, occ: usize, len: i32) -> [u8; 4] {
    let mut out = [NONE; 4];
    let mut dir = 0;
    while dir < 2 {
        let step = if dir == 0 { -1 } else { 1 };
        let mut found = 0;
        let mut p = pos + step;
        while p >= 0 && p < len && found < 2 {
            if occ & (1 << p) != 0 {
                out[dir + 2 * found] = p as u8;
                found += 1;
            }
            p += step;
        }
        dir += 1;
    }
    out
}

/// `RANK_SLIDES[file][rank occupancy]`: blocker files along a rank, toward file a then
/// toward file i; see [`blockers`].
pub static RANK_SLIDES: [[[u8; 4]; 512]; 9] = {
    let mut t = [[[NONE; 4]; 512]; 9];
    let mut f = 0;
    while f < 9 {
        let mut occ = 0;
        while occ < 512 {
            t[f][occ] = blockers(f as i32, occ, 9);
            occ += 1;
        }
        f += 1;
    }
    t
};

/// `FILE_SLIDES[rank][file occupancy]`: blocker ranks along a file, toward rank 0 then
/// toward rank 9; see [`blockers`].
pub static FILE_SLIDES: [[[u8; 4]; 1024]; 10] = {
    let mut t = [[[NONE; 4]; 1024]; 10];
    let mut r = 0;
    while r < 10 {
        let mut occ = 0;
        while occ < 1024 {
            t[r][occ] = blockers(r as i32, occ, 10);
            occ += 1;
        }
        r += 1;
    }
    t
};

/// `FILE_OF[sq]` and `RANK_OF[sq]` without a division.
pub const FILE_OF: [u8; 90] = {
    let mut t = [0; 90];
    let mut s = 0;
    while s < 90 {
        t[s] = (s % 9) as u8;
        s += 1;
    }
    t
};

pub const RANK_OF: [u8; 90] = {
    let mut t = [0; 90];
    let mut s = 0;
    while s < 90 {
        t[s] = (s / 9) as u8;
        s += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaper_counts() {
        // A horse in the middle has 8 jumps, in a corner 2.
        assert_eq!(HORSE_MOVES[sq(4, 4) as usize].len, 8);
        assert_eq!(HORSE_MOVES[0].len, 2);
        // Elephants: e2 reaches four points, c4 only two (the river stops it).
        assert_eq!(ELEPHANT_MOVES[sq(4, 2) as usize].len, 4);
        assert_eq!(ELEPHANT_MOVES[sq(2, 4) as usize].len, 2);
        assert_eq!(ELEPHANT_MOVES[sq(2, 5) as usize].len, 2);
        // Advisor in the palace centre: 4; on a corner: 1; outside: 0.
        assert_eq!(ADVISOR_MOVES[sq(4, 1) as usize].len, 4);
        assert_eq!(ADVISOR_MOVES[sq(3, 9) as usize].len, 1);
        assert_eq!(ADVISOR_MOVES[sq(0, 0) as usize].len, 0);
        assert_eq!(KING_MOVES[sq(4, 8) as usize].len, 4);
        assert_eq!(KING_MOVES[sq(3, 7) as usize].len, 2);
        // Soldiers: one step before the river, three after (two on the edge).
        assert_eq!(PAWN_MOVES[0][sq(4, 3) as usize].len, 1);
        assert_eq!(PAWN_MOVES[0][sq(4, 5) as usize].len, 3);
        assert_eq!(PAWN_MOVES[0][sq(0, 9) as usize].len, 1);
        assert_eq!(PAWN_MOVES[1][sq(8, 4) as usize].len, 2);
    }

    #[test]
    fn horse_attackers_mirror_horse_moves() {
        for (s, attackers) in HORSE_ATTACKERS.iter().enumerate() {
            for (h, leg) in attackers.iter() {
                let found = HORSE_MOVES[h as usize]
                    .iter()
                    .any(|(to, l)| to as usize == s && l == leg);
                assert!(found, "horse on {h} attacks {s} through {leg}");
            }
        }
    }

    #[test]
    fn slide_blockers() {
        // Rank occupancy with pieces on files 0, 2, 3 and 7; from file 5.
        let occ = 0b1000_1101 | (1 << 5);
        assert_eq!(RANK_SLIDES[5][occ], [3, 7, 2, NONE]);
        assert_eq!(FILE_SLIDES[0][0b11_0000_0001], [NONE, 8, NONE, 9]);
    }
}
