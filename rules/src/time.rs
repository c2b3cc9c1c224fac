//! Time controls: how a game's clocks are set, and how people write them (`none`,
//! `20s/move`, `5m+3s`) on command lines, in forms and in record files. Keeping the time
//! is the server's; what a time control is and how it reads is shared by everyone.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// How time is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TimeControl {
    /// No clocks.
    Unlimited,
    /// Each move must be made within this time (the classic caro 20 s); it resets every move.
    PerMove { millis: u64 },
    /// Each player has a bank of time for the whole game, plus an increment per move made.
    Clock {
        initial_millis: u64,
        increment_millis: u64,
    },
}

impl TimeControl {
    pub fn per_move(d: Duration) -> TimeControl {
        TimeControl::PerMove {
            millis: d.as_millis() as u64,
        }
    }

    pub fn clock(initial: Duration, increment: Duration) -> TimeControl {
        TimeControl::Clock {
            initial_millis: initial.as_millis() as u64,
            increment_millis: increment.as_millis() as u64,
        }
    }
}

impl fmt::Display for TimeControl {
    /// `none`, `20s`, `5m+3s`: the same form [`TimeControl::from_str`] reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Unlimited => f.write_str("none"),
            TimeControl::PerMove { millis } => write!(f, "{}/move", duration_text(millis)),
            TimeControl::Clock {
                initial_millis,
                increment_millis,
            } => {
                write!(
                    f,
                    "{}+{}",
                    duration_text(initial_millis),
                    duration_text(increment_millis)
                )
            }
        }
    }
}

/// `90s` -> "1m30s", `20000` -> "20s", `0` -> "0s".
fn duration_text(millis: u64) -> String {
    let secs = millis / 1000;
    let ms = millis % 1000;
    let (h, m, s) = (secs / 3600, (secs / 60) % 60, secs % 60);
    let mut out = String::new();
    if h > 0 {
        out += &format!("{h}h");
    }
    if m > 0 {
        out += &format!("{m}m");
    }
    if ms > 0 {
        let fraction = format!("{ms:03}");
        out += &format!("{s}.{}s", fraction.trim_end_matches('0'));
    } else if s > 0 || out.is_empty() {
        out += &format!("{s}s");
    }
    out
}

/// Text that is not a time control.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a time: write e.g. 20s, 90s, 5m, 1m30s or 5m+3s")]
pub struct TimeError(pub String);

/// Reads `20s`, `5m`, `1m30s`, `1h`, `1.5s`, or a bare number of seconds.
pub fn parse_duration(text: &str) -> Result<Duration, TimeError> {
    let t = text.trim();
    let err = || TimeError(text.to_string());
    if t.is_empty() {
        return Err(err());
    }
    if let Ok(secs) = t.parse::<u64>() {
        return Ok(Duration::from_secs(secs));
    }
    let mut total = 0.0f64;
    let mut number = String::new();
    for c in t.chars() {
        if c.is_ascii_digit() || c == '.' {
            number.push(c);
            continue;
        }
        let unit = match c {
            'h' => 3600.0,
            'm' => 60.0,
            's' => 1.0,
            _ => return Err(err()),
        };
        let n: f64 = number.parse().map_err(|_| err())?;
        total += n * unit;
        number.clear();
    }
    if !number.is_empty() || !total.is_finite() || total > 86_400.0 * 7.0 {
        return Err(err());
    }
    Ok(Duration::from_millis((total * 1000.0).round() as u64))
}

impl FromStr for TimeControl {
    type Err = TimeError;

    /// `none`, `20s` or `20s/move` (per move), `5m+3s` (clock with increment).
    fn from_str(s: &str) -> Result<TimeControl, TimeError> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("none") || t.eq_ignore_ascii_case("unlimited") {
            return Ok(TimeControl::Unlimited);
        }
        if let Some((base, inc)) = t.split_once('+') {
            return Ok(TimeControl::clock(
                parse_duration(base)?,
                parse_duration(inc)?,
            ));
        }
        let per = t.strip_suffix("/move").unwrap_or(t);
        Ok(TimeControl::per_move(parse_duration(per)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_and_print() {
        assert_eq!("20s".parse(), Ok(TimeControl::PerMove { millis: 20_000 }));
        assert_eq!(
            "20s/move".parse(),
            Ok(TimeControl::PerMove { millis: 20_000 })
        );
        assert_eq!(
            "5m+3s".parse(),
            Ok(TimeControl::Clock {
                initial_millis: 300_000,
                increment_millis: 3_000
            })
        );
        assert_eq!("none".parse(), Ok(TimeControl::Unlimited));
        assert_eq!("1m30s".parse(), Ok(TimeControl::PerMove { millis: 90_000 }));
        assert_eq!("1.5s".parse(), Ok(TimeControl::PerMove { millis: 1_500 }));
        assert_eq!("45".parse(), Ok(TimeControl::PerMove { millis: 45_000 }));
        for bad in ["", "5x", "m", "5m+", "+3s", "1e9h", "s5"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad:?} accepted");
        }
        assert_eq!(
            TimeControl::PerMove { millis: 20_000 }.to_string(),
            "20s/move"
        );
        assert_eq!(
            TimeControl::Clock {
                initial_millis: 300_000,
                increment_millis: 3_000
            }
            .to_string(),
            "5m+3s"
        );
        assert_eq!(
            TimeControl::PerMove { millis: 90_000 }.to_string(),
            "1m30s/move"
        );
        assert_eq!(
            TimeControl::PerMove { millis: 1_500 }.to_string(),
            "1.5s/move"
        );
        assert_eq!(
            TimeControl::Clock {
                initial_millis: 60_000,
                increment_millis: 0
            }
            .to_string(),
            "1m+0s"
        );
    }
}
