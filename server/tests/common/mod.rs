//! What the tests of the `banco-server` binary share: starting the real binary on a
//! loopback port (and reading which one it got), and a small protocol client over TLS
//! (the binary's default; the key it shows is taken as it is: these tests are about
//! durability, `tests/tests/tls.rs` about keys).

#![allow(dead_code)]

use futures::{SinkExt, StreamExt};
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;
use tokio_util::codec::Framed;

use banco_protocol::{
    ClientCodec, ClientMsg, GameSettings, Hello, Move, PROTOCOL_VERSION, ResumeToken, RoomId,
    RoomSettings, RoomView, ServerMsg, XqSquare,
};

/// The longest a test waits for a message before calling it lost.
pub const WAIT: Duration = Duration::from_secs(30);

/// A `banco-server` process on 127.0.0.1.
pub struct ServerProcess {
    pub child: Child,
    pub addr: SocketAddr,
    /// What it logged after it started listening (read by a thread of its own).
    pub log: std::sync::mpsc::Receiver<String>,
}

impl ServerProcess {
    /// Starts the binary on a free loopback port with `db`, and waits until it listens.
    /// If it stops (or hangs) instead, its log lines are the error.
    pub fn start(db: &Path, extra: &[&str]) -> Result<ServerProcess, Vec<String>> {
        let mut child = Command::new(env!("CARGO_BIN_EXE_banco-server"))
            .args(["--listen", "127.0.0.1:0", "--no-discovery", "--db"])
            .arg(db)
            .args(extra)
            .env("RUST_LOG", "info")
            .env_remove("RUST_BACKTRACE")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the server binary starts");
        let stderr = child.stderr.take().expect("stderr is piped");
        // Every line goes through a thread, so waiting for the first ones can time out.
        let (tx, log) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut seen = Vec::new();
        let addr = loop {
            match log.recv_timeout(WAIT) {
                Ok(line) => {
                    if line.contains("banco server listening")
                        && let Some(addr) = line
                            .split_whitespace()
                            .find_map(|w| w.strip_prefix("addr="))
                            .and_then(|a| a.parse::<SocketAddr>().ok())
                    {
                        break addr;
                    }
                    seen.push(line);
                }
                Err(_) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(seen);
                }
            }
        };
        Ok(ServerProcess { child, addr, log })
    }

    /// `kill -9`: no shutdown, no flushing, nothing.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// SIGTERM, waits for a clean stop, and returns everything it logged after it
    /// started listening.
    pub fn stop_with_log(mut self) -> Vec<String> {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let _ = self.child.wait();
        self.log.iter().collect()
    }

    /// SIGTERM, and waits for a clean stop.
    pub fn stop(mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let _ = self.child.wait();
    }
}

/// A fresh directory under the system's temp dir, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!(
            "banco-{tag}-{}-{}",
            std::process::id(),
            rand::random::<u64>()
        ));
        std::fs::create_dir_all(&dir).expect("make a temp dir");
        TempDir(dir)
    }

    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Takes whatever certificate the server shows, checking only that the handshake is
/// signed by its key.
#[derive(Debug)]
struct AnyKey(rustls::crypto::WebPkiSupportedAlgorithms);

impl rustls::client::danger::ServerCertVerifier for AnyKey {
    fn verify_server_cert(
        &self,
        _: &rustls_pki_types::CertificateDer<'_>,
        _: &[rustls_pki_types::CertificateDer<'_>],
        _: &rustls_pki_types::ServerName<'_>,
        _: &[u8],
        _: rustls_pki_types::UnixTime,
    ) -> Result<rustls::client::danger::ServerCertVerified, rustls::Error> {
        Ok(rustls::client::danger::ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &rustls_pki_types::CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.0)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &rustls_pki_types::CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.0)
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.0.supported_schemes()
    }
}

/// A TLS connection to the server at `addr`, as banco's client opens one.
pub async fn tls(addr: SocketAddr) -> TlsStream<TcpStream> {
    let provider = rustls::crypto::ring::default_provider();
    let verifier = AnyKey(provider.signature_verification_algorithms);
    let mut config = rustls::ClientConfig::builder_with_provider(std::sync::Arc::new(provider))
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .dangerous()
        .with_custom_certificate_verifier(std::sync::Arc::new(verifier))
        .with_no_client_auth();
    config.alpn_protocols = vec![b"banco".to_vec()];
    let stream = TcpStream::connect(addr).await.expect("connect");
    tokio_rustls::TlsConnector::from(std::sync::Arc::new(config))
        .connect(
            rustls_pki_types::ServerName::IpAddress(addr.ip().into()),
            stream,
        )
        .await
        .expect("a TLS handshake with the server")
}

/// A protocol client.
pub struct Client {
    framed: Framed<TlsStream<TcpStream>, ClientCodec>,
    pub name: String,
    pub token: ResumeToken,
}

impl Client {
    /// Says Hello (resuming with `token` if given) and reads Welcome.
    pub async fn connect(addr: SocketAddr, name: &str, token: Option<ResumeToken>) -> Client {
        match Client::hello(addr, name, token, None).await {
            Ok(c) => c,
            Err(other) => panic!("expected Welcome, got {other:?}"),
        }
    }

    /// Says Hello, logging in (or registering) with `account`; the Welcome, or what came
    /// instead.
    pub async fn hello(
        addr: SocketAddr,
        name: &str,
        token: Option<ResumeToken>,
        account: Option<banco_protocol::Credentials>,
    ) -> Result<Client, Option<ServerMsg>> {
        let mut framed = Framed::new(tls(addr).await, ClientCodec::new());
        framed
            .send(ClientMsg::Hello(Hello {
                version: PROTOCOL_VERSION,
                name: name.into(),
                resume: token,
                account,
            }))
            .await
            .expect("send Hello");
        let mut c = Client {
            framed,
            name: String::new(),
            token: ResumeToken([0; 16]),
        };
        match c.recv().await {
            Some(ServerMsg::Welcome(w)) => {
                c.name = w.name;
                c.token = w.resume;
                Ok(c)
            }
            other => Err(other),
        }
    }

    pub async fn send(&mut self, msg: ClientMsg) {
        // The server may be dead already (a crash test): that is for reading to tell.
        let _ = self.framed.send(msg).await;
    }

    /// The next message (heartbeats answered and skipped); `None` once the connection
    /// is closed or broken.
    pub async fn recv(&mut self) -> Option<ServerMsg> {
        loop {
            match tokio::time::timeout(WAIT, self.framed.next()).await {
                Ok(Some(Ok(Ok(ServerMsg::Ping(n))))) => self.send(ClientMsg::Pong(n)).await,
                Ok(Some(Ok(Ok(msg)))) => return Some(msg),
                Ok(Some(Ok(Err(e)))) => panic!("an unreadable message: {e}"),
                Ok(Some(Err(_)) | None) => return None,
                Err(_) => panic!("no message within {WAIT:?}"),
            }
        }
    }

    /// Skips messages until one matches `pred`.
    pub async fn until(&mut self, mut pred: impl FnMut(&ServerMsg) -> bool) -> ServerMsg {
        // One deadline for the whole wait: the server's heartbeats would otherwise keep a
        // wait for a message that never comes alive for ever.
        let waited = tokio::time::timeout(WAIT, async {
            loop {
                match self.recv().await {
                    Some(msg) if pred(&msg) => return msg,
                    Some(_) => {}
                    None => panic!("the connection closed while waiting"),
                }
            }
        });
        waited
            .await
            .unwrap_or_else(|_| panic!("the message waited for did not come within {WAIT:?}"))
    }

    /// Everything that arrives until the connection closes.
    pub async fn drain(&mut self) -> Vec<ServerMsg> {
        let mut all = Vec::new();
        while let Some(msg) = self.recv().await {
            all.push(msg);
        }
        all
    }

    pub async fn create(&mut self, settings: RoomSettings) -> (RoomId, RoomView) {
        self.send(ClientMsg::CreateRoom(settings)).await;
        match self.until(|m| matches!(m, ServerMsg::Joined(_))).await {
            ServerMsg::Joined(view) => (view.id, *view),
            _ => unreachable!(),
        }
    }

    pub async fn join(&mut self, id: RoomId) -> RoomView {
        self.send(ClientMsg::JoinRoom(id)).await;
        match self.until(|m| matches!(m, ServerMsg::Joined(_))).await {
            ServerMsg::Joined(view) => *view,
            _ => unreachable!(),
        }
    }
}

/// A xiangqi move in ICCS (`h2e2`).
pub fn xq(iccs: &str) -> Move {
    let b = iccs.as_bytes();
    let square = |f: u8, r: u8| XqSquare {
        file: f - b'a',
        rank: r - b'0',
    };
    Move::Xiangqi {
        from: square(b[0], b[1]),
        to: square(b[2], b[3]),
    }
}

pub fn xiangqi() -> RoomSettings {
    RoomSettings {
        game: GameSettings::Xiangqi { fen: None },
        ..RoomSettings::default()
    }
}
