//! The game-agnostic bot a server seat or a tool drives: one enum over each game's engine.
//!
//! A `GameBot` is made for a [`GameSpec`] and a [`Level`] and thinks about a
//! [`game::Game`](crate::game::Game). The level fixes its own time budget
//! ([`GameBot::move_time`]); a caller's [`Limits`] can only make it stop sooner (an earlier
//! deadline, a depth or node cap, or the cancel flag).

use std::time::Duration;

use super::{Bot, Level, Limits, Thought};
use crate::caro;
use crate::game::{Game, GameSpec, Move};
use crate::xiangqi;

/// A bot for any game banco plays.
pub enum GameBot {
    /// Caro / gomoku: [`caro::search::Engine`].
    Caro(Box<caro::search::Engine>),
    /// Xiangqi: [`xiangqi::Engine`].
    Xiangqi(Box<xiangqi::Engine>),
}

impl GameBot {
    /// A bot for games like `spec`, playing at `level`.
    pub fn new(spec: &GameSpec, level: Level) -> GameBot {
        match spec {
            GameSpec::Caro { rule, .. } => {
                // Build the rule's pattern table now rather than inside the first move's
                // time budget.
                caro::pattern::PatternTable::get(*rule);
                GameBot::Caro(Box::new(caro::search::Engine::new(level)))
            }
            GameSpec::Xiangqi { .. } => GameBot::Xiangqi(Box::new(xiangqi::Engine::new(level))),
        }
    }

    /// Finds a move for the side to move in `game`. `best` is `None` only when the game is
    /// over, the board is full, or `game` is not the game this bot was made for.
    pub fn think(&mut self, game: &Game, limits: &Limits) -> Thought<Move> {
        match (self, game) {
            (GameBot::Caro(engine), Game::Caro(g)) => {
                let t = engine.think(g, limits);
                Thought {
                    best: t.best.map(Move::Caro),
                    score: t.score,
                    depth: t.depth,
                    nodes: t.nodes,
                    pv: t.pv.into_iter().map(Move::Caro).collect(),
                    elapsed: t.elapsed,
                }
            }
            (GameBot::Xiangqi(engine), Game::Xiangqi(g)) => {
                let t = engine.think(g, limits);
                Thought {
                    best: t.best.map(Move::Xiangqi),
                    score: t.score,
                    depth: t.depth,
                    nodes: t.nodes,
                    pv: t.pv.into_iter().map(Move::Xiangqi).collect(),
                    elapsed: t.elapsed,
                }
            }
            _ => Thought {
                best: None,
                score: 0,
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
                elapsed: Duration::ZERO,
            },
        }
    }

    /// The level's nominal thinking time per move (a caller caps it by the bot's clock).
    pub fn move_time(&self) -> Duration {
        match self {
            GameBot::Caro(engine) => engine.config().move_time,
            GameBot::Xiangqi(engine) => engine.config().move_time,
        }
    }

    /// Forgets what it learned in the previous game.
    pub fn new_game(&mut self) {
        match self {
            GameBot::Caro(engine) => engine.new_game(),
            GameBot::Xiangqi(engine) => engine.new_game(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::caro::{Point, Rule};
    use crate::game::Side;

    #[test]
    fn plays_a_legal_move_and_respects_the_cap() {
        let spec = GameSpec::Caro {
            width: 15,
            height: 15,
            rule: Rule::Caro,
            opening: Vec::new(),
        };
        let mut game = Game::new(&spec).unwrap();
        game.play(Move::Caro(Point::new(7, 7))).unwrap();
        for level in Level::ALL {
            let mut bot = GameBot::new(&spec, level);
            assert!(bot.move_time() > Duration::ZERO);
            let t = bot.think(&game, &Limits::within(Duration::from_millis(50)).depth(2));
            let mv = t.best.expect("a move");
            let mut g = game.clone();
            assert!(g.play(mv).is_ok(), "{level}: {mv:?}");
            assert_eq!(g.to_move(), Side::First);
            bot.new_game();
        }
    }

    #[test]
    fn no_move_when_the_game_is_over() {
        let spec = GameSpec::Caro {
            width: 9,
            height: 9,
            rule: Rule::Freestyle,
            opening: Vec::new(),
        };
        let mut game = Game::new(&spec).unwrap();
        for i in 0..4 {
            game.play(Move::Caro(Point::new(i, 0))).unwrap();
            game.play(Move::Caro(Point::new(i, 2))).unwrap();
        }
        game.play(Move::Caro(Point::new(4, 0))).unwrap();
        let mut bot = GameBot::new(&spec, Level::Easy);
        assert_eq!(bot.think(&game, &Limits::none()).best, None);
    }

    #[test]
    fn plays_xiangqi_at_every_level() {
        let spec = GameSpec::Xiangqi { fen: None };
        let mut game = Game::new(&spec).unwrap();
        for level in Level::ALL {
            let mut bot = GameBot::new(&spec, level);
            assert!(bot.move_time() > Duration::ZERO);
            let t = bot.think(&game, &Limits::within(Duration::from_millis(50)).depth(3));
            let mv = t.best.expect("a move");
            let mut g = game.clone();
            assert!(g.play(mv).is_ok(), "{level}: {mv:?}");
        }
        // Black mates in one from an arranged position; the bot finds it.
        let spec = GameSpec::Xiangqi {
            fen: Some("3k5/9/9/9/9/9/1r7/9/r8/4K4 b".into()),
        };
        game = Game::new(&spec).unwrap();
        let mut bot = GameBot::new(&spec, Level::Easy);
        let mv = bot.think(&game, &Limits::none()).best.expect("a move");
        let end = game.play(mv).unwrap().expect("mate ends the game");
        assert_eq!(end.reason, crate::game::EndReason::Checkmate);
        assert_eq!(end.winner, Some(Side::First));
    }
}
