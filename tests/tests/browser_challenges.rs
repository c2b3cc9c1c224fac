//! Challenges in the browser page, in a real headless Chromium: a challenge sent by a
//! protocol client (what the terminal client speaks) is shown at once on a 360 px phone
//! and accepted there into the room; the page's own challenge, sent from the People
//! screen, is declined and the page says why; the page declines one with a reason; an
//! open challenge is listed in the lobby and taken from its link; who may challenge the
//! page is its choice.
//!
//! The pictures it takes (`challenge-*`, `people-*`) are written over the committed ones
//! in `web/screenshots/` only with `BANCO_SCREENSHOTS=1`.

use serde_json::json;
use std::path::PathBuf;
use std::time::Duration;

use banco_protocol::{
    ChallengeEnd, ClientMsg, DeclineReason, ErrorCode, FirstMove, RoomSettings, ServerMsg,
    TimeControl,
};
use banco_tests::browser::{Browser, DESKTOP, PHONE};
use banco_tests::{Client, TempDir, TestServer, xiangqi};

/// Where the pictures go: the committed folder when asked, else a temporary one.
fn folder(temp: &TempDir) -> PathBuf {
    if std::env::var_os("BANCO_SCREENSHOTS").is_some_and(|v| v == "1") {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../web/screenshots")
    } else {
        temp.path().to_path_buf()
    }
}

/// Nothing sticks out sideways: the page fits the viewport.
async fn fits(page: &Browser, what: &str) {
    page.wait_js(
        &format!("{what} to fit the width"),
        "document.documentElement.scrollWidth <= window.innerWidth",
        vec![],
    )
    .await;
}

/// Xiangqi on a 5+3 clock, casual (guests play casual games only), the challenger Red.
fn casual_xiangqi() -> RoomSettings {
    RoomSettings {
        time: TimeControl::clock(Duration::from_secs(300), Duration::from_secs(3)),
        first: FirstMove::Me,
        rated: false,
        ..xiangqi(None)
    }
}

/// Sends a challenge and reads its number.
async fn challenge(from: &mut Client, to: Option<&str>, settings: RoomSettings) -> u32 {
    from.send(ClientMsg::Challenge {
        to: to.map(String::from),
        settings,
    })
    .await;
    match from
        .recv_until(|m| matches!(m, ServerMsg::ChallengeSent(_) | ServerMsg::Error(_)))
        .await
    {
        ServerMsg::ChallengeSent(c) => c.id,
        other => panic!("the challenge was refused: {other:?}"),
    }
}

/// How challenge `id` ended, as its sender is told.
async fn ended(c: &mut Client, id: u32) -> ChallengeEnd {
    match c
        .recv_until(|m| matches!(m, ServerMsg::ChallengeEnded { id: i, .. } if *i == id))
        .await
    {
        ServerMsg::ChallengeEnded { end, .. } => end,
        _ => unreachable!(),
    }
}

#[tokio::test]
async fn a_challenge_from_a_terminal_player_is_accepted_in_the_page_on_a_phone() {
    let server = TestServer::start().await;
    let temp = TempDir::new("challenge-shots");
    let dir = folder(&temp);
    let page = Browser::open(server.addr, PHONE).await;
    page.enter("Bình").await;
    let mut an = server.connect("An").await;

    // Shown at once, wherever the page is: here on the leaderboard.
    page.click("#btn-leaderboard").await;
    page.wait_for("#lb-caro").await;
    let id = challenge(&mut an, Some("Bình"), casual_xiangqi()).await;
    page.wait_text("[data-dialog=\"challenge\"]", "~An challenges you")
        .await;
    page.wait_text("[data-dialog=\"challenge\"]", "5m+3s").await;
    page.wait_text("[data-dialog=\"challenge\"]", "casual")
        .await;
    page.wait_text("[data-dialog=\"challenge\"]", "~An moves first")
        .await;
    page.wait_text("#btn-challenges", "1").await;
    fits(&page, "the challenge dialog").await;
    page.screenshot(&dir.join("challenge-phone.png")).await;

    // Accepted: both are seated in a new room, the page as Black.
    page.click("#dlg-yes").await;
    assert!(matches!(ended(&mut an, id).await, ChallengeEnd::Accepted { by, .. } if by == "~Bình"));
    let view = an.joined().await;
    assert_eq!(view.settings.time, casual_xiangqi().time);
    page.wait_for("#board .xq-points").await;
    page.wait_text("#players", "~An").await;
    page.wait_js(
        "the header's challenge button gone",
        "!document.querySelector('#btn-challenges')",
        vec![],
    )
    .await;
    fits(&page, "the room").await;

    page.close().await;
    server.stop().await;
}

#[tokio::test]
async fn a_challenge_declined_shows_the_reason_both_ways_and_open_ones_are_taken_by_link() {
    let server = TestServer::start().await;
    let temp = TempDir::new("people-shots");
    let dir = folder(&temp);
    let page = Browser::open(server.addr, DESKTOP).await;
    page.enter("Chi").await;
    let mut an = server.connect("An").await;

    // The People screen lists who is here (and the server's bots); the page challenges
    // An from it with the room form's settings, casual as a guest's must be.
    page.click("#btn-people").await;
    page.wait_for(".person[data-name=\"~An\"] .challenge").await;
    page.wait_text("#people-list", "Bot (max)").await;
    page.screenshot(&dir.join("people-desktop.png")).await;
    page.click(".person[data-name=\"~An\"] .challenge").await;
    page.wait_for("#challenge-form #c-game").await;
    page.wait_js(
        "no bots and no arranging in a challenge",
        "document.querySelector('#c-players').closest('label').hidden \
         && !document.querySelector('#c-arrange')",
        vec![],
    )
    .await;
    assert_eq!(
        page.js("return document.querySelector('#c-rated').value", vec![])
            .await,
        json!("casual")
    );
    page.select("#c-first", "them").await;
    page.resize(PHONE).await;
    fits(&page, "the challenge form").await;
    page.screenshot(&dir.join("challenge-form-phone.png")).await;
    page.click("#dlg-challenge-submit").await;
    let sent = match an
        .recv_until(|m| matches!(m, ServerMsg::Challenged(_)))
        .await
    {
        ServerMsg::Challenged(c) => c,
        _ => unreachable!(),
    };
    assert_eq!(sent.from, "~Chi");
    assert_eq!(sent.settings.first, FirstMove::Them);
    assert!(!sent.settings.rated);
    page.wait_for(&format!("#people-sent [data-challenge=\"{}\"]", sent.id))
        .await;
    fits(&page, "the People screen").await;
    page.screenshot(&dir.join("people-phone.png")).await;
    page.resize(DESKTOP).await;

    // An declines it, saying why: the page tells the reason.
    an.send(ClientMsg::DeclineChallenge {
        id: sent.id,
        reason: DeclineReason::TimeControl,
    })
    .await;
    page.wait_text("#notice", "another time control").await;
    page.wait_text("#notice", "~An declined").await;
    page.wait_js(
        "the declined challenge gone from the list",
        "!document.querySelector('#people-sent')",
        vec![],
    )
    .await;

    // The page declines An's challenge with a reason from the list.
    let id = challenge(&mut an, Some("Chi"), casual_xiangqi()).await;
    page.wait_for("[data-dialog=\"challenge\"] #dlg-decline")
        .await;
    page.click("#dlg-decline").await;
    page.click("#dlg-reason-rated_only").await;
    assert!(matches!(
        ended(&mut an, id).await,
        ChallengeEnd::Declined { by, reason: DeclineReason::RatedOnly } if by == "~Chi"
    ));

    // Challenges turned off: the server refuses An's next one.
    page.select("#challenge-policy", "nobody").await;
    page.wait_text("#notice", "nobody").await;
    an.send(ClientMsg::Challenge {
        to: Some("Chi".into()),
        settings: casual_xiangqi(),
    })
    .await;
    an.expect_error(ErrorCode::ChallengeRefused).await;
    page.select("#challenge-policy", "everyone").await;
    page.wait_text("#notice", "everyone").await;

    // An's open challenge: listed in the lobby, and taken by a phone from its link.
    let open = challenge(&mut an, None, casual_xiangqi()).await;
    page.click("#btn-back").await;
    page.wait_for(&format!(
        "#open-challenges [data-challenge=\"{open}\"] .take"
    ))
    .await;
    page.screenshot(&dir.join("lobby-challenge-desktop.png"))
        .await;
    let phone = Browser::open(server.addr, PHONE).await;
    phone.goto(&format!("/#challenge={open}")).await;
    phone
        .wait_text("#link-challenge", &format!("Open challenge {open}"))
        .await;
    phone.type_into("#name", "Dũng").await;
    phone.click("#connect").await;
    phone
        .wait_text("[data-dialog=\"challenge\"]", "~An: xiangqi")
        .await;
    phone
        .screenshot(&dir.join("challenge-link-phone.png"))
        .await;
    phone.click("#dlg-yes").await;
    assert!(
        matches!(ended(&mut an, open).await, ChallengeEnd::Accepted { by, .. } if by == "~Dũng")
    );
    phone.wait_for("#board .xq-points").await;
    // The link is spent: a reload does not offer it again.
    assert_eq!(
        phone.js("return location.hash", vec![]).await,
        json!(""),
        "the address no longer names the challenge"
    );
    page.wait_js(
        "the taken challenge gone from the lobby",
        "!document.querySelector('#open-challenges')",
        vec![],
    )
    .await;

    // The page's own open challenge: its link in the lobby, taken by An (out of the
    // game with Dũng first: nobody in a game takes another).
    an.send(ClientMsg::LeaveRoom).await;
    // One made and called off: the sender cancels.
    page.click("#btn-people").await;
    page.click("#btn-open-challenge").await;
    page.click("#dlg-challenge-submit").await;
    page.wait_for("#people-sent .cancel").await;
    page.click("#people-sent .cancel").await;
    page.wait_text("#notice", "You cancelled challenge").await;
    page.wait_js(
        "the cancelled challenge gone",
        "!document.querySelector('#people-sent')",
        vec![],
    )
    .await;
    page.click("#btn-open-challenge").await;
    page.wait_js(
        "the open challenge's form",
        "document.getElementById('dlg-title').textContent.includes('anyone may take it')",
        vec![],
    )
    .await;
    page.click("#dlg-challenge-submit").await;
    page.click("#btn-back").await;
    page.wait_for("#open-challenges .mine .link-url").await;
    page.resize(PHONE).await;
    fits(&page, "the lobby with the link").await;
    page.screenshot(&dir.join("lobby-challenge-phone.png"))
        .await;
    page.resize(DESKTOP).await;
    let (mine, link) = {
        let read = page
            .js(
                "const row = document.querySelector('#open-challenges .mine'); \
                 return [Number(row.dataset.challenge), row.querySelector('.link-url').href]",
                vec![],
            )
            .await;
        (
            read[0].as_u64().expect("its number") as u32,
            read[1].clone(),
        )
    };
    assert_eq!(
        link,
        json!(format!("https://{}/#challenge={mine}", server.addr)),
        "the link a phone takes it from"
    );
    an.send(ClientMsg::AcceptChallenge(mine)).await;
    assert!(matches!(ended(&mut an, mine).await, ChallengeEnd::Accepted { by, .. } if by == "~An"));
    // The form's last choices: caro, as the first challenge was.
    page.wait_for("#board .cell").await;

    phone.close().await;
    page.close().await;
    server.stop().await;
}

#[tokio::test]
async fn an_account_challenges_the_server_s_bot_rated_and_plays_it() {
    let server = TestServer::start().await;
    let page = Browser::open(server.addr, PHONE).await;
    page.goto("/").await;
    page.type_into("#name", "Mai").await;
    page.type_into("#password", "a long enough password").await;
    page.click("#register").await;
    page.click("#connect").await;
    page.wait_for("#btn-people").await;

    // The server's bot is challenged by its name, rated as between accounts (and bots).
    page.click("#btn-people").await;
    page.click(".person[data-name=\"Bot (easy)\"] .challenge")
        .await;
    page.wait_for("#challenge-form #c-rated").await;
    assert_eq!(
        page.js("return document.querySelector('#c-rated').value", vec![])
            .await,
        json!("rated")
    );
    page.select("#c-game", "xiangqi").await;
    page.click("#dlg-challenge-submit").await;
    // It takes it at once: a room with the bot in seat two, the page Red.
    page.wait_for("#board .xq-points").await;
    page.wait_text("#players", "Bot (easy)").await;
    page.wait_text("#status", "Your move").await;
    fits(&page, "the room").await;

    page.close().await;
    server.stop().await;
}
