//! A finished game as the arena keeps it: its moves, what the players said of them, how
//! it ended. [`crate::matches`] makes them; the text files and [`crate::pgn`] write them.

use std::time::Duration;

use banco_rules::caro::notation::letter_name;
use banco_rules::caro::swap::{Decision, Role, Step, SwapKind};
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
    /// A player's game clock ran out.
    TimeForfeit,
}

impl Termination {
    /// PGN's word for it.
    pub fn name(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::RulesInfraction => "rules infraction",
            Termination::Abandoned => "abandoned",
            Termination::TimeForfeit => "time forfeit",
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
    /// Caro with a swap opening: who proposed and what each player did, the stones
    /// being the first moves of `moves` (`book_plies` of them).
    pub swap: Option<SwapRecord>,
}

/// A swap opening as it was played: who placed which stones and decided what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwapRecord {
    /// Swap1 or Swap2.
    pub kind: SwapKind,
    /// The player (0 = A, 1 = B) who placed the first three stones.
    pub proposer: usize,
    /// Every stone and decision, in order.
    pub steps: Vec<Step>,
}

impl SwapRecord {
    /// The player (0 = A, 1 = B) who acted in `role`.
    pub fn player(&self, role: Role) -> usize {
        match role {
            Role::Proposer => self.proposer,
            Role::Responder => 1 - self.proposer,
        }
    }

    /// The responder's decision after the first three stones.
    pub fn answer(&self) -> Option<Decision> {
        self.steps.iter().find_map(|s| match *s {
            Step::Decided {
                by: Role::Responder,
                decision,
            } => Some(decision),
            _ => None,
        })
    }

    /// The opening in words, with the players' names:
    /// `swap2: A proposed h8 i9 j10; B placed i8 h10; A took O`.
    pub fn text(&self, names: &[String; 2], height: u8) -> String {
        let kind = match self.kind {
            SwapKind::Swap1 => "swap1",
            SwapKind::Swap2 => "swap2",
        };
        let mut parts: Vec<String> = Vec::new();
        let mut stones: Vec<String> = Vec::new();
        let mut placing: Option<Role> = None;
        let flush = |parts: &mut Vec<String>, stones: &mut Vec<String>, by: Option<Role>| {
            if let Some(by) = by
                && !stones.is_empty()
            {
                let verb = if by == Role::Proposer {
                    "proposed"
                } else {
                    "placed"
                };
                parts.push(format!(
                    "{} {verb} {}",
                    names[self.player(by)],
                    stones.join(" ")
                ));
                stones.clear();
            }
        };
        for step in &self.steps {
            match *step {
                Step::Stone { by, point, .. } => {
                    if placing != Some(by) {
                        flush(&mut parts, &mut stones, placing);
                        placing = Some(by);
                    }
                    stones.push(letter_name(point, height).unwrap_or_else(|| point.to_string()));
                }
                Step::Decided { by, decision } => {
                    flush(&mut parts, &mut stones, placing);
                    placing = None;
                    let what = match decision {
                        Decision::TakeO => "took O",
                        Decision::TakeX => "took X",
                        // Its two stones say it.
                        Decision::PlaceTwo => continue,
                    };
                    parts.push(format!("{} {what}", names[self.player(by)]));
                }
            }
        }
        flush(&mut parts, &mut stones, placing);
        format!("{kind}: {}", parts.join("; "))
    }
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
