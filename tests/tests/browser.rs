//! The browser client end to end: a real headless Chromium (WebDriver) on the page the
//! server serves, playing against other browsers, a protocol client (what the terminal
//! client speaks) and the bot. Fails with a sentence naming what to install when
//! Chromium or chromedriver is missing.

use serde_json::json;

use banco_protocol::{ClientMsg, ErrorCode, OfferKind, Point, ServerMsg};
use banco_tests::browser::{Browser, DESKTOP, PHONE};
use banco_tests::{TestServer, caro, xiangqi};

/// The caro point `name` (h8) on the board.
fn cell(name: &str) -> String {
    format!(".cell[data-point=\"{name}\"]")
}

#[tokio::test]
async fn a_browser_plays_a_terminal_player_and_both_see_moves_and_chat() {
    let server = TestServer::start().await;
    let mut terminal = server.connect("Bình").await;
    let (room, _) = terminal.create(caro(9)).await;

    let page = Browser::open(server.addr, DESKTOP).await;
    page.enter("An").await;
    page.wait_for(&format!(".room-row[data-room=\"{room}\"] .join"))
        .await;
    page.click(&format!(".room-row[data-room=\"{room}\"] .join"))
        .await;
    page.wait_for("#board .cell").await;
    terminal.game_started().await;

    // The terminal player (seat one, X) moves first; the page sees it and answers.
    terminal.play(4, 4).await;
    terminal.saw(4, 4).await;
    page.wait_js(
        "the terminal's stone",
        "document.querySelector(arguments[0] + ' .stone.x')",
        vec![json!(cell("e5"))],
    )
    .await;
    page.wait_text("#status", "Your move").await;
    page.click(&cell("f5")).await;
    terminal.saw(5, 4).await;

    // Chat both ways.
    page.type_into("#chat-input", "chào Bình").await;
    page.click("#chat-send").await;
    let line = terminal
        .recv_until(|m| matches!(m, ServerMsg::Chat(_)))
        .await;
    assert!(matches!(line, ServerMsg::Chat(l) if l.text == "chào Bình" && l.from == "An"));
    terminal.send(ClientMsg::Chat("hi An".into())).await;
    page.wait_text("#chat-log", "hi An").await;

    page.close().await;
    server.stop().await;
}
