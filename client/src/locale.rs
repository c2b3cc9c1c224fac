//! Every sentence the client shows, looked up by key in a locale file.
//!
//! Locale files are TOML: nested tables whose leaf strings are addressed by their dotted
//! path (`[lobby] title = ".."` is `lobby.title`), plus a `[meta]` table naming the
//! language. Placeholders are `{name}`. English and Vietnamese are built in; a file
//! `<config dir>/locales/<code>.toml` overrides a built-in one key by key or adds a new
//! language. A key missing from a language falls back to English, then to the key itself,
//! so a half-translated file still gives a usable client.

use std::collections::HashMap;
use std::fmt::Display;
use std::path::Path;
use std::sync::Arc;

/// The built-in languages: (code, file text). The files live at the workspace root's
/// `locales/`, shared with the server's browser page, so neither crate reads the other's.
const BUILT_IN: [(&str, &str); 2] = [
    ("en", include_str!("../../locales/en.toml")),
    ("vi", include_str!("../../locales/vi.toml")),
];

/// A locale file that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum LocaleError {
    #[error("the language file {path} is not valid TOML: {message}")]
    Syntax { path: String, message: String },
    #[error("there is no language '{0}'")]
    Unknown(String),
}

/// One language's strings, with English behind it for anything it lacks.
#[derive(Debug, Clone)]
pub struct Locale {
    /// The language code (`en`, `vi`), as chosen in settings.
    code: String,
    /// The language's own name for itself, shown in the settings menu.
    name: String,
    /// Dotted key -> text. Shared: a locale is cloned wherever text is needed.
    strings: Arc<HashMap<String, String>>,
    /// English, consulted for keys this language lacks. `None` for English itself.
    fallback: Option<Arc<Locale>>,
}

/// A language that can be chosen: its code and its own name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LanguageChoice {
    pub code: String,
    pub name: String,
}

impl Locale {
    /// Built-in English: always present, the fallback for every other language.
    pub fn english() -> Locale {
        Locale::parse("en", BUILT_IN[0].1, "built-in en.toml")
            .expect("the built-in English locale is valid TOML (checked by a test)")
    }

    /// The language `code`: built-in strings, overridden by `<dir>/locales/<code>.toml`
    /// when that file exists.
    pub fn load(code: &str, dir: Option<&Path>) -> Result<Locale, LocaleError> {
        let builtin = BUILT_IN.iter().find(|(c, _)| *c == code);
        let user = dir.map(|d| d.join("locales").join(format!("{code}.toml")));
        let user_text = user.as_ref().and_then(|p| std::fs::read_to_string(p).ok());
        let mut locale = match builtin {
            Some((c, text)) => Locale::parse(c, text, &format!("built-in {c}.toml"))?,
            None if user_text.is_some() => Locale {
                code: code.to_string(),
                name: code.to_string(),
                strings: Arc::new(HashMap::new()),
                fallback: None,
            },
            None => return Err(LocaleError::Unknown(code.to_string())),
        };
        if let (Some(path), Some(text)) = (user, user_text) {
            let over = Locale::parse(code, &text, &path.display().to_string())?;
            if over.name != code {
                locale.name = over.name;
            }
            Arc::make_mut(&mut locale.strings)
                .extend(over.strings.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
        if code != "en" {
            locale.fallback = Some(Arc::new(Locale::english()));
        }
        Ok(locale)
    }

    /// Reads one file's text.
    fn parse(code: &str, text: &str, origin: &str) -> Result<Locale, LocaleError> {
        let table: toml::Table =
            text.parse()
                .map_err(|e: toml::de::Error| LocaleError::Syntax {
                    path: origin.to_string(),
                    message: e.message().to_string(),
                })?;
        let mut strings = HashMap::new();
        flatten("", &table, &mut strings);
        let name = strings
            .get("meta.name")
            .cloned()
            .unwrap_or_else(|| code.to_string());
        Ok(Locale {
            code: code.to_string(),
            name,
            strings: Arc::new(strings),
            fallback: None,
        })
    }

    pub fn code(&self) -> &str {
        &self.code
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The text for `key`.
    pub fn get<'a>(&'a self, key: &'a str) -> &'a str {
        match self.strings.get(key) {
            Some(s) => s,
            None => match &self.fallback {
                Some(en) => en.get(key),
                None => key,
            },
        }
    }

    /// The text for `key` with each `{name}` replaced by its value.
    pub fn fmt(&self, key: &str, args: &[(&str, &dyn Display)]) -> String {
        let mut out = self.get(key).to_string();
        for (name, value) in args {
            out = out.replace(&format!("{{{name}}}"), &value.to_string());
        }
        out
    }

    /// Every key this language defines itself (not through the fallback).
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.strings.keys().map(String::as_str)
    }
}

/// The languages on offer: the built-in ones and any extra `<dir>/locales/*.toml`.
pub fn languages(dir: Option<&Path>) -> Vec<LanguageChoice> {
    let mut out: Vec<LanguageChoice> = BUILT_IN
        .iter()
        .filter_map(|(code, _)| Locale::load(code, dir).ok())
        .map(|l| LanguageChoice {
            code: l.code.clone(),
            name: l.name.clone(),
        })
        .collect();
    let extra = dir
        .and_then(|d| std::fs::read_dir(d.join("locales")).ok())
        .into_iter()
        .flatten()
        .flatten();
    for entry in extra {
        let path = entry.path();
        let Some(code) = path
            .extension()
            .filter(|e| *e == "toml")
            .and_then(|_| path.file_stem())
            .and_then(|s| s.to_str())
        else {
            continue;
        };
        if out.iter().any(|l| l.code == code) {
            continue;
        }
        if let Ok(l) = Locale::load(code, dir) {
            out.push(LanguageChoice {
                code: l.code,
                name: l.name,
            });
        }
    }
    out
}

/// Walks a TOML table, recording every string leaf under its dotted path.
fn flatten(prefix: &str, table: &toml::Table, out: &mut HashMap<String, String>) {
    for (k, v) in table {
        let key = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            toml::Value::String(s) => {
                out.insert(key, s.clone());
            }
            toml::Value::Table(t) => flatten(&key, t, out),
            _ => {}
        }
    }
}

/// Looks up a sentence: `tr!(loc, "key")` gives `&str`,
/// `tr!(loc, "key", name = value, ..)` fills placeholders and gives `String`.
#[macro_export]
macro_rules! tr {
    ($loc:expr, $key:expr) => {
        $loc.get($key)
    };
    ($loc:expr, $key:expr, $($name:ident = $val:expr),+ $(,)?) => {
        $loc.fmt($key, &[$((stringify!($name), &$val as &dyn ::std::fmt::Display)),+])
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn built_in_languages_parse_and_agree_on_keys() {
        let en = Locale::english();
        let vi = Locale::load("vi", None).unwrap();
        let en_keys: BTreeSet<&str> = en.keys().collect();
        let vi_keys: BTreeSet<&str> = vi.keys().collect();
        let missing: Vec<_> = en_keys.difference(&vi_keys).collect();
        let extra: Vec<_> = vi_keys.difference(&en_keys).collect();
        assert!(missing.is_empty(), "vi.toml lacks {missing:?}");
        assert!(
            extra.is_empty(),
            "vi.toml has keys English lacks: {extra:?}"
        );
        assert_eq!(vi.name(), "Tiếng Việt");
    }

    /// Every key the code names, literally or by family, is in English.
    #[test]
    fn every_key_the_code_uses_exists() {
        let en = Locale::english();
        let sections: BTreeSet<&str> = en.keys().filter_map(|k| k.split('.').next()).collect();
        let mut used = BTreeSet::new();
        let mut dirs = vec![std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src"
        ))];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                for literal in text.split('"').skip(1).step_by(2) {
                    let Some((section, rest)) = literal.split_once('.') else {
                        continue;
                    };
                    let word = |s: &str| {
                        !s.is_empty()
                            && s.chars().all(|c| {
                                c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-'
                            })
                    };
                    if sections.contains(section) && word(rest) {
                        used.insert(literal.to_string());
                    }
                }
            }
        }
        assert!(used.len() > 100, "the scan found only {} keys", used.len());
        use banco_protocol::{EndReason, Level, Rule};
        let reasons = EndReason::ALL;
        used.extend(reasons.iter().map(|r| format!("reason.{}", r.as_str())));
        used.extend(Level::ALL.iter().map(|l| format!("level.{}", l.name())));
        for r in Rule::ALL {
            used.insert(format!("rule.{}", r.name()));
            used.insert(format!("help.rule_{}", r.name()));
        }
        for kind in ["undo", "newgame", "rematch", "draw"] {
            for family in ["offer", "declined", "withdrawn"] {
                used.insert(format!("{family}.{kind}"));
            }
            used.insert(format!("offer.mine_{kind}"));
        }
        for kind in banco_protocol::GameKind::ALL {
            used.insert(format!("game_kind.{}", kind.as_str()));
        }
        for k in crate::app::keys::ROOM {
            used.insert(format!("{}_short", k.what));
        }
        for code in banco_protocol::ErrorCode::ALL {
            used.insert(format!("server_error.{}", code.as_str()));
        }
        let missing: Vec<&String> = used.iter().filter(|k| en.get(k) == k.as_str()).collect();
        assert!(missing.is_empty(), "en.toml lacks {missing:?}");
    }

    #[test]
    fn vietnamese_says_no_clock_not_zero_oclock() {
        // "không giờ" reads as "0 o'clock"; a game without a clock is "không tính giờ".
        let vi = Locale::load("vi", None).unwrap();
        assert_eq!(vi.get("time.none"), "không tính giờ");
        assert_eq!(vi.get("create.time_none"), "không tính giờ");
        let page = include_str!("../../web/locales/vi.toml");
        for (key, text) in vi.strings.iter() {
            assert!(!text.contains("không giờ"), "{key}: {text}");
        }
        assert!(!page.contains("không giờ"), "web/locales/vi.toml");
    }

    #[test]
    fn placeholders_match_between_languages() {
        let en = Locale::english();
        let vi = Locale::load("vi", None).unwrap();
        let holes = |s: &str| -> BTreeSet<String> {
            s.split('{')
                .skip(1)
                .filter_map(|p| p.split_once('}').map(|(h, _)| h.to_string()))
                .collect()
        };
        for key in en.keys() {
            assert_eq!(
                holes(en.get(key)),
                holes(vi.get(key)),
                "placeholders differ for {key}"
            );
        }
    }

    #[test]
    fn lookup_falls_back_and_fills_placeholders() {
        let dir = std::env::temp_dir().join(format!("banco-locale-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("locales")).unwrap();
        std::fs::write(
            dir.join("locales/xx.toml"),
            "[meta]\nname = \"Test\"\n[status]\nyour_turn = \"GO {stone}\"\n",
        )
        .unwrap();
        let xx = Locale::load("xx", Some(&dir)).unwrap();
        assert_eq!(xx.name(), "Test");
        assert_eq!(tr!(xx, "status.your_turn", stone = "X"), "GO X");
        // Not in xx: English.
        assert_eq!(xx.get("help.title"), Locale::english().get("help.title"));
        // Nowhere: the key itself.
        assert_eq!(xx.get("no.such.key"), "no.such.key");
        assert!(languages(Some(&dir)).iter().any(|l| l.code == "xx"));
        std::fs::write(dir.join("locales/yy.toml"), "name = [").unwrap();
        assert!(matches!(
            Locale::load("yy", Some(&dir)),
            Err(LocaleError::Syntax { .. })
        ));
        assert!(matches!(
            Locale::load("zz", Some(&dir)),
            Err(LocaleError::Unknown(_))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
