//! Writing points for people and programs.
//!
//! Two forms are read: `x,y` (0-based column and row from the top-left, the Gomocup
//! protocol's form) and `h8` (a column letter from `a`, then the row counted from 1 at the
//! bottom, as gomoku diagrams are labelled). Letters only work up to 26 columns.

use super::board::Point;

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
