//! What a host chooses about keeping records: where they are kept ([`StoreLocation`])
//! and what a commit survives ([`SyncMode`]). A leaf module: [`crate::config`] holds the
//! choices and [`crate::store`] acts on them, and neither imports the other.

use std::path::PathBuf;

/// Where finished games and ratings are kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreLocation {
    /// Nothing outlives the process: tests, or a throwaway server.
    Memory,
    /// A SQLite file; created (with its directory) if missing.
    File(PathBuf),
}

/// How hard a commit presses on the disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SyncMode {
    /// WAL with `synchronous=NORMAL`: a commit survives the process dying (`kill -9`, a
    /// crash); the last commits before a power cut or kernel crash may be lost. No fsync
    /// per commit.
    #[default]
    Normal,
    /// WAL with `synchronous=FULL`: every commit also survives power loss, at the price
    /// of an fsync per commit (per group of commits: rooms' writes are batched).
    Full,
}

impl std::str::FromStr for SyncMode {
    type Err = String;

    fn from_str(text: &str) -> Result<SyncMode, String> {
        match text {
            "normal" => Ok(SyncMode::Normal),
            "full" => Ok(SyncMode::Full),
            other => Err(format!("'{other}' is not a sync mode: normal or full")),
        }
    }
}
