//! The writer: one thread, one connection, group commit.
//!
//! Rooms send their entries with a reply channel and a share of the store's byte budget
//! (see [`super::StoreHandle::commit`]). The writer takes everything waiting, writes it
//! in one transaction and answers every room at once: many rooms' moves cost one commit.
//!
//! When a commit fails (a full disk, an I/O error, a file made read-only) nothing is
//! dropped: the entries are held in order, the rooms are answered [`Saved::Held`] so
//! their games go on, everyone is told games are not being saved and why, and the
//! writer tries again with a growing pause; once a commit succeeds, everything held is
//! written, first, and the notice clears. Held entries keep their share of the byte
//! budget, so a disk that never comes back makes rooms wait rather than memory grow.
//!
//! The writer also watches the file: a database deleted or replaced under the server
//! (SQLite would go on writing to the unlinked file) is written anew at its path from
//! what the old connection still holds.

use rusqlite::Connection;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, oneshot, watch};

use banco_protocol::Storage;

use super::SyncMode;
use super::file::{self, FileId, Target};
use super::journal::Entry;
use super::{Saved, describe};

/// The most jobs written in one transaction: the rest wait for the next one.
const MAX_BATCH: usize = 4096;

/// How often an idle writer looks whether its file is still there.
const WATCH_EVERY: Duration = Duration::from_secs(2);

/// The least time between two looks at the file while busy.
const WATCH_BUSY: Duration = Duration::from_millis(250);

/// The first pause before writing again after a failure; it doubles up to [`RETRY_MAX`].
const RETRY_FIRST: Duration = Duration::from_millis(500);
const RETRY_MAX: Duration = Duration::from_secs(30);

/// Work for the writer.
pub enum Job {
    /// Entries to commit; the answer goes back on `reply`.
    Write {
        entries: Vec<Entry>,
        /// Its share of the queue's byte budget, given back once written.
        permit: OwnedSemaphorePermit,
        reply: oneshot::Sender<Saved>,
    },
    /// A change beside the game log (an engine review kept with its game), in its own
    /// transaction, outside the log's batches: it answers on its own channel. Accounts
    /// never come here: they have the registrar.
    Change(Box<dyn FnOnce(&mut rusqlite::Connection) + Send>),
    /// Tests: the writer does nothing until the sender is dropped, as if the disk had
    /// stalled, to show what does not wait for it.
    #[cfg(test)]
    Stall(std::sync::mpsc::Receiver<()>),
    /// Write what is held and stop.
    Close,
}

/// Entries not yet on disk, with their budget.
struct Held {
    entries: Vec<Entry>,
    _permit: OwnedSemaphorePermit,
}

pub struct Writer {
    /// The connection writes go through (replaced when the file is recreated).
    conn: Connection,
    /// Where the database lives.
    target: Target,
    /// How commits press on the disk.
    sync: SyncMode,
    /// The file the path named when opened, to notice it deleted or replaced.
    identity: Option<FileId>,
    /// The file is gone from its path and could not be written again yet: commits to the
    /// old connection would reach no file anyone can open, so nothing counts as saved.
    file_lost: bool,
    /// When the file was last looked at.
    watched: Instant,
    /// Entries that failed to commit, oldest first; written before anything newer.
    held: Vec<Held>,
    /// Why writes are failing, while they are.
    failing: Option<String>,
    /// When to try again, while failing.
    retry_at: Instant,
    /// The next pause after a failure.
    backoff: Duration,
    /// Whether games are being saved, for everyone to see.
    status: watch::Sender<Storage>,
    /// Tells the reader to reopen its connection after the file was recreated.
    reopened: watch::Sender<u64>,
    /// The host's cap on the database's size (0: none), and the cap last applied.
    max_bytes: Arc<AtomicU64>,
    applied_max: u64,
}

impl Writer {
    pub fn new(
        conn: Connection,
        target: Target,
        sync: SyncMode,
        max_bytes: Arc<AtomicU64>,
        status: watch::Sender<Storage>,
        reopened: watch::Sender<u64>,
    ) -> Writer {
        let identity = target.path().and_then(FileId::of);
        Writer {
            conn,
            target,
            sync,
            identity,
            file_lost: false,
            watched: Instant::now(),
            held: Vec::new(),
            failing: None,
            retry_at: Instant::now(),
            backoff: RETRY_FIRST,
            status,
            reopened,
            max_bytes,
            applied_max: 0,
        }
    }

    /// Serves jobs until [`Job::Close`] or every handle is gone.
    pub fn run(mut self, rx: mpsc::Receiver<Job>) {
        let mut batch: Vec<(Vec<Entry>, OwnedSemaphorePermit, oneshot::Sender<Saved>)> = Vec::new();
        let mut closing = false;
        while !closing {
            let wait = match &self.failing {
                Some(_) => self.retry_at.saturating_duration_since(Instant::now()),
                None => WATCH_EVERY,
            };
            match rx.recv_timeout(wait.max(Duration::from_millis(1))) {
                Ok(job) => {
                    let mut next = Some(job);
                    while let Some(job) = next.take() {
                        match job {
                            Job::Write {
                                entries,
                                permit,
                                reply,
                            } => batch.push((entries, permit, reply)),
                            Job::Change(change) => change(&mut self.conn),
                            #[cfg(test)]
                            Job::Stall(until) => {
                                let _ = until.recv();
                            }
                            Job::Close => closing = true,
                        }
                        if batch.len() < MAX_BATCH && !closing {
                            next = rx.try_recv().ok();
                        }
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => closing = true,
            }
            let file_ok = self.watch_file(closing);
            let retry_due = self.failing.is_none() || Instant::now() >= self.retry_at || closing;
            if !retry_due || !file_ok {
                // Still failing and not yet time to try again: hold the new entries in
                // order and let their games go on.
                for (entries, permit, reply) in batch.drain(..) {
                    self.held.push(Held {
                        entries,
                        _permit: permit,
                    });
                    let _ = reply.send(Saved::Held);
                }
                continue;
            }
            if batch.is_empty() && self.held.is_empty() {
                continue;
            }
            match self.commit(&batch) {
                Ok(()) => {
                    self.held.clear();
                    for (_, _, reply) in batch.drain(..) {
                        let _ = reply.send(Saved::Committed);
                    }
                    self.recovered();
                }
                Err(why) => {
                    for (entries, permit, reply) in batch.drain(..) {
                        self.held.push(Held {
                            entries,
                            _permit: permit,
                        });
                        let _ = reply.send(Saved::Held);
                    }
                    self.failed(why);
                }
            }
        }
        if !self.held.is_empty() {
            let entries: usize = self.held.iter().map(|h| h.entries.len()).sum();
            tracing::error!(
                entries,
                reason = self.failing.as_deref().unwrap_or("unknown"),
                "the server stops with game records it could not write"
            );
        }
    }

    /// Writes what is held, then `batch`, in one transaction.
    fn commit(
        &mut self,
        batch: &[(Vec<Entry>, OwnedSemaphorePermit, oneshot::Sender<Saved>)],
    ) -> Result<(), String> {
        self.apply_cap();
        let cap = self.applied_max;
        let words = |e: rusqlite::Error| match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DiskFull) if cap > 0 => format!(
                "the database has reached the size it may grow to ({} MB, --db-max-size)",
                cap.div_ceil(1 << 20)
            ),
            _ => describe(&e),
        };
        // IMMEDIATE: the write lock is taken (waiting for the registrar if it holds it)
        // before anything is read, so the transaction can never find, halfway, that
        // another connection wrote since it began.
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(words)?;
        let held = self.held.iter().map(|h| &h.entries);
        for entries in held.chain(batch.iter().map(|(entries, _, _)| entries)) {
            for entry in entries {
                entry.write(&tx).map_err(words)?;
            }
        }
        tx.commit().map_err(words)
    }

    /// Applies the host's cap on the database's size, if it changed.
    fn apply_cap(&mut self) {
        let wanted = self.max_bytes.load(Ordering::Relaxed);
        if wanted == self.applied_max {
            return;
        }
        let page: i64 = self
            .conn
            .query_row("PRAGMA page_size", [], |r| r.get(0))
            .unwrap_or(4096);
        let page = u64::try_from(page).unwrap_or(4096);
        // SQLite's own ceiling stands for "no cap".
        let pages = if wanted == 0 {
            0xFFFF_FFFE
        } else {
            (wanted / page.max(1)).max(1)
        };
        match self.conn.pragma_update(
            None,
            "max_page_count",
            i64::try_from(pages).unwrap_or(i64::MAX),
        ) {
            Ok(()) => self.applied_max = wanted,
            Err(e) => tracing::warn!(error = %e, "cannot apply the database's size cap"),
        }
    }

    fn failed(&mut self, why: String) {
        if self.failing.as_deref() != Some(why.as_str()) {
            tracing::error!(reason = %why, "games are not being saved; retrying");
            self.status.send_replace(Storage::NotSaving {
                reason: why.clone(),
            });
        }
        self.failing = Some(why);
        self.retry_at = Instant::now() + self.backoff;
        self.backoff = (self.backoff * 2).min(RETRY_MAX);
    }

    fn recovered(&mut self) {
        if self.failing.take().is_some() {
            tracing::info!("games are being saved again; everything held was written");
            self.status.send_replace(Storage::Saving);
        }
        self.backoff = RETRY_FIRST;
    }

    /// Looks whether the database file is still the one opened; if it was deleted or
    /// replaced, writes everything to a new file at the path. `false` while the file is
    /// lost and could not be written again.
    fn watch_file(&mut self, now_anyway: bool) -> bool {
        let Some(path) = self.target.path().map(std::path::Path::to_path_buf) else {
            return true;
        };
        let due = now_anyway || self.file_lost || self.watched.elapsed() >= WATCH_BUSY;
        if !due {
            return true;
        }
        if self.file_lost && Instant::now() < self.retry_at && !now_anyway {
            return false;
        }
        self.watched = Instant::now();
        let current = FileId::of(&path);
        if current.is_some() && current == self.identity {
            return true;
        }
        tracing::warn!(path = %path.display(), "the database file was deleted or replaced while the server ran; writing it again");
        match file::recreate(&self.conn, &path, self.sync) {
            Ok(conn) => {
                self.conn = conn;
                self.identity = FileId::of(&path);
                self.file_lost = false;
                self.reopened.send_modify(|n| *n += 1);
                tracing::info!(path = %path.display(), "the database was written again with everything it held");
                true
            }
            Err(e) => {
                let why = format!(
                    "the database file {} was removed and cannot be written again: {e}",
                    path.display()
                );
                self.file_lost = true;
                self.failed(why);
                false
            }
        }
    }
}
