//! Clocks that keep running between the server's updates.
//!
//! The server owns time: each [`Clocks`] it sends is true at the moment it was sent. The
//! client only counts the running side down from there so the display moves every
//! second; the next update from the server replaces the guess.

use banco_protocol::{Clocks, Seat, TimeControl};
use std::time::{Duration, Instant};

/// The last clocks the server sent, and when they arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LiveClocks {
    /// As the server sent them.
    pub clocks: Clocks,
    /// When they arrived: the running side has lost the time since.
    pub at: Instant,
}

impl LiveClocks {
    pub fn new(clocks: Clocks, at: Instant) -> LiveClocks {
        LiveClocks { clocks, at }
    }

    /// Time left for `seat` at `now`.
    pub fn remaining(&self, seat: Seat, now: Instant) -> Duration {
        let left = Duration::from_millis(self.clocks.remaining_ms[seat.index()]);
        if self.clocks.running == Some(seat) {
            left.saturating_sub(now.saturating_duration_since(self.at))
        } else {
            left
        }
    }

    /// The same clocks, stopped where they stand at `now` (the game ended).
    pub fn stopped(&self, now: Instant) -> LiveClocks {
        let mut clocks = self.clocks;
        for seat in Seat::BOTH {
            clocks.remaining_ms[seat.index()] = self.remaining(seat, now).as_millis() as u64;
        }
        clocks.running = None;
        LiveClocks { clocks, at: now }
    }
}

/// `m:ss`, or `h:mm:ss` past an hour; under ten seconds with tenths (`9.4`) so the
/// last moments are readable.
pub fn clock_text(left: Duration) -> String {
    let ms = left.as_millis() as u64;
    if ms < 10_000 {
        return format!("{}.{}", ms / 1000, (ms % 1000) / 100);
    }
    let secs = ms.div_ceil(1000);
    let (h, m, s) = (secs / 3600, (secs / 60) % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

/// A time control in a few characters for tables: `none`, `20s`, `5m+3s`.
pub fn time_control_text(tc: &TimeControl) -> String {
    match tc {
        TimeControl::PerMove { .. } => tc.to_string().trim_end_matches("/move").to_string(),
        _ => tc.to_string(),
    }
}

/// A chat line's time of day in the local time zone, `14:03`.
pub fn chat_time(at_ms: u64) -> String {
    use chrono::{Local, TimeZone};
    match Local.timestamp_millis_opt(at_ms as i64) {
        chrono::LocalResult::Single(t) | chrono::LocalResult::Ambiguous(t, _) => {
            t.format("%H:%M").to_string()
        }
        chrono::LocalResult::None => "--:--".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_running_side_counts_down() {
        let t0 = Instant::now();
        let live = LiveClocks::new(
            Clocks {
                remaining_ms: [20_000, 15_000],
                running: Some(Seat::One),
            },
            t0,
        );
        let t1 = t0 + Duration::from_millis(4_500);
        assert_eq!(live.remaining(Seat::One, t1), Duration::from_millis(15_500));
        assert_eq!(live.remaining(Seat::Two, t1), Duration::from_millis(15_000));
        assert_eq!(
            live.remaining(Seat::One, t0 + Duration::from_secs(60)),
            Duration::ZERO
        );
        let stopped = live.stopped(t1);
        assert_eq!(stopped.clocks.running, None);
        assert_eq!(
            stopped.remaining(Seat::One, t1 + Duration::from_secs(5)),
            Duration::from_millis(15_500)
        );
    }

    #[test]
    fn clock_text_reads_well() {
        assert_eq!(clock_text(Duration::from_secs(300)), "5:00");
        assert_eq!(clock_text(Duration::from_millis(19_001)), "0:20");
        assert_eq!(clock_text(Duration::from_millis(9_450)), "9.4");
        assert_eq!(clock_text(Duration::ZERO), "0.0");
        assert_eq!(clock_text(Duration::from_secs(3_725)), "1:02:05");
        assert_eq!(
            time_control_text(&TimeControl::PerMove { millis: 20_000 }),
            "20s"
        );
        assert_eq!(time_control_text(&TimeControl::Unlimited), "none");
    }
}
