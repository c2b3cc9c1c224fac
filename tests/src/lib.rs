//! banco-tests: helpers for end-to-end tests (a real server on 127.0.0.1:0 and protocol
//! clients that speak to it); the tests themselves live in `tests/tests/`.
//!
//! - [`TestServer`]: `banco_server::run` on a loopback port with an in-memory store and
//!   test-sized waits, stopped (and awaited) at the end of the test; discovery off, or
//!   on a loopback UDP port ([`TestServer::with_discovery`]). TLS is on, as it is by
//!   default, with a key made for the test ([`TestServer::fingerprint`]).
//! - [`Client`]: a protocol client over TLS (its server's key checked when the test
//!   server dials it), or in the clear for a `--no-tls` server: `send`, `recv`,
//!   `recv_until(pred)`, `expect_error`,
//!   plus shortcuts for the usual steps (create, join, watch, play; `play_xq` and
//!   `moved_xq` for xiangqi moves written in ICCS, `h2e2`).
//!
//! - [`browser`]: a real headless Chromium over WebDriver, for the browser client.
//!
//! Waits are generous ([`WAIT`]) and only turn a hang into a failure: tests assert on what
//! arrives, never on how long it took.

pub mod bots;
pub mod browser;

use futures::{SinkExt, StreamExt};
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio::task::JoinHandle;
use tokio::time::Instant;
use tokio_util::codec::Framed;
use tokio_util::sync::CancellationToken;

use banco_client::net::Stream;
use banco_server::tls::Tls;
use tokio_rustls::client::TlsStream;
use tokio_util::either::Either;

use banco_protocol::{
    CaroOpening, ClientCodec, ClientMsg, ErrorCode, ErrorMsg, Fingerprint, GameOver, GameSettings,
    GameView, Hello, Move, MoveRecord, PROTOCOL_VERSION, Point, ResumeToken, RoomId, RoomSettings,
    RoomSummary, RoomView, Rule, SeatKind, ServerMsg, TimeControl, Welcome, XqSquare,
};
use banco_server::{Config, StoreLocation};

/// The longest any test waits for a message before calling it lost.
pub const WAIT: Duration = Duration::from_secs(60);

/// When a wait that starts now gives up.
fn deadline() -> Instant {
    Instant::now() + WAIT
}

/// The password [`TestServer::player`] registers `name` with.
pub fn password_of(name: &str) -> String {
    format!("password of {name}")
}

/// A server running on 127.0.0.1 for one test.
pub struct TestServer {
    /// Where clients connect (127.0.0.1 and the port the system picked).
    pub addr: SocketAddr,
    /// Where the server answers discovery probes, if it does (127.0.0.1 only).
    pub discovery: Option<SocketAddr>,
    /// The server's key fingerprint; `None` for a server started with TLS off.
    pub fingerprint: Option<Fingerprint>,
    /// Stops the server (also on drop, so a failed test does not leave it running).
    shutdown: CancellationToken,
    /// The server's task, awaited by `stop`.
    task: Option<JoinHandle<anyhow::Result<()>>>,
}

/// The configuration tests start from: in-memory store, short waits, quick bots.
pub fn test_config() -> Config {
    Config {
        name: "test-server".into(),
        store: StoreLocation::Memory,
        grace: Duration::from_secs(30),
        bot_delay: Duration::from_millis(20),
        bot_think_cap: Some(Duration::from_millis(100)),
        hint_budget: Duration::from_millis(100),
        // Reviews judged by nodes, not time, so a busy machine does not change them: the
        // budget is only a bound.
        review_budget: Duration::from_secs(20),
        review_nodes: Some(100_000),
        // Offers declined and made again at once are the stuff of many tests; the wait
        // after a decline has its own.
        offer_declined_wait: Duration::ZERO,
        // Tests register many accounts from 127.0.0.1; the allowance has its own test.
        registration_refill: Duration::ZERO,
        // Tests that need discovery bind it on loopback themselves.
        discovery: None,
        ..Config::default()
    }
}

impl TestServer {
    /// A server with [`test_config`].
    pub async fn start() -> TestServer {
        TestServer::with_config(test_config()).await
    }

    pub async fn with_config(mut config: Config) -> TestServer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind a loopback port");
        let addr = listener
            .local_addr()
            .expect("a bound listener has an address");
        let fingerprint = load_tls(&mut config);
        let shutdown = CancellationToken::new();
        let task = tokio::spawn(banco_server::run(listener, config, shutdown.clone()));
        TestServer {
            addr,
            discovery: None,
            fingerprint,
            shutdown,
            task: Some(task),
        }
    }

    /// A server with [`test_config`] that answers discovery probes on a UDP port of
    /// 127.0.0.1 ([`TestServer::discovery`]).
    pub async fn with_discovery() -> TestServer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind a loopback port");
        let udp = tokio::net::UdpSocket::bind("127.0.0.1:0")
            .await
            .expect("bind a loopback UDP port");
        let addr = listener
            .local_addr()
            .expect("a bound listener has an address");
        let discovery = udp.local_addr().expect("a bound socket has an address");
        let sockets = banco_server::Sockets {
            game: listener,
            discovery: Some(udp),
        };
        let mut config = test_config();
        let fingerprint = load_tls(&mut config);
        let shutdown = CancellationToken::new();
        let task = tokio::spawn(banco_server::serve(sockets, config, shutdown.clone()));
        TestServer {
            addr,
            discovery: Some(discovery),
            fingerprint,
            shutdown,
            task: Some(task),
        }
    }

    /// A connection to this server that has said nothing yet: over TLS with the
    /// server's key checked, or in the clear when its TLS is off.
    pub async fn client(&self) -> Client {
        match self.fingerprint {
            Some(fp) => {
                let c = Client::connect_raw(self.addr).await;
                assert_eq!(c.fingerprint, Some(fp), "the test server's own key");
                c
            }
            None => Client::connect_plain(self.addr).await,
        }
    }

    /// A client that has said Hello as `name` and read its Welcome and the room list.
    pub async fn connect(&self, name: &str) -> Client {
        let mut c = self.client().await;
        c.send(ClientMsg::Hello(Hello {
            version: PROTOCOL_VERSION,
            name: name.into(),
            resume: None,
            account: None,
        }))
        .await;
        c.welcome().await;
        c.rooms().await;
        c
    }

    /// A client on the loopback address `from` (127.0.0.2, 127.0.0.3, ...: another machine
    /// as far as the server's budgets and throttles know) that has sent its Hello and read
    /// nothing yet, as [`TestServer::hello`] does.
    pub async fn hello_from(
        &self,
        from: std::net::Ipv4Addr,
        name: &str,
        resume: Option<ResumeToken>,
        password: Option<&str>,
        register: bool,
    ) -> Client {
        let mut c = Client::connect_from(self.addr, from).await;
        c.send(ClientMsg::Hello(Hello {
            version: PROTOCOL_VERSION,
            name: name.into(),
            resume,
            account: password.map(|p| banco_protocol::Credentials::password(p, register)),
        }))
        .await;
        c
    }

    /// A guest on the loopback address `from` that has said Hello as `name` and read its
    /// Welcome and the room list.
    pub async fn connect_from(&self, from: std::net::Ipv4Addr, name: &str) -> Client {
        let mut c = self.hello_from(from, name, None, None, false).await;
        c.welcome().await;
        c.rooms().await;
        c
    }

    /// A client that has registered the account `name` with `password` and read its
    /// Welcome and the room list.
    pub async fn register(&self, name: &str, password: &str) -> Client {
        self.account(name, password, true).await
    }

    /// A client logged in to the account `name`; its Welcome and room list have been read.
    pub async fn log_in(&self, name: &str, password: &str) -> Client {
        self.account(name, password, false).await
    }

    async fn account(&self, name: &str, password: &str, register: bool) -> Client {
        let mut c = self.hello(name, None, Some(password), register).await;
        let welcome = c.welcome().await;
        assert!(welcome.account, "logged in to {name}");
        c.rooms().await;
        c
    }

    /// A client that has sent its Hello and read nothing yet: as a guest without a
    /// password, else logging in (or registering) with it.
    pub async fn hello(
        &self,
        name: &str,
        resume: Option<ResumeToken>,
        password: Option<&str>,
        register: bool,
    ) -> Client {
        let mut c = self.client().await;
        c.send(ClientMsg::Hello(Hello {
            version: PROTOCOL_VERSION,
            name: name.into(),
            resume,
            account: password.map(|p| banco_protocol::Credentials::password(p, register)),
        }))
        .await;
        c
    }

    /// A client logged in to the account `name` (password [`password_of`]`(name)`),
    /// registered first if the server has no such account yet; its Welcome and room
    /// list have been read.
    pub async fn player(&self, name: &str) -> Client {
        let password = password_of(name);
        let mut c = self.hello(name, None, Some(&password), true).await;
        match c.recv_any().await {
            ServerMsg::Welcome(w) => {
                c.welcome = Some(w);
                c.rooms().await;
                c
            }
            ServerMsg::Error(e) if e.code == ErrorCode::NameTaken => {
                self.log_in(name, &password).await
            }
            other => panic!("expected Welcome, got {other:?}"),
        }
    }

    /// A client coming back with `token`; its Welcome has been read.
    pub async fn reconnect(&self, name: &str, token: ResumeToken) -> Client {
        let mut c = self.client().await;
        c.send(ClientMsg::Hello(Hello {
            version: PROTOCOL_VERSION,
            name: name.into(),
            resume: Some(token),
            account: None,
        }))
        .await;
        c.welcome().await;
        c
    }

    /// The account holder `name` (password [`password_of`]`(name)`) coming back with
    /// `token`, as the real clients do: logging in again, the token in the same Hello.
    /// Its Welcome has been read.
    pub async fn reconnect_player(&self, name: &str, token: ResumeToken) -> Client {
        let mut c = self
            .hello(name, Some(token), Some(&password_of(name)), false)
            .await;
        let welcome = c.welcome().await;
        assert!(welcome.account, "{name} logged in again");
        c
    }

    /// Stops the server and waits until `run` has returned.
    pub async fn stop(mut self) {
        self.shutdown.cancel();
        if let Some(task) = self.task.take() {
            let result = tokio::time::timeout(WAIT, task)
                .await
                .expect("the server stops after shutdown");
            result
                .expect("the server task did not panic")
                .expect("the server returned Ok");
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

/// The server's TLS identity as `config` asks for it, loaded now so the test knows the
/// fingerprint (a store in memory gets a key for this test only); `None` when TLS is off.
fn load_tls(config: &mut Config) -> Option<Fingerprint> {
    let identity = config
        .tls
        .load(&config.store)
        .expect("the test server's certificate loads");
    let fingerprint = identity.as_ref().map(|id| id.fingerprint);
    config.tls = identity.map_or(Tls::Off, Tls::Ready);
    fingerprint
}

/// Opens TLS to `addr` asking for `alpn` (`banco`, `http/1.1`; empty for none), taking
/// whatever key the server shows: returns the stream and that key's fingerprint.
pub async fn tls_to(addr: SocketAddr, alpn: &[u8]) -> (TlsStream<TcpStream>, Fingerprint) {
    let stream = TcpStream::connect(addr)
        .await
        .expect("connect to the test server");
    banco_client::tls::handshake_for(stream, &addr.ip().to_string(), addr, alpn)
        .await
        .expect("a TLS handshake with the test server")
}

/// A protocol client.
pub struct Client {
    /// The connection, framed as a real client frames it.
    framed: Framed<Stream, ClientCodec>,
    /// The key the server showed (over TLS).
    pub fingerprint: Option<Fingerprint>,
    /// What the server said in Welcome (after [`TestServer::connect`]).
    pub welcome: Option<Welcome>,
    /// The lobby's room list as a client keeps it: the last whole list, with every push
    /// of changes since applied.
    pub lobby: Vec<RoomSummary>,
    /// The open challenges as last sent (lobby noise, like the room list, to
    /// [`Client::recv`]).
    pub open_challenges: Vec<banco_protocol::Challenge>,
    /// The last few messages received, for the failure message of a wait that never
    /// ends (it says what came instead).
    recent: VecDeque<String>,
}

/// How many of the last messages received a failed wait shows.
const RECENT_SHOWN: usize = 8;

impl Client {
    /// A TLS connection (the banco client's ALPN) that has said nothing yet, taking the
    /// key the server shows (it is in [`Client::fingerprint`]): for a relay in front of
    /// a server, and for tests of bytes inside the encryption.
    pub async fn connect_raw(addr: SocketAddr) -> Client {
        let (tls, fingerprint) = tls_to(addr, banco_client::tls::ALPN).await;
        Client::over(Either::Left(tls), Some(fingerprint))
    }

    /// A TCP connection in the clear (a `--no-tls` server) that has said nothing yet.
    pub async fn connect_plain(addr: SocketAddr) -> Client {
        let stream = TcpStream::connect(addr)
            .await
            .expect("connect to the test server");
        Client::over(Either::Right(stream), None)
    }

    fn over(stream: Stream, fingerprint: Option<Fingerprint>) -> Client {
        Client {
            framed: Framed::new(stream, ClientCodec::new()),
            fingerprint,
            welcome: None,
            lobby: Vec::new(),
            open_challenges: Vec::new(),
            recent: VecDeque::new(),
        }
    }

    /// A TLS connection from the loopback address `from` (any of 127.0.0.0/8) that has
    /// said nothing yet, taking the key the server shows.
    pub async fn connect_from(addr: SocketAddr, from: std::net::Ipv4Addr) -> Client {
        let socket = tokio::net::TcpSocket::new_v4().expect("a TCP socket");
        socket
            .bind(SocketAddr::from((from, 0)))
            .expect("bind a loopback address");
        let stream = socket
            .connect(addr)
            .await
            .expect("connect to the test server");
        let (tls, fingerprint) = banco_client::tls::handshake_for(
            stream,
            &addr.ip().to_string(),
            addr,
            banco_client::tls::ALPN,
        )
        .await
        .expect("a TLS handshake with the test server");
        Client::over(Either::Left(tls), Some(fingerprint))
    }

    /// The name the server gave this client.
    pub fn name(&self) -> &str {
        self.welcome.as_ref().map_or("", |w| w.name.as_str())
    }

    pub fn token(&self) -> ResumeToken {
        self.welcome.as_ref().expect("connected").resume
    }

    pub async fn send(&mut self, msg: ClientMsg) {
        self.framed.send(msg).await.expect("send to the server");
    }

    /// Writes raw bytes on the socket, bypassing the codec.
    pub async fn send_bytes(&mut self, bytes: &[u8]) {
        let stream = self.framed.get_mut();
        stream.write_all(bytes).await.expect("write to the server");
        stream.flush().await.expect("flush");
    }

    /// Writes raw bytes, reporting `false` (instead of failing) if the server has closed
    /// the connection.
    pub async fn send_bytes_lossy(&mut self, bytes: &[u8]) -> bool {
        let stream = self.framed.get_mut();
        stream.write_all(bytes).await.is_ok() && stream.flush().await.is_ok()
    }

    /// The next message other than a room list or a push of its changes (those come
    /// whenever the lobby changes and most tests do not care; they are kept in
    /// [`Client::lobby`]). Panics if none comes within [`WAIT`] or the server closed the
    /// connection.
    pub async fn recv(&mut self) -> ServerMsg {
        self.recv_by(deadline(), "a message other than a room list")
            .await
    }

    async fn recv_by(&mut self, by: Instant, what: &str) -> ServerMsg {
        loop {
            let msg = self.recv_any_by(by, what).await;
            if !self.keep_lobby(&msg) {
                return msg;
            }
        }
    }

    /// Takes in a room list or a push of its changes; `false` for any other message.
    fn keep_lobby(&mut self, msg: &ServerMsg) -> bool {
        match msg {
            ServerMsg::Rooms(list) => self.lobby = list.clone(),
            ServerMsg::RoomsChanged { changed, closed } => {
                banco_protocol::apply_room_changes(&mut self.lobby, changed, closed);
            }
            ServerMsg::OpenChallenges(open) => self.open_challenges = open.clone(),
            _ => return false,
        }
        true
    }

    /// Notes a message received (heartbeats aside).
    fn note(&mut self, msg: &ServerMsg) {
        let mut text = format!("{msg:?}");
        if text.len() > 300 {
            let mut cut = 300;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text.truncate(cut);
            text.push('…');
        }
        if self.recent.len() == RECENT_SHOWN {
            self.recent.pop_front();
        }
        self.recent.push_back(text);
    }

    /// The room list after the next whole list or push of changes, skipping anything
    /// else.
    pub async fn rooms(&mut self) -> Vec<RoomSummary> {
        self.rooms_by(deadline(), "a room list").await
    }

    async fn rooms_by(&mut self, by: Instant, what: &str) -> Vec<RoomSummary> {
        loop {
            let msg = self.recv_any_by(by, what).await;
            if self.keep_lobby(&msg) {
                return self.lobby.clone();
            }
        }
    }

    /// The room list once it matches `pred`: the list as this client keeps it, if it
    /// matches already, else after the next lists and pushes, all within [`WAIT`] (lists
    /// come on every change, so a test waits for the state it expects rather than
    /// counting updates; a list that already holds it gets no push after).
    pub async fn rooms_until(
        &mut self,
        mut pred: impl FnMut(&[RoomSummary]) -> bool,
    ) -> Vec<RoomSummary> {
        if pred(&self.lobby) {
            return self.lobby.clone();
        }
        let by = deadline();
        loop {
            let list = self.rooms_by(by, "the room list the test expects").await;
            if pred(&list) {
                return list;
            }
        }
    }

    /// The next message, whatever it is (but the heartbeat, which is answered, as every
    /// client must).
    pub async fn recv_any(&mut self) -> ServerMsg {
        self.recv_any_by(deadline(), "a message").await
    }

    async fn recv_any_by(&mut self, by: Instant, what: &str) -> ServerMsg {
        loop {
            match self.recv_raw_by(by, what).await {
                ServerMsg::Ping(n) => self.send(ClientMsg::Pong(n)).await,
                msg => return msg,
            }
        }
    }

    /// The next message off the socket, heartbeats included.
    pub async fn recv_raw(&mut self) -> ServerMsg {
        self.recv_raw_by(deadline(), "a message or heartbeat").await
    }

    /// The next message off the socket before `by`; a wait that runs past it fails with
    /// `what` was awaited and what came instead (heartbeats keep a connection busy, so
    /// a wait is bounded as a whole, not message by message).
    async fn recv_raw_by(&mut self, by: Instant, what: &str) -> ServerMsg {
        match tokio::time::timeout_at(by, self.framed.next()).await {
            Ok(Some(Ok(Ok(msg)))) => {
                if !matches!(msg, ServerMsg::Ping(_)) {
                    self.note(&msg);
                }
                msg
            }
            Ok(Some(Ok(Err(e)))) => panic!("the server sent an unreadable message: {e}"),
            Ok(Some(Err(e))) => panic!("connection error: {e}"),
            Ok(None) => panic!("the server closed the connection while {what} was awaited"),
            Err(_) => panic!(
                "{} waited {WAIT:?} in vain for {what}; the last messages received: {:#?}",
                self.name(),
                self.recent
            ),
        }
    }

    /// Skips messages until one matches `pred`, and returns it; all within [`WAIT`].
    pub async fn recv_until(&mut self, mut pred: impl FnMut(&ServerMsg) -> bool) -> ServerMsg {
        let by = deadline();
        loop {
            let msg = self.recv_by(by, "the message the test expects").await;
            if pred(&msg) {
                return msg;
            }
        }
    }

    /// The next message, which must be an error with `code`.
    pub async fn expect_error(&mut self, code: ErrorCode) -> ErrorMsg {
        match self.recv().await {
            ServerMsg::Error(e) if e.code == code => e,
            other => panic!("expected error {code}, got {other:?}"),
        }
    }

    /// Waits for the server to close the connection, skipping what comes before; returns
    /// the messages skipped.
    pub async fn closed(&mut self) -> Vec<ServerMsg> {
        let mut seen = Vec::new();
        let by = deadline();
        loop {
            match tokio::time::timeout_at(by, self.framed.next()).await {
                Ok(None) | Ok(Some(Err(_))) => return seen,
                Ok(Some(Ok(Ok(msg)))) => seen.push(msg),
                Ok(Some(Ok(Err(e)))) => panic!("the server sent an unreadable message: {e}"),
                Err(_) => panic!("the server did not close the connection within {WAIT:?}"),
            }
        }
    }

    /// Drops the connection at once.
    pub fn disconnect(self) {
        drop(self);
    }

    /// Reads the Welcome that answers a Hello.
    pub async fn welcome(&mut self) -> Welcome {
        match self.recv_any().await {
            ServerMsg::Welcome(w) => {
                self.welcome = Some(w.clone());
                w
            }
            other => panic!("expected Welcome, got {other:?}"),
        }
    }

    /// Creates a room and reads `RoomCreated` and `Joined`.
    pub async fn create(&mut self, settings: RoomSettings) -> (RoomId, RoomView) {
        self.send(ClientMsg::CreateRoom(settings)).await;
        let id = match self.recv().await {
            ServerMsg::RoomCreated(id) => id,
            other => panic!("expected RoomCreated, got {other:?}"),
        };
        let view = self.joined().await;
        assert_eq!(view.id, id);
        (id, view)
    }

    /// Takes the free seat of room `id` and reads `Joined`.
    pub async fn join(&mut self, id: RoomId) -> RoomView {
        self.send(ClientMsg::JoinRoom(id)).await;
        self.joined().await
    }

    /// Watches room `id` and reads `Joined`.
    pub async fn watch(&mut self, id: RoomId) -> RoomView {
        self.send(ClientMsg::WatchRoom(id)).await;
        self.joined().await
    }

    /// The next message, which must be `Joined`.
    pub async fn joined(&mut self) -> RoomView {
        match self.recv().await {
            ServerMsg::Joined(view) => *view,
            other => panic!("expected Joined, got {other:?}"),
        }
    }

    /// The next `GameStarted`, skipping everything before it.
    pub async fn game_started(&mut self) -> GameView {
        match self
            .recv_until(|m| matches!(m, ServerMsg::GameStarted(_)))
            .await
        {
            ServerMsg::GameStarted(view) => view,
            _ => unreachable!(),
        }
    }

    /// The next `GameOver`, skipping everything before it.
    pub async fn game_over(&mut self) -> GameOver {
        match self
            .recv_until(|m| matches!(m, ServerMsg::GameOver(_)))
            .await
        {
            ServerMsg::GameOver(over) => over,
            _ => unreachable!(),
        }
    }

    /// Places a caro stone.
    pub async fn play(&mut self, x: u8, y: u8) {
        self.send(ClientMsg::Move(Move::Caro(Point::new(x, y))))
            .await;
    }

    /// The next `Moved`, skipping other messages; returns the point, and the ply number.
    pub async fn moved(&mut self) -> (Point, u32) {
        match self
            .recv_until(|m| matches!(m, ServerMsg::Moved { .. }))
            .await
        {
            ServerMsg::Moved {
                record:
                    banco_protocol::MoveRecord {
                        mv: Move::Caro(p), ..
                    },
                ply,
                ..
            } => (p, ply),
            other => panic!("expected a caro move, got {other:?}"),
        }
    }

    /// Reads the next `Moved` (skipping other messages), which must be `(x, y)`.
    pub async fn saw(&mut self, x: u8, y: u8) {
        let (p, _) = self.moved().await;
        assert_eq!(
            p,
            Point::new(x, y),
            "expected to see a stone placed at {x},{y}"
        );
    }

    /// Plays a xiangqi move written in ICCS (`h2e2`).
    pub async fn play_xq(&mut self, iccs: &str) {
        self.send(ClientMsg::Move(xq(iccs))).await;
    }

    /// The next `Moved` (skipping other messages), which must be a xiangqi move: its
    /// record and ply number.
    pub async fn moved_xq(&mut self) -> (MoveRecord, u32) {
        match self
            .recv_until(|m| matches!(m, ServerMsg::Moved { .. }))
            .await
        {
            ServerMsg::Moved { record, ply, .. } if matches!(record.mv, Move::Xiangqi { .. }) => {
                (record, ply)
            }
            other => panic!("expected a xiangqi move, got {other:?}"),
        }
    }

    /// A round trip through the server: a chat line, read back. Everything the server
    /// sent before the echo is returned, so a test can check that nothing else came.
    pub async fn sync(&mut self, tag: &str) -> Vec<ServerMsg> {
        self.send(ClientMsg::Chat(tag.into())).await;
        let mut before = Vec::new();
        let by = deadline();
        loop {
            match self.recv_by(by, "the echo of a chat line").await {
                ServerMsg::Chat(line) if line.text == tag => return before,
                other => before.push(other),
            }
        }
    }
}

/// Caro room settings on a `size`x`size` board, human vs human, seat One first.
pub fn caro(size: u8) -> RoomSettings {
    caro_from(size, Rule::Caro, CaroOpening::None)
}

/// Caro room settings on a `size`x`size` board under `rule`, every game starting from
/// `opening`; human vs human, seat One to move first.
pub fn caro_from(size: u8, rule: Rule, opening: CaroOpening) -> RoomSettings {
    RoomSettings {
        game: GameSettings::Caro {
            width: size,
            height: size,
            rule,
            opening,
        },
        ..RoomSettings::default()
    }
}

/// The same, with a time control.
pub fn timed(size: u8, time: TimeControl) -> RoomSettings {
    RoomSettings { time, ..caro(size) }
}

/// Caro against the bot at `level` (the creator in seat One).
pub fn vs_bot(size: u8, level: banco_protocol::Level) -> RoomSettings {
    RoomSettings {
        seats: [SeatKind::Human, SeatKind::Bot(level)],
        ..caro(size)
    }
}

/// A xiangqi move from its ICCS text (`h2e2`: files a..i, ranks 0..9 from Red's side).
/// Panics on text that is not one: tests write their moves by hand.
pub fn xq(iccs: &str) -> Move {
    let b = iccs.as_bytes();
    assert!(b.len() == 4, "'{iccs}' is not an ICCS move");
    let square = |f: u8, r: u8| {
        assert!(
            (b'a'..=b'i').contains(&f) && r.is_ascii_digit(),
            "'{iccs}' is not an ICCS move"
        );
        XqSquare {
            file: f - b'a',
            rank: r - b'0',
        }
    };
    Move::Xiangqi {
        from: square(b[0], b[1]),
        to: square(b[2], b[3]),
    }
}

/// The ICCS text of a xiangqi move (`h2e2`).
pub fn iccs(mv: Move) -> String {
    match mv {
        Move::Xiangqi { from, to } => {
            let f = |s: XqSquare| format!("{}{}", char::from(b'a' + s.file), s.rank);
            format!("{}{}", f(from), f(to))
        }
        Move::Caro(p) => panic!("{p} is a caro move"),
    }
}

/// Xiangqi room settings, human vs human, seat One first; from `fen` if given.
pub fn xiangqi(fen: Option<&str>) -> RoomSettings {
    RoomSettings {
        game: GameSettings::Xiangqi {
            fen: fen.map(str::to_string),
        },
        ..RoomSettings::default()
    }
}

/// `mover` plays the xiangqi move `iccs` and both `mover` and `other` see it played;
/// returns the record (WXF text, check flag) as the server sent it.
pub async fn exchange_xq(mover: &mut Client, other: &mut Client, text: &str) -> MoveRecord {
    mover.play_xq(text).await;
    let (record, ply) = mover.moved_xq().await;
    assert_eq!(iccs(record.mv), text, "expected to see {text} played");
    assert_eq!(other.moved_xq().await, (record.clone(), ply));
    record
}

/// Two account holders, An and Bình, in a fresh room: `a` (seat One, moves first)
/// created it, `b` joined; both have read `GameStarted`. Their games are rated.
pub async fn two_players(server: &TestServer, settings: RoomSettings) -> (Client, Client, RoomId) {
    let mut a = server.player("An").await;
    let mut b = server.player("Bình").await;
    let (id, _) = a.create(settings).await;
    b.join(id).await;
    a.game_started().await;
    b.game_started().await;
    (a, b, id)
}

/// `mover` plays `(x, y)` and both `mover` and `other` see it played.
pub async fn exchange(mover: &mut Client, other: &mut Client, x: u8, y: u8) {
    mover.play(x, y).await;
    mover.saw(x, y).await;
    other.saw(x, y).await;
}

/// A directory under the system's temp dir, removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!(
            "banco-{tag}-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        ));
        std::fs::create_dir_all(&dir).expect("create a temp dir");
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
