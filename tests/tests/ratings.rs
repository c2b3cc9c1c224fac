//! Fair ratings from the players' side: Glicko-2 per game kind, provisional until
//! settled, aborted games that cost nobody anything, farming that does not pay, and the
//! profile that shows it all.

use banco_protocol::{
    ClientMsg, EndReason, ErrorCode, GameKind, GameSummary, Profile, Seat, ServerMsg, Standing,
};
use banco_server::store::rating::{self, Glicko};
use banco_tests::{Client, TestServer, caro, exchange, exchange_xq, xiangqi};

async fn leaderboard(c: &mut Client, game: GameKind) -> Vec<Standing> {
    c.send(ClientMsg::Leaderboard(game)).await;
    match c
        .recv_until(|m| matches!(m, ServerMsg::Leaderboard { .. }))
        .await
    {
        ServerMsg::Leaderboard { game: g, standings } => {
            assert_eq!(g, game, "the leaderboard asked for");
            standings
        }
        _ => unreachable!(),
    }
}

async fn history(c: &mut Client) -> Vec<GameSummary> {
    c.send(ClientMsg::History { player: None }).await;
    match c.recv_until(|m| matches!(m, ServerMsg::History(_))).await {
        ServerMsg::History(games) => games,
        _ => unreachable!(),
    }
}

async fn profile(c: &mut Client, name: &str) -> Profile {
    c.send(ClientMsg::Profile {
        name: name.into(),
        bot: None,
    })
    .await;
    match c.recv_until(|m| matches!(m, ServerMsg::Profile(_))).await {
        ServerMsg::Profile(p) => *p,
        _ => unreachable!(),
    }
}

/// A caro game between `a` (seat One, moves first) and `b` in a fresh room, both moving
/// once, then `loser` resigns.
async fn caro_game(a: &mut Client, b: &mut Client, a_loses: bool) {
    let (room, _) = a.create(caro(15)).await;
    b.join(room).await;
    a.game_started().await;
    b.game_started().await;
    exchange(a, b, 7, 7).await;
    exchange(b, a, 8, 8).await;
    let loser = if a_loses { &mut *a } else { &mut *b };
    loser.send(ClientMsg::Resign).await;
    a.game_over().await;
    b.game_over().await;
    for c in [a, b] {
        c.send(ClientMsg::LeaveRoom).await;
        c.recv_until(|m| *m == ServerMsg::Left).await;
    }
}

#[tokio::test]
async fn a_game_given_up_before_both_sides_moved_is_aborted_and_unrated() {
    let server = TestServer::start().await;
    let mut a = server.player("An").await;
    let mut b = server.player("Bình").await;
    let (room, _) = a.create(caro(15)).await;
    b.join(room).await;
    a.game_started().await;
    b.game_started().await;
    exchange(&mut a, &mut b, 7, 7).await;
    // Bình resigns before making a move: no result, a loss for nobody.
    b.send(ClientMsg::Resign).await;
    for who in [&mut a, &mut b] {
        let over = who.game_over().await;
        assert_eq!((over.winner, over.reason), (None, EndReason::Aborted));
    }
    let games = history(&mut a).await;
    assert_eq!(games.len(), 1, "an aborted game is kept in the history");
    assert_eq!(games[0].over.reason, EndReason::Aborted);
    assert!(!games[0].rated);
    assert!(leaderboard(&mut a, GameKind::Caro).await.is_empty());
    server.stop().await;
}

#[tokio::test]
async fn caro_and_xiangqi_are_rated_apart_and_the_profile_shows_both() {
    let server = TestServer::start().await;
    let mut a = server.player("An").await;
    let mut b = server.player("Bình").await;
    // An wins at caro.
    caro_game(&mut a, &mut b, false).await;
    // Bình wins at xiangqi.
    let (room, _) = a.create(xiangqi(None)).await;
    b.join(room).await;
    a.game_started().await;
    b.game_started().await;
    exchange_xq(&mut a, &mut b, "h2e2").await;
    exchange_xq(&mut b, &mut a, "h9g7").await;
    a.send(ClientMsg::Resign).await;
    assert_eq!(a.game_over().await.winner, Some(Seat::Two));
    b.game_over().await;

    let caro_board = leaderboard(&mut a, GameKind::Caro).await;
    let names: Vec<&str> = caro_board.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["An", "Bình"]);
    let xq_board = leaderboard(&mut a, GameKind::Xiangqi).await;
    let names: Vec<&str> = xq_board.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Bình", "An"], "xiangqi has its own order");
    // One game each: everyone is still provisional, shown 1500-something with a '?'.
    for s in caro_board.iter().chain(&xq_board) {
        assert!(s.rating.provisional, "{s:?}");
        assert!(s.rating.to_string().ends_with('?'));
        assert_eq!(s.games, 1);
    }
    assert!(caro_board[0].rating.rating > 1600);

    let an = profile(&mut b, "an").await;
    assert_eq!(an.name, "An", "found in any case, shown as registered");
    assert!(an.registered_at_ms.is_some(), "An has an account");
    assert_eq!(an.games.len(), 2);
    let (c, x) = (&an.games[0], &an.games[1]);
    assert_eq!(
        (c.game, c.games, c.wins, c.losses),
        (GameKind::Caro, 1, 1, 0)
    );
    assert_eq!(
        (x.game, x.games, x.wins, x.losses),
        (GameKind::Xiangqi, 1, 0, 1)
    );
    assert_eq!(c.rank, None, "a provisional rating has no place yet");
    let best = c.best_win.as_ref().expect("the caro win");
    assert_eq!(
        (best.opponent.as_str(), best.opponent_rating),
        ("Bình", 1500)
    );
    assert!(x.best_win.is_none());
    // The chart starts from the start rating, then one point per rated game.
    assert_eq!(c.history.len(), 2);
    assert_eq!(c.history[0].rating, 1500);
    assert_eq!(c.history[1].rating, c.rating.rating);
    assert_eq!(an.recent.len(), 2);
    assert_eq!(
        an.recent[0].game,
        banco_protocol::GameSettings::Xiangqi { fen: None }
    );

    b.send(ClientMsg::Profile {
        name: "Nobody".into(),
        bot: None,
    })
    .await;
    let e = b.expect_error(ErrorCode::NoSuchPlayer).await;
    assert_eq!(
        e.message,
        "nobody called Nobody has played or registered here"
    );
    // A bot that has not played yet is named as the bot, not by the name sent beside it.
    b.send(ClientMsg::Profile {
        name: "Bình".into(),
        bot: Some(banco_protocol::Level::Expert),
    })
    .await;
    let e = b.expect_error(ErrorCode::NoSuchPlayer).await;
    assert_eq!(e.message, "Bot (expert) has not played here yet");
    server.stop().await;
}

#[tokio::test]
async fn trading_wins_between_two_accounts_does_not_pay() {
    let server = TestServer::start().await;
    let mut a = server.player("An").await;
    let mut b = server.player("Bình").await;
    // Twelve games in a row, each won by Bình: the same pair in the same day.
    for _ in 0..12 {
        caro_game(&mut a, &mut b, true).await;
    }
    let board = leaderboard(&mut a, GameKind::Caro).await;
    let binh = board.iter().find(|s| s.name == "Bình").expect("Bình");
    // Only the first few counted, each less than the one before.
    let counted = rating::FARMING_LIMIT - 1;
    assert_eq!(binh.games, counted);
    let (mut w, mut l) = (Glicko::default(), Glicko::default());
    for n in 1..=counted {
        (w, l) = rating::update(w, l, 1.0, rating::weight(n));
    }
    assert_eq!(binh.rating.rating, w.rating.round() as i32);
    // Five full-weight wins would have been worth more.
    let (mut full, mut other) = (Glicko::default(), Glicko::default());
    for _ in 1..=counted {
        (full, other) = rating::update(full, other, 1.0, 1.0);
    }
    let _ = (l, other);
    assert!(w.rating < full.rating);
    let games = history(&mut a).await;
    assert_eq!(games.len(), 12);
    let rated = games.iter().filter(|g| g.rated).count();
    assert_eq!(rated as u32, counted, "the rest are kept, unrated");
    assert!(!games[0].rated, "the newest did not count");
    server.stop().await;
}
