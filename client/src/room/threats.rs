//! The four warning (seed 000's "cảnh báo nước 4"): the points where a player would
//! complete a winning five with their next stone, under the room's rule.
//!
//! This is a rule question, not a search: each empty point next to the player's stones
//! is tried with the engine's own win test. Open threes need the engine's threat
//! detection and join here when it exists.

use banco_engine::caro::rule::winning_line;
use banco_engine::caro::{Game, Point, Stone};

/// Every empty point where `stone` would win at once.
pub fn winning_points(game: &Game, stone: Stone) -> Vec<Point> {
    let mut board = game.board().clone();
    let rule = game.rule();
    let mut out = Vec::new();
    let candidates: Vec<Point> = board
        .points()
        .filter(|p| board.is_empty_at(*p) && near(&board, *p, stone))
        .collect();
    for p in candidates {
        board.place(p, stone);
        if winning_line(&board, p, rule).is_some() {
            out.push(p);
        }
        board.remove(p);
    }
    out
}

/// Whether `stone` has a stone next to `p` (a five through `p` needs one).
fn near(board: &banco_engine::caro::Board, p: Point, stone: Stone) -> bool {
    (-1..=1).any(|dy| {
        (-1..=1).any(|dx| board.cell(i32::from(p.x) + dx, i32::from(p.y) + dy) == Some(Some(stone)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_engine::caro::Rule;

    #[test]
    fn finds_both_ends_of_an_open_four_and_respects_the_rule() {
        let mut g = Game::new(15, 15, Rule::Freestyle).unwrap();
        // X: (3..7, 7), O scattered far away.
        for i in 0..4 {
            g.play(Point::new(3 + i, 7)).unwrap();
            g.play(Point::new(i, 0)).unwrap();
        }
        let mut w = winning_points(&g, Stone::X);
        w.sort();
        assert_eq!(w, [Point::new(2, 7), Point::new(7, 7)]);
        // O has four in a row on the top edge too: (0..4, 0) -> only (4, 0) wins.
        assert_eq!(winning_points(&g, Stone::O), [Point::new(4, 0)]);

        // Under the caro rule a five blocked at both ends does not win.
        let mut g = Game::new(15, 15, Rule::Caro).unwrap();
        let xs = [(1, 5), (2, 5), (3, 5), (4, 5)];
        let os = [(0, 5), (6, 5), (9, 9), (10, 10)];
        for (x, o) in xs.iter().zip(os) {
            g.play(Point::new(x.0, x.1)).unwrap();
            g.play(Point::new(o.0, o.1)).unwrap();
        }
        assert!(winning_points(&g, Stone::X).is_empty());
    }
}
