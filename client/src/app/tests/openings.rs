//! Caro openings in the terminal client: chosen on the create form, drawn on the board
//! (underlined, before the move list), never taken back by an undo.

use super::*;
use banco_protocol::{CaroOpening, GameSettings, Point};
use banco_rules::caro::Stone;

/// Room 7 with balanced openings: the server dealt h8 (X), i9 (O), h10 (X), so An in seat
/// One moves first and plays O.
fn balanced_room(role: Role) -> App {
    let mut view = caro_room_view(role);
    view.settings.game = GameSettings::Caro {
        width: 15,
        height: 15,
        rule: banco_protocol::Rule::Caro,
        opening: CaroOpening::Balanced,
    };
    if let Some(game) = &mut view.game {
        game.opening = vec![Point::new(7, 7), Point::new(8, 6), Point::new(7, 5)];
    }
    let mut a = lobby_app();
    a.server(ServerMsg::Joined(Box::new(view)));
    a.take_effects();
    a
}

#[test]
fn snapshot_create_form_with_typed_opening_stones() {
    let mut a = lobby_app();
    // Game, width, height, rule, opening: none -> balanced -> my stones.
    press(&mut a, &[KeyCode::Char('c')]);
    press(&mut a, &[KeyCode::Down; 4]);
    press(&mut a, &[KeyCode::Right]);
    let (text, _) = render(&a, 100, 26);
    assert!(text.contains("‹ balanced, dealt each game ›"), "{text}");
    press(&mut a, &[KeyCode::Right, KeyCode::Down]);
    typ(&mut a, "h8 i9 h10");
    let (text, _) = render(&a, 100, 26);
    insta::assert_snapshot!("create_form_opening_stones", text);
    press(&mut a, &[KeyCode::Enter]);
    let msgs = sent(&mut a);
    let [ClientMsg::CreateRoom(s)] = msgs.as_slice() else {
        panic!("expected one CreateRoom, got {msgs:?}");
    };
    let p = Point::new;
    assert_eq!(
        s.game,
        GameSettings::Caro {
            width: 15,
            height: 15,
            rule: banco_protocol::Rule::Caro,
            opening: CaroOpening::Stones(vec![p(7, 7), p(8, 6), p(7, 5)]),
        }
    );
    // Stones the rules refuse are not sent; the notice says why.
    press(&mut a, &[KeyCode::Char('c')]);
    press(&mut a, &[KeyCode::Down; 4]);
    // none <- swap2 <- swap1 <- my stones.
    press(
        &mut a,
        &[KeyCode::Left, KeyCode::Left, KeyCode::Left, KeyCode::Down],
    );
    typ(&mut a, "h8 h8");
    press(&mut a, &[KeyCode::Enter]);
    assert!(sent(&mut a).is_empty());
    assert!(
        notice(&a).starts_with("Those opening stones cannot be played:"),
        "{}",
        notice(&a)
    );
}

#[test]
fn snapshot_room_with_a_balanced_opening() {
    let mut a = balanced_room(Role::Player(Seat::One));
    {
        let room = &a.room().unwrap().room;
        assert_eq!(
            room.stone_letter(Seat::One),
            'O',
            "O moves first after X, O, X"
        );
        assert_eq!(room.stone_letter(Seat::Two), 'X');
        assert!(room.my_turn());
    }
    a.server(moved(8, 8, Seat::One, 1));
    a.server(moved(6, 6, Seat::Two, 2));
    let (text, buf) = render(&a, 100, 30);
    insta::assert_snapshot!("room_balanced_opening", text);
    assert!(
        text.contains("balanced opening"),
        "the title says so: {text}"
    );
    assert!(
        text.contains("opening h8 i9 h10"),
        "the move list heads with it"
    );
    let rs = a.room().unwrap();
    let l = crate::layout::room::RoomLayout::new(
        ratatui::layout::Rect::new(0, 0, 100, 30),
        &rs.room,
        false,
    );
    let g = crate::layout::caro::Geometry::new(l.board, 15, 15, rs.cursor.point().unwrap());
    let cell = |x: u8, y: u8| &buf[(g.stone_col(x).unwrap(), g.row(y).unwrap())];
    // Opening stones are underlined; the moves are not.
    for (x, y, glyph) in [(7, 7, "X"), (8, 6, "O"), (7, 5, "X")] {
        assert_eq!(cell(x, y).symbol(), glyph);
        assert!(
            cell(x, y)
                .modifier
                .contains(ratatui::style::Modifier::UNDERLINED)
        );
    }
    assert_eq!(cell(8, 8).symbol(), "O", "An's move is an O");
    assert!(
        !cell(8, 8)
            .modifier
            .contains(ratatui::style::Modifier::UNDERLINED)
    );

    // Undo takes back both moves, never the opening.
    a.server(ServerMsg::Undone {
        plies: 4,
        clocks: None,
    });
    let game = a.room().unwrap().room.game.clone().unwrap();
    assert!(game.moves.is_empty());
    let board = game.board.caro().unwrap().board().clone();
    assert_eq!(board.stones(), 3);
    assert_eq!(board.stone_at(Point::new(8, 6)), Some(Stone::O));
    assert!(a.room().unwrap().room.my_turn());
}

#[test]
fn the_four_warning_watches_the_opponents_real_stone() {
    // An plays O: X (Bình) has the opening's h8 and h10; X adds h9 and h11, an open four
    // in column h: the warning marks both ends for An.
    let mut a = balanced_room(Role::Player(Seat::One));
    a.settings.threat_warning = true;
    a.server(moved(0, 0, Seat::One, 1));
    a.server(moved(7, 6, Seat::Two, 2));
    a.server(moved(0, 14, Seat::One, 3));
    a.server(moved(7, 4, Seat::Two, 4));
    let (_, buf) = render(&a, 100, 30);
    let rs = a.room().unwrap();
    let l = crate::layout::room::RoomLayout::new(
        ratatui::layout::Rect::new(0, 0, 100, 30),
        &rs.room,
        false,
    );
    let g = crate::layout::caro::Geometry::new(l.board, 15, 15, rs.cursor.point().unwrap());
    for y in [3, 8] {
        let cell = &buf[(g.stone_col(7).unwrap(), g.row(y).unwrap())];
        assert_eq!(
            cell.bg,
            a.theme.colors.threat_bg,
            "h{} must be marked",
            15 - y
        );
    }
}
