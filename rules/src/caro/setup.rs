//! Arranging a caro position by hand: X and O stones put on and taken off any point, and
//! the whole judged at any moment, with the points each flaw concerns (the five already
//! made), for an editor to mark on the board.
//!
//! A game starts from such a board as an opening ([`Game::with_opening`]): stones laid
//! alternately X, O, X, ..., so X has as many stones as O (X moves next) or one more (O
//! moves next). [`Setup::opening`] writes the board in that order, and the checks here
//! are the ones `with_opening` makes, so what an editor shows is what a server says.

use super::board::{Board, Point, SizeError, Stone};
use super::game::{Game, OpeningError};
use super::rules::{Rule, winning_line};

/// A board being arranged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// The stones placed so far.
    board: Board,
    /// What wins: a five already on the board is judged by it.
    rule: Rule,
}

/// What is wrong with an arrangement.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    #[error(
        "X has {x} stones and O {o}: X moves first, so X needs as many stones as O (X to move) or one more (O to move)"
    )]
    Counts { x: usize, o: usize },
    /// What [`Game::with_opening`] refuses (a five already made, a full board).
    #[error(transparent)]
    Opening(OpeningError),
}

/// One reason an arrangement cannot be played, and the points it concerns (none when it
/// concerns the whole board).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flaw {
    pub problem: Problem,
    pub points: Vec<Point>,
}

impl Setup {
    /// An empty `width` x `height` board.
    pub fn new(width: u8, height: u8, rule: Rule) -> Result<Setup, SizeError> {
        Ok(Setup {
            board: Board::new(u32::from(width), u32::from(height))?,
            rule,
        })
    }

    /// The board an opening makes (stones alternately X, O, X, ...), to edit further.
    pub fn from_opening(
        width: u8,
        height: u8,
        rule: Rule,
        opening: &[Point],
    ) -> Result<Setup, OpeningError> {
        let mut setup = Setup::new(width, height, rule)?;
        for (i, &p) in opening.iter().enumerate() {
            if !setup.board.contains_point(p) {
                return Err(OpeningError::OffBoard {
                    index: i + 1,
                    point: p,
                    width,
                    height,
                });
            }
            if !setup.board.is_empty_at(p) {
                let earlier = opening.iter().position(|q| *q == p).unwrap_or(i) + 1;
                return Err(OpeningError::Repeated {
                    index: i + 1,
                    point: p,
                    earlier,
                });
            }
            let stone = if i % 2 == 0 { Stone::X } else { Stone::O };
            setup.board.place(p, stone);
        }
        Ok(setup)
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    pub fn stone_at(&self, p: Point) -> Option<Stone> {
        self.board.stone_at(p)
    }

    /// Puts `stone` on `p` (replacing what stood there); returns what stood there.
    /// A point off the board is left alone.
    pub fn put(&mut self, p: Point, stone: Stone) -> Option<Stone> {
        if !self.board.contains_point(p) {
            return None;
        }
        let old = self.board.remove(p);
        self.board.place(p, stone);
        old
    }

    /// Clears `p`; returns what stood there.
    pub fn remove(&mut self, p: Point) -> Option<Stone> {
        if !self.board.contains_point(p) {
            return None;
        }
        self.board.remove(p)
    }

    /// Takes every stone off.
    pub fn clear(&mut self) {
        let stones: Vec<Point> = self.stones(Stone::X).chain(self.stones(Stone::O)).collect();
        for p in stones {
            self.board.remove(p);
        }
    }

    /// The points holding `stone`, row by row from the top.
    pub fn stones(&self, stone: Stone) -> impl Iterator<Item = Point> + '_ {
        self.board
            .points()
            .filter(move |&p| self.board.stone_at(p) == Some(stone))
    }

    /// How many X and O stones stand on the board.
    pub fn counts(&self) -> (usize, usize) {
        (self.stones(Stone::X).count(), self.stones(Stone::O).count())
    }

    /// Who moves next from this board: X when the counts are equal, O when X has one
    /// stone more; `None` for any other counts.
    pub fn to_move(&self) -> Option<Stone> {
        match self.counts() {
            (x, o) if x == o => Some(Stone::X),
            (x, o) if x == o + 1 => Some(Stone::O),
            _ => None,
        }
    }

    /// Every reason a game cannot start from this board: counts that no alternate
    /// laying gives, a five already made (one flaw per side that has one, with its
    /// lines' points), a full board. Empty when a game can start from it.
    pub fn flaws(&self) -> Vec<Flaw> {
        let mut out = Vec::new();
        let (x, o) = self.counts();
        if self.to_move().is_none() {
            out.push(Flaw {
                problem: Problem::Counts { x, o },
                points: Vec::new(),
            });
        }
        for winner in [Stone::X, Stone::O] {
            let mut points: Vec<Point> = Vec::new();
            for p in self.stones(winner) {
                if let Some(line) = winning_line(&self.board, p, self.rule) {
                    points.extend(
                        line.points()
                            .filter(|q| !points.contains(q))
                            .collect::<Vec<_>>(),
                    );
                }
            }
            if !points.is_empty() {
                points.sort();
                out.push(Flaw {
                    problem: Problem::Opening(OpeningError::Decided { winner }),
                    points,
                });
            }
        }
        if self.board.is_full() {
            out.push(Flaw {
                problem: Problem::Opening(OpeningError::Full),
                points: Vec::new(),
            });
        }
        out
    }

    /// The board as an opening a game starts from: X, O, X, ... alternately, each colour
    /// row by row, checked by [`Game::with_opening`]; else the first flaw.
    pub fn opening(&self) -> Result<Vec<Point>, Problem> {
        if let Some(flaw) = self.flaws().into_iter().next() {
            return Err(flaw.problem);
        }
        let xs: Vec<Point> = self.stones(Stone::X).collect();
        let os: Vec<Point> = self.stones(Stone::O).collect();
        let mut opening = Vec::with_capacity(xs.len() + os.len());
        for (i, x) in xs.iter().enumerate() {
            opening.push(*x);
            if let Some(o) = os.get(i) {
                opening.push(*o);
            }
        }
        let (w, h) = (self.board.width(), self.board.height());
        Game::with_opening(u32::from(w), u32::from(h), self.rule, &opening)
            .map_err(Problem::Opening)?;
        Ok(opening)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: u8, y: u8) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn a_board_is_written_as_an_alternate_opening_and_read_back() {
        let mut s = Setup::new(15, 15, Rule::Caro).unwrap();
        assert_eq!(s.to_move(), Some(Stone::X));
        s.put(p(7, 7), Stone::X);
        assert_eq!(s.to_move(), Some(Stone::O));
        s.put(p(8, 8), Stone::O);
        s.put(p(6, 8), Stone::X);
        s.put(p(1, 1), Stone::O);
        assert_eq!(s.counts(), (2, 2));
        let opening = s.opening().unwrap();
        assert_eq!(opening, vec![p(7, 7), p(1, 1), p(6, 8), p(8, 8)]);
        let game = Game::with_opening(15, 15, Rule::Caro, &opening).unwrap();
        assert_eq!(game.to_move(), Stone::X);
        assert_eq!(
            Setup::from_opening(15, 15, Rule::Caro, &opening).unwrap(),
            s
        );
        // Replacing and removing.
        assert_eq!(s.put(p(1, 1), Stone::X), Some(Stone::O));
        assert_eq!(s.remove(p(1, 1)), Some(Stone::X));
        assert_eq!(s.put(p(20, 1), Stone::X), None, "off the board: nothing");
        assert_eq!(s.counts(), (2, 1));
        s.clear();
        assert_eq!(s.counts(), (0, 0));
        assert_eq!(s.opening(), Ok(vec![]));
        // Typed stones the rules refuse are refused here too.
        assert!(matches!(
            Setup::from_opening(9, 9, Rule::Caro, &[p(1, 1), p(1, 1)]),
            Err(OpeningError::Repeated { index: 2, .. })
        ));
    }

    #[test]
    fn counts_no_alternate_laying_gives_are_refused() {
        let mut s = Setup::new(15, 15, Rule::Freestyle).unwrap();
        for x in 0..3 {
            s.put(p(x, 0), Stone::X);
        }
        s.put(p(9, 9), Stone::O);
        assert_eq!(s.to_move(), None);
        let flaws = s.flaws();
        assert_eq!(flaws.len(), 1);
        assert_eq!(
            flaws[0].problem.to_string(),
            "X has 3 stones and O 1: X moves first, so X needs as many stones as O (X to move) or one more (O to move)"
        );
        assert_eq!(s.opening(), Err(Problem::Counts { x: 3, o: 1 }));
        // More O than X.
        let mut s = Setup::new(15, 15, Rule::Freestyle).unwrap();
        s.put(p(9, 9), Stone::O);
        assert_eq!(s.opening(), Err(Problem::Counts { x: 0, o: 1 }));
    }

    #[test]
    fn a_five_already_made_is_refused_on_its_points() {
        let mut s = Setup::new(15, 15, Rule::Freestyle).unwrap();
        for x in 2..7 {
            s.put(p(x, 3), Stone::X);
            s.put(p(x, 10), Stone::O);
        }
        let flaws = s.flaws();
        assert_eq!(flaws.len(), 2);
        assert_eq!(
            flaws[0].problem.to_string(),
            "the opening already has a winning line for X: give a position that is still open"
        );
        assert_eq!(flaws[0].points, (2..7).map(|x| p(x, 3)).collect::<Vec<_>>());
        assert_eq!(
            flaws[1].points,
            (2..7).map(|x| p(x, 10)).collect::<Vec<_>>()
        );
        // Under the caro rule a five blocked at both ends is no win.
        let mut s = Setup::new(15, 15, Rule::Caro).unwrap();
        for x in 2..7 {
            s.put(p(x, 3), Stone::X);
        }
        s.put(p(1, 3), Stone::O);
        s.put(p(7, 3), Stone::O);
        for y in 5..8 {
            s.put(p(0, y), Stone::O);
        }
        assert_eq!(s.counts(), (5, 5));
        assert!(s.flaws().is_empty(), "{:?}", s.flaws());
        assert!(s.opening().is_ok());
        s.remove(p(7, 3));
        s.put(p(12, 12), Stone::O);
        assert_eq!(
            s.flaws()[0].problem,
            Problem::Opening(OpeningError::Decided { winner: Stone::X })
        );
    }

    #[test]
    fn a_full_board_is_refused() {
        let pattern = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"];
        let mut s = Setup::new(5, 5, Rule::Freestyle).unwrap();
        for (y, row) in pattern.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let stone = if c == 'X' { Stone::X } else { Stone::O };
                s.put(p(x as u8, y as u8), stone);
            }
        }
        assert_eq!(s.counts(), (13, 12));
        let flaws = s.flaws();
        assert_eq!(flaws.len(), 1);
        assert_eq!(flaws[0].problem, Problem::Opening(OpeningError::Full));
    }
}
