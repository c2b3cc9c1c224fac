//! The database file itself: opening it (private to its owner), checking it can be
//! written, noticing when it is deleted or replaced under a running server, and writing
//! everything the server holds back to its path when that happens.

use rusqlite::{Connection, OpenFlags};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use super::{StoreError, schema};
use crate::durability::{StoreLocation, SyncMode};
use crate::wall_clock::unix_ms;

/// Which file a path named when it was opened: a deleted or replaced file has another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileId {
    dev: u64,
    ino: u64,
}

impl FileId {
    /// The file at `path` now; `None` if there is none.
    pub fn of(path: &Path) -> Option<FileId> {
        let meta = std::fs::metadata(path).ok()?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Some(FileId {
                dev: meta.dev(),
                ino: meta.ino(),
            })
        }
        #[cfg(not(unix))]
        {
            // Elsewhere a file in use cannot be deleted; only its presence is checked.
            let _ = meta;
            Some(FileId { dev: 0, ino: 0 })
        }
    }
}

/// Distinguishes the in-memory databases of several stores in one process (tests).
static MEMORY_DATABASES: AtomicU64 = AtomicU64::new(0);

/// Where connections to one store's database are opened from.
#[derive(Debug, Clone)]
pub enum Target {
    /// A file.
    File(PathBuf),
    /// A named in-memory database that the writer's and the reader's connections share
    /// (SQLite's `memdb` VFS); gone when the last connection closes.
    Memory(String),
}

impl Target {
    pub fn new(location: &StoreLocation) -> Target {
        match location {
            StoreLocation::File(path) => Target::File(path.clone()),
            StoreLocation::Memory => {
                let n = MEMORY_DATABASES.fetch_add(1, Ordering::Relaxed);
                Target::Memory(format!("file:/banco-{}-{n}?vfs=memdb", std::process::id()))
            }
        }
    }

    /// The file, for a file database.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Target::File(path) => Some(path),
            Target::Memory(_) => None,
        }
    }

    /// Opens the writer's connection: creates the file (owner-only) and its folder if
    /// needed, brings its tables up to date and proves it can be written. Blocking.
    pub fn open_writer(&self, sync: SyncMode) -> Result<Connection, StoreError> {
        let mut conn = match self {
            Target::Memory(uri) => Connection::open_with_flags(uri, memory_flags())?,
            Target::File(path) => {
                prepare_file(path)?;
                let cannot_write = |e: rusqlite::Error| StoreError::CannotWrite {
                    path: path.display().to_string(),
                    why: super::describe(&e),
                };
                let conn = Connection::open(path).map_err(cannot_write)?;
                conn.pragma_update(None, "journal_mode", "WAL")
                    .map_err(cannot_write)?;
                conn.pragma_update(None, "synchronous", synchronous(sync))?;
                // Checkpoints (which fsync) run on a thread of their own, never inside a
                // commit that players are waiting on (see `checkpointer`).
                conn.pragma_update(None, "wal_autocheckpoint", 0)?;
                private(path);
                conn
            }
        };
        // The registrar's account writes may hold the lock for a moment: wait for them in
        // steps of a few microseconds, not SQLite's default of whole milliseconds, so a
        // commit players wait on is never late by more than the overlap itself.
        conn.busy_handler(Some(wait_a_moment))?;
        let now = unix_ms() as i64;
        let proved = schema::create(&mut conn).and_then(|()| {
            conn.execute(
                "CREATE TABLE IF NOT EXISTS starts (at INTEGER NOT NULL)",
                [],
            )?;
            conn.execute("INSERT INTO starts (at) VALUES (?1)", [now])?;
            Ok(())
        });
        if let (Err(e), Target::File(path)) = (&proved, self) {
            return Err(StoreError::CannotWrite {
                path: path.display().to_string(),
                why: super::describe(e),
            });
        }
        proved?;
        Ok(conn)
    }

    /// Opens the registrar's connection, for accounts (the writer's must exist already:
    /// it made the file and its tables). It writes as the writer does (the same sync, no
    /// checkpoints of its own) and waits for the writer's short transactions. Blocking.
    pub fn open_registrar(&self, sync: SyncMode) -> Result<Connection, StoreError> {
        let conn = match self {
            Target::Memory(uri) => Connection::open_with_flags(uri, memory_flags())?,
            Target::File(path) => {
                let conn = Connection::open_with_flags(
                    path,
                    OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
                )?;
                conn.pragma_update(None, "synchronous", synchronous(sync))?;
                conn.pragma_update(None, "wal_autocheckpoint", 0)?;
                conn
            }
        };
        conn.busy_timeout(Duration::from_secs(5))?;
        Ok(conn)
    }

    /// Opens a connection for reading (the writer's must exist already). Blocking.
    pub fn open_reader(&self) -> Result<Connection, StoreError> {
        let conn = match self {
            Target::Memory(uri) => Connection::open_with_flags(uri, memory_flags())?,
            Target::File(path) => Connection::open_with_flags(
                path,
                OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )?,
        };
        conn.busy_timeout(Duration::from_secs(5))?;
        Ok(conn)
    }
}

/// How many times [`wait_a_moment`] waits before the writer gives up on a lock (about
/// five seconds, as the other connections' `busy_timeout`).
const BUSY_TRIES: i32 = 50_000;

/// The writer's busy handler: another connection (the registrar, a host's account
/// command) holds the write lock; wait 100 us and try again, up to [`BUSY_TRIES`].
fn wait_a_moment(tries: i32) -> bool {
    std::thread::sleep(Duration::from_micros(100));
    tries < BUSY_TRIES
}

/// The `synchronous` pragma's value for `sync`.
fn synchronous(sync: SyncMode) -> &'static str {
    match sync {
        SyncMode::Normal => "NORMAL",
        SyncMode::Full => "FULL",
    }
}

fn memory_flags() -> OpenFlags {
    OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_URI
        | OpenFlags::SQLITE_OPEN_NO_MUTEX
}

/// Makes the folder, and the file readable by its owner only (its -wal and -shm files
/// take the same permissions from it).
fn prepare_file(path: &Path) -> Result<(), StoreError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| StoreError::Directory {
            path: dir.display().to_string(),
            why: super::io_words(&e),
        })?;
    }
    if !path.exists() {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        if let Err(e) = options.open(path)
            && e.kind() != std::io::ErrorKind::AlreadyExists
        {
            return Err(StoreError::CannotWrite {
                path: path.display().to_string(),
                why: super::io_words(&e),
            });
        }
    }
    Ok(())
}

/// Takes away what others may do with the database and its companions (a file made by
/// an older version was readable by everyone, resume tokens and all).
fn private(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mut wal = path.as_os_str().to_owned();
        wal.push("-wal");
        let mut shm = path.as_os_str().to_owned();
        shm.push("-shm");
        for file in [path.to_path_buf(), PathBuf::from(wal), PathBuf::from(shm)] {
            let Ok(meta) = std::fs::metadata(&file) else {
                continue;
            };
            if meta.permissions().mode() & 0o077 != 0 {
                match std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)) {
                    Ok(()) => {
                        tracing::info!(file = %file.display(), "made readable by its owner only")
                    }
                    Err(e) => {
                        tracing::warn!(file = %file.display(), error = %e, "cannot make the database private")
                    }
                }
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

/// The database at `path` was deleted or replaced while `old` (still open on the old
/// file) kept everything: moves a replacing file aside, writes everything `old` holds to
/// a new file at `path`, and returns a connection to it, ready for the writer.
pub fn recreate(old: &Connection, path: &Path, sync: SyncMode) -> Result<Connection, StoreError> {
    if path.exists() {
        let aside = path.with_extension(format!("replaced-{}", unix_ms()));
        std::fs::rename(path, &aside).map_err(|e| StoreError::CannotWrite {
            path: path.display().to_string(),
            why: format!(
                "another file took its place and cannot be moved aside: {}",
                super::io_words(&e)
            ),
        })?;
        tracing::warn!(moved = %aside.display(), "another file had replaced the database; it was moved aside");
    }
    prepare_file(path)?;
    {
        let mut new = Connection::open(path)?;
        let backup = rusqlite::backup::Backup::new(old, &mut new)?;
        backup.run_to_completion(1024, Duration::ZERO, None)?;
    }
    Target::File(path.to_path_buf()).open_writer(sync)
}
