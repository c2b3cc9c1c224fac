//! The registrar: a thread with a connection of its own for accounts (looking one up at a
//! login or a guest's Hello, registering, changing a password), so account work never
//! waits in line with the games' commits and never makes them wait: the writer's queue
//! carries the game log only. SQLite lets one connection write at a time; the
//! registrar's writes are single indexed rows in short `IMMEDIATE` transactions, and the
//! writer waits out the rare overlap in microseconds (see `writer::Writer::new`).

use rusqlite::Connection;
use tokio::sync::{mpsc, watch};

use super::SyncMode;
use super::file::Target;

/// Account work to run on the registrar's connection; it answers on its own channel.
pub type Work = Box<dyn FnOnce(&mut Connection) + Send>;

/// What the registrar is asked.
pub enum Job {
    /// Work to run; it answers on its own channel.
    Work(Work),
    /// The store is closing: close the connection now, whoever still holds a handle
    /// (their account work is then refused as closed).
    Close,
}

/// How many account jobs may wait; senders wait beyond it (a crowd's Hellos queue up
/// instead of being refused).
pub const QUEUE: usize = 64;

/// Serves account work until the store closes or every handle is gone. `reopened` ticks
/// when the writer recreated the file: the old connection would write to a file that is
/// no longer at the path.
pub fn run(
    mut conn: Connection,
    target: Target,
    sync: SyncMode,
    mut rx: mpsc::Receiver<Job>,
    mut reopened: watch::Receiver<u64>,
) {
    while let Some(Job::Work(work)) = rx.blocking_recv() {
        if reopened.has_changed().unwrap_or(false) {
            reopened.mark_unchanged();
            match target.open_registrar(sync) {
                Ok(fresh) => conn = fresh,
                Err(e) => tracing::error!(error = %e, "cannot reopen the database for accounts"),
            }
        }
        work(&mut conn);
    }
}
