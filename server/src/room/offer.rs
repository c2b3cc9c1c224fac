//! Offers between the two players: undo, new game (a rematch once the game is over) and
//! draw. One offer may be open at a time; only the other player answers it; only the
//! asker withdraws it. Pure: the room asks, this module says yes or which error.

use std::time::Duration;
use tokio::time::Instant;

use banco_protocol::{ErrorCode, ErrorMsg, Offer, OfferKind, Seat};

/// Offers a player may make in a burst to a person...
const OFFER_BURST: f64 = 3.0;
/// ...and how often one more comes back.
const OFFER_REFILL: Duration = Duration::from_secs(10);
/// After an offer is declined, its maker waits this long before the next one, doubling
/// with each decline in a row, as lichess does with takebacks (the default of
/// `Config::offer_declined_wait`)...
pub use crate::config::OFFER_DECLINED_WAIT as DECLINED_WAIT;
/// ...up to this.
const DECLINED_WAIT_MAX: Duration = Duration::from_secs(300);

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

/// The room's open offer, if any, and how fast each seat may make the next.
#[derive(Debug, Clone, Default)]
pub struct Offers {
    /// At most one at a time.
    open: Option<Offer>,
    /// By seat: offers are throttled like chat, so cycling offer/withdraw cannot flood
    /// the opponent (nor get them cut for falling behind).
    pace: [Pace; 2],
    /// The first wait after a declined offer.
    declined_wait: Duration,
}

/// One seat's offer allowance and its run of declined offers.
#[derive(Debug, Clone, Default)]
struct Pace {
    /// Offers used up, fractions coming back over time (`None`: a full allowance).
    spent: Option<(f64, Instant)>,
    /// Declined offers in a row.
    declined: u32,
    /// No offer before this, after a decline.
    not_before: Option<Instant>,
}

impl Pace {
    /// Spends one offer at `now`, or says how long to wait.
    fn spend(&mut self, now: Instant) -> Result<(), Duration> {
        if let Some(at) = self.not_before.filter(|&at| at > now) {
            return Err(at - now);
        }
        let used = match self.spent {
            Some((used, at)) => {
                let back =
                    now.saturating_duration_since(at).as_secs_f64() / OFFER_REFILL.as_secs_f64();
                (used - back).max(0.0)
            }
            None => 0.0,
        };
        if used + 1.0 > OFFER_BURST {
            let short = used + 1.0 - OFFER_BURST;
            return Err(OFFER_REFILL.mul_f64(short));
        }
        self.spent = Some((used + 1.0, now));
        Ok(())
    }

    fn declined(&mut self, now: Instant, first: Duration) {
        self.declined = self.declined.saturating_add(1);
        let wait = first
            .saturating_mul(1 << (self.declined - 1).min(10))
            .min(DECLINED_WAIT_MAX);
        self.not_before = Some(now + wait);
    }
}

impl Offers {
    /// No offer open; after a decline its maker waits `declined_wait`, then twice that...
    pub fn new(declined_wait: Duration) -> Offers {
        Offers {
            declined_wait,
            ..Offers::default()
        }
    }

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

    /// Like [`Offers::make`], for an offer to a person: also refused if `by` has made
    /// offers too fast, or too soon after one was declined, with how long to wait.
    pub fn make_paced(
        &mut self,
        kind: OfferKind,
        by: Seat,
        now: Situation,
        at: Instant,
    ) -> Result<Offer, ErrorMsg> {
        // Whatever else is wrong with the offer is said first (it would be refused anyway).
        let mut trial = self.clone();
        trial.make(kind, by, now)?;
        if let Err(wait) = self.pace[by.index()].spend(at) {
            let secs = wait.as_secs_f64().ceil().max(1.0);
            let why = if self.pace[by.index()].not_before.is_some_and(|t| t > at) {
                "your last offer was declined"
            } else {
                "you have made several offers in a short time"
            };
            return Err(ErrorMsg::new(
                ErrorCode::OfferTooSoon,
                format!("{why}: wait {secs:.0} s before offering again"),
            ));
        }
        self.make(kind, by, now)
    }

    /// The offer `offer.by` made was declined: their next waits longer each time.
    pub fn declined(&mut self, offer: Offer, at: Instant) {
        self.pace[offer.by.index()].declined(at, self.declined_wait);
    }

    /// The offer `offer.by` made was accepted: the run of declines is over.
    pub fn accepted(&mut self, offer: Offer) {
        let pace = &mut self.pace[offer.by.index()];
        pace.declined = 0;
        pace.not_before = None;
    }

    /// Someone else sits in `seat`: they start with a full allowance.
    pub fn seat_changed(&mut self, seat: Seat) {
        self.pace[seat.index()] = Pace::default();
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

    #[tokio::test(start_paused = true)]
    async fn offers_to_a_person_are_paced_and_declines_make_the_wait_grow() {
        let mut o = Offers::new(DECLINED_WAIT);
        let t0 = Instant::now();
        // A burst of offer-withdraw cycles, then a wait.
        for _ in 0..3 {
            o.make_paced(OfferKind::Draw, One, RUNNING, t0).unwrap();
            o.withdraw(OfferKind::Draw, One).unwrap();
        }
        let e = o.make_paced(OfferKind::Draw, One, RUNNING, t0).unwrap_err();
        assert_eq!(e.code, ErrorCode::OfferTooSoon);
        assert!(e.message.contains("wait 10 s"), "{}", e.message);
        assert_eq!(o.open(), None, "a refused offer opens nothing");
        // The other seat is not held up by it.
        assert!(o.make_paced(OfferKind::Draw, Two, RUNNING, t0).is_ok());
        o.withdraw(OfferKind::Draw, Two).unwrap();
        // Allowance comes back with time.
        let t1 = t0 + OFFER_REFILL;
        let offer = o.make_paced(OfferKind::Undo, One, RUNNING, t1).unwrap();
        // Declined: 10 s, then 20 s, then 40 s before the next.
        o.answer(OfferKind::Undo, Two).unwrap();
        o.declined(offer, t1);
        let e = o.make_paced(OfferKind::Undo, One, RUNNING, t1).unwrap_err();
        assert!(e.message.contains("declined"), "{}", e.message);
        let t2 = t1 + Duration::from_secs(10);
        let offer = o.make_paced(OfferKind::Undo, One, RUNNING, t2).unwrap();
        o.answer(OfferKind::Undo, Two).unwrap();
        o.declined(offer, t2);
        let e = o
            .make_paced(OfferKind::Undo, One, RUNNING, t2 + Duration::from_secs(19))
            .unwrap_err();
        assert!(e.message.contains("wait 1 s"), "{}", e.message);
        let t3 = t2 + Duration::from_secs(20);
        let offer = o.make_paced(OfferKind::Undo, One, RUNNING, t3).unwrap();
        // Accepted: the run is over; the allowance still applies.
        o.answer(OfferKind::Undo, Two).unwrap();
        o.accepted(offer);
        let t4 = t3 + OFFER_REFILL * 3;
        assert!(o.make_paced(OfferKind::Draw, One, RUNNING, t4).is_ok());
        // What is wrong with an offer is said before any wait.
        assert_eq!(
            o.make_paced(OfferKind::Undo, Two, RUNNING, t4)
                .unwrap_err()
                .code,
            ErrorCode::OfferPending
        );
    }

    #[test]
    fn the_wait_after_declines_stops_growing() {
        let mut pace = Pace::default();
        let now = Instant::now();
        for _ in 0..40 {
            pace.declined(now, DECLINED_WAIT);
        }
        assert_eq!(pace.not_before, Some(now + DECLINED_WAIT_MAX));
    }
}
