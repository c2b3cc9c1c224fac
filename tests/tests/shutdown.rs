//! Stopping the server: everyone is told, nothing is lost, the store keeps the games.

use banco_protocol::{ClientMsg, ErrorCode, OfferKind, ServerMsg};
use banco_server::store::Archive;
use banco_server::{Config, StoreLocation};
use banco_tests::{TempDir, TestServer, caro, exchange, test_config, two_players};

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
    assert_eq!(games.len(), 2, "{games:?}");
    let (unfinished, finished) = (&games[0], &games[1]);
    assert_eq!(unfinished.reason, "shutdown");
    assert!(!unfinished.rated);
    assert_eq!(unfinished.moves, "7,7");
    assert_eq!(finished.reason, "five");
    assert_eq!(finished.winner, Some(1));
    assert!(finished.rated);
    assert_eq!(finished.players, ["An".to_string(), "Bình".to_string()]);
    assert_eq!(finished.moves.split(' ').count(), 9);
    assert_eq!(finished.variant, "15x15 caro");
    let board = archive.leaderboard(10).unwrap();
    assert_eq!(board[0].name, "An");
    assert_eq!((board[0].games, board[0].wins), (1, 1));
    assert!(
        (board[0].rating - 1612.0).abs() < 1e-6,
        "{}",
        board[0].rating
    );
    assert_eq!(board[1].name, "Bình");
    assert_eq!((board[1].games, board[1].losses), (1, 1));
}

#[tokio::test]
async fn a_store_that_cannot_be_opened_does_not_stop_the_games() {
    let dir = TempDir::new("badstore");
    // A directory where the database file should be: SQLite cannot open it.
    let db = dir.path().join("banco.db");
    std::fs::create_dir_all(&db).unwrap();
    let config = Config {
        store: StoreLocation::File(db),
        ..test_config()
    };
    let server = TestServer::with_config(config).await;
    let (mut a, mut b, _) = two_players(&server, caro(15)).await;
    exchange(&mut a, &mut b, 7, 7).await;
    a.send(ClientMsg::Resign).await;
    a.game_over().await;
    server.stop().await;
}
