//! A server's key fingerprint: what a player compares with the host's screen, and what the
//! terminal client pins on first use (as SSH's `known_hosts` does).
//!
//! It is the SHA-256 of the certificate's public key (its DER-encoded
//! SubjectPublicKeyInfo, SPKI), not of the whole certificate: a certificate made again
//! for the same key (new addresses, a renewed real certificate) keeps its fingerprint.
//! Chromium's certificate viewer shows the same number as "Public key" under its
//! SHA-256 fingerprints.
//!
//! Written as 64 lowercase hex digits in 16 groups of 4 separated by spaces (text wraps
//! between groups); read back from any mix of case, spaces, `:` and `-`, so a copy from
//! a screen, a log or a browser works as it comes.

use sha2::{Digest, Sha256};
use std::fmt;
use std::str::FromStr;

/// The SHA-256 of a server certificate's public key (SPKI). Its wire form (in discovery
/// beacons) is the 32 bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Fingerprint(pub [u8; 32]);

impl Fingerprint {
    /// The fingerprint of a DER-encoded SubjectPublicKeyInfo.
    pub fn of_spki(spki_der: &[u8]) -> Fingerprint {
        Fingerprint(Sha256::digest(spki_der).into())
    }

    /// The 64 hex digits without separators: for URLs (`#fp=...`) and files.
    pub fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl fmt::Display for Fingerprint {
    /// `3f2a 91c0 ...`: 16 groups of 4 hex digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, pair) in self.0.chunks(2).enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{:02x}{:02x}", pair[0], pair[1])?;
        }
        Ok(())
    }
}

impl fmt::Debug for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fingerprint({self})")
    }
}

/// Text that is not a fingerprint.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{0}' is not a key fingerprint: it is 64 hex digits (0-9, a-f), as the host's screen shows them, spaces allowed"
)]
pub struct BadFingerprint(pub String);

impl FromStr for Fingerprint {
    type Err = BadFingerprint;

    fn from_str(text: &str) -> Result<Fingerprint, BadFingerprint> {
        let bad = || BadFingerprint(text.trim().to_string());
        let mut digits = text
            .chars()
            .filter(|c| !matches!(c, ' ' | '\t' | ':' | '-'))
            .map(|c| c.to_digit(16).ok_or_else(bad));
        let mut bytes = [0u8; 32];
        for byte in &mut bytes {
            let (Some(high), Some(low)) = (digits.next(), digits.next()) else {
                return Err(bad());
            };
            *byte = (high? * 16 + low?) as u8;
        }
        if digits.next().is_some() {
            return Err(bad());
        }
        Ok(Fingerprint(bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_in_groups_and_read_back_from_any_copy() {
        let fp = Fingerprint::of_spki(b"a public key");
        let shown = fp.to_string();
        assert_eq!(shown.len(), 64 + 15);
        assert_eq!(shown.split(' ').count(), 16);
        assert!(shown.split(' ').all(|g| g.len() == 4));
        assert_eq!(shown.parse::<Fingerprint>(), Ok(fp));
        assert_eq!(fp.hex().parse::<Fingerprint>(), Ok(fp));
        assert_eq!(fp.hex().to_uppercase().parse::<Fingerprint>(), Ok(fp));
        let colons: Vec<String> = fp.0.iter().map(|b| format!("{b:02X}")).collect();
        assert_eq!(colons.join(":").parse::<Fingerprint>(), Ok(fp));
        assert_eq!(shown.replace(' ', "-").parse::<Fingerprint>(), Ok(fp));
    }

    #[test]
    fn anything_else_is_refused_with_a_sentence() {
        let fp = Fingerprint::of_spki(b"k").hex();
        for bad in [
            "",
            "xyz",
            &fp[..62],
            &format!("{fp}00"),
            &format!("{}g", &fp[..63]),
        ] {
            let e = bad.parse::<Fingerprint>().unwrap_err();
            assert!(e.to_string().contains("64 hex digits"), "{bad}");
        }
    }

    #[test]
    fn the_sha_256_of_the_key() {
        // SHA-256("abc"), FIPS 180-2's example.
        assert_eq!(
            Fingerprint::of_spki(b"abc").hex(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
