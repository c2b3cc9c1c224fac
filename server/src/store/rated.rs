//! How a finished game moves ratings in the store: one Glicko-2 rating per player and
//! game kind (`ratings`), and a row per player per rated game (`rating_changes`: before,
//! after, the opponent's rating, the weight it counted with) from which profiles draw
//! their chart and best win, and the farming rule counts recent games between a pair.

use rusqlite::{Connection, OptionalExtension, params};

use banco_protocol::GameKind;

use super::rating::{self, FARMING_WINDOW_MS, Glicko};

/// The tables (schema version 7).
pub(super) const TABLES: &str = "
    CREATE TABLE IF NOT EXISTS ratings (
        player     INTEGER NOT NULL REFERENCES players(id),
        -- 'caro' or 'xiangqi'
        kind       TEXT NOT NULL,
        rating     REAL NOT NULL,
        deviation  REAL NOT NULL,
        volatility REAL NOT NULL,
        games      INTEGER NOT NULL DEFAULT 0,
        wins       INTEGER NOT NULL DEFAULT 0,
        losses     INTEGER NOT NULL DEFAULT 0,
        draws      INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (player, kind)
    );
    CREATE TABLE IF NOT EXISTS rating_changes (
        game            INTEGER NOT NULL REFERENCES games(id),
        player          INTEGER NOT NULL REFERENCES players(id),
        opponent        INTEGER NOT NULL REFERENCES players(id),
        kind            TEXT NOT NULL,
        -- 1 a win, 0.5 a draw, 0 a loss
        score           REAL NOT NULL,
        -- how much the game counted (the farming rule); 0 rows are never written
        weight          REAL NOT NULL,
        before          REAL NOT NULL,
        after           REAL NOT NULL,
        deviation       REAL NOT NULL,
        opponent_before REAL NOT NULL,
        at              INTEGER NOT NULL,
        PRIMARY KEY (game, player)
    );
    CREATE INDEX IF NOT EXISTS rating_changes_pair ON rating_changes (player, opponent, at);
    CREATE INDEX IF NOT EXISTS rating_changes_kind ON rating_changes (player, kind, game);
";

/// `player`'s rating at `kind` now (the start rating if they never played it rated).
pub(super) fn current(conn: &Connection, player: i64, kind: GameKind) -> rusqlite::Result<Glicko> {
    Ok(conn
        .prepare_cached(
            "SELECT rating, deviation, volatility FROM ratings WHERE player = ?1 AND kind = ?2",
        )?
        .query_row(params![player, kind.as_str()], |row| {
            Ok(Glicko {
                rating: row.get(0)?,
                deviation: row.get(1)?,
                volatility: row.get(2)?,
            })
        })
        .optional()?
        .unwrap_or_default())
}

/// Rates game `game` (already in `games`) of `kind` between players `one` and `two`, in
/// which `one` scored `score_one`, ended at `at` (ms). Returns whether it counted: the
/// farming rule may give it no weight, and then nothing changes. Games against the
/// server's bot are never farming (the bot plays every game for real): `people` says
/// both players are people.
pub(super) fn rate(
    conn: &Connection,
    game: i64,
    kind: GameKind,
    [one, two]: [i64; 2],
    score_one: f64,
    at: i64,
    people: bool,
) -> rusqlite::Result<bool> {
    if !people {
        return apply(conn, game, kind, [one, two], score_one, at, 1.0).map(|()| true);
    }
    let earlier: u32 = conn
        .prepare_cached(
            "SELECT count(*) FROM rating_changes
             WHERE player = ?1 AND opponent = ?2 AND at > ?3 AND at <= ?4",
        )?
        .query_row(params![one, two, at - FARMING_WINDOW_MS, at], |row| {
            row.get(0)
        })?;
    let weight = rating::weight(earlier + 1);
    if weight == 0.0 {
        return Ok(false);
    }
    apply(conn, game, kind, [one, two], score_one, at, weight).map(|()| true)
}

/// Writes both players' new ratings and their rating changes.
fn apply(
    conn: &Connection,
    game: i64,
    kind: GameKind,
    [one, two]: [i64; 2],
    score_one: f64,
    at: i64,
    weight: f64,
) -> rusqlite::Result<()> {
    let (a, b) = (current(conn, one, kind)?, current(conn, two, kind)?);
    let (a2, b2) = rating::update(a, b, score_one, weight);
    for (player, opponent, before, after, opp_before, score) in [
        (one, two, a, a2, b, score_one),
        (two, one, b, b2, a, 1.0 - score_one),
    ] {
        conn.prepare_cached(
            "INSERT INTO ratings (player, kind, rating, deviation, volatility, games, wins,
                losses, draws)
             VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6 = 1.0, ?6 = 0.0, ?6 = 0.5)
             ON CONFLICT (player, kind) DO UPDATE SET rating = ?3, deviation = ?4,
                volatility = ?5, games = games + 1, wins = wins + (?6 = 1.0),
                losses = losses + (?6 = 0.0), draws = draws + (?6 = 0.5)",
        )?
        .execute(params![
            player,
            kind.as_str(),
            after.rating,
            after.deviation,
            after.volatility,
            score
        ])?;
        conn.prepare_cached(
            "INSERT OR REPLACE INTO rating_changes (game, player, opponent, kind, score,
                weight, before, after, deviation, opponent_before, at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        )?
        .execute(params![
            game,
            player,
            opponent,
            kind.as_str(),
            score,
            weight,
            before.rating,
            after.rating,
            after.deviation,
            opp_before.rating,
            at
        ])?;
    }
    Ok(())
}

/// Rates every game in the records again from the start, in the order they ended, by
/// today's rules (Glicko-2 per game kind, both sides must have moved, the farming rule):
/// what an upgrade from Elo does. A game that no longer counts is marked unrated.
pub(super) fn rerate_all(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch("DELETE FROM rating_changes; DELETE FROM ratings;")?;
    type Row = (
        i64,
        String,
        i64,
        i64,
        Option<i64>,
        i64,
        i64,
        bool,
        bool,
        bool,
    );
    let games: Vec<Row> = {
        let mut stmt = conn.prepare(
            "SELECT g.id, g.game, g.player_one, g.player_two, g.winner, g.plies, g.ended_at,
                    p1.bot != '' OR substr(p1.name, 1, 1) != '~',
                    p2.bot != '' OR substr(p2.name, 1, 1) != '~',
                    p1.bot = '' AND p2.bot = ''
             FROM games g JOIN players p1 ON p1.id = g.player_one
                          JOIN players p2 ON p2.id = g.player_two
             WHERE g.rated = 1 ORDER BY g.ended_at, g.id",
        )?;
        stmt.query_map([], |row| {
            Ok((
                row.get(0)?,
                row.get(1)?,
                row.get(2)?,
                row.get(3)?,
                row.get(4)?,
                row.get(5)?,
                row.get(6)?,
                row.get(7)?,
                row.get(8)?,
                row.get(9)?,
            ))
        })?
        .collect::<Result<_, _>>()?
    };
    for (id, game, one, two, winner, plies, ended, one_ratable, two_ratable, people) in games {
        let kind = if game == "xiangqi" {
            GameKind::Xiangqi
        } else {
            GameKind::Caro
        };
        let score_one = match winner {
            Some(1) => 1.0,
            Some(2) => 0.0,
            _ => 0.5,
        };
        let counts = one != two
            && one_ratable
            && two_ratable
            && plies >= 2
            && rate(conn, id, kind, [one, two], score_one, ended, people)?;
        if !counts {
            conn.execute("UPDATE games SET rated = 0 WHERE id = ?1", [id])?;
        }
    }
    Ok(())
}
