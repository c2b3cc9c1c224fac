//! A caro game record: the board, the rule, every move in order, and how it ended.

use super::board::{Board, Point, SizeError, Stone};
use super::rule::{Line, Rule, winning_line};

/// How a finished game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// `winner` completed `line`.
    Win { winner: Stone, line: Line },
    /// The board filled up with no winning line.
    Draw,
}

/// Why a move was refused. The game is unchanged after any of these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("{point} is off the {width}x{height} board")]
    OutOfBounds { point: Point, width: u8, height: u8 },
    #[error("{0} is already taken")]
    Occupied(Point),
    #[error("the game is over")]
    GameOver,
}

/// A game in progress or finished. X moves first; players alternate.
#[derive(Debug, Clone)]
pub struct Game {
    /// The stones as they stand now.
    board: Board,
    /// What wins.
    rule: Rule,
    /// Every move, in order: X's are the even plies.
    moves: Vec<Point>,
    /// Set by the move that ended the game; cleared by undoing it.
    outcome: Option<Outcome>,
}

impl Game {
    /// A new game on an empty `width` x `height` board.
    pub fn new(width: u32, height: u32, rule: Rule) -> Result<Game, SizeError> {
        Ok(Game {
            board: Board::new(width, height)?,
            rule,
            moves: Vec::new(),
            outcome: None,
        })
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Every move so far, in order.
    pub fn moves(&self) -> &[Point] {
        &self.moves
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Point> {
        self.moves.last().copied()
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whose turn it is (also after the game ended: who would move next).
    pub fn to_move(&self) -> Stone {
        if self.moves.len().is_multiple_of(2) {
            Stone::X
        } else {
            Stone::O
        }
    }

    /// Whether `p` is a legal move now.
    pub fn check(&self, p: Point) -> Result<(), MoveError> {
        if self.outcome.is_some() {
            return Err(MoveError::GameOver);
        }
        if !self.board.contains_point(p) {
            return Err(MoveError::OutOfBounds {
                point: p,
                width: self.board.width(),
                height: self.board.height(),
            });
        }
        if !self.board.is_empty_at(p) {
            return Err(MoveError::Occupied(p));
        }
        Ok(())
    }

    /// Plays `p` for the side to move. Returns the outcome if this move ended the game.
    pub fn play(&mut self, p: Point) -> Result<Option<Outcome>, MoveError> {
        self.check(p)?;
        let stone = self.to_move();
        self.board.place(p, stone);
        self.moves.push(p);
        self.outcome = if let Some(line) = winning_line(&self.board, p, self.rule) {
            Some(Outcome::Win {
                winner: stone,
                line,
            })
        } else if self.board.is_full() {
            Some(Outcome::Draw)
        } else {
            None
        };
        Ok(self.outcome)
    }

    /// Takes back the last move and returns it; `None` if there was none.
    pub fn undo(&mut self) -> Option<Point> {
        let p = self.moves.pop()?;
        self.board.remove(p);
        self.outcome = None;
        Some(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::caro::rule::DIRECTIONS;
    use proptest::prelude::*;

    #[test]
    fn moves_alternate_and_are_validated() {
        let mut g = Game::new(15, 15, Rule::Caro).unwrap();
        assert_eq!(g.to_move(), Stone::X);
        assert_eq!(g.play(Point::new(7, 7)), Ok(None));
        assert_eq!(g.to_move(), Stone::O);
        assert_eq!(
            g.play(Point::new(7, 7)),
            Err(MoveError::Occupied(Point::new(7, 7)))
        );
        assert!(matches!(
            g.play(Point::new(15, 0)),
            Err(MoveError::OutOfBounds { .. })
        ));
        assert_eq!(g.moves().len(), 1);
        assert_eq!(g.to_move(), Stone::O);
    }

    #[test]
    fn five_ends_the_game_and_undo_reopens_it() {
        let mut g = Game::new(15, 15, Rule::Caro).unwrap();
        for i in 0..4 {
            g.play(Point::new(i, 0)).unwrap();
            g.play(Point::new(i, 5)).unwrap();
        }
        let out = g.play(Point::new(4, 0)).unwrap();
        assert!(matches!(
            out,
            Some(Outcome::Win {
                winner: Stone::X,
                ..
            })
        ));
        assert_eq!(g.play(Point::new(9, 9)), Err(MoveError::GameOver));
        assert_eq!(g.undo(), Some(Point::new(4, 0)));
        assert_eq!(g.outcome(), None);
        assert_eq!(g.to_move(), Stone::X);
    }

    #[test]
    fn full_board_is_a_draw() {
        // Fill a 5x5 board in a pattern with no five: columns alternate in pairs per row.
        let mut g = Game::new(5, 5, Rule::Freestyle).unwrap();
        let pattern = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"];
        let (mut xs, mut os) = (Vec::new(), Vec::new());
        for (y, row) in pattern.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let p = Point::new(x as u8, y as u8);
                if c == 'X' { xs.push(p) } else { os.push(p) }
            }
        }
        assert_eq!(xs.len(), 13);
        let mut last = None;
        for i in 0..25 {
            let p = if i % 2 == 0 { xs[i / 2] } else { os[i / 2] };
            last = g.play(p).unwrap();
        }
        assert_eq!(last, Some(Outcome::Draw));
    }

    /// Brute force: does `stone` have a winning run anywhere, by scanning every cell and
    /// direction from scratch?
    fn has_real_five(board: &Board, stone: Stone, rule: Rule) -> bool {
        for p in board.points() {
            for (dx, dy) in DIRECTIONS {
                let (px, py) = (i32::from(p.x), i32::from(p.y));
                // Only start at the first stone of a run.
                if board.cell(px - dx, py - dy) == Some(Some(stone)) {
                    continue;
                }
                let mut len = 0;
                while board.cell(px + dx * len, py + dy * len) == Some(Some(stone)) {
                    len += 1;
                }
                if len == 0 {
                    continue;
                }
                let opp = Some(Some(stone.opponent()));
                let before = board.cell(px - dx, py - dy) == opp;
                let after = board.cell(px + dx * len, py + dy * len) == opp;
                let long_enough = if rule.allows_overline() {
                    len >= 5
                } else {
                    len == 5
                };
                if long_enough && !(rule.needs_open_end() && before && after) {
                    return true;
                }
            }
        }
        false
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Random games on random boards: a win is reported exactly when the mover has a
        /// real winning run, and the reported line is made of the winner's stones.
        #[test]
        fn reported_wins_are_real(
            w in 5u32..=12, h in 5u32..=12, rule_i in 0usize..4,
            picks in proptest::collection::vec(any::<u16>(), 1..150),
        ) {
            let rule = Rule::ALL[rule_i];
            let mut g = Game::new(w, h, rule).unwrap();
            for pick in picks {
                let empty: Vec<Point> = g.board().points().filter(|p| g.board().is_empty_at(*p)).collect();
                if empty.is_empty() || g.outcome().is_some() { break; }
                let p = empty[pick as usize % empty.len()];
                let mover = g.to_move();
                let out = g.play(p).unwrap();
                let real = has_real_five(g.board(), mover, rule);
                match out {
                    Some(Outcome::Win { winner, line }) => {
                        prop_assert_eq!(winner, mover);
                        prop_assert!(real);
                        prop_assert!(line.points().all(|q| g.board().stone_at(q) == Some(mover)));
                        prop_assert!(line.points().any(|q| q == p));
                    }
                    Some(Outcome::Draw) => prop_assert!(!real && g.board().is_full()),
                    None => prop_assert!(!real),
                }
            }
        }

        /// Undoing every move returns the empty board's hash.
        #[test]
        fn undo_restores_everything(picks in proptest::collection::vec(any::<u16>(), 1..60)) {
            let mut g = Game::new(9, 7, Rule::Freestyle).unwrap();
            let empty_hash = g.board().hash();
            for pick in picks {
                let empty: Vec<Point> = g.board().points().filter(|p| g.board().is_empty_at(*p)).collect();
                if empty.is_empty() || g.outcome().is_some() { break; }
                g.play(empty[pick as usize % empty.len()]).unwrap();
            }
            while g.undo().is_some() {}
            prop_assert_eq!(g.board().hash(), empty_hash);
            prop_assert_eq!(g.board().stones(), 0);
        }
    }
}
