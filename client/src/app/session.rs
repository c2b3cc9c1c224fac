//! This client's standing with a server, apart from any screen: who it is there, the
//! lobby's room list as last sent, whether the server saves games, and getting back
//! after the connection drops. The connection handlers (`connection`) work on it; the
//! screens only read it.

use banco_protocol::{Credentials, ResumeToken, RoomSummary, Welcome};
use std::time::Instant;

use crate::net::Lost;
use crate::reconnect::{RECONNECT_FOR, Return};

/// The server this client talks to, as far as the app knows.
#[derive(Debug, Clone, Default)]
pub struct Session {
    /// The server's greeting, once connected.
    pub welcome: Option<Welcome>,
    /// The account logged in to, kept in memory only, to log in again when the
    /// connection drops. `None` for a guest.
    pub account: Option<Credentials>,
    /// The address connected to, for the title bar and for dialling again.
    pub address: String,
    /// How the connection is protected (the server's key fingerprint, or in the clear),
    /// shown in the lobby; `None` before the first connection.
    pub security: Option<crate::net::Security>,
    /// The lobby's room list, as the server last sent it (kept while in a room, where
    /// the changes still come).
    pub rooms: Vec<RoomSummary>,
    /// Why the server is not saving games, while it says so.
    pub storage: Option<String>,
    /// Trying to get back to the server after the connection dropped.
    pub reconnect: Option<Reconnect>,
    /// Back on the server, waiting for the room it put us back in (a held seat) or that
    /// we asked to watch again; the room stays on screen meanwhile.
    pub rejoining: Option<Return>,
    /// The challenges in play (to us, ours, open ones) and the people list.
    pub challenges: crate::challenges::Challenges,
}

/// Getting back to the server after the connection dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reconnect {
    /// When the connection dropped; past [`RECONNECT_FOR`] we give up.
    pub since: Instant,
    /// When to try next.
    pub next_try: Instant,
    /// Attempts made so far, shown to the player.
    pub attempts: u32,
    /// An attempt is under way.
    pub in_flight: bool,
    /// The token from the lost session's Welcome: it takes a held seat back, and keeps
    /// the name.
    pub token: ResumeToken,
    /// Why the connection dropped.
    pub lost: Lost,
    /// Why the last attempt failed, in words, for the message if we give up.
    pub last_error: Option<String>,
    /// Where to go once back.
    pub back_to: Return,
}

impl Reconnect {
    /// Whether the time to get back is up at `now`.
    pub fn expired(&self, now: Instant) -> bool {
        now.saturating_duration_since(self.since) >= RECONNECT_FOR
    }
}

impl Session {
    /// This client's name on the server, once connected.
    pub fn name(&self) -> Option<String> {
        self.welcome.as_ref().map(|w| w.name.clone())
    }

    /// Whether a server greeted us (and has not been left since).
    pub fn online(&self) -> bool {
        self.welcome.is_some()
    }

    /// Whether this client is logged in to an account (not a guest).
    pub fn logged_in(&self) -> bool {
        self.welcome.as_ref().is_some_and(|w| w.account)
    }

    /// Logging out: the password, any way back and the server's store news forgotten
    /// (the greeting and the address stay for the connect screen to fill in).
    pub fn log_out(&mut self) {
        self.account = None;
        self.reconnect = None;
        self.rejoining = None;
        self.storage = None;
    }
}

/// This process hosts the server the client plays on (`banco host`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hosting {
    /// The server's listening address, for the title bar; quitting stops it.
    pub listen: String,
    /// Where others join this machine (`192.168.1.20`), for the lobby.
    pub join_hint: Vec<String>,
    /// With the browser client on: the addresses browsers open
    /// (`http://192.168.1.20:7373/`, one per network), shown in the lobby, the first
    /// with its QR code. Empty otherwise.
    pub web_urls: Vec<String>,
}

impl Hosting {
    /// Hosting at `listen`, with nothing to tell others yet.
    pub fn new(listen: impl Into<String>) -> Hosting {
        Hosting {
            listen: listen.into(),
            join_hint: Vec::new(),
            web_urls: Vec::new(),
        }
    }
}
