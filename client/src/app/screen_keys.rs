//! Keys on the connect screen and in the lobby (the create form has its own module).

use banco_protocol::ClientMsg;
use crossterm::event::{KeyCode, KeyEvent};

use super::create::{CreateForm, FormAction};
use super::input::Edit;
use super::{App, ConnectField, Screen};
use crate::tr;

impl App {
    pub(super) fn connect_key(&mut self, key: KeyEvent) {
        let Screen::Connect(form) = &mut self.screen else {
            return;
        };
        if form.connecting {
            if key.code == KeyCode::Esc {
                self.quit_now();
            }
            return;
        }
        let found = form.servers.len();
        let last = found.saturating_sub(1);
        match (form.focus, key.code) {
            (_, KeyCode::F(2)) => {
                form.register = !form.register;
                form.focus = ConnectField::Password;
            }
            (ConnectField::Servers, KeyCode::Enter) => self.connect_to_found(),
            (_, KeyCode::Enter) => {
                if form.focus == ConnectField::Address && form.name.is_empty() {
                    form.focus = ConnectField::Name;
                } else {
                    self.connect();
                }
            }
            // Down walks from the fields into the list of servers found, up back out.
            (ConnectField::Servers, KeyCode::Down) => form.selected = (form.selected + 1).min(last),
            (ConnectField::Servers, KeyCode::Up) if form.selected > 0 => form.selected -= 1,
            (ConnectField::Servers, KeyCode::Up) => form.focus = ConnectField::Password,
            (ConnectField::Password, KeyCode::Down) if found > 0 => {
                form.focus = ConnectField::Servers;
                form.selected = 0;
            }
            (ConnectField::Address, KeyCode::Up) if found > 0 => {
                form.focus = ConnectField::Servers;
                form.selected = last;
            }
            (_, KeyCode::Tab | KeyCode::Down) => {
                form.focus = match form.focus {
                    ConnectField::Address => ConnectField::Name,
                    ConnectField::Name => ConnectField::Password,
                    ConnectField::Password if found > 0 => ConnectField::Servers,
                    ConnectField::Password | ConnectField::Servers => ConnectField::Address,
                };
            }
            (_, KeyCode::BackTab | KeyCode::Up) => {
                form.focus = match form.focus {
                    ConnectField::Address if found > 0 => ConnectField::Servers,
                    ConnectField::Address => ConnectField::Name,
                    ConnectField::Servers => ConnectField::Password,
                    ConnectField::Password => ConnectField::Name,
                    ConnectField::Name => ConnectField::Address,
                };
            }
            (_, KeyCode::Esc) => self.quit_now(),
            (_, KeyCode::Char('?')) => self.help = true,
            (ConnectField::Servers, _) => {}
            _ => {
                let field = match form.focus {
                    ConnectField::Name => &mut form.name,
                    ConnectField::Password => &mut form.password,
                    _ => &mut form.address,
                };
                if field.edit(key) == Edit::Changed {
                    form.error = None;
                }
            }
        }
    }

    pub(super) fn lobby_key(&mut self, key: KeyEvent) {
        let Screen::Lobby(lobby) = &mut self.screen else {
            return;
        };
        if let Some(form) = &mut lobby.create {
            match form.key(key) {
                FormAction::None => {}
                FormAction::Cancel => lobby.create = None,
                FormAction::BadSize => {
                    let msg = tr!(self.loc, "create.bad_size");
                    self.warn(msg.to_string());
                }
                FormAction::BadFen(why) => {
                    let msg = tr!(self.loc, "create.bad_fen", why = why);
                    self.warn(msg);
                }
                FormAction::BadOpening(why) => {
                    let msg = tr!(self.loc, "create.bad_opening", why = why);
                    self.warn(msg);
                }
                FormAction::Arrange => self.open_editor(),
                FormAction::Create(settings) => {
                    lobby.create = None;
                    self.send(ClientMsg::CreateRoom(settings));
                }
            }
            return;
        }
        let count = self.session.rooms.len();
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => lobby.selected = lobby.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => {
                lobby.selected = (lobby.selected + 1).min(count.saturating_sub(1));
            }
            KeyCode::Home => lobby.selected = 0,
            KeyCode::End => lobby.selected = count.saturating_sub(1),
            KeyCode::Enter => self.enter_selected(false),
            KeyCode::Char('w') => self.enter_selected(true),
            KeyCode::Char('c') | KeyCode::Char('n') => lobby.create = Some(CreateForm::default()),
            KeyCode::Char('r') | KeyCode::F(5) => {
                self.send(ClientMsg::ListRooms);
                let msg = tr!(self.loc, "lobby.refreshing");
                self.info(msg.to_string());
            }
            KeyCode::Char('l') => self.open_leaderboard(banco_protocol::GameKind::Caro),
            KeyCode::Char('i') => self.open_my_profile(),
            KeyCode::Char('h') => self.open_history(super::records::HistoryFilter::Everyone),
            KeyCode::Char('s') => self.open_settings(),
            KeyCode::Char('?') => self.help = true,
            KeyCode::Char('q') | KeyCode::Esc => self.ask_quit(),
            _ => {}
        }
    }

    /// Joins the highlighted room: its free seat, or as a spectator when it has none
    /// (or when `watch` is asked for).
    pub(super) fn enter_selected(&mut self, watch: bool) {
        let Screen::Lobby(lobby) = &self.screen else {
            return;
        };
        let Some(summary) = self.session.rooms.get(lobby.selected) else {
            let msg = tr!(self.loc, "lobby.no_room_selected");
            self.warn(msg.to_string());
            return;
        };
        let free_seat = summary
            .players
            .iter()
            .zip(summary.settings.seats)
            .any(|(p, kind)| p.is_none() && kind == banco_protocol::SeatKind::Human);
        let id = summary.id;
        if watch || !free_seat {
            self.send(ClientMsg::WatchRoom(id));
        } else {
            self.send(ClientMsg::JoinRoom(id));
        }
    }
}
