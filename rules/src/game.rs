//! One view over every game banco plays, for code that runs games without caring which
//! (the server's rooms, the arena). Each variant wraps that game's own record; rules stay
//! in the game's module.

use crate::caro;
use crate::xiangqi;

/// The side that moves first in a game, and the other one. In caro the first side is
/// whoever is to move after the opening stones (X after an even opening or none, O after
/// an odd one); in xiangqi, whichever colour the start position gives the move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    First,
    Second,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for First, 1 for Second.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// What game to set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameSpec {
    /// Caro on a `width` x `height` board, from `opening`: stones placed alternately X,
    /// O, X, ... before the first move (empty for an empty board).
    Caro {
        width: u8,
        height: u8,
        rule: caro::Rule,
        opening: Vec<caro::Point>,
    },
    /// Xiangqi from `fen` (UCI/UCCI FEN, any legal position not already decided), or from
    /// the usual start position.
    Xiangqi { fen: Option<String> },
}

/// A move in one of the games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    Caro(caro::Point),
    Xiangqi(xiangqi::Move),
}

/// What people are shown of a played move besides its coordinates.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MoveNote {
    /// Xiangqi: the move in WXF notation (`C2.5`). Empty for caro.
    pub wxf: String,
    /// Xiangqi: the move gave check.
    pub check: bool,
}

/// Why a game ended by its rules (as opposed to a clock, a resignation or a player
/// leaving, which the caller decides).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// Caro: a winning line.
    Five,
    /// Caro: the board filled with no winning line.
    BoardFull,
    /// Xiangqi: the side to move is in check with no legal move.
    Checkmate,
    /// Xiangqi: the side to move has no legal move but is not in check (it loses).
    Stalemate,
    /// Xiangqi: one side kept checking through a repetition (it loses).
    PerpetualCheck,
    /// Xiangqi: the same position came up a third time without perpetual check.
    Repetition,
    /// Xiangqi: sixty moves by each side without a capture.
    SixtyMoves,
    /// Xiangqi: neither side has a piece that can attack.
    NoMaterial,
}

impl EndReason {
    /// The stable name (as on the wire): `checkmate`, `perpetual_check`, ...
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Five => "five",
            EndReason::BoardFull => "board_full",
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::PerpetualCheck => "perpetual_check",
            EndReason::Repetition => "repetition",
            EndReason::SixtyMoves => "sixty_moves",
            EndReason::NoMaterial => "no_material",
        }
    }
}

/// How a game ended by its rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ending {
    /// `None` for a draw.
    pub winner: Option<Side>,
    pub reason: EndReason,
    /// Caro: the winning line's points, for highlighting. Empty otherwise.
    pub line: Vec<caro::Point>,
}

/// A move refused by the rules. The game is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("that move belongs to another game")]
    WrongGame,
    #[error(transparent)]
    Caro(#[from] caro::MoveError),
    #[error(transparent)]
    Xiangqi(#[from] xiangqi::MoveError),
}

/// A spec that cannot be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error(transparent)]
    CaroSize(#[from] caro::SizeError),
    #[error(transparent)]
    CaroOpening(caro::OpeningError),
    #[error(transparent)]
    Fen(#[from] xiangqi::FenError),
    #[error(
        "that position is already decided: {}; start from one that is still open",
        decided_words(.0)
    )]
    Decided(&'static str),
}

/// Why a start position is over before the first move, for people: the end reason's
/// stable name (as [`SpecError::Decided`] holds it) in words.
fn decided_words(reason: &str) -> &str {
    match reason {
        "checkmate" => "the side to move is checkmated",
        "stalemate" => "the side to move has no legal move",
        "no_material" => "neither side has a piece left that can attack",
        "sixty_moves" => "sixty moves have passed without a capture",
        other => other,
    }
}

impl From<xiangqi::setup::Problem> for SpecError {
    /// What setting up a game from an arranged position with this problem says: an
    /// editor shows this sentence, a server refuses with it.
    fn from(problem: xiangqi::setup::Problem) -> SpecError {
        match problem {
            xiangqi::setup::Problem::Illegal(e) => SpecError::Fen(e),
            xiangqi::setup::Problem::Decided(reason) => {
                SpecError::Decided(xiangqi_reason(reason).name())
            }
        }
    }
}

/// A game in progress or finished.
#[derive(Debug, Clone)]
pub enum Game {
    Caro(caro::Game),
    /// Boxed: a xiangqi record holds two positions, far bigger than a caro one.
    Xiangqi(Box<xiangqi::Game>),
}

impl Game {
    /// A new game as `spec` describes.
    pub fn new(spec: &GameSpec) -> Result<Game, SpecError> {
        match spec {
            GameSpec::Caro {
                width,
                height,
                rule,
                opening,
            } => caro::Game::with_opening(u32::from(*width), u32::from(*height), *rule, opening)
                .map(Game::Caro)
                .map_err(|e| match e {
                    caro::OpeningError::Size(size) => SpecError::CaroSize(size),
                    other => SpecError::CaroOpening(other),
                }),
            GameSpec::Xiangqi { fen } => {
                let game = match fen {
                    Some(fen) => xiangqi::Game::from_fen(fen)?,
                    None => xiangqi::Game::new(),
                };
                match game.outcome() {
                    Some(outcome) => Err(SpecError::Decided(xiangqi_reason(outcome.reason).name())),
                    None => Ok(Game::Xiangqi(Box::new(game))),
                }
            }
        }
    }

    /// Who moves now.
    pub fn to_move(&self) -> Side {
        match self {
            Game::Caro(g) => caro_side(g, g.to_move()),
            Game::Xiangqi(g) => xiangqi_side(g, g.to_move()),
        }
    }

    /// Caro: the stones the game started from, X first (not moves: they are never undone
    /// and [`Game::plies`] does not count them). Empty for xiangqi.
    pub fn opening(&self) -> &[caro::Point] {
        match self {
            Game::Caro(g) => g.opening(),
            Game::Xiangqi(_) => &[],
        }
    }

    /// Plies played so far.
    pub fn plies(&self) -> usize {
        match self {
            Game::Caro(g) => g.moves().len(),
            Game::Xiangqi(g) => g.plies().len(),
        }
    }

    /// Every move so far, in order.
    pub fn moves(&self) -> Vec<Move> {
        match self {
            Game::Caro(g) => g.moves().iter().map(|p| Move::Caro(*p)).collect(),
            Game::Xiangqi(g) => g.moves().map(Move::Xiangqi).collect(),
        }
    }

    /// The WXF text and check flag of ply `ply` (0-based); `None` past the last ply.
    /// Caro moves have an empty note.
    pub fn note(&self, ply: usize) -> Option<MoveNote> {
        match self {
            Game::Caro(g) => (ply < g.moves().len()).then(MoveNote::default),
            Game::Xiangqi(g) => g.plies().get(ply).map(|p| MoveNote {
                wxf: p.wxf.clone(),
                check: p.check,
            }),
        }
    }

    /// Xiangqi: the start position's FEN. `None` for caro.
    pub fn start_fen(&self) -> Option<String> {
        match self {
            Game::Caro(_) => None,
            Game::Xiangqi(g) => Some(g.start_fen()),
        }
    }

    /// Plays `mv` for the side to move; returns how the game ended if this move ended it.
    pub fn play(&mut self, mv: Move) -> Result<Option<Ending>, IllegalMove> {
        match (self, mv) {
            (Game::Caro(g), Move::Caro(p)) => {
                let outcome = g.play(p)?;
                Ok(outcome.map(|o| caro_ending(g, o)))
            }
            (Game::Xiangqi(g), Move::Xiangqi(m)) => {
                g.play(m)?;
                Ok(g.outcome().map(|o| xiangqi_ending(g, o)))
            }
            _ => Err(IllegalMove::WrongGame),
        }
    }

    /// Takes back the last move; `None` if there is none.
    pub fn undo(&mut self) -> Option<Move> {
        match self {
            Game::Caro(g) => g.undo().map(Move::Caro),
            Game::Xiangqi(g) => g.undo().map(|p| Move::Xiangqi(p.mv)),
        }
    }

    /// How the game ended by its rules, if it has.
    pub fn ending(&self) -> Option<Ending> {
        match self {
            Game::Caro(g) => g.outcome().map(|o| caro_ending(g, o)),
            Game::Xiangqi(g) => g.outcome().map(|o| xiangqi_ending(g, o)),
        }
    }
}

/// The side of `color` in `game`: the colour to move at the start moves first.
fn xiangqi_side(game: &xiangqi::Game, color: xiangqi::Color) -> Side {
    if color == game.start().side_to_move() {
        Side::First
    } else {
        Side::Second
    }
}

fn xiangqi_reason(reason: xiangqi::Reason) -> EndReason {
    match reason {
        xiangqi::Reason::Checkmate => EndReason::Checkmate,
        xiangqi::Reason::Stalemate => EndReason::Stalemate,
        xiangqi::Reason::PerpetualCheck => EndReason::PerpetualCheck,
        xiangqi::Reason::Repetition => EndReason::Repetition,
        xiangqi::Reason::SixtyMoves => EndReason::SixtyMoves,
        xiangqi::Reason::NoMaterial => EndReason::NoMaterial,
    }
}

fn xiangqi_ending(game: &xiangqi::Game, outcome: xiangqi::Outcome) -> Ending {
    Ending {
        winner: outcome.winner.map(|c| xiangqi_side(game, c)),
        reason: xiangqi_reason(outcome.reason),
        line: Vec::new(),
    }
}

/// The side playing `stone` in `game`: the stone to move after the opening moves first.
fn caro_side(game: &caro::Game, stone: caro::Stone) -> Side {
    if stone == game.first_stone() {
        Side::First
    } else {
        Side::Second
    }
}

fn caro_ending(game: &caro::Game, outcome: caro::Outcome) -> Ending {
    match outcome {
        caro::Outcome::Win { winner, line } => Ending {
            winner: Some(caro_side(game, winner)),
            reason: EndReason::Five,
            line: line.points().collect(),
        },
        caro::Outcome::Draw => Ending {
            winner: None,
            reason: EndReason::BoardFull,
            line: Vec::new(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::caro::{Point, Rule};

    #[test]
    fn caro_through_the_common_view() {
        let spec = GameSpec::Caro {
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
            opening: Vec::new(),
        };
        let mut g = Game::new(&spec).unwrap();
        assert_eq!(g.to_move(), Side::First);
        for i in 0..4 {
            assert_eq!(g.play(Move::Caro(Point::new(i, 0))), Ok(None));
            g.play(Move::Caro(Point::new(i, 1))).unwrap();
        }
        let end = g.play(Move::Caro(Point::new(4, 0))).unwrap().unwrap();
        assert_eq!(end.winner, Some(Side::First));
        assert_eq!(end.reason, EndReason::Five);
        assert_eq!(end.line.len(), 5);
        assert_eq!(g.ending(), Some(end));
        assert_eq!(g.undo(), Some(Move::Caro(Point::new(4, 0))));
        assert_eq!(g.ending(), None);
        assert_eq!(g.plies(), 8);
        assert!(matches!(
            g.play(Move::Caro(Point::new(0, 0))),
            Err(IllegalMove::Caro(caro::MoveError::Occupied(_)))
        ));
        assert!(
            Game::new(&GameSpec::Caro {
                width: 3,
                height: 15,
                rule: Rule::Caro,
                opening: Vec::new(),
            })
            .is_err()
        );
    }

    #[test]
    fn caro_from_an_opening_through_the_common_view() {
        // X at 0,0 and 1,0; O at 0,5: O moves first, so O is the first side.
        let spec = GameSpec::Caro {
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
            opening: vec![Point::new(0, 0), Point::new(0, 5), Point::new(1, 0)],
        };
        let mut g = Game::new(&spec).unwrap();
        assert_eq!(g.opening().len(), 3);
        assert_eq!(g.to_move(), Side::First);
        assert_eq!(g.plies(), 0);
        assert!(g.moves().is_empty());
        assert!(matches!(
            g.play(Move::Caro(Point::new(1, 0))),
            Err(IllegalMove::Caro(caro::MoveError::Occupied(_)))
        ));
        // O (first) makes five on row 5 while X (second) plays elsewhere.
        for (o, x) in [((1, 5), (2, 0)), ((2, 5), (3, 0)), ((3, 5), (9, 9))] {
            assert_eq!(g.play(Move::Caro(Point::new(o.0, o.1))), Ok(None));
            assert_eq!(g.to_move(), Side::Second);
            assert_eq!(g.play(Move::Caro(Point::new(x.0, x.1))), Ok(None));
        }
        let end = g.play(Move::Caro(Point::new(4, 5))).unwrap().unwrap();
        assert_eq!(end.winner, Some(Side::First), "O moved first and won");
        assert_eq!(g.plies(), 7);
        assert_eq!(g.note(6), Some(MoveNote::default()));
        while g.undo().is_some() {}
        assert_eq!((g.plies(), g.opening().len()), (0, 3));

        // An X win after an odd opening is the second side's.
        let mut g = Game::new(&spec).unwrap();
        for x in 2..5 {
            g.play(Move::Caro(Point::new(x, 9))).unwrap();
            let end = g.play(Move::Caro(Point::new(x, 0))).unwrap();
            if x == 4 {
                assert_eq!(end.map(|e| e.winner), Some(Some(Side::Second)));
            }
        }

        // A bad opening is refused with the rules' sentence.
        let bad = GameSpec::Caro {
            width: 9,
            height: 9,
            rule: Rule::Caro,
            opening: vec![Point::new(4, 4), Point::new(4, 4)],
        };
        let e = Game::new(&bad).unwrap_err();
        assert!(matches!(e, SpecError::CaroOpening(_)), "{e:?}");
        assert!(e.to_string().contains("stone 1 already holds"), "{e}");
        let small = GameSpec::Caro {
            width: 4,
            height: 9,
            rule: Rule::Caro,
            opening: vec![Point::new(0, 0)],
        };
        assert!(matches!(Game::new(&small), Err(SpecError::CaroSize(_))));
    }

    #[test]
    fn xiangqi_through_the_common_view() {
        let mut g = Game::new(&GameSpec::Xiangqi { fen: None }).unwrap();
        assert_eq!(g.to_move(), Side::First);
        assert_eq!(g.start_fen().as_deref(), Some(xiangqi::START));
        let mv = |s: &str| Move::Xiangqi(s.parse().unwrap());
        assert_eq!(g.play(mv("h2e2")), Ok(None));
        assert_eq!(g.to_move(), Side::Second);
        assert_eq!(
            g.note(0),
            Some(MoveNote {
                wxf: "C2.5".into(),
                check: false
            })
        );
        assert!(matches!(
            g.play(mv("e2e5")),
            Err(IllegalMove::Xiangqi(
                xiangqi::MoveError::NotYourPiece { .. }
            ))
        ));
        assert_eq!(
            g.play(Move::Caro(caro::Point::new(0, 0))),
            Err(IllegalMove::WrongGame)
        );
        assert_eq!(g.undo(), Some(mv("h2e2")));
        assert_eq!(g.plies(), 0);

        // Black to move first in an arranged position: Black is the first side, and a
        // mate by Black is a win for Side::First.
        let spec = GameSpec::Xiangqi {
            fen: Some("3k5/9/9/9/9/9/1r7/9/r8/4K4 b".into()),
        };
        let mut g = Game::new(&spec).unwrap();
        assert_eq!(g.to_move(), Side::First);
        let end = g.play(mv("b3b0")).unwrap().unwrap();
        assert_eq!(end.winner, Some(Side::First));
        assert_eq!(end.reason, EndReason::Checkmate);
        assert!(g.note(0).unwrap().check);
        assert_eq!(g.ending(), Some(end));

        // Bad and decided FENs are refused with a reason.
        let bad = GameSpec::Xiangqi {
            fen: Some("rnbakabnr/9/9 w".into()),
        };
        assert!(matches!(Game::new(&bad), Err(SpecError::Fen(_))));
        let decided = GameSpec::Xiangqi {
            fen: Some("3k5/9/9/9/9/9/9/9/9/4K4 w".into()),
        };
        assert_eq!(
            Game::new(&decided).err(),
            Some(SpecError::Decided("no_material"))
        );
    }

    #[test]
    fn an_arranged_position_is_refused_with_its_first_flaw() {
        for fen in [
            "4k4/9/9/9/9/9/9/9/9/4K4 w",
            "3k5/9/9/9/9/9/9/9/r8/1r2K4 w",
            "3k5/9/9/9/9/9/9/9/9/4K4 w",
            "3k5/9/9/9/9/P1P1P1P1P/P8/9/9/4K4 w",
        ] {
            let setup = xiangqi::Setup::from_fen(fen).unwrap();
            let flaw = setup.flaws().into_iter().next().unwrap();
            let spec = GameSpec::Xiangqi {
                fen: Some(setup.fen()),
            };
            assert_eq!(
                Game::new(&spec).err(),
                Some(SpecError::from(flaw.problem)),
                "{fen}"
            );
        }
    }
}
