//! Arranging a xiangqi position: a cursor on the board, a palette of both sides' pieces,
//! pick up and put down, the side to move; judged by the engine's [`Setup::flaws`].

use banco_rules::game::SpecError;
use banco_rules::xiangqi::setup::Flaw;
use banco_rules::xiangqi::{Color, Kind, Piece, Setup, Square};

/// The palette: Red's seven kinds, then Black's, in the engine's kind order.
pub const PALETTE: [Piece; 14] = {
    let mut out = [Piece::new(Color::Red, Kind::King); 14];
    let mut i = 0;
    while i < 7 {
        out[i] = Piece::new(Color::Red, Kind::ALL[i]);
        out[i + 7] = Piece::new(Color::Black, Kind::ALL[i]);
        i += 1;
    }
    out
};

/// The xiangqi board being arranged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XiangqiEdit {
    pub setup: Setup,
    /// The point the keys act on.
    pub cursor: Square,
    /// A piece picked up to be put down elsewhere: the point it stands on.
    pub held: Option<Square>,
    /// The palette entry Space puts on an empty point (index into [`PALETTE`]).
    pub palette: usize,
    /// Black at the bottom.
    pub flipped: bool,
    /// Why the rules refuse the arrangement, as of the last edit.
    pub flaws: Vec<Flaw>,
}

impl XiangqiEdit {
    pub fn new(setup: Setup) -> XiangqiEdit {
        let cursor = Square::new(4, 0).expect("e0 is on the board");
        let mut edit = XiangqiEdit {
            setup,
            cursor,
            held: None,
            palette: 0,
            flipped: false,
            flaws: Vec::new(),
        };
        edit.judge();
        edit
    }

    /// Judges the arrangement again: called after every change.
    pub fn judge(&mut self) {
        self.flaws = self.setup.flaws();
    }

    /// The sentences of the flaws (the server's own words), each with its squares.
    pub fn reasons(&self) -> Vec<(String, Vec<Square>)> {
        self.flaws
            .iter()
            .map(|f| {
                (
                    SpecError::from(f.problem.clone()).to_string(),
                    f.squares.clone(),
                )
            })
            .collect()
    }

    /// Moves the cursor by screen steps: right and down are positive.
    pub fn step(&mut self, dx: i32, dy: i32) {
        let (df, dr) = if self.flipped { (-dx, dy) } else { (dx, -dy) };
        let file = (i32::from(self.cursor.file()) + df).clamp(0, 8) as u8;
        let rank = (i32::from(self.cursor.rank()) + dr).clamp(0, 9) as u8;
        if let Some(sq) = Square::new(file, rank) {
            self.cursor = sq;
        }
    }

    /// Puts `piece` on the cursor's point (and makes it the palette's choice).
    pub fn place(&mut self, piece: Piece) {
        self.setup.put(self.cursor, piece);
        if let Some(i) = PALETTE.iter().position(|p| *p == piece) {
            self.palette = i;
        }
        self.held = None;
        self.judge();
    }

    /// Clears the cursor's point; `false` if it was empty.
    pub fn clear_point(&mut self) -> bool {
        self.held = None;
        let gone = self.setup.remove(self.cursor).is_some();
        self.judge();
        gone
    }

    /// Space or a click: put the held piece down here, pick up the piece here, or put
    /// the palette's piece on an empty point. Returns whether the board changed.
    pub fn activate(&mut self) -> bool {
        let here = self.cursor;
        match self.held.take() {
            Some(from) if from == here => false,
            Some(from) => match self.setup.remove(from) {
                Some(piece) => {
                    self.setup.put(here, piece);
                    self.judge();
                    true
                }
                None => false,
            },
            None if self.setup.piece_at(here).is_some() => {
                self.held = Some(here);
                false
            }
            None => {
                self.setup.put(here, PALETTE[self.palette]);
                self.judge();
                true
            }
        }
    }

    /// Steps the palette's choice forward or back.
    pub fn cycle_palette(&mut self, forward: bool) {
        let n = PALETTE.len();
        self.palette = if forward {
            (self.palette + 1) % n
        } else {
            (self.palette + n - 1) % n
        };
    }

    pub fn toggle_side(&mut self) {
        self.setup.set_side(!self.setup.side());
        self.judge();
    }

    pub fn replace(&mut self, setup: Setup) {
        self.setup = setup;
        self.held = None;
        self.judge();
    }

    /// Takes every piece off (the side to move stays).
    pub fn clear_board(&mut self) {
        self.setup.clear();
        self.held = None;
        self.judge();
    }
}
