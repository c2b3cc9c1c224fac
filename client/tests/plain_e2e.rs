//! End to end: the real `banco` binary in `--json` (and `--plain`) mode, driven through
//! its stdin, against a real server on 127.0.0.1 port 0 in this process.
//!
//! Waits only turn a hang into a failure (see [`support::WAIT`]); every assertion is on
//! what arrives, never on how long it took.

mod support;

use serde_json::Value;
use support::{Player, Proxy, Server, play};
use tokio::process::Command;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_chat_negotiate_undo_win_rematch_and_quit() {
    let server = Server::start().await;
    let mut an = Player::register(&server, "An", "--json").await;
    let welcome = an.event("welcome").await;
    assert_eq!(welcome["name"], "An");
    assert_eq!(welcome["server"], "e2e");

    an.send("create caro --rule freestyle --first me").await;
    let created = an.event("room_created").await;
    let room = created["room"].as_u64().unwrap();
    let joined = an.event("joined").await;
    assert_eq!(joined["you"], "one");
    assert_eq!(joined["rule"], "freestyle");

    let mut binh = Player::register(&server, "Binh", "--json").await;
    binh.event("welcome").await;
    binh.send("rooms").await;
    let rooms = binh.event("rooms").await;
    let listed = rooms["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["room"] == room)
        .expect("the new room is listed");
    assert_eq!(listed["status"], "waiting");
    assert_eq!(listed["players"][0], "An");
    binh.send(&format!("join {room}")).await;
    assert_eq!(binh.event("joined").await["you"], "two");
    let started = an.event("game_started").await;
    assert_eq!(started["first"], "one");
    assert_eq!(started["your_turn"], true);
    assert_eq!(binh.event("game_started").await["your_turn"], false);

    // Chat reaches the other player with the sender's name.
    an.send("say xin chào Bình").await;
    let chat = binh.event("chat").await;
    assert_eq!(
        (chat["from"].as_str(), chat["text"].as_str()),
        (Some("An"), Some("xin chào Bình"))
    );

    // Client-side refusals: a bad line, a point off the board, answering no offer.
    binh.send("dance").await;
    assert_eq!(binh.event("error").await["code"], "bad_command");
    binh.send("move 15,0").await;
    assert_eq!(binh.event("error").await["code"], "out_of_bounds");
    binh.send("yes").await;
    assert_eq!(binh.event("error").await["code"], "no_offer");
    // The server's refusals come through with their codes.
    binh.send("move h8").await;
    assert_eq!(binh.event("error").await["code"], "not_your_turn");

    play(&mut an, &mut binh, &["h8"], &["a1"], 1).await;
    an.send("move a1").await;
    assert_eq!(an.event("error").await["code"], "occupied");

    // Undo: asked and declined, then asked and accepted (two plies: Bình moved since).
    an.send("undo").await;
    binh.event("undo_offered").await;
    binh.send("no").await;
    an.event("undo_declined").await;
    an.send("undo").await;
    binh.event("undo_offered").await;
    binh.send("yes").await;
    let undone = an.event("undone").await;
    assert_eq!(undone["plies"], 2);
    assert_eq!(undone["your_turn"], true);
    assert_eq!(binh.event("undone").await["moves"], 0);

    // A full game to five: An takes row 8 from h to l.
    play(
        &mut an,
        &mut binh,
        &["h8", "i8", "j8", "k8", "l8"],
        &["a1", "a2", "a3", "a4"],
        1,
    )
    .await;
    let over = an.event("game_over").await;
    assert_eq!(over["result"], "win");
    assert_eq!(over["reason"], "five");
    assert_eq!(over["winner"], "one");
    let line: Vec<(u64, u64)> = over["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_u64().unwrap(), p[1].as_u64().unwrap()))
        .collect();
    assert_eq!(line, [(7, 7), (8, 7), (9, 7), (10, 7), (11, 7)]);
    assert_eq!(binh.event("game_over").await["result"], "loss");

    // Rematch offered by the loser and accepted: the first move passes to seat two.
    binh.send("newgame").await;
    an.event("newgame_offered").await;
    an.send("yes").await;
    let started = binh.event("game_started").await;
    assert_eq!(started["first"], "two");
    assert_eq!(started["your_turn"], true);
    an.event("game_started").await;

    // End of Bình's input mid-game (both sides have moved: before that the game would
    // be aborted): Bình leaves, and loses by quitting.
    binh.send("move h8").await;
    binh.ply(1).await;
    an.ply(1).await;
    an.send("move a1").await;
    binh.ply(2).await;
    assert!(binh.finish().await.success());
    let over = an.event("game_over").await;
    assert_eq!(over["reason"], "quit");
    assert_eq!(over["result"], "win");
    an.send("quit").await;
    assert!(an.finish().await.success());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_player_to_move_times_out() {
    let server = Server::start().await;
    let mut an = Player::join(&server, "An", "--json").await;
    an.send("create caro --timer 1s --first them").await;
    let room = an.event("room_created").await["room"].as_u64().unwrap();
    let mut binh = Player::join(&server, "Binh", "--json").await;
    binh.send(&format!("join {room}")).await;
    binh.event("game_started").await;
    // The clocks start once both have moved; then Bình does not: the server ends the game.
    binh.send("move h8").await;
    an.event("move").await;
    an.send("move a1").await;
    binh.until("move", |v| v["event"] == "move" && v["ply"] == 2)
        .await;
    let over = an.event("game_over").await;
    assert_eq!(over["reason"], "timeout");
    assert_eq!(over["winner"], "one");
    assert_eq!(over["result"], "win");
    assert_eq!(binh.event("game_over").await["result"], "loss");
    an.send("quit").await;
    binh.send("quit").await;
    assert!(an.finish().await.success());
    assert!(binh.finish().await.success());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_bot_with_a_hint_and_a_spectator() {
    let server = Server::start().await;
    let mut an = Player::join(&server, "An", "--json").await;
    an.send("create caro --size 9 --rule freestyle --bot easy")
        .await;
    let room = an.event("room_created").await["room"].as_u64().unwrap();
    an.until("game_started", |v| v["event"] == "game_started")
        .await;

    let mut cuc = Player::join(&server, "Cuc", "--json").await;
    cuc.send(&format!("watch {room}")).await;
    assert_eq!(cuc.event("joined").await["you"], "spectator");
    cuc.send("move e5").await;
    assert_eq!(cuc.event("error").await["code"], "not_a_player");

    an.send("hint").await;
    let hint = an.event("hint").await;
    assert!(hint["x"].as_u64().unwrap() < 9 && hint["y"].as_u64().unwrap() < 9);

    // Play the first empty point in reading order until the game ends.
    let mut taken = std::collections::HashSet::new();
    let mut ply = 1;
    let over = loop {
        let spot = (0..81u64)
            .map(|i| (i % 9, i / 9))
            .find(|p| !taken.contains(p))
            .expect("the board is not full while the game runs");
        an.send(&format!("move {},{}", spot.0, spot.1)).await;
        let ev = an
            .until("my move or the end", |v| {
                (v["event"] == "move" && v["ply"] == ply) || v["event"] == "game_over"
            })
            .await;
        if ev["event"] == "game_over" {
            break ev;
        }
        taken.insert(spot);
        ply += 1;
        let ev = an
            .until("the bot's move or the end", |v| {
                (v["event"] == "move" && v["ply"] == ply) || v["event"] == "game_over"
            })
            .await;
        if ev["event"] == "game_over" {
            break ev;
        }
        taken.insert((ev["x"].as_u64().unwrap(), ev["y"].as_u64().unwrap()));
        ply += 1;
    };
    assert!(["win", "loss", "draw"].contains(&over["result"].as_str().unwrap()));
    // The spectator saw the same end, from outside.
    let seen = cuc.event("game_over").await;
    assert_eq!(seen["reason"], over["reason"]);
    assert!(["decisive", "draw"].contains(&seen["result"].as_str().unwrap()));
    an.send("board").await;
    let board = an.event("board").await;
    assert_eq!(board["rows"].as_array().unwrap().len(), 9);
    an.send("leave").await;
    an.event("left").await;
    an.send("quit").await;
    cuc.send("quit").await;
    assert!(an.finish().await.success());
    assert!(cuc.finish().await.success());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_mode_reads_like_sentences() {
    let server = Server::start().await;
    let mut an = Player::join(&server, "An", "--plain").await;
    assert_eq!(an.line().await, "welcome: Connected to e2e as ~An.");
    an.send("create caro --size 9").await;
    // The lobby may push a room list first; the answers follow in order.
    let mut line = an.line().await;
    while line.starts_with("rooms:") || line.starts_with("  #") {
        line = an.line().await;
    }
    assert!(line.starts_with("room_created: Room "), "{line}");
    let joined = an.line().await;
    assert!(joined.contains("You play X in room"), "{joined}");
    an.send("bogus").await;
    let mut line = an.line().await;
    while !line.starts_with("error:") {
        line = an.line().await;
    }
    assert_eq!(
        line,
        "error: [bad_command] unknown command 'bogus': type help for the list"
    );
    an.send("quit").await;
    assert!(an.finish().await.success());
    server.stop().await;
}

/// Red to move mates at once: i0i9 (the rook on a8 holds rank 8, the general on d0 the
/// d file).
const MATE_IN_ONE: &str = "4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_xiangqi_game_with_a_draw_offer_then_a_mate_then_the_records() {
    let server = Server::start().await;
    let mut an = Player::register(&server, "An", "--json").await;
    an.send("create xiangqi --clock 10m+5s --first me").await;
    let room = an.event("room_created").await["room"].as_u64().unwrap();
    let joined = an.event("joined").await;
    assert_eq!(joined["game"], "xiangqi");
    assert_eq!(joined["stone"], "red");
    let mut binh = Player::register(&server, "Binh", "--json").await;
    binh.send("rooms").await;
    let rooms = binh.event("rooms").await;
    let listed = rooms["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["room"] == room)
        .expect("the xiangqi room is listed");
    assert_eq!(
        (listed["game"].as_str(), listed["time"].as_str()),
        (Some("xiangqi"), Some("10m+5s"))
    );
    binh.send(&format!("join {room}")).await;
    assert_eq!(binh.event("joined").await["stone"], "black");
    an.event("game_started").await;
    binh.event("game_started").await;

    // Moves in ICCS; every event carries ICCS, WXF and the check flag.
    an.send("move h2e2").await;
    let mv = binh.ply(1).await;
    assert_eq!(mv["iccs"], "h2e2");
    assert_eq!(mv["wxf"], "C2.5");
    assert_eq!(mv["check"], false);
    assert_eq!(mv["from"], serde_json::json!([7, 2]));
    assert_eq!(mv["your_turn"], true);
    an.ply(1).await;
    // The rules are the server's: a horse cannot go straight up.
    binh.send("move h9h7").await;
    assert_eq!(binh.event("error").await["code"], "illegal_move");
    binh.send("move h9g7").await;
    assert_eq!(an.ply(2).await["wxf"], "H8+7");
    binh.ply(2).await;
    // Not a move at all: refused by the client before sending.
    an.send("move h2").await;
    assert_eq!(an.event("error").await["code"], "bad_command");

    // A draw offer declined, then one accepted: the game ends by agreement.
    an.send("draw").await;
    binh.event("draw_offered").await;
    binh.send("no").await;
    an.event("draw_declined").await;
    binh.send("draw").await;
    an.event("draw_offered").await;
    an.send("yes").await;
    let over = binh.event("game_over").await;
    assert_eq!(
        (over["reason"].as_str(), over["result"].as_str()),
        (Some("agreement"), Some("draw"))
    );
    assert_eq!(an.event("game_over").await["result"], "draw");
    an.send("leave").await;
    an.event("left").await;
    binh.send("leave").await;
    binh.event("left").await;

    // A room from an arranged position: Red mates in one, with check on the move.
    an.send(&format!("create xiangqi --fen {MATE_IN_ONE} --first me"))
        .await;
    let room = an.event("room_created").await["room"].as_u64().unwrap();
    binh.send(&format!("join {room}")).await;
    binh.event("joined").await;
    an.event("game_started").await;
    an.send("move i0i9").await;
    let mv = binh.ply(1).await;
    assert_eq!(
        (mv["check"].as_bool(), mv["wxf"].as_str()),
        (Some(true), Some("R1+9"))
    );
    let over = binh.event("game_over").await;
    assert_eq!(over["reason"], "checkmate");
    assert_eq!(over["result"], "loss");
    assert_eq!(over["winner_name"], "An");
    let won = an.event("game_over").await;
    assert_eq!(
        (won["result"].as_str(), won["reason"].as_str()),
        (Some("win"), Some("checkmate"))
    );

    // The records: both games in the history, the mate replayed and saved to a file.
    binh.send("history").await;
    let history = binh.event("history").await;
    let games = history["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{history}");
    assert_eq!(games[0]["reason"], "checkmate");
    assert_eq!(games[0]["fen"], MATE_IN_ONE);
    assert_eq!(games[1]["reason"], "agreement");
    assert_eq!(games[1]["winner"], serde_json::Value::Null);
    let id = games[0]["id"].as_u64().unwrap();
    let dir = std::env::temp_dir().join(format!("banco-e2e-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("mate.txt");
    binh.send(&format!("replay {id} --save {}", file.display()))
        .await;
    let replay = binh.event("replay").await;
    assert_eq!(replay["moves"][0]["iccs"], "i0i9");
    assert_eq!(replay["moves"][0]["check"], true);
    assert_eq!(replay["sides"], serde_json::json!(["red", "black"]));
    binh.event("saved").await;
    binh.send("leaderboard xiangqi").await;
    let board = binh.event("leaderboard").await;
    let names: Vec<&str> = board["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["An", "Binh"], "the winner of the rated game leads");

    // The saved file reads back offline, the mate found by the rules again.
    let offline = Command::new(env!("CARGO_BIN_EXE_banco"))
        .args(["replay", &file.display().to_string(), "--json"])
        .output()
        .await
        .expect("banco replay runs");
    assert!(offline.status.success(), "{offline:?}");
    let v: Value = serde_json::from_slice(&offline.stdout).expect("one JSON object");
    assert_eq!(
        (v["event"].as_str(), v["reason"].as_str()),
        (Some("replay"), Some("checkmate"))
    );
    assert_eq!(v["start_fen"], MATE_IN_ONE);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("\n1. i0i9 R1+9\n"), "{text}");
    std::fs::write(&file, text.replace("i0i9", "i0i8")).unwrap();
    let refused = Command::new(env!("CARGO_BIN_EXE_banco"))
        .args(["replay", &file.display().to_string(), "--json"])
        .output()
        .await
        .expect("banco replay runs");
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("is not a banco game record, line"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();

    an.send("quit").await;
    binh.send("quit").await;
    assert!(an.finish().await.success());
    assert!(binh.finish().await.success());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_balanced_opening_room_deals_stones_and_the_first_mover_plays_o() {
    let server = Server::start().await;
    let mut an = Player::join(&server, "An", "--json").await;
    an.send("create caro --opening balanced --bot easy --first me")
        .await;
    let room = an.event("room_created").await["room"].as_u64().unwrap();
    let started = an.event("game_started").await;
    let opening = started["opening"].as_array().unwrap().clone();
    assert_eq!(opening.len(), 3, "{started}");
    let stones: Vec<&str> = opening
        .iter()
        .map(|s| s["stone"].as_str().unwrap())
        .collect();
    assert_eq!(stones, ["X", "O", "X"]);
    let dealt: Vec<(u64, u64)> = opening
        .iter()
        .map(|s| (s["x"].as_u64().unwrap(), s["y"].as_u64().unwrap()))
        .collect();
    for (x, y) in &dealt {
        // Balanced shapes sit within two points of the centre.
        assert!(x.abs_diff(7) <= 2 && y.abs_diff(7) <= 2, "{started}");
    }
    assert_eq!(started["your_turn"], true);
    assert_eq!(started["first"], "one");

    // A move onto an opening stone is refused; a free point is played, as O.
    an.send(&format!("move {},{}", dealt[1].0, dealt[1].1))
        .await;
    assert_eq!(an.event("error").await["code"], "occupied");
    an.send("move 0,0").await;
    let mine = an.ply(1).await;
    assert_eq!(mine["stone"], "O");
    let bot = an.ply(2).await;
    assert_eq!(bot["stone"], "X");
    let bot_point = (bot["x"].as_u64().unwrap(), bot["y"].as_u64().unwrap());
    assert!(
        !dealt.contains(&bot_point),
        "the bot played on a free point"
    );

    // The board holds the opening and both moves; a spectator sees the same stones.
    an.send("board").await;
    let board = an.event("board").await;
    let count = |c: char| -> usize {
        board["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap().chars().filter(|x| *x == c).count())
            .sum()
    };
    assert_eq!((count('X'), count('O')), (3, 2), "{board}");
    let mut cuc = Player::join(&server, "Cuc", "--json").await;
    cuc.send(&format!("watch {room}")).await;
    let joined = cuc.event("joined").await;
    assert_eq!(joined["opening"], "balanced");
    assert_eq!(joined["opening_stones"], started["opening"]);
    assert_eq!(joined["moves"].as_array().unwrap().len(), 2);
    assert_eq!(joined["seats"][0]["stone"], "O");

    an.send("quit").await;
    cuc.send("quit").await;
    assert!(an.finish().await.success());
    assert!(cuc.finish().await.success());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_connection_mid_game_is_dialled_again_and_the_game_goes_on() {
    let server = Server::start().await;
    let proxy = Proxy::start(server.addr).await;
    let mut an = Player::join_at(proxy.addr, "An", "--json").await;
    an.send("create caro --first me").await;
    let room = an.event("room_created").await["room"].as_u64().unwrap();
    let mut binh = Player::join(&server, "Binh", "--json").await;
    binh.send(&format!("join {room}")).await;
    binh.event("game_started").await;
    an.event("game_started").await;
    play(&mut an, &mut binh, &["h8"], &["a1"], 1).await;

    // The link drops: An's client dials again with its resume token and sits back down.
    proxy.cut();
    let retry = an.event("reconnecting").await;
    assert_eq!(retry["attempt"], 1);
    an.event("reconnected").await;
    let joined = an.event("joined").await;
    assert_eq!(joined["room"], room);
    assert_eq!(joined["you"], "one");

    // The game carries on from where it was.
    play(&mut an, &mut binh, &["j8"], &[], 3).await;
    an.send("quit").await;
    binh.send("quit").await;
    assert!(an.finish().await.success());
    assert!(binh.finish().await.success());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_people_line_names_who_sits_now_not_who_left() {
    let server = Server::start().await;
    let mut an = Player::register(&server, "An", "--json").await;
    an.send("create caro --size 9 --first me").await;
    let room = an.event("room_created").await["room"].as_u64().unwrap();
    an.event("joined").await;
    let mut pat = Player::join(&server, "Pat", "--json").await;
    pat.send(&format!("join {room}")).await;
    pat.event("game_started").await;
    an.event("game_started").await;
    // Cúc watches in text mode, as a person (or a screen reader) reads it.
    let mut cuc = Player::join(&server, "Cuc", "--plain").await;
    cuc.send(&format!("watch {room}")).await;
    let mut line = cuc.line().await;
    while !line.starts_with("joined:") {
        line = cuc.line().await;
    }
    an.send("move e5").await;
    an.ply(1).await;
    // Pat leaves mid-game: the game is lost, and the seat is free.
    pat.send("leave").await;
    pat.event("left").await;
    let people = an
        .until("people without Pat", |v| {
            v["event"] == "people" && v["seats"][1].is_null()
        })
        .await;
    assert_eq!(people["seats"][0]["name"], "An");
    // Nobody came or went between An's move and Pat's leaving: the first people line
    // after the move is the one Pat's leaving sent.
    let mut said = Vec::new();
    loop {
        let line = cuc.line().await;
        said.push(line.clone());
        if line.starts_with("people:") && said.iter().any(|l| l.starts_with("move: 1.")) {
            assert_eq!(
                line, "people: Seat one: An; seat two: free seat (~Pat left); 1 watching.",
                "{said:#?}"
            );
            break;
        }
        assert!(said.len() < 200, "{said:#?}");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_by_name_in_json_mode_declined_then_accepted_and_played() {
    let server = Server::start().await;
    let mut an = Player::register(&server, "An", "--json").await;
    an.event("welcome").await;
    let mut binh = Player::register(&server, "Binh", "--json").await;
    binh.event("welcome").await;

    an.send("players").await;
    let list = an.event("players").await;
    let names: Vec<&str> = list["players"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["name"].as_str())
        .collect();
    assert!(
        names.contains(&"Binh") && names.contains(&"Bot (max)"),
        "{names:?}"
    );

    // The issue's own line.
    an.send("challenge Binh caro --clock 5m+3s --rule freestyle")
        .await;
    let sent = an.event("challenge_sent").await;
    assert_eq!(sent["to"], "Binh");
    assert_eq!(sent["rule"], "freestyle");
    assert_eq!(sent["time"], "5m+3s");
    assert_eq!(sent["rated"], true);
    let id = sent["id"].as_u64().unwrap();
    let got = binh.event("challenged").await;
    assert_eq!(got["id"], id);
    assert_eq!(got["from"], "An");
    assert_eq!(got["you_first"], false);

    // Declined with a reason: the challenger reads the reason.
    binh.send(&format!("decline {id} time-control")).await;
    let ended = an.event("challenge_ended").await;
    assert_eq!(ended["end"], "declined");
    assert_eq!(ended["reason"], "time_control");
    assert_eq!(ended["by"], "Binh");
    binh.event("challenge_ended").await;

    // Bình challenges back, casual, Bình's colour "theirs": An accepts and moves first.
    binh.send("challenge An caro --rule freestyle --casual --colour theirs")
        .await;
    let id = binh.event("challenge_sent").await["id"].as_u64().unwrap();
    let got = an.event("challenged").await;
    assert_eq!(got["rated"], false);
    assert_eq!(got["you_first"], true);
    an.send(&format!("accept {id}")).await;
    assert_eq!(an.event("challenge_ended").await["end"], "accepted");
    assert_eq!(an.event("joined").await["you"], "two");
    assert_eq!(binh.event("joined").await["you"], "one");
    assert_eq!(an.event("game_started").await["your_turn"], true);
    binh.event("game_started").await;
    play(&mut an, &mut binh, &["h8"], &["a1"], 1).await;
    an.finish().await;
    binh.finish().await;
    server.stop().await;
}
