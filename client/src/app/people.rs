//! Challenges in the terminal client: the people screen (who is on the server, the
//! challenges to us, ours and the open ones, with the challenge form over it), the
//! dialog an incoming challenge opens wherever the player is, and the choice of a
//! reason to decline.
//!
//! A challenge is made from the people screen (`p` in the lobby), the leaderboard or a
//! profile (`a`); both lead to the same form, the create form with a target.

use banco_protocol::{
    Challenge, ChallengeEnd, ChallengePolicy, ClientMsg, DeclineReason, PlayerLine, bot_name,
};
use crossterm::event::{KeyCode, KeyEvent};

use super::create::{CreateForm, FormAction, Target};
use super::{App, Effect, Lobby, Popup, Screen};
use crate::challenges::{self, Challenges, Change};
use crate::tr;

/// The people screen: the lines of [`rows`], one highlighted, and the challenge form
/// while it is open.
#[derive(Debug, Clone, Default)]
pub struct PeopleScreen {
    /// Index of the highlighted line.
    pub selected: usize,
    /// The challenge form, while it is open.
    pub form: Option<CreateForm>,
}

/// A line of the people screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PeopleRow {
    /// A challenge to us: Enter answers it.
    Incoming(Challenge),
    /// Ours: `x` cancels it.
    Sent(Challenge),
    /// Someone's open challenge: Enter takes it.
    Open(Challenge),
    /// Someone on the server (or the server's bot): Enter or `c` challenges them.
    Person(PlayerLine),
}

/// The people screen's lines, in the order drawn: challenges to us, ours, the open
/// ones, then everyone else on the server and the server's bots.
pub fn rows(ch: &Challenges, me: &str) -> Vec<PeopleRow> {
    let mut rows: Vec<PeopleRow> = ch
        .incoming
        .iter()
        .cloned()
        .map(PeopleRow::Incoming)
        .collect();
    rows.extend(ch.sent.iter().cloned().map(PeopleRow::Sent));
    rows.extend(ch.others_open(me).cloned().map(PeopleRow::Open));
    rows.extend(
        ch.players
            .iter()
            .filter(|p| p.name != me)
            .cloned()
            .map(PeopleRow::Person),
    );
    rows
}

/// The dialog's choice of a reason to decline: the reasons in order, one highlighted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decline {
    /// The challenge being declined.
    pub challenge: Challenge,
    /// Index into [`DeclineReason::ALL`].
    pub selected: usize,
}

impl App {
    /// A message about challenges: keep it, and tell the player (an incoming challenge
    /// opens its dialog, unless another one is open, and rings the bell).
    pub(super) fn challenge_changed(&mut self, change: Change) {
        let me = self.session.name().unwrap_or_default();
        let loc = self.loc.clone();
        match change {
            Change::Incoming(ch) => {
                let text = challenges::incoming_text(&ch, &me, &loc);
                if self.popup.is_none() && !self.help {
                    self.popup = Some(Popup::Challenge(ch));
                }
                self.bell();
                self.info(text);
            }
            Change::Sent(ch) => {
                let text = challenges::sent_text(&ch, &loc);
                self.info(text);
            }
            Change::Ended { id, end, was } => {
                let text = challenges::ended_text(id, &end, was.as_ref(), &me, &loc);
                let answered_here = matches!(
                    &self.popup,
                    Some(Popup::Challenge(c)) if c.id == id
                ) || matches!(&self.popup, Some(Popup::Decline(d)) if d.challenge.id == id);
                if answered_here {
                    self.popup = None;
                }
                match end {
                    ChallengeEnd::Declined { .. } | ChallengeEnd::Expired => self.warn(text),
                    _ => self.info(text),
                }
            }
            Change::Open | Change::Players => {}
            Change::Policy(policy) => {
                let text = tr!(
                    loc,
                    "challenge.policy_set",
                    policy = challenges::policy_text(policy, &loc)
                );
                self.info(text);
            }
        }
        // The highlight stays on the list as it shrinks.
        let count = rows(&self.session.challenges, &me).len();
        if let Screen::People(ps) = &mut self.screen {
            ps.selected = ps.selected.min(count.saturating_sub(1));
        }
    }

    /// Opens the people screen (asking for the list), with the challenge form for
    /// `target` open over it if one is given.
    pub(super) fn open_people(&mut self, target: Option<Target>) {
        self.send(ClientMsg::Players);
        let form = target.map(|t| form_for(&self.settings, &self.session, t, false));
        self.screen = Screen::People(Box::new(PeopleScreen { selected: 0, form }));
    }

    /// `a` on the leaderboard or a profile: challenge that player (a bot by its name).
    pub(super) fn challenge_who(&mut self, name: &str, bot: Option<banco_protocol::Level>) {
        let name = bot.map_or_else(|| name.to_string(), bot_name);
        if self.session.name().as_deref() == Some(name.as_str()) {
            let text = tr!(self.loc, "server_error.challenge_refused").to_string();
            self.warn(text);
            return;
        }
        self.open_people(Some(Target::Player(name)));
    }

    pub(super) fn people_key(&mut self, key: KeyEvent) {
        let me = self.session.name().unwrap_or_default();
        let lines = rows(&self.session.challenges, &me);
        let Screen::People(ps) = &mut self.screen else {
            return;
        };
        if let Some(form) = &mut ps.form {
            let action = form.key(key);
            let target = form.target.clone();
            match action {
                FormAction::None | FormAction::Arrange => {}
                FormAction::Cancel => ps.form = None,
                FormAction::BadSize => {
                    let msg = tr!(self.loc, "create.bad_size").to_string();
                    self.warn(msg);
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
                    let msg = tr!(self.loc, "create.bad_match").to_string();
                    self.warn(msg);
                }
                FormAction::Create(settings) => {
                    ps.form = None;
                    let to = match target {
                        Some(Target::Player(name)) => Some(name),
                        _ => None,
                    };
                    self.send(ClientMsg::Challenge { to, settings });
                }
            }
            return;
        }
        let count = lines.len();
        let chosen = lines.get(ps.selected).cloned();
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => ps.selected = ps.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => {
                ps.selected = (ps.selected + 1).min(count.saturating_sub(1));
            }
            KeyCode::Home => ps.selected = 0,
            KeyCode::End => ps.selected = count.saturating_sub(1),
            KeyCode::Enter => match chosen {
                Some(PeopleRow::Incoming(ch)) => self.popup = Some(Popup::Challenge(ch)),
                Some(PeopleRow::Open(ch)) => self.send(ClientMsg::AcceptChallenge(ch.id)),
                Some(PeopleRow::Person(p)) => {
                    ps.form = Some(person_form(&self.settings, &self.session, &p))
                }
                Some(PeopleRow::Sent(_)) | None => {}
            },
            KeyCode::Char('c') => {
                if let Some(PeopleRow::Person(p)) = chosen {
                    ps.form = Some(person_form(&self.settings, &self.session, &p));
                }
            }
            KeyCode::Char('o') => {
                ps.form = Some(form_for(
                    &self.settings,
                    &self.session,
                    Target::Anyone,
                    false,
                ));
            }
            KeyCode::Char('x') | KeyCode::Delete => {
                if let Some(PeopleRow::Sent(ch)) = chosen {
                    self.send(ClientMsg::CancelChallenge(ch.id));
                }
            }
            KeyCode::Char('t') => self.next_policy(),
            KeyCode::Char('r') | KeyCode::F(5) => self.send(ClientMsg::Players),
            KeyCode::Char('?') => self.help = true,
            KeyCode::Esc | KeyCode::Char('q') => {
                self.screen = Screen::Lobby(Lobby::default());
                self.send(ClientMsg::ListRooms);
            }
            _ => {}
        }
    }

    /// Who may challenge us: everyone, accounts only, nobody, and round again; kept in
    /// the settings file and told to the server.
    pub(super) fn next_policy(&mut self) {
        let all = ChallengePolicy::ALL;
        let at = all
            .iter()
            .position(|p| *p == self.settings.challenges)
            .unwrap_or(0);
        let next = all[(at + 1) % all.len()];
        self.settings.challenges = next;
        self.effects.push(Effect::SaveSettings);
        self.send(ClientMsg::SetChallenges(next));
    }

    /// A key in an incoming challenge's dialog.
    pub(super) fn challenge_popup_key(&mut self, ch: Challenge, key: KeyEvent) {
        match key.code {
            KeyCode::Char('y') | KeyCode::Char('Y') | KeyCode::Enter => {
                self.send(ClientMsg::AcceptChallenge(ch.id));
            }
            KeyCode::Char('n') | KeyCode::Char('N') => {
                self.popup = Some(Popup::Decline(Decline {
                    challenge: ch,
                    selected: 0,
                }));
            }
            KeyCode::Esc => {}
            KeyCode::Char('?') => {
                self.help = true;
                self.popup = Some(Popup::Challenge(ch));
            }
            _ => self.popup = Some(Popup::Challenge(ch)),
        }
    }

    /// A key in the choice of a reason to decline.
    pub(super) fn decline_popup_key(&mut self, mut d: Decline, key: KeyEvent) {
        let n = DeclineReason::ALL.len();
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => d.selected = d.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => d.selected = (d.selected + 1).min(n - 1),
            KeyCode::Enter => {
                let reason = DeclineReason::ALL[d.selected.min(n - 1)];
                self.send(ClientMsg::DeclineChallenge {
                    id: d.challenge.id,
                    reason,
                });
                return;
            }
            KeyCode::Esc => {
                self.popup = Some(Popup::Challenge(d.challenge));
                return;
            }
            _ => {}
        }
        self.popup = Some(Popup::Decline(d));
    }
}

/// The challenge form for `target`, with the create form's last choices: casual when
/// either side is a guest (`guest_target`: the one challenged is).
fn form_for(
    settings: &crate::settings::Settings,
    session: &super::Session,
    target: Target,
    guest_target: bool,
) -> CreateForm {
    let guest = !session.logged_in() || guest_target;
    CreateForm::challenging(target, settings.create.as_ref(), guest)
}

/// The challenge form for the person on a line of the people list.
fn person_form(
    settings: &crate::settings::Settings,
    session: &super::Session,
    p: &PlayerLine,
) -> CreateForm {
    let guest = !p.account && p.level.is_none();
    form_for(settings, session, Target::Player(p.name.clone()), guest)
}
