//! The `ended:` date of a record as a wall clock reads it (`2025-05-01 19:42`), with no
//! time zone: the file says "local time", and which zone that was is known only to
//! whoever reads or writes it. Callers turn a [`WallTime`] into an instant with their
//! own zone (the terminal client its machine's; the server the zone the page gives).

use std::fmt;

/// A wall-clock reading: milliseconds since 1970-01-01 00:00 on the same wall clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WallTime(pub i64);

const MS_PER_MINUTE: i64 = 60_000;
const MS_PER_DAY: i64 = 86_400_000;

impl WallTime {
    /// Reads `2025-05-01 19:42`, `2025-05-01 19:42:05` or `2025-05-01` (midnight).
    pub fn parse(text: &str) -> Option<WallTime> {
        let text = text.trim();
        let (date, time) = match text.split_once(' ') {
            Some((d, t)) => (d, Some(t.trim())),
            None => (text, None),
        };
        let mut ymd = date.split('-');
        let year: i64 = number(ymd.next()?, 4)?;
        let month: i64 = number(ymd.next()?, 2)?;
        let day: i64 = number(ymd.next()?, 2)?;
        if ymd.next().is_some() || !(1..=12).contains(&month) {
            return None;
        }
        if day < 1 || day > days_in_month(year, month) {
            return None;
        }
        let (hour, minute, second) = match time {
            None => (0, 0, 0),
            Some(t) => {
                let mut hms = t.split(':');
                let h = number(hms.next()?, 2)?;
                let m = number(hms.next()?, 2)?;
                let s = match hms.next() {
                    Some(s) => number(s, 2)?,
                    None => 0,
                };
                if hms.next().is_some() || h > 23 || m > 59 || s > 59 {
                    return None;
                }
                (h, m, s)
            }
        };
        let days = days_from_civil(year, month, day);
        Some(WallTime(
            days * MS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000,
        ))
    }

    /// `(year, month, day, hour, minute)`.
    fn parts(self) -> (i64, i64, i64, i64, i64) {
        let days = self.0.div_euclid(MS_PER_DAY);
        let minutes = self.0.rem_euclid(MS_PER_DAY) / MS_PER_MINUTE;
        let (y, m, d) = civil_from_days(days);
        (y, m, d, minutes / 60, minutes % 60)
    }

    /// `20250501-1942`, for file names.
    pub fn compact(self) -> String {
        let (y, m, d, h, min) = self.parts();
        format!("{y:04}{m:02}{d:02}-{h:02}{min:02}")
    }
}

impl fmt::Display for WallTime {
    /// `2025-05-01 19:42`: the form a record file writes (seconds are not kept).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d, h, min) = self.parts();
        write!(f, "{y:04}-{m:02}-{d:02} {h:02}:{min:02}")
    }
}

/// Up to `digits` ASCII digits (at least one) as a number.
fn number(text: &str, digits: usize) -> Option<i64> {
    if text.is_empty() || text.len() > digits || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date `days` after 1970-01-01: the inverse of [`days_from_civil`].
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_and_print_as_a_wall_clock_shows_them() {
        let t = WallTime::parse("2025-05-01 19:42").unwrap();
        // 2025-05-01T19:42:00 as if it were UTC.
        assert_eq!(t.0, 1_746_128_520_000);
        assert_eq!(t.to_string(), "2025-05-01 19:42");
        assert_eq!(t.compact(), "20250501-1942");
        assert_eq!(WallTime::parse("1970-01-01"), Some(WallTime(0)));
        assert_eq!(
            WallTime::parse("2024-02-29 23:59:59").map(|t| t.to_string()),
            Some("2024-02-29 23:59".into())
        );
        assert_eq!(WallTime(-1).to_string(), "1969-12-31 23:59");
        for bad in [
            "yesterday",
            "2025-13-01",
            "2023-02-29",
            "2025-05-01 24:00",
            "2025-05-01 19:42:60",
            "2025-5",
            "",
            "20255-01-01",
            "2025-05-01 19",
        ] {
            assert_eq!(WallTime::parse(bad), None, "{bad}");
        }
        // Every day of four centuries prints and reads back.
        for days in (-146_097..146_097).step_by(7) {
            let t = WallTime(days * MS_PER_DAY + 13 * 3_600_000 + 5 * 60_000);
            assert_eq!(WallTime::parse(&t.to_string()), Some(t), "{t}");
        }
    }
}
