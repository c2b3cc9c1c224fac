//! Arranging a caro position: X and O stones on a board of the form's size and rule,
//! judged by the engine's [`Setup::flaws`].

use banco_rules::caro::setup::{Flaw, Setup};
use banco_rules::caro::{Point, Stone};

/// The caro board being arranged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaroEdit {
    pub setup: Setup,
    /// The point the keys act on.
    pub cursor: Point,
    /// Why the rules refuse the arrangement, as of the last edit.
    pub flaws: Vec<Flaw>,
}

impl CaroEdit {
    pub fn new(setup: Setup) -> CaroEdit {
        let board = setup.board();
        let cursor = Point::new(board.width() / 2, board.height() / 2);
        let mut edit = CaroEdit {
            setup,
            cursor,
            flaws: Vec::new(),
        };
        edit.judge();
        edit
    }

    /// Judges the arrangement again: called after every change.
    pub fn judge(&mut self) {
        self.flaws = self.setup.flaws();
    }

    /// The sentences of the flaws (the server's own words), each with its points.
    pub fn reasons(&self) -> Vec<(String, Vec<Point>)> {
        self.flaws
            .iter()
            .map(|f| (f.problem.to_string(), f.points.clone()))
            .collect()
    }

    /// Moves the cursor: right and down are positive.
    pub fn step(&mut self, dx: i32, dy: i32) {
        let board = self.setup.board();
        let x = (i32::from(self.cursor.x) + dx).clamp(0, i32::from(board.width()) - 1);
        let y = (i32::from(self.cursor.y) + dy).clamp(0, i32::from(board.height()) - 1);
        self.cursor = Point::new(x as u8, y as u8);
    }

    pub fn place(&mut self, stone: Stone) {
        self.setup.put(self.cursor, stone);
        self.judge();
    }

    /// Clears the cursor's point; `false` if it was empty.
    pub fn clear_point(&mut self) -> bool {
        let gone = self.setup.remove(self.cursor).is_some();
        self.judge();
        gone
    }

    /// Space or a click: a stone on the point comes off; an empty point takes the stone
    /// of whoever would move next, so stones laid one after another alternate as in a
    /// game.
    pub fn activate(&mut self) {
        if self.setup.stone_at(self.cursor).is_some() {
            self.clear_point();
            return;
        }
        let (x, o) = self.setup.counts();
        let next = self
            .setup
            .to_move()
            .unwrap_or(if x > o { Stone::O } else { Stone::X });
        self.place(next);
    }

    pub fn replace(&mut self, setup: Setup) {
        self.setup = setup;
        self.judge();
    }

    /// Takes every stone off.
    pub fn clear_board(&mut self) {
        self.setup.clear();
        self.judge();
    }
}
