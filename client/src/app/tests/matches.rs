//! A room that plays a match: the players panel says its format and score, a game's
//! result says when the next begins, `R` resigns the whole match, and its end is told.

use super::*;
use banco_protocol::{MatchEnd, MatchFormat, MatchResult, MatchState, Series};

const FIVE_OF_NINE: MatchFormat = MatchFormat {
    games: 9,
    first_to: Some(5),
};

fn score(one: u32, two: u32) -> Series {
    Series {
        wins: [one, two],
        draws: 0,
    }
}

/// An (seat one) and Bình at game 6 of a first to 5 of at most 9, An leading 3-2.
fn match_app() -> App {
    let mut view = caro_room_view(Role::Player(Seat::One));
    view.settings.match_format = Some(FIVE_OF_NINE);
    view.series = score(3, 2);
    view.match_state = Some(MatchState {
        format: FIVE_OF_NINE,
        number: 1,
        score: score(3, 2),
        leader: Some(Seat::One),
        game: 6,
        next_game_in_ms: None,
        result: None,
    });
    let mut a = lobby_app();
    a.server(ServerMsg::Joined(Box::new(view)));
    a.take_effects();
    a
}

#[test]
fn snapshot_room_with_a_match() {
    let mut a = match_app();
    a.server(moved(7, 7, Seat::One, 1));
    a.server(moved(8, 8, Seat::Two, 2));
    let (text, _) = render(&a, 100, 30);
    insta::assert_snapshot!("room_match", text);
    assert!(
        text.contains("Match: first to 5 (of 9) — An 3, Bình 2"),
        "{text}"
    );
}

#[test]
fn a_game_of_the_match_ends_with_the_score_and_the_next_game_then_the_match_ends() {
    let mut a = match_app();
    win_for_one(&mut a);
    a.server(ServerMsg::Match(MatchState {
        format: FIVE_OF_NINE,
        number: 1,
        score: score(4, 2),
        leader: Some(Seat::One),
        game: 6,
        next_game_in_ms: Some(10_000),
        result: None,
    }));
    assert_eq!(a.popup, Some(Popup::GameOver));
    let (text, _) = render(&a, 100, 30);
    assert!(text.contains("An 4, Bình 2"), "{text}");
    assert!(text.contains("Next game in 10 s (g: ready now)."), "{text}");
    // The wait counts down from when it was told.
    a.now += Duration::from_millis(3_500);
    let (text, _) = render(&a, 100, 30);
    assert!(text.contains("Next game in 7 s"), "{text}");
    // `g` says ready, as it offers a rematch anywhere (and closes the dialog).
    press(&mut a, &[KeyCode::Char('g')]);
    assert_eq!(sent(&mut a), [ClientMsg::Offer(OfferKind::NewGame)]);
    assert!(a.popup.is_none());

    // `R` resigns the whole match, after asking; `r` confirms.
    press(&mut a, &[KeyCode::Char('R')]);
    assert_eq!(a.popup, Some(Popup::Confirm(Confirm::ResignMatch)));
    let (text, _) = render(&a, 100, 30);
    assert!(text.contains("Resign the match?"), "{text}");
    press(&mut a, &[KeyCode::Char('y')]);
    let after_y = sent(&mut a);
    assert!(after_y.is_empty(), "y never resigns a match: {after_y:?}");
    press(&mut a, &[KeyCode::Char('R'), KeyCode::Char('r')]);
    assert_eq!(sent(&mut a), [ClientMsg::ResignMatch]);

    // The match ends: its result in the status line, with the key for another.
    a.server(ServerMsg::MatchOver(MatchResult {
        winner: Some(Seat::One),
        score: score(5, 2),
        reason: MatchEnd::Decided,
    }));
    let r = &a.room().unwrap().room;
    assert!(!r.in_match());
    assert_eq!(r.series, score(5, 2));
    assert_eq!(notice(&a), "You won the match 5–2!");
    let (text, _) = render(&a, 100, 30);
    assert!(
        text.contains("You won the match 5–2! g: another match"),
        "{text}"
    );
    assert!(text.contains("An 5, Bình 2"), "{text}");
    // Over: nothing left to resign.
    press(&mut a, &[KeyCode::Char('R')]);
    assert!(a.popup.is_none());
    assert!(
        notice(&a).contains("No match is being played"),
        "{}",
        notice(&a)
    );
}

#[test]
fn a_spectator_reads_who_won_the_match_and_why() {
    let mut view = caro_room_view(Role::Spectator);
    view.settings.match_format = Some(MatchFormat::MINI);
    let mut a = lobby_app();
    a.server(ServerMsg::Joined(Box::new(view)));
    let (text, _) = render(&a, 100, 30);
    assert!(text.contains("Match: 2 games"), "before it begins: {text}");
    a.server(ServerMsg::Match(MatchState {
        format: MatchFormat::MINI,
        number: 1,
        score: Series::default(),
        leader: None,
        game: 1,
        next_game_in_ms: None,
        result: None,
    }));
    assert!(
        notice(&a).starts_with("A match begins: 2 games."),
        "{}",
        notice(&a)
    );
    a.server(ServerMsg::MatchOver(MatchResult {
        winner: Some(Seat::Two),
        score: score(0, 0),
        reason: MatchEnd::Resign,
    }));
    assert_eq!(
        notice(&a),
        "Bình wins the match; the score stood 0–0. An resigned the match."
    );
}

#[test]
fn snapshot_create_form_with_a_match() {
    let mut a = lobby_app();
    // Up from the top wraps to the match line: first to some wins (5 of 9).
    press(
        &mut a,
        &[
            KeyCode::Char('c'),
            KeyCode::Up,
            KeyCode::Right,
            KeyCode::Right,
        ],
    );
    let (text, _) = render(&a, 100, 30);
    insta::assert_snapshot!("create_form_match", text);
    assert!(
        text.contains("Match  ‹ first to a number of wins ›"),
        "{text}"
    );
    press(&mut a, &[KeyCode::Enter]);
    match sent(&mut a).as_slice() {
        [ClientMsg::CreateRoom(s)] => assert_eq!(s.match_format, Some(FIVE_OF_NINE)),
        other => panic!("expected a room to be created, got {other:?}"),
    }
}
