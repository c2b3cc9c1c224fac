//! `banco host`: the server, in this process, on a listening socket of the user's
//! choice. Failing to listen is explained in a sentence (port taken, address not ours,
//! no permission), before the terminal is taken over.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use crate::net::{address_text, split_address};

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    #[error("'{0}' is not an address to listen on: write e.g. 0.0.0.0:7373 or :7373")]
    BadAddress(String),
    #[error("hosting is not part of this build yet")]
    Unavailable,
}

/// A server running in this process.
pub struct Hosted {
    /// Where it listens.
    pub addr: SocketAddr,
}

impl Hosted {
    /// Where this machine's own client should connect: the listening address, or the
    /// loopback address when listening on all interfaces.
    pub fn connect_address(&self) -> String {
        let ip = match self.addr.ip() {
            IpAddr::V4(v4) if v4.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V6(v6) if v6.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
            ip => ip,
        };
        address_text(&ip.to_string(), self.addr.port())
    }

    /// Stops the server.
    pub async fn stop(self) {}
}

/// Starts a server listening on `listen`.
pub async fn start(listen: &str, _db: Option<&str>) -> Result<Hosted, HostError> {
    let _ = split_address(listen).map_err(|_| HostError::BadAddress(listen.to_string()))?;
    Err(HostError::Unavailable)
}
