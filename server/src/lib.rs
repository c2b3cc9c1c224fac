//! banco-server: hosts rooms where people play caro and xiangqi over TCP.
//!
//! Entry point: [`run`] serves a bound listener until a shutdown token fires. The
//! `banco-server` binary and the client's `banco host` both call it.
//!
//! Map of the crate, outside in:
//!
//! - [`config`]: [`Config`], what a host may tune (name, store, grace period, bot pace).
//! - [`durability`]: where records are kept and what a commit survives: the host's
//!   choices that `config` holds and `store` acts on.
//! - [`server`]: [`run`]: accepts connections, spawns a session for each, shuts down.
//! - [`admission`]: the connection budgets, per machine and overall (from the open
//!   files limit); a connection over one is told why, not dropped in silence.
//! - [`connection`]: messages <-> bytes for one connection, behind a transport seam
//!   ([`connection::FrameSource`], [`connection::FrameSink`]: TCP frames or a WebSocket);
//!   [`connection::Outbox`] is the queue to the writer, bounded in bytes, and
//!   [`connection::Outgoing`] a message encoded once and shared by every recipient.
//! - [`session`]: one task per client: the Hello/Welcome handshake, then routing each
//!   request to the lobby or to the client's room.
//! - [`lobby`]: the actor that knows every room and every player name, hands out resume
//!   tokens and keeps lobby sessions' room lists fresh; its books (names, held seats,
//!   the room directory, the room-list broadcaster) each in their own file.
//! - [`room`]: one actor task per room owning its game, seats, clocks, offers, chat and
//!   bot seats; [`room::RoomHandle`] is the cheap handle sessions talk to it through.
//! - [`tournament`]: one actor task per tournament (Swiss, round robin, arena): entries,
//!   rounds paired with banco-pairing, boards' rooms opened through the lobby, results,
//!   standings, exports; written ahead in the store.
//! - [`engines`]: the one engine pool of the server: a fixed number of search threads
//!   and one memory budget serving every room's bot moves and hints by priority.
//! - [`record_files`]: record files read and written for the browser page, with the rules
//!   crate's one reader and writer.
//! - [`review`]: engine reviews of finished games, on that pool at its lowest priority,
//!   streamed to the asker and stored with the game.
//! - [`accounts`]: who a session is (an account or a guest), passwords hashed on a few
//!   threads of their own in memory they keep, failed logins throttled.
//! - [`limits`]: the budgets a host sets on the command line (`banco-server`, `banco host`).
//! - [`store`]: the bottom of the server (it imports none of the above): one trait,
//!   [`store::GameStore`], implemented on SQLite, written ahead: a group-committing
//!   writer thread (rooms announce nothing before it is on disk), a reader thread for
//!   the leaderboard, history and replays, and a registrar thread for accounts; players,
//!   Glicko-2 ratings, finished games and the log of games in progress.
//! - [`wall_clock`]: Unix milliseconds, the one clock rooms and the store both read.
//! - [`token`]: resume tokens as the server keeps them: hashes, never the secret.
//! - [`names`]: checking and cleaning what people type (names, chat lines).
//! - [`web`]: the browser client on the game port: the embedded page, and a WebSocket
//!   that carries the protocol as JSON into an ordinary session.
//! - [`door`]: every connection to the game port told apart by its first byte (TLS,
//!   plain HTTP, a plain banco client) and handed on; TLS handshakes in their own task.
//! - [`tls`]: encryption on the game port: the self-signed certificate made at first
//!   start (or a real one) and its key fingerprint.
//! - [`discovery`]: LAN discovery: the task answering UDP probes with a beacon, and the
//!   prober clients call ([`discovery::probe`]) to list the servers on their network.

pub mod accounts;
pub mod admission;
pub mod config;
pub mod connection;
pub mod discovery;
pub mod door;
pub mod durability;
pub mod engines;
pub mod limits;
pub mod lobby;
pub mod names;
pub mod record_files;
pub mod review;
pub mod room;
pub mod server;
pub mod session;
pub mod store;
pub mod tls;
pub mod token;
pub mod tournament;
pub mod wall_clock;
pub mod web;

pub use config::{Config, StoreLocation, default_store_path};
pub use limits::Limits;
pub use server::{Sockets, open_store, run, run_with_store, serve};

/// Identifies one connected session for as long as the server runs. Never reused.
pub type ClientId = u64;

/// Ctrl-C and SIGTERM (what systemd, docker and `kill` send): how `banco-server` and
/// `banco host` know to stop cleanly. Listened for from the moment
/// [`StopSignal::listen`] is called: a signal that comes before the program first waits
/// for it is kept, not left to kill the process where it stands (with its store open).
pub struct StopSignal {
    #[cfg(unix)]
    interrupt: Option<tokio::signal::unix::Signal>,
    #[cfg(unix)]
    terminate: Option<tokio::signal::unix::Signal>,
}

impl StopSignal {
    /// Starts listening (within a tokio runtime). A signal that cannot be listened for
    /// is logged and never fires.
    pub fn listen() -> StopSignal {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let listen = |kind: SignalKind, what: &str| match signal(kind) {
                Ok(s) => Some(s),
                Err(e) => {
                    tracing::error!(error = %e, "cannot listen for {what}");
                    None
                }
            };
            StopSignal {
                interrupt: listen(SignalKind::interrupt(), "Ctrl-C"),
                terminate: listen(SignalKind::terminate(), "SIGTERM"),
            }
        }
        #[cfg(not(unix))]
        StopSignal {}
    }

    /// Resolves on the first Ctrl-C or SIGTERM since [`StopSignal::listen`].
    pub async fn recv(self) {
        #[cfg(unix)]
        {
            async fn next(signal: Option<tokio::signal::unix::Signal>) {
                match signal {
                    Some(mut s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            }
            tokio::select! {
                () = next(self.interrupt) => {}
                () = next(self.terminate) => {}
            }
        }
        #[cfg(not(unix))]
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::error!(error = %e, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    }
}
