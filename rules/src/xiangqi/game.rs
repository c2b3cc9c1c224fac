//! A xiangqi game record: the start position (any legal one: the usual start or an
//! arranged position), every ply with its WXF text and check flag, and how the game
//! ended by the rules. This is what a room drives: validate a move and say why it is
//! illegal, play it, take it back, list legal moves, and report the end.
//!
//! The game ends when the side to move has no legal move (checkmate or stalemate: it
//! loses either way), when a position stands for the third time (a draw, unless one side
//! checked with every move in the repetition: the perpetual checker loses), after sixty
//! moves by each side without a capture (a draw), or when neither side has a chariot,
//! horse, cannon or soldier left (a draw). Resignation, agreement and clocks are the
//! room's business.

use super::fen::{FenError, START};
use super::notation::{WxfError, parse_wxf, to_wxf};
use super::piece::{Color, Kind, Piece};
use super::position::{Position, Undo};
use super::rules::{REPETITIONS, SIXTY_MOVES, perpetual_checker};
use super::square::{Move, Square};
use super::tables::{ELEPHANT_MOVES, HORSE_MOVES};

/// Why a game ended by the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move is in check and has no legal move; it loses.
    Checkmate,
    /// The side to move is not in check but has no legal move; it loses.
    Stalemate,
    /// A position stood for the third time while one side checked with every move; that
    /// side loses.
    PerpetualCheck,
    /// A position stood for the third time otherwise: a draw.
    Repetition,
    /// Sixty moves by each side without a capture: a draw.
    SixtyMoves,
    /// Neither side has a chariot, horse, cannon or soldier: a draw.
    NoMaterial,
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<Color>,
    /// What ended it.
    pub reason: Reason,
}

/// One played ply, as recorded.
#[derive(Debug, Clone)]
pub struct Ply {
    /// The move, in ICCS coordinates.
    pub mv: Move,
    /// The piece that moved.
    pub piece: Piece,
    /// The piece it took, if any.
    pub captured: Option<Piece>,
    /// The move in WXF notation, written before it was played (`C2.5`).
    pub wxf: String,
    /// Whether the move gave check.
    pub check: bool,
    /// What the position needs to take the move back.
    undo: Undo,
}

/// Why a move was refused. The game is unchanged after any of these.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("the game is over")]
    GameOver,
    #[error("there is no piece on {0}")]
    NoPiece(Square),
    #[error("the piece on {square} is {owner}'s, and it is {to_move}'s move")]
    NotYourPiece {
        square: Square,
        owner: Color,
        to_move: Color,
    },
    #[error("{to} holds your own {kind}")]
    OwnPiece { to: Square, kind: &'static str },
    #[error("a {kind} cannot go from {from} to {to}: {rule}")]
    Pattern {
        kind: &'static str,
        from: Square,
        to: Square,
        rule: &'static str,
    },
    #[error("the {kind} on {from} is blocked at {at}")]
    Blocked {
        kind: &'static str,
        from: Square,
        at: Square,
    },
    #[error(
        "a cannon captures by jumping exactly one piece; between {from} and {to} there are {screens}"
    )]
    CannonScreens {
        from: Square,
        to: Square,
        screens: u32,
    },
    #[error("that would leave the generals facing each other")]
    GeneralsFace,
    #[error("that would leave your general in check")]
    SelfCheck,
}

/// Text that names no move: neither ICCS coordinates nor legal WXF.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a move: write it as two points like h2e2, or in WXF like C2.5")]
pub struct MoveTextError(pub String);

/// A game in progress or finished.
#[derive(Debug, Clone)]
pub struct Game {
    /// Where the game started.
    start: Position,
    /// The position now.
    position: Position,
    /// Every ply so far, in order.
    plies: Vec<Ply>,
    /// `keys[i]`: the key of the position after `i` plies (`keys[0]`: the start).
    keys: Vec<u64>,
    /// Set when the rules ended the game; cleared by undoing the move that ended it.
    outcome: Option<Outcome>,
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

impl Game {
    /// A game from the usual start position.
    pub fn new() -> Game {
        Game::from_position(Position::start())
    }

    /// A game from a FEN (the "arrange position" of the Pygame xiangqi thesis). The position must be legal (see
    /// [`super::fen`]); it may already be decided (a side to move with no legal move, or no
    /// attacking material), which [`Game::outcome`] then reports.
    pub fn from_fen(fen: &str) -> Result<Game, FenError> {
        Ok(Game::from_position(Position::from_fen(fen)?))
    }

    /// A game from a position.
    pub fn from_position(start: Position) -> Game {
        let mut game = Game {
            keys: vec![start.key()],
            position: start.clone(),
            start,
            plies: Vec::new(),
            outcome: None,
        };
        game.outcome = game.judge();
        game
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn start_fen(&self) -> String {
        self.start.fen()
    }

    pub fn fen(&self) -> String {
        self.position.fen()
    }

    /// Whether the start is the usual start position.
    pub fn is_standard_start(&self) -> bool {
        self.start.fen() == START
    }

    /// Every ply so far.
    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }

    /// Every move so far.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.plies.iter().map(|p| p.mv)
    }

    /// `keys()[i]`: the Zobrist key after `i` plies.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    pub fn to_move(&self) -> Color {
        self.position.side_to_move()
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.position.in_check()
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Every legal move (none once the game is over).
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        self.position.legal_moves().to_vec()
    }

    /// The legal destinations of the piece on `from` (for highlighting).
    pub fn targets(&self, from: Square) -> Vec<Square> {
        self.legal_moves()
            .into_iter()
            .filter(|m| m.from() == from)
            .map(|m| m.to())
            .collect()
    }

    /// Reads a move as ICCS coordinates (`h2e2`) or, failing that, WXF (`C2.5`).
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveTextError> {
        if let Ok(mv) = text.parse::<Move>() {
            return Ok(mv);
        }
        parse_wxf(&self.position, text).map_err(|WxfError(t)| MoveTextError(t))
    }

    /// Whether `mv` may be played now, and if not, why.
    pub fn check_move(&self, mv: Move) -> Result<(), MoveError> {
        if self.outcome.is_some() {
            return Err(MoveError::GameOver);
        }
        explain(&self.position, mv)
    }

    /// Plays `mv` for the side to move. Returns the recorded ply; [`Game::outcome`] says
    /// whether it ended the game.
    pub fn play(&mut self, mv: Move) -> Result<&Ply, MoveError> {
        self.check_move(mv)?;
        Ok(self.record(mv))
    }

    /// Plays a legal `mv` even if the rules already ended the game, for analysis tools
    /// that follow a GUI's own idea of when a game ends. The outcome is judged afresh.
    pub fn play_on(&mut self, mv: Move) -> Result<&Ply, MoveError> {
        explain(&self.position, mv)?;
        Ok(self.record(mv))
    }

    fn record(&mut self, mv: Move) -> &Ply {
        let piece = self.position.piece_at(mv.from()).expect("validated move");
        let wxf = to_wxf(&self.position, mv);
        let undo = self.position.make(mv);
        let check = self.position.in_check();
        self.keys.push(self.position.key());
        self.plies.push(Ply {
            mv,
            piece,
            captured: undo.captured,
            wxf,
            check,
            undo,
        });
        self.outcome = self.judge();
        self.plies.last().expect("just pushed")
    }

    /// Takes back the last ply, if there is one.
    pub fn undo(&mut self) -> Option<Ply> {
        let ply = self.plies.pop()?;
        self.keys.pop();
        self.position.unmake(ply.mv, ply.undo);
        self.outcome = self.judge();
        Some(ply)
    }

    /// How the rules judge the position now.
    fn judge(&self) -> Option<Outcome> {
        let pos = &self.position;
        let mover = pos.side_to_move();
        if !pos.has_legal_move() {
            let reason = if pos.in_check() {
                Reason::Checkmate
            } else {
                Reason::Stalemate
            };
            return Some(Outcome {
                winner: Some(!mover),
                reason,
            });
        }
        if let Some(outcome) = self.repetition() {
            return Some(outcome);
        }
        if pos.halfmove_clock() >= SIXTY_MOVES {
            return Some(Outcome {
                winner: None,
                reason: Reason::SixtyMoves,
            });
        }
        if !pos.has_attackers(Color::Red) && !pos.has_attackers(Color::Black) {
            return Some(Outcome {
                winner: None,
                reason: Reason::NoMaterial,
            });
        }
        None
    }

    /// The repetition rule, if the position now stands for the third time.
    fn repetition(&self) -> Option<Outcome> {
        let n = self.plies.len();
        let key = self.keys[n];
        // Only positions since the last capture can repeat this one.
        let since_capture = self
            .plies
            .iter()
            .rposition(|p| p.captured.is_some())
            .map_or(0, |i| i + 1);
        let seen: Vec<usize> = (since_capture..=n)
            .filter(|&i| self.keys[i] == key)
            .collect();
        if seen.len() < REPETITIONS {
            return None;
        }
        let first = seen[0];
        let cycle = self.plies[first..n]
            .iter()
            .map(|p| (p.piece.color(), p.check));
        Some(match perpetual_checker(cycle) {
            Some(checker) => Outcome {
                winner: Some(!checker),
                reason: Reason::PerpetualCheck,
            },
            None => Outcome {
                winner: None,
                reason: Reason::Repetition,
            },
        })
    }
}

/// The movement rule of each kind, for refusals.
fn pattern(kind: Kind) -> &'static str {
    match kind {
        Kind::King => "a general steps one point along a line and stays in its palace",
        Kind::Advisor => "an advisor steps one point diagonally and stays in its palace",
        Kind::Elephant => "an elephant moves two points diagonally and never crosses the river",
        Kind::Horse => "a horse moves one point along a line, then one diagonally outward",
        Kind::Rook => "a chariot moves along a rank or a file",
        Kind::Cannon => "a cannon moves along a rank or a file",
        Kind::Pawn => "a soldier moves one point forward, or sideways once across the river",
    }
}

/// Whether `mv` is legal in `pos`, and if not, the most helpful reason.
fn explain(pos: &Position, mv: Move) -> Result<(), MoveError> {
    let (from, to) = (mv.from(), mv.to());
    let us = pos.side_to_move();
    let piece = pos.piece_at(from).ok_or(MoveError::NoPiece(from))?;
    if piece.color() != us {
        return Err(MoveError::NotYourPiece {
            square: from,
            owner: piece.color(),
            to_move: us,
        });
    }
    let kind = piece.kind();
    if let Some(target) = pos.piece_at(to).filter(|t| t.color() == us) {
        return Err(MoveError::OwnPiece {
            to,
            kind: target.kind().name(),
        });
    }
    if !pos.is_pseudo_legal(mv) {
        let blocked = |steps: &super::tables::Steps| {
            steps
                .iter()
                .find(|&(t, _)| t as usize == to.index())
                .map(|(_, b)| Square::from_index_unchecked(b as usize))
        };
        let at = match kind {
            Kind::Horse => blocked(&HORSE_MOVES[from.index()]),
            Kind::Elephant => blocked(&ELEPHANT_MOVES[from.index()]),
            Kind::Rook | Kind::Cannon if from.file() == to.file() || from.rank() == to.rank() => {
                if kind == Kind::Cannon && pos.piece_at(to).is_some() {
                    return Err(MoveError::CannonScreens {
                        from,
                        to,
                        screens: pos.count_between(from, to),
                    });
                }
                first_between(pos, from, to)
            }
            _ => None,
        };
        return Err(match at {
            Some(at) => MoveError::Blocked {
                kind: kind.name(),
                from,
                at,
            },
            None => MoveError::Pattern {
                kind: kind.name(),
                from,
                to,
                rule: pattern(kind),
            },
        });
    }
    let mut after = pos.clone();
    after.make(mv);
    if after.generals_face() {
        return Err(MoveError::GeneralsFace);
    }
    if after.attacked(after.king(us), !us) {
        return Err(MoveError::SelfCheck);
    }
    Ok(())
}

/// The first occupied point strictly between two points on a line, walking from `from`.
fn first_between(pos: &Position, from: Square, to: Square) -> Option<Square> {
    let df = i32::from(to.file()) - i32::from(from.file());
    let dr = i32::from(to.rank()) - i32::from(from.rank());
    let (sf, sr) = (df.signum(), dr.signum());
    let steps = df.abs().max(dr.abs());
    (1..steps)
        .filter_map(|i| {
            Square::new(
                (i32::from(from.file()) + sf * i) as u8,
                (i32::from(from.rank()) + sr * i) as u8,
            )
        })
        .find(|&sq| pos.piece_at(sq).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    fn play_all(game: &mut Game, moves: &str) {
        for m in moves.split_whitespace() {
            game.play(mv(m)).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
    }

    #[test]
    fn play_records_wxf_and_check_and_undo_restores() {
        let mut g = Game::new();
        let ply = g.play(mv("h2e2")).unwrap();
        assert_eq!(ply.wxf, "C2.5");
        assert!(!ply.check);
        play_all(&mut g, "h9g7 e2e6");
        // The cannon jumped the e3 soldier to take e6; with no screen left between it
        // and the general on e9 it gives no check.
        assert!(!g.plies().last().unwrap().check);
        assert_eq!(
            g.plies().last().unwrap().captured,
            Some(Piece::new(Color::Black, Kind::Pawn))
        );
        let fen_before = g.fen();
        g.play(mv("b9c7")).unwrap();
        g.undo().unwrap();
        assert_eq!(g.fen(), fen_before);
        assert_eq!(g.keys().len(), g.plies().len() + 1);
        assert_eq!(g.parse_move("H2+3"), Ok(mv("b9c7")));
        assert_eq!(g.parse_move("b9c7"), Ok(mv("b9c7")));
        assert!(g.parse_move("Q1+1").is_err());
    }

    #[test]
    fn check_flag() {
        let mut g = Game::from_fen("3k5/9/9/9/9/9/9/9/9/4K2R1 w").unwrap();
        assert!(
            g.play(mv("h0d0")).is_err(),
            "its own general blocks the way"
        );
        assert!(!g.play(mv("h0h8")).unwrap().check);
        let mut g = Game::from_fen("3k5/9/9/9/9/9/9/9/9/4K2R1 w").unwrap();
        assert!(g.play(mv("h0h9")).unwrap().check);
    }

    #[test]
    fn refusals_say_why() {
        let g = Game::new();
        let cases = [
            ("e5e6", MoveError::NoPiece(Square::new(4, 5).unwrap())),
            (
                "h7e7",
                MoveError::NotYourPiece {
                    square: "h7".parse().unwrap(),
                    owner: Color::Black,
                    to_move: Color::Red,
                },
            ),
            (
                "a0a3",
                MoveError::OwnPiece {
                    to: "a3".parse().unwrap(),
                    kind: "soldier",
                },
            ),
            (
                "a0a5",
                MoveError::Blocked {
                    kind: "chariot",
                    from: "a0".parse().unwrap(),
                    at: "a3".parse().unwrap(),
                },
            ),
            (
                "b2b7",
                MoveError::CannonScreens {
                    from: "b2".parse().unwrap(),
                    to: "b7".parse().unwrap(),
                    screens: 0,
                },
            ),
            (
                "b2b9",
                MoveError::CannonScreens {
                    from: "b2".parse().unwrap(),
                    to: "b9".parse().unwrap(),
                    screens: 1,
                },
            ),
            (
                "e3e5",
                MoveError::Pattern {
                    kind: "soldier",
                    from: "e3".parse().unwrap(),
                    to: "e5".parse().unwrap(),
                    rule: pattern(Kind::Pawn),
                },
            ),
            (
                "e0e2",
                MoveError::Pattern {
                    kind: "general",
                    from: "e0".parse().unwrap(),
                    to: "e2".parse().unwrap(),
                    rule: pattern(Kind::King),
                },
            ),
        ];
        for (m, want) in cases {
            if m == "b2b9" {
                // b2b9 jumps the b7 cannon: one screen, a legal capture.
                assert_eq!(g.check_move(mv(m)), Ok(()));
                continue;
            }
            assert_eq!(g.check_move(mv(m)), Err(want.clone()), "{m}");
            assert!(!want.to_string().is_empty());
        }
        // A horse blocked at the leg; an elephant blocked at the eye.
        let g = Game::from_fen("3k5/9/9/9/9/9/9/9/1p1p5/1N2K1B2 w").unwrap();
        assert_eq!(
            g.check_move(mv("b0c2")),
            Err(MoveError::Blocked {
                kind: "horse",
                from: "b0".parse().unwrap(),
                at: "b1".parse().unwrap()
            })
        );
        let g = Game::from_fen("3k5/9/9/9/9/9/9/9/5p3/4K1B2 w").unwrap();
        assert_eq!(
            g.check_move(mv("g0e2")),
            Err(MoveError::Blocked {
                kind: "elephant",
                from: "g0".parse().unwrap(),
                at: "f1".parse().unwrap()
            })
        );
        // Elephants do not cross the river.
        let g = Game::from_fen("3k5/9/9/9/9/2B6/P8/9/9/4K4 w").unwrap();
        let refusal = g.check_move(mv("c4e6"));
        assert!(
            matches!(refusal, Err(MoveError::Pattern { .. })),
            "{refusal:?}"
        );
    }

    #[test]
    fn flying_general_and_self_check_are_refused() {
        // The red horse on e4 is the only thing between the generals.
        let g = Game::from_fen("4k4/9/9/9/9/4N4/9/9/9/4K4 w").unwrap();
        assert_eq!(g.check_move(mv("e4c5")), Err(MoveError::GeneralsFace));
        // Red's general may not step into the chariot's file.
        let g = Game::from_fen("3k5/9/9/9/9/9/9/9/9/3r1K3 w").unwrap();
        assert_eq!(g.check_move(mv("f0e0")), Err(MoveError::SelfCheck));
        // Facing generals and a side that could capture the general are refused FENs.
        assert!(Game::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w").is_err());
        assert!(
            Game::from_fen("4k4/9/9/9/9/9/9/9/9/3KR4 b").is_ok(),
            "black to move in check"
        );
    }

    #[test]
    fn checkmate_ends_the_game() {
        // The a8 chariot holds rank 8; the other mates along rank 9.
        let mut g = Game::from_fen("4k4/R8/9/9/9/9/9/9/9/1R1K5 w").unwrap();
        assert_eq!(g.outcome(), None);
        g.play(mv("b0b9")).unwrap();
        assert!(g.plies().last().unwrap().check);
        assert_eq!(
            g.outcome(),
            Some(Outcome {
                winner: Some(Color::Red),
                reason: Reason::Checkmate
            })
        );
        assert_eq!(g.check_move(mv("e9e8")), Err(MoveError::GameOver));
        assert!(g.legal_moves().is_empty());
        g.undo().unwrap();
        assert_eq!(g.outcome(), None);
    }

    #[test]
    fn stalemate_loses() {
        // Black's lone general on d9 is not in check, but d8 (the i8 chariot) and e9 (the
        // e5 chariot) are covered: after Red's waiting move Black cannot move, and loses.
        let mut g = Game::from_fen("3k5/8R/9/9/4R4/9/9/9/9/5K3 w").unwrap();
        g.play(mv("f0f1")).unwrap();
        assert!(!g.in_check());
        assert_eq!(
            g.outcome(),
            Some(Outcome {
                winner: Some(Color::Red),
                reason: Reason::Stalemate
            })
        );
    }

    #[test]
    fn perpetual_check_loses() {
        // Red's chariot checks back and forth; Black's general steps aside each time.
        // Red's general on f0 keeps Black's off f9; Black's general has only d9 and e9.
        let mut g = Game::from_fen("3k5/9/9/9/9/9/9/9/R8/5K3 w").unwrap();
        play_all(&mut g, "a1d1 d9e9 d1e1 e9d9 e1d1 d9e9 d1e1 e9d9");
        assert_eq!(g.outcome(), None, "position after d1e1.. seen twice only");
        play_all(&mut g, "e1d1");
        assert_eq!(
            g.outcome(),
            Some(Outcome {
                winner: Some(Color::Black),
                reason: Reason::PerpetualCheck
            })
        );
    }

    #[test]
    fn quiet_repetition_draws() {
        let mut g = Game::new();
        let shuffle = "h0g2 h9g7 g2h0 g7h9";
        play_all(&mut g, shuffle);
        assert_eq!(g.outcome(), None);
        play_all(&mut g, shuffle);
        assert_eq!(
            g.outcome(),
            Some(Outcome {
                winner: None,
                reason: Reason::Repetition
            })
        );
    }

    #[test]
    fn sixty_moves_without_capture_draw() {
        // 118 plies already without a capture; two more quiet plies end it.
        let mut g = Game::from_fen("3k5/9/9/9/9/9/P8/9/9/4K4 w - - 118 60").unwrap();
        g.play(mv("a3a4")).unwrap();
        assert_eq!(g.outcome(), None);
        g.play(mv("d9d8")).unwrap();
        assert_eq!(
            g.outcome(),
            Some(Outcome {
                winner: None,
                reason: Reason::SixtyMoves
            })
        );
    }

    #[test]
    fn no_attacking_material_draws() {
        // Black's advisor takes Red's last attacker, leaving only defenders.
        let mut g = Game::from_fen("3ak4/4P4/9/9/9/9/9/9/9/3AK4 b").unwrap();
        assert_eq!(g.outcome(), None);
        g.play(mv("d9e8")).unwrap();
        assert_eq!(
            g.outcome(),
            Some(Outcome {
                winner: None,
                reason: Reason::NoMaterial
            })
        );
        // A start position with no attackers at all is decided from the start.
        let g = Game::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w").unwrap();
        assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::NoMaterial));
    }
}
