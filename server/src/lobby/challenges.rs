//! The challenge book: the challenges waiting for an answer, by number, and the waits a
//! declined challenger keeps before asking the same player again.
//!
//! Pure bookkeeping, with the time passed in: the lobby checks who may challenge whom
//! (online, their policy, rated games between accounts) and seats the players; the book
//! keeps the limits:
//! - one challenge at a time from a challenger to a player (and one open challenge);
//! - at most [`ChallengeLimits::per_player`] out from one challenger, and
//!   [`ChallengeLimits::waiting_per_player`] waiting for one player;
//! - after a decline, the challenger waits [`ChallengeLimits::declined_wait`] before
//!   challenging that player again, twice as long after the next decline in a row (up
//!   to [`DECLINED_WAIT_MAX`]), as offers in a room do;
//! - every challenge expires: one to a player after [`ChallengeLimits::expiry`], an open
//!   one after [`ChallengeLimits::open_expiry`].
//!
//! Players are known by their names compared without case (names are unique on a
//! server): a challenge outlives its challenger's connection being taken over by a new
//! one under the same name.

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;
use tokio::time::Instant;

use banco_protocol::{Challenge, ChallengeId, ErrorCode, ErrorMsg, RoomSettings};
use banco_rules::game::GameSpec;

/// The longest wait after declines in a row.
pub const DECLINED_WAIT_MAX: Duration = Duration::from_secs(600);

/// How long a run of declines is remembered past the end of its wait: a challenger
/// declined long ago starts again from the first wait.
const FORGET_AFTER: Duration = Duration::from_secs(3600);

/// The book's limits (from the server's config).
#[derive(Debug, Clone, Copy)]
pub struct ChallengeLimits {
    /// Challenges one player may have out at once (to players, and one open).
    pub per_player: usize,
    /// Challenges that may wait for one player's answer at once.
    pub waiting_per_player: usize,
    /// The first wait after a decline before the same player may be challenged again.
    pub declined_wait: Duration,
    /// How long a challenge to a player waits for its answer.
    pub expiry: Duration,
    /// How long an open challenge waits for someone to take it.
    pub open_expiry: Duration,
}

/// A challenge waiting for its answer.
#[derive(Debug, Clone)]
pub struct Pending {
    /// Its number, in the messages and an open challenge's link.
    pub id: ChallengeId,
    /// The challenger's name, as shown.
    pub from: String,
    /// The challenger is a bot account.
    pub from_bot: bool,
    /// Who is challenged (as shown); `None` for an open challenge.
    pub to: Option<String>,
    /// The room to make, as the challenger chose it (seat One is the challenger's).
    pub settings: RoomSettings,
    /// The settings checked by the rules: what the room plays.
    pub spec: GameSpec,
    /// When it lapses unanswered.
    pub expires: Instant,
}

impl Pending {
    /// The challenge as sent, its expiry counted from `now`.
    pub fn to_wire(&self, now: Instant) -> Challenge {
        Challenge {
            id: self.id,
            from: self.from.clone(),
            from_bot: self.from_bot,
            to: self.to.clone(),
            settings: self.settings.clone(),
            expires_in_ms: u64::try_from(self.expires.saturating_duration_since(now).as_millis())
                .unwrap_or(u64::MAX),
        }
    }

    /// Whether `name` sent it or is challenged by it.
    pub fn involves(&self, name: &str) -> bool {
        self.is_from(name) || self.is_to(name)
    }

    /// Whether it was sent by `name`.
    pub fn is_from(&self, name: &str) -> bool {
        key(&self.from) == key(name)
    }

    /// Whether it is sent to `name` (an open challenge is sent to nobody in particular).
    pub fn is_to(&self, name: &str) -> bool {
        self.to.as_deref().is_some_and(|to| key(to) == key(name))
    }
}

/// A challenger's run of declines by one player.
#[derive(Debug, Clone, Copy)]
struct Backoff {
    /// Declines in a row.
    declined: u32,
    /// No challenge to that player before this.
    not_before: Instant,
}

/// The challenges waiting for an answer and the waits after declines.
#[derive(Debug)]
pub struct ChallengeBook {
    /// The limits it keeps.
    limits: ChallengeLimits,
    /// Waiting challenges by number (oldest first).
    pending: BTreeMap<ChallengeId, Pending>,
    /// The number the next challenge gets.
    next_id: ChallengeId,
    /// (challenger, challenged), names compared without case -> the wait after declines.
    backoff: HashMap<(String, String), Backoff>,
}

/// A name as compared: without case.
fn key(name: &str) -> String {
    name.to_lowercase()
}

impl ChallengeBook {
    pub fn new(limits: ChallengeLimits) -> ChallengeBook {
        ChallengeBook {
            limits,
            pending: BTreeMap::new(),
            next_id: 1,
            backoff: HashMap::new(),
        }
    }

    /// The challenge numbered `id`, if it waits.
    pub fn get(&self, id: ChallengeId) -> Option<&Pending> {
        self.pending.get(&id)
    }

    /// Takes challenge `id` out of the book (accepted, cancelled).
    pub fn take(&mut self, id: ChallengeId) -> Option<Pending> {
        self.pending.remove(&id)
    }

    /// Books a challenge from `from` to `to` (`None`: open), unless a limit says no.
    pub fn issue(
        &mut self,
        from: &str,
        from_bot: bool,
        to: Option<&str>,
        settings: RoomSettings,
        spec: GameSpec,
        now: Instant,
    ) -> Result<&Pending, ErrorMsg> {
        let same_target = |p: &Pending| match to {
            Some(to) => p.is_to(to),
            None => p.to.is_none(),
        };
        if let Some(already) = self
            .pending
            .values()
            .find(|p| p.is_from(from) && same_target(p))
        {
            let whom = match &already.to {
                Some(to) => format!("to {to}"),
                None => "open to anyone".to_string(),
            };
            return Err(ErrorMsg::new(
                ErrorCode::ChallengePending,
                format!(
                    "your challenge {} {whom} is still waiting: cancel it (cancel {}) before \
                     sending another",
                    already.id, already.id
                ),
            ));
        }
        let out = self.pending.values().filter(|p| p.is_from(from)).count();
        if out >= self.limits.per_player {
            return Err(ErrorMsg::new(
                ErrorCode::TooManyChallenges,
                format!(
                    "you have {out} challenges waiting for answers, as many as one player may: \
                     cancel one or wait for the answers"
                ),
            ));
        }
        if let Some(to) = to {
            let waiting = self.pending.values().filter(|p| p.is_to(to)).count();
            if waiting >= self.limits.waiting_per_player {
                return Err(ErrorMsg::new(
                    ErrorCode::TooManyChallenges,
                    format!(
                        "{to} has {waiting} challenges waiting for an answer already: try again \
                         later"
                    ),
                ));
            }
            if let Some(b) = self.backoff.get(&(key(from), key(to)))
                && b.not_before > now
            {
                let secs = (b.not_before - now).as_secs_f64().ceil().max(1.0) as u64;
                return Err(ErrorMsg::new(
                    ErrorCode::ChallengeTooSoon,
                    format!(
                        "{to} declined your last challenge: wait {secs} s before challenging \
                         them again"
                    ),
                ));
            }
        }
        let id = self.free_id();
        let wait = match to {
            Some(_) => self.limits.expiry,
            None => self.limits.open_expiry,
        };
        let pending = Pending {
            id,
            from: from.to_string(),
            from_bot,
            to: to.map(String::from),
            settings,
            spec,
            expires: now + wait,
        };
        self.forget_old_waits(now);
        Ok(self.pending.entry(id).or_insert(pending))
    }

    /// The next number no waiting challenge has.
    fn free_id(&mut self) -> ChallengeId {
        loop {
            let id = self.next_id;
            self.next_id = self.next_id.wrapping_add(1).max(1);
            if !self.pending.contains_key(&id) {
                return id;
            }
        }
    }

    /// Challenge `id` was declined: it is gone, and its challenger waits before
    /// challenging the same player again (longer after each decline in a row).
    pub fn decline(&mut self, id: ChallengeId, now: Instant) -> Option<Pending> {
        let declined = self.pending.remove(&id)?;
        if let Some(to) = &declined.to {
            let first = self.limits.declined_wait;
            let b = self
                .backoff
                .entry((key(&declined.from), key(to)))
                .or_insert(Backoff {
                    declined: 0,
                    not_before: now,
                });
            b.declined = b.declined.saturating_add(1);
            b.not_before = now
                + first
                    .saturating_mul(1 << (b.declined - 1).min(10))
                    .min(DECLINED_WAIT_MAX);
        }
        Some(declined)
    }

    /// `from` and `to` played after a challenge: the run of declines between them ends.
    pub fn played(&mut self, from: &str, to: &str) {
        self.backoff.remove(&(key(from), key(to)));
    }

    /// The challenges that lapsed by `now`, taken out of the book.
    pub fn expired(&mut self, now: Instant) -> Vec<Pending> {
        let gone: Vec<ChallengeId> = self
            .pending
            .values()
            .filter(|p| p.expires <= now)
            .map(|p| p.id)
            .collect();
        gone.into_iter()
            .filter_map(|id| self.pending.remove(&id))
            .collect()
    }

    /// The challenges `name` sent or was sent, taken out of the book (they left).
    pub fn withdraw_involving(&mut self, name: &str) -> Vec<Pending> {
        let gone: Vec<ChallengeId> = self
            .pending
            .values()
            .filter(|p| p.involves(name))
            .map(|p| p.id)
            .collect();
        gone.into_iter()
            .filter_map(|id| self.pending.remove(&id))
            .collect()
    }

    /// When the next challenge lapses.
    pub fn next_expiry(&self) -> Option<Instant> {
        self.pending.values().map(|p| p.expires).min()
    }

    /// The open challenges, oldest first, as sent.
    pub fn open(&self, now: Instant) -> Vec<Challenge> {
        self.pending
            .values()
            .filter(|p| p.to.is_none())
            .map(|p| p.to_wire(now))
            .collect()
    }

    /// How many challenges wait.
    pub fn len(&self) -> usize {
        self.pending.len()
    }

    /// Whether none waits.
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }

    /// Waits long over are forgotten, so the book does not grow with every pair that
    /// ever declined.
    fn forget_old_waits(&mut self, now: Instant) {
        self.backoff
            .retain(|_, b| now.saturating_duration_since(b.not_before) < FORGET_AFTER);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> ChallengeLimits {
        ChallengeLimits {
            per_player: 3,
            waiting_per_player: 2,
            declined_wait: Duration::from_secs(30),
            expiry: Duration::from_secs(120),
            open_expiry: Duration::from_secs(1800),
        }
    }

    fn spec() -> GameSpec {
        crate::room::settings::validate(&RoomSettings::default()).unwrap()
    }

    fn issue(
        book: &mut ChallengeBook,
        from: &str,
        to: Option<&str>,
        now: Instant,
    ) -> Result<ChallengeId, ErrorCode> {
        book.issue(from, false, to, RoomSettings::default(), spec(), now)
            .map(|p| p.id)
            .map_err(|e| e.code)
    }

    #[test]
    fn one_challenge_per_player_and_one_open_at_a_time() {
        let now = Instant::now();
        let mut book = ChallengeBook::new(limits());
        let first = issue(&mut book, "An", Some("Bình"), now).unwrap();
        assert_eq!(
            issue(&mut book, "an", Some("BÌNH"), now),
            Err(ErrorCode::ChallengePending)
        );
        let open = issue(&mut book, "An", None, now).unwrap();
        assert_eq!(
            issue(&mut book, "An", None, now),
            Err(ErrorCode::ChallengePending)
        );
        assert_ne!(first, open);
        issue(&mut book, "An", Some("Chi"), now).unwrap();
        assert_eq!(
            issue(&mut book, "An", Some("Dũng"), now),
            Err(ErrorCode::TooManyChallenges),
            "three out is the cap"
        );
        // Two waiting for one player is that player's cap.
        issue(&mut book, "Chi", Some("Bình"), now).unwrap();
        assert_eq!(
            issue(&mut book, "Dũng", Some("Bình"), now),
            Err(ErrorCode::TooManyChallenges)
        );
        assert_eq!(book.open(now).len(), 1);
        assert_eq!(book.open(now)[0].id, open);
        assert_eq!(book.len(), 4);
    }

    #[test]
    fn a_declined_challenger_waits_longer_after_each_decline() {
        let mut now = Instant::now();
        let mut book = ChallengeBook::new(limits());
        for wait in [30, 60, 120] {
            let id = issue(&mut book, "An", Some("Bình"), now).unwrap();
            book.decline(id, now).unwrap();
            let almost = now + Duration::from_secs(wait - 1);
            assert_eq!(
                issue(&mut book, "An", Some("Bình"), almost),
                Err(ErrorCode::ChallengeTooSoon),
                "{wait} s after a decline"
            );
            // Others are not held back, nor is the other direction.
            let other = issue(&mut book, "Bình", Some("An"), now).unwrap();
            book.take(other);
            now += Duration::from_secs(wait);
        }
        let id = issue(&mut book, "An", Some("Bình"), now).unwrap();
        // Playing ends the run: the next decline waits the first wait again.
        book.take(id);
        book.played("An", "Bình");
        let id = issue(&mut book, "An", Some("Bình"), now).unwrap();
        book.decline(id, now).unwrap();
        assert!(issue(&mut book, "An", Some("Bình"), now + Duration::from_secs(30)).is_ok());
    }

    #[test]
    fn challenges_expire_and_go_with_their_players() {
        let now = Instant::now();
        let mut book = ChallengeBook::new(limits());
        let to_bình = issue(&mut book, "An", Some("Bình"), now).unwrap();
        let open = issue(&mut book, "An", None, now).unwrap();
        let chi = issue(&mut book, "Chi", Some("Dũng"), now).unwrap();
        assert_eq!(book.next_expiry(), Some(now + Duration::from_secs(120)));
        let wire = book
            .get(open)
            .unwrap()
            .to_wire(now + Duration::from_secs(800));
        assert_eq!(wire.expires_in_ms, 1_000_000);
        let lapsed = book.expired(now + Duration::from_secs(120));
        let ids: Vec<ChallengeId> = lapsed.iter().map(|p| p.id).collect();
        assert_eq!(ids, [to_bình, chi]);
        assert!(book.get(open).is_some());
        assert_eq!(book.withdraw_involving("an").len(), 1);
        assert!(book.is_empty());
    }
}
