//! The engine behind a bot seat or a hint, and how it is run off the async runtime.
//!
//! A search runs on the blocking pool with the engine moved into it; the engine comes back
//! with its answer (keeping its hash tables for the next move) over the room's answer
//! channel, tagged with the position generation it was asked about, so an answer the
//! room no longer wants (after an undo, a new game, the game's end) is recognised and
//! dropped. A panicking engine is caught: the room gets no move and builds a fresh engine.

use std::panic::AssertUnwindSafe;
use std::time::Duration;
use tokio::sync::mpsc;

use banco_engine::bot::{GameBot, Level, Limits, Thought};
use banco_engine::game::{Game, GameSpec, Move};
use banco_protocol::Seat;

/// What a room needs from an engine, whatever the game.
pub trait Engine: Send + 'static {
    /// A move for the side to move, within `limits` (which can only shorten the level's
    /// own budget).
    fn think(&mut self, game: &Game, limits: &Limits) -> Thought<Move>;
    /// Forget the previous game.
    fn new_game(&mut self);
}

/// Builds the engine for `spec` at `level`.
pub fn engine_for(spec: &GameSpec, level: Level) -> Box<dyn Engine> {
    Box::new(GameBot::new(spec, level))
}

impl Engine for GameBot {
    fn think(&mut self, game: &Game, limits: &Limits) -> Thought<Move> {
        GameBot::think(self, game, limits)
    }

    fn new_game(&mut self) {
        GameBot::new_game(self);
    }
}

/// Who asked for a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asker {
    /// The bot in this seat wants its move.
    Bot(Seat),
    /// This player asked for a hint.
    Hint(crate::ClientId),
}

/// A finished search coming back to its room.
pub struct Answer {
    /// Who the answer is for.
    pub asker: Asker,
    /// The room's position generation when the search started.
    pub generation: u64,
    /// The engine, back home; `None` if it panicked.
    pub engine: Option<Box<dyn Engine>>,
    /// Its move; `None` if it found none or panicked.
    pub best: Option<Move>,
    /// Its score from the mover's side (0 when unknown).
    pub score: i32,
}

/// Runs `engine` on `game` on the blocking pool; the answer arrives on `answers`.
pub fn launch(
    mut engine: Box<dyn Engine>,
    game: Game,
    limits: Limits,
    asker: Asker,
    generation: u64,
    answers: mpsc::UnboundedSender<Answer>,
) {
    // The search logs under its room's span.
    let span = tracing::Span::current();
    tokio::task::spawn_blocking(move || {
        let _room = span.enter();
        let thought = std::panic::catch_unwind(AssertUnwindSafe(|| engine.think(&game, &limits)));
        let answer = match thought {
            Ok(t) => {
                tracing::debug!(
                    ?asker,
                    best = ?t.best,
                    score = t.score,
                    depth = t.depth,
                    nodes = t.nodes,
                    ms = t.elapsed.as_millis() as u64,
                    "search done"
                );
                Answer {
                    asker,
                    generation,
                    engine: Some(engine),
                    best: t.best,
                    score: t.score,
                }
            }
            Err(_) => {
                tracing::error!(?asker, "the engine panicked; the room will use a fresh one");
                Answer {
                    asker,
                    generation,
                    engine: None,
                    best: None,
                    score: 0,
                }
            }
        };
        // The room may be gone (closed, shut down); then nobody wants the answer.
        let _ = answers.send(answer);
    });
}

/// Budget for a search when the mover has `left` on its clock: a slice of the bank (or
/// most of a per-move timer), always leaving a margin to send the move back.
pub fn clock_budget(left: Duration, increment: Duration, per_move: bool) -> Duration {
    let margin = (left / 10).max(Duration::from_millis(150));
    let usable = left.saturating_sub(margin);
    if per_move {
        usable
    } else {
        (left / 20 + increment * 3 / 4).min(usable)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_leave_a_margin() {
        let s = Duration::from_secs;
        assert_eq!(clock_budget(s(20), s(0), true), s(18));
        assert_eq!(
            clock_budget(s(300), s(3), false),
            s(15) + Duration::from_millis(2250)
        );
        assert!(clock_budget(Duration::from_millis(100), s(0), true).is_zero());
        assert!(clock_budget(s(2), s(10), false) < s(2));
    }
}
