//! What players were told about a room beside its game comes back after a clean
//! restart: the rematch series score and the chat, exactly as they saw them (the kill -9
//! case is `server/tests/crash.rs`).

use std::time::Duration;

use banco_protocol::{ChatLine, ClientMsg, OfferKind, RoomView, Seat, Series, ServerMsg};
use banco_server::{Config, StoreLocation};
use banco_tests::{Client, TempDir, TestServer, caro, exchange, test_config, two_players};

/// `who` says `text`; returns the line as everyone in the room was sent it.
async fn say(who: &mut Client, other: &mut Client, text: &str) -> ChatLine {
    who.send(ClientMsg::Chat(text.into())).await;
    let heard = |m: &ServerMsg| matches!(m, ServerMsg::Chat(l) if l.text == text);
    let ServerMsg::Chat(line) = who.recv_until(heard).await else {
        unreachable!()
    };
    assert_eq!(other.recv_until(heard).await, ServerMsg::Chat(line.clone()));
    line
}

fn joined(msg: ServerMsg) -> RoomView {
    match msg {
        ServerMsg::Joined(view) => *view,
        other => panic!("expected Joined, got {other:?}"),
    }
}

#[tokio::test]
async fn a_clean_restart_brings_back_the_series_score_and_the_chat() {
    let dir = TempDir::new("restart-room");
    let db = dir.path().join("banco.db");
    let config = || Config {
        store: StoreLocation::File(db.clone()),
        // The chat allowance is not what this test is about.
        chat_burst: 100,
        chat_refill: Duration::from_millis(1),
        ..test_config()
    };
    let server = TestServer::with_config(config()).await;
    let (mut a, mut b, id) = two_players(&server, caro(15)).await;
    let mut told = vec![say(&mut a, &mut b, "good luck").await];
    told.push(say(&mut b, &mut a, "you too").await);
    // Game 1: An wins with five on row 0.
    for x in 0..4 {
        exchange(&mut a, &mut b, x, 0).await;
        exchange(&mut b, &mut a, x, 5).await;
    }
    told.push(say(&mut b, &mut a, "careful...").await);
    exchange(&mut a, &mut b, 4, 0).await;
    assert_eq!(a.game_over().await.winner, Some(Seat::One));
    b.game_over().await;
    // Between games (nothing running to log it with): the rematch's start carries it.
    told.push(say(&mut a, &mut b, "again?").await);
    a.send(ClientMsg::Offer(OfferKind::NewGame)).await;
    b.recv_until(|m| matches!(m, ServerMsg::Offered(_))).await;
    b.send(ClientMsg::Answer {
        kind: OfferKind::NewGame,
        accept: true,
    })
    .await;
    a.game_started().await;
    b.game_started().await;
    // Game 2: Bình moves first; they chat on.
    exchange(&mut b, &mut a, 7, 7).await;
    told.push(say(&mut b, &mut a, "revenge").await);
    exchange(&mut a, &mut b, 8, 8).await;
    let series = Series {
        wins: [1, 0],
        draws: 0,
    };
    let mut c = server.connect("Chi").await;
    let before = c.watch(id).await;
    assert_eq!(before.series, series);
    assert_eq!(before.chat, told);
    let (token_a, token_b) = (a.token(), b.token());
    server.stop().await;
    a.closed().await;
    b.closed().await;

    // The same file, a new process's worth of server: both come back with their tokens.
    let server = TestServer::with_config(config()).await;
    let mut a = server.reconnect("An", token_a).await;
    let view = joined(a.recv_until(|m| matches!(m, ServerMsg::Joined(_))).await);
    assert_eq!(view.id, id, "the room keeps its number");
    assert_eq!(view.series, series, "the series score as it was told");
    assert_eq!(view.chat, told, "the chat as it was told, line for line");
    assert_eq!(view.game.as_ref().map(|g| g.moves.len()), Some(2));
    let mut b = server.reconnect("Bình", token_b).await;
    let view = joined(b.recv_until(|m| matches!(m, ServerMsg::Joined(_))).await);
    assert_eq!((view.series, view.chat.clone()), (series, told.clone()));

    // The chat goes on from there, and a third start still has all of it.
    told.push(say(&mut a, &mut b, "we're back").await);
    let (token_a, token_b) = (a.token(), b.token());
    server.stop().await;
    let server = TestServer::with_config(config()).await;
    let mut a = server.reconnect("An", token_a).await;
    let view = joined(a.recv_until(|m| matches!(m, ServerMsg::Joined(_))).await);
    assert_eq!((view.series, view.chat), (series, told));
    let _b = server.reconnect("Bình", token_b).await;
    server.stop().await;
}
