//! Maximum weight matching on a complete graph (Edmonds' blossom algorithm), with warm
//! starts after weight changes.
//!
//! The Dutch system pairs a round by solving one matching, then nudging a few edge weights
//! and solving again, a few hundred times. Solving from scratch each time would cost
//! O(n^3) per solve; instead the matcher keeps its matching, blossoms and dual variables
//! between solves, and a weight change only "frees" the vertex it was set on: that vertex's
//! blossoms are dissolved (their duals moved onto the vertices, so every edge stays
//! feasible), it is unmatched, and its dual is raised until its edges are feasible again.
//! The next solve then only has to repair around the freed vertices: O(k n^2) for k of them.
//!
//! The algorithm is the primal-dual method of Edmonds as laid out by Galil ("Efficient
//! algorithms for finding maximum matching in graphs", 1986): stages that grow alternating
//! trees from exposed vertices, shrink odd cycles into blossoms, and adjust duals by the
//! least slack. Two changes make it warm-startable:
//!
//! - A stage's roots are the exposed vertices whose dual is still positive; an exposed
//!   vertex with dual zero already satisfies complementary slackness, is not a root, and is
//!   a valid end of an augmenting path (reaching it raises the matching's weight by the
//!   root's dual).
//! - When the dual of any outer vertex (not only a root) reaches zero, the even path from it
//!   to its root is flipped: the root becomes matched and that vertex exposed, at no cost in
//!   weight since every edge on the path is tight.
//!
//! Duals are kept in the doubled scale (slack of u-v is `y_u + y_v - 2 w(u,v)` plus twice
//! the duals of blossoms holding both), so every step is an integer when all roots have
//! duals of the same parity. Fresh roots can have odd duals, so each stage first makes
//! every root's dual even (raising an exposed vertex's dual keeps every edge feasible).
//!
//! Weights are `Wide<L>`; zero means "no edge" and such an edge is never matched.
//! Data layout: vertices are `0..n`, blossoms `n..2n`; per-vertex and per-blossom arrays
//! share that index space, as in Van Rantwijk's well-known formulation.

use crate::wide::Wide;

/// Marks "no vertex" in `mate` and "no blossom" in `parent`.
const NONE: usize = usize::MAX;

/// Labels of the alternating forest.
const FREE: u8 = 0;
/// An outer (even) vertex or blossom.
const OUTER: u8 = 1;
/// An inner (odd) vertex or blossom.
const INNER: u8 = 2;
/// A mark left on outer blossoms while looking for a common base.
const CRUMB: u8 = 4;

/// An edge as (x, y); its orientation matters where documented.
type Edge = (usize, usize);

/// A maximum weight matching of a complete graph whose weights change between solves.
pub struct Matcher<const L: usize> {
    /// Number of vertices.
    n: usize,
    /// Twice the weight of each edge, row-major `n x n`, symmetric; zero: no edge.
    twice: Vec<Wide<L>>,
    /// Each vertex's partner, or `NONE`.
    mate: Vec<usize>,
    /// Label of each vertex and top-level blossom in the current stage.
    label: Vec<u8>,
    /// The edge (remote, local) that gave a vertex or blossom its label; `local` lies in
    /// it. `None` for roots and for unlabelled ones.
    label_edge: Vec<Option<Edge>>,
    /// The top-level blossom holding each vertex (the vertex itself when alone).
    in_blossom: Vec<usize>,
    /// The blossom directly holding a vertex or blossom, or `NONE` at top level.
    parent: Vec<usize>,
    /// The children of a blossom around its odd cycle, the one holding the base first.
    children: Vec<Vec<usize>>,
    /// `edges[b][i]` joins `children[b][i]` (its first vertex) to the next child.
    edges: Vec<Vec<Edge>>,
    /// The base vertex of each blossom (a vertex's base is itself); `NONE` when unused.
    base: Vec<usize>,
    /// Dual variables: vertices' then blossoms', in the doubled scale.
    dual: Vec<Wide<L>>,
    /// Least-slack edge from a free vertex or an outer blossom to an outer vertex.
    best_edge: Vec<Option<Edge>>,
    /// For outer blossoms: least-slack edges to each neighbouring outer blossom.
    blossom_best_edges: Vec<Option<Vec<Edge>>>,
    /// Blossom numbers not in use.
    unused: Vec<usize>,
    /// Stamp of the stage in which an edge was found tight (row-major `n x n`).
    allowed: Vec<u32>,
    /// The current stage's stamp.
    stage: u32,
    /// Outer vertices waiting to be scanned.
    queue: Vec<usize>,
    /// Vertices whose weights changed since the last solve.
    dirty: Vec<bool>,
    /// Whether any vertex is dirty.
    any_dirty: bool,
}

impl<const L: usize> Matcher<L> {
    /// A graph of `n` vertices and no edges.
    pub fn new(n: usize) -> Self {
        Matcher {
            n,
            twice: vec![Wide::ZERO; n * n],
            mate: vec![NONE; n],
            label: vec![FREE; 2 * n],
            label_edge: vec![None; 2 * n],
            in_blossom: (0..n).collect(),
            parent: vec![NONE; 2 * n],
            children: vec![Vec::new(); 2 * n],
            edges: vec![Vec::new(); 2 * n],
            base: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            dual: vec![Wide::ZERO; 2 * n],
            best_edge: vec![None; 2 * n],
            blossom_best_edges: vec![None; 2 * n],
            unused: (n..2 * n).rev().collect(),
            allowed: vec![0; n * n],
            stage: 0,
            queue: Vec::new(),
            dirty: vec![false; n],
            any_dirty: false,
        }
    }

    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether the graph has no vertices.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Sets the weight of edge `changed`-`other` (zero removes it). `changed` is the vertex
    /// the next solve frees; the edge itself needs no more.
    pub fn set_weight(&mut self, changed: usize, other: usize, weight: Wide<L>) {
        debug_assert!(changed != other);
        let twice = weight.double();
        self.twice[changed * self.n + other] = twice;
        self.twice[other * self.n + changed] = twice;
        self.dirty[changed] = true;
        self.any_dirty = true;
    }

    /// The weight of edge `u`-`v`.
    pub fn weight(&self, u: usize, v: usize) -> Wide<L> {
        self.twice[u * self.n + v].half()
    }

    /// The partner of `v` in the last solved matching.
    pub fn mate(&self, v: usize) -> Option<usize> {
        let m = self.mate[v];
        (m != NONE).then_some(m)
    }

    /// Solves for a maximum weight matching of the current weights.
    pub fn solve(&mut self) {
        if self.any_dirty {
            self.free_dirty();
        }
        while self.run_stage() {}
    }

    // ----- warm start -------------------------------------------------------------------

    /// Frees every dirty vertex: dissolves its blossoms, unmatches it and raises its dual
    /// until all its edges are feasible.
    fn free_dirty(&mut self) {
        let dirty: Vec<usize> = (0..self.n).filter(|&v| self.dirty[v]).collect();
        for &v in &dirty {
            let top = self.in_blossom[v];
            let top_base = self.base[top];
            let partner = self.mate[top_base];
            if partner != NONE {
                self.mate[top_base] = NONE;
                self.mate[partner] = NONE;
            }
            if top != v {
                self.rotate_blossom(top, v);
                self.mate[v] = NONE;
                self.dissolve_around(top, v);
            }
        }
        for &v in &dirty {
            let mut need = Wide::ZERO;
            for x in 0..self.n {
                let twice = self.twice[v * self.n + x];
                if x != v && !twice.is_zero() && twice > self.dual[x] {
                    let want = twice.wrapping_sub(self.dual[x]);
                    if want > need {
                        need = want;
                    }
                }
            }
            self.dual[v] = need;
            self.dirty[v] = false;
        }
        self.any_dirty = false;
    }

    /// Dissolves top-level blossom `b`, whose base is the exposed vertex `v`, and then every
    /// blossom below it that holds `v`, moving each blossom's dual onto its vertices.
    fn dissolve_around(&mut self, b: usize, v: usize) {
        let mut b = b;
        loop {
            let z = self.dual[b];
            let leaves = self.leaves(b);
            for &x in &leaves {
                self.dual[x] = self.dual[x].wrapping_add(z);
            }
            let children = std::mem::take(&mut self.children[b]);
            let mut next = NONE;
            for &c in &children {
                self.parent[c] = NONE;
                for x in self.leaves(c) {
                    self.in_blossom[x] = c;
                }
                if c >= self.n && self.base[c] == v {
                    next = c;
                }
            }
            self.release_blossom(b);
            if next == NONE {
                return;
            }
            b = next;
        }
    }

    /// Returns blossom `b`'s number to the pool.
    fn release_blossom(&mut self, b: usize) {
        self.children[b].clear();
        self.edges[b].clear();
        self.base[b] = NONE;
        self.parent[b] = NONE;
        self.label[b] = FREE;
        self.label_edge[b] = None;
        self.best_edge[b] = None;
        self.blossom_best_edges[b] = None;
        self.dual[b] = Wide::ZERO;
        self.unused.push(b);
    }

    /// Makes every root's dual even (see the module doc), dissolving zero-dual blossoms
    /// where a blossom's dual cannot pay for it.
    fn even_root(&mut self, b: usize) {
        let mut b = b;
        loop {
            if b < self.n {
                if self.dual[b].is_odd() {
                    self.dual[b] = self.dual[b].add_small(1);
                }
                return;
            }
            let base = self.base[b];
            if !self.dual[base].is_odd() {
                return;
            }
            if !self.dual[b].is_zero() {
                for x in self.leaves(b) {
                    self.dual[x] = self.dual[x].add_small(1);
                }
                self.dual[b] = self.dual[b].sub_small(1);
                return;
            }
            // A zero-dual blossom is only structure: dissolve it and even its base child.
            let children = std::mem::take(&mut self.children[b]);
            let mut next = NONE;
            for &c in &children {
                self.parent[c] = NONE;
                for x in self.leaves(c) {
                    self.in_blossom[x] = c;
                }
                if self.base[c] == base {
                    next = c;
                }
            }
            self.release_blossom(b);
            b = next;
        }
    }

    // ----- one stage --------------------------------------------------------------------

    /// Twice-scaled slack of edge `u`-`v` (both at top level in different blossoms).
    fn slack(&self, u: usize, v: usize) -> Wide<L> {
        self.dual[u]
            .wrapping_add(self.dual[v])
            .wrapping_sub(self.twice[u * self.n + v])
    }

    /// All vertices inside blossom (or vertex) `b`.
    fn leaves(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.push_leaves(b, &mut out);
        out
    }

    fn push_leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &c in &self.children[b] {
                self.push_leaves(c, out);
            }
        }
    }

    /// Whether edge `u`-`v` is known tight in this stage.
    fn is_allowed(&self, u: usize, v: usize) -> bool {
        self.allowed[u * self.n + v] == self.stage
    }

    fn allow(&mut self, (u, v): Edge) {
        self.allowed[u * self.n + v] = self.stage;
        self.allowed[v * self.n + u] = self.stage;
    }

    /// Runs one stage; returns false when there was nothing left to do.
    fn run_stage(&mut self) -> bool {
        self.stage = self.stage.wrapping_add(1);
        if self.stage == 0 {
            self.allowed.fill(0);
            self.stage = 1;
        }
        for x in 0..2 * self.n {
            self.label[x] = FREE;
            self.label_edge[x] = None;
            self.best_edge[x] = None;
        }
        for b in self.n..2 * self.n {
            self.blossom_best_edges[b] = None;
        }
        self.queue.clear();

        let mut roots = Vec::new();
        for v in 0..self.n {
            let top = self.in_blossom[v];
            if self.base[top] == v && self.mate[v] == NONE && !self.dual[v].is_zero() {
                roots.push(top);
            }
        }
        if roots.is_empty() {
            return false;
        }
        for &r in &roots {
            self.even_root(r);
        }
        for v in 0..self.n {
            let top = self.in_blossom[v];
            if self.base[top] == v
                && self.mate[v] == NONE
                && !self.dual[v].is_zero()
                && self.label[top] == FREE
            {
                self.assign_label(v, OUTER, None);
            }
        }

        loop {
            if self.scan() {
                break;
            }
            // No tight edge left to follow: move the duals.
            let mut delta: Option<(Wide<L>, u8, usize)> = None;
            let consider = |delta: &mut Option<(Wide<L>, u8, usize)>, d: Wide<L>, kind, at| {
                if delta.is_none_or(|(best, _, _)| d < best) {
                    *delta = Some((d, kind, at));
                }
            };
            for v in 0..self.n {
                if self.label[self.in_blossom[v]] == OUTER {
                    consider(&mut delta, self.dual[v], 1, v);
                }
            }
            for v in 0..self.n {
                if self.label[self.in_blossom[v]] == FREE
                    && let Some((a, b)) = self.best_edge[v]
                {
                    consider(&mut delta, self.slack(a, b), 2, v);
                }
            }
            for b in 0..2 * self.n {
                if self.is_top(b)
                    && self.label[b] == OUTER
                    && let Some((x, y)) = self.best_edge[b]
                {
                    consider(&mut delta, self.slack(x, y).half(), 3, b);
                }
            }
            for b in self.n..2 * self.n {
                if self.is_top(b) && self.label[b] == INNER {
                    consider(&mut delta, self.dual[b], 4, b);
                }
            }
            let Some((d, kind, at)) = delta else {
                // Unreachable: every stage has an outer vertex, so kind 1 always exists.
                return false;
            };
            for v in 0..self.n {
                match self.label[self.in_blossom[v]] {
                    OUTER => self.dual[v] = self.dual[v].wrapping_sub(d),
                    INNER => self.dual[v] = self.dual[v].wrapping_add(d),
                    _ => {}
                }
            }
            for b in self.n..2 * self.n {
                if self.is_top(b) {
                    match self.label[b] {
                        OUTER => self.dual[b] = self.dual[b].wrapping_add(d),
                        INNER => self.dual[b] = self.dual[b].wrapping_sub(d),
                        _ => {}
                    }
                }
            }
            match kind {
                1 => {
                    // An outer vertex's dual reached zero: it becomes the exposed one.
                    self.augment_from(at, NONE);
                    break;
                }
                2 => {
                    if let Some((a, b)) = self.best_edge[at] {
                        self.allow((a, b));
                        let outer = if self.label[self.in_blossom[a]] == OUTER {
                            a
                        } else {
                            b
                        };
                        self.queue.push(outer);
                    }
                }
                3 => {
                    if let Some((a, b)) = self.best_edge[at] {
                        self.allow((a, b));
                        self.queue.push(a);
                    }
                }
                _ => self.expand_blossom(at, false),
            }
        }

        // End of stage: outer blossoms whose dual fell to zero are only structure now.
        for b in self.n..2 * self.n {
            if self.is_top(b) && self.label[b] == OUTER && self.dual[b].is_zero() {
                self.expand_blossom(b, true);
            }
        }
        true
    }

    /// Whether `b` is a vertex or a blossom in use at top level.
    fn is_top(&self, b: usize) -> bool {
        self.parent[b] == NONE && self.base[b] != NONE
    }

    /// Scans outer vertices until an augmentation happens (true) or the queue runs dry.
    fn scan(&mut self) -> bool {
        while let Some(v) = self.queue.pop() {
            for u in 0..self.n {
                if u == v || self.twice[v * self.n + u].is_zero() {
                    continue;
                }
                let bv = self.in_blossom[v];
                let bu = self.in_blossom[u];
                if bv == bu {
                    continue;
                }
                let mut slack = None;
                if !self.is_allowed(v, u) {
                    let s = self.slack(v, u);
                    if s.is_zero() {
                        self.allow((v, u));
                    } else {
                        slack = Some(s);
                    }
                }
                if self.is_allowed(v, u) {
                    if self.label[bu] == FREE {
                        if self.mate[self.base[bu]] == NONE {
                            // An exposed vertex whose dual is zero: augment to it.
                            self.augment(v, u);
                            return true;
                        }
                        self.assign_label(u, INNER, Some((v, u)));
                    } else if self.label[bu] == OUTER {
                        match self.common_base(v, u) {
                            Some(base) => self.add_blossom(base, v, u),
                            None => {
                                self.augment(v, u);
                                return true;
                            }
                        }
                    } else if self.label[u] == FREE {
                        // u sits inside an inner blossom; remember how it was reached.
                        self.label[u] = INNER;
                        self.label_edge[u] = Some((v, u));
                    }
                } else if let Some(s) = slack {
                    if self.label[bu] == OUTER {
                        if self.best_edge[bv].is_none_or(|(a, b)| s < self.slack(a, b)) {
                            self.best_edge[bv] = Some((v, u));
                        }
                    } else if self.label[u] == FREE
                        && self.best_edge[u].is_none_or(|(a, b)| s < self.slack(a, b))
                    {
                        self.best_edge[u] = Some((v, u));
                    }
                }
            }
        }
        false
    }

    /// Labels the top-level blossom holding `w`, reached over `edge` (remote, `w`).
    fn assign_label(&mut self, w: usize, label: u8, edge: Option<Edge>) {
        let b = self.in_blossom[w];
        self.label[w] = label;
        self.label[b] = label;
        self.label_edge[w] = edge;
        self.label_edge[b] = edge;
        self.best_edge[w] = None;
        self.best_edge[b] = None;
        if label == OUTER {
            let leaves = self.leaves(b);
            self.queue.extend(leaves);
        } else {
            let base = self.base[b];
            let partner = self.mate[base];
            self.assign_label(partner, OUTER, Some((base, partner)));
        }
    }

    /// Follows the trees back from outer vertices `v` and `w`: the base of the blossom they
    /// close, or `None` when they lie in different trees.
    fn common_base(&mut self, v: usize, w: usize) -> Option<usize> {
        let mut path = Vec::new();
        let mut found = None;
        let (mut v, mut w) = (v, w);
        while v != NONE || w != NONE {
            let b = self.in_blossom[v];
            if self.label[b] & CRUMB != 0 {
                found = Some(self.base[b]);
                break;
            }
            path.push(b);
            self.label[b] = OUTER | CRUMB;
            v = match self.label_edge[b] {
                None => NONE,
                Some((t, _)) => {
                    let bt = self.in_blossom[t];
                    self.label_edge[bt].map_or(NONE, |(s, _)| s)
                }
            };
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = OUTER;
        }
        found
    }

    /// Shrinks the odd cycle closed by edge `v`-`w` (both outer) into a new outer blossom
    /// whose base is `base`.
    fn add_blossom(&mut self, base: usize, v: usize, w: usize) {
        let bb = self.in_blossom[base];
        let mut bv = self.in_blossom[v];
        let mut bw = self.in_blossom[w];
        let Some(b) = self.unused.pop() else {
            return;
        };
        self.base[b] = base;
        self.parent[b] = NONE;
        self.parent[bb] = b;
        let mut path = Vec::new();
        let mut edges = Vec::new();
        while bv != bb {
            self.parent[bv] = b;
            path.push(bv);
            let Some(edge) = self.label_edge[bv] else {
                break;
            };
            edges.push(edge);
            bv = self.in_blossom[edge.0];
        }
        path.push(bb);
        path.reverse();
        edges.reverse();
        edges.push((v, w));
        while bw != bb {
            self.parent[bw] = b;
            path.push(bw);
            let Some((remote, local)) = self.label_edge[bw] else {
                break;
            };
            edges.push((local, remote));
            bw = self.in_blossom[remote];
        }
        self.children[b] = path.clone();
        self.edges[b] = edges;
        self.label[b] = OUTER;
        self.label_edge[b] = self.label_edge[bb];
        self.dual[b] = Wide::ZERO;
        for x in self.leaves(b) {
            if self.label[self.in_blossom[x]] == INNER {
                self.queue.push(x);
            }
            self.in_blossom[x] = b;
        }

        // Least-slack edges from the new blossom to each neighbouring outer blossom.
        let mut best_to: Vec<Option<Edge>> = vec![None; 2 * self.n];
        for &child in &path {
            let list = match self.blossom_best_edges[child].take() {
                Some(list) => list,
                None => {
                    let mut list = Vec::new();
                    for x in self.leaves(child) {
                        for y in 0..self.n {
                            if y != x && !self.twice[x * self.n + y].is_zero() {
                                list.push((x, y));
                            }
                        }
                    }
                    list
                }
            };
            for (x, y) in list {
                let (x, y) = if self.in_blossom[y] == b {
                    (y, x)
                } else {
                    (x, y)
                };
                let by = self.in_blossom[y];
                if by != b
                    && self.label[by] == OUTER
                    && best_to[by].is_none_or(|(p, q)| self.slack(x, y) < self.slack(p, q))
                {
                    best_to[by] = Some((x, y));
                }
            }
            self.best_edge[child] = None;
        }
        let list: Vec<Edge> = best_to.into_iter().flatten().collect();
        let mut best: Option<Edge> = None;
        for &(x, y) in &list {
            if best.is_none_or(|(p, q)| self.slack(x, y) < self.slack(p, q)) {
                best = Some((x, y));
            }
        }
        self.blossom_best_edges[b] = Some(list);
        self.best_edge[b] = best;
    }

    /// Expands blossom `b` into its children. Mid-stage (`end_of_stage` false) `b` is
    /// inner, and its children on the even path from the entry to the base keep the tree
    /// alternating.
    fn expand_blossom(&mut self, b: usize, end_of_stage: bool) {
        let children = self.children[b].clone();
        for &c in &children {
            self.parent[c] = NONE;
            if c < self.n {
                self.in_blossom[c] = c;
            } else if end_of_stage && self.dual[c].is_zero() {
                self.expand_blossom(c, end_of_stage);
            } else {
                for x in self.leaves(c) {
                    self.in_blossom[x] = c;
                }
            }
        }
        if !end_of_stage
            && self.label[b] == INNER
            && let Some((remote, local)) = self.label_edge[b]
        {
            let k = children.len() as isize;
            let entry = self.in_blossom[local];
            let entry_index = children.iter().position(|&c| c == entry).unwrap_or(0) as isize;
            let step: isize = if entry_index % 2 == 1 { 1 } else { -1 };
            let child = |j: isize| children[j.rem_euclid(k) as usize];
            let cycle_edges = self.edges[b].clone();
            let edge_at = |j: isize| cycle_edges[j.rem_euclid(k) as usize];
            let mut j = entry_index;
            let mut reach: Edge = (remote, local);
            while j.rem_euclid(k) != 0 {
                // child(j) becomes inner, reached over `reach`; its mate child outer.
                let (matched_here, matched_next) = if step == 1 {
                    edge_at(j)
                } else {
                    let (x, y) = edge_at(j - 1);
                    (y, x)
                };
                self.label[reach.1] = FREE;
                self.label[matched_next] = FREE;
                self.assign_label(reach.1, INNER, Some(reach));
                self.allow((matched_here, matched_next));
                j += step;
                let next_edge = if step == 1 {
                    edge_at(j)
                } else {
                    let (x, y) = edge_at(j - 1);
                    (y, x)
                };
                reach = next_edge;
                self.allow(reach);
                j += step;
            }
            // The base child keeps the inner label, without relabelling its partner.
            let base_child = child(0);
            self.label[reach.1] = INNER;
            self.label[base_child] = INNER;
            self.label_edge[reach.1] = Some(reach);
            self.label_edge[base_child] = Some(reach);
            self.best_edge[base_child] = None;
            // The other side's children are free unless a tight edge reached them.
            j += step;
            while child(j) != entry {
                let c = child(j);
                if self.label[c] == OUTER {
                    j += step;
                    continue;
                }
                let reached = self.leaves(c).into_iter().find(|&x| self.label[x] != FREE);
                if let Some(x) = reached {
                    self.label[x] = FREE;
                    let partner = self.mate[self.base[c]];
                    if partner != NONE {
                        self.label[partner] = FREE;
                    }
                    let edge = self.label_edge[x];
                    self.assign_label(x, INNER, edge);
                }
                j += step;
            }
        }
        self.release_blossom(b);
    }

    /// Rotates blossom `b` so that its vertex `v` becomes the base, swapping matched and
    /// unmatched edges along the even path from `v`'s child to the old base child.
    fn rotate_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.parent[t] != b {
            t = self.parent[t];
        }
        if t >= self.n {
            self.rotate_blossom(t, v);
        }
        let children = self.children[b].clone();
        let cycle_edges = self.edges[b].clone();
        let k = children.len() as isize;
        let i = children.iter().position(|&c| c == t).unwrap_or(0) as isize;
        let step: isize = if i % 2 == 1 { 1 } else { -1 };
        let child = |j: isize| children[j.rem_euclid(k) as usize];
        let edge_at = |j: isize| cycle_edges[j.rem_euclid(k) as usize];
        let mut j = i;
        while j.rem_euclid(k) != 0 {
            // Skip the matched edge out of child(j), match the next one.
            let (near, far) = if step == 1 {
                edge_at(j + 1)
            } else {
                let (x, y) = edge_at(j - 2);
                (y, x)
            };
            j += step;
            let c = child(j);
            if c >= self.n {
                self.rotate_blossom(c, near);
            }
            j += step;
            let c = child(j);
            if c >= self.n {
                self.rotate_blossom(c, far);
            }
            self.mate[near] = far;
            self.mate[far] = near;
        }
        let i = i as usize;
        let mut rotated = children[i..].to_vec();
        rotated.extend_from_slice(&children[..i]);
        let mut rotated_edges = cycle_edges[i..].to_vec();
        rotated_edges.extend_from_slice(&cycle_edges[..i]);
        self.children[b] = rotated;
        self.edges[b] = rotated_edges;
        self.base[b] = self.base[t];
    }

    /// Augments over edge `v`-`w` (`v` outer; `w` outer in another tree, or in an exposed
    /// blossom with a zero dual).
    fn augment(&mut self, v: usize, w: usize) {
        self.augment_from(v, w);
        self.augment_from(w, v);
    }

    /// Matches `s` to `partner` (or exposes it when `partner` is `NONE`) and flips the
    /// alternating path from `s`'s blossom back to its root.
    fn augment_from(&mut self, s: usize, partner: usize) {
        let (mut s, mut p) = (s, partner);
        loop {
            let bs = self.in_blossom[s];
            if bs >= self.n {
                self.rotate_blossom(bs, s);
            }
            self.mate[s] = p;
            let Some((t, _)) = self.label_edge[bs] else {
                break;
            };
            let bt = self.in_blossom[t];
            let Some((s2, j)) = self.label_edge[bt] else {
                break;
            };
            if bt >= self.n {
                self.rotate_blossom(bt, j);
            }
            self.mate[j] = s2;
            s = s2;
            p = j;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The best total weight by trying every matching (small graphs only).
    fn brute_force(n: usize, w: &[u64]) -> u64 {
        fn go(free: u32, n: usize, w: &[u64]) -> u64 {
            if free == 0 {
                return 0;
            }
            let v = free.trailing_zeros() as usize;
            let rest = free & !(1 << v);
            let mut best = go(rest, n, w);
            for u in 0..n {
                if rest & (1 << u) != 0 && w[v * n + u] > 0 {
                    best = best.max(w[v * n + u] + go(rest & !(1 << u), n, w));
                }
            }
            best
        }
        go((1u32 << n) - 1, n, w)
    }

    fn matched_weight(m: &Matcher<1>, w: &[u64]) -> u64 {
        let n = m.len();
        let mut total = 0;
        for v in 0..n {
            if let Some(u) = m.mate(v) {
                assert_eq!(m.mate(u), Some(v), "mates disagree");
                assert!(w[v * n + u] > 0, "a non-edge was matched");
                if v < u {
                    total += w[v * n + u];
                }
            }
        }
        total
    }

    /// A small deterministic generator (xorshift).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    #[test]
    fn solves_random_graphs_like_brute_force() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for trial in 0..400 {
            let n = 1 + rng.below(11) as usize;
            let spread = [3, 10, 1000][trial % 3];
            let density = 1 + rng.below(4);
            let mut w = vec![0u64; n * n];
            let mut m = Matcher::<1>::new(n);
            for v in 0..n {
                for u in 0..v {
                    if rng.below(4) < density {
                        let x = 1 + rng.below(spread);
                        w[v * n + u] = x;
                        w[u * n + v] = x;
                        m.set_weight(v, u, Wide::from_u64(x));
                    }
                }
            }
            m.solve();
            assert_eq!(matched_weight(&m, &w), brute_force(n, &w), "trial {trial}");
        }
    }

    #[test]
    fn stays_optimal_across_weight_changes() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for trial in 0..150 {
            let n = 2 + rng.below(10) as usize;
            let spread = [4, 50, 100_000][trial % 3];
            let mut w = vec![0u64; n * n];
            let mut m = Matcher::<1>::new(n);
            for v in 0..n {
                for u in 0..v {
                    let x = rng.below(spread);
                    w[v * n + u] = x;
                    w[u * n + v] = x;
                    m.set_weight(v, u, Wide::from_u64(x));
                }
            }
            m.solve();
            for step in 0..25 {
                // Change every edge of one or two vertices, or a single edge.
                let changes = 1 + rng.below(3);
                for _ in 0..changes {
                    let v = rng.below(n as u64) as usize;
                    if rng.below(2) == 0 {
                        for u in 0..n {
                            if u != v {
                                let x = rng.below(spread);
                                w[v * n + u] = x;
                                w[u * n + v] = x;
                                m.set_weight(v, u, Wide::from_u64(x));
                            }
                        }
                    } else {
                        let u = (v + 1 + rng.below(n as u64 - 1) as usize) % n;
                        let x = rng.below(spread);
                        w[v * n + u] = x;
                        w[u * n + v] = x;
                        m.set_weight(v, u, Wide::from_u64(x));
                    }
                }
                m.solve();
                assert_eq!(
                    matched_weight(&m, &w),
                    brute_force(n, &w),
                    "trial {trial} step {step}"
                );
            }
        }
    }

    #[test]
    fn wide_weights_keep_their_order() {
        // One heavy edge beats any number of light ones when the weight says so.
        let mut m = Matcher::<4>::new(4);
        let heavy = Wide::<4>::from_u64(1).add_at(200, 1);
        let light = Wide::<4>::from_u64(1).add_at(198, 1);
        m.set_weight(0, 1, heavy);
        m.set_weight(0, 2, light);
        m.set_weight(1, 3, light);
        m.solve();
        assert_eq!(m.mate(0), Some(1));
        assert_eq!(m.mate(2), None);
    }
}
