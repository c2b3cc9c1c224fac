//! The terminal client's state machine: connect -> lobby -> room, with popups on top.
//!
//! - [`input`]: a one-line text field.
//! - [`board`]: the board cursor, per game.
//! - [`create`]: the create-room form.
//! - [`editor`]: arranging a position to start a room from (sắp cờ thế).
//! - [`draft`]: draft moves, tried on a private copy of the board.
//! - [`keys`]: what each key does on each screen, for the handlers and the help.
//! - [`records`]: the leaderboard, the history and the replay screens, and their keys.
//! - [`profile`]: someone's profile ("My info"), with the rating chart's data.
//! - [`account`]: one's own account: changing the password, logging out.
//! - [`people`]: challenges: the people screen, the incoming challenge's dialog, the
//!   reasons to decline.
//! - [`session`]: the server this client talks to (greeting, account, room list, store
//!   news, getting back after a drop), and [`Hosting`] when this process hosts it.
//! - [`scan`]: the connect screen's search for servers on the network.
//!
//! Each screen's state is its own type in [`Screen`] ([`ConnectForm`], [`Lobby`],
//! [`RoomScreen`], the records' and the editor's), and the keys that only move within a
//! screen are that type's methods; what reaches further (sending, another screen, a
//! notice) is the app's.
//!
//! The handlers are split by where the keys go: `connection` (connecting, dropping,
//! reconnecting), `screen_keys` (connect screen and lobby), `room_keys`, `popup_keys`,
//! and `server` (what each server message does).
//!
//! Handlers here change state and queue [`Effect`]s (messages to send, a connection to
//! open, settings to save); they never draw and never touch the network. The terminal
//! loop ([`crate::tui`]) carries the effects out, and `ui` draws the state. Mouse clicks
//! are read through [`crate::layout`], the regions the drawing uses too; nothing here
//! imports the drawing (a test over the `use` lines holds it).

pub mod account;
pub mod board;
mod connection;
pub mod create;
pub mod draft;
pub mod editor;
pub mod input;
pub mod keys;
pub mod people;
mod popup_keys;
pub mod profile;
pub mod records;
use records::LastGame;
pub mod review;
mod room_keys;
pub mod scan;
mod screen_keys;
mod server;
pub mod session;
pub mod tournaments;

use banco_protocol::{
    ClientMsg, Credentials, MAX_CHAT_CHARS, MAX_NAME_CHARS, MAX_PASSWORD_CHARS, Offer, ResumeToken,
    RoomId,
};
use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::discover::Found;
use crate::layout::lobby::{LobbyChrome, LobbyLayout};
use crate::layout::room::RoomLayout;
use crate::locale::{LanguageChoice, Locale};
use crate::room::Room;
use crate::settings::Settings;
use crate::theme::{Theme, ThemeChoice};
use crate::tr;
use board::BoardCursor;
use create::CreateForm;
use input::TextInput;
use ratatui::layout::Rect;
pub use scan::{SCAN_EVERY, Scan, scan_pause};
pub use session::{Hosting, Reconnect, Session};

/// How long a notice stays on the status line.
pub const NOTICE_TIME: Duration = Duration::from_secs(6);

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
        /// Log in (or register); `None` plays as a guest.
        account: Option<Credentials>,
    },
    /// Look for servers on the network; the list goes to [`App::discovered`].
    Discover,
    /// This client sits in `room`: keep its resume token on disk, so a client started
    /// again after a crash takes the seat back.
    KeepSeat {
        room: RoomId,
    },
    /// The seat is given up (left, lost, the room closed): forget the token on disk.
    ForgetSeat,
    /// Ring the terminal's bell.
    Bell,
    /// Write [`App::settings`] to the settings file.
    SaveSettings,
    /// Write a game record to a new file at `path` (an existing file is not replaced);
    /// the outcome goes to [`App::record_saved`].
    SaveRecord {
        path: PathBuf,
        text: String,
    },
    /// Close the connection on purpose (logging out): no reconnecting.
    Disconnect,
    /// Leave the program.
    Quit,
}

/// The screen under any popup.
#[derive(Debug, Clone)]
pub enum Screen {
    Connect(ConnectForm),
    Lobby(Lobby),
    Room(Box<RoomScreen>),
    Leaderboard(records::Leaderboard),
    History(records::History),
    Replay(Box<records::ReplayScreen>),
    /// Someone's profile, "My info" for one's own.
    Profile(Box<profile::ProfileScreen>),
    /// Changing one's password, opened from "My info".
    Password(Box<account::PasswordScreen>),
    /// Arranging a position, opened from the create form.
    Editor(Box<editor::EditorScreen>),
    /// Who is on the server, and the challenges: sent, received, open.
    People(Box<people::PeopleScreen>),
    /// Tournaments: the list, one opened, the create form.
    Tournaments(Box<tournaments::TournamentsScreen>),
}

/// Which connect field has the cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConnectField {
    Address,
    Name,
    /// Empty plays as a guest.
    Password,
    /// The list of servers found on the network.
    Servers,
}

/// The connect screen: where to, and under which name.
#[derive(Debug, Clone)]
pub struct ConnectForm {
    pub address: TextInput,
    pub name: TextInput,
    /// Drawn as dots, never kept past the connection attempt's effect.
    pub password: TextInput,
    /// Register the name with the password instead of logging in (F2 toggles).
    pub register: bool,
    pub focus: ConnectField,
    /// A connection attempt is under way.
    pub connecting: bool,
    /// Why the last attempt (or the last connection) failed.
    pub error: Option<String>,
    /// The servers found on the network, by name.
    pub servers: Vec<Found>,
    /// The highlighted server, while the list has the focus.
    pub selected: usize,
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
    /// Draft mode: trial moves on a private copy of the board.
    pub draft: Option<draft::Draft>,
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
    /// A seated player's profile, over the room (which goes on underneath).
    Profile(Box<profile::SeatProfile>),
    /// Someone challenges us: accept, decline, or later.
    Challenge(banco_protocol::Challenge),
    /// Declining a challenge: which reason.
    Decline(people::Decline),
    /// Our decision in a swap opening: White, Black or (Swap2) two more stones.
    Swap,
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
    /// Give up the whole match (and the game in progress, if any).
    ResignMatch,
}

impl Confirm {
    /// Whether saying yes ends a game in progress (and loses it).
    pub fn ends_game(self) -> bool {
        match self {
            Confirm::Leave { loses } | Confirm::Quit { loses } => loses,
            Confirm::Resign | Confirm::ResignMatch => true,
        }
    }
}

/// The settings dialog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsMenu {
    /// 0 language, 1 theme, 2 threat warning, 3 bell.
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
    /// It tells of an offer ("You offered a draw; waiting"), so it goes when the offer
    /// does, however it ends.
    pub about_offer: bool,
}

/// The whole client state.
pub struct App {
    /// The screen shown, with its own state.
    pub screen: Screen,
    /// A dialog over the screen, taking the keys first.
    pub popup: Option<Popup>,
    /// The help overlay is open (over everything).
    pub help: bool,
    /// The status line's passing message.
    pub notice: Option<Notice>,
    /// The server this client talks to: who we are there, the room list, getting back
    /// after a drop.
    pub session: Session,
    /// Set when this process hosts the server: where it listens, where others join.
    /// Quitting stops it.
    pub hosting: Option<Hosting>,
    /// A record to open in the replay screen once connected (`--open FILE`).
    pub open_after_connect: Option<crate::record::Replay>,
    /// Looking for servers on the network: when to look next, and whether a look is
    /// under way. Only the connect screen looks.
    pub scan: Scan,
    /// The language every sentence is looked up in.
    pub loc: Locale,
    /// The colours and glyphs.
    pub theme: Theme,
    /// The settings file's contents, saved with [`Effect::SaveSettings`].
    pub settings: Settings,
    /// Where user locales/themes live (and the settings file).
    pub config_dir: Option<PathBuf>,
    /// Where a replay saved with `s` goes: a name typed there is put in this folder.
    /// `None` (no home folder): the working directory.
    pub games_dir: Option<PathBuf>,
    /// The time as of the event being handled; drawing reads clocks against it.
    pub now: Instant,
    /// The terminal size, for mapping mouse clicks to the board.
    pub size: (u16, u16),
    /// `v` in the game-over dialog left the room: once back in the lobby, the game just
    /// played (between these players, by seat) opens reviewed.
    pub review_after_leaving: Option<LastGame>,
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
                password: TextInput::new(MAX_PASSWORD_CHARS),
                register: false,
                focus: if address.is_empty() {
                    ConnectField::Address
                } else {
                    ConnectField::Name
                },
                connecting: false,
                error: None,
                servers: Vec::new(),
                selected: 0,
            }),
            popup: None,
            help: false,
            notice: None,
            session: Session::default(),
            hosting: None,
            open_after_connect: None,
            scan: Scan::new(now),
            review_after_leaving: None,
            loc,
            theme,
            games_dir: settings.games_dir.clone(),
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

    pub(super) fn send(&mut self, msg: ClientMsg) {
        self.effects.push(Effect::Send(msg));
    }

    /// Rings the bell, if the player wants it.
    pub(super) fn bell(&mut self) {
        if self.settings.bell {
            self.effects.push(Effect::Bell);
        }
    }

    /// Shows a passing message.
    pub fn info(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice {
            text: text.into(),
            error: false,
            at: self.now,
            about_offer: false,
        });
    }

    /// Shows a passing warning.
    pub fn warn(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice {
            text: text.into(),
            error: true,
            at: self.now,
            about_offer: false,
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

    pub(super) fn room_mut(&mut self) -> Option<&mut RoomScreen> {
        match &mut self.screen {
            Screen::Room(r) => Some(r),
            _ => None,
        }
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
            Screen::Leaderboard(_) => self.leaderboard_key(key),
            Screen::History(_) => self.history_key(key),
            Screen::Replay(_) => self.replay_key(key),
            Screen::Profile(_) => self.profile_key(key),
            Screen::Password(_) => self.password_key(key),
            Screen::Editor(_) => self.editor_key(key),
            Screen::People(_) => self.people_key(key),
            Screen::Tournaments(_) => self.tournaments_key(key),
        }
    }

    /// Opens the quit question (or quits at once where nothing is at stake).
    pub(super) fn ask_quit(&mut self) {
        match &self.screen {
            // Nothing at stake: not hosting, and no server to leave (the connect screen,
            // or a record file being replayed).
            _ if self.hosting.is_none() && self.session.welcome.is_none() => self.quit_now(),
            _ => {
                let loses = self
                    .room()
                    .is_some_and(|r| r.room.playing() && r.room.my_seat().is_some());
                self.popup = Some(Popup::Confirm(Confirm::Quit { loses }));
            }
        }
    }

    /// Leaves the room (losing a running game, as the server rules) and the program.
    pub(super) fn quit_now(&mut self) {
        if self.room().is_some() {
            self.send(ClientMsg::LeaveRoom);
            self.effects.push(Effect::ForgetSeat);
        }
        self.effects.push(Effect::Quit);
    }

    /// A mouse event: clicks select rooms and place stones.
    pub fn mouse(&mut self, ev: MouseEvent) {
        if self.help || self.popup.is_some() {
            return;
        }
        let area = Rect::new(0, 0, self.size.0, self.size.1);
        match ev.kind {
            MouseEventKind::Down(button) if matches!(self.screen, Screen::Editor(_)) => {
                self.editor_mouse(ev.column, ev.row, button);
            }
            MouseEventKind::Down(MouseButton::Left) => match &self.screen {
                Screen::Room(rs) => {
                    let board = self.room_layout(area, rs).board;
                    let focus = rs.cursor.point();
                    if let Some(spot) =
                        crate::layout::room::spot_at(&rs.room, focus, board, ev.column, ev.row)
                    {
                        self.click_board(spot);
                    }
                }
                Screen::Lobby(lobby) if lobby.create.is_none() => {
                    let hit = self.lobby_layout(area).row_at(
                        lobby.selected,
                        self.session.rooms.len(),
                        ev.column,
                        ev.row,
                    );
                    if let Some(i) = hit
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

    /// What is wrong between us and the server, while something is: the connection
    /// lost and being dialled again (and why), else the server not saving games. The
    /// lobby and the room give it a line of its own (and none while all is well).
    pub fn trouble(&self) -> Option<String> {
        if let Some(r) = &self.session.reconnect {
            Some(tr!(
                self.loc,
                "net.reconnecting_why",
                reason = r.lost.describe(&self.loc),
                n = r.attempts.max(1)
            ))
        } else {
            self.session
                .storage
                .as_ref()
                .map(|reason| tr!(self.loc, "net.not_saving", reason = reason))
        }
    }

    /// Where browsers open the hosted server, in a sentence, when this machine hosts
    /// with the browser client on.
    pub fn web_hint(&self) -> Option<String> {
        let urls = &self.hosting.as_ref()?.web_urls;
        if urls.is_empty() {
            return None;
        }
        let urls = urls.join(&format!(" {} ", tr!(self.loc, "lobby.or")));
        Some(tr!(self.loc, "lobby.web_hint", url = urls).to_string())
    }

    /// How the connection is protected, in a sentence: the server's key fingerprint that
    /// players compare (this machine's own when it hosts), or that nothing is encrypted;
    /// `true` with it when nothing is.
    pub fn key_hint(&self) -> Option<(String, bool)> {
        use crate::net::Security;
        let loc = &self.loc;
        Some(match self.session.security? {
            Security::Encrypted { fingerprint, .. } if self.hosting.is_some() => (
                tr!(loc, "lobby.fingerprint_host", fingerprint = fingerprint).to_string(),
                false,
            ),
            Security::Encrypted { fingerprint, .. } => (
                tr!(loc, "lobby.fingerprint", fingerprint = fingerprint).to_string(),
                false,
            ),
            Security::Plain => (tr!(loc, "lobby.not_encrypted").to_string(), true),
        })
    }

    /// What the lobby's QR code opens: the first browser address, when hosting with the
    /// browser client on, with the key's fingerprint after `#fp=` (never sent to the
    /// server) so the page can show what to compare.
    pub fn web_url(&self) -> Option<String> {
        let url = self.hosting.as_ref()?.web_urls.first()?;
        Some(match self.session.security.and_then(|s| s.fingerprint()) {
            Some(fp) if url.starts_with("https://") => format!("{url}#fp={}", fp.hex()),
            _ => url.clone(),
        })
    }

    /// Our open challenge, if we have one out: anyone may take it.
    pub fn my_open_challenge(&self) -> Option<&banco_protocol::Challenge> {
        self.session.challenges.sent.iter().find(|c| c.to.is_none())
    }

    /// Where our open challenge is taken from, in a sentence with its link, when this
    /// machine hosts with the browser client on.
    pub fn open_challenge_link(&self) -> Option<String> {
        let ch = self.my_open_challenge()?;
        let url = crate::challenges::link(&self.web_url()?, ch.id);
        Some(tr!(self.loc, "challenge.open_link", id = ch.id, url = url))
    }

    /// What the lobby's QR code opens: our open challenge's page while we have one out
    /// (the host shows it to whoever should take it), else the server's page.
    pub fn qr_url(&self) -> Option<String> {
        let page = self.web_url()?;
        Some(match self.my_open_challenge() {
            Some(ch) => crate::challenges::link(&page, ch.id),
            None => page,
        })
    }

    /// The room screen's parts in `area` as drawn now (with the banner, if any): the
    /// ui draws there and clicks are read there.
    pub fn room_layout(&self, area: Rect, rs: &RoomScreen) -> RoomLayout {
        RoomLayout::new(area, &rs.room, self.trouble().is_some())
    }

    /// The lobby's parts in `area` as drawn now.
    pub fn lobby_layout(&self, area: Rect) -> LobbyLayout {
        let web_hint = self.web_hint();
        let key_hint = self.key_hint().map(|(text, _)| text);
        let challenge_link = self.open_challenge_link();
        let qr = self
            .qr_url()
            .and_then(|url| crate::layout::qr::lines(&url))
            .map(|code| crate::layout::qr::size(&code));
        LobbyLayout::new(
            area,
            &LobbyChrome {
                banner: self.trouble().is_some(),
                hosting: self.hosting.is_some(),
                web_hint: web_hint.as_deref(),
                key_hint: key_hint.as_deref(),
                qr,
                challenge_link: challenge_link.as_deref(),
            },
        )
    }
}

/// Characters a chat line may hold.
pub const CHAT_MAX: usize = MAX_CHAT_CHARS;

#[cfg(test)]
mod tests;
