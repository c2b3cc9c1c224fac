//! How long a move may think: a hard limit it never passes, and a softer target that the
//! search's own state moves up or down between iterations.
//!
//! The hard limit is the budget (the level's time, or the caller's deadline if sooner)
//! less a safety margin. The target starts at a share of the budget and is then scaled:
//! up when the best move keeps changing (the search has not made up its mind) or the
//! score is falling (something went wrong that more depth may fix), and when either side
//! has threats on the board (forcing lines are where depth wins games); down when the best
//! move has stood still for many iterations and the position is quiet. An iteration that
//! would probably not finish before the hard limit is not started. Time saved on easy
//! moves is simply not spent: with a clock that carries it over, it helps later moves.
//! Under a per-move limit nothing carries over, and there is no target: the search runs
//! until its limit, [`SPEND_SHARE`] of the budget, mid-iteration if need be (a partial
//! iteration searches the previous best move first, so what it finds is usable), unless
//! the move is decided sooner (see [`Limits::spend_all`]). Rapfi does the same when its
//! match time is ample.
//!
//! [`Limits::spend_all`]: crate::bot::Limits::spend_all

use std::time::{Duration, Instant};

/// What the iterative deepening loop tells the time manager after an iteration.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// How many iterations ago the best move last changed.
    pub stable_iterations: u32,
    /// Best-move changes seen recently (decaying average over iterations).
    pub best_move_changes: f32,
    /// The score now and one iteration ago (side to move's view).
    pub score: i32,
    pub previous_score: i32,
    /// Whether either side has an open three or a four to play.
    pub threats: bool,
    /// How long the last iteration took.
    pub last_iteration: Duration,
}

/// One move's time.
#[derive(Debug, Clone, Copy)]
pub struct TimeManager {
    /// When the move started.
    start: Instant,
    /// The target before adjustments, from `start`.
    optimum: Duration,
    /// From `start` to the instant the search must stop by.
    maximum: Duration,
    /// No target: the budget is the move's alone.
    spend_all: bool,
}

/// The target's share of the budget before adjustments.
const OPTIMUM_SHARE: f32 = 0.75;
/// The share of the budget a per-move limit's search runs to (the rest is margin for a
/// busy machine: the answer must be in before the limit, whatever the scheduler does).
pub const SPEND_SHARE: f32 = 0.9;
/// How much longer than the last one the next iteration is taken to be.
const BRANCHING: f32 = 1.8;

impl TimeManager {
    /// A manager for a move started at `start` that must end by `hard`; with
    /// `spend_all`, time saved would be lost, so none is.
    pub fn new(start: Instant, hard: Instant, spend_all: bool) -> TimeManager {
        let maximum = hard.saturating_duration_since(start);
        TimeManager {
            start,
            optimum: maximum.mul_f32(OPTIMUM_SHARE),
            maximum,
            spend_all,
        }
    }

    /// Whether to stop after an iteration that left the search in state `p`.
    pub fn should_stop(&self, p: &Progress, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.start);
        if elapsed >= self.maximum {
            return true;
        }
        if self.spend_all {
            // The searcher stops itself at the hard limit.
            return false;
        }
        let instability = 1.0 + 1.5 * p.best_move_changes.min(3.0);
        let stability = 1.0 / (1.0 + 0.06 * p.stable_iterations.saturating_sub(2) as f32);
        let falling = (1.0 + (p.previous_score - p.score) as f32 / 400.0).clamp(0.7, 1.6);
        let threats = if p.threats { 1.25 } else { 0.9 };
        let target = self
            .optimum
            .mul_f32((instability * stability * falling * threats).clamp(0.25, 2.5))
            .min(self.maximum);
        if elapsed >= target {
            return true;
        }
        // The next iteration would likely end past the hard limit: keep the time.
        let next = p.last_iteration.mul_f32(BRANCHING);
        elapsed + next.mul_f32(0.5) >= self.maximum
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn progress() -> Progress {
        Progress {
            stable_iterations: 0,
            best_move_changes: 0.0,
            score: 0,
            previous_score: 0,
            threats: false,
            last_iteration: Duration::from_millis(10),
        }
    }

    #[test]
    fn unsettled_and_sharp_positions_get_more_time_than_quiet_settled_ones() {
        let start = Instant::now();
        let tm = TimeManager::new(start, start + Duration::from_millis(1000), false);
        // The first instant past which the search would stop, in 10 ms steps.
        let stop_at = |p: &Progress| {
            (0..=100)
                .map(|i| start + Duration::from_millis(10 * i))
                .find(|t| tm.should_stop(p, *t))
                .map(|t| t - start)
                .unwrap()
        };
        let quiet = Progress {
            stable_iterations: 8,
            ..progress()
        };
        let unsettled = Progress {
            best_move_changes: 2.0,
            threats: true,
            ..progress()
        };
        let falling = Progress {
            score: -300,
            previous_score: 0,
            ..progress()
        };
        assert!(stop_at(&quiet) < stop_at(&progress()));
        assert!(stop_at(&unsettled) > stop_at(&progress()));
        assert!(stop_at(&falling) > stop_at(&progress()));
        // Never past the hard limit.
        assert!(stop_at(&unsettled) <= Duration::from_millis(1000));
        // An iteration that cannot finish is not started.
        let slow = Progress {
            best_move_changes: 3.0,
            last_iteration: Duration::from_millis(600),
            ..progress()
        };
        assert!(tm.should_stop(&slow, start + Duration::from_millis(500)));
    }

    #[test]
    fn a_per_move_budget_is_spent_to_the_hard_limit() {
        let start = Instant::now();
        let hard = start + Duration::from_millis(1000);
        let quiet = Progress {
            stable_iterations: 12,
            ..progress()
        };
        let saving = TimeManager::new(start, hard, false);
        let spending = TimeManager::new(start, hard, true);
        let at = start + Duration::from_millis(600);
        assert!(saving.should_stop(&quiet, at), "a settled move stops early");
        assert!(
            !spending.should_stop(&quiet, at),
            "not when the time is lost anyway"
        );
        let slow = Progress {
            last_iteration: Duration::from_millis(500),
            ..quiet
        };
        assert!(
            saving.should_stop(&slow, at),
            "an iteration that would not finish"
        );
        assert!(
            !spending.should_stop(&slow, at),
            "is started all the same: its first moves are worth having"
        );
        assert!(spending.should_stop(&quiet, hard));
    }
}
