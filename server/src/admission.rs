//! Who may connect: the connection budgets, per address and overall, and the file
//! descriptor limit the overall one comes from.
//!
//! - [`AddressKey`]: what one machine is counted as: an IPv4 address, or an IPv6 /64
//!   (one machine may hold a whole /64, so its single addresses are free to it); an
//!   IPv4 address written as IPv6 (`::ffff:a.b.c.d`) is that IPv4 address.
//! - [`Budget`]: connections open per address and overall. [`Budget::admit`] gives each
//!   accepted connection a [`Ticket`] that it holds for as long as anything serves it
//!   (its session, or its page requests and then its WebSocket's session).
//! - [`descriptor_limit`]: raises the soft `RLIMIT_NOFILE` to the hard limit at start and
//!   derives how many connections fit under it ([`connections_for`]), with headroom so the
//!   listener, the store's files and the refusals themselves never run out.
//!
//! A connection over a budget is not closed in silence: it gets a ticket that carries
//! the refusal, and the session (or the page, or the WebSocket) says it in a sentence
//! and closes within [`REFUSAL_TIME`]. At most [`REFUSING_AT_ONCE`] refusals are under
//! way at once; past that (a flood) a connection is closed as soon as it is accepted.

use std::collections::HashMap;
use std::fmt;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long a refused connection is kept to hear why (its Hello, or its page request).
pub const REFUSAL_TIME: Duration = Duration::from_secs(5);

/// Refused connections being told why at once, at most.
pub const REFUSING_AT_ONCE: usize = 16;

/// Descriptors kept for everything but connections: the listeners, the store's files
/// (database, journal, shared memory), the runtime's own, logs, the engine's and the
/// discovery socket, with room to spare.
const RESERVED_DESCRIPTORS: u64 = 64;

/// The fewest connections a server allows, however low the descriptor limit.
const MIN_CONNECTIONS: usize = 8;

/// One machine, as budgets count it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AddressKey {
    /// An IPv4 address.
    V4(Ipv4Addr),
    /// The first 64 bits of an IPv6 address: its network, which one machine may own.
    V6([u8; 8]),
}

impl AddressKey {
    pub fn of(ip: IpAddr) -> AddressKey {
        match ip {
            IpAddr::V4(v4) => AddressKey::V4(v4),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => AddressKey::V4(v4),
                None => {
                    let mut net = [0u8; 8];
                    net.copy_from_slice(&v6.octets()[..8]);
                    AddressKey::V6(net)
                }
            },
        }
    }
}

impl fmt::Display for AddressKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AddressKey::V4(v4) => write!(f, "{v4}"),
            AddressKey::V6(net) => {
                let mut octets = [0u8; 16];
                octets[..8].copy_from_slice(net);
                write!(f, "{}/64", std::net::Ipv6Addr::from(octets))
            }
        }
    }
}

/// The connection budgets of one server. Cheap to clone.
#[derive(Clone)]
pub struct Budget {
    /// The counts, shared by the accept loop and every ticket (which gives its place back
    /// when dropped).
    counts: Arc<Mutex<Counts>>,
    /// The most connections one address may have open.
    per_address: usize,
    /// The most connections open at once on the whole server.
    overall: usize,
}

/// Connections open now.
#[derive(Debug, Default)]
struct Counts {
    /// Admitted connections, all addresses together.
    open: usize,
    /// Admitted connections by address (an address with none has no entry, so the map
    /// never holds more entries than there are connections).
    by_address: HashMap<AddressKey, usize>,
    /// Refused connections still being told why.
    refusing: usize,
}

/// What the accept loop does with a new connection.
pub enum Admission {
    /// Served, or told why not (see [`Ticket::refusal`]).
    Ticket(Ticket),
    /// Closed at once: too many refusals are under way already.
    Drop,
}

impl Budget {
    /// Budgets of `per_address` connections per address and `overall` in all (each at
    /// least one).
    pub fn new(per_address: usize, overall: usize) -> Budget {
        Budget {
            counts: Arc::default(),
            per_address: per_address.max(1),
            overall: overall.max(1),
        }
    }

    /// The most connections open at once.
    pub fn overall(&self) -> usize {
        self.overall
    }

    /// A place for a connection from `ip`, or a ticket that carries why there is none.
    pub fn admit(&self, ip: IpAddr) -> Admission {
        let address = AddressKey::of(ip);
        let mut counts = self.lock();
        let mine = counts.by_address.get(&address).copied().unwrap_or(0);
        let refusal = if counts.open >= self.overall {
            Some(format!(
                "the server has {} connections open, as many as it can take: try again in a \
                 minute",
                counts.open
            ))
        } else if mine >= self.per_address {
            Some(format!(
                "your machine ({address}) has {mine} connections open to this server, as many \
                 as one machine may: close some of them (other windows, tabs or programs) and \
                 try again"
            ))
        } else {
            None
        };
        if let Some(refusal) = refusal {
            if counts.refusing >= REFUSING_AT_ONCE {
                return Admission::Drop;
            }
            counts.refusing += 1;
            drop(counts);
            tracing::info!(%address, %refusal, "connection refused");
            return Admission::Ticket(Ticket(Some(Arc::new(Place {
                counts: self.counts.clone(),
                address,
                refusal: Some(refusal),
            }))));
        }
        counts.open += 1;
        *counts.by_address.entry(address).or_default() += 1;
        Admission::Ticket(Ticket(Some(Arc::new(Place {
            counts: self.counts.clone(),
            address,
            refusal: None,
        }))))
    }

    /// Connections open now (admitted, not counting refusals): all, and from `ip`.
    pub fn open(&self, ip: IpAddr) -> (usize, usize) {
        let counts = self.lock();
        let mine = counts
            .by_address
            .get(&AddressKey::of(ip))
            .copied()
            .unwrap_or(0);
        (counts.open, mine)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Counts> {
        // Counts left by a panic are still counts.
        self.counts.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A connection's place in the budgets, given back when the last clone is dropped.
/// Cloned into whatever serves the connection (a page connection hands it to the
/// WebSocket session it becomes).
#[derive(Clone, Default)]
pub struct Ticket(Option<Arc<Place>>);

/// One admitted (or refused) connection, counted until dropped.
struct Place {
    /// The counts to give the place back to.
    counts: Arc<Mutex<Counts>>,
    /// Whose place it is.
    address: AddressKey,
    /// Why the connection is refused; `None` when admitted.
    refusal: Option<String>,
}

impl Ticket {
    /// A ticket outside every budget (tests, and the context connections are cloned from).
    pub fn unlimited() -> Ticket {
        Ticket(None)
    }

    /// Why this connection is refused (a sentence for the client), if it is.
    pub fn refusal(&self) -> Option<&str> {
        self.0.as_ref().and_then(|p| p.refusal.as_deref())
    }

    /// The address the ticket counts against, if it counts.
    pub fn address(&self) -> Option<AddressKey> {
        self.0.as_ref().map(|p| p.address)
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        if self.refusal.is_some() {
            counts.refusing = counts.refusing.saturating_sub(1);
            return;
        }
        counts.open = counts.open.saturating_sub(1);
        if let Some(n) = counts.by_address.get_mut(&self.address) {
            *n -= 1;
            if *n == 0 {
                counts.by_address.remove(&self.address);
            }
        }
    }
}

/// How many connections fit under a descriptor limit of `descriptors`: all but
/// [`RESERVED_DESCRIPTORS`] and the [`REFUSING_AT_ONCE`] refusals, and at least
/// [`MIN_CONNECTIONS`].
pub fn connections_for(descriptors: u64) -> usize {
    let spare = descriptors
        .saturating_sub(RESERVED_DESCRIPTORS)
        .saturating_sub(REFUSING_AT_ONCE as u64);
    usize::try_from(spare)
        .unwrap_or(usize::MAX)
        .max(MIN_CONNECTIONS)
}

/// Raises this process's soft limit on open files to its hard limit (a desktop's soft
/// limit is often 1024 while the hard one is far higher) and returns the soft limit in
/// force afterwards; `None` where the system has no such limit or will not say.
pub fn descriptor_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        let (soft, hard) = rlimit::get()?;
        if soft < hard {
            match rlimit::set(hard, hard) {
                Ok(()) => {
                    tracing::debug!(from = soft, to = hard, "raised the open files limit");
                    return Some(hard);
                }
                Err(e) => {
                    tracing::warn!(soft, hard, error = %e, "could not raise the open files limit");
                }
            }
        }
        Some(soft)
    }
    #[cfg(not(unix))]
    None
}

/// The open files limit through libc: with the hashing threads' priority
/// (`accounts::hashers`), the only unsafe calls of the server, each a plain system call on
/// a local struct or integers.
#[cfg(unix)]
#[allow(unsafe_code)]
mod rlimit {
    /// (soft, hard); "unlimited" reads as `u64::MAX`.
    pub fn get() -> Option<(u64, u64)> {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes one rlimit into the struct it is given, which lives
        // for the call.
        let done = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) };
        (done == 0).then(|| (value(limit.rlim_cur), value(limit.rlim_max)))
    }

    pub fn set(soft: u64, hard: u64) -> std::io::Result<()> {
        let limit = libc::rlimit {
            rlim_cur: soft as libc::rlim_t,
            rlim_max: hard as libc::rlim_t,
        };
        // SAFETY: setrlimit only reads the struct it is given, which lives for the call.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &limit) } == 0 {
            Ok(())
        } else {
            Err(std::io::Error::last_os_error())
        }
    }

    #[allow(clippy::useless_conversion)]
    fn value(v: libc::rlim_t) -> u64 {
        if v == libc::RLIM_INFINITY {
            u64::MAX
        } else {
            u64::try_from(v).unwrap_or(u64::MAX)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn ticket(a: Admission) -> Ticket {
        match a {
            Admission::Ticket(t) => t,
            Admission::Drop => panic!("dropped"),
        }
    }

    #[test]
    fn one_machine_is_one_address_or_one_ipv6_network() {
        assert_eq!(
            AddressKey::of(ip("::ffff:192.168.1.9")),
            AddressKey::of(ip("192.168.1.9"))
        );
        assert_eq!(
            AddressKey::of(ip("fd00:1:2:3::1")),
            AddressKey::of(ip("fd00:1:2:3:ffff::9"))
        );
        assert_ne!(
            AddressKey::of(ip("fd00:1:2:3::1")),
            AddressKey::of(ip("fd00:1:2:4::1"))
        );
        assert_eq!(
            AddressKey::of(ip("fd00:1:2:3::1")).to_string(),
            "fd00:1:2:3::/64"
        );
    }

    #[test]
    fn an_address_at_its_budget_is_refused_and_others_are_not() {
        let budget = Budget::new(2, 10);
        let a = [
            ticket(budget.admit(ip("10.0.0.2"))),
            ticket(budget.admit(ip("10.0.0.2"))),
        ];
        assert!(a.iter().all(|t| t.refusal().is_none()));
        let third = ticket(budget.admit(ip("10.0.0.2")));
        let why = third.refusal().expect("refused");
        assert!(
            why.contains("10.0.0.2") && why.contains("close some"),
            "{why}"
        );
        assert!(ticket(budget.admit(ip("10.0.0.3"))).refusal().is_none());
        // A place comes back when its last clone goes.
        let kept = a[0].clone();
        drop(a);
        assert_eq!(budget.open(ip("10.0.0.2")), (1, 1));
        drop(kept);
        assert_eq!(budget.open(ip("10.0.0.2")), (0, 0));
        assert!(ticket(budget.admit(ip("10.0.0.2"))).refusal().is_none());
    }

    #[test]
    fn the_overall_budget_refuses_then_a_flood_of_refusals_is_dropped() {
        let budget = Budget::new(100, 3);
        let admitted: Vec<Ticket> = (1..=3)
            .map(|n| ticket(budget.admit(ip(&format!("10.0.0.{n}")))))
            .collect();
        assert!(admitted.iter().all(|t| t.refusal().is_none()));
        let refused: Vec<Ticket> = (0..REFUSING_AT_ONCE)
            .map(|_| ticket(budget.admit(ip("10.0.0.9"))))
            .collect();
        assert!(
            refused[0]
                .refusal()
                .unwrap()
                .contains("as many as it can take")
        );
        assert!(matches!(budget.admit(ip("10.0.0.9")), Admission::Drop));
        drop(refused);
        assert!(matches!(budget.admit(ip("10.0.0.9")), Admission::Ticket(_)));
        assert_eq!(
            budget.open(ip("10.0.0.9")),
            (3, 0),
            "refusals take no place"
        );
    }

    #[test]
    fn the_descriptor_limit_leaves_headroom() {
        assert_eq!(connections_for(1024), 1024 - 64 - REFUSING_AT_ONCE);
        assert_eq!(connections_for(128), 128 - 64 - REFUSING_AT_ONCE);
        assert_eq!(connections_for(20), MIN_CONNECTIONS);
        assert!(connections_for(u64::MAX) > 1 << 30);
        // Raising it never lowers it.
        #[cfg(unix)]
        if let (Some((soft, _)), Some(after)) = (rlimit::get(), descriptor_limit()) {
            assert!(after >= soft);
        }
    }
}
