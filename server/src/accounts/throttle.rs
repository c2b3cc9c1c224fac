//! Failed logins, throttled so that guessing a password over the LAN is slow and no
//! amount of guessing from elsewhere keeps an account's owner out.
//!
//! Three records, each slowing only what failed:
//!
//! - **A name from one address** (the pair): after [`FREE_TRIES`] failures, each failure
//!   doubles the wait before that address may try that name again (5 s, 10 s, 20 s, ...
//!   up to [`MAX_WAIT`]); a try inside the wait is refused without looking at the password.
//!   Nobody else waits for it: the right password from another address is checked.
//! - **An address** (any names): after [`ADDRESS_FREE_TRIES`] failures the same doubling,
//!   so one machine guessing at many names is slowed as one guessing at one.
//! - **A name** (from every address together): a gentle delay, never a refusal: each try
//!   at the name waits `recent failures x` [`NAME_STEP`], at most [`NAME_MAX_DELAY`],
//!   before its password is checked, the count of recent failures fading by half every
//!   [`NAME_HALF_LIFE`]. The owner under a flood of guesses from many machines waits a
//!   second, and gets in.
//!
//! A right password forgets its pair's record (not the address's: one machine cannot
//! guess at many names by logging in to its own between guesses).
//!
//! Addresses are [`AddressKey`]s: an IPv6 machine counts as its /64.
//!
//! # Bounded in bytes, and the eviction rule
//!
//! The records are kept within [`Throttle::budget`] bytes (default [`BUDGET`]), each
//! counted at what it costs ([`PAIR_BYTES`] and the like, plus its name). What goes
//! first when they would not fit is chosen so that no attacker can use it to wipe out a
//! wait of their own:
//!
//! 1. One address keeps at most [`PAIRS_PER_ADDRESS`] pair records. Failures past that
//!    count on its address record only, which holds it back already: an address can
//!    never push out its own older records by failing at more names.
//! 2. Past the budget, the records of the address that has been quiet longest go first
//!    (its pairs and its address record together), and only those of an address whose
//!    waits have all run out: forgetting it leaves it no better off than a fresh address
//!    (a few free tries), and it takes a whole budget of records from other addresses to
//!    push it out. Records still holding an address back are never evicted; when every
//!    record is, a new failure is counted on its name's record only, which still slows
//!    every try at that name.
//! 3. Name records have their own eighth of the budget, so no flood of other records
//!    pushes them out; they fade within minutes, and past their share the quietest
//!    name's record goes.
//!
//! Records quiet for [`FORGET_AFTER`] with no wait running are swept away, at most once
//! a minute, as failures come.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use crate::admission::AddressKey;

/// Failures of one name from one address before it has to wait.
pub const FREE_TRIES: u32 = 3;
/// Failures from one address (to any names) before it has to wait.
pub const ADDRESS_FREE_TRIES: u32 = 20;
/// The first wait; each failure after it doubles it.
pub const FIRST_WAIT: Duration = Duration::from_secs(5);
/// The longest wait.
pub const MAX_WAIT: Duration = Duration::from_secs(15 * 60);
/// The gentle delay per recent failure of a name.
pub const NAME_STEP: Duration = Duration::from_millis(20);
/// The most a try at a name is delayed by the name's recent failures.
pub const NAME_MAX_DELAY: Duration = Duration::from_secs(1);
/// How fast a name's recent failures fade: by half in this long.
pub const NAME_HALF_LIFE: Duration = Duration::from_secs(60);
/// Records left alone this long, with no wait running, are forgotten.
pub const FORGET_AFTER: Duration = Duration::from_secs(60 * 60);
/// The most pair records one address keeps (see the eviction rule).
pub const PAIRS_PER_ADDRESS: usize = 32;
/// The bytes all records may take, by default.
pub const BUDGET: usize = 2 << 20;
/// What a pair record costs beside its name: key, counts, times, the map's own.
pub const PAIR_BYTES: usize = 96;
/// What an address record costs.
pub const ADDRESS_BYTES: usize = 80;
/// What a name record costs beside its name.
pub const NAME_BYTES: usize = 72;

/// Failures and the wait they earned.
#[derive(Debug, Clone, Copy)]
struct Strikes {
    /// Failures counted.
    failures: u32,
    /// The latest failure.
    last: Instant,
    /// No try before this.
    until: Instant,
}

impl Strikes {
    fn new(now: Instant) -> Strikes {
        Strikes {
            failures: 0,
            last: now,
            until: now,
        }
    }

    /// One more failure; past `free` of them, a wait that doubles with each.
    fn failed(&mut self, free: u32, now: Instant) {
        self.failures = self.failures.saturating_add(1);
        self.last = now;
        if let Some(over) = self.failures.checked_sub(free + 1) {
            let wait = FIRST_WAIT
                .checked_mul(1u32 << over.min(20))
                .unwrap_or(MAX_WAIT)
                .min(MAX_WAIT);
            self.until = now + wait;
        }
    }

    /// Whether the wait is still running.
    fn waiting(&self, now: Instant) -> bool {
        self.until > now
    }
}

/// An address's record.
#[derive(Debug)]
struct AddressRecord {
    /// Its failures at any names.
    strikes: Strikes,
    /// How many pair records it has.
    pairs: usize,
    /// What its pair records cost.
    pair_bytes: usize,
}

/// A name's record: how many tries at it failed lately, fading.
#[derive(Debug, Clone, Copy)]
struct NameRecord {
    /// Recent failures, as of `at`.
    recent: f64,
    /// When `recent` was last brought up to date.
    at: Instant,
}

impl NameRecord {
    /// Recent failures as of `now`.
    fn recent(&self, now: Instant) -> f64 {
        let halves =
            now.saturating_duration_since(self.at).as_secs_f64() / NAME_HALF_LIFE.as_secs_f64();
        self.recent * 0.5f64.powf(halves)
    }
}

/// What a login try may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Check the password after waiting this long (the name's gentle delay).
    Try(Duration),
    /// Refused without a check: this address may try this name again in this long.
    Wait(Duration),
}

/// The login throttle of one server.
#[derive(Debug)]
pub struct Throttle {
    /// By (name in compared form, address).
    pairs: HashMap<(String, AddressKey), Strikes>,
    /// By address.
    addresses: HashMap<AddressKey, AddressRecord>,
    /// By name in compared form.
    names: HashMap<String, NameRecord>,
    /// What the pair and address records cost now.
    record_bytes: usize,
    /// What the name records cost now.
    name_bytes: usize,
    /// What all records may cost; an eighth of it is the names' own.
    budget: usize,
    /// When quiet records were last swept away.
    swept: Option<Instant>,
}

impl Default for Throttle {
    fn default() -> Self {
        Throttle::with_budget(BUDGET)
    }
}

impl Throttle {
    /// A throttle whose records take at most `budget` bytes.
    pub fn with_budget(budget: usize) -> Throttle {
        Throttle {
            pairs: HashMap::new(),
            addresses: HashMap::new(),
            names: HashMap::new(),
            record_bytes: 0,
            name_bytes: 0,
            budget,
            swept: None,
        }
    }

    /// What the names' records may cost: their own share, so a flood of pair records
    /// never pushes out the names' delays.
    fn name_budget(&self) -> usize {
        self.budget / 8
    }

    /// What the pair and address records may cost.
    fn record_budget(&self) -> usize {
        self.budget - self.name_budget()
    }

    /// The bytes its records may take.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// The bytes its records take now.
    pub fn bytes(&self) -> usize {
        self.record_bytes + self.name_bytes
    }

    /// What a try at `name` (compared form) from `address` may do now.
    pub fn check(&self, name: &str, address: AddressKey, now: Instant) -> Verdict {
        let pair = self
            .pairs
            .get(&(name.to_string(), address))
            .map(|s| s.until);
        let whole = self.addresses.get(&address).map(|a| a.strikes.until);
        if let Some(until) = pair.into_iter().chain(whole).max().filter(|u| *u > now) {
            return Verdict::Wait(until - now);
        }
        let recent = self.names.get(name).map_or(0.0, |r| r.recent(now));
        Verdict::Try(NAME_STEP.mul_f64(recent).min(NAME_MAX_DELAY))
    }

    /// A wrong password (or no such account) for `name` from `address`.
    pub fn failed(&mut self, name: &str, address: AddressKey, now: Instant) {
        if self
            .swept
            .is_none_or(|at| now.saturating_duration_since(at) > Duration::from_secs(60))
        {
            self.sweep(now);
        }
        self.count_name(name, now);
        if !self.addresses.contains_key(&address) {
            if !self.make_room(ADDRESS_BYTES, now) {
                return;
            }
            self.record_bytes += ADDRESS_BYTES;
            self.addresses.insert(
                address,
                AddressRecord {
                    strikes: Strikes::new(now),
                    pairs: 0,
                    pair_bytes: 0,
                },
            );
        }
        let key = (name.to_string(), address);
        if !self.pairs.contains_key(&key) {
            let has_room = self
                .addresses
                .get(&address)
                .is_some_and(|a| a.pairs < PAIRS_PER_ADDRESS)
                && self.make_room(PAIR_BYTES + name.len(), now);
            if has_room && let Some(record) = self.addresses.get_mut(&address) {
                record.pairs += 1;
                record.pair_bytes += PAIR_BYTES + name.len();
                self.record_bytes += PAIR_BYTES + name.len();
                self.pairs.insert(key.clone(), Strikes::new(now));
            }
        }
        if let Some(pair) = self.pairs.get_mut(&key) {
            pair.failed(FREE_TRIES, now);
        }
        if let Some(record) = self.addresses.get_mut(&address) {
            record.strikes.failed(ADDRESS_FREE_TRIES, now);
        }
    }

    /// The right password for `name` from `address`: the pair's record is forgotten.
    pub fn succeeded(&mut self, name: &str, address: AddressKey) {
        if self.pairs.remove(&(name.to_string(), address)).is_some() {
            self.record_bytes -= PAIR_BYTES + name.len();
            if let Some(record) = self.addresses.get_mut(&address) {
                record.pairs = record.pairs.saturating_sub(1);
                record.pair_bytes = record.pair_bytes.saturating_sub(PAIR_BYTES + name.len());
            }
        }
    }

    /// Counts a failure on `name`'s record, making room for it among the names if need be.
    fn count_name(&mut self, name: &str, now: Instant) {
        if let Some(record) = self.names.get_mut(name) {
            record.recent = record.recent(now) + 1.0;
            record.at = now;
            return;
        }
        let cost = NAME_BYTES + name.len();
        while self.name_bytes + cost > self.name_budget() {
            // The quietest name goes: its delay is the smallest, and fading anyway.
            let Some(quietest) = self
                .names
                .iter()
                .min_by(|a, b| a.1.recent(now).total_cmp(&b.1.recent(now)))
                .map(|(n, _)| n.clone())
            else {
                return;
            };
            self.names.remove(&quietest);
            self.name_bytes -= NAME_BYTES + quietest.len();
        }
        self.name_bytes += cost;
        self.names.insert(
            name.to_string(),
            NameRecord {
                recent: 1.0,
                at: now,
            },
        );
    }

    /// Makes `cost` bytes of room for a new pair or address record by the eviction rule;
    /// `false` if every record still holds an address back.
    fn make_room(&mut self, cost: usize, now: Instant) -> bool {
        let budget = self.record_budget();
        if self.record_bytes + cost <= budget {
            return true;
        }
        // Addresses some pair of which still waits: kept.
        let held: HashSet<AddressKey> = self
            .pairs
            .iter()
            .filter(|(_, s)| s.waiting(now))
            .map(|((_, a), _)| *a)
            .collect();
        let mut quiet: Vec<(Instant, AddressKey, usize)> = self
            .addresses
            .iter()
            .filter(|(a, r)| !r.strikes.waiting(now) && !held.contains(a))
            .map(|(a, r)| (r.strikes.last, *a, ADDRESS_BYTES + r.pair_bytes))
            .collect();
        quiet.sort_unstable();
        // Down to nine tenths of the budget, so the next failures do not sort again.
        let target = (budget / 10) * 9;
        let mut freed = 0;
        let mut going = HashSet::new();
        for (_, address, bytes) in quiet {
            if self.record_bytes - freed + cost <= target {
                break;
            }
            going.insert(address);
            freed += bytes;
        }
        self.forget_addresses(&going);
        self.record_bytes + cost <= budget
    }

    /// Forgets `going` addresses and their pairs.
    fn forget_addresses(&mut self, going: &HashSet<AddressKey>) {
        if going.is_empty() {
            return;
        }
        for address in going {
            if let Some(record) = self.addresses.remove(address) {
                self.record_bytes -= ADDRESS_BYTES + record.pair_bytes;
            }
        }
        self.pairs.retain(|(_, a), _| !going.contains(a));
    }

    /// Forgets what has been quiet for [`FORGET_AFTER`] with no wait running.
    pub fn sweep(&mut self, now: Instant) {
        self.swept = Some(now);
        let stale: HashSet<AddressKey> = self
            .addresses
            .iter()
            .filter(|(_, r)| {
                !r.strikes.waiting(now)
                    && now.saturating_duration_since(r.strikes.last) > FORGET_AFTER
            })
            .map(|(a, _)| *a)
            .collect();
        self.forget_addresses(&stale);
        let faded: Vec<String> = self
            .names
            .iter()
            .filter(|(_, r)| r.recent(now) < 0.01)
            .map(|(n, _)| n.clone())
            .collect();
        for name in faded {
            self.names.remove(&name);
            self.name_bytes -= NAME_BYTES + name.len();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address(n: u32) -> AddressKey {
        AddressKey::V4(std::net::Ipv4Addr::from(0x0a00_0000 + n))
    }

    const HOME: u32 = 1;

    fn waits(t: &Throttle, name: &str, from: u32, now: Instant) -> bool {
        matches!(t.check(name, address(from), now), Verdict::Wait(_))
    }

    #[test]
    fn failures_from_one_address_make_it_wait_longer_and_longer() {
        let mut t = Throttle::default();
        let now = Instant::now();
        for _ in 0..FREE_TRIES {
            assert!(!waits(&t, "an", 2, now));
            t.failed("an", address(2), now);
        }
        assert!(
            !waits(&t, "an", 2, now),
            "the free tries are spent, no wait yet"
        );
        let mut expected = FIRST_WAIT;
        for _ in 0..5 {
            t.failed("an", address(2), now);
            assert_eq!(t.check("an", address(2), now), Verdict::Wait(expected));
            expected *= 2;
        }
        assert!(!waits(&t, "an", 2, now + MAX_WAIT));
        // Nobody else waits: not the name from another address, not another name.
        assert!(!waits(&t, "an", HOME, now));
        assert!(!waits(&t, "bình", 2, now));
        // The right password forgets the pair.
        t.succeeded("an", address(2));
        assert!(!waits(&t, "an", 2, now));
    }

    #[test]
    fn the_owner_is_only_gently_delayed_whatever_the_guessing_elsewhere() {
        let mut t = Throttle::default();
        let now = Instant::now();
        for n in 0..10_000u32 {
            t.failed("alice", address(100 + n % 1000), now);
        }
        match t.check("alice", address(HOME), now) {
            Verdict::Try(delay) => assert_eq!(delay, NAME_MAX_DELAY),
            refused => panic!("the owner was refused: {refused:?}"),
        }
        // The delay fades once the guessing stops.
        match t.check("alice", address(HOME), now + NAME_HALF_LIFE * 20) {
            Verdict::Try(delay) => assert!(delay < NAME_STEP, "{delay:?}"),
            refused => panic!("{refused:?}"),
        }
    }

    #[test]
    fn an_address_guessing_at_many_names_waits() {
        let mut t = Throttle::default();
        let now = Instant::now();
        for n in 0..=ADDRESS_FREE_TRIES {
            t.failed(&format!("name {n}"), address(2), now);
        }
        assert!(waits(&t, "someone else", 2, now));
        assert!(!waits(&t, "someone else", 3, now));
    }

    #[test]
    fn an_address_cannot_push_out_its_own_wait() {
        let mut t = Throttle::with_budget(64 * 1024);
        let now = Instant::now();
        for _ in 0..FREE_TRIES + 3 {
            t.failed("alice", address(2), now);
        }
        assert!(waits(&t, "alice", 2, now));
        // It fails at thousands of other names: its own record stays.
        for n in 0..5000 {
            t.failed(&format!("junk {n}"), address(2), now);
        }
        assert!(waits(&t, "alice", 2, now));
        assert!(t.pairs.contains_key(&("alice".to_string(), address(2))));
        assert!(t.bytes() <= t.budget());
    }

    #[test]
    fn a_flood_from_many_addresses_stays_in_budget_and_evicts_no_running_wait() {
        let mut t = Throttle::with_budget(64 * 1024);
        let start = Instant::now();
        for _ in 0..FREE_TRIES + 8 {
            t.failed("alice", address(2), start);
        }
        let waiting = match t.check("alice", address(2), start) {
            Verdict::Wait(w) => w,
            other => panic!("{other:?}"),
        };
        // A flood of one failure each from 100,000 other addresses, during the wait.
        let later = start + waiting / 2;
        for n in 0..100_000u32 {
            t.failed(&format!("junk {}", n % 50), address(1000 + n), later);
            assert!(t.bytes() <= t.budget(), "over budget at {n}: {}", t.bytes());
        }
        assert!(
            waits(&t, "alice", 2, later),
            "the running wait was not evicted"
        );
        // Once its wait has run out, a quiet address is the first to go.
        let after = start + waiting + Duration::from_secs(1);
        for n in 0..10_000u32 {
            t.failed("junk", address(500_000 + n), after);
        }
        assert!(!t.addresses.contains_key(&address(2)));
        assert!(t.bytes() <= t.budget());
    }

    #[test]
    fn quiet_records_are_swept() {
        let mut t = Throttle::default();
        let now = Instant::now();
        t.failed("an", address(2), now);
        t.sweep(now + FORGET_AFTER + Duration::from_secs(1));
        assert!(t.pairs.is_empty() && t.addresses.is_empty() && t.names.is_empty());
        assert_eq!(t.bytes(), 0);
    }
}
