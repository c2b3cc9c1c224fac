//! A search thread: takes the most urgent job, runs it on the thread's own engine and
//! answers. A panicking engine is caught: the job answers without a move and the thread
//! builds a fresh engine for its next job.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use banco_rules::Level;
use banco_rules::caro::Rule;
use banco_rules::game::GameSpec;

use super::job::{Finished, Job, Priority};
use super::{Engine, EngineFactory, Shared};

/// Numbers pools, so each one's threads can be told apart (`engine-POOL-THREAD`).
static NEXT_POOL: AtomicUsize = AtomicUsize::new(1);

/// The pool number the next [`spawn_all`] uses.
pub(super) fn next_pool() -> usize {
    NEXT_POOL.fetch_add(1, Ordering::Relaxed)
}

/// A search thread's engines, one for each game, each built when the first job of its
/// game comes and kept after: a thread serving caro and xiangqi games in turn never
/// builds a table inside a move's time. Building one is not cheap: a table of 128 MB took
/// 0.1 to 1.6 s on the 2-core development machine (the kernel finds and zeroes its huge
/// pages), and a host with one search thread, a caro bot and a xiangqi bot rebuilt it on
/// every move when a thread held one engine at a time. Each game's engine gets half of
/// the thread's share of the memory budget, so the budget holds with both built.
#[derive(Default)]
struct Engines {
    /// The caro engine and the board and rule its tables hold now.
    caro: Option<(CaroBoard, Box<dyn Engine>)>,
    xiangqi: Option<Box<dyn Engine>>,
}

/// The board size and rule a caro engine's tables were filled under: positions of
/// another size or rule must not meet them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct CaroBoard {
    width: u8,
    height: u8,
    rule: Rule,
}

impl Engines {
    /// The engine for `spec`'s game, built first if the thread has none yet (with
    /// `hash_bytes` of table); a caro engine last used on another board or rule forgets
    /// what it learned, keeping its tables' memory.
    fn for_game(
        &mut self,
        spec: &GameSpec,
        level: Level,
        factory: &EngineFactory,
        hash_bytes: usize,
    ) -> &mut Box<dyn Engine> {
        match spec {
            GameSpec::Caro {
                width,
                height,
                rule,
                ..
            } => {
                let board = CaroBoard {
                    width: *width,
                    height: *height,
                    rule: *rule,
                };
                let (held, engine) = self
                    .caro
                    .get_or_insert_with(|| (board, factory(spec, level, hash_bytes)));
                if *held != board {
                    engine.forget();
                    *held = board;
                }
                engine
            }
            GameSpec::Xiangqi { .. } => self
                .xiangqi
                .get_or_insert_with(|| factory(spec, level, hash_bytes)),
        }
    }

    /// Drops the engine for `spec`'s game (it panicked): the next job builds a fresh one.
    fn drop_for(&mut self, spec: &GameSpec) {
        match spec {
            GameSpec::Caro { .. } => self.caro = None,
            GameSpec::Xiangqi { .. } => self.xiangqi = None,
        }
    }
}

/// Starts search thread `index` of pool `pool`, whose engines get `hash_bytes` of table
/// between them.
pub(super) fn spawn(
    pool: usize,
    index: usize,
    shared: Arc<Shared>,
    factory: EngineFactory,
    hash_bytes: usize,
) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name(thread_name(pool, index))
        .spawn(move || run(index, &shared, &factory, hash_bytes))
        .map(drop)
}

/// `engine-POOL-THREAD`: what `top -H` and /proc show for a search thread.
pub(super) fn thread_name(pool: usize, index: usize) -> String {
    format!("engine-{pool}-{index}")
}

fn run(index: usize, shared: &Shared, factory: &EngineFactory, hash_bytes: usize) {
    let mut engines = Engines::default();
    loop {
        let (job, stop) = {
            let mut queue = shared.lock();
            loop {
                if queue.is_closed() {
                    return;
                }
                if let Some(taken) = queue.take(index) {
                    break taken;
                }
                queue = shared
                    .work
                    .wait(queue)
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
            }
        };
        let finished = if job.is_called_off() {
            Finished::cancelled()
        } else {
            let _room = job.span.enter();
            search(&job, stop, &mut engines, factory, hash_bytes / 2)
        };
        let mut queue = shared.lock();
        let preempted = queue.finish(index).is_some_and(|r| r.preempted);
        // A search stopped for a more urgent job answers with the move it has (its game
        // goes on, a little weaker, rather than starting over each time a person moves);
        // one stopped before it found any goes back to the head of its line, and so does
        // a review, whose positions are all analysed at the same budget.
        let again = finished.best.is_none() || job.priority == Priority::Review;
        if preempted && again && !job.is_called_off() && !queue.is_closed() {
            queue.requeue(job);
            drop(queue);
            shared.work.notify_all();
            continue;
        }
        let closed = queue.is_closed();
        drop(queue);
        let cancelled = finished.cancelled || closed || job.is_called_off();
        job.answer(Finished {
            cancelled,
            ..finished
        });
    }
}

/// Runs `job` on the thread's engine for its game (built first if there is none yet,
/// with `hash_bytes` of table).
fn search(
    job: &Job,
    stop: banco_engine::bot::Cancel,
    engines: &mut Engines,
    factory: &EngineFactory,
    hash_bytes: usize,
) -> Finished {
    let brain = engines.for_game(&job.spec, job.level, factory, hash_bytes);
    brain.set_level(job.level);
    if job.priority == Priority::Review {
        brain.judge();
    }
    let mut limits = job.limits.clone().with_cancel(stop);
    if let Some(budget) = job.budget {
        let end = std::time::Instant::now() + budget;
        limits.deadline = Some(limits.deadline.map_or(end, |d| d.min(end)));
    }
    match std::panic::catch_unwind(AssertUnwindSafe(|| brain.think(&job.game, &limits))) {
        Ok(t) => {
            tracing::debug!(
                priority = ?job.priority,
                best = ?t.best,
                score = t.score,
                depth = t.depth,
                nodes = t.nodes,
                ms = t.elapsed.as_millis() as u64,
                "search done"
            );
            Finished {
                lost: brain.proves_loss(t.score),
                best: t.best,
                score: t.score,
                line: t.pv,
                cancelled: false,
            }
        }
        Err(_) => {
            tracing::error!(priority = ?job.priority, "the engine panicked; its thread builds a fresh one");
            engines.drop_for(&job.spec);
            Finished::default()
        }
    }
}
