//! banco's own engines as a [`Player`]: any level of any game [`GameBot`] plays.
//!
//! Swap openings are answered by `pbrain-banco`'s own code: a [`Brain`] (the Gomocup
//! engine side) is asked `SWAP2BOARD` in-process, so a match against `banco:LEVEL` and
//! one against the `pbrain-banco` binary decide the opening alike.

use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use banco_engine::bot::{GameBot, Limits, clock_budget};
use banco_rules::Level;
use banco_rules::caro::Point;
use banco_rules::game::{Game, GameSpec};

use crate::gomocup::Brain;
use crate::gomocup::manager::rule_number;
use crate::player::{Budget, Eval, Player, Reply, SwapReply, parse_swap_reply};

/// A banco engine at a level.
pub struct BancoPlayer {
    /// The strength asked for.
    level: Level,
    /// Made per game (it depends on the game spec).
    bot: Option<GameBot>,
    /// Nodes per move, when the match counts nodes.
    nodes: Option<u64>,
    /// The game last started, for the swap opening's board and rule.
    spec: Option<GameSpec>,
    /// pbrain-banco's engine side, made at the first swap opening and kept (its hash
    /// table is allocated once).
    brain: Option<Brain>,
}

impl BancoPlayer {
    pub fn new(level: Level) -> BancoPlayer {
        BancoPlayer {
            level,
            bot: None,
            nodes: None,
            spec: None,
            brain: None,
        }
    }
}

impl Player for BancoPlayer {
    fn name(&self) -> String {
        format!("banco:{}", self.level)
    }

    fn new_game(&mut self, spec: &GameSpec) -> Result<()> {
        self.spec = Some(spec.clone());
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

    fn swap2(&mut self, stones: &[Point], budget: Option<Duration>) -> Result<SwapReply> {
        let Some(GameSpec::Caro {
            width,
            height,
            rule,
            ..
        }) = self.spec
        else {
            bail!("{} plays swap openings in caro only", self.name());
        };
        let (level, nodes) = (self.level, self.nodes);
        let brain = self
            .brain
            .get_or_insert_with(|| Brain::new(level).with_node_limit(nodes));
        let mut lines = vec![
            format!("RECTSTART {width},{height}"),
            format!("INFO rule {}", rule_number(rule)),
        ];
        if let Some(turn) = budget {
            lines.push(format!("INFO timeout_turn {}", turn.as_millis()));
        }
        lines.push("SWAP2BOARD".into());
        lines.extend(stones.iter().map(Point::to_string));
        lines.push("DONE".into());
        let mut answer = None;
        for line in &lines {
            for out in brain.handle(line) {
                let word = out.split_whitespace().next().unwrap_or("");
                match word {
                    "OK" | "MESSAGE" => {}
                    "ERROR" | "UNKNOWN" => bail!("{} said: {out}", self.name()),
                    _ => answer = Some(out),
                }
            }
        }
        let answer = answer.context("the swap opening got no answer")?;
        parse_swap_reply(stones.len(), &answer).map_err(|e| anyhow!("{} {e}", self.name()))
    }

    fn play(&mut self, game: &Game, budget: Option<Duration>) -> Result<Reply> {
        // A match's time is per move: what a move does not spend is lost.
        let limits = budget.map_or_else(Limits::none, |b| Limits::within(b).spending_all());
        self.think(game, limits)
    }

    /// On a game clock the bot plans as the server's bot seat does: a slice of what is
    /// left ([`clock_budget`]), its level's own time at the most, and the time manager
    /// may stop sooner in a settled position.
    fn play_clock(&mut self, game: &Game, budget: Budget) -> Result<Reply> {
        let limits = match budget {
            Budget::Move(turn) => Limits::within(turn).spending_all(),
            Budget::Clock { own, increment, .. } => {
                Limits::none().tighten(clock_budget(own, increment, false))
            }
        };
        self.think(game, limits)
    }
}

impl BancoPlayer {
    /// Thinks under `limits` (and the match's node limit, if any).
    fn think(&mut self, game: &Game, mut limits: Limits) -> Result<Reply> {
        let bot = self.bot.as_mut().context("new_game was not called")?;
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
    use banco_rules::caro::Rule;
    use banco_rules::game::GameSpec;

    #[test]
    fn a_level_proposes_and_answers_a_swap_opening() {
        let mut player = BancoPlayer::new(Level::Easy);
        assert!(player.swap2(&[], None).is_err(), "no game started");
        player
            .new_game(&GameSpec::Caro {
                width: 15,
                height: 15,
                rule: Rule::Freestyle,
                opening: Vec::new(),
            })
            .unwrap();
        player.limit_nodes(2000).unwrap();
        let turn = Some(Duration::from_millis(200));
        let SwapReply::Propose(three) = player.swap2(&[], turn).unwrap() else {
            panic!("three stones were asked for");
        };
        assert!(three.iter().all(|p| p.x < 15 && p.y < 15));
        let answer = player.swap2(&three, turn).unwrap();
        assert!(
            matches!(answer, SwapReply::Swap | SwapReply::Stay(_)),
            "{answer:?}"
        );
        assert!(player.swap2(&three[..2], turn).is_err());
    }

    #[test]
    fn mate_scores_become_plies() {
        let game = Game::new(&GameSpec::Xiangqi { fen: None }).unwrap();
        let mate = banco_engine::xiangqi::MATE;
        assert_eq!(eval(&game, 35), Eval::Units(35));
        assert_eq!(eval(&game, mate - 3), Eval::MateIn(3));
        assert_eq!(eval(&game, -(mate - 4)), Eval::MateIn(-4));
    }
}
