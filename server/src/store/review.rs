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
