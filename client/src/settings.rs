//! The one settings file: name, language, theme, last server, display options and the
//! create form's last choices.
//!
//! It lives at `<config dir>/config.toml`, where the config dir is `$BANCO_CONFIG_DIR`,
//! else `$XDG_CONFIG_HOME/banco`, else `~/.config/banco` (on Windows `%APPDATA%\banco`).
//! The same directory holds user `locales/` and `themes/`. A missing file means
//! defaults; a broken one is reported once and left untouched until the user changes a
//! setting, so a typo never costs them the rest of their file silently.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A settings file that could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("could not read the settings file {path}: {message}")]
    Read { path: String, message: String },
    #[error("could not save the settings file {path}: {message}")]
    Write { path: String, message: String },
}

/// What the client remembers between runs. Every field is optional in the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// The name to play under when `--name` is not given.
    pub name: Option<String>,
    /// Locale code (`en`, `vi`, or a user locale file's stem).
    pub language: Option<String>,
    /// Theme id (`classic`, `paper`, `contrast`, or a user theme file's stem).
    pub theme: Option<String>,
    /// The address last connected to, offered on the connect screen.
    pub last_server: Option<String>,
    /// Mark the opponent's fours and open threes on the board.
    pub threat_warning: bool,
    /// Where the connect screen looks for servers (hosts, IPs or broadcast addresses
    /// such as `10.8.0.255`) instead of every network this machine is on: for networks
    /// that do not pass broadcasts, or to look on this machine only (`127.0.0.1`).
    pub discover: Vec<String>,
    /// Ring the terminal bell when the opponent moves, an offer comes, or the game ends
    /// (the full-screen client; plain mode rings only with `--bell`).
    pub bell: bool,
    /// Where a replay saved with `s` goes (a name typed there is put in this folder);
    /// `--games-dir` wins over it. Default: [`default_games_dir`].
    pub games_dir: Option<PathBuf>,
    /// The create form's choices as last used (a typed start position left out),
    /// offered again the next time the form opens, in this run or a later one.
    pub create: Option<banco_protocol::RoomSettings>,
    /// Who may challenge this player: `everyone`, `accounts` (no guests) or `nobody`;
    /// told to the server on every connection.
    pub challenges: banco_protocol::ChallengePolicy,
}

impl Default for Settings {
    /// Nothing remembered yet; the bell on.
    fn default() -> Settings {
        Settings {
            name: None,
            language: None,
            theme: None,
            last_server: None,
            threat_warning: false,
            discover: Vec::new(),
            bell: true,
            games_dir: None,
            create: None,
            challenges: banco_protocol::ChallengePolicy::Everyone,
        }
    }
}

impl Settings {
    /// Reads `path`; a missing file gives the defaults.
    pub fn load(path: &Path) -> Result<Settings, SettingsError> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Settings::default()),
            Err(e) => {
                return Err(SettingsError::Read {
                    path: path.display().to_string(),
                    message: e.to_string(),
                });
            }
        };
        toml::from_str(&text).map_err(|e| SettingsError::Read {
            path: path.display().to_string(),
            message: e.message().to_string(),
        })
    }

    /// Writes `path` (and its directory), replacing the old file in one step.
    pub fn save(&self, path: &Path) -> Result<(), SettingsError> {
        let err = |e: &dyn std::fmt::Display| SettingsError::Write {
            path: path.display().to_string(),
            message: e.to_string(),
        };
        let text = toml::to_string_pretty(self).map_err(|e| err(&e))?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| err(&e))?;
        }
        let tmp = path.with_extension("toml.tmp");
        std::fs::write(&tmp, format!("# banco client settings\n{text}")).map_err(|e| err(&e))?;
        std::fs::rename(&tmp, path).map_err(|e| err(&e))
    }
}

/// Where settings, user locales and user themes live; `None` when the system names no
/// home at all (then nothing is saved).
pub fn config_dir() -> Option<PathBuf> {
    let from_env = |key: &str| {
        std::env::var_os(key)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(dir) = from_env("BANCO_CONFIG_DIR") {
        return Some(dir);
    }
    from_env("XDG_CONFIG_HOME")
        .filter(|p| p.is_absolute())
        .or_else(|| from_env("HOME").map(|home| home.join(".config")))
        .or_else(|| from_env("APPDATA"))
        .map(|d| d.join("banco"))
}

/// Where the client keeps what it needs between runs but nobody edits (the seats it
/// holds, its log): `$BANCO_STATE_DIR`, else `$XDG_STATE_HOME/banco`, else
/// `~/.local/state/banco` (on Windows `%LOCALAPPDATA%\banco`); `None` when the system
/// names no home at all (then nothing is kept).
pub fn state_dir() -> Option<PathBuf> {
    let from_env = |key: &str| {
        std::env::var_os(key)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(dir) = from_env("BANCO_STATE_DIR") {
        return Some(dir);
    }
    from_env("XDG_STATE_HOME")
        .filter(|p| p.is_absolute())
        .or_else(|| from_env("HOME").map(|home| home.join(".local").join("state")))
        .or_else(|| from_env("LOCALAPPDATA"))
        .map(|d| d.join("banco"))
}

/// Where saved games go unless the settings or `--games-dir` say otherwise: `games` in
/// banco's data directory, beside the database `banco host` keeps
/// (`~/.local/share/banco/games`). `None` when the system names no home at all.
pub fn default_games_dir() -> Option<PathBuf> {
    banco_server::default_store_path().and_then(|db| db.parent().map(|dir| dir.join("games")))
}

/// The folder a replay is saved in: `--games-dir`, else the settings file's
/// `games_dir`, else [`default_games_dir`]. A leading `~` stands for the home folder.
pub fn games_dir(flag: Option<&Path>, settings: &Settings) -> Option<PathBuf> {
    flag.map(Path::to_path_buf)
        .or_else(|| settings.games_dir.clone())
        .map(|p| expand_home(&p))
        .or_else(default_games_dir)
}

/// `~/x` as the home folder's `x`; anything else as it is.
pub fn expand_home(path: &Path) -> PathBuf {
    match (path.strip_prefix("~"), std::env::var_os("HOME")) {
        (Ok(rest), Some(home)) if !home.is_empty() => PathBuf::from(home).join(rest),
        _ => path.to_path_buf(),
    }
}

/// `path` as people read it: under the home folder as `~/...`.
pub fn home_short(path: &Path) -> String {
    match std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        Some(home) => match path.strip_prefix(&home) {
            Ok(rest) => format!("~/{}", rest.display()),
            Err(_) => path.display().to_string(),
        },
        None => path.display().to_string(),
    }
}

/// The settings file inside `dir`.
pub fn settings_path(dir: &Path) -> PathBuf {
    dir.join("config.toml")
}

/// The name to play under when neither `--name` nor settings give one: the OS user.
pub fn os_user_name() -> String {
    ["USER", "USERNAME", "LOGNAME"]
        .iter()
        .filter_map(|k| std::env::var(k).ok())
        .map(|n| n.trim().to_string())
        .find(|n| !n.is_empty() && !n.chars().any(char::is_control))
        .unwrap_or_else(|| "player".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_tolerates_missing_files() {
        let dir = std::env::temp_dir().join(format!("banco-settings-{}", std::process::id()));
        let path = settings_path(&dir);
        assert_eq!(Settings::load(&path).unwrap(), Settings::default());
        let s = Settings {
            challenges: Default::default(),
            name: Some("Lan".into()),
            language: Some("vi".into()),
            theme: Some("paper".into()),
            last_server: Some("192.168.1.20:7373".into()),
            threat_warning: true,
            discover: vec!["10.8.0.255".into()],
            bell: false,
            games_dir: Some("/srv/games".into()),
            create: None,
        };
        s.save(&path).unwrap();
        assert_eq!(Settings::load(&path).unwrap(), s);
        // The create form's last choices, of both games, survive the file.
        use banco_protocol::{
            CaroOpening, FirstMove, GameSettings, Level, RoomSettings, Rule, SeatKind, TimeControl,
        };
        for create in [
            RoomSettings {
                rated: true,
                game: GameSettings::Caro {
                    width: 19,
                    height: 17,
                    rule: Rule::CaroOverline,
                    opening: CaroOpening::Balanced,
                },
                time: TimeControl::clock(
                    std::time::Duration::from_secs(300),
                    std::time::Duration::from_secs(3),
                ),
                first: FirstMove::Random,
                seats: [SeatKind::Bot(Level::Max), SeatKind::Bot(Level::Easy)],
                hints: false,
                match_format: None,
            },
            RoomSettings {
                rated: true,
                game: GameSettings::Xiangqi { fen: None },
                time: TimeControl::Unlimited,
                first: FirstMove::Them,
                seats: [SeatKind::Human, SeatKind::Bot(Level::Hard)],
                hints: true,
                match_format: None,
            },
        ] {
            let s = Settings {
                create: Some(create),
                ..s.clone()
            };
            s.save(&path).unwrap();
            assert_eq!(Settings::load(&path).unwrap(), s);
        }

        std::fs::write(&path, "name = \"A\"\ncolour = 3\n").unwrap();
        let e = Settings::load(&path).unwrap_err();
        assert!(e.to_string().contains("config.toml"), "{e}");
        std::fs::write(&path, "theme = \"paper\"\n").unwrap();
        assert_eq!(
            Settings::load(&path).unwrap(),
            Settings {
                theme: Some("paper".into()),
                ..Settings::default()
            }
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn saved_games_go_to_the_flag_else_the_settings_else_the_data_folder() {
        let set = Settings {
            games_dir: Some("/srv/banco".into()),
            ..Settings::default()
        };
        let flag = Path::new("/tmp/g");
        assert_eq!(games_dir(Some(flag), &set), Some(flag.to_path_buf()));
        assert_eq!(games_dir(None, &set), Some(PathBuf::from("/srv/banco")));
        assert_eq!(games_dir(None, &Settings::default()), default_games_dir());
        if let Some(d) = default_games_dir() {
            assert!(d.ends_with("banco/games"), "{}", d.display());
        }
        if let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
            assert_eq!(
                expand_home(Path::new("~/banco-games")),
                PathBuf::from(home).join("banco-games")
            );
        }
        assert_eq!(expand_home(Path::new("games")), PathBuf::from("games"));
    }
}
