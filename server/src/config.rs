//! What a host may tune. Every field has a default a person running `banco host` on a
//! LAN would want; tests shorten the waits.

use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use banco_protocol::discovery::DISCOVERY_PORT;

pub use crate::durability::{StoreLocation, SyncMode};

/// After an offer is declined, how long its maker waits before the next one, doubling
/// with each decline in a row (up to five minutes), unless the host says otherwise.
pub const OFFER_DECLINED_WAIT: Duration = Duration::from_secs(10);

/// After a challenge is declined, how long its challenger waits before challenging the
/// same player again, doubling with each decline in a row (up to ten minutes).
pub const CHALLENGE_DECLINED_WAIT: Duration = Duration::from_secs(30);

/// Accounts one address may register at once (`Config::registration_burst`).
pub const REGISTRATION_BURST: u32 = 5;

/// How long an address waits for each registration past its burst
/// (`Config::registration_refill`).
pub const REGISTRATION_REFILL: Duration = Duration::from_secs(30);

/// How a server runs.
#[derive(Debug, Clone)]
pub struct Config {
    /// The server's name, shown to clients in `Welcome` (their title bar).
    pub name: String,
    /// Where players, ratings and finished games are kept.
    pub store: StoreLocation,
    /// How long a dropped player's seat is held for them to come back (the clock keeps
    /// running meanwhile; a running game is lost as abandoned when it expires).
    pub grace: Duration,
    /// How long the players of a game reopened after a restart have to come back (its
    /// clocks wait for them).
    pub restart_grace: Duration,
    /// The least time between two moves in a room where only bots play, so people can
    /// follow the game they are watching; none in a game with a game clock, which paces
    /// the game itself (the wait would come out of the mover's time).
    pub bot_delay: Duration,
    /// An upper bound on every bot search, on top of the level's own budget and the bot's
    /// clock. `None` lets the level decide. Tests set it to keep bot games short.
    pub bot_think_cap: Option<Duration>,
    /// The most a hint may think.
    pub hint_budget: Duration,
    /// How many threads search for every room's bots and hints together (at least one;
    /// default: every core but one). Bots wait their turn rather than take more.
    pub engine_threads: usize,
    /// Bytes of hash tables all those searches share (default 256 MB): what bots may cost
    /// in memory, whatever the number of bot rooms.
    pub engine_memory: usize,
    /// Chat lines a person may send in a burst before `ChatTooFast`.
    pub chat_burst: u32,
    /// How fast the chat allowance comes back: one line per this long.
    pub chat_refill: Duration,
    /// Accounts one address may register in a burst before `too_many_tries`...
    pub registration_burst: u32,
    /// ...and how fast that allowance comes back: one per this long (zero: no limit).
    pub registration_refill: Duration,
    /// After a player's offer is declined, how long before they may offer again; it
    /// doubles with each decline in a row (up to five minutes).
    pub offer_declined_wait: Duration,
    /// How long a challenge to a player waits for its answer before it expires.
    pub challenge_wait: Duration,
    /// How long an open challenge (anyone may take it, from the lobby or its link) waits.
    pub open_challenge_wait: Duration,
    /// After a challenge is declined, how long before its challenger may challenge that
    /// player again; it doubles with each decline in a row (up to ten minutes).
    pub challenge_declined_wait: Duration,
    /// Challenges one player may have waiting for answers at once (to players, and one
    /// open to anyone).
    pub challenges_per_player: usize,
    /// How many bytes of messages may wait for one client's socket. A client that falls
    /// this far behind is disconnected rather than allowed to hold memory or its room.
    /// (A single message larger than this still reaches a client whose queue is empty.)
    pub outbox_bytes: usize,
    /// How often a connection is pinged; one silent for three of these is dropped (its
    /// seat held for the grace period). The client expects
    /// [`banco_protocol::HEARTBEAT_EVERY_SECS`].
    pub heartbeat: Duration,
    /// What a commit survives: a process crash (`normal`) or power loss too (`full`).
    pub store_sync: SyncMode,
    /// The most bytes of game records that may wait for the disk (or be held while it
    /// refuses writes); rooms wait beyond it.
    pub store_queue_bytes: usize,
    /// A cap on the database's size in bytes (0: none), e.g. for a host on a small card.
    /// Past it, commits fail as on a full disk: games go on, are held in memory and
    /// players are told. Shared, so a host may raise it while the server runs (the store
    /// reads it before every commit).
    pub store_max_bytes: std::sync::Arc<std::sync::atomic::AtomicU64>,
    /// In a timed game, how long the player to move has for their first move (no clock
    /// runs until both players have moved once); past it the game is aborted, unrated.
    pub first_move_wait: Duration,
    /// In a room that plays a match, the wait between one of its games and the next:
    /// time to look at the last position and read the score. The next game starts at
    /// once when both players say they are ready (a new-game offer accepted).
    pub match_break: Duration,
    /// The most spectators one room admits (`--spectators`); one more is refused with
    /// `room_full`. Players' seats never count against it.
    pub max_spectators: usize,
    /// The most rooms open at once. Each is cheap, but every lobby client is sent the
    /// whole room list, which must stay well inside a frame.
    pub max_rooms: usize,
    /// Where to answer LAN discovery probes (UDP), so clients list this server without
    /// being told its address; `None` turns discovery off. A server whose game listener
    /// is on loopback only answers on loopback only.
    pub discovery: Option<SocketAddr>,
    /// Whether the game port also serves the browser client (the page and its
    /// WebSocket), told apart from banco clients by their first byte. `--no-web` turns it
    /// off: the port then speaks only the terminal client's protocol.
    pub web: bool,
    /// The engine's time per position of a game under review (`--review-budget`): a
    /// game of 80 plies takes about 81 of these on one engine thread, when no game needs it.
    pub review_budget: Duration,
    /// At most this many engine nodes per position under review, beside the time budget
    /// (`None`: the time alone). Tests set it so a review says the same on a busy machine.
    pub review_nodes: Option<u64>,
    /// The most reviews under way at once on the whole server (`--reviews`); one more is
    /// refused with `engines_busy`. Each has at most one search in the pool at a time.
    pub max_reviews: usize,
    /// The most connections one machine (an IPv4 address, an IPv6 /64) may have open
    /// (`--connections-per-address`); one more is told why and closed.
    pub connections_per_address: usize,
    /// The most connections open at once (`--connections`); `None`: as many as the open
    /// files limit allows, less headroom (see [`crate::admission`]).
    pub max_connections: Option<usize>,
    /// The most rooms made from one machine or by one account that may be open at once
    /// (`--rooms-per-player`), counting those whose maker dropped and holds a seat, so
    /// one client making rooms and dropping cannot fill the server's [`Config::max_rooms`].
    pub rooms_per_player: usize,
    /// The most seats held at once for dropped players of one machine or one account
    /// (`--held-seats-per-player`); past it, a player who drops leaves their room.
    pub held_per_player: usize,
    /// Password hashes computed at once (`--hashing`), each in its own 19 MiB kept from
    /// one to the next: what logins and registrations cost in memory, however many come.
    pub hashing: usize,
    /// Host names the page and its WebSocket answer to, besides this machine's own
    /// addresses, `localhost` and its host name (`--hostname`): a request naming any
    /// other host is refused, so a page elsewhere cannot reach the server by rebinding
    /// its own name to the server's address (DNS rebinding).
    pub hostnames: Vec<String>,
    /// How the game port is encrypted: TLS with the self-signed certificate kept beside
    /// the store (the default), a real one, or none (`--no-tls`). The server loads it at
    /// start (after the store) and holds [`crate::tls::Tls::Ready`] from then on.
    pub tls: crate::tls::Tls,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            name: host_name(),
            store: default_store_path().map_or(StoreLocation::Memory, StoreLocation::File),
            grace: Duration::from_secs(30),
            restart_grace: Duration::from_secs(300),
            bot_delay: Duration::from_millis(800),
            bot_think_cap: None,
            hint_budget: Duration::from_secs(1),
            review_budget: Duration::from_millis(100),
            review_nodes: None,
            max_reviews: 8,
            engine_threads: crate::engines::default_threads(),
            engine_memory: crate::engines::DEFAULT_MEMORY,
            chat_burst: 6,
            chat_refill: Duration::from_millis(1500),
            offer_declined_wait: OFFER_DECLINED_WAIT,
            challenge_wait: Duration::from_secs(180),
            open_challenge_wait: Duration::from_secs(1800),
            challenge_declined_wait: CHALLENGE_DECLINED_WAIT,
            challenges_per_player: 5,
            registration_burst: REGISTRATION_BURST,
            registration_refill: REGISTRATION_REFILL,
            outbox_bytes: 256 * 1024,
            max_rooms: 500,
            max_spectators: 200,
            first_move_wait: Duration::from_secs(60),
            match_break: Duration::from_secs(10),
            heartbeat: Duration::from_secs(banco_protocol::HEARTBEAT_EVERY_SECS),
            store_sync: SyncMode::Normal,
            store_queue_bytes: 16 * 1024 * 1024,
            store_max_bytes: Default::default(),
            discovery: Some(SocketAddr::from((Ipv4Addr::UNSPECIFIED, DISCOVERY_PORT))),
            web: true,
            connections_per_address: 32,
            max_connections: None,
            rooms_per_player: 8,
            held_per_player: 4,
            hashing: 2,
            hostnames: Vec::new(),
            tls: crate::tls::Tls::SelfSigned,
        }
    }
}

/// Where `banco-server` and `banco host` keep their database unless told otherwise:
/// `$XDG_DATA_HOME/banco/banco.db`, else `~/.local/share/banco/banco.db` (on Windows
/// `%APPDATA%\banco\banco.db`). `None` when the system names no home at all.
pub fn default_store_path() -> Option<PathBuf> {
    let from_env = |key: &str| {
        std::env::var_os(key)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let data_dir = from_env("XDG_DATA_HOME")
        .filter(|p| p.is_absolute())
        .or_else(|| from_env("HOME").map(|home| home.join(".local").join("share")))
        .or_else(|| from_env("APPDATA"))?;
    Some(data_dir.join("banco").join("banco.db"))
}

/// This machine's host name, for naming the server; "banco" if the system won't say.
pub fn host_name() -> String {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    [
        read("/proc/sys/kernel/hostname"),
        read("/etc/hostname"),
        std::env::var("HOSTNAME").ok(),
        std::env::var("COMPUTERNAME").ok(),
    ]
    .into_iter()
    .flatten()
    .map(|name| name.trim().to_string())
    .find(|name| !name.is_empty() && !name.chars().any(char::is_control))
    .unwrap_or_else(|| "banco".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_what_a_host_expects() {
        let c = Config::default();
        assert!(!c.name.is_empty());
        assert_eq!(c.grace, Duration::from_secs(30));
        assert!(c.bot_think_cap.is_none());
        assert_eq!(c.discovery, Some("0.0.0.0:7373".parse().unwrap()));
        if let StoreLocation::File(p) = c.store {
            assert!(p.ends_with("banco/banco.db"));
        }
    }
}
