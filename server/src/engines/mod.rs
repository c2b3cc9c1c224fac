//! One pool of engines for the whole server, in the model of lichess's fishnet: rooms
//! submit jobs (a position, a level, a deadline) and a fixed number of search threads
//! serve them, instead of an engine, a hash table and a thread per bot seat.
//!
//! - `job`: what a room submits ([`Job`]), the [`Priority`] it runs at and the
//!   [`JobHandle`] that cancels it.
//! - `queue`: the waiting jobs by priority, and when the pool counts as saturated.
//! - `worker`: a search thread: takes the most urgent job, runs it on its own engine,
//!   answers.
//!
//! Memory: each thread owns one engine whose hash table gets an equal share of
//! `--engine-memory`; the table is kept from job to job (its entries are checked against
//! the full position key, so positions of other rooms only compete for its slots) and is
//! emptied when a thread moves to another kind of game (another board size or rule), whose
//! positions it must not confuse. Nothing else the engines use grows with rooms.
//!
//! Priorities: a bot move in a game with a person comes first, then hints, then moves of
//! games between bots. A job of the first two kinds that finds every thread busy stops a
//! bots-only search, which answers with the best move it has found so far (or, if it has
//! none yet, goes back to the head of its queue): under load, games between bots play on,
//! faster and weaker, and never stall. The async runtime never runs a search: workers are
//! plain threads.

mod job;
mod queue;
mod worker;

pub use job::{Finished, Job, JobHandle, Priority};

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

use banco_engine::bot::{GameBot, Limits, Thought};
use banco_rules::Level;
use banco_rules::game::{Game, GameSpec, Move};

use queue::Queue;

/// What a pool thread needs from an engine, whatever the game.
pub trait Engine: Send {
    /// A move for the side to move, within `limits` (which can only shorten the level's
    /// own budget).
    fn think(&mut self, game: &Game, limits: &Limits) -> Thought<Move>;
    /// Plays at `level` from the next search on, keeping what it learned.
    fn set_level(&mut self, level: Level);
    /// Forgets what it learned, keeping its tables' memory: the next positions are of
    /// another kind (a caro board of another size, or another rule).
    fn forget(&mut self) {}
    /// Judges rather than plays, until the next [`Engine::set_level`]: every position
    /// searched (no opening book's pick), without a level's deliberate noise. For
    /// reviews, whose scores must be the engine's own.
    fn judge(&mut self) {}
    /// Whether `score` from [`Engine::think`] says the mover is lost by force (a mate or
    /// a five against it). An engine that cannot tell says no.
    fn proves_loss(&self, _score: i32) -> bool {
        false
    }
}

impl Engine for GameBot {
    fn think(&mut self, game: &Game, limits: &Limits) -> Thought<Move> {
        GameBot::think(self, game, limits)
    }

    fn set_level(&mut self, level: Level) {
        GameBot::set_level(self, level);
    }

    fn proves_loss(&self, score: i32) -> bool {
        GameBot::proves_loss(self, score)
    }

    fn forget(&mut self) {
        GameBot::new_game(self);
    }

    fn judge(&mut self) {
        match self {
            GameBot::Xiangqi(engine) => {
                let config = banco_engine::xiangqi::Config {
                    use_book: false,
                    root_noise: 0,
                    lapse: 0,
                    ..engine.config().clone()
                };
                engine.set_config(config);
            }
            GameBot::Caro(engine) => {
                let config = banco_engine::caro::Config {
                    imprecision: 0,
                    lapse: 0,
                    ..engine.config().clone()
                };
                engine.set_config(config);
            }
        }
    }
}

/// Builds an engine for games like the spec, at a level, with a hash table of at most so
/// many bytes. The real one is [`GameBot::with_hash`]; tests put in engines they control.
pub type EngineFactory = Arc<dyn Fn(&GameSpec, Level, usize) -> Box<dyn Engine> + Send + Sync>;

/// The default number of search threads: every core but one (left to the sessions and
/// rooms), and at least one.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1))
}

/// The default memory for all hash tables together.
pub const DEFAULT_MEMORY: usize = 256 << 20;

/// The level's own thinking time per move for `spec`'s game.
pub fn level_time(spec: &GameSpec, level: Level) -> Duration {
    match spec {
        GameSpec::Caro { .. } => banco_engine::caro::Config::for_level(level).move_time,
        GameSpec::Xiangqi { .. } => banco_engine::xiangqi::Config::for_level(level).move_time,
    }
}

/// The pool's state, shared by its threads and every handle.
struct Shared {
    /// The waiting jobs and what each thread is doing.
    state: Mutex<Queue>,
    /// Rung when a job arrives or the pool closes.
    work: Condvar,
}

impl Shared {
    /// The state; a thread that panicked while holding it left it consistent (every
    /// change is made in one step), so a poisoned lock is used as it is.
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Closes the pool when the last handle goes (the server stopped): running searches are
/// stopped, waiting jobs answered as cancelled, threads end.
struct Owner {
    shared: Arc<Shared>,
}

impl Drop for Owner {
    fn drop(&mut self) {
        let dropped = self.shared.lock().close();
        self.shared.work.notify_all();
        for job in dropped {
            job.answer(Finished::cancelled());
        }
    }
}

/// The server's engine pool: a cheap handle rooms submit jobs through.
#[derive(Clone)]
pub struct EnginePool {
    /// Shared by every handle; the last one closes the pool.
    owner: Arc<Owner>,
    /// This pool's number among the process's pools (in its threads' names).
    pool: usize,
    /// Search threads.
    threads: usize,
    /// Bytes of hash table each thread's engine gets.
    share: usize,
}

impl std::fmt::Debug for EnginePool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EnginePool")
            .field("threads", &self.threads)
            .field("hash_bytes_per_thread", &self.share)
            .finish()
    }
}

impl EnginePool {
    /// Starts `threads` search threads (at least one) sharing `memory` bytes of hash
    /// tables, with banco's own engines. Fails if the system will not start a thread.
    /// The tables all engines share are built on a thread of their own meanwhile, so
    /// that no bot's first move builds one inside its deadline (a job that comes first
    /// waits for the table it needs, as it would have built it).
    pub fn start(threads: usize, memory: usize) -> std::io::Result<EnginePool> {
        let factory: EngineFactory =
            Arc::new(|spec, level, bytes| Box::new(GameBot::with_hash(spec, level, bytes)));
        let pool = EnginePool::with_factory(threads, memory, factory)?;
        let warm_up = std::thread::Builder::new()
            .name("engine-warm-up".into())
            .spawn(GameBot::warm_up);
        if let Err(e) = warm_up {
            tracing::warn!(error = %e, "no thread to build the engines' tables ahead: the first bot move of each rule builds its own");
        }
        Ok(pool)
    }

    /// As [`EnginePool::start`], with engines from `factory`.
    pub fn with_factory(
        threads: usize,
        memory: usize,
        factory: EngineFactory,
    ) -> std::io::Result<EnginePool> {
        let threads = threads.max(1);
        let share = memory / threads;
        let shared = Arc::new(Shared {
            state: Mutex::new(Queue::new(threads)),
            work: Condvar::new(),
        });
        // Closes the pool (ending the threads already started) if a later one fails.
        let owner = Arc::new(Owner { shared });
        let pool = worker::next_pool();
        for index in 0..threads {
            worker::spawn(pool, index, owner.shared.clone(), factory.clone(), share)?;
        }
        tracing::info!(threads, memory_mb = memory >> 20, "engine pool started");
        Ok(EnginePool {
            owner,
            pool,
            threads,
            share,
        })
    }

    /// The names of this pool's search threads, as the system shows them.
    pub fn thread_names(&self) -> Vec<String> {
        (0..self.threads)
            .map(|i| worker::thread_name(self.pool, i))
            .collect()
    }

    /// How many search threads serve the pool.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Queues `job`; its answer comes through its reply.
    pub fn submit(&self, job: Job) -> JobHandle {
        let state = self.owner.shared.lock();
        self.enqueue(state, job)
    }

    /// Queues `job` unless the pool is saturated: every thread already has a person's
    /// bot move or a hint to work on, running or waiting.
    pub fn try_submit(&self, job: Job) -> Result<JobHandle, Saturated> {
        let state = self.owner.shared.lock();
        if state.saturated() {
            return Err(Saturated);
        }
        Ok(self.enqueue(state, job))
    }

    fn enqueue(&self, mut state: MutexGuard<'_, Queue>, job: Job) -> JobHandle {
        let shared = &self.owner.shared;
        let handle = job.handle(Arc::downgrade(shared));
        match state.push(job) {
            None => {
                drop(state);
                shared.work.notify_all();
            }
            // The pool is closing: nobody will run it.
            Some(rejected) => {
                drop(state);
                rejected.answer(Finished::cancelled());
            }
        }
        handle
    }
}

/// The pool had no room for a hint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the server's engines are busy with other games")]
pub struct Saturated;

#[cfg(test)]
mod tests;
