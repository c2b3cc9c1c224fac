//! Renju and swap openings in the terminal client: the create form's choices, Black's
//! forbidden points drawn `×`, and the swap decision as a dialog with its keys.

use super::*;
use banco_protocol::{CaroOpening, GameSettings, Point, SwapChoice, SwapStage, SwapStep, SwapView};

fn p(x: u8, y: u8) -> Point {
    Point::new(x, y)
}

/// Room 7 under renju, no opening: An (seat One) is Black (X).
fn renju_room(role: Role) -> App {
    let mut view = caro_room_view(role);
    view.settings.game = GameSettings::Caro {
        width: 15,
        height: 15,
        rule: banco_protocol::Rule::Renju,
        opening: CaroOpening::None,
    };
    let mut a = lobby_app();
    a.server(ServerMsg::Joined(Box::new(view)));
    a.take_effects();
    a
}

#[test]
fn snapshot_renju_board_shows_blacks_forbidden_points_to_black() {
    let mut a = renju_room(Role::Player(Seat::One));
    // X: f8 g8 i7 i6; O far away. i8 (8,7) is a double three for Black.
    let moves = [
        (5, 7),
        (0, 0),
        (6, 7),
        (0, 2),
        (8, 8),
        (0, 4),
        (8, 9),
        (0, 6),
    ];
    for (i, (x, y)) in moves.into_iter().enumerate() {
        let by = if i % 2 == 0 { Seat::One } else { Seat::Two };
        a.server(moved(x, y, by, i as u32 + 1));
    }
    let (text, buf) = render(&a, 100, 30);
    insta::assert_snapshot!("renju_forbidden", text);
    let rs = a.room().unwrap();
    let l = crate::layout::room::RoomLayout::new(
        ratatui::layout::Rect::new(0, 0, 100, 30),
        &rs.room,
        false,
    );
    let g = crate::layout::caro::Geometry::new(l.board, 15, 15, rs.cursor.point().unwrap());
    let cell = &buf[(g.stone_col(8).unwrap(), g.row(7).unwrap())];
    assert_eq!(cell.symbol(), "×");
    // Once White is to move, no point is forbidden to anyone.
    a.server(moved(14, 14, Seat::One, 9));
    let (text, _) = render(&a, 100, 30);
    assert!(!text.contains('×'), "{text}");
}

/// Room 7 with a Swap2 opening: An (seat One) proposed h8 i9 h10, and Bình decides.
fn swap_room(role: Role) -> App {
    let mut view = caro_room_view(role);
    view.settings.game = GameSettings::Caro {
        width: 15,
        height: 15,
        rule: banco_protocol::Rule::Freestyle,
        opening: CaroOpening::Swap2,
    };
    if let Some(game) = &mut view.game {
        game.swap = Some(Box::new(SwapView {
            kind: CaroOpening::Swap2,
            proposer: Seat::One,
            stage: SwapStage::Propose,
            to_act: Some(Seat::One),
            choices: vec![],
            stones: vec![],
            steps: vec![],
            x_seat: None,
        }));
    }
    let mut a = lobby_app();
    a.server(ServerMsg::Joined(Box::new(view)));
    a.take_effects();
    a
}

fn answer_stage() -> SwapView {
    let stones = vec![p(7, 7), p(8, 6), p(7, 5)];
    SwapView {
        kind: CaroOpening::Swap2,
        proposer: Seat::One,
        stage: SwapStage::Answer,
        to_act: Some(Seat::Two),
        choices: vec![SwapChoice::White, SwapChoice::Black, SwapChoice::PlaceTwo],
        steps: stones
            .iter()
            .map(|&point| SwapStep::Stone {
                by: Seat::One,
                point,
            })
            .collect(),
        stones,
        x_seat: None,
    }
}

#[test]
fn snapshot_swap_decision_dialog_and_its_keys() {
    let mut a = swap_room(Role::Player(Seat::Two));
    assert!(notice(&a).is_empty() || !notice(&a).contains("moves first"));
    a.server(ServerMsg::Swap(Box::new(answer_stage())));
    assert_eq!(a.popup, Some(Popup::Swap));
    let (text, _) = render(&a, 100, 30);
    insta::assert_snapshot!("swap_decision", text);
    assert!(text.contains("Your decision"), "{text}");
    // Keys that are no choice change nothing; the dialog stays.
    press(&mut a, &[KeyCode::Char('x'), KeyCode::Esc]);
    assert!(sent(&mut a).is_empty());
    assert_eq!(a.popup, Some(Popup::Swap));
    press(&mut a, &[KeyCode::Char('b')]);
    assert_eq!(sent(&mut a), [ClientMsg::Swap(SwapChoice::Black)]);
}

#[test]
fn the_proposer_sees_whose_decision_it_is_and_places_with_the_cursor() {
    let mut a = swap_room(Role::Player(Seat::One));
    assert_eq!(a.room().unwrap().room.to_move(), Some(Seat::One));
    // Enter on the cursor (the centre) sends the opening stone as a move.
    press(&mut a, &[KeyCode::Enter]);
    assert_eq!(
        sent(&mut a),
        [ClientMsg::Move(banco_protocol::Move::Caro(p(7, 7)))]
    );
    a.server(ServerMsg::Swap(Box::new(answer_stage())));
    assert_eq!(a.popup, None, "the decision is Bình's");
    let (text, _) = render(&a, 100, 30);
    assert!(text.contains("Bình decides"), "{text}");
    // The stones stand on the board.
    let board = a
        .room()
        .unwrap()
        .room
        .game
        .as_ref()
        .unwrap()
        .board
        .caro()
        .unwrap()
        .board()
        .clone();
    assert_eq!(board.stones(), 3);
}

#[test]
fn the_create_form_offers_renju_and_the_swap_openings() {
    let mut a = lobby_app();
    press(&mut a, &[KeyCode::Char('c')]);
    // Game, width, height, rule: caro -> ... -> renju (the last).
    press(&mut a, &[KeyCode::Down; 3]);
    press(&mut a, &[KeyCode::Left]);
    // Opening: none -> (back) swap2.
    press(&mut a, &[KeyCode::Down, KeyCode::Left]);
    let (text, _) = render(&a, 100, 26);
    assert!(text.contains("renju"), "{text}");
    assert!(text.contains("Swap2"), "{text}");
    let Screen::Lobby(l) = &a.screen else {
        panic!()
    };
    let form = l.create.as_ref().unwrap();
    assert_eq!(
        form.settings().game,
        GameSettings::Caro {
            width: 15,
            height: 15,
            rule: banco_protocol::Rule::Renju,
            opening: CaroOpening::Swap2,
        }
    );
}
