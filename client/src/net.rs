//! The connection to a server: resolving the address, TLS with the server's key checked
//! against this client's pins ([`crate::known_hosts::Trust`]; in the clear only with
//! `--no-tls`, and never for a server with a pin), the Hello/Welcome greeting, then two
//! tasks that move messages between the socket and channels.
//!
//! Every way this can fail becomes a [`ConnectError`] (no connection) or a [`Lost`] (a
//! connection that was up is gone), each told as one sentence a player can act on, in
//! their language; no I/O error reaches the screen in its raw form.
//!
//! The server pings every [`banco_protocol::HEARTBEAT_EVERY_SECS`]; the reader answers,
//! and a connection that brings nothing at all for [`HEARTBEAT_TIMEOUT`] is dead (a link
//! that drops packets without closing) and is closed as [`Lost::Silent`].

use banco_protocol::{
    ClientCodec, ClientMsg, Credentials, DEFAULT_PORT, ErrorCode, ErrorMsg, Fingerprint,
    FrameError, HEARTBEAT_TIMEOUT_SECS, Hello, PROTOCOL_VERSION, ResumeToken, ServerMsg, Welcome,
};
use futures::{SinkExt, StreamExt};
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_util::codec::Framed;
use tokio_util::either::Either;
use tokio_util::sync::CancellationToken;

use crate::known_hosts::{Checked, KeyMismatch, PinSource, Trust};
use crate::locale::Locale;
use crate::tls::{self, HandshakeError};
use crate::tr;

/// The bytes under the frames: TLS over TCP, or TCP alone (`--no-tls`).
pub type Stream = Either<tokio_rustls::client::TlsStream<TcpStream>, TcpStream>;

/// How long to wait for a TCP connection and then for the server's Welcome.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(6);

/// Messages waiting to be written: a player cannot type faster than this drains.
const OUTGOING_QUEUE: usize = 64;

/// A connection that brings nothing at all for this long is dead: the server pings
/// every few seconds, so silence means the link is gone even though nobody closed it.
pub const HEARTBEAT_TIMEOUT: Duration = Duration::from_secs(HEARTBEAT_TIMEOUT_SECS);

/// How long a closing connection may take to write what is queued: a dead link must not
/// keep its socket (and task) forever.
const CLOSE_WAIT: Duration = Duration::from_secs(3);

/// Why there is no connection.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConnectError {
    #[error(
        "'{0}' is not an address: write a host or IP, optionally with :port (e.g. 192.168.1.20 or 192.168.1.20:7373)"
    )]
    BadAddress(String),
    #[error("cannot find the host '{0}': check the spelling, or use its IP address")]
    UnknownHost(String),
    #[error(
        "nobody is hosting at {0} (connection refused): is `banco host` running there, on that port?"
    )]
    Refused(String),
    #[error(
        "no answer from {0}: check the address, and that the host's firewall lets in TCP port {1}"
    )]
    Timeout(String, u16),
    #[error("{0} cannot be reached from this machine (no route): are you on the same network?")]
    Unreachable(String),
    #[error(
        "the server at {addr} speaks another version of the banco protocol ({message}); update banco on the older side"
    )]
    Version { addr: String, message: String },
    #[error("the server refused to let you in: {}", .0.message)]
    Rejected(ErrorMsg),
    #[error("the server at {0} closed the connection before greeting: is it a banco server?")]
    ClosedEarly(String),
    #[error(
        "the server at {0} answered with something banco does not understand: is it a banco server of the same version?"
    )]
    Garbled(String),
    #[error("the connection to {0} was cut while greeting the server: try again")]
    Cut(String),
    #[error(
        "the server at {addr} showed the key {presented}, but this machine holds the key {pinned} for it: someone on the network may be posing as the server, or its host made a new key; ask the host which fingerprint their screen shows, and if it is the new one, run `banco forget {addr}` and join again"
    )]
    KeyChanged {
        addr: String,
        /// The key held: pinned on first use, or given with `--fingerprint`.
        pinned: Fingerprint,
        /// The key the server showed.
        presented: Fingerprint,
        /// Where the held key came from.
        origin: PinSource,
        /// The known hosts file, for the sentence.
        file: Option<String>,
    },
    #[error(
        "the server at {0} does not encrypt its connections (its host started it with --no-tls, or it is an older banco); to join it anyway, with passwords crossing the network in the clear, add --no-tls"
    )]
    NotTls(String),
    #[error("could not set up an encrypted connection to {addr}: {message}")]
    Tls { addr: String, message: String },
    #[error(
        "--no-tls asks to join {addr} in the clear, but this machine has its key ({pinned}): it encrypted its connections before; if its host really turned TLS off, run `banco forget {addr}` first"
    )]
    PlainButPinned { addr: String, pinned: Fingerprint },
    #[error("the server at {0} encrypts its connections: join without --no-tls")]
    ServerEncrypts(String),
    /// Something rarer than the above; `message` is the kind of failure in words (never
    /// an OS error number).
    #[error("could not connect to {addr}: {message}")]
    Other { addr: String, message: String },
}

impl ConnectError {
    /// The sentence in the reader's language.
    pub fn describe(&self, loc: &Locale) -> String {
        match self {
            ConnectError::BadAddress(text) => tr!(loc, "net.bad_address", address = text),
            ConnectError::UnknownHost(host) => tr!(loc, "net.unknown_host", host = host),
            ConnectError::Refused(addr) => tr!(loc, "net.refused", addr = addr),
            ConnectError::Timeout(addr, port) => {
                tr!(loc, "net.no_answer", addr = addr, port = port)
            }
            ConnectError::Unreachable(addr) => tr!(loc, "net.unreachable", addr = addr),
            ConnectError::Version { addr, message } => {
                tr!(loc, "net.version", addr = addr, message = message)
            }
            ConnectError::Rejected(e) => tr!(
                loc,
                "net.rejected",
                reason = crate::narrate::server_error(e, loc)
            ),
            ConnectError::ClosedEarly(addr) => tr!(loc, "net.closed_early", addr = addr),
            ConnectError::Garbled(addr) => tr!(loc, "net.garbled", addr = addr),
            ConnectError::Cut(addr) => tr!(loc, "net.cut_early", addr = addr),
            ConnectError::KeyChanged {
                addr,
                pinned,
                presented,
                origin,
                file,
            } => {
                let held = match origin {
                    PinSource::Flag => {
                        return tr!(
                            loc,
                            "net.key_mismatch_flag",
                            addr = addr,
                            pinned = pinned,
                            presented = presented
                        );
                    }
                    PinSource::KnownHosts => tr!(
                        loc,
                        "net.key_from_pin",
                        file = file.as_deref().unwrap_or("known_hosts")
                    ),
                    PinSource::OwnServer => tr!(loc, "net.key_from_host").to_string(),
                };
                tr!(
                    loc,
                    "net.key_changed",
                    addr = addr,
                    pinned = pinned,
                    presented = presented,
                    held = held
                )
            }
            ConnectError::NotTls(addr) => tr!(loc, "net.not_tls", addr = addr),
            ConnectError::Tls { addr, message } => {
                tr!(loc, "net.tls_failed", addr = addr, message = message)
            }
            ConnectError::PlainButPinned { addr, pinned } => {
                tr!(loc, "net.plain_but_pinned", addr = addr, pinned = pinned)
            }
            ConnectError::ServerEncrypts(addr) => tr!(loc, "net.server_encrypts", addr = addr),
            ConnectError::Other { addr, message } => {
                tr!(loc, "net.other", addr = addr, message = message)
            }
        }
    }
}

/// Why a connection that was up is gone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lost {
    /// The server ended the connection without a word.
    Closed,
    /// The server said it is shutting down, then closed.
    ShuttingDown,
    /// The network cut the connection (reset, aborted, unreachable).
    Cut,
    /// Nothing arrived for [`HEARTBEAT_TIMEOUT`]: the link is dead though nobody closed it.
    Silent,
    /// The server sent bytes that are not banco messages.
    Garbled,
}

impl Lost {
    /// The sentence in the reader's language.
    pub fn describe(self, loc: &Locale) -> String {
        match self {
            Lost::Closed => tr!(loc, "net.lost_closed").to_string(),
            Lost::ShuttingDown => tr!(loc, "net.lost_shutting_down").to_string(),
            Lost::Cut => tr!(loc, "net.lost_cut").to_string(),
            Lost::Silent => tr!(loc, "net.lost_silent", secs = HEARTBEAT_TIMEOUT.as_secs()),
            Lost::Garbled => tr!(loc, "net.lost_garbled").to_string(),
        }
    }

    /// A stable word for scripts (plain mode's `reconnecting` event).
    pub fn as_str(self) -> &'static str {
        match self {
            Lost::Closed => "closed",
            Lost::ShuttingDown => "shutting_down",
            Lost::Cut => "cut",
            Lost::Silent => "silent",
            Lost::Garbled => "garbled",
        }
    }

    /// What a failed read says about the connection.
    fn of(e: &FrameError) -> Lost {
        match e {
            FrameError::Io(io) if io.kind() == io::ErrorKind::InvalidData => Lost::Garbled,
            FrameError::Io(_) => Lost::Cut,
            FrameError::Encode(_) => Lost::Garbled,
        }
    }
}

/// Something from the server, or the end of the connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetEvent {
    Msg(ServerMsg),
    /// The connection is gone, and why.
    Closed(Lost),
}

/// How a connection is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Security {
    /// TLS, with the server's key checked against the pins.
    Encrypted {
        /// The fingerprint of the key the server showed.
        fingerprint: Fingerprint,
        /// Known, or pinned just now (the player should compare it with the host's).
        checked: Checked,
    },
    /// In the clear (`--no-tls`).
    Plain,
}

impl Security {
    /// The server's key fingerprint, when encrypted.
    pub fn fingerprint(&self) -> Option<Fingerprint> {
        match self {
            Security::Encrypted { fingerprint, .. } => Some(*fingerprint),
            Security::Plain => None,
        }
    }

    /// Whether the key was pinned by this very connection.
    pub fn first_use(&self) -> bool {
        matches!(
            self,
            Security::Encrypted {
                checked: Checked::FirstUse,
                ..
            }
        )
    }
}

/// A greeted connection, before its tasks start.
pub struct Connection {
    /// The server's greeting: our name as the server made it, and the server's name.
    pub welcome: Welcome,
    /// The address actually connected to, for display and settings.
    pub addr: SocketAddr,
    /// TLS and the server's key, or in the clear.
    pub security: Security,
    /// A pin that could not be written to the known hosts file, to show once.
    pub pin_problem: Option<String>,
    /// The framed socket.
    framed: Framed<Stream, ClientCodec>,
}

/// The running connection: send requests here, read [`NetEvent`]s there.
pub struct Link {
    pub welcome: Welcome,
    pub addr: SocketAddr,
    /// TLS and the server's key, or in the clear.
    pub security: Security,
    /// A pin that could not be written, to show once.
    pub pin_problem: Option<String>,
    pub outgoing: mpsc::Sender<ClientMsg>,
    pub incoming: mpsc::Receiver<NetEvent>,
    /// The writer task: it ends once `outgoing` is dropped and the queue is written
    /// (for at most [`CLOSE_WAIT`]), so a last message (leaving the room) is not lost on
    /// exit.
    pub writer: Option<tokio::task::JoinHandle<()>>,
}

impl Link {
    /// Stops sending: writes what is queued (for at most `wait`), then closes.
    pub async fn close(self, wait: Duration) {
        let Link {
            outgoing, writer, ..
        } = self;
        drop(outgoing);
        if let Some(w) = writer {
            let _ = tokio::time::timeout(wait, w).await;
        }
    }
}

/// `host`, `host:port`, `1.2.3.4`, `[::1]:7373`, `::1`: adds the default port when there
/// is none. Returns the host part and the port.
pub fn split_address(text: &str) -> Result<(String, u16), ConnectError> {
    let t = text.trim();
    let bad = || ConnectError::BadAddress(t.to_string());
    if t.is_empty() || t.chars().any(char::is_whitespace) {
        return Err(bad());
    }
    if let Ok(sa) = t.parse::<SocketAddr>() {
        return Ok((sa.ip().to_string(), sa.port()));
    }
    if let Ok(ip) = t.parse::<IpAddr>() {
        return Ok((ip.to_string(), DEFAULT_PORT));
    }
    if let Some(inner) = t.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        let ip: IpAddr = inner.parse().map_err(|_| bad())?;
        return Ok((ip.to_string(), DEFAULT_PORT));
    }
    match t.rsplit_once(':') {
        Some((host, port)) if !host.contains(':') => {
            let port: u16 = port.parse().map_err(|_| bad())?;
            if host.is_empty() || port == 0 {
                return Err(bad());
            }
            Ok((host.to_string(), port))
        }
        Some(_) => Err(bad()),
        None => Ok((t.to_string(), DEFAULT_PORT)),
    }
}

/// `host:port` for display (brackets around IPv6).
pub fn address_text(host: &str, port: u16) -> String {
    if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}

impl Connection {
    /// Connects to `address` (default port if none) over TLS, pinning the server's key
    /// for this run only, and greets the server as `name`.
    pub async fn open(address: &str, name: &str) -> Result<Connection, ConnectError> {
        Connection::open_resuming(address, name, None, None).await
    }

    /// As [`Connection::open`], presenting `resume` (from an earlier session's Welcome)
    /// to take back a seat the server holds after a dropped connection.
    pub async fn open_resuming(
        address: &str,
        name: &str,
        resume: Option<ResumeToken>,
        account: Option<Credentials>,
    ) -> Result<Connection, ConnectError> {
        Connection::open_trusting(address, name, resume, account, &Trust::default()).await
    }

    /// As [`Connection::open_resuming`], checking the server's key against `trust`'s
    /// pins (or in the clear, if `trust` says so and holds no key for the server).
    pub async fn open_trusting(
        address: &str,
        name: &str,
        resume: Option<ResumeToken>,
        account: Option<Credentials>,
        trust: &Trust,
    ) -> Result<Connection, ConnectError> {
        let (host, port) = split_address(address)?;
        let shown = address_text(&host, port);
        if trust.plain
            && let Some((pinned, _)) = trust.held(&[&shown])
        {
            return Err(ConnectError::PlainButPinned {
                addr: shown,
                pinned,
            });
        }
        let addrs: Vec<SocketAddr> = match tokio::net::lookup_host((host.as_str(), port)).await {
            Ok(a) => a.collect(),
            Err(_) => return Err(ConnectError::UnknownHost(host.clone())),
        };
        if addrs.is_empty() {
            return Err(ConnectError::UnknownHost(host));
        }
        let mut last = ConnectError::UnknownHost(host.clone());
        for addr in addrs {
            match tokio::time::timeout(CONNECT_TIMEOUT, TcpStream::connect(addr)).await {
                Ok(Ok(stream)) => {
                    let _ = stream.set_nodelay(true);
                    let (stream, security, pin_problem) =
                        secure(stream, &host, addr, &shown, trust).await?;
                    let mut connection =
                        Connection::greet(stream, addr, &shown, name, resume, account, security)
                            .await?;
                    connection.pin_problem = pin_problem;
                    return Ok(connection);
                }
                Ok(Err(e)) => last = connect_error(&e, &shown, port),
                Err(_) => last = ConnectError::Timeout(shown.clone(), port),
            }
        }
        Err(last)
    }

    /// Sends Hello and waits for Welcome.
    async fn greet(
        stream: Stream,
        addr: SocketAddr,
        shown: &str,
        name: &str,
        resume: Option<ResumeToken>,
        account: Option<Credentials>,
        security: Security,
    ) -> Result<Connection, ConnectError> {
        let mut framed = Framed::new(stream, ClientCodec::new());
        let hello = ClientMsg::Hello(Hello {
            version: PROTOCOL_VERSION,
            name: name.to_string(),
            resume,
            account,
        });
        framed
            .send(hello)
            .await
            .map_err(|_| ConnectError::Cut(shown.to_string()))?;
        let answer = tokio::time::timeout(CONNECT_TIMEOUT, framed.next())
            .await
            .map_err(|_| ConnectError::Timeout(shown.to_string(), addr.port()))?;
        match answer {
            None => Err(ConnectError::ClosedEarly(shown.to_string())),
            Some(Err(_)) => Err(ConnectError::ClosedEarly(shown.to_string())),
            Some(Ok(Err(_))) => Err(ConnectError::Garbled(shown.to_string())),
            Some(Ok(Ok(ServerMsg::Welcome(welcome)))) => Ok(Connection {
                welcome,
                addr,
                security,
                pin_problem: None,
                framed,
            }),
            Some(Ok(Ok(ServerMsg::Error(e))))
                if e.code == ErrorCode::VersionMismatch
                    && e.message
                        .starts_with(banco_server::door::accept::PLAIN_REFUSAL) =>
            {
                Err(ConnectError::ServerEncrypts(shown.to_string()))
            }
            Some(Ok(Ok(ServerMsg::Error(e)))) if e.code == ErrorCode::VersionMismatch => {
                Err(ConnectError::Version {
                    addr: shown.to_string(),
                    message: e.message,
                })
            }
            Some(Ok(Ok(ServerMsg::Error(e)))) => Err(ConnectError::Rejected(e)),
            Some(Ok(Ok(_))) => Err(ConnectError::Garbled(shown.to_string())),
        }
    }

    /// Starts the writer and reader tasks.
    pub fn start(self) -> Link {
        self.start_with(HEARTBEAT_TIMEOUT)
    }

    /// As [`Connection::start`], calling the connection dead after `silence` without a
    /// word from the server (tests use a short one).
    pub fn start_with(self, silence: Duration) -> Link {
        let (out_tx, mut out_rx) = mpsc::channel::<ClientMsg>(OUTGOING_QUEUE);
        let (in_tx, in_rx) = mpsc::channel::<NetEvent>(256);
        let (mut sink, mut stream) = self.framed.split();
        // Cancelled when the reader finds the connection gone: nothing more can be
        // written, and a write stuck on a dead link must not hold the socket.
        let dead = CancellationToken::new();
        let writer_dead = dead.clone();
        let writer = tokio::spawn(async move {
            let write = async {
                while let Some(msg) = out_rx.recv().await {
                    if let Err(e) = sink.send(msg).await {
                        tracing::debug!("send failed: {e}");
                        return;
                    }
                }
                let _ = tokio::time::timeout(CLOSE_WAIT, sink.close()).await;
            };
            tokio::select! {
                () = write => {}
                () = writer_dead.cancelled() => {}
            }
        });
        // Weak: the heartbeat must not keep the connection open once the app lets go.
        let pongs = out_tx.downgrade();
        tokio::spawn(async move {
            let mut shutting_down = false;
            let lost = loop {
                let Ok(next) = tokio::time::timeout(silence, stream.next()).await else {
                    break Lost::Silent;
                };
                match next {
                    None if shutting_down => break Lost::ShuttingDown,
                    None => break Lost::Closed,
                    Some(Ok(Ok(ServerMsg::Ping(n)))) => {
                        // The heartbeat is answered here: the app never sees it.
                        if let Some(tx) = pongs.upgrade() {
                            let _ = tx.try_send(ClientMsg::Pong(n));
                        }
                    }
                    Some(Ok(Ok(msg))) => {
                        shutting_down = matches!(
                            &msg,
                            ServerMsg::Error(e) if e.code == ErrorCode::ShuttingDown
                        );
                        if in_tx.send(NetEvent::Msg(msg)).await.is_err() {
                            break Lost::Closed;
                        }
                    }
                    Some(Ok(Err(e))) => {
                        tracing::warn!("undecodable message from the server: {e}");
                    }
                    Some(Err(e)) => {
                        tracing::debug!("connection failed: {e}");
                        break Lost::of(&e);
                    }
                }
            };
            dead.cancel();
            let _ = in_tx.send(NetEvent::Closed(lost)).await;
        });
        Link {
            welcome: self.welcome,
            addr: self.addr,
            security: self.security,
            pin_problem: self.pin_problem,
            outgoing: out_tx,
            incoming: in_rx,
            writer: Some(writer),
        }
    }
}

/// TLS over `stream` with the server's key checked against `trust` (under the address
/// typed, `shown`, and the one connected to), or `stream` as it is in the clear.
async fn secure(
    stream: TcpStream,
    host: &str,
    addr: SocketAddr,
    shown: &str,
    trust: &Trust,
) -> Result<(Stream, Security, Option<String>), ConnectError> {
    let resolved = address_text(&addr.ip().to_string(), addr.port());
    let names = [shown, resolved.as_str()];
    if trust.plain {
        if let Some((pinned, _)) = trust.held(&names) {
            return Err(ConnectError::PlainButPinned {
                addr: shown.to_string(),
                pinned,
            });
        }
        return Ok((Either::Right(stream), Security::Plain, None));
    }
    let (tls, fingerprint) =
        match tokio::time::timeout(CONNECT_TIMEOUT, tls::handshake(stream, host, addr)).await {
            Err(_) => return Err(ConnectError::Timeout(shown.to_string(), addr.port())),
            Ok(Err(HandshakeError::NotTls)) => return Err(ConnectError::NotTls(shown.to_string())),
            Ok(Err(HandshakeError::Failed(message))) => {
                return Err(ConnectError::Tls {
                    addr: shown.to_string(),
                    message,
                });
            }
            Ok(Ok(done)) => done,
        };
    match trust.check(&names, fingerprint) {
        Ok((checked, problem)) => Ok((
            Either::Left(tls),
            Security::Encrypted {
                fingerprint,
                checked,
            },
            problem,
        )),
        Err(KeyMismatch {
            pinned,
            presented,
            source,
        }) => Err(ConnectError::KeyChanged {
            addr: shown.to_string(),
            pinned,
            presented,
            origin: source,
            file: trust.file().map(|p| p.display().to_string()),
        }),
    }
}

/// One sentence for a failed TCP connect.
fn connect_error(e: &io::Error, shown: &str, port: u16) -> ConnectError {
    match e.kind() {
        io::ErrorKind::ConnectionRefused => ConnectError::Refused(shown.to_string()),
        io::ErrorKind::TimedOut => ConnectError::Timeout(shown.to_string(), port),
        io::ErrorKind::HostUnreachable | io::ErrorKind::NetworkUnreachable => {
            ConnectError::Unreachable(shown.to_string())
        }
        io::ErrorKind::ConnectionReset | io::ErrorKind::ConnectionAborted => {
            ConnectError::Cut(shown.to_string())
        }
        // The kind in words ("network down"), without the OS's number.
        kind => ConnectError::Other {
            addr: shown.to_string(),
            message: kind.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Connects in the clear, as `--no-tls` does: these servers speak banco frames
    /// straight on TCP.
    async fn open_plain(addr: &str) -> Result<Connection, ConnectError> {
        let trust = Trust::default().in_the_clear();
        Connection::open_trusting(addr, "An", None, None, &trust).await
    }

    #[test]
    fn addresses_get_the_default_port() {
        let p = DEFAULT_PORT;
        assert_eq!(split_address("127.0.0.1"), Ok(("127.0.0.1".into(), p)));
        assert_eq!(
            split_address("127.0.0.1:9000"),
            Ok(("127.0.0.1".into(), 9000))
        );
        assert_eq!(split_address("pc-an"), Ok(("pc-an".into(), p)));
        assert_eq!(split_address("pc-an:80"), Ok(("pc-an".into(), 80)));
        assert_eq!(split_address("::1"), Ok(("::1".into(), p)));
        assert_eq!(split_address("[::1]"), Ok(("::1".into(), p)));
        assert_eq!(split_address("[::1]:9000"), Ok(("::1".into(), 9000)));
        for bad in [
            "",
            "a b",
            "host:",
            "host:99999",
            "host:x",
            ":7373",
            "[zz]",
            "host:0",
        ] {
            assert!(split_address(bad).is_err(), "{bad:?} accepted");
        }
        assert_eq!(address_text("::1", 7373), "[::1]:7373");
    }

    #[tokio::test]
    async fn refused_and_silent_servers_get_sentences() {
        // A port nobody listens on: bind, note the port, close.
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        drop(l);
        let e = Connection::open(&format!("127.0.0.1:{port}"), "An")
            .await
            .err()
            .unwrap();
        assert_eq!(e, ConnectError::Refused(format!("127.0.0.1:{port}")));
        assert!(e.to_string().contains("nobody is hosting"));

        // Something that accepts and hangs up without a word.
        let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = l.local_addr().unwrap();
        tokio::spawn(async move {
            let (s, _) = l.accept().await.unwrap();
            drop(s);
        });
        let e = open_plain(&addr.to_string()).await.err().unwrap();
        assert_eq!(e, ConnectError::ClosedEarly(addr.to_string()));
    }

    #[tokio::test]
    async fn a_version_refusal_is_explained() {
        use banco_protocol::{ErrorMsg, ServerCodec};
        let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = l.local_addr().unwrap();
        tokio::spawn(async move {
            let (s, _) = l.accept().await.unwrap();
            let mut f = Framed::new(s, ServerCodec::new());
            let _hello = f.next().await;
            f.send(ServerMsg::Error(ErrorMsg::new(
                ErrorCode::VersionMismatch,
                "server speaks version 9, you speak 1",
            )))
            .await
            .unwrap();
        });
        let e = open_plain(&addr.to_string()).await.err().unwrap();
        assert!(matches!(e, ConnectError::Version { .. }), "{e:?}");
        assert!(e.to_string().contains("version 9"));
    }

    /// A server that greets, then runs `then` on the framed socket.
    async fn greeting_server<F, Fut>(then: F) -> SocketAddr
    where
        F: FnOnce(Framed<TcpStream, banco_protocol::ServerCodec>) -> Fut + Send + 'static,
        Fut: std::future::Future<Output = ()> + Send,
    {
        let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = l.local_addr().unwrap();
        tokio::spawn(async move {
            let (s, _) = l.accept().await.unwrap();
            let mut f = Framed::new(s, banco_protocol::ServerCodec::new());
            let _hello = f.next().await;
            f.send(ServerMsg::Welcome(Welcome {
                bot: false,
                version: PROTOCOL_VERSION,
                name: "An".into(),
                server: "test".into(),
                resume: ResumeToken([3; 16]),
                account: false,
                account_token: None,
            }))
            .await
            .unwrap();
            then(f).await;
        });
        addr
    }

    #[tokio::test]
    async fn pings_are_answered_and_a_silent_server_is_called_dead() {
        let (seen_tx, mut seen) = mpsc::channel(4);
        let addr = greeting_server(|mut f| async move {
            f.send(ServerMsg::Ping(5)).await.unwrap();
            let pong = f.next().await;
            seen_tx.send(format!("{pong:?}")).await.unwrap();
            // Then not a word, and the socket left open.
            std::future::pending::<()>().await;
        })
        .await;
        let link = open_plain(&addr.to_string())
            .await
            .unwrap()
            .start_with(Duration::from_millis(300));
        let mut link = link;
        assert_eq!(seen.recv().await.unwrap(), "Some(Ok(Ok(Pong(5))))");
        // The ping never reached the app; the silence did.
        assert_eq!(
            link.incoming.recv().await,
            Some(NetEvent::Closed(Lost::Silent))
        );
    }

    #[tokio::test]
    async fn a_shutdown_and_a_plain_close_are_told_apart() {
        let addr = greeting_server(|mut f| async move {
            f.send(ServerMsg::Error(ErrorMsg::new(
                ErrorCode::ShuttingDown,
                "the server is shutting down",
            )))
            .await
            .unwrap();
        })
        .await;
        let mut link = open_plain(&addr.to_string()).await.unwrap().start();
        assert!(matches!(
            link.incoming.recv().await,
            Some(NetEvent::Msg(ServerMsg::Error(_)))
        ));
        assert_eq!(
            link.incoming.recv().await,
            Some(NetEvent::Closed(Lost::ShuttingDown))
        );

        let addr = greeting_server(|f| async move { drop(f) }).await;
        let mut link = open_plain(&addr.to_string()).await.unwrap().start();
        assert_eq!(
            link.incoming.recv().await,
            Some(NetEvent::Closed(Lost::Closed))
        );
    }

    #[tokio::test]
    async fn a_link_let_go_of_closes_at_once() {
        // The heartbeat's pong sender must not keep the connection open: the server sees
        // the end as soon as the app drops the link.
        let (end_tx, mut end) = mpsc::channel(1);
        let addr = greeting_server(|mut f| async move {
            f.send(ServerMsg::Ping(1)).await.unwrap();
            while let Some(Ok(_)) = f.next().await {}
            end_tx.send(()).await.unwrap();
        })
        .await;
        // Silence never ends this link by itself: only letting go can.
        let link = open_plain(&addr.to_string())
            .await
            .unwrap()
            .start_with(Duration::from_secs(3600));
        drop(link);
        // The wait only turns a hang into a failure.
        let ended = tokio::time::timeout(Duration::from_secs(60), end.recv()).await;
        assert_eq!(ended, Ok(Some(())), "the server never saw the link close");
    }
}
