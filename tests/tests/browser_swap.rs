//! Swap openings and renju in the browser page, in a real headless Chromium at 360 px:
//! a Swap2 room made from the create form, its opening played between the page and a
//! protocol client through the decision paths (the page proposes three stones and the
//! other player answers; the other proposes and the page places two more and lets them
//! choose; the page picks its colour from the keyboard), the banner saying what happens
//! and who acts, a reload mid-opening showing the same phase, the game going on after
//! each opening, the replay saying how the opening went; and a renju room where the
//! page draws × exactly on the points the server lists as forbidden to Black, and a
//! click on one shows the server's reason.
//!
//! The pictures it takes (`swap-*`, `renju-*`) are written over the committed ones in
//! `docs/src/screenshots/` only with `BANCO_SCREENSHOTS=1`.

use serde_json::json;
use std::path::PathBuf;

use banco_protocol::{
    ClientMsg, OfferKind, Point, Seat, ServerMsg, SwapChoice, SwapStage, SwapView,
};
use banco_tests::browser::{Browser, DESKTOP, PHONE};
use banco_tests::{Client, TempDir, TestServer};

/// Where the pictures go: the book's folder when asked, else a temporary one.
fn folder(temp: &TempDir) -> PathBuf {
    if std::env::var_os("BANCO_SCREENSHOTS").is_some_and(|v| v == "1") {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/src/screenshots")
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

/// The next swap update the client hears.
async fn swap(c: &mut Client) -> SwapView {
    match c.recv_until(|m| matches!(m, ServerMsg::Swap(_))).await {
        ServerMsg::Swap(view) => *view,
        _ => unreachable!(),
    }
}

/// The page places an opening stone on `name`; the client sees it as the last stone.
async fn page_places(page: &Browser, other: &mut Client, name: &str, at: (u8, u8)) -> SwapView {
    page.click(&cell(name)).await;
    let view = swap(other).await;
    assert_eq!(view.stones.last(), Some(&Point::new(at.0, at.1)));
    view
}

/// The stone the page shows on `name`: "x", "o" or "" for none.
async fn stone_on(page: &Browser, name: &str) -> String {
    page.js(
        "const s = document.querySelector(arguments[0] + ' .stone'); \
         return s ? (s.classList.contains('x') ? 'x' : 'o') : '';",
        vec![json!(cell(name))],
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// The decision buttons the page shows, by id.
async fn buttons(page: &Browser) -> Vec<String> {
    let ids = page
        .js(
            "return [...document.querySelectorAll('#swap-banner .swap-choices button')].map(b => b.id)",
            vec![],
        )
        .await;
    ids.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn a_swap2_room_from_the_page_plays_each_decision_path_and_then_the_game() {
    let server = TestServer::start().await;
    let temp = TempDir::new("swap-shots");
    let dir = folder(&temp);
    let page = Browser::open(server.addr, PHONE).await;
    page.enter("An").await;

    // The form offers the swap openings and renju, as the terminal's form does.
    page.click("#btn-create").await;
    page.wait_for("#c-opening option[value=\"swap2\"]").await;
    page.wait_for("#c-opening option[value=\"swap1\"]").await;
    page.wait_for("#c-rule option[value=\"Renju\"]").await;
    page.select("#c-rule", "Freestyle").await;
    page.select("#c-opening", "swap2").await;
    page.click("#dlg-create-submit").await;
    page.wait_for("#board .cell").await;
    let room = room_number(&page).await;
    page.wait_text(".room-title", "Swap2 opening").await;

    // Bình joins: An (the seat that moves first) proposes.
    let mut binh = server.connect("Bình").await;
    let view = binh.join(room).await;
    assert!(
        matches!(
            &view.settings.game,
            banco_protocol::GameSettings::Caro {
                opening: banco_protocol::CaroOpening::Swap2,
                rule: banco_protocol::Rule::Freestyle,
                ..
            }
        ),
        "the page asked for Swap2 under freestyle: {:?}",
        view.settings.game
    );
    let game = binh.game_started().await;
    assert_eq!(
        game.swap.as_ref().map(|s| (s.stage, s.proposer)),
        Some((SwapStage::Propose, Seat::One))
    );
    page.wait_text("#notice", "opens with a swap").await;
    page.wait_text(
        "#swap-banner",
        "Place the opening's three stones, X, O, X: stone 1 of 3 is X",
    )
    .await;
    assert!(
        buttons(&page).await.is_empty(),
        "no decision while stones are due"
    );
    // No hint or draft board while the opening is played.
    assert_eq!(
        page.js("return [document.querySelector('#btn-draft').disabled, document.querySelector('#btn-hint').disabled]", vec![]).await,
        json!([true, true])
    );
    // The colours are not decided yet.
    page.wait_text("#players .player[data-seat=\"one\"] .side", "?")
        .await;

    // Game 1: the page places three; a reload after two shows the same phase.
    page_places(&page, &mut binh, "h8", (7, 7)).await;
    page_places(&page, &mut binh, "i9", (8, 6)).await;
    page.wait_text("#swap-banner", "stone 3 of 3 is X").await;
    page.reload().await;
    page.wait_text("#swap-banner", "stone 3 of 3 is X").await;
    assert_eq!(stone_on(&page, "h8").await, "x");
    assert_eq!(stone_on(&page, "i9").await, "o");
    let answer = page_places(&page, &mut binh, "h10", (7, 5)).await;
    assert_eq!(answer.stage, SwapStage::Answer);
    // Bình's decision: the page (as anyone watching) is told what Bình chooses from.
    page.wait_text(
        "#swap-banner",
        "~Bình chooses: play White, play Black, or place two more.",
    )
    .await;
    assert!(buttons(&page).await.is_empty(), "the decision is Bình's");
    assert_eq!(stone_on(&page, "h10").await, "x");
    page.wait_for(&format!("{}.opening", cell("h10"))).await;
    page.screenshot(&dir.join("swap-waiting-phone.png")).await;
    // A stone now is refused with the server's sentence.
    page.click(&cell("a1")).await;
    page.wait_text("#notice", "Not your turn").await;
    binh.send(ClientMsg::Swap(SwapChoice::Black)).await;
    binh.game_started().await;
    // Bình took Black: An plays White (O) and moves first; the game is on.
    page.wait_text("#notice", "~Bình plays Black (X)").await;
    page.wait_text("#status", "Your move (O)").await;
    page.wait_js(
        "the banner gone",
        "document.querySelector('#swap-banner').hidden",
        vec![],
    )
    .await;
    page.wait_text(
        "#moves .swap-steps",
        "~An h8 (X), ~An i9 (O), ~An h10 (X), ~Bình: Black (X)",
    )
    .await;
    page.click(&cell("g9")).await;
    binh.saw(6, 6).await;
    binh.play(0, 0).await;
    page.wait_for(&format!("{} .stone.x", cell("a15"))).await;
    binh.send(ClientMsg::Resign).await;
    page.wait_for("[data-dialog=\"game-over\"]").await;

    // Game 2: a rematch, Bình proposes; the page places two more and Bình chooses.
    page.click("#dlg-rematch").await;
    binh.recv_until(|m| matches!(m, ServerMsg::Offered(_)))
        .await;
    binh.send(ClientMsg::Answer {
        kind: OfferKind::NewGame,
        accept: true,
    })
    .await;
    let game2 = binh.game_started().await;
    let proposer = game2.swap.as_ref().map(|s| s.proposer);
    assert_eq!(
        proposer,
        Some(Seat::Two),
        "the proposer alternates as the first move does"
    );
    page.wait_text(
        "#swap-banner",
        "~Bình places three stones, X, O, X (0 of 3 so far)",
    )
    .await;
    for (x, y) in [(7, 7), (8, 6), (7, 5)] {
        binh.play(x, y).await;
        swap(&mut binh).await;
    }
    page.wait_text(
        "#swap-banner",
        "Choose: play White, play Black, or place two more.",
    )
    .await;
    assert_eq!(
        buttons(&page).await,
        ["swap-white", "swap-black", "swap-place_two"]
    );
    page.screenshot(&dir.join("swap-choice-phone.png")).await;
    page.resize(DESKTOP).await;
    page.screenshot(&dir.join("swap-choice-desktop.png")).await;
    page.resize(PHONE).await;
    page.click("#swap-place_two").await;
    let extend = swap(&mut binh).await;
    assert_eq!(
        (extend.stage, extend.to_act),
        (SwapStage::Extend, Some(Seat::One))
    );
    page.wait_text(
        "#swap-banner",
        "Place two more stones, O then X: stone 1 of 2 is O",
    )
    .await;
    page_places(&page, &mut binh, "j6", (9, 9)).await;
    let choose = page_places(&page, &mut binh, "f6", (5, 9)).await;
    assert_eq!(choose.stage, SwapStage::Choose);
    page.wait_text("#swap-banner", "~Bình chooses a colour: White or Black.")
        .await;
    binh.send(ClientMsg::Swap(SwapChoice::White)).await;
    let started = binh.game_started().await;
    assert_eq!(started.opening.len(), 5);
    assert_eq!(started.first, Seat::Two, "Bình took White and moves first");
    page.wait_text("#status", "~Bình (O) to move").await;
    binh.play(0, 0).await;
    binh.saw(0, 0).await;
    page.wait_for(&format!("{} .stone.o", cell("a15"))).await;
    page.wait_text("#status", "Your move (X)").await;
    page.click(&cell("a1")).await;
    binh.saw(0, 14).await;
    binh.send(ClientMsg::Resign).await;
    page.wait_for("[data-dialog=\"game-over\"]").await;

    // Game 3: the page proposes, Bình places two more, and the page picks its colour
    // with the keyboard (b: Black).
    page.click("#dlg-rematch").await;
    binh.recv_until(|m| matches!(m, ServerMsg::Offered(_)))
        .await;
    binh.send(ClientMsg::Answer {
        kind: OfferKind::NewGame,
        accept: true,
    })
    .await;
    binh.game_started().await;
    page.wait_text("#swap-banner", "stone 1 of 3 is X").await;
    page_places(&page, &mut binh, "h8", (7, 7)).await;
    page_places(&page, &mut binh, "i9", (8, 6)).await;
    page_places(&page, &mut binh, "h10", (7, 5)).await;
    binh.send(ClientMsg::Swap(SwapChoice::PlaceTwo)).await;
    swap(&mut binh).await;
    page.wait_text(
        "#swap-banner",
        "~Bình places two more stones, O then X (0 of 2 so far)",
    )
    .await;
    for (x, y) in [(9, 9), (5, 9)] {
        binh.play(x, y).await;
        swap(&mut binh).await;
    }
    page.wait_text(
        "#swap-banner",
        "Choose your colour: play White or play Black.",
    )
    .await;
    assert_eq!(buttons(&page).await, ["swap-white", "swap-black"]);
    let white = page.wait_for("#swap-white").await;
    white.send_keys("b").await.expect("a key to the page");
    let decided = swap(&mut binh).await;
    assert_eq!(decided.x_seat, Some(Seat::One), "b took Black");
    page.wait_text("#status", "~Bình (O) to move").await;
    binh.play(0, 0).await;
    page.wait_text("#status", "Your move (X)").await;
    binh.send(ClientMsg::Resign).await;
    page.wait_for("[data-dialog=\"game-over\"]").await;

    // The replay of game 1 says how its opening went.
    page.click("#dlg-leave").await;
    page.click("#btn-history").await;
    page.wait_for("#history .replay").await;
    page.js(
        "[...document.querySelectorAll('#history .room-row')].find(r => r.textContent.includes('#1 ')).querySelector('.replay').click()",
        vec![],
    )
    .await;
    page.wait_text(
        "#rp-swap",
        "Opening: ~An h8 (X), ~An i9 (O), ~An h10 (X), ~Bình: Black (X)",
    )
    .await;
}

#[tokio::test]
async fn a_renju_room_draws_the_servers_forbidden_points_and_a_click_on_one_says_why() {
    let server = TestServer::start().await;
    let temp = TempDir::new("renju-shots");
    let dir = folder(&temp);
    let page = Browser::open(server.addr, PHONE).await;
    page.enter("An").await;
    page.click("#btn-create").await;
    page.select("#c-rule", "Renju").await;
    page.select("#c-opening", "none").await;
    page.click("#dlg-create-submit").await;
    page.wait_for("#board .cell").await;
    let room = room_number(&page).await;
    page.wait_text(".room-title", "renju").await;
    let mut binh = server.connect("Bình").await;
    binh.join(room).await;
    binh.game_started().await;

    // An (Black, X): f8 g8 i7 i6; Bình far away. i8 would then make two open threes.
    for (mine, (x, y), theirs, (ox, oy)) in [
        ("f8", (5, 7), "a15", (0, 0)),
        ("g8", (6, 7), "a13", (0, 2)),
        ("i7", (8, 8), "a11", (0, 4)),
        ("i6", (8, 9), "a9", (0, 6)),
    ] {
        page.wait_text("#status", "Your move (X)").await;
        page.click(&cell(mine)).await;
        binh.saw(x, y).await;
        // White to move: nothing is forbidden to White, and nothing is drawn.
        assert_eq!(
            page.js(
                "return document.querySelectorAll('.cell.forbidden').length",
                vec![]
            )
            .await,
            json!(0)
        );
        binh.play(ox, oy).await;
        binh.saw(ox, oy).await;
        page.wait_for(&format!("{} .stone.o", cell(theirs))).await;
    }
    // Black to move: the × stand exactly where the server says, with why.
    binh.send(ClientMsg::Facts).await;
    let facts = match binh.recv_until(|m| matches!(m, ServerMsg::Facts(_))).await {
        ServerMsg::Facts(f) => f,
        _ => unreachable!(),
    };
    assert!(
        !facts.forbidden.is_empty(),
        "the position has a forbidden point"
    );
    let expected: Vec<String> = {
        let mut v: Vec<String> = facts
            .forbidden
            .iter()
            .map(|f| format!("{},{}", f.point.x, f.point.y))
            .collect();
        v.sort();
        v
    };
    page.wait_for(&format!("{}.forbidden", cell("i8"))).await;
    let drawn = page
        .js(
            "return [...document.querySelectorAll('.cell.forbidden')].map(c => c.dataset.x + ',' + c.dataset.y).sort()",
            vec![],
        )
        .await;
    assert_eq!(drawn, json!(expected));
    assert_eq!(
        page.js(
            "return document.querySelector(arguments[0] + ' .foul').textContent",
            vec![json!(cell("i8"))]
        )
        .await,
        json!("×")
    );
    assert_eq!(
        page.js(
            "return document.querySelector(arguments[0]).title",
            vec![json!(cell("i8"))]
        )
        .await,
        json!("Forbidden to Black: double three")
    );
    page.wait_text("#forbidden-legend", "forbidden to Black")
        .await;
    page.screenshot(&dir.join("renju-phone.png")).await;
    page.resize(DESKTOP).await;
    page.screenshot(&dir.join("renju-desktop.png")).await;
    page.resize(PHONE).await;

    // A click on it: the server refuses with its reason, and the page says it.
    page.click(&cell("i8")).await;
    page.wait_text("#notice", "Double three at i8").await;
    assert_eq!(stone_on(&page, "i8").await, "");
    // Another point is fine; then White is to move and the × go.
    page.click(&cell("o1")).await;
    binh.saw(14, 14).await;
    page.wait_js(
        "no × while White is to move",
        "!document.querySelector('.cell.forbidden')",
        vec![],
    )
    .await;
}

#[tokio::test]
async fn a_spectator_sees_the_same_banner_without_the_decision() {
    let server = TestServer::start().await;
    let (mut a, mut b, room) = banco_tests::two_players(
        &server,
        banco_tests::caro_from(
            15,
            banco_protocol::Rule::Standard,
            banco_protocol::CaroOpening::Swap1,
        ),
    )
    .await;
    let page = Browser::open(server.addr, PHONE).await;
    page.enter("Chi").await;
    page.click(&format!(".room-row[data-room=\"{room}\"] .watch"))
        .await;
    page.wait_text(".room-title", "Swap1 opening").await;
    page.wait_text(
        "#swap-banner",
        "An places three stones, X, O, X (0 of 3 so far)",
    )
    .await;
    for (x, y) in [(7, 7), (8, 6), (7, 5)] {
        a.play(x, y).await;
        swap(&mut a).await;
        swap(&mut b).await;
    }
    // Swap1: the responder's choices are the two colours; the spectator has no buttons,
    // and its keys decide nothing.
    page.wait_text("#swap-banner", "Bình chooses: play White or play Black.")
        .await;
    assert!(buttons(&page).await.is_empty());
    page.wait_for(&format!("{} .stone.x", cell("h10"))).await;
    let board = page.wait_for(&cell("a1")).await;
    board.send_keys("w").await.expect("a key to the page");
    b.send(ClientMsg::Swap(SwapChoice::White)).await;
    let decided = swap(&mut b).await;
    assert_eq!(
        decided.steps.len(),
        4,
        "only Bình's decision, none from the spectator"
    );
    assert_eq!(decided.x_seat, Some(Seat::One));
    page.wait_text("#status", "Bình (O) to move").await;
    page.wait_text("#moves .swap-steps", "Bình: White (O)")
        .await;
}
