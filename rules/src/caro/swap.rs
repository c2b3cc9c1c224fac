//! Swap openings: how gomoku tournaments take away the first player's edge.
//!
//! Two players, the **proposer** (who would move first) and the **responder**, agree on
//! an opening before the game, and only then on who plays which stones:
//!
//! - **Swap1**: the proposer places three stones, X, O, X. The responder picks a colour:
//!   O (and moves next, the fourth stone) or X (a *swap*: the proposer then plays O and
//!   moves next).
//! - **Swap2**: the proposer places the same three. The responder may pick O or X as in
//!   Swap1, or place two more stones, O then X, and leave the colour to the proposer, who
//!   then picks O (and moves next) or X.
//!
//! The stones alternate X, O, X (, O, X) whoever places them, so an odd number stand when
//! the opening ends and O always moves next. This is the Gomocup and RIF order of Swap2;
//! a room keeps the stones as its game's opening ([`super::Game::with_opening`]) and
//! seats the players by [`SwapOpening::x_player`].
//!
//! The state machine only checks order and points: which rule wins, and whether the
//! stones already make a five (never allowed in an opening), is the game's business when
//! the opening ends.

use super::board::{Board, Point, Stone};

/// Which swap opening.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SwapKind {
    Swap1,
    Swap2,
}

/// One of the two players of a swap opening.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Places the first three stones.
    Proposer,
    /// Answers them.
    Responder,
}

impl Role {
    pub fn other(self) -> Role {
        match self {
            Role::Proposer => Role::Responder,
            Role::Responder => Role::Proposer,
        }
    }
}

/// What a player decides when it is their turn to decide.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Decision {
    /// Play O: the decider moves next.
    TakeO,
    /// Play X: the other player plays O and moves next.
    TakeX,
    /// Swap2's third answer (the responder only, after three stones): place two more
    /// stones, O then X, and let the proposer choose.
    PlaceTwo,
}

/// Where the opening stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    /// The proposer places stones until three stand.
    Propose,
    /// The responder decides: [`Decision::TakeO`], [`Decision::TakeX`] or, in Swap2,
    /// [`Decision::PlaceTwo`].
    Answer,
    /// The responder places two more stones.
    Extend,
    /// The proposer picks a colour: [`Decision::TakeO`] or [`Decision::TakeX`].
    Choose,
    /// Decided: the game may start.
    Done,
}

/// Why an action was refused. Nothing changes after any of these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SwapError {
    #[error("it is the other player's turn in the opening")]
    NotYourTurn,
    #[error("the opening asks for a decision now, not a stone")]
    DecisionDue,
    #[error("the opening asks for a stone now, not a decision")]
    StoneDue,
    #[error("placing two more stones is Swap2's answer, and only after the first three")]
    NoPlaceTwo,
    #[error("{0} is off the board")]
    OffBoard(Point),
    #[error("{0} is already taken")]
    Occupied(Point),
    #[error("the opening is over")]
    Over,
}

/// Something that happened in the opening, in order: the record of the opening phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    /// `by` placed a stone of colour `stone` on `point`.
    Stone {
        by: Role,
        stone: Stone,
        point: Point,
    },
    /// `by` decided.
    Decided { by: Role, decision: Decision },
}

/// A swap opening in progress or decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwapOpening {
    /// Swap1 or Swap2.
    kind: SwapKind,
    /// The stones placed so far, in order (X, O, X, O, X): they become the game's opening.
    stones: Vec<Point>,
    /// Everything that happened, for the move list, records and replays.
    steps: Vec<Step>,
    /// Where it stands.
    stage: Stage,
    /// Who plays X, once decided.
    x_player: Option<Role>,
    /// The board the stones go on, for bounds and occupancy.
    board: Board,
}

impl SwapOpening {
    /// A swap opening about to start on an empty `board` (its size is what counts).
    pub fn new(kind: SwapKind, board: Board) -> SwapOpening {
        SwapOpening {
            kind,
            stones: Vec::new(),
            steps: Vec::new(),
            stage: Stage::Propose,
            x_player: None,
            board,
        }
    }

    pub fn kind(&self) -> SwapKind {
        self.kind
    }

    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// The stones placed so far, in order.
    pub fn stones(&self) -> &[Point] {
        &self.stones
    }

    /// Everything that happened so far, in order.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// Who plays X, once the opening is decided.
    pub fn x_player(&self) -> Option<Role> {
        self.x_player
    }

    /// Whose turn it is, and so whose clock runs; `None` once decided.
    pub fn actor(&self) -> Option<Role> {
        match self.stage {
            Stage::Propose | Stage::Choose => Some(Role::Proposer),
            Stage::Answer | Stage::Extend => Some(Role::Responder),
            Stage::Done => None,
        }
    }

    /// The colour the next stone has: X after an even number, O after an odd one.
    pub fn next_stone(&self) -> Stone {
        if self.stones.len().is_multiple_of(2) {
            Stone::X
        } else {
            Stone::O
        }
    }

    /// The decisions `role` may take now (empty when it is no decision's turn, or not
    /// theirs).
    pub fn decisions(&self, role: Role) -> &'static [Decision] {
        match (self.stage, role, self.kind) {
            (Stage::Answer, Role::Responder, SwapKind::Swap2) => {
                &[Decision::TakeO, Decision::TakeX, Decision::PlaceTwo]
            }
            (Stage::Answer, Role::Responder, SwapKind::Swap1)
            | (Stage::Choose, Role::Proposer, _) => &[Decision::TakeO, Decision::TakeX],
            _ => &[],
        }
    }

    /// `role` places the next stone on `point`.
    pub fn place(&mut self, role: Role, point: Point) -> Result<(), SwapError> {
        match self.stage {
            Stage::Done => return Err(SwapError::Over),
            Stage::Answer | Stage::Choose => return Err(SwapError::DecisionDue),
            Stage::Propose | Stage::Extend => {}
        }
        if self.actor() != Some(role) {
            return Err(SwapError::NotYourTurn);
        }
        if !self.board.contains_point(point) {
            return Err(SwapError::OffBoard(point));
        }
        if !self.board.is_empty_at(point) {
            return Err(SwapError::Occupied(point));
        }
        let stone = self.next_stone();
        self.board.place(point, stone);
        self.stones.push(point);
        self.steps.push(Step::Stone {
            by: role,
            stone,
            point,
        });
        self.stage = match (self.stage, self.stones.len()) {
            (Stage::Propose, 3) => Stage::Answer,
            (Stage::Extend, 5) => Stage::Choose,
            (stage, _) => stage,
        };
        Ok(())
    }

    /// `role` decides.
    pub fn decide(&mut self, role: Role, decision: Decision) -> Result<(), SwapError> {
        match self.stage {
            Stage::Done => return Err(SwapError::Over),
            Stage::Propose | Stage::Extend => return Err(SwapError::StoneDue),
            Stage::Answer | Stage::Choose => {}
        }
        if self.actor() != Some(role) {
            return Err(SwapError::NotYourTurn);
        }
        if !self.decisions(role).contains(&decision) {
            return Err(SwapError::NoPlaceTwo);
        }
        self.steps.push(Step::Decided { by: role, decision });
        match decision {
            Decision::PlaceTwo => self.stage = Stage::Extend,
            Decision::TakeO => {
                self.x_player = Some(role.other());
                self.stage = Stage::Done;
            }
            Decision::TakeX => {
                self.x_player = Some(role);
                self.stage = Stage::Done;
            }
        }
        Ok(())
    }

    /// The board with the stones placed so far.
    pub fn board(&self) -> &Board {
        &self.board
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opening(kind: SwapKind) -> SwapOpening {
        SwapOpening::new(kind, Board::new(15, 15).unwrap())
    }

    fn propose(o: &mut SwapOpening) {
        for p in [Point::new(7, 7), Point::new(8, 7), Point::new(7, 8)] {
            assert_eq!(o.actor(), Some(Role::Proposer));
            o.place(Role::Proposer, p).unwrap();
        }
    }

    #[test]
    fn the_proposer_places_x_o_x_and_the_responder_answers() {
        let mut o = opening(SwapKind::Swap2);
        assert_eq!(o.stage(), Stage::Propose);
        assert_eq!(o.next_stone(), Stone::X);
        assert_eq!(
            o.place(Role::Responder, Point::new(0, 0)),
            Err(SwapError::NotYourTurn)
        );
        assert_eq!(
            o.decide(Role::Proposer, Decision::TakeO),
            Err(SwapError::StoneDue)
        );
        propose(&mut o);
        assert_eq!(o.stage(), Stage::Answer);
        assert_eq!(o.actor(), Some(Role::Responder));
        let colours: Vec<Stone> = o
            .steps()
            .iter()
            .map(|s| match s {
                Step::Stone { stone, .. } => *stone,
                Step::Decided { .. } => unreachable!(),
            })
            .collect();
        assert_eq!(colours, [Stone::X, Stone::O, Stone::X]);
        assert_eq!(
            o.place(Role::Responder, Point::new(0, 0)),
            Err(SwapError::DecisionDue)
        );
        assert_eq!(o.decisions(Role::Proposer), &[] as &[Decision]);
    }

    #[test]
    fn taking_o_keeps_the_colours_and_taking_x_swaps_them() {
        let mut o = opening(SwapKind::Swap2);
        propose(&mut o);
        o.decide(Role::Responder, Decision::TakeO).unwrap();
        assert_eq!(o.stage(), Stage::Done);
        assert_eq!(o.x_player(), Some(Role::Proposer));
        assert_eq!(o.actor(), None);
        assert_eq!(
            o.place(Role::Responder, Point::new(0, 0)),
            Err(SwapError::Over)
        );

        let mut o = opening(SwapKind::Swap2);
        propose(&mut o);
        o.decide(Role::Responder, Decision::TakeX).unwrap();
        assert_eq!(o.x_player(), Some(Role::Responder));
        assert_eq!(o.stones().len(), 3);
    }

    #[test]
    fn placing_two_more_leaves_the_choice_to_the_proposer() {
        let mut o = opening(SwapKind::Swap2);
        propose(&mut o);
        o.decide(Role::Responder, Decision::PlaceTwo).unwrap();
        assert_eq!(o.stage(), Stage::Extend);
        assert_eq!(o.actor(), Some(Role::Responder));
        assert_eq!(o.next_stone(), Stone::O);
        assert_eq!(
            o.place(Role::Responder, Point::new(7, 7)),
            Err(SwapError::Occupied(Point::new(7, 7)))
        );
        assert_eq!(
            o.place(Role::Responder, Point::new(15, 0)),
            Err(SwapError::OffBoard(Point::new(15, 0)))
        );
        o.place(Role::Responder, Point::new(6, 6)).unwrap();
        assert_eq!(o.next_stone(), Stone::X);
        o.place(Role::Responder, Point::new(9, 9)).unwrap();
        assert_eq!(o.stage(), Stage::Choose);
        assert_eq!(o.actor(), Some(Role::Proposer));
        assert_eq!(
            o.decide(Role::Proposer, Decision::PlaceTwo),
            Err(SwapError::NoPlaceTwo)
        );
        o.decide(Role::Proposer, Decision::TakeO).unwrap();
        assert_eq!(o.x_player(), Some(Role::Responder));
        assert_eq!(o.stones().len(), 5);
        assert_eq!(o.steps().len(), 7, "five stones and two decisions");

        // Or the proposer takes X.
        let mut o = opening(SwapKind::Swap2);
        propose(&mut o);
        o.decide(Role::Responder, Decision::PlaceTwo).unwrap();
        o.place(Role::Responder, Point::new(6, 6)).unwrap();
        o.place(Role::Responder, Point::new(9, 9)).unwrap();
        o.decide(Role::Proposer, Decision::TakeX).unwrap();
        assert_eq!(o.x_player(), Some(Role::Proposer));
    }

    #[test]
    fn swap1_has_no_third_answer() {
        let mut o = opening(SwapKind::Swap1);
        propose(&mut o);
        assert_eq!(
            o.decisions(Role::Responder),
            &[Decision::TakeO, Decision::TakeX]
        );
        assert_eq!(
            o.decide(Role::Responder, Decision::PlaceTwo),
            Err(SwapError::NoPlaceTwo)
        );
        assert_eq!(
            o.stage(),
            Stage::Answer,
            "a refused decision changes nothing"
        );
        o.decide(Role::Responder, Decision::TakeX).unwrap();
        assert_eq!(o.x_player(), Some(Role::Responder));
    }

    #[test]
    fn the_decided_stones_open_a_game_with_o_to_move() {
        let mut o = opening(SwapKind::Swap2);
        propose(&mut o);
        o.decide(Role::Responder, Decision::TakeO).unwrap();
        let game =
            super::super::Game::with_opening(15, 15, super::super::Rule::Freestyle, o.stones())
                .unwrap();
        assert_eq!(game.to_move(), Stone::O);
    }
}
