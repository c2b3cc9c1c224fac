//! The store: players, their ratings and every finished game, in SQLite.
//!
//! SQLite calls block, so the connection lives on its own thread and the rest of the
//! server hands it work through a bounded queue without ever waiting ([`StoreHandle`]).
//! A store that fails or falls behind is logged and skipped: it never holds up or loses a
//! game in play.
//!
//! - `schema`: the tables, created on first open.
//! - [`elo`]: the rating arithmetic.
//! - [`live`]: games in progress, saved after every move and reopened after a restart.
//! - [`archive`]: reading back (the leaderboard, recent games) for tools and tests.

pub mod archive;
pub mod elo;
pub mod live;
mod schema;

use rusqlite::{Connection, params};
use std::sync::mpsc;
use std::thread::JoinHandle;

use banco_engine::bot::Level;
use banco_protocol::{GameSettings, Move, RoomId, RoomSettings, Seat};

use crate::config::StoreLocation;
use crate::room::chat::unix_ms;
pub use archive::{Archive, Standing, StoredGame};
pub use live::{LiveGame, LiveSeat};

/// How many records may wait for the disk before new ones are dropped (and logged).
const QUEUE: usize = 1024;

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
    /// The seat that moved first.
    pub first: Seat,
    /// Every move, in order.
    pub moves: Vec<Move>,
    /// `None` for a draw or an unfinished game.
    pub winner: Option<Seat>,
    /// How it ended (`five`, `timeout`, ...) or why it did not (`restarted`, `shutdown`).
    pub reason: String,
    /// Whether the result counts for statistics and ratings.
    pub rated: bool,
    /// Unix milliseconds.
    pub started_ms: u64,
    /// Unix milliseconds.
    pub ended_ms: u64,
}

enum Command {
    Record(Box<GameRecord>),
    SaveLive(Box<LiveGame>),
    DropLive(u64),
    Close,
}

/// Where rooms send their records. Cheap to clone; never blocks.
#[derive(Debug, Clone)]
pub struct StoreHandle {
    /// Into the store thread.
    tx: mpsc::SyncSender<Command>,
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
            handle: StoreHandle { tx },
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
    tx.execute(
        "INSERT INTO games (room, number, game, variant, time_control, first_seat,
            player_one, player_two, moves, plies, winner, reason, rated, started_at, ended_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
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
    use banco_protocol::Point;

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
            moves: vec![Move::Caro(Point::new(7, 7)), Move::Caro(Point::new(8, 8))],
            winner,
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
}
