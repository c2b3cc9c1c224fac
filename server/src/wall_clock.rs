//! The wall clock as records and chat lines carry it: milliseconds since the Unix epoch.
//! A leaf module, so the rooms (chat lines, games' starts and ends) and the store (its
//! own records of starts and replaced files) read one clock without importing each other.

use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch (0 on a clock set before it).
pub fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}
