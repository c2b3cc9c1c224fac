//! The caro engine: per move, settle what needs no search, try the threat-space solvers,
//! then deepen a PVS search (see [`search`](super::search)) under the time manager.
//!
//! Per move ([`Engine::search`]):
//! 1. What needs no search: an immediate five, a single forced block, a lost position
//!    (the least bad move).
//! 2. Threat-space search at the root: a VCF, then (levels that allow it) a VCT, each on
//!    a node budget and a slice of the time. A proven win is played at once.
//! 3. Iterative deepening with aspiration windows around the last score. After each
//!    iteration the time manager ([`timeman`](super::timeman)) decides whether another
//!    one is worth its time; the hard limit stops the search wherever it is.
//!
//! Scores are from the side to move's view. A win found `n` plies from the root scores
//! `MATE - n`, a loss `-(MATE - n)`: the fastest win and the slowest loss are preferred.

use std::time::{Duration, Instant};

use super::eval::evaluate;
use super::history::History;
use super::level::Config;
use super::movegen::{Moves, generate, move_score, own_score};
use super::pattern::Combo;
use super::position::{Cell, Position};
use super::search::{INFINITY, Searcher};
use super::timeman::{Progress, SPEND_SHARE, TimeManager};
use super::tt::{MATE_BOUND, Tt};
use super::vcf::{FailCache, Kind, Proof, ThreatSearch};
use crate::bot::{Bot, Limits, Thought};
use banco_rules::Level;
use banco_rules::caro::board::{Point, Stone};
use banco_rules::caro::game::Game;

pub use super::search::MATE;

/// Time kept in hand for unwinding and answering: a fixed part, a share of the budget,
/// and the lag the engine has recently seen (the longest wait between two readings of the
/// clock: on a machine too busy to run the search, a stop comes that late), up to a third
/// of the budget.
fn safety_margin(budget: Duration, lag: Duration) -> Duration {
    (Duration::from_millis(8) + budget / 40 + lag).min(budget / 3)
}

/// A caro engine: owns its hash tables between moves of a game.
pub struct Engine {
    /// Time, depth and style.
    config: Config,
    /// Search results remembered across moves.
    tt: Tt,
    /// Move statistics remembered across moves.
    history: History,
    /// Refuted threat-space positions, shared by root VCF/VCT.
    fail_cache: FailCache,
    /// State of the small random generator that picks `easy`'s imperfect moves.
    rng: u64,
    /// How late the search has recently found itself reading the clock (see
    /// [`safety_margin`]); fades from move to move.
    lag: Duration,
}

/// A move at the root with what the search thought of it.
#[derive(Debug, Clone)]
struct RootMove {
    /// The move.
    cell: Cell,
    /// Score from the last search of it (`-INFINITY` when it only failed low).
    score: i32,
    /// Its score in the previous iteration.
    previous: i32,
    /// The line it leads to, itself first.
    pv: Vec<Cell>,
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
            history: History::default(),
            fail_cache: FailCache::new(16),
            rng: config.seed | 1,
            lag: Duration::ZERO,
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
        let mut deadline = budget
            .checked_sub(safety_margin(span, self.lag))
            .unwrap_or(budget)
            .max(start);
        if limits.spend_all {
            // Every move runs to its limit: keep a tenth of the budget for the machine.
            deadline = deadline.min(start + span.mul_f32(SPEND_SHARE));
        }
        let max_depth = limits
            .max_depth
            .map_or(self.config.max_depth, |d| d.min(self.config.max_depth))
            .max(1);
        let node_limit = limits.max_nodes.unwrap_or(u64::MAX);
        self.history.prepare(pos.grid_size());
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
                // Block one of them if we may; renju's Black may have no legal block at
                // all (the point is forbidden), and then any legal move will do.
                let c = match fives.iter().copied().find(|&c| pos.legal(c)) {
                    Some(c) => c,
                    None => any_legal(pos).unwrap_or(fives[0]),
                };
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
                let c = all
                    .iter()
                    .copied()
                    .filter(|&c| pos.legal(c))
                    .max_by_key(|c| move_score(pos, *c, us))
                    .or_else(|| any_legal(pos))
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
        // Under a node limit the solvers get the same shares of it as of the time.
        let plan = [
            (
                Kind::Vcf,
                self.config.root_vcf_nodes.min(node_limit / 10),
                30,
                budget_span / 10,
            ),
            (
                Kind::Vct,
                self.config.root_vct_nodes.min(node_limit / 5),
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
        let exact_scores = self.config.imprecision > 0;
        let time = TimeManager::new(start, deadline, limits.spend_all);
        let root_eval = evaluate(pos);
        let threats = pos.count_at_least(us, Combo::Flex3)
            + pos.count_at_least(us.opponent(), Combo::Flex3)
            > 0;
        let mut searcher = Searcher::new(
            pos,
            &mut self.tt,
            &mut self.history,
            node_limit,
            deadline,
            &limits.cancel,
            root_eval,
        );
        searcher.nodes = thought.nodes;
        let mut roots: Vec<RootMove> = {
            let mut scored: Vec<(i32, Cell)> = root_moves
                .iter()
                .map(|&c| (move_score(searcher.pos, c, us), c))
                .collect();
            scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            scored
                .into_iter()
                .map(|(_, c)| RootMove {
                    cell: c,
                    score: -INFINITY,
                    previous: -INFINITY,
                    pv: vec![c],
                })
                .collect()
        };
        let mut best = roots[0].clone();
        let mut best_score = -INFINITY;
        let mut changes = 0.0f32;
        let mut last_change_depth = 0;
        let mut previous_score = root_eval;
        let mut first_mate_depth = 0;
        for depth in 1..=max_depth {
            let iteration_start = Instant::now();
            changes *= 0.5;
            for r in &mut roots {
                r.previous = r.score;
            }
            let (score, iteration_changes) = if exact_scores {
                (root_exact(&mut searcher, &mut roots, depth as f32), 0)
            } else {
                aspiration(&mut searcher, &mut roots, depth, previous_score)
            };
            changes += iteration_changes as f32;
            if searcher.stopped {
                // A partial iteration still searched the previous best first: take a move
                // that beat it.
                if roots[0].score > best_score && roots[0].score > -INFINITY && depth > 1 {
                    best = roots[0].clone();
                    best_score = roots[0].score;
                }
                break;
            }
            thought.depth = depth;
            if roots[0].cell != best.cell {
                last_change_depth = depth;
            }
            best = roots[0].clone();
            best_score = score;
            if score.abs() >= MATE_BOUND {
                if first_mate_depth == 0 {
                    first_mate_depth = depth;
                }
                if depth >= first_mate_depth + 2 {
                    break;
                }
            }
            if depth >= 4 && only_one_holds(&roots) {
                break;
            }
            let progress = Progress {
                stable_iterations: depth - last_change_depth,
                best_move_changes: changes,
                score,
                previous_score,
                threats,
                last_iteration: iteration_start.elapsed(),
            };
            previous_score = score;
            if limits.max_nodes.is_none() && time.should_stop(&progress, Instant::now()) {
                break;
            }
        }
        thought.nodes = searcher.nodes;
        let late = Instant::now().saturating_duration_since(deadline);
        self.lag = (self.lag * 3 / 4).max(searcher.worst_gap).max(late);
        if thought.depth == 0 && best_score == -INFINITY {
            // Not even depth 1 finished: trust the static order.
            best_score = root_eval;
        }
        let mut pv = best.pv.clone();
        let mut chosen = best.cell;
        if exact_scores && !forced && best_score.abs() < MATE_BOUND && thought.depth > 0 {
            chosen = self.imprecise_choice(&roots, best_score).unwrap_or(chosen);
            if chosen != best.cell {
                pv = vec![chosen];
            }
        }
        Thought {
            best: Some(chosen),
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

    /// The move to play: [`Engine::search`], or at a level that lapses, now and then a
    /// lapse (its own line, the opponent's not looked at; never with a five at stake).
    /// Only the move played lapses: scores asked of [`Engine::search`] (the Swap2
    /// decisions, the review) never do.
    pub fn play_search(&mut self, pos: &mut Position, limits: &Limits) -> Thought<Cell> {
        let start = Instant::now();
        if self.config.lapse > 0
            && !pos.is_full()
            && matches!(generate(pos), Moves::BlockFour(m) | Moves::Free(m) if !m.is_empty())
            && self.next_random() % 100 < u64::from(self.config.lapse)
            && let Some(c) = self.lapse_move(pos, pos.to_move())
        {
            return Thought {
                best: Some(c),
                score: evaluate(pos),
                depth: 1,
                nodes: 0,
                pv: vec![c],
                elapsed: start.elapsed(),
            };
        }
        self.search(pos, limits)
    }

    /// A lapse: the legal move best for `us`'s own lines alone, at random among equals.
    fn lapse_move(&mut self, pos: &Position, us: Stone) -> Option<Cell> {
        let mut all = Vec::new();
        pos.candidates(&mut all);
        all.retain(|&c| pos.legal(c));
        let best = all.iter().map(|&c| own_score(pos, c, us)).max()?;
        all.retain(|&c| own_score(pos, c, us) == best);
        let i = (self.next_random() % all.len() as u64) as usize;
        all.get(i).copied()
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

/// Whether every root move but the first was shown to lose: nothing to decide.
fn only_one_holds(roots: &[RootMove]) -> bool {
    roots.len() > 1
        && roots[0].score > -MATE_BOUND
        && roots[1..]
            .iter()
            .all(|r| r.score > -INFINITY && r.score <= -MATE_BOUND)
}

/// One iteration at `depth` inside aspiration windows around `previous`: a window that
/// fails is widened until the score falls inside. Returns the score and how often the
/// best move changed.
fn aspiration(s: &mut Searcher, roots: &mut [RootMove], depth: u32, previous: i32) -> (i32, u32) {
    let (mut alpha, mut beta, mut delta) = if depth >= 5 && previous.abs() < MATE_BOUND {
        let delta = 24;
        (previous - delta, previous + delta, delta)
    } else {
        (-INFINITY, INFINITY, INFINITY)
    };
    let mut changes = 0;
    let mut fail_highs = 0;
    loop {
        s.root_alpha = alpha;
        s.root_delta = (beta - alpha).max(1);
        let d = (depth as f32 - (fail_highs / 3) as f32).max(1.0);
        let (score, c) = root(s, roots, d, alpha, beta);
        changes += c;
        if s.stopped {
            return (score, changes);
        }
        if score <= alpha && alpha > -INFINITY {
            beta = (alpha + beta) / 2;
            alpha = (score - delta).max(-INFINITY);
            fail_highs = 0;
        } else if score >= beta && beta < INFINITY {
            beta = (score + delta).min(INFINITY);
            fail_highs += 1;
        } else {
            return (score, changes);
        }
        delta = delta * (3 + score.abs().min(4096) / 1024) / 4 + 6;
        if delta > 2_000 {
            alpha = -INFINITY;
            beta = INFINITY;
        }
    }
}

/// Searches the root moves at `depth` in the window (`alpha`, `beta`), best-known first;
/// leaves `roots` sorted best first (moves that only failed low keep their order).
/// Returns the best score and how many times a move other than the first took the lead.
/// A point the side to move may play, nearest the stones first: for renju's Black when
/// every candidate near the stones is forbidden. `None` only on a full board.
fn any_legal(pos: &Position) -> Option<Cell> {
    let mut near = Vec::new();
    pos.candidates(&mut near);
    near.into_iter().find(|&c| pos.legal(c)).or_else(|| {
        (0..pos.height())
            .flat_map(|y| (0..pos.width()).map(move |x| (x, y)))
            .map(|(x, y)| pos.cell(Point::new(x as u8, y as u8)))
            .find(|&c| pos.is_empty(c) && pos.legal(c))
    })
}

fn root(
    s: &mut Searcher,
    roots: &mut [RootMove],
    depth: f32,
    mut alpha: i32,
    beta: i32,
) -> (i32, u32) {
    let us = s.pos.to_move();
    let them = us.opponent();
    let oppo5 = s.pos.count(them, Combo::Five) > 0;
    let mut best = -INFINITY;
    let mut changes = 0;
    s.pv_len[0] = 0;
    for i in 0..roots.len() {
        let m = roots[i].cell;
        let combos = [s.pos.combo(m, Stone::X), s.pos.combo(m, Stone::O)];
        let extension = if oppo5 {
            1.3
        } else if i == 0 {
            0.25
        } else {
            0.0
        };
        let new_depth = depth - 1.0 + extension;
        {
            let f = s.frame_mut(0);
            f.current = m;
            f.combos = combos;
            f.tt_pv = true;
            f.extra_extension = 0.0;
        }
        s.pos.make(m);
        let mut value = -INFINITY;
        if i > 0 {
            let r = if depth >= 2.0 && i > 1 {
                (s.base_reduction(depth, i + 1)
                    - (beta - alpha) as f32 / s.root_delta.max(1) as f32
                    - 0.97)
                    .max(0.0)
            } else {
                0.0
            };
            let d = (new_depth - r).max(1.0);
            value = -s.node(false, d, 1, -(alpha + 1), -alpha, true);
            if value > alpha && d < new_depth && !s.stopped {
                value = -s.node(false, new_depth, 1, -(alpha + 1), -alpha, true);
            }
        }
        if !s.stopped && (i == 0 || value > alpha) {
            value = -s.node(true, new_depth, 1, -beta, -alpha, false);
        }
        s.pos.unmake();
        if s.stopped {
            // Keep what finished: the moves searched so far, best first.
            roots[..i].sort_by_key(|r| std::cmp::Reverse(r.score));
            return (best, changes);
        }
        if i == 0 || value > alpha {
            roots[i].score = value;
            let mut line = vec![m];
            line.extend_from_slice(&s.pv[1][1..s.pv_len[1].max(1)]);
            roots[i].pv = line;
            if i > 0 {
                changes += 1;
            }
        } else {
            roots[i].score = -INFINITY;
        }
        if value > best {
            best = value;
            if value > alpha {
                if value >= beta {
                    break;
                }
                alpha = value;
                s.root_alpha = alpha;
            }
        }
    }
    roots.sort_by_key(|r| std::cmp::Reverse(r.score));
    (best, changes)
}

/// One iteration that gives every root move an exact score (for levels that choose
/// among near-best moves).
fn root_exact(s: &mut Searcher, roots: &mut [RootMove], depth: f32) -> i32 {
    let mut best = -INFINITY;
    s.root_delta = 2 * INFINITY;
    s.root_alpha = -INFINITY;
    for i in 0..roots.len() {
        let m = roots[i].cell;
        let combos = [s.pos.combo(m, Stone::X), s.pos.combo(m, Stone::O)];
        {
            let f = s.frame_mut(0);
            f.current = m;
            f.combos = combos;
            f.tt_pv = true;
        }
        s.pos.make(m);
        let value = -s.node(true, depth - 1.0, 1, -INFINITY, INFINITY, false);
        s.pos.unmake();
        if s.stopped {
            roots[..i].sort_by_key(|r| std::cmp::Reverse(r.score));
            return best;
        }
        roots[i].score = value;
        let mut line = vec![m];
        line.extend_from_slice(&s.pv[1][1..s.pv_len[1].max(1)]);
        roots[i].pv = line;
        best = best.max(value);
    }
    roots.sort_by_key(|r| std::cmp::Reverse(r.score));
    best
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
        let t = self.play_search(&mut pos, limits);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::Cancel;
    use crate::caro::position::tests::position;
    use banco_rules::caro::Game;
    use banco_rules::caro::rules::Rule;

    fn think(rows: &[&str], rule: Rule, level: Level, depth: u32) -> (Position, Thought<Cell>) {
        think_with(rows, rule, Config::for_level(level), depth)
    }

    fn think_with(
        rows: &[&str],
        rule: Rule,
        config: Config,
        depth: u32,
    ) -> (Position, Thought<Cell>) {
        let mut pos = position(rows, rule);
        let mut engine = Engine::with_config(config);
        let t = engine.play_search(&mut pos, &Limits::none().depth(depth).nodes(200_000));
        (pos, t)
    }

    /// A 15x15 board with X on `xs` and O on `os` (as (x, y) pairs).
    fn stones(xs: &[(u8, u8)], os: &[(u8, u8)]) -> Vec<String> {
        let mut rows = vec![vec!['.'; 15]; 15];
        for &(x, y) in xs {
            rows[y as usize][x as usize] = 'X';
        }
        for &(x, y) in os {
            rows[y as usize][x as usize] = 'O';
        }
        rows.into_iter().map(|r| r.into_iter().collect()).collect()
    }

    #[test]
    fn renju_black_never_plays_its_winning_double_four() {
        // X: c8 d8 f8 across and e7 e6 e5 down: (4,7) makes two fours, a win anywhere
        // but in renju, where it is forbidden to Black. O's six stones are scattered.
        let rows = stones(
            &[(2, 7), (3, 7), (5, 7), (4, 8), (4, 9), (4, 10)],
            &[(0, 0), (14, 0), (0, 14), (14, 14), (7, 0), (0, 7)],
        );
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let (pos, t) = think(&rows, Rule::Freestyle, Level::Hard, 4);
        assert_eq!(pos.point(t.best.unwrap()), Point::new(4, 7));
        let (pos, t) = think(&rows, Rule::Renju, Level::Hard, 4);
        let c = pos.cell(Point::new(4, 7));
        assert!(pos.forbidden(c));
        assert_ne!(t.best, Some(c), "Black played its forbidden double four");
        assert!(!pos.forbidden(t.best.unwrap()));
    }

    #[test]
    fn renju_white_wins_with_a_four_whose_block_is_forbidden() {
        // X: c8 d8 e8 . g8 h8 (f8 would be six: an overline) and f3 below. O: f4 f5 f6.
        // O's f7 makes a four that only f8 stops, which Black may not play: a win.
        let rows = stones(
            &[(2, 7), (3, 7), (4, 7), (6, 7), (7, 7), (5, 12)],
            &[(5, 11), (5, 10), (5, 9)],
        );
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        // Freestyle: f8 is Black's five, and White must block it.
        let (pos, t) = think(&rows, Rule::Freestyle, Level::Hard, 4);
        assert_eq!(pos.point(t.best.unwrap()), Point::new(5, 7));
        let (pos, t) = think(&rows, Rule::Renju, Level::Hard, 4);
        assert_eq!(pos.point(t.best.unwrap()), Point::new(5, 8));
        assert!(t.score >= MATE - 10, "score {}", t.score);
    }

    #[test]
    fn renju_black_with_no_legal_block_still_plays_a_legal_move() {
        // From a self-play game: White's four can only be stopped on g9, a double three
        // for Black. Black has lost, and must still play a point it may play.
        let opening = [Point::new(7, 7), Point::new(8, 5), Point::new(9, 8)];
        let mut game = Game::with_opening(15, 15, Rule::Renju, &opening).unwrap();
        for m in "6,7 7,6 6,5 7,5 7,8 8,4 8,9 9,10 4,5 5,6 6,8 7,4 7,3 6,4 6,9".split(' ') {
            let (x, y) = m.split_once(',').unwrap();
            game.play(Point::new(x.parse().unwrap(), y.parse().unwrap()))
                .unwrap();
        }
        assert!(game.foul(Point::new(6, 6)).is_some());
        let mut engine = Engine::new(Level::Max);
        let t = engine.think(&game, &Limits::none().nodes(30_000));
        let p = t.best.unwrap();
        assert_eq!(game.check(p), Ok(()), "{p}");
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
            // Easy's lapses aside (the test below), every level stops an open three.
            let (pos, t) = think_with(
                &OPEN_THREE,
                Rule::Freestyle,
                Config {
                    lapse: 0,
                    ..Config::for_level(level)
                },
                3,
            );
            let p = pos.point(t.best.unwrap());
            assert!(
                p == Point::new(2, 1) || p == Point::new(6, 1),
                "{level}: {p}"
            );
        }
    }

    /// X's open three on the second row; O, far away, is to move.
    const OPEN_THREE: [&str; 6] = [
        "..........",
        "...XXX....",
        "..........",
        ".......O..",
        "..........",
        "O.........",
    ];

    #[test]
    fn easy_lapses_past_an_open_three_now_and_then_but_never_past_a_four() {
        let stops = |p: Point| [2, 6, 1, 7].contains(&p.x) && p.y == 1;
        // Lapsing every move: its own line, not the open three's ends.
        let always = |seed| Config {
            lapse: 100,
            seed,
            ..Config::for_level(Level::Easy)
        };
        for seed in 1..20 {
            let (pos, t) = think_with(&OPEN_THREE, Rule::Freestyle, always(seed), 3);
            let p = pos.point(t.best.unwrap());
            assert!(!stops(p), "seed {seed}: a lapse stopped the three at {p}");
            // A four is stopped all the same.
            let (pos, t) = think_with(
                &["........", "OXXXX...", "..OO....", "........", "........"],
                Rule::Caro,
                always(seed),
                3,
            );
            let p = pos.point(t.best.unwrap());
            assert!(p == Point::new(5, 1) || p == Point::new(6, 1), "{p}");
        }
        // Easy as it ships: over 40 moves it both stops the three and lets it be.
        let stopped = (1..=40)
            .filter(|&seed| {
                let config = Config {
                    seed,
                    ..Config::for_level(Level::Easy)
                };
                let (pos, t) = think_with(&OPEN_THREE, Rule::Freestyle, config, 3);
                stops(pos.point(t.best.unwrap()))
            })
            .count();
        assert!((5..35).contains(&stopped), "stopped {stopped} of 40");
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
