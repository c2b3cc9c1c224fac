//! Move generation: pseudo-legal moves from the tables, then the legality filter.
//!
//! Pseudo-legal moves obey each piece's movement (palace, river, eye, leg, screen) but
//! may leave the mover's general attacked or facing the other general;
//! [`Position::is_legal`] filters those out. Search generates pseudo-legal moves and
//! checks legality only for the moves it actually tries.

use super::piece::{Color, Kind};
use super::position::{Position, Tally};
use super::square::{Move, Square};
use super::tables::{
    ADVISOR_MOVES, ELEPHANT_MOVES, FILE_OF, FILE_SLIDES, HORSE_MOVES, KING_MOVES, NONE, PAWN_MOVES,
    RANK_OF, RANK_SLIDES, Steps,
};

/// More than the most pseudo-legal moves any xiangqi position has (about 120: two
/// chariots and two cannons on open lines, everything else free).
pub const MAX_MOVES: usize = 160;

/// A fixed-capacity list of moves, kept on the stack by search.
#[derive(Clone)]
pub struct MoveList {
    /// Storage; only the first `len` are moves.
    moves: [Move; MAX_MOVES],
    /// How many moves the list holds.
    len: usize,
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl MoveList {
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NONE; MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, mv: Move) {
        debug_assert!(self.len < MAX_MOVES);
        if self.len < MAX_MOVES {
            self.moves[self.len] = mv;
            self.len += 1;
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the moves for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut n = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[n] = m;
                n += 1;
            }
        }
        self.len = n;
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];

    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

/// Which moves to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GenType {
    /// Every pseudo-legal move.
    All,
    /// Only captures (for quiescence search).
    Captures,
    /// Only moves to empty points (the move picker's later stage).
    Quiets,
}

impl<T: Tally> Position<T> {
    /// Appends the pseudo-legal moves of the side to move to `list`.
    pub fn generate(&self, gen_type: GenType, list: &mut MoveList) {
        let us = self.side;
        let mut own = self.colors[us.index()];
        let quiets = gen_type != GenType::Captures;
        let captures = gen_type != GenType::Quiets;
        while own != 0 {
            let s = own.trailing_zeros() as usize;
            own &= own - 1;
            let from = Square::from_index_unchecked(s);
            let piece = self.board[s].expect("the colour set matches the board");
            match piece.kind() {
                Kind::Rook => self.gen_slider(from, false, captures, quiets, list),
                Kind::Cannon => self.gen_slider(from, true, captures, quiets, list),
                Kind::Horse => self.gen_steps(from, &HORSE_MOVES[s], true, captures, quiets, list),
                Kind::Elephant => {
                    self.gen_steps(from, &ELEPHANT_MOVES[s], true, captures, quiets, list)
                }
                Kind::Advisor => {
                    self.gen_steps(from, &ADVISOR_MOVES[s], false, captures, quiets, list)
                }
                Kind::King => self.gen_steps(from, &KING_MOVES[s], false, captures, quiets, list),
                Kind::Pawn => {
                    let steps = &PAWN_MOVES[us.index()][s];
                    self.gen_steps(from, steps, false, captures, quiets, list)
                }
            }
        }
    }

    #[inline]
    fn gen_steps(
        &self,
        from: Square,
        steps: &Steps,
        blockable: bool,
        captures: bool,
        quiets: bool,
        list: &mut MoveList,
    ) {
        let us = self.side;
        for i in 0..steps.len as usize {
            if blockable && self.board[steps.block[i] as usize].is_some() {
                continue;
            }
            let to = steps.to[i] as usize;
            match self.board[to] {
                None if quiets => list.push(Move::new(from, Square::from_index_unchecked(to))),
                Some(p) if captures && p.color() != us => {
                    list.push(Move::new(from, Square::from_index_unchecked(to)))
                }
                _ => {}
            }
        }
    }

    #[inline]
    fn gen_slider(
        &self,
        from: Square,
        cannon: bool,
        captures: bool,
        quiets: bool,
        list: &mut MoveList,
    ) {
        let s = from.index();
        let f = FILE_OF[s] as usize;
        let r = RANK_OF[s] as usize;
        let us = self.side;
        let capture_index = if cannon { 2 } else { 0 };

        let rb = &RANK_SLIDES[f][self.rank_occ[r] as usize];
        let row = r * 9;
        // Toward file a, then toward file i.
        for dir in 0..2 {
            if quiets {
                let first = rb[dir];
                if dir == 0 {
                    let stop = if first == NONE { 0 } else { first as usize + 1 };
                    for t in (stop..f).rev() {
                        list.push(Move::new(from, Square::from_index_unchecked(row + t)));
                    }
                } else {
                    let stop = if first == NONE { 9 } else { first as usize };
                    for t in f + 1..stop {
                        list.push(Move::new(from, Square::from_index_unchecked(row + t)));
                    }
                }
            }
            let target = rb[dir + capture_index];
            if captures && target != NONE {
                let to = row + target as usize;
                if self.board[to].is_some_and(|p| p.color() != us) {
                    list.push(Move::new(from, Square::from_index_unchecked(to)));
                }
            }
        }

        let fb = &FILE_SLIDES[r][self.file_occ[f] as usize];
        // Toward rank 0, then toward rank 9.
        for dir in 0..2 {
            if quiets {
                let first = fb[dir];
                if dir == 0 {
                    let stop = if first == NONE { 0 } else { first as usize + 1 };
                    for t in (stop..r).rev() {
                        list.push(Move::new(from, Square::from_index_unchecked(t * 9 + f)));
                    }
                } else {
                    let stop = if first == NONE { 10 } else { first as usize };
                    for t in r + 1..stop {
                        list.push(Move::new(from, Square::from_index_unchecked(t * 9 + f)));
                    }
                }
            }
            let target = fb[dir + capture_index];
            if captures && target != NONE {
                let to = target as usize * 9 + f;
                if self.board[to].is_some_and(|p| p.color() != us) {
                    list.push(Move::new(from, Square::from_index_unchecked(to)));
                }
            }
        }
    }

    /// Every legal move of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(GenType::All, &mut list);
        let in_check = self.in_check();
        let mut scratch = self.clone();
        list.retain(|m| scratch.is_legal(m, in_check));
        list
    }

    /// Whether `mv` is a legal move here.
    pub fn is_legal_move(&self, mv: Move) -> bool {
        self.is_pseudo_legal(mv) && self.clone().is_legal(mv, self.in_check())
    }

    /// Whether `mv` follows the moving piece's rules (ignoring the safety of the mover's
    /// general). Used to vet moves from hash tables, killers and other peers.
    pub fn is_pseudo_legal(&self, mv: Move) -> bool {
        let from = mv.from();
        let to = mv.to();
        if from == to {
            return false;
        }
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        let us = self.side;
        if piece.color() != us {
            return false;
        }
        let target = self.piece_at(to);
        if target.is_some_and(|p| p.color() == us) {
            return false;
        }
        let s = from.index();
        let in_steps = |steps: &Steps, blockable: bool| {
            steps.iter().any(|(t, b)| {
                t as usize == to.index() && (!blockable || self.board[b as usize].is_none())
            })
        };
        match piece.kind() {
            Kind::King => in_steps(&KING_MOVES[s], false),
            Kind::Advisor => in_steps(&ADVISOR_MOVES[s], false),
            Kind::Elephant => in_steps(&ELEPHANT_MOVES[s], true),
            Kind::Horse => in_steps(&HORSE_MOVES[s], true),
            Kind::Pawn => in_steps(&PAWN_MOVES[us.index()][s], false),
            Kind::Rook | Kind::Cannon => {
                if from.file() != to.file() && from.rank() != to.rank() {
                    return false;
                }
                let between = self.count_between(from, to);
                match (piece.kind(), target) {
                    (Kind::Rook, _) | (Kind::Cannon, None) => between == 0,
                    _ => between == 1,
                }
            }
        }
    }

    /// Pieces strictly between two points on one rank or file.
    pub fn count_between(&self, a: Square, b: Square) -> u32 {
        let (lo, hi, mask) = if a.rank() == b.rank() {
            let (lo, hi) = (a.file().min(b.file()), a.file().max(b.file()));
            (lo, hi, u32::from(self.rank_occ[a.rank() as usize]))
        } else {
            let (lo, hi) = (a.rank().min(b.rank()), a.rank().max(b.rank()));
            (lo, hi, u32::from(self.file_occ[a.file() as usize]))
        };
        if hi <= lo + 1 {
            return 0;
        }
        let inner = ((1u32 << hi) - 1) & !((1u32 << (lo + 1)) - 1);
        (mask & inner).count_ones()
    }

    /// Whether `color` has at least one legal move (stops at the first one found).
    pub fn has_legal_move(&self) -> bool {
        let mut list = MoveList::new();
        self.generate(GenType::All, &mut list);
        let in_check = self.in_check();
        let mut scratch = self.clone();
        list.iter().any(|&m| scratch.is_legal(m, in_check))
    }

    /// The colour that would be mated or stalemated here: the side to move when it has no
    /// legal move.
    pub fn stuck(&self) -> Option<Color> {
        (!self.has_legal_move()).then_some(self.side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn legal(fen: &str) -> Vec<String> {
        let mut v: Vec<String> = Position::from_fen(fen)
            .unwrap()
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn start_has_44_moves() {
        assert_eq!(Position::start().legal_moves().len(), 44);
    }

    #[test]
    fn flying_general_is_never_allowed() {
        // The only piece between the generals may not leave the file.
        let moves = legal("4k4/9/9/9/4N4/9/9/9/9/4K4 w");
        assert!(moves.iter().all(|m| !m.starts_with("e5")), "{moves:?}");
        assert!(!moves.is_empty());
        // And a general may not step onto the other's open file.
        let moves = legal("3k5/9/9/9/9/9/9/9/9/4K4 w");
        assert!(!moves.contains(&"e0d0".to_string()));
        assert!(moves.contains(&"e0e1".to_string()));
    }

    #[test]
    fn horse_leg_and_elephant_eye_block() {
        // Horse on b0 with a piece on b1: the two forward jumps are blocked.
        let moves = legal("3k5/9/9/9/9/9/9/9/1p7/1N2K4 w");
        assert!(!moves.contains(&"b0a2".to_string()));
        assert!(!moves.contains(&"b0c2".to_string()));
        assert!(moves.contains(&"b0d1".to_string()));
        // Elephant on c0 with its eye d1 taken cannot reach e2.
        let moves = legal("3k5/9/9/9/9/9/9/9/3p5/2B1K4 w");
        assert!(!moves.contains(&"c0e2".to_string()));
        assert!(moves.contains(&"c0a2".to_string()));
    }

    #[test]
    fn cannon_needs_exactly_one_screen() {
        let pos = Position::from_fen("4k4/9/9/9/9/r8/p8/9/9/C2K5 w").unwrap();
        let moves = pos.legal_moves();
        assert!(
            moves.contains(&"a0a4".parse().unwrap()),
            "capture over one screen"
        );
        assert!(
            !moves.contains(&"a0a3".parse().unwrap()),
            "cannot move onto the screen"
        );
        let pos = Position::from_fen("4k4/9/9/9/9/r8/9/9/9/C2K5 w").unwrap();
        assert!(
            !pos.legal_moves().contains(&"a0a4".parse().unwrap()),
            "no screen, no capture"
        );
    }

    #[test]
    fn pseudo_legality_agrees_with_generation() {
        for fen in [
            super::super::fen::START,
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let mut list = MoveList::new();
            pos.generate(GenType::All, &mut list);
            for from in Square::all() {
                for to in Square::all() {
                    let m = Move::new(from, to);
                    assert_eq!(
                        pos.is_pseudo_legal(m),
                        from != to && list.contains(&m),
                        "{m}"
                    );
                }
            }
            let mut caps = MoveList::new();
            pos.generate(GenType::Captures, &mut caps);
            let want: Vec<Move> = list
                .iter()
                .copied()
                .filter(|m| pos.piece_at(m.to()).is_some())
                .collect();
            assert_eq!(caps.as_slice(), want.as_slice());
            let mut quiets = MoveList::new();
            pos.generate(GenType::Quiets, &mut quiets);
            let want: Vec<Move> = list
                .iter()
                .copied()
                .filter(|m| pos.piece_at(m.to()).is_none())
                .collect();
            assert_eq!(quiets.as_slice(), want.as_slice());
        }
    }

    /// The legality filter's shortcut against the definition: play the move in full and
    /// look at the mover's general.
    fn naive_legal(pos: &Position) -> Vec<Move> {
        let mut list = MoveList::new();
        pos.generate(GenType::All, &mut list);
        let us = pos.side_to_move();
        let mut v: Vec<Move> = list
            .iter()
            .copied()
            .filter(|&m| {
                let mut p = pos.clone();
                p.make(m);
                !p.attacked(p.king(us), !us) && !p.generals_face()
            })
            .collect();
        v.sort_by_key(|m| m.bits());
        v
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
        #[test]
        fn legal_moves_match_the_definition_along_random_games(seed in proptest::prelude::any::<u64>()) {
            let mut pos = Position::start();
            let mut state = seed | 1;
            for _ in 0..150 {
                let mut fast: Vec<Move> = pos.legal_moves().to_vec();
                fast.sort_by_key(|m| m.bits());
                proptest::prop_assert_eq!(&fast, &naive_legal(&pos), "{}", pos.fen());
                for &m in &fast {
                    let mut after = pos.clone();
                    after.make(m);
                    let mut scratch = pos.clone();
                    proptest::prop_assert_eq!(scratch.gives_check(m), after.in_check(), "{} {}", pos.fen(), m);
                }
                if fast.is_empty() {
                    break;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                // Prefer captures now and then so games reach sparse endgames.
                let caps: Vec<Move> = fast.iter().copied().filter(|m| pos.piece_at(m.to()).is_some()).collect();
                let mv = if !caps.is_empty() && state % 3 == 0 {
                    caps[(state >> 8) as usize % caps.len()]
                } else {
                    fast[(state >> 8) as usize % fast.len()]
                };
                let before = pos.clone();
                let undo = pos.make(mv);
                proptest::prop_assert_eq!(pos.key(), pos.key_from_scratch());
                let reread = Position::from_fen(&pos.fen()).expect("positions reached by play are legal");
                proptest::prop_assert!(reread == pos);
                proptest::prop_assert_eq!(reread.key(), pos.key());
                let mut back = pos.clone();
                back.unmake(mv, undo);
                proptest::prop_assert!(back == before);
            }
        }
    }
}
