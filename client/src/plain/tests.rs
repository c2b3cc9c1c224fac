//! Plain mode against a scripted fake server: what is sent for each line, and the
//! exact shape of every JSON event.

use super::*;
use crate::testing::{caro_room_view, moved};
use banco_protocol::{
    ChatLine, Clocks, EndReason, ErrorCode, ErrorMsg, GameOver, GameView, Offer, Point, Role,
    RoomSettings, RoomStatus, RoomSummary, Seat, SeatKind, Welcome,
};
use serde_json::Value;
use tokio::sync::mpsc;

fn welcome() -> Welcome {
    Welcome {
        bot: false,
        version: banco_protocol::PROTOCOL_VERSION,
        name: "An".into(),
        server: "lan-box".into(),
        resume: banco_protocol::ResumeToken([0; 16]),
        account: false,
        account_token: None,
    }
}

/// A link whose other ends the test holds: it reads what the client sends and feeds
/// what the "server" says.
fn fake_link() -> (Link, mpsc::Receiver<ClientMsg>, mpsc::Sender<NetEvent>) {
    let (out_tx, out_rx) = mpsc::channel(64);
    let (in_tx, in_rx) = mpsc::channel(64);
    let link = Link {
        welcome: welcome(),
        addr: "127.0.0.1:7373".parse().unwrap(),
        security: crate::net::Security::Plain,
        pin_problem: None,
        outgoing: out_tx,
        incoming: in_rx,
        writer: None,
    };
    (link, out_rx, in_tx)
}

fn json_lines(bytes: &[u8]) -> Vec<Value> {
    String::from_utf8(bytes.to_vec())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?} is not JSON: {e}")))
        .collect()
}

/// Feeds `msgs` through the same path the run loop uses and returns the JSON lines.
fn print_all(msgs: &[ServerMsg]) -> Vec<Value> {
    let mut printer = Printer::new(Vec::new(), Format::Json, Locale::english());
    let mut room = None;
    for m in msgs {
        take_in(m, &mut room, &mut printer);
    }
    json_lines(&printer.into_inner())
}

#[test]
fn every_event_has_its_documented_shape() {
    let over = GameOver {
        winner: Some(Seat::One),
        reason: EndReason::Five,
        line: (3..8).map(|x| Point::new(x, 7)).collect(),
    };
    let msgs = vec![
        ServerMsg::Welcome(welcome()),
        ServerMsg::Rooms(vec![RoomSummary {
            bot_accounts: [false; 2],
            id: 4,
            settings: RoomSettings {
                seats: [SeatKind::Human, SeatKind::Bot(banco_protocol::Level::Hard)],
                ..RoomSettings::default()
            },
            players: [Some("An".into()), Some("Bot".into())],
            spectators: 2,
            status: RoomStatus::Playing,
        }]),
        ServerMsg::RoomCreated(7),
        ServerMsg::Joined(Box::new(caro_room_view(Role::Player(Seat::One)))),
        moved(7, 7, Seat::One, 1),
        ServerMsg::Chat(ChatLine {
            from: "Bình".into(),
            text: "chào".into(),
            at_ms: 1_700_000_000_000,
        }),
        ServerMsg::Offered(Offer {
            kind: OfferKind::Undo,
            by: Seat::Two,
        }),
        ServerMsg::Declined(Offer {
            kind: OfferKind::Undo,
            by: Seat::One,
        }),
        ServerMsg::Undone {
            plies: 1,
            clocks: None,
        },
        ServerMsg::Offered(Offer {
            kind: OfferKind::NewGame,
            by: Seat::One,
        }),
        ServerMsg::Withdrawn(Offer {
            kind: OfferKind::NewGame,
            by: Seat::One,
        }),
        ServerMsg::Clock(Clocks {
            remaining_ms: [19_000, 20_000],
            running: Some(Seat::One),
        }),
        ServerMsg::Hint(Move::Caro(Point::new(8, 8))),
        ServerMsg::GameOver(over),
        ServerMsg::Error(ErrorMsg::new(ErrorCode::Occupied, "h8 is taken")),
        ServerMsg::GameStarted(GameView {
            number: 2,
            first: Seat::Two,
            start_fen: String::new(),
            opening: Vec::new(),
            moves: vec![],
            clocks: None,
            over: None,
            swap: None,
        }),
        ServerMsg::Left,
    ];
    let lines = print_all(&msgs);
    let events: Vec<&str> = lines.iter().map(|l| l["event"].as_str().unwrap()).collect();
    assert_eq!(
        events,
        [
            "welcome",
            "rooms",
            "room_created",
            "joined",
            "move",
            "chat",
            "undo_offered",
            "undo_declined",
            "undone",
            "newgame_offered",
            "newgame_withdrawn",
            "clock",
            "hint",
            "game_over",
            "error",
            "game_started",
            "left"
        ]
    );
    let by_event = |name: &str| lines.iter().find(|l| l["event"] == name).unwrap();
    assert_eq!(by_event("welcome")["server"], "lan-box");
    let rooms = &by_event("rooms")["rooms"][0];
    assert_eq!(rooms["room"], 4);
    assert_eq!(rooms["game"], "caro");
    assert_eq!(rooms["rule"], "caro");
    assert_eq!(rooms["width"], 15);
    assert_eq!(rooms["time"], "none");
    assert_eq!(rooms["bots"][1], "hard");
    assert_eq!(rooms["status"], "playing");
    assert_eq!(by_event("room_created")["room"], 7);
    let joined = by_event("joined");
    assert_eq!(joined["room"], 7);
    assert_eq!(joined["you"], "one");
    assert_eq!(joined["stone"], "X");
    assert_eq!(joined["time"], "20s");
    assert_eq!(joined["seats"][1]["name"], "Bình");
    assert_eq!(joined["to_move"], "one");
    let mv = by_event("move");
    assert_eq!((mv["x"].as_u64(), mv["y"].as_u64()), (Some(7), Some(7)));
    assert_eq!(mv["by"], "one");
    assert_eq!(mv["point"], "h8");
    assert_eq!(mv["stone"], "X");
    assert_eq!(mv["your_turn"], false);
    assert_eq!(by_event("chat")["from"], "Bình");
    assert_eq!(by_event("chat")["text"], "chào");
    assert_eq!(by_event("undo_offered")["by"], "two");
    assert_eq!(by_event("undo_offered")["mine"], false);
    assert_eq!(by_event("undo_declined")["name"], "Bình");
    assert_eq!(by_event("undone")["plies"], 1);
    assert_eq!(by_event("undone")["moves"], 0);
    assert_eq!(by_event("newgame_offered")["mine"], true);
    assert_eq!(by_event("clock")["remaining_ms"][0], 19_000);
    assert_eq!(by_event("clock")["running"], "one");
    assert_eq!(by_event("hint")["point"], "i7");
    let over = by_event("game_over");
    assert_eq!(over["result"], "win");
    assert_eq!(over["winner"], "one");
    assert_eq!(over["winner_name"], "An");
    assert_eq!(over["reason"], "five");
    assert_eq!(over["line"][0], serde_json::json!([3, 7]));
    assert_eq!(over["line"].as_array().unwrap().len(), 5);
    assert_eq!(by_event("error")["code"], "occupied");
    assert_eq!(by_event("error")["message"], "h8 is taken");
    let started = by_event("game_started");
    assert_eq!(started["first"], "two");
    assert_eq!(started["first_name"], "Bình");
    assert_eq!(started["seats"][1]["stone"], "X");
    assert_eq!(started["your_turn"], false);
}

#[test]
fn someone_coming_into_a_room_reads_its_recent_chat() {
    let mut view = caro_room_view(Role::Player(Seat::One));
    view.chat = vec![ChatLine {
        from: "Bình".into(),
        text: "chào".into(),
        at_ms: 0,
    }];
    let lines = print_all(&[ServerMsg::Joined(Box::new(view.clone()))]);
    assert_eq!(lines[0]["chat"][0]["from"], "Bình");
    assert_eq!(lines[0]["chat"][0]["text"], "chào");
    let mut printer = Printer::new(Vec::new(), Format::Text, Locale::english());
    let mut room = None;
    take_in(&ServerMsg::Joined(Box::new(view)), &mut room, &mut printer);
    let text = String::from_utf8(printer.into_inner()).unwrap();
    assert!(text.contains("] Bình: chào\n"), "{text}");
}

#[test]
fn spectators_get_a_decisive_result_and_text_mode_reads_well() {
    let over = GameOver {
        winner: Some(Seat::Two),
        reason: EndReason::Timeout,
        line: vec![],
    };
    let msgs = [
        ServerMsg::Joined(Box::new(caro_room_view(Role::Spectator))),
        ServerMsg::GameOver(over),
    ];
    let lines = print_all(&msgs);
    assert_eq!(lines[1]["result"], "decisive");
    assert_eq!(lines[1]["reason"], "timeout");
    assert_eq!(lines[1]["line"], serde_json::json!([]));

    let mut printer = Printer::new(Vec::new(), Format::Text, Locale::english());
    let mut room = None;
    for m in [
        ServerMsg::Joined(Box::new(caro_room_view(Role::Player(Seat::One)))),
        moved(7, 7, Seat::One, 1),
        moved(8, 7, Seat::Two, 2),
    ] {
        take_in(&m, &mut room, &mut printer);
    }
    let text = String::from_utf8(printer.into_inner()).unwrap();
    assert!(text.contains("joined: You play X in room 7."), "{text}");
    assert!(text.contains("move: 1. An (X) played h8"), "{text}");
    assert!(
        text.contains("move: 2. Bình (O) played i8. Your move."),
        "{text}"
    );
    // The board: letters on top, row 8 with the last move bracketed.
    assert!(
        text.contains("    a b c d e f g h i j k l m n o\n"),
        "{text}"
    );
    assert!(
        text.contains(" 8  . . . . . . . X[O]. . . . . . 8\n"),
        "{text}"
    );
}

#[test]
fn an_aborted_game_reads_as_aborted_not_as_a_draw() {
    let aborted = GameOver {
        winner: None,
        reason: EndReason::Aborted,
        line: vec![],
    };
    let msgs = [
        ServerMsg::Joined(Box::new(caro_room_view(Role::Player(Seat::One)))),
        moved(7, 7, Seat::One, 1),
        ServerMsg::GameOver(aborted.clone()),
    ];
    let lines = print_all(&msgs);
    assert_eq!(lines[2]["event"], "game_over");
    assert_eq!(lines[2]["result"], "aborted");
    assert_eq!(lines[2]["reason"], "aborted");

    // In text, the result and the history: aborted, not a draw.
    let mut game = crate::testing::caro_game_record().summary;
    game.plies = 1;
    game.over = aborted;
    let mut printer = Printer::new(Vec::new(), Format::Text, Locale::english());
    let mut room = None;
    for m in msgs.iter().chain([&ServerMsg::History(vec![game])]) {
        take_in(m, &mut room, &mut printer);
    }
    let text = String::from_utf8(printer.into_inner()).unwrap();
    assert!(
        text.contains("game_over: Game aborted (before both players moved)."),
        "{text}"
    );
    assert!(
        text.contains("Game aborted (before both players moved)  ("),
        "the history line: {text}"
    );
    assert!(!text.contains("Draw"), "{text}");
}

#[test]
fn a_blocked_five_that_does_not_win_is_told_with_the_move() {
    // X (An) makes h8..l8 between O stones on g8 and m8, under the caro rule.
    let mut msgs = vec![ServerMsg::Joined(Box::new(caro_room_view(Role::Player(
        Seat::Two,
    ))))];
    let moves = [
        (7, 7, Seat::One),
        (6, 7, Seat::Two),
        (8, 7, Seat::One),
        (12, 7, Seat::Two),
        (9, 7, Seat::One),
        (0, 0, Seat::Two),
        (10, 7, Seat::One),
        (0, 1, Seat::Two),
        (11, 7, Seat::One),
    ];
    for (ply, (x, y, by)) in moves.into_iter().enumerate() {
        msgs.push(moved(x, y, by, ply as u32 + 1));
    }
    let lines = print_all(&msgs);
    let last = lines
        .iter()
        .rfind(|l| l["event"] == "move")
        .expect("the moves are printed");
    assert_eq!(last["not_a_win"], "blocked_both_ends");
    let earlier = lines
        .iter()
        .find(|l| l["event"] == "move")
        .expect("the moves are printed");
    assert_eq!(earlier["not_a_win"], Value::Null);

    let mut printer = Printer::new(Vec::new(), Format::Text, Locale::english());
    let mut room = None;
    for m in &msgs {
        take_in(m, &mut room, &mut printer);
    }
    let text = String::from_utf8(printer.into_inner()).unwrap();
    assert!(
        text.contains(
            "move: 9. An (X) played l8; a five blocked at both ends does not win under the caro rule. Your move."
        ),
        "{text}"
    );
}

#[tokio::test]
async fn lines_become_requests_and_end_of_input_leaves() {
    let (link, mut sent, server) = fake_link();
    let input: &[u8] = b"rooms\ncreate caro --size 9 --bot easy\nmove h8\nmove 0,0\nmove z1\nsay hi there\nundo\nyes\nbogus\n";
    let out = Vec::new();
    let script = tokio::spawn(async move {
        // The client holds every line after `rooms` until the list arrives.
        assert_eq!(sent.recv().await, Some(ClientMsg::ListRooms));
        server
            .send(NetEvent::Msg(ServerMsg::Rooms(vec![])))
            .await
            .unwrap();
        let Some(ClientMsg::CreateRoom(settings)) = sent.recv().await else {
            panic!("expected CreateRoom");
        };
        assert_eq!(
            settings.seats[1],
            SeatKind::Bot(banco_protocol::Level::Easy)
        );
        let mut view = caro_room_view(Role::Player(Seat::One));
        view.settings = settings;
        server
            .send(NetEvent::Msg(ServerMsg::RoomCreated(7)))
            .await
            .unwrap();
        server
            .send(NetEvent::Msg(ServerMsg::Joined(Box::new(view))))
            .await
            .unwrap();
        // On the 9x9 board h8 is column 7, row 9-8 = 1.
        assert_eq!(
            sent.recv().await,
            Some(ClientMsg::Move(Move::Caro(Point::new(7, 1))))
        );
        assert_eq!(
            sent.recv().await,
            Some(ClientMsg::Move(Move::Caro(Point::new(0, 0))))
        );
        // `move z1` is off the board: refused locally, nothing sent.
        assert_eq!(sent.recv().await, Some(ClientMsg::Chat("hi there".into())));
        assert_eq!(sent.recv().await, Some(ClientMsg::Offer(OfferKind::Undo)));
        // `yes` with no offer open: refused locally. End of input: leave.
        assert_eq!(sent.recv().await, Some(ClientMsg::LeaveRoom));
        server.send(NetEvent::Msg(ServerMsg::Left)).await.unwrap();
        server
    });
    let mut out_buf = out;
    let ending = run(link, input, &mut out_buf, Format::Json, Locale::english())
        .await
        .unwrap();
    let _server = script.await.unwrap();
    assert_eq!(ending, Ending::Quit);
    let lines = json_lines(&out_buf);
    let errors: Vec<(&str, &str)> = lines
        .iter()
        .filter(|l| l["event"] == "error")
        .map(|l| (l["code"].as_str().unwrap(), l["message"].as_str().unwrap()))
        .collect();
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert_eq!(errors[0].0, "out_of_bounds");
    assert_eq!(errors[1].0, "no_offer");
    assert_eq!(errors[2].0, "bad_command");
    assert!(errors[2].1.contains("bogus"));
    assert_eq!(lines.last().unwrap()["event"], "left");
}

#[tokio::test]
async fn room_commands_outside_a_room_are_refused_and_a_closed_server_ends_the_session() {
    let (link, mut sent, server) = fake_link();
    let (mut stdin_w, stdin_r) = tokio::io::duplex(1024);
    let mut out = Vec::new();
    let driver = tokio::spawn(async move {
        use tokio::io::AsyncWriteExt;
        stdin_w.write_all(b"move h8\nundo\nleave\n").await.unwrap();
        // Nothing reaches the server for those three lines.
        stdin_w.write_all(b"rooms\n").await.unwrap();
        assert_eq!(sent.recv().await, Some(ClientMsg::ListRooms));
        server
            .send(NetEvent::Closed(crate::net::Lost::Cut))
            .await
            .unwrap();
        stdin_w
    });
    let ending = run(
        link,
        tokio::io::BufReader::new(stdin_r),
        &mut out,
        Format::Json,
        Locale::english(),
    )
    .await
    .unwrap();
    let _keep_stdin_open = driver.await.unwrap();
    assert_eq!(ending, Ending::ServerClosed);
    let lines = json_lines(&out);
    let codes: Vec<&str> = lines
        .iter()
        .filter(|l| l["event"] == "error")
        .map(|l| l["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["not_in_room"; 3]);
    let last = lines.last().unwrap();
    assert_eq!(last["event"], "disconnected");
    assert!(
        last["message"]
            .as_str()
            .unwrap()
            .contains("the network connection was cut")
    );
}

#[tokio::test]
async fn history_finds_a_guest_without_the_mark_and_review_alone_takes_the_last_game() {
    use crate::testing::caro_game_record;
    let (link, mut sent, server) = fake_link();
    let (mut stdin_w, stdin_r) = tokio::io::duplex(1024);
    let mut out = Vec::new();
    let record = caro_game_record();
    let id = record.summary.id;
    let mut guests = record.summary.clone();
    guests.id = 77;
    guests.players = ["~x1".into(), "Bình".into()];
    let driver = tokio::spawn(async move {
        use tokio::io::AsyncWriteExt;
        let reply = |m: ServerMsg| NetEvent::Msg(m);
        // `review` alone before any game: refused here, nothing sent.
        stdin_w
            .write_all(
                b"review
history x1
",
            )
            .await
            .unwrap();
        assert_eq!(
            sent.recv().await,
            Some(ClientMsg::History {
                player: Some("x1".into())
            })
        );
        server
            .send(reply(ServerMsg::History(vec![])))
            .await
            .unwrap();
        // Nothing under `x1`: the guest `~x1` is asked for.
        assert_eq!(
            sent.recv().await,
            Some(ClientMsg::History {
                player: Some("~x1".into())
            })
        );
        server
            .send(reply(ServerMsg::History(vec![guests])))
            .await
            .unwrap();
        // A replay, then `review` alone: that game's review. Then a game played to its
        // end in a room (it comes while the review is awaited, so before the next line
        // is read), and `review` alone again: found in one's own history by its
        // players (the newest between them), then reviewed.
        stdin_w
            .write_all(b"replay 42\nreview\nreview\n")
            .await
            .unwrap();
        assert_eq!(sent.recv().await, Some(ClientMsg::Replay(42)));
        server
            .send(reply(ServerMsg::Replay(Box::new(record.clone()))))
            .await
            .unwrap();
        assert_eq!(sent.recv().await, Some(ClientMsg::Review(id)));
        server
            .send(reply(ServerMsg::Joined(Box::new(caro_room_view(
                Role::Player(Seat::One),
            )))))
            .await
            .unwrap();
        server
            .send(reply(ServerMsg::GameOver(GameOver {
                winner: Some(Seat::Two),
                reason: EndReason::Resign,
                line: vec![],
            })))
            .await
            .unwrap();
        // The answer ends the wait for the review; a refusal will do here.
        server
            .send(reply(ServerMsg::Error(ErrorMsg::new(
                ErrorCode::Busy,
                "the engine is busy",
            ))))
            .await
            .unwrap();
        assert_eq!(
            sent.recv().await,
            Some(ClientMsg::History {
                player: Some("An".into())
            })
        );
        let mut older = record.summary.clone();
        older.id = 40;
        let mut newest = record.summary.clone();
        newest.id = 43;
        newest.players = ["An".into(), "Bình".into()];
        older.players = newest.players.clone();
        server
            .send(reply(ServerMsg::History(vec![newest, older])))
            .await
            .unwrap();
        assert_eq!(sent.recv().await, Some(ClientMsg::Review(43)));
        server
            .send(NetEvent::Closed(crate::net::Lost::Closed))
            .await
            .unwrap();
        stdin_w
    });
    let ending = run(
        link,
        tokio::io::BufReader::new(stdin_r),
        &mut out,
        Format::Json,
        Locale::english(),
    )
    .await
    .unwrap();
    let _keep_stdin_open = driver.await.unwrap();
    assert_eq!(ending, Ending::ServerClosed);
    let lines = json_lines(&out);
    let errors: Vec<&str> = lines
        .iter()
        .filter(|l| l["event"] == "error")
        .map(|l| l["code"].as_str().unwrap())
        .collect();
    assert_eq!(errors, ["no_game", "busy"], "{lines:?}");
    // One history printed (the guest's), not the empty one asked on the way, nor the
    // lists looked through for `review`.
    let histories: Vec<&Value> = lines.iter().filter(|l| l["event"] == "history").collect();
    assert_eq!(histories.len(), 1, "{lines:?}");
    assert_eq!(histories[0]["games"][0]["players"][0], "~x1");
}

#[test]
fn xiangqi_moves_read_in_iccs() {
    let xq = GameSettings::Xiangqi { fen: None };
    let Ok(Move::Xiangqi { from, to }) = read_move("h2e2", &xq) else {
        panic!("h2e2 refused");
    };
    assert_eq!((from.file, from.rank, to.file, to.rank), (7, 2, 4, 2));
    for bad in ["h2e", "j2e2", "h2ex", "h8"] {
        assert!(read_move(bad, &xq).is_err(), "{bad}");
    }
}

#[test]
fn xiangqi_boards_print_in_fen_letters() {
    let mut printer = Printer::new(Vec::new(), Format::Text, Locale::english());
    let mut room = None;
    for m in [
        ServerMsg::Joined(Box::new(crate::testing::xiangqi_room_view(Role::Player(
            Seat::One,
        )))),
        crate::testing::xq_moved("h2e2", Seat::One, 1, "C2.5"),
    ] {
        take_in(&m, &mut room, &mut printer);
    }
    let text = String::from_utf8(printer.into_inner()).unwrap();
    assert!(
        text.contains("move: 1. An (Red) played h2e2 (C2.5)"),
        "{text}"
    );
    assert!(text.contains(" 9  r n b a k a b n r 9\n"), "{text}");
    assert!(text.contains(" 2  . C . .[C]. .[.]. 2\n"), "{text}");
    assert!(text.contains(" 0  R N B A K A B N R 0\n"), "{text}");
}

#[test]
fn records_print_as_documented() {
    use crate::testing::{caro_game_record, xiangqi_game_record};
    let msgs = [
        crate::testing::leaderboard(),
        ServerMsg::History(vec![caro_game_record().summary]),
        ServerMsg::Replay(Box::new(caro_game_record())),
        ServerMsg::Replay(Box::new(xiangqi_game_record())),
        ServerMsg::Profile(Box::new(crate::testing::established_profile())),
    ];
    let lines = print_all(&msgs);
    let board = &lines[0];
    assert_eq!(board["event"], "leaderboard");
    assert_eq!(board["game"], "caro");
    assert_eq!(board["players"][0]["provisional"], false);
    assert_eq!(board["players"][0]["rank"], 1);
    assert_eq!(board["players"][0]["bot"], "hard");
    assert_eq!(board["players"][1]["name"], "Bình");
    assert_eq!(board["players"][1]["rating"], 1624);
    assert_eq!(board["players"][1]["wins"], 3);
    assert_eq!(board["players"][1]["bot"], Value::Null);
    let history = &lines[1];
    assert_eq!(history["event"], "history");
    let g = &history["games"][0];
    assert_eq!(g["id"], 42);
    assert_eq!(g["game"], "caro");
    assert_eq!(g["rule"], "caro");
    assert_eq!(g["width"], 15);
    assert_eq!(g["time"], "20s");
    assert_eq!(g["players"], serde_json::json!(["An", "Bình"]));
    assert_eq!(g["first"], "two");
    assert_eq!(g["winner"], "two");
    assert_eq!(g["winner_name"], "Bình");
    assert_eq!(g["reason"], "five");
    assert_eq!(g["plies"], 9);
    assert_eq!(g["ended_at_ms"], 1_746_000_000_000u64);
    let caro = &lines[2];
    assert_eq!(caro["event"], "replay");
    assert_eq!(caro["id"], 42);
    assert_eq!(caro["sides"], serde_json::json!(["o", "x"]));
    assert_eq!(
        caro["moves"][0],
        serde_json::json!({"ply": 1, "by": "two", "x": 7, "y": 7, "point": "h8"})
    );
    assert_eq!(caro["moves"].as_array().unwrap().len(), 9);
    assert_eq!(caro["line"][4], serde_json::json!([11, 7]));
    let xq = &lines[3];
    assert_eq!(xq["game"], "xiangqi");
    assert_eq!(xq["sides"], serde_json::json!(["red", "black"]));
    assert_eq!(xq["reason"], "resign");
    assert_eq!(xq["moves"][1]["iccs"], "h9g7");
    assert_eq!(xq["moves"][1]["wxf"], "H8+7");
    assert_eq!(xq["moves"][1]["check"], false);
    assert_eq!(xq["moves"][1]["by"], "two");
    let profile = &lines[4];
    assert_eq!(profile["event"], "profile");
    assert_eq!(profile["name"], "Bình");
    assert_eq!(profile["registered_at_ms"], 1_746_000_000_000u64);
    assert_eq!(profile["games"][0]["game"], "caro");
    assert_eq!(profile["games"][0]["rank"], 2);
    assert_eq!(profile["games"][0]["best_win"]["opponent"], "An");
    assert_eq!(profile["games"][0]["history"][13]["rating"], 1724);
    assert_eq!(profile["games"][1]["provisional"], true);
    assert_eq!(profile["games"][1]["rank"], Value::Null);
    assert_eq!(profile["recent"][1]["rated"], false);

    let mut printer = Printer::new(Vec::new(), Format::Text, Locale::english());
    let mut room = None;
    for m in &msgs {
        take_in(m, &mut room, &mut printer);
    }
    let text = String::from_utf8(printer.into_inner()).unwrap();
    assert!(
        text.contains(
            "leaderboard: caro leaderboard: 3 player(s), best first:
    1. Bot (hard)  1712"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "  #42  caro 15x15, caro rule  Bình – An  Bình won. Five in a row  (9 moves, "
        ),
        "{text}"
    );
    assert!(text.contains("replay: #42 caro 15x15, caro rule: Bình (X) against An (O). Bình won. Five in a row.\n    1. h8  a15\n"), "{text}");
    // The final board, the five in lower case.
    assert!(
        text.contains(" 8  . . . . . . . x x x x[x]. . . 8\n"),
        "{text}"
    );
    assert!(text.contains("    2. h0g2 (H2+3)  i9h9 (R9.8)\n"), "{text}");
    assert!(
        text.contains("profile: Bình: Registered 2025-04-30; first played here 2025-02-19.\n  caro: 1724 ±62, rank 2, (14 games: 9 won, 4 lost, 1 drawn); best win: An (1702), game 42\n    rating path over 14 rated games: 1500 to 1724 (lowest 1500, highest 1724)\n  xiangqi: 1562? ±290, not ranked yet,"),
        "{text}"
    );
}

#[tokio::test]
async fn passwd_asks_for_the_passwords_on_the_next_lines_and_checks_them() {
    let (link, mut sent, server) = fake_link();
    // Piped: the passwords are the lines after the command. The first try's two new
    // passwords differ (refused here, nothing sent); the second goes.
    let input = "passwd\nold secret\nnew secret\nnew secrte\npasswd\nold secret\nnew secret\nnew secret\nprofile\nleaderboard xiangqi\n";
    let script = tokio::spawn(async move {
        assert_eq!(
            sent.recv().await,
            Some(ClientMsg::ChangePassword(banco_protocol::PasswordChange {
                old: "old secret".into(),
                new: "new secret".into(),
            }))
        );
        // The next line waits for the answer.
        assert!(sent.try_recv().is_err());
        server
            .send(NetEvent::Msg(ServerMsg::PasswordChanged))
            .await
            .unwrap();
        assert_eq!(
            sent.recv().await,
            Some(ClientMsg::Profile {
                name: "An".into(),
                bot: None
            })
        );
        server
            .send(NetEvent::Msg(ServerMsg::Profile(Box::new(
                crate::testing::new_profile(),
            ))))
            .await
            .unwrap();
        assert_eq!(
            sent.recv().await,
            Some(ClientMsg::Leaderboard(banco_protocol::GameKind::Xiangqi))
        );
        server
            .send(NetEvent::Msg(crate::testing::xiangqi_leaderboard()))
            .await
            .unwrap();
        server
    });
    let mut out = Vec::new();
    run(
        link,
        input.as_bytes(),
        &mut out,
        Format::Json,
        Locale::english(),
    )
    .await
    .unwrap();
    let _server = script.await.unwrap();
    let text = String::from_utf8(out.clone()).unwrap();
    assert!(!text.contains("secret"), "{text}");
    let lines = json_lines(&out);
    let events: Vec<&str> = lines.iter().map(|l| l["event"].as_str().unwrap()).collect();
    assert_eq!(
        events,
        [
            "welcome",
            "error",
            "password_changed",
            "profile",
            "leaderboard"
        ]
    );
    assert_eq!(lines[1]["code"], "passwords_differ");
    assert_eq!(lines[4]["players"][1]["provisional"], true);
}

#[tokio::test]
async fn replay_waits_for_the_game_and_saves_it() {
    let dir = std::env::temp_dir().join(format!("banco-plain-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("g42.txt");
    let (link, mut sent, server) = fake_link();
    let input = format!(
        "leaderboard\nhistory Bình\nreplay 42 --save {}\nreplay 7 --save {}\n",
        path.display(),
        dir.join("never.txt").display()
    );
    let script = tokio::spawn(async move {
        // Each request holds the next line until its answer comes.
        assert_eq!(
            sent.recv().await,
            Some(ClientMsg::Leaderboard(banco_protocol::GameKind::Caro))
        );
        assert!(sent.try_recv().is_err());
        server
            .send(NetEvent::Msg(ServerMsg::Leaderboard {
                game: banco_protocol::GameKind::Caro,
                standings: vec![],
            }))
            .await
            .unwrap();
        assert_eq!(
            sent.recv().await,
            Some(ClientMsg::History {
                player: Some("Bình".into())
            })
        );
        server
            .send(NetEvent::Msg(ServerMsg::History(vec![])))
            .await
            .unwrap();
        // Nothing under the name: the guest of that name is tried once.
        assert_eq!(
            sent.recv().await,
            Some(ClientMsg::History {
                player: Some("~Bình".into())
            })
        );
        server
            .send(NetEvent::Msg(ServerMsg::History(vec![])))
            .await
            .unwrap();
        assert_eq!(sent.recv().await, Some(ClientMsg::Replay(42)));
        server
            .send(NetEvent::Msg(ServerMsg::Replay(Box::new(
                crate::testing::caro_game_record(),
            ))))
            .await
            .unwrap();
        assert_eq!(sent.recv().await, Some(ClientMsg::Replay(7)));
        server
            .send(NetEvent::Msg(ServerMsg::Error(ErrorMsg::new(
                ErrorCode::NoSuchGame,
                "there is no finished game 7",
            ))))
            .await
            .unwrap();
        server
    });
    let mut out = Vec::new();
    run(
        link,
        input.as_bytes(),
        &mut out,
        Format::Json,
        Locale::english(),
    )
    .await
    .unwrap();
    let _server = script.await.unwrap();
    let lines = json_lines(&out);
    let events: Vec<&str> = lines.iter().map(|l| l["event"].as_str().unwrap()).collect();
    assert_eq!(
        events,
        [
            "welcome",
            "leaderboard",
            "history",
            "replay",
            "saved",
            "error"
        ]
    );
    let saved = std::fs::read_to_string(&path).unwrap();
    assert_eq!(crate::record::file::parse(&saved).unwrap().moves.len(), 9);
    assert!(!dir.join("never.txt").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_bell_rings_in_text_only_and_only_when_asked() {
    let msgs = [
        ServerMsg::Joined(Box::new(caro_room_view(Role::Player(Seat::One)))),
        moved(7, 7, Seat::One, 1),
        moved(8, 7, Seat::Two, 2),
    ];
    let printed = |format: Format, bell: bool| {
        let mut printer = Printer::new(Vec::new(), format, Locale::english()).with_bell(bell);
        let mut room = None;
        for m in &msgs {
            take_in(m, &mut room, &mut printer);
        }
        String::from_utf8(printer.into_inner()).unwrap()
    };
    let text = printed(Format::Text, true);
    assert_eq!(text.matches('\u{7}').count(), 1, "{text:?}");
    assert!(
        text.contains("\u{7}move: 2. Bình (O) played i8"),
        "{text:?}"
    );
    assert!(!printed(Format::Text, false).contains('\u{7}'));
    let json = printed(Format::Json, true);
    assert!(!json.contains('\u{7}'));
    json_lines(json.as_bytes());
}

#[test]
fn storage_events_say_whether_games_are_saved() {
    let lines = print_all(&[
        ServerMsg::Storage(banco_protocol::Storage::NotSaving {
            reason: "the disk is full".into(),
        }),
        ServerMsg::Storage(banco_protocol::Storage::Saving),
    ]);
    assert_eq!(
        lines[0],
        serde_json::json!({"event": "storage", "state": "not_saving", "reason": "the disk is full"})
    );
    assert_eq!(
        lines[1],
        serde_json::json!({"event": "storage", "state": "saving", "reason": null})
    );
    let mut printer = Printer::new(Vec::new(), Format::Text, Locale::english());
    printer.server_msg(
        &ServerMsg::Storage(banco_protocol::Storage::NotSaving {
            reason: "the disk is full".into(),
        }),
        None,
    );
    let text = String::from_utf8(printer.into_inner()).unwrap();
    assert_eq!(
        text,
        "storage: Games are not being saved: the disk is full\n"
    );
}

/// A port nothing listens on.
fn dead_address() -> String {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    drop(l);
    addr.to_string()
}

#[tokio::test]
async fn a_lost_connection_is_dialled_again_then_given_up_in_words() {
    let (link, _sent, server) = fake_link();
    let (_stdin_w, stdin_r) = tokio::io::duplex(1024);
    let address = dead_address();
    let redial = Redial {
        give_up_after: Duration::ZERO,
        ..Redial::new(&address, SeatKeeper::none())
    };
    server
        .send(NetEvent::Closed(crate::net::Lost::Silent))
        .await
        .unwrap();
    let mut out = Vec::new();
    let printer = Printer::new(&mut out, Format::Json, Locale::english());
    let ending = run_printing(
        link,
        tokio::io::BufReader::new(stdin_r),
        printer,
        Some(redial),
    )
    .await
    .unwrap();
    assert_eq!(ending, Ending::ServerClosed);
    let lines = json_lines(&out);
    let events: Vec<&str> = lines.iter().map(|l| l["event"].as_str().unwrap()).collect();
    assert_eq!(events, ["welcome", "reconnecting", "disconnected"]);
    assert_eq!(lines[1]["attempt"], 1);
    assert_eq!(lines[1]["cause"], "silent");
    assert_eq!(lines[1]["reason"], "no word from the server for 15 s");
    let gave_up = lines[2]["message"].as_str().unwrap();
    assert_eq!(
        gave_up,
        format!(
            "Could not get back to the server: nobody is hosting at {address} (connection refused): is `banco host` running there, on that port?"
        )
    );
}

#[tokio::test]
async fn a_held_seat_is_kept_on_disk_until_it_is_given_up() {
    let state = std::env::temp_dir().join(format!("banco-plain-seat-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&state);
    let seats = state.join("seats");
    let seat_files = move || std::fs::read_dir(&seats).map_or(0, |d| d.count());
    let (link, mut sent, server) = fake_link();
    let (mut stdin_w, stdin_r) = tokio::io::duplex(1024);
    let redial = Redial::new("127.0.0.1:7373", SeatKeeper::new(Some(&state)));
    let files = seat_files.clone();
    let driver = tokio::spawn(async move {
        use tokio::io::AsyncWriteExt;
        let view = caro_room_view(Role::Player(Seat::One));
        server
            .send(NetEvent::Msg(ServerMsg::Joined(Box::new(view))))
            .await
            .unwrap();
        // Seated: the seat file appears (a hang here is the failure).
        while files() == 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        stdin_w.write_all(b"leave\n").await.unwrap();
        assert_eq!(sent.recv().await, Some(ClientMsg::LeaveRoom));
        server.send(NetEvent::Msg(ServerMsg::Left)).await.unwrap();
        stdin_w.write_all(b"quit\n").await.unwrap();
        (stdin_w, server)
    });
    let printer = Printer::new(Vec::new(), Format::Json, Locale::english());
    run_printing(
        link,
        tokio::io::BufReader::new(stdin_r),
        printer,
        Some(redial),
    )
    .await
    .unwrap();
    let _keep_open = driver.await.unwrap();
    assert_eq!(seat_files(), 0, "the seat file is gone once left");
    std::fs::remove_dir_all(&state).unwrap();
}

#[tokio::test]
async fn while_reconnecting_commands_are_refused_and_quit_still_quits() {
    let (link, _sent, server) = fake_link();
    let (mut stdin_w, stdin_r) = tokio::io::duplex(1024);
    // Never reachable: only `quit` can end this.
    let redial = Redial::new(&dead_address(), SeatKeeper::none());
    server
        .send(NetEvent::Closed(crate::net::Lost::Cut))
        .await
        .unwrap();
    let mut out = Vec::new();
    let printer = Printer::new(&mut out, Format::Json, Locale::english());
    let driver = tokio::spawn(async move {
        use tokio::io::AsyncWriteExt;
        stdin_w.write_all(b"move h8\n\nquit\n").await.unwrap();
        (stdin_w, server)
    });
    let ending = run_printing(
        link,
        tokio::io::BufReader::new(stdin_r),
        printer,
        Some(redial),
    )
    .await
    .unwrap();
    let _keep_open = driver.await.unwrap();
    assert_eq!(ending, Ending::Quit);
    let lines = json_lines(&out);
    let offline: Vec<&Value> = lines.iter().filter(|l| l["event"] == "error").collect();
    assert_eq!(offline.len(), 1, "{lines:?}");
    assert_eq!(offline[0]["code"], "offline");
    assert_eq!(
        offline[0]["message"],
        "Not connected: wait for the reconnection, or write quit."
    );
    assert!(lines.iter().any(|l| l["event"] == "reconnecting"));
    assert!(!lines.iter().any(|l| l["event"] == "disconnected"));
}
