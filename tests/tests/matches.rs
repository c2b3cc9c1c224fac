//! Matches of N games or first to K wins, through the real server: the colours alternate
//! game by game, the next game starts when both players are ready or after the break,
//! the match ends when decided (early for first to K, after the last game otherwise,
//! drawn when level), resigned as a whole, or left; its result is in the history,
//! replays and profiles, and a restart mid-match brings the match back (mid-game and
//! between games).

use std::time::Duration;

use banco_protocol::{
    ClientMsg, EndReason, ErrorCode, FirstMove, GameKind, GameOver, MatchEnd, MatchFormat,
    MatchResult, MatchState, OfferKind, RoomSettings, Rule, Seat, Series, ServerMsg,
};
use banco_server::{Config, StoreLocation};
use banco_tests::{Client, TempDir, TestServer, caro_from, exchange, test_config, two_players};

/// A break no test waits out: the next game starts when both say they are ready.
const LONG_BREAK: Duration = Duration::from_secs(3600);

fn config(match_break: Duration) -> Config {
    Config {
        match_break,
        ..test_config()
    }
}

fn format(games: u32, first_to: Option<u32>) -> MatchFormat {
    MatchFormat { games, first_to }
}

/// Caro on 15x15 (freestyle) played as a match of `format`, seat One opening it.
fn match_room(format: MatchFormat) -> RoomSettings {
    RoomSettings {
        match_format: Some(format),
        first: FirstMove::Me,
        ..caro_from(15, Rule::Freestyle, banco_protocol::CaroOpening::None)
    }
}

fn score(one: u32, two: u32, draws: u32) -> Series {
    Series {
        wins: [one, two],
        draws,
    }
}

/// The next `Match`, skipping what comes before.
async fn match_state(c: &mut Client) -> MatchState {
    match c.recv_until(|m| matches!(m, ServerMsg::Match(_))).await {
        ServerMsg::Match(state) => state,
        _ => unreachable!(),
    }
}

/// The next `MatchOver`, skipping what comes before.
async fn match_over(c: &mut Client) -> MatchResult {
    match c.recv_until(|m| matches!(m, ServerMsg::MatchOver(_))).await {
        ServerMsg::MatchOver(result) => result,
        _ => unreachable!(),
    }
}

/// Both players read the start of the match's next game: who moves first, and the
/// match as it stands (its game number).
async fn started(a: &mut Client, b: &mut Client) -> (Seat, MatchState) {
    let game = a.game_started().await;
    assert_eq!(b.game_started().await, game);
    let state = match_state(a).await;
    assert_eq!(match_state(b).await, state);
    assert_eq!(state.next_game_in_ms, None, "no wait while a game runs");
    (game.first, state)
}

/// Plays a game of the match to a result: the first mover and the other place a stone
/// each, then the loser resigns (`winner`), or they agree to a draw (`None`). Both
/// players read its end.
async fn play_game(a: &mut Client, b: &mut Client, first: Seat, winner: Option<Seat>) -> GameOver {
    {
        let (mover, other) = match first {
            Seat::One => (&mut *a, &mut *b),
            Seat::Two => (&mut *b, &mut *a),
        };
        exchange(mover, other, 7, 7).await;
        exchange(other, mover, 8, 8).await;
    }
    match winner {
        Some(Seat::One) => b.send(ClientMsg::Resign).await,
        Some(Seat::Two) => a.send(ClientMsg::Resign).await,
        None => {
            a.send(ClientMsg::Offer(OfferKind::Draw)).await;
            b.recv_until(|m| matches!(m, ServerMsg::Offered(_))).await;
            b.send(ClientMsg::Answer {
                kind: OfferKind::Draw,
                accept: true,
            })
            .await;
        }
    }
    let over = a.game_over().await;
    assert_eq!(b.game_over().await, over);
    assert_eq!(over.winner, winner);
    over
}

/// Both players say they are ready for the next game (a new-game offer accepted).
async fn ready(a: &mut Client, b: &mut Client) {
    a.send(ClientMsg::Offer(OfferKind::NewGame)).await;
    b.recv_until(|m| matches!(m, ServerMsg::Offered(_))).await;
    b.send(ClientMsg::Answer {
        kind: OfferKind::NewGame,
        accept: true,
    })
    .await;
}

#[tokio::test]
async fn first_to_two_ends_as_soon_as_a_player_has_two_and_the_colours_alternate() {
    let server = TestServer::with_config(config(LONG_BREAK)).await;
    let mut a = server.player("Anh").await;
    let mut b = server.player("Bao").await;
    let (id, view) = a.create(match_room(format(3, Some(2)))).await;
    assert_eq!(view.match_state, None, "no match before the second player");
    b.join(id).await;

    let (first, state) = started(&mut a, &mut b).await;
    assert_eq!((first, state.number, state.game), (Seat::One, 1, 1));
    assert_eq!(state.score, Series::default());
    play_game(&mut a, &mut b, first, Some(Seat::One)).await;
    // Not decided: the score, and a break before the next game.
    let state = match_state(&mut a).await;
    assert_eq!(
        (state.score, state.leader, state.game),
        (score(1, 0, 0), Some(Seat::One), 1)
    );
    assert!(state.next_game_in_ms.is_some());
    assert_eq!(state.result, None);
    assert_eq!(match_state(&mut b).await.score, score(1, 0, 0));

    // Both ready: game 2 at once, Bao moving first.
    ready(&mut a, &mut b).await;
    let (first, state) = started(&mut a, &mut b).await;
    assert_eq!((first, state.game), (Seat::Two, 2));
    play_game(&mut a, &mut b, first, Some(Seat::One)).await;
    let result = match_over(&mut a).await;
    assert_eq!(
        result,
        MatchResult {
            winner: Some(Seat::One),
            score: score(2, 0, 0),
            reason: MatchEnd::Decided,
        }
    );
    assert_eq!(match_over(&mut b).await, result);
    // Over: nothing more to resign, and no third game; someone coming in reads it.
    a.send(ClientMsg::ResignMatch).await;
    a.expect_error(ErrorCode::NoMatch).await;
    let mut c = server.connect("Chi").await;
    let view = c.watch(id).await;
    let state = view.match_state.expect("the match");
    assert_eq!(
        (state.result, state.score, state.game),
        (Some(result), score(2, 0, 0), 2)
    );
    assert!(
        view.game.and_then(|g| g.over).is_some(),
        "no third game began"
    );

    // The history says which game of which match each was, and how the match ended.
    a.send(ClientMsg::History {
        player: Some("Anh".into()),
    })
    .await;
    let ServerMsg::History(games) = a.recv_until(|m| matches!(m, ServerMsg::History(_))).await
    else {
        unreachable!()
    };
    let places: Vec<(u32, Option<MatchResult>)> = games
        .iter()
        .map(|g| {
            let m = g.in_match.expect("a game of the match");
            assert_eq!(m.format, format(3, Some(2)));
            (m.game, m.result)
        })
        .collect();
    assert_eq!(places, [(2, Some(result)), (1, Some(result))]);
    let match_id = games[0].in_match.unwrap().id;
    assert_eq!(games[1].in_match.unwrap().id, match_id);
    assert_eq!(games[1].first, Seat::One);
    assert_eq!(games[0].first, Seat::Two);
    // The replay too.
    a.send(ClientMsg::Replay(games[0].id)).await;
    let ServerMsg::Replay(record) = a.recv_until(|m| matches!(m, ServerMsg::Replay(_))).await
    else {
        unreachable!()
    };
    assert_eq!(record.summary.in_match, games[0].in_match);
    // And the profiles: a match won, a match lost.
    for (name, won, lost) in [("Anh", 1, 0), ("Bao", 0, 1)] {
        a.send(ClientMsg::Profile {
            name: name.into(),
            bot: None,
        })
        .await;
        let ServerMsg::Profile(p) = a.recv_until(|m| matches!(m, ServerMsg::Profile(_))).await
        else {
            unreachable!()
        };
        let caro = p.games.iter().find(|k| k.game == GameKind::Caro).unwrap();
        assert_eq!(
            (caro.matches.won, caro.matches.lost, caro.matches.drawn),
            (won, lost, 0)
        );
        assert_eq!(caro.games, 2, "each game of the match is rated as any game");
    }
    server.stop().await;
}

#[tokio::test]
async fn a_two_game_mini_match_gives_each_player_the_first_move_and_a_level_score_is_drawn() {
    // A short break: the second game starts by itself.
    let server = TestServer::with_config(config(Duration::from_millis(50))).await;
    let (mut a, mut b, _) = two_players(&server, match_room(MatchFormat::MINI)).await;
    let (first, state) = started(&mut a, &mut b).await;
    assert_eq!((first, state.game), (Seat::One, 1));
    play_game(&mut a, &mut b, first, Some(Seat::One)).await;
    assert_eq!(match_state(&mut a).await.score, score(1, 0, 0));
    // Nobody asks: the break runs out and game 2 begins, the other seat first.
    let (first, state) = started(&mut a, &mut b).await;
    assert_eq!((first, state.game), (Seat::Two, 2));
    play_game(&mut a, &mut b, first, Some(Seat::Two)).await;
    let result = match_over(&mut a).await;
    assert_eq!(
        result,
        MatchResult {
            winner: None,
            score: score(1, 1, 0),
            reason: MatchEnd::Decided,
        }
    );
    assert_eq!(match_over(&mut b).await, result);
    server.stop().await;
}

#[tokio::test]
async fn a_match_of_n_games_plays_them_all_and_a_replaced_game_is_played_again() {
    let server = TestServer::with_config(config(Duration::from_millis(50))).await;
    let (mut a, mut b, _) = two_players(&server, match_room(format(4, None))).await;
    let mut firsts = Vec::new();
    // Games: An wins, a draw, An wins, Bình wins: 2-1 with a draw, after all four.
    for (n, winner) in [Some(Seat::One), None, Some(Seat::One), Some(Seat::Two)]
        .into_iter()
        .enumerate()
    {
        let (mut first, state) = started(&mut a, &mut b).await;
        assert_eq!(state.game, n as u32 + 1);
        if n == 1 {
            // Game 2 replaced by agreement before its end: no result, played again with
            // the same colours under the same number.
            exchange(&mut b, &mut a, 0, 0).await;
            ready(&mut a, &mut b).await;
            let over = a.game_over().await;
            assert_eq!(over.reason, EndReason::NewGame);
            let (again, state) = started(&mut a, &mut b).await;
            assert_eq!((again, state.game, state.score), (first, 2, score(1, 0, 0)));
            first = again;
        }
        firsts.push(first);
        play_game(&mut a, &mut b, first, winner).await;
        if n < 3 {
            let state = match_state(&mut a).await;
            assert_eq!(state.result, None, "not over after game {}", n + 1);
        }
    }
    assert_eq!(firsts, [Seat::One, Seat::Two, Seat::One, Seat::Two]);
    let result = match_over(&mut a).await;
    assert_eq!(
        (result.winner, result.score, result.reason),
        (Some(Seat::One), score(2, 1, 1), MatchEnd::Decided)
    );
    server.stop().await;
}

#[tokio::test]
async fn resigning_the_match_ends_it_mid_game_or_between_games_and_another_may_follow() {
    let server = TestServer::with_config(config(LONG_BREAK)).await;
    // Where no match is played, there is none to resign.
    let (mut x, _y, _) = two_players(&server, banco_tests::caro(15)).await;
    x.send(ClientMsg::ResignMatch).await;
    x.expect_error(ErrorCode::NoMatch).await;

    let (mut a, mut b, id) = two_players(&server, match_room(format(9, Some(5)))).await;
    let mut c = server.connect("Chi").await;
    c.watch(id).await;
    let (first, _) = started(&mut a, &mut b).await;
    play_game(&mut a, &mut b, first, Some(Seat::One)).await;
    ready(&mut a, &mut b).await;
    let (first, _) = started(&mut a, &mut b).await;
    // Mid-game: Bình gives up the whole match; the game in progress goes to An too.
    c.send(ClientMsg::ResignMatch).await;
    c.expect_error(ErrorCode::NotAPlayer).await;
    {
        let (mover, other) = match first {
            Seat::One => (&mut a, &mut b),
            Seat::Two => (&mut b, &mut a),
        };
        exchange(mover, other, 3, 3).await;
    }
    b.send(ClientMsg::ResignMatch).await;
    let over = b.game_over().await;
    assert_eq!(
        (over.winner, over.reason),
        (Some(Seat::One), EndReason::Resign)
    );
    let result = match_over(&mut b).await;
    assert_eq!(
        result,
        MatchResult {
            winner: Some(Seat::One),
            score: score(2, 0, 0),
            reason: MatchEnd::Resign,
        }
    );
    assert_eq!(match_over(&mut a).await, result);
    assert_eq!(match_over(&mut c).await, result);

    // Another match, by agreement: 0-0 again, and the other seat opens it.
    ready(&mut a, &mut b).await;
    let (first, state) = started(&mut a, &mut b).await;
    assert_eq!(
        (first, state.number, state.score),
        (Seat::Two, 2, Series::default())
    );
    play_game(&mut a, &mut b, first, Some(Seat::Two)).await;
    assert_eq!(match_state(&mut a).await.score, score(0, 1, 0));
    // Between games: An resigns it; no game is running to end.
    a.send(ClientMsg::ResignMatch).await;
    let result = match_over(&mut a).await;
    assert_eq!(
        result,
        MatchResult {
            winner: Some(Seat::Two),
            score: score(0, 1, 0),
            reason: MatchEnd::Resign,
        }
    );
    let before = b.sync("after").await;
    assert!(
        before
            .iter()
            .all(|m| !matches!(m, ServerMsg::GameStarted(_) | ServerMsg::GameOver(_))),
        "{before:?}"
    );
    server.stop().await;
}

#[tokio::test]
async fn leaving_mid_match_loses_it_and_so_does_not_coming_back() {
    let server = TestServer::with_config(Config {
        grace: Duration::from_millis(200),
        ..config(LONG_BREAK)
    })
    .await;
    // Leaving between games.
    let (mut a, mut b, _) = two_players(&server, match_room(format(3, Some(2)))).await;
    let (first, _) = started(&mut a, &mut b).await;
    play_game(&mut a, &mut b, first, Some(Seat::Two)).await;
    b.send(ClientMsg::LeaveRoom).await;
    let result = match_over(&mut a).await;
    assert_eq!(
        result,
        MatchResult {
            winner: Some(Seat::One),
            score: score(0, 1, 0),
            reason: MatchEnd::Quit,
        }
    );

    // A dropped connection that does not come back in time, mid-game.
    let (mut a, b, _) = two_players(&server, match_room(format(3, Some(2)))).await;
    let mut b = b;
    let (first, _) = started(&mut a, &mut b).await;
    {
        let (mover, other) = match first {
            Seat::One => (&mut a, &mut b),
            Seat::Two => (&mut b, &mut a),
        };
        exchange(mover, other, 7, 7).await;
        exchange(other, mover, 8, 8).await;
    }
    b.disconnect();
    let over = a.game_over().await;
    assert_eq!(
        (over.winner, over.reason),
        (Some(Seat::One), EndReason::Abandoned)
    );
    let result = match_over(&mut a).await;
    assert_eq!(
        result,
        MatchResult {
            winner: Some(Seat::One),
            score: score(1, 0, 0),
            reason: MatchEnd::Abandoned,
        }
    );
    server.stop().await;
}

#[tokio::test]
async fn a_restart_mid_match_brings_it_back_mid_game_and_between_games() {
    let dir = TempDir::new("restart-match");
    let db = dir.path().join("banco.db");
    let config = || Config {
        store: StoreLocation::File(db.clone()),
        ..config(LONG_BREAK)
    };
    let server = TestServer::with_config(config()).await;
    let (mut a, mut b, id) = two_players(&server, match_room(format(5, Some(3)))).await;
    let (first, _) = started(&mut a, &mut b).await;
    play_game(&mut a, &mut b, first, Some(Seat::Two)).await;
    match_state(&mut a).await;
    ready(&mut a, &mut b).await;
    let (first, _) = started(&mut a, &mut b).await;
    assert_eq!(first, Seat::Two);
    exchange(&mut b, &mut a, 7, 7).await;
    let (token_a, token_b) = (a.token(), b.token());
    server.stop().await;
    a.closed().await;
    b.closed().await;

    // Mid-game: the match comes back with its game, its score and its number.
    let server = TestServer::with_config(config()).await;
    let mut a = server.reconnect("An", token_a).await;
    let view = a.joined().await;
    assert_eq!(view.id, id);
    let state = view.match_state.expect("the match came back");
    assert_eq!(
        (state.score, state.game, state.result),
        (score(0, 1, 0), 2, None)
    );
    assert_eq!(view.series, score(0, 1, 0));
    let game = view.game.expect("its game in progress");
    assert_eq!((game.first, game.moves.len()), (Seat::Two, 1));
    let mut b = server.reconnect("Bình", token_b).await;
    b.joined().await;
    // The game goes on and ends; the match goes on to its game 3.
    a.play(8, 8).await;
    b.saw(8, 8).await;
    a.send(ClientMsg::Resign).await;
    assert_eq!(b.game_over().await.winner, Some(Seat::Two));
    let state = match_state(&mut b).await;
    assert_eq!((state.score, state.game), (score(0, 2, 0), 2));
    let (token_a, token_b) = (a.token(), b.token());
    server.stop().await;

    // Between games: the room comes back with no game, the score as told; the next
    // game starts when both are back and ready, with the colours it was due.
    let server = TestServer::with_config(config()).await;
    let mut a = server.reconnect("An", token_a).await;
    let view = a.joined().await;
    assert_eq!(view.id, id);
    assert!(view.game.is_none());
    let state = view.match_state.expect("the match came back between games");
    assert_eq!(
        (state.score, state.game, state.result),
        (score(0, 2, 0), 2, None)
    );
    assert!(state.next_game_in_ms.is_some());
    let mut b = server.reconnect("Bình", token_b).await;
    b.joined().await;
    ready(&mut a, &mut b).await;
    let (first, state) = started(&mut a, &mut b).await;
    assert_eq!((first, state.game), (Seat::One, 3));
    play_game(&mut a, &mut b, first, Some(Seat::Two)).await;
    let result = match_over(&mut a).await;
    assert_eq!(
        (result.winner, result.score),
        (Some(Seat::Two), score(0, 3, 0))
    );
    // The three games are the one match's in the history, in order.
    a.send(ClientMsg::History { player: None }).await;
    let ServerMsg::History(games) = a.recv_until(|m| matches!(m, ServerMsg::History(_))).await
    else {
        unreachable!()
    };
    let places: Vec<u32> = games
        .iter()
        .filter_map(|g| g.in_match)
        .map(|m| m.game)
        .collect();
    assert_eq!(places, [3, 2, 1]);
    server.stop().await;
}
