//! The lobby: the actor that knows every room and every name.
//!
//! It hands out names (unique among people connected or holding a seat) and resume
//! tokens, makes rooms, finds them by number, and keeps the room list fresh for sessions
//! that are in the lobby. Rooms report to it on a separate unbounded notice channel so a
//! busy lobby can never hold up a room.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use banco_protocol::{
    ErrorCode, ErrorMsg, PROTOCOL_VERSION, ResumeToken, RoomId, RoomSettings, RoomSummary,
    ServerMsg, Storage, Welcome,
};
use banco_rules::game::GameSpec;

use crate::ClientId;
use crate::config::Config;
use crate::connection::{Outbox, Outgoing};
use crate::discovery::Census;
use crate::engines::EnginePool;
use crate::names::NameBook;
use crate::room::{self, Guest, RoomContext, RoomHandle};
use crate::store::{LiveGame, LiveSeat, StoreHandle};
use crate::token::TokenHash;

/// Requests from sessions waiting their turn.
const INBOX: usize = 256;

/// The least time between two room lists pushed to the lobby: changes that come faster
/// (a busy server) are gathered into the next list, so a client on a slow link is never
/// sent list after list it cannot read in time.
const LIST_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// The lobby's sessions are told in this many slices, one slice every
/// `LIST_EVERY / SLICES`: each session still hears of a change within [`LIST_EVERY`], and
/// thousands of writes never come in one burst that a request would wait behind.
const SLICES: usize = 5;

/// How long past its room's grace period a held name stays reserved if the room's
/// release never arrives.
const HOLD_SLACK: std::time::Duration = std::time::Duration::from_secs(5);

/// What a room tells the lobby.
#[derive(Debug)]
pub enum RoomNotice {
    /// Its lobby line changed.
    Changed(RoomSummary),
    /// It closed (nobody left in it).
    Closed(RoomId),
    /// The seat held for the token this is the hash of was given up.
    Released(TokenHash),
}

/// A session that just said Hello, as the lobby registered it.
#[derive(Debug)]
pub struct Entered {
    /// The session's number, for everything it asks of the lobby later.
    pub client: ClientId,
    /// The name it goes by (the one asked for, made unique; or the held one on resume).
    pub name: String,
    /// Sent in Welcome; presenting it in a later Hello reclaims a held seat.
    pub token: ResumeToken,
    /// The room holding this player's seat, when the Hello resumed one, and the token
    /// (hashed) the seat is held under.
    pub resume_in: Option<(RoomHandle, TokenHash)>,
}

enum LobbyMsg {
    Enter {
        name: String,
        /// Logged in to the account `name` (not made unique; it takes over its seats).
        account: bool,
        resume: Option<ResumeToken>,
        outbox: Outbox,
        /// Cancelled to close the session (when a newer connection takes over its token).
        cut: CancellationToken,
        reply: oneshot::Sender<Result<Entered, ErrorMsg>>,
    },
    List {
        client: ClientId,
    },
    Create {
        guest: Guest,
        settings: RoomSettings,
        spec: GameSpec,
        reply: oneshot::Sender<Result<RoomHandle, ErrorMsg>>,
    },
    /// Finds room `id` for `client`, who counts as in it from now on (no more room
    /// lists) unless it reports otherwise.
    Find {
        client: ClientId,
        id: RoomId,
        reply: oneshot::Sender<Option<RoomHandle>>,
    },
    /// The session is back in the lobby; `list` sends it the room list.
    Back {
        client: ClientId,
        list: bool,
    },
    /// The session ended; `held_in` is the room keeping its seat, if any.
    Gone {
        client: ClientId,
        held_in: Option<RoomId>,
    },
}

/// The lobby has stopped (the server is shutting down).
#[derive(Debug, Clone, Copy, thiserror::Error)]
#[error("the server is shutting down")]
pub struct LobbyGone;

/// A cheap, cloneable way to talk to the lobby.
#[derive(Clone)]
pub struct LobbyHandle {
    /// The lobby's inbox; bounded, so a flood of requests waits its turn.
    tx: mpsc::Sender<LobbyMsg>,
    /// Rooms and people, as the lobby last counted them (for discovery beacons).
    census: watch::Receiver<Census>,
}

impl LobbyHandle {
    /// Registers a session that said Hello; the lobby sends it `Welcome` (and, unless it
    /// is resuming a seat, the room list).
    pub async fn enter(
        &self,
        name: String,
        account: bool,
        resume: Option<ResumeToken>,
        outbox: Outbox,
        cut: CancellationToken,
    ) -> Result<Result<Entered, ErrorMsg>, LobbyGone> {
        let (reply, answer) = oneshot::channel();
        self.send(LobbyMsg::Enter {
            name,
            account,
            resume,
            outbox,
            cut,
            reply,
        })
        .await?;
        answer.await.map_err(|_| LobbyGone)
    }

    /// Sends the room list to `client`.
    pub async fn list(&self, client: ClientId) -> Result<(), LobbyGone> {
        self.send(LobbyMsg::List { client }).await
    }

    /// Makes a room for `guest`, who is greeted in it (and gets no room lists while there),
    /// unless the server has as many rooms as it allows.
    pub async fn create(
        &self,
        guest: Guest,
        settings: RoomSettings,
        spec: GameSpec,
    ) -> Result<Result<RoomHandle, ErrorMsg>, LobbyGone> {
        let (reply, answer) = oneshot::channel();
        self.send(LobbyMsg::Create {
            guest,
            settings,
            spec,
            reply,
        })
        .await?;
        answer.await.map_err(|_| LobbyGone)
    }

    /// Finds room `id` for `client` to go into; the client gets no room lists while in
    /// it (call [`LobbyHandle::back`] if it does not get in after all).
    pub async fn find(
        &self,
        client: ClientId,
        id: RoomId,
    ) -> Result<Option<RoomHandle>, LobbyGone> {
        let (reply, answer) = oneshot::channel();
        self.send(LobbyMsg::Find { client, id, reply }).await?;
        answer.await.map_err(|_| LobbyGone)
    }

    /// `client` is back in the lobby (it left its room, or never got in); with `list`, it
    /// is sent the room list.
    pub async fn back(&self, client: ClientId, list: bool) {
        let _ = self.send(LobbyMsg::Back { client, list }).await;
    }

    /// Rooms open and people connected, kept current by the lobby.
    pub fn census(&self) -> watch::Receiver<Census> {
        self.census.clone()
    }

    pub async fn gone(&self, client: ClientId, held_in: Option<RoomId>) {
        let _ = self.send(LobbyMsg::Gone { client, held_in }).await;
    }

    async fn send(&self, msg: LobbyMsg) -> Result<(), LobbyGone> {
        self.tx.send(msg).await.map_err(|_| LobbyGone)
    }
}

/// A session picked up again: its name, token, and the room (and the token its seat
/// is held under) it sits in.
type Resumed = (String, ResumeToken, Option<(RoomId, TokenHash)>);

/// A connected session.
struct Session {
    /// The name it goes by, unique among sessions and held seats.
    name: String,
    /// Its resume token: a newer connection presenting it takes over.
    token: ResumeToken,
    /// Where room lists (and Welcome) go.
    outbox: Outbox,
    /// Closes the session.
    cut: CancellationToken,
    /// The room it is in; `None` in the lobby (where it gets room list updates).
    room: Option<RoomId>,
}

/// A seat held for a dropped player: their name stays theirs until it is given up.
struct Held {
    /// Reserved for the player until the seat is given up.
    name: String,
    /// The room holding the seat, where a resume is sent.
    room: RoomId,
    /// When the lobby forgets it even if the room's release never arrives.
    until: Instant,
}

/// A room as the lobby knows it.
struct Listed {
    /// How sessions reach the room.
    handle: RoomHandle,
    /// Its line in the room list, once it has sent one.
    summary: Option<RoomSummary>,
}

struct Lobby {
    /// Handed to every room it makes.
    config: Arc<Config>,
    /// Handed to every room it makes; also drops snapshots it cannot reopen.
    store: StoreHandle,
    /// Handed to every room it makes: where bot moves and hints are searched.
    engines: EnginePool,
    /// Rooms are spawned on it, so shutdown waits for them.
    tracker: TaskTracker,
    /// Stops the lobby and every room.
    shutdown: CancellationToken,
    /// Handed to each room for its notices.
    notices_tx: mpsc::UnboundedSender<RoomNotice>,
    /// Every connected session, by number.
    sessions: HashMap<ClientId, Session>,
    /// Sessions by resume token, so a reconnecting player is found in one lookup.
    by_token: HashMap<ResumeToken, ClientId>,
    /// Names in use, by sessions and held seats, found by their look-alike key.
    names: NameBook,
    /// Seats held for dropped players, by the hash of the token that reclaims them.
    held: HashMap<TokenHash, Held>,
    /// By number, so the list comes out in order.
    rooms: BTreeMap<RoomId, Listed>,
    /// The number the next session gets (never reused).
    next_client: ClientId,
    /// The number the next room gets.
    next_room: RoomId,
    /// Where the counts of rooms and people are published.
    census: watch::Sender<Census>,
    /// Changes to the room list not yet told to every slice, numbered in order: a room
    /// opened or changed (`true`) or closed (`false`).
    changes: std::collections::VecDeque<(u64, RoomId, bool)>,
    /// The number the next change gets.
    next_change: u64,
    /// By slice: changes below this number have been pushed to it.
    told: [u64; SLICES],
    /// The slice pushed next.
    next_slice: usize,
    /// The whole room list, encoded once for everyone who asks until it changes.
    full_list: Option<Outgoing>,
    /// When the last slice was pushed.
    listed_at: Instant,
    /// Whether games are being saved: everyone connected is told when it changes.
    storage: watch::Receiver<Storage>,
}

/// Starts the lobby, reopening the rooms of `restored` games; it runs until `shutdown`.
pub fn spawn(
    config: Arc<Config>,
    store: StoreHandle,
    restored: Vec<LiveGame>,
    engines: EnginePool,
    tracker: &TaskTracker,
    shutdown: CancellationToken,
) -> LobbyHandle {
    let (tx, inbox) = mpsc::channel(INBOX);
    let (notices_tx, notices) = mpsc::unbounded_channel();
    let (census_tx, census) = watch::channel(Census::default());
    let mut lobby = Lobby {
        config,
        engines,
        tracker: tracker.clone(),
        shutdown,
        notices_tx,
        sessions: HashMap::new(),
        by_token: HashMap::new(),
        names: NameBook::default(),
        held: HashMap::new(),
        rooms: BTreeMap::new(),
        next_client: 1,
        next_room: 1,
        census: census_tx,
        changes: std::collections::VecDeque::new(),
        next_change: 0,
        told: [0; SLICES],
        next_slice: 0,
        full_list: None,
        listed_at: Instant::now(),
        storage: store.status(),
        store,
    };
    for live in restored {
        lobby.reopen(live);
    }
    lobby.count();
    tracker.spawn(lobby.run(inbox, notices));
    LobbyHandle { tx, census }
}

impl Lobby {
    async fn run(
        mut self,
        mut inbox: mpsc::Receiver<LobbyMsg>,
        mut notices: mpsc::UnboundedReceiver<RoomNotice>,
    ) {
        let shutdown = self.shutdown.clone();
        let mut storage = self.storage.clone();
        loop {
            let push_at =
                (!self.changes.is_empty()).then_some(self.listed_at + LIST_EVERY / SLICES as u32);
            tokio::select! {
                biased;
                () = shutdown.cancelled() => break,
                Ok(()) = storage.changed() => {
                    let now = storage.borrow_and_update().clone();
                    self.tell_everyone(ServerMsg::Storage(now));
                }
                Some(notice) = notices.recv() => self.on_notice(notice),
                msg = inbox.recv() => match msg {
                    Some(msg) => self.handle(msg),
                    None => break,
                },
                () = sleep_until(push_at), if push_at.is_some() => self.push_rooms(),
            }
            self.count();
        }
    }

    /// Publishes the counts of rooms and people, if they changed.
    fn count(&self) {
        let now = Census {
            rooms: u32::try_from(self.rooms.len()).unwrap_or(u32::MAX),
            players: u32::try_from(self.sessions.len()).unwrap_or(u32::MAX),
        };
        self.census.send_if_modified(|shown| {
            let changed = *shown != now;
            *shown = now;
            changed
        });
    }

    fn handle(&mut self, msg: LobbyMsg) {
        match msg {
            LobbyMsg::Enter {
                name,
                account,
                resume,
                outbox,
                cut,
                reply,
            } => {
                let entered = self.enter(name, account, resume, outbox, cut);
                let _ = reply.send(entered);
            }
            LobbyMsg::List { client } => {
                if self.sessions.contains_key(&client) {
                    let list = self.full_list();
                    if let Some(s) = self.sessions.get(&client) {
                        s.outbox.push(&list);
                    }
                }
            }
            LobbyMsg::Create {
                guest,
                settings,
                spec,
                reply,
            } => {
                if self.rooms.len() >= self.config.max_rooms {
                    let _ = reply.send(Err(ErrorMsg::new(
                        ErrorCode::Busy,
                        format!(
                            "this server has {} rooms open, as many as it allows: join or \
                             watch one of them, or try again later",
                            self.rooms.len()
                        ),
                    )));
                    return;
                }
                let id = self.free_room_number();
                let ctx = self.room_context();
                if let Some(s) = self.sessions.get_mut(&guest.client) {
                    s.room = Some(id);
                }
                let handle = room::spawn(id, settings, spec, guest, ctx, &self.tracker);
                self.rooms.insert(
                    id,
                    Listed {
                        handle: handle.clone(),
                        summary: None,
                    },
                );
                let _ = reply.send(Ok(handle));
            }
            LobbyMsg::Find { client, id, reply } => {
                let found = self.rooms.get(&id).map(|r| r.handle.clone());
                if let Some(s) = self.sessions.get_mut(&client).filter(|_| found.is_some()) {
                    s.room = Some(id);
                }
                let _ = reply.send(found);
            }
            LobbyMsg::Back { client, list } => {
                let list = (list && self.sessions.contains_key(&client)).then(|| self.full_list());
                if let Some(s) = self.sessions.get_mut(&client) {
                    s.room = None;
                    if let Some(list) = list {
                        s.outbox.push(&list);
                    }
                }
            }
            LobbyMsg::Gone { client, held_in } => self.gone(client, held_in),
        }
    }

    /// Reopens the room of a game saved in progress, under the number it had (people
    /// were told "room 7"); its players' names and seats wait for them to come back with
    /// their resume tokens.
    fn reopen(&mut self, live: LiveGame) {
        let id = if live.room != 0 && !self.rooms.contains_key(&live.room) {
            live.room
        } else {
            self.free_room_number()
        };
        self.next_room = self.next_room.max(id.wrapping_add(1)).max(1);
        let key = live.key;
        let seats = live.seats.clone();
        match room::restore(id, live, self.room_context(), &self.tracker) {
            Ok(handle) => {
                tracing::info!(room = id, "reopened a game in progress");
                let until = Instant::now() + self.config.restart_grace * 2 + HOLD_SLACK;
                for seat in seats {
                    if let LiveSeat::Human { name, token } = seat {
                        self.names.keep(&name);
                        self.held.insert(
                            token,
                            Held {
                                name,
                                room: id,
                                until,
                            },
                        );
                    }
                }
                self.rooms.insert(
                    id,
                    Listed {
                        handle,
                        summary: None,
                    },
                );
            }
            Err(why) => {
                // Kept in the store as it is: a later version may reopen it.
                tracing::error!(key, %why, "a saved game in progress cannot be reopened; it is kept but not played");
            }
        }
    }

    /// The next room number no open room has (numbers of reopened rooms are kept, so
    /// the count skips them).
    fn free_room_number(&mut self) -> RoomId {
        loop {
            let id = self.next_room;
            self.next_room = self.next_room.wrapping_add(1).max(1);
            if !self.rooms.contains_key(&id) {
                return id;
            }
        }
    }

    fn room_context(&self) -> RoomContext {
        RoomContext {
            config: self.config.clone(),
            store: self.store.clone(),
            engines: self.engines.clone(),
            lobby: self.notices_tx.clone(),
            shutdown: self.shutdown.clone(),
        }
    }

    fn enter(
        &mut self,
        asked: String,
        account: bool,
        resume: Option<ResumeToken>,
        outbox: Outbox,
        cut: CancellationToken,
    ) -> Result<Entered, ErrorMsg> {
        self.forget_expired_holds();

        // A token is proof enough of a seat, except for someone logged in to another
        // account; logging in brings back the account's held seat and takes over its
        // other connection, token or not. A held seat or a live session handed over
        // keeps its name (no claim).
        let same = |name: &str| !account || name.to_lowercase() == asked.to_lowercase();
        let mut resumed: Option<Resumed> = None;
        if let Some(token) = resume {
            let hash = TokenHash::of(&token);
            if let Some(held) = self.held.get(&hash).filter(|h| same(&h.name)) {
                let room = held.room;
                let name = held.name.clone();
                self.held.remove(&hash);
                resumed = Some((name, token, Some((room, hash))));
            } else if let Some(old) = self
                .by_token
                .get(&token)
                .copied()
                .filter(|old| self.sessions.get(old).is_some_and(|s| same(&s.name)))
            {
                resumed = self.take_over(old);
            }
        }
        if account && resumed.is_none() {
            let key = asked.to_lowercase();
            if let Some(hash) = self
                .held
                .iter()
                .find(|(_, h)| h.name.to_lowercase() == key)
                .map(|(hash, _)| *hash)
                && let Some(held) = self.held.remove(&hash)
            {
                resumed = Some((
                    held.name,
                    ResumeToken(rand::random()),
                    Some((held.room, hash)),
                ));
            } else if self.sessions.values().any(|s| s.name.to_lowercase() == key) {
                // Not taken over: two clients of one account would take it from each
                // other for ever, each dialling again. A client that lost its link comes
                // back with its token (above), or once the server has noticed the loss.
                return Err(ErrorMsg::new(
                    ErrorCode::NameTaken,
                    format!(
                        "{asked} is logged in on another connection: quit there first (a \
                         connection that was cut is noticed within {} seconds)",
                        banco_protocol::HEARTBEAT_TIMEOUT_SECS
                    ),
                ));
            }
        }
        let (name, token, room) = match resumed {
            Some(resumed) => resumed,
            None if account => {
                // Nobody else can hold an account's name: guests' names are marked.
                let name = self.names.claim(&asked)?;
                if name != asked {
                    self.names.release(&name);
                    return Err(ErrorMsg::new(
                        ErrorCode::Busy,
                        format!("{asked} is still leaving the server: try again in a moment"),
                    ));
                }
                (name, ResumeToken(rand::random()), None)
            }
            None => (self.names.claim(&asked)?, ResumeToken(rand::random()), None),
        };
        let client = self.next_client;
        self.next_client += 1;
        let resume_in =
            room.and_then(|(id, seat)| self.rooms.get(&id).map(|r| (r.handle.clone(), seat)));
        outbox.send(ServerMsg::Welcome(Welcome {
            version: PROTOCOL_VERSION,
            name: name.clone(),
            server: self.config.name.clone(),
            resume: token,
            account,
        }));
        let storage = self.storage.borrow().clone();
        if storage != Storage::Saving {
            outbox.send(ServerMsg::Storage(storage));
        }
        if resume_in.is_none() {
            outbox.push(&self.full_list());
        }
        tracing::info!(client, %name, account, resumed = resume_in.is_some(), "player entered");
        self.by_token.insert(token, client);
        self.sessions.insert(
            client,
            Session {
                name: name.clone(),
                token,
                outbox,
                cut,
                room: resume_in.as_ref().map(|(r, _)| r.id()),
            },
        );
        Ok(Entered {
            client,
            name,
            token,
            resume_in,
        })
    }

    /// The same player on a new connection (it presented the old one's token): the old
    /// one is left behind, its name, token and room go to the new one.
    fn take_over(&mut self, old: ClientId) -> Option<Resumed> {
        let old = self.sessions.remove(&old)?;
        self.by_token.remove(&old.token);
        tracing::info!(name = %old.name, "a new connection takes over a session");
        old.cut.cancel();
        let seat = TokenHash::of(&old.token);
        Some((old.name, old.token, old.room.map(|room| (room, seat))))
    }

    fn gone(&mut self, client: ClientId, held_in: Option<RoomId>) {
        let Some(session) = self.sessions.remove(&client) else {
            return;
        };
        self.by_token.remove(&session.token);
        tracing::info!(client, name = %session.name, held = held_in.is_some(), "player left the server");
        match held_in {
            // The name stays taken while the seat waits for its player.
            Some(room) => {
                self.held.insert(
                    TokenHash::of(&session.token),
                    Held {
                        name: session.name,
                        room,
                        until: Instant::now()
                            + self.config.grace * 2
                            + std::time::Duration::from_secs(5),
                    },
                );
            }
            None => self.names.release(&session.name),
        }
    }

    fn on_notice(&mut self, notice: RoomNotice) {
        match notice {
            RoomNotice::Changed(summary) => {
                let id = summary.id;
                if let Some(listed) = self.rooms.get_mut(&id) {
                    listed.summary = Some(summary);
                    self.note_change(id, true);
                }
            }
            RoomNotice::Closed(id) => {
                if let Some(listed) = self.rooms.remove(&id)
                    && listed.summary.is_some()
                {
                    self.note_change(id, false);
                }
                let gone: Vec<TokenHash> = self
                    .held
                    .iter()
                    .filter(|(_, h)| h.room == id)
                    .map(|(token, _)| *token)
                    .collect();
                for token in gone {
                    self.release_hold(&token);
                }
            }
            RoomNotice::Released(token) => self.release_hold(&token),
        }
    }

    /// A held seat is given up: its name is free again.
    fn release_hold(&mut self, token: &TokenHash) {
        if let Some(held) = self.held.remove(token) {
            self.names.release(&held.name);
        }
    }

    /// Holds whose release was lost are forgotten after a while, freeing their names.
    fn forget_expired_holds(&mut self) {
        let now = Instant::now();
        let expired: Vec<TokenHash> = self
            .held
            .iter()
            .filter(|(_, h)| h.until <= now)
            .map(|(token, _)| *token)
            .collect();
        for token in expired {
            self.release_hold(&token);
        }
    }

    /// The whole room list as one message, encoded once until the list changes.
    fn full_list(&mut self) -> Outgoing {
        if let Some(list) = &self.full_list {
            return list.clone();
        }
        let list = Outgoing::new(ServerMsg::Rooms(
            self.rooms
                .values()
                .filter_map(|r| r.summary.clone())
                .collect(),
        ));
        self.full_list = Some(list.clone());
        list
    }

    /// Room `id` opened or changed (`open`), or closed: the whole list is stale, and the
    /// change waits for each slice's next push.
    fn note_change(&mut self, id: RoomId, open: bool) {
        self.full_list = None;
        self.changes.push_back((self.next_change, id, open));
        self.next_change += 1;
    }

    /// Sends `msg` to every connected session, in the lobby or in a room.
    fn tell_everyone(&self, msg: ServerMsg) {
        let out = Outgoing::new(msg);
        for s in self.sessions.values() {
            s.outbox.push(&out);
        }
    }

    /// Sends the next slice of the lobby's sessions what changed in the room list since
    /// that slice was last told, and forgets changes every slice has heard.
    fn push_rooms(&mut self) {
        let slice = self.next_slice;
        self.next_slice = (slice + 1) % SLICES;
        self.listed_at = Instant::now();
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
            match self.rooms.get(&id).and_then(|r| r.summary.clone()) {
                Some(line) if open => changed.push(line),
                _ => closed.push(id),
            }
        }
        let push = Outgoing::new(ServerMsg::RoomsChanged { changed, closed });
        for (client, s) in &self.sessions {
            if s.room.is_none() && *client as usize % SLICES == slice {
                s.outbox.push(&push);
            }
        }
    }
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_protocol::{
        GameSettings, Level, MAX_NAME_CHARS, MAX_SERVER_FRAME, RoomStatus, SeatKind, TimeControl,
        wire,
    };

    /// Room lists and pushes in `rx` so far, applied to the list a client keeps: (full
    /// lists, change pushes, the rooms the client knows of).
    fn lists(rx: &mut crate::connection::TestInbox, kept: &mut Vec<RoomSummary>) -> (usize, usize) {
        let (mut full, mut pushes) = (0, 0);
        while let Some(msg) = rx.try_recv() {
            match msg {
                ServerMsg::Rooms(list) => {
                    full += 1;
                    *kept = list;
                }
                ServerMsg::RoomsChanged { changed, closed } => {
                    pushes += 1;
                    banco_protocol::apply_room_changes(kept, &changed, &closed);
                }
                _ => {}
            }
        }
        (full, pushes)
    }

    #[tokio::test(start_paused = true)]
    async fn a_burst_of_changes_is_pushed_as_few_small_changes() {
        let store = crate::store::Store::open(&crate::StoreLocation::Memory).unwrap();
        let tracker = TaskTracker::new();
        let shutdown = CancellationToken::new();
        let config = Arc::new(Config {
            discovery: None,
            ..Config::default()
        });
        let lobby = spawn(
            config,
            store.handle(),
            Vec::new(),
            crate::engines::EnginePool::start(1, 1 << 20).unwrap(),
            &tracker,
            shutdown.clone(),
        );
        let (outbox, mut rx) = Outbox::for_test(1 << 20);
        lobby
            .enter("Lan".into(), false, None, outbox, CancellationToken::new())
            .await
            .unwrap()
            .unwrap();
        let settings = RoomSettings::default();
        let spec = crate::room::settings::validate(&settings).unwrap();
        let mut kept = Vec::new();
        let mut rooms = Vec::new();
        for i in 0..20 {
            let (outbox, _rx) = Outbox::for_test(64 * 1024);
            let guest = Guest {
                client: 1000 + i,
                name: format!("P{i}"),
                token: ResumeToken([i as u8; 16]),
                outbox,
            };
            let room = lobby
                .create(guest, settings.clone(), spec.clone())
                .await
                .unwrap()
                .unwrap();
            rooms.push(room);
        }
        // Time stands still while the rooms open; then it moves past the pause.
        tokio::time::sleep(LIST_EVERY * 2).await;
        let (full, pushes) = lists(&mut rx, &mut kept);
        assert_eq!(full, 1, "one whole list, on entering");
        assert!(pushes <= 4, "{pushes} pushes for one burst of 20 rooms");
        assert_eq!(kept.len(), 20, "the kept list has every room");
        assert!(kept.windows(2).all(|w| w[0].id < w[1].id));

        // Rooms closing travel as their numbers.
        for (i, room) in rooms.drain(..5).enumerate() {
            // The only person in the room leaves: it closes.
            room.leave(1000 + i as ClientId).await;
        }
        tokio::time::sleep(LIST_EVERY * 2).await;
        let (full, _) = lists(&mut rx, &mut kept);
        assert_eq!(full, 0);
        assert_eq!(kept.len(), 15, "{kept:?}");
        shutdown.cancel();
        tracker.close();
        tracker.wait().await;
        store.close();
    }

    #[test]
    fn a_full_room_list_fits_in_a_frame() {
        // The largest line a room can have: a maximal FEN, two maximal names of
        // four-byte characters, bots in both seats, a clock.
        let name = "𝄞".repeat(MAX_NAME_CHARS);
        let line = RoomSummary {
            id: u32::MAX,
            settings: RoomSettings {
                game: GameSettings::Xiangqi {
                    fen: Some("r".repeat(crate::room::settings::MAX_FEN)),
                },
                time: TimeControl::Clock {
                    initial_millis: u64::MAX,
                    increment_millis: u64::MAX,
                },
                seats: [SeatKind::Bot(Level::Max), SeatKind::Bot(Level::Max)],
                ..RoomSettings::default()
            },
            players: [Some(name.clone()), Some(name)],
            spectators: u32::MAX,
            status: RoomStatus::Playing,
        };
        let list = ServerMsg::Rooms(vec![line; Config::default().max_rooms]);
        let bytes = wire::encode(&list).unwrap();
        assert!(
            bytes.len() < MAX_SERVER_FRAME / 2,
            "{} bytes for the room list",
            bytes.len()
        );
    }
}
