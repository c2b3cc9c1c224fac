//! The rules that look at more than one position: how repetitions are judged. Shared by
//! the game record (which ends games by them) and the search (which scores by them).

use super::piece::Color;

/// Judges a cycle of plies that led back to a position already seen: `plies` gives, in
/// order, each ply's mover and whether it gave check. The side that checked with every
/// one of its moves while the other did not is the perpetual checker, and loses; if both
/// or neither checked throughout, nobody broke the rule and the repetition is a draw.
pub fn perpetual_checker(plies: impl IntoIterator<Item = (Color, bool)>) -> Option<Color> {
    let mut always = [true, true];
    let mut moved = [false, false];
    for (mover, check) in plies {
        always[mover.index()] &= check;
        moved[mover.index()] = true;
    }
    let red = always[0] && moved[0];
    let black = always[1] && moved[1];
    match (red, black) {
        (true, false) => Some(Color::Red),
        (false, true) => Some(Color::Black),
        _ => None,
    }
}

/// Plies without a capture after which the game is drawn: sixty moves by each side.
pub const SIXTY_MOVES: u32 = 120;

/// How many times a position must stand on the board for the repetition rule.
pub const REPETITIONS: usize = 3;

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, Red};

    #[test]
    fn one_sided_checking_loses() {
        let cycle = [(Red, true), (Black, false), (Red, true), (Black, false)];
        assert_eq!(perpetual_checker(cycle), Some(Red));
        let cycle = [(Black, true), (Red, false), (Black, true), (Red, true)];
        assert_eq!(perpetual_checker(cycle), Some(Black));
    }

    #[test]
    fn mutual_or_varied_checking_is_a_draw() {
        let both = [(Red, true), (Black, true), (Red, true), (Black, true)];
        assert_eq!(perpetual_checker(both), None);
        let varied = [(Red, true), (Black, false), (Red, false), (Black, false)];
        assert_eq!(perpetual_checker(varied), None);
    }
}
