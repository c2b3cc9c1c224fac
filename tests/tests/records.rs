//! The server's records, as players read them: the leaderboard, the history of finished
//! games, and a finished game move by move for replay.

use banco_protocol::{
    ClientMsg, EndReason, ErrorCode, GameKind, GameRecord, GameSummary, Move, OfferKind, Point,
    Seat, ServerMsg, Standing,
};
use banco_server::{Config, StoreLocation};
use banco_tests::{Client, TempDir, TestServer, caro, exchange, test_config, two_players};

async fn leaderboard(c: &mut Client) -> Vec<Standing> {
    c.send(ClientMsg::Leaderboard(GameKind::Caro)).await;
    match c
        .recv_until(|m| matches!(m, ServerMsg::Leaderboard { .. }))
        .await
    {
        ServerMsg::Leaderboard { standings, .. } => standings,
        _ => unreachable!(),
    }
}

async fn history(c: &mut Client, player: Option<&str>) -> Vec<GameSummary> {
    c.send(ClientMsg::History {
        player: player.map(str::to_string),
    })
    .await;
    match c.recv_until(|m| matches!(m, ServerMsg::History(_))).await {
        ServerMsg::History(list) => list,
        _ => unreachable!(),
    }
}

async fn replay(c: &mut Client, id: u64) -> GameRecord {
    c.send(ClientMsg::Replay(id)).await;
    match c.recv_until(|m| matches!(m, ServerMsg::Replay(_))).await {
        ServerMsg::Replay(record) => *record,
        _ => unreachable!(),
    }
}

fn standing<'a>(board: &'a [Standing], name: &str) -> &'a Standing {
    board
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("{name} is not on the leaderboard {board:?}"))
}

#[tokio::test]
async fn leaderboard_history_and_replay_follow_the_games_played() {
    let server = TestServer::start().await;
    let mut d = server.connect("Dũng").await;
    assert!(leaderboard(&mut d).await.is_empty(), "no game yet");
    assert!(history(&mut d, None).await.is_empty());

    // Game 1: An (X, seat One) makes five on row 7; Bình plays row 9.
    let (mut a, mut b, _) = two_players(&server, caro(15)).await;
    let mut played = Vec::new();
    for x in 0..5u8 {
        exchange(&mut a, &mut b, x, 7).await;
        played.push((Point::new(x, 7), Seat::One));
        if x == 4 {
            break;
        }
        exchange(&mut b, &mut a, x, 9).await;
        played.push((Point::new(x, 9), Seat::Two));
    }
    let over = a.game_over().await;
    assert_eq!(over.winner, Some(Seat::One));
    // Asked the moment the game is over, the records already have it.
    let after_one = history(&mut a, None).await;
    assert_eq!(after_one.len(), 1, "{after_one:?}");
    b.game_over().await;
    b.send(ClientMsg::LeaveRoom).await;
    b.recv_until(|m| *m == ServerMsg::Left).await;

    // Game 2, between Chi and Bình: a first game replaced by an agreed new one (listed
    // with no result, reason new_game), then Bình resigns.
    let mut c = server.player("Chi").await;
    let (room, _) = c.create(caro(15)).await;
    b.join(room).await;
    c.game_started().await;
    b.game_started().await;
    exchange(&mut c, &mut b, 7, 7).await;
    c.send(ClientMsg::Offer(OfferKind::NewGame)).await;
    b.recv_until(|m| matches!(m, ServerMsg::Offered(_))).await;
    b.send(ClientMsg::Answer {
        kind: OfferKind::NewGame,
        accept: true,
    })
    .await;
    let second = c.game_started().await;
    assert_eq!(second.first, Seat::Two, "the first move passed to Bình");
    b.game_started().await;
    exchange(&mut b, &mut c, 3, 3).await;
    exchange(&mut c, &mut b, 4, 4).await;
    b.send(ClientMsg::Resign).await;
    assert_eq!(c.game_over().await.reason, EndReason::Resign);

    // Ratings (Glicko-2, from 1500 with a deviation of 350): the winners went up, Bình
    // lost twice and went down; three newcomers are all still provisional.
    let board = leaderboard(&mut d).await;
    assert_eq!(board.len(), 3, "{board:?}");
    let names: Vec<&str> = board.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["An", "Chi", "Bình"]);
    let (an, chi, binh) = (
        standing(&board, "An"),
        standing(&board, "Chi"),
        standing(&board, "Bình"),
    );
    assert_eq!((an.games, an.wins, an.losses, an.draws), (1, 1, 0, 0));
    assert_eq!((chi.games, chi.wins, chi.losses), (1, 1, 0));
    assert_eq!((binh.games, binh.wins, binh.losses), (2, 0, 2));
    assert!(board.iter().all(|s| s.rating.provisional), "{board:?}");
    let (an, chi, binh) = (an.rating.rating, chi.rating.rating, binh.rating.rating);
    assert!(
        an > 1600 && an < 1700,
        "a first win between newcomers: {an}"
    );
    assert!(
        chi > 1500 && chi < an,
        "a win over a player already down: {chi}"
    );
    assert!(binh < 1400, "{binh}");
    assert!(board.iter().all(|s| s.bot.is_none()));

    // History: newest first, every game that was started, filtered by player on request.
    let all = history(&mut d, None).await;
    assert_eq!(all.len(), 3, "{all:?}");
    let replaced = &all[1];
    assert_eq!(replaced.over.reason, EndReason::NewGame);
    assert_eq!((replaced.over.winner, replaced.plies), (None, 1));
    let (g2, g1) = (&all[0], &all[2]);
    assert!(g2.id > g1.id);
    assert!(g2.ended_at_ms >= g1.ended_at_ms);
    assert_eq!(g1, &after_one[0]);
    assert_eq!(g1.players, ["An".to_string(), "Bình".to_string()]);
    assert_eq!((g1.first, g1.plies), (Seat::One, 9));
    assert_eq!(g1.over, over);
    assert_eq!(g1.game, caro(15).game);
    assert_eq!(g2.players, ["Chi".to_string(), "Bình".to_string()]);
    assert_eq!((g2.first, g2.plies), (Seat::Two, 2));
    assert_eq!(
        (g2.over.winner, g2.over.reason),
        (Some(Seat::One), EndReason::Resign)
    );
    assert_eq!(history(&mut d, Some("An")).await, vec![g1.clone()]);
    assert_eq!(
        history(&mut d, Some("chi")).await,
        vec![g2.clone(), replaced.clone()]
    );
    assert_eq!(history(&mut d, Some("Bình")).await, all);
    assert!(history(&mut d, Some("Nobody")).await.is_empty());

    // Replay: the moves as played, by the seats that played them, and the winning line.
    let record = replay(&mut d, g1.id).await;
    assert_eq!(&record.summary, g1);
    assert!(record.start_fen.is_empty());
    let moves: Vec<(Point, Seat)> = record
        .moves
        .iter()
        .map(|r| match r.mv {
            Move::Caro(p) => (p, r.by),
            other => panic!("a caro game replays caro moves, not {other:?}"),
        })
        .collect();
    assert_eq!(moves, played);
    let line: Vec<Point> = (0..5).map(|x| Point::new(x, 7)).collect();
    assert_eq!(record.summary.over.line, line);
    let record = replay(&mut d, g2.id).await;
    assert_eq!(
        record
            .moves
            .iter()
            .map(|r| (r.mv, r.by))
            .collect::<Vec<_>>(),
        [
            (Move::Caro(Point::new(3, 3)), Seat::Two),
            (Move::Caro(Point::new(4, 4)), Seat::One)
        ]
    );

    // A game that is not in the records.
    d.send(ClientMsg::Replay(g2.id + 100)).await;
    let e = d.expect_error(ErrorCode::NoSuchGame).await;
    assert!(e.message.contains(&(g2.id + 100).to_string()), "{e}");
    d.send(ClientMsg::Replay(u64::MAX)).await;
    d.expect_error(ErrorCode::NoSuchGame).await;
    // Records can be read from inside a room as well, without disturbing it.
    assert_eq!(history(&mut c, Some("An")).await.len(), 1);
    c.sync("still here").await;
    server.stop().await;
}

#[tokio::test]
async fn the_records_outlive_a_restart() {
    let dir = TempDir::new("records");
    let db = dir.path().join("banco.db");
    let config = || Config {
        store: StoreLocation::File(db.clone()),
        ..test_config()
    };
    let server = TestServer::with_config(config()).await;
    let (mut a, mut b, _) = two_players(&server, caro(15)).await;
    exchange(&mut a, &mut b, 7, 7).await;
    exchange(&mut b, &mut a, 8, 8).await;
    a.send(ClientMsg::Resign).await;
    a.game_over().await;
    server.stop().await;

    let server = TestServer::with_config(config()).await;
    let mut c = server.connect("Chi").await;
    let games = history(&mut c, None).await;
    assert_eq!(games.len(), 1);
    assert_eq!(
        (games[0].over.winner, games[0].over.reason),
        (Some(Seat::Two), EndReason::Resign)
    );
    let record = replay(&mut c, games[0].id).await;
    assert_eq!(record.moves.len(), 2);
    let board = leaderboard(&mut c).await;
    let (binh, an) = (
        standing(&board, "Bình").rating,
        standing(&board, "An").rating,
    );
    assert!(binh.rating > 1600 && an.rating < 1400, "{binh:?} {an:?}");
    assert_eq!(
        binh.rating - 1500,
        1500 - an.rating,
        "equals trade equal points"
    );
    server.stop().await;
}
