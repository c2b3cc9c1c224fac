//! Record files and trial moves for a client that carries no rules (the browser page), at
//! the protocol level against the real server: the server reads and writes record files
//! with the rules crate's one parser, and plays trial moves on a copy of a room's
//! position, telling no one else.

use banco_protocol::{
    ClientMsg, MAX_RECORD_TEXT, Move, Point, RecordedGame, Seat, ServerMsg, Trial,
};
use banco_tests::{Client, TestServer, caro, exchange, two_players};

async fn ask(c: &mut Client, msg: ClientMsg) -> ServerMsg {
    c.send(msg).await;
    c.recv_until(|m| {
        matches!(
            m,
            ServerMsg::RecordParsed(_)
                | ServerMsg::RecordText { .. }
                | ServerMsg::RecordRefused { .. }
        )
    })
    .await
}

async fn tried(c: &mut Client, moves: Vec<Move>) -> Trial {
    c.send(ClientMsg::Trial(moves)).await;
    match c.recv_until(|m| matches!(m, ServerMsg::Tried(_))).await {
        ServerMsg::Tried(t) => *t,
        _ => unreachable!(),
    }
}

#[tokio::test]
async fn a_finished_game_is_written_read_back_and_bad_files_are_refused() {
    let server = TestServer::start().await;
    let (mut an, mut binh, _) = two_players(&server, caro(9)).await;
    // An (X) makes five on the top row; Bình plays the row below.
    for x in 0..4 {
        exchange(&mut an, &mut binh, x, 0).await;
        exchange(&mut binh, &mut an, x, 1).await;
    }
    exchange(&mut an, &mut binh, 4, 0).await;
    an.game_over().await;
    an.send(ClientMsg::History { player: None }).await;
    let id = match an.recv_until(|m| matches!(m, ServerMsg::History(_))).await {
        ServerMsg::History(games) => games[0].id,
        _ => unreachable!(),
    };
    an.send(ClientMsg::Replay(id)).await;
    let record = match an.recv_until(|m| matches!(m, ServerMsg::Replay(_))).await {
        ServerMsg::Replay(r) => RecordedGame::from(*r),
        _ => unreachable!(),
    };

    // Written: the file's name and text, in the page's zone (UTC+7).
    let written = ask(
        &mut an,
        ClientMsg::WriteRecord {
            record: Box::new(record.clone()),
            zone_minutes: 420,
        },
    )
    .await;
    let ServerMsg::RecordText { name, text } = written else {
        panic!("not written: {written:?}");
    };
    assert_eq!(name, format!("banco-caro-{id}.txt"));
    assert!(text.contains("result: x\nreason: five\n"), "{text}");
    assert!(text.contains("\n1. a9    a8\n"), "{text}");

    // Read back: the same game, seat One the first mover.
    let read = ask(
        &mut an,
        ClientMsg::ParseRecord {
            text: text.clone(),
            zone_minutes: 420,
        },
    )
    .await;
    let ServerMsg::RecordParsed(back) = read else {
        panic!("not read: {read:?}");
    };
    assert_eq!(back.moves, record.moves);
    assert_eq!(back.summary.over, record.summary.over);
    assert_eq!(back.summary.id, Some(id));
    assert_eq!(back.summary.players, record.summary.players);
    // Minutes survive (seconds are not written).
    let ended = record.summary.ended_at_ms.unwrap();
    assert_eq!(back.summary.ended_at_ms, Some(ended / 60_000 * 60_000));

    // Refusals say where and why, and change nothing.
    let bad = ask(
        &mut an,
        ClientMsg::ParseRecord {
            text: "game: caro\n\n1. h8 h8\n".into(),
            zone_minutes: 0,
        },
    )
    .await;
    assert_eq!(
        bad,
        ServerMsg::RecordRefused {
            line: 3,
            message: "move 2 (h8): h8 is already taken".into()
        }
    );
    let huge = ask(
        &mut an,
        ClientMsg::ParseRecord {
            text: "#".repeat(MAX_RECORD_TEXT + 1),
            zone_minutes: 0,
        },
    )
    .await;
    assert!(
        matches!(huge, ServerMsg::RecordRefused { line: 0, .. }),
        "{huge:?}"
    );
    let mut forged = record.clone();
    forged.moves[4].mv = forged.moves[0].mv;
    let refused = ask(
        &mut an,
        ClientMsg::WriteRecord {
            record: Box::new(forged),
            zone_minutes: 0,
        },
    )
    .await;
    assert!(
        matches!(&refused, ServerMsg::RecordRefused { message, .. } if message.contains("move 5 is not legal")),
        "{refused:?}"
    );
    // The session goes on.
    an.sync("after the records").await;
    server.stop().await;
}

#[tokio::test]
async fn trial_moves_are_judged_on_a_copy_and_nobody_else_hears_of_them() {
    let server = TestServer::start().await;
    let (mut an, mut binh, room) = two_players(&server, caro(9)).await;
    exchange(&mut an, &mut binh, 4, 4).await;

    // Bình tries two moves: the first stands, the second is refused (taken).
    let p = |x, y| Move::Caro(Point::new(x, y));
    let t = tried(&mut binh, vec![p(3, 3), p(4, 4), p(5, 5)]).await;
    assert_eq!((t.game, t.ply), (1, 1));
    assert_eq!(t.moves.len(), 1);
    assert_eq!(t.moves[0].by, Seat::Two);
    assert_eq!(t.refused.as_deref(), Some("e5 is already taken"));
    assert_eq!(t.asked.len(), 3);

    // A spectator may try moves too; An hears nothing of either, and the game is as it
    // was: Bình's real move is the next one.
    let mut chi = server.connect("Chi").await;
    chi.watch(room).await;
    let t = tried(&mut chi, vec![p(0, 0)]).await;
    assert!(t.refused.is_none());
    let seen = an.sync("after the trials").await;
    assert!(
        !seen
            .iter()
            .any(|m| matches!(m, ServerMsg::Tried(_) | ServerMsg::Moved { .. })),
        "{seen:?}"
    );
    exchange(&mut binh, &mut an, 3, 3).await;

    // Outside a room there is nothing to try moves on.
    let mut lone = server.connect("Lan").await;
    lone.send(ClientMsg::Trial(vec![p(0, 0)])).await;
    lone.expect_error(banco_protocol::ErrorCode::NotInRoom)
        .await;
    server.stop().await;
}
