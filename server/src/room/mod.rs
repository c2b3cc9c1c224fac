//! A room: one actor task that owns everything about a table (the game, the seats, the
//! clocks, the open offer, the chat and the bot seats) and a cheap [`RoomHandle`] that
//! sessions use to send it one message per user intent.
//!
//! Nothing outside the task touches its state. The task never waits on a client: it
//! pushes into their bounded [`Outbox`]es, answers requests on oneshot channels, and
//! reports to the lobby on an unbounded notice channel. Searches are jobs of the server's
//! [`EnginePool`] and come back as [`engine::Answer`]s.
//!
//! - `handle`: [`RoomHandle`] and the messages it carries, one per intent.
//! - [`mod@self`]: the room's state and its event loop.
//! - `people`: coming in, watching, leaving, dropping out and coming back.
//! - `play`: starting games, moves, the clocks running out, the end of a game.
//! - `negotiation`: undo, new game and draw offers; resigning.
//! - `match_play`: matches of N games or first to K wins: the colours game by game, the
//!   break between games, the match's end (played out, resigned, left).
//! - `bots`: driving bot seats and hints.
//! - `facts`: legal moves, check and threats, for clients without the rules.
//! - `board`: a tournament's board: seats kept by name, forfeits, the result reported.
//! - `restore`: reopening a room for a game saved when the server stopped.
//! - `swap`: Swap1 and Swap2 openings: the opening phase before a game's first move.
//! - `view`: what members are shown (the room view, the people, the lobby's summary).
//! - [`clock`], [`offer`], [`chat`], [`settings`], [`engine`], [`moves`]: the pure pieces.

pub mod arrange;
pub mod chat;
pub mod clock;
pub mod engine;
pub mod moves;
pub mod offer;
pub mod settings;

mod board;
mod bots;
mod facts;
mod handle;
mod match_play;
mod negotiation;
mod people;
mod play;
mod restore;
mod swap;
mod view;

pub use board::{BoardLink, BoardReport};
pub use handle::{Guest, Request, RoomGone, RoomHandle, RoomMsg};
pub use restore::{restore, restore_break};

use std::sync::Arc;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tracing::Instrument;

use banco_protocol::{
    GameOver, MoveRecord, Role, RoomId, RoomSettings, RoomSummary, Seat, SeatKind, SeatView,
    Series, ServerMsg,
};
use banco_rules::Level;
use banco_rules::game::{Game, GameSpec};

use crate::ClientId;
use crate::config::Config;
use crate::connection::{Outbox, Outgoing};
use crate::engines::{EnginePool, JobHandle};
use crate::lobby::RoomNotice;
use crate::store::{Entry, MatchLink, PlayerRef, StoreHandle};
use crate::token::TokenHash;
use chat::{ChatAllowance, ChatHistory};
use clock::GameClock;
use engine::Answer;
use match_play::MatchPlay;
use offer::Offers;

/// How many requests may wait for a room before senders wait their turn.
const INBOX: usize = 64;

/// What a room needs from the server around it.
#[derive(Clone)]
pub struct RoomContext {
    /// Grace periods, bot pace and caps, chat allowance.
    pub config: Arc<Config>,
    /// Where finished games and snapshots of games in progress go.
    pub store: StoreHandle,
    /// Where bot moves and hints are searched.
    pub engines: EnginePool,
    /// Where the room reports its summary, its closing and released seats.
    pub lobby: mpsc::UnboundedSender<RoomNotice>,
    /// Fires when the server stops: the room saves its game and ends.
    pub shutdown: CancellationToken,
}

/// Starts a room for `settings` (already validated into `spec`) with `creator` in it;
/// the room greets the creator with `RoomCreated` and `Joined`.
pub fn spawn(
    id: RoomId,
    settings: RoomSettings,
    spec: GameSpec,
    creator: Guest,
    ctx: RoomContext,
    tracker: &TaskTracker,
) -> RoomHandle {
    let seats = settings.seats.map(|kind| match kind {
        SeatKind::Human => SeatState::Free,
        SeatKind::Bot(level) => SeatState::Bot(BotSeat::new(level)),
    });
    launch(
        Room::new(id, settings, spec, seats, ctx),
        Opening::Created(creator),
        tracker,
    )
}

/// How long a seat kept for someone placed in a new room (by an accepted challenge)
/// waits for their session to come and take it; then it is an ordinary free seat.
pub const RESERVED_FOR: std::time::Duration = std::time::Duration::from_secs(15);

/// Starts a room for `settings` (validated into `spec`) with its seats kept for the
/// sessions `reserved` names, by seat: each is placed in it by the lobby and takes its
/// seat with an ordinary [`RoomHandle::join`] (after leaving where it was); nobody else
/// may take a kept seat meanwhile. A challenge accepted makes such a room.
pub fn spawn_reserved(
    id: RoomId,
    settings: RoomSettings,
    spec: GameSpec,
    reserved: [Option<ClientId>; 2],
    ctx: RoomContext,
    tracker: &TaskTracker,
) -> RoomHandle {
    let seats = settings.seats.map(|kind| match kind {
        SeatKind::Human => SeatState::Free,
        SeatKind::Bot(level) => SeatState::Bot(BotSeat::new(level)),
    });
    let mut room = Room::new(id, settings, spec, seats, ctx);
    let until = Instant::now() + RESERVED_FOR;
    room.reserved = reserved.map(|r| r.map(|client| (client, until)));
    launch(room, Opening::Reserved, tracker)
}

/// Starts a room for board `link` of a tournament: its seats (people's and bots' as
/// `settings.seats` say) kept for the players named in `link`, who come in with an
/// ordinary [`RoomHandle::join`] (the lobby places those who are free); a bots-only
/// board starts at once.
pub fn spawn_board(
    id: RoomId,
    settings: RoomSettings,
    spec: GameSpec,
    link: BoardLink,
    ctx: RoomContext,
    tracker: &TaskTracker,
) -> RoomHandle {
    let seats = settings.seats.map(|kind| match kind {
        SeatKind::Human => SeatState::Free,
        SeatKind::Bot(level) => SeatState::Bot(BotSeat::new(level)),
    });
    let mut room = Room::new(id, settings, spec, seats, ctx);
    room.board = Some(board::Board::new(link));
    launch(room, Opening::Board, tracker)
}

/// How a room comes to be.
enum Opening {
    /// Made by this person, who is greeted in it.
    Created(Guest),
    /// Made with its seats kept for people on their way (a challenge accepted).
    Reserved,
    /// Reopened after a restart, its players' seats held for them.
    Restored,
    /// Opened for a tournament's board.
    Board,
}

fn launch(room: Room, opening: Opening, tracker: &TaskTracker) -> RoomHandle {
    let id = room.id;
    let (tx, inbox) = mpsc::channel(INBOX);
    let (answers_tx, answers) = mpsc::unbounded_channel();
    let room = Room { answers_tx, ..room };
    let span = tracing::info_span!("room", id);
    tracker.spawn(room.run(opening, inbox, answers).instrument(span));
    RoomHandle::new(id, tx)
}

/// A person in the room with a live connection.
#[derive(Debug)]
struct Member {
    /// Their session.
    client: ClientId,
    /// Shown in chat, seats and the spectator list.
    name: String,
    /// Their messages.
    outbox: Outbox,
    /// Player in a seat, or spectator.
    role: Role,
    /// Their chat rate limit.
    chat: ChatAllowance,
}

/// Who sits in a seat.
enum SeatState {
    Free,
    Human(HumanSeat),
    Bot(BotSeat),
}

/// A person's seat.
struct HumanSeat {
    /// The session sitting here, or the last one before a drop.
    client: ClientId,
    /// Kept while the seat is held, for the seat list and the record.
    name: String,
    /// Whoever presents the token this is the hash of gets the seat back while it is held.
    token: TokenHash,
    /// Set while the player's connection is gone: when the seat is given up.
    held_until: Option<Instant>,
    /// A bot account sits here (an engine's): shown with a BOT tag.
    bot_account: bool,
}

/// The server's bot in a seat.
struct BotSeat {
    /// How strong it plays.
    level: Level,
    /// How it appears in the seat list ("Bot (hard)").
    name: String,
    /// The search it is out on.
    slot: Slot,
    /// A move found early in a bots-only room, waiting for the pause between moves.
    pending: Option<PendingMove>,
    /// Its last search's score from its own side: it takes a draw only when not ahead.
    last_score: i32,
}

pub use banco_protocol::bot_name;

/// Whether `name` is a bot's name (any case), which no person may register.
pub fn is_bot_name(name: &str) -> bool {
    banco_protocol::bot_of_name(name).is_some()
}

impl BotSeat {
    fn new(level: Level) -> BotSeat {
        BotSeat {
            level,
            name: bot_name(level),
            slot: Slot::default(),
            pending: None,
            last_score: 0,
        }
    }
}

/// A bot move to be played at `at`, if the position has not changed.
struct PendingMove {
    /// When it may be played.
    at: Instant,
    /// The position it answers; a later change makes it stale.
    generation: u64,
    /// The move.
    mv: banco_rules::game::Move,
}

/// A search a bot seat (or the room's hints) has out in the engine pool.
#[derive(Default)]
struct Slot {
    /// The search out: the generation asked about and the handle that calls it off (also
    /// when the room closes and drops it).
    out: Option<(u64, JobHandle)>,
    /// The generation of the last search sent out: hints are one per move.
    last_asked: Option<u64>,
}

impl Slot {
    /// Stops a search the room no longer wants.
    fn cancel_unless(&self, generation: u64) {
        if let Some((g, job)) = &self.out
            && *g != generation
        {
            job.cancel();
        }
    }
}

/// The room's current (or last) game.
struct CurrentGame {
    /// Identifies the game's saved snapshot across restarts.
    key: u64,
    /// The match it is a game of, and which game of it (rooms that play matches).
    in_match: Option<MatchLink>,
    /// 1 for the room's first game.
    number: u32,
    /// The seat to move at the start (after a caro opening's stones).
    first: Seat,
    /// The rules' view of the game, its caro opening included.
    position: Game,
    /// Every move as sent on the wire.
    moves: Vec<MoveRecord>,
    /// `None` for an unlimited game.
    clock: Option<GameClock>,
    /// Set when the game ends.
    over: Option<GameOver>,
    /// Who played, by seat, for the record.
    players: [PlayerRef; 2],
    /// Unix milliseconds at the start, for the record.
    started_ms: u64,
    /// The number the game's next logged event gets.
    seq: u32,
    /// In a timed game, until both players have moved once: when the game is aborted if
    /// the player to move has not made their first move. (No clock runs before that, as
    /// on lichess: a player still reading the room loses no time.)
    first_move_due: Option<Instant>,
    /// A room with a swap opening: the game's opening phase (in progress, or decided and
    /// kept for the view's record of it).
    swap: Option<swap::SwapPhase>,
}

impl CurrentGame {
    /// The seat playing `side`.
    fn seat(&self, side: banco_rules::game::Side) -> Seat {
        match side {
            banco_rules::game::Side::First => self.first,
            banco_rules::game::Side::Second => self.first.other(),
        }
    }

    /// The seat to move.
    fn to_move(&self) -> Seat {
        self.seat(self.position.to_move())
    }

    fn running(&self) -> bool {
        self.over.is_none()
    }
}

/// The room's state, owned by its task.
struct Room {
    /// The room's number in the lobby.
    id: RoomId,
    /// As the creator chose them.
    settings: RoomSettings,
    /// The game the settings describe, for the rules and the engines (a room with
    /// balanced openings deals each game its own: see [`settings::deal`]).
    spec: GameSpec,
    /// Config, store, lobby notices, shutdown.
    ctx: RoomContext,
    /// People here with a live connection, in the order they came.
    members: Vec<Member>,
    /// Seat One, seat Two.
    seats: [SeatState; 2],
    /// The current or last game; `None` until the first starts.
    game: Option<CurrentGame>,
    /// The open offer, if any.
    offers: Offers,
    /// The recent lines, for newcomers.
    chat: ChatHistory,
    /// Bumped whenever the position or the game changes, so answers from searches
    /// started before are known to be stale.
    generation: u64,
    /// The search answering a hint.
    hint: Slot,
    /// Where searches send their answers.
    answers_tx: mpsc::UnboundedSender<Answer>,
    /// The people as members were last told, to send `People` only on a change.
    shown_people: Option<view::People>,
    /// Someone came, left, sat or stood since members were last told.
    people_dirty: bool,
    /// When members were last told who is here.
    people_at: Option<Instant>,
    /// When spectators' comings and goings held back (to be told together) are due.
    people_due: Option<Instant>,
    /// The summary as the lobby was last told.
    shown_summary: Option<RoomSummary>,
    /// Members sent a full `Joined` during this event, who need no `People` for it.
    fresh: Vec<ClientId>,
    /// When the last move was played: bots-only rooms pause after it.
    last_move_at: Option<Instant>,
    /// The score between the two players seated now; 0-0 again when a seat is freed (in a
    /// room that plays matches: the score of its match, 0-0 again when one begins).
    series: Series,
    /// In a room that plays matches: the one being played, or the last one (over).
    /// `None` before the first begins.
    match_play: Option<MatchPlay>,
    /// The number of the room's last game begun (0 before the first): the next is one
    /// more, also when the last is not at hand (a room reopened between two games).
    last_number: u32,
    /// What this event changed in the game's record, to commit before anyone hears of
    /// it (see [`Room::commit`]).
    log: Vec<Entry>,
    /// Messages held back until `log` is committed, in the order they were sent.
    waiting: Vec<(Outbox, Outgoing)>,
    /// By seat: kept for this session until then (a challenge accepted places both
    /// players here); nobody else may sit there meanwhile.
    reserved: [Option<(ClientId, Instant)>; 2],
    /// The tournament board this room plays, if it was opened for one.
    board: Option<board::Board>,
    /// Notices for the lobby that wait for this event's commit (a board's result).
    after_commit: Vec<RoomNotice>,
}

impl Room {
    /// A room with no one in it yet and no game.
    fn new(
        id: RoomId,
        settings: RoomSettings,
        spec: GameSpec,
        seats: [SeatState; 2],
        ctx: RoomContext,
    ) -> Room {
        Room {
            id,
            settings,
            spec,
            offers: Offers::new(ctx.config.offer_declined_wait),
            ctx,
            members: Vec::new(),
            seats,
            game: None,
            chat: ChatHistory::default(),
            generation: 0,
            hint: Slot::default(),
            // Replaced by the real channel at launch.
            answers_tx: mpsc::unbounded_channel().0,
            shown_people: None,
            people_dirty: false,
            people_at: None,
            people_due: None,
            shown_summary: None,
            fresh: Vec::new(),
            last_move_at: None,
            series: Series::default(),
            match_play: None,
            last_number: 0,
            log: Vec::new(),
            waiting: Vec::new(),
            reserved: [None, None],
            board: None,
            after_commit: Vec::new(),
        }
    }

    async fn run(
        mut self,
        opening: Opening,
        mut inbox: mpsc::Receiver<RoomMsg>,
        mut answers: mpsc::UnboundedReceiver<Answer>,
    ) {
        let _closing = Closing {
            id: self.id,
            lobby: self.ctx.lobby.clone(),
        };
        match opening {
            Opening::Created(creator) => {
                tracing::info!(settings = ?self.settings, creator = %creator.name, "room opened");
                creator.outbox.send(ServerMsg::RoomCreated(self.id));
                let seat = matches!(self.settings.seats[0], SeatKind::Human);
                let _ = self.join(creator, seat);
                self.start_if_seated();
            }
            Opening::Reserved => {
                tracing::info!(settings = ?self.settings, "room opened for a challenge");
            }
            Opening::Restored => {
                tracing::info!(settings = ?self.settings, "room reopened with its game in progress");
            }
            Opening::Board => {
                tracing::info!(settings = ?self.settings, board = ?self.board.as_ref().map(|b| &b.link), "room opened for a tournament's board");
                self.start_if_seated();
            }
        }
        self.after_event();
        self.commit().await;
        let shutdown = self.ctx.shutdown.clone();
        loop {
            let wake = self.next_wake();
            tokio::select! {
                biased;
                () = shutdown.cancelled() => {
                    self.shut_down();
                    self.commit().await;
                    break;
                }
                msg = inbox.recv() => match msg {
                    Some(msg) => self.handle(msg),
                    None => break,
                },
                Some(answer) = answers.recv() => self.on_answer(answer),
                () = sleep_until(wake), if wake.is_some() => self.on_timer(Instant::now()),
            }
            self.after_event();
            self.commit().await;
            if self.is_empty() {
                break;
            }
        }
        self.cancel_searches();
        tracing::info!("room closed");
    }

    fn handle(&mut self, msg: RoomMsg) {
        // A flag that fell while this message waited ends the game before it is read.
        self.check_flag(Instant::now());
        match msg {
            RoomMsg::Join { guest, seat, reply } => {
                let result = self.join(guest, seat);
                if result
                    .as_ref()
                    .is_ok_and(|role| matches!(role, Role::Player(_)))
                {
                    self.start_if_seated();
                }
                let _ = reply.send(result);
            }
            RoomMsg::Resume { guest, seat, reply } => {
                let _ = reply.send(self.resume(guest, seat));
            }
            RoomMsg::Leave { client, reply } => {
                self.leave(client);
                let _ = reply.send(());
            }
            RoomMsg::Dropped { client, reply } => {
                let _ = reply.send(self.dropped(client));
            }
            RoomMsg::Adopt(link) => {
                // A room reopened after a restart plays its board again.
                if self.board.is_none() {
                    tracing::info!(?link, "the room plays a tournament's board again");
                    let forfeit = link.forfeit_after;
                    self.board = Some(board::Board::new(link));
                    // A game stopped before both first moves: its forfeit counts from
                    // the game's start (kept on disk), not from the restart; the
                    // players have the reconnection grace (at most the forfeit time) to
                    // come back.
                    let grace = self.ctx.config.grace;
                    if let Some(m) = self
                        .game
                        .as_mut()
                        .filter(|m| m.running() && m.moves.len() < 2)
                    {
                        let since = std::time::Duration::from_millis(
                            crate::wall_clock::unix_ms().saturating_sub(m.started_ms),
                        );
                        let left = forfeit.saturating_sub(since).max(grace.min(forfeit));
                        m.first_move_due = Some(Instant::now() + left);
                    }
                }
            }
            RoomMsg::Request { client, request } => {
                if self.member(client).is_none() {
                    tracing::debug!(client, "request from someone no longer in the room");
                    return;
                }
                let refused = match request {
                    Request::Move(mv) => self.play_request(client, mv),
                    Request::Chat(text) => self.chat(client, &text),
                    Request::Offer(kind) => self.offer(client, kind),
                    Request::Answer { kind, accept } => self.answer(client, kind, accept),
                    Request::Withdraw(kind) => self.withdraw(client, kind),
                    Request::Resign => self.resign(client),
                    Request::ResignMatch => self.resign_match(client),
                    Request::Hint => self.hint(client),
                    Request::Facts => self.facts(client),
                    Request::Trial(moves) => self.trial(client, moves),
                    Request::Swap(choice) => self.swap_decide(client, choice),
                    Request::Berserk => self.berserk(client),
                };
                if let Err(e) = refused {
                    self.tell(client, ServerMsg::Error(e));
                }
            }
        }
    }

    /// After every event: keep bots thinking, tell members and the lobby what changed.
    fn after_event(&mut self) {
        self.drive_bots();
        self.flush_people(Instant::now());
        self.fresh.clear();
        self.publish_summary();
    }

    /// The next instant something happens by itself: a flag falls, a held seat is given
    /// up, a bot's pending move is due, a match's next game starts.
    fn next_wake(&self) -> Option<Instant> {
        let flag = self
            .game
            .as_ref()
            .filter(|m| m.running())
            .and_then(|m| m.clock.as_ref())
            .and_then(GameClock::flag_at);
        let first_move = self
            .game
            .as_ref()
            .filter(|m| m.running())
            .and_then(|m| m.first_move_due);
        let seats = self.seats.iter().filter_map(|s| match s {
            SeatState::Human(h) => h.held_until,
            SeatState::Bot(b) => b.pending.as_ref().map(|p| p.at),
            SeatState::Free => None,
        });
        let reserved = self.reserved.iter().flatten().map(|(_, until)| *until);
        flag.into_iter()
            .chain(first_move)
            .chain(seats)
            .chain(reserved)
            .chain(self.people_due)
            .chain(self.board_wake())
            .chain(self.next_game_at())
            .min()
    }

    fn on_timer(&mut self, now: Instant) {
        self.check_flag(now);
        self.check_absent(now);
        for kept in &mut self.reserved {
            if kept.is_some_and(|(_, until)| until <= now) {
                tracing::info!("a seat kept for a player on their way is free again");
                *kept = None;
            }
        }
        for seat in Seat::BOTH {
            if let SeatState::Human(h) = &self.seats[seat.index()]
                && h.held_until.is_some_and(|t| t <= now)
            {
                self.give_up_seat(seat);
            }
        }
        self.play_due_bot_moves(now);
        self.start_next_game_if_due(now);
    }

    /// No member is here, no seat is held and none is kept for someone on their way:
    /// nobody will ever come (back) to this room.
    fn is_empty(&self) -> bool {
        self.members.is_empty()
            && self.open_board().is_none()
            && self.reserved.iter().all(Option::is_none)
            && !self
                .seats
                .iter()
                .any(|s| matches!(s, SeatState::Human(h) if h.held_until.is_some()))
    }

    fn member(&self, client: ClientId) -> Option<&Member> {
        self.members.iter().find(|m| m.client == client)
    }

    /// The seat `client` plays in, if they are a player here.
    fn seat_of(&self, client: ClientId) -> Option<Seat> {
        match self.member(client)?.role {
            Role::Player(seat) => Some(seat),
            Role::Spectator => None,
        }
    }

    /// Sends to one member.
    fn tell(&mut self, client: ClientId, msg: ServerMsg) {
        if let Some(outbox) = self.member(client).map(|m| m.outbox.clone()) {
            // For one client: only its bytes wait (a snapshot's structures do not).
            let out = Outgoing::for_one(msg, outbox.format());
            self.deliver(&outbox, out);
        }
    }

    /// Sends to everyone in the room: encoded once, the bytes shared by every outbox.
    fn broadcast(&mut self, msg: ServerMsg) {
        let out = Outgoing::new(msg);
        if self.log.is_empty() {
            for m in &self.members {
                m.outbox.push(&out);
            }
        } else {
            let waiting: Vec<_> = self
                .members
                .iter()
                .map(|m| (m.outbox.clone(), out.clone()))
                .collect();
            self.waiting.extend(waiting);
        }
    }

    /// Sends `out` to `outbox` now, or once this event's log is committed if it has one:
    /// what a message tells must be on disk before anyone reads it, and messages keep
    /// their order.
    fn deliver(&mut self, outbox: &Outbox, out: Outgoing) {
        if self.log.is_empty() {
            outbox.push(&out);
        } else {
            self.waiting.push((outbox.clone(), out));
        }
    }

    /// Adds `entry` to what this event must commit before its messages go out.
    fn write(&mut self, entry: Entry) {
        self.log.push(entry);
    }

    /// Commits what this event logged (waiting for the disk: backpressure), then sends
    /// the messages held for it. The room reads no new message meanwhile.
    async fn commit(&mut self) {
        if self.log.is_empty() {
            for notice in self.after_commit.drain(..) {
                let _ = self.ctx.lobby.send(notice);
            }
            return;
        }
        let entries = std::mem::take(&mut self.log);
        self.ctx.store.commit(entries).await;
        for notice in self.after_commit.drain(..) {
            let _ = self.ctx.lobby.send(notice);
        }
        // The players first, then the room yields before the spectators: a crowd's
        // hundreds of socket writes would otherwise queue ahead of the players' own on the
        // runtime (a move's acknowledgement waited for 800 spectators' writes: p99 6.3
        // ms). Whether a client comes first is decided once per client, so each client's
        // messages keep their order.
        let players: Vec<&Outbox> = self
            .members
            .iter()
            .filter(|m| matches!(m.role, Role::Player(_)))
            .map(|m| &m.outbox)
            .collect();
        let mut crowd = Vec::new();
        for (outbox, out) in self.waiting.drain(..) {
            if players.iter().any(|p| p.same_client(&outbox)) {
                outbox.push(&out);
            } else {
                crowd.push((outbox, out));
            }
        }
        if crowd.len() > 1 {
            tokio::task::yield_now().await;
        }
        for (outbox, out) in crowd {
            outbox.push(&out);
        }
    }

    /// The server is stopping: the game in progress is already on disk; its clocks as
    /// they stand are logged so a restart charges the time already spent. Searches stop.
    fn shut_down(&mut self) {
        self.log_pause();
        self.cancel_searches();
    }
}

/// Tells the lobby the room is gone when the room's task ends, however it ends: a bug
/// that panics in a room must not leave a room in the list that nobody can enter. (The
/// game itself is not lost: its last snapshot is reopened at the next start.)
struct Closing {
    /// The room's number.
    id: RoomId,
    /// Where the notice goes.
    lobby: mpsc::UnboundedSender<RoomNotice>,
}

impl Drop for Closing {
    fn drop(&mut self) {
        if std::thread::panicking() {
            tracing::error!(room = self.id, "the room failed and is closed");
        }
        let _ = self.lobby.send(RoomNotice::Closed(self.id));
    }
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// The seat view of a seat state.
fn seat_view(seat: &SeatState) -> Option<SeatView> {
    match seat {
        SeatState::Free => None,
        SeatState::Human(h) => Some(SeatView {
            name: h.name.clone(),
            bot: None,
            connected: h.held_until.is_none(),
            bot_account: h.bot_account,
        }),
        SeatState::Bot(b) => Some(SeatView {
            name: b.name.clone(),
            bot: Some(b.level),
            connected: true,
            bot_account: false,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_room_that_fails_is_still_taken_off_the_list() {
        let (lobby, mut notices) = mpsc::unbounded_channel();
        let task = tokio::spawn(async move {
            let _closing = Closing { id: 7, lobby };
            panic!("a bug in a room");
        });
        assert!(task.await.is_err());
        assert!(matches!(notices.recv().await, Some(RoomNotice::Closed(7))));
    }
}
