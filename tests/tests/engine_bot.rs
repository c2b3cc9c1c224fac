//! `banco bot` end to end: an external engine on the real server as a bot account, run
//! in-process (`banco_client::bot::run`) against banco's own Gomocup and UCI binaries
//! (`pbrain-banco` and `banco-uci`, built for this crate as `e2e-pbrain-banco` and
//! `e2e-banco-uci`), so nothing from outside the workspace is needed.
//!
//! A person (a test client) challenges the bot and plays: a caro game on a clock to its
//! end, with an undo request and a draw offer declined by the bot's policy; a xiangqi
//! game on a clock where the policy takes an undo and a draw (the engine ahead). A
//! challenge the engine cannot play is declined with the reason. Faults: the engine
//! killed mid-game (restarted, the game goes on), an engine printing garbage (it
//! resigns with the reason said in the room), an engine too slow (it loses on time), the
//! bot's network cut (it comes back to its seat and the game goes on). Each ends in a
//! stated result; none leaves a room stuck.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use banco_client::bot::{self, engine::EngineSpec, policy};
use banco_protocol::{
    ChallengeEnd, ClientMsg, Credentials, DeclineReason, EndReason, FirstMove, GameOver,
    GameSettings, Move, OfferKind, RoomSettings, Rule, Seat, ServerMsg, TimeControl,
};
use banco_tests::bots::{self, RunningBot, online};
use banco_tests::{Client, TempDir, TestServer, test_config};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;

const PBRAIN: &str = env!("CARGO_BIN_EXE_e2e-pbrain-banco");
const BANCO_UCI: &str = env!("CARGO_BIN_EXE_e2e-banco-uci");

/// A server whose players may challenge again at once after a decline (the tests
/// challenge a bot with what it declines, then with what it plays).
async fn server() -> TestServer {
    TestServer::with_config(banco_server::Config {
        challenge_declined_wait: Duration::ZERO,
        ..test_config()
    })
    .await
}

/// Starts a bot account `name` (registered now) on `addr` with `engine`; `policies`
/// adjusts its options.
fn start_bot(
    server: &TestServer,
    addr: std::net::SocketAddr,
    name: &str,
    engine: EngineSpec,
    policies: impl FnOnce(&mut bot::Options),
) -> RunningBot {
    let mut opts = bots::options(server, addr, name, engine);
    policies(&mut opts);
    RunningBot::start(opts)
}

/// `person` challenges `bot` with `settings` and reads how it ended.
async fn challenge(person: &mut Client, bot: &str, settings: RoomSettings) -> ChallengeEnd {
    person
        .send(ClientMsg::Challenge {
            to: Some(bot.to_string()),
            settings,
        })
        .await;
    let id = match person
        .recv_until(|m| matches!(m, ServerMsg::ChallengeSent(_) | ServerMsg::Error(_)))
        .await
    {
        ServerMsg::ChallengeSent(c) => c.id,
        other => panic!("the challenge was refused: {other:?}"),
    };
    match person
        .recv_until(|m| matches!(m, ServerMsg::ChallengeEnded { id: i, .. } if *i == id))
        .await
    {
        ServerMsg::ChallengeEnded { end, .. } => end,
        _ => unreachable!(),
    }
}

fn caro_on_clock(size: u8, first: FirstMove, time: TimeControl) -> RoomSettings {
    RoomSettings {
        game: GameSettings::Caro {
            width: size,
            height: size,
            rule: Rule::Freestyle,
            opening: Default::default(),
        },
        time,
        first,
        rated: false,
        ..RoomSettings::default()
    }
}

/// The person's side of a caro game: the stones on the board, and her seat.
struct CaroSide {
    /// Points taken.
    taken: HashSet<(u8, u8)>,
    /// Board side.
    size: u8,
    /// Moves the bot has made.
    bot_moves: usize,
}

impl CaroSide {
    fn new(size: u8) -> CaroSide {
        CaroSide {
            taken: HashSet::new(),
            size,
            bot_moves: 0,
        }
    }

    /// The first free point, column by column from the corner (a line the bot blocks).
    fn free(&self) -> (u8, u8) {
        (0..self.size)
            .flat_map(|x| (0..self.size).map(move |y| (x, y)))
            .find(|p| !self.taken.contains(p))
            .expect("a free point")
    }

    /// Plays (seat One, the challenger) until the game ends, or the bot has made
    /// `until` moves and it is her turn; `Some` with the end.
    async fn play(&mut self, person: &mut Client, until: usize) -> Option<GameOver> {
        loop {
            match person.recv().await {
                ServerMsg::GameStarted(view) => {
                    self.taken.clear();
                    if view.first == Seat::One {
                        self.move_once(person).await;
                    }
                }
                ServerMsg::Moved { record, .. } => {
                    let Move::Caro(p) = record.mv else {
                        panic!("a caro move expected: {record:?}")
                    };
                    self.taken.insert((p.x, p.y));
                    if record.by == Seat::Two {
                        self.bot_moves += 1;
                        if self.bot_moves >= until {
                            return None;
                        }
                        self.move_once(person).await;
                    }
                }
                ServerMsg::Undone { .. } => panic!("nothing was to be undone"),
                ServerMsg::GameOver(over) => return Some(over),
                _ => {}
            }
        }
    }

    async fn move_once(&mut self, person: &mut Client) {
        let (x, y) = self.free();
        person.play(x, y).await;
    }
}

/// A shell script engine in `dir`, made executable; returns the command.
fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).expect("write the script");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
        .expect("make the script executable");
    path.display().to_string()
}

#[tokio::test]
async fn a_person_plays_the_gomocup_bot_on_a_clock_and_its_policy_declines_undo_and_draw() {
    let server = server().await;
    let _bot = start_bot(
        &server,
        server.addr,
        "rapfish",
        EngineSpec::Gomocup(format!("{PBRAIN} --level medium")),
        |_| {},
    );
    let mut alice = server.player("alice").await;
    online(&mut alice, "rapfish").await;

    // Xiangqi is not the engine's game: declined with the reason.
    let xq = RoomSettings {
        game: GameSettings::Xiangqi { fen: None },
        ..RoomSettings::default()
    };
    let end = challenge(&mut alice, "rapfish", xq).await;
    assert_eq!(
        end,
        ChallengeEnd::Declined {
            by: "rapfish".into(),
            reason: DeclineReason::Variant
        }
    );
    let settings = caro_on_clock(
        9,
        FirstMove::Me,
        TimeControl::clock(Duration::from_secs(30), Duration::from_millis(200)),
    );
    let end = challenge(&mut alice, "rapfish", settings).await;
    assert!(matches!(end, ChallengeEnd::Accepted { .. }), "{end:?}");
    let mut side = CaroSide::new(9);
    assert!(side.play(&mut alice, 2).await.is_none(), "over too soon");
    // Her turn: she asks to take back her last move, and offers a draw. The bot's
    // policy (never, never) declines both.
    alice.send(ClientMsg::Offer(OfferKind::Undo)).await;
    match alice
        .recv_until(|m| matches!(m, ServerMsg::Declined(_) | ServerMsg::Undone { .. }))
        .await
    {
        ServerMsg::Declined(o) => assert_eq!(o.kind, OfferKind::Undo),
        other => panic!("the undo was taken: {other:?}"),
    }
    alice.send(ClientMsg::Offer(OfferKind::Draw)).await;
    match alice
        .recv_until(|m| matches!(m, ServerMsg::Declined(_) | ServerMsg::GameOver(_)))
        .await
    {
        ServerMsg::Declined(o) => assert_eq!(o.kind, OfferKind::Draw),
        other => panic!("the draw was taken: {other:?}"),
    }
    side.move_once(&mut alice).await;
    let over = side
        .play(&mut alice, usize::MAX)
        .await
        .expect("the game ends");
    assert_eq!(over.reason, EndReason::Five, "{over:?}");
    assert_eq!(over.winner, Some(Seat::Two), "the engine wins: {over:?}");
    server.stop().await;
}

/// Standard xiangqi without Black's rooks: Red (the bot, moving first) far ahead.
const RED_AHEAD: &str = "1nbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// The person's next legal xiangqi move, from the server's facts.
async fn legal_move(person: &mut Client) -> Move {
    person.send(ClientMsg::Facts).await;
    match person
        .recv_until(|m| matches!(m, ServerMsg::Facts(_)))
        .await
    {
        ServerMsg::Facts(facts) => *facts.legal.first().expect("a legal move"),
        _ => unreachable!(),
    }
}

/// Reads until the bot (seat Two) has moved; `None` if the game ended first.
async fn bot_moved(person: &mut Client) -> Option<GameOver> {
    loop {
        match person.recv().await {
            ServerMsg::Moved { record, .. } if record.by == Seat::Two => return None,
            ServerMsg::GameOver(over) => return Some(over),
            _ => {}
        }
    }
}

#[tokio::test]
async fn a_person_plays_the_uci_bot_at_xiangqi_and_its_policy_takes_undo_and_a_draw_when_ahead() {
    let server = server().await;
    let _bot = start_bot(
        &server,
        server.addr,
        "pikafish",
        EngineSpec::Uci(BANCO_UCI.to_string()),
        |o| {
            o.undo = policy::UndoPolicy::Always;
            o.draw = policy::DrawPolicy::WhenNotBehind;
        },
    );
    let mut alice = server.player("alice").await;
    online(&mut alice, "pikafish").await;
    // Caro is not a UCI engine's game.
    let end = challenge(
        &mut alice,
        "pikafish",
        caro_on_clock(9, FirstMove::Me, TimeControl::Unlimited),
    )
    .await;
    assert!(
        matches!(
            end,
            ChallengeEnd::Declined {
                reason: DeclineReason::Variant,
                ..
            }
        ),
        "{end:?}"
    );
    let settings = RoomSettings {
        game: GameSettings::Xiangqi {
            fen: Some(RED_AHEAD.into()),
        },
        time: TimeControl::clock(Duration::from_secs(20), Duration::from_millis(100)),
        first: FirstMove::Them,
        rated: false,
        ..RoomSettings::default()
    };
    let end = challenge(&mut alice, "pikafish", settings).await;
    assert!(matches!(end, ChallengeEnd::Accepted { .. }), "{end:?}");
    for _ in 0..3 {
        assert_eq!(bot_moved(&mut alice).await, None, "over too soon");
        let mv = legal_move(&mut alice).await;
        alice.send(ClientMsg::Move(mv)).await;
    }
    assert_eq!(bot_moved(&mut alice).await, None, "over too soon");
    // Her turn: she takes back her last move (the bot's reply goes with it), which the
    // policy allows...
    alice.send(ClientMsg::Offer(OfferKind::Undo)).await;
    match alice
        .recv_until(|m| matches!(m, ServerMsg::Declined(_) | ServerMsg::Undone { .. }))
        .await
    {
        ServerMsg::Undone { plies, .. } => assert!(plies >= 1),
        other => panic!("the undo was declined: {other:?}"),
    }
    // ... and, the engine being a rook or two ahead by its own score, a draw too.
    let mv = legal_move(&mut alice).await;
    alice.send(ClientMsg::Move(mv)).await;
    assert_eq!(bot_moved(&mut alice).await, None, "over too soon");
    alice.send(ClientMsg::Offer(OfferKind::Draw)).await;
    let over = alice.game_over().await;
    assert_eq!(over.reason, EndReason::Agreement, "{over:?}");
    assert_eq!(over.winner, None);
    server.stop().await;
}

#[tokio::test]
async fn an_engine_killed_mid_game_is_restarted_and_the_game_goes_on() {
    let server = server().await;
    let dir = TempDir::new("engine-bot-killed");
    let pids = dir.path().join("pids");
    // Every process the bot starts writes its id, then becomes pbrain-banco.
    let command = format!(
        "echo $$ >> '{}'; exec {PBRAIN} --level easy",
        pids.display()
    );
    let _bot = start_bot(
        &server,
        server.addr,
        "crashy",
        EngineSpec::Gomocup(command),
        |_| {},
    );
    let mut alice = server.player("alice").await;
    online(&mut alice, "crashy").await;
    let settings = caro_on_clock(
        9,
        FirstMove::Me,
        TimeControl::clock(Duration::from_secs(30), Duration::from_millis(200)),
    );
    let end = challenge(&mut alice, "crashy", settings).await;
    assert!(matches!(end, ChallengeEnd::Accepted { .. }), "{end:?}");
    let mut side = CaroSide::new(9);
    assert!(side.play(&mut alice, 2).await.is_none(), "over too soon");
    // The game's engine is the last process started: killed while it waits for her move.
    let started = read_pids(&pids);
    let victim = *started.last().expect("an engine process");
    let killed = std::process::Command::new("kill")
        .args(["-9", &victim.to_string()])
        .status()
        .expect("run kill");
    assert!(killed.success());
    side.move_once(&mut alice).await;
    let over = side
        .play(&mut alice, usize::MAX)
        .await
        .expect("the game ends");
    assert_eq!(over.reason, EndReason::Five, "played to the end: {over:?}");
    assert!(
        read_pids(&pids).len() > started.len(),
        "a new engine process was started"
    );
    server.stop().await;
}

fn read_pids(path: &PathBuf) -> Vec<u32> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// A Gomocup engine that starts games but answers moves with `answer` (a shell
/// command's output): `ABOUT` answered so the adapter knows it listens.
fn fake_gomocup(dir: &Path, name: &str, answer: &str) -> String {
    script(
        dir,
        name,
        &format!(
            "n=0\nwhile read -r line; do\n  case \"$line\" in\n    START*|RESTART*) echo OK ;;\n    ABOUT*) echo 'name=\"{name}\", version=\"1\"' ;;\n    DONE*) echo 4,4 ;;\n    BEGIN*|TURN*) n=$((n+1)); {answer} ;;\n  esac\ndone\n"
        ),
    )
}

#[tokio::test]
async fn an_engine_printing_garbage_resigns_with_the_reason_said() {
    let server = server().await;
    let dir = TempDir::new("engine-bot-garbage");
    // Its first move is fine; then it prints nonsense.
    let command = fake_gomocup(
        dir.path(),
        "garbage",
        "if [ $n -eq 1 ]; then echo 8,8; else echo 'lorem ipsum'; fi",
    );
    let _bot = start_bot(
        &server,
        server.addr,
        "babbler",
        EngineSpec::Gomocup(command),
        |_| {},
    );
    let mut alice = server.player("alice").await;
    online(&mut alice, "babbler").await;
    let settings = caro_on_clock(9, FirstMove::Me, TimeControl::Unlimited);
    let end = challenge(&mut alice, "babbler", settings).await;
    assert!(matches!(end, ChallengeEnd::Accepted { .. }), "{end:?}");
    let (over, said) = play_to_the_end(&mut alice, &mut CaroSide::new(9)).await;
    assert_eq!(over.reason, EndReason::Resign, "{over:?}");
    assert_eq!(over.winner, Some(Seat::One));
    let said = said.expect("the reason was said in the room");
    assert!(said.contains("lorem ipsum"), "{said}");
    server.stop().await;
}

#[tokio::test]
async fn a_caro_rule_the_engine_refuses_is_declined_and_one_it_plays_is_taken() {
    let server = server().await;
    let dir = TempDir::new("engine-bot-rules");
    // It plays freestyle (rule 0) only, as an engine that knows no caro rule would.
    let command = script(
        dir.path(),
        "freestyler",
        "while read -r line; do\n  case \"$line\" in\n    START*|RESTART*) echo OK ;;\n    'INFO rule 0') ;;\n    'INFO rule'*) echo 'ERROR unsupported rule' ;;\n    ABOUT*) echo 'name=\"freestyler\"' ;;\n    DONE*|BEGIN*|TURN*) echo 4,4 ;;\n  esac\ndone\n",
    );
    let _bot = start_bot(
        &server,
        server.addr,
        "freestyler",
        EngineSpec::Gomocup(command),
        |_| {},
    );
    let mut alice = server.player("alice").await;
    online(&mut alice, "freestyler").await;
    let mut caro_rule = caro_on_clock(9, FirstMove::Me, TimeControl::Unlimited);
    if let GameSettings::Caro { rule, .. } = &mut caro_rule.game {
        *rule = Rule::Caro;
    }
    let end = challenge(&mut alice, "freestyler", caro_rule).await;
    assert!(
        matches!(
            end,
            ChallengeEnd::Declined {
                reason: DeclineReason::Variant,
                ..
            }
        ),
        "{end:?}"
    );
    let freestyle = caro_on_clock(9, FirstMove::Me, TimeControl::Unlimited);
    let end = challenge(&mut alice, "freestyler", freestyle).await;
    assert!(matches!(end, ChallengeEnd::Accepted { .. }), "{end:?}");
    server.stop().await;
}

/// The person plays until the game ends; returns the end and what the chat said of the
/// engine's failure, if anything.
async fn play_to_the_end(person: &mut Client, side: &mut CaroSide) -> (GameOver, Option<String>) {
    let mut said = None;
    loop {
        match person.recv().await {
            ServerMsg::GameStarted(view) if view.first == Seat::One => side.move_once(person).await,
            ServerMsg::Moved { record, .. } => {
                if let Move::Caro(p) = record.mv {
                    side.taken.insert((p.x, p.y));
                }
                if record.by == Seat::Two {
                    side.move_once(person).await;
                }
            }
            ServerMsg::Chat(line) if line.text.contains("engine failed") => said = Some(line.text),
            ServerMsg::GameOver(over) => return (over, said),
            _ => {}
        }
    }
}

#[tokio::test]
async fn an_engine_that_crashes_again_after_its_restart_resigns_with_the_reason() {
    let server = server().await;
    let dir = TempDir::new("engine-bot-crashes");
    // It starts games, then dies whenever it is asked for a move.
    let command = fake_gomocup(dir.path(), "crasher", "exit 1");
    let _bot = start_bot(
        &server,
        server.addr,
        "crasher",
        EngineSpec::Gomocup(command),
        |_| {},
    );
    let mut alice = server.player("alice").await;
    online(&mut alice, "crasher").await;
    let settings = caro_on_clock(9, FirstMove::Them, TimeControl::Unlimited);
    let end = challenge(&mut alice, "crasher", settings).await;
    assert!(matches!(end, ChallengeEnd::Accepted { .. }), "{end:?}");
    let (over, said) = play_to_the_end(&mut alice, &mut CaroSide::new(9)).await;
    // The bot never moved: a game given up before both moved has no result.
    assert!(
        matches!(over.reason, EndReason::Resign | EndReason::Aborted),
        "{over:?}"
    );
    let said = said.expect("the reason was said in the room");
    assert!(said.contains("crashed again"), "{said}");
    server.stop().await;
}

#[tokio::test]
async fn an_engine_too_slow_loses_on_time() {
    let server = server().await;
    let dir = TempDir::new("engine-bot-slow");
    // Its first move is at once; then it thinks for half a minute.
    let command = fake_gomocup(
        dir.path(),
        "slow",
        "if [ $n -gt 1 ]; then sleep 30; fi; echo 8,$n",
    );
    let _bot = start_bot(
        &server,
        server.addr,
        "sloth",
        EngineSpec::Gomocup(command),
        |_| {},
    );
    let mut alice = server.player("alice").await;
    online(&mut alice, "sloth").await;
    let settings = caro_on_clock(
        9,
        FirstMove::Me,
        TimeControl::per_move(Duration::from_secs(1)),
    );
    let end = challenge(&mut alice, "sloth", settings).await;
    assert!(matches!(end, ChallengeEnd::Accepted { .. }), "{end:?}");
    let mut side = CaroSide::new(9);
    let over = side
        .play(&mut alice, usize::MAX)
        .await
        .expect("the game ends");
    assert_eq!(over.reason, EndReason::Timeout, "{over:?}");
    assert_eq!(over.winner, Some(Seat::One));
    server.stop().await;
}

/// A loopback TCP relay in front of the server: every connection through it can be cut
/// at once, as a network drop would.
struct Relay {
    /// Where clients connect.
    addr: std::net::SocketAddr,
    /// Cancelled to cut every connection made so far.
    cut: std::sync::Arc<std::sync::Mutex<CancellationToken>>,
}

impl Relay {
    async fn start(to: std::net::SocketAddr) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the relay");
        let addr = listener.local_addr().expect("the relay's address");
        let cut = std::sync::Arc::new(std::sync::Mutex::new(CancellationToken::new()));
        let cuts = cut.clone();
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                let token = cuts.lock().expect("the relay's token").clone();
                tokio::spawn(async move {
                    let Ok(mut outbound) = TcpStream::connect(to).await else {
                        return;
                    };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound) => {}
                        () = token.cancelled() => {}
                    }
                });
            }
        });
        Relay { addr, cut }
    }

    /// Cuts every connection through the relay; new ones go through.
    fn cut(&self) {
        let mut token = self.cut.lock().expect("the relay's token");
        token.cancel();
        *token = CancellationToken::new();
    }
}

#[tokio::test]
async fn the_bot_comes_back_after_its_network_is_cut_and_the_game_goes_on() {
    let server = server().await;
    let relay = Relay::start(server.addr).await;
    let _bot = start_bot(
        &server,
        relay.addr,
        "wanderer",
        EngineSpec::Gomocup(format!("{PBRAIN} --level easy")),
        |_| {},
    );
    let mut alice = server.player("alice").await;
    online(&mut alice, "wanderer").await;
    let settings = caro_on_clock(
        9,
        FirstMove::Me,
        TimeControl::clock(Duration::from_secs(60), Duration::from_millis(200)),
    );
    let end = challenge(&mut alice, "wanderer", settings).await;
    assert!(matches!(end, ChallengeEnd::Accepted { .. }), "{end:?}");
    let mut side = CaroSide::new(9);
    assert!(side.play(&mut alice, 2).await.is_none(), "over too soon");
    relay.cut();
    // The server holds the bot's seat; the bot dials again with its resume token.
    alice
        .recv_until(|m| {
            matches!(m, ServerMsg::People { seats, .. }
                if seats[1].as_ref().is_some_and(|s| !s.connected))
        })
        .await;
    alice
        .recv_until(|m| {
            matches!(m, ServerMsg::People { seats, .. }
                if seats[1].as_ref().is_some_and(|s| s.connected))
        })
        .await;
    side.move_once(&mut alice).await;
    let over = side
        .play(&mut alice, usize::MAX)
        .await
        .expect("the game ends");
    assert_eq!(over.reason, EndReason::Five, "played to the end: {over:?}");
    server.stop().await;
}

#[tokio::test]
async fn a_bot_login_to_a_person_account_is_refused_with_a_sentence() {
    let server = server().await;
    // "alice" is a person's account: a bot may not log in to it.
    let _alice = server.player("alice").await;
    let bot = start_bot(
        &server,
        server.addr,
        "alice",
        EngineSpec::Uci(BANCO_UCI.to_string()),
        |o| {
            o.credentials = Credentials::Password {
                password: banco_tests::password_of("alice"),
                register: false,
                remember: false,
                bot: true,
            }
        },
    );
    let err = bot
        .ended(Duration::from_secs(60))
        .await
        .expect_err("refused");
    assert!(err.to_string().contains("bot"), "{err}");
    server.stop().await;
}
