//! Static exchange evaluation: what a capture (or a move to an attacked point) wins or
//! loses once both sides have taken back on that point with their cheapest pieces in turn.
//!
//! Xiangqi's exchanges are not chess's: a cannon needs exactly one screen, so taking a
//! piece off a line can give a cannon its shot or take it away, and a horse can be
//! hobbled or freed at the leg. So the exchange is played out on a scratch copy of the
//! board, and each side's cheapest attacker is looked up afresh after every capture.
//! Pins are ignored, as in Stockfish; a general takes part only when the other side has
//! nothing left to take back with.

use super::psq::kind_value;
use banco_rules::xiangqi::piece::{Color, Kind, Piece};
use banco_rules::xiangqi::position::{Position, Tally};
use banco_rules::xiangqi::square::{Move, Square};
use banco_rules::xiangqi::tables::{
    ADVISOR_MOVES, ELEPHANT_MOVES, FILE_OF, FILE_SLIDES, HORSE_ATTACKERS, KING_MOVES, NONE,
    RANK_OF, RANK_SLIDES,
};

/// The board as the exchange sees it: pieces and line occupancy, nothing else.
#[derive(Clone, Copy)]
struct Scratch {
    board: [Option<Piece>; Square::COUNT],
    rank_occ: [u16; 10],
    file_occ: [u16; 9],
    /// Where each general stands, by colour index.
    kings: [usize; 2],
}

impl Scratch {
    fn lift(&mut self, s: usize) {
        self.board[s] = None;
        self.rank_occ[RANK_OF[s] as usize] &= !(1 << FILE_OF[s]);
        self.file_occ[FILE_OF[s] as usize] &= !(1 << RANK_OF[s]);
    }

    fn put(&mut self, s: usize, piece: Piece) {
        self.board[s] = Some(piece);
        self.rank_occ[RANK_OF[s] as usize] |= 1 << FILE_OF[s];
        self.file_occ[FILE_OF[s] as usize] |= 1 << RANK_OF[s];
    }

    /// `by`'s cheapest piece that can capture on `s`, with where it stands.
    fn cheapest_attacker(&self, s: usize, by: Color) -> Option<(usize, Kind)> {
        let board = &self.board;
        let own = |t: usize, kind: Kind| board[t] == Some(Piece::new(by, kind));
        let f = FILE_OF[s] as usize;
        let r = RANK_OF[s] as usize;

        // Soldiers: from behind, and from the side once across the river.
        let (behind, crossed) = match by {
            Color::Red => (s.checked_sub(9), r >= 5),
            Color::Black => ((s + 9 < Square::COUNT).then_some(s + 9), r <= 4),
        };
        if let Some(t) = behind.filter(|&t| own(t, Kind::Pawn)) {
            return Some((t, Kind::Pawn));
        }
        if crossed {
            if f > 0 && own(s - 1, Kind::Pawn) {
                return Some((s - 1, Kind::Pawn));
            }
            if f < 8 && own(s + 1, Kind::Pawn) {
                return Some((s + 1, Kind::Pawn));
            }
        }
        // Advisors and elephants reach only their own half, so any found is `by`'s own
        // piece there.
        for (t, _) in ADVISOR_MOVES[s].iter() {
            if own(t as usize, Kind::Advisor) {
                return Some((t as usize, Kind::Advisor));
            }
        }
        for (t, eye) in ELEPHANT_MOVES[s].iter() {
            if own(t as usize, Kind::Elephant) && board[eye as usize].is_none() {
                return Some((t as usize, Kind::Elephant));
            }
        }
        for (t, leg) in HORSE_ATTACKERS[s].iter() {
            if own(t as usize, Kind::Horse) && board[leg as usize].is_none() {
                return Some((t as usize, Kind::Horse));
            }
        }
        // Lines: the first piece each way may be a chariot, the second a cannon.
        let rb = &RANK_SLIDES[f][self.rank_occ[r] as usize];
        let fb = &FILE_SLIDES[r][self.file_occ[f] as usize];
        let on_rank = |i: usize| (rb[i] != NONE).then(|| r * 9 + rb[i] as usize);
        let on_file = |i: usize| (fb[i] != NONE).then(|| fb[i] as usize * 9 + f);
        for i in 2..4 {
            for t in [on_rank(i), on_file(i)].into_iter().flatten() {
                if own(t, Kind::Cannon) {
                    return Some((t, Kind::Cannon));
                }
            }
        }
        for i in 0..2 {
            for t in [on_rank(i), on_file(i)].into_iter().flatten() {
                if own(t, Kind::Rook) {
                    return Some((t, Kind::Rook));
                }
            }
        }
        // A general may not take onto a file where it would face the other general.
        let other = self.kings[(!by).index()];
        let faces = FILE_OF[other] as usize == f && {
            let fb = &FILE_SLIDES[r][self.file_occ[f] as usize];
            let toward = usize::from(RANK_OF[other] as usize > r);
            fb[toward] != NONE && fb[toward] as usize * 9 + f == other
        };
        if !faces {
            for (t, _) in KING_MOVES[s].iter() {
                if own(t as usize, Kind::King) {
                    return Some((t as usize, Kind::King));
                }
            }
        }
        None
    }
}

/// Static exchange evaluation on a position.
pub trait Exchange {
    /// Whether `mv` (pseudo-legal) wins at least `threshold` in material once the
    /// exchange on its destination is played out, each side free to stop taking back when
    /// that suits it.
    fn see_ge(&self, mv: Move, threshold: i32) -> bool;
}

impl<T: Tally> Exchange for Position<T> {
    fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        let from = mv.from().index();
        let to = mv.to().index();
        let Some(mover) = self.mailbox()[from] else {
            return false;
        };
        // What we win if nothing comes back, and what we lose if the mover is taken.
        let mut swap = self.mailbox()[to].map_or(0, |p| kind_value(p.kind())) - threshold;
        if swap < 0 {
            return false;
        }
        swap = kind_value(mover.kind()) - swap;
        if swap <= 0 {
            return true;
        }
        let mut scratch = Scratch {
            board: *self.mailbox(),
            rank_occ: *self.rank_occupancy(),
            file_occ: *self.file_occupancy(),
            kings: [
                self.king(Color::Red).index(),
                self.king(Color::Black).index(),
            ],
        };
        scratch.lift(from);
        scratch.put(to, mover);
        let mut side = mover.color();
        // 1 while the side that moved first is ahead of the threshold.
        let mut res = 1;
        loop {
            side = !side;
            let Some((at, kind)) = scratch.cheapest_attacker(to, side) else {
                break;
            };
            if kind == Kind::King {
                // The general may take only if nothing can take it back.
                return if scratch.cheapest_attacker(to, !side).is_some() {
                    res != 0
                } else {
                    res == 0
                };
            }
            res ^= 1;
            swap = kind_value(kind) - swap;
            if swap < res {
                break;
            }
            scratch.lift(at);
            scratch.put(to, Piece::new(side, kind));
        }
        res != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        let pos = crate::xiangqi::from_fen(fen).unwrap();
        pos.see_ge(mv.parse().unwrap(), threshold)
    }

    #[test]
    fn undefended_piece_is_won_whole() {
        // A quiet move to a point nothing attacks risks nothing.
        let fen = "4k4/9/9/9/4n4/9/9/9/9/3K4R w";
        assert!(see(fen, "i0i5", 0));
        assert!(!see(fen, "i0i5", 1));
        // Red's chariot takes a lone black horse.
        let fen = "4k4/9/9/9/8n/9/9/9/9/3K4R w";
        assert!(see(fen, "i0i5", 400));
        assert!(!see(fen, "i0i5", 401));
    }

    #[test]
    fn defended_piece_costs_the_taker() {
        // The horse on i5 is guarded by a chariot on i9: chariot for horse loses 500.
        let fen = "4k3r/9/9/9/8n/9/9/9/9/3K4R w";
        assert!(see(fen, "i0i5", -500));
        assert!(!see(fen, "i0i5", -499));
        // A soldier taking the same guarded horse wins it, less itself.
        let fen = "4k3r/9/9/9/8n/8P/9/9/9/3K5 w";
        assert!(see(fen, "i4i5", 400 - 65));
        assert!(!see(fen, "i4i5", 400 - 64));
    }

    #[test]
    fn cannon_screens_change_as_pieces_come_off() {
        // Black's cannon on e8 has no screen toward e5: the soldier there is free.
        let fen = "5k3/4c4/9/9/4p4/9/9/9/9/3KR4 w";
        assert!(see(fen, "e0e5", 65));
        // With a screen on e7 the cannon takes back: a chariot for a soldier.
        let fen = "5k3/4c4/4b4/9/4p4/9/9/9/9/3KR4 w";
        assert!(!see(fen, "e0e5", 0));
        // Red's cannon on e0, screened by the advisor on e1, takes the black cannon back
        // once it has landed on e5: soldier and cannon for the chariot.
        let fen = "5k3/4c4/4b4/9/R3p4/9/9/9/4A4/3KC4 w";
        assert!(see(fen, "a5e5", 65 - 900 + 450));
        assert!(!see(fen, "a5e5", 65 - 900 + 450 + 1));
    }

    #[test]
    fn horse_legs_and_the_general() {
        // A black horse on d7 guards e5 unless its leg on d6 is blocked.
        let fen = "5k3/9/3n5/9/4p4/4R4/9/9/9/3K5 w";
        assert!(!see(fen, "e4e5", 0));
        let fen = "5k3/9/3n5/3P5/4p4/4R4/9/9/9/3K5 w";
        assert!(see(fen, "e4e5", 65));
        // The general takes back a chariot that took its advisor, unless that point is
        // guarded.
        let fen = "4k4/4a4/9/9/9/9/9/9/9/3KR4 w";
        assert!(!see(fen, "e0e8", 0));
        let fen = "4k4/R3a4/9/9/9/9/9/9/9/3KR4 w";
        assert!(see(fen, "e0e8", 190));
        // Nor where it would face the other general: Red's general on e0 guards e8.
        let fen = "3k5/4a4/9/9/9/9/9/9/9/R3K4 w";
        assert!(see(fen, "a0a8", 0), "a quiet move to a8 risks nothing");
        let fen = "4k4/R8/9/9/9/9/9/9/9/3K5 w";
        assert!(
            !see(fen, "a8e8", 0),
            "e8 is next to the general: the chariot is lost"
        );
        let fen = "4k4/R3a4/9/9/9/9/9/9/9/4K4 w";
        assert!(
            see(fen, "a8e8", 190),
            "taking back would face Red's general"
        );
        let fen = "3k5/4a4/4R4/9/9/9/9/9/9/4K4 w";
        assert!(
            see(fen, "e7e8", 190),
            "the general on d9 may not take on the e-file"
        );
    }
}
