//! The terminal client's state machine: connect -> lobby -> room, with popups on top.
//!
//! - [`input`]: a one-line text field.
//! - [`board`]: the board cursor, per game.
//! - [`create`]: the create-room form.
//! - [`keys`]: what each key does on each screen, for the handlers and the help.
//!
//! Handlers here change state and queue [`Effect`]s (messages to send, a connection to
//! open, settings to save); they never draw and never touch the network. The terminal
//! loop ([`crate::tui`]) carries the effects out, and [`crate::ui`] draws the state.

pub mod board;
pub mod create;
pub mod input;
pub mod keys;
mod room_keys;
mod server;

use banco_protocol::{
    ClientMsg, MAX_CHAT_CHARS, MAX_NAME_CHARS, Offer, ResumeToken, RoomSummary, Welcome,
};
use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::locale::{LanguageChoice, Locale};
use crate::net::ConnectError;
use crate::room::Room;
use crate::settings::Settings;
use crate::theme::{Theme, ThemeChoice};
use crate::tr;
use board::BoardCursor;
use create::{CreateForm, FormAction};
use input::{Edit, TextInput};

/// How long a notice stays on the status line.
pub const NOTICE_TIME: Duration = Duration::from_secs(6);

/// How long to keep trying to get back to a game after the connection drops: about
/// the seat's grace period on a default server.
pub const RECONNECT_FOR: Duration = Duration::from_secs(30);

/// The pause between two reconnection attempts.
pub const RECONNECT_EVERY: Duration = Duration::from_secs(2);

/// Getting back to a held seat after the connection dropped mid-game.
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
    /// The token from the lost session's Welcome.
    pub token: ResumeToken,
    /// Why the connection dropped, for the message if we give up.
    pub reason: String,
}

/// Something the terminal loop must do for the app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    Send(ClientMsg),
    /// Open a connection (the current one, if any, is dropped); `resume` asks the
    /// server for the seat it holds after a dropped connection.
    Connect {
        address: String,
        name: String,
        resume: Option<ResumeToken>,
    },
    /// Write [`App::settings`] to the settings file.
    SaveSettings,
    /// Leave the program.
    Quit,
}

/// The screen under any popup.
#[derive(Debug, Clone)]
pub enum Screen {
    Connect(ConnectForm),
    Lobby(Lobby),
    Room(Box<RoomScreen>),
}

/// Which connect field has the cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConnectField {
    Address,
    Name,
}

/// The connect screen: where to, and under which name.
#[derive(Debug, Clone)]
pub struct ConnectForm {
    pub address: TextInput,
    pub name: TextInput,
    pub focus: ConnectField,
    /// A connection attempt is under way.
    pub connecting: bool,
    /// Why the last attempt (or the last connection) failed.
    pub error: Option<String>,
}

/// The lobby: the room list (kept in [`App::rooms`]) and the create form.
#[derive(Debug, Clone, Default)]
pub struct Lobby {
    /// Index of the highlighted room.
    pub selected: usize,
    /// The create-room form, while it is open.
    pub create: Option<CreateForm>,
}

/// The room screen.
#[derive(Debug, Clone)]
pub struct RoomScreen {
    pub room: Room,
    pub cursor: BoardCursor,
    /// The chat line being typed; kept while the board has focus.
    pub chat: TextInput,
    /// Keys go to the chat line instead of the board.
    pub chat_focus: bool,
    /// How many lines the chat is scrolled up from the newest.
    pub chat_scroll: usize,
}

/// A dialog over the screen. Keys go to it first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Popup {
    /// The other player's offer: yes or no.
    Offer(Offer),
    /// Are you sure?
    Confirm(Confirm),
    /// The game just ended: result, rematch, leave.
    GameOver,
    /// Language, theme and display options.
    Settings(SettingsMenu),
}

/// An action that needs a yes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirm {
    /// Leave the room; `loses` mid-game.
    Leave {
        loses: bool,
    },
    /// Leave the program; `loses` mid-game.
    Quit {
        loses: bool,
    },
    Resign,
}

/// The settings dialog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsMenu {
    /// 0 language, 1 theme, 2 threat warning.
    pub focus: usize,
    pub languages: Vec<LanguageChoice>,
    pub themes: Vec<ThemeChoice>,
}

/// A passing message on the status line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub text: String,
    pub error: bool,
    /// When it was shown; it fades after [`NOTICE_TIME`].
    pub at: Instant,
}

/// The whole client state.
pub struct App {
    pub screen: Screen,
    pub popup: Option<Popup>,
    /// The help overlay is open (over everything).
    pub help: bool,
    pub notice: Option<Notice>,
    /// The lobby's room list, as the server last sent it.
    pub rooms: Vec<RoomSummary>,
    /// The server's greeting, once connected.
    pub welcome: Option<Welcome>,
    /// The address connected to, for the title bar.
    pub server_addr: String,
    /// Set when this process hosts the server: its listening address. Quitting stops it.
    pub hosting: Option<String>,
    /// Trying to get back to a game after the connection dropped.
    pub reconnect: Option<Reconnect>,
    pub loc: Locale,
    pub theme: Theme,
    pub settings: Settings,
    /// Where user locales/themes live (and the settings file).
    pub config_dir: Option<PathBuf>,
    /// The time as of the event being handled; drawing reads clocks against it.
    pub now: Instant,
    /// The terminal size, for mapping mouse clicks to the board.
    pub size: (u16, u16),
    /// Effects queued by handlers, taken by the terminal loop.
    effects: Vec<Effect>,
}

impl App {
    /// A client on the connect screen, its fields filled from settings.
    pub fn new(
        loc: Locale,
        theme: Theme,
        settings: Settings,
        config_dir: Option<PathBuf>,
        name: String,
        now: Instant,
    ) -> App {
        let address = settings.last_server.clone().unwrap_or_default();
        App {
            screen: Screen::Connect(ConnectForm {
                address: TextInput::with_text(100, &address),
                name: TextInput::with_text(MAX_NAME_CHARS, &name),
                focus: if address.is_empty() {
                    ConnectField::Address
                } else {
                    ConnectField::Name
                },
                connecting: false,
                error: None,
            }),
            popup: None,
            help: false,
            notice: None,
            rooms: Vec::new(),
            welcome: None,
            server_addr: String::new(),
            hosting: None,
            reconnect: None,
            loc,
            theme,
            settings,
            config_dir,
            now,
            size: (80, 24),
            effects: Vec::new(),
        }
    }

    /// Takes the queued effects.
    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.effects)
    }

    fn send(&mut self, msg: ClientMsg) {
        self.effects.push(Effect::Send(msg));
    }

    /// Shows a passing message.
    pub fn info(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice {
            text: text.into(),
            error: false,
            at: self.now,
        });
    }

    /// Shows a passing warning.
    pub fn warn(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice {
            text: text.into(),
            error: true,
            at: self.now,
        });
    }

    /// The notice, while it is fresh.
    pub fn live_notice(&self) -> Option<&Notice> {
        self.notice
            .as_ref()
            .filter(|n| self.now.saturating_duration_since(n.at) < NOTICE_TIME)
    }

    /// The room screen, if that is where we are.
    pub fn room(&self) -> Option<&RoomScreen> {
        match &self.screen {
            Screen::Room(r) => Some(r),
            _ => None,
        }
    }

    fn room_mut(&mut self) -> Option<&mut RoomScreen> {
        match &mut self.screen {
            Screen::Room(r) => Some(r),
            _ => None,
        }
    }

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
    fn show_connect_screen(&mut self, error: String) {
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
        });
    }

    /// Time passed: retries a lost connection when it is time.
    pub fn tick(&mut self) {
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

    /// A terminal key.
    pub fn key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && matches!(key.code, KeyCode::Char('c') | KeyCode::Char('q')) {
            if matches!(self.popup, Some(Popup::Confirm(Confirm::Quit { .. }))) {
                self.quit_now();
            } else {
                self.ask_quit();
            }
            return;
        }
        if self.help {
            if matches!(
                key.code,
                KeyCode::Esc
                    | KeyCode::Char('?')
                    | KeyCode::Char('q')
                    | KeyCode::F(1)
                    | KeyCode::Enter
            ) {
                self.help = false;
            }
            return;
        }
        if key.code == KeyCode::F(1) {
            self.help = true;
            return;
        }
        if let Some(popup) = self.popup.take() {
            self.popup_key(popup, key);
            return;
        }
        match &mut self.screen {
            Screen::Connect(_) => self.connect_key(key),
            Screen::Lobby(_) => self.lobby_key(key),
            Screen::Room(_) => self.room_key(key),
        }
    }

    /// Opens the quit question (or quits at once where nothing is at stake).
    fn ask_quit(&mut self) {
        match &self.screen {
            Screen::Connect(_) if self.hosting.is_none() => self.quit_now(),
            _ => {
                let loses = self
                    .room()
                    .is_some_and(|r| r.room.playing() && r.room.my_seat().is_some());
                self.popup = Some(Popup::Confirm(Confirm::Quit { loses }));
            }
        }
    }

    /// Leaves the room (losing a running game, as the server rules) and the program.
    fn quit_now(&mut self) {
        if self.room().is_some() {
            self.send(ClientMsg::LeaveRoom);
        }
        self.effects.push(Effect::Quit);
    }

    fn connect_key(&mut self, key: KeyEvent) {
        let Screen::Connect(form) = &mut self.screen else {
            return;
        };
        if form.connecting {
            if key.code == KeyCode::Esc {
                self.quit_now();
            }
            return;
        }
        match key.code {
            KeyCode::Enter => {
                if form.focus == ConnectField::Address && form.name.is_empty() {
                    form.focus = ConnectField::Name;
                } else {
                    self.connect();
                }
            }
            KeyCode::Tab | KeyCode::BackTab | KeyCode::Up | KeyCode::Down => {
                form.focus = match form.focus {
                    ConnectField::Address => ConnectField::Name,
                    ConnectField::Name => ConnectField::Address,
                };
            }
            KeyCode::Esc => self.quit_now(),
            KeyCode::Char('?') => self.help = true,
            _ => {
                let field = match form.focus {
                    ConnectField::Address => &mut form.address,
                    ConnectField::Name => &mut form.name,
                };
                if field.edit(key) == Edit::Changed {
                    form.error = None;
                }
            }
        }
    }

    fn lobby_key(&mut self, key: KeyEvent) {
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
                FormAction::Create(settings) => {
                    lobby.create = None;
                    self.send(ClientMsg::CreateRoom(settings));
                }
            }
            return;
        }
        let count = self.rooms.len();
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
            KeyCode::Char('s') => self.open_settings(),
            KeyCode::Char('?') => self.help = true,
            KeyCode::Char('q') | KeyCode::Esc => self.ask_quit(),
            _ => {}
        }
    }

    /// Joins the highlighted room: its free seat, or as a spectator when it has none
    /// (or when `watch` is asked for).
    fn enter_selected(&mut self, watch: bool) {
        let Screen::Lobby(lobby) = &self.screen else {
            return;
        };
        let Some(summary) = self.rooms.get(lobby.selected) else {
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

    fn open_settings(&mut self) {
        self.popup = Some(Popup::Settings(SettingsMenu {
            focus: 0,
            languages: crate::locale::languages(self.config_dir.as_deref()),
            themes: crate::theme::themes(self.config_dir.as_deref()),
        }));
    }

    fn popup_key(&mut self, popup: Popup, key: KeyEvent) {
        let yes = matches!(key.code, KeyCode::Char('y') | KeyCode::Char('Y'));
        let no = matches!(key.code, KeyCode::Char('n') | KeyCode::Char('N'));
        match popup {
            Popup::Offer(offer) => {
                if yes || no {
                    self.send(ClientMsg::Answer {
                        kind: offer.kind,
                        accept: yes,
                    });
                } else if key.code == KeyCode::Esc {
                    // Hidden, not answered: the status line still offers y/n.
                } else if key.code == KeyCode::Char('?') {
                    self.help = true;
                    self.popup = Some(popup);
                } else {
                    self.popup = Some(popup);
                }
            }
            Popup::Confirm(what) => {
                if yes || (key.code == KeyCode::Enter) {
                    match what {
                        Confirm::Quit { .. } => self.quit_now(),
                        Confirm::Leave { .. } => self.send(ClientMsg::LeaveRoom),
                        Confirm::Resign => self.send(ClientMsg::Resign),
                    }
                } else if !(no || key.code == KeyCode::Esc) {
                    self.popup = Some(popup);
                }
            }
            Popup::GameOver => match key.code {
                KeyCode::Char('g') | KeyCode::Char('r') => {
                    self.send(ClientMsg::Offer(banco_protocol::OfferKind::NewGame));
                }
                KeyCode::Char('q') => self.room_key(key),
                KeyCode::Char('?') => {
                    self.help = true;
                    self.popup = Some(popup);
                }
                KeyCode::Esc | KeyCode::Enter | KeyCode::Char(' ') => {}
                _ => self.popup = Some(popup),
            },
            Popup::Settings(mut menu) => {
                match key.code {
                    KeyCode::Esc | KeyCode::Enter | KeyCode::Char('s') | KeyCode::Char('q') => {
                        return;
                    }
                    KeyCode::Up | KeyCode::Char('k') => menu.focus = (menu.focus + 2) % 3,
                    KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => {
                        menu.focus = (menu.focus + 1) % 3;
                    }
                    KeyCode::Left
                    | KeyCode::Right
                    | KeyCode::Char('h')
                    | KeyCode::Char('l')
                    | KeyCode::Char(' ') => {
                        let forward = !matches!(key.code, KeyCode::Left | KeyCode::Char('h'));
                        self.change_setting(&menu, forward);
                    }
                    _ => {}
                }
                self.popup = Some(Popup::Settings(menu));
            }
        }
    }

    /// Steps the focused setting and saves.
    fn change_setting(&mut self, menu: &SettingsMenu, forward: bool) {
        let step = |len: usize, i: usize| {
            if forward {
                (i + 1) % len
            } else {
                (i + len - 1) % len
            }
        };
        match menu.focus {
            0 if !menu.languages.is_empty() => {
                let i = menu
                    .languages
                    .iter()
                    .position(|l| l.code == self.loc.code())
                    .unwrap_or(0);
                let code = &menu.languages[step(menu.languages.len(), i)].code;
                match Locale::load(code, self.config_dir.as_deref()) {
                    Ok(l) => {
                        self.loc = l;
                        self.settings.language = Some(code.clone());
                    }
                    Err(e) => self.warn(e.to_string()),
                }
            }
            1 if !menu.themes.is_empty() => {
                let i = menu
                    .themes
                    .iter()
                    .position(|t| t.id == self.theme.id)
                    .unwrap_or(0);
                let id = &menu.themes[step(menu.themes.len(), i)].id;
                match Theme::load(id, self.config_dir.as_deref()) {
                    Ok(t) => {
                        self.theme = t;
                        self.settings.theme = Some(id.clone());
                    }
                    Err(e) => self.warn(e.to_string()),
                }
            }
            2 => self.settings.threat_warning = !self.settings.threat_warning,
            _ => return,
        }
        self.effects.push(Effect::SaveSettings);
    }

    /// A mouse event: clicks select rooms and place stones.
    pub fn mouse(&mut self, ev: MouseEvent) {
        if self.help || self.popup.is_some() {
            return;
        }
        let area = ratatui::layout::Rect::new(0, 0, self.size.0, self.size.1);
        match ev.kind {
            MouseEventKind::Down(MouseButton::Left) => match &self.screen {
                Screen::Room(_) => {
                    if let Some(p) = crate::ui::room::point_at(self, area, ev.column, ev.row) {
                        self.click_board(p);
                    }
                }
                Screen::Lobby(lobby) if lobby.create.is_none() => {
                    if let Some(i) = crate::ui::lobby::row_at(self, area, ev.column, ev.row)
                        && let Screen::Lobby(lobby) = &mut self.screen
                    {
                        if lobby.selected == i {
                            self.enter_selected(false);
                        } else {
                            lobby.selected = i;
                        }
                    }
                }
                _ => {}
            },
            MouseEventKind::ScrollUp => {
                if let Some(r) = self.room_mut() {
                    r.chat_scroll += 1;
                }
            }
            MouseEventKind::ScrollDown => {
                if let Some(r) = self.room_mut() {
                    r.chat_scroll = r.chat_scroll.saturating_sub(1);
                }
            }
            _ => {}
        }
    }

    /// The terminal changed size.
    pub fn resize(&mut self, width: u16, height: u16) {
        self.size = (width, height);
    }
}

/// Characters a chat line may hold.
pub const CHAT_MAX: usize = MAX_CHAT_CHARS;

#[cfg(test)]
mod tests;
