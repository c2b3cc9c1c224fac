//! The position editor driven by keys and clicks: positions arranged on the board, every
//! refusal with the rules' own sentence on the points it concerns, FEN in and out, and
//! the room created from the result.

use super::*;
use crate::app::editor::{EditBoard, EditorScreen, EditorSpot};
use banco_protocol::{CaroOpening, GameSettings, Point};
use banco_rules::caro::Stone;
use banco_rules::xiangqi::{Color, Kind, Piece, Square};
use crossterm::event::{MouseButton, MouseEventKind};

fn sq(text: &str) -> Square {
    text.parse().unwrap()
}

fn editor(app: &App) -> &EditorScreen {
    match &app.screen {
        Screen::Editor(ed) => ed,
        _ => panic!("the editor is not open"),
    }
}

fn xiangqi_setup(app: &App) -> &banco_rules::xiangqi::Setup {
    match &editor(app).board {
        EditBoard::Xiangqi(x) => &x.setup,
        EditBoard::Caro(_) => panic!("a caro board"),
    }
}

fn caro_edit(app: &App) -> &crate::app::editor::caro::CaroEdit {
    match &editor(app).board {
        EditBoard::Caro(c) => c,
        EditBoard::Xiangqi(_) => panic!("a xiangqi board"),
    }
}

/// The reasons shown, as sentences.
fn reasons(app: &App) -> Vec<String> {
    editor(app).reasons().into_iter().map(|(t, _)| t).collect()
}

/// The points marked for the first reason.
fn marked(app: &App) -> Vec<EditorSpot> {
    editor(app)
        .reasons()
        .into_iter()
        .next()
        .map(|(_, s)| s)
        .unwrap_or_default()
}

/// A lobby with the create form open on xiangqi, then the editor opened from its
/// "start from a position…" line.
fn xiangqi_editor() -> App {
    let mut a = lobby_app();
    // Game -> xiangqi; down past the FEN line to "Arrange"; Enter opens the editor.
    press(
        &mut a,
        &[
            KeyCode::Char('c'),
            KeyCode::Right,
            KeyCode::Down,
            KeyCode::Down,
        ],
    );
    press(&mut a, &[KeyCode::Enter]);
    assert!(matches!(a.screen, Screen::Editor(_)), "the editor opens");
    a
}

/// The create form on caro `width` x `height`, freestyle, then the editor.
fn caro_editor(width: u8, height: u8) -> App {
    let mut a = lobby_app();
    press(&mut a, &[KeyCode::Char('c')]);
    if let Screen::Lobby(l) = &mut a.screen
        && let Some(f) = &mut l.create
    {
        f.width = width;
        f.height = height;
        f.rule = banco_protocol::Rule::Freestyle;
        f.focus = crate::app::create::Field::Arrange;
    }
    press(&mut a, &[KeyCode::Enter]);
    assert!(matches!(a.screen, Screen::Editor(_)), "the editor opens");
    a
}

/// The side panel's text run together (a FEN wraps across its lines).
fn panel_text(screen: &str) -> String {
    screen
        .lines()
        .filter(|l| l.ends_with('│'))
        .filter_map(|l| l.rsplit('│').nth(1))
        .map(str::trim)
        .collect()
}

/// Moves the xiangqi cursor to `target` with the arrow keys (board not flipped).
fn go(app: &mut App, target: &str) {
    let target = sq(target);
    let EditBoard::Xiangqi(x) = &editor(app).board else {
        panic!("xiangqi");
    };
    let (f, r) = (i32::from(x.cursor.file()), i32::from(x.cursor.rank()));
    let (tf, tr) = (i32::from(target.file()), i32::from(target.rank()));
    let h = if tf > f {
        KeyCode::Right
    } else {
        KeyCode::Left
    };
    let v = if tr > r { KeyCode::Up } else { KeyCode::Down };
    for _ in 0..(tf - f).abs() {
        press(app, &[h]);
    }
    for _ in 0..(tr - r).abs() {
        press(app, &[v]);
    }
}

/// Puts the piece written `letter` (FEN letters) on `square` with the keys.
fn put(app: &mut App, square: &str, letter: char) {
    go(app, square);
    typ(app, &letter.to_string());
}

/// Replaces the board with `fen` through the import line.
fn import(app: &mut App, fen: &str) {
    press(app, &[KeyCode::Char('i')]);
    typ(app, fen);
    press(app, &[KeyCode::Enter]);
}

#[test]
fn a_xiangqi_position_is_arranged_with_keys_and_the_room_starts_from_it() {
    let mut a = xiangqi_editor();
    // The usual start is where an empty FEN line begins.
    assert_eq!(xiangqi_setup(&a).fen(), banco_rules::xiangqi::START);
    assert!(editor(&a).ready());
    // An empty board: both generals missing.
    press(&mut a, &[KeyCode::Char('d')]);
    assert_eq!(xiangqi_setup(&a).pieces().count(), 0);
    assert_eq!(
        reasons(&a),
        ["red has no general", "black has no general"],
        "every reason at once"
    );
    // Generals, then two chariots: Rb7-b9 will be mate.
    put(&mut a, "e0", 'K');
    put(&mut a, "d9", 'k');
    put(&mut a, "a8", 'R');
    put(&mut a, "b7", 'R');
    assert!(editor(&a).ready(), "{:?}", reasons(&a));
    let fen = "3k5/R8/1R7/9/9/9/9/9/9/4K4 w - - 0 1";
    assert_eq!(xiangqi_setup(&a).fen(), fen);
    // Enter: back to the form with the FEN in it, then Enter creates the room.
    press(&mut a, &[KeyCode::Enter]);
    let Screen::Lobby(lobby) = &a.screen else {
        panic!("back to the lobby's form");
    };
    let form = lobby.create.as_ref().expect("the form is open");
    assert_eq!(form.fen.text(), fen);
    assert!(
        notice(&a).contains("Enter creates the room"),
        "{}",
        notice(&a)
    );
    press(&mut a, &[KeyCode::Enter]);
    let msgs = sent(&mut a);
    let [ClientMsg::CreateRoom(s)] = msgs.as_slice() else {
        panic!("expected one CreateRoom, got {msgs:?}");
    };
    assert_eq!(
        s.game,
        GameSettings::Xiangqi {
            fen: Some(fen.into())
        }
    );
    // The server's own validation takes the same settings.
    assert!(banco_server::room::settings::validate(s).is_ok());
}

#[test]
fn pieces_are_picked_up_put_down_cleared_and_chosen_from_the_palette() {
    let mut a = xiangqi_editor();
    // Pick up the red chariot on a0, put it down on a5.
    press(&mut a, &[KeyCode::Left; 4]);
    press(&mut a, &[KeyCode::Char(' ')]);
    assert!(matches!(&editor(&a).board, EditBoard::Xiangqi(x) if x.held == Some(sq("a0"))));
    let (text, _) = render(&a, 100, 30);
    assert!(text.contains("Holding 俥 from a0"), "{text}");
    press(&mut a, &[KeyCode::Up; 5]);
    press(&mut a, &[KeyCode::Char(' ')]);
    let s = xiangqi_setup(&a);
    assert_eq!(s.piece_at(sq("a0")), None);
    assert_eq!(
        s.piece_at(sq("a5")),
        Some(Piece::new(Color::Red, Kind::Rook))
    );
    // A piece picked up and Esc: it stays, and Esc does not leave the editor.
    press(&mut a, &[KeyCode::Char(' '), KeyCode::Esc]);
    assert!(matches!(&editor(&a).board, EditBoard::Xiangqi(x) if x.held.is_none()));
    assert!(matches!(a.screen, Screen::Editor(_)));
    // Delete clears the point; u takes it back, and takes back the move before it.
    press(&mut a, &[KeyCode::Delete]);
    assert_eq!(xiangqi_setup(&a).piece_at(sq("a5")), None);
    press(&mut a, &[KeyCode::Char('u')]);
    assert!(xiangqi_setup(&a).piece_at(sq("a5")).is_some());
    press(&mut a, &[KeyCode::Char('u')]);
    assert_eq!(xiangqi_setup(&a).fen(), banco_rules::xiangqi::START);
    press(&mut a, &[KeyCode::Char('u')]);
    assert_eq!(notice(&a), "Nothing to take back.");
    // The palette: Tab steps to the red advisor; Space on an empty point puts it there.
    press(&mut a, &[KeyCode::Tab]);
    go(&mut a, "a7");
    press(&mut a, &[KeyCode::Char(' ')]);
    assert_eq!(
        xiangqi_setup(&a).piece_at(sq("a7")),
        Some(Piece::new(Color::Red, Kind::Advisor))
    );
    assert_eq!(
        reasons(&a),
        [
            "red has 3 advisors; a side has at most 2",
            "a red advisor can never stand on a7"
        ]
    );
    // A letter puts its piece and becomes the palette's choice: lower case is black.
    press(&mut a, &[KeyCode::Up]);
    typ(&mut a, "h");
    assert_eq!(
        xiangqi_setup(&a).piece_at(sq("a8")),
        Some(Piece::new(Color::Black, Kind::Horse))
    );
    assert!(matches!(&editor(&a).board, EditBoard::Xiangqi(x) if x.palette == 10));
    // Backspace clears too; s brings back the usual start.
    press(&mut a, &[KeyCode::Backspace, KeyCode::Char('s')]);
    assert_eq!(xiangqi_setup(&a).fen(), banco_rules::xiangqi::START);
    // t gives the move to black; f turns the board, and the arrows follow the screen.
    press(&mut a, &[KeyCode::Char('t'), KeyCode::Char('f')]);
    assert_eq!(xiangqi_setup(&a).side(), Color::Black);
    let before = match &editor(&a).board {
        EditBoard::Xiangqi(x) => x.cursor,
        _ => unreachable!(),
    };
    press(&mut a, &[KeyCode::Up]);
    let after = match &editor(&a).board {
        EditBoard::Xiangqi(x) => x.cursor,
        _ => unreachable!(),
    };
    assert_eq!(
        after.rank() + 1,
        before.rank(),
        "flipped: up goes toward rank 0"
    );
    // Esc leaves without using it: the form's FEN line is still empty.
    press(&mut a, &[KeyCode::Esc]);
    let Screen::Lobby(lobby) = &a.screen else {
        panic!("back to the lobby");
    };
    assert!(lobby.create.as_ref().is_some_and(|f| f.fen.is_empty()));
}

#[test]
fn the_mouse_picks_from_the_palette_places_moves_and_clears() {
    let mut a = xiangqi_editor();
    a.resize(100, 30);
    let area = ratatui::layout::Rect::new(0, 0, 100, 30);
    let click = |a: &mut App, col: u16, row: u16, button: MouseButton| {
        a.mouse(MouseEvent {
            kind: MouseEventKind::Down(button),
            column: col,
            row,
            modifiers: KeyModifiers::NONE,
        });
    };
    // Find the screen cells of a palette entry and of two points by scanning the layout.
    let cell_of = |a: &App, want: EditorSpot| -> (u16, u16) {
        let Screen::Editor(ed) = &a.screen else {
            panic!("the editor is open");
        };
        for row in 0..30 {
            for col in 0..100 {
                if ed.spot_at(area, col, row) == Some(want) {
                    return (col, row);
                }
            }
        }
        panic!("{want:?} is not on the screen");
    };
    press(&mut a, &[KeyCode::Char('d')]);
    // The black cannon (palette entry 12), then a click on c7 puts it there.
    let (c, r) = cell_of(&a, EditorSpot::Palette(12));
    click(&mut a, c, r, MouseButton::Left);
    let (c, r) = cell_of(&a, EditorSpot::Xiangqi(sq("c7")));
    click(&mut a, c, r, MouseButton::Left);
    assert_eq!(
        xiangqi_setup(&a).piece_at(sq("c7")),
        Some(Piece::new(Color::Black, Kind::Cannon))
    );
    // Click it (picked up), click g7 (put down there).
    click(&mut a, c, r, MouseButton::Left);
    let (c, r) = cell_of(&a, EditorSpot::Xiangqi(sq("g7")));
    click(&mut a, c, r, MouseButton::Left);
    assert_eq!(xiangqi_setup(&a).piece_at(sq("c7")), None);
    assert!(xiangqi_setup(&a).piece_at(sq("g7")).is_some());
    // A right click clears.
    click(&mut a, c, r, MouseButton::Right);
    assert_eq!(xiangqi_setup(&a).pieces().count(), 0);
}

#[test]
fn every_refusal_says_the_rules_sentence_on_its_points() {
    let mut a = xiangqi_editor();
    press(&mut a, &[KeyCode::Char('d')]);
    put(&mut a, "e0", 'K');
    put(&mut a, "d9", 'k');
    put(&mut a, "a5", 'r');
    assert!(editor(&a).ready());
    let xq = |list: &str| -> Vec<EditorSpot> {
        list.split_whitespace()
            .map(|s| EditorSpot::Xiangqi(sq(s)))
            .collect()
    };
    // Each case: what to do, the sentence, the points marked.
    let check = |a: &mut App, sentence: &str, points: &str| {
        assert_eq!(reasons(a).first().map(String::as_str), Some(sentence));
        assert_eq!(marked(a), xq(points), "{sentence}");
        // Enter is refused with the sentence; the editor stays.
        press(a, &[KeyCode::Enter]);
        assert!(matches!(a.screen, Screen::Editor(_)));
        assert!(notice(a).contains(sentence), "{}", notice(a));
        assert!(sent(a).is_empty());
    };

    // A black general on e5 (the one on d9 moved there).
    go(&mut a, "d9");
    press(&mut a, &[KeyCode::Char(' ')]);
    go(&mut a, "e5");
    press(&mut a, &[KeyCode::Char(' ')]);
    check(&mut a, "a black general can never stand on e5", "e5");
    let (text, _) = render(&a, 100, 30);
    assert!(
        text.contains("e5: 將 ✗ a black general can never stand on e5"),
        "the status line names the point's problem: {text}"
    );
    press(&mut a, &[KeyCode::Char('u')]);

    // The generals face each other on the open d file.
    go(&mut a, "e0");
    press(&mut a, &[KeyCode::Char(' ')]);
    go(&mut a, "d0");
    press(&mut a, &[KeyCode::Char(' ')]);
    check(
        &mut a,
        "the generals face each other on the open d file",
        "d0 d9",
    );
    press(&mut a, &[KeyCode::Char('u')]);

    // Six red soldiers.
    for s in ["a3", "c3", "e3", "g3", "i3", "a4"] {
        put(&mut a, s, 'P');
    }
    check(
        &mut a,
        "red has 6 soldiers; a side has at most 5",
        "a3 c3 e3 g3 i3 a4",
    );
    for _ in 0..6 {
        press(&mut a, &[KeyCode::Char('u')]);
    }
    assert!(editor(&a).ready(), "{:?}", reasons(&a));

    // The side not to move in check: a red chariot on d2 checks black, red to move.
    put(&mut a, "d2", 'R');
    check(
        &mut a,
        "red to move could capture the black general: black cannot have just moved into check",
        "d9 d2",
    );
    // Black to move instead: a check to answer (the chariot on a5 blocks), a fine
    // position.
    press(&mut a, &[KeyCode::Char('t')]);
    assert!(editor(&a).ready(), "{:?}", reasons(&a));

    // Already decided: red to move, mated by two black chariots.
    import(&mut a, "3k5/9/9/9/9/9/9/9/r8/1r2K4 w");
    check(
        &mut a,
        "that position is already decided: the side to move is checkmated; start from one that is still open",
        "e0 b0",
    );
    // Nobody can attack: decided too.
    import(&mut a, "3k5/9/9/9/9/9/9/9/9/4K4 w");
    check(
        &mut a,
        "that position is already decided: neither side has a piece left that can attack; start from one that is still open",
        "",
    );
    // No general at all.
    import(&mut a, "9/9/9/9/9/9/9/9/9/4K4 w");
    check(&mut a, "black has no general", "");
}

#[test]
fn fen_goes_in_and_comes_out_the_same() {
    let mut a = xiangqi_editor();
    for fen in [
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "1rbakab2/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKABR1 b - - 3 7",
        "3k5/9/9/9/9/9/1r7/9/r8/4K4 b - - 0 1",
    ] {
        import(&mut a, fen);
        assert_eq!(notice(&a), "Position read.");
        assert_eq!(xiangqi_setup(&a).fen(), fen);
        // The panel shows it to copy, and Enter puts exactly it on the form.
        let (text, _) = render(&a, 120, 34);
        // (Lines break anywhere in a FEN, so compare without spaces.)
        let shown = panel_text(&text).replace(' ', "");
        assert!(shown.contains(&fen.replace(' ', "")), "{text}");
        let form = editor(&a).filled_form();
        assert_eq!(form.fen.text(), fen);
        // Reopening the editor on that form reads the same board back.
        let (again, trouble) = EditorScreen::open(form, 0).unwrap();
        assert_eq!(trouble, None);
        assert_eq!(again.board, editor(&a).board);
    }
    // Seed 002's letters (E, H) and a short FEN read; they come out in UCI letters.
    import(
        &mut a,
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w",
    );
    assert_eq!(xiangqi_setup(&a).fen(), banco_rules::xiangqi::START);
    // The usual start goes back as an empty FEN line (the room says "xiangqi").
    assert!(editor(&a).filled_form().fen.is_empty());
    // Text that is no FEN is refused with the reader's sentence; the board stays and
    // the line stays open to fix it.
    import(&mut a, "rnbakabnr/9/9 w");
    assert_eq!(
        notice(&a),
        "That cannot be read: a FEN board has 10 ranks separated by '/'; this one has 3."
    );
    assert!(editor(&a).import.is_some());
    assert_eq!(xiangqi_setup(&a).fen(), banco_rules::xiangqi::START);
    press(&mut a, &[KeyCode::Esc]);
    assert!(editor(&a).import.is_none());
    assert!(matches!(a.screen, Screen::Editor(_)));
}

#[test]
fn the_form_s_typed_fen_opens_in_the_editor() {
    let mut a = lobby_app();
    press(&mut a, &[KeyCode::Char('c'), KeyCode::Right, KeyCode::Down]);
    typ(&mut a, "3k5/9/9/9/9/9/9/9/4A4/4K2R1 w - - 0 1");
    press(&mut a, &[KeyCode::Down, KeyCode::Enter]);
    assert_eq!(
        xiangqi_setup(&a).fen(),
        "3k5/9/9/9/9/9/9/9/4A4/4K2R1 w - - 0 1"
    );
    // A FEN that cannot be read: the editor says so and starts from the usual start.
    let mut a = lobby_app();
    press(&mut a, &[KeyCode::Char('c'), KeyCode::Right, KeyCode::Down]);
    typ(&mut a, "3k5/9 w");
    press(&mut a, &[KeyCode::Down, KeyCode::Enter]);
    assert_eq!(xiangqi_setup(&a).fen(), banco_rules::xiangqi::START);
    assert!(notice(&a).contains("could not be read"), "{}", notice(&a));
}

#[test]
fn a_caro_position_is_arranged_with_keys_and_the_room_starts_from_it() {
    let mut a = caro_editor(15, 15);
    let c = caro_edit(&a);
    assert_eq!(c.cursor, Point::new(7, 7));
    assert!(editor(&a).ready());
    // Space lays stones alternately, X first: h8 (X), i8 (O), j8 (X).
    press(
        &mut a,
        &[KeyCode::Char(' '), KeyCode::Char('l'), KeyCode::Char(' ')],
    );
    press(&mut a, &[KeyCode::Right, KeyCode::Char(' ')]);
    let c = caro_edit(&a);
    assert_eq!(c.setup.counts(), (2, 1));
    assert_eq!(c.setup.to_move(), Some(Stone::O));
    // x and o put that stone; two more X: the counts no longer alternate.
    press(&mut a, &[KeyCode::Char('j'), KeyCode::Char('x')]);
    press(&mut a, &[KeyCode::Char('j'), KeyCode::Char('x')]);
    assert_eq!(
        reasons(&a),
        [
            "X has 4 stones and O 1: X moves first, so X needs as many stones as O (X to move) or one more (O to move)"
        ]
    );
    press(&mut a, &[KeyCode::Enter]);
    assert!(
        notice(&a).contains("X has 4 stones and O 1"),
        "{}",
        notice(&a)
    );
    assert!(matches!(a.screen, Screen::Editor(_)));
    // t explains who moves; Space on a stone takes it off; o puts an O.
    press(&mut a, &[KeyCode::Char('t')]);
    assert!(
        notice(&a).contains("the stones decide who moves"),
        "{}",
        notice(&a)
    );
    press(&mut a, &[KeyCode::Char(' ')]);
    press(&mut a, &[KeyCode::Char('k'); 3]);
    press(&mut a, &[KeyCode::Char('o')]);
    let c = caro_edit(&a);
    assert_eq!(c.setup.counts(), (3, 2));
    assert_eq!(c.setup.to_move(), Some(Stone::O));
    assert!(editor(&a).ready(), "{:?}", reasons(&a));
    // The stones as the panel shows them: X first, alternating.
    let (text, _) = render(&a, 100, 30);
    assert!(text.contains("O moves next"), "{text}");
    press(&mut a, &[KeyCode::Enter]);
    let Screen::Lobby(lobby) = &a.screen else {
        panic!("back to the form");
    };
    let form = lobby.create.as_ref().unwrap();
    assert_eq!(form.opening, crate::app::create::OpeningKind::Stones);
    assert_eq!(form.stones.text(), "h8 j9 j8 i8 j7");
    press(&mut a, &[KeyCode::Enter]);
    let msgs = sent(&mut a);
    let [ClientMsg::CreateRoom(s)] = msgs.as_slice() else {
        panic!("expected one CreateRoom, got {msgs:?}");
    };
    let p = Point::new;
    let GameSettings::Caro { opening, .. } = &s.game else {
        panic!("caro");
    };
    assert_eq!(
        *opening,
        CaroOpening::Stones(vec![p(7, 7), p(9, 6), p(9, 7), p(8, 7), p(9, 8)])
    );
    assert!(banco_server::room::settings::validate(s).is_ok());
}

#[test]
fn a_caro_board_holding_a_five_or_too_many_stones_is_refused() {
    let mut a = caro_editor(15, 15);
    // X: a five on row 8 from d8; O: five stones elsewhere.
    press(&mut a, &[KeyCode::Left; 4]);
    for _ in 0..5 {
        press(&mut a, &[KeyCode::Char('x'), KeyCode::Right]);
    }
    press(&mut a, &[KeyCode::Down, KeyCode::Down]);
    for _ in 0..5 {
        press(&mut a, &[KeyCode::Char('o'), KeyCode::Left, KeyCode::Left]);
    }
    let sentence =
        "the opening already has a winning line for X: give a position that is still open";
    assert_eq!(reasons(&a), [sentence]);
    let five: Vec<EditorSpot> = (3..8).map(|x| EditorSpot::Caro(Point::new(x, 7))).collect();
    assert_eq!(marked(&a), five);
    press(&mut a, &[KeyCode::Enter]);
    assert!(notice(&a).contains(sentence), "{}", notice(&a));
    assert!(matches!(a.screen, Screen::Editor(_)));
    // Taking a stone out of the line leaves no five (only counts to mend).
    press(&mut a, &[KeyCode::Up, KeyCode::Up]);
    press(&mut a, &[KeyCode::Right; 5]);
    press(&mut a, &[KeyCode::Delete]);
    assert_eq!(caro_edit(&a).setup.counts(), (4, 5));
    assert!(
        !reasons(&a).iter().any(|r| r == sentence),
        "{:?}",
        reasons(&a)
    );
    press(&mut a, &[KeyCode::Char('u')]);
    assert_eq!(reasons(&a), [sentence]);
    // The room's own limit, from the server's validation: a third of a 5x5 board is 8.
    let mut a = caro_editor(5, 5);
    press(&mut a, &[KeyCode::Char('i')]);
    typ(&mut a, "a1 c1 e1 a3 c3 e3 a5 c5 e5");
    press(&mut a, &[KeyCode::Enter]);
    assert_eq!(caro_edit(&a).setup.counts(), (5, 4));
    let why = reasons(&a);
    assert_eq!(why.len(), 1);
    assert!(why[0].contains("at most 8 stones"), "{why:?}");
    press(&mut a, &[KeyCode::Enter]);
    assert!(notice(&a).contains("at most 8 stones"), "{}", notice(&a));
    assert!(sent(&mut a).is_empty());
}

#[test]
fn snapshot_editor_xiangqi() {
    let mut a = xiangqi_editor();
    import(&mut a, "3k5/9/9/9/4k4/9/9/9/4A4/4K2R1 w - - 0 1");
    go(&mut a, "e5");
    let (text, _) = render(&a, 100, 30);
    insta::assert_snapshot!("editor_xiangqi", text);
    // `?` lists every key of the editor and what it checks; any key closes it.
    press(&mut a, &[KeyCode::Char('?')]);
    let (text, _) = render(&a, 100, 40);
    for words in [
        "arranging a position",
        "import a FEN",
        "generals not facing",
    ] {
        assert!(text.contains(words), "{words}: {text}");
    }
    press(&mut a, &[KeyCode::Esc]);
    assert!(!a.help && matches!(a.screen, Screen::Editor(_)));
}

#[test]
fn snapshot_editor_caro() {
    let mut a = caro_editor(13, 13);
    press(&mut a, &[KeyCode::Char('i')]);
    typ(&mut a, "g7 h8 f6 h6 e5 h7");
    press(&mut a, &[KeyCode::Enter]);
    let (text, _) = render(&a, 100, 24);
    insta::assert_snapshot!("editor_caro", text);
}
