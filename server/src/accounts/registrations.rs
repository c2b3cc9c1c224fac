//! Registrations per address: a token bucket, so a family registering its players on one
//! machine is fine, and a script making accounts by the hundred is refused
//! (`too_many_tries`, with how long to wait) before any password is hashed or any row
//! written. The table is bounded: past [`MAX_ADDRESSES`], addresses whose allowance has
//! come back in full are forgotten first (they lose nothing by it), then the ones
//! nearest to full.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// Addresses remembered at most.
pub const MAX_ADDRESSES: usize = 4096;

/// One address's allowance.
#[derive(Debug, Clone, Copy)]
struct Bucket {
    /// Registrations it may make right now (fractions refill over time).
    tokens: f64,
    /// When `tokens` was last brought up to date.
    at: Instant,
}

/// The registration allowance of every address.
#[derive(Debug)]
pub struct Registrations {
    /// The most registrations an address can save up.
    burst: f64,
    /// One comes back per this long; zero for no limit.
    refill: Duration,
    /// By address; absent means a full allowance.
    by_address: HashMap<IpAddr, Bucket>,
}

impl Registrations {
    /// A burst of `burst` registrations per address, one more per `refill` (zero: no
    /// limit at all).
    pub fn new(burst: u32, refill: Duration) -> Registrations {
        Registrations {
            burst: f64::from(burst.max(1)),
            refill,
            by_address: HashMap::new(),
        }
    }

    /// Spends one registration for `address` at `now`; if it has none, how long until
    /// it has one.
    pub fn spend(&mut self, address: IpAddr, now: Instant) -> Result<(), Duration> {
        if self.refill.is_zero() {
            return Ok(());
        }
        if !self.by_address.contains_key(&address) && self.by_address.len() >= MAX_ADDRESSES {
            self.make_room(now);
        }
        let burst = self.burst;
        let refill = self.refill.as_secs_f64();
        let bucket = self.by_address.entry(address).or_insert(Bucket {
            tokens: burst,
            at: now,
        });
        bucket.tokens = tokens_at(bucket, now, burst, refill);
        bucket.at = now;
        if bucket.tokens < 1.0 {
            return Err(Duration::from_secs_f64((1.0 - bucket.tokens) * refill));
        }
        bucket.tokens -= 1.0;
        Ok(())
    }

    /// Forgets the addresses whose allowance is full again; if none is, the one nearest
    /// to full.
    fn make_room(&mut self, now: Instant) {
        let (burst, refill) = (self.burst, self.refill.as_secs_f64());
        self.by_address
            .retain(|_, b| tokens_at(b, now, burst, refill) < burst);
        if self.by_address.len() >= MAX_ADDRESSES {
            let fullest = self
                .by_address
                .iter()
                .max_by(|a, b| {
                    tokens_at(a.1, now, burst, refill)
                        .total_cmp(&tokens_at(b.1, now, burst, refill))
                })
                .map(|(address, _)| *address);
            if let Some(address) = fullest {
                self.by_address.remove(&address);
            }
        }
    }
}

/// The tokens `bucket` holds at `now`.
fn tokens_at(bucket: &Bucket, now: Instant, burst: f64, refill: f64) -> f64 {
    let earned = now.saturating_duration_since(bucket.at).as_secs_f64() / refill;
    (bucket.tokens + earned).min(burst)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    const REFILL: Duration = Duration::from_secs(30);

    fn address(n: u32) -> IpAddr {
        IpAddr::V4(Ipv4Addr::from(0x0a00_0000 + n))
    }

    #[test]
    fn a_burst_is_fine_then_one_per_refill_and_others_are_not_affected() {
        let t0 = Instant::now();
        let mut r = Registrations::new(3, REFILL);
        for _ in 0..3 {
            r.spend(address(1), t0).unwrap();
        }
        let wait = r.spend(address(1), t0).unwrap_err();
        assert_eq!(wait, REFILL);
        assert!(r.spend(address(1), t0 + REFILL / 2).is_err());
        r.spend(address(2), t0).unwrap();
        r.spend(address(1), t0 + REFILL).unwrap();
        assert!(r.spend(address(1), t0 + REFILL).is_err());
    }

    #[test]
    fn no_refill_is_no_limit() {
        let mut r = Registrations::new(1, Duration::ZERO);
        let t0 = Instant::now();
        for _ in 0..1000 {
            r.spend(address(1), t0).unwrap();
        }
    }

    #[test]
    fn the_table_is_bounded_and_a_spent_address_is_not_forgotten_for_a_fresh_one() {
        let t0 = Instant::now();
        let mut r = Registrations::new(2, REFILL);
        r.spend(address(0), t0).unwrap();
        r.spend(address(0), t0).unwrap();
        for n in 1..=MAX_ADDRESSES as u32 + 10 {
            r.spend(address(n), t0).unwrap();
        }
        assert!(r.by_address.len() <= MAX_ADDRESSES);
        // Everyone else holds more than address 0: it is still refused.
        assert!(r.spend(address(0), t0).is_err());
    }
}
