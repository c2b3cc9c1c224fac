//! The connect screen's search for servers on the network: when to look next, and
//! whether a look is under way. Only the connect screen looks.

use std::time::{Duration, Instant};

/// The pause between two looks for servers while the connect screen shows, on average.
pub const SCAN_EVERY: Duration = Duration::from_secs(4);

/// The pause before the next look: [`SCAN_EVERY`] give or take a quarter, at random, so
/// two connect screens opened together drift apart instead of probing in step.
pub fn scan_pause() -> Duration {
    let quarter = SCAN_EVERY.as_millis() as u64 / 4;
    let average = SCAN_EVERY.as_millis() as u64;
    Duration::from_millis(rand::random_range(average - quarter..=average + quarter))
}

/// The connect screen's search for servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scan {
    /// When to look again.
    pub next: Instant,
    /// A look is under way.
    pub in_flight: bool,
    /// At least one look has finished (until then the list says "searching").
    pub done_once: bool,
}

impl Scan {
    /// A search whose first look is due at `now`.
    pub fn new(now: Instant) -> Scan {
        Scan {
            next: now,
            in_flight: false,
            done_once: false,
        }
    }

    /// Starts a look if one is due at `now` and none is under way; `true` if started.
    pub fn start_if_due(&mut self, now: Instant) -> bool {
        if self.in_flight || now < self.next {
            return false;
        }
        self.in_flight = true;
        true
    }

    /// A look finished at `now`: the next one after a pause.
    pub fn finished(&mut self, now: Instant) {
        self.in_flight = false;
        self.done_once = true;
        self.next = now + scan_pause();
    }

    /// Look again at once (the server just lost may be elsewhere now).
    pub fn soon(&mut self, now: Instant) {
        self.next = now;
    }
}
