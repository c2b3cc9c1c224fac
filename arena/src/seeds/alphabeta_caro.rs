//! Alpha-beta Caro (the C# caro of a HUST AI course report, 2019; seed document 004):
//! alpha-beta over moves scored by attack and defence tables.
//!
//! From the document (§2):
//! - A move's score (`TinhDiem`) is the larger of its attack score and its defence score,
//!   each the sum over the four directions of a line score built by walking out from the
//!   point on both sides (own stones raise attack; an enemy stone stops the walk; enemy
//!   stones on both sides zero it; mirrored for defence).
//! - `maxValue(depth)`: at depth 0 the best-scoring point (`TimKiemNuocDi`); otherwise,
//!   for each move, its score minus the score of the opponent's answer that `minValue`
//!   picks; `minValue` mirrors it. Alpha-beta cuts both. Depth 2 is the depth the
//!   document's node-count table starts from.
//!
//! The tables are not printed in the document; they are those of the source it cites
//! (the classic Vietnamese C# caro AI, `MangDiemTanCong = {0, 3, 24, 192, 1536, 12288,
//! 98304}`, `MangDiemPhongNgu = {0, 1, 9, 81, 729, 6561, 59049}`, walking up to five
//! points each way, attack line score `Attack[own] - Defense[enemy + 1]`, defence
//! `Defense[enemy]`).
//!
//! Chosen here for speed: the search's moves are the empty points within two of a stone
//! (a point farther away scores no attack and no defence, so it never wins the maximum);
//! the depth-0 choice still scans the whole board as the original does.

use banco_rules::caro::{Board, Game, Point, Stone};

use super::{DIRECTIONS, SeedBot, Seen, first_empty, seen};

const ATTACK: [i64; 7] = [0, 3, 24, 192, 1536, 12288, 98304];
const DEFENSE: [i64; 7] = [0, 1, 9, 81, 729, 6561, 59049];
const DEPTH: u32 = 2;

/// The Alpha-beta Caro report's bot.
pub struct AlphabetaCaro;

impl SeedBot for AlphabetaCaro {
    fn name(&self) -> &'static str {
        "seed:alphabeta-caro"
    }

    fn choose(&mut self, game: &Game) -> Option<Point> {
        let mut board = game.board().clone();
        let me = game.to_move();
        if board.stones() == 0 {
            return Some(Point::new(board.width() / 2, board.height() / 2));
        }
        max_value(&mut board, me, DEPTH, i64::MIN, i64::MAX).or_else(|| first_empty(&board))
    }
}

/// `TinhDiem` for `me` on empty (x, y).
fn score(board: &Board, p: Point, me: Stone) -> i64 {
    let (x, y) = (i32::from(p.x), i32::from(p.y));
    let mut attack = 0;
    let mut defence = 0;
    for (dx, dy) in DIRECTIONS {
        let (mut own, mut enemy) = (0, 0);
        let (mut d_enemy, mut d_own) = (0, 0);
        for sign in [1, -1] {
            for k in 1..6 {
                match seen(board, x + sign * dx * k, y + sign * dy * k, me) {
                    Seen::Mine => own += 1,
                    Seen::Theirs => {
                        enemy += 1;
                        break;
                    }
                    _ => break,
                }
            }
            for k in 1..6 {
                match seen(board, x + sign * dx * k, y + sign * dy * k, me) {
                    Seen::Theirs => d_enemy += 1,
                    Seen::Mine => {
                        d_own += 1;
                        break;
                    }
                    _ => break,
                }
            }
        }
        if enemy < 2 {
            attack += ATTACK[own.min(6)] - DEFENSE[(enemy + 1).min(6)];
        }
        if d_own < 2 {
            defence += DEFENSE[d_enemy.min(6)];
        }
    }
    attack.max(defence)
}

/// `TimKiemNuocDi`: the first point with the strictly highest score (from 0).
fn greedy(board: &Board, me: Stone) -> Option<Point> {
    let mut max = 0;
    let mut best = None;
    for p in board.points() {
        if board.is_empty_at(p) {
            let s = score(board, p, me);
            if s > max {
                max = s;
                best = Some(p);
            }
        }
    }
    best
}

/// Empty points within two of a stone, in board order.
fn moves(board: &Board) -> Vec<Point> {
    board
        .points()
        .filter(|p| {
            board.is_empty_at(*p)
                && (-2..=2).any(|dy| {
                    (-2..=2).any(|dx| {
                        matches!(
                            board.cell(i32::from(p.x) + dx, i32::from(p.y) + dy),
                            Some(Some(_))
                        )
                    })
                })
        })
        .collect()
}

fn max_value(board: &mut Board, me: Stone, depth: u32, mut alpha: i64, beta: i64) -> Option<Point> {
    if depth == 0 {
        return greedy(board, me);
    }
    let mut best = None;
    let mut v = i64::MIN;
    for p in moves(board) {
        let current = score(board, p, me);
        board.place(p, me);
        let reply = min_value(board, me, depth - 1, alpha, beta);
        let value = current - reply.map_or(0, |r| score(board, r, me.opponent()));
        board.remove(p);
        if value > v {
            v = value;
            best = Some(p);
        }
        if v >= beta {
            return best;
        }
        alpha = alpha.max(v);
    }
    best
}

fn min_value(board: &mut Board, me: Stone, depth: u32, alpha: i64, mut beta: i64) -> Option<Point> {
    let them = me.opponent();
    if depth == 0 {
        return greedy(board, them);
    }
    let mut best = None;
    let mut v = i64::MAX;
    for p in moves(board) {
        let current = score(board, p, them);
        board.place(p, them);
        let reply = max_value(board, me, depth - 1, alpha, beta);
        let value = -current + reply.map_or(0, |r| score(board, r, me));
        board.remove(p);
        if value < v {
            v = value;
            best = Some(p);
        }
        if v <= alpha {
            return best;
        }
        beta = beta.min(v);
    }
    best
}
