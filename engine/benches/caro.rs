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

use banco_engine::bot::{Bot, Limits};
use banco_engine::caro::Config;
use banco_engine::caro::Engine;
use banco_engine::caro::MATE_BOUND;
use banco_engine::caro::position::Position;
use banco_engine::caro::vcf::{Proof, vcf};
use banco_rules::Level;

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
    let cpu_before = thread_cpu();
    let start = Instant::now();
    for _ in 0..rounds {
        let c = cands[(next() % cands.len() as u64) as usize];
        pos.make(c);
        pos.unmake();
    }
    let ns = start.elapsed().as_nanos() as f64 / rounds as f64;
    let cpu_ns = thread_cpu().zip(cpu_before).map_or(ns, |(a, b)| {
        a.saturating_sub(b).as_nanos() as f64 / rounds as f64
    });
    println!(
        "make+unmake: {ns:.0} ns per pair ({cpu_ns:.0} ns of CPU; {rounds} pairs, 15x15 middle game)"
    );
}

fn search() {
    println!("search, 1 s per position at the max level's settings:");
    println!(
        "  {:<4} {:>6} {:>10} {:>9} {:>9} {:>8}  best",
        "pos", "depth", "nodes", "knodes/s", "per CPU s", "score"
    );
    let cases = suite::parse(MIDGAME);
    let (mut depths, mut nps, mut cpu_nps, mut open) = (0u32, 0f64, 0f64, 0u32);
    for (i, case) in cases.iter().enumerate() {
        let mut config = Config::for_level(Level::Max);
        config.move_time = Duration::from_secs(1);
        let mut engine = Engine::with_config(config);
        let game = case.game();
        let cpu_before = thread_cpu();
        let t = engine.think(&game, &Limits::none());
        let cpu = thread_cpu()
            .zip(cpu_before)
            .map(|(a, b)| a.saturating_sub(b));
        let rate = t.nodes as f64 / t.elapsed.as_secs_f64() / 1000.0;
        let cpu_rate = cpu.map_or(rate, |c| {
            t.nodes as f64 / c.as_secs_f64().max(0.01) / 1000.0
        });
        // A position settled by a forced reply or a forced win says nothing about depth.
        let note = if t.nodes == 0 {
            "  (single forced reply)"
        } else if t.score.abs() >= MATE_BOUND {
            "  (forced win found)"
        } else {
            depths += t.depth;
            nps += rate;
            cpu_nps += cpu_rate;
            open += 1;
            ""
        };
        let best = t.best.map_or_else(|| "-".to_string(), |p| p.to_string());
        println!(
            "  {:<4} {:>6} {:>10} {:>9.0} {:>9.0} {:>8}  {best}{note}",
            i + 1,
            t.depth,
            t.nodes,
            rate,
            cpu_rate,
            t.score,
        );
    }
    let n = f64::from(open.max(1));
    println!(
        "  over the {open} open positions: mean depth {:.1}, {:.0} knodes per second ({:.0} per CPU second)",
        f64::from(depths) / n,
        nps / n,
        cpu_nps / n,
    );
}

/// This thread's CPU time so far (Linux: `/proc/thread-self/stat`, 10 ms ticks), so a
/// busy shared machine does not make the engine look slower than it is.
fn thread_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are the 14th and
    // 15th fields of the whole line.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
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
