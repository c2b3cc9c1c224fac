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

/// Room 8: xiangqi from the usual start, An (seat One, Red, first) against Bình.
pub fn xiangqi_room_view(you: Role) -> RoomView {
    let mut view = caro_room_view(you);
    view.id = 8;
    view.settings.game = banco_protocol::GameSettings::Xiangqi { fen: None };
    view.settings.time = TimeControl::Clock {
        initial_millis: 600_000,
        increment_millis: 5_000,
    };
    if let Some(game) = &mut view.game {
        game.start_fen =
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1".into();
        game.clocks = Some(Clocks {
            remaining_ms: [600_000, 600_000],
            running: Some(Seat::One),
        });
    }
    view
}

/// The server's announcement of a xiangqi move in ICCS (`h2e2`).
pub fn xq_moved(iccs: &str, by: Seat, ply: u32, wxf: &str) -> ServerMsg {
    let b = iccs.as_bytes();
    let sq = |f: u8, r: u8| banco_protocol::XqSquare {
        file: f - b'a',
        rank: r - b'0',
    };
    ServerMsg::Moved {
        record: MoveRecord {
            mv: Move::Xiangqi {
                from: sq(b[0], b[1]),
                to: sq(b[2], b[3]),
            },
            by,
            wxf: wxf.into(),
            check: false,
        },
        ply,
        clocks: None,
    }
}
