//! Reopening a room for a game that was in progress when the server stopped: the moves
//! are replayed through the rules, the players' seats are held for them (their resume
//! tokens bring them back), the clocks wait until everyone is back, and the series score
//! and the chat are as the players last saw them.

use std::time::Duration;
use tokio::time::Instant;
use tokio_util::task::TaskTracker;

use banco_protocol::{CaroOpening, GameSettings, MoveRecord, RoomId, Seat};
use banco_rules::game::{Game, GameSpec, Side};

use super::chat::ChatHistory;
use super::clock::GameClock;
use super::moves::to_rules;
use super::settings::validate;
use super::{BotSeat, HumanSeat, Match, Opening, Room, RoomContext, RoomHandle, SeatState, launch};
use crate::store::{LiveGame, LiveSeat, PlayerRef};

/// Reopens `live` as room `id`. Refused (with the reason) if the saved game no longer
/// makes sense: settings this version refuses, a move the rules refuse, a finished game.
pub fn restore(
    id: RoomId,
    live: LiveGame,
    ctx: RoomContext,
    tracker: &TaskTracker,
) -> Result<RoomHandle, String> {
    let spec = validate(&live.settings).map_err(|e| e.message)?;
    // A game from a dealt (balanced) opening carries on from the stones it was dealt.
    let dealt = match (&live.settings.game, &spec) {
        (
            GameSettings::Caro {
                opening: CaroOpening::Balanced,
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

    let held_until = Instant::now() + ctx.config.restart_grace;
    let seats = live.seats.clone().map(|seat| match seat {
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
    });
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
    let mut room = Room::new(id, live.settings, spec, seats, ctx);
    // What the players were told beside the game: the series score and the chat.
    room.series = live.series;
    room.chat = ChatHistory::from_lines(live.chat);
    room.game = Some(Match {
        key: live.key,
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
    });
    Ok(launch(room, Opening::Restored, tracker))
}
