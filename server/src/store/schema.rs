//! The tables. `user_version` says which layout a file has, so later versions can
//! migrate old files instead of failing on them.

use rusqlite::Connection;

/// The layout this code writes.
const VERSION: i64 = 3;

/// Creates the tables if the file is new, and brings an older file up to date.
pub fn create(conn: &Connection) -> rusqlite::Result<()> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    if version < 1 {
        version_1(conn)?;
    }
    if version < 2 {
        version_2(conn)?;
    }
    if version < VERSION {
        version_3(conn)?;
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
