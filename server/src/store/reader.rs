//! The reader: a thread with its own connection for what players ask to see (the
//! leaderboard, the history, a replay), so reading the records never delays a commit
//! and a commit never delays a read. In WAL mode a read sees every transaction committed
//! before it began: a game whose end a player was told of is already there.

use rusqlite::Connection;
use std::sync::mpsc;
use tokio::sync::watch;

use super::file::Target;

/// A read to run on the reader's thread; it answers on its own channel.
pub type Read = Box<dyn FnOnce(&Connection) + Send>;

/// What the reader's thread is asked.
pub enum Job {
    Read(Read),
    /// The store is closing: close the connection now, whoever still holds a handle
    /// (their reads are then refused as closed).
    Close,
}

/// Serves reads until the store closes or every handle is gone. `reopened` ticks when
/// the writer recreated the file: the old connection reads a file that is no longer at
/// the path.
pub fn run(
    mut conn: Connection,
    target: Target,
    rx: mpsc::Receiver<Job>,
    mut reopened: watch::Receiver<u64>,
) {
    while let Ok(Job::Read(read)) = rx.recv() {
        if reopened.has_changed().unwrap_or(false) {
            reopened.mark_unchanged();
            match target.open_reader() {
                Ok(fresh) => conn = fresh,
                Err(e) => tracing::error!(error = %e, "cannot reopen the database for reading"),
            }
        }
        read(&conn);
    }
}
