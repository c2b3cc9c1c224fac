//! Someone's record as the profile screen ("My info", seed 001) shows it: who they are
//! and, per game kind, their rating, place, results, best win and rating history.

use rusqlite::{Connection, OptionalExtension, params};

use banco_protocol::{BestWin, GameKind, KindRecord, Level, Profile, RatingPoint};

use super::StoreError;
use super::accounts;
use super::archive::history;
use super::rating::{Glicko, PROVISIONAL};
use banco_protocol::bot_name;

/// Points of the rating chart kept per game kind: the newest.
const CHART_POINTS: usize = 300;

/// Newest games listed.
const RECENT: usize = 10;

/// The record of the person `name` (any case), or of the server's bot at `bot`; `None`
/// if nobody by that name has played here or registered.
pub fn profile(
    conn: &Connection,
    name: &str,
    bot: Option<Level>,
) -> Result<Option<Profile>, StoreError> {
    let (name, level) = match bot {
        Some(level) => (bot_name(level), level.name()),
        None => (name.to_string(), ""),
    };
    let player: Option<(i64, String, i64)> = conn
        .prepare_cached(
            "SELECT id, name, first_seen FROM players
             WHERE name = ?1 COLLATE NOCASE AND bot = ?2 ORDER BY id LIMIT 1",
        )?
        .query_row(params![name, level], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?))
        })
        .optional()?;
    let account = match bot {
        Some(_) => None,
        None => accounts::find(conn, &name)?,
    };
    let (id, shown, first_seen) = match (player, &account) {
        (Some(p), _) => (Some(p.0), p.1, p.2),
        // Registered, never played yet.
        (None, Some(a)) => (None, a.name.clone(), a.registered_ms),
        (None, None) => return Ok(None),
    };
    let mut games = Vec::new();
    for kind in GameKind::ALL {
        games.push(match id {
            Some(id) => KindRecord {
                matches: super::matches::tally(conn, id, kind)?,
                ..kind_record(conn, id, kind)?
            },
            None => empty(kind),
        });
    }
    let recent = history(conn, Some(&shown), RECENT)?;
    Ok(Some(Profile {
        name: shown,
        bot,
        bot_account: account.as_ref().is_some_and(|a| a.bot),
        registered_at_ms: account.map(|a| u64::try_from(a.registered_ms).unwrap_or(0)),
        first_seen_ms: u64::try_from(first_seen).unwrap_or(0),
        games,
        recent,
    }))
}

fn empty(kind: GameKind) -> KindRecord {
    KindRecord {
        game: kind,
        rating: Glicko::default().to_wire(),
        rank: None,
        games: 0,
        wins: 0,
        losses: 0,
        draws: 0,
        best_win: None,
        history: Vec::new(),
        matches: Default::default(),
    }
}

fn kind_record(conn: &Connection, player: i64, kind: GameKind) -> Result<KindRecord, StoreError> {
    let row: Option<(Glicko, u32, u32, u32, u32)> = conn
        .prepare_cached(
            "SELECT rating, deviation, volatility, games, wins, losses, draws FROM ratings
             WHERE player = ?1 AND kind = ?2",
        )?
        .query_row(params![player, kind.as_str()], |row| {
            Ok((
                Glicko {
                    rating: row.get(0)?,
                    deviation: row.get(1)?,
                    volatility: row.get(2)?,
                },
                row.get(3)?,
                row.get(4)?,
                row.get(5)?,
                row.get(6)?,
            ))
        })
        .optional()?;
    let Some((rating, games, wins, losses, draws)) = row else {
        return Ok(empty(kind));
    };
    // Places are for settled ratings only: a provisional one is not ranked yet. One rule
    // for the profile and the leaderboard (whose clients number its rows by it): 1 + the
    // settled ratings higher as shown (rounded), so equal ratings share a place.
    let rank = if rating.provisional() || games == 0 {
        None
    } else {
        let above: u32 = conn
            .prepare_cached(
                "SELECT count(*) FROM ratings
                 WHERE kind = ?1 AND games > 0 AND deviation <= ?2
                   AND round(rating) > round(?3)",
            )?
            .query_row(params![kind.as_str(), PROVISIONAL, rating.rating], |row| {
                row.get(0)
            })?;
        Some(above + 1)
    };
    let best_win = conn
        .prepare_cached(
            "SELECT c.game, p.name, c.opponent_before, c.at FROM rating_changes c
             JOIN players p ON p.id = c.opponent
             WHERE c.player = ?1 AND c.kind = ?2 AND c.score = 1.0
             ORDER BY c.opponent_before DESC, c.game LIMIT 1",
        )?
        .query_row(params![player, kind.as_str()], |row| {
            let game: i64 = row.get(0)?;
            let rating: f64 = row.get(2)?;
            let at: i64 = row.get(3)?;
            Ok(BestWin {
                game: u64::try_from(game).unwrap_or(0),
                opponent: row.get(1)?,
                opponent_rating: rating.round() as i32,
                ended_at_ms: u64::try_from(at).unwrap_or(0),
            })
        })
        .optional()?;
    let point = |at: i64, rating: f64, deviation: f64| RatingPoint {
        at_ms: u64::try_from(at).unwrap_or(0),
        rating: rating.round() as i32,
        deviation: deviation.round().clamp(0.0, f64::from(u16::MAX)) as u16,
    };
    let rows: Vec<(i64, f64, f64, f64)> = conn
        .prepare_cached(
            "SELECT at, after, deviation, before FROM rating_changes
             WHERE player = ?1 AND kind = ?2 ORDER BY game DESC LIMIT ?3",
        )?
        .query_map(params![player, kind.as_str(), CHART_POINTS as i64], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
        })?
        .collect::<Result<_, _>>()?;
    let mut history: Vec<RatingPoint> = Vec::with_capacity(rows.len() + 1);
    // The whole story fits: it starts from the rating before the first rated game (the
    // start rating), so one game already draws a rise or a fall.
    if let Some(&(at, _, _, before)) = rows.last().filter(|_| rows.len() < CHART_POINTS) {
        history.push(point(at, before, Glicko::default().deviation));
    }
    history.extend(
        rows.iter()
            .rev()
            .map(|&(at, after, dev, _)| point(at, after, dev)),
    );
    Ok(KindRecord {
        game: kind,
        rating: rating.to_wire(),
        rank,
        games,
        wins,
        losses,
        draws,
        best_win,
        history,
        matches: Default::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The profile's place is the leaderboard's: settled ratings only, ties (as shown)
    /// sharing a place.
    #[test]
    fn the_profiles_place_is_the_leaderboards() {
        let mut conn = Connection::open_in_memory().unwrap();
        super::super::schema::create(&mut conn).unwrap();
        // (name, rating, deviation): two settled ratings shown alike (1700), one below,
        // one provisional above them all.
        let players = [
            ("An", 1700.4, 60.0),
            ("Bình", 1699.6, 60.0),
            ("Cúc", 1650.0, 80.0),
            ("Dũng", 1800.0, 200.0),
        ];
        for (id, (name, rating, deviation)) in players.iter().enumerate() {
            conn.execute(
                "INSERT INTO players (id, name, first_seen, last_seen) VALUES (?1, ?2, 0, 0)",
                params![id as i64 + 1, name],
            )
            .unwrap();
            conn.execute(
                "INSERT INTO ratings (player, kind, rating, deviation, volatility, games)
                 VALUES (?1, 'caro', ?2, ?3, 0.06, 12)",
                params![id as i64 + 1, rating, deviation],
            )
            .unwrap();
        }
        let board = super::super::archive::leaderboard(&conn, GameKind::Caro, 10).unwrap();
        let names: Vec<&str> = board.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["An", "Bình", "Cúc", "Dũng"]);
        let rank = |id: i64| kind_record(&conn, id, GameKind::Caro).unwrap().rank;
        assert_eq!(
            [rank(1), rank(2), rank(3), rank(4)],
            [Some(1), Some(1), Some(3), None]
        );
    }
}
