//! A match: N games between two players, each opening played once with each colour.
//!
//! Game `2k` gives opening `k mod len` to player A as the first side, game `2k + 1` the
//! same opening to player B. A player that fails to start, errs, answers too late (for
//! external engines) or plays an illegal move forfeits that game; nothing else stops the
//! match. Forfeits are counted apart from the games decided on the board: a match with
//! any measures the protocol as much as the play. Every game can be written to a
//! directory, one text file each.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use banco_rules::game::{Game, GameSpec, Move, Side};

use crate::openings::Opening;
use crate::player::Player;
use crate::stats::{MoveStats, Score, Tally};

/// What to play.
#[derive(Debug, Clone)]
pub struct Match {
    /// The game and its settings.
    pub spec: GameSpec,
    /// How many games.
    pub games: usize,
    /// Starting positions, used in turn.
    pub openings: Vec<Opening>,
    /// Time per move given to player A and to player B (`None`: banco levels use their
    /// own, external engines get a second). Unequal budgets make a time-odds match: how
    /// much more time one engine needs to hold the other.
    pub budgets: [Option<Duration>; 2],
    /// Where to write each game, if anywhere.
    pub record_dir: Option<PathBuf>,
}

/// One finished game.
#[derive(Debug, Clone)]
pub struct GameRecord {
    /// 1-based.
    pub number: usize,
    /// Which player (0 = A, 1 = B) moved first.
    pub first: usize,
    /// The opening as written.
    pub opening: String,
    /// Every move, opening included.
    pub moves: Vec<Move>,
    /// The winning player, `None` for a draw.
    pub winner: Option<usize>,
    /// Why it ended: `five`, `board_full`, `checkmate`, ..., or what a player did wrong.
    pub reason: String,
    /// The player that lost off the board (failed to start, erred, answered too late or
    /// played an illegal move): such a game says nothing about strength.
    pub forfeit: Option<usize>,
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
}

/// A match's outcome.
#[derive(Debug, Clone)]
pub struct Report {
    /// The two players' names, A then B.
    pub names: [String; 2],
    /// A's results against B.
    pub tally: Tally,
    /// Each player's moves.
    pub stats: [MoveStats; 2],
    /// Games each player lost off the board (see [`GameRecord::forfeit`]).
    pub forfeits: [u32; 2],
}

impl Match {
    /// Plays the match; `on_game` sees each game as it ends, with the tally so far.
    pub fn play(
        &self,
        players: &mut [Box<dyn Player>; 2],
        mut on_game: impl FnMut(&GameRecord, &Tally),
    ) -> Result<Report> {
        if let Some(dir) = &self.record_dir {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let mut tally = Tally::default();
        let mut stats = [MoveStats::default(); 2];
        let mut forfeits = [0; 2];
        for i in 0..self.games {
            let opening = &self.openings[(i / 2) % self.openings.len()];
            let first = i % 2;
            let record = self.play_game(i + 1, first, opening, players, &mut stats)?;
            if let Some(p) = record.forfeit {
                forfeits[p] += 1;
            }
            tally.add(match record.winner {
                None => Score::Draw,
                Some(0) => Score::Win,
                Some(_) => Score::Loss,
            });
            if let Some(dir) = &self.record_dir {
                let path = dir.join(format!("{:04}.txt", record.number));
                std::fs::write(&path, self.game_text(&record, players))
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
            on_game(&record, &tally);
        }
        Ok(Report {
            names: [players[0].name(), players[1].name()],
            tally,
            stats,
            forfeits,
        })
    }

    fn play_game(
        &self,
        number: usize,
        first: usize,
        opening: &Opening,
        players: &mut [Box<dyn Player>; 2],
        stats: &mut [MoveStats; 2],
    ) -> Result<GameRecord> {
        let mut game = Game::new(&self.spec).context("cannot set up the game")?;
        opening.apply(&mut game)?;
        let mut record = GameRecord {
            number,
            first,
            opening: opening.text(),
            moves: Vec::new(),
            winner: None,
            reason: String::new(),
            forfeit: None,
        };
        let player_of = |side: Side| {
            if side == Side::First {
                first
            } else {
                1 - first
            }
        };
        for (i, player) in players.iter_mut().enumerate() {
            if let Err(e) = player.new_game(&self.spec) {
                record.winner = Some(1 - i);
                record.forfeit = Some(i);
                record.reason = format!("{} could not start: {e:#}", player.name());
                record.moves = game.moves();
                return Ok(record);
            }
        }
        let (winner, reason, forfeit) = loop {
            if let Some(end) = game.ending() {
                break (
                    end.winner.map(player_of),
                    end.reason.name().to_string(),
                    None,
                );
            }
            let idx = player_of(game.to_move());
            let player = &mut players[idx];
            let reply = match player.play(&game, self.budgets[idx]) {
                Ok(r) => r,
                Err(e) => {
                    break (
                        Some(1 - idx),
                        format!("{} failed: {e:#}", player.name()),
                        Some(idx),
                    );
                }
            };
            let budget = match (self.budgets[idx], player.nominal_time()) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            stats[idx].record(reply.elapsed, budget, reply.depth);
            if let Err(e) = game.play(reply.mv) {
                break (
                    Some(1 - idx),
                    format!("{} played an illegal move: {e}", player.name()),
                    Some(idx),
                );
            }
        };
        record.winner = winner;
        record.reason = reason;
        record.forfeit = forfeit;
        record.moves = game.moves();
        Ok(record)
    }

    /// A game as a text file: `#` header lines, then one move per line.
    fn game_text(&self, record: &GameRecord, players: &[Box<dyn Player>; 2]) -> String {
        let mut text = String::new();
        let first = &players[record.first].name();
        let second = &players[1 - record.first].name();
        let _ = writeln!(text, "# banco-arena game {}", record.number);
        let _ = writeln!(text, "# game: {}", describe(&self.spec));
        let _ = writeln!(text, "# first: {first}");
        let _ = writeln!(text, "# second: {second}");
        let _ = writeln!(text, "# opening: {}", record.opening);
        let forfeit = if record.forfeit.is_some() {
            ", forfeit"
        } else {
            ""
        };
        let _ = writeln!(
            text,
            "# result: {} ({}{forfeit})",
            record.result(),
            record.reason
        );
        for mv in &record.moves {
            let _ = writeln!(text, "{}", move_text(mv));
        }
        text
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::parse;
    use crate::player::Reply;
    use banco_rules::caro::{Point, Rule};

    /// Plays along a fixed script of points: first the listed ones that are free, then
    /// an illegal move or an error when asked to.
    struct Scripted {
        name: &'static str,
        moves: Vec<Point>,
        fail_after: Option<usize>,
        illegal_after: Option<usize>,
        played: usize,
    }

    impl Scripted {
        fn new(name: &'static str, moves: &[(u8, u8)]) -> Scripted {
            Scripted {
                name,
                moves: moves.iter().map(|(x, y)| Point::new(*x, *y)).collect(),
                fail_after: None,
                illegal_after: None,
                played: 0,
            }
        }
    }

    impl Player for Scripted {
        fn name(&self) -> String {
            self.name.to_string()
        }
        fn new_game(&mut self, _: &GameSpec) -> Result<()> {
            self.played = 0;
            Ok(())
        }
        fn play(&mut self, game: &Game, budget: Option<Duration>) -> Result<Reply> {
            if self.fail_after == Some(self.played) {
                anyhow::bail!("crashed");
            }
            let Game::Caro(g) = game else { unreachable!() };
            let mv = if self.illegal_after == Some(self.played) {
                g.moves()[0]
            } else {
                *self
                    .moves
                    .iter()
                    .find(|p| g.board().is_empty_at(**p))
                    .expect("script long enough")
            };
            self.played += 1;
            Ok(Reply {
                mv: Move::Caro(mv),
                depth: Some(3),
                eval: None,
                // Says how long it was given, so tests can see whose budget it got.
                elapsed: budget.unwrap_or(Duration::from_millis(10)),
            })
        }
    }

    fn spec() -> GameSpec {
        GameSpec::Caro {
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
            opening: Vec::new(),
        }
    }

    /// A row-0 runner and a row-14 runner: whoever moves first completes five first.
    fn racers() -> [Box<dyn Player>; 2] {
        let row = |y: u8| (0..15).map(|x| (x, y)).collect::<Vec<_>>();
        [
            Box::new(Scripted::new("a", &row(0))),
            Box::new(Scripted::new("b", &row(14))),
        ]
    }

    #[test]
    fn colours_alternate_and_results_add_up() {
        let m = Match {
            spec: spec(),
            games: 4,
            openings: parse("0,0 1,1\n-1,-1 2,2").unwrap(),
            budgets: [None; 2],
            record_dir: None,
        };
        let mut players = racers();
        let mut seen = Vec::new();
        let report = m
            .play(&mut players, |r, _| {
                seen.push((r.first, r.winner, r.reason.clone(), r.opening.clone()))
            })
            .unwrap();
        // The first mover always wins the race: A wins games 1 and 3, B games 2 and 4.
        assert_eq!(
            seen.iter().map(|s| (s.0, s.1)).collect::<Vec<_>>(),
            vec![(0, Some(0)), (1, Some(1)), (0, Some(0)), (1, Some(1))]
        );
        assert!(seen.iter().all(|s| s.2 == "five"));
        assert_eq!(report.forfeits, [0, 0]);
        assert_eq!(seen[0].3, "0,0 1,1");
        assert_eq!(seen[1].3, "0,0 1,1");
        assert_eq!(seen[2].3, "-1,-1 2,2");
        assert_eq!(
            (report.tally.wins, report.tally.draws, report.tally.losses),
            (2, 0, 2)
        );
        // Each wins two races of five moves and loses two after four.
        assert_eq!(report.stats[0].moves, 18);
        assert_eq!(report.stats[1].moves, 18);
        assert_eq!(report.stats[0].mean_depth(), Some(3.0));
    }

    #[test]
    fn each_player_moves_on_its_own_budget() {
        let m = Match {
            spec: spec(),
            games: 2,
            openings: parse("0,0 1,1").unwrap(),
            budgets: [
                Some(Duration::from_millis(30)),
                Some(Duration::from_millis(70)),
            ],
            record_dir: None,
        };
        let mut players = racers();
        let report = m.play(&mut players, |_, _| {}).unwrap();
        for (stats, ms) in report.stats.iter().zip([30, 70]) {
            assert!(stats.moves > 0);
            assert_eq!(stats.time, Duration::from_millis(ms) * stats.moves as u32);
            assert_eq!(stats.overruns, 0);
        }
    }

    #[test]
    fn errors_and_illegal_moves_lose() {
        let dir = std::env::temp_dir().join(format!("banco-arena-test-{}", std::process::id()));
        let m = Match {
            spec: spec(),
            games: 1,
            openings: parse("0,0 1,1").unwrap(),
            budgets: [None; 2],
            record_dir: Some(dir.clone()),
        };
        // A moves first and plays an illegal move on its second turn: B wins.
        let mut players = racers();
        let mut a = Scripted::new("a", &(0..15).map(|x| (x, 0)).collect::<Vec<_>>());
        a.illegal_after = Some(1);
        players[0] = Box::new(a);
        let mut reasons = Vec::new();
        let report = m
            .play(&mut players, |r, _| {
                reasons.push((r.winner, r.reason.clone()))
            })
            .unwrap();
        assert_eq!(reasons[0].0, Some(1));
        assert!(
            reasons[0].1.contains("a played an illegal move"),
            "{}",
            reasons[0].1
        );
        assert_eq!((report.tally.wins, report.tally.losses), (0, 1));
        assert_eq!(report.forfeits, [1, 0]);
        let saved = std::fs::read_to_string(dir.join("0001.txt")).unwrap();
        assert!(saved.contains("# first: a"));
        assert!(saved.contains("# result: 0-1"));
        assert!(saved.contains(", forfeit)"), "{saved}");
        assert!(saved.lines().any(|l| l == "7,7"));
        std::fs::remove_dir_all(&dir).unwrap();

        // B errs on its first turn: A wins.
        let m = Match {
            record_dir: None,
            ..m
        };
        let mut players = racers();
        let mut b = Scripted::new("b", &[(0, 14)]);
        b.fail_after = Some(0);
        players[1] = Box::new(b);
        let mut reasons = Vec::new();
        let report = m
            .play(&mut players, |r, _| {
                reasons.push((r.winner, r.reason.clone()))
            })
            .unwrap();
        assert_eq!(reasons[0].0, Some(0));
        assert!(
            reasons[0].1.contains("b failed: crashed"),
            "{}",
            reasons[0].1
        );
        assert_eq!(report.tally.wins, 1);
        assert_eq!(report.forfeits, [0, 1]);
    }
}
