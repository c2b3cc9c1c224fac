//! Caro in the arena: the `pbrain-banco` binary driven as an external Gomocup engine
//! (both halves of the protocol, one against the other), and a short match against it.

use std::time::Duration;

use banco_arena::matches::Match;
use banco_arena::openings::Opening;
use banco_arena::player::{Player, Reply};
use banco_arena::spec::PlayerSpec;
use banco_rules::caro::swap::{Role, Step, SwapKind};
use banco_rules::caro::{Point, Rule};
use banco_rules::game::{EndReason, Game, GameSpec, Move, Side};

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

/// A Swap2 match between two `pbrain-banco` processes through the manager's
/// `SWAP2BOARD`: each proposes one opening, the other answers, and both games are
/// decided on the board with the stones and who placed them recorded.
#[test]
fn a_swap2_match_between_two_external_engines() {
    let pgn = std::env::temp_dir().join(format!("banco-swap2-{}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&pgn);
    let m = Match {
        swap: Some(SwapKind::Swap2),
        clock: None,
        pgn: Some(pgn.clone()),
        budgets: [Some(Duration::from_millis(100)); 2],
        ..Match::new(
            GameSpec::Caro {
                width: 15,
                height: 15,
                rule: Rule::Freestyle,
                opening: Vec::new(),
            },
            2,
            Vec::new(),
        )
    };
    let engine = || {
        PlayerSpec::Gomocup(format!(
            "{} --level easy",
            env!("CARGO_BIN_EXE_pbrain-banco")
        ))
    };
    let mut players: [Box<dyn Player>; 2] =
        [engine().build(1).unwrap(), engine().build(2).unwrap()];
    let mut games = Vec::new();
    let report = m
        .play(&mut players, |game, _| games.push(game.clone()))
        .unwrap();
    assert_eq!(
        report.forfeits,
        [0, 0],
        "{:?}",
        games.iter().map(|g| &g.reason).collect::<Vec<_>>()
    );
    for (game, proposer) in games.iter().zip([0, 1]) {
        assert!(
            game.reason == "five" || game.reason == "board_full",
            "{}",
            game.reason
        );
        let swap = game.swap.as_ref().expect("a swap opening");
        assert_eq!(swap.proposer, proposer);
        // The proposer's three stones, then (pbrain-banco never places two) a decision.
        let placed: Vec<Role> = swap
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::Stone { by, .. } => Some(*by),
                Step::Decided { .. } => None,
            })
            .collect();
        assert_eq!(placed, [Role::Proposer; 3]);
        assert_eq!(game.book_plies, 3);
        assert!(game.opening.starts_with("swap2: "), "{}", game.opening);
    }
    let swap = report.swap.expect("swap figures");
    assert_eq!(swap.proposing[0].games() + swap.proposing[1].games(), 2);
    assert_eq!(swap.responding[0].games(), 1);
    let text = std::fs::read_to_string(&pgn).unwrap();
    std::fs::remove_file(&pgn).unwrap();
    assert_eq!(text.matches("[Proposer ").count(), 2, "{text}");
    assert_eq!(text.matches("{proposer}").count(), 6, "{text}");
}

#[test]
fn a_short_match_against_the_external_engine() {
    let m = Match {
        spec: caro(15, 15),
        games: Some(2),
        openings: vec![Opening {
            moves: Vec::new(),
            line: 0,
        }],
        budgets: [Some(Duration::from_millis(50)); 2],
        nodes: None,
        record_dir: None,
        pgn: None,
        sprt: None,
        concurrency: 1,
        swap: None,
        clock: None,
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

/// A Gomocup engine with Rapfi's two habits, as a shell script: its first search is slow
/// (it allocates its tables then), and the first line it reads after printing a move loses
/// its first word (it arrived while the engine was still leaving its thinking state), which
/// makes an `INFO timeout_turn ...` an `ERROR`. It plays along row 14 from the left.
const FAKE_RAPFI: &str = r#"
next=0; drop=0; searched=0
while read -r line; do
  if [ "$drop" = 1 ]; then
    drop=0
    set -- $line
    if [ $# -gt 1 ]; then echo "ERROR Unknown command: $2"; fi
    continue
  fi
  case "$line" in
    START*|RESTART*) next=0; echo OK ;;
    ABOUT*) echo 'name="fake-rapfi", version="1"' ;;
    BEGIN*|TURN*|DONE*)
      if [ "$searched" = 0 ]; then sleep 2; searched=1; fi
      echo "$next,14"; next=$((next + 1)); drop=1 ;;
    END*) exit 0 ;;
  esac
done
"#;

/// Plays the first free point of row 0, at once: the engine's next command follows its move
/// as closely as it can.
struct RowZero;

impl Player for RowZero {
    fn name(&self) -> String {
        "row-zero".to_string()
    }

    fn new_game(&mut self, _: &GameSpec) -> anyhow::Result<()> {
        Ok(())
    }

    fn play(&mut self, game: &Game, _: Option<Duration>) -> anyhow::Result<Reply> {
        let Game::Caro(g) = game else {
            anyhow::bail!("caro only");
        };
        let x = (0..15)
            .find(|x| g.board().is_empty_at(Point::new(*x, 0)))
            .unwrap_or(0);
        Ok(Reply::new(at(x, 0), Duration::ZERO))
    }
}

/// The arena copes with such an engine the way established managers do: the slow first
/// search happens in a warm-up before the clock starts, and no command reaches the engine
/// before it is listening, so no game is forfeited although every move is timed at 100 ms
/// (with the arena's tolerance, 1.1 s, less than the engine's 2 s first search).
#[test]
fn an_engine_with_a_slow_first_search_and_a_racy_loop_forfeits_nothing() {
    let dir = std::env::temp_dir().join(format!("banco-fake-rapfi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("fake-rapfi.sh");
    std::fs::write(&script, FAKE_RAPFI).unwrap();
    let fake = PlayerSpec::Gomocup(format!("sh {}", script.display()));

    let m = Match {
        spec: GameSpec::Caro {
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
            opening: Vec::new(),
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
    let mut players: [Box<dyn Player>; 2] = [Box::new(RowZero), fake.build(2).unwrap()];
    let mut games = Vec::new();
    let report = m
        .play(&mut players, |game, _| {
            games.push((game.reason.clone(), game.forfeit))
        })
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(report.forfeits, [0, 0], "{games:?}");
    assert!(games.iter().all(|g| g.0 == "five"), "{games:?}");
}

/// `caro-tune --check` fits on the games it is given and checks on the others: every
/// game of the check directory is counted there, none held out of the training games.
#[test]
fn caro_tune_checks_on_the_games_it_is_told_to() {
    let dir = std::env::temp_dir().join(format!("banco-tune-check-{}", std::process::id()));
    let (train, check) = (dir.join("train"), dir.join("check"));
    std::fs::create_dir_all(&train).unwrap();
    std::fs::create_dir_all(&check).unwrap();
    // Quiet games of scattered stones (no shape ever forces anything), X wins each.
    let moves = [
        "7,7", "1,1", "7,9", "13,13", "9,7", "1,13", "5,9", "13,1", "9,9", "1,4", "4,1", "13,10",
        "10,13",
    ];
    let game = |n: usize| {
        format!(
            "# banco-arena game {n}\n# game: caro 15x15 rule freestyle\n# result: 1-0 (five)\n{}\n",
            moves.join("\n")
        )
    };
    for n in 0..10 {
        std::fs::write(train.join(format!("{n:04}.txt")), game(n)).unwrap();
    }
    for n in 0..3 {
        std::fs::write(check.join(format!("{n:04}.txt")), game(n)).unwrap();
    }
    let run = |extra: &[&std::path::Path]| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_banco-arena"));
        cmd.args(["caro-tune", "--iterations", "1"]).arg(&train);
        if !extra.is_empty() {
            cmd.arg("--check").args(extra);
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .next()
            .unwrap_or("")
            .to_string()
    };
    // Held out: one game in ten. Every game gives the same positions, so the counts
    // are multiples of one game's.
    let held = run(&[]);
    let per_game: usize = held
        .rsplit(", ")
        .next()
        .and_then(|c| c.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(per_game > 0, "{held}");
    assert_eq!(
        held,
        format!(
            "10 games: {} training positions, {per_game} check positions",
            9 * per_game
        )
    );
    // With --check: all ten to train on, the three others to check on.
    assert_eq!(
        run(&[check.as_path()]),
        format!(
            "13 games: {} training positions, {} check positions",
            10 * per_game,
            3 * per_game
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_game_clock_reaches_the_gomocup_engine_as_time_left() {
    // pbrain-banco plans from `INFO timeout_match` and `INFO time_left`: two games on a
    // 3 s + 0.1 s clock end on the board, nobody's flag down.
    let m = Match {
        clock: Some("3+0.1".parse().unwrap()),
        ..Match::new(
            caro(15, 15),
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
        pbrain_banco().build(2).unwrap(),
    ];
    let mut reasons = Vec::new();
    let report = m
        .play(&mut players, |game, _| reasons.push(game.reason.clone()))
        .unwrap();
    assert_eq!(report.forfeits, [0, 0], "{reasons:?}");
    for s in report.stats {
        let lowest = s.lowest_clock.expect("a clock was kept");
        assert!(
            lowest > Duration::ZERO && lowest < Duration::from_secs(3),
            "{lowest:?}"
        );
    }
}
