//! The client's own copy of the position, rebuilt from the server's moves, so the board
//! can be drawn and its winning line and threats found without asking the server.
//!
//! One variant per game. A game this build cannot model yet still shows its move list
//! and clocks; only the board picture is missing.

use banco_engine::caro;
use banco_protocol::{GameSettings, Move, Point};

/// The position of the room's current game.
#[derive(Debug, Clone)]
pub enum Board {
    Caro(caro::Game),
    /// A game this client has no board for (xiangqi until its rules are in the engine).
    Unsupported,
}

/// A move from the server that does not fit the local position: the copy is out of step.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the move {0} does not fit this client's copy of the board")]
pub struct OutOfStep(pub String);

impl Board {
    /// The start position for a room's settings.
    pub fn new(settings: &GameSettings) -> Board {
        match settings {
            GameSettings::Caro {
                width,
                height,
                rule,
            } => caro::Game::new(u32::from(*width), u32::from(*height), *rule)
                .map_or(Board::Unsupported, Board::Caro),
            GameSettings::Xiangqi { .. } => Board::Unsupported,
        }
    }

    /// Plays one of the server's moves.
    pub fn play(&mut self, mv: &Move) -> Result<(), OutOfStep> {
        match (self, mv) {
            (Board::Caro(game), Move::Caro(p)) => game
                .play(*p)
                .map(|_| ())
                .map_err(|_| OutOfStep(p.to_string())),
            (Board::Unsupported, _) => Ok(()),
            (_, other) => Err(OutOfStep(format!("{other:?}"))),
        }
    }

    /// Takes back the last move.
    pub fn undo(&mut self) {
        if let Board::Caro(game) = self {
            game.undo();
        }
    }

    /// The caro game, if this is one.
    pub fn caro(&self) -> Option<&caro::Game> {
        match self {
            Board::Caro(g) => Some(g),
            Board::Unsupported => None,
        }
    }
}

/// How a caro point is written for people on a board of this size: `h8` where columns
/// have letters (at most 26), else `x,y`.
pub fn caro_point_text(p: Point, width: u8, height: u8) -> String {
    if width <= 26 {
        caro::notation::letter_name(p, height).unwrap_or_else(|| p.to_string())
    } else {
        p.to_string()
    }
}

/// A xiangqi square in ICCS form: file letter a..i, rank digit 0..9 from Red's side.
pub fn iccs_square(sq: banco_protocol::XqSquare) -> String {
    format!("{}{}", char::from(b'a' + sq.file.min(25)), sq.rank)
}

/// A move as people read it in this room.
pub fn move_text(mv: &Move, settings: &GameSettings) -> String {
    match (mv, settings) {
        (Move::Caro(p), GameSettings::Caro { width, height, .. }) => {
            caro_point_text(*p, *width, *height)
        }
        (Move::Caro(p), _) => p.to_string(),
        (Move::Xiangqi { from, to }, _) => format!("{}{}", iccs_square(*from), iccs_square(*to)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_protocol::{Rule, XqSquare};

    #[test]
    fn caro_board_follows_moves_and_refuses_impossible_ones() {
        let settings = GameSettings::Caro {
            width: 9,
            height: 9,
            rule: Rule::Freestyle,
        };
        let mut b = Board::new(&settings);
        b.play(&Move::Caro(Point::new(4, 4))).unwrap();
        assert!(b.play(&Move::Caro(Point::new(4, 4))).is_err());
        assert_eq!(b.caro().unwrap().moves().len(), 1);
        b.undo();
        assert_eq!(b.caro().unwrap().moves().len(), 0);
        assert_eq!(
            move_text(&Move::Caro(Point::new(7, 7)), &GameSettings::caro_default()),
            "h8"
        );
        let wide = GameSettings::Caro {
            width: 30,
            height: 30,
            rule: Rule::Caro,
        };
        assert_eq!(move_text(&Move::Caro(Point::new(27, 3)), &wide), "27,3");
        let xq = Move::Xiangqi {
            from: XqSquare { file: 7, rank: 2 },
            to: XqSquare { file: 4, rank: 2 },
        };
        assert_eq!(move_text(&xq, &GameSettings::Xiangqi { fen: None }), "h2e2");
    }
}
