//! The room-list broadcaster: each open room's line in the lobby, the whole list encoded
//! once for whoever asks, and the changes pushed to the sessions in the lobby in slices.
//!
//! Changes are numbered as they come. The lobby's sessions are told in [`SLICES`]
//! slices, one slice every `LIST_EVERY / SLICES`: each session hears of a change within
//! [`LIST_EVERY`], a burst of changes goes out as a few small pushes, and thousands of
//! writes never come in one burst that a request would wait behind.

use std::collections::{BTreeMap, VecDeque};
use std::time::Duration;
use tokio::time::Instant;

use banco_protocol::{RoomId, RoomSummary, ServerMsg};

use crate::ClientId;
use crate::connection::{Outbox, Outgoing};

/// The least time between two room lists pushed to the lobby: changes that come faster
/// (a busy server) are gathered into the next list, so a client on a slow link is never
/// sent list after list it cannot read in time.
pub const LIST_EVERY: Duration = Duration::from_millis(250);

/// The lobby's sessions are told in this many slices (by client number).
pub const SLICES: usize = 5;

/// The lines of the lobby's room list and what has not been told yet.
pub struct RoomList {
    /// Each room's line, by number (so the list comes out in order); a room that has not
    /// sent its first line is not listed yet.
    lines: BTreeMap<RoomId, RoomSummary>,
    /// Changes not yet told to every slice, numbered in order: a room opened or changed
    /// (`true`) or closed (`false`).
    changes: VecDeque<(u64, RoomId, bool)>,
    /// The number the next change gets.
    next_change: u64,
    /// By slice: changes below this number have been pushed to it.
    told: [u64; SLICES],
    /// The slice pushed next.
    next_slice: usize,
    /// The whole room list, encoded once for everyone who asks until it changes.
    full: Option<Outgoing>,
    /// When the last slice was pushed.
    pushed_at: Instant,
}

impl Default for RoomList {
    fn default() -> RoomList {
        RoomList {
            lines: BTreeMap::new(),
            changes: VecDeque::new(),
            next_change: 0,
            told: [0; SLICES],
            next_slice: 0,
            full: None,
            pushed_at: Instant::now(),
        }
    }
}

impl RoomList {
    /// A room's line is new or changed.
    pub fn changed(&mut self, line: RoomSummary) {
        let id = line.id;
        self.lines.insert(id, line);
        self.note(id, true);
    }

    /// Every room's line as last told (who sits where, whether a game is on).
    pub fn lines(&self) -> impl Iterator<Item = &RoomSummary> {
        self.lines.values()
    }

    /// Room `id` closed.
    pub fn closed(&mut self, id: RoomId) {
        if self.lines.remove(&id).is_some() {
            self.note(id, false);
        }
    }

    /// The whole room list as one message, encoded once until the list changes.
    pub fn full(&mut self) -> Outgoing {
        if let Some(list) = &self.full {
            return list.clone();
        }
        let list = Outgoing::new(ServerMsg::Rooms(self.lines.values().cloned().collect()));
        self.full = Some(list.clone());
        list
    }

    /// When the next slice is due, if anything waits to be told.
    pub fn next_push(&self) -> Option<Instant> {
        (!self.changes.is_empty()).then_some(self.pushed_at + LIST_EVERY / SLICES as u32)
    }

    /// Sends the next slice of `lobby` (the sessions in the lobby, by number) what
    /// changed since that slice was last told, and forgets changes every slice has heard.
    pub fn push<'a>(&mut self, lobby: impl Iterator<Item = (ClientId, &'a Outbox)>) {
        let slice = self.next_slice;
        self.next_slice = (slice + 1) % SLICES;
        self.pushed_at = Instant::now();
        let since = self.told[slice];
        self.told[slice] = self.next_change;
        // The latest word on each room: open (its current line) or closed.
        let mut latest: BTreeMap<RoomId, bool> = BTreeMap::new();
        for &(_, id, open) in self.changes.iter().filter(|(n, _, _)| *n >= since) {
            latest.insert(id, open);
        }
        let oldest = self.told.iter().copied().min().unwrap_or(0);
        while self.changes.front().is_some_and(|(n, _, _)| *n < oldest) {
            self.changes.pop_front();
        }
        if latest.is_empty() {
            return;
        }
        let mut changed = Vec::new();
        let mut closed = Vec::new();
        for (id, open) in latest {
            match self.lines.get(&id) {
                Some(line) if open => changed.push(line.clone()),
                _ => closed.push(id),
            }
        }
        let push = Outgoing::new(ServerMsg::RoomsChanged { changed, closed });
        for (client, outbox) in lobby {
            if client as usize % SLICES == slice {
                outbox.push(&push);
            }
        }
    }

    /// Room `id` opened or changed (`open`), or closed: the whole list is stale, and the
    /// change waits for each slice's next push.
    fn note(&mut self, id: RoomId, open: bool) {
        self.full = None;
        self.changes.push_back((self.next_change, id, open));
        self.next_change += 1;
    }
}
