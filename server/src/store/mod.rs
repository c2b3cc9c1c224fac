//! The store: every game played, its players and their ratings, written ahead: a room
//! tells nobody of a move, an undo, a chat line, a game's start or end until the store
//! has committed it ([`GameStore::commit`]). The bottom of the server: it imports nothing
//! from the rooms, the lobby, the sessions or the configuration (a test holds it so).
//!
//! The rest of the server sees one trait, [`GameStore`], through a [`StoreHandle`];
//! [`Store`] opens the implementation shipped, on SQLite, and closes it.
//!
//! SQLite calls block, so the SQLite store runs on threads of its own: the **writer**,
//! which gathers every room's entries into one transaction (group commit) and answers
//! each room when it is on disk; the **reader**, with its own connection, for the
//! leaderboard, history and replays players ask for; and the **registrar**, with its own
//! connection, for accounts, so a crowd registering never delays a move. A room waits for
//! its own commit only; when the disk is slow the waits grow and rooms slow down
//! (backpressure) instead of anything being dropped. When the disk refuses writes, games
//! go on, their entries are held in memory and retried, and everyone is told (see
//! `writer`).
//!
//! - [`game_store`]: the seam: [`GameStore`] and [`StoreHandle`].
//! - [`journal`]: what rooms write: a game's start, its events, its end; [`GameRecord`].
//! - [`live`]: games in progress read back at start, to reopen their rooms.
//! - [`matches`]: matches, from their first game to their result; those in progress read
//!   back at start too.
//! - [`tournaments`]: tournaments, entrants, every board and result, written ahead and
//!   read back at start.
//! - `schema`: the tables, created on first open and brought up to date.
//! - `writer`, `reader`, `registrar`: the three threads; `file`: the file itself
//!   (permissions, noticing it deleted or replaced, writing it again).
//! - [`accounts`]: accounts and their look-alike index; `review`: stored engine reviews;
//!   `profile`: a player's record.
//! - [`archive`]: the read queries (leaderboard, history, one game), and a read-only
//!   [`Archive`] for tools and tests.
//! - `replay`: a stored game back into the wire's form, its moves replayed by the rules.
//! - [`rating`]: Glicko-2 arithmetic and the farming rule; `rated`: ratings in the tables.

pub mod accounts;
pub mod archive;
mod file;
pub mod game_store;
pub mod journal;
pub mod live;
pub mod matches;
mod profile;
mod rated;
pub mod rating;
mod reader;
mod registrar;
mod replay;
mod review;
mod schema;
pub mod tournaments;
mod writer;

use rusqlite::Connection;
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;
use std::time::Duration;
use tokio::sync::{Semaphore, oneshot, watch};

use crate::token::TokenHash;
use banco_protocol::{GameId, GameKind, GameReview, GameSummary, Level, Profile, Storage};

pub use crate::durability::{StoreLocation, SyncMode};
pub use archive::{Archive, Standing, StoredGame};
pub use game_store::{Answer, GameStore, StoreHandle};
pub use journal::{Entry, Event, GameRecord, PlayerRef};
pub use live::{LiveGame, LiveSeat};
pub use matches::{LiveMatch, MatchEnding, MatchLink};

/// How many reads may wait at once, so players asking for records can never pile up
/// work without end.
const READS: usize = 16;

/// Lines on the leaderboard players are sent.
pub const LEADERBOARD: u32 = 50;

/// Games in the history players are sent.
pub const HISTORY: usize = 100;

/// Brings a database opened outside the store (the host's account commands) up to the
/// layout this code writes.
pub fn upgrade(conn: &mut Connection) -> Result<(), StoreError> {
    Ok(schema::create(conn)?)
}

/// The store could not be opened or read.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(
        "cannot create the folder {path} for the database: {why}. Choose another file with \
         --db PATH (--db :memory: keeps nothing)"
    )]
    Directory { path: String, why: String },
    #[error(
        "cannot write the database {path}: {why}. Give the user running banco write access \
         to the file and its folder, or choose another file with --db PATH (--db :memory: \
         keeps nothing)"
    )]
    CannotWrite { path: String, why: String },
    /// The database refused a query or a write, in a host's words (see [`describe`]).
    #[error("database error: {0}")]
    Database(String),
    #[error("the store's threads could not be started: {0}")]
    Thread(std::io::Error),
    #[error("game {id} in the store cannot be read: {why}")]
    Corrupt { id: i64, why: String },
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Database(describe(&e))
    }
}

/// A read the store did not answer.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("the server is busy with other requests for its records: try again in a moment")]
    Busy,
    #[error("the server's records are closed")]
    Closed,
    #[error(transparent)]
    Failed(#[from] StoreError),
}

/// What became of a room's entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Saved {
    /// On disk.
    Committed,
    /// The disk refused them: they are held in memory and written when it takes writes
    /// again (everyone has been told games are not being saved).
    Held,
}

/// A SQLite failure in the words a host or player understands.
pub fn describe(e: &rusqlite::Error) -> String {
    use rusqlite::ErrorCode as C;
    match e.sqlite_error_code() {
        Some(C::DiskFull) => "the disk is full".into(),
        Some(C::ReadOnly) => "the database file is read-only".into(),
        Some(C::SystemIoFailure) => "the disk reported an input/output error".into(),
        Some(C::CannotOpen) => "the database file cannot be opened".into(),
        Some(C::PermissionDenied) => "permission to the database file was denied".into(),
        Some(C::DatabaseBusy | C::DatabaseLocked) => {
            "another program holds the database locked".into()
        }
        Some(C::NotADatabase | C::DatabaseCorrupt) => "the database file is damaged".into(),
        _ => e.to_string(),
    }
}

/// An I/O failure in a few words, without the system's error number.
pub(crate) fn io_words(e: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    match e.kind() {
        K::NotFound => "a folder on the way does not exist".into(),
        K::PermissionDenied => "permission denied".into(),
        K::ReadOnlyFilesystem => "the disk is read-only".into(),
        K::StorageFull => "the disk is full".into(),
        K::AlreadyExists => "something else already has that name".into(),
        _ => {
            let text = e.to_string();
            match text.find(" (os error") {
                Some(cut) => text[..cut].to_string(),
                None => text,
            }
        }
    }
}

/// How the store is set up: where, how hard it syncs, how much may wait for the disk.
#[derive(Debug, Clone)]
pub struct StoreOptions {
    /// A file or memory.
    pub location: StoreLocation,
    /// What a commit survives.
    pub sync: SyncMode,
    /// The most bytes of entries that may wait for the disk (or be held while it
    /// refuses writes); rooms wait beyond it.
    pub queue_bytes: usize,
    /// A cap on the database's size in bytes, 0 for none; read before every commit.
    pub max_bytes: Arc<std::sync::atomic::AtomicU64>,
}

impl StoreOptions {
    /// Defaults for `location`.
    pub fn at(location: StoreLocation) -> StoreOptions {
        StoreOptions {
            location,
            sync: SyncMode::Normal,
            queue_bytes: 16 * 1024 * 1024,
            max_bytes: Default::default(),
        }
    }
}

/// The SQLite store as the rest of the server reaches it: the ways into its threads.
struct Sqlite {
    /// Into the writer's thread: the game log (and reviews), never accounts.
    writer: mpsc::Sender<writer::Job>,
    /// The byte budget of everything waiting for (or held from) the disk.
    room: Arc<Semaphore>,
    /// Its size, the most one commit may take.
    budget: usize,
    /// Into the reader's thread; bounded, a full queue refuses reads as busy.
    reader: mpsc::SyncSender<reader::Job>,
    /// Into the registrar's thread, for accounts; bounded, senders wait their turn.
    registrar: tokio::sync::mpsc::Sender<registrar::Job>,
    /// Whether games are being saved.
    status: watch::Receiver<Storage>,
}

/// Milliseconds since the Unix epoch, as the tables keep them.
fn now_ms() -> i64 {
    i64::try_from(crate::wall_clock::unix_ms()).unwrap_or(i64::MAX)
}

impl GameStore for Sqlite {
    fn commit(&self, entries: Vec<Entry>) -> Answer<'_, Saved> {
        Box::pin(self.write(entries))
    }

    fn status(&self) -> watch::Receiver<Storage> {
        self.status.clone()
    }

    fn history(&self, player: Option<String>) -> Answer<'_, Result<Vec<GameSummary>, ReadError>> {
        Box::pin(self.read(move |conn| archive::history(conn, player.as_deref(), HISTORY)))
    }

    fn replay(
        &self,
        id: GameId,
    ) -> Answer<'_, Result<Option<banco_protocol::GameRecord>, ReadError>> {
        Box::pin(self.read(move |conn| archive::game_record(conn, id)))
    }

    fn leaderboard(
        &self,
        kind: GameKind,
    ) -> Answer<'_, Result<Vec<banco_protocol::Standing>, ReadError>> {
        Box::pin(async move {
            let standings = self
                .read(move |conn| archive::leaderboard(conn, kind, LEADERBOARD))
                .await?;
            Ok(standings.iter().map(archive::Standing::to_wire).collect())
        })
    }

    fn profile(
        &self,
        name: String,
        bot: Option<Level>,
    ) -> Answer<'_, Result<Option<Profile>, ReadError>> {
        Box::pin(self.read(move |conn| profile::profile(conn, &name, bot)))
    }

    fn review(&self, id: GameId) -> Answer<'_, Result<Option<GameReview>, ReadError>> {
        Box::pin(self.read(move |conn| review::find(conn, id)))
    }

    fn save_review(&self, made: GameReview) -> Answer<'_, Result<(), ReadError>> {
        let now = now_ms();
        Box::pin(self.change(move |conn| review::save(conn, &made, now)))
    }

    fn account(&self, name: String) -> Answer<'_, Result<Option<accounts::Account>, ReadError>> {
        Box::pin(self.register_desk(move |conn| accounts::find(conn, &name)))
    }

    fn register(
        &self,
        name: String,
        hash: String,
        bot: bool,
    ) -> Answer<'_, Result<accounts::Registered, ReadError>> {
        let now = now_ms();
        Box::pin(self.register_desk(move |conn| accounts::insert(conn, &name, &hash, now, bot)))
    }

    fn set_password(
        &self,
        name: String,
        hash: String,
        keep: Option<TokenHash>,
    ) -> Answer<'_, Result<bool, ReadError>> {
        Box::pin(self.register_desk(move |conn| {
            accounts::set_hash(conn, &name, &hash, keep.map(|k| k.hex()).as_deref())
        }))
    }

    fn remember(&self, name: String, token: TokenHash) -> Answer<'_, Result<bool, ReadError>> {
        let now = now_ms();
        Box::pin(self.register_desk(move |conn| accounts::remember(conn, &name, &token.hex(), now)))
    }

    fn recall(&self, token: TokenHash) -> Answer<'_, Result<Option<String>, ReadError>> {
        let now = now_ms();
        Box::pin(self.register_desk(move |conn| accounts::recall(conn, &token.hex(), now)))
    }

    fn forget(&self, token: TokenHash) -> Answer<'_, Result<(), ReadError>> {
        Box::pin(self.register_desk(move |conn| accounts::forget(conn, &token.hex())))
    }
}

impl Sqlite {
    /// Commits `entries` through the writer (see [`GameStore::commit`]).
    async fn write(&self, entries: Vec<Entry>) -> Saved {
        let size: usize = entries.iter().map(Entry::size).sum();
        let share = u32::try_from(size.clamp(1, self.budget)).unwrap_or(u32::MAX);
        let Ok(permit) = self.room.clone().acquire_many_owned(share).await else {
            tracing::error!("the store is closed; game records are lost");
            return Saved::Held;
        };
        let (reply, answer) = oneshot::channel();
        let job = writer::Job::Write {
            entries,
            permit,
            reply,
        };
        if self.writer.send(job).is_err() {
            tracing::error!("the store is closed; game records are lost");
            return Saved::Held;
        }
        answer.await.unwrap_or_else(|_| {
            tracing::error!("the store stopped before answering; game records may be lost");
            Saved::Held
        })
    }

    /// Runs `change` on the writer's connection, outside the game log's batches, and
    /// waits for its answer.
    async fn change<T: Send + 'static>(
        &self,
        change: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, ReadError> {
        let (reply, answer) = oneshot::channel();
        let job = writer::Job::Change(Box::new(move |conn| {
            let _ = reply.send(change(conn));
        }));
        self.writer.send(job).map_err(|_| ReadError::Closed)?;
        Ok(answer
            .await
            .map_err(|_| ReadError::Closed)?
            .map_err(StoreError::from)?)
    }

    /// Runs `work` on the registrar's connection and waits for its answer (waiting for
    /// room in its queue first, without blocking the runtime).
    async fn register_desk<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, ReadError> {
        let (reply, answer) = oneshot::channel();
        let job = registrar::Job::Work(Box::new(move |conn| {
            let _ = reply.send(work(conn));
        }));
        self.registrar
            .send(job)
            .await
            .map_err(|_| ReadError::Closed)?;
        Ok(answer
            .await
            .map_err(|_| ReadError::Closed)?
            .map_err(StoreError::from)?)
    }

    /// Runs `query` on the reader's thread and waits for its answer (without blocking
    /// the runtime).
    async fn read<T: Send + 'static>(
        &self,
        query: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, ReadError> {
        let (reply, answer) = oneshot::channel();
        let read: reader::Read = Box::new(move |conn| {
            let _ = reply.send(query(conn));
        });
        self.reader
            .try_send(reader::Job::Read(read))
            .map_err(|e| match e {
                mpsc::TrySendError::Full(_) => ReadError::Busy,
                mpsc::TrySendError::Disconnected(_) => ReadError::Closed,
            })?;
        Ok(answer.await.map_err(|_| ReadError::Closed)??)
    }
}

/// How often the write-ahead log is copied into the database file.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(1);

/// Starts the thread that checkpoints the write-ahead log: the writer's connection never
/// does (`wal_autocheckpoint=0`), because a checkpoint syncs the file to disk and a
/// commit players wait on must not wait for that too. A passive checkpoint from a
/// connection of its own copies what it can without ever holding up the writer. It opens
/// the file afresh each time (never creating it: a file deleted under the server is the
/// writer's to write again). Stops when the returned sender is dropped.
fn checkpointer(
    path: std::path::PathBuf,
) -> Result<(mpsc::Sender<()>, JoinHandle<()>), StoreError> {
    let (stop, stopped) = mpsc::channel::<()>();
    let thread = std::thread::Builder::new()
        .name("banco-checkpoint".into())
        .spawn(move || {
            while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(CHECKPOINT_EVERY)
            {
                let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE
                    | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
                let done = rusqlite::Connection::open_with_flags(&path, flags).and_then(|conn| {
                    conn.busy_timeout(Duration::from_millis(100))?;
                    conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
                });
                if let Err(e) = done {
                    tracing::debug!(error = %e, "a checkpoint of the write-ahead log did not run");
                }
            }
        })
        .map_err(StoreError::Thread)?;
    Ok((stop, thread))
}

/// The store the server runs on, open: the handle everyone uses, the games that were in
/// progress when it was last closed, and its threads, stopped by [`Store::close`].
pub struct Store {
    /// The SQLite store's ways in, kept to tell its threads to stop.
    sqlite: Arc<Sqlite>,
    /// Joined on close, so everything queued reaches the disk before the server exits.
    writer: Option<JoinHandle<()>>,
    /// Joined on close (or ends when the last handle is gone).
    reader: Option<JoinHandle<()>>,
    /// Joined on close (or ends when the last handle is gone).
    registrar: Option<JoinHandle<()>>,
    /// Stops the checkpointer (file databases only) when dropped.
    checkpoints: Option<(mpsc::Sender<()>, JoinHandle<()>)>,
    /// The games that were in progress when the store was last closed.
    live: Vec<LiveGame>,
    /// The matches that were being played when the store was last closed.
    live_matches: Vec<LiveMatch>,
    /// Every tournament, as last written.
    tournaments: Vec<tournaments::StoredTournament>,
}

impl Store {
    /// Opens (creating if needed) the database at `location` with the default options.
    /// Blocking: call it off the async runtime.
    pub fn open(location: &StoreLocation) -> Result<Store, StoreError> {
        Store::open_with(&StoreOptions::at(location.clone()))
    }

    /// Opens (creating if needed) the database and starts its threads. A file that cannot
    /// be written is refused ([`StoreError::CannotWrite`] says why and what to do).
    /// Games only bots were playing when it was last closed are kept as unfinished.
    /// Blocking: call it off the async runtime.
    pub fn open_with(options: &StoreOptions) -> Result<Store, StoreError> {
        let target = file::Target::new(&options.location);
        let mut conn = target.open_writer(options.sync)?;
        let mut live = live::load(&conn)?;
        live::close_bot_games(&mut conn, &mut live)?;
        let mut live_matches = matches::load(&conn)?;
        matches::close_bot_matches(&mut conn, &mut live_matches)?;
        let tournaments = tournaments::load(&conn)?;
        let reader_conn = target.open_reader()?;
        let registrar_conn = target.open_registrar(options.sync)?;
        let (status_tx, status) = watch::channel(Storage::Saving);
        let (reopened_tx, reopened) = watch::channel(0u64);
        let (writer_tx, writer_rx) = mpsc::channel();
        let (reader_tx, reader_rx) = mpsc::sync_channel(READS);
        let (registrar_tx, registrar_rx) = tokio::sync::mpsc::channel(registrar::QUEUE);
        let writer = {
            let writer = writer::Writer::new(
                conn,
                target.clone(),
                options.sync,
                options.max_bytes.clone(),
                status_tx,
                reopened_tx,
            );
            std::thread::Builder::new()
                .name("banco-store".into())
                .spawn(move || writer.run(writer_rx))
                .map_err(StoreError::Thread)?
        };
        let reader = {
            let (target, reopened) = (target.clone(), reopened.clone());
            std::thread::Builder::new()
                .name("banco-records".into())
                .spawn(move || reader::run(reader_conn, target, reader_rx, reopened))
                .map_err(StoreError::Thread)?
        };
        let registrar = {
            let sync = options.sync;
            std::thread::Builder::new()
                .name("banco-accounts".into())
                .spawn(move || registrar::run(registrar_conn, target, sync, registrar_rx, reopened))
                .map_err(StoreError::Thread)?
        };
        let checkpoints = match &options.location {
            StoreLocation::File(path) => Some(checkpointer(path.clone())?),
            StoreLocation::Memory => None,
        };
        let budget = options.queue_bytes.clamp(64 * 1024, u32::MAX as usize);
        Ok(Store {
            sqlite: Arc::new(Sqlite {
                writer: writer_tx,
                room: Arc::new(Semaphore::new(budget)),
                budget,
                reader: reader_tx,
                registrar: registrar_tx,
                status,
            }),
            writer: Some(writer),
            reader: Some(reader),
            registrar: Some(registrar),
            checkpoints,
            live,
            live_matches,
            tournaments,
        })
    }

    /// A handle for the rooms, the lobby and the sessions.
    pub fn handle(&self) -> StoreHandle {
        StoreHandle::new(self.sqlite.clone())
    }

    /// The games that were in progress when the store was last closed, to reopen.
    pub fn take_live_games(&mut self) -> Vec<LiveGame> {
        std::mem::take(&mut self.live)
    }

    /// The matches that were being played when the store was last closed, to carry on
    /// with: each with its game in progress (among [`Store::take_live_games`]'s), or
    /// between two games.
    pub fn take_live_matches(&mut self) -> Vec<LiveMatch> {
        std::mem::take(&mut self.live_matches)
    }

    /// Every tournament as last written, to carry on with.
    pub fn take_tournaments(&mut self) -> Vec<tournaments::StoredTournament> {
        std::mem::take(&mut self.tournaments)
    }

    /// Writes what is queued and stops the threads. Blocking.
    pub fn close(mut self) {
        // Every thread is joined, the writer's connection closed last: closing the last
        // connection folds the write-ahead log into the file and removes it, so a
        // stopped server leaves one whole file (the reader's is read-only and could not).
        if let Some((stop, thread)) = self.checkpoints.take() {
            drop(stop);
            let _ = thread.join();
        }
        let _ = self.sqlite.reader.send(reader::Job::Close);
        if let Some(thread) = self.reader.take() {
            let _ = thread.join();
        }
        // The registrar's queue is async; its jobs are short, so room for the word to
        // stop comes within moments.
        let mut close = registrar::Job::Close;
        while let Err(tokio::sync::mpsc::error::TrySendError::Full(job)) =
            self.sqlite.registrar.try_send(close)
        {
            close = job;
            std::thread::sleep(Duration::from_millis(1));
        }
        if let Some(thread) = self.registrar.take() {
            let _ = thread.join();
        }
        let _ = self.sqlite.writer.send(writer::Job::Close);
        if let Some(thread) = self.writer.take()
            && thread.join().is_err()
        {
            tracing::error!("the store's writer panicked");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_protocol::{GameKind, GameSettings, Move, Point, RoomSettings, Seat};
    use banco_rules::Level;
    use std::sync::atomic::{AtomicU64, Ordering};

    /// Writes finished games through the writer, as rooms do, and waits for the disk.
    fn end(store: &Store, records: impl IntoIterator<Item = GameRecord>) {
        let entries = records
            .into_iter()
            .map(|r| Entry::End(Box::new(r)))
            .collect();
        let saved = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(store.handle().commit(entries));
        assert_eq!(saved, Saved::Committed);
    }

    fn record(winner: Option<Seat>, rated: bool) -> GameRecord {
        static KEYS: AtomicU64 = AtomicU64::new(1);
        GameRecord {
            key: KEYS.fetch_add(1, Ordering::Relaxed),
            room: 1,
            number: 1,
            settings: RoomSettings::default(),
            players: [
                PlayerRef {
                    name: "An".into(),
                    bot: None,
                },
                PlayerRef {
                    name: "Bot (hard)".into(),
                    bot: Some(Level::Hard),
                },
            ],
            first: Seat::One,
            opening: Vec::new(),
            moves: vec![Move::Caro(Point::new(7, 7)), Move::Caro(Point::new(8, 8))],
            winner,
            line: Vec::new(),
            reason: "five".into(),
            rated,
            started_ms: 1,
            ended_ms: 2,
            in_match: None,
            swap: None,
        }
    }

    #[test]
    fn the_log_reaches_the_database_file_without_the_writer_checkpointing() {
        let dir = std::env::temp_dir().join(format!("banco-store-ckpt-{}", std::process::id()));
        let path = dir.join("banco.db");
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open(&StoreLocation::File(path.clone())).unwrap();
        let size = || std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        let before = size();
        // Enough games that their pages outgrow the file as it was.
        for _ in 0..20 {
            end(&store, (0..20).map(|_| record(Some(Seat::One), true)));
        }
        let wal = std::fs::metadata(dir.join("banco.db-wal")).map_or(0, |m| m.len());
        assert!(wal > 0, "the commits went to the write-ahead log");
        // The checkpointer copies the log into the file on its own, within seconds.
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        while size() <= before {
            assert!(
                std::time::Instant::now() < deadline,
                "the database file never grew: no checkpoint ran"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        store.close();
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn games_and_ratings_reach_the_disk() {
        let dir = std::env::temp_dir().join(format!("banco-store-test-{}", std::process::id()));
        let path = dir.join("nested").join("banco.db");
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open(&StoreLocation::File(path.clone())).unwrap();
        end(
            &store,
            [
                record(Some(Seat::One), true),
                record(None, true),
                record(None, false),
            ],
        );
        store.close();

        let archive = Archive::open(&path).unwrap();
        let board = archive.leaderboard(GameKind::Caro, 10).unwrap();
        assert_eq!(board.len(), 2);
        let an = &board[0];
        assert_eq!((an.name.as_str(), an.bot.as_deref()), ("An", None));
        assert_eq!((an.games, an.wins, an.losses, an.draws), (2, 1, 0, 1));
        let start = rating::Glicko::default();
        assert!(an.rating.rating > start.rating);
        assert!(an.rating.provisional(), "two games: still provisional");
        let bot = &board[1];
        assert_eq!(bot.bot.as_deref(), Some("hard"));
        assert_eq!((bot.games, bot.wins, bot.losses, bot.draws), (2, 0, 1, 1));
        assert!((an.rating.rating + bot.rating.rating - 2.0 * start.rating).abs() < 1e-6);
        // Caro games rate caro only.
        assert!(
            archive
                .leaderboard(GameKind::Xiangqi, 10)
                .unwrap()
                .is_empty()
        );
        let games = archive.recent_games(10).unwrap();
        assert_eq!(games.len(), 3);
        assert!(!games[0].rated);
        assert_eq!(games[2].winner, Some(1));
        assert_eq!(games[2].moves, "7,7 8,8");
        assert_eq!(games[2].variant, "15x15 caro");
        assert_eq!(
            games[2].players,
            ["An".to_string(), "Bot (hard)".to_string()]
        );
        assert!(archive.rating("An", GameKind::Caro).unwrap().is_some());
        assert!(archive.rating("An", GameKind::Xiangqi).unwrap().is_none());
        assert!(archive.rating("Nobody", GameKind::Caro).unwrap().is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[tokio::test]
    async fn a_closed_store_answers_without_failing() {
        let store = Store::open(&StoreLocation::Memory).unwrap();
        let h = store.handle();
        store.close();
        let saved = h
            .commit(vec![Entry::End(Box::new(record(Some(Seat::Two), true)))])
            .await;
        assert_eq!(saved, Saved::Held);
    }

    #[test]
    fn the_same_game_is_never_recorded_twice() {
        let store = Store::open(&StoreLocation::Memory).unwrap();
        let game = record(Some(Seat::One), true);
        end(&store, [game.clone(), game.clone()]);
        end(&store, [game]);
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let board = rt
            .block_on(store.handle().leaderboard(GameKind::Caro))
            .unwrap();
        assert_eq!(board[0].games, 1, "rated once");
        let history = rt.block_on(store.handle().history(None)).unwrap();
        assert_eq!(history.len(), 1);
        store.close();
    }

    /// A caro game won by X with five on row 0 (X: 0..5,0; O: 0..4,1).
    fn five_on_row_zero() -> GameRecord {
        let mut moves = Vec::new();
        for x in 0..5 {
            moves.push(Move::Caro(Point::new(x, 0)));
            if x < 4 {
                moves.push(Move::Caro(Point::new(x, 1)));
            }
        }
        GameRecord {
            moves,
            line: (0..5).map(|x| Point::new(x, 0)).collect(),
            ..record(Some(Seat::One), true)
        }
    }

    #[test]
    fn games_stored_before_schema_3_still_replay() {
        let dir = std::env::temp_dir().join(format!("banco-store-old-{}", std::process::id()));
        let path = dir.join("banco.db");
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open(&StoreLocation::File(path.clone())).unwrap();
        end(&store, [five_on_row_zero()]);
        store.close();
        // What an older server wrote: no settings as JSON, no line.
        let conn = Connection::open(&path).unwrap();
        conn.execute("UPDATE games SET settings = '', line = ''", [])
            .unwrap();
        drop(conn);

        let archive = Archive::open(&path).unwrap();
        let games = archive.history(None, 10).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].game, GameSettings::caro_default());
        assert!(games[0].over.line.is_empty(), "the summary has no line");
        let record = archive.replay(games[0].id).unwrap().unwrap();
        let line: Vec<Point> = (0..5).map(|x| Point::new(x, 0)).collect();
        assert_eq!(record.summary.over.line, line, "the rules find it again");
        assert_eq!(record.moves.len(), 9);
        assert_eq!(record.moves[8].by, Seat::One);
        assert!(archive.replay(games[0].id + 1).unwrap().is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn games_from_an_opening_replay_with_it_and_older_rows_read_without_one() {
        let dir = std::env::temp_dir().join(format!("banco-store-opening-{}", std::process::id()));
        let path = dir.join("banco.db");
        let _ = std::fs::remove_dir_all(&dir);
        // A balanced room's game: dealt X 7,7 O 8,8 X 6,8; O (seat Two) moved first and
        // X (seat One) made five on row 0 later.
        let opening = vec![Point::new(7, 7), Point::new(8, 8), Point::new(6, 8)];
        let mut moves = Vec::new();
        for x in 0..5 {
            let o = if x < 4 {
                Point::new(x, 5)
            } else {
                Point::new(12, 12)
            };
            moves.push(Move::Caro(o));
            moves.push(Move::Caro(Point::new(x, 0)));
        }
        let game = GameRecord {
            settings: RoomSettings {
                game: GameSettings::Caro {
                    width: 15,
                    height: 15,
                    rule: banco_protocol::Rule::Caro,
                    opening: banco_protocol::CaroOpening::Balanced,
                },
                ..RoomSettings::default()
            },
            first: Seat::Two,
            opening: opening.clone(),
            moves,
            line: (0..5).map(|x| Point::new(x, 0)).collect(),
            ..record(Some(Seat::One), true)
        };
        // A row from before schema 4 (the migration gives it no opening).
        let store = Store::open(&StoreLocation::File(path.clone())).unwrap();
        end(&store, [five_on_row_zero(), game]);
        store.close();
        let conn = Connection::open(&path).unwrap();
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, schema::VERSION);
        drop(conn);

        let archive = Archive::open(&path).unwrap();
        let games = archive.history(None, 10).unwrap();
        assert_eq!(games.len(), 2);
        let record = archive.replay(games[0].id).unwrap().unwrap();
        assert_eq!(record.opening, opening);
        assert_eq!(record.moves.len(), 10);
        assert_eq!(record.moves[0].by, Seat::Two, "O moved first");
        assert_eq!(record.summary.plies, 10);
        let old = archive.replay(games[1].id).unwrap().unwrap();
        assert!(old.opening.is_empty());
        assert_eq!(old.moves.len(), 9);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_version_3_file_is_brought_up_to_date() {
        let dir = std::env::temp_dir().join(format!("banco-store-v3-{}", std::process::id()));
        let path = dir.join("banco.db");
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open(&StoreLocation::File(path.clone())).unwrap();
        end(&store, [five_on_row_zero()]);
        store.close();
        // Turn the file back into what a version 3 server left: no opening column.
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(
            "ALTER TABLE games DROP COLUMN opening;
             DROP INDEX games_by_key; ALTER TABLE games DROP COLUMN key;
             DROP TABLE live_events; DROP TABLE live_games;
             CREATE TABLE live_games (key INTEGER PRIMARY KEY, snapshot TEXT NOT NULL,
                 saved_at INTEGER NOT NULL);
             PRAGMA user_version = 3;",
        )
        .unwrap();
        drop(conn);
        let store = Store::open(&StoreLocation::File(path.clone())).unwrap();
        store.close();
        let archive = Archive::open(&path).unwrap();
        let id = archive.history(None, 1).unwrap()[0].id;
        let record = archive.replay(id).unwrap().unwrap();
        assert!(record.opening.is_empty());
        assert_eq!(record.moves.len(), 9);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_corrupt_game_is_an_error_not_a_panic() {
        let dir = std::env::temp_dir().join(format!("banco-store-bad-{}", std::process::id()));
        let path = dir.join("banco.db");
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open(&StoreLocation::File(path.clone())).unwrap();
        end(&store, [five_on_row_zero()]);
        store.close();
        let conn = Connection::open(&path).unwrap();
        conn.execute("UPDATE games SET moves = '7,7 7,7'", [])
            .unwrap();
        drop(conn);
        let archive = Archive::open(&path).unwrap();
        let id = archive.history(None, 1).unwrap()[0].id;
        let e = archive.replay(id).unwrap_err();
        assert!(matches!(e, StoreError::Corrupt { .. }), "{e}");
        assert!(e.to_string().contains("move 2"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn accounts_never_wait_in_line_with_the_games_commits() {
        let store = Store::open(&StoreLocation::Memory).unwrap();
        let h = store.handle();
        // The game writer stalls, as on a disk that stopped answering...
        let (release, stalled) = std::sync::mpsc::channel::<()>();
        store
            .sqlite
            .writer
            .send(writer::Job::Stall(stalled))
            .unwrap();
        let commit = tokio::spawn({
            let h = h.clone();
            async move {
                h.commit(vec![Entry::End(Box::new(record(None, true)))])
                    .await
            }
        });
        // ...and accounts are registered, looked up and changed all the same: they never
        // go through its queue.
        let within = Duration::from_secs(30);
        for n in 0..50 {
            let name = format!("Player {n}");
            let done = tokio::time::timeout(within, h.register(name.clone(), "hash".into(), false))
                .await
                .expect("a registration waited for the game writer");
            assert_eq!(done.unwrap(), accounts::Registered::Done);
            let found = tokio::time::timeout(within, h.account(name.clone()))
                .await
                .expect("a login waited for the game writer");
            assert_eq!(found.unwrap().unwrap().name, name);
        }
        let changed = tokio::time::timeout(
            within,
            h.set_password("player 7".into(), "new".into(), None),
        )
        .await
        .expect("a password change waited for the game writer");
        assert!(changed.unwrap());
        assert!(
            !commit.is_finished(),
            "the stalled writer answered a commit"
        );
        drop(release);
        assert_eq!(commit.await.unwrap(), Saved::Committed);
        store.close();
    }

    #[tokio::test]
    async fn a_games_series_score_and_chat_come_back_with_it() {
        let dir = std::env::temp_dir().join(format!("banco-store-chat-{}", std::process::id()));
        let path = dir.join("banco.db");
        let _ = std::fs::remove_dir_all(&dir);
        let line = |n: usize| banco_protocol::ChatLine {
            from: "~An".into(),
            text: format!("line {n}"),
            at_ms: 1_000 + n as u64,
        };
        let series = banco_protocol::Series {
            wins: [2, 1],
            draws: 1,
        };
        let game = LiveGame {
            key: 77,
            room: 3,
            settings: RoomSettings::default(),
            seats: [
                LiveSeat::Human {
                    name: "~An".into(),
                    token: crate::token::TokenHash([1; 32]),
                },
                LiveSeat::Human {
                    name: "~Binh".into(),
                    token: crate::token::TokenHash([2; 32]),
                },
            ],
            number: 5,
            first: Seat::Two,
            opening: Vec::new(),
            moves: Vec::new(),
            clocks: None,
            series,
            chat: (0..banco_protocol::CHAT_HISTORY - 10).map(line).collect(),
            started_ms: 5,
            next_seq: 0,
            in_match: None,
        };
        let store = Store::open(&StoreLocation::File(path.clone())).unwrap();
        let h = store.handle();
        let mut entries = vec![Entry::Begin(Box::new(game))];
        let said = banco_protocol::CHAT_HISTORY - 10..banco_protocol::CHAT_HISTORY + 5;
        for (seq, n) in said.clone().enumerate() {
            let event = if seq == 3 {
                Event::Move {
                    mv: Move::Caro(Point::new(7, 7)),
                    clocks: None,
                }
            } else {
                Event::Chat(line(n))
            };
            entries.push(Entry::Event {
                game: 77,
                seq: seq as u32,
                event,
            });
        }
        assert_eq!(h.commit(entries).await, Saved::Committed);
        store.close();
        let mut store = Store::open(&StoreLocation::File(path.clone())).unwrap();
        let live = store.take_live_games();
        assert_eq!(live.len(), 1);
        assert_eq!(live[0].series, series);
        assert_eq!(live[0].moves, vec![Move::Caro(Point::new(7, 7))]);
        let texts: Vec<String> = live[0].chat.iter().map(|l| l.text.clone()).collect();
        let expected: Vec<String> = (0..banco_protocol::CHAT_HISTORY + 5)
            .filter(|&n| n != banco_protocol::CHAT_HISTORY - 7)
            .map(|n| format!("line {n}"))
            .collect();
        let newest = &expected[expected.len() - banco_protocol::CHAT_HISTORY..];
        assert_eq!(texts, newest, "the newest lines, as many as a room keeps");
        assert_eq!(
            live[0].chat.last(),
            Some(&line(banco_protocol::CHAT_HISTORY + 4))
        );
        assert_eq!(live[0].next_seq, said.len() as u32);
        store.close();
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[tokio::test]
    async fn reads_see_every_record_committed_before_them() {
        let store = Store::open(&StoreLocation::Memory).unwrap();
        let h = store.handle();
        h.commit(vec![
            Entry::End(Box::new(five_on_row_zero())),
            Entry::End(Box::new(GameRecord {
                reason: "shutdown".into(),
                ..record(None, false)
            })),
        ])
        .await;
        let board = h.leaderboard(GameKind::Caro).await.unwrap();
        assert_eq!(board.len(), 2);
        assert_eq!(board[0].name.as_str(), "An");
        // Glicko-2 from 1500/350: a first win is worth about 160 points.
        let an = board[0].rating;
        assert!(
            an.rating > 1600 && an.rating < 1700 && an.provisional,
            "{an:?}"
        );
        assert_eq!(board[1].bot, Some(Level::Hard));
        let history = h.history(None).await.unwrap();
        assert_eq!(history.len(), 1, "the unfinished game is not listed");
        assert_eq!(history[0].over.line.len(), 5);
        assert!(h.replay(history[0].id).await.unwrap().is_some());
        store.close();
        // Closing closes the connections whoever holds a handle: neither reads nor
        // writes are taken after it.
        assert!(matches!(
            h.leaderboard(GameKind::Caro).await,
            Err(ReadError::Closed)
        ));
        let late = h
            .commit(vec![Entry::End(Box::new(record(None, true)))])
            .await;
        assert_eq!(late, Saved::Held);
    }
}
