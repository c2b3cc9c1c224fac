//! One's own account, from "My info": changing the password, and logging out.
//!
//! Logging out closes the connection and goes back to the connect screen with the name
//! filled in; the password kept in memory for reconnecting is dropped, and so is the
//! seat token on disk (logging out is only offered outside a room, where there is no
//! seat to take back).

use banco_protocol::{
    ClientMsg, ErrorCode, ErrorMsg, MAX_PASSWORD_CHARS, MIN_PASSWORD_CHARS, PasswordChange,
};
use crossterm::event::{KeyCode, KeyEvent};

use super::input::{Edit, TextInput};
use super::profile::ProfileScreen;
use super::{App, Effect, Screen};
use crate::tr;

/// Which password field has the cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PasswordField {
    Old,
    New,
    Again,
}

/// The change-password screen. The fields are drawn as dots and never kept past the
/// answer.
#[derive(Debug, Clone)]
pub struct PasswordScreen {
    pub old: TextInput,
    pub new: TextInput,
    /// The new password typed again, so a slip of the finger does not lock one out.
    pub again: TextInput,
    pub focus: PasswordField,
    /// Sent; waiting for the server's answer.
    pub waiting: bool,
    /// Why the last try failed, as a sentence.
    pub error: Option<String>,
    /// The profile ("My info") it was opened from, and goes back to.
    pub back: Box<ProfileScreen>,
}

impl App {
    /// Opens the change-password screen over "My info".
    pub(super) fn open_password(&mut self) {
        let screen = std::mem::replace(&mut self.screen, Screen::Lobby(Default::default()));
        let Screen::Profile(back) = screen else {
            self.screen = screen;
            return;
        };
        self.screen = Screen::Password(Box::new(PasswordScreen {
            old: TextInput::new(MAX_PASSWORD_CHARS),
            new: TextInput::new(MAX_PASSWORD_CHARS),
            again: TextInput::new(MAX_PASSWORD_CHARS),
            focus: PasswordField::Old,
            waiting: false,
            error: None,
            back,
        }));
    }

    pub(super) fn password_key(&mut self, key: KeyEvent) {
        let Screen::Password(ps) = &mut self.screen else {
            return;
        };
        if ps.waiting {
            return;
        }
        match key.code {
            KeyCode::Esc => self.close_password(),
            KeyCode::Tab | KeyCode::Down => {
                ps.focus = match ps.focus {
                    PasswordField::Old => PasswordField::New,
                    PasswordField::New => PasswordField::Again,
                    PasswordField::Again => PasswordField::Old,
                };
            }
            KeyCode::BackTab | KeyCode::Up => {
                ps.focus = match ps.focus {
                    PasswordField::Old => PasswordField::Again,
                    PasswordField::New => PasswordField::Old,
                    PasswordField::Again => PasswordField::New,
                };
            }
            KeyCode::Enter => match ps.focus {
                PasswordField::Old if ps.new.is_empty() => ps.focus = PasswordField::New,
                PasswordField::New if ps.again.is_empty() => ps.focus = PasswordField::Again,
                _ => self.submit_password(),
            },
            _ => {
                let field = match ps.focus {
                    PasswordField::Old => &mut ps.old,
                    PasswordField::New => &mut ps.new,
                    PasswordField::Again => &mut ps.again,
                };
                match field.edit(key) {
                    Edit::Changed => ps.error = None,
                    Edit::Full => {
                        ps.error = Some(tr!(self.loc, "server_error.bad_password").to_string());
                    }
                    Edit::Ignored => {}
                }
            }
        }
    }

    /// Checks the form and sends the change; a problem is said on the form instead.
    fn submit_password(&mut self) {
        let Screen::Password(ps) = &mut self.screen else {
            return;
        };
        let problem = if ps.old.is_empty() {
            Some((PasswordField::Old, "password.need_old"))
        } else if ps.new.len() < MIN_PASSWORD_CHARS {
            Some((PasswordField::New, "server_error.bad_password"))
        } else if ps.new.text() != ps.again.text() {
            Some((PasswordField::Again, "password.differ"))
        } else if ps.new.text() == ps.old.text() {
            Some((PasswordField::New, "password.same"))
        } else {
            None
        };
        if let Some((field, key)) = problem {
            ps.focus = field;
            if field == PasswordField::Again {
                ps.again = TextInput::new(MAX_PASSWORD_CHARS);
            }
            ps.error = Some(self.loc.get(key).to_string());
            return;
        }
        ps.waiting = true;
        ps.error = None;
        let change = PasswordChange {
            old: ps.old.text().to_string(),
            new: ps.new.text().to_string(),
        };
        self.send(ClientMsg::ChangePassword(change));
    }

    /// Back to "My info", the fields forgotten.
    fn close_password(&mut self) {
        let screen = std::mem::replace(&mut self.screen, Screen::Lobby(Default::default()));
        self.screen = match screen {
            Screen::Password(ps) => Screen::Profile(ps.back),
            other => other,
        };
    }

    /// The server changed the password: the one kept for reconnecting follows.
    pub(super) fn password_changed(&mut self) {
        if let Screen::Password(ps) = &self.screen
            && ps.waiting
        {
            let new = ps.new.text().to_string();
            if let Some(account) = &mut self.session.account {
                *account = banco_protocol::Credentials::password(new, false);
            }
            self.close_password();
        }
        let text = tr!(self.loc, "event.password_changed").to_string();
        self.info(text);
    }

    /// A refusal while the change waits: said on the form, which stays open. `true` if
    /// it was the form's.
    pub(super) fn password_refused(&mut self, e: &ErrorMsg) -> bool {
        let text = crate::narrate::server_error(e, &self.loc);
        let Screen::Password(ps) = &mut self.screen else {
            return false;
        };
        if !ps.waiting {
            return false;
        }
        ps.waiting = false;
        ps.focus = match e.code {
            ErrorCode::LoginFailed => {
                ps.old = TextInput::new(MAX_PASSWORD_CHARS);
                PasswordField::Old
            }
            ErrorCode::BadPassword => PasswordField::New,
            _ => ps.focus,
        };
        ps.error = Some(match e.code {
            // The server's "wrong name or password" is about the old password here.
            ErrorCode::LoginFailed => self.loc.get("password.wrong_old").to_string(),
            _ => text,
        });
        true
    }

    /// Logs out: the connection closes and the connect screen comes back, the name kept,
    /// the password (and the seat token on disk) forgotten.
    pub(super) fn log_out(&mut self) {
        self.session.log_out();
        self.effects.push(Effect::ForgetSeat);
        self.effects.push(Effect::Disconnect);
        self.show_connect_screen(String::new());
        if let Screen::Connect(form) = &mut self.screen {
            form.error = None;
            form.focus = super::ConnectField::Password;
        }
        let text = tr!(self.loc, "profile.logged_out").to_string();
        self.info(text);
    }
}
