//! The names of the bots' strengths. What each level may spend and how it plays is the
//! engine's business; the names are shared by every front end, the wire and the store.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How strong a bot plays.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Level {
    Easy,
    Medium,
    Hard,
    Max,
}

impl Level {
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Max];

    /// The name used on command lines and in files.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Max => "max",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level name that is not one of banco's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown level '{0}': expected easy, medium, hard or max")]
pub struct UnknownLevel(pub String);

impl FromStr for Level {
    type Err = UnknownLevel;

    fn from_str(s: &str) -> Result<Level, UnknownLevel> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownLevel(s.to_string()))
    }
}
