//! Ratings: Glicko-2 (the `skillratings` crate), one rating per game kind, so a
//! xiangqi master who never played caro is not "1800" at caro. Everyone starts at 1500
//! with a deviation of 350; a rating is provisional (shown `1500?`, not ranked) while its
//! deviation is above 110, as on lichess.
//!
//! Farming: the same two players' rated games within a day count less and less (the
//! n-th with weight 1/n: the update moves each rating 1/n of the way Glicko-2 says) and
//! from the sixth on not at all, so two connections of one person cannot pump a rating
//! by trading wins, while a real evening of a few games between friends counts.

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

/// A rating above this deviation is provisional.
pub const PROVISIONAL: f64 = 110.0;

/// The span within which repeated games between the same two players count less.
pub const FARMING_WINDOW_MS: i64 = 24 * 3600 * 1000;

/// From this many rated games between the same two players within the window on, a game
/// no longer counts.
pub const FARMING_LIMIT: u32 = 6;

/// A Glicko-2 rating as stored.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Glicko {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Glicko {
    fn default() -> Glicko {
        let r = Glicko2Rating::new();
        Glicko {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

impl Glicko {
    /// Too uncertain to rank.
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL
    }

    /// The wire's form, rounded.
    pub fn to_wire(self) -> banco_protocol::Rating {
        banco_protocol::Rating {
            rating: self.rating.round() as i32,
            deviation: self.deviation.round().clamp(0.0, f64::from(u16::MAX)) as u16,
            provisional: self.provisional(),
        }
    }

    fn skill(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn from_skill(r: Glicko2Rating) -> Glicko {
        Glicko {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }

    /// Moves `self` `weight` of the way towards `to` (1: all the way).
    fn towards(self, to: Glicko, weight: f64) -> Glicko {
        let mix = |a: f64, b: f64| a + weight * (b - a);
        Glicko {
            rating: mix(self.rating, to.rating),
            deviation: mix(self.deviation, to.deviation),
            volatility: mix(self.volatility, to.volatility),
        }
    }
}

/// Both ratings after a game in which `one` scored `score_one` (1 win, 0.5 draw, 0
/// loss), counted with `weight` (see [`weight`]).
pub fn update(one: Glicko, two: Glicko, score_one: f64, weight: f64) -> (Glicko, Glicko) {
    let outcome = if score_one > 0.75 {
        Outcomes::WIN
    } else if score_one < 0.25 {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    };
    let (a, b) = glicko2(&one.skill(), &two.skill(), &outcome, &Glicko2Config::new());
    (
        one.towards(Glicko::from_skill(a), weight),
        two.towards(Glicko::from_skill(b), weight),
    )
}

/// How much the `nth` (from 1) rated game between the same two players within
/// [`FARMING_WINDOW_MS`] counts: 1, 1/2, 1/3, ... and 0 from [`FARMING_LIMIT`] on.
pub fn weight(nth: u32) -> f64 {
    if nth == 0 || nth >= FARMING_LIMIT {
        0.0
    } else {
        1.0 / f64::from(nth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_win_between_newcomers_moves_both_and_leaves_them_provisional() {
        let (a, b) = update(Glicko::default(), Glicko::default(), 1.0, 1.0);
        assert!(a.rating > 1600.0 && a.rating < 1700.0, "{a:?}");
        assert!(
            (a.rating - 1500.0 + b.rating - 1500.0).abs() < 1e-6,
            "zero sum"
        );
        assert!(a.deviation < 350.0 && a.provisional());
        let (d, _) = update(Glicko::default(), Glicko::default(), 0.5, 1.0);
        assert!((d.rating - 1500.0).abs() < 1e-6);
    }

    #[test]
    fn ratings_settle_with_games() {
        let (mut a, mut b) = (Glicko::default(), Glicko::default());
        for i in 0..30 {
            (a, b) = update(a, b, if i % 3 == 0 { 0.0 } else { 1.0 }, 1.0);
        }
        assert!(!a.provisional(), "{a:?}");
        assert!(a.rating > b.rating);
        assert!(!a.to_wire().provisional);
        assert_eq!(Glicko::default().to_wire().to_string(), "1500?");
    }

    #[test]
    fn farming_counts_less_and_then_not_at_all() {
        assert_eq!(weight(1), 1.0);
        assert_eq!(weight(2), 0.5);
        assert_eq!(
            weight(FARMING_LIMIT - 1),
            1.0 / f64::from(FARMING_LIMIT - 1)
        );
        assert_eq!(weight(FARMING_LIMIT), 0.0);
        assert_eq!(weight(40), 0.0);
        // Forty wins in a row against the same account move a rating no more than the
        // first five counted games (weights 1 + 1/2 + ... + 1/5) would.
        let (mut a, mut b) = (Glicko::default(), Glicko::default());
        for n in 1..=40 {
            (a, b) = update(a, b, 1.0, weight(n));
        }
        let (mut c, mut d) = (Glicko::default(), Glicko::default());
        for _ in 0..5 {
            (c, d) = update(c, d, 1.0, 1.0);
        }
        assert!(a.rating < c.rating, "{a:?} {c:?}");
        let _ = (b, d);
        let (same, _) = update(Glicko::default(), Glicko::default(), 1.0, 0.0);
        assert_eq!(same, Glicko::default());
    }
}
