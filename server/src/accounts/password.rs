//! Password hashing: argon2id with OWASP's parameters (19 MiB, two passes, one lane),
//! a fresh random salt per hash, the PHC string form (salt and parameters travel with
//! the hash, so they can be raised later without breaking old hashes).
//!
//! Every hash is computed in memory its caller owns ([`Memory`]): the server's
//! [`Hashers`](super::hashers::Hashers) keep one per thread and reuse it, so hashing
//! allocates nothing, whatever the number of logins. Blocking and deliberately slow:
//! callers run these off the async runtime.

use argon2::password_hash::{Output, ParamsString, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};

/// OWASP's argon2id minimum: 19 MiB of memory, 2 iterations, 1 degree of parallelism.
const MEMORY_KIB: u32 = 19 * 1024;
const PASSES: u32 = 2;
const LANES: u32 = 1;

/// The work memory of one hash with today's parameters (19 MiB), for reuse.
pub struct Memory(Vec<Block>);

impl Memory {
    /// Allocates (and touches) the memory of one hash.
    pub fn new() -> Memory {
        Memory(vec![Block::default(); params().block_count()])
    }
}

impl Default for Memory {
    fn default() -> Memory {
        Memory::new()
    }
}

fn params() -> Params {
    // These constants are valid parameters; `Params::DEFAULT` is the same family.
    Params::new(MEMORY_KIB, PASSES, LANES, None).unwrap_or(Params::DEFAULT)
}

/// The PHC string of `password` under a new random salt, computed in `memory`.
pub fn hash_in(password: &str, memory: &mut Memory) -> Result<String, String> {
    let salt: [u8; 16] = rand::random();
    let salt_text = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
    let params = params();
    let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
    let length = params.output_len().unwrap_or(Params::DEFAULT_OUTPUT_LEN);
    let output = Output::init_with(length, |out| {
        argon
            .hash_password_into_with_memory(password.as_bytes(), &salt, out, &mut memory.0)
            .map_err(Into::into)
    })
    .map_err(|e| e.to_string())?;
    let phc = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params).map_err(|e| e.to_string())?,
        salt: Some(salt_text.as_salt()),
        hash: Some(output),
    };
    Ok(phc.to_string())
}

/// Whether `password` matches `stored`, computed in `memory` and compared in constant
/// time. A stored hash that cannot be read, or that needs more memory than today's
/// parameters (no hash this server made does), matches nothing.
pub fn verify_in(password: &str, stored: &str, memory: &mut Memory) -> bool {
    let unreadable = |why: &str| {
        tracing::error!(
            why,
            "an account's password hash cannot be checked; nobody can log in to it until the host resets it"
        );
        false
    };
    let Ok(parsed) = PasswordHash::new(stored) else {
        return unreadable("not a PHC string");
    };
    let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
        return unreadable("no salt or no hash");
    };
    let (Ok(algorithm), Ok(params)) = (
        Algorithm::try_from(parsed.algorithm),
        Params::try_from(&parsed),
    ) else {
        return unreadable("unknown algorithm or parameters");
    };
    let version = match parsed.version.map(Version::try_from) {
        None => Version::V0x13,
        Some(Ok(v)) => v,
        Some(Err(_)) => return unreadable("unknown version"),
    };
    if params.block_count() > memory.0.len() {
        return unreadable("more memory than this server gives a hash");
    }
    let mut salt_bytes = [0u8; 64];
    let Ok(salt) = salt.decode_b64(&mut salt_bytes) else {
        return unreadable("a salt that is not base64");
    };
    let argon = Argon2::new(algorithm, version, params);
    let computed = Output::init_with(expected.len(), |out| {
        argon
            .hash_password_into_with_memory(password.as_bytes(), salt, out, &mut memory.0)
            .map_err(Into::into)
    });
    // `Output`'s equality is constant-time.
    computed.is_ok_and(|computed| computed == expected)
}

/// The PHC string of `password` in memory of its own: for the host's one-off commands.
pub fn hash(password: &str) -> Result<String, String> {
    hash_in(password, &mut Memory::new())
}

/// Spends the time a real check takes, for a name with no account: how long a refusal
/// takes then says nothing about which names are registered.
pub fn waste_a_check(password: &str, memory: &mut Memory) {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let dummy = match DUMMY.get() {
        Some(dummy) => dummy,
        None => {
            let made = hash_in("no account has this password", memory).unwrap_or_default();
            DUMMY.get_or_init(|| made)
        }
    };
    let _ = verify_in(password, dummy, memory);
}

#[cfg(test)]
mod tests {
    use super::*;
    use argon2::password_hash::{PasswordHasher, PasswordVerifier};

    #[test]
    fn a_hash_checks_its_password_and_no_other() {
        let mut memory = Memory::new();
        let h = hash_in("correct horse", &mut memory).unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify_in("correct horse", &h, &mut memory));
        assert!(!verify_in("correct hors", &h, &mut memory));
        assert!(!verify_in("correct horse", "not a hash", &mut memory));
        assert_ne!(hash_in("correct horse", &mut memory).unwrap(), h, "salted");
    }

    #[test]
    fn hashes_are_the_argon2_crate_s_own_both_ways() {
        // Hashes stored before hashing got its own memory still check, and the other way.
        let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, params());
        let salt = SaltString::encode_b64(b"sixteen byte slt").unwrap();
        let theirs = argon.hash_password(b"mat khau", &salt).unwrap().to_string();
        let mut memory = Memory::new();
        assert!(verify_in("mat khau", &theirs, &mut memory));
        assert!(!verify_in("mat kha", &theirs, &mut memory));
        let ours = hash_in("mat khau", &mut memory).unwrap();
        let parsed = PasswordHash::new(&ours).unwrap();
        assert!(argon.verify_password(b"mat khau", &parsed).is_ok());
    }

    #[test]
    fn a_hash_needing_more_memory_than_given_matches_nothing() {
        let big = Params::new(MEMORY_KIB * 2, 1, 1, None).unwrap();
        let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, big);
        let salt = SaltString::encode_b64(b"sixteen byte slt").unwrap();
        let greedy = argon.hash_password(b"pw", &salt).unwrap().to_string();
        assert!(!verify_in("pw", &greedy, &mut Memory::new()));
    }
}
