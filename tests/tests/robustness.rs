//! Bad input of every kind: refused with the right error, changing nothing, never taking
//! the server (or anyone else's game) down.

use std::time::Duration;

use banco_protocol::{
    ClientMsg, ErrorCode, Hello, MAX_CLIENT_FRAME, Move, OfferKind, PROTOCOL_VERSION, Point,
    ServerMsg, XqSquare,
};
use banco_tests::{Client, TestServer, caro, exchange, test_config, two_players};

/// Hello as raw frame bytes with any version number.
fn hello_frame(version: u16) -> Vec<u8> {
    let payload = banco_protocol::wire::encode(&ClientMsg::Hello(Hello {
        version,
        name: "Old".into(),
        resume: None,
        account: None,
    }))
    .expect("a Hello encodes");
    let mut frame = (payload.len() as u32).to_be_bytes().to_vec();
    frame.extend(payload);
    frame
}

#[tokio::test]
async fn a_version_mismatch_is_explained_then_closed() {
    let server = TestServer::start().await;
    let mut c = Client::connect_raw(server.addr).await;
    c.send_bytes(&hello_frame(PROTOCOL_VERSION + 41)).await;
    let e = c.expect_error(ErrorCode::VersionMismatch).await;
    assert!(
        e.message.contains(&PROTOCOL_VERSION.to_string()),
        "{}",
        e.message
    );
    assert!(
        e.message.contains(&(PROTOCOL_VERSION + 41).to_string()),
        "{}",
        e.message
    );
    assert!(c.closed().await.is_empty());

    // A first frame that is no message at all (a client from another era) is told the same.
    let mut c = Client::connect_raw(server.addr).await;
    c.send_bytes(&[0, 0, 0, 4, 0xde, 0xad, 0xbe, 0xef]).await;
    let e = c.expect_error(ErrorCode::VersionMismatch).await;
    assert!(e.message.contains(&PROTOCOL_VERSION.to_string()));
    assert!(c.closed().await.is_empty());

    // Anything but Hello first is refused.
    let mut c = Client::connect_raw(server.addr).await;
    c.send(ClientMsg::ListRooms).await;
    c.expect_error(ErrorCode::Unexpected).await;
    assert!(c.closed().await.is_empty());

    // The server still greets a proper client.
    server.connect("An").await;
    server.stop().await;
}

#[tokio::test]
async fn bad_moves_are_refused_and_change_nothing() {
    let server = TestServer::start().await;
    let mut a = server.connect("An").await;
    let (id, _) = a.create(caro(15)).await;
    // No opponent yet: no game.
    a.play(7, 7).await;
    a.expect_error(ErrorCode::NoGame).await;

    let mut b = server.connect("Bình").await;
    b.join(id).await;
    a.game_started().await;
    b.game_started().await;
    let mut c = server.connect("Chi").await;
    c.watch(id).await;

    exchange(&mut a, &mut b, 7, 7).await;
    c.saw(7, 7).await;
    // Who tries (0 An, 1 Bình, 2 Chi the spectator), what, and the refusal.
    let refusals = [
        (0, Move::Caro(Point::new(8, 8)), ErrorCode::NotYourTurn),
        (1, Move::Caro(Point::new(7, 7)), ErrorCode::Occupied),
        (1, Move::Caro(Point::new(15, 3)), ErrorCode::OutOfBounds),
        (1, Move::Caro(Point::new(3, 200)), ErrorCode::OutOfBounds),
        (
            1,
            Move::Xiangqi {
                from: XqSquare { file: 0, rank: 0 },
                to: XqSquare { file: 0, rank: 1 },
            },
            ErrorCode::IllegalMove,
        ),
        (2, Move::Caro(Point::new(8, 8)), ErrorCode::NotAPlayer),
    ];
    for (who, mv, code) in refusals {
        let who = [&mut a, &mut b, &mut c].into_iter().nth(who).unwrap();
        who.send(ClientMsg::Move(mv)).await;
        let e = who.expect_error(code).await;
        assert!(!e.message.is_empty());
    }
    // Nobody saw any move but the first, and the position is as it was.
    for who in [&mut a, &mut b, &mut c] {
        let before = who.sync("after the refusals").await;
        assert!(
            !before.iter().any(|m| matches!(m, ServerMsg::Moved { .. })),
            "{before:?}"
        );
    }
    let mut d = server.connect("Dũng").await;
    let game = d.watch(id).await.game.unwrap();
    assert_eq!(game.moves.len(), 1);
    assert!(game.over.is_none());
    // And play goes on from there.
    exchange(&mut b, &mut a, 8, 8).await;
    server.stop().await;
}

#[tokio::test]
async fn messages_out_of_place_are_refused() {
    let server = TestServer::start().await;
    let mut a = server.connect("An").await;
    let hello = ClientMsg::Hello(Hello {
        version: PROTOCOL_VERSION,
        name: "An".into(),
        resume: None,
        account: None,
    });
    let in_room_only = [
        ClientMsg::Move(Move::Caro(Point::new(1, 1))),
        ClientMsg::Chat("hi".into()),
        ClientMsg::Offer(OfferKind::Undo),
        ClientMsg::Answer {
            kind: OfferKind::Undo,
            accept: true,
        },
        ClientMsg::Withdraw(OfferKind::NewGame),
        ClientMsg::Resign,
        ClientMsg::Hint,
        ClientMsg::LeaveRoom,
    ];
    a.send(hello.clone()).await;
    a.expect_error(ErrorCode::Unexpected).await;
    for msg in in_room_only {
        a.send(msg).await;
        a.expect_error(ErrorCode::NotInRoom).await;
    }
    // In a room without an opponent: offers and resigning have nothing to work on.
    a.create(caro(15)).await;
    a.send(hello).await;
    a.expect_error(ErrorCode::Unexpected).await;
    for kind in [OfferKind::Undo, OfferKind::NewGame, OfferKind::Draw] {
        a.send(ClientMsg::Offer(kind)).await;
        a.expect_error(ErrorCode::NoGame).await;
        a.send(ClientMsg::Answer { kind, accept: true }).await;
        a.expect_error(ErrorCode::NoOffer).await;
        a.send(ClientMsg::Withdraw(kind)).await;
        a.expect_error(ErrorCode::NoOffer).await;
    }
    a.send(ClientMsg::Resign).await;
    a.expect_error(ErrorCode::NoGame).await;
    a.send(ClientMsg::Hint).await;
    a.expect_error(ErrorCode::NoGame).await;
    server.stop().await;
}

#[tokio::test]
async fn garbage_in_a_frame_is_answered_and_the_connection_kept() {
    let server = TestServer::start().await;
    let (mut a, mut b, _) = two_players(&server, caro(15)).await;
    // Well framed, but not a message: an unknown variant, then a truncated one, then a
    // valid message with trailing bytes.
    let mut trailing = banco_protocol::wire::encode(&ClientMsg::ListRooms).unwrap();
    trailing.extend([1, 2, 3]);
    for payload in [vec![200u8], vec![6u8, 0], trailing, vec![]] {
        let mut frame = (payload.len() as u32).to_be_bytes().to_vec();
        frame.extend(&payload);
        a.send_bytes(&frame).await;
        a.expect_error(ErrorCode::Malformed).await;
    }
    // Still connected, still seated, still playing.
    exchange(&mut a, &mut b, 7, 7).await;
    server.stop().await;
}

#[tokio::test]
async fn an_oversized_frame_closes_only_that_connection() {
    let server = TestServer::start().await;
    let (mut a, mut b, _) = two_players(&server, caro(15)).await;
    let mut bad = Client::connect_raw(server.addr).await;
    bad.send_bytes(&((MAX_CLIENT_FRAME as u32) + 1).to_be_bytes())
        .await;
    bad.closed().await;
    // Also from a player mid-game: that player is dropped, the game goes on for the seat.
    let mut c = server.connect("Chi").await;
    c.send_bytes(&u32::MAX.to_be_bytes()).await;
    c.closed().await;
    exchange(&mut a, &mut b, 7, 7).await;
    server.stop().await;
}

/// A small, seeded generator: the fuzz input is the same on every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

#[tokio::test]
async fn random_bytes_never_hurt_the_server() {
    let server = TestServer::start().await;
    let (mut a, mut b, id) = two_players(&server, caro(15)).await;
    let mut rng = Lcg(0x00ba_c0c0);
    for round in 0..40 {
        let mut fuzz = if round % 2 == 0 {
            Client::connect_raw(server.addr).await
        } else {
            server.connect(&format!("fuzz{round}")).await
        };
        if round % 4 == 1 {
            fuzz.watch(id).await;
        }
        for _ in 0..8 {
            // Random frames with plausible lengths, and plain random bytes.
            let len = (rng.next() % 64) as usize;
            let mut frame = if rng.next().is_multiple_of(2) {
                (len as u32).to_be_bytes().to_vec()
            } else {
                Vec::new()
            };
            frame.extend(rng.bytes(len));
            // The server may already have closed this connection: that is fine.
            let stream = fuzz.send_bytes_lossy(&frame).await;
            if !stream {
                break;
            }
        }
        fuzz.disconnect();
    }
    // The game in progress was never disturbed.
    exchange(&mut a, &mut b, 7, 7).await;
    exchange(&mut b, &mut a, 8, 8).await;
    server.connect("after the storm").await;
    server.stop().await;
}

#[tokio::test]
async fn a_client_that_does_not_read_is_dropped_and_others_play_on() {
    let config = banco_server::Config {
        outbox_bytes: 4096,
        ..test_config()
    };
    let server = TestServer::with_config(config).await;
    let (mut a, mut b, _) = two_players(&server, caro(15)).await;
    // A few rooms make each room list a bigger message.
    let mut owners = Vec::new();
    for i in 0..5 {
        let mut o = server.connect(&format!("owner{i}")).await;
        o.create(caro(15)).await;
        owners.push(o);
    }
    let mut flooder = server.connect("Flood").await;
    // Ask for the room list over and over and never read an answer.
    let burst: Vec<u8> = {
        let payload = banco_protocol::wire::encode(&ClientMsg::ListRooms).unwrap();
        let mut frame = (payload.len() as u32).to_be_bytes().to_vec();
        frame.extend(payload);
        frame.repeat(2000)
    };
    let writer = tokio::spawn(async move {
        for _ in 0..500 {
            if !flooder.send_bytes_lossy(&burst).await {
                return flooder;
            }
        }
        flooder
    });
    // Meanwhile the game goes on.
    for i in 0..4 {
        exchange(&mut a, &mut b, i, 0).await;
        exchange(&mut b, &mut a, i, 5).await;
    }
    let mut flooder = tokio::time::timeout(Duration::from_secs(120), writer)
        .await
        .expect("the flooder's writes end")
        .unwrap();
    // The server cut it off: reading drains what was sent, then the end.
    flooder.closed().await;
    exchange(&mut a, &mut b, 4, 0).await;
    assert_eq!(a.game_over().await.winner, Some(banco_protocol::Seat::One));
    server.stop().await;
}
