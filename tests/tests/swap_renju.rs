//! Swap openings and the renju rule against the real server: a Swap2 opening between
//! two people with each of the responder's three answers, the clock in the opening
//! phase, the bot proposing and answering, and renju's forbidden points refused with
//! the reason and listed for the browser page.

use banco_protocol::{
    CaroOpening, ClientMsg, EndReason, ErrorCode, FirstMove, GameView, Level, Point, RoomSettings,
    Rule, Seat, SeatKind, ServerMsg, SwapChoice, SwapStage, SwapView, TimeControl,
};
use banco_tests::{Client, TestServer, caro_from, exchange, two_players};

fn p(x: u8, y: u8) -> Point {
    Point::new(x, y)
}

/// The next swap update.
async fn swap(c: &mut Client) -> SwapView {
    match c.recv_until(|m| matches!(m, ServerMsg::Swap(_))).await {
        ServerMsg::Swap(view) => *view,
        _ => unreachable!(),
    }
}

/// `who` places an opening stone; both players see it.
async fn place(who: &mut Client, other: &mut Client, x: u8, y: u8) -> SwapView {
    who.play(x, y).await;
    let view = swap(who).await;
    assert_eq!(swap(other).await, view);
    assert_eq!(view.stones.last(), Some(&p(x, y)));
    view
}

/// `who` decides; both players see it.
async fn decide(who: &mut Client, other: &mut Client, choice: SwapChoice) -> SwapView {
    who.send(ClientMsg::Swap(choice)).await;
    let view = swap(who).await;
    assert_eq!(swap(other).await, view);
    view
}

fn swap2(rule: Rule) -> RoomSettings {
    caro_from(15, rule, CaroOpening::Swap2)
}

/// The proposer's three stones: X h8, O i9, X h10 (in x,y from the top left).
const THREE: [(u8, u8); 3] = [(7, 7), (8, 6), (7, 5)];

#[tokio::test]
async fn swap2_between_two_players_with_each_of_the_three_answers() {
    let server = TestServer::start().await;
    for answer in [SwapChoice::White, SwapChoice::Black, SwapChoice::PlaceTwo] {
        let (mut a, mut b, _) = two_players_fresh(&server, answer).await;
        // An (seat One, who would move first) proposes.
        // Bình may not place the proposer's stones, nor decide yet.
        b.play(0, 0).await;
        b.expect_error(ErrorCode::NotYourTurn).await;
        b.send(ClientMsg::Swap(SwapChoice::White)).await;
        b.expect_error(ErrorCode::IllegalMove).await;
        let mut view = None;
        for (x, y) in THREE {
            view = Some(place(&mut a, &mut b, x, y).await);
        }
        let view = view.unwrap();
        assert_eq!(view.stage, SwapStage::Answer);
        assert_eq!(view.to_act, Some(Seat::Two));
        assert_eq!(
            view.choices,
            [SwapChoice::White, SwapChoice::Black, SwapChoice::PlaceTwo]
        );
        // A stone is no answer.
        b.play(0, 0).await;
        assert!(
            b.expect_error(ErrorCode::IllegalMove)
                .await
                .message
                .contains("decision")
        );
        let done = decide(&mut b, &mut a, answer).await;
        let (x_seat, stones) = match answer {
            SwapChoice::White | SwapChoice::Black => {
                assert_eq!(done.stage, SwapStage::Done);
                let x_seat = if answer == SwapChoice::White {
                    Seat::One
                } else {
                    Seat::Two
                };
                (x_seat, THREE.map(|(x, y)| p(x, y)).to_vec())
            }
            SwapChoice::PlaceTwo => {
                assert_eq!(done.stage, SwapStage::Extend);
                assert_eq!(done.to_act, Some(Seat::Two));
                place(&mut b, &mut a, 9, 9).await;
                let view = place(&mut b, &mut a, 5, 9).await;
                assert_eq!(view.stage, SwapStage::Choose);
                assert_eq!(view.to_act, Some(Seat::One));
                assert_eq!(view.choices, [SwapChoice::White, SwapChoice::Black]);
                a.send(ClientMsg::Swap(SwapChoice::PlaceTwo)).await;
                a.expect_error(ErrorCode::IllegalMove).await;
                let done = decide(&mut a, &mut b, SwapChoice::Black).await;
                assert_eq!(done.x_seat, Some(Seat::One));
                assert_eq!(done.steps.len(), 7, "five stones and two decisions");
                let mut stones: Vec<Point> = THREE.map(|(x, y)| p(x, y)).to_vec();
                stones.extend([p(9, 9), p(5, 9)]);
                (Seat::One, stones)
            }
        };
        // The game proper: the stones are its opening, and the seat with O moves first.
        let game: GameView = a.game_started().await;
        assert_eq!(b.game_started().await, game);
        assert_eq!(game.opening, stones);
        assert_eq!(game.first, x_seat.other());
        assert!(game.moves.is_empty());
        assert_eq!(
            game.swap.as_ref().map(|s| (s.stage, s.x_seat)),
            Some((SwapStage::Done, Some(x_seat)))
        );
        let (mut o, mut x) = if x_seat == Seat::One { (b, a) } else { (a, b) };
        x.play(0, 0).await;
        x.expect_error(ErrorCode::NotYourTurn).await;
        exchange(&mut o, &mut x, 0, 0).await;
        exchange(&mut x, &mut o, 14, 14).await;
        o.send(ClientMsg::Resign).await;
        let over = o.game_over().await;
        assert_eq!(over.winner, Some(x_seat));
        assert_eq!(over.reason, EndReason::Resign);
        // The replay keeps the opening as it was played, step by step.
        o.send(ClientMsg::History { player: None }).await;
        let id = match o.recv_until(|m| matches!(m, ServerMsg::History(_))).await {
            ServerMsg::History(games) => games[0].id,
            _ => unreachable!(),
        };
        o.send(ClientMsg::Replay(id)).await;
        let record = match o.recv_until(|m| matches!(m, ServerMsg::Replay(_))).await {
            ServerMsg::Replay(record) => record,
            _ => unreachable!(),
        };
        assert_eq!(record.opening, stones);
        assert_eq!(record.summary.first, x_seat.other());
        let swap = record.swap.expect("the swap opening is kept");
        assert_eq!(swap.x_seat, Some(x_seat));
        assert_eq!(
            swap.steps.len(),
            if answer == SwapChoice::PlaceTwo { 7 } else { 4 }
        );
    }
}

/// Two fresh accounts per round (`An-1`, `Bình-1`, ...) in a Swap2 room.
async fn two_players_fresh(
    server: &TestServer,
    round: SwapChoice,
) -> (Client, Client, banco_protocol::RoomId) {
    let tag = round.word();
    let mut a = server.player(&format!("An{tag}")).await;
    let mut b = server.player(&format!("Binh{tag}")).await;
    let (id, _) = a.create(swap2(Rule::Freestyle)).await;
    b.join(id).await;
    for c in [&mut a, &mut b] {
        let game = c.game_started().await;
        let swap = game.swap.expect("a swap opening");
        assert_eq!(swap.stage, SwapStage::Propose);
        assert_eq!(swap.proposer, Seat::One);
        assert_eq!(swap.to_act, Some(Seat::One));
        assert!(game.opening.is_empty());
    }
    (a, b, id)
}

#[tokio::test]
async fn each_step_of_the_opening_tells_the_clocks_with_the_next_actor_s_running() {
    let server = TestServer::start().await;
    let timed = RoomSettings {
        time: TimeControl::Clock {
            initial_millis: 60_000,
            increment_millis: 5_000,
        },
        ..swap2(Rule::Freestyle)
    };
    let (mut a, mut b, _) = two_players(&server, timed).await;
    for (i, (x, y)) in THREE.into_iter().enumerate() {
        a.play(x, y).await;
        for c in [&mut a, &mut b] {
            swap(c).await;
            let ServerMsg::Clock(clocks) = c.recv().await else {
                panic!("a Clock right after the Swap");
            };
            // The proposer places all three: their clock runs until the third, then the
            // responder's; each stone credits the proposer's increment.
            let running = if i < 2 { Seat::One } else { Seat::Two };
            assert_eq!(clocks.running, Some(running), "after stone {i}");
            assert!(
                clocks.remaining_ms[0] > 60_000,
                "the increment was credited: {clocks:?}"
            );
        }
    }
    b.send(ClientMsg::Swap(SwapChoice::Black)).await;
    for c in [&mut a, &mut b] {
        swap(c).await;
        let ServerMsg::Clock(clocks) = c.recv().await else {
            panic!("a Clock right after the decision");
        };
        // Bình took Black (X): An plays O and moves first.
        assert_eq!(clocks.running, Some(Seat::One));
    }
}

#[tokio::test]
async fn a_flag_falling_in_the_opening_loses_for_either_player() {
    let server = TestServer::start().await;
    let timed = RoomSettings {
        time: TimeControl::PerMove { millis: 1000 },
        ..swap2(Rule::Renju)
    };
    // The proposer places nothing: their time runs from the start, and they lose.
    let (mut a, mut b, _) = two_players(&server, timed.clone()).await;
    let over = b.game_over().await;
    assert_eq!(
        (over.winner, over.reason),
        (Some(Seat::Two), EndReason::Timeout)
    );
    a.game_over().await;

    // The responder does not answer: they lose.
    let mut a = server.player("Chi").await;
    let mut b = server.player("Dung").await;
    let (id, _) = a.create(timed).await;
    b.join(id).await;
    a.game_started().await;
    b.game_started().await;
    for (x, y) in THREE {
        place(&mut a, &mut b, x, y).await;
    }
    let over = a.game_over().await;
    assert_eq!(
        (over.winner, over.reason),
        (Some(Seat::One), EndReason::Timeout)
    );
}

#[tokio::test]
async fn the_bot_answers_a_swap2_opening_and_proposes_one() {
    let server = TestServer::start().await;
    // The person proposes; the bot decides, and the game goes on with the bot's colour.
    let vs_bot = RoomSettings {
        seats: [SeatKind::Human, SeatKind::Bot(Level::Easy)],
        ..swap2(Rule::Freestyle)
    };
    let mut a = server.connect("An").await;
    a.create(vs_bot.clone()).await;
    a.game_started().await;
    for (x, y) in THREE {
        a.play(x, y).await;
        swap(&mut a).await;
    }
    let decided = swap(&mut a).await;
    assert_eq!(decided.stage, SwapStage::Done);
    let game = a.game_started().await;
    assert_eq!(game.opening.len(), 3);
    let bot_has_o = decided.x_seat == Some(Seat::One);
    assert_eq!(game.first, if bot_has_o { Seat::Two } else { Seat::One });
    if bot_has_o {
        // The bot moves first with O.
        a.moved().await;
    }
    a.play(0, 0).await;
    assert_eq!(a.moved().await.0, p(0, 0));

    // The bot proposes (it moves first): three stones, then the person's decision.
    let mut b = server.connect("Bình").await;
    b.create(RoomSettings {
        first: FirstMove::Them,
        ..vs_bot
    })
    .await;
    let game = b.game_started().await;
    assert_eq!(game.swap.map(|s| s.proposer), Some(Seat::Two));
    let mut view = swap(&mut b).await;
    while view.stage == SwapStage::Propose {
        view = swap(&mut b).await;
    }
    assert_eq!(view.stones.len(), 3);
    assert_eq!(view.to_act, Some(Seat::One));
    b.send(ClientMsg::Swap(SwapChoice::White)).await;
    swap(&mut b).await;
    let game = b.game_started().await;
    assert_eq!(
        game.first,
        Seat::One,
        "the person took White and moves first"
    );
    b.play(0, 0).await;
    assert_eq!(b.moved().await.0, p(0, 0));
    // The bot answers as Black.
    b.moved().await;
}

#[tokio::test]
async fn renju_refuses_black_a_double_three_with_the_reason() {
    let server = TestServer::start().await;
    let (mut a, mut b, _) =
        two_players(&server, caro_from(15, Rule::Renju, CaroOpening::None)).await;
    // An is Black (X): f8 g8 i7 i6 (x,y: 5,7 6,7 8,8 8,9); Bình far away.
    for ((x, y), (ox, oy)) in [
        ((5, 7), (0, 0)),
        ((6, 7), (0, 2)),
        ((8, 8), (0, 4)),
        ((8, 9), (0, 6)),
    ] {
        exchange(&mut a, &mut b, x, y).await;
        exchange(&mut b, &mut a, ox, oy).await;
    }
    // The page asks the server: i8 is listed as forbidden to Black, with why.
    a.send(ClientMsg::Facts).await;
    let facts = match a.recv_until(|m| matches!(m, ServerMsg::Facts(_))).await {
        ServerMsg::Facts(f) => f,
        _ => unreachable!(),
    };
    assert!(
        facts
            .forbidden
            .iter()
            .any(|f| f.point == p(8, 7) && f.foul == banco_protocol::Foul::DoubleThree),
        "{:?}",
        facts.forbidden
    );
    a.play(8, 7).await;
    let e = a.expect_error(ErrorCode::IllegalMove).await;
    assert!(e.message.starts_with("double three at i8"), "{}", e.message);
    // Nothing changed: another point is fine, and White may play i8.
    exchange(&mut a, &mut b, 14, 14).await;
    exchange(&mut b, &mut a, 8, 7).await;
}

#[tokio::test]
async fn a_restart_keeps_a_decided_swap_opening_and_plays_an_unfinished_one_again() {
    use banco_server::{Config, StoreLocation};
    use banco_tests::{TempDir, test_config};
    let dir = TempDir::new("swap-restart");
    let db = dir.path().join("banco.db");
    let config = || Config {
        store: StoreLocation::File(db.clone()),
        ..test_config()
    };
    // Decided: Bình took White and moved; a line said during the opening comes back once.
    let server = TestServer::with_config(config()).await;
    let (mut a, mut b, _) = two_players(&server, swap2(Rule::Freestyle)).await;
    for (x, y) in THREE {
        place(&mut a, &mut b, x, y).await;
    }
    a.send(ClientMsg::Chat("your call".into())).await;
    b.recv_until(|m| matches!(m, ServerMsg::Chat(_))).await;
    decide(&mut b, &mut a, SwapChoice::White).await;
    a.game_started().await;
    b.game_started().await;
    exchange(&mut b, &mut a, 0, 0).await;
    let (token_a, token_b) = (a.token(), b.token());
    server.stop().await;
    a.closed().await;
    b.closed().await;

    let server = TestServer::with_config(config()).await;
    let mut a = server.reconnect("An", token_a).await;
    let view = a.joined().await;
    let game = view.game.expect("the game in progress");
    assert_eq!(game.opening, THREE.map(|(x, y)| p(x, y)).to_vec());
    assert_eq!(game.first, Seat::Two, "Bình took White and moved first");
    assert_eq!(game.moves.len(), 1);
    assert_eq!(
        view.chat.iter().filter(|l| l.text == "your call").count(),
        1,
        "{:?}",
        view.chat
    );
    let mut b = server.reconnect("Bình", token_b).await;
    b.joined().await;
    exchange(&mut a, &mut b, 14, 14).await;
    server.stop().await;
    a.closed().await;
    b.closed().await;

    // Unfinished: the proposer had placed one stone; the opening starts again.
    let dir = TempDir::new("swap-restart-open");
    let db = dir.path().join("banco.db");
    let config = || Config {
        store: StoreLocation::File(db.clone()),
        ..test_config()
    };
    let server = TestServer::with_config(config()).await;
    let mut a = server.player("Chi").await;
    let mut b = server.player("Dung").await;
    let (id, _) = a.create(swap2(Rule::Renju)).await;
    b.join(id).await;
    a.game_started().await;
    b.game_started().await;
    place(&mut a, &mut b, 7, 7).await;
    let (token_a, token_b) = (a.token(), b.token());
    server.stop().await;
    a.closed().await;
    b.closed().await;
    let server = TestServer::with_config(config()).await;
    let mut a = server.reconnect("Chi", token_a).await;
    let game = a.joined().await.game.expect("the game in progress");
    let swap = game.swap.expect("the swap opening again");
    assert_eq!((swap.stage, swap.proposer), (SwapStage::Propose, Seat::One));
    assert!(swap.stones.is_empty());
    let mut b = server.reconnect("Dung", token_b).await;
    b.joined().await;
    for (x, y) in THREE {
        place(&mut a, &mut b, x, y).await;
    }
    server.stop().await;
}
