//! Self-play tuning of the xiangqi evaluation: banco's engine with changed weights against
//! the same engine with the defaults, at a fixed number of nodes per move (so the result
//! does not depend on how busy the machine is), without the book, every opening played
//! once with each colour. A game still going after 300 plies is scored a draw.

use std::time::Duration;

use anyhow::{Context, Result, bail};
use banco_engine::bot::{Bot, Limits};
use banco_engine::xiangqi::Config;
use banco_engine::xiangqi::Engine;
use banco_engine::xiangqi::eval::Weights;
use banco_rules::Level;
use banco_rules::xiangqi::{Color, Game};

use crate::openings::Opening;
use crate::stats::{Score, Tally};

/// Games longer than this are adjudicated drawn.
const MAX_PLIES: usize = 300;

/// Reads `NAME=MG,EG` (or `NAME=V`) changes onto the default weights.
pub fn weights(changes: &[String]) -> Result<Weights> {
    let mut w = Weights::DEFAULT;
    for change in changes {
        let (name, value) = change
            .split_once('=')
            .with_context(|| format!("'{change}': write NAME=MG,EG"))?;
        let (mg, eg) = value.split_once(',').unwrap_or((value, value));
        let mg: i32 = mg
            .trim()
            .parse()
            .with_context(|| format!("'{change}': bad number"))?;
        let eg: i32 = eg
            .trim()
            .parse()
            .with_context(|| format!("'{change}': bad number"))?;
        w.set(name.trim(), mg, eg)?;
    }
    Ok(w)
}

fn engine(weights: Weights) -> Engine {
    let mut config = Config::for_level(Level::Max);
    config.weights = weights;
    config.use_book = false;
    config.hash_mb = 16;
    config.move_time = Duration::from_secs(3600);
    Engine::with_config(config)
}

/// One game from `opening`, the candidate playing `candidate_color`: its score.
fn game(
    candidate: Weights,
    opening: &Opening,
    candidate_color: Color,
    nodes: u64,
) -> Result<Score> {
    let mut game = Game::new();
    for token in &opening.moves {
        let mv = token
            .parse()
            .with_context(|| format!("bad opening move '{token}'"))?;
        game.play(mv)
            .with_context(|| format!("illegal opening move '{token}'"))?;
    }
    let mut a = engine(candidate);
    let mut b = engine(Weights::DEFAULT);
    while game.outcome().is_none() && game.plies().len() < MAX_PLIES {
        let player = if game.to_move() == candidate_color {
            &mut a
        } else {
            &mut b
        };
        let Some(mv) = player.think(&game, &Limits::none().nodes(nodes)).best else {
            bail!("no move in a game that is not over");
        };
        game.play(mv)?;
    }
    Ok(match game.outcome().and_then(|o| o.winner) {
        Some(c) if c == candidate_color => Score::Win,
        Some(_) => Score::Loss,
        None => Score::Draw,
    })
}

/// Plays `pairs` openings with both colours; `on_game` sees the tally after each game.
pub fn ab(
    candidate: Weights,
    openings: &[Opening],
    pairs: usize,
    nodes: u64,
    mut on_game: impl FnMut(&Tally),
) -> Result<Tally> {
    let mut tally = Tally::default();
    for i in 0..pairs {
        let opening = &openings[i % openings.len()];
        for color in [Color::Red, Color::Black] {
            tally.add(game(candidate, opening, color, nodes)?);
            on_game(&tally);
        }
    }
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_are_read() {
        let w = weights(&["material.soldier=20,30".into(), "tempo=5".into()]).unwrap();
        assert_eq!(w.material[6], (20, 30));
        assert_eq!(w.tempo, 5);
        assert!(weights(&["tempo".into()]).is_err());
        assert!(weights(&["tempo=x".into()]).is_err());
        assert!(weights(&["nonsense=1".into()]).is_err());
    }

    #[test]
    fn identical_weights_split_a_pair() {
        // The same engine on both sides of one opening: the colours decide, so the pair
        // is one win and one loss, or two draws.
        let openings = crate::openings::parse("h2e2 h9g7").unwrap();
        let t = ab(Weights::DEFAULT, &openings, 1, 300, |_| {}).unwrap();
        assert_eq!(t.games(), 2);
        assert!((t.score() - 0.5).abs() < 1e-9, "{t:?}");
    }
}
