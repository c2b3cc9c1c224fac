//! The search: iterative deepening under a hard deadline over a principal-variation
//! alpha-beta search with a transposition table, then a quiescence search on captures
//! (all evasions when in check).
//!
//! Per node, in order: repetition and sixty-move draws (and the perpetual-check loss),
//! mate-distance pruning, the transposition-table cutoff, static-eval pruning at shallow
//! depth (reverse futility), null-move pruning, then the moves: hash move, good captures
//! by MVV-LVA, the two killers, quiet moves by history, bad captures. Checks are extended
//! one ply; late quiet moves are searched reduced first (LMR). A side with no legal move
//! has lost (checkmate and stalemate alike), scored as `-MATE + ply` so the search
//! prefers the fastest win and the slowest loss.

use std::time::{Duration, Instant};

use super::eval::{Weights, evaluate_with};
use super::game::Game;
use super::movegen::{GenType, MAX_MOVES, MoveList};
use super::piece::{Color, Kind};
use super::position::Position;
use super::psq::kind_value;
use super::rules::{SIXTY_MOVES, perpetual_checker};
use super::square::Move;
use super::tt::{Bound, Table};
use crate::bot::Limits;

/// A won position's score at the root; `MATE - n` is a win in `n` plies.
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates (or rule wins) found by the search.
pub const MATE_BOUND: i32 = MATE - 1_000;
const INF: i32 = 31_000;
/// The deepest ply the search reaches (extensions included).
pub const MAX_PLY: usize = 100;

/// How a search should behave beyond its limits: the knobs levels and tools turn.
#[derive(Debug, Clone)]
pub struct Options {
    /// Easy levels: each root move's score is searched exactly and this much random noise
    /// (at most, either way) is added before choosing. 0 for full strength.
    pub root_noise: i32,
    /// Seeds the noise.
    pub seed: u64,
    /// Stop deepening once this fraction of the time to the deadline is spent (the next
    /// iteration would rarely finish). 1.0 uses all the time.
    pub soft_fraction: f64,
    /// The evaluation's weights.
    pub weights: Weights,
    /// How much the side to move at the root dislikes a draw: a drawn line scores this
    /// much below zero for it (and above for the other side), so the engine plays on
    /// rather than repeat in a balanced position.
    pub contempt: i32,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            root_noise: 0,
            seed: 0,
            soft_fraction: 0.55,
            weights: Weights::DEFAULT,
            contempt: 20,
        }
    }
}

/// What a finished iteration found, for progress reports (UCI `info`).
#[derive(Debug, Clone)]
pub struct Info {
    /// The iteration just finished.
    pub depth: u32,
    /// The deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// From the side to move, in [`MATE`]'s scale.
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The principal variation, best move first.
    pub pv: Vec<Move>,
    /// Transposition table use, in permille.
    pub hashfull: u32,
}

/// The result of a search.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// `None` only when the side to move has no legal move.
    pub best: Option<Move>,
    /// The best move's score from the side to move, in [`MATE`]'s scale.
    pub score: i32,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// Wall time spent.
    pub elapsed: Duration,
}

/// A position on the game's or the search's path.
#[derive(Clone, Copy)]
struct Node {
    /// The position's Zobrist key.
    key: u64,
    /// The side to move is in check (the move into this position gave check).
    check: bool,
    /// This position was reached by a pass (null move).
    null: bool,
}

/// One root move and what the last iteration said of it.
#[derive(Clone, Copy)]
struct RootMove {
    /// The move.
    mv: Move,
    /// Its score in the last iteration that searched it (`-INF` when it failed low).
    score: i32,
    /// The easy levels' fixed random offset.
    noise: i32,
}

/// A searcher: keeps its transposition table and history between searches.
pub struct Searcher {
    /// The transposition table.
    tt: Table,
    /// `history[piece code][to]`: how often a quiet move of that piece to that point cut off.
    history: Box<[[i32; 90]; 16]>,
    /// Two quiet moves per ply that recently caused a cutoff.
    killers: [[Move; 2]; MAX_PLY + 1],
    /// Late-move reduction by depth and move number.
    lmr: Box<[[i32; 64]; 64]>,
    /// The game's positions, then the search path's: for repetitions and the
    /// repetitions and the perpetual-check rule.
    path: Vec<Node>,
    /// The principal variation table.
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    /// The length of each ply's principal variation.
    pv_len: [usize; MAX_PLY + 1],
    /// Nodes searched in this search.
    nodes: u64,
    /// The deepest ply reached in this search.
    seldepth: usize,
    /// Set when a limit was reached: every node returns at once.
    stopped: bool,
    /// When this search started.
    start: Instant,
    /// The hard deadline, margin subtracted.
    deadline: Option<Instant>,
    /// The node cap.
    max_nodes: Option<u64>,
    /// The caller's limits (for the cancel flag).
    limits: Limits,
    /// The evaluation weights of this search.
    weights: Weights,
    /// The side to move at the root, and what a draw costs it.
    root_side: Color,
    contempt: i32,
    /// Recent evaluations by key (direct-mapped; cleared when the weights change).
    eval_cache: Vec<(u64, i32)>,
}

/// Entries in the evaluation cache (a power of two).
const EVAL_CACHE: usize = 1 << 16;

impl Searcher {
    /// A searcher with a transposition table of about `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Searcher {
        let mut lmr = Box::new([[0; 64]; 64]);
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.5 + (d as f64).ln() * (m as f64).ln() / 2.2) as i32;
            }
        }
        Searcher {
            tt: Table::new(hash_mb),
            history: Box::new([[0; 90]; 16]),
            killers: [[Move::NONE; 2]; MAX_PLY + 1],
            lmr,
            path: Vec::new(),
            pv: Box::new([[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            nodes: 0,
            seldepth: 0,
            stopped: false,
            start: Instant::now(),
            deadline: None,
            max_nodes: None,
            limits: Limits::none(),
            weights: Weights::DEFAULT,
            root_side: Color::Red,
            contempt: 0,
            eval_cache: vec![(0, 0); EVAL_CACHE],
        }
    }

    /// Forgets everything learned (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        *self.history = [[0; 90]; 16];
        self.killers = [[Move::NONE; 2]; MAX_PLY + 1];
    }

    /// Changes the transposition table's size (and empties it).
    pub fn resize(&mut self, hash_mb: usize) {
        self.tt.resize(hash_mb);
    }

    /// Searches the position `game` stands at, for its side to move. `report` hears about
    /// every completed iteration.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        options: &Options,
        report: &mut dyn FnMut(&Info),
    ) -> Outcome {
        self.start = Instant::now();
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        // Keep a margin for unwinding and answering: a fixed part plus a share of the
        // time, which also absorbs some of a busy machine's scheduling delays (matches
        // at 1 s a move next to other work saw answers up to 0.1 s late with 20 ms kept).
        self.deadline = limits.deadline.map(|d| {
            let total = d.saturating_duration_since(self.start);
            let margin = Duration::from_millis(8) + total / 40;
            d.checked_sub(margin.min(total)).unwrap_or(self.start)
        });
        self.max_nodes = limits.max_nodes;
        self.limits = limits.clone();
        if self.weights != options.weights {
            self.eval_cache.fill((0, 0));
        }
        self.weights = options.weights;
        self.contempt = options.contempt;
        self.root_side = game.to_move();
        self.tt.new_search();
        for row in self.history.iter_mut() {
            for h in row.iter_mut() {
                *h /= 4;
            }
        }
        self.killers = [[Move::NONE; 2]; MAX_PLY + 1];

        // The game so far, for repetitions.
        self.path.clear();
        let keys = game.keys();
        let start_check = game.start().in_check();
        for (i, &key) in keys.iter().enumerate() {
            let check = if i == 0 {
                start_check
            } else {
                game.plies()[i - 1].check
            };
            self.path.push(Node {
                key,
                check,
                null: false,
            });
        }

        let mut pos = game.position().clone();
        let mut rng = options.seed | 1;
        let mut roots: Vec<RootMove> = pos
            .legal_moves()
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INF,
                noise: if options.root_noise > 0 {
                    rng = xorshift(rng);
                    (rng % (2 * options.root_noise as u64 + 1)) as i32 - options.root_noise
                } else {
                    0
                },
            })
            .collect();
        if roots.is_empty() {
            let score = -MATE;
            return Outcome {
                best: None,
                score,
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
                elapsed: self.start.elapsed(),
            };
        }
        // Order the first iteration by a quick guess: captures of big pieces first.
        roots.sort_by_key(|r| -capture_value(&pos, r.mv));

        let max_depth = limits
            .max_depth
            .unwrap_or(MAX_PLY as u32 - 4)
            .clamp(1, MAX_PLY as u32 - 4);
        let soft = self.deadline.map(|d| {
            let total = d.saturating_duration_since(self.start);
            self.start + total.mul_f64(options.soft_fraction.clamp(0.05, 1.0))
        });
        let mut best = Outcome {
            best: Some(roots[0].mv),
            score: 0,
            depth: 0,
            nodes: 0,
            pv: vec![roots[0].mv],
            elapsed: Duration::ZERO,
        };
        let mut last_score: i32 = 0;
        for depth in 1..=max_depth as i32 {
            let noisy = options.root_noise > 0;
            // Aspiration window around the last score from depth 5 on.
            let mut delta = 35;
            let (mut alpha, mut beta) = if depth >= 5 && !noisy && last_score.abs() < MATE_BOUND {
                (last_score - delta, last_score + delta)
            } else {
                (-INF, INF)
            };
            let score = loop {
                let score = self.root(&mut pos, &mut roots, depth, alpha, beta, noisy);
                if self.stopped {
                    break score;
                }
                if score <= alpha && alpha > -INF {
                    alpha = (score - delta).max(-INF);
                    beta = (alpha + beta) / 2;
                } else if score >= beta && beta < INF {
                    beta = (score + delta).min(INF);
                } else {
                    break score;
                }
                delta += delta / 2 + 10;
            };
            if self.stopped {
                // A partly searched iteration still counts if its best move was searched
                // in full: the root keeps the best-so-far first.
                if depth > 1
                    && roots[0].score > -INF
                    && roots[0].mv != best.best.unwrap_or(Move::NONE)
                {
                    best.best = Some(roots[0].mv);
                    best.pv = vec![roots[0].mv];
                    best.score = roots[0].score;
                }
                break;
            }
            last_score = score;
            let pv: Vec<Move> = self.pv[0][..self.pv_len[0]].to_vec();
            let chosen = roots[0];
            best = Outcome {
                best: Some(chosen.mv),
                score: chosen.score,
                depth: depth as u32,
                nodes: self.nodes,
                pv: if pv.first() == Some(&chosen.mv) {
                    pv
                } else {
                    vec![chosen.mv]
                },
                elapsed: self.start.elapsed(),
            };
            report(&Info {
                depth: depth as u32,
                seldepth: self.seldepth as u32,
                score: best.score,
                nodes: self.nodes,
                elapsed: self.start.elapsed(),
                pv: best.pv.clone(),
                hashfull: self.tt.hashfull(),
            });
            // Nothing more to learn: a forced move (when time is what counts), or a mate
            // found well within the horizon.
            if roots.len() == 1 && self.deadline.is_some() {
                break;
            }
            // Pruning may hide a shorter mate from shallow iterations: go on until the
            // depth is well past the mate's length.
            if best.score.abs() >= MATE_BOUND
                && 2 * (MATE - best.score.abs()) + 2 <= depth
                && !noisy
            {
                break;
            }
            if soft.is_some_and(|s| Instant::now() >= s) {
                break;
            }
        }
        best.nodes = self.nodes;
        best.elapsed = self.start.elapsed();
        best
    }

    /// One iteration at the root. Keeps `roots` sorted best first.
    fn root(
        &mut self,
        pos: &mut Position,
        roots: &mut [RootMove],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        noisy: bool,
    ) -> i32 {
        self.pv_len[0] = 0;
        let mut best = -INF;
        for i in 0..roots.len() {
            let mv = roots[i].mv;
            let undo = pos.make(mv);
            let gives_check = pos.in_check();
            self.path.push(Node {
                key: pos.key(),
                check: gives_check,
                null: false,
            });
            let new_depth = depth - 1 + i32::from(gives_check);
            let score = if noisy {
                -self.negamax(pos, new_depth, -INF, INF, 1)
            } else if i == 0 {
                -self.negamax(pos, new_depth, -beta, -alpha, 1)
            } else {
                let s = -self.negamax(pos, new_depth, -alpha - 1, -alpha, 1);
                if s > alpha && s < beta && !self.stopped {
                    -self.negamax(pos, new_depth, -beta, -alpha, 1)
                } else {
                    s
                }
            };
            self.path.pop();
            pos.unmake(mv, undo);
            if self.stopped {
                break;
            }
            let noisy_score = if noisy && score.abs() < MATE_BOUND {
                score + roots[i].noise
            } else {
                score
            };
            roots[i].score = if noisy { noisy_score } else { score };
            if noisy_score > best {
                best = noisy_score;
                // Move this root move to the front, keeping the others' order.
                roots[..=i].rotate_right(1);
                if noisy_score > alpha {
                    if !noisy {
                        alpha = noisy_score;
                    }
                    self.pv[0][0] = mv;
                    let n = self.pv_len[1];
                    for k in 0..n {
                        self.pv[0][k + 1] = self.pv[1][k];
                    }
                    self.pv_len[0] = n + 1;
                }
                if noisy_score >= beta && !noisy {
                    break;
                }
            } else if !noisy {
                roots[i].score = -INF;
            }
        }
        best
    }

    /// A draw's score for `side` to move: below zero for the root's side.
    #[inline]
    fn draw_score(&self, side: Color) -> i32 {
        if side == self.root_side {
            -self.contempt
        } else {
            self.contempt
        }
    }

    /// The static evaluation, through a small cache keyed by position (quiescence revisits
    /// the same leaves often).
    #[inline]
    fn evaluate(&mut self, pos: &Position) -> i32 {
        let key = pos.key();
        let slot = &mut self.eval_cache[(key as usize) & (EVAL_CACHE - 1)];
        if slot.0 == key {
            return slot.1;
        }
        let score = evaluate_with(pos, &self.weights);
        *slot = (key, score);
        score
    }

    /// Whether the search must stop now (deadline, node cap, or the caller's cancel).
    #[inline]
    fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes & 1023 == 0 {
            let out_of_time = self.deadline.is_some_and(|d| Instant::now() >= d);
            let out_of_nodes = self.max_nodes.is_some_and(|n| self.nodes >= n);
            if out_of_time || out_of_nodes || self.limits.cancel.is_cancelled() {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// The score of a repetition of the position now on top of `path`, if it repeats one
    /// since the last capture: a draw, or a loss for the side that checked throughout.
    fn repetition(&self, pos: &Position, ply: usize) -> Option<i32> {
        let n = self.path.len() - 1;
        let back = (pos.halfmove_clock() as usize).min(n);
        let key = self.path[n].key;
        let mut j = 2;
        while j <= back {
            // A pass breaks the chain: positions before it were not really repeated.
            if self.path[n - j + 1].null || self.path[n - j + 2].null {
                return None;
            }
            // Two plies cannot restore a position; four can.
            if j >= 4 && self.path[n - j].key == key {
                let us = pos.side_to_move();
                let cycle = (n - j + 1..=n).map(|k| {
                    let mover = if (n - k).is_multiple_of(2) { !us } else { us };
                    (mover, self.path[k].check)
                });
                return Some(match perpetual_checker(cycle) {
                    Some(c) if c == us => -MATE + ply as i32,
                    Some(_) => MATE - ply as i32,
                    None => self.draw_score(us),
                });
            }
            j += 2;
        }
        None
    }

    fn negamax(
        &mut self,
        pos: &mut Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let in_check = self.path.last().is_some_and(|n| n.check);
        self.pv_len[ply] = 0;

        if let Some(score) = self.repetition(pos, ply) {
            return score;
        }
        if pos.halfmove_clock() >= SIXTY_MOVES
            || !pos.has_attackers(Color::Red) && !pos.has_attackers(Color::Black)
        {
            return self.draw_score(pos.side_to_move());
        }
        if ply >= MAX_PLY {
            return self.evaluate(pos);
        }
        // Mate distance pruning: no result here can beat a mate already found nearer.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        if depth <= 0 {
            return self.quiesce(pos, alpha, beta, ply);
        }
        self.nodes += 1;
        if self.check_stop() {
            return 0;
        }

        // Transposition table.
        let key = pos.key();
        let hit = self.tt.probe(key);
        let tt_move = hit.and_then(|h| h.mv).filter(|&m| pos.is_pseudo_legal(m));
        if let Some(h) = hit {
            let score = from_tt(h.score, ply);
            if !pv_node && h.depth >= depth {
                match h.bound {
                    Bound::Exact => return score,
                    Bound::Lower if score >= beta => return score,
                    Bound::Upper if score <= alpha => return score,
                    _ => {}
                }
            }
        }

        let eval = if in_check {
            -INF
        } else {
            hit.map_or_else(|| self.evaluate(pos), |h| h.eval)
        };

        if !pv_node && !in_check {
            // Reverse futility: far above beta at low depth, a quiet move will not matter.
            if depth <= 4 && eval - 110 * depth >= beta && eval.abs() < MATE_BOUND {
                return eval;
            }
            // Null move: if passing still holds beta, a real move surely does. Not when
            // only the general, advisors, elephants and soldiers are left (zugzwang).
            let us = pos.side_to_move();
            let has_pieces = pos.count(us, Kind::Rook)
                + pos.count(us, Kind::Horse)
                + pos.count(us, Kind::Cannon)
                > 0;
            let after_null = self.path.last().is_some_and(|n| n.null);
            if depth >= 3 && eval >= beta && has_pieces && !after_null {
                let r = 3 + depth / 4;
                pos.make_null();
                self.path.push(Node {
                    key: pos.key(),
                    check: false,
                    null: true,
                });
                let score = -self.negamax(pos, depth - 1 - r, -beta, -beta + 1, ply + 1);
                self.path.pop();
                pos.unmake_null();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        let mut moves = MoveList::new();
        pos.generate(GenType::All, &mut moves);
        let mut scores = [0i32; MAX_MOVES];
        self.score_moves(pos, &moves, &mut scores, tt_move, ply);

        let mut best = -INF;
        let mut best_move = None;
        let mut legal = 0;
        let mut quiets_tried: [Move; 64] = [Move::NONE; 64];
        let mut n_quiets = 0;
        let old_alpha = alpha;
        let mut depth = depth;
        // Internal iterative reduction: without a hash move, ordering is poor; search less.
        if tt_move.is_none() && depth >= 6 && pv_node {
            depth -= 1;
        }

        for i in 0..moves.len() {
            let mv = pick(&mut moves, &mut scores, i);
            if !pos.is_legal(mv, in_check) {
                continue;
            }
            legal += 1;
            let capture = pos.piece_at(mv.to()).is_some();
            let piece = pos.piece_at(mv.from()).expect("a move starts on a piece");
            let undo = pos.make(mv);
            let gives_check = pos.in_check();
            let quiet = !capture && !gives_check;

            // Late move pruning: at low depth, far-down quiet moves are rarely best.
            if !pv_node
                && !in_check
                && quiet
                && depth <= 3
                && legal > 4 + depth * depth * 3
                && best > -MATE_BOUND
            {
                pos.unmake(mv, undo);
                continue;
            }
            // Futility: a quiet move cannot lift a hopeless static eval at the frontier.
            if !pv_node
                && !in_check
                && quiet
                && depth <= 2
                && eval + 120 + 100 * depth <= alpha
                && best > -MATE_BOUND
            {
                pos.unmake(mv, undo);
                continue;
            }

            self.path.push(Node {
                key: pos.key(),
                check: gives_check,
                null: false,
            });
            let extension = i32::from(gives_check && ply < 2 * MAX_PLY / 3);
            let new_depth = depth - 1 + extension;
            let score = if legal == 1 {
                -self.negamax(pos, new_depth, -beta, -alpha, ply + 1)
            } else {
                let mut r = 0;
                if depth >= 3 && quiet && !in_check && legal > 2 {
                    r = self.lmr[(depth as usize).min(63)][(legal as usize).min(63)];
                    if pv_node {
                        r -= 1;
                    }
                    if self.killers[ply].contains(&mv) {
                        r -= 1;
                    }
                    r -= self.history[piece.code()][mv.to().index()] / 6000;
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = -self.negamax(pos, new_depth - r, -alpha - 1, -alpha, ply + 1);
                if s > alpha && r > 0 && !self.stopped {
                    s = -self.negamax(pos, new_depth, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && s < beta && pv_node && !self.stopped {
                    s = -self.negamax(pos, new_depth, -beta, -alpha, ply + 1);
                }
                s
            };
            self.path.pop();
            pos.unmake(mv, undo);
            if self.stopped {
                return 0;
            }

            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    if pv_node {
                        self.pv[ply][0] = mv;
                        let n = self.pv_len[ply + 1];
                        for k in 0..n {
                            self.pv[ply][k + 1] = self.pv[ply + 1][k];
                        }
                        self.pv_len[ply] = n + 1;
                    }
                    if score >= beta {
                        if !capture {
                            self.reward_quiet(pos, mv, depth, ply, &quiets_tried[..n_quiets]);
                        }
                        break;
                    }
                }
            }
            if !capture && n_quiets < quiets_tried.len() {
                quiets_tried[n_quiets] = mv;
                n_quiets += 1;
            }
        }

        if legal == 0 {
            // Checkmate or stalemate: either way the side to move has lost.
            return -MATE + ply as i32;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            best_move,
            to_tt(best, ply),
            if in_check { 0 } else { eval },
            depth,
            bound,
        );
        best
    }

    /// Quiet move `mv` caused a cutoff: remember it as a killer and raise its history;
    /// lower the history of the quiet moves tried before it.
    fn reward_quiet(&mut self, pos: &Position, mv: Move, depth: i32, ply: usize, tried: &[Move]) {
        if self.killers[ply][0] != mv {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = mv;
        }
        let bonus = (depth * depth).min(400) * 16;
        let mut update = |m: Move, b: i32| {
            if let Some(p) = pos.piece_at(m.from()) {
                let h = &mut self.history[p.code()][m.to().index()];
                *h += b - *h * b.abs() / 16384;
            }
        };
        update(mv, bonus);
        for &m in tried {
            if m != mv {
                update(m, -bonus);
            }
        }
    }

    fn score_moves(
        &self,
        pos: &Position,
        moves: &MoveList,
        scores: &mut [i32; MAX_MOVES],
        tt_move: Option<Move>,
        ply: usize,
    ) {
        let them = !pos.side_to_move();
        for (i, &mv) in moves.iter().enumerate() {
            scores[i] = if Some(mv) == tt_move {
                1 << 30
            } else if let Some(victim) = pos.piece_at(mv.to()) {
                let attacker = pos.piece_at(mv.from()).map_or(0, |p| kind_value(p.kind()));
                let gain = kind_value(victim.kind());
                let mvv_lva = gain * 16 - attacker / 16;
                if gain >= attacker || !pos.defended(mv.to(), them) {
                    2_000_000 + mvv_lva
                } else {
                    -200_000 + mvv_lva
                }
            } else if self.killers[ply][0] == mv {
                1_900_000
            } else if self.killers[ply][1] == mv {
                1_899_000
            } else {
                pos.piece_at(mv.from())
                    .map_or(0, |p| self.history[p.code()][mv.to().index()])
            };
        }
    }

    fn quiesce(&mut self, pos: &mut Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if self.check_stop() {
            return 0;
        }
        let in_check = self.path.last().is_some_and(|n| n.check);
        if ply >= MAX_PLY {
            return self.evaluate(pos);
        }
        let mut best;
        let mut moves = MoveList::new();
        if in_check {
            // Evasions: every move, since a quiet one may be the only escape.
            if let Some(score) = self.repetition(pos, ply) {
                return score;
            }
            best = -MATE + ply as i32;
            pos.generate(GenType::All, &mut moves);
        } else {
            let stand = self.evaluate(pos);
            if stand >= beta {
                return stand;
            }
            if stand > alpha {
                alpha = stand;
            }
            best = stand;
            pos.generate(GenType::Captures, &mut moves);
        }
        let mut scores = [0i32; MAX_MOVES];
        self.score_moves(pos, &moves, &mut scores, None, MAX_PLY);
        let stand = best;
        for i in 0..moves.len() {
            let mv = pick(&mut moves, &mut scores, i);
            if !in_check {
                // Losing captures and captures that cannot reach alpha are skipped.
                if scores[i] < 0 {
                    continue;
                }
                let gain = pos.piece_at(mv.to()).map_or(0, |p| kind_value(p.kind()));
                if stand + gain + 200 <= alpha {
                    continue;
                }
            }
            if !pos.is_legal(mv, in_check) {
                continue;
            }
            let undo = pos.make(mv);
            let gives_check = pos.in_check();
            self.path.push(Node {
                key: pos.key(),
                check: gives_check,
                null: false,
            });
            let score = -self.quiesce(pos, -beta, -alpha, ply + 1);
            self.path.pop();
            pos.unmake(mv, undo);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// Brings the best-scored remaining move to index `i` and returns it.
#[inline]
fn pick(moves: &mut MoveList, scores: &mut [i32; MAX_MOVES], i: usize) -> Move {
    let list = moves.as_mut_slice();
    let mut best = i;
    for j in i + 1..list.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    list.swap(i, best);
    scores.swap(i, best);
    list[i]
}

fn capture_value(pos: &Position, mv: Move) -> i32 {
    pos.piece_at(mv.to()).map_or(0, |p| kind_value(p.kind()))
}

/// Mate scores are stored relative to the node, not the root.
#[inline]
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

fn xorshift(mut x: u64) -> u64 {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    fn best(fen: &str, depth: u32) -> Outcome {
        let game = Game::from_fen(fen).unwrap();
        let mut s = Searcher::new(4);
        s.search(
            &game,
            &Limits::none().depth(depth),
            &Options::default(),
            &mut |_| {},
        )
    }

    /// Whether the side to move can force a win (mate or stalemate: both end the game)
    /// within `n` of its moves, by exhaustive search: the proof the test positions are
    /// what they claim.
    fn wins_within(pos: &Position, n: u32) -> bool {
        pos.legal_moves().iter().any(|&m| {
            let mut p = pos.clone();
            p.make(m);
            let replies = p.legal_moves();
            replies.is_empty()
                || n > 1
                    && replies.iter().all(|&r| {
                        let mut q = p.clone();
                        q.make(r);
                        wins_within(&q, n - 1)
                    })
        })
    }

    fn assert_mate_in(fen: &str, n: u32) -> Outcome {
        let pos = Position::from_fen(fen).unwrap();
        assert!(wins_within(&pos, n), "{fen} is a win in {n}");
        assert!(
            n == 1 || !wins_within(&pos, n - 1),
            "{fen} is no win in {}",
            n - 1
        );
        let out = best(fen, 2 * n + 4);
        assert_eq!(
            out.score,
            MATE - (2 * n as i32 - 1),
            "{fen}: pv {:?}",
            out.pv
        );
        out
    }

    #[test]
    fn mate_in_one() {
        let out = assert_mate_in("4k4/R8/9/9/9/9/9/9/9/1R1K5 w", 1);
        assert_eq!(out.best, Some("b0b9".parse().unwrap()));
    }

    #[test]
    fn mate_in_two_starting_with_a_quiet_move() {
        // b0b8 leaves Black's general only f9, then a1a9 mates.
        let out = assert_mate_in("4k4/9/9/9/9/9/9/9/R8/1R1K5 w", 2);
        assert_eq!(out.best, Some("b0b8".parse().unwrap()));
    }

    #[test]
    fn mates_in_three() {
        assert_mate_in("3ak4/4a4/9/9/9/9/9/9/R8/1R1K5 w", 3);
        assert_mate_in("4k4/9/3a5/9/9/9/2H6/9/5R3/3K5 w", 3);
    }

    #[test]
    fn the_losing_side_resists_longest() {
        // Black to move is mated next move whatever it does: the score says so.
        let out = best("4k4/1R7/9/9/9/9/9/9/R8/3K5 b", 6);
        assert_eq!(out.score, -MATE + 2);
        assert_eq!(out.best, Some("e9f9".parse().unwrap()));
    }

    #[test]
    fn takes_a_hanging_chariot() {
        let out = best("r3k4/9/9/9/9/9/9/9/9/R2K5 w", 4);
        assert_eq!(out.best, Some("a0a9".parse().unwrap()));
    }

    /// Loads `game` into a searcher's path as `search` does, and judges its last position.
    fn judge_last(game: &Game, ply: usize) -> Option<i32> {
        let mut s = Searcher::new(1);
        s.path = game
            .keys()
            .iter()
            .enumerate()
            .map(|(i, &key)| Node {
                key,
                check: i > 0 && game.plies()[i - 1].check,
                null: false,
            })
            .collect();
        s.repetition(game.position(), ply)
    }

    #[test]
    fn repetitions_are_scored_by_the_rules() {
        // Red's chariot checks on every move while Black's general shuttles: when the
        // position comes back, the checker (Red) has lost; Black, to move, has won.
        let mut game = Game::from_fen("3k5/9/9/9/9/9/9/9/R8/5K3 w").unwrap();
        for m in ["a1d1", "d9e9", "d1e1", "e9d9"] {
            game.play(m.parse().unwrap()).unwrap();
            assert_eq!(judge_last(&game, 3), None);
        }
        game.play("e1d1".parse().unwrap()).unwrap();
        assert_eq!(judge_last(&game, 3), Some(MATE - 3));
        // A quiet shuffle is a draw.
        let mut game = Game::new();
        for m in ["h0g2", "h9g7", "g2h0", "g7h9"] {
            game.play(m.parse().unwrap()).unwrap();
        }
        assert_eq!(judge_last(&game, 3), Some(0));
        // With contempt, the root's side scores the draw below zero, the other above.
        let mut s = Searcher::new(1);
        s.contempt = 20;
        s.root_side = Color::Red;
        assert_eq!(s.draw_score(Color::Red), -20);
        assert_eq!(s.draw_score(Color::Black), 20);
    }

    #[test]
    fn stops_at_the_node_cap_and_still_answers() {
        let game = Game::new();
        let mut s = Searcher::new(4);
        let out = s.search(
            &game,
            &Limits::none().nodes(20_000),
            &Options::default(),
            &mut |_| {},
        );
        assert!(out.best.is_some());
        assert!(out.nodes < 40_000, "{}", out.nodes);
    }

    #[test]
    fn cancel_stops_the_search() {
        let game = Game::new();
        let mut s = Searcher::new(4);
        let limits = Limits::none();
        limits.cancel.cancel();
        let out = s.search(&game, &limits, &Options::default(), &mut |_| {});
        assert!(
            out.best.is_some(),
            "a cancelled search still names a legal move"
        );
        assert!(game.position().is_legal_move(out.best.unwrap()));
    }
}
