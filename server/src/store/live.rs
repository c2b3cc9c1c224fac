//! Games in progress, kept so a restart (or a crash) loses nothing: each running game is
//! a JSON snapshot, replaced after every change and deleted when the game ends. On start
//! the server reads them back and reopens their rooms.

use rusqlite::{Connection, params};
use serde::{Deserialize, Serialize};

use banco_engine::bot::Level;
use banco_protocol::{Move, Point, ResumeToken, RoomSettings, Seat};

/// Who sits in a seat of a game in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum LiveSeat {
    /// A person, who gets the seat back by presenting `token` (their session's resume
    /// token) when they reconnect.
    Human {
        name: String,
        token: ResumeToken,
    },
    Bot(Level),
}

/// A game in progress, as much as it takes to carry on with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveGame {
    /// Identifies the game across restarts (random, chosen when it starts).
    pub key: u64,
    /// The room's settings, to reopen it as it was.
    pub settings: RoomSettings,
    /// By seat.
    pub seats: [LiveSeat; 2],
    /// The room's game number.
    pub number: u32,
    /// The seat to move at the start.
    pub first: Seat,
    /// Caro: the stones the game started from (the dealt one in a room with balanced
    /// openings). Snapshots saved before openings existed have none.
    #[serde(default)]
    pub opening: Vec<Point>,
    /// Every move so far, replayed through the rules on reopening.
    pub moves: Vec<Move>,
    /// Time left by seat, in milliseconds, when the snapshot was taken.
    pub clocks: Option<[u64; 2]>,
    /// Unix milliseconds.
    pub started_ms: u64,
}

pub fn save(conn: &Connection, game: &LiveGame, now_ms: u64) -> Result<(), String> {
    let snapshot = serde_json::to_string(game).map_err(|e| e.to_string())?;
    conn.execute(
        "INSERT INTO live_games (key, snapshot, saved_at) VALUES (?1, ?2, ?3)
         ON CONFLICT(key) DO UPDATE SET snapshot = ?2, saved_at = ?3",
        params![game.key as i64, snapshot, now_ms as i64],
    )
    .map_err(|e| e.to_string())?;
    Ok(())
}

pub fn delete(conn: &Connection, key: u64) -> rusqlite::Result<()> {
    conn.execute("DELETE FROM live_games WHERE key = ?1", [key as i64])?;
    Ok(())
}

/// Every saved game in progress, oldest first. A snapshot this version cannot read is
/// logged and dropped.
pub fn load(conn: &Connection) -> rusqlite::Result<Vec<LiveGame>> {
    let mut stmt = conn.prepare("SELECT key, snapshot FROM live_games ORDER BY saved_at")?;
    let rows: Vec<(i64, String)> = stmt
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let mut games = Vec::new();
    for (key, snapshot) in rows {
        match serde_json::from_str::<LiveGame>(&snapshot) {
            Ok(game) => games.push(game),
            Err(e) => {
                tracing::error!(key, error = %e, "a saved game in progress cannot be read; dropping it");
                delete(conn, key as u64)?;
            }
        }
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshots_round_trip_and_bad_ones_are_dropped() {
        let conn = Connection::open_in_memory().unwrap();
        super::super::schema::create(&conn).unwrap();
        let mut game = LiveGame {
            key: u64::MAX - 3,
            settings: RoomSettings::default(),
            seats: [
                LiveSeat::Human {
                    name: "An".into(),
                    token: ResumeToken([9; 16]),
                },
                LiveSeat::Bot(Level::Hard),
            ],
            number: 2,
            first: Seat::Two,
            opening: vec![Point::new(1, 1), Point::new(2, 2), Point::new(3, 1)],
            moves: vec![Move::Caro(Point::new(7, 7))],
            clocks: Some([1000, 2000]),
            started_ms: 5,
        };
        save(&conn, &game, 1).unwrap();
        game.moves.push(Move::Caro(Point::new(8, 8)));
        save(&conn, &game, 2).unwrap();
        conn.execute(
            "INSERT INTO live_games (key, snapshot, saved_at) VALUES (1, '{not json', 3)",
            [],
        )
        .unwrap();
        assert_eq!(load(&conn).unwrap(), vec![game.clone()]);
        assert_eq!(load(&conn).unwrap().len(), 1, "the bad row is gone");
        delete(&conn, game.key).unwrap();
        assert!(load(&conn).unwrap().is_empty());
    }

    #[test]
    fn snapshots_saved_before_openings_still_load() {
        let conn = Connection::open_in_memory().unwrap();
        super::super::schema::create(&conn).unwrap();
        let game = LiveGame {
            key: 5,
            settings: RoomSettings::default(),
            seats: [LiveSeat::Bot(Level::Easy), LiveSeat::Bot(Level::Hard)],
            number: 1,
            first: Seat::One,
            opening: Vec::new(),
            moves: vec![Move::Caro(Point::new(7, 7))],
            clocks: None,
            started_ms: 5,
        };
        // What an older server wrote: no opening in the snapshot or in its settings.
        let mut old = serde_json::to_value(&game).unwrap();
        old.as_object_mut().unwrap().remove("opening").unwrap();
        old["settings"]["game"]["caro"]
            .as_object_mut()
            .unwrap()
            .remove("opening")
            .unwrap();
        conn.execute(
            "INSERT INTO live_games (key, snapshot, saved_at) VALUES (5, ?1, 1)",
            [old.to_string()],
        )
        .unwrap();
        assert_eq!(load(&conn).unwrap(), vec![game]);
    }
}
