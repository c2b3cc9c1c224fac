//! A finished game as the arena keeps it: its moves, what the players said of them, how
//! it ended. [`crate::matches`] makes them; the text files and [`crate::pgn`] write them.

use std::time::Duration;

use banco_rules::game::{GameSpec, Move};

use crate::player::Eval;
use crate::stats::Score;

/// What a player said of one of its moves, kept with the game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MoveInfo {
    /// Its score, if it reported one.
    pub eval: Option<Eval>,
    /// Its depth, if it reported one.
    pub depth: Option<u32>,
    /// How long it took.
    pub elapsed: Duration,
}

/// Why a game ended, as PGN's `Termination` tag says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Termination {
    /// The rules ended it (a five, a mate, a full board, a draw rule).
    Normal,
    /// A player made an illegal move.
    RulesInfraction,
    /// A player failed: it did not start, erred, or answered too late.
    Abandoned,
}

impl Termination {
    /// PGN's word for it.
    pub fn name(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::RulesInfraction => "rules infraction",
            Termination::Abandoned => "abandoned",
        }
    }
}

/// One finished game.
#[derive(Debug, Clone)]
pub struct GameRecord {
    /// 1-based; games `2k - 1` and `2k` are pair `k`.
    pub number: usize,
    /// Which player (0 = A, 1 = B) moved first.
    pub first: usize,
    /// The two players' names, A then B.
    pub names: [String; 2],
    /// The opening as written.
    pub opening: String,
    /// Every move, opening included.
    pub moves: Vec<Move>,
    /// How many of `moves` the opening played.
    pub book_plies: usize,
    /// What the players said of each move after the opening, in order.
    pub info: Vec<MoveInfo>,
    /// The winning player, `None` for a draw.
    pub winner: Option<usize>,
    /// Why it ended: `five`, `board_full`, `checkmate`, ..., or what a player did wrong.
    pub reason: String,
    /// The player that lost off the board (failed to start, erred, answered too late or
    /// played an illegal move): such a game says nothing about strength.
    pub forfeit: Option<usize>,
    /// How it ended, in PGN's words.
    pub termination: Termination,
    /// Xiangqi: the start position's FEN.
    pub start_fen: Option<String>,
}

impl GameRecord {
    /// `1-0`, `0-1` or `1/2-1/2`, first side first.
    pub fn result(&self) -> &'static str {
        match self.winner {
            None => "1/2-1/2",
            Some(w) if w == self.first => "1-0",
            Some(_) => "0-1",
        }
    }

    /// Player A's result.
    pub fn score(&self) -> Score {
        match self.winner {
            None => Score::Draw,
            Some(0) => Score::Win,
            Some(_) => Score::Loss,
        }
    }
}

/// `caro 15x15 rule caro`, ...
pub fn describe(spec: &GameSpec) -> String {
    match spec {
        GameSpec::Caro {
            width,
            height,
            rule,
            ..
        } => format!("caro {width}x{height} rule {rule}"),
        GameSpec::Xiangqi { fen } => match fen {
            Some(f) => format!("xiangqi from {f}"),
            None => "xiangqi".to_string(),
        },
    }
}

/// A move as saved: `x,y` for caro.
pub fn move_text(mv: &Move) -> String {
    match mv {
        Move::Caro(p) => p.to_string(),
        Move::Xiangqi(m) => format!("{m:?}"),
    }
}
