//! A database the server cannot write is refused at start, with one sentence saying why
//! and what to do, rather than the server running and keeping nothing.
//!
//! The server runs as another user than the file's owner: as root the test starts it as
//! `nobody` (setpriv), which may read the file but not write it; otherwise it makes the
//! file and its folder read-only for its own user.

#![cfg(unix)]

mod common;

use std::os::unix::fs::PermissionsExt;
use std::process::Command;

use common::TempDir;

#[test]
fn a_database_the_server_cannot_write_is_refused_with_a_sentence() {
    let dir = TempDir::new("readonly");
    let db = dir.join("banco.db");
    // A real database made by the server, then handed to someone else.
    common::ServerProcess::start(&db, &[])
        .expect("the server starts on a fresh file")
        .stop();
    assert!(db.exists(), "the database was made");

    let root = is_root();
    let mut server = if root {
        std::fs::set_permissions(&dir.0, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o644)).unwrap();
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(env!("CARGO_BIN_EXE_banco-server"));
        c
    } else {
        std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o444)).unwrap();
        std::fs::set_permissions(&dir.0, std::fs::Permissions::from_mode(0o555)).unwrap();
        Command::new(env!("CARGO_BIN_EXE_banco-server"))
    };
    let out = server
        .args(["--listen", "127.0.0.1:0", "--no-discovery", "--db"])
        .arg(&db)
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("the server binary runs");
    std::fs::set_permissions(&dir.0, std::fs::Permissions::from_mode(0o755)).unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the server must not run: {said}");
    assert!(
        said.contains("cannot write the database") && said.contains(&db.display().to_string()),
        "{said}"
    );
    assert!(
        said.contains("write access") && said.contains("--db"),
        "says what to do: {said}"
    );
    assert!(
        !said.contains("os error"),
        "a sentence, not an OS error: {said}"
    );
    assert!(!said.contains("listening"), "nothing was served: {said}");
}

/// Whether this process runs as root (uid 0), read from `/proc` without `unsafe`.
fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(1).map(|u| u == "0"))
        })
        .unwrap_or(false)
}
