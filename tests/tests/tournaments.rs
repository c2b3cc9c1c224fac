//! Tournaments through the real server: a 3-round Swiss of eight entrants (people and
//! the server's bots) played to the end, whose standings are what banco-pairing computes
//! from the same results; a round robin; a short arena; and bad input (a result for a
//! board not in the round, a join after the close, a pairing asked by someone else)
//! refused without changing anything.
//!
//! The people here play by a simple rule so every result is decisive and known: against
//! a bot a person resigns at once; between two people the one whose name sorts later
//! resigns (a tournament's games are never aborted, so a resignation before any move
//! counts). Bots play their games out.

use std::time::Duration;

use banco_pairing::tiebreak::{self, TieBreak as PTie};
use banco_pairing::{Bye, ByeKind, Game, GameResult, Player, Round, Scoring, Tournament};
use banco_protocol::{
    BoardResult, ByeValue, ClientMsg, ErrorCode, GameSettings, Level, MatchFormat, RoomSettings,
    Rule, ServerMsg, TieBreak, TournamentFormat, TournamentSettings, TournamentStatus,
    TournamentView,
};
use banco_server::Config;
use banco_tests::{Client, TestServer, caro_from, test_config};

fn config() -> Config {
    Config {
        match_break: Duration::from_millis(100),
        bot_delay: Duration::from_millis(5),
        bot_think_cap: Some(Duration::from_millis(20)),
        ..test_config()
    }
}

/// Caro on a small board, freestyle: bots finish quickly.
fn small_caro() -> RoomSettings {
    caro_from(7, Rule::Freestyle, banco_protocol::CaroOpening::None)
}

fn settings(name: &str, format: TournamentFormat, room: RoomSettings) -> TournamentSettings {
    let mut s = TournamentSettings::new(name, format, room);
    s.rated = false;
    s
}

/// The next tournament view, skipping anything else.
async fn view(c: &mut Client) -> TournamentView {
    match c
        .recv_until(|m| matches!(m, ServerMsg::Tournament(_)))
        .await
    {
        ServerMsg::Tournament(v) => *v,
        _ => unreachable!(),
    }
}

/// The next tournament view that matches `pred`, skipping anything else.
async fn view_where(c: &mut Client, pred: impl Fn(&TournamentView) -> bool) -> TournamentView {
    match c
        .recv_until(|m| matches!(m, ServerMsg::Tournament(v) if pred(v)))
        .await
    {
        ServerMsg::Tournament(v) => *v,
        _ => unreachable!(),
    }
}

/// The next error, which must have `code`, skipping the views followers are sent.
async fn refused(c: &mut Client, code: ErrorCode) {
    match c.recv_until(|m| matches!(m, ServerMsg::Error(_))).await {
        ServerMsg::Error(e) => assert_eq!(e.code, code, "{e}"),
        _ => unreachable!(),
    }
}

/// [`config`] with its store in `dir`, which a restarted server reads again.
fn on_disk(dir: &banco_tests::TempDir) -> Config {
    Config {
        store: banco_server::StoreLocation::File(dir.path().join("banco.db")),
        ..config()
    }
}

/// Creates a tournament as `organiser`; its number.
async fn create(organiser: &mut Client, s: TournamentSettings) -> u32 {
    organiser
        .send(ClientMsg::CreateTournament(Box::new(s)))
        .await;
    view(organiser).await.summary.id
}

/// Plays `c`'s games by the rule above until the tournament is over; the final view.
async fn play_out(c: Client, id: u32) -> (Client, TournamentView) {
    play_out_berserk(c, id, false).await
}

/// [`play_out`]; with `berserk`, a player about to win goes berserk first (in an arena
/// that allows it; a refusal, as when the game ended first, changes nothing).
async fn play_out_berserk(mut c: Client, id: u32, berserk: bool) -> (Client, TournamentView) {
    let me = c.name().to_string();
    let mut last: Option<TournamentView> = None;
    let mut seats: [Option<banco_protocol::SeatView>; 2] = [None, None];
    loop {
        let msg = c.recv().await;
        let resign_now = |seats: &[Option<banco_protocol::SeatView>; 2]| -> bool {
            let Some(mine) = seats.iter().flatten().find(|s| s.name == me) else {
                return false;
            };
            let Some(other) = seats.iter().flatten().find(|s| s.name != mine.name) else {
                return false;
            };
            other.bot.is_some() || me.to_lowercase() > other.name.to_lowercase()
        };
        match msg {
            ServerMsg::Joined(room) => {
                seats = room.seats.clone();
                if room.game.as_ref().is_some_and(|g| g.over.is_none()) && resign_now(&seats) {
                    c.send(ClientMsg::Resign).await;
                }
            }
            ServerMsg::People { seats: now, .. } => seats = now,
            ServerMsg::GameStarted(_) if resign_now(&seats) => {
                c.send(ClientMsg::Resign).await;
            }
            ServerMsg::GameStarted(_) if berserk => c.send(ClientMsg::Berserk).await,
            ServerMsg::Tournament(v) if v.summary.id == id => {
                let over = v.summary.status == TournamentStatus::Over;
                last = Some(*v);
                if over {
                    break;
                }
            }
            ServerMsg::TournamentOver { id: over, .. }
                if over == id
                    && last
                        .as_ref()
                        .is_some_and(|v| v.summary.status == TournamentStatus::Over) =>
            {
                break;
            }
            _ => {}
        }
    }
    let last = last.unwrap_or_else(|| unreachable!());
    (c, last)
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
                    // A bye asked for is worth what the organiser set; the pairing's
                    // its own value (the tests keep the two apart).
                    kind: if y.points == v.settings.bye.tenths() {
                        ByeKind::PairingAllocated
                    } else {
                        match y.points {
                            5 => ByeKind::HalfPoint,
                            0 => ByeKind::ZeroPoint,
                            _ => ByeKind::FullPoint,
                        }
                    },
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

fn shown_standings(v: &TournamentView) -> Vec<(u32, u32, u32, Vec<i64>)> {
    v.standings
        .iter()
        .map(|l| (l.rank, l.entrant, l.points, l.tie_breaks.clone()))
        .collect()
}

/// Every board's result follows the rule the people played by.
fn check_results_follow_the_rule(v: &TournamentView) {
    for b in &v.boards {
        let (w, k) = (
            v.entrant(b.white).expect("as the test set it up"),
            v.entrant(b.black).expect("as the test set it up"),
        );
        let result = b.result.expect("a result");
        assert!(!b.by_hand);
        match (w.bot.is_some(), k.bot.is_some()) {
            (true, false) => assert_eq!(result, BoardResult::WhiteWins, "{b:?}"),
            (false, true) => assert_eq!(result, BoardResult::BlackWins, "{b:?}"),
            (false, false) => {
                let white_wins = w.name.to_lowercase() < k.name.to_lowercase();
                let expected = if white_wins {
                    BoardResult::WhiteWins
                } else {
                    BoardResult::BlackWins
                };
                assert_eq!(result, expected, "{b:?}");
            }
            (true, true) => {}
        }
    }
}

#[tokio::test]
async fn an_eight_player_swiss_of_people_and_bots_is_played_to_the_end() {
    let server = TestServer::with_config(config()).await;
    let names = ["Anh", "Binh", "Chau", "Dung", "Giang"];
    let mut people = Vec::new();
    for name in names {
        people.push(server.player(name).await);
    }
    let mut s = settings(
        "Club night",
        TournamentFormat::Swiss { rounds: 3 },
        small_caro(),
    );
    // The default for caro: a two-game mini-match per pairing.
    assert_eq!(s.room.match_format, Some(MatchFormat::MINI));
    s.rated = true;
    let id = create(&mut people[0], s).await;
    for c in &mut people {
        c.send(ClientMsg::JoinTournament(id)).await;
        let v = view(c).await;
        assert!(v.entrants.iter().any(|e| e.name == c.name()));
    }
    for level in [Level::Easy, Level::Medium, Level::Hard] {
        people[0]
            .send(ClientMsg::AddTournamentBot { id, level })
            .await;
        view(&mut people[0]).await;
    }
    // Only the organiser starts it.
    people[1].send(ClientMsg::StartTournament(id)).await;
    refused(&mut people[1], ErrorCode::NotOrganiser).await;
    people[0].send(ClientMsg::StartTournament(id)).await;

    let mut tasks = Vec::new();
    for c in people {
        tasks.push(tokio::spawn(play_out(c, id)));
    }
    let mut finals = Vec::new();
    for t in tasks {
        finals.push(t.await.expect("a player's task"));
    }
    let (_, v) = &finals[0];
    assert_eq!(v.summary.status, TournamentStatus::Over);
    assert_eq!(v.summary.round, 3);
    assert_eq!(v.entrants.len(), 8);
    assert_eq!(v.boards.len(), 12, "four boards a round, three rounds");
    assert!(v.byes.is_empty());
    check_results_follow_the_rule(v);
    assert_eq!(shown_standings(v), expected_standings(v));
    // Everyone saw the same final standings.
    for (_, other) in &finals {
        assert_eq!(other.standings, v.standings);
    }
    // The crosstable has a cell per round for everyone.
    assert!(v.crosstable.iter().all(|row| row.cells.len() == 3));
}

#[tokio::test]
async fn a_round_robin_of_xiangqi_single_games_follows_the_berger_tables() {
    let server = TestServer::with_config(config()).await;
    let mut people = Vec::new();
    for name in ["Hoa", "Khanh", "Lan"] {
        people.push(server.player(name).await);
    }
    let xq = RoomSettings {
        game: GameSettings::Xiangqi { fen: None },
        ..RoomSettings::default()
    };
    let s = settings(
        "Round robin",
        TournamentFormat::RoundRobin { double: false },
        xq,
    );
    assert_eq!(s.room.match_format, None, "xiangqi pairings are one game");
    let id = create(&mut people[0], s).await;
    for c in &mut people {
        c.send(ClientMsg::JoinTournament(id)).await;
        view(c).await;
    }
    people[0].send(ClientMsg::StartTournament(id)).await;
    let mut tasks = Vec::new();
    for c in people {
        tasks.push(tokio::spawn(play_out(c, id)));
    }
    let mut finals = Vec::new();
    for t in tasks {
        finals.push(t.await.expect("a player's task"));
    }
    let (_, v) = &finals[0];
    assert_eq!(
        v.summary.rounds, 3,
        "three players: three rounds, one bye each"
    );
    assert_eq!(v.byes.len(), 3);
    check_results_follow_the_rule(v);
    // The pairings are the Berger tables' for 3 players (4 with the bye).
    let rr = banco_pairing::berger::RoundRobin::single(3);
    for r in 1..=3u32 {
        let table = rr.round(r as usize).expect("as the test set it up");
        let boards: Vec<(usize, usize)> = v
            .boards
            .iter()
            .filter(|b| b.round == r)
            .map(|b| (b.white as usize - 1, b.black as usize - 1))
            .collect();
        let expected: Vec<(usize, usize)> =
            table.boards.iter().map(|b| (b.white, b.black)).collect();
        assert_eq!(boards, expected, "round {r}");
    }
    assert_eq!(shown_standings(v), expected_standings(v));
    // Hoa beats both, Khanh beats Lan (byes worth a win): 2 + 1 each.
    let top = v
        .entrant(v.standings[0].entrant)
        .expect("as the test set it up");
    assert_eq!(top.name, "Hoa");
}

#[tokio::test]
async fn a_short_arena_pairs_players_again_as_they_finish_and_ends_on_time() {
    let server = TestServer::with_config(config()).await;
    let mut people = Vec::new();
    for name in ["Minh", "Nga"] {
        people.push(server.player(name).await);
    }
    let s = settings(
        "Arena",
        TournamentFormat::Arena {
            seconds: 3,
            berserk: true,
        },
        RoomSettings {
            match_format: Some(MatchFormat {
                games: 1,
                first_to: None,
            }),
            time: banco_protocol::TimeControl::clock(
                Duration::from_secs(60),
                Duration::from_secs(1),
            ),
            ..small_caro()
        },
    );
    let id = create(&mut people[0], s).await;
    for c in &mut people {
        c.send(ClientMsg::JoinTournament(id)).await;
        view(c).await;
    }
    people[0]
        .send(ClientMsg::AddTournamentBot {
            id,
            level: Level::Easy,
        })
        .await;
    view(&mut people[0]).await;
    people[0].send(ClientMsg::StartTournament(id)).await;
    let mut tasks = Vec::new();
    for c in people {
        tasks.push(tokio::spawn(play_out_berserk(c, id, true)));
    }
    let mut finals = Vec::new();
    for t in tasks {
        finals.push(t.await.expect("a player's task"));
    }
    let (_, v) = &finals[0];
    assert_eq!(v.summary.status, TournamentStatus::Over);
    assert!(
        v.boards.len() >= 2,
        "players were paired again: {:?}",
        v.boards
    );
    check_results_follow_the_rule(v);
    // Arena points: 2 a win, doubled from the third win in a row; recomputed here.
    let mut scores = vec![banco_pairing::arena::ArenaScore::default(); v.entrants.len()];
    for b in &v.boards {
        let (w, k) = match b.result.expect("as the test set it up") {
            BoardResult::WhiteWins | BoardResult::WhiteWinsByForfeit => (
                banco_pairing::arena::ArenaResult::Win,
                banco_pairing::arena::ArenaResult::Loss,
            ),
            BoardResult::BlackWins | BoardResult::BlackWinsByForfeit => (
                banco_pairing::arena::ArenaResult::Loss,
                banco_pairing::arena::ArenaResult::Win,
            ),
            BoardResult::Draw => (
                banco_pairing::arena::ArenaResult::Draw,
                banco_pairing::arena::ArenaResult::Draw,
            ),
            BoardResult::DoubleForfeit => (
                banco_pairing::arena::ArenaResult::Loss,
                banco_pairing::arena::ArenaResult::Loss,
            ),
        };
        scores[b.white as usize - 1].add(w, b.berserk[0]);
        scores[b.black as usize - 1].add(k, b.berserk[1]);
    }
    for line in &v.standings {
        assert_eq!(line.points, scores[line.entrant as usize - 1].points * 10);
    }
    // Never the same opponent twice in a row while another was free: with three
    // entrants someone always waits, so consecutive games of a player differ.
    for p in 1..=3u32 {
        let opponents: Vec<u32> = v
            .boards
            .iter()
            .filter(|b| b.white == p || b.black == p)
            .map(|b| if b.white == p { b.black } else { b.white })
            .collect();
        for pair in opponents.windows(2) {
            assert_ne!(
                pair[0], pair[1],
                "entrant {p} met {} twice in a row",
                pair[0]
            );
        }
    }
}

#[tokio::test]
async fn bad_tournament_requests_are_refused_and_change_nothing() {
    let server = TestServer::with_config(config()).await;
    let mut org = server.player("Organiser").await;
    let mut other = server.player("Other").await;
    let mut guest = server.connect("Guest").await;
    let mut s = settings(
        "Rated night",
        TournamentFormat::Swiss { rounds: 2 },
        small_caro(),
    );
    s.rated = true;
    // Guests do not organise.
    guest
        .send(ClientMsg::CreateTournament(Box::new(s.clone())))
        .await;
    refused(&mut guest, ErrorCode::NotLoggedIn).await;
    let mut bad = s.clone();
    bad.format = TournamentFormat::Swiss { rounds: 0 };
    org.send(ClientMsg::CreateTournament(Box::new(bad))).await;
    refused(&mut org, ErrorCode::BadSettings).await;
    let id = create(&mut org, s).await;
    // Guests enter unrated events only.
    guest.send(ClientMsg::JoinTournament(id)).await;
    refused(&mut guest, ErrorCode::NotLoggedIn).await;
    org.send(ClientMsg::JoinTournament(id)).await;
    view(&mut org).await;
    org.send(ClientMsg::AddTournamentBot {
        id,
        level: Level::Easy,
    })
    .await;
    view_where(&mut org, |v| v.entrants.len() == 2).await;
    other.send(ClientMsg::JoinTournament(id)).await;
    let before = view(&mut other).await;
    assert_eq!(before.entrants.len(), 3);
    other.send(ClientMsg::JoinTournament(id)).await;
    refused(&mut other, ErrorCode::AlreadyEntered).await;
    other.send(ClientMsg::JoinTournament(id + 100)).await;
    refused(&mut other, ErrorCode::NoSuchTournament).await;
    // Only the organiser pairs, adds bots, sets results.
    other.send(ClientMsg::PairRound(id)).await;
    refused(&mut other, ErrorCode::NotOrganiser).await;
    other
        .send(ClientMsg::AddTournamentBot {
            id,
            level: Level::Max,
        })
        .await;
    refused(&mut other, ErrorCode::NotOrganiser).await;
    org.send(ClientMsg::SetResult {
        id,
        round: 1,
        board: 1,
        result: BoardResult::WhiteWins,
    })
    .await;
    refused(&mut org, ErrorCode::NoSuchBoard).await;
    org.send(ClientMsg::StartTournament(id)).await;
    let started = view_where(&mut org, |v| v.summary.round == 1).await;
    assert_eq!(
        started.boards.len(),
        1,
        "three entrants: one board and a bye"
    );
    assert_eq!(started.byes.len(), 1);
    // A result for a board not in the round, a join after the close: refused.
    org.send(ClientMsg::SetResult {
        id,
        round: 1,
        board: 2,
        result: BoardResult::WhiteWins,
    })
    .await;
    refused(&mut org, ErrorCode::NoSuchBoard).await;
    org.send(ClientMsg::SetResult {
        id,
        round: 2,
        board: 1,
        result: BoardResult::WhiteWins,
    })
    .await;
    refused(&mut org, ErrorCode::NoSuchBoard).await;
    let mut late = server.player("Late").await;
    // A Swiss takes late entries until its last round is paired: pair round 2 by
    // setting round 1's result by hand, then the door closes.
    org.send(ClientMsg::PairRound(id)).await;
    refused(&mut org, ErrorCode::RoundInProgress).await;
    org.send(ClientMsg::SetResult {
        id,
        round: 1,
        board: 1,
        result: BoardResult::Draw,
    })
    .await;
    let after = view_where(&mut org, |v| v.summary.round == 2).await;
    assert!(after.boards[0].by_hand);
    assert_eq!(after.boards[0].result, Some(BoardResult::Draw));
    late.send(ClientMsg::JoinTournament(id)).await;
    refused(&mut late, ErrorCode::EntriesClosed).await;
    // Nothing changed by the refusals: the same entrants as before the start.
    late.send(ClientMsg::ShowTournament(id)).await;
    let now = view(&mut late).await;
    assert_eq!(now.entrants.len(), before.entrants.len());
    assert_eq!(now.boards.len(), 2);
    // Exports: TRF for a Swiss, CSV standings.
    org.send(ClientMsg::ExportTournament {
        id,
        format: banco_protocol::ExportFormat::Trf,
    })
    .await;
    match org
        .recv_until(|m| matches!(m, ServerMsg::TournamentExport { .. }))
        .await
    {
        ServerMsg::TournamentExport { name, text } => {
            assert!(name.ends_with(".trf"));
            let back = banco_pairing::trf::read(&text).expect("a TRF file bbpPairings reads");
            assert_eq!(back.tournament.players.len(), 3);
        }
        _ => unreachable!(),
    }
    // The same over HTTP, as a download; a tournament that is not there is a 404.
    let csv = http_get(&server, &format!("/tournaments/{id}.csv")).await;
    assert!(csv.starts_with("HTTP/1.1 200"), "{csv}");
    assert!(
        csv.to_lowercase()
            .contains("content-disposition: attachment")
    );
    assert!(csv.contains("rank,number,name,points,BH-C1"), "{csv}");
    let trf = http_get(&server, &format!("/tournaments/{id}.trf")).await;
    assert!(trf.contains("012 Rated night"), "{trf}");
    let missing = http_get(&server, "/tournaments/999.csv").await;
    assert!(missing.starts_with("HTTP/1.1 404"), "{missing}");
}

/// `GET path` over HTTPS on the game port; the whole answer.
async fn http_get(server: &TestServer, path: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (mut stream, _) = banco_tests::tls_to(server.addr, b"http/1.1").await;
    let request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    stream
        .write_all(request.as_bytes())
        .await
        .expect("send the request");
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(banco_tests::WAIT, stream.read_to_end(&mut answer)).await;
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test]
async fn a_player_who_does_not_move_in_time_loses_by_forfeit() {
    let server = TestServer::with_config(config()).await;
    let mut a = server.player("Quan").await;
    let mut b = server.player("Sang").await;
    let mut s = settings(
        "Forfeits",
        TournamentFormat::RoundRobin { double: false },
        RoomSettings {
            game: GameSettings::Xiangqi { fen: None },
            ..RoomSettings::default()
        },
    );
    s.forfeit_secs = 1;
    let id = create(&mut a, s).await;
    for c in [&mut a, &mut b] {
        c.send(ClientMsg::JoinTournament(id)).await;
        view(c).await;
    }
    a.send(ClientMsg::StartTournament(id)).await;
    // Both are placed at the board; nobody moves: white (who moves first) forfeits.
    let ready = a
        .recv_until(|m| matches!(m, ServerMsg::TournamentGame(_)))
        .await;
    let ServerMsg::TournamentGame(game) = ready else {
        unreachable!()
    };
    assert_eq!(game.forfeit_secs, 1);
    let over = view_where(&mut b, |v| v.summary.status == TournamentStatus::Over).await;
    let board = &over.boards[0];
    assert_eq!(board.result, Some(BoardResult::BlackWinsByForfeit));
    // A forfeit is not a game played: the crosstable says so.
    assert!(over.crosstable.iter().all(|r| !r.cells[0].played));
}

#[tokio::test]
async fn a_board_in_progress_comes_back_after_a_restart_and_its_result_counts() {
    let dir = banco_tests::TempDir::new("tournament-restart");
    let cfg = || on_disk(&dir);
    let server = TestServer::with_config(cfg()).await;
    let mut a = server.player("Tam").await;
    let mut b = server.player("Uyen").await;
    let s = settings(
        "Restart",
        TournamentFormat::RoundRobin { double: false },
        RoomSettings {
            game: GameSettings::Xiangqi { fen: None },
            ..RoomSettings::default()
        },
    );
    let id = create(&mut a, s).await;
    for c in [&mut a, &mut b] {
        c.send(ClientMsg::JoinTournament(id)).await;
        view(c).await;
    }
    a.send(ClientMsg::StartTournament(id)).await;
    // The room's start and the tournament's view come from two tasks, in either order.
    let (mut started, mut game) = (None, false);
    while started.is_none() || !game {
        match a.recv().await {
            ServerMsg::Tournament(v) if v.summary.round == 1 => started = Some(*v),
            ServerMsg::GameStarted(_) => game = true,
            _ => {}
        }
    }
    let started = started.expect("the loop ends with it");
    b.recv_until(|m| matches!(m, ServerMsg::GameStarted(_)))
        .await;
    let board = started.boards[0].clone();
    let room = board.room.expect("a room");
    let (mut white, mut black) = if started.name_of(board.white) == "Tam" {
        (a, b)
    } else {
        (b, a)
    };
    banco_tests::exchange_xq(&mut white, &mut black, "h2e2").await;
    banco_tests::exchange_xq(&mut black, &mut white, "h9g7").await;
    let (wn, wt, bn, bt) = (
        white.name().to_string(),
        white.token(),
        black.name().to_string(),
        black.token(),
    );
    server.stop().await;
    white.closed().await;
    black.closed().await;

    let server = TestServer::with_config(cfg()).await;
    let mut white = server.reconnect_player(&wn, wt).await;
    let mut black = server.reconnect_player(&bn, bt).await;
    let back = match white
        .recv_until(|m| matches!(m, ServerMsg::Joined(_)))
        .await
    {
        ServerMsg::Joined(v) => *v,
        _ => unreachable!(),
    };
    assert_eq!(back.id, room, "the board's room keeps its number");
    assert_eq!(back.game.as_ref().map(|g| g.moves.len()), Some(2));
    black
        .recv_until(|m| matches!(m, ServerMsg::Joined(_)))
        .await;
    white.send(ClientMsg::ShowTournament(id)).await;
    let v = view(&mut white).await;
    assert_eq!(v.boards.len(), 1, "not paired again");
    assert_eq!(v.boards[0].room, Some(room));
    // White resigns: the result reaches the tournament, which ends.
    white.send(ClientMsg::Resign).await;
    let over = view_where(&mut white, |v| v.summary.status == TournamentStatus::Over).await;
    assert_eq!(over.boards[0].result, Some(BoardResult::BlackWins));
    let top = over
        .entrant(over.standings[0].entrant)
        .expect("as the test set it up");
    assert_eq!(top.name, bn);
}

#[tokio::test]
async fn an_entrant_who_leaves_the_server_is_shown_away_until_back_and_after_a_restart() {
    let dir = banco_tests::TempDir::new("tournament-away");
    let cfg = || on_disk(&dir);
    let server = TestServer::with_config(cfg()).await;
    let mut org = server.player("Tam").await;
    let mut u = server.player("Uyen").await;
    let id = create(
        &mut org,
        settings(
            "Presence",
            TournamentFormat::RoundRobin { double: false },
            small_caro(),
        ),
    )
    .await;
    org.send(ClientMsg::AddTournamentBot {
        id,
        level: Level::Easy,
    })
    .await;
    for c in [&mut org, &mut u] {
        c.send(ClientMsg::JoinTournament(id)).await;
        view(c).await;
    }
    let away = |v: &TournamentView, name: &str| {
        v.entrants
            .iter()
            .find(|e| e.name == name)
            .map(|e| e.away)
            .expect("entered")
    };
    let v = view_where(&mut org, |v| v.entrants.len() == 3).await;
    assert!(v.entrants.iter().all(|e| !e.away), "{:?}", v.entrants);
    // Uyen leaves: everyone following is told, without asking.
    let (un, ut) = (u.name().to_string(), u.token());
    u.disconnect();
    let v = view_where(&mut org, |v| v.entrants.iter().any(|e| e.away)).await;
    assert!(away(&v, "Uyen"), "{:?}", v.entrants);
    assert!(!away(&v, "Tam"));
    // The start numbers entrants by rating (the bot came first, now last): the marks
    // follow the names.
    org.send(ClientMsg::StartTournament(id)).await;
    let v = view_where(&mut org, |v| v.summary.round == 1).await;
    assert_ne!(v.entrants[0].name, banco_protocol::bot_name(Level::Easy));
    assert!(away(&v, "Uyen"), "{:?}", v.entrants);
    assert!(!away(&v, "Tam"));
    assert!(!away(&v, &banco_protocol::bot_name(Level::Easy)));
    // Back: shown here again.
    let u = server.reconnect_player(&un, ut).await;
    let ut = u.token();
    view_where(&mut org, |v| v.entrants.iter().all(|e| !e.away)).await;

    // After a restart nobody is connected until they come back; the bot never leaves.
    let (name, token) = (org.name().to_string(), org.token());
    server.stop().await;
    org.closed().await;
    let server = TestServer::with_config(cfg()).await;
    let mut org = server.reconnect_player(&name, token).await;
    org.send(ClientMsg::ShowTournament(id)).await;
    let v = view(&mut org).await;
    assert!(away(&v, "Uyen"));
    assert!(!away(&v, "Tam"));
    assert!(!away(&v, &banco_protocol::bot_name(Level::Easy)));
    let _u = server.reconnect_player(&un, ut).await;
    view_where(&mut org, |v| v.entrants.iter().all(|e| !e.away)).await;
}

#[tokio::test]
async fn the_organiser_pauses_adds_a_round_removes_a_player_and_resumes() {
    let server = TestServer::with_config(config()).await;
    let mut org = server.player("Vinh").await;
    let mut x = server.player("Xuan").await;
    let mut y = server.player("Yen").await;
    let mut s = settings(
        "Managed",
        TournamentFormat::Swiss { rounds: 1 },
        small_caro(),
    );
    s.forfeit_secs = 3600;
    let id = create(&mut org, s).await;
    for c in [&mut x, &mut y] {
        c.send(ClientMsg::JoinTournament(id)).await;
        view(c).await;
    }
    org.send(ClientMsg::AddTournamentBot {
        id,
        level: Level::Easy,
    })
    .await;
    view_where(&mut org, |v| v.entrants.len() == 3).await;
    org.send(ClientMsg::StartTournament(id)).await;
    let r1 = view_where(&mut org, |v| v.summary.round == 1).await;
    assert_eq!(r1.boards.len(), 1);
    org.send(ClientMsg::PauseTournament { id, paused: true })
        .await;
    view_where(&mut org, |v| v.summary.status == TournamentStatus::Paused).await;
    org.send(ClientMsg::AddRound(id)).await;
    view_where(&mut org, |v| v.summary.rounds == 2).await;
    // The round's result by hand: paused, nothing new is paired.
    org.send(ClientMsg::SetResult {
        id,
        round: 1,
        board: 1,
        result: BoardResult::WhiteWins,
    })
    .await;
    let done = view_where(&mut org, |v| v.boards[0].result.is_some()).await;
    assert_eq!(done.summary.round, 1);
    org.send(ClientMsg::PairRound(id)).await;
    refused(&mut org, ErrorCode::BadSettings).await;
    // Board 1's white is removed; resuming pairs the other two (who have not met).
    let gone = r1.boards[0].white;
    let name = r1.name_of(gone).to_string();
    org.send(ClientMsg::RemoveEntrant {
        id,
        name: name.clone(),
    })
    .await;
    view_where(&mut org, |v| {
        v.entrants.iter().any(|e| e.name == name && e.withdrawn)
    })
    .await;
    org.send(ClientMsg::PauseTournament { id, paused: false })
        .await;
    let r2 = view_where(&mut org, |v| v.summary.round == 2).await;
    assert_eq!(r2.summary.status, TournamentStatus::Running);
    assert_eq!(r2.boards.iter().filter(|b| b.round == 2).count(), 1);
    assert!(
        r2.boards
            .iter()
            .filter(|b| b.round == 2)
            .all(|b| b.white != gone && b.black != gone),
        "a removed player is not paired"
    );
}

#[tokio::test]
async fn a_tournament_with_a_start_time_starts_by_itself() {
    let server = TestServer::with_config(config()).await;
    let mut org = server.player("Xoan").await;
    let mut s = settings(
        "At eight",
        TournamentFormat::RoundRobin { double: false },
        small_caro(),
    );
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_millis() as u64;
    s.start = banco_protocol::TournamentStart::At { unix_ms: now + 500 };
    let id = create(&mut org, s).await;
    for level in [Level::Easy, Level::Medium] {
        org.send(ClientMsg::AddTournamentBot { id, level }).await;
    }
    let waiting = view_where(&mut org, |v| v.entrants.len() == 2).await;
    assert_eq!(waiting.summary.status, TournamentStatus::Entries);
    assert!(waiting.starts_in_ms.is_some());
    let started = view_where(&mut org, |v| v.summary.round == 1).await;
    assert_eq!(started.boards.len(), 1, "two bots: one board");
}

#[tokio::test]
async fn an_organiser_runs_a_bounded_number_of_tournaments() {
    let server = TestServer::with_config(config()).await;
    let mut org = server.player("Yen").await;
    for n in 0..4 {
        let s = settings(
            &format!("Night {n}"),
            TournamentFormat::Swiss { rounds: 3 },
            small_caro(),
        );
        create(&mut org, s).await;
    }
    let s = settings(
        "One too many",
        TournamentFormat::Swiss { rounds: 3 },
        small_caro(),
    );
    org.send(ClientMsg::CreateTournament(Box::new(s))).await;
    refused(&mut org, ErrorCode::Busy).await;
    org.send(ClientMsg::ListTournaments).await;
    match org
        .recv_until(|m| matches!(m, ServerMsg::Tournaments(_)))
        .await
    {
        ServerMsg::Tournaments(list) => assert_eq!(list.len(), 4),
        _ => unreachable!(),
    }
}

/// Plays an arena as `c` against one other player: on every game, `Ai` goes berserk and
/// `Bo` resigns once Ai has (the arbiter says so in the room).
async fn berserk_arena(mut c: Client, id: u32) -> TournamentView {
    let ai = c.name() == "Ai";
    loop {
        match c.recv().await {
            ServerMsg::GameStarted(_) if ai => c.send(ClientMsg::Berserk).await,
            ServerMsg::Chat(line) if !ai && line.text.contains("berserk") => {
                c.send(ClientMsg::Resign).await;
            }
            ServerMsg::Tournament(v)
                if v.summary.id == id && v.summary.status == TournamentStatus::Over =>
            {
                return *v;
            }
            _ => {}
        }
    }
}

#[tokio::test]
async fn a_berserk_win_in_an_arena_earns_one_more_point() {
    let server = TestServer::with_config(config()).await;
    let mut ai = server.player("Ai").await;
    let mut bo = server.player("Bo").await;
    let s = settings(
        "Berserk",
        TournamentFormat::Arena {
            seconds: 2,
            berserk: true,
        },
        RoomSettings {
            match_format: Some(MatchFormat {
                games: 1,
                first_to: None,
            }),
            time: banco_protocol::TimeControl::clock(
                Duration::from_secs(60),
                Duration::from_secs(1),
            ),
            ..small_caro()
        },
    );
    let id = create(&mut ai, s).await;
    for c in [&mut ai, &mut bo] {
        c.send(ClientMsg::JoinTournament(id)).await;
        view(c).await;
    }
    ai.send(ClientMsg::StartTournament(id)).await;
    let (a, b) = tokio::join!(berserk_arena(ai, id), berserk_arena(bo, id));
    assert_eq!(a.standings, b.standings);
    let ai_number = a
        .entrants
        .iter()
        .find(|e| e.name == "Ai")
        .expect("Ai")
        .number;
    assert!(!a.boards.is_empty());
    let mut score = banco_pairing::arena::ArenaScore::default();
    for board in &a.boards {
        let ai_white = board.white == ai_number;
        assert_eq!(
            board.result,
            Some(if ai_white {
                BoardResult::WhiteWins
            } else {
                BoardResult::BlackWins
            })
        );
        assert_eq!(board.berserk, [ai_white, !ai_white], "{board:?}");
        score.add(banco_pairing::arena::ArenaResult::Win, true);
    }
    let line = a
        .standings
        .iter()
        .find(|l| l.entrant == ai_number)
        .expect("Ai's line");
    assert_eq!(line.points, score.points * 10);
    assert!(score.points >= 3, "a berserk win is 3");
}

/// Polls the player list through `c` until `name` has left the server.
async fn gone_from_server(c: &mut Client, name: &str) {
    loop {
        c.send(ClientMsg::Players).await;
        let ServerMsg::Players(list) = c.recv_until(|m| matches!(m, ServerMsg::Players(_))).await
        else {
            unreachable!()
        };
        if !list.iter().any(|p| p.name.eq_ignore_ascii_case(name)) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// One game per pairing, caro on a small board, a minute each: an arena's room.
fn arena_room() -> RoomSettings {
    RoomSettings {
        match_format: Some(MatchFormat {
            games: 1,
            first_to: None,
        }),
        time: banco_protocol::TimeControl::clock(Duration::from_secs(60), Duration::from_secs(1)),
        ..small_caro()
    }
}

/// The entrant numbers on the boards of wave `wave`.
fn on_wave(v: &TournamentView, wave: u32) -> Vec<u32> {
    v.boards
        .iter()
        .filter(|b| b.round == wave)
        .flat_map(|b| [b.white, b.black])
        .collect()
}

#[tokio::test]
async fn an_arena_passes_over_players_who_left_and_pairs_them_again_once_back() {
    let server = TestServer::with_config(config()).await;
    let mut people = std::collections::HashMap::new();
    for name in ["Hai", "Khoa", "Lan", "Mai"] {
        people.insert(name.to_string(), server.player(name).await);
    }
    let s = settings(
        "Presence",
        TournamentFormat::Arena {
            seconds: 600,
            berserk: false,
        },
        arena_room(),
    );
    let id = create(people.get_mut("Hai").expect("here"), s).await;
    for c in people.values_mut() {
        c.send(ClientMsg::JoinTournament(id)).await;
        view(c).await;
    }
    // Lan leaves the server before the start.
    people.remove("Lan").expect("here").disconnect();
    let a = people.get_mut("Hai").expect("here");
    gone_from_server(a, "Lan").await;
    a.send(ClientMsg::StartTournament(id)).await;
    let v = view_where(a, |v| v.summary.round >= 1).await;
    let number = |v: &TournamentView, name: &str| {
        v.entrants
            .iter()
            .find(|e| e.name == name)
            .map(|e| e.number)
            .expect("entered")
    };
    let lan = number(&v, "Lan");
    assert_eq!(v.summary.round, 1, "one wave: {:?}", v.boards);
    assert_eq!(v.boards.len(), 1, "three here: one board, one waits");
    assert!(
        !on_wave(&v, 1).contains(&lan),
        "Lan is not here: not paired"
    );
    let waiting = ["Hai", "Khoa", "Mai"]
        .into_iter()
        .find(|n| !on_wave(&v, 1).contains(&number(&v, n)))
        .expect("one waits");
    let mut board: Vec<&str> = ["Hai", "Khoa", "Mai"]
        .into_iter()
        .filter(|n| *n != waiting)
        .collect();
    board.sort_unstable();
    // The one waiting withdraws (paused); Lan comes back: nobody is free to meet her.
    let w = number(&v, waiting);
    let c = people.get_mut(waiting).expect("here");
    c.send(ClientMsg::WithdrawTournament(id)).await;
    view_where(c, |v| v.entrant(w).is_some_and(|e| e.withdrawn)).await;
    let mut c = server.player("Lan").await;
    c.send(ClientMsg::ShowTournament(id)).await;
    let v = view(&mut c).await;
    assert_eq!(v.summary.round, 1, "nobody else is free: {:?}", v.boards);
    people.insert("Lan".into(), c);
    // The later name of the board resigns: both are free, and Lan, back, is paired
    // with one of them (not the same two again while she is free); the paused
    // player is not.
    let loser = people.get_mut(board[1]).expect("here");
    loser
        .recv_until(|m| matches!(m, ServerMsg::GameStarted(_)))
        .await;
    loser.send(ClientMsg::Resign).await;
    let c = people.get_mut("Lan").expect("here");
    let v = view_where(c, |v| v.summary.round >= 2).await;
    assert!(on_wave(&v, 2).contains(&lan), "{:?}", v.boards);
    assert!(!on_wave(&v, 2).contains(&w));
    // The paused player enters again: paired with the one left free.
    let c = people.get_mut(waiting).expect("here");
    c.send(ClientMsg::JoinTournament(id)).await;
    let v = view_where(c, |v| v.summary.round >= 3).await;
    assert!(on_wave(&v, 3).contains(&w), "{:?}", v.boards);
    assert!(!v.entrant(w).expect("entered").withdrawn);
    // Someone the organiser removed does not come back.
    let a = people.get_mut("Hai").expect("here");
    let removed = if waiting == "Hai" { "Khoa" } else { waiting };
    let r = number(&v, removed);
    a.send(ClientMsg::RemoveEntrant {
        id,
        name: removed.into(),
    })
    .await;
    view_where(a, |v| v.entrant(r).is_some_and(|e| e.withdrawn)).await;
    let c = people.get_mut(removed).expect("here");
    c.send(ClientMsg::JoinTournament(id)).await;
    refused(c, ErrorCode::EntriesClosed).await;
}

#[tokio::test]
async fn the_forfeit_counts_from_the_stored_pairing_time_across_a_restart() {
    let dir = banco_tests::TempDir::new("tournament-forfeit-restart");
    let cfg = || Config {
        // The players' time to come back after a restart, once the forfeit time has
        // passed meanwhile.
        grace: Duration::from_secs(5),
        ..on_disk(&dir)
    };
    let server = TestServer::with_config(cfg()).await;
    let mut a = server.player("Phong").await;
    let mut b = server.player("Quynh").await;
    let mut s = settings(
        "Forfeit clock",
        TournamentFormat::RoundRobin { double: false },
        RoomSettings {
            game: GameSettings::Xiangqi { fen: None },
            ..RoomSettings::default()
        },
    );
    // Ten minutes: far longer than this test waits for anything.
    s.forfeit_secs = 600;
    let id = create(&mut a, s).await;
    for c in [&mut a, &mut b] {
        c.send(ClientMsg::JoinTournament(id)).await;
        view(c).await;
    }
    // Quynh leaves and does not come to the board.
    b.disconnect();
    gone_from_server(&mut a, "Quynh").await;
    a.send(ClientMsg::StartTournament(id)).await;
    a.recv_until(|m| matches!(m, ServerMsg::TournamentGame(_)))
        .await;
    let (name, token) = (a.name().to_string(), a.token());
    server.stop().await;
    a.closed().await;
    // Eleven minutes pass while the server is down: the board was paired that long ago.
    {
        let conn = rusqlite::Connection::open(dir.path().join("banco.db")).expect("the store");
        let moved = conn
            .execute(
                "UPDATE tournament_boards SET paired_at = paired_at - 660000",
                [],
            )
            .expect("the store's board");
        assert_eq!(moved, 1);
    }
    let server = TestServer::with_config(cfg()).await;
    let mut a = server.reconnect_player(&name, token).await;
    // Told their board again, and placed there.
    let ServerMsg::TournamentGame(game) = a
        .recv_until(|m| matches!(m, ServerMsg::TournamentGame(_)))
        .await
    else {
        unreachable!()
    };
    assert_eq!((game.tournament, game.round), (id, 1));
    a.send(ClientMsg::ShowTournament(id)).await;
    // The forfeit falls after the grace, not ten minutes after the restart.
    let over = view_where(&mut a, |v| v.boards[0].result.is_some()).await;
    let board = &over.boards[0];
    let expected = if over.name_of(board.white) == "Phong" {
        BoardResult::WhiteWinsByForfeit
    } else {
        BoardResult::BlackWinsByForfeit
    };
    assert_eq!(board.result, Some(expected), "the one who came wins");
    assert_eq!(over.summary.status, TournamentStatus::Over);
}

#[tokio::test]
async fn a_game_stopped_before_its_first_move_forfeits_from_its_stored_start() {
    let dir = banco_tests::TempDir::new("tournament-first-move-restart");
    let cfg = || Config {
        grace: Duration::from_secs(5),
        // An ordinary game's wait for a first move: far longer than the test waits.
        first_move_wait: Duration::from_secs(600),
        ..on_disk(&dir)
    };
    let server = TestServer::with_config(cfg()).await;
    let mut a = server.player("Rin").await;
    let mut b = server.player("Sau").await;
    let mut s = settings(
        "First move",
        TournamentFormat::RoundRobin { double: false },
        RoomSettings {
            game: GameSettings::Xiangqi { fen: None },
            ..RoomSettings::default()
        },
    );
    s.forfeit_secs = 600;
    let id = create(&mut a, s).await;
    for c in [&mut a, &mut b] {
        c.send(ClientMsg::JoinTournament(id)).await;
        view(c).await;
    }
    a.send(ClientMsg::StartTournament(id)).await;
    for c in [&mut a, &mut b] {
        c.recv_until(|m| matches!(m, ServerMsg::GameStarted(_)))
            .await;
    }
    // Nobody moves; the server stops; eleven minutes pass meanwhile.
    let (name, token) = (a.name().to_string(), a.token());
    server.stop().await;
    a.closed().await;
    b.closed().await;
    {
        let conn = rusqlite::Connection::open(dir.path().join("banco.db")).expect("the store");
        let moved = conn
            .execute("UPDATE live_games SET started_at = started_at - 660000", [])
            .expect("the store's game");
        assert_eq!(moved, 1);
        conn.execute(
            "UPDATE tournament_boards SET paired_at = paired_at - 660000",
            [],
        )
        .expect("the store's board");
    }
    let server = TestServer::with_config(cfg()).await;
    let mut a = server.reconnect_player(&name, token).await;
    a.send(ClientMsg::ShowTournament(id)).await;
    // White, to move first, has not moved ten minutes after the game started: the
    // forfeit falls after the grace, not ten minutes after the restart.
    let over = view_where(&mut a, |v| v.boards[0].result.is_some()).await;
    assert_eq!(over.boards[0].result, Some(BoardResult::BlackWinsByForfeit));
}

#[tokio::test]
async fn a_half_point_bye_asked_before_a_round_is_scored_and_exported() {
    let server = TestServer::with_config(config()).await;
    let mut a = server.player("Son").await;
    let mut b = server.player("Thao").await;
    let mut outsider = server.player("Vinh").await;
    let id = create(
        &mut a,
        settings("Byes", TournamentFormat::Swiss { rounds: 2 }, small_caro()),
    )
    .await;
    for c in [&mut a, &mut b] {
        c.send(ClientMsg::JoinTournament(id)).await;
        view(c).await;
    }
    for level in [Level::Easy, Level::Medium, Level::Hard] {
        a.send(ClientMsg::AddTournamentBot { id, level }).await;
        view(&mut a).await;
    }
    let bye = |round, cancel| ClientMsg::RequestBye { id, round, cancel };
    // Thao asks for the next round's bye; Son asks for round 2's and takes it back.
    b.send(bye(None, false)).await;
    let v = view_where(&mut b, |v| !v.bye_requests.is_empty()).await;
    let thao = v
        .entrants
        .iter()
        .find(|e| e.name == "Thao")
        .expect("entered")
        .number;
    assert_eq!(v.bye_requests[0].round, 1);
    a.send(bye(Some(2), false)).await;
    view_where(&mut a, |v| v.bye_requests.len() == 2).await;
    a.send(bye(Some(2), true)).await;
    view_where(&mut a, |v| v.bye_requests.len() == 1).await;
    // Refused: twice, a round the Swiss does not have, someone not entered.
    b.send(bye(Some(1), false)).await;
    refused(&mut b, ErrorCode::AlreadyEntered).await;
    b.send(bye(Some(3), false)).await;
    refused(&mut b, ErrorCode::NoSuchBoard).await;
    outsider.send(bye(None, false)).await;
    refused(&mut outsider, ErrorCode::NotEntered).await;
    a.send(ClientMsg::StartTournament(id)).await;
    // Son plays at once (his room's messages are his); Thao, out this round, looks.
    let son = tokio::spawn(play_out(a, id));
    let v = view_where(&mut b, |v| v.summary.round == 1).await;
    assert!(v.bye_requests.is_empty(), "spent by its round");
    // Thao (entrant numbers are set at the start) sits out round 1 with half a point.
    let thao = v
        .entrants
        .iter()
        .find(|e| e.name == "Thao")
        .map_or(thao, |e| e.number);
    assert!(!on_wave(&v, 1).contains(&thao));
    assert_eq!(v.boards.len(), 2);
    assert_eq!(v.byes.len(), 1, "four others: no pairing-allocated bye");
    assert_eq!((v.byes[0].entrant, v.byes[0].points), (thao, 5));
    // Too late for round 1 now.
    b.send(bye(Some(1), false)).await;
    refused(&mut b, ErrorCode::RoundInProgress).await;
    let tasks = [son, tokio::spawn(play_out(b, id))];
    let mut finals = Vec::new();
    for t in tasks {
        finals.push(t.await.expect("a player's task"));
    }
    let (mut a, v) = finals.swap_remove(0);
    assert_eq!(v.summary.status, TournamentStatus::Over);
    check_results_follow_the_rule(&v);
    assert_eq!(shown_standings(&v), expected_standings(&v));
    let row = &v.crosstable[thao as usize - 1];
    assert_eq!(row.cells[0].points, Some(5));
    assert_eq!(row.cells[0].opponent, None);
    // The TRF file writes it as bbpPairings reads it: an H in round 1.
    a.send(ClientMsg::ExportTournament {
        id,
        format: banco_protocol::ExportFormat::Trf,
    })
    .await;
    let ServerMsg::TournamentExport { text, .. } = a
        .recv_until(|m| matches!(m, ServerMsg::TournamentExport { .. }))
        .await
    else {
        unreachable!()
    };
    let back = banco_pairing::trf::read(&text).expect("a TRF file");
    let byes = &back.tournament.rounds[0].byes;
    assert_eq!(byes.len(), 1);
    assert_eq!(byes[0].kind, ByeKind::HalfPoint);
    assert_eq!(byes[0].player, thao as usize - 1);
}

/// Six people play an arena of `seconds` by the rule above (the later name resigns,
/// after `pause`), checked against the standings recomputed from its boards.
async fn six_player_arena(seconds: u32, pause: Duration) {
    let server = TestServer::with_config(config()).await;
    let names = ["An", "Bich", "Cuong", "Duc", "Hoa", "Kim"];
    let mut people = Vec::new();
    for name in names {
        people.push(server.player(name).await);
    }
    let s = settings(
        "Six",
        TournamentFormat::Arena {
            seconds,
            berserk: false,
        },
        arena_room(),
    );
    let id = create(&mut people[0], s).await;
    for c in &mut people {
        c.send(ClientMsg::JoinTournament(id)).await;
        view(c).await;
    }
    people[0].send(ClientMsg::StartTournament(id)).await;
    let mut tasks = Vec::new();
    for c in people {
        tasks.push(tokio::spawn(play_out_slowly(c, id, pause)));
    }
    let mut finals = Vec::new();
    for t in tasks {
        finals.push(t.await.expect("a player's task"));
    }
    let v = &finals[0];
    assert_eq!(v.summary.status, TournamentStatus::Over);
    check_results_follow_the_rule(v);
    for other in &finals {
        assert_eq!(other.standings, v.standings, "everyone saw the same end");
    }
    // Recomputed: 2 a win, doubled from the third win in a row, each player's games
    // in the order they were paired.
    let mut scores = vec![banco_pairing::arena::ArenaScore::default(); v.entrants.len()];
    for b in &v.boards {
        let white_wins = b.result == Some(BoardResult::WhiteWins);
        let (w, k) = if white_wins {
            (
                banco_pairing::arena::ArenaResult::Win,
                banco_pairing::arena::ArenaResult::Loss,
            )
        } else {
            (
                banco_pairing::arena::ArenaResult::Loss,
                banco_pairing::arena::ArenaResult::Win,
            )
        };
        scores[b.white as usize - 1].add(w, false);
        scores[b.black as usize - 1].add(k, false);
    }
    let mut expected: Vec<(u32, u32)> = (0..v.entrants.len())
        .map(|i| (i as u32 + 1, scores[i].points * 10))
        .collect();
    expected.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
    let shown: Vec<(u32, u32)> = v.standings.iter().map(|l| (l.entrant, l.points)).collect();
    let mut shown_sorted = shown.clone();
    shown_sorted.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
    assert_eq!(shown_sorted, expected, "the standings' points, recomputed");
    assert!(shown.windows(2).all(|w| w[0].1 >= w[1].1), "best first");
    // Places: one more than the players with more points (equal points share one).
    for l in &v.standings {
        let ahead = v.standings.iter().filter(|o| o.points > l.points).count() as u32;
        assert_eq!(l.rank, ahead + 1, "{:?}", v.standings);
    }
    // The pairings mix: two who just met wait for someone else before meeting again,
    // so nobody meets only one opponent all along.
    for e in &v.entrants {
        let mut met: Vec<u32> = v
            .boards
            .iter()
            .filter(|b| b.white == e.number || b.black == e.number)
            .map(|b| {
                if b.white == e.number {
                    b.black
                } else {
                    b.white
                }
            })
            .collect();
        met.sort_unstable();
        met.dedup();
        assert!(met.len() >= 2, "{} met only {met:?}", e.name);
    }
    // An, first by name, never loses; everyone played.
    let an = v.entrants.iter().find(|e| e.name == "An").expect("entered");
    assert!(v.boards.iter().all(|b| {
        let lost = if b.white == an.number {
            b.result == Some(BoardResult::BlackWins)
        } else {
            b.black == an.number && b.result == Some(BoardResult::WhiteWins)
        };
        !lost
    }));
    for e in &v.entrants {
        assert!(
            v.boards
                .iter()
                .any(|b| b.white == e.number || b.black == e.number),
            "{} played",
            e.name
        );
    }
    eprintln!(
        "six-player arena of {seconds} s: {} games, standings {:?}",
        v.boards.len(),
        v.standings
            .iter()
            .map(|l| format!("{} {}", v.name_of(l.entrant), l.points / 10))
            .collect::<Vec<_>>()
    );
}

/// [`play_out`] by the same rule, the loser resigning only after one to three `pause`s
/// (games of some length, and of different lengths, so the arena's waves mix).
async fn play_out_slowly(mut c: Client, id: u32, pause: Duration) -> TournamentView {
    let me = c.name().to_lowercase();
    let mut seats: [Option<banco_protocol::SeatView>; 2] = [None, None];
    let (tx, mut due) = tokio::sync::mpsc::unbounded_channel::<()>();
    let mut games = 0u32;
    loop {
        tokio::select! {
            Some(()) = due.recv() => c.send(ClientMsg::Resign).await,
            msg = c.recv() => {
                let loser = |seats: &[Option<banco_protocol::SeatView>; 2]| {
                    let names: Vec<String> =
                        seats.iter().flatten().map(|s| s.name.to_lowercase()).collect();
                    names.len() == 2 && names.contains(&me) && names.iter().any(|n| *n < me)
                };
                match msg {
                    ServerMsg::Joined(room) => seats = room.seats.clone(),
                    ServerMsg::People { seats: now, .. } => seats = now,
                    ServerMsg::GameStarted(_) if loser(&seats) => {
                        // Games of different lengths (one to three pauses), so that
                        // boards end at different times and the pairings mix.
                        games += 1;
                        let wait = pause * (1 + (games + me.len() as u32) % 3);
                        let tx = tx.clone();
                        tokio::spawn(async move {
                            tokio::time::sleep(wait).await;
                            let _ = tx.send(());
                        });
                    }
                    ServerMsg::Tournament(v)
                        if v.summary.id == id && v.summary.status == TournamentStatus::Over =>
                    {
                        return *v;
                    }
                    _ => {}
                }
            }
        }
    }
}

#[tokio::test]
async fn a_six_player_arena_is_played_to_its_end_and_its_standings_are_recomputed() {
    six_player_arena(25, Duration::from_millis(150)).await;
}

/// The ten-minute arena with six clients. Run with
/// `cargo test -p banco-tests --test tournaments -- --ignored ten_minute`.
#[tokio::test]
#[ignore = "ten minutes long: run by hand"]
async fn a_ten_minute_arena_of_six_clients() {
    six_player_arena(600, Duration::from_secs(2)).await;
}
