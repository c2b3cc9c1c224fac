//! End to end: the real `banco` binary (`--json`) losing its connection and coming
//! back: killed outright and started again (the seat is taken back from disk), a watcher
//! whose link is cut, a link that goes silent without closing (the heartbeat finds it).
//!
//! Waits only turn a hang into a failure (see [`support::WAIT`]); every assertion is on
//! what arrives, never on how long it took.

mod support;

use std::path::Path;
use support::{Player, Proxy, Server, play, points, scratch};

/// The seat files in a client's state directory.
fn seat_files(state: &Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(state.join("seats"))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_killed_mid_game_and_started_again_takes_its_seat_back() {
    let server = Server::start().await;
    // Both players on this machine, sharing one state directory: neither may take the
    // other's seat.
    let state = scratch("restart");
    let mut an = Player::join_keeping(server.addr, "An", "--json", &state).await;
    an.send("create caro --first me").await;
    let room = an.event("room_created").await["room"].as_u64().unwrap();
    let mut binh = Player::join_keeping(server.addr, "Binh", "--json", &state).await;
    binh.send(&format!("join {room}")).await;
    binh.event("game_started").await;
    an.event("game_started").await;
    play(&mut an, &mut binh, &["h8", "j8"], &["a1"], 1).await;
    // Both seats are on disk, the owner's only.
    let files = seat_files(&state);
    assert_eq!(files.len(), 2, "{files:?}");
    #[cfg(unix)]
    for f in &files {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(f).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{f:?}");
    }

    // kill -9: no leaving, no goodbye. The server holds An's seat.
    an.kill().await;
    let away = binh
        .until("An away", |v| {
            v["event"] == "people" && v["seats"][0]["connected"] == false
        })
        .await;
    assert_eq!(away["seats"][0]["name"], "~An");

    // Started again the same way: the same name, the same seat, the game as it was.
    let mut an = Player::join_keeping(server.addr, "An", "--json", &state).await;
    let welcome = an.event("welcome").await;
    assert_eq!(welcome["name"], "~An", "not a new player '~An 2'");
    let joined = an.event("joined").await;
    assert_eq!(joined["room"], room);
    assert_eq!(joined["you"], "one");
    assert_eq!(points(&joined), ["h8", "a1", "j8"]);
    assert_eq!(joined["to_move"], "two");
    binh.until("An back", |v| {
        v["event"] == "people" && v["seats"][0]["connected"] == true
    })
    .await;

    // The game goes on.
    play(&mut binh, &mut an, &["a2"], &["k8"], 4).await;
    assert_eq!(seat_files(&state).len(), 2);

    // Leaving gives the seat up: its file goes; Bình's stays while Bình sits.
    an.send("leave").await;
    an.event("left").await;
    an.send("quit").await;
    assert!(an.finish().await.success());
    assert_eq!(seat_files(&state).len(), 1);
    binh.send("quit").await;
    assert!(binh.finish().await.success());
    assert!(seat_files(&state).is_empty());
    server.stop().await;
    let _ = std::fs::remove_dir_all(&state);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_whose_link_is_cut_watches_the_room_again() {
    let server = Server::start().await;
    let proxy = Proxy::start(server.addr).await;
    let mut an = Player::join(&server, "An", "--json").await;
    an.send("create caro --first me").await;
    let room = an.event("room_created").await["room"].as_u64().unwrap();
    let mut binh = Player::join(&server, "Binh", "--json").await;
    binh.send(&format!("join {room}")).await;
    binh.event("game_started").await;
    let mut cuc = Player::join_at(proxy.addr, "Cuc", "--json").await;
    cuc.send(&format!("watch {room}")).await;
    assert_eq!(cuc.event("joined").await["you"], "spectator");
    play(&mut an, &mut binh, &["h8"], &[], 1).await;
    cuc.ply(1).await;

    proxy.cut();
    let retry = cuc.event("reconnecting").await;
    // Over TLS a connection ended without the server's goodbye (close_notify) was cut
    // on the way, and is told so.
    assert_eq!(retry["cause"], "cut");
    assert_eq!(retry["reason"], "the network connection was cut");
    let back = cuc.event("reconnected").await;
    assert_eq!(back["seat_lost"], false);
    let joined = cuc.event("joined").await;
    assert_eq!(joined["room"], room);
    assert_eq!(joined["you"], "spectator");
    assert_eq!(points(&joined), ["h8"]);

    // It follows the game again.
    play(&mut binh, &mut an, &["a1"], &[], 2).await;
    assert_eq!(cuc.ply(2).await["point"], "a1");
    for p in [an, binh, cuc] {
        let mut p = p;
        p.send("quit").await;
        assert!(p.finish().await.success());
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_link_is_noticed_and_the_player_comes_back() {
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

    // The link stays open but nothing crosses it any more (no FIN, no RST): only the
    // heartbeat can tell. The client says so, in words, and dials again.
    proxy.silence();
    let retry = an.event("reconnecting").await;
    assert_eq!(retry["cause"], "silent");
    assert_eq!(retry["reason"], "no word from the server for 15 s");
    assert_eq!(retry["attempt"], 1);
    an.event("reconnected").await;
    let joined = an.event("joined").await;
    assert_eq!(joined["room"], room);
    assert_eq!(joined["you"], "one");
    assert_eq!(points(&joined), ["h8", "a1"]);

    play(&mut an, &mut binh, &["j8"], &[], 3).await;
    an.send("quit").await;
    binh.send("quit").await;
    assert!(an.finish().await.success());
    assert!(binh.finish().await.success());
    server.stop().await;
}
