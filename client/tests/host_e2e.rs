//! `banco host` stops cleanly when it is told to (SIGTERM from `kill`, systemd or a
//! closing session; Ctrl-C in plain mode): the hosted server closes its store, so the
//! database is whole and its write-ahead log folded back, instead of the process dying
//! where it stood.

#![cfg(unix)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Longest wait for the host before the test calls it hung.
const WAIT: Duration = Duration::from_secs(60);

fn host(dir: &std::path::Path) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_banco"))
        .args(["host", "--json", "--listen", "127.0.0.1:0", "--no-web"])
        .arg("--db")
        .arg(dir.join("banco.db"))
        .args(["--name", "Host"])
        .env("BANCO_CONFIG_DIR", dir.join("config"))
        .env("BANCO_STATE_DIR", dir.join("state"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the banco binary runs");
    // Wait until its own player is in: the server is serving and the store open.
    let out = child.stdout.take().expect("stdout is piped");
    let mut lines = BufReader::new(out).lines();
    loop {
        match lines.next() {
            Some(Ok(line)) if line.contains("\"welcome\"") => break,
            Some(_) => continue,
            None => panic!("banco host ended before its player was welcomed"),
        }
    }
    // Keep reading in the background, so the host never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    child
}

fn stops(mut child: Child) -> std::process::ExitStatus {
    let since = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            return status;
        }
        if since.elapsed() > WAIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("banco host did not stop");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn signal(child: &Child, name: &str) {
    let status = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
}

#[test]
fn sigterm_and_ctrl_c_stop_the_host_and_close_its_store() {
    for sig in ["TERM", "INT"] {
        let dir =
            std::env::temp_dir().join(format!("banco-host-stop-{}-{sig}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temp dir");
        let child = host(&dir);
        let wal = dir.join("banco.db-wal");
        assert!(wal.exists(), "a running store keeps its write-ahead log");
        signal(&child, sig);
        let status = stops(child);
        assert!(status.success(), "SIG{sig}: {status:?}");
        // SQLite folds the log back and removes it when the last connection closes: it
        // is gone only if the store was closed, not killed.
        assert!(!wal.exists(), "SIG{sig}: the store was not closed");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
