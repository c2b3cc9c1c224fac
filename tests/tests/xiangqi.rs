//! Xiangqi rooms through the server: whole games to checkmate, games from a FEN, the
//! rules' refusals, stalemate, draws by agreement and by repetition, perpetual check, the
//! clocks, undo, the bot seat and hints, a restart, and the records.

use std::time::Duration;

use banco_protocol::{
    ClientMsg, EndReason, ErrorCode, FirstMove, GameSettings, Level, Move, OfferKind, Point, Role,
    RoomSettings, Seat, SeatKind, ServerMsg, TimeControl, XqSquare,
};
use banco_server::{Config, StoreLocation};
use banco_tests::{
    Client, TempDir, TestServer, exchange_xq, iccs, test_config, two_players, xiangqi, xq,
};

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Plays `moves` (ICCS, space-separated) in turn, `first` moving first.
async fn play_line(first: &mut Client, second: &mut Client, moves: &str) {
    for (i, mv) in moves.split_whitespace().enumerate() {
        if i % 2 == 0 {
            exchange_xq(first, second, mv).await;
        } else {
            exchange_xq(second, first, mv).await;
        }
    }
}

async fn accept(c: &mut Client, kind: OfferKind) {
    c.recv_until(|m| matches!(m, ServerMsg::Offered(o) if o.kind == kind))
        .await;
    c.send(ClientMsg::Answer { kind, accept: true }).await;
}

#[tokio::test]
async fn a_scripted_mate_through_the_server_with_wxf_and_check() {
    let server = TestServer::start().await;
    let (mut a, mut b, id) = two_players(&server, xiangqi(None)).await;
    let mut c = server.connect("Chi").await;
    let view = c.watch(id).await;
    let game = view.game.expect("the game is running");
    assert_eq!(game.start_fen, START);
    assert_eq!(
        game.first,
        Seat::One,
        "the creator plays Red, who moves first"
    );

    // Red's b-file cannon takes c6 (over the c3 pawn); Black walls its own general in
    // and the cannon mates along rank 9, screened by the d9 advisor.
    let script = [
        ("b2c2", "C8.7", false),
        ("b7c7", "C2.3", false),
        ("c2c6", "C7+4", false),
        ("f9e8", "A6+5", false),
        ("c6c9", "C7+3", true),
    ];
    for (ply, (mv, wxf, check)) in script.into_iter().enumerate() {
        let (mover, other) = if ply % 2 == 0 {
            (&mut a, &mut b)
        } else {
            (&mut b, &mut a)
        };
        let record = exchange_xq(mover, other, mv).await;
        assert_eq!((record.wxf.as_str(), record.check), (wxf, check), "{mv}");
        let by = if ply % 2 == 0 { Seat::One } else { Seat::Two };
        assert_eq!(record.by, by);
        let (seen, n) = c.moved_xq().await;
        assert_eq!((seen, n), (record, ply as u32 + 1));
    }
    for who in [&mut a, &mut b, &mut c] {
        let over = who.game_over().await;
        assert_eq!(
            (over.winner, over.reason),
            (Some(Seat::One), EndReason::Checkmate)
        );
        assert!(over.line.is_empty());
    }
    b.play_xq("e9f9").await;
    b.expect_error(ErrorCode::GameOver).await;

    // The records keep it: start position, moves, WXF and check flags.
    c.send(ClientMsg::History { player: None }).await;
    let ServerMsg::History(games) = c.recv_until(|m| matches!(m, ServerMsg::History(_))).await
    else {
        unreachable!()
    };
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].game, GameSettings::Xiangqi { fen: None });
    assert_eq!(games[0].over.reason, EndReason::Checkmate);
    c.send(ClientMsg::Replay(games[0].id)).await;
    let ServerMsg::Replay(record) = c.recv_until(|m| matches!(m, ServerMsg::Replay(_))).await
    else {
        unreachable!()
    };
    assert_eq!(record.start_fen, START);
    let replayed: Vec<(String, String, bool)> = record
        .moves
        .iter()
        .map(|r| (iccs(r.mv), r.wxf.clone(), r.check))
        .collect();
    let expected: Vec<(String, String, bool)> = script
        .iter()
        .map(|(m, w, c)| (m.to_string(), w.to_string(), *c))
        .collect();
    assert_eq!(replayed, expected);
    server.stop().await;
}

#[tokio::test]
async fn illegal_out_of_turn_and_foreign_moves_are_refused_and_change_nothing() {
    let server = TestServer::start().await;
    // Red's e1 chariot is pinned by Black's e8 chariot; the generals are on d9 and e0.
    let fen = "3k5/4r4/9/9/9/9/9/9/4R4/4K4 w";
    let (mut a, mut b, id) = two_players(&server, xiangqi(Some(fen))).await;
    b.play_xq("d9e9").await;
    let e = b.expect_error(ErrorCode::NotYourTurn).await;
    assert!(e.message.contains("opponent's turn"), "{}", e.message);
    let refusals: [(Move, ErrorCode, &str); 6] = [
        (xq("e8e7"), ErrorCode::IllegalMove, "black's"),
        (
            xq("e1d1"),
            ErrorCode::IllegalMove,
            "leave your general in check",
        ),
        (xq("e0f1"), ErrorCode::IllegalMove, "stays in its palace"),
        (xq("e1e0"), ErrorCode::IllegalMove, "own"),
        (
            Move::Xiangqi {
                from: XqSquare { file: 4, rank: 1 },
                to: XqSquare { file: 9, rank: 1 },
            },
            ErrorCode::OutOfBounds,
            "off the xiangqi board",
        ),
        (
            Move::Caro(Point::new(4, 1)),
            ErrorCode::IllegalMove,
            "this room plays xiangqi",
        ),
    ];
    for (mv, code, words) in refusals {
        a.send(ClientMsg::Move(mv)).await;
        let e = a.expect_error(code).await;
        assert!(e.message.contains(words), "{mv:?}: {}", e.message);
    }
    // A spectator cannot move either.
    let mut c = server.connect("Chi").await;
    let view = c.watch(id).await;
    assert!(view.game.unwrap().moves.is_empty(), "nothing changed");
    c.play_xq("e1e5").await;
    c.expect_error(ErrorCode::NotAPlayer).await;
    // The pinned chariot may still move along the pin, and takes the pinner.
    let record = exchange_xq(&mut a, &mut b, "e1e8").await;
    assert_eq!(record.wxf, "R5+7");
    // Which leaves Black's general no move at all, and a stalemated side loses.
    let over = b.game_over().await;
    assert_eq!(
        (over.winner, over.reason),
        (Some(Seat::One), EndReason::Stalemate)
    );
    b.play_xq("d9e9").await;
    b.expect_error(ErrorCode::GameOver).await;
    server.stop().await;
}

#[tokio::test]
async fn a_game_from_a_fen_and_the_rematch_passes_the_first_move() {
    let server = TestServer::start().await;
    let mut a = server.connect("An").await;
    // A malformed or decided position is refused with the rules' reason.
    for (fen, words) in [
        ("rnbakabnr/9/9 w", "10 ranks"),
        ("3k5/9/9/9/9/9/9/9/9/4K4 w", "already decided"),
    ] {
        a.send(ClientMsg::CreateRoom(xiangqi(Some(fen)))).await;
        let e = a.expect_error(ErrorCode::BadSettings).await;
        assert!(e.message.contains(words), "{fen}: {}", e.message);
    }

    // Black to move: the creator moves first, so plays Black.
    let fen = "3k5/9/9/9/9/9/1r7/9/r8/4K4 b";
    let mut b = server.connect("Bình").await;
    let (id, _) = a.create(xiangqi(Some(fen))).await;
    b.join(id).await;
    let first = a.game_started().await;
    assert_eq!(b.game_started().await, first);
    assert_eq!(first.first, Seat::One);
    assert_eq!(first.start_fen, "3k5/9/9/9/9/9/1r7/9/r8/4K4 b - - 0 1");
    b.play_xq("e0d0").await;
    b.expect_error(ErrorCode::NotYourTurn).await;
    let mate = exchange_xq(&mut a, &mut b, "b3b0").await;
    assert!(mate.check);
    let over = a.game_over().await;
    assert_eq!(
        (over.winner, over.reason),
        (Some(Seat::One), EndReason::Checkmate)
    );
    b.game_over().await;

    // The rematch starts from the same position with Bình to move, so Bình plays Black.
    b.send(ClientMsg::Offer(OfferKind::NewGame)).await;
    accept(&mut a, OfferKind::NewGame).await;
    let second = a.game_started().await;
    b.game_started().await;
    assert_eq!((second.number, second.first), (2, Seat::Two));
    assert_eq!(second.start_fen, first.start_fen);
    a.play_xq("b3b0").await;
    a.expect_error(ErrorCode::NotYourTurn).await;
    let mate = exchange_xq(&mut b, &mut a, "b3b0").await;
    assert_eq!(mate.by, Seat::Two);
    assert_eq!(a.game_over().await.winner, Some(Seat::Two));
    server.stop().await;
}

#[tokio::test]
async fn a_draw_offer_declined_then_agreed() {
    let server = TestServer::start().await;
    let (mut a, mut b, _) = two_players(&server, xiangqi(None)).await;
    play_line(&mut a, &mut b, "h2e2 h9g7").await;
    a.send(ClientMsg::Offer(OfferKind::Draw)).await;
    b.recv_until(|m| matches!(m, ServerMsg::Offered(_))).await;
    b.send(ClientMsg::Answer {
        kind: OfferKind::Draw,
        accept: false,
    })
    .await;
    a.recv_until(|m| matches!(m, ServerMsg::Declined(_))).await;
    exchange_xq(&mut a, &mut b, "h0g2").await;
    b.send(ClientMsg::Offer(OfferKind::Draw)).await;
    accept(&mut a, OfferKind::Draw).await;
    for who in [&mut a, &mut b] {
        let over = who.game_over().await;
        assert_eq!((over.winner, over.reason), (None, EndReason::Agreement));
    }
    // Nothing to offer a draw on once the game is over.
    a.send(ClientMsg::Offer(OfferKind::Draw)).await;
    a.expect_error(ErrorCode::GameOver).await;
    server.stop().await;
}

#[tokio::test]
async fn perpetual_check_loses_and_a_quiet_repetition_draws() {
    let server = TestServer::start().await;
    // Red's chariot checks from d1 and e1 in turn while Black's general steps aside.
    let fen = "3k5/9/9/9/9/9/9/9/R8/5K3 w";
    let (mut a, mut b, _) = two_players(&server, xiangqi(Some(fen))).await;
    play_line(&mut a, &mut b, "a1d1 d9e9 d1e1 e9d9 e1d1 d9e9 d1e1 e9d9").await;
    exchange_xq(&mut a, &mut b, "e1d1").await;
    let over = a.game_over().await;
    assert_eq!(
        (over.winner, over.reason),
        (Some(Seat::Two), EndReason::PerpetualCheck)
    );
    b.game_over().await;

    let (mut c, mut d, _) = {
        let mut c = server.connect("Chi").await;
        let mut d = server.connect("Dũng").await;
        let (id, _) = c.create(xiangqi(None)).await;
        d.join(id).await;
        c.game_started().await;
        d.game_started().await;
        (c, d, id)
    };
    play_line(&mut c, &mut d, "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0").await;
    exchange_xq(&mut d, &mut c, "g7h9").await;
    let over = c.game_over().await;
    assert_eq!((over.winner, over.reason), (None, EndReason::Repetition));
    server.stop().await;
}

#[tokio::test]
async fn sixty_quiet_moves_and_bare_defenders_draw() {
    let server = TestServer::start().await;
    // 118 plies without a capture already: two more quiet ones end it.
    let fen = "3k5/9/9/9/9/9/P8/9/9/4K4 w - - 118 60";
    let (mut a, mut b, _) = two_players(&server, xiangqi(Some(fen))).await;
    play_line(&mut a, &mut b, "a3a4 d9d8").await;
    let over = a.game_over().await;
    assert_eq!((over.winner, over.reason), (None, EndReason::SixtyMoves));

    // Black's advisor takes Red's last attacker: nobody can attack any more.
    let mut c = server.connect("Chi").await;
    let mut d = server.connect("Dũng").await;
    let (id, _) = c
        .create(xiangqi(Some("3ak4/4P4/9/9/9/9/9/9/9/3AK4 b")))
        .await;
    d.join(id).await;
    c.game_started().await;
    d.game_started().await;
    exchange_xq(&mut c, &mut d, "d9e8").await;
    let over = d.game_over().await;
    assert_eq!((over.winner, over.reason), (None, EndReason::NoMaterial));
    server.stop().await;
}

#[tokio::test]
async fn undo_takes_back_to_the_askers_turn() {
    let server = TestServer::start().await;
    let (mut a, mut b, id) = two_players(&server, xiangqi(None)).await;
    play_line(&mut a, &mut b, "h2e2 h9g7").await;
    a.send(ClientMsg::Offer(OfferKind::Undo)).await;
    accept(&mut b, OfferKind::Undo).await;
    for who in [&mut a, &mut b] {
        match who
            .recv_until(|m| matches!(m, ServerMsg::Undone { .. }))
            .await
        {
            ServerMsg::Undone { plies, .. } => assert_eq!(plies, 2),
            _ => unreachable!(),
        }
    }
    // Red moves again, something else this time.
    let record = exchange_xq(&mut a, &mut b, "b2e2").await;
    assert_eq!(record.wxf, "C8.5");
    let mut c = server.connect("Chi").await;
    let game = c.watch(id).await.game.unwrap();
    assert_eq!(game.moves.len(), 1);
    assert_eq!(iccs(game.moves[0].mv), "b2e2");
    server.stop().await;
}

#[tokio::test]
async fn running_out_of_time_loses() {
    let server = TestServer::start().await;
    let settings = RoomSettings {
        time: TimeControl::per_move(Duration::from_secs(1)),
        ..xiangqi(None)
    };
    let (mut a, mut b, _) = two_players(&server, settings).await;
    // The clocks start once both sides have moved.
    exchange_xq(&mut a, &mut b, "h2e2").await;
    exchange_xq(&mut b, &mut a, "h9g7").await;
    exchange_xq(&mut a, &mut b, "h0g2").await;
    // Black never answers.
    for who in [&mut a, &mut b] {
        let over = who.game_over().await;
        assert_eq!(
            (over.winner, over.reason),
            (Some(Seat::One), EndReason::Timeout)
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn the_bot_answers_every_move_hints_are_legal_and_resigning_ends_it() {
    let server = TestServer::start().await;
    let mut a = server.connect("An").await;
    let settings = RoomSettings {
        seats: [SeatKind::Human, SeatKind::Bot(Level::Medium)],
        ..xiangqi(None)
    };
    let (_, view) = a.create(settings).await;
    assert_eq!(view.you, Role::Player(Seat::One));
    a.game_started().await;
    for ply in [1u32, 3, 5] {
        a.send(ClientMsg::Hint).await;
        let hint = match a.recv_until(|m| matches!(m, ServerMsg::Hint(_))).await {
            ServerMsg::Hint(mv) => mv,
            _ => unreachable!(),
        };
        a.send(ClientMsg::Move(hint)).await;
        let (mine, n) = a.moved_xq().await;
        assert_eq!((mine.mv, mine.by, n), (hint, Seat::One, ply));
        let (reply, n) = a.moved_xq().await;
        assert_eq!((reply.by, n), (Seat::Two, ply + 1));
        assert!(!reply.wxf.is_empty());
    }
    a.send(ClientMsg::Resign).await;
    let over = a.game_over().await;
    assert_eq!(
        (over.winner, over.reason),
        (Some(Seat::Two), EndReason::Resign)
    );
    server.stop().await;
}

#[tokio::test]
async fn two_bots_play_a_xiangqi_endgame_to_its_end() {
    let server = TestServer::start().await;
    let mut watcher = server.connect("Chi").await;
    // Two chariots against a bare general: Red should mate quickly, and must end the
    // game one way or another (mate, repetition, sixty moves).
    let settings = RoomSettings {
        seats: [SeatKind::Bot(Level::Hard), SeatKind::Bot(Level::Hard)],
        first: FirstMove::Me,
        ..xiangqi(Some("3k5/9/9/9/9/9/9/9/R8/R3K4 w"))
    };
    let (_, view) = watcher.create(settings).await;
    assert_eq!(view.you, Role::Spectator);
    let mut moves = 0;
    let over = loop {
        match watcher.recv().await {
            ServerMsg::Moved { record, .. } => {
                moves += 1;
                assert!(!record.wxf.is_empty());
            }
            ServerMsg::GameOver(over) => break over,
            _ => {}
        }
    };
    assert!(moves > 0);
    assert_eq!(
        (over.winner, over.reason),
        (Some(Seat::One), EndReason::Checkmate),
        "two chariots mate a bare general ({moves} plies)"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_xiangqi_game_survives_a_restart_and_is_kept_with_its_position() {
    let dir = TempDir::new("xiangqi-restart");
    let db = dir.path().join("banco.db");
    let config = || Config {
        store: StoreLocation::File(db.clone()),
        ..test_config()
    };
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";
    let server = TestServer::with_config(config()).await;
    let (mut a, mut b, _) = two_players(&server, xiangqi(Some(fen))).await;
    play_line(&mut a, &mut b, "h7e7 h2e2").await;
    let (ta, tb) = (a.token(), b.token());
    server.stop().await;
    a.closed().await;
    b.closed().await;

    let server = TestServer::with_config(config()).await;
    let mut a = server.reconnect("An", ta).await;
    let game = a.joined().await.game.unwrap();
    assert_eq!(game.start_fen, fen);
    let wxf: Vec<&str> = game.moves.iter().map(|r| r.wxf.as_str()).collect();
    assert_eq!(wxf, ["C8.5", "C2.5"]);
    let mut b = server.reconnect("Bình", tb).await;
    b.joined().await;
    exchange_xq(&mut a, &mut b, "b9c7").await;
    b.send(ClientMsg::Resign).await;
    a.game_over().await;

    a.send(ClientMsg::History { player: None }).await;
    let ServerMsg::History(games) = a.recv_until(|m| matches!(m, ServerMsg::History(_))).await
    else {
        unreachable!()
    };
    assert_eq!(games.len(), 1);
    a.send(ClientMsg::Replay(games[0].id)).await;
    let ServerMsg::Replay(record) = a.recv_until(|m| matches!(m, ServerMsg::Replay(_))).await
    else {
        unreachable!()
    };
    assert_eq!(record.start_fen, fen);
    assert_eq!(
        record.moves.iter().map(|r| iccs(r.mv)).collect::<Vec<_>>(),
        ["h7e7", "h2e2", "b9c7"]
    );
    assert_eq!(
        record.moves[0].by,
        Seat::One,
        "seat One played Black, first"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_game_against_the_bot_carries_on_after_a_restart() {
    let dir = TempDir::new("xiangqi-bot-restart");
    let db = dir.path().join("banco.db");
    let config = || Config {
        store: StoreLocation::File(db.clone()),
        ..test_config()
    };
    let settings = RoomSettings {
        seats: [SeatKind::Human, SeatKind::Bot(Level::Easy)],
        time: TimeControl::clock(Duration::from_secs(600), Duration::ZERO),
        ..xiangqi(None)
    };
    let server = TestServer::with_config(config()).await;
    let mut a = server.connect("An").await;
    a.create(settings).await;
    a.game_started().await;
    exchange_alone(&mut a, "h2e2").await;
    let (reply, _) = a.moved_xq().await;
    assert_eq!(reply.by, Seat::Two);
    let token = a.token();
    server.stop().await;
    a.closed().await;

    let server = TestServer::with_config(config()).await;
    let mut a = server.reconnect("An", token).await;
    let view = a.joined().await;
    let game = view.game.unwrap();
    assert_eq!(game.moves.len(), 2);
    assert_eq!(game.moves[1], reply);
    // An is back, the bot never left: the clock runs again, An to move.
    match a.recv_until(|m| matches!(m, ServerMsg::Clock(_))).await {
        ServerMsg::Clock(c) => assert_eq!(c.running, Some(Seat::One)),
        _ => unreachable!(),
    }
    a.send(ClientMsg::Hint).await;
    let ServerMsg::Hint(hint) = a.recv_until(|m| matches!(m, ServerMsg::Hint(_))).await else {
        unreachable!()
    };
    exchange_alone(&mut a, &iccs(hint)).await;
    let (reply, ply) = a.moved_xq().await;
    assert_eq!(
        (reply.by, ply),
        (Seat::Two, 4),
        "the bot plays on after the restart"
    );
    a.send(ClientMsg::Resign).await;
    assert_eq!(a.game_over().await.winner, Some(Seat::Two));
    server.stop().await;
}

/// `c` plays `text` against the bot and sees it played.
async fn exchange_alone(c: &mut Client, text: &str) {
    c.play_xq(text).await;
    let (record, _) = c.moved_xq().await;
    assert_eq!(iccs(record.mv), text);
}

#[tokio::test]
async fn the_bot_plays_on_from_an_even_position_and_takes_a_draw_when_lost() {
    let server = TestServer::start().await;
    let mut a = server.connect("An").await;
    let settings = RoomSettings {
        seats: [SeatKind::Human, SeatKind::Bot(Level::Easy)],
        ..xiangqi(None)
    };
    a.create(settings).await;
    a.game_started().await;
    exchange_alone(&mut a, "h2e2").await;
    a.moved_xq().await;
    a.send(ClientMsg::Offer(OfferKind::Draw)).await;
    a.recv_until(|m| matches!(m, ServerMsg::Declined(_))).await;

    // Two chariots against a bare general: the bot, clearly lost, takes the draw.
    let settings = RoomSettings {
        seats: [SeatKind::Human, SeatKind::Bot(Level::Easy)],
        ..xiangqi(Some("3k5/9/9/9/9/9/9/9/9/RR2K4 w - - 0 1"))
    };
    let mut b = server.connect("Binh").await;
    b.create(settings).await;
    b.game_started().await;
    exchange_alone(&mut b, "b0b1").await;
    b.moved_xq().await;
    b.send(ClientMsg::Offer(OfferKind::Draw)).await;
    let over = b.game_over().await;
    assert_eq!((over.winner, over.reason), (None, EndReason::Agreement));
    server.stop().await;
}
