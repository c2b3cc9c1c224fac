//! A lost connection, without a terminal: the words the player reads, the pauses
//! between tries, where the client goes back to, the seat kept on disk, and the
//! server's storage notice.

use super::*;
use crate::net::Lost;
use crate::reconnect::{RECONNECT_FOR, Return};
use banco_protocol::Storage;

fn connects(effects: &[Effect]) -> Vec<&Effect> {
    effects
        .iter()
        .filter(|e| matches!(e, Effect::Connect { .. }))
        .collect()
}

fn redial() -> Effect {
    Effect::Connect {
        address: "127.0.0.1:7373".into(),
        name: "An".into(),
        resume: Some(welcome().resume),
        account: None,
    }
}

/// The welcome of a fresh session: the server did not know our token.
fn fresh_welcome() -> Welcome {
    Welcome {
        resume: ResumeToken([9; 16]),
        account: false,
        ..welcome()
    }
}

#[test]
fn each_lost_connection_is_told_in_words_in_both_languages() {
    let en = Locale::english();
    let vi = Locale::load("vi", None).unwrap();
    let cases = [
        (Lost::Closed, "the server closed the connection"),
        (Lost::ShuttingDown, "the server is shutting down"),
        (Lost::Cut, "the network connection was cut"),
        (Lost::Silent, "no word from the server for 15 s"),
        (Lost::Garbled, "the server sent something banco cannot read"),
    ];
    for (lost, words) in cases {
        let mut a = lobby_app();
        a.disconnected(lost);
        let (text, _) = render(&a, 120, 30);
        let line = format!("Connection lost ({words}): reconnecting (attempt 1)");
        assert!(text.contains(&line), "{lost:?}: {text}");
        assert!(
            !text.contains("os error") && !text.contains("Lost::"),
            "{text}"
        );
        let vi_words = lost.describe(&vi);
        assert_ne!(vi_words, lost.describe(&en), "{lost:?} untranslated");
        assert!(!vi_words.contains('{'), "{vi_words}");
    }
    // A failed try is worded too, never as the OS error behind it.
    let reset = ConnectError::Cut("127.0.0.1:7373".into());
    assert_eq!(
        reset.describe(&en),
        "the connection to 127.0.0.1:7373 was cut while greeting the server: try again"
    );
    assert!(reset.describe(&vi).contains("127.0.0.1:7373"));
}

#[test]
fn tries_again_at_once_then_after_growing_pauses_then_gives_up_saying_why() {
    let mut a = room_app(Role::Player(Seat::One));
    a.disconnected(Lost::Cut);
    assert!(
        matches!(a.screen, Screen::Room(_)),
        "the game stays on screen"
    );
    assert_eq!(a.take_effects(), [redial()], "the first try is at once");
    let start = a.now;
    let mut tried_at = Vec::new();
    // Each try fails at once; the clock moves a second at a time.
    while a.session.reconnect.is_some() {
        if a.session.reconnect.as_ref().is_some_and(|r| r.in_flight) {
            tried_at.push(a.now.duration_since(start).as_secs());
            a.connect_failed(&ConnectError::Refused("127.0.0.1:7373".into()));
        }
        a.now += Duration::from_secs(1);
        a.tick();
        let tries = connects(&a.take_effects()).len();
        assert!(tries <= 1, "one try at a time");
    }
    // At once, then after 1, 2, 4 and 8 s, then every 10 s.
    assert_eq!(tried_at[..7], [0, 1, 3, 7, 15, 25, 35]);
    assert!(
        tried_at
            .windows(2)
            .all(|w| w[1] - w[0] <= crate::reconnect::LONGEST_PAUSE.as_secs())
    );
    assert!(*tried_at.last().unwrap() < RECONNECT_FOR.as_secs());
    // Given up: the connect screen says so, in words, with the last reason.
    let Screen::Connect(form) = &a.screen else {
        panic!("connect screen expected after giving up")
    };
    assert_eq!(
        form.error.as_deref(),
        Some(
            "Could not get back to the server: nobody is hosting at 127.0.0.1:7373 (connection refused): is `banco host` running there, on that port?"
        )
    );
    assert!(a.session.storage.is_none());
}

#[test]
fn a_player_is_seated_again_and_the_room_stays_on_screen_meanwhile() {
    let mut a = room_app(Role::Player(Seat::One));
    a.disconnected(Lost::Silent);
    a.take_effects();
    a.connected(welcome(), "127.0.0.1:7373".into());
    assert!(a.session.reconnect.is_none());
    assert_eq!(a.session.rejoining, Some(Return::Seat(7)));
    assert!(
        matches!(a.screen, Screen::Room(_)),
        "no flash of the lobby: the room comes back by itself"
    );
    assert!(
        sent(&mut a).is_empty(),
        "nothing to ask: the server seats us"
    );
    assert_eq!(notice(&a), "Back on the server.");
    a.server(ServerMsg::Joined(Box::new(caro_room_view(Role::Player(
        Seat::One,
    )))));
    assert_eq!(a.session.rejoining, None);
    assert!(matches!(a.screen, Screen::Room(_)));
    assert!(a.take_effects().contains(&Effect::KeepSeat { room: 7 }));
}

#[test]
fn a_seat_the_server_did_not_keep_is_said_and_forgotten() {
    // The server greets with a new token: a new session, the seat is gone.
    let mut a = room_app(Role::Player(Seat::One));
    a.disconnected(Lost::Closed);
    a.take_effects();
    a.connected(fresh_welcome(), "127.0.0.1:7373".into());
    assert!(matches!(a.screen, Screen::Lobby(_)));
    let effects = a.take_effects();
    assert!(effects.contains(&Effect::ForgetSeat), "{effects:?}");
    assert!(effects.contains(&Effect::Send(ClientMsg::ListRooms)));
    assert!(
        notice(&a).contains("your seat was not kept"),
        "{}",
        notice(&a)
    );

    // The token known, but the room could not seat us again: the list comes instead.
    let mut a = room_app(Role::Player(Seat::One));
    a.disconnected(Lost::Closed);
    a.connected(welcome(), "127.0.0.1:7373".into());
    a.take_effects();
    a.server(ServerMsg::Rooms(rooms()));
    assert!(matches!(a.screen, Screen::Lobby(_)));
    assert!(a.take_effects().contains(&Effect::ForgetSeat));
    assert!(notice(&a).contains("your seat was not kept"));
}

#[test]
fn a_spectator_watches_the_room_again() {
    let mut a = room_app(Role::Spectator);
    a.disconnected(Lost::Cut);
    assert!(matches!(a.screen, Screen::Room(_)));
    assert_eq!(connects(&a.take_effects()), [&redial()]);
    // A spectator's token finds no seat: the server gives a new session, and that is
    // fine; the room is asked for again.
    a.connected(fresh_welcome(), "127.0.0.1:7373".into());
    assert_eq!(sent(&mut a), [ClientMsg::WatchRoom(7)]);
    assert!(matches!(a.screen, Screen::Room(_)));
    // Lobby lists may come first: still waiting for the room.
    a.server(ServerMsg::Rooms(rooms()));
    assert!(matches!(a.screen, Screen::Room(_)));
    a.server(ServerMsg::Joined(Box::new(caro_room_view(Role::Spectator))));
    assert_eq!(a.session.rejoining, None);
    assert!(a.room().is_some_and(|r| r.room.my_seat().is_none()));

    // The room closed meanwhile: the lobby, with the server's reason.
    let mut a = room_app(Role::Spectator);
    a.disconnected(Lost::Cut);
    a.connected(welcome(), "127.0.0.1:7373".into());
    a.take_effects();
    a.server(ServerMsg::Error(banco_protocol::ErrorMsg::new(
        banco_protocol::ErrorCode::NoSuchRoom,
        "there is no room 7",
    )));
    assert!(matches!(a.screen, Screen::Lobby(_)));
    assert_eq!(sent(&mut a), [ClientMsg::ListRooms]);
}

#[test]
fn the_lobby_and_the_other_screens_reconnect_too() {
    let mut a = lobby_app();
    a.disconnected(Lost::Closed);
    assert!(matches!(a.screen, Screen::Lobby(_)));
    assert_eq!(a.take_effects(), [redial()]);
    a.connected(fresh_welcome(), "127.0.0.1:7373".into());
    assert!(matches!(a.screen, Screen::Lobby(_)));
    assert_eq!(sent(&mut a), [ClientMsg::ListRooms]);

    // On the leaderboard: it stays where it is.
    let mut a = lobby_app();
    press(&mut a, &[KeyCode::Char('l')]);
    a.take_effects();
    a.disconnected(Lost::Cut);
    assert_eq!(a.take_effects(), [redial()]);
    assert!(matches!(a.screen, Screen::Leaderboard(_)));
    a.connected(welcome(), "127.0.0.1:7373".into());
    assert!(matches!(a.screen, Screen::Leaderboard(_)));
    assert_eq!(notice(&a), "Back on the server.");
}

#[test]
fn a_seat_is_kept_on_disk_while_held_and_forgotten_when_given_up() {
    let mut a = lobby_app();
    a.server(ServerMsg::Joined(Box::new(caro_room_view(Role::Player(
        Seat::One,
    )))));
    assert!(a.take_effects().contains(&Effect::KeepSeat { room: 7 }));
    a.server(ServerMsg::Left);
    assert!(a.take_effects().contains(&Effect::ForgetSeat));
    // Watching holds no seat.
    a.server(ServerMsg::Joined(Box::new(caro_room_view(Role::Spectator))));
    assert!(a.take_effects().contains(&Effect::ForgetSeat));
    // Quitting from a room gives the seat up.
    let mut a = room_app(Role::Player(Seat::One));
    a.key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    a.key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    let effects = a.take_effects();
    assert!(effects.contains(&Effect::ForgetSeat), "{effects:?}");
    assert!(effects.contains(&Effect::Quit));
}

#[test]
fn the_storage_notice_stays_in_the_lobby_and_the_room_until_saving_again() {
    let mut a = lobby_app();
    a.server(ServerMsg::Storage(Storage::NotSaving {
        reason: "the disk is full".into(),
    }));
    let banner = "Games are not being saved: the disk is full";
    // Long after the passing notice faded, the line stays.
    a.now += NOTICE_TIME * 3;
    let (text, _) = render(&a, 100, 30);
    assert!(text.contains(banner), "{text}");
    a.server(ServerMsg::Joined(Box::new(caro_room_view(Role::Player(
        Seat::One,
    )))));
    a.now += NOTICE_TIME * 3;
    let (text, _) = render(&a, 100, 30);
    assert!(text.contains(banner), "{text}");
    // The board moved down a line for it, and clicks follow.
    let area = ratatui::layout::Rect::new(0, 0, 100, 30);
    let rs = a.room().unwrap();
    assert_eq!(
        a.room_layout(area, rs).board.y,
        crate::layout::room::RoomLayout::new(area, &rs.room, false)
            .board
            .y
            + 1
    );

    a.server(ServerMsg::Storage(Storage::Saving));
    assert_eq!(notice(&a), "Games are being saved again.");
    let (text, _) = render(&a, 100, 30);
    assert!(!text.contains("not being saved"), "{text}");

    // In Vietnamese too.
    let mut a = lobby_app();
    a.loc = Locale::load("vi", None).unwrap();
    a.server(ServerMsg::Storage(Storage::NotSaving {
        reason: "disk full".into(),
    }));
    let (text, _) = render(&a, 100, 30);
    assert!(
        text.contains("Các ván đấu không được lưu: disk full"),
        "{text}"
    );
}
