//! The search board: stones plus everything a search asks about them, kept up to date
//! incrementally on make and unmake.
//!
//! Layout: a row-major grid padded with [`PAD`] wall cells on every side, so the
//! five-neighbour window of any real point stays inside the arrays and needs no bounds
//! checks. A [`Cell`] is an index into that grid: `(y + PAD) * stride + (x + PAD)` with
//! `stride = width + 2 * PAD`. Directions are index steps: `1` (horizontal), `stride`
//! (vertical), `stride + 1` (diagonal) and `stride - 1` (anti-diagonal).
//!
//! Per cell and direction the board keeps the window [`Key`] of its ten neighbours. A
//! stone placed on `p` changes one 2-bit field in the keys of the (at most) forty cells
//! within five steps of `p` along its four lines; those cells, if empty, look their new
//! [`Pattern`]s up in the rule's [`PatternTable`] and recompute their [`Combo`] and
//! evaluation score for both sides. Counts of combos over empty cells and the sum of
//! scores are updated on the way, so "can the side to move win at once?", "does the
//! opponent threaten five?" and the static evaluation are O(1).

use super::eval::{CellValue, ValueTable};
use super::pattern::{Combo, EMPTY, Key, O_CODE, Pattern, PatternTable, WALL, X_CODE, shift};
use banco_rules::caro::board::{Board, Point, Stone};
use banco_rules::caro::game::Game;
use banco_rules::caro::rules::Rule;
use banco_rules::caro::zobrist;
use std::ops::ControlFlow;

/// An index into the padded grid (see the module doc).
pub type Cell = usize;

/// Wall cells around the board: a window reaches five cells out.
pub const PAD: usize = 5;

/// Squares within this Chebyshev distance of a stone are move candidates...
const NEAR_SQUARE: i32 = 2;
/// ...and so are points this many steps away along a line.
const NEAR_LINE: i32 = 3;
/// Empty rows above and below the board in [`Position`]'s row maps, so the candidate
/// range never reads outside them.
const ROW_PAD: usize = NEAR_LINE as usize;

/// What `unmake` needs to restore.
#[derive(Debug, Clone, Copy)]
struct Undo {
    /// The cell the move was played on.
    cell: Cell,
    /// The stones' bounding box before the move.
    bbox: BBox,
    /// The side to move before the move.
    to_move: Stone,
    /// The hash before the move.
    hash: u64,
    /// The potentials before the move.
    potential: [[i32; 2]; 2],
    /// The combo counts before the move.
    combo_count: [[u16; Combo::ALL.len()]; 2],
    /// How many entries `saved` held before the move: this move's own come after.
    saved: usize,
}

/// An empty cell's evaluation state before a move changed it: `unmake` puts it back
/// instead of reading the pattern tables again.
#[derive(Debug, Clone, Copy)]
struct Saved {
    cell: Cell,
    pairs: u32,
    combos: [Combo; 2],
    scores: [i32; 2],
    worth: [[i32; 2]; 2],
}

/// The smallest rectangle holding every stone, in board coordinates (inclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct BBox {
    /// Leftmost column with a stone.
    x0: i32,
    /// Top row with a stone.
    y0: i32,
    /// Rightmost column with a stone.
    x1: i32,
    /// Bottom row with a stone.
    y1: i32,
}

impl BBox {
    const EMPTY: BBox = BBox {
        x0: i32::MAX,
        y0: i32::MAX,
        x1: i32::MIN,
        y1: i32::MIN,
    };

    fn with(self, x: i32, y: i32) -> BBox {
        BBox {
            x0: self.x0.min(x),
            y0: self.y0.min(y),
            x1: self.x1.max(x),
            y1: self.y1.max(y),
        }
    }

    fn is_empty(self) -> bool {
        self.x0 > self.x1
    }
}

/// A caro position built for search. See the module doc for the layout.
#[derive(Clone)]
pub struct Position {
    /// Board columns.
    width: usize,
    /// Board rows.
    height: usize,
    /// Row length of the padded grid.
    stride: usize,
    /// What wins; fixes the pattern table.
    rule: Rule,
    /// Window key -> patterns, for this rule.
    table: &'static PatternTable,
    /// Four patterns -> combo, score and worth, for X and for O (renju's Black has a
    /// table of its own: [`ValueTable::renju_black`]).
    values: [&'static ValueTable; 2],
    /// Index steps of the four directions.
    dirs: [isize; 4],
    /// Cell codes: `EMPTY`, `X_CODE`, `O_CODE`, `WALL`.
    cells: Vec<u8>,
    /// Per cell and direction, the window key of its ten neighbours.
    keys: Vec<[Key; 4]>,
    /// Per cell, the packed X/O pattern pair of each direction, direction `d` in byte
    /// `d` (valid on empty cells). One word, so updating a byte never stalls a reload.
    pairs: Vec<u32>,
    /// Per cell, the combo each side would make there (valid on empty cells).
    combos: Vec<[Combo; 2]>,
    /// Per cell, each side's ordering score for a stone there (valid on empty cells).
    scores: Vec<[i32; 2]>,
    /// Per cell and side, what the point is worth to the evaluation when that side is to
    /// move and when it is not (valid on empty cells).
    worth: Vec<[[i32; 2]; 2]>,
    /// Per board row (after [`ROW_PAD`] empty ones), a bit per column (bit `x`) set where
    /// a stone stands: the move candidates are these maps spread over the candidate range.
    rows: Vec<u64>,
    /// Per side, how many empty cells hold each combo.
    combo_count: [[u16; Combo::ALL.len()]; 2],
    /// Per side, a bit per cell: the empty cells where that side makes a four or better
    /// (bit `c % 64` of word `c / 64`), so the search finds its fours without a scan.
    fours: [Vec<u64>; 2],
    /// Per side, the sum over empty cells of its worth as the side to move (`[side][0]`)
    /// and as the side that just moved (`[side][1]`).
    potential: [[i32; 2]; 2],
    /// Zobrist hash of the stones, XOR `SIDE_KEY` when O is to move.
    hash: u64,
    /// Per cell, the Zobrist keys of an X and an O stone there.
    zobrist: Vec<[u64; 2]>,
    /// Bounding box of the stones.
    bbox: BBox,
    /// Moves made with `make`, for `unmake`.
    history: Vec<Undo>,
    /// The cells each made move changed, as they were before it (each `Undo` says where
    /// its own begin).
    saved: Vec<Saved>,
    /// Stones on the board.
    stones: usize,
    /// The side to move.
    to_move: Stone,
    /// Renju only: the stones as the rules' board, kept in step on make and unmake, for
    /// Black's forbidden points ([`Position::forbidden`]). `None` under every other rule.
    renju: Option<Board>,
}

/// Byte `d` of a word.
#[inline]
fn byte(w: u32, d: usize) -> u8 {
    (w >> (8 * d)) as u8
}

/// The word with byte `d` replaced.
#[inline]
fn with_byte(w: u32, d: usize, b: u8) -> u32 {
    (w & !(0xFF << (8 * d))) | (u32::from(b) << (8 * d))
}

#[inline]
fn code_of(stone: Stone) -> u8 {
    match stone {
        Stone::X => X_CODE,
        Stone::O => O_CODE,
    }
}

impl Position {
    /// An empty board with X to move.
    pub fn new(width: u8, height: u8, rule: Rule) -> Position {
        let (width, height) = (usize::from(width), usize::from(height));
        let stride = width + 2 * PAD;
        let size = stride * (height + 2 * PAD);
        let dirs = [1, stride as isize, stride as isize + 1, stride as isize - 1];
        let mut pos = Position {
            width,
            height,
            stride,
            rule,
            table: PatternTable::get(rule),
            values: if rule == Rule::Renju {
                [ValueTable::renju_black(), ValueTable::renju_white()]
            } else {
                [ValueTable::get(); 2]
            },
            dirs,
            cells: vec![WALL; size],
            keys: vec![[0; 4]; size],
            pairs: vec![0; size],
            combos: vec![[Combo::None; 2]; size],
            scores: vec![[0; 2]; size],
            worth: vec![[[0; 2]; 2]; size],
            rows: vec![0; height + 2 * ROW_PAD],
            combo_count: [[0; Combo::ALL.len()]; 2],
            fours: [vec![0; size.div_ceil(64)], vec![0; size.div_ceil(64)]],
            potential: [[0; 2]; 2],
            hash: 0,
            zobrist: vec![[0; 2]; size],
            bbox: BBox::EMPTY,
            history: Vec::with_capacity(width * height),
            saved: Vec::new(),
            stones: 0,
            to_move: Stone::X,
            renju: (rule == Rule::Renju)
                .then(|| Board::new(width as u32, height as u32).ok())
                .flatten(),
        };
        for y in 0..height {
            for x in 0..width {
                let c = pos.cell(Point::new(x as u8, y as u8));
                pos.cells[c] = EMPTY;
                let p = Point::new(x as u8, y as u8);
                pos.zobrist[c] = [zobrist::key(p, Stone::X), zobrist::key(p, Stone::O)];
            }
        }
        for c in 0..size {
            if pos.cells[c] != EMPTY {
                continue;
            }
            for d in 0..4 {
                let mut key = 0;
                for k in (-5..=-1).chain(1..=5) {
                    let q = pos.step(c, d, k);
                    key |= Key::from(pos.cells[q]) << shift(k);
                }
                pos.keys[c][d] = key;
                pos.pairs[c] = with_byte(pos.pairs[c], d, pos.table.pair(key));
            }
            pos.add_cell(c);
        }
        pos
    }

    /// The position of `board` with `to_move` to play.
    pub fn from_board(board: &Board, rule: Rule, to_move: Stone) -> Position {
        let mut pos = Position::new(board.width(), board.height(), rule);
        for p in board.points() {
            if let Some(stone) = board.stone_at(p) {
                let c = pos.cell(p);
                pos.put(c, stone);
            }
        }
        // Set-up stones are never unmade: nothing to keep for them.
        pos.saved.clear();
        pos.to_move = to_move;
        pos.hash = board.hash()
            ^ if to_move == Stone::O {
                zobrist::SIDE_KEY
            } else {
                0
            };
        pos
    }

    /// The position of `board` with `to_move` to play, `last` being the move just played
    /// (if known): it is made on the board without it, so the evaluation can compare the
    /// position with the one before, as it does everywhere in a search.
    pub fn from_board_after(
        board: &Board,
        rule: Rule,
        to_move: Stone,
        last: Option<Point>,
    ) -> Position {
        match last {
            Some(p) if board.stone_at(p) == Some(to_move.opponent()) => {
                let mut before = board.clone();
                before.remove(p);
                let mut pos = Position::from_board(&before, rule, to_move.opponent());
                let c = pos.cell(p);
                pos.make(c);
                pos
            }
            _ => Position::from_board(board, rule, to_move),
        }
    }

    /// The current position of `game` (its last move made, see
    /// [`Position::from_board_after`]).
    pub fn from_game(game: &Game) -> Position {
        Position::from_board_after(game.board(), game.rule(), game.to_move(), game.last_move())
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Number of cells in the padded grid: the size of per-cell tables.
    pub fn grid_size(&self) -> usize {
        self.cells.len()
    }

    pub fn to_move(&self) -> Stone {
        self.to_move
    }

    /// Zobrist hash of stones and side to move.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash after [`Position::make`] on empty `c`, without making it.
    #[inline]
    pub fn hash_after(&self, c: Cell) -> u64 {
        self.hash ^ self.zobrist[c][self.to_move.index()] ^ zobrist::SIDE_KEY
    }

    /// Stones on the board.
    pub fn stones(&self) -> usize {
        self.stones
    }

    /// Moves made with [`Position::make`] and not yet unmade.
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// The last move made with [`Position::make`].
    pub fn last_made(&self) -> Option<Cell> {
        self.history.last().map(|u| u.cell)
    }

    /// Whether every point holds a stone.
    pub fn is_full(&self) -> bool {
        self.stones == self.width * self.height
    }

    /// The cell of a point (which must be on the board).
    #[inline]
    pub fn cell(&self, p: Point) -> Cell {
        (usize::from(p.y) + PAD) * self.stride + usize::from(p.x) + PAD
    }

    /// The point of a real cell.
    #[inline]
    pub fn point(&self, c: Cell) -> Point {
        Point::new((c % self.stride - PAD) as u8, (c / self.stride - PAD) as u8)
    }

    /// The cell `k` steps from `c` in direction `d` (0..4). Stays inside the padded grid
    /// for real cells and `|k| <= PAD`.
    #[inline]
    pub fn step(&self, c: Cell, d: usize, k: i32) -> Cell {
        (c as isize + self.dirs[d] * k as isize) as usize
    }

    /// Whether `c` is an empty point of the board.
    #[inline]
    pub fn is_empty(&self, c: Cell) -> bool {
        self.cells[c] == EMPTY
    }

    /// The stone on `c`, if any.
    #[inline]
    pub fn stone(&self, c: Cell) -> Option<Stone> {
        match self.cells[c] {
            X_CODE => Some(Stone::X),
            O_CODE => Some(Stone::O),
            _ => None,
        }
    }

    /// Whether `c` is on the board (empty or not).
    #[inline]
    pub fn on_board(&self, c: Cell) -> bool {
        c < self.cells.len() && self.cells[c] != WALL
    }

    /// What a stone of `stone` on empty `c` makes of the line in direction `d`.
    #[inline]
    pub fn pattern(&self, c: Cell, stone: Stone, d: usize) -> Pattern {
        PatternTable::unpack(byte(self.pairs[c], d), stone.index())
    }

    /// What a stone of `stone` on empty `c` makes across its four lines.
    #[inline]
    pub fn combo(&self, c: Cell, stone: Stone) -> Combo {
        self.combos[c][stone.index()]
    }

    /// The evaluation score of a stone of `stone` on empty `c`.
    #[inline]
    pub fn score(&self, c: Cell, stone: Stone) -> i32 {
        self.scores[c][stone.index()]
    }

    /// `stone`'s total worth before the last move made with [`Position::make`], if any.
    #[inline]
    pub fn previous_potential(&self, stone: Stone, to_move: bool) -> Option<i32> {
        self.history
            .last()
            .map(|u| u.potential[stone.index()][usize::from(!to_move)])
    }

    /// How many empty cells give `stone` the combo `combo`.
    #[inline]
    pub fn count(&self, stone: Stone, combo: Combo) -> u32 {
        u32::from(self.combo_count[stone.index()][combo as usize])
    }

    /// How many empty cells give `stone` a combo of at least `combo`.
    pub fn count_at_least(&self, stone: Stone, combo: Combo) -> u32 {
        self.combo_count[stone.index()][combo as usize..]
            .iter()
            .map(|n| u32::from(*n))
            .sum()
    }

    /// `stone`'s total worth over empty cells, as the side to move (`to_move`) or not.
    #[inline]
    pub fn potential(&self, stone: Stone, to_move: bool) -> i32 {
        self.potential[stone.index()][usize::from(!to_move)]
    }

    /// The direction and signed distance from `from` to `to` if they share a line within
    /// a window's reach (`1 <= |k| <= 5`).
    #[inline]
    pub fn line_between(&self, from: Cell, to: Cell) -> Option<(usize, i32)> {
        let (fx, fy) = ((from % self.stride) as i32, (from / self.stride) as i32);
        let (tx, ty) = ((to % self.stride) as i32, (to / self.stride) as i32);
        let (dx, dy) = (tx - fx, ty - fy);
        let (d, k) = if dy == 0 {
            (0, dx)
        } else if dx == 0 {
            (1, dy)
        } else if dx == dy {
            (2, dy)
        } else if dx == -dy {
            (3, dy)
        } else {
            return None;
        };
        (k != 0 && k.abs() <= PAD as i32).then_some((d, k))
    }

    /// The Chebyshev distance between two cells (the number of king steps).
    #[inline]
    pub fn distance(&self, a: Cell, b: Cell) -> i32 {
        let (ax, ay) = ((a % self.stride) as i32, (a / self.stride) as i32);
        let (bx, by) = ((b % self.stride) as i32, (b / self.stride) as i32);
        (ax - bx).abs().max((ay - by).abs())
    }

    /// Whether `b` is within two steps of `a` in every direction, or within four along
    /// one of `a`'s lines: where a follow-up to a threat on `a` usually lies.
    #[inline]
    pub fn is_near(&self, a: Cell, b: Cell) -> bool {
        let (ax, ay) = ((a % self.stride) as i32, (a / self.stride) as i32);
        let (bx, by) = ((b % self.stride) as i32, (b / self.stride) as i32);
        let (dx, dy) = ((ax - bx).abs(), (ay - by).abs());
        (dx <= 2 && dy <= 2) || ((dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= 4)
    }

    /// The combo `side` would have on empty `f` if a stone of `placed` stood on empty `c`
    /// (`c != f`): only the line through both changes, so one table lookup answers it
    /// exactly, without making the move.
    #[inline]
    pub fn combo_if(&self, f: Cell, c: Cell, placed: Stone, side: Stone) -> Combo {
        let Some((d, k)) = self.line_between(f, c) else {
            return self.combos[f][side.index()];
        };
        let key = self.keys[f][d] | (Key::from(code_of(placed)) << shift(k));
        let pairs = with_byte(self.pairs[f], d, self.table.pair(key));
        self.values_of(pairs)[side.index()].combo
    }

    /// Plays the side to move's stone on empty cell `c`.
    pub fn make(&mut self, c: Cell) {
        debug_assert!(self.is_empty(c), "make on a taken or off-board cell");
        let stone = self.to_move;
        self.make_stone(c, stone);
    }

    /// Plays `stone` on empty cell `c`, whoever was to move; the other side moves next.
    /// For analysis ("what if X played here?"); [`Position::unmake`] takes it back.
    pub fn make_stone(&mut self, c: Cell, stone: Stone) {
        self.history.push(Undo {
            cell: c,
            bbox: self.bbox,
            to_move: self.to_move,
            hash: self.hash,
            potential: self.potential,
            combo_count: self.combo_count,
            saved: self.saved.len(),
        });
        if self.to_move == stone {
            self.hash ^= zobrist::SIDE_KEY;
        }
        self.put(c, stone);
        self.to_move = stone.opponent();
    }

    /// Takes back the last [`Position::make`].
    pub fn unmake(&mut self) {
        let Some(undo) = self.history.pop() else {
            return;
        };
        let c = undo.cell;
        let code = self.cells[c];
        self.cells[c] = EMPTY;
        self.stones -= 1;
        self.to_move = undo.to_move;
        self.hash = undo.hash;
        self.bbox = undo.bbox;
        // The keys as `touch_lines` flips them, without its refreshes: a separate loop,
        // since folding the two into one (a const-generic flag) measured 3-5% slower.
        for d in 0..4 {
            for k in 1..=PAD as i32 {
                let q = self.step(c, d, k);
                self.keys[q][d] ^= Key::from(code) << shift(-k);
                let r = self.step(c, d, -k);
                self.keys[r][d] ^= Key::from(code) << shift(k);
            }
        }
        // The cells the move changed get their state back, in any order: each lies on one
        // line through `c` at one distance, so a move saves it at most once. `c`'s own was
        // left alone while it held the stone, so it is still what it was before the move.
        for i in undo.saved..self.saved.len() {
            let s = self.saved[i];
            self.pairs[s.cell] = s.pairs;
            self.combos[s.cell] = s.combos;
            self.scores[s.cell] = s.scores;
            self.worth[s.cell] = s.worth;
            self.mark_fours(s.cell, s.combos);
        }
        self.saved.truncate(undo.saved);
        self.mark_fours(c, self.combos[c]);
        self.combo_count = undo.combo_count;
        self.potential = undo.potential;
        let p = self.point(c);
        self.rows[usize::from(p.y) + ROW_PAD] &= !(1 << p.x);
        if let Some(board) = &mut self.renju {
            board.remove(p);
        }
    }

    /// Renju: whether empty `c` is forbidden to X (Black): a double three, a double four
    /// or an overline (see `banco_rules::caro::renju`). Always `false` under other rules.
    /// The patterns rule most points out at once: a forbidden point makes an overline,
    /// an open four's shape (`X.XXX.X` is two fours on one line), or at least two
    /// threes or fours, and never a five.
    pub fn forbidden(&self, c: Cell) -> bool {
        let Some(board) = &self.renju else {
            return false;
        };
        let mut strong = 0;
        for d in 0..4 {
            match self.pattern(c, Stone::X, d) {
                Pattern::F5 => return false,
                Pattern::Overline | Pattern::F4 => strong += 2,
                Pattern::F3 | Pattern::B4 => strong += 1,
                _ => {}
            }
        }
        strong >= 2 && banco_rules::caro::renju::foul(board, self.point(c)).is_some()
    }

    /// Whether the side to move may play empty `c` (only renju's Black has points it
    /// may not).
    #[inline]
    pub fn legal(&self, c: Cell) -> bool {
        self.renju.is_none() || self.to_move == Stone::O || !self.forbidden(c)
    }

    /// Whether the rule gives Black forbidden points (renju).
    #[inline]
    pub fn has_forbidden(&self) -> bool {
        self.renju.is_some()
    }

    /// Puts `stone` on empty `c` and updates everything but history and side to move.
    fn put(&mut self, c: Cell, stone: Stone) {
        self.remove_cell(c);
        let code = code_of(stone);
        self.cells[c] = code;
        self.stones += 1;
        self.hash ^= self.zobrist[c][stone.index()];
        let p = self.point(c);
        self.bbox = self.bbox.with(i32::from(p.x), i32::from(p.y));
        self.rows[usize::from(p.y) + ROW_PAD] |= 1 << p.x;
        self.touch_lines(c, code);
        if let Some(board) = &mut self.renju {
            board.place(p, stone);
        }
    }

    /// Flips `code` in the keys of every cell whose window holds `c`, and refreshes the
    /// empty ones. The potential changes are summed in registers and written once.
    fn touch_lines(&mut self, c: Cell, code: u8) {
        let mut delta = [[0i32; 2]; 2];
        for d in 0..4 {
            for k in 1..=PAD as i32 {
                // `q` sees `c` at offset -k (c is behind it) ...
                let q = self.step(c, d, k);
                self.keys[q][d] ^= Key::from(code) << shift(-k);
                if self.cells[q] == EMPTY {
                    self.refresh(q, d, &mut delta);
                }
                // ... and `r` sees it at offset +k.
                let r = self.step(c, d, -k);
                self.keys[r][d] ^= Key::from(code) << shift(k);
                if self.cells[r] == EMPTY {
                    self.refresh(r, d, &mut delta);
                }
            }
        }
        for (total, change) in self.potential.iter_mut().zip(delta) {
            total[0] += change[0];
            total[1] += change[1];
        }
    }

    /// Re-reads direction `d`'s patterns of empty cell `q`, recomputes its combos and
    /// scores, and adds the change in potential to `delta`.
    #[inline]
    fn refresh(&mut self, q: Cell, d: usize, delta: &mut [[i32; 2]; 2]) {
        let pair = self.table.pair(self.keys[q][d]);
        let old = self.pairs[q];
        if pair == byte(old, d) {
            return;
        }
        self.saved.push(Saved {
            cell: q,
            pairs: old,
            combos: self.combos[q],
            scores: self.scores[q],
            worth: self.worth[q],
        });
        let pairs = with_byte(old, d, pair);
        self.pairs[q] = pairs;
        let new = self.values_of(pairs);
        let old_combos = self.combos[q];
        let old_worth = self.worth[q];
        for side in 0..2 {
            self.combo_count[side][old_combos[side] as usize] -= 1;
            self.combo_count[side][new[side].combo as usize] += 1;
            let worth = [i32::from(new[side].mover), i32::from(new[side].waiter)];
            delta[side][0] += worth[0] - old_worth[side][0];
            delta[side][1] += worth[1] - old_worth[side][1];
            self.worth[q][side] = worth;
        }
        let combos = [new[0].combo, new[1].combo];
        if combos
            .iter()
            .chain(&old_combos)
            .any(|&k| k >= Combo::Block4)
        {
            self.mark_fours(q, combos);
        }
        self.combos[q] = combos;
        self.scores[q] = [i32::from(new[0].score), i32::from(new[1].score)];
    }

    /// Sets or clears empty cell `q`'s bit in each side's four map, as `combos` say.
    #[inline]
    fn mark_fours(&mut self, q: Cell, combos: [Combo; 2]) {
        let (word, bit) = (q / 64, 1u64 << (q % 64));
        for (map, combo) in self.fours.iter_mut().zip(combos) {
            if combo >= Combo::Block4 {
                map[word] |= bit;
            } else {
                map[word] &= !bit;
            }
        }
    }

    /// Each side's value from a cell's four packed pattern pairs.
    #[inline]
    fn values_of(&self, w: u32) -> [CellValue; 2] {
        // X's nibbles are the low halves of the four bytes, O's the high halves.
        let x = (w & 0xF) | (w >> 4 & 0xF0) | (w >> 8 & 0xF00) | (w >> 12 & 0xF000);
        let o = (w >> 4 & 0xF) | (w >> 8 & 0xF0) | (w >> 12 & 0xF00) | (w >> 16 & 0xF000);
        [
            self.values[0].value(x as u16),
            self.values[1].value(o as u16),
        ]
    }

    /// Takes empty cell `q`'s combos and worth out of the running totals.
    #[inline]
    fn remove_cell(&mut self, q: Cell) {
        self.mark_fours(q, [Combo::None; 2]);
        for side in 0..2 {
            self.combo_count[side][self.combos[q][side] as usize] -= 1;
            self.potential[side][0] -= self.worth[q][side][0];
            self.potential[side][1] -= self.worth[q][side][1];
        }
    }

    /// Computes empty cell `q`'s combos, scores and worth from its patterns and adds them
    /// in.
    #[inline]
    fn add_cell(&mut self, q: Cell) {
        let values = self.values_of(self.pairs[q]);
        for (side, v) in values.into_iter().enumerate() {
            self.combos[q][side] = v.combo;
            self.scores[q][side] = i32::from(v.score);
            let worth = [i32::from(v.mover), i32::from(v.waiter)];
            self.worth[q][side] = worth;
            self.combo_count[side][v.combo as usize] += 1;
            self.potential[side][0] += worth[0];
            self.potential[side][1] += worth[1];
        }
        self.mark_fours(q, self.combos[q]);
    }

    /// Every empty cell near a stone (the centre on an empty board), appended to `out` in
    /// ascending order.
    pub fn candidates(&self, out: &mut Vec<Cell>) {
        if self.bbox.is_empty() {
            let centre = Point::new((self.width / 2) as u8, (self.height / 2) as u8);
            out.push(self.cell(centre));
            return;
        }
        let reach = NEAR_LINE;
        let y0 = (self.bbox.y0 - reach).max(0) as usize;
        let y1 = ((self.bbox.y1 + reach) as usize).min(self.height - 1);
        let columns = u64::MAX >> (64 - self.width);
        for y in y0..=y1 {
            let mut bits = self.near_row(y) & !self.rows[y + ROW_PAD] & columns;
            let row = (y + PAD) * self.stride + PAD;
            while bits != 0 {
                out.push(row + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
    }

    /// The columns of row `y` within candidate range of a stone (taken or not, and past
    /// the board's width too): the stones within [`NEAR_SQUARE`] steps every way, and those
    /// [`NEAR_LINE`] steps away along a line.
    #[inline]
    fn near_row(&self, y: usize) -> u64 {
        // `self.rows[y + i]` is board row `y + i - ROW_PAD`.
        let (square, line) = (NEAR_SQUARE as usize, NEAR_LINE as usize);
        let mut rows_in_square = 0;
        for i in ROW_PAD - square..=ROW_PAD + square {
            rows_in_square |= self.rows[y + i];
        }
        // Bit x of `b >> k` is bit x + k of `b`: shifting both ways looks both ways.
        let mut near = rows_in_square;
        for k in 1..=square {
            near |= rows_in_square << k | rows_in_square >> k;
        }
        let (above, here, below) = (
            self.rows[y + ROW_PAD - line],
            self.rows[y + ROW_PAD],
            self.rows[y + ROW_PAD + line],
        );
        let on_lines = above | here | below;
        near | above | below | on_lines << line | on_lines >> line
    }

    /// Empty cells where `stone` makes a combo of at least `min`, appended to `out`.
    /// The scan stops at the last one: the combo counts say how many there are. (They count
    /// every empty cell, so for a combo weak enough to occur out of the scan's reach the
    /// scan simply runs to the end.)
    pub fn cells_with(&self, stone: Stone, min: Combo, out: &mut Vec<Cell>) {
        let mut left = self.count_at_least(stone, min);
        if left == 0 {
            return;
        }
        let side = stone.index();
        if min >= Combo::Block4 {
            // The four map holds them, in the scan's order (cells ascending).
            for (w, &bits) in self.fours[side].iter().enumerate() {
                let mut bits = bits;
                while bits != 0 {
                    let c = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if self.combos[c][side] >= min {
                        out.push(c);
                        left -= 1;
                        if left == 0 {
                            return;
                        }
                    }
                }
            }
            return;
        }
        self.scan(|c| {
            if self.combos[c][side] >= min {
                out.push(c);
                left -= 1;
                if left == 0 {
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        });
    }

    /// Calls `f` on every empty cell within reach of the stones (the bounding box grown
    /// by the candidate range). Any cell that makes a three or better lies in it.
    /// `f` can stop the scan.
    fn scan(&self, mut f: impl FnMut(Cell) -> ControlFlow<()>) {
        if self.bbox.is_empty() {
            return;
        }
        let reach = NEAR_LINE;
        let x0 = (self.bbox.x0 - reach).max(0) as usize;
        let y0 = (self.bbox.y0 - reach).max(0) as usize;
        let x1 = ((self.bbox.x1 + reach) as usize).min(self.width - 1);
        let y1 = ((self.bbox.y1 + reach) as usize).min(self.height - 1);
        let columns = (u64::MAX >> (63 - x1)) & (u64::MAX << x0);
        for y in y0..=y1 {
            let row = (y + PAD) * self.stride + PAD;
            let mut empty = !self.rows[y + ROW_PAD] & columns;
            while empty != 0 {
                if f(row + empty.trailing_zeros() as usize).is_break() {
                    return;
                }
                empty &= empty - 1;
            }
        }
    }

    /// The rules' board for this position (for tests and tools).
    pub fn to_board(&self) -> Board {
        let mut board = Board::new(self.width as u32, self.height as u32)
            .expect("a position always has a legal size");
        for y in 0..self.height {
            for x in 0..self.width {
                let p = Point::new(x as u8, y as u8);
                if let Some(s) = self.stone(self.cell(p)) {
                    board.place(p, s);
                }
            }
        }
        board
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{} to move, rule {}", self.to_move, self.rule)?;
        write!(f, "{:?}", self.to_board())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A position from rows of text (`X`, `O`, anything else empty), side to move from
    /// the stone counts (X moves first).
    pub(crate) fn position(rows: &[&str], rule: Rule) -> Position {
        let mut board = Board::new(rows[0].len() as u32, rows.len() as u32).unwrap();
        let mut xs = 0;
        let mut os = 0;
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let p = Point::new(x as u8, y as u8);
                match ch {
                    'X' => {
                        board.place(p, Stone::X);
                        xs += 1;
                    }
                    'O' => {
                        board.place(p, Stone::O);
                        os += 1;
                    }
                    _ => {}
                }
            }
        }
        let to_move = if xs > os { Stone::O } else { Stone::X };
        Position::from_board(&board, rule, to_move)
    }

    /// Everything incremental, recomputed from scratch: must equal the kept state.
    fn assert_consistent(pos: &Position) {
        let fresh = {
            let mut p = Position::from_board(&pos.to_board(), pos.rule, pos.to_move);
            p.history.clear();
            p
        };
        assert_eq!(pos.hash, fresh.hash, "hash");
        assert_eq!(pos.combo_count, fresh.combo_count, "combo counts");
        assert_eq!(pos.fours, fresh.fours, "four maps");
        assert_eq!(pos.potential, fresh.potential, "potential");
        assert_eq!(pos.rows, fresh.rows, "row maps");
        assert_eq!(candidates(pos), candidates_by_distance(pos), "candidates");
        assert_eq!(pos.bbox, fresh.bbox, "bbox");
        for c in 0..pos.cells.len() {
            if pos.cells[c] == EMPTY {
                assert_eq!(pos.keys[c], fresh.keys[c], "keys at {c}");
                assert_eq!(pos.pairs[c], fresh.pairs[c], "patterns at {c}");
                assert_eq!(pos.combos[c], fresh.combos[c]);
                assert_eq!(pos.scores[c], fresh.scores[c], "scores at {c}");
                assert_eq!(pos.worth[c], fresh.worth[c], "worth at {c}");
            }
        }
    }

    fn candidates(pos: &Position) -> Vec<Cell> {
        let mut out = Vec::new();
        pos.candidates(&mut out);
        out
    }

    /// The candidates by their definition: every empty point with a stone within two
    /// steps every way or three along a line, in cell order.
    fn candidates_by_distance(pos: &Position) -> Vec<Cell> {
        if pos.stones() == 0 {
            return candidates(&Position::new(pos.width as u8, pos.height as u8, pos.rule));
        }
        let stones: Vec<Point> = (0..pos.cells.len())
            .filter(|&c| pos.stone(c).is_some())
            .map(|c| pos.point(c))
            .collect();
        (0..pos.cells.len())
            .filter(|&c| pos.is_empty(c))
            .filter(|&c| {
                let p = pos.point(c);
                stones.iter().any(|s| {
                    let (dx, dy) = (
                        (i32::from(s.x) - i32::from(p.x)).abs(),
                        (i32::from(s.y) - i32::from(p.y)).abs(),
                    );
                    (dx <= 2 && dy <= 2) || ((dx == 0 || dy == 0 || dx == dy) && dx.max(dy) == 3)
                })
            })
            .collect()
    }

    #[test]
    fn candidates_reach_two_around_and_three_along_lines() {
        // One stone in a corner and one on the far edge of a board as wide as allowed.
        let mut board = Board::new(64, 7).unwrap();
        board.place(Point::new(0, 0), Stone::X);
        board.place(Point::new(63, 6), Stone::O);
        let pos = Position::from_board(&board, Rule::Freestyle, Stone::X);
        let found = candidates(&pos);
        assert_eq!(found, candidates_by_distance(&pos));
        let points: Vec<(u8, u8)> = found
            .iter()
            .map(|&c| (pos.point(c).x, pos.point(c).y))
            .collect();
        // Around X: the 3x3 corner of the 5x5 square less the stone, and (3,0), (0,3), (3,3).
        for p in [
            (1, 0),
            (2, 0),
            (3, 0),
            (0, 1),
            (2, 2),
            (0, 3),
            (3, 3),
            (63, 3),
            (60, 3),
            (60, 6),
        ] {
            assert!(points.contains(&p), "{p:?} is near a stone");
        }
        for p in [(4, 0), (3, 1), (1, 3), (2, 3), (59, 6), (62, 2)] {
            assert!(!points.contains(&p), "{p:?} is out of range");
        }
        assert_eq!(points.len(), 2 * (8 + 3));
    }

    #[test]
    fn empty_board_counts_every_point() {
        let pos = Position::new(15, 15, Rule::Caro);
        assert_eq!(pos.count(Stone::X, Combo::None), 225);
        let mut c = Vec::new();
        pos.candidates(&mut c);
        assert_eq!(c, vec![pos.cell(Point::new(7, 7))]);
    }

    #[test]
    fn sees_fives_and_open_fours() {
        let pos = position(
            &[
                "..........",
                ".XXXX.....",
                "..........",
                "..OOO.....",
                "..........",
            ],
            Rule::Caro,
        );
        assert_eq!(pos.to_move(), Stone::O);
        assert_eq!(pos.count(Stone::X, Combo::Five), 2);
        assert_eq!(pos.combo(pos.cell(Point::new(0, 1)), Stone::X), Combo::Five);
        assert_eq!(pos.count(Stone::O, Combo::Five), 0);
        assert_eq!(
            pos.combo(pos.cell(Point::new(5, 3)), Stone::O),
            Combo::Flex4
        );
        assert_eq!(
            pos.combo(pos.cell(Point::new(1, 3)), Stone::O),
            Combo::Flex4
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// `combo_if` answers exactly what making the move would show.
        #[test]
        fn combo_if_matches_make(
            rule_i in 0usize..4,
            picks in proptest::collection::vec(any::<u16>(), 10..70),
            probes in proptest::collection::vec((any::<u16>(), any::<u16>(), any::<bool>()), 20),
        ) {
            let rule = Rule::ALL[rule_i];
            let mut pos = Position::new(12, 12, rule);
            for pick in picks {
                let empty: Vec<Cell> = (0..pos.cells.len()).filter(|c| pos.is_empty(*c)).collect();
                pos.make(empty[pick as usize % empty.len()]);
            }
            let empty: Vec<Cell> = (0..pos.cells.len()).filter(|c| pos.is_empty(*c)).collect();
            for (a, b, x) in probes {
                let f = empty[a as usize % empty.len()];
                let c = empty[b as usize % empty.len()];
                if f == c { continue; }
                let placed = if x { Stone::X } else { Stone::O };
                for side in [Stone::X, Stone::O] {
                    let predicted = pos.combo_if(f, c, placed, side);
                    pos.make_stone(c, placed);
                    let real = pos.combo(f, side);
                    pos.unmake();
                    prop_assert_eq!(predicted, real);
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Random make/unmake sequences on random board sizes and rules keep every
        /// incremental table equal to a fresh build, and unmaking everything restores the
        /// start exactly.
        #[test]
        fn make_unmake_is_consistent(
            w in 5u8..=20, h in 5u8..=20, rule_i in 0usize..4,
            picks in proptest::collection::vec(any::<u16>(), 1..80),
            undo_every in 2usize..6,
        ) {
            let rule = Rule::ALL[rule_i];
            let mut pos = Position::new(w, h, rule);
            let start_hash = pos.hash();
            let start_potential = pos.potential;
            for (i, pick) in picks.iter().enumerate() {
                let empty: Vec<Cell> = (0..pos.cells.len()).filter(|c| pos.is_empty(*c)).collect();
                if empty.is_empty() { break; }
                pos.make(empty[*pick as usize % empty.len()]);
                if i % undo_every == 0 { pos.unmake(); }
            }
            assert_consistent(&pos);
            prop_assert_eq!(pos.to_board().hash() ^ if pos.to_move() == Stone::O { zobrist::SIDE_KEY } else { 0 }, pos.hash());
            while pos.ply() > 0 { pos.unmake(); }
            prop_assert_eq!(pos.hash(), start_hash);
            prop_assert_eq!(pos.potential, start_potential);
            prop_assert_eq!(pos.stones(), 0);
        }
    }
}
