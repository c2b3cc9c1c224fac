//! Arranging a position by hand ("sắp cờ thế" in the Pygame xiangqi thesis): pieces put on and taken off
//! any point in any order, the side to move chosen, and the whole judged at any moment.
//!
//! The judgement is the rules' own: [`Position::from_fen`] reads a FEN into a [`Setup`]
//! and refuses it with the first of [`Setup::flaws`], so an editor that shows the flaws
//! as the board is built says exactly what the server will say. Each flaw names the
//! points it concerns (the six soldiers, the two facing generals, the chariot giving
//! check), for the editor to mark on the board.

use super::fen::{FenError, can_stand, most};
use super::game::{Game, Reason};
use super::piece::{Color, Kind, Piece};
use super::position::Position;
use super::square::{Move, Square};

/// A board being arranged: any pieces on any points, not yet judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// What stands on each point, by square index.
    board: [Option<Piece>; Square::COUNT],
    /// The side to move once play starts.
    side: Color,
    /// The FEN's halfmove clock (plies since a capture), kept from an imported FEN.
    halfmove: u32,
    /// The FEN's move number, kept from an imported FEN.
    fullmove: u32,
}

/// What is wrong with an arrangement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// It is not a legal position: the reason [`Position::from_fen`] gives.
    Illegal(FenError),
    /// It is a legal position, but the game would be over before the first move (the
    /// side to move is mated or stalemated, or neither side can attack).
    Decided(Reason),
}

/// One reason an arrangement cannot be played, and the points it concerns (none when it
/// concerns the whole board, such as a missing general).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flaw {
    pub problem: Problem,
    pub squares: Vec<Square>,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::empty()
    }
}

impl Setup {
    /// An empty board, Red to move.
    pub fn empty() -> Setup {
        Setup {
            board: [None; Square::COUNT],
            side: Color::Red,
            halfmove: 0,
            fullmove: 1,
        }
    }

    /// The usual start position.
    pub fn start() -> Setup {
        Setup::from_position(&Position::start())
    }

    /// A legal position, to edit further.
    pub fn from_position(pos: &Position) -> Setup {
        let mut setup = Setup::empty();
        for (sq, piece) in pos.pieces() {
            setup.put(sq, piece);
        }
        setup.side = pos.side_to_move();
        setup.halfmove = pos.halfmove_clock();
        setup.fullmove = pos.fullmove_number();
        setup
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Puts `piece` on `sq`; returns what stood there.
    pub fn put(&mut self, sq: Square, piece: Piece) -> Option<Piece> {
        self.board[sq.index()].replace(piece)
    }

    /// Clears `sq`; returns what stood there.
    pub fn remove(&mut self, sq: Square) -> Option<Piece> {
        self.board[sq.index()].take()
    }

    /// Takes every piece off the board (the side to move stays).
    pub fn clear(&mut self) {
        self.board = [None; Square::COUNT];
    }

    /// Every piece with its square, from a0 upward.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|sq| self.piece_at(sq).map(|p| (sq, p)))
    }

    /// How many pieces of `kind` `color` has on the board.
    pub fn count(&self, color: Color, kind: Kind) -> u32 {
        self.pieces().filter(|(_, p)| p.is(color, kind)).count() as u32
    }

    pub fn side(&self) -> Color {
        self.side
    }

    pub fn set_side(&mut self, side: Color) {
        self.side = side;
    }

    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// Sets the FEN's counters (the move number is at least 1).
    pub fn set_counters(&mut self, halfmove: u32, fullmove: u32) {
        self.halfmove = halfmove;
        self.fullmove = fullmove.max(1);
    }

    /// The position, if the rules accept it; else the first flaw's reason. (A position
    /// already decided is legal: [`Game::outcome`] reports it.)
    pub fn position(&self) -> Result<Position, FenError> {
        match self.illegal().into_iter().next() {
            Some(flaw) => Err(flaw.0),
            None => Ok(self.unchecked()),
        }
    }

    /// Every reason this arrangement cannot start a game, in the order
    /// [`Position::from_fen`] checks them (so the first is the reason it gives); a legal
    /// position that is already decided has one flaw, [`Problem::Decided`]. Empty when a
    /// game can start from it.
    pub fn flaws(&self) -> Vec<Flaw> {
        let illegal: Vec<Flaw> = self
            .illegal()
            .into_iter()
            .map(|(e, squares)| Flaw {
                problem: Problem::Illegal(e),
                squares,
            })
            .collect();
        if !illegal.is_empty() {
            return illegal;
        }
        self.decided().into_iter().collect()
    }

    /// The position with every incremental field filled in, whatever it holds: only for
    /// judging it here, never handed out unless [`Setup::illegal`] is empty.
    fn unchecked(&self) -> Position {
        let mut pos = Position::empty();
        for (sq, piece) in self.pieces() {
            pos.put(piece, sq);
        }
        pos.set_side(self.side);
        pos.halfmove = self.halfmove;
        pos.fullmove = self.fullmove;
        pos
    }

    /// The legality checks, with the squares each concerns: counts of each kind (a
    /// missing general after a side's other counts), pieces on points they can never
    /// reach, generals facing, and the side not to move in check.
    fn illegal(&self) -> Vec<(FenError, Vec<Square>)> {
        let mut out = Vec::new();
        for color in Color::BOTH {
            for kind in Kind::ALL {
                let squares: Vec<Square> = self
                    .pieces()
                    .filter(|(_, p)| p.is(color, kind))
                    .map(|(sq, _)| sq)
                    .collect();
                let count = squares.len() as u32;
                let max = most(kind);
                if count > max {
                    out.push((
                        FenError::TooMany {
                            color,
                            kind: kind.name(),
                            count,
                            max,
                        },
                        squares,
                    ));
                }
            }
            if self.count(color, Kind::King) == 0 {
                out.push((FenError::NoGeneral { color }, Vec::new()));
            }
        }
        for (sq, piece) in self.pieces() {
            if !can_stand(piece, sq) {
                out.push((FenError::Misplaced { piece, square: sq }, vec![sq]));
            }
        }
        // Facing and check need one general a side to be told apart.
        if Color::BOTH.iter().any(|&c| self.count(c, Kind::King) != 1) {
            return out;
        }
        let pos = self.unchecked();
        let generals = [pos.king(Color::Red), pos.king(Color::Black)];
        if pos.generals_face() {
            let file = (b'a' + generals[0].file()) as char;
            out.push((FenError::GeneralsFace(file), generals.to_vec()));
        }
        let to_move = self.side;
        let other = !to_move;
        let target = pos.king(other);
        let attackers: Vec<Square> = self
            .pieces()
            .filter(|&(sq, p)| {
                p.color() == to_move
                    && p.kind() != Kind::King
                    && pos.is_pseudo_legal(Move::new(sq, target))
            })
            .map(|(sq, _)| sq)
            .collect();
        // A general seen down an open file is the facing flaw above, not a check.
        if !attackers.is_empty() || (pos.attacked(target, to_move) && !pos.generals_face()) {
            let mut squares = vec![target];
            squares.extend(attackers);
            out.push((FenError::CanCaptureGeneral { to_move, other }, squares));
        }
        out
    }

    /// For a legal arrangement: whether the game would be over before the first move,
    /// with the stuck general and what checks it.
    fn decided(&self) -> Option<Flaw> {
        let pos = self.unchecked();
        let outcome = Game::from_position(pos.clone()).outcome()?;
        let squares = match outcome.reason {
            Reason::Checkmate | Reason::Stalemate => {
                let general = pos.king(self.side);
                let mut theirs = pos.clone();
                theirs.set_side(!self.side);
                let mut squares = vec![general];
                squares.extend(
                    self.pieces()
                        .filter(|&(sq, p)| {
                            p.color() != self.side && theirs.is_pseudo_legal(Move::new(sq, general))
                        })
                        .map(|(sq, _)| sq),
                );
                squares
            }
            _ => Vec::new(),
        };
        Some(Flaw {
            problem: Problem::Decided(outcome.reason),
            squares,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(text: &str) -> Square {
        text.parse().unwrap()
    }

    fn squares(list: &str) -> Vec<Square> {
        list.split_whitespace().map(sq).collect()
    }

    fn flaws(fen: &str) -> Vec<(String, Vec<Square>)> {
        Setup::from_fen(fen)
            .unwrap()
            .flaws()
            .into_iter()
            .map(|f| {
                let text = match f.problem {
                    Problem::Illegal(e) => e.to_string(),
                    Problem::Decided(r) => format!("decided: {r:?}"),
                };
                (text, f.squares)
            })
            .collect()
    }

    #[test]
    fn an_arrangement_round_trips_through_its_fen() {
        for fen in [
            super::super::START,
            "4k4/9/9/9/9/9/9/9/9/3K5 b - - 12 40",
            // Not a legal position, but the editor may hold it.
            "4k4/9/9/9/4k4/9/PPPPPP3/9/9/4K4 w - - 0 1",
        ] {
            let setup = Setup::from_fen(fen).unwrap();
            assert_eq!(setup.fen(), fen);
        }
        let mut s = Setup::empty();
        assert_eq!(s.fen(), "9/9/9/9/9/9/9/9/9/9 w - - 0 1");
        s.put(sq("e0"), Piece::new(Color::Red, Kind::King));
        s.put(sq("d9"), Piece::new(Color::Black, Kind::King));
        s.set_side(Color::Black);
        assert_eq!(s.fen(), "3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1");
        assert_eq!(s.position().unwrap().fen(), s.fen());
        assert_eq!(Setup::from_position(&s.position().unwrap()), s);
        assert_eq!(Setup::start().fen(), super::super::START);
    }

    #[test]
    fn every_flaw_names_its_squares() {
        // A black general on e5.
        assert_eq!(
            flaws("3k5/9/9/9/4k4/9/9/9/9/4K4 w")[0],
            (
                "black has 2 generals; a side has at most 1".into(),
                squares("e5 d9")
            )
        );
        let f = flaws("9/9/9/9/4k4/9/9/9/9/3K5 w");
        assert_eq!(
            f,
            vec![(
                "a black general can never stand on e5".into(),
                squares("e5")
            )]
        );
        // Six red soldiers.
        let f = flaws("3k5/9/9/9/9/P1P1P1P1P/P8/9/9/4K4 w");
        assert_eq!(
            f,
            vec![(
                "red has 6 soldiers; a side has at most 5".into(),
                squares("a3 a4 c4 e4 g4 i4")
            )]
        );
        // The generals face each other on the open e file.
        assert_eq!(
            flaws("4k4/9/9/9/9/9/9/9/9/4K4 w"),
            vec![(
                "the generals face each other on the open e file".into(),
                squares("e0 e9")
            )]
        );
        // Red to move could take the black general with its chariot: black is in check
        // with red to move.
        assert_eq!(
            flaws("3k5/9/9/9/9/9/9/9/9/3RK4 w"),
            vec![(
                "red to move could capture the black general: black cannot have just moved into check".into(),
                squares("d9 d0")
            )]
        );
        // No general at all, and a misplaced elephant: both reported, in order.
        assert_eq!(
            flaws("9/9/9/9/2B6/9/9/9/9/4K4 w"),
            vec![
                ("black has no general".into(), vec![]),
                ("a red elephant can never stand on c5".into(), squares("c5")),
            ]
        );
        // Mated before the first move: the general and the checking chariots.
        assert_eq!(
            flaws("3k5/9/9/9/9/9/9/9/r8/1r2K4 w"),
            vec![("decided: Checkmate".into(), squares("e0 b0"))]
        );
        // Generals alone: nobody can attack.
        assert_eq!(
            flaws("3k5/9/9/9/9/9/9/9/9/4K4 w"),
            vec![("decided: NoMaterial".into(), vec![])]
        );
        assert!(flaws("3k5/9/9/9/9/9/9/9/9/4KR3 w").is_empty());
    }

    #[test]
    fn random_arrangements_are_judged_as_fen_reading_judges_them() {
        // Whatever the editor shows first is what reading its FEN says, and judging
        // any arrangement at all (generals missing, doubled, misplaced) never panics.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut legal = 0;
        for _ in 0..4000 {
            let mut s = Setup::empty();
            let n = 2 + next() % 12;
            for _ in 0..n {
                let square = Square::from_index((next() % 90) as usize).unwrap();
                let color = Color::BOTH[(next() % 2) as usize];
                let kind = Kind::ALL[(next() % 7) as usize];
                s.put(square, Piece::new(color, kind));
            }
            // Generals on their own points half the time, so later checks are reached.
            if next() % 2 == 0 {
                s.put(sq("e0"), Piece::new(Color::Red, Kind::King));
                s.put(sq("d9"), Piece::new(Color::Black, Kind::King));
            }
            s.set_side(Color::BOTH[(next() % 2) as usize]);
            let first = s.flaws().into_iter().find_map(|f| match f.problem {
                Problem::Illegal(e) => Some(e),
                Problem::Decided(_) => None,
            });
            match Position::from_fen(&s.fen()) {
                Ok(pos) => {
                    legal += 1;
                    assert_eq!(first, None, "{}", s.fen());
                    assert_eq!(pos.fen(), s.fen());
                }
                Err(e) => assert_eq!(first, Some(e), "{}", s.fen()),
            }
        }
        assert!(
            legal > 50,
            "the sample reaches legal positions too ({legal})"
        );
    }
}
