//! The server's one engine pool: bot rooms do not starve people, hints are one per move
//! and refused while the engines are taken, and a closed room's search is called off.
//! Servers here run one search thread, so "the engines are busy" is one search away.

use std::time::Duration;

use banco_protocol::{
    ClientMsg, ErrorCode, ErrorMsg, Level, Move, Point, RoomSettings, Seat, SeatKind, ServerMsg,
};
use banco_tests::{Client, TestServer, caro, exchange, test_config, two_players, vs_bot, xiangqi};

/// A server with one search thread; `cap` bounds every bot search (`None`: the level's
/// own time, seconds at `max`).
async fn one_thread(cap: Option<Duration>) -> TestServer {
    TestServer::with_config(banco_server::Config {
        engine_threads: 1,
        engine_memory: 16 << 20,
        bot_think_cap: cap,
        ..test_config()
    })
    .await
}

/// Asks for a hint and reads the answer: the hint, or the refusal.
async fn ask_hint(c: &mut Client) -> Result<Point, ErrorMsg> {
    c.send(ClientMsg::Hint).await;
    match c
        .recv_until(|m| matches!(m, ServerMsg::Hint(_) | ServerMsg::Error(_)))
        .await
    {
        ServerMsg::Hint(Move::Caro(p)) => Ok(p),
        ServerMsg::Error(e) => Err(e),
        other => panic!("expected a hint or an error, got {other:?}"),
    }
}

/// Plays `(x, y)` against the bot in seat Two and waits for its answer; returns it.
async fn bot_answers(me: &mut Client, x: u8, y: u8) -> Point {
    me.play(x, y).await;
    me.saw(x, y).await;
    loop {
        match me.recv().await {
            ServerMsg::Moved { record, .. } if record.by == Seat::Two => {
                let Move::Caro(p) = record.mv else {
                    panic!("a caro move")
                };
                return p;
            }
            ServerMsg::GameOver(over) => panic!("the game ended early: {over:?}"),
            _ => {}
        }
    }
}

#[tokio::test]
async fn bot_rooms_do_not_starve_people() {
    let server = one_thread(Some(Duration::from_millis(100))).await;
    // Twelve rooms of max against max (xiangqi: long games) keep the only search thread
    // busy; their watchers read everything (and answer the heartbeat) in the background.
    let bot_moves = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let mut watchers = Vec::new();
    for i in 0..12 {
        // Twelve people, each on their own machine (one machine has at most eight rooms).
        let machine = std::net::Ipv4Addr::new(127, 0, 1, i + 1);
        let mut w = server.connect_from(machine, &format!("watcher {i}")).await;
        w.create(RoomSettings {
            seats: [SeatKind::Bot(Level::Max), SeatKind::Bot(Level::Max)],
            ..xiangqi(None)
        })
        .await;
        let seen = bot_moves.clone();
        watchers.push(tokio::spawn(async move {
            loop {
                if let ServerMsg::Moved { .. } = w.recv_any().await {
                    seen.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
            }
        }));
    }
    // Two people play on: every move is acknowledged to both (stones two apart: no five).
    let (mut a, mut b, _) = two_players(&server, caro(15)).await;
    for i in 0..7u8 {
        exchange(&mut a, &mut b, 2 * i, 0).await;
        exchange(&mut b, &mut a, 2 * i, 14).await;
    }
    // A person's bot still answers every move, with a move on a free point.
    let mut me = server.connect("Chi").await;
    me.create(vs_bot(15, Level::Medium)).await;
    me.game_started().await;
    let mut taken = std::collections::HashSet::new();
    for (x, y) in [(0, 0), (14, 14), (0, 14), (14, 0)] {
        taken.insert(Point::new(x, y));
        let reply = bot_answers(&mut me, x, y).await;
        assert!(taken.insert(reply), "the bot played on a taken point");
    }
    // The bots' games went on meanwhile too.
    assert!(bot_moves.load(std::sync::atomic::Ordering::Relaxed) > 0);
    for w in watchers {
        w.abort();
    }
    server.stop().await;
}

#[tokio::test]
async fn one_hint_per_move() {
    let server = one_thread(None).await;
    let (mut a, mut b, _) = two_players(&server, caro(15)).await;
    let hint = ask_hint(&mut a).await.expect("a hint");
    let again = ask_hint(&mut a)
        .await
        .expect_err("a second hint for the same move");
    assert_eq!(again.code, ErrorCode::HintUsed);
    assert_eq!(
        again.message,
        "you have had your hint for this move; you can ask again after your next move"
    );
    exchange(&mut a, &mut b, hint.x, hint.y).await;
    // The other player has their own hint for their own move.
    let theirs = ask_hint(&mut b).await.expect("the opponent's hint");
    exchange(&mut b, &mut a, theirs.x, theirs.y).await;
    ask_hint(&mut a).await.expect("a hint for the next move");
    server.stop().await;
}

#[tokio::test]
async fn hints_are_refused_while_the_engines_are_busy() {
    let server = one_thread(None).await;
    // The other room is ready first, so that the hint below is one round trip after the
    // bot starts thinking (setting up two players can take seconds on a busy machine).
    let (mut a, _b, _) = two_players(&server, caro(15)).await;
    // A person's max bot thinks for seconds on the only thread.
    let mut me = server.connect("Chi").await;
    me.create(vs_bot(15, Level::Max)).await;
    me.game_started().await;
    me.play(7, 7).await;
    me.saw(7, 7).await;
    // Meanwhile, in the other room, a hint is refused with a sentence.
    let refused = ask_hint(&mut a)
        .await
        .expect_err("no hint while the engine is busy");
    assert_eq!(refused.code, ErrorCode::EnginesBusy);
    assert_eq!(
        refused.message,
        "the server's engines are busy with other games: ask for a hint again in a moment"
    );
    // Refused is not used: once the bot has moved, the same player gets their hint.
    me.recv_until(|m| matches!(m, ServerMsg::Moved { record, .. } if record.by == Seat::Two))
        .await;
    ask_hint(&mut a)
        .await
        .expect("a hint once the engine is free");
    server.stop().await;
}

#[tokio::test]
async fn a_closed_room_s_search_is_called_off() {
    let server = one_thread(None).await;
    let mut me = server.connect("Chi").await;
    me.create(vs_bot(15, Level::Max)).await;
    me.game_started().await;
    me.play(7, 7).await;
    me.saw(7, 7).await;
    // The bot is thinking (seconds, at max) when its only person leaves: the room closes.
    me.send(ClientMsg::LeaveRoom).await;
    me.recv_until(|m| matches!(m, ServerMsg::Left)).await;
    // Its search does not hold the engine: a hint elsewhere is served at once.
    let (mut a, _b, _) = two_players(&server, caro(15)).await;
    ask_hint(&mut a)
        .await
        .expect("the closed room's search was called off, so the engine is free");
    server.stop().await;
}
