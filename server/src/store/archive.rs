//! Reading the store back: the leaderboard, the history of finished games, and one game
//! move by move.
//!
//! The queries are plain functions of a connection, so they run in two places: on the
//! store's own thread, for players asking a running server ([`super::StoreHandle`]'s
//! reads), and through an [`Archive`], a read-only connection for `banco-server
//! --leaderboard` and tests, which never disturbs a running server.

use rusqlite::{Connection, OptionalExtension};
use std::path::Path;

use banco_protocol::{GameId, GameKind, GameOver, GameSummary, Level, Point, Seat};

use super::StoreError;
use super::profile::profile;
use super::rating::Glicko;
use super::replay::{self, StoredSettings};

/// One line of the leaderboard.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    /// The account's name.
    pub name: String,
    /// The level, for the server's bots.
    pub bot: Option<String>,
    /// A bot account's line (an engine's, `banco bot`).
    pub bot_account: bool,
    /// Rated games played.
    pub games: u32,
    /// Rated games won.
    pub wins: u32,
    /// Rated games lost.
    pub losses: u32,
    /// Rated games drawn.
    pub draws: u32,
    /// Glicko-2, at the leaderboard's game.
    pub rating: Glicko,
}

impl Standing {
    /// The wire's form: the rating rounded to a whole point.
    pub fn to_wire(&self) -> banco_protocol::Standing {
        banco_protocol::Standing {
            name: self.name.clone(),
            bot: self.bot.as_deref().and_then(|l| l.parse::<Level>().ok()),
            bot_account: self.bot_account,
            rating: self.rating.to_wire(),
            games: self.games,
            wins: self.wins,
            losses: self.losses,
            draws: self.draws,
        }
    }
}

/// One stored game, as read back.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredGame {
    /// `caro` or `xiangqi`.
    pub game: String,
    /// Board and rule (`15x15 caro`) or the xiangqi start position.
    pub variant: String,
    /// Names by seat.
    pub players: [String; 2],
    /// 1 or 2; `None` for a draw or an unfinished game.
    pub winner: Option<u8>,
    /// How it ended, or why it did not.
    pub reason: String,
    /// Space-separated moves (`7,7 8,8 ...`).
    pub moves: String,
    /// Whether it counted for ratings.
    pub rated: bool,
}

/// A store opened for reading: the leaderboard and the game history.
pub struct Archive {
    /// Opened read-only: reading never disturbs a running server.
    conn: Connection,
}

impl Archive {
    pub fn open(path: &Path) -> Result<Archive, StoreError> {
        let conn = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)?;
        Ok(Archive { conn })
    }

    /// The best rated at `kind` first (only those with a rated game of it).
    pub fn leaderboard(&self, kind: GameKind, limit: u32) -> Result<Vec<Standing>, StoreError> {
        leaderboard(&self.conn, kind, limit)
    }

    /// Someone's record; see [`profile`].
    pub fn profile(
        &self,
        name: &str,
        bot: Option<Level>,
    ) -> Result<Option<banco_protocol::Profile>, StoreError> {
        profile(&self.conn, name, bot)
    }

    /// The newest games first, finished or not, as stored.
    pub fn recent_games(&self, limit: u32) -> Result<Vec<StoredGame>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT g.game, g.variant, p1.name, p2.name, g.winner, g.reason, g.moves, g.rated
             FROM games g JOIN players p1 ON p1.id = g.player_one
                          JOIN players p2 ON p2.id = g.player_two
             ORDER BY g.id DESC LIMIT ?1",
        )?;
        let rows = stmt.query_map([limit], |row| {
            Ok(StoredGame {
                game: row.get(0)?,
                variant: row.get(1)?,
                players: [row.get(2)?, row.get(3)?],
                winner: row.get(4)?,
                reason: row.get(5)?,
                moves: row.get(6)?,
                rated: row.get(7)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Finished games, newest first; see [`history`].
    pub fn history(
        &self,
        player: Option<&str>,
        limit: usize,
    ) -> Result<Vec<GameSummary>, StoreError> {
        history(&self.conn, player, limit)
    }

    /// One finished game move by move; see [`replay`].
    pub fn replay(&self, id: GameId) -> Result<Option<banco_protocol::GameRecord>, StoreError> {
        game_record(&self.conn, id)
    }

    /// A person's rating at `kind`, if they have played it rated.
    pub fn rating(&self, name: &str, kind: GameKind) -> Result<Option<Glicko>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT r.rating, r.deviation, r.volatility FROM ratings r
                 JOIN players p ON p.id = r.player
                 WHERE p.name = ?1 AND p.bot = '' AND r.kind = ?2",
                rusqlite::params![name, kind.as_str()],
                |row| {
                    Ok(Glicko {
                        rating: row.get(0)?,
                        deviation: row.get(1)?,
                        volatility: row.get(2)?,
                    })
                },
            )
            .optional()?)
    }
}

/// The `limit` best rated at `kind`, among those who have played it rated: settled
/// ratings first, best first, then provisional ones (shown `1500?`, not ranked yet). A
/// row that cannot be read is skipped (and logged once): one damaged account never hides
/// the rest.
pub fn leaderboard(
    conn: &Connection,
    kind: GameKind,
    limit: u32,
) -> Result<Vec<Standing>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT p.id, p.name, p.bot, r.games, r.wins, r.losses, r.draws, r.rating,
                r.deviation, r.volatility
         FROM ratings r JOIN players p ON p.id = r.player
         WHERE r.kind = ?1 AND r.games > 0
         ORDER BY r.deviation > ?2, r.rating DESC, r.games DESC, p.name",
    )?;
    let mut rows = stmt.query(rusqlite::params![kind.as_str(), super::rating::PROVISIONAL])?;
    let mut out = Vec::new();
    let engines = super::accounts::bot_keys(conn)?;
    while out.len() < limit as usize {
        let Some(row) = rows.next()? else { break };
        let read = || -> rusqlite::Result<Standing> {
            let bot: String = row.get(2)?;
            Ok(Standing {
                name: row.get(1)?,
                bot: (!bot.is_empty()).then_some(bot),
                bot_account: false,
                games: row.get(3)?,
                wins: row.get(4)?,
                losses: row.get(5)?,
                draws: row.get(6)?,
                rating: Glicko {
                    rating: row.get(7)?,
                    deviation: row.get(8)?,
                    volatility: row.get(9)?,
                },
            })
        };
        match read() {
            Ok(mut standing) => {
                standing.bot_account = standing.bot.is_none()
                    && engines.contains(&super::accounts::name_key(&standing.name));
                out.push(standing);
            }
            Err(e) => unreadable("players", row.get(0).unwrap_or(-1), &e.to_string()),
        }
    }
    Ok(out)
}

/// Logs a row that cannot be read, once per row for the life of the process.
fn unreadable(table: &'static str, id: i64, why: &str) {
    static SEEN: std::sync::OnceLock<std::sync::Mutex<std::collections::HashSet<(&str, i64)>>> =
        std::sync::OnceLock::new();
    let seen = SEEN.get_or_init(Default::default);
    let first = seen
        .lock()
        .map(|mut seen| seen.insert((table, id)))
        .unwrap_or(true);
    if first {
        tracing::error!(table, id, %why, "a row of the records cannot be read; it is left out");
    }
}

/// The columns a summary is made from, in the order [`summary_row`] reads them.
const SUMMARY_COLUMNS: &str = "g.id, g.game, g.variant, g.time_control, g.settings, p1.name, \
     p2.name, g.first_seat, g.winner, g.reason, g.line, g.plies, g.ended_at, g.rated";

/// The newest `limit` finished games, newest first; only those `player` played in (by
/// name, either seat, ASCII case ignored) if given. Games that never finished (the
/// server stopped, a new game replaced them) are not listed.
pub fn history(
    conn: &Connection,
    player: Option<&str>,
    limit: usize,
) -> Result<Vec<GameSummary>, StoreError> {
    let sql = format!(
        "SELECT {SUMMARY_COLUMNS}
         FROM games g JOIN players p1 ON p1.id = g.player_one
                      JOIN players p2 ON p2.id = g.player_two
         WHERE ?1 IS NULL OR p1.name = ?1 COLLATE NOCASE OR p2.name = ?1 COLLATE NOCASE
         ORDER BY g.id DESC"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let mut rows = stmt.query([player])?;
    let mut out = Vec::new();
    // Unfinished games are rare, so skipping them here reads little more than `limit` rows.
    while out.len() < limit {
        let Some(row) = rows.next()? else { break };
        match summary_row(conn, row) {
            Ok(Some(summary)) => out.push(summary),
            Ok(None) => {}
            // One damaged game never hides the others.
            Err(e) => unreadable("games", row.get(0).unwrap_or(-1), &e.to_string()),
        }
    }
    Ok(out)
}

/// Finished game `id`, move by move; `None` if there is no finished game with that number.
pub fn game_record(
    conn: &Connection,
    id: GameId,
) -> Result<Option<banco_protocol::GameRecord>, StoreError> {
    let Ok(key) = i64::try_from(id) else {
        return Ok(None);
    };
    let sql = format!(
        "SELECT {SUMMARY_COLUMNS}, g.moves, g.opening, g.swap
         FROM games g JOIN players p1 ON p1.id = g.player_one
                      JOIN players p2 ON p2.id = g.player_two
         WHERE g.id = ?1"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let mut rows = stmt.query([key])?;
    let Some(row) = rows.next()? else {
        return Ok(None);
    };
    let Some(summary) = summary_row(conn, row)? else {
        return Ok(None);
    };
    let moves: String = row.get(14)?;
    let opening: String = row.get(15)?;
    let opening = parse_points(&opening).ok_or_else(|| StoreError::Corrupt {
        id: summary.id as i64,
        why: format!("the opening '{opening}' cannot be read"),
    })?;
    let swap: String = row.get(16)?;
    // A swap opening that cannot be read leaves the replay without it, not unreadable.
    let swap = (!swap.is_empty())
        .then(|| serde_json::from_str::<banco_protocol::SwapView>(&swap).ok())
        .flatten();
    let mut record = replay::rebuild(summary, &opening, &moves)?;
    record.swap = swap.map(Box::new);
    Ok(Some(record))
}

/// A summary from a row of [`SUMMARY_COLUMNS`]; `None` for a game that never finished.
fn summary_row(
    conn: &Connection,
    row: &rusqlite::Row<'_>,
) -> Result<Option<GameSummary>, StoreError> {
    let id: i64 = row.get(0)?;
    let reason: String = row.get(9)?;
    let Some(reason) = replay::end_reason(&reason) else {
        return Ok(None);
    };
    let stored = StoredSettings {
        game: row.get(1)?,
        variant: row.get(2)?,
        time: row.get(3)?,
        json: row.get(4)?,
    };
    let settings = stored
        .settings()
        .map_err(|why| StoreError::Corrupt { id, why })?;
    let seat = |n: Option<i64>| match n {
        Some(1) => Some(Seat::One),
        Some(2) => Some(Seat::Two),
        _ => None,
    };
    let line: String = row.get(10)?;
    let line = parse_points(&line).ok_or_else(|| StoreError::Corrupt {
        id,
        why: format!("the winning line '{line}' cannot be read"),
    })?;
    let plies: i64 = row.get(11)?;
    let ended: i64 = row.get(12)?;
    Ok(Some(GameSummary {
        id: id as GameId,
        game: settings.game,
        time: settings.time,
        players: [row.get(5)?, row.get(6)?],
        first: seat(row.get(7)?).unwrap_or(Seat::One),
        over: GameOver {
            winner: seat(row.get(8)?),
            reason,
            line,
        },
        plies: u32::try_from(plies).unwrap_or(0),
        ended_at_ms: u64::try_from(ended).unwrap_or(0),
        rated: row.get(13)?,
        in_match: super::matches::match_game(conn, id)?,
    }))
}

/// Space-separated `x,y` points (the stored form of a caro line or caro moves).
pub(super) fn parse_points(text: &str) -> Option<Vec<Point>> {
    text.split_whitespace().map(parse_point).collect()
}

/// `x,y`, as [`Point`]'s `Display` writes it.
pub(super) fn parse_point(text: &str) -> Option<Point> {
    let (x, y) = text.split_once(',')?;
    Some(Point::new(x.trim().parse().ok()?, y.trim().parse().ok()?))
}
