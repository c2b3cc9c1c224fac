//! A crowd that never reads cannot hurt a game: the real `banco-server` binary with a
//! room full of silent spectators (they say Hello, watch, and never read a byte) keeps
//! its memory bounded, refuses the spectator past its cap with a sentence, and the room's
//! players play on.

#![cfg(target_os = "linux")]

mod common;

use std::collections::HashSet;

use banco_protocol::{
    ClientMsg, ErrorCode, Hello, Move, PROTOCOL_VERSION, Point, RoomSettings, ServerMsg,
};
use common::{Client, ServerProcess, TempDir};
use tokio::io::AsyncWriteExt;

const CAP: usize = 120;

/// One length-prefixed frame, as the codec writes it.
fn frame(msg: &ClientMsg) -> Vec<u8> {
    let payload = banco_protocol::wire::encode(msg).expect("encodes");
    let mut out = (payload.len() as u32).to_be_bytes().to_vec();
    out.extend(payload);
    out
}

/// Resident memory of a process, in bytes.
fn rss(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc readable");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .expect("VmRSS in kB")
        * 1024
}

#[tokio::test]
async fn silent_spectators_up_to_the_cap_cost_bounded_memory_and_the_game_goes_on() {
    let dir = TempDir::new("crowd");
    let cap = CAP.to_string();
    // The whole crowd is on this one machine: its per-machine budget is lifted.
    let flags = ["--spectators", &cap, "--connections-per-address", "1000"];
    let server = ServerProcess::start(&dir.join("banco.db"), &flags)
        .unwrap_or_else(|log| panic!("the server did not start: {log:?}"));
    let mut a = Client::connect(server.addr, "An", None).await;
    let (room, _) = a.create(RoomSettings::default()).await;
    let mut b = Client::connect(server.addr, "Bình", None).await;
    b.join(room).await;
    a.until(|m| matches!(m, ServerMsg::GameStarted(_))).await;
    b.until(|m| matches!(m, ServerMsg::GameStarted(_))).await;

    // The crowd: each says Hello and asks to watch, then never reads.
    let mut silent = Vec::new();
    for i in 0..CAP {
        let mut s = common::tls(server.addr).await;
        let mut bytes = frame(&ClientMsg::Hello(Hello {
            version: PROTOCOL_VERSION,
            name: format!("watcher{i}"),
            resume: None,
            account: None,
        }));
        bytes.extend(frame(&ClientMsg::WatchRoom(room)));
        s.write_all(&bytes).await.unwrap();
        silent.push(s);
    }
    // The players hear each of them come, as a delta naming them.
    let mut came = HashSet::new();
    while came.len() < CAP {
        if let ServerMsg::People { came: names, .. } =
            a.until(|m| matches!(m, ServerMsg::People { .. })).await
        {
            came.extend(names);
        }
    }
    assert!(came.contains("~watcher0") && came.contains(&format!("~watcher{}", CAP - 1)));

    // One past the cap is told why, and the room is as it was.
    let mut late = Client::connect(server.addr, "Muộn", None).await;
    late.send(ClientMsg::WatchRoom(room)).await;
    match late.until(|m| matches!(m, ServerMsg::Error(_))).await {
        ServerMsg::Error(e) => {
            assert_eq!(e.code, ErrorCode::SpectatorsFull);
            assert!(e.message.contains("spectators"), "{}", e.message);
        }
        _ => unreachable!(),
    }

    // The players play twenty moves; each is acknowledged to both.
    for ply in 0..20u32 {
        let (x, y) = ((ply % 10) as u8, (ply / 10 * 3 + ply % 2) as u8);
        let mover = if ply % 2 == 0 { &mut a } else { &mut b };
        mover
            .send(ClientMsg::Move(Move::Caro(Point::new(x, y))))
            .await;
        for who in [&mut a, &mut b] {
            who.until(|m| matches!(m, ServerMsg::Moved { ply: p, .. } if *p == ply + 1))
                .await;
        }
    }
    // With everything the crowd was sent still queued for it, the server stays small.
    let rss = rss(server.child.id());
    assert!(
        rss < 200 << 20,
        "the server holds {} MB with {CAP} silent spectators",
        rss >> 20
    );
    drop(silent);
    server.stop();
}
