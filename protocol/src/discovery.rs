//! Finding servers on the local network without typing an address.
//!
//! A client broadcasts a [`Probe`] as one UDP datagram to [`DISCOVERY_PORT`]; every server
//! that listens for discovery answers the sender with a [`Beacon`] naming itself and the
//! TCP port its game service listens on. Both are encoded with [`crate::wire`]: a datagram
//! that does not decode, or names another protocol, is ignored (never answered), so a
//! server cannot be used to reflect traffic at a third party with a larger reply than the
//! request without that request being a real banco probe.

use serde::{Deserialize, Serialize};

use crate::wire::{self, DecodeError, EncodeError};

/// The UDP port servers listen on for probes (the same number as the TCP game port).
pub const DISCOVERY_PORT: u16 = crate::DEFAULT_PORT;

/// Largest datagram either side reads; probes and beacons are far smaller.
pub const MAX_DATAGRAM: usize = 1024;

/// Marks a datagram as banco's, so stray traffic on the port is never mistaken for a probe.
pub const MAGIC: [u8; 8] = *b"bancoLAN";

/// "Who is serving banco here?"
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Probe {
    pub magic: [u8; 8],
    /// The prober's protocol version, so servers can say whether they would accept it.
    pub version: u16,
}

impl Probe {
    pub fn new() -> Probe {
        Probe {
            magic: MAGIC,
            version: crate::PROTOCOL_VERSION,
        }
    }
}

impl Default for Probe {
    fn default() -> Self {
        Probe::new()
    }
}

/// "I am serving banco here."
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Beacon {
    pub magic: [u8; 8],
    /// The server's protocol version: a client of another version cannot join it.
    pub version: u16,
    /// The server's name (as in `Welcome`).
    pub name: String,
    /// The TCP port of the game service; the address is the one the beacon came from.
    pub port: u16,
    /// Rooms open right now.
    pub rooms: u32,
    /// People connected right now.
    pub players: u32,
    /// The fingerprint of the key the game port's TLS presents (`None`: it speaks in the
    /// clear, `--no-tls`). A datagram proves nothing: the TLS handshake still checks the
    /// key against the one pinned. Shown beside the server in a scan, so a person can
    /// compare it with the host's screen before joining, and told as known, new or
    /// changed against the client's pinned keys.
    pub fingerprint: Option<crate::Fingerprint>,
}

/// A datagram that is not a banco probe or beacon.
#[derive(Debug, thiserror::Error)]
pub enum DatagramError {
    #[error(transparent)]
    Decode(#[from] DecodeError),
    #[error("not a banco datagram")]
    NotBanco,
}

/// Encodes a probe or beacon for sending.
pub fn encode<T: Serialize>(datagram: &T) -> Result<Vec<u8>, EncodeError> {
    wire::encode(datagram)
}

/// Reads a probe from a datagram.
pub fn decode_probe(bytes: &[u8]) -> Result<Probe, DatagramError> {
    let probe: Probe = wire::decode(bytes)?;
    if probe.magic != MAGIC {
        return Err(DatagramError::NotBanco);
    }
    Ok(probe)
}

/// Reads a beacon from a datagram.
pub fn decode_beacon(bytes: &[u8]) -> Result<Beacon, DatagramError> {
    let beacon: Beacon = wire::decode(bytes)?;
    if beacon.magic != MAGIC {
        return Err(DatagramError::NotBanco);
    }
    Ok(beacon)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn probe_and_beacon_round_trip() {
        let probe = Probe::new();
        assert_eq!(decode_probe(&encode(&probe).unwrap()).unwrap(), probe);
        let beacon = Beacon {
            magic: MAGIC,
            version: crate::PROTOCOL_VERSION,
            name: "phòng khách".into(),
            port: 7373,
            rooms: 3,
            players: 5,
            fingerprint: Some(crate::Fingerprint([7; 32])),
        };
        let bytes = encode(&beacon).unwrap();
        assert!(bytes.len() < MAX_DATAGRAM);
        assert_eq!(decode_beacon(&bytes).unwrap(), beacon);
    }

    #[test]
    fn foreign_datagrams_are_not_probes() {
        let mut other = Probe::new();
        other.magic = *b"notbanco";
        assert!(matches!(
            decode_probe(&encode(&other).unwrap()),
            Err(DatagramError::NotBanco)
        ));
        assert!(decode_probe(b"M-SEARCH * HTTP/1.1\r\n").is_err());
        assert!(decode_probe(&[]).is_err());
    }

    proptest! {
        #[test]
        fn arbitrary_datagrams_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
            let _ = decode_probe(&bytes);
            let _ = decode_beacon(&bytes);
        }
    }
}
