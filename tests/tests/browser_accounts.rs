//! Accounts in the browser page: register, log out, log in again, a wrong password
//! refused with a sentence, the password changed; all in a real headless Chromium.

use banco_tests::TestServer;
use banco_tests::browser::{Browser, PHONE};

const PASSWORD: &str = "xanh-lá-cây-8";

/// Fills the start page's form; `register` ticks "register this name".
async fn log_in(page: &Browser, name: &str, password: &str, register: bool) {
    page.goto("/").await;
    page.type_into("#name", name).await;
    page.type_into("#password", password).await;
    let ticked = page
        .js("return document.getElementById('register').checked", vec![])
        .await;
    if ticked.as_bool() != Some(register) {
        page.click("#register").await;
    }
    page.click("#connect").await;
}

#[tokio::test]
async fn a_browser_registers_logs_out_logs_in_and_a_wrong_password_is_refused() {
    let server = TestServer::start().await;
    let page = Browser::open(server.addr, PHONE).await;

    // Registering too short a password is refused before anything is sent.
    log_in(&page, "Lan", "short", true).await;
    page.wait_text("#connect-error", "8 to 128 characters")
        .await;

    log_in(&page, "Lan", PASSWORD, true).await;
    page.wait_for("#btn-create").await;
    page.wait_text("#who", "Lan @").await;
    page.wait_text("#who", "(account)").await;
    assert!(
        !page.text_of("#who").await.contains('~'),
        "an account plays under its own name, not a guest's"
    );

    // Out, and back to the start page.
    page.click("#btn-logout").await;
    page.wait_for("#connect-form").await;
    page.wait_text("#notice", "Logged out").await;

    // A guest may not take the registered name.
    log_in(&page, "Lan", "", false).await;
    page.wait_text(
        "#connect-error",
        "Lan is a registered name: log in with its password",
    )
    .await;

    // The wrong password: refused with a sentence, still at the start page.
    log_in(&page, "Lan", "not-the-password", false).await;
    page.wait_text("#connect-error", "Wrong name or password: check both")
        .await;
    page.wait_for("#connect-form").await;

    // Registering the name again is refused too.
    log_in(&page, "Lan", PASSWORD, true).await;
    page.wait_text("#connect-error", "Lan is already registered")
        .await;

    // The right one lets her in.
    log_in(&page, "Lan", PASSWORD, false).await;
    page.wait_for("#btn-create").await;
    page.wait_text("#who", "(account)").await;

    // "My info": the account's profile, or the server's sentence when it has none yet.
    page.click("#btn-profile").await;
    page.wait_js(
        "the profile or the reason there is none",
        "(document.getElementById('profile-name') || {}).textContent === 'Lan' \
         || document.getElementById('notice').textContent.includes('Lan has played here')",
        vec![],
    )
    .await;

    // A new password: the old one is asked for, and the two new ones must agree.
    page.click("#btn-password").await;
    page.type_into("#pw-old", PASSWORD).await;
    page.type_into("#pw-new", "mật-khẩu-mới-9").await;
    page.type_into("#pw-again", "something-else").await;
    page.click("#dlg-password-submit").await;
    page.wait_text("#dialog-error", "differ").await;
    page.type_into("#pw-old", "wrong-old-password").await;
    page.type_into("#pw-again", "mật-khẩu-mới-9").await;
    page.click("#dlg-password-submit").await;
    page.wait_text("#dialog-error", "That is not your current password")
        .await;
    page.type_into("#pw-old", PASSWORD).await;
    page.click("#dlg-password-submit").await;
    page.wait_text("#notice", "Your password was changed").await;

    // The new password is the one that works now.
    page.click("#btn-logout").await;
    page.wait_for("#connect-form").await;
    log_in(&page, "Lan", PASSWORD, false).await;
    page.wait_text("#connect-error", "Wrong name or password: check both")
        .await;
    log_in(&page, "Lan", "mật-khẩu-mới-9", false).await;
    page.wait_for("#btn-create").await;

    page.close().await;
    server.stop().await;
}

#[tokio::test]
async fn a_guest_plays_under_the_marked_name() {
    let server = TestServer::start().await;
    let page = Browser::open(server.addr, PHONE).await;
    page.enter("Minh").await;
    page.wait_text("#who", "~Minh @").await;
    page.wait_text("#who", "(guest").await;
    assert!(
        page.js("return !document.getElementById('btn-password')", vec![])
            .await
            .as_bool()
            .unwrap_or(false),
        "a guest has no password to change"
    );
    page.close().await;
    server.stop().await;
}

#[tokio::test]
async fn an_account_not_kept_logged_in_types_its_password_again_and_takes_its_seat_back() {
    let server = TestServer::start().await;
    let page = Browser::open(server.addr, PHONE).await;
    // "Stay logged in" unticked: nothing of the login is kept (a shared machine).
    page.goto("/").await;
    page.type_into("#name", "Mai").await;
    page.type_into("#password", PASSWORD).await;
    page.click("#register").await;
    page.click("#stay").await;
    page.click("#connect").await;
    page.wait_for("#btn-create").await;
    page.click("#btn-create").await;
    page.click("#dlg-create-submit").await;
    page.wait_for("#board .cell").await;
    let mut binh = server.connect("Bình").await;
    let rooms = binh.rooms_until(|rooms| !rooms.is_empty()).await;
    binh.join(rooms[0].id).await;
    binh.game_started().await;
    page.wait_text("#status", "Your move").await;
    page.click(".cell[data-point=\"h8\"]").await;
    binh.saw(7, 7).await;

    // Neither the password nor a token is kept, so the page asks for it again.
    page.reload().await;
    page.wait_text("#connect-form", "Type your password to log in again")
        .await;
    let name = page
        .js("return document.getElementById('name').value", vec![])
        .await;
    assert_eq!(name, serde_json::json!("Mai"));
    let stored = page
        .js(
            "return JSON.stringify({...localStorage}) + JSON.stringify({...sessionStorage})",
            vec![],
        )
        .await;
    assert!(
        !stored.as_str().unwrap_or_default().contains(PASSWORD),
        "the password is stored in the browser: {stored}"
    );
    page.type_into("#password", PASSWORD).await;
    page.click("#connect").await;
    // Back in the same seat, the game as it was: Bình to move.
    page.wait_for(".cell[data-point=\"h8\"] .stone.x").await;
    page.wait_text("#players", "Mai (you)").await;
    binh.play(0, 0).await;
    binh.saw(0, 0).await;
    page.wait_text("#status", "Your move").await;
    page.close().await;
    server.stop().await;
}
