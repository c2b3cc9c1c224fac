//! The client's own copy of the position, rebuilt from the server's moves, so the board
//! can be drawn and its winning line and threats found without asking the server.
//!
//! One variant per game. A game this build cannot model yet still shows its move list
//! and clocks; only the board picture is missing.

use banco_protocol::{GameSettings, Move, Point, XqSquare};
use banco_rules::caro;
use banco_rules::xiangqi;
use banco_rules::xiangqi::piece::Color;
use banco_rules::xiangqi::square::Square;

/// The position of the room's current game.
#[derive(Debug, Clone)]
pub enum Board {
    Caro(caro::Game),
    /// Boxed: a xiangqi record holds two positions, far bigger than a caro board.
    Xiangqi(Box<xiangqi::game::Game>),
    /// A start position this client cannot read (a FEN the engine refuses): the move
    /// list and clocks still work.
    Unsupported,
}

/// A move from the server that does not fit the local position: the copy is out of step.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the move {0} does not fit this client's copy of the board")]
pub struct OutOfStep(pub String);

impl Board {
    /// The start position for a room's settings; `start_fen` (from the server's game
    /// view, empty for caro) wins over the settings' FEN, and caro starts from the
    /// `opening` stones the server dealt the game (empty for none).
    pub fn new(settings: &GameSettings, start_fen: &str, opening: &[Point]) -> Board {
        match settings {
            GameSettings::Caro {
                width,
                height,
                rule,
                ..
            } => caro::Game::with_opening(u32::from(*width), u32::from(*height), *rule, opening)
                .map_or(Board::Unsupported, Board::Caro),
            GameSettings::Xiangqi { fen } => {
                let fen = Some(start_fen).filter(|f| !f.is_empty()).or(fen.as_deref());
                let game = match fen {
                    Some(f) => xiangqi::game::Game::from_fen(f).ok(),
                    None => Some(xiangqi::game::Game::new()),
                };
                game.map_or(Board::Unsupported, |g| Board::Xiangqi(Box::new(g)))
            }
        }
    }

    /// Plays one of the server's moves.
    pub fn play(&mut self, mv: &Move) -> Result<(), OutOfStep> {
        match (self, mv) {
            (Board::Caro(game), Move::Caro(p)) => game
                .play(*p)
                .map(|_| ())
                .map_err(|_| OutOfStep(p.to_string())),
            (Board::Xiangqi(game), Move::Xiangqi { from, to }) => {
                let text = format!("{}{}", iccs_square(*from), iccs_square(*to));
                let mv = xq_move(*from, *to).ok_or_else(|| OutOfStep(text.clone()))?;
                // The server judges when a game ends; follow it even where the local
                // rules would already have called it.
                game.play_on(mv).map(|_| ()).map_err(|_| OutOfStep(text))
            }
            (Board::Unsupported, _) => Ok(()),
            (_, other) => Err(OutOfStep(format!("{other:?}"))),
        }
    }

    /// Takes back the last move (never an opening stone).
    pub fn undo(&mut self) {
        match self {
            Board::Caro(game) => {
                game.undo();
            }
            Board::Xiangqi(game) => {
                game.undo();
            }
            Board::Unsupported => {}
        }
    }

    /// How many moves have been played on this board (a caro opening's stones are not
    /// moves).
    pub fn plies(&self) -> usize {
        match self {
            Board::Caro(g) => g.moves().len(),
            Board::Xiangqi(g) => g.plies().len(),
            Board::Unsupported => 0,
        }
    }

    /// The caro game, if this is one.
    pub fn caro(&self) -> Option<&caro::Game> {
        match self {
            Board::Caro(g) => Some(g),
            _ => None,
        }
    }

    /// The xiangqi game, if this is one.
    pub fn xiangqi(&self) -> Option<&xiangqi::game::Game> {
        match self {
            Board::Xiangqi(g) => Some(g),
            _ => None,
        }
    }

    /// Xiangqi: the colour that moves first from the start position (Red, unless a FEN
    /// says otherwise). The seat that moved first plays it.
    pub fn first_color(&self) -> Option<Color> {
        self.xiangqi().map(|g| g.start().side_to_move())
    }
}

/// The engine's square for a protocol square.
pub fn xq_square(sq: XqSquare) -> Option<Square> {
    Square::new(sq.file, sq.rank)
}

/// The protocol's square for an engine square.
pub fn wire_square(sq: Square) -> XqSquare {
    XqSquare {
        file: sq.file(),
        rank: sq.rank(),
    }
}

/// The engine's move between two protocol squares.
pub fn xq_move(from: XqSquare, to: XqSquare) -> Option<xiangqi::square::Move> {
    Some(xiangqi::square::Move::new(xq_square(from)?, xq_square(to)?))
}

/// How a caro point is written for people on a board of this size: `h8` where columns
/// have letters (at most 26), else `x,y`.
pub fn caro_point_text(p: Point, width: u8, height: u8) -> String {
    caro::notation::point_name(p, width, height)
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
    use banco_protocol::{CaroOpening, Rule, XqSquare};

    #[test]
    fn caro_board_follows_moves_and_refuses_impossible_ones() {
        let settings = GameSettings::Caro {
            width: 9,
            height: 9,
            rule: Rule::Freestyle,
            opening: CaroOpening::None,
        };
        let mut b = Board::new(&settings, "", &[]);
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
            opening: CaroOpening::None,
        };
        assert_eq!(move_text(&Move::Caro(Point::new(27, 3)), &wide), "27,3");
        let xq = Move::Xiangqi {
            from: XqSquare { file: 7, rank: 2 },
            to: XqSquare { file: 4, rank: 2 },
        };
        assert_eq!(move_text(&xq, &GameSettings::Xiangqi { fen: None }), "h2e2");
    }

    #[test]
    fn a_caro_opening_stands_on_the_board_and_is_never_undone() {
        let settings = GameSettings::caro_default();
        let opening = [Point::new(7, 7), Point::new(8, 8), Point::new(6, 8)];
        let mut b = Board::new(&settings, "", &opening);
        let g = b.caro().unwrap();
        assert_eq!(g.board().stones(), 3);
        assert_eq!(g.first_stone(), caro::Stone::O);
        assert!(
            b.play(&Move::Caro(Point::new(8, 8))).is_err(),
            "taken by the opening"
        );
        b.play(&Move::Caro(Point::new(9, 9))).unwrap();
        assert_eq!(b.plies(), 1);
        b.undo();
        b.undo();
        assert_eq!((b.plies(), b.caro().unwrap().board().stones()), (0, 3));
    }

    #[test]
    fn xiangqi_board_follows_moves_from_any_start() {
        let mut b = Board::new(&GameSettings::Xiangqi { fen: None }, "", &[]);
        let cannon = Move::Xiangqi {
            from: XqSquare { file: 7, rank: 2 },
            to: XqSquare { file: 4, rank: 2 },
        };
        b.play(&cannon).unwrap();
        assert_eq!(b.xiangqi().unwrap().plies().len(), 1);
        assert!(b.play(&cannon).is_err(), "the square is empty now");
        b.undo();
        assert_eq!(b.xiangqi().unwrap().plies().len(), 0);
        assert_eq!(b.first_color(), Some(Color::Red));
        // A start position where Black moves first, as the server's view gives it.
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";
        let b = Board::new(&GameSettings::Xiangqi { fen: None }, fen, &[]);
        assert_eq!(b.first_color(), Some(Color::Black));
        assert!(matches!(
            Board::new(
                &GameSettings::Xiangqi {
                    fen: Some("nonsense".into())
                },
                "",
                &[]
            ),
            Board::Unsupported
        ));
    }
}
