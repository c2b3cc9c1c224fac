//! Random valid messages from many clients at once, in any order and any state: the
//! server answers each (or ignores it) without ever panicking, and keeps serving.

use futures::{SinkExt, StreamExt};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio_util::codec::Framed;

use banco_protocol::{
    CaroOpening, ClientCodec, ClientMsg, FirstMove, GameSettings, Hello, Level, Move, OfferKind,
    PROTOCOL_VERSION, Point, RoomSettings, Rule, SeatKind, TimeControl, XqSquare,
};
use banco_server::Config;
use banco_tests::{TestServer, caro, exchange, test_config, two_players};

static PANICS: AtomicUsize = AtomicUsize::new(0);

struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn random_settings(rng: &mut Lcg) -> RoomSettings {
    let size = [5u8, 9, 15, 3, 70][rng.below(5) as usize];
    let seat = |rng: &mut Lcg| match rng.below(4) {
        0 => SeatKind::Bot(Level::ALL[rng.below(Level::ALL.len() as u64) as usize]),
        _ => SeatKind::Human,
    };
    RoomSettings {
        rated: true,
        game: if rng.below(10) == 0 {
            GameSettings::Xiangqi { fen: None }
        } else {
            GameSettings::Caro {
                width: size,
                height: [5u8, 15, 64][rng.below(3) as usize],
                rule: Rule::ALL[rng.below(4) as usize],
                // Stones anywhere, on or off the board, maybe twice on a point.
                opening: match rng.below(4) {
                    0 => CaroOpening::Balanced,
                    1 => CaroOpening::Stones(
                        (0..rng.below(6))
                            .map(|_| Point::new(rng.below(16) as u8, rng.below(16) as u8))
                            .collect(),
                    ),
                    _ => CaroOpening::None,
                },
            }
        },
        time: match rng.below(4) {
            0 => TimeControl::per_move(Duration::from_millis(rng.below(3000))),
            1 => TimeControl::clock(
                Duration::from_secs(rng.below(5)),
                Duration::from_millis(rng.below(500)),
            ),
            _ => TimeControl::Unlimited,
        },
        first: [FirstMove::Me, FirstMove::Them, FirstMove::Random][rng.below(3) as usize],
        seats: [seat(rng), seat(rng)],
        hints: rng.below(2) == 0,
        match_format: None,
    }
}

fn random_message(rng: &mut Lcg, rooms: u32) -> ClientMsg {
    let kind = [OfferKind::Undo, OfferKind::NewGame, OfferKind::Draw][rng.below(3) as usize];
    let room = rng.below(u64::from(rooms) + 2) as u32;
    match rng.below(16) {
        0 => ClientMsg::Hello(Hello {
            version: PROTOCOL_VERSION,
            name: "again".into(),
            resume: None,
            account: None,
        }),
        1 => ClientMsg::ListRooms,
        2 => ClientMsg::CreateRoom(random_settings(rng)),
        3 => ClientMsg::JoinRoom(room),
        4 => ClientMsg::WatchRoom(room),
        5 => ClientMsg::LeaveRoom,
        6..=8 => ClientMsg::Move(Move::Caro(Point::new(
            rng.below(17) as u8,
            rng.below(17) as u8,
        ))),
        9 => ClientMsg::Move(Move::Xiangqi {
            from: XqSquare {
                file: rng.below(12) as u8,
                rank: rng.below(12) as u8,
            },
            to: XqSquare {
                file: rng.below(12) as u8,
                rank: rng.below(12) as u8,
            },
        }),
        10 => ClientMsg::Chat(["hi", "", "  ", "\u{1b}[2J", "chào"][rng.below(5) as usize].into()),
        11 => ClientMsg::Offer(kind),
        12 => ClientMsg::Answer {
            kind,
            accept: rng.below(2) == 0,
        },
        13 => ClientMsg::Withdraw(kind),
        14 => ClientMsg::Resign,
        _ => ClientMsg::Hint,
    }
}

/// One chaotic client: says Hello, then sends `count` random messages while a reader
/// drains whatever comes back. Returns how many messages it received.
async fn chaos_client(addr: std::net::SocketAddr, seed: u64, count: usize) -> usize {
    let (stream, _) = banco_tests::tls_to(addr, banco_client::tls::ALPN).await;
    let (mut sink, mut stream) = Framed::new(stream, ClientCodec::new()).split();
    let reader = tokio::spawn(async move {
        let mut seen = 0;
        while let Some(Ok(Ok(_msg))) = stream.next().await {
            seen += 1;
        }
        seen
    });
    let mut rng = Lcg(seed);
    let hello = ClientMsg::Hello(Hello {
        version: PROTOCOL_VERSION,
        name: format!("chaos {seed}"),
        resume: None,
        account: None,
    });
    if sink.send(hello).await.is_ok() {
        for _ in 0..count {
            if sink.send(random_message(&mut rng, 12)).await.is_err() {
                break;
            }
            if rng.below(8) == 0 {
                tokio::task::yield_now().await;
            }
        }
    }
    // Half-close: the server sees the end, finishes its answers and closes its side.
    let _ = sink.close().await;
    tokio::time::timeout(Duration::from_secs(60), reader)
        .await
        .expect("the reader finishes once the connection closes")
        .unwrap_or(0)
}

#[tokio::test]
async fn random_messages_from_many_clients_never_break_the_server() {
    std::panic::set_hook(Box::new(|info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        eprintln!("panic: {info}");
    }));
    let config = Config {
        grace: Duration::from_millis(200),
        bot_think_cap: Some(Duration::from_millis(20)),
        ..test_config()
    };
    let server = TestServer::with_config(config).await;
    let (mut a, mut b, _) = two_players(&server, caro(15)).await;

    let mut clients = Vec::new();
    for seed in 1..=8u64 {
        clients.push(tokio::spawn(chaos_client(server.addr, seed * 7919, 400)));
    }
    let mut heard = 0;
    for c in clients {
        heard += c.await.expect("a chaos client finished");
    }
    assert!(heard > 0, "the server answered the chaos");

    // The game that was going on is undisturbed, and new people are served.
    exchange(&mut a, &mut b, 7, 7).await;
    let mut c = server.connect("after").await;
    c.send(ClientMsg::ListRooms).await;
    c.rooms().await;
    server.stop().await;
    assert_eq!(PANICS.load(Ordering::SeqCst), 0, "something panicked");
    let _ = std::panic::take_hook();
}
