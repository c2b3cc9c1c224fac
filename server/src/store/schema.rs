//! The tables. `user_version` says which layout a file has, so later versions can
//! migrate old files instead of failing on them.

use rusqlite::{Connection, OptionalExtension};
use serde::Deserialize;

use banco_protocol::{Move, Point, ResumeToken, RoomSettings, Seat};
use banco_rules::Level;

use super::journal::{self, Event, points_text, seat_number};
use super::live::{LiveGame, LiveSeat};
use crate::token::TokenHash;

/// The layout this code writes.
pub const VERSION: i64 = 16;

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
    if version < 8 {
        version_8(conn)?;
    }
    if version < 9 {
        version_9(conn)?;
    }
    if version < 10 {
        version_10(conn)?;
    }
    if version < 11 {
        version_11(conn)?;
    }
    if version < 12 {
        version_12(conn)?;
    }
    if version < 13 {
        version_13(conn)?;
    }
    if version < 14 {
        version_14(conn)?;
    }
    if version < 15 {
        version_15(conn)?;
    }
    if version < VERSION {
        version_16(conn)?;
    }
    super::accounts::refresh_skeletons(conn)
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
            Ok(old) => insert_v5(&tx, &old.into_live())?,
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

/// What a player was told about the room beside its game comes back after a restart:
/// the series score and the chat, kept with each game in progress ('' in games begun
/// before version 9: 0-0, no lines).
fn version_9(conn: &mut Connection) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    if !has_column(&tx, "live_games", "series")? {
        // the room's rematch score when the game began: 'wins one,wins two,draws'
        tx.execute_batch("ALTER TABLE live_games ADD COLUMN series TEXT NOT NULL DEFAULT ''")?;
    }
    if !has_column(&tx, "live_games", "chat")? {
        // the room's chat when the game began, a JSON array of {from, text, at}; the
        // lines said since are live_events of kind 'chat'
        tx.execute_batch("ALTER TABLE live_games ADD COLUMN chat TEXT NOT NULL DEFAULT ''")?;
    }
    tx.execute_batch("PRAGMA user_version = 9;")?;
    tx.commit()
}

/// The look-alike check by index: each account's skeleton (its look-alike key) under a
/// UNIQUE index, filled for the accounts already there by
/// [`super::accounts::refresh_skeletons`] (run after every upgrade); and a table of
/// facts about the file, where that keeps which rule made the skeletons.
fn version_10(conn: &mut Connection) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    if !has_column(&tx, "accounts", "skeleton")? {
        // the name's look-alike key (NULL until computed)
        tx.execute_batch("ALTER TABLE accounts ADD COLUMN skeleton TEXT")?;
    }
    tx.execute_batch(
        "CREATE UNIQUE INDEX IF NOT EXISTS accounts_by_skeleton ON accounts (skeleton);
         CREATE TABLE IF NOT EXISTS store_facts (
             name  TEXT PRIMARY KEY,
             value TEXT NOT NULL
         );
         PRAGMA user_version = 10;",
    )?;
    tx.commit()
}

/// Account tokens: a browser that stays logged in holds a random token; the file keeps
/// only its hash, with the account it logs in to and when it was made and last used
/// (see [`super::accounts::remember`]).
fn version_11(conn: &mut Connection) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    tx.execute_batch(
        "CREATE TABLE IF NOT EXISTS account_tokens (
             -- the token's SHA-256, 64 hex digits: the token itself is never stored
             hash       TEXT PRIMARY KEY,
             -- accounts.id: a name removed and registered again is another account, and
             -- its old tokens log nobody in
             account    INTEGER NOT NULL,
             created_at INTEGER NOT NULL,
             used_at    INTEGER NOT NULL
         ) WITHOUT ROWID;
         CREATE INDEX IF NOT EXISTS account_tokens_by_account ON account_tokens (account, used_at);
         PRAGMA user_version = 11;",
    )?;
    tx.commit()
}

/// Matches: a row per match in `matches` (written when it begins, its score at every
/// game's end, its result when it ends), a row in `live_matches` while it runs (the seats
/// and chat a restart needs when it falls between two games), and each game's match and
/// its place in it.
fn version_12(conn: &mut Connection) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    tx.execute_batch(
        "CREATE TABLE IF NOT EXISTS matches (
             id         INTEGER PRIMARY KEY,
             -- chosen by the room when the match begins: writing one twice is impossible
             key        INTEGER NOT NULL UNIQUE,
             room       INTEGER NOT NULL,
             -- the room's matches so far, this one included
             number     INTEGER NOT NULL,
             -- 'caro' or 'xiangqi'
             game       TEXT NOT NULL,
             -- the room's settings as JSON, its match format included
             settings   TEXT NOT NULL,
             player_one INTEGER NOT NULL REFERENCES players(id),
             player_two INTEGER NOT NULL REFERENCES players(id),
             -- the seat that moves first in the match's odd games (1 or 2)
             first_seat INTEGER NOT NULL,
             -- the games with a result so far: wins by seat, draws
             wins_one   INTEGER NOT NULL DEFAULT 0,
             wins_two   INTEGER NOT NULL DEFAULT 0,
             draws      INTEGER NOT NULL DEFAULT 0,
             -- 1 or 2 once won; NULL while it runs, when drawn or never finished
             winner     INTEGER,
             -- '' while it runs; then 'decided', 'resign', 'quit', 'abandoned', or
             -- 'unfinished' (the server stopped with only bots in it)
             reason     TEXT NOT NULL DEFAULT '',
             started_at INTEGER NOT NULL,
             -- NULL while it runs
             ended_at   INTEGER
         );
         CREATE INDEX IF NOT EXISTS matches_by_player_one ON matches (player_one);
         CREATE INDEX IF NOT EXISTS matches_by_player_two ON matches (player_two);
         CREATE TABLE IF NOT EXISTS live_matches (
             -- matches.key
             key       INTEGER PRIMARY KEY,
             -- the two seats, as JSON (resume tokens as hashes)
             seats     TEXT NOT NULL,
             -- the room's number of the last game begun
             last_game INTEGER NOT NULL,
             -- the room's chat, a JSON array of {from, text, at}
             chat      TEXT NOT NULL
         );",
    )?;
    for (table, column, sql) in [
        (
            "games",
            "match_id",
            // matches.id of the match the game belonged to; NULL outside a match
            "ALTER TABLE games ADD COLUMN match_id INTEGER",
        ),
        (
            "games",
            "match_game",
            // which game of its match it was, from 1
            "ALTER TABLE games ADD COLUMN match_game INTEGER",
        ),
        (
            "live_games",
            "match_key",
            // matches.key of the match the game in progress belongs to, if any
            "ALTER TABLE live_games ADD COLUMN match_key INTEGER",
        ),
        (
            "live_games",
            "match_game",
            "ALTER TABLE live_games ADD COLUMN match_game INTEGER",
        ),
    ] {
        if !has_column(&tx, table, column)? {
            tx.execute_batch(sql)?;
        }
    }
    tx.execute_batch(
        "CREATE INDEX IF NOT EXISTS games_by_match ON games (match_id) WHERE match_id IS NOT NULL;
         PRAGMA user_version = 12;",
    )?;
    tx.commit()
}

/// Bot accounts: an account may be an engine's (`banco bot`), marked BOT wherever its
/// name is shown and rated in its own right. Accounts made before are people's.
fn version_13(conn: &mut Connection) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    if !has_column(&tx, "accounts", "bot")? {
        // 1 for a bot account (an engine's), 0 for a person's
        tx.execute_batch("ALTER TABLE accounts ADD COLUMN bot INTEGER NOT NULL DEFAULT 0")?;
    }
    tx.execute_batch("PRAGMA user_version = 13;")?;
    tx.commit()
}

/// Tournaments: Swiss, round robin and arena events, their entrants, every board of
/// every round with its room and result, and the byes (see `tournaments`).
fn version_14(conn: &mut Connection) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    super::tournaments::create_tables(&tx)?;
    tx.execute_batch("PRAGMA user_version = 14;")?;
    tx.commit()
}

/// Swap openings: how a finished game's opening was played (who placed which stone,
/// who decided what), for replays.
fn version_15(conn: &mut Connection) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    if !has_column(&tx, "games", "swap")? {
        // a swap opening as JSON (the protocol's SwapView); '' for every other game
        tx.execute_batch("ALTER TABLE games ADD COLUMN swap TEXT NOT NULL DEFAULT ''")?;
    }
    tx.execute_batch("PRAGMA user_version = 15;")?;
    tx.commit()
}

/// Tournaments: when each board was paired (the forfeit counts from it across
/// restarts), entrants removed by the organiser, and byes asked for before a round.
fn version_16(conn: &mut Connection) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    super::tournaments::add_version_16(&tx)?;
    tx.execute_batch("PRAGMA user_version = 16;")?;
    tx.commit()
}

/// Whether `table` has `column` (a step may meet a file that an interrupted or newer
/// server already gave it).
pub(super) fn has_column(conn: &Connection, table: &str, column: &str) -> rusqlite::Result<bool> {
    let found: Option<i64> = conn
        .query_row(
            "SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2",
            [table, column],
            |row| row.get(0),
        )
        .optional()?;
    Ok(found.is_some())
}

/// Writes `game` as a version 5 live game (the layout of that version: later columns
/// are added by later steps) with its moves as events; the last move carries the clocks.
fn insert_v5(tx: &rusqlite::Transaction<'_>, game: &LiveGame) -> rusqlite::Result<()> {
    // Seats and settings always serialise (plain data).
    let settings = serde_json::to_string(&game.settings).unwrap_or_default();
    let seats = serde_json::to_string(&game.seats).unwrap_or_default();
    tx.execute(
        "INSERT OR REPLACE INTO live_games (key, room, number, settings, seats, first_seat,
            opening, started_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        rusqlite::params![
            game.key as i64,
            game.room,
            game.number,
            settings,
            seats,
            seat_number(game.first),
            points_text(&game.opening),
            game.started_ms as i64,
        ],
    )?;
    let last = game.moves.len().saturating_sub(1);
    for (seq, mv) in game.moves.iter().enumerate() {
        let clocks = if seq == last { game.clocks } else { None };
        journal::append(tx, game.key, seq as u32, &Event::Move { mv: *mv, clocks })?;
    }
    if game.moves.is_empty()
        && let Some(clocks) = game.clocks
    {
        journal::append(tx, game.key, 0, &Event::Clocks(clocks))?;
    }
    Ok(())
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
            series: Default::default(),
            chat: Vec::new(),
            started_ms: self.started_ms,
            in_match: None,
        }
    }
}
