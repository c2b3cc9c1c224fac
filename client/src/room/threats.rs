//! The four warning (seed 000's "cảnh báo nước 4"): where a player threatens to win.
//!
//! The engine's threat finder ([`banco_engine::caro::threats`]) reads fours and open
//! threes exactly under every rule; this module boils them down to what the board
//! marks: the points that would complete a five (answer now or lose), and the points
//! that stop an open three (answer soon).

use banco_engine::caro::{ThreatKind, threats};
use banco_rules::caro::{Game, Point, Stone};

/// What the board marks for one player's threats.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Warnings {
    /// Empty points where the player would make five with their next stone.
    pub fives: Vec<Point>,
    /// Empty points that stop one of the player's open threes.
    pub three_stops: Vec<Point>,
}

/// The warnings for `stone`'s threats in `game`.
pub fn warnings(game: &Game, stone: Stone) -> Warnings {
    let mut w = Warnings::default();
    for t in threats(game.board(), stone, game.rule()) {
        match t.kind {
            ThreatKind::Four | ThreatKind::OpenFour => w.fives.extend(t.completions),
            ThreatKind::OpenThree => w.three_stops.extend(t.defences),
        }
    }
    w.fives.sort();
    w.fives.dedup();
    w.three_stops.sort();
    w.three_stops.dedup();
    w.three_stops.retain(|p| !w.fives.contains(p));
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_rules::caro::Rule;

    fn game(rule: Rule, xs: &[(u8, u8)], os: &[(u8, u8)]) -> Game {
        let mut g = Game::new(15, 15, rule).unwrap();
        for i in 0..xs.len().max(os.len()) {
            if let Some(&(x, y)) = xs.get(i) {
                g.play(Point::new(x, y)).unwrap();
            }
            if let Some(&(x, y)) = os.get(i) {
                g.play(Point::new(x, y)).unwrap();
            }
        }
        g
    }

    #[test]
    fn an_open_four_marks_both_ends() {
        let g = game(
            Rule::Freestyle,
            &[(3, 7), (4, 7), (5, 7), (6, 7)],
            &[(0, 0), (0, 2), (0, 4), (14, 14)],
        );
        let w = warnings(&g, Stone::X);
        assert_eq!(w.fives, [Point::new(2, 7), Point::new(7, 7)]);
    }

    #[test]
    fn an_open_three_marks_its_stops_and_a_dead_five_is_no_threat() {
        let g = game(
            Rule::Caro,
            &[(5, 5), (6, 5), (7, 5)],
            &[(0, 0), (0, 2), (14, 14)],
        );
        let w = warnings(&g, Stone::X);
        assert!(w.fives.is_empty());
        assert!(w.three_stops.contains(&Point::new(4, 5)), "{w:?}");
        assert!(w.three_stops.contains(&Point::new(8, 5)), "{w:?}");

        // Under the caro rule, four blocked at both ends makes no five: nothing to warn.
        let g = game(
            Rule::Caro,
            &[(1, 5), (2, 5), (3, 5), (4, 5)],
            &[(0, 5), (6, 5), (9, 9), (10, 10)],
        );
        assert_eq!(warnings(&g, Stone::X), Warnings::default());
    }
}
