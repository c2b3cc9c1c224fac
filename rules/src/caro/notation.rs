//! Writing points for people and programs.
//!
//! Two forms are read: `x,y` (0-based column and row from the top-left, the Gomocup
//! protocol's form) and `h8` (a column letter from `a`, then the row counted from 1 at the
//! bottom, as gomoku diagrams are labelled). Letters only work up to 26 columns.
//!
//! Also here, because every front end reads and writes them the same way: a list of
//! stones (`h8 i9 h10`, an opening) and a board size (`15`, `20x15`).

use super::board::{MAX_SIDE, MIN_SIDE, Point};

/// Text that does not name a point on the board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PointError {
    #[error("'{0}' is not a point: write x,y (0-based column,row) or a letter and a row like h8")]
    Syntax(String),
    #[error("{x},{y} is off the {width}x{height} board")]
    OffBoard {
        x: u32,
        y: u32,
        width: u8,
        height: u8,
    },
    #[error("letter coordinates need a board of at most 26 columns; use x,y")]
    TooWideForLetters,
}

/// Reads `x,y` or `h8` on a `width` x `height` board.
pub fn parse_point(text: &str, width: u8, height: u8) -> Result<Point, PointError> {
    let t = text.trim();
    let syntax = || PointError::Syntax(t.to_string());
    let (x, y) = if let Some((xs, ys)) = t.split_once(',') {
        let x: u32 = xs.trim().parse().map_err(|_| syntax())?;
        let y: u32 = ys.trim().parse().map_err(|_| syntax())?;
        (x, y)
    } else {
        let mut chars = t.chars();
        let letter = chars
            .next()
            .filter(char::is_ascii_alphabetic)
            .ok_or_else(syntax)?;
        let row: u32 = chars.as_str().parse().map_err(|_| syntax())?;
        if width > 26 {
            return Err(PointError::TooWideForLetters);
        }
        let x = u32::from(letter.to_ascii_lowercase() as u8 - b'a');
        if row == 0 || row > u32::from(height) {
            return Err(PointError::OffBoard {
                x,
                y: u32::MAX,
                width,
                height,
            });
        }
        (x, u32::from(height) - row)
    };
    if x >= u32::from(width) || y >= u32::from(height) {
        return Err(PointError::OffBoard {
            x,
            y,
            width,
            height,
        });
    }
    Ok(Point::new(x as u8, y as u8))
}

/// `h8`-style name of `p` on a board of `height` rows, if the column has a letter.
pub fn letter_name(p: Point, height: u8) -> Option<String> {
    if p.x >= 26 || p.y >= height {
        return None;
    }
    Some(format!("{}{}", (b'a' + p.x) as char, height - p.y))
}

/// How a point is written for people on a board of this size: `h8` where columns have
/// letters (at most 26), else `x,y`.
pub fn point_name(p: Point, width: u8, height: u8) -> String {
    if width <= 26 {
        letter_name(p, height).unwrap_or_else(|| p.to_string())
    } else {
        p.to_string()
    }
}

/// Reads typed stones for a `width` x `height` board: points separated by spaces, `;`
/// or (for letter points, and for pairs of numbers) commas, so `h8,j9,h10`, `h8 j9 h10`,
/// `7,7 8,8 6,9` and `7,7,8,8,6,9` all read the same way. `Err` says which stone is wrong
/// and why. Whether a game can start from them is the game's question.
pub fn parse_stones(text: &str, width: u8, height: u8) -> Result<Vec<Point>, String> {
    let mut stones = Vec::new();
    for token in text
        .split(|c: char| c.is_whitespace() || c == ';')
        .filter(|t| !t.is_empty())
    {
        let parts: Vec<&str> = token.split(',').filter(|p| !p.is_empty()).collect();
        let numbers = parts.iter().all(|p| p.chars().all(|c| c.is_ascii_digit()));
        let points: Vec<String> = if numbers {
            if !parts.len().is_multiple_of(2) {
                return Err(format!(
                    "'{token}' has an odd count of numbers: write column,row pairs like 7,7 8,8"
                ));
            }
            parts.chunks(2).map(|xy| xy.join(",")).collect()
        } else {
            parts.iter().map(|p| p.to_string()).collect()
        };
        for point in points {
            let p = parse_point(&point, width, height)
                .map_err(|e| format!("opening stone {}: {e}", stones.len() + 1))?;
            stones.push(p);
        }
    }
    if stones.is_empty() {
        return Err("write the opening stones, X first: like h8,i9,h10 or 7,7 8,8 7,9".into());
    }
    Ok(stones)
}

/// Stones as the board labels them, X first: `h8 i9 h10` (or `x,y` on wide boards).
pub fn stones_text(stones: &[Point], width: u8, height: u8) -> String {
    stones
        .iter()
        .map(|p| point_name(*p, width, height))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads a board size: `15` (square) or `20x15` (width x height), each side from
/// [`MIN_SIDE`] to [`MAX_SIDE`]. `Err` is a sentence.
pub fn parse_size(text: &str) -> Result<(u8, u8), String> {
    let t = text.trim().to_ascii_lowercase();
    let (w, h) = t.split_once('x').unwrap_or((&t, &t));
    let side = |s: &str| s.trim().parse::<u32>().ok();
    let sides = u32::from(MIN_SIDE)..=u32::from(MAX_SIDE);
    match (side(w), side(h)) {
        (Some(w), Some(h)) if sides.contains(&w) && sides.contains(&h) => Ok((w as u8, h as u8)),
        (Some(_), Some(_)) => Err(format!(
            "a board is {MIN_SIDE} to {MAX_SIDE} points on each side, not {text}"
        )),
        _ => Err(format!("'{text}' is not a board size: write 15 or 20x15")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_forms() {
        assert_eq!(parse_point("7,7", 15, 15), Ok(Point::new(7, 7)));
        assert_eq!(parse_point(" 0 , 14 ", 15, 15), Ok(Point::new(0, 14)));
        assert_eq!(parse_point("h8", 15, 15), Ok(Point::new(7, 7)));
        assert_eq!(parse_point("A1", 15, 15), Ok(Point::new(0, 14)));
        assert_eq!(parse_point("a15", 15, 15), Ok(Point::new(0, 0)));
        assert_eq!(letter_name(Point::new(7, 7), 15).as_deref(), Some("h8"));
        assert_eq!(letter_name(Point::new(0, 0), 20).as_deref(), Some("a20"));
    }

    #[test]
    fn stones_and_sizes_read_in_every_form() {
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
        assert!(parse_stones("", 15, 15).unwrap_err().contains("X first"));
        assert!(
            parse_stones("h8,z99", 15, 15)
                .unwrap_err()
                .starts_with("opening stone 2:")
        );
        assert!(parse_stones("7,7,8", 15, 15).unwrap_err().contains("odd"));
        assert_eq!(point_name(p(27, 3), 30, 30), "27,3");
        assert_eq!(parse_size("15"), Ok((15, 15)));
        assert_eq!(parse_size(" 20x15 "), Ok((20, 15)));
        assert!(parse_size("99").unwrap_err().contains("5 to 64"));
        assert!(parse_size("big").unwrap_err().contains("not a board size"));
    }

    #[test]
    fn refuses_bad_text() {
        assert!(matches!(
            parse_point("15,0", 15, 15),
            Err(PointError::OffBoard { .. })
        ));
        assert!(matches!(
            parse_point("p1", 15, 15),
            Err(PointError::OffBoard { .. })
        ));
        assert!(matches!(
            parse_point("a0", 15, 15),
            Err(PointError::OffBoard { .. })
        ));
        assert!(matches!(
            parse_point("a16", 15, 15),
            Err(PointError::OffBoard { .. })
        ));
        assert!(matches!(
            parse_point("x", 15, 15),
            Err(PointError::Syntax(_))
        ));
        assert!(matches!(
            parse_point("-1,3", 15, 15),
            Err(PointError::Syntax(_))
        ));
        assert!(matches!(
            parse_point("", 15, 15),
            Err(PointError::Syntax(_))
        ));
        assert!(matches!(
            parse_point("7;7", 15, 15),
            Err(PointError::Syntax(_))
        ));
        assert_eq!(
            parse_point("a1", 30, 30),
            Err(PointError::TooWideForLetters)
        );
    }
}
