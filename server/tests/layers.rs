//! The server's layers point one way: read from the source, every path into the crate
//! (`crate::room::..`, `use crate::{lobby, ..}`, `super::super::config`, a root
//! re-export such as `crate::Config`) is an arrow from the file's top-level module to
//! another's. The store is the bottom: nothing it reaches, directly or through the
//! modules it uses, is a room, the lobby, a session, a connection or the configuration
//! (or anything above them); the configuration reaches neither the store nor the rooms.
//! A new import that breaks this fails here, with the file and the path named.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Top-level modules the store must never reach.
const ABOVE_THE_STORE: [&str; 12] = [
    "room",
    "lobby",
    "config",
    "session",
    "connection",
    "server",
    "web",
    "accounts",
    "review",
    "engines",
    "limits",
    "discovery",
];

/// An arrow: from one top-level module to another, and where it was seen.
type Arrows = BTreeMap<String, BTreeMap<String, String>>;

fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("the source folder reads") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            source_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file under `src/` (`store/live.rs` -> `[store, live]`,
/// `store/mod.rs` -> `[store]`, `lib.rs` -> `[]`).
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("a file under src");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The code of a line without its comment (`//`, `///`, `//!`).
fn code(line: &str) -> &str {
    match line.find("//") {
        Some(at) => &line[..at],
        None => line,
    }
}

fn ident_at(text: &str) -> String {
    text.chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

/// The names a root re-export (`pub use config::{Config, StoreLocation};` in lib.rs)
/// stands for: name -> module.
fn root_reexports(lib: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    for line in lib.lines().map(code) {
        let Some(rest) = line.trim().strip_prefix("pub use ") else {
            continue;
        };
        let module = ident_at(rest);
        let after = rest[module.len()..].trim_start_matches("::");
        let names = after.trim_start_matches('{').trim_end_matches(';');
        for name in names.split([',', '}']) {
            let name = ident_at(name.trim());
            if !name.is_empty() {
                map.insert(name, module.clone());
            }
        }
    }
    map
}

/// The first segments after `crate::` in `text` at `at` (several for `crate::{a, b}`).
fn targets(text: &str) -> Vec<String> {
    if let Some(group) = text.strip_prefix('{') {
        let mut depth = 1;
        let mut out = Vec::new();
        let mut start = true;
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 1 => break,
                '}' => depth -= 1,
                ',' if depth == 1 => start = true,
                c if c.is_whitespace() => {}
                _ if start && depth == 1 => {
                    out.push(ident_at(&group[i..]));
                    start = false;
                }
                _ => {}
            }
        }
        out
    } else {
        vec![ident_at(text)]
    }
}

fn arrows() -> Arrows {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs reads");
    let reexports = root_reexports(&lib);
    let modules: BTreeSet<String> = lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|m| m.trim_end_matches(';').to_string())
        .collect();
    let mut files = Vec::new();
    source_files(&src, &mut files);
    let mut arrows = Arrows::new();
    for file in files {
        let path = module_path(&src, &file);
        let Some(from) = path.first().cloned() else {
            continue; // lib.rs: the map of modules, not an arrow
        };
        if from == "main" {
            continue; // the binary, above everything
        }
        let text = std::fs::read_to_string(&file).expect("a source file reads");
        for (n, line) in text.lines().enumerate() {
            let line = code(line);
            let mut found = Vec::new();
            for (at, _) in line.match_indices("crate::") {
                // `banco_server::..`-like names end in "crate::" too: only the keyword.
                let before = line[..at].chars().last();
                if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                    continue;
                }
                found.extend(targets(&line[at + "crate::".len()..]));
            }
            // `super::super::x` from `store/live.rs` is the crate root's `x`.
            for (at, _) in line.match_indices("super::") {
                if line[..at].ends_with("super::") {
                    continue;
                }
                let mut rest = &line[at..];
                let mut up = 0;
                while let Some(r) = rest.strip_prefix("super::") {
                    up += 1;
                    rest = r;
                }
                if up >= path.len() {
                    found.extend(targets(rest));
                }
            }
            for target in found {
                let to = if modules.contains(&target) {
                    target
                } else if let Some(module) = reexports.get(&target) {
                    module.clone()
                } else {
                    continue; // an item of the crate root itself (`ClientId`)
                };
                if to != from {
                    let seen = format!("{}:{}: {}", file.display(), n + 1, line.trim());
                    arrows
                        .entry(from.clone())
                        .or_default()
                        .entry(to)
                        .or_insert(seen);
                }
            }
        }
    }
    arrows
}

/// Everything `start` reaches, each with the chain of arrows that gets there.
fn reach(arrows: &Arrows, start: &str) -> BTreeMap<String, Vec<String>> {
    let mut reached: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut todo = vec![(start.to_string(), Vec::new())];
    while let Some((module, chain)) = todo.pop() {
        for (to, seen) in arrows.get(&module).into_iter().flatten() {
            if to == start || reached.contains_key(to) {
                continue;
            }
            let mut chain = chain.clone();
            chain.push(seen.clone());
            reached.insert(to.clone(), chain.clone());
            todo.push((to.clone(), chain));
        }
    }
    reached
}

#[test]
fn the_store_is_the_bottom_of_the_server() {
    let arrows = arrows();
    assert!(
        arrows.contains_key("room") && arrows.contains_key("store"),
        "the reader found the modules' imports: {arrows:?}"
    );
    let reached = reach(&arrows, "store");
    let wrong: Vec<String> = ABOVE_THE_STORE
        .iter()
        .filter_map(|m| {
            reached
                .get(*m)
                .map(|chain| format!("{m}, by:\n  {}", chain.join("\n  ")))
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "the store reaches up into:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_configuration_reaches_neither_the_store_nor_the_rooms() {
    let arrows = arrows();
    let reached = reach(&arrows, "config");
    for m in ["store", "room", "lobby", "session"] {
        assert!(
            !reached.contains_key(m),
            "config reaches {m}, by:\n  {}",
            reached[m].join("\n  ")
        );
    }
}

#[test]
fn the_reader_sees_an_arrow_that_points_up() {
    // The test would pass on any tree if it saw no arrows: it sees the room's use of the
    // store, and it would see a line like this one in a store file.
    let arrows = arrows();
    assert!(arrows["room"].contains_key("store"));
    assert_eq!(targets("{room::chat, lobby::Lobby}"), ["room", "lobby"]);
    assert_eq!(targets("config::Config;"), ["config"]);
}
