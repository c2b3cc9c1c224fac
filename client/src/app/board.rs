//! Where the player points on the board, per game. Caro places a stone where the cursor
//! is; xiangqi selects a piece, shows where it may go, and moves it to the next square
//! chosen. The room screen drives a [`BoardCursor`] without knowing which game it is.

use banco_protocol::{ErrorCode, ErrorMsg, GameSettings, Move, Point, XqSquare};
use banco_rules::xiangqi::MoveError;
use banco_rules::xiangqi::piece::{Color, Kind};
use banco_rules::xiangqi::square::{Move as XqMove, Square};

use crate::locale::Locale;
use crate::room::board::{wire_square, xq_square};
use crate::room::{Board, Room};
use crate::tr;

/// A board cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardCursor {
    /// The caro point the cursor is on.
    Caro(Point),
    /// The xiangqi square under the cursor, and the piece picked up, if any.
    Xiangqi {
        at: XqSquare,
        selected: Option<XqSquare>,
    },
    /// No board to point at.
    None,
}

/// A point of either board: what a mouse click lands on.
pub use crate::layout::Spot;

/// Why a xiangqi piece was not moved where the player pointed: the event line says it,
/// so a refused move is never silent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The rules refuse the move; the engine says why ("the chariot on a0 is blocked at
    /// a3"), as it does for plain mode's `move`.
    Illegal { error: MoveError, in_check: bool },
    /// The piece picked up has no legal move at all.
    Stuck {
        from: Square,
        kind: Kind,
        in_check: bool,
    },
}

impl Refusal {
    /// The sentence for the event line. The rules' reason is worded by the same code
    /// that words the server's refusal of a move (plain mode prints that one).
    pub fn text(&self, loc: &Locale) -> String {
        match self {
            Refusal::Illegal { error, in_check } => {
                let refused = ErrorMsg::new(ErrorCode::IllegalMove, error.to_string());
                let why = crate::narrate::server_error(&refused, loc);
                if *in_check && *error == MoveError::SelfCheck {
                    tr!(loc, "room.in_check_because", why = why)
                } else {
                    why
                }
            }
            Refusal::Stuck {
                from,
                kind,
                in_check,
            } => {
                let piece = loc.get(&format!("piece.{}", kind.name())).to_string();
                let key = if *in_check {
                    "room.stuck_in_check"
                } else {
                    "room.stuck"
                };
                tr!(loc, key, piece = piece, square = from.to_string())
            }
        }
    }
}

/// What a board key or click did: a move to send, a refusal to tell, or just a change
/// of cursor or selection.
pub type Pointed = Result<Option<Move>, Refusal>;

/// A board key, already translated from whatever key or mouse produced it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardInput {
    /// Move the cursor by (dx, dy) screen cells: right and down are positive.
    Step(i32, i32),
    /// Place (caro) / pick up or move (xiangqi) at the cursor.
    Activate,
}

impl BoardCursor {
    /// A cursor for a room: on the last move, else the middle of the board (caro) or
    /// the player's own general (xiangqi).
    pub fn for_room(room: &Room) -> BoardCursor {
        match room.settings.game {
            GameSettings::Caro { width, height, .. } => {
                let last = room.game.as_ref().and_then(|g| g.board.caro()?.last_move());
                BoardCursor::Caro(last.unwrap_or(Point::new(width / 2, height / 2)))
            }
            GameSettings::Xiangqi { .. } => {
                let game = room.game.as_ref().and_then(|g| g.board.xiangqi());
                let last = game.and_then(|g| g.plies().last()).map(|p| p.mv.to());
                let mine = room
                    .my_seat()
                    .and_then(|s| room.color_of(s))
                    .unwrap_or(Color::Red);
                let general = game.map(|g| g.position().king(mine));
                let at = last
                    .or(general)
                    .map(wire_square)
                    .unwrap_or(XqSquare { file: 4, rank: 0 });
                BoardCursor::Xiangqi { at, selected: None }
            }
        }
    }

    /// The caro point under the cursor.
    pub fn point(&self) -> Option<Point> {
        match self {
            BoardCursor::Caro(p) => Some(*p),
            _ => None,
        }
    }

    /// Applies a board key; returns the move to send, if the key makes one, or why the
    /// rules refuse what it asked.
    pub fn input(&mut self, room: &Room, input: BoardInput) -> Pointed {
        match (self, input) {
            (BoardCursor::Caro(p), BoardInput::Step(dx, dy)) => {
                let GameSettings::Caro { width, height, .. } = room.settings.game else {
                    return Ok(None);
                };
                let x = (i32::from(p.x) + dx).clamp(0, i32::from(width) - 1);
                let y = (i32::from(p.y) + dy).clamp(0, i32::from(height) - 1);
                *p = Point::new(x as u8, y as u8);
                Ok(None)
            }
            (BoardCursor::Caro(p), BoardInput::Activate) => Ok(Some(Move::Caro(*p))),
            (BoardCursor::Xiangqi { at, .. }, BoardInput::Step(dx, dy)) => {
                // Unflipped, Red is at the bottom: right is file + 1, down is rank - 1.
                let (df, dr) = if room.flipped() { (-dx, dy) } else { (dx, -dy) };
                at.file = (i32::from(at.file) + df).clamp(0, 8) as u8;
                at.rank = (i32::from(at.rank) + dr).clamp(0, 9) as u8;
                Ok(None)
            }
            (BoardCursor::Xiangqi { at, selected }, BoardInput::Activate) => {
                xiangqi_activate(room, *at, selected)
            }
            (BoardCursor::None, _) => Ok(None),
        }
    }

    /// A click: the cursor goes to `spot`, and on xiangqi the click also picks up or
    /// moves, like Enter. Returns a move for caro points too; the caller decides
    /// whether it may be played.
    pub fn click(&mut self, room: &Room, spot: Spot) -> Pointed {
        match (self, spot) {
            (BoardCursor::Caro(p), Spot::Caro(q)) => {
                *p = q;
                Ok(Some(Move::Caro(q)))
            }
            (BoardCursor::Xiangqi { at, selected }, Spot::Xiangqi(sq)) => {
                *at = sq;
                xiangqi_activate(room, sq, selected)
            }
            _ => Ok(None),
        }
    }

    /// Puts the cursor on a caro point (a hint, "go to last move").
    pub fn set(&mut self, p: Point) {
        if let BoardCursor::Caro(c) = self {
            *c = p;
        }
    }

    /// Puts the cursor on a xiangqi square, dropping any selection.
    pub fn set_square(&mut self, sq: XqSquare) {
        if let BoardCursor::Xiangqi { at, selected } = self {
            *at = sq;
            *selected = None;
        }
    }

    /// Drops a picked-up piece; `true` if there was one.
    pub fn deselect(&mut self) -> bool {
        match self {
            BoardCursor::Xiangqi { selected, .. } if selected.is_some() => {
                *selected = None;
                true
            }
            _ => false,
        }
    }
}

impl BoardCursor {
    /// Enter on a draft board (trial moves): caro places at the cursor; xiangqi picks up
    /// a piece of whichever side moves next there, or moves it.
    pub fn draft_input(&mut self, board: &Board) -> Pointed {
        match self {
            BoardCursor::Caro(p) => Ok(Some(Move::Caro(*p))),
            BoardCursor::Xiangqi { at, selected } => match board.xiangqi() {
                Some(game) => pick(game, game.to_move(), *at, selected),
                None => Ok(None),
            },
            BoardCursor::None => Ok(None),
        }
    }

    /// A click on a draft board: the cursor goes there, and it acts as Enter does.
    pub fn draft_click(&mut self, board: &Board, spot: Spot) -> Pointed {
        match (&mut *self, spot) {
            (BoardCursor::Caro(p), Spot::Caro(q)) => *p = q,
            (BoardCursor::Xiangqi { at, .. }, Spot::Xiangqi(sq)) => *at = sq,
            _ => return Ok(None),
        }
        self.draft_input(board)
    }
}

/// Enter (or a click) on `at`: pick up one's own piece, move the picked-up piece to a
/// square it may reach, or put it down.
fn xiangqi_activate(room: &Room, at: XqSquare, selected: &mut Option<XqSquare>) -> Pointed {
    let Some(game) = room.game.as_ref().and_then(|g| g.board.xiangqi()) else {
        return Ok(None);
    };
    let Some(mine) = room.my_seat().and_then(|s| room.color_of(s)) else {
        return Ok(None);
    };
    pick(game, mine, at, selected)
}

/// Select-then-place on `game` for the side `mine`. Off turn a piece may be picked up
/// and a move chosen: the room refuses it as not your turn, as it would any move.
fn pick(
    game: &banco_rules::xiangqi::game::Game,
    mine: Color,
    at: XqSquare,
    selected: &mut Option<XqSquare>,
) -> Pointed {
    let own_piece = xq_square(at)
        .and_then(|sq| game.position().piece_at(sq))
        .is_some_and(|p| p.color() == mine);
    let our_turn = game.to_move() == mine && game.outcome().is_none();
    match *selected {
        Some(from) if from == at => {
            *selected = None;
            Ok(None)
        }
        Some(_) if own_piece => {
            *selected = Some(at);
            stuck(game, at, our_turn)
        }
        Some(from) => {
            *selected = None;
            let (Some(f), Some(t)) = (xq_square(from), xq_square(at)) else {
                return Ok(None);
            };
            let mv = Move::Xiangqi { from, to: at };
            if !our_turn {
                return Ok(Some(mv));
            }
            match game.check_move(XqMove::new(f, t)) {
                Ok(()) => Ok(Some(mv)),
                Err(error) => Err(Refusal::Illegal {
                    error,
                    in_check: game.in_check(),
                }),
            }
        }
        None if own_piece => {
            *selected = Some(at);
            stuck(game, at, our_turn)
        }
        None => Ok(None),
    }
}

/// A piece just picked up that cannot move at all: say so (and that the check is why,
/// when it is), rather than show no targets and no word.
fn stuck(game: &banco_rules::xiangqi::game::Game, at: XqSquare, our_turn: bool) -> Pointed {
    let Some(from) = xq_square(at) else {
        return Ok(None);
    };
    match game.position().piece_at(from) {
        Some(piece) if our_turn && game.targets(from).is_empty() => Err(Refusal::Stuck {
            from,
            kind: piece.kind(),
            in_check: game.in_check(),
        }),
        _ => Ok(None),
    }
}
