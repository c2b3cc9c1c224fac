//! Someone's profile ("My info" for one's own name): who they are, how they play each
//! game, the rating chart, and their recent games, each one a replay away. Opened from
//! the lobby (`i`, one's own) and from a leaderboard row (`Enter`, anyone's, bots too).

use banco_protocol::{ClientMsg, GUEST_MARK, GameId, GameKind, Level, Profile, Seat};
use crossterm::event::{KeyCode, KeyEvent};

use super::records::{Leaderboard, step_selection};
use super::{App, Popup, Screen};
use crate::tr;

/// Whose profile: a person by name, or the server's bot of a level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Who {
    pub name: String,
    pub bot: Option<Level>,
}

impl Who {
    /// Whether `profile` is this one's: the same bot level, or the same name in any case.
    pub fn answered_by(&self, profile: &Profile) -> bool {
        match self.bot {
            Some(level) => profile.bot == Some(level),
            None => {
                profile.bot.is_none() && profile.name.to_lowercase() == self.name.to_lowercase()
            }
        }
    }
}

/// The profile screen.
#[derive(Debug, Clone)]
pub struct ProfileScreen {
    pub who: Who,
    /// The server's answer; `None` until it comes (or when it refused).
    pub profile: Option<Profile>,
    /// Why there is no profile (the server's refusal, in words).
    pub refused: Option<String>,
    /// The game whose rating chart is drawn.
    pub game: GameKind,
    /// The highlighted recent game.
    pub selected: usize,
    /// The game whose replay was asked for, until it arrives.
    pub opening: Option<GameId>,
    /// Where Esc goes: the leaderboard it was opened from, else the lobby.
    pub back: Option<Leaderboard>,
    /// It is this client's own record ("My info"): password and log out are offered.
    pub mine: bool,
}

impl ProfileScreen {
    /// Still waiting for the server.
    pub fn loading(&self) -> bool {
        self.profile.is_none() && self.refused.is_none()
    }
}

/// A seated player's profile over the room (`v`): who, a line per game and the chart,
/// without leaving the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatProfile {
    pub seat: Seat,
    pub who: Who,
    /// `None` until the server answers.
    pub profile: Option<Profile>,
    /// Why there is none.
    pub refused: Option<String>,
    /// The game whose chart is drawn: the room's at first.
    pub game: GameKind,
}

impl App {
    /// `v` in a room: the profile of the player in `seat` (the opponent's by default),
    /// in a dialog over the room.
    pub(super) fn open_seat_profile(&mut self, seat: Option<Seat>) {
        let Some(rs) = self.room() else {
            return;
        };
        let room = &rs.room;
        let seat = seat.unwrap_or_else(|| room.my_seat().map_or(Seat::One, Seat::other));
        let Some(sitter) = room.seats[seat.index()].clone() else {
            let msg = tr!(self.loc, "profile.empty_seat").to_string();
            return self.warn(msg);
        };
        let game = GameKind::of(&room.settings.game);
        let who = Who {
            name: sitter.name,
            bot: sitter.bot,
        };
        self.send(ClientMsg::Profile {
            name: who.name.clone(),
            bot: who.bot,
        });
        self.popup = Some(Popup::Profile(Box::new(SeatProfile {
            seat,
            who,
            profile: None,
            refused: None,
            game,
        })));
    }

    pub(super) fn seat_profile_key(&mut self, mut sp: Box<SeatProfile>, key: KeyEvent) {
        match key.code {
            KeyCode::Esc | KeyCode::Char('q') | KeyCode::Char('v') | KeyCode::Enter => {}
            KeyCode::Tab | KeyCode::BackTab => self.open_seat_profile(Some(sp.seat.other())),
            KeyCode::Left | KeyCode::Right => {
                sp.game = other_game(sp.game);
                self.popup = Some(Popup::Profile(sp));
            }
            KeyCode::Char('?') => {
                self.help = true;
                self.popup = Some(Popup::Profile(sp));
            }
            _ => self.popup = Some(Popup::Profile(sp)),
        }
    }

    /// Whether this client is logged in to an account (not a guest).
    pub fn logged_in(&self) -> bool {
        self.session.logged_in()
    }

    /// Opens `who`'s profile and asks the server for it; Esc goes back to `back`.
    pub(super) fn open_profile(&mut self, who: Who, back: Option<Leaderboard>) {
        let mine = who.bot.is_none()
            && self
                .session
                .welcome
                .as_ref()
                .is_some_and(|w| w.name.eq_ignore_ascii_case(&who.name));
        // The chart opens on the game the leaderboard showed.
        let game = back.as_ref().map_or(GameKind::Caro, |b| b.game);
        self.send(ClientMsg::Profile {
            name: who.name.clone(),
            bot: who.bot,
        });
        self.screen = Screen::Profile(Box::new(ProfileScreen {
            who,
            profile: None,
            refused: None,
            game,
            selected: 0,
            opening: None,
            back,
            mine,
        }));
    }

    /// "My info": this client's own profile.
    pub(super) fn open_my_profile(&mut self) {
        let Some(name) = self.session.welcome.as_ref().map(|w| w.name.clone()) else {
            return;
        };
        self.open_profile(Who { name, bot: None }, None);
    }

    pub(super) fn got_profile(&mut self, profile: Profile) {
        if let Some(Popup::Profile(sp)) = &mut self.popup
            && sp.who.answered_by(&profile)
        {
            sp.profile = Some(profile);
            sp.refused = None;
            return;
        }
        // The answer for someone else (asked for just before Esc and a new choice) is
        // stale.
        if let Screen::Profile(ps) = &mut self.screen
            && ps.who.answered_by(&profile)
        {
            let count = profile.recent.len();
            ps.selected = ps.selected.min(count.saturating_sub(1));
            ps.profile = Some(profile);
            ps.refused = None;
        }
    }

    /// The server refused the profile (nobody by that name, say): the screen says why.
    pub(super) fn profile_refused(&mut self, why: &str) {
        if let Some(Popup::Profile(sp)) = &mut self.popup
            && sp.profile.is_none()
        {
            sp.refused = Some(why.to_string());
        }
        if let Screen::Profile(ps) = &mut self.screen {
            ps.opening = None;
            if ps.profile.is_none() {
                ps.refused = Some(why.to_string());
            }
        }
    }

    pub(super) fn profile_key(&mut self, key: KeyEvent) {
        let guest = !self.logged_in();
        let Screen::Profile(ps) = &mut self.screen else {
            return;
        };
        let count = ps.profile.as_ref().map_or(0, |p| p.recent.len());
        if step_selection(&mut ps.selected, count, key.code) {
            return;
        }
        match key.code {
            KeyCode::Tab | KeyCode::BackTab | KeyCode::Left | KeyCode::Right => {
                ps.game = other_game(ps.game);
            }
            KeyCode::Enter => {
                let id = ps
                    .profile
                    .as_ref()
                    .and_then(|p| p.recent.get(ps.selected))
                    .map(|g| g.id);
                match id {
                    Some(id) if ps.opening.is_none() => {
                        ps.opening = Some(id);
                        self.send(ClientMsg::Replay(id));
                    }
                    Some(_) => {}
                    None => {
                        let msg = tr!(self.loc, "history.nothing_to_open").to_string();
                        self.warn(msg);
                    }
                }
            }
            KeyCode::Char('r') | KeyCode::F(5) => {
                let who = ps.who.clone();
                self.send(ClientMsg::Profile {
                    name: who.name,
                    bot: who.bot,
                });
            }
            KeyCode::Char('p') if ps.mine && !guest => self.open_password(),
            KeyCode::Char('o') if ps.mine => {
                if guest {
                    self.register_instead();
                } else {
                    self.log_out();
                }
            }
            KeyCode::Char('l') => {
                let game = ps.game;
                self.open_leaderboard(game);
            }
            KeyCode::Char('a') if !ps.mine => {
                let who = ps.who.clone();
                self.challenge_who(&who.name, who.bot);
            }
            KeyCode::Char('?') => self.help = true,
            KeyCode::Esc | KeyCode::Char('q') => match ps.back.take() {
                Some(board) => self.screen = Screen::Leaderboard(board),
                None => self.back_to_lobby(),
            },
            _ => {}
        }
    }

    /// A guest's way to an account: the connect screen, set to register the name.
    fn register_instead(&mut self) {
        let name = self
            .session
            .welcome
            .as_ref()
            .map(|w| w.name.trim_start_matches(GUEST_MARK).to_string())
            .unwrap_or_default();
        self.log_out();
        if let Screen::Connect(form) = &mut self.screen {
            form.name = super::input::TextInput::with_text(banco_protocol::MAX_NAME_CHARS, &name);
            form.register = true;
            form.focus = super::ConnectField::Password;
        }
        let text = tr!(self.loc, "profile.register_how").to_string();
        self.info(text);
    }
}

/// Caro <-> xiangqi.
pub fn other_game(game: GameKind) -> GameKind {
    match game {
        GameKind::Caro => GameKind::Xiangqi,
        GameKind::Xiangqi => GameKind::Caro,
    }
}
