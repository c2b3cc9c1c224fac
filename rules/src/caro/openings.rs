//! Balanced openings: three-stone starts that a search scores close to even, so the first
//! player's advantage on an empty board (Web Caro's point about gomoku without an opening
//! rule) is gone. A room can deal one to every game.
//!
//! The shapes live in `openings.txt` (the engine's copy of the arena's list), written as
//! offsets from the board's centre so one list serves every board size. Each shape comes
//! in its eight orientations (rotations and mirror images play the same under every
//! rule), so a room draws from eight times as many openings as the file holds.
//!
//! The engine has no randomness of its own: callers pass a random number in.

use std::sync::OnceLock;

use super::board::Point;

/// The shipped list: one opening per line, `dx,dy` offsets from the centre point
/// (`width / 2`, `height / 2`) in playing order (X, O, X), `#` starts a comment.
const SHIPPED: &str = include_str!("openings.txt");

/// The smallest board side a balanced opening is dealt on: the openings were measured on
/// 15x15, and on a smaller board three stones in the middle leave too little game for
/// "balanced" to mean much.
pub const BALANCED_MIN_SIDE: u8 = 7;

/// The eight orientations of a shape: `(dx, dy)` to the offset it is placed at.
const ORIENTATIONS: usize = 8;

/// One opening as a shape around the centre.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    /// Offsets from the centre point, in playing order (X first).
    stones: Vec<(i8, i8)>,
}

impl Shape {
    /// The offsets from the centre, in playing order.
    pub fn offsets(&self) -> &[(i8, i8)] {
        &self.stones
    }

    /// The stones on a `width` x `height` board in orientation `orientation` (0..8; 0 is
    /// the shape as written), or `None` if a stone would fall off the board.
    pub fn place(&self, width: u8, height: u8, orientation: usize) -> Option<Vec<Point>> {
        let (cx, cy) = (i32::from(width / 2), i32::from(height / 2));
        self.stones
            .iter()
            .map(|&(dx, dy)| {
                let (dx, dy) = orient(i32::from(dx), i32::from(dy), orientation);
                let (x, y) = (cx + dx, cy + dy);
                let on = (0..i32::from(width)).contains(&x) && (0..i32::from(height)).contains(&y);
                on.then(|| Point::new(x as u8, y as u8))
            })
            .collect()
    }
}

/// `(dx, dy)` turned and mirrored into orientation `o` (taken modulo 8).
fn orient(dx: i32, dy: i32, o: usize) -> (i32, i32) {
    let (dx, dy) = if o & 4 != 0 { (dy, dx) } else { (dx, dy) };
    let dx = if o & 1 != 0 { -dx } else { dx };
    let dy = if o & 2 != 0 { -dy } else { dy };
    (dx, dy)
}

/// The balanced openings shipped with the engine, parsed once.
pub fn balanced() -> &'static [Shape] {
    static SHAPES: OnceLock<Vec<Shape>> = OnceLock::new();
    SHAPES.get_or_init(|| parse(SHIPPED).expect("the shipped openings parse (a test reads them)"))
}

/// A balanced opening for a `width` x `height` board, chosen by `roll` (any random number:
/// it picks the shape and its orientation). `None` on a board too small for one (see
/// [`BALANCED_MIN_SIDE`]).
pub fn random_balanced(width: u8, height: u8, roll: u64) -> Option<Vec<Point>> {
    if width < BALANCED_MIN_SIDE || height < BALANCED_MIN_SIDE {
        return None;
    }
    let shapes = balanced();
    let count = (shapes.len() * ORIENTATIONS) as u64;
    let pick = (roll % count) as usize;
    shapes[pick / ORIENTATIONS].place(width, height, pick % ORIENTATIONS)
}

/// Reads an openings list; `Err` names the first bad line.
pub fn parse(text: &str) -> Result<Vec<Shape>, String> {
    let mut shapes = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let body = line.split('#').next().unwrap_or_default().trim();
        if body.is_empty() {
            continue;
        }
        let stones = body
            .split_whitespace()
            .map(|token| {
                let (dx, dy) = token.split_once(',')?;
                Some((dx.trim().parse().ok()?, dy.trim().parse().ok()?))
            })
            .collect::<Option<Vec<(i8, i8)>>>()
            .ok_or_else(|| format!("line {}: write offsets like 0,1 -1,-1 1,2", i + 1))?;
        shapes.push(Shape { stones });
    }
    if shapes.is_empty() {
        return Err("there are no openings in the list".into());
    }
    Ok(shapes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::caro::{Game, Rule, Stone};
    use std::collections::HashSet;

    #[test]
    fn the_shipped_list_holds_fifty_distinct_three_stone_openings() {
        let shapes = balanced();
        assert_eq!(shapes.len(), 50);
        let distinct: HashSet<&[(i8, i8)]> = shapes.iter().map(Shape::offsets).collect();
        assert_eq!(distinct.len(), 50);
        for s in shapes {
            assert_eq!(s.offsets().len(), 3);
            assert!(
                s.offsets()
                    .iter()
                    .all(|&(dx, dy)| dx.abs() <= 2 && dy.abs() <= 2)
            );
        }
    }

    #[test]
    fn every_opening_in_every_orientation_starts_a_game_on_every_board_and_rule() {
        let sides = [7u8, 8, 9, 15, 19, 20, 64];
        for (i, shape) in balanced().iter().enumerate() {
            for o in 0..ORIENTATIONS {
                for &w in &sides {
                    for &h in &sides {
                        let stones = shape.place(w, h, o).expect("fits");
                        for rule in Rule::ALL {
                            let g = Game::with_opening(u32::from(w), u32::from(h), rule, &stones)
                                .unwrap_or_else(|e| panic!("opening {i} on {w}x{h}: {e}"));
                            assert_eq!(g.to_move(), Stone::O);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn orientations_are_the_eight_symmetries_of_the_square() {
        let shape = Shape {
            stones: vec![(1, 2), (0, -1), (-2, 0)],
        };
        let placed: HashSet<Vec<Point>> = (0..ORIENTATIONS)
            .map(|o| shape.place(15, 15, o).unwrap())
            .collect();
        assert_eq!(
            placed.len(),
            8,
            "an asymmetric shape has eight distinct images"
        );
        assert_eq!(
            shape.place(15, 15, 0).unwrap(),
            [Point::new(8, 9), Point::new(7, 6), Point::new(5, 7)]
        );
        // Rectangular boards centre each axis on its own.
        assert_eq!(
            shape.place(20, 9, 0).unwrap(),
            [Point::new(11, 6), Point::new(10, 3), Point::new(8, 4)]
        );
        assert_eq!(shape.place(5, 5, 0).map(|s| s.len()), Some(3));
        let far = Shape {
            stones: vec![(3, 0)],
        };
        assert_eq!(far.place(5, 5, 0), None);
    }

    #[test]
    fn random_picks_cover_the_list_and_small_boards_get_none() {
        let mut seen = HashSet::new();
        for roll in 0..400u64 {
            seen.insert(random_balanced(15, 15, roll).unwrap());
        }
        assert!(
            seen.len() > 300,
            "rolls reach most openings: {}",
            seen.len()
        );
        assert_eq!(random_balanced(15, 15, 7), random_balanced(15, 15, 7 + 400));
        assert!(random_balanced(6, 15, 1).is_none());
        assert!(random_balanced(15, 6, 1).is_none());
        assert!(random_balanced(7, 7, u64::MAX).is_some());
    }

    #[test]
    fn bad_lists_are_refused_with_the_line() {
        assert_eq!(
            parse("# nothing\n\n").unwrap_err(),
            "there are no openings in the list"
        );
        let e = parse("0,0 1,1\n0,0 x,1\n").unwrap_err();
        assert!(e.starts_with("line 2:"), "{e}");
        assert!(parse("0,0 300,1").is_err());
        assert_eq!(
            parse("0,1 -1,0 # c").unwrap()[0].offsets(),
            [(0, 1), (-1, 0)]
        );
    }
}
