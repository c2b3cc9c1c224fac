//! Engine reviews of finished games, kept with the game so asking again costs nothing:
//! one row per game, the review as JSON (the protocol's own [`GameReview`], so what is
//! stored is exactly what clients are sent).

use rusqlite::{Connection, OptionalExtension, params};

use banco_protocol::{GameId, GameReview};

use super::StoreError;

/// The stored review of game `id`, if any. A row that no longer reads (written by
/// another version) counts as none: the game is simply reviewed again.
pub fn find(conn: &Connection, id: GameId) -> Result<Option<GameReview>, StoreError> {
    let json: Option<String> = conn
        .prepare_cached("SELECT review FROM reviews WHERE game = ?1")?
        .query_row([id as i64], |row| row.get(0))
        .optional()?;
    Ok(json.and_then(|j| match serde_json::from_str(&j) {
        Ok(review) => Some(review),
        Err(e) => {
            tracing::warn!(game = id, error = %e, "a stored review cannot be read; the game is reviewed again");
            None
        }
    }))
}

/// Stores (or replaces) the review of its game.
pub fn save(conn: &Connection, review: &GameReview, now_ms: i64) -> rusqlite::Result<()> {
    let json = serde_json::to_string(review)
        .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
    conn.prepare_cached(
        "INSERT INTO reviews (game, budget_ms, review, made_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(game) DO UPDATE SET budget_ms = ?2, review = ?3, made_at = ?4",
    )?
    .execute(params![review.game as i64, review.budget_ms, json, now_ms])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_protocol::{PlayerReview, Seat};

    fn made(game: GameId, budget_ms: u32) -> GameReview {
        GameReview {
            game,
            first: Seat::One,
            start_chances: 500,
            plies: Vec::new(),
            players: [PlayerReview::default(); 2],
            budget_ms,
        }
    }

    #[test]
    fn a_review_is_kept_by_game_and_a_newer_one_replaces_it() {
        let mut conn = Connection::open_in_memory().unwrap();
        super::super::schema::create(&mut conn).unwrap();
        assert_eq!(find(&conn, 3).unwrap(), None);
        save(&conn, &made(3, 100), 1).unwrap();
        save(&conn, &made(4, 100), 1).unwrap();
        assert_eq!(find(&conn, 3).unwrap(), Some(made(3, 100)));
        save(&conn, &made(3, 500), 2).unwrap();
        assert_eq!(find(&conn, 3).unwrap(), Some(made(3, 500)));
        // A row another version wrote and this one cannot read: reviewed again.
        conn.execute("UPDATE reviews SET review = '{' WHERE game = 4", [])
            .unwrap();
        assert_eq!(find(&conn, 4).unwrap(), None);
    }

    #[test]
    fn a_version_7_file_gains_the_reviews_table() {
        let mut conn = Connection::open_in_memory().unwrap();
        super::super::schema::create(&mut conn).unwrap();
        conn.execute_batch("DROP TABLE reviews; PRAGMA user_version = 7;")
            .unwrap();
        super::super::schema::create(&mut conn).unwrap();
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, super::super::schema::VERSION);
        save(&conn, &made(1, 100), 1).unwrap();
        assert!(find(&conn, 1).unwrap().is_some());
    }
}
