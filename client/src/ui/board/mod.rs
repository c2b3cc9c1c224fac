//! Board widgets, one per game, behind one entry point the room screen calls.
//!
//! A game's widget draws through its geometry in [`crate::layout`] (how points map to
//! screen cells, how a board larger than its area scrolls), the same numbers mouse
//! clicks are read through. Xiangqi's widget (9x10, river, palaces, select-then-place)
//! goes beside [`caro`] and is dispatched here.

pub mod caro;
pub mod xiangqi;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget, Wrap};

use crate::app::{App, RoomScreen};
use crate::room::Board;
use crate::tr;

/// Draws the room's board into `area`.
pub fn render(app: &App, rs: &RoomScreen, area: Rect, buf: &mut Buffer) {
    if let Some(draft) = &rs.draft {
        match &draft.board {
            Board::Caro(game) => caro::CaroBoard::new(app, rs, game)
                .trials(draft.base)
                .render(area, buf),
            Board::Xiangqi(game) => xiangqi::XiangqiBoard::new(app, rs, game)
                .trials(draft.base)
                .render(area, buf),
            Board::Unsupported => {}
        }
        return;
    }
    match rs.room.game.as_ref().map(|g| &g.board) {
        Some(Board::Caro(game)) => caro::CaroBoard::new(app, rs, game).render(area, buf),
        Some(Board::Xiangqi(game)) => {
            xiangqi::XiangqiBoard::new(app, rs, game).render(area, buf);
        }
        Some(Board::Unsupported) => {
            Paragraph::new(Line::from(tr!(app.loc, "room.no_board_picture")))
                .style(app.theme.dim())
                .wrap(Wrap { trim: true })
                .render(area, buf);
        }
        None => match rs.room.settings.game {
            // Before the first game: an empty board of the room's size.
            // Before the first game: the room's board, with its opening stones when the
            // room names them (a balanced opening is dealt when the game starts).
            banco_protocol::GameSettings::Caro {
                width,
                height,
                rule,
                ref opening,
            } => {
                let stones = match opening {
                    banco_protocol::CaroOpening::Stones(stones) => stones.as_slice(),
                    _ => &[],
                };
                if let Ok(start) = banco_rules::caro::Game::with_opening(
                    u32::from(width),
                    u32::from(height),
                    rule,
                    stones,
                ) {
                    caro::CaroBoard::new(app, rs, &start).render(area, buf);
                }
            }
            banco_protocol::GameSettings::Xiangqi { ref fen } => {
                // Before the first game: the start position.
                let start = match fen {
                    Some(f) => banco_rules::xiangqi::game::Game::from_fen(f).ok(),
                    None => Some(banco_rules::xiangqi::game::Game::new()),
                };
                if let Some(start) = start {
                    xiangqi::XiangqiBoard::new(app, rs, &start).render(area, buf);
                }
            }
        },
    }
}
