//! The plain line mode: commands on stdin, events on stdout, for scripts, screen readers
//! and tests.
//!
//! - [`command`]: one input line -> [`command::Command`].
//! - [`output`]: events -> text lines or JSON objects.
//! - [`recall`]: what a short command means from what came before (`review` alone,
//!   `history x1` for the guest `~x1`).
//!
//! Commands run in order. One that changes where the client is (`create`, `join`,
//! `watch`, `leave`, `rooms`) holds the next line back until the server has answered
//! it, so a script can write `create caro` then `move h8` without racing the server.
//! End of input leaves the room (a running game is lost, as with `quit`) and exits.
//! A lost connection (in the lobby, watching or seated) is dialled again with the
//! server's resume token, as the full-screen client does: a held seat and its game carry
//! on, a watched room is watched again. A seat held is kept on disk ([`crate::seats`])
//! so that `banco join` started again after a crash takes it back.

pub mod command;
pub mod output;
pub mod recall;

use banco_protocol::{ClientMsg, GameSettings, Move, OfferKind, ServerMsg, XqSquare};
use banco_rules::caro::notation::{PointError, parse_point};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufRead, AsyncBufReadExt};

use crate::locale::Locale;
use crate::net::{Connection, Link, Lost, NetEvent};
use crate::reconnect::{RECONNECT_FOR, Return, pause_after};
use crate::room::Room;
use crate::seats::SeatKeeper;
use command::Command;
pub use output::{Format, Printer};

/// How long to wait for the server to confirm leaving before exiting anyway.
const LEAVE_WAIT: Duration = Duration::from_secs(3);

/// How a plain session ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// `quit` or end of input.
    Quit,
    /// The server closed the connection.
    ServerClosed,
}

/// Surviving a lost connection: where to dial again (the name and resume token come
/// from the server's welcome), for how long, and the seat kept on disk.
pub struct Redial {
    /// The address the session was opened with.
    pub address: String,
    /// How long to keep trying ([`RECONNECT_FOR`]; tests give up sooner).
    pub give_up_after: std::time::Duration,
    /// The held seat's token on disk, for a client started again after a crash.
    pub seats: SeatKeeper,
    /// The account to log in to again (in memory only); `None` for a guest.
    pub account: Option<banco_protocol::Credentials>,
    /// Input is a terminal: `login` and `passwd` read passwords from it without echo
    /// (otherwise as the next input lines).
    pub tty: bool,
    /// How the server's key is checked (the pins the first connection made, or
    /// `--no-tls`): a reconnection is held to the same key.
    pub trust: crate::known_hosts::Trust,
}

impl Redial {
    /// Dials `address` again for [`RECONNECT_FOR`], keeping seats in `seats`.
    pub fn new(address: &str, seats: SeatKeeper) -> Redial {
        Redial {
            address: address.to_string(),
            give_up_after: RECONNECT_FOR,
            seats,
            account: None,
            tty: false,
            trust: crate::known_hosts::Trust::default(),
        }
    }
}

/// What the next input line waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Awaiting {
    Rooms,
    Room,
    Left,
    Leaderboard,
    History,
    Replay,
    Review,
    Profile,
    Password,
    /// A challenge's `ChallengeSent` (or its refusal).
    Challenge,
    /// The people list.
    Players,
    /// The policy confirmed.
    Policy,
    /// The tournament list.
    Tournaments,
    /// A tournament's view (every tournament request is answered by one, or refused).
    Tournament,
    /// A tournament's export.
    Export,
}

/// A refusal by the client itself, before anything is sent.
struct Refusal {
    code: &'static str,
    message: String,
}

fn refuse(code: &'static str, message: impl Into<String>) -> Refusal {
    Refusal {
        code,
        message: message.into(),
    }
}

/// Runs a plain session on `link` until `quit`, end of input or the server closing.
pub async fn run<R, W>(
    link: Link,
    input: R,
    out: W,
    format: Format,
    locale: Locale,
) -> anyhow::Result<Ending>
where
    R: AsyncBufRead + Unpin,
    W: Write,
{
    run_printing(link, input, Printer::new(out, format, locale), None).await
}

/// As [`run`], printing with `printer` (one made to ring the bell, say); with `redial`,
/// a lost connection is dialled again and a held seat is kept on disk.
pub async fn run_printing<R, W>(
    mut link: Link,
    input: R,
    mut printer: Printer<W>,
    mut redial: Option<Redial>,
) -> anyhow::Result<Ending>
where
    R: AsyncBufRead + Unpin,
    W: Write,
{
    printer.welcome(&link.welcome);
    let mut room: Option<Room> = None;
    let mut awaiting: Option<Awaiting> = None;
    // `replay N --save FILE`: where to write the record when it arrives.
    let mut save_to: Option<PathBuf> = None;
    // `tournament export ID FORMAT FILE`: where to write the export when it arrives.
    let mut export_to: Option<PathBuf> = None;
    // `passwd`: the new password, until the server says it is changed.
    let mut changing_to: Option<String> = None;
    // What `review` alone and `history NAME` mean, from what came before.
    let mut recall = recall::Recall::default();
    // The challenges in play: to us, ours, open ones, and the people list.
    let mut challenges = crate::challenges::Challenges::default();
    // Passwords are read from the terminal without echo, or else as input lines.
    let tty = redial.as_ref().is_some_and(|r| r.tty);
    let mut lines = input.lines();
    loop {
        tokio::select! {
            line = lines.next_line(), if awaiting.is_none() => {
                let line = match line {
                    Ok(Some(l)) => l,
                    // End of input, or input that is not text: leave and exit.
                    Ok(None) | Err(_) => break,
                };
                match command::parse(&line) {
                    Ok(None) => {}
                    Ok(Some(Command::Quit)) => break,
                    Ok(Some(Command::Passwd)) => {
                        match ask_new_password(&mut lines, tty, &mut printer).await {
                            Ok(change) => {
                                changing_to = Some(change.new.clone());
                                if link.outgoing.send(ClientMsg::ChangePassword(change)).await.is_ok() {
                                    awaiting = Some(Awaiting::Password);
                                }
                            }
                            Err(r) => printer.error(r.code, &r.message),
                        }
                    }
                    Ok(Some(Command::Login(name))) => {
                        match log_in(name, &link, room.as_ref(), redial.as_mut(), tty, &mut lines, &mut printer).await {
                            Ok(back) => {
                                let old = std::mem::replace(&mut link, back);
                                old.close(LEAVE_WAIT).await;
                                printer.welcome(&link.welcome);
                            }
                            Err(r) => printer.error(r.code, &r.message),
                        }
                    }
                    Ok(Some(Command::Challenges(None))) => {
                        printer.challenges(&challenges, &link.welcome.name);
                    }
                    Ok(Some(cmd)) => match request(&cmd, room.as_ref(), &link.welcome, &mut recall, &mut printer) {
                        Ok(Some((msg, wait))) => {
                            if let Command::Replay { save, .. } = &cmd {
                                save_to = save.as_ref().map(PathBuf::from);
                            }
                            if let Command::TournamentExport { file, .. } = &cmd {
                                export_to = Some(PathBuf::from(file));
                            }
                            if link.outgoing.send(msg).await.is_err() {
                                continue; // the reader reports the closed connection
                            }
                            awaiting = wait;
                        }
                        Ok(None) => {}
                        Err(r) => printer.error(r.code, &r.message),
                    },
                    Err(e) => printer.error("bad_command", &e.message),
                }
            }
            event = link.incoming.recv() => {
                let lost = match event {
                    Some(NetEvent::Msg(msg)) => {
                        awaiting = awaiting.filter(|a| !answers(*a, &msg));
                        if matches!(msg, ServerMsg::PasswordChanged)
                            && let Some(new) = changing_to.take()
                            && let Some(account) = redial.as_mut().and_then(|r| r.account.as_mut())
                        {
                            // A reconnection logs in with the new password.
                            *account = banco_protocol::Credentials::password(new, false);
                        } else if matches!(msg, ServerMsg::Error(_)) {
                            changing_to = None;
                        }
                        if let ServerMsg::History(games) = &msg {
                            // A list asked for on the way to what was meant.
                            let next = match recall.history(games) {
                                recall::HistoryNext::Print => None,
                                recall::HistoryNext::Ask(ask) => Some((ask, Awaiting::History)),
                                recall::HistoryNext::Review(id) => {
                                    Some((ClientMsg::Review(id), Awaiting::Review))
                                }
                                recall::HistoryNext::Missing => {
                                    let text = printer.locale.get("plain.last_game_missing").to_string();
                                    printer.error("no_game", &text);
                                    continue;
                                }
                            };
                            if let Some((ask, wait)) = next {
                                if link.outgoing.send(ask).await.is_ok() {
                                    awaiting = Some(wait);
                                }
                                continue;
                            }
                        }
                        if let Some(change) = challenges.apply(&msg) {
                            printer.challenge_change(&change, &challenges, &link.welcome.name);
                            continue;
                        }
                        take_in(&msg, &mut room, &mut printer);
                        recall.saw(&msg, room.as_ref(), &link.welcome.name);
                        if let Some(r) = redial.as_mut() {
                            keep_seat(r, &link, &msg, room.as_ref(), &mut printer);
                        }
                        if let ServerMsg::TournamentExport { text, .. } = &msg
                            && let Some(path) = export_to.take()
                        {
                            match std::fs::write(&path, text) {
                                Ok(()) => printer.saved(&path),
                                Err(e) => printer.error("save_failed", &e.to_string()),
                            }
                        }
                        if let ServerMsg::Replay(record) = &msg
                            && let Some(path) = save_to.take()
                        {
                            let replay = crate::record::Replay::from_record((**record).clone());
                            let text = crate::record::file::write(&replay);
                            match crate::record::file::save_new(&path, &text) {
                                Ok(full) => printer.saved(&full),
                                Err(e) => printer.error("save_failed", &e.to_string()),
                            }
                        } else if matches!(msg, ServerMsg::Error(_)) {
                            // The refusal of the replay (or export) asked for: nothing to save.
                            save_to = None;
                            export_to = None;
                        }
                        continue;
                    }
                    Some(NetEvent::Closed(lost)) => lost,
                    None => Lost::Closed,
                };
                let Some(redial) = redial.as_mut() else {
                    printer.disconnected(&lost.describe(&printer.locale));
                    return Ok(Ending::ServerClosed);
                };
                let back_to = match &room {
                    Some(r) if r.my_seat().is_some() => Return::Seat(r.id),
                    Some(r) => Return::Watch(r.id),
                    None => Return::Lobby,
                };
                let back = match dial_again(redial, &link, lost, &mut printer, &mut lines).await {
                    Redialled::Back(back) => back,
                    Redialled::GaveUp => return Ok(Ending::ServerClosed),
                    Redialled::Quit => {
                        redial.seats.forget();
                        return Ok(Ending::Quit);
                    }
                };
                // The same token back: the same session, and a held seat comes back by
                // itself with the room as it stands.
                let kept = back.welcome.resume == link.welcome.resume;
                link = back;
                room = None;
                awaiting = None;
                challenges.clear();
                let seat_lost = matches!(back_to, Return::Seat(_)) && !kept;
                printer.reconnected(seat_lost);
                if seat_lost {
                    redial.seats.forget();
                }
                if let Return::Watch(id) = back_to
                    && link.outgoing.send(ClientMsg::WatchRoom(id)).await.is_ok()
                {
                    awaiting = Some(Awaiting::Room);
                }
            }
        }
    }
    if room.is_some() && link.outgoing.send(ClientMsg::LeaveRoom).await.is_ok() {
        let deadline = Instant::now() + LEAVE_WAIT;
        while let Ok(Some(NetEvent::Msg(msg))) =
            tokio::time::timeout_at(deadline.into(), link.incoming.recv()).await
        {
            let left = matches!(msg, ServerMsg::Left | ServerMsg::Error(_));
            take_in(&msg, &mut room, &mut printer);
            if left {
                break;
            }
        }
    }
    // Quitting gives the seat up, whether or not the server heard it.
    if let Some(r) = redial.as_mut() {
        r.seats.forget();
    }
    link.close(LEAVE_WAIT).await;
    Ok(Ending::Quit)
}

/// Keeps the seat's token on disk while this client sits in a room, and forgets it
/// once it sits nowhere (left, watching, or back in the lobby).
fn keep_seat<W: Write>(
    redial: &mut Redial,
    link: &Link,
    msg: &ServerMsg,
    room: Option<&Room>,
    printer: &mut Printer<W>,
) {
    match (msg, room) {
        (ServerMsg::Joined(_), Some(r)) if r.my_seat().is_some() => {
            if let Err(e) = redial
                .seats
                .keep(&redial.address, link.welcome.resume, r.id)
            {
                printer.error("seat_not_kept", &e.to_string());
            }
        }
        (ServerMsg::Joined(_) | ServerMsg::Left, _) | (ServerMsg::Rooms(_), None) => {
            redial.seats.forget();
        }
        _ => {}
    }
}

/// Applies a server message to the room and prints it.
fn take_in<W: Write>(msg: &ServerMsg, room: &mut Option<Room>, printer: &mut Printer<W>) {
    let now = Instant::now();
    match msg {
        ServerMsg::Joined(view) => *room = Some(Room::from_view((**view).clone(), now)),
        ServerMsg::Left => *room = None,
        other => {
            if let Some(r) = room.as_mut() {
                r.apply(other, now);
            }
        }
    }
    printer.server_msg(msg, room.as_ref());
}

/// Whether `msg` is the answer the held-back input waits for.
fn answers(awaiting: Awaiting, msg: &ServerMsg) -> bool {
    matches!(
        (awaiting, msg),
        (_, ServerMsg::Error(_))
            | (Awaiting::Rooms, ServerMsg::Rooms(_))
            | (Awaiting::Room, ServerMsg::Joined(_))
            | (Awaiting::Left, ServerMsg::Left)
            | (Awaiting::Leaderboard, ServerMsg::Leaderboard { .. })
            | (Awaiting::History, ServerMsg::History(_))
            | (Awaiting::Replay, ServerMsg::Replay(_))
            | (Awaiting::Review, ServerMsg::Review(_))
            | (Awaiting::Profile, ServerMsg::Profile(_))
            | (Awaiting::Password, ServerMsg::PasswordChanged)
            | (Awaiting::Challenge, ServerMsg::ChallengeSent(_))
            | (Awaiting::Players, ServerMsg::Players(_))
            | (Awaiting::Policy, ServerMsg::ChallengesSet(_))
            | (Awaiting::Tournaments, ServerMsg::Tournaments(_))
            | (Awaiting::Tournament, ServerMsg::Tournament(_))
            | (Awaiting::Export, ServerMsg::TournamentExport { .. })
    )
}

/// How a redial ended (one value per reconnection: its size does not matter).
#[allow(clippy::large_enum_variant)]
enum Redialled {
    /// Back on the server.
    Back(Link),
    /// The time ran out; a `disconnected` line said so.
    GaveUp,
    /// `quit` or the end of input while dialling.
    Quit,
}

/// Dials the server again with the resume token (at once, then after growing pauses,
/// see [`pause_after`]) until `redial.give_up_after` has passed, saying so each time.
/// Input is still read meanwhile: `quit` (or its end) stops, anything else is refused
/// as offline.
async fn dial_again<R, W>(
    redial: &Redial,
    lost_link: &Link,
    lost: Lost,
    printer: &mut Printer<W>,
    lines: &mut tokio::io::Lines<R>,
) -> Redialled
where
    R: AsyncBufRead + Unpin,
    W: Write,
{
    let token = lost_link.welcome.resume;
    let name = lost_link.welcome.name.clone();
    let since = Instant::now();
    let why = lost.describe(&printer.locale);
    let mut last_error = why.clone();
    for attempt in 1.. {
        printer.reconnecting(attempt, lost, &why);
        let dial = Connection::open_trusting(
            &redial.address,
            &name,
            Some(token),
            redial.account.clone(),
            &redial.trust,
        );
        tokio::pin!(dial);
        let dialled = loop {
            tokio::select! {
                dialled = &mut dial => break dialled,
                line = lines.next_line() => if offline_line(line, printer) {
                    return Redialled::Quit;
                },
            }
        };
        match dialled {
            Ok(c) => return Redialled::Back(c.start()),
            Err(e) => last_error = e.describe(&printer.locale),
        }
        if since.elapsed() >= redial.give_up_after {
            break;
        }
        let pause = tokio::time::sleep(pause_after(attempt));
        tokio::pin!(pause);
        loop {
            tokio::select! {
                () = &mut pause => break,
                line = lines.next_line() => if offline_line(line, printer) {
                    return Redialled::Quit;
                },
            }
        }
    }
    printer.disconnected(&crate::tr!(
        printer.locale,
        "net.gave_up",
        reason = last_error
    ));
    Redialled::GaveUp
}

/// A line typed while there is no connection: whether it ends the session (`quit`, the
/// end of input); anything else is refused, saying why.
fn offline_line<W: Write>(line: std::io::Result<Option<String>>, printer: &mut Printer<W>) -> bool {
    match line.map(|l| l.map(|l| command::parse(&l))) {
        Ok(None) | Err(_) | Ok(Some(Ok(Some(Command::Quit)))) => true,
        Ok(Some(Ok(None))) => false,
        Ok(Some(_)) => {
            let text = printer.locale.get("plain.offline").to_string();
            printer.error("offline", &text);
            false
        }
    }
}

/// The request for a command, and what the next line must wait for; `Ok(None)` for
/// commands answered locally.
fn request<W: Write>(
    cmd: &Command,
    room: Option<&Room>,
    welcome: &banco_protocol::Welcome,
    recall: &mut recall::Recall,
    printer: &mut Printer<W>,
) -> Result<Option<(ClientMsg, Option<Awaiting>)>, Refusal> {
    let me = welcome.name.as_str();
    let loc = printer.locale.clone();
    let in_room = || room.ok_or_else(|| refuse("not_in_room", loc.get("plain.not_in_room")));
    let send = |m: ClientMsg| Ok(Some((m, None)));
    match cmd {
        Command::Rooms => Ok(Some((ClientMsg::ListRooms, Some(Awaiting::Rooms)))),
        Command::Create(s) => Ok(Some((
            ClientMsg::CreateRoom(s.clone()),
            Some(Awaiting::Room),
        ))),
        Command::Join(id) => Ok(Some((ClientMsg::JoinRoom(*id), Some(Awaiting::Room)))),
        Command::Watch(id) => Ok(Some((ClientMsg::WatchRoom(*id), Some(Awaiting::Room)))),
        Command::Leave => {
            in_room()?;
            Ok(Some((ClientMsg::LeaveRoom, Some(Awaiting::Left))))
        }
        Command::Move(text) => send(ClientMsg::Move(read_move(text, &in_room()?.settings.game)?)),
        Command::Say(text) => {
            in_room()?;
            send(ClientMsg::Chat(text.clone()))
        }
        Command::Undo => {
            in_room()?;
            send(ClientMsg::Offer(OfferKind::Undo))
        }
        Command::Draw => {
            in_room()?;
            send(ClientMsg::Offer(OfferKind::Draw))
        }
        Command::NewGame => {
            in_room()?;
            send(ClientMsg::Offer(OfferKind::NewGame))
        }
        Command::Yes | Command::No => {
            let offer = in_room()?
                .offer_to_me()
                .ok_or_else(|| refuse("no_offer", loc.get("room.no_offer")))?;
            send(ClientMsg::Answer {
                kind: offer.kind,
                accept: *cmd == Command::Yes,
            })
        }
        Command::Cancel => {
            let offer = in_room()?
                .my_offer()
                .ok_or_else(|| refuse("no_offer", loc.get("room.no_own_offer")))?;
            send(ClientMsg::Withdraw(offer.kind))
        }
        Command::Resign => {
            in_room()?;
            send(ClientMsg::Resign)
        }
        Command::ResignMatch => {
            in_room()?;
            send(ClientMsg::ResignMatch)
        }
        Command::Berserk => {
            in_room()?;
            send(ClientMsg::Berserk)
        }
        Command::Hint => {
            in_room()?;
            send(ClientMsg::Hint)
        }
        Command::Swap(choice) => {
            in_room()?;
            send(ClientMsg::Swap(*choice))
        }
        Command::Board => {
            printer.board(in_room()?);
            Ok(None)
        }
        Command::Help => {
            printer.help();
            Ok(None)
        }
        Command::Leaderboard(game) => Ok(Some((
            ClientMsg::Leaderboard(*game),
            Some(Awaiting::Leaderboard),
        ))),
        Command::Profile { name, bot } => Ok(Some((
            ClientMsg::Profile {
                name: name.clone().unwrap_or_else(|| me.to_string()),
                bot: *bot,
            },
            Some(Awaiting::Profile),
        ))),
        // Asked for with their passwords by the session itself.
        Command::Login(_) | Command::Passwd => Ok(None),
        Command::History(player) => {
            recall.asked_history(player.as_deref());
            Ok(Some((
                ClientMsg::History {
                    player: player.clone(),
                },
                Some(Awaiting::History),
            )))
        }
        Command::Replay { id, .. } => Ok(Some((ClientMsg::Replay(*id), Some(Awaiting::Replay)))),
        Command::Review(Some(id)) => Ok(Some((ClientMsg::Review(*id), Some(Awaiting::Review)))),
        Command::Review(None) => match recall.review_last() {
            Some(msg @ ClientMsg::History { .. }) => Ok(Some((msg, Some(Awaiting::History)))),
            Some(msg) => Ok(Some((msg, Some(Awaiting::Review)))),
            None => Err(refuse("no_game", loc.get("plain.no_last_game"))),
        },
        Command::Challenge {
            to,
            settings,
            rated,
        } => {
            let mut settings = settings.clone();
            // A guest's challenges are casual unless asked otherwise (the server refuses
            // a rated one, saying so).
            settings.rated = rated.unwrap_or(welcome.account);
            Ok(Some((
                ClientMsg::Challenge {
                    to: to.clone(),
                    settings,
                },
                Some(Awaiting::Challenge),
            )))
        }
        // Taking a challenge seats us in a new room: the next line waits for it.
        Command::AcceptChallenge(id) => Ok(Some((
            ClientMsg::AcceptChallenge(*id),
            Some(Awaiting::Room),
        ))),
        Command::DeclineChallenge(id, reason) => send(ClientMsg::DeclineChallenge {
            id: *id,
            reason: *reason,
        }),
        Command::CancelChallenge(id) => send(ClientMsg::CancelChallenge(*id)),
        Command::Players => Ok(Some((ClientMsg::Players, Some(Awaiting::Players)))),
        Command::Challenges(Some(policy)) => Ok(Some((
            ClientMsg::SetChallenges(*policy),
            Some(Awaiting::Policy),
        ))),
        // Answered from what the client keeps.
        Command::Challenges(None) => Ok(None),
        Command::Tournament(msg) => {
            let wait = match msg {
                ClientMsg::ListTournaments => Awaiting::Tournaments,
                _ => Awaiting::Tournament,
            };
            Ok(Some((msg.clone(), Some(wait))))
        }
        Command::TournamentExport { id, format, .. } => Ok(Some((
            ClientMsg::ExportTournament {
                id: *id,
                format: *format,
            },
            Some(Awaiting::Export),
        ))),
        Command::Quit => Ok(None),
    }
}

/// Reads one password: from the terminal without echo when `tty`, else the next input
/// line. `None` when input ended or could not be read.
async fn read_secret<R: AsyncBufRead + Unpin>(
    prompt: String,
    tty: bool,
    lines: &mut tokio::io::Lines<R>,
) -> Option<String> {
    if tty {
        // rpassword blocks on the terminal: off the runtime's threads.
        tokio::task::spawn_blocking(move || rpassword::prompt_password(prompt).ok())
            .await
            .ok()
            .flatten()
    } else {
        lines.next_line().await.ok().flatten()
    }
}

/// `passwd`: the current password, then the new one twice, checked before sending.
async fn ask_new_password<R: AsyncBufRead + Unpin, W: Write>(
    lines: &mut tokio::io::Lines<R>,
    tty: bool,
    printer: &mut Printer<W>,
) -> Result<banco_protocol::PasswordChange, Refusal> {
    let loc = printer.locale.clone();
    let no_input = || refuse("no_password", loc.get("plain.no_password"));
    let old = read_secret(
        format!("{} ", loc.get("plain.ask_old_password")),
        tty,
        lines,
    )
    .await
    .ok_or_else(no_input)?;
    let new = read_secret(
        format!("{} ", loc.get("plain.ask_new_password")),
        tty,
        lines,
    )
    .await
    .ok_or_else(no_input)?;
    let again = read_secret(format!("{} ", loc.get("plain.ask_again")), tty, lines)
        .await
        .ok_or_else(no_input)?;
    if new != again {
        return Err(refuse("passwords_differ", loc.get("password.differ")));
    }
    if new.chars().count() < banco_protocol::MIN_PASSWORD_CHARS
        || new.chars().count() > banco_protocol::MAX_PASSWORD_CHARS
    {
        return Err(refuse("bad_password", loc.get("server_error.bad_password")));
    }
    Ok(banco_protocol::PasswordChange { old, new })
}

/// `login [NAME]`: asks for the password and logs in on a new connection to the same
/// server; the old one closes once the new one is in. Only outside a room (a seat
/// belongs to the session that took it).
async fn log_in<R: AsyncBufRead + Unpin, W: Write>(
    name: Option<String>,
    link: &Link,
    room: Option<&Room>,
    redial: Option<&mut Redial>,
    tty: bool,
    lines: &mut tokio::io::Lines<R>,
    printer: &mut Printer<W>,
) -> Result<Link, Refusal> {
    let loc = printer.locale.clone();
    let Some(redial) = redial else {
        return Err(refuse(
            "login_unavailable",
            loc.get("plain.login_unavailable"),
        ));
    };
    if room.is_some() {
        return Err(refuse("in_room", loc.get("plain.login_in_room")));
    }
    let name = name.unwrap_or_else(|| {
        link.welcome
            .name
            .trim_start_matches(banco_protocol::GUEST_MARK)
            .to_string()
    });
    let prompt = crate::tr!(loc, "plain.ask_password", name = name);
    let password = read_secret(format!("{prompt} "), tty, lines)
        .await
        .ok_or_else(|| refuse("no_password", loc.get("plain.no_password")))?;
    let account = banco_protocol::Credentials::password(password, false);
    let connection = Connection::open_trusting(
        &redial.address,
        &name,
        None,
        Some(account.clone()),
        &redial.trust,
    )
    .await
    .map_err(|e| refuse("login_failed", e.describe(&loc)))?;
    redial.account = Some(account);
    // The new session holds no seat; whatever the old one kept on disk is moot.
    redial.seats.forget();
    Ok(connection.start())
}

/// Reads a typed move against the room's game: `7,7` or `h8` in caro, `h2e2` in xiangqi.
fn read_move(text: &str, game: &GameSettings) -> Result<Move, Refusal> {
    match game {
        GameSettings::Caro { width, height, .. } => match parse_point(text, *width, *height) {
            Ok(p) => Ok(Move::Caro(p)),
            Err(e @ PointError::OffBoard { .. }) => Err(refuse("out_of_bounds", e.to_string())),
            Err(e) => Err(refuse("bad_command", e.to_string())),
        },
        GameSettings::Xiangqi { .. } => read_iccs(text).map_or_else(
            || {
                Err(refuse(
                    "bad_command",
                    format!("'{text}' is not a move: write from and to squares, like h2e2"),
                ))
            },
            |(from, to)| Ok(Move::Xiangqi { from, to }),
        ),
    }
}

/// `h2e2` -> (h2, e2).
fn read_iccs(text: &str) -> Option<(XqSquare, XqSquare)> {
    let b = text.trim().to_ascii_lowercase().into_bytes();
    if b.len() != 4 {
        return None;
    }
    let square = |f: u8, r: u8| {
        (b'a'..=b'i').contains(&f).then_some(())?;
        r.is_ascii_digit().then_some(())?;
        Some(XqSquare {
            file: f - b'a',
            rank: r - b'0',
        })
    };
    Some((square(b[0], b[1])?, square(b[2], b[3])?))
}

#[cfg(test)]
mod tests;
