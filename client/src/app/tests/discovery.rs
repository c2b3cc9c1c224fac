//! The connect screen's list of servers found on the network.

use super::*;
use crate::discover::{Found, Key};

fn found() -> Vec<Found> {
    let f = |name: &str, addr: &str, version, key| Found {
        name: name.into(),
        address: addr.parse().unwrap(),
        rooms: 2,
        players: 3,
        version,
        fingerprint: Some(banco_protocol::Fingerprint([0x3f; 32])),
        key,
    };
    vec![
        f(
            "lan-box",
            "192.168.1.20:7373",
            banco_protocol::PROTOCOL_VERSION,
            Key::Known,
        ),
        f(
            "old-pc",
            "192.168.1.31:7373",
            banco_protocol::PROTOCOL_VERSION + 1,
            Key::Changed,
        ),
        f(
            "phòng khách",
            "192.168.1.40:7400",
            banco_protocol::PROTOCOL_VERSION,
            Key::New,
        ),
    ]
}

fn form(a: &App) -> &ConnectForm {
    match &a.screen {
        Screen::Connect(f) => f,
        _ => panic!("not on the connect screen"),
    }
}

#[test]
fn the_connect_screen_looks_for_servers_every_few_seconds() {
    let mut a = app();
    a.tick();
    assert_eq!(a.take_effects(), [Effect::Discover]);
    // One look at a time.
    a.tick();
    assert!(a.take_effects().is_empty());
    a.discovered(found());
    assert_eq!(form(&a).servers.len(), 3);
    a.tick();
    assert!(a.take_effects().is_empty(), "not before SCAN_EVERY or so");
    a.now += SCAN_EVERY * 3 / 4 - Duration::from_millis(1);
    a.tick();
    assert!(
        a.take_effects().is_empty(),
        "not before three quarters of it"
    );
    a.now += SCAN_EVERY / 2 + Duration::from_millis(1);
    a.tick();
    assert_eq!(a.take_effects(), [Effect::Discover]);
    a.discovered(found());
    // Connected: no more looking.
    a.connected(welcome(), "192.168.1.20:7373".into());
    a.take_effects();
    a.now += SCAN_EVERY * 2;
    a.tick();
    assert!(!a.take_effects().contains(&Effect::Discover));
    // Late results for a screen that is gone change nothing.
    a.discovered(found());
    assert!(matches!(a.screen, Screen::Lobby(_)));
}

#[test]
fn the_pause_between_looks_varies_so_two_screens_drift_apart() {
    // Two connect screens opened in the same instant, answered in the same instant:
    // their next looks are drawn apart.
    let pauses: Vec<Duration> = (0..20)
        .map(|_| {
            let mut a = app();
            a.tick();
            a.discovered(Vec::new());
            a.scan.next - a.now
        })
        .collect();
    for p in &pauses {
        assert!(
            (SCAN_EVERY * 3 / 4..=SCAN_EVERY * 5 / 4).contains(p),
            "{p:?}"
        );
    }
    assert!(
        pauses.iter().any(|p| *p != pauses[0]),
        "twenty pauses all alike: {pauses:?}"
    );
}

#[test]
fn arrows_pick_a_server_and_enter_joins_it() {
    let mut a = app();
    a.tick();
    a.take_effects();
    a.discovered(found());
    // The name has the focus (no address typed): down walks into the list.
    assert_eq!(form(&a).focus, ConnectField::Address);
    // Address, name, password, then the list.
    press(&mut a, &[KeyCode::Down, KeyCode::Down, KeyCode::Down]);
    assert_eq!(form(&a).focus, ConnectField::Servers);
    press(&mut a, &[KeyCode::Down, KeyCode::Down, KeyCode::Down]);
    assert_eq!(form(&a).selected, 2, "the list stops at its end");
    // A new look keeps the same server highlighted even if the order changes.
    let mut shuffled = found();
    shuffled.reverse();
    a.discovered(shuffled);
    assert_eq!(form(&a).servers[form(&a).selected].name, "phòng khách");
    a.discovered(found());
    press(&mut a, &[KeyCode::Enter]);
    assert_eq!(
        a.take_effects(),
        [Effect::Connect {
            address: "192.168.1.40:7400".into(),
            name: "An".into(),
            resume: None,
            account: None,
        }]
    );
    assert_eq!(form(&a).address.text(), "192.168.1.40:7400");
    // Another version cannot be joined: said, nothing dialled.
    let mut a = app();
    a.discovered(found());
    press(
        &mut a,
        &[
            KeyCode::Tab,
            KeyCode::Tab,
            KeyCode::Tab,
            KeyCode::Down,
            KeyCode::Enter,
        ],
    );
    assert!(a.take_effects().is_empty());
    let error = form(&a).error.clone().unwrap();
    assert!(
        error.contains("old-pc runs another version of banco"),
        "{error}"
    );
    // Up from the top of the list goes back to the password, then the name; typing
    // there types.
    press(&mut a, &[KeyCode::Up, KeyCode::Up, KeyCode::Up]);
    assert_eq!(form(&a).focus, ConnectField::Name);
    typ(&mut a, "h");
    assert_eq!(form(&a).name.text(), "Anh");
}

#[test]
fn snapshot_connect_with_servers_found() {
    let mut a = app();
    a.discovered(found());
    // Address, name, password, then the list.
    press(&mut a, &[KeyCode::Down, KeyCode::Down, KeyCode::Down]);
    let (text, _) = render(&a, 80, 24);
    insta::assert_snapshot!("connect_servers", text);
    let mut none = app();
    none.discovered(vec![]);
    let (text, _) = render(&none, 80, 24);
    assert!(
        text.contains("No server answered on your network yet"),
        "{text}"
    );
    // The long sentence wraps inside the box and the keys still show below it.
    assert!(text.contains("? F1 help"), "{text}");
    none.loc = Locale::load("vi", None).unwrap();
    let (text, _) = render(&none, 80, 24);
    assert!(text.contains("? F1 trợ giúp"), "{text}");
    assert!(
        !text.contains("│lửa"),
        "wrapped lines keep the margin: {text}"
    );
}

#[test]
fn the_hosts_lobby_names_its_real_addresses() {
    let mut a = lobby_app();
    a.hosting = Some(Hosting {
        join_hint: vec!["192.168.1.20".into(), "10.8.0.2".into()],
        ..Hosting::new("0.0.0.0:7373")
    });
    let (text, _) = render(&a, 100, 20);
    assert!(
        text.contains("banco join 192.168.1.20 or 10.8.0.2"),
        "{text}"
    );
    assert!(!text.contains("<this machine's IP>"), "{text}");
    // No network at all: the placeholder, with the port when it is not the default.
    a.hosting = Some(Hosting::new("0.0.0.0:7400"));
    let (text, _) = render(&a, 100, 20);
    assert!(
        text.contains("banco join <this machine's IP>:7400"),
        "{text}"
    );
}

#[test]
fn the_hosts_lobby_shows_the_browser_address_and_its_qr_code() {
    let mut a = lobby_app();
    a.hosting = Some(Hosting {
        join_hint: vec!["192.168.1.20".into()],
        web_urls: vec!["http://192.168.1.20:7373/".into()],
        ..Hosting::new("0.0.0.0:7373")
    });
    let (text, _) = render(&a, 120, 40);
    assert!(text.contains("http://192.168.1.20:7373/"), "{text}");
    assert!(text.contains("scan to play"), "{text}");
    assert!(text.contains('▀') || text.contains('▄'), "{text}");
    // A small terminal keeps the address but leaves the code out.
    let (text, _) = render(&a, 80, 20);
    assert!(text.contains("http://192.168.1.20:7373/"), "{text}");
    assert!(!text.contains("scan to play"), "{text}");
    // On two networks a browser on each opens a different address: both are given,
    // wrapped onto a second line in a narrow terminal rather than cut off.
    if let Some(h) = &mut a.hosting {
        h.web_urls.push("http://10.77.0.1:7373/".into());
    }
    let (text, _) = render(&a, 120, 40);
    assert!(
        text.contains("http://192.168.1.20:7373/ or http://10.77.0.1:7373/"),
        "{text}"
    );
    let (text, _) = render(&a, 80, 24);
    assert!(text.contains("http://10.77.0.1:7373/"), "{text}");
}
