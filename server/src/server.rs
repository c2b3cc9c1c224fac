//! Accepting connections and shutting down: the only place that sees the listeners.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream, UdpSocket};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::admission::{self, Admission, Budget, Ticket};
use crate::config::{Config, StoreLocation};
use crate::discovery::answer::{self, Identity};
use crate::engines::EnginePool;
use crate::lobby;
use crate::session::SessionContext;
use crate::store::{Store, StoreOptions};
use crate::tls::{self, Tls};

/// The sockets a server serves on.
pub struct Sockets {
    /// Where players connect to play.
    pub game: TcpListener,
    /// Where LAN discovery probes arrive; `None` for a server nobody discovers.
    pub discovery: Option<UdpSocket>,
}

/// Serves `listener` until `shutdown` is cancelled, answering LAN discovery probes on
/// `config.discovery` (a socket that cannot be bound there is a warning: players can
/// still join by address). See [`serve`].
pub async fn run(
    listener: TcpListener,
    config: Config,
    shutdown: CancellationToken,
) -> anyhow::Result<()> {
    let store = open_store(&config).await?;
    run_with_store(listener, config, store, shutdown).await
}

/// As [`run`], with the store already opened by [`open_store`] (so a host can refuse to
/// start, with the store's sentence, before anything else happens).
pub async fn run_with_store(
    listener: TcpListener,
    config: Config,
    store: Store,
    shutdown: CancellationToken,
) -> anyhow::Result<()> {
    let discovery = match config.discovery {
        Some(addr) => bind_discovery(addr, &listener).await,
        None => None,
    };
    let sockets = Sockets {
        game: listener,
        discovery,
    };
    serve_store(sockets, config, store, shutdown).await
}

/// The discovery socket for a server listening on `listener`, if it can be bound. A game
/// listener on loopback only (`--listen 127.0.0.1:..`) is not reachable from the
/// network, so discovery then answers on loopback only too.
async fn bind_discovery(mut addr: SocketAddr, listener: &TcpListener) -> Option<UdpSocket> {
    let game_ip = listener.local_addr().map(|a| a.ip()).ok();
    if addr.ip().is_unspecified() && game_ip.is_some_and(|ip| ip.is_loopback()) {
        let loopback = match addr.ip() {
            IpAddr::V4(_) => IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V6(_) => IpAddr::V6(Ipv6Addr::LOCALHOST),
        };
        addr.set_ip(loopback);
    }
    match UdpSocket::bind(addr).await {
        Ok(socket) => {
            tracing::info!(%addr, "answering LAN discovery");
            Some(socket)
        }
        Err(e) => {
            tracing::warn!(
                %addr,
                error = %e,
                "LAN discovery is off (cannot listen for probes); players can still join by address"
            );
            None
        }
    }
}

/// Serves `sockets.game` until `shutdown` is cancelled, then closes every session (each
/// client is told the server is shutting down), saves the games in progress, and writes
/// what the store has queued before returning. Games saved in progress by the last run
/// are reopened first, their players' seats held until they come back. Probes arriving
/// on `sockets.discovery` are answered with this server's beacon (`config.discovery` is
/// not looked at: the socket is already bound).
///
/// A store that cannot be opened or written is an error: nothing is served.
pub async fn serve(
    sockets: Sockets,
    config: Config,
    shutdown: CancellationToken,
) -> anyhow::Result<()> {
    let store = open_store(&config).await?;
    serve_store(sockets, config, store, shutdown).await
}

async fn serve_store(
    sockets: Sockets,
    mut config: Config,
    mut store: Store,
    shutdown: CancellationToken,
) -> anyhow::Result<()> {
    let Sockets {
        game: listener,
        discovery,
    } = sockets;
    config.tls = load_tls(&config).await?;
    let restored = lobby::Restored {
        games: store.take_live_games(),
        matches: store.take_live_matches(),
        tournaments: store.take_tournaments(),
    };
    let engines = EnginePool::start(config.engine_threads, config.engine_memory)
        .map_err(|e| anyhow::anyhow!("could not start the engines' threads: {e}"))?;
    let config = Arc::new(config);
    let tracker = TaskTracker::new();
    let reviewer = crate::review::Reviewer::new(
        engines.clone(),
        store.handle(),
        config.review_budget,
        config.review_nodes,
        config.max_reviews,
    );
    let lobby = lobby::spawn(
        config.clone(),
        store.handle(),
        restored,
        engines,
        &tracker,
        shutdown.clone(),
    );
    let ctx = SessionContext {
        config: config.clone(),
        lobby,
        store: store.handle(),
        accounts: crate::accounts::Accounts::new(store.handle(), config.hashing)
            .with_registrations(config.registration_burst, config.registration_refill),
        reviewer,
        shutdown: shutdown.clone(),
        ticket: Ticket::unlimited(),
    };
    let budget = connection_budget(&config);
    let game_addr = listener.local_addr();
    match &game_addr {
        Ok(addr) => tracing::info!(%addr, name = %config.name, "banco server listening"),
        Err(e) => tracing::warn!(error = %e, "listening on an unknown address"),
    }
    if let (Some(socket), Ok(game_addr)) = (discovery, game_addr) {
        let identity = Identity {
            name: config.name.clone(),
            port: game_addr.port(),
            census: ctx.lobby.census(),
            fingerprint: config.tls.identity().map(|identity| identity.fingerprint),
        };
        tracker.spawn(answer::serve(socket, identity, shutdown.clone()));
    }

    loop {
        let accepted = tokio::select! {
            () = shutdown.cancelled() => break,
            accepted = listener.accept() => accepted,
        };
        match accepted {
            Ok((stream, peer)) => {
                tune(&stream);
                let Some(ctx) = admit(&budget, peer, &ctx) else {
                    continue;
                };
                // TLS, HTTP or banco, by the first byte; the handshake in its own task.
                tracker.spawn(crate::door::accept::serve(
                    stream,
                    peer,
                    ctx.clone(),
                    tracker.clone(),
                ));
            }
            Err(e) => {
                // Out of file descriptors and the like: back off instead of spinning.
                tracing::warn!(error = %e, "accept failed");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }

    tracing::info!("shutting down");
    drop(listener);
    drop(ctx);
    tracker.close();
    tracker.wait().await;
    if tokio::task::spawn_blocking(move || store.close())
        .await
        .is_err()
    {
        tracing::error!("the store did not close cleanly");
    }
    tracing::info!("stopped");
    Ok(())
}

/// The connection budgets of `config`: the overall one from the open files limit
/// (raised to its hard limit first) unless the host set one.
fn connection_budget(config: &Config) -> Budget {
    let limit = admission::descriptor_limit();
    let fits = limit.map_or(usize::MAX, admission::connections_for);
    let overall = config.max_connections.unwrap_or(fits).min(fits);
    tracing::info!(
        open_files = limit,
        connections = overall,
        per_address = config.connections_per_address,
        "connection budgets"
    );
    Budget::new(config.connections_per_address, overall)
}

/// The context a new connection from `peer` is served with, holding its place in the
/// budgets (or why it has none, which it is told); `None`: closed at once (a flood of
/// refusals is under way).
fn admit(budget: &Budget, peer: SocketAddr, ctx: &SessionContext) -> Option<SessionContext> {
    match budget.admit(peer.ip()) {
        Admission::Ticket(ticket) => Some(SessionContext {
            ticket,
            ..ctx.clone()
        }),
        Admission::Drop => None,
    }
}

/// How long a connection may be silent before the system checks the peer is still there.
const KEEPALIVE_IDLE: Duration = Duration::from_secs(15);
/// Between two checks of a silent peer.
const KEEPALIVE_INTERVAL: Duration = Duration::from_secs(5);
/// Unanswered checks after which the connection is dropped.
#[cfg_attr(
    not(any(
        target_os = "linux",
        target_os = "android",
        target_os = "macos",
        target_os = "freebsd",
        target_os = "windows"
    )),
    allow(dead_code)
)]
const KEEPALIVE_RETRIES: u32 = 3;
/// How long sent data may go unacknowledged before the connection is dropped (Linux).
#[cfg_attr(not(any(target_os = "linux", target_os = "android")), allow(dead_code))]
const UNACKED_LIMIT: Duration = Duration::from_secs(30);

/// Sets up a player's connection: moves go out at once (no Nagle delay), and a peer
/// that vanished without closing (a laptop gone to sleep, a Wi-Fi out of range) is
/// noticed within about half a minute, so their seat is held for them (and then given
/// up) instead of showing them connected for the many minutes TCP would otherwise wait.
fn tune(stream: &TcpStream) {
    if let Err(e) = stream.set_nodelay(true) {
        tracing::debug!(error = %e, "could not turn off Nagle's algorithm");
    }
    let socket = socket2::SockRef::from(stream);
    let keepalive = socket2::TcpKeepalive::new()
        .with_time(KEEPALIVE_IDLE)
        .with_interval(KEEPALIVE_INTERVAL);
    #[cfg(any(
        target_os = "linux",
        target_os = "android",
        target_os = "macos",
        target_os = "freebsd",
        target_os = "windows"
    ))]
    let keepalive = keepalive.with_retries(KEEPALIVE_RETRIES);
    if let Err(e) = socket.set_tcp_keepalive(&keepalive) {
        tracing::debug!(error = %e, "could not turn on TCP keepalive");
    }
    #[cfg(any(target_os = "linux", target_os = "android"))]
    if let Err(e) = socket.set_tcp_user_timeout(Some(UNACKED_LIMIT)) {
        tracing::debug!(error = %e, "could not bound unacknowledged data");
    }
}

/// The server's TLS identity as the configuration asks (made at first start, kept
/// beside the store), said at start with its fingerprint; [`Tls::Off`] said as such.
/// A certificate that cannot be read or made is an error: the server does not fall
/// back to speaking in the clear.
pub async fn load_tls(config: &Config) -> anyhow::Result<Tls> {
    let tls = config.tls.clone();
    let store = config.store.clone();
    let loaded = tokio::task::spawn_blocking(move || tls.load(&store)).await??;
    tls::announce(loaded.as_deref());
    Ok(loaded.map_or(Tls::Off, Tls::Ready))
}

/// Opens the store the configuration names. A database that cannot be opened or written
/// is refused (the error says why and what to do): a host who asked for their games to be
/// kept must not find out later that they were not.
pub async fn open_store(config: &Config) -> anyhow::Result<Store> {
    let options = StoreOptions {
        location: config.store.clone(),
        sync: config.store_sync,
        queue_bytes: config.store_queue_bytes,
        max_bytes: config.store_max_bytes.clone(),
    };
    let store = tokio::task::spawn_blocking(move || Store::open_with(&options)).await??;
    if let StoreLocation::File(path) = &config.store {
        tracing::info!(path = %path.display(), "games and ratings are kept here");
    }
    Ok(store)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn players_connections_are_kept_alive() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let _client = TcpStream::connect(addr).await.unwrap();
        let (stream, _) = listener.accept().await.unwrap();
        tune(&stream);
        assert!(stream.nodelay().unwrap());
        let socket = socket2::SockRef::from(&stream);
        assert!(socket.keepalive().unwrap());
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            assert_eq!(socket.tcp_keepalive_time().unwrap(), KEEPALIVE_IDLE);
            assert_eq!(socket.tcp_keepalive_interval().unwrap(), KEEPALIVE_INTERVAL);
            assert_eq!(socket.tcp_keepalive_retries().unwrap(), KEEPALIVE_RETRIES);
            assert_eq!(socket.tcp_user_timeout().unwrap(), Some(UNACKED_LIMIT));
        }
    }
}
