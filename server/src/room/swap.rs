//! Swap openings in a room ([`CaroOpening::Swap1`], [`CaroOpening::Swap2`]): the opening
//! phase before a game's first move, on the game's clock.
//!
//! - [`SwapPhase`]: the rules' [`SwapOpening`] with the seats it is played by, and its
//!   wire view.
//! - [`Room::swap_stone`], [`Room::swap_decide`]: a player's stone or decision, checked
//!   by the rules; each is told to everyone as [`ServerMsg::Swap`]. The clock runs for
//!   whoever acts, and a flag falling here loses like anywhere else.
//! - When the opening is decided the game proper begins from its stones (O to move, the
//!   seat that took White moving first): the position is set up, the store's live row
//!   is rewritten with the stones and the colours, and [`ServerMsg::GameStarted`] goes
//!   out again with them.
//! - [`Room::drive_swap_bot`]: a bot's part. As proposer it draws [`PROPOSALS`]
//!   openings from the shipped balanced list, has its search score each (O to move),
//!   and places the one scored closest to even; as decider it asks its search for the
//!   position's score with O to move and takes White when O stands at least even, else
//!   Black. Placing two more stones
//!   is never worth more to the responder than the better colour now (the proposer then
//!   takes the better colour of the five-stone position, which a balanced pair makes
//!   even at best), so the bot answers with a colour.

use tokio::time::Instant;

use banco_protocol::{
    CaroOpening, ChatLine, ErrorCode, ErrorMsg, Seat, ServerMsg, SwapChoice, SwapStage, SwapStep,
    SwapView,
};
use banco_rules::caro::Point;
use banco_rules::caro::board::Board;
use banco_rules::caro::openings::random_balanced;
use banco_rules::caro::swap::{Decision, Role, Stage, Step, SwapError, SwapKind, SwapOpening};
use banco_rules::game::{Game, GameSpec};

use super::engine::{Answer, Asker, reply_to};
use super::{CurrentGame, Room, SeatState};
use crate::ClientId;
use crate::engines::{Job, Priority};

/// How many candidate openings a bot proposer has its search score before it places
/// the most even one.
pub const PROPOSALS: usize = 4;

/// A game's swap opening and who plays it.
#[derive(Debug, Clone)]
pub struct SwapPhase {
    /// Swap1 or Swap2, as the room's settings name it.
    kind: CaroOpening,
    /// The seat placing the first three stones.
    proposer: Seat,
    /// The rules' state machine.
    opening: SwapOpening,
    /// A bot proposer's candidates scored so far (O to move, O's view).
    proposals: Vec<(Vec<Point>, i32)>,
    /// The candidate a bot proposer's search is scoring now.
    trying: Option<Vec<Point>>,
    /// The room's chat when the game began: the game's row is written again once the
    /// opening is decided, with this chat (what was said since is logged as events).
    chat_before: Vec<ChatLine>,
}

impl SwapPhase {
    /// A fresh opening for a room whose settings ask for one (`None` otherwise).
    pub fn new(kind: &CaroOpening, proposer: Seat, spec: &GameSpec) -> Option<SwapPhase> {
        let swap_kind = match kind {
            CaroOpening::Swap1 => SwapKind::Swap1,
            CaroOpening::Swap2 => SwapKind::Swap2,
            _ => return None,
        };
        let GameSpec::Caro { width, height, .. } = spec else {
            return None;
        };
        let board = Board::new(u32::from(*width), u32::from(*height)).ok()?;
        Some(SwapPhase {
            kind: kind.clone(),
            proposer,
            opening: SwapOpening::new(swap_kind, board),
            proposals: Vec::new(),
            trying: None,
            chat_before: Vec::new(),
        })
    }

    /// The same, knowing the room's chat when the game began.
    pub fn with_chat_before(self, chat: Vec<ChatLine>) -> SwapPhase {
        SwapPhase {
            chat_before: chat,
            ..self
        }
    }

    /// Whether the opening is still being played (no move may be made yet).
    pub fn in_progress(&self) -> bool {
        self.opening.stage() != Stage::Done
    }

    /// The seat of a role.
    fn seat(&self, role: Role) -> Seat {
        match role {
            Role::Proposer => self.proposer,
            Role::Responder => self.proposer.other(),
        }
    }

    /// The role of a seat.
    fn role(&self, seat: Seat) -> Role {
        if seat == self.proposer {
            Role::Proposer
        } else {
            Role::Responder
        }
    }

    /// Whose turn it is in the opening.
    pub fn to_act(&self) -> Option<Seat> {
        self.opening.actor().map(|r| self.seat(r))
    }

    /// The seat playing X, once decided.
    pub fn x_seat(&self) -> Option<Seat> {
        self.opening.x_player().map(|r| self.seat(r))
    }

    /// Whether `seat` did anything in the opening (placed a stone or decided).
    pub fn acted(&self, seat: Seat) -> bool {
        let role = self.role(seat);
        self.opening.steps().iter().any(|s| match s {
            Step::Stone { by, .. } | Step::Decided { by, .. } => *by == role,
        })
    }

    /// The stones placed so far.
    pub fn stones(&self) -> &[Point] {
        self.opening.stones()
    }

    /// The opening as everyone is shown it.
    pub fn view(&self) -> SwapView {
        let stage = match self.opening.stage() {
            Stage::Propose => SwapStage::Propose,
            Stage::Answer => SwapStage::Answer,
            Stage::Extend => SwapStage::Extend,
            Stage::Choose => SwapStage::Choose,
            Stage::Done => SwapStage::Done,
        };
        let choices = self
            .opening
            .actor()
            .map(|r| self.opening.decisions(r).iter().map(|d| wire(*d)).collect())
            .unwrap_or_default();
        let steps = self
            .opening
            .steps()
            .iter()
            .map(|s| match *s {
                Step::Stone { by, point, .. } => SwapStep::Stone {
                    by: self.seat(by),
                    point,
                },
                Step::Decided { by, decision } => SwapStep::Decided {
                    by: self.seat(by),
                    choice: wire(decision),
                },
            })
            .collect();
        SwapView {
            kind: self.kind.clone(),
            proposer: self.proposer,
            stage,
            to_act: self.to_act(),
            choices,
            stones: self.opening.stones().to_vec(),
            steps,
            x_seat: self.x_seat(),
        }
    }
}

/// The wire's name of a decision.
fn wire(d: Decision) -> SwapChoice {
    match d {
        Decision::TakeO => SwapChoice::White,
        Decision::TakeX => SwapChoice::Black,
        Decision::PlaceTwo => SwapChoice::PlaceTwo,
    }
}

/// The rules' decision of a wire choice.
fn rules_decision(c: SwapChoice) -> Decision {
    match c {
        SwapChoice::White => Decision::TakeO,
        SwapChoice::Black => Decision::TakeX,
        SwapChoice::PlaceTwo => Decision::PlaceTwo,
    }
}

/// The wire's refusal for what the opening's rules refuse.
fn refusal(e: SwapError) -> ErrorMsg {
    let code = match e {
        SwapError::NotYourTurn => ErrorCode::NotYourTurn,
        SwapError::OffBoard(_) => ErrorCode::OutOfBounds,
        SwapError::Occupied(_) => ErrorCode::Occupied,
        SwapError::Over => ErrorCode::GameOver,
        SwapError::DecisionDue | SwapError::StoneDue | SwapError::NoPlaceTwo => {
            ErrorCode::IllegalMove
        }
    };
    let message = match e {
        SwapError::DecisionDue => {
            "the opening asks for a decision now: white, black or (Swap2) two".to_string()
        }
        other => other.to_string(),
    };
    ErrorMsg::new(code, message)
}

/// What one act in the opening was.
#[derive(Debug, Clone, Copy)]
enum Act {
    Stone(Point),
    Decide(Decision),
}

impl Room {
    /// A player asks for a swap decision.
    pub(super) fn swap_decide(
        &mut self,
        client: ClientId,
        choice: SwapChoice,
    ) -> Result<(), ErrorMsg> {
        let Some(seat) = self.seat_of(client) else {
            return Err(ErrorMsg::new(
                ErrorCode::NotAPlayer,
                "spectators do not decide the opening",
            ));
        };
        let running_swap = self
            .game
            .as_ref()
            .filter(|m| m.running())
            .is_some_and(|m| m.swap.as_ref().is_some_and(SwapPhase::in_progress));
        if !running_swap {
            return Err(ErrorMsg::new(
                ErrorCode::IllegalMove,
                "there is no swap opening to decide now",
            ));
        }
        self.swap_act(seat, Act::Decide(rules_decision(choice)))
    }

    /// A player's stone while the opening is played (their move request, routed here).
    pub(super) fn swap_stone(&mut self, seat: Seat, point: Point) -> Result<(), ErrorMsg> {
        self.swap_act(seat, Act::Stone(point))
    }

    /// `seat` acts in the opening: checked by the rules, timed, told to everyone; the game
    /// proper begins once it is decided.
    fn swap_act(&mut self, seat: Seat, act: Act) -> Result<(), ErrorMsg> {
        let now = Instant::now();
        let Some(m) = self.game.as_mut() else {
            return Err(ErrorMsg::new(ErrorCode::NoGame, "no game is running"));
        };
        let Some(phase) = m.swap.as_mut() else {
            return Err(ErrorMsg::new(
                ErrorCode::NoGame,
                "no swap opening is running",
            ));
        };
        let role = phase.role(seat);
        match act {
            Act::Stone(p) => phase.opening.place(role, p),
            Act::Decide(d) => phase.opening.decide(role, d),
        }
        .map_err(refusal)?;
        // The clock: the actor's time stops (its increment credited, a per-move timer
        // refilled) and the next to act's runs: the same seat again while the proposer
        // places its three, the seat playing O once decided.
        let next = match phase.to_act() {
            Some(next) => next,
            None => phase.x_seat().map_or(seat, Seat::other),
        };
        let clocks = m.clock.as_mut().map(|c| {
            c.acted(next, now);
            c.snapshot(now)
        });
        let view = phase.view();
        let decided = !phase.in_progress();
        self.generation += 1;
        self.last_move_at = Some(now);
        tracing::info!(?seat, ?act, "swap opening");
        self.broadcast(ServerMsg::Swap(Box::new(view)));
        // The clocks as they stand now (increment credited, the next actor's running), so
        // no client has to guess them until the first move.
        if let Some(clocks) = clocks {
            self.broadcast(ServerMsg::Clock(clocks));
        }
        if decided {
            self.swap_decided(now);
        }
        Ok(())
    }

    /// The opening is decided: the game proper starts from its stones, the seat that took
    /// White moving first.
    fn swap_decided(&mut self, now: Instant) {
        let GameSpec::Caro {
            width,
            height,
            rule,
            ..
        } = self.spec
        else {
            return;
        };
        let Some(m) = self.game.as_mut() else { return };
        let Some(phase) = m.swap.as_ref() else { return };
        let Some(x_seat) = phase.x_seat() else { return };
        let spec = GameSpec::Caro {
            width,
            height,
            rule,
            opening: phase.stones().to_vec(),
        };
        match Game::new(&spec) {
            Ok(position) => {
                m.position = position;
                // After an odd number of stones O moves first.
                m.first = x_seat.other();
            }
            Err(e) => {
                // The opening's stones hold a five: the rules refuse the position.
                tracing::warn!(error = %e, "a swap opening the rules refuse");
            }
        }
        let view = m.view(now);
        let chat = m
            .swap
            .as_ref()
            .map(|p| p.chat_before.clone())
            .unwrap_or_default();
        self.log_begin_with(chat);
        self.broadcast(ServerMsg::GameStarted(view));
    }

    /// The bot whose turn it is in the opening acts: places a balanced opening, or asks
    /// its search for a decision or a stone.
    pub(super) fn drive_swap_bot(&mut self) {
        let generation = self.generation;
        let Some(m) = self.game.as_ref().filter(|m| m.running()) else {
            return;
        };
        let Some(phase) = m.swap.as_ref().filter(|p| p.in_progress()) else {
            return;
        };
        let Some(seat) = phase.to_act() else { return };
        let SeatState::Bot(bot) = &self.seats[seat.index()] else {
            return;
        };
        if bot.slot.out.is_some() {
            return;
        }
        let level = bot.level;
        let GameSpec::Caro {
            width,
            height,
            rule,
            ..
        } = self.spec
        else {
            return;
        };
        if phase.opening.stage() == Stage::Propose && phase.proposals.len() < PROPOSALS {
            // Score the next candidate: its search says how even it is.
            let Some(candidate) = random_balanced(width, height, rand::random()) else {
                // A board too small for the list: three stones round the centre.
                if let Some(phase) = self.game.as_mut().and_then(|m| m.swap.as_mut()) {
                    let three = centre_three(width, height).unwrap_or_default();
                    phase.proposals = vec![(three, 0); PROPOSALS];
                }
                return self.drive_bots();
            };
            let spec = GameSpec::Caro {
                width,
                height,
                rule,
                opening: candidate.clone(),
            };
            let Ok(position) = Game::new(&spec) else {
                return;
            };
            let limits = self
                .limits_for(m, seat)
                .tighten(crate::engines::level_time(&spec, level) / PROPOSALS as u32);
            let job = Job::new(
                Priority::PersonsBot,
                spec,
                level,
                position,
                limits,
                reply_to(self.answers_tx.clone(), Asker::Bot(seat), generation),
            );
            let handle = self.ctx.engines.submit(job);
            if let Some(phase) = self.game.as_mut().and_then(|m| m.swap.as_mut()) {
                phase.trying = Some(candidate);
            }
            if let SeatState::Bot(bot) = &mut self.seats[seat.index()] {
                bot.slot.out = Some((generation, handle));
            }
            return;
        }
        if phase.opening.stage() == Stage::Propose {
            // The most even candidate, by its search.
            let stones = phase
                .proposals
                .iter()
                .min_by_key(|(_, score)| score.abs())
                .map(|(stones, score)| {
                    tracing::info!(score, "the bot proposes its most even opening");
                    stones.clone()
                })
                .unwrap_or_default();
            let placed = phase.stones().len();
            for p in stones.into_iter().skip(placed) {
                if let Err(e) = self.swap_stone(seat, p) {
                    tracing::error!(error = %e.message, "the bot's opening stone was refused");
                    return;
                }
            }
            // The other seat may be a bot too: it answers now.
            return self.drive_bots();
        }
        // A decision or a stone: the search looks at the stones with the next to move.
        let spec = GameSpec::Caro {
            width,
            height,
            rule,
            opening: phase.stones().to_vec(),
        };
        let Ok(position) = Game::new(&spec) else {
            return;
        };
        let limits = self
            .limits_for(m, seat)
            .tighten(crate::engines::level_time(&spec, level));
        let job = Job::new(
            Priority::PersonsBot,
            spec,
            level,
            position,
            limits,
            reply_to(self.answers_tx.clone(), Asker::Bot(seat), generation),
        );
        let handle = self.ctx.engines.submit(job);
        if let SeatState::Bot(bot) = &mut self.seats[seat.index()] {
            bot.slot.out = Some((generation, handle));
        }
    }

    /// A bot's search in the opening answered: a decision by its score (from the side to
    /// move's view: O after three or five stones, X after four), or its stone.
    /// Returns `false` when the room is not in an opening (the answer is a move's).
    pub(super) fn swap_bot_answer(&mut self, seat: Seat, answer: &Answer) -> bool {
        let Some(phase) = self
            .game
            .as_ref()
            .filter(|m| m.running())
            .and_then(|m| m.swap.as_ref())
            .filter(|p| p.in_progress())
        else {
            return false;
        };
        let stage = phase.opening.stage();
        let stones = phase.stones().len();
        if let SeatState::Bot(bot) = &mut self.seats[seat.index()] {
            bot.slot.out = None;
        }
        let fresh = !answer.cancelled && answer.generation == self.generation;
        if stage == Stage::Propose {
            // A candidate scored (O to move after its three stones: O's view).
            if let Some(phase) = self.game.as_mut().and_then(|m| m.swap.as_mut())
                && let Some(candidate) = phase.trying.take()
                && fresh
            {
                phase.proposals.push((candidate, answer.score));
            }
            return true;
        }
        if !fresh {
            return true;
        }
        let act = match stage {
            Stage::Answer | Stage::Choose => {
                // O is to move after an odd number of stones: its score says which colour.
                let o_score = if stones % 2 == 1 {
                    answer.score
                } else {
                    -answer.score
                };
                let decision = if o_score >= 0 {
                    Decision::TakeO
                } else {
                    Decision::TakeX
                };
                tracing::info!(o_score, ?decision, "the bot decides the opening");
                Act::Decide(decision)
            }
            Stage::Extend => match answer.best {
                Some(banco_rules::game::Move::Caro(p)) => Act::Stone(p),
                _ => return true,
            },
            Stage::Propose | Stage::Done => return true,
        };
        if let Err(e) = self.swap_act(seat, act) {
            tracing::error!(error = %e.message, "the bot's opening act was refused");
        }
        true
    }
}

/// Three stones around the centre (X, O, X) for a board too small for the balanced list.
fn centre_three(width: u8, height: u8) -> Option<Vec<Point>> {
    let (cx, cy) = (width / 2, height / 2);
    (cx >= 1 && cy >= 1).then(|| {
        vec![
            Point::new(cx, cy),
            Point::new(cx + 1, cy - 1),
            Point::new(cx - 1, cy + 1),
        ]
    })
}

impl CurrentGame {
    /// Whether the game is still in its swap opening (no move may be made yet).
    pub(super) fn in_swap(&self) -> bool {
        self.swap.as_ref().is_some_and(SwapPhase::in_progress)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn phase(kind: CaroOpening) -> SwapPhase {
        let spec = GameSpec::Caro {
            width: 15,
            height: 15,
            rule: banco_rules::caro::Rule::Renju,
            opening: Vec::new(),
        };
        SwapPhase::new(&kind, Seat::Two, &spec).unwrap()
    }

    #[test]
    fn the_view_names_the_seats_and_the_choices_of_each_stage() {
        let mut p = phase(CaroOpening::Swap2);
        assert_eq!(p.to_act(), Some(Seat::Two), "the proposer places first");
        let v = p.view();
        assert_eq!(v.stage, SwapStage::Propose);
        assert!(v.choices.is_empty());
        for (x, y) in [(7, 7), (8, 7), (7, 8)] {
            p.opening.place(Role::Proposer, Point::new(x, y)).unwrap();
        }
        let v = p.view();
        assert_eq!(v.stage, SwapStage::Answer);
        assert_eq!(v.to_act, Some(Seat::One));
        assert_eq!(
            v.choices,
            [SwapChoice::White, SwapChoice::Black, SwapChoice::PlaceTwo]
        );
        assert!(p.acted(Seat::Two) && !p.acted(Seat::One));
        p.opening.decide(Role::Responder, Decision::TakeX).unwrap();
        let v = p.view();
        assert_eq!(v.x_seat, Some(Seat::One), "the responder swapped to Black");
        assert_eq!(v.to_act, None);
        assert!(matches!(
            v.steps.last(),
            Some(SwapStep::Decided {
                by: Seat::One,
                choice: SwapChoice::Black
            })
        ));
        assert!(
            SwapPhase::new(
                &CaroOpening::None,
                Seat::One,
                &GameSpec::Xiangqi { fen: None }
            )
            .is_none()
        );
    }

    #[test]
    fn swap1_offers_two_colours_and_refusals_read_as_sentences() {
        let mut p = phase(CaroOpening::Swap1);
        for (x, y) in [(7, 7), (8, 7), (7, 8)] {
            p.opening.place(Role::Proposer, Point::new(x, y)).unwrap();
        }
        assert_eq!(p.view().choices, [SwapChoice::White, SwapChoice::Black]);
        let e = refusal(
            p.opening
                .decide(Role::Responder, Decision::PlaceTwo)
                .unwrap_err(),
        );
        assert_eq!(e.code, ErrorCode::IllegalMove);
        let e = refusal(
            p.opening
                .place(Role::Responder, Point::new(0, 0))
                .unwrap_err(),
        );
        assert!(e.message.contains("decision"), "{}", e.message);
    }
}
