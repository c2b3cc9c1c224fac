//! A game's clocks, kept by the server. Pure: every call is told the time (`now`), so the
//! room decides when time passes and the tests can make it pass at will.
//!
//! Two kinds of control ([`TimeControl`]): a per-move timer that refills after every move
//! (the classic caro 20 s), or a bank of time per player with an increment for each move
//! made. At most one seat's time runs: the player to move.

use std::time::Duration;
use tokio::time::Instant;

use banco_protocol::{Clocks, Seat, TimeControl};

/// Both seats' time and which one is running.
#[derive(Debug, Clone)]
pub struct GameClock {
    /// Per-move refill or bank with increment; never [`TimeControl::Unlimited`].
    control: TimeControl,
    /// Time left by seat, as of when each seat's time last stopped.
    left: [Duration; 2],
    /// The seat whose time runs, and since when.
    running: Option<(Seat, Instant)>,
}

impl GameClock {
    /// Fresh clocks for a game, stopped; `None` for an unlimited game.
    pub fn new(control: TimeControl) -> Option<GameClock> {
        let full = full_time(control)?;
        Some(GameClock {
            control,
            left: [full; 2],
            running: None,
        })
    }

    /// Stopped clocks with `left` on each seat (a game carried over a restart).
    pub fn resumed(control: TimeControl, left: [Duration; 2]) -> Option<GameClock> {
        let mut clock = GameClock::new(control)?;
        clock.left = left;
        Some(clock)
    }

    /// Time left for `seat` at `now`, counting the running seat's time down.
    pub fn left(&self, seat: Seat, now: Instant) -> Duration {
        let stored = self.left[seat.index()];
        match self.running {
            Some((s, since)) if s == seat => {
                stored.saturating_sub(now.saturating_duration_since(since))
            }
            _ => stored,
        }
    }

    /// The seat whose time runs.
    pub fn running(&self) -> Option<Seat> {
        self.running.map(|(seat, _)| seat)
    }

    /// When the running seat runs out, if one runs.
    pub fn flag_at(&self) -> Option<Instant> {
        self.running
            .map(|(seat, since)| since + self.left[seat.index()])
    }

    /// Whether the running seat has no time left at `now`.
    pub fn flagged(&self, now: Instant) -> Option<Seat> {
        let seat = self.running()?;
        self.left(seat, now).is_zero().then_some(seat)
    }

    /// Starts `seat`'s time (stopping the other's). A per-move timer starts full.
    pub fn start(&mut self, seat: Seat, now: Instant) {
        self.stop(now);
        if let TimeControl::PerMove { .. } = self.control {
            self.left[seat.index()] = self.full();
        }
        self.running = Some((seat, now));
    }

    /// Stops the running time, charging what was used.
    pub fn stop(&mut self, now: Instant) {
        if let Some((seat, _)) = self.running {
            self.left[seat.index()] = self.left(seat, now);
            self.running = None;
        }
    }

    /// The running seat made a move at `now`: charge its time, credit the increment (or
    /// refill its per-move timer), and start the other seat's time.
    pub fn moved(&mut self, now: Instant) {
        let Some(mover) = self.running() else { return };
        self.stop(now);
        match self.control {
            TimeControl::PerMove { .. } => self.left[mover.index()] = self.full(),
            TimeControl::Clock {
                increment_millis, ..
            } => {
                let banked = &mut self.left[mover.index()];
                *banked = banked.saturating_add(Duration::from_millis(increment_millis));
            }
            TimeControl::Unlimited => {}
        }
        self.start(mover.other(), now);
    }

    /// The running seat acted in a swap opening at `now` (a stone or a decision): as
    /// [`GameClock::moved`], but the time that runs next is `next`'s, which may be the
    /// actor's own again (the proposer places three stones in a row).
    pub fn acted(&mut self, next: Seat, now: Instant) {
        let Some(actor) = self.running() else {
            self.start(next, now);
            return;
        };
        self.moved(now);
        if next == actor {
            self.start(actor, now);
        }
    }

    /// The clocks as the wire shows them at `now`.
    pub fn snapshot(&self, now: Instant) -> Clocks {
        let ms = |seat: Seat| u64::try_from(self.left(seat, now).as_millis()).unwrap_or(u64::MAX);
        Clocks {
            remaining_ms: [ms(Seat::One), ms(Seat::Two)],
            running: self.running(),
        }
    }

    /// A bank a per-move timer refills to, or a game clock starts with.
    /// Berserk: `seat` keeps half of its time (a game clock only; `false` otherwise).
    pub fn halve(&mut self, seat: Seat) -> bool {
        if !matches!(self.control, TimeControl::Clock { .. }) || self.running() == Some(seat) {
            return false;
        }
        self.left[seat.index()] /= 2;
        true
    }

    fn full(&self) -> Duration {
        full_time(self.control).unwrap_or(Duration::ZERO)
    }
}

fn full_time(control: TimeControl) -> Option<Duration> {
    match control {
        TimeControl::Unlimited => None,
        TimeControl::PerMove { millis } => Some(Duration::from_millis(millis)),
        TimeControl::Clock { initial_millis, .. } => Some(Duration::from_millis(initial_millis)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn unlimited_has_no_clock() {
        assert!(GameClock::new(TimeControl::Unlimited).is_none());
    }

    #[test]
    fn per_move_timer_refills_after_each_move() {
        let t0 = Instant::now();
        let mut c = GameClock::new(TimeControl::per_move(secs(20))).unwrap();
        assert_eq!(c.running(), None);
        assert_eq!(c.flag_at(), None);
        c.start(Seat::One, t0);
        assert_eq!(c.left(Seat::One, t0 + secs(5)), secs(15));
        assert_eq!(c.left(Seat::Two, t0 + secs(5)), secs(20));
        c.moved(t0 + secs(5));
        assert_eq!(c.running(), Some(Seat::Two));
        assert_eq!(c.left(Seat::One, t0 + secs(5)), secs(20), "refilled");
        assert_eq!(c.flag_at(), Some(t0 + secs(25)));
        assert_eq!(c.flagged(t0 + secs(24)), None);
        assert_eq!(c.flagged(t0 + secs(25)), Some(Seat::Two));
        assert_eq!(
            c.left(Seat::Two, t0 + secs(99)),
            Duration::ZERO,
            "never negative"
        );
        let snap = c.snapshot(t0 + secs(10));
        assert_eq!(snap.remaining_ms, [20_000, 15_000]);
        assert_eq!(snap.running, Some(Seat::Two));
    }

    #[test]
    fn game_clock_charges_time_and_adds_the_increment() {
        let t0 = Instant::now();
        let mut c = GameClock::new(TimeControl::clock(secs(300), secs(3))).unwrap();
        c.start(Seat::Two, t0);
        c.moved(t0 + secs(10));
        assert_eq!(c.left(Seat::Two, t0 + secs(10)), secs(293));
        assert_eq!(c.running(), Some(Seat::One));
        c.moved(t0 + secs(40));
        assert_eq!(c.left(Seat::One, t0 + secs(40)), secs(273));
        assert_eq!(c.left(Seat::Two, t0 + secs(40)), secs(293));
        assert_eq!(c.flag_at(), Some(t0 + secs(40) + secs(293)));
    }

    #[test]
    fn stopping_freezes_and_restarting_does_not_refund() {
        let t0 = Instant::now();
        let mut c = GameClock::new(TimeControl::clock(secs(60), secs(0))).unwrap();
        c.start(Seat::One, t0);
        c.stop(t0 + secs(7));
        assert_eq!(c.running(), None);
        assert_eq!(c.left(Seat::One, t0 + secs(100)), secs(53));
        assert_eq!(
            c.flagged(t0 + secs(100)),
            None,
            "a stopped clock never flags"
        );
        // Restarting a game clock (after an undo) keeps what was spent.
        c.start(Seat::One, t0 + secs(100));
        assert_eq!(c.left(Seat::One, t0 + secs(103)), secs(50));
        // A per-move timer restarts full.
        let mut p = GameClock::new(TimeControl::per_move(secs(20))).unwrap();
        p.start(Seat::One, t0);
        p.start(Seat::One, t0 + secs(15));
        assert_eq!(p.left(Seat::One, t0 + secs(15)), secs(20));
    }

    #[test]
    fn resumed_clocks_start_stopped_with_what_was_left() {
        let t0 = Instant::now();
        let mut c = GameClock::resumed(TimeControl::clock(secs(300), secs(2)), [secs(40), secs(7)])
            .unwrap();
        assert_eq!(c.running(), None);
        assert_eq!(c.snapshot(t0 + secs(50)).remaining_ms, [40_000, 7_000]);
        c.start(Seat::Two, t0);
        assert_eq!(c.flag_at(), Some(t0 + secs(7)));
        assert!(GameClock::resumed(TimeControl::Unlimited, [secs(1); 2]).is_none());
    }

    #[test]
    fn a_move_without_running_time_changes_nothing() {
        let t0 = Instant::now();
        let mut c = GameClock::new(TimeControl::clock(secs(60), secs(5))).unwrap();
        c.moved(t0);
        assert_eq!(c.running(), None);
        assert_eq!(c.snapshot(t0).remaining_ms, [60_000, 60_000]);
    }
}
