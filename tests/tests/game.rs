//! Whole caro games between two people, watched by a spectator.

use banco_protocol::{
    ClientMsg, EndReason, ErrorCode, FirstMove, GameSettings, Point, Role, RoomSettings, Rule,
    Seat, ServerMsg,
};
use banco_tests::{TestServer, caro, exchange, two_players};

#[tokio::test]
async fn a_full_game_to_a_five_is_seen_by_players_and_spectators() {
    let server = TestServer::start().await;
    let (mut a, mut b, id) = two_players(&server, caro(15)).await;
    let mut c = server.connect("Chi").await;
    let view = c.watch(id).await;
    assert_eq!(view.you, Role::Spectator);
    let seats: Vec<String> = view
        .seats
        .iter()
        .flatten()
        .map(|s| s.name.clone())
        .collect();
    assert_eq!(seats, ["An", "Bình"]);
    let game = view.game.expect("the game is running");
    assert_eq!(
        (game.number, game.first, game.moves.len()),
        (1, Seat::One, 0)
    );

    // An (X) builds a row on line 7; Bình answers on line 9 and never blocks.
    let mut ply = 0;
    for i in 0..5u8 {
        a.play(i, 7).await;
        ply += 1;
        for who in [&mut a, &mut b, &mut c] {
            assert_eq!(who.moved().await, (Point::new(i, 7), ply));
        }
        if i == 4 {
            break;
        }
        b.play(i, 9).await;
        ply += 1;
        for who in [&mut a, &mut b, &mut c] {
            assert_eq!(who.moved().await, (Point::new(i, 9), ply));
        }
    }
    for who in [&mut a, &mut b, &mut c] {
        let over = who.game_over().await;
        assert_eq!(over.winner, Some(Seat::One));
        assert_eq!(over.reason, EndReason::Five);
        let line: Vec<Point> = (0..5).map(|x| Point::new(x, 7)).collect();
        assert_eq!(over.line, line);
    }
    // The game is over: no more moves.
    b.play(10, 10).await;
    b.expect_error(ErrorCode::GameOver).await;
    // Somebody coming in now sees the finished game.
    let mut d = server.connect("Dũng").await;
    let view = d.watch(id).await;
    let game = view.game.unwrap();
    assert_eq!(game.moves.len(), 9);
    assert_eq!(game.over.unwrap().reason, EndReason::Five);
    server.stop().await;
}

#[tokio::test]
async fn a_full_board_is_a_draw() {
    let server = TestServer::start().await;
    let settings = RoomSettings {
        game: GameSettings::Caro {
            width: 5,
            height: 5,
            rule: Rule::Freestyle,
            opening: banco_protocol::CaroOpening::None,
        },
        ..RoomSettings::default()
    };
    let (mut a, mut b, _) = two_players(&server, settings).await;
    // Rows alternate in pairs, so no line of five ever forms.
    let pattern = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"];
    let (mut xs, mut os) = (Vec::new(), Vec::new());
    for (y, row) in pattern.iter().enumerate() {
        for (x, stone) in row.chars().enumerate() {
            let p = (x as u8, y as u8);
            if stone == 'X' { xs.push(p) } else { os.push(p) }
        }
    }
    for i in 0..25 {
        if i % 2 == 0 {
            let (x, y) = xs[i / 2];
            exchange(&mut a, &mut b, x, y).await;
        } else {
            let (x, y) = os[i / 2];
            exchange(&mut b, &mut a, x, y).await;
        }
    }
    let over = a.game_over().await;
    assert_eq!((over.winner, over.reason), (None, EndReason::Draw));
    assert!(over.line.is_empty());
    assert_eq!(b.game_over().await, over);
    server.stop().await;
}

#[tokio::test]
async fn the_creator_can_give_the_first_move_away() {
    let server = TestServer::start().await;
    let settings = RoomSettings {
        first: FirstMove::Them,
        ..caro(15)
    };
    let mut a = server.connect("An").await;
    let mut b = server.connect("Bình").await;
    let (id, view) = a.create(settings).await;
    assert_eq!(view.you, Role::Player(Seat::One));
    assert!(view.game.is_none(), "no game until an opponent sits down");
    let view = b.join(id).await;
    assert_eq!(view.you, Role::Player(Seat::Two));
    let started = a.game_started().await;
    assert_eq!(started.first, Seat::Two);
    assert_eq!(b.game_started().await, started);
    a.play(7, 7).await;
    a.expect_error(ErrorCode::NotYourTurn).await;
    exchange(&mut b, &mut a, 7, 7).await;
    exchange(&mut a, &mut b, 8, 8).await;
    server.stop().await;
}

#[tokio::test]
async fn a_random_first_move_goes_to_one_of_the_seats() {
    let server = TestServer::start().await;
    let settings = RoomSettings {
        first: FirstMove::Random,
        ..caro(15)
    };
    let (mut a, mut b, _) = two_players(&server, settings).await;
    // Whoever was given the first move can make it; the other cannot.
    a.play(7, 7).await;
    match a.recv().await {
        ServerMsg::Moved { record, .. } => assert_eq!(record.by, Seat::One),
        ServerMsg::Error(e) => {
            assert_eq!(e.code, ErrorCode::NotYourTurn);
            b.send(ClientMsg::Move(banco_protocol::Move::Caro(Point::new(
                7, 7,
            ))))
            .await;
            let (p, ply) = b.moved().await;
            assert_eq!((p, ply), (Point::new(7, 7), 1));
        }
        other => panic!("unexpected {other:?}"),
    }
    server.stop().await;
}
