//! banco-adapters sits right above the rules: `rules <- adapters <- arena, client`. It
//! may not reach up into the engine (the arena's banco players do that), the protocol or
//! an async runtime, so that the arena and `banco bot` share it without dragging each
//! other in. Read from the crate's manifest.

#[test]
fn the_adapters_depend_on_the_rules_alone() {
    let manifest = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))
        .expect("the manifest is readable");
    let deps: Vec<&str> = manifest
        .split("[dependencies]")
        .nth(1)
        .expect("a [dependencies] table")
        .lines()
        .take_while(|l| !l.starts_with('['))
        .filter_map(|l| l.split(['.', '=']).next())
        .map(str::trim)
        .filter(|name| !name.is_empty() && !name.starts_with('#'))
        .collect();
    let banco: Vec<&&str> = deps.iter().filter(|d| d.starts_with("banco-")).collect();
    assert_eq!(banco, [&"banco-rules"], "{deps:?}");
    assert!(!deps.contains(&"tokio"), "{deps:?}");
}
