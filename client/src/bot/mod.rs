//! `banco bot`: an external engine on a server as a bot account.
//!
//! - [`engine`]: the engine's own thread, which owns the adapter (Gomocup for caro, UCI
//!   for xiangqi, from `banco-adapters`, the code `banco-arena` drives engines with),
//!   answers move requests and meets crashes.
//! - [`policy`]: which challenges fit the engine; how undo requests and draw offers are
//!   answered.
//! - this module: the connection and its loop. The bot logs in to its bot account, says
//!   who may challenge it, takes the challenges its engine can play (a Gomocup engine is
//!   asked about the board and rule first) and declines the rest with a reason, plays
//!   its moves on the game's clock, answers offers by its policy, leaves each room when
//!   the game (or the match) is over, and dials again with its resume token after a
//!   network drop, taking its seat back.
//!
//! What it prints on stdout, a line per thing that happens, is for the person who runs
//! it; nothing reads it back.

pub mod engine;
pub mod policy;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use banco_adapters::player::{Budget, Eval};
use banco_protocol::{
    Challenge, ChallengeId, ChallengePolicy, ClientMsg, Credentials, DeclineReason, GameSettings,
    OfferKind, ResumeToken, Rule, ServerMsg, TimeControl,
};
use banco_rules::game::{GameSpec, Move};
use tokio::sync::mpsc;

use crate::known_hosts::Trust;
use crate::net::{ConnectError, Connection, Link, Lost, NetEvent};
use crate::reconnect::{RECONNECT_FOR, pause_after};
use crate::room::Room;
use engine::{Done, EngineSpec, EngineThread, Job, Stamp};
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
}

/// The most a move is told to leave unused of the time the server gives, for the way
/// to the server and back.
const MOST_MARGIN: Duration = Duration::from_millis(300);

/// Runs the bot until `stop` completes (the process told to stop), or the server is
/// gone for good.
pub async fn run(opts: Options, stop: impl std::future::Future<Output = ()>) -> Result<()> {
    check_engine(&opts.engine).await?;
    let (done_tx, mut done_rx) = mpsc::unbounded_channel();
    let engine = EngineThread::start(&opts.engine, done_tx);
    let (probe_tx, mut probe_rx) = mpsc::unbounded_channel();
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
        bot.send(&link, ClientMsg::SetChallenges(opts.challenges))
            .await;
        let lost = loop {
            tokio::select! {
                event = link.incoming.recv() => match event {
                    None => break Lost::Closed,
                    Some(NetEvent::Closed(lost)) => break lost,
                    Some(NetEvent::Msg(msg)) => bot.on_message(&link, msg).await,
                },
                Some(done) = done_rx.recv() => bot.on_done(&link, done).await,
                Some((id, answer)) = probe_rx.recv() => bot.on_probe(&link, id, answer).await,
                () = &mut stopped => {
                    say("stopping");
                    link.close(Duration::from_secs(1)).await;
                    return Ok(());
                }
            }
        };
        say(&format!(
            "connection lost ({}); dialling again",
            lost.as_str()
        ));
        // The seat is taken back with the resume token; the room is told again on return.
        bot.lost_room = bot.room.take().map(|r| r.id);
        bot.asked = None;
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
}

impl Bot {
    async fn send(&self, link: &Link, msg: ClientMsg) {
        if link.outgoing.send(msg).await.is_err() {
            tracing::debug!("the connection is closing");
        }
    }

    async fn on_message(&mut self, link: &Link, msg: ServerMsg) {
        let now = Instant::now();
        match msg {
            ServerMsg::Challenged(ch) => self.on_challenge(link, ch).await,
            ServerMsg::Joined(view) => {
                let room = Room::from_view(*view, now);
                if self.lost_room.take() == Some(room.id) {
                    say(&format!("back in room {}", room.id));
                } else {
                    say(&format!("seated in room {}", room.id));
                }
                self.room = Some(room);
                self.asked = None;
                self.last_eval = None;
                self.ask();
            }
            ServerMsg::Left => {
                self.room = None;
                self.asked = None;
            }
            ServerMsg::Error(e) => say(&format!("the server says: {}", e.message)),
            ServerMsg::ChallengeEnded { id, end } => {
                self.waiting.remove(&id);
                tracing::debug!("challenge {id} ended: {end:?}");
            }
            other => {
                let Some(room) = self.room.as_mut() else {
                    return;
                };
                room.apply(&other, now);
                match other {
                    ServerMsg::GameStarted(_) => {
                        self.asked = None;
                        self.last_eval = None;
                        say("a game starts");
                    }
                    ServerMsg::Moved { .. } | ServerMsg::Undone { .. } => self.asked = None,
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
                        if !room.in_match() {
                            self.send(link, ClientMsg::LeaveRoom).await;
                        }
                    }
                    ServerMsg::MatchOver(_) => self.send(link, ClientMsg::LeaveRoom).await,
                    _ => {}
                }
                self.ask();
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
        let now = Instant::now();
        let budget = match room.settings.time {
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
        };
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

    /// The engine's answer: played if it is still about the position on the board;
    /// a failure resigns the game, with the reason said in the room.
    async fn on_done(&mut self, link: &Link, done: Done) {
        let (Done::Moved { stamp, .. } | Done::Failed { stamp, .. }) = &done;
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
            Done::Failed { reason, .. } => {
                self.asked = None;
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
        }
    }
}

/// `d` less what the way to the server and back may take: a tenth, at most
/// [`MOST_MARGIN`].
fn less_margin(d: Duration) -> Duration {
    d.saturating_sub((d / 10).min(MOST_MARGIN))
        .max(Duration::from_millis(10))
}

/// `caro 15x15 freestyle`, `xiangqi`.
fn settings_text(game: &GameSettings) -> String {
    match game {
        GameSettings::Caro {
            width,
            height,
            rule,
            ..
        } => format!("caro {width}x{height} {rule:?}").to_lowercase(),
        GameSettings::Xiangqi { .. } => "xiangqi".to_string(),
    }
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
}
