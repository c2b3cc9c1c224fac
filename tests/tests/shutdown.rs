//! Stopping the server: everyone is told, nothing is lost, the store keeps the games.

use std::time::Duration;

use banco_protocol::{
    ClientMsg, ErrorCode, OfferKind, Role, RoomStatus, Seat, ServerMsg, TimeControl,
};
use banco_server::store::Archive;
use banco_server::{Config, StoreLocation};
use banco_tests::{TempDir, TestServer, caro, exchange, test_config, timed, two_players};

#[tokio::test]
async fn shutdown_tells_everyone_and_the_store_keeps_every_game() {
    let dir = TempDir::new("shutdown");
    let db = dir.path().join("data").join("banco.db");
    let config = Config {
        store: StoreLocation::File(db.clone()),
        ..test_config()
    };
    let server = TestServer::with_config(config).await;
    let (mut a, mut b, _) = two_players(&server, caro(15)).await;
    let mut lobby = server.connect("Chi").await;

    // Game 1: An wins with five on row 0.
    for x in 0..4 {
        exchange(&mut a, &mut b, x, 0).await;
        exchange(&mut b, &mut a, x, 5).await;
    }
    a.play(4, 0).await;
    a.game_over().await;
    b.game_over().await;
    // Game 2 is under way when the server stops.
    b.send(ClientMsg::Offer(OfferKind::NewGame)).await;
    a.recv_until(|m| matches!(m, ServerMsg::Offered(_))).await;
    a.send(ClientMsg::Answer {
        kind: OfferKind::NewGame,
        accept: true,
    })
    .await;
    a.game_started().await;
    b.game_started().await;
    exchange(&mut b, &mut a, 7, 7).await;

    server.stop().await;
    for who in [&mut a, &mut b, &mut lobby] {
        let last = who.closed().await;
        assert!(
            last.iter()
                .any(|m| matches!(m, ServerMsg::Error(e) if e.code == ErrorCode::ShuttingDown)),
            "{last:?}"
        );
    }

    let archive = Archive::open(&db).expect("the database exists");
    let games = archive.recent_games(10).unwrap();
    // Game 2 is not over: it waits, saved, for the server to come back.
    assert_eq!(games.len(), 1, "{games:?}");
    let finished = &games[0];
    assert_eq!(finished.reason, "five");
    assert_eq!(finished.winner, Some(1));
    assert!(finished.rated);
    assert_eq!(finished.players, ["An".to_string(), "Bình".to_string()]);
    assert_eq!(finished.moves.split(' ').count(), 9);
    assert_eq!(finished.variant, "15x15 caro");
    let board = archive
        .leaderboard(banco_protocol::GameKind::Caro, 10)
        .unwrap();
    assert_eq!(board[0].name, "An");
    assert_eq!((board[0].games, board[0].wins), (1, 1));
    // Glicko-2 from 1500 / 350: a first win between newcomers, still provisional.
    let an = board[0].rating.to_wire();
    assert!(an.rating > 1600 && an.provisional, "{an:?}");
    assert_eq!(board[1].name, "Bình");
    assert_eq!((board[1].games, board[1].losses), (1, 1));
}

#[tokio::test]
async fn a_store_that_cannot_be_opened_is_refused_with_a_sentence() {
    let dir = TempDir::new("badstore");
    // A directory where the database file should be: SQLite cannot open it.
    let db = dir.path().join("banco.db");
    std::fs::create_dir_all(&db).unwrap();
    let config = Config {
        store: StoreLocation::File(db.clone()),
        ..test_config()
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let shutdown = tokio_util::sync::CancellationToken::new();
    let refused = banco_server::run(listener, config, shutdown)
        .await
        .expect_err("a host who asked for games to be kept is not served without them");
    let text = format!("{refused:#}");
    assert!(text.contains(&db.display().to_string()), "{text}");
    assert!(text.contains("--db"), "says what to do: {text}");
}

#[tokio::test]
async fn a_restart_carries_on_the_game_in_progress() {
    let dir = TempDir::new("restart");
    let db = dir.path().join("banco.db");
    let config = || Config {
        store: StoreLocation::File(db.clone()),
        ..test_config()
    };
    let control = TimeControl::clock(Duration::from_secs(600), Duration::from_secs(0));
    let server = TestServer::with_config(config()).await;
    let (mut a, mut b, _) = two_players(&server, timed(15, control)).await;
    exchange(&mut a, &mut b, 7, 7).await;
    exchange(&mut b, &mut a, 8, 8).await;
    let (token_a, token_b) = (a.token(), b.token());
    server.stop().await;
    a.closed().await;
    b.closed().await;

    // The server comes back; so do the players, with their resume tokens.
    let server = TestServer::with_config(config()).await;
    let mut other = server.connect("Chi").await;
    other.send(ClientMsg::ListRooms).await;
    let list = other.rooms().await;
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].players, [Some("An".into()), Some("Bình".into())]);
    assert_eq!(list[0].status, RoomStatus::Playing);
    // Their names wait for them: An's is An's account.
    server
        .hello("An", None, None, false)
        .await
        .expect_error(banco_protocol::ErrorCode::NameRegistered)
        .await;

    let mut a = server.reconnect("An", token_a).await;
    assert_eq!(a.name(), "An");
    let view = a.joined().await;
    assert_eq!(view.you, Role::Player(Seat::One));
    let game = view.game.unwrap();
    assert_eq!(game.moves.len(), 2);
    assert!(game.over.is_none());
    let clocks = game.clocks.unwrap();
    assert_eq!(
        clocks.running, None,
        "the clocks wait until both players are back"
    );
    assert!(clocks.remaining_ms[0] <= 600_000 && clocks.remaining_ms[0] > 500_000);

    let mut b = server.reconnect("Bình", token_b).await;
    let view = b.joined().await;
    assert_eq!(view.you, Role::Player(Seat::Two));
    match a.recv_until(|m| matches!(m, ServerMsg::Clock(_))).await {
        ServerMsg::Clock(clocks) => assert_eq!(clocks.running, Some(Seat::One)),
        _ => unreachable!(),
    }
    // And the game goes on to its end, which is recorded.
    for x in 0..4 {
        exchange(&mut a, &mut b, x, 0).await;
        exchange(&mut b, &mut a, x, 5).await;
    }
    exchange(&mut a, &mut b, 4, 0).await;
    assert_eq!(a.game_over().await.winner, Some(Seat::One));
    server.stop().await;
    let games = Archive::open(&db).unwrap().recent_games(5).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].moves.split(' ').count(), 11);
    assert_eq!(games[0].reason, "five");

    // Nothing is left in progress: a third start reopens no room.
    let server = TestServer::with_config(config()).await;
    let mut c = server.connect("Chi").await;
    c.send(ClientMsg::ListRooms).await;
    assert!(c.rooms().await.is_empty());
    server.stop().await;
}

#[tokio::test]
async fn players_who_never_come_back_after_a_restart_leave_the_game_unfinished() {
    let dir = TempDir::new("restart-gone");
    let db = dir.path().join("banco.db");
    let config = || Config {
        store: StoreLocation::File(db.clone()),
        restart_grace: Duration::from_millis(300),
        ..test_config()
    };
    let server = TestServer::with_config(config()).await;
    let (mut a, mut b, _) = two_players(&server, caro(15)).await;
    // Both move: with one move only, a game ending is aborted rather than abandoned.
    exchange(&mut a, &mut b, 7, 7).await;
    exchange(&mut b, &mut a, 8, 8).await;
    server.stop().await;

    let server = TestServer::with_config(config()).await;
    let mut c = server.connect("Chi").await;
    c.send(ClientMsg::ListRooms).await;
    assert_eq!(c.rooms().await.len(), 1);
    // Nobody returns: the room closes and the game is kept, unrated, with no winner.
    c.rooms_until(<[_]>::is_empty).await;
    server.stop().await;
    let archive = Archive::open(&db).unwrap();
    let games = archive.recent_games(5).unwrap();
    assert_eq!(games.len(), 1, "{games:?}");
    assert_eq!(
        (games[0].winner, games[0].reason.as_str(), games[0].rated),
        (None, "abandoned", false)
    );
    assert!(
        archive
            .leaderboard(banco_protocol::GameKind::Caro, 5)
            .unwrap()
            .is_empty(),
        "nobody has a rated game"
    );
}
