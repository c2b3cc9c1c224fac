//! How long a search thinks: the time manager.
//!
//! A search gets a budget (the caller's deadline, capped by the level's nominal time)
//! that it never exceeds: the search checks the hard deadline itself, with a margin for
//! answering. Within the budget the manager decides, after each finished iteration,
//! whether another one is worth its time, as Stockfish does: it plans on a share of the
//! budget (the optimum) and scales the plan up when the best move keeps changing, when
//! the score is falling, when the side to move is in check or under threat, and down
//! when the best move has stood for many iterations. A forced move or a mate found well
//! inside the horizon stops at once. So obvious moves come quickly, and the time goes to
//! the positions where another ply can change the move. Under a per-move limit (see
//! [`Limits::spend_all`]) time saved is lost, not carried over: there is no plan, and
//! the search runs to its hard stop, where a part of an iteration still counts (the
//! caro engine does the same, as Rapfi does with an ample clock).
//!
//! [`Limits::spend_all`]: crate::bot::Limits::spend_all

use std::time::{Duration, Instant};

/// The share of the budget planned for a quiet, settled position.
pub const OPTIMUM_SHARE: f64 = 0.7;

/// What the manager knows about the search so far.
#[derive(Debug, Clone, Copy, Default)]
pub struct Progress {
    /// The iteration just finished.
    pub depth: i32,
    /// Its score, from the side to move.
    pub score: i32,
    /// The score of the iteration before it (equal to `score` at first).
    pub previous_score: i32,
    /// The depth at which the best move last changed.
    pub best_changed_at: i32,
    /// Best-move changes, recent iterations weighing most.
    pub changes: f64,
}

/// A search's time plan.
#[derive(Debug, Clone, Copy)]
pub struct TimeManager {
    /// When the search started.
    start: Instant,
    /// The whole budget: the search stops by then whatever happens.
    budget: Duration,
    /// The planned time before scaling.
    optimum: Duration,
    /// Extra share for a position in check or under threat (1.0: none).
    pressure: f64,
    /// No plan: the budget is the move's alone.
    spend_all: bool,
}

impl TimeManager {
    /// A plan for a search started at `start` that must be done within `budget`;
    /// `share` of it is the plan for a settled position (at most all of it); with
    /// `spend_all`, time saved would be lost, so the whole budget is spent.
    pub fn new(start: Instant, budget: Duration, share: f64, spend_all: bool) -> TimeManager {
        TimeManager {
            start,
            budget,
            optimum: budget.mul_f64(share.clamp(0.05, 1.0)),
            pressure: 1.0,
            spend_all,
        }
    }

    /// The side to move is in check, or the other side threatens to win material: such
    /// positions get more of the budget.
    pub fn under_pressure(&mut self, in_check: bool, threat: bool) {
        self.pressure =
            1.0 + 0.15 * f64::from(u8::from(in_check)) + 0.25 * f64::from(u8::from(threat));
    }

    /// The time the plan allows after the iteration described by `p`.
    pub fn allowed(&self, p: &Progress) -> Duration {
        // A falling score asks for a closer look; a rising one needs less.
        let falling = (f64::from(300 + 8 * (p.previous_score - p.score)) / 300.0).clamp(0.7, 1.6);
        // A best move that has stood for many iterations is unlikely to change.
        let settled = if p.depth - p.best_changed_at > 8 {
            0.7
        } else {
            1.0
        };
        let unstable = 1.0 + 0.9 * p.changes;
        self.optimum
            .mul_f64(falling * settled * unstable * self.pressure)
            .min(self.budget)
    }

    /// Whether to stop after the iteration described by `p`: when the time it allows is
    /// spent. Otherwise the next iteration starts, and runs to the budget if need be (a
    /// part of an iteration still counts when its first move was searched in full).
    /// With `spend_all` never: the search stops itself at the hard deadline.
    pub fn stop_after(&self, p: &Progress, now: Instant) -> bool {
        !self.spend_all && now.saturating_duration_since(self.start) >= self.allowed(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn progress(depth: i32, score: i32, previous: i32, changed_at: i32, changes: f64) -> Progress {
        Progress {
            depth,
            score,
            previous_score: previous,
            best_changed_at: changed_at,
            changes,
        }
    }

    #[test]
    fn settled_positions_save_time_and_unstable_ones_spend_it() {
        let start = Instant::now();
        let tm = TimeManager::new(start, Duration::from_millis(1000), OPTIMUM_SHARE, false);
        let settled = tm.allowed(&progress(14, 30, 30, 2, 0.0));
        let unsure = tm.allowed(&progress(14, 30, 30, 13, 2.0));
        let falling = tm.allowed(&progress(14, -100, 30, 2, 0.0));
        assert!(settled < Duration::from_millis(500), "{settled:?}");
        assert!(unsure > settled && falling > settled);
        // Never more than the budget, however unsure.
        assert_eq!(
            tm.allowed(&progress(14, -900, 30, 14, 10.0)),
            Duration::from_millis(1000)
        );
        // Check and threats ask for more.
        let mut pressed = tm;
        pressed.under_pressure(true, true);
        assert!(pressed.allowed(&progress(14, 30, 30, 2, 0.0)) > settled);
    }

    #[test]
    fn stops_once_most_of_the_allowed_time_is_spent() {
        let start = Instant::now();
        let tm = TimeManager::new(start, Duration::from_millis(1000), OPTIMUM_SHARE, false);
        let p = progress(10, 0, 0, 9, 0.0);
        assert!(!tm.stop_after(&p, start + Duration::from_millis(100)));
        assert!(tm.stop_after(&p, start + Duration::from_millis(999)));
    }

    #[test]
    fn a_per_move_limit_is_spent_to_the_end() {
        let start = Instant::now();
        let settled = progress(14, 30, 30, 2, 0.0);
        let budget = Duration::from_millis(1000);
        let planned = TimeManager::new(start, budget, OPTIMUM_SHARE, false);
        let spent = TimeManager::new(start, budget, OPTIMUM_SHARE, true);
        let late = start + Duration::from_millis(990);
        assert!(planned.stop_after(&settled, late));
        assert!(!spent.stop_after(&settled, late));
    }
}
