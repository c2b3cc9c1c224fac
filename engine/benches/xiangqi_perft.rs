//! Perft speed for xiangqi move generation: the published positions at depth 5 (and 6 for
//! the start position with `--deep`), printing nodes and nodes per second.
//!
//! ```sh
//! nice -n 10 cargo bench -p banco-engine --bench xiangqi_perft            # depth 5
//! nice -n 10 cargo bench -p banco-engine --bench xiangqi_perft -- --deep  # adds depth 6
//! ```
//! Counts are checked against the published ones; a mismatch fails the run.

use std::time::Instant;

use banco_rules::xiangqi::{Position, perft::perft};

const CASES: &[(&str, &str, u32, u64)] = &[
    ("start", banco_rules::xiangqi::START, 5, 133_312_995),
    (
        "midgame",
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        5,
        53_112_976,
    ),
];

fn run(name: &str, fen: &str, depth: u32, want: u64) -> bool {
    let mut pos = Position::from_fen(fen).expect("bench FENs are valid");
    let t = Instant::now();
    let nodes = perft(&mut pos, depth);
    let secs = t.elapsed().as_secs_f64();
    let ok = nodes == want;
    println!(
        "{name:8} depth {depth}: {nodes:>13} nodes in {secs:7.3} s = {:6.1} Mnodes/s {}",
        nodes as f64 / secs / 1e6,
        if ok { "ok" } else { "WRONG" }
    );
    ok
}

fn main() {
    let deep = std::env::args().any(|a| a == "--deep");
    let mut ok = true;
    for &(name, fen, depth, want) in CASES {
        ok &= run(name, fen, depth, want);
    }
    if deep {
        ok &= run("start", banco_rules::xiangqi::START, 6, 5_392_831_844);
    }
    if !ok {
        std::process::exit(1);
    }
}
