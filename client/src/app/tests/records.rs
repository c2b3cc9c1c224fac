//! The leaderboard, history and replay screens: keys on the app, and what they draw.

use super::*;
use crate::app::records::{self as rec, HistoryFilter};
use crate::record::file;
use crate::testing::{caro_game_record, xiangqi_game_record};
use banco_protocol::{ErrorCode, ErrorMsg, GameRecord, GameSummary};

fn summaries() -> Vec<GameSummary> {
    vec![xiangqi_game_record().summary, caro_game_record().summary]
}

/// The app on the history screen with two games listed.
fn history_app() -> App {
    let mut a = lobby_app();
    press(&mut a, &[KeyCode::Char('h')]);
    a.take_effects();
    a.server(ServerMsg::History(summaries()));
    a
}

fn replay_app(record: GameRecord) -> App {
    let mut a = history_app();
    press(&mut a, &[KeyCode::Enter]);
    a.take_effects();
    a.server(ServerMsg::Replay(Box::new(record)));
    a
}

fn replay_at(a: &App) -> usize {
    match &a.screen {
        Screen::Replay(r) => r.replay.at(),
        _ => panic!("not on the replay screen"),
    }
}

/// Replaces local-time dates with fixed marks.
fn dates(text: String) -> String {
    let full = crate::narrate::ended_at(1_746_000_000_000);
    text.replace(&full, "YYYY-MM-DD hh:mm")
        .replace(&full[5..], "MM-DD hh:mm")
}

#[test]
fn the_lobby_opens_the_leaderboard_and_a_players_history() {
    let mut a = lobby_app();
    press(&mut a, &[KeyCode::Char('l')]);
    assert!(matches!(&a.screen, Screen::Leaderboard(b) if b.standings.is_none()));
    assert_eq!(
        sent(&mut a),
        [ClientMsg::Leaderboard(banco_protocol::GameKind::Caro)]
    );
    // Enter before the answer does nothing.
    press(&mut a, &[KeyCode::Enter]);
    assert!(sent(&mut a).is_empty());
    a.server(crate::testing::leaderboard());
    // g: the chosen player's games (Enter opens the profile: see the profile tests).
    press(&mut a, &[KeyCode::Down, KeyCode::Char('g')]);
    assert_eq!(
        sent(&mut a),
        [ClientMsg::History {
            player: Some("Bình".into())
        }]
    );
    let Screen::History(h) = &a.screen else {
        panic!("history expected")
    };
    assert_eq!(h.filter, HistoryFilter::Player("Bình".into()));
    // Tab: my games; Tab again: everyone's.
    press(&mut a, &[KeyCode::Tab]);
    assert_eq!(
        sent(&mut a),
        [ClientMsg::History {
            player: Some("An".into())
        }]
    );
    press(&mut a, &[KeyCode::Tab]);
    assert_eq!(sent(&mut a), [ClientMsg::History { player: None }]);
    // l: the leaderboard again; q: the lobby, which asks for the rooms.
    press(&mut a, &[KeyCode::Char('l')]);
    assert_eq!(
        sent(&mut a),
        [ClientMsg::Leaderboard(banco_protocol::GameKind::Caro)]
    );
    press(&mut a, &[KeyCode::Char('q')]);
    assert!(matches!(a.screen, Screen::Lobby(_)));
    assert_eq!(sent(&mut a), [ClientMsg::ListRooms]);
}

#[test]
fn a_refusal_stops_the_wait() {
    let mut a = lobby_app();
    press(&mut a, &[KeyCode::Char('l')]);
    a.server(ServerMsg::Error(ErrorMsg::new(
        ErrorCode::Busy,
        "the records are busy",
    )));
    assert!(matches!(&a.screen, Screen::Leaderboard(b) if b.standings == Some(vec![])));
    assert_eq!(notice(&a), "the records are busy");
    let mut a = history_app();
    press(&mut a, &[KeyCode::Enter]);
    assert_eq!(sent(&mut a), [ClientMsg::Replay(43)]);
    // A second Enter while the first is on its way asks nothing more.
    press(&mut a, &[KeyCode::Enter]);
    assert!(sent(&mut a).is_empty());
    a.server(ServerMsg::Error(ErrorMsg::new(
        ErrorCode::NoSuchGame,
        "there is no finished game 43",
    )));
    assert!(matches!(&a.screen, Screen::History(h) if h.opening.is_none()));
    press(&mut a, &[KeyCode::Down, KeyCode::Enter]);
    assert_eq!(sent(&mut a), [ClientMsg::Replay(42)]);
}

#[test]
fn the_replay_steps_plays_by_itself_and_goes_back_to_the_history() {
    let mut a = history_app();
    press(&mut a, &[KeyCode::Down, KeyCode::Enter]);
    a.server(ServerMsg::Replay(Box::new(caro_game_record())));
    assert_eq!(replay_at(&a), 0);
    press(&mut a, &[KeyCode::Right, KeyCode::Right, KeyCode::Right]);
    assert_eq!(replay_at(&a), 3);
    press(&mut a, &[KeyCode::Left]);
    assert_eq!(replay_at(&a), 2);
    press(&mut a, &[KeyCode::End]);
    assert_eq!(replay_at(&a), 9);
    press(&mut a, &[KeyCode::Right]);
    assert_eq!(replay_at(&a), 9, "nothing past the end");
    press(&mut a, &[KeyCode::Home, KeyCode::PageDown]);
    assert_eq!(replay_at(&a), 9, "ten moves, clamped");
    press(&mut a, &[KeyCode::PageUp, KeyCode::Down]);
    assert_eq!(replay_at(&a), 2, "down is a whole move");
    // Space plays by itself, one move per AUTOPLAY_EVERY; any step stops it.
    press(&mut a, &[KeyCode::Char(' ')]);
    a.tick();
    assert_eq!(replay_at(&a), 2, "not yet due");
    for n in 3..6 {
        a.now += rec::AUTOPLAY_EVERY;
        a.tick();
        assert_eq!(replay_at(&a), n);
    }
    press(&mut a, &[KeyCode::Left]);
    a.now += rec::AUTOPLAY_EVERY * 3;
    a.tick();
    assert_eq!(replay_at(&a), 4, "stepping stopped the autoplay");
    // From the end, Space starts again from the start, and stops at the end.
    press(&mut a, &[KeyCode::End, KeyCode::Char(' ')]);
    assert_eq!(replay_at(&a), 0);
    for _ in 0..20 {
        a.now += rec::AUTOPLAY_EVERY;
        a.tick();
    }
    assert_eq!(replay_at(&a), 9);
    assert!(matches!(&a.screen, Screen::Replay(r) if r.autoplay.is_none()));
    // q: back to the history, the game still highlighted.
    press(&mut a, &[KeyCode::Char('q')]);
    let Screen::History(h) = &a.screen else {
        panic!("history expected")
    };
    assert_eq!((h.selected, h.opening), (1, None));
    assert_eq!(h.games.as_ref().unwrap().len(), 2);
}

#[test]
fn the_replay_saves_a_record_file_and_asks_again_when_it_cannot() {
    let mut a = replay_app(xiangqi_game_record());
    press(&mut a, &[KeyCode::Char('s')]);
    let Screen::Replay(r) = &a.screen else {
        panic!("replay expected")
    };
    assert_eq!(r.save.as_ref().unwrap().text(), "banco-xiangqi-43.txt");
    // Keys go to the name while the prompt is open: `q` is a letter, not "leave".
    press(&mut a, &[KeyCode::Backspace; 4]);
    typ(&mut a, "q.rec");
    press(&mut a, &[KeyCode::Enter]);
    let effects = a.take_effects();
    let [Effect::SaveRecord { path, text }] = effects.as_slice() else {
        panic!("one save expected, got {effects:?}");
    };
    assert_eq!(path, &std::path::PathBuf::from("banco-xiangqi-43q.rec"));
    let back = file::parse(text).unwrap();
    assert_eq!(back.moves.len(), 4);
    assert_eq!(back.players, ["An".to_string(), "Bình".to_string()]);
    a.record_saved(
        path,
        Err(file::SaveError::Exists("banco-xiangqi-43q.rec".into())),
    );
    assert!(
        matches!(&a.screen, Screen::Replay(r) if r.save.as_ref().unwrap().text() == "banco-xiangqi-43q.rec")
    );
    assert!(notice(&a).contains("already exists"));
    press(&mut a, &[KeyCode::Esc]);
    assert!(matches!(&a.screen, Screen::Replay(r) if r.save.is_none()));
    a.record_saved(path, Ok("/home/an/banco-xiangqi-43q.rec".into()));
    assert_eq!(notice(&a), "Saved to /home/an/banco-xiangqi-43q.rec");
}

#[test]
fn a_saved_replay_goes_to_the_games_folder_which_the_prompt_names() {
    let mut a = replay_app(caro_game_record());
    a.games_dir = Some("/home/an/.local/share/banco/games".into());
    press(&mut a, &[KeyCode::Char('s')]);
    let (text, _) = render(&a, 100, 30);
    assert!(
        text.contains("Save in /home/an/.local/share/banco/games/ as: banco-caro-42.txt"),
        "{text}"
    );
    // On a narrow screen the folder gives way to the name, from its start.
    let (text, _) = render(&a, 60, 24);
    assert!(
        text.contains("Save in …n/.local/share/banco/games/ as: banco-caro-42.txt"),
        "{text}"
    );
    press(&mut a, &[KeyCode::Enter]);
    let effects = a.take_effects();
    let [Effect::SaveRecord { path, .. }] = effects.as_slice() else {
        panic!("one save expected, got {effects:?}");
    };
    assert_eq!(
        path,
        &std::path::PathBuf::from("/home/an/.local/share/banco/games/banco-caro-42.txt")
    );
    // Refused: the prompt offers the name again, not the whole path.
    a.record_saved(
        path,
        Err(file::SaveError::Exists(path.display().to_string())),
    );
    assert!(
        matches!(&a.screen, Screen::Replay(r) if r.save.as_ref().unwrap().text() == "banco-caro-42.txt")
    );
    // A full path goes where it says.
    press(&mut a, &[KeyCode::Char('u'), KeyCode::Home]);
    let mut ctrl_u = key(KeyCode::Char('u'));
    ctrl_u.modifiers = KeyModifiers::CONTROL;
    a.key(ctrl_u);
    typ(&mut a, "/tmp/g.txt");
    press(&mut a, &[KeyCode::Enter]);
    let effects = a.take_effects();
    assert!(
        matches!(effects.as_slice(), [Effect::SaveRecord { path, .. }] if path == std::path::Path::new("/tmp/g.txt")),
        "{effects:?}"
    );
    // The settings dialog says where games go and how to change it.
    a.open_settings();
    let (text, _) = render(&a, 100, 30);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("--games-dir"), "{text}");
}

#[test]
fn an_offline_replay_quits_where_an_online_one_goes_back() {
    let mut a = app();
    a.open_offline_replay(crate::record::Replay::from_record(caro_game_record()));
    press(&mut a, &[KeyCode::Right, KeyCode::Char('q')]);
    assert_eq!(a.take_effects(), [Effect::Quit]);
    // Ctrl+C with nothing at stake quits at once.
    let mut a = app();
    a.open_offline_replay(crate::record::Replay::from_record(caro_game_record()));
    a.key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert_eq!(a.take_effects(), [Effect::Quit]);
}

#[test]
fn black_sees_a_xiangqi_replay_from_below() {
    // Bình played Black: the board is turned for them; f turns it back.
    let mut a = lobby_app();
    a.connected(
        Welcome {
            name: "Bình".into(),
            ..welcome()
        },
        "127.0.0.1:7373".into(),
    );
    press(&mut a, &[KeyCode::Char('h')]);
    a.server(ServerMsg::History(summaries()));
    press(&mut a, &[KeyCode::Enter]);
    a.server(ServerMsg::Replay(Box::new(xiangqi_game_record())));
    assert!(matches!(&a.screen, Screen::Replay(r) if r.flipped));
    press(&mut a, &[KeyCode::Char('f')]);
    assert!(matches!(&a.screen, Screen::Replay(r) if !r.flipped));
}

#[test]
fn snapshot_leaderboard() {
    let mut a = lobby_app();
    press(&mut a, &[KeyCode::Char('l')]);
    a.server(crate::testing::leaderboard());
    press(&mut a, &[KeyCode::Down]);
    let (text, buf) = render(&a, 80, 12);
    insta::assert_snapshot!("leaderboard", text);
    // Your own line stands out.
    let (x, y) = find(&text, "3    An").unwrap();
    assert_eq!(buf[(x as u16 + 5, y as u16)].fg, a.theme.colors.good);
    let (x, y) = find(&text, "Bình").unwrap();
    assert_eq!(
        buf[(x as u16, y as u16)].fg,
        a.theme.colors.accent,
        "selected"
    );
}

#[test]
fn snapshot_history_wide_and_narrow() {
    let a = history_app();
    let (text, _) = render(&a, 120, 10);
    insta::assert_snapshot!("history_wide", dates(text));
    let (text, _) = render(&a, 80, 10);
    insta::assert_snapshot!("history_narrow", dates(text));
    let mut empty = lobby_app();
    press(&mut empty, &[KeyCode::Char('h')]);
    let (text, _) = render(&empty, 80, 10);
    assert!(text.contains("Asking the server"), "{text}");
    empty.server(ServerMsg::History(vec![]));
    let (text, _) = render(&empty, 80, 10);
    assert!(text.contains("No finished games here yet."), "{text}");
}

#[test]
fn a_long_result_is_cut_with_an_ellipsis_and_read_whole_in_the_replay() {
    // The play-through's game: long names, lost by a dropped connection.
    let mut record = caro_game_record();
    record.summary.players = ["Alexandra Nguyen".into(), "Bartholomew Tran".into()];
    record.summary.over.winner = Some(Seat::One);
    record.summary.over.reason = banco_protocol::EndReason::Abandoned;
    record.summary.over.line.clear();
    let mut a = lobby_app();
    press(&mut a, &[KeyCode::Char('h')]);
    a.server(ServerMsg::History(vec![record.summary.clone()]));
    let whole = "Alexandra Nguyen won Bartholomew Tran lost the connection";
    for (width, shown) in [
        (120, "Alexandra Nguyen won Bartholom…"),
        (80, "Alexandra Nguyen wo…"),
    ] {
        let (text, _) = render(&a, width, 10);
        let row = text
            .lines()
            .find(|l| l.contains("▶ 42"))
            .unwrap_or_else(|| panic!("{text}"));
        assert!(
            !row.contains(whole),
            "{width}: too narrow to hold it all: {row}"
        );
        // Cut with `…`, not in silence.
        assert!(row.contains(&format!("{shown} 9")), "{width}: {row}");
    }
    // Enter opens the replay, where the whole sentence is on screen.
    press(&mut a, &[KeyCode::Enter]);
    a.server(ServerMsg::Replay(Box::new(record)));
    let (text, _) = render(&a, 80, 24);
    let flat = text
        .lines()
        .map(|l| l.split('│').nth(1).unwrap_or_default().trim())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        flat.contains("Alexandra Nguyen won. Bartholomew Tran lost the connection"),
        "{text}"
    );
}

#[test]
fn snapshot_replay_caro_at_the_end_with_its_winning_line() {
    let mut a = replay_app(caro_game_record());
    press(&mut a, &[KeyCode::Down, KeyCode::End]);
    let (text, buf) = render(&a, 100, 26);
    insta::assert_snapshot!("replay_caro_end", dates(text.clone()));
    // The five is lit at the end only.
    let lit = |buf: &ratatui::buffer::Buffer, text: &str| {
        let (x, y) = find(text, "X X X X X").unwrap();
        buf[(x as u16, y as u16)].bg
    };
    assert_eq!(lit(&buf, &text), a.theme.colors.win_bg);
    press(&mut a, &[KeyCode::Left, KeyCode::Right]);
    let (_, buf2) = render(&a, 100, 26);
    assert_eq!(lit(&buf2, &text), a.theme.colors.win_bg);
    press(&mut a, &[KeyCode::Left]);
    let (text, buf) = render(&a, 100, 26);
    assert!(find(&text, "X X X X X").is_none());
    let (x, y) = find(&text, "X X X X").unwrap();
    assert_eq!(buf[(x as u16, y as u16)].bg, a.theme.colors.board_bg);
}

#[test]
fn snapshot_replay_xiangqi_in_vietnamese_at_80x24() {
    let mut a = replay_app(xiangqi_game_record());
    a.loc = Locale::load("vi", None).unwrap();
    press(&mut a, &[KeyCode::Right, KeyCode::Right, KeyCode::Right]);
    let (text, _) = render(&a, 80, 24);
    insta::assert_snapshot!("replay_xiangqi_vi", dates(text));
    press(&mut a, &[KeyCode::Char('s')]);
    let (text, _) = render(&a, 80, 24);
    assert!(text.contains("Lưu thành: banco-xiangqi-43.txt"), "{text}");
}

#[test]
fn a_replay_opens_a_room_from_the_position_shown() {
    let mut a = replay_app(xiangqi_game_record());
    press(
        &mut a,
        &[KeyCode::Right, KeyCode::Right, KeyCode::Char('c')],
    );
    let Screen::Lobby(lobby) = &a.screen else {
        panic!("the lobby with the create form expected")
    };
    let form = lobby.create.as_ref().expect("the create form is open");
    assert_eq!(form.fen.text(), form_fen());
    assert_eq!(sent(&mut a), [ClientMsg::ListRooms]);
    press(&mut a, &[KeyCode::Enter]);
    let msgs = sent(&mut a);
    let [ClientMsg::CreateRoom(s)] = msgs.as_slice() else {
        panic!("one CreateRoom expected, got {msgs:?}");
    };
    assert_eq!(
        s.game,
        banco_protocol::GameSettings::Xiangqi {
            fen: Some(form_fen())
        }
    );
    // Caro plays on from the stones on the board, given as the room's opening.
    let mut a = replay_app(caro_game_record());
    press(
        &mut a,
        &[
            KeyCode::Right,
            KeyCode::Right,
            KeyCode::Right,
            KeyCode::Char('c'),
        ],
    );
    let Screen::Lobby(lobby) = &a.screen else {
        panic!("the lobby with the create form expected")
    };
    let form = lobby.create.as_ref().expect("the create form is open");
    assert_eq!(form.stones.text(), "h8 a15 i8");
    sent(&mut a);
    press(&mut a, &[KeyCode::Enter]);
    let msgs = sent(&mut a);
    let [ClientMsg::CreateRoom(s)] = msgs.as_slice() else {
        panic!("one CreateRoom expected, got {msgs:?}");
    };
    let banco_protocol::GameSettings::Caro {
        width: 15,
        height: 15,
        opening: banco_protocol::CaroOpening::Stones(stones),
        ..
    } = &s.game
    else {
        panic!("a 15x15 caro room from stones expected, got {:?}", s.game);
    };
    let points = [(7, 7), (0, 0), (8, 7)].map(|(x, y)| banco_protocol::Point::new(x, y));
    assert_eq!(stones, &points);
    // Offline there is no server to play on.
    let mut a = app();
    a.open_offline_replay(crate::record::Replay::from_record(xiangqi_game_record()));
    press(&mut a, &[KeyCode::Char('c')]);
    assert!(matches!(a.screen, Screen::Replay(_)));
    assert!(
        notice(&a).starts_with("Playing on needs a server"),
        "{}",
        notice(&a)
    );
}

/// The position after h2e2 h9g7, Red to move.
fn form_fen() -> String {
    "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2".into()
}

#[test]
fn a_record_opened_from_the_command_line_shows_once_connected() {
    // `banco host --open FILE`: the replay opens as soon as the server greets us, `c`
    // works there (online), and Esc goes to the lobby rather than out of the program.
    let mut a = app();
    a.open_after_connect = Some(crate::record::Replay::from_record(caro_game_record()));
    a.connected(welcome(), "127.0.0.1:7373".into());
    assert!(matches!(a.screen, Screen::Replay(_)));
    press(&mut a, &[KeyCode::Esc]);
    assert!(matches!(a.screen, Screen::Lobby(_)));
    assert!(a.open_after_connect.is_none());

    let mut a = app();
    a.open_after_connect = Some(crate::record::Replay::from_record(caro_game_record()));
    a.connected(welcome(), "127.0.0.1:7373".into());
    press(&mut a, &[KeyCode::Right, KeyCode::Char('c')]);
    let Screen::Lobby(lobby) = &a.screen else {
        panic!("the lobby with the create form expected")
    };
    let form = lobby.create.as_ref().expect("the create form is open");
    assert_eq!(form.stones.text(), "h8");
}
