//! The lobby: names, the room list, creating, joining and watching rooms.

use banco_protocol::{
    ClientMsg, ErrorCode, GameSettings, Hello, PROTOCOL_VERSION, Role, RoomSettings, RoomStatus,
    Rule, Seat, ServerMsg, TimeControl,
};
use banco_server::Config;
use banco_tests::{Client, TestServer, caro, test_config};

#[tokio::test]
async fn names_are_made_unique_and_bad_ones_refused() {
    let server = TestServer::start().await;
    let a = server.connect("An").await;
    let b = server.connect("an").await;
    let c = server.connect("  An ").await;
    // Guests: marked, and made unique among themselves.
    assert_eq!(a.name(), "~An");
    assert_eq!(b.name(), "~an 2");
    assert_eq!(c.name(), "~An 3");
    assert_eq!(a.welcome.as_ref().unwrap().server, "test-server");
    assert_ne!(
        a.token(),
        b.token(),
        "each session has its own resume token"
    );

    for bad in ["", "   ", "tab\tname", &"x".repeat(25)] {
        let mut d = Client::connect_raw(server.addr).await;
        d.send(ClientMsg::Hello(Hello {
            version: PROTOCOL_VERSION,
            name: bad.into(),
            resume: None,
            account: None,
        }))
        .await;
        d.expect_error(ErrorCode::BadName).await;
        assert!(d.closed().await.is_empty());
    }
    server.stop().await;
}

#[tokio::test]
async fn the_room_list_follows_rooms_as_they_change() {
    let server = TestServer::start().await;
    let mut a = server.connect("An").await;
    let mut b = server.connect("Bình").await;
    let mut c = server.connect("Chi").await;
    let settings = RoomSettings {
        time: TimeControl::per_move(std::time::Duration::from_secs(20)),
        ..caro(19)
    };
    let (id, view) = a.create(settings.clone()).await;
    assert_eq!(view.you, Role::Player(Seat::One));
    assert_eq!(view.settings, settings);

    // Sessions in the lobby are told.
    let list = b.rooms().await;
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].id, id);
    assert_eq!(list[0].settings, settings);
    assert_eq!(list[0].players, [Some("~An".to_string()), None]);
    assert_eq!(list[0].status, RoomStatus::Waiting);

    b.join(id).await;
    let list = c
        .rooms_until(|l| l.first().is_some_and(|r| r.players[1].is_some()))
        .await;
    assert_eq!(list[0].players, [Some("~An".into()), Some("~Bình".into())]);
    assert_eq!(list[0].status, RoomStatus::Playing);

    // A full room can be watched, not joined.
    c.send(ClientMsg::JoinRoom(id)).await;
    c.expect_error(ErrorCode::RoomFull).await;
    c.send(ClientMsg::JoinRoom(id + 100)).await;
    c.expect_error(ErrorCode::NoSuchRoom).await;
    let view = c.watch(id).await;
    assert_eq!(view.you, Role::Spectator);
    assert_eq!(view.spectators, ["~Chi"]);

    // ListRooms answers anywhere, also from inside a room.
    c.send(ClientMsg::ListRooms).await;
    let list = c.rooms().await;
    assert_eq!(list[0].spectators, 1);
    server.stop().await;
}

#[tokio::test]
async fn everyone_in_the_room_sees_people_come_and_go() {
    let server = TestServer::start().await;
    let mut a = server.connect("An").await;
    let mut b = server.connect("Bình").await;
    let mut c = server.connect("Chi").await;
    let (id, _) = a.create(caro(15)).await;
    b.join(id).await;
    match a.recv().await {
        ServerMsg::People { seats, came, left } => {
            assert_eq!(seats[1].as_ref().unwrap().name, "~Bình");
            assert!(seats[1].as_ref().unwrap().connected);
            assert!(came.is_empty() && left.is_empty(), "{came:?} {left:?}");
        }
        other => panic!("expected People, got {other:?}"),
    }
    c.watch(id).await;
    for who in [&mut a, &mut b] {
        match who
            .recv_until(|m| matches!(m, ServerMsg::People { .. }))
            .await
        {
            ServerMsg::People { came, left, .. } => {
                assert_eq!(came, ["~Chi"]);
                assert!(left.is_empty());
            }
            _ => unreachable!(),
        }
    }
    c.send(ClientMsg::LeaveRoom).await;
    // Chi may first hear of its own coming (spectators are told in batches, and a
    // client keeps a name once), then leaves.
    c.recv_until(|m| *m == ServerMsg::Left).await;
    for who in [&mut a, &mut b] {
        match who
            .recv_until(|m| matches!(m, ServerMsg::People { .. }))
            .await
        {
            ServerMsg::People { came, left, .. } => {
                assert!(came.is_empty());
                assert_eq!(left, ["~Chi"]);
            }
            _ => unreachable!(),
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn a_room_closes_when_nobody_is_left() {
    let server = TestServer::start().await;
    let mut a = server.connect("An").await;
    let mut b = server.connect("Bình").await;
    let (id, _) = a.create(caro(15)).await;
    assert_eq!(b.rooms().await.len(), 1);
    a.send(ClientMsg::LeaveRoom).await;
    assert_eq!(a.recv().await, ServerMsg::Left);
    // The room closes: the list everyone in the lobby gets ends up without it (An, back
    // in the lobby, gets the whole list first: nothing was pushed to her in the room).
    a.rooms().await;
    a.rooms_until(<[_]>::is_empty).await;
    b.rooms_until(<[_]>::is_empty).await;
    b.send(ClientMsg::WatchRoom(id)).await;
    b.expect_error(ErrorCode::NoSuchRoom).await;
    server.stop().await;
}

#[tokio::test]
async fn settings_out_of_range_are_refused() {
    let server = TestServer::start().await;
    let mut a = server.connect("An").await;
    let refused = [
        caro(4),
        caro(65),
        RoomSettings {
            game: GameSettings::Caro {
                width: 64,
                height: 3,
                rule: Rule::Freestyle,
                opening: banco_protocol::CaroOpening::None,
            },
            ..RoomSettings::default()
        },
        RoomSettings {
            time: TimeControl::PerMove { millis: 10 },
            ..caro(15)
        },
        RoomSettings {
            time: TimeControl::Clock {
                initial_millis: 0,
                increment_millis: 1000,
            },
            ..caro(15)
        },
    ];
    for settings in refused {
        a.send(ClientMsg::CreateRoom(settings.clone())).await;
        let e = a.expect_error(ErrorCode::BadSettings).await;
        assert!(!e.message.is_empty(), "{settings:?}");
    }
    let xiangqi = RoomSettings {
        game: GameSettings::Xiangqi {
            fen: Some("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR".into()),
        },
        ..RoomSettings::default()
    };
    a.send(ClientMsg::CreateRoom(xiangqi)).await;
    let e = a.expect_error(ErrorCode::BadSettings).await;
    assert!(e.message.contains("side to move"), "{}", e.message);
    // Nothing was made: the lobby is still empty, and An can still create a good room.
    a.send(ClientMsg::ListRooms).await;
    assert!(a.rooms().await.is_empty());
    let (_, view) = a.create(caro(64)).await;
    assert_eq!(view.you, Role::Player(Seat::One));
    server.stop().await;
}

#[tokio::test]
async fn one_room_at_a_time() {
    let server = TestServer::start().await;
    let mut a = server.connect("An").await;
    let mut b = server.connect("Bình").await;
    let (id, _) = b.create(caro(15)).await;
    a.create(caro(15)).await;
    a.send(ClientMsg::CreateRoom(caro(15))).await;
    a.expect_error(ErrorCode::AlreadyInRoom).await;
    a.send(ClientMsg::JoinRoom(id)).await;
    a.expect_error(ErrorCode::AlreadyInRoom).await;
    a.send(ClientMsg::WatchRoom(id)).await;
    a.expect_error(ErrorCode::AlreadyInRoom).await;
    server.stop().await;
}

#[tokio::test]
async fn a_spectator_takes_a_free_seat_without_leaving() {
    let server = TestServer::start().await;
    let mut a = server.connect("An").await;
    let mut c = server.connect("Chi").await;
    let (id, _) = a.create(caro(15)).await;
    let view = c.watch(id).await;
    assert_eq!(view.you, Role::Spectator);
    c.send(ClientMsg::Chat("watching".into())).await;
    c.recv_until(|m| matches!(m, ServerMsg::Chat(_))).await;
    c.send(ClientMsg::JoinRoom(id)).await;
    let view = c.joined().await;
    assert_eq!(view.you, Role::Player(Seat::Two));
    assert!(view.spectators.is_empty());
    assert_eq!(view.chat.len(), 1, "the same room, its chat kept");
    assert_eq!(a.game_started().await, c.game_started().await);
    // A player asking again, or anyone once the seats are full, is refused.
    c.send(ClientMsg::JoinRoom(id)).await;
    c.expect_error(ErrorCode::AlreadyInRoom).await;
    let mut d = server.connect("Dũng").await;
    d.watch(id).await;
    d.send(ClientMsg::JoinRoom(id)).await;
    d.expect_error(ErrorCode::RoomFull).await;
    d.send(ClientMsg::Chat("still here".into())).await;
    assert!(
        matches!(d.recv().await, ServerMsg::Chat(_)),
        "still watching"
    );
    server.stop().await;
}

#[tokio::test]
async fn many_rooms_are_listed_in_order_and_their_number_is_capped() {
    // Forty people, all on this one machine here.
    let server = TestServer::with_config(Config {
        max_rooms: 40,
        rooms_per_player: 100,
        connections_per_address: 100,
        ..test_config()
    })
    .await;
    let mut hosts = Vec::new();
    for i in 0..40 {
        let mut c = server.connect(&format!("P{i}")).await;
        c.create(caro(15)).await;
        hosts.push(c);
    }
    let mut lobby = server.connect("Lan").await;
    lobby.send(ClientMsg::ListRooms).await;
    let list = lobby.rooms_until(|l| l.len() == 40).await;
    let ids: Vec<u32> = list.iter().map(|r| r.id).collect();
    assert_eq!(ids, (1..=40).collect::<Vec<u32>>());
    assert!(list.iter().all(|r| r.status == RoomStatus::Waiting));

    // The forty-first is refused with a reason, and nothing is made.
    lobby.send(ClientMsg::CreateRoom(caro(15))).await;
    let e = lobby.expect_error(ErrorCode::Busy).await;
    assert!(e.message.contains("40 rooms"), "{}", e.message);
    lobby.send(ClientMsg::ListRooms).await;
    assert_eq!(lobby.rooms().await.len(), 40);
    // Joining and watching still work, and once a room closes a new one can open.
    lobby.join(7).await;
    let mut first = hosts.remove(0);
    first.send(ClientMsg::LeaveRoom).await;
    first.recv_until(|m| *m == ServerMsg::Left).await;
    let mut late = server.connect("Muộn").await;
    late.send(ClientMsg::ListRooms).await;
    late.rooms_until(|l| l.len() == 39).await;
    let (id, _) = late.create(caro(15)).await;
    assert_eq!(id, 41);
    server.stop().await;
}

/// Whether a newcomer arrives before or after the lobby pushes a new room to the others,
/// the room is in the list they keep (in the whole list they get on entering, or in the
/// push after), and they can join it. Arrivals are spread over the push interval.
#[tokio::test]
async fn a_room_opened_just_before_someone_arrives_is_in_their_list() {
    for round in 0..16u64 {
        let server = TestServer::start().await;
        let mut mai = server.player("Mai").await;
        let (id, _) = mai.create(caro(15)).await;
        tokio::time::sleep(std::time::Duration::from_millis(round * 19)).await;
        let mut binh = server.connect("Bình").await;
        let rooms = binh.rooms_until(|rooms| !rooms.is_empty()).await;
        assert_eq!(rooms.len(), 1, "arriving {} ms after", round * 19);
        assert_eq!(rooms[0].id, id);
        binh.join(id).await;
        binh.game_started().await;
        server.stop().await;
    }
}
