//! A game given up before both players have moved is aborted, not lost or drawn: the
//! confirmations, the result and the history say so (issue 31, item 13).

use super::*;
use crate::testing::caro_game_record;

fn aborted() -> GameOver {
    GameOver {
        winner: None,
        reason: EndReason::Aborted,
        line: Vec::new(),
    }
}

#[test]
fn giving_up_before_both_have_moved_is_worded_as_aborting() {
    // No move yet: resigning aborts.
    let mut a = room_app(Role::Player(Seat::One));
    press(&mut a, &[KeyCode::Char('r')]);
    assert_eq!(a.popup, Some(Popup::Confirm(Confirm::Resign)));
    let (text, _) = render(&a, 100, 30);
    assert!(text.contains("Abort the game?"), "{text}");
    assert!(text.contains("aborts it"), "{text}");
    assert!(!text.contains("opponent wins"), "{text}");
    // One move is not both: still aborting, and so is leaving.
    press(&mut a, &[KeyCode::Esc]);
    a.server(moved(7, 7, Seat::One, 1));
    press(&mut a, &[KeyCode::Char('q')]);
    let (text, _) = render(&a, 100, 30);
    assert!(text.contains("Leave and abort?"), "{text}");
    assert!(text.contains("r abort and leave"), "{text}");
    assert!(!text.contains("opponent wins"), "{text}");
    // Once both have moved, giving up loses.
    press(&mut a, &[KeyCode::Esc]);
    a.server(moved(8, 8, Seat::Two, 2));
    press(&mut a, &[KeyCode::Char('r')]);
    let (text, _) = render(&a, 100, 30);
    assert!(text.contains("Resign?"), "{text}");
    assert!(text.contains("Your opponent wins"), "{text}");
    press(&mut a, &[KeyCode::Char('r')]);
    assert_eq!(sent(&mut a), [ClientMsg::Resign]);
}

#[test]
fn an_aborted_game_is_neither_a_win_nor_a_draw() {
    let mut a = room_app(Role::Player(Seat::One));
    a.server(moved(7, 7, Seat::One, 1));
    a.server(ServerMsg::GameOver(aborted()));
    let (text, _) = render(&a, 100, 30);
    assert!(text.contains("Game aborted"), "{text}");
    assert!(text.contains("(before both players moved)"), "{text}");
    assert!(!text.contains("Draw"), "{text}");
    // The status line under the dialog says it in one line.
    press(&mut a, &[KeyCode::Esc]);
    let (text, _) = render(&a, 100, 30);
    assert!(
        text.contains("Game aborted (before both players moved)."),
        "{text}"
    );
}

#[test]
fn the_history_lists_aborted_games_as_aborted() {
    let mut a = lobby_app();
    press(&mut a, &[KeyCode::Char('h')]);
    let mut game = caro_game_record().summary;
    game.plies = 1;
    game.over = aborted();
    game.rated = false;
    // Both players gone before either came back: no result either.
    let mut left = caro_game_record().summary;
    left.id = 50;
    left.over = GameOver {
        winner: None,
        reason: EndReason::Abandoned,
        line: Vec::new(),
    };
    a.server(ServerMsg::History(vec![game, left]));
    let (text, _) = render(&a, 120, 20);
    assert!(text.contains("Game aborted"), "{text}");
    assert!(text.contains("No result"), "{text}");
    assert!(!text.contains("Draw"), "{text}");
}
