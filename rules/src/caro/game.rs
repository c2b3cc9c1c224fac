//! A caro game record: the board, the rule, the opening stones it started from, every
//! move in order, and how it ended.

use super::board::{Board, Point, SizeError, Stone};
use super::notation::point_name;
use super::renju::{self, Foul};
use super::rules::{Line, Rule, winning_line};

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
    /// Renju: the point is forbidden to X (Black), and why ("double three at h8").
    #[error("{foul} at {}: forbidden to black under the renju rule", point_name(*point, *width, *height))]
    Forbidden {
        point: Point,
        foul: Foul,
        width: u8,
        height: u8,
    },
}

/// Why a game cannot start from an opening. Nothing is set up after any of these.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    #[error(transparent)]
    Size(#[from] SizeError),
    #[error("opening stone {index} ({point}) is off the {width}x{height} board")]
    OffBoard {
        /// 1-based, in the order the stones were given.
        index: usize,
        point: Point,
        width: u8,
        height: u8,
    },
    #[error("opening stone {index} ({point}) is on a point stone {earlier} already holds")]
    Repeated {
        /// 1-based.
        index: usize,
        point: Point,
        /// 1-based: the stone already there.
        earlier: usize,
    },
    #[error(
        "the opening already has a winning line for {winner}: give a position that is still open"
    )]
    Decided { winner: Stone },
    #[error("the opening fills the whole board: leave points to play on")]
    Full,
}

/// A game in progress or finished. Players alternate, X first: from the first opening
/// stone if there is an opening, else from the first move.
#[derive(Debug, Clone)]
pub struct Game {
    /// The stones as they stand now, the opening's included.
    board: Board,
    /// What wins.
    rule: Rule,
    /// Stones placed before the game, alternately X, O, X, ...: part of the board, never
    /// of the move list, and never undone.
    opening: Vec<Point>,
    /// Every move after the opening, in order.
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
            opening: Vec::new(),
            moves: Vec::new(),
            outcome: None,
        })
    }

    /// A new game starting from `opening`: stones placed alternately X, O, X, ... before
    /// the first move. Every stone must be on the board, on a point of its own, and the
    /// stones must not already hold a winning line or fill the board.
    pub fn with_opening(
        width: u32,
        height: u32,
        rule: Rule,
        opening: &[Point],
    ) -> Result<Game, OpeningError> {
        let mut game = Game::new(width, height, rule)?;
        for (i, &p) in opening.iter().enumerate() {
            if !game.board.contains_point(p) {
                return Err(OpeningError::OffBoard {
                    index: i + 1,
                    point: p,
                    width: game.board.width(),
                    height: game.board.height(),
                });
            }
            if !game.board.is_empty_at(p) {
                let earlier = opening.iter().position(|q| *q == p).unwrap_or(i) + 1;
                return Err(OpeningError::Repeated {
                    index: i + 1,
                    point: p,
                    earlier,
                });
            }
            let stone = if i % 2 == 0 { Stone::X } else { Stone::O };
            game.board.place(p, stone);
        }
        // Checked once every stone stands: under the caro rule a later stone can block a
        // line's end, so a five is only decided on the finished opening.
        if let Some(winner) = opening
            .iter()
            .find_map(|&p| winning_line(&game.board, p, rule).and(game.board.stone_at(p)))
        {
            return Err(OpeningError::Decided { winner });
        }
        if game.board.is_full() {
            return Err(OpeningError::Full);
        }
        game.opening = opening.to_vec();
        Ok(game)
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The stones the game started from (X first, alternating); empty for a game from an
    /// empty board.
    pub fn opening(&self) -> &[Point] {
        &self.opening
    }

    /// Every move after the opening so far, in order.
    pub fn moves(&self) -> &[Point] {
        &self.moves
    }

    /// The stone that makes the first move: X after an even opening (or none), O after an
    /// odd one.
    pub fn first_stone(&self) -> Stone {
        if self.opening.len().is_multiple_of(2) {
            Stone::X
        } else {
            Stone::O
        }
    }

    /// The last move played (opening stones are not moves), if any.
    pub fn last_move(&self) -> Option<Point> {
        self.moves.last().copied()
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whose turn it is (also after the game ended: who would move next). The opening's
    /// stones count: after X, O, X it is O's turn.
    pub fn to_move(&self) -> Stone {
        if self.moves.len().is_multiple_of(2) {
            self.first_stone()
        } else {
            self.first_stone().opponent()
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
        if let Some(foul) = self.foul(p) {
            return Err(MoveError::Forbidden {
                point: p,
                foul,
                width: self.board.width(),
                height: self.board.height(),
            });
        }
        Ok(())
    }

    /// Why the side to move may not play the empty point `p` under the rule: only X
    /// (Black) under renju has such points.
    pub fn foul(&self, p: Point) -> Option<Foul> {
        (self.rule.has_forbidden_points() && self.to_move() == renju::BLACK)
            .then(|| renju::foul(&self.board, p))
            .flatten()
    }

    /// Every point forbidden to the side to move now, with why: empty unless X (Black)
    /// is to move under renju in an unfinished game. Clients draw them (×).
    pub fn forbidden_points(&self) -> Vec<(Point, Foul)> {
        if self.rule.has_forbidden_points()
            && self.to_move() == renju::BLACK
            && self.outcome.is_none()
        {
            renju::forbidden_points(&self.board)
        } else {
            Vec::new()
        }
    }

    /// Whether the side to move has no legal point left on a board that is not full: only
    /// renju's Black, when every empty point is forbidden to it. The game is then drawn,
    /// as a full board is (nobody can make five any more by moving in turn).
    fn no_legal_move(&self) -> bool {
        if !(self.rule.has_forbidden_points() && self.to_move() == renju::BLACK) {
            return false;
        }
        let (w, h) = (self.board.width(), self.board.height());
        !(0..h).any(|y| {
            (0..w).any(|x| {
                let p = Point::new(x, y);
                self.board.is_empty_at(p) && renju::foul(&self.board, p).is_none()
            })
        })
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
        } else if self.board.is_full() || self.no_legal_move() {
            Some(Outcome::Draw)
        } else {
            None
        };
        Ok(self.outcome)
    }

    /// Takes back the last move and returns it; `None` if there was none (the opening is
    /// never taken back).
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
    use crate::caro::rules::DIRECTIONS;
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

    #[test]
    fn an_opening_is_on_the_board_but_not_in_the_moves() {
        let opening = [Point::new(7, 7), Point::new(8, 8), Point::new(6, 8)];
        let mut g = Game::with_opening(15, 15, Rule::Caro, &opening).unwrap();
        assert_eq!(g.opening(), opening);
        assert!(g.moves().is_empty());
        assert_eq!(g.last_move(), None);
        assert_eq!(g.board().stones(), 3);
        assert_eq!(g.board().stone_at(Point::new(8, 8)), Some(Stone::O));
        assert_eq!(g.board().stone_at(Point::new(6, 8)), Some(Stone::X));
        // Three stones placed: O moves first.
        assert_eq!((g.first_stone(), g.to_move()), (Stone::O, Stone::O));
        assert_eq!(
            g.play(Point::new(7, 7)),
            Err(MoveError::Occupied(Point::new(7, 7)))
        );
        g.play(Point::new(5, 9)).unwrap();
        assert_eq!(g.to_move(), Stone::X);
        assert_eq!(g.board().stone_at(Point::new(5, 9)), Some(Stone::O));
        assert_eq!(g.undo(), Some(Point::new(5, 9)));
        assert_eq!(g.undo(), None, "the opening is never taken back");
        assert_eq!(g.board().stones(), 3);
        assert_eq!(g.to_move(), Stone::O);

        // The same stones played as moves make the same board and turn.
        let mut played = Game::new(15, 15, Rule::Caro).unwrap();
        for p in opening {
            played.play(p).unwrap();
        }
        assert_eq!(played.board().hash(), g.board().hash());
        assert_eq!(played.to_move(), g.to_move());

        // An even opening leaves X to move.
        let g = Game::with_opening(9, 9, Rule::Freestyle, &opening[..2]).unwrap();
        assert_eq!((g.first_stone(), g.to_move()), (Stone::X, Stone::X));
        let g = Game::with_opening(9, 9, Rule::Freestyle, &[]).unwrap();
        assert!(g.opening().is_empty() && g.to_move() == Stone::X);
    }

    #[test]
    fn openings_that_cannot_start_a_game_are_refused_with_a_sentence() {
        let p = Point::new;
        let err = |w, h, stones: &[Point]| {
            Game::with_opening(w, h, Rule::Caro, stones)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err(15, 15, &[p(7, 7), p(15, 3)]),
            "opening stone 2 (15,3) is off the 15x15 board"
        );
        assert_eq!(
            err(15, 15, &[p(7, 7), p(8, 8), p(9, 9), p(8, 8)]),
            "opening stone 4 (8,8) is on a point stone 2 already holds"
        );
        assert!(err(4, 15, &[]).contains("5 to 64"));
        // X: a five on row 0, O's stones elsewhere.
        let mut five = Vec::new();
        for x in 0..5 {
            five.push(p(x, 0));
            five.push(p(x, 5));
        }
        five.pop();
        assert_eq!(
            err(15, 15, &five),
            "the opening already has a winning line for X: give a position that is still open"
        );
        // Under the caro rule, a five blocked at both ends by later stones is no win.
        let mut blocked = vec![p(1, 0), p(0, 0), p(2, 0), p(6, 0)];
        for x in 3..6 {
            blocked.push(p(x, 0));
            blocked.push(p(x, 7));
        }
        assert!(Game::with_opening(15, 15, Rule::Caro, &blocked).is_ok());
        assert!(Game::with_opening(15, 15, Rule::Freestyle, &blocked).is_err());
        // A full board (the 5x5 draw pattern of `full_board_is_a_draw`, in play order).
        let pattern = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"];
        let (mut xs, mut os) = (Vec::new(), Vec::new());
        for (y, row) in pattern.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let q = p(x as u8, y as u8);
                if c == 'X' { xs.push(q) } else { os.push(q) }
            }
        }
        let all: Vec<Point> = (0..25)
            .map(|i| if i % 2 == 0 { xs[i / 2] } else { os[i / 2] })
            .collect();
        assert_eq!(
            Game::with_opening(5, 5, Rule::Freestyle, &all).unwrap_err(),
            OpeningError::Full
        );
        assert!(Game::with_opening(5, 5, Rule::Freestyle, &all[..24]).is_ok());
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

    #[test]
    fn renju_refuses_black_a_double_three_with_the_reason_and_white_may_overline() {
        use crate::caro::notation::parse_point;
        let at = |n: &str| parse_point(n, 15, 15).unwrap();
        let mut g = Game::new(15, 15, Rule::Renju).unwrap();
        // X: f8 g8 i7 i6 (O elsewhere, far away); then i8 makes two open threes.
        for (x, o) in [("f8", "a1"), ("g8", "a3"), ("i7", "a5"), ("i6", "a9")] {
            g.play(at(x)).unwrap();
            g.play(at(o)).unwrap();
        }
        assert_eq!(g.to_move(), Stone::X);
        let e = g.play(at("i8")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "double three at i8: forbidden to black under the renju rule"
        );
        assert_eq!(g.moves().len(), 8, "a refused move changes nothing");
        assert!(
            g.forbidden_points()
                .contains(&(at("i8"), Foul::DoubleThree))
        );
        // O is never forbidden, and sees no forbidden points for itself.
        g.play(at("o15")).unwrap();
        assert!(g.forbidden_points().is_empty());
        assert!(g.check(at("i8")).is_ok());
        // The same moves under standard: no foul.
        let mut s = Game::new(15, 15, Rule::Standard).unwrap();
        for &m in &g.moves()[..8] {
            s.play(m).unwrap();
        }
        assert!(s.check(at("i8")).is_ok());

        // White wins with six; Black's six is forbidden (an overline), never a win.
        let mut g = Game::new(15, 15, Rule::Renju).unwrap();
        for (x, o) in [
            ("a15", "c8"),
            ("a13", "d8"),
            ("a11", "e8"),
            ("a9", "g8"),
            ("a7", "h8"),
            ("n1", "f8"),
        ] {
            assert_eq!(g.outcome(), None);
            g.play(at(x)).unwrap();
            g.play(at(o)).unwrap();
        }
        assert!(
            matches!(g.outcome(), Some(Outcome::Win { winner: Stone::O, line }) if line.len == 6)
        );
        let mut g = Game::new(15, 15, Rule::Renju).unwrap();
        for (x, o) in [
            ("c8", "a15"),
            ("d8", "a13"),
            ("e8", "a11"),
            ("g8", "a9"),
            ("h8", "a7"),
        ] {
            g.play(at(x)).unwrap();
            g.play(at(o)).unwrap();
        }
        assert!(matches!(
            g.play(at("f8")),
            Err(MoveError::Forbidden {
                foul: Foul::Overline,
                ..
            })
        ));
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

        /// A game from random opening stones plays exactly like the same stones played
        /// as moves: same board, same turn, same verdicts, and undo stops at the opening.
        #[test]
        fn openings_play_like_the_moves_they_stand_for(
            w in 5u32..=12, h in 5u32..=12, rule_i in 0usize..4,
            picks in proptest::collection::vec(any::<u16>(), 1..60),
            split in any::<u8>(),
        ) {
            let rule = Rule::ALL[rule_i];
            let mut reference = Game::new(w, h, rule).unwrap();
            let mut played = Vec::new();
            for pick in &picks {
                let empty: Vec<Point> = reference.board().points().filter(|p| reference.board().is_empty_at(*p)).collect();
                if empty.is_empty() || reference.outcome().is_some() { break; }
                let p = empty[*pick as usize % empty.len()];
                reference.play(p).unwrap();
                played.push(p);
            }
            // Openings stop short of the game's end (an opening cannot hold a win or
            // fill the board).
            let openable = if reference.outcome().is_some() { played.len() - 1 } else { played.len() };
            let cut = usize::from(split) % (openable + 1);
            let mut g = Game::with_opening(w, h, rule, &played[..cut]).unwrap();
            for &p in &played[cut..] {
                g.play(p).unwrap();
            }
            prop_assert_eq!(g.board().hash(), reference.board().hash());
            prop_assert_eq!(g.to_move(), reference.to_move());
            prop_assert_eq!(g.outcome(), reference.outcome());
            prop_assert_eq!(g.moves(), &played[cut..]);
            while g.undo().is_some() {}
            prop_assert_eq!(g.board().stones(), cut);
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

    #[test]
    fn renju_black_with_only_forbidden_points_left_draws() {
        // A 7x9 renju game between two bots whose last empty point is an overline for
        // Black: Black cannot move, so the game is drawn as a full board is.
        let moves = [
            (3, 4),
            (3, 5),
            (2, 5),
            (4, 3),
            (4, 4),
            (5, 4),
            (5, 5),
            (2, 1),
            (3, 2),
            (3, 3),
            (2, 4),
            (2, 3),
            (5, 3),
            (3, 6),
            (1, 4),
            (0, 4),
            (1, 1),
            (4, 5),
            (2, 7),
            (2, 2),
            (1, 3),
            (1, 2),
            (1, 6),
            (2, 6),
            (1, 7),
            (1, 5),
            (3, 7),
            (4, 7),
            (4, 6),
            (0, 3),
            (0, 2),
            (2, 8),
            (0, 5),
            (6, 0),
            (5, 8),
            (6, 6),
            (6, 3),
            (0, 7),
            (0, 0),
            (4, 1),
            (5, 1),
            (6, 7),
            (6, 8),
            (0, 6),
            (1, 0),
            (3, 8),
            (0, 8),
            (4, 8),
            (5, 0),
            (6, 1),
            (3, 0),
            (6, 2),
            (4, 0),
            (0, 1),
            (5, 2),
            (6, 5),
            (5, 6),
            (6, 4),
            (3, 1),
            (1, 8),
            (4, 2),
            (5, 7),
        ];
        let mut g = Game::new(7, 9, Rule::Renju).unwrap();
        let mut last = None;
        for (x, y) in moves {
            last = g.play(Point::new(x, y)).unwrap();
        }
        assert_eq!(last, Some(Outcome::Draw));
        assert!(!g.board().is_full());
        assert!(renju::foul(g.board(), Point::new(2, 0)).is_some());
    }
}
