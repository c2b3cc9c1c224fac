//! The browser client end to end: a real headless Chromium (WebDriver) on the page the
//! server serves, playing against other browsers, a protocol client (what the terminal
//! client speaks) and the bot. Fails with a sentence naming what to install when
//! Chromium or chromedriver is missing.

use serde_json::json;

use banco_protocol::{ClientMsg, ServerMsg};
use banco_tests::browser::{Browser, DESKTOP, PHONE};
use banco_tests::{TestServer, caro};

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
    assert!(matches!(line, ServerMsg::Chat(l) if l.text == "chào Bình" && l.from == "~An"));
    terminal.send(ClientMsg::Chat("hi An".into())).await;
    page.wait_text("#chat-log", "hi An").await;

    page.close().await;
    server.stop().await;
}

/// A browser's room number, read from its title.
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

/// Clicks the caro point `name` once it is this page's turn.
async fn place(page: &Browser, name: &str) {
    page.wait_text("#status", "Your move").await;
    page.click(&cell(name)).await;
    page.wait_js(
        &format!("a stone on {name}"),
        "document.querySelector(arguments[0] + ' .stone')",
        vec![json!(cell(name))],
    )
    .await;
}

#[tokio::test]
async fn two_browsers_play_caro_to_five_with_chat_and_an_undo_declined_then_accepted() {
    let server = TestServer::start().await;
    let an = Browser::open(server.addr, DESKTOP).await;
    let binh = Browser::open(server.addr, DESKTOP).await;
    an.enter("An").await;
    binh.enter("Bình").await;
    an.click("#btn-create").await;
    an.click("#dlg-create-submit").await;
    an.wait_for("#board .cell").await;
    let room = room_number(&an).await;
    binh.click(&format!(".room-row[data-room=\"{room}\"] .join"))
        .await;
    binh.wait_for("#board .cell").await;

    place(&an, "h8").await;
    place(&binh, "a1").await;
    place(&an, "i8").await;

    // An asks to take i8 back: Bình says no, then yes.
    an.click("#btn-undo").await;
    binh.wait_for("[data-dialog=\"offer\"]").await;
    binh.click("#dlg-no").await;
    an.wait_text("#notice", "declined the undo").await;
    an.click("#btn-undo").await;
    binh.wait_for("[data-dialog=\"offer\"]").await;
    binh.click("#dlg-yes").await;
    an.wait_text("#moves-title", "(2)").await;
    binh.wait_js(
        "i8 taken back",
        "!document.querySelector(arguments[0] + ' .stone')",
        vec![json!(cell("i8"))],
    )
    .await;

    // Chat, in both directions.
    binh.type_into("#chat-input", "good luck").await;
    binh.click("#chat-send").await;
    an.wait_text("#chat-log", "good luck").await;
    an.type_into("#chat-input", "cảm ơn").await;
    an.click("#chat-send").await;
    binh.wait_text("#chat-log", "cảm ơn").await;

    // Five in a row for An.
    for (mine, theirs) in [("i8", "a2"), ("j8", "a3"), ("k8", "a4")] {
        place(&an, mine).await;
        place(&binh, theirs).await;
    }
    place(&an, "l8").await;
    an.wait_for("[data-dialog=\"game-over\"]").await;
    an.wait_text(".dialog", "You won!").await;
    binh.wait_text(".dialog", "You lost.").await;
    binh.wait_text(".dialog", "Five in a row").await;
    assert_eq!(
        an.js(
            "return document.querySelectorAll('.cell.win').length",
            vec![]
        )
        .await,
        json!(5),
        "the winning line is lit"
    );
    an.close().await;
    binh.close().await;
    server.stop().await;
}

#[tokio::test]
async fn xiangqi_marks_check_and_an_illegal_move_is_refused_with_its_reason() {
    let server = TestServer::start().await;
    let page = Browser::open(server.addr, DESKTOP).await;
    page.enter("An").await;
    // A set position: Red's rook can check along the d file; Black's general escapes.
    page.click("#btn-create").await;
    page.select("#c-game", "xiangqi").await;
    page.type_into("#c-fen", "3k5/4a4/9/9/9/9/9/9/4R4/4K4 w - - 0 1")
        .await;
    page.click("#dlg-create-submit").await;
    page.wait_for(".xq-pt").await;
    let room = room_number(&page).await;
    let mut black = server.connect("Khoa").await;
    black.join(room).await;
    page.wait_text("#status", "Your move").await;

    // The rook's targets come from the server; a diagonal step is refused with why.
    page.click(".xq-pt[data-square=\"e1\"]").await;
    page.wait_js(
        "the rook's targets",
        "document.querySelectorAll('.xq-pt.target').length > 5",
        vec![],
    )
    .await;
    assert_eq!(
        page.js("return document.querySelector('.xq-pt[data-square=\"f2\"]').classList.contains('target')", vec![]).await,
        json!(false)
    );
    page.click(".xq-pt[data-square=\"f2\"]").await;
    page.wait_js(
        "an error notice",
        "document.querySelector('#notice.error')",
        vec![],
    )
    .await;
    let notice = page.text_of("#notice").await;
    assert!(
        notice.contains("cannot go from e1 to f2"),
        "the reason is shown: {notice}"
    );

    // Check: the move list says +, the status says so, the black general is marked.
    page.click(".xq-pt[data-square=\"e1\"]").await;
    page.click(".xq-pt[data-square=\"d1\"]").await;
    let (record, _) = black.moved_xq().await;
    assert!(record.check);
    page.wait_text("#status", "Check!").await;
    page.wait_for(".xq-pt.check[data-square=\"d9\"]").await;
    page.wait_text("#moves", "+").await;
    black.play_xq("d9e9").await;
    black.moved_xq().await;
    page.wait_text("#status", "Your move").await;
    assert!(!page.text_of("#status").await.contains("Check!"));
    page.close().await;
    server.stop().await;
}

#[tokio::test]
async fn a_browser_plays_the_bot_and_gets_a_hint() {
    let server = TestServer::start().await;
    let page = Browser::open(server.addr, DESKTOP).await;
    page.enter("An").await;
    page.click("#btn-create").await;
    page.type_into("#c-width", "9").await;
    page.type_into("#c-height", "9").await;
    page.select("#c-players", "me_bot").await;
    page.select("#c-bot-one", "Easy").await;
    page.click("#dlg-create-submit").await;
    page.wait_for("#board .cell").await;
    page.wait_text("#players", "Bot (easy)").await;
    for i in 0..3 {
        // The bot plays where it likes: take the first of these points still free.
        page.wait_text("#status", "Your move").await;
        let free = page
            .js(
                "return ['e5', 'a1', 'i9', 'a9', 'i1', 'b2'].find(p => \
                 !document.querySelector(`.cell[data-point=\"${p}\"] .stone`))",
                vec![],
            )
            .await;
        let point = free.as_str().expect("a free point").to_string();
        place(&page, &point).await;
        page.wait_js(
            "the bot's answer",
            "document.querySelectorAll('.stone.o').length === arguments[0]",
            vec![json!(i + 1)],
        )
        .await;
    }
    page.wait_text("#status", "Your move").await;
    page.click("#btn-hint").await;
    page.wait_text("#notice", "The engine suggests").await;
    page.wait_for(".cell.hint").await;
    page.close().await;
    server.stop().await;
}

#[tokio::test]
async fn a_reload_mid_game_takes_the_seat_back() {
    let server = TestServer::start().await;
    let mut terminal = server.connect("Bình").await;
    let (room, _) = terminal.create(caro(15)).await;
    let page = Browser::open(server.addr, DESKTOP).await;
    page.enter("An").await;
    page.click(&format!(".room-row[data-room=\"{room}\"] .join"))
        .await;
    terminal.game_started().await;
    terminal.play(7, 7).await;
    terminal.saw(7, 7).await;
    place(&page, "i9").await;
    terminal.saw(8, 6).await;
    terminal.play(6, 6).await;
    terminal.saw(6, 6).await;

    page.reload().await;
    // The page comes back by itself with this tab's resume token: same seat, same game.
    page.wait_for("#board .cell").await;
    page.wait_text("#players", "An (you)").await;
    page.wait_text("#moves-title", "(3)").await;
    place(&page, "j10").await;
    terminal.saw(9, 5).await;
    let names: Vec<String> = page
        .js(
            "return [...document.querySelectorAll('#players .name')].map(e => e.textContent)",
            vec![],
        )
        .await
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert!(names.iter().any(|n| n.starts_with("~An")) && !names.iter().any(|n| n.contains("An-")));
    page.close().await;
    server.stop().await;
}

#[tokio::test]
async fn a_phone_sized_page_shows_both_boards_without_sideways_scrolling() {
    let server = TestServer::start().await;
    let page = Browser::open(server.addr, PHONE).await;
    page.enter("An").await;
    let no_sideways = "document.documentElement.scrollWidth <= window.innerWidth \
        && document.querySelector(arguments[0]).getBoundingClientRect().right <= window.innerWidth";
    page.wait_js("the lobby to fit", no_sideways, vec![json!("#btn-create")])
        .await;

    page.click("#btn-create").await;
    page.click("#dlg-create-submit").await;
    page.wait_for("#board .cell").await;
    assert_eq!(
        page.js("return window.innerWidth", vec![]).await,
        json!(360)
    );
    page.wait_js(
        "the caro board to fit",
        no_sideways,
        vec![json!(".caro-grid")],
    )
    .await;
    page.wait_js(
        "the last column on screen",
        no_sideways,
        vec![json!(".cell[data-point=\"o1\"]")],
    )
    .await;
    page.click("#btn-leave").await;
    page.click("#dlg-yes").await;

    page.click("#btn-create").await;
    page.select("#c-game", "xiangqi").await;
    page.click("#dlg-create-submit").await;
    page.wait_for(".xq-pt").await;
    page.wait_js(
        "the xiangqi board to fit",
        no_sideways,
        vec![json!(".xq-board")],
    )
    .await;
    page.close().await;
    server.stop().await;
}
