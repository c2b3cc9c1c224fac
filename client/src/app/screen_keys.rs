//! Keys on the connect screen and in the lobby (the create form has its own module):
//! what moves within the screen is its type's method, what reaches further the app's.

use banco_protocol::ClientMsg;
use crossterm::event::{KeyCode, KeyEvent};

use super::create::{CreateForm, FormAction};
use super::input::Edit;
use super::{App, ConnectField, ConnectForm, Lobby, Screen};
use crate::tr;

/// What a key on the connect screen asks of the app, beyond the form itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConnectKey {
    Nothing,
    /// Connect with what the form holds.
    Connect,
    /// Connect to the highlighted server found on the network.
    ConnectFound,
    Quit,
    Help,
}

impl ConnectForm {
    /// A key on the connect screen: moves between the fields and the servers found,
    /// edits the focused field.
    pub fn key(&mut self, key: KeyEvent) -> ConnectKey {
        if self.connecting {
            return match key.code {
                KeyCode::Esc => ConnectKey::Quit,
                _ => ConnectKey::Nothing,
            };
        }
        let found = self.servers.len();
        let last = found.saturating_sub(1);
        match (self.focus, key.code) {
            (_, KeyCode::F(2)) => {
                self.register = !self.register;
                self.focus = ConnectField::Password;
            }
            (ConnectField::Servers, KeyCode::Enter) => return ConnectKey::ConnectFound,
            (_, KeyCode::Enter) => {
                if self.focus == ConnectField::Address && self.name.is_empty() {
                    self.focus = ConnectField::Name;
                } else {
                    return ConnectKey::Connect;
                }
            }
            // Down walks from the fields into the list of servers found, up back out.
            (ConnectField::Servers, KeyCode::Down) => self.selected = (self.selected + 1).min(last),
            (ConnectField::Servers, KeyCode::Up) if self.selected > 0 => self.selected -= 1,
            (ConnectField::Servers, KeyCode::Up) => self.focus = ConnectField::Password,
            (ConnectField::Password, KeyCode::Down) if found > 0 => {
                self.focus = ConnectField::Servers;
                self.selected = 0;
            }
            (ConnectField::Address, KeyCode::Up) if found > 0 => {
                self.focus = ConnectField::Servers;
                self.selected = last;
            }
            (_, KeyCode::Tab | KeyCode::Down) => {
                self.focus = match self.focus {
                    ConnectField::Address => ConnectField::Name,
                    ConnectField::Name => ConnectField::Password,
                    ConnectField::Password if found > 0 => ConnectField::Servers,
                    ConnectField::Password | ConnectField::Servers => ConnectField::Address,
                };
            }
            (_, KeyCode::BackTab | KeyCode::Up) => {
                self.focus = match self.focus {
                    ConnectField::Address if found > 0 => ConnectField::Servers,
                    ConnectField::Address => ConnectField::Name,
                    ConnectField::Servers => ConnectField::Password,
                    ConnectField::Password => ConnectField::Name,
                    ConnectField::Name => ConnectField::Address,
                };
            }
            (_, KeyCode::Esc) => return ConnectKey::Quit,
            (_, KeyCode::Char('?')) => return ConnectKey::Help,
            (ConnectField::Servers, _) => {}
            _ => {
                let field = match self.focus {
                    ConnectField::Name => &mut self.name,
                    ConnectField::Password => &mut self.password,
                    _ => &mut self.address,
                };
                if field.edit(key) == Edit::Changed {
                    self.error = None;
                }
            }
        }
        ConnectKey::Nothing
    }
}

/// What a key on the lobby's room list asks of the app, beyond the list itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LobbyKey {
    Nothing,
    /// Join the highlighted room (`watch`: as a spectator).
    Enter {
        watch: bool,
    },
    /// Open the create form.
    Create,
    /// Open the people and challenges screen.
    People,
    /// Open the tournaments screen.
    Tournaments,
    /// Ask for the list again.
    Refresh,
    Leaderboard,
    MyInfo,
    History,
    Settings,
    Help,
    Quit,
}

impl Lobby {
    /// A key on the room list (`count` rooms): moves the highlight.
    pub fn key(&mut self, key: KeyEvent, count: usize) -> LobbyKey {
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => {
                self.selected = (self.selected + 1).min(count.saturating_sub(1));
            }
            KeyCode::Home => self.selected = 0,
            KeyCode::End => self.selected = count.saturating_sub(1),
            KeyCode::Enter => return LobbyKey::Enter { watch: false },
            KeyCode::Char('w') => return LobbyKey::Enter { watch: true },
            KeyCode::Char('c') | KeyCode::Char('n') => return LobbyKey::Create,
            KeyCode::Char('p') => return LobbyKey::People,
            KeyCode::Char('t') => return LobbyKey::Tournaments,
            KeyCode::Char('r') | KeyCode::F(5) => return LobbyKey::Refresh,
            KeyCode::Char('l') => return LobbyKey::Leaderboard,
            KeyCode::Char('i') => return LobbyKey::MyInfo,
            KeyCode::Char('h') => return LobbyKey::History,
            KeyCode::Char('s') => return LobbyKey::Settings,
            KeyCode::Char('?') => return LobbyKey::Help,
            KeyCode::Char('q') | KeyCode::Esc => return LobbyKey::Quit,
            _ => {}
        }
        LobbyKey::Nothing
    }
}

impl App {
    pub(super) fn connect_key(&mut self, key: KeyEvent) {
        let Screen::Connect(form) = &mut self.screen else {
            return;
        };
        match form.key(key) {
            ConnectKey::Nothing => {}
            ConnectKey::Connect => self.connect(),
            ConnectKey::ConnectFound => self.connect_to_found(),
            ConnectKey::Quit => self.quit_now(),
            ConnectKey::Help => self.help = true,
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
                FormAction::BadMatch => {
                    let msg = tr!(self.loc, "create.bad_match");
                    self.warn(msg.to_string());
                }
                FormAction::Arrange => self.open_editor(),
                FormAction::Create(settings) => {
                    let remember = Some(form.to_remember());
                    lobby.create = None;
                    self.send(ClientMsg::CreateRoom(settings));
                    if self.settings.create != remember {
                        self.settings.create = remember;
                        self.effects.push(super::Effect::SaveSettings);
                    }
                }
            }
            return;
        }
        let count = self.session.rooms.len();
        match lobby.key(key, count) {
            LobbyKey::Nothing => {}
            LobbyKey::Enter { watch } => self.enter_selected(watch),
            LobbyKey::Create => lobby.create = Some(remembered_form(&self.settings)),
            LobbyKey::People => self.open_people(None),
            LobbyKey::Tournaments => self.open_tournaments(),
            LobbyKey::Refresh => {
                self.send(ClientMsg::ListRooms);
                let msg = tr!(self.loc, "lobby.refreshing");
                self.info(msg.to_string());
            }
            LobbyKey::Leaderboard => self.open_leaderboard(banco_protocol::GameKind::Caro),
            LobbyKey::MyInfo => self.open_my_profile(),
            LobbyKey::History => self.open_history(super::records::HistoryFilter::Everyone),
            LobbyKey::Settings => self.open_settings(),
            LobbyKey::Help => self.help = true,
            LobbyKey::Quit => self.ask_quit(),
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

/// The create form as last used (from the settings file), or the defaults the first
/// time.
pub(super) fn remembered_form(settings: &crate::settings::Settings) -> CreateForm {
    settings
        .create
        .as_ref()
        .map_or_else(CreateForm::default, CreateForm::remembering)
}
