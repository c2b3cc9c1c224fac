//! What the rules say about the position, for members whose client does not carry the
//! rules (the browser page): the legal xiangqi moves, check, and the four warning's
//! threats in caro. Worked out on the room task: each is a single scan of the board.
//! Trial moves (the page's draft mode) are played on a copy of the position the same
//! way, at most [`MAX_TRIAL_MOVES`] of them: the page carries no rules for them either.

use banco_engine::caro::{ThreatKind, threats};
use banco_protocol::{
    ErrorCode, ErrorMsg, GameOver, GameSettings, MAX_TRIAL_MOVES, Move, MoveRecord, PositionFacts,
    Seat, ServerMsg, Trial,
};
use banco_rules::caro;
use banco_rules::game::{Game, IllegalMove};

use super::Room;
use super::moves::{to_rules, to_wire};
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

impl Room {
    /// Plays a member's trial moves on a copy of the current position and tells them
    /// which stand, how they read and what the rules say after them. Nothing changes in
    /// the room.
    pub(super) fn trial(&mut self, client: ClientId, asked: Vec<Move>) -> Result<(), ErrorMsg> {
        if asked.len() > MAX_TRIAL_MOVES {
            return Err(ErrorMsg::new(
                ErrorCode::Malformed,
                format!("try at most {MAX_TRIAL_MOVES} moves at once"),
            ));
        }
        let Some(m) = &self.game else {
            return Err(ErrorMsg::new(
                ErrorCode::NoGame,
                "there is no game to try moves on yet",
            ));
        };
        let answer = trial(&m.position, &self.settings.game, m.number, m.first, asked);
        self.tell(client, ServerMsg::Tried(Box::new(answer)));
        Ok(())
    }
}

/// `asked` played on a copy of `position` (game `number`, whose seat `first` moved
/// first), up to the first move the rules refuse.
pub fn trial(
    position: &Game,
    settings: &GameSettings,
    number: u32,
    first: Seat,
    asked: Vec<Move>,
) -> Trial {
    let mut game = position.clone();
    let base = game.plies();
    let seat = |side| match side {
        banco_rules::game::Side::First => first,
        banco_rules::game::Side::Second => first.other(),
    };
    let mut moves = Vec::new();
    let mut refused = None;
    let mut over = None;
    for mv in &asked {
        if game.ending().is_some() {
            refused = Some("the game is over on the draft board".to_string());
            break;
        }
        let by = seat(game.to_move());
        let played = to_rules(*mv)
            .ok_or(IllegalMove::WrongGame)
            .and_then(|rules| game.play(rules));
        match played {
            Ok(ending) => {
                let note = game.note(game.plies() - 1).unwrap_or_default();
                moves.push(MoveRecord {
                    mv: *mv,
                    by,
                    wxf: note.wxf,
                    check: note.check,
                });
                over = ending.map(|e| GameOver {
                    winner: e.winner.map(seat),
                    reason: e.reason.into(),
                    line: e.line,
                });
            }
            Err(e) => {
                refused = Some(refusal(&e, mv, settings));
                break;
            }
        }
    }
    let mut facts = position_facts(&game, number, first, over.is_none());
    facts.ply = u32::try_from(base).unwrap_or(u32::MAX);
    Trial {
        asked,
        game: number,
        ply: facts.ply,
        moves,
        refused,
        facts,
        over,
    }
}

/// Why a trial move is refused, naming a caro point as the board labels it.
fn refusal(e: &IllegalMove, mv: &Move, settings: &GameSettings) -> String {
    match (e, mv, settings) {
        (
            IllegalMove::Caro(caro::MoveError::Occupied(_)),
            Move::Caro(p),
            GameSettings::Caro { width, height, .. },
        ) => format!(
            "{} is already taken",
            caro::notation::point_name(*p, *width, *height)
        ),
        (other, _, _) => other.to_string(),
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
            if running {
                facts.forbidden = g
                    .forbidden_points()
                    .into_iter()
                    .map(|(point, foul)| banco_protocol::ForbiddenPoint {
                        point,
                        foul: banco_protocol::Foul::of(foul),
                    })
                    .collect();
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
    use banco_protocol::{GameSettings, XqSquare};
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
    fn trial_moves_stand_until_the_rules_refuse_one() {
        let settings = banco_protocol::GameSettings::caro_default();
        let game = Game::new(&GameSpec::Caro {
            width: 15,
            height: 15,
            rule: Rule::Caro,
            opening: vec![],
        })
        .unwrap();
        let a1 = banco_protocol::Move::Caro(Point::new(0, 14));
        let b2 = banco_protocol::Move::Caro(Point::new(1, 13));
        let t = trial(&game, &settings, 1, Seat::Two, vec![a1, b2, a1, b2]);
        assert_eq!(t.moves.len(), 2);
        assert_eq!((t.moves[0].by, t.moves[1].by), (Seat::Two, Seat::One));
        assert_eq!(t.refused.as_deref(), Some("a1 is already taken"));
        assert_eq!((t.game, t.ply, t.asked.len()), (1, 0, 4));
        assert_eq!(game.plies(), 0, "the room's position is untouched");
        // Xiangqi: the notes are the rules', and an illegal move says why.
        let xq = Game::new(&GameSpec::Xiangqi { fen: None }).unwrap();
        let cannon = banco_protocol::Move::Xiangqi {
            from: XqSquare { file: 7, rank: 2 },
            to: XqSquare { file: 4, rank: 2 },
        };
        let t = trial(
            &xq,
            &GameSettings::Xiangqi { fen: None },
            3,
            Seat::One,
            vec![cannon, cannon],
        );
        assert_eq!(t.moves[0].wxf, "C2.5");
        assert!(t.refused.is_some());
        let mut after = xq.clone();
        after.play(to_rules(cannon).unwrap()).unwrap();
        let black = position_facts(&after, 3, Seat::One, true);
        assert_eq!(t.facts.legal, black.legal, "Black's moves after C2.5");
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
