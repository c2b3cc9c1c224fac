//! The protocol's written contract is what the code says: the committed JSON Schema
//! (`protocol/schema/protocol.schema.json`) and the page's TypeScript declarations
//! (`web/js/protocol.d.ts`) are regenerated here and compared. When a message type
//! changes, regenerate both with
//! `UPDATE_SCHEMA=1 cargo test -p banco-protocol --test schema` and commit them.

use std::path::PathBuf;

use banco_protocol::schema::{json_schema, json_schema_text, typescript};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Compares `path` with `fresh`, or writes it when asked to update.
fn check(relative: &str, fresh: &str) {
    let path = root().join(relative);
    if std::env::var_os("UPDATE_SCHEMA").is_some() {
        std::fs::write(&path, fresh).unwrap_or_else(|e| panic!("writing {relative}: {e}"));
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != fresh {
        let line = committed
            .lines()
            .zip(fresh.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| committed.lines().count().min(fresh.lines().count()));
        panic!(
            "{relative} is not what the protocol's types generate (first difference at line {}): \
             regenerate with `UPDATE_SCHEMA=1 cargo test -p banco-protocol --test schema` and commit it",
            line + 1
        );
    }
}

#[test]
fn the_committed_json_schema_is_what_the_types_generate() {
    check("protocol/schema/protocol.schema.json", &json_schema_text());
}

#[test]
fn the_page_s_typescript_declarations_are_what_the_schema_generates() {
    let ts = typescript(&json_schema()).expect("the schema turns into types");
    check("web/js/protocol.d.ts", &ts);
}

#[test]
fn the_schema_describes_every_message_and_its_fields() {
    let schema = json_schema();
    let defs = schema["$defs"].as_object().expect("$defs");
    for name in [
        "ClientMsg",
        "ServerMsg",
        "Move",
        "GameView",
        "RoomSettings",
        "Point",
    ] {
        assert!(defs.contains_key(name), "{name} is missing from the schema");
    }
    // Doc comments are descriptions: the contract is readable on its own.
    let hello = &defs["Hello"]["properties"]["version"]["description"];
    assert!(
        hello
            .as_str()
            .is_some_and(|d| d.contains("PROTOCOL_VERSION"))
    );
    let ts = typescript(&schema).expect("types");
    assert!(ts.contains("export type ClientMsg ="));
    assert!(ts.contains("export type Point = {\n  x: number;\n  y: number;\n}"));
}
