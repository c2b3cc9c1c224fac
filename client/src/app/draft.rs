//! Draft moves (seed 000's "đi nháp"): a private copy of the board to try moves on. Trial
//! moves are drawn apart from the real ones, never reach the server, and vanish when
//! draft mode is left or the real game moves on.

use super::board::Spot;
use super::{App, Screen};
use crate::room::Board;
use crate::tr;

/// The trial board of a room screen.
#[derive(Debug, Clone)]
pub struct Draft {
    /// The real position when draft mode began, with the trial moves played on it.
    pub board: Board,
    /// Moves the real game had when draft mode began: those past it are trial moves.
    pub base: usize,
}

impl Draft {
    /// How many trial moves are on the board.
    pub fn trials(&self) -> usize {
        self.board.plies().saturating_sub(self.base)
    }
}

impl App {
    /// `p` in a room: into draft mode (a copy of the board as it stands) or out of it.
    pub(super) fn toggle_draft(&mut self) {
        let Screen::Room(rs) = &mut self.screen else {
            return;
        };
        if rs.draft.take().is_some() {
            rs.cursor.deselect();
            let msg = tr!(self.loc, "draft.off").to_string();
            self.info(msg);
            return;
        }
        let Some(game) = &rs.room.game else {
            let msg = tr!(self.loc, "room.no_game_yet").to_string();
            self.warn(msg);
            return;
        };
        rs.cursor.deselect();
        rs.draft = Some(Draft {
            board: game.board.clone(),
            base: game.board.plies(),
        });
        let msg = tr!(self.loc, "draft.on").to_string();
        self.info(msg);
    }

    /// Enter (or a click, with `spot`) in draft mode: a trial move for whoever moves
    /// next on the draft board.
    pub(super) fn draft_activate(&mut self, spot: Option<Spot>) {
        let Screen::Room(rs) = &mut self.screen else {
            return;
        };
        let Some(draft) = &mut rs.draft else {
            return;
        };
        let pointed = match spot {
            Some(spot) => rs.cursor.draft_click(&draft.board, spot),
            None => rs.cursor.draft_input(&draft.board),
        };
        let mv = match pointed {
            Ok(Some(mv)) => mv,
            Ok(None) => return,
            Err(refusal) => {
                let msg = refusal.text(&self.loc);
                return self.warn(msg);
            }
        };
        if draft.board.play(&mv).is_err() {
            // Caro only: xiangqi moves were checked by the rules already.
            let key = match (&draft.board, mv) {
                (Board::Caro(g), _) if g.outcome().is_some() => "draft.over",
                _ => "room.occupied",
            };
            let msg = tr!(self.loc, key).to_string();
            self.warn(msg);
        }
    }

    /// `u` or Backspace in draft mode: takes back the last trial move (never a real one).
    pub(super) fn draft_undo(&mut self) {
        let Screen::Room(rs) = &mut self.screen else {
            return;
        };
        let Some(draft) = &mut rs.draft else {
            return;
        };
        if draft.trials() == 0 {
            let msg = tr!(self.loc, "draft.nothing_to_undo").to_string();
            self.warn(msg);
            return;
        }
        draft.board.undo();
        rs.cursor.deselect();
    }

    /// The real game changed (a move, an undo, a new game, the end): the trial moves no
    /// longer stand on it, so draft mode ends, saying why.
    pub(super) fn end_draft(&mut self) {
        let Screen::Room(rs) = &mut self.screen else {
            return;
        };
        if rs.draft.take().is_some() {
            rs.cursor.deselect();
            let msg = tr!(self.loc, "draft.cleared").to_string();
            self.info(msg);
        }
    }
}
