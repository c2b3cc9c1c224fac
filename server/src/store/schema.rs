//! The tables. `user_version` says which layout a file has, so later versions can
//! migrate old files instead of failing on them.

use rusqlite::Connection;
use serde::Deserialize;

use banco_protocol::{Move, Point, ResumeToken, RoomSettings, Seat};
use banco_rules::Level;

use super::live::{self, LiveGame, LiveSeat};
use crate::token::TokenHash;

/// The layout this code writes.
pub const VERSION: i64 = 8;

/// Creates the tables if the file is new, and brings an older file up to date.
pub fn create(conn: &mut Connection) -> rusqlite::Result<()> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    if version < 1 {
        version_1(conn)?;
    }
    if version < 2 {
        version_2(conn)?;
    }
    if version < 3 {
        version_3(conn)?;
    }
    if version < 4 {
        version_4(conn)?;
    }
    if version < 5 {
        version_5(conn)?;
    }
    if version < 6 {
        version_6(conn)?;
    }
    if version < 7 {
        version_7(conn)?;
    }
    if version < VERSION {
        version_8(conn)?;
    }
    Ok(())
}

/// Players, their ratings, and finished games.
fn version_1(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "BEGIN;
         CREATE TABLE IF NOT EXISTS players (
             id         INTEGER PRIMARY KEY,
             name       TEXT NOT NULL,
             -- the level for the server's bots, '' for people
             bot        TEXT NOT NULL DEFAULT '',
             games      INTEGER NOT NULL DEFAULT 0,
             wins       INTEGER NOT NULL DEFAULT 0,
             losses     INTEGER NOT NULL DEFAULT 0,
             draws      INTEGER NOT NULL DEFAULT 0,
             rating     REAL NOT NULL DEFAULT 1600,
             first_seen INTEGER NOT NULL,
             last_seen  INTEGER NOT NULL,
             UNIQUE (name, bot)
         );
         CREATE TABLE IF NOT EXISTS games (
             id           INTEGER PRIMARY KEY,
             room         INTEGER NOT NULL,
             number       INTEGER NOT NULL,
             game         TEXT NOT NULL,
             -- '15x15 caro', or the xiangqi start position
             variant      TEXT NOT NULL,
             time_control TEXT NOT NULL,
             first_seat   INTEGER NOT NULL,
             player_one   INTEGER NOT NULL REFERENCES players(id),
             player_two   INTEGER NOT NULL REFERENCES players(id),
             -- space-separated: 'x,y' for caro, ICCS for xiangqi
             moves        TEXT NOT NULL,
             plies        INTEGER NOT NULL,
             -- 1 or 2; NULL for a draw or an unfinished game
             winner       INTEGER,
             reason       TEXT NOT NULL,
             rated        INTEGER NOT NULL,
             started_at   INTEGER NOT NULL,
             ended_at     INTEGER NOT NULL
         );
         CREATE INDEX IF NOT EXISTS games_by_player_one ON games (player_one);
         CREATE INDEX IF NOT EXISTS games_by_player_two ON games (player_two);
         PRAGMA user_version = 1;
         COMMIT;",
    )
}

/// Games in progress, so a restart loses nothing: one JSON snapshot per game, replaced
/// after every move and deleted when the game ends.
fn version_2(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "BEGIN;
         CREATE TABLE IF NOT EXISTS live_games (
             key      INTEGER PRIMARY KEY,
             snapshot TEXT NOT NULL,
             saved_at INTEGER NOT NULL
         );
         PRAGMA user_version = 2;
         COMMIT;",
    )
}

/// What replays need exactly: the room's settings as JSON (older rows keep only words,
/// read back as well as they can be) and caro's winning line.
fn version_3(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "BEGIN;
         -- the room's settings as JSON; '' in rows stored before version 3
         ALTER TABLE games ADD COLUMN settings TEXT NOT NULL DEFAULT '';
         -- caro: the winning line, space-separated 'x,y'; '' otherwise
         ALTER TABLE games ADD COLUMN line TEXT NOT NULL DEFAULT '';
         PRAGMA user_version = 3;
         COMMIT;",
    )
}

/// Caro games that start from opening stones: the stones, so replays draw them and
/// replay the moves on top of them.
fn version_4(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "BEGIN;
         -- caro: the opening stones, space-separated 'x,y', X first; '' for none (and in
         -- rows stored before version 4)
         ALTER TABLE games ADD COLUMN opening TEXT NOT NULL DEFAULT '';
         PRAGMA user_version = 4;
         COMMIT;",
    )
}

/// The game log: a game in progress is a row for its start and a row per event, appended
/// (no more whole-game snapshots rewritten after every move); finished games carry the
/// key they had while live, so writing one twice is impossible. Snapshots an older server
/// left are turned into log rows, their resume tokens into hashes.
fn version_5(conn: &mut Connection) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    tx.execute_batch(
        "ALTER TABLE live_games RENAME TO live_snapshots_v4;
         CREATE TABLE live_games (
             key        INTEGER PRIMARY KEY,
             -- the room's number, kept across restarts (0: unknown)
             room       INTEGER NOT NULL,
             number     INTEGER NOT NULL,
             -- the room's settings and the two seats, as JSON (tokens as hashes)
             settings   TEXT NOT NULL,
             seats      TEXT NOT NULL,
             first_seat INTEGER NOT NULL,
             -- caro: the opening stones, space-separated 'x,y', X first
             opening    TEXT NOT NULL,
             started_at INTEGER NOT NULL
         );
         CREATE TABLE live_events (
             game   INTEGER NOT NULL,
             -- from 0, in the order things happened
             seq    INTEGER NOT NULL,
             -- 'move' (data: 'x,y' or ICCS), 'undo' (data: plies), 'clocks'
             kind   TEXT NOT NULL,
             data   TEXT NOT NULL,
             -- ms left by seat after the event, 'a,b'; '' when untimed
             clocks TEXT NOT NULL,
             PRIMARY KEY (game, seq)
         ) WITHOUT ROWID;
         ALTER TABLE games ADD COLUMN key INTEGER;
         CREATE UNIQUE INDEX games_by_key ON games (key) WHERE key IS NOT NULL;
         CREATE TABLE IF NOT EXISTS starts (at INTEGER NOT NULL);",
    )?;
    let snapshots: Vec<(i64, String)> = tx
        .prepare("SELECT key, snapshot FROM live_snapshots_v4 ORDER BY saved_at")?
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (key, snapshot) in snapshots {
        match serde_json::from_str::<SnapshotV4>(&snapshot) {
            Ok(old) => live::insert(&tx, &old.into_live())?,
            Err(e) => {
                // Kept aside rather than lost: a person may still want to look at it.
                tracing::error!(key, error = %e, "a saved game in progress cannot be read; it stays in live_snapshots_unreadable");
                tx.execute_batch(
                    "CREATE TABLE IF NOT EXISTS live_snapshots_unreadable (
                         key INTEGER PRIMARY KEY, snapshot TEXT NOT NULL)",
                )?;
                tx.execute(
                    "INSERT OR REPLACE INTO live_snapshots_unreadable (key, snapshot) VALUES (?1, ?2)",
                    rusqlite::params![key, snapshot],
                )?;
            }
        }
    }
    tx.execute_batch("DROP TABLE live_snapshots_v4; PRAGMA user_version = 5;")?;
    tx.commit()
}

/// Accounts: a name with an argon2id password hash. Names already in the records stay
/// unclaimed (a `players` row and no `accounts` row) until someone registers them.
fn version_6(conn: &mut Connection) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    tx.execute_batch(
        "CREATE TABLE IF NOT EXISTS accounts (
             id            INTEGER PRIMARY KEY,
             name          TEXT NOT NULL,
             -- the name as compared: lower case, so 'An' and 'an' are one account
             name_key      TEXT NOT NULL UNIQUE,
             -- argon2id, in the PHC string form (salt and parameters included)
             hash          TEXT NOT NULL,
             registered_at INTEGER NOT NULL
         );
         PRAGMA user_version = 6;",
    )?;
    tx.commit()
}

/// Glicko-2 ratings per game kind in place of one Elo number: the tables, and every
/// game in the records rated again by today's rules (see [`super::rated::rerate_all`]).
/// The old Elo columns of `players` stay, unread.
fn version_7(conn: &mut Connection) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    tx.execute_batch(super::rated::TABLES)?;
    // Bots go by one name on every screen now ("Bot (hard)", was "Hard bot").
    tx.execute_batch("UPDATE players SET name = 'Bot (' || bot || ')' WHERE bot != '';")?;
    super::rated::rerate_all(&tx)?;
    tx.execute_batch("PRAGMA user_version = 7;")?;
    tx.commit()
}

/// Engine reviews of finished games: one per game, the review as JSON.
fn version_8(conn: &mut Connection) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    tx.execute_batch(
        "CREATE TABLE IF NOT EXISTS reviews (
             -- the finished game's id (games.id)
             game      INTEGER PRIMARY KEY,
             -- the engine's time per position it was made with
             budget_ms INTEGER NOT NULL,
             -- the protocol's GameReview as JSON
             review    TEXT NOT NULL,
             made_at   INTEGER NOT NULL
         );
         PRAGMA user_version = 8;",
    )?;
    tx.commit()
}

/// A game in progress as a version 4 server saved it: a JSON snapshot.
#[derive(Deserialize)]
struct SnapshotV4 {
    key: u64,
    settings: RoomSettings,
    seats: [SeatV4; 2],
    number: u32,
    first: Seat,
    #[serde(default)]
    opening: Vec<Point>,
    moves: Vec<Move>,
    clocks: Option<[u64; 2]>,
    started_ms: u64,
}

#[derive(Deserialize)]
enum SeatV4 {
    Human { name: String, token: ResumeToken },
    Bot(Level),
}

impl SnapshotV4 {
    fn into_live(self) -> LiveGame {
        let seats = self.seats.map(|seat| match seat {
            SeatV4::Human { name, token } => LiveSeat::Human {
                name,
                token: TokenHash::of(&token),
            },
            SeatV4::Bot(level) => LiveSeat::Bot(level),
        });
        LiveGame {
            key: self.key,
            room: 0,
            settings: self.settings,
            seats,
            number: self.number,
            first: self.first,
            opening: self.opening,
            next_seq: self.moves.len() as u32,
            moves: self.moves,
            clocks: self.clocks,
            started_ms: self.started_ms,
        }
    }
}
