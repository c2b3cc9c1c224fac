//! The browser page's own logic (its room model and notation) under Node's built-in
//! test runner, so `cargo test` runs those tests too. Node is needed for this test:
//! missing, it fails with a sentence saying so.

use std::path::PathBuf;
use std::process::Command;

#[test]
fn the_page_s_logic_passes_its_node_tests() {
    let web = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../web");
    let output = Command::new("node")
        .arg("--test")
        .arg("test/")
        .current_dir(&web)
        .output()
        .unwrap_or_else(|e| {
            panic!("the page's tests need Node.js 18 or newer (node --test): {e}; install nodejs")
        });
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.status.success(),
        "node --test web/test failed:\n{text}"
    );
    assert!(
        text.contains("# pass") && !text.contains("# pass 0"),
        "no test ran:\n{text}"
    );
}
