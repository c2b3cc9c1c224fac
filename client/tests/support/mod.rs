//! What the end-to-end tests share: a real server on 127.0.0.1 port 0 in this process,
//! a loopback relay in front of it that can cut or silence its links, and the real
//! `banco` binary in `--json` / `--plain` mode driven through its stdin.
//!
//! Waits only turn a hang into a failure (see [`WAIT`]); every assertion is on what
//! arrives, never on how long it took.

// Each test file uses its own share of these helpers.
#![allow(dead_code)]

use banco_server::{Config, StoreLocation};
use serde_json::Value;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::net::TcpStream;
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio_util::sync::CancellationToken;

/// The longest a test waits for an event before calling it lost.
pub const WAIT: Duration = Duration::from_secs(60);

pub struct Server {
    pub addr: SocketAddr,
    shutdown: CancellationToken,
    task: tokio::task::JoinHandle<anyhow::Result<()>>,
}

impl Server {
    pub async fn start() -> Server {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a loopback port is free");
        let addr = listener
            .local_addr()
            .expect("a bound listener has an address");
        let config = Config {
            name: "e2e".into(),
            store: StoreLocation::Memory,
            bot_delay: Duration::from_millis(10),
            bot_think_cap: Some(Duration::from_millis(100)),
            hint_budget: Duration::from_millis(100),
            // These play an undo declined and asked again at once; the wait after a
            // decline is the server's tests' business.
            offer_declined_wait: Duration::ZERO,
            // The discovery test runs its own server; these need no UDP port.
            discovery: None,
            ..Config::default()
        };
        let shutdown = CancellationToken::new();
        let task = tokio::spawn(banco_server::run(listener, config, shutdown.clone()));
        Server {
            addr,
            shutdown,
            task,
        }
    }

    pub async fn stop(self) {
        self.shutdown.cancel();
        let _ = tokio::time::timeout(WAIT, self.task).await;
    }
}

/// What happens to the connections relayed so far.
struct Links {
    /// Cancelled to cut them (both ends see them closed).
    cut: CancellationToken,
    /// Set to silence them: nothing more is forwarded either way and nothing is
    /// closed, as when a network drops packets.
    silent: Arc<AtomicBool>,
}

impl Links {
    fn new(parent: &CancellationToken) -> Links {
        Links {
            cut: parent.child_token(),
            silent: Arc::new(AtomicBool::new(false)),
        }
    }
}

/// A TCP relay on loopback in front of the server whose links the test can cut or
/// silence, as a dropped network would, while it keeps accepting new ones.
pub struct Proxy {
    pub addr: SocketAddr,
    /// The connections relayed since the last cut or silencing.
    current: Arc<Mutex<Links>>,
    /// Cancelled when the proxy goes: ends every link it still holds.
    all: CancellationToken,
    task: tokio::task::JoinHandle<()>,
}

impl Proxy {
    pub async fn start(to: SocketAddr) -> Proxy {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a loopback port is free");
        let addr = listener
            .local_addr()
            .expect("a bound listener has an address");
        let all = CancellationToken::new();
        let current = Arc::new(Mutex::new(Links::new(&all)));
        let links = current.clone();
        let task = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let (cut, silent) = {
                    let l = links.lock().expect("not poisoned");
                    (l.cut.clone(), l.silent.clone())
                };
                tokio::spawn(async move {
                    let Ok(server) = TcpStream::connect(to).await else {
                        return;
                    };
                    let (client_r, client_w) = client.into_split();
                    let (server_r, server_w) = server.into_split();
                    tokio::select! {
                        () = pump(client_r, server_w, silent.clone()) => {}
                        () = pump(server_r, client_w, silent) => {}
                        () = cut.cancelled() => {}
                    }
                });
            }
        });
        Proxy {
            addr,
            current,
            all,
            task,
        }
    }

    /// Drops every link relayed so far (both ends see it closed).
    pub fn cut(&self) {
        let mut links = self.current.lock().expect("not poisoned");
        links.cut.cancel();
        *links = Links::new(&self.all);
    }

    /// Silences every link relayed so far: open, but nothing gets through any more.
    /// New connections are relayed as usual.
    pub fn silence(&self) {
        let mut links = self.current.lock().expect("not poisoned");
        links.silent.store(true, Ordering::SeqCst);
        *links = Links::new(&self.all);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.all.cancel();
        self.task.abort();
    }
}

/// Forwards `from` to `to` until either closes; once `silent`, swallows what comes and
/// holds both open.
async fn pump(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    silent: Arc<AtomicBool>,
) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        if silent.load(Ordering::SeqCst) {
            // Read and drop, so the sender sees no closed window either.
            loop {
                if matches!(from.read(&mut buf).await, Ok(0) | Err(_)) {
                    std::future::pending::<()>().await;
                }
            }
        }
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        if silent.load(Ordering::SeqCst) {
            continue;
        }
        if to.write_all(&buf[..n]).await.is_err() {
            return;
        }
    }
}

/// A scratch directory for one test's clients (settings, seats), fresh.
pub fn scratch(name: &str) -> PathBuf {
    sweep_stale_scratch();
    let dir = std::env::temp_dir().join(format!("banco-e2e-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Removes the scratch directories of test processes that no longer run, once per
/// process. A test cannot remove its own when it is done (a later join may keep the
/// seats in it, and a failed or killed run never gets there), so without this every run
/// of the suite would leave its share in the temporary directory.
fn sweep_stale_scratch() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // Whether a process runs is read from /proc: elsewhere nothing is removed.
        if !cfg!(target_os = "linux") {
            return;
        }
        let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(rest) = name.to_str().and_then(|n| n.strip_prefix("banco-e2e-")) else {
                continue;
            };
            let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<u32>().ok()) else {
                continue;
            };
            if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    });
}

/// One `banco join ... --json` (or `--plain`) process.
pub struct Player {
    pub name: &'static str,
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: Lines<BufReader<ChildStdout>>,
    /// Every event read so far, for failure messages.
    pub seen: Vec<Value>,
}

impl Player {
    pub async fn join(server: &Server, name: &'static str, mode: &str) -> Player {
        Player::join_at(server.addr, name, mode).await
    }

    /// Joins through `addr` (a [`Proxy`] in front of the server, say).
    pub async fn join_at(addr: SocketAddr, name: &'static str, mode: &str) -> Player {
        // Tests run side by side in one process: each player its own state.
        static PLAYERS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = PLAYERS.fetch_add(1, Ordering::SeqCst);
        Player::join_keeping(addr, name, mode, &scratch(&format!("state-{name}-{n}"))).await
    }

    /// Registers `name` as an account (`--register`, the password piped in as the first
    /// line) and joins logged in to it.
    pub async fn register(server: &Server, name: &'static str, mode: &str) -> Player {
        static PLAYERS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = PLAYERS.fetch_add(1, Ordering::SeqCst);
        let state = scratch(&format!("state-account-{name}-{n}"));
        let mut p = Player::spawn(server.addr, name, &[mode, "--register"], &state);
        p.send(&format!("password of {name}")).await;
        p
    }

    /// Joins through `addr`, keeping what the client keeps between runs (the seats it
    /// holds) in `state`.
    pub async fn join_keeping(
        addr: SocketAddr,
        name: &'static str,
        mode: &str,
        state: &Path,
    ) -> Player {
        Player::spawn(addr, name, &[mode], state)
    }

    fn spawn(addr: SocketAddr, name: &'static str, extra: &[&str], state: &Path) -> Player {
        let config = std::env::temp_dir().join(format!("banco-e2e-{}-{name}", std::process::id()));
        let mut child = Command::new(env!("CARGO_BIN_EXE_banco"))
            .args(["join", &addr.to_string(), "--name", name])
            .args(extra)
            .env("BANCO_CONFIG_DIR", config)
            .env("BANCO_STATE_DIR", state)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .expect("the banco binary runs");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        Player {
            name,
            child,
            stdin,
            lines: BufReader::new(stdout).lines(),
            seen: Vec::new(),
        }
    }

    pub async fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .await
            .expect("the client reads its stdin");
        stdin.flush().await.expect("the client reads its stdin");
    }

    /// The next raw output line.
    pub async fn line(&mut self) -> String {
        self.line_by(tokio::time::Instant::now() + WAIT).await
    }

    /// The next raw output line, before `by`.
    async fn line_by(&mut self, by: tokio::time::Instant) -> String {
        match tokio::time::timeout_at(by, self.lines.next_line()).await {
            Ok(Ok(Some(l))) => l,
            other => panic!(
                "{}: no more output ({other:?}); saw {:#?}",
                self.name, self.seen
            ),
        }
    }

    /// Reads events until one satisfies `want`, and returns it; all within [`WAIT`]
    /// (a client printing other events for ever fails the wait too).
    pub async fn until(&mut self, what: &str, want: impl Fn(&Value) -> bool) -> Value {
        let by = tokio::time::Instant::now() + WAIT;
        loop {
            let line = self.line_by(by).await;
            let v: Value = serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("{}: not JSON: {line:?} ({e})", self.name));
            assert!(
                v["event"].is_string(),
                "{}: no event field in {line}",
                self.name
            );
            self.seen.push(v.clone());
            if want(&v) {
                return v;
            }
            assert!(
                self.seen.len() < 2_000,
                "{}: never saw {what}; saw {:#?}",
                self.name,
                self.seen
            );
        }
    }

    pub async fn event(&mut self, name: &str) -> Value {
        self.until(name, |v| v["event"] == name).await
    }

    /// Waits for the move of ply `ply`.
    pub async fn ply(&mut self, ply: u64) -> Value {
        self.until(&format!("move {ply}"), |v| {
            v["event"] == "move" && v["ply"] == ply
        })
        .await
    }

    /// Closes stdin (end of input) and waits for the process to exit.
    pub async fn finish(mut self) -> std::process::ExitStatus {
        self.stdin = None;
        tokio::time::timeout(WAIT, self.child.wait())
            .await
            .expect("the client exits after its input ends")
            .expect("the child process can be waited on")
    }

    /// Kills the process outright (SIGKILL: no leaving, no goodbye), as a crash would.
    pub async fn kill(mut self) {
        self.child.kill().await.expect("the client can be killed");
    }
}

/// Plays `mine` for `a` and `theirs` for `b` alternately from ply `start`, each waiting
/// until both sides have seen the previous move.
pub async fn play(a: &mut Player, b: &mut Player, mine: &[&str], theirs: &[&str], start: u64) {
    let mut ply = start;
    for (i, m) in mine.iter().enumerate() {
        a.send(&format!("move {m}")).await;
        a.ply(ply).await;
        b.ply(ply).await;
        ply += 1;
        if let Some(t) = theirs.get(i) {
            b.send(&format!("move {t}")).await;
            b.ply(ply).await;
            a.ply(ply).await;
            ply += 1;
        }
    }
}

/// The points of a `joined` event's moves, in order.
pub fn points(joined: &Value) -> Vec<String> {
    joined["moves"]
        .as_array()
        .expect("joined lists the moves")
        .iter()
        .map(|m| m["point"].as_str().unwrap_or_default().to_string())
        .collect()
}
