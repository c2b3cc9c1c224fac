//! A search thread: takes the most urgent job, runs it on the thread's own engine and
//! answers. A panicking engine is caught: the job answers without a move and the thread
//! builds a fresh engine for its next job.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

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

/// The kind of game an engine's tables hold: positions of another kind must not meet them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    Caro { width: u8, height: u8, rule: Rule },
    Xiangqi,
}

impl Family {
    fn of(spec: &GameSpec) -> Family {
        match spec {
            GameSpec::Caro {
                width,
                height,
                rule,
                ..
            } => Family::Caro {
                width: *width,
                height: *height,
                rule: *rule,
            },
            GameSpec::Xiangqi { .. } => Family::Xiangqi,
        }
    }
}

/// Starts search thread `index` of pool `pool`, whose engine gets `hash_bytes` of table.
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
    let mut engine: Option<(Family, Box<dyn Engine>)> = None;
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
            search(&job, stop, &mut engine, factory, hash_bytes)
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

/// Runs `job` on the thread's engine (built, or rebuilt for another kind of game, first).
fn search(
    job: &Job,
    stop: banco_engine::bot::Cancel,
    engine: &mut Option<(Family, Box<dyn Engine>)>,
    factory: &EngineFactory,
    hash_bytes: usize,
) -> Finished {
    let family = Family::of(&job.spec);
    if engine.as_ref().is_none_or(|(f, _)| *f != family) {
        // Free the old tables before building the new ones: the budget holds both ways.
        *engine = None;
        *engine = Some((family, factory(&job.spec, job.level, hash_bytes)));
    }
    let Some((_, brain)) = engine.as_mut() else {
        return Finished::default();
    };
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
            *engine = None;
            Finished::default()
        }
    }
}
