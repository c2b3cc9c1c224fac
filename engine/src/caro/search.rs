//! The tree search below the root: PVS alpha-beta with fractional depths, and a VCF
//! quiescence at the leaves.
//!
//! A main node ([`Searcher::node`]), step by step:
//! 1. Leaves: at depth 0 the search turns into the VCF quiescence.
//! 2. What needs no search: a five to complete, an open four against no five, a four
//!    that is also an open three or a double open three the opponent cannot interrupt
//!    with a four ([`quick_win`]); mate distance pruning.
//! 3. Transposition table: a deep enough entry ends a non-PV node; its move goes first.
//! 4. Static evaluation (kept in the table), then, away from the PV and when not
//!    answering a threat: razoring into the quiescence when far below alpha, futility
//!    (return the evaluation when far above beta).
//! 5. Moves: against a five only its blocks; against an open three or a double-four
//!    threat the exact defences and our fours; against a four-plus-three threat its
//!    defences; else every point near a stone. Ordered by the TT move, then threat shape,
//!    history and counter move.
//! 6. Per move: move-count pruning and pruning of moves that make no shape at all near
//!    the leaves; extensions for answering a five, for a singular TT move (the only one
//!    that holds up when the others are searched against a lowered bound), for the TT
//!    move; late move reductions shaped by move count, history, threats and distance.
//! 7. History, killers and the counter move learn from the best move; the result goes to
//!    the table.
//!
//! The VCF quiescence ([`Searcher::vcf_attack`], [`Searcher::vcf_defend`]) stands pat on
//! the evaluation and otherwise plays only fours near the attacker's previous move, each
//! answered by its forced block, so a leaf that hides a win by continuous fours scores
//! as the win.
//!
//! Scores are from the side to move's view. A win `n` plies from the root scores
//! `MATE - n`, a loss `-(MATE - n)`.

use std::time::Instant;

use super::eval::evaluate;
use super::history::{self, History};
use super::movegen::{b4f3_defences, drop_forbidden, five_defences, four_defences, move_score};
use super::pattern::Combo;
use super::position::{Cell, Position};
use super::tt::{Bound, MATE_BOUND, NO_EVAL, Record, Tt, from_tt, to_tt};
use crate::bot::Cancel;
use banco_rules::caro::board::Stone;

/// The score of a five on the board, at ply 0.
pub const MATE: i32 = 100_000;
/// Scores beyond any mate.
pub const INFINITY: i32 = MATE + 1;
/// The deepest ply the search reaches (forced lines included).
pub const MAX_PLY: usize = 120;
/// No cell (an empty slot in the stack).
pub const NO_CELL: Cell = usize::MAX;
/// Stack frames before ply 0, so a node can look four plies back without checks.
const BACK: usize = 4;
/// Depth the VCF quiescence stores its results at, and the depth down to which it also
/// plays plain fours (deeper, only fours that build something else too).
const DEPTH_QVCF: f32 = -2.0;
const DEPTH_QVCF_FULL: f32 = -1.0;

/// The winning score `ply` plies from the root.
#[inline]
pub fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// The losing score `ply` plies from the root.
#[inline]
pub fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// What one ply of the current line remembers.
#[derive(Debug, Clone, Copy)]
pub struct Frame {
    /// The static evaluation at this ply (side to move's view).
    pub static_eval: i32,
    /// The move being searched from this ply.
    pub current: Cell,
    /// What that move made for X and for O (their combos on its cell before it).
    pub combos: [Combo; 2],
    /// Two quiet moves that cut off here recently.
    pub killers: [Cell; 2],
    /// A move to leave out (the singular-extension test search).
    pub skip: Cell,
    /// Whether this node is or was on a principal variation.
    pub tt_pv: bool,
    /// The history score of the move being searched.
    pub stat_score: i32,
    /// Extension granted on the line so far beyond one ply per move.
    pub extra_extension: f32,
}

impl Frame {
    const EMPTY: Frame = Frame {
        static_eval: 0,
        current: NO_CELL,
        combos: [Combo::None; 2],
        killers: [NO_CELL; 2],
        skip: NO_CELL,
        tt_pv: false,
        stat_score: 0,
        extra_extension: 0.0,
    };
}

/// Search parameters that depend on depth (shapes after Rapfi's, in our evaluation's
/// units; see the module doc for where each applies).
mod params {
    /// Razoring: below alpha by more than this, a non-PV node only tries its fours.
    pub fn razor_margin(d: f32) -> i32 {
        if d < 2.6 {
            (0.17 * d * d + 14.0 * d) as i32 + 19
        } else {
            i32::MAX / 4
        }
    }

    /// Futility: above beta by more than this, a non-PV node returns its evaluation.
    pub fn futility_margin(d: f32, no_tt_cut_node: bool, improving: bool) -> i32 {
        let scale = 63 - 12 * i32::from(no_tt_cut_node);
        ((scale as f32 * (d - f32::from(u8::from(improving)))) as i32).max(0)
    }

    /// Moves a non-PV node searches at depth `d` before pruning the rest.
    pub fn futility_move_count(d: f32, improving: bool) -> usize {
        /// `3 + d^1.32` for the depths a search reaches, computed once: a power per move
        /// was 2% of the search's time.
        static BASE: std::sync::LazyLock<[usize; 64]> =
            std::sync::LazyLock::new(|| std::array::from_fn(base));
        fn base(d: usize) -> usize {
            3 + (d as f32).powf(1.32) as usize
        }
        let d = d.max(0.0) as usize;
        BASE.get(d).copied().unwrap_or_else(|| base(d)) / (2 - usize::from(improving))
    }

    /// Singular extension: how far below the TT score the other moves are tested.
    pub fn singular_margin(d: f32, former_pv: bool) -> i32 {
        ((0.91 + f32::from(u8::from(former_pv))) * d) as i32
    }

    /// Singular extension: the depth of the test search.
    pub fn singular_depth(d: f32, former_pv: bool) -> f32 {
        d - (d * 0.54 - f32::from(u8::from(former_pv)))
    }

    /// Margin below the singular bound that earns a double extension.
    pub fn double_singular_margin(d: f32) -> i32 {
        29 - ((d * 0.6) as i32).min(9)
    }

    /// Delta pruning in the quiescence: this far below alpha, give up.
    pub fn qvcf_delta_margin(d: f32) -> i32 {
        (2086 + (60.0 * d) as i32).max(768)
    }

    /// Fail-high margin: a cut node this far above beta will probably cut.
    pub fn fail_high_margin(d: f32, oppo4: bool) -> i32 {
        -9 + (15.0 * d) as i32 + 87 * i32::from(oppo4)
    }

    /// Extra depth for a late move whose reduced search failed high.
    pub fn lmr_extension(new_depth: f32, searched: f32, value: i32, alpha: i32, best: i32) -> f32 {
        let deeper = value > alpha + 34 + (11.0 * (new_depth - searched)) as i32;
        let even_deeper = value > alpha + 349 + (26.0 * (new_depth - searched)) as i32;
        let shallower = value < best + new_depth as i32;
        f32::from(u8::from(deeper)) + f32::from(u8::from(even_deeper))
            - f32::from(u8::from(shallower))
    }

    /// Reduction from move complexity: trivial moves far from the action most.
    pub fn complexity_reduction(trivial: bool, important: bool, distract: bool) -> f32 {
        if trivial {
            if distract { 0.0968 } else { 0.0385 }
        } else if !important {
            0.0222
        } else {
            0.0055
        }
    }

    pub const SE_DEPTH: f32 = 6.65;
    pub const SE_TTE_DEPTH: f32 = 2.03;
    pub const SE_EXTRA_MAX: f32 = 10.8;
    pub const SE_REDUCTION_FH: f32 = 1.5;
    pub const OPPO5_EXT: f32 = 1.3;
    pub const TTM_EXT_PV: f32 = 0.25;
    pub const TTM_EXT_NONPV: f32 = 0.08;
    pub const NEAR_B4_EXT_4: f32 = 0.24;
    pub const NEAR_B4_EXT_6: f32 = 0.05;
    pub const CONTINUOUS_ATTACK_EXT: f32 = 0.53;
    pub const TRIVIAL_PRUNE_DEPTH: f32 = 4.3;
    pub const IIR_PV: f32 = 0.32;
    pub const IIR_TT: f32 = 0.28;
    pub const IIR_TT_MAX: f32 = 3.6;
    pub const LMR_EXTRA_MAX: f32 = 5.0;
    pub const TTPV_LESS_REDUCTION: f32 = 0.97;
    pub const NO_ALPHA_IMPROVING_REDUCTION: f32 = 0.98;
    pub const NO_KILLER_CUT_REDUCTION: f32 = 1.8;
    pub const OPPO_USELESS_DEFEND_REDUCTION: f32 = 1.93;
    pub const SELF_USELESS_DEFEND_REDUCTION: f32 = 0.96;
    pub const ALPHA_IMPROVEMENT_REDUCTION: f32 = 1.0;
}

/// Checks what the pattern counts alone decide (step 2 of a node): `Some(score)` when the
/// side to move wins or loses by force.
#[inline]
pub fn quick_win(pos: &Position, ply: usize) -> Option<i32> {
    let us = pos.to_move();
    let them = us.opponent();
    if pos.count(us, Combo::Five) > 0 {
        return Some(mate_in(ply + 1));
    }
    if pos.count(them, Combo::Five) > 0 {
        // Blocks may or may not exist: the move generator knows exactly.
        return None;
    }
    if pos.has_forbidden() && us == Stone::X {
        // Renju: Black's open four, four-three or three-three may stand on a forbidden
        // point; only the search, which never plays one, can tell.
        return None;
    }
    if pos.count(us, Combo::Flex4) > 0 {
        return Some(mate_in(ply + 3));
    }
    // A four with an open three, or two open threes, win when the opponent has no four to
    // answer with: the block of the four (on the four's line) cannot touch the three.
    if pos.count_at_least(them, Combo::Block4) == 0
        && (pos.count(us, Combo::Block4Flex3) > 0 || pos.count(us, Combo::Flex3x2) > 0)
    {
        return Some(mate_in(ply + 5));
    }
    None
}

/// Where a search stands, shared by every node.
pub struct Searcher<'a> {
    /// The board, made and unmade as the search walks.
    pub pos: &'a mut Position,
    /// Results remembered across nodes and moves.
    pub tt: &'a mut Tt,
    /// Move statistics across nodes and moves.
    pub history: &'a mut History,
    /// The current line, `BACK` frames before ply 0.
    pub stack: Vec<Frame>,
    /// Triangular principal-variation table: `pv[ply][ply..pv_len[ply]]`.
    pub pv: Vec<[Cell; MAX_PLY + 1]>,
    /// End of each ply's line in `pv`.
    pub pv_len: [usize; MAX_PLY + 1],
    /// Nodes visited.
    pub nodes: u64,
    /// Stop after this many nodes.
    pub node_limit: u64,
    /// Stop at this instant.
    pub deadline: Instant,
    /// The caller's stop flag.
    pub cancel: &'a Cancel,
    /// Set when time, nodes or the caller say stop; every result after it is void.
    pub stopped: bool,
    /// When the clock was last read.
    last_check: Instant,
    /// The longest time between two clock readings: on a starved machine, how late a
    /// stop can come.
    pub worst_gap: std::time::Duration,
    /// The root window's width at the current iteration (for PV reductions).
    pub root_delta: i32,
    /// The root's alpha as the iteration goes.
    pub root_alpha: i32,
    /// Late move reduction base, `ln(i)`.
    reductions: Vec<f32>,
    /// Moves generated per ply, reused.
    move_buf: Vec<Vec<Ranked>>,
    /// Scratch for the generator.
    cell_buf: Vec<Cell>,
    /// Searched quiet and attacking moves per ply (for history maluses).
    tried: Vec<(Vec<Cell>, Vec<Cell>)>,
}

impl<'a> Searcher<'a> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        pos: &'a mut Position,
        tt: &'a mut Tt,
        history: &'a mut History,
        node_limit: u64,
        deadline: Instant,
        cancel: &'a Cancel,
        root_eval: i32,
    ) -> Searcher<'a> {
        let mut stack = vec![Frame::EMPTY; MAX_PLY + BACK + 4];
        for f in &mut stack {
            f.static_eval = root_eval;
        }
        Searcher {
            pos,
            tt,
            history,
            stack,
            pv: vec![[NO_CELL; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            nodes: 0,
            node_limit,
            deadline,
            cancel,
            stopped: false,
            last_check: Instant::now(),
            worst_gap: std::time::Duration::ZERO,
            root_delta: 2 * INFINITY,
            root_alpha: -INFINITY,
            reductions: (0..256)
                .map(|i| if i == 0 { 0.0 } else { (i as f32).ln() })
                .collect(),
            move_buf: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            cell_buf: Vec::with_capacity(64),
            tried: (0..=MAX_PLY)
                .map(|_| (Vec::with_capacity(32), Vec::with_capacity(16)))
                .collect(),
        }
    }

    /// The frame of `ply` (which may be up to `BACK` plies before the root).
    #[inline]
    pub fn frame(&self, ply: isize) -> &Frame {
        &self.stack[(ply + BACK as isize) as usize]
    }

    #[inline]
    pub fn frame_mut(&mut self, ply: usize) -> &mut Frame {
        &mut self.stack[ply + BACK]
    }

    /// Counts a node; true once the search must stop.
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 511 == 0 {
            let now = Instant::now();
            self.worst_gap = self.worst_gap.max(now - self.last_check);
            self.last_check = now;
            if self.cancel.is_cancelled() || now >= self.deadline || self.nodes >= self.node_limit {
                self.stopped = true;
            }
        }
        self.stopped
    }

    pub fn update_pv(&mut self, ply: usize, m: Cell) {
        self.pv[ply][ply] = m;
        let len = self.pv_len[ply + 1].max(ply + 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][ply + 1..len].copy_from_slice(&tail[0][ply + 1..len]);
        self.pv_len[ply] = len;
    }

    /// The late move reduction base for the `n`-th move at depth `d`.
    #[inline]
    pub fn base_reduction(&self, d: f32, n: usize) -> f32 {
        let d = (d.max(1.0) as usize).min(self.reductions.len() - 1);
        let n = n.min(self.reductions.len() - 1);
        self.reductions[d] * self.reductions[n]
    }

    /// The static evaluation of the current position, from the table if it has one.
    fn static_eval(&self, entry_eval: Option<i16>) -> i32 {
        match entry_eval {
            Some(e) if e != NO_EVAL => i32::from(e),
            _ => evaluate(self.pos),
        }
    }

    /// Generates the moves of the current node into `self.move_buf[ply]`, scored for
    /// ordering (the TT move, if legal here, first). Returns `false` if the side to move
    /// has no move that answers the opponent's threat (it is lost).
    fn generate(&mut self, ply: usize, tt_move: Cell) -> bool {
        let us = self.pos.to_move();
        let them = us.opponent();
        let mut cells = std::mem::take(&mut self.cell_buf);
        cells.clear();
        if self.pos.count(them, Combo::Five) > 0 {
            five_defences(self.pos, &mut cells);
            if cells.is_empty() {
                self.cell_buf = cells;
                return false;
            }
        } else if self.pos.count(them, Combo::Flex4) > 0 {
            four_defences(self.pos, &mut cells);
            if cells.is_empty() {
                self.cell_buf = cells;
                return false;
            }
        } else if self.pos.count(them, Combo::Block4Flex3) == 0
            || !b4f3_defences(self.pos, &mut cells)
        {
            cells.clear();
            self.pos.candidates(&mut cells);
        }
        if self.pos.has_forbidden() {
            // Renju: Black never plays a forbidden point; with none left it has lost.
            drop_forbidden(self.pos, &mut cells, 0);
            if cells.is_empty() {
                self.cell_buf = cells;
                return false;
            }
        }
        let last = self.frame(ply as isize - 1).current;
        let counter = if last == NO_CELL {
            None
        } else {
            self.history.counter(us, last)
        };
        let killers = self.frame(ply as isize).killers;
        let mut moves = std::mem::take(&mut self.move_buf[ply]);
        moves.clear();
        for &c in &cells {
            let key = if c == tt_move {
                i32::MAX
            } else {
                let mut s = move_score(self.pos, c, us);
                if self.pos.combo(c, us) >= Combo::Flex3 {
                    s += self.history.score(us, c, history::Kind::Attack) / 64;
                } else {
                    s += self.history.score(us, c, history::Kind::Quiet) / 128;
                }
                if Some(c) == counter {
                    s += 40;
                }
                if c == killers[0] || c == killers[1] {
                    s += 30;
                }
                s
            };
            moves.push(ranked(key, c));
        }
        // Not sorted here: `pick` orders them as the search takes them.
        self.move_buf[ply] = moves;
        self.cell_buf = cells;
        true
    }

    /// A main-search node (see the module doc). `pv`: on a principal variation; `cut`:
    /// expected to fail high.
    #[allow(clippy::too_many_lines)]
    pub fn node(
        &mut self,
        pv: bool,
        mut depth: f32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        cut: bool,
    ) -> i32 {
        use params::*;
        let us = self.pos.to_move();
        let them = us.opponent();
        let oppo5 = self.pos.count(them, Combo::Five) > 0;
        let oppo4 = oppo5 || self.pos.count(them, Combo::Flex4) > 0;

        // 1. Leaves.
        if depth <= 0.0 {
            return if oppo5 {
                self.vcf_defend(pv, ply, alpha, beta, 0.0)
            } else {
                self.vcf_attack(pv, ply, alpha, beta, 0.0)
            };
        }
        self.pv_len[ply] = ply;
        if self.tick() {
            return 0;
        }

        // 2. What needs no search.
        if self.pos.is_full() {
            return 0;
        }
        if ply >= MAX_PLY - 8 {
            return evaluate(self.pos);
        }
        if let Some(v) = quick_win(self.pos, ply) {
            return v;
        }
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        self.frame_mut(ply + 2).stat_score = 0;
        self.frame_mut(ply + 2).killers = [NO_CELL; 2];

        // 3. Transposition table.
        let skip = self.frame(ply as isize).skip;
        let hash = self.pos.hash() ^ if skip == NO_CELL { 0 } else { skip_key(skip) };
        let entry = self.tt.probe(hash);
        let (tt_value, tt_bound, tt_depth, tt_eval) = match entry {
            Some(e) => (
                from_tt(e.score, ply),
                e.bound(),
                f32::from(e.depth),
                Some(e.eval),
            ),
            None => (0, Bound::None, -100.0, None),
        };
        let tt_move = entry
            .and_then(|e| e.best())
            .filter(|c| self.pos.is_empty(*c))
            .unwrap_or(NO_CELL);
        if skip == NO_CELL {
            let was_pv = entry.is_some_and(|e| e.is_pv());
            self.frame_mut(ply).tt_pv = pv || was_pv;
        }
        self.frame_mut(ply + 1).tt_pv = false;
        let tt_pv = self.frame(ply as isize).tt_pv;
        if !pv
            && tt_depth >= depth
            && tt_bound != Bound::None
            && match tt_bound {
                Bound::Exact => true,
                Bound::Lower => tt_value >= beta,
                Bound::Upper => tt_value <= alpha,
                Bound::None => false,
            }
        {
            if tt_move != NO_CELL && tt_value >= beta {
                let combo = self.pos.combo(tt_move, us);
                if !oppo4 && combo < Combo::Flex3 {
                    self.history
                        .update(us, tt_move, history::Kind::Quiet, history::bonus(depth));
                }
            }
            return tt_value;
        }

        // 4. Static evaluation and early pruning.
        let mut eval = -INFINITY;
        let mut improvement = 0;
        if oppo4 {
            // Answering a threat: the position is what the attack made it.
            let prev = self.frame(ply as isize - 1).static_eval;
            self.frame_mut(ply).static_eval = -prev;
        } else {
            let static_eval = self.static_eval(tt_eval);
            self.frame_mut(ply).static_eval = static_eval;
            eval = static_eval;
            if entry.is_none() {
                self.tt.store(
                    hash,
                    Record {
                        score: 0,
                        bound: Bound::None,
                        depth: -3,
                        best: None,
                        eval: Some(static_eval),
                        pv: tt_pv,
                    },
                );
            } else if tt_bound != Bound::None
                && match tt_bound {
                    Bound::Lower => tt_value > eval,
                    Bound::Upper => tt_value < eval,
                    _ => true,
                }
            {
                eval = tt_value;
            }
            improvement = static_eval - self.frame(ply as isize - 2).static_eval;
        }
        if !oppo5 && !oppo4 {
            if !pv && (alpha < MATE_BOUND || entry.is_none()) && eval + razor_margin(depth) < alpha
            {
                return self.vcf_attack(false, ply, alpha, alpha + 1, 0.0);
            }
            let chain = self.frame(ply as isize - 2).combos[us.index()].is_four()
                && self.frame(ply as isize - 4).combos[us.index()].is_four();
            if !pv
                && eval < MATE_BOUND
                && beta > -MATE_BOUND
                && eval - futility_margin(depth - 1.0, cut && entry.is_none(), improvement > 0)
                    >= beta
                && !chain
            {
                return eval;
            }
        }
        if !oppo5 {
            if pv && tt_move == NO_CELL {
                depth -= IIR_PV;
            }
            if pv && depth > 1.0 && tt_move != NO_CELL {
                depth -= ((depth - tt_depth) * IIR_TT).clamp(0.0, IIR_TT_MAX);
            }
            if depth <= 0.0 {
                return self.vcf_attack(pv, ply, alpha, beta, 0.0);
            }
        }

        // 5. Moves.
        if !self.generate(ply, tt_move) {
            return if oppo5 {
                mated_in(ply + 2)
            } else {
                mated_in(ply + 4)
            };
        }
        let mut moves = std::mem::take(&mut self.move_buf[ply]);
        let mut complexity = 1u32;
        for side in [us, them] {
            for combo in [
                Combo::Flex2,
                Combo::Block3,
                Combo::Flex2x2,
                Combo::Block3Plus,
                Combo::Flex3,
                Combo::Flex3Plus,
                Combo::Flex3x2,
                Combo::Block4,
                Combo::Block4Plus,
            ] {
                complexity += self.pos.count(side, combo);
            }
        }
        let complexity = (complexity as f32).ln();
        let likely_fail_high = !pv && cut && eval >= beta + fail_high_margin(depth, oppo4);
        let improving = improvement > 0;
        self.tried[ply].0.clear();
        self.tried[ply].1.clear();

        let alpha_orig = alpha;
        let mut best = -INFINITY;
        let mut best_move = NO_CELL;
        let mut move_count = 0;
        let last_oppo = self.frame(ply as isize - 1).current;
        let last_self = self.frame(ply as isize - 2).current;
        for i in 0..moves.len() {
            let m = pick(&mut moves, i);
            if m == skip {
                continue;
            }
            move_count += 1;
            let combos = [self.pos.combo(m, Stone::X), self.pos.combo(m, Stone::O)];
            let own = combos[us.index()];
            let theirs = combos[them.index()];
            let important = own >= Combo::Flex2x2 || theirs >= Combo::Flex3;
            let trivial = combos[0] == Combo::None && combos[1] == Combo::None;
            let dist_oppo = if last_oppo == NO_CELL {
                0
            } else {
                self.pos.distance(m, last_oppo)
            };
            let dist_self = if last_self == NO_CELL {
                0
            } else {
                self.pos.distance(m, last_self)
            };
            let distract = dist_self > 4 && dist_oppo > 4;

            // 6. Pruning at shallow depth, once a move that does not lose is known.
            if best > -MATE_BOUND {
                if move_count >= futility_move_count(depth, improving) {
                    // Every later move would be pruned here too (the count only grows, and
                    // so does `best`): stop rather than pick and sort them to skip them.
                    break;
                }
                if trivial && depth < TRIVIAL_PRUNE_DEPTH {
                    continue;
                }
                if oppo4 && depth < TRIVIAL_PRUNE_DEPTH && !theirs.is_four() && distract {
                    continue;
                }
            }

            // Extensions.
            let mut extension = 0.0;
            if oppo5 {
                extension = OPPO5_EXT;
            } else if depth >= SE_DEPTH
                && m == tt_move
                && skip == NO_CELL
                && tt_value.abs() < MATE_BOUND
                && matches!(tt_bound, Bound::Lower | Bound::Exact)
                && tt_depth >= depth - SE_TTE_DEPTH
            {
                let former_pv = !pv && tt_pv;
                let singular_beta = (tt_value - singular_margin(depth, former_pv)).max(-MATE);
                self.frame_mut(ply).skip = m;
                let v = self.node(
                    false,
                    singular_depth(depth, former_pv),
                    ply,
                    singular_beta - 1,
                    singular_beta,
                    cut,
                );
                self.frame_mut(ply).skip = NO_CELL;
                if self.stopped {
                    self.move_buf[ply] = moves;
                    return 0;
                }
                if v < singular_beta {
                    extension = if !pv
                        && v < singular_beta - double_singular_margin(depth)
                        && self.frame(ply as isize).extra_extension < SE_EXTRA_MAX
                    {
                        2.0
                    } else {
                        1.0
                    };
                } else if singular_beta >= beta {
                    // Multi-cut: even without the TT move this node fails high.
                    self.move_buf[ply] = moves;
                    return singular_beta;
                } else if tt_value >= beta {
                    extension = -SE_REDUCTION_FH;
                }
            } else if m == tt_move {
                extension = if pv { TTM_EXT_PV } else { TTM_EXT_NONPV };
                if own.is_four() && dist_self <= 6 {
                    extension += if dist_self <= 4 {
                        NEAR_B4_EXT_4
                    } else {
                        NEAR_B4_EXT_6
                    };
                }
            }
            if likely_fail_high {
                if own.is_four() {
                    if self.frame(ply as isize - 2).combos[us.index()].is_four() {
                        extension += 1.0;
                    }
                } else {
                    extension -= 1.0;
                }
            }
            let mut new_depth = depth - 1.0 + extension;
            let parent_extra = self.frame(ply as isize - 1).extra_extension;
            {
                let f = self.frame_mut(ply);
                f.current = m;
                f.combos = combos;
                f.extra_extension = parent_extra + (extension - 1.0).max(0.0);
            }

            self.tt.prefetch(self.pos.hash_after(m));
            self.pos.make(m);
            let mut value;
            if depth >= 2.0 && move_count > 1 {
                // Late move reduction.
                let mut r = self.base_reduction(depth, move_count);
                if pv {
                    r = (r - (beta - alpha) as f32 / self.root_delta.max(1) as f32).max(0.0);
                } else if improvement <= 0 && r > 1.0 {
                    r += 1.0;
                }
                r += complexity * complexity_reduction(trivial, important, distract);
                if tt_pv {
                    r -= TTPV_LESS_REDUCTION;
                }
                if ply & 1 == 1 && best >= -self.root_alpha {
                    r += NO_ALPHA_IMPROVING_REDUCTION;
                }
                let killers = self.frame(ply as isize).killers;
                let is_killer = m == killers[0] || m == killers[1];
                if cut && !(!oppo4 && is_killer && own < Combo::Flex3) {
                    r += NO_KILLER_CUT_REDUCTION;
                }
                if oppo4 && !theirs.is_four() {
                    if dist_oppo > 4 {
                        r += OPPO_USELESS_DEFEND_REDUCTION;
                    }
                    if dist_self > 4 {
                        r += SELF_USELESS_DEFEND_REDUCTION;
                    }
                }
                if !oppo4
                    && self.frame(ply as isize - 2).combos[us.index()] >= Combo::Flex3
                    && (own >= Combo::Flex3 || (dist_self <= 4 && own >= Combo::Flex2x2))
                {
                    r -= CONTINUOUS_ATTACK_EXT;
                }
                let stat = self.history.score(us, m, history::Kind::Attack)
                    + self.history.score(us, m, history::Kind::Quiet) * 780 / 1024
                    - 3322;
                self.frame_mut(ply).stat_score = stat;
                r -= stat as f32 / if depth > 5.4 { 16_647.0 } else { 12_267.0 };
                let d = (new_depth - r).min(new_depth + 1.0).max(1.0);
                value = -self.node(false, d, ply + 1, -(alpha + 1), -alpha, true);
                if value > alpha && d < new_depth && !self.stopped {
                    let mut ext = lmr_extension(new_depth, d, value, alpha, best);
                    let extra = self.frame(ply as isize).extra_extension;
                    if extra >= LMR_EXTRA_MAX {
                        ext = ext.min(1.0);
                    } else {
                        self.frame_mut(ply).extra_extension += (ext - 1.0).max(0.0);
                    }
                    new_depth += ext;
                    if d < new_depth {
                        value = -self.node(false, new_depth, ply + 1, -(alpha + 1), -alpha, !cut);
                    }
                }
            } else if !pv || move_count > 1 {
                value = -self.node(false, new_depth, ply + 1, -(alpha + 1), -alpha, !cut);
            } else {
                value = -INFINITY;
            }
            if pv && !self.stopped && (move_count == 1 || (value > alpha && value < beta)) {
                value = -self.node(true, new_depth, ply + 1, -beta, -alpha, false);
            }
            self.pos.unmake();
            if self.stopped {
                self.move_buf[ply] = moves;
                return 0;
            }

            if value > best {
                best = value;
                if value > alpha {
                    best_move = m;
                    if pv {
                        self.update_pv(ply, m);
                    }
                    if value >= beta {
                        break;
                    }
                    alpha = value;
                    if depth > 2.0 && depth < 12.0 && value.abs() < MATE_BOUND {
                        depth -= ALPHA_IMPROVEMENT_REDUCTION;
                    }
                }
            }
            if m != best_move {
                if own >= Combo::Flex3 {
                    self.tried[ply].1.push(m);
                } else if !oppo4 {
                    self.tried[ply].0.push(m);
                }
            }
        }
        self.move_buf[ply] = moves;

        // 7. Learning and the table.
        if move_count == 0 {
            best = if skip != NO_CELL {
                alpha
            } else if oppo5 {
                mated_in(ply + 2)
            } else {
                mated_in(ply + 4)
            };
        } else if best_move != NO_CELL {
            self.learn(ply, depth, best_move, oppo4, oppo5);
        }
        if skip == NO_CELL {
            let bound = if best >= beta {
                Bound::Lower
            } else if pv && best_move != NO_CELL && best > alpha_orig {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let static_eval = self.frame(ply as isize).static_eval;
            self.tt.store(
                hash,
                Record {
                    score: to_tt(best, ply),
                    bound,
                    depth: depth as i32,
                    best: (best_move != NO_CELL).then_some(best_move),
                    eval: (!oppo4).then_some(static_eval),
                    pv: tt_pv,
                },
            );
        }
        best
    }

    /// Rewards the best move and penalises the moves tried before it.
    fn learn(&mut self, ply: usize, depth: f32, best_move: Cell, oppo4: bool, oppo5: bool) {
        let us = self.pos.to_move();
        let bonus = history::bonus(depth);
        let own = self.pos.combo(best_move, us);
        if own >= Combo::Flex3 {
            self.history
                .update(us, best_move, history::Kind::Attack, bonus);
        } else if !oppo4 {
            self.history
                .update(us, best_move, history::Kind::Quiet, bonus);
            let (quiets, _) = &self.tried[ply];
            for i in 0..quiets.len() {
                let q = self.tried[ply].0[i];
                self.history.update(us, q, history::Kind::Quiet, -bonus);
            }
            let f = self.frame_mut(ply);
            if f.killers[0] != best_move {
                f.killers[1] = f.killers[0];
                f.killers[0] = best_move;
            }
        }
        for i in 0..self.tried[ply].1.len() {
            let a = self.tried[ply].1[i];
            self.history.update(us, a, history::Kind::Attack, -bonus);
        }
        let last = self.frame(ply as isize - 1).current;
        if !oppo5 && last != NO_CELL {
            self.history.set_counter(us, last, best_move);
        }
    }

    /// The VCF quiescence, attacker to move: stand pat, or play a four near the previous
    /// one (plain fours only near the horizon, else fours that build more).
    pub fn vcf_attack(
        &mut self,
        pv: bool,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        depth: f32,
    ) -> i32 {
        use params::*;
        self.pv_len[ply] = ply;
        if self.tick() {
            return 0;
        }
        if self.pos.is_full() {
            return 0;
        }
        if ply >= MAX_PLY - 8 {
            return evaluate(self.pos);
        }
        let us = self.pos.to_move();
        let them = us.opponent();
        if self.pos.count(them, Combo::Five) > 0 {
            // The defender's block was a four: answer it first.
            return self.vcf_defend(pv, ply, alpha, beta, depth);
        }
        if let Some(v) = quick_win(self.pos, ply) {
            return v;
        }
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        let hash = self.pos.hash();
        let entry = self.tt.probe(hash);
        let mut tt_move = NO_CELL;
        let mut best;
        if let Some(e) = entry {
            let v = from_tt(e.score, ply);
            if f32::from(e.depth) >= depth && e.bound() != Bound::None {
                if matches!(e.bound(), Bound::Lower | Bound::Exact) {
                    alpha = alpha.max(v);
                }
                if matches!(e.bound(), Bound::Upper | Bound::Exact) {
                    beta = beta.min(v);
                }
                if alpha >= beta {
                    return v;
                }
            }
            tt_move = e
                .best()
                .filter(|c| self.pos.is_empty(*c) && self.pos.combo(*c, us).is_four())
                .unwrap_or(NO_CELL);
            let static_eval = self.static_eval(Some(e.eval));
            self.frame_mut(ply).static_eval = static_eval;
            best = static_eval;
            if e.bound() != Bound::None
                && match e.bound() {
                    Bound::Lower => v > best,
                    Bound::Upper => v < best,
                    _ => true,
                }
            {
                best = v;
            }
        } else {
            best = evaluate(self.pos);
            self.frame_mut(ply).static_eval = best;
        }
        if best >= beta {
            if entry.is_none() {
                self.tt.store(
                    hash,
                    Record {
                        score: to_tt(best, ply),
                        bound: Bound::Lower,
                        depth: -3,
                        best: None,
                        eval: Some(best),
                        pv: false,
                    },
                );
            }
            return best;
        }
        if pv && best > alpha {
            alpha = best;
        }
        if !pv && best + qvcf_delta_margin(depth) < alpha {
            return alpha;
        }
        let alpha_orig = alpha;

        // Fours near our previous move.
        let plain = depth >= DEPTH_QVCF_FULL
            || (self.frame(ply as isize - 2).combos[us.index()] >= Combo::Block4Plus
                && self.frame(ply as isize - 4).combos[us.index()] >= Combo::Block4Plus);
        let min = if plain {
            Combo::Block4
        } else {
            Combo::Block4Plus
        };
        let mut moves = std::mem::take(&mut self.move_buf[ply]);
        moves.clear();
        if self.pos.count_at_least(us, min) > 0 {
            let mut cells = std::mem::take(&mut self.cell_buf);
            cells.clear();
            self.pos.cells_with(us, min, &mut cells);
            drop_forbidden(self.pos, &mut cells, 0);
            let last = self.frame(ply as isize - 2).current;
            for &c in &cells {
                if c != tt_move && last != NO_CELL && !self.pos.is_near(last, c) {
                    continue;
                }
                let key = if c == tt_move {
                    i32::MAX
                } else {
                    self.pos.score(c, us) + self.pos.score(c, them) / 2
                };
                moves.push(ranked(key, c));
            }
            self.cell_buf = cells;
            sort_moves(&mut moves);
        }
        let mut best_move = NO_CELL;
        for m in moves.iter().map(|&r| cell_of(r)) {
            let combos = [self.pos.combo(m, Stone::X), self.pos.combo(m, Stone::O)];
            {
                let f = self.frame_mut(ply);
                f.current = m;
                f.combos = combos;
            }
            self.pos.make(m);
            let v = -self.vcf_defend(pv, ply + 1, -beta, -alpha, depth - 1.0);
            self.pos.unmake();
            if self.stopped {
                self.move_buf[ply] = moves;
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if pv {
                        self.update_pv(ply, m);
                    }
                    if pv && v < beta {
                        alpha = v;
                    } else {
                        break;
                    }
                }
            }
        }
        self.move_buf[ply] = moves;
        let bound = if best >= beta {
            Bound::Lower
        } else if pv && best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let static_eval = self.frame(ply as isize).static_eval;
        self.tt.store(
            hash,
            Record {
                score: to_tt(best, ply),
                bound,
                depth: depth.max(DEPTH_QVCF) as i32,
                best: (best_move != NO_CELL).then_some(best_move),
                eval: Some(static_eval),
                pv,
            },
        );
        best
    }

    /// The VCF quiescence, defender to move: a five threatened is blocked (every block is
    /// tried); no threat means the line ends on the evaluation.
    pub fn vcf_defend(&mut self, pv: bool, ply: usize, alpha: i32, beta: i32, depth: f32) -> i32 {
        self.pv_len[ply] = ply;
        if self.tick() {
            return 0;
        }
        let us = self.pos.to_move();
        let them = us.opponent();
        if self.pos.count(us, Combo::Five) > 0 {
            return mate_in(ply + 1);
        }
        if self.pos.count(them, Combo::Five) == 0 {
            return evaluate(self.pos);
        }
        if self.pos.is_full() {
            return 0;
        }
        if ply >= MAX_PLY - 8 {
            return evaluate(self.pos);
        }
        let mut blocks = std::mem::take(&mut self.cell_buf);
        blocks.clear();
        five_defences(self.pos, &mut blocks);
        let mut moves = std::mem::take(&mut self.move_buf[ply]);
        moves.clear();
        moves.extend(blocks.iter().map(|&b| ranked(0, b)));
        self.cell_buf = blocks;
        if moves.is_empty() {
            self.move_buf[ply] = moves;
            return mated_in(ply + 2);
        }
        let mut best = -INFINITY;
        let mut alpha = alpha;
        for b in moves.iter().map(|&r| cell_of(r)) {
            let combos = [self.pos.combo(b, Stone::X), self.pos.combo(b, Stone::O)];
            {
                let f = self.frame_mut(ply);
                f.current = b;
                f.combos = combos;
            }
            self.tt.prefetch(self.pos.hash_after(b));
            self.pos.make(b);
            let v = -self.vcf_attack(pv, ply + 1, -beta, -alpha, depth);
            self.pos.unmake();
            if self.stopped {
                self.move_buf[ply] = moves;
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    if pv {
                        self.update_pv(ply, b);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        self.move_buf[ply] = moves;
        best
    }
}

/// How many moves [`pick`] selects one at a time before it sorts the rest. Near the
/// leaves a node searches only a few moves before the move-count limit stops it (two to
/// seven at depths 1-3), so selecting that many beats sorting sixty: 6 took 2-3% less time
/// than 3 on both bench suites, 10 no better than 6.
const LAZY_PICKS: usize = 6;

/// A scored move as one integer whose order is the search order, greater first: the
/// key in the high half, then the lower cell (stored as `u32::MAX - cell`).
type Ranked = i64;

/// A move with ordering key `key`.
#[inline]
fn ranked(key: i32, cell: Cell) -> Ranked {
    (i64::from(key) << 32) | i64::from(u32::MAX - cell as u32)
}

/// The cell of a ranked move.
#[inline]
fn cell_of(r: Ranked) -> Cell {
    (u32::MAX - r as u32) as Cell
}

/// The `i`-th move in order (highest key first, then lowest cell), when moves `0..i` were
/// picked before: the first few are selected one by one, since most nodes that cut off do
/// so on one of them; at the `LAZY_PICKS`-th the rest is sorted at once. The order is
/// exactly that of sorting the whole list.
fn pick(moves: &mut [Ranked], i: usize) -> Cell {
    if i < LAZY_PICKS {
        let best = (i..moves.len()).max_by_key(|&k| moves[k]).unwrap_or(i);
        moves.swap(i, best);
    } else if i == LAZY_PICKS {
        sort_moves(&mut moves[i..]);
    }
    cell_of(moves[i])
}

/// Sorts moves into search order: highest key first, then lowest cell.
fn sort_moves(moves: &mut [Ranked]) {
    moves.sort_unstable_by(|a, b| b.cmp(a));
}

/// A hash change that keeps the singular test search's results apart from the node's own.
#[inline]
fn skip_key(c: Cell) -> u64 {
    (c as u64 + 1)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .rotate_left(17)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picking_gives_the_order_of_a_full_sort() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for len in 0..40usize {
            let scored: Vec<(i32, Cell)> = (0..len)
                .map(|c| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    // Few distinct keys, so ties are broken by the cell; the extremes too.
                    let keys = [i32::MIN, -3, -1, 0, 2, 3, i32::MAX];
                    (keys[(seed % 7) as usize], (len - c) as Cell)
                })
                .collect();
            let mut moves: Vec<Ranked> = scored.iter().map(|&(k, c)| ranked(k, c)).collect();
            let mut sorted = scored.clone();
            sorted.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            let picked: Vec<Cell> = (0..len).map(|i| pick(&mut moves, i)).collect();
            let expected: Vec<Cell> = sorted.iter().map(|m| m.1).collect();
            assert_eq!(picked, expected, "{len} moves");
        }
    }
}
