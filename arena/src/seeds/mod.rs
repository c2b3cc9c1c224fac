//! The bots of the seed programs (the programs banco grew from), reimplemented faithfully
//! as reference opponents, and the [`Player`]s that put them in a match.
//!
//! Each follows its document in `shared/seeds/`: its scoring tables, its search, its
//! quirks. Where a document leaves a detail out, the module says what was chosen and why
//! (usually: what the code family the document cites does). Modules are named after the
//! program; the number is its document's (`seed:000` still names Console Caro's bot).
//!
//! - [`console_caro`]: Console Caro (C++, 2023; document 000): depth-3 minimax with
//!   alpha-beta over the bounding box, "combo" evaluation.
//! - [`lan_caro`]: LAN Caro (C# WinForms; document 001): one-ply attack + defence score
//!   tables.
//! - [`xiangqi_thesis`]: the Xiangqi thesis' engine (Python/Pygame; document 002):
//!   depth-4 alpha-beta with its piece values and square tables.
//! - [`web_caro`]: Web Caro (JavaScript; document 003): one-ply `MAP_SCORE` tables, random
//!   among equals.
//! - [`alphabeta_caro`]: the Alpha-beta Caro report (C#, an AI course; document 004):
//!   depth-2 alpha-beta over attack/defence scores.

pub mod alphabeta_caro;
pub mod console_caro;
pub mod lan_caro;
pub mod web_caro;
pub mod xiangqi_thesis;

use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use banco_rules::caro::{Board, Game, Point, Stone};
use banco_rules::game::{self, GameSpec, Move};

use crate::player::{Budget, Player, Reply};
use banco_engine::bot::clock_budget;
use xiangqi_thesis::XiangqiThesis;

/// A seed program's caro bot: picks a move for the side to move.
pub trait SeedBot {
    /// `seed:NAME`, the name results are reported under.
    fn name(&self) -> &'static str;
    /// The move for the side to move; `None` only on a full board.
    fn choose(&mut self, game: &Game) -> Option<Point>;
}

/// Every seed bot: its name, then the older names (its document's number) still accepted.
pub const NAMES: [(&str, [&str; 2]); 5] = [
    ("console-caro", ["000", "0"]),
    ("lan-caro", ["001", "1"]),
    ("xiangqi-thesis", ["002", "2"]),
    ("web-caro", ["003", "3"]),
    ("alphabeta-caro", ["004", "4"]),
];

/// The seed bot's name for `name` or one of its aliases (`000` is `console-caro`).
pub fn canonical(name: &str) -> Option<&'static str> {
    NAMES
        .iter()
        .find(|(n, aliases)| *n == name || aliases.contains(&name))
        .map(|(n, _)| *n)
}

/// Whether `name` names the Xiangqi thesis' engine (it is not a [`SeedBot`]: those play
/// caro).
pub fn is_xiangqi(name: &str) -> bool {
    canonical(name) == Some("xiangqi-thesis")
}

/// The caro seed bots by name (or alias); `seed` feeds their random choices.
pub fn by_name(name: &str, seed: u64) -> Option<Box<dyn SeedBot>> {
    match canonical(name)? {
        "console-caro" => Some(Box::new(console_caro::ConsoleCaro::new(seed))),
        "lan-caro" => Some(Box::new(lan_caro::LanCaro)),
        "web-caro" => Some(Box::new(web_caro::WebCaro::new(seed))),
        "alphabeta-caro" => Some(Box::new(alphabeta_caro::AlphabetaCaro)),
        _ => None,
    }
}

/// The player for the seed bot `name` (or alias).
pub fn player(name: &str, seed: u64) -> Result<Box<dyn Player>> {
    if is_xiangqi(name) {
        return Ok(Box::new(XiangqiThesisPlayer {
            engine: XiangqiThesis::new(),
        }));
    }
    let bot = by_name(name, seed).with_context(|| format!("no seed bot {name}"))?;
    Ok(Box::new(SeedPlayer { bot }))
}

/// A seed program's caro bot as a [`Player`].
pub struct SeedPlayer {
    /// The seed program's move picker.
    bot: Box<dyn SeedBot>,
}

impl Player for SeedPlayer {
    fn name(&self) -> String {
        self.bot.name().to_string()
    }

    fn new_game(&mut self, spec: &GameSpec) -> Result<()> {
        match spec {
            GameSpec::Caro { .. } => Ok(()),
            _ => bail!("{} only plays caro", self.bot.name()),
        }
    }

    fn play(&mut self, game: &game::Game, _budget: Option<Duration>) -> Result<Reply> {
        let game::Game::Caro(g) = game else {
            bail!("{} only plays caro", self.bot.name());
        };
        let start = Instant::now();
        let p = self.bot.choose(g).context("no move on a full board")?;
        Ok(Reply::new(Move::Caro(p), start.elapsed()))
    }

    /// The seed bots search to a fixed depth: a clock changes nothing.
    fn play_clock(&mut self, game: &game::Game, _budget: Budget) -> Result<Reply> {
        self.play(game, None)
    }
}

/// The Xiangqi thesis' engine as a [`Player`].
pub struct XiangqiThesisPlayer {
    /// The engine (its table kept from move to move, cleared per game).
    engine: XiangqiThesis,
}

/// How long the Xiangqi thesis' engine searches when the arena gives no time.
const XIANGQI_THESIS_DEFAULT: Duration = Duration::from_secs(1);

impl Player for XiangqiThesisPlayer {
    fn name(&self) -> String {
        "seed:xiangqi-thesis".to_string()
    }

    fn new_game(&mut self, spec: &GameSpec) -> Result<()> {
        match spec {
            GameSpec::Xiangqi { .. } => {
                self.engine.new_game();
                Ok(())
            }
            _ => bail!("seed:xiangqi-thesis only plays xiangqi"),
        }
    }

    fn play(&mut self, game: &game::Game, budget: Option<Duration>) -> Result<Reply> {
        let game::Game::Xiangqi(g) = game else {
            bail!("seed:xiangqi-thesis only plays xiangqi");
        };
        let start = Instant::now();
        let (mv, depth) = self
            .engine
            .choose(g, budget.unwrap_or(XIANGQI_THESIS_DEFAULT))
            .context("no legal move")?;
        Ok(Reply {
            depth: Some(depth),
            ..Reply::new(Move::Xiangqi(mv), start.elapsed())
        })
    }

    /// On a game clock the thesis' engine searches for the slice of it a banco bot
    /// would take ([`clock_budget`]).
    fn play_clock(&mut self, game: &game::Game, budget: Budget) -> Result<Reply> {
        let turn = match budget {
            Budget::Move(turn) => turn,
            Budget::Clock { own, increment, .. } => clock_budget(own, increment, false),
        };
        self.play(game, Some(turn))
    }
}

/// What is on a point, seen from one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Seen {
    Off,
    Empty,
    Mine,
    Theirs,
}

/// The point (x, y) on `board` as `me` sees it.
#[inline]
pub(crate) fn seen(board: &Board, x: i32, y: i32, me: Stone) -> Seen {
    match board.cell(x, y) {
        None => Seen::Off,
        Some(None) => Seen::Empty,
        Some(Some(s)) if s == me => Seen::Mine,
        Some(Some(_)) => Seen::Theirs,
    }
}

/// The first empty point row by row: the last resort of bots whose scan can come up empty.
pub(crate) fn first_empty(board: &Board) -> Option<Point> {
    board.points().find(|p| board.is_empty_at(*p))
}

/// The four line directions as (dx, dy).
pub(crate) const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

#[cfg(test)]
mod tests {
    use super::*;
    use banco_rules::caro::Rule;

    /// Every seed bot blocks a four; those whose documents look for a win take it.
    /// (Alpha-beta Caro's search has no terminal test: facing its own five and the
    /// opponent's four it weighs the five's score against the reply's and may block
    /// instead, as the original would.)
    #[test]
    fn every_seed_bot_sees_the_obvious() {
        for n in ["console-caro", "lan-caro", "web-caro"] {
            // X to move with four in a row and O too: X must complete its five.
            let mut g = Game::new(15, 15, Rule::Caro).unwrap();
            for i in 0..4u8 {
                g.play(Point::new(3 + i, 7)).unwrap();
                g.play(Point::new(3 + i, 9)).unwrap();
            }
            let mut bot = by_name(n, 7).unwrap();
            let p = bot.choose(&g).unwrap();
            let mut g2 = g.clone();
            let out = g2.play(p).unwrap();
            assert!(out.is_some(), "{n} missed the win, played {p}");
        }
        for n in ["console-caro", "lan-caro", "web-caro", "alphabeta-caro"] {
            // O to move facing X's open four on one side: must block at (7,7).
            let mut g = Game::new(15, 15, Rule::Caro).unwrap();
            for (x, y) in [(3, 7), (10, 10), (4, 7), (0, 14), (5, 7), (14, 0)] {
                g.play(Point::new(x, y)).unwrap();
            }
            g.play(Point::new(6, 7)).unwrap(); // X: 3..6 on row 7, open both ends.
            g.play(Point::new(2, 7)).unwrap(); // O blocks the left.
            g.play(Point::new(12, 3)).unwrap(); // X elsewhere; X threatens (7,7).
            let mut bot = by_name(n, 7).unwrap();
            let p = bot.choose(&g).unwrap();
            assert_eq!(p, Point::new(7, 7), "{n} failed to block");
        }
    }
}
