//! The names of the bots' strengths. What each level may spend and how it plays is the
//! engine's business; the names are shared by every front end, the wire and the store.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How strong a bot plays, weakest first. Neighbouring levels are meant to stand some
/// 200-300 Elo apart (the book's results log measures each pair); `easy` loses to a
/// beginner's plain play and `max` is the engine at full strength.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Level {
    Easy,
    Casual,
    Medium,
    Advanced,
    Hard,
    Expert,
    Max,
}

impl Level {
    pub const ALL: [Level; 7] = [
        Level::Easy,
        Level::Casual,
        Level::Medium,
        Level::Advanced,
        Level::Hard,
        Level::Expert,
        Level::Max,
    ];

    /// The name used on command lines and in files.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Casual => "casual",
            Level::Medium => "medium",
            Level::Advanced => "advanced",
            Level::Hard => "hard",
            Level::Expert => "expert",
            Level::Max => "max",
        }
    }

    /// The level's place on the ladder, 1 (`easy`) to 7 (`max`); accepted wherever a
    /// name is.
    pub fn number(self) -> u8 {
        self as u8 + 1
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level name that is not one of banco's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown level '{0}': expected easy, casual, medium, advanced, hard, expert or max (or 1 to 7)"
)]
pub struct UnknownLevel(pub String);

impl FromStr for Level {
    type Err = UnknownLevel;

    fn from_str(s: &str) -> Result<Level, UnknownLevel> {
        let wanted = s.trim();
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(wanted) || l.number().to_string() == wanted)
            .ok_or_else(|| UnknownLevel(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_numbers_parse_back_in_ladder_order() {
        for (i, level) in Level::ALL.into_iter().enumerate() {
            assert_eq!(usize::from(level.number()), i + 1);
            assert_eq!(level.name().parse(), Ok(level));
            assert_eq!(level.name().to_uppercase().parse(), Ok(level));
            assert_eq!(format!(" {} ", level.number()).parse(), Ok(level));
        }
        assert!(Level::ALL.windows(2).all(|w| w[0] < w[1]));
        for bad in ["", "0", "8", "maximum", "1.5"] {
            assert_eq!(bad.parse::<Level>(), Err(UnknownLevel(bad.to_string())));
        }
    }
}
