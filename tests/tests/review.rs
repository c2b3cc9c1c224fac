//! Engine reviews of finished games against a real server: a hanging chariot is marked a
//! blunder with the capture that punishes it, a stored review comes back without being
//! analysed again, and a review gives the engines up to a bot move at once.

use std::time::Duration;

use banco_protocol::{
    ClientMsg, EndReason, ErrorCode, GameId, GameReview, MoveClass, Seat, ServerMsg,
};
use banco_server::Config;
use banco_tests::{
    Client, TestServer, exchange_xq, iccs, test_config, two_players, vs_bot, xiangqi,
};

/// Asks for the review of `id` and reads it; also how many progress messages came first.
async fn review(c: &mut Client, id: GameId) -> (GameReview, usize) {
    c.send(ClientMsg::Review(id)).await;
    let mut progress = 0;
    loop {
        match c.recv().await {
            ServerMsg::ReviewProgress { game, done, total } => {
                assert_eq!(game, id);
                assert!(done <= total);
                progress += 1;
            }
            ServerMsg::Review(r) => return (*r, progress),
            ServerMsg::Error(e) => panic!("review refused: {e:?}"),
            _ => {}
        }
    }
}

/// The newest finished game's id.
async fn last_game(c: &mut Client) -> GameId {
    c.send(ClientMsg::History { player: None }).await;
    match c.recv_until(|m| matches!(m, ServerMsg::History(_))).await {
        ServerMsg::History(list) => list.first().expect("a finished game").id,
        _ => unreachable!(),
    }
}

#[tokio::test]
async fn a_hanging_chariot_is_a_blunder_and_the_stored_review_comes_back_at_once() {
    let server = TestServer::with_config(Config {
        review_budget: Duration::from_millis(300),
        ..test_config()
    })
    .await;
    let (mut red, mut black, _) = two_players(&server, xiangqi(None)).await;
    // Both chariots come out; black puts his on the d file where red's takes it for
    // nothing (nothing of black's guards d8).
    exchange_xq(&mut red, &mut black, "a0a1").await;
    exchange_xq(&mut black, &mut red, "a9a8").await;
    exchange_xq(&mut red, &mut black, "a1d1").await;
    exchange_xq(&mut black, &mut red, "a8d8").await;
    exchange_xq(&mut red, &mut black, "d1d8").await;
    black.send(ClientMsg::Resign).await;
    assert_eq!(black.game_over().await.reason, EndReason::Resign);
    let id = last_game(&mut black).await;

    let (made, progress) = review(&mut black, id).await;
    assert_eq!(
        progress, 6,
        "one progress message per position (5 plies and the start)"
    );
    assert_eq!((made.game, made.first), (id, Seat::One));
    assert_eq!(made.plies.len(), 5);
    let blunder = &made.plies[3];
    assert_eq!(iccs(blunder.played), "a8d8");
    assert_eq!(blunder.by, Seat::Two);
    assert_eq!(blunder.class, MoveClass::Blunder, "{made:#?}");
    assert_eq!(
        blunder.reply.map(iccs).as_deref(),
        Some("d1d8"),
        "the refutation"
    );
    assert_ne!(blunder.best, Some(blunder.played));
    assert!(blunder.chances > 800, "red is winning after it: {made:#?}");
    assert!(made.players[1].blunders >= 1);
    assert_eq!(made.budget_ms, 300);

    // Asked again (by anyone), it is the stored one: no analysis, no progress.
    let mut someone = server.connect("Dũng").await;
    let (again, progress) = review(&mut someone, id).await;
    assert_eq!(progress, 0, "not analysed again");
    assert_eq!(again, made);
}

#[tokio::test]
async fn unknown_games_and_a_second_review_are_refused_with_a_sentence() {
    let server = TestServer::with_config(Config {
        engine_threads: 1,
        // Longer than any test: only stopping ends a search.
        review_budget: Duration::from_secs(600),
        max_reviews: 1,
        ..test_config()
    })
    .await;
    let mut c = server.connect("Chi").await;
    c.send(ClientMsg::Review(999)).await;
    let e = c.expect_error(ErrorCode::NoSuchGame).await;
    assert!(e.message.contains("no finished game 999"), "{e:?}");

    let (mut red, mut black, _) = two_players(&server, xiangqi(None)).await;
    exchange_xq(&mut red, &mut black, "h2e2").await;
    black.send(ClientMsg::Resign).await;
    black.game_over().await;
    let id = last_game(&mut black).await;
    black.send(ClientMsg::Review(id)).await;
    black
        .recv_until(|m| matches!(m, ServerMsg::ReviewProgress { done: 0, .. }))
        .await;
    black.send(ClientMsg::Review(id)).await;
    let e = black.expect_error(ErrorCode::Busy).await;
    assert!(e.message.contains("still running"), "{e:?}");
    // The server runs one review at a time here.
    c.send(ClientMsg::Review(id)).await;
    let e = c.expect_error(ErrorCode::EnginesBusy).await;
    assert!(e.message.contains("ask again"), "{e:?}");
    // The asker leaves: the review goes on to its end and is stored, so the next to ask
    // gets it at once, with no analysis (no progress) of its own.
    black.disconnect();
    let mut tries = 0;
    loop {
        c.send(ClientMsg::Review(id)).await;
        match c
            .recv_until(|m| {
                matches!(
                    m,
                    ServerMsg::Review(_) | ServerMsg::ReviewProgress { .. } | ServerMsg::Error(_)
                )
            })
            .await
        {
            ServerMsg::Review(review) => {
                assert_eq!(review.game, id);
                break;
            }
            ServerMsg::Error(e) if e.code == ErrorCode::EnginesBusy && tries < 600 => {
                // The left asker's review still holds the server's one place.
                tries += 1;
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            other => panic!("expected the stored review, got {other:?}"),
        }
    }
}

#[tokio::test]
async fn a_review_gives_the_only_engine_thread_to_a_bot_move() {
    let server = TestServer::with_config(Config {
        engine_threads: 1,
        // A review search would hold the thread past any test's patience unless stopped.
        review_budget: Duration::from_secs(600),
        ..test_config()
    })
    .await;
    let (mut red, mut black, _) = two_players(&server, xiangqi(None)).await;
    exchange_xq(&mut red, &mut black, "h2e2").await;
    black.send(ClientMsg::Resign).await;
    black.game_over().await;
    let id = last_game(&mut black).await;
    // The review's first search takes the only thread.
    black.send(ClientMsg::Review(id)).await;
    black
        .recv_until(|m| matches!(m, ServerMsg::ReviewProgress { done: 0, .. }))
        .await;

    // A person plays a bot: the bot answers (within the test's wait, which is a tenth of
    // the review's budget) because the review search gave way.
    let mut me = server.connect("Em").await;
    me.create(vs_bot(15, banco_protocol::Level::Hard)).await;
    me.game_started().await;
    me.play(7, 7).await;
    loop {
        match me.recv().await {
            ServerMsg::Moved { record, .. } if record.by == Seat::Two => break,
            ServerMsg::GameOver(over) => panic!("the game ended: {over:?}"),
            _ => {}
        }
    }
    // And the review goes on afterwards: its asker has had no answer yet, no error.
    let pending = black.sync("after the bot").await;
    assert!(
        pending
            .iter()
            .all(|m| !matches!(m, ServerMsg::Review(_) | ServerMsg::Error(_))),
        "{pending:?}"
    );
}
