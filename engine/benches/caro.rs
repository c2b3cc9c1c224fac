//! Caro engine benchmark: a report, not a pass/fail test.
//!
//! ```sh
//! nice -n 10 cargo bench -p banco-engine --bench caro            # everything
//! nice -n 10 cargo bench -p banco-engine --bench caro -- search  # one section
//! ```
//!
//! Sections:
//! - `make`: make + unmake throughput on random middle-game positions.
//! - `search`: depth reached and nodes per second in 1 s from each middle-game position
//!   (`benches/data/midgame.txt`), at the `max` level's settings.
//! - `vcf`: VCF solve time on the tactical suite (`benches/data/vcf.txt`).
//! - `levels`: each level's move time against its budget (overrun), a few positions each.

use std::time::{Duration, Instant};

use banco_engine::bot::{Bot, Level, Limits};
use banco_engine::caro::level::Config;
use banco_engine::caro::notation::parse_point;
use banco_engine::caro::position::Position;
use banco_engine::caro::vcf::{Proof, vcf};
use banco_engine::caro::{Engine, Game, Point, Rule};

#[path = "support/suite.rs"]
mod suite;

const MIDGAME: &str = include_str!("data/midgame.txt");
const VCF_SUITE: &str = include_str!("data/vcf.txt");

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wants = |s: &str| args.is_empty() || args.iter().any(|a| a == s);
    if wants("make") {
        make_unmake();
    }
    if wants("search") {
        search();
    }
    if wants("vcf") {
        vcf_suite();
    }
    if wants("levels") {
        levels();
    }
}

fn make_unmake() {
    let cases = suite::parse(MIDGAME);
    let mut pos = Position::from_game(&cases[0].game());
    let mut rng = 0x1234_5678_u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut cands = Vec::new();
    pos.candidates(&mut cands);
    let rounds = 2_000_000u64;
    let start = Instant::now();
    for _ in 0..rounds {
        let c = cands[(next() % cands.len() as u64) as usize];
        pos.make(c);
        pos.unmake();
    }
    let ns = start.elapsed().as_nanos() as f64 / rounds as f64;
    println!("make+unmake: {ns:.0} ns per pair ({rounds} pairs, 15x15 middle game)");
}

fn search() {
    println!("search, 1 s per position at the max level's settings:");
    println!(
        "  {:<4} {:>6} {:>10} {:>9} {:>8}  best",
        "pos", "depth", "nodes", "knodes/s", "score"
    );
    let cases = suite::parse(MIDGAME);
    let (mut depths, mut nps) = (0u32, 0f64);
    for (i, case) in cases.iter().enumerate() {
        let mut config = Config::for_level(Level::Max);
        config.move_time = Duration::from_secs(1);
        let mut engine = Engine::with_config(config);
        let game = case.game();
        let t = engine.think(&game, &Limits::none());
        let rate = t.nodes as f64 / t.elapsed.as_secs_f64() / 1000.0;
        depths += t.depth;
        nps += rate;
        let best = t.best.map_or_else(|| "-".to_string(), |p| p.to_string());
        println!(
            "  {:<4} {:>6} {:>10} {:>9.0} {:>8}  {best}",
            i + 1,
            t.depth,
            t.nodes,
            rate,
            t.score
        );
    }
    let n = cases.len() as f64;
    println!(
        "  mean depth {:.1}, mean {:.0} knodes/s over {} positions",
        f64::from(depths) / n,
        nps / n,
        cases.len()
    );
}

fn vcf_suite() {
    let cases = suite::parse(VCF_SUITE);
    let mut times = Vec::new();
    let mut worst = (Duration::ZERO, String::new());
    let mut correct = 0;
    for case in &cases {
        let game = case.game();
        let mut pos = Position::from_game(&game);
        let start = Instant::now();
        let proof = vcf(&mut pos, 40, 10_000_000);
        let t = start.elapsed();
        let ok = match (&proof, case.win) {
            // A win must start where the recorded proof does.
            (Proof::Win(line), Some(true)) => {
                case.proof.first() == line.first().map(|c| pos.point(*c)).as_ref()
            }
            (Proof::NoWin, Some(false)) => true,
            _ => false,
        };
        correct += usize::from(ok);
        times.push(t);
        if t > worst.0 {
            worst = (t, case.label.clone());
        }
    }
    times.sort();
    let total: Duration = times.iter().sum();
    println!(
        "vcf suite: {correct}/{} answered as recorded; mean {:.2} ms, median {:.2} ms, worst {:.2} ms",
        cases.len(),
        total.as_secs_f64() * 1000.0 / cases.len() as f64,
        times[times.len() / 2].as_secs_f64() * 1000.0,
        worst.0.as_secs_f64() * 1000.0,
    );
}

fn levels() {
    println!("level move times (budget = the level's own):");
    let cases = suite::parse(MIDGAME);
    for level in Level::ALL {
        let mut engine = Engine::new(level);
        let budget = engine.config().move_time;
        let mut worst = Duration::ZERO;
        let mut total = Duration::ZERO;
        let picks: Vec<&suite::Case> = cases.iter().step_by(4).collect();
        for case in &picks {
            let game = case.game();
            let start = Instant::now();
            let _ = engine.think(&game, &Limits::none());
            let t = start.elapsed();
            total += t;
            worst = worst.max(t);
        }
        println!(
            "  {level:<6} budget {:>5} ms  mean {:>5} ms  longest {:>5} ms  overrun {} ms",
            budget.as_millis(),
            (total / picks.len() as u32).as_millis(),
            worst.as_millis(),
            worst.saturating_sub(budget).as_millis()
        );
    }
}
