//! Console Caro (C++ console caro, HCMUS 2023; seed document 000): minimax to depth 3 with
//! alpha-beta pruning, ordered moves and a table of evaluated boards, over the stones'
//! bounding box, scored by the "combo" evaluation.
//!
//! From the document (§4.1.11):
//! - Evaluation (`GetComboEval`): every run ("combo") of one player's stones along each
//!   direction is counted once; an open combo of 1, 2, 3, 4 scores 1, 10, 50, 200, half
//!   that with one end blocked, nothing with both ends blocked; the bot's combos add, the
//!   opponent's subtract.
//! - Search: minimax, depth 3 on the hard level, alpha-beta, moves ordered by a quick
//!   guess (own stones toward a five and opponent stones, in the eight directions), and
//!   a table of already evaluated boards keyed by Zobrist hash.
//! - Moves: the rectangle spanned by the stones.
//! - First move: a random point near the centre (`size/2 - 2 + rand % 3` per axis).
//!
//! Left open by the document, chosen here: the rectangle is grown by one point on each
//! side (otherwise no line could ever grow past the outermost stones); a board edge
//! blocks a combo like an opponent stone does; a combo of five or more scores 1000; a
//! move that wins ends the search there, scored 100000 (+ remaining depth, so sooner
//! is better).

use std::collections::HashMap;

use banco_rules::caro::rules::winning_line;
use banco_rules::caro::{Board, Game, Point, Stone};

use super::{DIRECTIONS, SeedBot, Seen, first_empty, seen};
use crate::rng::Rng;

/// The hard level's depth.
const DEPTH: u32 = 3;
const WIN: i64 = 100_000;

/// Console Caro's bot.
pub struct ConsoleCaro {
    /// For the first move's random point.
    rng: Rng,
    /// Evaluated boards (hash -> score for the bot), kept for one move.
    table: HashMap<u64, i64>,
}

impl ConsoleCaro {
    pub fn new(seed: u64) -> ConsoleCaro {
        ConsoleCaro {
            rng: Rng::new(seed),
            table: HashMap::new(),
        }
    }
}

impl SeedBot for ConsoleCaro {
    fn name(&self) -> &'static str {
        "seed:console-caro"
    }

    fn choose(&mut self, game: &Game) -> Option<Point> {
        let board = game.board();
        if board.stones() == 0 {
            let w = i32::from(board.width());
            let h = i32::from(board.height());
            let x = (w / 2 - 2 + self.rng.below(3) as i32).clamp(0, w - 1);
            let y = (h / 2 - 2 + self.rng.below(3) as i32).clamp(0, h - 1);
            return Some(Point::new(x as u8, y as u8));
        }
        self.table.clear();
        let me = game.to_move();
        let mut board = board.clone();
        let mut best = None;
        let mut alpha = i64::MIN + 1;
        for p in ordered_moves(&board, me) {
            board.place(p, me);
            let score = if winning_line(&board, p, game.rule()).is_some() {
                WIN + i64::from(DEPTH)
            } else {
                self.minimax(&mut board, game, DEPTH - 1, alpha, i64::MAX, false, me)
            };
            board.remove(p);
            if best.is_none() || score > alpha {
                alpha = score;
                best = Some(p);
            }
        }
        best.or_else(|| first_empty(&board))
    }
}

impl ConsoleCaro {
    /// Minimax with alpha-beta; `maximizing` is the bot's turn. Scores are the bot's.
    #[allow(clippy::too_many_arguments)]
    fn minimax(
        &mut self,
        board: &mut Board,
        game: &Game,
        depth: u32,
        mut alpha: i64,
        mut beta: i64,
        maximizing: bool,
        me: Stone,
    ) -> i64 {
        if depth == 0 {
            let key = board.hash();
            if let Some(v) = self.table.get(&key) {
                return *v;
            }
            let v = combo_eval(board, me);
            self.table.insert(key, v);
            return v;
        }
        let mover = if maximizing { me } else { me.opponent() };
        let moves = ordered_moves(board, mover);
        if moves.is_empty() {
            return combo_eval(board, me);
        }
        let mut value = if maximizing { i64::MIN + 1 } else { i64::MAX };
        for p in moves {
            board.place(p, mover);
            let score = if winning_line(board, p, game.rule()).is_some() {
                let w = WIN + i64::from(depth);
                if maximizing { w } else { -w }
            } else {
                self.minimax(board, game, depth - 1, alpha, beta, !maximizing, me)
            };
            board.remove(p);
            if maximizing {
                value = value.max(score);
                alpha = alpha.max(value);
            } else {
                value = value.min(score);
                beta = beta.min(value);
            }
            if alpha >= beta {
                break;
            }
        }
        value
    }
}

/// The empty points of the stones' bounding box grown by one, best guess first.
fn ordered_moves(board: &Board, mover: Stone) -> Vec<Point> {
    let (mut x0, mut y0, mut x1, mut y1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
    for p in board.points() {
        if board.stone_at(p).is_some() {
            x0 = x0.min(i32::from(p.x));
            y0 = y0.min(i32::from(p.y));
            x1 = x1.max(i32::from(p.x));
            y1 = y1.max(i32::from(p.y));
        }
    }
    if x0 > x1 {
        return Vec::new();
    }
    let mut moves: Vec<(i64, Point)> = Vec::new();
    for y in (y0 - 1).max(0)..=(y1 + 1).min(i32::from(board.height()) - 1) {
        for x in (x0 - 1).max(0)..=(x1 + 1).min(i32::from(board.width()) - 1) {
            if board.cell(x, y) == Some(None) {
                moves.push((guess(board, x, y, mover), Point::new(x as u8, y as u8)));
            }
        }
    }
    // Stable: equal guesses keep board order, as a C++ std::stable_sort would.
    moves.sort_by_key(|m| std::cmp::Reverse(m.0));
    moves.into_iter().map(|m| m.1).collect()
}

/// The document's quick guess (§4.1.11.4.3): in each of the eight directions, the fewer
/// stones the mover still lacks for a five the better, and the more opponent stones lie
/// there the better (blocking them).
fn guess(board: &Board, x: i32, y: i32, mover: Stone) -> i64 {
    let mut score = 0;
    for (dx, dy) in DIRECTIONS {
        for sign in [-1, 1] {
            let mut own = 0;
            let mut open = true;
            for k in 1..=4 {
                match seen(board, x + sign * dx * k, y + sign * dy * k, mover) {
                    Seen::Mine => own += 1,
                    Seen::Empty => {}
                    Seen::Theirs | Seen::Off => {
                        open = false;
                        break;
                    }
                }
            }
            if open || own > 0 {
                score += 5 - (4 - own); // fewer missing -> higher
            }
            let mut theirs = 0;
            for k in 1..=4 {
                if seen(board, x + sign * dx * k, y + sign * dy * k, mover) == Seen::Theirs {
                    theirs += 1;
                } else {
                    break;
                }
            }
            score += theirs;
        }
    }
    score
}

/// `GetComboEval`: the bot's combos minus the opponent's.
fn combo_eval(board: &Board, me: Stone) -> i64 {
    let mut total = 0;
    for p in board.points() {
        let Some(stone) = board.stone_at(p) else {
            continue;
        };
        let (x, y) = (i32::from(p.x), i32::from(p.y));
        for (dx, dy) in DIRECTIONS {
            // Count each combo once: from its first stone in this direction.
            if board.cell(x - dx, y - dy) == Some(Some(stone)) {
                continue;
            }
            let mut len = 0;
            while board.cell(x + dx * len, y + dy * len) == Some(Some(stone)) {
                len += 1;
            }
            let blocked = |cx: i32, cy: i32| board.cell(cx, cy) != Some(None);
            let ends =
                i64::from(blocked(x - dx, y - dy)) + i64::from(blocked(x + dx * len, y + dy * len));
            let base = match len {
                1 => 1,
                2 => 10,
                3 => 50,
                4 => 200,
                _ => 1000,
            };
            let value = match ends {
                0 => base,
                1 => base / 2,
                _ => 0,
            };
            if stone == me {
                total += value;
            } else {
                total -= value;
            }
        }
    }
    total
}
