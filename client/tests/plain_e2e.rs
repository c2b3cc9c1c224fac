//! End to end: the real `banco` binary in `--json` (and `--plain`) mode, driven through
//! its stdin, against a real server on 127.0.0.1 port 0 in this process.
//!
//! Waits only turn a hang into a failure (see [`WAIT`]); every assertion is on what
//! arrives, never on how long it took.

use banco_server::{Config, StoreLocation};
use serde_json::Value;
use std::net::SocketAddr;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio_util::sync::CancellationToken;

/// The longest a test waits for an event before calling it lost.
const WAIT: Duration = Duration::from_secs(60);

struct Server {
    addr: SocketAddr,
    shutdown: CancellationToken,
    task: tokio::task::JoinHandle<anyhow::Result<()>>,
}

impl Server {
    async fn start() -> Server {
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

    async fn stop(self) {
        self.shutdown.cancel();
        let _ = tokio::time::timeout(WAIT, self.task).await;
    }
}

/// One `banco join ... --json` process.
struct Player {
    name: &'static str,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Lines<BufReader<ChildStdout>>,
    /// Every event read so far, for failure messages.
    seen: Vec<Value>,
}

impl Player {
    async fn join(server: &Server, name: &'static str, mode: &str) -> Player {
        let config = std::env::temp_dir().join(format!("banco-e2e-{}-{name}", std::process::id()));
        let mut child = Command::new(env!("CARGO_BIN_EXE_banco"))
            .args(["join", &server.addr.to_string(), "--name", name, mode])
            .env("BANCO_CONFIG_DIR", config)
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

    async fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .await
            .expect("the client reads its stdin");
        stdin.flush().await.expect("the client reads its stdin");
    }

    /// The next raw output line.
    async fn line(&mut self) -> String {
        match tokio::time::timeout(WAIT, self.lines.next_line()).await {
            Ok(Ok(Some(l))) => l,
            other => panic!(
                "{}: no more output ({other:?}); saw {:#?}",
                self.name, self.seen
            ),
        }
    }

    /// Reads events until one satisfies `want`, and returns it.
    async fn until(&mut self, what: &str, want: impl Fn(&Value) -> bool) -> Value {
        loop {
            let line = self.line().await;
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

    async fn event(&mut self, name: &str) -> Value {
        self.until(name, |v| v["event"] == name).await
    }

    /// Waits for the move of ply `ply`.
    async fn ply(&mut self, ply: u64) -> Value {
        self.until(&format!("move {ply}"), |v| {
            v["event"] == "move" && v["ply"] == ply
        })
        .await
    }

    /// Closes stdin (end of input) and waits for the process to exit.
    async fn finish(mut self) -> std::process::ExitStatus {
        self.stdin = None;
        tokio::time::timeout(WAIT, self.child.wait())
            .await
            .expect("the client exits after its input ends")
            .expect("the child process can be waited on")
    }
}

/// Plays `mine` for `a` and `theirs` for `b` alternately from ply `start`, each waiting
/// until both sides have seen the previous move.
async fn play(a: &mut Player, b: &mut Player, mine: &[&str], theirs: &[&str], start: u64) {
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_chat_negotiate_undo_win_rematch_and_quit() {
    let server = Server::start().await;
    let mut an = Player::join(&server, "An", "--json").await;
    let welcome = an.event("welcome").await;
    assert_eq!(welcome["name"], "An");
    assert_eq!(welcome["server"], "e2e");

    an.send("create caro --rule freestyle --first me").await;
    let created = an.event("room_created").await;
    let room = created["room"].as_u64().unwrap();
    let joined = an.event("joined").await;
    assert_eq!(joined["you"], "one");
    assert_eq!(joined["rule"], "freestyle");

    let mut binh = Player::join(&server, "Binh", "--json").await;
    binh.event("welcome").await;
    binh.send("rooms").await;
    let rooms = binh.event("rooms").await;
    let listed = rooms["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["room"] == room)
        .expect("the new room is listed");
    assert_eq!(listed["status"], "waiting");
    assert_eq!(listed["players"][0], "An");
    binh.send(&format!("join {room}")).await;
    assert_eq!(binh.event("joined").await["you"], "two");
    let started = an.event("game_started").await;
    assert_eq!(started["first"], "one");
    assert_eq!(started["your_turn"], true);
    assert_eq!(binh.event("game_started").await["your_turn"], false);

    // Chat reaches the other player with the sender's name.
    an.send("say xin chào Bình").await;
    let chat = binh.event("chat").await;
    assert_eq!(
        (chat["from"].as_str(), chat["text"].as_str()),
        (Some("An"), Some("xin chào Bình"))
    );

    // Client-side refusals: a bad line, a point off the board, answering no offer.
    binh.send("dance").await;
    assert_eq!(binh.event("error").await["code"], "bad_command");
    binh.send("move 15,0").await;
    assert_eq!(binh.event("error").await["code"], "out_of_bounds");
    binh.send("yes").await;
    assert_eq!(binh.event("error").await["code"], "no_offer");
    // The server's refusals come through with their codes.
    binh.send("move h8").await;
    assert_eq!(binh.event("error").await["code"], "not_your_turn");

    play(&mut an, &mut binh, &["h8"], &["a1"], 1).await;
    an.send("move a1").await;
    assert_eq!(an.event("error").await["code"], "occupied");

    // Undo: asked and declined, then asked and accepted (two plies: Bình moved since).
    an.send("undo").await;
    binh.event("undo_offered").await;
    binh.send("no").await;
    an.event("undo_declined").await;
    an.send("undo").await;
    binh.event("undo_offered").await;
    binh.send("yes").await;
    let undone = an.event("undone").await;
    assert_eq!(undone["plies"], 2);
    assert_eq!(undone["your_turn"], true);
    assert_eq!(binh.event("undone").await["moves"], 0);

    // A full game to five: An takes row 8 from h to l.
    play(
        &mut an,
        &mut binh,
        &["h8", "i8", "j8", "k8", "l8"],
        &["a1", "a2", "a3", "a4"],
        1,
    )
    .await;
    let over = an.event("game_over").await;
    assert_eq!(over["result"], "win");
    assert_eq!(over["reason"], "five");
    assert_eq!(over["winner"], "one");
    let line: Vec<(u64, u64)> = over["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_u64().unwrap(), p[1].as_u64().unwrap()))
        .collect();
    assert_eq!(line, [(7, 7), (8, 7), (9, 7), (10, 7), (11, 7)]);
    assert_eq!(binh.event("game_over").await["result"], "loss");

    // Rematch offered by the loser and accepted: the first move passes to seat two.
    binh.send("newgame").await;
    an.event("newgame_offered").await;
    an.send("yes").await;
    let started = binh.event("game_started").await;
    assert_eq!(started["first"], "two");
    assert_eq!(started["your_turn"], true);
    an.event("game_started").await;

    // End of Bình's input mid-game: Bình leaves, and loses by quitting.
    binh.send("move h8").await;
    binh.ply(1).await;
    assert!(binh.finish().await.success());
    let over = an.event("game_over").await;
    assert_eq!(over["reason"], "quit");
    assert_eq!(over["result"], "win");
    an.send("quit").await;
    assert!(an.finish().await.success());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_player_to_move_times_out() {
    let server = Server::start().await;
    let mut an = Player::join(&server, "An", "--json").await;
    an.send("create caro --timer 1s --first them").await;
    let room = an.event("room_created").await["room"].as_u64().unwrap();
    let mut binh = Player::join(&server, "Binh", "--json").await;
    binh.send(&format!("join {room}")).await;
    binh.event("game_started").await;
    // Bình moves first and does not: the server ends the game.
    let over = an.event("game_over").await;
    assert_eq!(over["reason"], "timeout");
    assert_eq!(over["winner"], "one");
    assert_eq!(over["result"], "win");
    assert_eq!(binh.event("game_over").await["result"], "loss");
    an.send("quit").await;
    binh.send("quit").await;
    assert!(an.finish().await.success());
    assert!(binh.finish().await.success());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_bot_with_a_hint_and_a_spectator() {
    let server = Server::start().await;
    let mut an = Player::join(&server, "An", "--json").await;
    an.send("create caro --size 9 --rule freestyle --bot easy")
        .await;
    let room = an.event("room_created").await["room"].as_u64().unwrap();
    an.until("game_started", |v| v["event"] == "game_started")
        .await;

    let mut cuc = Player::join(&server, "Cuc", "--json").await;
    cuc.send(&format!("watch {room}")).await;
    assert_eq!(cuc.event("joined").await["you"], "spectator");
    cuc.send("move e5").await;
    assert_eq!(cuc.event("error").await["code"], "not_a_player");

    an.send("hint").await;
    let hint = an.event("hint").await;
    assert!(hint["x"].as_u64().unwrap() < 9 && hint["y"].as_u64().unwrap() < 9);

    // Play the first empty point in reading order until the game ends.
    let mut taken = std::collections::HashSet::new();
    let mut ply = 1;
    let over = loop {
        let spot = (0..81u64)
            .map(|i| (i % 9, i / 9))
            .find(|p| !taken.contains(p))
            .expect("the board is not full while the game runs");
        an.send(&format!("move {},{}", spot.0, spot.1)).await;
        let ev = an
            .until("my move or the end", |v| {
                (v["event"] == "move" && v["ply"] == ply) || v["event"] == "game_over"
            })
            .await;
        if ev["event"] == "game_over" {
            break ev;
        }
        taken.insert(spot);
        ply += 1;
        let ev = an
            .until("the bot's move or the end", |v| {
                (v["event"] == "move" && v["ply"] == ply) || v["event"] == "game_over"
            })
            .await;
        if ev["event"] == "game_over" {
            break ev;
        }
        taken.insert((ev["x"].as_u64().unwrap(), ev["y"].as_u64().unwrap()));
        ply += 1;
    };
    assert!(["win", "loss", "draw"].contains(&over["result"].as_str().unwrap()));
    // The spectator saw the same end, from outside.
    let seen = cuc.event("game_over").await;
    assert_eq!(seen["reason"], over["reason"]);
    assert!(["decisive", "draw"].contains(&seen["result"].as_str().unwrap()));
    an.send("board").await;
    let board = an.event("board").await;
    assert_eq!(board["rows"].as_array().unwrap().len(), 9);
    an.send("leave").await;
    an.event("left").await;
    an.send("quit").await;
    cuc.send("quit").await;
    assert!(an.finish().await.success());
    assert!(cuc.finish().await.success());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_mode_reads_like_sentences() {
    let server = Server::start().await;
    let mut an = Player::join(&server, "An", "--plain").await;
    assert_eq!(an.line().await, "welcome: Connected to e2e as An.");
    an.send("create caro --size 9").await;
    // The lobby may push a room list first; the answers follow in order.
    let mut line = an.line().await;
    while line.starts_with("rooms:") || line.starts_with("  #") {
        line = an.line().await;
    }
    assert!(line.starts_with("room_created: Room "), "{line}");
    let joined = an.line().await;
    assert!(joined.contains("You play X in room"), "{joined}");
    an.send("bogus").await;
    let mut line = an.line().await;
    while !line.starts_with("error:") {
        line = an.line().await;
    }
    assert_eq!(
        line,
        "error: [bad_command] unknown command 'bogus': type help for the list"
    );
    an.send("quit").await;
    assert!(an.finish().await.success());
    server.stop().await;
}
