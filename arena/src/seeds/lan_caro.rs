//! LAN Caro (C# WinForms LAN caro, UIT 2022, chương V; seed document 001): every empty
//! point scored by attack and defence tables, the best one played; no look-ahead.
//!
//! From the document:
//! - `Attack = {0, 9, 54, 162, 1458, 13112, 118008}`,
//!   `Defense = {0, 3, 27, 99, 729, 6561, 59049}`.
//! - Each point is scanned in the 8 directions, 4 points deep (the point itself not
//!   counted); the number of own stones picks an attack score, the number of enemy
//!   stones a defence score; `Caculate(x, y) = EnemyChessess(x, y) + ComputerChessess(x, y)`.
//! - `CptFindChess` scans rows and columns from index 1 and keeps the first point with
//!   the strictly highest score (starting from 0 at (1, 1)).
//!
//! The document shows the counting loops but not how blocked ends enter the score; that
//! comes from the code family the document's tables come from (the classic Vietnamese C#
//! caro AI): along one line, attack counts own stones out from the point until an empty
//! point or an enemy stone (counted, and the scan stops); two enemy stones (blocked both
//! ways) score 0, otherwise `Attack[own] - 2 * Defense[enemy + 1]`. Defence mirrors it:
//! enemy stones counted until an empty point or an own stone (counted, stops); two own
//! stones score 0, otherwise `Defense[enemy]`.
//!
//! Quirk kept: the scan starts at index 1, so the top row and left column are never
//! played. If no point scores above 0 and (1, 1) is taken, the first empty point is
//! played instead of the original's illegal move.

use banco_rules::caro::{Board, Game, Point, Stone};

use super::{DIRECTIONS, SeedBot, Seen, first_empty, seen};

const ATTACK: [i64; 7] = [0, 9, 54, 162, 1458, 13112, 118008];
const DEFENSE: [i64; 7] = [0, 3, 27, 99, 729, 6561, 59049];
/// Points scanned per direction.
const REACH: i32 = 4;

/// LAN Caro's bot.
pub struct LanCaro;

impl SeedBot for LanCaro {
    fn name(&self) -> &'static str {
        "seed:lan-caro"
    }

    fn choose(&mut self, game: &Game) -> Option<Point> {
        let board = game.board();
        let me = game.to_move();
        let mut max = 0;
        let mut best = Point::new(1, 1);
        for y in 1..i32::from(board.height()) {
            for x in 1..i32::from(board.width()) {
                if board.cell(x, y) != Some(None) {
                    continue;
                }
                let score = attack(board, x, y, me) + defence(board, x, y, me);
                if score > max {
                    max = score;
                    best = Point::new(x as u8, y as u8);
                }
            }
        }
        if board.is_empty_at(best) {
            Some(best)
        } else {
            first_empty(board)
        }
    }
}

/// Counts along both halves of one line from (x, y): stones of `counted` until an empty
/// point or a stone of the other kind (which is counted and ends that half).
fn count_line(
    board: &Board,
    x: i32,
    y: i32,
    (dx, dy): (i32, i32),
    me: Stone,
    counted: Seen,
) -> (usize, usize) {
    let mut same = 0;
    let mut other = 0;
    for sign in [1, -1] {
        for k in 1..=REACH {
            match seen(board, x + sign * dx * k, y + sign * dy * k, me) {
                s if s == counted => same += 1,
                Seen::Mine | Seen::Theirs => {
                    other += 1;
                    break;
                }
                _ => break,
            }
        }
    }
    (same, other)
}

fn attack(board: &Board, x: i32, y: i32, me: Stone) -> i64 {
    DIRECTIONS
        .iter()
        .map(|&d| {
            let (own, enemy) = count_line(board, x, y, d, me, Seen::Mine);
            if enemy == 2 {
                0
            } else {
                ATTACK[own.min(6)] - 2 * DEFENSE[(enemy + 1).min(6)]
            }
        })
        .sum()
}

fn defence(board: &Board, x: i32, y: i32, me: Stone) -> i64 {
    DIRECTIONS
        .iter()
        .map(|&d| {
            let (enemy, own) = count_line(board, x, y, d, me, Seen::Theirs);
            if own == 2 { 0 } else { DEFENSE[enemy.min(6)] }
        })
        .sum()
}
