//! Reopening a room for a game that was in progress when the server stopped: the moves
//! are replayed through the rules, the players' seats are held for them (their resume
//! tokens bring them back), the clocks wait until everyone is back, and the series score
//! and the chat are as the players last saw them. A match comes back with its room: with
//! its game in progress ([`restore`]), or between two games ([`restore_break`]: the next
//! starts once everyone is back and its break is over).

use std::time::Duration;
use tokio::time::Instant;
use tokio_util::task::TaskTracker;

use banco_protocol::{CaroOpening, GameSettings, MoveRecord, RoomId, Seat};
use banco_rules::game::{Game, GameSpec, Side};

use super::chat::ChatHistory;
use super::clock::GameClock;
use super::match_play::MatchPlay;
use super::moves::to_rules;
use super::settings::validate;
use super::{
    BotSeat, CurrentGame, HumanSeat, Opening, Room, RoomContext, RoomHandle, SeatState, launch,
};
use crate::store::{LiveGame, LiveMatch, LiveSeat, PlayerRef};

/// Reopens `live` as room `id`, a game of `in_match` if it is one. Refused (with the
/// reason) if the saved game no longer makes sense: settings this version refuses, a move
/// the rules refuse, a finished game.
pub fn restore(
    id: RoomId,
    live: LiveGame,
    in_match: Option<LiveMatch>,
    ctx: RoomContext,
    tracker: &TaskTracker,
) -> Result<RoomHandle, String> {
    let spec = validate(&live.settings).map_err(|e| e.message)?;
    // A game from a dealt (balanced) opening carries on from the stones it was dealt.
    let dealt = match (&live.settings.game, &spec) {
        (
            GameSettings::Caro {
                opening: CaroOpening::Balanced | CaroOpening::Swap1 | CaroOpening::Swap2,
                ..
            },
            GameSpec::Caro {
                width,
                height,
                rule,
                ..
            },
        ) => GameSpec::Caro {
            width: *width,
            height: *height,
            rule: *rule,
            opening: live.opening.clone(),
        },
        _ => spec.clone(),
    };
    let mut position = Game::new(&dealt).map_err(|e| e.to_string())?;
    let mut moves = Vec::with_capacity(live.moves.len());
    for (ply, mv) in live.moves.iter().enumerate() {
        let by = match position.to_move() {
            Side::First => live.first,
            Side::Second => live.first.other(),
        };
        let rules = to_rules(*mv).ok_or_else(|| format!("move {} is off the board", ply + 1))?;
        position
            .play(rules)
            .map_err(|e| format!("move {}: {e}", ply + 1))?;
        let note = position.note(ply).unwrap_or_default();
        moves.push(MoveRecord {
            mv: *mv,
            by,
            wxf: note.wxf,
            check: note.check,
        });
    }
    if position.ending().is_some() {
        return Err("the game had already ended".into());
    }

    let seats = held_seats(&live.seats, &ctx);
    let players = Seat::BOTH.map(|seat| match &seats[seat.index()] {
        SeatState::Human(h) => PlayerRef {
            name: h.name.clone(),
            bot: None,
        },
        SeatState::Bot(b) => PlayerRef {
            name: b.name.clone(),
            bot: Some(b.level),
        },
        SeatState::Free => PlayerRef {
            name: String::new(),
            bot: None,
        },
    });
    let clock = match live.clocks {
        Some(left) => GameClock::resumed(live.settings.time, left.map(Duration::from_millis)),
        None => GameClock::new(live.settings.time),
    };
    let opening_kind = match &live.settings.game {
        GameSettings::Caro { opening, .. } => opening.clone(),
        GameSettings::Xiangqi { .. } => CaroOpening::None,
    };
    let mut room = Room::new(id, live.settings, spec.clone(), seats, ctx);
    // What the players were told beside the game: the series score and the chat.
    room.series = live.series;
    room.chat = ChatHistory::from_lines(live.chat);
    room.last_number = live.number;
    room.match_play = in_match.as_ref().map(|m| match_play(m, None));
    room.game = Some(CurrentGame {
        key: live.key,
        in_match: live.in_match,
        number: live.number,
        first: live.first,
        position,
        moves,
        clock,
        over: None,
        players,
        started_ms: live.started_ms,
        seq: live.next_seq,
        // Set when everyone is back (the clocks wait for that too).
        first_move_due: None,
        // A swap opening the server stopped in is played again from its start (its acts
        // are not logged); one decided is the game's opening stones.
        swap: if live.opening.is_empty() {
            super::swap::SwapPhase::new(&opening_kind, live.first, &spec)
        } else {
            None
        },
    });
    Ok(launch(room, Opening::Restored, tracker))
}

/// Reopens the room of `live`, a match the server stopped between two of its games, as
/// room `id`: no game on the board, the players' seats held, the score and chat as they
/// last saw them; the next game starts once they are back and a break has passed.
pub fn restore_break(
    id: RoomId,
    live: LiveMatch,
    ctx: RoomContext,
    tracker: &TaskTracker,
) -> Result<RoomHandle, String> {
    let spec = validate(&live.settings).map_err(|e| e.message)?;
    if live.settings.match_format.is_none() {
        return Err("its settings have no match format".into());
    }
    let seats = held_seats(&live.seats, &ctx);
    let next_at = Instant::now() + ctx.config.match_break;
    let mut room = Room::new(id, live.settings.clone(), spec, seats, ctx);
    room.series = live.score;
    room.chat = ChatHistory::from_lines(live.chat.clone());
    room.last_number = live.last_game;
    room.match_play = Some(match_play(&live, Some(next_at)));
    Ok(launch(room, Opening::Restored, tracker))
}

/// The seats of a reopened room: people's held for them until the restart's grace is
/// over (their resume tokens bring them back), bots in theirs.
fn held_seats(seats: &[LiveSeat; 2], ctx: &RoomContext) -> [SeatState; 2] {
    let held_until = Instant::now() + ctx.config.restart_grace;
    seats.clone().map(|seat| match seat {
        LiveSeat::Human { name, token } => SeatState::Human(HumanSeat {
            // No session sits here until its player comes back.
            client: 0,
            name,
            token,
            held_until: Some(held_until),
            // Said again by the player's session when it comes back.
            bot_account: false,
        }),
        LiveSeat::Bot(level) => SeatState::Bot(BotSeat::new(level)),
    })
}

/// The room's match as it was saved, still being played.
fn match_play(live: &LiveMatch, next_at: Option<Instant>) -> MatchPlay {
    MatchPlay {
        key: live.key,
        number: live.number,
        format: live.format(),
        opener: live.opener,
        started_ms: live.started_ms,
        result: None,
        next_at,
    }
}
