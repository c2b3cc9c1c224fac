//! The page's JavaScript is type-checked against the protocol's JSON Schema: a field
//! renamed in the schema (as a change to the Rust types would rename it) makes
//! `tsc --noEmit` fail on the page that still uses the old name. The check runs on a copy
//! of `web/` in a temp dir with the TypeScript that `npm ci --prefix web` installs (as
//! `.ci/run` does); without it this test says so and checks nothing.

use std::path::{Path, PathBuf};
use std::process::Command;

use banco_protocol::schema::{json_schema, typescript};
use banco_tests::TempDir;
use serde_json::Value;

fn web() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../web")
}

/// The TypeScript compiler `npm ci --prefix web` installed, if it did.
fn tsc() -> Option<PathBuf> {
    let tsc = web().join("node_modules/typescript/bin/tsc");
    tsc.exists().then_some(tsc)
}

/// A copy of the page's scripts and type-check settings in a fresh dir.
fn copy_page(to: &Path) {
    std::fs::create_dir_all(to.join("js")).expect("make js/");
    for file in ["tsconfig.json", "package.json"] {
        std::fs::copy(web().join(file), to.join(file)).expect("copy the settings");
    }
    for entry in std::fs::read_dir(web().join("js")).expect("read web/js") {
        let path = entry.expect("an entry").path();
        if let Some(name) = path.file_name() {
            std::fs::copy(&path, to.join("js").join(name)).expect("copy a script");
        }
    }
}

/// Runs tsc on the copy: its success and what it printed.
fn check(tsc: &Path, dir: &Path) -> (bool, String) {
    let out = Command::new("node")
        .arg(tsc)
        .args(["-p", "tsconfig.json", "--noEmit"])
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("node runs tsc: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// The schema with property `field` of definition `def` renamed to `to`.
fn renamed(schema: &Value, def: &str, field: &str, to: &str) -> Value {
    let mut schema = schema.clone();
    let object = schema["$defs"][def]
        .as_object_mut()
        .unwrap_or_else(|| panic!("{def} is in the schema"));
    let properties = object["properties"]
        .as_object_mut()
        .expect("an object with properties");
    let property = properties
        .remove(field)
        .unwrap_or_else(|| panic!("{def}.{field} is in the schema"));
    properties.insert(to.to_string(), property);
    if let Some(required) = object.get_mut("required").and_then(Value::as_array_mut) {
        for name in required.iter_mut() {
            if name == field {
                *name = Value::String(to.to_string());
            }
        }
    }
    schema
}

#[test]
fn a_field_renamed_in_the_schema_fails_the_page_s_type_check() {
    let Some(tsc) = tsc() else {
        eprintln!(
            "SKIPPED: TypeScript is not installed for the page: run `npm ci --prefix web` \
             (.ci/run does) to type-check it against the schema"
        );
        return;
    };
    let temp = TempDir::new("page-types");
    copy_page(temp.path());
    // As committed, the page checks clean: the failures below are the renames'.
    let (ok, text) = check(&tsc, temp.path());
    assert!(ok, "the page does not type-check as it is:\n{text}");

    let schema = json_schema();
    // A field of the room's game the board and the move list read, a field of a move
    // record the move list shows, and a field of a recorded game a replay reads.
    for (def, field, to) in [
        ("GameView", "moves", "plies_played"),
        ("MoveRecord", "wxf", "notation"),
        ("RecordedSummary", "players", "names"),
    ] {
        let types = typescript(&renamed(&schema, def, field, to)).expect("types");
        std::fs::write(temp.path().join("js/protocol.d.ts"), types).expect("write the types");
        let (ok, text) = check(&tsc, temp.path());
        assert!(
            !ok,
            "renaming {def}.{field} to {to} in the schema did not fail the page's type check"
        );
        assert!(
            text.contains(&format!("'{field}'")),
            "tsc failed, but not over {def}.{field}:\n{text}"
        );
    }
}
