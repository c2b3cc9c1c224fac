//! banco's renju forbidden points against an independent finder's, on a fixed sample.
//!
//! `tests/data/renju.txt` holds 1,000 positions (random games and scattered stones, seed
//! 7) with the points Piskvork's forbidden-point finder gave for each; Wenzhe Lu's finder
//! gave the same. `rules/examples/renju_check.rs` made it, and runs any number of fresh
//! positions against a finder (the book's renju chapter has the command and the figures).

use std::collections::BTreeSet;

use banco_rules::caro::renju;
use banco_rules::caro::{Board, Point, Stone};

#[test]
fn the_sample_agrees_with_the_oracle_point_for_point() {
    let text = include_str!("data/renju.txt");
    let mut checked = 0;
    let mut forbidden = 0;
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#'))
    {
        let (position, answer) = line.split_once(" => ").expect("POSITION => POINTS");
        let (side, cells) = position.split_once(' ').expect("N CELLS");
        let side: u8 = side.parse().expect("a side");
        let mut board = Board::new(u32::from(side), u32::from(side)).expect("a board");
        for (i, c) in cells.chars().enumerate() {
            let p = Point::new((i % side as usize) as u8, (i / side as usize) as u8);
            match c {
                'X' => board.place(p, Stone::X),
                'O' => board.place(p, Stone::O),
                _ => {}
            }
        }
        let expected: BTreeSet<String> = if answer == "-" {
            BTreeSet::new()
        } else {
            answer.split(' ').map(str::to_string).collect()
        };
        let ours: BTreeSet<String> = renju::forbidden_points(&board)
            .into_iter()
            .map(|(p, _)| p.to_string())
            .collect();
        assert_eq!(ours, expected, "line {}: {position}", n + 1);
        checked += 1;
        forbidden += expected.len();
    }
    assert_eq!(checked, 1000);
    assert!(
        forbidden > 1000,
        "the sample holds forbidden points to find"
    );
}
