//! Round trips for every message and fuzzing of the decoder.
//!
//! `client_variant` / `server_variant` match exhaustively: adding a message variant stops
//! this file compiling until the new variant has a sample here too.

use proptest::prelude::*;

use crate::review::SCORE_CAP;
use crate::room::*;
use crate::wire::{decode, encode};
use crate::*;

fn client_variant(m: &ClientMsg) -> usize {
    match m {
        ClientMsg::Hello(_) => 0,
        ClientMsg::ListRooms => 1,
        ClientMsg::CreateRoom(_) => 2,
        ClientMsg::JoinRoom(_) => 3,
        ClientMsg::WatchRoom(_) => 4,
        ClientMsg::LeaveRoom => 5,
        ClientMsg::Move(_) => 6,
        ClientMsg::Chat(_) => 7,
        ClientMsg::Offer(_) => 8,
        ClientMsg::Answer { .. } => 9,
        ClientMsg::Withdraw(_) => 10,
        ClientMsg::Resign => 11,
        ClientMsg::Hint => 12,
        ClientMsg::Leaderboard(_) => 13,
        ClientMsg::History { .. } => 14,
        ClientMsg::Replay(_) => 15,
        ClientMsg::Pong(_) => 16,
        ClientMsg::Facts => 17,
        ClientMsg::ChangePassword(_) => 18,
        ClientMsg::Profile { .. } => 19,
        ClientMsg::Judge(_) => 20,
        ClientMsg::Review(_) => 21,
        ClientMsg::ParseRecord { .. } => 22,
        ClientMsg::WriteRecord { .. } => 23,
        ClientMsg::Trial(_) => 24,
        ClientMsg::LogOut => 25,
        ClientMsg::ResignMatch => 26,
        ClientMsg::Challenge { .. } => 27,
        ClientMsg::AcceptChallenge(_) => 28,
        ClientMsg::DeclineChallenge { .. } => 29,
        ClientMsg::CancelChallenge(_) => 30,
        ClientMsg::SetChallenges(_) => 31,
        ClientMsg::Players => 32,
        ClientMsg::CreateTournament(_) => 33,
        ClientMsg::ListTournaments => 34,
        ClientMsg::JoinTournament(_) => 35,
        ClientMsg::WithdrawTournament(_) => 36,
        ClientMsg::ShowTournament(_) => 37,
        ClientMsg::StartTournament(_) => 38,
        ClientMsg::PairRound(_) => 39,
        ClientMsg::PauseTournament { .. } => 40,
        ClientMsg::AddRound(_) => 41,
        ClientMsg::AddTournamentBot { .. } => 42,
        ClientMsg::RemoveEntrant { .. } => 43,
        ClientMsg::SetResult { .. } => 44,
        ClientMsg::ExportTournament { .. } => 45,
        ClientMsg::Swap(_) => 46,
        ClientMsg::Berserk => 47,
        ClientMsg::RequestBye { .. } => 48,
        ClientMsg::EnterBotAccount { .. } => 49,
    }
}
const CLIENT_VARIANTS: usize = 50;

fn server_variant(m: &ServerMsg) -> usize {
    match m {
        ServerMsg::Welcome(_) => 0,
        ServerMsg::Rooms(_) => 1,
        ServerMsg::RoomCreated(_) => 2,
        ServerMsg::Joined(_) => 3,
        ServerMsg::Left => 4,
        ServerMsg::People { .. } => 5,
        ServerMsg::GameStarted(_) => 6,
        ServerMsg::Moved { .. } => 7,
        ServerMsg::Chat(_) => 8,
        ServerMsg::Offered(_) => 9,
        ServerMsg::Declined(_) => 10,
        ServerMsg::Withdrawn(_) => 11,
        ServerMsg::Undone { .. } => 12,
        ServerMsg::Clock(_) => 13,
        ServerMsg::GameOver(_) => 14,
        ServerMsg::Hint(_) => 15,
        ServerMsg::Error(_) => 16,
        ServerMsg::Leaderboard { .. } => 17,
        ServerMsg::History(_) => 18,
        ServerMsg::Replay(_) => 19,
        ServerMsg::Ping(_) => 20,
        ServerMsg::Storage(_) => 21,
        ServerMsg::Facts(_) => 22,
        ServerMsg::PasswordChanged => 23,
        ServerMsg::RoomsChanged { .. } => 24,
        ServerMsg::Profile(_) => 25,
        ServerMsg::Judged(_) => 26,
        ServerMsg::ReviewProgress { .. } => 27,
        ServerMsg::Review(_) => 28,
        ServerMsg::RecordParsed(_) => 29,
        ServerMsg::RecordText { .. } => 30,
        ServerMsg::RecordRefused { .. } => 31,
        ServerMsg::Tried(_) => 32,
        ServerMsg::LoggedOut => 33,
        ServerMsg::Match(_) => 34,
        ServerMsg::MatchOver(_) => 35,
        ServerMsg::ChallengeSent(_) => 36,
        ServerMsg::Challenged(_) => 37,
        ServerMsg::ChallengeEnded { .. } => 38,
        ServerMsg::OpenChallenges(_) => 39,
        ServerMsg::Players(_) => 40,
        ServerMsg::ChallengesSet(_) => 41,
        ServerMsg::Tournaments(_) => 42,
        ServerMsg::Tournament(_) => 43,
        ServerMsg::TournamentGame(_) => 44,
        ServerMsg::TournamentOver { .. } => 45,
        ServerMsg::TournamentExport { .. } => 46,
        ServerMsg::Swap(_) => 47,
    }
}
const SERVER_VARIANTS: usize = 48;

fn tournament_settings() -> TournamentSettings {
    let mut t = TournamentSettings::new(
        "Club night",
        TournamentFormat::Swiss { rounds: 3 },
        RoomSettings::default(),
    );
    t.start = TournamentStart::At {
        unix_ms: 1_800_000_000_000,
    };
    t.bye = ByeValue::Draw;
    t.requested_bye = ByeValue::Nothing;
    t
}

fn tournament_view() -> TournamentView {
    let settings = tournament_settings();
    TournamentView {
        summary: TournamentSummary {
            id: 1,
            name: settings.name.clone(),
            format: settings.format,
            game: GameKind::Caro,
            time: crate::TimeControl::clock(
                std::time::Duration::from_secs(300),
                std::time::Duration::from_secs(3),
            ),
            organiser: "An".into(),
            status: TournamentStatus::Running,
            entrants: 3,
            round: 1,
            rounds: 3,
            rated: true,
        },
        entrants: vec![
            Entrant {
                number: 1,
                name: "An".into(),
                bot: None,
                rating: 1500,
                withdrawn: false,
                away: false,
            },
            Entrant {
                number: 2,
                name: bot_name(Level::Easy),
                bot: Some(Level::Easy),
                rating: 0,
                withdrawn: false,
                away: false,
            },
            Entrant {
                number: 3,
                name: "Chi".into(),
                bot: None,
                rating: 1400,
                withdrawn: true,
                away: true,
            },
        ],
        boards: vec![BoardView {
            round: 1,
            board: 1,
            white: 1,
            black: 2,
            room: Some(4),
            result: Some(BoardResult::WhiteWinsByForfeit),
            by_hand: true,
            berserk: [true, false],
        }],
        byes: vec![ByeView {
            round: 1,
            entrant: 3,
            points: 5,
        }],
        bye_requests: vec![ByeRequestView {
            round: 2,
            entrant: 2,
        }],
        tie_breaks: settings.tie_breaks.clone(),
        standings: vec![StandingLine {
            rank: 1,
            entrant: 1,
            points: 10,
            tie_breaks: vec![0, 50, -1],
            on_fire: false,
        }],
        crosstable: vec![CrossRow {
            entrant: 1,
            cells: vec![CrossCell {
                opponent: Some(2),
                white: Some(true),
                points: Some(10),
                played: false,
            }],
        }],
        ends_in_ms: None,
        starts_in_ms: Some(1000),
        settings,
    }
}

#[test]
fn board_results_read_as_scoresheets_write_them() {
    for r in [
        BoardResult::WhiteWins,
        BoardResult::Draw,
        BoardResult::BlackWins,
        BoardResult::WhiteWinsByForfeit,
        BoardResult::BlackWinsByForfeit,
        BoardResult::DoubleForfeit,
    ] {
        assert_eq!(BoardResult::parse(r.text()), Some(r));
    }
    assert_eq!(BoardResult::parse("1/2"), Some(BoardResult::Draw));
    assert_eq!(BoardResult::parse("2-0"), None);
    for b in TieBreak::ALL {
        assert_eq!(TieBreak::parse(b.code()), Some(b));
    }
}

#[test]
fn a_caro_tournament_plays_mini_matches_and_xiangqi_single_games() {
    assert_eq!(
        tournament_settings().room.match_format,
        Some(MatchFormat::MINI)
    );
    let xq = TournamentSettings::new(
        "x",
        TournamentFormat::RoundRobin { double: false },
        RoomSettings {
            game: GameSettings::Xiangqi { fen: None },
            ..RoomSettings::default()
        },
    );
    assert_eq!(xq.room.match_format, None);
}

fn challenge_sample(to: Option<&str>) -> Challenge {
    Challenge {
        id: 7,
        from: "Bình".into(),
        from_bot: to.is_none(),
        to: to.map(String::from),
        settings: RoomSettings {
            time: TimeControl::Clock {
                initial_millis: 300_000,
                increment_millis: 3_000,
            },
            rated: false,
            ..RoomSettings::default()
        },
        expires_in_ms: 120_000,
    }
}

fn xq(file: u8, rank: u8) -> XqSquare {
    XqSquare { file, rank }
}

fn caro_arrangement() -> Arrangement {
    Arrangement::Caro {
        width: 15,
        height: 15,
        rule: Rule::Freestyle,
        x: vec![Point::new(7, 7), Point::new(8, 8)],
        o: vec![Point::new(0, 14)],
    }
}

fn settings_samples() -> Vec<RoomSettings> {
    vec![
        RoomSettings::default(),
        RoomSettings {
            game: GameSettings::Caro {
                width: 64,
                height: 5,
                rule: Rule::Standard,
                opening: CaroOpening::Stones(vec![Point::new(7, 2), Point::new(8, 3)]),
            },
            time: TimeControl::Clock {
                initial_millis: 300_000,
                increment_millis: 3_000,
            },
            first: FirstMove::Random,
            seats: [SeatKind::Bot(Level::Hard), SeatKind::Bot(Level::Easy)],
            hints: false,
            match_format: Some(MatchFormat {
                games: 9,
                first_to: Some(5),
            }),
            rated: true,
        },
        RoomSettings {
            game: GameSettings::Xiangqi {
                fen: Some(
                    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1".into(),
                ),
            },
            time: TimeControl::PerMove { millis: 60_000 },
            first: FirstMove::Them,
            seats: [SeatKind::Human, SeatKind::Bot(Level::Max)],
            hints: true,
            match_format: Some(MatchFormat::MINI),
            rated: false,
        },
        RoomSettings {
            game: GameSettings::Caro {
                width: 19,
                height: 19,
                rule: Rule::Caro,
                opening: CaroOpening::Balanced,
            },
            ..RoomSettings::default()
        },
    ]
}

fn match_state() -> MatchState {
    let score = Series {
        wins: [5, 3],
        draws: 1,
    };
    MatchState {
        format: MatchFormat {
            games: 9,
            first_to: Some(5),
        },
        number: 2,
        score,
        leader: Some(Seat::One),
        game: 9,
        next_game_in_ms: Some(9_500),
        result: Some(MatchResult {
            winner: Some(Seat::One),
            score,
            reason: MatchEnd::Decided,
        }),
    }
}

fn swap_sample() -> SwapView {
    SwapView {
        kind: CaroOpening::Swap2,
        proposer: Seat::Two,
        stage: SwapStage::Choose,
        to_act: Some(Seat::Two),
        choices: vec![SwapChoice::White, SwapChoice::Black],
        stones: vec![Point::new(7, 7), Point::new(6, 8), Point::new(9, 5)],
        steps: vec![
            SwapStep::Stone {
                by: Seat::Two,
                point: Point::new(7, 7),
            },
            SwapStep::Decided {
                by: Seat::One,
                choice: SwapChoice::PlaceTwo,
            },
        ],
        x_seat: None,
    }
}

fn game_view() -> GameView {
    GameView {
        number: 3,
        first: Seat::Two,
        start_fen: String::new(),
        opening: vec![Point::new(7, 7), Point::new(6, 8), Point::new(9, 5)],
        moves: vec![
            MoveRecord {
                mv: Move::Caro(Point::new(7, 7)),
                by: Seat::Two,
                wxf: String::new(),
                check: false,
            },
            MoveRecord {
                mv: Move::Xiangqi {
                    from: xq(7, 2),
                    to: xq(4, 2),
                },
                by: Seat::One,
                wxf: "C2.5".into(),
                check: true,
            },
        ],
        clocks: Some(Clocks {
            remaining_ms: [12_000, 20_000],
            running: Some(Seat::One),
        }),
        over: Some(GameOver {
            winner: Some(Seat::Two),
            reason: EndReason::Five,
            line: vec![Point::new(1, 2); 5],
        }),
        swap: Some(Box::new(swap_sample())),
    }
}

fn recorded_sample() -> RecordedGame {
    RecordedGame {
        summary: RecordedSummary {
            id: None,
            game: GameSettings::caro_default(),
            time: None,
            players: ["An".into(), "?".into()],
            first: Seat::Two,
            over: None,
            ended_at_ms: Some(1_746_000_000_000),
            rated: None,
        },
        start_fen: String::new(),
        opening: vec![Point::new(7, 7)],
        moves: game_view().moves,
    }
}

fn review_sample() -> GameReview {
    GameReview {
        game: 9,
        first: Seat::Two,
        start_chances: 520,
        plies: vec![ReviewedPly {
            played: Move::Xiangqi {
                from: xq(0, 0),
                to: xq(0, 5),
            },
            by: Seat::Two,
            chances: 80,
            score: -SCORE_CAP,
            loss: 440,
            class: MoveClass::Blunder,
            best: Some(Move::Caro(Point::new(7, 7))),
            line: vec![Move::Caro(Point::new(7, 7)), Move::Caro(Point::new(8, 8))],
            reply: None,
        }],
        players: [
            PlayerReview::default(),
            PlayerReview {
                blunders: 1,
                average_loss: 900,
                ..PlayerReview::default()
            },
        ],
        budget_ms: 100,
    }
}

fn client_samples() -> Vec<ClientMsg> {
    let mut v = vec![
        ClientMsg::Hello(Hello {
            version: PROTOCOL_VERSION,
            name: "Lan".into(),
            resume: None,
            account: None,
        }),
        ClientMsg::Hello(Hello {
            version: 7,
            name: "Điệp".into(),
            resume: Some(ResumeToken([9; 16])),
            account: Some(Credentials::Password {
                password: "mật khẩu dài".into(),
                register: true,
                remember: true,
                bot: true,
            }),
        }),
        ClientMsg::Hello(Hello {
            version: PROTOCOL_VERSION,
            name: "Điệp".into(),
            resume: None,
            account: Some(Credentials::Token(AccountToken([7; 32]))),
        }),
        ClientMsg::LogOut,
        ClientMsg::Challenge {
            to: Some("Bot (max)".into()),
            settings: RoomSettings::default(),
        },
        ClientMsg::Challenge {
            to: None,
            settings: challenge_sample(None).settings,
        },
        ClientMsg::AcceptChallenge(u32::MAX),
        ClientMsg::CancelChallenge(1),
        ClientMsg::Players,
        ClientMsg::CreateTournament(Box::new(tournament_settings())),
        ClientMsg::ListTournaments,
        ClientMsg::Berserk,
        ClientMsg::RequestBye {
            id: 9,
            round: Some(3),
            cancel: false,
        },
        ClientMsg::RequestBye {
            id: 9,
            round: None,
            cancel: true,
        },
        ClientMsg::JoinTournament(1),
        ClientMsg::WithdrawTournament(2),
        ClientMsg::ShowTournament(3),
        ClientMsg::StartTournament(4),
        ClientMsg::PairRound(5),
        ClientMsg::PauseTournament {
            id: 6,
            paused: true,
        },
        ClientMsg::AddRound(7),
        ClientMsg::AddTournamentBot {
            id: 8,
            level: Level::Hard,
        },
        ClientMsg::EnterBotAccount {
            id: 8,
            name: "Rapfi".into(),
        },
        ClientMsg::RemoveEntrant {
            id: 9,
            name: "Bình".into(),
        },
        ClientMsg::SetResult {
            id: 10,
            round: 2,
            board: 3,
            result: BoardResult::Draw,
        },
        ClientMsg::ExportTournament {
            id: 11,
            format: ExportFormat::Trf,
        },
        ClientMsg::Swap(SwapChoice::PlaceTwo),
        ClientMsg::ChangePassword(PasswordChange {
            old: "old password".into(),
            new: "new password".into(),
        }),
        ClientMsg::ListRooms,
        ClientMsg::Review(u64::MAX),
        ClientMsg::JoinRoom(4),
        ClientMsg::WatchRoom(u32::MAX),
        ClientMsg::LeaveRoom,
        ClientMsg::Move(Move::Caro(Point::new(0, 63))),
        ClientMsg::Move(Move::Xiangqi {
            from: xq(7, 2),
            to: xq(4, 2),
        }),
        ClientMsg::Chat("gg wp 🙂".into()),
        ClientMsg::Resign,
        ClientMsg::ResignMatch,
        ClientMsg::Hint,
        ClientMsg::Leaderboard(GameKind::Caro),
        ClientMsg::Leaderboard(GameKind::Xiangqi),
        ClientMsg::Profile {
            name: "Điệp".into(),
            bot: None,
        },
        ClientMsg::Profile {
            name: String::new(),
            bot: Some(Level::Max),
        },
        ClientMsg::Judge(Box::new(caro_arrangement())),
        ClientMsg::Judge(Box::new(Arrangement::Xiangqi {
            pieces: vec![(xq(4, 0), 'K'), (xq(3, 9), 'k'), (xq(0, 5), 'p')],
            red_to_move: false,
        })),
        ClientMsg::History { player: None },
        ClientMsg::History {
            player: Some("An".into()),
        },
        ClientMsg::Replay(u64::MAX),
        ClientMsg::Pong(u32::MAX),
        ClientMsg::Facts,
        ClientMsg::ParseRecord {
            text: "game: caro\n1. h8 i9\n".into(),
            zone_minutes: -300,
        },
        ClientMsg::WriteRecord {
            record: Box::new(recorded_sample()),
            zone_minutes: 420,
        },
        ClientMsg::Trial(vec![]),
        ClientMsg::Trial(vec![
            Move::Caro(Point::new(1, 2)),
            Move::Xiangqi {
                from: xq(7, 2),
                to: xq(4, 2),
            },
        ]),
    ];
    v.extend(settings_samples().into_iter().map(ClientMsg::CreateRoom));
    for kind in [OfferKind::Undo, OfferKind::NewGame, OfferKind::Draw] {
        v.push(ClientMsg::Offer(kind));
        v.push(ClientMsg::Answer { kind, accept: true });
        v.push(ClientMsg::Answer {
            kind,
            accept: false,
        });
        v.push(ClientMsg::Withdraw(kind));
    }
    for reason in DeclineReason::ALL {
        v.push(ClientMsg::DeclineChallenge { id: 3, reason });
    }
    for policy in ChallengePolicy::ALL {
        v.push(ClientMsg::SetChallenges(policy));
    }
    v
}

fn server_samples() -> Vec<ServerMsg> {
    let seat = SeatView {
        name: "bot (hard)".into(),
        bot: Some(Level::Hard),
        connected: true,
        bot_account: false,
    };
    let offer = Offer {
        kind: OfferKind::Undo,
        by: Seat::One,
    };
    let clocks = Clocks {
        remaining_ms: [1, 2],
        running: None,
    };
    let mut v = vec![
        ServerMsg::Welcome(Welcome {
            version: 1,
            name: "Lan (2)".into(),
            server: "hostA".into(),
            resume: ResumeToken([1; 16]),
            account: true,
            account_token: Some(AccountToken([3; 32])),
            bot: true,
        }),
        ServerMsg::PasswordChanged,
        ServerMsg::ChallengeSent(challenge_sample(Some("An"))),
        ServerMsg::Challenged(challenge_sample(Some("An"))),
        ServerMsg::OpenChallenges(vec![]),
        ServerMsg::OpenChallenges(vec![challenge_sample(None), challenge_sample(None)]),
        ServerMsg::Players(vec![
            PlayerLine {
                name: "An".into(),
                level: None,
                account: true,
                bot: false,
                playing: true,
                challenges: ChallengePolicy::Accounts,
            },
            PlayerLine {
                name: bot_name(Level::Max),
                level: Some(Level::Max),
                account: false,
                bot: false,
                playing: false,
                challenges: ChallengePolicy::Everyone,
            },
        ]),
        ServerMsg::ChallengesSet(ChallengePolicy::Nobody),
        ServerMsg::Tournaments(vec![tournament_view().summary]),
        ServerMsg::Tournament(Box::new(tournament_view())),
        ServerMsg::TournamentGame(TournamentGame {
            tournament: 1,
            round: 2,
            board: 1,
            room: 7,
            opponent: "Chi".into(),
            white: true,
            forfeit_secs: 120,
        }),
        ServerMsg::TournamentOver {
            id: 1,
            winners: vec!["An".into()],
        },
        ServerMsg::TournamentExport {
            name: "club.trf".into(),
            text: "012 Club night\n".into(),
        },
        ServerMsg::Swap(Box::new(swap_sample())),
        ServerMsg::ChallengeEnded {
            id: 1,
            end: ChallengeEnd::Accepted {
                room: 4,
                by: "Chi".into(),
            },
        },
        ServerMsg::ChallengeEnded {
            id: 2,
            end: ChallengeEnd::Cancelled,
        },
        ServerMsg::ChallengeEnded {
            id: 2,
            end: ChallengeEnd::Expired,
        },
        ServerMsg::ChallengeEnded {
            id: 2,
            end: ChallengeEnd::Withdrawn,
        },
        ServerMsg::ReviewProgress {
            game: 9,
            done: 34,
            total: 80,
        },
        ServerMsg::Review(Box::new(review_sample())),
        ServerMsg::Rooms(vec![]),
        ServerMsg::Ping(7),
        ServerMsg::Storage(Storage::Saving),
        ServerMsg::Storage(Storage::NotSaving {
            reason: "the disk is full".into(),
        }),
        ServerMsg::RoomCreated(12),
        ServerMsg::Left,
        ServerMsg::People {
            seats: [Some(seat.clone()), None],
            came: vec!["Minh".into()],
            left: vec!["Lan".into()],
        },
        ServerMsg::GameStarted(game_view()),
        ServerMsg::Moved {
            record: MoveRecord {
                mv: Move::Caro(Point::new(3, 4)),
                by: Seat::One,
                wxf: String::new(),
                check: false,
            },
            ply: 9,
            clocks: None,
            not_a_win: Some(NotAWin::BlockedBothEnds),
        },
        ServerMsg::LoggedOut,
        ServerMsg::Chat(ChatLine {
            from: "An".into(),
            text: "hi".into(),
            at_ms: 1_763_000_000_000,
        }),
        ServerMsg::Offered(offer),
        ServerMsg::Declined(Offer {
            kind: OfferKind::NewGame,
            by: Seat::Two,
        }),
        ServerMsg::Withdrawn(Offer {
            kind: OfferKind::Draw,
            by: Seat::Two,
        }),
        ServerMsg::Undone {
            plies: 2,
            clocks: Some(clocks),
        },
        ServerMsg::Clock(clocks),
        ServerMsg::GameOver(GameOver {
            winner: None,
            reason: EndReason::Draw,
            line: vec![],
        }),
        ServerMsg::Hint(Move::Caro(Point::new(7, 8))),
        ServerMsg::Error(ErrorMsg::new(
            ErrorCode::NotYourTurn,
            "It is not your turn.",
        )),
        ServerMsg::Error(ErrorMsg::new(
            ErrorCode::NoSuchGame,
            "there is no finished game 12",
        )),
    ];
    v.push(ServerMsg::Rooms(
        settings_samples()
            .into_iter()
            .enumerate()
            .map(|(i, settings)| RoomSummary {
                id: i as u32,
                settings,
                players: [Some("An".into()), None],
                bot_accounts: [false, i % 2 == 1],
                spectators: 2,
                status: RoomStatus::Waiting,
            })
            .collect(),
    ));
    v.push(ServerMsg::Joined(Box::new(RoomView {
        id: 1,
        settings: RoomSettings::default(),
        you: Role::Player(Seat::Two),
        seats: [
            Some(seat.clone()),
            Some(SeatView {
                name: "Bình".into(),
                bot: None,
                connected: false,
                bot_account: true,
            }),
        ],
        spectators: vec![],
        game: Some(game_view()),
        offer: Some(offer),
        chat: vec![ChatLine {
            from: "x".into(),
            text: "y".into(),
            at_ms: 0,
        }],
        series: Series {
            wins: [3, 2],
            draws: 1,
        },
        match_state: Some(match_state()),
    })));
    v.push(ServerMsg::Joined(Box::new(RoomView {
        id: 2,
        settings: RoomSettings::default(),
        you: Role::Spectator,
        seats: [None, None],
        spectators: vec!["a".into(), "b".into()],
        game: None,
        offer: None,
        chat: vec![],
        series: Series::default(),
        match_state: None,
    })));
    let summary = GameSummary {
        id: 42,
        game: GameSettings::caro_default(),
        time: TimeControl::PerMove { millis: 20_000 },
        players: ["An".into(), "Hard bot".into()],
        first: Seat::One,
        over: GameOver {
            winner: Some(Seat::Two),
            reason: EndReason::Five,
            line: vec![Point::new(0, 0); 5],
        },
        plies: 17,
        ended_at_ms: 1_763_000_000_000,
        rated: true,
        in_match: Some(MatchGame {
            id: 12,
            game: 3,
            format: MatchFormat {
                games: 9,
                first_to: Some(5),
            },
            result: match_state().result,
        }),
    };
    let rating = Rating {
        rating: 1612,
        deviation: 87,
        provisional: false,
    };
    v.push(ServerMsg::Leaderboard {
        game: GameKind::Xiangqi,
        standings: vec![Standing {
            name: "An".into(),
            bot: None,
            bot_account: true,
            rating,
            games: 3,
            wins: 2,
            losses: 1,
            draws: 0,
        }],
    });
    v.push(ServerMsg::Profile(Box::new(Profile {
        name: "An".into(),
        bot: None,
        bot_account: false,
        registered_at_ms: Some(1_762_000_000_000),
        first_seen_ms: 1_700_000_000_000,
        games: vec![
            KindRecord {
                game: GameKind::Caro,
                rating,
                rank: Some(2),
                games: 3,
                wins: 2,
                losses: 1,
                draws: 0,
                best_win: Some(BestWin {
                    game: 42,
                    opponent: "Bình".into(),
                    opponent_rating: 1702,
                    ended_at_ms: 1_763_000_000_000,
                }),
                history: vec![RatingPoint {
                    at_ms: 1_763_000_000_000,
                    rating: 1612,
                    deviation: 87,
                }],
                matches: MatchTally {
                    won: 3,
                    lost: 1,
                    drawn: 2,
                },
            },
            KindRecord {
                game: GameKind::Xiangqi,
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
                matches: MatchTally::default(),
            },
        ],
        recent: vec![summary.clone()],
    })));
    v.push(ServerMsg::History(vec![summary.clone()]));
    v.push(ServerMsg::Replay(Box::new(GameRecord {
        summary,
        start_fen: String::new(),
        opening: game_view().opening,
        moves: game_view().moves,
        swap: Some(Box::new(swap_sample())),
    })));
    v.push(ServerMsg::Facts(Box::default()));
    v.push(ServerMsg::Judged(Box::new(Judgement {
        arrangement: caro_arrangement(),
        flaws: vec![Flaw {
            reason: "X already has five in a row".into(),
            points: vec![Point::new(1, 1), Point::new(2, 2)],
            squares: vec![],
        }],
        game: None,
    })));
    v.push(ServerMsg::Judged(Box::new(Judgement {
        arrangement: Arrangement::Xiangqi {
            pieces: vec![],
            red_to_move: true,
        },
        flaws: vec![],
        game: Some(GameSettings::Xiangqi {
            fen: Some("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1".into()),
        }),
    })));
    v.push(ServerMsg::RoomsChanged {
        changed: vec![],
        closed: vec![3, 9],
    });
    v.push(ServerMsg::Facts(Box::new(PositionFacts {
        game: 3,
        ply: 41,
        legal: vec![Move::Xiangqi {
            from: xq(7, 2),
            to: xq(4, 2),
        }],
        check: true,
        fives: [vec![Point::new(3, 4)], vec![]],
        three_stops: [vec![], vec![Point::new(0, 0), Point::new(63, 63)]],
        forbidden: vec![ForbiddenPoint {
            point: Point::new(8, 7),
            foul: Foul::DoubleThree,
        }],
    })));
    v.push(ServerMsg::RecordParsed(Box::new(recorded_sample())));
    v.push(ServerMsg::RecordText {
        name: "banco-caro-42.txt".into(),
        text: "game: caro\n".into(),
    });
    v.push(ServerMsg::RecordRefused {
        line: 3,
        message: "move 2 (h8): h8 is already taken".into(),
    });
    v.push(ServerMsg::Tried(Box::default()));
    v.push(ServerMsg::Tried(Box::new(Trial {
        asked: vec![Move::Caro(Point::new(7, 7)), Move::Caro(Point::new(7, 7))],
        game: 2,
        ply: 9,
        moves: game_view().moves,
        refused: Some("h8 is already taken".into()),
        facts: PositionFacts::default(),
        over: Some(GameOver {
            winner: None,
            reason: EndReason::Draw,
            line: vec![],
        }),
    })));
    for reason in DeclineReason::ALL {
        v.push(ServerMsg::ChallengeEnded {
            id: 9,
            end: ChallengeEnd::Declined {
                by: "An".into(),
                reason,
            },
        });
    }
    for reason in EndReason::ALL {
        v.push(ServerMsg::GameOver(GameOver {
            winner: Some(Seat::One),
            reason,
            line: vec![],
        }));
    }
    v.push(ServerMsg::Match(match_state()));
    v.push(ServerMsg::Match(MatchState {
        format: MatchFormat::MINI,
        number: 1,
        score: Series::default(),
        leader: None,
        game: 1,
        next_game_in_ms: None,
        result: None,
    }));
    for reason in MatchEnd::ALL {
        v.push(ServerMsg::MatchOver(MatchResult {
            winner: None,
            score: Series {
                wins: [1, 1],
                draws: 0,
            },
            reason,
        }));
    }
    v
}

#[test]
fn every_client_message_round_trips() {
    let samples = client_samples();
    let mut seen = [false; CLIENT_VARIANTS];
    for m in samples {
        seen[client_variant(&m)] = true;
        let bytes = encode(&m).unwrap();
        assert_eq!(decode::<ClientMsg>(&bytes).unwrap(), m);
        // The browser page speaks the same messages as JSON.
        let json = serde_json::to_string(&m).unwrap();
        assert_eq!(serde_json::from_str::<ClientMsg>(&json).unwrap(), m);
    }
    assert!(
        seen.iter().all(|s| *s),
        "a client message variant has no sample: {seen:?}"
    );
}

#[test]
fn every_server_message_round_trips() {
    let samples = server_samples();
    let mut seen = [false; SERVER_VARIANTS];
    for m in samples {
        seen[server_variant(&m)] = true;
        let bytes = encode(&m).unwrap();
        assert_eq!(decode::<ServerMsg>(&bytes).unwrap(), m);
        let json = serde_json::to_string(&m).unwrap();
        assert_eq!(serde_json::from_str::<ServerMsg>(&json).unwrap(), m);
    }
    assert!(
        seen.iter().all(|s| *s),
        "a server message variant has no sample: {seen:?}"
    );
}

#[test]
fn caro_settings_stored_before_openings_read_as_an_empty_board() {
    // The JSON a server stored before openings existed (the store keeps room settings
    // as JSON): no `opening` field.
    let old = r#"{"caro":{"width":19,"height":15,"rule":"Freestyle"}}"#;
    let game: GameSettings = serde_json::from_str(old).unwrap();
    assert_eq!(
        game,
        GameSettings::Caro {
            width: 19,
            height: 15,
            rule: Rule::Freestyle,
            opening: CaroOpening::None,
        }
    );
    for opening in [
        CaroOpening::None,
        CaroOpening::Balanced,
        CaroOpening::Stones(vec![Point::new(1, 2)]),
    ] {
        let game = GameSettings::Caro {
            width: 15,
            height: 15,
            rule: Rule::Caro,
            opening,
        };
        let json = serde_json::to_string(&game).unwrap();
        assert_eq!(serde_json::from_str::<GameSettings>(&json).unwrap(), game);
    }
}

#[test]
fn trailing_bytes_are_refused() {
    let mut bytes = encode(&ClientMsg::ListRooms).unwrap();
    bytes.push(0);
    assert!(matches!(
        decode::<ClientMsg>(&bytes),
        Err(wire::DecodeError::TrailingBytes(1))
    ));
}

#[test]
fn hello_version_is_readable_first() {
    // A server of any version can read the version of a Hello: variant 0, then the u16.
    let bytes = encode(&ClientMsg::Hello(Hello {
        version: 300,
        name: "n".into(),
        resume: None,
        account: None,
    }))
    .unwrap();
    assert_eq!(bytes[0], 0);
    let (version, _): (u16, usize) =
        bincode::decode_from_slice(&bytes[1..], bincode::config::standard()).unwrap();
    assert_eq!(version, 300);
}

#[test]
fn huge_length_prefix_does_not_allocate() {
    // Chat(String) with a claimed length of 2^40 bytes: refused by the decode limit.
    let mut bytes = vec![7u8, 253];
    bytes.extend_from_slice(&(1u64 << 40).to_le_bytes());
    assert!(decode::<ClientMsg>(&bytes).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = decode::<ClientMsg>(&bytes);
        let _ = decode::<ServerMsg>(&bytes);
    }

    #[test]
    fn mutated_messages_never_panic(
        which in 0usize..64, pos in any::<usize>(), byte in any::<u8>(), cut in any::<bool>()
    ) {
        let samples = server_samples();
        let mut bytes = encode(&samples[which % samples.len()]).unwrap();
        let i = pos % bytes.len();
        if cut { bytes.truncate(i); } else { bytes[i] = byte; }
        let _ = decode::<ServerMsg>(&bytes);
        let _ = decode::<ClientMsg>(&bytes);
    }

    #[test]
    fn chat_and_names_round_trip(text in ".{0,400}", name in ".{0,40}", x in 0u8..64, y in 0u8..64) {
        for m in [
            ClientMsg::Chat(text.clone()),
            ClientMsg::Hello(Hello { version: PROTOCOL_VERSION, name: name.clone(), resume: None, account: None }),
            ClientMsg::Move(Move::Caro(Point::new(x, y))),
        ] {
            let bytes = encode(&m).unwrap();
            prop_assert_eq!(decode::<ClientMsg>(&bytes).unwrap(), m);
        }
        let line = ServerMsg::Chat(ChatLine { from: name, text, at_ms: u64::from(x) << 40 });
        prop_assert_eq!(decode::<ServerMsg>(&encode(&line).unwrap()).unwrap(), line);
    }
}

#[test]
fn every_error_code_is_listed_once_by_its_stable_name() {
    let names: std::collections::BTreeSet<&str> =
        ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(names.len(), ErrorCode::ALL.len());
    assert!(names.contains("no_such_game") && names.contains("version_mismatch"));
    assert!(names.contains("engines_busy") && names.contains("hint_used"));
    assert!(names.contains("login_failed") && names.contains("spectators_full"));
    // Codes are appended: a client of the last version still reads the codes it knew.
    assert_eq!(ErrorCode::ALL[27], ErrorCode::NoSuchGame);
    assert_eq!(ErrorCode::ALL[38], ErrorCode::NoSuchPlayer);
    assert_eq!(ErrorCode::ALL[46], ErrorCode::PlayerBusy);
    assert_eq!(ErrorCode::ALL[55], ErrorCode::FellBehind);
    assert_eq!(ErrorCode::ALL[56], ErrorCode::NotABot);
    assert_eq!(ErrorCode::ALL.len(), 57);
}

#[test]
fn passwords_never_show_in_debug_output() {
    let hello = ClientMsg::Hello(Hello {
        version: PROTOCOL_VERSION,
        name: "An".into(),
        resume: None,
        account: Some(Credentials::password("hunter2-secret", false)),
    });
    let token = ClientMsg::Hello(Hello {
        version: PROTOCOL_VERSION,
        name: "An".into(),
        resume: None,
        account: Some(Credentials::Token(AccountToken([0x5e; 32]))),
    });
    let change = ClientMsg::ChangePassword(PasswordChange {
        old: "hunter2-secret".into(),
        new: "another-secret".into(),
    });
    for m in [hello, change, token] {
        let shown = format!("{m:?} {m:#?}");
        assert!(!shown.contains("secret"), "{shown}");
        assert!(!shown.contains("94"), "a token's bytes are shown: {shown}");
    }
}

#[test]
fn a_page_without_accounts_still_says_hello_in_json() {
    let json = format!(r#"{{"Hello":{{"version":{PROTOCOL_VERSION},"name":"An","resume":null}}}}"#);
    let m: ClientMsg = serde_json::from_str(&json).unwrap();
    assert!(matches!(m, ClientMsg::Hello(h) if h.account.is_none()));
}

#[test]
fn room_changes_apply_to_a_list_in_order() {
    let line = |id: RoomId, status: RoomStatus| RoomSummary {
        id,
        status,
        settings: RoomSettings::default(),
        players: [Some("An".into()), None],
        bot_accounts: [false; 2],
        spectators: 0,
    };
    let mut list = vec![line(1, RoomStatus::Waiting), line(4, RoomStatus::Waiting)];
    crate::apply_room_changes(
        &mut list,
        &[line(3, RoomStatus::Waiting), line(4, RoomStatus::Playing)],
        &[1],
    );
    assert_eq!(
        list,
        [line(3, RoomStatus::Waiting), line(4, RoomStatus::Playing)]
    );
    // A number closed and opened again in one push: the new room stays.
    crate::apply_room_changes(&mut list, &[line(3, RoomStatus::Playing)], &[3, 8]);
    assert_eq!(
        list,
        [line(3, RoomStatus::Playing), line(4, RoomStatus::Playing)]
    );
}

#[test]
fn game_kinds_read_and_print_and_ratings_show_their_doubt() {
    for kind in GameKind::ALL {
        assert_eq!(kind.to_string().parse(), Ok(kind));
    }
    assert_eq!(" XiangQi ".parse(), Ok(GameKind::Xiangqi));
    assert!("chess".parse::<GameKind>().is_err());
    assert_eq!(GameKind::of(&GameSettings::caro_default()), GameKind::Caro);
    let rating = |provisional| Rating {
        rating: 1500,
        deviation: 350,
        provisional,
    };
    assert_eq!(rating(true).to_string(), "1500?");
    assert_eq!(rating(false).to_string(), "1500");
}

#[test]
fn bot_names_are_told_from_people_names() {
    for level in Level::ALL {
        assert_eq!(bot_of_name(&bot_name(level)), Some(level));
    }
    assert_eq!(bot_name(Level::Hard), "Bot (hard)");
    assert_eq!(bot_of_name("  bot (MAX) "), Some(Level::Max));
    for person in [
        "Bot",
        "Bot (grandmaster)",
        "Bot hard",
        "Bình",
        "",
        "Bot (hard) 2",
    ] {
        assert_eq!(bot_of_name(person), None, "{person}");
    }
}

#[test]
fn settings_stored_before_matches_read_as_an_open_series() {
    let mut json = serde_json::to_value(RoomSettings::default()).unwrap();
    json.as_object_mut().unwrap().remove("match_format");
    let settings: RoomSettings = serde_json::from_value(json).unwrap();
    assert_eq!(settings.match_format, None);
    assert_eq!(settings, RoomSettings::default());
}

#[test]
fn a_match_is_decided_by_its_first_to_or_its_last_game() {
    let score = |one, two, draws| Series {
        wins: [one, two],
        draws,
    };
    let five_of_nine = MatchFormat {
        games: 9,
        first_to: Some(5),
    };
    assert!(!five_of_nine.decided(&score(4, 4, 0)));
    assert!(
        five_of_nine.decided(&score(5, 0, 0)),
        "first to five ends early"
    );
    assert!(five_of_nine.decided(&score(3, 5, 0)));
    assert_eq!(score(3, 5, 0).leader(), Some(Seat::Two));
    // Draws fill the nine games before anyone gets to five: the leader wins.
    assert!(five_of_nine.decided(&score(4, 3, 2)));
    assert_eq!(score(4, 3, 2).leader(), Some(Seat::One));
    assert!(five_of_nine.decided(&score(4, 4, 1)));
    assert_eq!(score(4, 4, 1).leader(), None, "level after nine: drawn");

    // Two games: both are played, whatever the first gave; level is a drawn match.
    let mini = MatchFormat::MINI;
    assert!(!mini.decided(&score(1, 0, 0)));
    assert!(mini.decided(&score(1, 1, 0)));
    assert_eq!(score(1, 1, 0).leader(), None);
    assert!(mini.decided(&score(0, 0, 2)));
    assert!(mini.decided(&score(2, 0, 0)));

    assert_eq!(five_of_nine.to_string(), "first to 5 of 9");
    assert_eq!(mini.to_string(), "2 games");
}

#[test]
fn the_first_move_alternates_game_by_game_and_a_replayed_game_keeps_its_colours() {
    let after = |games: u32| Series {
        wins: [games, 0],
        draws: 0,
    };
    let firsts: Vec<Seat> = (0..4)
        .map(|g| MatchFormat::first_mover(Seat::Two, &after(g)))
        .collect();
    assert_eq!(firsts, [Seat::Two, Seat::One, Seat::Two, Seat::One]);
    // A draw counts as a game: the colours turn after it too.
    let drawn = Series {
        wins: [0, 0],
        draws: 1,
    };
    assert_eq!(MatchFormat::first_mover(Seat::One, &drawn), Seat::Two);
}

#[test]
fn match_formats_out_of_range_are_refused_with_a_reason() {
    let format = |games, first_to| MatchFormat { games, first_to };
    assert!(format(9, Some(5)).check().is_ok());
    assert!(format(1, None).check().is_ok());
    assert!(format(MAX_MATCH_GAMES, Some(1)).check().is_ok());
    assert!(format(0, None).check().unwrap_err().contains("1 to 99"));
    assert!(format(100, None).check().unwrap_err().contains("1 to 99"));
    assert!(
        format(3, Some(4))
            .check()
            .unwrap_err()
            .contains("first to 4")
    );
    assert!(format(3, Some(0)).check().is_err());
    for reason in MatchEnd::ALL {
        assert_eq!(MatchEnd::from_name(reason.as_str()), Some(reason));
    }
}

#[test]
fn settings_stored_before_the_rated_choice_read_as_rated() {
    let old = r#"{"game":{"xiangqi":{"fen":null}},"time":"unlimited","first":"me","seats":["human","human"],"hints":true}"#;
    let settings: RoomSettings = serde_json::from_str(old).unwrap();
    assert!(settings.rated);
}

#[test]
fn decline_reasons_and_policies_read_as_typed() {
    for reason in DeclineReason::ALL {
        assert_eq!(reason.as_str().parse::<DeclineReason>(), Ok(reason));
    }
    assert_eq!(
        "Time-Control".parse::<DeclineReason>(),
        Ok(DeclineReason::TimeControl)
    );
    let e = "later".parse::<DeclineReason>().unwrap_err();
    assert!(e.contains("not_now") && e.contains("variant"), "{e}");
    assert_eq!("off".parse(), Ok(ChallengePolicy::Nobody));
    assert_eq!("accounts".parse(), Ok(ChallengePolicy::Accounts));
    assert!("maybe".parse::<ChallengePolicy>().is_err());
}
