//! Offers between players: undo (one ply and two), new game and rematch, draw; answered
//! yes or no, withdrawn, or made moot. And resigning.

use banco_protocol::{ClientMsg, EndReason, ErrorCode, Offer, OfferKind, Seat, Series, ServerMsg};
use banco_tests::{Client, TestServer, caro, exchange, two_players};

fn offer(kind: OfferKind, by: Seat) -> Offer {
    Offer { kind, by }
}

async fn undone(c: &mut Client) -> u32 {
    match c
        .recv_until(|m| matches!(m, ServerMsg::Undone { .. }))
        .await
    {
        ServerMsg::Undone { plies, .. } => plies,
        _ => unreachable!(),
    }
}

#[tokio::test]
async fn undo_declined_then_accepted_for_one_ply() {
    let server = TestServer::start().await;
    let (mut a, mut b, id) = two_players(&server, caro(15)).await;
    a.send(ClientMsg::Offer(OfferKind::Undo)).await;
    a.expect_error(ErrorCode::NothingToUndo).await;
    exchange(&mut a, &mut b, 7, 7).await;

    // Asked and declined.
    a.send(ClientMsg::Offer(OfferKind::Undo)).await;
    let asked = offer(OfferKind::Undo, Seat::One);
    assert_eq!(a.recv().await, ServerMsg::Offered(asked));
    assert_eq!(b.recv().await, ServerMsg::Offered(asked));
    // Only one offer at a time, and never one's own to answer.
    b.send(ClientMsg::Offer(OfferKind::Draw)).await;
    b.expect_error(ErrorCode::OfferPending).await;
    a.send(ClientMsg::Answer {
        kind: OfferKind::Undo,
        accept: true,
    })
    .await;
    a.expect_error(ErrorCode::OwnOffer).await;
    b.send(ClientMsg::Answer {
        kind: OfferKind::NewGame,
        accept: true,
    })
    .await;
    b.expect_error(ErrorCode::NoOffer).await;
    b.send(ClientMsg::Answer {
        kind: OfferKind::Undo,
        accept: false,
    })
    .await;
    assert_eq!(a.recv().await, ServerMsg::Declined(asked));
    assert_eq!(b.recv().await, ServerMsg::Declined(asked));

    // Asked again and accepted: Bình has not replied, so one ply goes.
    a.send(ClientMsg::Offer(OfferKind::Undo)).await;
    b.recv_until(|m| *m == ServerMsg::Offered(asked)).await;
    b.send(ClientMsg::Answer {
        kind: OfferKind::Undo,
        accept: true,
    })
    .await;
    assert_eq!(undone(&mut a).await, 1);
    assert_eq!(undone(&mut b).await, 1);
    // An moves again, anywhere, even on the point taken back.
    b.play(8, 8).await;
    b.expect_error(ErrorCode::NotYourTurn).await;
    exchange(&mut a, &mut b, 7, 7).await;
    let mut c = server.connect("Chi").await;
    let game = c.watch(id).await.game.unwrap();
    assert_eq!(game.moves.len(), 1);
    server.stop().await;
}

#[tokio::test]
async fn undo_after_the_opponent_replied_takes_two_plies() {
    let server = TestServer::start().await;
    let (mut a, mut b, _) = two_players(&server, caro(15)).await;
    exchange(&mut a, &mut b, 7, 7).await;
    exchange(&mut b, &mut a, 8, 8).await;
    exchange(&mut a, &mut b, 6, 6).await;
    exchange(&mut b, &mut a, 9, 9).await;
    // An is to move and asks: Bình's reply and An's last stone both go.
    a.send(ClientMsg::Offer(OfferKind::Undo)).await;
    b.recv_until(|m| matches!(m, ServerMsg::Offered(_))).await;
    b.send(ClientMsg::Answer {
        kind: OfferKind::Undo,
        accept: true,
    })
    .await;
    assert_eq!(undone(&mut a).await, 2);
    assert_eq!(undone(&mut b).await, 2);
    // It is An's turn again with (6,6) and (9,9) free.
    exchange(&mut a, &mut b, 9, 9).await;
    exchange(&mut b, &mut a, 6, 6).await;
    server.stop().await;
}

#[tokio::test]
async fn an_offer_can_be_withdrawn_and_a_move_makes_it_moot() {
    let server = TestServer::start().await;
    let (mut a, mut b, _) = two_players(&server, caro(15)).await;
    exchange(&mut a, &mut b, 7, 7).await;
    a.send(ClientMsg::Offer(OfferKind::Undo)).await;
    let asked = offer(OfferKind::Undo, Seat::One);
    b.recv_until(|m| *m == ServerMsg::Offered(asked)).await;
    b.send(ClientMsg::Withdraw(OfferKind::Undo)).await;
    b.expect_error(ErrorCode::NoOffer).await;
    a.send(ClientMsg::Withdraw(OfferKind::Undo)).await;
    assert_eq!(
        a.recv_until(|m| matches!(m, ServerMsg::Withdrawn(_))).await,
        ServerMsg::Withdrawn(asked)
    );
    assert_eq!(b.recv().await, ServerMsg::Withdrawn(asked));
    b.send(ClientMsg::Answer {
        kind: OfferKind::Undo,
        accept: true,
    })
    .await;
    b.expect_error(ErrorCode::NoOffer).await;

    // Asked again; Bình moves instead of answering, and the offer is gone.
    a.send(ClientMsg::Offer(OfferKind::Undo)).await;
    b.recv_until(|m| *m == ServerMsg::Offered(asked)).await;
    b.play(8, 8).await;
    for who in [&mut a, &mut b] {
        who.saw(8, 8).await;
        assert_eq!(who.recv().await, ServerMsg::Withdrawn(asked));
    }
    b.send(ClientMsg::Answer {
        kind: OfferKind::Undo,
        accept: true,
    })
    .await;
    b.expect_error(ErrorCode::NoOffer).await;
    server.stop().await;
}

#[tokio::test]
async fn new_game_declined_then_accepted_and_the_first_move_alternates() {
    let server = TestServer::start().await;
    let (mut a, mut b, _) = two_players(&server, caro(15)).await;
    exchange(&mut a, &mut b, 7, 7).await;
    b.send(ClientMsg::Offer(OfferKind::NewGame)).await;
    let asked = offer(OfferKind::NewGame, Seat::Two);
    a.recv_until(|m| *m == ServerMsg::Offered(asked)).await;
    a.send(ClientMsg::Answer {
        kind: OfferKind::NewGame,
        accept: false,
    })
    .await;
    b.recv_until(|m| *m == ServerMsg::Declined(asked)).await;
    a.recv_until(|m| *m == ServerMsg::Declined(asked)).await;

    b.send(ClientMsg::Offer(OfferKind::NewGame)).await;
    a.recv_until(|m| *m == ServerMsg::Offered(asked)).await;
    a.send(ClientMsg::Answer {
        kind: OfferKind::NewGame,
        accept: true,
    })
    .await;
    for who in [&mut a, &mut b] {
        let game = who.game_started().await;
        assert_eq!((game.number, game.first), (2, Seat::Two));
        assert!(game.moves.is_empty());
    }
    // Bình opens game 2.
    a.play(7, 7).await;
    a.expect_error(ErrorCode::NotYourTurn).await;
    // Bình wins it on row 0; An plays row 5.
    for x in 0..4 {
        exchange(&mut b, &mut a, x, 0).await;
        exchange(&mut a, &mut b, x, 5).await;
    }
    b.play(4, 0).await;
    for who in [&mut a, &mut b] {
        let over = who.game_over().await;
        assert_eq!(
            (over.winner, over.reason),
            (Some(Seat::Two), EndReason::Five)
        );
    }
    // After the game: a rematch offer, accepted; An opens game 3.
    a.send(ClientMsg::Offer(OfferKind::NewGame)).await;
    b.recv_until(|m| *m == ServerMsg::Offered(offer(OfferKind::NewGame, Seat::One)))
        .await;
    b.send(ClientMsg::Answer {
        kind: OfferKind::NewGame,
        accept: true,
    })
    .await;
    for who in [&mut a, &mut b] {
        let game = who.game_started().await;
        assert_eq!((game.number, game.first), (3, Seat::One));
    }
    exchange(&mut a, &mut b, 7, 7).await;
    server.stop().await;
}

#[tokio::test]
async fn offers_after_the_game_and_from_spectators() {
    let server = TestServer::start().await;
    let (mut a, mut b, id) = two_players(&server, caro(15)).await;
    let mut c = server.connect("Chi").await;
    c.watch(id).await;
    c.send(ClientMsg::Offer(OfferKind::NewGame)).await;
    c.expect_error(ErrorCode::NotAPlayer).await;
    // Both sides move: a resignation before that would abort the game.
    exchange(&mut a, &mut b, 7, 7).await;
    exchange(&mut b, &mut a, 8, 8).await;
    a.send(ClientMsg::Resign).await;
    for who in [&mut a, &mut b, &mut c] {
        let over = who.game_over().await;
        assert_eq!(
            (over.winner, over.reason),
            (Some(Seat::Two), EndReason::Resign)
        );
    }
    // Undo and draw make no sense once it is over; resigning again neither.
    a.send(ClientMsg::Offer(OfferKind::Undo)).await;
    a.expect_error(ErrorCode::GameOver).await;
    b.send(ClientMsg::Offer(OfferKind::Draw)).await;
    b.expect_error(ErrorCode::GameOver).await;
    a.send(ClientMsg::Resign).await;
    a.expect_error(ErrorCode::GameOver).await;
    // The resigner stayed in the room and can still talk.
    let before = a.sync("gg").await;
    assert!(before.is_empty(), "{before:?}");
    server.stop().await;
}

#[tokio::test]
async fn a_draw_by_agreement() {
    let server = TestServer::start().await;
    let (mut a, mut b, _) = two_players(&server, caro(15)).await;
    exchange(&mut a, &mut b, 7, 7).await;
    exchange(&mut b, &mut a, 8, 8).await;
    b.send(ClientMsg::Offer(OfferKind::Draw)).await;
    a.recv_until(|m| *m == ServerMsg::Offered(offer(OfferKind::Draw, Seat::Two)))
        .await;
    a.send(ClientMsg::Answer {
        kind: OfferKind::Draw,
        accept: true,
    })
    .await;
    for who in [&mut a, &mut b] {
        let over = who.game_over().await;
        assert_eq!((over.winner, over.reason), (None, EndReason::Agreement));
    }
    b.play(9, 9).await;
    b.expect_error(ErrorCode::GameOver).await;
    server.stop().await;
}

/// Resigns for `loser` and waits until both players have seen the end.
async fn resign(loser: &mut Client, other: &mut Client) {
    loser.send(ClientMsg::Resign).await;
    loser.game_over().await;
    other.game_over().await;
}

/// `asker` offers a rematch and `other` takes it; both see the new game start.
async fn rematch(asker: &mut Client, other: &mut Client, by: Seat) {
    asker.send(ClientMsg::Offer(OfferKind::NewGame)).await;
    other
        .recv_until(|m| *m == ServerMsg::Offered(offer(OfferKind::NewGame, by)))
        .await;
    other
        .send(ClientMsg::Answer {
            kind: OfferKind::NewGame,
            accept: true,
        })
        .await;
    asker.game_started().await;
    other.game_started().await;
}

#[tokio::test]
async fn a_rematch_series_is_scored_until_a_seat_is_given_up() {
    let server = TestServer::start().await;
    let (mut a, mut b, id) = two_players(&server, caro(15)).await;
    // Each game has a move from both sides (a game given up before is aborted and
    // scores nothing).
    exchange(&mut a, &mut b, 7, 7).await;
    exchange(&mut b, &mut a, 8, 8).await;
    resign(&mut a, &mut b).await;
    rematch(&mut a, &mut b, Seat::One).await;
    // Bình moves first in game 2.
    exchange(&mut b, &mut a, 7, 7).await;
    exchange(&mut a, &mut b, 8, 8).await;
    resign(&mut a, &mut b).await;
    rematch(&mut b, &mut a, Seat::Two).await;
    exchange(&mut a, &mut b, 7, 7).await;
    exchange(&mut b, &mut a, 8, 8).await;
    resign(&mut b, &mut a).await;

    // Someone coming in sees the score: Bình 2, An 1.
    let mut c = server.connect("Chi").await;
    let view = c.watch(id).await;
    assert_eq!(
        view.series,
        Series {
            wins: [1, 2],
            draws: 0
        }
    );

    // An gives the seat up: whoever sits down next starts from 0-0.
    a.send(ClientMsg::LeaveRoom).await;
    a.recv_until(|m| *m == ServerMsg::Left).await;
    let mut d = server.connect("Dũng").await;
    let view = d.join(id).await;
    assert_eq!(view.series, Series::default());
    server.stop().await;
}

#[tokio::test]
async fn a_flood_of_offers_is_refused_and_harms_nobody() {
    let config = banco_server::Config {
        offer_declined_wait: std::time::Duration::from_secs(10),
        // A small queue, so a flood that reached the opponent would get them cut.
        outbox_bytes: 16 * 1024,
        ..banco_tests::test_config()
    };
    let server = TestServer::with_config(config).await;
    let (mut a, mut b, _) = two_players(&server, caro(15)).await;
    exchange(&mut a, &mut b, 7, 7).await;
    exchange(&mut b, &mut a, 8, 8).await;
    // Cycling draw offers as fast as the socket takes them.
    for _ in 0..300 {
        a.send(ClientMsg::Offer(OfferKind::Draw)).await;
        a.send(ClientMsg::Withdraw(OfferKind::Draw)).await;
    }
    // The flooder is told to wait, in a sentence.
    let refused = match a
        .recv_until(|m| matches!(m, ServerMsg::Error(e) if e.code == ErrorCode::OfferTooSoon))
        .await
    {
        ServerMsg::Error(e) => e,
        _ => unreachable!(),
    };
    assert!(refused.message.contains("wait"), "{}", refused.message);
    // The opponent saw only the few offers the allowance lets through, is still
    // connected, and the game goes on.
    a.play(7, 8).await;
    let mut offered = 0;
    loop {
        match b.recv().await {
            ServerMsg::Offered(_) => offered += 1,
            ServerMsg::Moved { .. } => break,
            _ => {}
        }
    }
    assert!(offered <= 4, "the opponent was sent {offered} offers");
    a.saw(7, 8).await;
    exchange(&mut b, &mut a, 9, 9).await;

    // A declined offer makes its maker wait before the next, longer each time.
    b.send(ClientMsg::Offer(OfferKind::Undo)).await;
    let asked = offer(OfferKind::Undo, Seat::Two);
    a.recv_until(|m| *m == ServerMsg::Offered(asked)).await;
    a.send(ClientMsg::Answer {
        kind: OfferKind::Undo,
        accept: false,
    })
    .await;
    b.recv_until(|m| *m == ServerMsg::Declined(asked)).await;
    b.send(ClientMsg::Offer(OfferKind::Undo)).await;
    match b.recv_until(|m| matches!(m, ServerMsg::Error(_))).await {
        ServerMsg::Error(e) => {
            assert_eq!(e.code, ErrorCode::OfferTooSoon);
            assert!(e.message.contains("declined"), "{}", e.message);
        }
        _ => unreachable!(),
    }
    server.stop().await;
}
