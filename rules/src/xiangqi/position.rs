//! The position: which piece stands where, whose move it is, and the counters the rules
//! need, with make/unmake and attack detection for search and move validation.
//!
//! Layout: a 90-entry mailbox `board[rank * 9 + file]` of `Option<Piece>` (one byte each)
//! answers "what is on this point"; a `u128` bit set per colour lets move generation visit
//! only its own pieces; and each rank's and file's occupancy as a small bit mask
//! (`rank_occ[r]` bit `f`, `file_occ[f]` bit `r`) feeds the slide tables in
//! [`super::tables`], which give a chariot's or cannon's targets, and the attackers of a
//! general, in one lookup per direction. The Zobrist key, the piece counts and the
//! [`Tally`] are updated incrementally by [`Position::make`] and restored by
//! [`Position::unmake`].
//!
//! A search wants more than the rules kept up to date as pieces come and go (banco's
//! engine keeps its material and square values): that is a [`Tally`], a type parameter
//! the rules call on every arrival and departure and otherwise never read. The rules'
//! own positions carry none (`()`); [`Position::with_tally`] gives a copy that keeps one.

use std::fmt;

use super::piece::{Color, Kind, Piece};
use super::square::{Move, Square};
use super::tables::{
    ADVISOR_MOVES, ELEPHANT_MOVES, FILE_OF, FILE_SLIDES, HORSE_ATTACKERS, KING_MOVES, NONE,
    RANK_OF, RANK_SLIDES, Steps,
};
use super::zobrist;

/// Values a search keeps up to date as pieces arrive on and leave squares (for banco's
/// engine, its material and square values). The rules never read them.
pub trait Tally: Copy + Default {
    /// `piece` arrives on `sq`.
    fn add(&mut self, piece: Piece, sq: Square);
    /// `piece` leaves `sq`.
    fn remove(&mut self, piece: Piece, sq: Square);
    /// `piece` moves from `from` to `to`.
    #[inline]
    fn shift(&mut self, piece: Piece, from: Square, to: Square) {
        self.remove(piece, from);
        self.add(piece, to);
    }
}

/// The rules' own positions keep no tally.
impl Tally for () {
    #[inline]
    fn add(&mut self, _: Piece, _: Square) {}
    #[inline]
    fn remove(&mut self, _: Piece, _: Square) {}
}

/// A xiangqi position. Construct it with [`Position::start`] or from a FEN
/// ([`Position::from_fen`]); either way it is a legal position.
#[derive(Clone)]
pub struct Position<T: Tally = ()> {
    /// What stands on each point, by square index.
    pub(super) board: [Option<Piece>; Square::COUNT],
    /// Each colour's pieces as a set of square indices, for visiting them quickly.
    pub(super) colors: [u128; 2],
    /// Occupied files of each rank (bit `file`), for the slide tables.
    pub(super) rank_occ: [u16; 10],
    /// Occupied ranks of each file (bit `rank`), for the slide tables.
    pub(super) file_occ: [u16; 9],
    /// Where each general stands, by colour index.
    pub(super) kings: [Square; 2],
    /// How many pieces of each kind each colour has, for the no-material rule.
    pub(super) counts: [[u8; 7]; 2],
    /// Whose move it is.
    pub(super) side: Color,
    /// Zobrist key of the placement and the side to move.
    pub(super) key: u64,
    /// What a search keeps up to date as pieces come and go ([`Tally`]).
    pub(super) tally: T,
    /// Plies since the last capture, for the sixty-move rule.
    pub(super) halfmove: u32,
    /// The FEN's move number: starts at 1, grows after each Black move.
    pub(super) fullmove: u32,
}

/// What [`Position::make`] needs to take a move back.
#[derive(Clone, Copy, Debug)]
pub struct Undo<T: Tally = ()> {
    /// The piece the move captured, if any.
    pub captured: Option<Piece>,
    /// The Zobrist key before the move.
    key: u64,
    /// The tally before the move.
    tally: T,
    /// The sixty-move clock before the move.
    halfmove: u32,
}

#[inline]
const fn bit(sq: usize) -> u128 {
    1u128 << sq
}

impl Position {
    /// The usual start position, Red to move.
    pub fn start() -> Position {
        Position::from_fen(super::fen::START).expect("the start FEN is valid")
    }
}

impl<T: Tally> Position<T> {
    /// An empty board with Red to move; the FEN reader fills it and then validates it.
    pub(super) fn empty() -> Position<T> {
        Position {
            board: [None; Square::COUNT],
            colors: [0; 2],
            rank_occ: [0; 10],
            file_occ: [0; 9],
            kings: [Square::from_index_unchecked(0); 2],
            counts: [[0; 7]; 2],
            side: Color::Red,
            key: 0,
            tally: T::default(),
            halfmove: 0,
            fullmove: 1,
        }
    }

    /// Places `piece` on the empty square `sq`, updating every incremental field.
    pub(super) fn put(&mut self, piece: Piece, sq: Square) {
        debug_assert!(self.board[sq.index()].is_none());
        let s = sq.index();
        let c = piece.color().index();
        self.board[s] = Some(piece);
        self.colors[c] |= bit(s);
        self.rank_occ[sq.rank() as usize] |= 1 << sq.file();
        self.file_occ[sq.file() as usize] |= 1 << sq.rank();
        self.key ^= zobrist::piece_key(piece, sq);
        self.tally.add(piece, sq);
        self.counts[c][piece.kind().index()] += 1;
        if piece.kind() == Kind::King {
            self.kings[c] = sq;
        }
    }

    /// Sets the side to move (FEN reading).
    pub(super) fn set_side(&mut self, side: Color) {
        if self.side != side {
            self.key ^= zobrist::BLACK_TO_MOVE;
            self.side = side;
        }
    }

    /// What stands on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Whose move it is.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The Zobrist key: equal positions (placement and side to move) have equal keys.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Where `color`'s general stands.
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        self.kings[color.index()]
    }

    /// How many pieces of `kind` `color` has.
    #[inline]
    pub fn count(&self, color: Color, kind: Kind) -> u32 {
        u32::from(self.counts[color.index()][kind.index()])
    }

    /// Plies since the last capture (the FEN's halfmove clock).
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The FEN's move number.
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// Every piece with its square, Red's and Black's alike, from a0 upward.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|sq| self.piece_at(sq).map(|p| (sq, p)))
    }

    /// The mailbox: what stands on each point, by square index (`rank * 9 + file`).
    #[inline]
    pub fn mailbox(&self) -> &[Option<Piece>; Square::COUNT] {
        &self.board
    }

    /// `color`'s pieces as a set of square indices (bit `rank * 9 + file`).
    #[inline]
    pub fn color_set(&self, color: Color) -> u128 {
        self.colors[color.index()]
    }

    /// Occupied files of each rank (bit `file`), the index into the rank slide tables.
    #[inline]
    pub fn rank_occupancy(&self) -> &[u16; 10] {
        &self.rank_occ
    }

    /// Occupied ranks of each file (bit `rank`), the index into the file slide tables.
    #[inline]
    pub fn file_occupancy(&self) -> &[u16; 9] {
        &self.file_occ
    }

    /// What the search keeps up to date as pieces come and go.
    #[inline]
    pub fn tally(&self) -> &T {
        &self.tally
    }

    /// This position with a tally of `U`, counted from its pieces.
    pub fn with_tally<U: Tally>(&self) -> Position<U> {
        let mut tally = U::default();
        for (sq, piece) in self.pieces() {
            tally.add(piece, sq);
        }
        Position {
            board: self.board,
            colors: self.colors,
            rank_occ: self.rank_occ,
            file_occ: self.file_occ,
            kings: self.kings,
            counts: self.counts,
            side: self.side,
            key: self.key,
            tally,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
        }
    }

    /// Whether `color` still has a chariot, horse, cannon or soldier.
    pub fn has_attackers(&self, color: Color) -> bool {
        let c = &self.counts[color.index()];
        c[Kind::Horse.index()]
            + c[Kind::Rook.index()]
            + c[Kind::Cannon.index()]
            + c[Kind::Pawn.index()]
            > 0
    }

    /// Whether the side to move is in check (its general is attacked, or faces the other
    /// general on an open file).
    #[inline]
    pub fn in_check(&self) -> bool {
        self.attacked(self.kings[self.side.index()], !self.side)
    }

    /// Whether `by` attacks the point `sq` with a chariot, cannon, horse or soldier, or with
    /// its general along an open file. Complete for every point a general can stand on
    /// (advisors and elephants never reach the other side's palace); other points also
    /// answer for those five attackers, which is what move validation and search need.
    pub fn attacked(&self, sq: Square, by: Color) -> bool {
        let s = sq.index();
        let f = FILE_OF[s] as usize;
        let r = RANK_OF[s] as usize;
        let rook = Some(Piece::new(by, Kind::Rook));
        let cannon = Some(Piece::new(by, Kind::Cannon));
        let king = Some(Piece::new(by, Kind::King));
        let board = &self.board;

        let rb = &RANK_SLIDES[f][self.rank_occ[r] as usize];
        let row = r * 9;
        for dir in 0..2 {
            let first = rb[dir];
            if first != NONE {
                if board[row + first as usize] == rook {
                    return true;
                }
                let second = rb[dir + 2];
                if second != NONE && board[row + second as usize] == cannon {
                    return true;
                }
            }
        }
        let fb = &FILE_SLIDES[r][self.file_occ[f] as usize];
        for dir in 0..2 {
            let first = fb[dir];
            if first != NONE {
                let p = board[first as usize * 9 + f];
                if p == rook || p == king {
                    return true;
                }
                let second = fb[dir + 2];
                if second != NONE && board[second as usize * 9 + f] == cannon {
                    return true;
                }
            }
        }
        let horse = Some(Piece::new(by, Kind::Horse));
        let steps = &HORSE_ATTACKERS[s];
        for i in 0..steps.len as usize {
            if board[steps.to[i] as usize] == horse && board[steps.block[i] as usize].is_none() {
                return true;
            }
        }
        let pawn = Some(Piece::new(by, Kind::Pawn));
        match by {
            Color::Red => {
                if r > 0 && board[s - 9] == pawn {
                    return true;
                }
                if r >= 5 && ((f > 0 && board[s - 1] == pawn) || (f < 8 && board[s + 1] == pawn)) {
                    return true;
                }
            }
            Color::Black => {
                if r < 9 && board[s + 9] == pawn {
                    return true;
                }
                if r <= 4 && ((f > 0 && board[s - 1] == pawn) || (f < 8 && board[s + 1] == pawn)) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the two generals stand on one file with nothing between them.
    pub fn generals_face(&self) -> bool {
        let red = self.kings[0];
        let black = self.kings[1];
        if red.file() != black.file() {
            return false;
        }
        let fb = &FILE_SLIDES[red.rank() as usize][self.file_occ[red.file() as usize] as usize];
        fb[1] == black.rank()
    }

    /// Plays `mv` (which must be pseudo-legal for the side to move) and returns what
    /// [`Position::unmake`] needs to take it back.
    #[inline]
    pub fn make(&mut self, mv: Move) -> Undo<T> {
        let from = mv.from().index();
        let to = mv.to().index();
        let piece = self.board[from].expect("a move starts on a piece");
        let captured = self.board[to];
        let undo = Undo {
            captured,
            key: self.key,
            tally: self.tally,
            halfmove: self.halfmove,
        };
        let us = self.side.index();
        if let Some(c) = captured {
            let them = us ^ 1;
            self.colors[them] &= !bit(to);
            self.key ^= zobrist::piece_key(c, mv.to());
            self.tally.remove(c, mv.to());
            self.counts[them][c.kind().index()] -= 1;
            self.halfmove = 0;
        } else {
            self.rank_occ[RANK_OF[to] as usize] |= 1 << FILE_OF[to];
            self.file_occ[FILE_OF[to] as usize] |= 1 << RANK_OF[to];
            self.halfmove += 1;
        }
        self.rank_occ[RANK_OF[from] as usize] &= !(1 << FILE_OF[from]);
        self.file_occ[FILE_OF[from] as usize] &= !(1 << RANK_OF[from]);
        self.board[from] = None;
        self.board[to] = Some(piece);
        self.colors[us] ^= bit(from) | bit(to);
        self.key ^= zobrist::piece_key(piece, mv.from())
            ^ zobrist::piece_key(piece, mv.to())
            ^ zobrist::BLACK_TO_MOVE;
        self.tally.shift(piece, mv.from(), mv.to());
        if piece.kind() == Kind::King {
            self.kings[us] = mv.to();
        }
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = !self.side;
        undo
    }

    /// Takes back `mv`, which must be the last move made, with the [`Undo`] it returned.
    #[inline]
    pub fn unmake(&mut self, mv: Move, undo: Undo<T>) {
        self.side = !self.side;
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
        let from = mv.from().index();
        let to = mv.to().index();
        let piece = self.board[to].expect("the moved piece is on its destination");
        let us = self.side.index();
        self.board[from] = Some(piece);
        self.board[to] = undo.captured;
        self.colors[us] ^= bit(from) | bit(to);
        self.rank_occ[RANK_OF[from] as usize] |= 1 << FILE_OF[from];
        self.file_occ[FILE_OF[from] as usize] |= 1 << RANK_OF[from];
        if let Some(c) = undo.captured {
            self.colors[us ^ 1] |= bit(to);
            self.counts[us ^ 1][c.kind().index()] += 1;
        } else {
            self.rank_occ[RANK_OF[to] as usize] &= !(1 << FILE_OF[to]);
            self.file_occ[FILE_OF[to] as usize] &= !(1 << RANK_OF[to]);
        }
        if piece.kind() == Kind::King {
            self.kings[us] = mv.from();
        }
        self.key = undo.key;
        self.tally = undo.tally;
        self.halfmove = undo.halfmove;
    }

    /// Passes the move (for a search's null-move pruning). Never legal in a game.
    #[inline]
    pub fn make_null(&mut self) {
        self.side = !self.side;
        self.key ^= zobrist::BLACK_TO_MOVE;
    }

    /// Takes back [`Position::make_null`].
    #[inline]
    pub fn unmake_null(&mut self) {
        self.side = !self.side;
        self.key ^= zobrist::BLACK_TO_MOVE;
    }

    /// Whether `by` could capture on `sq`: [`Position::attacked`] plus the general,
    /// advisors and elephants (which defend only their own half). For move ordering.
    pub fn defended(&self, sq: Square, by: Color) -> bool {
        if self.attacked(sq, by) {
            return true;
        }
        let s = sq.index();
        let hit = |steps: &Steps, kind: Kind, blockable: bool| {
            let want = Some(Piece::new(by, kind));
            steps.iter().any(|(t, b)| {
                self.board[t as usize] == want && (!blockable || self.board[b as usize].is_none())
            })
        };
        hit(&ADVISOR_MOVES[s], Kind::Advisor, false)
            || hit(&ELEPHANT_MOVES[s], Kind::Elephant, true)
            || hit(&KING_MOVES[s], Kind::King, false)
    }

    /// Whether the pseudo-legal `mv` leaves the mover's general safe. `in_check` must say
    /// whether the mover is in check now: when it is not, only moves that touch a line
    /// through the general or a horse-leg point beside it can expose it, and the others
    /// are accepted without playing them.
    #[inline]
    pub fn is_legal(&mut self, mv: Move, in_check: bool) -> bool {
        let from = mv.from().index();
        let to = mv.to().index();
        let us = self.side;
        let king = self.kings[us.index()].index();
        let moving_king = from == king;
        let captured = self.board[to];
        if !in_check && !moving_king {
            let (kf, kr) = (FILE_OF[king], RANK_OF[king]);
            let (ff, fr) = (FILE_OF[from], RANK_OF[from]);
            let on_line = ff == kf || fr == kr;
            let on_leg = ff.abs_diff(kf) == 1 && fr.abs_diff(kr) == 1;
            let lands_on_line = captured.is_none() && (FILE_OF[to] == kf || RANK_OF[to] == kr);
            if !on_line && !on_leg && !lands_on_line {
                return true;
            }
        }
        // Play the move on the board and occupancy only: that is all `attacked` reads.
        let piece = self.board[from];
        self.board[to] = piece;
        self.board[from] = None;
        self.rank_occ[RANK_OF[from] as usize] ^= 1 << FILE_OF[from];
        self.file_occ[FILE_OF[from] as usize] ^= 1 << RANK_OF[from];
        if captured.is_none() {
            self.rank_occ[RANK_OF[to] as usize] ^= 1 << FILE_OF[to];
            self.file_occ[FILE_OF[to] as usize] ^= 1 << RANK_OF[to];
        }
        let target = if moving_king { to } else { king };
        let safe = !self.attacked(Square::from_index_unchecked(target), !us);
        self.board[from] = piece;
        self.board[to] = captured;
        self.rank_occ[RANK_OF[from] as usize] ^= 1 << FILE_OF[from];
        self.file_occ[FILE_OF[from] as usize] ^= 1 << RANK_OF[from];
        if captured.is_none() {
            self.rank_occ[RANK_OF[to] as usize] ^= 1 << FILE_OF[to];
            self.file_occ[FILE_OF[to] as usize] ^= 1 << RANK_OF[to];
        }
        safe
    }

    /// Whether the pseudo-legal `mv` would put the other general in check, without
    /// playing it. A move can check only through the lines, horse legs and soldier
    /// steps around that general: a move that touches none of them is answered at once;
    /// the others are played on the board and occupancy alone, as [`Position::is_legal`]
    /// does.
    pub fn gives_check(&mut self, mv: Move) -> bool {
        let from = mv.from().index();
        let to = mv.to().index();
        let us = self.side;
        let king = self.kings[(!us).index()].index();
        let (kf, kr) = (FILE_OF[king], RANK_OF[king]);
        // On a line through the general (a chariot's or cannon's shot, a screen, a
        // blocker) or diagonally beside it (a horse's leg).
        let near = |s: usize| {
            let (f, r) = (FILE_OF[s], RANK_OF[s]);
            f == kf || r == kr || (f.abs_diff(kf) == 1 && r.abs_diff(kr) == 1)
        };
        let Some(piece) = self.board[from] else {
            return false;
        };
        let direct = match piece.kind() {
            Kind::Horse => HORSE_ATTACKERS[king].iter().any(|(t, _)| t as usize == to),
            Kind::Pawn => FILE_OF[to].abs_diff(kf) + RANK_OF[to].abs_diff(kr) == 1,
            _ => false,
        };
        if !direct && !near(from) && !near(to) {
            return false;
        }
        let captured = self.board[to];
        self.board[to] = Some(piece);
        self.board[from] = None;
        self.rank_occ[RANK_OF[from] as usize] ^= 1 << FILE_OF[from];
        self.file_occ[FILE_OF[from] as usize] ^= 1 << RANK_OF[from];
        if captured.is_none() {
            self.rank_occ[RANK_OF[to] as usize] ^= 1 << FILE_OF[to];
            self.file_occ[FILE_OF[to] as usize] ^= 1 << RANK_OF[to];
        }
        let check = self.attacked(Square::from_index_unchecked(king), us);
        self.board[from] = Some(piece);
        self.board[to] = captured;
        self.rank_occ[RANK_OF[from] as usize] ^= 1 << FILE_OF[from];
        self.file_occ[FILE_OF[from] as usize] ^= 1 << RANK_OF[from];
        if captured.is_none() {
            self.rank_occ[RANK_OF[to] as usize] ^= 1 << FILE_OF[to];
            self.file_occ[FILE_OF[to] as usize] ^= 1 << RANK_OF[to];
        }
        check
    }

    /// The key computed from scratch; equals [`Position::key`] (checked in tests).
    #[cfg(test)]
    pub(super) fn key_from_scratch(&self) -> u64 {
        let mut k = 0;
        for (sq, p) in self.pieces() {
            k ^= zobrist::piece_key(p, sq);
        }
        if self.side == Color::Black {
            k ^= zobrist::BLACK_TO_MOVE;
        }
        k
    }
}

impl<T: Tally> PartialEq for Position<T> {
    /// Positions are equal when their placement, side to move and clocks are.
    fn eq(&self, other: &Position<T>) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
    }
}

impl<T: Tally> Eq for Position<T> {}

impl<T: Tally> fmt::Display for Position<T> {
    /// A diagram with Black at the top, FEN letters, and the side to move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..10u8).rev() {
            write!(f, "{rank} ")?;
            for file in 0..9u8 {
                let sq = Square::new(file, rank).expect("on the board");
                let c = self.piece_at(sq).map_or('.', Piece::fen_char);
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   a b c d e f g h i")?;
        write!(f, "{} to move", self.side)
    }
}

impl<T: Tally> fmt::Debug for Position<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}
