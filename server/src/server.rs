//! Accepting connections and shutting down: the only place that sees the listener.

use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::config::{Config, StoreLocation};
use crate::lobby;
use crate::session::{self, SessionContext};
use crate::store::Store;

/// Serves `listener` until `shutdown` is cancelled, then closes every session (each client
/// is told the server is shutting down), saves the games in progress, and writes what the
/// store has queued before returning. Games saved in progress by the last run are
/// reopened first, their players' seats held until they come back.
///
/// A store that cannot be opened is logged and replaced by an in-memory one: hosting goes
/// on, only the history of this run is not kept.
pub async fn run(
    listener: TcpListener,
    config: Config,
    shutdown: CancellationToken,
) -> anyhow::Result<()> {
    let mut store = open_store(config.store.clone()).await?;
    let restored = store.take_live_games();
    let config = Arc::new(config);
    let tracker = TaskTracker::new();
    let lobby = lobby::spawn(
        config.clone(),
        store.handle(),
        restored,
        &tracker,
        shutdown.clone(),
    );
    let ctx = SessionContext {
        config: config.clone(),
        lobby,
        store: store.handle(),
        shutdown: shutdown.clone(),
    };
    match listener.local_addr() {
        Ok(addr) => tracing::info!(%addr, name = %config.name, "banco server listening"),
        Err(e) => tracing::warn!(error = %e, "listening on an unknown address"),
    }

    loop {
        let accepted = tokio::select! {
            () = shutdown.cancelled() => break,
            accepted = listener.accept() => accepted,
        };
        match accepted {
            Ok((stream, peer)) => {
                if let Err(e) = stream.set_nodelay(true) {
                    tracing::debug!(error = %e, "could not turn off Nagle's algorithm");
                }
                tracker.spawn(session::serve(stream, peer, ctx.clone()));
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

async fn open_store(location: StoreLocation) -> anyhow::Result<Store> {
    let opened = {
        let location = location.clone();
        tokio::task::spawn_blocking(move || Store::open(&location)).await?
    };
    match opened {
        Ok(store) => {
            if let StoreLocation::File(path) = &location {
                tracing::info!(path = %path.display(), "games and ratings are kept here");
            }
            Ok(store)
        }
        Err(e) => {
            tracing::error!(error = %e, ?location, "cannot open the store; this run's games will not be kept");
            Ok(tokio::task::spawn_blocking(|| Store::open(&StoreLocation::Memory)).await??)
        }
    }
}
