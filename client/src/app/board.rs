//! Where the player points on the board, per game. Caro places a stone where the cursor
//! is; xiangqi selects a piece, shows where it may go, and moves it to the next square
//! chosen. The room screen drives a [`BoardCursor`] without knowing which game it is.

use banco_engine::xiangqi::piece::Color;
use banco_protocol::{GameSettings, Move, Point, XqSquare};

use crate::room::board::{wire_square, xq_square};
use crate::room::{Board, Room};

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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spot {
    Caro(Point),
    Xiangqi(XqSquare),
}

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

    /// Applies a board key; returns the move to send, if the key makes one.
    pub fn input(&mut self, room: &Room, input: BoardInput) -> Option<Move> {
        match (self, input) {
            (BoardCursor::Caro(p), BoardInput::Step(dx, dy)) => {
                let GameSettings::Caro { width, height, .. } = room.settings.game else {
                    return None;
                };
                let x = (i32::from(p.x) + dx).clamp(0, i32::from(width) - 1);
                let y = (i32::from(p.y) + dy).clamp(0, i32::from(height) - 1);
                *p = Point::new(x as u8, y as u8);
                None
            }
            (BoardCursor::Caro(p), BoardInput::Activate) => Some(Move::Caro(*p)),
            (BoardCursor::Xiangqi { at, .. }, BoardInput::Step(dx, dy)) => {
                // Unflipped, Red is at the bottom: right is file + 1, down is rank - 1.
                let (df, dr) = if room.flipped() { (-dx, dy) } else { (dx, -dy) };
                at.file = (i32::from(at.file) + df).clamp(0, 8) as u8;
                at.rank = (i32::from(at.rank) + dr).clamp(0, 9) as u8;
                None
            }
            (BoardCursor::Xiangqi { at, selected }, BoardInput::Activate) => {
                xiangqi_activate(room, *at, selected)
            }
            (BoardCursor::None, _) => None,
        }
    }

    /// A click: the cursor goes to `spot`, and on xiangqi the click also picks up or
    /// moves, like Enter. Returns a move for caro points too; the caller decides
    /// whether it may be played.
    pub fn click(&mut self, room: &Room, spot: Spot) -> Option<Move> {
        match (self, spot) {
            (BoardCursor::Caro(p), Spot::Caro(q)) => {
                *p = q;
                Some(Move::Caro(q))
            }
            (BoardCursor::Xiangqi { at, selected }, Spot::Xiangqi(sq)) => {
                *at = sq;
                xiangqi_activate(room, sq, selected)
            }
            _ => None,
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
    pub fn draft_input(&mut self, board: &Board) -> Option<Move> {
        match self {
            BoardCursor::Caro(p) => Some(Move::Caro(*p)),
            BoardCursor::Xiangqi { at, selected } => {
                let game = board.xiangqi()?;
                pick(game, game.to_move(), *at, selected)
            }
            BoardCursor::None => None,
        }
    }

    /// A click on a draft board: the cursor goes there, and it acts as Enter does.
    pub fn draft_click(&mut self, board: &Board, spot: Spot) -> Option<Move> {
        match (&mut *self, spot) {
            (BoardCursor::Caro(p), Spot::Caro(q)) => *p = q,
            (BoardCursor::Xiangqi { at, .. }, Spot::Xiangqi(sq)) => *at = sq,
            _ => return None,
        }
        self.draft_input(board)
    }
}

/// Enter (or a click) on `at`: pick up one's own piece, move the picked-up piece to a
/// square it may reach, or put it down.
fn xiangqi_activate(room: &Room, at: XqSquare, selected: &mut Option<XqSquare>) -> Option<Move> {
    let game = room.game.as_ref()?.board.xiangqi()?;
    let mine = room.my_seat().and_then(|s| room.color_of(s))?;
    pick(game, mine, at, selected)
}

/// Select-then-place on `game` for the side `mine`.
fn pick(
    game: &banco_engine::xiangqi::game::Game,
    mine: Color,
    at: XqSquare,
    selected: &mut Option<XqSquare>,
) -> Option<Move> {
    let own_piece = xq_square(at)
        .and_then(|sq| game.position().piece_at(sq))
        .is_some_and(|p| p.color() == mine);
    match *selected {
        Some(from) if from == at => {
            *selected = None;
            None
        }
        Some(from) => {
            let reach = xq_square(from)
                .map(|sq| game.targets(sq))
                .unwrap_or_default();
            if xq_square(at).is_some_and(|sq| reach.contains(&sq)) {
                *selected = None;
                Some(Move::Xiangqi { from, to: at })
            } else if own_piece {
                *selected = Some(at);
                None
            } else {
                *selected = None;
                None
            }
        }
        None if own_piece => {
            *selected = Some(at);
            None
        }
        None => None,
    }
}
