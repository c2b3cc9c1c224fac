//! Offers between the two players: undo, new game (a rematch once the game is over) and
//! draw. One offer may be open at a time; only the other player answers it; only the
//! asker withdraws it. Pure: the room asks, this module says yes or which error.

use banco_protocol::{ErrorCode, ErrorMsg, Offer, OfferKind, Seat};

/// Where the room's game stands, as far as offers care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// No game yet, or a seat is empty.
    NoGame,
    Running,
    Over,
}

/// What an offer is judged against.
#[derive(Debug, Clone, Copy)]
pub struct Situation {
    /// Whether a game is running, over, or not there.
    pub stage: Stage,
    /// The asker has a move on the board in this game (undo needs one).
    pub asker_has_moved: bool,
}

/// The room's open offer, if any.
#[derive(Debug, Clone, Default)]
pub struct Offers {
    /// At most one at a time.
    open: Option<Offer>,
}

impl Offers {
    pub fn open(&self) -> Option<Offer> {
        self.open
    }

    /// `by` offers `kind`.
    pub fn make(&mut self, kind: OfferKind, by: Seat, now: Situation) -> Result<Offer, ErrorMsg> {
        if let Some(open) = self.open {
            let whose = if open.by == by {
                "yours"
            } else {
                "your opponent's"
            };
            return Err(ErrorMsg::new(
                ErrorCode::OfferPending,
                format!(
                    "an offer is already open ({}, {whose}): it must be answered or withdrawn first",
                    open.kind.as_str()
                ),
            ));
        }
        match (kind, now.stage) {
            (_, Stage::NoGame) => {
                return Err(ErrorMsg::new(
                    ErrorCode::NoGame,
                    "there is no game yet: wait for an opponent",
                ));
            }
            (OfferKind::Undo | OfferKind::Draw, Stage::Over) => {
                return Err(ErrorMsg::new(
                    ErrorCode::GameOver,
                    "the game is over: offer a new game instead",
                ));
            }
            (OfferKind::Undo, Stage::Running) if !now.asker_has_moved => {
                return Err(ErrorMsg::new(
                    ErrorCode::NothingToUndo,
                    "you have not moved yet, so there is nothing to undo",
                ));
            }
            _ => {}
        }
        let offer = Offer { kind, by };
        self.open = Some(offer);
        Ok(offer)
    }

    /// `by` answers the open offer of `kind`; the offer is settled either way.
    pub fn answer(&mut self, kind: OfferKind, by: Seat) -> Result<Offer, ErrorMsg> {
        match self.open {
            Some(open) if open.kind == kind && open.by == by => Err(ErrorMsg::new(
                ErrorCode::OwnOffer,
                "that offer is yours: your opponent answers it (or withdraw it)",
            )),
            Some(open) if open.kind == kind => {
                self.open = None;
                Ok(open)
            }
            _ => Err(no_offer(kind, "answer")),
        }
    }

    /// `by` takes back its own open offer of `kind`.
    pub fn withdraw(&mut self, kind: OfferKind, by: Seat) -> Result<Offer, ErrorMsg> {
        match self.open {
            Some(open) if open.kind == kind && open.by == by => {
                self.open = None;
                Ok(open)
            }
            _ => Err(no_offer(kind, "withdraw")),
        }
    }

    /// A move, the game's end or a player leaving made the open offer moot: it is gone.
    pub fn clear(&mut self) -> Option<Offer> {
        self.open.take()
    }
}

fn no_offer(kind: OfferKind, verb: &str) -> ErrorMsg {
    ErrorMsg::new(
        ErrorCode::NoOffer,
        format!("there is no open {} offer to {verb}", kind.as_str()),
    )
}

/// How many plies an accepted undo takes back so that `asker` is to move again: one if
/// the asker made the last move, two if the opponent has replied since. `movers` lists who
/// made each move, oldest first. `None` if the asker has no move to take back.
pub fn undo_plies(movers: &[Seat], asker: Seat) -> Option<u32> {
    let last_own = movers.iter().rposition(|&s| s == asker)?;
    u32::try_from(movers.len() - last_own).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use Seat::{One, Two};

    const RUNNING: Situation = Situation {
        stage: Stage::Running,
        asker_has_moved: true,
    };

    #[test]
    fn one_offer_at_a_time_answered_only_by_the_other_seat() {
        let mut o = Offers::default();
        let offer = o.make(OfferKind::Undo, One, RUNNING).unwrap();
        assert_eq!(
            offer,
            Offer {
                kind: OfferKind::Undo,
                by: One
            }
        );
        assert_eq!(
            o.make(OfferKind::Draw, Two, RUNNING).unwrap_err().code,
            ErrorCode::OfferPending
        );
        assert_eq!(
            o.make(OfferKind::Undo, One, RUNNING).unwrap_err().code,
            ErrorCode::OfferPending
        );
        assert_eq!(
            o.answer(OfferKind::Undo, One).unwrap_err().code,
            ErrorCode::OwnOffer
        );
        assert_eq!(
            o.answer(OfferKind::Draw, Two).unwrap_err().code,
            ErrorCode::NoOffer
        );
        assert_eq!(
            o.withdraw(OfferKind::Undo, Two).unwrap_err().code,
            ErrorCode::NoOffer
        );
        assert_eq!(o.open(), Some(offer), "refusals changed nothing");
        assert_eq!(o.answer(OfferKind::Undo, Two).unwrap(), offer);
        assert_eq!(o.open(), None);
        assert_eq!(
            o.answer(OfferKind::Undo, Two).unwrap_err().code,
            ErrorCode::NoOffer
        );
    }

    #[test]
    fn withdraw_and_moot() {
        let mut o = Offers::default();
        o.make(OfferKind::NewGame, Two, RUNNING).unwrap();
        assert_eq!(
            o.withdraw(OfferKind::NewGame, One).unwrap_err().code,
            ErrorCode::NoOffer
        );
        assert!(o.withdraw(OfferKind::NewGame, Two).is_ok());
        assert_eq!(o.open(), None);
        o.make(OfferKind::Draw, One, RUNNING).unwrap();
        assert_eq!(o.clear().map(|x| x.kind), Some(OfferKind::Draw));
        assert_eq!(o.clear(), None);
    }

    #[test]
    fn what_can_be_offered_when() {
        let mut o = Offers::default();
        let no_game = Situation {
            stage: Stage::NoGame,
            asker_has_moved: false,
        };
        let over = Situation {
            stage: Stage::Over,
            asker_has_moved: true,
        };
        let not_moved = Situation {
            stage: Stage::Running,
            asker_has_moved: false,
        };
        for kind in [OfferKind::Undo, OfferKind::NewGame, OfferKind::Draw] {
            assert_eq!(
                o.make(kind, One, no_game).unwrap_err().code,
                ErrorCode::NoGame
            );
        }
        assert_eq!(
            o.make(OfferKind::Undo, One, over).unwrap_err().code,
            ErrorCode::GameOver
        );
        assert_eq!(
            o.make(OfferKind::Draw, One, over).unwrap_err().code,
            ErrorCode::GameOver
        );
        assert_eq!(
            o.make(OfferKind::Undo, One, not_moved).unwrap_err().code,
            ErrorCode::NothingToUndo
        );
        assert_eq!(o.open(), None);
        assert!(o.make(OfferKind::NewGame, One, over).is_ok(), "a rematch");
        o.clear();
        assert!(
            o.make(OfferKind::NewGame, One, not_moved).is_ok(),
            "a new game mid-game"
        );
        o.clear();
        assert!(o.make(OfferKind::Draw, One, not_moved).is_ok());
    }

    #[test]
    fn undo_goes_back_to_the_askers_turn() {
        assert_eq!(undo_plies(&[], One), None);
        assert_eq!(undo_plies(&[Two], One), None, "only the opponent has moved");
        assert_eq!(undo_plies(&[One], One), Some(1));
        assert_eq!(undo_plies(&[One, Two], One), Some(2));
        assert_eq!(undo_plies(&[One, Two], Two), Some(1));
        assert_eq!(undo_plies(&[Two, One, Two], Two), Some(1));
        assert_eq!(undo_plies(&[Two, One, Two, One], Two), Some(2));
    }
}
