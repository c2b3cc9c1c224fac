//! The Python example client (examples/python/banco_bot.py), run with `python3` against
//! the real server over its WebSocket and TLS: it logs in to a bot account, takes a
//! person's challenge and plays random legal moves to the end of a caro game, then a
//! xiangqi game from the server's Facts (the person resigns it), and stops. Skipped, with
//! a line saying so, only where python3 is missing.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use banco_protocol::{
    ChallengeEnd, ClientMsg, EndReason, FirstMove, GameSettings, Move, PROTOCOL_VERSION,
    RoomSettings, Rule, Seat, ServerMsg, TimeControl,
};
use banco_tests::{TestServer, test_config};

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/python/banco_bot.py")
}

#[test]
fn the_example_speaks_this_protocol_version() {
    let text = std::fs::read_to_string(script()).expect("the example is there");
    let said = text
        .lines()
        .find_map(|l| l.strip_prefix("PROTOCOL_VERSION = "))
        .expect("the example says its protocol version");
    assert_eq!(
        said.trim(),
        PROTOCOL_VERSION.to_string(),
        "examples/python/banco_bot.py speaks protocol {said}, the server {PROTOCOL_VERSION}: update it"
    );
}

fn python() -> Option<&'static str> {
    let found = std::process::Command::new("python3")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    found.then_some("python3")
}

#[tokio::test]
async fn the_python_example_takes_a_challenge_and_plays_random_legal_moves_to_the_end() {
    let Some(python) = python() else {
        eprintln!("SKIPPED: python3 is not installed, so the Python example cannot be run");
        return;
    };
    let server = TestServer::with_config(banco_server::Config {
        challenge_declined_wait: Duration::ZERO,
        ..test_config()
    })
    .await;
    let fingerprint = server.fingerprint.expect("the test server encrypts");
    let mut child = tokio::process::Command::new(python)
        .arg(script())
        .args(["--server", &server.addr.to_string(), "--name", "PyBot"])
        .args(["--register", "--games", "2"])
        .args(["--fingerprint", &fingerprint.to_string()])
        .env("BANCO_PASSWORD", "a password for the python bot")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start python3");

    let mut alice = server.player("alice").await;
    // Wait for the bot to be online, as a bot account.
    let mut online = false;
    for _ in 0..600 {
        alice.send(ClientMsg::Players).await;
        if let ServerMsg::Players(list) = alice
            .recv_until(|m| matches!(m, ServerMsg::Players(_)))
            .await
            && list.iter().any(|p| p.name == "PyBot" && p.bot)
        {
            online = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(online, "the Python bot never came online");

    // Caro, 7x7 freestyle, on a clock: to the end.
    let caro = RoomSettings {
        game: GameSettings::Caro {
            width: 7,
            height: 7,
            rule: Rule::Freestyle,
            opening: Default::default(),
        },
        time: TimeControl::clock(Duration::from_secs(120), Duration::ZERO),
        first: FirstMove::Me,
        rated: false,
        ..RoomSettings::default()
    };
    assert!(matches!(
        challenge(&mut alice, caro).await,
        ChallengeEnd::Accepted { .. }
    ));
    let mut taken = std::collections::HashSet::new();
    let over = loop {
        match alice.recv().await {
            ServerMsg::GameStarted(_) => alice.play(0, 0).await,
            ServerMsg::Moved { record, .. } => {
                if let Move::Caro(p) = record.mv {
                    taken.insert((p.x, p.y));
                }
                if record.by == Seat::Two {
                    // Down the first free column: a five unless the bot blocks it.
                    let (x, y) = (0..7u8)
                        .flat_map(|x| (0..7u8).map(move |y| (x, y)))
                        .find(|p| !taken.contains(p))
                        .expect("a free point");
                    alice.play(x, y).await;
                }
            }
            ServerMsg::GameOver(over) => break over,
            _ => {}
        }
    };
    assert!(
        matches!(over.reason, EndReason::Five | EndReason::Draw),
        "{over:?}"
    );
    assert!(taken.len() >= 9, "a whole game was played: {taken:?}");

    // Xiangqi: the bot (Red, first) plays the server's legal moves; she resigns after a
    // few.
    let xiangqi = RoomSettings {
        game: GameSettings::Xiangqi { fen: None },
        time: TimeControl::Unlimited,
        first: FirstMove::Them,
        rated: false,
        ..RoomSettings::default()
    };
    // The bot leaves its last room first; a challenge too early finds it still seated.
    let mut accepted = false;
    for _ in 0..50 {
        if matches!(
            challenge(&mut alice, xiangqi.clone()).await,
            ChallengeEnd::Accepted { .. }
        ) {
            accepted = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(accepted, "the bot took the xiangqi challenge");
    let mut bot_moves = 0;
    loop {
        match alice.recv().await {
            ServerMsg::Moved { record, .. } if record.by == Seat::Two => {
                bot_moves += 1;
                if bot_moves == 4 {
                    alice.send(ClientMsg::Resign).await;
                    continue;
                }
                alice.send(ClientMsg::Facts).await;
            }
            ServerMsg::Facts(facts) if !facts.legal.is_empty() => {
                alice
                    .send(ClientMsg::Move(facts.legal[facts.legal.len() / 2]))
                    .await;
            }
            ServerMsg::GameOver(over) => {
                assert_eq!(over.winner, Some(Seat::Two), "{over:?}");
                break;
            }
            _ => {}
        }
    }
    // Two games done: the bot stops by itself.
    let out = tokio::time::timeout(Duration::from_secs(60), child.wait())
        .await
        .expect("the Python bot stops after its games")
        .expect("python3 ran");
    let mut stdout = String::new();
    if let Some(mut pipe) = child.stdout.take() {
        use tokio::io::AsyncReadExt;
        let _ = pipe.read_to_string(&mut stdout).await;
    }
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        use tokio::io::AsyncReadExt;
        let _ = pipe.read_to_string(&mut stderr).await;
    }
    assert!(out.success(), "python3 failed: {stdout}\n{stderr}");
    assert!(stdout.contains("bot account: True"), "{stdout}");
    assert_eq!(stdout.matches("game over").count(), 2, "{stdout}");
    server.stop().await;
}

async fn challenge(alice: &mut banco_tests::Client, settings: RoomSettings) -> ChallengeEnd {
    alice
        .send(ClientMsg::Challenge {
            to: Some("PyBot".into()),
            settings,
        })
        .await;
    let id = match alice
        .recv_until(|m| matches!(m, ServerMsg::ChallengeSent(_) | ServerMsg::Error(_)))
        .await
    {
        ServerMsg::ChallengeSent(c) => c.id,
        ServerMsg::Error(e) => {
            // The bot still seated in its last room: it cannot be challenged yet.
            return ChallengeEnd::Declined {
                by: e.message,
                reason: banco_protocol::DeclineReason::NotNow,
            };
        }
        _ => unreachable!(),
    };
    match alice
        .recv_until(|m| matches!(m, ServerMsg::ChallengeEnded { id: i, .. } if *i == id))
        .await
    {
        ServerMsg::ChallengeEnded { end, .. } => end,
        _ => unreachable!(),
    }
}
