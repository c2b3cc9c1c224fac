//! The client side of discovery: broadcast a probe, collect the beacons that come back.

use std::collections::HashMap;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, UdpSocket};
use std::time::{Duration, Instant};

use banco_protocol::discovery::{self, Beacon, DISCOVERY_PORT, MAX_DATAGRAM, Probe};

/// How long one read waits before looking at the other socket and the clock.
const SLICE: Duration = Duration::from_millis(25);

/// Where [`discover`] probes: the limited broadcast address and the broadcast address of
/// every IPv4 network this machine is on (a limited broadcast leaves by one interface
/// only on most systems, and not at all without a default route), all on the discovery
/// port. Loopback is not included.
pub fn default_targets() -> Vec<SocketAddr> {
    let mut targets = vec![SocketAddr::from((Ipv4Addr::BROADCAST, DISCOVERY_PORT))];
    match if_addrs::get_if_addrs() {
        Ok(interfaces) => {
            for iface in interfaces.iter().filter(|i| !i.is_loopback()) {
                let if_addrs::IfAddr::V4(v4) = &iface.addr else {
                    continue;
                };
                for ip in network_targets(v4.ip, v4.prefixlen, v4.broadcast) {
                    let target = SocketAddr::from((ip, DISCOVERY_PORT));
                    if !targets.contains(&target) {
                        targets.push(target);
                    }
                }
            }
        }
        Err(e) => tracing::debug!(error = %e, "cannot list the network interfaces"),
    }
    targets
}

/// Where to probe for the network of one interface address `ip`/`prefix`: its
/// broadcast address, worked out from the address and prefix, because an address added
/// without one (`ip addr add 10.1.2.3/24 dev eth0`, no `brd`) reports none, or reports
/// the interface's own address; and the `reported` one too where it is a real other
/// address. A /31 link has no broadcast address: its one other address is probed. A /32
/// has no neighbours.
fn network_targets(ip: Ipv4Addr, prefix: u8, reported: Option<Ipv4Addr>) -> Vec<Ipv4Addr> {
    let bits = u32::from(ip);
    let mut targets = match prefix {
        0..=30 => vec![Ipv4Addr::from(bits | (u32::MAX >> prefix))],
        31 => vec![Ipv4Addr::from(bits ^ 1)],
        _ => Vec::new(),
    };
    if let Some(r) = reported.filter(|r| *r != ip && !r.is_unspecified() && !targets.contains(r)) {
        targets.push(r);
    }
    targets
}

/// Probes [`default_targets`] for `wait` off the async runtime, and returns what
/// [`probe`] found.
pub async fn discover(wait: Duration) -> Vec<(SocketAddr, Beacon)> {
    tokio::task::spawn_blocking(move || probe(&default_targets(), wait))
        .await
        .unwrap_or_default()
}

/// Sends a probe to each of `targets` (broadcast or plain addresses, IPv4 or IPv6) and
/// collects the beacons that answer within `wait`. Each server is listed once, with the
/// address its game service is reached at (the beacon's source address, the beacon's
/// port), sorted by name. Blocking for `wait`: call it off the async runtime.
///
/// A beacon whose `version` differs from this build's [`banco_protocol::PROTOCOL_VERSION`]
/// is still listed, so a client can say that host needs another banco version.
/// Network errors are logged and give fewer (or no) servers, never a failure.
pub fn probe(targets: &[SocketAddr], wait: Duration) -> Vec<(SocketAddr, Beacon)> {
    let bytes = match discovery::encode(&Probe::new()) {
        Ok(bytes) => bytes,
        Err(e) => {
            tracing::error!(error = %e, "cannot encode a discovery probe");
            return Vec::new();
        }
    };
    let mut sockets: Vec<(UdpSocket, Vec<SocketAddr>)> = Vec::new();
    for v4 in [true, false] {
        let family: Vec<SocketAddr> = targets
            .iter()
            .copied()
            .filter(|t| t.is_ipv4() == v4)
            .collect();
        if family.is_empty() {
            continue;
        }
        match open(v4) {
            Ok(socket) => sockets.push((socket, family)),
            Err(e) => tracing::debug!(error = %e, v4, "cannot open a discovery socket"),
        }
    }
    if sockets.is_empty() {
        return Vec::new();
    }

    let start = Instant::now();
    let deadline = start + wait;
    // A second probe halfway through makes up for one lost on a busy network.
    let mut sends = vec![start, start + wait / 2];
    let mut found: HashMap<SocketAddr, Beacon> = HashMap::new();
    let mut buf = vec![0u8; MAX_DATAGRAM];
    loop {
        let now = Instant::now();
        if sends.first().is_some_and(|t| *t <= now) {
            sends.remove(0);
            for (socket, family) in &sockets {
                for target in family {
                    if let Err(e) = socket.send_to(&bytes, target) {
                        tracing::debug!(%target, error = %e, "could not send a probe");
                    }
                }
            }
        }
        if now >= deadline {
            break;
        }
        for (socket, _) in &sockets {
            let left = deadline.saturating_duration_since(Instant::now());
            let slice = left.min(SLICE).max(Duration::from_millis(1));
            if socket.set_read_timeout(Some(slice)).is_err() {
                continue;
            }
            // Drain what has arrived; a timeout (or any error) moves on.
            while let Ok((len, from)) = socket.recv_from(&mut buf) {
                match discovery::decode_beacon(&buf[..len]) {
                    Ok(beacon) => {
                        let game = SocketAddr::new(from.ip(), beacon.port);
                        found.insert(game, beacon);
                    }
                    Err(e) => tracing::trace!(%from, error = %e, "not a beacon"),
                }
            }
        }
    }
    let mut list: Vec<(SocketAddr, Beacon)> = found.into_iter().collect();
    list.sort_by(|(a, x), (b, y)| x.name.cmp(&y.name).then(a.cmp(b)));
    list
}

/// A socket for one address family, able to broadcast (IPv4).
fn open(v4: bool) -> std::io::Result<UdpSocket> {
    if v4 {
        let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0))?;
        socket.set_broadcast(true)?;
        Ok(socket)
    } else {
        UdpSocket::bind((Ipv6Addr::UNSPECIFIED, 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_targets_broadcast_on_the_discovery_port_and_never_loopback() {
        let targets = default_targets();
        assert_eq!(
            targets[0],
            SocketAddr::from((Ipv4Addr::BROADCAST, DISCOVERY_PORT))
        );
        for t in &targets {
            assert_eq!(t.port(), DISCOVERY_PORT);
            assert!(!t.ip().is_loopback(), "{t}");
        }
    }

    #[test]
    fn each_network_is_probed_at_its_broadcast_address_worked_out_from_the_prefix() {
        let ip = |s: &str| s.parse::<Ipv4Addr>().unwrap();
        // The play-through: addresses added without `brd` report none, or their own.
        assert_eq!(
            network_targets(ip("10.0.0.2"), 24, None),
            [ip("10.0.0.255")]
        );
        assert_eq!(
            network_targets(ip("10.0.0.2"), 24, Some(ip("10.0.0.2"))),
            [ip("10.0.0.255")]
        );
        // The usual case: the reported address is the one worked out.
        assert_eq!(
            network_targets(ip("192.168.1.20"), 24, Some(ip("192.168.1.255"))),
            [ip("192.168.1.255")]
        );
        assert_eq!(
            network_targets(ip("10.8.3.5"), 16, None),
            [ip("10.8.255.255")]
        );
        assert_eq!(
            network_targets(ip("172.16.5.9"), 20, None),
            [ip("172.16.15.255")]
        );
        assert_eq!(
            network_targets(ip("10.1.2.3"), 8, None),
            [ip("10.255.255.255")]
        );
        // A broadcast address set by hand, other than the usual one, is probed too.
        assert_eq!(
            network_targets(ip("10.0.0.2"), 24, Some(ip("10.0.0.127"))),
            [ip("10.0.0.255"), ip("10.0.0.127")]
        );
        // A point-to-point /31 probes the other end; a /32 has nobody to ask.
        assert_eq!(network_targets(ip("10.0.0.4"), 31, None), [ip("10.0.0.5")]);
        assert_eq!(network_targets(ip("10.0.0.5"), 31, None), [ip("10.0.0.4")]);
        assert!(network_targets(ip("10.0.0.5"), 32, None).is_empty());
    }

    #[test]
    fn nothing_to_probe_finds_nothing() {
        assert!(probe(&[], Duration::from_millis(50)).is_empty());
    }
}
