//! Renju self-play, every move checked by the rules: the engine must never choose a
//! point forbidden to Black, lost positions included (where Black's only block is
//! forbidden). Prints each game that broke the rule and the count.
//!
//!   cargo run --release -p banco-engine --example renju_selfplay [GAMES] [NODES]

use banco_engine::bot::{Bot, Limits};
use banco_engine::caro::Engine;
use banco_rules::Level;
use banco_rules::caro::{Game, Point, Rule};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(30);
    let nodes: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let mut broken = 0;
    for g in 0..games {
        // Three-stone openings around the centre, varied game by game.
        let opening = [
            Point::new(7, 7),
            Point::new(8, 7 - (g % 3) as u8),
            Point::new(6 + (g % 4) as u8, 8),
        ];
        let Ok(mut game) = Game::with_opening(15, 15, Rule::Renju, &opening) else {
            continue;
        };
        let mut engine = Engine::new(Level::Max);
        while game.outcome().is_none() {
            let limits = Limits::none().nodes(nodes + u64::from(g) * 1000);
            let Some(p) = engine.think(&game, &limits).best else {
                break;
            };
            if let Err(e) = game.check(p) {
                broken += 1;
                let moves: Vec<String> = game.moves().iter().map(Point::to_string).collect();
                println!("game {g}: {e}; moves {}", moves.join(" "));
                break;
            }
            if game.play(p).is_err() {
                break;
            }
        }
    }
    println!("{games} games, {broken} with a forbidden move");
}
