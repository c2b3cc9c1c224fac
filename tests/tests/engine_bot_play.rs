//! `banco bot` playing on its own initiative, end to end against the real server: two
//! bots (each `banco_client::bot::run` in this process, with its plan read from the
//! command line as `banco bot` reads it) where one challenges the other and they play
//! on a clock to results: two caro games between two `pbrain-banco` (Gomocup) bots, a
//! xiangqi game between two `banco-uci` (UCI) bots. A spectator watches a game from the
//! lobby, and the server's history holds the games with their results. Then a bot enters
//! a small Swiss by `--tournament ID` (a person and the server's bots the other
//! entrants), plays every pairing in the room the server opens, on its clock, stops by
//! itself when the Swiss is over, and the standings are what banco-pairing computes from
//! the results.

use std::time::Duration;

use banco_pairing::tiebreak::{self, TieBreak as PTie};
use banco_pairing::{Bye, ByeKind, Game, GameResult, Player, Round, Scoring, Tournament};
use banco_protocol::{
    BoardResult, ByeValue, ClientMsg, EndReason, GameSummary, Level, RoomStatus, ServerMsg,
    TieBreak, TimeControl, TournamentFormat, TournamentSettings, TournamentStatus, TournamentView,
};
use banco_server::Config;
use banco_tests::bots::{RunningBot, online};
use banco_tests::{Client, TestServer, caro_from, test_config};

const PBRAIN: &str = env!("CARGO_BIN_EXE_e2e-pbrain-banco");
const BANCO_UCI: &str = env!("CARGO_BIN_EXE_e2e-banco-uci");

/// Standard xiangqi without Black's rooks: a game that ends.
const RED_AHEAD: &str = "1nbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// How long a bot may take over its whole plan before the test calls it stuck.
const PLAN_LIMIT: Duration = Duration::from_secs(600);

fn config() -> Config {
    Config {
        match_break: Duration::from_millis(100),
        bot_delay: Duration::from_millis(5),
        bot_think_cap: Some(Duration::from_millis(20)),
        ..test_config()
    }
}

/// The finished games of `name`, as the server's history lists them, once there are
/// `count` of them (the store writes a game as it ends).
async fn history(c: &mut Client, name: &str, count: usize) -> Vec<GameSummary> {
    for _ in 0..100 {
        c.send(ClientMsg::History {
            player: Some(name.to_string()),
        })
        .await;
        if let ServerMsg::History(games) =
            c.recv_until(|m| matches!(m, ServerMsg::History(_))).await
            && games.len() >= count
        {
            return games;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{name}'s history never held {count} games");
}

/// A spectator finds the game of `a` and `b` in the lobby, watches it, and reads its end.
async fn watch_game_of(watcher: &mut Client, a: &str, b: &str) -> banco_protocol::GameOver {
    let is_theirs = |players: &[Option<String>; 2]| {
        let mut names: Vec<&str> = players.iter().flatten().map(String::as_str).collect();
        names.sort_unstable();
        let mut want = [a, b];
        want.sort_unstable();
        names == want
    };
    let list = watcher
        .rooms_until(|l| {
            l.iter()
                .any(|r| is_theirs(&r.players) && r.status == RoomStatus::Playing)
        })
        .await;
    let room = list
        .iter()
        .find(|r| is_theirs(&r.players) && r.status == RoomStatus::Playing)
        .expect("their room");
    assert_eq!(room.bot_accounts, [true, true], "both are bot accounts");
    assert!(
        matches!(room.settings.time, TimeControl::Clock { .. }),
        "on a clock"
    );
    let view = watcher.watch(room.id).await;
    if let Some(over) = view.game.as_ref().and_then(|g| g.over.clone()) {
        return over;
    }
    // Message by message: a long game keeps sending moves, each within the wait.
    loop {
        if let ServerMsg::GameOver(over) = watcher.recv().await {
            return over;
        }
    }
}

/// Ends a game may have when both sides played it out (not a resignation: an engine
/// that failed resigns; not a quit, an abandon or an abort).
fn played_out(reason: EndReason) -> bool {
    matches!(
        reason,
        EndReason::Five
            | EndReason::Draw
            | EndReason::Timeout
            | EndReason::Checkmate
            | EndReason::Stalemate
            | EndReason::PerpetualCheck
            | EndReason::Repetition
            | EndReason::SixtyMoves
            | EndReason::NoMaterial
    )
}

#[tokio::test]
async fn two_gomocup_bots_play_each_other_by_challenge_on_a_clock_for_two_games() {
    let server = TestServer::with_config(config()).await;
    // Full strength held to a node count: each move takes some tens of milliseconds
    // whatever the machine's load, so a game lasts seconds and the watcher, told of room
    // changes every quarter second, sees it playing (easy bots could finish a game on 9
    // by 9 between two lobby pushes, and the room would open and close unseen).
    let engine = format!("gomocup:{PBRAIN} --nodes 20000");
    // The challenger starts first: "gomo-a" is not on the server yet, so it asks
    // again until it is.
    let challenger = RunningBot::from_line(
        &server,
        "gomo-b",
        &engine,
        &[
            "--challenge",
            "gomo-a",
            "--game",
            "caro --size 9 --rule freestyle --clock 10s+1s",
            "--games",
            "2",
        ],
    );
    let mut watcher = server.player("watcher").await;
    online(&mut watcher, "gomo-b").await;
    let _challenged = RunningBot::from_line(&server, "gomo-a", &engine, &[]);
    let over = watch_game_of(&mut watcher, "gomo-a", "gomo-b").await;
    assert!(played_out(over.reason), "{over:?}");
    // The challenger plays its two games and stops by itself.
    challenger
        .ended(PLAN_LIMIT)
        .await
        .expect("the challenger's plan");
    let games = history(&mut watcher, "gomo-b", 2).await;
    assert_eq!(games.len(), 2, "two games, no more: {games:?}");
    for g in &games {
        let mut players = g.players.clone();
        players.sort();
        assert_eq!(players, ["gomo-a", "gomo-b"]);
        assert!(played_out(g.over.reason), "{g:?}");
        assert!(matches!(g.time, TimeControl::Clock { .. }));
        assert!(g.rated, "a bot account's challenge is rated: {g:?}");
        if g.over.reason == EndReason::Five {
            assert!(g.plies >= 9, "five in a row takes nine stones: {g:?}");
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn two_uci_bots_play_xiangqi_by_challenge_on_a_clock() {
    let server = TestServer::with_config(config()).await;
    let engine = format!("uci:{BANCO_UCI}");
    let _challenged = RunningBot::from_line(&server, "xq-a", &engine, &[]);
    // No increment: the game ends within the two clocks' time.
    let game = format!("--clock 15s --casual --fen {RED_AHEAD}");
    let challenger = RunningBot::from_line(
        &server,
        "xq-b",
        &engine,
        &["--challenge", "xq-a", "--game", &game],
    );
    let mut watcher = server.player("watcher").await;
    let over = watch_game_of(&mut watcher, "xq-a", "xq-b").await;
    assert!(played_out(over.reason), "{over:?}");
    challenger
        .ended(PLAN_LIMIT)
        .await
        .expect("the challenger's plan");
    let games = history(&mut watcher, "xq-b", 1).await;
    assert_eq!(games.len(), 1, "{games:?}");
    assert!(!games[0].rated, "--casual");
    assert!(played_out(games[0].over.reason), "{:?}", games[0]);
    server.stop().await;
}

#[tokio::test]
async fn a_bot_posts_an_open_challenge_again_after_each_game() {
    let server = TestServer::with_config(config()).await;
    let engine = format!("gomocup:{PBRAIN} --level easy");
    // Binh is there first: every change of the open challenges is pushed to him.
    let mut binh = server.player("Binh").await;
    let seeker = RunningBot::from_line(
        &server,
        "gomo-s",
        &engine,
        &[
            "--seek",
            "--game",
            "--size 9 --clock 1m+1s --casual --first me",
            "--games",
            "2",
        ],
    );
    // Binh takes the open challenge, and aborts the game before moving: a game without
    // a result is not one of the bot's two, so it posts the challenge again. He takes
    // it twice more and resigns once both have moved: those count, and the bot stops.
    for take in 0..3 {
        // The open challenges as Binh keeps them, read until the bot's is there.
        let id = loop {
            if let Some(ch) = binh.open_challenges.iter().find(|c| c.from == "gomo-s") {
                assert_eq!(ch.to, None, "open to anyone");
                assert!(ch.from_bot);
                break ch.id;
            }
            if let ServerMsg::OpenChallenges(list) = binh.recv_any().await {
                binh.open_challenges = list;
            }
        };
        binh.send(ClientMsg::AcceptChallenge(id)).await;
        binh.recv_until(|m| matches!(m, ServerMsg::Joined(_))).await;
        if take > 0 {
            // The bot's first stone, Binh's in a corner, the bot's answer: then he
            // resigns a game both have moved in.
            let first = match binh
                .recv_until(|m| matches!(m, ServerMsg::Moved { .. }))
                .await
            {
                ServerMsg::Moved { record, .. } => record.mv,
                _ => unreachable!(),
            };
            let corner = if first == banco_protocol::Move::Caro(banco_protocol::Point::new(0, 0)) {
                8
            } else {
                0
            };
            binh.play(corner, corner).await;
            binh.recv_until(|m| matches!(m, ServerMsg::Moved { record, .. } if record.by == banco_protocol::Seat::One))
                .await;
        }
        binh.send(ClientMsg::Resign).await;
        let over = binh.game_over().await;
        let expected = if take == 0 {
            EndReason::Aborted
        } else {
            EndReason::Resign
        };
        assert_eq!(over.reason, expected);
        binh.send(ClientMsg::LeaveRoom).await;
        binh.recv_until(|m| matches!(m, ServerMsg::Left)).await;
    }
    seeker.ended(PLAN_LIMIT).await.expect("the seeker's plan");
    server.stop().await;
}

/// The next view of tournament `id` that matches `pred`, skipping anything else.
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

/// A person who resigns every game of the tournament at once, until it is over.
async fn resign_everything(mut c: Client, id: u32) -> Client {
    loop {
        match c.recv().await {
            ServerMsg::Joined(room) if room.game.as_ref().is_some_and(|g| g.over.is_none()) => {
                c.send(ClientMsg::Resign).await;
            }
            ServerMsg::GameStarted(_) => c.send(ClientMsg::Resign).await,
            ServerMsg::Tournament(v)
                if v.summary.id == id && v.summary.status == TournamentStatus::Over =>
            {
                return c;
            }
            _ => {}
        }
    }
}

/// The standings banco-pairing computes from the view's own entrants, boards and byes.
fn expected_standings(v: &TournamentView) -> Vec<(u32, u32, u32, Vec<i64>)> {
    let players = v
        .entrants
        .iter()
        .map(|e| Player {
            name: e.name.clone(),
            rating: e.rating,
            joins: 1,
            withdrawn: e.withdrawn,
        })
        .collect();
    let mut t = Tournament::new(players, v.summary.rounds);
    t.scoring = Scoring {
        pairing_bye: match v.settings.bye {
            ByeValue::Win => Scoring::default().win,
            ByeValue::Draw => Scoring::default().draw,
            ByeValue::Nothing => banco_pairing::Points(0),
        },
        ..Scoring::default()
    };
    for r in 1..=v.summary.round {
        t.rounds.push(Round {
            games: v
                .boards
                .iter()
                .filter(|b| b.round == r)
                .map(|b| Game {
                    white: b.white as usize - 1,
                    black: b.black as usize - 1,
                    result: match b.result.expect("every board has a result at the end") {
                        BoardResult::WhiteWins => GameResult::WhiteWins,
                        BoardResult::Draw => GameResult::Draw,
                        BoardResult::BlackWins => GameResult::BlackWins,
                        BoardResult::WhiteWinsByForfeit => GameResult::WhiteWinsByForfeit,
                        BoardResult::BlackWinsByForfeit => GameResult::BlackWinsByForfeit,
                        BoardResult::DoubleForfeit => GameResult::DoubleForfeit,
                    },
                })
                .collect(),
            byes: v
                .byes
                .iter()
                .filter(|y| y.round == r)
                .map(|y| Bye {
                    player: y.entrant as usize - 1,
                    kind: ByeKind::PairingAllocated,
                })
                .collect(),
        });
    }
    let order: Vec<PTie> = v
        .tie_breaks
        .iter()
        .map(|t| match t {
            TieBreak::Buchholz => PTie::Buchholz,
            TieBreak::BuchholzCut1 => PTie::BuchholzCut1,
            TieBreak::SonnebornBerger => PTie::SonnebornBerger,
            TieBreak::DirectEncounter => PTie::DirectEncounter,
            TieBreak::Wins => PTie::Wins,
            TieBreak::GamesWon => PTie::GamesWon,
        })
        .collect();
    tiebreak::standings(&t, &order)
        .expect("a consistent history")
        .into_iter()
        .map(|l| {
            (
                l.rank as u32,
                l.player as u32 + 1,
                l.score.0,
                l.values.iter().map(|v| v.0).collect(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_gomocup_bot_enters_a_swiss_and_plays_every_round_on_its_clock() {
    let server = TestServer::with_config(config()).await;
    let mut organiser = server.player("Org").await;
    let mut room = caro_from(9, banco_protocol::Rule::Freestyle, Default::default());
    room.time = TimeControl::clock(Duration::from_secs(10), Duration::from_millis(100));
    let mut settings =
        TournamentSettings::new("Bot night", TournamentFormat::Swiss { rounds: 3 }, room);
    settings.rated = false;
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
    let mut anh = server.player("Anh").await;
    anh.send(ClientMsg::JoinTournament(id)).await;
    for level in [Level::Easy, Level::Medium] {
        organiser
            .send(ClientMsg::AddTournamentBot { id, level })
            .await;
    }
    // The engine's bot enters by itself, as `banco bot --tournament ID` does.
    let tournament = id.to_string();
    let engine = format!("gomocup:{PBRAIN} --level easy");
    let entrant = RunningBot::from_line(&server, "gomo-t", &engine, &["--tournament", &tournament]);
    view_where(&mut organiser, id, |v| v.entrants.len() == 4).await;
    organiser.send(ClientMsg::StartTournament(id)).await;
    let anh = tokio::spawn(resign_everything(anh, id));
    // The bot stops by itself once the Swiss is over.
    entrant
        .ended(PLAN_LIMIT)
        .await
        .expect("the bot's tournament");
    anh.await.expect("Anh's task");
    let v = view_where(&mut organiser, id, |v| {
        v.summary.status == TournamentStatus::Over
    })
    .await;
    assert_eq!(v.summary.round, 3);
    assert_eq!(v.boards.len(), 6, "two boards a round, three rounds");
    let bot = v
        .entrants
        .iter()
        .find(|e| e.name == "gomo-t")
        .expect("the bot entered")
        .number;
    let anh_number = v
        .entrants
        .iter()
        .find(|e| e.name == "Anh")
        .expect("Anh entered")
        .number;
    let mine: Vec<_> = v
        .boards
        .iter()
        .filter(|b| b.white == bot || b.black == bot)
        .collect();
    assert_eq!(mine.len(), 3, "the bot is paired every round: {mine:?}");
    for b in &mine {
        let result = b.result.expect("a result");
        assert!(!b.by_hand, "{b:?}");
        // Played over the board: the bot came to each board and moved in time.
        assert!(
            matches!(
                result,
                BoardResult::WhiteWins | BoardResult::Draw | BoardResult::BlackWins
            ),
            "{b:?}"
        );
        if b.white == anh_number || b.black == anh_number {
            let bot_wins = if b.white == bot {
                BoardResult::WhiteWins
            } else {
                BoardResult::BlackWins
            };
            assert_eq!(result, bot_wins, "Anh resigns every game: {b:?}");
        }
    }
    let shown: Vec<_> = v
        .standings
        .iter()
        .map(|l| (l.rank, l.entrant, l.points, l.tie_breaks.clone()))
        .collect();
    assert_eq!(shown, expected_standings(&v));
    let anh_line = v
        .standings
        .iter()
        .find(|l| l.entrant == anh_number)
        .expect("Anh's line");
    assert_eq!(anh_line.points, 0, "Anh resigned everything");
    server.stop().await;
}
