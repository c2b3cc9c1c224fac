//! What the rules say about the position, for members whose client does not carry the
//! rules (the browser page): the legal xiangqi moves, check, and the four warning's
//! threats in caro. Worked out on the room task: each is a single scan of the board.

use banco_engine::caro::{ThreatKind, threats};
use banco_protocol::{ErrorMsg, PositionFacts, Seat, ServerMsg};
use banco_rules::caro;
use banco_rules::game::Game;

use super::Room;
use super::moves::to_wire;
use crate::ClientId;

impl Room {
    /// Answers a member's question about the current position. Before the first game
    /// the answer is empty (game 0).
    pub(super) fn facts(&mut self, client: ClientId) -> Result<(), ErrorMsg> {
        let answer = match &self.game {
            Some(m) => position_facts(&m.position, m.number, m.first, m.running()),
            None => PositionFacts::default(),
        };
        self.tell(client, ServerMsg::Facts(Box::new(answer)));
        Ok(())
    }
}

/// The facts of `game`, game number `number` of its room, whose seat `first` moved first;
/// a game no longer `running` has no legal moves.
pub fn position_facts(game: &Game, number: u32, first: Seat, running: bool) -> PositionFacts {
    let mut facts = PositionFacts {
        game: number,
        ply: u32::try_from(game.plies()).unwrap_or(u32::MAX),
        ..PositionFacts::default()
    };
    match game {
        Game::Caro(g) => {
            for seat in Seat::BOTH {
                let stone = if seat == first {
                    g.first_stone()
                } else {
                    g.first_stone().opponent()
                };
                let (fives, stops) = warnings(g, stone);
                facts.fives[seat.index()] = fives;
                facts.three_stops[seat.index()] = stops;
            }
        }
        Game::Xiangqi(g) => {
            facts.check = g.in_check();
            if running {
                facts.legal = g
                    .legal_moves()
                    .into_iter()
                    .map(|m| to_wire(banco_rules::game::Move::Xiangqi(m)))
                    .collect();
            }
        }
    }
    facts
}

/// Where `stone` would make five next move, and the points that stop its open threes
/// (the fives left out), each sorted: what the terminal client's four warning marks.
fn warnings(game: &caro::Game, stone: caro::Stone) -> (Vec<caro::Point>, Vec<caro::Point>) {
    let (mut fives, mut stops) = (Vec::new(), Vec::new());
    for t in threats(game.board(), stone, game.rule()) {
        match t.kind {
            ThreatKind::Four | ThreatKind::OpenFour => fives.extend(t.completions),
            ThreatKind::OpenThree => stops.extend(t.defences),
        }
    }
    fives.sort();
    fives.dedup();
    stops.sort();
    stops.dedup();
    stops.retain(|p| !fives.contains(p));
    (fives, stops)
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_protocol::XqSquare;
    use banco_rules::caro::{Point, Rule};
    use banco_rules::game::{GameSpec, Move};

    #[test]
    fn caro_threats_are_told_by_the_seat_that_makes_them() {
        let mut game = Game::new(&GameSpec::Caro {
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
            opening: vec![],
        })
        .unwrap();
        // Seat Two moved first (plays X): X h8 i8 j8 k8 in a row, O far away.
        for (i, x) in [3u8, 4, 5, 6].iter().enumerate() {
            game.play(Move::Caro(Point::new(*x, 7))).unwrap();
            game.play(Move::Caro(Point::new(i as u8 * 2, 0))).unwrap();
        }
        let facts = position_facts(&game, 2, Seat::Two, true);
        assert_eq!((facts.game, facts.ply), (2, 8));
        assert_eq!(facts.fives[1], vec![Point::new(2, 7), Point::new(7, 7)]);
        assert!(facts.fives[0].is_empty());
        assert!(facts.legal.is_empty() && !facts.check);
    }

    #[test]
    fn xiangqi_legal_moves_and_check_come_with_the_position() {
        let game = Game::new(&GameSpec::Xiangqi { fen: None }).unwrap();
        let facts = position_facts(&game, 1, Seat::One, true);
        assert_eq!(facts.legal.len(), 44);
        let cannon = banco_protocol::Move::Xiangqi {
            from: XqSquare { file: 7, rank: 2 },
            to: XqSquare { file: 4, rank: 2 },
        };
        assert!(facts.legal.contains(&cannon));
        assert!(!facts.check);
        // A rook on the black general's file: Black to move is in check.
        let game = Game::new(&GameSpec::Xiangqi {
            fen: Some("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1".into()),
        })
        .unwrap();
        let facts = position_facts(&game, 1, Seat::One, true);
        assert!(facts.check);
        assert!(!facts.legal.is_empty());
        assert!(position_facts(&game, 1, Seat::One, false).legal.is_empty());
    }
}
