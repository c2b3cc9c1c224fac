//! Encryption on the LAN, the Syncthing model: the server makes its own certificate at
//! first start and players check its key's fingerprint instead of an authority.
//!
//! - [`identity`]: the certificate and key (self-signed and kept beside the database,
//!   or real ones from files) and the [`banco_protocol::Fingerprint`] players compare.
//! - [`Tls`]: how the game port speaks, as the host set it.
//!
//! Connections are told apart and their handshakes run in [`crate::door`], above the
//! sessions; this module stays below them, so the configuration can hold a [`Tls`].
//!
//! What is encrypted: everything on the game port when TLS is on (the default): banco
//! clients' sessions (passwords, resume tokens, moves, chat), the page and its
//! WebSocket (`https://`, `wss://`). Discovery's UDP beacons are not (they carry a name,
//! a port and two counts). `--no-tls` turns it all off, for banco clients older than it.

pub mod identity;

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use identity::{Identity, Origin, fingerprint_of};

use crate::config::StoreLocation;

/// How the game port speaks.
#[derive(Debug, Clone, Default)]
pub enum Tls {
    /// TLS with the self-signed certificate kept beside the database, made at first
    /// start (a store in memory gets one for this run only).
    #[default]
    SelfSigned,
    /// TLS with the certificate and key in these PEM files (`--tls-cert`, `--tls-key`).
    Files {
        /// The certificate chain, the server's own first.
        cert: PathBuf,
        /// Its private key.
        key: PathBuf,
    },
    /// TLS with an identity already loaded (by `banco host`, which shows its
    /// fingerprint, and by tests).
    Ready(Arc<Identity>),
    /// No encryption (`--no-tls`): passwords and tokens cross the network in the clear.
    Off,
}

impl Tls {
    /// The loaded identity, `None` when TLS is off: [`Tls::SelfSigned`] and
    /// [`Tls::Files`] are read here (blocking: files, and key generation on first start).
    pub fn load(&self, store: &StoreLocation) -> Result<Option<Arc<Identity>>, TlsError> {
        match self {
            Tls::Off => Ok(None),
            Tls::Ready(identity) => Ok(Some(identity.clone())),
            Tls::Files { cert, key } => Identity::from_files(cert, key).map(|i| Some(Arc::new(i))),
            Tls::SelfSigned => match store {
                StoreLocation::Memory => Identity::this_run().map(|i| Some(Arc::new(i))),
                StoreLocation::File(db) => {
                    let dir = match db.parent() {
                        Some(dir) if !dir.as_os_str().is_empty() => dir,
                        _ => Path::new("."),
                    };
                    Identity::kept_in(dir).map(|i| Some(Arc::new(i)))
                }
            },
        }
    }

    /// The identity, once loaded; `None` when TLS is off or not loaded yet.
    pub fn identity(&self) -> Option<&Arc<Identity>> {
        match self {
            Tls::Ready(identity) => Some(identity),
            _ => None,
        }
    }
}

/// The transport flags `banco-server` and `banco host` share.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct TlsArgs {
    /// A real certificate (PEM; the server's own first, then its chain) instead of the
    /// self-signed one made at first start. Needs --tls-key.
    #[arg(
        long,
        value_name = "FILE",
        requires = "tls_key",
        conflicts_with = "no_tls"
    )]
    pub tls_cert: Option<PathBuf>,
    /// The private key (PEM) of --tls-cert.
    #[arg(
        long,
        value_name = "FILE",
        requires = "tls_cert",
        conflicts_with = "no_tls"
    )]
    pub tls_key: Option<PathBuf>,
    /// Speak without encryption, for banco clients older than TLS (they join with
    /// --no-tls too): passwords and resume tokens then cross the network in the clear.
    #[arg(long)]
    pub no_tls: bool,
}

impl TlsArgs {
    /// What the flags ask for.
    pub fn tls(&self) -> Tls {
        match (&self.tls_cert, &self.tls_key, self.no_tls) {
            (_, _, true) => Tls::Off,
            (Some(cert), Some(key), false) => Tls::Files {
                cert: cert.clone(),
                key: key.clone(),
            },
            _ => Tls::SelfSigned,
        }
    }
}

/// Says at start how players' connections are protected: the fingerprint to compare,
/// or that nothing is encrypted.
pub fn announce(identity: Option<&Identity>) {
    match identity {
        Some(id) => {
            let kept = match &id.origin {
                Origin::Kept(dir) => format!("self-signed, kept in {}", dir.display()),
                Origin::ThisRun => "self-signed, for this run only".to_string(),
                Origin::Files(path) => format!("from {}", path.display()),
            };
            tracing::info!(
                fingerprint = %id.fingerprint,
                certificate = %kept,
                "connections are encrypted (TLS); players compare this key fingerprint with what their client or browser shows"
            );
            tracing::info!(
                sha256 = %id.certificate_sha256_text(),
                "the certificate's own SHA-256 (what Firefox and Safari show)"
            );
        }
        None => tracing::warn!(
            "TLS is off (--no-tls): passwords and resume tokens cross the network in the clear; \
             banco clients join with --no-tls, browsers with http://"
        ),
    }
}

/// Why the server has no usable certificate. Each says what to do.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("cannot read the TLS {what} {}: {reason}; check the path and that the server may read it", .path.display())]
    Read {
        what: &'static str,
        path: PathBuf,
        reason: String,
    },
    #[error(
        "{} holds no certificate: --tls-cert takes a PEM file (-----BEGIN CERTIFICATE-----)",
        .0.display()
    )]
    NoCertificate(PathBuf),
    #[error(
        "{} holds no private key: --tls-key takes a PEM file (-----BEGIN PRIVATE KEY-----)",
        .0.display()
    )]
    NoKey(PathBuf),
    #[error("{} cannot be used: {reason}", .path.display())]
    Unusable { path: PathBuf, reason: String },
    #[error(
        "the key {} does not belong to the certificate {} ({reason}): give --tls-key the key the certificate was made for",
        .key.display(), .cert.display()
    )]
    Mismatch {
        cert: PathBuf,
        key: PathBuf,
        reason: String,
    },
    #[error(
        "found {} but not {}: restore the missing file, or remove the other one so the server makes a new certificate (players who pinned the old key will be warned that it changed)",
        .present.display(), .missing.display()
    )]
    Half { present: PathBuf, missing: PathBuf },
    #[error(
        "cannot keep the server's certificate in {}: {reason}; give that folder write access, or start with --tls-cert and --tls-key, or with --no-tls",
        .path.display()
    )]
    Write { path: PathBuf, reason: String },
    #[error("could not make a certificate: {0}")]
    Make(String),
    #[error("the certificate cannot be used for TLS: {0}")]
    Config(String),
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Flags {
        #[command(flatten)]
        tls: TlsArgs,
    }

    #[test]
    fn the_flags_read_as_documented() {
        assert!(matches!(
            Flags::parse_from(["x"]).tls.tls(),
            Tls::SelfSigned
        ));
        assert!(matches!(
            Flags::parse_from(["x", "--no-tls"]).tls.tls(),
            Tls::Off
        ));
        assert!(matches!(
            Flags::parse_from(["x", "--tls-cert", "c.pem", "--tls-key", "k.pem"])
                .tls
                .tls(),
            Tls::Files { .. }
        ));
        assert!(Flags::try_parse_from(["x", "--tls-cert", "c.pem"]).is_err());
        assert!(
            Flags::try_parse_from(["x", "--tls-cert", "c", "--tls-key", "k", "--no-tls"]).is_err()
        );
    }
}
