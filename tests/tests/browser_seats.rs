//! Seats that come back, in a real headless Chromium: an account stays logged in
//! through a reload (a token in the browser's storage, never the password) until it logs
//! out, and a token logged out is refused with a sentence; a guest's new window takes
//! the seat back instead of becoming `~An 2`, and the window it left says what happened
//! and how to take it back; a server going down is said, with its reason.

use serde_json::json;

use banco_tests::TestServer;
use banco_tests::browser::{Browser, PHONE};

const PASSWORD: &str = "xanh-lá-cây-8";

fn cell(name: &str) -> String {
    format!(".cell[data-point=\"{name}\"]")
}

/// What the page keeps in the browser's storage, as one text.
async fn stored(page: &Browser) -> String {
    page.js(
        "return JSON.stringify({...localStorage}) + JSON.stringify({...sessionStorage})",
        vec![],
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

#[tokio::test]
async fn an_account_stays_logged_in_through_a_reload_until_it_logs_out() {
    let server = TestServer::start().await;
    let page = Browser::open(server.addr, PHONE).await;
    page.goto("/").await;
    page.type_into("#name", "Mai").await;
    page.type_into("#password", PASSWORD).await;
    page.click("#register").await;
    // "Stay logged in" is ticked unless unticked.
    assert_eq!(
        page.js("return document.getElementById('stay').checked", vec![])
            .await,
        json!(true)
    );
    page.click("#connect").await;
    page.wait_text("#who", "(account)").await;
    page.click("#btn-create").await;
    page.click("#dlg-create-submit").await;
    page.wait_for("#board .cell").await;
    let mut binh = server.connect("Bình").await;
    let rooms = binh.rooms_until(|rooms| !rooms.is_empty()).await;
    binh.join(rooms[0].id).await;
    binh.game_started().await;
    page.wait_text("#status", "Your move").await;
    page.click(&cell("h8")).await;
    binh.saw(7, 7).await;

    // A reload: straight back into the seat, nothing typed, the password kept nowhere.
    page.reload().await;
    page.wait_for(&format!("{} .stone.x", cell("h8"))).await;
    page.wait_text("#players", "Mai (you)").await;
    page.wait_text("#who", "(account)").await;
    let kept = stored(&page).await;
    assert!(!kept.contains(PASSWORD), "the password is stored: {kept}");
    assert!(kept.contains("banco.login"), "no login kept: {kept}");
    binh.play(0, 0).await;
    binh.saw(0, 0).await;
    page.wait_text("#status", "Your move").await;

    // Log out (the game is on: leaving loses it, and the page says so first).
    let login = page
        .js("return localStorage.getItem('banco.login')", vec![])
        .await;
    page.click("#btn-logout").await;
    page.click("#dlg-yes").await;
    page.wait_for("#connect-form").await;
    page.wait_text("#notice", "Logged out").await;
    assert!(
        !stored(&page).await.contains("banco.login"),
        "the login is forgotten"
    );
    binh.game_over().await;

    // The token logged out is refused, with a sentence: log in with the password.
    page.js(
        "localStorage.setItem('banco.login', arguments[0])",
        vec![login],
    )
    .await;
    page.reload().await;
    page.wait_text("#connect-error", "The saved login for Mai has ended")
        .await;
    page.wait_text("#connect-error", "log in with the password")
        .await;
    assert!(
        !stored(&page).await.contains("banco.login"),
        "a refused login is forgotten"
    );
    page.close().await;
    server.stop().await;
}

#[tokio::test]
async fn a_guest_s_new_window_takes_the_seat_back_and_the_old_one_says_how_to() {
    let server = TestServer::start().await;
    let page = Browser::open(server.addr, PHONE).await;
    page.enter("An").await;
    page.click("#btn-create").await;
    page.click("#dlg-create-submit").await;
    page.wait_for("#board .cell").await;
    let mut binh = server.connect("Bình").await;
    let rooms = binh.rooms_until(|rooms| !rooms.is_empty()).await;
    binh.join(rooms[0].id).await;
    binh.game_started().await;
    page.wait_text("#status", "Your move").await;
    page.click(&cell("h8")).await;
    binh.saw(7, 7).await;

    // A new window of the same browser: the same guest, in the same seat.
    let first = page.new_window().await;
    page.goto("/").await;
    page.wait_for(&format!("{} .stone.x", cell("h8"))).await;
    page.wait_text("#players", "~An (you)").await;
    assert!(
        !page.text_of("#who").await.contains("~An 2"),
        "a second guest under the name"
    );
    let second = page.window().await;

    // The first window says what happened and how to get the seat back.
    page.switch_to(first).await;
    page.wait_for("#taken").await;
    page.wait_text("#taken", "Take the seat back here").await;
    page.wait_text("#taken", "Another window").await;
    page.click("#btn-take-back").await;
    page.wait_for(&format!("{} .stone.x", cell("h8"))).await;
    page.wait_text("#players", "~An (you)").await;
    binh.play(0, 0).await;
    binh.saw(0, 0).await;
    page.wait_text("#status", "Your move").await;

    // ...and the second one lets go of it, saying so.
    page.switch_to(second).await;
    page.wait_for("#btn-take-back").await;
    page.close().await;
    server.stop().await;
}

#[tokio::test]
async fn a_server_going_down_is_said_with_its_reason() {
    let server = TestServer::start().await;
    let page = Browser::open(server.addr, PHONE).await;
    page.enter("An").await;
    server.stop().await;
    page.wait_text("#notice", "the server is shutting down")
        .await;
    page.wait_text("#notice", "reconnecting").await;
    page.close().await;
}
