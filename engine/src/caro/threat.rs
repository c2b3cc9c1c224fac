//! The threats a player has on the board: fours and open threes, with the stones that
//! make them, the points that complete them and the points that stop them.
//!
//! This is what the client's "four warning" draws (the "cảnh báo nước 4" of Console Caro, the C++ program banco grew from) and what a
//! person reads to see why a move was forced. It uses the search's own pattern tables, so
//! it is exact under every rule: a caro four whose five would be blocked at both ends is
//! no four, a standard four whose only completion makes six is no four, and under the
//! caro rule a four can also be stopped at the far end of its five.

use super::movegen::line_empties;
use super::pattern::Pattern;
use super::position::{Cell, Position};
use banco_rules::caro::board::{Board, Point, Stone};
use banco_rules::caro::rules::Rule;

/// What kind of threat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ThreatKind {
    /// An open three: one more stone makes an open four.
    OpenThree,
    /// A four that one reply can stop: five next move otherwise.
    Four,
    /// A four no single reply in its line stops: two ways to five.
    OpenFour,
}

/// One threat of one player, along one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Threat {
    /// Four, open four or open three.
    pub kind: ThreatKind,
    /// The line's direction as (dx, dy): (1,0), (0,1), (1,1) or (-1,1).
    pub direction: (i8, i8),
    /// The player's stones that make the threat, sorted.
    pub stones: Vec<Point>,
    /// Empty points that carry it out: the five points of a four, the points that turn a
    /// three into an open four. Sorted.
    pub completions: Vec<Point>,
    /// Empty points where the opponent stops it (for an open four: none). Sorted.
    pub defences: Vec<Point>,
}

/// Every four and open three of `stone` on `board` under `rule`, strongest first.
pub fn threats(board: &Board, stone: Stone, rule: Rule) -> Vec<Threat> {
    let mut pos = Position::from_board(board, rule, stone.opponent());
    let mut cells = Vec::new();
    pos.candidates(&mut cells);
    let mut found: Vec<Threat> = Vec::new();
    for d in 0..4 {
        // Fours: points where `stone` completes a five along `d`.
        let fives: Vec<Cell> = cells
            .iter()
            .copied()
            .filter(|&c| pos.is_empty(c) && pos.pattern(c, stone, d) == Pattern::F5)
            .collect();
        for group in group_by_stones(&mut pos, &fives, stone, d, five_stones) {
            let defences = defences(&mut pos, &group.1, stone, d, Pattern::F5);
            let kind = if defences.is_empty() {
                ThreatKind::OpenFour
            } else {
                ThreatKind::Four
            };
            found.push(threat(&pos, kind, d, group, defences));
        }
        // Open threes: points where `stone` makes an open four along `d`, unless those
        // stones already make a four.
        let fours: Vec<Cell> = cells
            .iter()
            .copied()
            .filter(|&c| pos.is_empty(c) && pos.pattern(c, stone, d) == Pattern::F4)
            .collect();
        for group in group_by_stones(&mut pos, &fours, stone, d, four_stones) {
            let points: Vec<Point> = group.0.iter().map(|c| pos.point(*c)).collect();
            let dir = direction(d);
            let inside_a_four = found.iter().any(|t| {
                t.direction == dir
                    && t.kind != ThreatKind::OpenThree
                    && t.stones.iter().any(|s| points.contains(s))
            });
            if inside_a_four {
                continue;
            }
            let defences = defences(&mut pos, &group.1, stone, d, Pattern::F4);
            found.push(threat(&pos, ThreatKind::OpenThree, d, group, defences));
        }
    }
    found.sort_by(|a, b| b.kind.cmp(&a.kind).then(a.stones.cmp(&b.stones)));
    found
}

/// (stones, completion cells) of one threat.
type Group = (Vec<Cell>, Vec<Cell>);

fn threat(pos: &Position, kind: ThreatKind, d: usize, group: Group, defences: Vec<Cell>) -> Threat {
    let sorted = |cells: &[Cell]| {
        let mut v: Vec<Point> = cells.iter().map(|c| pos.point(*c)).collect();
        v.sort();
        v.dedup();
        v
    };
    Threat {
        kind,
        direction: direction(d),
        stones: sorted(&group.0),
        completions: sorted(&group.1),
        defences: sorted(&defences),
    }
}

/// The (dx, dy) of search direction `d`.
fn direction(d: usize) -> (i8, i8) {
    [(1, 0), (0, 1), (1, 1), (-1, 1)][d]
}

/// Gathers completion points whose threat stones overlap into one threat each.
fn group_by_stones(
    pos: &mut Position,
    points: &[Cell],
    stone: Stone,
    d: usize,
    stones_of: fn(&mut Position, Cell, Stone, usize) -> Vec<Cell>,
) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for &p in points {
        let stones = stones_of(pos, p, stone, d);
        let mut merged: Group = (stones, vec![p]);
        // Merge every existing group that shares a stone with this one.
        let mut i = 0;
        while i < groups.len() {
            if groups[i].0.iter().any(|s| merged.0.contains(s)) {
                let g = groups.swap_remove(i);
                merged.0.extend(g.0);
                merged.1.extend(g.1);
            } else {
                i += 1;
            }
        }
        merged.0.sort_unstable();
        merged.0.dedup();
        groups.push(merged);
    }
    groups
}

/// The stones of the run `stone` makes along `d` by playing five point `p`.
fn five_stones(pos: &mut Position, p: Cell, stone: Stone, d: usize) -> Vec<Cell> {
    let mut run = Vec::new();
    for sign in [-1, 1] {
        let mut k = 1;
        loop {
            let q = pos.step(p, d, sign * k);
            if pos.stone(q) != Some(stone) {
                break;
            }
            run.push(q);
            k += 1;
        }
    }
    run
}

/// The stones of the open four `stone` makes along `d` by playing `p`: the runs of its
/// five points, without `p` itself.
fn four_stones(pos: &mut Position, p: Cell, stone: Stone, d: usize) -> Vec<Cell> {
    pos.make_stone(p, stone);
    let mut window = Vec::new();
    line_empties(pos, p, d, &mut window);
    let mut stones = Vec::new();
    for f in window {
        if pos.pattern(f, stone, d) == Pattern::F5 {
            stones.extend(
                five_stones(pos, f, stone, d)
                    .into_iter()
                    .filter(|q| *q != p),
            );
        }
    }
    pos.unmake();
    stones.sort_unstable();
    stones.dedup();
    stones
}

/// Empty points where an opponent stone leaves no point of `level` (or better) for
/// `stone` along `d` near the completions: the threat is gone.
fn defences(
    pos: &mut Position,
    completions: &[Cell],
    stone: Stone,
    d: usize,
    level: Pattern,
) -> Vec<Cell> {
    let mut tried = completions.to_vec();
    for &c in completions {
        line_empties(pos, c, d, &mut tried);
    }
    tried.sort_unstable();
    tried.dedup();
    let mut out = Vec::new();
    for &c in &tried {
        pos.make_stone(c, stone.opponent());
        let alive = tried
            .iter()
            .any(|&q| q != c && pos.is_empty(q) && pos.pattern(q, stone, d) >= level);
        pos.unmake();
        if !alive {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Board {
        let mut b = Board::new(rows[0].len() as u32, rows.len() as u32).unwrap();
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let p = Point::new(x as u8, y as u8);
                match ch {
                    'X' => b.place(p, Stone::X),
                    'O' => b.place(p, Stone::O),
                    _ => {}
                }
            }
        }
        b
    }

    fn pts(v: &[(u8, u8)]) -> Vec<Point> {
        v.iter().map(|(x, y)| Point::new(*x, *y)).collect()
    }

    #[test]
    fn a_blocked_four_and_its_defences() {
        let b = board(&[
            "..........",
            "OXXXX.....",
            "..........",
            "..........",
            "..........",
        ]);
        let caro = threats(&b, Stone::X, Rule::Caro);
        assert_eq!(caro.len(), 1);
        assert_eq!(caro[0].kind, ThreatKind::Four);
        assert_eq!(caro[0].direction, (1, 0));
        assert_eq!(caro[0].stones, pts(&[(1, 1), (2, 1), (3, 1), (4, 1)]));
        assert_eq!(caro[0].completions, pts(&[(5, 1)]));
        // Caro: blocking the far end works too.
        assert_eq!(caro[0].defences, pts(&[(5, 1), (6, 1)]));
        let free = threats(&b, Stone::X, Rule::Freestyle);
        assert_eq!(free[0].defences, pts(&[(5, 1)]));
        assert!(threats(&b, Stone::O, Rule::Caro).is_empty());
    }

    #[test]
    fn open_four_and_open_three() {
        let b = board(&[
            "..........",
            "..XXXX....",
            "..........",
            "...OOO....",
            "..........",
            "..........",
        ]);
        let x = threats(&b, Stone::X, Rule::Caro);
        assert_eq!(x.len(), 1);
        assert_eq!(x[0].kind, ThreatKind::OpenFour);
        assert_eq!(x[0].completions, pts(&[(1, 1), (6, 1)]));
        assert!(x[0].defences.is_empty());
        let o = threats(&b, Stone::O, Rule::Caro);
        assert_eq!(o.len(), 1);
        assert_eq!(o[0].kind, ThreatKind::OpenThree);
        assert_eq!(o[0].stones, pts(&[(3, 3), (4, 3), (5, 3)]));
        assert_eq!(o[0].completions, pts(&[(2, 3), (6, 3)]));
        // Caro: a stone one further out works too, since the four it leaves has its two
        // fives blocked at both ends after one more reply.
        assert_eq!(o[0].defences, pts(&[(1, 3), (2, 3), (6, 3), (7, 3)]));
        // Freestyle: only the ends (further out leaves an open four on the other side).
        let o = threats(&b, Stone::O, Rule::Freestyle);
        assert_eq!(o[0].defences, pts(&[(2, 3), (6, 3)]));
    }

    #[test]
    fn caro_three_between_blocks_is_no_open_three() {
        let b = board(&[
            "..O..XXX..O....",
            "...............",
            "...............",
            "...............",
            "...............",
        ]);
        assert!(threats(&b, Stone::X, Rule::Caro).is_empty());
        let free = threats(&b, Stone::X, Rule::Freestyle);
        assert_eq!(free.len(), 1);
        assert_eq!(free[0].kind, ThreatKind::OpenThree);
    }

    #[test]
    fn split_three_diagonal() {
        // X on (2,2), (3,3), (5,5): completing (4,4) makes an open four.
        let b = board(&[
            "..........",
            "..........",
            "..X.......",
            "...X......",
            "..........",
            ".....X....",
            "..........",
            "..........",
            "..........",
        ]);
        let x = threats(&b, Stone::X, Rule::Standard);
        assert_eq!(x.len(), 1);
        assert_eq!(x[0].direction, (1, 1));
        assert_eq!(x[0].completions, pts(&[(4, 4)]));
        assert_eq!(x[0].stones, pts(&[(2, 2), (3, 3), (5, 5)]));
        assert_eq!(x[0].defences, pts(&[(1, 1), (4, 4), (6, 6)]));
    }
}
