//! The one interface every banco engine implements, whatever the game.
//!
//! A caller hands a bot a position and [`Limits`] (a deadline, a depth or node cap, and a
//! [`Cancel`] flag it may raise at any time from any thread) and gets back a [`Thought`]:
//! the move, its score, how deep the search went and how many nodes it visited.
//! [`Level`]s are not separate code paths: each engine maps a level to limits and, for the
//! easy levels, a measured dose of imprecision.
//!
//! [`GameBot`] is the game-agnostic bot that server seats and tools drive: one enum over
//! each game's engine.

mod game_bot;

pub use game_bot::GameBot;

use banco_rules::level::Level;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A flag the caller raises to stop a search early. Cheap to clone; every clone sees the
/// same flag. A cancelled search still returns its best move so far (if it has one).
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Asks the search to stop as soon as it can.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// What a search may spend. Every cap that is set applies; the first one reached stops it.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Stop by this instant (the engine keeps a safety margin for returning its answer).
    pub deadline: Option<Instant>,
    /// Do not search deeper than this many plies (iterations of deepening).
    pub max_depth: Option<u32>,
    /// Stop after visiting about this many nodes.
    pub max_nodes: Option<u64>,
    /// Raised by the caller when the answer is no longer wanted.
    pub cancel: Cancel,
    /// The budget is one move's alone (a per-move time limit): what is not spent now is
    /// not there later, so the search goes on until the budget is spent or the move is
    /// decided. Without it (a game clock, or a person waiting) the time manager stops once
    /// the best move looks settled. Both engines heed it.
    pub spend_all: bool,
}

impl Limits {
    /// No limits at all but the cancel flag: the engine's level decides.
    pub fn none() -> Limits {
        Limits::default()
    }

    /// A deadline `budget` from now.
    pub fn within(budget: Duration) -> Limits {
        Limits {
            deadline: Some(Instant::now() + budget),
            ..Limits::default()
        }
    }

    /// Adds a depth cap.
    pub fn depth(mut self, depth: u32) -> Limits {
        self.max_depth = Some(depth);
        self
    }

    /// Adds a node cap.
    pub fn nodes(mut self, nodes: u64) -> Limits {
        self.max_nodes = Some(nodes);
        self
    }

    /// Spends the whole budget (see [`Limits::spend_all`]).
    pub fn spending_all(mut self) -> Limits {
        self.spend_all = true;
        self
    }

    /// Uses `cancel` as the cancel flag.
    pub fn with_cancel(mut self, cancel: Cancel) -> Limits {
        self.cancel = cancel;
        self
    }

    /// The earlier of this deadline and `now + budget`.
    pub fn tighten(mut self, budget: Duration) -> Limits {
        let cap = Instant::now() + budget;
        self.deadline = Some(self.deadline.map_or(cap, |d| d.min(cap)));
        self
    }
}

/// A bot's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Thought<M> {
    /// The move to play; `None` only when the position has no legal move (or is over).
    pub best: Option<M>,
    /// The score from the mover's point of view, in the engine's units; mate scores are
    /// `±(MATE - plies)` in each engine's own `MATE` scale.
    pub score: i32,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// The principal variation, starting with `best`.
    pub pv: Vec<M>,
    /// Wall time spent thinking.
    pub elapsed: Duration,
}

/// A game-playing engine. `think` must honour every limit and always return promptly
/// after the deadline or cancellation; it keeps whatever it learned (hash tables, history)
/// for the next call until [`Bot::new_game`].
pub trait Bot {
    /// The position the bot reads.
    type Position;
    /// The move it answers with.
    type Move;

    /// Finds a move for the side to move in `position`.
    fn think(&mut self, position: &Self::Position, limits: &Limits) -> Thought<Self::Move>;

    /// Forgets what it learned from previous positions (a new game is starting).
    fn new_game(&mut self) {}
}

/// Budget for a search when the mover has `left` on its clock: a slice of the bank (or
/// most of a per-move timer), always leaving a margin to send the move back. With an
/// increment a twentieth of the bank and most of the increment; without one (sudden
/// death) a thirtieth, because a long xiangqi game (a hundred moves and more before the
/// sixty-move rule) on a twentieth ended 1+0 games with 0.15 s left.
pub fn clock_budget(left: Duration, increment: Duration, per_move: bool) -> Duration {
    let margin = (left / 10).max(Duration::from_millis(150));
    let usable = left.saturating_sub(margin);
    if per_move {
        usable
    } else if increment.is_zero() {
        (left / 30).min(usable)
    } else {
        (left / 20 + increment * 3 / 4).min(usable)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_leave_a_margin() {
        let s = Duration::from_secs;
        assert_eq!(clock_budget(s(20), s(0), true), s(18));
        assert_eq!(
            clock_budget(s(300), s(3), false),
            s(15) + Duration::from_millis(2250)
        );
        assert!(clock_budget(Duration::from_millis(100), s(0), true).is_zero());
        assert!(clock_budget(s(2), s(10), false) < s(2));
        // Sudden death plans on thirty more moves; an increment on twenty and the increment.
        assert_eq!(clock_budget(s(60), s(0), false), s(2));
        assert_eq!(
            clock_budget(s(60), s(1), false),
            s(3) + Duration::from_millis(750)
        );
    }

    #[test]
    fn level_names_round_trip() {
        for l in Level::ALL {
            assert_eq!(l.name().parse::<Level>(), Ok(l));
        }
        assert!("grandmaster".parse::<Level>().is_err());
    }

    #[test]
    fn cancel_is_shared_between_clones() {
        let c = Cancel::new();
        let limits = Limits::none().with_cancel(c.clone());
        assert!(!limits.cancel.is_cancelled());
        c.cancel();
        assert!(limits.cancel.is_cancelled());
    }

    #[test]
    fn tighten_keeps_the_earlier_deadline() {
        let far = Limits::within(Duration::from_secs(60));
        let near = far.clone().tighten(Duration::from_millis(10));
        assert!(near.deadline < far.deadline);
        let again = near.clone().tighten(Duration::from_secs(100));
        assert_eq!(again.deadline, near.deadline);
    }
}
