//! The lobby's side of challenges: who may challenge whom (online, their policy, rated
//! games between accounts, nobody in a game when one starts), telling both sides, and
//! seating both players in a new room when a challenge is taken. The book of waiting
//! challenges and its limits is [`super::challenges`].
//!
//! The server's own bots take any challenge at once: "challenge Bot (max)" opens a room
//! with the bot in seat Two.

use tokio::time::Instant;

use banco_protocol::{
    ChallengeEnd, ChallengeId, ChallengePolicy, DeclineReason, ErrorCode, ErrorMsg, GUEST_MARK,
    Level, PlayerLine, RoomSettings, RoomStatus, SeatKind, ServerMsg, bot_name, bot_of_name,
};
use banco_rules::game::GameSpec;

use super::challenges::Pending;
use super::{Lobby, Session};
use crate::ClientId;
use crate::room::{self, RoomHandle};

impl Lobby {
    /// The session named `name` (any case; a guest's also without its mark, `x1` for
    /// `~x1`), with its number.
    pub(super) fn named(&self, name: &str) -> Option<(ClientId, &Session)> {
        let key = name.trim().to_lowercase();
        let find = |key: &str| {
            self.sessions
                .iter()
                .find(|(_, s)| s.name.to_lowercase() == key)
                .map(|(c, s)| (*c, s))
        };
        find(&key).or_else(|| {
            (!key.starts_with(GUEST_MARK))
                .then(|| find(&format!("{GUEST_MARK}{key}")))
                .flatten()
        })
    }

    /// Whether `name` is seated in a game being played now.
    pub(super) fn playing(&self, name: &str) -> bool {
        let key = name.to_lowercase();
        self.list.lines().any(|line| {
            line.status == RoomStatus::Playing
                && line
                    .players
                    .iter()
                    .flatten()
                    .any(|p| p.to_lowercase() == key)
        })
    }

    /// Sends `msg` to the session named `name`, if it is here.
    fn tell_named(&self, name: &str, msg: ServerMsg) {
        if let Some((_, s)) = self.named(name) {
            s.outbox.send(msg);
        }
    }

    /// Sends the open challenges as they are now to everyone connected (few and rarely
    /// changed; a client in a room is current when it comes back to the lobby).
    fn tell_open_challenges(&self) {
        let open = self.challenges.open(Instant::now());
        let out = crate::connection::Outgoing::new(ServerMsg::OpenChallenges(open));
        for s in self.sessions.values() {
            s.outbox.push(&out);
        }
    }

    /// Tells both sides of `pending` (the challenger, and the one challenged if any) that
    /// it ended, and everyone if it was open.
    fn ended(&self, pending: &Pending, end: ChallengeEnd) {
        let msg = ServerMsg::ChallengeEnded {
            id: pending.id,
            end,
        };
        if let Some(to) = &pending.to {
            self.tell_named(to, msg.clone());
        }
        self.tell_named(&pending.from, msg);
        if pending.to.is_none() {
            self.tell_open_challenges();
        }
    }

    /// `client` challenges `to` (`None`: anyone) to a room of `settings`.
    pub(super) fn challenge(
        &mut self,
        client: ClientId,
        to: Option<String>,
        mut settings: RoomSettings,
        spec: GameSpec,
    ) -> Result<Option<RoomHandle>, ErrorMsg> {
        let Some(me) = self.sessions.get(&client) else {
            return Err(ErrorMsg::new(ErrorCode::Unexpected, "say Hello first"));
        };
        let (from, from_account, from_bot) = (me.name.clone(), me.account, me.bot);
        let refused = |message: String| Err(ErrorMsg::new(ErrorCode::ChallengeRefused, message));
        if settings.rated && !from_account {
            return refused(
                "guests play casual games only: make the challenge casual (--casual), or log \
                 in to play rated"
                    .into(),
            );
        }
        let to = match to.as_deref().map(str::trim) {
            Some("") => {
                return Err(ErrorMsg::new(
                    ErrorCode::BadName,
                    "say whom to challenge, or make an open challenge",
                ));
            }
            Some(name) => Some(name.to_string()),
            None => None,
        };
        if let Some(level) = to.as_deref().and_then(bot_of_name) {
            return self.challenge_bot(client, from, from_bot, level, settings, spec);
        }
        let target = match &to {
            None => None,
            Some(name) => {
                let Some((_, them)) = self.named(name) else {
                    return Err(ErrorMsg::new(
                        ErrorCode::NoSuchPlayer,
                        format!(
                            "nobody called {name} is on this server now: see who is with the \
                             players list"
                        ),
                    ));
                };
                if them.name.to_lowercase() == from.to_lowercase() {
                    return refused("you cannot challenge yourself".into());
                }
                match them.policy {
                    ChallengePolicy::Nobody => {
                        return refused(format!("{} takes no challenges", them.name));
                    }
                    ChallengePolicy::Accounts if !from_account => {
                        return refused(format!(
                            "{} takes challenges from accounts only: log in to challenge them",
                            them.name
                        ));
                    }
                    _ => {}
                }
                if settings.rated && !them.account {
                    return refused(format!(
                        "{} is a guest, and guests play casual games only: make the challenge \
                         casual (--casual)",
                        them.name
                    ));
                }
                Some(them.name.clone())
            }
        };
        // Seat One is the challenger's, seat Two the other player's: people both.
        settings.seats = [SeatKind::Human, SeatKind::Human];
        let now = Instant::now();
        let pending =
            self.challenges
                .issue(&from, from_bot, target.as_deref(), settings, spec, now)?;
        let wire = pending.to_wire(now);
        tracing::info!(id = wire.id, %from, to = ?target, "challenge sent");
        self.tell_named(&from, ServerMsg::ChallengeSent(wire.clone()));
        match &target {
            Some(name) => self.tell_named(name, ServerMsg::Challenged(wire)),
            None => self.tell_open_challenges(),
        }
        Ok(None)
    }

    /// A challenge to the server's bot at `level`: taken at once, in a room with the bot
    /// in seat Two and seat One kept for the challenger.
    fn challenge_bot(
        &mut self,
        client: ClientId,
        from: String,
        from_bot: bool,
        level: Level,
        mut settings: RoomSettings,
        spec: GameSpec,
    ) -> Result<Option<RoomHandle>, ErrorMsg> {
        if self.playing(&from) {
            return Err(busy_yourself());
        }
        settings.seats = [SeatKind::Human, SeatKind::Bot(level)];
        let maker = self.sessions.get(&client).map(Session::maker);
        self.room_allowed(maker.as_ref())?;
        let now = Instant::now();
        // Booked for its number and its announcement, then taken at once.
        let wire = self
            .challenges
            .issue(
                &from,
                from_bot,
                Some(&bot_name(level)),
                settings.clone(),
                spec.clone(),
                now,
            )?
            .to_wire(now);
        self.challenges.take(wire.id);
        let handle = self.open_challenge_room(settings, spec, [Some(client), None], maker);
        tracing::info!(id = wire.id, %from, ?level, room = handle.id(), "challenge taken by the server's bot");
        if let Some(s) = self.sessions.get_mut(&client) {
            s.room = Some(handle.id());
            s.outbox.send(ServerMsg::ChallengeSent(wire.clone()));
            s.outbox.send(ServerMsg::ChallengeEnded {
                id: wire.id,
                end: ChallengeEnd::Accepted {
                    room: handle.id(),
                    by: bot_name(level),
                },
            });
        }
        Ok(Some(handle))
    }

    /// Opens a room of `settings` with seats kept for `reserved`, made by `maker`.
    fn open_challenge_room(
        &mut self,
        settings: RoomSettings,
        spec: GameSpec,
        reserved: [Option<ClientId>; 2],
        maker: Option<super::Maker>,
    ) -> RoomHandle {
        let id = self.rooms.free_number();
        let ctx = self.room_context();
        let handle = room::spawn_reserved(id, settings, spec, reserved, ctx, &self.tracker);
        self.rooms.open(id, handle.clone(), maker);
        handle
    }

    /// `client` takes challenge `id`: a new room with seat One kept for the challenger
    /// and seat Two for `client`. The challenger's session is placed there; `client`'s
    /// gets the room in the answer.
    pub(super) fn accept(
        &mut self,
        client: ClientId,
        id: ChallengeId,
    ) -> Result<RoomHandle, ErrorMsg> {
        let Some(me) = self.sessions.get(&client) else {
            return Err(ErrorMsg::new(ErrorCode::Unexpected, "say Hello first"));
        };
        let (name, account) = (me.name.clone(), me.account);
        let no_such = || {
            ErrorMsg::new(
                ErrorCode::NoSuchChallenge,
                format!(
                    "there is no challenge {id} for you: it ended, or was sent to someone else"
                ),
            )
        };
        let pending = self.challenges.get(id).ok_or_else(no_such)?;
        if pending.is_from(&name) {
            return Err(ErrorMsg::new(
                ErrorCode::ChallengeRefused,
                format!("challenge {id} is your own: wait for someone to take it, or cancel it"),
            ));
        }
        if pending.to.is_some() && !pending.is_to(&name) {
            return Err(no_such());
        }
        if pending.settings.rated && !account {
            return Err(ErrorMsg::new(
                ErrorCode::ChallengeRefused,
                format!(
                    "challenge {id} is for a rated game, and guests play casual games only: log \
                     in to take it"
                ),
            ));
        }
        let from = pending.from.clone();
        let Some((challenger, _)) = self.named(&from) else {
            // Its challenger left without the lobby hearing yet: it is void.
            if let Some(gone) = self.challenges.take(id) {
                self.ended(&gone, ChallengeEnd::Withdrawn);
            }
            return Err(no_such());
        };
        if self.playing(&name) {
            return Err(busy_yourself());
        }
        if self.playing(&from) {
            return Err(ErrorMsg::new(
                ErrorCode::PlayerBusy,
                format!(
                    "{from} is playing a game now: the challenge waits; take it when their game \
                     is over"
                ),
            ));
        }
        let maker = self.sessions.get(&challenger).map(Session::maker);
        self.room_allowed(maker.as_ref())?;
        let Some(pending) = self.challenges.take(id) else {
            return Err(no_such());
        };
        let handle = self.open_challenge_room(
            pending.settings.clone(),
            pending.spec.clone(),
            [Some(challenger), Some(client)],
            maker,
        );
        let room = handle.id();
        tracing::info!(id, %from, by = %name, room, "challenge accepted");
        self.challenges.played(&from, &name);
        let end = ChallengeEnd::Accepted {
            room,
            by: name.clone(),
        };
        // Both sit in the new room (no room lists while there); the challenger is placed
        // there by its session, the taker by its own request's answer.
        for player in [challenger, client] {
            if let Some(s) = self.sessions.get_mut(&player) {
                s.room = Some(room);
                s.outbox.send(ServerMsg::ChallengeEnded {
                    id,
                    end: end.clone(),
                });
            }
        }
        if let Some(s) = self.sessions.get(&challenger) {
            s.place.place(handle.clone());
        }
        if pending.to.is_none() {
            self.tell_open_challenges();
        }
        Ok(handle)
    }

    /// `client` declines challenge `id`, saying why: both sides are told.
    pub(super) fn decline(&mut self, client: ClientId, id: ChallengeId, reason: DeclineReason) {
        let Some(me) = self.sessions.get(&client) else {
            return;
        };
        let name = me.name.clone();
        let mine = self.challenges.get(id).is_some_and(|p| p.is_to(&name));
        if !mine {
            let open = self.challenges.get(id).is_some_and(|p| p.to.is_none());
            let message = if open {
                format!(
                    "challenge {id} is open to anyone: leave it for someone else rather than declining it"
                )
            } else {
                format!("there is no challenge {id} to you: it ended, or was sent to someone else")
            };
            me.outbox.send(ServerMsg::Error(ErrorMsg::new(
                ErrorCode::NoSuchChallenge,
                message,
            )));
            return;
        }
        if let Some(declined) = self.challenges.decline(id, Instant::now()) {
            tracing::info!(id, from = %declined.from, by = %name, %reason, "challenge declined");
            self.ended(&declined, ChallengeEnd::Declined { by: name, reason });
        }
    }

    /// `client` calls off its own challenge `id`: both sides are told.
    pub(super) fn cancel(&mut self, client: ClientId, id: ChallengeId) {
        let Some(me) = self.sessions.get(&client) else {
            return;
        };
        if !self.challenges.get(id).is_some_and(|p| p.is_from(&me.name)) {
            me.outbox.send(ServerMsg::Error(ErrorMsg::new(
                ErrorCode::NoSuchChallenge,
                format!("you have no challenge {id} waiting: it ended, or is someone else's"),
            )));
            return;
        }
        if let Some(cancelled) = self.challenges.take(id) {
            tracing::info!(id, from = %cancelled.from, "challenge cancelled");
            self.ended(&cancelled, ChallengeEnd::Cancelled);
        }
    }

    /// `name` left the server: its challenges, sent and received, are void.
    pub(super) fn withdraw_challenges(&mut self, name: &str) {
        for gone in self.challenges.withdraw_involving(name) {
            self.ended(&gone, ChallengeEnd::Withdrawn);
        }
    }

    /// Challenges nobody answered in time.
    pub(super) fn expire_challenges(&mut self) {
        for lapsed in self.challenges.expired(Instant::now()) {
            tracing::info!(id = lapsed.id, from = %lapsed.from, "challenge expired");
            self.ended(&lapsed, ChallengeEnd::Expired);
        }
    }

    /// The people list: everyone connected by name, then the server's bots.
    pub(super) fn players(&self) -> Vec<PlayerLine> {
        let mut people: Vec<PlayerLine> = self
            .sessions
            .values()
            .map(|s| PlayerLine {
                name: s.name.clone(),
                level: None,
                account: s.account,
                bot: s.bot,
                playing: self.playing(&s.name),
                challenges: s.policy,
            })
            .collect();
        people.sort_by_key(|p| p.name.to_lowercase());
        people.extend(Level::ALL.into_iter().map(|level| PlayerLine {
            name: bot_name(level),
            level: Some(level),
            account: false,
            bot: false,
            playing: false,
            challenges: ChallengePolicy::Everyone,
        }));
        people
    }
}

/// The refusal of a challenge to or by someone in a game.
fn busy_yourself() -> ErrorMsg {
    ErrorMsg::new(
        ErrorCode::PlayerBusy,
        "you are playing a game: finish it (or leave it) first",
    )
}
