//! Search speed: fixed-depth searches of a set of positions, printing nodes, time and
//! nodes per second. The node total is a signature: it changes only when the search or
//! evaluation does.
//!
//! ```sh
//! nice -n 10 cargo bench -p banco-engine --bench xiangqi_search            # depth 10
//! nice -n 10 cargo bench -p banco-engine --bench xiangqi_search -- 12      # deeper
//! ```

use std::time::Instant;

use banco_engine::bot::Limits;
use banco_engine::xiangqi::{Options, Searcher};
use banco_rules::xiangqi::Game;

const POSITIONS: &[&str] = &[
    banco_rules::xiangqi::START,
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "rnbakabr1/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/6P2/P1P1P3P/1C2C1N2/9/RNBAKAB1R w - - 0 1",
    "2bakab2/9/2n1c1n2/p3p3p/2p3p2/9/P1P1P1P1P/2N1C1N2/9/2BAKAB2 w - - 0 1",
    "3ak4/4a4/4b4/p3p3p/9/2P3P2/P7P/4B4/4A4/2BAK4 w - - 0 1",
    "4kab2/4a4/4b4/3N5/9/4R4/9/9/4A4/3AK1B2 w - - 0 1",
    "3k5/4a4/5a3/9/9/9/9/9/9/4K1R1R w - - 0 1",
];

fn main() {
    let depth: u32 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(10);
    let mut total_nodes = 0;
    let start = Instant::now();
    for fen in POSITIONS {
        let game = Game::from_fen(fen).expect("bench FENs are valid");
        let mut searcher = Searcher::new(16);
        let t = Instant::now();
        let out = searcher.search(
            &game,
            &Limits::none().depth(depth),
            &Options::default(),
            &mut |_| {},
        );
        let secs = t.elapsed().as_secs_f64();
        total_nodes += out.nodes;
        println!(
            "{:>10} nodes {:7.3} s {:6.0} knodes/s  best {} score {:6}  {fen}",
            out.nodes,
            secs,
            out.nodes as f64 / secs / 1e3,
            out.best.map_or("-".to_string(), |m| m.to_string()),
            out.score
        );
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "depth {depth}: {total_nodes} nodes in {secs:.3} s = {:.0} knodes/s",
        total_nodes as f64 / secs / 1e3
    );
}
