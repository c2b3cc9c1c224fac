//! Finding servers on the local network without typing an address (`banco discover`, the
//! connect screen's list), and this machine's own addresses for the host's lobby hint.
//!
//! The probing itself is the server crate's ([`banco_server::discovery`]): a UDP probe
//! broadcast on every IPv4 network this machine is on, answered by each server's beacon.
//! Here the beacons become [`Found`] servers a person can choose from.

use banco_protocol::discovery::{Beacon, DISCOVERY_PORT};
use banco_protocol::{DEFAULT_PORT, Fingerprint, PROTOCOL_VERSION};
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::time::Duration;

use crate::known_hosts::Trust;
use crate::net::address_text;

/// How long one look around the network waits for answers.
pub const SCAN_WAIT: Duration = Duration::from_millis(1200);

/// A server that answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The server's name for itself.
    pub name: String,
    /// Where its game service listens: the beacon's source address and game port.
    pub address: SocketAddr,
    /// Rooms open when it answered.
    pub rooms: u32,
    /// People connected when it answered.
    pub players: u32,
    /// Its protocol version; another than ours cannot be joined.
    pub version: u16,
    /// The fingerprint its beacon claims for its key; `None`: it speaks in the clear.
    pub fingerprint: Option<Fingerprint>,
    /// That fingerprint against the keys this client holds ([`vouch`]).
    pub key: Key,
}

/// What a found server's claimed key is to this client. A beacon proves nothing (the
/// TLS handshake checks the key again); this is for the person choosing where to go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// No TLS: passwords would cross the network in the clear.
    Clear,
    /// A key this client has not pinned for that address: compare it with the host's.
    New,
    /// The key pinned for that address.
    Known,
    /// Not the key pinned for that address: joining it will be refused.
    Changed,
}

impl Key {
    /// The stable name for JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            Key::Clear => "clear",
            Key::New => "new",
            Key::Known => "known",
            Key::Changed => "changed",
        }
    }
}

/// The words for a found server's key where it needs a person's eye: new, changed or in
/// the clear (`None` for a key already known, as SSH says nothing of a known host).
pub fn key_text(f: &Found, loc: &crate::locale::Locale) -> Option<String> {
    let key = match f.key {
        Key::Known => return None,
        Key::New => "connect.key_new",
        Key::Changed => "connect.key_changed",
        Key::Clear => "connect.key_clear",
    };
    Some(crate::tr!(loc, key).to_string())
}

/// Marks each server's claimed key as known, new or changed against `trust`'s pins
/// (under its address as a person types it, or as a socket address).
pub fn vouch(found: &mut [Found], trust: &Trust) {
    for f in found {
        let Some(claimed) = f.fingerprint else {
            f.key = Key::Clear;
            continue;
        };
        let typed = f.address_text();
        let full = f.address.to_string();
        f.key = match trust.held(&[&typed, &full]) {
            None => Key::New,
            Some((held, _)) if held == claimed => Key::Known,
            Some(_) => Key::Changed,
        };
    }
}

impl Found {
    /// Whether this build can play on it.
    pub fn compatible(&self) -> bool {
        self.version == PROTOCOL_VERSION
    }

    /// The address as typed on the connect screen: no port when it is the default.
    pub fn address_text(&self) -> String {
        let ip = self.address.ip().to_string();
        if self.address.port() == DEFAULT_PORT {
            if ip.contains(':') {
                format!("[{ip}]")
            } else {
                ip
            }
        } else {
            address_text(&ip, self.address.port())
        }
    }
}

/// The servers behind some beacons, in the order given (by name).
pub fn found(beacons: Vec<(SocketAddr, Beacon)>) -> Vec<Found> {
    beacons
        .into_iter()
        .map(|(address, b)| Found {
            name: b.name,
            address,
            rooms: b.rooms,
            players: b.players,
            version: b.version,
            key: if b.fingerprint.is_some() {
                Key::New
            } else {
                Key::Clear
            },
            fingerprint: b.fingerprint,
        })
        .collect()
}

/// Looks for servers for `wait`: at `targets` if given (addresses or broadcast
/// addresses), else on every network this machine is on.
pub async fn scan(targets: Option<Vec<SocketAddr>>, wait: Duration) -> Vec<Found> {
    let beacons = match targets {
        None => banco_server::discovery::discover(wait).await,
        Some(t) => tokio::task::spawn_blocking(move || banco_server::discovery::probe(&t, wait))
            .await
            .unwrap_or_default(),
    };
    found(beacons)
}

/// A probe target typed by a person: `192.168.1.255`, `lan-box`, `10.0.0.7:7400`. The
/// port is the discovery port unless given.
pub fn target(text: &str) -> Result<SocketAddr, String> {
    let (host, port) = crate::net::split_address(text).map_err(|e| e.to_string())?;
    // `split_address` fills in the game port; discovery has its own (the same number).
    let port = if port == DEFAULT_PORT {
        DISCOVERY_PORT
    } else {
        port
    };
    (host.as_str(), port)
        .to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
        .ok_or_else(|| format!("cannot find the host '{host}' to probe"))
}

/// This machine's addresses others on the network can reach it at: every IPv4
/// address that is up and neither loopback nor link-local, then IPv6 ones likewise.
pub fn lan_addresses() -> Vec<IpAddr> {
    let Ok(interfaces) = if_addrs::get_if_addrs() else {
        return Vec::new();
    };
    let mut v4: Vec<IpAddr> = Vec::new();
    let mut v6: Vec<IpAddr> = Vec::new();
    for iface in interfaces {
        if iface.is_loopback() || iface.is_link_local() || !iface.is_oper_up() {
            continue;
        }
        let ip = iface.ip();
        let list = if ip.is_ipv4() { &mut v4 } else { &mut v6 };
        if !list.contains(&ip) {
            list.push(ip);
        }
    }
    v4.extend(v6);
    v4
}

/// What others type to join a server listening on `listen`: its own address when it
/// listens on one, else each of [`lan_addresses`]; with `:port` unless it is the default.
pub fn join_addresses(listen: SocketAddr, lan: &[IpAddr]) -> Vec<String> {
    let ips: Vec<IpAddr> = if listen.ip().is_unspecified() {
        lan.iter()
            .copied()
            .filter(|ip| ip.is_ipv4() || listen.ip().is_ipv6())
            .collect()
    } else {
        vec![listen.ip()]
    };
    ips.into_iter()
        .map(|ip| {
            let found = Found {
                name: String::new(),
                address: SocketAddr::new(ip, listen.port()),
                rooms: 0,
                players: 0,
                version: PROTOCOL_VERSION,
                fingerprint: None,
                key: Key::Clear,
            };
            found.address_text()
        })
        .collect()
}

/// The addresses a browser on the network opens to play on a server listening on
/// `listen`: `https://192.168.1.20:7373/` (`http://` when the server is not
/// `encrypted`), one for each of the LAN addresses (`lan`) others can reach (a machine
/// on two networks is reached by a different one from each), or this machine's own when
/// it listens on one address only. The first is the one the QR code shows.
pub fn web_urls(listen: SocketAddr, lan: &[IpAddr], encrypted: bool) -> Vec<String> {
    let scheme = if encrypted { "https" } else { "http" };
    let ips: Vec<IpAddr> = if listen.ip().is_unspecified() {
        let v4: Vec<IpAddr> = lan.iter().copied().filter(IpAddr::is_ipv4).collect();
        if v4.is_empty() {
            vec![IpAddr::from([127, 0, 0, 1])]
        } else {
            v4
        }
    } else {
        vec![listen.ip()]
    };
    ips.into_iter()
        .map(|ip| format!("{scheme}://{}/", SocketAddr::new(ip, listen.port())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn browsers_are_given_a_lan_address_with_the_port() {
        let lan = [
            IpAddr::from([192, 168, 1, 20]),
            IpAddr::from([10, 77, 0, 1]),
            "fe80::1".parse().unwrap(),
        ];
        assert_eq!(
            web_urls("0.0.0.0:7373".parse().unwrap(), &lan, true),
            ["https://192.168.1.20:7373/", "https://10.77.0.1:7373/"]
        );
        assert_eq!(
            web_urls("127.0.0.1:7400".parse().unwrap(), &lan, false),
            ["http://127.0.0.1:7400/"]
        );
        assert_eq!(
            web_urls("0.0.0.0:7373".parse().unwrap(), &[], true),
            ["https://127.0.0.1:7373/"]
        );
    }

    use banco_protocol::discovery::MAGIC;

    fn beacon(name: &str, port: u16, version: u16) -> Beacon {
        Beacon {
            magic: MAGIC,
            version,
            name: name.into(),
            port,
            rooms: 2,
            players: 3,
            fingerprint: Some(Fingerprint([port as u8; 32])),
        }
    }

    #[test]
    fn beacons_become_addresses_people_type() {
        let list = found(vec![
            (
                "192.168.1.20:7373".parse().unwrap(),
                beacon("lan-box", 7373, PROTOCOL_VERSION),
            ),
            (
                "192.168.1.31:7400".parse().unwrap(),
                beacon("old", 7400, PROTOCOL_VERSION + 1),
            ),
        ]);
        assert_eq!(list[0].address_text(), "192.168.1.20");
        assert!(list[0].compatible());
        assert_eq!(list[1].address_text(), "192.168.1.31:7400");
        assert!(!list[1].compatible());
        assert_eq!((list[1].rooms, list[1].players), (2, 3));
    }

    #[test]
    fn a_found_key_is_told_against_the_pins() {
        let mut list = found(vec![
            (
                "192.168.1.20:7373".parse().unwrap(),
                beacon("pinned", 7373, PROTOCOL_VERSION),
            ),
            (
                "192.168.1.21:7373".parse().unwrap(),
                beacon("changed", 7373, PROTOCOL_VERSION),
            ),
            (
                "192.168.1.22:7373".parse().unwrap(),
                beacon("new", 7373, PROTOCOL_VERSION),
            ),
            (
                "192.168.1.23:7373".parse().unwrap(),
                Beacon {
                    fingerprint: None,
                    ..beacon("clear", 7373, PROTOCOL_VERSION)
                },
            ),
        ]);
        assert_eq!(list[0].key, Key::New, "nothing vouched yet");
        let mut known = crate::known_hosts::KnownHosts::in_memory();
        known
            .pin("192.168.1.20", Fingerprint([7373u16 as u8; 32]))
            .unwrap();
        known
            .pin("192.168.1.21:7373", Fingerprint([1; 32]))
            .unwrap();
        vouch(&mut list, &Trust::new(known));
        let keys: Vec<Key> = list.iter().map(|f| f.key).collect();
        assert_eq!(keys, [Key::Known, Key::Changed, Key::New, Key::Clear]);
    }

    #[test]
    fn probe_targets_default_to_the_discovery_port() {
        assert_eq!(
            target("127.0.0.1"),
            Ok(SocketAddr::from(([127, 0, 0, 1], DISCOVERY_PORT)))
        );
        assert_eq!(
            target("127.0.0.1:7400"),
            Ok(SocketAddr::from(([127, 0, 0, 1], 7400)))
        );
        assert!(target("no such host!").is_err());
    }

    #[test]
    fn the_host_hint_names_real_addresses() {
        let lan: Vec<IpAddr> = vec![
            "192.168.1.20".parse().unwrap(),
            "10.8.0.2".parse().unwrap(),
            "fd00::5".parse().unwrap(),
        ];
        let any: SocketAddr = "0.0.0.0:7373".parse().unwrap();
        assert_eq!(join_addresses(any, &lan), ["192.168.1.20", "10.8.0.2"]);
        let other: SocketAddr = "0.0.0.0:7400".parse().unwrap();
        assert_eq!(
            join_addresses(other, &lan),
            ["192.168.1.20:7400", "10.8.0.2:7400"]
        );
        let one: SocketAddr = "10.8.0.2:7373".parse().unwrap();
        assert_eq!(join_addresses(one, &lan), ["10.8.0.2"]);
        for ip in lan_addresses() {
            assert!(!ip.is_loopback(), "{ip}");
        }
    }
}
