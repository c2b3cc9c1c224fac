//! `banco discover` against a real server on loopback: the server's beacon comes back
//! as a line naming it, its game address and what it holds; a port where nothing
//! answers lists nothing.

use banco_server::{Config, Sockets, StoreLocation};
use serde_json::Value;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// Runs `banco discover --json` at `target` (loopback only) and returns its servers.
async fn discover(target: std::net::SocketAddr) -> Vec<Value> {
    assert!(target.ip().is_loopback(), "tests probe loopback only");
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_banco"))
        .args(["discover", "--json", "--wait", "1s", &target.to_string()])
        .env(
            "BANCO_CONFIG_DIR",
            std::env::temp_dir().join("banco-discover-e2e"),
        )
        .output()
        .await
        .expect("banco discover runs");
    assert!(out.status.success(), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["event"], "servers");
    v["servers"].as_array().expect("a list").clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discover_lists_the_server_on_loopback() {
    let game = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let game_addr = game.local_addr().unwrap();
    let udp = tokio::net::UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let probe_at = udp.local_addr().unwrap();
    let config = Config {
        name: "e2e-lan".into(),
        store: StoreLocation::Memory,
        discovery: None,
        ..Config::default()
    };
    let shutdown = CancellationToken::new();
    let server = tokio::spawn(banco_server::serve(
        Sockets {
            game,
            discovery: Some(udp),
        },
        config,
        shutdown.clone(),
    ));
    // A datagram can be lost even on loopback: ask again rather than fail on one loss.
    let mut servers = Vec::new();
    for _ in 0..10 {
        servers = discover(probe_at).await;
        if !servers.is_empty() {
            break;
        }
    }
    assert_eq!(servers.len(), 1, "{servers:?}");
    let s = &servers[0];
    assert_eq!(s["name"], "e2e-lan");
    assert_eq!(
        s["address"],
        game_addr.to_string(),
        "the game port, not the probe's"
    );
    assert_eq!(s["compatible"], true);
    assert_eq!(
        (s["rooms"].as_u64(), s["players"].as_u64()),
        (Some(0), Some(0))
    );

    // Nothing listens on the game port for UDP: nothing answers there.
    let quiet = tokio::net::UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let quiet_at = quiet.local_addr().unwrap();
    assert!(discover(quiet_at).await.is_empty());
    drop(quiet);

    shutdown.cancel();
    let _ = tokio::time::timeout(Duration::from_secs(30), server).await;
}
