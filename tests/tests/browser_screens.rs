//! The browser page beyond the game itself, in a real headless Chromium: draft moves,
//! the board from the keyboard, game record files (saved, opened, played on from), the
//! leaderboard, the history and its filter, replays, Vietnamese, themes and sound, at
//! 360 px and on a desktop.

use serde_json::{Value, json};

use banco_client::record::file;
use banco_protocol::{ClientMsg, GameKind, Move, Point, ServerMsg};
use banco_tests::browser::{Browser, DESKTOP, PHONE};
use banco_tests::{TempDir, TestServer, caro, exchange, two_players};

/// WebDriver's codes for the keys a keyboard player uses.
const RIGHT: &str = "\u{E014}";
const UP: &str = "\u{E013}";
const ENTER: &str = "\u{E007}";

fn cell(name: &str) -> String {
    format!(".cell[data-point=\"{name}\"]")
}

/// Nothing sticks out sideways: the page and the element `css` fit the viewport.
async fn fits(page: &Browser, what: &str, css: &str) {
    page.wait_js(
        &format!("{what} to fit the width"),
        "document.querySelector(arguments[0]) \
         && document.documentElement.scrollWidth <= window.innerWidth \
         && document.querySelector(arguments[0]).getBoundingClientRect().right <= window.innerWidth",
        vec![json!(css)],
    )
    .await;
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

async fn count(page: &Browser, css: &str) -> u64 {
    page.js(
        "return document.querySelectorAll(arguments[0]).length",
        vec![json!(css)],
    )
    .await
    .as_u64()
    .unwrap_or(0)
}

/// Sends keys to the board's cursor point (the one in the Tab order).
async fn keys(page: &Browser, text: &str) {
    page.wait_for(".cell.kbd-cursor")
        .await
        .send_keys(text)
        .await
        .expect("keys to the board");
}

#[tokio::test]
async fn drafts_the_keyboard_and_record_files_on_a_phone() {
    let server = TestServer::start().await;
    let page = Browser::open(server.addr, PHONE).await;
    page.enter("An").await;
    page.click("#btn-create").await;
    page.click("#dlg-create-submit").await;
    page.wait_for("#board .cell").await;
    let room = room_number(&page).await;
    let mut binh = server.connect("Bình").await;
    binh.join(room).await;
    binh.game_started().await;
    page.wait_text("#status", "Your move").await;
    fits(&page, "the room", "#board").await;

    // The keyboard: the cursor starts in the middle, arrows move it, Enter plays.
    page.js("document.querySelector('.cell.kbd-cursor').focus()", vec![])
        .await;
    page.wait_for(&format!("{}.kbd-cursor", cell("h8"))).await;
    keys(&page, RIGHT).await;
    keys(&page, UP).await;
    page.wait_js(
        "the focus on i9",
        "document.activeElement && document.activeElement.dataset.point === 'i9'",
        vec![],
    )
    .await;
    keys(&page, ENTER).await;
    binh.saw(8, 6).await;
    // The redraw keeps the cursor, and the focus, where it was.
    page.wait_js(
        "a stone on i9 and the focus still there",
        "document.querySelector(arguments[0] + ' .stone') \
         && document.activeElement.dataset.point === 'i9'",
        vec![json!(cell("i9"))],
    )
    .await;
    binh.play(7, 7).await;
    binh.saw(7, 7).await;
    page.wait_for(&format!("{} .stone", cell("h8"))).await;

    // Draft mode (p): trial stones are marked, a taken point is refused, u takes back.
    keys(&page, "p").await;
    page.wait_text("#status", "Draft: 0").await;
    page.click(&cell("a1")).await;
    page.wait_for(&format!("{}.draft .stone.x", cell("a1")))
        .await;
    page.click(&cell("a1")).await;
    page.wait_text("#notice", "taken").await;
    keys(&page, "u").await;
    page.wait_js(
        "a1 taken back",
        "!document.querySelector(arguments[0] + ' .stone')",
        vec![json!(cell("a1"))],
    )
    .await;
    page.click(&cell("b2")).await;
    page.click(&cell("c3")).await;
    page.wait_for(&format!("{}.draft .stone.o", cell("c3")))
        .await;
    page.wait_text("#status", "Draft: 2").await;
    // Out of draft mode: only the real stones are left, and it is An's move for real.
    page.click("#btn-draft").await;
    page.wait_text("#status", "Your move").await;
    assert_eq!(
        count(&page, ".cell .stone").await,
        2,
        "the real stones only"
    );
    // The first move Bình hears of is the real one: no trial reached the server.
    page.click(&cell("j10")).await;
    binh.saw(9, 5).await;

    // A real move clears the draft, saying so.
    page.wait_text("#status", "Bình").await;
    page.click("#btn-draft").await;
    page.click(&cell("a1")).await;
    page.wait_for(&format!("{}.draft", cell("a1"))).await;
    binh.play(6, 6).await;
    binh.saw(6, 6).await;
    page.wait_text("#notice", "your draft moves are cleared")
        .await;
    assert_eq!(count(&page, ".cell.draft").await, 0);
    page.wait_for(&format!("{} .stone", cell("g9"))).await;

    // Saved: the file is one the terminal client reads, with the game's four moves.
    page.click("#btn-save").await;
    page.wait_for("#record-download").await;
    let text = page
        .js(
            "const href = document.getElementById('record-download').href; \
             return decodeURIComponent(href.slice(href.indexOf(',') + 1));",
            vec![],
        )
        .await;
    let text = text.as_str().expect("the record's text");
    let replay = file::parse(text)
        .unwrap_or_else(|e| panic!("the terminal client refuses the page's record: {e}\n{text}"));
    let moves: Vec<Move> = replay.moves.iter().map(|m| m.mv).collect();
    let played = [(8, 6), (7, 7), (9, 5), (6, 6)].map(|(x, y)| Move::Caro(Point::new(x, y)));
    assert_eq!(moves, played, "the saved moves:\n{text}");
    assert_eq!(replay.players, ["~An".to_string(), "~Bình".to_string()]);
    assert!(replay.over.is_none(), "an unfinished game is saved as one");

    // Out to the lobby (leaving mid-game loses), to open record files.
    page.click("#btn-leave").await;
    page.click("#dlg-yes").await;
    page.wait_for("#btn-open-record").await;
    let temp = TempDir::new("records");
    let bad = temp.path().join("bad.txt");
    std::fs::write(&bad, "game: caro\n\n1. h8 h8\n").expect("write a file");
    pick_file(&page, &bad).await;
    page.wait_text(
        "#notice",
        "bad.txt is not a banco game record, line 3: move 2 (h8): h8 is already taken",
    )
    .await;
    let good = temp.path().join("good.txt");
    std::fs::write(
        &good,
        "game: caro\nboard: 15x15\nx: Chi\no: Dũng\n\n1. h8 i9\n2. h9 i8\n3. h10\n",
    )
    .expect("write a file");
    pick_file(&page, &good).await;
    page.wait_text("#notice", "Opened good.txt: 5 moves").await;
    page.click("#rp-end").await;
    page.wait_text("#status", "Unfinished").await;
    assert_eq!(count(&page, ".cell .stone").await, 5);
    page.click("#rp-back").await;
    page.wait_text("#status", "4/5").await;
    fits(&page, "the replay", ".board-scroll").await;

    // Play on from move 4: the create form comes filled with the four stones.
    page.click("#rp-play-on").await;
    page.wait_for("[data-dialog=\"create\"]").await;
    let stones = page
        .js("return document.getElementById('c-stones').value", vec![])
        .await;
    assert_eq!(stones, json!("h8 i9 h9 i8"));
    page.click("#dlg-create-submit").await;
    page.wait_for("#board .cell").await;
    page.wait_text(".room-title", "4-stone opening").await;
    let mut chi = server.connect("Chi").await;
    chi.join(room_number(&page).await).await;
    let game = chi.game_started().await;
    assert_eq!(
        game.opening,
        [(7, 7), (8, 6), (7, 6), (8, 7)].map(|(x, y)| Point::new(x, y))
    );
    page.wait_js(
        "the four stones as the new room's opening",
        "document.querySelectorAll('.cell.opening .stone').length === 4",
        vec![],
    )
    .await;
    page.close().await;
    server.stop().await;
}

#[tokio::test]
async fn the_leaderboard_history_filter_and_replay_on_a_phone_and_a_desktop() {
    let server = TestServer::start().await;
    // A rated game Bình wins, and a game between two others.
    let (mut an, mut binh, _) = two_players(&server, caro(9)).await;
    exchange(&mut an, &mut binh, 4, 4).await;
    exchange(&mut binh, &mut an, 0, 0).await;
    exchange(&mut an, &mut binh, 5, 5).await;
    an.send(ClientMsg::Resign).await;
    an.game_over().await;
    binh.game_over().await;
    let mut chi = server.player("Chi").await;
    let mut dung = server.player("Dũng").await;
    let (id, _) = chi.create(caro(9)).await;
    dung.join(id).await;
    chi.game_started().await;
    dung.game_started().await;
    exchange(&mut chi, &mut dung, 4, 4).await;
    exchange(&mut dung, &mut chi, 1, 1).await;
    dung.send(ClientMsg::Resign).await;
    chi.game_over().await;
    dung.game_over().await;

    an.send(ClientMsg::Leaderboard(GameKind::Caro)).await;
    let standings = match an
        .recv_until(|m| matches!(m, ServerMsg::Leaderboard { .. }))
        .await
    {
        ServerMsg::Leaderboard { standings, .. } => standings,
        _ => unreachable!(),
    };
    assert!(
        standings.iter().any(|s| s.name == "Bình") && standings.iter().any(|s| s.name == "An"),
        "the finished game's players are ranked: {standings:?}"
    );

    for size in [PHONE, DESKTOP] {
        let page = Browser::open(server.addr, size).await;
        page.enter("Lan").await;

        page.click("#btn-leaderboard").await;
        page.wait_for("#leaderboard").await;
        let rows: Value = page
            .js(
                // A cell's words, without the challenge button beside a name.
                "return [...document.querySelectorAll('#leaderboard tbody tr')] \
                 .map((r) => [...r.cells].map((c) => [...c.childNodes] \
                   .filter((n) => !(n.classList && n.classList.contains('challenge'))) \
                   .map((n) => n.textContent).join('')))",
                vec![],
            )
            .await;
        let rows = rows.as_array().expect("the table's rows");
        // Row for row what the server says (how many games make a rating settled
        // enough to rank is the server's business).
        assert_eq!(rows.len(), standings.len(), "{rows:?}");
        for (row, s) in rows.iter().zip(&standings) {
            let rating = format!(
                "{}{}",
                s.rating.rating,
                if s.rating.provisional { "?" } else { "" }
            );
            let want = [
                s.name.clone(),
                rating,
                s.games.to_string(),
                s.wins.to_string(),
                s.losses.to_string(),
            ];
            let cells = row.as_array().map(|r| r[1..6].to_vec()).unwrap_or_default();
            assert_eq!(cells, want.map(|c| json!(c)), "{rows:?}");
        }
        page.click("#lb-xiangqi").await;
        page.wait_js(
            "the xiangqi leaderboard",
            "document.getElementById('lb-xiangqi').getAttribute('aria-pressed') === 'true'",
            vec![],
        )
        .await;
        page.click("#lb-caro").await;
        page.wait_for("#leaderboard").await;
        fits(&page, "the leaderboard", "#leaderboard").await;
        page.click("#btn-back").await;

        // The history: everyone's two games, then only Bình's.
        page.click("#btn-history").await;
        page.wait_for("#history").await;
        page.wait_text("#history-title", "everyone").await;
        assert_eq!(count(&page, "#history .room-row").await, 2);
        fits(&page, "the history", "#history").await;
        page.type_into("#history-player", "Bình").await;
        page.click("#history-show").await;
        page.wait_text("#history-title", "Bình's games").await;
        page.wait_js(
            "only Bình's game",
            "document.querySelectorAll('#history .room-row').length === 1",
            vec![],
        )
        .await;
        page.wait_text("#history", "An").await;
        page.type_into("#history-player", "nobody-here").await;
        page.click("#history-show").await;
        page.wait_text(".records", "No finished games here yet")
            .await;
        page.click("#history-all").await;
        page.wait_text("#history-title", "everyone").await;
        page.wait_js(
            "both games again",
            "document.querySelectorAll('#history .room-row').length === 2",
            vec![],
        )
        .await;

        // The replay of An and Bình's game, step by step.
        page.type_into("#history-player", "An").await;
        page.click("#history-show").await;
        page.wait_text("#history-title", "An's games").await;
        page.click("#history .replay").await;
        page.wait_for("#rp-next").await;
        page.wait_text("#status", "The start position").await;
        assert_eq!(count(&page, ".cell .stone").await, 0);
        page.click("#rp-next").await;
        page.click("#rp-next").await;
        page.wait_text("#status", "2/3").await;
        assert_eq!(count(&page, ".cell .stone").await, 2);
        page.click("#rp-end").await;
        page.wait_text("#status", "Bình won").await;
        assert_eq!(count(&page, ".cell .stone").await, 3);
        fits(&page, "the replay", ".board-scroll").await;
        page.close().await;
    }
    server.stop().await;
}

/// Counts the tones the page makes, by wrapping the browser's oscillator.
const COUNT_TONES: &str = "window.tones = 0; \
    const make = AudioContext.prototype.createOscillator; \
    AudioContext.prototype.createOscillator = function () { window.tones += 1; return make.call(this); };";

#[tokio::test]
async fn vietnamese_themes_and_sound_work_and_are_remembered() {
    let server = TestServer::start().await;
    let page = Browser::open(server.addr, PHONE).await;
    page.enter("An").await;
    page.click("#btn-create").await;
    page.click("#dlg-create-submit").await;
    page.wait_for("#board .cell").await;
    let room = room_number(&page).await;
    let mut binh = server.connect("Bình").await;
    binh.join(room).await;
    binh.game_started().await;

    // Sound: a tone when the other player moves; none once it is turned off.
    page.js(COUNT_TONES, vec![]).await;
    page.click(&cell("h8")).await;
    binh.saw(7, 7).await;
    binh.play(0, 0).await;
    binh.saw(0, 0).await;
    page.wait_for(&format!("{} .stone", cell("a15"))).await;
    page.wait_js("a tone for Bình's move", "window.tones > 0", vec![])
        .await;
    page.click("#s-sound").await;
    let before = page.js("return window.tones", vec![]).await;
    page.click(&cell("i8")).await;
    binh.saw(8, 7).await;
    binh.play(0, 1).await;
    binh.saw(0, 1).await;
    page.wait_for(&format!("{} .stone", cell("a14"))).await;
    // The page's clock ticks at least once more, so a tone would have been made by now.
    page.js_async("setTimeout(arguments[arguments.length - 1], 500)", vec![])
        .await;
    assert_eq!(page.js("return window.tones", vec![]).await, before);

    // Themes: light and dark differ, and the page says which it shows.
    let background = "return getComputedStyle(document.body).backgroundColor";
    page.select("#s-theme", "light").await;
    page.wait_js(
        "the light theme",
        "document.documentElement.dataset.theme === 'light'",
        vec![],
    )
    .await;
    let light = page.js(background, vec![]).await;
    page.select("#s-theme", "dark").await;
    page.wait_js(
        "the dark theme",
        "document.documentElement.dataset.theme === 'dark'",
        vec![],
    )
    .await;
    assert_ne!(page.js(background, vec![]).await, light);

    // Vietnamese: the room's buttons in the Vietnamese words the terminal client uses.
    let vi: Value = page
        .js_async(
            "const done = arguments[arguments.length - 1]; \
             fetch('/locales/vi.json').then((r) => r.json()).then(done);",
            vec![],
        )
        .await;
    page.select("#s-lang", "vi").await;
    let leave = vi["keys.leave_short"].as_str().expect("a Vietnamese word");
    page.wait_text("#btn-leave", leave).await;
    let moves = vi["room.moves"].as_str().expect("a Vietnamese word");
    let moves = moves.split('{').next().unwrap_or(moves).trim();
    page.wait_text("#moves-title", moves).await;
    fits(&page, "the Vietnamese room", "#actions").await;

    // All three are remembered: after a reload the page is Vietnamese, dark and silent.
    page.reload().await;
    page.wait_for("#board .cell").await;
    page.wait_text("#btn-leave", leave).await;
    let state = page
        .js(
            "return [document.documentElement.lang, document.documentElement.dataset.theme, \
             document.getElementById('s-sound').checked]",
            vec![],
        )
        .await;
    assert_eq!(state, json!(["vi", "dark", false]));
    page.close().await;
    server.stop().await;
}

#[tokio::test]
async fn an_idle_page_answers_the_heartbeat_and_stays_connected() {
    let server = TestServer::with_config(banco_server::Config {
        heartbeat: std::time::Duration::from_millis(100),
        ..banco_tests::test_config()
    })
    .await;
    let page = Browser::open(server.addr, PHONE).await;
    page.enter("An").await;
    // Every notice the page shows from now on, kept.
    page.js(
        "window.notices = []; new MutationObserver(() => \
         window.notices.push(document.getElementById('notice').textContent)) \
         .observe(document.getElementById('notice'), {childList: true, characterData: true, subtree: true});",
        vec![],
    )
    .await;
    // Ten heartbeats of silence: a page that did not answer would be dropped after three.
    page.js_async("setTimeout(arguments[arguments.length - 1], 1000)", vec![])
        .await;
    let notices = page.js("return window.notices", vec![]).await;
    assert_eq!(notices, json!([]), "the page lost its connection");
    page.click("#btn-create").await;
    page.click("#dlg-create-submit").await;
    page.wait_for("#board .cell").await;
    page.close().await;
    server.stop().await;
}

fn square(name: &str) -> String {
    format!(".xq-pt[data-square=\"{name}\"]")
}

#[tokio::test]
async fn a_xiangqi_draft_moves_pieces_for_both_sides_and_never_reaches_the_server() {
    let server = TestServer::start().await;
    let mut binh = server.connect("Bình").await;
    let (room, _) = binh.create(banco_tests::xiangqi(None)).await;
    let page = Browser::open(server.addr, DESKTOP).await;
    page.enter("An").await;
    page.click(&format!(".room-row[data-room=\"{room}\"] .join"))
        .await;
    page.wait_for(".xq-pt").await;
    binh.game_started().await;
    // Bình (seat one, Red) opens; An is Black and sees the board turned.
    binh.play_xq("h2e2").await;
    binh.moved_xq().await;
    page.wait_for(&format!("{} .piece.red", square("e2"))).await;

    page.click("#btn-draft").await;
    page.wait_text("#status", "Draft: 0").await;
    // Black's horse out, then Red's horse: each side in turn, on the draft board only.
    page.click(&square("h9")).await;
    page.wait_for(&format!("{}.selected", square("h9"))).await;
    page.click(&square("g7")).await;
    page.wait_for(&format!("{}.draft .piece.black", square("g7")))
        .await;
    page.click(&square("h0")).await;
    page.click(&square("g2")).await;
    page.wait_for(&format!("{}.draft .piece.red", square("g2")))
        .await;
    page.wait_text("#status", "Draft: 2").await;
    page.click("#btn-draft-undo").await;
    page.wait_text("#status", "Draft: 1").await;
    page.click("#btn-draft").await;
    page.wait_text("#status", "Your move").await;
    page.wait_for(&format!("{} .piece.black", square("h9")))
        .await;
    assert_eq!(count(&page, ".xq-pt.draft").await, 0);

    // The first move Bình hears of is An's real one.
    page.click(&square("b9")).await;
    page.click(&square("c7")).await;
    let (record, _) = binh.moved_xq().await;
    assert_eq!(banco_tests::iccs(record.mv), "b9c7");
    page.close().await;
    server.stop().await;
}

#[tokio::test]
async fn a_profile_as_the_protocol_writes_it_is_drawn_with_its_chart_and_games() {
    use banco_protocol::{BestWin, KindRecord, Profile, Rating, RatingPoint};
    let server = TestServer::start().await;
    let (mut an, mut binh, _) = two_players(&server, caro(9)).await;
    exchange(&mut an, &mut binh, 4, 4).await;
    an.send(ClientMsg::Resign).await;
    an.game_over().await;
    an.send(ClientMsg::History { player: None }).await;
    let recent = match an.recv_until(|m| matches!(m, ServerMsg::History(_))).await {
        ServerMsg::History(games) => games,
        _ => unreachable!(),
    };
    assert_eq!(recent.len(), 1);
    let game_id = recent[0].id;
    let rating = |rating, provisional| Rating {
        rating,
        deviation: 80,
        provisional,
    };
    let profile = Profile {
        bot_account: false,
        name: "Bình".into(),
        bot: None,
        registered_at_ms: Some(1_700_000_000_000),
        first_seen_ms: 1_700_000_000_000,
        games: vec![
            KindRecord {
                game: GameKind::Caro,
                rating: rating(1612, false),
                rank: Some(3),
                games: 12,
                wins: 8,
                losses: 3,
                draws: 1,
                best_win: Some(BestWin {
                    game: game_id,
                    opponent: "An".into(),
                    opponent_rating: 1700,
                    ended_at_ms: 1_700_000_000_000,
                }),
                history: [1500, 1540, 1520, 1612]
                    .iter()
                    .enumerate()
                    .map(|(i, &rating)| RatingPoint {
                        at_ms: 1_700_000_000_000 + i as u64,
                        rating,
                        deviation: 90,
                    })
                    .collect(),
                matches: banco_protocol::MatchTally {
                    won: 2,
                    lost: 1,
                    drawn: 0,
                },
            },
            KindRecord {
                game: GameKind::Xiangqi,
                rating: rating(1500, true),
                rank: None,
                games: 0,
                wins: 0,
                losses: 0,
                draws: 0,
                best_win: None,
                history: vec![],
                matches: Default::default(),
            },
        ],
        recent,
    };
    let json = serde_json::to_value(ServerMsg::Profile(Box::new(profile))).expect("JSON");

    let page = Browser::open(server.addr, PHONE).await;
    page.enter("Lan").await;
    // The page's own drawing of the message, as if the server had sent it.
    page.js_async(
        "const done = arguments[arguments.length - 1]; const msg = arguments[0]; \
         import('/js/profile.js').then((m) => { \
           const page = { send: (x) => { window.sent = x; return true; }, me: { name: 'Lan' } }; \
           m.renderProfile(document.getElementById('main'), msg.Profile, page, { toLobby() {}, challengeWho(n) { window.challenged = n; } }); done(true); \
         }, (e) => done(String(e)));",
        vec![json],
    )
    .await;
    page.wait_text("#profile-name", "Bình").await;
    page.wait_text(".profile-kind[data-game=\"caro\"]", "1612 ± 80")
        .await;
    page.wait_text(".profile-kind[data-game=\"caro\"]", "#3 on the leaderboard")
        .await;
    page.wait_text(".profile-kind[data-game=\"caro\"]", "against An (1700)")
        .await;
    page.wait_text(
        ".profile-kind[data-game=\"caro\"]",
        "Matches: 2 won, 1 lost, 0 drawn",
    )
    .await;
    page.wait_text(".profile-kind[data-game=\"xiangqi\"]", "1500? ± 80")
        .await;
    page.wait_text(".profile-kind[data-game=\"xiangqi\"]", "not ranked yet")
        .await;
    assert_eq!(
        count(&page, ".rating-chart polyline").await,
        1,
        "one chart: caro's"
    );
    assert_eq!(
        count(&page, "#profile .room-row").await,
        1,
        "the newest game"
    );
    fits(&page, "the profile", "#profile").await;
    page.click("#profile .room-row .replay").await;
    let sent = page.js("return window.sent", vec![]).await;
    assert_eq!(sent, json!({ "Replay": game_id }));
    // Someone else's profile has the challenge button, which names them.
    page.click("#btn-challenge").await;
    assert_eq!(
        page.js("return window.challenged", vec![]).await,
        json!("Bình")
    );
    page.close().await;
    server.stop().await;
}

/// The text of the record the page last offered as a download.
async fn downloaded(page: &Browser) -> (String, String) {
    page.wait_for("#record-download").await;
    let got = page
        .js(
            "const a = document.getElementById('record-download'); \
             return [a.download, decodeURIComponent(a.href.slice(a.href.indexOf(',') + 1))];",
            vec![],
        )
        .await;
    let text = |i: usize| {
        got[i]
            .as_str()
            .expect("the download's name and text")
            .to_string()
    };
    (text(0), text(1))
}

#[tokio::test]
async fn a_xiangqi_record_in_wxf_opens_replays_plays_on_and_saves_through_the_server() {
    let server = TestServer::start().await;
    let page = Browser::open(server.addr, DESKTOP).await;
    page.enter("An").await;
    page.wait_for("#btn-open-record").await;
    // Moves in WXF only: the page has no parser of its own; the server's rules read it.
    let temp = TempDir::new("xq-record");
    let path = temp.path().join("opening.txt");
    std::fs::write(
        &path,
        "game: xiangqi\nred: Chi\nblack: Dũng\nresult: black\nreason: resign\n\n\
         1. C2.5 H8+7\n2. H2+3 R9.8\n",
    )
    .expect("write a file");
    pick_file(&page, &path).await;
    page.wait_text("#notice", "Opened opening.txt: 4 moves")
        .await;
    page.click("#rp-end").await;
    page.wait_text("#status", "4/4").await;
    // The move list shows the server's notation; the board has Black's chariot on h9.
    page.wait_text(".moves", "R9.8").await;
    page.wait_for(&format!("{} .piece.black", square("h9")))
        .await;

    // Saved from the replay: the server writes the file, ICCS and WXF, under the
    // opened file's name; the rules read it back as the same game.
    page.click("#rp-save").await;
    let (name, text) = downloaded(&page).await;
    assert_eq!(name, "opening.txt");
    assert!(
        text.contains("\n1. h2e2 C2.5   h9g7 H8+7\n2. h0g2 H2+3   i9h9 R9.8\n"),
        "{text}"
    );
    let back = banco_rules::record::parse(&text).expect("the rules read the page's file");
    assert_eq!(back.players, ["Chi".to_string(), "Dũng".to_string()]);
    assert_eq!(back.moves.len(), 4);

    // Play on from move 2: the server judges the position and gives its FEN.
    page.click("#rp-back").await;
    page.click("#rp-back").await;
    page.wait_text("#status", "2/4").await;
    page.click("#rp-play-on").await;
    page.wait_for("[data-dialog=\"create\"]").await;
    let fen = page
        .js("return document.getElementById('c-fen').value", vec![])
        .await;
    assert_eq!(
        fen,
        json!("rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 0 1")
    );
    page.close().await;
    server.stop().await;
}

/// Picks `path` in the lobby's record-file input. The lobby may redraw between finding
/// the input and typing into it (a room list push), which leaves the element stale: find
/// it again then.
async fn pick_file(page: &Browser, path: &std::path::Path) {
    for _ in 0..10 {
        let input = page.wait_for("#record-file").await;
        match input.send_keys(&path.display().to_string()).await {
            Ok(()) => return,
            Err(e) if format!("{e:?}").contains("StaleElementReference") => continue,
            Err(e) => panic!("pick a file: {e}"),
        }
    }
    panic!("the record-file input kept being redrawn");
}
