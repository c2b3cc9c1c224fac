//! Result accounting: wins, draws and losses ([`Tally`], the trinomial view), game pairs
//! ([`Pentanomial`], the two games of an opening counted as one outcome, as fishtest
//! scores them), the Elo difference each implies with its 95% error margin and the
//! likelihood of superiority, and per-player move statistics.
//!
//! Why pairs: the two games of an opening share its bias (an opening that favours the
//! first mover gives each player one good game), so pairs vary less than single games
//! and the trinomial variance overstates the error. The pentanomial variance is the
//! honest one for paired openings, and the SPRT ([`crate::sprt`]) runs on it.

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
        // Under half a point reads +0, never -0.
        let diff = if self.diff.abs() < 0.5 {
            0.0
        } else {
            self.diff
        };
        if self.margin.is_infinite() {
            write!(f, "{diff:+.0} ± inf")
        } else {
            write!(f, "{diff:+.0} ± {:.0}", self.margin)
        }
    }
}

/// The two-sided 97.5% point of the standard normal law (`Phi_inv(0.975)`), what
/// fishtest's 95% intervals use.
const Z95: f64 = 1.959_963_984_540_054;

/// Game pairs by player A's points over the pair, counted in half points: `counts[0]` LL,
/// `[1]` LD, `[2]` DD or WL, `[3]` WD, `[4]` WW (fishtest's order).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs by A's half points over the two games (0 to 4).
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Counts a pair of A's results.
    pub fn add(&mut self, first: Score, second: Score) {
        let half = |s: Score| match s {
            Score::Win => 2,
            Score::Draw => 1,
            Score::Loss => 0,
        };
        self.counts[half(first) + half(second)] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// A's points per game over the pairs, a win 1, a draw 1/2 (one half when empty).
    pub fn score(&self) -> f64 {
        let pairs = self.pairs();
        if pairs == 0 {
            return 0.5;
        }
        let half_points: u32 = self.counts.iter().zip(0..).map(|(c, i)| c * i).sum();
        f64::from(half_points) / 4.0 / f64::from(pairs)
    }

    /// The pairs as a probability distribution over the pair's score per game (0, 1/4,
    /// 1/2, 3/4, 1), with the count they add up to. As in fishtest's `regularize`, an
    /// outcome never seen counts 0.001 pairs, so that the variance is never zero and the
    /// likelihoods never vanish.
    pub fn pdf(&self) -> (f64, [(f64, f64); 5]) {
        let regular = self
            .counts
            .map(|c| if c == 0 { 1e-3 } else { f64::from(c) });
        let n: f64 = regular.iter().sum();
        let mut pdf = [(0.0, 0.0); 5];
        for (i, (slot, count)) in pdf.iter_mut().zip(regular).enumerate() {
            *slot = (i as f64 / 4.0, count / n);
        }
        (n, pdf)
    }

    /// The Elo difference of A over B, with the 95% margin from the pentanomial variance
    /// and the likelihood of superiority, as fishtest's `stat_util.get_elo` computes them:
    /// with `mu` the (regularised) score per game and `sigma^2` the variance of a pair's
    /// score per game over `N` pairs, the interval is `mu ± 1.96 sigma / sqrt(N)` turned
    /// into Elo, and `LOS = Phi((mu - 1/2) / (sigma / sqrt(N)))`. A match won or lost in
    /// every pair reads infinite, as [`Tally::elo`] does.
    pub fn elo(&self) -> (Elo, f64) {
        let pairs = self.pairs();
        if pairs == 0 {
            let none = Elo {
                diff: 0.0,
                margin: f64::INFINITY,
            };
            return (none, 0.5);
        }
        let (n, pdf) = self.pdf();
        let (mu, var) = mean_var(&pdf);
        let se = (var / n).sqrt();
        let los = phi((mu - 0.5) / se);
        let raw = self.score();
        if raw <= 0.0 || raw >= 1.0 {
            let diff = if raw <= 0.0 {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
            let elo = Elo {
                diff,
                margin: f64::INFINITY,
            };
            return (elo, los);
        }
        let elo = Elo {
            diff: clamped_elo(mu),
            margin: (clamped_elo(mu + Z95 * se) - clamped_elo(mu - Z95 * se)) / 2.0,
        };
        (elo, los)
    }
}

/// The mean and variance of a distribution given as `(value, probability)` pairs.
pub fn mean_var(pdf: &[(f64, f64)]) -> (f64, f64) {
    let mean: f64 = pdf.iter().map(|(v, p)| v * p).sum();
    let var = pdf.iter().map(|(v, p)| p * (v - mean).powi(2)).sum();
    (mean, var)
}

/// Elo of score `s`, kept within a score of 0.001 and 0.999 as fishtest's `elo` is.
fn clamped_elo(s: f64) -> f64 {
    elo_of(s.clamp(1e-3, 1.0 - 1e-3))
}

/// The expected score of a player `elo` points stronger (the logistic curve).
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The standard normal distribution function.
pub fn phi(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The complementary error function, within 1.2e-7 relative (the Chebyshev fit of
/// Numerical Recipes' `erfcc`): enough for a LOS read to a tenth of a percent.
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
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
    /// On a game clock: the least the player had left after a move (its increment not
    /// yet added), over every game.
    pub lowest_clock: Option<Duration>,
}

impl MoveStats {
    /// Adds another count of the same player's moves (a game played elsewhere).
    pub fn merge(&mut self, other: &MoveStats) {
        self.moves += other.moves;
        self.time += other.time;
        self.depth_sum += other.depth_sum;
        self.depth_moves += other.depth_moves;
        self.longest = self.longest.max(other.longest);
        self.worst_overrun = self.worst_overrun.max(other.worst_overrun);
        self.overruns += other.overruns;
        self.lowest_clock = match (self.lowest_clock, other.lowest_clock) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }

    /// Records what was left on the player's clock after a move.
    pub fn record_clock(&mut self, left: Duration) {
        self.lowest_clock = Some(self.lowest_clock.map_or(left, |l| l.min(left)));
    }

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
        assert!(even.to_string().starts_with("+0 ± "), "{even}");
        let sweep = tally(10, 0, 0).elo();
        assert!(sweep.diff.is_infinite());
        assert_eq!(sweep.to_string(), "+inf");
        assert_eq!(tally(0, 0, 3).elo().to_string(), "-inf");
    }

    fn penta(counts: [u32; 5]) -> Pentanomial {
        Pentanomial { counts }
    }

    /// Figures from fishtest's own `stat_util.get_elo` (run on these counts): a
    /// fishtest run of 93,468 pairs, and a small made-up one.
    #[test]
    fn pentanomial_figures_match_fishtest() {
        let (elo, los) = penta([10789, 19328, 33806, 19402, 10543]).elo();
        assert!((elo.diff - -0.773_577).abs() < 1e-4, "{elo:?}");
        assert!((elo.margin - 1.277_580).abs() < 1e-4, "{elo:?}");
        assert!((los - 0.117_659).abs() < 1e-5, "{los}");
        let (elo, los) = penta([2, 10, 30, 12, 6]).elo();
        assert!((elo.diff - 29.020_267).abs() < 1e-4, "{elo:?}");
        assert!((elo.margin - 41.539_629).abs() < 1e-4, "{elo:?}");
        assert!((los - 0.916_564).abs() < 1e-5, "{los}");
    }

    #[test]
    fn pairs_are_counted_by_half_points() {
        let mut p = Pentanomial::default();
        p.add(Score::Win, Score::Win);
        p.add(Score::Win, Score::Loss);
        p.add(Score::Draw, Score::Draw);
        p.add(Score::Loss, Score::Draw);
        p.add(Score::Draw, Score::Win);
        assert_eq!(p.counts, [0, 1, 2, 1, 1]);
        assert_eq!(p.pairs(), 5);
        assert!((p.score() - 0.6).abs() < 1e-12);
        // Paired openings cancel their bias: the same games as ten single results have
        // a wider trinomial margin than the pairs give.
        let t = tally(4, 4, 2);
        assert!((t.score() - p.score()).abs() < 1e-12);
        assert!(
            p.elo().0.margin < t.elo().margin,
            "{:?} {:?}",
            p.elo(),
            t.elo()
        );
        // A sweep is infinite; an empty count is even with no information.
        assert_eq!(penta([0, 0, 0, 0, 3]).elo().0.to_string(), "+inf");
        assert_eq!(Pentanomial::default().elo().1, 0.5);
    }

    #[test]
    fn normal_law() {
        assert!((phi(0.0) - 0.5).abs() < 1e-7);
        assert!((phi(Z95) - 0.975).abs() < 1e-7);
        assert!((phi(-1.0) - 0.158_655_25).abs() < 1e-7);
        assert!((score_of(0.0) - 0.5).abs() < 1e-12);
        assert!((elo_of(score_of(123.0)) - 123.0).abs() < 1e-9);
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
