//! Fixtures for the unit tests: rooms and server messages as the server would send them.

use banco_protocol::{
    Clocks, GameView, Move, MoveRecord, Point, Role, RoomSettings, RoomView, Seat, SeatView,
    ServerMsg, TimeControl,
};

/// Room 7: 15x15 caro rule with a 20 s move timer, An in seat One against Bình, game 1
/// just started with An (X) to move.
pub fn caro_room_view(you: Role) -> RoomView {
    RoomView {
        id: 7,
        settings: RoomSettings {
            time: TimeControl::PerMove { millis: 20_000 },
            ..RoomSettings::default()
        },
        you,
        seats: [
            Some(SeatView {
                name: "An".into(),
                bot: None,
                connected: true,
            }),
            Some(SeatView {
                name: "Bình".into(),
                bot: None,
                connected: true,
            }),
        ],
        spectators: vec![],
        game: Some(GameView {
            number: 1,
            first: Seat::One,
            start_fen: String::new(),
            moves: vec![],
            clocks: Some(Clocks {
                remaining_ms: [20_000, 20_000],
                running: Some(Seat::One),
            }),
            over: None,
        }),
        offer: None,
        chat: vec![],
    }
}

/// The server's announcement of a caro move at (x, y).
pub fn moved(x: u8, y: u8, by: Seat, ply: u32) -> ServerMsg {
    ServerMsg::Moved {
        record: MoveRecord {
            mv: Move::Caro(Point::new(x, y)),
            by,
            wxf: String::new(),
            check: false,
        },
        ply,
        clocks: None,
    }
}
