//! One task per client: the Hello/Welcome handshake, then each request routed to the
//! lobby or to the client's room, until the client goes, falls too far behind, or the
//! server shuts down.
//!
//! The session knows where its client is (lobby or a room) and nothing about games: rooms
//! answer in-room requests themselves, straight into the client's outbox.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use banco_protocol::{
    ClientMsg, Credentials, ErrorCode, ErrorMsg, Hello, PROTOCOL_VERSION, PasswordChange,
    ResumeToken, ServerMsg,
};

use crate::ClientId;
use crate::accounts::{Accounts, Identity};
use crate::admission::{AddressKey, REFUSAL_TIME, Ticket};
use crate::config::Config;
use crate::connection::{self, FrameSink, FrameSource, Incoming, Outbox};
use crate::lobby::tournaments::TournamentAsk;
use crate::lobby::{Arrival, LobbyHandle, Placements};
use crate::names::clean_name;
use crate::room::{Guest, Request, RoomHandle, settings};
use crate::store::{ReadError, StoreError, StoreHandle};
use crate::token::TokenHash;
use crate::tournament::TournamentRequest;

/// How long a new connection has to say Hello.
const HELLO_TIME: Duration = Duration::from_secs(30);

/// What the server around a session provides.
#[derive(Clone)]
pub struct SessionContext {
    /// Outbox size, the server's name.
    pub config: Arc<Config>,
    /// Where lobby requests go.
    pub lobby: LobbyHandle,
    /// Where reads of the records (leaderboard, history, replays) go.
    pub store: StoreHandle,
    /// Logins, registrations, password changes.
    pub accounts: Accounts,
    /// Engine reviews of finished games.
    pub reviewer: crate::review::Reviewer,
    /// Fires when the server stops: the session says so and ends.
    pub shutdown: CancellationToken,
    /// This connection's place in the connection budgets, held while the session runs;
    /// one that carries a refusal is told it after its Hello, and closed.
    pub ticket: Ticket,
}

/// Serves one TCP client connection to its end.
pub async fn serve(stream: TcpStream, peer: SocketAddr, ctx: SessionContext) {
    let (source, sink) = connection::tcp(stream);
    serve_transport(source, sink, peer, ctx).await;
}

/// Serves one client over any transport (a TCP socket, a browser's WebSocket) to its
/// end: the session does not know which.
pub async fn serve_transport<R: FrameSource, W: FrameSink>(
    source: R,
    sink: W,
    peer: SocketAddr,
    ctx: SessionContext,
) {
    let span = tracing::info_span!("session", %peer);
    serve_in_span(source, sink, peer, ctx)
        .instrument(span)
        .await;
}

async fn serve_in_span<R: FrameSource, W: FrameSink>(
    mut inbound: R,
    sink: W,
    peer: SocketAddr,
    ctx: SessionContext,
) {
    let cut = CancellationToken::new();
    let (outbox, writer) = connection::outbox(sink, ctx.config.outbox_bytes, cut.clone());
    let finish = CancellationToken::new();
    let writer = tokio::spawn(writer.run(finish.clone()));

    if let Some(refusal) = ctx.ticket.refusal() {
        // Over a budget: told why after its Hello (what a client waits to read), or
        // after a short while without one.
        let said = tokio::time::timeout(REFUSAL_TIME, inbound.read()).await;
        if !matches!(said, Ok(Err(_)) | Ok(Ok(None))) {
            outbox.send(ServerMsg::Error(ErrorMsg::new(ErrorCode::Busy, refusal)));
        }
    } else if let Some(hello) = handshake(&mut inbound, &outbox, &ctx.shutdown).await {
        run(hello, peer, inbound, outbox, cut, &ctx).await;
    }
    finish.cancel();
    if writer.await.is_err() {
        tracing::error!("the connection's writer failed");
    }
    tracing::debug!("connection closed");
}

/// Waits for the client's Hello. Anything else gets an error (the writer delivers it
/// before the connection closes) and `None`.
async fn handshake(
    inbound: &mut impl FrameSource,
    outbox: &Outbox,
    shutdown: &CancellationToken,
) -> Option<Hello> {
    let first = tokio::select! {
        () = shutdown.cancelled() => return None,
        first = tokio::time::timeout(HELLO_TIME, inbound.read()) => first,
    };
    let refuse = |code, message: String| {
        tracing::info!(%code, %message, "handshake refused");
        outbox.send(ServerMsg::Error(ErrorMsg::new(code, message)));
        None
    };
    match first {
        Err(_) => refuse(
            ErrorCode::Unexpected,
            format!("no Hello within {}s: closing", HELLO_TIME.as_secs()),
        ),
        Ok(Err(e)) => {
            tracing::debug!(error = %e, "connection failed before Hello");
            None
        }
        Ok(Ok(None)) => None,
        Ok(Ok(Some(Incoming::Message(ClientMsg::Hello(hello))))) => {
            if hello.version != PROTOCOL_VERSION {
                return refuse(
                    ErrorCode::VersionMismatch,
                    format!(
                        "this server speaks banco protocol {PROTOCOL_VERSION} and your client \
                         speaks protocol {}: use the same banco version on both machines",
                        hello.version
                    ),
                );
            }
            Some(hello)
        }
        Ok(Ok(Some(Incoming::Malformed(e)))) => refuse(
            ErrorCode::VersionMismatch,
            format!(
                "this server speaks banco protocol {PROTOCOL_VERSION} and could not read your \
                 client's first message ({e}); it may speak another protocol version: use the \
                 same banco version on both machines"
            ),
        ),
        Ok(Ok(Some(Incoming::Message(_)))) => refuse(
            ErrorCode::Unexpected,
            "the first message must be Hello".to_string(),
        ),
    }
}

/// A session past its handshake.
struct Session {
    /// The number the lobby gave this session.
    client: ClientId,
    /// The name the lobby gave it (unique).
    name: String,
    /// Logged in to the account `name` (else a guest).
    account: bool,
    /// The hash of the account token this login used or was handed, revoked at a log
    /// out and kept at a password change.
    account_token: Option<TokenHash>,
    /// The account is a bot account (an engine's): its seats show a BOT tag.
    bot: bool,
    /// Where the client connects from, for the login throttle.
    peer: SocketAddr,
    /// Carried into rooms, so a held seat knows who may reclaim it.
    token: ResumeToken,
    /// Everything for this client goes through here.
    outbox: Outbox,
    /// The room the client is in; `None` in the lobby.
    room: Option<RoomHandle>,
    /// The client's review of a finished game, if it asked for one (dropped with the
    /// session, which stops it).
    review: Option<crate::review::Running>,
}

async fn run(
    hello: Hello,
    peer: SocketAddr,
    mut inbound: impl FrameSource,
    outbox: Outbox,
    cut: CancellationToken,
    ctx: &SessionContext,
) {
    // Cancelled by the lobby when a newer connection takes this session over: unlike a
    // cut, what was queued (the lobby's word why) still reaches the client.
    let over = CancellationToken::new();
    let Some((mut session, placed)) = Box::pin(arrive(hello, peer, outbox, &over, ctx)).await
    else {
        return;
    };

    // The heartbeat: a ping every few seconds; a client silent for three of them is
    // gone (a laptop asleep, a cable pulled), and its seat is held for it. Each client's
    // pings keep their own phase, spread by its number, so a crowd that came in together
    // is not pinged in one burst of hundreds of writes that players' moves queue behind.
    let every = ctx.config.heartbeat;
    let first = tokio::time::Instant::now() + every.mul_f64(ping_phase(session.client));
    let mut beat = tokio::time::interval_at(first, every);
    beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut heard = tokio::time::Instant::now();
    let silence = every * 3;
    let dead = tokio::time::sleep_until(heard + silence);
    tokio::pin!(dead);
    let mut pings = 0u32;
    loop {
        tokio::select! {
            biased;
            () = cut.cancelled() => break,
            // A newer connection took this session over (the lobby told this one why).
            () = over.cancelled() => break,
            () = ctx.shutdown.cancelled() => {
                refuse_shutting_down(&session.outbox);
                break;
            }
            () = &mut dead => {
                if heard.elapsed() >= silence {
                    tracing::info!(client = session.client, "no word from the client for three heartbeats; dropping the connection");
                    break;
                }
                // Heard from meanwhile: the deadline moves only when it comes, not at
                // every message.
                dead.as_mut().reset(heard + silence);
            }
            _ = beat.tick() => {
                pings = pings.wrapping_add(1);
                session.outbox.send(ServerMsg::Ping(pings));
            }
            room = placed.next() => Box::pin(session.take_seat(room, ctx)).await,
            frame = inbound.read() => match frame {
                Ok(Some(Incoming::Message(msg))) => {
                    heard = tokio::time::Instant::now();
                    // Boxed: the handlers' states (accounts, tournaments, challenges...)
                    // would otherwise size every idle session's task; a message costs
                    // one allocation instead.
                    Box::pin(session.handle(msg, ctx)).await;
                }
                Ok(Some(Incoming::Malformed(e))) => {
                    heard = tokio::time::Instant::now();
                    tracing::debug!(error = %e, "malformed message");
                    session.refuse(ErrorCode::Malformed, format!("that message could not be read: {e}"));
                }
                Ok(None) => break,
                Err(e) => {
                    tracing::debug!(error = %e, "connection broken");
                    break;
                }
            },
        }
    }

    Box::pin(depart(session, ctx)).await;
}

/// The session's end: its seat held for it or given up, and the lobby told.
async fn depart(session: Session, ctx: &SessionContext) {
    // The seat is held for a player who dropped, unless their machine or account holds
    // as many as a player may (one client making rooms and dropping, over and over):
    // then they leave the room as if they had quit.
    let held_in = match &session.room {
        Some(room) if ctx.lobby.may_hold(session.client).await => {
            room.dropped(session.client).await.then(|| room.id())
        }
        Some(room) => {
            tracing::info!(
                client = session.client,
                "too many seats held for this player: leaving the room"
            );
            room.leave(session.client).await;
            None
        }
        None => None,
    };
    ctx.lobby.gone(session.client, held_in).await;
}

/// The session's arrival: the name checked, the account identified (or the guest let
/// in), the lobby entered, a held seat taken back. `None`: refused (the client was told
/// why). Run boxed by [`run`], so the login's states do not size the session's task for
/// its whole life.
async fn arrive(
    hello: Hello,
    peer: SocketAddr,
    outbox: Outbox,
    over: &CancellationToken,
    ctx: &SessionContext,
) -> Option<(Session, Placements)> {
    let name = match clean_name(&hello.name) {
        Ok(name) => name,
        Err(e) => {
            outbox.send(ServerMsg::Error(e));
            return None;
        }
    };
    // The account token this login used, or asked for: revoked at a log out.
    let (presented, remember) = match &hello.account {
        Some(Credentials::Token(token)) => (Some(TokenHash::of_account(token)), false),
        Some(Credentials::Password { remember, .. }) => (None, *remember),
        None => (None, false),
    };
    let identity = match ctx
        .accounts
        .identify(&name, hello.account, hello.resume.is_some(), peer.ip())
        .await
    {
        Ok(identity) => identity,
        Err(e) => {
            outbox.send(ServerMsg::Error(e));
            return None;
        }
    };
    let account = identity.is_account();
    let bot = matches!(identity, Identity::Bot(_));
    // Browsers stay logged in with a token; an engine logs in with its password.
    let handed = if account && remember && !bot {
        ctx.accounts.remember(identity.name()).await
    } else {
        None
    };
    let arrival = Arrival {
        name: identity.name().to_string(),
        account,
        bot,
        returning: matches!(identity, Identity::Returning(_)),
        resume: hello.resume,
        address: AddressKey::of(peer.ip()),
        account_token: handed,
    };
    let place = Placements::default();
    let placed = place.clone();
    let entered = match ctx
        .lobby
        .enter(arrival, outbox.clone(), over.clone(), place)
        .await
    {
        Ok(Ok(entered)) => entered,
        Ok(Err(refused)) => {
            if let Some(token) = handed {
                ctx.accounts.forget(TokenHash::of_account(&token)).await;
            }
            outbox.send(ServerMsg::Error(refused));
            return None;
        }
        Err(_) => {
            refuse_shutting_down(&outbox);
            return None;
        }
    };
    let mut session = Session {
        client: entered.client,
        name: entered.name,
        account,
        account_token: presented.or(handed.as_ref().map(TokenHash::of_account)),
        bot,
        peer,
        token: entered.token,
        outbox,
        room: None,
        review: None,
    };
    tracing::info!(client = session.client, name = %session.name, "welcome");
    if let Some((room, seat)) = entered.resume_in {
        if room.resume(session.guest(), seat).await {
            session.room = Some(room);
        } else {
            ctx.lobby.back(session.client, true).await;
        }
    }
    Some((session, placed))
}

/// Where in the heartbeat's period a client's first ping falls, as a fraction from 1/2 to
/// 1 of the period: consecutive client numbers land far apart (the golden ratio's
/// sequence), so clients that connected together are pinged at different moments.
fn ping_phase(client: ClientId) -> f64 {
    const GOLDEN: f64 = 0.618_033_988_749_895;
    0.5 + 0.5 * (client as f64 * GOLDEN).fract()
}

fn refuse_shutting_down(outbox: &Outbox) {
    outbox.send(ServerMsg::Error(ErrorMsg::new(
        ErrorCode::ShuttingDown,
        "the server is shutting down",
    )));
}

impl Session {
    fn guest(&self) -> Guest {
        Guest {
            client: self.client,
            name: self.name.clone(),
            token: self.token,
            outbox: self.outbox.clone(),
            bot_account: self.bot,
        }
    }

    fn refuse(&self, code: ErrorCode, message: impl Into<String>) {
        self.outbox
            .send(ServerMsg::Error(ErrorMsg::new(code, message)));
    }

    async fn handle(&mut self, msg: ClientMsg, ctx: &SessionContext) {
        let request = match msg {
            ClientMsg::Hello(_) => {
                return self.refuse(ErrorCode::Unexpected, "you have already said Hello");
            }
            ClientMsg::ListRooms => {
                let _ = ctx.lobby.list(self.client).await;
                return;
            }
            ClientMsg::CreateRoom(settings) => return self.create(settings, ctx).await,
            ClientMsg::JoinRoom(id) => return self.enter_room(id, true, ctx).await,
            ClientMsg::WatchRoom(id) => return self.enter_room(id, false, ctx).await,
            ClientMsg::LeaveRoom => return self.leave(ctx).await,
            ClientMsg::Leaderboard(game) => {
                let answer = ctx.store.leaderboard(game).await;
                return self.answer_read(answer, |standings| ServerMsg::Leaderboard {
                    game,
                    standings,
                });
            }
            ClientMsg::Judge(arrangement) => {
                match crate::room::arrange::judge(*arrangement) {
                    Ok(judgement) => {
                        self.outbox.send(ServerMsg::Judged(Box::new(judgement)));
                    }
                    Err(e) => {
                        self.outbox.send(ServerMsg::Error(e));
                    }
                }
                return;
            }
            ClientMsg::Profile { name, bot } => return self.profile(name, bot, ctx).await,
            ClientMsg::History { player } => {
                let answer = ctx.store.history(player).await;
                return self.answer_read(answer, ServerMsg::History);
            }
            ClientMsg::Replay(id) => return self.replay(id, ctx).await,
            ClientMsg::Review(id) => return self.review(id, ctx),
            ClientMsg::ChangePassword(change) => {
                return self.change_password(change, ctx).await;
            }
            ClientMsg::LogOut => {
                if let Some(token) = self.account_token.take() {
                    ctx.accounts.forget(token).await;
                }
                self.outbox.send(ServerMsg::LoggedOut);
                return;
            }
            ClientMsg::ParseRecord { text, zone_minutes } => {
                self.outbox
                    .send(crate::record_files::parse(&text, zone_minutes));
                return;
            }
            ClientMsg::WriteRecord {
                record,
                zone_minutes,
            } => {
                self.outbox
                    .send(crate::record_files::write(&record, zone_minutes));
                return;
            }
            // The heartbeat's answer: hearing it is all it is for.
            ClientMsg::Pong(_) => return,
            ClientMsg::Challenge { to, settings } => {
                return self.challenge(to, settings, ctx).await;
            }
            ClientMsg::AcceptChallenge(id) => {
                match ctx.lobby.accept(self.client, id).await {
                    Ok(Ok(room)) => self.take_seat(room, ctx).await,
                    Ok(Err(refused)) => self.outbox_error(refused),
                    Err(_) => refuse_shutting_down(&self.outbox),
                }
                return;
            }
            ClientMsg::DeclineChallenge { id, reason } => {
                return ctx.lobby.decline(self.client, id, reason).await;
            }
            ClientMsg::CancelChallenge(id) => return ctx.lobby.cancel(self.client, id).await,
            ClientMsg::SetChallenges(policy) => {
                return ctx.lobby.set_challenges(self.client, policy).await;
            }
            ClientMsg::Players => return ctx.lobby.players(self.client).await,
            ClientMsg::CreateTournament(settings) => {
                return self.tournament(TournamentAsk::Create(settings), ctx).await;
            }
            ClientMsg::ListTournaments => return self.tournament(TournamentAsk::List, ctx).await,
            ClientMsg::JoinTournament(id) => {
                return self.of_tournament(id, TournamentRequest::Join, ctx).await;
            }
            ClientMsg::WithdrawTournament(id) => {
                return self
                    .of_tournament(id, TournamentRequest::Withdraw, ctx)
                    .await;
            }
            ClientMsg::ShowTournament(id) => {
                return self.of_tournament(id, TournamentRequest::Show, ctx).await;
            }
            ClientMsg::StartTournament(id) => {
                return self.of_tournament(id, TournamentRequest::Start, ctx).await;
            }
            ClientMsg::PairRound(id) => {
                return self.of_tournament(id, TournamentRequest::Pair, ctx).await;
            }
            ClientMsg::PauseTournament { id, paused } => {
                return self
                    .of_tournament(id, TournamentRequest::Pause(paused), ctx)
                    .await;
            }
            ClientMsg::AddRound(id) => {
                return self
                    .of_tournament(id, TournamentRequest::AddRound, ctx)
                    .await;
            }
            ClientMsg::AddTournamentBot { id, level } => {
                return self
                    .of_tournament(id, TournamentRequest::AddBot(level), ctx)
                    .await;
            }
            ClientMsg::EnterBotAccount { id, name } => {
                return self
                    .tournament(TournamentAsk::EnterBotAccount { id, name }, ctx)
                    .await;
            }
            ClientMsg::RemoveEntrant { id, name } => {
                return self
                    .of_tournament(id, TournamentRequest::Remove(name), ctx)
                    .await;
            }
            ClientMsg::SetResult {
                id,
                round,
                board,
                result,
            } => {
                let request = TournamentRequest::SetResult {
                    round,
                    board,
                    result,
                };
                return self.of_tournament(id, request, ctx).await;
            }
            ClientMsg::RequestBye { id, round, cancel } => {
                return self
                    .of_tournament(id, TournamentRequest::Bye { round, cancel }, ctx)
                    .await;
            }
            ClientMsg::ExportTournament { id, format } => {
                return self
                    .of_tournament(id, TournamentRequest::Export(format), ctx)
                    .await;
            }
            ClientMsg::Move(mv) => Request::Move(mv),
            ClientMsg::Chat(text) => Request::Chat(text),
            ClientMsg::Offer(kind) => Request::Offer(kind),
            ClientMsg::Answer { kind, accept } => Request::Answer { kind, accept },
            ClientMsg::Withdraw(kind) => Request::Withdraw(kind),
            ClientMsg::Resign => Request::Resign,
            ClientMsg::ResignMatch => Request::ResignMatch,
            ClientMsg::Hint => Request::Hint,
            ClientMsg::Swap(choice) => Request::Swap(choice),
            ClientMsg::Facts => Request::Facts,
            ClientMsg::Trial(moves) => Request::Trial(moves),
            ClientMsg::Berserk => Request::Berserk,
        };
        let Some(room) = &self.room else {
            return self.refuse(
                ErrorCode::NotInRoom,
                "you are not in a room: join or create one first",
            );
        };
        if room.request(self.client, request).await.is_err() {
            self.room = None;
            self.refuse(ErrorCode::NotInRoom, "your room has closed");
            ctx.lobby.back(self.client, true).await;
        }
    }

    /// Asks the lobby something about tournaments; answers come on the outbox.
    async fn tournament(&self, ask: TournamentAsk, ctx: &SessionContext) {
        if ctx.lobby.tournament(self.client, ask).await.is_err() {
            refuse_shutting_down(&self.outbox);
        }
    }

    async fn of_tournament(
        &self,
        id: banco_protocol::TournamentId,
        request: TournamentRequest,
        ctx: &SessionContext,
    ) {
        self.tournament(TournamentAsk::Of(id, request), ctx).await;
    }

    fn check_not_in_room(&self) -> bool {
        if let Some(room) = &self.room {
            self.refuse(
                ErrorCode::AlreadyInRoom,
                format!("you are in room {}: leave it first", room.id()),
            );
            return false;
        }
        true
    }

    async fn create(&mut self, settings: banco_protocol::RoomSettings, ctx: &SessionContext) {
        if !self.check_not_in_room() {
            return;
        }
        let spec = match settings::validate(&settings) {
            Ok(spec) => spec,
            Err(e) => return self.outbox_error(e),
        };
        match ctx.lobby.create(self.guest(), settings, spec).await {
            Ok(Ok(room)) => self.room = Some(room),
            Ok(Err(refused)) => self.outbox_error(refused),
            Err(_) => refuse_shutting_down(&self.outbox),
        }
    }

    /// Sends a challenge; a challenge the server's bot takes at once seats the client.
    async fn challenge(
        &mut self,
        to: Option<String>,
        settings: banco_protocol::RoomSettings,
        ctx: &SessionContext,
    ) {
        use banco_protocol::SeatKind;
        if settings.seats != [SeatKind::Human, SeatKind::Human] {
            return self.refuse(
                ErrorCode::BadSettings,
                "a challenge is a game between the two of you: leave both seats to people (to \
                 play the server's bot, challenge it by name, Bot (max))",
            );
        }
        let spec = match settings::validate(&settings) {
            Ok(spec) => spec,
            Err(e) => return self.outbox_error(e),
        };
        match ctx.lobby.challenge(self.client, to, settings, spec).await {
            Ok(Ok(Some(room))) => self.take_seat(room, ctx).await,
            Ok(Ok(None)) => {}
            Ok(Err(refused)) => self.outbox_error(refused),
            Err(_) => refuse_shutting_down(&self.outbox),
        }
    }

    /// The lobby placed this client in `room` (a challenge taken): it leaves where it
    /// is and takes the seat kept for it there. If it cannot (the room is gone), it is
    /// back in the lobby.
    async fn take_seat(&mut self, room: RoomHandle, ctx: &SessionContext) {
        if let Some(old) = self.room.take()
            && old.id() != room.id()
        {
            old.leave(self.client).await;
        }
        match room.join(self.guest(), true).await {
            Ok(Ok(_)) => self.room = Some(room),
            Ok(Err(e)) => {
                self.outbox_error(e);
                ctx.lobby.back(self.client, true).await;
            }
            Err(_) => {
                self.refuse(
                    ErrorCode::NoSuchRoom,
                    format!("room {} closed before you got there", room.id()),
                );
                ctx.lobby.back(self.client, true).await;
            }
        }
    }

    async fn enter_room(&mut self, id: banco_protocol::RoomId, seat: bool, ctx: &SessionContext) {
        // A spectator takes a free seat of the room it watches without leaving it.
        if let Some(room) = self.room.as_ref().filter(|r| seat && r.id() == id) {
            if let Ok(Err(e)) = room.join(self.guest(), true).await {
                self.outbox_error(e);
            }
            return;
        }
        if !self.check_not_in_room() {
            return;
        }
        let no_such_room = || {
            ErrorMsg::new(
                ErrorCode::NoSuchRoom,
                format!("there is no room {id}: list the rooms to see what is open"),
            )
        };
        let Ok(found) = ctx.lobby.find(self.client, id).await else {
            return refuse_shutting_down(&self.outbox);
        };
        let Some(room) = found else {
            return self.outbox_error(no_such_room());
        };
        let refused = match room.join(self.guest(), seat).await {
            Ok(Ok(_role)) => {
                self.room = Some(room);
                return;
            }
            Ok(Err(e)) => e,
            Err(_gone) => no_such_room(),
        };
        self.outbox_error(refused);
        ctx.lobby.back(self.client, false).await;
    }

    async fn leave(&mut self, ctx: &SessionContext) {
        let Some(room) = self.room.take() else {
            return self.refuse(ErrorCode::NotInRoom, "you are not in a room");
        };
        if !room.leave(self.client).await {
            // The room closed under us; the client is back in the lobby all the same.
            self.outbox.send(ServerMsg::Left);
        }
        ctx.lobby.back(self.client, true).await;
    }

    /// Sends what the store answered, or why it did not.
    fn answer_read<T>(&self, answer: Result<T, ReadError>, msg: impl FnOnce(T) -> ServerMsg) {
        match answer {
            Ok(found) => {
                self.outbox.send(msg(found));
            }
            Err(e) => self.read_failed(&e),
        }
    }

    async fn profile(
        &self,
        name: String,
        bot: Option<banco_protocol::Level>,
        ctx: &SessionContext,
    ) {
        // A bot's profile is asked by its level (the name is then not the one wanted).
        let unknown = match bot {
            Some(level) => format!(
                "{} has not played here yet",
                banco_protocol::bot_name(level)
            ),
            None => format!("nobody called {name} has played or registered here"),
        };
        match ctx.store.profile(name, bot).await {
            Ok(Some(profile)) => {
                self.outbox.send(ServerMsg::Profile(Box::new(profile)));
            }
            Ok(None) => self.refuse(ErrorCode::NoSuchPlayer, unknown),
            Err(e) => self.read_failed(&e),
        }
    }

    async fn replay(&self, id: banco_protocol::GameId, ctx: &SessionContext) {
        match ctx.store.replay(id).await {
            Ok(Some(record)) => {
                self.outbox.send(ServerMsg::Replay(Box::new(record)));
            }
            Ok(None) => self.refuse(
                ErrorCode::NoSuchGame,
                format!("there is no finished game {id}: see the history for the games kept"),
            ),
            Err(e) => self.read_failed(&e),
        }
    }

    /// Starts the review of game `id` (one at a time per client: the session holds it,
    /// so it stops when the client goes).
    fn review(&mut self, id: banco_protocol::GameId, ctx: &SessionContext) {
        if let Some(running) = self.review.as_ref().filter(|r| r.is_running()) {
            return self.refuse(
                ErrorCode::Busy,
                format!(
                    "your review of game {} is still running: wait for it to finish",
                    running.game
                ),
            );
        }
        self.review = None;
        match ctx.reviewer.start(id, self.outbox.clone()) {
            Ok(running) => self.review = Some(running),
            Err(refused) => self.outbox_error(refused),
        }
    }

    fn read_failed(&self, e: &ReadError) {
        match e {
            ReadError::Busy => self.refuse(ErrorCode::Busy, e.to_string()),
            ReadError::Closed => self.refuse(ErrorCode::ShuttingDown, e.to_string()),
            ReadError::Failed(StoreError::Corrupt { id, .. }) => self.refuse(
                ErrorCode::NoSuchGame,
                format!(
                    "game {id} is damaged in the server's records and cannot be shown; the \
                     others are fine"
                ),
            ),
            ReadError::Failed(cause) => {
                tracing::error!(error = %cause, "a read of the records failed");
                self.refuse(
                    ErrorCode::Internal,
                    "the server could not read its records (its log says why)",
                );
            }
        }
    }

    async fn change_password(&self, change: PasswordChange, ctx: &SessionContext) {
        if !self.account {
            return self.refuse(
                ErrorCode::NotLoggedIn,
                "guests have no password: register a name to have one",
            );
        }
        match ctx
            .accounts
            .change_password(
                &self.name,
                change.old,
                change.new,
                self.peer.ip(),
                self.account_token,
            )
            .await
        {
            Ok(()) => {
                self.outbox.send(ServerMsg::PasswordChanged);
            }
            Err(e) => self.outbox_error(e),
        }
    }

    fn outbox_error(&self, e: ErrorMsg) {
        self.outbox.send(ServerMsg::Error(e));
    }
}

#[cfg(test)]
mod tests {
    use super::ping_phase;

    #[test]
    fn a_crowd_that_came_together_is_pinged_spread_over_the_period() {
        let mut phases: Vec<f64> = (1000..1800).map(ping_phase).collect();
        assert!(phases.iter().all(|p| (0.5..=1.0).contains(p)));
        phases.sort_by(f64::total_cmp);
        // 800 clients over half a period: no two closer than a small fraction of the
        // even spacing would put them, and no gap much wider than it.
        let even = 0.5 / 800.0;
        let gaps: Vec<f64> = phases.windows(2).map(|w| w[1] - w[0]).collect();
        let widest = gaps.iter().copied().fold(0.0, f64::max);
        assert!(widest < even * 4.0, "widest gap {widest}");
    }
}
