//! What the play-through tripped over in the page, each in a real headless Chromium: the
//! status line that went stale, chat missed on a phone, a bad FEN in the editor, zoom
//! carried to the next room, xiangqi pieces without a Chinese font, the change-password
//! button's label, "Check!", who plays in words (remembered), aborted games, and the
//! caro five that does not win.

use serde_json::json;

use banco_tests::TestServer;
use banco_tests::browser::{Browser, DESKTOP, PHONE};

const XQ_CHECK_IN_ONE: &str = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";

fn cell(name: &str) -> String {
    format!(".cell[data-point=\"{name}\"]")
}

fn square(name: &str) -> String {
    format!(".xq-pt[data-square=\"{name}\"]")
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

/// The status line, as shown.
async fn notice(page: &Browser) -> String {
    page.text_of("#notice").await
}

#[tokio::test]
async fn the_status_line_belongs_to_its_moment_and_screen_and_chat_reaches_a_phone() {
    let server = TestServer::start().await;
    let page = Browser::open(server.addr, PHONE).await;
    page.enter("An").await;
    page.click("#btn-create").await;
    page.click("#dlg-create-submit").await;
    page.wait_for("#board .cell").await;
    let mut binh = server.connect("Bình").await;
    binh.join(room_number(&page).await).await;
    binh.game_started().await;
    page.wait_text("#status", "Your move").await;
    page.click(&cell("h8")).await;
    binh.saw(7, 7).await;

    // A word about this moment of the game...
    page.click(&cell("a1")).await;
    page.wait_text("#notice", "Not your turn").await;
    // ...goes when the game moves on.
    binh.play(0, 0).await;
    binh.saw(0, 0).await;
    page.wait_js(
        "the stale notice gone",
        "!document.getElementById('notice').textContent.includes('Not your turn')",
        vec![],
    )
    .await;

    // Chat on a phone, the chat box out of sight below the board: a badge and a toast.
    page.js("window.scrollTo(0, 0)", vec![]).await;
    binh.send(banco_protocol::ClientMsg::Chat("xin chào".into()))
        .await;
    page.wait_js(
        "the chat badge",
        "(b => b && !b.hidden && b.textContent.includes('1'))(document.getElementById('chat-badge'))",
        vec![],
    )
    .await;
    page.wait_text("#toast", "Bình: xin chào").await;
    page.click("#chat-badge").await;
    page.wait_js(
        "the chat in sight and the badge gone",
        "document.getElementById('chat-badge').hidden \
         && document.getElementById('chat-log').getBoundingClientRect().top < window.innerHeight",
        vec![],
    )
    .await;
    page.wait_text("#chat-log", "xin chào").await;

    // A word about the room does not follow the player into the lobby.
    page.js("window.scrollTo(0, 0)", vec![]).await;
    page.click(&cell("h8")).await;
    page.wait_text("#notice", "taken").await;
    page.click("#btn-leave").await;
    page.click("#dlg-yes").await;
    page.wait_for("#btn-create").await;
    page.click("#btn-leaderboard").await;
    page.wait_for("#lb-caro").await;
    assert!(
        !notice(&page).await.contains("taken"),
        "the room's notice followed into the leaderboard"
    );
    page.close().await;
    server.stop().await;
}

#[tokio::test]
async fn zoom_stays_with_its_room_and_who_plays_is_said_in_words_and_remembered() {
    let server = TestServer::start().await;
    let page = Browser::open(server.addr, PHONE).await;
    page.enter("An").await;

    // Who plays, in words; a bot's level beside it when one plays.
    page.click("#btn-create").await;
    page.wait_text("#c-players", "me against a bot").await;
    page.wait_text("#c-players", "two bots, I watch").await;
    page.type_into("#c-width", "25").await;
    page.type_into("#c-height", "25").await;
    page.select("#c-players", "me_bot").await;
    // The seven levels, weakest first, each with its place on the ladder.
    let offered = page
        .js(
            "return [...document.querySelectorAll('#c-bot-one option')].map(o => [o.value, o.textContent])",
            vec![],
        )
        .await;
    assert_eq!(
        offered,
        json!([
            ["Easy", "easy (1/7)"],
            ["Casual", "casual (2/7)"],
            ["Medium", "medium (3/7)"],
            ["Advanced", "advanced (4/7)"],
            ["Hard", "hard (5/7)"],
            ["Expert", "expert (6/7)"],
            ["Max", "max (7/7)"]
        ])
    );
    page.select("#c-bot-one", "Expert").await;
    page.click("#dlg-create-submit").await;
    page.wait_for("#btn-zoom-in").await;
    page.click("#btn-zoom-in").await;
    page.click("#btn-zoom-in").await;
    page.wait_js(
        "the board zoomed",
        "document.querySelector('.caro-grid').style.getPropertyValue('--zoom') > 1.5",
        vec![],
    )
    .await;
    page.click("#btn-leave").await;
    page.click("#dlg-yes").await;
    page.wait_for("#btn-create").await;

    // The next room's form starts from the last choices.
    page.click("#btn-create").await;
    let chosen = page
        .js(
            "return ['c-players', 'c-bot-one', 'c-width'].map(id => document.getElementById(id).value)",
            vec![],
        )
        .await;
    assert_eq!(chosen, json!(["me_bot", "Expert", "25"]));
    page.type_into("#c-width", "15").await;
    page.type_into("#c-height", "15").await;
    page.select("#c-players", "me_person").await;
    page.click("#dlg-create-submit").await;
    page.wait_for("#board .cell").await;
    // A 15x15 room has no zoom buttons: it must not start zoomed, nor overflow.
    page.wait_js(
        "the new board at its own size, fitting the phone",
        "document.querySelector('.caro-grid').style.getPropertyValue('--zoom') == 1 \
         && document.documentElement.scrollWidth <= window.innerWidth \
         && document.querySelector('.caro-grid').getBoundingClientRect().right <= window.innerWidth",
        vec![],
    )
    .await;
    page.close().await;
    server.stop().await;
}

#[tokio::test]
async fn xiangqi_pieces_read_without_a_chinese_font_and_check_is_said() {
    let server = TestServer::start().await;
    let page = Browser::open(server.addr, DESKTOP).await;
    page.enter("An").await;
    page.click("#btn-create").await;
    page.select("#c-game", "xiangqi").await;
    page.type_into("#c-fen", XQ_CHECK_IN_ONE).await;
    page.click("#dlg-create-submit").await;
    page.wait_for(&format!("{} .piece", square("a0"))).await;

    // The pieces' characters come from the page's own font (this machine has no
    // Chinese one): loaded, and drawn with glyphs, not empty boxes.
    page.wait_js(
        "the xiangqi font loaded",
        "[...document.fonts].some(f => f.family.replace(/\"/g, '') === 'banco xiangqi' && f.status === 'loaded')",
        vec![],
    )
    .await;
    let inked = page
        .js_async(
            "const done = arguments[arguments.length - 1];
             document.fonts.ready.then(() => {
               const c = document.createElement('canvas');
               c.width = 64; c.height = 64;
               const g = c.getContext('2d');
               // Two pieces' glyphs: drawn from the font they differ (as empty boxes
               // they would be the same).
               const ink = (text, family) => {
                 g.clearRect(0, 0, 64, 64);
                 g.font = `600 48px ${family}`;
                 g.fillText(text, 4, 52);
                 const d = g.getImageData(0, 0, 64, 64).data;
                 let n = 0;
                 for (let i = 3; i < d.length; i += 4) if (d[i] > 128) n++;
                 return n;
               };
               done([ink('帥', \"'banco xiangqi'\"), ink('俥', \"'banco xiangqi'\")]);
             });",
            vec![],
        )
        .await;
    let ink: Vec<u64> = serde_json::from_value(inked).expect("two ink counts");
    assert!(ink[0] > 150 && ink[1] > 150, "the pieces have ink: {ink:?}");
    assert_ne!(ink[0], ink[1], "two pieces look the same: boxes? {ink:?}");

    // Check! is said in the status line, not only ringed on the board.
    let mut binh = server.connect("Bình").await;
    binh.join(room_number(&page).await).await;
    binh.game_started().await;
    page.wait_text("#status", "Your move").await;
    page.click(&square("a0")).await;
    page.click(&square("a9")).await;
    page.wait_text("#status", "Check!").await;
    page.wait_text("#notice", "Check! ~An (Red) played R9+9")
        .await;
    page.close().await;
    server.stop().await;
}

#[tokio::test]
async fn a_bad_fen_in_the_editor_changes_nothing_and_says_why_beside_the_field() {
    let server = TestServer::start().await;
    let page = Browser::open(server.addr, PHONE).await;
    page.enter("An").await;
    page.click("#btn-create").await;
    page.select("#c-game", "xiangqi").await;
    page.click("#c-arrange").await;
    page.wait_for("#editor-fen-in").await;
    page.wait_js(
        "the start position judged",
        "document.querySelectorAll('#board .piece').length === 32 \
         && document.getElementById('editor-status').classList.contains('ok')",
        vec![],
    )
    .await;
    page.type_into("#editor-fen-in", "rnbakabnr/9/1c5c1/xyz w")
        .await;
    page.click("#editor-fen-load").await;
    page.wait_text("#editor-fen-error", "cannot be played")
        .await;
    assert_eq!(
        page.js(
            "return document.querySelectorAll('#board .piece').length",
            vec![]
        )
        .await,
        json!(32),
        "the board changed"
    );
    assert!(
        !page.text_of("#editor-status").await.contains("Checking"),
        "the editor is stuck checking"
    );
    // A good one loads.
    page.type_into("#editor-fen-in", XQ_CHECK_IN_ONE).await;
    page.click("#editor-fen-load").await;
    page.wait_js(
        "the new position",
        "document.querySelectorAll('#board .piece').length === 3 \
         && document.getElementById('editor-fen-error').textContent === ''",
        vec![],
    )
    .await;
    page.close().await;
    server.stop().await;
}

#[tokio::test]
async fn aborted_games_read_as_aborted_and_a_five_that_does_not_win_says_why() {
    let server = TestServer::start().await;
    let page = Browser::open(server.addr, PHONE).await;
    page.enter("An").await;
    page.click("#btn-create").await;
    page.click("#dlg-create-submit").await;
    page.wait_for("#board .cell").await;
    let mut binh = server.connect("Bình").await;
    binh.join(room_number(&page).await).await;
    binh.game_started().await;
    page.wait_text("#status", "Your move").await;

    // Resigning before both players moved aborts: the dialog says so, and the result.
    page.click("#btn-resign").await;
    page.wait_text("#dlg-title", "Abort the game?").await;
    page.wait_text(".dialog-body", "Nobody wins").await;
    page.click("#dlg-yes").await;
    page.wait_text(".dialog-body", "Game aborted (before both players moved)")
        .await;
    assert!(
        !page.text_of(".dialog-body").await.contains("Draw"),
        "an aborted game read as a draw"
    );
    page.click("#dlg-look").await;
    page.wait_text("#status", "Game aborted (before both players moved)")
        .await;
    assert!(
        page.js("return !document.querySelector('#players .series')", vec![])
            .await
            .as_bool()
            .unwrap_or(false),
        "an aborted game counted in the series"
    );

    // A rematch; a five blocked at both ends under the caro rule: no win, and why.
    page.click("#btn-newgame").await;
    binh.recv_until(|m| matches!(m, banco_protocol::ServerMsg::Offered(_)))
        .await;
    binh.send(banco_protocol::ClientMsg::Answer {
        kind: banco_protocol::OfferKind::NewGame,
        accept: true,
    })
    .await;
    binh.game_started().await;
    // Whoever moves first in the rematch, An plays the line on her turns, Bình the
    // stones that block it at both ends (and others) on his.
    page.wait_js(
        "the rematch begun",
        "!document.getElementById('status').textContent.includes('aborted')",
        vec![],
    )
    .await;
    let an_first = page.text_of("#status").await.contains("Your move");
    let (an, binh_stones): (Vec<&str>, Vec<(u8, u8)>) = (
        vec!["d8", "e8", "f8", "g8", "h8"],
        vec![(2, 7), (8, 7), (0, 0), (0, 1), (0, 2)],
    );
    let mut turn_an = an_first;
    let (mut i, mut j) = (0, 0);
    while i < an.len() {
        if turn_an {
            page.wait_text("#status", "Your move").await;
            page.click(&cell(an[i])).await;
            let (_, _) = binh.moved().await;
            i += 1;
        } else {
            let (x, y) = binh_stones[j];
            binh.play(x, y).await;
            binh.saw(x, y).await;
            j += 1;
        }
        turn_an = !turn_an;
    }
    page.wait_text(
        "#notice",
        "a five blocked at both ends does not win under the caro rule",
    )
    .await;
    page.close().await;
    server.stop().await;
}

#[tokio::test]
async fn the_change_password_dialog_says_what_its_button_does() {
    let server = TestServer::start().await;
    let page = Browser::open(server.addr, PHONE).await;
    page.goto("/").await;
    page.type_into("#name", "Lan").await;
    page.type_into("#password", "xanh-lá-cây-8").await;
    page.click("#register").await;
    page.click("#connect").await;
    page.wait_text("#who", "(account)").await;
    page.click("#btn-password").await;
    page.wait_for("#dlg-password-submit").await;
    assert_eq!(
        page.text_of("#dlg-password-submit").await,
        "Change password"
    );
    page.close().await;
    server.stop().await;
}
