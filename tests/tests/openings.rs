//! Caro games that start from opening stones: rooms with explicit stones, rooms that deal
//! every game a balanced opening, the bot answering a threat made only of opening
//! stones, replays and restarts that keep the opening.

use banco_protocol::{
    CaroOpening, ClientMsg, EndReason, ErrorCode, FirstMove, GameRecord, GameSettings, Level,
    OfferKind, Point, Role, RoomSettings, Rule, Seat, SeatKind, ServerMsg,
};
use banco_server::{Config, StoreLocation};
use banco_tests::{Client, TempDir, TestServer, caro_from, exchange, test_config, two_players};

fn p(x: u8, y: u8) -> Point {
    Point::new(x, y)
}

/// X 7,7, O 8,8, X 6,8: O moves first.
fn three_stones() -> Vec<Point> {
    vec![p(7, 7), p(8, 8), p(6, 8)]
}

/// The next error, skipping the people updates a spectator coming in causes; it must
/// have `code`.
async fn refused(c: &mut Client, code: ErrorCode) -> banco_protocol::ErrorMsg {
    match c
        .recv_until(|m| !matches!(m, ServerMsg::People { .. }))
        .await
    {
        ServerMsg::Error(e) if e.code == code => e,
        other => panic!("expected error {code}, got {other:?}"),
    }
}

async fn replay(c: &mut Client, id: u64) -> GameRecord {
    c.send(ClientMsg::Replay(id)).await;
    match c.recv_until(|m| matches!(m, ServerMsg::Replay(_))).await {
        ServerMsg::Replay(record) => *record,
        _ => unreachable!(),
    }
}

#[tokio::test]
async fn a_room_from_explicit_stones_starts_on_them_and_the_side_to_move_follows() {
    let server = TestServer::start().await;
    let stones = three_stones();
    let settings = caro_from(15, Rule::Caro, CaroOpening::Stones(stones.clone()));
    let mut a = server.connect("An").await;
    let mut b = server.connect("Bình").await;
    let (id, view) = a.create(settings.clone()).await;
    assert_eq!(view.settings, settings);
    b.join(id).await;
    for who in [&mut a, &mut b] {
        let game = who.game_started().await;
        assert_eq!(game.opening, stones);
        assert!(game.moves.is_empty());
        // An (seat One) is to move at the start, and after three stones that is O.
        assert_eq!(game.first, Seat::One);
    }
    // A spectator coming in sees the stones too.
    let mut c = server.connect("Chi").await;
    let watched = c.watch(id).await;
    assert_eq!(watched.game.expect("a game").opening, stones);

    // Opening points are taken; it is not Bình's turn.
    a.play(7, 7).await;
    assert!(
        refused(&mut a, ErrorCode::Occupied)
            .await
            .message
            .contains("7,7")
    );
    a.play(6, 8).await;
    refused(&mut a, ErrorCode::Occupied).await;
    b.play(0, 0).await;
    refused(&mut b, ErrorCode::NotYourTurn).await;
    exchange(&mut a, &mut b, 0, 0).await;
    exchange(&mut b, &mut a, 14, 14).await;

    // Undo takes back moves, never the opening: 7,7 stays taken.
    a.send(ClientMsg::Offer(OfferKind::Undo)).await;
    b.recv_until(|m| matches!(m, ServerMsg::Offered(_))).await;
    b.send(ClientMsg::Answer {
        kind: OfferKind::Undo,
        accept: true,
    })
    .await;
    match a
        .recv_until(|m| matches!(m, ServerMsg::Undone { .. }))
        .await
    {
        ServerMsg::Undone { plies, .. } => assert_eq!(plies, 2),
        _ => unreachable!(),
    }
    b.recv_until(|m| matches!(m, ServerMsg::Undone { .. }))
        .await;
    a.play(7, 7).await;
    a.expect_error(ErrorCode::Occupied).await;

    // An plays O: a five on column 0 is An's win.
    for y in 0..4 {
        exchange(&mut a, &mut b, 0, y).await;
        exchange(&mut b, &mut a, 14, y).await;
    }
    a.play(0, 4).await;
    let over = a.game_over().await;
    assert_eq!(
        (over.winner, over.reason),
        (Some(Seat::One), EndReason::Five)
    );
    assert_eq!(over.line.len(), 5);
    assert!(over.line.contains(&p(0, 2)));

    // The replay starts from the same stones; its moves come after them.
    let id = history_first(&mut c).await;
    let record = replay(&mut c, id).await;
    assert_eq!(record.opening, stones);
    assert_eq!(record.moves.len(), 9);
    assert_eq!(record.moves[0].mv, banco_protocol::Move::Caro(p(0, 0)));
    assert_eq!(record.moves[0].by, Seat::One);
    assert_eq!(record.summary.first, Seat::One);
    assert_eq!(record.summary.plies, 9);
    assert_eq!(record.summary.over.winner, Some(Seat::One));
    assert_eq!(
        record.summary.game,
        GameSettings::Caro {
            width: 15,
            height: 15,
            rule: Rule::Caro,
            opening: CaroOpening::Stones(stones),
        }
    );
    server.stop().await;
}

/// The newest finished game's number in the history.
async fn history_first(c: &mut Client) -> u64 {
    c.send(ClientMsg::History { player: None }).await;
    match c.recv_until(|m| matches!(m, ServerMsg::History(_))).await {
        ServerMsg::History(list) => list.first().expect("a finished game").id,
        _ => unreachable!(),
    }
}

#[tokio::test]
async fn openings_that_cannot_start_a_game_are_refused_with_the_rules_reason() {
    let server = TestServer::start().await;
    let mut a = server.connect("An").await;
    let cases = [
        (15, vec![p(7, 7), p(15, 2)], "off the 15x15 board"),
        (15, vec![p(7, 7), p(8, 8), p(7, 7)], "stone 1 already holds"),
        (
            15,
            vec![
                p(0, 0),
                p(0, 9),
                p(1, 0),
                p(1, 9),
                p(2, 0),
                p(2, 9),
                p(3, 0),
                p(3, 9),
                p(4, 0),
            ],
            "winning line for X",
        ),
        (
            5,
            (0..9u8).map(|i| p(i % 3 * 2, i / 3 * 2)).collect(),
            "at most 8 stones",
        ),
    ];
    for (size, stones, words) in cases {
        a.send(ClientMsg::CreateRoom(caro_from(
            size,
            Rule::Caro,
            CaroOpening::Stones(stones),
        )))
        .await;
        let e = a.expect_error(ErrorCode::BadSettings).await;
        assert!(e.message.contains(words), "{}", e.message);
    }
    a.send(ClientMsg::CreateRoom(caro_from(
        6,
        Rule::Caro,
        CaroOpening::Balanced,
    )))
    .await;
    let e = a.expect_error(ErrorCode::BadSettings).await;
    assert!(e.message.contains("at least 7x7"), "{}", e.message);
    // Nothing was made.
    a.send(ClientMsg::ListRooms).await;
    assert!(a.rooms().await.is_empty());
    server.stop().await;
}

#[tokio::test]
async fn a_balanced_room_deals_every_game_three_stones_and_the_first_move_passes_over() {
    let server = TestServer::start().await;
    let settings = caro_from(15, Rule::Caro, CaroOpening::Balanced);
    let (mut a, mut b, id) = two_players(&server, settings).await;
    // `two_players` read the first GameStarted; a spectator shows what it was.
    let mut c = server.connect("Chi").await;
    c.send(ClientMsg::ListRooms).await;
    let rooms = c.rooms().await;
    assert_eq!(rooms.len(), 1);
    assert!(matches!(
        rooms[0].settings.game,
        GameSettings::Caro {
            opening: CaroOpening::Balanced,
            ..
        }
    ));
    let first = c.watch(id).await.game.expect("a game");
    assert_eq!(first.opening.len(), 3);
    assert_eq!(first.first, Seat::One);
    // Seat One plays O: a point of the opening is refused, a free one is taken.
    a.play(first.opening[0].x, first.opening[0].y).await;
    refused(&mut a, ErrorCode::Occupied).await;
    let free = free_point(&first.opening);
    exchange(&mut a, &mut b, free.x, free.y).await;
    // Bình answers (a resignation before both sides moved would abort the game).
    assert!(!first.opening.contains(&p(13, 13)));
    exchange(&mut b, &mut a, 13, 13).await;

    // Game 2 (a rematch after a resignation) gets its own three stones, Bình first.
    a.send(ClientMsg::Resign).await;
    for who in [&mut a, &mut b] {
        assert_eq!(who.game_over().await.reason, EndReason::Resign);
    }
    a.send(ClientMsg::Offer(OfferKind::NewGame)).await;
    b.recv_until(|m| matches!(m, ServerMsg::Offered(_))).await;
    b.send(ClientMsg::Answer {
        kind: OfferKind::NewGame,
        accept: true,
    })
    .await;
    let mut second = None;
    for who in [&mut a, &mut b, &mut c] {
        let game = who.game_started().await;
        assert_eq!((game.number, game.first), (2, Seat::Two));
        assert_eq!(game.opening.len(), 3);
        assert!(game.moves.is_empty());
        if let Some(seen) = &second {
            assert_eq!(&game.opening, seen, "everyone sees the same stones");
        }
        second = Some(game.opening);
    }
    let second = second.expect("three views");
    a.play(free_point(&second).x, free_point(&second).y).await;
    refused(&mut a, ErrorCode::NotYourTurn).await;
    let free = free_point(&second);
    exchange(&mut b, &mut a, free.x, free.y).await;
    server.stop().await;
}

/// A point near the corner that no opening stone (all within two of the centre) takes.
fn free_point(opening: &[Point]) -> Point {
    let free = p(1, 1);
    assert!(!opening.contains(&free));
    free
}

#[tokio::test]
async fn the_bot_blocks_a_four_that_exists_only_in_the_opening() {
    let server = TestServer::start().await;
    // X's four on row 7 (5..=8) closed by O at 4,7; O (the bot, first to move) must
    // take 9,7 (freestyle, so blocking the far end is the only defence).
    let stones = vec![
        p(5, 7),
        p(4, 7),
        p(6, 7),
        p(0, 0),
        p(7, 7),
        p(14, 14),
        p(8, 7),
    ];
    for level in [Level::Easy, Level::Hard] {
        let mut me = server.connect(&format!("An {level}")).await;
        let settings = RoomSettings {
            first: FirstMove::Them,
            seats: [SeatKind::Human, SeatKind::Bot(level)],
            ..caro_from(15, Rule::Freestyle, CaroOpening::Stones(stones.clone()))
        };
        let (_, view) = me.create(settings).await;
        assert_eq!(view.you, Role::Player(Seat::One));
        let game = me.game_started().await;
        assert_eq!((game.first, game.opening.len()), (Seat::Two, 7));
        let (point, ply) = me.moved().await;
        assert_eq!((point, ply), (p(9, 7), 1), "{level} must block the four");
        me.send(ClientMsg::Resign).await;
        me.game_over().await;
        me.send(ClientMsg::LeaveRoom).await;
        me.recv_until(|m| matches!(m, ServerMsg::Left)).await;
    }
    server.stop().await;
}

#[tokio::test]
async fn a_game_from_a_dealt_opening_carries_on_after_a_restart_with_its_stones() {
    let dir = TempDir::new("opening-restart");
    let db = dir.path().join("banco.db");
    let config = || Config {
        store: StoreLocation::File(db.clone()),
        ..test_config()
    };
    let server = TestServer::with_config(config()).await;
    let settings = caro_from(15, Rule::Caro, CaroOpening::Balanced);
    let (mut a, mut b, _) = two_players(&server, settings).await;
    let mut c = server.connect("Chi").await;
    c.send(ClientMsg::ListRooms).await;
    let id = c.rooms().await[0].id;
    let dealt = c.watch(id).await.game.expect("a game").opening;
    exchange(&mut a, &mut b, 1, 1).await;
    let (token_a, token_b) = (a.token(), b.token());
    server.stop().await;
    a.closed().await;
    b.closed().await;

    let server = TestServer::with_config(config()).await;
    let mut a = server.reconnect("An", token_a).await;
    let game = a.joined().await.game.expect("the game in progress");
    assert_eq!(game.opening, dealt, "the same stones, not a fresh deal");
    assert_eq!(game.moves.len(), 1);
    let mut b = server.reconnect("Bình", token_b).await;
    b.joined().await;
    exchange(&mut b, &mut a, 13, 13).await;
    a.send(ClientMsg::Resign).await;
    a.game_over().await;
    let id = history_first(&mut a).await;
    let record = replay(&mut a, id).await;
    assert_eq!(record.opening, dealt);
    assert_eq!(record.moves.len(), 2);
    server.stop().await;
}
