//! Tournaments: one actor task per tournament, like rooms, and the cheap
//! [`TournamentHandle`] the lobby reaches it through.
//!
//! - [`record`]: the tournament's record, pure: entrants, rounds, pairing (through
//!   banco-pairing: Dutch Swiss, Berger round robins, arena waves), standings and the
//!   view.
//! - [`export`]: TRF, CSV and JSON.
//! - [`mod@self`]: the actor: one message per intent ([`TournamentRequest`]), boards'
//!   results from their rooms ([`TournamentMsg::BoardOver`]), players coming onto the
//!   server ([`TournamentMsg::Arrived`]: their board again; an arena pairs them), the
//!   start time and an arena's end as timers.
//!
//! An arena pairs only the players connected when a wave is paired: one who has left
//! the server is passed over (their score kept) and paired again as soon as they are
//! back; one who withdrew is paused the same way until they enter again.
//!
//! Forfeits count from the board's pairing time, which is kept on disk: a restart does
//! not give an absent player more time (only, when the time has passed meanwhile, the
//! reconnection grace, at most the forfeit time, for the players to come back).
//!
//! Write-ahead like rooms: every change (an entrant, a round paired, a board's room, a
//! result set by hand, the status) is committed to the store before anyone hears of it;
//! a board's result played out is written by its room with the game's end. A round is
//! paired once: its boards are committed before their rooms open, and a restart finds
//! them and opens (or re-adopts) their rooms instead of pairing again.
//!
//! Rooms are the lobby's: the actor asks it to open a board's room
//! ([`crate::lobby::LobbyHandle::open_boards`]); the lobby places the players who are
//! free there and tells each [`ServerMsg::TournamentGame`].

pub mod export;
pub mod record;

use std::collections::{HashMap, HashSet};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use banco_protocol::{
    BoardResult, ErrorCode, ErrorMsg, ExportFormat, GameKind, Level, RoomId, RoomSettings,
    SeatKind, ServerMsg, TournamentGame, TournamentId, TournamentSettings, TournamentStart,
    TournamentStatus, bot_name,
};

use crate::ClientId;
use crate::connection::{Outbox, Outgoing};
use crate::lobby::LobbyHandle;
use crate::room::{BoardLink, BoardReport};
use crate::store::tournaments::TournamentWrite;
use crate::store::{Entry, StoreHandle};
use crate::wall_clock::unix_ms;
use record::{EntrantRecord, Record};

/// Whoever asks something of a tournament, as the lobby knows them.
#[derive(Debug, Clone)]
pub struct Asker {
    /// Their session.
    pub client: ClientId,
    /// Their name on the server.
    pub name: String,
    /// Logged in to an account.
    pub account: bool,
    /// Where answers go.
    pub outbox: Outbox,
}

/// One request per intent.
#[derive(Debug, Clone)]
pub enum TournamentRequest {
    /// Enter.
    Join,
    /// Leave: not paired again.
    Withdraw,
    /// The view, and its changes from now on.
    Show,
    /// The organiser starts it.
    Start,
    /// The organiser pairs the next round.
    Pair,
    /// The organiser pauses or resumes it.
    Pause(bool),
    /// The organiser adds a round (Swiss).
    AddRound,
    /// The organiser enters the server's bot of this level.
    AddBot(Level),
    /// The organiser enters this bot account, whose session the lobby found (connected,
    /// taking challenges): it follows the tournament from now on.
    EnterBotAccount(Asker),
    /// The organiser removes this player.
    Remove(String),
    /// The organiser sets a board's result by hand.
    SetResult {
        /// The round.
        round: u32,
        /// The board.
        board: u32,
        /// The result.
        result: BoardResult,
    },
    /// The tournament exported.
    Export(ExportFormat),
    /// The asker wants a bye in this round (`None`: the next), or takes it back.
    Bye {
        /// The round, or the next to be paired.
        round: Option<u32>,
        /// Take the request back.
        cancel: bool,
    },
}

/// What the actor is sent.
#[derive(Debug)]
pub enum TournamentMsg {
    /// A request from someone.
    Request {
        /// Who asks.
        asker: Asker,
        /// What.
        request: TournamentRequest,
    },
    /// A board's result, on disk (its room wrote it).
    BoardOver(BoardReport),
    /// A player has come onto the server (connected, or back).
    Arrived(String),
    /// A player's last session has left the server.
    Left(String),
    /// The tournament exported, for the HTTP download (no session asks).
    Export {
        /// Which form.
        format: ExportFormat,
        /// The file name and text, or why not.
        reply: tokio::sync::oneshot::Sender<Result<(String, String), ErrorMsg>>,
    },
}

/// A board's room for the lobby to open (or, after a restart, to find again).
#[derive(Debug, Clone)]
pub struct BoardOpening {
    /// Which pairing, for whom.
    pub link: BoardLink,
    /// The room's settings: the tournament's, its seats people's or bots'.
    pub settings: RoomSettings,
    /// The room it was being played in before a restart: kept if it is still there
    /// with the same players.
    pub was: Option<RoomId>,
    /// The notice for each seat's person (the room filled in by the lobby).
    pub notices: [Option<TournamentGame>; 2],
}

/// A cheap, cloneable way to talk to a tournament.
#[derive(Debug, Clone)]
pub struct TournamentHandle {
    /// Its inbox; unbounded, so the lobby never waits on a tournament (the lobby's own
    /// inbox is bounded, which bounds this one in practice).
    tx: mpsc::UnboundedSender<TournamentMsg>,
}

impl TournamentHandle {
    /// Sends `msg`; `false` if the tournament's task is gone.
    pub fn send(&self, msg: TournamentMsg) -> bool {
        self.tx.send(msg).is_ok()
    }
}

/// What a tournament needs from the server around it.
#[derive(Clone)]
pub struct TournamentContext {
    /// Where its writes go.
    pub store: StoreHandle,
    /// Opens its boards' rooms and keeps the list.
    pub lobby: LobbyHandle,
    /// Stops it.
    pub shutdown: CancellationToken,
    /// How long players have to come back to their boards after a restart, when the
    /// forfeit time has passed meanwhile (the server's reconnection grace, at most the
    /// forfeit time).
    pub grace: Duration,
}

/// How a tournament's task begins.
pub enum Beginning {
    /// Just made by `Asker`: its record is written first, then the organiser told.
    Created(Asker),
    /// Read back from the store after a restart: its boards' rooms are found again.
    Restored,
}

/// Starts the actor for `record`.
pub fn spawn(
    record: Record,
    beginning: Beginning,
    ctx: TournamentContext,
    tracker: &tokio_util::task::TaskTracker,
) -> TournamentHandle {
    let (tx, inbox) = mpsc::unbounded_channel();
    let id = record.id;
    let actor = Actor {
        record,
        ctx,
        followers: HashMap::new(),
        log: Vec::new(),
        away: HashSet::new(),
    };
    let span = tracing::info_span!("tournament", id);
    tracker.spawn(tracing::Instrument::instrument(
        actor.run(beginning, inbox),
        span,
    ));
    TournamentHandle { tx }
}

/// A tournament's task.
struct Actor {
    /// The tournament.
    record: Record,
    /// Store, lobby, shutdown.
    ctx: TournamentContext,
    /// Who is sent the view when it changes: the organiser, entrants and whoever asked
    /// (by session: their name and where their messages go).
    followers: HashMap<ClientId, (String, Outbox)>,
    /// Writes waiting for this event's commit.
    log: Vec<TournamentWrite>,
    /// The entrants not connected to the server now, by name in lower case (the start
    /// renumbers entrants), as the lobby told ([`TournamentMsg::Arrived`],
    /// [`TournamentMsg::Left`]); the server's bots never.
    away: HashSet<String>,
}

/// The nominal rating a server's bot enters with (it orders pairing numbers).
fn bot_rating(level: Level) -> u16 {
    match level {
        Level::Easy => 1000,
        Level::Casual => 1250,
        Level::Medium => 1500,
        Level::Advanced => 1750,
        Level::Hard => 2000,
        Level::Expert => 2250,
        Level::Max => 2500,
    }
}

pub(crate) fn not_organiser(id: TournamentId) -> ErrorMsg {
    ErrorMsg::new(
        ErrorCode::NotOrganiser,
        format!("only the organiser of tournament {id} may do that"),
    )
}

impl Actor {
    async fn run(
        mut self,
        beginning: Beginning,
        mut inbox: mpsc::UnboundedReceiver<TournamentMsg>,
    ) {
        match beginning {
            Beginning::Created(asker) => {
                let r = &self.record;
                self.log.push(TournamentWrite::Created {
                    id: r.id,
                    organiser: r.organiser.clone(),
                    settings: serde_json::to_string(&r.settings).unwrap_or_default(),
                    created_ms: r.created_ms,
                });
                self.write_status();
                self.commit().await;
                tracing::info!(organiser = %asker.name, "tournament created");
                self.follow(&asker);
                self.publish().await;
            }
            Beginning::Restored => {
                tracing::info!(status = self.record.status.as_str(), "tournament reopened");
                let present = self.present().await;
                self.away = self
                    .record
                    .entrants
                    .iter()
                    .zip(present)
                    .filter(|(e, here)| !here && e.bot.is_none())
                    .map(|(e, _)| e.name.to_lowercase())
                    .collect();
                self.reopen_boards().await;
                self.carry_on().await;
                self.publish().await;
            }
        }
        let shutdown = self.ctx.shutdown.clone();
        loop {
            let wake = self.next_wake();
            tokio::select! {
                biased;
                () = shutdown.cancelled() => break,
                msg = inbox.recv() => match msg {
                    Some(TournamentMsg::Request { asker, request }) => {
                        self.follow(&asker);
                        if let Err(e) = self.handle(&asker, request).await {
                            asker.outbox.send(ServerMsg::Error(e));
                        }
                    }
                    Some(TournamentMsg::BoardOver(report)) => self.board_over(report).await,
                    Some(TournamentMsg::Arrived(name)) => self.arrived(&name).await,
                    Some(TournamentMsg::Left(name)) => self.left(&name),
                    Some(TournamentMsg::Export { format, reply }) => {
                        let _ = reply.send(export::export(&self.record, format, unix_ms()));
                    }
                    None => break,
                },
                () = sleep_until(wake), if wake.is_some() => self.on_timer().await,
            }
        }
    }

    /// When something happens by itself: a set start, an arena's end.
    fn next_wake(&self) -> Option<Instant> {
        let at = |ms: u64| Instant::now() + Duration::from_millis(ms.saturating_sub(unix_ms()));
        match self.record.status {
            TournamentStatus::Entries => match self.record.settings.start {
                TournamentStart::At { unix_ms } => Some(at(unix_ms)),
                TournamentStart::Manual => None,
            },
            TournamentStatus::Running | TournamentStatus::Paused => {
                let end = self.record.ends_ms.map(|end| at(end + 1));
                let rematch = self.record.rematch_after.map(at);
                match (end, rematch) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                }
            }
            TournamentStatus::Over => None,
        }
    }

    async fn on_timer(&mut self) {
        let now = unix_ms();
        if self.record.status == TournamentStatus::Entries {
            if let TournamentStart::At { unix_ms } = self.record.settings.start
                && now >= unix_ms
                && let Err(e) = self.start().await
            {
                tracing::info!(error = %e, "the tournament could not start at its time");
                // Not again: it waits for the organiser.
                self.record.settings.start = TournamentStart::Manual;
            }
            return;
        }
        if self.record.rematch_after.is_some_and(|due| now >= due) {
            // Two who just met have waited for someone else: paired now.
            let before = self.record.rounds.len();
            self.carry_on().await;
            if self.record.rematch_after.is_some_and(|due| now >= due) {
                // Not paired after all (one left, the arena ended): no more wakes for it.
                self.record.rematch_after = None;
            }
            if self.record.rounds.len() != before {
                self.publish().await;
            }
        }
        if self.record.ends_ms.is_some_and(|end| now >= end) {
            self.carry_on().await;
            self.publish().await;
            // The end has passed: no more wakes for it.
            if self.record.status != TournamentStatus::Over {
                self.record.ends_ms = self.record.ends_ms.map(|_| now.saturating_sub(1));
            }
        }
    }

    fn follow(&mut self, asker: &Asker) {
        self.followers
            .insert(asker.client, (asker.name.clone(), asker.outbox.clone()));
    }

    fn organiser_only(&self, asker: &Asker) -> Result<(), ErrorMsg> {
        if self.record.is_organiser(&asker.name) && asker.account {
            Ok(())
        } else {
            Err(not_organiser(self.record.id))
        }
    }

    async fn handle(&mut self, asker: &Asker, request: TournamentRequest) -> Result<(), ErrorMsg> {
        let id = self.record.id;
        match request {
            TournamentRequest::Show => {
                asker
                    .outbox
                    .send(ServerMsg::Tournament(Box::new(self.view())));
                return Ok(());
            }
            TournamentRequest::Export(format) => {
                let (name, text) = export::export(&self.record, format, unix_ms())?;
                asker
                    .outbox
                    .send(ServerMsg::TournamentExport { name, text });
                return Ok(());
            }
            TournamentRequest::Join => {
                let rating = self.rating_of(&asker.name).await;
                let i = self.record.enter(EntrantRecord {
                    name: asker.name.clone(),
                    bot: None,
                    rating,
                    account: asker.account,
                    joins: 1,
                    withdrawn: false,
                    removed: false,
                })?;
                // Who asks is here.
                self.away.remove(&asker.name.to_lowercase());
                tracing::info!(name = %asker.name, "entered");
                self.log.push(TournamentWrite::Entrant {
                    id,
                    entrant: self.record.stored_entrant(i),
                });
            }
            TournamentRequest::Withdraw => {
                let i = self
                    .record
                    .find(&asker.name)
                    .ok_or_else(|| not_entered(&asker.name))?;
                self.record.withdraw(i)?;
                tracing::info!(name = %asker.name, "withdrew");
                self.log.push(TournamentWrite::Entrant {
                    id,
                    entrant: self.record.stored_entrant(i),
                });
            }
            TournamentRequest::AddBot(level) => {
                self.organiser_only(asker)?;
                let i = self.record.enter(EntrantRecord {
                    name: bot_name(level),
                    bot: Some(level),
                    rating: bot_rating(level),
                    account: false,
                    joins: 1,
                    withdrawn: false,
                    removed: false,
                })?;
                self.log.push(TournamentWrite::Entrant {
                    id,
                    entrant: self.record.stored_entrant(i),
                });
            }
            TournamentRequest::EnterBotAccount(bot) => {
                self.organiser_only(asker)?;
                let rating = self.rating_of(&bot.name).await;
                let i = self.record.enter(EntrantRecord {
                    name: bot.name.clone(),
                    bot: None,
                    rating,
                    account: true,
                    joins: 1,
                    withdrawn: false,
                    removed: false,
                })?;
                // The lobby found its session.
                self.away.remove(&bot.name.to_lowercase());
                tracing::info!(name = %bot.name, "bot account entered by the organiser");
                self.log.push(TournamentWrite::Entrant {
                    id,
                    entrant: self.record.stored_entrant(i),
                });
                // Told with everyone below, once the entry is on disk: the view is how
                // the bot learns it was entered.
                self.follow(&bot);
            }
            TournamentRequest::Remove(name) => {
                self.organiser_only(asker)?;
                let i = self.record.find(&name).ok_or_else(|| not_entered(&name))?;
                self.record.remove(i)?;
                tracing::info!(%name, "removed by the organiser");
                self.log.push(TournamentWrite::Entrant {
                    id,
                    entrant: self.record.stored_entrant(i),
                });
            }
            TournamentRequest::Bye { round, cancel } => {
                let i = self
                    .record
                    .find(&asker.name)
                    .ok_or_else(|| not_entered(&asker.name))?;
                let round = self.record.request_bye(i, round, cancel)?;
                tracing::info!(name = %asker.name, round, cancel, "bye asked for");
                self.log.push(TournamentWrite::ByeRequest {
                    id,
                    round,
                    entrant: i as u32 + 1,
                    wanted: !cancel,
                });
            }
            TournamentRequest::Start => {
                self.organiser_only(asker)?;
                return self.start().await;
            }
            TournamentRequest::Pair => {
                self.organiser_only(asker)?;
                if self.record.arena() {
                    return Err(ErrorMsg::new(
                        ErrorCode::BadSettings,
                        "an arena pairs players as they finish: there are no rounds to pair",
                    ));
                }
                self.pair_round().await?;
                self.publish().await;
                return Ok(());
            }
            TournamentRequest::Pause(paused) => {
                self.organiser_only(asker)?;
                let (from, to) = if paused {
                    (TournamentStatus::Running, TournamentStatus::Paused)
                } else {
                    (TournamentStatus::Paused, TournamentStatus::Running)
                };
                if self.record.status != from {
                    return Err(ErrorMsg::new(
                        ErrorCode::BadSettings,
                        format!(
                            "tournament {id} is {}: it can be paused while running and resumed while paused",
                            self.record.status.as_str()
                        ),
                    ));
                }
                self.record.status = to;
                self.write_status();
                self.commit().await;
                self.carry_on().await;
            }
            TournamentRequest::AddRound => {
                self.organiser_only(asker)?;
                if !matches!(
                    self.record.settings.format,
                    banco_protocol::TournamentFormat::Swiss { .. }
                ) {
                    return Err(ErrorMsg::new(
                        ErrorCode::BadSettings,
                        "only a Swiss can have rounds added",
                    ));
                }
                if self.record.total_rounds >= banco_protocol::tournament::MAX_SWISS_ROUNDS {
                    return Err(ErrorMsg::new(
                        ErrorCode::BadSettings,
                        format!(
                            "a Swiss has at most {} rounds",
                            banco_protocol::tournament::MAX_SWISS_ROUNDS
                        ),
                    ));
                }
                self.record.total_rounds += 1;
                if self.record.status == TournamentStatus::Over {
                    self.record.status = TournamentStatus::Running;
                }
                self.write_status();
                self.commit().await;
                self.carry_on().await;
            }
            TournamentRequest::SetResult {
                round,
                board,
                result,
            } => {
                self.organiser_only(asker)?;
                if self.record.status == TournamentStatus::Entries {
                    return Err(ErrorMsg::new(
                        ErrorCode::NoSuchBoard,
                        format!("tournament {id} has not started: it has no boards yet"),
                    ));
                }
                self.record.set_result(round, board, result, true)?;
                tracing::info!(round, board, result = result.text(), "result set by hand");
                self.log.push(TournamentWrite::Result {
                    id,
                    round,
                    board,
                    result: result.text().to_string(),
                    by_hand: true,
                    berserk: None,
                });
                self.commit().await;
                self.carry_on().await;
            }
        }
        self.commit().await;
        if self.record.arena() {
            // A player back (or a late entrant) is paired at once.
            self.carry_on().await;
        }
        self.publish().await;
        Ok(())
    }

    /// `name` has come onto the server: their boards waiting for them are told again
    /// (they are placed at one when free); an arena pairs them again.
    async fn arrived(&mut self, name: &str) {
        let Some(p) = self.record.find(name) else {
            return;
        };
        if self.away.remove(&name.to_lowercase()) {
            // Told before the board it is given again, so that the view shows them back.
            self.tell_followers(ServerMsg::Tournament(Box::new(self.view())));
        }
        for r in 0..self.record.rounds.len() {
            let openings: Vec<(usize, BoardOpening)> = self.record.rounds[r]
                .boards
                .iter()
                .enumerate()
                .filter(|(_, b)| b.result.is_none() && b.room.is_some())
                .filter(|(_, b)| b.white == p || b.black == p)
                .map(|(i, b)| {
                    let mut o = self.opening(r, i, b.room, false);
                    // Told to this player only.
                    let seat = usize::from(b.black == p);
                    o.notices[1 - seat] = None;
                    (i, o)
                })
                .collect();
            self.open(r, openings).await;
        }
        if self.record.arena() && self.record.status == TournamentStatus::Running {
            let before = self.record.rounds.len();
            self.carry_on().await;
            if self.record.rounds.len() != before {
                self.publish().await;
            }
        }
    }

    /// An entrant's last session has left the server: marked away for everyone watching.
    fn left(&mut self, name: &str) {
        let Some(p) = self.record.find(name) else {
            return;
        };
        if self.record.entrants[p].bot.is_none() && self.away.insert(name.to_lowercase()) {
            self.tell_followers(ServerMsg::Tournament(Box::new(self.view())));
        }
    }

    /// The view, with who is away.
    fn view(&self) -> banco_protocol::TournamentView {
        let mut v = self.record.view(unix_ms());
        for e in &mut v.entrants {
            e.away = self.away.contains(&e.name.to_lowercase());
        }
        v
    }

    /// By entrant: connected now (bots always are).
    async fn present(&self) -> Vec<bool> {
        let names: Vec<String> = self
            .record
            .entrants
            .iter()
            .map(|e| e.name.clone())
            .collect();
        let mut present = self.ctx.lobby.present(names).await.unwrap_or_default();
        present.resize(self.record.entrants.len(), false);
        present
    }

    /// The player's rating at the tournament's game (0 when unknown).
    async fn rating_of(&self, name: &str) -> u16 {
        let kind = GameKind::of(&self.record.settings.room.game);
        match self.ctx.store.profile(name.to_string(), None).await {
            Ok(Some(p)) => p.games.iter().find(|k| k.game == kind).map_or(0, |k| {
                u16::try_from(k.rating.rating.max(0)).unwrap_or(u16::MAX)
            }),
            _ => 0,
        }
    }

    /// Starts the tournament and pairs its first round (arena: its first wave).
    async fn start(&mut self) -> Result<(), ErrorMsg> {
        let id = self.record.id;
        self.record.start(unix_ms())?;
        tracing::info!(entrants = self.record.entrants.len(), "tournament started");
        self.log.push(TournamentWrite::Entrants {
            id,
            entrants: (0..self.record.entrants.len())
                .map(|i| self.record.stored_entrant(i))
                .collect(),
            bye_requests: self
                .record
                .bye_requests
                .iter()
                .map(|&(round, p)| (round, p as u32 + 1))
                .collect(),
        });
        self.write_status();
        self.commit().await;
        self.carry_on().await;
        self.publish().await;
        Ok(())
    }

    /// Whatever comes next by itself: the next round once one is over (or the arena's
    /// next wave), or the end.
    async fn carry_on(&mut self) {
        if self.record.status != TournamentStatus::Running {
            return;
        }
        if self.record.arena() {
            let present = self.present().await;
            while self.record.pair_wave(unix_ms(), &present).is_some() {
                let r = self.record.rounds.len() - 1;
                self.publish_round(r).await;
            }
        } else if self.record.round_done()
            && (self.record.rounds.len() as u32) < self.record.total_rounds
            && let Err(e) = self.pair_round().await
        {
            // The organiser decides what now (a result by hand, a removal, the end).
            tracing::warn!(error = %e, "the next round could not be paired");
            self.tell_organiser(ServerMsg::Error(ErrorMsg::new(
                e.code,
                format!(
                    "round {} could not be paired: {}",
                    self.record.rounds.len() + 1,
                    e.message
                ),
            )));
        }
        if self.record.finished(unix_ms()) {
            self.record.status = TournamentStatus::Over;
            self.write_status();
            self.commit().await;
            let winners = self.record.winners();
            tracing::info!(?winners, "tournament over");
            self.publish().await;
            self.tell_followers(ServerMsg::TournamentOver {
                id: self.record.id,
                winners,
            });
        }
    }

    /// Pairs the next round (Swiss, round robin) and opens its rooms.
    async fn pair_round(&mut self) -> Result<(), ErrorMsg> {
        self.record.pair_next(unix_ms())?;
        let r = self.record.rounds.len() - 1;
        tracing::info!(
            round = r + 1,
            boards = self.record.rounds[r].boards.len(),
            "round paired"
        );
        self.publish_round(r).await;
        // Boards decided at once (a withdrawn player's forfeits) may end the round.
        if self.record.round_done() {
            Box::pin(self.carry_on()).await;
        }
        Ok(())
    }

    /// Writes round `r`'s pairing, then opens the rooms of its boards still to play.
    async fn publish_round(&mut self, r: usize) {
        let (boards, byes) = self.record.stored_round(r);
        self.log.push(TournamentWrite::Paired {
            id: self.record.id,
            round: r as u32 + 1,
            boards,
            byes,
        });
        self.commit().await;
        let openings: Vec<(usize, BoardOpening)> = self.record.rounds[r]
            .boards
            .iter()
            .enumerate()
            .filter(|(_, b)| b.result.is_none() && b.room.is_none())
            .map(|(i, _)| (i, self.opening(r, i, None, false)))
            .collect();
        self.open(r, openings).await;
    }

    /// After a restart: each board still to play gets its room back (the one it was in,
    /// if still there with its players) or a new one.
    async fn reopen_boards(&mut self) {
        for r in 0..self.record.rounds.len() {
            let openings: Vec<(usize, BoardOpening)> = self.record.rounds[r]
                .boards
                .iter()
                .enumerate()
                .filter(|(_, b)| b.result.is_none())
                .map(|(i, b)| (i, self.opening(r, i, b.room, true)))
                .collect();
            if !openings.is_empty() {
                self.open(r, openings).await;
            }
        }
    }

    /// Asks the lobby to open the rooms, and writes where each board is played.
    async fn open(&mut self, r: usize, openings: Vec<(usize, BoardOpening)>) {
        if openings.is_empty() {
            return;
        }
        let (index, openings): (Vec<usize>, Vec<BoardOpening>) = openings.into_iter().unzip();
        let Ok(rooms) = self.ctx.lobby.open_boards(openings).await else {
            return;
        };
        for (i, room) in index.into_iter().zip(rooms) {
            let Some(room) = room else {
                tracing::error!(
                    round = r + 1,
                    board = i + 1,
                    "a board's room could not be opened"
                );
                continue;
            };
            let b = &mut self.record.rounds[r].boards[i];
            if b.room != Some(room) {
                b.room = Some(room);
                self.log.push(TournamentWrite::Room {
                    id: self.record.id,
                    round: r as u32 + 1,
                    board: i as u32 + 1,
                    room,
                });
            }
        }
        self.commit().await;
    }

    /// The room to open for board `i` of round `r`; `restarted`: after a restart (the
    /// players get the reconnection grace if the forfeit time has passed meanwhile).
    fn opening(&self, r: usize, i: usize, was: Option<RoomId>, restarted: bool) -> BoardOpening {
        let rec = &self.record;
        let b = &rec.rounds[r].boards[i];
        let players = [b.white, b.black].map(|p| &rec.entrants[p]);
        let mut settings = rec.settings.room.clone();
        settings.seats = players.map(|e| match e.bot {
            Some(level) => SeatKind::Bot(level),
            None => SeatKind::Human,
        });
        settings.first = banco_protocol::FirstMove::Me;
        settings.rated = rec.settings.rated;
        let names = players.map(|e| e.bot.is_none().then(|| e.name.clone()));
        let forfeit_secs = rec.settings.forfeit_secs;
        let mut absent_due_ms = b.paired_ms + u64::from(forfeit_secs) * 1000;
        if restarted {
            // The reconnection grace, never more than the forfeit time itself.
            let grace = u64::try_from(self.ctx.grace.as_millis())
                .unwrap_or(u64::MAX)
                .min(u64::from(forfeit_secs) * 1000);
            absent_due_ms = absent_due_ms.max(unix_ms().saturating_add(grace));
        }
        let notices = [0usize, 1].map(|seat| {
            names[seat].as_ref().map(|_| TournamentGame {
                tournament: rec.id,
                round: r as u32 + 1,
                board: i as u32 + 1,
                room: 0,
                opponent: players[1 - seat].name.clone(),
                white: seat == 0,
                forfeit_secs,
            })
        });
        BoardOpening {
            link: BoardLink {
                tournament: rec.id,
                round: r as u32 + 1,
                board: i as u32 + 1,
                names,
                forfeit_after: Duration::from_secs(u64::from(forfeit_secs)),
                absent_due_ms,
                berserk: matches!(
                    rec.settings.format,
                    banco_protocol::TournamentFormat::Arena { berserk: true, .. }
                ),
            },
            settings,
            was,
            notices,
        }
    }

    /// A board's room says how it ended (already on disk).
    async fn board_over(&mut self, report: BoardReport) {
        if self
            .record
            .set_result_berserk(
                report.round,
                report.board,
                report.result,
                false,
                Some(report.berserk),
            )
            .is_err()
        {
            tracing::warn!(
                ?report,
                "a result for a board this tournament does not have"
            );
            return;
        }
        tracing::info!(
            round = report.round,
            board = report.board,
            result = report.result.text(),
            "board over"
        );
        self.carry_on().await;
        self.publish().await;
    }

    fn write_status(&mut self) {
        let r = &self.record;
        self.log.push(TournamentWrite::Status {
            id: r.id,
            status: r.status.as_str().to_string(),
            total_rounds: r.total_rounds,
            started_ms: r.started_ms,
            ends_ms: r.ends_ms,
        });
    }

    /// Commits what this event wrote before anyone hears of it.
    async fn commit(&mut self) {
        if self.log.is_empty() {
            return;
        }
        let entries = self
            .log
            .drain(..)
            .map(|w| Entry::Tournament(Box::new(w)))
            .collect();
        self.ctx.store.commit(entries).await;
    }

    /// Sends the view to every follower and the summary to the lobby's list.
    async fn publish(&mut self) {
        self.commit().await;
        let view = self.view();
        self.ctx
            .lobby
            .tournament_changed(view.summary.clone())
            .await;
        self.tell_followers(ServerMsg::Tournament(Box::new(view)));
    }

    /// Tells the organiser's sessions among the followers.
    fn tell_organiser(&self, msg: ServerMsg) {
        let out = Outgoing::new(msg);
        for (name, outbox) in self.followers.values() {
            if self.record.is_organiser(name) {
                outbox.push(&out);
            }
        }
    }

    fn tell_followers(&mut self, msg: ServerMsg) {
        let out = Outgoing::new(msg);
        self.followers.retain(|_, (_, outbox)| outbox.push(&out));
    }
}

fn not_entered(name: &str) -> ErrorMsg {
    ErrorMsg::new(
        ErrorCode::NotEntered,
        format!("{name} is not entered in this tournament"),
    )
}

/// Checks settings a client sent for a new tournament and makes them the
/// tournament's own (the seats, first move and rated flag are the tournament's).
pub fn settle(mut settings: TournamentSettings) -> Result<TournamentSettings, ErrorMsg> {
    record::check_settings(&settings)?;
    settings.name = settings.name.trim().to_string();
    settings.room.seats = [SeatKind::Human, SeatKind::Human];
    settings.room.first = banco_protocol::FirstMove::Me;
    settings.room.rated = settings.rated;
    crate::room::settings::validate(&settings.room)?;
    Ok(settings)
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
