//! Colours and glyphs, read from theme files.
//!
//! A theme file is TOML: `name`, a `[colors]` table of colour names (`red`,
//! `light_cyan`, `#d7af5f`, `reset`, or a 0-255 palette index) and a `[glyphs]` table. A
//! key a theme leaves out takes the value from the built-in `classic` theme, so a user
//! theme may change only what it cares about. Built-in themes ship inside the binary;
//! `<config dir>/themes/<id>.toml` overrides one of them or adds a new one.

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;
use std::path::Path;
use std::str::FromStr;

/// The built-in themes: (id, file text). The first is the default and the base of all.
const BUILT_IN: [(&str, &str); 3] = [
    ("classic", include_str!("../themes/classic.toml")),
    ("paper", include_str!("../themes/paper.toml")),
    ("contrast", include_str!("../themes/contrast.toml")),
];

/// A theme file that could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ThemeError {
    #[error("the theme file {path} is not valid: {message}")]
    Invalid { path: String, message: String },
    #[error("'{value}' in theme {path} is not a colour (key {key})")]
    BadColor {
        path: String,
        key: String,
        value: String,
    },
    #[error("there is no theme '{0}'")]
    Unknown(String),
}

/// What a theme file may say; every field optional so files can be partial.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ThemeFile {
    name: Option<String>,
    #[serde(default)]
    colors: ColorsFile,
    #[serde(default)]
    glyphs: GlyphsFile,
}

macro_rules! palette {
    ($($(#[$doc:meta])* $field:ident),+ $(,)?) => {
        /// The colours a theme sets.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct Palette {
            $($(#[$doc])* pub $field: Color,)+
        }

        #[derive(Debug, Default, Deserialize)]
        #[serde(deny_unknown_fields)]
        struct ColorsFile {
            $($field: Option<String>,)+
        }

        impl ColorsFile {
            /// Lays this file's colours over `base`.
            fn over(&self, base: Palette, path: &str) -> Result<Palette, ThemeError> {
                Ok(Palette {
                    $($field: match &self.$field {
                        Some(v) => parse_color(v).ok_or_else(|| ThemeError::BadColor {
                            path: path.to_string(),
                            key: stringify!($field).to_string(),
                            value: v.clone(),
                        })?,
                        None => base.$field,
                    },)+
                })
            }
        }
    };
}

palette! {
    /// Ordinary text.
    text,
    /// Secondary text: hints, labels, timestamps.
    dim,
    /// Titles and the selected line.
    accent,
    /// Panel borders.
    border,
    /// The board's background.
    board_bg,
    /// Empty points of the board.
    grid,
    /// Coordinates on the board's edges.
    label,
    /// The first player's stones (X).
    x,
    /// The second player's stones (O).
    o,
    /// Background of the last move played.
    last_bg,
    /// Background of the winning line.
    win_bg,
    /// Background of a point where the opponent would complete five (the four warning).
    threat_bg,
    /// Background of a point that stops one of the opponent's open threes.
    three_bg,
    /// Stones of the winning line.
    win_fg,
    /// The board cursor's brackets.
    cursor,
    /// The engine's suggested point.
    hint,
    /// Warnings and refused actions.
    error,
    /// Good news: your turn, a won game.
    good,
    /// The clock of the side to move.
    clock_running,
    /// A clock under ten seconds.
    clock_low,
    /// Background of dialogs.
    popup_bg,
    /// The selected row of a list or form.
    selected_bg,
    /// Background of draft (trial) moves, which only this player sees.
    draft_bg,
}

/// What a glyph table may say.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct GlyphsFile {
    x: Option<char>,
    o: Option<char>,
    empty: Option<char>,
    hint: Option<char>,
    /// `chinese` (帥仕相俥傌炮兵) or `letters` (WXF letters, for terminals without CJK).
    xiangqi: Option<XiangqiPieces>,
}

/// How xiangqi pieces are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum XiangqiPieces {
    Chinese,
    Letters,
}

/// A ready-to-draw theme.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Theme {
    /// The file's id (its stem), as stored in settings.
    pub id: String,
    /// The name shown in the settings menu.
    pub name: String,
    pub colors: Palette,
    /// The first player's stone.
    pub x_glyph: char,
    /// The second player's stone.
    pub o_glyph: char,
    /// An empty point.
    pub empty_glyph: char,
    /// The hint mark on an empty point.
    pub hint_glyph: char,
    /// Xiangqi pieces as WXF letters instead of Chinese characters.
    pub xiangqi_letters: bool,
}

/// A theme that can be chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThemeChoice {
    pub id: String,
    pub name: String,
}

impl Theme {
    /// The built-in default theme.
    pub fn classic() -> Theme {
        Theme::load("classic", None).expect("the built-in classic theme is valid (tested)")
    }

    /// Theme `id`: the built-in one if any, with `<dir>/themes/<id>.toml` laid over it.
    pub fn load(id: &str, dir: Option<&Path>) -> Result<Theme, ThemeError> {
        let base = base_theme()?;
        let builtin = BUILT_IN.iter().find(|(i, _)| *i == id);
        let user = dir.map(|d| d.join("themes").join(format!("{id}.toml")));
        let user_text = user.as_ref().and_then(|p| std::fs::read_to_string(p).ok());
        let mut theme = match builtin {
            Some((i, text)) => apply(base, i, text, &format!("built-in {i}.toml"))?,
            None if user_text.is_some() => Theme {
                id: id.to_string(),
                ..base
            },
            None => return Err(ThemeError::Unknown(id.to_string())),
        };
        if let (Some(path), Some(text)) = (user, user_text) {
            theme = apply(theme, id, &text, &path.display().to_string())?;
        }
        Ok(theme)
    }

    pub fn style(&self) -> Style {
        Style::new().fg(self.colors.text)
    }

    pub fn dim(&self) -> Style {
        Style::new().fg(self.colors.dim)
    }

    pub fn accent(&self) -> Style {
        Style::new()
            .fg(self.colors.accent)
            .add_modifier(Modifier::BOLD)
    }

    pub fn border(&self) -> Style {
        Style::new().fg(self.colors.border)
    }

    pub fn error(&self) -> Style {
        Style::new()
            .fg(self.colors.error)
            .add_modifier(Modifier::BOLD)
    }

    pub fn good(&self) -> Style {
        Style::new()
            .fg(self.colors.good)
            .add_modifier(Modifier::BOLD)
    }

    pub fn selected(&self) -> Style {
        Style::new()
            .bg(self.colors.selected_bg)
            .fg(self.colors.accent)
            .add_modifier(Modifier::BOLD)
    }

    /// A key name in a key legend.
    pub fn key(&self) -> Style {
        Style::new()
            .fg(self.colors.accent)
            .add_modifier(Modifier::BOLD)
    }

    /// A stone of the first (X) or second (O) player.
    pub fn stone(&self, first: bool) -> Style {
        Style::new()
            .fg(if first { self.colors.x } else { self.colors.o })
            .add_modifier(Modifier::BOLD)
    }

    pub fn glyph(&self, first: bool) -> char {
        if first { self.x_glyph } else { self.o_glyph }
    }
}

/// The theme every other one is laid over: `classic` with its glyphs.
fn base_theme() -> Result<Theme, ThemeError> {
    let (id, text) = BUILT_IN[0];
    let file: ThemeFile = toml::from_str(text).map_err(|e| ThemeError::Invalid {
        path: "built-in classic.toml".into(),
        message: e.message().to_string(),
    })?;
    // Every colour must be present in the base: start from an all-reset palette and
    // require the file to set them all (a test checks it does).
    let reset = Palette {
        text: Color::Reset,
        dim: Color::Reset,
        accent: Color::Reset,
        border: Color::Reset,
        board_bg: Color::Reset,
        grid: Color::Reset,
        label: Color::Reset,
        x: Color::Reset,
        o: Color::Reset,
        last_bg: Color::Reset,
        win_bg: Color::Reset,
        threat_bg: Color::Reset,
        three_bg: Color::Reset,
        win_fg: Color::Reset,
        cursor: Color::Reset,
        hint: Color::Reset,
        error: Color::Reset,
        good: Color::Reset,
        clock_running: Color::Reset,
        clock_low: Color::Reset,
        popup_bg: Color::Reset,
        selected_bg: Color::Reset,
        draft_bg: Color::Reset,
    };
    Ok(Theme {
        id: id.to_string(),
        name: file.name.clone().unwrap_or_else(|| id.to_string()),
        colors: file.colors.over(reset, "built-in classic.toml")?,
        x_glyph: file.glyphs.x.unwrap_or('X'),
        o_glyph: file.glyphs.o.unwrap_or('O'),
        empty_glyph: file.glyphs.empty.unwrap_or('·'),
        hint_glyph: file.glyphs.hint.unwrap_or('+'),
        xiangqi_letters: file.glyphs.xiangqi == Some(XiangqiPieces::Letters),
    })
}

/// Lays the theme file `text` over `base`.
fn apply(base: Theme, id: &str, text: &str, path: &str) -> Result<Theme, ThemeError> {
    let file: ThemeFile = toml::from_str(text).map_err(|e| ThemeError::Invalid {
        path: path.to_string(),
        message: e.message().to_string(),
    })?;
    Ok(Theme {
        id: id.to_string(),
        name: file.name.unwrap_or(base.name),
        colors: file.colors.over(base.colors, path)?,
        x_glyph: file.glyphs.x.unwrap_or(base.x_glyph),
        o_glyph: file.glyphs.o.unwrap_or(base.o_glyph),
        empty_glyph: file.glyphs.empty.unwrap_or(base.empty_glyph),
        hint_glyph: file.glyphs.hint.unwrap_or(base.hint_glyph),
        xiangqi_letters: file
            .glyphs
            .xiangqi
            .map_or(base.xiangqi_letters, |x| x == XiangqiPieces::Letters),
    })
}

/// `light_red`, `LightRed`, `#ff8800`, `reset`, `208`.
fn parse_color(text: &str) -> Option<Color> {
    let t = text.trim();
    if let Ok(i) = t.parse::<u8>() {
        return Some(Color::Indexed(i));
    }
    Color::from_str(t)
        .or_else(|_| Color::from_str(&t.replace('_', "")))
        .ok()
}

/// The themes on offer: the built-in ones and any extra `<dir>/themes/*.toml`.
pub fn themes(dir: Option<&Path>) -> Vec<ThemeChoice> {
    let mut ids: Vec<String> = BUILT_IN.iter().map(|(i, _)| i.to_string()).collect();
    let extra = dir
        .and_then(|d| std::fs::read_dir(d.join("themes")).ok())
        .into_iter()
        .flatten()
        .flatten();
    for entry in extra {
        let path = entry.path();
        if let Some(id) = path
            .extension()
            .filter(|e| *e == "toml")
            .and_then(|_| path.file_stem())
            .and_then(|s| s.to_str())
            && !ids.iter().any(|i| i == id)
        {
            ids.push(id.to_string());
        }
    }
    ids.into_iter()
        .filter_map(|id| Theme::load(&id, dir).ok())
        .map(|t| ThemeChoice {
            id: t.id,
            name: t.name,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_themes_load_and_classic_sets_every_colour() {
        let classic: ThemeFile = toml::from_str(BUILT_IN[0].1).unwrap();
        let c = &classic.colors;
        let all = [
            &c.text,
            &c.dim,
            &c.accent,
            &c.border,
            &c.board_bg,
            &c.grid,
            &c.label,
            &c.x,
            &c.o,
            &c.last_bg,
            &c.win_bg,
            &c.threat_bg,
            &c.three_bg,
            &c.win_fg,
            &c.cursor,
            &c.hint,
            &c.error,
            &c.good,
            &c.clock_running,
            &c.clock_low,
            &c.popup_bg,
            &c.selected_bg,
        ];
        assert!(
            all.iter().all(|v| v.is_some()),
            "classic.toml must set every colour"
        );
        for (id, _) in BUILT_IN {
            let t = Theme::load(id, None).unwrap();
            assert_eq!(t.id, id);
        }
        assert_ne!(
            Theme::load("paper", None).unwrap().colors,
            Theme::classic().colors
        );
    }

    #[test]
    fn colours_parse_in_every_spelling() {
        assert_eq!(parse_color("light_red"), Some(Color::LightRed));
        assert_eq!(parse_color("LightRed"), Some(Color::LightRed));
        assert_eq!(parse_color("#ff8800"), Some(Color::Rgb(255, 136, 0)));
        assert_eq!(parse_color("208"), Some(Color::Indexed(208)));
        assert_eq!(parse_color("reset"), Some(Color::Reset));
        assert_eq!(parse_color("not a colour"), None);
    }

    #[test]
    fn user_themes_override_and_bad_ones_are_refused() {
        let dir = std::env::temp_dir().join(format!("banco-theme-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("themes")).unwrap();
        std::fs::write(
            dir.join("themes/mine.toml"),
            "name = \"Mine\"\n[colors]\nx = \"#010203\"\n[glyphs]\nx = \"●\"\n",
        )
        .unwrap();
        let mine = Theme::load("mine", Some(&dir)).unwrap();
        assert_eq!(mine.name, "Mine");
        assert_eq!(mine.colors.x, Color::Rgb(1, 2, 3));
        assert_eq!(mine.x_glyph, '●');
        // Unset keys come from classic.
        assert_eq!(mine.colors.o, Theme::classic().colors.o);
        assert!(themes(Some(&dir)).iter().any(|t| t.id == "mine"));

        std::fs::write(dir.join("themes/bad.toml"), "[colors]\nx = \"purplish\"\n").unwrap();
        assert!(matches!(
            Theme::load("bad", Some(&dir)),
            Err(ThemeError::BadColor { .. })
        ));
        std::fs::write(dir.join("themes/typo.toml"), "[colours]\nx = \"red\"\n").unwrap();
        assert!(matches!(
            Theme::load("typo", Some(&dir)),
            Err(ThemeError::Invalid { .. })
        ));
        assert!(matches!(
            Theme::load("nope", Some(&dir)),
            Err(ThemeError::Unknown(_))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
