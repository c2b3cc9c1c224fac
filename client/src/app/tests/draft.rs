//! Draft moves: tried on a private board, drawn apart, never sent, gone when the game
//! moves on.

use super::*;

fn drafting(a: &App) -> Option<usize> {
    a.room().and_then(|r| r.draft.as_ref()).map(|d| d.trials())
}

#[test]
fn trial_stones_stay_local_and_go_when_the_game_moves_on() {
    let mut a = room_app(Role::Player(Seat::Two));
    a.server(moved(7, 7, Seat::One, 1));
    // Not Bình's turn? It is: One played. Draft anyway, for both sides.
    press(&mut a, &[KeyCode::Char('p')]);
    assert_eq!(drafting(&a), Some(0));
    assert!(notice(&a).starts_with("Draft mode"), "{}", notice(&a));
    // Cursor on the last move (7,7): occupied; move right and try two stones.
    press(&mut a, &[KeyCode::Enter]);
    assert_eq!(notice(&a), "That point is taken.");
    press(
        &mut a,
        &[
            KeyCode::Right,
            KeyCode::Enter,
            KeyCode::Down,
            KeyCode::Enter,
        ],
    );
    assert_eq!(drafting(&a), Some(2));
    assert!(
        sent(&mut a).is_empty(),
        "trial moves never reach the server"
    );
    let board = |a: &App| {
        a.room()
            .unwrap()
            .draft
            .as_ref()
            .unwrap()
            .board
            .caro()
            .unwrap()
            .board()
            .clone()
    };
    assert_eq!(
        board(&a).stone_at(Point::new(8, 7)),
        Some(banco_rules::caro::Stone::O)
    );
    assert_eq!(
        board(&a).stone_at(Point::new(8, 8)),
        Some(banco_rules::caro::Stone::X)
    );
    // The real game is untouched.
    let real = a.room().unwrap().room.game.as_ref().unwrap();
    assert_eq!(real.moves.len(), 1);
    // Drawn on the draft background, the real stone not.
    let (text, buf) = render(&a, 100, 30);
    assert!(
        text.contains("✎ Draft: 2 trial move(s); O to play."),
        "{text}"
    );
    let rs = a.room().unwrap();
    let l = crate::layout::room::RoomLayout::new(
        ratatui::layout::Rect::new(0, 0, 100, 30),
        &rs.room,
        false,
    );
    let g = crate::layout::caro::Geometry::new(l.board, 15, 15, rs.cursor.point().unwrap());
    let bg = |x: u8, y: u8| buf[(g.stone_col(x).unwrap(), g.row(y).unwrap())].bg;
    assert_eq!(bg(8, 7), a.theme.colors.draft_bg);
    assert_eq!(bg(8, 8), a.theme.colors.draft_bg);
    assert_ne!(bg(7, 7), a.theme.colors.draft_bg);
    // u takes back trial moves only.
    press(
        &mut a,
        &[KeyCode::Char('u'), KeyCode::Char('u'), KeyCode::Char('u')],
    );
    assert_eq!(drafting(&a), Some(0));
    assert_eq!(
        notice(&a),
        "No trial move to take back: the real moves stay."
    );
    assert!(
        sent(&mut a).is_empty(),
        "u in draft mode is no undo request"
    );
    // A real move clears the draft.
    press(&mut a, &[KeyCode::Enter]);
    a.server(moved(0, 0, Seat::Two, 2));
    assert_eq!(drafting(&a), None);
    assert_eq!(
        notice(&a),
        "The game moved on: your draft moves are cleared."
    );
    // Esc leaves draft mode without leaving the room.
    press(&mut a, &[KeyCode::Char('p'), KeyCode::Esc]);
    assert_eq!(drafting(&a), None);
    assert!(a.room().is_some());
    assert!(sent(&mut a).is_empty());
}

#[test]
fn a_spectator_drafts_xiangqi_for_both_sides() {
    let mut a = lobby_app();
    a.server(ServerMsg::Joined(Box::new(
        crate::testing::xiangqi_room_view(Role::Spectator),
    )));
    press(&mut a, &[KeyCode::Char('p')]);
    // Red's cannon h2 to e2, then Black's horse h9 to g7, by cursor.
    let cursor_to = |a: &mut App, file: u8, rank: u8| {
        if let Screen::Room(rs) = &mut a.screen {
            rs.cursor.set_square(xq(file, rank));
        }
    };
    cursor_to(&mut a, 7, 2);
    press(&mut a, &[KeyCode::Enter]);
    cursor_to(&mut a, 4, 2);
    // set_square drops the selection; pick again and walk left instead.
    cursor_to(&mut a, 7, 2);
    press(
        &mut a,
        &[
            KeyCode::Enter,
            KeyCode::Left,
            KeyCode::Left,
            KeyCode::Left,
            KeyCode::Enter,
        ],
    );
    assert_eq!(drafting(&a), Some(1));
    cursor_to(&mut a, 7, 9);
    press(&mut a, &[KeyCode::Enter]);
    // A click on g7 moves the picked-up horse there.
    let area = ratatui::layout::Rect::new(0, 0, 100, 30);
    let rs = a.room().unwrap();
    let l = crate::layout::room::RoomLayout::new(area, &rs.room, false);
    let g = crate::layout::xiangqi::Geometry::new(l.board, false);
    let (x, y) = g.cell(xq(6, 7));
    a.mouse(MouseEvent {
        kind: crossterm::event::MouseEventKind::Down(crossterm::event::MouseButton::Left),
        column: x,
        row: y,
        modifiers: KeyModifiers::NONE,
    });
    assert_eq!(drafting(&a), Some(2));
    assert!(sent(&mut a).is_empty());
    let (text, _) = render(&a, 100, 30);
    insta::assert_snapshot!("draft_xiangqi_spectator", text);
}

fn bells(a: &mut App) -> usize {
    a.take_effects()
        .into_iter()
        .filter(|e| *e == Effect::Bell)
        .count()
}

#[test]
fn the_bell_rings_for_the_other_sides_move_an_offer_and_the_end() {
    let mut a = room_app(Role::Player(Seat::One));
    assert!(a.settings.bell, "on by default in the full-screen client");
    a.server(moved(7, 7, Seat::One, 1));
    assert_eq!(bells(&mut a), 0, "not for one's own move");
    a.server(moved(8, 8, Seat::Two, 2));
    assert_eq!(bells(&mut a), 1);
    a.server(ServerMsg::Offered(banco_protocol::Offer {
        kind: banco_protocol::OfferKind::Undo,
        by: Seat::Two,
    }));
    assert_eq!(bells(&mut a), 1);
    a.server(ServerMsg::GameOver(GameOver {
        winner: Some(Seat::Two),
        reason: EndReason::Resign,
        line: vec![],
    }));
    assert_eq!(bells(&mut a), 1);
    // Spectators are not rung for every move.
    let mut s = room_app(Role::Spectator);
    s.server(moved(7, 7, Seat::One, 1));
    s.server(moved(8, 8, Seat::Two, 2));
    assert_eq!(bells(&mut s), 0);
    // Off in the settings dialog (the fourth line): silence, and saved.
    let mut a = room_app(Role::Player(Seat::One));
    press(
        &mut a,
        &[
            KeyCode::Char('s'),
            KeyCode::Down,
            KeyCode::Down,
            KeyCode::Down,
            KeyCode::Right,
            KeyCode::Esc,
        ],
    );
    assert!(!a.settings.bell);
    assert!(a.take_effects().contains(&Effect::SaveSettings));
    a.server(moved(7, 7, Seat::One, 1));
    a.server(moved(8, 8, Seat::Two, 2));
    assert_eq!(bells(&mut a), 0);
}
