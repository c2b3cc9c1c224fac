//! Caro openings as people type and read them: `h8,j9,h10` or `7,7 8,8 6,9` (the same
//! point forms as a move), checked by the rules before anything is sent, and written
//! back the way the board labels them. The plain mode's `--opening`, the create form's
//! typed stones and record files' `opening:` header all read through here.

use banco_protocol::{CaroOpening, Point};
use banco_rules::caro::{self, Rule};

/// Reads typed stones for a `width` x `height` board (the rules' notation: `h8,j9,h10`,
/// `7,7 8,8 6,9`, ...). `Err` says which stone is wrong and why.
pub fn parse_stones(text: &str, width: u8, height: u8) -> Result<Vec<Point>, String> {
    caro::notation::parse_stones(text, width, height)
}

/// Reads typed stones and checks that a game can start from them on this board under
/// `rule` (every stone on its own point, no five already made).
pub fn checked_stones(text: &str, width: u8, height: u8, rule: Rule) -> Result<Vec<Point>, String> {
    let stones = parse_stones(text, width, height)?;
    caro::Game::with_opening(u32::from(width), u32::from(height), rule, &stones)
        .map_err(|e| e.to_string())?;
    Ok(stones)
}

/// Stones as the board labels them, X first: `h8 i9 h10` (or `x,y` on wide boards).
pub fn stones_text(stones: &[Point], width: u8, height: u8) -> String {
    caro::notation::stones_text(stones, width, height)
}

/// The word a room's opening setting goes by in plain mode and JSON: `none`,
/// `balanced`, or the stones.
pub fn setting_text(opening: &CaroOpening, width: u8, height: u8) -> String {
    match opening {
        CaroOpening::None => "none".into(),
        CaroOpening::Balanced => "balanced".into(),
        CaroOpening::Swap1 => "swap1".into(),
        CaroOpening::Swap2 => "swap2".into(),
        CaroOpening::Stones(stones) => stones_text(stones, width, height),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stones_read_in_every_form_a_move_takes() {
        let p = Point::new;
        let want = vec![p(7, 7), p(8, 6), p(7, 5)];
        for text in [
            "h8,i9,h10",
            "h8 i9 h10",
            "7,7 8,6 7,5",
            "7,7,8,6,7,5",
            " h8; 8,6 h10 ",
        ] {
            assert_eq!(parse_stones(text, 15, 15), Ok(want.clone()), "{text}");
        }
        assert_eq!(stones_text(&want, 15, 15), "h8 i9 h10");
        assert_eq!(stones_text(&want, 30, 30), "7,7 8,6 7,5");
        assert_eq!(
            parse_stones(&stones_text(&want, 15, 15), 15, 15),
            Ok(want.clone())
        );
    }

    #[test]
    fn bad_stones_say_which_and_why() {
        assert!(parse_stones("", 15, 15).unwrap_err().contains("X first"));
        let e = parse_stones("h8,z99", 15, 15).unwrap_err();
        assert!(e.starts_with("opening stone 2:"), "{e}");
        assert!(parse_stones("7,7,8", 15, 15).unwrap_err().contains("odd"));
        let e = checked_stones("h8 h8", 15, 15, Rule::Caro).unwrap_err();
        assert!(e.contains("stone 1 already holds"), "{e}");
        let five = "a1 a3 b1 b3 c1 c3 d1 d3 e1";
        let e = checked_stones(five, 15, 15, Rule::Freestyle).unwrap_err();
        assert!(e.contains("winning line for X"), "{e}");
    }
}
