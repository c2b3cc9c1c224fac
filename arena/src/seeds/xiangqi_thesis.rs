//! Xiangqi Thesis: the xiangqi engine of a Python/Pygame thesis (seed document 002),
//! reimplemented from the thesis (chapter 4) as a reference opponent: a depth-4 negamax
//! alpha-beta with iterative deepening under a time limit, its material values (general
//! 6000, advisor 120, elephant 120, horse 270, chariot 600, cannon 285, soldier 30) and its
//! square tables for chariots, horses, cannons and soldiers (tables 4.3-4.6, Black reading
//! them from its own side), move ordering by the value of the captured piece (its table
//! 4.7: general 5, chariot 4, horse and cannon 3, advisor and elephant 2, soldier 1; quiet
//! moves last), a quiescence search on captures after a capture on the last ply, a Zobrist-
//! keyed transposition table with exact, lower and upper bounds, and "capture of the
//! general" scoring: moves are generated pseudo-legally, and a side that can take the
//! other's general (directly or along an open file between the generals) scores `MATE -
//! ply`, so the search prefers the fastest win and the slowest loss (its section 4.3).
//!
//! Where the thesis' pseudocode is incomplete, the stronger reading is taken (the
//! quiescence search stands pat on the evaluation), so a match against it is not won
//! against a strawman. The engine had no repetition handling and no book beyond its
//! hand-entered position database, which is not part of the document: neither is here.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use banco_rules::xiangqi::movegen::{GenType, MoveList};
use banco_rules::xiangqi::{Color, Game, Kind, Move, Position, Square};

const MATE: i32 = 100_000;
const DEPTH: i32 = 4;

/// Material by kind: general, advisor, elephant, horse, chariot, cannon, soldier.
const VALUE: [i32; 7] = [6000, 120, 120, 270, 600, 285, 30];
/// Move-ordering value of a captured piece by kind (table 4.7).
const ORDER: [i32; 7] = [5, 2, 2, 3, 4, 3, 1];

/// Tables 4.3-4.6 for Red, first row = Black's back rank.
const ROOK: [[i32; 9]; 10] = [
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
const HORSE: [[i32; 9]; 10] = [
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
const CANNON: [[i32; 9]; 10] = [
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
const PAWN: [[i32; 9]; 10] = [
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

/// The value of a piece of `kind` and `color` on `sq`, for its owner.
fn piece_value(color: Color, kind: Kind, sq: Square) -> i32 {
    let rank = match color {
        Color::Red => sq.rank(),
        Color::Black => 9 - sq.rank(),
    } as usize;
    let (row, file) = (9 - rank, sq.file() as usize);
    VALUE[kind.index()]
        + match kind {
            Kind::Rook => ROOK[row][file],
            Kind::Horse => HORSE[row][file],
            Kind::Cannon => CANNON[row][file],
            Kind::Pawn => PAWN[row][file],
            _ => 0,
        }
}

/// Formula 4.1, from the side to move.
fn evaluate(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    pos.pieces()
        .map(|(sq, p)| {
            let v = piece_value(p.color(), p.kind(), sq);
            if p.color() == us { v } else { -v }
        })
        .sum()
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Flag {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
struct Entry {
    /// Remaining depth the score was searched to.
    depth: i32,
    /// The score from the side to move.
    score: i32,
    /// Whether the score is exact or a bound.
    flag: Flag,
    /// The best move found, tried first next time.
    best: Option<Move>,
}

/// The Xiangqi Thesis engine.
pub struct XiangqiThesis {
    /// The transposition table (section 4.6), keyed by Zobrist key.
    table: HashMap<u64, Entry>,
    /// Stop searching at this instant.
    deadline: Instant,
    /// Set when the deadline passed mid-iteration.
    out_of_time: bool,
    /// Nodes visited in the current search.
    pub nodes: u64,
}

impl Default for XiangqiThesis {
    fn default() -> XiangqiThesis {
        XiangqiThesis::new()
    }
}

impl XiangqiThesis {
    pub fn new() -> XiangqiThesis {
        XiangqiThesis {
            table: HashMap::new(),
            deadline: Instant::now(),
            out_of_time: false,
            nodes: 0,
        }
    }

    /// Forgets the transposition table.
    pub fn new_game(&mut self) {
        self.table.clear();
    }

    /// The move for the side to move and the depth completed, deepening to 4 plies or
    /// until `budget` runs out (section 4.7). `None` when there is no legal move.
    pub fn choose(&mut self, game: &Game, budget: Duration) -> Option<(Move, u32)> {
        let legal = game.legal_moves();
        let mut best = *legal.first()?;
        let mut completed = 0;
        self.deadline = Instant::now() + budget;
        self.out_of_time = false;
        self.nodes = 0;
        let mut pos = game.position().clone();
        for depth in 1..=DEPTH {
            let mut alpha = -MATE - 1;
            let beta = MATE + 1;
            let mut iteration_best = None;
            for &mv in order(&pos, &legal).iter() {
                let capture = pos.piece_at(mv.to()).is_some();
                let undo = pos.make(mv);
                let v = -self.alphabeta(&mut pos, depth - 1, -beta, -alpha, 1, capture);
                pos.unmake(mv, undo);
                if self.out_of_time {
                    break;
                }
                if v > alpha {
                    alpha = v;
                    iteration_best = Some(mv);
                }
            }
            if self.out_of_time {
                break;
            }
            if let Some(mv) = iteration_best {
                best = mv;
            }
            completed = depth as u32;
            // Win or loss found: deeper search changes nothing (algorithm 13).
            if alpha.abs() >= MATE - 100 {
                break;
            }
        }
        Some((best, completed))
    }

    fn alphabeta(
        &mut self,
        pos: &mut Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: i32,
        last_capture: bool,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(4096) && Instant::now() >= self.deadline {
            self.out_of_time = true;
        }
        if self.out_of_time {
            return 0;
        }
        // The general can be taken: the game is won (section 4.3).
        if takes_general(pos) {
            return MATE - ply;
        }
        if depth <= 0 {
            return if last_capture {
                self.quiescence(pos, alpha, beta, ply)
            } else {
                evaluate(pos)
            };
        }
        let key = pos.key();
        let mut hash_move = None;
        if let Some(e) = self.table.get(&key).copied() {
            hash_move = e.best;
            if e.depth >= depth {
                match e.flag {
                    Flag::Exact => return e.score,
                    Flag::Lower => alpha = alpha.max(e.score),
                    Flag::Upper => beta = beta.min(e.score),
                }
                if alpha >= beta {
                    return e.score;
                }
            }
        }
        let mut list = MoveList::new();
        pos.generate(GenType::All, &mut list);
        let mut moves = order(pos, &list);
        if let Some(h) = hash_move.filter(|m| moves.contains(m)) {
            moves.retain(|&m| m != h);
            moves.insert(0, h);
        }
        let original_alpha = alpha;
        let mut best = ply - MATE;
        let mut best_move = None;
        for mv in moves {
            let capture = pos.piece_at(mv.to()).is_some();
            let undo = pos.make(mv);
            let v = -self.alphabeta(pos, depth - 1, -beta, -alpha, ply + 1, capture);
            pos.unmake(mv, undo);
            if self.out_of_time {
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(mv);
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                break;
            }
        }
        let flag = if best <= original_alpha {
            Flag::Upper
        } else if best >= beta {
            Flag::Lower
        } else {
            Flag::Exact
        };
        self.table.insert(
            key,
            Entry {
                depth,
                score: best,
                flag,
                best: best_move,
            },
        );
        best
    }

    /// Algorithm 12, with a stand-pat on the evaluation.
    fn quiescence(&mut self, pos: &mut Position, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        self.nodes += 1;
        if takes_general(pos) {
            return MATE - ply;
        }
        let stand = evaluate(pos);
        if stand >= beta {
            return beta;
        }
        alpha = alpha.max(stand);
        let mut list = MoveList::new();
        pos.generate(GenType::Captures, &mut list);
        for mv in order(pos, &list) {
            let undo = pos.make(mv);
            let v = -self.quiescence(pos, -beta, -alpha, ply + 1);
            pos.unmake(mv, undo);
            if v >= beta {
                return beta;
            }
            alpha = alpha.max(v);
        }
        alpha
    }
}

/// Whether the side to move can take the other general: the other side left it attacked
/// (or the generals face each other).
fn takes_general(pos: &Position) -> bool {
    let us = pos.side_to_move();
    pos.attacked(pos.king(!us), us)
}

/// Captures first by the captured piece's ordering value, then quiet moves (algorithm 11).
fn order(pos: &Position, moves: &[Move]) -> Vec<Move> {
    let mut v = moves.to_vec();
    v.sort_by_key(|m| {
        std::cmp::Reverse(pos.piece_at(m.to()).map_or(0, |p| ORDER[p.kind().index()]))
    });
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_even_and_moves_are_legal() {
        let game = Game::new();
        assert_eq!(evaluate(game.position()), 0);
        let mut seed = XiangqiThesis::new();
        let mv = seed.choose(&game, Duration::from_secs(10)).unwrap().0;
        assert!(game.position().is_legal_move(mv));
    }

    #[test]
    fn takes_mate_in_one_and_free_material() {
        let mut seed = XiangqiThesis::new();
        let game = Game::from_fen("4k4/R8/9/9/9/9/9/9/9/1R1K5 w").unwrap();
        assert_eq!(
            seed.choose(&game, Duration::from_secs(10)).map(|c| c.0),
            Some("b0b9".parse().unwrap())
        );
        let game = Game::from_fen("r3k4/9/9/9/9/9/9/9/9/R2K5 w").unwrap();
        assert_eq!(
            seed.choose(&game, Duration::from_secs(10)),
            Some(("a0a9".parse().unwrap(), 4))
        );
    }
}
