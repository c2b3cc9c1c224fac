//! How a room's searches travel to the server's engine pool and back.
//!
//! A bot's move or a hint is a [`Job`] of the [`EnginePool`](crate::engines::EnginePool);
//! its answer comes back over the room's answer channel, tagged with the position
//! generation it was asked about, so an answer the room no longer wants (after an undo, a
//! new game, the game's end) is recognised and dropped.

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
