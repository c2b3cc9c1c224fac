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
use banco_rules::caro::Point;
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

/// A player's answer in a Swap2 (or Swap1) opening, in the words of Gomocup's
/// `SWAP2BOARD` extension: the one asked is always the side that would move next, O
/// (White) after three or five stones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SwapReply {
    /// On an empty board: the first three stones, X, O, X.
    Propose([Point; 3]),
    /// After three or five stones: `SWAP`, take X (Black); the other player plays O
    /// and moves next.
    Swap,
    /// After three or five stones: take O and play this stone as O's next move.
    Stay(Point),
    /// After three stones only (Swap2): two more stones, O then X; the proposer then
    /// chooses the colour.
    PlaceTwo([Point; 2]),
}

impl fmt::Display for SwapReply {
    /// As the engine said it: `7,7 8,7 9,9`, `SWAP`, `8,8`, `8,8 8,6`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let points = |f: &mut fmt::Formatter<'_>, ps: &[Point]| {
            let words: Vec<String> = ps.iter().map(Point::to_string).collect();
            write!(f, "{}", words.join(" "))
        };
        match self {
            SwapReply::Propose(ps) => points(f, ps),
            SwapReply::Swap => write!(f, "SWAP"),
            SwapReply::Stay(p) => write!(f, "{p}"),
            SwapReply::PlaceTwo(ps) => points(f, ps),
        }
    }
}

/// Reads an answer to `SWAP2BOARD` given `stones` stones: three points for none; `SWAP`,
/// one point or (after three) two points otherwise. `Err` says what was wrong, in a
/// sentence. Points are only read here: whether they are on the board and free is the
/// opening's business ([`banco_rules::caro::swap::SwapOpening`]).
pub fn parse_swap_reply(stones: usize, line: &str) -> std::result::Result<SwapReply, String> {
    let line = line.trim();
    let expected = match stones {
        0 => "three stones 'x,y x,y x,y'",
        3 => "'SWAP', one stone 'x,y' or two 'x,y x,y'",
        5 => "'SWAP' or one stone 'x,y'",
        n => return Err(format!("a swap opening has no answer after {n} stones")),
    };
    let bad = || format!("answered '{line}' after {stones} stones: expected {expected}");
    if line.eq_ignore_ascii_case("SWAP") {
        return if stones == 0 {
            Err(bad())
        } else {
            Ok(SwapReply::Swap)
        };
    }
    let mut points = Vec::new();
    for word in line.split_whitespace() {
        let (x, y) = word.split_once(',').ok_or_else(bad)?;
        let x: u8 = x.trim().parse().map_err(|_| bad())?;
        let y: u8 = y.trim().parse().map_err(|_| bad())?;
        points.push(Point::new(x, y));
    }
    match (stones, points.as_slice()) {
        (0, &[a, b, c]) => Ok(SwapReply::Propose([a, b, c])),
        (3 | 5, &[p]) => Ok(SwapReply::Stay(p)),
        (3, &[a, b]) => Ok(SwapReply::PlaceTwo([a, b])),
        _ => Err(bad()),
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
    /// The move for the side to move in `game` on a game clock ([`Budget::Clock`]): the
    /// player plans its own time from what is left, as it would in a tournament. Players
    /// that cannot refuse.
    fn play_clock(&mut self, game: &Game, budget: Budget) -> Result<Reply> {
        let _ = (game, budget);
        bail!("{} cannot play on a game clock", self.name())
    }
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
    /// Its answer in a swap opening of the caro game last started with `new_game` (whose
    /// spec had no opening stones): given the `stones` placed so far (none, three or
    /// five, X first), within about `budget`. Players without swap openings refuse.
    fn swap2(&mut self, stones: &[Point], budget: Option<Duration>) -> Result<SwapReply> {
        let _ = (stones, budget);
        bail!("{} does not play swap openings", self.name())
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

    #[test]
    fn swap_answers_are_read_by_the_stones_they_answer() {
        let p = Point::new;
        assert_eq!(
            parse_swap_reply(0, "7,7 8,7 9,9"),
            Ok(SwapReply::Propose([p(7, 7), p(8, 7), p(9, 9)]))
        );
        assert_eq!(parse_swap_reply(3, "swap"), Ok(SwapReply::Swap));
        assert_eq!(parse_swap_reply(5, "SWAP"), Ok(SwapReply::Swap));
        assert_eq!(parse_swap_reply(3, " 8,8 "), Ok(SwapReply::Stay(p(8, 8))));
        assert_eq!(
            parse_swap_reply(3, "8,8 8,6"),
            Ok(SwapReply::PlaceTwo([p(8, 8), p(8, 6)]))
        );
        assert_eq!(parse_swap_reply(5, "6,8"), Ok(SwapReply::Stay(p(6, 8))));
        for (stones, line) in [
            (0, "SWAP"),
            (0, "7,7 8,7"),
            (0, "7,7 8,7 9,9 1,1"),
            (3, "8,8 8,6 1,1"),
            (5, "8,8 8,6"),
            (3, "eight,eight"),
            (3, "-1,2"),
            (3, ""),
            (4, "SWAP"),
        ] {
            let err = parse_swap_reply(stones, line).unwrap_err();
            assert!(
                err.contains("expected") || err.contains("no answer"),
                "{err}"
            );
        }
        assert_eq!(
            SwapReply::PlaceTwo([p(8, 8), p(8, 6)]).to_string(),
            "8,8 8,6"
        );
    }
}
