//! A database written by the previous version (schema 4, made by the code of a2f0775 and
//! kept in `tests/fixtures/v4/`) is brought up to date in place: its finished games, its
//! ratings and its games in progress (snapshots with resume tokens in plain text) all
//! carry over, the tokens now only as hashes.
//!
//! The fixture holds: An beat Bình at caro (five on row 0); Dũng beat Chi at xiangqi
//! (resignation); Em and Giang playing caro with a 5 min + 3 s clock, five moves in; Hà
//! playing the medium bot at caro, two moves in. `tokens.txt` has the resume tokens the
//! old server gave Em, Giang and Hà.

use banco_protocol::{ClientMsg, EndReason, ResumeToken, Seat, ServerMsg};
use banco_server::{Config, StoreLocation};
use banco_tests::{TempDir, TestServer, test_config};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/v4");

fn token(name: &str) -> ResumeToken {
    let tokens = std::fs::read_to_string(format!("{FIXTURE}/tokens.txt"))
        .expect("the fixture's tokens are there");
    let hex = tokens
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{name} ")))
        .expect("the fixture has a token for this player");
    let mut bytes = [0u8; 16];
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex digits");
    }
    ResumeToken(bytes)
}

#[tokio::test]
async fn a_version_4_database_is_upgraded_in_place_with_its_games_in_progress() {
    let dir = TempDir::new("migrate");
    let db = dir.path().join("banco.db");
    std::fs::copy(format!("{FIXTURE}/banco.db"), &db).unwrap();
    let version = |db: &std::path::Path| -> i64 {
        let conn = rusqlite::Connection::open(db).unwrap();
        conn.query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap()
    };
    assert_eq!(version(&db), 4, "the fixture is a version 4 file");

    let server = TestServer::with_config(Config {
        store: StoreLocation::File(db.clone()),
        ..test_config()
    })
    .await;

    // The finished games and the ratings are there.
    let mut look = server.connect("Look").await;
    look.send(ClientMsg::History { player: None }).await;
    let ServerMsg::History(games) = look
        .recv_until(|m| matches!(m, ServerMsg::History(_)))
        .await
    else {
        unreachable!()
    };
    assert_eq!(games.len(), 2, "{games:?}");
    let xq = &games[0];
    assert_eq!(xq.players, ["Chi".to_string(), "Dũng".to_string()]);
    assert_eq!(
        (xq.over.winner, xq.over.reason),
        (Some(Seat::Two), EndReason::Resign)
    );
    let caro = &games[1];
    assert_eq!(caro.players, ["An".to_string(), "Bình".to_string()]);
    assert_eq!(caro.over.reason, EndReason::Five);
    look.send(ClientMsg::Replay(caro.id)).await;
    let ServerMsg::Replay(record) = look.recv_until(|m| matches!(m, ServerMsg::Replay(_))).await
    else {
        unreachable!()
    };
    assert_eq!(record.moves.len(), 9);
    assert_eq!(record.summary.over.line.len(), 5);
    look.send(ClientMsg::Leaderboard(banco_protocol::GameKind::Caro))
        .await;
    let ServerMsg::Leaderboard {
        standings: board, ..
    } = look
        .recv_until(|m| matches!(m, ServerMsg::Leaderboard { .. }))
        .await
    else {
        unreachable!()
    };
    let an = board.iter().find(|s| s.name == "An").expect("An is rated");
    // Re-rated from the history in Glicko-2 (it was Elo 1612): one win between
    // newcomers, from 1500 with a deviation of 350, still provisional.
    assert_eq!((an.games, an.wins), (1, 1));
    assert!(
        an.rating.rating > 1600 && an.rating.rating < 1700 && an.rating.provisional,
        "{an:?}"
    );

    // The games in progress reopened; their players come back with the old tokens.
    let mut em = server.reconnect("Em", token("Em")).await;
    let ServerMsg::Joined(view) = em.recv_until(|m| matches!(m, ServerMsg::Joined(_))).await else {
        unreachable!()
    };
    assert_eq!(view.you, banco_protocol::Role::Player(Seat::One));
    let game = view.game.expect("Em's game goes on");
    assert_eq!(game.moves.len(), 5);
    let clocks = game.clocks.expect("a clocked game");
    assert!(
        clocks.remaining_ms.iter().all(|&ms| ms > 290_000),
        "{clocks:?}"
    );
    let mut ha = server.reconnect("Hà", token("Hà")).await;
    let ServerMsg::Joined(view) = ha.recv_until(|m| matches!(m, ServerMsg::Joined(_))).await else {
        unreachable!()
    };
    assert_eq!(view.game.expect("Hà's game goes on").moves.len(), 2);
    assert!(view.seats[1].as_ref().is_some_and(|s| s.bot.is_some()));
    let mut giang = server.reconnect("Giang", token("Giang")).await;
    giang
        .recv_until(|m| matches!(m, ServerMsg::Joined(_)))
        .await;
    server.stop().await;

    // The file is at the new version, and no resume token is left in it in the clear.
    assert_eq!(version(&db), 16);
    let conn = rusqlite::Connection::open(&db).unwrap();
    // Version 14's tournaments, empty.
    let tournaments: i64 = conn
        .query_row("SELECT count(*) FROM tournaments", [], |r| r.get(0))
        .unwrap();
    assert_eq!(tournaments, 0);
    // Version 16's byes asked for, empty; boards know when they were paired.
    let asked: i64 = conn
        .query_row("SELECT count(*) FROM tournament_bye_requests", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(asked, 0);
    conn.query_row("SELECT count(paired_at) FROM tournament_boards", [], |r| {
        r.get::<_, i64>(0)
    })
    .unwrap();
    // Games finished before swap openings were kept have none.
    let swaps: i64 = conn
        .query_row("SELECT count(*) FROM games WHERE swap != ''", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(swaps, 0);
    // Accounts made before bot accounts are people's.
    let bots: i64 = conn
        .query_row("SELECT count(*) FROM accounts WHERE bot != 0", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(bots, 0);
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(!tables.iter().any(|t| t.contains("snapshot")), "{tables:?}");
    assert!(tables.iter().any(|t| t == "reviews"), "{tables:?}");
    assert!(tables.iter().any(|t| t == "store_facts"), "{tables:?}");
    let seats: Vec<String> = conn
        .prepare("SELECT seats FROM live_games")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let old = token("Em").0.map(|b| b.to_string()).join(",");
    for s in &seats {
        assert!(!s.contains(&old), "a token in the clear: {s}");
    }
}
