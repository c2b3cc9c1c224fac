//! The server's clocks: a per-move timer and a game clock, each running out.

use std::time::Duration;

use banco_protocol::{ClientMsg, Clocks, EndReason, Seat, ServerMsg, TimeControl};
use banco_server::Config;
use banco_tests::{Client, TestServer, exchange, test_config, timed, two_players};

async fn last_clock(c: &mut Client) -> Clocks {
    match c.recv_until(|m| matches!(m, ServerMsg::Clock(_))).await {
        ServerMsg::Clock(clocks) => clocks,
        _ => unreachable!(),
    }
}

/// Both players make their first move, untimed: then the clocks run.
async fn open(a: &mut Client, b: &mut Client) {
    exchange(a, b, 7, 7).await;
    exchange(b, a, 8, 8).await;
}

#[tokio::test]
async fn no_clock_runs_before_the_first_moves_and_a_first_move_never_made_aborts() {
    let config = Config {
        first_move_wait: Duration::from_secs(2),
        ..test_config()
    };
    let server = TestServer::with_config(config).await;
    let (mut a, mut b, id) = two_players(
        &server,
        timed(15, TimeControl::per_move(Duration::from_secs(1))),
    )
    .await;
    let mut c = server.connect("Chi").await;
    let view = c.watch(id).await;
    let clocks = view.game.unwrap().clocks.expect("a timed game has clocks");
    assert_eq!(clocks.running, None, "waiting for the first move");
    assert_eq!(clocks.remaining_ms, [1000, 1000]);
    // An never moves: nobody loses on time; the game is aborted, without a result.
    for who in [&mut a, &mut b, &mut c] {
        let over = who.game_over().await;
        assert_eq!((over.winner, over.reason), (None, EndReason::Aborted));
    }
    // And it is kept that way, unrated.
    c.send(ClientMsg::History { player: None }).await;
    let ServerMsg::History(games) = c.recv_until(|m| matches!(m, ServerMsg::History(_))).await
    else {
        unreachable!()
    };
    assert_eq!(games[0].over.reason, EndReason::Aborted);
    c.send(ClientMsg::Leaderboard(banco_protocol::GameKind::Caro))
        .await;
    let ServerMsg::Leaderboard {
        standings: board, ..
    } = c
        .recv_until(|m| matches!(m, ServerMsg::Leaderboard { .. }))
        .await
    else {
        unreachable!()
    };
    assert!(board.is_empty(), "an aborted game rates nobody: {board:?}");
    server.stop().await;
}

#[tokio::test]
async fn the_player_who_lets_the_move_timer_run_out_loses() {
    let server = TestServer::start().await;
    let (mut a, mut b, id) = two_players(
        &server,
        timed(15, TimeControl::per_move(Duration::from_secs(1))),
    )
    .await;
    open(&mut a, &mut b).await;
    let mut c = server.connect("Chi").await;
    let view = c.watch(id).await;
    let clocks = view.game.unwrap().clocks.expect("a timed game has clocks");
    assert_eq!(
        clocks.running,
        Some(Seat::One),
        "An's time runs after both first moves"
    );
    assert!(clocks.remaining_ms[0] <= 1000);
    assert_eq!(clocks.remaining_ms[1], 1000);
    // An never moves again.
    for who in [&mut a, &mut b, &mut c] {
        let over = who.game_over().await;
        assert_eq!(
            (over.winner, over.reason),
            (Some(Seat::Two), EndReason::Timeout)
        );
        let stopped = last_clock(who).await;
        assert_eq!(stopped.running, None);
        assert_eq!(stopped.remaining_ms[0], 0);
    }
    server.stop().await;
}

#[tokio::test]
async fn a_move_refills_the_timer_and_the_other_side_runs_out() {
    let server = TestServer::start().await;
    let (mut a, mut b, _) = two_players(
        &server,
        timed(15, TimeControl::per_move(Duration::from_secs(3))),
    )
    .await;
    open(&mut a, &mut b).await;
    a.play(6, 6).await;
    match a.recv().await {
        ServerMsg::Moved {
            clocks: Some(clocks),
            ..
        } => {
            assert_eq!(
                clocks.remaining_ms[0], 3000,
                "the mover's timer is full again"
            );
            assert_eq!(clocks.running, Some(Seat::Two));
        }
        other => panic!("expected Moved with clocks, got {other:?}"),
    }
    let over = b.game_over().await;
    assert_eq!(
        (over.winner, over.reason),
        (Some(Seat::One), EndReason::Timeout)
    );
    let over = a.game_over().await;
    assert_eq!(over.reason, EndReason::Timeout);
    server.stop().await;
}

#[tokio::test]
async fn a_game_clock_runs_out() {
    let server = TestServer::start().await;
    let control = TimeControl::clock(Duration::from_secs(2), Duration::from_secs(1));
    let (mut a, mut b, _) = two_players(&server, timed(15, control)).await;
    open(&mut a, &mut b).await;
    a.play(6, 6).await;
    match a.recv().await {
        ServerMsg::Moved {
            clocks: Some(clocks),
            ..
        } => {
            assert!(clocks.remaining_ms[0] > 2000, "the increment was added");
            assert!(clocks.remaining_ms[0] <= 3000);
            assert_eq!(clocks.remaining_ms[1], 2000);
            assert_eq!(clocks.running, Some(Seat::Two));
        }
        other => panic!("expected Moved with clocks, got {other:?}"),
    }
    b.saw(6, 6).await;
    let over = b.game_over().await;
    assert_eq!(
        (over.winner, over.reason),
        (Some(Seat::One), EndReason::Timeout)
    );
    let stopped = last_clock(&mut b).await;
    assert_eq!(stopped.remaining_ms[1], 0);
    assert!(stopped.remaining_ms[0] > 0);
    assert_eq!(a.game_over().await, over);
    server.stop().await;
}
