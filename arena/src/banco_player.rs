//! banco's own engines as a [`Player`]: any level of any game [`GameBot`] plays.

use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use banco_engine::bot::{GameBot, Limits};
use banco_rules::Level;
use banco_rules::game::{Game, GameSpec};

use crate::player::{Eval, Player, Reply};

/// A banco engine at a level.
pub struct BancoPlayer {
    /// The strength asked for.
    level: Level,
    /// Made per game (it depends on the game spec).
    bot: Option<GameBot>,
    /// Nodes per move, when the match counts nodes.
    nodes: Option<u64>,
}

impl BancoPlayer {
    pub fn new(level: Level) -> BancoPlayer {
        BancoPlayer {
            level,
            bot: None,
            nodes: None,
        }
    }
}

impl Player for BancoPlayer {
    fn name(&self) -> String {
        format!("banco:{}", self.level)
    }

    fn new_game(&mut self, spec: &GameSpec) -> Result<()> {
        match &mut self.bot {
            Some(bot) => bot.new_game(),
            None => self.bot = Some(GameBot::new(spec, self.level)),
        }
        Ok(())
    }

    fn nominal_time(&self) -> Option<Duration> {
        self.bot.as_ref().map(GameBot::move_time)
    }

    fn limit_nodes(&mut self, nodes: u64) -> Result<()> {
        self.nodes = Some(nodes);
        Ok(())
    }

    fn play(&mut self, game: &Game, budget: Option<Duration>) -> Result<Reply> {
        let bot = self.bot.as_mut().context("new_game was not called")?;
        // A match's time is per move: what a move does not spend is lost.
        let mut limits = budget.map_or_else(Limits::none, |b| Limits::within(b).spending_all());
        limits.max_nodes = self.nodes;
        let start = Instant::now();
        let thought = bot.think(game, &limits);
        let mv = thought.best.context("the engine found no move")?;
        Ok(Reply {
            mv,
            depth: Some(thought.depth),
            // A move from the opening book (depth 0) has no search behind its score.
            eval: (thought.depth > 0).then(|| eval(game, thought.score)),
            elapsed: start.elapsed(),
        })
    }
}

/// A banco score as an [`Eval`]: mate scores (`±(MATE - plies)` past the engine's mate
/// bound) become the plies to the end.
fn eval(game: &Game, score: i32) -> Eval {
    let (mate, bound) = match game {
        Game::Caro(_) => (banco_engine::caro::MATE, banco_engine::caro::MATE_BOUND),
        Game::Xiangqi(_) => (
            banco_engine::xiangqi::MATE,
            banco_engine::xiangqi::MATE_BOUND,
        ),
    };
    if score >= bound {
        Eval::MateIn(mate - score)
    } else if score <= -bound {
        Eval::MateIn(-(mate + score))
    } else {
        Eval::Units(score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_rules::game::GameSpec;

    #[test]
    fn mate_scores_become_plies() {
        let game = Game::new(&GameSpec::Xiangqi { fen: None }).unwrap();
        let mate = banco_engine::xiangqi::MATE;
        assert_eq!(eval(&game, 35), Eval::Units(35));
        assert_eq!(eval(&game, mate - 3), Eval::MateIn(3));
        assert_eq!(eval(&game, -(mate - 4)), Eval::MateIn(-4));
    }
}
