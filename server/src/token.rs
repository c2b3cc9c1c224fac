//! Resume tokens and account tokens as the server keeps them: a SHA-256 hash, never the
//! secret itself.
//!
//! A [`ResumeToken`] is 16 random bytes handed to one client in `Welcome`; whoever presents
//! it takes back a held seat. The server only needs to recognise it, so rooms, the lobby
//! and the store keep its hash: a copy of the database (or a log line) gives nobody a seat.
//! The token is random and long, so a plain hash is enough (no salt, no slow hash: there
//! is no password to guess).

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt;

use banco_protocol::{AccountToken, ResumeToken};

/// The hash of a resume token.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TokenHash(#[serde(with = "hex")] pub [u8; 32]);

impl TokenHash {
    pub fn of(token: &ResumeToken) -> TokenHash {
        TokenHash(Sha256::digest(token.0).into())
    }

    /// The hash of an account token (32 random bytes: a plain hash is enough here too).
    pub fn of_account(token: &AccountToken) -> TokenHash {
        TokenHash(Sha256::digest(token.0).into())
    }

    /// As 64 hex digits, as the store keeps it.
    pub fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl fmt::Debug for TokenHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TokenHash({:02x}{:02x}..)", self.0[0], self.0[1])
    }
}

/// The hash as 64 hex digits in JSON (readable in the database, and no array of numbers).
mod hex {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(bytes: &[u8; 32], s: S) -> Result<S::Ok, S::Error> {
        let text: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        s.serialize_str(&text)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u8; 32], D::Error> {
        let text = String::deserialize(d)?;
        let mut out = [0u8; 32];
        if text.len() != 64 || !text.is_ascii() {
            return Err(D::Error::custom("a token hash is 64 hex digits"));
        }
        for (i, byte) in out.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16)
                .map_err(|_| D::Error::custom("a token hash is 64 hex digits"))?;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_recognise_their_token_only_and_round_trip() {
        let a = TokenHash::of(&ResumeToken([1; 16]));
        assert_eq!(a, TokenHash::of(&ResumeToken([1; 16])));
        assert_ne!(a, TokenHash::of(&ResumeToken([2; 16])));
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(json.len(), 66);
        assert_eq!(serde_json::from_str::<TokenHash>(&json).unwrap(), a);
        assert!(serde_json::from_str::<TokenHash>("\"zz\"").is_err());
        assert!(
            !format!("{a:?}").contains(&json[5..20]),
            "never logged in full"
        );
    }
}
