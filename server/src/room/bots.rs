//! Bot seats and hints: when to ask the server's engine pool for a search, what it may
//! spend, and what to do with its answer. Searches never run on the runtime: they are jobs
//! of [`crate::engines`] (see [`super::engine`]).

use std::time::Duration;
use tokio::time::Instant;

use banco_engine::bot::Limits;
use banco_protocol::{EndReason, ErrorCode, ErrorMsg, Seat, ServerMsg, TimeControl};
use banco_rules::Level;

use super::engine::{Answer, Asker, reply_to};
use super::moves::{any_legal_move, to_wire};
use super::{CurrentGame, PendingMove, Room, SeatState};
use crate::ClientId;
use crate::engines::{Job, Priority, level_time};
use banco_engine::bot::clock_budget;

/// The level the hint engine plays at (under the hint budget).
const HINT_LEVEL: Level = Level::Hard;

impl Room {
    /// Whether both seats are bots (people only watch).
    pub(super) fn bots_only(&self) -> bool {
        self.seats.iter().all(|s| matches!(s, SeatState::Bot(_)))
    }

    /// Stops searches the room no longer wants, and starts the bot's search if a bot is
    /// to move and is not already on it. Called after every event.
    pub(super) fn drive_bots(&mut self) {
        let generation = self.generation;
        for seat in &mut self.seats {
            if let SeatState::Bot(bot) = seat {
                bot.slot.cancel_unless(generation);
                if bot
                    .pending
                    .as_ref()
                    .is_some_and(|p| p.generation != generation)
                {
                    bot.pending = None;
                }
            }
        }
        self.hint.cancel_unless(generation);

        let Some(m) = self.game.as_ref().filter(|m| m.running()) else {
            return;
        };
        if m.in_swap() {
            return self.drive_swap_bot();
        }
        let seat = m.to_move();
        // People waiting for a bot come before games only bots play.
        let priority = if self.bots_only() {
            Priority::BotsOnly
        } else {
            Priority::PersonsBot
        };
        let SeatState::Bot(bot) = &self.seats[seat.index()] else {
            return;
        };
        // Out on a search (a stale one comes back soon and we look again), or holding a
        // move for the pause between moves.
        if bot.slot.out.is_some() || bot.pending.is_some() {
            return;
        }
        let level = bot.level;
        // A person waiting for the bot waits no longer than the level's time, counted from
        // now (the queue's wait is part of it). A bots-only search has only its clock to
        // keep: its level's time counts from when a thread takes it up.
        let mut limits = self.limits_for(m, seat);
        if priority == Priority::PersonsBot {
            limits = limits.tighten(level_time(&self.spec, level));
        }
        let job = Job::new(
            priority,
            self.spec.clone(),
            level,
            m.position.clone(),
            limits,
            reply_to(self.answers_tx.clone(), Asker::Bot(seat), generation),
        );
        let handle = self.ctx.engines.submit(job);
        if let SeatState::Bot(bot) = &mut self.seats[seat.index()] {
            bot.slot.out = Some((generation, handle));
        }
    }

    /// What a search for `seat` may spend: the configured cap and a slice of its clock
    /// (the level's own budget applies inside the engine).
    pub(super) fn limits_for(&self, m: &CurrentGame, seat: Seat) -> Limits {
        let mut limits = Limits::none();
        if let Some(cap) = self.ctx.config.bot_think_cap {
            limits = limits.tighten(cap);
        }
        if let Some(c) = &m.clock {
            let left = c.left(seat, Instant::now());
            let (increment, per_move) = match self.settings.time {
                TimeControl::Clock {
                    increment_millis, ..
                } => (Duration::from_millis(increment_millis), false),
                _ => (Duration::ZERO, true),
            };
            limits = limits.tighten(clock_budget(left, increment, per_move));
        }
        limits
    }

    /// A search came back.
    pub(super) fn on_answer(&mut self, answer: Answer) {
        self.check_flag(Instant::now());
        match answer.asker {
            Asker::Bot(seat) => {
                if !self.swap_bot_answer(seat, &answer) {
                    self.bot_answer(seat, answer);
                }
            }
            Asker::Hint(client) => {
                self.hint.out = None;
                if answer.cancelled || answer.generation != self.generation {
                    return;
                }
                let hint = answer
                    .best
                    .or_else(|| self.game.as_ref().and_then(|m| any_legal_move(&m.position)));
                if let Some(mv) = hint {
                    self.tell(client, ServerMsg::Hint(to_wire(mv)));
                }
            }
        }
    }

    fn bot_answer(&mut self, seat: Seat, answer: Answer) {
        let generation = self.generation;
        // Bots playing each other pause between moves so that people can follow, unless
        // a game clock runs: it paces the game itself, and the pause would be spent from
        // the mover's bank (at 1+0 a bot lost on time to 0.8 s a move of waiting).
        let banked = matches!(self.settings.time, TimeControl::Clock { .. });
        let pause_until = (self.bots_only() && !banked)
            .then(|| self.last_move_at.map(|t| t + self.ctx.config.bot_delay))
            .flatten();
        let position = self.game.as_ref().map(|m| &m.position);
        let opponent_is_a_person = matches!(self.seats[seat.other().index()], SeatState::Human(_));
        // A game given up before both sides have moved is aborted, not lost: the bot plays
        // its first move whatever it sees, so that its resignation is the person's win.
        let has_moved = self
            .game
            .as_ref()
            .is_some_and(|m| m.moves.iter().any(|r| r.by == seat));
        let SeatState::Bot(bot) = &mut self.seats[seat.index()] else {
            return;
        };
        bot.slot.out = None;
        if answer.cancelled || answer.generation != generation {
            return;
        }
        bot.last_score = answer.score;
        // A search that proved the bot lost (a mate or a five no defence escapes) is a
        // fact, not a guess: the bot resigns to a person rather than make them play it
        // out. Against another server bot it plays on: people watch those to the end.
        if answer.lost && opponent_is_a_person && has_moved {
            tracing::info!(?seat, "the bot resigns: its search proved it lost");
            self.finish(Some(seat.other()), EndReason::Resign, Vec::new());
            return;
        }
        let Some(mv) = answer.best.or_else(|| {
            tracing::error!(?seat, "the bot found no move; playing any legal one");
            position.and_then(any_legal_move)
        }) else {
            return;
        };
        match pause_until {
            Some(at) if at > Instant::now() => {
                bot.pending = Some(PendingMove { at, generation, mv });
            }
            _ => self.bot_move(seat, mv),
        }
    }

    /// Plays the bots' moves whose pause is over.
    pub(super) fn play_due_bot_moves(&mut self, now: Instant) {
        for seat in Seat::BOTH {
            let SeatState::Bot(bot) = &mut self.seats[seat.index()] else {
                continue;
            };
            if bot.pending.as_ref().is_some_and(|p| p.at <= now) {
                let pending = bot.pending.take();
                if let Some(p) = pending.filter(|p| p.generation == self.generation) {
                    self.bot_move(seat, p.mv);
                }
            }
        }
    }

    /// Plays the bot's move; an illegal one (an engine bug) is replaced by any legal move.
    fn bot_move(&mut self, seat: Seat, mv: banco_rules::game::Move) {
        if let Err(e) = self.apply_move(seat, to_wire(mv)) {
            tracing::error!(?seat, error = %e, "the bot chose an illegal move");
            let fallback = self.game.as_ref().and_then(|m| any_legal_move(&m.position));
            if let Some(other) = fallback {
                let _ = self.apply_move(seat, to_wire(other));
            }
        }
    }

    /// A player asks the engine for a move for themselves.
    pub(super) fn hint(&mut self, client: ClientId) -> Result<(), ErrorMsg> {
        let seat = self.player(client, "ask for hints")?;
        if !self.settings.hints {
            return Err(ErrorMsg::new(
                ErrorCode::HintsOff,
                "hints are turned off in this room",
            ));
        }
        let Some(m) = self.game.as_ref() else {
            return Err(ErrorMsg::new(ErrorCode::NoGame, "no game is running"));
        };
        if !m.running() {
            return Err(ErrorMsg::new(ErrorCode::GameOver, "the game is over"));
        }
        if m.in_swap() {
            return Err(ErrorMsg::new(
                ErrorCode::IllegalMove,
                "hints come once the opening is decided",
            ));
        }
        if m.to_move() != seat {
            return Err(ErrorMsg::new(
                ErrorCode::NotYourTurn,
                "hints are for the player to move",
            ));
        }
        if self.hint.out.is_some() {
            return Err(ErrorMsg::new(
                ErrorCode::Busy,
                "a hint is already on its way",
            ));
        }
        if self.hint.last_asked == Some(self.generation) {
            return Err(ErrorMsg::new(
                ErrorCode::HintUsed,
                "you have had your hint for this move; you can ask again after your next move",
            ));
        }
        let limits = self
            .limits_for(m, seat)
            .tighten(self.ctx.config.hint_budget)
            .tighten(level_time(&self.spec, HINT_LEVEL));
        let job = Job::new(
            Priority::Hint,
            self.spec.clone(),
            HINT_LEVEL,
            m.position.clone(),
            limits,
            reply_to(
                self.answers_tx.clone(),
                Asker::Hint(client),
                self.generation,
            ),
        );
        let Ok(handle) = self.ctx.engines.try_submit(job) else {
            return Err(ErrorMsg::new(
                ErrorCode::EnginesBusy,
                "the server's engines are busy with other games: ask for a hint again in a moment",
            ));
        };
        self.hint.out = Some((self.generation, handle));
        self.hint.last_asked = Some(self.generation);
        Ok(())
    }

    /// Stops every search (the game ended, the room is closing).
    pub(super) fn cancel_searches(&self) {
        for seat in &self.seats {
            if let SeatState::Bot(bot) = seat
                && let Some((_, job)) = &bot.slot.out
            {
                job.cancel();
            }
        }
        if let Some((_, job)) = &self.hint.out {
            job.cancel();
        }
    }
}
