//! The server side of discovery: one task answering every valid probe with a beacon.
//! Anything that is not a banco probe is ignored, never answered; answers are throttled.

use std::time::{Duration, Instant};
use tokio::net::UdpSocket;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use banco_protocol::discovery::{self, Beacon, MAGIC, MAX_DATAGRAM};
use banco_protocol::{Fingerprint, PROTOCOL_VERSION};

use super::throttle::Throttle;

/// The longest server name a beacon carries, in characters (longer ones are cut).
const NAME_CHARS: usize = 64;

/// What a beacon tells about the server right now; the lobby keeps it current.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Census {
    /// Rooms open.
    pub rooms: u32,
    /// People connected.
    pub players: u32,
}

/// What the answering task says about its server.
pub struct Identity {
    /// The server's name, as in `Welcome`.
    pub name: String,
    /// The TCP port of the game service.
    pub port: u16,
    /// Rooms and people, as the lobby last counted them.
    pub census: watch::Receiver<Census>,
    /// The game port's TLS key fingerprint; `None` with TLS off.
    pub fingerprint: Option<Fingerprint>,
}

impl Identity {
    fn beacon(&self) -> Beacon {
        let census = *self.census.borrow();
        Beacon {
            magic: MAGIC,
            version: PROTOCOL_VERSION,
            name: self.name.chars().take(NAME_CHARS).collect(),
            port: self.port,
            rooms: census.rooms,
            players: census.players,
            fingerprint: self.fingerprint,
        }
    }
}

/// Answers probes arriving on `socket` until `shutdown` fires.
pub async fn serve(socket: UdpSocket, identity: Identity, shutdown: CancellationToken) {
    let mut throttle = Throttle::new(Instant::now());
    let mut buf = vec![0u8; MAX_DATAGRAM];
    loop {
        let received = tokio::select! {
            () = shutdown.cancelled() => break,
            received = socket.recv_from(&mut buf) => received,
        };
        let (len, sender) = match received {
            Ok(got) => got,
            Err(e) => {
                // ICMP errors from earlier sends surface here on some systems; none of
                // them stops discovery, but a persistent one must not spin the loop.
                tracing::debug!(error = %e, "discovery socket error");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        if discovery::decode_probe(&buf[..len]).is_err() {
            tracing::trace!(%sender, len, "ignored a datagram that is not a probe");
            continue;
        }
        if sender.port() == 0 || !throttle.allow(sender, Instant::now()) {
            tracing::debug!(%sender, "probe not answered (throttled)");
            continue;
        }
        let bytes = match discovery::encode(&identity.beacon()) {
            Ok(bytes) => bytes,
            Err(e) => {
                tracing::error!(error = %e, "cannot encode a discovery beacon");
                continue;
            }
        };
        if let Err(e) = socket.send_to(&bytes, sender).await {
            tracing::debug!(%sender, error = %e, "could not answer a probe");
        } else {
            tracing::debug!(%sender, "answered a discovery probe");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beacons_fit_a_datagram_whatever_the_name() {
        let (_tx, census) = watch::channel(Census {
            rooms: u32::MAX,
            players: u32::MAX,
        });
        let identity = Identity {
            name: "phòng cờ ".repeat(100),
            port: 7373,
            census,
            fingerprint: Some(Fingerprint([0xff; 32])),
        };
        let beacon = identity.beacon();
        assert_eq!(beacon.name.chars().count(), NAME_CHARS);
        assert!(discovery::encode(&beacon).unwrap().len() < MAX_DATAGRAM);
    }
}
