//! Tactical tests: the threat-space solvers against positions with known answers.
//!
//! The suite (`benches/data/vcf.txt`) holds positions from real games where the VCF
//! solver found a forced win, with its main line recorded, and positions with fours to
//! play but no such win. Wins are checked independently of the engine's move
//! generation: a brute-force prover on the rules' own board (`winning_line`) tries every
//! defender reply, asking the solver only which attacking move to play next. Refutations
//! are confirmed by a brute-force search for short VCFs.

use super::position::Position;
use super::suite::{Case, parse};
use super::vcf::{FailCache, Kind, Proof, ThreatSearch, vcf, vct};
use banco_rules::caro::board::{Board, Point, Stone};
use banco_rules::caro::rules::{Rule, winning_line};

const SUITE: &str = include_str!("../../benches/data/vcf.txt");

/// A point where `stone` completes a winning five right away. (Only points touching a
/// stone of `stone` can: the five's run passes through a neighbour.)
fn immediate_five(board: &mut Board, stone: Stone, rule: Rule) -> Option<Point> {
    let touches = |p: &Point| {
        (-1..=1).any(|dy| {
            (-1..=1)
                .any(|dx| board.cell(i32::from(p.x) + dx, i32::from(p.y) + dy) == Some(Some(stone)))
        })
    };
    let empties: Vec<Point> = board
        .points()
        .filter(|p| board.is_empty_at(*p) && touches(p))
        .collect();
    empties.into_iter().find(|&p| {
        board.place(p, stone);
        let wins = winning_line(board, p, rule).is_some();
        board.remove(p);
        wins
    })
}

/// Whether `attacker` (to move) wins by force within `depth` attacking moves, the
/// attacking moves taken from the VCF solver, every defender reply tried.
fn proves(
    board: &mut Board,
    attacker: Stone,
    rule: Rule,
    depth: u32,
    cache: &mut FailCache,
) -> bool {
    if immediate_five(board, attacker, rule).is_some() {
        return true;
    }
    let defender = attacker.opponent();
    let facing_five = immediate_five(board, defender, rule).is_some();
    if depth == 0 {
        return false;
    }
    let mut pos = Position::from_board(board, rule, attacker);
    let mut never = || false;
    let proof = ThreatSearch::new(&mut pos, Kind::Vcf, cache, 2_000_000, &mut never).solve(40);
    let Proof::Win(line) = proof else {
        return false;
    };
    let m = pos.point(line[0]);
    board.place(m, attacker);
    let ok = 'check: {
        if immediate_five(board, defender, rule).is_some() {
            break 'check false; // The defender completes a five first.
        }
        if immediate_five(board, attacker, rule).is_none() && !facing_five {
            break 'check false; // Not a four: not a VCF move.
        }
        let replies: Vec<Point> = board.points().filter(|p| board.is_empty_at(*p)).collect();
        for d in replies {
            board.place(d, defender);
            let wins = winning_line(board, d, rule).is_none()
                && (immediate_five(board, attacker, rule).is_some()
                    || proves(board, attacker, rule, depth - 1, cache));
            board.remove(d);
            if !wins {
                break 'check false;
            }
        }
        true
    };
    board.remove(m);
    ok
}

/// Brute force: does `attacker` have a VCF of at most `depth` fours? Every four is
/// tried, against every reply.
fn brute_vcf(board: &mut Board, attacker: Stone, rule: Rule, depth: u32) -> bool {
    if immediate_five(board, attacker, rule).is_some() {
        return true;
    }
    if depth == 0 {
        return false;
    }
    let defender = attacker.opponent();
    let empties: Vec<Point> = board.points().filter(|p| board.is_empty_at(*p)).collect();
    for &m in &empties {
        board.place(m, attacker);
        let forcing = immediate_five(board, attacker, rule).is_some()
            && immediate_five(board, defender, rule).is_none();
        let wins = forcing
            && empties.iter().filter(|d| **d != m).all(|&d| {
                board.place(d, defender);
                let w = immediate_five(board, attacker, rule).is_some()
                    || brute_vcf(board, attacker, rule, depth - 1);
                board.remove(d);
                w
            });
        board.remove(m);
        if wins {
            return true;
        }
    }
    false
}

fn cases() -> Vec<Case> {
    parse(SUITE)
}

#[test]
fn suite_is_big_enough() {
    let cases = cases();
    assert!(cases.iter().filter(|c| c.win == Some(true)).count() >= 10);
    assert!(cases.iter().filter(|c| c.win == Some(false)).count() >= 10);
}

#[test]
fn vcf_wins_are_found_and_proven_by_brute_force() {
    for case in cases().iter().filter(|c| c.win == Some(true)) {
        let game = case.game();
        let mut pos = Position::from_game(&game);
        let ply = pos.ply();
        let proof = vcf(&mut pos, 40, 2_000_000);
        let Proof::Win(line) = &proof else {
            panic!("{}: expected a win, got {proof:?}", case.label);
        };
        // The solver leaves the position as it found it.
        assert_eq!(pos.ply(), ply);
        // The recorded proof and the found one start alike.
        assert_eq!(pos.point(line[0]), case.proof[0], "{}", case.label);
        let mut board = game.board().clone();
        assert!(
            proves(
                &mut board,
                game.to_move(),
                case.rule,
                30,
                &mut FailCache::new(16)
            ),
            "{}: the win does not hold against every reply",
            case.label
        );
    }
}

#[test]
fn vcf_refutations_hold() {
    for case in cases().iter().filter(|c| c.win == Some(false)) {
        let game = case.game();
        let mut pos = Position::from_game(&game);
        assert_eq!(vcf(&mut pos, 40, 2_000_000), Proof::NoWin, "{}", case.label);
        let mut board = game.board().clone();
        assert!(
            !brute_vcf(&mut board, game.to_move(), case.rule, 2),
            "{}: brute force finds a short VCF",
            case.label
        );
    }
}

/// Builds a board from rows (`X`, `O`, `.`); the side to move is given.
fn position(rows: &[&str], rule: Rule, to_move: Stone) -> Position {
    let mut b = Board::new(rows[0].len() as u32, rows.len() as u32).unwrap();
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            match c {
                'X' => b.place(Point::new(x as u8, y as u8), Stone::X),
                'O' => b.place(Point::new(x as u8, y as u8), Stone::O),
                _ => {}
            }
        }
    }
    Position::from_board(&b, rule, to_move)
}

#[test]
fn vct_known_answers() {
    // A three-three: one move makes two open threes; no fours anywhere, so no VCF.
    let mut pos = position(
        &[
            "...............",
            "...............",
            "...............",
            ".....XX........",
            "...............",
            ".......X.......",
            ".......X.......",
            "...............",
            "...............",
        ],
        Rule::Freestyle,
        Stone::X,
    );
    assert_eq!(vcf(&mut pos, 20, 100_000), Proof::NoWin);
    assert!(matches!(vct(&mut pos, 4, 500_000), Proof::Win(_)));

    // The same, but O can answer with a four of its own that also blocks: O holds.
    // O's stones at (3,3),(4,3)? No: O has three in a row on row 5 ending next to the
    // double-three point's line, so every X three is met by an O four.
    let mut pos = position(
        &[
            "...............",
            "...............",
            "...............",
            ".....XX........",
            "...............",
            "..OOO..X.......",
            ".......X.......",
            "...............",
            "...............",
        ],
        Rule::Freestyle,
        Stone::X,
    );
    let proof = vct(&mut pos, 4, 500_000);
    assert!(!matches!(proof, Proof::Win(_)), "{proof:?}");

    // Caro: a double three whose threes are both boxed in by O stones two points out is
    // no win (every open four would end up blocked at both ends); in freestyle it is.
    let rows = [
        "...............",
        "..O......O.....",
        "...............",
        "....XX.........",
        "...............",
        "......X........",
        "......X........",
        "...............",
        "......O........",
        "...............",
    ];
    let mut caro = position(&rows, Rule::Caro, Stone::X);
    let mut free = position(&rows, Rule::Freestyle, Stone::X);
    assert!(matches!(vct(&mut free, 4, 500_000), Proof::Win(_)));
    assert!(!matches!(vct(&mut caro, 3, 500_000), Proof::Win(_)));
}
