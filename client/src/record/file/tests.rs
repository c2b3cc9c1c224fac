//! The record format: what is written reads back the same, and every way a file can be
//! wrong is refused with its line.

use super::*;
use crate::record::Side;
use banco_protocol::{
    EndReason, GameOver, GameRecord, GameSettings, Move, MoveRecord, Point, Rule, Seat,
};

/// X (seat Two moved first) makes five on row 8 (y = 7) from h to l; O plays column a.
fn caro_record() -> GameRecord {
    crate::testing::caro_game_record()
}

fn refused(text: &str) -> RecordError {
    match parse(text) {
        Err(e) => e,
        Ok(r) => panic!("accepted {text:?} as {:?}", r.moves),
    }
}

#[test]
fn a_caro_game_reads_back_as_written() {
    let replay = Replay::from_record(caro_record());
    let text = write(&replay);
    assert!(text.contains("game: caro\n"), "{text}");
    assert!(
        text.contains("x: Bình\no: An\n"),
        "X is the first mover: {text}"
    );
    assert!(text.contains("result: x\nreason: five\n"), "{text}");
    assert!(text.contains("\n1. h8    a15\n"), "{text}");
    let back = parse(&text).unwrap();
    // Seats are renumbered from the first mover; the game is the same.
    assert_eq!(back.players, ["Bình".to_string(), "An".to_string()]);
    assert_eq!(back.first, Seat::One);
    let moves = |r: &Replay| r.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
    assert_eq!(moves(&back), moves(&replay));
    assert_eq!(back.time, replay.time);
    assert_eq!(back.id, Some(42));
    let over = back.over.clone().unwrap();
    assert_eq!(over.winner, Some(Seat::One));
    assert_eq!(over.reason, EndReason::Five);
    assert_eq!(
        over.line,
        (7..12).map(|x| Point::new(x, 7)).collect::<Vec<_>>()
    );
    // Minutes survive the trip (seconds are not written).
    assert_eq!(back.ended_at_ms, Some(1_746_000_000_000 / 60_000 * 60_000));
    assert_eq!(default_name(&replay), "banco-caro-42.txt");
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
        GameSettings::Caro {
            width: 9,
            height: 9,
            rule: Rule::Freestyle,
            opening: banco_protocol::CaroOpening::None,
        }
    );
    let over = r.over.unwrap();
    assert_eq!(
        (over.winner, over.reason),
        (Some(Seat::One), EndReason::Five)
    );
    assert_eq!(over.line.len(), 5);
    // No result and no five: an unfinished game.
    let r = parse("game: caro\n1. h8 h9\n").unwrap();
    assert!(r.over.is_none());
    // A resignation is taken as written.
    let r = parse("game: caro\nresult: o\nreason: resign\n1. h8 h9\n").unwrap();
    assert_eq!(r.over.unwrap().winner, Some(Seat::Two));
}

#[test]
fn a_xiangqi_game_reads_back_with_iccs_and_wxf() {
    let text = "game: xiangqi\nred: An\nblack: Bình\nresult: black\nreason: resign\n\n\
                1. h2e2 C2.5 h9g7\n2. H2+3 R9.8\n";
    let r = parse(text).unwrap();
    let wxf: Vec<&str> = r.moves.iter().map(|m| m.wxf.as_str()).collect();
    assert_eq!(wxf, ["C2.5", "H8+7", "H2+3", "R9.8"]);
    assert_eq!(r.move_text(&r.moves[2].mv), "h0g2");
    assert_eq!(r.players, ["An".to_string(), "Bình".to_string()]);
    assert_eq!(r.over.as_ref().unwrap().winner, Some(Seat::Two));
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
    let back = parse(&again).unwrap();
    assert_eq!(back.moves, r.moves);
    assert_eq!(back.over, r.over);
}

#[test]
fn a_xiangqi_start_position_decides_who_moves_first() {
    // Black to move mates at once: Black's player is seat One and wins by the rules.
    let fen = "3k5/9/9/9/9/9/9/8r/r8/4K4 b - - 0 1";
    let text = format!("game: xiangqi\nstart: {fen}\nred: An\nblack: Bình\n1. i2i0\n");
    let r = parse(&text).unwrap();
    assert_eq!(r.players[0], "Bình");
    assert_eq!(r.side(Seat::One), Side::Black);
    assert_eq!(r.start_fen, fen);
    assert!(r.moves[0].check);
    let over = r.over.clone().unwrap();
    assert_eq!(
        (over.winner, over.reason),
        (Some(Seat::One), EndReason::Checkmate)
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
    let e = refused("game: caro\nrule: gomoku-pro\n");
    assert_eq!(e.line, 2);
    let e = refused("game: caro\n\n1. h8 z99\n");
    assert_eq!(e.line, 3);
    assert!(e.message.starts_with("move 2:"), "{e}");
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
fn files_on_disk_are_checked_for_size_and_text() {
    let dir = std::env::temp_dir().join(format!("banco-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.txt");
    std::fs::write(&good, write(&Replay::from_record(caro_record()))).unwrap();
    assert_eq!(load(&good).unwrap().moves.len(), 9);
    let binary = dir.join("binary.txt");
    std::fs::write(&binary, [0xff, 0xfe, 0x00]).unwrap();
    let e = load(&binary).unwrap_err().to_string();
    assert!(e.contains("not UTF-8"), "{e}");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "game: caro\n1. h8 h8\n").unwrap();
    let e = load(&bad).unwrap_err().to_string();
    assert!(
        e.contains("bad.txt is not a banco game record, line 2: move 2"),
        "{e}"
    );
    let e = load(&dir.join("missing.txt")).unwrap_err().to_string();
    assert!(e.starts_with("could not read"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_game_from_an_opening_writes_its_stones_and_replays_on_them() {
    // A balanced room's game: dealt h8 (X), i9 (O), h10 (X); An (seat One) moved first
    // with O and Bình (X) made five in column h (h8 .. h12) with the opening's stones.
    let opening = vec![Point::new(7, 7), Point::new(8, 6), Point::new(7, 5)];
    let mut record = caro_record();
    record.summary.game = GameSettings::Caro {
        width: 15,
        height: 15,
        rule: Rule::Caro,
        opening: banco_protocol::CaroOpening::Balanced,
    };
    record.summary.first = Seat::One;
    record.opening = opening.clone();
    let o = |x: u8, y: u8| MoveRecord {
        mv: Move::Caro(Point::new(x, y)),
        by: Seat::One,
        wxf: String::new(),
        check: false,
    };
    let x = |x: u8, y: u8| MoveRecord {
        by: Seat::Two,
        ..o(x, y)
    };
    record.moves = vec![o(0, 0), x(7, 6), o(0, 1), x(7, 4), o(0, 2), x(7, 3)];
    record.summary.over = GameOver {
        winner: Some(Seat::Two),
        reason: EndReason::Five,
        line: (3..8).map(|y| Point::new(7, y)).collect(),
    };
    let replay = Replay::from_record(record);
    assert_eq!(replay.side(Seat::One), Side::O);
    let text = write(&replay);
    assert!(text.contains("opening: h8 i9 h10\n"), "{text}");
    assert!(text.contains("o: An\nx: Bình\n"), "O moved first: {text}");
    assert!(text.contains("result: x\n"), "{text}");
    assert!(text.contains("\n1. a15   h9\n"), "{text}");

    let mut back = parse(&text).unwrap();
    assert_eq!(back.opening, opening);
    assert_eq!(back.players, ["An".to_string(), "Bình".to_string()]);
    assert_eq!(back.side(Seat::One), Side::O);
    assert_eq!(back.over.as_ref().unwrap().winner, Some(Seat::Two));
    // At the start the opening stands alone; stepping back never removes it.
    assert_eq!(back.board().caro().unwrap().board().stones(), 3);
    back.go_to(100);
    assert_eq!(back.board().caro().unwrap().board().stones(), 9);
    back.go_to(0);
    assert!(!back.back());
    assert_eq!(back.board().caro().unwrap().board().stones(), 3);

    // Bad stones are refused with the opening's line.
    let e = parse("game: caro\nopening: h8 h8\n\nh9\n").unwrap_err();
    assert_eq!(e.line, 2, "{e}");
    assert!(e.message.contains("already holds"), "{e}");
    let e = parse("game: caro\nopening: z99\n").unwrap_err();
    assert!(e.to_string().starts_with("line 2: opening stone 1"), "{e}");
    let e = parse("game: xiangqi\nopening: h8\n").unwrap_err();
    assert!(e.message.contains("for caro"), "{e}");
    // A move onto an opening stone is refused like any taken point.
    let e = parse("game: caro\nopening: h8 i9 h10\n\ni9\n").unwrap_err();
    assert!(e.message.contains("already taken"), "{e}");
}
