//! The bottom of the level ladder, in both games: `banco:easy` loses to a beginner's
//! plain play ([`banco_arena::beginner`]), and the level above it does not.
//!
//! The games are random (easy's lapses and slips, the beginner's ties), so the bounds
//! are far from the measured figures (easy about 36% in each game over 1,000 games, see
//! the results log's ladders): with 300 games, easy would need a score five standard
//! errors above its own to reach 50%.

use std::time::Duration;

use banco_arena::matches::{Match, Report};
use banco_arena::openings::{self, CARO, XIANGQI};
use banco_arena::player::Player;
use banco_arena::spec::PlayerSpec;
use banco_rules::caro::Rule;
use banco_rules::game::GameSpec;

fn caro() -> GameSpec {
    GameSpec::Caro {
        width: 15,
        height: 15,
        rule: Rule::Caro,
        opening: Vec::new(),
    }
}

fn xiangqi() -> GameSpec {
    GameSpec::Xiangqi { fen: None }
}

fn play(spec: GameSpec, a: &str, b: &str, games: usize, nodes: Option<u64>) -> Report {
    let text = match spec {
        GameSpec::Caro { .. } => CARO,
        GameSpec::Xiangqi { .. } => XIANGQI,
    };
    let m = Match {
        budgets: [Some(Duration::from_secs(5)); 2],
        nodes,
        ..Match::new(
            spec,
            games,
            openings::parse(text).expect("the shipped openings"),
        )
    };
    let mut players: [Box<dyn Player>; 2] = [
        a.parse::<PlayerSpec>()
            .expect("player A")
            .build(1)
            .expect("A built"),
        b.parse::<PlayerSpec>()
            .expect("player B")
            .build(2)
            .expect("B built"),
    ];
    m.play(&mut players, |_, _| {})
        .expect("the match is played")
}

fn easy_loses(spec: GameSpec) {
    let report = play(spec, "banco:easy", "beginner", 300, None);
    assert_eq!(report.forfeits, [0, 0]);
    let score = report.tally.score();
    assert!(score < 0.5, "easy scored {:.1}%", 100.0 * score);
    // It is still a game: easy wins some.
    assert!(report.tally.wins >= 30, "{:?}", report.tally);
}

fn medium_wins(spec: GameSpec) {
    // Medium at a small fixed effort (it never lapses): the beginner is no match for a
    // player that reads a few moves ahead.
    let report = play(spec, "banco:medium", "beginner", 20, Some(5_000));
    assert_eq!(report.forfeits, [0, 0]);
    assert!(report.tally.wins >= 18, "{:?}", report.tally);
}

#[test]
fn caro_easy_loses_to_a_beginners_plain_play() {
    easy_loses(caro());
}

#[test]
fn caro_medium_beats_the_beginner() {
    medium_wins(caro());
}

#[test]
fn xiangqi_easy_loses_to_a_beginners_plain_play() {
    easy_loses(xiangqi());
}

#[test]
fn xiangqi_medium_beats_the_beginner() {
    medium_wins(xiangqi());
}
