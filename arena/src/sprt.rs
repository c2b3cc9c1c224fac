//! The sequential probability ratio test on game pairs, as fishtest runs it: a match
//! stops as soon as its pairs say, with the error rates asked for, whether A is `elo0`
//! or `elo1` stronger than B.
//!
//! # The test
//! Two hypotheses about the Elo difference of A over B, H0: `elo = elo0` and H1:
//! `elo = elo1` (`elo0 < elo1`). After each pair the log-likelihood ratio `LLR` of H1
//! against H0 is compared with Wald's bounds `a = ln(beta / (1 - alpha))` and
//! `b = ln((1 - beta) / alpha)`: below `a` H0 is accepted (A is not `elo1` better), above
//! `b` H1 is (A is not `elo0` or worse), in between the match goes on. `alpha` is the
//! chance of accepting H1 when H0 holds, `beta` of accepting H0 when H1 holds.
//!
//! # The likelihood ratio (fishtest's GSPRT)
//! The pairs' outcomes are a pentanomial distribution with unknown probabilities `p_i`
//! over the pair scores per game `x_i = 0, 1/4, 1/2, 3/4, 1`; the hypotheses fix only a
//! statistic of it, so the ratio is the generalized one (GSPRT): each hypothesis takes
//! the distribution that is most likely given the observed frequencies `p^_i` among those
//! it allows (fishtest's `LLRcalc.py`; M. Van den Bergh, "Support of the MLE of a
//! multinomial distribution", cantate.be/Fishtest). With `N` pairs,
//!
//! `LLR = N * sum_i p^_i * (ln p1_i - ln p0_i)`, where `pk_i = p^_i / (1 + x_k (x_i - s_k))`
//!
//! and `x_k` solves the secular equation `sum_i p^_i (x_i - s_k) / (1 + x_k (x_i - s_k)) = 0`
//! (so that `pk` has the mean `s_k`).
//!
//! - **Logistic Elo** (`model=logistic`, the default, the Elo this arena reports):
//!   `s_k = 1 / (1 + 10^(-elo_k / 400))`, the expected score (fishtest's `LLR_logistic`).
//! - **Normalized Elo** (`model=normalized`, fishtest's current default): the statistic is
//!   the t-value `(mu - 1/2) / sigma` of the pair score, at `t_k = sqrt(2) * nelo_k /
//!   (800 / ln 10)`; its maximum-likelihood distribution is found by the same secular
//!   equation, iterated (fishtest's `MLE_t_value`, `LLR_normalized`).
//!
//! Counts never seen are taken as 0.001 pairs, as fishtest's `regularize` does. For a
//! check by hand, the Brownian approximation of the logistic LLR (fishtest's `LLR_alt2`)
//! is `N (s1 - s0)(2 mu - s0 - s1) / (2 sigma^2)` with `mu` and `sigma^2` the pairs' mean
//! and variance: it is within a few percent of the exact figure near the bounds.

use std::fmt;

use crate::stats::{Pentanomial, mean_var, score_of};

/// Normalized Elo per unit of t-value: `800 / ln 10`.
const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// Which Elo the hypotheses are written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Model {
    /// The usual (logistic) Elo: a difference of `d` expects the score `1 / (1 + 10^(-d/400))`.
    Logistic,
    /// Normalized Elo: the t-value of the pair score, independent of the draw rate.
    Normalized,
}

/// A test's settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    /// H0's Elo difference (A over B).
    pub elo0: f64,
    /// H1's Elo difference; above `elo0`.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
    /// The Elo the bounds are written in.
    pub model: Model,
}

/// What a test decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hypothesis {
    /// H0 accepted: A is not `elo1` stronger.
    H0,
    /// H1 accepted: A is `elo1` stronger (rather than `elo0`).
    H1,
}

impl fmt::Display for Hypothesis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Hypothesis::H0 => "H0",
            Hypothesis::H1 => "H1",
        })
    }
}

/// Settings that do not make a test.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SprtError {
    #[error("'{0}': write KEY=VALUE with KEY elo0, elo1, alpha, beta or model")]
    Syntax(String),
    #[error("'{0}' is not a number")]
    Number(String),
    #[error("model is logistic or normalized, not '{0}'")]
    Model(String),
    #[error("elo0 ({0}) must be below elo1 ({1})")]
    Order(f64, f64),
    #[error("alpha and beta are error rates: above 0 and below 1/2, not {0}")]
    Rate(f64),
}

impl Default for Sprt {
    /// fishtest's classic bounds: elo0 = 0, elo1 = 5, alpha = beta = 0.05, logistic.
    fn default() -> Sprt {
        Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            model: Model::Logistic,
        }
    }
}

impl Sprt {
    /// Reads `elo0=0 elo1=5 alpha=0.05 beta=0.05 model=logistic` (any subset, in any
    /// order, as separate words or one); what is not given keeps [`Sprt::default`].
    pub fn parse<S: AsRef<str>>(words: &[S]) -> Result<Sprt, SprtError> {
        let mut sprt = Sprt::default();
        for word in words.iter().flat_map(|w| w.as_ref().split_whitespace()) {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| SprtError::Syntax(word.to_string()))?;
            let number = || {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| SprtError::Number(value.to_string()))
            };
            match key {
                "elo0" => sprt.elo0 = number()?,
                "elo1" => sprt.elo1 = number()?,
                "alpha" => sprt.alpha = number()?,
                "beta" => sprt.beta = number()?,
                "model" => {
                    sprt.model = match value {
                        "logistic" => Model::Logistic,
                        "normalized" => Model::Normalized,
                        _ => return Err(SprtError::Model(value.to_string())),
                    }
                }
                _ => return Err(SprtError::Syntax(word.to_string())),
            }
        }
        if sprt.elo0 >= sprt.elo1 {
            return Err(SprtError::Order(sprt.elo0, sprt.elo1));
        }
        for rate in [sprt.alpha, sprt.beta] {
            if !(rate > 0.0 && rate < 0.5) {
                return Err(SprtError::Rate(rate));
            }
        }
        Ok(sprt)
    }

    /// Wald's bounds `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`: H0 below the
    /// first, H1 above the second.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after `pairs` (0 with no pairs yet).
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        let (n, pdf) = pairs.pdf();
        let fitted = |k: f64| match self.model {
            Model::Logistic => mle_with_mean(&pdf, score_of(k)),
            Model::Normalized => {
                mle_with_t_value(&pdf, 0.5, std::f64::consts::SQRT_2 * k / NELO_PER_T)
            }
        };
        let (Some(p0), Some(p1)) = (fitted(self.elo0), fitted(self.elo1)) else {
            return f64::NAN;
        };
        n * pdf
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|((_, p), (q0, q1))| p * (q1.ln() - q0.ln()))
            .sum::<f64>()
    }

    /// What `llr` decides, if anything yet.
    pub fn verdict(&self, llr: f64) -> Option<Hypothesis> {
        let (lower, upper) = self.bounds();
        if llr <= lower {
            Some(Hypothesis::H0)
        } else if llr >= upper {
            Some(Hypothesis::H1)
        } else {
            None
        }
    }

    /// About how many more pairs the test needs, if the pairs so far show the true
    /// drift: the distance to the bound the LLR heads for over its mean step so far
    /// (`llr / pairs`; the LLR of a GSPRT is `pairs` times a function of the observed
    /// distribution). `None` before any drift shows.
    pub fn pairs_to_go(&self, llr: f64, pairs: u32) -> Option<f64> {
        if pairs == 0 || !llr.is_finite() || llr == 0.0 {
            return None;
        }
        let (lower, upper) = self.bounds();
        let step = llr / f64::from(pairs);
        let distance = if step > 0.0 { upper - llr } else { llr - lower };
        Some((distance / step.abs()).max(0.0))
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let model = match self.model {
            Model::Logistic => "logistic",
            Model::Normalized => "normalized",
        };
        write!(
            f,
            "elo0={} elo1={} alpha={} beta={} model={model}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

/// The `x` that solves the secular equation `sum_i p_i a_i / (1 + x a_i) = 0` over
/// `(value a_i, probability p_i)`, by bisection: the sum falls from `+inf` to `-inf` on
/// `(-1 / max a, -1 / min a)`. `None` unless the `a_i` take both signs.
fn secular(pdf: &[(f64, f64)]) -> Option<f64> {
    let lowest = pdf.iter().map(|(a, _)| *a).fold(f64::INFINITY, f64::min);
    let highest = pdf
        .iter()
        .map(|(a, _)| *a)
        .fold(f64::NEG_INFINITY, f64::max);
    if !(lowest < 0.0 && highest > 0.0) {
        return None;
    }
    let f = |x: f64| pdf.iter().map(|(a, p)| p * a / (1.0 + x * a)).sum::<f64>();
    let (mut lo, mut hi) = (-1.0 / highest + 1e-9, -1.0 / lowest - 1e-9);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo < 1e-15 {
            break;
        }
    }
    Some((lo + hi) / 2.0)
}

/// The distribution over the same values most likely to give `pdf` among those with mean
/// `s` (fishtest's `MLE_expected`): `p_i / (1 + x (v_i - s))`. Its probabilities.
fn mle_with_mean(pdf: &[(f64, f64); 5], s: f64) -> Option<[f64; 5]> {
    let shifted = pdf.map(|(v, p)| (v - s, p));
    let x = secular(&shifted)?;
    Some(shifted.map(|(a, p)| p / (1.0 + x * a)))
}

/// The distribution most likely to give `pdf` among those whose t-value
/// `(mu - reference) / sigma` is `t` (fishtest's `MLE_t_value`: the secular equation,
/// iterated from the uniform distribution until it settles). Its probabilities.
fn mle_with_t_value(pdf: &[(f64, f64); 5], reference: f64, t: f64) -> Option<[f64; 5]> {
    let mut fitted = [0.2; 5];
    for _ in 0..10 {
        let with_values: Vec<(f64, f64)> =
            pdf.iter().zip(fitted).map(|((v, _), q)| (*v, q)).collect();
        let (mu, var) = mean_var(&with_values);
        let sigma = var.sqrt();
        let shifted = pdf.map(|(v, p)| {
            let z = (mu - v) / sigma;
            (v - reference - t * sigma * (1.0 + z * z) / 2.0, p)
        });
        let x = secular(&shifted)?;
        let next = shifted.map(|(a, p)| p / (1.0 + x * a));
        let settled = next.iter().zip(&fitted).all(|(a, b)| (a - b).abs() < 1e-9);
        fitted = next;
        if settled {
            break;
        }
    }
    Some(fitted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::stats::Score;

    fn penta(counts: [u32; 5]) -> Pentanomial {
        Pentanomial { counts }
    }

    fn sprt(words: &str) -> Sprt {
        Sprt::parse(&[words]).unwrap()
    }

    #[test]
    fn settings_parse() {
        assert_eq!(Sprt::parse::<&str>(&[]), Ok(Sprt::default()));
        let s = Sprt::parse(&["elo0=-1.5", "elo1=3", "alpha=0.1 beta=0.2"]).unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-1.5, 3.0, 0.1, 0.2));
        assert_eq!(sprt("model=normalized").model, Model::Normalized);
        assert!(matches!(
            Sprt::parse(&["elo0=5 elo1=0"]),
            Err(SprtError::Order(..))
        ));
        assert!(matches!(Sprt::parse(&["alpha=0"]), Err(SprtError::Rate(_))));
        assert!(matches!(
            Sprt::parse(&["elo1=x"]),
            Err(SprtError::Number(_))
        ));
        assert!(matches!(
            Sprt::parse(&["elo2=1"]),
            Err(SprtError::Syntax(_))
        ));
        assert!(matches!(
            Sprt::parse(&["model=bayes"]),
            Err(SprtError::Model(_))
        ));
        let (lower, upper) = Sprt::default().bounds();
        assert!((lower - -2.944_439).abs() < 1e-6 && (upper - 2.944_439).abs() < 1e-6);
    }

    /// LLRs from fishtest's own `LLRcalc.LLR_logistic` and `LLR_normalized`, run on these
    /// counts (the first is a fishtest run's).
    #[test]
    fn llr_matches_fishtest() {
        let big = penta([10789, 19328, 33806, 19402, 10543]);
        let close = |a: f64, b: f64| (a - b).abs() < 1e-4 * b.abs().max(1.0);
        let l = sprt("elo0=-3 elo1=1").llr(&big);
        assert!(close(l, 2.131_068), "{l}");
        let l = sprt("elo0=0 elo1=5").llr(&big);
        assert!(close(l, -38.514_408), "{l}");
        let l = sprt("elo0=0 elo1=5 model=normalized").llr(&big);
        assert!(close(l, -26.838_449), "{l}");
        let small = penta([2, 10, 30, 12, 6]);
        let l = sprt("elo0=0 elo1=5").llr(&small);
        assert!(close(l, 0.300_301), "{l}");
        let l = sprt("elo0=0 elo1=5 model=normalized").llr(&small);
        assert!(close(l, 0.204_904), "{l}");
    }

    /// Twenty pairs, checked by hand with the Brownian approximation: pair scores per game
    /// 0 (1 pair), 1/4 (3), 1/2 (8), 3/4 (5), 1 (3) give mu = 11.5/20 = 0.575 and
    /// sigma^2 = (0.330625 + 3 * 0.105625 + 8 * 0.005625 + 5 * 0.030625 + 3 * 0.180625)
    /// / 20 = 0.0693750. For elo0 = 0, elo1 = 5: s0 = 0.5, s1 = 1 / (1 + 10^(-5/400)) =
    /// 0.5071945, so LLR ~ 20 * 0.0071945 * (1.15 - 1.0071945) / (2 * 0.069375) =
    /// 0.148107. The exact GSPRT is a little lower (fishtest: 0.137773).
    #[test]
    fn llr_by_hand() {
        let p = penta([1, 3, 8, 5, 3]);
        let s = Sprt::default();
        let (_, pdf) = p.pdf();
        let (mu, var) = mean_var(&pdf);
        let (s0, s1) = (score_of(s.elo0), score_of(s.elo1));
        let brownian = 20.0 * (s1 - s0) * (2.0 * mu - s0 - s1) / (2.0 * var);
        assert!((brownian - 0.148_107).abs() < 1e-5, "{brownian}");
        let exact = s.llr(&p);
        assert!((exact - 0.137_773).abs() < 1e-5, "{exact}");
        assert_eq!(s.verdict(exact), None);
        assert_eq!(s.llr(&Pentanomial::default()), 0.0);
    }

    /// Plays pairs from `outcome` until the test decides; returns the verdict and pairs.
    fn run(s: &Sprt, mut outcome: impl FnMut() -> (Score, Score)) -> (Hypothesis, u32) {
        let mut pairs = Pentanomial::default();
        for _ in 0..100_000 {
            let (a, b) = outcome();
            pairs.add(a, b);
            if let Some(h) = s.verdict(s.llr(&pairs)) {
                return (h, pairs.pairs());
            }
        }
        panic!("no decision after 100000 pairs");
    }

    fn draw(rng: &mut Rng, win: u64, draw: u64) -> Score {
        let r = rng.below(100) as u64;
        if r < win {
            Score::Win
        } else if r < win + draw {
            Score::Draw
        } else {
            Score::Loss
        }
    }

    #[test]
    fn lopsided_play_accepts_h1_and_even_play_h0() {
        let s = sprt("elo0=0 elo1=5");
        // A wins 60% of its games and loses 20%: +147 Elo, far above 5. The LLR climbs
        // about (s1 - s0)(2 mu - s0 - s1) / (2 sigma^2) = 0.0072 * 0.393 / 0.16 = 0.018
        // a pair, so the bound (2.94) is some 170 pairs away.
        let mut rng = Rng::new(1);
        let (h, n) = run(&s, || (draw(&mut rng, 60, 20), draw(&mut rng, 60, 20)));
        assert_eq!(h, Hypothesis::H1);
        assert!(n < 500, "{n} pairs");
        // Even play (40% wins, 20% draws, 40% losses): H0, in a few thousand pairs.
        let mut rng = Rng::new(2);
        let (h, n) = run(&s, || (draw(&mut rng, 40, 20), draw(&mut rng, 40, 20)));
        assert_eq!(h, Hypothesis::H0);
        assert!(n > 100, "{n} pairs");
        // The same both ways for normalized bounds.
        let s = sprt("elo0=0 elo1=5 model=normalized");
        let mut rng = Rng::new(3);
        assert_eq!(
            run(&s, || (draw(&mut rng, 60, 20), draw(&mut rng, 60, 20))).0,
            Hypothesis::H1
        );
        let mut rng = Rng::new(4);
        assert_eq!(
            run(&s, || (draw(&mut rng, 40, 20), draw(&mut rng, 40, 20))).0,
            Hypothesis::H0
        );
    }

    #[test]
    fn pairs_to_go_follow_the_drift() {
        let s = Sprt::default();
        assert_eq!(s.pairs_to_go(0.0, 0), None);
        // Half way to the upper bound in 10 pairs: about 10 more.
        let (_, upper) = s.bounds();
        let to_go = s.pairs_to_go(upper / 2.0, 10).unwrap();
        assert!((to_go - 10.0).abs() < 1e-9, "{to_go}");
        let (lower, _) = s.bounds();
        let to_go = s.pairs_to_go(lower / 4.0, 10).unwrap();
        assert!((to_go - 30.0).abs() < 1e-9, "{to_go}");
    }
}
