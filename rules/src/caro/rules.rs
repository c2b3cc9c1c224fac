//! What wins a caro game.
//!
//! A move can only complete a line for the player who made it, so a win is checked
//! through the last stone played: in each of the four directions, take the unbroken run
//! of that player's stones through it and ask the rule whether that run wins.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

use super::board::{Board, Point, Stone};

/// The four line directions: horizontal, vertical, and the two diagonals.
pub const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Which runs of stones win.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Rule {
    /// Vietnamese caro (Gomocup rule 9): exactly five, and not blocked at both ends by the
    /// opponent. The board edge is not a block.
    Caro,
    /// Five or more in a row wins (Gomocup rule 0).
    Freestyle,
    /// Exactly five wins; six or more does not (Gomocup rule 1).
    Standard,
    /// Caro's blocked-ends condition with overlines allowed (Gomocup rule 8).
    CaroOverline,
    /// Renju (RIF rules, Gomocup rule 4): X (Black, who moves first) wins with exactly
    /// five and may not play a forbidden point ([`super::renju`]); O (White) wins with
    /// five or more.
    Renju,
}

impl Rule {
    /// Every rule, in the order menus show them.
    pub const ALL: [Rule; 5] = [
        Rule::Caro,
        Rule::Freestyle,
        Rule::Standard,
        Rule::CaroOverline,
        Rule::Renju,
    ];

    /// The name used on command lines and in files.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Caro => "caro",
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::CaroOverline => "caro-overline",
            Rule::Renju => "renju",
        }
    }

    /// The rule one side's runs are judged by: renju judges X (Black) as standard
    /// (exactly five) and O (White) as freestyle (five or more); every other rule is the
    /// same for both.
    pub fn for_stone(self, stone: Stone) -> Rule {
        match (self, stone) {
            (Rule::Renju, Stone::X) => Rule::Standard,
            (Rule::Renju, Stone::O) => Rule::Freestyle,
            (rule, _) => rule,
        }
    }

    /// Whether X (Black) has forbidden points: renju's double three, double four and
    /// overline.
    pub fn has_forbidden_points(self) -> bool {
        matches!(self, Rule::Renju)
    }

    /// Whether six or more in a row win (under renju, for X: see [`Rule::for_stone`]).
    pub fn allows_overline(self) -> bool {
        matches!(self, Rule::Freestyle | Rule::CaroOverline)
    }

    /// Whether a five blocked by the opponent at both ends fails to win.
    pub fn needs_open_end(self) -> bool {
        matches!(self, Rule::Caro | Rule::CaroOverline)
    }

    /// Whether an unbroken run of `len` stones wins (under renju, X's: see
    /// [`Rule::for_stone`] for O's), given whether each end of the run is
    /// blocked by an opponent stone (the board edge is never a block).
    #[inline]
    pub fn run_wins(self, len: usize, blocked_before: bool, blocked_after: bool) -> bool {
        let length_ok = if self.allows_overline() {
            len >= 5
        } else {
            len == 5
        };
        length_ok && !(self.needs_open_end() && blocked_before && blocked_after)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule name that is not one of banco's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule '{0}': expected caro, freestyle, standard, caro-overline or renju")]
pub struct UnknownRule(pub String);

impl FromStr for Rule {
    type Err = UnknownRule;

    fn from_str(s: &str) -> Result<Rule, UnknownRule> {
        Rule::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownRule(s.to_string()))
    }
}

/// A straight run of stones: `len` points from `start`, stepping by (dx, dy).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    pub start: Point,
    pub dx: i8,
    pub dy: i8,
    pub len: u8,
}

impl Line {
    /// The points of the line, from `start`.
    pub fn points(self) -> impl Iterator<Item = Point> {
        (0..i32::from(self.len))
            .filter_map(move |i| self.start.offset(i32::from(self.dx), i32::from(self.dy), i))
    }
}

/// The run of `stone` through `p` along (dx, dy): how far it reaches backwards and
/// forwards from `p` (not counting `p`).
fn run_through(board: &Board, p: Point, stone: Stone, dx: i32, dy: i32) -> (i32, i32) {
    let reach = |sign: i32| {
        let mut n = 0;
        loop {
            let x = i32::from(p.x) + sign * dx * (n + 1);
            let y = i32::from(p.y) + sign * dy * (n + 1);
            if board.cell(x, y) != Some(Some(stone)) {
                return n;
            }
            n += 1;
        }
    };
    (reach(-1), reach(1))
}

/// The winning line through `p` for the stone standing there, if that stone's runs
/// through `p` win under `rule`. Returns `None` for an empty point.
pub fn winning_line(board: &Board, p: Point, rule: Rule) -> Option<Line> {
    let stone = board.stone_at(p)?;
    let rule = rule.for_stone(stone);
    let opponent = Some(Some(stone.opponent()));
    for (dx, dy) in DIRECTIONS {
        let (back, fwd) = run_through(board, p, stone, dx, dy);
        let len = (back + fwd + 1) as usize;
        if len < 5 {
            continue;
        }
        let (px, py) = (i32::from(p.x), i32::from(p.y));
        let blocked_before = board.cell(px - dx * (back + 1), py - dy * (back + 1)) == opponent;
        let blocked_after = board.cell(px + dx * (fwd + 1), py + dy * (fwd + 1)) == opponent;
        if rule.run_wins(len, blocked_before, blocked_after) {
            let start = p.offset(-dx, -dy, back)?;
            return Some(Line {
                start,
                dx: dx as i8,
                dy: dy as i8,
                len: len as u8,
            });
        }
    }
    None
}

/// Why a run of five or more through a stone did not win: the rule's conditions, so a
/// player can be told instead of left wondering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum NotAWin {
    /// Five in a row (or more, where overlines count) blocked by the opponent at both
    /// ends, under a rule that needs an open end ([`Rule::needs_open_end`]).
    BlockedBothEnds(Line),
    /// Six or more in a row, under a rule where only exactly five wins.
    Overline(Line),
}

/// Why the stone at `p` made no win although a run through it is five or longer:
/// `None` when it wins, when no run through it reaches five, or for an empty point.
pub fn why_not_a_win(board: &Board, p: Point, rule: Rule) -> Option<NotAWin> {
    if winning_line(board, p, rule).is_some() {
        return None;
    }
    let stone = board.stone_at(p)?;
    let rule = rule.for_stone(stone);
    let opponent = Some(Some(stone.opponent()));
    for (dx, dy) in DIRECTIONS {
        let (back, fwd) = run_through(board, p, stone, dx, dy);
        let len = back + fwd + 1;
        if len < 5 {
            continue;
        }
        let line = Line {
            start: p.offset(-dx, -dy, back)?,
            dx: dx as i8,
            dy: dy as i8,
            len: len as u8,
        };
        if len > 5 && !rule.allows_overline() {
            return Some(NotAWin::Overline(line));
        }
        let (px, py) = (i32::from(p.x), i32::from(p.y));
        let blocked_before = board.cell(px - dx * (back + 1), py - dy * (back + 1)) == opponent;
        let blocked_after = board.cell(px + dx * (fwd + 1), py + dy * (fwd + 1)) == opponent;
        if rule.needs_open_end() && blocked_before && blocked_after {
            return Some(NotAWin::BlockedBothEnds(line));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board from rows of text: `X`, `O`, anything else empty.
    pub(crate) fn board_from(rows: &[&str]) -> Board {
        let mut b = Board::new(rows[0].len() as u32, rows.len() as u32).unwrap();
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let p = Point::new(x as u8, y as u8);
                match c {
                    'X' => b.place(p, Stone::X),
                    'O' => b.place(p, Stone::O),
                    _ => {}
                }
            }
        }
        b
    }

    fn wins(rows: &[&str], x: u8, y: u8, rule: Rule) -> Option<Line> {
        winning_line(&board_from(rows), Point::new(x, y), rule)
    }

    #[test]
    fn open_five_wins_everywhere() {
        let rows = [
            "..........",
            ".XXXXX....",
            "..........",
            ".........",
            ".........",
        ];
        let rows: Vec<&str> = rows.iter().map(|r| &r[..9]).collect();
        for rule in Rule::ALL {
            let line = wins(&rows, 3, 1, rule).expect("open five wins");
            assert_eq!(line.start, Point::new(1, 1));
            assert_eq!(line.len, 5);
            let pts: Vec<Point> = line.points().collect();
            assert_eq!(pts.len(), 5);
            assert_eq!(pts[4], Point::new(5, 1));
        }
    }

    #[test]
    fn overline_wins_only_where_allowed() {
        let rows = [
            ".XXXXXX..",
            ".........",
            ".........",
            ".........",
            ".........",
        ];
        assert!(wins(&rows, 1, 0, Rule::Freestyle).is_some());
        assert!(wins(&rows, 1, 0, Rule::CaroOverline).is_some());
        assert!(wins(&rows, 1, 0, Rule::Standard).is_none());
        assert!(wins(&rows, 1, 0, Rule::Caro).is_none());
        let line = wins(&rows, 6, 0, Rule::Freestyle).unwrap();
        assert_eq!(line.len, 6);
    }

    #[test]
    fn both_ends_blocked_fails_only_caro() {
        let rows = [
            "OXXXXXO..",
            ".........",
            ".........",
            ".........",
            ".........",
        ];
        assert!(wins(&rows, 3, 0, Rule::Caro).is_none());
        assert!(wins(&rows, 3, 0, Rule::CaroOverline).is_none());
        assert!(wins(&rows, 3, 0, Rule::Standard).is_some());
        assert!(wins(&rows, 3, 0, Rule::Freestyle).is_some());
        // One end blocked is still a win in caro.
        let rows = [
            "OXXXXX...",
            ".........",
            ".........",
            ".........",
            ".........",
        ];
        assert!(wins(&rows, 3, 0, Rule::Caro).is_some());
    }

    #[test]
    fn a_five_that_does_not_win_says_why() {
        let why = |rows: &[&str], x: u8, y: u8, rule: Rule| {
            why_not_a_win(&board_from(rows), Point::new(x, y), rule)
        };
        let blocked = [
            "OXXXXXO..",
            ".........",
            ".........",
            ".........",
            ".........",
        ];
        let line = Line {
            start: Point::new(1, 0),
            dx: 1,
            dy: 0,
            len: 5,
        };
        for rule in [Rule::Caro, Rule::CaroOverline] {
            assert_eq!(
                why(&blocked, 3, 0, rule),
                Some(NotAWin::BlockedBothEnds(line))
            );
        }
        // Where it wins, or where the blocks do not matter: nothing to explain.
        assert_eq!(why(&blocked, 3, 0, Rule::Standard), None);
        assert_eq!(why(&blocked, 3, 0, Rule::Freestyle), None);
        let open = [
            "OXXXXX...",
            ".........",
            ".........",
            ".........",
            ".........",
        ];
        assert_eq!(why(&open, 3, 0, Rule::Caro), None);
        // Four is no five; an empty point has no run.
        let four = [
            "OXXXXO...",
            ".........",
            ".........",
            ".........",
            ".........",
        ];
        assert_eq!(why(&four, 2, 0, Rule::Caro), None);
        assert_eq!(why(&four, 7, 0, Rule::Caro), None);
        // Six where only five wins: the overline is the reason, blocked or not.
        let six = [
            ".XXXXXX..",
            ".........",
            ".........",
            ".........",
            ".........",
        ];
        for rule in [Rule::Standard, Rule::Caro] {
            assert!(matches!(
                why(&six, 3, 0, rule),
                Some(NotAWin::Overline(Line { len: 6, .. }))
            ));
        }
        assert_eq!(why(&six, 3, 0, Rule::Freestyle), None);
        // A blocked diagonal, read from its far end.
        let diagonal = [
            "O......", ".X.....", "..X....", "...X...", "....X..", ".....X.", "......O",
        ];
        assert!(matches!(
            why(&diagonal, 5, 5, Rule::Caro),
            Some(NotAWin::BlockedBothEnds(Line {
                dx: 1,
                dy: 1,
                len: 5,
                ..
            }))
        ));
    }

    #[test]
    fn board_edge_is_not_a_block() {
        // Edge on the left, opponent on the right: one real block only.
        let rows = [
            "XXXXXO...",
            ".........",
            ".........",
            ".........",
            ".........",
        ];
        assert!(wins(&rows, 0, 0, Rule::Caro).is_some());
        // Edge on both ends of a five on a 5-wide board.
        let rows = ["XXXXX", ".....", ".....", ".....", "....."];
        assert!(wins(&rows, 4, 0, Rule::Caro).is_some());
    }

    #[test]
    fn own_stone_beyond_the_gap_is_not_a_block() {
        let rows = [
            "OXXXXX.X.",
            ".........",
            ".........",
            ".........",
            ".........",
        ];
        assert!(wins(&rows, 1, 0, Rule::Caro).is_some());
    }

    #[test]
    fn vertical_and_diagonal_lines() {
        let rows = [
            "X......", "X.O....", "X..O...", "X...O..", "X....O.", "......O", ".......",
        ];
        let v = wins(&rows, 0, 2, Rule::Caro).unwrap();
        assert_eq!((v.dx, v.dy, v.start), (0, 1, Point::new(0, 0)));
        let d = wins(&rows, 4, 3, Rule::Caro).unwrap();
        assert_eq!((d.dx, d.dy, d.start, d.len), (1, 1, Point::new(2, 1), 5));
        // Anti-diagonal on a rectangular board, touching the bottom edge.
        let rows = [
            ".....O", "....O.", "...O..", "..O...", ".O....", "......", "......",
        ];
        let a = wins(&rows, 3, 2, Rule::Standard).unwrap();
        assert_eq!((a.dx, a.dy, a.start), (1, -1, Point::new(1, 4)));
    }

    #[test]
    fn four_is_not_a_win_and_empty_point_has_no_line() {
        let rows = [
            ".XXXX....",
            ".........",
            ".........",
            ".........",
            ".........",
        ];
        for rule in Rule::ALL {
            assert!(wins(&rows, 2, 0, rule).is_none());
            assert!(wins(&rows, 0, 0, rule).is_none());
        }
    }

    #[test]
    fn rule_names_round_trip() {
        for rule in Rule::ALL {
            assert_eq!(rule.name().parse::<Rule>(), Ok(rule));
        }
        assert!("gomoku-pro".parse::<Rule>().is_err());
        assert_eq!(" Caro ".parse::<Rule>(), Ok(Rule::Caro));
    }
}
