//! Threat-space search: VCF (victory by continuous fours) and VCT (victory by continuous
//! threats: fours and open threes).
//!
//! An AND/OR search. The attacker (the side to move at the start) only plays threats:
//! fours in VCF, fours and moves making an open three or better in VCT. The defender
//! answers with every move that could possibly help, generated exactly by
//! [`movegen`](super::movegen): against a four, every point that leaves no five (under the
//! caro rule that includes blocking the far end); against an open three, every point that
//! leaves no open four, plus every four of its own, since a counter-four forces the
//! attacker to answer first. The attacker wins a line only if it wins against all of them.
//! Counter-fours that turn into the defender's own five threats are followed too: the
//! attacker must then block, and keeps the initiative only if its previous threat still
//! stands (or its block is a four).
//!
//! Depth counts attacker moves. Refuted positions are remembered in a small
//! direct-mapped table keyed by Zobrist hash and remaining depth. A node budget and a stop
//! callback bound the work; running out gives [`Proof::Unknown`].

use super::movegen::{drop_forbidden, five_defences, four_defences};
use super::pattern::Combo;
use super::position::{Cell, Position};
use banco_rules::caro::board::Stone;

/// What a threat search established.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Proof {
    /// The side to move wins by force; the main line, attacker's moves and defender's
    /// first answers alternating, ends with the five.
    Win(Vec<Cell>),
    /// No forced win within the depth searched.
    NoWin,
    /// The budget ran out first.
    Unknown,
}

impl Proof {
    /// The first move of a win.
    pub fn first_move(&self) -> Option<Cell> {
        match self {
            Proof::Win(line) => line.first().copied(),
            _ => None,
        }
    }
}

/// Which threats the attacker may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Fours only.
    Vcf,
    /// Fours and open threes.
    Vct,
}

/// Remembers refuted positions between searches (cleared by the caller when it likes).
pub struct FailCache {
    /// `hash -> deepest depth refuted`, direct-mapped; a slot holds one position.
    slots: Vec<(u64, u8)>,
}

impl FailCache {
    /// A cache of `2^bits` slots.
    pub fn new(bits: u32) -> FailCache {
        FailCache {
            slots: vec![(0, 0); 1 << bits],
        }
    }

    pub fn clear(&mut self) {
        self.slots.fill((0, 0));
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }

    #[inline]
    fn refuted(&self, key: u64, depth: u32) -> bool {
        let (k, d) = self.slots[self.slot(key)];
        k == key && u32::from(d) >= depth
    }

    #[inline]
    fn store(&mut self, key: u64, depth: u32) {
        let s = self.slot(key);
        self.slots[s] = (key, depth.min(255) as u8);
    }
}

/// A threat search in progress.
pub struct ThreatSearch<'a> {
    /// The board, made and unmade as the search walks.
    pos: &'a mut Position,
    /// Fours only, or threes too.
    kind: Kind,
    /// Refuted positions.
    cache: &'a mut FailCache,
    /// Nodes visited.
    nodes: u64,
    /// Stop after this many nodes.
    node_limit: u64,
    /// Asked every 1024 nodes whether to stop (a deadline, a cancel flag).
    should_stop: &'a mut dyn FnMut() -> bool,
    /// Set once the budget ran out or `should_stop` said so: results are then unknown.
    aborted: bool,
}

/// Distinguishes VCT entries from VCF ones in the shared cache.
const VCT_SALT: u64 = 0x9E37_79B9_7F4A_7C15;

impl<'a> ThreatSearch<'a> {
    pub fn new(
        pos: &'a mut Position,
        kind: Kind,
        cache: &'a mut FailCache,
        node_limit: u64,
        should_stop: &'a mut dyn FnMut() -> bool,
    ) -> ThreatSearch<'a> {
        ThreatSearch {
            pos,
            kind,
            cache,
            nodes: 0,
            node_limit,
            should_stop,
            aborted: false,
        }
    }

    /// Nodes visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Searches for a forced win of the side to move, with at most `depth` attacking
    /// moves.
    pub fn solve(&mut self, depth: u32) -> Proof {
        let result = self.attack(depth);
        match result {
            Some(line) => Proof::Win(line),
            None if self.aborted => Proof::Unknown,
            None => Proof::NoWin,
        }
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.node_limit || (self.nodes & 1023 == 0 && (self.should_stop)()) {
            self.aborted = true;
        }
        self.aborted
    }

    fn key(&self, depth: u32) -> u64 {
        let salt = if self.kind == Kind::Vct { VCT_SALT } else { 0 };
        (self.pos.hash() ^ salt).wrapping_add(u64::from(depth) << 56)
    }

    /// The attacker is to move. Returns the winning line, if any.
    fn attack(&mut self, depth: u32) -> Option<Vec<Cell>> {
        if self.tick() {
            return None;
        }
        let us = self.pos.to_move();
        let them = us.opponent();
        let mut moves = Vec::new();
        if self.pos.count(us, Combo::Five) > 0 {
            self.pos.cells_with(us, Combo::Five, &mut moves);
            return Some(vec![moves[0]]);
        }
        if self.pos.count(them, Combo::Five) > 0 {
            // A counter-four: block it and hope the initiative survives.
            five_defences(self.pos, &mut moves);
            return self.try_moves(&moves, depth + 1);
        }
        if self.pos.count(us, Combo::Flex4) > 0 && self.legal_flex4(us) {
            return Some(self.finish());
        }
        if depth == 0 {
            return None;
        }
        let key = self.key(depth);
        if self.cache.refuted(key, depth) {
            return None;
        }
        let min = match self.kind {
            Kind::Vcf => Combo::Block4,
            Kind::Vct => Combo::Flex3,
        };
        self.pos.cells_with(us, min, &mut moves);
        drop_forbidden(self.pos, &mut moves, 0);
        // Strongest threats first; fours before threes.
        moves.sort_by_key(|&c| {
            std::cmp::Reverse((
                self.pos.combo(c, us),
                self.pos.score(c, us) + self.pos.score(c, them) / 2,
            ))
        });
        let result = self.try_moves(&moves, depth);
        if result.is_none() && !self.aborted {
            self.cache.store(key, depth);
        }
        result
    }

    /// The attacker (to move) has a five or an open four / double four and the defender
    /// no five: the rest of the main line, ending with the five.
    fn finish(&mut self) -> Vec<Cell> {
        let us = self.pos.to_move();
        let mut cells = Vec::new();
        self.pos.cells_with(us, Combo::Five, &mut cells);
        if let Some(&five) = cells.first() {
            return vec![five];
        }
        self.pos.cells_with(us, Combo::Flex4, &mut cells);
        drop_forbidden(self.pos, &mut cells, 0);
        let Some(&four) = cells.first() else {
            return Vec::new();
        };
        self.pos.make(four);
        let mut answers = Vec::new();
        five_defences(self.pos, &mut answers);
        if answers.is_empty() {
            self.pos.candidates(&mut answers);
        }
        let mut line = vec![four];
        if let Some(&a) = answers.first() {
            self.pos.make(a);
            line.push(a);
            let mut five = Vec::new();
            self.pos.cells_with(us, Combo::Five, &mut five);
            line.extend(five.first());
            self.pos.unmake();
        }
        self.pos.unmake();
        line
    }

    /// Whether `us` (to move) has an open four or double four it may play: always, but
    /// for renju's Black, whose double four is forbidden.
    fn legal_flex4(&self, us: Stone) -> bool {
        if !self.pos.has_forbidden() || us == Stone::O {
            return true;
        }
        let mut cells = Vec::new();
        self.pos.cells_with(us, Combo::Flex4, &mut cells);
        cells.iter().any(|&c| !self.pos.forbidden(c))
    }

    /// Tries each attacking move; the first that wins against every defence wins.
    fn try_moves(&mut self, moves: &[Cell], depth: u32) -> Option<Vec<Cell>> {
        for &m in moves {
            self.pos.make(m);
            let result = self.defend(depth - 1);
            self.pos.unmake();
            if let Some(mut line) = result {
                line.insert(0, m);
                return Some(line);
            }
            if self.aborted {
                return None;
            }
        }
        None
    }

    /// The defender is to move. Returns the main line if every defence loses.
    fn defend(&mut self, depth: u32) -> Option<Vec<Cell>> {
        if self.tick() {
            return None;
        }
        let us = self.pos.to_move();
        let attacker = us.opponent();
        if self.pos.count(us, Combo::Five) > 0 {
            return None;
        }
        let mut answers = Vec::new();
        if self.pos.count(attacker, Combo::Five) > 0 {
            five_defences(self.pos, &mut answers);
        } else if self.pos.count(attacker, Combo::Flex4) > 0 {
            four_defences(self.pos, &mut answers);
        } else {
            // The attacker's threat is gone: the defender is free.
            return None;
        }
        if answers.is_empty() {
            // Nothing helps: show any reply, then the attacker's finish.
            let mut any = Vec::new();
            self.pos.candidates(&mut any);
            let Some(&reply) = any.first() else {
                return Some(Vec::new());
            };
            self.pos.make(reply);
            let rest = self.finish();
            self.pos.unmake();
            let mut line = vec![reply];
            line.extend(rest);
            return Some(line);
        }
        // Counter-fours first: they are the likeliest refutations.
        answers.sort_by_key(|&c| std::cmp::Reverse(self.pos.combo(c, us)));
        let mut main_line = None;
        for &a in &answers {
            self.pos.make(a);
            let result = self.attack(depth);
            self.pos.unmake();
            match result {
                Some(line) => {
                    if main_line.is_none() {
                        let mut l = vec![a];
                        l.extend(line);
                        main_line = Some(l);
                    }
                }
                None => return None,
            }
        }
        main_line
    }
}

/// Looks for a VCF of the side to move: at most `depth` fours, `node_limit` nodes.
pub fn vcf(pos: &mut Position, depth: u32, node_limit: u64) -> Proof {
    let mut cache = FailCache::new(14);
    let mut never = || false;
    ThreatSearch::new(pos, Kind::Vcf, &mut cache, node_limit, &mut never).solve(depth)
}

/// Looks for a VCT of the side to move: at most `depth` threats, `node_limit` nodes.
pub fn vct(pos: &mut Position, depth: u32, node_limit: u64) -> Proof {
    let mut cache = FailCache::new(16);
    let mut never = || false;
    ThreatSearch::new(pos, Kind::Vct, &mut cache, node_limit, &mut never).solve(depth)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::caro::position::tests::position;
    use banco_rules::caro::board::{Point, Stone};
    use banco_rules::caro::game::Game;
    use banco_rules::caro::rules::Rule;

    /// Plays the proof's main line on a rules game and checks it ends in a real five.
    fn replay_wins(pos: &Position, line: &[Cell]) -> bool {
        let mut game = Game::new(pos.width() as u32, pos.height() as u32, pos.rule()).unwrap();
        // Rebuild the position's stones in a legal order is not needed: check the line on
        // the board directly.
        let mut board = pos.to_board();
        let mut stone = pos.to_move();
        let _ = &mut game;
        for (i, c) in line.iter().enumerate() {
            let p = pos.point(*c);
            if board.stone_at(p).is_some() {
                return false;
            }
            board.place(p, stone);
            if i == line.len() - 1 {
                return banco_rules::caro::rules::winning_line(&board, p, pos.rule()).is_some()
                    && stone == pos.to_move();
            }
            stone = stone.opponent();
        }
        false
    }

    #[test]
    fn finds_a_four_four_vcf() {
        // X to move: (6,3) makes a four on row 3 and a four on column 6 at once.
        let mut pos = position(
            &[
                "..............O",
                "...............",
                "...............",
                "..OXXX.........",
                "......X........",
                "......X........",
                "......X........",
                "......O........",
                "...............",
                "OO.............",
                "..............O",
            ],
            Rule::Caro,
        );
        assert_eq!(pos.to_move(), Stone::X);
        let proof = vcf(&mut pos, 10, 100_000);
        let Proof::Win(line) = &proof else {
            panic!("expected a VCF, got {proof:?}");
        };
        assert_eq!(pos.point(line[0]), Point::new(6, 3));
        assert!(replay_wins(&pos, line), "{line:?}");
        // Cleanly unmade.
        assert_eq!(pos.ply(), 0);
    }

    #[test]
    fn refutes_a_lone_blocked_four() {
        let mut pos = position(
            &[
                "...............",
                "..OXXX.........",
                "...............",
                "...............",
                ".........O.....",
                "O..............",
            ],
            Rule::Caro,
        );
        assert_eq!(pos.to_move(), Stone::X);
        assert_eq!(vcf(&mut pos, 10, 100_000), Proof::NoWin);
    }

    #[test]
    fn vct_finds_a_double_three() {
        // X to move: (7,5) makes an open three on row 5 and a split open three on
        // column 7. No four exists, so there is no VCF.
        let mut pos = position(
            &[
                "O.............O",
                "...............",
                "...............",
                "...............",
                "...............",
                ".....XX........",
                "...............",
                ".......X.......",
                ".......X.......",
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                "O.............O",
            ],
            Rule::Caro,
        );
        assert_eq!(pos.to_move(), Stone::X);
        assert_eq!(vcf(&mut pos, 8, 200_000), Proof::NoWin);
        let proof = vct(&mut pos, 6, 2_000_000);
        let Proof::Win(line) = &proof else {
            panic!("expected a VCT, got {proof:?}");
        };
        assert!(replay_wins(&pos, line), "{line:?}");
    }
}
