//! Web Caro (JavaScript caro, a "computer vs computer" blog post; seed document 003):
//! one-ply scoring by the longest run each side would have through a point, from two
//! `MAP_SCORE` tables.
//!
//! From the document (`getPointsComputer`), for every empty point:
//! `score = MAP_SCORE_COMPUTER[max run of own stones through it]
//!        + MAP_POINT_HUMAN[max run of opponent stones through it - 1]`, where a run counts
//! the point itself plus up to four stones on each side in one of the four directions
//! (`getHorizontal` and friends start their count at 1), with
//! `MAP_SCORE_COMPUTER = {5: Infinity, 4: 2000, 3: 500, 2: 300, 1: 100}` and
//! `MAP_POINT_HUMAN = {4: 999999, 3: 1000, 2: 400, 1: 10, 0: 0}`. The move is drawn at
//! random among the points with the highest score.
//!
//! Kept from the original: a run longer than the tables know (six and up) looks up
//! `undefined`, which makes the score `NaN` in JavaScript, and a `NaN` point is never
//! chosen; if every point is `NaN` the original plays nothing, here the first empty point.

use banco_rules::caro::{Board, Game, Point, Stone};

use super::{DIRECTIONS, SeedBot, first_empty};
use crate::rng::Rng;

/// Web Caro's bot.
pub struct WebCaro {
    /// The random draw among equally scored points.
    rng: Rng,
}

impl WebCaro {
    pub fn new(seed: u64) -> WebCaro {
        WebCaro {
            rng: Rng::new(seed),
        }
    }
}

/// `MAP_SCORE_COMPUTER`; `None` for a run the table does not know (`undefined`).
fn computer_score(run: usize) -> Option<f64> {
    match run {
        5 => Some(f64::INFINITY),
        4 => Some(2000.0),
        3 => Some(500.0),
        2 => Some(300.0),
        1 => Some(100.0),
        _ => None,
    }
}

/// `MAP_POINT_HUMAN`.
fn human_score(run: usize) -> Option<f64> {
    match run {
        4 => Some(999_999.0),
        3 => Some(1000.0),
        2 => Some(400.0),
        1 => Some(10.0),
        0 => Some(0.0),
        _ => None,
    }
}

/// The longest run of `stone` through empty (x, y) if it stood there, over the four
/// directions: the point plus up to four stones each way.
fn longest_run(board: &Board, x: i32, y: i32, stone: Stone) -> usize {
    DIRECTIONS
        .iter()
        .map(|&(dx, dy)| {
            let mut count = 1;
            for sign in [1, -1] {
                for k in 1..5 {
                    if board.cell(x + sign * dx * k, y + sign * dy * k) == Some(Some(stone)) {
                        count += 1;
                    } else {
                        break;
                    }
                }
            }
            count
        })
        .max()
        .unwrap_or(1)
}

impl SeedBot for WebCaro {
    fn name(&self) -> &'static str {
        "seed:web-caro"
    }

    fn choose(&mut self, game: &Game) -> Option<Point> {
        let board = game.board();
        let me = game.to_move();
        let mut max = f64::NEG_INFINITY;
        let mut best: Vec<Point> = Vec::new();
        for p in board.points() {
            if !board.is_empty_at(p) {
                continue;
            }
            let (x, y) = (i32::from(p.x), i32::from(p.y));
            let own = computer_score(longest_run(board, x, y, me));
            let theirs = human_score(longest_run(board, x, y, me.opponent()) - 1);
            let (Some(own), Some(theirs)) = (own, theirs) else {
                continue; // NaN: never chosen.
            };
            let score = own + theirs;
            if score > max {
                max = score;
                best.clear();
            }
            if score == max {
                best.push(p);
            }
        }
        if best.is_empty() {
            return first_empty(board);
        }
        Some(best[self.rng.below(best.len())])
    }
}
