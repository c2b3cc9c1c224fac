//! What the bot sets out to do besides taking challenges: challenge a player (or post an
//! open challenge) again and again until it has played its games, or play a tournament.
//!
//! - [`Plan`]: read from the command line by [`Plan::read`]: the challenge text goes
//!   through plain mode's own `challenge` parser, so `--challenge Binh --game 'caro
//!   --clock 5m+3s --rule freestyle'` means what `challenge Binh caro --clock 5m+3s
//!   --rule freestyle` means there.
//! - [`Seeker`]: the challenger's round, with the time passed in (pure, tested here):
//!   challenge when free; on an answer, play; after each game, challenge again until
//!   the games are played. It waits as the server asks: a player not on the server yet
//!   is asked again every few seconds, a decline "not now" or a lapsed challenge is
//!   sent again, and the server's "wait N s" after declines is kept to the second. A
//!   decline for any other reason, or a refusal, ends the round: the same settings
//!   would be declined again.
//! - [`entered_by_organiser`]: a tournament's view naming the bot when it was not told
//!   to enter that tournament: an organiser entered it (`EnterBotAccount`). It plays
//!   there like in one it entered itself, or withdraws at once when its engine cannot
//!   play the tournament's game.

use std::time::{Duration, Instant};

use banco_protocol::{
    Challenge, ChallengeEnd, ChallengeId, ClientMsg, DeclineReason, ErrorCode, ErrorMsg,
    GameSettings, RoomId, RoomSettings, TournamentId, TournamentStatus, TournamentView,
};

use super::engine::EngineSpec;
use super::policy::{self, Fit};
use crate::plain::command::{self, Command};

/// How long before asking again for a player not on the server, or when the server
/// says a player is busy or too many challenges wait.
pub const ABSENT_PAUSE: Duration = Duration::from_secs(5);

/// How long after a game, a lapsed challenge or a "not now" before challenging again:
/// time for the other side to leave its room.
pub const AGAIN_PAUSE: Duration = Duration::from_secs(1);

/// The most the bot waits before asking again, whatever the server said.
pub const LONGEST_PAUSE: Duration = Duration::from_secs(15 * 60);

/// A challenge the bot sends, and how many games it plays by it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seek {
    /// Whom to challenge; `None`: an open challenge anyone may take.
    pub to: Option<String>,
    /// The room, as the challenger chooses it.
    pub settings: RoomSettings,
    /// Games (or matches, with `--match` in the settings) to play before the round ends.
    pub games: u32,
}

/// What the bot does besides taking challenges.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// Challenges it sends, if any.
    pub seek: Option<Seek>,
    /// The tournament it enters, if any.
    pub tournament: Option<TournamentId>,
    /// Stay on the server once the games are played or the tournament is over (without
    /// it, the bot stops then).
    pub stay: bool,
}

impl Plan {
    /// Whether the bot has work of its own that ends (so it stops when it is done).
    pub fn ends(&self) -> bool {
        !self.stay && (self.seek.is_some() || self.tournament.is_some())
    }

    /// The plan the flags describe: `challenge` (a name) or `open` (an open challenge)
    /// with `game` (what plain mode's `challenge` takes after the name; the engine's
    /// game when it names none) played `games` times, or a `tournament`.
    pub fn read(
        engine: &EngineSpec,
        challenge: Option<&str>,
        open: bool,
        game: Option<&str>,
        games: u32,
        tournament: Option<TournamentId>,
        stay: bool,
    ) -> Result<Plan, String> {
        let seeking = challenge.is_some() || open;
        if !seeking && game.is_some() {
            return Err(
                "--game is the game of a challenge: give --challenge NAME or --seek".into(),
            );
        }
        if !seeking && games != 1 {
            return Err(
                "--games counts the games of a challenge: give --challenge NAME or --seek".into(),
            );
        }
        if games == 0 {
            return Err("--games is how many games to play: 1 or more".into());
        }
        if seeking && tournament.is_some() {
            return Err(
                "a bot in a tournament plays its pairings only: leave out --challenge and --seek"
                    .into(),
            );
        }
        let seek = match (challenge, open) {
            (None, false) => None,
            (Some(_), true) => return Err("choose one of --challenge NAME and --seek".into()),
            (to, _) => Some(seek(engine, to, game.unwrap_or(""), games)?),
        };
        Ok(Plan {
            seek,
            tournament,
            stay,
        })
    }
}

/// Reads a challenge through plain mode's parser; checks that the engine plays it.
fn seek(engine: &EngineSpec, to: Option<&str>, game: &str, games: u32) -> Result<Seek, String> {
    let game = game.trim();
    let names_game = game.split_whitespace().next().is_some_and(|w| {
        matches!(
            w.to_ascii_lowercase().as_str(),
            "caro" | "gomoku" | "xiangqi"
        )
    });
    let game = match (names_game, engine) {
        (true, _) => game.to_string(),
        (false, EngineSpec::Gomocup(_)) => format!("caro {game}"),
        (false, EngineSpec::Uci(_)) => format!("xiangqi {game}"),
    };
    let whom = match to {
        Some(name) => {
            let name = name.trim();
            if name.is_empty() || name.starts_with("--") {
                return Err("--challenge takes the name of the player to challenge".into());
            }
            name.to_string()
        }
        None => "--open".to_string(),
    };
    let line = format!("challenge {whom} {game}");
    let parsed = command::parse(&line).map_err(|e| format!("--game: {}", e.message))?;
    let Some(Command::Challenge {
        to: read_to,
        mut settings,
        rated,
    }) = parsed
    else {
        return Err(format!("'{line}' is not a challenge"));
    };
    if let (Some(name), Some(read)) = (to, &read_to)
        && read != name.trim()
    {
        return Err(format!(
            "the name '{}' reads as '{read}' and a game: a name cannot hold caro, gomoku or xiangqi",
            name.trim()
        ));
    }
    // A bot is an account: its challenges are rated unless said otherwise.
    settings.rated = rated.unwrap_or(true);
    if let Fit::Declines(_, why) = policy::fit(engine, &settings) {
        return Err(format!("the engine cannot play that game: {why}"));
    }
    Ok(Seek {
        to: read_to,
        settings,
        games,
    })
}

/// Where the challenger's round stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// To challenge at this time, once the bot is free.
    Waiting(Instant),
    /// The challenge is sent; the server's answer is awaited.
    Sent,
    /// The challenge is out, with this number.
    Out(ChallengeId),
    /// Taken: the game is played in this room.
    Playing(RoomId),
    /// The games are played, or the round gave up (the reason in `failed`).
    Over,
}

/// The challenger's round (see the module's map).
#[derive(Debug, Clone)]
pub struct Seeker {
    /// The challenge and how many games.
    seek: Seek,
    /// Games finished so far.
    played: u32,
    /// Where the round stands.
    state: State,
    /// Why the round gave up, if it did.
    failed: Option<String>,
    /// "Not on the server" was said already (said once, not every few seconds).
    said_absent: bool,
}

impl Seeker {
    /// A round that challenges as soon as the bot is free.
    pub fn new(seek: Seek, now: Instant) -> Seeker {
        Seeker {
            seek,
            played: 0,
            state: State::Waiting(now),
            failed: None,
            said_absent: false,
        }
    }

    /// Games finished so far.
    pub fn played(&self) -> u32 {
        self.played
    }

    /// The games to play.
    pub fn games(&self) -> u32 {
        self.seek.games
    }

    /// Whether the round is over: its games played, or given up.
    pub fn over(&self) -> bool {
        self.state == State::Over
    }

    /// Why the round gave up, if it did.
    pub fn failed(&self) -> Option<&str> {
        self.failed.as_deref()
    }

    /// When to challenge next (the bot's loop wakes then, if it is free).
    pub fn wake_at(&self) -> Option<Instant> {
        match self.state {
            State::Waiting(at) => Some(at),
            _ => None,
        }
    }

    /// The challenge waiting for its answer, if any.
    pub fn outstanding(&self) -> Option<ChallengeId> {
        match self.state {
            State::Out(id) => Some(id),
            _ => None,
        }
    }

    /// The challenge to send now, if it is time: the bot is free and the wait is over.
    pub fn due(&mut self, now: Instant, free: bool) -> Option<ClientMsg> {
        match self.state {
            State::Waiting(at) if free && at <= now => {
                self.state = State::Sent;
                Some(ClientMsg::Challenge {
                    to: self.seek.to.clone(),
                    settings: self.seek.settings.clone(),
                })
            }
            _ => None,
        }
    }

    /// The server booked our challenge. `Some`: a challenge no longer wanted (the bot
    /// took another game meanwhile, or the connection dropped), to call off.
    pub fn sent(&mut self, ch: &Challenge) -> Option<ChallengeId> {
        if self.state == State::Sent {
            self.state = State::Out(ch.id);
            self.said_absent = false;
            None
        } else {
            Some(ch.id)
        }
    }

    /// An error from the server: if it answers our challenge, the round waits or gives
    /// up, and the line to say is returned (`None`: not about the challenge).
    pub fn refused(&mut self, e: &ErrorMsg, now: Instant) -> Option<String> {
        if self.state != State::Sent {
            return None;
        }
        let whom = self.seek.to.as_deref().unwrap_or("anyone");
        let line = match e.code {
            ErrorCode::NoSuchPlayer => {
                self.state = State::Waiting(now + ABSENT_PAUSE);
                if std::mem::replace(&mut self.said_absent, true) {
                    return Some(String::new());
                }
                format!(
                    "{whom} is not on the server; asking again every {} s",
                    ABSENT_PAUSE.as_secs()
                )
            }
            ErrorCode::ChallengeTooSoon => {
                let wait = wait_in(&e.message).map_or(ABSENT_PAUSE, |w| w + AGAIN_PAUSE);
                let wait = wait.min(LONGEST_PAUSE);
                self.state = State::Waiting(now + wait);
                format!(
                    "{whom} declined lately; the server asks to wait: challenging again in {} s",
                    wait.as_secs()
                )
            }
            ErrorCode::PlayerBusy
            | ErrorCode::ChallengePending
            | ErrorCode::TooManyChallenges
            | ErrorCode::Busy => {
                self.state = State::Waiting(now + ABSENT_PAUSE);
                format!(
                    "the challenge waits: {}; trying again in {} s",
                    e.message,
                    ABSENT_PAUSE.as_secs()
                )
            }
            _ => self.give_up(format!("the server refuses the challenge: {}", e.message)),
        };
        Some(line)
    }

    /// Our challenge `id` ended: played, sent again, or given up; the line to say
    /// (`None`: not ours, or not the one out now).
    pub fn ended(&mut self, id: ChallengeId, end: &ChallengeEnd, now: Instant) -> Option<String> {
        if self.outstanding() != Some(id) {
            return None;
        }
        let line = match end {
            ChallengeEnd::Accepted { room, by } => {
                self.state = State::Playing(*room);
                format!("{by} took the challenge: room {room}")
            }
            ChallengeEnd::Declined {
                by,
                reason: DeclineReason::NotNow,
            } => {
                self.state = State::Waiting(now + AGAIN_PAUSE);
                format!("{by} declined (not now): challenging again")
            }
            ChallengeEnd::Declined { by, reason } => self.give_up(format!(
                "{by} declined ({reason}): these settings would be declined again"
            )),
            ChallengeEnd::Expired | ChallengeEnd::Cancelled => {
                self.state = State::Waiting(now + AGAIN_PAUSE);
                "the challenge lapsed unanswered: challenging again".into()
            }
            ChallengeEnd::Withdrawn => {
                self.state = State::Waiting(now + ABSENT_PAUSE);
                "the challenge was withdrawn (a player left): challenging again".into()
            }
        };
        Some(line)
    }

    /// The bot took someone else's challenge: ours (if out) is called off, and sent
    /// again after that game. The challenge to cancel, if any.
    pub fn set_aside(&mut self, now: Instant) -> Option<ChallengeId> {
        let out = self.outstanding();
        if matches!(self.state, State::Out(_) | State::Sent) {
            self.state = State::Waiting(now + AGAIN_PAUSE);
        }
        out
    }

    /// The game (or match) of room `room` is over: if it is the room our challenge
    /// made, one more played, and the round ends with the last. Games of challenges the
    /// bot took from others do not count.
    pub fn game_over(&mut self, room: RoomId, now: Instant) {
        if self.state != State::Playing(room) {
            return;
        }
        self.played += 1;
        self.state = if self.played >= self.seek.games {
            State::Over
        } else {
            State::Waiting(now + AGAIN_PAUSE)
        };
    }

    /// The connection dropped: a challenge being sent is sent again (one still booked
    /// is said to be pending, and the round waits for it to end).
    pub fn reconnected(&mut self, now: Instant) {
        if matches!(self.state, State::Sent | State::Out(_)) {
            self.state = State::Waiting(now);
        }
    }

    /// Just connected: the next challenge waits until `at` at least, time for the
    /// server to seat the bot back in a room it held for it (then it is not free).
    pub fn hold_until(&mut self, at: Instant) {
        if let State::Waiting(when) = self.state {
            self.state = State::Waiting(when.max(at));
        }
    }

    /// The bot left room `room` without a game over counted there (the other side did
    /// not come): the round challenges again.
    pub fn left(&mut self, room: RoomId, now: Instant) {
        if self.state == State::Playing(room) {
            self.state = State::Waiting(now + AGAIN_PAUSE);
        }
    }

    fn give_up(&mut self, why: String) -> String {
        self.state = State::Over;
        self.failed = Some(why.clone());
        format!("{why}; no more challenges")
    }
}

/// What the bot does in a tournament an organiser entered it in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entered {
    /// It plays its pairings there.
    Plays,
    /// It withdraws at once: its engine cannot play the tournament's game (why).
    Withdraws(String),
}

/// Whether `view` tells the bot `me` that an organiser entered it: it is listed (not
/// withdrawn) and the tournament is not over. `None`: not about the bot. What it does
/// then: plays, unless its engine cannot play the tournament's room (a caro board and
/// rule the engine has to be asked about are played: the engine answers at the game).
pub fn entered_by_organiser(
    engine: &EngineSpec,
    view: &TournamentView,
    me: &str,
) -> Option<Entered> {
    let me = me.to_lowercase();
    let listed = view
        .entrants
        .iter()
        .any(|e| !e.withdrawn && e.bot.is_none() && e.name.to_lowercase() == me);
    if !listed || view.summary.status == TournamentStatus::Over {
        return None;
    }
    Some(match policy::fit(engine, &view.settings.room) {
        Fit::Declines(_, why) => Entered::Withdraws(why),
        Fit::Plays | Fit::AskEngine { .. } => Entered::Plays,
    })
}

/// The seconds in the server's "wait 12 s before ..." sentence.
fn wait_in(message: &str) -> Option<Duration> {
    let words: Vec<&str> = message.split_whitespace().collect();
    words.windows(3).find_map(|w| match w {
        ["wait", n, "s"] => n.parse::<u64>().ok().map(Duration::from_secs),
        _ => None,
    })
}

/// `caro 15x15 freestyle`, `xiangqi`: what a room plays, for the bot's lines.
pub fn settings_text(game: &GameSettings) -> String {
    match game {
        GameSettings::Caro {
            width,
            height,
            rule,
            ..
        } => format!("caro {width}x{height} {rule:?}").to_lowercase(),
        GameSettings::Xiangqi { .. } => "xiangqi".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_protocol::{Rule, TimeControl};

    fn gomocup() -> EngineSpec {
        EngineSpec::Gomocup("pbrain".into())
    }

    fn read(
        challenge: Option<&str>,
        open: bool,
        game: Option<&str>,
        games: u32,
    ) -> Result<Plan, String> {
        Plan::read(&gomocup(), challenge, open, game, games, None, false)
    }

    #[test]
    fn a_challenge_reads_as_plain_mode_reads_it() {
        let plan = read(
            Some("Bình"),
            false,
            Some("caro --clock 5m+3s --rule freestyle"),
            4,
        )
        .expect("a challenge");
        let seek = plan.seek.clone().expect("a seek");
        assert_eq!(seek.to.as_deref(), Some("Bình"));
        assert_eq!(seek.games, 4);
        assert_eq!(
            seek.settings.time,
            TimeControl::clock(Duration::from_secs(300), Duration::from_secs(3))
        );
        assert!(matches!(
            seek.settings.game,
            GameSettings::Caro {
                rule: Rule::Freestyle,
                width: 15,
                ..
            }
        ));
        assert!(
            seek.settings.rated,
            "a bot account's challenge is rated unless said"
        );
        assert!(plan.ends());
        // The name may have spaces (the server's bot), and the game defaults to the
        // engine's.
        let plan = read(Some("Bot (max)"), false, Some("--clock 3m+2s --casual"), 1).unwrap();
        let seek = plan.seek.unwrap();
        assert_eq!(seek.to.as_deref(), Some("Bot (max)"));
        assert!(!seek.settings.rated);
        assert!(matches!(seek.settings.game, GameSettings::Caro { .. }));
        let uci = Plan::read(
            &EngineSpec::Uci("fsf".into()),
            None,
            true,
            None,
            2,
            None,
            true,
        )
        .unwrap();
        let seek = uci.seek.clone().unwrap();
        assert_eq!(seek.to, None, "an open challenge");
        assert!(matches!(seek.settings.game, GameSettings::Xiangqi { .. }));
        assert!(!uci.ends(), "--stay keeps it on");
    }

    #[test]
    fn bad_plans_are_refused_with_a_sentence() {
        let e = read(Some("An"), false, Some("caro --clock"), 1).unwrap_err();
        assert!(e.contains("--clock needs a value"), "{e}");
        let e = read(Some("An"), false, Some("xiangqi"), 1).unwrap_err();
        assert!(e.contains("caro only"), "{e}");
        assert!(
            read(None, false, Some("caro"), 1)
                .unwrap_err()
                .contains("--game")
        );
        assert!(read(None, false, None, 3).unwrap_err().contains("--games"));
        assert!(read(Some("An"), false, None, 0).is_err());
        assert!(read(Some("An"), true, None, 1).is_err());
        let e = Plan::read(&gomocup(), Some("An"), false, None, 1, Some(3), false).unwrap_err();
        assert!(e.contains("tournament"), "{e}");
        let e = read(Some("An"), false, Some("caro --bot max"), 1).unwrap_err();
        assert!(e.contains("between two people"), "{e}");
        let plain = Plan::read(&gomocup(), None, false, None, 1, None, false).unwrap();
        assert_eq!(plain, Plan::default());
        assert!(!plain.ends(), "a bot without a plan runs until stopped");
        let t = Plan::read(&gomocup(), None, false, None, 1, Some(3), false).unwrap();
        assert!(t.ends());
    }

    fn seeker(games: u32, now: Instant) -> Seeker {
        let plan = read(Some("An"), false, Some("caro --clock 1m"), games).unwrap();
        Seeker::new(plan.seek.unwrap(), now)
    }

    fn challenge(id: ChallengeId) -> Challenge {
        Challenge {
            id,
            from: "me".into(),
            from_bot: true,
            to: Some("An".into()),
            settings: RoomSettings::default(),
            expires_in_ms: 1000,
        }
    }

    #[test]
    fn the_round_challenges_when_free_and_again_after_each_game() {
        let t0 = Instant::now();
        let mut s = seeker(2, t0);
        assert_eq!(s.due(t0, false), None, "not while playing");
        assert!(
            matches!(s.due(t0, true), Some(ClientMsg::Challenge { to: Some(n), .. }) if n == "An")
        );
        assert_eq!(s.due(t0, true), None, "once");
        s.sent(&challenge(7));
        assert_eq!(s.outstanding(), Some(7));
        assert_eq!(s.ended(8, &ChallengeEnd::Expired, t0), None, "not ours");
        let took = ChallengeEnd::Accepted {
            room: 3,
            by: "An".into(),
        };
        assert!(s.ended(7, &took, t0).unwrap().contains("room 3"));
        assert_eq!(s.wake_at(), None, "playing");
        s.game_over(9, t0);
        assert_eq!(s.played(), 0, "another room's game does not count");
        s.game_over(3, t0);
        assert_eq!(s.played(), 1);
        assert_eq!(s.due(t0, true), None, "a pause for the other side to leave");
        assert!(s.due(t0 + AGAIN_PAUSE, true).is_some());
        s.sent(&challenge(9));
        s.ended(
            9,
            &ChallengeEnd::Accepted {
                room: 4,
                by: "An".into(),
            },
            t0,
        );
        s.game_over(4, t0);
        assert!(s.over() && s.failed().is_none());
        assert_eq!(s.played(), 2);
        assert_eq!(s.due(t0 + LONGEST_PAUSE, true), None, "done");
    }

    #[test]
    fn the_round_waits_as_the_server_asks_and_gives_up_on_a_firm_no() {
        let t0 = Instant::now();
        let mut s = seeker(1, t0);
        s.due(t0, true);
        let absent = ErrorMsg::new(ErrorCode::NoSuchPlayer, "nobody called An");
        assert!(
            s.refused(&absent, t0)
                .unwrap()
                .contains("not on the server")
        );
        assert_eq!(s.wake_at(), Some(t0 + ABSENT_PAUSE));
        s.due(t0 + ABSENT_PAUSE, true);
        assert_eq!(s.refused(&absent, t0).as_deref(), Some(""), "said once");
        s.due(t0 + ABSENT_PAUSE, true);
        s.sent(&challenge(1));
        let not_now = ChallengeEnd::Declined {
            by: "An".into(),
            reason: DeclineReason::NotNow,
        };
        s.ended(1, &not_now, t0);
        assert_eq!(s.wake_at(), Some(t0 + AGAIN_PAUSE));
        s.due(t0 + AGAIN_PAUSE, true);
        let soon = ErrorMsg::new(
            ErrorCode::ChallengeTooSoon,
            "An declined your last challenge: wait 60 s before challenging them again",
        );
        assert!(s.refused(&soon, t0).unwrap().contains("61 s"));
        assert_eq!(s.wake_at(), Some(t0 + Duration::from_secs(61)));
        // An error that is not an answer (none is being sent) changes nothing.
        assert_eq!(s.refused(&soon, t0), None);
        s.due(t0 + Duration::from_secs(61), true);
        s.sent(&challenge(2));
        let firm = ChallengeEnd::Declined {
            by: "An".into(),
            reason: DeclineReason::TimeControl,
        };
        assert!(
            s.ended(2, &firm, t0)
                .unwrap()
                .contains("no more challenges")
        );
        assert!(s.over());
        assert!(s.failed().unwrap().contains("time_control"));

        let mut s = seeker(1, t0);
        s.due(t0, true);
        let refused = ErrorMsg::new(ErrorCode::ChallengeRefused, "An takes no challenges");
        s.refused(&refused, t0);
        assert!(s.over());
        assert!(s.failed().unwrap().contains("takes no challenges"));
    }

    #[test]
    fn taking_another_challenge_calls_ours_off_and_a_drop_sends_it_again() {
        let t0 = Instant::now();
        let mut s = seeker(1, t0);
        s.due(t0, true);
        assert_eq!(s.sent(&challenge(5)), None);
        assert_eq!(s.set_aside(t0), Some(5));
        assert_eq!(s.sent(&challenge(5)), Some(5), "booked late: called off");
        assert_eq!(s.outstanding(), None);
        assert_eq!(s.wake_at(), Some(t0 + AGAIN_PAUSE));
        s.due(t0 + AGAIN_PAUSE, true);
        s.reconnected(t0);
        assert_eq!(s.wake_at(), Some(t0));
        s.hold_until(t0 + AGAIN_PAUSE);
        assert_eq!(s.wake_at(), Some(t0 + AGAIN_PAUSE));
        s.hold_until(t0);
        assert_eq!(s.wake_at(), Some(t0 + AGAIN_PAUSE), "never sooner");
        s.due(t0 + AGAIN_PAUSE, true);
        s.sent(&challenge(6));
        s.ended(
            6,
            &ChallengeEnd::Accepted {
                room: 2,
                by: "An".into(),
            },
            t0,
        );
        s.left(2, t0);
        assert_eq!(s.played(), 0);
        assert!(s.due(t0 + AGAIN_PAUSE, true).is_some());
    }

    #[test]
    fn an_organisers_entry_is_played_or_withdrawn_from() {
        use banco_protocol::{Entrant, TournamentFormat, TournamentSettings, TournamentSummary};
        let settings = TournamentSettings::new(
            "Club",
            TournamentFormat::Swiss { rounds: 3 },
            RoomSettings::default(),
        );
        let entrant = |name: &str, withdrawn: bool| Entrant {
            number: 1,
            name: name.into(),
            bot: None,
            rating: 0,
            withdrawn,
            away: false,
        };
        let mut view = TournamentView {
            summary: TournamentSummary {
                id: 4,
                name: "Club".into(),
                format: settings.format,
                game: banco_protocol::GameKind::Caro,
                time: settings.room.time,
                organiser: "Lan".into(),
                status: TournamentStatus::Entries,
                entrants: 2,
                round: 0,
                rounds: 3,
                rated: true,
            },
            settings,
            entrants: vec![entrant("Lan", false), entrant("Rapfi", false)],
            boards: vec![],
            byes: vec![],
            bye_requests: vec![],
            tie_breaks: vec![],
            standings: vec![],
            crosstable: vec![],
            ends_in_ms: None,
            starts_in_ms: None,
        };
        let caro = gomocup();
        assert_eq!(
            entered_by_organiser(&caro, &view, "rapfi"),
            Some(Entered::Plays)
        );
        assert_eq!(
            entered_by_organiser(&caro, &view, "Binh"),
            None,
            "not listed"
        );
        let uci = EngineSpec::Uci("fsf".into());
        assert!(matches!(
            entered_by_organiser(&uci, &view, "Rapfi"),
            Some(Entered::Withdraws(why)) if why.contains("xiangqi")
        ));
        view.entrants[1].withdrawn = true;
        assert_eq!(
            entered_by_organiser(&caro, &view, "Rapfi"),
            None,
            "withdrawn"
        );
        view.entrants[1].withdrawn = false;
        view.summary.status = TournamentStatus::Over;
        assert_eq!(entered_by_organiser(&caro, &view, "Rapfi"), None, "over");
    }

    #[test]
    fn the_wait_is_read_from_the_servers_sentence() {
        assert_eq!(
            wait_in("An declined your last challenge: wait 30 s before challenging them again"),
            Some(Duration::from_secs(30))
        );
        assert_eq!(wait_in("try again later"), None);
    }
}
