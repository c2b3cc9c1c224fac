//! What a room hands the pool, and what it keeps to call the job off.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Weak};

use banco_engine::bot::Limits;
use banco_rules::Level;
use banco_rules::game::{Game, GameSpec, Move};

use super::Shared;

/// Which jobs go first. Earlier variants are more urgent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Priority {
    /// A bot's move in a game with a person waiting for it.
    PersonsBot,
    /// A hint a player asked for.
    Hint,
    /// A bot's move in a game between bots (people only watch).
    BotsOnly,
    /// A position of a finished game under review: it waits for every move and hint, and
    /// a running one is stopped for any of them.
    Review,
}

impl Priority {
    /// Every priority, most urgent first.
    pub const ALL: [Priority; 4] = [
        Priority::PersonsBot,
        Priority::Hint,
        Priority::BotsOnly,
        Priority::Review,
    ];

    pub(super) fn index(self) -> usize {
        self as usize
    }
}

/// What a job found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Finished {
    /// The move; `None` when the search found none, panicked, or was called off.
    pub best: Option<Move>,
    /// Its score from the mover's side (0 when unknown).
    pub score: i32,
    /// The line it expected, starting with `best`.
    pub line: Vec<Move>,
    /// The job was called off before it could answer (its handle, or the pool closing).
    pub cancelled: bool,
    /// The search proved the mover lost by force (a mate or a five against it): a bot
    /// resigns on it.
    pub lost: bool,
}

impl Finished {
    pub(super) fn cancelled() -> Finished {
        Finished {
            cancelled: true,
            ..Finished::default()
        }
    }
}

/// Where a job's answer goes (called once, on a search thread or by whoever cancels it).
pub type Reply = Box<dyn FnOnce(Finished) + Send>;

/// Numbers jobs so a handle finds its job in the queue.
static NEXT_JOB: AtomicU64 = AtomicU64::new(1);

/// A search for the pool to run.
pub struct Job {
    /// Which queue it waits in.
    pub priority: Priority,
    /// The game's kind (board size and rule), to pick or build a fitting engine.
    pub spec: GameSpec,
    /// How strong the move should be.
    pub level: Level,
    /// The position, its history included (repetitions).
    pub game: Game,
    /// Its deadline (the room's clock, the level's time, counted from submission) and
    /// caps; the cancel flag in it is the pool's to set.
    pub limits: Limits,
    /// Where the answer goes.
    pub reply: Reply,
    /// Thinking time counted from when a thread takes the job rather than from
    /// submission: a review's fixed budget per position, however long it waited.
    pub(super) budget: Option<std::time::Duration>,
    /// Set by its handle: the answer is no longer wanted.
    pub(super) called_off: Arc<AtomicBool>,
    /// Its number, for its handle.
    pub(super) id: u64,
    /// The submitter's log span (the room), which the search logs under.
    pub(super) span: tracing::Span,
}

impl Job {
    /// A job; its deadline and caps are in `limits`.
    pub fn new(
        priority: Priority,
        spec: GameSpec,
        level: Level,
        game: Game,
        limits: Limits,
        reply: impl FnOnce(Finished) + Send + 'static,
    ) -> Job {
        Job {
            priority,
            spec,
            level,
            game,
            limits,
            reply: Box::new(reply),
            budget: None,
            called_off: Arc::default(),
            id: NEXT_JOB.fetch_add(1, Ordering::Relaxed),
            span: tracing::Span::current(),
        }
    }

    /// Thinks for `budget` from the moment a thread starts on it (and starts over at
    /// full budget if stopped for a more urgent job).
    pub fn with_budget(mut self, budget: std::time::Duration) -> Job {
        self.budget = Some(budget);
        self
    }

    pub(super) fn handle(&self, pool: Weak<Shared>) -> JobHandle {
        JobHandle {
            id: self.id,
            called_off: self.called_off.clone(),
            pool,
        }
    }

    pub(super) fn is_called_off(&self) -> bool {
        self.called_off.load(Ordering::Relaxed)
    }

    /// Sends the answer.
    pub(super) fn answer(self, finished: Finished) {
        (self.reply)(finished);
    }
}

/// Calls a job off: a waiting job leaves the queue (answered as cancelled at once), a
/// running one is stopped (it answers with what it has, marked cancelled). Dropping the
/// handle calls the job off too, so a room that closes leaves no work behind.
#[derive(Debug)]
pub struct JobHandle {
    /// The job's number.
    id: u64,
    /// Shared with the job.
    called_off: Arc<AtomicBool>,
    /// The pool, unless it has closed.
    pool: Weak<Shared>,
}

impl JobHandle {
    /// Calls the job off (once; later calls do nothing).
    pub fn cancel(&self) {
        if self.called_off.swap(true, Ordering::Relaxed) {
            return;
        }
        let Some(pool) = self.pool.upgrade() else {
            return;
        };
        let removed = pool.lock().call_off(self.id);
        if let Some(job) = removed {
            job.answer(Finished::cancelled());
        }
    }
}

impl Drop for JobHandle {
    fn drop(&mut self) {
        self.cancel();
    }
}
