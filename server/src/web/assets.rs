//! The page's files, embedded at compile time from the workspace's `web/` folder, so the
//! server binary alone serves the browser client: nothing to install, no build step.

use banco_protocol::{MAX_RECORD_TEXT, PROTOCOL_VERSION};
use std::sync::OnceLock;

/// One embedded file.
pub struct Asset {
    /// Its path in the URL, from the root (`/js/main.js`).
    pub path: &'static str,
    /// Its bytes.
    pub body: &'static [u8],
}

macro_rules! embed {
    ($($file:literal),* $(,)?) => {
        &[$(Asset {
            path: concat!("/", $file),
            body: include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../web/", $file)),
        }),*]
    };
}

/// Every file the page is made of. A test checks nothing in `web/` is left out.
pub const FILES: &[Asset] = embed![
    "style.css",
    "icon.svg",
    "js/main.js",
    "js/dom.js",
    "js/i18n.js",
    "js/net.js",
    "js/state.js",
    "js/notation.js",
    "js/lobby.js",
    "js/create.js",
    "js/room.js",
    "js/caro.js",
    "js/swap.js",
    "js/xiangqi.js",
    "js/editor.js",
    "js/records.js",
    "js/sound.js",
    "js/prefs.js",
    "js/draft.js",
    "js/keys.js",
    "js/profile.js",
    "js/challenges.js",
    "js/tournaments.js",
    // The xiangqi pieces' characters, so they read where no Chinese font is installed,
    // and the font's licence beside it.
    "fonts/xiangqi.woff2",
    "fonts/OFL.txt",
];

/// The page itself (`/`), with the protocol version it must announce in its Hello and
/// the longest record file text it may send.
pub fn index() -> &'static [u8] {
    static PAGE: OnceLock<Vec<u8>> = OnceLock::new();
    PAGE.get_or_init(|| {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../web/index.html"))
            .replace("{{PROTOCOL_VERSION}}", &PROTOCOL_VERSION.to_string())
            .replace("{{MAX_RECORD_TEXT}}", &MAX_RECORD_TEXT.to_string())
            .into_bytes()
    })
}

/// The embedded file at `path`, if there is one.
pub fn find(path: &str) -> Option<&'static Asset> {
    FILES.iter().find(|a| a.path == path)
}

impl Asset {
    /// Its `Content-Type`, from its extension.
    pub fn content_type(&self) -> &'static str {
        let ext = self.path.rsplit('.').next().unwrap_or("");
        match ext {
            "js" => "text/javascript; charset=utf-8",
            "css" => "text/css; charset=utf-8",
            "svg" => "image/svg+xml",
            "woff2" => "font/woff2",
            "txt" => "text/plain; charset=utf-8",
            _ => "application/octet-stream",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// Files of `web/` that are not served: the page's own tests, its screenshots, its
    /// locale additions (served merged, by `locale`), and its type check (the generated
    /// protocol types, TypeScript and its settings).
    fn served(relative: &str) -> bool {
        !(relative.starts_with("test/")
            || relative.starts_with("screenshots/")
            || relative.starts_with("locales/")
            || relative == "index.html"
            || relative.ends_with(".md")
            || relative.ends_with(".d.ts")
            || relative.starts_with("node_modules/")
            || relative == "package.json"
            || relative == "package-lock.json"
            || relative == "tsconfig.json")
    }

    fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, root, out);
            } else {
                let relative = path.strip_prefix(root).unwrap().to_string_lossy();
                out.push(relative.replace('\\', "/"));
            }
        }
    }

    #[test]
    fn every_file_of_the_page_is_embedded() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../web");
        let mut files = Vec::new();
        walk(&root, &root, &mut files);
        for file in files.iter().filter(|f| served(f)) {
            assert!(
                find(&format!("/{file}")).is_some(),
                "web/{file} is not embedded: add it to assets::FILES"
            );
        }
    }

    #[test]
    fn the_page_announces_this_protocol_version() {
        let page = String::from_utf8(index().to_vec()).unwrap();
        assert!(page.contains(&format!("content=\"{PROTOCOL_VERSION}\"")));
        assert!(!page.contains("{{"));
        assert_eq!(
            find("/js/main.js").unwrap().content_type(),
            "text/javascript; charset=utf-8"
        );
    }
}
