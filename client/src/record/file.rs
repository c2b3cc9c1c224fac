//! Game record files on this machine: reading one from disk and saving one, through the
//! rules crate's one reader and writer ([`banco_rules::record`], where the format is
//! written down). This module adds only what a terminal needs: files, sizes, the local
//! time zone for the `ended:` date, and the turn of a record into a [`Replay`].

use banco_protocol::RecordedGame;
use banco_rules::record::wall::WallTime;
use chrono::{Local, TimeZone};
use std::path::Path;

use super::Replay;

pub use banco_rules::record::{MAX_FILE_BYTES, RecordError};

/// The instant a wall-clock reading stands for in this machine's time zone.
fn instant(wall: WallTime) -> Option<u64> {
    let naive = chrono::DateTime::from_timestamp_millis(wall.0)?.naive_utc();
    let local = Local.from_local_datetime(&naive).earliest()?;
    u64::try_from(local.timestamp_millis()).ok()
}

/// What this machine's wall clock read at `ms` since the epoch.
fn wall(ms: u64) -> WallTime {
    match Local.timestamp_millis_opt(i64::try_from(ms).unwrap_or(i64::MAX / 2)) {
        chrono::LocalResult::Single(t) | chrono::LocalResult::Ambiguous(t, _) => {
            WallTime(t.naive_local().and_utc().timestamp_millis())
        }
        chrono::LocalResult::None => WallTime(0),
    }
}

/// Why a record file could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("could not read {path}: {message}")]
    Read { path: String, message: String },
    #[error("{path} is larger than a game record can be ({size} bytes)")]
    TooLarge { path: String, size: u64 },
    #[error("{path} is not a banco game record, {source}")]
    Record { path: String, source: RecordError },
}

/// Reads and checks a record file.
pub fn load(path: &Path) -> Result<Replay, LoadError> {
    let shown = path.display().to_string();
    let read_err = |e: std::io::Error| LoadError::Read {
        path: shown.clone(),
        message: e.to_string(),
    };
    let size = std::fs::metadata(path).map_err(read_err)?.len();
    if size > MAX_FILE_BYTES {
        return Err(LoadError::TooLarge { path: shown, size });
    }
    let bytes = std::fs::read(path).map_err(read_err)?;
    let text = String::from_utf8(bytes).map_err(|_| LoadError::Record {
        path: shown.clone(),
        source: RecordError {
            line: 0,
            message: "it is not UTF-8 text".into(),
        },
    })?;
    parse(&text).map_err(|source| LoadError::Record {
        path: shown,
        source,
    })
}

/// Why a record could not be saved.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    #[error("{0} already exists: type another name")]
    Exists(String),
    #[error("could not write {path}: {message}")]
    Write { path: String, message: String },
}

/// Writes `text` to a new file at `path`, never over an existing one; returns where it
/// went, in full.
pub fn save_new(path: &Path, text: &str) -> Result<std::path::PathBuf, SaveError> {
    use std::io::Write;
    let shown = path.display().to_string();
    let write_err = |e: std::io::Error| SaveError::Write {
        path: shown.clone(),
        message: e.to_string(),
    };
    let mut file = match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            return Err(SaveError::Exists(shown));
        }
        Err(e) => return Err(write_err(e)),
    };
    file.write_all(text.as_bytes()).map_err(write_err)?;
    Ok(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
}

/// A name for the file a replay is saved to: `banco-caro-42.txt`, or with the date for
/// games without a server number.
pub fn default_name(r: &Replay) -> String {
    match r.to_recorded().to_record(wall) {
        Ok(record) => banco_rules::record::file_name(&record),
        Err(_) => format!("banco-{}.txt", r.game.game_name()),
    }
}

/// The record as text, in the format of [`banco_rules::record`]. The moves are written as
/// the replay holds them (a server's record whose moves the local rules refuse is still
/// saved whole).
pub fn write(r: &Replay) -> String {
    match r.to_recorded().to_record(wall) {
        Ok(record) => banco_rules::record::write(&record),
        // Only a xiangqi square off the board gets here: a server's record cannot hold one.
        Err(e) => format!("# banco could not write this game: {e}\n"),
    }
}

/// Reads a record, checking every move against the rules.
pub fn parse(text: &str) -> Result<Replay, RecordError> {
    let record = banco_rules::record::parse(text)?;
    Ok(Replay::from_recorded(RecordedGame::from_record(
        record, instant,
    )))
}

#[cfg(test)]
mod tests;
