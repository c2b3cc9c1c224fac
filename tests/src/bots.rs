//! `banco bot` in the tests: a bot account running in the test's process (its engine a
//! child process), with the options `banco bot` would use, and the wait until it is on
//! the server.

use std::net::SocketAddr;
use std::time::Duration;

use banco_client::bot::{self, engine::EngineSpec, policy};
use banco_client::cli::{Cli, Command};
use banco_client::known_hosts::{PinSource, Trust};
use banco_protocol::{ChallengePolicy, ClientMsg, Credentials, ServerMsg};
use clap::Parser;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::{Client, TestServer};

/// A bot running in this process, stopped on drop.
pub struct RunningBot {
    /// Stops it.
    stop: CancellationToken,
    /// Its task: its result says why it ended.
    task: Option<JoinHandle<anyhow::Result<()>>>,
}

impl RunningBot {
    /// Runs a bot with `opts`.
    pub fn start(opts: bot::Options) -> RunningBot {
        let stop = CancellationToken::new();
        let task = tokio::spawn(bot::run(opts, stop.clone().cancelled_owned()));
        RunningBot {
            stop,
            task: Some(task),
        }
    }

    /// Runs bot account `name` (registered now) with `engine` and the `banco bot` flags
    /// `args` (`--challenge`, `--game`, `--games`, `--tournament`...), read as `banco
    /// bot` reads its command line.
    pub fn from_line(server: &TestServer, name: &str, engine: &str, args: &[&str]) -> RunningBot {
        let mut line = vec!["banco", "bot", "--engine", engine, "--name", name];
        line.extend_from_slice(args);
        let Some(Command::Bot(b)) = Cli::parse_from(line).command else {
            panic!("a bot command line");
        };
        let engine: EngineSpec = b.engine.parse().expect("an engine");
        let plan = b.plan(&engine).expect("a plan");
        RunningBot::start(bot::Options {
            plan,
            ..options(server, server.addr, name, engine)
        })
    }

    /// Whether it still runs (it has not ended by itself).
    pub fn is_running(&self) -> bool {
        self.task.as_ref().is_some_and(|t| !t.is_finished())
    }

    /// How the bot ended by itself (its plan done, or refused), within `limit`.
    pub async fn ended(mut self, limit: Duration) -> anyhow::Result<()> {
        let task = self.task.take().expect("the bot's task");
        tokio::time::timeout(limit, task)
            .await
            .expect("the bot never ended")
            .expect("the bot's task")
    }
}

impl Drop for RunningBot {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

/// The options of bot account `name` (registered now, its password the tests' usual)
/// reaching `server` at `addr` with `engine`: it takes every challenge, never grants an
/// undo or a draw, 300 ms a move, and trusts the server's key.
pub fn options(
    server: &TestServer,
    addr: SocketAddr,
    name: &str,
    engine: EngineSpec,
) -> bot::Options {
    let address = addr.to_string();
    let trust = match server.fingerprint {
        Some(fp) => Trust::default().expecting(&address, fp, PinSource::Flag),
        None => Trust::default().in_the_clear(),
    };
    bot::Options {
        engine,
        name: name.to_string(),
        address,
        credentials: Credentials::Password {
            password: format!("password of {name}"),
            register: true,
            remember: false,
            bot: true,
        },
        undo: policy::UndoPolicy::Never,
        draw: policy::DrawPolicy::Never,
        challenges: ChallengePolicy::Everyone,
        move_time: Duration::from_millis(300),
        trust,
        plan: Default::default(),
    }
}

/// Waits until bot account `name` is on the server (as the people list shows it).
pub async fn online(c: &mut Client, name: &str) {
    for _ in 0..600 {
        c.send(ClientMsg::Players).await;
        if let ServerMsg::Players(list) = c.recv_until(|m| matches!(m, ServerMsg::Players(_))).await
            && list.iter().any(|p| p.name == name && p.bot)
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{name} never came online");
}
