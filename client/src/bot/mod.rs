//! `banco bot`: an external engine on a server as a bot account.
//!
//! - [`engine`]: the engine's own thread, which owns the adapter (Gomocup for caro, UCI
//!   for xiangqi, from `banco-adapters`, the code `banco-arena` drives engines with),
//!   answers move requests and meets crashes.
//! - [`policy`]: which challenges fit the engine; how undo requests and draw offers are
//!   answered.
//! - [`plan`]: what the bot sets out to do besides: challenge a player (or post an open
//!   challenge) until it has played its games ([`plan::Seeker`]), or enter a tournament.
//! - this module: the connection and its loop. The bot logs in to its bot account, says
//!   who may challenge it, takes the challenges its engine can play (a Gomocup engine is
//!   asked about the board and rule first) and declines the rest with a reason, plays
//!   its moves on the game's clock, answers offers by its policy, leaves each room when
//!   the game (or the match) is over, and dials again with its resume token after a
//!   network drop, taking its seat back.
//! - its own challenges: sent when it is free, again after each game until its games
//!   are played, waiting as the server asks after declines.
//! - tournaments: it enters the one it was told (`JoinTournament`, again after a drop),
//!   declines challenges until the tournament is over, and plays each pairing in the
//!   room the server places it in (told by `TournamentGame`; a pairing told while it
//!   plays elsewhere is joined when that game ends). It stays in a tournament's room
//!   after the game: the server moves it to the next pairing's room, and leaving there
//!   could cross the move. Any room it is placed in is played, whoever entered it. An
//!   organiser may enter it too (`EnterBotAccount`, while it takes challenges): the
//!   tournament's view that names it says so, and it plays there as in its own
//!   ([`plan::entered_by_organiser`]; it withdraws if its engine cannot play the game).
//!   While a tournament holds it, its own challenges wait (one out is called off), so a
//!   game of its own never makes it miss a pairing; when the tournament is over it
//!   leaves the last board's room and challenges again.
//!
//! What it prints on stdout, a line per thing that happens, is for the person who runs
//! it; nothing reads it back.

pub mod engine;
pub mod plan;
pub mod policy;

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use banco_adapters::player::{Budget, Eval, SwapReply};
use banco_protocol::{
    Challenge, ChallengeId, ChallengePolicy, ClientMsg, Credentials, DeclineReason, EndReason,
    ErrorCode, GameSettings, OfferKind, ResumeToken, RoomId, Rule, ServerMsg, SwapChoice,
    SwapStage, TimeControl, TournamentId, TournamentStatus,
};
use banco_rules::game::{GameSpec, Move};
use tokio::sync::mpsc;

use crate::known_hosts::Trust;
use crate::net::{ConnectError, Connection, Link, Lost, NetEvent};
use crate::reconnect::{RECONNECT_FOR, pause_after};
use crate::room::Room;
use engine::{Done, EngineSpec, EngineThread, Job, Stamp};
use plan::{Plan, Seeker, settings_text};
use policy::{DrawPolicy, Fit, UndoPolicy};

/// Everything `banco bot` was told.
#[derive(Debug, Clone)]
pub struct Options {
    /// The engine and its protocol.
    pub engine: EngineSpec,
    /// The bot account's name.
    pub name: String,
    /// The server.
    pub address: String,
    /// The account's password (registering it the first time, if asked).
    pub credentials: Credentials,
    /// How undo requests are answered.
    pub undo: UndoPolicy,
    /// How draw offers are answered.
    pub draw: DrawPolicy,
    /// Who may challenge the bot.
    pub challenges: ChallengePolicy,
    /// The time per move in games without a clock.
    pub move_time: Duration,
    /// How the server's key is checked.
    pub trust: Trust,
    /// Challenges it sends, the tournament it enters, and whether it stops when done.
    pub plan: Plan,
}

/// The most a move is told to leave unused of the time the server gives, for the way
/// to the server and back.
const MOST_MARGIN: Duration = Duration::from_millis(300);

/// Runs the bot until `stop` completes (the process told to stop), or the server is
/// gone for good.
pub async fn run(opts: Options, stop: impl std::future::Future<Output = ()>) -> Result<()> {
    check_engine(&opts.engine).await?;
    if let Some(seek) = &opts.plan.seek {
        check_seek(&opts.engine, seek).await?;
    }
    let (done_tx, mut done_rx) = mpsc::unbounded_channel();
    let engine = EngineThread::start(&opts.engine, done_tx);
    let (probe_tx, mut probe_rx) = mpsc::unbounded_channel();
    let now = Instant::now();
    let mut bot = Bot {
        opts: opts.clone(),
        engine,
        room: None,
        asked: None,
        jobs: 0,
        last_eval: None,
        probed: HashMap::new(),
        probe_tx,
        waiting: HashMap::new(),
        lost_room: None,
        me: opts.name.clone(),
        seeker: opts.plan.seek.clone().map(|s| Seeker::new(s, now)),
        tournament: opts.plan.tournament.map(Entry::new),
        boards: HashSet::new(),
        next_board: None,
        room_done: false,
        finished: None,
    };
    let mut resume: Option<ResumeToken> = None;
    let mut credentials = opts.credentials.clone();
    let stopped = stop;
    tokio::pin!(stopped);
    loop {
        let mut link = tokio::select! {
            link = connect(&opts, resume, credentials.clone()) => link?,
            () = &mut stopped => return Ok(()),
        };
        if !link.welcome.bot {
            link.close(Duration::from_secs(1)).await;
            bail!(
                "{} is not a bot account: register a bot account with `banco bot --register`",
                opts.name
            );
        }
        resume = Some(link.welcome.resume);
        credentials = credentials.as_login();
        say(&format!(
            "connected to {} as {} (a bot account)",
            link.welcome.server, link.welcome.name
        ));
        bot.me = link.welcome.name.clone();
        bot.send(&link, ClientMsg::SetChallenges(opts.challenges))
            .await;
        bot.on_connected(&link).await;
        let lost = loop {
            if let Some(end) = bot.finished.take() {
                link.close(Duration::from_secs(1)).await;
                return end.map_err(anyhow::Error::msg);
            }
            let wake = bot
                .wake_at()
                .unwrap_or_else(|| Instant::now() + Duration::from_secs(3600));
            tokio::select! {
                event = link.incoming.recv() => match event {
                    None => break Lost::Closed,
                    Some(NetEvent::Closed(lost)) => break lost,
                    Some(NetEvent::Msg(msg)) => bot.on_message(&link, msg).await,
                },
                Some(done) = done_rx.recv() => bot.on_done(&link, done).await,
                Some((id, answer)) = probe_rx.recv() => bot.on_probe(&link, id, answer).await,
                () = tokio::time::sleep_until(tokio::time::Instant::from_std(wake)) => {
                    bot.on_wake(&link).await;
                }
                () = &mut stopped => {
                    say("stopping");
                    link.close(Duration::from_secs(1)).await;
                    return Ok(());
                }
            }
            bot.check_done();
        };
        say(&format!(
            "connection lost ({}); dialling again",
            lost.as_str()
        ));
        // The seat is taken back with the resume token; the room is told again on return.
        bot.lost_room = bot.room.take().map(|r| r.id);
        bot.asked = None;
        if let Some(s) = bot.seeker.as_mut() {
            s.reconnected(Instant::now());
        }
    }
}

/// Dials the server; after the first connection, keeps trying for [`RECONNECT_FOR`].
async fn connect(
    opts: &Options,
    resume: Option<ResumeToken>,
    credentials: Credentials,
) -> Result<Link> {
    let started = Instant::now();
    let mut failures = 0;
    loop {
        let tried = Connection::open_trusting(
            &opts.address,
            &opts.name,
            resume,
            Some(credentials.clone()),
            &opts.trust,
        )
        .await;
        let loc = crate::locale::Locale::english();
        match tried {
            Ok(c) => return Ok(c.start()),
            Err(e @ (ConnectError::Rejected(_) | ConnectError::Version { .. })) => {
                bail!("{}", e.describe(&loc))
            }
            Err(e) if resume.is_none() => bail!("{}", e.describe(&loc)),
            Err(e) if started.elapsed() > RECONNECT_FOR => {
                bail!("the server did not come back: {}", e.describe(&loc))
            }
            Err(_) => {
                failures += 1;
                tokio::time::sleep(pause_after(failures)).await;
            }
        }
    }
}

/// Starts the engine once before connecting, so a wrong command is said at once.
async fn check_engine(spec: &EngineSpec) -> Result<()> {
    match spec.clone() {
        EngineSpec::Uci(command) => {
            let name = tokio::task::spawn_blocking(move || engine::uci_plays_xiangqi(&command))
                .await
                .context("the engine check stopped")??;
            say(&format!("engine {name} plays xiangqi"));
        }
        EngineSpec::Gomocup(command) => {
            let answer = tokio::task::spawn_blocking(move || {
                engine::gomocup_plays(&command, 15, 15, Rule::Freestyle)
            })
            .await
            .context("the engine check stopped")?;
            match answer {
                Ok(()) => say("engine plays caro (15x15 freestyle checked)"),
                Err(e) if e.contains("cannot start") || e.contains("exited") => {
                    bail!("the engine did not start: {e}")
                }
                Err(e) => say(&format!("engine refuses 15x15 freestyle: {e}")),
            }
        }
    }
    Ok(())
}

/// Checks before connecting that the engine plays what the bot will challenge with (a
/// Gomocup engine is asked about the board and rule), so a wrong `--game` is said at once.
async fn check_seek(spec: &EngineSpec, seek: &plan::Seek) -> Result<()> {
    if let (
        EngineSpec::Gomocup(command),
        GameSettings::Caro {
            width,
            height,
            rule,
            ..
        },
    ) = (spec.clone(), &seek.settings.game)
    {
        let (width, height, rule) = (*width, *height, *rule);
        tokio::task::spawn_blocking(move || engine::gomocup_plays(&command, width, height, rule))
            .await
            .context("the engine check stopped")?
            .map_err(|e| {
                anyhow::anyhow!("the engine does not play the game of --challenge/--seek: {e}")
            })?;
    }
    Ok(())
}

/// A line for the person running the bot.
fn say(line: &str) {
    println!("banco bot: {line}");
}

/// The bot's state between messages.
struct Bot {
    /// What it was told.
    opts: Options,
    /// The engine's thread.
    engine: EngineThread,
    /// The room it plays in, if any.
    room: Option<Room>,
    /// The move request the engine works on for the position now, if any (its number).
    asked: Option<u64>,
    /// Move requests made so far: each has its own number.
    jobs: u64,
    /// The engine's last score in this game, for draw offers.
    last_eval: Option<Eval>,
    /// What a Gomocup engine said of a board and rule: played, or why not.
    probed: HashMap<(u8, u8, Rule), Result<(), String>>,
    /// Where the probes' answers go.
    probe_tx: mpsc::UnboundedSender<(ChallengeId, Result<(), String>)>,
    /// Challenges waiting for a probe: what was asked of the engine.
    waiting: HashMap<ChallengeId, (u8, u8, Rule)>,
    /// The room the bot sat in when the connection dropped: it expects to be seated
    /// there again.
    lost_room: Option<u32>,
    /// The bot's name as the server knows it (for the tournament's entrant list).
    me: String,
    /// Its own challenges, when it was told to send some.
    seeker: Option<Seeker>,
    /// The tournament it was told to enter.
    tournament: Option<Entry>,
    /// Rooms the server opened for the bot's tournament pairings: it stays in them after
    /// the game (the server moves it on), and plays whatever is there.
    boards: HashSet<RoomId>,
    /// A pairing's room told while the bot played elsewhere: joined when it is free.
    next_board: Option<RoomId>,
    /// The game (or match) of the room the bot sits in is over and was dealt with (left,
    /// counted): said once however many messages say it.
    room_done: bool,
    /// The bot's work is done (`Ok`) or cannot be done (`Err`, why): the loop ends.
    finished: Option<Result<(), String>>,
}

/// The tournament the bot enters, as far as it knows.
#[derive(Debug, Clone)]
struct Entry {
    /// Its number.
    id: TournamentId,
    /// Asked to enter, not yet answered.
    joining: bool,
    /// Entered (the server listed the bot, or said it already was).
    entered: bool,
    /// The last round told, to say each new one once.
    round: u32,
    /// Over: the bot's part is done.
    over: bool,
}

impl Entry {
    fn new(id: TournamentId) -> Entry {
        Entry {
            id,
            joining: false,
            entered: false,
            round: 0,
            over: false,
        }
    }
}

impl Bot {
    async fn send(&self, link: &Link, msg: ClientMsg) {
        if link.outgoing.send(msg).await.is_err() {
            tracing::debug!("the connection is closing");
        }
    }

    /// Just connected (or connected again): the tournament is entered (again: the server
    /// answers that it already is).
    async fn on_connected(&mut self, link: &Link) {
        if let Some(s) = self.seeker.as_mut() {
            s.hold_until(Instant::now() + plan::AGAIN_PAUSE);
        }
        if let Some(t) = self.tournament.as_mut().filter(|t| !t.over) {
            t.joining = true;
            let id = t.id;
            self.send(link, ClientMsg::JoinTournament(id)).await;
        }
    }

    /// Whether a tournament holds the bot: entered (by itself or by an organiser) and
    /// not over, or a tournament game waits. Its own challenges wait till then, so a
    /// game of its own never keeps it from a pairing.
    fn in_tournament(&self) -> bool {
        self.tournament.as_ref().is_some_and(|t| !t.over) || self.next_board.is_some()
    }

    /// Whether the bot may start a game of its own: no room, no tournament.
    fn free(&self) -> bool {
        self.room.is_none() && !self.in_tournament()
    }

    /// When the loop should wake for the bot's own challenge: only while it is free.
    fn wake_at(&self) -> Option<Instant> {
        if !self.free() {
            return None;
        }
        self.seeker.as_ref().and_then(Seeker::wake_at)
    }

    /// Woken: the bot's challenge is sent if it is time.
    async fn on_wake(&mut self, link: &Link) {
        let free = self.free();
        let Some(msg) = self
            .seeker
            .as_mut()
            .and_then(|s| s.due(Instant::now(), free))
        else {
            return;
        };
        self.send(link, msg).await;
    }

    /// Whether the bot's work is done, so it stops (only when its plan ends: a bot
    /// without one runs until stopped).
    fn check_done(&mut self) {
        if self.finished.is_some() {
            return;
        }
        if let Some(s) = &self.seeker
            && let Some(why) = s.failed()
        {
            if self.opts.plan.ends() {
                self.finished = Some(Err(why.to_string()));
            }
            return;
        }
        if !self.opts.plan.ends() || self.room.as_ref().is_some_and(Room::playing) {
            return;
        }
        let seek_done = self.seeker.as_ref().is_none_or(Seeker::over);
        let tournament_done = self.tournament.as_ref().is_none_or(|t| t.over);
        if seek_done && tournament_done {
            if let Some(s) = &self.seeker {
                say(&format!(
                    "done: {} {} played",
                    s.played(),
                    if s.played() == 1 { "game" } else { "games" }
                ));
            }
            self.finished = Some(Ok(()));
        }
    }

    async fn on_message(&mut self, link: &Link, msg: ServerMsg) {
        let now = Instant::now();
        match msg {
            ServerMsg::Challenged(ch) => self.on_challenge(link, ch).await,
            ServerMsg::ChallengeSent(ch) => {
                let Some(s) = self.seeker.as_mut() else {
                    return;
                };
                match s.sent(&ch) {
                    None => say(&format!(
                        "challenge {} to {} sent: {} ({} of {} games played)",
                        ch.id,
                        ch.to.as_deref().unwrap_or("anyone"),
                        settings_text(&ch.settings.game),
                        s.played(),
                        s.games()
                    )),
                    Some(stale) => self.send(link, ClientMsg::CancelChallenge(stale)).await,
                }
            }
            ServerMsg::Joined(view) => {
                let room = Room::from_view(*view, now);
                if self.lost_room.take() == Some(room.id) {
                    say(&format!("back in room {}", room.id));
                } else {
                    say(&format!("seated in room {}", room.id));
                }
                if self.next_board == Some(room.id) {
                    self.next_board = None;
                }
                // Seated back in a room whose game ended meanwhile: dealt with now.
                let ended = room
                    .game
                    .as_ref()
                    .and_then(|g| g.over.as_ref())
                    .filter(|_| !room.in_match())
                    .map(|over| counts(over.reason));
                self.room_done = false;
                self.room = Some(room);
                self.asked = None;
                self.last_eval = None;
                if let Some(counts) = ended {
                    self.room_done = true;
                    self.room_finished(link, counts, now).await;
                }
                self.ask();
            }
            ServerMsg::Left => {
                let left = self.room.take().map(|r| r.id);
                self.asked = None;
                if let (Some(s), Some(id)) = (self.seeker.as_mut(), left) {
                    s.left(id, now);
                }
                if let Some(board) = self.next_board {
                    say(&format!("going to the tournament's room {board}"));
                    self.send(link, ClientMsg::JoinRoom(board)).await;
                }
            }
            ServerMsg::Error(e) if self.move_refused(&e) => {
                // The engine's move was checked against the rules here, so the server
                // sees the game otherwise: asking again would bring the same move, and
                // waiting would lose on time in silence.
                self.asked = None;
                let reason = format!("the server refused its move ({})", e.message);
                self.resign_for(link, &reason).await;
            }
            ServerMsg::Error(e) => self.on_error(e, now),
            ServerMsg::ChallengeEnded { id, end } => {
                self.waiting.remove(&id);
                tracing::debug!("challenge {id} ended: {end:?}");
                if let Some(line) = self.seeker.as_mut().and_then(|s| s.ended(id, &end, now)) {
                    say(&line);
                }
            }
            ServerMsg::Tournament(view) => {
                let held = self.in_tournament();
                if let Some(msg) = self.entered_by_organiser(&view) {
                    self.send(link, msg).await;
                }
                self.on_tournament(&view);
                // Its tournament just ended: the room of its last board is left (the
                // server moved it from board to board), so its own plan goes on.
                if held
                    && !self.in_tournament()
                    && let Some(room) = &self.room
                    && self.boards.contains(&room.id)
                    && !room.playing()
                {
                    self.send(link, ClientMsg::LeaveRoom).await;
                }
                // Entered by an organiser: a challenge of its own still out is called
                // off, and sent again once the tournament is over.
                if !held
                    && self.in_tournament()
                    && let Some(ours) = self
                        .seeker
                        .as_mut()
                        .and_then(|s| s.set_aside(Instant::now()))
                {
                    say(&format!(
                        "challenge {ours} called off: it is sent again after the tournament"
                    ));
                    self.send(link, ClientMsg::CancelChallenge(ours)).await;
                }
            }
            ServerMsg::TournamentGame(game) => {
                say(&format!(
                    "tournament {} round {} board {}: {} with {}, room {} (forfeit after {} s without a move)",
                    game.tournament,
                    game.round,
                    game.board,
                    game.opponent,
                    if game.white { "white" } else { "black" },
                    game.room,
                    game.forfeit_secs
                ));
                self.boards.insert(game.room);
                match &self.room {
                    // Placed there already (or back after a drop).
                    Some(r) if r.id == game.room => {}
                    // Busy: the room is joined when this game ends.
                    Some(r) if r.playing() => self.next_board = Some(game.room),
                    // Free: the server places the bot there at once.
                    _ => {}
                }
            }
            ServerMsg::TournamentOver { id, winners } => {
                if let Some(t) = self.tournament.as_mut().filter(|t| t.id == id) {
                    t.over = true;
                    say(&format!(
                        "tournament {id} is over; first: {}",
                        winners.join(", ")
                    ));
                }
            }
            other => {
                let Some(room) = self.room.as_mut() else {
                    return;
                };
                room.apply(&other, now);
                let mut finished = false;
                let mut game_counts = true;
                match other {
                    ServerMsg::GameStarted(_) => {
                        self.asked = None;
                        self.last_eval = None;
                        self.room_done = false;
                        say("a game starts");
                    }
                    ServerMsg::Moved { .. } | ServerMsg::Undone { .. } => self.asked = None,
                    // The bot's own stones come back one by one: it is asked again only
                    // once the opening waits for it anew (after the other player's step).
                    // Decided: the game proper starts with the next `GameStarted` (its
                    // opening and colours); nothing is asked before it. No answer
                    // carries job 0.
                    ServerMsg::Swap(view) if view.stage == SwapStage::Done => {
                        self.asked = Some(0);
                    }
                    ServerMsg::Swap(view) if view.to_act != room.my_seat() => {
                        self.asked = None;
                    }
                    ServerMsg::Offered(offer) if Some(offer.by) != room.my_seat() => {
                        let accept = match offer.kind {
                            OfferKind::Undo => self.opts.undo == UndoPolicy::Always,
                            OfferKind::Draw => self.opts.draw.takes(self.last_eval),
                            OfferKind::NewGame => true,
                        };
                        say(&format!(
                            "{} offer: {}",
                            offer.kind.as_str(),
                            if accept { "taken" } else { "declined" }
                        ));
                        self.send(
                            link,
                            ClientMsg::Answer {
                                kind: offer.kind,
                                accept,
                            },
                        )
                        .await;
                    }
                    ServerMsg::GameOver(over) => {
                        self.asked = None;
                        say(&format!(
                            "game over: {} ({})",
                            match over.winner {
                                None => "no winner".to_string(),
                                Some(seat) if Some(seat) == room.my_seat() => "won".to_string(),
                                Some(_) => "lost".to_string(),
                            },
                            over.reason.as_str()
                        ));
                        finished = !room.in_match();
                        game_counts = counts(over.reason);
                    }
                    ServerMsg::MatchOver(result) => {
                        say(&format!(
                            "match over: {}",
                            match result.winner {
                                None => "drawn",
                                Some(seat) if Some(seat) == room.my_seat() => "won",
                                Some(_) => "lost",
                            }
                        ));
                        finished = true;
                    }
                    _ => {}
                }
                if finished && !self.room_done {
                    self.room_done = true;
                    self.room_finished(link, game_counts, now).await;
                }
                self.ask();
            }
        }
    }

    /// The game (or match) of the bot's room is over: a tournament's room is kept (the
    /// server moves the bot on); any other is left, and counted for the bot's own
    /// challenges if it `counts` (it had a result: an aborted game is challenged again).
    async fn room_finished(&mut self, link: &Link, counts: bool, now: Instant) {
        let Some(id) = self.room.as_ref().map(|r| r.id) else {
            return;
        };
        if self.boards.contains(&id) {
            return;
        }
        if let Some(s) = self.seeker.as_mut().filter(|_| counts) {
            let before = s.played();
            s.game_over(id, now);
            if s.played() > before {
                say(&format!("played {} of {} games", s.played(), s.games()));
            }
        }
        self.send(link, ClientMsg::LeaveRoom).await;
    }

    /// Whether `e` refuses the move (or swap-opening answer) the bot sent on its turn.
    fn move_refused(&self, e: &banco_protocol::ErrorMsg) -> bool {
        refuses_move(
            e.code,
            self.asked.is_some(),
            self.room.as_ref().is_some_and(|r| r.my_turn()),
        )
    }

    /// An error from the server: an answer to the bot's challenge or tournament entry
    /// if one is awaited, else said.
    fn on_error(&mut self, e: banco_protocol::ErrorMsg, now: Instant) {
        if let Some(line) = self.seeker.as_mut().and_then(|s| s.refused(&e, now)) {
            if !line.is_empty() {
                say(&line);
            }
            return;
        }
        if let Some(t) = self.tournament.as_mut().filter(|t| t.joining) {
            match e.code {
                ErrorCode::AlreadyEntered => {
                    t.joining = false;
                    t.entered = true;
                    say(&format!("entered in tournament {} already", t.id));
                    return;
                }
                ErrorCode::NoSuchTournament
                | ErrorCode::EntriesClosed
                | ErrorCode::TournamentOver
                | ErrorCode::ChallengeRefused
                | ErrorCode::NotEntered => {
                    t.joining = false;
                    if t.entered {
                        t.over = e.code == ErrorCode::TournamentOver;
                    } else {
                        t.over = true;
                        self.finished = Some(Err(format!(
                            "cannot enter tournament {}: {}",
                            t.id, e.message
                        )));
                    }
                    return;
                }
                _ => {}
            }
        }
        say(&format!("the server says: {}", e.message));
    }

    /// A view of a tournament the bot was not told to enter that names it: an organiser
    /// entered it. It plays there as in its own (declining challenges until the end,
    /// entered again after a drop), or withdraws (the message to send).
    fn entered_by_organiser(&mut self, view: &banco_protocol::TournamentView) -> Option<ClientMsg> {
        if self
            .tournament
            .as_ref()
            .is_some_and(|t| !t.over || t.id == view.summary.id)
        {
            return None;
        }
        let id = view.summary.id;
        match plan::entered_by_organiser(&self.opts.engine, view, &self.me)? {
            plan::Entered::Plays => {
                say(&format!(
                    "entered in tournament {id} ({}, {}) by its organiser {}",
                    view.summary.name, view.summary.format, view.summary.organiser
                ));
                let mut entry = Entry::new(id);
                entry.entered = true;
                self.tournament = Some(entry);
                None
            }
            plan::Entered::Withdraws(why) => {
                say(&format!(
                    "entered in tournament {id} by its organiser {}, but the engine cannot play it ({why}): withdrawing",
                    view.summary.organiser
                ));
                Some(ClientMsg::WithdrawTournament(id))
            }
        }
    }

    /// A view of a tournament: the bot's entry confirmed, each new round and the end
    /// said.
    fn on_tournament(&mut self, view: &banco_protocol::TournamentView) {
        let me = self.me.to_lowercase();
        let Some(t) = self.tournament.as_mut().filter(|t| t.id == view.summary.id) else {
            return;
        };
        let listed = view.entrants.iter().any(|e| e.name.to_lowercase() == me);
        if t.joining && listed {
            t.joining = false;
            say(&format!(
                "entered tournament {} ({}, {}): {} entrants",
                t.id,
                view.summary.name,
                view.summary.format,
                view.entrants.len()
            ));
        }
        t.entered |= listed;
        if view.summary.round > t.round {
            t.round = view.summary.round;
            say(&format!(
                "tournament {}: round {} of {} paired",
                t.id, view.summary.round, view.summary.rounds
            ));
        }
        if view.summary.status == TournamentStatus::Over && !t.over {
            t.over = true;
            let place = view
                .standings
                .iter()
                .find(|l| view.name_of(l.entrant).to_lowercase() == me);
            if let Some(line) = place {
                say(&format!(
                    "tournament {} is over: place {} with {}.{} points",
                    t.id,
                    line.rank,
                    line.points / 10,
                    line.points % 10
                ));
            }
        }
    }

    /// A challenge: taken if the engine plays it and the bot is free, declined with a
    /// reason otherwise; a Gomocup engine is asked about a board and rule it was not
    /// asked about before.
    async fn on_challenge(&mut self, link: &Link, ch: Challenge) {
        say(&format!(
            "challenge {} from {}: {}",
            ch.id,
            ch.from,
            settings_text(&ch.settings.game)
        ));
        if self.room.as_ref().is_some_and(Room::playing) {
            return self
                .decline(link, ch.id, DeclineReason::NotNow, "playing a game")
                .await;
        }
        if let Some(t) = self.tournament.as_ref().filter(|t| !t.over) {
            let why = format!("playing in tournament {}", t.id);
            return self.decline(link, ch.id, DeclineReason::NotNow, &why).await;
        }
        if self.next_board.is_some() {
            return self
                .decline(
                    link,
                    ch.id,
                    DeclineReason::NotNow,
                    "a tournament game waits",
                )
                .await;
        }
        match policy::fit(&self.opts.engine, &ch.settings) {
            Fit::Plays => self.accept(link, ch.id).await,
            Fit::Declines(reason, why) => self.decline(link, ch.id, reason, &why).await,
            Fit::AskEngine {
                width,
                height,
                rule,
            } => {
                let key = (width, height, rule);
                if let Some(answer) = self.probed.get(&key).cloned() {
                    return self.on_probe(link, ch.id, answer).await;
                }
                self.waiting.insert(ch.id, key);
                let EngineSpec::Gomocup(command) = self.opts.engine.clone() else {
                    return;
                };
                let tx = self.probe_tx.clone();
                let id = ch.id;
                tokio::task::spawn_blocking(move || {
                    let answer = engine::gomocup_plays(&command, width, height, rule);
                    let _ = tx.send((id, answer));
                });
            }
        }
    }

    async fn on_probe(&mut self, link: &Link, id: ChallengeId, answer: Result<(), String>) {
        if let Some(key) = self.waiting.remove(&id) {
            self.probed.insert(key, answer.clone());
        }
        match answer {
            Ok(()) => self.accept(link, id).await,
            Err(why) => {
                let why = format!("the engine does not play it ({why})");
                self.decline(link, id, DeclineReason::Variant, &why).await;
            }
        }
    }

    async fn accept(&mut self, link: &Link, id: ChallengeId) {
        if self.room.as_ref().is_some_and(Room::playing) {
            return self
                .decline(link, id, DeclineReason::NotNow, "playing a game")
                .await;
        }
        say(&format!("accepting challenge {id}"));
        self.send(link, ClientMsg::AcceptChallenge(id)).await;
        // Its own challenge waits: it is called off, and sent again after this game.
        if let Some(ours) = self
            .seeker
            .as_mut()
            .and_then(|s| s.set_aside(Instant::now()))
        {
            self.send(link, ClientMsg::CancelChallenge(ours)).await;
        }
    }

    async fn decline(&mut self, link: &Link, id: ChallengeId, reason: DeclineReason, why: &str) {
        say(&format!("declining challenge {id} ({reason}): {why}"));
        self.send(link, ClientMsg::DeclineChallenge { id, reason })
            .await;
    }

    /// Asks the engine for a move when it is the bot's turn and it has not been asked
    /// about this position yet.
    fn ask(&mut self) {
        let Some(room) = self.room.as_ref() else {
            return;
        };
        if self.asked.is_some() || !room.my_turn() {
            return;
        }
        let (Some(game), Some(seat)) = (room.game.as_ref(), room.my_seat()) else {
            return;
        };
        let budget = self.budget(room, game, seat);
        if let Some(swap) = game.swap_in_progress() {
            // The opening's step is the bot's: its engine proposes or decides.
            let GameSettings::Caro {
                width,
                height,
                rule,
                ..
            } = &room.settings.game
            else {
                return;
            };
            let stones: Vec<banco_rules::caro::Point> = swap
                .stones
                .iter()
                .map(|p| banco_rules::caro::Point::new(p.x, p.y))
                .collect();
            self.jobs += 1;
            self.asked = Some(self.jobs);
            say(&format!(
                "the swap opening asks the engine after {} stones",
                stones.len()
            ));
            self.engine.send(Job::Swap {
                stamp: Stamp {
                    job: self.jobs,
                    room: room.id,
                    game: game.number,
                    ply: stones.len(),
                },
                spec: GameSpec::Caro {
                    width: *width,
                    height: *height,
                    rule: *rule,
                    opening: Vec::new(),
                },
                stones,
                budget,
            });
            return;
        }
        let spec = match &room.settings.game {
            GameSettings::Caro {
                width,
                height,
                rule,
                ..
            } => GameSpec::Caro {
                width: *width,
                height: *height,
                rule: *rule,
                opening: game.opening.clone(),
            },
            GameSettings::Xiangqi { fen } => GameSpec::Xiangqi {
                fen: game
                    .board
                    .xiangqi()
                    .map(|g| g.start_fen())
                    .or_else(|| fen.clone()),
            },
        };
        let moves: Vec<Move> = game
            .moves
            .iter()
            .filter_map(|m| banco_protocol::convert::to_rules(m.mv))
            .collect();
        self.jobs += 1;
        self.asked = Some(self.jobs);
        self.engine.send(Job::Move {
            stamp: Stamp {
                job: self.jobs,
                room: room.id,
                game: game.number,
                ply: moves.len(),
            },
            spec,
            moves,
            budget,
        });
    }

    /// The time the engine is told it has for the bot's next step in `game`.
    fn budget(
        &self,
        room: &Room,
        game: &crate::room::GameState,
        seat: banco_protocol::Seat,
    ) -> Budget {
        let now = Instant::now();
        match room.settings.time {
            TimeControl::Unlimited => Budget::Move(self.opts.move_time),
            TimeControl::PerMove { millis } => {
                Budget::Move(less_margin(Duration::from_millis(millis)))
            }
            TimeControl::Clock {
                initial_millis,
                increment_millis,
            } => {
                let left = |s| {
                    game.clocks
                        .as_ref()
                        .map_or(Duration::from_millis(initial_millis), |c| {
                            c.remaining(s, now)
                        })
                };
                Budget::Clock {
                    own: less_margin(left(seat)),
                    other: left(seat.other()),
                    increment: Duration::from_millis(increment_millis),
                    initial: Duration::from_millis(initial_millis),
                }
            }
        }
    }

    /// The engine's answer in a swap opening: its stones go as moves, its decision as
    /// [`ClientMsg::Swap`], if the opening still waits for it and allows it; an answer
    /// the opening does not allow resigns with the reason.
    async fn on_swapped(&mut self, link: &Link, reply: SwapReply) {
        let Some(swap) = self
            .room
            .as_ref()
            .and_then(|r| r.game.as_ref())
            .and_then(|g| g.swap_in_progress())
            .cloned()
        else {
            return;
        };
        let point = |p: banco_rules::caro::Point| {
            ClientMsg::Move(banco_protocol::Move::Caro(banco_protocol::Point::new(
                p.x, p.y,
            )))
        };
        let mut msgs = Vec::new();
        let allowed = match (swap.stage, reply) {
            (SwapStage::Propose, SwapReply::Propose(three)) if swap.stones.is_empty() => {
                msgs.extend(three.map(point));
                true
            }
            (SwapStage::Answer | SwapStage::Choose, SwapReply::Swap)
                if swap.choices.contains(&SwapChoice::Black) =>
            {
                msgs.push(ClientMsg::Swap(SwapChoice::Black));
                true
            }
            (SwapStage::Answer | SwapStage::Choose, SwapReply::Stay(_))
                if swap.choices.contains(&SwapChoice::White) =>
            {
                // The stone is the engine's first move, kept by its thread.
                msgs.push(ClientMsg::Swap(SwapChoice::White));
                true
            }
            (SwapStage::Answer, SwapReply::PlaceTwo(two))
                if swap.choices.contains(&SwapChoice::PlaceTwo) =>
            {
                msgs.push(ClientMsg::Swap(SwapChoice::PlaceTwo));
                msgs.extend(two.map(point));
                true
            }
            _ => false,
        };
        if !allowed {
            self.asked = None;
            let reason = format!(
                "the engine answered '{reply}' in the swap opening, which it does not allow now"
            );
            self.resign_for(link, &reason).await;
            return;
        }
        say(&format!("swap opening: the engine answered '{reply}'"));
        for msg in msgs {
            self.send(link, msg).await;
        }
    }

    /// Says why in the room and resigns.
    async fn resign_for(&mut self, link: &Link, reason: &str) {
        say(&format!("the engine failed: {reason}; resigning"));
        self.send(
            link,
            ClientMsg::Chat(format!(
                "{}'s engine failed: {reason}. Resigning.",
                self.opts.name
            )),
        )
        .await;
        self.send(link, ClientMsg::Resign).await;
    }

    /// The engine's answer: played if it is still about the position on the board;
    /// a failure resigns the game, with the reason said in the room.
    async fn on_done(&mut self, link: &Link, done: Done) {
        let (Done::Moved { stamp, .. } | Done::Swapped { stamp, .. } | Done::Failed { stamp, .. }) =
            &done;
        if self.asked != Some(stamp.job) {
            return;
        }
        match done {
            Done::Moved { mv, eval, .. } => {
                if eval.is_some() {
                    self.last_eval = eval;
                }
                self.send(link, ClientMsg::Move(banco_protocol::convert::to_wire(mv)))
                    .await;
            }
            Done::Swapped { reply, .. } => self.on_swapped(link, reply).await,
            Done::Failed { reason, .. } => {
                self.asked = None;
                self.resign_for(link, &reason).await;
            }
        }
    }
}

/// Whether a refusal with `code` is of the move the bot sent (`asked`: the engine was
/// asked about this position) on its turn: a move that breaks the rules. A move that
/// came too late (not its turn any more, the game over) is no such refusal.
fn refuses_move(code: ErrorCode, asked: bool, my_turn: bool) -> bool {
    matches!(
        code,
        ErrorCode::IllegalMove | ErrorCode::Occupied | ErrorCode::OutOfBounds
    ) && asked
        && my_turn
}

/// Whether a game that ended for `reason` had a result (one of the bot's games): an
/// aborted game, or one ended for a new game, did not.
fn counts(reason: EndReason) -> bool {
    !matches!(reason, EndReason::Aborted | EndReason::NewGame)
}

/// `d` less what the way to the server and back may take: a tenth, at most
/// [`MOST_MARGIN`].
fn less_margin(d: Duration) -> Duration {
    d.saturating_sub((d / 10).min(MOST_MARGIN))
        .max(Duration::from_millis(10))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_leaves_a_margin_for_the_network() {
        assert_eq!(
            less_margin(Duration::from_secs(1)),
            Duration::from_millis(900)
        );
        assert_eq!(
            less_margin(Duration::from_secs(60)),
            Duration::from_millis(59_700)
        );
        assert_eq!(less_margin(Duration::ZERO), Duration::from_millis(10));
    }

    #[test]
    fn only_a_refusal_of_its_own_move_on_its_turn_resigns() {
        for code in [
            ErrorCode::IllegalMove,
            ErrorCode::Occupied,
            ErrorCode::OutOfBounds,
        ] {
            assert!(refuses_move(code, true, true), "{code:?}");
            assert!(!refuses_move(code, false, true), "{code:?} not asked");
            assert!(!refuses_move(code, true, false), "{code:?} not its turn");
        }
        for code in [
            ErrorCode::NotYourTurn,
            ErrorCode::GameOver,
            ErrorCode::NoGame,
            ErrorCode::Busy,
        ] {
            assert!(!refuses_move(code, true, true), "{code:?}");
        }
    }
}
