//! The app driven by keys, clicks and synthetic server messages, without a terminal; and
//! TestBackend snapshots of what it draws.

use super::*;
use crate::net::ConnectError;
use crate::testing::{caro_room_view, moved};
use banco_protocol::{
    ChatLine, EndReason, GameOver, GameView, Move, OfferKind, Point, ResumeToken, Role,
    RoomSettings, RoomStatus, RoomSummary, Seat, SeatKind, ServerMsg, Welcome,
};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseEvent};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn t0() -> Instant {
    // One fixed instant per test run is enough: every test measures from it.
    static T0: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    *T0.get_or_init(Instant::now)
}

fn welcome() -> Welcome {
    Welcome {
        bot: false,
        version: banco_protocol::PROTOCOL_VERSION,
        name: "An".into(),
        server: "lan-box".into(),
        resume: ResumeToken([0; 16]),
        account: false,
        account_token: None,
    }
}

fn app() -> App {
    let mut a = App::new(
        Locale::english(),
        Theme::classic(),
        Settings::default(),
        None,
        "An".into(),
        t0(),
    );
    a.resize(100, 30);
    a
}

fn lobby_app() -> App {
    let mut a = app();
    a.connected(welcome(), "127.0.0.1:7373".into());
    a.take_effects();
    a
}

fn room_app(role: Role) -> App {
    let mut a = lobby_app();
    a.server(ServerMsg::Joined(Box::new(caro_room_view(role))));
    a.take_effects();
    a
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn press(app: &mut App, codes: &[KeyCode]) {
    for c in codes {
        app.key(key(*c));
    }
}

fn typ(app: &mut App, text: &str) {
    for c in text.chars() {
        app.key(key(KeyCode::Char(c)));
    }
}

/// The messages the app asked to send since the last call.
fn sent(app: &mut App) -> Vec<ClientMsg> {
    app.take_effects()
        .into_iter()
        .filter_map(|e| match e {
            Effect::Send(m) => Some(m),
            _ => None,
        })
        .collect()
}

fn notice(app: &App) -> String {
    app.live_notice()
        .map(|n| n.text.clone())
        .unwrap_or_default()
}

fn rooms() -> Vec<RoomSummary> {
    let summary = |id, players: [Option<&str>; 2], seats, status| RoomSummary {
        bot_accounts: [false; 2],
        id,
        settings: RoomSettings {
            seats,
            ..RoomSettings::default()
        },
        players: players.map(|p| p.map(str::to_string)),
        spectators: 0,
        status,
    };
    vec![
        summary(
            1,
            [Some("Bình"), None],
            [SeatKind::Human, SeatKind::Human],
            RoomStatus::Waiting,
        ),
        summary(
            2,
            [Some("Cúc"), Some("Dũng")],
            [SeatKind::Human, SeatKind::Human],
            RoomStatus::Playing,
        ),
        summary(
            3,
            [Some("Em"), Some("Bot")],
            [SeatKind::Human, SeatKind::Bot(banco_protocol::Level::Hard)],
            RoomStatus::Finished,
        ),
    ]
}

#[test]
fn the_connect_form_checks_before_dialling() {
    let mut a = App::new(
        Locale::english(),
        Theme::classic(),
        Settings::default(),
        None,
        String::new(),
        t0(),
    );
    // Empty address: Enter moves on to the name; then both are needed.
    press(&mut a, &[KeyCode::Enter]);
    assert!(a.take_effects().is_empty());
    press(&mut a, &[KeyCode::BackTab]);
    typ(&mut a, "192.168.1.20");
    press(&mut a, &[KeyCode::Enter]);
    let Screen::Connect(form) = &a.screen else {
        panic!("still connecting")
    };
    assert_eq!(form.focus, ConnectField::Name);
    assert!(a.take_effects().is_empty());
    typ(&mut a, "Lan");
    press(&mut a, &[KeyCode::Enter]);
    assert_eq!(
        a.take_effects(),
        [Effect::Connect {
            address: "192.168.1.20".into(),
            name: "Lan".into(),
            resume: None,
            account: None,
        }]
    );
    a.connect_failed(&ConnectError::Refused("192.168.1.20:7373".into()));
    let Screen::Connect(form) = &a.screen else {
        panic!("connect screen expected")
    };
    assert!(!form.connecting);
    assert!(form.error.as_deref().unwrap().contains("nobody is hosting"));
    // Connected: to the lobby, rooms asked for, name and server remembered.
    a.connected(welcome(), "192.168.1.20:7373".into());
    assert!(matches!(a.screen, Screen::Lobby(_)));
    let effects = a.take_effects();
    assert!(effects.contains(&Effect::Send(ClientMsg::ListRooms)));
    assert!(effects.contains(&Effect::SaveSettings));
    assert_eq!(a.settings.last_server.as_deref(), Some("192.168.1.20:7373"));
    assert_eq!(a.settings.name.as_deref(), Some("Lan"));
}

#[test]
fn the_lobby_joins_free_seats_watches_full_rooms_and_creates() {
    let mut a = lobby_app();
    a.server(ServerMsg::Rooms(rooms()));
    press(&mut a, &[KeyCode::Enter]);
    assert_eq!(sent(&mut a), [ClientMsg::JoinRoom(1)]);
    press(&mut a, &[KeyCode::Down, KeyCode::Enter]);
    assert_eq!(
        sent(&mut a),
        [ClientMsg::WatchRoom(2)],
        "a full room is watched"
    );
    press(&mut a, &[KeyCode::Up, KeyCode::Char('w')]);
    assert_eq!(sent(&mut a), [ClientMsg::WatchRoom(1)]);
    press(
        &mut a,
        &[KeyCode::Down, KeyCode::Down, KeyCode::Down, KeyCode::Enter],
    );
    assert_eq!(
        sent(&mut a),
        [ClientMsg::WatchRoom(3)],
        "the selection stops at the end"
    );
    // The create form: default settings but a 19x19 board against the easy bot.
    press(&mut a, &[KeyCode::Char('c'), KeyCode::Down]);
    typ(&mut a, "19");
    press(&mut a, &[KeyCode::Down]);
    typ(&mut a, "19");
    for _ in 0..7 {
        press(&mut a, &[KeyCode::Down]);
    }
    // "Who plays": me against a person -> me against a bot (easy).
    press(&mut a, &[KeyCode::Right, KeyCode::Enter]);
    let effects = a.take_effects();
    assert!(
        effects.contains(&Effect::SaveSettings),
        "the choices are remembered: {effects:?}"
    );
    let msgs: Vec<_> = effects
        .into_iter()
        .filter_map(|e| match e {
            Effect::Send(m) => Some(m),
            _ => None,
        })
        .collect();
    let [ClientMsg::CreateRoom(s)] = msgs.as_slice() else {
        panic!("expected one CreateRoom, got {msgs:?}");
    };
    assert_eq!(
        s.game,
        banco_protocol::GameSettings::Caro {
            width: 19,
            height: 19,
            rule: banco_protocol::Rule::Caro,
            opening: banco_protocol::CaroOpening::None,
        }
    );
    assert_eq!(s.seats[1], SeatKind::Bot(banco_protocol::Level::Easy));
    assert_eq!(
        s.time,
        banco_protocol::TimeControl::PerMove { millis: 20_000 }
    );
    let Screen::Lobby(l) = &a.screen else {
        panic!()
    };
    assert!(l.create.is_none(), "the form closes once sent");
    // The form opens again as last used (and so after a restart: the settings file
    // keeps them).
    assert_eq!(a.settings.create.as_ref(), Some(s));
    press(&mut a, &[KeyCode::Char('c')]);
    let Screen::Lobby(l) = &a.screen else {
        panic!()
    };
    let form = l.create.as_ref().expect("the form is open");
    assert_eq!((form.width, form.height), (19, 19));
    assert_eq!(form.players, super::create::Players::MeAndBot);
    assert_eq!(form.settings(), *s);
    // The same choices again: the file is not written again.
    press(&mut a, &[KeyCode::Enter]);
    assert!(!a.take_effects().contains(&Effect::SaveSettings));
}

#[test]
fn the_board_cursor_places_stones_only_when_it_may() {
    let mut a = room_app(Role::Player(Seat::One));
    // The cursor starts in the centre (7,7); right then Enter plays (8,7).
    press(&mut a, &[KeyCode::Right, KeyCode::Enter]);
    assert_eq!(
        sent(&mut a),
        [ClientMsg::Move(Move::Caro(Point::new(8, 7)))]
    );
    a.server(moved(8, 7, Seat::One, 1));
    // Not our turn now: refused locally, with a reason.
    press(&mut a, &[KeyCode::Up, KeyCode::Char(' ')]);
    assert!(sent(&mut a).is_empty());
    assert_eq!(notice(&a), "Not your turn yet.");
    a.server(moved(8, 6, Seat::Two, 2));
    // The cursor is on (8,6), now taken.
    press(&mut a, &[KeyCode::Enter]);
    assert!(sent(&mut a).is_empty());
    assert_eq!(notice(&a), "That point is taken.");
    // hjkl and Shift for big steps; the cursor stops at the edge.
    press(
        &mut a,
        &[KeyCode::Char('H'), KeyCode::Char('H'), KeyCode::Char('j')],
    );
    press(&mut a, &[KeyCode::Enter]);
    assert_eq!(
        sent(&mut a),
        [ClientMsg::Move(Move::Caro(Point::new(0, 7)))]
    );
    // `.` goes back to the last move.
    press(&mut a, &[KeyCode::Char('.')]);
    assert_eq!(a.room().unwrap().cursor.point(), Some(Point::new(8, 6)));
}

#[test]
fn spectators_can_look_but_not_play() {
    let mut a = room_app(Role::Spectator);
    press(
        &mut a,
        &[
            KeyCode::Enter,
            KeyCode::Char('u'),
            KeyCode::Char('r'),
            KeyCode::Char('g'),
        ],
    );
    assert!(sent(&mut a).is_empty());
    assert!(a.popup.is_none());
    // Leaving is free for them.
    press(&mut a, &[KeyCode::Char('q')]);
    assert_eq!(sent(&mut a), [ClientMsg::LeaveRoom]);
}

#[test]
fn undo_is_asked_answered_and_withdrawn() {
    let mut a = room_app(Role::Player(Seat::One));
    press(&mut a, &[KeyCode::Char('u')]);
    assert!(sent(&mut a).is_empty(), "nothing to undo before moving");
    assert_eq!(notice(&a), "You have no move to take back yet.");
    a.server(moved(7, 7, Seat::One, 1));
    press(&mut a, &[KeyCode::Char('u')]);
    assert_eq!(sent(&mut a), [ClientMsg::Offer(OfferKind::Undo)]);
    let mine = Offer {
        kind: OfferKind::Undo,
        by: Seat::One,
    };
    a.server(ServerMsg::Offered(mine));
    assert!(a.popup.is_none(), "one's own offer opens no dialog");
    press(&mut a, &[KeyCode::Char('x')]);
    assert_eq!(sent(&mut a), [ClientMsg::Withdraw(OfferKind::Undo)]);
    a.server(ServerMsg::Withdrawn(mine));

    // The opponent asks: a dialog; `n` declines.
    a.server(moved(8, 8, Seat::Two, 2));
    let theirs = Offer {
        kind: OfferKind::Undo,
        by: Seat::Two,
    };
    a.server(ServerMsg::Offered(theirs));
    assert_eq!(a.popup, Some(Popup::Offer(theirs)));
    press(&mut a, &[KeyCode::Char('n')]);
    assert_eq!(
        sent(&mut a),
        [ClientMsg::Answer {
            kind: OfferKind::Undo,
            accept: false
        }]
    );
    assert!(a.popup.is_none());
    // Asked again, hidden with Esc, then answered yes from the board.
    a.server(ServerMsg::Offered(theirs));
    press(&mut a, &[KeyCode::Esc]);
    assert!(a.popup.is_none() && sent(&mut a).is_empty());
    press(&mut a, &[KeyCode::Char('y')]);
    assert_eq!(
        sent(&mut a),
        [ClientMsg::Answer {
            kind: OfferKind::Undo,
            accept: true
        }]
    );
    a.server(ServerMsg::Undone {
        plies: 1,
        clocks: None,
    });
    assert_eq!(notice(&a), "One move taken back.");
    assert_eq!(a.room().unwrap().room.to_move(), Some(Seat::Two));
}

#[test]
fn an_offer_leaves_the_event_line_when_it_ends() {
    let mut a = room_app(Role::Player(Seat::One));
    let draw = Offer {
        kind: OfferKind::Draw,
        by: Seat::One,
    };
    // Withdrawn by its maker: the "waiting" line goes with it.
    a.server(ServerMsg::Offered(draw));
    assert!(notice(&a).contains("You offered a draw"), "{}", notice(&a));
    press(&mut a, &[KeyCode::Char('x')]);
    a.server(ServerMsg::Withdrawn(draw));
    assert_eq!(notice(&a), "");
    let (text, _) = render(&a, 100, 30);
    assert!(!text.contains("offered a draw"), "{text}");
    // Withdrawn by the server because a move was made.
    a.server(ServerMsg::Offered(draw));
    a.server(ServerMsg::Withdrawn(draw));
    a.server(moved(7, 7, Seat::One, 1));
    assert_eq!(notice(&a), "");
    // Declined: the refusal replaces it.
    a.server(ServerMsg::Offered(Offer {
        kind: OfferKind::Undo,
        by: Seat::One,
    }));
    a.server(ServerMsg::Declined(Offer {
        kind: OfferKind::Undo,
        by: Seat::One,
    }));
    assert!(notice(&a).contains("declined"), "{}", notice(&a));
    // The other player's offer, withdrawn: they are named.
    let theirs = Offer {
        kind: OfferKind::Draw,
        by: Seat::Two,
    };
    a.server(ServerMsg::Offered(theirs));
    a.server(ServerMsg::Withdrawn(theirs));
    assert_eq!(notice(&a), "Bình withdrew the draw offer.");
    assert!(a.popup.is_none());
}

#[test]
fn chat_takes_the_keys_while_focused() {
    let mut a = room_app(Role::Player(Seat::One));
    press(&mut a, &[KeyCode::Char('c')]);
    typ(&mut a, "gg? hjkl q");
    press(&mut a, &[KeyCode::Enter]);
    assert_eq!(sent(&mut a), [ClientMsg::Chat("gg? hjkl q".into())]);
    assert!(!a.help, "? is typed, not help, in the chat");
    // Empty lines are not sent; Esc gives the board back.
    press(&mut a, &[KeyCode::Enter, KeyCode::Esc, KeyCode::Enter]);
    assert_eq!(
        sent(&mut a),
        [ClientMsg::Move(Move::Caro(Point::new(7, 7)))]
    );
    a.server(ServerMsg::Chat(ChatLine {
        from: "Bình".into(),
        text: "chào".into(),
        at_ms: 0,
    }));
    assert_eq!(a.room().unwrap().room.chat.len(), 1);
}

#[test]
fn a_long_chat_message_is_counted_and_never_cut_unseen() {
    let mut a = room_app(Role::Player(Seat::One));
    press(&mut a, &[KeyCode::Char('c')]);
    typ(&mut a, &"a".repeat(240));
    let (text, _) = render(&a, 100, 30);
    assert!(
        !text.contains("/300"),
        "no count far from the limit: {text}"
    );
    typ(&mut a, &"b".repeat(20));
    let (text, _) = render(&a, 100, 30);
    assert!(text.contains("260/300"), "{text}");
    assert!(!notice(&a).contains("at most"), "{}", notice(&a));
    // Past the limit: nothing more goes in, and the player is told.
    typ(&mut a, &"c".repeat(60));
    let (text, _) = render(&a, 100, 30);
    assert!(text.contains("300/300"), "{text}");
    assert!(
        notice(&a).starts_with("A chat message holds at most 300 characters"),
        "{}",
        notice(&a)
    );
    press(&mut a, &[KeyCode::Enter]);
    let said = match sent(&mut a).as_slice() {
        [ClientMsg::Chat(said)] => said.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(said.chars().count(), 300);
}

#[test]
fn leaving_and_quitting_mid_game_ask_first() {
    let mut a = room_app(Role::Player(Seat::One));
    // Both have moved: giving up now loses (before that it aborts; see `aborted`).
    a.server(moved(7, 7, Seat::One, 1));
    a.server(moved(8, 8, Seat::Two, 2));
    press(&mut a, &[KeyCode::Char('q')]);
    assert_eq!(
        a.popup,
        Some(Popup::Confirm(Confirm::Leave { loses: true }))
    );
    press(&mut a, &[KeyCode::Char('n')]);
    assert!(a.popup.is_none() && sent(&mut a).is_empty());
    // Losing the game takes `r`: the `y` and Enter that answer offers do not.
    press(&mut a, &[KeyCode::Esc, KeyCode::Char('y'), KeyCode::Enter]);
    assert!(sent(&mut a).is_empty());
    assert_eq!(
        a.popup,
        Some(Popup::Confirm(Confirm::Leave { loses: true }))
    );
    let (text, _) = render(&a, 100, 30);
    assert!(text.contains("Resign and leave?"), "{text}");
    assert!(text.contains("r resign and leave · Esc stay"), "{text}");
    press(&mut a, &[KeyCode::Char('r')]);
    assert_eq!(sent(&mut a), [ClientMsg::LeaveRoom]);
    a.server(ServerMsg::Left);
    assert!(matches!(a.screen, Screen::Lobby(_)));
    assert_eq!(sent(&mut a), [ClientMsg::ListRooms]);

    // Ctrl-C asks; a second Ctrl-C means it.
    let mut a = room_app(Role::Player(Seat::One));
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    a.key(ctrl_c);
    assert_eq!(a.popup, Some(Popup::Confirm(Confirm::Quit { loses: true })));
    assert!(a.take_effects().is_empty());
    a.key(ctrl_c);
    assert_eq!(
        a.take_effects(),
        [
            Effect::Send(ClientMsg::LeaveRoom),
            Effect::ForgetSeat,
            Effect::Quit
        ]
    );

    // Resigning asks too.
    let mut a = room_app(Role::Player(Seat::One));
    press(&mut a, &[KeyCode::Char('r')]);
    assert_eq!(a.popup, Some(Popup::Confirm(Confirm::Resign)));
    press(&mut a, &[KeyCode::Char('y')]);
    assert!(sent(&mut a).is_empty(), "y is for offers");
    press(&mut a, &[KeyCode::Char('r')]);
    assert_eq!(sent(&mut a), [ClientMsg::Resign]);

    // The play-through's accident: an offer withdrawn just before the player answers.
    // Esc (meant for the offer's dialog) then `y` leaves nothing lost.
    let mut a = room_app(Role::Player(Seat::One));
    let draw = banco_protocol::Offer {
        kind: OfferKind::Draw,
        by: Seat::Two,
    };
    a.server(ServerMsg::Offered(draw));
    a.server(ServerMsg::Withdrawn(draw));
    press(&mut a, &[KeyCode::Esc, KeyCode::Char('y')]);
    assert!(sent(&mut a).is_empty());

    // Outside a game, leaving and quitting need no `r`.
    let mut a = lobby_app();
    a.key(ctrl_c);
    assert_eq!(
        a.popup,
        Some(Popup::Confirm(Confirm::Quit { loses: false }))
    );
    press(&mut a, &[KeyCode::Char('y')]);
    assert_eq!(a.take_effects(), [Effect::Quit]);
}

fn win_for_one(a: &mut App) {
    for i in 0..4u8 {
        a.server(moved(3 + i, 7, Seat::One, u32::from(2 * i + 1)));
        a.server(moved(3 + i, 8, Seat::Two, u32::from(2 * i + 2)));
    }
    a.server(moved(7, 7, Seat::One, 9));
    a.server(ServerMsg::GameOver(GameOver {
        winner: Some(Seat::One),
        reason: EndReason::Five,
        line: (3..8).map(|x| Point::new(x, 7)).collect(),
    }));
}

#[test]
fn game_over_offers_a_rematch_and_a_new_game_closes_it() {
    let mut a = room_app(Role::Player(Seat::One));
    win_for_one(&mut a);
    assert_eq!(a.popup, Some(Popup::GameOver));
    let r = &a.room().unwrap().room;
    let over = r.game.as_ref().unwrap().over.clone().unwrap();
    assert_eq!(
        crate::narrate::game_over(r, &over, &a.loc),
        "You won! Five in a row (d8 e8 f8 g8 h8)."
    );
    // `r` is resigning's key alone: here it does nothing.
    press(&mut a, &[KeyCode::Char('r')]);
    assert!(sent(&mut a).is_empty());
    assert_eq!(a.popup, Some(Popup::GameOver));
    press(&mut a, &[KeyCode::Char('g')]);
    assert_eq!(sent(&mut a), [ClientMsg::Offer(OfferKind::NewGame)]);
    // Esc hides the dialog; `o` brings it back.
    press(&mut a, &[KeyCode::Esc]);
    assert!(a.popup.is_none());
    press(&mut a, &[KeyCode::Char('o')]);
    assert_eq!(a.popup, Some(Popup::GameOver));
    a.server(ServerMsg::GameStarted(GameView {
        number: 2,
        first: Seat::Two,
        start_fen: String::new(),
        opening: Vec::new(),
        moves: vec![],
        clocks: None,
        over: None,
        swap: None,
    }));
    assert!(a.popup.is_none());
    let r = &a.room().unwrap().room;
    assert_eq!(r.to_move(), Some(Seat::Two));
    assert_eq!(r.stone_letter(Seat::One), 'O');
    assert!(notice(&a).contains("Bình moves first"));
}

#[test]
fn a_player_who_leaves_is_still_named_in_the_result() {
    let mut a = room_app(Role::Spectator);
    a.server(ServerMsg::People {
        seats: [caro_room_view(Role::Spectator).seats[0].clone(), None],
        came: vec!["An".into()],
        left: vec![],
    });
    a.server(ServerMsg::GameOver(GameOver {
        winner: Some(Seat::One),
        reason: EndReason::Quit,
        line: vec![],
    }));
    let (text, _) = render(&a, 100, 30);
    assert!(text.contains("An won. Bình left the game."), "{text}");
    assert!(text.contains("Bình (left)"), "{text}");
}

#[test]
fn a_spectators_help_lists_only_the_keys_for_watching() {
    let mut a = room_app(Role::Spectator);
    press(&mut a, &[KeyCode::Char('?')]);
    let (text, _) = render(&a, 100, 34);
    for player_key in [
        "resign the game",
        "ask to take back",
        "offer a draw",
        "(hint)",
        "places a stone",
        "this loses",
    ] {
        assert!(!text.contains(player_key), "{player_key}: {text}");
    }
    assert!(text.contains("You are watching"), "{text}");
    assert!(text.contains("chat"), "{text}");
    // A player's help still lists them.
    let mut a = room_app(Role::Player(Seat::One));
    press(&mut a, &[KeyCode::Char('?')]);
    let (text, _) = render(&a, 100, 34);
    assert!(text.contains("resign the game"), "{text}");
    assert!(text.contains("offer a draw"), "{text}");
    assert!(!text.contains("You are watching"), "{text}");
}

#[test]
fn help_opens_everywhere_and_swallows_keys() {
    let mut a = room_app(Role::Player(Seat::One));
    press(&mut a, &[KeyCode::Char('?')]);
    assert!(a.help);
    press(&mut a, &[KeyCode::Enter, KeyCode::Char('u')]);
    assert!(!a.help, "Enter closes help");
    assert!(sent(&mut a).is_empty());
    press(&mut a, &[KeyCode::F(1)]);
    assert!(a.help);
    let mut l = lobby_app();
    press(&mut l, &[KeyCode::Char('?')]);
    assert!(l.help);
    let mut c = app();
    press(&mut c, &[KeyCode::Char('?')]);
    assert!(c.help);
}

#[test]
fn a_click_on_the_board_plays_there() {
    let mut a = room_app(Role::Player(Seat::One));
    let area = ratatui::layout::Rect::new(0, 0, a.size.0, a.size.1);
    let rs = a.room().unwrap();
    let l = crate::layout::room::RoomLayout::new(area, &rs.room, false);
    let g = crate::layout::caro::Geometry::new(l.board, 15, 15, rs.cursor.point().unwrap());
    let (col, row) = (g.stone_col(3).unwrap(), g.row(4).unwrap());
    a.mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: col,
        row,
        modifiers: KeyModifiers::NONE,
    });
    assert_eq!(
        sent(&mut a),
        [ClientMsg::Move(Move::Caro(Point::new(3, 4)))]
    );
    assert_eq!(a.room().unwrap().cursor.point(), Some(Point::new(3, 4)));
    // A click off the board does nothing.
    a.mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: 0,
        row: 0,
        modifiers: KeyModifiers::NONE,
    });
    assert!(sent(&mut a).is_empty());
}

#[test]
fn settings_change_language_and_theme_live() {
    let mut a = lobby_app();
    press(&mut a, &[KeyCode::Char('s')]);
    assert!(matches!(a.popup, Some(Popup::Settings(_))));
    press(&mut a, &[KeyCode::Right]);
    assert_eq!(a.loc.code(), "vi");
    assert_eq!(a.settings.language.as_deref(), Some("vi"));
    press(&mut a, &[KeyCode::Down, KeyCode::Right]);
    assert_eq!(a.theme.id, "paper");
    press(&mut a, &[KeyCode::Down, KeyCode::Right]);
    assert!(a.settings.threat_warning);
    assert!(a.take_effects().contains(&Effect::SaveSettings));
    press(&mut a, &[KeyCode::Esc]);
    assert!(a.popup.is_none());
}

// ---- Drawing ----------------------------------------------------------------------

/// Draws the app on a `w` x `h` test terminal; returns the text and the buffer.
fn render(app: &App, w: u16, h: u16) -> (String, ratatui::buffer::Buffer) {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| crate::ui::draw(f, app)).unwrap();
    let buf = term.backend().buffer().clone();
    let mut text = String::new();
    for y in 0..h {
        let mut line = String::new();
        let mut x = 0;
        while x < w {
            // A wide character (CJK) covers the next cell, as on a real terminal.
            let symbol = buf[(x, y)].symbol();
            line.push_str(symbol);
            x += unicode_width::UnicodeWidthStr::width(symbol).max(1) as u16;
        }
        text.push_str(line.trim_end());
        text.push('\n');
    }
    (text, buf)
}

/// Finds where `needle` is drawn.
fn find(text: &str, needle: &str) -> Option<(usize, usize)> {
    text.lines()
        .enumerate()
        .find_map(|(y, l)| l.find(needle).map(|x| (l[..x].chars().count(), y)))
}

#[test]
fn a_timed_game_says_it_waits_for_the_first_moves_while_no_clock_runs() {
    let mut view = caro_room_view(Role::Player(Seat::Two));
    if let Some(g) = view.game.as_mut() {
        g.clocks = Some(banco_protocol::Clocks {
            remaining_ms: [20_000, 20_000],
            running: None,
        });
    }
    let mut a = lobby_app();
    a.server(ServerMsg::Joined(Box::new(view)));
    let waiting = |a: &App| render(a, 120, 30).0.contains("waiting for the first move");
    assert!(waiting(&a), "{}", render(&a, 120, 30).0);
    a.server(moved(7, 7, Seat::One, 1));
    assert!(waiting(&a), "one first move is not both");
    let ServerMsg::Moved { record, .. } = moved(8, 8, Seat::Two, 2) else {
        unreachable!()
    };
    a.server(ServerMsg::Moved {
        record,
        ply: 2,
        clocks: Some(banco_protocol::Clocks {
            remaining_ms: [20_000, 20_000],
            running: Some(Seat::One),
        }),
        not_a_win: None,
    });
    assert!(!waiting(&a), "the clocks run now");
}

#[test]
fn snapshot_lobby() {
    let mut a = lobby_app();
    a.server(ServerMsg::Rooms(rooms()));
    press(&mut a, &[KeyCode::Down]);
    let (text, _) = render(&a, 100, 20);
    insta::assert_snapshot!("lobby", text);
}

#[test]
fn snapshot_create_form() {
    let mut a = lobby_app();
    press(&mut a, &[KeyCode::Char('c'), KeyCode::Down, KeyCode::Down]);
    let (text, _) = render(&a, 100, 24);
    insta::assert_snapshot!("create_form", text);
}

#[test]
fn the_create_form_scrolls_on_a_short_terminal_and_keeps_the_focus_in_view() {
    let mut a = lobby_app();
    press(&mut a, &[KeyCode::Char('c')]);
    // Up from the top wraps to the last field, the match: shown, the game line is not.
    press(&mut a, &[KeyCode::Up]);
    let (text, _) = render(&a, 80, 14);
    assert!(text.contains("off: rematches as we like"), "{text}");
    assert!(!text.contains("caro (five in a row)"), "{text}");
    assert!(text.contains("Enter create"), "{text}");
    // Down wraps to the top: the game line is back in view.
    press(&mut a, &[KeyCode::Down]);
    let (text, _) = render(&a, 80, 14);
    assert!(text.contains("caro (five in a row)"), "{text}");
    assert!(text.contains("Enter create"), "{text}");
}

#[test]
fn snapshot_create_form_says_who_plays_in_words() {
    let mut a = lobby_app();
    press(&mut a, &[KeyCode::Char('c')]);
    // Up from the top wraps to the last line (match), then up past hints and "rated" to
    // "who plays".
    press(
        &mut a,
        &[
            KeyCode::Up,
            KeyCode::Up,
            KeyCode::Up,
            KeyCode::Up,
            KeyCode::Right,
            KeyCode::Right,
        ],
    );
    let (text, _) = render(&a, 100, 26);
    insta::assert_snapshot!("create_form_two_bots", text);
    assert!(text.contains("Who plays  ‹ two bots, I watch ›"), "{text}");
    assert!(text.contains("Bot one"), "{text}");
    assert!(text.contains("Bot two"), "{text}");
    assert!(!text.contains("Seat one"), "{text}");
}

#[test]
fn snapshot_create_form_xiangqi_with_a_start_position() {
    let mut a = lobby_app();
    press(&mut a, &[KeyCode::Char('c'), KeyCode::Right, KeyCode::Down]);
    typ(&mut a, "3k5/9/9/9/9/9/9/9/4A4/4K2R1 w - - 0 1");
    let (text, _) = render(&a, 80, 24);
    insta::assert_snapshot!("create_form_xiangqi", text);
    // A FEN the rules refuse: refused at once, saying why.
    press(&mut a, &[KeyCode::Backspace; 20]);
    press(&mut a, &[KeyCode::Enter]);
    assert!(sent(&mut a).is_empty());
    assert!(
        notice(&a).starts_with("That start position cannot be played:"),
        "{}",
        notice(&a)
    );
}

fn mid_game() -> App {
    let mut a = room_app(Role::Player(Seat::One));
    for (i, (x, y)) in [(7, 7), (8, 8), (8, 6), (6, 8), (9, 5), (10, 4)]
        .into_iter()
        .enumerate()
    {
        let by = if i % 2 == 0 { Seat::One } else { Seat::Two };
        a.server(moved(x, y, by, i as u32 + 1));
    }
    a.server(ServerMsg::Clock(banco_protocol::Clocks {
        remaining_ms: [14_000, 20_000],
        running: Some(Seat::One),
    }));
    a.server(ServerMsg::Chat(ChatLine {
        from: "Bình".into(),
        text: "chơi hay đấy! good game so far".into(),
        at_ms: 1_700_000_000_000,
    }));
    a.server(ServerMsg::People {
        seats: caro_room_view(Role::Spectator).seats,
        came: vec!["Cúc".into()],
        left: vec![],
    });
    a
}

/// Replaces the chat clock (local time zone) with a fixed mark.
fn stable(text: String) -> String {
    text.replace(&crate::room::clock::chat_time(1_700_000_000_000), "HH:MM")
}

#[test]
fn snapshot_room_mid_game() {
    let a = mid_game();
    let (text, buf) = render(&a, 100, 30);
    insta::assert_snapshot!("room_mid_game", stable(text.clone()));
    // The last move (10,4) = k11 has the last-move background.
    let rs = a.room().unwrap();
    let l = crate::layout::room::RoomLayout::new(
        ratatui::layout::Rect::new(0, 0, 100, 30),
        &rs.room,
        false,
    );
    let g = crate::layout::caro::Geometry::new(l.board, 15, 15, rs.cursor.point().unwrap());
    let cell = &buf[(g.stone_col(10).unwrap(), g.row(4).unwrap())];
    assert_eq!(cell.symbol(), "O");
    assert_eq!(cell.bg, a.theme.colors.last_bg);
    // The running clock counts down from when it arrived.
    let mut later = mid_game();
    later.now += Duration::from_millis(5_500);
    let (text, _) = render(&later, 100, 30);
    assert!(text.contains("8.5"), "{text}");
}

#[test]
fn snapshot_room_game_over_with_winning_line() {
    let mut a = room_app(Role::Player(Seat::One));
    win_for_one(&mut a);
    let (text, buf) = render(&a, 100, 30);
    insta::assert_snapshot!("room_game_over", text);
    let rs = a.room().unwrap();
    let l = crate::layout::room::RoomLayout::new(
        ratatui::layout::Rect::new(0, 0, 100, 30),
        &rs.room,
        false,
    );
    let g = crate::layout::caro::Geometry::new(l.board, 15, 15, rs.cursor.point().unwrap());
    for x in 3..8 {
        let cell = &buf[(g.stone_col(x).unwrap(), g.row(7).unwrap())];
        assert_eq!(cell.symbol(), "X");
        assert_eq!(cell.bg, a.theme.colors.win_bg, "({x},7) not highlighted");
    }
    let o = &buf[(g.stone_col(3).unwrap(), g.row(8).unwrap())];
    assert_eq!(o.symbol(), "O");
    assert_eq!(o.bg, a.theme.colors.board_bg);
}

#[test]
fn the_four_warning_marks_the_opponents_threats() {
    let mut a = room_app(Role::Player(Seat::One));
    // Bình (O) gets an open four on row 2 while An plays far away.
    let mut ply = 1;
    for (i, x) in [4u8, 5, 6, 7].into_iter().enumerate() {
        a.server(moved(i as u8, 14, Seat::One, ply));
        a.server(moved(x, 2, Seat::Two, ply + 1));
        ply += 2;
    }
    let spot = |a: &App, x: u8, y: u8| {
        let (_, buf) = render(a, 100, 30);
        let rs = a.room().unwrap();
        let l = crate::layout::room::RoomLayout::new(
            ratatui::layout::Rect::new(0, 0, 100, 30),
            &rs.room,
            false,
        );
        let g = crate::layout::caro::Geometry::new(l.board, 15, 15, rs.cursor.point().unwrap());
        buf[(g.stone_col(x).unwrap(), g.row(y).unwrap())].bg
    };
    assert_eq!(spot(&a, 3, 2), a.theme.colors.board_bg, "off by default");
    press(&mut a, &[KeyCode::Char('w')]);
    assert!(a.settings.threat_warning);
    assert_eq!(spot(&a, 3, 2), a.theme.colors.threat_bg);
    assert_eq!(spot(&a, 8, 2), a.theme.colors.threat_bg);
    assert_eq!(spot(&a, 9, 2), a.theme.colors.board_bg);
}

#[test]
fn snapshot_help_overlay() {
    let mut a = mid_game();
    press(&mut a, &[KeyCode::Char('?')]);
    let (text, _) = render(&a, 100, 34);
    insta::assert_snapshot!("help_room", stable(text));
}

#[test]
fn snapshot_connect_screen() {
    let mut a = app();
    a.connect_failed(&ConnectError::Timeout("10.0.0.9:7373".into(), 7373));
    let (text, _) = render(&a, 80, 24);
    insta::assert_snapshot!("connect", text);
}

#[test]
fn drawing_survives_tiny_and_huge_terminals_and_boards() {
    let mut a = mid_game();
    for (w, h) in [(1, 1), (10, 5), (40, 12), (60, 20), (250, 80)] {
        a.resize(w, h);
        render(&a, w, h);
    }
    // A 64x64 board scrolls to keep the cursor in view.
    let mut view = caro_room_view(Role::Player(Seat::One));
    view.settings.game = banco_protocol::GameSettings::Caro {
        width: 64,
        height: 64,
        rule: banco_protocol::Rule::Freestyle,
        opening: banco_protocol::CaroOpening::None,
    };
    let mut big = lobby_app();
    big.server(ServerMsg::Joined(Box::new(view)));
    for _ in 0..6 {
        press(&mut big, &[KeyCode::Char('L'), KeyCode::Char('J')]);
    }
    let cursor = big.room().unwrap().cursor.point().unwrap();
    assert_eq!(cursor, Point::new(62, 62));
    let (text, _) = render(&big, 100, 30);
    // Wide boards number their columns; column 62 is in view with the cursor on it.
    assert!(text.contains("62"), "{text}");
    assert!(find(&text, "[·]").is_some(), "{text}");
}

// ---- Xiangqi --------------------------------------------------------------------------

fn xq(file: u8, rank: u8) -> banco_protocol::XqSquare {
    banco_protocol::XqSquare { file, rank }
}

fn xiangqi_app(role: Role) -> App {
    let mut a = lobby_app();
    a.server(ServerMsg::Joined(Box::new(
        crate::testing::xiangqi_room_view(role),
    )));
    a.take_effects();
    a
}

#[test]
fn xiangqi_check_is_said_and_the_general_lit() {
    // Bình (Black) is checked by a rook along rank 9 in an arranged position.
    let mut view = crate::testing::xiangqi_room_view(Role::Player(Seat::Two));
    let fen = "4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1";
    view.settings.game = banco_protocol::GameSettings::Xiangqi {
        fen: Some(fen.into()),
    };
    view.game.as_mut().unwrap().start_fen = fen.into();
    let mut a = lobby_app();
    a.server(ServerMsg::Joined(Box::new(view)));
    let mut mv = crate::testing::xq_moved("i0i8", Seat::One, 1, "R1+8");
    if let ServerMsg::Moved { record, .. } = &mut mv {
        record.check = false;
    }
    a.server(mv);
    let (text, _) = render(&a, 100, 30);
    assert!(!text.contains("Check!"), "{text}");
    // Black steps aside; the rook follows along rank 9: check.
    a.server(crate::testing::xq_moved("e9f9", Seat::Two, 2, "K5.6"));
    let mut mv = crate::testing::xq_moved("i8i9", Seat::One, 3, "R1+1");
    if let ServerMsg::Moved { record, .. } = &mut mv {
        record.check = true;
    }
    a.server(mv);
    let (text, buf) = render(&a, 100, 30);
    assert!(text.contains("▶ Your move (Black). Check!"), "{text}");
    assert!(
        text.contains("R1+1+"),
        "the move list marks the check: {text}"
    );
    assert!(notice(&a).ends_with(", check"), "{}", notice(&a));
    let rs = a.room().unwrap();
    let l = crate::layout::room::RoomLayout::new(
        ratatui::layout::Rect::new(0, 0, 100, 30),
        &rs.room,
        false,
    );
    let g = crate::layout::xiangqi::Geometry::new(l.board, true);
    let (x, y) = g.cell(xq(5, 9));
    assert_eq!(buf[(x, y)].symbol(), "將");
    assert_eq!(
        buf[(x, y)].bg,
        a.theme.colors.threat_bg,
        "the checked general"
    );
}

#[test]
fn xiangqi_picks_up_a_piece_and_moves_it_to_a_legal_square() {
    let mut a = xiangqi_app(Role::Player(Seat::One));
    let cursor = |a: &App| a.room().unwrap().cursor;
    // Red at the bottom: the cursor starts on Red's general, e0.
    assert_eq!(
        cursor(&a),
        BoardCursor::Xiangqi {
            at: xq(4, 0),
            selected: None
        }
    );
    // Up to the cannon on h2 and pick it up.
    press(
        &mut a,
        &[
            KeyCode::Right,
            KeyCode::Right,
            KeyCode::Right,
            KeyCode::Up,
            KeyCode::Up,
        ],
    );
    press(&mut a, &[KeyCode::Enter]);
    assert_eq!(
        cursor(&a),
        BoardCursor::Xiangqi {
            at: xq(7, 2),
            selected: Some(xq(7, 2))
        }
    );
    // A square it cannot reach (Black's cannon on h7, with no screen between) puts it
    // down; pick it up again and go to e2.
    for _ in 0..5 {
        press(&mut a, &[KeyCode::Up]);
    }
    press(&mut a, &[KeyCode::Enter]);
    assert!(sent(&mut a).is_empty());
    assert!(matches!(
        cursor(&a),
        BoardCursor::Xiangqi { selected: None, .. }
    ));
    assert_eq!(
        notice(&a),
        "a cannon captures by jumping exactly one piece; between h2 and h7 there are 0",
        "the rules' reason, as plain mode gets it"
    );
    for _ in 0..5 {
        press(&mut a, &[KeyCode::Down]);
    }
    press(&mut a, &[KeyCode::Enter]);
    press(
        &mut a,
        &[KeyCode::Left, KeyCode::Left, KeyCode::Left, KeyCode::Enter],
    );
    assert_eq!(
        sent(&mut a),
        [ClientMsg::Move(Move::Xiangqi {
            from: xq(7, 2),
            to: xq(4, 2)
        })]
    );
    // Black's pieces cannot be picked up by Red; Esc puts a piece down before leaving.
    a.server(crate::testing::xq_moved("h2e2", Seat::One, 1, "C2.5"));
    a.server(crate::testing::xq_moved("h9g7", Seat::Two, 2, "H8+7"));
    press(&mut a, &[KeyCode::Char('.'), KeyCode::Enter]);
    assert!(matches!(
        cursor(&a),
        BoardCursor::Xiangqi { selected: None, .. }
    ));
    press(&mut a, &[KeyCode::Down, KeyCode::Down, KeyCode::Down]);
    let BoardCursor::Xiangqi { at, .. } = cursor(&a) else {
        panic!()
    };
    assert_eq!(at, xq(6, 4), "Red's pawn on g3 is three rows down from g7");
    press(&mut a, &[KeyCode::Down, KeyCode::Enter, KeyCode::Esc]);
    assert!(a.popup.is_none(), "Esc only put the piece down");
    assert!(matches!(
        cursor(&a),
        BoardCursor::Xiangqi { selected: None, .. }
    ));
}

/// A xiangqi room from `fen`, An playing Red.
fn xiangqi_from(fen: &str) -> App {
    let mut view = crate::testing::xiangqi_room_view(Role::Player(Seat::One));
    view.settings.game = banco_protocol::GameSettings::Xiangqi {
        fen: Some(fen.into()),
    };
    view.game.as_mut().unwrap().start_fen = fen.into();
    let mut a = lobby_app();
    a.server(ServerMsg::Joined(Box::new(view)));
    a.take_effects();
    a
}

#[test]
fn xiangqi_says_why_a_move_is_refused_and_that_the_check_is_why() {
    // The play-through: the a0 chariot to a5, past its own soldier on a3.
    let mut a = xiangqi_app(Role::Player(Seat::One));
    let click = |a: &mut App, sq| a.click_board(crate::app::board::Spot::Xiangqi(sq));
    click(&mut a, xq(0, 0));
    click(&mut a, xq(0, 5));
    assert!(sent(&mut a).is_empty());
    assert_eq!(notice(&a), "the chariot on a0 is blocked at a3");
    let (text, _) = render(&a, 100, 30);
    assert!(
        text.contains("! the chariot on a0 is blocked at a3"),
        "{text}"
    );
    // In Vietnamese: the sentence for a refused move, the rules' reason kept.
    a.loc = Locale::load("vi", None).unwrap();
    click(&mut a, xq(0, 0));
    click(&mut a, xq(0, 5));
    assert_eq!(
        notice(&a),
        "Nước đi đó phạm luật. (the chariot on a0 is blocked at a3)"
    );
    a.loc = Locale::english();

    // Red in check from the e5 chariot: the a0 chariot can neither block nor take it.
    let mut a = xiangqi_from("4k4/9/9/9/4r4/9/9/9/9/R3K4 w - - 0 1");
    click(&mut a, xq(0, 0));
    assert_eq!(
        notice(&a),
        "You are in check, and the chariot on a0 cannot get your general out of it: pick up another piece."
    );
    click(&mut a, xq(0, 5));
    assert!(sent(&mut a).is_empty());
    assert_eq!(
        notice(&a),
        "You are in check: that would leave your general in check."
    );
    // The general can step aside: picked up without a word, and the move goes.
    a.notice = None;
    click(&mut a, xq(4, 0));
    assert_eq!(notice(&a), "");
    click(&mut a, xq(3, 0));
    assert_eq!(
        sent(&mut a),
        [ClientMsg::Move(Move::Xiangqi {
            from: xq(4, 0),
            to: xq(3, 0)
        })]
    );
    // Not in check, a piece with nowhere to go says so too: the a0 chariot boxed in.
    let mut a = xiangqi_from("3k5/9/9/9/9/9/9/9/N8/RN2K4 w - - 0 1");
    click(&mut a, xq(0, 0));
    assert_eq!(
        notice(&a),
        "The chariot on a0 has no legal move: pick up another piece."
    );
}

#[test]
fn xiangqi_black_sees_the_board_flipped_and_clicks_map_to_squares() {
    let mut a = xiangqi_app(Role::Player(Seat::Two));
    assert!(a.room().unwrap().room.flipped());
    let BoardCursor::Xiangqi { at, .. } = a.room().unwrap().cursor else {
        panic!()
    };
    assert_eq!(at, xq(4, 9), "on Black's general");
    // Flipped: down the screen goes towards Black's own back rank... which it is on.
    press(&mut a, &[KeyCode::Up]);
    let BoardCursor::Xiangqi { at, .. } = a.room().unwrap().cursor else {
        panic!()
    };
    assert_eq!(at, xq(4, 8));
    a.server(crate::testing::xq_moved("h2e2", Seat::One, 1, "C2.5"));
    // Click Black's horse on h9, then g7.
    let area = ratatui::layout::Rect::new(0, 0, a.size.0, a.size.1);
    let l = crate::layout::room::RoomLayout::new(area, &a.room().unwrap().room, false);
    let g = crate::layout::xiangqi::Geometry::new(l.board, true);
    for sq in [xq(7, 9), xq(6, 7)] {
        let (column, row) = g.cell(sq);
        a.mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column,
            row,
            modifiers: KeyModifiers::NONE,
        });
    }
    assert_eq!(
        sent(&mut a),
        [ClientMsg::Move(Move::Xiangqi {
            from: xq(7, 9),
            to: xq(6, 7)
        })]
    );
}

#[test]
fn snapshot_xiangqi_room() {
    let mut a = xiangqi_app(Role::Player(Seat::One));
    a.server(crate::testing::xq_moved("h2e2", Seat::One, 1, "C2.5"));
    a.server(crate::testing::xq_moved("h9g7", Seat::Two, 2, "H8+7"));
    // Pick up Red's horse on h0 to show where it may go.
    press(
        &mut a,
        &[
            KeyCode::Right,
            KeyCode::Right,
            KeyCode::Right,
            KeyCode::Enter,
        ],
    );
    let (text, buf) = render(&a, 100, 30);
    insta::assert_snapshot!("xiangqi_room", text);
    let rs = a.room().unwrap();
    let l = crate::layout::room::RoomLayout::new(
        ratatui::layout::Rect::new(0, 0, 100, 30),
        &rs.room,
        false,
    );
    let g = crate::layout::xiangqi::Geometry::new(l.board, false);
    let (x, y) = g.cell(xq(6, 2));
    assert_eq!(buf[(x, y)].symbol(), "•", "g2 is a target of the h0 horse");
    let (x, y) = g.cell(xq(4, 2));
    assert_eq!(buf[(x, y)].symbol(), "炮");
    assert_eq!(buf[(x, y)].bg, a.theme.colors.board_bg);
    let (x, y) = g.cell(xq(6, 7));
    assert_eq!(buf[(x, y)].symbol(), "馬");
    assert_eq!(
        buf[(x, y)].bg,
        a.theme.colors.last_bg,
        "the last move's target"
    );
    // The letters theme, compact for a short terminal.
    a.theme = Theme::load("contrast", None).unwrap();
    let (text, _) = render(&a, 80, 20);
    insta::assert_snapshot!("xiangqi_letters_compact", text);
}

mod aborted;
mod discovery;
mod draft;
mod editor;
mod layouts;
mod matches;
mod no_win;
mod openings;
mod profile;
mod reconnect;
mod records;
mod review;
mod swap_renju;
mod tournaments;

#[test]
fn a_password_logs_in_or_registers_and_is_never_drawn() {
    let mut a = App::new(
        Locale::english(),
        Theme::classic(),
        Settings::default(),
        None,
        "An".into(),
        t0(),
    );
    a.set_address("192.168.1.20");
    press(&mut a, &[KeyCode::Tab]);
    typ(&mut a, "secret words");
    let (text, _) = render(&a, 80, 30);
    assert!(!text.contains("secret"), "{text}");
    assert!(text.contains("••••••••••••"), "{text}");
    press(&mut a, &[KeyCode::F(2), KeyCode::Enter]);
    assert_eq!(
        a.take_effects(),
        [Effect::Connect {
            address: "192.168.1.20".into(),
            name: "An".into(),
            resume: None,
            account: Some(banco_protocol::Credentials::password("secret words", true)),
        }]
    );
    // Kept to log in again after a drop: as a login, the name is registered by then.
    assert_eq!(
        a.session.account,
        Some(banco_protocol::Credentials::password("secret words", false))
    );
}
