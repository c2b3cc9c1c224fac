//! Renju's forbidden points for Black, as the rules of the Renju International Federation
//! (RIF) define them.
//!
//! Black is the side that moved first: banco's X. White (O) has no forbidden point and
//! wins with five or more; Black wins with exactly five, and may not play:
//! - an **overline**: six or more of its stones in an unbroken row;
//! - a **double four**: a move that makes two or more fours at once (two on one line
//!   count, as in `X.XXX.X` when the middle stone is the move);
//! - a **double three**: a move that makes two or more threes at once.
//!
//! A move that makes a five is never forbidden, whatever else it makes (the five wins).
//!
//! The definitions, each read through the point played:
//! - A **five** is exactly five of Black's stones in an unbroken row.
//! - A **four** is a row of four stones that one more stone turns into a five. Fours are
//!   told apart by their four stones: the straight four `.XXXX.` has two points that
//!   make five but is one four; `X.XXX.X` with the move in the middle holds two.
//! - A **straight four** is a four with two points that make five.
//! - A **three** is a row of stones that one more stone turns into a straight four, on a
//!   point that is not itself forbidden. This is where the definition recurses: whether
//!   that point is forbidden is asked again with the three's stones on the board, so a
//!   "three" whose only straight-four point is a double three, a double four or an
//!   overline is no three at all (a *fake three*), and a move making it and another three
//!   is allowed. Nor is a point that makes a five elsewhere a straight-four point: Black
//!   there has a five, not a four (Piskvork's finder and Wenzhe Lu's read it so too).
//!
//! Every row counted must include the stone just played: a move forbids itself only
//! through what it makes.

use super::board::{Board, Point, Stone};
use super::rules::DIRECTIONS;

/// Black's stone in renju: the one that moves first.
pub const BLACK: Stone = Stone::X;

/// Why a point is forbidden to Black.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Foul {
    /// Six or more in a row.
    Overline,
    /// Two or more fours at once.
    DoubleFour,
    /// Two or more threes at once.
    DoubleThree,
}

impl Foul {
    /// The name players use: "overline", "double four", "double three".
    pub fn name(self) -> &'static str {
        match self {
            Foul::Overline => "overline",
            Foul::DoubleFour => "double four",
            Foul::DoubleThree => "double three",
        }
    }
}

impl std::fmt::Display for Foul {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Why Black may not play `p` on `board`, or `None` where it may (the point is empty and
/// not forbidden). A point that is off the board or taken is no foul: it is simply not a
/// move, and the caller says so.
pub fn foul(board: &Board, p: Point) -> Option<Foul> {
    if !board.is_empty_at(p) {
        return None;
    }
    let mut scratch = board.clone();
    foul_on(&mut scratch, p)
}

/// Every point forbidden to Black on `board`, with why, row by row.
pub fn forbidden_points(board: &Board) -> Vec<(Point, Foul)> {
    let mut scratch = board.clone();
    board
        .points()
        .filter(|&p| board.is_empty_at(p) && near_black(board, p))
        .filter_map(|p| foul_on(&mut scratch, p).map(|f| (p, f)))
        .collect()
}

/// Whether a black stone stands within four points of `p` on one of its lines: nothing
/// farther can take part in a row through `p`.
fn near_black(board: &Board, p: Point) -> bool {
    DIRECTIONS.iter().any(|&(dx, dy)| {
        (-4..=4).any(|k| k != 0 && stone(board, p, dx, dy, k) == Some(Some(BLACK)))
    })
}

/// The cell `k` steps from `p` along (dx, dy): `None` off the board.
fn stone(board: &Board, p: Point, dx: i32, dy: i32, k: i32) -> Option<Option<Stone>> {
    board.cell(i32::from(p.x) + dx * k, i32::from(p.y) + dy * k)
}

/// The point `k` steps from `p` along (dx, dy), if it is on the board.
fn step(board: &Board, p: Point, dx: i32, dy: i32, k: i32) -> Option<Point> {
    let x = i32::from(p.x) + dx * k;
    let y = i32::from(p.y) + dy * k;
    board.contains(x, y).then(|| Point::new(x as u8, y as u8))
}

/// The unbroken run of Black's stones through `p` along (dx, dy), as the steps from `p`
/// of its two ends (`p` itself must hold a black stone).
fn run(board: &Board, p: Point, dx: i32, dy: i32) -> (i32, i32) {
    let mut lo = 0;
    while stone(board, p, dx, dy, lo - 1) == Some(Some(BLACK)) {
        lo -= 1;
    }
    let mut hi = 0;
    while stone(board, p, dx, dy, hi + 1) == Some(Some(BLACK)) {
        hi += 1;
    }
    (lo, hi)
}

/// [`foul`] on a board the caller lets us write on; `p` is empty and stays so.
fn foul_on(board: &mut Board, p: Point) -> Option<Foul> {
    board.place(p, BLACK);
    let verdict = judge(board, p);
    board.remove(p);
    verdict
}

/// What Black's stone just placed on `p` makes, as a foul.
fn judge(board: &mut Board, p: Point) -> Option<Foul> {
    let runs = DIRECTIONS.map(|(dx, dy)| run(board, p, dx, dy));
    if runs.iter().any(|&(lo, hi)| hi - lo + 1 == 5) {
        return None;
    }
    if runs.iter().any(|&(lo, hi)| hi - lo + 1 >= 6) {
        return Some(Foul::Overline);
    }
    let fours: usize = DIRECTIONS
        .iter()
        .map(|&(dx, dy)| fours(board, p, dx, dy).len())
        .sum();
    if fours >= 2 {
        return Some(Foul::DoubleFour);
    }
    let threes = DIRECTIONS
        .iter()
        .filter(|&&(dx, dy)| is_three(board, p, dx, dy))
        .count();
    (threes >= 2).then_some(Foul::DoubleThree)
}

/// One four: its four stones, as the steps from `p` of their span and, for a broken four
/// (`XX.XX`), the gap inside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FourStones {
    lo: i32,
    hi: i32,
    gap: Option<i32>,
}

/// The fours through the black stone on `p` along (dx, dy), each with the steps from `p`
/// of the points that make it five. Fours are told apart by their stones: a straight four
/// is one four with two such points.
fn fours(board: &mut Board, p: Point, dx: i32, dy: i32) -> Vec<(FourStones, Vec<i32>)> {
    let mut found: Vec<(FourStones, Vec<i32>)> = Vec::new();
    for k in -4..=4 {
        if k == 0 || stone(board, p, dx, dy, k) != Some(None) {
            continue;
        }
        let Some(q) = step(board, p, dx, dy, k) else {
            continue;
        };
        board.place(q, BLACK);
        let (lo, hi) = run(board, p, dx, dy);
        board.remove(q);
        // A five through both `p` and `q`: its other four stones are the four.
        if hi - lo + 1 != 5 || k < lo || k > hi {
            continue;
        }
        let stones = if k == lo {
            FourStones {
                lo: lo + 1,
                hi,
                gap: None,
            }
        } else if k == hi {
            FourStones {
                lo,
                hi: hi - 1,
                gap: None,
            }
        } else {
            FourStones {
                lo,
                hi,
                gap: Some(k),
            }
        };
        match found.iter_mut().find(|(s, _)| *s == stones) {
            Some((_, ks)) => ks.push(k),
            None => found.push((stones, vec![k])),
        }
    }
    found
}

/// Whether the black stone on `p` makes a three along (dx, dy): a point `q` on that line
/// that turns it into a straight four through both, and that Black may play.
fn is_three(board: &mut Board, p: Point, dx: i32, dy: i32) -> bool {
    for k in -3..=3 {
        if k == 0 || stone(board, p, dx, dy, k) != Some(None) {
            continue;
        }
        let Some(q) = step(board, p, dx, dy, k) else {
            continue;
        };
        board.place(q, BLACK);
        let straight = fours(board, p, dx, dy)
            .iter()
            .any(|(four, ks)| ks.len() >= 2 && four.lo <= k && k <= four.hi);
        let five = DIRECTIONS.iter().any(|&(ex, ey)| {
            let (lo, hi) = run(board, q, ex, ey);
            hi - lo + 1 == 5
        });
        board.remove(q);
        if straight && !five && foul_on(board, q).is_none() {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::caro::notation::parse_point;

    /// A 15x15 board from `"X: h8 i9; O: g7"`.
    fn board(stones: &str) -> Board {
        let mut b = Board::new(15, 15).unwrap();
        for part in stones.split(';') {
            let (who, points) = part.trim().split_once(':').unwrap();
            let stone = if who.trim() == "X" {
                Stone::X
            } else {
                Stone::O
            };
            for name in points.split_whitespace() {
                b.place(parse_point(name, 15, 15).unwrap(), stone);
            }
        }
        b
    }

    fn at(b: &Board, name: &str) -> Option<Foul> {
        foul(b, parse_point(name, 15, 15).unwrap())
    }

    #[test]
    fn six_in_a_row_is_an_overline_and_exactly_five_wins() {
        let b = board("X: c8 d8 e8 g8 h8");
        assert_eq!(at(&b, "f8"), Some(Foul::Overline));
        let b = board("X: d8 e8 g8 h8");
        assert_eq!(at(&b, "f8"), None, "exactly five");
        // White is never forbidden anything: its stones make no foul for Black either.
        let b = board("O: c8 d8 e8 g8 h8");
        assert_eq!(at(&b, "f8"), None);
    }

    #[test]
    fn a_five_wins_even_when_it_makes_a_double_four_too() {
        // e8 makes a four across (c8 d8 e8 f8) and one down (e7 e6 e5): a double four.
        let b = board("X: c8 d8 f8 e7 e6 e5");
        assert_eq!(at(&b, "e8"), Some(Foul::DoubleFour));
        // With g8 too, e8 makes c8-g8: a five, which wins whatever else it makes.
        let b = board("X: c8 d8 f8 g8 e7 e6 e5");
        assert_eq!(at(&b, "e8"), None);
    }

    #[test]
    fn two_fours_on_one_line_are_a_double_four_and_a_straight_four_is_one() {
        // X.XXX.X once f8 is played: d8 and h8 each make a five of different stones.
        let b = board("X: c8 e8 g8 i8");
        assert_eq!(at(&b, "f8"), Some(Foul::DoubleFour));
        // e8 f8 g8 + h8: a straight four (d8 and i8 both make five) is one four.
        let b = board("X: e8 f8 g8");
        assert_eq!(at(&b, "h8"), None);
    }

    #[test]
    fn two_open_threes_are_a_double_three_and_a_blocked_one_is_no_three() {
        // i8 makes f8 g8 . i8 (a split three across) and i8 i7 i6 (a three down).
        let b = board("X: f8 g8 i7 i6");
        assert_eq!(at(&b, "i8"), Some(Foul::DoubleThree));
        // With White on e8 and j8, the row can no longer become a straight four.
        let b = board("X: f8 g8 i7 i6; O: e8 j8");
        assert_eq!(at(&b, "i8"), None);
        // A three and a four together are allowed (the classic winning 4-3).
        let b = board("X: f8 g8 h8 i7 i6");
        assert_eq!(at(&b, "i8"), None);
    }

    #[test]
    fn a_three_whose_four_point_is_forbidden_is_no_three() {
        // h8 would make two threes: f8 g8 h8 across, and h8 h9 h10 down. Down, the
        // straight four needs h11 or h7. h11 joins h12-h14 into h8-h14, seven: an
        // overline, so Black may not play it; h7 makes h7-h10 with O on h6 below: a four,
        // not a straight four. So the column is no three, and h8 is allowed.
        let b = board("X: f8 g8 h9 h10 h12 h13 h14; O: h6");
        assert_eq!(at(&b, "h11"), Some(Foul::Overline));
        assert_eq!(at(&b, "h8"), None);
        // Without h12-h14, h11 makes the straight four h8-h11: a true three, and with the
        // row's, a double three.
        let b = board("X: f8 g8 h9 h10; O: h6");
        assert_eq!(at(&b, "h8"), Some(Foul::DoubleThree));
    }

    #[test]
    fn forbidden_points_lists_exactly_the_fouls() {
        let b = board("X: f8 g8 i7 i6 c3 d3 e3 g3 h3");
        let all = forbidden_points(&b);
        let named = |n: &str| parse_point(n, 15, 15).unwrap();
        assert!(all.contains(&(named("i8"), Foul::DoubleThree)), "{all:?}");
        assert!(all.contains(&(named("f3"), Foul::Overline)), "{all:?}");
        for p in b.points().filter(|&p| b.is_empty_at(p)) {
            let listed = all.iter().find(|(q, _)| *q == p).map(|(_, f)| *f);
            assert_eq!(listed, foul(&b, p), "{p}");
        }
        // Taken points and points off the board are no fouls, only not moves.
        assert_eq!(foul(&b, named("f8")), None);
        assert_eq!(foul(&b, Point::new(40, 40)), None);
    }
}
