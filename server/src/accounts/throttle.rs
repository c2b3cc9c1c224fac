//! Failed logins, counted per name and per address: past a few in a window, further
//! tries are refused without looking at the password until the window has passed, so
//! guessing a password over the LAN takes years instead of minutes.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// Failed logins to one name that are allowed in [`WINDOW`].
pub const PER_NAME: usize = 5;
/// Failed logins from one address (to any names) allowed in [`WINDOW`].
pub const PER_ADDRESS: usize = 20;
/// How long a failure counts.
pub const WINDOW: Duration = Duration::from_secs(5 * 60);
/// Keys remembered at most per table; the oldest failures go first past it.
const MAX_KEYS: usize = 10_000;

/// Recent failures by key.
#[derive(Debug)]
struct Failures<K> {
    by_key: HashMap<K, Vec<Instant>>,
    limit: usize,
}

impl<K: Hash + Eq + Clone> Failures<K> {
    fn new(limit: usize) -> Self {
        Failures {
            by_key: HashMap::new(),
            limit,
        }
    }

    /// When `key` may try again, if it is over its limit now.
    fn blocked_until(&mut self, key: &K, now: Instant) -> Option<Instant> {
        let times = self.by_key.get_mut(key)?;
        times.retain(|t| now.duration_since(*t) < WINDOW);
        if times.len() >= self.limit {
            times.first().map(|t| *t + WINDOW)
        } else {
            None
        }
    }

    fn failed(&mut self, key: K, now: Instant) {
        if self.by_key.len() >= MAX_KEYS && !self.by_key.contains_key(&key) {
            self.by_key.retain(|_, times| {
                times
                    .last()
                    .is_some_and(|t| now.duration_since(*t) < WINDOW)
            });
        }
        if self.by_key.len() >= MAX_KEYS {
            return;
        }
        let times = self.by_key.entry(key).or_default();
        times.push(now);
        // Only the newest `limit` matter.
        let extra = times.len().saturating_sub(self.limit);
        times.drain(..extra);
    }

    fn forget(&mut self, key: &K) {
        self.by_key.remove(key);
    }
}

/// The login throttle of one server.
#[derive(Debug)]
pub struct Throttle {
    names: Failures<String>,
    addresses: Failures<IpAddr>,
}

impl Default for Throttle {
    fn default() -> Self {
        Throttle {
            names: Failures::new(PER_NAME),
            addresses: Failures::new(PER_ADDRESS),
        }
    }
}

impl Throttle {
    /// How long `name` from `address` must wait before trying again; `None` if it may
    /// try now. `name` is the compared form (see `store::accounts::name_key`).
    pub fn wait(&mut self, name: &str, address: IpAddr, now: Instant) -> Option<Duration> {
        let by_name = self.names.blocked_until(&name.to_string(), now);
        let by_address = self.addresses.blocked_until(&address, now);
        by_name
            .into_iter()
            .chain(by_address)
            .max()
            .map(|until| until.saturating_duration_since(now))
    }

    /// A wrong password for `name` from `address`.
    pub fn failed(&mut self, name: &str, address: IpAddr, now: Instant) {
        self.names.failed(name.to_string(), now);
        self.addresses.failed(address, now);
    }

    /// A right password: the name's count starts again (the address's does not, so one
    /// machine cannot guess at many names by logging in to its own between guesses).
    pub fn succeeded(&mut self, name: &str) {
        self.names.forget(&name.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOME: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(192, 168, 1, 2));
    const AWAY: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(192, 168, 1, 3));

    #[test]
    fn a_name_is_locked_after_its_failures_until_the_window_passes() {
        let mut t = Throttle::default();
        let start = Instant::now();
        for _ in 0..PER_NAME {
            assert_eq!(t.wait("an", HOME, start), None);
            t.failed("an", HOME, start);
        }
        let wait = t.wait("an", AWAY, start).expect("locked from any address");
        assert_eq!(wait, WINDOW);
        assert_eq!(t.wait("bình", AWAY, start), None, "other names are free");
        assert_eq!(t.wait("an", AWAY, start + WINDOW), None);
    }

    #[test]
    fn an_address_guessing_at_many_names_is_locked() {
        let mut t = Throttle::default();
        let now = Instant::now();
        for n in 0..PER_ADDRESS {
            t.failed(&format!("name {n}"), HOME, now);
        }
        assert!(t.wait("someone else", HOME, now).is_some());
        assert_eq!(t.wait("someone else", AWAY, now), None);
    }

    #[test]
    fn success_clears_the_name_but_not_the_address() {
        let mut t = Throttle::default();
        let now = Instant::now();
        for _ in 0..PER_NAME - 1 {
            t.failed("an", HOME, now);
        }
        t.succeeded("an");
        t.failed("an", HOME, now);
        assert_eq!(t.wait("an", HOME, now), None);
    }
}
