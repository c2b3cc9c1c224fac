//! The game-agnostic bot a server seat or a tool drives: one enum over each game's engine.
//!
//! A `GameBot` is made for a [`GameSpec`] and a [`Level`] and thinks about a
//! [`game::Game`](banco_rules::game::Game). The level fixes its own time budget
//! ([`GameBot::move_time`]); a caller's [`Limits`] can only make it stop sooner (an earlier
//! deadline, a depth or node cap, or the cancel flag).

use std::time::Duration;

use super::{Bot, Level, Limits, Thought};
use crate::caro;
use crate::xiangqi;
use banco_rules::game::{Game, GameSpec, Move};

/// A bot for any game banco plays.
pub enum GameBot {
    /// Caro / gomoku: [`caro::engine::Engine`].
    Caro(Box<caro::engine::Engine>),
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
                GameBot::Caro(Box::new(caro::engine::Engine::new(level)))
            }
            GameSpec::Xiangqi { .. } => GameBot::Xiangqi(Box::new(xiangqi::Engine::new(level))),
        }
    }

    /// Builds the tables every engine of a game shares (caro's pattern tables, one per
    /// rule, about a tenth of a second each), so that no bot's first move pays for them
    /// inside its deadline. A host calls it once at start, off its search threads; later
    /// calls return at once.
    pub fn warm_up() {
        for rule in banco_rules::caro::Rule::ALL {
            caro::pattern::PatternTable::get(rule);
        }
    }

    /// A bot for games like `spec`, playing at `level`, whose hash table takes at most
    /// `hash_bytes` (at least a small table whatever the budget): for a host that shares
    /// one memory budget among its engines.
    pub fn with_hash(spec: &GameSpec, level: Level, hash_bytes: usize) -> GameBot {
        match spec {
            GameSpec::Caro { rule, .. } => {
                caro::pattern::PatternTable::get(*rule);
                let config = caro::level::Config {
                    tt_bits: caro_tt_bits(hash_bytes),
                    ..caro::level::Config::for_level(level)
                };
                GameBot::Caro(Box::new(caro::engine::Engine::with_config(config)))
            }
            GameSpec::Xiangqi { .. } => {
                let config = xiangqi::level::Config {
                    hash_mb: xiangqi_hash_mb(hash_bytes),
                    ..xiangqi::level::Config::for_level(level)
                };
                GameBot::Xiangqi(Box::new(xiangqi::Engine::with_config(config)))
            }
        }
    }

    /// Plays at `level` from the next move on, keeping its hash table (size and
    /// contents): one engine can serve bots of every level in turn.
    pub fn set_level(&mut self, level: Level) {
        match self {
            GameBot::Caro(engine) => {
                let config = caro::level::Config {
                    tt_bits: engine.config().tt_bits,
                    ..caro::level::Config::for_level(level)
                };
                engine.set_config(config);
            }
            GameBot::Xiangqi(engine) => {
                let config = xiangqi::level::Config {
                    hash_mb: engine.config().hash_mb,
                    ..xiangqi::level::Config::for_level(level)
                };
                engine.set_config(config);
            }
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

    /// Whether `score`, as this bot's [`GameBot::think`] reported it from the mover's
    /// side, says the mover is lost by force: the search found a mate (xiangqi) or a five
    /// (caro) against it that no defence escapes.
    pub fn proves_loss(&self, score: i32) -> bool {
        match self {
            GameBot::Caro(_) => score <= -caro::MATE_BOUND,
            GameBot::Xiangqi(_) => score <= -xiangqi::MATE_BOUND,
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

/// The largest caro table (`2^bits` entries) within `bytes`, and never under 2^10.
fn caro_tt_bits(bytes: usize) -> u32 {
    let buckets = bytes / caro::tt::BUCKET_BYTES;
    buckets.max(1).ilog2().clamp(10, 30)
}

/// The xiangqi table's size in whole megabytes within `bytes`, and never under one.
fn xiangqi_hash_mb(bytes: usize) -> usize {
    (bytes >> 20).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_rules::caro::{Point, Rule};
    use banco_rules::game::Side;

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
    fn a_proven_loss_is_told_from_an_open_position() {
        let spec = GameSpec::Caro {
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
            opening: Vec::new(),
        };
        let mut game = Game::new(&spec).unwrap();
        let limits = Limits::within(Duration::from_millis(200)).depth(4);
        let mut bot = GameBot::new(&spec, Level::Hard);
        game.play(Move::Caro(Point::new(7, 7))).unwrap();
        let t = bot.think(&game, &limits);
        assert!(!bot.proves_loss(t.score), "one stone down: {}", t.score);
        // X makes an open four on row 7 while O plays on the edge: O is lost.
        for (x, y) in [(0, 0), (6, 7), (0, 2), (5, 7), (0, 4), (8, 7)] {
            game.play(Move::Caro(Point::new(x, y))).unwrap();
        }
        let t = bot.think(&game, &limits);
        assert!(
            bot.proves_loss(t.score),
            "an open four against: {}",
            t.score
        );

        // Red to move and mated next move whatever it does (the flying general keeps
        // its king off the d-file, the rook on rank 1 fences it in, the other comes to b0;
        // the soldier gives Red moves to choose from, so this is searched, not forced).
        let spec = GameSpec::Xiangqi {
            fen: Some("3k5/9/9/8P/9/9/1r7/9/r8/4K4 w".into()),
        };
        let game = Game::new(&spec).unwrap();
        let mut bot = GameBot::new(&spec, Level::Hard);
        let t = bot.think(&game, &Limits::within(Duration::from_secs(3)));
        assert!(
            bot.proves_loss(t.score),
            "mated next move: {} {:?}",
            t.score,
            t.pv
        );
        let game = Game::new(&GameSpec::Xiangqi { fen: None }).unwrap();
        let t = bot.think(&game, &limits);
        assert!(!bot.proves_loss(t.score), "the start: {}", t.score);
    }

    #[test]
    fn hash_tables_stay_within_the_budget() {
        // The table is made of buckets (two entries each): its size in bytes is what
        // must fit the budget.
        let bucket = caro::tt::BUCKET_BYTES;
        assert!(bucket >= 2 * std::mem::size_of::<caro::tt::Entry>());
        assert_eq!(
            caro_tt_bits(64 << 20),
            (64usize << 20).div_euclid(bucket).ilog2()
        );
        assert!((1usize << caro_tt_bits(100 << 20)) * bucket <= 100 << 20);
        assert!((1usize << caro_tt_bits(256 << 20)) * bucket <= 256 << 20);
        assert_eq!(caro_tt_bits(0), 10);
        assert_eq!(xiangqi_hash_mb(256 << 20), 256);
        assert_eq!(xiangqi_hash_mb(10), 1);

        // A level change keeps the table's size; the new level's time applies.
        let spec = GameSpec::Caro {
            width: 15,
            height: 15,
            rule: Rule::Caro,
            opening: Vec::new(),
        };
        let mut bot = GameBot::with_hash(&spec, Level::Max, 1 << 20);
        bot.set_level(Level::Easy);
        assert_eq!(
            bot.move_time(),
            GameBot::new(&spec, Level::Easy).move_time()
        );
        let GameBot::Caro(engine) = &bot else {
            panic!("a caro bot")
        };
        assert_eq!(engine.config().tt_bits, caro_tt_bits(1 << 20));
        let mut xq = GameBot::with_hash(&GameSpec::Xiangqi { fen: None }, Level::Easy, 3 << 20);
        xq.set_level(Level::Max);
        let GameBot::Xiangqi(engine) = &xq else {
            panic!("a xiangqi bot")
        };
        assert_eq!(engine.config().hash_mb, 3);
        assert_eq!(engine.config().move_time, std::time::Duration::from_secs(5));
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
        assert_eq!(end.reason, banco_rules::game::EndReason::Checkmate);
        assert_eq!(end.winner, Some(Side::First));
    }

    #[test]
    fn bots_see_the_opening_stones_and_block_a_four_made_only_of_them() {
        let p = Point::new;
        // X's four on row 7 (5..=8), closed by O at 4,7: whoever is to move must take 9,7
        // (freestyle: under the caro rule 10,7 would also do, leaving a five blocked at
        // both ends).
        // Odd opening: O (the first side) must block X's four.
        let odd = vec![
            p(5, 7),
            p(4, 7),
            p(6, 7),
            p(0, 0),
            p(7, 7),
            p(14, 14),
            p(8, 7),
        ];
        // Even opening: the same four is O's, closed by X, and X must block it.
        let even = vec![
            p(4, 7),
            p(5, 7),
            p(0, 0),
            p(6, 7),
            p(14, 14),
            p(7, 7),
            p(0, 14),
            p(8, 7),
        ];
        for opening in [odd, even] {
            let spec = GameSpec::Caro {
                width: 15,
                height: 15,
                rule: Rule::Freestyle,
                opening,
            };
            let game = Game::new(&spec).unwrap();
            assert_eq!(game.to_move(), Side::First);
            for level in [Level::Easy, Level::Hard] {
                let mut bot = GameBot::new(&spec, level);
                let limits = Limits::within(std::time::Duration::from_millis(300)).depth(4);
                let best = bot.think(&game, &limits).best;
                assert_eq!(best, Some(Move::Caro(p(9, 7))), "{level}");
            }
        }
    }
}
