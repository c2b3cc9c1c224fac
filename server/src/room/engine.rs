//! How a room's searches travel to the server's engine pool and back.
//!
//! A bot's move or a hint is a [`Job`] of the [`EnginePool`](crate::engines::EnginePool);
//! its answer comes back over the room's answer channel, tagged with the position
//! generation it was asked about, so an answer the room no longer wants (after an undo, a
//! new game, the game's end) is recognised and dropped.

use std::time::Duration;
use tokio::sync::mpsc;

use banco_protocol::Seat;
use banco_rules::game::Move;

use crate::engines::Finished;

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
    /// The room's position generation when the search was asked for.
    pub generation: u64,
    /// Its move; `None` if it found none, panicked or was called off.
    pub best: Option<Move>,
    /// Its score from the mover's side (0 when unknown).
    pub score: i32,
    /// Called off before it answered (the room no longer wanted it).
    pub cancelled: bool,
    /// The search proved the mover lost by force (a mate or a five against it).
    pub lost: bool,
}

/// Where a job's answer goes: back to the room, as an [`Answer`] to `asker` about the
/// position of `generation`.
pub fn reply_to(
    answers: mpsc::UnboundedSender<Answer>,
    asker: Asker,
    generation: u64,
) -> impl FnOnce(Finished) + Send + 'static {
    move |f: Finished| {
        // The room may be gone (closed, shut down); then nobody wants the answer.
        let _ = answers.send(Answer {
            asker,
            generation,
            best: f.best,
            score: f.score,
            cancelled: f.cancelled,
            lost: f.lost,
        });
    }
}

/// Budget for a search when the mover has `left` on its clock: a slice of the bank (or
/// most of a per-move timer), always leaving a margin to send the move back. With an
/// increment a twentieth of the bank and most of the increment; without one (sudden
/// death) a thirtieth, because a long xiangqi game (a hundred moves and more before the
/// sixty-move rule) on a twentieth ended 1+0 games with 0.15 s left.
pub fn clock_budget(left: Duration, increment: Duration, per_move: bool) -> Duration {
    let margin = (left / 10).max(Duration::from_millis(150));
    let usable = left.saturating_sub(margin);
    if per_move {
        usable
    } else if increment.is_zero() {
        (left / 30).min(usable)
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
        // Sudden death plans on thirty more moves; an increment on twenty and the increment.
        assert_eq!(clock_budget(s(60), s(0), false), s(2));
        assert_eq!(
            clock_budget(s(60), s(1), false),
            s(3) + Duration::from_millis(750)
        );
    }
}
