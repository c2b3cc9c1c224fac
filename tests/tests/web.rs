//! The browser client's HTTP side, byte by byte: what the game port serves to a browser
//! (over HTTPS, as browsers reach it), what it refuses, and that banco clients on the
//! same port are unaffected.

use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use banco_tests::{TestServer, WAIT, caro, test_config, tls_to, two_players};

/// Sends `request` over HTTPS and reads the answer until the server closes (or `WAIT`
/// passes).
async fn ask(addr: SocketAddr, request: &[u8]) -> String {
    let (mut stream, _) = tls_to(addr, b"http/1.1").await;
    stream.write_all(request).await.expect("send the request");
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(WAIT, stream.read_to_end(&mut answer)).await;
    String::from_utf8_lossy(&answer).into_owned()
}

fn get(path: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").into_bytes()
}

#[tokio::test]
async fn the_page_and_its_files_are_served_on_the_game_port() {
    let server = TestServer::start().await;
    let page = ask(server.addr, &get("/")).await;
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("name=\"banco-protocol\""));
    assert!(
        page.to_lowercase()
            .contains("content-security-policy: default-src 'self'")
    );
    let script = ask(server.addr, &get("/js/main.js")).await;
    assert!(script.starts_with("HTTP/1.1 200"));
    assert!(
        script
            .to_lowercase()
            .contains("content-type: text/javascript")
    );
    let words = ask(server.addr, &get("/locales/vi.json")).await;
    assert!(words.contains("\"room.players\""));
    // A banco client on the same port plays as ever.
    let (mut a, mut b, _) = two_players(&server, caro(15)).await;
    banco_tests::exchange(&mut a, &mut b, 7, 7).await;
    server.stop().await;
}

#[tokio::test]
async fn only_gets_of_known_files_are_answered() {
    let server = TestServer::start().await;
    let missing = ask(server.addr, &get("/../../etc/passwd")).await;
    assert!(missing.starts_with("HTTP/1.1 404"), "{missing}");
    let post = ask(
        server.addr,
        b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc",
    )
    .await;
    assert!(post.starts_with("HTTP/1.1 405"), "{post}");
    // A head far over the limit is cut, not buffered.
    let mut huge = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: ".to_vec();
    huge.extend(std::iter::repeat_n(b'a', 64 * 1024));
    huge.extend_from_slice(b"\r\n\r\n");
    let cut = ask(server.addr, &huge).await;
    assert!(!cut.starts_with("HTTP/1.1 200"), "{cut}");
    server.stop().await;
}

#[tokio::test]
async fn the_socket_answers_only_the_page_it_served() {
    let server = TestServer::start().await;
    let upgrade = |origin: &str| {
        format!(
            "GET /ws HTTP/1.1\r\nHost: {}\r\nOrigin: {origin}\r\nConnection: Upgrade\r\n\
             Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
            server.addr
        )
        .into_bytes()
    };
    let foreign = ask(server.addr, &upgrade("https://evil.example")).await;
    assert!(foreign.starts_with("HTTP/1.1 403"), "{foreign}");
    let (mut own, _) = tls_to(server.addr, b"http/1.1").await;
    own.write_all(&upgrade(&format!("https://{}", server.addr)))
        .await
        .unwrap();
    let mut head = vec![0u8; 12];
    tokio::time::timeout(WAIT, own.read_exact(&mut head))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(&head, b"HTTP/1.1 101");
    server.stop().await;
}

#[tokio::test]
async fn a_request_head_that_never_ends_is_cut() {
    let server = TestServer::start().await;
    let (mut slow, _) = tls_to(server.addr, b"http/1.1").await;
    slow.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .await
        .unwrap();
    // The rest never comes: the server closes the connection by itself.
    let mut rest = Vec::new();
    let closed = tokio::time::timeout(WAIT, slow.read_to_end(&mut rest)).await;
    assert!(closed.is_ok(), "the slow connection was kept open");
    server.stop().await;
}

#[tokio::test]
async fn with_the_web_off_the_port_speaks_only_banco() {
    let config = banco_server::Config {
        web: false,
        ..test_config()
    };
    let server = TestServer::with_config(config).await;
    let answer = ask(server.addr, &get("/")).await;
    assert!(!answer.contains("HTTP/1.1"), "{answer}");
    let (mut a, mut b, _) = two_players(&server, caro(15)).await;
    banco_tests::exchange(&mut a, &mut b, 7, 7).await;
    server.stop().await;
}
