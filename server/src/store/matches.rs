//! Matches in the store: a row in `matches` per match, from its first game to its result,
//! and a row in `live_matches` while it runs.
//!
//! - [`LiveMatch`]: a match being played, as much as a restart needs to carry on with it
//!   (also when the server stops between two of its games); [`load`] reads them back.
//! - [`MatchLink`]: a game's match and its place in it, kept with the game (live and
//!   finished), so the history says "game 3 of match #12".
//! - [`MatchEnding`]: a match's result, written when it ends.
//! - The writes ([`begin`], [`pause`], [`end`]) are idempotent, like every entry's: a
//!   retried batch never writes anything twice.
//! - The reads: a game's match for the history and replays ([`match_game`]), a player's
//!   matches won, lost and drawn for the profile ([`tally`]).

use rusqlite::{Connection, OptionalExtension, Transaction, params};

use banco_protocol::{
    ChatLine, GameKind, MatchEnd, MatchFormat, MatchGame, MatchResult, MatchTally, RoomId,
    RoomSettings, Seat, Series,
};

use super::journal::{PlayerRef, player_id, seat_number};
use super::live::{LiveSeat, chat_text, parse_chat};
use crate::wall_clock::unix_ms;

/// A game's match and its place in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchLink {
    /// The match's key ([`LiveMatch::key`]).
    pub key: u64,
    /// Which game of the match, from 1 (a game with no result and the one that replays it
    /// share a number).
    pub game: u32,
}

/// A match being played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveMatch {
    /// Identifies the match across restarts (random, chosen when it begins).
    pub key: u64,
    /// The room it is played in, kept across a restart like a game's.
    pub room: RoomId,
    /// The room's matches so far, this one included.
    pub number: u32,
    /// The room's settings, its match format included.
    pub settings: RoomSettings,
    /// By seat, as of its beginning or its last break.
    pub seats: [LiveSeat; 2],
    /// The seat that moves first in the match's odd games.
    pub opener: Seat,
    /// Its games with a result so far.
    pub score: Series,
    /// The room's number of the last game begun (the next is one more).
    pub last_game: u32,
    /// The room's chat as of its last break (a game in progress keeps its own).
    pub chat: Vec<ChatLine>,
    /// Unix milliseconds.
    pub started_ms: u64,
}

impl LiveMatch {
    /// Whether only bots play it.
    pub fn bots_only(&self) -> bool {
        self.seats.iter().all(|s| matches!(s, LiveSeat::Bot(_)))
    }

    /// Its match format (a match whose settings lost theirs is one game).
    pub fn format(&self) -> MatchFormat {
        self.settings.match_format.unwrap_or(MatchFormat {
            games: 1,
            first_to: None,
        })
    }

    /// The players as the records name them.
    pub fn players(&self) -> [PlayerRef; 2] {
        self.seats.clone().map(|seat| match seat {
            LiveSeat::Human { name, .. } => PlayerRef { name, bot: None },
            LiveSeat::Bot(level) => PlayerRef {
                name: banco_protocol::bot_name(level),
                bot: Some(level),
            },
        })
    }
}

/// How a match ended, to be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchEnding {
    /// The match's key.
    pub key: u64,
    /// `None`: drawn, or never finished.
    pub winner: Option<Seat>,
    /// Its final score.
    pub score: Series,
    /// A [`MatchEnd`]'s name, or `unfinished`.
    pub reason: String,
    /// Unix milliseconds.
    pub ended_ms: u64,
}

impl MatchEnding {
    /// The ending of a match that ended as `result` says.
    pub fn of(key: u64, result: &MatchResult) -> MatchEnding {
        MatchEnding {
            key,
            winner: result.winner,
            score: result.score,
            reason: result.reason.as_str().to_string(),
            ended_ms: unix_ms(),
        }
    }
}

/// A match begins: its record, and its live row.
pub(super) fn begin(tx: &Transaction<'_>, m: &LiveMatch) -> rusqlite::Result<()> {
    let started = m.started_ms as i64;
    let players = m.players();
    let one = player_id(tx, &players[0], started)?;
    let two = player_id(tx, &players[1], started)?;
    // Settings always serialise (plain data).
    let settings = serde_json::to_string(&m.settings).unwrap_or_default();
    tx.prepare_cached(
        "INSERT OR IGNORE INTO matches (key, room, number, game, settings, player_one,
            player_two, first_seat, started_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?
    .execute(params![
        m.key as i64,
        m.room,
        m.number,
        GameKind::of(&m.settings.game).as_str(),
        settings,
        one,
        two,
        seat_number(m.opener),
        started,
    ])?;
    pause(tx, m)
}

/// A match between two games (or its chat, said between them): its score, and its live
/// row as it stands.
pub(super) fn pause(tx: &Transaction<'_>, m: &LiveMatch) -> rusqlite::Result<()> {
    let [one, two] = m.score.wins;
    tx.prepare_cached(
        "UPDATE matches SET wins_one = ?2, wins_two = ?3, draws = ?4
         WHERE key = ?1 AND ended_at IS NULL",
    )?
    .execute(params![m.key as i64, one, two, m.score.draws])?;
    // Seats always serialise (plain data).
    let seats = serde_json::to_string(&m.seats).unwrap_or_default();
    tx.prepare_cached(
        "INSERT OR REPLACE INTO live_matches (key, seats, last_game, chat)
         SELECT ?1, ?2, ?3, ?4 WHERE EXISTS
             (SELECT 1 FROM matches WHERE key = ?1 AND ended_at IS NULL)",
    )?
    .execute(params![
        m.key as i64,
        seats,
        m.last_game,
        chat_text(&m.chat)
    ])?;
    Ok(())
}

/// A match ends: its result; its live row goes.
pub(super) fn end(tx: &Transaction<'_>, ending: &MatchEnding) -> rusqlite::Result<()> {
    let [one, two] = ending.score.wins;
    tx.prepare_cached(
        "UPDATE matches SET wins_one = ?2, wins_two = ?3, draws = ?4, winner = ?5, reason = ?6,
            ended_at = ?7
         WHERE key = ?1 AND ended_at IS NULL",
    )?
    .execute(params![
        ending.key as i64,
        one,
        two,
        ending.score.draws,
        ending.winner.map(seat_number),
        ending.reason,
        ending.ended_ms as i64,
    ])?;
    tx.prepare_cached("DELETE FROM live_matches WHERE key = ?1")?
        .execute([ending.key as i64])?;
    Ok(())
}

/// Every match being played when the store was last closed, oldest first. One whose rows
/// cannot be read is logged and left where it is.
pub fn load(conn: &Connection) -> rusqlite::Result<Vec<LiveMatch>> {
    let mut stmt = conn.prepare(
        "SELECT m.key, m.room, m.number, m.settings, m.first_seat, m.wins_one, m.wins_two,
            m.draws, m.started_at, l.seats, l.last_game, l.chat
         FROM matches m JOIN live_matches l ON l.key = m.key
         WHERE m.ended_at IS NULL ORDER BY m.started_at, m.key",
    )?;
    type Row = (
        i64,
        i64,
        i64,
        String,
        i64,
        u32,
        u32,
        u32,
        i64,
        String,
        i64,
        String,
    );
    let rows: Vec<Row> = stmt
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
                r.get(7)?,
                r.get(8)?,
                r.get(9)?,
                r.get(10)?,
                r.get(11)?,
            ))
        })?
        .collect::<Result<_, _>>()?;
    let mut out = Vec::new();
    for (key, room, number, settings, first, one, two, draws, started, seats, last, chat) in rows {
        let read = || -> Result<LiveMatch, String> {
            Ok(LiveMatch {
                key: key as u64,
                room: RoomId::try_from(room).unwrap_or(0),
                number: u32::try_from(number).unwrap_or(1),
                settings: serde_json::from_str(&settings).map_err(|e| format!("settings: {e}"))?,
                seats: serde_json::from_str(&seats).map_err(|e| format!("seats: {e}"))?,
                opener: if first == 2 { Seat::Two } else { Seat::One },
                score: Series {
                    wins: [one, two],
                    draws,
                },
                last_game: u32::try_from(last).unwrap_or(0),
                chat: parse_chat(&chat).map_err(|e| format!("chat: {e}"))?,
                started_ms: u64::try_from(started).unwrap_or(0),
            })
        };
        match read() {
            Ok(m) => out.push(m),
            Err(why) => {
                tracing::error!(key, %why, "a match in progress cannot be read; it is kept but not reopened");
            }
        }
    }
    Ok(out)
}

/// Closes the matches only bots were playing when the server stopped, as unfinished:
/// nobody will come back to them.
pub fn close_bot_matches(conn: &mut Connection, live: &mut Vec<LiveMatch>) -> rusqlite::Result<()> {
    let (bots, people): (Vec<LiveMatch>, Vec<LiveMatch>) = std::mem::take(live)
        .into_iter()
        .partition(LiveMatch::bots_only);
    *live = people;
    if bots.is_empty() {
        return Ok(());
    }
    let tx = conn.transaction()?;
    for m in &bots {
        end(
            &tx,
            &MatchEnding {
                key: m.key,
                winner: None,
                score: m.score,
                reason: "unfinished".into(),
                ended_ms: unix_ms(),
            },
        )?;
    }
    tx.commit()?;
    tracing::info!(
        matches = bots.len(),
        "matches between bots kept as unfinished"
    );
    Ok(())
}

/// The match of stored game `id` ("game 3 of match #12") and, if it has ended, how.
pub(super) fn match_game(conn: &Connection, id: i64) -> rusqlite::Result<Option<MatchGame>> {
    let row = conn
        .prepare_cached(
            "SELECT m.id, g.match_game, m.settings, m.wins_one, m.wins_two, m.draws, m.winner,
                m.reason, m.ended_at
             FROM games g JOIN matches m ON m.id = g.match_id
             WHERE g.id = ?1",
        )?
        .query_row([id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, Option<i64>>(1)?,
                r.get::<_, String>(2)?,
                [r.get::<_, u32>(3)?, r.get::<_, u32>(4)?],
                r.get::<_, u32>(5)?,
                r.get::<_, Option<i64>>(6)?,
                r.get::<_, String>(7)?,
                r.get::<_, Option<i64>>(8)?,
            ))
        })
        .optional()?;
    let Some((match_id, game, settings, wins, draws, winner, reason, ended)) = row else {
        return Ok(None);
    };
    let format = serde_json::from_str::<RoomSettings>(&settings)
        .ok()
        .and_then(|s| s.match_format)
        .unwrap_or(MatchFormat {
            games: 1,
            first_to: None,
        });
    let result = ended
        .and_then(|_| MatchEnd::from_name(&reason))
        .map(|reason| MatchResult {
            winner: match winner {
                Some(1) => Some(Seat::One),
                Some(2) => Some(Seat::Two),
                _ => None,
            },
            score: Series { wins, draws },
            reason,
        });
    Ok(Some(MatchGame {
        id: match_id as u64,
        game: game.and_then(|g| u32::try_from(g).ok()).unwrap_or(1),
        format,
        result,
    }))
}

/// The matches of `kind` the player `player` (a `players` row) finished: won, lost and
/// drawn (unfinished ones, and ones both players walked away from, left out).
pub(super) fn tally(
    conn: &Connection,
    player: i64,
    kind: GameKind,
) -> rusqlite::Result<MatchTally> {
    let (won, lost, drawn) = conn
        .prepare_cached(
            "SELECT
                 coalesce(sum((player_one = ?1 AND winner = 1) OR (player_two = ?1 AND winner = 2)), 0),
                 coalesce(sum((player_one = ?1 AND winner = 2) OR (player_two = ?1 AND winner = 1)), 0),
                 coalesce(sum(winner IS NULL AND reason = 'decided'), 0)
             FROM matches
             WHERE (player_one = ?1 OR player_two = ?1) AND game = ?2
               AND ended_at IS NOT NULL AND reason != 'unfinished'",
        )?
        .query_row(params![player, kind.as_str()], |r| {
            Ok((r.get::<_, u32>(0)?, r.get::<_, u32>(1)?, r.get::<_, u32>(2)?))
        })?;
    Ok(MatchTally { won, lost, drawn })
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_protocol::Level;

    fn open() -> Connection {
        let mut conn = Connection::open_in_memory().unwrap();
        super::super::schema::create(&mut conn).unwrap();
        conn
    }

    fn live(key: u64) -> LiveMatch {
        LiveMatch {
            key,
            room: 3,
            number: 1,
            settings: RoomSettings {
                match_format: Some(MatchFormat {
                    games: 9,
                    first_to: Some(5),
                }),
                ..RoomSettings::default()
            },
            seats: [
                LiveSeat::Human {
                    name: "An".into(),
                    token: crate::token::TokenHash([1; 32]),
                },
                LiveSeat::Bot(Level::Easy),
            ],
            opener: Seat::Two,
            score: Series::default(),
            last_game: 1,
            chat: Vec::new(),
            started_ms: 1_000,
        }
    }

    #[test]
    fn a_match_is_live_until_it_ends_and_written_once_however_often_retried() {
        let mut conn = open();
        let mut m = live(7);
        let tx = conn.transaction().unwrap();
        begin(&tx, &m).unwrap();
        begin(&tx, &m).unwrap();
        m.score.count(Some(Seat::One));
        m.last_game = 2;
        m.chat.push(ChatLine {
            from: "An".into(),
            text: "gg".into(),
            at_ms: 5,
        });
        pause(&tx, &m).unwrap();
        tx.commit().unwrap();
        assert_eq!(load(&conn).unwrap(), vec![m.clone()]);

        let ending = MatchEnding {
            key: 7,
            winner: Some(Seat::One),
            score: Series {
                wins: [5, 2],
                draws: 0,
            },
            reason: "decided".into(),
            ended_ms: 9_000,
        };
        let tx = conn.transaction().unwrap();
        end(&tx, &ending).unwrap();
        // A retried batch: the match stays as it ended, and nothing comes back to life.
        pause(&tx, &m).unwrap();
        end(&tx, &ending).unwrap();
        tx.commit().unwrap();
        assert!(load(&conn).unwrap().is_empty());
        let (count, one, reason): (i64, u32, String) = conn
            .query_row("SELECT count(*), wins_one, reason FROM matches", [], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .unwrap();
        assert_eq!((count, one, reason.as_str()), (1, 5, "decided"));
        let an: i64 = conn
            .query_row("SELECT id FROM players WHERE name = 'An'", [], |r| r.get(0))
            .unwrap();
        assert_eq!(
            tally(&conn, an, GameKind::Caro).unwrap(),
            MatchTally {
                won: 1,
                lost: 0,
                drawn: 0
            }
        );
        assert_eq!(
            tally(&conn, an, GameKind::Xiangqi).unwrap(),
            MatchTally::default()
        );
    }

    #[test]
    fn matches_only_bots_played_are_closed_as_unfinished() {
        let mut conn = open();
        let mut bots = live(8);
        bots.seats = [LiveSeat::Bot(Level::Easy), LiveSeat::Bot(Level::Hard)];
        let people = live(9);
        let tx = conn.transaction().unwrap();
        begin(&tx, &bots).unwrap();
        begin(&tx, &people).unwrap();
        tx.commit().unwrap();
        let mut all = load(&conn).unwrap();
        close_bot_matches(&mut conn, &mut all).unwrap();
        assert_eq!(all, vec![people.clone()]);
        assert_eq!(load(&conn).unwrap(), vec![people]);
        let reason: String = conn
            .query_row("SELECT reason FROM matches WHERE key = 8", [], |r| r.get(0))
            .unwrap();
        assert_eq!(reason, "unfinished");
    }
}
