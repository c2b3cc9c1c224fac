//! Opening files: one balanced starting position per line, played by both colours.
//!
//! # Format
//! One opening per line, moves separated by spaces, `#` starts a comment. A caro move is
//! `dx,dy`: the offset from the board's centre point (`width / 2`, `height / 2`), so the
//! same file serves every board size. A xiangqi move is ICCS (`h2e2`), from the start
//! position. Moves alternate from the first player.

use anyhow::{Context, Result, bail};
use banco_rules::caro::Point;
use banco_rules::game::{Game, Move};

/// The caro openings shipped with the arena (`openings/caro.txt`).
pub const CARO: &str = include_str!("../openings/caro.txt");
/// The xiangqi openings shipped with the arena (`openings/xiangqi.txt`).
pub const XIANGQI: &str = include_str!("../openings/xiangqi.txt");

/// One opening: its moves as written, and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    /// The move tokens, in order.
    pub moves: Vec<String>,
    /// Line number in its file (1-based), for messages.
    pub line: usize,
}

impl Opening {
    /// The opening as it would be written in a file.
    pub fn text(&self) -> String {
        self.moves.join(" ")
    }

    /// Plays the opening's moves on `game` (fresh from its start).
    pub fn apply(&self, game: &mut Game) -> Result<()> {
        for token in &self.moves {
            let mv = parse_move(game, token)
                .with_context(|| format!("opening on line {}: bad move '{token}'", self.line))?;
            if game
                .play(mv)
                .with_context(|| format!("opening on line {}: '{token}' is illegal", self.line))?
                .is_some()
            {
                bail!("opening on line {} ends the game", self.line);
            }
        }
        Ok(())
    }
}

/// Reads an openings file.
pub fn parse(text: &str) -> Result<Vec<Opening>> {
    let openings: Vec<Opening> = text
        .lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let body = line.split('#').next().unwrap_or("").trim();
            (!body.is_empty()).then(|| Opening {
                moves: body.split_whitespace().map(str::to_string).collect(),
                line: i + 1,
            })
        })
        .collect();
    if openings.is_empty() {
        bail!("no openings in the file");
    }
    Ok(openings)
}

/// A move token of an opening, for `game`.
fn parse_move(game: &Game, token: &str) -> Result<Move> {
    match game {
        Game::Caro(g) => {
            let (dx, dy) = token.split_once(',').context("expected dx,dy")?;
            let dx: i32 = dx.trim().parse()?;
            let dy: i32 = dy.trim().parse()?;
            let board = g.board();
            let x = i32::from(board.width()) / 2 + dx;
            let y = i32::from(board.height()) / 2 + dy;
            if !board.contains(x, y) {
                bail!("off the board");
            }
            Ok(Move::Caro(Point::new(x as u8, y as u8)))
        }
        Game::Xiangqi(_) => Ok(Move::Xiangqi(token.parse()?)),
    }
}

/// A caro opening's token for `p` on a `width` x `height` board.
pub fn caro_token(p: Point, width: u8, height: u8) -> String {
    format!(
        "{},{}",
        i32::from(p.x) - i32::from(width) / 2,
        i32::from(p.y) - i32::from(height) / 2
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_rules::caro::Rule;
    use banco_rules::game::GameSpec;

    #[test]
    fn shipped_openings_are_legal_on_every_usual_board() {
        let openings = parse(CARO).unwrap();
        assert!(openings.len() >= 20);
        for size in [15, 19, 20] {
            for o in &openings {
                let mut g = Game::new(&GameSpec::Caro {
                    width: size,
                    height: size,
                    rule: Rule::Caro,
                    opening: Vec::new(),
                })
                .unwrap();
                o.apply(&mut g).unwrap();
                assert_eq!(g.plies(), o.moves.len());
            }
        }
    }

    /// `openings/contested.txt` (the README's contested freestyle openings) is twenty of
    /// the shipped caro openings.
    #[test]
    fn contested_openings_are_shipped_ones() {
        let shipped: std::collections::HashSet<String> =
            parse(CARO).unwrap().iter().map(Opening::text).collect();
        let contested = parse(include_str!("../openings/contested.txt")).unwrap();
        assert_eq!(contested.len(), 20);
        for o in &contested {
            assert!(shipped.contains(&o.text()), "line {}: {}", o.line, o.text());
        }
    }

    #[test]
    fn shipped_xiangqi_openings_are_legal_and_distinct() {
        let openings = parse(XIANGQI).unwrap();
        assert_eq!(openings.len(), 48);
        let mut seen = std::collections::HashSet::new();
        for o in &openings {
            let mut g = Game::new(&GameSpec::Xiangqi { fen: None }).unwrap();
            o.apply(&mut g).unwrap();
            assert_eq!(g.plies(), o.moves.len());
            assert!(seen.insert(o.text()));
        }
        let mut g = Game::new(&GameSpec::Xiangqi { fen: None }).unwrap();
        assert!(parse("h2e2 h2e2").unwrap()[0].apply(&mut g).is_err());
    }

    #[test]
    fn bad_files_are_refused() {
        assert!(parse("# nothing\n\n").is_err());
        let o = parse("0,0 0,0").unwrap();
        let mut g = Game::new(&GameSpec::Caro {
            width: 15,
            height: 15,
            rule: Rule::Caro,
            opening: Vec::new(),
        })
        .unwrap();
        assert!(o[0].apply(&mut g).is_err());
        let o = parse("9,0").unwrap();
        assert!(o[0].apply(&mut g).is_err());
        assert_eq!(caro_token(Point::new(8, 6), 15, 15), "1,-1");
    }
}
