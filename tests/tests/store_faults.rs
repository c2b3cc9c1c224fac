//! The store's faults are told, and play goes on: a full disk (the database's size cap),
//! a database deleted under the running server, a damaged row. Each test checks what the
//! players are told and that nothing played is lost once the fault clears.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use banco_protocol::{
    ClientMsg, ErrorCode, GameSettings, Move, Point, RoomSettings, Rule, ServerMsg, Storage,
};
use banco_server::{Config, StoreLocation};
use banco_tests::{Client, TempDir, TestServer, test_config, two_players};

/// A 64x64 caro board: thousands of moves without anyone making five.
fn big_board() -> RoomSettings {
    RoomSettings {
        game: GameSettings::Caro {
            width: 64,
            height: 64,
            rule: Rule::Freestyle,
            opening: banco_protocol::CaroOpening::None,
        },
        ..RoomSettings::default()
    }
}

/// The `n`th stone of a game on the big board: X on even columns of even rows, O on odd
/// columns of odd rows, so no line of five ever forms.
fn point(n: usize) -> Point {
    let k = n / 2;
    let (x, y) = (2 * (k % 32), 2 * (k / 32));
    if n.is_multiple_of(2) {
        Point::new(x as u8, y as u8)
    } else {
        Point::new(x as u8 + 1, y as u8 + 1)
    }
}

/// What a client heard about storage while waiting for its next move.
#[derive(Default)]
struct Heard {
    storage: Option<Storage>,
}

/// Plays move `n` (by whoever's turn it is) and waits until both players saw it,
/// noting any storage notice on the way.
async fn play(n: usize, a: &mut Client, b: &mut Client, heard: &mut Heard) {
    let (mover, other) = if n.is_multiple_of(2) { (a, b) } else { (b, a) };
    mover.send(ClientMsg::Move(Move::Caro(point(n)))).await;
    for who in [mover, other] {
        loop {
            match who.recv().await {
                ServerMsg::Moved { ply, .. } if ply as usize == n + 1 => break,
                ServerMsg::Storage(s) => heard.storage = Some(s),
                ServerMsg::Error(e) => panic!("move {n} refused: {e:?}"),
                _ => {}
            }
        }
    }
}

/// Waits for a storage notice on `who`.
async fn storage_notice(who: &mut Client) -> Storage {
    match who.recv_until(|m| matches!(m, ServerMsg::Storage(_))).await {
        ServerMsg::Storage(s) => s,
        _ => unreachable!(),
    }
}

/// The moves of the game `who` is seated in, after a restart: resumes with its token.
async fn moves_after_restart(server: &TestServer, name: &str, who: &Client) -> usize {
    let mut back = server.reconnect(name, who.token()).await;
    match back.recv_until(|m| matches!(m, ServerMsg::Joined(_))).await {
        ServerMsg::Joined(view) => view.game.expect("the game goes on").moves.len(),
        _ => unreachable!(),
    }
}

#[tokio::test]
async fn a_full_disk_is_told_games_go_on_and_nothing_is_lost_when_it_clears() {
    let dir = TempDir::new("full");
    let db = dir.path().join("banco.db");
    let cap = Arc::new(AtomicU64::new(0));
    let config = || Config {
        store: StoreLocation::File(db.clone()),
        store_max_bytes: cap.clone(),
        ..test_config()
    };
    let server = TestServer::with_config(config()).await;
    let (mut a, mut b, _) = two_players(&server, big_board()).await;
    let mut heard = Heard::default();
    play(0, &mut a, &mut b, &mut heard).await;
    // The database may not grow a page more.
    cap.store(1, Ordering::Relaxed);
    let mut n = 1;
    while heard.storage.is_none() {
        play(n, &mut a, &mut b, &mut heard).await;
        n += 1;
        assert!(n < 2000, "the size cap never stopped a commit");
    }
    let Some(Storage::NotSaving { reason }) = &heard.storage else {
        panic!("expected the not-saving notice, got {:?}", heard.storage);
    };
    assert!(reason.contains("--db-max-size"), "{reason}");
    // Play goes on meanwhile, and newcomers are told at once.
    for _ in 0..10 {
        play(n, &mut a, &mut b, &mut heard).await;
        n += 1;
    }
    // `reconnect` reads only the Welcome: what follows it is for the test to see.
    let mut late = server
        .reconnect("Late", banco_protocol::ResumeToken([7; 16]))
        .await;
    assert!(matches!(
        late.recv_until(|m| matches!(m, ServerMsg::Storage(_)))
            .await,
        ServerMsg::Storage(Storage::NotSaving { .. })
    ));
    // The host frees room: everything held is written and the notice clears.
    cap.store(0, Ordering::Relaxed);
    assert_eq!(storage_notice(&mut late).await, Storage::Saving);
    play(n, &mut a, &mut b, &mut heard).await;
    n += 1;
    server.stop().await;
    a.closed().await;
    b.closed().await;

    let server = TestServer::with_config(config()).await;
    assert_eq!(moves_after_restart(&server, "An", &a).await, n);
    server.stop().await;
}

#[tokio::test]
async fn a_database_deleted_under_the_server_is_written_again_with_everything() {
    let dir = TempDir::new("deleted");
    let db = dir.path().join("banco.db");
    let config = || Config {
        store: StoreLocation::File(db.clone()),
        ..test_config()
    };
    let server = TestServer::with_config(config()).await;
    let (mut a, mut b, _) = two_players(&server, big_board()).await;
    let mut heard = Heard::default();
    for n in 0..4 {
        play(n, &mut a, &mut b, &mut heard).await;
    }
    for suffix in ["", "-wal", "-shm"] {
        let mut path = db.clone().into_os_string();
        path.push(suffix);
        std::fs::remove_file(&path).expect("the database's files are there to delete");
    }
    let mut n = 4;
    // The writer looks at its file at least every 2 s: play on until it is back.
    let since = std::time::Instant::now();
    while !db.exists() {
        play(n, &mut a, &mut b, &mut heard).await;
        n += 1;
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        assert!(
            since.elapsed() < banco_tests::WAIT,
            "the deleted database was never written again"
        );
    }
    for _ in 0..3 {
        play(n, &mut a, &mut b, &mut heard).await;
        n += 1;
    }
    server.stop().await;
    a.closed().await;
    b.closed().await;

    let server = TestServer::with_config(config()).await;
    assert_eq!(moves_after_restart(&server, "An", &a).await, n);
    server.stop().await;
}

#[tokio::test]
async fn a_damaged_row_hides_nothing_else() {
    let dir = TempDir::new("damaged");
    let db = dir.path().join("banco.db");
    let config = || Config {
        store: StoreLocation::File(db.clone()),
        ..test_config()
    };
    let server = TestServer::with_config(config()).await;
    // Two finished games between different pairs.
    for (one, two) in [("An", "Bình"), ("Chi", "Dũng")] {
        let mut a = server.player(one).await;
        let mut b = server.player(two).await;
        let (id, _) = a.create(banco_tests::caro(15)).await;
        b.join(id).await;
        a.game_started().await;
        b.game_started().await;
        banco_tests::exchange(&mut a, &mut b, 7, 7).await;
        banco_tests::exchange(&mut b, &mut a, 8, 8).await;
        b.send(ClientMsg::Resign).await;
        a.game_over().await;
        b.game_over().await;
    }
    server.stop().await;
    // Damage the first game's settings and An's rating.
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(
        "UPDATE games SET settings = '{not json' WHERE id = (SELECT MIN(id) FROM games);
         UPDATE ratings SET rating = 'lots'
             WHERE player = (SELECT id FROM players WHERE name = 'An');",
    )
    .unwrap();
    drop(conn);

    let server = TestServer::with_config(config()).await;
    let mut c = server.connect("Em").await;
    c.send(ClientMsg::History { player: None }).await;
    let games = match c.recv_until(|m| matches!(m, ServerMsg::History(_))).await {
        ServerMsg::History(g) => g,
        _ => unreachable!(),
    };
    assert_eq!(games.len(), 1, "the readable game is listed: {games:?}");
    assert_eq!(games[0].players, ["Chi".to_string(), "Dũng".to_string()]);
    c.send(ClientMsg::Replay(games[0].id)).await;
    c.recv_until(|m| matches!(m, ServerMsg::Replay(_))).await;
    c.send(ClientMsg::Replay(games[0].id - 1)).await;
    let refused = c.expect_error(ErrorCode::NoSuchGame).await;
    assert!(refused.message.contains("damaged"), "{}", refused.message);
    c.send(ClientMsg::Leaderboard(banco_protocol::GameKind::Caro))
        .await;
    let board = match c
        .recv_until(|m| matches!(m, ServerMsg::Leaderboard { .. }))
        .await
    {
        ServerMsg::Leaderboard { standings: b, .. } => b,
        _ => unreachable!(),
    };
    let names: Vec<&str> = board.iter().map(|s| s.name.as_str()).collect();
    assert!(
        !names.contains(&"An") && names.contains(&"Chi"),
        "{names:?}"
    );
    server.stop().await;
}
