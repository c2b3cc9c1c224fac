//! The one interface engines are played through: a [`Player`] is anything that can be
//! asked for a move in a [`Game`], and a [`Reply`] is its answer.
//!
//! This module imports nothing else of the crate: every kind of player depends on it.
//! The kinds: here, an external engine over a text protocol (Gomocup for caro,
//! [`crate::gomocup::GomocupEngine`]; UCI for xiangqi, [`crate::uci::UciEngine`]); in
//! banco-arena, a banco level and the seed programs' bots, and the factory that builds
//! any of them from its command-line name.

use std::fmt;
use std::time::Duration;

use anyhow::{Result, bail};
use banco_rules::game::{Game, GameSpec, Move};

/// A player's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// The move.
    pub mv: Move,
    /// How deep it searched, if it says.
    pub depth: Option<u32>,
    /// What it thinks of the position after its search, if it says: kept with the game
    /// (the PGN's move comments) for later tuning.
    pub eval: Option<Eval>,
    /// Wall time from the question to the answer.
    pub elapsed: Duration,
}

impl Reply {
    /// A move with nothing said about it but how long it took.
    pub fn new(mv: Move, elapsed: Duration) -> Reply {
        Reply {
            mv,
            depth: None,
            eval: None,
            elapsed,
        }
    }
}

/// A score an engine reports, from the mover's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eval {
    /// In the engine's own units: centipawns for xiangqi engines, evaluation units for
    /// caro ones.
    Units(i32),
    /// A forced result in this many plies: positive when the mover wins, negative when
    /// it loses.
    MateIn(i32),
}

impl fmt::Display for Eval {
    /// `+35`, `-120`; `+M7` for a win in 7 plies, `-M4` for a loss in 4.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Eval::Units(u) => write!(f, "{u:+}"),
            Eval::MateIn(p) if p < 0 => write!(f, "-M{}", -p),
            Eval::MateIn(p) => write!(f, "+M{p}"),
        }
    }
}

/// The time an engine is given for a move, the way a server's room runs its clock
/// (`banco bot`); the arena's matches give a plain per-move budget instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// This long for this move (a per-move timer, or no clock at all).
    Move(Duration),
    /// A game clock: what is left on the mover's clock and the opponent's, the increment
    /// added after each move, and what each clock started with.
    Clock {
        /// The mover's time left.
        own: Duration,
        /// The opponent's time left (UCI engines plan with both).
        other: Duration,
        /// Added to a clock after each of its moves.
        increment: Duration,
        /// Each clock's time at the start of the game (Gomocup's `timeout_match`).
        initial: Duration,
    },
}

impl Budget {
    /// How long the mover may take at the most: past this the game is lost on time.
    pub fn most(&self) -> Duration {
        match *self {
            Budget::Move(d) => d,
            Budget::Clock { own, .. } => own,
        }
    }
}

/// Something that plays games.
pub trait Player {
    /// The name results are reported under.
    fn name(&self) -> String;
    /// A game like `spec` starts (from its start position; the opening moves follow in
    /// the first `play` call's game).
    fn new_game(&mut self, spec: &GameSpec) -> Result<()>;
    /// The move for the side to move in `game`, within about `budget` if one is set.
    fn play(&mut self, game: &Game, budget: Option<Duration>) -> Result<Reply>;
    /// The time per move the player means to use on its own, if it has one (a banco
    /// level's budget): overruns are measured against it.
    fn nominal_time(&self) -> Option<Duration> {
        None
    }
    /// Plays every later move to about `nodes` nodes instead of (or besides) the clock:
    /// matches between engine builds that a busy machine cannot skew. Players that cannot
    /// count nodes refuse.
    fn limit_nodes(&mut self, nodes: u64) -> Result<()> {
        let _ = nodes;
        bail!("{} cannot play to a node count", self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evals_read_as_engines_write_them() {
        assert_eq!(Eval::Units(35).to_string(), "+35");
        assert_eq!(Eval::Units(-120).to_string(), "-120");
        assert_eq!(Eval::Units(0).to_string(), "+0");
        assert_eq!(Eval::MateIn(7).to_string(), "+M7");
        assert_eq!(Eval::MateIn(-4).to_string(), "-M4");
    }
}
