//! The client side of discovery: broadcast a probe, collect the beacons that come back.

use std::collections::HashMap;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, UdpSocket};
use std::time::{Duration, Instant};

use banco_protocol::discovery::{self, Beacon, DISCOVERY_PORT, MAX_DATAGRAM, Probe};

/// How long one read waits before looking at the other socket and the clock.
const SLICE: Duration = Duration::from_millis(25);

/// Where [`discover`] probes: the limited broadcast address and the broadcast address of
/// every IPv4 network this machine is on (a limited broadcast leaves by one interface
/// only on most systems), all on the discovery port. Loopback is not included.
pub fn default_targets() -> Vec<SocketAddr> {
    let mut targets = vec![SocketAddr::from((Ipv4Addr::BROADCAST, DISCOVERY_PORT))];
    match if_addrs::get_if_addrs() {
        Ok(interfaces) => {
            for iface in interfaces.iter().filter(|i| !i.is_loopback()) {
                if let if_addrs::IfAddr::V4(v4) = &iface.addr
                    && let Some(broadcast) = v4.broadcast
                {
                    let target = SocketAddr::from((broadcast, DISCOVERY_PORT));
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
    fn nothing_to_probe_finds_nothing() {
        assert!(probe(&[], Duration::from_millis(50)).is_empty());
    }
}
