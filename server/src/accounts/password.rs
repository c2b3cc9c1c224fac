//! Password hashing: argon2id with OWASP's parameters (19 MiB, two passes, one lane),
//! a fresh random salt per hash, the PHC string form (salt and parameters travel with
//! the hash, so they can be raised later without breaking old hashes). Blocking and
//! deliberately slow: callers run these off the async runtime.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

/// OWASP's argon2id minimum: 19 MiB of memory, 2 iterations, 1 degree of parallelism.
const MEMORY_KIB: u32 = 19 * 1024;
const PASSES: u32 = 2;
const LANES: u32 = 1;

fn hasher() -> Argon2<'static> {
    // These constants are valid parameters; `Params::DEFAULT` is the same family.
    let params = Params::new(MEMORY_KIB, PASSES, LANES, None).unwrap_or(Params::DEFAULT);
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// The PHC string of `password` under a new random salt.
pub fn hash(password: &str) -> Result<String, String> {
    let salt: [u8; 16] = rand::random();
    let salt = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
    hasher()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| e.to_string())
}

/// Whether `password` matches `stored` (compared in constant time by the argon2 crate).
/// A stored hash that cannot be read matches nothing.
pub fn verify(password: &str, stored: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(stored) else {
        tracing::error!(
            "an account's password hash cannot be read; nobody can log in to it until the host resets it"
        );
        return false;
    };
    hasher()
        .verify_password(password.as_bytes(), &parsed)
        .is_ok()
}

/// Spends the time a real check takes, for a name with no account: how long a refusal
/// takes then says nothing about which names are registered.
pub fn waste_a_check(password: &str) {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let dummy = DUMMY.get_or_init(|| hash("no account has this password").unwrap_or_default());
    let _ = verify(password, dummy);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_checks_its_password_and_no_other() {
        let h = hash("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify("correct horse", &h));
        assert!(!verify("correct hors", &h));
        assert!(!verify("correct horse", "not a hash"));
        assert_ne!(hash("correct horse").unwrap(), h, "salted");
    }
}
