//! What the room shows: the full view for someone coming in, the people for everyone
//! when they change, and the one-line summary for the lobby.

use tokio::time::Instant;

use banco_protocol::{GameView, Role, RoomStatus, RoomSummary, RoomView, SeatView, ServerMsg};

use super::{CurrentGame, Room, SeatState, seat_view};
use crate::ClientId;
use crate::connection::Outgoing;
use crate::lobby::RoomNotice;

/// The least time between two tellings of spectators coming and going.
pub const PEOPLE_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// Who sits where and who watches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct People {
    /// Seat One, seat Two; `None` for a free seat.
    pub seats: [Option<SeatView>; 2],
    /// Names, in the order they came.
    pub spectators: Vec<String>,
}

impl CurrentGame {
    /// The game as the wire shows it at `now`.
    pub(super) fn view(&self, now: Instant) -> GameView {
        GameView {
            number: self.number,
            first: self.first,
            start_fen: self.position.start_fen().unwrap_or_default(),
            opening: self.position.opening().to_vec(),
            moves: self.moves.clone(),
            clocks: self.clock.as_ref().map(|c| c.snapshot(now)),
            over: self.over.clone(),
            swap: self.swap.as_ref().map(|s| Box::new(s.view())),
        }
    }
}

impl Room {
    pub(super) fn people(&self) -> People {
        People {
            seats: [seat_view(&self.seats[0]), seat_view(&self.seats[1])],
            spectators: self
                .members
                .iter()
                .filter(|m| m.role == Role::Spectator)
                .map(|m| m.name.clone())
                .collect(),
        }
    }

    /// Everything about the room, as `you` see it.
    pub(super) fn view_for(&self, you: Role) -> RoomView {
        let people = self.people();
        RoomView {
            id: self.id,
            settings: self.settings.clone(),
            you,
            seats: people.seats,
            spectators: people.spectators,
            game: self.game.as_ref().map(|m| m.view(Instant::now())),
            offer: self.offers.open(),
            chat: self.chat.lines(),
            series: self.series,
            match_state: self.match_state(),
        }
    }

    /// Sends `Joined` to a member who just came in (they need no `People` for it).
    pub(super) fn greet(&mut self, client: ClientId, you: Role) {
        let view = self.view_for(you);
        self.tell(client, ServerMsg::Joined(Box::new(view)));
        self.fresh.push(client);
    }

    /// Someone came, left, sat down or stood up: members are told (see
    /// [`Room::flush_people`]).
    pub(super) fn announce_people(&mut self) {
        self.people_dirty = true;
        self.flush_people(Instant::now());
    }

    /// Tells everyone who sits and watches, if that changed since they were last told.
    /// A change of seats goes out at once; spectators coming and going are told at most
    /// every [`PEOPLE_EVERY`], together, so a crowd walking in costs each member a few
    /// messages rather than one per newcomer.
    pub(super) fn flush_people(&mut self, now: Instant) {
        if !self.people_dirty {
            return;
        }
        let people = self.people();
        let (came, left) = match &self.shown_people {
            Some(shown) if *shown == people => {
                self.people_dirty = false;
                self.people_due = None;
                return;
            }
            Some(shown) => {
                if shown.seats == people.seats
                    && let Some(at) = self.people_at
                    && now < at + PEOPLE_EVERY
                {
                    self.people_due = Some(at + PEOPLE_EVERY);
                    return;
                }
                spectators_changed(&shown.spectators, &people.spectators)
            }
            None => (people.spectators.clone(), Vec::new()),
        };
        self.people_dirty = false;
        self.people_due = None;
        self.people_at = Some(now);
        let msg = Outgoing::new(ServerMsg::People {
            seats: people.seats.clone(),
            came,
            left,
        });
        let told: Vec<_> = self
            .members
            .iter()
            .filter(|m| !self.fresh.contains(&m.client))
            .map(|m| m.outbox.clone())
            .collect();
        for outbox in told {
            self.deliver(&outbox, msg.clone());
        }
        self.shown_people = Some(people);
    }

    pub(super) fn summary(&self) -> RoomSummary {
        let name = |seat: &SeatState| seat_view(seat).map(|s| s.name);
        let status = match &self.game {
            Some(m) if m.running() => RoomStatus::Playing,
            _ if self.seats.iter().any(|s| matches!(s, SeatState::Free)) => RoomStatus::Waiting,
            Some(_) => RoomStatus::Finished,
            None => RoomStatus::Waiting,
        };
        RoomSummary {
            id: self.id,
            settings: self.settings.clone(),
            players: [name(&self.seats[0]), name(&self.seats[1])],
            bot_accounts: self
                .seats
                .each_ref()
                .map(|s| matches!(s, SeatState::Human(h) if h.bot_account)),
            spectators: self
                .members
                .iter()
                .filter(|m| m.role == Role::Spectator)
                .count() as u32,
            status,
        }
    }

    /// Tells the lobby the room's line changed, if it did.
    pub(super) fn publish_summary(&mut self) {
        let summary = self.summary();
        if self.shown_summary.as_ref() == Some(&summary) {
            return;
        }
        let _ = self.ctx.lobby.send(RoomNotice::Changed(summary.clone()));
        self.shown_summary = Some(summary);
    }
}

/// Who came and who left between two lists of spectators (names are unique on a server).
fn spectators_changed(before: &[String], now: &[String]) -> (Vec<String>, Vec<String>) {
    let was: std::collections::HashSet<&String> = before.iter().collect();
    let is: std::collections::HashSet<&String> = now.iter().collect();
    let came = now.iter().filter(|n| !was.contains(n)).cloned().collect();
    let left = before.iter().filter(|n| !is.contains(n)).cloned().collect();
    (came, left)
}
