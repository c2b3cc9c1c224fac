//! Connecting, the connection dropping, and getting back to a held seat.

use banco_protocol::{ClientMsg, MAX_NAME_CHARS, Welcome};

use super::input::TextInput;
use super::{
    App, ConnectField, ConnectForm, Effect, Lobby, RECONNECT_EVERY, RECONNECT_FOR, Reconnect,
    Screen, scan_pause,
};
use crate::discover::Found;
use crate::net::ConnectError;
use crate::tr;

impl App {
    /// Puts `address` in the connect form (from the command line).
    pub fn set_address(&mut self, address: &str) {
        if let Screen::Connect(form) = &mut self.screen {
            form.address = TextInput::with_text(100, address);
            form.focus = ConnectField::Name;
        }
    }

    /// Starts connecting with what the connect form holds.
    pub fn connect(&mut self) {
        let Screen::Connect(form) = &mut self.screen else {
            return;
        };
        let address = form.address.text().trim().to_string();
        let name = form.name.text().trim().to_string();
        if address.is_empty() {
            form.error = Some(tr!(self.loc, "connect.need_address").to_string());
            form.focus = ConnectField::Address;
            return;
        }
        if name.is_empty() {
            form.error = Some(tr!(self.loc, "connect.need_name").to_string());
            form.focus = ConnectField::Name;
            return;
        }
        form.connecting = true;
        form.error = None;
        self.effects.push(Effect::Connect {
            address,
            name,
            resume: None,
        });
    }

    /// The connection is up: to the lobby (a resumed seat's room follows at once).
    pub fn connected(&mut self, welcome: Welcome, address: String) {
        if self.reconnect.take().is_some() {
            let text = tr!(self.loc, "net.reconnected").to_string();
            self.welcome = Some(welcome);
            self.screen = Screen::Lobby(Lobby::default());
            self.popup = None;
            self.send(ClientMsg::ListRooms);
            self.info(text);
            return;
        }
        self.server_addr = address.clone();
        let typed_name = match &self.screen {
            Screen::Connect(f) => f.name.text().trim().to_string(),
            _ => welcome.name.clone(),
        };
        self.info(tr!(
            self.loc,
            "event.welcome",
            server = welcome.server,
            name = welcome.name
        ));
        self.welcome = Some(welcome);
        self.screen = Screen::Lobby(Lobby::default());
        self.popup = None;
        self.send(ClientMsg::ListRooms);
        if let Some(replay) = self.open_after_connect.take() {
            // Online, so `c` can play on from it; Esc goes to the lobby.
            self.open_offline_replay(replay);
        }
        // Remember where and who, unless hosting (the host's own address is no use to
        // remember as "last server").
        let mut changed = false;
        if self.hosting.is_none() && self.settings.last_server.as_deref() != Some(&address) {
            self.settings.last_server = Some(address);
            changed = true;
        }
        if self.settings.name.as_deref() != Some(&typed_name) && !typed_name.is_empty() {
            self.settings.name = Some(typed_name);
            changed = true;
        }
        if changed {
            self.effects.push(Effect::SaveSettings);
        }
    }

    /// A connection attempt failed.
    pub fn connect_failed(&mut self, error: &ConnectError) {
        if let Some(r) = &mut self.reconnect {
            r.in_flight = false;
            r.next_try = self.now + RECONNECT_EVERY;
            if self.now.saturating_duration_since(r.since) >= RECONNECT_FOR {
                let reason = tr!(self.loc, "net.gave_up", reason = error);
                self.reconnect = None;
                self.show_connect_screen(reason);
            }
            return;
        }
        if let Screen::Connect(form) = &mut self.screen {
            form.connecting = false;
            form.error = Some(error.to_string());
        }
    }

    /// The connection dropped. Mid-game, in a seat, the server holds the seat for a
    /// while: keep the room on screen and try to get back with the resume token.
    /// Otherwise back to the connect screen, saying why.
    pub fn disconnected(&mut self, reason: Option<String>) {
        let why = match reason {
            None => tr!(self.loc, "net.closed").to_string(),
            Some(r) => tr!(self.loc, "net.lost", reason = r),
        };
        let seated = self
            .room()
            .is_some_and(|r| r.room.playing() && r.room.my_seat().is_some());
        if let (true, Some(w)) = (seated, &self.welcome) {
            if self.reconnect.is_none() {
                self.reconnect = Some(Reconnect {
                    since: self.now,
                    next_try: self.now,
                    attempts: 0,
                    in_flight: false,
                    token: w.resume,
                    reason: why.clone(),
                });
            } else if let Some(r) = &mut self.reconnect {
                r.in_flight = false;
            }
            self.warn(why);
            self.tick();
            return;
        }
        self.reconnect = None;
        self.show_connect_screen(why);
    }

    /// The connect screen, filled in for the server and name just used, with `error`.
    pub(super) fn show_connect_screen(&mut self, error: String) {
        let address = if self.server_addr.is_empty() {
            self.settings.last_server.clone().unwrap_or_default()
        } else {
            self.server_addr.clone()
        };
        let name = self
            .welcome
            .as_ref()
            .map(|w| w.name.clone())
            .or_else(|| self.settings.name.clone())
            .unwrap_or_default();
        self.welcome = None;
        self.popup = None;
        self.rooms.clear();
        self.screen = Screen::Connect(ConnectForm {
            address: TextInput::with_text(100, &address),
            name: TextInput::with_text(MAX_NAME_CHARS, &name),
            focus: ConnectField::Address,
            connecting: false,
            error: Some(error),
            servers: Vec::new(),
            selected: 0,
        });
        // Look for servers at once: the one just lost may be elsewhere now.
        self.scan.next = self.now;
    }

    /// What a look for servers found.
    pub fn discovered(&mut self, found: Vec<Found>) {
        self.scan.in_flight = false;
        self.scan.done_once = true;
        self.scan.next = self.now + scan_pause();
        let Screen::Connect(form) = &mut self.screen else {
            return;
        };
        // Keep the highlighted server highlighted as the list changes around it.
        let was = form.servers.get(form.selected).map(|f| f.address);
        form.servers = found;
        form.selected = was
            .and_then(|a| form.servers.iter().position(|f| f.address == a))
            .unwrap_or(0)
            .min(form.servers.len().saturating_sub(1));
        if form.servers.is_empty() && form.focus == ConnectField::Servers {
            form.focus = ConnectField::Address;
        }
    }

    /// Connects to the highlighted server found on the network.
    pub(super) fn connect_to_found(&mut self) {
        let Screen::Connect(form) = &mut self.screen else {
            return;
        };
        let Some(found) = form.servers.get(form.selected).cloned() else {
            return;
        };
        if !found.compatible() {
            form.error = Some(tr!(
                self.loc,
                "connect.other_version",
                name = found.name,
                version = found.version
            ));
            return;
        }
        form.address = TextInput::with_text(100, &found.address_text());
        self.connect();
    }

    /// Time passed: a replay playing by itself moves on; the connect screen looks for
    /// servers every [`super::SCAN_EVERY`] or so; a lost connection is retried when it is
    /// time.
    pub fn tick(&mut self) {
        self.replay_tick();
        if let Screen::Connect(form) = &self.screen
            && !form.connecting
            && !self.scan.in_flight
            && self.now >= self.scan.next
        {
            self.scan.in_flight = true;
            self.effects.push(Effect::Discover);
        }
        let now = self.now;
        let Some(r) = &mut self.reconnect else {
            return;
        };
        if r.in_flight || now < r.next_try {
            return;
        }
        if now.saturating_duration_since(r.since) >= RECONNECT_FOR {
            let reason = r.reason.clone();
            self.reconnect = None;
            self.show_connect_screen(reason);
            return;
        }
        r.in_flight = true;
        r.attempts += 1;
        let token = r.token;
        let name = self
            .welcome
            .as_ref()
            .map(|w| w.name.clone())
            .unwrap_or_default();
        self.effects.push(Effect::Connect {
            address: self.server_addr.clone(),
            name,
            resume: Some(token),
        });
    }
}
