//! Result accounting: wins, draws and losses, the Elo difference they imply with its 95%
//! error margin, and per-player move statistics.

use std::time::Duration;

/// A game's result for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    Win,
    Draw,
    Loss,
}

/// Wins, draws and losses of one player against another.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

/// An Elo difference and the half-width of its 95% confidence interval. Infinite when
/// every game went one way (the margin is then also infinite).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Elo {
    /// The rating difference the score implies.
    pub diff: f64,
    /// Half the width of its 95% confidence interval.
    pub margin: f64,
}

impl Tally {
    pub fn add(&mut self, score: Score) {
        match score {
            Score::Win => self.wins += 1,
            Score::Draw => self.draws += 1,
            Score::Loss => self.losses += 1,
        }
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game: a win 1, a draw 1/2.
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(self.games())
    }

    /// The Elo difference: `-400 log10(1/s - 1)`, with the margin from the normal
    /// approximation of the mean game score (1.96 standard errors).
    pub fn elo(&self) -> Elo {
        let n = f64::from(self.games());
        let s = self.score();
        if n == 0.0 {
            return Elo {
                diff: 0.0,
                margin: f64::INFINITY,
            };
        }
        let var = (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n;
        let se = (var / n).sqrt();
        let (lo, hi) = (s - 1.96 * se, s + 1.96 * se);
        let margin = if lo > 0.0 && hi < 1.0 {
            (elo_of(hi) - elo_of(lo)) / 2.0
        } else {
            f64::INFINITY
        };
        Elo {
            diff: elo_of(s),
            margin,
        }
    }
}

/// The Elo difference that expects score `s`.
fn elo_of(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

impl std::fmt::Display for Elo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.diff.is_infinite() {
            return write!(f, "{}inf", if self.diff > 0.0 { "+" } else { "-" });
        }
        if self.margin.is_infinite() {
            write!(f, "{:+.0} ± inf", self.diff)
        } else {
            write!(f, "{:+.0} ± {:.0}", self.diff, self.margin)
        }
    }
}

/// One player's moves over a match.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MoveStats {
    /// Moves played.
    pub moves: u64,
    /// Total thinking time.
    pub time: Duration,
    /// Sum of reported depths, over `depth_moves` moves that reported one.
    pub depth_sum: u64,
    /// Moves that reported a depth.
    pub depth_moves: u64,
    /// Longest single move.
    pub longest: Duration,
    /// Worst time past the move's budget (zero if always within).
    pub worst_overrun: Duration,
    /// Moves that took longer than their budget.
    pub overruns: u64,
}

impl MoveStats {
    /// Records a move that took `elapsed` against `budget` (if any), reaching `depth`.
    pub fn record(&mut self, elapsed: Duration, budget: Option<Duration>, depth: Option<u32>) {
        self.moves += 1;
        self.time += elapsed;
        self.longest = self.longest.max(elapsed);
        if let Some(d) = depth {
            self.depth_sum += u64::from(d);
            self.depth_moves += 1;
        }
        if let Some(b) = budget {
            self.worst_overrun = self.worst_overrun.max(elapsed.saturating_sub(b));
            self.overruns += u64::from(elapsed > b);
        }
    }

    /// Mean time per move.
    pub fn mean_time(&self) -> Duration {
        if self.moves == 0 {
            Duration::ZERO
        } else {
            self.time / self.moves as u32
        }
    }

    /// Mean reported depth, if any was reported.
    pub fn mean_depth(&self) -> Option<f64> {
        (self.depth_moves > 0).then(|| self.depth_sum as f64 / self.depth_moves as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(w: u32, d: u32, l: u32) -> Tally {
        let mut t = Tally::default();
        for _ in 0..w {
            t.add(Score::Win);
        }
        for _ in 0..d {
            t.add(Score::Draw);
        }
        for _ in 0..l {
            t.add(Score::Loss);
        }
        t
    }

    #[test]
    fn counts_and_score() {
        let t = tally(6, 2, 2);
        assert_eq!((t.wins, t.draws, t.losses, t.games()), (6, 2, 2, 10));
        assert!((t.score() - 0.7).abs() < 1e-12);
        assert_eq!(Tally::default().score(), 0.5);
    }

    #[test]
    fn elo_is_symmetric_and_known() {
        // 75% is +190.8 Elo.
        let e = tally(75, 0, 25).elo();
        assert!((e.diff - 190.85).abs() < 0.1, "{e:?}");
        let f = tally(25, 0, 75).elo();
        assert!((e.diff + f.diff).abs() < 1e-9);
        assert!((e.margin - f.margin).abs() < 1e-9);
        // Even: 0 with a finite margin that shrinks with more games.
        let even = tally(40, 20, 40).elo();
        assert!(even.diff.abs() < 1e-9);
        assert!(even.margin > 0.0 && even.margin < 100.0);
        assert!(tally(400, 200, 400).elo().margin < even.margin);
        // A clean sweep is infinite, and says so.
        let sweep = tally(10, 0, 0).elo();
        assert!(sweep.diff.is_infinite());
        assert_eq!(sweep.to_string(), "+inf");
        assert_eq!(tally(0, 0, 3).elo().to_string(), "-inf");
    }

    #[test]
    fn move_stats() {
        let mut m = MoveStats::default();
        m.record(
            Duration::from_millis(100),
            Some(Duration::from_millis(150)),
            Some(4),
        );
        m.record(
            Duration::from_millis(300),
            Some(Duration::from_millis(250)),
            None,
        );
        assert_eq!(m.moves, 2);
        assert_eq!(m.mean_time(), Duration::from_millis(200));
        assert_eq!(m.mean_depth(), Some(4.0));
        assert_eq!(m.worst_overrun, Duration::from_millis(50));
        assert_eq!(m.overruns, 1);
        assert_eq!(m.longest, Duration::from_millis(300));
    }
}
