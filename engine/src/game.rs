//! One view over every game banco plays, for code that runs games without caring which
//! (the server's rooms, the arena). Each variant wraps that game's own record; rules stay
//! in the game's module.

use crate::caro;

/// The side that moves first in a game, and the other one. In caro the first side plays X;
/// in xiangqi, whichever colour the start position gives the move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    First,
    Second,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for First, 1 for Second.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// What game to set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameSpec {
    Caro {
        width: u8,
        height: u8,
        rule: caro::Rule,
    },
}

/// A move in one of the games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    Caro(caro::Point),
}

/// Why a game ended by its rules (as opposed to a clock, a resignation or a player
/// leaving, which the caller decides).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// Caro: a winning line.
    Five,
    /// Caro: the board filled with no winning line.
    BoardFull,
    /// Xiangqi: the side to move is in check with no legal move.
    Checkmate,
    /// Xiangqi: the side to move has no legal move but is not in check (it loses).
    Stalemate,
    /// Xiangqi: one side kept checking through a repetition (it loses).
    PerpetualCheck,
    /// Xiangqi: the same position came up a third time without perpetual check.
    Repetition,
    /// Xiangqi: sixty moves by each side without a capture.
    SixtyMoves,
    /// Xiangqi: neither side has a piece that can attack.
    NoMaterial,
}

/// How a game ended by its rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ending {
    /// `None` for a draw.
    pub winner: Option<Side>,
    pub reason: EndReason,
    /// Caro: the winning line's points, for highlighting. Empty otherwise.
    pub line: Vec<caro::Point>,
}

/// A move refused by the rules. The game is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("that move belongs to another game")]
    WrongGame,
    #[error(transparent)]
    Caro(#[from] caro::MoveError),
}

/// A spec that cannot be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error(transparent)]
    CaroSize(#[from] caro::SizeError),
}

/// A game in progress or finished.
#[derive(Debug, Clone)]
pub enum Game {
    Caro(caro::Game),
}

impl Game {
    /// A new game as `spec` describes.
    pub fn new(spec: &GameSpec) -> Result<Game, SpecError> {
        match *spec {
            GameSpec::Caro {
                width,
                height,
                rule,
            } => Ok(Game::Caro(caro::Game::new(
                u32::from(width),
                u32::from(height),
                rule,
            )?)),
        }
    }

    /// Who moves now.
    pub fn to_move(&self) -> Side {
        match self {
            Game::Caro(g) => match g.to_move() {
                caro::Stone::X => Side::First,
                caro::Stone::O => Side::Second,
            },
        }
    }

    /// Plies played so far.
    pub fn plies(&self) -> usize {
        match self {
            Game::Caro(g) => g.moves().len(),
        }
    }

    /// Every move so far, in order.
    pub fn moves(&self) -> Vec<Move> {
        match self {
            Game::Caro(g) => g.moves().iter().map(|p| Move::Caro(*p)).collect(),
        }
    }

    /// Plays `mv` for the side to move; returns how the game ended if this move ended it.
    pub fn play(&mut self, mv: Move) -> Result<Option<Ending>, IllegalMove> {
        match (self, mv) {
            (Game::Caro(g), Move::Caro(p)) => {
                let outcome = g.play(p)?;
                Ok(outcome.map(caro_ending))
            }
        }
    }

    /// Takes back the last move; `None` if there is none.
    pub fn undo(&mut self) -> Option<Move> {
        match self {
            Game::Caro(g) => g.undo().map(Move::Caro),
        }
    }

    /// How the game ended by its rules, if it has.
    pub fn ending(&self) -> Option<Ending> {
        match self {
            Game::Caro(g) => g.outcome().map(caro_ending),
        }
    }
}

fn caro_ending(outcome: caro::Outcome) -> Ending {
    match outcome {
        caro::Outcome::Win { winner, line } => Ending {
            winner: Some(match winner {
                caro::Stone::X => Side::First,
                caro::Stone::O => Side::Second,
            }),
            reason: EndReason::Five,
            line: line.points().collect(),
        },
        caro::Outcome::Draw => Ending {
            winner: None,
            reason: EndReason::BoardFull,
            line: Vec::new(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::caro::{Point, Rule};

    #[test]
    fn caro_through_the_common_view() {
        let spec = GameSpec::Caro {
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
        };
        let mut g = Game::new(&spec).unwrap();
        assert_eq!(g.to_move(), Side::First);
        for i in 0..4 {
            assert_eq!(g.play(Move::Caro(Point::new(i, 0))), Ok(None));
            g.play(Move::Caro(Point::new(i, 1))).unwrap();
        }
        let end = g.play(Move::Caro(Point::new(4, 0))).unwrap().unwrap();
        assert_eq!(end.winner, Some(Side::First));
        assert_eq!(end.reason, EndReason::Five);
        assert_eq!(end.line.len(), 5);
        assert_eq!(g.ending(), Some(end));
        assert_eq!(g.undo(), Some(Move::Caro(Point::new(4, 0))));
        assert_eq!(g.ending(), None);
        assert_eq!(g.plies(), 8);
        assert!(matches!(
            g.play(Move::Caro(Point::new(0, 0))),
            Err(IllegalMove::Caro(caro::MoveError::Occupied(_)))
        ));
        assert!(
            Game::new(&GameSpec::Caro {
                width: 3,
                height: 15,
                rule: Rule::Caro
            })
            .is_err()
        );
    }
}
