//! The engine behind a bot seat or a hint, and how it is run off the async runtime.
//!
//! A search runs on the blocking pool with the engine moved into it; the engine comes back
//! with its answer (keeping its hash tables for the next move) over the room's answer
//! channel, tagged with the position generation it was asked about, so an answer the
//! room no longer wants (after an undo, a new game, the game's end) is recognised and
//! dropped. A panicking engine is caught: the room gets no move and builds a fresh engine.

use std::panic::AssertUnwindSafe;
use std::time::Duration;
use tokio::sync::mpsc;

use banco_engine::bot::{Level, Limits, Thought};
use banco_engine::caro::Point;
use banco_engine::game::{Game, GameSpec, Move};
use banco_protocol::Seat;

/// What a room needs from an engine, whatever the game.
pub trait Engine: Send + 'static {
    /// A move for the side to move, within `limits` (which can only shorten the level's
    /// own budget).
    fn think(&mut self, game: &Game, limits: &Limits) -> Thought<Move>;
    /// Forget the previous game.
    fn new_game(&mut self);
}

/// Builds the engine for `spec` at `level`.
pub fn engine_for(spec: &GameSpec, level: Level) -> Box<dyn Engine> {
    Box::new(stand_in::Greedy::new(spec, level))
}

/// Who asked for a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asker {
    /// The bot in this seat wants its move.
    Bot(Seat),
    /// This player asked for a hint.
    Hint(crate::ClientId),
}

/// A finished search coming back to its room.
pub struct Answer {
    pub asker: Asker,
    /// The room's position generation when the search started.
    pub generation: u64,
    /// The engine, back home; `None` if it panicked.
    pub engine: Option<Box<dyn Engine>>,
    /// Its move; `None` if it found none or panicked.
    pub best: Option<Move>,
    /// Its score from the mover's side (0 when unknown).
    pub score: i32,
}

/// Runs `engine` on `game` on the blocking pool; the answer arrives on `answers`.
pub fn launch(
    mut engine: Box<dyn Engine>,
    game: Game,
    limits: Limits,
    asker: Asker,
    generation: u64,
    answers: mpsc::UnboundedSender<Answer>,
) {
    tokio::task::spawn_blocking(move || {
        let thought = std::panic::catch_unwind(AssertUnwindSafe(|| engine.think(&game, &limits)));
        let answer = match thought {
            Ok(t) => Answer {
                asker,
                generation,
                engine: Some(engine),
                best: t.best,
                score: t.score,
            },
            Err(_) => {
                tracing::error!(?asker, "the engine panicked; the room will use a fresh one");
                Answer {
                    asker,
                    generation,
                    engine: None,
                    best: None,
                    score: 0,
                }
            }
        };
        // The room may be gone (closed, shut down); then nobody wants the answer.
        let _ = answers.send(answer);
    });
}

/// A legal move found by scanning, for when an engine gives none: the free point nearest
/// the centre. `None` when the game has no move left.
pub fn any_legal_move(game: &Game) -> Option<Move> {
    match game {
        Game::Caro(g) => {
            let board = g.board();
            let (cx, cy) = (i32::from(board.width()) / 2, i32::from(board.height()) / 2);
            board
                .points()
                .filter(|p| g.check(*p).is_ok())
                .min_by_key(|p| (i32::from(p.x) - cx).abs() + (i32::from(p.y) - cy).abs())
                .map(Move::Caro)
        }
    }
}

/// Budget for a search when the mover has `left` on its clock: a slice of the bank (or
/// most of a per-move timer), always leaving a margin to send the move back.
pub fn clock_budget(left: Duration, increment: Duration, per_move: bool) -> Duration {
    let margin = (left / 10).max(Duration::from_millis(150));
    let usable = left.saturating_sub(margin);
    if per_move {
        usable
    } else {
        (left / 20 + increment * 3 / 4).min(usable)
    }
}

/// A quick pattern-scoring bot that stands in until the caro engine's `GameBot` lands;
/// it takes a win, blocks a four and otherwise plays the point with the best
/// attack + defence score (seed 001's tables).
mod stand_in {
    use super::*;
    use banco_engine::caro::{Stone, rule::DIRECTIONS};

    const ATTACK: [i64; 7] = [0, 9, 54, 162, 1458, 13112, 118008];
    const DEFENCE: [i64; 7] = [0, 3, 27, 99, 729, 6561, 59049];

    pub struct Greedy {
        /// Weaker levels sometimes take the second-best point.
        level: Level,
        /// Varies the easy level's choices between games.
        rolls: u64,
    }

    impl Greedy {
        pub fn new(_spec: &GameSpec, level: Level) -> Greedy {
            Greedy { level, rolls: 0 }
        }
    }

    impl Engine for Greedy {
        fn think(&mut self, game: &Game, _limits: &Limits) -> Thought<Move> {
            let started = std::time::Instant::now();
            let Game::Caro(g) = game;
            let board = g.board();
            let me = g.to_move();
            let mut scored: Vec<(i64, Point)> = Vec::new();
            for p in board.points().filter(|p| g.check(*p).is_ok()) {
                let mut score = 0;
                for (dx, dy) in DIRECTIONS {
                    score += ATTACK[run(board, p, me, dx, dy).min(6)];
                    score += DEFENCE[run(board, p, me.opponent(), dx, dy).min(6)];
                }
                scored.push((score, p));
            }
            scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            self.rolls = self.rolls.wrapping_add(1);
            let pick = match self.level {
                Level::Easy
                    if scored.len() > 1 && scored[0].0 < 1458 && self.rolls.is_multiple_of(3) =>
                {
                    1
                }
                _ => 0,
            };
            let best = scored
                .get(pick)
                .or(scored.first())
                .map(|(_, p)| Move::Caro(*p));
            Thought {
                best,
                score: 0,
                depth: 1,
                nodes: scored.len() as u64,
                pv: best.into_iter().collect(),
                elapsed: started.elapsed(),
            }
        }

        fn new_game(&mut self) {}
    }

    /// Stones of `stone` that `p` would join into one run along (dx, dy).
    fn run(board: &banco_engine::caro::Board, p: Point, stone: Stone, dx: i32, dy: i32) -> usize {
        let mut n = 0;
        for sign in [-1, 1] {
            let mut step = 1;
            while board.cell(
                i32::from(p.x) + sign * dx * step,
                i32::from(p.y) + sign * dy * step,
            ) == Some(Some(stone))
            {
                n += 1;
                step += 1;
            }
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_engine::caro::Rule;

    #[test]
    fn budgets_leave_a_margin() {
        let s = Duration::from_secs;
        assert_eq!(clock_budget(s(20), s(0), true), s(18));
        assert_eq!(
            clock_budget(s(300), s(3), false),
            s(15) + Duration::from_millis(2250)
        );
        assert!(clock_budget(Duration::from_millis(100), s(0), true).is_zero());
        assert!(clock_budget(s(2), s(10), false) < s(2));
    }

    #[test]
    fn the_bot_takes_a_win_and_blocks_a_four() {
        let spec = GameSpec::Caro {
            width: 15,
            height: 15,
            rule: Rule::Caro,
        };
        for level in Level::ALL {
            let mut g = Game::new(&spec).unwrap();
            // X: (3..7, 7) four with both ends open; O scattered.
            for (x, o) in [
                ((3, 7), (0, 0)),
                ((4, 7), (0, 2)),
                ((5, 7), (0, 4)),
                ((6, 7), (14, 14)),
            ] {
                g.play(Move::Caro(Point::new(x.0, x.1))).unwrap();
                g.play(Move::Caro(Point::new(o.0, o.1))).unwrap();
            }
            let mut bot = engine_for(&spec, level);
            let t = bot.think(&g, &Limits::none());
            let win = [Move::Caro(Point::new(2, 7)), Move::Caro(Point::new(7, 7))];
            assert!(win.contains(&t.best.unwrap()), "{level}: X takes the five");
            // O to move facing the four must block one end.
            g.play(Move::Caro(Point::new(10, 10))).unwrap();
            let t = bot.think(&g, &Limits::none());
            assert!(win.contains(&t.best.unwrap()), "{level}: O blocks");
        }
    }

    #[test]
    fn a_legal_move_is_found_while_there_is_one() {
        let spec = GameSpec::Caro {
            width: 5,
            height: 5,
            rule: Rule::Freestyle,
        };
        let mut g = Game::new(&spec).unwrap();
        assert_eq!(any_legal_move(&g), Some(Move::Caro(Point::new(2, 2))));
        g.play(Move::Caro(Point::new(2, 2))).unwrap();
        assert_ne!(any_legal_move(&g), Some(Move::Caro(Point::new(2, 2))));
    }
}
