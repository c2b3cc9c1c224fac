//! Tournaments in the browser page, in a real headless Chromium.
//!
//! A guest on a 360 px phone opens the Tournaments screen from the lobby, is refused a
//! rated event with the server's sentence, joins an unrated Swiss of four that three
//! protocol clients join too, and watches the list count them live. Round 1 is paired
//! while the page plays a casual game elsewhere: it is told where its game is, and "Go
//! to your game" on the tournament's screen takes it there; round 2 places it in its
//! room at once (the opponents resign). Leaving the last game goes back to the
//! tournament, whose standings and crosstable carry the scores the results make; the
//! printable standings page shows them, and with the print rules applied none of the
//! page's header or buttons. A registered account creates a tournament with the page's
//! form, sees entrants come live, enters a bot, removes a player, starts it, pauses and
//! resumes it and sets a result by hand. In an arena that allows berserk the page goes
//! berserk from its game's room (and a Swiss offers no such button).
//!
//! The pictures (`tournament-*`) are written over the committed ones in
//! `web/screenshots/` (the docs' `screenshots/`) only with `BANCO_SCREENSHOTS=1`.

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;
use tokio::sync::watch;

use banco_protocol::{
    BoardResult, CaroOpening, ClientMsg, RoomSettings, Rule, SeatView, ServerMsg, TimeControl,
    TournamentFormat, TournamentSettings, TournamentStatus, TournamentView,
};
use banco_server::Config;
use banco_tests::browser::{Browser, DESKTOP, PHONE};
use banco_tests::{Client, TempDir, TestServer, caro_from, test_config};

/// Where the pictures go: the committed folder when asked, else a temporary one.
fn folder(temp: &TempDir) -> PathBuf {
    if std::env::var_os("BANCO_SCREENSHOTS").is_some_and(|v| v == "1") {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../web/screenshots")
    } else {
        temp.path().to_path_buf()
    }
}

fn config() -> Config {
    Config {
        match_break: Duration::from_millis(100),
        bot_delay: Duration::from_millis(5),
        bot_think_cap: Some(Duration::from_millis(20)),
        ..test_config()
    }
}

/// An unrated tournament of one-game pairings on a small caro board.
fn settings(name: &str, format: TournamentFormat, rated: bool) -> TournamentSettings {
    let mut s = TournamentSettings::new(
        name,
        format,
        caro_from(7, Rule::Freestyle, CaroOpening::None),
    );
    s.room.match_format = None;
    s.rated = rated;
    s
}

/// The next tournament view that matches `pred`, skipping anything else.
async fn view_where(c: &mut Client, pred: impl Fn(&TournamentView) -> bool) -> TournamentView {
    match c
        .recv_until(|m| matches!(m, ServerMsg::Tournament(v) if pred(v)))
        .await
    {
        ServerMsg::Tournament(v) => *v,
        _ => unreachable!(),
    }
}

/// The page's player, as the server names a guest.
const PAGE: &str = "An";

/// Whether `me` resigns against `other`: everyone loses to the page's player; between
/// two clients the one whose name sorts later resigns.
fn resigns(me: &str, other: &str) -> bool {
    other.trim_start_matches('~') == PAGE || me.to_lowercase() > other.to_lowercase()
}

/// Plays `c`'s games by [`resigns`] until tournament `id` is over, resigning a game
/// of round `r` only once `gate` says `r` (so the test sees the page in each room).
async fn play_out(mut c: Client, id: u32, mut gate: watch::Receiver<u32>) -> Client {
    let me = c.name().to_string();
    let mut seats: [Option<SeatView>; 2] = [None, None];
    let mut round = 0;
    let resign_now = |seats: &[Option<SeatView>; 2]| {
        let other = seats.iter().flatten().find(|s| s.name != me);
        seats.iter().flatten().any(|s| s.name == me) && other.is_some_and(|o| resigns(&me, &o.name))
    };
    loop {
        match c.recv().await {
            ServerMsg::Joined(room) => {
                seats = room.seats.clone();
                if room.game.as_ref().is_some_and(|g| g.over.is_none()) && resign_now(&seats) {
                    let _ = gate.wait_for(|r| *r >= round).await;
                    c.send(ClientMsg::Resign).await;
                }
            }
            ServerMsg::People { seats: now, .. } => seats = now,
            ServerMsg::TournamentGame(g) => round = g.round,
            ServerMsg::GameStarted(_) if resign_now(&seats) => {
                let _ = gate.wait_for(|r| *r >= round).await;
                c.send(ClientMsg::Resign).await;
            }
            ServerMsg::Tournament(v)
                if v.summary.id == id && v.summary.status == TournamentStatus::Over =>
            {
                return c;
            }
            _ => {}
        }
    }
}

/// The rows of the table `css` as the page shows them, cell texts.
async fn table(page: &Browser, css: &str) -> Vec<Vec<String>> {
    let rows: Value = page
        .js(
            "return [...document.querySelectorAll(arguments[0] + ' tbody tr')]\
               .map(r => [...r.cells].map(c => c.textContent.trim()))",
            vec![json!(css)],
        )
        .await;
    serde_json::from_value(rows).expect("rows of cells")
}

#[tokio::test]
async fn a_guest_on_a_phone_joins_plays_each_round_in_its_room_and_sees_the_standings() {
    let server = TestServer::with_config(config()).await;
    let temp = TempDir::new("tournament-shots");
    let dir = folder(&temp);

    let mut org = server.player("Org").await;
    org.send(ClientMsg::CreateTournament(Box::new(settings(
        "Rated cup",
        TournamentFormat::Swiss { rounds: 3 },
        true,
    ))))
    .await;
    let rated = view_where(&mut org, |_| true).await.summary.id;
    org.send(ClientMsg::CreateTournament(Box::new(settings(
        "Club night",
        TournamentFormat::Swiss { rounds: 2 },
        false,
    ))))
    .await;
    let id = view_where(&mut org, |v| v.summary.name == "Club night")
        .await
        .summary
        .id;

    let page = Browser::open(server.addr, PHONE).await;
    page.enter(PAGE).await;
    page.click("#btn-tournaments").await;
    page.wait_text("#tournaments", "Club night").await;
    page.wait_text(
        &format!(".tourney-row[data-tournament=\"{id}\"]"),
        "Swiss, 2 rounds",
    )
    .await;
    page.wait_text(
        &format!(".tourney-row[data-tournament=\"{rated}\"]"),
        "taking entries",
    )
    .await;
    // A guest sees no create button, and why.
    assert_eq!(
        page.js("return !!document.getElementById('btn-t-create')", vec![])
            .await,
        json!(false)
    );
    page.screenshot(&dir.join("tournaments-phone.png")).await;

    // The rated one refuses a guest with the server's sentence.
    page.click(&format!(
        ".tourney-row[data-tournament=\"{rated}\"] button.open"
    ))
    .await;
    page.wait_text("#t-name", "Rated cup").await;
    page.click("#btn-t-join").await;
    page.wait_text("#notice", "guests play unrated events only")
        .await;
    page.click("#btn-t-list").await;

    // The unrated one takes the page, and three players by the protocol; the list
    // counts them live.
    page.click(&format!(
        ".tourney-row[data-tournament=\"{id}\"] button.open"
    ))
    .await;
    page.wait_text("#t-name", "Club night").await;
    page.click("#btn-t-join").await;
    page.wait_text("#t-status", "You are entered").await;
    page.wait_for("#btn-t-withdraw").await;
    // A bye asked for from the page: the server lists the request (the page shows what
    // the server's view says), and takes it back again.
    page.click("#btn-t-bye").await;
    page.wait_text("#t-bye-requests", "asked for a bye").await;
    page.click("#btn-t-unbye").await;
    page.wait_for("#btn-t-bye").await;
    let mut players = Vec::new();
    for name in ["Bình", "Chi", "Dung"] {
        let mut c = server.player(name).await;
        c.send(ClientMsg::JoinTournament(id)).await;
        view_where(&mut c, |v| v.entrants.iter().any(|e| e.name == name)).await;
        players.push(c);
    }
    page.wait_text("#t-entrants", "Dung").await;
    page.wait_text("#t-status", "4 entered").await;
    // The list is live: it counts the entrants, and a join elsewhere shows by itself.
    page.click("#btn-t-list").await;
    page.wait_text(
        &format!(".tourney-row[data-tournament=\"{id}\"]"),
        "4 entered",
    )
    .await;
    org.send(ClientMsg::JoinTournament(rated)).await;
    page.wait_text(
        &format!(".tourney-row[data-tournament=\"{rated}\"]"),
        "1 entered",
    )
    .await;
    let (open, gate) = watch::channel(0);
    let tasks: Vec<_> = players
        .into_iter()
        .map(|c| tokio::spawn(play_out(c, id, gate.clone())))
        .collect();

    // The page is playing a casual game elsewhere when round 1 is paired: it is told
    // where its tournament game is, and goes there with "Go to your game".
    let mut eve = server.connect("Eve").await;
    let (casual, _) = eve
        .create(RoomSettings {
            rated: false,
            ..caro_from(9, Rule::Freestyle, CaroOpening::None)
        })
        .await;
    page.click("#btn-back").await;
    page.click(&format!(".room-row[data-room=\"{casual}\"] button.join"))
        .await;
    eve.game_started().await;
    page.wait_text(".room-title", &format!("room {casual} ·"))
        .await;
    org.send(ClientMsg::StartTournament(id)).await;
    let r1 = view_where(&mut org, |v| {
        v.summary.round == 1 && !v.boards.is_empty() && v.boards.iter().all(|b| b.room.is_some())
    })
    .await;
    let me = r1
        .entrants
        .iter()
        .find(|e| e.name.trim_start_matches('~') == PAGE)
        .expect("the page is entered")
        .number;
    let room = r1
        .boards
        .iter()
        .find(|b| b.white == me || b.black == me)
        .and_then(|b| b.room)
        .expect("the page's board has a room");
    page.wait_text("#notice", &format!("is ready in room {room}"))
        .await;
    assert!(
        page.text_of(".room-title")
            .await
            .contains(&format!("room {casual} ·")),
        "a page playing elsewhere is not moved"
    );
    page.click("#btn-leave").await;
    page.click("#dlg-yes").await;
    page.click("#btn-tournaments").await;
    page.click(&format!(
        ".tourney-row[data-tournament=\"{id}\"] button.open"
    ))
    .await;
    page.wait_text("#t-my-game", &format!("in room {room}"))
        .await;
    page.click("#btn-my-game").await;
    page.wait_for("#board .cell").await;
    page.wait_text(".room-title", &format!("room {room} ·"))
        .await;
    open.send_replace(1);

    // Round 2 places the page in its next game's room at once.
    let r2 = view_where(&mut org, |v| {
        v.summary.round == 2
            && v.boards
                .iter()
                .filter(|b| b.round == 2)
                .all(|b| b.room.is_some())
    })
    .await;
    let r2_room = r2
        .boards
        .iter()
        .find(|b| b.round == 2 && (b.white == me || b.black == me))
        .and_then(|b| b.room)
        .expect("the page's round 2 board has a room");
    assert_ne!(r2_room, room);
    page.wait_text(".room-title", &format!("room {r2_room} ·"))
        .await;
    open.send_replace(2);

    // The tournament is played out; the final view.
    let last = view_where(&mut org, |v| v.summary.status == TournamentStatus::Over).await;
    for t in tasks {
        t.await.expect("a player's task");
    }
    assert_eq!(last.summary.round, 2);
    assert_eq!(last.boards.len(), 4);
    // Each board's winner by the rule the players followed, and so each one's score.
    let mut expected: BTreeMap<String, u32> = BTreeMap::new();
    for e in &last.entrants {
        expected.insert(e.name.trim_start_matches('~').to_string(), 0);
    }
    for b in &last.boards {
        let (w, k) = (last.name_of(b.white), last.name_of(b.black));
        let white_wins = if w.trim_start_matches('~') == PAGE {
            true
        } else if k.trim_start_matches('~') == PAGE {
            false
        } else {
            !resigns(w, k)
        };
        assert_eq!(
            b.result,
            Some(if white_wins {
                BoardResult::WhiteWins
            } else {
                BoardResult::BlackWins
            }),
            "{b:?}"
        );
        let winner = if white_wins { w } else { k };
        *expected
            .get_mut(winner.trim_start_matches('~'))
            .expect("an entrant") += 10;
    }
    assert_eq!(expected[PAGE], 20, "the page's player won both rounds");

    // Back from the last game's room to the tournament: its standings are the results'.
    page.wait_for("[data-dialog=\"game-over\"]").await;
    // Leaving a tournament's game goes back to its tournament.
    page.click("#dlg-leave").await;
    page.wait_text("#t-name", "Club night").await;
    page.wait_text("#t-status", "over").await;
    let shown = table(&page, "#t-standings-table").await;
    assert_eq!(shown.len(), 4, "{shown:?}");
    for row in &shown {
        let name = row[1].trim_start_matches('~');
        let text = (expected[name] / 10).to_string();
        assert_eq!(row[2], text, "{name}'s points: {shown:?}");
    }
    assert!(
        shown[0][1].contains(PAGE),
        "the page's player first: {shown:?}"
    );
    // The tie-break columns the server sent, headed by their FIDE codes.
    page.wait_text("#t-standings-table thead", "BH-C1").await;
    // The crosstable: a column per round, the page's player beating both.
    let cross = table(&page, "#t-crosstable-table").await;
    let mine = cross
        .iter()
        .find(|r| r[1].contains(PAGE))
        .expect("the page's row");
    assert_eq!(mine.len(), 5, "number, name, two rounds, points: {mine:?}");
    assert!(
        mine[2].ends_with(" 1") && mine[3].ends_with(" 1"),
        "{mine:?}"
    );
    assert_eq!(mine[4], "2");
    // Every round's pairings with their results.
    page.wait_text("#t-rounds [data-round=\"1\"]", "1-0").await;
    page.wait_text("#t-rounds [data-round=\"2\"]", "Round 2")
        .await;
    page.wait_for("#t-exports a.export-trf").await;
    page.js("window.scrollTo(0, 0)", vec![]).await;
    page.screenshot(&dir.join("tournament-phone.png")).await;
    page.js(
        "document.getElementById('t-standings').scrollIntoView()",
        vec![],
    )
    .await;
    page.screenshot(&dir.join("tournament-standings-phone.png"))
        .await;
    page.resize(DESKTOP).await;
    page.js("window.scrollTo(0, 0)", vec![]).await;
    page.screenshot(&dir.join("tournament-desktop.png")).await;

    // The printable page: standings and crosstable, its buttons marked not to print.
    page.click("#btn-t-print").await;
    page.wait_for("#t-print #t-standings-table").await;
    page.wait_for("#t-print #t-crosstable-table").await;
    page.wait_text("#t-print h1", "Club night").await;
    assert_eq!(
        table(&page, "#t-print #t-standings-table").await,
        shown,
        "the printable standings are the screen's"
    );
    assert_eq!(
        page.js(
            "return !!document.querySelector('#t-print .no-print #btn-print')",
            vec![]
        )
        .await,
        json!(true)
    );
    // The stylesheet's print rules hide the page's header and the buttons.
    let print_hides: Value = page
        .js(
            "return [...document.styleSheets].flatMap(s => [...s.cssRules])\
               .filter(r => r.media && r.media.mediaText === 'print')\
               .map(r => r.cssText).join(' ')",
            vec![],
        )
        .await;
    let print_hides = print_hides.as_str().unwrap_or_default();
    assert!(
        print_hides.contains(".top") && print_hides.contains(".no-print"),
        "{print_hides}"
    );
    // As printed: the print rules, applied to the screen too for a moment (the page's
    // policy allows no injected style), hide the header and the buttons.
    let as_printed = |on: bool| {
        format!(
            "[...document.styleSheets].flatMap(s => [...s.cssRules])\
               .filter(r => r.media && r.media.mediaText.includes('print'))\
               .forEach(r => r.media.{}('screen'))",
            if on { "appendMedium" } else { "deleteMedium" }
        )
    };
    page.js(&as_printed(true), vec![]).await;
    page.wait_js(
        "the page's header and buttons hidden as printed",
        "getComputedStyle(document.querySelector('header.top')).display === 'none' \
         && !document.getElementById('btn-print').offsetParent \
         && document.querySelector('#t-print #t-standings-table').offsetParent",
        vec![],
    )
    .await;
    page.screenshot(&dir.join("tournament-print-desktop.png"))
        .await;
    page.js(&as_printed(false), vec![]).await;
    // The exports the page links to download.
    let csv = page
        .js_async(
            "fetch('/tournaments/' + arguments[0] + '.csv').then(r => r.text()).then(arguments[arguments.length - 1])",
            vec![json!(id)],
        )
        .await;
    assert!(csv.as_str().unwrap_or_default().contains("Dung"), "{csv}");

    page.close().await;
    server.stop().await;
}

/// A tournament of `format` on a one-minute clock that the page (as [`PAGE`], a guest
/// on `size`) and Bình enter and Org starts; returns once the page sits at its board
/// (Bình stays connected while the caller holds its client).
async fn page_in_a_tournament_game(
    format: TournamentFormat,
    size: (u32, u32),
) -> (TestServer, Client, Client, Browser) {
    let server = TestServer::with_config(config()).await;
    let mut org = server.player("Org").await;
    let mut s = settings("Blitz", format, false);
    s.room.time = TimeControl::clock(Duration::from_secs(60), Duration::ZERO);
    org.send(ClientMsg::CreateTournament(Box::new(s))).await;
    let id = view_where(&mut org, |_| true).await.summary.id;
    let page = Browser::open(server.addr, size).await;
    page.enter(PAGE).await;
    page.click("#btn-tournaments").await;
    page.click(&format!(
        ".tourney-row[data-tournament=\"{id}\"] button.open"
    ))
    .await;
    page.click("#btn-t-join").await;
    page.wait_text("#t-status", "You are entered").await;
    let mut binh = server.player("Bình").await;
    binh.send(ClientMsg::JoinTournament(id)).await;
    view_where(&mut binh, |v| v.entrants.len() == 2).await;
    org.send(ClientMsg::StartTournament(id)).await;
    page.wait_for("#board .cell").await;
    (server, org, binh, page)
}

#[tokio::test]
async fn in_an_arena_with_berserk_the_page_goes_berserk_from_its_game() {
    let temp = TempDir::new("tournament-berserk-shots");
    let dir = folder(&temp);
    let arena = TournamentFormat::Arena {
        seconds: 600,
        berserk: true,
    };
    let (server, mut org, _binh, page) = page_in_a_tournament_game(arena, PHONE).await;
    // The page offers berserk before its first move; the server halves the clock and
    // says so in the room; the button goes once used.
    page.wait_for("#btn-berserk").await;
    page.screenshot(&dir.join("tournament-berserk-phone.png"))
        .await;
    page.click("#btn-berserk").await;
    page.wait_text("#chat-log", "goes berserk").await;
    page.wait_js(
        "the berserk button gone once used",
        "!document.getElementById('btn-berserk')",
        vec![],
    )
    .await;
    let view = view_where(&mut org, |v| {
        v.boards.iter().any(|b| b.berserk.iter().any(|&on| on))
    })
    .await;
    let board = &view.boards[0];
    let page_is_white = view.name_of(board.white).trim_start_matches('~') == PAGE;
    assert_eq!(board.berserk, [page_is_white, !page_is_white]);
    page.close().await;
    server.stop().await;
}

#[tokio::test]
async fn in_a_swiss_the_page_offers_no_berserk() {
    let swiss = TournamentFormat::Swiss { rounds: 1 };
    let (server, _org, _binh, page) = page_in_a_tournament_game(swiss, DESKTOP).await;
    page.wait_for("#btn-resign").await;
    assert_eq!(
        page.js("return !!document.getElementById('btn-berserk')", vec![])
            .await,
        json!(false)
    );
    page.close().await;
    server.stop().await;
}

#[tokio::test]
async fn an_account_creates_a_tournament_in_the_page_and_runs_it() {
    let server = TestServer::with_config(config()).await;
    let temp = TempDir::new("tournament-create-shots");
    let dir = folder(&temp);
    let page = Browser::open(server.addr, DESKTOP).await;
    page.goto("/").await;
    page.type_into("#name", "Mai").await;
    page.type_into("#password", "xanh-lá-cây-8").await;
    page.click("#register").await;
    page.click("#connect").await;
    page.wait_for("#btn-create").await;

    page.click("#btn-tournaments").await;
    page.wait_for("#tournaments").await;
    page.click("#btn-t-create").await;
    page.wait_for("#tournament-form").await;
    // An empty name is refused in the form.
    page.click("#dlg-tournament-submit").await;
    page.wait_js(
        "the name asked for",
        "document.getElementById('tc-name').validity.valueMissing || \
         document.getElementById('dialog-error').textContent.includes('name')",
        vec![],
    )
    .await;
    page.type_into("#tc-name", "Friday Swiss").await;
    page.select("#tc-format", "swiss").await;
    page.type_into("#tc-rounds", "3").await;
    page.select("#tc-requested-bye", "nothing").await;
    page.type_into("#c-width", "7").await;
    page.type_into("#c-height", "7").await;
    page.select("#c-rule", "Freestyle").await;
    page.select("#c-rated", "casual").await;
    // A caro pairing starts as a two-game mini-match.
    assert_eq!(
        page.js("return document.getElementById('c-match').value", vec![])
            .await,
        json!("games")
    );
    page.select("#c-match", "off").await;
    // An arena has its minutes and berserk, and no rounds.
    page.select("#tc-format", "arena").await;
    page.wait_js(
        "the arena's fields",
        "!document.querySelector('.arena-only').hidden && document.querySelector('.swiss-only').hidden",
        vec![],
    )
    .await;
    page.select("#tc-format", "swiss").await;
    page.screenshot(&dir.join("tournament-create-desktop.png"))
        .await;
    page.resize(PHONE).await;
    page.screenshot(&dir.join("tournament-create-phone.png"))
        .await;
    page.resize(DESKTOP).await;
    page.click("#dlg-tournament-submit").await;

    // The tournament opens for its organiser.
    page.wait_text("#t-name", "Friday Swiss").await;
    page.wait_text("#t-details", "Swiss, 3 rounds").await;
    page.wait_text("#t-details", "casual").await;
    page.wait_text("#t-details", "a bye asked for worth nothing")
        .await;
    page.wait_for("#btn-t-start").await;
    let id: u32 = page
        .js(
            "return Number(document.getElementById('tournament').dataset.tournament)",
            vec![],
        )
        .await
        .as_u64()
        .expect("the tournament's number") as u32;

    // Entrants come live.
    let mut people = Vec::new();
    for name in ["Bình", "Chi", "Dung"] {
        let mut c = server.connect(name).await;
        c.send(ClientMsg::JoinTournament(id)).await;
        people.push(c);
        page.wait_text("#t-entrants", name).await;
    }
    let settled = view_where(&mut people[0], |v| v.entrants.len() == 3).await;
    assert_eq!(
        settled.settings.room.match_format, None,
        "one game a pairing"
    );
    assert!(!settled.settings.rated);
    assert_eq!(
        settled.settings.requested_bye,
        banco_protocol::ByeValue::Nothing
    );
    // A bot entered, and a player removed.
    page.select("#t-bot-level", "Easy").await;
    page.click("#btn-t-bot").await;
    page.wait_text("#t-entrants", "⚙").await;
    // A bot account (an engine's, connected and taking challenges) entered by its name,
    // and told so; a person's name is refused with a sentence.
    let mut engine = server.client().await;
    engine
        .send(ClientMsg::Hello(banco_protocol::Hello {
            version: banco_protocol::PROTOCOL_VERSION,
            name: "Engine".into(),
            resume: None,
            account: Some(banco_protocol::Credentials::Password {
                password: "password of Engine".into(),
                register: true,
                remember: false,
                bot: true,
            }),
        }))
        .await;
    assert!(engine.welcome().await.bot);
    page.type_into("#t-bot-account", "Chi").await;
    page.click("#btn-t-bot-account").await;
    page.wait_text("body", "never entered by someone else")
        .await;
    page.js(
        "document.getElementById('t-bot-account').value = ''",
        vec![],
    )
    .await;
    page.type_into("#t-bot-account", "Engine").await;
    page.click("#btn-t-bot-account").await;
    page.wait_text("#t-entrants", "Engine").await;
    view_where(&mut engine, |v| {
        v.entrants.iter().any(|e| e.name == "Engine")
    })
    .await;
    // Dung leaves the server: shown away, live.
    people.remove(2).disconnect();
    page.wait_js(
        "Dung away",
        "[...document.querySelectorAll('#t-entrants li.away')].some(l => l.textContent.includes('Dung') && l.textContent.includes('away'))",
        vec![],
    )
    .await;
    for name in ["Dung", "Engine"] {
        page.js(
            &format!("[...document.querySelectorAll('#t-entrants li')].find(l => l.textContent.includes('{name}')).querySelector('button.remove').click()"),
            vec![],
        )
        .await;
        page.wait_js(
            "withdrawn",
            &format!("[...document.querySelectorAll('#t-entrants li.withdrawn')].some(l => l.textContent.includes('{name}'))"),
            vec![],
        )
        .await;
    }

    // Started: round 1 is paired (three players: a board and a bye).
    page.click("#btn-t-start").await;
    page.wait_text("#t-rounds", "Round 1").await;
    page.wait_text("#t-rounds [data-round=\"1\"]", "bye").await;
    page.wait_for("#btn-t-pause").await;
    page.click("#btn-t-pause").await;
    page.wait_text("#t-status", "paused").await;
    page.click("#btn-t-resume").await;
    page.wait_text("#t-status", "running").await;

    // The result by hand, marked so.
    page.select("#t-rounds [data-round=\"1\"] .set-result", "draw")
        .await;
    page.wait_text("#t-rounds [data-round=\"1\"]", "set by hand")
        .await;
    let v = view_where(&mut people[0], |v| {
        v.boards.iter().any(|b| b.round == 1 && b.by_hand)
    })
    .await;
    let board = v.boards.iter().find(|b| b.round == 1).expect("a board");
    assert_eq!(board.result, Some(BoardResult::Draw));
    page.screenshot(&dir.join("tournament-organiser-desktop.png"))
        .await;
    page.resize(PHONE).await;
    page.js("window.scrollTo(0, 0)", vec![]).await;
    page.screenshot(&dir.join("tournament-organiser-phone.png"))
        .await;

    page.close().await;
    server.stop().await;
}
