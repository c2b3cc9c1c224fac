//! LAN discovery, on loopback only: a probe finds the server and the port of its game
//! service; anything that is not a probe goes unanswered; a discovery port that cannot
//! be had never stops the server.

use std::net::SocketAddr;
use std::time::Duration;

use banco_protocol::discovery::{self, Beacon, MAGIC, MAX_DATAGRAM, Probe};
use banco_protocol::{ClientMsg, PROTOCOL_VERSION};
use banco_server::Config;
use banco_server::discovery::probe;
use banco_tests::{TestServer, WAIT, caro, test_config};

/// Probes `target` (a loopback address) off the runtime.
async fn probe_at(target: SocketAddr) -> Vec<(SocketAddr, Beacon)> {
    assert!(target.ip().is_loopback(), "tests probe loopback only");
    tokio::task::spawn_blocking(move || probe(&[target], Duration::from_millis(300)))
        .await
        .expect("the prober does not panic")
}

/// Probes `target` until its beacon satisfies `pred` (the counts follow the lobby a
/// moment later than the client sees its own room).
async fn beacon_until(target: SocketAddr, pred: impl Fn(&Beacon) -> bool) -> (SocketAddr, Beacon) {
    for _ in 0..100 {
        let found = probe_at(target).await;
        assert!(found.len() <= 1, "one server, listed once: {found:?}");
        if let Some(hit) = found.into_iter().next()
            && pred(&hit.1)
        {
            return hit;
        }
    }
    panic!("no matching beacon from {target}");
}

#[tokio::test]
async fn a_probe_finds_the_server_with_its_game_port_and_counts() {
    let server = TestServer::with_discovery().await;
    let target = server.discovery.expect("discovery is on");
    let (game, beacon) = beacon_until(target, |_| true).await;
    assert_eq!(game, server.addr, "the beacon names the TCP game port");
    assert_ne!(game.port(), target.port());
    assert_eq!(beacon.magic, MAGIC);
    assert_eq!(beacon.version, PROTOCOL_VERSION);
    assert_eq!(beacon.name, "test-server");
    assert_eq!((beacon.rooms, beacon.players), (0, 0));
    assert!(server.fingerprint.is_some(), "the test server speaks TLS");
    assert_eq!(
        beacon.fingerprint, server.fingerprint,
        "the beacon names the key the game port shows"
    );

    // A player comes and opens a room: the beacon says so.
    let mut a = server.connect("An").await;
    a.create(caro(15)).await;
    let (_, beacon) = beacon_until(target, |b| b.rooms == 1 && b.players == 1).await;
    assert_eq!(beacon.name, "test-server");
    // And the address it gave is where one plays.
    let mut b = server.connect("Bình").await;
    b.send(ClientMsg::ListRooms).await;
    assert_eq!(b.rooms().await.len(), 1);
    server.stop().await;
}

#[tokio::test]
async fn anything_but_a_probe_goes_unanswered() {
    let server = TestServer::with_discovery().await;
    let target = server.discovery.expect("discovery is on");
    let socket = tokio::net::UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let mut not_ours = Probe::new();
    not_ours.magic = *b"notbanco";
    let beacon_as_probe = discovery::encode(&Beacon {
        magic: MAGIC,
        version: PROTOCOL_VERSION,
        name: "x".into(),
        port: 1,
        rooms: 0,
        players: 0,
        fingerprint: None,
    })
    .unwrap();
    let junk: Vec<Vec<u8>> = vec![
        Vec::new(),
        b"M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\n\r\n".to_vec(),
        discovery::encode(&not_ours).unwrap(),
        beacon_as_probe,
        vec![0xff; MAX_DATAGRAM],
        (0..=255u8).collect(),
    ];
    for datagram in &junk {
        socket.send_to(datagram, target).await.unwrap();
    }
    // Then a real probe from another socket. The server reads datagrams in order and
    // answers each before reading the next, so by the time the probe's answer is here
    // any answer to the junk would already be waiting on the first socket.
    let prober = tokio::net::UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let probe = discovery::encode(&Probe::new()).unwrap();
    prober.send_to(&probe, target).await.unwrap();
    let mut buf = vec![0u8; MAX_DATAGRAM];
    let (len, from) = tokio::time::timeout(WAIT, prober.recv_from(&mut buf))
        .await
        .expect("the probe is answered")
        .unwrap();
    assert_eq!(from, target);
    let beacon = discovery::decode_beacon(&buf[..len]).expect("the answer is a beacon");
    assert_eq!(beacon.port, server.addr.port());
    match socket.try_recv_from(&mut buf) {
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
        other => panic!("junk was answered: {other:?}"),
    }
    // The server still serves players.
    server.connect("An").await;
    server.stop().await;
}

#[tokio::test]
async fn a_discovery_port_already_taken_is_not_fatal() {
    let taken = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let config = Config {
        discovery: Some(taken.local_addr().unwrap()),
        ..test_config()
    };
    let server = TestServer::with_config(config).await;
    let mut a = server.connect("An").await;
    a.create(caro(15)).await;
    server.stop().await;
}

#[tokio::test]
async fn run_binds_the_configured_discovery_address() {
    // A free loopback port, named in the configuration as a host would name 0.0.0.0:7373.
    let port = std::net::UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let config = Config {
        discovery: Some(SocketAddr::from(([0, 0, 0, 0], port))),
        ..test_config()
    };
    // The game listens on loopback only, so discovery answers on loopback only.
    let server = TestServer::with_config(config).await;
    let target = SocketAddr::from(([127, 0, 0, 1], port));
    let (game, _) = beacon_until(target, |_| true).await;
    assert_eq!(game, server.addr);
    server.stop().await;
}
