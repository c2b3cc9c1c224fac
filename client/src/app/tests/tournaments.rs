//! The Tournaments screen: `t` in the lobby opens the list; Enter opens one with its
//! pairings, Tab shows the standings (with the tie-breaks) and the crosstable; `e`
//! enters, `g` goes to your game; `c` opens the form (name, format, length, then the
//! create-room form for the games), which sends `CreateTournament`.

use super::*;
use banco_protocol::{
    BoardResult, BoardView, ByeRequestView, ByeView, CrossCell, CrossRow, Entrant, ExportFormat,
    Level, StandingLine, TieBreak, TournamentFormat, TournamentSettings, TournamentStatus,
    TournamentSummary, TournamentView,
};

fn summary() -> TournamentSummary {
    TournamentSummary {
        id: 3,
        name: "Club night".into(),
        format: TournamentFormat::Swiss { rounds: 3 },
        game: banco_protocol::GameKind::Caro,
        time: banco_protocol::TimeControl::clock(
            std::time::Duration::from_secs(300),
            std::time::Duration::from_secs(3),
        ),
        organiser: "Chi".into(),
        status: TournamentStatus::Running,
        entrants: 5,
        round: 2,
        rounds: 3,
        rated: true,
    }
}

/// A Swiss of five at round 2: An plays Bình in room 7; Dung has the bye.
fn view() -> TournamentView {
    let names = ["An", "Bình", "Chi", "Bot (easy)", "Dung"];
    let board = |round, board, white, black, room, result| BoardView {
        round,
        board,
        white,
        black,
        room,
        result,
        by_hand: false,
        berserk: [false; 2],
    };
    TournamentView {
        summary: summary(),
        settings: TournamentSettings::new(
            "Club night",
            TournamentFormat::Swiss { rounds: 3 },
            RoomSettings::default(),
        ),
        entrants: names
            .iter()
            .enumerate()
            .map(|(i, n)| Entrant {
                number: i as u32 + 1,
                name: (*n).into(),
                bot: None,
                rating: 1500 - i as u16 * 20,
                withdrawn: false,
                away: false,
            })
            .collect(),
        boards: vec![
            board(1, 1, 1, 4, Some(1), Some(BoardResult::WhiteWins)),
            board(1, 2, 2, 3, Some(2), Some(BoardResult::Draw)),
            board(2, 1, 1, 2, Some(7), None),
            board(2, 2, 4, 3, Some(8), Some(BoardResult::BlackWins)),
        ],
        byes: vec![
            ByeView {
                round: 1,
                entrant: 5,
                points: 10,
            },
            ByeView {
                round: 2,
                entrant: 5,
                points: 10,
            },
        ],
        bye_requests: Vec::new(),
        tie_breaks: vec![
            TieBreak::BuchholzCut1,
            TieBreak::Buchholz,
            TieBreak::SonnebornBerger,
        ],
        standings: vec![
            StandingLine {
                rank: 1,
                entrant: 5,
                points: 20,
                tie_breaks: vec![400, 400, 400],
                on_fire: false,
            },
            StandingLine {
                rank: 2,
                entrant: 3,
                points: 15,
                tie_breaks: vec![150, 250, 125],
                on_fire: false,
            },
            StandingLine {
                rank: 3,
                entrant: 1,
                points: 10,
                tie_breaks: vec![50, 50, 0],
                on_fire: false,
            },
        ],
        crosstable: vec![CrossRow {
            entrant: 1,
            cells: vec![
                CrossCell {
                    opponent: Some(4),
                    white: Some(true),
                    points: Some(10),
                    played: true,
                },
                CrossCell {
                    opponent: Some(2),
                    white: Some(true),
                    points: None,
                    played: false,
                },
            ],
        }],
        ends_in_ms: None,
        starts_in_ms: None,
    }
}

fn tournaments_app() -> App {
    let mut a = lobby_app();
    press(&mut a, &[KeyCode::Char('t')]);
    assert_eq!(sent(&mut a), vec![ClientMsg::ListTournaments]);
    let mut other = summary();
    other.id = 2;
    other.name = "Arena".into();
    other.format = TournamentFormat::Arena {
        seconds: 1800,
        berserk: false,
    };
    other.status = TournamentStatus::Entries;
    other.round = 0;
    other.rounds = 0;
    a.server(ServerMsg::Tournaments(vec![summary(), other]));
    a
}

#[test]
fn the_head_tells_the_forfeit_wait_and_the_byes_worth_to_one_not_playing() {
    let mut a = tournaments_app();
    press(&mut a, &[KeyCode::Enter]);
    let mut v = view();
    v.settings.forfeit_secs = 90;
    v.settings.requested_bye = banco_protocol::ByeValue::Nothing;
    v.boards.clear();
    a.server(ServerMsg::Tournament(Box::new(v.clone())));
    let (text, _) = render(&a, 100, 24);
    assert!(
        text.contains("First move within 90 s · bye 1 · asked-for bye 0."),
        "{text}"
    );
    // A round robin has no asked-for byes; an arena no byes.
    v.settings.format = TournamentFormat::RoundRobin { double: false };
    v.settings.forfeit_secs = 300;
    a.server(ServerMsg::Tournament(Box::new(v.clone())));
    let (text, _) = render(&a, 100, 24);
    assert!(text.contains("First move within 5 min · bye 1."), "{text}");
    v.settings.format = TournamentFormat::Arena {
        seconds: 1800,
        berserk: false,
    };
    a.server(ServerMsg::Tournament(Box::new(v)));
    let (text, _) = render(&a, 100, 24);
    assert!(text.contains("First move within 5 min."), "{text}");
}

#[test]
fn an_entrant_away_from_the_server_is_marked_in_the_standings_and_the_entrants() {
    let mut a = tournaments_app();
    press(&mut a, &[KeyCode::Enter]);
    let mut v = view();
    v.entrants[2].away = true;
    let name = v.entrants[2].name.clone();
    a.server(ServerMsg::Tournament(Box::new(v.clone())));
    press(&mut a, &[KeyCode::Tab]);
    let (text, _) = render(&a, 100, 24);
    let line = text
        .lines()
        .find(|l| l.contains(&name))
        .expect("in the standings");
    assert!(line.contains("away"), "{text}");
    assert_eq!(text.matches("away").count(), 1, "{text}");
    // Before the first round: the entrants.
    v.summary.round = 0;
    v.boards.clear();
    v.standings.clear();
    a.server(ServerMsg::Tournament(Box::new(v)));
    press(&mut a, &[KeyCode::Tab, KeyCode::Tab]);
    let (text, _) = render(&a, 100, 24);
    let line = text
        .lines()
        .find(|l| l.contains(&name))
        .expect("among the entrants");
    assert!(line.contains("away"), "{text}");
}

#[test]
fn snapshot_tournament_list() {
    let a = tournaments_app();
    let (text, _) = render(&a, 80, 24);
    insta::assert_snapshot!("tournament_list", text);
}

#[test]
fn a_tournament_opens_with_its_pairings_then_standings_and_crosstable() {
    let mut a = tournaments_app();
    press(&mut a, &[KeyCode::Enter]);
    assert_eq!(sent(&mut a), vec![ClientMsg::ShowTournament(3)]);
    a.server(ServerMsg::Tournament(Box::new(view())));
    let (text, _) = render(&a, 80, 24);
    insta::assert_snapshot!("tournament_pairings", text);
    // g: to An's own game; Enter on board 2: watch it.
    press(&mut a, &[KeyCode::Char('g')]);
    assert_eq!(sent(&mut a), vec![ClientMsg::JoinRoom(7)]);
    press(&mut a, &[KeyCode::Down, KeyCode::Enter]);
    assert!(sent(&mut a).is_empty(), "board 2 is over: nothing to watch");
    press(&mut a, &[KeyCode::Up, KeyCode::Enter]);
    assert_eq!(sent(&mut a), vec![ClientMsg::JoinRoom(7)]);
    press(&mut a, &[KeyCode::Tab]);
    let (text, _) = render(&a, 80, 24);
    insta::assert_snapshot!("tournament_standings", text);
    press(&mut a, &[KeyCode::Tab]);
    let (text, _) = render(&a, 80, 24);
    assert!(text.contains("+4w"), "{text}");
    press(&mut a, &[KeyCode::Char('e'), KeyCode::Char('w')]);
    assert_eq!(
        sent(&mut a),
        vec![
            ClientMsg::JoinTournament(3),
            ClientMsg::WithdrawTournament(3)
        ]
    );
    press(&mut a, &[KeyCode::Esc]);
    assert_eq!(sent(&mut a), vec![ClientMsg::ListTournaments]);
    press(&mut a, &[KeyCode::Esc]);
    assert!(matches!(a.screen, Screen::Lobby(_)));
}

#[test]
fn the_form_names_the_tournament_then_takes_the_games_settings() {
    let mut a = tournaments_app();
    press(&mut a, &[KeyCode::Char('c')]);
    // No name: Enter stays on the first page.
    press(&mut a, &[KeyCode::Enter]);
    assert!(sent(&mut a).is_empty());
    typ(&mut a, "Friday");
    // The name is typed: the key line says so rather than offer ←→ to change it.
    let (text, _) = render(&a, 80, 24);
    assert!(
        text.contains("abc ⌫ type") && !text.contains("←→ change"),
        "{text}"
    );
    press(&mut a, &[KeyCode::Down, KeyCode::Right, KeyCode::Right]);
    let (text, _) = render(&a, 80, 24);
    insta::assert_snapshot!("tournament_form", text);
    // Arena, 31 minutes; then the games' page, and Enter creates.
    press(&mut a, &[KeyCode::Down, KeyCode::Right, KeyCode::Enter]);
    assert!(sent(&mut a).is_empty());
    // The pairings decide who moves first; Enter creates the tournament.
    let (text, _) = render(&a, 100, 34);
    assert!(!text.contains("First move"), "{text}");
    assert!(
        text.contains("Enter create") && !text.contains("challenge"),
        "{text}"
    );
    press(&mut a, &[KeyCode::Enter]);
    let msgs = sent(&mut a);
    let [ClientMsg::CreateTournament(s)] = &msgs[..] else {
        panic!("expected a create, got {msgs:?}");
    };
    assert_eq!(s.name, "Friday");
    assert_eq!(
        s.format,
        TournamentFormat::Arena {
            seconds: 31 * 60,
            berserk: false
        }
    );
    assert_eq!(s.room.seats, [SeatKind::Human, SeatKind::Human]);
    assert_eq!(s.start, banco_protocol::TournamentStart::Manual);
    // A caro pairing starts as a two-game mini-match, one game with each colour.
    assert_eq!(
        s.room.match_format,
        Some(banco_protocol::MatchFormat {
            games: 2,
            first_to: None
        })
    );
}

#[test]
fn the_form_sets_berserk_the_bye_and_the_start() {
    // An arena with berserk, starting in 5 minutes.
    let mut a = tournaments_app();
    press(&mut a, &[KeyCode::Char('c')]);
    typ(&mut a, "Blitz");
    press(&mut a, &[KeyCode::Down, KeyCode::Left]);
    press(&mut a, &[KeyCode::Down, KeyCode::Down, KeyCode::Char(' ')]);
    // Past the forfeit wait to the start.
    press(
        &mut a,
        &[
            KeyCode::Down,
            KeyCode::Down,
            KeyCode::Right,
            KeyCode::Right,
            KeyCode::Right,
        ],
    );
    let (text, _) = render(&a, 80, 24);
    assert!(text.contains("Berserk") && text.contains(" on "), "{text}");
    assert!(text.contains("in 5 min"), "{text}");
    let before = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    press(&mut a, &[KeyCode::Enter, KeyCode::Enter]);
    let msgs = sent(&mut a);
    let [ClientMsg::CreateTournament(s)] = &msgs[..] else {
        panic!("expected a create, got {msgs:?}");
    };
    assert_eq!(
        s.format,
        TournamentFormat::Arena {
            seconds: 30 * 60,
            berserk: true
        }
    );
    let banco_protocol::TournamentStart::At { unix_ms } = s.start else {
        panic!("a start time, got {:?}", s.start);
    };
    assert!((before + 5 * 60_000..before + 6 * 60_000).contains(&unix_ms));

    // A Swiss whose bye is worth a draw, started by the organiser.
    let mut a = tournaments_app();
    press(&mut a, &[KeyCode::Char('c')]);
    typ(&mut a, "Open");
    press(
        &mut a,
        &[KeyCode::Down, KeyCode::Down, KeyCode::Down, KeyCode::Right],
    );
    let (text, _) = render(&a, 80, 24);
    assert!(
        text.contains("The bye") && text.contains("worth a draw"),
        "{text}"
    );
    assert!(text.contains("when I start it"), "{text}");
    press(&mut a, &[KeyCode::Enter, KeyCode::Enter]);
    let msgs = sent(&mut a);
    let [ClientMsg::CreateTournament(s)] = &msgs[..] else {
        panic!("expected a create, got {msgs:?}");
    };
    assert_eq!(s.format, TournamentFormat::Swiss { rounds: 5 });
    assert_eq!(s.bye, banco_protocol::ByeValue::Draw);
    assert_eq!(s.start, banco_protocol::TournamentStart::Manual);
}

#[test]
fn the_form_sets_the_asked_for_bye_the_forfeit_wait_and_the_tie_breaks() {
    let mut a = tournaments_app();
    press(&mut a, &[KeyCode::Char('c')]);
    typ(&mut a, "Club");
    // A Swiss: the asked-for bye (worth half a point unless changed) is worth nothing,
    // the forfeit wait is five minutes, the tie-breaks are typed.
    press(
        &mut a,
        &[
            KeyCode::Down,
            KeyCode::Down,
            KeyCode::Down,
            KeyCode::Down,
            KeyCode::Right,
            KeyCode::Down,
            KeyCode::Right,
            KeyCode::Right,
            KeyCode::Down,
        ],
    );
    let (text, _) = render(&a, 80, 24);
    assert!(
        text.contains("Asked-for bye") && text.contains("worth nothing"),
        "{text}"
    );
    assert!(text.contains("5 min"), "{text}");
    assert!(text.contains("BH-C1 BH SB DE WIN"), "{text}");
    assert!(
        text.contains("BH BH-C1 SB DE WIN WON."),
        "the codes: {text}"
    );
    // A word that is no tie-break: said, nothing sent, the cursor stays there.
    for _ in 0..20 {
        press(&mut a, &[KeyCode::Backspace]);
    }
    typ(&mut a, "sb median");
    press(&mut a, &[KeyCode::Enter]);
    assert!(sent(&mut a).is_empty());
    let (text, _) = render(&a, 80, 24);
    assert!(text.contains("A tie-break is not known"), "{text}");
    for _ in 0..6 {
        press(&mut a, &[KeyCode::Backspace]);
    }
    typ(&mut a, "bh");
    press(&mut a, &[KeyCode::Enter, KeyCode::Enter]);
    let msgs = sent(&mut a);
    let [ClientMsg::CreateTournament(s)] = &msgs[..] else {
        panic!("expected a create, got {msgs:?}");
    };
    assert_eq!(s.requested_bye, banco_protocol::ByeValue::Nothing);
    assert_eq!(s.bye, banco_protocol::ByeValue::Win);
    assert_eq!(s.forfeit_secs, 300);
    assert_eq!(
        s.tie_breaks,
        [
            banco_protocol::TieBreak::SonnebornBerger,
            banco_protocol::TieBreak::Buchholz
        ]
    );

    // A round robin has no asked-for byes; an arena neither, nor tie-breaks.
    let mut a = tournaments_app();
    press(&mut a, &[KeyCode::Char('c')]);
    typ(&mut a, "Ring");
    press(&mut a, &[KeyCode::Down, KeyCode::Right]);
    let (text, _) = render(&a, 80, 24);
    assert!(!text.contains("Asked-for bye"), "{text}");
    assert!(text.contains("Tie-breaks"), "{text}");
    press(&mut a, &[KeyCode::Right]);
    let (text, _) = render(&a, 80, 24);
    assert!(!text.contains("Tie-breaks"), "{text}");
    press(&mut a, &[KeyCode::Enter, KeyCode::Enter]);
    let msgs = sent(&mut a);
    let [ClientMsg::CreateTournament(s)] = &msgs[..] else {
        panic!("expected a create, got {msgs:?}");
    };
    assert!(s.tie_breaks.is_empty(), "{:?}", s.tie_breaks);
    assert_eq!(s.forfeit_secs, 120);
}

#[test]
fn a_game_ready_is_told_wherever_the_player_is() {
    let mut a = lobby_app();
    a.server(ServerMsg::TournamentGame(banco_protocol::TournamentGame {
        tournament: 3,
        round: 2,
        board: 1,
        room: 7,
        opponent: "Bình".into(),
        white: true,
        forfeit_secs: 120,
    }));
    let (text, _) = render(&a, 100, 30);
    assert!(text.contains("room 7"), "{text}");
}

#[test]
fn the_organisers_keys_send_what_the_protocol_offers_and_h_asks_for_a_bye() {
    let mut a = tournaments_app();
    press(&mut a, &[KeyCode::Enter]);
    sent(&mut a);
    let mut v = view();
    v.summary.organiser = "An".into();
    v.bye_requests = vec![ByeRequestView {
        round: 3,
        entrant: 3,
    }];
    v.entrants[3].bot = Some(Level::Easy);
    a.server(ServerMsg::Tournament(Box::new(v.clone())));
    let (text, _) = render(&a, 100, 30);
    insta::assert_snapshot!("tournament_organiser", text);
    assert!(text.contains("Chi asked for a bye"), "{text}");
    // h: a bye in the next round; once asked (the view says so), h takes it back.
    press(&mut a, &[KeyCode::Char('h')]);
    assert_eq!(
        sent(&mut a),
        vec![ClientMsg::RequestBye {
            id: 3,
            round: None,
            cancel: false
        }]
    );
    v.bye_requests.push(ByeRequestView {
        round: 3,
        entrant: 1,
    });
    a.server(ServerMsg::Tournament(Box::new(v.clone())));
    press(&mut a, &[KeyCode::Char('h')]);
    assert_eq!(
        sent(&mut a),
        vec![ClientMsg::RequestBye {
            id: 3,
            round: Some(3),
            cancel: true
        }]
    );
    // Pause (it runs), a round more, the next bot level not entered (easy is).
    press(
        &mut a,
        &[KeyCode::Char('P'), KeyCode::Char('+'), KeyCode::Char('b')],
    );
    assert_eq!(
        sent(&mut a),
        vec![
            ClientMsg::PauseTournament {
                id: 3,
                paused: true
            },
            ClientMsg::AddRound(3),
            ClientMsg::AddTournamentBot {
                id: 3,
                level: Level::Casual
            },
        ]
    );
    // B: a bot account by its name, typed; Esc gives up, Enter enters it.
    press(
        &mut a,
        &[KeyCode::Char('B'), KeyCode::Char('x'), KeyCode::Esc],
    );
    assert_eq!(sent(&mut a), vec![]);
    let mut keys = vec![KeyCode::Char('B')];
    keys.extend("Rapfi".chars().map(KeyCode::Char));
    keys.push(KeyCode::Enter);
    press(&mut a, &keys);
    assert_eq!(
        sent(&mut a),
        vec![ClientMsg::EnterBotAccount {
            id: 3,
            name: "Rapfi".into()
        }]
    );
    // A result by hand on the chosen board of the current round.
    press(
        &mut a,
        &[KeyCode::Char('1'), KeyCode::Down, KeyCode::Char('=')],
    );
    assert_eq!(
        sent(&mut a),
        vec![
            ClientMsg::SetResult {
                id: 3,
                round: 2,
                board: 1,
                result: BoardResult::WhiteWins
            },
            ClientMsg::SetResult {
                id: 3,
                round: 2,
                board: 2,
                result: BoardResult::Draw
            },
        ]
    );
    // x removes the chosen player of the standings, asked twice.
    press(&mut a, &[KeyCode::Char('x')]);
    assert!(sent(&mut a).is_empty(), "no player chosen on the pairings");
    press(&mut a, &[KeyCode::Tab, KeyCode::Down, KeyCode::Char('x')]);
    assert!(sent(&mut a).is_empty(), "asked first");
    let (text, _) = render(&a, 100, 30);
    insta::assert_snapshot!("tournament_standings_chosen", text);
    press(&mut a, &[KeyCode::Char('x')]);
    assert_eq!(
        sent(&mut a),
        vec![ClientMsg::RemoveEntrant {
            id: 3,
            name: "Chi".into()
        }]
    );
    // Another key between the two presses asks again.
    press(
        &mut a,
        &[KeyCode::Char('x'), KeyCode::Up, KeyCode::Char('x')],
    );
    assert!(sent(&mut a).is_empty());
    // E: every export that applies, each saved where the client runs.
    press(&mut a, &[KeyCode::Char('E')]);
    assert_eq!(
        sent(&mut a),
        [ExportFormat::Trf, ExportFormat::Csv, ExportFormat::Json]
            .map(|format| ClientMsg::ExportTournament { id: 3, format })
            .to_vec()
    );
}

#[test]
fn a_set_start_counts_down_in_the_head() {
    let mut a = tournaments_app();
    press(&mut a, &[KeyCode::Enter]);
    sent(&mut a);
    let mut v = view();
    v.summary.status = TournamentStatus::Entries;
    v.summary.round = 0;
    v.starts_in_ms = Some(10 * 60_000);
    a.server(ServerMsg::Tournament(Box::new(v)));
    let (text, _) = render(&a, 100, 24);
    assert!(text.contains("starts in 10:00"), "{text}");
    // No round is named before the first is paired: the format says how many.
    assert!(!text.contains("round 0"), "{text}");
    assert!(text.contains("3 rounds"), "{text}");
    // It runs from when the view came, as a room's clocks do.
    a.now += std::time::Duration::from_secs(65);
    let (text, _) = render(&a, 100, 24);
    assert!(text.contains("starts in 8:55"), "{text}");
}
