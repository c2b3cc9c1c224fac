//! banco-server: hosts rooms where people play caro and xiangqi over TCP.
//!
//! Entry point: [`run`] serves a bound listener until a shutdown token fires. The
//! `banco-server` binary and the client's `banco host` both call it.
//!
//! Map of the crate, outside in:
//!
//! - [`config`]: [`Config`], what a host may tune (name, store, grace period, bot pace).
//! - [`server`]: [`run`]: accepts connections, spawns a session for each, shuts down.
//! - [`connection`]: messages <-> bytes for one connection, behind a transport seam
//!   ([`connection::FrameSource`], [`connection::FrameSink`]: TCP frames or a WebSocket);
//!   [`connection::Outbox`] is the queue to the writer, bounded in bytes, and
//!   [`connection::Outgoing`] a message encoded once and shared by every recipient.
//! - [`session`]: one task per client: the Hello/Welcome handshake, then routing each
//!   request to the lobby or to the client's room.
//! - [`lobby`]: the actor that knows every room and every player name, hands out resume
//!   tokens and keeps lobby sessions' room lists fresh.
//! - [`room`]: one actor task per room owning its game, seats, clocks, offers, chat and
//!   bot seats; [`room::RoomHandle`] is the cheap handle sessions talk to it through.
//! - [`engines`]: the one engine pool of the server: a fixed number of search threads
//!   and one memory budget serving every room's bot moves and hints by priority.
//! - [`store`]: SQLite, written ahead: a group-committing writer thread (rooms announce
//!   nothing before it is on disk) and a reader thread for the leaderboard, history and
//!   replays; players, ratings (Elo), finished games and the log of games in progress.
//! - [`token`]: resume tokens as the server keeps them: hashes, never the secret.
//! - [`names`]: checking and cleaning what people type (names, chat lines).
//! - [`web`]: the browser client on the game port: the embedded page, and a WebSocket
//!   that carries the protocol as JSON into an ordinary session.
//! - [`discovery`]: LAN discovery: the task answering UDP probes with a beacon, and the
//!   prober clients call ([`discovery::probe`]) to list the servers on their network.

pub mod accounts;
pub mod config;
pub mod connection;
pub mod discovery;
pub mod engines;
pub mod limits;
pub mod lobby;
pub mod names;
pub mod room;
pub mod server;
pub mod session;
pub mod store;
pub mod token;
pub mod web;

pub use config::{Config, StoreLocation, default_store_path};
pub use limits::Limits;
pub use server::{Sockets, open_store, run, run_with_store, serve};

/// Identifies one connected session for as long as the server runs. Never reused.
pub type ClientId = u64;

/// Resolves on Ctrl-C or SIGTERM (what systemd, docker and `kill` send): how
/// `banco-server` and `banco host` know to stop cleanly.
pub async fn stop_signal() {
    let ctrl_c = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::error!(error = %e, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                term.recv().await;
            }
            Err(e) => {
                tracing::error!(error = %e, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}
