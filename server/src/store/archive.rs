//! Reading the store back: the leaderboard and the game history, for `banco-server
//! --leaderboard` and for tests. Opened read-only, so it never disturbs a running server.

use rusqlite::{Connection, OptionalExtension};
use std::path::Path;

use super::StoreError;

/// One line of the leaderboard.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    /// The account's name.
    pub name: String,
    /// The level, for the server's bots.
    pub bot: Option<String>,
    /// Rated games played.
    pub games: u32,
    /// Rated games won.
    pub wins: u32,
    /// Rated games lost.
    pub losses: u32,
    /// Rated games drawn.
    pub draws: u32,
    /// Elo, from 1600.
    pub rating: f64,
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

    /// The best rated accounts first.
    pub fn leaderboard(&self, limit: u32) -> Result<Vec<Standing>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT name, bot, games, wins, losses, draws, rating FROM players
             ORDER BY rating DESC, games DESC, name LIMIT ?1",
        )?;
        let rows = stmt.query_map([limit], |row| {
            let bot: String = row.get(1)?;
            Ok(Standing {
                name: row.get(0)?,
                bot: (!bot.is_empty()).then_some(bot),
                games: row.get(2)?,
                wins: row.get(3)?,
                losses: row.get(4)?,
                draws: row.get(5)?,
                rating: row.get(6)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The newest games first.
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

    /// The rating of a person's account, if they have one.
    pub fn rating(&self, name: &str) -> Result<Option<f64>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT rating FROM players WHERE name = ?1 AND bot = ''",
                [name],
                |row| row.get(0),
            )
            .optional()?)
    }
}
