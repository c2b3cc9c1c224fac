//! A link that goes silent (packets dropped, no FIN: a laptop asleep, a cable pulled) is
//! found by the protocol's heartbeat: the server drops the dead connection and holds the
//! player's seat, and the opponent is told, where TCP alone would wait for minutes (or
//! forever, when something in between still answers for the dead end).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use banco_protocol::{ClientMsg, Hello, PROTOCOL_VERSION, Seat, ServerMsg};
use banco_server::Config;
use banco_tests::{Client, TestServer, caro, test_config};

/// A relay in front of the server that can go silent: it stops moving bytes either way
/// but keeps both connections open, as a dead link in between would.
struct SilentLink {
    addr: std::net::SocketAddr,
    silent: Arc<AtomicBool>,
}

impl SilentLink {
    async fn start(server: std::net::SocketAddr) -> SilentLink {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind a loopback port");
        let addr = listener
            .local_addr()
            .expect("a bound listener has an address");
        let silent = Arc::new(AtomicBool::new(false));
        let flag = silent.clone();
        tokio::spawn(async move {
            while let Ok((inside, _)) = listener.accept().await {
                let outside = TcpStream::connect(server)
                    .await
                    .expect("the server is there");
                let (ri, wi) = inside.into_split();
                let (ro, wo) = outside.into_split();
                tokio::spawn(pump(ri, wo, flag.clone()));
                tokio::spawn(pump(ro, wi, flag.clone()));
            }
        });
        SilentLink { addr, silent }
    }

    fn go_silent(&self) {
        self.silent.store(true, Ordering::SeqCst);
    }
}

/// Copies bytes until the link goes silent; then holds its ends open, moving nothing.
async fn pump(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    silent: Arc<AtomicBool>,
) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        if silent.load(Ordering::SeqCst) {
            // Keep both halves alive, read nothing, write nothing.
            std::future::pending::<()>().await;
        }
        let read = tokio::time::timeout(Duration::from_millis(50), from.read(&mut buf)).await;
        match read {
            Ok(Ok(0)) | Ok(Err(_)) => return,
            Ok(Ok(n)) => {
                if silent.load(Ordering::SeqCst) {
                    std::future::pending::<()>().await;
                }
                if to.write_all(&buf[..n]).await.is_err() {
                    return;
                }
            }
            Err(_) => {}
        }
    }
}

#[tokio::test]
async fn a_silent_link_is_found_by_the_heartbeat_and_the_seat_held() {
    let config = Config {
        heartbeat: Duration::from_millis(500),
        ..test_config()
    };
    let server = TestServer::with_config(config).await;
    let link = SilentLink::start(server.addr).await;
    let mut an = server.connect("An").await;
    let (room, _) = an.create(caro(15)).await;
    // Bình comes through the link that will die.
    let mut binh = Client::connect_raw(link.addr).await;
    binh.send(ClientMsg::Hello(Hello {
        version: PROTOCOL_VERSION,
        name: "Bình".into(),
        resume: None,
        account: None,
    }))
    .await;
    binh.welcome().await;
    binh.join(room).await;
    an.game_started().await;
    // Bình answers heartbeats (as it reads) for a while: nobody is dropped while the link
    // lives, however long it stays quiet otherwise.
    for _ in 0..8 {
        tokio::time::sleep(Duration::from_millis(300)).await;
        for who in [&mut an, &mut binh] {
            who.send(ClientMsg::ListRooms).await;
            who.rooms().await;
        }
    }

    link.go_silent();
    // An (answering heartbeats as it reads) hears that Bình's connection is gone: the
    // seat is held, not given up.
    let people = an
        .recv_until(|m| {
            matches!(m, ServerMsg::People { seats, .. }
                if seats[Seat::Two.index()].as_ref().is_some_and(|s| !s.connected))
        })
        .await;
    let ServerMsg::People { seats, .. } = people else {
        unreachable!()
    };
    assert_eq!(seats[Seat::Two.index()].as_ref().unwrap().name, "~Bình");
    // Bình comes back on a working connection with the resume token.
    let mut back = server.reconnect("Bình", binh.token()).await;
    back.recv_until(|m| matches!(m, ServerMsg::Joined(_))).await;
    an.recv_until(|m| {
        matches!(m, ServerMsg::People { seats, .. }
            if seats[Seat::Two.index()].as_ref().is_some_and(|s| s.connected))
    })
    .await;
    server.stop().await;
}
