//! How often the server answers probes. A probe is tiny and a beacon a little larger, so
//! answers are limited overall and per sender: a spoofed flood gets a trickle, and a
//! real client (which probes a handful of times) is always answered. A sender is an
//! address *and* port: two clients on one machine (two connect screens, or one and
//! `banco discover`) probe from two ports and are each answered, even in the same
//! instant.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// Answers the server may send in a burst.
const BURST: f64 = 32.0;
/// Answers per second once the burst is spent.
const RATE: f64 = 16.0;
/// The least time between two answers to the same sender (address and port).
const PER_SENDER: Duration = Duration::from_millis(200);
/// Senders remembered at most; past this the oldest are forgotten.
const SENDERS: usize = 1024;

/// A token bucket for all answers, and the last answer to each sender.
#[derive(Debug)]
pub struct Throttle {
    /// Answers that may be sent now.
    tokens: f64,
    /// When `tokens` was last topped up.
    refilled: Instant,
    /// When each recent sender was last answered.
    last: HashMap<SocketAddr, Instant>,
}

impl Throttle {
    pub fn new(now: Instant) -> Throttle {
        Throttle {
            tokens: BURST,
            refilled: now,
            last: HashMap::new(),
        }
    }

    /// Whether to answer a probe from `sender` at `now` (and counts it if so).
    pub fn allow(&mut self, sender: SocketAddr, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.refilled).as_secs_f64();
        self.tokens = (self.tokens + elapsed * RATE).min(BURST);
        self.refilled = now;
        if self
            .last
            .get(&sender)
            .is_some_and(|t| now.saturating_duration_since(*t) < PER_SENDER)
        {
            return false;
        }
        if self.tokens < 1.0 {
            return false;
        }
        self.tokens -= 1.0;
        if self.last.len() >= SENDERS {
            self.last
                .retain(|_, t| now.saturating_duration_since(*t) < PER_SENDER);
            if self.last.len() >= SENDERS {
                self.last.clear();
            }
        }
        self.last.insert(sender, now);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    /// Sender `n`: its own address, port 40000.
    fn ip(n: u32) -> SocketAddr {
        SocketAddr::from((Ipv4Addr::from(0x0a00_0000 + n), 40_000))
    }

    #[test]
    fn two_clients_on_one_machine_are_both_answered() {
        let t0 = Instant::now();
        let mut t = Throttle::new(t0);
        let first: SocketAddr = "10.0.0.7:40000".parse().unwrap();
        let second: SocketAddr = "10.0.0.7:40001".parse().unwrap();
        // Probing in step, every 4 s: each is answered every time.
        for round in 0..8 {
            let now = t0 + Duration::from_secs(4 * round);
            assert!(t.allow(first, now), "round {round}");
            assert!(t.allow(second, now), "round {round}: the second client");
        }
        // Each one alone is still held to one answer per 200 ms.
        let now = t0 + Duration::from_secs(40);
        assert!(t.allow(first, now));
        assert!(!t.allow(first, now + Duration::from_millis(150)));
        assert!(t.allow(second, now + Duration::from_millis(150)));
    }

    #[test]
    fn one_sender_is_answered_at_most_every_200ms() {
        let t0 = Instant::now();
        let mut t = Throttle::new(t0);
        assert!(t.allow(ip(1), t0));
        assert!(!t.allow(ip(1), t0 + Duration::from_millis(100)));
        assert!(
            t.allow(ip(2), t0 + Duration::from_millis(100)),
            "others are"
        );
        assert!(t.allow(ip(1), t0 + Duration::from_millis(200)));
    }

    #[test]
    fn a_flood_from_many_senders_gets_a_trickle() {
        let t0 = Instant::now();
        let mut t = Throttle::new(t0);
        let answered = (0..10_000).filter(|&n| t.allow(ip(n), t0)).count();
        assert_eq!(answered, BURST as usize);
        // A second later, RATE more.
        let later = t0 + Duration::from_secs(1);
        let answered = (10_000..20_000).filter(|&n| t.allow(ip(n), later)).count();
        assert_eq!(answered, RATE as usize);
        assert!(t.last.len() <= SENDERS);
    }
}
