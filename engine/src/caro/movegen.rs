//! Which moves a search looks at, and in what order.
//!
//! Threats narrow the choice: facing a five, only the points that stop every five are
//! moves; facing an open four in the making (the opponent's open three or double four),
//! only the points that stop it or a four of one's own (which forces a reply first).
//! Both sets are exact: each candidate is tried on the board and kept only if it works,
//! so the caro rule's quirks (a five can also be stopped by blocking its far end) come out
//! right without special cases. Otherwise every empty point near a stone is a move.

use super::pattern::{Combo, HALF, Pattern};
use super::position::{Cell, Position};
use banco_rules::caro::board::Stone;

/// The situation the side to move is in, and its moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Moves {
    /// The side to move completes a five on this cell.
    Win(Cell),
    /// The opponent threatens a five and nothing stops it.
    Lost,
    /// The only moves that stop the opponent's five(s).
    BlockFive(Vec<Cell>),
    /// The opponent can make an open four (or double four) next: these stop it, or make
    /// a four first. Empty if nothing does (the position is lost).
    BlockFour(Vec<Cell>),
    /// No threat to answer: every candidate.
    Free(Vec<Cell>),
}

/// What the side to move faces, as [`generate_into`] reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Situation {
    /// It completes a five on this cell.
    Win(Cell),
    /// The opponent's five cannot be stopped.
    Lost,
    /// The moves are the blocks of the opponent's five(s).
    BlockFive,
    /// The moves stop the opponent's open four in the making, or are own fours; none
    /// means the position is lost.
    BlockFour,
    /// No threat: the moves are every candidate.
    Free,
}

/// Sorts out the side to move's moves in `pos`.
pub fn generate(pos: &mut Position) -> Moves {
    let mut out = Vec::new();
    match generate_into(pos, &mut out) {
        Situation::Win(c) => Moves::Win(c),
        Situation::Lost => Moves::Lost,
        Situation::BlockFive => Moves::BlockFive(out),
        Situation::BlockFour => Moves::BlockFour(out),
        Situation::Free => Moves::Free(out),
    }
}

/// Like [`generate`], writing the moves into `out` (cleared first): the search reuses one
/// buffer per ply.
pub fn generate_into(pos: &mut Position, out: &mut Vec<Cell>) -> Situation {
    out.clear();
    let us = pos.to_move();
    let them = us.opponent();
    if pos.count(us, Combo::Five) > 0 {
        pos.cells_with(us, Combo::Five, out);
        return Situation::Win(out[0]);
    }
    if pos.count(them, Combo::Five) > 0 {
        five_defences(pos, out);
        return if out.is_empty() {
            Situation::Lost
        } else {
            Situation::BlockFive
        };
    }
    if pos.count(them, Combo::Flex4) > 0 {
        four_defences(pos, out);
        return Situation::BlockFour;
    }
    pos.candidates(out);
    if pos.has_forbidden() {
        // Renju: Black's forbidden points are no moves (unless nothing else is near: then
        // the caller's any-legal-move fallback finds one far away).
        let all = out.clone();
        drop_forbidden(pos, out, 0);
        if out.is_empty() {
            *out = all;
        }
    }
    Situation::Free
}

/// The side to move's moves that leave the opponent no five. Appends to `out`.
pub fn five_defences(pos: &mut Position, out: &mut Vec<Cell>) {
    let from = out.len();
    five_defences_any(pos, out);
    drop_forbidden(pos, out, from);
}

/// Renju: drops from `out[from..]` the points the side to move may not play (Black's
/// forbidden points), so a block Black may not make is no defence: White's four through
/// a forbidden point wins. Nothing happens under the other rules.
#[inline]
pub fn drop_forbidden(pos: &Position, out: &mut Vec<Cell>, from: usize) {
    if pos.has_forbidden() && pos.to_move() == Stone::X {
        let mut i = from;
        while i < out.len() {
            if pos.forbidden(out[i]) {
                out.remove(i);
            } else {
                i += 1;
            }
        }
    }
}

/// [`five_defences`] before Black's forbidden points are dropped.
fn five_defences_any(pos: &mut Position, out: &mut Vec<Cell>) {
    let us = pos.to_move();
    let them = us.opponent();
    // `out` past its old end is the scratch space (the quiescence calls this at every
    // node, so it allocates nothing): the five points, then the points to try.
    // Under the caro rule a five is also stopped by blocking the far end of its run:
    // every such point is in the five point's windows along its winning lines.
    let fives = threats_and_tries(pos, out, them, Combo::Five, |p| p == Pattern::F5);
    // A stone of ours only weakens their lines, so `c` works exactly when every five
    // point is taken or loses its five.
    keep_tried(out, fives, |out, fives, c| {
        out[fives]
            .iter()
            .all(|&f| f == c || pos.combo_if(f, c, us, them) != Combo::Five)
    });
}

/// The side to move's moves against an opponent who can make an open four or a double
/// four next: those that take every such move away, plus every four of its own. Appends
/// to `out`; empty means nothing helps.
pub fn four_defences(pos: &mut Position, out: &mut Vec<Cell>) {
    let from = out.len();
    four_defences_any(pos, out);
    drop_forbidden(pos, out, from);
}

/// [`four_defences`] before Black's forbidden points are dropped.
fn four_defences_any(pos: &mut Position, out: &mut Vec<Cell>) {
    let us = pos.to_move();
    let them = us.opponent();
    // Scratch in `out` as in `five_defences`: the threat points, then the points to try.
    let threats = threats_and_tries(pos, out, them, Combo::Flex4, |p| p >= Pattern::B4);
    // Our own fours force an answer first; they are moves whether or not they defend.
    pos.cells_with(us, Combo::Block4, out);
    keep_tried(out, threats, |out, threats, c| {
        pos.combo(c, us).is_four()
            || out[threats]
                .iter()
                .all(|&f| f == c || pos.combo_if(f, c, us, them) < Combo::Flex4)
    });
}

/// Starts a defence list in `out`: appends `them`'s cells of `combo` or better (the
/// threats), then each threat again with the empty cells of its window along every line
/// whose pattern passes `line` (the points to try). Returns the threats' range.
#[inline]
fn threats_and_tries(
    pos: &Position,
    out: &mut Vec<Cell>,
    them: Stone,
    combo: Combo,
    line: impl Fn(Pattern) -> bool,
) -> std::ops::Range<usize> {
    let start = out.len();
    pos.cells_with(them, combo, out);
    let threats = start..out.len();
    for i in threats.clone() {
        let f = out[i];
        out.push(f);
        for d in 0..4 {
            if line(pos.pattern(f, them, d)) {
                line_empties(pos, f, d, out);
            }
        }
    }
    threats
}

/// Finishes a defence list built in `out` as `[.. | threats | tried]`, where `threats`
/// is the range of the threat points and the tried points follow it: leaves `out` as
/// `[.. | the tried points that pass `works`, ascending, each once]`. `works` sees `out`
/// and the threats' range, so it can read the threats while the list is being rewritten.
fn keep_tried(
    out: &mut Vec<Cell>,
    threats: std::ops::Range<usize>,
    works: impl Fn(&[Cell], std::ops::Range<usize>, Cell) -> bool,
) {
    let tried = threats.end;
    let kept = sort_dedup(out, tried);
    let mut n = tried;
    for i in tried..tried + kept {
        let c = out[i];
        if works(out, threats.clone(), c) {
            out[n] = c;
            n += 1;
        }
    }
    out.copy_within(tried..n, threats.start);
    out.truncate(threats.start + (n - tried));
}

/// Sorts `out[from..]` and drops its repeats; returns how many cells are left there.
fn sort_dedup(out: &mut Vec<Cell>, from: usize) -> usize {
    let part = &mut out[from..];
    part.sort_unstable();
    let mut n = 0;
    for i in 0..part.len() {
        if i == 0 || part[i] != part[n - 1] {
            part[n] = part[i];
            n += 1;
        }
    }
    out.truncate(from + n);
    n
}

/// The side to move's answers to an opponent who can play a four that is also an open
/// three (a [`Combo::Block4Flex3`] point) and has no stronger threat: the points that take
/// every such threat away (the point itself, or a stone that weakens its four or its
/// three), the points that would turn our forced block of that four into a four of our
/// own, and every four of ours. Appends to `out` and returns `true`; returns `false`
/// (leaving `out` as it was) when the threat need not be answered directly: our block of
/// the four would already be a four of ours, or nothing found answers it.
pub fn b4f3_defences(pos: &mut Position, out: &mut Vec<Cell>) -> bool {
    let us = pos.to_move();
    let them = us.opponent();
    let mut threats = Vec::new();
    pos.cells_with(them, Combo::Block4Flex3, &mut threats);
    threats.retain(|&f| pos.combo(f, them) == Combo::Block4Flex3);
    if threats.is_empty() {
        return false;
    }
    let mut direct = Vec::new();
    let mut counters = Vec::new();
    let mut window = Vec::new();
    for &f in &threats {
        direct.push(f);
        for d in 0..4 {
            window.clear();
            line_empties(pos, f, d, &mut window);
            direct.extend_from_slice(&window);
            if pos.pattern(f, them, d) != Pattern::B4 {
                continue;
            }
            // Where the four would make five: our forced block goes there.
            for &e in &window {
                if pos.combo_if(e, f, them, them) != Combo::Five {
                    continue;
                }
                if pos.combo(e, us).is_four() {
                    // Blocking there is a four of ours: the threat keeps no tempo.
                    return false;
                }
                // Stones of ours that would make that block a four.
                for d2 in 0..4 {
                    for k in (-4..=-1).chain(1..=4) {
                        let r = pos.step(e, d2, k);
                        if pos.is_empty(r) && r != f && pos.combo_if(e, r, us, us).is_four() {
                            counters.push(r);
                        }
                    }
                }
            }
        }
    }
    direct.sort_unstable();
    direct.dedup();
    let start = out.len();
    out.extend(direct.into_iter().filter(|&c| {
        pos.combo(c, us).is_four()
            || threats
                .iter()
                .all(|&f| f == c || pos.combo_if(f, c, us, them) < Combo::Block4Flex3)
    }));
    let mut fours = Vec::new();
    pos.cells_with(us, Combo::Block4, &mut fours);
    out.extend(fours);
    out.extend(counters);
    let kept = sort_dedup(out, start);
    if kept == 0 {
        return false;
    }
    true
}

/// The empty cells of `c`'s window along direction `d`, appended to `out`.
pub fn line_empties(pos: &Position, c: Cell, d: usize, out: &mut Vec<Cell>) {
    for k in (-(HALF as i32)..=-1).chain(1..=HALF as i32) {
        let q = pos.step(c, d, k);
        if pos.is_empty(q) {
            out.push(q);
        }
    }
}

/// A static guess at how good a move is, for ordering: threats first (own before the
/// opponent's of the same rank), then both sides' scores on the point.
#[inline]
pub fn move_score(pos: &Position, c: Cell, us: Stone) -> i32 {
    let them = us.opponent();
    let own = pos.combo(c, us);
    let theirs = pos.combo(c, them);
    let tier = (2 * rank(own)).max(2 * rank(theirs) - 1).max(0);
    tier * 100_000 + pos.score(c, us) + pos.score(c, them) * 4 / 5
}

/// [`move_score`] with the opponent's lines left out: what the move does for `us` alone.
pub fn own_score(pos: &Position, c: Cell, us: Stone) -> i32 {
    2 * rank(pos.combo(c, us)) * 100_000 + pos.score(c, us)
}

/// How urgent a combination is, for move ordering.
fn rank(combo: Combo) -> i32 {
    match combo {
        Combo::Five => 9,
        Combo::Flex4 => 7,
        Combo::Block4Flex3 => 5,
        Combo::Flex3x2 | Combo::Block4Plus => 3,
        Combo::Block4 | Combo::Flex3 | Combo::Flex3Plus => 1,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::caro::position::tests::position;
    use banco_rules::caro::board::Point;
    use banco_rules::caro::rules::Rule;

    fn points(pos: &Position, cells: &[Cell]) -> Vec<Point> {
        let mut v: Vec<Point> = cells.iter().map(|c| pos.point(*c)).collect();
        v.sort();
        v
    }

    #[test]
    fn wins_are_taken() {
        let mut pos = position(
            &[
                "..........",
                ".XXXX.....",
                ".OOO......",
                "..........",
                "..........",
            ],
            Rule::Caro,
        );
        assert_eq!(pos.to_move(), Stone::O);
        // O to move: X threatens five on both ends: lost (O cannot win first).
        assert_eq!(generate(&mut pos), Moves::Lost);
        let mut pos = position(
            &[
                "..........",
                ".XXXX.....",
                ".OOO...O..",
                "..........",
                "..........",
            ],
            Rule::Caro,
        );
        assert_eq!(pos.to_move(), Stone::X);
        assert!(matches!(generate(&mut pos), Moves::Win(_)));
    }

    #[test]
    fn caro_five_is_also_stopped_at_the_far_end() {
        // X: O X X X X . .  -> X five point at 5; O can play 5, or 6 (then the five
        // would be blocked at both ends).
        let mut pos = position(
            &[
                "OXXXX.....",
                "..........",
                "O.O.......",
                "..........",
                "..........",
            ],
            Rule::Caro,
        );
        assert_eq!(pos.to_move(), Stone::O);
        let Moves::BlockFive(m) = generate(&mut pos) else {
            panic!("expected a forced block");
        };
        assert_eq!(points(&pos, &m), vec![Point::new(5, 0), Point::new(6, 0)]);
        // Freestyle: only the five point.
        let mut pos = position(
            &[
                "OXXXX.....",
                "..........",
                "O.O.......",
                "..........",
                "..........",
            ],
            Rule::Freestyle,
        );
        let Moves::BlockFive(m) = generate(&mut pos) else {
            panic!("expected a forced block");
        };
        assert_eq!(points(&pos, &m), vec![Point::new(5, 0)]);
    }

    #[test]
    fn open_three_must_be_answered() {
        let mut pos = position(
            &[
                "............",
                "....XXX.....",
                "............",
                "...O........",
                "............",
                "............",
                "..........O.",
            ],
            Rule::Freestyle,
        );
        assert_eq!(pos.to_move(), Stone::O);
        let Moves::BlockFour(m) = generate(&mut pos) else {
            panic!("expected a forced defence");
        };
        // Only the two ends: a stone one further out leaves an open four on the other side.
        assert_eq!(points(&pos, &m), vec![Point::new(3, 1), Point::new(7, 1)]);
    }

    #[test]
    fn defences_append_after_what_the_list_held() {
        let mut pos = position(
            &[
                "...........X",
                "....XXX.....",
                ".OXXXX......",
                "...O........",
                "...O........",
                "..O.O.....O.",
                "..........O.",
            ],
            Rule::Freestyle,
        );
        assert_eq!(pos.to_move(), Stone::O);
        let (mut alone, mut after) = (Vec::new(), vec![7, 3]);
        five_defences(&mut pos, &mut alone);
        five_defences(&mut pos, &mut after);
        assert_eq!(points(&pos, &alone), vec![Point::new(6, 2)]);
        assert_eq!(after[..2], [7, 3]);
        assert_eq!(after[2..], alone[..]);
        // Without the fours: the open three's ends, and O's own four (the column at 3).
        let mut pos = position(
            &[
                "...........X",
                "....XXX.....",
                "............",
                "...O........",
                "...O........",
                "...O........",
                "............",
            ],
            Rule::Freestyle,
        );
        assert_eq!(pos.to_move(), Stone::O);
        let (mut alone, mut after) = (Vec::new(), vec![9]);
        four_defences(&mut pos, &mut alone);
        four_defences(&mut pos, &mut after);
        assert_eq!(
            points(&pos, &alone),
            vec![
                Point::new(3, 1),
                Point::new(3, 2),
                Point::new(3, 6),
                Point::new(7, 1)
            ]
        );
        assert_eq!(after[..1], [9]);
        assert_eq!(after[1..], alone[..]);
    }
}
