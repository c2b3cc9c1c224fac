//! The server's certificate and key, and the TLS configuration made from them.
//!
//! - Self-signed (the default): made at first start with `rcgen` (an ECDSA P-256 key;
//!   subject alternative names: localhost, this machine's name and its addresses) and
//!   kept beside the database as [`CERT_FILE`] and [`KEY_FILE`] (the key readable by its
//!   owner only). The key is what players pin, so it is made once; the certificate is
//!   made again from the same key when it nears the end of its [`VALIDITY_DAYS`] (phones
//!   refuse longer-lived ones), and the fingerprint does not change. A server whose
//!   store is in memory makes a key for this run only.
//! - From files (`--tls-cert`, `--tls-key`): a real certificate, PEM, used as it is.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use banco_protocol::Fingerprint;
use rustls::ServerConfig;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};

use super::TlsError;

/// The certificate's file, beside the database.
pub const CERT_FILE: &str = "tls-cert.pem";
/// The private key's file, beside the database (mode 0600).
pub const KEY_FILE: &str = "tls-key.pem";

/// How long a self-signed certificate is valid: under the 825 days Apple's systems
/// accept for any TLS server certificate.
pub const VALIDITY_DAYS: u64 = 800;
/// A kept certificate older than this is made again (same key) at start.
const RENEW_AFTER_DAYS: u64 = VALIDITY_DAYS - 30;

/// The protocols a client may ask for by ALPN: banco's own, and HTTP/1.1 for browsers.
pub const ALPN_BANCO: &[u8] = b"banco";
/// HTTP/1.1's ALPN name: browsers and curl offer it.
pub const ALPN_HTTP: &[u8] = b"http/1.1";

/// Where the certificate came from, for what the server says at start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// Made by this server and kept in this folder.
    Kept(PathBuf),
    /// Made by this server for this run only (its store is in memory).
    ThisRun,
    /// Given with `--tls-cert`.
    Files(PathBuf),
}

/// A server's TLS identity: its configuration for rustls and the numbers players compare.
pub struct Identity {
    /// rustls's server side: the certificate chain, the key, ALPN.
    pub config: Arc<ServerConfig>,
    /// The SHA-256 of the certificate's public key: what players compare and pin.
    pub fingerprint: Fingerprint,
    /// The SHA-256 of the whole certificate (DER): what Firefox and Safari show.
    pub certificate_sha256: [u8; 32],
    /// Where it came from.
    pub origin: Origin,
}

impl std::fmt::Debug for Identity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Identity")
            .field("fingerprint", &self.fingerprint)
            .field("origin", &self.origin)
            .finish_non_exhaustive()
    }
}

impl Identity {
    /// A self-signed identity for this run only: nothing is written.
    pub fn this_run() -> Result<Identity, TlsError> {
        let key = rcgen::KeyPair::generate().map_err(|e| TlsError::Make(e.to_string()))?;
        let cert = self_signed(&key)?;
        Identity::new(
            vec![cert.der().clone()],
            private_key(&key)?,
            Origin::ThisRun,
        )
    }

    /// The self-signed identity kept in `dir`: read, or made and written at first start;
    /// its certificate made again (same key, same fingerprint) when it nears its end.
    pub fn kept_in(dir: &Path) -> Result<Identity, TlsError> {
        let cert_path = dir.join(CERT_FILE);
        let key_path = dir.join(KEY_FILE);
        let key = match (cert_path.exists(), key_path.exists()) {
            (false, false) => None,
            (true, false) => {
                return Err(TlsError::Half {
                    present: cert_path,
                    missing: key_path,
                });
            }
            (false, true) => {
                return Err(TlsError::Half {
                    present: key_path,
                    missing: cert_path,
                });
            }
            (true, true) => Some(read_text(&key_path, "key")?),
        };
        let key = match key {
            Some(pem) => {
                warn_if_readable_by_others(&key_path);
                let key = rcgen::KeyPair::from_pem(&pem).map_err(|e| TlsError::Unusable {
                    path: key_path.clone(),
                    reason: e.to_string(),
                })?;
                if !due_for_renewal(&cert_path) {
                    return Identity::from_files(&cert_path, &key_path)
                        .map(|id| id.with_origin(Origin::Kept(dir.to_path_buf())));
                }
                tracing::info!(
                    path = %cert_path.display(),
                    "the server's certificate nears its end: making it again with the same key (the fingerprint stays)"
                );
                key
            }
            None => {
                std::fs::create_dir_all(dir).map_err(|e| TlsError::Write {
                    path: dir.to_path_buf(),
                    reason: e.kind().to_string(),
                })?;
                let key = rcgen::KeyPair::generate().map_err(|e| TlsError::Make(e.to_string()))?;
                write_file(&key_path, key.serialize_pem().as_bytes(), true)?;
                key
            }
        };
        let cert = self_signed(&key)?;
        write_file(&cert_path, cert.pem().as_bytes(), false)?;
        Identity::new(
            vec![cert.der().clone()],
            private_key(&key)?,
            Origin::Kept(dir.to_path_buf()),
        )
    }

    /// A certificate chain and its key from PEM files (`--tls-cert`, `--tls-key`).
    pub fn from_files(cert_path: &Path, key_path: &Path) -> Result<Identity, TlsError> {
        let cert_pem = read_text(cert_path, "certificate")?;
        let chain: Vec<CertificateDer<'static>> =
            CertificateDer::pem_slice_iter(cert_pem.as_bytes())
                .collect::<Result<_, _>>()
                .map_err(|e| TlsError::Unusable {
                    path: cert_path.to_path_buf(),
                    reason: e.to_string(),
                })?;
        if chain.is_empty() {
            return Err(TlsError::NoCertificate(cert_path.to_path_buf()));
        }
        let key_pem = read_text(key_path, "key")?;
        let key = PrivateKeyDer::from_pem_slice(key_pem.as_bytes()).map_err(|e| match e {
            rustls_pki_types::pem::Error::NoItemsFound => TlsError::NoKey(key_path.to_path_buf()),
            e => TlsError::Unusable {
                path: key_path.to_path_buf(),
                reason: e.to_string(),
            },
        })?;
        Identity::new(chain, key, Origin::Files(cert_path.to_path_buf())).map_err(|e| match e {
            TlsError::Config(reason) => TlsError::Mismatch {
                cert: cert_path.to_path_buf(),
                key: key_path.to_path_buf(),
                reason,
            },
            e => e,
        })
    }

    /// The identity for `chain` (the server's own certificate first) and its `key`.
    fn new(
        chain: Vec<CertificateDer<'static>>,
        key: PrivateKeyDer<'static>,
        origin: Origin,
    ) -> Result<Identity, TlsError> {
        let own = chain
            .first()
            .ok_or_else(|| TlsError::Config("no certificate".into()))?;
        let fingerprint = fingerprint_of(own).map_err(TlsError::Config)?;
        let certificate_sha256 = {
            use sha2::Digest;
            sha2::Sha256::digest(own.as_ref()).into()
        };
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut config = ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| TlsError::Config(e.to_string()))?
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .map_err(|e| TlsError::Config(e.to_string()))?;
        config.alpn_protocols = vec![ALPN_BANCO.to_vec(), ALPN_HTTP.to_vec()];
        Ok(Identity {
            config: Arc::new(config),
            fingerprint,
            certificate_sha256,
            origin,
        })
    }

    fn with_origin(mut self, origin: Origin) -> Identity {
        self.origin = origin;
        self
    }

    /// The certificate's own SHA-256 as browsers other than Chromium show it
    /// (`AB:CD:...`).
    pub fn certificate_sha256_text(&self) -> String {
        let pairs: Vec<String> = self
            .certificate_sha256
            .iter()
            .map(|b| format!("{b:02X}"))
            .collect();
        pairs.join(":")
    }
}

/// The fingerprint of a DER certificate: the SHA-256 of its public key (SPKI). `Err`
/// says why the bytes are not a certificate.
pub fn fingerprint_of(cert: &CertificateDer<'_>) -> Result<Fingerprint, String> {
    let parsed = webpki::EndEntityCert::try_from(cert).map_err(|e| e.to_string())?;
    Ok(Fingerprint::of_spki(
        parsed.subject_public_key_info().as_ref(),
    ))
}

/// A certificate for `key`, signed by itself, valid from yesterday for
/// [`VALIDITY_DAYS`], naming every address a player may reach this machine by.
fn self_signed(key: &rcgen::KeyPair) -> Result<rcgen::Certificate, TlsError> {
    let mut params = rcgen::CertificateParams::new(Vec::<String>::new())
        .map_err(|e| TlsError::Make(e.to_string()))?;
    params.subject_alt_names = subject_alt_names();
    let host = crate::config::host_name();
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, format!("banco server on {host}"));
    params
        .distinguished_name
        .push(rcgen::DnType::OrganizationName, "banco");
    let today = chrono::Utc::now().date_naive();
    let day = |d: chrono::NaiveDate| {
        use chrono::Datelike;
        rcgen::date_time_ymd(d.year(), d.month() as u8, d.day() as u8)
    };
    params.not_before = day(today - chrono::Days::new(1));
    params.not_after = day(today + chrono::Days::new(VALIDITY_DAYS));
    params.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::ServerAuth];
    params.key_usages = vec![rcgen::KeyUsagePurpose::DigitalSignature];
    params
        .self_signed(key)
        .map_err(|e| TlsError::Make(e.to_string()))
}

/// localhost, this machine's name (when it is a valid DNS name), loopback, and every
/// address of its network interfaces.
fn subject_alt_names() -> Vec<rcgen::SanType> {
    let mut names = vec![rcgen::SanType::DnsName(
        "localhost".try_into().expect("localhost is a DNS name"),
    )];
    let host = crate::config::host_name();
    for name in [host.clone(), format!("{host}.local")] {
        if let Ok(dns) = name.to_ascii_lowercase().try_into() {
            let san = rcgen::SanType::DnsName(dns);
            if !names.contains(&san) {
                names.push(san);
            }
        }
    }
    let mut ips: Vec<std::net::IpAddr> = vec![
        std::net::Ipv4Addr::LOCALHOST.into(),
        std::net::Ipv6Addr::LOCALHOST.into(),
    ];
    if let Ok(interfaces) = if_addrs::get_if_addrs() {
        for iface in interfaces {
            let ip = iface.ip();
            if !ips.contains(&ip) {
                ips.push(ip);
            }
        }
    }
    names.extend(ips.into_iter().map(rcgen::SanType::IpAddress));
    names
}

fn private_key(key: &rcgen::KeyPair) -> Result<PrivateKeyDer<'static>, TlsError> {
    PrivateKeyDer::try_from(key.serialize_der()).map_err(|e| TlsError::Make(e.to_string()))
}

/// Whether the kept certificate at `path` is old enough to be made again.
fn due_for_renewal(path: &Path) -> bool {
    let made = std::fs::metadata(path).and_then(|m| m.modified());
    match made.map(|t| SystemTime::now().duration_since(t)) {
        Ok(Ok(age)) => age > Duration::from_secs(RENEW_AFTER_DAYS * 24 * 3600),
        // Made "in the future" (a clock set back) or unknown: leave it.
        _ => false,
    }
}

fn read_text(path: &Path, what: &'static str) -> Result<String, TlsError> {
    std::fs::read_to_string(path).map_err(|e| TlsError::Read {
        what,
        path: path.to_path_buf(),
        reason: match e.kind() {
            std::io::ErrorKind::NotFound => "there is no such file".to_string(),
            kind => kind.to_string(),
        },
    })
}

/// Writes `bytes` to `path` whole or not at all (a new file renamed over it); `secret`
/// files are readable by their owner only.
fn write_file(path: &Path, bytes: &[u8], secret: bool) -> Result<(), TlsError> {
    let failed = |e: std::io::Error| TlsError::Write {
        path: path.to_path_buf(),
        reason: e.kind().to_string(),
    };
    let fresh = path.with_extension("pem.new");
    let _ = std::fs::remove_file(&fresh);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    if secret {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    #[cfg(not(unix))]
    let _ = secret;
    let mut file = options.open(&fresh).map_err(failed)?;
    file.write_all(bytes).map_err(failed)?;
    file.sync_all().map_err(failed)?;
    drop(file);
    std::fs::rename(&fresh, path).map_err(failed)
}

/// A key file others may read is said at start (as SSH says of a private key), not
/// refused: the host may have reasons.
fn warn_if_readable_by_others(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if let Ok(meta) = std::fs::metadata(path)
            && meta.permissions().mode() & 0o077 != 0
        {
            tracing::warn!(
                path = %path.display(),
                "the server's private key can be read by other users of this machine: chmod 600 it"
            );
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("banco-tls-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn the_first_start_makes_a_key_the_next_one_keeps_it() {
        let dir = scratch("kept");
        let first = Identity::kept_in(&dir).unwrap();
        assert_eq!(first.origin, Origin::Kept(dir.clone()));
        let key = dir.join(KEY_FILE);
        assert!(dir.join(CERT_FILE).exists() && key.exists());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&key).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "the key is its owner's alone");
        }
        let again = Identity::kept_in(&dir).unwrap();
        assert_eq!(again.fingerprint, first.fingerprint);
        assert_eq!(again.certificate_sha256, first.certificate_sha256);
        // The same files given as a "real" certificate: the same fingerprint.
        let files = Identity::from_files(&dir.join(CERT_FILE), &key).unwrap();
        assert_eq!(files.fingerprint, first.fingerprint);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_certificate_made_again_keeps_the_fingerprint() {
        let dir = scratch("renew");
        let first = Identity::kept_in(&dir).unwrap();
        // As if it had been made long ago.
        let old = SystemTime::now() - Duration::from_secs((RENEW_AFTER_DAYS + 1) * 24 * 3600);
        let file = std::fs::File::options()
            .write(true)
            .open(dir.join(CERT_FILE))
            .unwrap();
        file.set_modified(old).unwrap();
        drop(file);
        assert!(due_for_renewal(&dir.join(CERT_FILE)));
        let renewed = Identity::kept_in(&dir).unwrap();
        assert_eq!(renewed.fingerprint, first.fingerprint);
        assert_ne!(renewed.certificate_sha256, first.certificate_sha256);
        assert!(!due_for_renewal(&dir.join(CERT_FILE)));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn every_run_in_memory_gets_its_own_key() {
        let a = Identity::this_run().unwrap();
        let b = Identity::this_run().unwrap();
        assert_ne!(a.fingerprint, b.fingerprint);
        assert_eq!(a.origin, Origin::ThisRun);
        assert_eq!(a.certificate_sha256_text().len(), 32 * 3 - 1);
    }

    #[test]
    fn broken_files_are_refused_with_sentences() {
        let dir = scratch("broken");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(CERT_FILE), "not a certificate").unwrap();
        let half = Identity::kept_in(&dir).unwrap_err().to_string();
        assert!(half.contains(KEY_FILE) && half.contains("remove"), "{half}");

        let other = Identity::this_run().unwrap();
        drop(other);
        let a = scratch("broken-a");
        let b = scratch("broken-b");
        Identity::kept_in(&a).unwrap();
        Identity::kept_in(&b).unwrap();
        let mismatch = Identity::from_files(&a.join(CERT_FILE), &b.join(KEY_FILE))
            .unwrap_err()
            .to_string();
        assert!(mismatch.contains("does not belong"), "{mismatch}");
        let none = Identity::from_files(&dir.join(CERT_FILE), &a.join(KEY_FILE))
            .unwrap_err()
            .to_string();
        assert!(none.contains("no certificate"), "{none}");
        let missing = Identity::from_files(&dir.join("nothing.pem"), &a.join(KEY_FILE))
            .unwrap_err()
            .to_string();
        assert!(
            missing.contains("cannot read") && !missing.contains("os error"),
            "{missing}"
        );
        for d in [dir, a, b] {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}
