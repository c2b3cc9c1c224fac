//! The terminal client's layers point one way: `app` decides and never imports the
//! drawing (`ui`); `layout` (where things go on the screen) imports neither; `ui` reads
//! the app and never takes it mutably. Read from the source: every `crate::` path in a
//! module's non-test code names the top-level module it reaches into.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The `.rs` files under `dir`, tests left out (`tests.rs`, `tests/` folders).
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("the source folder reads") {
            let path = entry.expect("a directory entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                if name != "tests" && name != "snapshots" {
                    stack.push(path);
                }
            } else if name.ends_with(".rs") && name != "tests.rs" {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The code of `file` before its unit tests, comments dropped.
fn code(file: &Path) -> String {
    let text = std::fs::read_to_string(file).expect("a source file reads");
    let mut out = String::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") {
            break;
        }
        if trimmed.starts_with("//") {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The top-level modules of the crate that `code` reaches: `crate::X` in paths and
/// `use crate::{X, Y::..}` groups.
fn reaches(code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // A group: each item's first segment, at the group's top level only.
            let mut depth = 0;
            let mut item_start = true;
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    c if item_start && !c.is_whitespace() => {
                        item_start = false;
                        found.insert(ident(&group[j..]));
                    }
                    _ => {}
                }
            }
        } else {
            found.insert(ident(rest));
        }
    }
    found.remove("");
    found
}

/// For each file under `src/<module>`, the modules it reaches that it must not.
fn offences(module: &str, banned: &[&str]) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src")
        .join(module);
    let files = sources(&dir);
    assert!(!files.is_empty(), "no sources under {}", dir.display());
    let mut out = Vec::new();
    for file in files {
        for m in reaches(&code(&file)) {
            if banned.contains(&m.as_str()) {
                out.push(format!("{} reaches crate::{m}", file.display()));
            }
        }
    }
    out
}

#[test]
fn the_reader_finds_paths_and_groups() {
    let code = "use crate::app::{App, Screen};\nuse crate::{tr, ui::room};\nlet x = crate::layout::room::spot_at();";
    let found: Vec<_> = reaches(code).into_iter().collect();
    assert_eq!(found, ["app", "layout", "tr", "ui"]);
}

#[test]
fn app_decides_and_never_imports_the_drawing() {
    let bad = offences("app", &["ui", "tui"]);
    assert!(
        bad.is_empty(),
        "app imports the drawing:\n{}",
        bad.join("\n")
    );
}

#[test]
fn layout_imports_neither_the_app_nor_the_drawing() {
    let bad = offences("layout", &["app", "ui", "tui"]);
    assert!(bad.is_empty(), "layout reaches up:\n{}", bad.join("\n"));
}

#[test]
fn ui_only_reads_the_app() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui");
    let mut bad = Vec::new();
    for file in sources(&dir) {
        let code = code(&file);
        for needle in [
            "&mut App",
            "&mut crate::app::App",
            "mut app:",
            "RefCell",
            "Cell<",
        ] {
            if code.contains(needle) {
                bad.push(format!("{}: {needle}", file.display()));
            }
        }
        // The handlers' entry points change the app; drawing never calls them.
        for call in [".key(", ".mouse(", ".server(", ".tick(", ".take_effects("] {
            if code.contains(&format!("app{call}")) {
                bad.push(format!("{}: app{call}", file.display()));
            }
        }
    }
    assert!(bad.is_empty(), "ui changes the app:\n{}", bad.join("\n"));
}
