//! The engine's review of a finished game: asked for with [`crate::ClientMsg::Review`],
//! followed as [`crate::ServerMsg::ReviewProgress`], delivered as
//! [`crate::ServerMsg::Review`].
//!
//! Chances are per mille (0..=1000) of a win, always from the view of the side that moved
//! first (red or X in a game from the usual start), so a graph of them reads one way for
//! the whole game.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::room::{GameId, Move, Seat};

/// How a move compares with what the engine would have played, by the winning chances
/// it gave away (see [`MoveClass::of_loss`] for the thresholds of each game).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MoveClass {
    /// The engine's own choice.
    Best,
    /// Another move that keeps the chances.
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
    /// Caro: a forced win was on the board and this move let it go.
    MissedWin,
    /// Caro: the opponent threatened a forced win and this move did not stop it.
    MissedDefence,
}

/// Win-probability losses (per mille) from which a move counts as an inaccuracy, a
/// mistake and a blunder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Thresholds {
    pub inaccuracy: u16,
    pub mistake: u16,
    pub blunder: u16,
}

impl Thresholds {
    /// Xiangqi: lichess's chess thresholds (10, 20 and 30 points of its -100..100
    /// winning-chances scale are 5%, 10% and 15% of win probability).
    pub const XIANGQI: Thresholds = Thresholds {
        inaccuracy: 50,
        mistake: 100,
        blunder: 150,
    };
    /// Caro: wider, because a caro evaluation swings further between quiet moves (the
    /// threats on the board change with every stone) without anything being lost.
    pub const CARO: Thresholds = Thresholds {
        inaccuracy: 80,
        mistake: 150,
        blunder: 250,
    };
}

impl MoveClass {
    /// The class of a move that was not the engine's and lost `loss` per mille.
    pub fn of_loss(loss: u16, thresholds: Thresholds) -> MoveClass {
        if loss >= thresholds.blunder {
            MoveClass::Blunder
        } else if loss >= thresholds.mistake {
            MoveClass::Mistake
        } else if loss >= thresholds.inaccuracy {
            MoveClass::Inaccuracy
        } else {
            MoveClass::Good
        }
    }

    /// The stable name (as in JSON): `best`, `missed_win`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            MoveClass::Best => "best",
            MoveClass::Good => "good",
            MoveClass::Inaccuracy => "inaccuracy",
            MoveClass::Mistake => "mistake",
            MoveClass::Blunder => "blunder",
            MoveClass::MissedWin => "missed_win",
            MoveClass::MissedDefence => "missed_defence",
        }
    }

    /// A move that lost something worth showing.
    pub fn is_error(self) -> bool {
        !matches!(self, MoveClass::Best | MoveClass::Good)
    }
}

/// One ply as the engine saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ReviewedPly {
    /// The move played.
    pub played: Move,
    pub by: Seat,
    /// The first mover's chances after this move, per mille.
    pub chances: u16,
    /// The engine's score after this move from the first mover's view, in the game's
    /// evaluation units, forced wins shown as ±[`SCORE_CAP`].
    pub score: i32,
    /// What the mover gave away, per mille of winning chances (0 when nothing).
    pub loss: u16,
    pub class: MoveClass,
    /// The engine's move in the position before this one, and the line it expected
    /// (starting with that move). `None` when it found none in its budget.
    pub best: Option<Move>,
    pub line: Vec<Move>,
    /// The engine's answer to the move played: after a blunder, the refutation.
    pub reply: Option<Move>,
}

/// Scores are clipped to this, so a forced win does not flatten a graph of scores.
pub const SCORE_CAP: i32 = 1000;

/// One player's errors over the game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PlayerReview {
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
    /// Caro only.
    pub missed_wins: u32,
    pub missed_defences: u32,
    /// The mean drop of the engine's score over the player's moves, in the game's
    /// evaluation units (like chess's average centipawn loss), scores clipped to
    /// ±[`SCORE_CAP`].
    pub average_loss: u32,
}

/// A whole game reviewed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GameReview {
    pub game: GameId,
    /// The seat that moved first: the one whose chances [`ReviewedPly::chances`] are.
    pub first: Seat,
    /// The first mover's chances before any move, per mille.
    pub start_chances: u16,
    /// By ply, from the first.
    pub plies: Vec<ReviewedPly>,
    /// By seat ([`Seat::index`]).
    pub players: [PlayerReview; 2],
    /// The engine's time per position, in milliseconds, when the review was made.
    pub budget_ms: u32,
}

impl GameReview {
    /// The first mover's chances after `ply` plies (0: the start).
    pub fn chances_after(&self, ply: usize) -> u16 {
        match ply {
            0 => self.start_chances,
            n => self.plies.get(n - 1).map_or(500, |p| p.chances),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn losses_are_classed_at_each_games_thresholds() {
        let xq = Thresholds::XIANGQI;
        assert_eq!(MoveClass::of_loss(0, xq), MoveClass::Good);
        assert_eq!(MoveClass::of_loss(49, xq), MoveClass::Good);
        assert_eq!(MoveClass::of_loss(50, xq), MoveClass::Inaccuracy);
        assert_eq!(MoveClass::of_loss(100, xq), MoveClass::Mistake);
        assert_eq!(MoveClass::of_loss(150, xq), MoveClass::Blunder);
        let caro = Thresholds::CARO;
        assert_eq!(MoveClass::of_loss(100, caro), MoveClass::Inaccuracy);
        assert_eq!(MoveClass::of_loss(200, caro), MoveClass::Mistake);
        assert_eq!(MoveClass::of_loss(250, caro), MoveClass::Blunder);
    }
}
