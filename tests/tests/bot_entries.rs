//! An organiser enters a bot account by name (`EnterBotAccount`), end to end against the
//! real server: a `banco bot` running `pbrain-banco` (Gomocup) with no plan of its own,
//! only connected and taking challenges, is entered into a Swiss by its organiser,
//! learns of it from the tournament's view the server sends it, and plays every pairing
//! it gets to a result over the board, on its clock, in the rooms the server opens. A
//! person cannot be entered by someone else. An entry made so survives a restart.

use std::time::Duration;

use banco_protocol::{
    BoardResult, ClientMsg, Credentials, ErrorCode, Level, ServerMsg, TimeControl,
    TournamentFormat, TournamentSettings, TournamentStatus, TournamentView,
};
use banco_server::Config;
use banco_tests::bots::{RunningBot, online};
use banco_tests::{Client, TestServer, caro_from, test_config};

const PBRAIN: &str = env!("CARGO_BIN_EXE_e2e-pbrain-banco");

fn config() -> Config {
    Config {
        match_break: Duration::from_millis(100),
        bot_delay: Duration::from_millis(5),
        bot_think_cap: Some(Duration::from_millis(20)),
        ..test_config()
    }
}

async fn view_where(
    c: &mut Client,
    id: u32,
    pred: impl Fn(&TournamentView) -> bool,
) -> TournamentView {
    match c
        .recv_until(|m| matches!(m, ServerMsg::Tournament(v) if v.summary.id == id && pred(v)))
        .await
    {
        ServerMsg::Tournament(v) => *v,
        _ => unreachable!(),
    }
}

/// An unrated Swiss of `rounds` rounds, caro 9x9 at 10 s + 0.1 s, made by `organiser`:
/// its id.
async fn engine_night(organiser: &mut Client, rounds: u32) -> u32 {
    let mut room = caro_from(9, banco_protocol::Rule::Freestyle, Default::default());
    room.time = TimeControl::clock(Duration::from_secs(10), Duration::from_millis(100));
    let mut settings =
        TournamentSettings::new("Engine night", TournamentFormat::Swiss { rounds }, room);
    settings.rated = false;
    organiser
        .send(ClientMsg::CreateTournament(Box::new(settings)))
        .await;
    match organiser
        .recv_until(|m| matches!(m, ServerMsg::Tournament(_)))
        .await
    {
        ServerMsg::Tournament(v) => v.summary.id,
        _ => unreachable!(),
    }
}

#[tokio::test]
async fn an_organiser_enters_a_gomocup_bot_account_and_it_plays_its_pairings() {
    let server = TestServer::with_config(config()).await;
    let mut organiser = server.player("Org").await;
    let id = engine_night(&mut organiser, 2).await;
    // A person on the server is never entered by someone else.
    let _anh = server.player("Anh").await;
    organiser
        .send(ClientMsg::EnterBotAccount {
            id,
            name: "Anh".into(),
        })
        .await;
    let e = organiser.expect_error(ErrorCode::NotABot).await;
    assert!(e.message.contains("never entered by someone else"), "{e:?}");
    // Nobody connected by that name: a bot account must be connected to be entered.
    organiser
        .send(ClientMsg::EnterBotAccount {
            id,
            name: "Vắng".into(),
        })
        .await;
    let e = organiser.expect_error(ErrorCode::NoSuchPlayer).await;
    assert_eq!(
        e.message,
        "no bot account called Vắng is connected: a bot account is entered while its \
         `banco bot` is connected (people enter tournaments themselves)"
    );

    // The engine's bot is only connected: no --tournament, no challenge of its own.
    let engine = format!("gomocup:{PBRAIN} --level easy");
    let entrant = RunningBot::from_line(&server, "gomo-e", &engine, &[]);
    online(&mut organiser, "gomo-e").await;
    organiser
        .send(ClientMsg::EnterBotAccount {
            id,
            name: "gomo-e".into(),
        })
        .await;
    for level in [Level::Easy, Level::Medium] {
        organiser
            .send(ClientMsg::AddTournamentBot { id, level })
            .await;
    }
    view_where(&mut organiser, id, |v| v.entrants.len() == 3).await;
    organiser.send(ClientMsg::StartTournament(id)).await;
    let v = view_where(&mut organiser, id, |v| {
        v.summary.status == TournamentStatus::Over
    })
    .await;
    assert_eq!(v.summary.round, 2);
    let bot = v
        .entrants
        .iter()
        .find(|e| e.name == "gomo-e")
        .expect("the bot entered");
    assert!(!bot.withdrawn, "it stayed in");
    let mine: Vec<_> = v
        .boards
        .iter()
        .filter(|b| b.white == bot.number || b.black == bot.number)
        .collect();
    assert!(!mine.is_empty(), "the bot is paired: {:?}", v.boards);
    for b in &mine {
        // Played over the board: the bot came to each board and moved in time (a
        // forfeit or a result set by hand would show here).
        let result = b.result.expect("a result");
        assert!(!b.by_hand, "{b:?}");
        assert!(
            matches!(
                result,
                BoardResult::WhiteWins | BoardResult::Draw | BoardResult::BlackWins
            ),
            "{b:?}"
        );
    }
    assert!(entrant.is_running(), "the bot runs on until stopped");
    drop(entrant);
    server.stop().await;
}

/// A bot account's session (as `banco bot` logs in), its Welcome and room list read.
async fn bot_account(server: &TestServer, name: &str, register: bool) -> Client {
    let mut c = server.client().await;
    c.send(ClientMsg::Hello(banco_protocol::Hello {
        version: banco_protocol::PROTOCOL_VERSION,
        name: name.into(),
        resume: None,
        account: Some(Credentials::Password {
            password: format!("password of {name}"),
            register,
            remember: false,
            bot: true,
        }),
    }))
    .await;
    assert!(c.welcome().await.bot, "{name} is a bot account");
    c.rooms().await;
    c
}

#[tokio::test]
async fn a_bot_account_entered_by_the_organiser_is_still_entered_after_a_restart() {
    let dir = banco_tests::TempDir::new("bot-entry-restart");
    let db = dir.path().join("banco.db");
    let cfg = || Config {
        store: banco_server::StoreLocation::File(db.clone()),
        ..config()
    };
    let server = TestServer::with_config(cfg()).await;
    let mut organiser = server.player("Org").await;
    let settings = TournamentSettings::new(
        "Kept",
        TournamentFormat::Swiss { rounds: 3 },
        caro_from(9, banco_protocol::Rule::Freestyle, Default::default()),
    );
    organiser
        .send(ClientMsg::CreateTournament(Box::new(settings)))
        .await;
    let id = match organiser
        .recv_until(|m| matches!(m, ServerMsg::Tournament(_)))
        .await
    {
        ServerMsg::Tournament(v) => v.summary.id,
        _ => unreachable!(),
    };
    let mut engine = bot_account(&server, "Engine", true).await;
    organiser
        .send(ClientMsg::EnterBotAccount {
            id,
            name: "Engine".into(),
        })
        .await;
    // The bot is told, with the entry already on disk.
    let told = view_where(&mut engine, id, |v| !v.entrants.is_empty()).await;
    assert_eq!(told.entrants[0].name, "Engine");
    drop(engine);
    server.stop().await;

    let server = TestServer::with_config(cfg()).await;
    let mut organiser = server.player("Org").await;
    organiser.send(ClientMsg::ShowTournament(id)).await;
    let v = view_where(&mut organiser, id, |_| true).await;
    let names: Vec<&str> = v.entrants.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["Engine"]);
    // Back, the bot finds itself entered (as `banco bot` does after a drop).
    let mut engine = bot_account(&server, "Engine", false).await;
    engine.send(ClientMsg::JoinTournament(id)).await;
    engine.expect_error(ErrorCode::AlreadyEntered).await;
    server.stop().await;
}

/// A bot out to challenge someone (`--challenge`) that an organiser enters in a
/// tournament calls its challenge off and sends none while the tournament holds it (a
/// game of its own could keep it from a pairing); once the tournament is over it
/// challenges again.
#[tokio::test]
async fn a_challenging_bot_entered_in_a_tournament_holds_its_challenges_till_the_end() {
    let server = TestServer::with_config(config()).await;
    let mut organiser = server.player("Org").await;
    let mut binh = server.player("Binh").await;
    let engine = format!("gomocup:{PBRAIN} --level easy");
    let _bot = RunningBot::from_line(
        &server,
        "gomo-c",
        &engine,
        &[
            "--challenge",
            "Binh",
            "--game",
            "caro --size 9 --rule freestyle --clock 10s+1s --casual",
            "--games",
            "1",
        ],
    );
    // Binh leaves the first challenge unanswered.
    let first = match binh
        .recv_until(|m| matches!(m, ServerMsg::Challenged(ch) if ch.from == "gomo-c"))
        .await
    {
        ServerMsg::Challenged(ch) => ch.id,
        _ => unreachable!(),
    };
    let id = engine_night(&mut organiser, 1).await;
    // Binh follows the tournament: its views and the bot's challenges come to him in
    // the order the server sent them.
    binh.send(ClientMsg::ShowTournament(id)).await;
    organiser
        .send(ClientMsg::EnterBotAccount {
            id,
            name: "gomo-c".into(),
        })
        .await;
    binh.recv_until(|m| matches!(m, ServerMsg::ChallengeEnded { id, .. } if *id == first))
        .await;
    // Entries stay open a while, longer than the bot's pause between its challenges.
    tokio::time::sleep(3 * banco_client::bot::plan::AGAIN_PAUSE).await;
    organiser
        .send(ClientMsg::AddTournamentBot {
            id,
            level: Level::Easy,
        })
        .await;
    view_where(&mut organiser, id, |v| v.entrants.len() == 2).await;
    organiser.send(ClientMsg::StartTournament(id)).await;
    // The next challenge comes after the tournament's end, not before.
    let mut status = None;
    loop {
        match binh.recv().await {
            ServerMsg::Tournament(v) if v.summary.id == id => status = Some(v.summary.status),
            ServerMsg::Challenged(ch) if ch.from == "gomo-c" => {
                assert_ne!(ch.id, first);
                assert_eq!(
                    status,
                    Some(TournamentStatus::Over),
                    "a challenge while the tournament held the bot"
                );
                break;
            }
            _ => {}
        }
    }
    server.stop().await;
}
