//! Keys in dialogs: offers, confirmations, the result, settings.

use banco_protocol::{ClientMsg, SwapChoice};
use crossterm::event::{KeyCode, KeyEvent};

use super::{App, Confirm, Effect, Popup, SettingsMenu};
use crate::locale::Locale;
use crate::theme::Theme;

/// Lines of the settings dialog: language, theme, four warning, bell, who may challenge.
const SETTINGS: usize = 5;

impl App {
    pub(super) fn open_settings(&mut self) {
        self.popup = Some(Popup::Settings(SettingsMenu {
            focus: 0,
            languages: crate::locale::languages(self.config_dir.as_deref()),
            themes: crate::theme::themes(self.config_dir.as_deref()),
        }));
    }

    pub(super) fn popup_key(&mut self, popup: Popup, key: KeyEvent) {
        let yes = matches!(key.code, KeyCode::Char('y') | KeyCode::Char('Y'));
        let no = matches!(key.code, KeyCode::Char('n') | KeyCode::Char('N'));
        match popup {
            Popup::Profile(sp) => self.seat_profile_key(sp, key),
            Popup::Swap => {
                let choices = self
                    .room()
                    .and_then(|rs| rs.room.game.as_ref())
                    .and_then(|g| g.swap_in_progress())
                    .map(|s| s.choices.clone())
                    .unwrap_or_default();
                let choice = match key.code {
                    KeyCode::Char('w') | KeyCode::Char('W') => Some(SwapChoice::White),
                    KeyCode::Char('b') | KeyCode::Char('B') => Some(SwapChoice::Black),
                    KeyCode::Char('t') | KeyCode::Char('T') => Some(SwapChoice::PlaceTwo),
                    _ => None,
                };
                match choice {
                    Some(c) if choices.contains(&c) => self.send(ClientMsg::Swap(c)),
                    // The decision is due on the clock: the dialog stays until it is
                    // taken (or the opening is over), whatever else is pressed.
                    _ if choices.is_empty() => {}
                    _ if key.code == KeyCode::Char('?') => {
                        self.help = true;
                        self.popup = Some(popup);
                    }
                    _ => self.popup = Some(popup),
                }
            }
            Popup::Challenge(ch) => self.challenge_popup_key(ch, key),
            Popup::Decline(d) => self.decline_popup_key(d, key),
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
                // A confirmation that ends a game takes its own key, never the `y` (or
                // Enter) that answers offers: a `y` meant for an offer that has just
                // gone must not lose the game.
                let confirmed = if what.ends_game() {
                    matches!(key.code, KeyCode::Char('r') | KeyCode::Char('R'))
                } else {
                    yes || key.code == KeyCode::Enter
                };
                if confirmed {
                    match what {
                        Confirm::Quit { .. } => self.quit_now(),
                        Confirm::Leave { .. } => self.send(ClientMsg::LeaveRoom),
                        Confirm::Resign => self.send(ClientMsg::Resign),
                        Confirm::ResignMatch => self.send(ClientMsg::ResignMatch),
                    }
                } else if !(no || key.code == KeyCode::Esc) {
                    self.popup = Some(popup);
                }
            }
            Popup::GameOver => match key.code {
                // Not `r`: that key only ever confirms resigning.
                KeyCode::Char('g') => {
                    self.send(ClientMsg::Offer(banco_protocol::OfferKind::NewGame));
                }
                KeyCode::Char('q') => self.room_key(key),
                KeyCode::Char('v') if !self.last_game_aborted() => self.review_last_game(),
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
                    KeyCode::Up | KeyCode::Char('k') => {
                        menu.focus = (menu.focus + SETTINGS - 1) % SETTINGS;
                    }
                    KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => {
                        menu.focus = (menu.focus + 1) % SETTINGS;
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
    pub(super) fn change_setting(&mut self, menu: &SettingsMenu, forward: bool) {
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
            3 => self.settings.bell = !self.settings.bell,
            4 => {
                // Saved and told to the server by `next_policy`, forward or back alike
                // (three choices round).
                self.next_policy();
                if !forward {
                    self.next_policy();
                }
                return;
            }
            _ => return,
        }
        self.effects.push(Effect::SaveSettings);
    }
}
