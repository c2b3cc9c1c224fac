//! Elo ratings: every account starts at 1600 (seed 001's start), and K = 24 makes a game
//! between equals worth 12 points either way (seed 001's +-12).

/// A new account's rating.
pub const START: f64 = 1600.0;
/// How far one game moves a rating.
pub const K: f64 = 24.0;

/// The score `a` is expected to take from a game against `b` (1 = certain win).
pub fn expected(a: f64, b: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((b - a) / 400.0))
}

/// Both ratings after a game in which `a` scored `score_a` (1 win, 0.5 draw, 0 loss).
pub fn update(a: f64, b: f64, score_a: f64) -> (f64, f64) {
    let delta = K * (score_a - expected(a, b));
    (a + delta, b - delta)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equals_trade_twelve_points() {
        let (a, b) = update(START, START, 1.0);
        assert!((a - 1612.0).abs() < 1e-9 && (b - 1588.0).abs() < 1e-9);
        let (a, b) = update(START, START, 0.5);
        assert!((a - START).abs() < 1e-9 && (b - START).abs() < 1e-9);
    }

    #[test]
    fn upsets_move_more_than_expected_results() {
        let (strong, weak) = (1800.0, 1400.0);
        let (s_win, _) = update(strong, weak, 1.0);
        let (s_loss, w_after) = update(strong, weak, 0.0);
        assert!(s_win - strong < 3.0, "an expected win is worth little");
        assert!(strong - s_loss > 20.0, "an upset costs a lot");
        assert!(
            (w_after - weak) - (strong - s_loss) < 1e-9,
            "points are conserved"
        );
        assert!((expected(strong, weak) + expected(weak, strong) - 1.0).abs() < 1e-12);
    }
}
