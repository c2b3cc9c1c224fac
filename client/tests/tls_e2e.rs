//! `banco join` and the server's key, as a person meets them: the fingerprint said on
//! the first connection and pinned, silence on the next, a changed key refused with
//! both fingerprints and what to do, `banco forget`, `--fingerprint`, `--no-tls`.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::process::Command;
use tokio_util::sync::CancellationToken;

use banco_protocol::Fingerprint;
use banco_server::tls::{Identity, Tls};
use banco_server::{Config, StoreLocation};

const WAIT: Duration = Duration::from_secs(60);

/// A server on 127.0.0.1 with a key made for this test; its address and fingerprint.
async fn server(shutdown: &CancellationToken) -> (String, Fingerprint) {
    let identity = Identity::this_run().expect("a key for the test");
    let fingerprint = identity.fingerprint;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let addr = listener.local_addr().expect("its address").to_string();
    let config = Config {
        store: StoreLocation::Memory,
        discovery: None,
        tls: Tls::Ready(Arc::new(identity)),
        ..Config::default()
    };
    tokio::spawn(banco_server::run(listener, config, shutdown.clone()));
    (addr, fingerprint)
}

/// What one run of `banco ARGS` said: exit success, stdout, stderr. Line mode reads
/// `quit` and leaves.
async fn banco(state: &Path, args: &[&str]) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_banco"))
        .args(args)
        .env("BANCO_CONFIG_DIR", state.join("config"))
        .env("BANCO_STATE_DIR", state)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the banco binary runs");
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(b"quit\n").await;
    }
    let out = tokio::time::timeout(WAIT, child.wait_with_output())
        .await
        .expect("banco ends after quit")
        .expect("banco's output");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("banco-tls-e2e-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

#[tokio::test]
async fn join_pins_on_first_use_and_refuses_a_changed_key() {
    let shutdown = CancellationToken::new();
    let (addr, fp) = server(&shutdown).await;
    let state = scratch("pins");
    let join = ["join", addr.as_str(), "--plain", "--name", "An"];

    let (ok, _, said) = banco(&state, &join).await;
    assert!(ok, "{said}");
    assert!(
        said.contains(&format!(
            "First connection to {addr}: its key fingerprint is {fp}"
        )),
        "{said}"
    );
    let (ok, _, said) = banco(&state, &join).await;
    assert!(ok && !said.contains("First connection"), "{said}");

    // The pin on file is another key, as if the server's had changed.
    let other = Fingerprint([7; 32]);
    let file = state.join("known_hosts");
    let text = std::fs::read_to_string(&file).expect("the pin was written");
    std::fs::write(&file, text.replace(&fp.hex(), &other.hex())).expect("rewrite the pin");
    let (ok, _, said) = banco(&state, &join).await;
    assert!(!ok, "a changed key must be refused: {said}");
    for needed in [
        fp.to_string(),
        other.to_string(),
        format!("banco forget {addr}"),
    ] {
        assert!(said.contains(&needed), "{needed:?} not in: {said}");
    }
    // --no-tls does not get around it.
    let mut plain = join.to_vec();
    plain.push("--no-tls");
    let (ok, _, said) = banco(&state, &plain).await;
    assert!(!ok && said.contains("--no-tls asks to join"), "{said}");

    // The host confirms the key: forgotten, then pinned again on the next join.
    let (ok, out, _) = banco(&state, &["forget", &addr]).await;
    assert!(ok && out.starts_with("Forgot the key"), "{out}");
    let (ok, _, said) = banco(&state, &join).await;
    assert!(ok && said.contains("First connection"), "{said}");

    // A key named on the command line is required.
    let wrong = other.hex();
    let mut told = join.to_vec();
    told.extend(["--fingerprint", &wrong]);
    let (ok, _, said) = banco(&state, &told).await;
    assert!(!ok && said.contains("--fingerprint"), "{said}");
    let right = fp.to_string();
    let mut told = join.to_vec();
    told.extend(["--fingerprint", &right]);
    let (ok, _, said) = banco(&state, &told).await;
    assert!(ok, "{said}");

    shutdown.cancel();
    let _ = std::fs::remove_dir_all(&state);
}
