//! `banco-arena match` as a user runs it: two games at once, scored by pairs, under an
//! SPRT, every game appended to a PGN file that replays to the result it states.

use std::process::Command;

use banco_rules::caro::notation::parse_point;
use banco_rules::game::{Game, GameSpec, Move};

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("banco-arena-cli-{name}-{}", std::process::id()))
}

/// The tag `name`'s value in a PGN game.
fn tag<'a>(game: &'a str, name: &str) -> &'a str {
    let start = format!("[{name} \"");
    game.lines()
        .find_map(|l| l.strip_prefix(&start)?.strip_suffix("\"]"))
        .unwrap_or_else(|| panic!("no {name} tag in\n{game}"))
}

#[test]
fn a_concurrent_match_with_an_sprt_and_a_pgn_file() {
    let openings = temp("openings.txt");
    std::fs::write(&openings, "0,2 -1,1 2,-2\n1,0 -2,-2 1,-1\n").unwrap();
    let pgn = temp("games.pgn");
    let _ = std::fs::remove_file(&pgn);
    let output = Command::new(env!("CARGO_BIN_EXE_banco-arena"))
        .args([
            "match",
            "banco:easy",
            "banco:easy",
            "-n",
            "4",
            "--concurrency",
            "2",
        ])
        .args(["--time-ms", "50", "--openings"])
        .arg(&openings)
        .arg("--pgn")
        .arg(&pgn)
        .args(["--sprt", "elo0=0", "elo1=5"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");

    // The summary: the games one by one, the pairs, the test, no forfeit.
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0]
            .starts_with("banco:easy vs banco:easy: 4 games of caro 15x15 rule caro, 2 openings"),
        "{stdout}"
    );
    assert!(stdout.contains("  2 games at once"), "{stdout}");
    assert!(
        stdout.contains(
            "  SPRT elo0=0 elo1=5 alpha=0.05 beta=0.05 model=logistic: bounds [-2.94, 2.94]"
        ),
        "{stdout}"
    );
    let score = lines
        .iter()
        .find_map(|l| l.strip_prefix("banco:easy vs banco:easy: +"))
        .unwrap_or_else(|| panic!("no score line in\n{stdout}"));
    let counts: Vec<u32> = score
        .split_whitespace()
        .take(3)
        .map(|w| w.trim_start_matches(['+', '=', '-']).parse().unwrap())
        .collect();
    assert_eq!(counts.iter().sum::<u32>(), 4, "{score}");
    let pairs = lines
        .iter()
        .find_map(|l| l.strip_prefix("  pairs: 2 (Ptnml(0-2) LL "))
        .unwrap_or_else(|| panic!("no pairs line in\n{stdout}"));
    assert!(pairs.contains("LOS"), "{pairs}");
    assert!(stdout.contains("[-2.94, 2.94]: no decision"), "{stdout}");
    assert!(
        stdout.contains("forfeits: banco:easy 0, banco:easy 0\n"),
        "{stdout}"
    );
    // Standard error is no terminal here: one status line per pair.
    let status: Vec<&str> = stderr.lines().filter(|l| l.starts_with("games ")).collect();
    assert_eq!(status.len(), 2, "{stderr}");
    assert!(status[1].starts_with("games 4/4  +"), "{stderr}");
    assert!(status[1].contains(" LLR "), "{stderr}");

    // The PGN file: four games, each replaying to the result it states.
    let text = std::fs::read_to_string(&pgn).unwrap();
    std::fs::remove_file(&pgn).unwrap();
    std::fs::remove_file(&openings).unwrap();
    let games: Vec<&str> = text.split("\n\n[").collect();
    assert_eq!(games.len(), 4, "{text}");
    let mut rounds: Vec<&str> = games.iter().map(|g| tag(g, "Round")).collect();
    rounds.sort_unstable();
    assert_eq!(rounds, ["1.1", "1.2", "2.1", "2.2"]);
    let spec = GameSpec::Caro {
        width: 15,
        height: 15,
        rule: banco_rules::caro::Rule::Caro,
        opening: Vec::new(),
    };
    for game in games {
        assert_eq!(tag(game, "Site"), "banco-arena");
        assert_eq!(tag(game, "White"), "banco:easy");
        assert_eq!(tag(game, "Game"), "caro 15x15 rule caro");
        assert_eq!(tag(game, "TimeControl"), "0.05/move");
        assert_eq!(tag(game, "Termination"), "normal");
        assert_eq!(tag(game, "Date").len(), 10);
        let opening = tag(game, "Opening");
        assert!(
            opening == "0,2 -1,1 2,-2" || opening == "1,0 -2,-2 1,-1",
            "{opening}"
        );
        let result = tag(game, "Result");
        let movetext = game.split("\n\n").nth(1).unwrap();
        // Split on braces: moves outside, comments inside.
        let mut board = Game::new(&spec).unwrap();
        let mut ending = None;
        let mut book = 0;
        let mut said = 0;
        for (i, part) in movetext.split(['{', '}']).enumerate() {
            if i % 2 == 1 {
                // A comment: the opening's, what a player said, or why the game ended.
                if part == "book" {
                    book += 1;
                } else if let Some((searched, time)) = part.split_once(' ') {
                    // `+35/2 0.012s`, or `d0 0.001s` for a move with no search score.
                    let (eval, depth) = searched.split_once('/').unwrap_or(("+0", searched));
                    assert!(eval.starts_with(['+', '-']), "{part}");
                    assert!(
                        depth.trim_start_matches('d').parse::<u32>().is_ok(),
                        "{part}"
                    );
                    let seconds = time.strip_suffix('s').unwrap_or_else(|| panic!("{part}"));
                    assert!(seconds.parse::<f64>().is_ok(), "{part}");
                    said += 1;
                } else {
                    assert!(part == "five" || part == "board_full", "{part}");
                }
                continue;
            }
            for word in part.split_whitespace() {
                if word.ends_with('.') || word == result {
                    continue;
                }
                let p = parse_point(word, 15, 15).unwrap();
                ending = board.play(Move::Caro(p)).unwrap();
            }
        }
        assert_eq!(book, 3, "{game}");
        assert_eq!(said, board.plies() - 3, "{game}");
        let ending = ending.unwrap_or_else(|| panic!("the game did not end:\n{game}"));
        let expected = match ending.winner {
            Some(banco_rules::game::Side::First) => "1-0",
            Some(banco_rules::game::Side::Second) => "0-1",
            None => "1/2-1/2",
        };
        assert_eq!(result, expected, "{game}");
    }
}

/// `--openings-start 3` goes on where a match over the first two openings stopped: both
/// games open with the file's third, and a start past the end is refused.
#[test]
fn a_match_can_begin_at_a_later_opening_of_its_file() {
    let openings = temp("later.txt");
    std::fs::write(
        &openings,
        "# three openings\n0,2 -1,1 2,-2\n1,0 -2,-2 1,-1\n\n2,1 -1,-1 -2,0  # the third\n",
    )
    .unwrap();
    let pgn = temp("later.pgn");
    let _ = std::fs::remove_file(&pgn);
    let run = |start: &str, pgn: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_banco-arena"))
            .args(["match", "banco:easy", "banco:easy", "-n", "2"])
            .args(["--time-ms", "50", "--openings-start", start, "--openings"])
            .arg(&openings)
            .arg("--pgn")
            .arg(pgn)
            .output()
            .unwrap()
    };
    let output = run("3", &pgn);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(
        stdout.starts_with(
            "banco:easy vs banco:easy: 2 games of caro 15x15 rule caro, 1 opening from the file's 3rd\n"
        ),
        "{stdout}"
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    std::fs::remove_file(&pgn).unwrap();
    let games: Vec<&str> = text.split("\n\n[").collect();
    assert_eq!(games.len(), 2, "{text}");
    for game in games {
        assert_eq!(tag(game, "Opening"), "2,1 -1,-1 -2,0");
    }

    let output = run("4", &pgn);
    std::fs::remove_file(&openings).unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--openings-start 4 is past the end: the file has 3 openings"),
        "{stderr}"
    );
    assert!(!pgn.exists(), "a refused match wrote {}", pgn.display());
}

#[test]
fn bad_settings_are_refused_with_a_sentence() {
    let run = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_banco-arena"))
            .args(args)
            .output()
            .unwrap();
        assert!(!output.status.success());
        String::from_utf8_lossy(&output.stderr).to_string()
    };
    let err = run(&["match", "easy", "easy", "--sprt", "elo0=5", "elo1=0"]);
    assert!(err.contains("elo0 (5) must be below elo1 (0)"), "{err}");
    let err = run(&["match", "easy", "easy", "--concurrency", "0"]);
    assert!(err.contains("--concurrency"), "{err}");
    let err = run(&["match", "easy", "seed:nobody"]);
    assert!(err.contains("unknown player 'seed:nobody'"), "{err}");
    let err = run(&[
        "match",
        "easy",
        "easy",
        "--game",
        "xiangqi",
        "--opening",
        "swap2",
    ]);
    assert!(err.contains("swap openings are caro's"), "{err}");
    let err = run(&["match", "easy", "easy", "--opening", "swap3"]);
    assert!(err.contains("swap3"), "{err}");
    let err = run(&["match", "easy", "beginner", "--clock", "a minute"]);
    assert!(err.contains("'a minute' is no clock"), "{err}");
    let err = run(&[
        "match",
        "easy",
        "beginner",
        "--clock",
        "60+1",
        "--time-ms",
        "100",
    ]);
    assert!(err.contains("--time-ms"), "{err}");
}

/// `--opening swap2` from the command line: the report gives each player's results as
/// proposer and as responder, and each game's opening in words.
#[test]
fn a_swap2_match_reports_each_side_as_proposer_and_responder() {
    let output = Command::new(env!("CARGO_BIN_EXE_banco-arena"))
        .args([
            "match",
            "easy",
            &format!(
                "gomocup:{} --level easy",
                env!("CARGO_BIN_EXE_pbrain-banco")
            ),
            "--rule",
            "freestyle",
            "--opening",
            "swap2",
            "-n",
            "2",
            "--time-ms",
            "100",
            "-v",
        ])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{out}");
    assert!(
        out.contains("Swap2 openings (A proposes in odd games, B in even)"),
        "{out}"
    );
    assert!(out.contains("swap2: banco:easy proposed "), "{out}");
    assert!(
        out.contains("swap2: gomocup:pbrain-banco proposed "),
        "{out}"
    );
    assert_eq!(out.matches(": as proposer ").count(), 2, "{out}");
    assert!(
        out.contains("forfeits: banco:easy 0, gomocup:pbrain-banco 0"),
        "{out}"
    );
}

#[test]
fn a_match_on_a_game_clock_reports_the_lowest_clocks() {
    let output = Command::new(env!("CARGO_BIN_EXE_banco-arena"))
        .args(["match", "easy", "beginner", "-n", "2", "--clock", "5+0.1"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    for player in ["banco:easy", "beginner"] {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(&format!("  {player}: ")))
            .unwrap_or_else(|| panic!("no line for {player} in {stdout}"));
        assert!(line.contains(", lowest clock "), "{line}");
    }
    assert!(
        stdout.contains("forfeits: banco:easy 0, beginner 0"),
        "{stdout}"
    );
}
