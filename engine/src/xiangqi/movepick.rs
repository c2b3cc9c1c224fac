//! The move picker: hands the search one move at a time, best guesses first, generating
//! lazily so that a cutoff by the hash move costs no move generation at all.
//!
//! Main search: the hash move; captures that do not lose material (SEE), biggest victim
//! first, then by capture history; the two killers and the countermove; quiet moves by
//! history (side, from-to) plus continuation history (the moves one, two and four plies
//! back); last the losing captures. In check: every evasion, captures first. Quiescence:
//! the hash move if it captures, then the captures. ProbCut: captures whose exchange wins
//! at least a threshold.

use super::Position;
use super::history::{History, slot};
use super::psq::kind_value;
use super::see::Exchange;
use banco_rules::xiangqi::movegen::{GenType, MAX_MOVES, MoveList};
use banco_rules::xiangqi::piece::Kind;
use banco_rules::xiangqi::square::Move;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    TtMove,
    GenCaptures,
    GoodCaptures,
    Killer0,
    Killer1,
    Counter,
    GenQuiets,
    Quiets,
    BadCaptures,
    GenEvasions,
    Evasions,
    QGenCaptures,
    QCaptures,
    ProbCutGen,
    ProbCut,
    Done,
}

/// Which search the picker serves: it decides the stages after the hash move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flavour {
    Main,
    Evasion,
    Quiescence,
    ProbCut,
}

/// The picker. Built per node; [`MovePicker::next`] until it returns `None`.
pub struct MovePicker {
    flavour: Flavour,
    stage: Stage,
    /// The hash move, already checked pseudo-legal (or [`Move::NONE`]).
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    /// Continuation slots of the moves 1, 2 and 4 plies back.
    cont: [usize; 3],
    /// ProbCut's exchange threshold.
    threshold: i32,
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    /// Next index to look at in `moves`.
    cur: usize,
    /// Captures set aside as losing, searched after the quiet moves.
    bad: MoveList,
    bad_cur: usize,
    /// Set by the search when later quiet moves are not worth trying (move-count pruning).
    pub skip_quiets: bool,
}

impl MovePicker {
    /// A picker of `flavour` that starts with `tt_move` if there is one.
    fn start(flavour: Flavour, tt_move: Move) -> MovePicker {
        let mut mp = MovePicker {
            flavour,
            stage: Stage::TtMove,
            tt_move,
            killers: [Move::NONE; 2],
            counter: Move::NONE,
            cont: [0; 3],
            threshold: 0,
            moves: MoveList::new(),
            scores: [0; MAX_MOVES],
            cur: 0,
            bad: MoveList::new(),
            bad_cur: 0,
            skip_quiets: false,
        };
        if tt_move == Move::NONE {
            mp.stage = mp.after_tt_move();
        }
        mp
    }

    fn after_tt_move(&self) -> Stage {
        match self.flavour {
            Flavour::Main => Stage::GenCaptures,
            Flavour::Evasion => Stage::GenEvasions,
            Flavour::Quiescence => Stage::QGenCaptures,
            Flavour::ProbCut => Stage::ProbCutGen,
        }
    }

    /// For a node of the main search. `in_check` selects the evasion stages.
    pub fn main(
        tt_move: Option<Move>,
        in_check: bool,
        killers: [Move; 2],
        counter: Move,
        cont: [usize; 3],
    ) -> MovePicker {
        let flavour = if in_check {
            Flavour::Evasion
        } else {
            Flavour::Main
        };
        let mut mp = MovePicker::start(flavour, tt_move.unwrap_or(Move::NONE));
        mp.killers = killers;
        mp.counter = counter;
        mp.cont = cont;
        mp
    }

    /// For quiescence: the hash move if it captures (or evades), then captures; every
    /// evasion when in check.
    pub fn quiescence(pos: &Position, tt_move: Option<Move>, in_check: bool) -> MovePicker {
        let tt = tt_move
            .filter(|&m| in_check || pos.piece_at(m.to()).is_some())
            .unwrap_or(Move::NONE);
        let flavour = if in_check {
            Flavour::Evasion
        } else {
            Flavour::Quiescence
        };
        MovePicker::start(flavour, tt)
    }

    /// For ProbCut: captures whose exchange gains at least `threshold`.
    pub fn probcut(pos: &Position, tt_move: Option<Move>, threshold: i32) -> MovePicker {
        let tt = tt_move
            .filter(|&m| pos.piece_at(m.to()).is_some() && pos.see_ge(m, threshold))
            .unwrap_or(Move::NONE);
        let mut mp = MovePicker::start(Flavour::ProbCut, tt);
        mp.threshold = threshold;
        mp
    }

    /// Brings the best-scored remaining move to `cur` and returns it.
    #[inline]
    fn pick_best(&mut self) -> Option<(Move, i32)> {
        let list = self.moves.as_mut_slice();
        if self.cur >= list.len() {
            return None;
        }
        let mut best = self.cur;
        for j in self.cur + 1..list.len() {
            if self.scores[j] > self.scores[best] {
                best = j;
            }
        }
        list.swap(self.cur, best);
        self.scores.swap(self.cur, best);
        let out = (list[self.cur], self.scores[self.cur]);
        self.cur += 1;
        Some(out)
    }

    fn score_captures(&mut self, pos: &Position, h: &History) {
        for (i, &mv) in self.moves.iter().enumerate() {
            let victim = pos.piece_at(mv.to()).map_or(Kind::Pawn, |p| p.kind());
            let capture_history = pos
                .piece_at(mv.from())
                .map_or(0, |p| h.capture(p, mv.to(), victim));
            self.scores[i] = 8 * kind_value(victim) + capture_history / 8;
        }
    }

    fn score_quiets(&mut self, pos: &Position, h: &History) {
        let side = pos.side_to_move();
        for (i, &mv) in self.moves.iter().enumerate() {
            let Some(piece) = pos.piece_at(mv.from()) else {
                self.scores[i] = i32::MIN;
                continue;
            };
            let s = slot(piece, mv.to());
            self.scores[i] = h.main(side, mv)
                + h.cont(self.cont[0], s)
                + h.cont(self.cont[1], s)
                + h.cont(self.cont[2], s) / 2;
        }
    }

    fn score_evasions(&mut self, pos: &Position, h: &History) {
        let side = pos.side_to_move();
        for (i, &mv) in self.moves.iter().enumerate() {
            let Some(piece) = pos.piece_at(mv.from()) else {
                self.scores[i] = i32::MIN;
                continue;
            };
            self.scores[i] = match pos.piece_at(mv.to()) {
                Some(victim) => {
                    (1 << 24) + kind_value(victim.kind()) * 16 - kind_value(piece.kind()) / 16
                }
                None => {
                    let s = slot(piece, mv.to());
                    h.main(side, mv) + h.cont(self.cont[0], s)
                }
            };
        }
    }

    /// Whether `mv` is a quiet move already handed out as hash move, killer or counter.
    #[inline]
    fn special_quiet(&self, mv: Move) -> bool {
        mv == self.tt_move || mv == self.killers[0] || mv == self.killers[1] || mv == self.counter
    }

    /// A killer or countermove worth trying here: pseudo-legal, quiet, not the hash move.
    #[inline]
    fn usable_quiet(&self, pos: &Position, mv: Move) -> bool {
        mv != Move::NONE
            && mv != self.tt_move
            && pos.piece_at(mv.to()).is_none()
            && pos.is_pseudo_legal(mv)
    }

    /// The next move to try, or `None` when there are no more. Moves are pseudo-legal;
    /// the caller checks legality.
    pub fn next(&mut self, pos: &Position, h: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = self.after_tt_move();
                    return Some(self.tt_move);
                }
                Stage::GenCaptures => {
                    self.moves.clear();
                    pos.generate(GenType::Captures, &mut self.moves);
                    self.cur = 0;
                    self.score_captures(pos, h);
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => match self.pick_best() {
                    Some((mv, _)) if mv == self.tt_move => {}
                    Some((mv, score)) => {
                        // A capture that loses the exchange waits until the quiet moves
                        // are done; a big enough capture history buys it a place here.
                        if pos.see_ge(mv, -score * 3 / 64) {
                            return Some(mv);
                        }
                        self.bad.push(mv);
                    }
                    None => self.stage = Stage::Killer0,
                },
                Stage::Killer0 => {
                    self.stage = Stage::Killer1;
                    let k = self.killers[0];
                    if !self.skip_quiets && self.usable_quiet(pos, k) {
                        return Some(k);
                    }
                }
                Stage::Killer1 => {
                    self.stage = Stage::Counter;
                    let k = self.killers[1];
                    if !self.skip_quiets && k != self.killers[0] && self.usable_quiet(pos, k) {
                        return Some(k);
                    }
                }
                Stage::Counter => {
                    self.stage = Stage::GenQuiets;
                    let c = self.counter;
                    if !self.skip_quiets
                        && c != self.killers[0]
                        && c != self.killers[1]
                        && self.usable_quiet(pos, c)
                    {
                        return Some(c);
                    }
                }
                Stage::GenQuiets => {
                    self.moves.clear();
                    self.cur = 0;
                    if !self.skip_quiets {
                        pos.generate(GenType::Quiets, &mut self.moves);
                        self.score_quiets(pos, h);
                    }
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if self.skip_quiets {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    match self.pick_best() {
                        Some((mv, _)) if self.special_quiet(mv) => {}
                        Some((mv, _)) => return Some(mv),
                        None => self.stage = Stage::BadCaptures,
                    }
                }
                Stage::BadCaptures => {
                    if self.bad_cur < self.bad.len() {
                        let mv = self.bad[self.bad_cur];
                        self.bad_cur += 1;
                        return Some(mv);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenEvasions => {
                    self.moves.clear();
                    pos.generate(GenType::All, &mut self.moves);
                    self.cur = 0;
                    self.score_evasions(pos, h);
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => match self.pick_best() {
                    Some((mv, _)) if mv == self.tt_move => {}
                    Some((mv, _)) => return Some(mv),
                    None => self.stage = Stage::Done,
                },
                Stage::QGenCaptures => {
                    self.moves.clear();
                    pos.generate(GenType::Captures, &mut self.moves);
                    self.cur = 0;
                    self.score_captures(pos, h);
                    self.stage = Stage::QCaptures;
                }
                Stage::QCaptures => match self.pick_best() {
                    Some((mv, _)) if mv == self.tt_move => {}
                    Some((mv, _)) => return Some(mv),
                    None => self.stage = Stage::Done,
                },
                Stage::ProbCutGen => {
                    self.moves.clear();
                    pos.generate(GenType::Captures, &mut self.moves);
                    self.cur = 0;
                    self.score_captures(pos, h);
                    self.stage = Stage::ProbCut;
                }
                Stage::ProbCut => match self.pick_best() {
                    Some((mv, _)) if mv == self.tt_move => {}
                    Some((mv, _)) if pos.see_ge(mv, self.threshold) => return Some(mv),
                    Some(_) => {}
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn all(pos: &Position, kind: GenType) -> HashSet<Move> {
        let mut list = MoveList::new();
        pos.generate(kind, &mut list);
        list.iter().copied().collect()
    }

    fn drain(pos: &Position, mut mp: MovePicker) -> Vec<Move> {
        let h = History::new();
        let mut out = Vec::new();
        while let Some(m) = mp.next(pos, &h) {
            out.push(m);
        }
        out
    }

    #[test]
    fn every_move_comes_once_whatever_the_hints() {
        for fen in [
            banco_rules::xiangqi::fen::START,
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "2bak4/3Ra4/4bc3/4N4/2p6/9/9/4C4/9/3AK4 w",
        ] {
            let pos = crate::xiangqi::from_fen(fen).unwrap();
            let moves = all(&pos, GenType::All);
            let quiet: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| pos.piece_at(m.to()).is_none())
                .collect();
            let capture = moves
                .iter()
                .copied()
                .find(|m| pos.piece_at(m.to()).is_some());
            // A quiet killer that is not playable here must not come out.
            let stray: Move = "a9a8".parse().unwrap();
            for tt in [None, quiet.first().copied(), capture] {
                let killers = [quiet.get(1).copied().unwrap_or(stray), stray];
                let counter = quiet.get(2).copied().unwrap_or(Move::NONE);
                let got = drain(&pos, MovePicker::main(tt, false, killers, counter, [0; 3]));
                let set: HashSet<Move> = got.iter().copied().collect();
                assert_eq!(set.len(), got.len(), "{fen}: a move came twice");
                assert_eq!(set, moves, "{fen}");
                if let Some(t) = tt {
                    assert_eq!(got[0], t, "the hash move comes first");
                }
            }
            // Quiescence: the captures only.
            let got = drain(&pos, MovePicker::quiescence(&pos, None, false));
            assert_eq!(
                got.iter().copied().collect::<HashSet<_>>(),
                all(&pos, GenType::Captures)
            );
            // ProbCut: captures winning at least the threshold, each passing SEE.
            for m in drain(&pos, MovePicker::probcut(&pos, capture, 100)) {
                assert!(pos.piece_at(m.to()).is_some() && pos.see_ge(m, 100));
            }
        }
    }

    #[test]
    fn evasions_are_every_move() {
        // Red's general on e0 is in check from Black's chariot on e5.
        let pos = crate::xiangqi::from_fen("3k5/9/9/9/4r4/9/9/9/9/4K4 w").unwrap();
        assert!(pos.in_check());
        let got = drain(
            &pos,
            MovePicker::main(None, true, [Move::NONE; 2], Move::NONE, [0; 3]),
        );
        let set: HashSet<Move> = got.iter().copied().collect();
        assert_eq!(set, all(&pos, GenType::All));
        assert_eq!(set.len(), got.len());
    }
}
