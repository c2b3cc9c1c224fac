//! The page's text: the shared locale files at the workspace root's `locales/` (the ones
//! the terminal client reads too, so a translation serves both clients) with the page's
//! own few keys from `web/locales/`, flattened to one JSON object of `"section.key":
//! "text"` per language.

use serde_json::{Map, Value};
use std::sync::OnceLock;

/// The languages the page offers: code, the shared file, the page's additions.
const LANGUAGES: &[(&str, &str, &str)] = &[
    (
        "en",
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../locales/en.toml")),
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../web/locales/en.toml"
        )),
    ),
    (
        "vi",
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../locales/vi.toml")),
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../web/locales/vi.toml"
        )),
    ),
];

/// The JSON text for language `code`, if the page has it.
pub fn json(code: &str) -> Option<&'static [u8]> {
    static BUILT: OnceLock<Vec<(&'static str, Vec<u8>)>> = OnceLock::new();
    let built = BUILT.get_or_init(|| {
        LANGUAGES
            .iter()
            .map(|(code, client, page)| {
                let mut flat = Map::new();
                for text in [client, page] {
                    match text.parse::<toml::Table>() {
                        Ok(table) => flatten("", &table, &mut flat),
                        // Built-in files are checked by a test; never a panic here.
                        Err(e) => tracing::error!(language = code, error = %e, "a locale file does not parse"),
                    }
                }
                (*code, serde_json::to_vec(&Value::Object(flat)).unwrap_or_default())
            })
            .collect()
    });
    built
        .iter()
        .find(|(c, _)| *c == code)
        .map(|(_, json)| json.as_slice())
}

fn flatten(prefix: &str, table: &toml::Table, out: &mut Map<String, Value>) {
    for (key, value) in table {
        let path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        match value {
            toml::Value::Table(inner) => flatten(&path, inner, out),
            toml::Value::String(text) => {
                out.insert(path, Value::String(text.clone()));
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(code: &str) -> Map<String, Value> {
        let text = json(code).unwrap();
        match serde_json::from_slice(text).unwrap() {
            Value::Object(map) => map,
            _ => panic!("not an object"),
        }
    }

    #[test]
    fn both_languages_have_every_key_of_the_client_and_the_page() {
        for (code, client, page) in LANGUAGES {
            assert!(client.parse::<toml::Table>().is_ok(), "{code} client file");
            assert!(page.parse::<toml::Table>().is_ok(), "{code} page file");
        }
        let (en, vi) = (keys("en"), keys("vi"));
        assert_eq!(en["room.players"], "Players");
        assert!(en.contains_key("web.connecting"));
        let missing: Vec<_> = en.keys().filter(|k| !vi.contains_key(*k)).collect();
        assert!(missing.is_empty(), "vi lacks {missing:?}");
        assert!(json("xx").is_none());
    }

    /// Every key the page's scripts name (`t("...")`) exists in English.
    #[test]
    fn every_key_the_page_uses_exists() {
        let en = keys("en");
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../web/js");
        let mut missing = Vec::new();
        let mut checked = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let source = std::fs::read_to_string(&path).unwrap();
            for (at, _) in source.match_indices("t(") {
                let before = source[..at].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
                    continue; // another function whose name ends in t
                }
                let rest = &source[at + 2..];
                let Some(quote) = rest.chars().next().filter(|q| *q == '\'' || *q == '"') else {
                    continue; // a key built at run time (`t(`offer.${key}`)`)
                };
                let Some(key) = rest[1..].split(quote).next() else {
                    continue;
                };
                checked += 1;
                if !en.contains_key(key) {
                    missing.push(format!("{}: {key}", path.display()));
                }
            }
        }
        assert!(
            checked > 100,
            "only {checked} keys found: is the page's t() still called t?"
        );
        assert!(missing.is_empty(), "keys not in any locale: {missing:#?}");
    }
}
