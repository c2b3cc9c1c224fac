//! Challenges end to end: a player challenges another by name, who is told wherever they
//! are and accepts (both seated in a new room) or declines with a reason; open
//! challenges anyone may take; the server's bot takes one at once; the limits (one at a
//! time per player, a cap, the wait after a decline, who takes challenges) and bad input,
//! which changes nothing.

use std::time::Duration;

use banco_protocol::{
    Challenge, ChallengeEnd, ChallengeId, ChallengePolicy, ClientMsg, DeclineReason, ErrorCode,
    FirstMove, GameSettings, Level, PlayerLine, Role, RoomSettings, RoomView, Rule, Seat, SeatKind,
    ServerMsg, TimeControl,
};
use banco_tests::{Client, TestServer, exchange, test_config};

/// Caro, freestyle, 5 minutes plus 3 seconds a move, the challenger first: what
/// `challenge B caro --clock 5m+3s --rule freestyle` asks for.
fn freestyle_5_3(rated: bool) -> RoomSettings {
    RoomSettings {
        game: GameSettings::Caro {
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
            opening: Default::default(),
        },
        time: TimeControl::clock(Duration::from_secs(300), Duration::from_secs(3)),
        first: FirstMove::Me,
        rated,
        ..RoomSettings::default()
    }
}

async fn challenge(c: &mut Client, to: Option<&str>, settings: RoomSettings) -> Challenge {
    c.send(ClientMsg::Challenge {
        to: to.map(String::from),
        settings,
    })
    .await;
    match c.recv().await {
        ServerMsg::ChallengeSent(sent) => sent,
        other => panic!("expected ChallengeSent, got {other:?}"),
    }
}

async fn challenged(c: &mut Client) -> Challenge {
    match c
        .recv_until(|m| matches!(m, ServerMsg::Challenged(_)))
        .await
    {
        ServerMsg::Challenged(ch) => ch,
        _ => unreachable!(),
    }
}

async fn ended(c: &mut Client, id: ChallengeId) -> ChallengeEnd {
    match c
        .recv_until(|m| matches!(m, ServerMsg::ChallengeEnded { id: i, .. } if *i == id))
        .await
    {
        ServerMsg::ChallengeEnded { end, .. } => end,
        _ => unreachable!(),
    }
}

/// Sends `msg` and reads its refusal (skipping challenges that arrive meanwhile).
async fn refused(c: &mut Client, msg: ClientMsg, code: ErrorCode) -> String {
    c.send(msg).await;
    match c.recv_until(|m| matches!(m, ServerMsg::Error(_))).await {
        ServerMsg::Error(e) if e.code == code => e.message,
        other => panic!("expected error {code}, got {other:?}"),
    }
}

/// The room `c` was just seated in: its view, and who sits where once both are there
/// and the game has started (the other player may come in after `c`; the room tells of
/// them after the game's start).
async fn seated(c: &mut Client) -> (RoomView, [String; 2]) {
    let view = c.joined().await;
    let mut seats = seat_names(&view);
    let mut started = false;
    while !started || seats.iter().any(String::is_empty) {
        match c.recv().await {
            ServerMsg::People { seats: now, .. } => {
                seats = now.map(|s| s.map(|s| s.name).unwrap_or_default());
            }
            ServerMsg::GameStarted(_) => started = true,
            _ => {}
        }
    }
    (view, seats)
}

async fn players(c: &mut Client) -> Vec<PlayerLine> {
    c.send(ClientMsg::Players).await;
    match c.recv().await {
        ServerMsg::Players(list) => list,
        other => panic!("expected Players, got {other:?}"),
    }
}

fn seat_names(view: &RoomView) -> [String; 2] {
    view.seats
        .clone()
        .map(|s| s.map(|s| s.name).unwrap_or_default())
}

#[tokio::test]
async fn a_challenge_by_name_is_accepted_and_played() {
    let server = TestServer::start().await;
    let mut an = server.player("An").await;
    let mut binh = server.player("Bình").await;

    // An sees Bình in the people list, with the server's bots after the people.
    let list = players(&mut an).await;
    let names: Vec<&str> = list.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(&names[..2], ["An", "Bình"]);
    assert!(list.iter().any(|p| p.level == Some(Level::Max)));
    assert!(list[1].account && !list[1].bot && !list[1].playing);

    let sent = challenge(&mut an, Some("bình"), freestyle_5_3(true)).await;
    assert_eq!(
        sent.to.as_deref(),
        Some("Bình"),
        "the name as Bình wrote it"
    );
    assert_eq!(sent.from, "An");
    assert!(sent.expires_in_ms > 0);
    let got = challenged(&mut binh).await;
    assert_eq!(got.id, sent.id);
    assert_eq!(got.settings, sent.settings);

    binh.send(ClientMsg::AcceptChallenge(got.id)).await;
    for c in [&mut an, &mut binh] {
        let ChallengeEnd::Accepted { room, by } = ended(c, sent.id).await else {
            panic!("accepted expected");
        };
        assert_eq!(by, "Bình");
        let (view, seats) = seated(c).await;
        assert_eq!(view.id, room);
        assert_eq!(seats, ["An", "Bình"]);
        assert_eq!(view.settings.time, sent.settings.time);
    }
    // The challenger moves first, as asked ("colour: mine"): An plays X.
    for i in 0..4 {
        exchange(&mut an, &mut binh, 3 + i, 3).await;
        exchange(&mut binh, &mut an, 3 + i, 9).await;
    }
    an.play(7, 3).await;
    let over = an.game_over().await;
    assert_eq!(over.winner, Some(Seat::One));
    // Both were seated in a game being played: the people list said so meanwhile.
    server.stop().await;
}

#[tokio::test]
async fn a_declined_challenge_says_why_and_the_challenger_waits() {
    let mut config = test_config();
    config.challenge_declined_wait = Duration::from_millis(300);
    let server = TestServer::with_config(config).await;
    let mut an = server.player("An").await;
    let mut binh = server.player("Bình").await;

    let sent = challenge(&mut an, Some("Bình"), freestyle_5_3(false)).await;
    let got = challenged(&mut binh).await;
    binh.send(ClientMsg::DeclineChallenge {
        id: got.id,
        reason: DeclineReason::TimeControl,
    })
    .await;
    let end = ended(&mut an, sent.id).await;
    assert_eq!(
        end,
        ChallengeEnd::Declined {
            by: "Bình".into(),
            reason: DeclineReason::TimeControl
        }
    );
    assert_eq!(ended(&mut binh, sent.id).await, end);

    // At once again: too soon. Someone else is not held back.
    let msg = refused(
        &mut an,
        ClientMsg::Challenge {
            to: Some("Bình".into()),
            settings: freestyle_5_3(false),
        },
        ErrorCode::ChallengeTooSoon,
    )
    .await;
    assert!(msg.contains("declined your last challenge"), "{msg}");
    let mut chi = server.player("Chi").await;
    let other = challenge(&mut chi, Some("Bình"), freestyle_5_3(false)).await;
    challenged(&mut binh).await;
    // Past the wait, An may ask again (with another time control).
    tokio::time::sleep(Duration::from_millis(400)).await;
    let again = challenge(
        &mut an,
        Some("Bình"),
        RoomSettings {
            time: TimeControl::clock(Duration::from_secs(600), Duration::from_secs(5)),
            ..freestyle_5_3(false)
        },
    )
    .await;
    assert_ne!(again.id, other.id);
    server.stop().await;
}

#[tokio::test]
async fn an_open_challenge_is_taken_by_whoever_comes() {
    let server = TestServer::start().await;
    let mut an = server.player("An").await;
    let sent = challenge(&mut an, None, freestyle_5_3(false)).await;
    assert_eq!(sent.to, None);

    // A guest arriving later is shown it, and takes it by its number (what its link
    // names).
    let mut guest = server.connect("Chi").await;
    let id = loop {
        if let ServerMsg::OpenChallenges(open) = guest.recv_any().await {
            break open[0].id;
        }
    };
    assert_eq!(id, sent.id);
    // Its own challenger cannot take it.
    refused(
        &mut an,
        ClientMsg::AcceptChallenge(id),
        ErrorCode::ChallengeRefused,
    )
    .await;
    guest.send(ClientMsg::AcceptChallenge(id)).await;
    let ChallengeEnd::Accepted { by, .. } = ended(&mut an, id).await else {
        panic!("accepted expected");
    };
    assert_eq!(by, "~Chi");
    let (_, seats) = seated(&mut an).await;
    assert_eq!(seats, ["An", "~Chi"]);
    guest
        .recv_until(|m| matches!(m, ServerMsg::Joined(_)))
        .await;
    // Taken, it is off the list, and a second taker finds nothing.
    let mut late = server.connect("Dũng").await;
    refused(
        &mut late,
        ClientMsg::AcceptChallenge(id),
        ErrorCode::NoSuchChallenge,
    )
    .await;
    assert!(late.open_challenges.is_empty());
    server.stop().await;
}

#[tokio::test]
async fn the_server_s_bot_takes_a_challenge_at_once() {
    let server = TestServer::start().await;
    let mut an = server.connect("An").await;
    let sent = challenge(&mut an, Some("bot (max)"), freestyle_5_3(false)).await;
    let ChallengeEnd::Accepted { room, by } = ended(&mut an, sent.id).await else {
        panic!("accepted expected");
    };
    assert_eq!(by, "Bot (max)");
    let view = an.joined().await;
    assert_eq!(view.id, room);
    assert_eq!(view.you, Role::Player(Seat::One));
    assert_eq!(view.seats[1].as_ref().and_then(|s| s.bot), Some(Level::Max));
    assert_eq!(view.settings.seats[1], SeatKind::Bot(Level::Max));
    an.game_started().await;
    an.play(7, 7).await;
    an.saw(7, 7).await;
    // The bot answers.
    an.moved().await;
    server.stop().await;
}

#[tokio::test]
async fn challenges_are_limited_and_bad_ones_change_nothing() {
    let mut config = test_config();
    config.challenges_per_player = 2;
    let server = TestServer::with_config(config).await;
    let mut an = server.player("An").await;
    let mut binh = server.player("Bình").await;
    let mut guest = server.connect("Em").await;
    let ask = |to: &str, settings: RoomSettings| ClientMsg::Challenge {
        to: Some(to.into()),
        settings,
    };

    // Nobody, oneself, a bot seat, a board too big, a rated game with a guest.
    refused(
        &mut an,
        ask("Zed", freestyle_5_3(false)),
        ErrorCode::NoSuchPlayer,
    )
    .await;
    refused(
        &mut an,
        ask("An", freestyle_5_3(false)),
        ErrorCode::ChallengeRefused,
    )
    .await;
    let with_bot = RoomSettings {
        seats: [SeatKind::Human, SeatKind::Bot(Level::Easy)],
        ..freestyle_5_3(false)
    };
    refused(&mut an, ask("Bình", with_bot), ErrorCode::BadSettings).await;
    let huge = RoomSettings {
        game: GameSettings::Caro {
            width: 99,
            height: 15,
            rule: Rule::Caro,
            opening: Default::default(),
        },
        ..freestyle_5_3(false)
    };
    refused(&mut an, ask("Bình", huge), ErrorCode::BadSettings).await;
    let msg = refused(
        &mut an,
        ask("Em", freestyle_5_3(true)),
        ErrorCode::ChallengeRefused,
    )
    .await;
    assert!(msg.contains("guest"), "{msg}");
    refused(
        &mut guest,
        ask("An", freestyle_5_3(true)),
        ErrorCode::ChallengeRefused,
    )
    .await;

    // None of that sent anything: the first real challenge reaches Bình first.
    let first = challenge(&mut an, Some("Bình"), freestyle_5_3(false)).await;
    assert_eq!(challenged(&mut binh).await.id, first.id);
    // One at a time to one player, and two out at most.
    refused(
        &mut an,
        ask("Bình", freestyle_5_3(false)),
        ErrorCode::ChallengePending,
    )
    .await;
    challenge(&mut an, Some("Em"), freestyle_5_3(false)).await;
    refused(
        &mut an,
        ClientMsg::Challenge {
            to: None,
            settings: freestyle_5_3(false),
        },
        ErrorCode::TooManyChallenges,
    )
    .await;

    // Only the one challenged declines it; only the challenger cancels it.
    refused(
        &mut guest,
        ClientMsg::DeclineChallenge {
            id: first.id,
            reason: DeclineReason::NotNow,
        },
        ErrorCode::NoSuchChallenge,
    )
    .await;
    refused(
        &mut binh,
        ClientMsg::CancelChallenge(first.id),
        ErrorCode::NoSuchChallenge,
    )
    .await;
    an.send(ClientMsg::CancelChallenge(first.id)).await;
    assert_eq!(ended(&mut binh, first.id).await, ChallengeEnd::Cancelled);
    refused(
        &mut binh,
        ClientMsg::AcceptChallenge(first.id),
        ErrorCode::NoSuchChallenge,
    )
    .await;

    // Bình turns challenges off, then takes them from accounts only.
    binh.send(ClientMsg::SetChallenges(ChallengePolicy::Nobody))
        .await;
    assert_eq!(
        binh.recv().await,
        ServerMsg::ChallengesSet(ChallengePolicy::Nobody)
    );
    let msg = refused(
        &mut an,
        ask("Bình", freestyle_5_3(false)),
        ErrorCode::ChallengeRefused,
    )
    .await;
    assert!(msg.contains("takes no challenges"), "{msg}");
    binh.send(ClientMsg::SetChallenges(ChallengePolicy::Accounts))
        .await;
    binh.recv().await;
    let msg = refused(
        &mut guest,
        ask("Bình", freestyle_5_3(false)),
        ErrorCode::ChallengeRefused,
    )
    .await;
    assert!(msg.contains("accounts only"), "{msg}");
    let back = challenge(&mut an, Some("Bình"), freestyle_5_3(false)).await;
    assert_eq!(challenged(&mut binh).await.id, back.id);
    server.stop().await;
}

#[tokio::test]
async fn a_challenge_waits_while_a_player_is_in_a_game_and_goes_when_they_leave() {
    let server = TestServer::start().await;
    let mut an = server.player("An").await;
    let mut binh = server.player("Bình").await;
    let mut chi = server.player("Chi").await;
    // An and Chi are playing.
    let (id, _) = an.create(banco_tests::caro(15)).await;
    chi.join(id).await;
    an.game_started().await;
    chi.game_started().await;
    exchange(&mut an, &mut chi, 7, 7).await;
    let sent = challenge(&mut binh, Some("An"), freestyle_5_3(false)).await;
    // Told in the middle of the game.
    assert_eq!(challenged(&mut an).await.id, sent.id);
    let msg = refused(
        &mut an,
        ClientMsg::AcceptChallenge(sent.id),
        ErrorCode::PlayerBusy,
    )
    .await;
    assert!(msg.contains("finish it"), "{msg}");
    // The players list says who is in a game.
    let list = players(&mut binh).await;
    assert!(
        list.iter()
            .find(|p| p.name == "An")
            .is_some_and(|p| p.playing)
    );

    // Bình leaves the server: the challenge goes with them.
    binh.disconnect();
    assert_eq!(ended(&mut an, sent.id).await, ChallengeEnd::Withdrawn);
    server.stop().await;
}

#[tokio::test]
async fn a_challenger_watching_a_room_is_moved_to_the_new_one() {
    let mut config = test_config();
    config.challenge_wait = Duration::from_millis(500);
    let server = TestServer::with_config(config).await;
    let mut an = server.player("An").await;
    let mut binh = server.player("Bình").await;
    let mut chi = server.player("Chi").await;
    let (room, _) = chi.create(banco_tests::caro(15)).await;
    an.watch(room).await;

    // A challenge nobody answers expires.
    let lapsed = challenge(&mut an, Some("Bình"), freestyle_5_3(false)).await;
    challenged(&mut binh).await;
    assert_eq!(ended(&mut an, lapsed.id).await, ChallengeEnd::Expired);
    assert_eq!(ended(&mut binh, lapsed.id).await, ChallengeEnd::Expired);

    let sent = challenge(&mut an, Some("Bình"), freestyle_5_3(false)).await;
    challenged(&mut binh).await;
    binh.send(ClientMsg::AcceptChallenge(sent.id)).await;
    // An leaves the room watched, then sits in the new one.
    ended(&mut an, sent.id).await;
    an.recv_until(|m| *m == ServerMsg::Left).await;
    let view = an.joined().await;
    assert_ne!(view.id, room);
    assert_eq!(view.you, Role::Player(Seat::One));
    binh.recv_until(|m| matches!(m, ServerMsg::Joined(_))).await;
    an.game_started().await;
    server.stop().await;
}
