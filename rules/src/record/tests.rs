//! The one reader and writer of record files: what is written reads back the same, every
//! way a file can be wrong is refused with its line, and a record made elsewhere is
//! checked before it is written. (These took over the browser page's own record tests
//! when its JavaScript twin of this parser was deleted.)

use super::*;
use crate::caro::{Point, Rule};
use crate::game::EndReason;
use proptest::prelude::*;

fn refused(text: &str) -> RecordError {
    match parse(text) {
        Err(e) => e,
        Ok(r) => panic!("accepted {text:?} as {:?}", r.moves),
    }
}

#[test]
fn a_renju_record_reads_and_a_forbidden_move_is_refused_with_its_reason() {
    // X: f8 g8 i7 i6, O far away: i8 would be a double three for X (Black).
    let text = "game: caro\nrule: renju\n1. f8 a1\n2. g8 a3\n3. i7 a5\n4. i6 a9\n";
    let r = parse(text).unwrap();
    assert_eq!(r.moves.len(), 8);
    let e = refused(&format!("{text}5. i8\n"));
    assert_eq!(e.line, 7);
    assert!(e.message.contains("double three at i8"), "{e}");
}

fn caro(x: u8, y: u8) -> Played {
    Played {
        mv: Move::Caro(Point::new(x, y)),
        note: MoveNote::default(),
    }
}

/// X makes five on row 8 (y = 7) from h to l; O plays column a.
fn caro_record() -> Record {
    let mut moves = Vec::new();
    for i in 0..5u8 {
        moves.push(caro(7 + i, 7));
        if i < 4 {
            moves.push(caro(0, i));
        }
    }
    Record {
        game: GameSpec::Caro {
            width: 15,
            height: 15,
            rule: Rule::Caro,
            opening: Vec::new(),
        },
        time: Some(TimeControl::PerMove { millis: 20_000 }),
        players: ["Bình".into(), "An".into()],
        ending: Some(Ending {
            winner: Some(Side::First),
            reason: Reason::Rules(EndReason::Five),
            line: (7..12).map(|x| Point::new(x, 7)).collect(),
        }),
        ended: wall::WallTime::parse("2025-05-01 19:42"),
        id: Some(42),
        moves,
    }
}

#[test]
fn a_caro_game_reads_back_as_written() {
    let record = caro_record().check().expect("a good game");
    let text = write(&record);
    assert!(
        text.contains("game: caro\nboard: 15x15\nrule: caro\ntime: 20s/move\n"),
        "{text}"
    );
    assert!(
        text.contains("x: Bình\no: An\n"),
        "X is the first mover: {text}"
    );
    assert!(
        text.contains("result: x\nreason: five\nended: 2025-05-01 19:42\nid: 42\n"),
        "{text}"
    );
    assert!(text.contains("\n1. h8    a15\n"), "{text}");
    assert_eq!(parse(&text), Ok(record.clone()));
    assert_eq!(file_name(&record), "banco-caro-42.txt");
    let unnumbered = Record {
        id: None,
        ..record.clone()
    };
    assert_eq!(file_name(&unnumbered), "banco-caro-20250501-1942.txt");
    assert_eq!(
        file_name(&Record {
            ended: None,
            ..unnumbered
        }),
        "banco-caro.txt"
    );
}

#[test]
fn a_hand_written_caro_game_takes_its_result_from_the_rules() {
    let text = "game: Caro\nboard: 9\nrule: freestyle\nX: Lan\n\n\
                # X wins on the bottom row\n\
                a1 0,0 b1 1,0\nc1 2,0 d1 3,0   # nearly\ne1\n";
    let r = parse(text).unwrap();
    assert_eq!(r.players, ["Lan".to_string(), "?".to_string()]);
    assert_eq!(
        r.game,
        GameSpec::Caro {
            width: 9,
            height: 9,
            rule: Rule::Freestyle,
            opening: Vec::new(),
        }
    );
    let over = r.ending.unwrap();
    assert_eq!(
        (over.winner, over.reason),
        (Some(Side::First), Reason::Rules(EndReason::Five))
    );
    assert_eq!(over.line.len(), 5);
    // No result and no five: an unfinished game.
    assert_eq!(parse("game: caro\n1. h8 h9\n").unwrap().ending, None);
    // A resignation is taken as written.
    let r = parse("game: caro\nresult: o\nreason: resign\n1. h8 h9\n").unwrap();
    assert_eq!(r.ending.unwrap().winner, Some(Side::Second));
    // An aborted game has no result, and says so.
    let r = parse("game: caro\nresult: draw\nreason: aborted\n1. h8\n").unwrap();
    assert_eq!(r.ending.unwrap().reason, Reason::Aborted);
}

#[test]
fn a_xiangqi_game_reads_back_with_iccs_and_wxf() {
    let text = "game: xiangqi\nred: An\nblack: Bình\nresult: black\nreason: resign\n\n\
                1. h2e2 C2.5 h9g7\n2. H2+3 R9.8\n";
    let r = parse(text).unwrap();
    let wxf: Vec<&str> = r.moves.iter().map(|m| m.note.wxf.as_str()).collect();
    assert_eq!(wxf, ["C2.5", "H8+7", "H2+3", "R9.8"]);
    assert_eq!(r.players, ["An".to_string(), "Bình".to_string()]);
    assert_eq!(r.ending.as_ref().unwrap().winner, Some(Side::Second));
    let again = write(&r);
    assert!(
        again.contains(
            "start: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
        ),
        "{again}"
    );
    assert!(
        again.contains("\n1. h2e2 C2.5   h9g7 H8+7\n2. h0g2 H2+3   i9h9 R9.8\n"),
        "{again}"
    );
    assert_eq!(parse(&again), Ok(r));
}

#[test]
fn a_xiangqi_start_position_decides_who_moves_first() {
    // Black to move mates at once: Black is the first side and wins by the rules.
    let fen = "3k5/9/9/9/9/9/9/8r/r8/4K4 b - - 0 1";
    let text = format!("game: xiangqi\nstart: {fen}\nred: An\nblack: Bình\n1. i2i0\n");
    let r = parse(&text).unwrap();
    assert_eq!(r.players[0], "Bình");
    assert_eq!(r.side_words(), Some([SideWord::Black, SideWord::Red]));
    assert_eq!(
        r.game,
        GameSpec::Xiangqi {
            fen: Some(fen.into())
        }
    );
    assert!(r.moves[0].note.check);
    let over = r.ending.clone().unwrap();
    assert_eq!(
        (over.winner, over.reason),
        (Some(Side::First), Reason::Rules(EndReason::Checkmate))
    );
    assert!(write(&r).contains("black: Bình\nred: An\nresult: black\nreason: checkmate\n"));
    let e = refused(&format!(
        "game: xiangqi\nstart: {fen}\nresult: red\nreason: resign\ni2i0\n"
    ));
    assert!(e.message.contains("moves end the game (checkmate)"), "{e}");
}

#[test]
fn malformed_files_are_refused_with_the_line_at_fault() {
    let e = refused("# nothing\n1. h8\n");
    assert_eq!(e.line, 0);
    assert!(e.message.contains("game:"), "{e}");
    let e = refused("game: chess\n");
    assert_eq!((e.line, e.message.contains("unknown game")), (1, true));
    let e = refused("game: caro\ncolour: red\n");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("unknown header 'colour'"), "{e}");
    let e = refused("game: caro\nx: A\nx: B\n");
    assert!(e.message.contains("twice") && e.line == 3, "{e}");
    let e = refused("game: caro\nred: A\n");
    assert!(
        e.message.contains("not a side in caro") && e.line == 2,
        "{e}"
    );
    let e = refused("game: caro\nboard: 99\n");
    assert!(e.message.contains("5 to 64") && e.line == 2, "{e}");
    let e = refused("game: caro\nboard: 9\n1. j10\n");
    assert!(
        e.message.contains("off the 9x9 board") && e.line == 3,
        "{e}"
    );
    let e = refused("game: caro\nrule: gomoku-pro\n");
    assert_eq!(e.line, 2);
    let e = refused("game: caro\n\n1. h8 z99\n");
    assert_eq!(e.line, 3);
    assert!(e.message.starts_with("move 2:"), "{e}");
    let e = refused("game: caro\n\n1. h8 h8\n");
    assert_eq!(e.to_string(), "line 3: move 2 (h8): h8 is already taken");
    let e = refused("game: caro\n1. h8 i9\n2. h8\n");
    assert_eq!(e.line, 3);
    assert!(e.message.contains("already taken"), "{e}");
    let e = refused("game: caro\n1. h8\nresult: x\n");
    assert!(e.message.contains("before the moves") && e.line == 3, "{e}");
    let e = refused("game: caro\nboard: 9\na1 a9 b1 b9 c1 c9 d1 d9 e1\nf1\n");
    assert_eq!(e.line, 4);
    assert!(e.message.contains("already won"), "{e}");
    // The result must agree with the moves.
    let five = "game: caro\nboard: 9\nresult: o\nreason: five\na1 a9 b1 b9 c1 c9 d1 d9 e1\n";
    let e = refused(five);
    assert!(e.message.contains("file says o") && e.line == 3, "{e}");
    let e = refused("game: caro\nresult: x\nreason: five\n1. h8 h9\n");
    assert!(
        e.message.contains("do not end that way") && e.line == 3,
        "{e}"
    );
    let e = refused("game: caro\nresult: x\n1. h8\n");
    assert!(e.message.contains("reason"), "{e}");
    let e = refused("game: caro\nresult: x\nreason: boredom\n");
    assert!(e.message.contains("not a way a game ends"), "{e}");
    let e = refused("game: caro\nresult: maybe\nreason: resign\n");
    assert!(e.message.contains("x, o, draw or unfinished"), "{e}");
    let e = refused("game: caro\nresult: draw\nreason: timeout\n");
    assert!(e.message.contains("a draw ends by agreement"), "{e}");
    let e = refused("game: caro\ntime: soon\n");
    assert!(e.message.contains("not a time") && e.line == 2, "{e}");
    let e = refused("game: caro\nended: yesterday\n");
    assert!(e.message.contains("not a date"), "{e}");
    let e = refused("game: caro\nid: forty\n");
    assert!(e.message.contains("not a game number"), "{e}");
    // Xiangqi: illegal moves, a WXF that disagrees with its ICCS, a bad FEN.
    let e = refused("game: xiangqi\n1. h2e2 h9g7\n2. e2e9\n");
    assert_eq!(e.line, 3);
    assert!(e.message.contains("move 3 (e2e9) is not legal"), "{e}");
    let e = refused("game: xiangqi\n1. h2e2 K5+3\n");
    assert!(
        e.message.contains("neither h2e2 in WXF (that is C2.5)"),
        "{e}"
    );
    let e = refused("game: xiangqi\nstart: nonsense\n");
    assert!(e.message.contains("start position") && e.line == 2, "{e}");
    let e = refused("game: xiangqi\n1. Q9.9\n");
    assert!(e.message.starts_with("move 1:"), "{e}");
    let e = refused("game: xiangqi\nboard: 9x10\n");
    assert!(e.message.contains("for caro"), "{e}");
    let e = refused("game: xiangqi\nx: A\n");
    assert!(e.message.contains("red: and black:"), "{e}");
}

#[test]
fn an_opening_writes_its_stones_and_makes_o_the_first_mover() {
    let text = "game: caro\nopening: h8 i9 h10\nx: Bình\no: An\n\n1. a15 h9\n";
    let r = parse(text).unwrap();
    assert_eq!(r.side_words(), Some([SideWord::O, SideWord::X]));
    assert_eq!(r.players, ["An".to_string(), "Bình".to_string()]);
    assert_eq!(r.moves.len(), 2);
    let again = write(&r);
    assert!(
        again.contains("opening: h8 i9 h10\no: An\nx: Bình\n"),
        "{again}"
    );
    assert_eq!(parse(&again), Ok(r));
    let e = parse("game: caro\nopening: h8 h8\n\nh9\n").unwrap_err();
    assert_eq!(e.line, 2, "{e}");
    assert!(e.message.contains("already holds"), "{e}");
    let e = parse("game: caro\nopening: z99\n").unwrap_err();
    assert!(e.to_string().starts_with("line 2: opening stone 1"), "{e}");
    let e = parse("game: xiangqi\nopening: h8\n").unwrap_err();
    assert!(e.message.contains("for caro"), "{e}");
    let e = parse("game: caro\nopening: h8 i9 h10\n\ni9\n").unwrap_err();
    assert!(e.message.contains("already taken"), "{e}");
}

#[test]
fn a_record_made_elsewhere_is_checked_before_it_is_written() {
    // Notes are the rules', whatever came in.
    let mut r = parse("game: xiangqi\n1. h2e2\n").unwrap();
    r.moves[0].note.wxf = "nonsense".into();
    let checked = r.clone().check().unwrap();
    assert_eq!(checked.moves[0].note.wxf, "C2.5");
    // A move the rules refuse, or one after the end.
    let mut bad = caro_record();
    bad.moves.push(caro(7, 7));
    let e = bad.check().unwrap_err();
    assert!(e.message.contains("already over"), "{e}");
    let mut bad = caro_record();
    bad.moves[2] = caro(7, 7);
    assert!(bad.check().unwrap_err().message.contains("not legal"));
    // An ending that disagrees with the moves.
    let mut bad = caro_record();
    bad.ending = None;
    assert!(bad.check().unwrap_err().message.contains("unfinished"));
    let mut bad = caro_record();
    bad.ending = Some(Ending {
        winner: Some(Side::Second),
        reason: Reason::Resign,
        line: Vec::new(),
    });
    assert!(bad.check().unwrap_err().message.contains("by five"));
    let mut short = caro_record();
    short.moves.truncate(4);
    short.ending = Some(Ending {
        winner: None,
        reason: Reason::Timeout,
        line: Vec::new(),
    });
    assert!(
        short
            .check()
            .unwrap_err()
            .message
            .contains("a draw ends by agreement")
    );
}

#[test]
fn every_reason_word_reads_back() {
    for r in Reason::ALL {
        assert_eq!(Reason::from_word(r.word()), Some(r));
    }
    assert_eq!(
        Reason::from_word("Perpetual-Check"),
        Some(Reason::Rules(EndReason::PerpetualCheck))
    );
}

proptest! {
    /// Any text: refused with a sentence or read, never a panic; and whatever is read
    /// writes a file that reads back the same.
    #[test]
    fn any_text_is_read_or_refused_and_what_is_read_round_trips(
        head in prop::sample::select(vec!["game: caro\n", "game: xiangqi\n", "game: caro\nboard: 9\n", ""]),
        body in "[a-k0-9 ,.:#\n+=-]{0,80}",
    ) {
        let text = format!("{head}{body}");
        if let Ok(r) = parse(&text) {
            prop_assert_eq!(parse(&write(&r)), Ok(r));
        }
    }

    /// A random caro game played to its end or a stop is checked, written and read back.
    #[test]
    fn random_caro_games_round_trip(points in prop::collection::vec((0u8..9, 0u8..9), 0..60)) {
        let mut game = crate::game::Game::new(&GameSpec::Caro {
            width: 9, height: 9, rule: Rule::Freestyle, opening: Vec::new(),
        }).unwrap();
        let mut moves = Vec::new();
        for (x, y) in points {
            if game.ending().is_some() {
                break;
            }
            if game.play(Move::Caro(Point::new(x, y))).is_ok() {
                moves.push(caro(x, y));
            }
        }
        let ending = game.ending().map(|e| Ending { winner: e.winner, reason: Reason::Rules(e.reason), line: e.line });
        let record = Record {
            game: GameSpec::Caro { width: 9, height: 9, rule: Rule::Freestyle, opening: Vec::new() },
            time: None,
            players: ["A".into(), "B".into()],
            ending,
            ended: None,
            id: None,
            moves,
        }.check().unwrap();
        prop_assert_eq!(parse(&write(&record)), Ok(record));
    }
}
