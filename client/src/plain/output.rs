//! Plain-mode output: one line per event, as readable text or as JSON.
//!
//! # JSON events
//! Every line is one object with an `"event"` field. The names and fields are stable
//! (scripts rely on them); seats are `"one"`/`"two"`, points are 0-based `x`,`y` from
//! the top-left as in the Gomocup protocol; a `stone` is `X`/`O` in caro and
//! `red`/`black` in xiangqi, whatever the language.
//!
//! | event | fields |
//! |---|---|
//! | `welcome` | `name`, `server`, `version`, `account` (logged in; `false` for a guest), `bot` (a bot account) |
//! | `rooms` | `rooms`: [{`room`, `game`, `rule`, `width`, `height`, `time`, `first`, `players`, `bots`, `spectators`, `status`, `hints`}] |
//! | `room_created` | `room` |
//! | `joined` | `room`, `you`, `stone`, `game`, `rule`, `width`, `height`, `time`, `seats`, `spectators`, `game_number`, `moves`, `to_move`, `offer`, `series`, `match` (as the `match` event's fields; `null` in a room without matches), `chat` (the room's recent lines, as `chat` events carry them) |
//! | `people` | `seats`, `spectators` |
//! | `left` | |
//! | `game_started` | `game`, `seats` [{`seat`, `name`, `stone`, `bot`}], `first`, `first_name`, `you`, `your_turn` |
//! | `move` | `ply`, `x`, `y`, `by`, `name`, `stone`, `point`, `your_turn`, `not_a_win` (caro: `blocked_both_ends` for a five blocked at both ends under the caro rule, `overline` for six or more where only five wins, else null) (xiangqi: `from`, `to`, `iccs`, `wxf`, `check`) |
//! | `chat` | `from`, `text`, `at_ms`, `time` |
//! | `undo_offered`, `newgame_offered`, `draw_offered` | `by`, `name`, `mine` |
//! | `undo_declined`, `newgame_declined`, `draw_declined` | `by` (who offered), `name` (who declined) |
//! | `undo_withdrawn`, `newgame_withdrawn`, `draw_withdrawn` | `by`, `name` |
//! | `undone` | `plies`, `moves`, `to_move`, `your_turn` |
//! | `clock` | `remaining_ms` [one, two], `running` |
//! | `game_over` | `result` (`win`/`loss`/`draw` for players, `decisive`/`draw` for spectators; `aborted` before both players moved, `none` for a game replaced or left by both), `winner`, `winner_name`, `reason`, `line` [[x,y]..] |
//! | `match` | where the room's match stands, sent as each of its games begins and as one ends without deciding it: `format` {`games`, `first_to`}, `number` (the room's matches so far), `game` (the match game being played or last played), `score` {`one`, `two`, `draws`}, `leader`, `next_game_in_ms` (between games: the next starts by itself then, or at once on an agreed `newgame`), `result` (as `match_over`'s, once over) |
//! | `match_over` | `result` (`win`/`loss`/`draw` for players, `decisive`/`draw` for spectators), `winner`, `winner_name`, `score` {`one`, `two`, `draws`}, `reason` (`decided`, `resign`, `quit`, `abandoned`) |
//! | `hint` | `x`, `y`, `point` |
//! | `board` | `rows`, `last` |
//! | `help` | `commands` [{`usage`, `does`}] |
//! | `leaderboard` | `game` (`caro`/`xiangqi`), `players` [{`rank` (null while provisional; equal ratings share one, as profiles count), `name`, `bot`, `rating`, `deviation`, `provisional`, `games`, `wins`, `losses`, `draws`}] |
//! | `profile` | `name`, `bot`, `registered_at_ms` (null: a bot, a guest or an unclaimed record), `first_seen_ms`, `games` [{`game`, `rating`, `deviation`, `provisional`, `rank`, `games`, `wins`, `losses`, `draws`, `best_win` ({`game`, `opponent`, `opponent_rating`, `ended_at_ms`} or null), `history` [{`at_ms`, `rating`, `deviation`}], `matches` {`won`, `lost`, `drawn`}}], `recent` (as `history`'s `games`, with `rated`) |
//! | `password_changed` | |
//! | `history` | `games` [{`id`, `game`, `rule`, `width`, `height`, `fen`, `time`, `players`, `first`, `winner`, `winner_name`, `reason`, `plies`, `ended_at_ms`, `ended`, `rated`, `match` ({`id`, `game`, `format`, `result`}: "game 3 of match #12"; null outside a match)}] |
//! | `replay` | the `history` fields of the game, `sides` (by seat: `x`/`o`/`red`/`black`), `start_fen`, `line`, `moves` [{`ply`, `by`, and the `move` event's point or xiangqi fields}] |
//! | `saved` | `path` (a record file written by `replay N --save FILE`) |
//! | `servers` | `servers` [{`name`, `address`, `rooms`, `players`, `version`, `compatible`}] (`banco discover`) |
//! | `error` | `code` (the protocol's stable code, or `bad_command` / `not_in_room` / `out_of_bounds` / `no_offer` for lines the client refuses itself, `offline` while it reconnects, `seat_not_kept` when the seat's token could not be written; from `login` and `passwd`: `no_password` (input ended), `passwords_differ`, `bad_password`, `in_room`, `login_failed` with the reason in `message`), `message` |
//! | `storage` | `state` (`saving` / `not_saving`), `reason` (why not, the server's sentence; null when saving) |
//! | `reconnecting` | `attempt`, `cause` (`closed` / `shutting_down` / `cut` / `silent` / `garbled`), `reason` (the cause in words), `message` |
//! | `reconnected` | `message`, `seat_lost` (the server did not keep the seat held before) |
//! | `disconnected` | `message` |
//! | `challenge_sent`, `challenged` | the challenge: `id`, `from`, `from_bot`, `to` (null: open to anyone), `expires_in_ms`, `rated`, `first` (`me`: the challenger moves first, `them`, `random`), `you_first` (true, false, or null for a coin), `time`, `hints`, and the `game` fields |
//! | `challenge_ended` | `id`, `end` (`accepted` / `declined` / `cancelled` / `expired` / `withdrawn`), `room` and `by` (accepted), `by` and `reason` (declined: `not_now`, `time_control`, `rated_only`, `casual_only`, `no_bots`, `variant`) |
//! | `open_challenges` | `challenges` [the `challenged` fields] |
//! | `challenges` | `incoming`, `sent`, `open` [the `challenged` fields], `policy` (the `challenges` command) |
//! | `players` | `players` [{`name`, `level` (the server's bot), `account`, `bot` (a bot account), `playing`, `challenges` (`everyone`/`accounts`/`nobody`)}] |
//! | `challenges_set` | `policy` |
//!
//! Seats (`joined`, `people`, `game_started`), room lines and leaderboard lines carry
//! `bot_account` (a bot account's: an engine, shown with a BOT tag).

use banco_protocol::{
    CaroOpening, EndReason, GameKind, GameOver, GameSettings, GameSummary, MatchFormat, MatchGame,
    MatchResult, Move, Point, Profile, Role, RoomSummary, Seat, SeatKind, SeatView, ServerMsg,
    Standing, Storage, TimeControl, Welcome,
};
use banco_rules::caro::Stone;
use serde_json::{Value, json};
use std::io::Write;

use crate::challenges::{self, Challenges, Change};
use crate::locale::Locale;
use crate::narrate;
use crate::net::Lost;
use crate::plain::command::HELP;
use crate::record::{Replay, Side};
use crate::room::clock::{clock_text, time_control_text};
use crate::room::{Room, opening};
use crate::tr;

/// How events are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Sentences for people (and screen readers), with the board after each move.
    Text,
    /// One JSON object per line.
    Json,
}

/// Writes events to a line-oriented sink.
pub struct Printer<W: Write> {
    out: W,
    pub format: Format,
    pub locale: Locale,
    /// Ring the terminal bell (text format only) before the other side's move, an
    /// offer to answer and the game's end.
    pub bell: bool,
}

fn seat_str(seat: Seat) -> &'static str {
    match seat {
        Seat::One => "one",
        Seat::Two => "two",
    }
}

fn role_str(role: Role) -> &'static str {
    match role {
        Role::Player(s) => seat_str(s),
        Role::Spectator => "spectator",
    }
}

/// A seat's name as the server gave it (JSON carries raw names; text localizes them).
fn raw_name(room: &Room, seat: Seat) -> Option<String> {
    room.seat_name(seat).map(str::to_string)
}

/// A seat's side as JSON says it, the same in every language: `X`/`O` in caro,
/// `red`/`black` in xiangqi.
fn stone_word(room: &Room, seat: Seat) -> String {
    match room.settings.game {
        GameSettings::Caro { .. } => room.stone_letter(seat).to_string(),
        GameSettings::Xiangqi { .. } => match room.color_of(seat) {
            Some(banco_rules::xiangqi::piece::Color::Black) => "black".to_string(),
            _ => "red".to_string(),
        },
    }
}

fn time_json(tc: &TimeControl) -> Value {
    json!(time_control_text(tc))
}

/// The rematch series between the players seated now: wins by seat, and draws.
fn series_json(room: &Room) -> Value {
    let s = &room.series;
    json!({"one": s.wins[0], "two": s.wins[1], "draws": s.draws})
}

/// A match format as JSON: `{"games": 9, "first_to": 5}`.
fn match_format_json(f: &MatchFormat) -> Value {
    json!({"games": f.games, "first_to": f.first_to})
}

/// A match's result as JSON.
fn match_result_json(r: &MatchResult) -> Value {
    json!({
        "winner": r.winner.map(seat_str),
        "score": {"one": r.score.wins[0], "two": r.score.wins[1], "draws": r.score.draws},
        "reason": r.reason.as_str(),
    })
}

/// Where the room's match stands, as JSON (`null` in a room without one).
fn match_json(room: &Room) -> Value {
    let Some(m) = &room.match_state else {
        return match room.settings.match_format {
            Some(f) => json!({"format": match_format_json(&f), "number": 0}),
            None => Value::Null,
        };
    };
    json!({
        "format": match_format_json(&m.format),
        "number": m.number,
        "game": m.game,
        "score": {"one": m.score.wins[0], "two": m.score.wins[1], "draws": m.score.draws},
        "leader": m.leader.map(seat_str),
        "next_game_in_ms": m.next_game_in_ms,
        "result": m.result.as_ref().map(match_result_json),
    })
}

/// A stored game's match, as JSON (`null` for a game outside a match).
fn match_game_json(m: Option<&MatchGame>) -> Value {
    match m {
        None => Value::Null,
        Some(m) => json!({
            "id": m.id,
            "game": m.game,
            "format": match_format_json(&m.format),
            "result": m.result.as_ref().map(match_result_json),
        }),
    }
}

/// "Score: An 2, Bình 1." (and the draws, if any).
fn series_text(room: &Room, loc: &Locale) -> String {
    let s = &room.series;
    let one = narrate::seat_name(room, Seat::One, loc);
    let two = narrate::seat_name(room, Seat::Two, loc);
    if s.draws == 0 {
        tr!(
            loc,
            "event.series",
            one = one,
            a = s.wins[0],
            two = two,
            b = s.wins[1]
        )
    } else {
        tr!(
            loc,
            "event.series_draws",
            one = one,
            a = s.wins[0],
            two = two,
            b = s.wins[1],
            draws = s.draws
        )
    }
}

fn seats_json(room: &Room) -> Value {
    let seat = |s: Seat| -> Value {
        match &room.seats[s.index()] {
            Some(SeatView {
                name,
                bot,
                connected,
                bot_account,
            }) => json!({
                "seat": seat_str(s),
                "name": name,
                "bot": bot.map(|l| l.name()),
                "bot_account": bot_account,
                "connected": connected,
                "stone": stone_word(room, s),
            }),
            None => Value::Null,
        }
    };
    json!([seat(Seat::One), seat(Seat::Two)])
}

fn move_json(room: &Room, mv: &Move) -> Value {
    match mv {
        Move::Caro(p) => json!({"x": p.x, "y": p.y, "point": room.move_text(mv)}),
        Move::Xiangqi { from, to } => json!({
            "from": [from.file, from.rank],
            "to": [to.file, to.rank],
            "iccs": room.move_text(mv),
        }),
    }
}

/// Caro stones, X first: `[{"x": 7, "y": 7, "point": "h8", "stone": "X"}, ..]`.
fn stones_json(stones: &[Point], width: u8, height: u8) -> Value {
    let list: Vec<Value> = stones
        .iter()
        .enumerate()
        .map(|(i, p)| {
            json!({
                "x": p.x,
                "y": p.y,
                "point": crate::room::board::caro_point_text(*p, width, height),
                "stone": if i % 2 == 0 { "X" } else { "O" },
            })
        })
        .collect();
    json!(list)
}

/// A caro room's opening setting as JSON: `opening` (`none`, `balanced` or `stones`)
/// and `opening_stones` (the stones it names; empty unless `stones`). Null for xiangqi.
fn opening_json(game: &GameSettings) -> (Value, Value) {
    match game {
        GameSettings::Caro {
            width,
            height,
            opening,
            ..
        } => match opening {
            CaroOpening::None => (json!("none"), json!([])),
            CaroOpening::Balanced => (json!("balanced"), json!([])),
            CaroOpening::Swap1 => (json!("swap1"), json!([])),
            CaroOpening::Swap2 => (json!("swap2"), json!([])),
            CaroOpening::Stones(stones) => (json!("stones"), stones_json(stones, *width, *height)),
        },
        GameSettings::Xiangqi { .. } => (Value::Null, Value::Null),
    }
}

fn summary_json(s: &RoomSummary) -> Value {
    let (game, rule, width, height) = match &s.settings.game {
        GameSettings::Caro {
            width,
            height,
            rule,
            ..
        } => ("caro", Some(rule.name()), Some(*width), Some(*height)),
        GameSettings::Xiangqi { .. } => ("xiangqi", None, Some(9), Some(10)),
    };
    let bots: Vec<Value> = s
        .settings
        .seats
        .iter()
        .map(|k| match k {
            SeatKind::Bot(l) => json!(l.name()),
            SeatKind::Human => Value::Null,
        })
        .collect();
    let (opening, opening_stones) = opening_json(&s.settings.game);
    json!({
        "room": s.id,
        "game": game,
        "rule": rule,
        "width": width,
        "height": height,
        "opening": opening,
        "opening_stones": opening_stones,
        "time": time_json(&s.settings.time),
        "first": format!("{:?}", s.settings.first).to_ascii_lowercase(),
        "players": s.players,
        "bots": bots,
        "bot_accounts": s.bot_accounts,
        "spectators": s.spectators,
        "status": format!("{:?}", s.status).to_ascii_lowercase(),
        "hints": s.settings.hints,
        "rated": s.settings.rated,
    })
}

/// The game, rule and board of a room or record, as JSON fields.
fn game_json(game: &GameSettings) -> Value {
    let mut v = match game {
        GameSettings::Caro {
            width,
            height,
            rule,
            ..
        } => {
            json!({"game": "caro", "rule": rule.name(), "width": width, "height": height, "fen": null})
        }
        GameSettings::Xiangqi { fen } => {
            json!({"game": "xiangqi", "rule": null, "width": 9, "height": 10, "fen": fen})
        }
    };
    let (opening, opening_stones) = opening_json(game);
    v["opening"] = opening;
    v["opening_stones"] = opening_stones;
    v
}

/// A finished game as the `history` event lists it.
fn game_summary_json(g: &GameSummary) -> Value {
    let mut v = game_json(&g.game);
    v["id"] = json!(g.id);
    v["time"] = time_json(&g.time);
    v["players"] = json!(g.players);
    v["first"] = json!(seat_str(g.first));
    v["winner"] = json!(g.over.winner.map(seat_str));
    v["winner_name"] = json!(g.over.winner.map(|w| &g.players[w.index()]));
    v["reason"] = json!(g.over.reason.as_str());
    v["plies"] = json!(g.plies);
    v["ended_at_ms"] = json!(g.ended_at_ms);
    v["ended"] = json!(narrate::ended_at(g.ended_at_ms));
    v["rated"] = json!(g.rated);
    v["match"] = match_game_json(g.in_match.as_ref());
    v
}

/// A challenge as the `challenged` event carries it, for the reader `me`.
fn challenge_json(ch: &banco_protocol::Challenge, me: &str) -> Value {
    let mut v = game_json(&ch.settings.game);
    v["id"] = json!(ch.id);
    v["from"] = json!(ch.from);
    v["from_bot"] = json!(ch.from_bot);
    v["to"] = json!(ch.to);
    v["expires_in_ms"] = json!(ch.expires_in_ms);
    v["rated"] = json!(ch.settings.rated);
    v["time"] = time_json(&ch.settings.time);
    v["hints"] = json!(ch.settings.hints);
    let first = match ch.settings.first {
        banco_protocol::FirstMove::Me => "me",
        banco_protocol::FirstMove::Them => "them",
        banco_protocol::FirstMove::Random => "random",
    };
    v["first"] = json!(first);
    let from_me = ch.from == me;
    v["you_first"] = match ch.settings.first {
        banco_protocol::FirstMove::Me => json!(from_me),
        banco_protocol::FirstMove::Them => json!(!from_me),
        banco_protocol::FirstMove::Random => Value::Null,
    };
    v
}

/// The result word of a finished game for whoever receives it.
pub fn result_word(over: &GameOver, me: Option<Seat>) -> &'static str {
    match over.reason {
        EndReason::Aborted => return "aborted",
        EndReason::NewGame => return "none",
        EndReason::Abandoned if over.winner.is_none() => return "none",
        _ => {}
    }
    match (over.winner, me) {
        (None, _) => "draw",
        (Some(w), Some(m)) if w == m => "win",
        (Some(_), Some(_)) => "loss",
        (Some(_), None) => "decisive",
    }
}

/// A value in hundredths as a short decimal (`2.5`).
fn hundredths(v: i64) -> String {
    let sign = if v < 0 { "-" } else { "" };
    let v = v.abs();
    match (v % 100, v % 10) {
        (0, _) => format!("{sign}{}", v / 100),
        (_, 0) => format!("{sign}{}.{}", v / 100, (v % 100) / 10),
        _ => format!("{sign}{}.{:02}", v / 100, v % 100),
    }
}

/// A tournament's line: number, name, format, game, where it stands.
fn tournament_line(t: &banco_protocol::TournamentSummary, loc: &Locale) -> String {
    let status = loc.get(match t.status {
        banco_protocol::TournamentStatus::Entries => "tournament.status_entries",
        banco_protocol::TournamentStatus::Running => "tournament.status_running",
        banco_protocol::TournamentStatus::Paused => "tournament.status_paused",
        banco_protocol::TournamentStatus::Over => "tournament.status_over",
    });
    let rounds = if t.rounds > 0 {
        format!(", {}/{}", t.round, t.rounds)
    } else {
        String::new()
    };
    tr!(
        loc,
        "tournament.line",
        id = t.id,
        name = t.name,
        format = crate::narrate::tournament_format(&t.format, loc),
        game = t.game.as_str(),
        time = crate::narrate::time_text(&t.time, loc),
        status = status,
        rounds = rounds,
        entrants = t.entrants,
        organiser = t.organiser
    )
    .to_string()
}

impl<W: Write> Printer<W> {
    pub fn new(out: W, format: Format, locale: Locale) -> Printer<W> {
        Printer {
            out,
            format,
            locale,
            bell: false,
        }
    }

    /// The same printer, ringing the bell for what needs the player (text only: a BEL
    /// would break a JSON line).
    pub fn with_bell(mut self, bell: bool) -> Printer<W> {
        self.bell = bell;
        self
    }

    fn ring(&mut self) {
        if self.bell && self.format == Format::Text {
            let _ = self.out.write_all(b"\x07");
        }
    }

    /// Gives back the sink (tests read what was written).
    pub fn into_inner(self) -> W {
        self.out
    }

    fn emit(&mut self, event: &str, fields: Value, text: &str) {
        let line = match self.format {
            Format::Json => {
                let mut obj = serde_json::Map::new();
                obj.insert("event".into(), json!(event));
                if let Value::Object(map) = fields {
                    obj.extend(map);
                }
                Value::Object(obj).to_string()
            }
            Format::Text => format!("{event}: {text}"),
        };
        // A closed stdout (the reader went away) ends the program through EOF on the
        // next read; nothing useful can be done with a write error here.
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
    }

    /// Extra lines for people only (the board picture); nothing in JSON mode.
    fn text_block(&mut self, block: &str) {
        if self.format == Format::Text {
            let _ = write!(self.out, "{block}");
            let _ = self.out.flush();
        }
    }

    pub fn welcome(&mut self, w: &Welcome) {
        let text = tr!(
            self.locale,
            "event.welcome",
            server = w.server,
            name = w.name
        );
        self.emit(
            "welcome",
            json!({"name": w.name, "server": w.server, "version": w.version, "account": w.account, "bot": w.bot}),
            &text,
        );
    }

    pub fn error(&mut self, code: &str, message: &str) {
        self.emit(
            "error",
            json!({"code": code, "message": message}),
            &format!("[{code}] {message}"),
        );
    }

    pub fn disconnected(&mut self, message: &str) {
        self.emit("disconnected", json!({"message": message}), message);
    }

    /// The connection dropped: dialling again (the `n`th time). `reason` is `lost` in
    /// words; `cause` in JSON is its stable name.
    pub fn reconnecting(&mut self, attempt: u32, lost: Lost, reason: &str) {
        let text = tr!(
            self.locale,
            "net.reconnecting_why",
            reason = reason,
            n = attempt
        );
        self.emit(
            "reconnecting",
            json!({"attempt": attempt, "cause": lost.as_str(), "reason": reason, "message": text}),
            &text,
        );
    }

    /// Back on the server after a lost connection; a held seat's room follows, unless
    /// the server did not keep the seat (`seat_lost`).
    pub fn reconnected(&mut self, seat_lost: bool) {
        let key = if seat_lost {
            "net.seat_lost"
        } else {
            "net.reconnected"
        };
        let text = tr!(self.locale, key).to_string();
        self.emit(
            "reconnected",
            json!({"message": text, "seat_lost": seat_lost}),
            &text,
        );
    }

    /// Whether the server is saving games.
    pub fn storage(&mut self, storage: &Storage) {
        match storage {
            Storage::Saving => {
                let text = tr!(self.locale, "net.saving_again").to_string();
                self.emit("storage", json!({"state": "saving", "reason": null}), &text);
            }
            Storage::NotSaving { reason } => {
                let text = tr!(self.locale, "net.not_saving", reason = reason);
                self.emit(
                    "storage",
                    json!({"state": "not_saving", "reason": reason}),
                    &text,
                );
            }
        }
    }

    pub fn help(&mut self) {
        let commands: Vec<Value> = HELP
            .iter()
            .map(|(usage, does)| json!({"usage": usage, "does": self.locale.get(does)}))
            .collect();
        let mut text = tr!(self.locale, "plain.help_intro").to_string();
        for (usage, does) in HELP {
            text.push_str(&format!("\n  {usage}\n      {}", self.locale.get(does)));
        }
        self.emit("help", json!({"commands": commands}), &text);
    }

    pub fn rooms(&mut self, rooms: &[RoomSummary]) {
        let loc = &self.locale;
        let mut text = if rooms.is_empty() {
            tr!(loc, "plain.no_rooms").to_string()
        } else {
            tr!(loc, "plain.rooms_count", count = rooms.len())
        };
        for s in rooms {
            text.push_str(&format!(
                "\n  #{}  {}  {}  {}  {}",
                s.id,
                narrate::game_line(&s.settings.game, loc),
                narrate::summary_time(s, loc),
                narrate::summary_players(s, loc),
                narrate::summary_status(s, loc),
            ));
        }
        let list: Vec<Value> = rooms.iter().map(summary_json).collect();
        self.emit("rooms", json!({"rooms": list}), &text);
    }

    /// A push of what changed in the lobby's room list: each changed room's line, each
    /// closed room's number.
    pub fn rooms_changed(&mut self, changed: &[RoomSummary], closed: &[banco_protocol::RoomId]) {
        let loc = &self.locale;
        let mut text = tr!(loc, "plain.rooms_changed").to_string();
        for s in changed {
            text.push_str(&format!(
                "\n  #{}  {}  {}  {}  {}",
                s.id,
                narrate::game_line(&s.settings.game, loc),
                narrate::summary_time(s, loc),
                narrate::summary_players(s, loc),
                narrate::summary_status(s, loc),
            ));
        }
        for id in closed {
            text.push_str("\n  ");
            text.push_str(&tr!(loc, "plain.room_closed", room = id));
        }
        let list: Vec<Value> = changed.iter().map(summary_json).collect();
        self.emit(
            "rooms_changed",
            json!({"changed": list, "closed": closed}),
            &text,
        );
    }

    pub fn leaderboard(&mut self, game: GameKind, list: &[Standing]) {
        let loc = &self.locale;
        let game_name = loc.get(&format!("game_kind.{}", game.as_str())).to_string();
        let mut text = if list.is_empty() {
            tr!(loc, "plain.leaderboard_empty", game = game_name)
        } else {
            tr!(
                loc,
                "plain.leaderboard_count",
                count = list.len(),
                game = game_name
            )
        };
        let mut players = Vec::with_capacity(list.len());
        let places = narrate::places(list);
        for (s, place) in list.iter().zip(places) {
            // A bot is worded as its seat is, in the reader's language.
            let name = match s.bot {
                Some(level) => {
                    tr!(loc, "seat.bot", level = narrate::level_name(level, loc)).to_string()
                }
                None => challenges::tagged(&s.name, s.bot_account, loc),
            };
            let shown = place.map_or_else(|| "  —".to_string(), |p| format!("{p:>3}."));
            text.push_str(&format!(
                "\n  {shown} {name}  {}  {}",
                s.rating,
                tr!(
                    loc,
                    "plain.standing",
                    games = s.games,
                    wins = s.wins,
                    losses = s.losses,
                    draws = s.draws
                )
            ));
            players.push(json!({
                "rank": place,
                "name": s.name,
                "bot": s.bot.map(|l| l.name()),
                "bot_account": s.bot_account,
                "rating": s.rating.rating,
                "deviation": s.rating.deviation,
                "provisional": s.rating.provisional,
                "games": s.games,
                "wins": s.wins,
                "losses": s.losses,
                "draws": s.draws,
            }));
        }
        self.emit(
            "leaderboard",
            json!({"game": game.as_str(), "players": players}),
            &text,
        );
    }

    /// Someone's profile: a line per game with the rating's path in words, then the
    /// recent games.
    pub fn profile(&mut self, p: &Profile) {
        let loc = &self.locale;
        let day = |ms: u64| narrate::ended_at(ms).chars().take(10).collect::<String>();
        let what = match (p.bot, p.registered_at_ms) {
            (Some(_), _) => tr!(loc, "profile.bot").to_string(),
            (None, Some(at)) => tr!(loc, "profile.registered", date = day(at)),
            (None, None) if p.name.starts_with(banco_protocol::GUEST_MARK) => {
                tr!(loc, "profile.guest").to_string()
            }
            (None, None) => tr!(loc, "profile.unclaimed").to_string(),
        };
        let mut text = format!(
            "{}: {what}; {}.",
            challenges::tagged(&p.name, p.bot_account, loc),
            tr!(loc, "profile.first_seen", date = day(p.first_seen_ms))
        );
        let mut games = Vec::new();
        for k in &p.games {
            let game_name = loc
                .get(&format!("game_kind.{}", k.game.as_str()))
                .to_string();
            text.push_str(&format!(
                "\n  {game_name}: {} ±{}, {}, {}",
                k.rating,
                k.rating.deviation,
                k.rank.map_or_else(
                    || tr!(loc, "plain.unranked").to_string(),
                    |r| tr!(loc, "plain.rank", rank = r)
                ),
                tr!(
                    loc,
                    "plain.standing",
                    games = k.games,
                    wins = k.wins,
                    losses = k.losses,
                    draws = k.draws
                )
            ));
            if let Some(b) = &k.best_win {
                text.push_str(&format!(
                    "; {}",
                    tr!(
                        loc,
                        "plain.best_win",
                        win = tr!(
                            loc,
                            "profile.best_win",
                            name = b.opponent,
                            rating = b.opponent_rating,
                            game = b.game
                        )
                    )
                ));
            }
            let m = k.matches;
            if m.won + m.lost + m.drawn > 0 {
                text.push_str(&format!(
                    "; {}",
                    tr!(
                        loc,
                        "match.profile",
                        won = m.won,
                        lost = m.lost,
                        drawn = m.drawn
                    )
                ));
            }
            let lo = k.history.iter().map(|h| h.rating).min();
            let hi = k.history.iter().map(|h| h.rating).max();
            if let (Some(first), Some(last), Some(lo), Some(hi)) =
                (k.history.first(), k.history.last(), lo, hi)
            {
                text.push_str(&format!(
                    "\n    {}",
                    tr!(
                        loc,
                        "plain.rating_path",
                        first = first.rating,
                        last = last.rating,
                        low = lo,
                        high = hi,
                        count = k.history.len()
                    )
                ));
            }
            games.push(json!({
                "game": k.game.as_str(),
                "rating": k.rating.rating,
                "deviation": k.rating.deviation,
                "provisional": k.rating.provisional,
                "rank": k.rank,
                "games": k.games,
                "wins": k.wins,
                "losses": k.losses,
                "draws": k.draws,
                "best_win": k.best_win.as_ref().map(|b| json!({
                    "game": b.game,
                    "opponent": b.opponent,
                    "opponent_rating": b.opponent_rating,
                    "ended_at_ms": b.ended_at_ms,
                })),
                "history": k.history.iter().map(|h| json!({
                    "at_ms": h.at_ms,
                    "rating": h.rating,
                    "deviation": h.deviation,
                })).collect::<Vec<_>>(),
                "matches": {"won": k.matches.won, "lost": k.matches.lost, "drawn": k.matches.drawn},
            }));
        }
        if !p.recent.is_empty() {
            text.push_str(&format!("\n  {}:", tr!(loc, "profile.recent")));
        }
        for g in &p.recent {
            let rated = if g.rated {
                tr!(loc, "profile.rated_yes")
            } else {
                tr!(loc, "profile.rated_no")
            };
            text.push_str(&format!(
                "\n  #{}  {}  {} – {}  {} {}  ({rated}, {})",
                g.id,
                narrate::game_line(&g.game, loc),
                narrate::shown_name(&g.players[g.first.index()], loc),
                narrate::shown_name(&g.players[g.first.other().index()], loc),
                narrate::record_headline(Some(&g.over), &g.players, loc),
                narrate::record_reason(&g.over, &g.players, loc),
                narrate::ended_at(g.ended_at_ms),
            ));
        }
        let recent: Vec<Value> = p.recent.iter().map(game_summary_json).collect();
        self.emit(
            "profile",
            json!({
                "name": p.name,
                "bot": p.bot.map(|l| l.name()),
                "bot_account": p.bot_account,
                "registered_at_ms": p.registered_at_ms,
                "first_seen_ms": p.first_seen_ms,
                "games": games,
                "recent": recent,
            }),
            &text,
        );
    }

    pub fn history(&mut self, games: &[GameSummary]) {
        let loc = &self.locale;
        let mut text = if games.is_empty() {
            tr!(loc, "history.empty").to_string()
        } else {
            tr!(loc, "plain.history_count", count = games.len())
        };
        for g in games {
            let first = narrate::shown_name(&g.players[g.first.index()], loc);
            let second = narrate::shown_name(&g.players[g.first.other().index()], loc);
            text.push_str(&format!(
                "\n  #{}  {}  {first} – {second}  {} {}  ({})",
                g.id,
                narrate::game_line(&g.game, loc),
                narrate::record_headline(Some(&g.over), &g.players, loc),
                narrate::record_reason(&g.over, &g.players, loc),
                tr!(
                    loc,
                    "plain.moves_when",
                    moves = g.plies,
                    when = narrate::ended_at(g.ended_at_ms)
                )
            ));
            if let Some(m) = &g.in_match {
                text.push_str(&format!("  {}", narrate::match_of_game(m, &g.players, loc)));
            }
        }
        let list: Vec<Value> = games.iter().map(game_summary_json).collect();
        self.emit("history", json!({"games": list}), &text);
    }

    /// A game's review: in JSON all of it (the protocol's own form); as text, each
    /// player's errors, then every move that lost something with the engine's choice
    /// and its answer to the move played.
    pub fn review(&mut self, review: &banco_protocol::GameReview) {
        let loc = self.locale.clone();
        let fields = serde_json::to_value(review).unwrap_or_else(|_| json!({}));
        let mut text = tr!(loc, "review.plain_head", game = review.game).to_string();
        for seat in [review.first, review.first.other()] {
            let p = &review.players[seat.index()];
            let who = if seat == review.first {
                tr!(loc, "review.first_side")
            } else {
                tr!(loc, "review.second_side")
            };
            text.push_str(&format!(
                "\n  {who}: {}",
                tr!(
                    loc,
                    "review.summary",
                    inaccuracies = p.inaccuracies,
                    mistakes = p.mistakes,
                    blunders = p.blunders,
                    loss = p.average_loss
                )
            ));
        }
        for (i, ply) in review.plies.iter().enumerate() {
            if !ply.class.is_error() {
                continue;
            }
            let key = crate::app::review::class_key(ply);
            let class = tr!(loc, &key).to_string();
            let mut line = format!(
                "\n  {}. {} {}: {class} (-{}%)",
                i + 1,
                plain_move(&ply.played),
                crate::app::review::class_mark(ply),
                ply.loss / 10
            );
            if let Some(best) = &ply.best {
                line.push_str(&format!(
                    " · {}",
                    tr!(loc, "review.better", point = plain_move(best))
                ));
            }
            if let Some(reply) = &ply.reply {
                line.push_str(&format!(
                    " · {}",
                    tr!(loc, "review.answer", point = plain_move(reply))
                ));
            }
            text.push_str(&line);
        }
        self.emit("review", fields, &text);
    }

    /// A finished game: its facts and every move, then (for people) the final board.
    pub fn replay(&mut self, r: &Replay) {
        let loc = self.locale.clone();
        let mut fields = match (r.id, &r.over) {
            (Some(id), Some(over)) => game_summary_json(&GameSummary {
                id,
                game: r.game.clone(),
                time: r.time.unwrap_or(TimeControl::Unlimited),
                players: r.players.clone(),
                first: r.first,
                over: over.clone(),
                plies: r.moves.len() as u32,
                ended_at_ms: r.ended_at_ms.unwrap_or_default(),
                rated: r.rated.unwrap_or(false),
                in_match: r.in_match,
            }),
            _ => {
                let mut v = game_json(&r.game);
                v["id"] = json!(r.id);
                v["players"] = json!(r.players);
                v["first"] = json!(seat_str(r.first));
                v["winner"] = json!(r.over.as_ref().and_then(|o| o.winner).map(seat_str));
                v["reason"] = json!(r.over.as_ref().map(|o| o.reason.as_str()));
                v["plies"] = json!(r.moves.len());
                v
            }
        };
        fields["sides"] = json!(Seat::BOTH.map(|s| r.side(s).as_str()));
        fields["start_fen"] = json!(r.start_fen);
        if let GameSettings::Caro { width, height, .. } = r.game {
            // The stones this game started from (a balanced room's dealt ones).
            fields["opening_stones"] = stones_json(&r.opening, width, height);
            // A swap opening: how it was played, step by step.
            fields["swap"] =
                match &r.swap {
                    Some(s) => json!(s.steps.iter().map(|step| match *step {
                    banco_protocol::SwapStep::Stone { by, point } => json!({
                        "by": seat_str(by),
                        "point": crate::room::board::caro_point_text(point, width, height),
                    }),
                    banco_protocol::SwapStep::Decided { by, choice } => json!({
                        "by": seat_str(by),
                        "choice": choice.word(),
                    }),
                }).collect::<Vec<_>>()),
                    None => Value::Null,
                };
        }
        fields["line"] = json!(
            r.over
                .as_ref()
                .map(|o| o.line.iter().map(|p| json!([p.x, p.y])).collect::<Vec<_>>())
                .unwrap_or_default()
        );
        let moves: Vec<Value> = r
            .moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let mut v = match m.mv {
                    Move::Caro(p) => json!({"x": p.x, "y": p.y, "point": r.move_text(&m.mv)}),
                    Move::Xiangqi { from, to } => json!({
                        "from": [from.file, from.rank],
                        "to": [to.file, to.rank],
                        "iccs": r.move_text(&m.mv),
                        "wxf": m.wxf,
                        "check": m.check,
                    }),
                };
                v["ply"] = json!(i + 1);
                v["by"] = json!(seat_str(r.mover(i)));
                v
            })
            .collect();
        fields["moves"] = json!(moves);
        let side = |s: Seat| match r.side(s) {
            Side::X => "X".to_string(),
            Side::O => "O".to_string(),
            Side::Red => tr!(loc, "side.red").to_string(),
            Side::Black => tr!(loc, "side.black").to_string(),
        };
        let mut text = tr!(
            loc,
            "plain.replay_head",
            game = narrate::game_line(&r.game, &loc),
            x = format!("{} ({})", r.players[r.first.index()], side(r.first)),
            o = format!(
                "{} ({})",
                r.players[r.first.other().index()],
                side(r.first.other())
            )
        );
        if let Some(id) = r.id {
            text = format!("#{id} {text}");
        }
        text.push(' ');
        text.push_str(&narrate::record_headline(r.over.as_ref(), &r.players, &loc));
        if let Some(over) = &r.over {
            text.push_str(&format!(
                " {}.",
                narrate::record_reason(over, &r.players, &loc)
            ));
        }
        if let Some(m) = &r.in_match {
            text.push_str(&format!(
                " {}.",
                narrate::match_of_game(m, &r.players, &loc)
            ));
        }
        if let (Some(swap), GameSettings::Caro { width, height, .. }) = (&r.swap, &r.game) {
            // The opening as it was played: `An h8 i9 h10, Bình two more: j9 g9, An Black`.
            text.push_str(&format!(
                "\n  {}: {}",
                tr!(loc, "plain.swap_played"),
                narrate::swap_steps(swap, &r.players, *width, *height)
            ));
        }
        for (n, pair) in r.moves.chunks(2).enumerate() {
            let words: Vec<String> = pair
                .iter()
                .map(|m| {
                    let mut t = r.move_text(&m.mv);
                    if !m.wxf.is_empty() {
                        t = format!("{t} ({}{})", m.wxf, if m.check { "+" } else { "" });
                    }
                    t
                })
                .collect();
            text.push_str(&format!("\n  {:>3}. {}", n + 1, words.join("  ")));
        }
        self.emit("replay", fields, &text);
        if self.format == Format::Text {
            let mut end = r.clone();
            end.go_to(usize::MAX);
            let rows = match end.board() {
                crate::room::Board::Caro(g) => Some(caro_rows(g, end.winning_line())),
                crate::room::Board::Xiangqi(g) => Some(xiangqi_rows(g)),
                crate::room::Board::Unsupported => None,
            };
            if let Some(rows) = rows {
                self.text_block(&rows.picture);
            }
        }
    }

    /// The servers `banco discover` found in `wait`.
    pub fn servers(&mut self, found: &[crate::discover::Found], wait: std::time::Duration) {
        let loc = &self.locale;
        let mut text = if found.is_empty() {
            tr!(
                loc,
                "plain.no_servers",
                wait = crate::room::clock::time_control_text(&TimeControl::per_move(wait))
            )
        } else {
            tr!(loc, "plain.servers_count", count = found.len())
        };
        let name_w = found
            .iter()
            .map(|f| f.name.chars().count())
            .max()
            .unwrap_or(0);
        let addr_w = found
            .iter()
            .map(|f| f.address_text().len())
            .max()
            .unwrap_or(0);
        for f in found {
            let what = if f.compatible() {
                tr!(
                    loc,
                    "connect.server_load",
                    rooms = f.rooms,
                    players = f.players
                )
            } else {
                tr!(loc, "connect.server_other_version", version = f.version)
            };
            let pad = " ".repeat(name_w - f.name.chars().count());
            let key = crate::discover::key_text(f, loc)
                .map(|k| format!(" · {k}"))
                .unwrap_or_default();
            text.push_str(&format!(
                "\n  {}{pad}  {:<addr_w$}  {what}{key}",
                f.name,
                f.address_text()
            ));
            if f.key != crate::discover::Key::Known
                && let Some(fp) = f.fingerprint
            {
                text.push_str("\n    ");
                text.push_str(&tr!(loc, "plain.server_key", fingerprint = fp));
            }
        }
        if found.iter().any(|f| f.compatible()) {
            text.push('\n');
            text.push_str(tr!(loc, "plain.servers_join"));
        }
        let list: Vec<Value> = found
            .iter()
            .map(|f| {
                json!({
                    "name": f.name,
                    "address": f.address.to_string(),
                    "rooms": f.rooms,
                    "players": f.players,
                    "version": f.version,
                    "compatible": f.compatible(),
                    "fingerprint": f.fingerprint.map(|fp| fp.hex()),
                    "key": f.key.as_str(),
                })
            })
            .collect();
        self.emit("servers", json!({"servers": list}), &text);
    }

    /// A record file was written.
    /// A change in the challenges, as the server said it: someone challenges us (with the
    /// bell), ours is out, one ended, the lists.
    pub fn challenge_change(&mut self, change: &Change, state: &Challenges, me: &str) {
        let loc = self.locale.clone();
        match change {
            Change::Incoming(ch) => {
                self.ring();
                let text = challenges::incoming_text(ch, me, &loc);
                let answer = tr!(loc, "plain.challenge_answer", id = ch.id);
                self.emit(
                    "challenged",
                    challenge_json(ch, me),
                    &format!("{text} {answer}"),
                );
            }
            Change::Sent(ch) => {
                let text = challenges::sent_text(ch, &loc);
                self.emit("challenge_sent", challenge_json(ch, me), &text);
            }
            Change::Ended { id, end, was } => {
                let text = challenges::ended_text(*id, end, was.as_ref(), me, &loc);
                let mut fields = json!({"id": id});
                match end {
                    banco_protocol::ChallengeEnd::Accepted { room, by } => {
                        fields["end"] = json!("accepted");
                        fields["room"] = json!(room);
                        fields["by"] = json!(by);
                    }
                    banco_protocol::ChallengeEnd::Declined { by, reason } => {
                        fields["end"] = json!("declined");
                        fields["by"] = json!(by);
                        fields["reason"] = json!(reason.as_str());
                    }
                    banco_protocol::ChallengeEnd::Cancelled => fields["end"] = json!("cancelled"),
                    banco_protocol::ChallengeEnd::Expired => fields["end"] = json!("expired"),
                    banco_protocol::ChallengeEnd::Withdrawn => fields["end"] = json!("withdrawn"),
                }
                self.emit("challenge_ended", fields, &text);
            }
            Change::Open => self.open_challenges(&state.open, me),
            Change::Players => self.players(&state.players),
            Change::Policy(policy) => {
                let text = tr!(
                    loc,
                    "challenge.policy_set",
                    policy = challenges::policy_text(*policy, &loc)
                );
                self.emit("challenges_set", json!({"policy": policy.as_str()}), &text);
            }
        }
    }

    /// The people list.
    pub fn players(&mut self, list: &[banco_protocol::PlayerLine]) {
        let loc = self.locale.clone();
        let mut text = tr!(loc, "plain.players", count = list.len());
        for p in list {
            let mut notes = Vec::new();
            if p.playing {
                notes.push(tr!(loc, "challenge.playing").to_string());
            }
            match p.challenges {
                banco_protocol::ChallengePolicy::Everyone => {}
                banco_protocol::ChallengePolicy::Accounts => {
                    notes.push(tr!(loc, "challenge.accounts_only").to_string());
                }
                banco_protocol::ChallengePolicy::Nobody => {
                    notes.push(tr!(loc, "challenge.off").to_string());
                }
            }
            let notes = if notes.is_empty() {
                String::new()
            } else {
                format!(" ({})", notes.join(", "))
            };
            text.push_str(&format!("\n  {}{notes}", challenges::player_name(p, &loc)));
        }
        let players: Vec<Value> = list
            .iter()
            .map(|p| {
                json!({
                    "name": p.name,
                    "level": p.level.map(|l| l.name()),
                    "account": p.account,
                    "bot": p.bot,
                    "playing": p.playing,
                    "challenges": p.challenges.as_str(),
                })
            })
            .collect();
        self.emit("players", json!({"players": players}), &text);
    }

    /// The open challenges anyone may take, as the server listed them.
    pub fn open_challenges(&mut self, list: &[banco_protocol::Challenge], me: &str) {
        let loc = self.locale.clone();
        let mut text = tr!(loc, "plain.open_challenges", count = list.len());
        for ch in list {
            text.push_str(&format!("\n  {}", challenges::open_line(ch, &loc)));
        }
        let list: Vec<Value> = list.iter().map(|c| challenge_json(c, me)).collect();
        self.emit("open_challenges", json!({"challenges": list}), &text);
    }

    /// Every challenge in play (the `challenges` command).
    pub fn challenges(&mut self, state: &Challenges, me: &str) {
        let loc = self.locale.clone();
        let mut text = tr!(
            loc,
            "plain.challenges_policy",
            policy = challenges::policy_text(state.policy, &loc)
        );
        let sections = [
            ("challenge.section_incoming", &state.incoming),
            ("challenge.section_sent", &state.sent),
            ("challenge.section_open", &state.open),
        ];
        for (title, list) in sections {
            text.push_str(&format!("\n  {}:", tr!(loc, title)));
            if list.is_empty() {
                text.push_str(&format!(" {}", tr!(loc, "challenge.none")));
            }
            for ch in list {
                text.push_str(&format!("\n    {}", challenges::open_line(ch, &loc)));
            }
        }
        let list = |l: &[banco_protocol::Challenge]| -> Vec<Value> {
            l.iter().map(|c| challenge_json(c, me)).collect()
        };
        self.emit(
            "challenges",
            json!({
                "incoming": list(&state.incoming),
                "sent": list(&state.sent),
                "open": list(&state.open),
                "policy": state.policy.as_str(),
            }),
            &text,
        );
    }

    /// The tournament list.
    pub fn tournaments(&mut self, list: &[banco_protocol::TournamentSummary]) {
        let loc = self.locale.clone();
        let mut text = if list.is_empty() {
            tr!(loc, "tournament.none").to_string()
        } else {
            tr!(loc, "tournament.list_title", count = list.len()).to_string()
        };
        for t in list {
            text.push_str(&format!("\n  {}", tournament_line(t, &loc)));
        }
        self.emit(
            "tournaments",
            json!({"tournaments": serde_json::to_value(list).unwrap_or_default()}),
            &text,
        );
    }

    /// One tournament: its line, the current round's pairings, the standings.
    pub fn tournament(&mut self, v: &banco_protocol::TournamentView) {
        let loc = self.locale.clone();
        let mut text = tournament_line(&v.summary, &loc);
        text.push_str(&format!(
            "\n  {}",
            crate::narrate::tournament_terms(&v.settings, &loc)
        ));
        let round = v.summary.round;
        if round > 0 {
            text.push_str(&format!(
                "\n  {}",
                tr!(loc, "tournament.round", round = round)
            ));
            for b in v.boards.iter().filter(|b| b.round == round) {
                let result = b.result.map_or_else(
                    || match b.room {
                        Some(room) => tr!(loc, "tournament.playing_in", room = room).to_string(),
                        None => tr!(loc, "tournament.playing").to_string(),
                    },
                    |r| {
                        let mut t = r.text().to_string();
                        if b.by_hand {
                            t.push_str(&format!(" ({})", tr!(loc, "tournament.by_hand")));
                        }
                        t
                    },
                );
                text.push_str(&format!(
                    "\n    {}. {} - {}  {}",
                    b.board,
                    v.name_of(b.white),
                    v.name_of(b.black),
                    result
                ));
            }
            for y in v.byes.iter().filter(|y| y.round == round) {
                text.push_str(&format!(
                    "\n    {}: {} ({})",
                    tr!(loc, "tournament.bye"),
                    v.name_of(y.entrant),
                    hundredths(i64::from(y.points) * 10)
                ));
            }
        }
        for r in &v.bye_requests {
            text.push_str(&format!(
                "\n  {}",
                tr!(
                    loc,
                    "tournament.bye_asked",
                    round = r.round,
                    name = v.name_of(r.entrant)
                )
            ));
        }
        let heads: Vec<&str> = v.tie_breaks.iter().map(|t| t.code()).collect();
        text.push_str(&format!(
            "\n  {}{}",
            tr!(loc, "tournament.standings"),
            if heads.is_empty() {
                String::new()
            } else {
                format!(" ({})", heads.join(" "))
            }
        ));
        for l in &v.standings {
            let values: Vec<String> = l.tie_breaks.iter().map(|x| hundredths(*x)).collect();
            let away = v.entrant(l.entrant).is_some_and(|e| e.away && !e.withdrawn);
            text.push_str(&format!(
                "\n    {}. {} {}{}{}{}",
                l.rank,
                v.name_of(l.entrant),
                hundredths(i64::from(l.points) * 10),
                if values.is_empty() {
                    String::new()
                } else {
                    format!("  [{}]", values.join(" "))
                },
                if l.on_fire { " 🔥" } else { "" },
                if away {
                    format!("  ({})", loc.get("tournament.away"))
                } else {
                    String::new()
                }
            ));
        }
        self.emit(
            "tournament",
            serde_json::to_value(v).unwrap_or_default(),
            &text,
        );
    }

    pub fn saved(&mut self, path: &std::path::Path) {
        let text = tr!(self.locale, "replay.saved", path = path.display());
        self.emit("saved", json!({"path": path.display().to_string()}), &text);
    }

    /// The board after something changed it: for people only (JSON asks with `board`).
    fn auto_board(&mut self, room: &Room) {
        if self.format == Format::Text {
            self.board(room);
        }
    }

    pub fn board(&mut self, room: &Room) {
        let Some(rows) = board_rows(room) else {
            let message = tr!(self.locale, "plain.no_board").to_string();
            self.error("no_game", &message);
            return;
        };
        let last = room
            .game
            .as_ref()
            .and_then(|g| g.last_move())
            .map(|m| move_json(room, &m.mv));
        match self.format {
            Format::Json => self.emit("board", json!({"rows": rows.cells, "last": last}), ""),
            Format::Text => self.text_block(&rows.picture),
        }
    }

    /// Prints what `msg` means, given the room as it stands after the message was
    /// applied (`room` is `None` outside rooms).
    pub fn server_msg(&mut self, msg: &ServerMsg, room: Option<&Room>) {
        let loc = self.locale.clone();
        let loc = &loc;
        match msg {
            ServerMsg::Welcome(w) => self.welcome(w),
            ServerMsg::Rooms(list) => self.rooms(list),
            ServerMsg::RoomsChanged { changed, closed } => self.rooms_changed(changed, closed),
            ServerMsg::RoomCreated(id) => {
                let text = tr!(loc, "event.room_created", room = id);
                self.emit("room_created", json!({"room": id}), &text);
            }
            ServerMsg::Error(e) => {
                // JSON keeps the server's sentence; text mode words it in the language.
                let text = narrate::server_error(e, loc);
                self.emit(
                    "error",
                    json!({"code": e.code.as_str(), "message": e.message}),
                    &format!("[{}] {text}", e.code.as_str()),
                );
            }
            ServerMsg::Left => {
                self.emit("left", json!({}), tr!(loc, "event.left"));
            }
            ServerMsg::Leaderboard { game, standings } => self.leaderboard(*game, standings),
            ServerMsg::Profile(p) => self.profile(p),
            ServerMsg::History(list) => self.history(list),
            ServerMsg::Storage(storage) => self.storage(storage),
            ServerMsg::PasswordChanged => {
                self.emit(
                    "password_changed",
                    json!({}),
                    tr!(loc, "event.password_changed"),
                );
            }
            ServerMsg::Replay(record) => {
                self.replay(&crate::record::Replay::from_record((**record).clone()));
            }
            ServerMsg::ReviewProgress { game, done, total } => {
                let text = tr!(loc, "review.progress", done = done, total = total);
                self.emit(
                    "review_progress",
                    json!({"game": game, "done": done, "total": total}),
                    &format!("#{game} {text}"),
                );
            }
            ServerMsg::Review(review) => self.review(review),
            ServerMsg::Tournaments(list) => self.tournaments(list),
            ServerMsg::Tournament(view) => self.tournament(view),
            ServerMsg::TournamentGame(game) => {
                self.ring();
                let text = tr!(
                    loc,
                    "tournament.game_ready",
                    round = game.round,
                    board = game.board,
                    opponent = game.opponent,
                    room = game.room,
                    colour = if game.white {
                        loc.get("tournament.white")
                    } else {
                        loc.get("tournament.black")
                    },
                    secs = game.forfeit_secs
                );
                self.emit(
                    "tournament_game",
                    serde_json::to_value(game).unwrap_or_default(),
                    &text,
                );
            }
            ServerMsg::TournamentOver { id, winners } => {
                let text = tr!(
                    loc,
                    "tournament.over",
                    id = id,
                    winners = winners.join(", ")
                );
                self.emit(
                    "tournament_over",
                    json!({"tournament": id, "winners": winners}),
                    &text,
                );
            }
            ServerMsg::TournamentExport { name, text } => {
                let line = tr!(loc, "tournament.exported", name = name, bytes = text.len());
                self.emit(
                    "tournament_export",
                    json!({"name": name, "bytes": text.len()}),
                    &line,
                );
            }
            _ => {
                if let Some(room) = room {
                    self.room_msg(msg, room, loc);
                }
            }
        }
    }

    fn room_msg(&mut self, msg: &ServerMsg, room: &Room, loc: &Locale) {
        let me = room.my_seat();
        match msg {
            ServerMsg::Joined(_) => {
                let (game, rule, width, height) = match &room.settings.game {
                    GameSettings::Caro {
                        width,
                        height,
                        rule,
                        ..
                    } => ("caro", Some(rule.name()), *width, *height),
                    GameSettings::Xiangqi { .. } => ("xiangqi", None, 9, 10),
                };
                let g = room.game.as_ref();
                let moves: Vec<Value> = g
                    .map(|g| {
                        g.moves
                            .iter()
                            .map(|m| {
                                let mut v = move_json(room, &m.mv);
                                v["by"] = json!(seat_str(m.by));
                                v
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                let (opening, mut opening_stones) = opening_json(&room.settings.game);
                if let Some(g) = g.filter(|_| game == "caro") {
                    // The stones the game in progress started from (dealt, if balanced).
                    opening_stones = stones_json(&g.opening, width, height);
                }
                let fields = json!({
                    "room": room.id,
                    "you": role_str(room.you),
                    "stone": me.map(|s| stone_word(room, s)),
                    "game": game,
                    "rule": rule,
                    "width": width,
                    "height": height,
                    "opening": opening,
                    "opening_stones": opening_stones,
                    "time": time_json(&room.settings.time),
                    "hints": room.settings.hints,
                    "seats": seats_json(room),
                    "spectators": room.spectators,
                    "game_number": g.map(|g| g.number),
                    "moves": moves,
                    "to_move": room.to_move().map(seat_str),
                    "over": g.and_then(|g| g.over.as_ref()).map(|o| o.reason.as_str()),
                    "offer": room.offer.map(|o| json!({"kind": o.kind.as_str(), "by": seat_str(o.by)})),
                    "series": series_json(room),
                    "match": match_json(room),
                    "chat": room.chat.iter().map(|line| json!({
                        "from": line.from,
                        "text": line.text,
                        "at_ms": line.at_ms,
                        "time": crate::room::clock::chat_time(line.at_ms),
                    })).collect::<Vec<_>>(),
                });
                let mut text = narrate::joined(room, loc);
                if let Some(line) = narrate::match_line(room, loc) {
                    text = format!("{text} {line}.");
                } else if room.series.games() > 0 {
                    text = format!("{text} {}", series_text(room, loc));
                }
                if room.game.is_some()
                    && let Some(t) = narrate::turn(room, loc)
                {
                    text = format!("{text} {t}");
                }
                self.emit("joined", fields, &text);
                // The room's recent chat, as its `chat` lines read, so someone coming
                // (back) in reads what was said.
                let said: String = room
                    .chat
                    .iter()
                    .map(|line| {
                        let time = crate::room::clock::chat_time(line.at_ms);
                        format!("  [{time}] {}: {}\n", line.from, line.text)
                    })
                    .collect();
                self.text_block(&said);
                if room.game.as_ref().is_some_and(|g| !g.moves.is_empty()) {
                    self.auto_board(room);
                }
            }
            ServerMsg::People { .. } => {
                let text = tr!(
                    loc,
                    "event.people",
                    one = narrate::sitting_name(room, Seat::One, loc),
                    two = narrate::sitting_name(room, Seat::Two, loc),
                    watching = room.spectators.len()
                );
                self.emit(
                    "people",
                    json!({"seats": seats_json(room), "spectators": room.spectators}),
                    &text,
                );
            }
            ServerMsg::GameStarted(view) => {
                let mut text = narrate::game_started(room, loc);
                let opening = match room.settings.game {
                    GameSettings::Caro { width, height, .. } => {
                        if !view.opening.is_empty() {
                            let stones = opening::stones_text(&view.opening, width, height);
                            text = format!(
                                "{text} {}",
                                tr!(loc, "plain.opening_dealt", stones = stones)
                            );
                        }
                        stones_json(&view.opening, width, height)
                    }
                    GameSettings::Xiangqi { .. } => json!([]),
                };
                if let Some(t) = narrate::turn(room, loc) {
                    text = format!("{text} {t}");
                }
                self.emit(
                    "game_started",
                    json!({
                        "game": view.number,
                        "seats": seats_json(room),
                        "first": seat_str(view.first),
                        "first_name": raw_name(room, view.first),
                        "you": role_str(room.you),
                        "your_turn": room.my_turn(),
                        "time": time_json(&room.settings.time),
                        "opening": opening,
                    }),
                    &text,
                );
            }
            ServerMsg::Swap(view) => {
                let (width, height) = match room.settings.game {
                    GameSettings::Caro { width, height, .. } => (width, height),
                    GameSettings::Xiangqi { .. } => (15, 15),
                };
                let last = view.steps.last().map(|step| match *step {
                    banco_protocol::SwapStep::Stone { by, point } => {
                        let n = view.stones.iter().position(|p| *p == point).unwrap_or(0);
                        let stone = if n % 2 == 0 { "X" } else { "O" };
                        tr!(
                            loc,
                            "room.swap_place",
                            name = narrate::seat_name(room, by, loc),
                            n = n + 1,
                            stone = stone
                        )
                        .replace(" places ", " placed ")
                            + &format!(
                                ": {}",
                                crate::room::board::caro_point_text(point, width, height)
                            )
                    }
                    banco_protocol::SwapStep::Decided { by, choice } => {
                        narrate::swap_decided(room, by, choice, loc)
                    }
                });
                let mut text = last.unwrap_or_default();
                if let Some(t) = narrate::swap_line(room, loc) {
                    text = format!("{text}. {t}");
                }
                let me = room.my_seat();
                self.emit(
                    "swap",
                    json!({
                        "kind": match view.kind { CaroOpening::Swap1 => "swap1", _ => "swap2" },
                        "stage": format!("{:?}", view.stage).to_lowercase(),
                        "proposer": seat_str(view.proposer),
                        "to_act": view.to_act.map(seat_str),
                        "your_turn": view.to_act.is_some() && view.to_act == me,
                        "choices": view.choices.iter().map(|c| c.word()).collect::<Vec<_>>(),
                        "stones": stones_json(&view.stones, width, height),
                        "x_seat": view.x_seat.map(seat_str),
                    }),
                    &text,
                );
                self.auto_board(room);
            }
            ServerMsg::Moved { record, ply, .. } => {
                let mut fields = move_json(room, &record.mv);
                fields["ply"] = json!(ply);
                fields["by"] = json!(seat_str(record.by));
                fields["name"] = json!(raw_name(room, record.by));
                fields["stone"] = json!(stone_word(room, record.by));
                fields["your_turn"] = json!(room.my_turn());
                match record.mv {
                    Move::Xiangqi { .. } => {
                        fields["wxf"] = json!(record.wxf);
                        fields["check"] = json!(record.check);
                    }
                    // A five that does not win under the room's rule, and why.
                    Move::Caro(_) => {
                        fields["not_a_win"] =
                            json!(narrate::not_a_win(room, record).map(narrate::not_a_win_word));
                    }
                }
                if me.is_some() && me != Some(record.by) {
                    self.ring();
                }
                let mut text = format!("{ply}. {}", narrate::moved(room, record, loc));
                if room.my_turn() {
                    text = format!("{text}. {}", tr!(loc, "plain.your_turn"));
                }
                self.emit("move", fields, &text);
                self.auto_board(room);
            }
            ServerMsg::Chat(line) => {
                let time = crate::room::clock::chat_time(line.at_ms);
                self.emit(
                    "chat",
                    json!({"from": line.from, "text": line.text, "at_ms": line.at_ms, "time": time}),
                    &format!("[{time}] {}: {}", line.from, line.text),
                );
            }
            ServerMsg::Offered(offer) => {
                let mut text = narrate::offered(room, offer, loc);
                if me.is_some() && me != Some(offer.by) {
                    self.ring();
                    text = format!("{text} {}", tr!(loc, "plain.answer_hint"));
                } else if me == Some(offer.by) {
                    text = format!("{text} {}", tr!(loc, "plain.cancel_hint"));
                }
                self.emit(
                    &format!("{}_offered", offer.kind.as_str()),
                    json!({
                        "by": seat_str(offer.by),
                        "name": raw_name(room, offer.by),
                        "mine": me == Some(offer.by),
                    }),
                    &text,
                );
            }
            ServerMsg::Declined(offer) => {
                let text = narrate::declined(room, offer, loc);
                self.emit(
                    &format!("{}_declined", offer.kind.as_str()),
                    json!({"by": seat_str(offer.by), "name": raw_name(room, offer.by.other())}),
                    &text,
                );
            }
            ServerMsg::Withdrawn(offer) => {
                let text = narrate::withdrawn(room, offer, loc);
                self.emit(
                    &format!("{}_withdrawn", offer.kind.as_str()),
                    json!({"by": seat_str(offer.by), "name": raw_name(room, offer.by)}),
                    &text,
                );
            }
            ServerMsg::Undone { plies, .. } => {
                let moves = room.game.as_ref().map_or(0, |g| g.moves.len());
                let mut text = narrate::undone(*plies, loc);
                if let Some(t) = narrate::turn(room, loc) {
                    text = format!("{text} {t}");
                }
                self.emit(
                    "undone",
                    json!({
                        "plies": plies,
                        "moves": moves,
                        "to_move": room.to_move().map(seat_str),
                        "your_turn": room.my_turn(),
                    }),
                    &text,
                );
                self.auto_board(room);
            }
            ServerMsg::Clock(c) => {
                let text = Seat::BOTH
                    .iter()
                    .map(|s| {
                        let t =
                            clock_text(std::time::Duration::from_millis(c.remaining_ms[s.index()]));
                        let run = if c.running == Some(*s) { " *" } else { "" };
                        format!("{} {t}{run}", narrate::seat_name(room, *s, loc))
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                self.emit(
                    "clock",
                    json!({"remaining_ms": c.remaining_ms, "running": c.running.map(seat_str)}),
                    &text,
                );
            }
            ServerMsg::GameOver(over) => {
                if me.is_some() {
                    self.ring();
                }
                let line: Vec<Value> = over.line.iter().map(|p| json!([p.x, p.y])).collect();
                let mut text = narrate::game_over(room, over, loc);
                // In a match, the `match` or `match_over` line that follows says the
                // score and what comes next.
                let in_match = room.match_state.is_some();
                if !in_match {
                    text = format!("{text} {}", series_text(room, loc));
                }
                // Suggest a rematch only to a player still at the table.
                let walked_out = matches!(over.reason, EndReason::Quit | EndReason::Abandoned)
                    && over.winner.map(Seat::other) == me;
                if me.is_some() && !walked_out && !in_match {
                    text = format!("{text} {}", tr!(loc, "plain.after_game"));
                }
                self.emit(
                    "game_over",
                    json!({
                        "result": result_word(over, me),
                        "winner": over.winner.map(seat_str),
                        "winner_name": over.winner.and_then(|w| raw_name(room, w)),
                        "reason": over.reason.as_str(),
                        "line": line,
                        "series": series_json(room),
                    }),
                    &text,
                );
                if over.reason == EndReason::Five {
                    self.auto_board(room);
                }
            }
            ServerMsg::Hint(mv) => {
                let fields = move_json(room, mv);
                let text = tr!(loc, "event.hint", point = room.move_text(mv));
                self.emit("hint", fields, &text);
            }
            ServerMsg::Match(state) => {
                // A game of the match begins (its place in it), or one ends without
                // deciding it (the score, and when the next begins).
                let text = if room.playing() {
                    match state.game {
                        1 => tr!(
                            loc,
                            "match.began",
                            format = narrate::match_format(&state.format, loc)
                        ),
                        game => tr!(loc, "match.game", game = game),
                    }
                } else {
                    let line = narrate::match_line(room, loc).unwrap_or_default();
                    let next = narrate::match_next(room, std::time::Instant::now(), loc)
                        .unwrap_or_default();
                    format!("{line}. {next}")
                };
                self.emit("match", match_json(room), &text);
            }
            ServerMsg::MatchOver(result) => {
                if me.is_some() {
                    self.ring();
                }
                let mut fields = match_result_json(result);
                fields["result"] = json!(match (result.winner, me) {
                    (None, _) => "draw",
                    (Some(w), Some(m)) if w == m => "win",
                    (Some(_), Some(_)) => "loss",
                    (Some(_), None) => "decisive",
                });
                fields["winner_name"] = json!(result.winner.and_then(|w| raw_name(room, w)));
                let mut text = narrate::match_over(room, result, loc);
                if me.is_some() {
                    text = format!("{text} {}", tr!(loc, "plain.after_match"));
                }
                self.emit("match_over", fields, &text);
            }
            ServerMsg::Welcome(_)
            | ServerMsg::Rooms(_)
            | ServerMsg::RoomsChanged { .. }
            | ServerMsg::RoomCreated(_)
            | ServerMsg::Left
            | ServerMsg::Error(_) => {}
            // Records are printed by `server_msg`, in or out of a room.
            ServerMsg::Leaderboard { .. }
            | ServerMsg::Profile(_)
            | ServerMsg::History(_)
            | ServerMsg::Replay(_)
            | ServerMsg::Ping(_)
            | ServerMsg::PasswordChanged
            | ServerMsg::LoggedOut
            | ServerMsg::ReviewProgress { .. }
            | ServerMsg::Review(_)
            | ServerMsg::Storage(_) => {}
            // Printed from the client's challenges as they change (see `challenge_change`).
            ServerMsg::ChallengeSent(_)
            | ServerMsg::Challenged(_)
            | ServerMsg::ChallengeEnded { .. }
            | ServerMsg::OpenChallenges(_)
            | ServerMsg::Players(_)
            | ServerMsg::ChallengesSet(_)
            | ServerMsg::Tournaments(_)
            | ServerMsg::Tournament(_)
            | ServerMsg::TournamentGame(_)
            | ServerMsg::TournamentOver { .. }
            | ServerMsg::TournamentExport { .. } => {}
            // Never asked for: this client carries the rules.
            // What a client without the rules asks for (the browser page); this one has them.
            ServerMsg::Facts(_)
            | ServerMsg::Judged(_)
            | ServerMsg::Tried(_)
            | ServerMsg::RecordParsed(_)
            | ServerMsg::RecordText { .. }
            | ServerMsg::RecordRefused { .. } => {}
        }
    }
}

/// The board as text: one string per row of `.`/`X`/`O`, and a labelled picture with
/// the last move in brackets and the winning line in lower case.
pub struct BoardRows {
    pub cells: Vec<String>,
    pub picture: String,
}

/// The board of the room's game, if it has one this build can draw.
pub fn board_rows(room: &Room) -> Option<BoardRows> {
    let game = room.game.as_ref()?;
    if let Some(xq) = game.board.xiangqi() {
        return Some(xiangqi_rows(xq));
    }
    let win: &[Point] = game.over.as_ref().map_or(&[], |o| o.line.as_slice());
    Some(caro_rows(game.board.caro()?, win))
}

/// A caro board as text; `win` is drawn in lower case.
pub fn caro_rows(caro: &banco_rules::caro::Game, win: &[Point]) -> BoardRows {
    let board = caro.board();
    let (w, h) = (board.width(), board.height());
    let last = caro.last_move();
    let letters = w <= 26;
    let mut picture = String::new();
    // Each cell is two characters, a separator then the stone, so the separators can
    // bracket the last move: `. .[X]. .`.
    let header = |label: &dyn Fn(u8) -> char| {
        let cols: String = (0..w).flat_map(|x| [' ', label(x)]).collect();
        format!("   {cols}\n")
    };
    if letters {
        picture.push_str(&header(&|x| char::from(b'a' + x)));
    } else {
        picture.push_str(&header(&|x| char::from(b'0' + x / 10)));
        picture.push_str(&header(&|x| char::from(b'0' + x % 10)));
    }
    let mut cells = Vec::with_capacity(usize::from(h));
    for y in 0..h {
        let label = if letters { h - y } else { y };
        let mut row = String::with_capacity(usize::from(w));
        picture.push_str(&format!("{label:>2} "));
        for x in 0..w {
            let p = Point::new(x, y);
            let c = board.stone_at(p).map_or('.', Stone::symbol);
            row.push(c);
            let sep = if last == Some(p) {
                '['
            } else if x > 0 && last == Some(Point::new(x - 1, y)) {
                ']'
            } else {
                ' '
            };
            picture.push(sep);
            picture.push(if win.contains(&p) {
                c.to_ascii_lowercase()
            } else {
                c
            });
        }
        let trail = if last == Some(Point::new(w - 1, y)) {
            ']'
        } else {
            ' '
        };
        picture.push_str(&format!("{trail}{label}\n"));
        cells.push(row);
    }
    BoardRows { cells, picture }
}

/// A xiangqi board as text: FEN letters (upper case Red, lower case Black), rank 9 at
/// the top as Red sees it, ICCS coordinates on the edges, the last move's squares in
/// brackets.
pub fn xiangqi_rows(game: &banco_rules::xiangqi::game::Game) -> BoardRows {
    use banco_rules::xiangqi::square::Square;
    let pos = game.position();
    let last = game.plies().last().map(|p| (p.mv.from(), p.mv.to()));
    let marked = |sq: Square| last.is_some_and(|(f, t)| f == sq || t == sq);
    let mut picture = String::from("    a b c d e f g h i\n");
    let mut cells = Vec::with_capacity(10);
    for rank in (0..10u8).rev() {
        let mut row = String::with_capacity(9);
        picture.push_str(&format!("{rank:>2} "));
        for file in 0..9u8 {
            let Some(sq) = Square::new(file, rank) else {
                continue;
            };
            let c = pos.piece_at(sq).map_or('.', |p| p.fen_char());
            row.push(c);
            let before = file > 0 && Square::new(file - 1, rank).is_some_and(marked);
            let sep = if marked(sq) {
                '['
            } else if before {
                ']'
            } else {
                ' '
            };
            picture.push(sep);
            picture.push(c);
        }
        let trail = if Square::new(8, rank).is_some_and(marked) {
            ']'
        } else {
            ' '
        };
        picture.push_str(&format!("{trail}{rank}\n"));
        if rank == 5 {
            picture.push_str("   ~~~~~~~~~~~~~~~~~~~\n");
        }
        cells.push(row);
    }
    BoardRows { cells, picture }
}

/// A move as plain mode accepts it back: `7,7` in caro, ICCS (`h2e2`) in xiangqi.
fn plain_move(mv: &Move) -> String {
    match mv {
        Move::Caro(p) => format!("{},{}", p.x, p.y),
        Move::Xiangqi { from, to } => format!(
            "{}{}",
            crate::room::board::iccs_square(*from),
            crate::room::board::iccs_square(*to)
        ),
    }
}
