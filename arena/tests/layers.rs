//! The arena's modules depend on each other one way only (issue 28's "layers point one
//! way"): the players know the `Player` trait and nothing of each other, the factory
//! (`spec`) knows every player. Read from the sources' `crate::` paths (comments and doc
//! links left out), so a new import that closes a circle fails here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Top-level module -> the top-level modules its code names through `crate::`.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("the sources are readable") {
            let path = entry.expect("the sources are readable").path();
            if path.is_dir() {
                if !path.ends_with("bin") {
                    stack.push(path);
                }
                continue;
            }
            let relative = path.strip_prefix(&src).expect("found under src");
            let first = relative.components().next().expect("a file has a name");
            let module = first
                .as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string();
            if module == "lib" {
                continue;
            }
            let uses = graph.entry(module.clone()).or_default();
            let text = std::fs::read_to_string(&path).expect("the sources are readable");
            for line in text.lines() {
                let code = line.split("//").next().unwrap_or("");
                for (i, _) in code.match_indices("crate::") {
                    let name: String = code[i + 7..]
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() && name != module {
                        uses.insert(name);
                    }
                }
            }
        }
    }
    graph
}

/// A circle through `module`, if its imports lead back to it.
fn circle(
    graph: &BTreeMap<String, BTreeSet<String>>,
    module: &str,
    path: &mut Vec<String>,
) -> Option<Vec<String>> {
    if let Some(at) = path.iter().position(|m| m == module) {
        return Some(path[at..].to_vec());
    }
    path.push(module.to_string());
    for next in graph.get(module).into_iter().flatten() {
        if let Some(c) = circle(graph, next, path) {
            return Some(c);
        }
    }
    path.pop();
    None
}

#[test]
fn no_module_imports_lead_back_to_it() {
    let graph = graph();
    assert!(graph.len() > 10, "{graph:?}");
    for module in graph.keys() {
        if let Some(c) = circle(&graph, module, &mut Vec::new()) {
            panic!("modules import each other in a circle: {}", c.join(" -> "));
        }
    }
}

#[test]
fn players_know_the_trait_and_the_factory_knows_the_players() {
    let graph = graph();
    // The trait (`player`) and the external engines' manager sides (`gomocup::manager`,
    // `uci::manager`) live in banco-adapters, re-exported here: they cannot import the
    // arena at all (adapters/tests/layers.rs holds that crate to the rules alone).
    assert!(
        !graph.contains_key("player"),
        "player is the adapters' again"
    );
    for kind in ["banco_player", "seeds"] {
        assert!(graph[kind].contains("player"), "{kind}: {:?}", graph[kind]);
        assert!(!graph[kind].contains("spec"), "{kind} imports the factory");
    }
    for kind in ["banco_player", "seeds", "gomocup", "uci"] {
        assert!(graph["spec"].contains(kind), "spec: {:?}", graph["spec"]);
    }
}
