//! The password hashers: a fixed number of threads (`Config::hashing`, default 2), each
//! computing one argon2id hash at a time in its own 19 MiB ([`Memory`]) that it keeps
//! from one hash to the next. Logins and registrations queue for them.
//!
//! So hashing costs at most `threads` x 19 MiB, allocated once, however many logins come
//! at once: tokio's blocking pool would start a thread per waiting hash, each allocating
//! its own 19 MiB that the allocator then keeps per thread (hundreds of MB after a burst
//! of registrations). The threads end when the last [`Hashers`] handle is dropped.
//!
//! They run at the lowest scheduling priority (nice 19, [`HASHING_NICE`]): a game's
//! commit and its acknowledgement never wait behind a hash for a core, however many
//! people register at once; hashing takes what the games leave (on Linux; elsewhere the
//! threads run at the normal priority).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::sync::{mpsc, oneshot};

use super::password::Memory;

/// Hashes waiting for a thread, at most; more callers wait to queue.
const QUEUE: usize = 256;

/// The nice value of the hashing threads: the lowest priority, so the games come first.
pub const HASHING_NICE: i32 = 19;

/// One hash to compute, with the memory of the thread that takes it.
type Job = Box<dyn FnOnce(&mut Memory) + Send>;

/// A handle on the hashing threads. Cheap to clone.
#[derive(Clone)]
pub struct Hashers {
    /// The queue the threads take jobs from.
    tx: mpsc::Sender<Job>,
    /// What the threads have done, for tests and logs.
    tally: Arc<Tally>,
}

/// Counts kept by the threads.
#[derive(Debug, Default)]
struct Tally {
    /// Hashes being computed now.
    running: AtomicUsize,
    /// The most hashes ever computed at once.
    most_at_once: AtomicUsize,
    /// Work memories ever allocated.
    memories: AtomicUsize,
}

/// The hashing threads are gone (none could be started).
#[derive(Debug, Clone, Copy, thiserror::Error)]
#[error("no thread can hash passwords")]
pub struct HashersGone;

impl Hashers {
    /// Starts `threads` hashing threads (at least one).
    pub fn start(threads: usize) -> Hashers {
        let (tx, rx) = mpsc::channel::<Job>(QUEUE);
        let rx = Arc::new(std::sync::Mutex::new(rx));
        let tally = Arc::new(Tally::default());
        for n in 0..threads.max(1) {
            let rx = rx.clone();
            let tally = tally.clone();
            let started = std::thread::Builder::new()
                .name(format!("banco-hash-{n}"))
                .spawn(move || serve(&rx, &tally));
            if let Err(e) = started {
                tracing::error!(error = %e, "could not start a password hashing thread");
            }
        }
        Hashers { tx, tally }
    }

    /// Runs `work` on a hashing thread, in its memory, once one is free.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Memory) -> T + Send + 'static,
    ) -> Result<T, HashersGone> {
        let (reply, answer) = oneshot::channel();
        let job: Job = Box::new(move |memory| {
            let _ = reply.send(work(memory));
        });
        self.tx.send(job).await.map_err(|_| HashersGone)?;
        answer.await.map_err(|_| HashersGone)
    }

    /// The most hashes computed at once so far.
    pub fn most_at_once(&self) -> usize {
        self.tally.most_at_once.load(Ordering::Acquire)
    }

    /// Work memories allocated so far (one per thread that has hashed).
    pub fn memories(&self) -> usize {
        self.tally.memories.load(Ordering::Acquire)
    }
}

/// One hashing thread: takes jobs until every handle is gone, allocating its memory at
/// its first job.
fn serve(rx: &std::sync::Mutex<mpsc::Receiver<Job>>, tally: &Tally) {
    yield_to_the_games();
    let mut memory: Option<Memory> = None;
    loop {
        // One thread waits on the queue at a time; the others wait for the lock.
        let job = {
            let mut rx = rx.lock().unwrap_or_else(|p| p.into_inner());
            rx.blocking_recv()
        };
        let Some(job) = job else { return };
        let memory = memory.get_or_insert_with(|| {
            tally.memories.fetch_add(1, Ordering::AcqRel);
            Memory::new()
        });
        let now = tally.running.fetch_add(1, Ordering::AcqRel) + 1;
        tally.most_at_once.fetch_max(now, Ordering::AcqRel);
        // A panicking job (there is no reason for one) costs its caller an answer, not
        // the thread.
        let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(memory)));
        tally.running.fetch_sub(1, Ordering::AcqRel);
        if done.is_err() {
            tracing::error!("a password hash panicked");
        }
    }
}

/// Lowers the calling thread's priority to [`HASHING_NICE`]: on Linux a thread has a
/// nice value of its own (`setpriority` on its thread id). A failure is logged; the
/// thread hashes on at its priority.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn yield_to_the_games() {
    // SAFETY: both calls take plain integers and touch only this thread's priority.
    let done = unsafe {
        let tid = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, HASHING_NICE)
    };
    if done != 0 {
        tracing::warn!(
            error = %std::io::Error::last_os_error(),
            "could not lower the password hashing thread's priority"
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn yield_to_the_games() {}

/// This thread's nice value.
#[cfg(all(test, target_os = "linux"))]
#[allow(unsafe_code)]
fn own_nice() -> i32 {
    // SAFETY: reads this thread's priority; -1 is a valid answer, told apart by errno.
    unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn hashing_threads_give_the_cores_to_the_games_first() {
        // The suite may itself run niced: what matters is that the caller's priority is
        // what it was, and the hashing thread's is the lowest.
        let before = own_nice();
        let hashers = Hashers::start(1);
        let nice = hashers.run(|_| own_nice()).await.unwrap();
        assert_eq!(nice, HASHING_NICE);
        assert_eq!(own_nice(), before, "the caller's own priority is untouched");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn no_more_hashes_run_at_once_than_threads_and_memory_is_reused() {
        let hashers = Hashers::start(2);
        let jobs: Vec<_> = (0..24)
            .map(|n| {
                let hashers = hashers.clone();
                tokio::spawn(async move {
                    hashers
                        .run(move |memory| {
                            // Long enough that the queue is never empty meanwhile.
                            std::thread::sleep(std::time::Duration::from_millis(5));
                            super::super::password::hash_in(&format!("password {n}"), memory)
                        })
                        .await
                })
            })
            .collect();
        for job in jobs {
            assert!(job.await.unwrap().unwrap().is_ok());
        }
        assert_eq!(hashers.most_at_once(), 2);
        assert_eq!(hashers.memories(), 2, "one memory per thread, kept");
    }
}
