//! Matches in the browser page, in a real headless Chromium: the create form makes one
//! (its numbers start from the usual two games, or first to 5 of 9), the room shows the
//! match's score after its first game and the break before the next, and the match is
//! resigned as a whole after a confirmation, with its result in a dialog and in the
//! history.
//!
//! The pictures it takes (`match-break-*`, `match-over-*`) are written over the
//! committed ones in `web/screenshots/` only with `BANCO_SCREENSHOTS=1`.

use serde_json::json;
use std::path::PathBuf;
use std::time::Duration;

use banco_protocol::{ClientMsg, MatchEnd, OfferKind, Seat, ServerMsg};
use banco_server::Config;
use banco_tests::browser::{Browser, DESKTOP, PHONE};
use banco_tests::{TempDir, TestServer, test_config};

/// Where the pictures go: the committed folder when asked, else a temporary one.
fn folder(temp: &TempDir) -> PathBuf {
    if std::env::var_os("BANCO_SCREENSHOTS").is_some_and(|v| v == "1") {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../web/screenshots")
    } else {
        temp.path().to_path_buf()
    }
}

fn cell(name: &str) -> String {
    format!(".cell[data-point=\"{name}\"]")
}

async fn room_number(page: &Browser) -> u32 {
    let title = page
        .js(
            "return document.querySelector('.room-title strong').textContent",
            vec![],
        )
        .await;
    title
        .as_str()
        .and_then(|t| t.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .expect("the room number in the title")
}

async fn value(page: &Browser, css: &str) -> String {
    page.js(
        "return document.querySelector(arguments[0]).value",
        vec![json!(css)],
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

#[tokio::test]
async fn a_match_made_in_the_page_shows_its_score_after_game_one_and_is_resigned_whole() {
    // A break no test waits out: the page shows it counting down.
    let server = TestServer::with_config(Config {
        match_break: Duration::from_secs(600),
        ..test_config()
    })
    .await;
    let temp = TempDir::new("match-shots");
    let dir = folder(&temp);
    let page = Browser::open(server.addr, DESKTOP).await;
    page.enter("An").await;

    // The form: a match is off until chosen; each kind starts from its usual numbers.
    page.click("#btn-create").await;
    page.wait_for("#c-match").await;
    page.wait_js(
        "the match's numbers hidden while it is off",
        "document.querySelector('#c-match-games').closest('.match-only').hidden",
        vec![],
    )
    .await;
    page.select("#c-match", "first_to").await;
    assert_eq!(value(&page, "#c-match-first-to").await, "5");
    assert_eq!(value(&page, "#c-match-games").await, "9");
    page.select("#c-match", "games").await;
    assert_eq!(value(&page, "#c-match-games").await, "2");
    page.click("#dlg-create-submit").await;
    page.wait_for("#board .cell").await;
    let room = room_number(&page).await;
    page.wait_text("#match-line", "2 games").await;

    // Game 1: An (X) and Bình each place a stone, then Bình resigns it.
    let mut binh = server.connect("Bình").await;
    let view = binh.join(room).await;
    assert_eq!(
        view.settings.match_format.map(|m| (m.games, m.first_to)),
        Some((2, None)),
        "the page asked for a two-game match"
    );
    binh.game_started().await;
    page.wait_text("#status", "Your move").await;
    page.wait_text("#notice", "A match begins").await;
    page.click(&cell("h8")).await;
    binh.saw(7, 7).await;
    binh.play(0, 0).await;
    binh.saw(0, 0).await;
    page.wait_for(&format!("{} .stone.o", cell("a15"))).await;
    binh.send(ClientMsg::Resign).await;

    // The result dialog has the match's score and when the next game begins; so do the
    // players panel and the status line once it is closed.
    page.wait_js(
        "the game's result with the match's score",
        "document.querySelector('[data-dialog=\"game-over\"]') \
         && document.querySelector('.dialog-body .series').textContent.includes('~An 1, ~Bình 0') \
         && document.querySelector('#dlg-match-next')",
        vec![],
    )
    .await;
    page.wait_text("#dlg-match-next", "Next game in").await;
    page.wait_text("#dlg-rematch", "Ready").await;
    page.screenshot(&dir.join("match-break-desktop.png")).await;
    page.click("#dlg-look").await;
    page.wait_text("#match-line", "Match: 2 games — ~An 1, ~Bình 0")
        .await;
    page.wait_text("#status", "Next game in").await;
    page.resize(PHONE).await;
    page.screenshot(&dir.join("match-break-phone.png")).await;
    page.resize(DESKTOP).await;

    // Leaving mid-match says it loses the whole match.
    page.click("#btn-leave").await;
    page.wait_text("[data-dialog=\"leave\"]", "loses the whole match")
        .await;
    page.click("#dlg-no").await;

    // Ready: Bình agrees, and game 2 starts at once with the colours swapped (Bình
    // first); the score of game 1 stays.
    page.click("#btn-newgame").await;
    page.wait_text("#notice", "Ready for the next game; waiting for ~Bình")
        .await;
    binh.recv_until(|m| matches!(m, ServerMsg::Offered(_)))
        .await;
    binh.send(ClientMsg::Answer {
        kind: OfferKind::NewGame,
        accept: true,
    })
    .await;
    let game2 = binh.game_started().await;
    assert_eq!(game2.first, Seat::Two, "the colours alternate");
    page.wait_text("#notice", "Game 2 of the match").await;
    page.wait_text("#status", "~Bình (X) to move").await;
    page.wait_text("#match-line", "~An 1, ~Bình 0").await;
    binh.play(7, 7).await;
    binh.saw(7, 7).await;
    page.wait_text("#status", "Your move").await;
    page.click(&cell("i9")).await;
    binh.moved().await;

    // Resigning the match (mid-game 2) asks first; "no" changes nothing.
    page.click("#btn-resign-match").await;
    page.wait_text("[data-dialog=\"resign-match\"]", "whole match")
        .await;
    page.click("#dlg-no").await;
    page.wait_js(
        "the dialog gone",
        "!document.querySelector('[data-dialog]')",
        vec![],
    )
    .await;
    page.click("#btn-resign-match").await;
    page.click("#dlg-yes").await;
    let result = match binh
        .recv_until(|m| matches!(m, ServerMsg::MatchOver(_)))
        .await
    {
        ServerMsg::MatchOver(r) => r,
        _ => unreachable!(),
    };
    assert_eq!(result.winner, Some(Seat::Two));
    assert_eq!(result.reason, MatchEnd::Resign);
    page.wait_text("[data-dialog=\"match-over\"]", "You lost the match")
        .await;
    page.wait_text("[data-dialog=\"match-over\"]", "You resigned the match")
        .await;
    page.wait_text("#dlg-rematch", "Another match").await;
    page.resize(PHONE).await;
    page.screenshot(&dir.join("match-over-phone.png")).await;
    page.resize(DESKTOP).await;

    // The history says which match the game was of, and how it ended.
    page.click("#dlg-leave").await;
    // The lobby says the room plays matches (Bình is still in it).
    page.wait_text(
        &format!(".room-row[data-room=\"{room}\"]"),
        "Match: 2 games",
    )
    .await;
    page.click("#btn-history").await;
    page.wait_text("#history", "game 1 of match #").await;
    page.wait_text("#history", "game 2 of match #").await;
    page.wait_text("#history .match-of", "~Bình won").await;

    page.close().await;
    server.stop().await;
}
