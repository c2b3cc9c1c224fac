//! Where the player points on the board, per game. Caro places a stone where the cursor
//! is; xiangqi (later) will select a piece and then its target, so the cursor is an enum
//! the room screen drives without knowing which game it is.

use banco_protocol::{Move, Point};

use crate::room::Room;

/// A board cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardCursor {
    /// The caro point the cursor is on.
    Caro(Point),
    /// No board to point at.
    None,
}

/// A board key, already translated from whatever key or mouse produced it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardInput {
    /// Move the cursor by (dx, dy) points.
    Step(i32, i32),
    /// Place (caro) / select or move (xiangqi) at the cursor.
    Activate,
}

impl BoardCursor {
    /// A cursor for a room: on the last move, else the board's centre.
    pub fn for_room(room: &Room) -> BoardCursor {
        let Some(game) = room.game.as_ref().and_then(|g| g.board.caro()) else {
            return match room.settings.game {
                banco_protocol::GameSettings::Caro { width, height, .. } => {
                    BoardCursor::Caro(Point::new(width / 2, height / 2))
                }
                banco_protocol::GameSettings::Xiangqi { .. } => BoardCursor::None,
            };
        };
        let b = game.board();
        BoardCursor::Caro(
            game.last_move()
                .unwrap_or(Point::new(b.width() / 2, b.height() / 2)),
        )
    }

    /// The caro point under the cursor.
    pub fn point(&self) -> Option<Point> {
        match self {
            BoardCursor::Caro(p) => Some(*p),
            BoardCursor::None => None,
        }
    }

    /// Applies a board key; returns the move to send, if the key makes one.
    pub fn input(&mut self, room: &Room, input: BoardInput) -> Option<Move> {
        let BoardCursor::Caro(p) = self else {
            return None;
        };
        let (w, h) = match room.settings.game {
            banco_protocol::GameSettings::Caro { width, height, .. } => (width, height),
            banco_protocol::GameSettings::Xiangqi { .. } => return None,
        };
        match input {
            BoardInput::Step(dx, dy) => {
                let x = (i32::from(p.x) + dx).clamp(0, i32::from(w) - 1);
                let y = (i32::from(p.y) + dy).clamp(0, i32::from(h) - 1);
                *p = Point::new(x as u8, y as u8);
                None
            }
            BoardInput::Activate => Some(Move::Caro(*p)),
        }
    }

    /// Puts the cursor on `p` (a mouse click, a hint, "go to last move").
    pub fn set(&mut self, p: Point) {
        if let BoardCursor::Caro(c) = self {
            *c = p;
        }
    }
}
