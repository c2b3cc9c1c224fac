//! Judging a board arranged by hand in the browser page's position editor: the page does
//! not carry the rules, so it asks after every change and shows what comes back. The
//! judgement is the engine's own (`Setup::flaws`, the checks a game started from the
//! position makes), then [`super::settings::validate`]'s limits, so the page says
//! exactly what creating the room would say. Pure rule checks on a bounded board: no
//! search, microseconds, fine on the runtime.

use banco_protocol::{
    Arrangement, CaroOpening, ErrorCode, ErrorMsg, Flaw, GameSettings, Judgement, MAX_ARRANGED,
    RoomSettings, XqSquare,
};
use banco_rules::caro::setup::Setup as CaroSetup;
use banco_rules::caro::{MAX_SIDE, MIN_SIDE, Stone};
use banco_rules::game::SpecError;
use banco_rules::xiangqi::setup::Setup as XiangqiSetup;
use banco_rules::xiangqi::{Color, Piece, START, Square};

use super::settings::validate;

/// The rules' judgement of `arrangement`, or why it cannot even be read (a board size
/// out of range, a point off the board, a letter that is no piece, two on one point).
pub fn judge(arrangement: Arrangement) -> Result<Judgement, ErrorMsg> {
    let (flaws, game) = match &arrangement {
        Arrangement::Caro {
            width,
            height,
            rule,
            x,
            o,
        } => judge_caro(*width, *height, *rule, x, o)?,
        Arrangement::Xiangqi {
            pieces,
            red_to_move,
        } => judge_xiangqi(pieces, *red_to_move)?,
    };
    // The engine's checks passed: the server's own limits (an opening's most stones)
    // have the last word, as they will when the room is created.
    let (flaws, game) = match game {
        Some(game) => match validate(&RoomSettings {
            game: game.clone(),
            ..RoomSettings::default()
        }) {
            Ok(_) => (flaws, Some(game)),
            Err(e) => (
                vec![Flaw {
                    reason: e.message,
                    points: Vec::new(),
                    squares: Vec::new(),
                }],
                None,
            ),
        },
        None => (flaws, None),
    };
    Ok(Judgement {
        arrangement,
        flaws,
        game,
    })
}

type Judged = (Vec<Flaw>, Option<GameSettings>);

fn judge_caro(
    width: u8,
    height: u8,
    rule: banco_protocol::Rule,
    x: &[banco_protocol::Point],
    o: &[banco_protocol::Point],
) -> Result<Judged, ErrorMsg> {
    let sides = MIN_SIDE..=MAX_SIDE;
    if !sides.contains(&width) || !sides.contains(&height) {
        return Err(unreadable(format!(
            "a caro board must be {MIN_SIDE} to {MAX_SIDE} cells on each side, not {width}x{height}"
        )));
    }
    if x.len() + o.len() > MAX_ARRANGED {
        return Err(unreadable(format!(
            "an arrangement holds at most {MAX_ARRANGED} stones"
        )));
    }
    let mut setup = CaroSetup::new(width, height, rule).map_err(|e| unreadable(e.to_string()))?;
    for (stones, stone) in [(x, Stone::X), (o, Stone::O)] {
        for &p in stones {
            if p.x >= width || p.y >= height {
                return Err(unreadable(format!("{p} is off the {width}x{height} board")));
            }
            if setup.put(p, stone).is_some() {
                return Err(unreadable(format!("{p} holds two stones")));
            }
        }
    }
    let flaws: Vec<Flaw> = setup
        .flaws()
        .into_iter()
        .map(|f| Flaw {
            reason: f.problem.to_string(),
            points: f.points,
            squares: Vec::new(),
        })
        .collect();
    let game = match (flaws.is_empty(), setup.opening()) {
        (true, Ok(stones)) => Some(GameSettings::Caro {
            width,
            height,
            rule,
            opening: if stones.is_empty() {
                CaroOpening::None
            } else {
                CaroOpening::Stones(stones)
            },
        }),
        _ => None,
    };
    Ok((flaws, game))
}

fn judge_xiangqi(pieces: &[(XqSquare, char)], red_to_move: bool) -> Result<Judged, ErrorMsg> {
    if pieces.len() > Square::COUNT {
        return Err(unreadable(format!(
            "a xiangqi board has {} points, so at most that many pieces",
            Square::COUNT
        )));
    }
    let mut setup = XiangqiSetup::empty();
    for &(at, letter) in pieces {
        let Some(sq) = Square::new(at.file, at.rank) else {
            return Err(unreadable(format!(
                "file {} rank {} is off the xiangqi board",
                at.file, at.rank
            )));
        };
        let Some(piece) = Piece::from_fen_char(letter) else {
            return Err(unreadable(format!(
                "'{letter}' is not a piece: use the FEN letters K A B N R C P (red) and k a b n r c p (black)"
            )));
        };
        if setup.put(sq, piece).is_some() {
            return Err(unreadable(format!(
                "{}{} holds two pieces",
                char::from(b'a' + at.file),
                at.rank
            )));
        }
    }
    setup.set_side(if red_to_move {
        Color::Red
    } else {
        Color::Black
    });
    let flaws: Vec<Flaw> = setup
        .flaws()
        .into_iter()
        .map(|f| Flaw {
            reason: SpecError::from(f.problem).to_string(),
            points: Vec::new(),
            squares: f
                .squares
                .into_iter()
                .map(|s| XqSquare {
                    file: s.file(),
                    rank: s.rank(),
                })
                .collect(),
        })
        .collect();
    let game = flaws.is_empty().then(|| {
        let fen = setup.fen();
        GameSettings::Xiangqi {
            fen: (fen != START).then_some(fen),
        }
    });
    Ok((flaws, game))
}

fn unreadable(message: String) -> ErrorMsg {
    ErrorMsg::new(ErrorCode::BadSettings, message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_protocol::{Point, Rule};

    fn caro(x: Vec<Point>, o: Vec<Point>) -> Arrangement {
        Arrangement::Caro {
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
            x,
            o,
        }
    }

    fn row(y: u8, xs: std::ops::Range<u8>) -> Vec<Point> {
        xs.map(|x| Point::new(x, y)).collect()
    }

    #[test]
    fn a_caro_board_is_judged_as_the_room_would_be() {
        // Good: X one stone ahead, so O moves next; laid alternately from X.
        let j = judge(caro(row(7, 5..7), row(8, 5..6))).unwrap();
        assert!(j.flaws.is_empty(), "{:?}", j.flaws);
        let Some(GameSettings::Caro {
            opening: CaroOpening::Stones(stones),
            ..
        }) = j.game
        else {
            panic!("no game: {j:?}");
        };
        assert_eq!(stones.len(), 3);
        assert_eq!(stones[1], Point::new(5, 8), "O's stone second");

        // Counts no alternate laying gives.
        let j = judge(caro(row(7, 0..3), vec![])).unwrap();
        assert_eq!(j.flaws.len(), 1);
        assert!(j.flaws[0].reason.contains("X has 3 stones and O 0"));
        assert!(j.game.is_none());

        // A five already made, with its points marked.
        let j = judge(caro(row(7, 0..5), row(9, 0..4))).unwrap();
        assert!(j.game.is_none());
        let five = j.flaws.iter().find(|f| !f.points.is_empty()).unwrap();
        assert_eq!(five.points.len(), 5);

        // The server's own limit: at most a third of the board.
        let j = judge(Arrangement::Caro {
            width: 5,
            height: 5,
            rule: Rule::Freestyle,
            x: vec![
                Point::new(0, 0),
                Point::new(2, 0),
                Point::new(4, 0),
                Point::new(1, 2),
                Point::new(3, 4),
            ],
            o: vec![
                Point::new(1, 0),
                Point::new(3, 0),
                Point::new(0, 2),
                Point::new(2, 4),
            ],
        })
        .unwrap();
        assert!(j.game.is_none());
        assert!(
            j.flaws[0].reason.contains("at most 8 stones"),
            "{:?}",
            j.flaws
        );

        // Unreadable: off the board, two stones on a point.
        assert!(judge(caro(vec![Point::new(15, 0)], vec![])).is_err());
        assert!(judge(caro(vec![Point::new(1, 1)], vec![Point::new(1, 1)])).is_err());
    }

    fn xq(pieces: &[(u8, u8, char)], red: bool) -> Arrangement {
        Arrangement::Xiangqi {
            pieces: pieces
                .iter()
                .map(|&(file, rank, c)| (XqSquare { file, rank }, c))
                .collect(),
            red_to_move: red,
        }
    }

    #[test]
    fn a_xiangqi_board_is_judged_with_the_points_each_reason_concerns() {
        // Two generals and a red chariot: playable, and its FEN comes back.
        let j = judge(xq(&[(4, 0, 'K'), (3, 9, 'k'), (0, 3, 'R')], true)).unwrap();
        assert!(j.flaws.is_empty(), "{:?}", j.flaws);
        let Some(GameSettings::Xiangqi { fen: Some(fen) }) = j.game else {
            panic!("no FEN: {j:?}");
        };
        assert!(fen.ends_with(" w - - 0 1") || fen.contains(" w "), "{fen}");

        // Generals facing on the open e file: both squares marked.
        let j = judge(xq(&[(4, 0, 'K'), (4, 9, 'k')], true)).unwrap();
        assert!(j.game.is_none());
        assert_eq!(j.flaws[0].squares.len(), 2, "{:?}", j.flaws);
        assert!(j.flaws[0].reason.contains("face"), "{}", j.flaws[0].reason);

        // A black general where none can stand.
        let j = judge(xq(&[(4, 0, 'K'), (4, 5, 'k')], true)).unwrap();
        assert!(
            j.flaws.iter().any(|f| f.reason.contains("e5")),
            "{:?}",
            j.flaws
        );

        // The usual start is sent as no FEN at all.
        let start = XiangqiSetup::start();
        let pieces: Vec<(XqSquare, char)> = start
            .pieces()
            .map(|(s, p)| {
                (
                    XqSquare {
                        file: s.file(),
                        rank: s.rank(),
                    },
                    p.fen_char(),
                )
            })
            .collect();
        let j = judge(Arrangement::Xiangqi {
            pieces,
            red_to_move: true,
        })
        .unwrap();
        assert_eq!(j.game, Some(GameSettings::Xiangqi { fen: None }));

        // Unreadable: a letter that is no piece, a point off the board.
        assert!(judge(xq(&[(4, 0, 'Q')], true)).is_err());
        assert!(judge(xq(&[(9, 0, 'K')], true)).is_err());
    }
}
