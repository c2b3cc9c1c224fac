//! Pairing speed: a report, not a pass/fail test.
//!
//! ```sh
//! nice -n 10 cargo bench -p banco-pairing --bench pairing            # everything
//! nice -n 10 cargo bench -p banco-pairing --bench pairing -- swiss   # one section
//! ```
//!
//! Sections:
//! - `swiss`: a 200-player, 11-round Swiss played out with random results (a few
//!   half-point byes and forfeits); the time to pair each round, late rounds in detail.
//! - `arena`: an arena wave of 500 free players with random scores and last opponents.

use std::time::{Duration, Instant};

use banco_pairing::arena::{ArenaPlayer, pair_wave};
use banco_pairing::{Bye, ByeKind, Game, GameResult, Player, Round, Tournament, dutch};

/// xorshift64: deterministic random results.
struct Dice(u64);

impl Dice {
    fn roll(&mut self, sides: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % sides
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wants = |s: &str| args.is_empty() || args.iter().any(|a| a == s);
    if wants("swiss") {
        swiss();
    }
    if wants("arena") {
        arena();
    }
}

fn swiss() {
    const PLAYERS: usize = 200;
    const ROUNDS: u32 = 11;
    let mut dice = Dice(0x5eed_1234_abcd_0001);
    let mut t = Tournament::new(
        (0..PLAYERS)
            .map(|i| Player::new(format!("Player {i}"), 2700 - 3 * i as u16))
            .collect(),
        ROUNDS,
    );
    println!("swiss: {PLAYERS} players, {ROUNDS} rounds (time to pair each round, best of 3)");
    let mut late = Duration::ZERO;
    for r in 1..=ROUNDS {
        let byes: Vec<Bye> = (0..PLAYERS)
            .filter(|_| dice.roll(100) < 2)
            .map(|p| Bye {
                player: p,
                kind: ByeKind::HalfPoint,
            })
            .collect();
        let mut best = Duration::MAX;
        let mut pairing = None;
        for _ in 0..3 {
            let start = Instant::now();
            let p = dutch::pair(&t, &byes);
            best = best.min(start.elapsed());
            pairing = Some(p);
        }
        let Some(Ok(pairing)) = pairing else {
            println!("  round {r}: no valid pairing");
            return;
        };
        println!(
            "  round {r:2}: {:7.1} ms  ({} boards)",
            best.as_secs_f64() * 1e3,
            pairing.boards.len()
        );
        if r >= 8 {
            late += best;
        }
        let mut round = Round {
            games: Vec::new(),
            byes,
        };
        for b in &pairing.boards {
            let result = match dice.roll(40) {
                0 => GameResult::WhiteWinsByForfeit,
                1..=12 => GameResult::Draw,
                13..=27 => GameResult::WhiteWins,
                _ => GameResult::BlackWins,
            };
            round.games.push(Game {
                white: b.white,
                black: b.black,
                result,
            });
        }
        if let Some(p) = pairing.bye {
            round.byes.push(Bye {
                player: p,
                kind: ByeKind::PairingAllocated,
            });
        }
        t.rounds.push(round);
    }
    println!(
        "  late rounds (8-11): {:.1} ms per round on average",
        late.as_secs_f64() * 1e3 / 4.0
    );
}

fn arena() {
    const PLAYERS: usize = 500;
    let mut dice = Dice(0xa7e7_a000_0000_0005);
    let waves = 200;
    let mut total = Duration::ZERO;
    let mut worst = Duration::ZERO;
    let mut boards = 0;
    for _ in 0..waves {
        let free: Vec<ArenaPlayer> = (0..PLAYERS)
            .map(|id| ArenaPlayer {
                id,
                score: dice.roll(60) as u32,
                rating: 1200 + dice.roll(1400) as u16,
                last_opponent: Some(dice.roll(PLAYERS as u64) as usize).filter(|&o| o != id),
                colour_balance: dice.roll(3) as i32 - 1,
            })
            .collect();
        let start = Instant::now();
        let wave = pair_wave(&free);
        let took = start.elapsed();
        total += took;
        worst = worst.max(took);
        boards += wave.boards.len();
    }
    println!(
        "arena: a wave of {PLAYERS} free players: {:.3} ms on average, {:.3} ms at worst ({waves} waves, {} boards each)",
        total.as_secs_f64() * 1e3 / waves as f64,
        worst.as_secs_f64() * 1e3,
        boards / waves
    );
}
