//! Playing the server's bot: every level to the end, undo granted at once, hints, and
//! rooms where two bots play while people watch.

use banco_protocol::{
    CaroOpening, ClientMsg, EndReason, ErrorCode, FirstMove, Level, Move, OfferKind, Point, Role,
    RoomSettings, Rule, Seat, SeatKind, ServerMsg,
};
use banco_tests::{Client, TestServer, caro, caro_from, vs_bot};

/// Points far from the centre, two apart, so the person never threatens anything.
fn careless_moves() -> impl Iterator<Item = (u8, u8)> {
    (0..15u8)
        .step_by(2)
        .flat_map(|y| (0..15u8).step_by(2).map(move |x| (x, y)))
        .filter(|&(x, y)| !(4..=10).contains(&x) || !(4..=10).contains(&y))
}

/// Plays carelessly against the bot until the game ends; returns how it ended.
async fn lose_to_the_bot(me: &mut Client) -> banco_protocol::GameOver {
    let mut board = std::collections::HashSet::new();
    let mut mine = careless_moves();
    loop {
        // My turn: play the next careless point that is still free.
        let (x, y) = mine
            .by_ref()
            .find(|p| !board.contains(p))
            .expect("the bot wins long before the careless points run out");
        me.play(x, y).await;
        // My move, then the bot's (or the end).
        loop {
            match me.recv().await {
                ServerMsg::Moved { record, .. } => {
                    let Move::Caro(p) = record.mv else {
                        panic!("a caro move")
                    };
                    board.insert((p.x, p.y));
                    if record.by == Seat::Two {
                        break;
                    }
                }
                ServerMsg::GameOver(over) => return over,
                ServerMsg::Clock(_) | ServerMsg::People { .. } => {}
                other => panic!("unexpected {other:?}"),
            }
        }
    }
}

#[tokio::test]
async fn every_level_beats_a_careless_player() {
    let server = TestServer::start().await;
    for level in Level::ALL {
        let mut me = server.connect(&format!("victim {level}")).await;
        let (_, view) = me.create(vs_bot(15, level)).await;
        assert_eq!(view.you, Role::Player(Seat::One));
        let bot = view.seats[1].as_ref().expect("the bot sits in seat Two");
        assert_eq!(bot.bot, Some(level));
        let started = me.game_started().await;
        assert_eq!(started.first, Seat::One);
        let over = lose_to_the_bot(&mut me).await;
        assert_eq!(over.winner, Some(Seat::Two), "{level}");
        assert_eq!(over.reason, EndReason::Five, "{level}");
        assert_eq!(over.line.len(), 5);
    }
    server.stop().await;
}

/// The bot's next move (skipping the echo of mine).
async fn bots_move(me: &mut Client) -> Point {
    match me
        .recv_until(|m| matches!(m, ServerMsg::Moved { record, .. } if record.by == Seat::Two))
        .await
    {
        ServerMsg::Moved {
            record: banco_protocol::MoveRecord {
                mv: Move::Caro(p), ..
            },
            ..
        } => p,
        other => panic!("expected the bot's stone, got {other:?}"),
    }
}

#[tokio::test]
async fn the_bot_resigns_once_its_search_has_proved_it_lost() {
    let server = TestServer::start().await;
    let p = Point::new;
    // X (the person, to move): a three on row 7 closed by O at (3,7), and two on column
    // 7. X at (7,7) makes a four and an open three at once: O must block the four at
    // (8,7) (a forced block, which the bot plays without proving anything), X makes the
    // three an open four at (7,10), and nothing saves O: the bot's search says so.
    let stones = vec![
        p(4, 7),
        p(3, 7),
        p(5, 7),
        p(0, 0),
        p(6, 7),
        p(14, 0),
        p(7, 8),
        p(0, 14),
        p(7, 9),
        p(14, 14),
    ];
    let mut me = server.connect("An").await;
    let settings = RoomSettings {
        first: FirstMove::Me,
        seats: [SeatKind::Human, SeatKind::Bot(Level::Hard)],
        ..caro_from(15, Rule::Freestyle, CaroOpening::Stones(stones))
    };
    me.create(settings).await;
    let started = me.game_started().await;
    assert_eq!(started.first, Seat::One);
    me.play(7, 7).await;
    assert_eq!(bots_move(&mut me).await, p(8, 7), "the bot blocks the four");
    me.play(7, 10).await;
    let over = me.game_over().await;
    assert_eq!(
        (over.winner, over.reason),
        (Some(Seat::One), EndReason::Resign),
        "facing an open four, the bot resigns: {over:?}"
    );
    server.stop().await;
}

#[tokio::test]
async fn the_bot_moves_first_when_told_to_and_accepts_a_rematch() {
    let server = TestServer::start().await;
    let mut me = server.connect("An").await;
    let settings = RoomSettings {
        first: banco_protocol::FirstMove::Them,
        ..vs_bot(15, Level::Easy)
    };
    me.create(settings).await;
    assert_eq!(me.game_started().await.first, Seat::Two);
    let (_, ply) = me.moved().await;
    assert_eq!(ply, 1, "the bot opened");
    // A move of our own, so resigning is a loss (before it, the game would be aborted).
    me.play(0, 0).await;
    me.saw(0, 0).await;
    me.send(ClientMsg::Resign).await;
    let over = me.game_over().await;
    assert_eq!(
        (over.winner, over.reason),
        (Some(Seat::Two), EndReason::Resign)
    );
    me.send(ClientMsg::Offer(OfferKind::NewGame)).await;
    let game = me.game_started().await;
    assert_eq!(
        (game.number, game.first),
        (2, Seat::One),
        "the first move passes over"
    );
    server.stop().await;
}

#[tokio::test]
async fn undo_against_the_bot_is_granted_at_once() {
    let server = TestServer::start().await;
    let mut me = server.connect("An").await;
    me.create(vs_bot(15, Level::Medium)).await;
    me.game_started().await;
    me.send(ClientMsg::Offer(OfferKind::Undo)).await;
    me.expect_error(ErrorCode::NothingToUndo).await;
    me.play(0, 0).await;
    me.saw(0, 0).await;
    let (reply, _) = me.moved().await;
    me.send(ClientMsg::Offer(OfferKind::Undo)).await;
    assert_eq!(
        me.recv().await,
        ServerMsg::Offered(banco_protocol::Offer {
            kind: OfferKind::Undo,
            by: Seat::One
        })
    );
    match me.recv().await {
        ServerMsg::Undone { plies, .. } => assert_eq!(plies, 2),
        other => panic!("expected Undone, got {other:?}"),
    }
    // Both stones are gone: the points are free again and it is my move.
    me.play(reply.x, reply.y).await;
    me.saw(reply.x, reply.y).await;
    server.stop().await;
}

#[tokio::test]
async fn hints_for_the_player_to_move() {
    let server = TestServer::start().await;
    let mut me = server.connect("An").await;
    let mut waiting = server.connect("Dũng").await;
    waiting.create(caro(15)).await;
    waiting.send(ClientMsg::Hint).await;
    waiting.expect_error(ErrorCode::NoGame).await;

    me.create(vs_bot(15, Level::Easy)).await;
    me.game_started().await;
    me.send(ClientMsg::Hint).await;
    let hint = match me.recv().await {
        ServerMsg::Hint(Move::Caro(p)) => p,
        other => panic!("expected a hint, got {other:?}"),
    };
    // The hint is a legal move: play it.
    me.play(hint.x, hint.y).await;
    me.saw(hint.x, hint.y).await;

    // A room without hints refuses them; so does a spectator's request.
    let mut other = server.connect("Bình").await;
    let (id, _) = other
        .create(RoomSettings {
            hints: false,
            ..caro(15)
        })
        .await;
    other.send(ClientMsg::Hint).await;
    other.expect_error(ErrorCode::HintsOff).await;
    let mut third = server.connect("Chi").await;
    third.join(id).await;
    other.game_started().await;
    third.game_started().await;
    other.send(ClientMsg::Hint).await;
    other.expect_error(ErrorCode::HintsOff).await;
    third.send(ClientMsg::Hint).await;
    third.expect_error(ErrorCode::HintsOff).await;
    server.stop().await;
}

#[tokio::test]
async fn two_bots_play_while_people_watch() {
    let server = TestServer::start().await;
    let mut me = server.connect("An").await;
    let settings = RoomSettings {
        seats: [SeatKind::Bot(Level::Hard), SeatKind::Bot(Level::Easy)],
        ..caro(9)
    };
    let (id, view) = me.create(settings).await;
    assert_eq!(view.you, Role::Spectator);
    let started = me.game_started().await;
    assert_eq!(started.number, 1);
    let mut friend = server.connect("Bình").await;
    let view = friend.watch(id).await;
    assert_eq!(view.spectators, ["~An", "~Bình"]);
    // Spectators can chat but not play.
    friend.play(0, 0).await;
    friend.expect_error(ErrorCode::NotAPlayer).await;
    let over = me.game_over().await;
    assert!(
        over.reason == EndReason::Five || over.reason == EndReason::Draw,
        "{over:?}"
    );
    assert_eq!(friend.game_over().await, over);
    // Once it is over, whoever watches may start the next one.
    friend.send(ClientMsg::Offer(OfferKind::NewGame)).await;
    let next = me.game_started().await;
    assert_eq!((next.number, next.first), (2, started.first.other()));
    server.stop().await;
}
