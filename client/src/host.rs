//! `banco host`: the server, in this process, on a listening socket of the user's
//! choice. Failing to listen is explained in a sentence (port taken, address not ours,
//! no permission), before the terminal is taken over.

use banco_server::{Config, StoreLocation};
use std::io;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::net::{address_text, split_address};

/// How long the server may take to close its sessions and store when the host quits.
const STOP_WAIT: Duration = Duration::from_secs(5);

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    #[error(
        "'{0}' is not an address to listen on: write e.g. 0.0.0.0:7373, or 0.0.0.0:7374 for another port"
    )]
    BadAddress(String),
    #[error(
        "port {port} is already in use on this machine (another banco host?). Host on another port with --listen 0.0.0.0:{next}, and players join with ADDRESS:{next}"
    )]
    PortInUse { port: u16, next: u16 },
    #[error(
        "{0} is not an address of this machine: listen on 0.0.0.0 (every network) or on one of its own IPs"
    )]
    NotLocal(String),
    #[error(
        "not allowed to listen on port {0}: ports below 1024 need administrator rights; the default 7373 does not"
    )]
    Permission(u16),
    #[error("{0}")]
    Store(String),
    /// The certificate could not be read or made (the sentence says what to do).
    #[error("{0}")]
    Tls(String),
    #[error("could not listen on {addr}: {message}")]
    Other { addr: String, message: String },
}

/// A server running in this process.
pub struct Hosted {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Its key fingerprint, for the lobby and the QR code; `None` with `--no-tls`.
    pub fingerprint: Option<banco_protocol::Fingerprint>,
    /// Cancelled to stop the server.
    shutdown: CancellationToken,
    /// The server task; its result says whether it stopped cleanly.
    task: tokio::task::JoinHandle<anyhow::Result<()>>,
}

impl Hosted {
    /// Where this machine's own client should connect: the listening address, or the
    /// loopback address when listening on all interfaces.
    pub fn connect_address(&self) -> String {
        let ip = match self.addr.ip() {
            IpAddr::V4(v4) if v4.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V6(v6) if v6.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
            ip => ip,
        };
        address_text(&ip.to_string(), self.addr.port())
    }

    /// Stops the server: sessions are told it is shutting down, the store is written.
    pub async fn stop(self) {
        self.shutdown.cancel();
        match tokio::time::timeout(STOP_WAIT, self.task).await {
            Ok(Ok(Ok(()))) => {}
            Ok(Ok(Err(e))) => tracing::error!("the server stopped with an error: {e:#}"),
            Ok(Err(e)) => tracing::error!("the server task failed: {e}"),
            Err(_) => tracing::warn!("the server took too long to stop"),
        }
    }
}

/// Where the server keeps its games: `:memory:`, a path, or (None) the default file.
pub fn store_location(db: Option<&str>) -> StoreLocation {
    match db {
        Some(":memory:") => StoreLocation::Memory,
        Some(path) => StoreLocation::File(PathBuf::from(path)),
        None => Config::default().store,
    }
}

/// Binds `listen` (default port if none).
pub async fn bind(listen: &str) -> Result<TcpListener, HostError> {
    let text = listen.trim();
    // `:7374` means every interface on that port.
    let full = if text.starts_with(':') {
        format!("0.0.0.0{text}")
    } else {
        text.to_string()
    };
    let (host, port) = split_address(&full).map_err(|_| HostError::BadAddress(text.to_string()))?;
    let shown = address_text(&host, port);
    TcpListener::bind((host.as_str(), port))
        .await
        .map_err(|e| match e.kind() {
            io::ErrorKind::AddrInUse => HostError::PortInUse {
                port,
                next: port.wrapping_add(1).max(1024),
            },
            io::ErrorKind::AddrNotAvailable => HostError::NotLocal(host.clone()),
            io::ErrorKind::PermissionDenied => HostError::Permission(port),
            _ => HostError::Other {
                addr: shown,
                message: e.to_string(),
            },
        })
}

/// Starts a server listening on `listen`, keeping games in `db`, serving the browser
/// client on the same port unless `web` is false, encrypted as `tls` says (its
/// certificate kept beside `db`, made on the first start).
pub async fn start(
    listen: &str,
    db: Option<&str>,
    web: bool,
    limits: &banco_server::Limits,
    tls: &banco_server::tls::TlsArgs,
) -> Result<Hosted, HostError> {
    let listener = bind(listen).await?;
    let addr = listener.local_addr().map_err(|e| HostError::Other {
        addr: listen.to_string(),
        message: e.to_string(),
    })?;
    let mut config = Config {
        store: store_location(db),
        web,
        ..Config::default()
    };
    limits.apply(&mut config);
    let store = banco_server::open_store(&config)
        .await
        .map_err(|e| HostError::Store(format!("{e:#}")))?;
    // Loaded here, not by the server (which says it at start), so the lobby can show
    // the fingerprint.
    let (asked, store_at) = (tls.tls(), config.store.clone());
    let loaded = tokio::task::spawn_blocking(move || asked.load(&store_at))
        .await
        .map_err(|e| HostError::Tls(e.to_string()))?
        .map_err(|e| HostError::Tls(e.to_string()))?;
    let fingerprint = loaded.as_ref().map(|id| id.fingerprint);
    config.tls = loaded.map_or(banco_server::tls::Tls::Off, banco_server::tls::Tls::Ready);
    let shutdown = CancellationToken::new();
    let task = tokio::spawn(banco_server::run_with_store(
        listener,
        config,
        store,
        shutdown.clone(),
    ));
    Ok(Hosted {
        addr,
        fingerprint,
        shutdown,
        task,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_taken_port_is_explained() {
        let taken = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = taken.local_addr().unwrap().port();
        let err = bind(&format!("127.0.0.1:{port}")).await.unwrap_err();
        assert!(matches!(err, HostError::PortInUse { .. }), "{err:?}");
        assert!(err.to_string().contains("already in use"));
        assert!(matches!(
            bind("nowhere:70000").await.unwrap_err(),
            HostError::BadAddress(_)
        ));
    }

    #[tokio::test]
    async fn hosts_and_stops() {
        let hosted = start(
            "127.0.0.1:0",
            Some(":memory:"),
            true,
            &banco_server::Limits::default(),
            &banco_server::tls::TlsArgs::default(),
        )
        .await
        .unwrap();
        assert!(hosted.connect_address().starts_with("127.0.0.1:"));
        let link = crate::net::Connection::open(&hosted.connect_address(), "An")
            .await
            .unwrap();
        // A guest: the name is marked.
        assert_eq!(link.welcome.name, "~An");
        // Encrypted by default, with the key the host shows.
        assert!(hosted.fingerprint.is_some());
        assert_eq!(link.security.fingerprint(), hosted.fingerprint);
        hosted.stop().await;
    }
}
