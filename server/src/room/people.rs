//! Coming in, watching, leaving, dropping out and coming back.

use tokio::time::Instant;

use banco_protocol::{EndReason, ErrorCode, ErrorMsg, MatchEnd, Role, Seat, Series, ServerMsg};

use super::chat::ChatAllowance;
use super::{Guest, HumanSeat, Member, Room, SeatState};
use crate::ClientId;
use crate::lobby::RoomNotice;
use crate::token::TokenHash;

impl Room {
    /// `guest` comes in: into a free seat if `seat`, else as a spectator. A spectator
    /// already here may take a free seat the same way.
    pub(super) fn join(&mut self, guest: Guest, seat: bool) -> Result<Role, ErrorMsg> {
        let watching = match self.member(guest.client).map(|m| m.role) {
            None => false,
            Some(Role::Spectator) if seat => true,
            Some(_) => {
                return Err(ErrorMsg::new(
                    ErrorCode::AlreadyInRoom,
                    "you are already in this room",
                ));
            }
        };
        let role = if seat {
            // A seat kept for this very guest, else a free one nobody is on their way to.
            let kept = Seat::BOTH.into_iter().find(|s| {
                self.reserved[s.index()].is_some_and(|(client, _)| client == guest.client)
            });
            if self.board.is_some()
                && !Seat::BOTH
                    .into_iter()
                    .any(|s| self.seat_is_for(s, &guest.name))
            {
                return Err(ErrorMsg::new(
                    ErrorCode::RoomFull,
                    format!(
                        "room {} is a tournament board kept for its two players: watch it instead",
                        self.id
                    ),
                ));
            }
            let free = kept
                .or_else(|| {
                    Seat::BOTH.into_iter().find(|s| {
                        matches!(self.seats[s.index()], SeatState::Free)
                            && self.reserved[s.index()].is_none()
                            && self.seat_is_for(*s, &guest.name)
                    })
                })
                .filter(|s| matches!(self.seats[s.index()], SeatState::Free))
                .ok_or_else(|| {
                    ErrorMsg::new(
                        ErrorCode::RoomFull,
                        format!("both seats of room {} are taken: watch instead", self.id),
                    )
                })?;
            self.offers.seat_changed(free);
            self.reserved[free.index()] = None;
            self.seats[free.index()] = SeatState::Human(HumanSeat {
                client: guest.client,
                name: guest.name.clone(),
                token: TokenHash::of(&guest.token),
                held_until: None,
                bot_account: guest.bot_account,
            });
            Role::Player(free)
        } else {
            let watching = self
                .members
                .iter()
                .filter(|m| m.role == Role::Spectator)
                .count();
            if watching >= self.ctx.config.max_spectators {
                return Err(ErrorMsg::new(
                    ErrorCode::SpectatorsFull,
                    format!(
                        "room {} already has {watching} spectators, as many as this server \
                         admits: try again later",
                        self.id
                    ),
                ));
            }
            Role::Spectator
        };
        tracing::info!(name = %guest.name, ?role, "came in");
        let client = guest.client;
        match self.members.iter_mut().find(|m| m.client == client) {
            // From the stands to the board: the same member in a new role.
            Some(member) if watching => member.role = role,
            _ => self.admit(guest, role),
        }
        self.greet(client, role);
        self.announce_people();
        Ok(role)
    }

    fn admit(&mut self, guest: Guest, role: Role) {
        self.members.push(Member {
            client: guest.client,
            name: guest.name,
            outbox: guest.outbox,
            role,
            chat: ChatAllowance::new(
                self.ctx.config.chat_burst,
                self.ctx.config.chat_refill,
                Instant::now(),
            ),
        });
    }

    /// Gives the seat held under `token` back to `guest` (also taking it over from a
    /// connection the player left behind); from now on it is held under the guest's own
    /// token. `false` if no seat here is held under `token`.
    pub(super) fn resume(&mut self, guest: Guest, token: TokenHash) -> bool {
        let Some(seat) = Seat::BOTH
            .into_iter()
            .find(|s| matches!(&self.seats[s.index()], SeatState::Human(h) if h.token == token))
        else {
            return false;
        };
        let SeatState::Human(held) = &mut self.seats[seat.index()] else {
            return false;
        };
        let stale = held.client;
        held.token = TokenHash::of(&guest.token);
        held.client = guest.client;
        held.name = guest.name.clone();
        held.held_until = None;
        held.bot_account = guest.bot_account;
        // A connection the player left behind (its session is being closed) is out.
        self.members.retain(|m| m.client != stale);
        tracing::info!(name = %guest.name, ?seat, "came back");
        let client = guest.client;
        self.admit(guest, Role::Player(seat));
        self.greet(client, Role::Player(seat));
        self.announce_people();
        self.restart_clock_when_all_back();
        true
    }

    /// A game reopened after a restart waits with its clocks stopped until every player
    /// is back; then the player to move's time runs again. (In any other game the clock
    /// never stopped, and this does nothing.)
    fn restart_clock_when_all_back(&mut self) {
        let all_back = self
            .seats
            .iter()
            .all(|s| !matches!(s, SeatState::Human(h) if h.held_until.is_some()));
        let wait = self.ctx.config.first_move_wait;
        let Some(m) = self.game.as_mut().filter(|m| m.running()) else {
            return;
        };
        let to_move = m.to_move();
        let opened = m.moves.len() >= 2;
        if let Some(c) = m.clock.as_mut()
            && all_back
            && c.running().is_none()
        {
            let now = Instant::now();
            if opened {
                c.start(to_move, now);
                let clocks = c.snapshot(now);
                self.broadcast(ServerMsg::Clock(clocks));
            } else if m.first_move_due.is_none() {
                m.first_move_due = Some(now + wait);
            }
        }
    }

    /// `client` leaves on purpose: mid-game a player loses (reason quit).
    pub(super) fn leave(&mut self, client: ClientId) {
        let Some(member) = self.member(client) else {
            return;
        };
        let role = member.role;
        tracing::info!(name = %member.name, ?role, "left");
        if let Role::Player(seat) = role {
            self.end_for_absence(seat, EndReason::Quit);
            self.seats[seat.index()] = SeatState::Free;
            // A new pairing starts its own score.
            self.series = Series::default();
        }
        self.tell(client, ServerMsg::Left);
        self.members.retain(|m| m.client != client);
        self.announce_people();
    }

    /// `client`'s connection is gone. A player's seat is held for the grace period (the
    /// clock keeps running); a spectator is simply gone. Returns whether a seat is held.
    pub(super) fn dropped(&mut self, client: ClientId) -> bool {
        let Some(member) = self.member(client) else {
            return false;
        };
        let role = member.role;
        tracing::info!(name = %member.name, ?role, "connection dropped");
        self.members.retain(|m| m.client != client);
        let held = match role {
            Role::Player(seat) => match &mut self.seats[seat.index()] {
                SeatState::Human(h) if h.client == client => {
                    h.held_until = Some(Instant::now() + self.ctx.config.grace);
                    true
                }
                _ => false,
            },
            Role::Spectator => false,
        };
        self.announce_people();
        held
    }

    /// The grace period of `seat`'s dropped player ran out: a running game is lost as
    /// abandoned and the seat is free for someone else.
    pub(super) fn give_up_seat(&mut self, seat: Seat) {
        let SeatState::Human(h) = &self.seats[seat.index()] else {
            return;
        };
        tracing::info!(name = %h.name, ?seat, "did not come back in time");
        let token = h.token;
        self.end_for_absence(seat, EndReason::Abandoned);
        self.seats[seat.index()] = SeatState::Free;
        self.series = Series::default();
        let _ = self.ctx.lobby.send(RoomNotice::Released(token));
        self.announce_people();
    }

    /// The player in `seat` is gone for good: a running game is theirs to lose, and so
    /// is a match being played, between its games too (unless their opponent is gone as
    /// well: then nobody wins); an open offer is moot.
    fn end_for_absence(&mut self, seat: Seat, reason: EndReason) {
        let opponent_gone = matches!(
            &self.seats[seat.other().index()],
            SeatState::Human(h) if h.held_until.is_some()
        );
        let winner = (!opponent_gone).then_some(seat.other());
        if self.live_match().is_some() {
            let why = match reason {
                EndReason::Quit => MatchEnd::Quit,
                _ => MatchEnd::Abandoned,
            };
            self.lose_match(seat, winner, reason, why);
        } else if self.game.as_ref().is_some_and(super::CurrentGame::running) {
            self.finish(winner, reason, Vec::new());
        } else if let Some(offer) = self.offers.clear() {
            self.broadcast(ServerMsg::Withdrawn(offer));
        }
    }
}
