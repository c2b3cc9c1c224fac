//! Checks banco's renju forbidden points against an independent finder, position by
//! position.
//!
//! ```sh
//! cargo run --release -p banco-rules --example renju_check -- ORACLE [COUNT] [SEED] [--write FILE]
//! ```
//!
//! ORACLE is a program that reads one position a line, `N CELLS` (a square board of side
//! N, then its N*N cells row by row from the top, `X` Black, `O` White, `.` empty), and
//! answers each with one line: the points forbidden to Black as `x,y` (x from the left,
//! y from the top), space-separated, in row order. The book's renju chapter says how the
//! finders used so far were made. COUNT positions (default 100,000) are made from SEED
//! (default 1): half from random games in which both sides play near the stones already
//! down (Black never on a point banco forbids), every position of each game kept, and
//! half scattered at random around the centre; positions where a five or a black
//! overline already stands are skipped. Every disagreement is printed with its board.
//!
//! `--write FILE` also writes every position with the oracle's answer in the format of
//! `rules/tests/data/renju.txt`, the sample the test suite checks banco against.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use banco_rules::caro::renju::{self, BLACK, Foul};
use banco_rules::caro::{Board, Point, Stone};

/// xorshift64*: the example needs a reproducible stream, nothing more.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const SIDE: u8 = 15;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let write = match args.iter().position(|a| a == "--write") {
        Some(i) if i + 1 < args.len() => {
            let path = args.remove(i + 1);
            args.remove(i);
            Some(path)
        }
        Some(_) => return Err("--write needs a file".into()),
        None => None,
    };
    let Some(oracle) = args.first() else {
        return Err("usage: renju_check ORACLE [COUNT] [SEED] [--write FILE]".into());
    };
    let count: usize = args.get(1).map_or(Ok(100_000), |s| s.parse())?;
    let seed: u64 = args.get(2).map_or(Ok(1), |s| s.parse())?;
    let positions = positions(count, seed);
    let mut sample = match &write {
        Some(path) => {
            let mut f = std::fs::File::create(path)?;
            writeln!(
                f,
                "# Renju forbidden points, as {} answered: N CELLS => x,y ... (rules/examples/renju_check.rs, seed {seed})",
                std::path::Path::new(oracle)
                    .file_name()
                    .map_or_else(|| oracle.clone(), |n| n.to_string_lossy().into_owned())
            )?;
            Some(f)
        }
        None => None,
    };

    let mut child = Command::new(oracle)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the oracle {oracle}: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let mut stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
    let (mut differ, mut kinds) = (0usize, [0usize; 3]);
    for (i, b) in positions.iter().enumerate() {
        writeln!(stdin, "{} {}", SIDE, cells(b))?;
        stdin.flush()?;
        let mut line = String::new();
        stdout.read_line(&mut line)?;
        let theirs: BTreeSet<Point> = line
            .split_whitespace()
            .filter_map(|t| {
                let (x, y) = t.split_once(',')?;
                Some(Point::new(x.parse().ok()?, y.parse().ok()?))
            })
            .collect();
        if let Some(f) = sample.as_mut() {
            writeln!(f, "{} {} => {}", SIDE, cells(b), points(&theirs))?;
        }
        let found = renju::forbidden_points(b);
        for (_, foul) in &found {
            kinds[*foul as usize] += 1;
        }
        let mine: BTreeSet<Point> = found.into_iter().map(|(p, _)| p).collect();
        if mine != theirs {
            differ += 1;
            if differ <= 20 {
                println!(
                    "position {i}: banco {} / oracle {}",
                    points(&mine),
                    points(&theirs)
                );
                println!("{}", diagram(b, &mine, &theirs));
            }
        }
    }
    drop(stdin);
    let _ = child.wait();
    println!(
        "{} positions (seed {seed}); banco forbids {} points ({} overlines, {} double fours, {} double threes); {differ} positions disagree",
        positions.len(),
        kinds.iter().sum::<usize>(),
        kinds[Foul::Overline as usize],
        kinds[Foul::DoubleFour as usize],
        kinds[Foul::DoubleThree as usize],
    );
    Ok(())
}

/// The board's cells row by row: `X`, `O`, `.`.
fn cells(b: &Board) -> String {
    b.points()
        .map(|p| b.stone_at(p).map_or('.', Stone::symbol))
        .collect()
}

fn points(set: &BTreeSet<Point>) -> String {
    let v: Vec<String> = set.iter().map(|p| p.to_string()).collect();
    if v.is_empty() {
        "-".into()
    } else {
        v.join(" ")
    }
}

/// The board with `b` where only banco forbids, `o` where only the oracle does, `*` where
/// both do.
fn diagram(b: &Board, mine: &BTreeSet<Point>, theirs: &BTreeSet<Point>) -> String {
    let mut s = String::new();
    for y in 0..b.height() {
        for x in 0..b.width() {
            let p = Point::new(x, y);
            let c = match (b.stone_at(p), mine.contains(&p), theirs.contains(&p)) {
                (Some(st), _, _) => st.symbol(),
                (None, true, true) => '*',
                (None, true, false) => 'b',
                (None, false, true) => 'o',
                (None, false, false) => '.',
            };
            s.push(c);
            s.push(' ');
        }
        s.push('\n');
    }
    s
}

/// Whether a five (or a black overline) already stands: such boards never occur in a game.
fn decided(b: &Board) -> bool {
    b.points().any(|p| match b.stone_at(p) {
        Some(s) => banco_rules::caro::rules::DIRECTIONS
            .iter()
            .any(|&(dx, dy)| {
                let run = |sign: i32| {
                    (1..6)
                        .take_while(|&k| {
                            b.cell(
                                i32::from(p.x) + dx * k * sign,
                                i32::from(p.y) + dy * k * sign,
                            ) == Some(Some(s))
                        })
                        .count()
                };
                run(1) + run(-1) + 1 >= 5
            }),
        None => false,
    })
}

fn positions(count: usize, seed: u64) -> Vec<Board> {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut out = Vec::with_capacity(count);
    while out.len() < count / 2 {
        for b in game(&mut rng) {
            if out.len() < count / 2 {
                out.push(b);
            }
        }
    }
    while out.len() < count {
        let b = scattered(&mut rng);
        if !decided(&b) {
            out.push(b);
        }
    }
    out
}

/// Every position of one random game in which both sides play within two points of the
/// stones down, Black never on a point banco forbids, until a five or 120 stones.
fn game(rng: &mut Rng) -> Vec<Board> {
    let mut b = Board::new(u32::from(SIDE), u32::from(SIDE)).expect("15x15 is a board");
    let mut seen = Vec::new();
    let mut to_move = Stone::X;
    b.place(Point::new(7, 7), Stone::X);
    to_move = to_move.opponent();
    for _ in 0..120 {
        let near: Vec<Point> = b
            .points()
            .filter(|&p| b.is_empty_at(p))
            .filter(|&p| {
                (-2..=2).any(|dx: i32| {
                    (-2..=2).any(|dy: i32| {
                        b.cell(i32::from(p.x) + dx, i32::from(p.y) + dy)
                            .flatten()
                            .is_some()
                    })
                })
            })
            .filter(|&p| to_move != BLACK || renju::foul(&b, p).is_none())
            .collect();
        if near.is_empty() {
            break;
        }
        let p = near[rng.below(near.len() as u64) as usize];
        b.place(p, to_move);
        if decided(&b) {
            break;
        }
        seen.push(b.clone());
        to_move = to_move.opponent();
    }
    seen
}

/// 10 to 70 stones of each colour scattered around the centre, more densely near it.
fn scattered(rng: &mut Rng) -> Board {
    let mut b = Board::new(u32::from(SIDE), u32::from(SIDE)).expect("15x15 is a board");
    let white = 5 + rng.below(30) as usize;
    let black = white + rng.below(2) as usize;
    let spread = 3 + rng.below(5) as i32;
    for (n, stone) in [(black, Stone::X), (white, Stone::O)] {
        let mut placed = 0;
        let mut tries = 0;
        while placed < n && tries < 10_000 {
            tries += 1;
            let off = |rng: &mut Rng| {
                (rng.below(spread as u64 * 2 + 1) as i32 - spread)
                    + (rng.below(spread as u64 * 2 + 1) as i32 - spread) / 2
            };
            let x = 7 + off(rng);
            let y = 7 + off(rng);
            if b.cell(x, y) == Some(None) {
                b.place(Point::new(x as u8, y as u8), stone);
                placed += 1;
            }
        }
    }
    b
}
