//! The host's account commands on the database of a running server, and what the
//! server's log says about accounts (never a password or a hash).

mod common;

use banco_protocol::{Credentials, ErrorCode, ServerMsg};
use common::{Client, ServerProcess, TempDir};
use std::process::Command;

fn account(db: &std::path::Path, args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_banco-server"))
        .arg("--db")
        .arg(db)
        .arg("account")
        .args(args)
        .output()
        .expect("the server binary runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

fn login(password: &str, register: bool) -> Option<Credentials> {
    Some(Credentials {
        bot: false,
        password: password.into(),
        register,
    })
}

#[tokio::test]
async fn the_host_lists_resets_and_removes_accounts_while_the_server_runs() {
    let dir = TempDir::new("accounts-cli");
    let db = dir.join("banco.db");
    let server = ServerProcess::start(&db, &[]).expect("the server starts");
    let first = "the owner's own password";
    Client::hello(server.addr, "An", None, login(first, true))
        .await
        .expect("An registers");

    let (ok, listed) = account(&db, &["list"]);
    assert!(ok, "{listed}");
    assert!(listed.starts_with("An "), "{listed}");

    let (ok, reset) = account(&db, &["reset-password", "an"]);
    assert!(ok, "{reset}");
    let new = reset
        .lines()
        .find_map(|l| l.strip_prefix("New password for an: "))
        .expect("the new password is printed")
        .trim()
        .to_string();
    match Client::hello(server.addr, "An", None, login(first, false)).await {
        Err(Some(ServerMsg::Error(e))) => assert_eq!(e.code, ErrorCode::LoginFailed),
        Err(other) => panic!("expected a refusal, got {other:?}"),
        Ok(_) => panic!("the old password still works"),
    }
    let back = Client::hello(server.addr, "An", None, login(&new, false))
        .await
        .expect("the new password works");
    assert_eq!(back.name, "An");

    let (ok, missing) = account(&db, &["reset-password", "Nobody"]);
    assert!(!ok && missing.contains("no account Nobody"), "{missing}");

    let (ok, removed) = account(&db, &["remove", "An"]);
    assert!(ok, "{removed}");
    let guest = Client::connect(server.addr, "An", None).await;
    assert_eq!(guest.name, "~An", "the name is free again, for a guest too");

    let log = server.stop_with_log();
    assert!(log.iter().any(|l| l.contains("logged in")), "{log:?}");
    for line in &log {
        assert!(!line.contains(first) && !line.contains(&new), "{line}");
        assert!(!line.contains("argon2"), "{line}");
    }
}
