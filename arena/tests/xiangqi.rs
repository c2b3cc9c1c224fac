//! Xiangqi in the arena: the `banco-uci` binary driven as an external engine, the Xiangqi thesis' engine,
//! and a short match from an arranged position.

use std::time::Duration;

use banco_arena::matches::Match;
use banco_arena::openings::Opening;
use banco_arena::player::Player;
use banco_arena::spec::PlayerSpec;
use banco_rules::game::{EndReason, Game, GameSpec, Move};

fn banco_uci() -> PlayerSpec {
    PlayerSpec::Uci(env!("CARGO_BIN_EXE_banco-uci").to_string())
}

#[test]
fn banco_uci_plays_through_the_manager() {
    let spec = GameSpec::Xiangqi { fen: None };
    let mut engine = banco_uci().build(1).unwrap();
    // Named after its own `id name`.
    assert!(engine.name().starts_with("uci:banco-"), "{}", engine.name());
    engine.new_game(&spec).unwrap();
    let mut game = Game::new(&spec).unwrap();
    for _ in 0..4 {
        let reply = engine.play(&game, Some(Duration::from_millis(50))).unwrap();
        game.play(reply.mv).unwrap();
    }
    assert_eq!(game.plies(), 4);

    // From an arranged position it sees the mate in one.
    let spec = GameSpec::Xiangqi {
        fen: Some("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1".into()),
    };
    engine.new_game(&spec).unwrap();
    let mut game = Game::new(&spec).unwrap();
    let reply = engine
        .play(&game, Some(Duration::from_millis(200)))
        .unwrap();
    assert_eq!(reply.mv, Move::Xiangqi("b0b9".parse().unwrap()));
    let end = game.play(reply.mv).unwrap().unwrap();
    assert_eq!(end.reason, EndReason::Checkmate);
}

#[test]
fn caro_players_refuse_xiangqi_and_back() {
    let xiangqi = GameSpec::Xiangqi { fen: None };
    let mut seed = "seed:xiangqi-thesis"
        .parse::<PlayerSpec>()
        .unwrap()
        .build(1)
        .unwrap();
    assert!(seed.new_game(&xiangqi).is_ok());
    let caro = GameSpec::Caro {
        width: 15,
        height: 15,
        rule: banco_rules::caro::Rule::Caro,
        opening: Vec::new(),
    };
    assert!(seed.new_game(&caro).is_err());
    let mut uci = banco_uci().build(1).unwrap();
    assert!(uci.new_game(&caro).is_err());
}

#[test]
fn a_short_match_from_an_arranged_position() {
    // Two chariots against a lone general: whoever has Red mates quickly.
    let fen = "4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1";
    let m = Match {
        spec: GameSpec::Xiangqi {
            fen: Some(fen.into()),
        },
        games: Some(2),
        openings: vec![Opening {
            moves: Vec::new(),
            line: 0,
        }],
        budgets: [Some(Duration::from_millis(100)); 2],
        nodes: None,
        record_dir: None,
        pgn: None,
        sprt: None,
        concurrency: 1,
        swap: None,
        clock: None,
    };
    let mut players: [Box<dyn Player>; 2] = [
        "banco:medium"
            .parse::<PlayerSpec>()
            .unwrap()
            .build(1)
            .unwrap(),
        "seed:xiangqi-thesis"
            .parse::<PlayerSpec>()
            .unwrap()
            .build(2)
            .unwrap(),
    ];
    let mut games = Vec::new();
    let report = m.play(&mut players, |r, _| games.push(r.clone())).unwrap();
    assert_eq!(games.len(), 2);
    for g in &games {
        // Red wins: by mate, or by leaving Black no move at all (which also loses).
        assert_eq!(g.winner, Some(g.first), "{g:?}");
        assert!(g.reason == "checkmate" || g.reason == "stalemate", "{g:?}");
    }
    assert_eq!((report.tally.wins, report.tally.losses), (1, 1));
}

#[test]
fn a_game_clock_reaches_the_uci_engine_as_wtime_and_btime() {
    // banco-uci plans from `go wtime btime winc binc`: two games on a 3 s + 0.1 s clock
    // against banco's own easy bot end on the board, nobody's flag down.
    let m = Match {
        clock: Some("3+0.1".parse().unwrap()),
        ..Match::new(
            GameSpec::Xiangqi {
                fen: Some("4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1".into()),
            },
            2,
            vec![Opening {
                moves: Vec::new(),
                line: 0,
            }],
        )
    };
    let mut players: [Box<dyn Player>; 2] = [
        "banco:easy"
            .parse::<PlayerSpec>()
            .unwrap()
            .build(1)
            .unwrap(),
        banco_uci().build(2).unwrap(),
    ];
    let mut games = Vec::new();
    let report = m.play(&mut players, |r, _| games.push(r.clone())).unwrap();
    assert_eq!(report.forfeits, [0, 0], "{games:?}");
    for g in &games {
        assert_eq!(g.winner, Some(g.first), "{g:?}");
    }
    for s in report.stats {
        let lowest = s.lowest_clock.expect("a clock was kept");
        assert!(
            lowest > Duration::ZERO && lowest < Duration::from_secs(3),
            "{lowest:?}"
        );
    }
}
