//! The waiting jobs, one first-in first-out line per priority, and what each search thread
//! is doing: the one place that decides what runs next, what gets stopped for a more
//! urgent job, and when the pool is too busy for a hint.

use std::collections::VecDeque;

use banco_engine::bot::Cancel;

use super::job::{Job, Priority};

/// A job on a search thread.
pub(super) struct Running {
    /// The job's number.
    id: u64,
    /// Its priority.
    priority: Priority,
    /// Stops the search (the job is called off, the pool closes, or a more urgent job
    /// takes the thread).
    stop: Cancel,
    /// Stopped for a more urgent job: it answers with what it has, or goes back in line.
    pub(super) preempted: bool,
}

/// The pool's whole state, behind one lock.
pub(super) struct Queue {
    /// Waiting jobs by [`Priority::index`].
    waiting: [VecDeque<Job>; 4],
    /// By thread: the job it runs, if any.
    running: Vec<Option<Running>>,
    /// The pool is closing: nothing more is taken.
    closed: bool,
}

impl Queue {
    pub(super) fn new(threads: usize) -> Queue {
        Queue {
            waiting: Default::default(),
            running: (0..threads).map(|_| None).collect(),
            closed: false,
        }
    }

    pub(super) fn is_closed(&self) -> bool {
        self.closed
    }

    /// Puts `job` in line; a closing pool hands it back.
    #[must_use]
    pub(super) fn push(&mut self, job: Job) -> Option<Job> {
        if self.closed {
            return Some(job);
        }
        self.waiting[job.priority.index()].push_back(job);
        self.make_room();
        None
    }

    /// Puts a stopped job back at the head of its line.
    pub(super) fn requeue(&mut self, job: Job) {
        self.waiting[job.priority.index()].push_front(job);
        self.make_room();
    }

    /// Stops as many running searches as there are more urgent jobs waiting with no
    /// free thread to take them: a review gives way to every move and hint, a game
    /// between bots to a person's bot and a hint. People are never kept waiting by games
    /// between bots, and no game waits for a review.
    fn make_room(&mut self) {
        let free = self.running.iter().filter(|r| r.is_none()).count();
        let already = self
            .running
            .iter()
            .flatten()
            .filter(|r| r.preempted)
            .count();
        let mut spare = free + already;
        for urgent in [Priority::PersonsBot, Priority::Hint, Priority::BotsOnly] {
            for _ in 0..self.waiting[urgent.index()].len() {
                if spare > 0 {
                    spare -= 1;
                    continue;
                }
                // The least urgent search that gives way to this job.
                let victim = self
                    .running
                    .iter_mut()
                    .flatten()
                    .filter(|r| {
                        !r.preempted && r.priority > urgent && r.priority >= Priority::BotsOnly
                    })
                    .max_by_key(|r| r.priority);
                let Some(victim) = victim else { break };
                victim.preempted = true;
                victim.stop.cancel();
            }
        }
    }

    /// The most urgent waiting job for thread `thread`, now marked as running there, with
    /// the flag that stops its search.
    pub(super) fn take(&mut self, thread: usize) -> Option<(Job, Cancel)> {
        if self.closed {
            return None;
        }
        let job = self.waiting.iter_mut().find_map(VecDeque::pop_front)?;
        let stop = Cancel::new();
        self.running[thread] = Some(Running {
            id: job.id,
            priority: job.priority,
            stop: stop.clone(),
            preempted: false,
        });
        Some((job, stop))
    }

    /// Thread `thread` is done with its job; what it was running.
    pub(super) fn finish(&mut self, thread: usize) -> Option<Running> {
        self.running[thread].take()
    }

    /// Calls off job `id`: a waiting one is taken out of line and handed back (to be
    /// answered as cancelled), a running one is stopped.
    pub(super) fn call_off(&mut self, id: u64) -> Option<Job> {
        for line in &mut self.waiting {
            if let Some(at) = line.iter().position(|j| j.id == id) {
                return line.remove(at);
            }
        }
        if let Some(r) = self.running.iter().flatten().find(|r| r.id == id) {
            r.stop.cancel();
        }
        None
    }

    /// Whether a hint would have to wait: every thread already has a person's bot move
    /// or a hint to work on, running or waiting. (Bots-only searches and reviews give way, and
    /// searches called off are only winding down, so they do not count.)
    pub(super) fn saturated(&self) -> bool {
        let waiting = self.waiting[Priority::PersonsBot.index()].len()
            + self.waiting[Priority::Hint.index()].len();
        let running = self
            .running
            .iter()
            .flatten()
            .filter(|r| r.priority < Priority::BotsOnly && !r.stop.is_cancelled())
            .count();
        waiting + running >= self.running.len()
    }

    /// Closes the pool: running searches are stopped, waiting jobs handed back.
    pub(super) fn close(&mut self) -> Vec<Job> {
        self.closed = true;
        for r in self.running.iter().flatten() {
            r.stop.cancel();
        }
        self.waiting
            .iter_mut()
            .flat_map(|line| line.drain(..))
            .collect()
    }
}
