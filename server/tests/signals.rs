//! The `banco-server` binary stops cleanly on SIGTERM and SIGINT, even when whatever was
//! reading its log has gone away (`banco-server | tee log`, then Ctrl-C: tee dies first).

#![cfg(unix)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Longest wait for the server to stop before the test calls it hung.
const WAIT: Duration = Duration::from_secs(60);

fn start() -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_banco-server"))
        .args([
            "--listen",
            "127.0.0.1:0",
            "--no-discovery",
            "--db",
            ":memory:",
        ])
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server binary starts");
    // Wait until it is serving, then stop reading its log at all.
    let log = child.stderr.take().expect("stderr is piped");
    let mut lines = BufReader::new(log).lines();
    loop {
        match lines.next() {
            Some(Ok(line)) if line.contains("banco server listening") => break,
            Some(_) => continue,
            None => panic!("the server ended before listening"),
        }
    }
    drop(lines);
    child
}

fn signal(child: &Child, name: &str) {
    let status = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
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
            panic!("the server did not stop");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn sigterm_stops_the_server_whose_log_reader_is_gone() {
    let child = start();
    signal(&child, "TERM");
    assert!(stops(child).success());
}

#[test]
fn sigint_stops_the_server_whose_log_reader_is_gone() {
    let child = start();
    signal(&child, "INT");
    assert!(stops(child).success());
}
