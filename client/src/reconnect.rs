//! Getting back to the server after a lost connection, the same in both front ends:
//! the first try at once, then after pauses of 1, 2, 4 and 8 seconds and every 10
//! seconds after that, for [`RECONNECT_FOR`]; and where the client goes back to.

use banco_protocol::RoomId;
use std::time::Duration;

/// How long to keep trying. Well past a seat's grace period on a default server (30 s):
/// a server that stopped may be coming back, and it holds the seats of its games for
/// five minutes after a restart.
pub const RECONNECT_FOR: Duration = Duration::from_secs(120);

/// The pause after the first failed try; each failure doubles it, up to [`LONGEST_PAUSE`].
pub const FIRST_PAUSE: Duration = Duration::from_secs(1);

/// The longest pause between two tries.
pub const LONGEST_PAUSE: Duration = Duration::from_secs(10);

/// The pause before the next try, after `failures` tries have failed (at least one).
pub fn pause_after(failures: u32) -> Duration {
    let doublings = failures.saturating_sub(1).min(16);
    FIRST_PAUSE
        .saturating_mul(1 << doublings)
        .min(LONGEST_PAUSE)
}

/// Where a client goes once it is back on the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Return {
    /// The lobby it was in.
    Lobby,
    /// Its seat in this room: the server seats it again when it presents its token.
    Seat(RoomId),
    /// This room, watching: it asks to watch it again.
    Watch(RoomId),
    /// Where it is (the full-screen client's leaderboard, history or replay screens).
    Stay,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pause_doubles_up_to_ten_seconds() {
        let secs: Vec<u64> = (1..=8).map(|n| pause_after(n).as_secs()).collect();
        assert_eq!(secs, [1, 2, 4, 8, 10, 10, 10, 10]);
        assert_eq!(pause_after(0), FIRST_PAUSE);
        assert_eq!(pause_after(u32::MAX), LONGEST_PAUSE);
        // Within the time it keeps trying, a server that comes back is found within
        // the longest pause; and there are enough tries to be worth the wait.
        let mut spent = Duration::ZERO;
        let mut tries = 1;
        while spent < RECONNECT_FOR {
            spent += pause_after(tries);
            tries += 1;
        }
        assert!(tries >= 12, "{tries} tries in {RECONNECT_FOR:?}");
    }
}
