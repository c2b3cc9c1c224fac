//! Caro in the arena: the `pbrain-banco` binary driven as an external Gomocup engine
//! (both halves of the protocol, one against the other), and a short match against it.

use std::time::Duration;

use banco_arena::matches::Match;
use banco_arena::openings::Opening;
use banco_arena::player::{Player, PlayerSpec};
use banco_engine::caro::{Point, Rule};
use banco_engine::game::{EndReason, Game, GameSpec, Move, Side};

fn pbrain_banco() -> PlayerSpec {
    PlayerSpec::Gomocup(format!(
        "{} --level medium",
        env!("CARGO_BIN_EXE_pbrain-banco")
    ))
}

fn caro(width: u8, height: u8) -> GameSpec {
    GameSpec::Caro {
        width,
        height,
        rule: Rule::Caro,
        opening: Vec::new(),
    }
}

fn at(x: u8, y: u8) -> Move {
    Move::Caro(Point::new(x, y))
}

#[test]
fn pbrain_banco_plays_through_the_manager() {
    let mut engine = pbrain_banco().build(1).unwrap();
    let budget = Some(Duration::from_millis(100));

    // BEGIN on an empty board, then TURN for each of the opponent's moves.
    let spec = caro(15, 15);
    engine.new_game(&spec).unwrap();
    let mut game = Game::new(&spec).unwrap();
    let first = engine.play(&game, budget).unwrap();
    game.play(first.mv).unwrap();
    for mv in [at(0, 0), at(14, 14)] {
        game.play(mv).unwrap();
        let reply = engine.play(&game, budget).unwrap();
        game.play(reply.mv).unwrap();
    }
    assert_eq!(game.plies(), 5);

    // A later game in the same process (RESTART), on a rectangular board, handed a position
    // it did not see played (BOARD ... DONE): it completes its five at once.
    let spec = caro(20, 12);
    engine.new_game(&spec).unwrap();
    let mut game = Game::new(&spec).unwrap();
    for (x, y) in [
        (5, 5),
        (0, 11),
        (6, 5),
        (19, 0),
        (7, 5),
        (0, 0),
        (8, 5),
        (19, 11),
    ] {
        game.play(at(x, y)).unwrap();
    }
    let reply = engine.play(&game, budget).unwrap();
    assert!(
        reply.mv == at(4, 5) || reply.mv == at(9, 5),
        "{:?}",
        reply.mv
    );
    let end = game.play(reply.mv).unwrap().unwrap();
    assert_eq!(end.reason, EndReason::Five);
    assert_eq!(end.winner, Some(Side::First));
}

#[test]
fn a_short_match_against_the_external_engine() {
    let m = Match {
        spec: caro(15, 15),
        games: 2,
        openings: vec![Opening {
            moves: Vec::new(),
            line: 0,
        }],
        budget: Some(Duration::from_millis(50)),
        record_dir: None,
    };
    let mut players: [Box<dyn Player>; 2] = [
        "banco:easy"
            .parse::<PlayerSpec>()
            .unwrap()
            .build(1)
            .unwrap(),
        pbrain_banco().build(2).unwrap(),
    ];
    let mut reasons = Vec::new();
    m.play(&mut players, |game, _| reasons.push(game.reason.clone()))
        .unwrap();
    // Both games ended by the rules (a five or a full board), neither by a crash or a
    // late or illegal move of the external engine.
    assert_eq!(reasons.len(), 2);
    for reason in &reasons {
        assert!(reason == "five" || reason == "board_full", "{reason}");
    }
}
