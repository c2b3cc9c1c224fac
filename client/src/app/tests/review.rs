//! The engine's review from the client's side: asked for from a replay, the history and
//! the game-over dialog; the progress bar, then the graph, the classes and the engine's
//! better move.

use super::*;
use crate::app::review::ReviewView;
use crate::testing::xiangqi_game_record;
use banco_protocol::{
    ErrorCode, ErrorMsg, GameReview, MoveClass, PlayerReview, ReviewedPly, ServerMsg,
};

/// The review of `xiangqi_game_record` (game 43): black's second move (i9h9, ply 4) a
/// blunder, the engine preferring h7h0 and answering with h2h9.
fn review() -> GameReview {
    let record = xiangqi_game_record();
    let chances = [520u16, 560, 540, 200];
    let plies = record
        .moves
        .iter()
        .zip(chances)
        .enumerate()
        .map(|(i, (m, c))| {
            let blunder = i == 3;
            ReviewedPly {
                played: m.mv,
                by: m.by,
                chances: if blunder { 880 } else { c },
                score: 0,
                loss: if blunder { 340 } else { 10 },
                class: if blunder {
                    MoveClass::Blunder
                } else if i == 0 {
                    MoveClass::Best
                } else {
                    MoveClass::Good
                },
                best: Some(if blunder {
                    banco_tests_free::xq("h7h0")
                } else {
                    m.mv
                }),
                line: if blunder {
                    vec![banco_tests_free::xq("h7h0"), banco_tests_free::xq("g2h0")]
                } else {
                    vec![m.mv]
                },
                reply: Some(banco_tests_free::xq("h2h9")),
            }
        })
        .collect();
    GameReview {
        game: 43,
        first: Seat::One,
        start_chances: 520,
        plies,
        players: [
            PlayerReview {
                average_loss: 12,
                ..PlayerReview::default()
            },
            PlayerReview {
                blunders: 1,
                average_loss: 420,
                ..PlayerReview::default()
            },
        ],
        budget_ms: 100,
    }
}

/// ICCS text to a move, for the samples (the tests crate's helper is not a dependency
/// of the client).
mod banco_tests_free {
    use banco_protocol::{Move, XqSquare};

    pub fn xq(iccs: &str) -> Move {
        let b = iccs.as_bytes();
        let sq = |f: u8, r: u8| XqSquare {
            file: f - b'a',
            rank: r - b'0',
        };
        Move::Xiangqi {
            from: sq(b[0], b[1]),
            to: sq(b[2], b[3]),
        }
    }
}

fn replay_app() -> App {
    let mut a = lobby_app();
    press(&mut a, &[KeyCode::Char('h')]);
    a.server(ServerMsg::History(vec![xiangqi_game_record().summary]));
    press(&mut a, &[KeyCode::Enter]);
    a.server(ServerMsg::Replay(Box::new(xiangqi_game_record())));
    a.take_effects();
    a
}

fn view(a: &App) -> Option<ReviewView> {
    match &a.screen {
        Screen::Replay(rs) => rs.review.clone(),
        _ => panic!("not on the replay screen"),
    }
}

/// Seat Two wins by resignation; the game-over dialog opens.
fn resign_over(a: &mut App) {
    a.server(ServerMsg::GameOver(banco_protocol::GameOver {
        winner: Some(Seat::Two),
        reason: banco_protocol::EndReason::Resign,
        line: vec![],
    }));
    a.take_effects();
}

/// `v` in the game-over dialog leaves the room, then asks for `player`'s history.
fn v_leaves_for_the_history_of(a: &mut App, player: &str) {
    press(a, &[KeyCode::Char('v')]);
    assert_eq!(sent(a), [ClientMsg::LeaveRoom]);
    a.server(ServerMsg::Left);
    assert_eq!(
        sent(a),
        [
            ClientMsg::ListRooms,
            ClientMsg::History {
                player: Some(player.into())
            }
        ]
    );
}

#[test]
fn v_in_a_replay_asks_once_follows_the_progress_and_shows_the_review() {
    let mut a = replay_app();
    press(&mut a, &[KeyCode::Char('v')]);
    assert_eq!(sent(&mut a), [ClientMsg::Review(43)]);
    assert_eq!(view(&a), Some(ReviewView::Asked));
    press(&mut a, &[KeyCode::Char('v')]);
    assert!(sent(&mut a).is_empty(), "asked once");
    // Another game's progress is not ours.
    a.server(ServerMsg::ReviewProgress {
        game: 7,
        done: 1,
        total: 9,
    });
    assert_eq!(view(&a), Some(ReviewView::Asked));
    a.server(ServerMsg::ReviewProgress {
        game: 43,
        done: 2,
        total: 4,
    });
    assert_eq!(view(&a), Some(ReviewView::Running { done: 2, total: 4 }));
    let (text, _) = render(&a, 100, 30);
    assert!(text.contains("analysing 2 / 4"), "{text}");
    a.server(ServerMsg::Review(Box::new(review())));
    assert!(matches!(view(&a), Some(ReviewView::Done(_))));
}

#[test]
fn a_refused_review_stops_waiting_and_says_why() {
    let mut a = replay_app();
    press(&mut a, &[KeyCode::Char('v')]);
    a.take_effects();
    a.server(ServerMsg::Error(ErrorMsg::new(
        ErrorCode::EnginesBusy,
        "the server is already reviewing as many games as it allows: ask again in a minute",
    )));
    assert_eq!(view(&a), None);
    assert!(a.notice.as_ref().is_some_and(|n| n.error));
}

#[test]
fn v_in_the_history_opens_the_replay_reviewed() {
    let mut a = lobby_app();
    press(&mut a, &[KeyCode::Char('h')]);
    a.server(ServerMsg::History(vec![xiangqi_game_record().summary]));
    a.take_effects();
    press(&mut a, &[KeyCode::Char('v')]);
    assert_eq!(sent(&mut a), [ClientMsg::Replay(43), ClientMsg::Review(43)]);
    a.server(ServerMsg::Replay(Box::new(xiangqi_game_record())));
    assert_eq!(view(&a), Some(ReviewView::Asked));
}

#[test]
fn v_in_the_game_over_dialog_leaves_and_opens_the_game_just_played_reviewed() {
    let mut a = room_app(Role::Player(Seat::One));
    resign_over(&mut a);
    assert_eq!(a.popup, Some(Popup::GameOver));
    v_leaves_for_the_history_of(&mut a, "An");
    a.server(ServerMsg::History(vec![xiangqi_game_record().summary]));
    assert_eq!(sent(&mut a), [ClientMsg::Replay(43), ClientMsg::Review(43)]);
    a.server(ServerMsg::Replay(Box::new(xiangqi_game_record())));
    assert_eq!(view(&a), Some(ReviewView::Asked));
}

#[test]
fn snapshot_review_at_the_blunder_with_the_engines_move_on_the_board() {
    let mut a = replay_app();
    press(&mut a, &[KeyCode::Char('v')]);
    a.server(ServerMsg::Review(Box::new(review())));
    press(&mut a, &[KeyCode::End]);
    let (text, buf) = render(&a, 100, 34);
    insta::assert_snapshot!("review_blunder", text.clone());
    assert!(
        text.contains("R9.8??"),
        "the blunder marked in the move list: {text}"
    );
    assert!(text.contains("blunder (−34%)"), "{text}");
    assert!(text.contains("engine: h7h0"), "{text}");
    assert!(text.contains("its answer: h2h9"), "{text}");
    // The engine's move lights its squares as a hint does: h7 (black's cannon).
    let hinted = buf
        .content()
        .iter()
        .filter(|c| c.bg == a.theme.colors.hint)
        .count();
    assert!(hinted >= 2, "the engine's move is marked on the board");
    // At the start the graph is there but no move is judged.
    press(&mut a, &[KeyCode::Home]);
    let (text, _) = render(&a, 100, 34);
    assert!(!text.contains("engine: h7h0"), "{text}");
}

#[test]
fn a_spectators_v_opens_the_game_it_watched_not_its_own() {
    // An watches Cúc against the hard bot.
    let mut view = crate::testing::caro_room_view(Role::Spectator);
    view.seats[0].as_mut().expect("a player").name = "Cúc".into();
    view.seats[1] = Some(banco_protocol::SeatView {
        bot_account: false,
        name: "Bot (hard)".into(),
        bot: Some(banco_protocol::Level::Hard),
        connected: true,
    });
    let mut a = lobby_app();
    a.server(ServerMsg::Joined(Box::new(view)));
    resign_over(&mut a);
    let (text, _) = render(&a, 100, 30);
    assert!(
        text.contains("v review · q leave"),
        "the dialog says how: {text}"
    );
    assert!(
        !text.contains("g rematch"),
        "a spectator has no rematch: {text}"
    );
    v_leaves_for_the_history_of(&mut a, "Cúc");
    // Cúc's newest game is another one; the one watched comes second.
    let mut other = crate::testing::caro_game_record().summary;
    other.players = ["Cúc".into(), "Bình".into()];
    other.id = 50;
    let mut watched = crate::testing::caro_game_record().summary;
    watched.players = [
        "Cúc".into(),
        banco_protocol::bot_name(banco_protocol::Level::Hard),
    ];
    watched.id = 49;
    a.server(ServerMsg::History(vec![other.clone(), watched]));
    assert_eq!(sent(&mut a), [ClientMsg::Replay(49), ClientMsg::Review(49)]);

    // When the game is not in the list, the player is told, and nothing opens.
    let mut a = room_app(Role::Player(Seat::One));
    resign_over(&mut a);
    v_leaves_for_the_history_of(&mut a, "An");
    a.server(ServerMsg::History(vec![other]));
    assert!(sent(&mut a).is_empty(), "no other game opens");
    assert!(matches!(a.screen, Screen::History(_)));
    assert!(notice(&a).contains("not in this list"), "{}", notice(&a));
}

#[test]
fn an_aborted_game_offers_no_review() {
    // The game ended before both players moved: there is nothing to review.
    let mut a = room_app(Role::Player(Seat::One));
    a.server(ServerMsg::GameOver(banco_protocol::GameOver {
        winner: None,
        reason: banco_protocol::EndReason::Aborted,
        line: vec![],
    }));
    a.take_effects();
    let (text, _) = render(&a, 100, 30);
    assert!(text.contains("g rematch · q leave"), "{text}");
    assert!(!text.contains("v review"), "{text}");
    // `v` does nothing: the player stays in the room, the dialog open.
    press(&mut a, &[KeyCode::Char('v')]);
    assert!(sent(&mut a).is_empty());
    assert!(matches!(a.screen, Screen::Room(_)));
    let (text, _) = render(&a, 100, 30);
    assert!(text.contains("g rematch · q leave"), "{text}");
}
