//! A tournament's record: what the actor owns and the store keeps. Pure: no tasks, no
//! clocks (times come in as Unix milliseconds), so every rule here is tested directly.
//!
//! - [`Record`]: settings, entrants, rounds of boards and byes, status.
//! - Pairing: [`Record::pair_next`] (Swiss by the Dutch rules, round robin by the Berger
//!   tables) and [`Record::pair_wave`] (arena: the players free and connected; two who
//!   just met wait [`REMATCH_WAIT_MS`] for someone else), each from banco-pairing.
//! - Standings: [`Record::pairing_history`] is the history banco-pairing reads;
//!   [`Record::view`] the wire's view with standings, tie-breaks and the crosstable.
//! - Byes asked for before a round ([`Record::request_bye`], Swiss): the player is left
//!   out of that round's pairing and scores `settings.requested_bye`.
//! - [`Record::from_stored`] / the `stored_*` functions: to and from the store's rows.

use banco_pairing::arena::{ArenaPlayer, ArenaResult, ArenaScore};
use banco_pairing::berger::RoundRobin;
use banco_pairing::tiebreak::{self, TieBreak as PairingTieBreak};
use banco_pairing::{
    Bye, ByeKind, Game as PairingGame, GameResult, Player, Points, Round, RoundPairing, Scoring,
    Tournament as Pairing,
};
use banco_protocol::{
    BoardResult, BoardView, ByeRequestView, ByeValue, ByeView, CrossCell, CrossRow, Entrant,
    ErrorCode, ErrorMsg, GameKind, Level, RoomId, StandingLine, TieBreak, TournamentFormat,
    TournamentId, TournamentSettings, TournamentStatus, TournamentSummary, TournamentView,
};

use crate::store::tournaments::{StoredBoard, StoredBye, StoredEntrant, StoredTournament};

/// One entrant, by pairing number (index + 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntrantRecord {
    /// As shown (a person's name, or the bot's).
    pub name: String,
    /// The server's bot of this level.
    pub bot: Option<Level>,
    /// Orders the pairing numbers at the start.
    pub rating: u16,
    /// Logged in to an account when entering (guests play unrated events only).
    pub account: bool,
    /// The first round they may be paired in (late entries).
    pub joins: u32,
    /// Not paired again (an arena player who withdrew may come back by entering again).
    pub withdrawn: bool,
    /// Removed by the organiser: may not come back.
    pub removed: bool,
}

/// A board of a round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardRecord {
    /// White's index.
    pub white: usize,
    /// Black's index.
    pub black: usize,
    /// Its room, once opened.
    pub room: Option<RoomId>,
    /// Once known.
    pub result: Option<BoardResult>,
    /// Set by the organiser.
    pub by_hand: bool,
    /// Arena: white and black went berserk (one more point on a win).
    pub berserk: [bool; 2],
    /// When it was paired, Unix milliseconds: a player who has not come this
    /// tournament's forfeit time after it loses by forfeit, across restarts too.
    pub paired_ms: u64,
}

/// A round (arena: a wave).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoundRecord {
    /// Board 1 first.
    pub boards: Vec<BoardRecord>,
    /// Byes (index, kind).
    pub byes: Vec<(usize, ByeKind)>,
}

/// A whole tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Its number.
    pub id: TournamentId,
    /// The account that runs it.
    pub organiser: String,
    /// As the organiser chose them.
    pub settings: TournamentSettings,
    /// Where it stands.
    pub status: TournamentStatus,
    /// By pairing number.
    pub entrants: Vec<EntrantRecord>,
    /// In order.
    pub rounds: Vec<RoundRecord>,
    /// Swiss: its rounds (added rounds included); round robin: the schedule's; arena 0.
    pub total_rounds: u32,
    /// Unix milliseconds.
    pub created_ms: u64,
    /// Unix milliseconds, once started.
    pub started_ms: Option<u64>,
    /// Arena: when it ends.
    pub ends_ms: Option<u64>,
    /// Byes asked for rounds not yet paired, as (round, entrant index) (Swiss).
    pub bye_requests: std::collections::BTreeSet<(u32, usize)>,
    /// Arena: the two players free are the two who just met, and others still play:
    /// they are paired together again only from this time (Unix ms) if nobody else is
    /// free by then. Not kept on disk (a restart waits again).
    pub rematch_after: Option<u64>,
}

/// Arena: how long two players who just met wait for someone else to be free before
/// they are paired together again, in milliseconds.
pub const REMATCH_WAIT_MS: u64 = 10_000;

/// A refusal.
fn refuse(code: ErrorCode, message: impl Into<String>) -> ErrorMsg {
    ErrorMsg::new(code, message)
}

/// The pairing crate's tie-break for the wire's.
fn pairing_tie_break(t: TieBreak) -> PairingTieBreak {
    match t {
        TieBreak::Buchholz => PairingTieBreak::Buchholz,
        TieBreak::BuchholzCut1 => PairingTieBreak::BuchholzCut1,
        TieBreak::SonnebornBerger => PairingTieBreak::SonnebornBerger,
        TieBreak::DirectEncounter => PairingTieBreak::DirectEncounter,
        TieBreak::Wins => PairingTieBreak::Wins,
        TieBreak::GamesWon => PairingTieBreak::GamesWon,
    }
}

/// The pairing crate's result for the wire's.
pub fn game_result(r: BoardResult) -> GameResult {
    match r {
        BoardResult::WhiteWins => GameResult::WhiteWins,
        BoardResult::Draw => GameResult::Draw,
        BoardResult::BlackWins => GameResult::BlackWins,
        BoardResult::WhiteWinsByForfeit => GameResult::WhiteWinsByForfeit,
        BoardResult::BlackWinsByForfeit => GameResult::BlackWinsByForfeit,
        BoardResult::DoubleForfeit => GameResult::DoubleForfeit,
    }
}

fn bye_kind_text(k: ByeKind) -> &'static str {
    match k {
        ByeKind::PairingAllocated => "pairing",
        ByeKind::HalfPoint => "half",
        ByeKind::FullPoint => "full",
        ByeKind::ZeroPoint => "zero",
    }
}

fn bye_kind_of(text: &str) -> ByeKind {
    match text {
        "pairing" => ByeKind::PairingAllocated,
        "half" => ByeKind::HalfPoint,
        "full" => ByeKind::FullPoint,
        _ => ByeKind::ZeroPoint,
    }
}

/// Checks the organiser's settings; `Err` says what is wrong in a sentence.
pub fn check_settings(s: &TournamentSettings) -> Result<(), ErrorMsg> {
    let bad = |m: String| Err(refuse(ErrorCode::BadSettings, m));
    let name = s.name.trim();
    if name.is_empty()
        || name.chars().count() > banco_protocol::tournament::MAX_TOURNAMENT_NAME_CHARS
    {
        return bad(format!(
            "a tournament needs a name of 1 to {} characters",
            banco_protocol::tournament::MAX_TOURNAMENT_NAME_CHARS
        ));
    }
    if name.chars().any(char::is_control) {
        return bad("a tournament's name cannot hold control characters".into());
    }
    match s.format {
        TournamentFormat::Swiss { rounds } => {
            if !(1..=banco_protocol::tournament::MAX_SWISS_ROUNDS).contains(&rounds) {
                return bad(format!(
                    "a Swiss has 1 to {} rounds, not {rounds}",
                    banco_protocol::tournament::MAX_SWISS_ROUNDS
                ));
            }
        }
        TournamentFormat::RoundRobin { .. } => {}
        TournamentFormat::Arena { seconds, .. } => {
            if !(1..=banco_protocol::tournament::MAX_ARENA_SECS).contains(&seconds) {
                return bad(format!(
                    "an arena lasts 1 second to {} minutes",
                    banco_protocol::tournament::MAX_ARENA_SECS / 60
                ));
            }
        }
    }
    if !(1..=3600).contains(&s.forfeit_secs) {
        return bad(format!(
            "the forfeit wait is 1 to 3600 seconds, not {}",
            s.forfeit_secs
        ));
    }
    if s.tie_breaks.len() > TieBreak::ALL.len() {
        return bad("name each tie-break at most once".into());
    }
    for (i, t) in s.tie_breaks.iter().enumerate() {
        if s.tie_breaks[..i].contains(t) {
            return bad(format!("the tie-break {} is named twice", t.code()));
        }
    }
    Ok(())
}

impl Record {
    /// A new tournament taking entries.
    pub fn new(
        id: TournamentId,
        organiser: String,
        settings: TournamentSettings,
        now_ms: u64,
    ) -> Record {
        let total_rounds = match settings.format {
            TournamentFormat::Swiss { rounds } => rounds,
            _ => 0,
        };
        Record {
            id,
            organiser,
            settings,
            status: TournamentStatus::Entries,
            entrants: Vec::new(),
            rounds: Vec::new(),
            total_rounds,
            created_ms: now_ms,
            started_ms: None,
            ends_ms: None,
            bye_requests: std::collections::BTreeSet::new(),
            rematch_after: None,
        }
    }

    /// Whether it is an arena.
    pub fn arena(&self) -> bool {
        matches!(self.settings.format, TournamentFormat::Arena { .. })
    }

    /// The entrant called `name` (any case), withdrawn or not.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.entrants
            .iter()
            .position(|e| e.name.eq_ignore_ascii_case(name))
    }

    /// Whether `who` is the organiser.
    pub fn is_organiser(&self, who: &str) -> bool {
        self.organiser.eq_ignore_ascii_case(who)
    }

    /// Enters `entrant`. Before the start anyone may; a Swiss takes late entries (from
    /// the next round) until its last round is paired; a round robin and an arena do
    /// not (an arena does: a late entrant is paired at once).
    pub fn enter(&mut self, mut entrant: EntrantRecord) -> Result<usize, ErrorMsg> {
        if let Some(i) = self.find(&entrant.name) {
            let e = &self.entrants[i];
            // Back: before the start, or into an arena being played (lichess's pause),
            // unless the organiser removed them.
            let back = match self.status {
                TournamentStatus::Entries => true,
                TournamentStatus::Running | TournamentStatus::Paused => self.arena(),
                TournamentStatus::Over => false,
            };
            if e.withdrawn && e.removed {
                return Err(refuse(
                    ErrorCode::EntriesClosed,
                    format!(
                        "{} was removed from this tournament by its organiser",
                        entrant.name
                    ),
                ));
            }
            if e.withdrawn && back {
                self.entrants[i].withdrawn = false;
                return Ok(i);
            }
            return Err(refuse(
                ErrorCode::AlreadyEntered,
                format!("{} is already entered in this tournament", entrant.name),
            ));
        }
        let late_ok = match self.settings.format {
            TournamentFormat::Swiss { .. } => (self.rounds.len() as u32) < self.total_rounds,
            TournamentFormat::Arena { .. } => true,
            TournamentFormat::RoundRobin { .. } => false,
        };
        let open = match self.status {
            TournamentStatus::Entries => true,
            TournamentStatus::Running | TournamentStatus::Paused => late_ok,
            TournamentStatus::Over => false,
        };
        if !open {
            return Err(refuse(
                ErrorCode::EntriesClosed,
                format!(
                    "tournament {} takes no more entries: it has {}",
                    self.id,
                    if self.status == TournamentStatus::Over {
                        "ended"
                    } else {
                        "started"
                    }
                ),
            ));
        }
        if self.settings.rated && entrant.bot.is_none() && !entrant.account {
            return Err(refuse(
                ErrorCode::NotLoggedIn,
                "this tournament is rated, and guests play unrated events only: log in to enter",
            ));
        }
        if self.entrants.len() >= banco_protocol::tournament::MAX_ENTRANTS {
            return Err(refuse(
                ErrorCode::EntriesClosed,
                format!(
                    "tournament {} has {} entrants, as many as it takes",
                    self.id,
                    self.entrants.len()
                ),
            ));
        }
        entrant.joins = self.rounds.len() as u32 + 1;
        self.entrants.push(entrant);
        Ok(self.entrants.len() - 1)
    }

    /// Withdraws entrant `i`: not paired again; their games stand.
    pub fn withdraw(&mut self, i: usize) -> Result<(), ErrorMsg> {
        let e = self.entrants.get_mut(i).filter(|e| !e.withdrawn);
        let Some(e) = e else {
            return Err(refuse(
                ErrorCode::NotEntered,
                "that player is not entered (or has already withdrawn)",
            ));
        };
        e.withdrawn = true;
        // Byes asked for rounds to come are void.
        self.bye_requests.retain(|&(_, p)| p != i);
        Ok(())
    }

    /// The organiser removes entrant `i`: withdrawn, and may not come back.
    pub fn remove(&mut self, i: usize) -> Result<(), ErrorMsg> {
        self.withdraw(i)?;
        self.entrants[i].removed = true;
        Ok(())
    }

    /// Entrant `i` asks for a bye in `round` (`None`: the next round to be paired), or
    /// takes the request back (`cancel`). A Swiss only, a round not yet paired and not
    /// past its last. The round it concerns.
    pub fn request_bye(
        &mut self,
        i: usize,
        round: Option<u32>,
        cancel: bool,
    ) -> Result<u32, ErrorMsg> {
        if !matches!(self.settings.format, TournamentFormat::Swiss { .. }) {
            return Err(refuse(
                ErrorCode::BadSettings,
                "byes are asked for in a Swiss only (a round robin's rounds are fixed, an \
                 arena player just stays away)",
            ));
        }
        if self.status == TournamentStatus::Over {
            return Err(refuse(ErrorCode::TournamentOver, "the tournament is over"));
        }
        if self.entrants.get(i).is_none_or(|e| e.withdrawn) {
            return Err(refuse(
                ErrorCode::NotEntered,
                "only a player entered (and not withdrawn) may ask for a bye",
            ));
        }
        let next = self.rounds.len() as u32 + 1;
        let round = round.unwrap_or(next);
        if round < next {
            return Err(refuse(
                ErrorCode::RoundInProgress,
                format!(
                    "round {round} has already been paired: a bye is asked for before its round"
                ),
            ));
        }
        if round > self.total_rounds {
            return Err(refuse(
                ErrorCode::NoSuchBoard,
                format!(
                    "this Swiss has {} rounds: there is no round {round}",
                    self.total_rounds
                ),
            ));
        }
        if cancel {
            if !self.bye_requests.remove(&(round, i)) {
                return Err(refuse(
                    ErrorCode::NotEntered,
                    format!("no bye was asked for round {round}: there is nothing to take back"),
                ));
            }
        } else if !self.bye_requests.insert((round, i)) {
            return Err(refuse(
                ErrorCode::AlreadyEntered,
                format!("a bye for round {round} is already asked for"),
            ));
        }
        Ok(round)
    }

    /// The byes asked for the next round to be paired, by players still in (a Swiss's;
    /// what the pairing and a TRF file's last column get).
    pub fn next_byes(&self) -> Vec<Bye> {
        if !matches!(self.settings.format, TournamentFormat::Swiss { .. }) {
            return Vec::new();
        }
        let next = self.rounds.len() as u32 + 1;
        self.bye_requests
            .iter()
            .filter(|&&(r, p)| r == next && self.entrants.get(p).is_some_and(|e| !e.withdrawn))
            .map(|&(_, player)| Bye {
                player,
                kind: self.requested_bye_kind(),
            })
            .collect()
    }

    /// The bye kind a requested bye is recorded as (its worth as the organiser set it).
    fn requested_bye_kind(&self) -> ByeKind {
        match self.settings.requested_bye {
            ByeValue::Draw => ByeKind::HalfPoint,
            ByeValue::Win => ByeKind::FullPoint,
            ByeValue::Nothing => ByeKind::ZeroPoint,
        }
    }

    /// Starts it at `now_ms`: the pairing numbers are set (rating first, then entry
    /// order) and a round robin's schedule fixed.
    pub fn start(&mut self, now_ms: u64) -> Result<(), ErrorMsg> {
        if self.status != TournamentStatus::Entries {
            return Err(refuse(
                ErrorCode::EntriesClosed,
                format!("tournament {} has already started", self.id),
            ));
        }
        self.entrants.retain(|e| !e.withdrawn);
        if self.entrants.len() < 2 {
            return Err(refuse(
                ErrorCode::BadSettings,
                "a tournament needs at least 2 entrants to start: enter players or bots first",
            ));
        }
        // Stable: equal ratings keep their entry order. Byes asked for before the start
        // follow their players to their new numbers.
        let asked: Vec<(u32, String)> = self
            .bye_requests
            .iter()
            .filter_map(|&(r, p)| Some((r, self.entrants.get(p)?.name.clone())))
            .collect();
        self.entrants.sort_by_key(|e| std::cmp::Reverse(e.rating));
        self.bye_requests = asked
            .into_iter()
            .filter_map(|(r, name)| Some((r, self.find(&name)?)))
            .collect();
        match self.settings.format {
            TournamentFormat::RoundRobin { double } => {
                let rr = if double {
                    RoundRobin::double(self.entrants.len())
                } else {
                    RoundRobin::single(self.entrants.len())
                };
                self.total_rounds = rr.rounds() as u32;
            }
            TournamentFormat::Arena { seconds, .. } => {
                self.ends_ms = Some(now_ms + u64::from(seconds) * 1000);
            }
            TournamentFormat::Swiss { .. } => {}
        }
        self.status = TournamentStatus::Running;
        self.started_ms = Some(now_ms);
        Ok(())
    }

    /// Whether every board paired so far has a result.
    pub fn round_done(&self) -> bool {
        self.rounds
            .iter()
            .all(|r| r.boards.iter().all(|b| b.result.is_some()))
    }

    /// The scoring: the bye's worth as the organiser chose.
    fn scoring(&self) -> Scoring {
        Scoring {
            pairing_bye: match self.settings.bye {
                ByeValue::Win => Points(10),
                ByeValue::Draw => Points(5),
                ByeValue::Nothing => Points(0),
            },
            ..Scoring::default()
        }
    }

    /// The history as banco-pairing reads it: finished boards only (a board still being
    /// played leaves its players absent from that round for now).
    pub fn pairing_history(&self) -> Pairing {
        let players = self
            .entrants
            .iter()
            .map(|e| Player {
                name: e.name.clone(),
                rating: e.rating,
                joins: e.joins.max(1),
                withdrawn: e.withdrawn,
            })
            .collect();
        let mut t = Pairing::new(players, self.total_rounds.max(self.rounds.len() as u32));
        t.scoring = self.scoring();
        t.rounds = self
            .rounds
            .iter()
            .map(|r| Round {
                games: r
                    .boards
                    .iter()
                    .filter_map(|b| {
                        Some(PairingGame {
                            white: b.white,
                            black: b.black,
                            result: game_result(b.result?),
                        })
                    })
                    .collect(),
                byes: r
                    .byes
                    .iter()
                    .map(|&(player, kind)| Bye { player, kind })
                    .collect(),
            })
            .collect();
        t
    }

    /// Pairs the next round (Swiss, round robin) at `now_ms`; the boards come without
    /// rooms. A Swiss leaves out the players who asked for a bye in it.
    pub fn pair_next(&mut self, now_ms: u64) -> Result<&RoundRecord, ErrorMsg> {
        match self.status {
            TournamentStatus::Running => {}
            TournamentStatus::Paused => {
                return Err(refuse(
                    ErrorCode::BadSettings,
                    "the tournament is paused: resume it to pair the next round",
                ));
            }
            TournamentStatus::Entries => {
                return Err(refuse(
                    ErrorCode::BadSettings,
                    "the tournament has not started: start it first",
                ));
            }
            TournamentStatus::Over => {
                return Err(refuse(ErrorCode::TournamentOver, "the tournament is over"));
            }
        }
        if self.arena() {
            return Err(refuse(
                ErrorCode::BadSettings,
                "an arena pairs players as they finish: there are no rounds to pair",
            ));
        }
        if !self.round_done() {
            return Err(refuse(
                ErrorCode::RoundInProgress,
                format!(
                    "round {} is not over: every game needs a result before the next round",
                    self.rounds.len()
                ),
            ));
        }
        let next = self.rounds.len() as u32 + 1;
        if next > self.total_rounds {
            return Err(refuse(
                ErrorCode::TournamentOver,
                format!(
                    "all {} rounds have been paired{}",
                    self.total_rounds,
                    if matches!(self.settings.format, TournamentFormat::Swiss { .. }) {
                        ": add a round to pair another"
                    } else {
                        ""
                    }
                ),
            ));
        }
        let asked = self.next_byes();
        let pairing: RoundPairing = match self.settings.format {
            TournamentFormat::Swiss { .. } => {
                let t = self.pairing_history();
                banco_pairing::dutch::pair(&t, &asked).map_err(|e| match e {
                    banco_pairing::dutch::PairError::NoValidPairing => refuse(
                        ErrorCode::BadSettings,
                        "no pairing meets the Dutch rules' absolute criteria (the players left \
                         have all met): enter more players or bots",
                    ),
                    e => refuse(ErrorCode::Internal, format!("cannot pair: {e}")),
                })?
            }
            TournamentFormat::RoundRobin { double } => {
                let n = self.entrants.len();
                let rr = if double {
                    RoundRobin::double(n)
                } else {
                    RoundRobin::single(n)
                };
                rr.round(next as usize)
                    .map_err(|e| refuse(ErrorCode::Internal, format!("cannot pair: {e}")))?
            }
            TournamentFormat::Arena { .. } => RoundPairing::default(),
        };
        let mut round = RoundRecord::default();
        for b in pairing.boards {
            // A round robin pairs withdrawn players too: they lose by forfeit at once.
            let gone = [b.white, b.black].map(|p| self.entrants[p].withdrawn);
            let result = match gone {
                [true, true] => Some(BoardResult::DoubleForfeit),
                [true, false] => Some(BoardResult::BlackWinsByForfeit),
                [false, true] => Some(BoardResult::WhiteWinsByForfeit),
                [false, false] => None,
            };
            round.boards.push(BoardRecord {
                white: b.white,
                black: b.black,
                room: None,
                result,
                by_hand: false,
                berserk: [false; 2],
                paired_ms: now_ms,
            });
        }
        if matches!(self.settings.format, TournamentFormat::Swiss { .. }) {
            round.byes.extend(asked.iter().map(|b| (b.player, b.kind)));
        }
        if let Some(p) = pairing.bye {
            round.byes.push((p, ByeKind::PairingAllocated));
        }
        round.byes.sort_by_key(|&(p, _)| p);
        self.bye_requests.retain(|&(r, _)| r > next);
        self.rounds.push(round);
        Ok(self.rounds.last().unwrap_or_else(|| unreachable!()))
    }

    /// The players an arena may pair now: entered, not withdrawn, not playing, and
    /// `present` (connected; a bot always is).
    fn arena_free(&self, present: &[bool]) -> Vec<usize> {
        let busy: Vec<usize> = self
            .rounds
            .iter()
            .flat_map(|r| r.boards.iter())
            .filter(|b| b.result.is_none())
            .flat_map(|b| [b.white, b.black])
            .collect();
        (0..self.entrants.len())
            .filter(|&i| {
                !self.entrants[i].withdrawn
                    && !busy.contains(&i)
                    && (self.entrants[i].bot.is_some() || present.get(i).copied().unwrap_or(false))
            })
            .collect()
    }

    /// Arena scores, by entrant: each player's games in the order they were played.
    pub fn arena_scores(&self) -> Vec<ArenaScore> {
        let mut scores = vec![ArenaScore::default(); self.entrants.len()];
        for r in &self.rounds {
            for b in &r.boards {
                let Some(result) = b.result else { continue };
                let (w, k) = match game_result(result) {
                    GameResult::WhiteWins | GameResult::WhiteWinsByForfeit => {
                        (ArenaResult::Win, ArenaResult::Loss)
                    }
                    GameResult::BlackWins | GameResult::BlackWinsByForfeit => {
                        (ArenaResult::Loss, ArenaResult::Win)
                    }
                    GameResult::Draw => (ArenaResult::Draw, ArenaResult::Draw),
                    GameResult::DoubleForfeit => (ArenaResult::Loss, ArenaResult::Loss),
                };
                scores[b.white].add(w, b.berserk[0]);
                scores[b.black].add(k, b.berserk[1]);
            }
        }
        scores
    }

    /// Pairs an arena's free players (a wave), while it runs and before `now_ms` passes
    /// its end; `present[i]`: entrant `i` is connected now (an absent player is not
    /// paired, and is again once back). `None` when fewer than two are free.
    pub fn pair_wave(&mut self, now_ms: u64, present: &[bool]) -> Option<&RoundRecord> {
        if !self.arena()
            || self.status != TournamentStatus::Running
            || self.ends_ms.is_some_and(|end| now_ms >= end)
        {
            return None;
        }
        let free = self.arena_free(present);
        if free.len() < 2 {
            self.rematch_after = None;
            return None;
        }
        let scores = self.arena_scores();
        let mut last_opponent = vec![None; self.entrants.len()];
        let mut balance = vec![0i32; self.entrants.len()];
        for r in &self.rounds {
            for b in &r.boards {
                last_opponent[b.white] = Some(b.black);
                last_opponent[b.black] = Some(b.white);
                balance[b.white] += 1;
                balance[b.black] -= 1;
            }
        }
        // Only the two who just met are free while others play: they wait a little for
        // someone else to finish before meeting again (without it, boards that end
        // one at a time would pair the same two for ever).
        let rematch = free.len() == 2
            && last_opponent[free[0]] == Some(free[1])
            && last_opponent[free[1]] == Some(free[0])
            && !self.round_done();
        if rematch {
            let due = *self
                .rematch_after
                .get_or_insert(now_ms.saturating_add(REMATCH_WAIT_MS));
            if now_ms < due {
                return None;
            }
        }
        self.rematch_after = None;
        let players: Vec<ArenaPlayer> = free
            .iter()
            .map(|&i| ArenaPlayer {
                id: i,
                score: scores[i].points,
                rating: self.entrants[i].rating,
                last_opponent: last_opponent[i],
                colour_balance: balance[i],
            })
            .collect();
        let wave = banco_pairing::arena::pair_wave(&players);
        if wave.boards.is_empty() {
            return None;
        }
        self.rounds.push(RoundRecord {
            boards: wave
                .boards
                .iter()
                .map(|b| BoardRecord {
                    white: b.white,
                    black: b.black,
                    room: None,
                    result: None,
                    by_hand: false,
                    berserk: [false; 2],
                    paired_ms: now_ms,
                })
                .collect(),
            byes: Vec::new(),
        });
        self.rounds.last()
    }

    /// Whether it has nothing left to play: every round of a Swiss or round robin paired
    /// and played, or an arena past its end with every game over.
    pub fn finished(&self, now_ms: u64) -> bool {
        match self.status {
            TournamentStatus::Running | TournamentStatus::Paused => {}
            _ => return false,
        }
        if !self.round_done() {
            return false;
        }
        if self.arena() {
            self.ends_ms.is_some_and(|end| now_ms >= end)
        } else {
            self.rounds.len() as u32 >= self.total_rounds
        }
    }

    /// Sets a board's result (by hand, or reported by its room with who went
    /// berserk). `Err` for a board not in the tournament.
    pub fn set_result(
        &mut self,
        round: u32,
        board: u32,
        result: BoardResult,
        by_hand: bool,
    ) -> Result<(), ErrorMsg> {
        self.set_result_berserk(round, board, result, by_hand, None)
    }

    /// [`Record::set_result`], with who went berserk when the room says.
    pub fn set_result_berserk(
        &mut self,
        round: u32,
        board: u32,
        result: BoardResult,
        by_hand: bool,
        berserk: Option<[bool; 2]>,
    ) -> Result<(), ErrorMsg> {
        let b = (round as usize)
            .checked_sub(1)
            .and_then(|r| self.rounds.get_mut(r))
            .and_then(|r| {
                (board as usize)
                    .checked_sub(1)
                    .and_then(|b| r.boards.get_mut(b))
            });
        let Some(b) = b else {
            return Err(refuse(
                ErrorCode::NoSuchBoard,
                format!(
                    "there is no board {board} in round {round} of tournament {}: see the pairings",
                    self.id
                ),
            ));
        };
        if let Some(berserk) = berserk {
            b.berserk = berserk;
        }
        if !by_hand && b.by_hand {
            return Ok(());
        }
        b.result = Some(result);
        b.by_hand = by_hand;
        Ok(())
    }

    /// The list's line.
    pub fn summary(&self) -> TournamentSummary {
        TournamentSummary {
            id: self.id,
            name: self.settings.name.clone(),
            format: self.settings.format,
            game: GameKind::of(&self.settings.room.game),
            time: self.settings.room.time,
            organiser: self.organiser.clone(),
            status: self.status,
            entrants: self.entrants.len() as u32,
            round: self.rounds.len() as u32,
            rounds: self.total_rounds,
            rated: self.settings.rated,
        }
    }

    /// The standings, best first.
    pub fn standings(&self) -> Vec<StandingLine> {
        if self.arena() {
            let scores = self.arena_scores();
            let mut order: Vec<usize> = (0..self.entrants.len()).collect();
            order.sort_by(|&a, &b| {
                scores[b]
                    .points
                    .cmp(&scores[a].points)
                    .then(self.entrants[b].rating.cmp(&self.entrants[a].rating))
                    .then(a.cmp(&b))
            });
            let mut out: Vec<StandingLine> = Vec::new();
            for (place, &i) in order.iter().enumerate() {
                let rank = match out.last() {
                    Some(last) if last.points == scores[i].points * 10 => last.rank,
                    _ => place as u32 + 1,
                };
                out.push(StandingLine {
                    rank,
                    entrant: i as u32 + 1,
                    points: scores[i].points * 10,
                    tie_breaks: Vec::new(),
                    on_fire: scores[i].on_fire(),
                });
            }
            return out;
        }
        let t = self.pairing_history();
        let order: Vec<PairingTieBreak> = self
            .settings
            .tie_breaks
            .iter()
            .map(|&b| pairing_tie_break(b))
            .collect();
        match tiebreak::standings(&t, &order) {
            Ok(lines) => lines
                .into_iter()
                .map(|l| StandingLine {
                    rank: l.rank as u32,
                    entrant: l.player as u32 + 1,
                    points: l.score.0,
                    tie_breaks: l.values.iter().map(|v| v.0).collect(),
                    on_fire: false,
                })
                .collect(),
            Err(e) => {
                tracing::error!(tournament = self.id, error = %e, "standings cannot be computed");
                Vec::new()
            }
        }
    }

    /// The crosstable: each entrant's rounds.
    fn crosstable(&self) -> Vec<CrossRow> {
        if self.arena() {
            return Vec::new();
        }
        let scoring = self.scoring();
        (0..self.entrants.len())
            .map(|p| CrossRow {
                entrant: p as u32 + 1,
                cells: self
                    .rounds
                    .iter()
                    .map(|r| {
                        if let Some(b) = r.boards.iter().find(|b| b.white == p || b.black == p) {
                            let white = b.white == p;
                            let points = b.result.map(|res| {
                                let (w, k) = match game_result(res) {
                                    GameResult::WhiteWins | GameResult::WhiteWinsByForfeit => {
                                        (scoring.win, scoring.loss)
                                    }
                                    GameResult::BlackWins | GameResult::BlackWinsByForfeit => {
                                        (scoring.loss, scoring.win)
                                    }
                                    GameResult::Draw => (scoring.draw, scoring.draw),
                                    GameResult::DoubleForfeit => (scoring.loss, scoring.loss),
                                };
                                if white { w.0 } else { k.0 }
                            });
                            CrossCell {
                                opponent: Some(if white { b.black } else { b.white } as u32 + 1),
                                white: Some(white),
                                points,
                                played: b.result.is_some_and(|r| game_result(r).played()),
                            }
                        } else {
                            let points =
                                r.byes
                                    .iter()
                                    .find(|(q, _)| *q == p)
                                    .map_or(0, |&(_, kind)| match kind {
                                        ByeKind::PairingAllocated => scoring.pairing_bye.0,
                                        ByeKind::FullPoint => scoring.win.0,
                                        ByeKind::HalfPoint => scoring.draw.0,
                                        ByeKind::ZeroPoint => 0,
                                    });
                            CrossCell {
                                opponent: None,
                                white: None,
                                points: Some(points),
                                played: false,
                            }
                        }
                    })
                    .collect(),
            })
            .collect()
    }

    /// The wire's view at `now_ms`.
    pub fn view(&self, now_ms: u64) -> TournamentView {
        let scoring = self.scoring();
        let mut boards = Vec::new();
        let mut byes = Vec::new();
        for (r, round) in self.rounds.iter().enumerate() {
            for (i, b) in round.boards.iter().enumerate() {
                boards.push(BoardView {
                    round: r as u32 + 1,
                    board: i as u32 + 1,
                    white: b.white as u32 + 1,
                    black: b.black as u32 + 1,
                    room: b.room,
                    result: b.result,
                    by_hand: b.by_hand,
                    berserk: b.berserk,
                });
            }
            for &(p, kind) in &round.byes {
                byes.push(ByeView {
                    round: r as u32 + 1,
                    entrant: p as u32 + 1,
                    points: match kind {
                        ByeKind::PairingAllocated => scoring.pairing_bye.0,
                        ByeKind::FullPoint => scoring.win.0,
                        ByeKind::HalfPoint => scoring.draw.0,
                        ByeKind::ZeroPoint => 0,
                    },
                });
            }
        }
        let bye_requests = self
            .bye_requests
            .iter()
            .map(|&(round, p)| ByeRequestView {
                round,
                entrant: p as u32 + 1,
            })
            .collect();
        let starts_in_ms = match (self.status, self.settings.start) {
            (TournamentStatus::Entries, banco_protocol::TournamentStart::At { unix_ms }) => {
                Some(unix_ms.saturating_sub(now_ms))
            }
            _ => None,
        };
        TournamentView {
            summary: self.summary(),
            settings: self.settings.clone(),
            entrants: self
                .entrants
                .iter()
                .enumerate()
                .map(|(i, e)| Entrant {
                    number: i as u32 + 1,
                    name: e.name.clone(),
                    bot: e.bot,
                    rating: e.rating,
                    withdrawn: e.withdrawn,
                    // Who is connected is the actor's to say.
                    away: false,
                })
                .collect(),
            boards,
            byes,
            bye_requests,
            tie_breaks: if self.arena() {
                Vec::new()
            } else {
                self.settings.tie_breaks.clone()
            },
            standings: self.standings(),
            crosstable: self.crosstable(),
            ends_in_ms: self
                .ends_ms
                .filter(|_| {
                    matches!(
                        self.status,
                        TournamentStatus::Running | TournamentStatus::Paused
                    )
                })
                .map(|end| end.saturating_sub(now_ms)),
            starts_in_ms,
        }
    }

    /// The names in first place.
    pub fn winners(&self) -> Vec<String> {
        self.standings()
            .iter()
            .filter(|l| l.rank == 1)
            .filter_map(|l| self.entrants.get(l.entrant as usize - 1))
            .map(|e| e.name.clone())
            .collect()
    }

    /// An entrant as the store keeps it.
    pub fn stored_entrant(&self, i: usize) -> StoredEntrant {
        let e = &self.entrants[i];
        StoredEntrant {
            number: i as u32 + 1,
            name: e.name.clone(),
            bot: e.bot.map(|l| l.name().to_string()),
            rating: e.rating,
            account: e.account,
            joins: e.joins,
            withdrawn: e.withdrawn,
            removed: e.removed,
        }
    }

    /// Round `r`'s (0-based) boards and byes as the store keeps them.
    pub fn stored_round(&self, r: usize) -> (Vec<StoredBoard>, Vec<StoredBye>) {
        let Some(round) = self.rounds.get(r) else {
            return (Vec::new(), Vec::new());
        };
        let boards = round
            .boards
            .iter()
            .enumerate()
            .map(|(i, b)| StoredBoard {
                round: r as u32 + 1,
                board: i as u32 + 1,
                white: b.white as u32 + 1,
                black: b.black as u32 + 1,
                room: b.room,
                result: b.result.map(|x| x.text().to_string()),
                by_hand: b.by_hand,
                berserk: b.berserk,
                paired_ms: b.paired_ms,
            })
            .collect();
        let byes = round
            .byes
            .iter()
            .map(|&(p, kind)| StoredBye {
                round: r as u32 + 1,
                entrant: p as u32 + 1,
                kind: bye_kind_text(kind).to_string(),
            })
            .collect();
        (boards, byes)
    }

    /// A tournament read back from the store; `Err` says why it cannot be.
    pub fn from_stored(s: StoredTournament) -> Result<Record, String> {
        let settings: TournamentSettings =
            serde_json::from_str(&s.settings).map_err(|e| format!("settings: {e}"))?;
        let status = match s.status.as_str() {
            "entries" => TournamentStatus::Entries,
            "running" => TournamentStatus::Running,
            "paused" => TournamentStatus::Paused,
            "over" => TournamentStatus::Over,
            other => return Err(format!("unknown status '{other}'")),
        };
        let n = s.entrants.len();
        let entrants_withdrawn: Vec<bool> = s.entrants.iter().map(|e| e.withdrawn).collect();
        let entrants = s
            .entrants
            .into_iter()
            .map(|e| EntrantRecord {
                name: e.name,
                bot: e
                    .bot
                    .and_then(|b| Level::ALL.into_iter().find(|l| l.name() == b)),
                rating: e.rating,
                account: e.account,
                joins: e.joins,
                withdrawn: e.withdrawn,
                removed: e.removed,
            })
            .collect();
        let index = |number: u32| -> Result<usize, String> {
            let i = (number as usize)
                .checked_sub(1)
                .filter(|&i| i < n)
                .ok_or_else(|| format!("entrant {number} is not entered"))?;
            Ok(i)
        };
        let mut rounds: Vec<RoundRecord> = Vec::new();
        for b in s.boards {
            let r = b.round as usize;
            if r == 0 {
                return Err("a board of round 0".into());
            }
            while rounds.len() < r {
                rounds.push(RoundRecord::default());
            }
            rounds[r - 1].boards.push(BoardRecord {
                white: index(b.white)?,
                black: index(b.black)?,
                room: b.room,
                result: b.result.as_deref().and_then(BoardResult::parse),
                by_hand: b.by_hand,
                berserk: b.berserk,
                paired_ms: b.paired_ms,
            });
        }
        for y in s.byes {
            let r = y.round as usize;
            if r == 0 {
                return Err("a bye of round 0".into());
            }
            while rounds.len() < r {
                rounds.push(RoundRecord::default());
            }
            rounds[r - 1]
                .byes
                .push((index(y.entrant)?, bye_kind_of(&y.kind)));
        }
        let paired = rounds.len() as u32;
        let mut bye_requests = std::collections::BTreeSet::new();
        for (round, entrant) in s.bye_requests {
            // A request for a round paired since is spent (its bye is in the round).
            let i = index(entrant)?;
            if round > paired && !entrants_withdrawn.get(i).copied().unwrap_or(true) {
                bye_requests.insert((round, i));
            }
        }
        Ok(Record {
            id: s.id,
            organiser: s.organiser,
            settings,
            status,
            entrants,
            rounds,
            total_rounds: s.total_rounds,
            created_ms: s.created_ms,
            started_ms: s.started_ms,
            ends_ms: s.ends_ms,
            bye_requests,
            rematch_after: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_protocol::RoomSettings;

    fn person(name: &str, rating: u16) -> EntrantRecord {
        EntrantRecord {
            name: name.into(),
            bot: None,
            rating,
            account: true,
            joins: 1,
            withdrawn: false,
            removed: false,
        }
    }

    fn swiss(players: usize, rounds: u32) -> Record {
        let settings = TournamentSettings::new(
            "Club",
            TournamentFormat::Swiss { rounds },
            RoomSettings::default(),
        );
        let mut r = Record::new(1, "Org".into(), settings, 0);
        for i in 0..players {
            r.enter(person(&format!("P{i}"), 1500 - i as u16)).unwrap();
        }
        r
    }

    #[test]
    fn a_swiss_is_paired_round_by_round_and_not_before_results() {
        let mut r = swiss(7, 3);
        assert_eq!(r.pair_next(5).unwrap_err().code, ErrorCode::BadSettings);
        r.start(1).unwrap();
        let round = r.pair_next(5).unwrap().clone();
        assert_eq!(round.boards.len(), 3);
        assert_eq!(round.byes.len(), 1, "seven players: one bye");
        assert_eq!(r.pair_next(5).unwrap_err().code, ErrorCode::RoundInProgress);
        for b in 1..=3 {
            r.set_result(1, b, BoardResult::WhiteWins, false).unwrap();
        }
        assert_eq!(
            r.set_result(1, 4, BoardResult::Draw, true)
                .unwrap_err()
                .code,
            ErrorCode::NoSuchBoard
        );
        r.pair_next(5).unwrap();
        assert_eq!(r.rounds.len(), 2);
        // The same history re-paired by the crate gives the same round.
        let mut before = r.clone();
        before.rounds.pop();
        let again = banco_pairing::dutch::pair(&before.pairing_history(), &[]).unwrap();
        let boards: Vec<(usize, usize)> = r.rounds[1]
            .boards
            .iter()
            .map(|b| (b.white, b.black))
            .collect();
        let expected: Vec<(usize, usize)> =
            again.boards.iter().map(|b| (b.white, b.black)).collect();
        assert_eq!(boards, expected);
    }

    #[test]
    fn a_round_robin_follows_the_berger_tables_and_ends() {
        let settings = TournamentSettings::new(
            "RR",
            TournamentFormat::RoundRobin { double: false },
            RoomSettings::default(),
        );
        let mut r = Record::new(2, "Org".into(), settings, 0);
        for i in 0..4 {
            r.enter(person(&format!("P{i}"), 1500)).unwrap();
        }
        r.start(0).unwrap();
        assert_eq!(r.total_rounds, 3);
        for round in 1..=3u32 {
            let boards: Vec<(usize, usize)> = r
                .pair_next(5)
                .unwrap()
                .boards
                .iter()
                .map(|b| (b.white + 1, b.black + 1))
                .collect();
            let table: Vec<(usize, usize)> = RoundRobin::single(4)
                .round(round as usize)
                .unwrap()
                .boards
                .iter()
                .map(|b| (b.white + 1, b.black + 1))
                .collect();
            assert_eq!(boards, table);
            for b in 1..=2 {
                r.set_result(round, b, BoardResult::Draw, false).unwrap();
            }
        }
        assert!(r.finished(0));
        assert_eq!(r.pair_next(5).unwrap_err().code, ErrorCode::TournamentOver);
        assert!(r.standings().iter().all(|l| l.points == 15));
    }

    #[test]
    fn entries_close_and_guests_stay_out_of_rated_events() {
        let mut r = swiss(2, 1);
        let mut guest = person("~Guest", 0);
        guest.account = false;
        assert_eq!(
            r.enter(guest.clone()).unwrap_err().code,
            ErrorCode::NotLoggedIn
        );
        assert_eq!(
            r.enter(person("p0", 1)).unwrap_err().code,
            ErrorCode::AlreadyEntered
        );
        r.start(0).unwrap();
        r.pair_next(5).unwrap();
        assert_eq!(
            r.enter(person("Late", 1)).unwrap_err().code,
            ErrorCode::EntriesClosed
        );
    }

    #[test]
    fn an_arena_pairs_the_free_and_scores_streaks() {
        let settings = TournamentSettings::new(
            "Arena",
            TournamentFormat::Arena {
                seconds: 60,
                berserk: false,
            },
            RoomSettings::default(),
        );
        let mut r = Record::new(3, "Org".into(), settings, 0);
        for i in 0..5 {
            r.enter(person(&format!("P{i}"), 1500)).unwrap();
        }
        r.start(0).unwrap();
        let wave = r.pair_wave(1, &[true; 5]).unwrap().clone();
        assert_eq!(wave.boards.len(), 2, "one of five waits");
        assert!(
            r.pair_wave(2, &[true; 5]).is_none(),
            "one free player is not paired"
        );
        let w = wave.boards[0].white;
        r.set_result_berserk(1, 1, BoardResult::WhiteWins, false, Some([true, false]))
            .unwrap();
        assert_eq!(
            r.arena_scores()[w].points,
            3,
            "a berserk win: one more point"
        );
        let wave2 = r.pair_wave(3, &[true; 5]).unwrap().clone();
        assert_eq!(wave2.boards.len(), 1);
        assert!(
            r.pair_wave(60_000, &[true; 5]).is_none(),
            "nothing is paired after the end"
        );
        assert!(!r.finished(60_000), "games running at the end still count");
    }

    #[test]
    fn a_record_survives_the_store_form() {
        let mut r = swiss(5, 3);
        r.start(7).unwrap();
        r.request_bye(2, Some(3), false).unwrap();
        r.pair_next(5).unwrap();
        r.set_result(1, 1, BoardResult::Draw, true).unwrap();
        let (boards, byes) = r.stored_round(0);
        let stored = StoredTournament {
            id: r.id,
            organiser: r.organiser.clone(),
            settings: serde_json::to_string(&r.settings).unwrap(),
            status: r.status.as_str().into(),
            total_rounds: r.total_rounds,
            created_ms: r.created_ms,
            started_ms: r.started_ms,
            ends_ms: r.ends_ms,
            entrants: (0..r.entrants.len()).map(|i| r.stored_entrant(i)).collect(),
            boards,
            byes,
            bye_requests: r
                .bye_requests
                .iter()
                .map(|&(round, p)| (round, p as u32 + 1))
                .collect(),
        };
        assert_eq!(Record::from_stored(stored).unwrap(), r);
    }

    #[test]
    fn a_bye_asked_for_leaves_the_player_out_with_its_worth() {
        let mut r = swiss(6, 3);
        // Asked before the start by the lowest rated, who is numbered last at the start.
        r.enter(person("Late", 1)).unwrap();
        r.entrants.swap(0, 6);
        r.request_bye(0, Some(2), false).unwrap();
        r.request_bye(0, Some(2), true).unwrap();
        r.request_bye(0, Some(3), false).unwrap();
        r.start(0).unwrap();
        assert_eq!(
            r.bye_requests.iter().copied().collect::<Vec<_>>(),
            vec![(3, 6)],
            "the request follows its player to number 7"
        );
        r.withdraw(6).unwrap();
        assert!(r.bye_requests.is_empty(), "void once withdrawn");
        // Asked, taken back, asked again; a second ask and a taking back of nothing
        // are refused.
        assert_eq!(r.request_bye(1, None, false).unwrap(), 1);
        assert_eq!(
            r.request_bye(1, None, false).unwrap_err().code,
            ErrorCode::AlreadyEntered
        );
        r.request_bye(1, None, true).unwrap();
        assert_eq!(
            r.request_bye(1, None, true).unwrap_err().code,
            ErrorCode::NotEntered
        );
        r.request_bye(1, Some(1), false).unwrap();
        r.request_bye(4, Some(2), false).unwrap();
        assert_eq!(
            r.request_bye(0, Some(4), false).unwrap_err().code,
            ErrorCode::NoSuchBoard,
            "a Swiss of 3 rounds has no round 4"
        );
        let round = r.pair_next(9).unwrap().clone();
        assert_eq!(round.boards.len(), 2, "five left: two boards");
        assert!(round.boards.iter().all(|b| b.white != 1 && b.black != 1));
        assert!(round.boards.iter().all(|b| b.paired_ms == 9));
        assert!(round.byes.contains(&(1, ByeKind::HalfPoint)));
        assert_eq!(
            round
                .byes
                .iter()
                .filter(|(_, k)| *k == ByeKind::PairingAllocated)
                .count(),
            1,
            "the odd one out gets the pairing-allocated bye"
        );
        assert_eq!(
            r.request_bye(2, Some(1), false).unwrap_err().code,
            ErrorCode::RoundInProgress,
            "too late for a round paired"
        );
        assert_eq!(r.bye_requests.len(), 1, "round 2's request waits");
        for b in 1..=2 {
            r.set_result(1, b, BoardResult::Draw, false).unwrap();
        }
        let line = r.standings().into_iter().find(|l| l.entrant == 2).unwrap();
        assert_eq!(line.points, 5, "half a point for the bye asked for");
        // The organiser's value: nothing.
        r.settings.requested_bye = ByeValue::Nothing;
        let round2 = r.pair_next(10).unwrap().clone();
        assert!(round2.byes.contains(&(4, ByeKind::ZeroPoint)));
        // The TRF export writes it as bbpPairings reads it.
        let trf = banco_pairing::trf::write("Club", &r.pairing_history(), &[]).unwrap();
        assert!(trf.contains(" H "), "a half-point bye is an H: {trf}");
    }

    #[test]
    fn an_arena_pairs_only_players_present_and_takes_back_a_player_who_withdrew() {
        let settings = TournamentSettings::new(
            "Arena",
            TournamentFormat::Arena {
                seconds: 60,
                berserk: false,
            },
            RoomSettings::default(),
        );
        let mut r = Record::new(3, "Org".into(), settings, 0);
        for i in 0..4 {
            r.enter(person(&format!("P{i}"), 1500)).unwrap();
        }
        r.start(0).unwrap();
        let wave = r.pair_wave(1, &[true, true, false, true]).unwrap().clone();
        assert_eq!(wave.boards.len(), 1, "the absent player is not paired");
        assert!(wave.boards.iter().all(|b| b.white != 2 && b.black != 2));
        // Back: paired with the one waiting.
        let wave = r.pair_wave(2, &[true; 4]).unwrap().clone();
        assert_eq!(wave.boards.len(), 1);
        // Withdrawn (paused) players are not paired; entering again brings them back.
        r.set_result(1, 1, BoardResult::Draw, false).unwrap();
        let i = r.find("P0").unwrap();
        r.withdraw(i).unwrap();
        assert!(r.pair_wave(3, &[true; 4]).is_none(), "one free player left");
        assert_eq!(r.enter(person("P0", 1500)).unwrap(), i);
        // (The two free just met, and wave 2 plays on: they wait before meeting again.)
        assert!(r.pair_wave(4, &[true; 4]).is_none());
        assert!(r.pair_wave(4 + REMATCH_WAIT_MS, &[true; 4]).is_some());
        // A player removed by the organiser may not come back.
        let j = r.find("P3").unwrap();
        r.remove(j).unwrap();
        assert_eq!(
            r.enter(person("P3", 1500)).unwrap_err().code,
            ErrorCode::EntriesClosed
        );
    }

    #[test]
    fn two_who_just_met_wait_for_someone_else_before_meeting_again() {
        let settings = TournamentSettings::new(
            "Arena",
            TournamentFormat::Arena {
                seconds: 600,
                berserk: false,
            },
            RoomSettings::default(),
        );
        let mut r = Record::new(3, "Org".into(), settings, 0);
        for i in 0..4 {
            r.enter(person(&format!("P{i}"), 1500)).unwrap();
        }
        r.start(0).unwrap();
        let all = [true; 4];
        assert_eq!(r.pair_wave(1, &all).unwrap().boards.len(), 2);
        r.set_result(1, 1, BoardResult::Draw, false).unwrap();
        assert!(
            r.pair_wave(2, &all).is_none(),
            "they wait: board 2 plays on"
        );
        assert!(r.pair_wave(2 + REMATCH_WAIT_MS - 1, &all).is_none());
        // Board 2 ends in time: four free, paired across.
        r.set_result(1, 2, BoardResult::Draw, false).unwrap();
        let wave = r.pair_wave(3, &all).unwrap().clone();
        let first = &r.rounds[0].boards;
        for b in &wave.boards {
            assert!(
                !first
                    .iter()
                    .any(|f| [f.white, f.black] == [b.white, b.black]
                        || [f.white, f.black] == [b.black, b.white]),
                "no rematch: {wave:?}"
            );
        }
        // Nobody else finishes: after the wait they meet again rather than idle.
        r.set_result(2, 1, BoardResult::Draw, false).unwrap();
        assert!(r.pair_wave(10, &all).is_none());
        assert!(r.pair_wave(10 + REMATCH_WAIT_MS, &all).is_some());
    }
}
