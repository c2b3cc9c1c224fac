//! The seats this client holds, kept on disk so that a client started again after a
//! crash (`kill -9`, a closed terminal, a power cut) takes its seat back with the
//! server's resume token while the server still holds it.
//!
//! One small file per held seat in `<state dir>/seats/`, readable by its owner only
//! (0600 in a 0700 directory): the server as dialled, the resume token and the room. A
//! running client keeps its file locked (an OS file lock, which the system releases when
//! the process ends, however it ends), so two clients on one machine never present each
//! other's token: a client starting up claims only a file no running client holds.
//! A file is deleted when its seat is given up (leaving, the room closing, the server no
//! longer knowing the token); one nobody claimed for [`FORGET_AFTER`] is deleted too.

use banco_protocol::{ResumeToken, RoomId};
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::net::{address_text, split_address};

/// A seat file nobody claimed for this long is forgotten: no server holds a seat that
/// long (five minutes after a restart by default).
pub const FORGET_AFTER: Duration = Duration::from_secs(7 * 24 * 3600);

/// A seat file that could not be written.
#[derive(Debug, thiserror::Error)]
#[error(
    "could not keep your seat on disk ({path}: {message}); if banco stops now, it cannot take the seat back"
)]
pub struct SeatError {
    path: String,
    message: String,
}

/// What a seat file holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct SeatFile {
    /// The server as dialled (`host:port`), so a client dialling it again finds the seat.
    server: String,
    /// The resume token, 32 hex digits.
    token: String,
    /// The room of the seat, for people reading the file.
    room: RoomId,
}

/// The seat this process holds: its file, locked for as long as this process runs.
struct Held {
    path: PathBuf,
    /// Open for the lock's sake: closing it (or the process ending) releases the lock.
    _file: File,
    server: String,
    token: ResumeToken,
    room: Option<RoomId>,
}

/// The client's seats on disk. With no directory (no home) it keeps nothing.
pub struct SeatKeeper {
    dir: Option<PathBuf>,
    held: Option<Held>,
}

/// The key a server is kept under: its address as dialled, with the default port made
/// explicit, so `pc-an` and `pc-an:7373` are the same server.
pub fn server_key(address: &str) -> String {
    split_address(address)
        .map(|(host, port)| address_text(&host, port))
        .unwrap_or_else(|_| address.trim().to_string())
}

impl SeatKeeper {
    /// Seats kept in `<state>/seats`; `None` keeps nothing.
    pub fn new(state: Option<&Path>) -> SeatKeeper {
        SeatKeeper {
            dir: state.map(|d| d.join("seats")),
            held: None,
        }
    }

    /// Keeps nothing (a replay of a file, say).
    pub fn none() -> SeatKeeper {
        SeatKeeper::new(None)
    }

    /// The token to present when dialling `server`: the seat this process holds there,
    /// or one that a client which ended without giving it up left behind (claimed: this
    /// process holds it now). The newest such seat wins.
    pub fn claim(&mut self, server: &str) -> Option<ResumeToken> {
        let key = server_key(server);
        if let Some(h) = &self.held {
            if h.server == key {
                return Some(h.token);
            }
            // Another server: that seat stays on disk for a later run to claim.
            self.held = None;
        }
        let dir = self.dir.as_ref()?;
        let mut best: Option<(SystemTime, Held)> = None;
        for entry in std::fs::read_dir(dir).ok()?.flatten() {
            let path = entry.path();
            let is_seat = path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("seat-") && n.ends_with(".toml"));
            if !is_seat {
                continue;
            }
            let Some((file, seat, modified)) = open_unclaimed(&path) else {
                continue;
            };
            let old = modified.elapsed().is_ok_and(|age| age > FORGET_AFTER);
            let token = seat.as_ref().and_then(|s| parse_token(&s.token));
            let (Some(seat), Some(token), false) = (seat, token, old) else {
                // Unreadable or forgotten: nobody can use it.
                let _ = std::fs::remove_file(&path);
                continue;
            };
            if seat.server != key {
                continue;
            }
            if best.as_ref().is_some_and(|(t, _)| *t >= modified) {
                continue;
            }
            best = Some((
                modified,
                Held {
                    path,
                    _file: file,
                    server: key.clone(),
                    token,
                    room: Some(seat.room),
                },
            ));
        }
        let (_, held) = best?;
        tracing::info!(server = %key, room = ?held.room, "found a seat to take back");
        let token = held.token;
        self.held = Some(held);
        Some(token)
    }

    /// The server greeted this client with `token`: if it is not the one held, the
    /// server no longer knows the held seat, which is forgotten.
    pub fn greeted(&mut self, token: ResumeToken) {
        if self.held.as_ref().is_some_and(|h| h.token != token) {
            self.forget();
        }
    }

    /// This client sits in `room` on `server`, reclaimable with `token`: keep it on disk.
    pub fn keep(
        &mut self,
        server: &str,
        token: ResumeToken,
        room: RoomId,
    ) -> Result<(), SeatError> {
        let key = server_key(server);
        if let Some(h) = &self.held
            && h.server == key
            && h.token == token
            && h.room == Some(room)
        {
            return Ok(());
        }
        let Some(dir) = self.dir.clone() else {
            return Ok(());
        };
        let seat = SeatFile {
            server: key.clone(),
            token: token_text(&token),
            room,
        };
        // A new file, locked before it is written, then the old one given up: at no
        // moment can another client claim this seat.
        let (path, file) = write_new(&dir, &seat)?;
        if let Some(old) = self.held.take()
            && old.server == key
        {
            let _ = std::fs::remove_file(&old.path);
        }
        self.held = Some(Held {
            path,
            _file: file,
            server: key,
            token,
            room: Some(room),
        });
        Ok(())
    }

    /// The seat is given up (left, or the room closed): forget it.
    pub fn forget(&mut self) {
        if let Some(h) = self.held.take() {
            // Deleted while still locked, so nobody claims it in between.
            let _ = std::fs::remove_file(&h.path);
        }
    }

    /// The token of the seat held now, if any.
    pub fn held_token(&self) -> Option<ResumeToken> {
        self.held.as_ref().map(|h| h.token)
    }
}

/// Opens a seat file and locks it, if no running client holds it: the file, what it
/// says (`None` if unreadable) and when it was written.
fn open_unclaimed(path: &Path) -> Option<(File, Option<SeatFile>, SystemTime)> {
    let mut file = OpenOptions::new().read(true).write(true).open(path).ok()?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => return None,
        // A file system without locks: better to take the seat back than never to.
        Err(TryLockError::Error(e)) if e.kind() == std::io::ErrorKind::Unsupported => {}
        Err(TryLockError::Error(_)) => return None,
    }
    let modified = file
        .metadata()
        .and_then(|m| m.modified())
        .unwrap_or_else(|_| SystemTime::now());
    let mut text = String::new();
    let seat = file
        .read_to_string(&mut text)
        .ok()
        .and_then(|_| toml::from_str::<SeatFile>(&text).ok());
    Some((file, seat, modified))
}

/// Writes `seat` to a new owner-only file in `dir`, locked; returns it and its path.
fn write_new(dir: &Path, seat: &SeatFile) -> Result<(PathBuf, File), SeatError> {
    let err = |path: &Path, e: &dyn std::fmt::Display| SeatError {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    create_private_dir(dir).map_err(|e| err(dir, &e))?;
    let stamp = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let path = dir.join(format!("seat-{}-{stamp}.toml", std::process::id()));
    let mut options = OpenOptions::new();
    options.read(true).write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(&path).map_err(|e| err(&path, &e))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::Error(e)) if e.kind() == std::io::ErrorKind::Unsupported => {}
        Err(e) => return Err(err(&path, &e)),
    }
    let text = toml::to_string(seat).map_err(|e| err(&path, &e))?;
    let written = file
        .write_all(
            format!(
                "# A seat banco holds, to take back if it stops without leaving. Deleted when the seat is given up.\n{text}"
            )
            .as_bytes(),
        )
        .and_then(|()| file.sync_all());
    if let Err(e) = written {
        let _ = std::fs::remove_file(&path);
        return Err(err(&path, &e));
    }
    Ok((path, file))
}

/// Creates `dir` (and its parents), the seats folder itself owner-only.
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    if let Some(parent) = dir.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

fn token_text(token: &ResumeToken) -> String {
    token.0.iter().map(|b| format!("{b:02x}")).collect()
}

fn parse_token(text: &str) -> Option<ResumeToken> {
    let text = text.trim();
    if text.len() != 32 || !text.is_ascii() {
        return None;
    }
    let mut bytes = [0u8; 16];
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(ResumeToken(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("banco-seats-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn seat_files(state: &Path) -> Vec<PathBuf> {
        std::fs::read_dir(state.join("seats"))
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default()
    }

    #[test]
    fn tokens_read_back_and_nonsense_is_refused() {
        let t = ResumeToken([0xab, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0xff]);
        assert_eq!(parse_token(&token_text(&t)), Some(t));
        for bad in [
            "",
            "ab",
            "zz0102030405060708090a0b0c0d0eff",
            "é0102030405060708090a0b0c0d0ef",
        ] {
            assert_eq!(parse_token(bad), None, "{bad:?}");
        }
        assert_eq!(server_key("pc-an"), "pc-an:7373");
        assert_eq!(server_key("127.0.0.1:9000"), "127.0.0.1:9000");
    }

    #[test]
    fn a_seat_kept_by_one_run_is_claimed_by_the_next_and_forgotten_when_given_up() {
        let state = scratch("claim");
        let token = ResumeToken([7; 16]);
        let mut first = SeatKeeper::new(Some(&state));
        assert_eq!(first.claim("127.0.0.1:7373"), None);
        first.keep("127.0.0.1:7373", token, 3).unwrap();
        let files = seat_files(&state);
        assert_eq!(files.len(), 1);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&files[0]).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "the seat file is the owner's only");
            let mode = std::fs::metadata(state.join("seats"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o700);
        }

        // While the first client runs, a second one on this machine cannot take its seat.
        let mut second = SeatKeeper::new(Some(&state));
        assert_eq!(second.claim("127.0.0.1:7373"), None);

        // The first one ends without giving the seat up (as a crash would): the next
        // run dialling the same server (written another way) takes it.
        drop(first);
        assert_eq!(second.claim("127.0.0.1"), Some(token));
        assert_eq!(
            second.claim("127.0.0.1:7373"),
            Some(token),
            "held: the same"
        );
        let mut third = SeatKeeper::new(Some(&state));
        assert_eq!(third.claim("127.0.0.1:7373"), None, "claimed by the second");
        assert_eq!(third.claim("10.0.0.9:7373"), None, "another server's seat");

        // Given up: the file is gone.
        second.forget();
        assert!(seat_files(&state).is_empty());
        std::fs::remove_dir_all(&state).unwrap();
    }

    #[test]
    fn a_token_the_server_no_longer_knows_is_forgotten() {
        let state = scratch("stale");
        let mut first = SeatKeeper::new(Some(&state));
        first
            .keep("127.0.0.1:7373", ResumeToken([1; 16]), 3)
            .unwrap();
        drop(first);
        let mut next = SeatKeeper::new(Some(&state));
        assert_eq!(next.claim("127.0.0.1:7373"), Some(ResumeToken([1; 16])));
        // The server greets with the same token: kept.
        next.greeted(ResumeToken([1; 16]));
        assert_eq!(seat_files(&state).len(), 1);
        // A fresh one: the server forgot the seat.
        next.greeted(ResumeToken([2; 16]));
        assert!(seat_files(&state).is_empty());
        assert_eq!(next.held_token(), None);

        // A seat moves to another room, or another token: one file, the newest.
        next.keep("127.0.0.1:7373", ResumeToken([2; 16]), 4)
            .unwrap();
        next.keep("127.0.0.1:7373", ResumeToken([2; 16]), 5)
            .unwrap();
        next.keep("127.0.0.1:7373", ResumeToken([3; 16]), 5)
            .unwrap();
        assert_eq!(seat_files(&state).len(), 1);
        drop(next);
        assert_eq!(
            SeatKeeper::new(Some(&state)).claim("127.0.0.1:7373"),
            Some(ResumeToken([3; 16]))
        );

        // Garbage in the folder is cleared away, not presented.
        std::fs::write(state.join("seats").join("seat-1-1.toml"), "token = 3").unwrap();
        let mut later = SeatKeeper::new(Some(&state));
        later.claim("10.0.0.9:7373");
        assert!(!state.join("seats").join("seat-1-1.toml").exists());
        std::fs::remove_dir_all(&state).unwrap();
    }

    #[test]
    fn without_a_state_directory_nothing_is_kept() {
        let mut none = SeatKeeper::none();
        none.keep("127.0.0.1:7373", ResumeToken([1; 16]), 1)
            .unwrap();
        assert_eq!(none.claim("127.0.0.1:7373"), None);
    }
}
