//! The xiangqi bot: book, then search, under a level's [`Config`], through the [`Bot`]
//! interface every banco engine shares.

use std::time::Instant;

use super::book::{BOOK_PLIES, Book};
use super::level::Config;
use super::psq::kind_value;
use super::search::{Info, Options, Searcher};
use crate::bot::{Bot, Limits, Thought};
use banco_rules::Level;
use banco_rules::xiangqi::Position;
use banco_rules::xiangqi::game::Game;
use banco_rules::xiangqi::square::Move;

/// Whether the side to move on `pos` has a move that mates.
fn mate_in_one(pos: &mut Position) -> bool {
    pos.legal_moves().iter().any(|&mv| {
        let undo = pos.make(mv);
        let mate = pos.in_check() && !pos.has_legal_move();
        pos.unmake(mv, undo);
        mate
    })
}

/// A xiangqi engine at some level. Keeps its transposition table and history between
/// moves until [`Bot::new_game`].
pub struct Engine {
    /// The level's settings (or a tool's own).
    config: Config,
    /// The search with its transposition table and history, kept between moves.
    searcher: Searcher,
    /// State of the generator behind book and noise choices.
    rng: u64,
}

impl Engine {
    /// An engine playing at `level`.
    pub fn new(level: Level) -> Engine {
        Engine::with_config(Config::for_level(level))
    }

    /// An engine with explicit settings.
    pub fn with_config(config: Config) -> Engine {
        Engine {
            searcher: Searcher::new(config.hash_mb),
            rng: config.seed | 1,
            config,
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Changes the settings (the hash is resized if its size changed).
    pub fn set_config(&mut self, config: Config) {
        if config.hash_mb != self.config.hash_mb {
            self.searcher.resize(config.hash_mb);
        }
        self.config = config;
    }

    fn random(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    /// A lapse: a mate in one if there is one; otherwise the move that takes the most
    /// (a random one when nothing can be taken), the reply not looked at, except that a
    /// move after which the opponent mates in one is never chosen.
    fn lapse_move(&mut self, game: &Game) -> Option<Move> {
        let mut pos = game.position().clone();
        let mut best: Option<(i32, Move)> = None;
        for mv in game.legal_moves() {
            let taken = pos.piece_at(mv.to()).map_or(0, |p| kind_value(p.kind()));
            let undo = pos.make(mv);
            let mates = pos.in_check() && !pos.has_legal_move();
            let mated_next = !mates && mate_in_one(&mut pos);
            pos.unmake(mv, undo);
            if mates {
                return Some(mv);
            }
            if mated_next {
                continue;
            }
            let score = taken * 100 + (self.random() % 100) as i32;
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, mv));
            }
        }
        best.map(|(_, mv)| mv)
    }

    /// Like [`Bot::think`], telling `report` about every finished search iteration.
    pub fn think_reporting(
        &mut self,
        game: &Game,
        limits: &Limits,
        report: &mut dyn FnMut(&Info),
    ) -> Thought<Move> {
        let start = Instant::now();
        let none = Thought {
            best: None,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
            elapsed: start.elapsed(),
        };
        if game.outcome().is_some() || !game.position().has_legal_move() {
            return none;
        }
        if self.config.use_book && game.plies().len() < BOOK_PLIES {
            let r = self.random();
            if let Some(mv) = Book::builtin().pick(game.position(), r) {
                return Thought {
                    best: Some(mv),
                    pv: vec![mv],
                    elapsed: start.elapsed(),
                    ..none
                };
            }
        }
        if self.config.lapse > 0
            && self.random() % 100 < u64::from(self.config.lapse)
            && let Some(mv) = self.lapse_move(game)
        {
            return Thought {
                best: Some(mv),
                depth: 1,
                pv: vec![mv],
                elapsed: start.elapsed(),
                ..none
            };
        }
        let own = start + self.config.move_time;
        let deadline = limits.deadline.map_or(own, |d| d.min(own));
        let max_depth = limits
            .max_depth
            .map_or(self.config.max_depth, |d| d.min(self.config.max_depth));
        let capped = Limits {
            deadline: Some(deadline),
            max_depth: Some(max_depth),
            max_nodes: limits.max_nodes,
            cancel: limits.cancel.clone(),
            spend_all: limits.spend_all,
        };
        let options = Options {
            root_noise: self.config.root_noise,
            seed: self.random(),
            soft_fraction: self.config.soft_fraction,
            weights: self.config.weights,
            contempt: self.config.contempt,
        };
        let out = self.searcher.search(game, &capped, &options, report);
        Thought {
            best: out.best,
            score: out.score,
            depth: out.depth,
            nodes: out.nodes,
            pv: out.pv,
            elapsed: start.elapsed(),
        }
    }
}

impl Bot for Engine {
    type Position = Game;
    type Move = Move;

    fn think(&mut self, game: &Game, limits: &Limits) -> Thought<Move> {
        self.think_reporting(game, limits, &mut |_| {})
    }

    fn new_game(&mut self) {
        self.searcher.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn every_level_plays_legal_moves_and_takes_mate_in_one() {
        for level in Level::ALL {
            let mut engine = Engine::new(level);
            let game = Game::new();
            let t = engine.think(&game, &Limits::within(Duration::from_millis(50)).depth(3));
            assert!(game.position().is_legal_move(t.best.unwrap()), "{level}");
            // Mate in one is never missed, however imprecise the level.
            for _ in 0..5 {
                let game = Game::from_fen("4k4/R8/9/9/9/9/9/9/9/1R1K5 w").unwrap();
                let t = engine.think(&game, &Limits::within(Duration::from_secs(5)));
                assert_eq!(t.best, Some("b0b9".parse().unwrap()), "{level}");
            }
        }
    }

    #[test]
    fn easy_never_walks_into_mate_in_one() {
        // Red's general on e0 is boxed in by its own advisors, and only Red's chariot on
        // e5 keeps Black's chariot from mating on e8: any chariot move off the file loses.
        let fen = "5k3/r8/9/9/4R4/9/9/9/9/3AKA3 w";
        for seed in 0..40 {
            let mut config = Config::for_level(Level::Easy);
            config.seed = seed;
            // Half the tries lapse every move: a lapse does not look at the reply but
            // still never allows a mate in one.
            if seed % 2 == 1 {
                config.lapse = 100;
            }
            let mut engine = Engine::with_config(config);
            let mut game = Game::from_fen(fen).unwrap();
            let mv = engine.think(&game, &Limits::none()).best.unwrap();
            game.play(mv).unwrap();
            let mate_in_one = game.legal_moves().into_iter().any(|reply| {
                let mut g = game.clone();
                g.play(reply).unwrap();
                g.outcome().is_some_and(|o| o.winner.is_some())
            });
            assert!(!mate_in_one, "easy played {mv} and allowed mate");
        }
    }

    #[test]
    fn a_lapse_grabs_material_without_looking_at_the_reply() {
        // Red's chariot on a0 can take Black's horse on a9, which the chariot on b9 then
        // takes back: the search declines, a lapse grabs it.
        let fen = "nr2k4/9/9/9/9/9/9/9/9/R2K5 w";
        let game = Game::from_fen(fen).unwrap();
        let grab: Move = "a0a9".parse().unwrap();
        for seed in 1..10 {
            let config = |lapse| Config {
                lapse,
                root_noise: 0,
                use_book: false,
                seed,
                ..Config::for_level(Level::Easy)
            };
            let t = Engine::with_config(config(100)).think(&game, &Limits::none());
            assert_eq!(t.best, Some(grab), "seed {seed}");
            let t = Engine::with_config(config(0)).think(&game, &Limits::none());
            assert_ne!(t.best, Some(grab), "seed {seed}: the search took the horse");
        }
    }

    #[test]
    fn book_gives_variety_and_no_move_when_over() {
        let game = Game::new();
        let mut seen = std::collections::HashSet::new();
        for seed in 0..30 {
            let mut config = Config::for_level(Level::Max);
            config.seed = seed * 7_777 + 1;
            config.hash_mb = 1;
            let mut engine = Engine::with_config(config);
            seen.insert(engine.think(&game, &Limits::none()).best.unwrap());
        }
        assert!(seen.len() >= 4, "{seen:?}");
        let over = Game::from_fen("4k4/R8/9/9/9/9/9/9/9/1R1K5 w").unwrap();
        let mut over = over;
        over.play("b0b9".parse().unwrap()).unwrap();
        assert_eq!(
            Engine::new(Level::Easy).think(&over, &Limits::none()).best,
            None
        );
    }
}
