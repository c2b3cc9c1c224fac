//! The README's pictures of the browser client, taken by the browser tests' tooling:
//! the start page, the lobby, a caro game (and its draft mode) and a xiangqi game, on a
//! desktop and on a 360 px phone.
//!
//! Every run takes them (so the pages they show must work); they are written over the
//! committed ones in `web/screenshots/` only with `BANCO_SCREENSHOTS=1`:
//!
//! ```sh
//! BANCO_SCREENSHOTS=1 cargo test -p banco-tests --test screenshots
//! ```

use serde_json::json;
use std::path::PathBuf;

use banco_protocol::{Level, ServerMsg};
use banco_tests::browser::{Browser, DESKTOP, PHONE};
use banco_tests::{Client, TempDir, TestServer, caro, exchange, vs_bot, xiangqi};

/// Where the pictures go: the committed folder when asked, else a temporary one.
fn folder(temp: &TempDir) -> PathBuf {
    if std::env::var_os("BANCO_SCREENSHOTS").is_some_and(|v| v == "1") {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../web/screenshots")
    } else {
        temp.path().to_path_buf()
    }
}

/// A few rooms for the lobby to list: a caro game in progress, a xiangqi game, a room
/// against the bot waiting, and one waiting for a second player.
async fn furnish(server: &TestServer) -> Vec<Client> {
    let mut a = server.connect("Bình").await;
    let mut b = server.connect("Chi").await;
    let (id, _) = a.create(caro(15)).await;
    b.join(id).await;
    a.game_started().await;
    for (i, (x, y)) in [(7, 7), (8, 8), (8, 7), (6, 7), (7, 6), (9, 9)]
        .iter()
        .enumerate()
    {
        if i % 2 == 0 {
            exchange(&mut a, &mut b, *x, *y).await;
        } else {
            exchange(&mut b, &mut a, *x, *y).await;
        }
    }
    let mut c = server.connect("Dũng").await;
    let mut d = server.connect("Em").await;
    let (xid, _) = c.create(xiangqi(None)).await;
    d.join(xid).await;
    c.game_started().await;
    let mut e = server.connect("Giang").await;
    e.create(vs_bot(19, Level::Hard)).await;
    vec![a, b, c, d, e]
}

#[tokio::test]
async fn the_lobby_and_both_boards_on_a_desktop_and_a_phone() {
    let server = TestServer::start().await;
    let _people = furnish(&server).await;
    let temp = TempDir::new("screenshots");
    let dir = folder(&temp);

    for (size, tag) in [(DESKTOP, "desktop"), (PHONE, "phone")] {
        let page = Browser::open(server.addr, size).await;
        // The start page: a name, and a password to log in or register.
        page.goto("/").await;
        page.type_into("#name", "Lan").await;
        page.click("#register").await;
        page.wait_text("#password-hint", "8 to 128").await;
        page.screenshot(&dir.join(format!("start-{tag}.png"))).await;
        page.enter(&format!("An-{tag}")).await;
        page.wait_js(
            "three rooms",
            "document.querySelectorAll('.room-row').length >= 3",
            vec![],
        )
        .await;
        page.screenshot(&dir.join(format!("lobby-{tag}.png"))).await;

        // A caro game against a person from the terminal, a few moves in.
        let mut opponent = server.connect(&format!("Hà-{tag}")).await;
        page.click("#btn-create").await;
        page.click("#dlg-create-submit").await;
        page.wait_for("#board .cell").await;
        let room = page
            .js(
                "return document.querySelector('.room-title strong').textContent",
                vec![],
            )
            .await;
        let id: u32 = room
            .as_str()
            .and_then(|t| t.split_whitespace().nth(1))
            .and_then(|n| n.parse().ok())
            .expect("the room number in the title");
        opponent.join(id).await;
        for (mine, theirs) in [("h8", (8, 6)), ("g7", (6, 6)), ("f6", (9, 5))] {
            page.wait_text("#status", "Your move").await;
            page.click(&format!(".cell[data-point=\"{mine}\"]")).await;
            opponent.recv_until(|m| matches!(m, ServerMsg::Moved { record, .. } if record.by == banco_protocol::Seat::One)).await;
            opponent.play(theirs.0, theirs.1).await;
        }
        page.wait_text("#status", "Your move").await;
        page.type_into("#chat-input", "chơi hay lắm").await;
        page.click("#chat-send").await;
        page.wait_text("#chat-log", "chơi hay").await;
        page.js(
            "document.querySelector('.room-title').scrollIntoView()",
            vec![],
        )
        .await;
        page.screenshot(&dir.join(format!("caro-{tag}.png"))).await;
        // Draft mode: two trial stones, faded and ringed, on top of the real game. The
        // opponent reads first (answering the heartbeat), so it is still there.
        opponent.sync("ok").await;
        page.click("#btn-draft").await;
        page.click(".cell[data-point=\"e5\"]").await;
        page.click(".cell[data-point=\"e4\"]").await;
        page.wait_text("#status", "Draft: 2").await;
        page.js(
            "document.querySelector('.room-title').scrollIntoView()",
            vec![],
        )
        .await;
        page.screenshot(&dir.join(format!("draft-{tag}.png"))).await;
        page.click("#btn-draft").await;
        page.click("#btn-leave").await;
        page.click("#dlg-yes").await;
        page.wait_for("#btn-create").await;

        // A xiangqi game: Red (the page) has moved its cannon; a piece is picked up.
        let mut black = server.connect(&format!("Khoa-{tag}")).await;
        page.click("#btn-create").await;
        page.select("#c-game", "xiangqi").await;
        page.click("#dlg-create-submit").await;
        page.wait_for(".xq-pt").await;
        let room = page
            .js(
                "return document.querySelector('.room-title strong').textContent",
                vec![],
            )
            .await;
        let id: u32 = room
            .as_str()
            .and_then(|t| t.split_whitespace().nth(1))
            .and_then(|n| n.parse().ok())
            .expect("the room number");
        black.join(id).await;
        page.wait_text("#status", "Your move").await;
        page.click(".xq-pt[data-square=\"h2\"]").await;
        page.click(".xq-pt[data-square=\"e2\"]").await;
        black.moved_xq().await;
        exchange_xq_from(&mut black, "h9g7").await;
        page.wait_text("#status", "Your move").await;
        page.click(".xq-pt[data-square=\"b0\"]").await;
        page.wait_js(
            "the horse's targets",
            "document.querySelectorAll('.xq-pt.target').length === 2",
            vec![json!(0)],
        )
        .await;
        page.js(
            "document.querySelector('.room-title').scrollIntoView()",
            vec![],
        )
        .await;
        page.screenshot(&dir.join(format!("xiangqi-{tag}.png")))
            .await;
        page.close().await;
    }
    for name in ["start", "lobby", "caro", "draft", "xiangqi"] {
        for tag in ["desktop", "phone"] {
            let png = std::fs::read(dir.join(format!("{name}-{tag}.png"))).unwrap();
            assert!(
                png.starts_with(b"\x89PNG") && png.len() > 5_000,
                "{name}-{tag}.png"
            );
        }
    }
    server.stop().await;
}

async fn exchange_xq_from(mover: &mut Client, text: &str) {
    mover.play_xq(text).await;
    mover.moved_xq().await;
}
