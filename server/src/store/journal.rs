//! What rooms write: the game log's entries, and how each one lands in SQLite.
//!
//! A game in progress is a row in `live_games` (written when it begins, with the room's
//! series score and chat so far) and a row per event in `live_events` (a move, an undo,
//! the clocks at a pause, a chat line), appended and never
//! rewritten, so the cost of a move does not grow with the game. When the game ends, one
//! transaction writes its finished record into `games`, its players' results and
//! ratings, and removes its live rows: a game is either running or finished, never both
//! and never neither, whatever moment the process dies at.
//!
//! Every write is idempotent (keyed by the game's key and the event's number), so a batch
//! that is retried after a failure never writes anything twice.

use rusqlite::{OptionalExtension, Transaction, params};
use std::str::FromStr;

use banco_protocol::convert::to_wire;
use banco_protocol::{ChatLine, GameKind, GameSettings, Move, Point, RoomId, RoomSettings, Seat};
use banco_rules::Level;
use banco_rules::game::Move as RulesMove;
use banco_rules::xiangqi;

use super::live::{self, LiveGame};
use super::matches::{self, LiveMatch, MatchEnding, MatchLink};
use super::rated;

/// Who played a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerRef {
    /// As the player was known on the server.
    pub name: String,
    /// `Some` for the server's bot: bots have accounts (and ratings) of their own.
    pub bot: Option<Level>,
}

impl PlayerRef {
    /// A bot or a logged-in account: not a guest.
    pub fn ratable(&self) -> bool {
        self.bot.is_some() || !banco_protocol::is_guest(&self.name)
    }
}

/// A game to keep for good: finished, or given up unfinished.
#[derive(Debug, Clone)]
pub struct GameRecord {
    /// The game's key while it was live (its `live_games` row goes with this record).
    pub key: u64,
    /// The room it was played in.
    pub room: RoomId,
    /// The room's game number.
    pub number: u32,
    /// Game, board, rule and time control.
    pub settings: RoomSettings,
    /// By seat.
    pub players: [PlayerRef; 2],
    /// The seat to move at the start.
    pub first: Seat,
    /// Caro: the stones the game started from, X first. Empty otherwise.
    pub opening: Vec<Point>,
    /// Every move after the opening, in order.
    pub moves: Vec<Move>,
    /// `None` for a draw or an unfinished game.
    pub winner: Option<Seat>,
    /// Caro: the winning line, for replays to highlight. Empty otherwise.
    pub line: Vec<Point>,
    /// How it ended (`five`, `timeout`, ...) or why it did not (`restarted`, `shutdown`).
    pub reason: String,
    /// Whether the result counts for statistics and ratings.
    pub rated: bool,
    /// Unix milliseconds.
    pub started_ms: u64,
    /// Unix milliseconds.
    pub ended_ms: u64,
    /// The match it was a game of, and its place in it.
    pub in_match: Option<MatchLink>,
    /// A swap opening: how it was played, for replays. `None` for other games.
    pub swap: Option<banco_protocol::SwapView>,
}

/// Something that happened in a game in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A move, and both clocks (ms left by seat) right after it.
    Move { mv: Move, clocks: Option<[u64; 2]> },
    /// The last `plies` moves were taken back; the clocks after.
    Undo {
        plies: u32,
        clocks: Option<[u64; 2]>,
    },
    /// The clocks as they stood when the game was paused (the server stopping), so the
    /// player to move is charged for the time already spent.
    Clocks([u64; 2]),
    /// Someone said this in the room: told to nobody before it is on disk, so the chat
    /// comes back after a restart as the room saw it.
    Chat(ChatLine),
}

/// One write a room asks for.
#[derive(Debug, Clone)]
pub enum Entry {
    /// A game began: its room, settings, seats and start.
    Begin(Box<LiveGame>),
    /// The `seq`th event (from 0) of game `game`.
    Event { game: u64, seq: u32, event: Event },
    /// A game ended (or was given up unfinished): its record, its ratings, and its live
    /// rows removed, in the same transaction.
    End(Box<GameRecord>),
    /// A match began (before its first game's `Begin`): its record, and the seats and
    /// chat a restart between its games needs.
    MatchBegin(Box<LiveMatch>),
    /// One of a match's games ended without deciding it (after that game's `End`), or
    /// someone chatted between its games: the match's score, seats and chat as they
    /// stand.
    MatchBreak(Box<LiveMatch>),
    /// A match ended: its result; its live row removed.
    MatchEnd(MatchEnding),
    /// A tournament's write: made, entrants, a round paired, a board's room or result.
    Tournament(Box<super::tournaments::TournamentWrite>),
}

impl Entry {
    /// Roughly what the entry holds in memory while it waits for the disk, in bytes: what
    /// the store's queue budget counts.
    pub fn size(&self) -> usize {
        let base = std::mem::size_of::<Entry>();
        let line = |l: &ChatLine| 64 + l.from.len() + l.text.len();
        match self {
            Entry::Begin(game) => {
                base + 512 + game.opening.len() * 8 + game.chat.iter().map(line).sum::<usize>()
            }
            Entry::Event {
                event: Event::Chat(l),
                ..
            } => base + line(l),
            Entry::Event { .. } => base,
            Entry::End(record) => base + 512 + (record.moves.len() + record.opening.len()) * 8,
            Entry::MatchBegin(m) | Entry::MatchBreak(m) => {
                base + 512 + m.chat.iter().map(line).sum::<usize>()
            }
            Entry::MatchEnd(_) => base,
            Entry::Tournament(w) => base + w.size(),
        }
    }

    /// Writes the entry inside `tx`.
    pub(super) fn write(&self, tx: &Transaction<'_>) -> rusqlite::Result<()> {
        match self {
            Entry::Begin(game) => begin(tx, game),
            Entry::Event { game, seq, event } => append(tx, *game, *seq, event),
            Entry::End(record) => end(tx, record),
            Entry::MatchBegin(m) => matches::begin(tx, m),
            Entry::MatchBreak(m) => matches::pause(tx, m),
            Entry::MatchEnd(ending) => matches::end(tx, ending),
            Entry::Tournament(w) => w.write(tx),
        }
    }
}

fn begin(tx: &Transaction<'_>, game: &LiveGame) -> rusqlite::Result<()> {
    // Seats and settings always serialise (plain data); a failure here is a bug.
    let settings = serde_json::to_string(&game.settings).unwrap_or_default();
    let seats = serde_json::to_string(&game.seats).unwrap_or_default();
    tx.prepare_cached(
        "INSERT OR REPLACE INTO live_games (key, room, number, settings, seats, first_seat,
            opening, started_at, series, chat, match_key, match_game)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    )?
    .execute(params![
        game.key as i64,
        game.room,
        game.number,
        settings,
        seats,
        seat_number(game.first),
        points_text(&game.opening),
        game.started_ms as i64,
        live::series_text(&game.series),
        live::chat_text(&game.chat),
        game.in_match.map(|m| m.key as i64),
        game.in_match.map(|m| m.game),
    ])?;
    Ok(())
}

pub(super) fn append(
    tx: &Transaction<'_>,
    game: u64,
    seq: u32,
    event: &Event,
) -> rusqlite::Result<()> {
    let (kind, data, clocks) = match event {
        Event::Move { mv, clocks } => ("move", move_text(mv), *clocks),
        Event::Undo { plies, clocks } => ("undo", plies.to_string(), *clocks),
        Event::Clocks(clocks) => ("clocks", String::new(), Some(*clocks)),
        Event::Chat(line) => ("chat", live::line_text(line), None),
    };
    let clocks = clocks.map_or(String::new(), |[a, b]| format!("{a},{b}"));
    tx.prepare_cached(
        "INSERT OR REPLACE INTO live_events (game, seq, kind, data, clocks)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![game as i64, seq, kind, data, clocks])?;
    Ok(())
}

/// Saves one game and, if rated, its players' results and ratings; its live rows go.
fn end(tx: &Transaction<'_>, game: &GameRecord) -> rusqlite::Result<()> {
    let key = game.key as i64;
    let kept: Option<i64> = tx
        .prepare_cached("SELECT id FROM games WHERE key = ?1")?
        .query_row([key], |row| row.get(0))
        .optional()?;
    if kept.is_none() {
        record(tx, game)?;
    }
    tx.prepare_cached("DELETE FROM live_events WHERE game = ?1")?
        .execute([key])?;
    tx.prepare_cached("DELETE FROM live_games WHERE key = ?1")?
        .execute([key])?;
    Ok(())
}

fn record(tx: &Transaction<'_>, game: &GameRecord) -> rusqlite::Result<()> {
    let ended = game.ended_ms as i64;
    let one = player_id(tx, &game.players[0], ended)?;
    let two = player_id(tx, &game.players[1], ended)?;
    // Guests are never rated, and nobody gains from a guest (who could be anyone); a
    // game rates only once both sides have moved (the room aborts it otherwise).
    let rated = game.rated
        && one != two
        && game.players.iter().all(PlayerRef::ratable)
        && game.moves.len() >= 2;
    let (game_name, variant) = describe(&game.settings.game);
    let moves: Vec<String> = game.moves.iter().map(move_text).collect();
    // Settings always serialise; an empty column falls back to the words above.
    let settings = serde_json::to_string(&game.settings).unwrap_or_default();
    tx.prepare_cached(
        "INSERT INTO games (room, number, game, variant, time_control, first_seat,
            player_one, player_two, moves, plies, winner, reason, rated, started_at, ended_at,
            settings, line, opening, key, match_id, match_game, swap)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
            ?18, ?19, (SELECT id FROM matches WHERE key = ?20), ?21, ?22)",
    )?
    .execute(params![
        game.room,
        game.number,
        game_name,
        variant,
        game.settings.time.to_string(),
        seat_number(game.first),
        one,
        two,
        moves.join(" "),
        game.moves.len() as i64,
        game.winner.map(seat_number),
        game.reason,
        rated,
        game.started_ms as i64,
        ended,
        settings,
        points_text(&game.line),
        points_text(&game.opening),
        game.key as i64,
        game.in_match.map(|m| m.key as i64),
        game.in_match.map(|m| m.game),
        // A plain data view: it always serialises.
        game.swap
            .as_ref()
            .map(|s| serde_json::to_string(s).unwrap_or_default())
            .unwrap_or_default(),
    ])?;
    if rated {
        let id = tx.last_insert_rowid();
        let score_one = match game.winner {
            Some(Seat::One) => 1.0,
            Some(Seat::Two) => 0.0,
            None => 0.5,
        };
        let kind = GameKind::of(&game.settings.game);
        // The farming rule may give it no weight: then it is kept as unrated.
        let people = game.players.iter().all(|p| p.bot.is_none());
        if !rated::rate(tx, id, kind, [one, two], score_one, ended, people)? {
            tx.prepare_cached("UPDATE games SET rated = 0 WHERE id = ?1")?
                .execute([id])?;
        }
    }
    Ok(())
}

/// The record of `player` (made on first sight).
pub(super) fn player_id(
    tx: &Transaction<'_>,
    player: &PlayerRef,
    now: i64,
) -> rusqlite::Result<i64> {
    let bot = player.bot.map_or("", Level::name);
    tx.prepare_cached(
        "INSERT INTO players (name, bot, first_seen, last_seen) VALUES (?1, ?2, ?3, ?3)
         ON CONFLICT(name, bot) DO UPDATE SET last_seen = ?3",
    )?
    .execute(params![player.name, bot, now])?;
    tx.prepare_cached("SELECT id FROM players WHERE name = ?1 AND bot = ?2")?
        .query_row(params![player.name, bot], |row| row.get(0))
}

pub(super) fn seat_number(seat: Seat) -> i64 {
    match seat {
        Seat::One => 1,
        Seat::Two => 2,
    }
}

/// The game's name and its variant in words (`15x15 caro`).
pub(super) fn describe(game: &GameSettings) -> (&'static str, String) {
    match game {
        GameSettings::Caro {
            width,
            height,
            rule,
            ..
        } => ("caro", format!("{width}x{height} {rule}")),
        GameSettings::Xiangqi { fen } => ("xiangqi", fen.clone().unwrap_or_else(|| "start".into())),
    }
}

/// Space-separated `x,y` points.
pub(super) fn points_text(points: &[Point]) -> String {
    let points: Vec<String> = points.iter().map(Point::to_string).collect();
    points.join(" ")
}

/// A move as the store keeps it: `x,y` for caro, ICCS (`h2e2`) for xiangqi.
pub(super) fn move_text(mv: &Move) -> String {
    match mv {
        Move::Caro(p) => p.to_string(),
        Move::Xiangqi { from, to } => {
            let file = |f: u8| char::from(b'a' + f.min(25));
            format!(
                "{}{}{}{}",
                file(from.file),
                from.rank,
                file(to.file),
                to.rank
            )
        }
    }
}

/// A stored move of `game` back in the wire's form; `None` if it cannot be read.
pub(super) fn parse_move(game: &GameSettings, text: &str) -> Option<Move> {
    match game {
        GameSettings::Caro { .. } => super::archive::parse_point(text).map(Move::Caro),
        GameSettings::Xiangqi { .. } => xiangqi::Move::from_str(text)
            .ok()
            .map(|m| to_wire(RulesMove::Xiangqi(m))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_protocol::XqSquare;

    #[test]
    fn moves_are_written_as_they_are_read() {
        let caro = GameSettings::caro_default();
        let xq = GameSettings::Xiangqi { fen: None };
        let p = Move::Caro(Point::new(63, 0));
        assert_eq!(parse_move(&caro, &move_text(&p)), Some(p));
        let x = Move::Xiangqi {
            from: XqSquare { file: 7, rank: 2 },
            to: XqSquare { file: 4, rank: 2 },
        };
        assert_eq!(move_text(&x), "h2e2");
        assert_eq!(parse_move(&xq, "h2e2"), Some(x));
        assert_eq!(parse_move(&xq, "7,7"), None);
        assert_eq!(parse_move(&caro, "h2e2"), None);
    }
}
