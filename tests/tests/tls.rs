//! Encryption on the game port, end to end through the real server and the real
//! terminal client's connection code: what crosses the wire (recorded by a loopback
//! relay, the test's packet capture) with TLS on and with `--no-tls`, the key pinned on
//! first use and a changed key refused, the page over HTTPS and the warning on plain
//! HTTP, and clients that speak the other way refused with sentences.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use banco_client::known_hosts::{self, Checked, PinSource, Trust};
use banco_client::locale::Locale;
use banco_client::net::{ConnectError, Connection, Security};
use banco_protocol::{
    ClientMsg, Credentials, ErrorCode, Hello, PROTOCOL_VERSION, Point, ResumeToken, Seat,
};
use banco_server::Config;
use banco_server::tls::Tls;
use banco_tests::{Client, TempDir, TestServer, WAIT, caro, test_config, tls_to, two_players};

/// A loopback relay that records every byte each way, as a capture on the wire would,
/// and whose target can be changed (a server swapped behind the same address).
struct Tap {
    /// Where clients connect.
    addr: SocketAddr,
    /// Where new connections are relayed.
    target: Arc<Mutex<SocketAddr>>,
    /// Client to server, in arrival order (all connections).
    up: Arc<Mutex<Vec<u8>>>,
    /// Server to client.
    down: Arc<Mutex<Vec<u8>>>,
}

impl Tap {
    async fn start(to: SocketAddr) -> Tap {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind a loopback port");
        let addr = listener.local_addr().expect("a bound listener's address");
        let target = Arc::new(Mutex::new(to));
        let up = Arc::new(Mutex::new(Vec::new()));
        let down = Arc::new(Mutex::new(Vec::new()));
        let (t, u, d) = (target.clone(), up.clone(), down.clone());
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let to = *t.lock().expect("not poisoned");
                let Ok(server) = TcpStream::connect(to).await else {
                    continue;
                };
                let (cr, cw) = client.into_split();
                let (sr, sw) = server.into_split();
                tokio::spawn(pump(cr, sw, u.clone()));
                tokio::spawn(pump(sr, cw, d.clone()));
            }
        });
        Tap {
            addr,
            target,
            up,
            down,
        }
    }

    fn point_to(&self, to: SocketAddr) {
        *self.target.lock().expect("not poisoned") = to;
    }

    fn up(&self) -> Vec<u8> {
        self.up.lock().expect("not poisoned").clone()
    }

    fn down(&self) -> Vec<u8> {
        self.down.lock().expect("not poisoned").clone()
    }
}

async fn pump(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    log: Arc<Mutex<Vec<u8>>>,
) {
    let mut buf = vec![0u8; 16 * 1024];
    while let Ok(n) = from.read(&mut buf).await {
        if n == 0 {
            break;
        }
        log.lock()
            .expect("not poisoned")
            .extend_from_slice(&buf[..n]);
        if to.write_all(&buf[..n]).await.is_err() {
            break;
        }
    }
    let _ = to.shutdown().await;
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// A server with TLS as `tls` says, and everything else as tests have it.
async fn server_with(tls: Tls) -> TestServer {
    TestServer::with_config(Config {
        tls,
        ..test_config()
    })
    .await
}

/// The password the capture looks for: nothing else on the wire looks like it.
const PASSWORD: &str = "canary-password-7b3f19";

/// Registers an account through the tap with the real client, then comes back with
/// the resume token and the password (both cross the wire from the client); returns
/// the tap and the token.
async fn register_and_come_back(tls: Tls, trust: &Trust) -> (Tap, ResumeToken, TestServer) {
    let server = server_with(tls).await;
    let tap = Tap::start(server.addr).await;
    let address = tap.addr.to_string();
    let account = |register| {
        Some(Credentials {
            bot: false,
            password: PASSWORD.into(),
            register,
        })
    };
    let first = Connection::open_trusting(&address, "Lan", None, account(true), trust)
        .await
        .expect("registered");
    let token = first.welcome.resume;
    assert!(first.welcome.account);
    first.start().close(Duration::from_secs(5)).await;
    let back = Connection::open_trusting(&address, "Lan", Some(token), account(false), trust)
        .await
        .expect("logged in again with the token");
    assert!(back.welcome.account);
    back.start().close(Duration::from_secs(5)).await;
    (tap, token, server)
}

#[tokio::test]
async fn with_tls_no_password_and_no_token_crosses_the_wire_readable() {
    let (tap, token, server) = register_and_come_back(Tls::SelfSigned, &Trust::default()).await;
    let (up, down) = (tap.up(), tap.down());
    assert_eq!(
        up.first(),
        Some(&0x16),
        "the client opened with a TLS handshake"
    );
    assert!(
        up.len() > 100 && down.len() > 100,
        "the capture saw the sessions"
    );
    assert!(
        !contains(&up, PASSWORD.as_bytes()),
        "the password crossed in the clear"
    );
    assert!(
        !contains(&up, &token.0),
        "the token crossed in the clear (client to server)"
    );
    assert!(
        !contains(&down, &token.0),
        "the token crossed in the clear (server to client)"
    );
    assert!(
        !contains(&up, b"Lan") && !contains(&down, b"Lan"),
        "the name crossed in the clear"
    );
    server.stop().await;
}

#[tokio::test]
async fn with_no_tls_the_capture_reads_the_password_and_the_token() {
    // The same sessions in the clear: the capture above would see them, so its silence
    // means something.
    let trust = Trust::default().in_the_clear();
    let (tap, token, server) = register_and_come_back(Tls::Off, &trust).await;
    let (up, down) = (tap.up(), tap.down());
    assert!(contains(&up, PASSWORD.as_bytes()));
    assert!(contains(&up, &token.0));
    assert!(contains(&down, &token.0));
    server.stop().await;
}

#[tokio::test]
async fn a_game_is_played_over_tls_with_the_key_the_server_holds() {
    let server = TestServer::start().await;
    let fingerprint = server.fingerprint.expect("TLS is on by default");
    let (mut a, mut b, _) = two_players(&server, caro(15)).await;
    assert_eq!(a.fingerprint, Some(fingerprint));
    assert_eq!(b.fingerprint, Some(fingerprint));
    for i in 0..5u8 {
        a.play(i, 7).await;
        for who in [&mut a, &mut b] {
            assert_eq!(who.moved().await.0, Point::new(i, 7));
        }
        if i < 4 {
            b.play(i, 9).await;
            for who in [&mut a, &mut b] {
                assert_eq!(who.moved().await.0, Point::new(i, 9));
            }
        }
    }
    for who in [&mut a, &mut b] {
        assert_eq!(who.game_over().await.winner, Some(Seat::One));
    }
    server.stop().await;
}

#[tokio::test]
async fn the_key_is_pinned_on_first_use_and_a_changed_key_refused_with_both_fingerprints() {
    let first = TestServer::start().await;
    let other = TestServer::start().await;
    let (old, new) = (first.fingerprint.unwrap(), other.fingerprint.unwrap());
    assert_ne!(old, new);
    let tap = Tap::start(first.addr).await;
    let address = tap.addr.to_string();
    let state = TempDir::new("pins");
    let trust = || Trust::from_state_dir(Some(state.path()));

    let c = Connection::open_trusting(&address, "An", None, None, &trust())
        .await
        .unwrap();
    assert_eq!(
        c.security,
        Security::Encrypted {
            fingerprint: old,
            checked: Checked::FirstUse
        }
    );
    drop(c);
    let c = Connection::open_trusting(&address, "An2", None, None, &trust())
        .await
        .unwrap();
    assert_eq!(
        c.security,
        Security::Encrypted {
            fingerprint: old,
            checked: Checked::Known
        }
    );
    drop(c);

    // Another server (another key) answers at the same address.
    tap.point_to(other.addr);
    let e = Connection::open_trusting(&address, "An3", None, None, &trust())
        .await
        .err()
        .expect("a changed key is refused");
    assert!(
        matches!(e, ConnectError::KeyChanged { pinned, presented, origin: PinSource::KnownHosts, .. }
            if pinned == old && presented == new),
        "{e:?}"
    );
    let sentence = e.describe(&Locale::english());
    for needed in [
        old.to_string(),
        new.to_string(),
        format!("banco forget {address}"),
        state.path().join("known_hosts").display().to_string(),
    ] {
        assert!(sentence.contains(&needed), "{needed:?} not in: {sentence}");
    }
    // Nor does --no-tls get around the pin.
    let plain = Connection::open_trusting(&address, "An4", None, None, &trust().in_the_clear())
        .await
        .err()
        .unwrap();
    assert!(
        matches!(plain, ConnectError::PlainButPinned { pinned, .. } if pinned == old),
        "{plain:?}"
    );
    // A key named up front that is not the server's is refused too.
    let told = trust().expecting(&address, old, PinSource::Flag);
    let e = Connection::open_trusting(&address, "An5", None, None, &told)
        .await
        .err()
        .unwrap();
    assert!(e.describe(&Locale::english()).contains("--fingerprint"));

    // The host confirms the new key: forgotten, then pinned anew.
    known_hosts::forget(Some(state.path()), &address).unwrap();
    let c = Connection::open_trusting(&address, "An6", None, None, &trust())
        .await
        .unwrap();
    assert_eq!(
        c.security,
        Security::Encrypted {
            fingerprint: new,
            checked: Checked::FirstUse
        }
    );
    drop(c);
    first.stop().await;
    other.stop().await;
}

/// Reads whatever `stream` says until it closes (within [`WAIT`]).
async fn read_all(mut stream: impl tokio::io::AsyncRead + Unpin) -> String {
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(WAIT, stream.read_to_end(&mut answer)).await;
    String::from_utf8_lossy(&answer).into_owned()
}

const GET: &[u8] = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";

#[tokio::test]
async fn the_page_is_served_over_https_with_the_server_key() {
    let server = TestServer::start().await;
    // As browsers ask (ALPN http/1.1), and as a client that asks for nothing.
    for alpn in [&b"http/1.1"[..], b""] {
        let (mut tls, fingerprint) = tls_to(server.addr, alpn).await;
        assert_eq!(Some(fingerprint), server.fingerprint);
        tls.write_all(GET).await.unwrap();
        let page = read_all(tls).await;
        assert!(page.starts_with("HTTP/1.1 200"), "{page}");
        assert!(page.contains("name=\"banco-protocol\""));
    }
    server.stop().await;
}

#[tokio::test]
async fn plain_http_gets_a_page_pointing_at_https_and_never_the_game() {
    let server = TestServer::start().await;
    let fingerprint = server.fingerprint.unwrap();
    let host = server.addr.to_string();
    let mut plain = TcpStream::connect(server.addr).await.unwrap();
    plain
        .write_all(
            format!("GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").as_bytes(),
        )
        .await
        .unwrap();
    let page = read_all(plain).await;
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("in the clear"), "{page}");
    assert!(
        page.contains(&format!("href=\"https://{host}/\"")),
        "{page}"
    );
    assert!(page.contains(&fingerprint.to_string()), "{page}");
    assert!(
        !page.contains("banco-protocol"),
        "the game's page went out in the clear"
    );
    // Nor does its WebSocket open in the clear.
    let mut ws = TcpStream::connect(server.addr).await.unwrap();
    ws.write_all(
        format!(
            "GET /ws HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\nConnection: Upgrade\r\n\
             Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    let mut head = vec![0u8; 12];
    tokio::time::timeout(WAIT, ws.read_exact(&mut head))
        .await
        .unwrap()
        .unwrap();
    assert_ne!(&head, b"HTTP/1.1 101");
    server.stop().await;
}

#[tokio::test]
async fn clients_speaking_the_other_way_are_told_what_to_do() {
    // A banco client in the clear, at a server with TLS on: one frame saying why.
    let server = TestServer::start().await;
    let mut old = Client::connect_plain(server.addr).await;
    old.send(ClientMsg::Hello(Hello {
        version: PROTOCOL_VERSION,
        name: "Old".into(),
        resume: None,
        account: None,
    }))
    .await;
    let refusal = old.expect_error(ErrorCode::VersionMismatch).await;
    assert!(
        refusal
            .message
            .starts_with(banco_server::tls::accept::PLAIN_REFUSAL),
        "{}",
        refusal.message
    );
    assert!(refusal.message.contains("--no-tls"));
    // banco's own client told --no-tls says it in its words.
    let e = Connection::open_trusting(
        &server.addr.to_string(),
        "An",
        None,
        None,
        &Trust::default().in_the_clear(),
    )
    .await
    .err()
    .unwrap();
    assert_eq!(e, ConnectError::ServerEncrypts(server.addr.to_string()));

    // A TLS client at a server started with --no-tls.
    let plain = server_with(Tls::Off).await;
    let e = Connection::open(&plain.addr.to_string(), "An")
        .await
        .err()
        .unwrap();
    assert_eq!(e, ConnectError::NotTls(plain.addr.to_string()));
    assert!(e.describe(&Locale::english()).contains("--no-tls"));
    // ...which plays on with clients in the clear, as before TLS.
    let mut c = plain.connect("Cũ").await;
    assert!(c.fingerprint.is_none());
    c.send(ClientMsg::ListRooms).await;
    c.rooms().await;
    server.stop().await;
    plain.stop().await;
}

#[tokio::test]
async fn a_handshake_that_stalls_holds_up_nobody_and_is_cut() {
    let server = TestServer::start().await;
    // The first bytes of a ClientHello, and then nothing.
    let mut stalled = TcpStream::connect(server.addr).await.unwrap();
    stalled.write_all(&[0x16, 0x03, 0x01]).await.unwrap();
    // Others connect and play meanwhile.
    let (mut a, mut b, _) = two_players(&server, caro(15)).await;
    banco_tests::exchange(&mut a, &mut b, 7, 7).await;
    // The stalled one is closed by the server (its handshake has a deadline).
    let mut rest = Vec::new();
    let closed = tokio::time::timeout(WAIT, stalled.read_to_end(&mut rest)).await;
    assert!(closed.is_ok(), "the stalled handshake was kept open");
    server.stop().await;
}

#[tokio::test]
async fn a_kept_certificate_keeps_its_fingerprint_across_restarts() {
    let dir = TempDir::new("kept-cert");
    let db = dir.path().join("banco.db");
    let config = || Config {
        store: banco_server::StoreLocation::File(db.clone()),
        ..test_config()
    };
    let first = TestServer::with_config(config()).await;
    let fingerprint = first.fingerprint.unwrap();
    first.stop().await;
    let key = dir.path().join(banco_server::tls::identity::KEY_FILE);
    assert!(key.exists() && dir.path().join("tls-cert.pem").exists());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&key).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let again = TestServer::with_config(config()).await;
    assert_eq!(again.fingerprint, Some(fingerprint));
    let c = again.connect("An").await;
    assert_eq!(c.fingerprint, Some(fingerprint));
    again.stop().await;
}
