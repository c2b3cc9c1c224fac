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
                bot_account: false,
                name: "An".into(),
                bot: None,
                connected: true,
            }),
            Some(SeatView {
                bot_account: false,
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
            opening: Vec::new(),
            moves: vec![],
            clocks: Some(Clocks {
                remaining_ms: [20_000, 20_000],
                running: Some(Seat::One),
            }),
            over: None,
            swap: None,
        }),
        offer: None,
        chat: vec![],
        series: banco_protocol::Series::default(),
        match_state: None,
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
        not_a_win: None,
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
        not_a_win: None,
    }
}

/// Game 42 from the server's records: 15x15 caro rule, Bình (seat Two, X, first) makes
/// five on row 8 from h to l against An's column a.
pub fn caro_game_record() -> banco_protocol::GameRecord {
    use banco_protocol::{EndReason, GameOver, GameSettings, GameSummary};
    let mut moves = Vec::new();
    for i in 0..5u8 {
        moves.push(MoveRecord {
            mv: Move::Caro(Point::new(7 + i, 7)),
            by: Seat::Two,
            wxf: String::new(),
            check: false,
        });
        if i < 4 {
            moves.push(MoveRecord {
                mv: Move::Caro(Point::new(0, i)),
                by: Seat::One,
                wxf: String::new(),
                check: false,
            });
        }
    }
    banco_protocol::GameRecord {
        summary: GameSummary {
            id: 42,
            game: GameSettings::caro_default(),
            time: TimeControl::PerMove { millis: 20_000 },
            players: ["An".into(), "Bình".into()],
            first: Seat::Two,
            over: GameOver {
                winner: Some(Seat::Two),
                reason: EndReason::Five,
                line: (7..12).map(|x| Point::new(x, 7)).collect(),
            },
            plies: 9,
            ended_at_ms: 1_746_000_000_000,
            rated: true,
            in_match: None,
        },
        start_fen: String::new(),
        opening: Vec::new(),
        moves,
        swap: None,
    }
}

/// Game 43: xiangqi, An (seat One, Red) against Bình; four moves, then An resigns.
pub fn xiangqi_game_record() -> banco_protocol::GameRecord {
    use banco_protocol::{EndReason, GameOver, GameSettings};
    let mut record = caro_game_record();
    record.summary.id = 43;
    record.summary.game = GameSettings::Xiangqi { fen: None };
    record.summary.first = Seat::One;
    record.summary.time = TimeControl::Clock {
        initial_millis: 600_000,
        increment_millis: 5_000,
    };
    record.summary.over = GameOver {
        winner: Some(Seat::Two),
        reason: EndReason::Resign,
        line: vec![],
    };
    record.summary.plies = 4;
    record.moves = [
        ("h2e2", Seat::One, "C2.5"),
        ("h9g7", Seat::Two, "H8+7"),
        ("h0g2", Seat::One, "H2+3"),
        ("i9h9", Seat::Two, "R9.8"),
    ]
    .into_iter()
    .enumerate()
    .map(
        |(i, (iccs, by, wxf))| match xq_moved(iccs, by, i as u32 + 1, wxf) {
            ServerMsg::Moved { record, .. } => record,
            _ => unreachable!("xq_moved makes a Moved"),
        },
    )
    .collect();
    record
}

/// The caro leaderboard of [`standings`], as the server sends it.
pub fn leaderboard() -> ServerMsg {
    ServerMsg::Leaderboard {
        game: banco_protocol::GameKind::Caro,
        standings: standings(),
    }
}

/// A leaderboard: two people and a bot.
pub fn standings() -> Vec<banco_protocol::Standing> {
    let s = |name: &str, bot, rating, w, l, d| banco_protocol::Standing {
        bot_account: false,
        name: name.into(),
        bot,
        rating: banco_protocol::Rating {
            rating,
            deviation: 60,
            provisional: false,
        },
        games: w + l + d,
        wins: w,
        losses: l,
        draws: d,
    };
    vec![
        s(
            "Bot (hard)",
            Some(banco_protocol::Level::Hard),
            1712,
            9,
            1,
            0,
        ),
        s("Bình", None, 1624, 3, 1, 1),
        s("An", None, 1588, 1, 3, 1),
    ]
}

/// A rating point `days` after 2025-05-01 (noon UTC).
fn point(days: u64, rating: i32, deviation: u16) -> banco_protocol::RatingPoint {
    banco_protocol::RatingPoint {
        at_ms: 1_746_100_800_000 + days * 86_400_000,
        rating,
        deviation,
    }
}

/// Bình's profile: a registered account with a settled caro rating (a rise, a dip and
/// a climb over 14 games, ranked 2nd) and one provisional xiangqi game; recent games of
/// both kinds, won, lost, unrated and aborted.
pub fn established_profile() -> banco_protocol::Profile {
    use banco_protocol::{BestWin, EndReason, GameKind, KindRecord, Rating};
    let caro_curve = [
        1500, 1562, 1610, 1588, 1631, 1664, 1640, 1602, 1577, 1603, 1648, 1690, 1712, 1724,
    ];
    let caro_history: Vec<_> = caro_curve
        .iter()
        .enumerate()
        .map(|(i, r)| point(i as u64 * 2, *r, (340 - i * 20).max(60) as u16))
        .collect();
    let mut lost = caro_game_record().summary;
    lost.id = 51;
    lost.players = ["Bình".into(), "Hard bot".into()];
    lost.first = Seat::One;
    lost.over.winner = Some(Seat::Two);
    lost.over.reason = EndReason::Resign;
    lost.over.line.clear();
    lost.ended_at_ms = 1_747_300_000_000;
    let mut unrated = xiangqi_game_record().summary;
    unrated.id = 50;
    unrated.players = ["~Khách".into(), "Bình".into()];
    unrated.rated = false;
    unrated.ended_at_ms = 1_747_200_000_000;
    let mut aborted = caro_game_record().summary;
    aborted.id = 49;
    aborted.plies = 1;
    aborted.over.winner = None;
    aborted.over.reason = EndReason::Aborted;
    aborted.over.line.clear();
    aborted.rated = false;
    aborted.ended_at_ms = 1_747_100_000_000;
    banco_protocol::Profile {
        bot_account: false,
        name: "Bình".into(),
        bot: None,
        registered_at_ms: Some(1_746_000_000_000),
        first_seen_ms: 1_740_000_000_000,
        games: vec![
            KindRecord {
                game: GameKind::Caro,
                rating: Rating {
                    rating: 1724,
                    deviation: 62,
                    provisional: false,
                },
                rank: Some(2),
                games: 14,
                wins: 9,
                losses: 4,
                draws: 1,
                best_win: Some(BestWin {
                    game: 42,
                    opponent: "An".into(),
                    opponent_rating: 1702,
                    ended_at_ms: 1_746_000_000_000,
                }),
                history: caro_history,
                matches: Default::default(),
            },
            KindRecord {
                game: GameKind::Xiangqi,
                rating: Rating {
                    rating: 1562,
                    deviation: 290,
                    provisional: true,
                },
                rank: None,
                games: 1,
                wins: 1,
                losses: 0,
                draws: 0,
                best_win: None,
                history: vec![point(3, 1562, 290)],
                matches: Default::default(),
            },
        ],
        recent: vec![lost, unrated, aborted, caro_game_record().summary],
    }
}

/// An's profile as a newcomer: registered today, no rated game of either kind, nothing
/// played.
pub fn new_profile() -> banco_protocol::Profile {
    use banco_protocol::{GameKind, KindRecord, Rating};
    let empty = |game| KindRecord {
        game,
        rating: Rating {
            rating: 1500,
            deviation: 350,
            provisional: true,
        },
        rank: None,
        games: 0,
        wins: 0,
        losses: 0,
        draws: 0,
        best_win: None,
        history: vec![],
        matches: Default::default(),
    };
    banco_protocol::Profile {
        bot_account: false,
        name: "An".into(),
        bot: None,
        registered_at_ms: Some(1_747_000_000_000),
        first_seen_ms: 1_747_000_000_000,
        games: vec![empty(GameKind::Caro), empty(GameKind::Xiangqi)],
        recent: vec![],
    }
}

/// The xiangqi leaderboard: one settled rating and a provisional one.
pub fn xiangqi_leaderboard() -> ServerMsg {
    let mut standings = standings();
    standings.truncate(2);
    standings[1].name = "An".into();
    standings[1].rating.rating = 1500;
    standings[1].rating.deviation = 280;
    standings[1].rating.provisional = true;
    ServerMsg::Leaderboard {
        game: banco_protocol::GameKind::Xiangqi,
        standings,
    }
}
