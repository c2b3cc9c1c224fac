//! Games in progress, read back when the server starts: each `live_games` row with its
//! events replayed in order (moves pushed, undos popped, the last clocks kept, chat lines
//! added). The server reopens their rooms and the players come back to them, with the
//! room's series score and chat as they saw them.

use rusqlite::Connection;
use serde::{Deserialize, Serialize};

use banco_protocol::{CHAT_HISTORY, ChatLine, Move, Point, RoomId, RoomSettings, Seat, Series};
use banco_rules::Level;

use super::archive::parse_points;
use super::journal::{self, GameRecord, PlayerRef, parse_move};
use super::matches::MatchLink;
use crate::token::TokenHash;
use crate::wall_clock::unix_ms;

/// Who sits in a seat of a game in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum LiveSeat {
    /// A person, who gets the seat back by presenting the resume token this is the hash
    /// of when they reconnect.
    Human {
        name: String,
        token: TokenHash,
    },
    Bot(Level),
}

/// A game in progress, as much as it takes to carry on with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveGame {
    /// Identifies the game across restarts (random, chosen when it starts).
    pub key: u64,
    /// The room's number, kept across a restart so people find it where they left it
    /// (0 for games saved before numbers were kept).
    pub room: RoomId,
    /// The room's settings, to reopen it as it was.
    pub settings: RoomSettings,
    /// By seat.
    pub seats: [LiveSeat; 2],
    /// The room's game number.
    pub number: u32,
    /// The seat to move at the start.
    pub first: Seat,
    /// Caro: the stones the game started from (the dealt ones in a room with balanced
    /// openings).
    pub opening: Vec<Point>,
    /// Every move so far, replayed through the rules on reopening.
    pub moves: Vec<Move>,
    /// Time left by seat, in milliseconds, as of the last event that carried them.
    pub clocks: Option<[u64; 2]>,
    /// The room's rematch score when the game began (the games before it; it changes
    /// only when a game ends, and then this game is no longer live).
    pub series: Series,
    /// The room's chat: the lines it held when the game began, then every line said
    /// since; read back, the newest [`CHAT_HISTORY`].
    pub chat: Vec<ChatLine>,
    /// Unix milliseconds.
    pub started_ms: u64,
    /// The number the game's next event gets.
    pub next_seq: u32,
    /// The match it is a game of, and its place in it.
    pub in_match: Option<MatchLink>,
}

impl LiveGame {
    /// Its record as an unfinished game, for one nobody will come back to (`why`:
    /// `restarted`).
    pub fn unfinished(&self, why: &str) -> GameRecord {
        let player = |seat: &LiveSeat| match seat {
            LiveSeat::Human { name, .. } => PlayerRef {
                name: name.clone(),
                bot: None,
            },
            LiveSeat::Bot(level) => PlayerRef {
                name: banco_protocol::bot_name(*level),
                bot: Some(*level),
            },
        };
        GameRecord {
            key: self.key,
            room: self.room,
            number: self.number,
            settings: self.settings.clone(),
            players: [player(&self.seats[0]), player(&self.seats[1])],
            first: self.first,
            opening: self.opening.clone(),
            moves: self.moves.clone(),
            winner: None,
            line: Vec::new(),
            reason: why.to_string(),
            rated: false,
            started_ms: self.started_ms,
            ended_ms: unix_ms(),
            in_match: self.in_match,
            // The live row keeps no opening phase (a restart plays it again).
            swap: None,
        }
    }

    /// Whether only bots play it.
    pub fn bots_only(&self) -> bool {
        self.seats.iter().all(|s| matches!(s, LiveSeat::Bot(_)))
    }
}

/// Every game in progress, oldest first. A game whose rows cannot be read is logged and
/// left where it is (never deleted: a later version may read it).
pub fn load(conn: &Connection) -> rusqlite::Result<Vec<LiveGame>> {
    let mut stmt = conn.prepare(
        "SELECT key, room, number, settings, seats, first_seat, opening, started_at, series,
            chat, match_key, match_game
         FROM live_games ORDER BY started_at, key",
    )?;
    type Row = (
        i64,
        i64,
        i64,
        String,
        String,
        i64,
        String,
        i64,
        String,
        String,
        Option<i64>,
        Option<i64>,
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
    let mut games = Vec::new();
    for (
        key,
        room,
        number,
        settings,
        seats,
        first,
        opening,
        started,
        series,
        chat,
        in_match,
        match_game,
    ) in rows
    {
        let read = || -> Result<LiveGame, String> {
            let settings: RoomSettings =
                serde_json::from_str(&settings).map_err(|e| format!("settings: {e}"))?;
            let seats: [LiveSeat; 2] =
                serde_json::from_str(&seats).map_err(|e| format!("seats: {e}"))?;
            let opening = parse_points(&opening).ok_or("the opening cannot be read")?;
            let series = parse_series(&series).ok_or("the series score cannot be read")?;
            let chat = parse_chat(&chat).map_err(|e| format!("chat: {e}"))?;
            let mut game = LiveGame {
                key: key as u64,
                room: RoomId::try_from(room).unwrap_or(0),
                settings,
                seats,
                number: u32::try_from(number).unwrap_or(1),
                first: if first == 2 { Seat::Two } else { Seat::One },
                opening,
                moves: Vec::new(),
                clocks: None,
                series,
                chat,
                started_ms: u64::try_from(started).unwrap_or(0),
                next_seq: 0,
                in_match: in_match.map(|key| MatchLink {
                    key: key as u64,
                    game: match_game.and_then(|g| u32::try_from(g).ok()).unwrap_or(1),
                }),
            };
            replay_events(conn, &mut game).map_err(|e| format!("events: {e}"))?;
            let extra = game.chat.len().saturating_sub(CHAT_HISTORY);
            game.chat.drain(..extra);
            Ok(game)
        };
        match read() {
            Ok(game) => games.push(game),
            Err(why) => {
                tracing::error!(key, %why, "a game in progress cannot be read; it is kept but not reopened");
            }
        }
    }
    Ok(games)
}

/// Folds the game's events into its moves and clocks.
fn replay_events(conn: &Connection, game: &mut LiveGame) -> Result<(), String> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT seq, kind, data, clocks FROM live_events WHERE game = ?1 ORDER BY seq",
        )
        .map_err(|e| e.to_string())?;
    let mut rows = stmt.query([game.key as i64]).map_err(|e| e.to_string())?;
    while let Some(row) = rows.next().map_err(|e| e.to_string())? {
        let read = |i| row.get::<_, String>(i).map_err(|e| e.to_string());
        let seq: i64 = row.get(0).map_err(|e| e.to_string())?;
        let (kind, data, clocks) = (read(1)?, read(2)?, read(3)?);
        match kind.as_str() {
            "move" => {
                let mv = parse_move(&game.settings.game, &data)
                    .ok_or_else(|| format!("event {seq}: the move '{data}' cannot be read"))?;
                game.moves.push(mv);
            }
            "undo" => {
                let plies: usize = data
                    .parse()
                    .map_err(|_| format!("event {seq}: '{data}' is not a number of plies"))?;
                game.moves.truncate(game.moves.len().saturating_sub(plies));
            }
            "clocks" => {}
            "chat" => {
                let line = serde_json::from_str::<StoredLine>(&data)
                    .map_err(|e| format!("event {seq}: a chat line cannot be read: {e}"))?;
                game.chat.push(line.into());
            }
            other => return Err(format!("event {seq}: unknown kind '{other}'")),
        }
        if !clocks.is_empty() {
            game.clocks = Some(
                parse_clocks(&clocks).ok_or_else(|| format!("event {seq}: clocks '{clocks}'"))?,
            );
        }
        game.next_seq = u32::try_from(seq + 1).unwrap_or(u32::MAX);
    }
    Ok(())
}

fn parse_clocks(text: &str) -> Option<[u64; 2]> {
    let (a, b) = text.split_once(',')?;
    Some([a.trim().parse().ok()?, b.trim().parse().ok()?])
}

/// A series score as the store keeps it: `wins of seat one,wins of seat two,draws`.
pub(super) fn series_text(series: &Series) -> String {
    let [one, two] = series.wins;
    format!("{one},{two},{}", series.draws)
}

/// The series score in `text`; `''` (a game begun before version 9) is 0-0.
fn parse_series(text: &str) -> Option<Series> {
    if text.is_empty() {
        return Some(Series::default());
    }
    let mut numbers = text.split(',').map(|n| n.trim().parse::<u32>().ok());
    let series = Series {
        wins: [numbers.next()??, numbers.next()??],
        draws: numbers.next()??,
    };
    numbers.next().is_none().then_some(series)
}

/// A chat line as the store keeps it (JSON), in a form of its own, so a change to the
/// wire's form never makes a stored line unreadable.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct StoredLine {
    /// Who said it, as shown.
    from: String,
    /// What they said.
    text: String,
    /// When the server heard it, Unix milliseconds.
    at: u64,
}

impl From<&ChatLine> for StoredLine {
    fn from(line: &ChatLine) -> StoredLine {
        StoredLine {
            from: line.from.clone(),
            text: line.text.clone(),
            at: line.at_ms,
        }
    }
}

impl From<StoredLine> for ChatLine {
    fn from(line: StoredLine) -> ChatLine {
        ChatLine {
            from: line.from,
            text: line.text,
            at_ms: line.at,
        }
    }
}

/// A chat line as a `chat` event's data.
pub(super) fn line_text(line: &ChatLine) -> String {
    // Plain strings and a number always serialise.
    serde_json::to_string(&StoredLine::from(line)).unwrap_or_default()
}

/// Chat lines as the `chat` column keeps them: a JSON array.
pub(super) fn chat_text(lines: &[ChatLine]) -> String {
    let lines: Vec<StoredLine> = lines.iter().map(StoredLine::from).collect();
    serde_json::to_string(&lines).unwrap_or_default()
}

/// The chat lines in `text`; `''` (a game begun before version 9) is none.
pub(super) fn parse_chat(text: &str) -> Result<Vec<ChatLine>, serde_json::Error> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let lines: Vec<StoredLine> = serde_json::from_str(text)?;
    Ok(lines.into_iter().map(ChatLine::from).collect())
}

/// Closes the games only bots were playing when the server stopped: nobody will come
/// back to them, so each is kept as unfinished (`restarted`), in one transaction.
pub fn close_bot_games(conn: &mut Connection, games: &mut Vec<LiveGame>) -> rusqlite::Result<()> {
    let (bots, people): (Vec<LiveGame>, Vec<LiveGame>) = std::mem::take(games)
        .into_iter()
        .partition(LiveGame::bots_only);
    *games = people;
    if bots.is_empty() {
        return Ok(());
    }
    let tx = conn.transaction()?;
    for game in &bots {
        journal::Entry::End(Box::new(game.unfinished("restarted"))).write(&tx)?;
    }
    tx.commit()?;
    tracing::info!(games = bots.len(), "games between bots kept as unfinished");
    Ok(())
}
