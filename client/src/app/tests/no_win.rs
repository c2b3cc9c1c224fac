//! A five blocked at both ends under the caro rule does not win: the event line says
//! why instead of the game silently going on (issue 31, item 14).

use super::*;

/// X (seat one) makes h8..l8 between O stones on g8 and m8: blocked at both ends.
fn blocked_five(a: &mut App) {
    let moves = [
        (7, 7, Seat::One),
        (6, 7, Seat::Two),
        (8, 7, Seat::One),
        (12, 7, Seat::Two),
        (9, 7, Seat::One),
        (0, 0, Seat::Two),
        (10, 7, Seat::One),
        (0, 1, Seat::Two),
    ];
    for (ply, (x, y, by)) in moves.into_iter().enumerate() {
        a.server(moved(x, y, by, ply as u32 + 1));
    }
    a.notice = None;
    a.server(moved(11, 7, Seat::One, 9));
}

#[test]
fn ones_own_blocked_five_says_why_it_does_not_win() {
    let mut a = room_app(Role::Player(Seat::One));
    blocked_five(&mut a);
    let said = notice(&a);
    assert!(
        said.contains("a five blocked at both ends does not win under the caro rule"),
        "{said}"
    );
    assert!(
        a.room().is_some_and(|r| r.room.playing()),
        "the game goes on"
    );
    let (text, _) = render(&a, 100, 30);
    assert!(text.contains("does not win under the caro rule"), "{text}");
}

#[test]
fn the_opponents_blocked_five_is_told_with_the_move() {
    let mut a = room_app(Role::Player(Seat::Two));
    blocked_five(&mut a);
    assert_eq!(
        notice(&a),
        "An (X) played l8; a five blocked at both ends does not win under the caro rule"
    );
    // An ordinary move says nothing more.
    a.server(moved(3, 3, Seat::Two, 10));
    a.server(moved(4, 4, Seat::One, 11));
    assert_eq!(notice(&a), "An (X) played e11");
}
