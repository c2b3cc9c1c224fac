//! The lobby: the actor that knows every room and every name.
//!
//! It hands out names (unique among people connected or holding a seat) and resume
//! tokens, makes rooms, finds them by number, and keeps the room list fresh for sessions
//! that are in the lobby. Rooms report to it on a separate unbounded notice channel so a
//! busy lobby can never hold up a room.
//!
//! The actor ([`spawn`], [`LobbyHandle`]) keeps the sessions and routes each request to
//! the book that owns it:
//!
//! - [`name_book`]: the names in use, by look-alike key;
//! - [`held`]: the seats held for dropped players, by the hash of their token, counted
//!   per machine and per account;
//! - [`rooms`]: the room directory, with who made each room (for the per-player cap);
//! - [`room_list`]: the room-list broadcaster, pushing changes to the lobby in slices;
//! - [`challenges`] (and `challenging`, the lobby's side): the challenges waiting for an answer, their limits and expiry, and
//!   the waits after declines. An accepted challenge makes a room with both seats kept
//!   ([`room::spawn_reserved`]) and places both players in it: the one who accepted by
//!   the answer to its request, the challenger by its session's [`Placements`].
//!
//! - [`tournaments`]: the tournament directory: requests routed to each tournament's
//!   actor with who asks, their list lines, and their boards' rooms opened (players who
//!   are free placed there, every player told).
//!
//! A resume token is bound to the kind of session it was given to: a guest's token only
//! brings back a guest's seat, an account's only a login to that same account.

pub mod challenges;
mod challenging;
pub mod held;
pub mod name_book;
pub mod placements;
pub mod room_list;
pub mod rooms;
pub mod tournaments;

use std::collections::HashMap;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use banco_protocol::{
    AccountToken, ChallengeId, ChallengePolicy, DeclineReason, ErrorCode, ErrorMsg,
    PROTOCOL_VERSION, ResumeToken, RoomId, RoomSettings, RoomSummary, ServerMsg, Storage, Welcome,
};
use banco_rules::game::GameSpec;

use crate::ClientId;
use crate::admission::AddressKey;
use crate::config::Config;
use crate::connection::Outbox;
use crate::discovery::Census;
use crate::engines::EnginePool;
use crate::room::{self, Guest, RoomContext, RoomHandle};
use crate::store::{LiveGame, LiveMatch, LiveSeat, StoreHandle};
use crate::token::TokenHash;
use challenges::{ChallengeBook, ChallengeLimits};
use held::{Held, HeldSeats};
use name_book::NameBook;
pub use placements::Placements;
use room_list::RoomList;
use rooms::{Maker, RoomDirectory};
use tournaments::{TournamentAsk, TournamentBook};

/// Requests from sessions waiting their turn.
const INBOX: usize = 256;

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
    /// A tournament's board has its result (on disk): for its tournament.
    Board(room::BoardReport),
}

/// Challenges one player may have waiting for an answer at once.
const CHALLENGES_WAITING_PER_PLAYER: usize = 10;

/// Who says Hello, as the lobby needs to know them.
#[derive(Debug, Clone)]
pub struct Arrival {
    /// The name asked for (cleaned), or the account's name as registered.
    pub name: String,
    /// Logged in to the account `name` (not made unique; it takes over its seats).
    pub account: bool,
    /// The account is a bot account (an engine's).
    pub bot: bool,
    /// A guest whose name is an account's: let in only to take back its own guest seat
    /// or session with its token, never under the name anew.
    pub returning: bool,
    /// The token presented to take a seat or a session back.
    pub resume: Option<ResumeToken>,
    /// The machine it connects from, for the per-player caps.
    pub address: AddressKey,
    /// An account token made for this login (it asked to be remembered), told in
    /// Welcome.
    pub account_token: Option<AccountToken>,
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
        arrival: Arrival,
        outbox: Outbox,
        /// Cancelled to close the session (when a newer connection takes over its token).
        cut: CancellationToken,
        /// Where the session is told of rooms the lobby places it in.
        place: Placements,
        reply: oneshot::Sender<Result<Entered, ErrorMsg>>,
    },
    /// `client` challenges `to` (`None`: anyone) to a room of `settings`. Answers the
    /// room to sit in when the server's bot took it at once.
    Challenge {
        client: ClientId,
        to: Option<String>,
        settings: RoomSettings,
        spec: GameSpec,
        reply: oneshot::Sender<Result<Option<RoomHandle>, ErrorMsg>>,
    },
    /// `client` takes challenge `id`: answers the room to sit in.
    Accept {
        client: ClientId,
        id: ChallengeId,
        reply: oneshot::Sender<Result<RoomHandle, ErrorMsg>>,
    },
    /// `client` refuses challenge `id` (answered on its outbox).
    Decline {
        client: ClientId,
        id: ChallengeId,
        reason: DeclineReason,
    },
    /// `client` calls off its challenge `id` (answered on its outbox).
    Cancel {
        client: ClientId,
        id: ChallengeId,
    },
    /// Who may challenge `client` from now on (answered on its outbox).
    SetChallenges {
        client: ClientId,
        policy: ChallengePolicy,
    },
    /// The people list, sent to `client`.
    Players {
        client: ClientId,
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
    /// Whether the session's seat may be held if it drops now (its machine and account
    /// hold fewer seats than a player may).
    MayHold {
        client: ClientId,
        reply: oneshot::Sender<bool>,
    },
    /// The session ended; `held_in` is the room keeping its seat, if any.
    Gone {
        client: ClientId,
        held_in: Option<RoomId>,
    },
    /// `client` asks something about tournaments (answered on its outbox).
    Tournament {
        client: ClientId,
        ask: TournamentAsk,
    },
    /// A tournament's list line changed.
    TournamentChanged(banco_protocol::TournamentSummary),
    /// Tournament `id` exported as `format` (the HTTP download).
    ExportTournament {
        id: banco_protocol::TournamentId,
        format: banco_protocol::ExportFormat,
        reply: oneshot::Sender<Result<(String, String), ErrorMsg>>,
    },
    /// A tournament's boards to open: answers each board's room.
    OpenBoards {
        boards: Vec<crate::tournament::BoardOpening>,
        reply: oneshot::Sender<Vec<Option<RoomId>>>,
    },
    /// Which of these names are connected now (an arena pairs only those).
    Present {
        names: Vec<String>,
        reply: oneshot::Sender<Vec<bool>>,
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
        arrival: Arrival,
        outbox: Outbox,
        cut: CancellationToken,
        place: Placements,
    ) -> Result<Result<Entered, ErrorMsg>, LobbyGone> {
        let (reply, answer) = oneshot::channel();
        self.send(LobbyMsg::Enter {
            arrival,
            outbox,
            cut,
            place,
            reply,
        })
        .await?;
        answer.await.map_err(|_| LobbyGone)
    }

    /// Sends `client`'s challenge to `to` (`None`: an open one); `Ok(Some(room))` when
    /// the server's bot took it at once: sit there.
    pub async fn challenge(
        &self,
        client: ClientId,
        to: Option<String>,
        settings: RoomSettings,
        spec: GameSpec,
    ) -> Result<Result<Option<RoomHandle>, ErrorMsg>, LobbyGone> {
        let (reply, answer) = oneshot::channel();
        self.send(LobbyMsg::Challenge {
            client,
            to,
            settings,
            spec,
            reply,
        })
        .await?;
        answer.await.map_err(|_| LobbyGone)
    }

    /// `client` takes challenge `id`: the room to sit in (a seat is kept there).
    pub async fn accept(
        &self,
        client: ClientId,
        id: ChallengeId,
    ) -> Result<Result<RoomHandle, ErrorMsg>, LobbyGone> {
        let (reply, answer) = oneshot::channel();
        self.send(LobbyMsg::Accept { client, id, reply }).await?;
        answer.await.map_err(|_| LobbyGone)
    }

    /// `client` declines challenge `id`; the lobby answers on its outbox.
    pub async fn decline(&self, client: ClientId, id: ChallengeId, reason: DeclineReason) {
        let _ = self.send(LobbyMsg::Decline { client, id, reason }).await;
    }

    /// `client` cancels its challenge `id`; the lobby answers on its outbox.
    pub async fn cancel(&self, client: ClientId, id: ChallengeId) {
        let _ = self.send(LobbyMsg::Cancel { client, id }).await;
    }

    /// Who may challenge `client`; the lobby answers on its outbox.
    pub async fn set_challenges(&self, client: ClientId, policy: ChallengePolicy) {
        let _ = self.send(LobbyMsg::SetChallenges { client, policy }).await;
    }

    /// Sends the people list to `client`.
    pub async fn players(&self, client: ClientId) {
        let _ = self.send(LobbyMsg::Players { client }).await;
    }

    /// Sends the room list to `client`.
    pub async fn list(&self, client: ClientId) -> Result<(), LobbyGone> {
        self.send(LobbyMsg::List { client }).await
    }

    /// Makes a room for `guest`, who is greeted in it (and gets no room lists while there),
    /// unless the server has as many rooms as it allows, or the guest's machine or
    /// account has as many open as one player may.
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

    /// Whether `client`'s seat may be held for it if it drops now; `false` once its
    /// machine or account holds `Config::held_per_player` seats (or the lobby is gone).
    pub async fn may_hold(&self, client: ClientId) -> bool {
        let (reply, answer) = oneshot::channel();
        if self
            .send(LobbyMsg::MayHold { client, reply })
            .await
            .is_err()
        {
            return false;
        }
        answer.await.unwrap_or(false)
    }

    /// Rooms open and people connected, kept current by the lobby.
    pub fn census(&self) -> watch::Receiver<Census> {
        self.census.clone()
    }

    /// The session ended; `held_in` is the room holding its seat, if any.
    pub async fn gone(&self, client: ClientId, held_in: Option<RoomId>) {
        let _ = self.send(LobbyMsg::Gone { client, held_in }).await;
    }

    /// `client` asks something about tournaments; the answer goes to its outbox.
    pub async fn tournament(&self, client: ClientId, ask: TournamentAsk) -> Result<(), LobbyGone> {
        self.send(LobbyMsg::Tournament { client, ask }).await
    }

    /// Tournament `id` exported as `format`: a file name and its text.
    pub async fn export_tournament(
        &self,
        id: banco_protocol::TournamentId,
        format: banco_protocol::ExportFormat,
    ) -> Result<Result<(String, String), ErrorMsg>, LobbyGone> {
        let (reply, answer) = oneshot::channel();
        self.send(LobbyMsg::ExportTournament { id, format, reply })
            .await?;
        answer.await.map_err(|_| LobbyGone)
    }

    /// A tournament's list line changed.
    pub async fn tournament_changed(&self, summary: banco_protocol::TournamentSummary) {
        let _ = self.send(LobbyMsg::TournamentChanged(summary)).await;
    }

    /// Opens the rooms of a tournament's boards: each board's room (`None`: not opened).
    pub async fn open_boards(
        &self,
        boards: Vec<crate::tournament::BoardOpening>,
    ) -> Result<Vec<Option<RoomId>>, LobbyGone> {
        let (reply, answer) = oneshot::channel();
        self.send(LobbyMsg::OpenBoards { boards, reply }).await?;
        answer.await.map_err(|_| LobbyGone)
    }

    /// Which of `names` are connected now, by name.
    pub async fn present(&self, names: Vec<String>) -> Result<Vec<bool>, LobbyGone> {
        let (reply, answer) = oneshot::channel();
        self.send(LobbyMsg::Present { names, reply }).await?;
        answer.await.map_err(|_| LobbyGone)
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
    /// Logged in to the account `name`, else a guest: its token resumes only the same.
    account: bool,
    /// The account is a bot account (an engine's).
    bot: bool,
    /// Who may challenge it.
    policy: ChallengePolicy,
    /// Where it is told of rooms the lobby places it in.
    place: Placements,
    /// Its resume token: a newer connection presenting it takes over.
    token: ResumeToken,
    /// The machine it connects from: its rooms and held seats count against it.
    address: AddressKey,
    /// Where room lists (and Welcome) go.
    outbox: Outbox,
    /// Closes the session.
    cut: CancellationToken,
    /// The room it is in; `None` in the lobby (where it gets room list updates).
    room: Option<RoomId>,
    /// A held seat was promised to it as it drops (counted against its machine and
    /// account until its end is reported, so drops at once cannot all pass the cap).
    hold_promised: bool,
}

impl Session {
    /// Who the session's rooms are counted against.
    fn maker(&self) -> Maker {
        Maker {
            address: self.address,
            account: self.account.then(|| self.name.to_lowercase()),
        }
    }
}

struct Lobby {
    /// Handed to every room it makes; the caps on rooms and held seats.
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
    /// Seats held for dropped players.
    held: HeldSeats,
    /// Every open room, by number.
    rooms: RoomDirectory,
    /// The lobby's room list and the changes still to push.
    list: RoomList,
    /// The number the next session gets (never reused).
    next_client: ClientId,
    /// Where the counts of rooms and people are published.
    census: watch::Sender<Census>,
    /// Whether games are being saved: everyone connected is told when it changes.
    storage: watch::Receiver<Storage>,
    /// Challenges waiting for an answer.
    challenges: ChallengeBook,
    /// A handle to this very lobby, for the tournaments it starts.
    me: LobbyHandle,
    /// Every tournament.
    tournaments: TournamentBook,
}

/// What was being played when the server last stopped, to reopen.
#[derive(Debug, Default)]
pub struct Restored {
    /// Games in progress (some of them games of `matches`).
    pub games: Vec<LiveGame>,
    /// Matches being played: with one of `games` in progress, or between two games.
    pub matches: Vec<LiveMatch>,
    /// Every tournament the store kept.
    pub tournaments: Vec<crate::store::tournaments::StoredTournament>,
}

/// Starts the lobby, reopening the rooms of `restored` games and matches; it runs until
/// `shutdown`.
pub fn spawn(
    config: Arc<Config>,
    store: StoreHandle,
    restored: Restored,
    engines: EnginePool,
    tracker: &TaskTracker,
    shutdown: CancellationToken,
) -> LobbyHandle {
    let (tx, inbox) = mpsc::channel(INBOX);
    let (notices_tx, notices) = mpsc::unbounded_channel();
    let (census_tx, census) = watch::channel(Census::default());
    let me = LobbyHandle {
        tx: tx.clone(),
        census: census.clone(),
    };
    let mut lobby = Lobby {
        me: me.clone(),
        tournaments: TournamentBook::default(),
        config: config.clone(),
        engines,
        tracker: tracker.clone(),
        shutdown,
        notices_tx,
        sessions: HashMap::new(),
        by_token: HashMap::new(),
        names: NameBook::default(),
        held: HeldSeats::default(),
        rooms: RoomDirectory::default(),
        list: RoomList::default(),
        next_client: 1,
        census: census_tx,
        storage: store.status(),
        store,
        challenges: ChallengeBook::new(ChallengeLimits {
            per_player: config.challenges_per_player,
            waiting_per_player: CHALLENGES_WAITING_PER_PLAYER,
            declined_wait: config.challenge_declined_wait,
            expiry: config.challenge_wait,
            open_expiry: config.open_challenge_wait,
        }),
    };
    let Restored {
        games,
        mut matches,
        tournaments,
    } = restored;
    for live in games {
        let in_match = live.in_match.and_then(|link| {
            let at = matches.iter().position(|m| m.key == link.key)?;
            Some(matches.swap_remove(at))
        });
        lobby.reopen(live, in_match);
    }
    // The rest fell between two of their games.
    for live in matches {
        lobby.reopen_break(live);
    }
    // After the rooms: a tournament finds its boards' rooms again.
    lobby.restore_tournaments(tournaments);
    lobby.count();
    tracker.spawn(lobby.run(inbox, notices));
    me
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
            let push_at = self.list.next_push();
            let lapse_at = self.challenges.next_expiry();
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
                () = sleep_until(lapse_at), if lapse_at.is_some() => self.expire_challenges(),
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
                arrival,
                outbox,
                cut,
                place,
                reply,
            } => {
                let entered = self.enter(arrival, outbox, cut, place);
                let _ = reply.send(entered);
            }
            LobbyMsg::Challenge {
                client,
                to,
                settings,
                spec,
                reply,
            } => {
                let _ = reply.send(self.challenge(client, to, settings, spec));
            }
            LobbyMsg::Accept { client, id, reply } => {
                let _ = reply.send(self.accept(client, id));
            }
            LobbyMsg::Decline { client, id, reason } => self.decline(client, id, reason),
            LobbyMsg::Cancel { client, id } => self.cancel(client, id),
            LobbyMsg::SetChallenges { client, policy } => {
                if let Some(s) = self.sessions.get_mut(&client) {
                    s.policy = policy;
                    s.outbox.send(ServerMsg::ChallengesSet(policy));
                }
            }
            LobbyMsg::Players { client } => {
                let list = self.players();
                if let Some(s) = self.sessions.get(&client) {
                    s.outbox.send(ServerMsg::Players(list));
                }
            }
            LobbyMsg::List { client } => {
                if self.sessions.contains_key(&client) {
                    let list = self.list.full();
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
                let _ = reply.send(self.create(guest, settings, spec));
            }
            LobbyMsg::Find { client, id, reply } => {
                let found = self.rooms.get(id).cloned();
                if let Some(s) = self.sessions.get_mut(&client).filter(|_| found.is_some()) {
                    s.room = Some(id);
                }
                let _ = reply.send(found);
            }
            LobbyMsg::Back { client, list } => {
                let list = (list && self.sessions.contains_key(&client)).then(|| self.list.full());
                if let Some(s) = self.sessions.get_mut(&client) {
                    s.room = None;
                    if let Some(list) = list {
                        s.outbox.push(&list);
                    }
                }
            }
            LobbyMsg::MayHold { client, reply } => {
                let may = self.may_hold(client);
                if let Some(s) = self.sessions.get_mut(&client) {
                    s.hold_promised = may;
                }
                let _ = reply.send(may);
            }
            LobbyMsg::Gone { client, held_in } => self.gone(client, held_in),
            LobbyMsg::Tournament { client, ask } => self.tournament(client, ask),
            LobbyMsg::TournamentChanged(summary) => self.tournament_changed(summary),
            LobbyMsg::ExportTournament { id, format, reply } => {
                self.export_tournament(id, format, reply);
            }
            LobbyMsg::OpenBoards { boards, reply } => {
                let _ = reply.send(self.open_boards(boards));
            }
            LobbyMsg::Present { names, reply } => {
                let _ = reply.send(names.iter().map(|n| self.named(n).is_some()).collect());
            }
        }
    }

    /// Whether `client`'s seat may be held as it drops: its machine and its account hold
    /// fewer seats than a player may, counting seats promised to sessions still ending.
    fn may_hold(&self, client: ClientId) -> bool {
        let Some(me) = self.sessions.get(&client) else {
            return false;
        };
        let account = me.account.then(|| me.name.to_lowercase());
        let promised = self
            .sessions
            .values()
            .filter(|s| s.hold_promised)
            .filter(|s| {
                s.address == me.address
                    || (s.account && account.as_deref() == Some(s.name.to_lowercase().as_str()))
            })
            .count();
        let held = self.held.held_for(me.address, account.as_deref());
        held + promised < self.config.held_per_player
    }

    /// Makes a room for `guest`, unless the server or its player has as many as allowed.
    fn create(
        &mut self,
        guest: Guest,
        settings: RoomSettings,
        spec: GameSpec,
    ) -> Result<RoomHandle, ErrorMsg> {
        let maker = self.sessions.get(&guest.client).map(Session::maker);
        self.room_allowed(maker.as_ref())?;
        let id = self.rooms.free_number();
        let ctx = self.room_context();
        if let Some(s) = self.sessions.get_mut(&guest.client) {
            s.room = Some(id);
        }
        let handle = room::spawn(id, settings, spec, guest, ctx, &self.tracker);
        self.rooms.open(id, handle.clone(), maker);
        Ok(handle)
    }

    /// Whether one more room may open, made by `maker`: the server and its player have
    /// fewer than allowed.
    fn room_allowed(&self, maker: Option<&Maker>) -> Result<(), ErrorMsg> {
        if self.rooms.len() >= self.config.max_rooms {
            return Err(ErrorMsg::new(
                ErrorCode::Busy,
                format!(
                    "this server has {} rooms open, as many as it allows: join or watch one \
                     of them, or try again later",
                    self.rooms.len()
                ),
            ));
        }
        if let Some(maker) = maker {
            let made = self.rooms.made_by(maker);
            if made >= self.config.rooms_per_player {
                tracing::info!(address = %maker.address, made, "room refused: the player's rooms are full");
                return Err(ErrorMsg::new(
                    ErrorCode::Busy,
                    format!(
                        "{made} rooms made from your machine or account are open, as many as \
                         one player may have: play in one of them, or wait for one to close \
                         (a room whose maker dropped closes once their seat is given up)"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Reopens the room of a game saved in progress, under the number it had (people
    /// were told "room 7"); its players' names and seats wait for them to come back with
    /// their resume tokens.
    fn reopen(&mut self, live: LiveGame, in_match: Option<LiveMatch>) {
        let id = self.reopened_number(live.room);
        let key = live.key;
        let seats = live.seats.clone();
        match room::restore(id, live, in_match, self.room_context(), &self.tracker) {
            Ok(handle) => {
                tracing::info!(room = id, "reopened a game in progress");
                self.hold_reopened(id, seats, handle);
            }
            Err(why) => {
                // Kept in the store as it is: a later version may reopen it.
                tracing::error!(key, %why, "a saved game in progress cannot be reopened; it is kept but not played");
            }
        }
    }

    /// Reopens the room of a match the server stopped between two of its games, as
    /// [`Lobby::reopen`] does a game's.
    fn reopen_break(&mut self, live: LiveMatch) {
        let id = self.reopened_number(live.room);
        let key = live.key;
        let seats = live.seats.clone();
        match room::restore_break(id, live, self.room_context(), &self.tracker) {
            Ok(handle) => {
                tracing::info!(room = id, "reopened a match between two games");
                self.hold_reopened(id, seats, handle);
            }
            Err(why) => {
                tracing::error!(key, %why, "a saved match cannot be reopened; it is kept but not played");
            }
        }
    }

    /// The number a reopened room gets: the one it had, unless another room has it.
    fn reopened_number(&mut self, was: RoomId) -> RoomId {
        let id = if was != 0 && !self.rooms.contains(was) {
            was
        } else {
            self.rooms.free_number()
        };
        self.rooms.skip_past(id);
        id
    }

    /// Opens the reopened room `id`, its people's seats held for them.
    fn hold_reopened(&mut self, id: RoomId, seats: [LiveSeat; 2], handle: RoomHandle) {
        let until = Instant::now() + self.config.restart_grace * 2 + HOLD_SLACK;
        for seat in seats {
            if let LiveSeat::Human { name, token } = seat {
                self.names.keep(&name);
                self.held.hold(
                    token,
                    Held {
                        name,
                        room: id,
                        until,
                        address: None,
                        account: None,
                    },
                );
            }
        }
        self.rooms.open(id, handle, None);
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
        arrival: Arrival,
        outbox: Outbox,
        cut: CancellationToken,
        place: Placements,
    ) -> Result<Entered, ErrorMsg> {
        self.forget_expired_holds();
        let Arrival {
            name: asked,
            account,
            bot,
            returning,
            resume,
            address,
            account_token,
        } = arrival;

        // A token is proof enough of a seat or a session of its own kind: a guest's
        // token brings back a guest's, an account's only a login to that account.
        // Logging in brings back the account's held seat, token or not. A held seat or a
        // live session handed over keeps its name (no claim).
        let key = asked.to_lowercase();
        let same = |name: &str, was_account: Option<bool>| {
            was_account.is_none_or(|was| was == account) && (!account || name.to_lowercase() == key)
        };
        let mut resumed: Option<Resumed> = None;
        if let Some(token) = resume {
            let hash = TokenHash::of(&token);
            if self
                .held
                .get(&hash)
                .is_some_and(|h| same(&h.name, h.account))
                && let Some(held) = self.held.take(&hash)
            {
                resumed = Some((held.name, token, Some((held.room, hash))));
            } else if let Some(old) = self.by_token.get(&token).copied().filter(|old| {
                self.sessions
                    .get(old)
                    .is_some_and(|s| same(&s.name, Some(s.account)))
            }) {
                resumed = self.take_over(old);
            }
        }
        if returning && resumed.is_none() {
            // The token proved nothing: the name is an account's, and a guest takes it
            // only to come back to the seat they had under it.
            return Err(ErrorMsg::new(
                ErrorCode::NameRegistered,
                format!(
                    "{} is a registered name: log in with its password, or play as a guest \
                     under another name",
                    asked.trim_start_matches(banco_protocol::GUEST_MARK)
                ),
            ));
        }
        if account && resumed.is_none() {
            if let Some((hash, held)) = self.held.take_account(&asked) {
                resumed = Some((
                    held.name,
                    ResumeToken(rand::random()),
                    Some((held.room, hash)),
                ));
            } else if self
                .sessions
                .values()
                .any(|s| s.account && s.name.to_lowercase() == key)
            {
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
        let resume_in = room.and_then(|(id, seat)| self.rooms.get(id).map(|r| (r.clone(), seat)));
        outbox.send(ServerMsg::Welcome(Welcome {
            version: PROTOCOL_VERSION,
            name: name.clone(),
            server: self.config.name.clone(),
            resume: token,
            account,
            account_token,
            bot,
        }));
        let storage = self.storage.borrow().clone();
        if storage != Storage::Saving {
            outbox.send(ServerMsg::Storage(storage));
        }
        if resume_in.is_none() {
            outbox.push(&self.list.full());
        }
        if !self.challenges.is_empty() {
            let open = self.challenges.open(Instant::now());
            if !open.is_empty() {
                outbox.send(ServerMsg::OpenChallenges(open));
            }
        }
        tracing::info!(client, %name, account, resumed = resume_in.is_some(), "player entered");
        // A tournament finds them their board again (an arena pairs them again).
        self.tournaments_arrived(&name);
        self.by_token.insert(token, client);
        self.sessions.insert(
            client,
            Session {
                name: name.clone(),
                account,
                bot,
                policy: ChallengePolicy::default(),
                place,
                token,
                address,
                outbox,
                cut,
                room: resume_in.as_ref().map(|(r, _)| r.id()),
                hold_promised: false,
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
        // Told why, so it does not dial straight back and take the seat again (two
        // windows of one browser would pass it between them for ever).
        old.outbox.send(ServerMsg::Error(ErrorMsg::new(
            ErrorCode::TakenOver,
            "another window or device took this session over with its saved login: \
             connect again here to take it back",
        )));
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
        self.withdraw_challenges(&session.name);
        // A session taken over has its successor under the same name: still here.
        let successor = self
            .sessions
            .values()
            .any(|s| s.name.eq_ignore_ascii_case(&session.name));
        if !successor {
            self.tournaments_left(&session.name);
        }
        match held_in {
            // The name stays taken while the seat waits for its player.
            Some(room) => {
                self.held.hold(
                    TokenHash::of(&session.token),
                    Held {
                        name: session.name,
                        room,
                        until: Instant::now() + self.config.grace * 2 + HOLD_SLACK,
                        address: Some(session.address),
                        account: Some(session.account),
                    },
                );
            }
            None => self.names.release(&session.name),
        }
    }

    fn on_notice(&mut self, notice: RoomNotice) {
        match notice {
            RoomNotice::Changed(summary) => {
                if self.rooms.contains(summary.id) {
                    self.list.changed(summary);
                }
            }
            RoomNotice::Closed(id) => {
                self.rooms.close(id);
                self.list.closed(id);
                for held in self.held.take_in_room(id) {
                    self.names.release(&held.name);
                }
            }
            RoomNotice::Released(token) => {
                if let Some(held) = self.held.take(&token) {
                    self.names.release(&held.name);
                }
            }
            RoomNotice::Board(report) => self.board_over(report),
        }
    }

    /// Holds whose release was lost are forgotten after a while, freeing their names.
    fn forget_expired_holds(&mut self) {
        for held in self.held.take_expired(Instant::now()) {
            self.names.release(&held.name);
        }
    }

    /// Sends `msg` to every connected session, in the lobby or in a room.
    fn tell_everyone(&self, msg: ServerMsg) {
        let out = crate::connection::Outgoing::new(msg);
        for s in self.sessions.values() {
            s.outbox.push(&out);
        }
    }

    /// Pushes the room list's changes to the next slice of the sessions in the lobby.
    fn push_rooms(&mut self) {
        let in_lobby = self
            .sessions
            .iter()
            .filter(|(_, s)| s.room.is_none())
            .map(|(client, s)| (*client, &s.outbox));
        self.list.push(in_lobby);
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
    use super::room_list::LIST_EVERY;
    use super::*;
    use banco_protocol::{
        GameSettings, Level, MAX_NAME_CHARS, MAX_SERVER_FRAME, RoomStatus, SeatKind, TimeControl,
        wire,
    };

    fn arrival(name: &str, resume: Option<ResumeToken>) -> Arrival {
        Arrival {
            name: name.into(),
            account: false,
            bot: false,
            returning: false,
            resume,
            address: AddressKey::V4(std::net::Ipv4Addr::LOCALHOST),
            account_token: None,
        }
    }

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
            Restored::default(),
            crate::engines::EnginePool::start(1, 1 << 20).unwrap(),
            &tracker,
            shutdown.clone(),
        );
        let (outbox, mut rx) = Outbox::for_test(1 << 20);
        lobby
            .enter(
                arrival("Lan", None),
                outbox,
                CancellationToken::new(),
                Placements::default(),
            )
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
                bot_account: false,
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
            bot_accounts: [true; 2],
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
