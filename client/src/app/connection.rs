//! Connecting, the connection dropping, and getting back: to the lobby, to a held
//! seat, or to the room being watched.

use banco_protocol::{ClientMsg, Credentials, MAX_NAME_CHARS, MAX_PASSWORD_CHARS, Welcome};

use super::input::TextInput;
use super::{App, ConnectField, ConnectForm, Effect, Lobby, Reconnect, Screen};
use crate::discover::Found;
use crate::net::{ConnectError, Lost};
use crate::reconnect::{Return, pause_after};
use crate::tr;

impl App {
    /// Puts `address` in the connect form (from the command line).
    pub fn set_address(&mut self, address: &str) {
        if let Screen::Connect(form) = &mut self.screen {
            form.address = TextInput::with_text(100, address);
            form.focus = ConnectField::Name;
        }
    }

    /// Waits on the connect screen for the password (`--login`), or to register.
    pub fn ask_password(&mut self, register: bool) {
        if let Screen::Connect(form) = &mut self.screen {
            form.register = register;
            form.focus = ConnectField::Password;
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
        let password = form.password.text().to_string();
        let account =
            (!password.is_empty()).then_some(Credentials::password(password, form.register));
        form.connecting = true;
        form.error = None;
        // Kept for logging in again after a drop (as a login: the name is registered by
        // then).
        self.session.account = account.clone().map(Credentials::as_login);
        self.effects.push(Effect::Connect {
            address,
            name,
            resume: None,
            account,
        });
    }

    /// The connection is up: to the lobby (a resumed seat's room follows at once), or,
    /// after a lost connection, back where we were.
    pub fn connected(&mut self, welcome: Welcome, address: String) {
        // The server says again if it is not saving.
        self.session.storage = None;
        // Challenges belong to a connection; who may send them is ours to say again.
        self.session.challenges.clear();
        if self.settings.challenges != banco_protocol::ChallengePolicy::Everyone {
            self.send(ClientMsg::SetChallenges(self.settings.challenges));
        }
        if let Some(r) = self.session.reconnect.take() {
            self.back(r, welcome);
            return;
        }
        self.session.rejoining = None;
        self.session.address = address.clone();
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
        self.session.welcome = Some(welcome);
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

    /// Back on the server after a lost connection: a held seat's room comes by itself
    /// (the room stays on screen until it does), a watched room is asked for again, the
    /// lobby is the lobby.
    fn back(&mut self, lost: Reconnect, welcome: Welcome) {
        // The same token back means the same session: the server kept our place.
        let kept = welcome.resume == lost.token;
        self.session.welcome = Some(welcome);
        let text = tr!(self.loc, "net.reconnected").to_string();
        self.info(text);
        match lost.back_to {
            Return::Seat(_) if kept => self.session.rejoining = Some(lost.back_to),
            Return::Seat(_) => self.seat_lost(),
            Return::Watch(room) => {
                self.session.rejoining = Some(lost.back_to);
                self.send(ClientMsg::WatchRoom(room));
            }
            Return::Lobby => {
                self.session.rejoining = None;
                self.screen = Screen::Lobby(Lobby::default());
                self.send(ClientMsg::ListRooms);
            }
            Return::Stay => self.session.rejoining = None,
        }
    }

    /// The server did not keep our seat (we were away longer than it waits): the
    /// lobby, saying so.
    pub(super) fn seat_lost(&mut self) {
        self.session.rejoining = None;
        self.screen = Screen::Lobby(Lobby::default());
        self.popup = None;
        self.send(ClientMsg::ListRooms);
        self.effects.push(Effect::ForgetSeat);
        let text = tr!(self.loc, "net.seat_lost").to_string();
        self.warn(text);
    }

    /// A connection attempt failed.
    pub fn connect_failed(&mut self, error: &ConnectError) {
        let text = error.describe(&self.loc);
        if let Some(r) = &mut self.session.reconnect {
            r.in_flight = false;
            r.next_try = self.now + pause_after(r.attempts);
            r.last_error = Some(text);
            if r.expired(self.now) {
                self.give_up();
            }
            return;
        }
        if let Screen::Connect(form) = &mut self.screen {
            form.connecting = false;
            form.error = Some(text);
        }
    }

    /// The connection dropped: whether in the lobby, watching or seated, game running
    /// or not, keep the screen and dial again (with the token, which takes a held seat
    /// back and keeps the name) until [`crate::reconnect::RECONNECT_FOR`] has passed.
    pub fn disconnected(&mut self, lost: Lost) {
        // Not connected (a stale event): nothing to get back to.
        let Some(token) = self.session.welcome.as_ref().map(|w| w.resume) else {
            return;
        };
        if let Some(r) = &mut self.session.reconnect {
            r.in_flight = false;
            return;
        }
        let back_to = match (&self.session.rejoining, &self.screen) {
            // Dropped again before the room came back: still going there.
            (Some(to), _) => *to,
            (None, Screen::Room(rs)) => match rs.room.my_seat() {
                Some(_) => Return::Seat(rs.room.id),
                None => Return::Watch(rs.room.id),
            },
            (None, Screen::Lobby(_)) => Return::Lobby,
            (None, _) => Return::Stay,
        };
        self.session.rejoining = None;
        if let Screen::Password(ps) = &mut self.screen
            && ps.waiting
        {
            // The answer will not come on this connection: try again once back.
            ps.waiting = false;
            ps.error = Some(tr!(self.loc, "password.lost").to_string());
        }
        self.session.reconnect = Some(Reconnect {
            since: self.now,
            next_try: self.now,
            attempts: 0,
            in_flight: false,
            token,
            lost,
            last_error: None,
            back_to,
        });
        // The banner counts the attempts; the passing notice just says what happened.
        let text = tr!(self.loc, "net.lost", reason = lost.describe(&self.loc));
        self.warn(text);
        self.tick();
    }

    /// The reconnection's time is up: the connect screen, saying why.
    fn give_up(&mut self) {
        let Some(r) = self.session.reconnect.take() else {
            return;
        };
        let reason = r.last_error.unwrap_or_else(|| r.lost.describe(&self.loc));
        let text = tr!(self.loc, "net.gave_up", reason = reason);
        self.session.rejoining = None;
        self.session.storage = None;
        self.show_connect_screen(text);
    }

    /// The connect screen, filled in for the server and name just used, with `error`.
    pub(super) fn show_connect_screen(&mut self, error: String) {
        let address = if self.session.address.is_empty() {
            self.settings.last_server.clone().unwrap_or_default()
        } else {
            self.session.address.clone()
        };
        let name = self
            .session
            .welcome
            .as_ref()
            .map(|w| w.name.clone())
            .or_else(|| self.settings.name.clone())
            .unwrap_or_default();
        self.session.welcome = None;
        self.popup = None;
        self.session.rooms.clear();
        self.screen = Screen::Connect(ConnectForm {
            address: TextInput::with_text(100, &address),
            name: TextInput::with_text(MAX_NAME_CHARS, &name),
            password: TextInput::new(MAX_PASSWORD_CHARS),
            register: false,
            focus: ConnectField::Address,
            connecting: false,
            error: Some(error),
            servers: Vec::new(),
            selected: 0,
        });
        // Look for servers at once: the one just lost may be elsewhere now.
        self.scan.soon(self.now);
    }

    /// What a look for servers found.
    pub fn discovered(&mut self, found: Vec<Found>) {
        self.scan.finished(self.now);
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
            && self.scan.start_if_due(self.now)
        {
            self.effects.push(Effect::Discover);
        }
        let now = self.now;
        let Some(r) = &mut self.session.reconnect else {
            return;
        };
        if r.in_flight {
            return;
        }
        if r.expired(now) {
            self.give_up();
            return;
        }
        if now < r.next_try {
            return;
        }
        r.in_flight = true;
        r.attempts += 1;
        let token = r.token;
        let name = self
            .session
            .welcome
            .as_ref()
            .map(|w| w.name.clone())
            .unwrap_or_default();
        self.effects.push(Effect::Connect {
            address: self.session.address.clone(),
            name,
            resume: Some(token),
            account: self.session.account.clone(),
        });
    }
}
