//! What each theme and language draws on a small terminal: the lobby and the rooms at
//! 80x24 (the size people open by default), the xiangqi board at 60x20, and boards
//! too wide for letters.

use super::*;
use banco_protocol::{CaroOpening, FirstMove, GameSettings, Level, TimeControl};

const THEMES: [&str; 3] = ["classic", "paper", "contrast"];
const LANGUAGES: [&str; 2] = ["en", "vi"];

/// Rooms whose lines are long in every language: a balanced opening, a set position,
/// long names, two bots, many spectators.
fn long_rooms() -> Vec<RoomSummary> {
    let mut r = rooms();
    r[0].settings.game = GameSettings::Caro {
        width: 19,
        height: 19,
        rule: banco_protocol::Rule::Freestyle,
        opening: CaroOpening::Balanced,
    };
    r[0].settings.time = TimeControl::PerMove { millis: 20_000 };
    r[1].settings.game = GameSettings::Xiangqi { fen: None };
    r[1].settings.time = TimeControl::Clock {
        initial_millis: 600_000,
        increment_millis: 5_000,
    };
    r[1].players = [
        Some("Nguyễn Văn Phương".into()),
        Some("Trần Thị Bích Ngọc".into()),
    ];
    r[1].spectators = 12;
    r[2].settings.game = GameSettings::Xiangqi {
        fen: Some("3k5/9/9/9/9/9/9/9/4A4/4K2R1 w - - 0 1".into()),
    };
    r[2].settings.first = FirstMove::Random;
    r[2].settings.seats = [SeatKind::Bot(Level::Max), SeatKind::Bot(Level::Easy)];
    r
}

/// `a` in `theme` and `language`.
fn dressed(mut a: App, theme: &str, language: &str) -> App {
    a.theme = Theme::load(theme, None).unwrap();
    a.loc = Locale::load(language, None).unwrap();
    a.resize(80, 24);
    // The event line was worded before the language changed.
    a.notice = None;
    a
}

#[test]
fn snapshot_lobby_at_80x24_in_every_theme_and_language() {
    for theme in THEMES {
        for language in LANGUAGES {
            let mut a = dressed(lobby_app(), theme, language);
            a.server(ServerMsg::Rooms(long_rooms()));
            let (text, _) = render(&a, 80, 24);
            insta::assert_snapshot!(format!("lobby_80x24_{theme}_{language}"), text);
            // The status column ends before the border, and long cells end in `…`
            // with a space before the next column.
            for line in text.lines().skip(3).take(3) {
                assert!(line.ends_with(" │"), "{line}");
            }
            assert!(text.contains('…'), "{text}");
        }
    }
}

#[test]
fn snapshot_rooms_at_80x24_in_every_theme_and_language() {
    for theme in THEMES {
        for language in LANGUAGES {
            let mut a = dressed(mid_game(), theme, language);
            let (text, _) = render(&a, 80, 24);
            insta::assert_snapshot!(format!("caro_room_80x24_{theme}_{language}"), stable(text));
            a = dressed(xiangqi_app(Role::Player(Seat::One)), theme, language);
            a.server(crate::testing::xq_moved("h2e2", Seat::One, 1, "C2.5"));
            let (text, _) = render(&a, 80, 24);
            insta::assert_snapshot!(format!("xiangqi_room_80x24_{theme}_{language}"), text);
        }
    }
}

#[test]
fn the_river_label_keeps_clear_of_the_boards_edge() {
    for theme in THEMES {
        let a = dressed(xiangqi_app(Role::Player(Seat::One)), theme, "en");
        let (text, _) = render(&a, 100, 34);
        let river = text
            .lines()
            .find(|l| l.contains("river") || l.contains("楚"))
            .unwrap_or_else(|| panic!("{theme}: no river in {text}"));
        // Between the edge files' lines, at least two blank columns either side.
        let inside = river
            .split('│')
            .nth(1)
            .unwrap_or_else(|| panic!("{theme}: {river}"));
        assert!(
            inside.starts_with("  ") && inside.ends_with("  "),
            "{theme}: {river}"
        );
    }
}

#[test]
fn a_xiangqi_board_fits_60x20_and_a_smaller_window_says_what_it_needs() {
    let mut a = xiangqi_app(Role::Player(Seat::One));
    a.resize(60, 20);
    let (text, _) = render(&a, 60, 20);
    insta::assert_snapshot!("xiangqi_room_60x20", text);
    assert!(text.contains("帥"), "{text}");
    // Clicks still land on the squares drawn.
    let area = ratatui::layout::Rect::new(0, 0, 60, 20);
    let l = crate::layout::room::RoomLayout::new(area, &a.room().unwrap().room, false);
    let g = crate::layout::xiangqi::Geometry::new(l.board, false);
    let (column, row) = g.cell(xq(7, 0));
    a.mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column,
        row,
        modifiers: KeyModifiers::NONE,
    });
    assert!(matches!(
        a.room().unwrap().cursor,
        BoardCursor::Xiangqi {
            selected: Some(s),
            ..
        } if s == xq(7, 0)
    ));
    // Smaller than the smallest board: said, with the size that works.
    for (w, h) in [(59, 17), (45, 20), (80, 16)] {
        a.resize(w, h);
        let (text, buf) = render(&a, w, h);
        let board = crate::layout::room::RoomLayout::new(
            ratatui::layout::Rect::new(0, 0, w, h),
            &a.room().unwrap().room,
            false,
        )
        .board;
        let mut flat = String::new();
        for y in board.top()..board.bottom() {
            for x in board.left()..board.right() {
                flat.push_str(buf[(x, y)].symbol());
            }
            flat.push(' ');
        }
        let flat = flat.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains(
                "The window is too small for the xiangqi board: make it at least 60 columns by 17 rows."
            ),
            "{w}x{h}: {text}"
        );
    }
    a.resize(60, 17);
    let (text, _) = render(&a, 60, 17);
    assert!(text.contains("帥") && !text.contains("too small"), "{text}");
    // The result dialog stays whole on screen beside the narrow panel.
    a.resize(60, 20);
    a.server(ServerMsg::GameOver(banco_protocol::GameOver {
        winner: Some(Seat::One),
        reason: EndReason::Resign,
        line: vec![],
    }));
    let (text, _) = render(&a, 60, 20);
    assert!(
        text.contains("g rematch · v review · q") && text.contains("leave"),
        "{text}"
    );
    // The replay screen draws the same board in the same room.
    let mut r = lobby_app();
    press(&mut r, &[KeyCode::Char('h')]);
    r.server(ServerMsg::History(vec![
        crate::testing::xiangqi_game_record().summary,
    ]));
    press(&mut r, &[KeyCode::Enter]);
    r.server(ServerMsg::Replay(Box::new(
        crate::testing::xiangqi_game_record(),
    )));
    r.resize(60, 20);
    let (text, _) = render(&r, 60, 20);
    assert!(text.contains("帥"), "{text}");
}

#[test]
fn wide_caro_boards_number_every_other_column_so_numbers_stay_apart() {
    let mut view = caro_room_view(Role::Player(Seat::One));
    view.settings.game = GameSettings::Caro {
        width: 30,
        height: 20,
        rule: banco_protocol::Rule::Freestyle,
        opening: CaroOpening::None,
    };
    let mut a = lobby_app();
    a.server(ServerMsg::Joined(Box::new(view)));
    let (text, _) = render(&a, 120, 30);
    let header = text.lines().nth(2).unwrap_or_default();
    // The cursor starts on column 15: numbered, odd as it is, its neighbours giving way.
    assert!(
        header.contains(" 0   2   4   6   8  10  12    15    18  20  22"),
        "{header}"
    );
    assert!(!header.contains("1011"), "{header}");
    press(&mut a, &[KeyCode::Left]);
    let (text, _) = render(&a, 120, 30);
    let header = text.lines().nth(2).unwrap_or_default();
    assert!(header.contains(" 8  10  12  14  16  18  20"), "{header}");
}
