//! The servers' keys this client has seen, pinned on first use as SSH's `known_hosts`
//! does, and the [`Trust`] a connection is checked against.
//!
//! The file is `<state dir>/known_hosts`, one line per server: its address as dialled
//! (`host:port`, the default port made explicit, names in lower case) and the key's
//! fingerprint as 64 hex digits. `#` starts a comment. A line can be deleted by hand,
//! or with `banco forget HOST[:PORT]`.
//!
//! A connection is checked under every name it went by: the address typed and the
//! address it resolved to (a reconnection dials the latter). A key that differs from
//! any pin is refused; a server with no pin under either name is pinned under both.

use banco_protocol::Fingerprint;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The key a server is pinned under: its address as dialled, the default port made
/// explicit, in lower case (host names are not case-sensitive).
pub fn pin_key(address: &str) -> String {
    crate::seats::server_key(address).to_ascii_lowercase()
}

/// The file's name in the state directory.
pub const FILE: &str = "known_hosts";

/// What the file says at its top, for whoever opens it.
const HEADER: &str = "# banco's known hosts: the key fingerprint each server showed when this machine \
first joined it.\n# A server whose key changes is refused; delete its line (or run \
`banco forget HOST:PORT`) once its host confirms the new fingerprint.\n";

/// The pins, as read from the file (or kept in memory only).
#[derive(Debug, Default)]
pub struct KnownHosts {
    /// The file; `None` keeps pins for this run only.
    path: Option<PathBuf>,
    /// Server key (see [`pin_key`]) and its pinned fingerprint, in file order.
    pins: Vec<(String, Fingerprint)>,
}

impl KnownHosts {
    /// The pins in `path` (a missing file is no pins). Lines that cannot be read are
    /// skipped, each with a sentence in the second value.
    pub fn load(path: PathBuf) -> (KnownHosts, Vec<String>) {
        let mut problems = Vec::new();
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => {
                problems.push(format!(
                    "cannot read the known servers' keys in {}: {}; servers are checked for this run only",
                    path.display(),
                    e.kind()
                ));
                return (KnownHosts::default(), problems);
            }
        };
        let mut pins = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let parsed = line
                .split_once(char::is_whitespace)
                .and_then(|(server, fp)| Some((pin_key(server), fp.trim().parse().ok()?)));
            match parsed {
                Some(pin) => pins.push(pin),
                None => problems.push(format!(
                    "{} line {}: not `HOST:PORT FINGERPRINT`; skipped",
                    path.display(),
                    n + 1
                )),
            }
        }
        (
            KnownHosts {
                path: Some(path),
                pins,
            },
            problems,
        )
    }

    /// Pins kept in memory only: nothing is read or written.
    pub fn in_memory() -> KnownHosts {
        KnownHosts::default()
    }

    /// The file, if there is one.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The key pinned for `address` (as dialled, any spelling of it).
    pub fn get(&self, address: &str) -> Option<Fingerprint> {
        let key = pin_key(address);
        self.pins
            .iter()
            .find(|(server, _)| *server == key)
            .map(|(_, fp)| *fp)
    }

    /// Pins `fingerprint` for `address`, replacing any pin it had; written at once.
    pub fn pin(&mut self, address: &str, fingerprint: Fingerprint) -> Result<(), String> {
        let key = pin_key(address);
        let replaced = self.pins.iter().any(|(server, _)| *server == key);
        self.pins.retain(|(server, _)| *server != key);
        self.pins.push((key.clone(), fingerprint));
        if replaced {
            return self.rewrite();
        }
        let Some(path) = &self.path else {
            return Ok(());
        };
        let fresh = !path.exists();
        let written = (|| {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)?;
            if fresh {
                file.write_all(HEADER.as_bytes())?;
            }
            writeln!(file, "{key} {}", fingerprint.hex())
        })();
        written.map_err(|e| self.unwritten(&e))
    }

    /// Forgets `address`'s pin; whether there was one.
    pub fn forget(&mut self, address: &str) -> Result<bool, String> {
        let key = pin_key(address);
        let before = self.pins.len();
        self.pins.retain(|(server, _)| *server != key);
        if self.pins.len() == before {
            return Ok(false);
        }
        self.rewrite().map(|()| true)
    }

    /// Writes every pin again (a new file renamed over the old one).
    fn rewrite(&self) -> Result<(), String> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        let mut text = HEADER.to_string();
        for (server, fp) in &self.pins {
            text.push_str(&format!("{server} {}\n", fp.hex()));
        }
        let fresh = path.with_extension("new");
        let written = (|| {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            std::fs::write(&fresh, text)?;
            std::fs::rename(&fresh, path)
        })();
        written.map_err(|e| self.unwritten(&e))
    }

    fn unwritten(&self, e: &std::io::Error) -> String {
        format!(
            "could not write the server's key to {}: {}; it is checked for this run only",
            self.path
                .as_deref()
                .map_or_else(String::new, |p| p.display().to_string()),
            e.kind()
        )
    }
}

/// Where a key the client holds for a server came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PinSource {
    /// Pinned on an earlier first use, in the known hosts file.
    KnownHosts,
    /// Given on the command line (`--fingerprint`).
    Flag,
    /// The server this very process hosts.
    OwnServer,
}

/// How a server's key passed the check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Checked {
    /// It is the key pinned (or expected) for this server.
    Known,
    /// The first time this client met the server: pinned now. The player should compare
    /// the fingerprint with the host's screen.
    FirstUse,
}

/// A key that is not the one the client holds for the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyMismatch {
    /// The key the client holds.
    pub pinned: Fingerprint,
    /// The key the server showed.
    pub presented: Fingerprint,
    /// Where the held key came from.
    pub source: PinSource,
}

/// How this client checks the servers it connects to: over TLS with pinned keys (the
/// default), or in the clear (`--no-tls`). Cheap to clone: clones share the pins.
#[derive(Debug, Clone)]
pub struct Trust {
    /// In the clear: no TLS (`--no-tls`), refused for a server with a pin.
    pub plain: bool,
    /// The pins (shared: the terminal client dials from spawned tasks).
    known: Arc<Mutex<KnownHosts>>,
    /// The key a given address must show: `--fingerprint`, or the hosted server's own.
    /// The address is a [`pin_key`].
    expected: Option<(String, Fingerprint, PinSource)>,
    /// Problems with the pins' file that the front end should show once.
    pub problems: Vec<String>,
}

impl Default for Trust {
    /// TLS, pins kept in memory for this run only.
    fn default() -> Trust {
        Trust::new(KnownHosts::in_memory())
    }
}

impl Trust {
    /// TLS, checking and recording keys in `known`.
    pub fn new(known: KnownHosts) -> Trust {
        Trust {
            plain: false,
            known: Arc::new(Mutex::new(known)),
            expected: None,
            problems: Vec::new(),
        }
    }

    /// TLS with the pins in `<state>/known_hosts` (in memory with no state directory).
    pub fn from_state_dir(state: Option<&Path>) -> Trust {
        match state {
            Some(dir) => {
                let (known, problems) = KnownHosts::load(dir.join(FILE));
                Trust {
                    problems,
                    ..Trust::new(known)
                }
            }
            None => Trust::default(),
        }
    }

    /// The same pins, in the clear (`--no-tls`).
    pub fn in_the_clear(mut self) -> Trust {
        self.plain = true;
        self
    }

    /// The same pins, with `address` expected to show `fingerprint` (from `source`).
    pub fn expecting(
        mut self,
        address: &str,
        fingerprint: Fingerprint,
        source: PinSource,
    ) -> Trust {
        self.expected = Some((pin_key(address), fingerprint, source));
        self
    }

    /// The known hosts file, if pins are kept on disk.
    pub fn file(&self) -> Option<PathBuf> {
        self.lock().path().map(Path::to_path_buf)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, KnownHosts> {
        // A panic while holding the pins leaves them as they were: still usable.
        self.known.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The key held for a server known as any of `names` (the address typed, the one it
    /// resolved to): expected, else pinned.
    pub fn held(&self, names: &[&str]) -> Option<(Fingerprint, PinSource)> {
        let keys: Vec<String> = names.iter().map(|n| pin_key(n)).collect();
        if let Some((address, fp, source)) = &self.expected
            && keys.contains(address)
        {
            return Some((*fp, *source));
        }
        let known = self.lock();
        keys.iter()
            .find_map(|k| known.get(k))
            .map(|fp| (fp, PinSource::KnownHosts))
    }

    /// Checks the key a server known as `names` showed, pinning it where it is new.
    /// The second value is a problem writing the pin, to show (the check stands).
    pub fn check(
        &self,
        names: &[&str],
        presented: Fingerprint,
    ) -> Result<(Checked, Option<String>), KeyMismatch> {
        let keys: Vec<String> = names.iter().map(|n| pin_key(n)).collect();
        let mut known = self.lock();
        let expected = self
            .expected
            .as_ref()
            .filter(|(address, _, _)| keys.contains(address));
        if let Some((_, fp, source)) = expected {
            if *fp != presented {
                return Err(KeyMismatch {
                    pinned: *fp,
                    presented,
                    source: *source,
                });
            }
            // The player named the key: it is pinned for next time (replacing an old
            // pin, which the player has just overruled). The host's own is not.
            let mut problem = None;
            if *source == PinSource::Flag {
                for k in &keys {
                    if known.get(k) != Some(presented)
                        && let Err(e) = known.pin(k, presented)
                    {
                        problem = Some(e);
                    }
                }
            }
            return Ok((Checked::Known, problem));
        }
        if let Some(pinned) = keys
            .iter()
            .filter_map(|k| known.get(k))
            .find(|fp| *fp != presented)
        {
            return Err(KeyMismatch {
                pinned,
                presented,
                source: PinSource::KnownHosts,
            });
        }
        let seen = keys.iter().any(|k| known.get(k).is_some());
        let mut problem = None;
        for k in &keys {
            if known.get(k).is_none()
                && let Err(e) = known.pin(k, presented)
            {
                problem = Some(e);
            }
        }
        let checked = if seen {
            Checked::Known
        } else {
            Checked::FirstUse
        };
        Ok((checked, problem))
    }
}

/// `banco forget HOST[:PORT]`: removes the server's pin from the known hosts file in
/// `state`. Says what it did, as a sentence.
pub fn forget(state: Option<&Path>, address: &str) -> Result<String, String> {
    let Some(dir) = state else {
        return Err("no state directory (no home folder): no keys are kept".to_string());
    };
    let (mut known, _) = KnownHosts::load(dir.join(FILE));
    let key = pin_key(address);
    match known.forget(address)? {
        true => Ok(format!(
            "Forgot the key of {key}: the next connection pins the key it shows (compare it with the host's screen)."
        )),
        false => Ok(format!(
            "No key was pinned for {key} in {}.",
            dir.join(FILE).display()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fp(n: u8) -> Fingerprint {
        Fingerprint([n; 32])
    }

    fn scratch(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("banco-known-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn first_use_pins_and_a_changed_key_is_refused() {
        let dir = scratch("pins");
        let trust = Trust::from_state_dir(Some(&dir));
        assert_eq!(
            trust.check(&["pc-an", "192.168.1.20:7373"], fp(1)),
            Ok((Checked::FirstUse, None))
        );
        assert_eq!(
            trust.check(&["pc-an:7373"], fp(1)),
            Ok((Checked::Known, None))
        );
        // A reconnection dials the address it resolved to: pinned too.
        assert_eq!(
            trust.check(&["192.168.1.20"], fp(1)),
            Ok((Checked::Known, None))
        );
        let changed = trust.check(&["PC-AN"], fp(2)).unwrap_err();
        assert_eq!(
            changed,
            KeyMismatch {
                pinned: fp(1),
                presented: fp(2),
                source: PinSource::KnownHosts
            }
        );

        // Kept on disk, read back by the next run.
        let again = Trust::from_state_dir(Some(&dir));
        assert!(again.problems.is_empty(), "{:?}", again.problems);
        assert_eq!(
            again.held(&["pc-an:7373"]),
            Some((fp(1), PinSource::KnownHosts))
        );
        let text = std::fs::read_to_string(dir.join(FILE)).unwrap();
        assert!(text.starts_with("# banco's known hosts"));
        assert!(text.contains(&format!("pc-an:7373 {}", fp(1).hex())));

        // Forgotten: the next key is a first use again.
        assert!(forget(Some(&dir), "pc-an").unwrap().starts_with("Forgot"));
        assert!(
            forget(Some(&dir), "192.168.1.20")
                .unwrap()
                .starts_with("Forgot")
        );
        assert!(forget(Some(&dir), "pc-an").unwrap().starts_with("No key"));
        let fresh = Trust::from_state_dir(Some(&dir));
        assert_eq!(
            fresh.check(&["pc-an"], fp(2)),
            Ok((Checked::FirstUse, None))
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_named_key_is_required_and_then_pinned() {
        let dir = scratch("flag");
        let trust = Trust::from_state_dir(Some(&dir));
        trust.check(&["pc-an"], fp(1)).unwrap();
        let told = Trust::from_state_dir(Some(&dir)).expecting("pc-an", fp(2), PinSource::Flag);
        let wrong = told.check(&["pc-an"], fp(3)).unwrap_err();
        assert_eq!((wrong.pinned, wrong.source), (fp(2), PinSource::Flag));
        // The key the player named wins over the old pin, and is pinned.
        assert_eq!(told.check(&["pc-an"], fp(2)), Ok((Checked::Known, None)));
        let next = Trust::from_state_dir(Some(&dir));
        assert_eq!(next.held(&["pc-an"]), Some((fp(2), PinSource::KnownHosts)));
        // The hosted server's own key is checked, never written.
        let own = Trust::from_state_dir(Some(&dir)).expecting(
            "127.0.0.1:7373",
            fp(9),
            PinSource::OwnServer,
        );
        assert_eq!(
            own.check(&["127.0.0.1:7373"], fp(9)),
            Ok((Checked::Known, None))
        );
        assert_eq!(Trust::from_state_dir(Some(&dir)).held(&["127.0.0.1"]), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_damaged_line_is_skipped_and_said() {
        let dir = scratch("damaged");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join(FILE),
            format!("# note\npc-an:7373 {}\nnonsense\nx:1 12ab\n", fp(4).hex()),
        )
        .unwrap();
        let trust = Trust::from_state_dir(Some(&dir));
        assert_eq!(trust.problems.len(), 2, "{:?}", trust.problems);
        assert!(trust.problems[0].contains("line 3"));
        assert_eq!(trust.held(&["pc-an"]), Some((fp(4), PinSource::KnownHosts)));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn in_memory_pins_last_the_run() {
        let trust = Trust::default();
        assert_eq!(trust.check(&["a"], fp(1)), Ok((Checked::FirstUse, None)));
        assert!(
            trust.clone().check(&["a"], fp(2)).is_err(),
            "clones share pins"
        );
        assert!(trust.file().is_none());
    }
}
