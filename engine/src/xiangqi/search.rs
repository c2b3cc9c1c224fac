//! The search: iterative deepening under a deadline over a principal-variation
//! alpha-beta search, then a quiescence search on captures (all evasions when in check).
//! It follows Stockfish's design, step by step, with its margins scaled to our units
//! (a chariot is 900) and the rules of xiangqi where they differ (no legal move loses,
//! checking throughout a repetition loses).
//!
//! Per node, in order: repetition and sixty-move draws (and the perpetual-check loss),
//! mate-distance pruning, the transposition-table cutoff; then, when not in check, the
//! static evaluation and whether it is improving on two plies ago, reverse futility
//! pruning, null-move pruning (verified at high depth), ProbCut, and internal iterative
//! reduction. Moves come from the [`MovePicker`]: hash move, winning captures, killers
//! and countermove, quiet moves by history, losing captures. Before a move is searched:
//! move-count pruning, continuation-history pruning, futility pruning and exchange
//! (SEE) pruning at shallow depth; the hash move may be extended when it is singular
//! (every other move fails well below it), or the node cut at once when several moves
//! beat beta (multi-cut). Late moves are searched reduced first (LMR), by a logarithmic
//! table adjusted by history. A side with no legal move has lost (checkmate and
//! stalemate alike), scored `-MATE + ply` so the search prefers the fastest win and the
//! slowest loss.

use std::time::{Duration, Instant};

use super::Position;
use super::eval::{Weights, evaluate_with};
use super::history::{self, History};
use super::movepick::MovePicker;
use super::psq::kind_value;
use super::see::Exchange;
use super::timeman::{OPTIMUM_SHARE, Progress, TimeManager};
use super::tt::{Bound, DEPTH_NONE, Hit, NO_SCORE, Table};
use crate::bot::Limits;
use banco_rules::xiangqi::game::Game;
use banco_rules::xiangqi::piece::{Color, Kind};
use banco_rules::xiangqi::rules::{SIXTY_MOVES, perpetual_checker};
use banco_rules::xiangqi::square::Move;

/// A won position's score at the root; `MATE - n` is a win in `n` plies.
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates (or rule wins) found by the search.
pub const MATE_BOUND: i32 = MATE - 1_000;
const INF: i32 = 31_000;
/// The deepest ply the search reaches (extensions included).
pub const MAX_PLY: usize = 100;
/// Frames below the root in the search stack, so that "four plies back" always exists.
const STACK_BELOW: usize = 8;
/// A frame's static evaluation when there is none (in check).
const NO_EVAL: i32 = NO_SCORE;

/// How a search should behave beyond its limits: the knobs levels and tools turn.
#[derive(Debug, Clone)]
pub struct Options {
    /// Easy levels: each root move's score is searched exactly and this much random noise
    /// (at most, either way) is added before choosing. 0 for full strength.
    pub root_noise: i32,
    /// Seeds the noise.
    pub seed: u64,
    /// The share of the time to the deadline planned for a settled position; the time
    /// manager ([`super::timeman`]) spends more when the position asks for it, never past
    /// the deadline. 1.0 plans on all of it.
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
            soft_fraction: OPTIMUM_SHARE,
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

/// A position on the game's or the search's path, for repetitions.
#[derive(Clone, Copy)]
struct Node {
    /// The position's Zobrist key.
    key: u64,
    /// The side to move is in check (the move into this position gave check).
    check: bool,
    /// This position was reached by a pass (null move).
    null: bool,
}

/// What the search keeps per ply of its current line (Stockfish's `Stack`).
#[derive(Clone, Copy)]
struct Frame {
    /// The static evaluation here, or [`NO_EVAL`] when in check.
    static_eval: i32,
    /// The move being searched from here ([`Move::NONE`] for a null move or none yet).
    current: Move,
    /// Its continuation-history slot (piece and destination; 0 for a null move).
    cont: usize,
    /// Whether it captured.
    captured: bool,
    /// Two quiet moves that recently cut off at this ply.
    killers: [Move; 2],
    /// Legal moves tried so far here.
    move_count: i32,
    /// The move a singular-extension search leaves out.
    excluded: Move,
    /// The side to move is in check.
    in_check: bool,
    /// The position is or was on a principal variation.
    tt_pv: bool,
    /// The transposition table knew this position.
    tt_hit: bool,
    /// The history score of the move being searched (for the children's reductions).
    stat_score: i32,
    /// Double extensions on the line so far.
    double_ext: i32,
}

impl Frame {
    const EMPTY: Frame = Frame {
        static_eval: NO_EVAL,
        current: Move::NONE,
        cont: 0,
        captured: false,
        killers: [Move::NONE; 2],
        move_count: 0,
        excluded: Move::NONE,
        in_check: false,
        tt_pv: false,
        tt_hit: false,
        stat_score: 0,
        double_ext: 0,
    };
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
    /// Move statistics for ordering and pruning.
    hist: History,
    /// The current line, ply `p` at index `p + STACK_BELOW`.
    stack: Vec<Frame>,
    /// Late-move reduction base by depth or move number (Stockfish's `Reductions`).
    reductions: [i32; 64],
    /// The game's positions, then the search path's: for repetitions and the
    /// perpetual-check rule.
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
    /// Null-move pruning stays off for `nmp_color` below this ply (verification search).
    nmp_min_ply: usize,
    nmp_color: Color,
    /// How often the best root move changed in this iteration (decays between them).
    best_move_changes: f64,
    /// When the clock was last looked at.
    last_check: Instant,
    /// The longest wait seen between two looks at the clock, fading from move to move:
    /// on a busy machine the process can be held off the processor for a while, and the
    /// search then stops this much earlier so that its answer is still in time.
    stall: Duration,
}

/// Entries in the evaluation cache (a power of two).
const EVAL_CACHE: usize = 1 << 16;

/// Reverse futility margin per ply of depth.
const RFP_MARGIN: i32 = 150;
/// Extra worth a capture must promise before qsearch tries it (stand pat plus victim).
const QS_FUTILITY: i32 = 110;

impl Searcher {
    /// A searcher with a transposition table of about `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Searcher {
        let mut reductions = [0; 64];
        for (i, r) in reductions.iter_mut().enumerate().skip(1) {
            *r = (21.9 * (i as f64).ln()) as i32;
        }
        Searcher {
            tt: Table::new(hash_mb),
            hist: History::new(),
            stack: vec![Frame::EMPTY; MAX_PLY + STACK_BELOW + 4],
            reductions,
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
            nmp_min_ply: 0,
            nmp_color: Color::Red,
            best_move_changes: 0.0,
            last_check: Instant::now(),
            stall: Duration::ZERO,
        }
    }

    /// Forgets everything learned (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.hist.clear();
    }

    /// Changes the transposition table's size (and empties it).
    pub fn resize(&mut self, hash_mb: usize) {
        self.tt.resize(hash_mb);
    }

    /// The late-move reduction for the `moves`th move at `depth`.
    #[inline]
    fn reduction(&self, improving: bool, depth: i32, moves: i32) -> i32 {
        let r =
            self.reductions[(depth as usize).min(63)] * self.reductions[(moves as usize).min(63)];
        (r + 534) / 1024 + i32::from(!improving && r > 904)
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
        // time, which also absorbs a busy machine's scheduling delays (a match at 1 s a
        // move at nice 10 next to builds saw 4 answers in 1,057 up to 0.3 s late with
        // 1/40 kept; the time manager rarely plans past 90% anyway, so a tenth costs
        // little).
        self.deadline = limits.deadline.map(|d| {
            let total = d.saturating_duration_since(self.start);
            let margin = Duration::from_millis(8) + total / 10;
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
        self.hist.age();
        self.stack.fill(Frame::EMPTY);
        self.nmp_min_ply = 0;
        self.best_move_changes = 0.0;
        self.last_check = self.start;
        self.stall = self.stall.mul_f64(0.85);

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

        let mut pos: Position = game.position().with_tally();
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
        // The plan is a share of the caller's whole time; the margin only moves the hard
        // stop, so a wider margin does not make settled positions stop sooner.
        let mut clock = limits.deadline.map(|d| {
            let budget = d.saturating_duration_since(self.start);
            TimeManager::new(self.start, budget, options.soft_fraction, limits.spend_all)
        });
        if let Some(tm) = &mut clock {
            let in_check = self.path.last().is_some_and(|n| n.check);
            let threat = !in_check && self.threatened(&mut pos);
            tm.under_pressure(in_check, threat);
        }
        let mut progress = Progress::default();
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
            self.best_move_changes /= 2.0;
            // Aspiration window around the last score from depth 5 on.
            let mut delta = 25;
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
                    beta = (alpha + beta) / 2;
                    alpha = (score - delta).max(-INF);
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
            progress.previous_score = if depth == 1 {
                chosen.score
            } else {
                progress.score
            };
            progress.score = chosen.score;
            progress.depth = depth;
            if best.best != Some(chosen.mv) {
                progress.best_changed_at = depth;
            }
            progress.changes = self.best_move_changes;
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
            if clock.is_some_and(|tm| tm.stop_after(&progress, Instant::now())) {
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
        let s = STACK_BELOW;
        let in_check = self.path.last().is_some_and(|n| n.check);
        self.stack[s].in_check = in_check;
        self.stack[s].tt_pv = true;
        self.stack[s].static_eval = if in_check {
            NO_EVAL
        } else {
            self.evaluate(pos)
        };
        self.stack[s + 1].excluded = Move::NONE;
        self.stack[s + 2].killers = [Move::NONE; 2];
        let mut best = -INF;
        for i in 0..roots.len() {
            let mv = roots[i].mv;
            let piece = pos
                .piece_at(mv.from())
                .expect("a root move starts on a piece");
            let capture = pos.piece_at(mv.to()).is_some();
            let gives_check = pos.gives_check(mv);
            self.stack[s].move_count = i as i32 + 1;
            self.stack[s].current = mv;
            self.stack[s].cont = history::slot(piece, mv.to());
            self.stack[s].captured = capture;
            let undo = pos.make(mv);
            self.path.push(Node {
                key: pos.key(),
                check: gives_check,
                null: false,
            });
            let new_depth = depth - 1;
            let score = if noisy {
                -self.negamax(pos, new_depth, -INF, INF, 1, false)
            } else if i == 0 {
                -self.negamax(pos, new_depth, -beta, -alpha, 1, false)
            } else {
                // Late quiet root moves are tried reduced first, as anywhere else.
                let mut r = 0;
                if depth >= 3 && i >= 3 && !capture && !gives_check {
                    r = self.reduction(true, depth, i as i32 + 1) - 1
                        + i32::from(self.best_move_changes <= 2.0);
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = -self.negamax(pos, new_depth - r, -alpha - 1, -alpha, 1, true);
                if s > alpha && r > 0 && !self.stopped {
                    s = -self.negamax(pos, new_depth, -alpha - 1, -alpha, 1, false);
                }
                if s > alpha && s < beta && !self.stopped {
                    -self.negamax(pos, new_depth, -beta, -alpha, 1, false)
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
                if i > 0 && noisy_score > alpha {
                    self.best_move_changes += 1.0;
                }
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

    /// Whether the side to move at the root stands to lose material if it passed: the
    /// other side's captures, searched to quiescence, gain well over what standing pat
    /// says. The time manager gives such positions more thought.
    fn threatened(&mut self, pos: &mut Position) -> bool {
        let stand = self.evaluate(pos);
        pos.make_null();
        self.path.push(Node {
            key: pos.key(),
            check: false,
            null: true,
        });
        let after = -self.quiesce(pos, -INF, INF, 1);
        self.path.pop();
        pos.unmake_null();
        self.stopped = false;
        after < stand - 150
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
        if self.nodes & 255 == 0 {
            let now = Instant::now();
            if let Some(d) = self.deadline {
                let gap = now.saturating_duration_since(self.last_check);
                let cap = d.saturating_duration_since(self.start) / 3;
                self.stall = self.stall.max(gap.min(cap));
            }
            self.last_check = now;
            let out_of_time = self.deadline.is_some_and(|d| now + self.stall >= d);
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

    /// The continuation-history entries of a quiet move into `slot` at frame `s`: one,
    /// two and four plies back.
    #[inline]
    fn cont_scores(&self, s: usize, slot: usize) -> [i32; 3] {
        [
            self.hist.cont(self.stack[s - 1].cont, slot),
            self.hist.cont(self.stack[s - 2].cont, slot),
            self.hist.cont(self.stack[s - 4].cont, slot),
        ]
    }

    /// Credits (or debits) the move into `slot` made at frame `s` in the continuation
    /// tables of the moves one, two, four and six plies before it.
    fn update_cont(&mut self, s: usize, slot: usize, bonus: i32) {
        for i in [1, 2, 4, 6] {
            if i > 2 && self.stack[s].in_check {
                break;
            }
            let f = s - i;
            if self.stack[f].current != Move::NONE {
                self.hist.add_cont(self.stack[f].cont, slot, bonus);
            }
        }
    }

    /// A quiet move cut off at frame `s`: it becomes a killer and the countermove, and
    /// its histories grow by `bonus`.
    fn update_quiet_stats(&mut self, pos: &Position, s: usize, mv: Move, bonus: i32) {
        let frame = &mut self.stack[s];
        if frame.killers[0] != mv {
            frame.killers[1] = frame.killers[0];
            frame.killers[0] = mv;
        }
        let Some(piece) = pos.piece_at(mv.from()) else {
            return;
        };
        self.hist.add_main(pos.side_to_move(), mv, bonus);
        self.update_cont(s, history::slot(piece, mv.to()), bonus);
        if self.stack[s - 1].current != Move::NONE {
            self.hist.set_counter(self.stack[s - 1].cont, mv);
        }
    }

    /// After a node found a best move: reward it, and debit the moves tried before it.
    #[allow(clippy::too_many_arguments)]
    fn update_all_stats(
        &mut self,
        pos: &Position,
        s: usize,
        best_move: Move,
        best_value: i32,
        beta: i32,
        quiets: &[Move],
        captures: &[Move],
        depth: i32,
    ) {
        let bonus1 = history::bonus(depth + 1);
        let us = pos.side_to_move();
        if pos.piece_at(best_move.to()).is_none() {
            let bonus2 = if best_value > beta + 100 {
                bonus1
            } else {
                history::bonus(depth)
            };
            self.update_quiet_stats(pos, s, best_move, bonus2);
            for &q in quiets {
                self.hist.add_main(us, q, -bonus2);
                if let Some(p) = pos.piece_at(q.from()) {
                    self.update_cont(s, history::slot(p, q.to()), -bonus2);
                }
            }
        } else if let (Some(p), Some(v)) =
            (pos.piece_at(best_move.from()), pos.piece_at(best_move.to()))
        {
            self.hist.add_capture(p, best_move.to(), v.kind(), bonus1);
        }
        // The previous ply's early quiet move was refuted: it was not so good.
        let prev = &self.stack[s - 1];
        if prev.current != Move::NONE
            && !prev.captured
            && (prev.move_count == 1 + i32::from(prev.tt_hit) || prev.current == prev.killers[0])
        {
            let slot = prev.cont;
            self.update_cont(s - 1, slot, -bonus1);
        }
        for &c in captures {
            if let (Some(p), Some(v)) = (pos.piece_at(c.from()), pos.piece_at(c.to())) {
                self.hist.add_capture(p, c.to(), v.kind(), -bonus1);
            }
        }
    }

    /// The hash move, if the table has one and it is playable here.
    #[inline]
    fn tt_move(pos: &Position, hit: Option<Hit>) -> Option<Move> {
        hit.and_then(|h| h.mv).filter(|&m| pos.is_pseudo_legal(m))
    }

    #[allow(clippy::too_many_lines)]
    fn negamax(
        &mut self,
        pos: &mut Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let in_check = self.path.last().is_some_and(|n| n.check);
        self.pv_len[ply] = 0;

        // Step 1. Draws by rule, the horizon, mate distance.
        if let Some(score) = self.repetition(pos, ply) {
            return score;
        }
        if pos.halfmove_clock() >= SIXTY_MOVES
            || !pos.has_attackers(Color::Red) && !pos.has_attackers(Color::Black)
        {
            return self.draw_score(pos.side_to_move());
        }
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate(pos) };
        }
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

        let s = ply + STACK_BELOW;
        let us = pos.side_to_move();
        let excluded = self.stack[s].excluded;
        let prior_capture = self.stack[s - 1].captured;
        let prev_move = self.stack[s - 1].current;
        self.stack[s].in_check = in_check;
        self.stack[s].move_count = 0;
        self.stack[s + 1].excluded = Move::NONE;
        self.stack[s + 2].killers = [Move::NONE; 2];
        self.stack[s + 2].stat_score = 0;
        self.stack[s].double_ext = self.stack[s - 1].double_ext;

        // Step 2. Transposition table.
        let key = pos.key();
        let hit = self.tt.probe(key);
        let tt_move = Self::tt_move(pos, hit);
        let tt_value = hit.map_or(NO_SCORE, |h| {
            if h.score == NO_SCORE {
                NO_SCORE
            } else {
                from_tt(h.score, ply)
            }
        });
        let tt_bound = hit.map_or(Bound::None, |h| h.bound);
        let tt_depth = hit.map_or(DEPTH_NONE, |h| h.depth);
        let tt_capture = tt_move.is_some_and(|m| pos.piece_at(m.to()).is_some());
        if excluded == Move::NONE {
            self.stack[s].tt_pv = pv_node || hit.is_some_and(|h| h.pv);
            self.stack[s].tt_hit = hit.is_some();
        }
        let tt_pv = self.stack[s].tt_pv;

        if !pv_node
            && excluded == Move::NONE
            && tt_depth >= depth
            && tt_value != NO_SCORE
            && bound_allows(tt_bound, tt_value, beta)
        {
            if let Some(m) = tt_move {
                if tt_value >= beta {
                    if pos.piece_at(m.to()).is_none() {
                        self.update_quiet_stats(pos, s, m, history::bonus(depth));
                    }
                    // The previous ply's early quiet move was refuted at once.
                    let prev = self.stack[s - 1];
                    if prev.current != Move::NONE && prev.move_count <= 2 && !prior_capture {
                        self.update_cont(s - 1, prev.cont, -history::bonus(depth + 1));
                    }
                } else if pos.piece_at(m.to()).is_none() {
                    let penalty = -history::bonus(depth);
                    self.hist.add_main(us, m, penalty);
                    if let Some(p) = pos.piece_at(m.from()) {
                        self.update_cont(s, history::slot(p, m.to()), penalty);
                    }
                }
            }
            // Near the sixty-move count a stored score may no longer hold.
            if pos.halfmove_clock() < SIXTY_MOVES - 20 {
                return tt_value;
            }
        }

        // Step 3. Static evaluation, and whether it improves on two plies ago.
        let mut eval;
        let static_eval;
        let improving;
        if in_check {
            static_eval = NO_EVAL;
            eval = NO_EVAL;
            improving = false;
        } else {
            if excluded != Move::NONE {
                static_eval = self.stack[s].static_eval;
                eval = static_eval;
            } else if let Some(h) = hit {
                static_eval = if h.eval == NO_SCORE || h.eval.abs() >= MATE_BOUND {
                    self.evaluate(pos)
                } else {
                    h.eval
                };
                eval = static_eval;
                if refines(tt_bound, tt_value, eval) {
                    eval = tt_value;
                }
            } else {
                static_eval = self.evaluate(pos);
                eval = static_eval;
                self.tt.store(
                    key,
                    None,
                    NO_SCORE,
                    static_eval,
                    DEPTH_NONE,
                    Bound::None,
                    tt_pv,
                );
            }
            self.stack[s].static_eval = static_eval;
            let two = self.stack[s - 2].static_eval;
            let four = self.stack[s - 4].static_eval;
            improving = if two != NO_EVAL {
                static_eval > two
            } else {
                four == NO_EVAL || static_eval > four
            };
            // The eval's swing tells how good the opponent's last quiet move was.
            let prev_eval = self.stack[s - 1].static_eval;
            if prev_move != Move::NONE && prev_eval != NO_EVAL && !prior_capture {
                let bonus = (-depth * 4 * (prev_eval + static_eval)).clamp(-1000, 1000);
                self.hist.add_main(!us, prev_move, bonus);
            }
        }
        if in_check {
            self.stack[s].static_eval = NO_EVAL;
        }

        if !in_check {
            // Step 4. Reverse futility: far above beta at low depth, a quiet move will
            // not matter.
            if !pv_node
                && depth < 9
                && eval - RFP_MARGIN * (depth - i32::from(improving)) >= beta
                && eval < MATE_BOUND
                && beta > -MATE_BOUND
            {
                return eval;
            }

            // Step 5. Null move: if passing still holds beta, a real move surely does.
            // Not when only the general, advisors, elephants and soldiers are left
            // (zugzwang).
            let has_pieces = pos.count(us, Kind::Rook)
                + pos.count(us, Kind::Horse)
                + pos.count(us, Kind::Cannon)
                > 0;
            if !pv_node
                && prev_move != Move::NONE
                && self.stack[s - 1].stat_score < 23_767
                && eval >= beta
                && eval >= static_eval
                && static_eval
                    >= beta - 14 * depth - 15 * i32::from(improving) + 110 * i32::from(tt_pv) + 110
                && excluded == Move::NONE
                && has_pieces
                && beta > -MATE_BOUND
                && (ply >= self.nmp_min_ply || us != self.nmp_color)
            {
                let r = (1090 + 81 * depth) / 256 + ((eval - beta) / 145).min(3);
                self.stack[s].current = Move::NONE;
                self.stack[s].cont = 0;
                self.stack[s].captured = false;
                pos.make_null();
                self.path.push(Node {
                    key: pos.key(),
                    check: false,
                    null: true,
                });
                let mut null_value =
                    -self.negamax(pos, depth - r, -beta, -beta + 1, ply + 1, !cut_node);
                self.path.pop();
                pos.unmake_null();
                if self.stopped {
                    return 0;
                }
                if null_value >= beta {
                    if null_value >= MATE_BOUND {
                        null_value = beta;
                    }
                    if self.nmp_min_ply != 0 || depth < 14 {
                        return null_value;
                    }
                    // Verify at high depth, with null moves off for us for a while.
                    self.nmp_min_ply = ply + (3 * (depth - r) / 4).max(0) as usize;
                    self.nmp_color = us;
                    let v = self.negamax(pos, depth - r, beta - 1, beta, ply, false);
                    self.nmp_min_ply = 0;
                    if v >= beta {
                        return null_value;
                    }
                }
            }

            // Step 6. ProbCut: a good capture whose reduced search beats beta by a
            // margin almost surely cuts off.
            let probcut_beta = beta + 150 - 30 * i32::from(improving);
            if !pv_node
                && depth > 4
                && beta.abs() < MATE_BOUND
                && !(tt_depth >= depth - 3 && tt_value != NO_SCORE && tt_value < probcut_beta)
            {
                let mut mp = MovePicker::probcut(pos, tt_move, probcut_beta - static_eval);
                let mut tried = 0;
                while tried < 2 + 2 * i32::from(cut_node) {
                    let Some(mv) = mp.next(pos, &self.hist) else {
                        break;
                    };
                    if mv == excluded || !pos.is_legal(mv, false) {
                        continue;
                    }
                    tried += 1;
                    let piece = pos.piece_at(mv.from()).expect("a move starts on a piece");
                    let gives_check = pos.gives_check(mv);
                    self.stack[s].current = mv;
                    self.stack[s].cont = history::slot(piece, mv.to());
                    self.stack[s].captured = true;
                    let undo = pos.make(mv);
                    self.path.push(Node {
                        key: pos.key(),
                        check: gives_check,
                        null: false,
                    });
                    let mut value = -self.quiesce(pos, -probcut_beta, -probcut_beta + 1, ply + 1);
                    if value >= probcut_beta {
                        value = -self.negamax(
                            pos,
                            depth - 4,
                            -probcut_beta,
                            -probcut_beta + 1,
                            ply + 1,
                            !cut_node,
                        );
                    }
                    self.path.pop();
                    pos.unmake(mv, undo);
                    if self.stopped {
                        return 0;
                    }
                    if value >= probcut_beta {
                        if !(tt_depth >= depth - 3 && tt_value != NO_SCORE) {
                            self.tt.store(
                                key,
                                Some(mv),
                                to_tt(value, ply),
                                static_eval,
                                depth - 3,
                                Bound::Lower,
                                tt_pv,
                            );
                        }
                        return value;
                    }
                }
            }

            // Step 7. Internal iterative reduction: without a hash move, ordering is
            // poor; search less.
            if pv_node && depth >= 6 && tt_move.is_none() {
                depth -= 2;
            }
        }

        // Step 8. In check, a capture from the table that beat beta by far.
        let probcut_beta = beta + 290;
        if in_check
            && !pv_node
            && depth >= 4
            && tt_capture
            && matches!(tt_bound, Bound::Lower | Bound::Exact)
            && tt_depth >= depth - 3
            && tt_value != NO_SCORE
            && tt_value >= probcut_beta
            && tt_value.abs() < MATE_BOUND
            && beta.abs() < MATE_BOUND
        {
            return probcut_beta;
        }

        // Step 9. The moves.
        let conts = [
            self.stack[s - 1].cont,
            self.stack[s - 2].cont,
            self.stack[s - 4].cont,
        ];
        let counter = if prev_move != Move::NONE {
            self.hist.counter(conts[0])
        } else {
            Move::NONE
        };
        let mut mp = MovePicker::main(tt_move, in_check, self.stack[s].killers, counter, conts);
        let likely_fail_low =
            pv_node && tt_move.is_some() && tt_bound == Bound::Upper && tt_depth >= depth;
        let has_pieces =
            pos.count(us, Kind::Rook) + pos.count(us, Kind::Horse) + pos.count(us, Kind::Cannon)
                > 0;

        let mut best = -INF;
        let mut best_move: Option<Move> = None;
        let mut move_count = 0;
        let mut quiets_tried = [Move::NONE; 64];
        let mut n_quiets = 0;
        let mut captures_tried = [Move::NONE; 32];
        let mut n_captures = 0;
        let mut singular_quiet_lmr = false;
        let mut double_extension = false;

        while let Some(mv) = mp.next(pos, &self.hist) {
            if mv == excluded || !pos.is_legal(mv, in_check) {
                continue;
            }
            move_count += 1;
            self.stack[s].move_count = move_count;
            let piece = pos.piece_at(mv.from()).expect("a move starts on a piece");
            let victim = pos.piece_at(mv.to());
            let capture = victim.is_some();
            let gives_check = pos.gives_check(mv);
            let slot = history::slot(piece, mv.to());
            let mut new_depth = depth - 1;

            // Step 10. Pruning at shallow depth.
            if has_pieces && best > -MATE_BOUND {
                if move_count >= futility_move_count(improving, depth) {
                    mp.skip_quiets = true;
                }
                let lmr_depth = (new_depth - self.reduction(improving, depth, move_count)).max(0);
                if capture || gives_check {
                    if let (false, Some(v)) = (gives_check, victim)
                        && lmr_depth < 1
                        && self.hist.capture(piece, mv.to(), v.kind()) < 0
                    {
                        continue;
                    }
                    if !pos.see_ge(mv, -150 * depth) {
                        continue;
                    }
                } else {
                    let [c1, c2, c4] = self.cont_scores(s, slot);
                    if lmr_depth < 5 && c1 < 0 && c2 < 0 {
                        continue;
                    }
                    if lmr_depth < 7
                        && !in_check
                        && alpha < MATE_BOUND
                        && static_eval + 120 + 110 * lmr_depth <= alpha
                        && c1 + c2 + c4 < 28_000
                    {
                        continue;
                    }
                    if !pos.see_ge(mv, -21 * lmr_depth * lmr_depth) {
                        continue;
                    }
                }
            }

            // Step 11. Extensions: a singular hash move searches one ply deeper.
            let mut extension = 0;
            if depth >= 7
                && Some(mv) == tt_move
                && excluded == Move::NONE
                && tt_value != NO_SCORE
                && tt_value.abs() < MATE_BOUND
                && matches!(tt_bound, Bound::Lower | Bound::Exact)
                && tt_depth >= depth - 3
            {
                let singular_beta = tt_value - 2 * depth;
                let singular_depth = (depth - 1) / 2;
                self.stack[s].excluded = mv;
                let value = self.negamax(
                    pos,
                    singular_depth,
                    singular_beta - 1,
                    singular_beta,
                    ply,
                    cut_node,
                );
                self.stack[s].excluded = Move::NONE;
                self.stack[s].move_count = move_count;
                if self.stopped {
                    return 0;
                }
                if value < singular_beta {
                    extension = 1;
                    singular_quiet_lmr = !tt_capture;
                    if !pv_node && value < singular_beta - 65 && self.stack[s].double_ext < 3 {
                        extension = 2;
                        double_extension = true;
                    }
                } else if singular_beta >= beta {
                    // Multi-cut: without the hash move something else beats beta too.
                    return singular_beta;
                } else if tt_value >= beta {
                    self.stack[s].excluded = mv;
                    let value = self.negamax(pos, (depth + 3) / 2, beta - 1, beta, ply, cut_node);
                    self.stack[s].excluded = Move::NONE;
                    self.stack[s].move_count = move_count;
                    if self.stopped {
                        return 0;
                    }
                    if value >= beta {
                        return beta;
                    }
                }
            } else if gives_check && depth > 6 && static_eval.abs() > 70 {
                extension = 1;
            }
            new_depth += extension;
            self.stack[s].double_ext = self.stack[s - 1].double_ext + i32::from(extension == 2);

            // Step 12. Make the move.
            self.stack[s].current = mv;
            self.stack[s].cont = slot;
            self.stack[s].captured = capture;
            let undo = pos.make(mv);
            self.path.push(Node {
                key: pos.key(),
                check: gives_check,
                null: false,
            });

            // Step 13. Late move reductions.
            let mut value;
            let full_depth;
            let mut did_lmr = false;
            if depth >= 3
                && move_count > 1
                && (!capture || (cut_node && self.stack[s - 1].move_count > 1) || !tt_pv)
            {
                let mut r = self.reduction(improving, depth, move_count);
                if pv_node {
                    r -= 1;
                }
                if tt_pv && !likely_fail_low {
                    r -= 2;
                }
                if !pv_node && self.best_move_changes <= 2.0 {
                    r += 1;
                }
                if self.stack[s - 1].move_count > 13 {
                    r -= 1;
                }
                if singular_quiet_lmr {
                    r -= 1;
                }
                if cut_node {
                    r += 1 + i32::from(!capture);
                }
                if !capture {
                    if tt_capture {
                        r += 1;
                    }
                    let [c1, c2, c4] = self.cont_scores(s, slot);
                    let stat = self.hist.main(us, mv) + c1 + c2 + c4 - 4923;
                    self.stack[s].stat_score = stat;
                    if !in_check {
                        r -= stat / 14_721;
                    }
                }
                let most = new_depth + i32::from(r < -1 && move_count <= 5 && !double_extension);
                let d = (new_depth - r).clamp(1, most.max(1));
                value = -self.negamax(pos, d, -(alpha + 1), -alpha, ply + 1, true);
                full_depth = value > alpha && d < new_depth;
                did_lmr = true;
            } else {
                value = -INF;
                full_depth = !pv_node || move_count > 1;
            }
            if full_depth && !self.stopped {
                value = -self.negamax(pos, new_depth, -(alpha + 1), -alpha, ply + 1, !cut_node);
                if did_lmr && !capture {
                    let b = if value > alpha {
                        history::bonus(new_depth)
                    } else {
                        -history::bonus(new_depth)
                    };
                    self.update_cont(s, slot, b);
                }
            }
            if pv_node && (move_count == 1 || value > alpha && value < beta) && !self.stopped {
                value = -self.negamax(pos, new_depth, -beta, -alpha, ply + 1, false);
            }

            // Step 14. Undo the move, and see what it was worth.
            self.path.pop();
            pos.unmake(mv, undo);
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    best_move = Some(mv);
                    if pv_node {
                        self.pv[ply][0] = mv;
                        let n = self.pv_len[ply + 1];
                        for k in 0..n {
                            self.pv[ply][k + 1] = self.pv[ply + 1][k];
                        }
                        self.pv_len[ply] = n + 1;
                    }
                    if pv_node && value < beta {
                        alpha = value;
                    } else {
                        break;
                    }
                }
            }
            if Some(mv) != best_move {
                if capture {
                    if n_captures < captures_tried.len() {
                        captures_tried[n_captures] = mv;
                        n_captures += 1;
                    }
                } else if n_quiets < quiets_tried.len() {
                    quiets_tried[n_quiets] = mv;
                    n_quiets += 1;
                }
            }
        }

        // Step 15. No legal move: checkmate or stalemate, lost either way.
        if move_count == 0 {
            return if excluded != Move::NONE {
                alpha
            } else {
                -MATE + ply as i32
            };
        }
        if let Some(bm) = best_move {
            self.update_all_stats(
                pos,
                s,
                bm,
                best,
                beta,
                &quiets_tried[..n_quiets],
                &captures_tried[..n_captures],
                depth,
            );
        } else if (depth >= 3 || pv_node) && !prior_capture && prev_move != Move::NONE {
            // The opponent's quiet move refuted everything we had: credit it.
            let slot = self.stack[s - 1].cont;
            self.update_cont(s - 1, slot, history::bonus(depth));
        }

        if best <= alpha {
            self.stack[s].tt_pv = tt_pv || self.stack[s - 1].tt_pv && depth > 3;
        } else if depth > 3 {
            self.stack[s].tt_pv = tt_pv && self.stack[s + 1].tt_pv;
        }
        if excluded == Move::NONE {
            let bound = if best >= beta {
                Bound::Lower
            } else if pv_node && best_move.is_some() {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(
                key,
                best_move,
                to_tt(best, ply),
                static_eval,
                depth,
                bound,
                self.stack[s].tt_pv,
            );
        }
        best
    }

    fn quiesce(&mut self, pos: &mut Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        let pv_node = beta - alpha > 1;
        self.nodes += 1;
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if self.check_stop() {
            return 0;
        }
        let in_check = self.path.last().is_some_and(|n| n.check);
        if in_check && let Some(score) = self.repetition(pos, ply) {
            return score;
        }
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate(pos) };
        }
        let s = ply + STACK_BELOW;
        self.stack[s].in_check = in_check;

        let key = pos.key();
        let hit = self.tt.probe(key);
        let tt_value = hit.map_or(NO_SCORE, |h| {
            if h.score == NO_SCORE {
                NO_SCORE
            } else {
                from_tt(h.score, ply)
            }
        });
        let tt_bound = hit.map_or(Bound::None, |h| h.bound);
        if !pv_node
            && hit.is_some_and(|h| h.depth >= 0)
            && tt_value != NO_SCORE
            && bound_allows(tt_bound, tt_value, beta)
        {
            return tt_value;
        }
        let pv_hit = hit.is_some_and(|h| h.pv);

        let mut best;
        let static_eval;
        let futility_base;
        let old_alpha = alpha;
        if in_check {
            best = -INF;
            static_eval = NO_EVAL;
            futility_base = -INF;
        } else {
            static_eval = match hit {
                Some(h) if h.eval != NO_SCORE && h.eval.abs() < MATE_BOUND => h.eval,
                _ => self.evaluate(pos),
            };
            best = static_eval;
            if refines(tt_bound, tt_value, best) {
                best = tt_value;
            }
            // Stand pat.
            if best >= beta {
                if hit.is_none() {
                    self.tt.store(
                        key,
                        None,
                        to_tt(best, ply),
                        static_eval,
                        DEPTH_NONE,
                        Bound::Lower,
                        false,
                    );
                }
                return best;
            }
            if best > alpha {
                alpha = best;
            }
            futility_base = best + QS_FUTILITY;
        }
        self.stack[s].static_eval = static_eval;

        let tt_move = Self::tt_move(pos, hit);
        let mut mp = MovePicker::quiescence(pos, tt_move, in_check);
        // A recapture on the point just taken is always worth a look.
        let prev_to = self.stack[s - 1].current.to();
        let mut best_move = None;
        let mut move_count = 0;
        while let Some(mv) = mp.next(pos, &self.hist) {
            if !pos.is_legal(mv, in_check) {
                continue;
            }
            let gives_check = pos.gives_check(mv);
            move_count += 1;
            if best > -MATE_BOUND {
                if !gives_check && futility_base > -MATE_BOUND && mv.to() != prev_to {
                    if move_count > 2 {
                        continue;
                    }
                    let gain = pos.piece_at(mv.to()).map_or(0, |p| kind_value(p.kind()));
                    let futility_value = futility_base + gain;
                    if futility_value <= alpha {
                        best = best.max(futility_value);
                        continue;
                    }
                    if futility_base <= alpha && !pos.see_ge(mv, 1) {
                        best = best.max(futility_base);
                        continue;
                    }
                }
                if !pos.see_ge(mv, 0) {
                    continue;
                }
            }
            let piece = pos.piece_at(mv.from()).expect("a move starts on a piece");
            self.stack[s].current = mv;
            self.stack[s].cont = history::slot(piece, mv.to());
            self.stack[s].captured = pos.piece_at(mv.to()).is_some();
            let undo = pos.make(mv);
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
                    best_move = Some(mv);
                    if pv_node && score < beta {
                        alpha = score;
                    } else {
                        break;
                    }
                }
            }
        }
        if in_check && best == -INF {
            return -MATE + ply as i32;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && best > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            best_move,
            to_tt(best, ply),
            static_eval,
            0,
            bound,
            pv_hit,
        );
        best
    }
}

/// Whether a stored score with `bound` settles a null-window test against `beta`.
#[inline]
fn bound_allows(bound: Bound, score: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score < beta,
        Bound::None => false,
    }
}

/// Whether a stored score with `bound` says more than the static evaluation `eval`
/// (a lower bound above it, an upper bound below it, or an exact score).
#[inline]
fn refines(bound: Bound, score: i32, eval: i32) -> bool {
    score != NO_SCORE
        && match bound {
            Bound::Exact => true,
            Bound::Lower => score > eval,
            Bound::Upper => score < eval,
            Bound::None => false,
        }
}

/// Quiet moves beyond this many at `depth` are not tried (move-count pruning).
#[inline]
fn futility_move_count(improving: bool, depth: i32) -> i32 {
    (3 + depth * depth) / (2 - i32::from(improving))
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
        let pos = crate::xiangqi::from_fen(fen).unwrap();
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
        s.repetition(&game.position().with_tally(), ply)
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
