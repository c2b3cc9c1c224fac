//! The store: players, their ratings and every finished game, in SQLite.
//!
//! SQLite calls block, so the connection lives on its own thread and the rest of the
//! server hands it work through a bounded queue without ever waiting ([`StoreHandle`]).
//! A store that fails or falls behind is logged and skipped: it never holds up or loses a
//! game in play. Reads (a player asking for the leaderboard, the history, a replay) go
//! through the same queue, so they see every game recorded before them, and come back
//! on a oneshot channel that only the asking session waits on.
//!
//! - `schema`: the tables, created on first open.
//! - [`elo`]: the rating arithmetic.
//! - [`live`]: games in progress, saved after every move and reopened after a restart.
//! - [`archive`]: the read queries (leaderboard, history, one game), and a read-only
//!   [`Archive`] for tools and tests.
//! - `replay`: a stored game back into the wire's form, its moves replayed by the rules.

pub mod archive;
pub mod elo;
pub mod live;
mod replay;
mod schema;

use rusqlite::{Connection, params};
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;
use tokio::sync::{Semaphore, oneshot};

use banco_engine::bot::Level;
use banco_protocol::{GameId, GameSettings, GameSummary, Move, Point, RoomId, RoomSettings, Seat};

use crate::config::StoreLocation;
use crate::room::chat::unix_ms;
pub use archive::{Archive, Standing, StoredGame};
pub use live::{LiveGame, LiveSeat};

/// How many records may wait for the disk before new ones are dropped (and logged).
const QUEUE: usize = 1024;

/// How many reads may wait in the queue at once, so players asking for records can
/// never crowd out the games being recorded.
const READS: usize = 16;

/// Lines on the leaderboard players are sent.
pub const LEADERBOARD: u32 = 50;

/// Games in the history players are sent.
pub const HISTORY: usize = 100;

/// The store could not be opened or read.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot create the directory {path}: {source}")]
    Directory {
        path: String,
        source: std::io::Error,
    },
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("the store thread could not be started: {0}")]
    Thread(std::io::Error),
    #[error("game {id} in the store cannot be read: {why}")]
    Corrupt { id: i64, why: String },
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

/// Who played a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerRef {
    /// As the player was known on the server.
    pub name: String,
    /// `Some` for the server's bot: bots have accounts (and ratings) of their own.
    pub bot: Option<Level>,
}

/// A game to keep.
#[derive(Debug, Clone)]
pub struct GameRecord {
    /// The room it was played in (numbers restart with the server).
    pub room: RoomId,
    /// The room's game number.
    pub number: u32,
    /// Game, board, rule and time control.
    pub settings: RoomSettings,
    /// By seat.
    pub players: [PlayerRef; 2],
    /// The seat to move at the start.
    pub first: Seat,
    /// Caro: the stones the game started from, X first. Empty otherwise.
    pub opening: Vec<Point>,
    /// Every move after the opening, in order.
    pub moves: Vec<Move>,
    /// `None` for a draw or an unfinished game.
    pub winner: Option<Seat>,
    /// Caro: the winning line, for replays to highlight. Empty otherwise.
    pub line: Vec<Point>,
    /// How it ended (`five`, `timeout`, ...) or why it did not (`restarted`, `shutdown`).
    pub reason: String,
    /// Whether the result counts for statistics and ratings.
    pub rated: bool,
    /// Unix milliseconds.
    pub started_ms: u64,
    /// Unix milliseconds.
    pub ended_ms: u64,
}

/// A read to run on the store's thread; it answers on its own channel.
type Read = Box<dyn FnOnce(&Connection) + Send>;

enum Command {
    Record(Box<GameRecord>),
    SaveLive(Box<LiveGame>),
    DropLive(u64),
    Read(Read),
    Close,
}

/// Where rooms send their records and sessions their reads. Cheap to clone; writing
/// never blocks, reading waits only for its own answer.
#[derive(Debug, Clone)]
pub struct StoreHandle {
    /// Into the store thread.
    tx: mpsc::SyncSender<Command>,
    /// Places in the queue for reads; a read that finds none is refused as busy.
    reads: Arc<Semaphore>,
}

impl StoreHandle {
    /// Queues a finished (or abandoned) `game` for the disk and ends its live snapshot.
    /// If the store is gone or far behind, the record is dropped with an error in the
    /// log: the game itself goes on regardless.
    pub fn record(&self, game: GameRecord) {
        self.queue(
            Command::Record(Box::new(game)),
            "a finished game was not saved",
        );
    }

    /// Replaces the snapshot of a game in progress.
    pub fn save_live(&self, game: LiveGame) {
        self.queue(
            Command::SaveLive(Box::new(game)),
            "a game in progress was not saved",
        );
    }

    /// The game with this key is no longer in progress.
    pub fn drop_live(&self, key: u64) {
        self.queue(
            Command::DropLive(key),
            "a finished game's snapshot was not removed",
        );
    }

    /// The best rated players, best first.
    pub async fn leaderboard(&self) -> Result<Vec<banco_protocol::Standing>, ReadError> {
        let standings = self
            .read(|conn| archive::leaderboard(conn, LEADERBOARD))
            .await?;
        Ok(standings.iter().map(archive::Standing::to_wire).collect())
    }

    /// The newest finished games, newest first; only `player`'s if given.
    pub async fn history(&self, player: Option<String>) -> Result<Vec<GameSummary>, ReadError> {
        self.read(move |conn| archive::history(conn, player.as_deref(), HISTORY))
            .await
    }

    /// Finished game `id`, move by move; `None` if there is no such finished game.
    pub async fn replay(
        &self,
        id: GameId,
    ) -> Result<Option<banco_protocol::GameRecord>, ReadError> {
        self.read(move |conn| archive::game_record(conn, id)).await
    }

    /// Runs `query` on the store's thread after everything queued before it, and waits
    /// for its answer (without blocking the runtime).
    async fn read<T: Send + 'static>(
        &self,
        query: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, ReadError> {
        let Ok(_place) = self.reads.clone().try_acquire_owned() else {
            return Err(ReadError::Busy);
        };
        let (reply, answer) = oneshot::channel();
        let read: Read = Box::new(move |conn| {
            let _ = reply.send(query(conn));
        });
        self.tx.try_send(Command::Read(read)).map_err(|e| match e {
            mpsc::TrySendError::Full(_) => ReadError::Busy,
            mpsc::TrySendError::Disconnected(_) => ReadError::Closed,
        })?;
        Ok(answer.await.map_err(|_| ReadError::Closed)??)
    }

    fn queue(&self, command: Command, what: &str) {
        if let Err(e) = self.tx.try_send(command) {
            let why = match e {
                mpsc::TrySendError::Full(_) => "the store is too far behind",
                mpsc::TrySendError::Disconnected(_) => "the store is closed",
            };
            tracing::error!(why, "{what}");
        }
    }
}

/// The store's thread and the way to it.
pub struct Store {
    /// Cloned for every room.
    handle: StoreHandle,
    /// Joined on close, so the last records reach the disk before the server exits.
    thread: Option<JoinHandle<()>>,
    /// The games that were in progress when the store was last closed.
    live: Vec<LiveGame>,
}

impl Store {
    /// Opens (creating if needed) the database at `location` and starts its thread.
    /// Blocking: call it off the async runtime.
    pub fn open(location: &StoreLocation) -> Result<Store, StoreError> {
        let conn = connect(location)?;
        let live = live::load(&conn)?;
        let (tx, rx) = mpsc::sync_channel(QUEUE);
        let thread = std::thread::Builder::new()
            .name("banco-store".into())
            .spawn(move || serve(conn, rx))
            .map_err(StoreError::Thread)?;
        Ok(Store {
            handle: StoreHandle {
                tx,
                reads: Arc::new(Semaphore::new(READS)),
            },
            thread: Some(thread),
            live,
        })
    }

    pub fn handle(&self) -> StoreHandle {
        self.handle.clone()
    }

    /// The games that were in progress when the store was last closed, to reopen. Their
    /// snapshots stay on disk until the reopened rooms replace or end them.
    pub fn take_live_games(&mut self) -> Vec<LiveGame> {
        std::mem::take(&mut self.live)
    }

    /// Writes what is queued and stops the thread. Blocking.
    pub fn close(mut self) {
        // A full queue still drains: `send` waits for room, and the thread is reading.
        let _ = self.handle.tx.send(Command::Close);
        if let Some(thread) = self.thread.take()
            && thread.join().is_err()
        {
            tracing::error!("the store thread panicked");
        }
    }
}

fn connect(location: &StoreLocation) -> Result<Connection, StoreError> {
    let conn = match location {
        StoreLocation::Memory => Connection::open_in_memory()?,
        StoreLocation::File(path) => {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|source| StoreError::Directory {
                    path: dir.display().to_string(),
                    source,
                })?;
            }
            let conn = Connection::open(path)?;
            conn.pragma_update(None, "journal_mode", "WAL")?;
            conn.pragma_update(None, "synchronous", "NORMAL")?;
            conn
        }
    };
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    schema::create(&conn)?;
    Ok(conn)
}

fn serve(mut conn: Connection, rx: mpsc::Receiver<Command>) {
    while let Ok(command) = rx.recv() {
        match command {
            Command::Record(game) => {
                if let Err(e) = save(&mut conn, &game) {
                    tracing::error!(error = %e, room = game.room, "could not save a game");
                }
            }
            Command::SaveLive(game) => {
                if let Err(e) = live::save(&conn, &game, unix_ms()) {
                    tracing::error!(error = %e, "could not save a game in progress");
                }
            }
            Command::DropLive(key) => {
                if let Err(e) = live::delete(&conn, key) {
                    tracing::error!(error = %e, "could not remove a finished game's snapshot");
                }
            }
            Command::Read(read) => read(&conn),
            Command::Close => break,
        }
    }
}

/// Saves one game and, if rated, its players' results and ratings, all or nothing.
fn save(conn: &mut Connection, game: &GameRecord) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    let ended = game.ended_ms as i64;
    let one = player_id(&tx, &game.players[0], ended)?;
    let two = player_id(&tx, &game.players[1], ended)?;
    if game.rated && one.0 != two.0 {
        let score_one = match game.winner {
            Some(Seat::One) => 1.0,
            Some(Seat::Two) => 0.0,
            None => 0.5,
        };
        let (r1, r2) = elo::update(one.1, two.1, score_one);
        for (id, rating, score) in [(one.0, r1, score_one), (two.0, r2, 1.0 - score_one)] {
            tx.execute(
                "UPDATE players SET games = games + 1,
                    wins = wins + (?2 = 1.0), losses = losses + (?2 = 0.0),
                    draws = draws + (?2 = 0.5), rating = ?3
                 WHERE id = ?1",
                params![id, score, rating],
            )?;
        }
    }
    let (game_name, variant) = describe(&game.settings.game);
    let moves: Vec<String> = game.moves.iter().map(move_text).collect();
    let line: Vec<String> = game.line.iter().map(Point::to_string).collect();
    let opening: Vec<String> = game.opening.iter().map(Point::to_string).collect();
    // Settings always serialise; an empty column falls back to the words above.
    let settings = serde_json::to_string(&game.settings).unwrap_or_default();
    tx.execute(
        "INSERT INTO games (room, number, game, variant, time_control, first_seat,
            player_one, player_two, moves, plies, winner, reason, rated, started_at, ended_at,
            settings, line, opening)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
            ?18)",
        params![
            game.room,
            game.number,
            game_name,
            variant,
            game.settings.time.to_string(),
            seat_number(game.first),
            one.0,
            two.0,
            moves.join(" "),
            game.moves.len() as i64,
            game.winner.map(seat_number),
            game.reason,
            game.rated,
            game.started_ms as i64,
            ended,
            settings,
            line.join(" "),
            opening.join(" "),
        ],
    )?;
    tx.commit()
}

/// The account of `player` (made on first sight) and its rating.
fn player_id(
    tx: &rusqlite::Transaction<'_>,
    player: &PlayerRef,
    now: i64,
) -> rusqlite::Result<(i64, f64)> {
    let bot = player.bot.map_or("", Level::name);
    tx.execute(
        "INSERT INTO players (name, bot, rating, first_seen, last_seen) VALUES (?1, ?2, ?3, ?4, ?4)
         ON CONFLICT(name, bot) DO UPDATE SET last_seen = ?4",
        params![player.name, bot, elo::START, now],
    )?;
    tx.query_row(
        "SELECT id, rating FROM players WHERE name = ?1 AND bot = ?2",
        params![player.name, bot],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )
}

fn seat_number(seat: Seat) -> i64 {
    match seat {
        Seat::One => 1,
        Seat::Two => 2,
    }
}

/// The game's name and its variant in words (`15x15 caro`).
fn describe(game: &GameSettings) -> (&'static str, String) {
    match game {
        GameSettings::Caro {
            width,
            height,
            rule,
            ..
        } => ("caro", format!("{width}x{height} {rule}")),
        GameSettings::Xiangqi { fen } => ("xiangqi", fen.clone().unwrap_or_else(|| "start".into())),
    }
}

/// A move as the record keeps it: `x,y` for caro, ICCS (`h2e2`) for xiangqi.
fn move_text(mv: &Move) -> String {
    match mv {
        Move::Caro(p) => p.to_string(),
        Move::Xiangqi { from, to } => {
            let file = |f: u8| char::from(b'a' + f.min(25));
            format!(
                "{}{}{}{}",
                file(from.file),
                from.rank,
                file(to.file),
                to.rank
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(winner: Option<Seat>, rated: bool) -> GameRecord {
        GameRecord {
            room: 1,
            number: 1,
            settings: RoomSettings::default(),
            players: [
                PlayerRef {
                    name: "An".into(),
                    bot: None,
                },
                PlayerRef {
                    name: "Hard bot".into(),
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
        }
    }

    #[test]
    fn games_and_ratings_reach_the_disk() {
        let dir = std::env::temp_dir().join(format!("banco-store-test-{}", std::process::id()));
        let path = dir.join("nested").join("banco.db");
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open(&StoreLocation::File(path.clone())).unwrap();
        let h = store.handle();
        h.record(record(Some(Seat::One), true));
        h.record(record(None, true));
        h.record(record(None, false));
        store.close();

        let archive = Archive::open(&path).unwrap();
        let board = archive.leaderboard(10).unwrap();
        assert_eq!(board.len(), 2);
        let an = &board[0];
        assert_eq!((an.name.as_str(), an.bot.as_deref()), ("An", None));
        assert_eq!((an.games, an.wins, an.losses, an.draws), (2, 1, 0, 1));
        assert!(an.rating > elo::START);
        let bot = &board[1];
        assert_eq!(bot.bot.as_deref(), Some("hard"));
        assert_eq!((bot.games, bot.wins, bot.losses, bot.draws), (2, 0, 1, 1));
        assert!((an.rating + bot.rating - 2.0 * elo::START).abs() < 1e-9);
        let games = archive.recent_games(10).unwrap();
        assert_eq!(games.len(), 3);
        assert!(!games[0].rated);
        assert_eq!(games[2].winner, Some(1));
        assert_eq!(games[2].moves, "7,7 8,8");
        assert_eq!(games[2].variant, "15x15 caro");
        assert_eq!(games[2].players, ["An".to_string(), "Hard bot".to_string()]);
        assert!(archive.rating("An").unwrap().is_some());
        assert!(archive.rating("Nobody").unwrap().is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_closed_store_drops_records_without_failing() {
        let store = Store::open(&StoreLocation::Memory).unwrap();
        let h = store.handle();
        store.close();
        h.record(record(Some(Seat::Two), true));
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
        store.handle().record(five_on_row_zero());
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
        store.handle().record(five_on_row_zero());
        store.handle().record(game);
        store.close();
        let conn = Connection::open(&path).unwrap();
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, 4);
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
        store.handle().record(five_on_row_zero());
        store.close();
        // Turn the file back into what a version 3 server left: no opening column.
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch("ALTER TABLE games DROP COLUMN opening; PRAGMA user_version = 3;")
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
        store.handle().record(five_on_row_zero());
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

    #[tokio::test]
    async fn reads_see_every_record_queued_before_them() {
        let store = Store::open(&StoreLocation::Memory).unwrap();
        let h = store.handle();
        h.record(five_on_row_zero());
        h.record(GameRecord {
            reason: "shutdown".into(),
            ..record(None, false)
        });
        let board = h.leaderboard().await.unwrap();
        assert_eq!(board.len(), 2);
        assert_eq!((board[0].name.as_str(), board[0].rating), ("An", 1612));
        assert_eq!(board[1].bot, Some(Level::Hard));
        let history = h.history(None).await.unwrap();
        assert_eq!(history.len(), 1, "the unfinished game is not listed");
        assert_eq!(history[0].over.line.len(), 5);
        assert!(h.replay(history[0].id).await.unwrap().is_some());
        store.close();
        let after = h.leaderboard().await;
        assert!(matches!(after, Err(ReadError::Closed)), "{after:?}");
    }
}
