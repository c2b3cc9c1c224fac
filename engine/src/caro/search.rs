//! The caro engine: iterative deepening PVS over the threat-aware move generator, with a
//! transposition table, threat-space search at the root and a VCF-style quiescence at
//! the leaves.
//!
//! Per move ([`Engine::think`]):
//! 1. Settle what needs no search: an immediate five, a single forced block, a lost
//!    position (the least bad move).
//! 2. Threat-space search at the root: a VCF, then (levels that allow it) a VCT, each on a
//!    node budget. A proven win is played at once.
//! 3. Iterative deepening under the deadline: PVS alpha-beta with TT cutoffs, killer and
//!    history move ordering, late move reductions, forced blocks searched without using up
//!    depth, and at depth 0 a quiescence that plays only fours (a bounded VCF with the
//!    static evaluation as stand-pat).
//!
//! Scores are from the side to move's view. A win found `n` plies from the root scores
//! `MATE - n`, a loss `-(MATE - n)`: the fastest win and the slowest loss are preferred.

use std::time::{Duration, Instant};

use super::board::{Point, Stone};
use super::eval::evaluate;
use super::game::Game;
use super::level::Config;
use super::movegen::{Moves, Situation, generate, generate_into, move_score};
use super::pattern::Combo;
use super::position::{Cell, Position};
use super::tt::{Bound, MATE_BOUND, Tt, from_tt, to_tt};
use super::vcf::{FailCache, Kind, Proof, ThreatSearch};
use crate::bot::{Bot, Cancel, Level, Limits, Thought};

/// The score of a five on the board, at ply 0.
pub const MATE: i32 = 100_000;
/// Scores beyond any mate.
const INFINITY: i32 = MATE + 1;
/// The deepest ply the search reaches (forced lines included).
pub const MAX_PLY: usize = 96;
/// Time kept in hand for unwinding and answering: a fixed part plus a share of the
/// budget, which absorbs some of a busy machine's scheduling delays.
fn safety_margin(budget: Duration) -> Duration {
    Duration::from_millis(8) + budget / 40
}

/// A caro engine: owns its hash tables between moves of a game.
pub struct Engine {
    /// Time, depth and style.
    config: Config,
    /// Search results remembered across moves.
    tt: Tt,
    /// Per cell and side: how often a move there cut the search off, for ordering.
    history: Vec<[i32; 2]>,
    /// Refuted threat-space positions, shared by root VCF/VCT.
    fail_cache: FailCache,
    /// State of the small random generator that picks `easy`'s imperfect moves.
    rng: u64,
}

impl Engine {
    /// An engine playing at `level`.
    pub fn new(level: Level) -> Engine {
        Engine::with_config(Config::for_level(level))
    }

    /// An engine with explicit settings.
    pub fn with_config(config: Config) -> Engine {
        // Build the shared evaluation table now, not inside the first move's budget.
        super::eval::ValueTable::get();
        Engine {
            tt: Tt::new(config.tt_bits),
            history: Vec::new(),
            fail_cache: FailCache::new(16),
            rng: config.seed | 1,
            config,
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Changes the settings, keeping what the search learned (the table is rebuilt, and
    /// so emptied, only if its size changed): one engine can serve several levels.
    pub fn set_config(&mut self, config: Config) {
        if config.tt_bits != self.config.tt_bits {
            self.tt = Tt::new(config.tt_bits);
        }
        self.config = config;
    }

    /// Changes the nominal time per move (for adapters that get it from outside).
    pub fn set_move_time(&mut self, time: Duration) {
        self.config.move_time = time;
    }

    /// Searches `pos` (left as it was) for the side to move's best move.
    pub fn search(&mut self, pos: &mut Position, limits: &Limits) -> Thought<Cell> {
        let start = Instant::now();
        let mut budget = start + self.config.move_time;
        if let Some(d) = limits.deadline {
            budget = budget.min(d);
        }
        let span = budget.saturating_duration_since(start);
        let deadline = budget
            .checked_sub(safety_margin(span))
            .unwrap_or(budget)
            .max(start);
        let max_depth = limits
            .max_depth
            .map_or(self.config.max_depth, |d| d.min(self.config.max_depth))
            .max(1);
        let node_limit = limits.max_nodes.unwrap_or(u64::MAX);
        if self.history.len() != pos.grid_size() {
            self.history = vec![[0; 2]; pos.grid_size()];
        } else {
            for h in &mut self.history {
                *h = [h[0] / 8, h[1] / 8];
            }
        }
        self.tt.age();
        let mut thought = Thought {
            best: None,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
            elapsed: Duration::ZERO,
        };
        if pos.is_full() {
            return thought;
        }
        let us = pos.to_move();

        // 1. What needs no search.
        let root_moves = match generate(pos) {
            Moves::Win(c) => {
                return Thought {
                    best: Some(c),
                    score: MATE - 1,
                    depth: 1,
                    pv: vec![c],
                    elapsed: start.elapsed(),
                    ..thought
                };
            }
            Moves::Lost => {
                let mut fives = Vec::new();
                pos.cells_with(us.opponent(), Combo::Five, &mut fives);
                let c = fives[0];
                return Thought {
                    best: Some(c),
                    score: -(MATE - 2),
                    depth: 1,
                    pv: vec![c],
                    elapsed: start.elapsed(),
                    ..thought
                };
            }
            Moves::BlockFive(m) if m.len() == 1 => {
                return Thought {
                    best: Some(m[0]),
                    score: evaluate(pos),
                    depth: 1,
                    pv: vec![m[0]],
                    elapsed: start.elapsed(),
                    ..thought
                };
            }
            Moves::BlockFour(m) if m.is_empty() => {
                // Lost to an open four whatever happens: block where it hurts most.
                let mut all = Vec::new();
                pos.candidates(&mut all);
                let c = *all
                    .iter()
                    .max_by_key(|c| move_score(pos, **c, us))
                    .expect("a board that is not full has a candidate");
                return Thought {
                    best: Some(c),
                    score: -(MATE - 4),
                    depth: 1,
                    pv: vec![c],
                    elapsed: start.elapsed(),
                    ..thought
                };
            }
            Moves::BlockFive(m) | Moves::BlockFour(m) | Moves::Free(m) => m,
        };
        let forced = root_moves.len() < 8 && pos.count(us.opponent(), Combo::Flex4) > 0;

        // 2. Threat-space search, each on a slice of the time: VCF first (cheap, and the
        // usual way games are won), then VCT deepened a threat at a time.
        let budget_span = deadline.saturating_duration_since(start);
        let cancel = limits.cancel.clone();
        let plan = [
            (Kind::Vcf, self.config.root_vcf_nodes, 30, budget_span / 10),
            (
                Kind::Vct,
                self.config.root_vct_nodes,
                self.config.vct_depth,
                budget_span / 5,
            ),
        ];
        for (kind, nodes, max_depth, slice) in plan {
            if nodes == 0 {
                continue;
            }
            let slice_end = (Instant::now() + slice).min(deadline);
            let cancel = cancel.clone();
            let mut stop = move || cancel.is_cancelled() || Instant::now() >= slice_end;
            let mut spent = 0;
            let first_depth = if kind == Kind::Vcf {
                max_depth
            } else {
                2.min(max_depth)
            };
            for depth in (first_depth..=max_depth).step_by(2) {
                let mut ts =
                    ThreatSearch::new(pos, kind, &mut self.fail_cache, nodes - spent, &mut stop);
                let proof = ts.solve(depth);
                spent += ts.nodes();
                thought.nodes += ts.nodes();
                match proof {
                    Proof::Win(line) => {
                        return Thought {
                            best: line.first().copied(),
                            score: MATE - line.len() as i32,
                            depth: line.len() as u32,
                            pv: line,
                            elapsed: start.elapsed(),
                            ..thought
                        };
                    }
                    Proof::Unknown => break,
                    Proof::NoWin => {}
                }
                if spent >= nodes {
                    break;
                }
            }
        }

        // 3. Iterative deepening.
        let mut searcher = Searcher {
            pos,
            tt: &mut self.tt,
            history: &mut self.history,
            killers: [[usize::MAX; 2]; MAX_PLY + 1],
            pv: vec![[0; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            nodes: thought.nodes,
            node_limit,
            deadline,
            cancel: &limits.cancel,
            stopped: false,
            qsearch_fours: self.config.qsearch_fours,
            cell_buf: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            key_buf: Vec::with_capacity(64),
            fail_cache: &mut self.fail_cache,
            leaf_vct_nodes: self.config.leaf_vct_nodes,
        };
        let mut roots: Vec<RootMove> = root_moves
            .iter()
            .map(|&c| RootMove {
                cell: c,
                score: -INFINITY,
                order: move_score(searcher.pos, c, us),
            })
            .collect();
        roots.sort_by_key(|r| std::cmp::Reverse(r.order));
        let mut best = roots[0].cell;
        let mut best_score = -INFINITY;
        let mut pv = vec![best];
        let exact_scores = self.config.imprecision > 0;
        let soft_limit = start + (deadline - start).mul_f32(0.45);
        for depth in 1..=max_depth {
            let (score, completed) = searcher.root(&mut roots, depth as i32, exact_scores);
            if completed || (searcher.pv_len[0] > 0 && score > best_score && depth > 1) {
                best = roots[0].cell;
                best_score = score;
                pv = searcher.pv[0][..searcher.pv_len[0].max(1)].to_vec();
                pv[0] = best;
            }
            if !completed {
                break;
            }
            thought.depth = depth;
            if score.abs() >= MATE_BOUND || Instant::now() >= soft_limit {
                break;
            }
        }
        thought.nodes = searcher.nodes;
        if thought.depth == 0 {
            // Not even depth 1 finished: trust the static order.
            best_score = evaluate(searcher.pos);
        }
        if exact_scores && !forced && best_score.abs() < MATE_BOUND && thought.depth > 0 {
            best = self.imprecise_choice(&roots, best_score).unwrap_or(best);
            if best != pv[0] {
                pv = vec![best];
            }
        }
        Thought {
            best: Some(best),
            score: best_score,
            pv,
            elapsed: start.elapsed(),
            ..thought
        }
    }

    /// `easy`'s human-like slip: any root move whose score is within the level's
    /// imprecision of the best may be picked, the better ones more often. Moves that
    /// lose by force never are.
    fn imprecise_choice(&mut self, roots: &[RootMove], best: i32) -> Option<Cell> {
        let spread = self.config.imprecision;
        let floor = best - spread;
        let pool: Vec<(Cell, u64)> = roots
            .iter()
            .filter(|r| r.score > floor && r.score > -MATE_BOUND)
            .map(|r| {
                let w = (r.score - floor) as u64;
                (r.cell, w * w)
            })
            .collect();
        let total: u64 = pool.iter().map(|p| p.1).sum();
        if total == 0 {
            return None;
        }
        let mut pick = self.next_random() % total;
        for (c, w) in pool {
            if pick < w {
                return Some(c);
            }
            pick -= w;
        }
        None
    }

    fn next_random(&mut self) -> u64 {
        // xorshift64*
        let mut x = self.rng;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.rng = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

impl Bot for Engine {
    type Position = Game;
    type Move = Point;

    fn think(&mut self, game: &Game, limits: &Limits) -> Thought<Point> {
        if game.outcome().is_some() {
            return Thought {
                best: None,
                score: 0,
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
                elapsed: Duration::ZERO,
            };
        }
        let mut pos = Position::from_game(game);
        let t = self.search(&mut pos, limits);
        Thought {
            best: t.best.map(|c| pos.point(c)),
            score: t.score,
            depth: t.depth,
            nodes: t.nodes,
            pv: t.pv.iter().map(|c| pos.point(*c)).collect(),
            elapsed: t.elapsed,
        }
    }

    fn new_game(&mut self) {
        self.tt.clear();
        self.history.clear();
        self.fail_cache.clear();
    }
}

/// A move at the root with what the last iteration thought of it.
#[derive(Debug, Clone, Copy)]
struct RootMove {
    /// The move.
    cell: Cell,
    /// Score from the last iteration that searched it (a bound for most moves, exact
    /// when the level wants exact scores).
    score: i32,
    /// Static ordering score.
    order: i32,
}

/// One search's working state.
struct Searcher<'a> {
    /// The board, made and unmade as the search walks.
    pos: &'a mut Position,
    /// Results remembered across nodes and moves.
    tt: &'a mut Tt,
    /// Per cell and side: how often a move there cut off, for ordering.
    history: &'a mut [[i32; 2]],
    /// Two quiet moves per ply that cut off recently.
    killers: [[Cell; 2]; MAX_PLY + 1],
    /// Triangular principal-variation table: `pv[ply][ply..pv_len[ply]]` is the best
    /// line found from `ply`.
    pv: Vec<[Cell; MAX_PLY + 1]>,
    /// End of each ply's line in `pv`.
    pv_len: [usize; MAX_PLY + 1],
    /// Nodes visited (threat-search nodes included).
    nodes: u64,
    /// Stop after this many nodes.
    node_limit: u64,
    /// Stop at this instant (the budget less the safety margin).
    deadline: Instant,
    /// The caller's stop flag.
    cancel: &'a Cancel,
    /// Set when time, nodes or the caller say stop; every result after it is void.
    stopped: bool,
    /// How many fours in a row the quiescence may play.
    qsearch_fours: u32,
    /// Move lists, one per ply, reused across nodes.
    cell_buf: Vec<Vec<Cell>>,
    /// Scratch for ordering.
    key_buf: Vec<(i32, Cell)>,
    /// Refuted threat-space positions (shared with the root's VCF/VCT).
    fail_cache: &'a mut FailCache,
    /// Node budget of a VCT tried at a leaf that offers a double open three (0: none).
    leaf_vct_nodes: u64,
}

impl Searcher<'_> {
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 511 == 0
            && (self.cancel.is_cancelled()
                || Instant::now() >= self.deadline
                || self.nodes >= self.node_limit)
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// One iteration over the root moves. Returns the best score and whether the
    /// iteration completed; `roots` is left best first.
    fn root(&mut self, roots: &mut [RootMove], depth: i32, exact: bool) -> (i32, bool) {
        let mut alpha = -INFINITY;
        let beta = INFINITY;
        let mut best = -INFINITY;
        self.pv_len[0] = 0;
        for i in 0..roots.len() {
            let c = roots[i].cell;
            self.pos.make(c);
            let score = if i == 0 || exact {
                -self.negamax(depth - 1, 1, -beta, -alpha, true)
            } else {
                let s = -self.negamax(depth - 1, 1, -alpha - 1, -alpha, false);
                if s > alpha && !self.stopped {
                    -self.negamax(depth - 1, 1, -beta, -alpha, true)
                } else {
                    s
                }
            };
            self.pos.unmake();
            if self.stopped {
                // Keep what finished; a partial iteration still sorts its best first.
                roots[..i].sort_by_key(|r| std::cmp::Reverse(r.score));
                return (best, false);
            }
            roots[i].score = score;
            if score > best {
                best = score;
                self.update_pv(0, c);
            }
            if score > alpha && !exact {
                alpha = score;
            }
        }
        // Stable: ties keep the earlier (better-ordered) move first.
        roots.sort_by_key(|r| std::cmp::Reverse(r.score));
        (best, true)
    }

    fn negamax(
        &mut self,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        pv_node: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if self.tick() {
            return 0;
        }
        let us = self.pos.to_move();
        let them = us.opponent();
        if self.pos.count(us, Combo::Five) > 0 {
            return MATE - ply as i32 - 1;
        }
        let threatened = self.pos.count(them, Combo::Five) > 0;
        if !threatened && self.pos.count(us, Combo::Flex4) > 0 {
            return MATE - ply as i32 - 3;
        }
        if ply >= MAX_PLY - 4 || self.pos.is_full() {
            return evaluate(self.pos);
        }
        if depth <= 0 && !threatened {
            // On the principal variation, a double open three (or better) at the leaf is
            // often a win the fours alone do not show: a small VCT settles it.
            if pv_node && self.leaf_vct_nodes > 0 && self.pos.count_at_least(us, Combo::Flex3x2) > 0
            {
                let deadline = self.deadline;
                let cancel = self.cancel;
                let mut stop = || cancel.is_cancelled() || Instant::now() >= deadline;
                let mut ts = ThreatSearch::new(
                    self.pos,
                    Kind::Vct,
                    self.fail_cache,
                    self.leaf_vct_nodes,
                    &mut stop,
                );
                let proof = ts.solve(3);
                self.nodes += ts.nodes();
                if let Proof::Win(line) = proof {
                    return MATE - (ply + line.len()) as i32;
                }
            }
            return self.quiesce(ply, alpha, beta, self.qsearch_fours);
        }
        // Mate distance pruning: nothing here beats a shorter mate already found.
        alpha = alpha.max(-(MATE - ply as i32));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let hash = self.pos.hash();
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(hash) {
            tt_move = e.best().filter(|c| self.pos.is_empty(*c));
            let score = from_tt(e.score, ply);
            if !pv_node && i32::from(e.depth) >= depth {
                let cut = match e.bound() {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                    Bound::None => false,
                };
                if cut {
                    return score;
                }
            }
        }

        let mut moves = std::mem::take(&mut self.cell_buf[ply]);
        let forced = match generate_into(self.pos, &mut moves) {
            Situation::Win(_) => Some(MATE - ply as i32 - 1),
            Situation::Lost => Some(-(MATE - ply as i32 - 2)),
            Situation::BlockFour if moves.is_empty() => Some(-(MATE - ply as i32 - 4)),
            Situation::BlockFive | Situation::BlockFour => None,
            Situation::Free => None,
        };
        if let Some(score) = forced {
            self.cell_buf[ply] = moves;
            return score;
        }
        let forced = threatened || self.pos.count(them, Combo::Flex4) > 0;
        self.order(&mut moves, ply, tt_move, us);

        let alpha_orig = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let single = moves.len() == 1;
        for (i, &m) in moves.iter().enumerate() {
            let quiet = !forced
                && self.pos.combo(m, us) < Combo::Flex3
                && self.pos.combo(m, them) < Combo::Flex3;
            // A forced answer to a five costs no depth: the line is narrow anyway.
            let extension = i32::from(threatened || single);
            let new_depth = depth - 1 + extension;
            // Late move pruning: near the leaves, late quiet moves are rarely best.
            if quiet
                && !pv_node
                && depth <= 4
                && i >= LATE_MOVES[depth.max(0) as usize]
                && best > -MATE_BOUND
            {
                break;
            }
            self.pos.make(m);
            let score = if i == 0 {
                -self.negamax(new_depth, ply + 1, -beta, -alpha, pv_node)
            } else {
                let reduction = if quiet && depth >= 2 && i >= 2 {
                    let r = reduction(depth, i) - i32::from(pv_node);
                    r.clamp(0, new_depth - 1)
                } else {
                    0
                };
                let mut s =
                    -self.negamax(new_depth - reduction, ply + 1, -alpha - 1, -alpha, false);
                if s > alpha && reduction > 0 && !self.stopped {
                    s = -self.negamax(new_depth, ply + 1, -alpha - 1, -alpha, false);
                }
                if s > alpha && s < beta && pv_node && !self.stopped {
                    s = -self.negamax(new_depth, ply + 1, -beta, -alpha, true);
                }
                s
            };
            self.pos.unmake();
            if self.stopped {
                self.cell_buf[ply] = moves;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        if quiet {
                            let k = &mut self.killers[ply];
                            if k[0] != m {
                                k[1] = k[0];
                                k[0] = m;
                            }
                        }
                        self.history[m][us.index()] += depth * depth;
                        break;
                    }
                }
            }
        }
        self.cell_buf[ply] = moves;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(hash, to_tt(best, ply), bound, depth, best_move);
        best
    }

    /// Depth-0 search: stand pat on the evaluation, or play a four (the opponent's
    /// answer is forced) up to `fours` times in a row.
    fn quiesce(&mut self, ply: usize, mut alpha: i32, beta: i32, fours: u32) -> i32 {
        self.pv_len[ply] = ply;
        if self.tick() {
            return 0;
        }
        let us = self.pos.to_move();
        let them = us.opponent();
        if self.pos.count(us, Combo::Five) > 0 {
            return MATE - ply as i32 - 1;
        }
        if self.pos.count(them, Combo::Five) > 0 {
            let mut blocks = Vec::new();
            super::movegen::five_defences(self.pos, &mut blocks);
            if blocks.is_empty() {
                return -(MATE - ply as i32 - 2);
            }
            if ply >= MAX_PLY - 4 {
                return evaluate(self.pos);
            }
            let mut best = -INFINITY;
            for b in blocks {
                self.pos.make(b);
                let s = -self.quiesce(ply + 1, -beta, -alpha, fours);
                self.pos.unmake();
                if self.stopped {
                    return 0;
                }
                if s > best {
                    best = s;
                    if s > alpha {
                        alpha = s;
                        self.update_pv(ply, b);
                        if s >= beta {
                            break;
                        }
                    }
                }
            }
            return best;
        }
        if self.pos.count(us, Combo::Flex4) > 0 {
            return MATE - ply as i32 - 3;
        }
        let stand = evaluate(self.pos);
        if stand >= beta || fours == 0 || ply >= MAX_PLY - 4 {
            return stand;
        }
        let mut best = stand;
        alpha = alpha.max(stand);
        // Plain fours only at the first step; deeper, only fours that build something
        // else too (a bare four rarely leads anywhere and they are many).
        let min = if fours == self.qsearch_fours {
            Combo::Block4
        } else {
            Combo::Block4Plus
        };
        let mut moves = Vec::new();
        self.pos.cells_with(us, min, &mut moves);
        for m in moves {
            self.pos.make(m);
            let s = -self.quiesce(ply + 1, -beta, -alpha, fours - 1);
            self.pos.unmake();
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    self.update_pv(ply, m);
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn update_pv(&mut self, ply: usize, m: Cell) {
        self.pv[ply][ply] = m;
        let len = self.pv_len[ply + 1].max(ply + 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][ply + 1..len].copy_from_slice(&tail[0][ply + 1..len]);
        self.pv_len[ply] = len;
    }

    /// Sorts `moves` best first: the TT move, then threats, killers and history.
    fn order(&mut self, moves: &mut [Cell], ply: usize, tt_move: Option<Cell>, us: Stone) {
        let killers = self.killers[ply];
        let mut keyed = std::mem::take(&mut self.key_buf);
        keyed.clear();
        keyed.extend(moves.iter().map(|&c| {
            let key = if Some(c) == tt_move {
                i32::MAX
            } else {
                let mut s = move_score(self.pos, c, us);
                if c == killers[0] || c == killers[1] {
                    s += 50_000;
                }
                s + self.history[c][us.index()].min(20_000)
            };
            (key, c)
        }));
        keyed.sort_unstable_by_key(|k| std::cmp::Reverse(k.0));
        for (slot, (_, c)) in moves.iter_mut().zip(keyed.iter()) {
            *slot = *c;
        }
        self.key_buf = keyed;
    }
}

/// Quiet moves searched at non-PV nodes of remaining depth 0..=4 before the rest are
/// pruned.
const LATE_MOVES: [usize; 5] = [3, 5, 8, 12, 18];

/// The late move reduction for the `i`-th move at `depth`: grows with the logarithm of
/// both, the usual shape.
fn reduction(depth: i32, i: usize) -> i32 {
    let d = f64::from(depth.max(1));
    let n = i.max(1) as f64;
    (0.4 + d.ln() * n.ln() / 2.0) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::caro::Game;
    use crate::caro::position::tests::position;
    use crate::caro::rule::Rule;

    fn think(rows: &[&str], rule: Rule, level: Level, depth: u32) -> (Position, Thought<Cell>) {
        let mut pos = position(rows, rule);
        let mut engine = Engine::new(level);
        let t = engine.search(&mut pos, &Limits::none().depth(depth).nodes(200_000));
        (pos, t)
    }

    #[test]
    fn takes_the_win() {
        for level in Level::ALL {
            let (pos, t) = think(
                &[".......", ".XXXX..", ".OOO...", "....O..", "......."],
                Rule::Caro,
                level,
                3,
            );
            let p = pos.point(t.best.unwrap());
            assert!(
                p == Point::new(0, 1) || p == Point::new(5, 1),
                "{level}: {p}"
            );
            assert_eq!(t.score, MATE - 1);
        }
    }

    #[test]
    fn blocks_the_four_and_the_open_three() {
        for level in Level::ALL {
            let (pos, t) = think(
                &["........", "OXXXX...", "..OO....", "........", "........"],
                Rule::Caro,
                level,
                3,
            );
            // Under the caro rule the far end (6,1) stops the five too.
            let p = pos.point(t.best.unwrap());
            assert!(
                p == Point::new(5, 1) || p == Point::new(6, 1),
                "{level}: {p}"
            );
            let (pos, t) = think(
                &[
                    "..........",
                    "...XXX....",
                    "..........",
                    ".......O..",
                    "..........",
                    "O.........",
                ],
                Rule::Freestyle,
                level,
                3,
            );
            let p = pos.point(t.best.unwrap());
            assert!(
                p == Point::new(2, 1) || p == Point::new(6, 1),
                "{level}: {p}"
            );
        }
    }

    #[test]
    fn an_interrupted_search_still_moves() {
        let mut pos = position(
            &[
                "...............",
                "......X........",
                ".......O.......",
                "...............",
                "...............",
            ],
            Rule::Caro,
        );
        let mut engine = Engine::new(Level::Max);
        let cancel = Cancel::new();
        cancel.cancel();
        let t = engine.search(&mut pos, &Limits::none().with_cancel(cancel));
        let c = t.best.unwrap();
        assert!(pos.is_empty(c));
        assert_eq!(pos.ply(), 0);
    }

    /// Bots play legal games to the end on the smallest, the largest and a thin
    /// rectangular board, under every rule.
    #[test]
    fn plays_whole_games_on_any_board() {
        for (w, h) in [(5, 5), (64, 5), (7, 9)] {
            for rule in Rule::ALL {
                let mut game = Game::new(w, h, rule).unwrap();
                let mut engines = [Engine::new(Level::Medium), Engine::new(Level::Easy)];
                let mut turn = 0;
                while game.outcome().is_none() {
                    let t = engines[turn % 2].think(&game, &Limits::none().depth(2).nodes(5_000));
                    let p = t.best.expect("a move while the game is on");
                    game.play(p).expect("a legal move");
                    turn += 1;
                }
                assert!(turn <= (w * h) as usize);
            }
        }
        // The largest board: a few moves each, far from the centre too.
        let mut game = Game::new(64, 64, Rule::Caro).unwrap();
        game.play(Point::new(0, 63)).unwrap();
        let mut engine = Engine::new(Level::Hard);
        for _ in 0..6 {
            let t = engine.think(&game, &Limits::none().depth(3).nodes(20_000));
            game.play(t.best.unwrap()).unwrap();
        }
        assert_eq!(game.moves().len(), 7);
    }

    #[test]
    fn plays_the_centre_first() {
        let mut pos = Position::new(15, 15, Rule::Caro);
        let t = Engine::new(Level::Hard).search(&mut pos, &Limits::none().depth(2));
        assert_eq!(pos.point(t.best.unwrap()), Point::new(7, 7));
    }
}
