//! Leaving on purpose, dropping out, and coming back.

use std::time::Duration;

use banco_protocol::{ClientMsg, EndReason, Role, Seat, SeatView, ServerMsg};
use banco_server::Config;
use banco_tests::{Client, TestServer, caro, exchange, test_config, two_players};

/// The next `People`, skipping other messages.
async fn people(c: &mut Client) -> [Option<SeatView>; 2] {
    match c
        .recv_until(|m| matches!(m, ServerMsg::People { .. }))
        .await
    {
        ServerMsg::People { seats, .. } => seats,
        _ => unreachable!(),
    }
}

#[tokio::test]
async fn quitting_mid_game_loses_it_and_frees_the_seat() {
    let server = TestServer::start().await;
    let (mut a, mut b, id) = two_players(&server, caro(15)).await;
    // Both sides move first: a game given up before that is aborted, not lost.
    exchange(&mut a, &mut b, 7, 7).await;
    exchange(&mut b, &mut a, 8, 8).await;
    b.send(ClientMsg::LeaveRoom).await;
    let over = b.game_over().await;
    assert_eq!(
        (over.winner, over.reason),
        (Some(Seat::One), EndReason::Quit)
    );
    assert_eq!(b.recv().await, ServerMsg::Left);
    let over = a.game_over().await;
    assert_eq!(
        (over.winner, over.reason),
        (Some(Seat::One), EndReason::Quit)
    );
    assert!(people(&mut a).await[1].is_none(), "seat Two is free");

    // Someone new takes the seat and game 2 starts, with the first move passing over.
    let mut c = server.connect("Chi").await;
    let view = c.join(id).await;
    assert_eq!(view.you, Role::Player(Seat::Two));
    let game = a.game_started().await;
    assert_eq!((game.number, game.first), (2, Seat::Two));
    assert_eq!(c.game_started().await, game);
    exchange(&mut c, &mut a, 7, 7).await;
    server.stop().await;
}

#[tokio::test]
async fn leaving_after_the_game_just_leaves() {
    let server = TestServer::start().await;
    let (mut a, mut b, _) = two_players(&server, caro(15)).await;
    a.send(ClientMsg::Resign).await;
    a.game_over().await;
    b.game_over().await;
    b.send(ClientMsg::LeaveRoom).await;
    let left = b
        .recv_until(|m| matches!(m, ServerMsg::Left | ServerMsg::GameOver(_)))
        .await;
    assert_eq!(left, ServerMsg::Left);
    let seen = a.recv().await;
    assert!(
        matches!(&seen, ServerMsg::People { seats, .. } if seats[1].is_none()),
        "An sees Bình go and nothing else: {seen:?}"
    );
    // Bình is back in the lobby and may create or join again.
    b.create(caro(15)).await;
    server.stop().await;
}

#[tokio::test]
async fn a_dropped_player_who_does_not_come_back_abandons_the_game() {
    let config = Config {
        grace: Duration::from_millis(300),
        ..test_config()
    };
    let server = TestServer::with_config(config).await;
    let (mut a, mut b, id) = two_players(&server, caro(15)).await;
    let mut c = server.connect("Chi").await;
    c.watch(id).await;
    exchange(&mut a, &mut b, 7, 7).await;
    c.saw(7, 7).await;
    exchange(&mut b, &mut a, 8, 8).await;
    c.saw(8, 8).await;
    b.disconnect();
    for who in [&mut a, &mut c] {
        let seats = people(who).await;
        let held = seats[1].as_ref().expect("the seat is held for Bình");
        assert_eq!(held.name, "Bình");
        assert!(!held.connected);
    }
    for who in [&mut a, &mut c] {
        let over = who.game_over().await;
        assert_eq!(
            (over.winner, over.reason),
            (Some(Seat::One), EndReason::Abandoned)
        );
        assert!(people(who).await[1].is_none(), "then the seat is free");
    }
    // The name is free again too.
    // The seat is free, and the name still Bình's: only logging in gets it.
    let again = server.player("Bình").await;
    assert_eq!(again.name(), "Bình");
    server.stop().await;
}

#[tokio::test]
async fn a_dropped_player_comes_back_with_the_resume_token() {
    let server = TestServer::start().await;
    let (mut a, mut b, id) = two_players(&server, caro(15)).await;
    exchange(&mut a, &mut b, 7, 7).await;
    let token = b.token();
    b.disconnect();
    assert!(!people(&mut a).await[1].as_ref().unwrap().connected);
    // Meanwhile the name stays Bình's: a guest gets a marked one.
    let other = server.connect("Binh").await;
    assert_eq!(other.name(), "~Binh");

    // An account holder comes back logged in, as the clients do; the token brings the
    // seat (a guest's token alone does, under any name: see security.rs).
    let mut b = server.reconnect_player("Bình", token).await;
    assert_eq!(b.name(), "Bình", "the held name comes back");
    let view = b.joined().await;
    assert_eq!(view.id, id);
    assert_eq!(view.you, Role::Player(Seat::Two));
    let game = view.game.unwrap();
    assert_eq!(game.moves.len(), 1);
    assert!(game.over.is_none());
    assert!(people(&mut a).await[1].as_ref().unwrap().connected);
    // And the game goes on.
    exchange(&mut b, &mut a, 8, 8).await;
    exchange(&mut a, &mut b, 6, 6).await;
    server.stop().await;
}

#[tokio::test]
async fn a_new_connection_takes_over_from_a_stale_one() {
    let server = TestServer::start().await;
    let (mut a, mut b, _) = two_players(&server, caro(15)).await;
    exchange(&mut a, &mut b, 7, 7).await;
    // Bình's laptop changed network: the old connection is still open on the server.
    let mut b2 = server.reconnect_player("Bình", b.token()).await;
    assert_eq!(b2.name(), "Bình");
    let view = b2.joined().await;
    assert_eq!(view.you, Role::Player(Seat::Two));
    // The old connection is closed by the server.
    b.closed().await;
    exchange(&mut b2, &mut a, 8, 8).await;
    server.stop().await;
}

#[tokio::test]
async fn an_unknown_token_is_just_a_new_session() {
    let server = TestServer::start().await;
    let mut c = server
        .reconnect("Chi", banco_protocol::ResumeToken([7; 16]))
        .await;
    assert_eq!(c.name(), "~Chi");
    assert_ne!(c.token().0, [7; 16]);
    c.rooms().await;
    server.stop().await;
}
