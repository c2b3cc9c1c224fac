//! A match: N games between two players, each opening played once with each colour.
//!
//! Game `2k` gives opening `k mod len` to player A as the first side, game `2k + 1` the
//! same opening to player B: the two are a pair, scored together
//! ([`crate::stats::Pentanomial`]) as well as one by one ([`crate::stats::Tally`]). A
//! player that fails to start, errs, answers too late (for external engines) or plays an
//! illegal move forfeits that game; nothing else stops the match. Forfeits are counted
//! apart from the games decided on the board: a match with any measures the protocol as
//! much as the play.
//!
//! Several games can run at once ([`Match::concurrency`]): each game slot is a thread
//! with its own two players, pinned to a CPU of its own when there are enough
//! ([`crate::affinity`]), taking the next game number when it is free. Results come back
//! to the calling thread, which scores them, writes them and reports progress, so the
//! scores, the files and the callback see one game at a time, in the order games end.
//! An SPRT ([`Match::sprt`]) stops the match once it decides: no game starts after that
//! (those already under way are finished and counted).
//!
//! Every game can be written to a directory, one text file each ([`Match::record_dir`]),
//! and appended to a PGN file ([`Match::pgn`], see [`crate::pgn`]).
//!
//! **Swap openings** ([`Match::swap`], caro): instead of an opening from the list, each
//! game opens with a Swap2 (or Swap1) opening the players play themselves
//! ([`Player::swap2`]): A proposes in even-numbered games (0-based), B in the others,
//! so each pair has one proposal from each. The decisions decide who plays X (listed as
//! first). The stones become the game's first moves; a player whose answer is no answer
//! there (an error, silence, stones off the board or on others, two stones in Swap1)
//! forfeits. Besides the score, the report gives each player's results as proposer and
//! as responder and the responders' choices ([`SwapTally`]).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs::File;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use banco_rules::caro::swap::{Decision, Role, Stage, SwapKind, SwapOpening};
use banco_rules::caro::{Board, Point};
use banco_rules::game::{Game, GameSpec, Move, Side};

use crate::affinity;
use crate::openings::Opening;
use crate::pgn;
use crate::player::{Budget, Player, SwapReply};
use crate::record::{GameRecord, MoveInfo, SwapRecord, Termination, describe, move_text};
use crate::sprt::{Hypothesis, Sprt};
use crate::stats::{MoveStats, Pentanomial, Score, Tally};

/// What to play.
#[derive(Debug, Clone)]
pub struct Match {
    /// The game and its settings.
    pub spec: GameSpec,
    /// How many games; `None` for as many as the SPRT needs (which must then be set).
    pub games: Option<usize>,
    /// Starting positions, used in turn.
    pub openings: Vec<Opening>,
    /// Time per move given to player A and to player B (`None`: banco levels use their
    /// own, external engines get a second). Unequal budgets make a time-odds match: how
    /// much more time one engine needs to hold the other.
    pub budgets: [Option<Duration>; 2],
    /// Nodes per move for both players, when the match counts nodes (players that cannot
    /// count them refuse to start).
    pub nodes: Option<u64>,
    /// Where to write each game as a text file, if anywhere.
    pub record_dir: Option<PathBuf>,
    /// A PGN file each game is appended to, if any.
    pub pgn: Option<PathBuf>,
    /// The sequential test that ends the match once it decides, if any.
    pub sprt: Option<Sprt>,
    /// Games played at once (1: one after the other, on the calling thread).
    pub concurrency: usize,
    /// Caro: open every game with this swap opening, played by the players, instead of
    /// the openings list.
    pub swap: Option<SwapKind>,
    /// A game clock for both players instead of a time per move: each plans its own
    /// time from what is left (external engines are told it through their protocol),
    /// and a player whose clock runs out loses the game on time.
    pub clock: Option<Clock>,
}

/// A game clock: each player's time at the start and what each move adds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    pub initial: Duration,
    pub increment: Duration,
}

impl std::str::FromStr for Clock {
    type Err = String;

    /// `60+1` (seconds, plus seconds added per move; fractions allowed: `0.5+0.05`), or
    /// `60` for no increment.
    fn from_str(s: &str) -> std::result::Result<Clock, String> {
        let bad = || format!("'{s}' is no clock: write seconds and the increment, like 60+1");
        let (initial, increment) = s.split_once('+').unwrap_or((s, "0"));
        let seconds = |t: &str| {
            t.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e6)
                .map(Duration::from_secs_f64)
                .ok_or_else(bad)
        };
        let clock = Clock {
            initial: seconds(initial)?,
            increment: seconds(increment)?,
        };
        if clock.initial.is_zero() {
            return Err(bad());
        }
        Ok(clock)
    }
}

impl std::fmt::Display for Clock {
    /// PGN's `TimeControl`: `60+1`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let secs = |d: Duration| {
            let s = format!("{:.3}", d.as_secs_f64());
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        };
        write!(f, "{}+{}", secs(self.initial), secs(self.increment))
    }
}

/// How each player did in the swap openings of a match.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SwapTally {
    /// Player p's results (from p's side) in the games p proposed.
    pub proposing: [Tally; 2],
    /// Player p's results (from p's side) in the games p answered.
    pub responding: [Tally; 2],
    /// Player p's answers as responder: took O (stayed), took X (swapped), placed two.
    pub answers: [[u32; 3]; 2],
    /// Games the X player won, the O player won, drawn.
    pub colours: [u32; 3],
}

impl SwapTally {
    /// Counts a finished game that opened with a swap opening.
    fn add(&mut self, record: &GameRecord, swap: &SwapRecord) {
        let proposer = swap.proposer;
        let score = |p: usize| match record.winner {
            None => Score::Draw,
            Some(w) if w == p => Score::Win,
            Some(_) => Score::Loss,
        };
        self.proposing[proposer].add(score(proposer));
        self.responding[1 - proposer].add(score(1 - proposer));
        if let Some(answer) = swap.answer() {
            let k = match answer {
                Decision::TakeO => 0,
                Decision::TakeX => 1,
                Decision::PlaceTwo => 2,
            };
            self.answers[1 - proposer][k] += 1;
        }
        match record.winner {
            Some(w) if w == record.first => self.colours[0] += 1,
            Some(_) => self.colours[1] += 1,
            None => self.colours[2] += 1,
        }
    }
}

/// A player failed in the opening: who, why, and how the game ends for it.
struct Forfeit {
    /// The player (0 = A, 1 = B).
    player: usize,
    /// Why, in a sentence.
    reason: String,
    /// An illegal stone or an error.
    termination: Termination,
}

/// What an SPRT decided, and when.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Verdict {
    /// The hypothesis accepted.
    pub hypothesis: Hypothesis,
    /// The LLR that crossed its bound.
    pub llr: f64,
    /// Pairs scored when it did.
    pub pairs: u32,
}

/// Where a match stands, after each game.
#[derive(Debug, Clone)]
pub struct Progress {
    /// Games finished.
    pub games: usize,
    /// Games the match plays at most, if it has a count.
    pub planned: Option<usize>,
    /// A's results against B, game by game.
    pub tally: Tally,
    /// A's results against B, pair by pair.
    pub pairs: Pentanomial,
    /// The test, if the match runs one.
    pub sprt: Option<Sprt>,
    /// Its log-likelihood ratio now.
    pub llr: Option<f64>,
    /// What it decided, once it has.
    pub verdict: Option<Verdict>,
    /// Time since the match started.
    pub elapsed: Duration,
}

impl Progress {
    /// About how long the rest of the match takes, at its pace so far: to the game count,
    /// or to the SPRT's decision if that looks sooner (from the LLR's drift so far).
    pub fn eta(&self) -> Option<Duration> {
        if self.games == 0 {
            return None;
        }
        if self.verdict.is_some() {
            return Some(Duration::ZERO);
        }
        let by_count = self.planned.map(|n| n.saturating_sub(self.games) as f64);
        let by_test = match (self.sprt, self.llr) {
            (Some(s), Some(llr)) => s.pairs_to_go(llr, self.pairs.pairs()).map(|p| 2.0 * p),
            _ => None,
        };
        let games_left = match (by_count, by_test) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b)?,
        };
        let per_game = self.elapsed.as_secs_f64() / self.games as f64;
        Some(Duration::from_secs_f64(games_left * per_game))
    }

    /// One line for the terminal: games, score, the pairs with the Elo they give, its
    /// margin and LOS (before the first pair, the Elo of the games), the LLR within its
    /// bounds, the ETA.
    pub fn status_line(&self) -> String {
        let mut line = match self.planned {
            Some(n) => format!("games {}/{n}", self.games),
            None => format!("games {}", self.games),
        };
        let t = &self.tally;
        let _ = write!(
            line,
            "  +{} ={} -{}  {:.1}%",
            t.wins,
            t.draws,
            t.losses,
            100.0 * t.score()
        );
        if self.pairs.pairs() > 0 {
            let (elo, los) = self.pairs.elo();
            let _ = write!(
                line,
                "  pairs {}  Elo {elo}  LOS {:.1}%",
                self.pairs.pairs(),
                100.0 * los
            );
        } else {
            let _ = write!(line, "  Elo {}", t.elo());
        }
        if let (Some(s), Some(llr)) = (self.sprt, self.llr) {
            let (lower, upper) = s.bounds();
            let _ = write!(line, "  LLR {llr:.2} [{lower:.2}, {upper:.2}]");
            if let Some(v) = self.verdict {
                let _ = write!(line, " {} accepted", v.hypothesis);
            }
        }
        if let Some(eta) = self.eta() {
            let _ = write!(line, "  ETA {}", clock(eta));
        }
        line
    }
}

/// `1h02m`, `3m05s`, `42s`.
pub fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

/// A match's outcome.
#[derive(Debug, Clone)]
pub struct Report {
    /// The two players' names, A then B.
    pub names: [String; 2],
    /// A's results against B.
    pub tally: Tally,
    /// A's results against B by pairs (a last unpaired game is in `tally` only).
    pub pairs: Pentanomial,
    /// Each player's moves.
    pub stats: [MoveStats; 2],
    /// Games each player lost off the board (see [`GameRecord::forfeit`]).
    pub forfeits: [u32; 2],
    /// The LLR after the last pair, when the match ran an SPRT.
    pub llr: Option<f64>,
    /// What the SPRT decided, if it did.
    pub verdict: Option<Verdict>,
    /// The CPU each game slot was pinned to, when slots were pinned.
    pub pinned: Option<Vec<usize>>,
    /// With swap openings: each player as proposer and as responder.
    pub swap: Option<SwapTally>,
}

/// A finished game on its way from a game slot to the scorer.
struct Done {
    /// The game.
    record: GameRecord,
    /// The two players' moves in it, A then B.
    stats: [MoveStats; 2],
}

/// The calling thread's side of a match: scores games as they come, writes them,
/// decides when to stop.
struct Scorer<'a> {
    /// The match.
    m: &'a Match,
    /// When it started.
    start: Instant,
    /// A's results, game by game.
    tally: Tally,
    /// A's results, pair by pair.
    pairs: Pentanomial,
    /// A's result in the first-finished game of each pair still waiting for its twin.
    halves: HashMap<usize, Score>,
    /// Each player's moves.
    stats: [MoveStats; 2],
    /// Games lost off the board, per player.
    forfeits: [u32; 2],
    /// Games finished.
    games: usize,
    /// The SPRT's LLR after the last pair.
    llr: Option<f64>,
    /// Its decision, once made.
    verdict: Option<Verdict>,
    /// The players' names, from the first game.
    names: Option<[String; 2]>,
    /// The PGN file, open for appending.
    pgn: Option<File>,
    /// The tags every PGN game shares.
    header: pgn::Header,
    /// With swap openings: each player as proposer and as responder.
    swap: Option<SwapTally>,
}

impl<'a> Scorer<'a> {
    fn new(m: &'a Match) -> Result<Scorer<'a>> {
        if let Some(dir) = &m.record_dir {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let pgn = match &m.pgn {
            Some(path) => Some(
                File::options()
                    .create(true)
                    .append(true)
                    .open(path)
                    .with_context(|| format!("cannot open {}", path.display()))?,
            ),
            None => None,
        };
        Ok(Scorer {
            m,
            start: Instant::now(),
            tally: Tally::default(),
            pairs: Pentanomial::default(),
            halves: HashMap::new(),
            stats: [MoveStats::default(); 2],
            forfeits: [0; 2],
            games: 0,
            llr: m.sprt.map(|_| 0.0),
            verdict: None,
            names: None,
            pgn,
            header: pgn::Header {
                date: pgn::today(),
                time_controls: [0, 1].map(|p| m.time_control(p)),
            },
            swap: m.swap.map(|_| SwapTally::default()),
        })
    }

    /// Scores and writes a finished game, then shows it to `on_game`; whether the match
    /// should stop (its test has decided).
    fn take(
        &mut self,
        done: Done,
        on_game: &mut impl FnMut(&GameRecord, &Progress),
    ) -> Result<bool> {
        let Done { record, stats } = done;
        self.games += 1;
        for (total, game) in self.stats.iter_mut().zip(&stats) {
            total.merge(game);
        }
        if let Some(p) = record.forfeit {
            self.forfeits[p] += 1;
        }
        let score = record.score();
        self.tally.add(score);
        if let (Some(tally), Some(swap)) = (&mut self.swap, &record.swap) {
            tally.add(&record, swap);
        }
        let pair = (record.number - 1) / 2;
        if let Some(twin) = self.halves.remove(&pair) {
            self.pairs.add(twin, score);
            if let Some(sprt) = &self.m.sprt {
                let llr = sprt.llr(&self.pairs);
                self.llr = Some(llr);
                if self.verdict.is_none()
                    && let Some(hypothesis) = sprt.verdict(llr)
                {
                    self.verdict = Some(Verdict {
                        hypothesis,
                        llr,
                        pairs: self.pairs.pairs(),
                    });
                }
            }
        } else {
            self.halves.insert(pair, score);
        }
        if let Some(dir) = &self.m.record_dir {
            let path = dir.join(format!("{:04}.txt", record.number));
            std::fs::write(&path, self.m.game_text(&record))
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        if let Some(file) = &mut self.pgn {
            file.write_all(pgn::game(&self.m.spec, &self.header, &record).as_bytes())
                .and_then(|()| file.flush())
                .context("cannot write the PGN file")?;
        }
        self.names.get_or_insert_with(|| record.names.clone());
        on_game(&record, &self.progress());
        Ok(self.verdict.is_some())
    }

    fn progress(&self) -> Progress {
        Progress {
            games: self.games,
            planned: self.m.games,
            tally: self.tally,
            pairs: self.pairs,
            sprt: self.m.sprt,
            llr: self.llr,
            verdict: self.verdict,
            elapsed: self.start.elapsed(),
        }
    }

    fn report(self, fallback: [String; 2], pinned: Option<Vec<usize>>) -> Report {
        Report {
            names: self.names.unwrap_or(fallback),
            tally: self.tally,
            pairs: self.pairs,
            stats: self.stats,
            forfeits: self.forfeits,
            llr: self.llr,
            verdict: self.verdict,
            pinned,
            swap: self.swap,
        }
    }
}

/// Builds the two players of a game slot (A then B), given the slot's number.
pub type PlayerFactory<'a> = dyn Fn(usize) -> Result<[Box<dyn Player>; 2]> + Sync + 'a;

impl Match {
    /// A match of `games` games of `spec` from `openings`, one at a time, with no limits
    /// set, no files written and no test.
    pub fn new(spec: GameSpec, games: usize, openings: Vec<Opening>) -> Match {
        Match {
            spec,
            games: Some(games),
            openings,
            budgets: [None; 2],
            nodes: None,
            record_dir: None,
            pgn: None,
            sprt: None,
            concurrency: 1,
            swap: None,
            clock: None,
        }
    }

    /// The most games the match plays.
    fn limit(&self) -> Result<usize> {
        if self.swap.is_some() && !matches!(self.spec, GameSpec::Caro { .. }) {
            bail!("swap openings are caro's");
        }
        if self.clock.is_some() && self.swap.is_some() {
            bail!("a game clock does not combine with swap openings yet: use a time per move");
        }
        if self.clock.is_some() && self.nodes.is_some() {
            bail!("a game clock and a node count exclude each other");
        }
        if self.openings.is_empty() && self.swap.is_none() {
            bail!("a match needs at least one opening");
        }
        match (self.games, self.sprt) {
            (Some(n), _) => Ok(n),
            (None, Some(_)) => Ok(usize::MAX),
            (None, None) => bail!("a match without a game count needs an SPRT to end it"),
        }
    }

    /// Plays the match one game at a time with `players` (whatever
    /// [`Match::concurrency`] says); `on_game` sees each game as it ends, with the match's
    /// progress.
    pub fn play(
        &self,
        players: &mut [Box<dyn Player>; 2],
        mut on_game: impl FnMut(&GameRecord, &Progress),
    ) -> Result<Report> {
        let limit = self.limit()?;
        self.prepare(players)?;
        let mut scorer = Scorer::new(self)?;
        for i in 0..limit {
            let done = self.play_game(i, players)?;
            if scorer.take(done, &mut on_game)? {
                break;
            }
        }
        Ok(scorer.report([players[0].name(), players[1].name()], None))
    }

    /// Plays the match [`Match::concurrency`] games at a time, each game slot with its own
    /// players from `make` (called on the slot's thread, after it is pinned, so external
    /// engines start on the slot's CPU). With a concurrency of 1 this is [`Match::play`]
    /// on the calling thread.
    pub fn play_with(
        &self,
        make: &PlayerFactory,
        mut on_game: impl FnMut(&GameRecord, &Progress),
    ) -> Result<Report> {
        if self.concurrency <= 1 {
            let mut players = make(0)?;
            return self.play(&mut players, on_game);
        }
        let limit = self.limit()?;
        let pinned = affinity::plan(self.concurrency, affinity::allowed_cpus().as_deref());
        let mut scorer = Scorer::new(self)?;
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let mut failure = None;
        std::thread::scope(|scope| {
            // No buffer: a slot hands its game over and waits until it is scored, so no
            // slot runs ahead of the scorer (and of its SPRT) by more than the game it
            // starts next.
            let (tx, rx) = mpsc::sync_channel::<Result<Done>>(0);
            for slot in 0..self.concurrency {
                let (tx, next, stop, pinned) = (tx.clone(), &next, &stop, &pinned);
                scope.spawn(move || {
                    if let Some(cpu) = pinned.as_ref().and_then(|p| p.get(slot)) {
                        affinity::pin_current_thread(*cpu);
                    }
                    let mut players = match make(slot).and_then(|mut p| {
                        self.prepare(&mut p)?;
                        Ok(p)
                    }) {
                        Ok(p) => p,
                        Err(e) => {
                            stop.store(true, Ordering::Relaxed);
                            let _ = tx.send(Err(e));
                            return;
                        }
                    };
                    while !stop.load(Ordering::Relaxed) {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= limit {
                            break;
                        }
                        let done = self.play_game(i, &mut players);
                        let failed = done.is_err();
                        if tx.send(done).is_err() || failed {
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                    }
                });
            }
            drop(tx);
            for done in rx {
                if failure.is_some() {
                    // The match has failed: let the slots finish, score nothing more.
                    continue;
                }
                let taken = done.and_then(|d| scorer.take(d, &mut on_game));
                match taken {
                    Ok(false) => {}
                    Ok(true) => stop.store(true, Ordering::Relaxed),
                    Err(e) => {
                        stop.store(true, Ordering::Relaxed);
                        failure.get_or_insert(e);
                    }
                }
            }
        });
        if let Some(e) = failure {
            return Err(e);
        }
        Ok(scorer.report(["A".into(), "B".into()], pinned))
    }

    /// Sets the players' node limit, if the match counts nodes.
    fn prepare(&self, players: &mut [Box<dyn Player>; 2]) -> Result<()> {
        if let Some(n) = self.nodes {
            for p in players.iter_mut() {
                p.limit_nodes(n)?;
            }
        }
        Ok(())
    }

    /// Player `p`'s limit as PGN's `TimeControl` value.
    fn time_control(&self, p: usize) -> String {
        if let Some(clock) = self.clock {
            return clock.to_string();
        }
        let time = self.budgets[p].map(|t| {
            let seconds = format!("{:.3}", t.as_secs_f64());
            let seconds = seconds.trim_end_matches('0').trim_end_matches('.');
            format!("{seconds}/move")
        });
        let nodes = self.nodes.map(|n| format!("{n} nodes/move"));
        match (time, nodes) {
            (Some(t), Some(n)) => format!("{t}, {n}"),
            (Some(t), None) => t,
            (None, Some(n)) => n,
            (None, None) => "?".to_string(),
        }
    }

    /// Plays game `index` (0-based).
    fn play_game(&self, index: usize, players: &mut [Box<dyn Player>; 2]) -> Result<Done> {
        let mut first = index % 2;
        let mut game = Game::new(&self.spec).context("cannot set up the game")?;
        let mut stats = [MoveStats::default(); 2];
        let mut record = GameRecord {
            number: index + 1,
            first,
            names: [players[0].name(), players[1].name()],
            opening: String::new(),
            moves: Vec::new(),
            book_plies: 0,
            info: Vec::new(),
            winner: None,
            reason: String::new(),
            forfeit: None,
            termination: Termination::Normal,
            start_fen: game.start_fen(),
            swap: None,
        };
        if self.swap.is_none() {
            let opening = &self.openings[(index / 2) % self.openings.len()];
            opening.apply(&mut game)?;
            record.opening = opening.text();
            record.book_plies = game.plies();
        }
        for (i, player) in players.iter_mut().enumerate() {
            if let Err(e) = player.new_game(&self.spec) {
                record.winner = Some(1 - i);
                record.forfeit = Some(i);
                record.termination = Termination::Abandoned;
                record.reason = format!("{} could not start: {e:#}", player.name());
                record.moves = game.moves();
                return Ok(Done { record, stats });
            }
        }
        if let Some(kind) = self.swap {
            let proposer = index % 2;
            if let Err(f) =
                self.swap_opening(kind, proposer, players, &mut game, &mut record, &mut stats)
            {
                record.winner = Some(1 - f.player);
                record.forfeit = Some(f.player);
                record.termination = f.termination;
                record.reason = f.reason;
                record.moves = game.moves();
                return Ok(Done { record, stats });
            }
            first = record.first;
        }
        let player_of = |side: Side| {
            if side == Side::First {
                first
            } else {
                1 - first
            }
        };
        // Each player's game clock, when the match has one.
        let mut left = [self.clock.map_or(Duration::ZERO, |c| c.initial); 2];
        let (winner, reason, forfeit) = loop {
            if let Some(end) = game.ending() {
                break (
                    end.winner.map(player_of),
                    end.reason.name().to_string(),
                    None,
                );
            }
            let idx = player_of(game.to_move());
            let player = &mut players[idx];
            let asked = Instant::now();
            let answer = match self.clock {
                Some(clock) => player.play_clock(
                    &game,
                    Budget::Clock {
                        own: left[idx],
                        other: left[1 - idx],
                        increment: clock.increment,
                        initial: clock.initial,
                    },
                ),
                None => player.play(&game, self.budgets[idx]),
            };
            // The clock runs from the question to the answer, as the arena saw them.
            let taken = asked.elapsed();
            let reply = match answer {
                Ok(r) => r,
                Err(e) => {
                    record.termination = Termination::Abandoned;
                    break (
                        Some(1 - idx),
                        format!("{} failed: {e:#}", player.name()),
                        Some(idx),
                    );
                }
            };
            if let Some(clock) = self.clock {
                if taken > left[idx] {
                    record.termination = Termination::TimeForfeit;
                    break (
                        Some(1 - idx),
                        format!(
                            "{} lost on time: it took {} ms with {} ms left",
                            player.name(),
                            taken.as_millis(),
                            left[idx].as_millis()
                        ),
                        Some(idx),
                    );
                }
                left[idx] -= taken;
                stats[idx].record_clock(left[idx]);
                left[idx] += clock.increment;
            }
            let budget = match (self.clock, self.budgets[idx], player.nominal_time()) {
                (Some(_), _, _) => None,
                (None, Some(a), Some(b)) => Some(a.min(b)),
                (None, a, b) => a.or(b),
            };
            stats[idx].record(reply.elapsed, budget, reply.depth);
            if let Err(e) = game.play(reply.mv) {
                record.termination = Termination::RulesInfraction;
                break (
                    Some(1 - idx),
                    format!("{} played an illegal move: {e}", player.name()),
                    Some(idx),
                );
            }
            record.info.push(MoveInfo {
                eval: reply.eval,
                depth: reply.depth,
                elapsed: reply.elapsed,
            });
        };
        record.winner = winner;
        record.reason = reason;
        record.forfeit = forfeit;
        record.moves = game.moves();
        Ok(Done { record, stats })
    }

    /// Plays a swap opening with `proposer` (0 = A, 1 = B) proposing: asks each player
    /// in turn, checks each answer against the opening's rules, then plays the stones
    /// (and the move a player took O with) as the game's first moves and sets who plays
    /// X (`record.first`) and the opening's record. `Err`: the player who failed, why.
    fn swap_opening(
        &self,
        kind: SwapKind,
        proposer: usize,
        players: &mut [Box<dyn Player>; 2],
        game: &mut Game,
        record: &mut GameRecord,
        stats: &mut [MoveStats; 2],
    ) -> std::result::Result<(), Forfeit> {
        let GameSpec::Caro { width, height, .. } = self.spec else {
            return Err(Forfeit {
                player: proposer,
                reason: "swap openings are caro's".into(),
                termination: Termination::Abandoned,
            });
        };
        let board = Board::new(u32::from(width), u32::from(height)).map_err(|e| Forfeit {
            player: proposer,
            reason: format!("the board cannot be set up: {e}"),
            termination: Termination::Abandoned,
        })?;
        let mut opening = SwapOpening::new(kind, board);
        let player_of = |role: Role| match role {
            Role::Proposer => proposer,
            Role::Responder => 1 - proposer,
        };
        // A player who took O with a move: it, its time.
        let mut first_move: Option<(Point, Duration)> = None;
        while let Some(role) = opening.actor() {
            let idx = player_of(role);
            let name = players[idx].name();
            let stones = opening.stones().to_vec();
            let start = Instant::now();
            let reply = players[idx]
                .swap2(&stones, self.budgets[idx])
                .map_err(|e| Forfeit {
                    player: idx,
                    reason: format!(
                        "{name} failed in the swap opening after {} stones: {e:#}",
                        stones.len()
                    ),
                    termination: Termination::Abandoned,
                })?;
            let elapsed = start.elapsed();
            let budget = match (self.budgets[idx], players[idx].nominal_time()) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            stats[idx].record(elapsed, budget, None);
            let illegal = |e: String| Forfeit {
                player: idx,
                reason: format!(
                    "{name} answered '{reply}' in the swap opening after {} stones: {e}",
                    stones.len()
                ),
                termination: Termination::RulesInfraction,
            };
            let stage = opening.stage();
            let done = match (stage, reply) {
                (Stage::Propose, SwapReply::Propose(three)) => three
                    .iter()
                    .try_for_each(|&p| opening.place(role, p))
                    .map_err(|e| e.to_string()),
                (Stage::Answer | Stage::Choose, SwapReply::Swap) => opening
                    .decide(role, Decision::TakeX)
                    .map_err(|e| e.to_string()),
                (Stage::Answer | Stage::Choose, SwapReply::Stay(p)) => {
                    first_move = Some((p, elapsed));
                    opening
                        .decide(role, Decision::TakeO)
                        .map_err(|e| e.to_string())
                }
                (Stage::Answer, SwapReply::PlaceTwo(two)) => opening
                    .decide(role, Decision::PlaceTwo)
                    .and_then(|()| two.iter().try_for_each(|&p| opening.place(role, p)))
                    .map_err(|e| e.to_string()),
                (Stage::Propose, _) => Err("three stones were asked for".into()),
                _ => Err("a decision was asked for".into()),
            };
            done.map_err(illegal)?;
        }
        let steps = opening.steps().to_vec();
        let swap = SwapRecord {
            kind,
            proposer,
            steps,
        };
        let x_role = opening.x_player().unwrap_or(Role::Proposer);
        record.first = player_of(x_role);
        record.opening = swap.text(&record.names, height);
        record.book_plies = opening.stones().len();
        for (i, &p) in opening.stones().iter().enumerate() {
            // Stones 1-3 are the proposer's, 4-5 the responder's.
            let by = if i < 3 { proposer } else { 1 - proposer };
            game.play(Move::Caro(p)).map_err(|e| Forfeit {
                player: by,
                reason: format!("the swap opening's stone {p} breaks the rules: {e}"),
                termination: Termination::RulesInfraction,
            })?;
        }
        record.swap = Some(swap);
        if let Some((p, elapsed)) = first_move {
            // The player who took O moves next, with the stone it answered with.
            let o_player = 1 - record.first;
            game.play(Move::Caro(p)).map_err(|e| Forfeit {
                player: o_player,
                reason: format!("{} played an illegal move: {e}", players[o_player].name()),
                termination: Termination::RulesInfraction,
            })?;
            record.info.push(MoveInfo {
                eval: None,
                depth: None,
                elapsed,
            });
        }
        Ok(())
    }

    /// A game as a text file: `#` header lines, then one move per line.
    fn game_text(&self, record: &GameRecord) -> String {
        let mut text = String::new();
        let first = &record.names[record.first];
        let second = &record.names[1 - record.first];
        let _ = writeln!(text, "# banco-arena game {}", record.number);
        let _ = writeln!(text, "# game: {}", describe(&self.spec));
        let _ = writeln!(text, "# first: {first}");
        let _ = writeln!(text, "# second: {second}");
        let _ = writeln!(text, "# opening: {}", record.opening);
        let forfeit = if record.forfeit.is_some() {
            ", forfeit"
        } else {
            ""
        };
        let _ = writeln!(
            text,
            "# result: {} ({}{forfeit})",
            record.result(),
            record.reason
        );
        for mv in &record.moves {
            let _ = writeln!(text, "{}", move_text(mv));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::parse;
    use crate::player::{Eval, Reply};
    use crate::sprt::Sprt;
    use banco_rules::caro::{Point, Rule};
    use banco_rules::game::Move;

    /// Plays along a fixed script of points: first the listed ones that are free, then
    /// an illegal move or an error when asked to.
    struct Scripted {
        name: &'static str,
        moves: Vec<Point>,
        fail_after: Option<usize>,
        illegal_after: Option<usize>,
        played: usize,
        /// Its answers in swap openings after three and after five stones (`None`:
        /// it has no swap openings).
        swaps: Option<(SwapReply, SwapReply)>,
        /// How long each move takes on a game clock.
        delay: Duration,
    }

    impl Scripted {
        fn new(name: &'static str, moves: &[(u8, u8)]) -> Scripted {
            Scripted {
                name,
                moves: moves.iter().map(|(x, y)| Point::new(*x, *y)).collect(),
                fail_after: None,
                illegal_after: None,
                played: 0,
                swaps: None,
                delay: Duration::ZERO,
            }
        }
    }

    impl Player for Scripted {
        fn name(&self) -> String {
            self.name.to_string()
        }
        fn new_game(&mut self, _: &GameSpec) -> Result<()> {
            self.played = 0;
            Ok(())
        }
        fn swap2(&mut self, stones: &[Point], _: Option<Duration>) -> Result<SwapReply> {
            let Some((three, five)) = self.swaps else {
                anyhow::bail!("no swap openings");
            };
            Ok(match stones.len() {
                0 => SwapReply::Propose([Point::new(7, 7), Point::new(8, 7), Point::new(9, 9)]),
                3 => three,
                _ => five,
            })
        }
        fn play_clock(&mut self, game: &Game, _: Budget) -> Result<Reply> {
            std::thread::sleep(self.delay);
            self.play(game, None)
        }
        fn play(&mut self, game: &Game, budget: Option<Duration>) -> Result<Reply> {
            if self.fail_after == Some(self.played) {
                anyhow::bail!("crashed");
            }
            let Game::Caro(g) = game else { unreachable!() };
            let mv = if self.illegal_after == Some(self.played) {
                g.moves()[0]
            } else {
                *self
                    .moves
                    .iter()
                    .find(|p| g.board().is_empty_at(**p))
                    .expect("script long enough")
            };
            self.played += 1;
            Ok(Reply {
                mv: Move::Caro(mv),
                depth: Some(3),
                eval: Some(Eval::Units(self.played as i32)),
                // Says how long it was given, so tests can see whose budget it got.
                elapsed: budget.unwrap_or(Duration::from_millis(10)),
            })
        }
    }

    fn spec() -> GameSpec {
        GameSpec::Caro {
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
            opening: Vec::new(),
        }
    }

    /// A row-0 runner and a row-14 runner: whoever moves first completes five first.
    fn racers() -> [Box<dyn Player>; 2] {
        let row = |y: u8| (0..15).map(|x| (x, y)).collect::<Vec<_>>();
        [
            Box::new(Scripted::new("a", &row(0))),
            Box::new(Scripted::new("b", &row(14))),
        ]
    }

    #[test]
    fn colours_alternate_and_results_add_up() {
        let m = Match::new(spec(), 4, parse("0,0 1,1\n-1,-1 2,2").unwrap());
        let mut players = racers();
        let mut seen = Vec::new();
        let report = m
            .play(&mut players, |r, _| {
                seen.push((r.first, r.winner, r.reason.clone(), r.opening.clone()))
            })
            .unwrap();
        // The first mover always wins the race: A wins games 1 and 3, B games 2 and 4.
        assert_eq!(
            seen.iter().map(|s| (s.0, s.1)).collect::<Vec<_>>(),
            vec![(0, Some(0)), (1, Some(1)), (0, Some(0)), (1, Some(1))]
        );
        assert!(seen.iter().all(|s| s.2 == "five"));
        assert_eq!(report.forfeits, [0, 0]);
        assert_eq!(seen[0].3, "0,0 1,1");
        assert_eq!(seen[1].3, "0,0 1,1");
        assert_eq!(seen[2].3, "-1,-1 2,2");
        assert_eq!(
            (report.tally.wins, report.tally.draws, report.tally.losses),
            (2, 0, 2)
        );
        // Each wins two races of five moves and loses two after four.
        assert_eq!(report.stats[0].moves, 18);
        assert_eq!(report.stats[1].moves, 18);
        assert_eq!(report.stats[0].mean_depth(), Some(3.0));
    }

    /// Racers on rows 0 and 14 that answer swap openings with `three` and `five`.
    fn swapping_racers(three: SwapReply, five: SwapReply) -> [Box<dyn Player>; 2] {
        let row = |y: u8| (0..15).map(|x| (x, y)).collect::<Vec<_>>();
        let mut a = Scripted::new("a", &row(0));
        let mut b = Scripted::new("b", &row(14));
        a.swaps = Some((three, five));
        b.swaps = Some((three, five));
        [Box::new(a), Box::new(b)]
    }

    #[test]
    fn swap_openings_alternate_the_proposer_and_decide_the_colours() {
        let p = Point::new;
        let m = Match {
            swap: Some(SwapKind::Swap2),
            ..Match::new(spec(), 2, Vec::new())
        };
        // Two more stones, then the proposer takes X.
        let mut players = swapping_racers(SwapReply::PlaceTwo([p(8, 8), p(8, 6)]), SwapReply::Swap);
        let mut seen = Vec::new();
        let report = m.play(&mut players, |r, _| seen.push(r.clone())).unwrap();
        assert_eq!(seen.len(), 2);
        for (r, proposer) in seen.iter().zip([0, 1]) {
            let swap = r.swap.as_ref().unwrap();
            assert_eq!(swap.proposer, proposer);
            assert_eq!(r.first, proposer, "the proposer took X");
            assert_eq!(r.book_plies, 5);
            assert_eq!(
                r.moves[..5],
                [p(7, 7), p(8, 7), p(9, 9), p(8, 8), p(8, 6)].map(Move::Caro)
            );
            // O moves next after the five stones: the responder's runner wins the race.
            assert_eq!(r.winner, Some(1 - proposer), "{}", r.reason);
            assert_eq!(r.forfeit, None);
        }
        assert_eq!(
            seen[0].opening,
            "swap2: a proposed h8 i8 j6; b placed i7 i9; a took X"
        );
        let swap = report.swap.unwrap();
        assert_eq!(swap.proposing[0].losses, 1);
        assert_eq!(swap.responding[1].wins, 1);
        assert_eq!(swap.answers, [[0, 0, 1], [0, 0, 1]]);
        assert_eq!(swap.colours, [0, 2, 0]);
        // The PGN says who placed the stones.
        let text = pgn::game(&m.spec, &Scorer::new(&m).unwrap().header, &seen[1]);
        assert!(text.contains("[Proposer \"b\"]"), "{text}");
        assert!(text.contains("1. h8 {proposer} i8 {proposer}"), "{text}");
        assert!(text.contains("i7 {responder}"), "{text}");

        // Staying with O: the responder's stone is the fourth move and it plays O.
        let mut players = swapping_racers(SwapReply::Stay(p(0, 5)), SwapReply::Swap);
        let mut seen = Vec::new();
        m.play(&mut players, |r, _| seen.push(r.clone())).unwrap();
        assert_eq!(seen[0].first, 0);
        assert_eq!(seen[0].moves[3], Move::Caro(p(0, 5)));
        assert_eq!(seen[0].book_plies, 3);
        assert_eq!(seen[1].first, 1);
    }

    #[test]
    fn bad_swap_answers_forfeit() {
        let p = Point::new;
        let swap2 = Match {
            swap: Some(SwapKind::Swap2),
            ..Match::new(spec(), 2, Vec::new())
        };
        // A stone on a taken point.
        let mut players = swapping_racers(SwapReply::Stay(p(7, 7)), SwapReply::Swap);
        let mut seen = Vec::new();
        let report = swap2
            .play(&mut players, |r, _| seen.push(r.clone()))
            .unwrap();
        assert_eq!(seen[0].forfeit, Some(1), "{}", seen[0].reason);
        assert_eq!(seen[0].termination, Termination::RulesInfraction);
        assert!(
            seen[0].reason.contains("illegal move"),
            "{}",
            seen[0].reason
        );
        assert_eq!(report.forfeits, [1, 1]);
        // Two more stones where Swap1 allows none; a proposal answered with a decision.
        let swap1 = Match {
            swap: Some(SwapKind::Swap1),
            ..swap2.clone()
        };
        let mut players = swapping_racers(SwapReply::PlaceTwo([p(8, 8), p(8, 6)]), SwapReply::Swap);
        let mut seen = Vec::new();
        swap1
            .play(&mut players, |r, _| seen.push(r.clone()))
            .unwrap();
        assert_eq!(seen[0].forfeit, Some(1));
        assert!(seen[0].reason.contains("'8,8 8,6'"), "{}", seen[0].reason);
        // Off the board after five stones.
        let mut players = swapping_racers(
            SwapReply::PlaceTwo([p(8, 8), p(8, 6)]),
            SwapReply::Stay(p(20, 20)),
        );
        let mut seen = Vec::new();
        swap2
            .play(&mut players, |r, _| seen.push(r.clone()))
            .unwrap();
        assert_eq!(seen[0].forfeit, Some(0), "{}", seen[0].reason);
        // A player without swap openings loses the games it is asked in.
        let mut players = racers();
        let mut seen = Vec::new();
        swap2
            .play(&mut players, |r, _| seen.push(r.clone()))
            .unwrap();
        assert_eq!(seen[0].forfeit, Some(0));
        assert_eq!(seen[0].termination, Termination::Abandoned);
        assert!(
            seen[0].reason.contains("no swap openings"),
            "{}",
            seen[0].reason
        );
        // Swap openings are caro's.
        let xiangqi = Match {
            swap: Some(SwapKind::Swap2),
            ..Match::new(GameSpec::Xiangqi { fen: None }, 2, Vec::new())
        };
        assert!(xiangqi.play(&mut racers(), |_, _| {}).is_err());
    }

    #[test]
    fn each_player_moves_on_its_own_budget() {
        let m = Match {
            budgets: [
                Some(Duration::from_millis(30)),
                Some(Duration::from_millis(70)),
            ],
            ..Match::new(spec(), 2, parse("0,0 1,1").unwrap())
        };
        let mut players = racers();
        let report = m.play(&mut players, |_, _| {}).unwrap();
        for (stats, ms) in report.stats.iter().zip([30, 70]) {
            assert!(stats.moves > 0);
            assert_eq!(stats.time, Duration::from_millis(ms) * stats.moves as u32);
            assert_eq!(stats.overruns, 0);
        }
    }

    #[test]
    fn clocks_parse_and_print() {
        let c: Clock = "60+1".parse().unwrap();
        assert_eq!(
            (c.initial, c.increment),
            (Duration::from_secs(60), Duration::from_secs(1))
        );
        assert_eq!(c.to_string(), "60+1");
        let c: Clock = "0.5+0.05".parse().unwrap();
        assert_eq!(c.increment, Duration::from_millis(50));
        assert_eq!(c.to_string(), "0.5+0.05");
        assert_eq!("90".parse::<Clock>().unwrap().increment, Duration::ZERO);
        for bad in ["", "x", "0+1", "-1+0", "60+", "60+1+1", "inf+0"] {
            let e = bad.parse::<Clock>().unwrap_err();
            assert!(e.contains("is no clock"), "{bad}: {e}");
        }
    }

    /// A game of racers on `clock`, A taking `delay` a move.
    fn race_on_clock(clock: &str, delay: Duration) -> (Report, Vec<GameRecord>, Vec<Budget>) {
        let m = Match {
            clock: Some(clock.parse().unwrap()),
            ..Match::new(spec(), 1, parse("0,0 1,1").unwrap())
        };
        let mut a = Scripted::new("a", &(0..15).map(|x| (x, 0)).collect::<Vec<_>>());
        a.delay = delay;
        let told = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        struct Spy(Scripted, std::sync::Arc<std::sync::Mutex<Vec<Budget>>>);
        impl Player for Spy {
            fn name(&self) -> String {
                self.0.name()
            }
            fn new_game(&mut self, spec: &GameSpec) -> Result<()> {
                self.0.new_game(spec)
            }
            fn play(&mut self, game: &Game, budget: Option<Duration>) -> Result<Reply> {
                self.0.play(game, budget)
            }
            fn play_clock(&mut self, game: &Game, budget: Budget) -> Result<Reply> {
                self.1.lock().unwrap().push(budget);
                self.0.play_clock(game, budget)
            }
        }
        let mut players: [Box<dyn Player>; 2] = [
            Box::new(Spy(a, told.clone())),
            Box::new(Scripted::new(
                "b",
                &(0..15).map(|x| (x, 14)).collect::<Vec<_>>(),
            )),
        ];
        let mut games = Vec::new();
        let report = m.play(&mut players, |r, _| games.push(r.clone())).unwrap();
        let told = told.lock().unwrap().clone();
        (report, games, told)
    }

    #[test]
    fn on_a_game_clock_each_player_is_told_its_time_and_the_increment_is_added() {
        let (report, games, told) = race_on_clock("2+0.5", Duration::from_millis(20));
        assert_eq!(games[0].reason, "five");
        assert_eq!(report.forfeits, [0, 0]);
        // A's first question: its whole clock; later ones: less the moves' time, plus
        // half a second a move.
        let Budget::Clock {
            own,
            other,
            increment,
            initial,
        } = told[0]
        else {
            panic!("{told:?}")
        };
        assert_eq!(
            (own, other),
            (Duration::from_secs(2), Duration::from_secs(2))
        );
        assert_eq!(
            (increment, initial),
            (Duration::from_millis(500), Duration::from_secs(2))
        );
        let Budget::Clock { own, .. } = told[1] else {
            panic!()
        };
        assert!(
            own > Duration::from_secs(2) && own < Duration::from_millis(2500),
            "{own:?}"
        );
        let lowest = report.stats[0].lowest_clock.unwrap();
        assert!(lowest < Duration::from_millis(1990), "{lowest:?}");
        assert!(lowest > Duration::from_secs(1), "{lowest:?}");
    }

    #[test]
    fn a_player_whose_clock_runs_out_loses_on_time() {
        // Sudden death, 0.35 s, and 100 ms a move: A's fourth move flags (three leave
        // 50 ms for the arena's own time, a loaded machine's included).
        let (report, games, told) = race_on_clock("0.35", Duration::from_millis(100));
        assert_eq!(games[0].winner, Some(1));
        assert!(
            games[0].reason.contains("a lost on time"),
            "{}",
            games[0].reason
        );
        assert_eq!(games[0].termination, Termination::TimeForfeit);
        assert_eq!(report.forfeits, [1, 0]);
        assert_eq!(told.len(), 4, "{told:?}");
    }

    #[test]
    fn a_clock_excludes_swap_openings_and_node_counts() {
        let clock = Some("60+1".parse().unwrap());
        let swap = Match {
            clock,
            swap: Some(SwapKind::Swap2),
            ..Match::new(spec(), 2, Vec::new())
        };
        assert!(swap.play(&mut racers(), |_, _| {}).is_err());
        let nodes = Match {
            clock,
            nodes: Some(1000),
            ..Match::new(spec(), 2, parse("0,0 1,1").unwrap())
        };
        assert!(nodes.play(&mut racers(), |_, _| {}).is_err());
    }

    #[test]
    fn errors_and_illegal_moves_lose() {
        let dir = std::env::temp_dir().join(format!("banco-arena-test-{}", std::process::id()));
        let m = Match {
            record_dir: Some(dir.clone()),
            ..Match::new(spec(), 1, parse("0,0 1,1").unwrap())
        };
        // A moves first and plays an illegal move on its second turn: B wins.
        let mut players = racers();
        let mut a = Scripted::new("a", &(0..15).map(|x| (x, 0)).collect::<Vec<_>>());
        a.illegal_after = Some(1);
        players[0] = Box::new(a);
        let mut reasons = Vec::new();
        let report = m
            .play(&mut players, |r, _| {
                reasons.push((r.winner, r.reason.clone()))
            })
            .unwrap();
        assert_eq!(reasons[0].0, Some(1));
        assert!(
            reasons[0].1.contains("a played an illegal move"),
            "{}",
            reasons[0].1
        );
        assert_eq!((report.tally.wins, report.tally.losses), (0, 1));
        assert_eq!(report.forfeits, [1, 0]);
        let saved = std::fs::read_to_string(dir.join("0001.txt")).unwrap();
        assert!(saved.contains("# first: a"));
        assert!(saved.contains("# result: 0-1"));
        assert!(saved.contains(", forfeit)"), "{saved}");
        assert!(saved.lines().any(|l| l == "7,7"));
        std::fs::remove_dir_all(&dir).unwrap();

        // B errs on its first turn: A wins.
        let m = Match {
            record_dir: None,
            ..m
        };
        let mut players = racers();
        let mut b = Scripted::new("b", &[(0, 14)]);
        b.fail_after = Some(0);
        players[1] = Box::new(b);
        let mut reasons = Vec::new();
        let report = m
            .play(&mut players, |r, _| {
                reasons.push((r.winner, r.reason.clone()))
            })
            .unwrap();
        assert_eq!(reasons[0].0, Some(0));
        assert!(
            reasons[0].1.contains("b failed: crashed"),
            "{}",
            reasons[0].1
        );
        assert_eq!(report.tally.wins, 1);
        assert_eq!(report.forfeits, [0, 1]);
    }

    /// A row-0 runner and a player that scatters its stones along row 14 with gaps:
    /// A wins every game, with either colour.
    fn a_always_wins() -> [Box<dyn Player>; 2] {
        let row = (0..15).map(|x| (x, 0)).collect::<Vec<_>>();
        let gaps = (0..15).step_by(2).map(|x| (x, 14)).collect::<Vec<_>>();
        [
            Box::new(Scripted::new("a", &row)),
            Box::new(Scripted::new("b", &gaps)),
        ]
    }

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("banco-arena-{name}-{}", std::process::id()))
    }

    #[test]
    fn pairs_are_scored_together() {
        // The racers split every pair: each wins the game it starts.
        let m = Match::new(spec(), 5, parse("0,0 1,1\n-1,-1 2,2").unwrap());
        let report = m.play(&mut racers(), |_, _| {}).unwrap();
        assert_eq!(report.pairs.counts, [0, 0, 2, 0, 0]);
        // The fifth game has no twin: in the tally only.
        assert_eq!(report.tally.games(), 5);
        let report = m.play(&mut a_always_wins(), |_, _| {}).unwrap();
        assert_eq!(report.pairs.counts, [0, 0, 0, 0, 2]);
        assert_eq!(report.tally.wins, 5);
    }

    #[test]
    fn concurrent_games_score_as_serial_ones() {
        let m = Match {
            concurrency: 3,
            ..Match::new(spec(), 8, parse("0,0 1,1\n-1,-1 2,2").unwrap())
        };
        let made = AtomicUsize::new(0);
        let make = |_slot: usize| -> Result<[Box<dyn Player>; 2]> {
            made.fetch_add(1, Ordering::Relaxed);
            Ok(racers())
        };
        let mut numbers = Vec::new();
        let mut seen_games = Vec::new();
        let report = m
            .play_with(&make, |r, p| {
                numbers.push(r.number);
                seen_games.push(p.games);
                // Each game is the one its number says: opening and colours.
                let opening = if (r.number - 1) / 2 % 2 == 0 {
                    "0,0 1,1"
                } else {
                    "-1,-1 2,2"
                };
                assert_eq!(r.opening, opening);
                assert_eq!(r.first, (r.number - 1) % 2);
                assert_eq!(r.winner, Some(r.first));
            })
            .unwrap();
        // Three slots, three pairs of players.
        assert_eq!(made.load(Ordering::Relaxed), 3);
        numbers.sort_unstable();
        assert_eq!(numbers, (1..=8).collect::<Vec<_>>());
        assert_eq!(seen_games, (1..=8).collect::<Vec<_>>());
        assert_eq!(report.pairs.counts, [0, 0, 4, 0, 0]);
        assert_eq!((report.tally.wins, report.tally.losses), (4, 4));
        assert_eq!(report.stats[0].moves + report.stats[1].moves, 4 * 18);
        assert_eq!(report.names, ["a".to_string(), "b".to_string()]);
        // A slot whose players cannot be made fails the match.
        let broken = |_: usize| -> Result<[Box<dyn Player>; 2]> { bail!("no engine") };
        let err = m.play_with(&broken, |_, _| {}).unwrap_err();
        assert_eq!(err.to_string(), "no engine");
    }

    #[test]
    fn an_sprt_ends_the_match_when_it_decides() {
        let sprt = Sprt::parse(&["elo0=0 elo1=200"]).unwrap();
        let m = Match {
            games: None,
            sprt: Some(sprt),
            ..Match::new(spec(), 0, parse("0,0 1,1").unwrap())
        };
        let mut last = None;
        let report = m
            .play(&mut a_always_wins(), |_, p| last = Some(p.clone()))
            .unwrap();
        // Won pairs only: the LLR (fishtest: 2.93 after 7 pairs, 3.35 after 8) crosses
        // ln(19) = 2.94 at the eighth pair, and no game follows.
        let verdict = report.verdict.unwrap();
        assert_eq!(verdict.hypothesis, Hypothesis::H1);
        assert_eq!(verdict.pairs, 8);
        assert!((verdict.llr - 3.347_539).abs() < 1e-4, "{verdict:?}");
        assert_eq!(report.tally.games(), 16);
        let last = last.unwrap();
        assert_eq!(last.verdict, Some(verdict));
        assert_eq!(last.eta(), Some(Duration::ZERO));
        assert!(
            last.status_line()
                .contains("LLR 3.35 [-2.94, 2.94] H1 accepted"),
            "{}",
            last.status_line()
        );

        // Several at once: no game starts after the decision, those under way finish.
        let m = Match {
            concurrency: 2,
            ..m
        };
        let report = m.play_with(&|_| Ok(a_always_wins()), |_, _| {}).unwrap();
        assert_eq!(report.verdict.unwrap().pairs, 8);
        // Besides the 8 pairs: games of later pairs scored while a twin was still being
        // played (at most one per slot), and at most one game per slot under way (or
        // waiting to be scored) at the decision.
        let games = report.tally.games();
        assert!((16..=16 + 2 * 2).contains(&games), "{games}");

        // Without a count or a test a match would not end.
        let m = Match { sprt: None, ..m };
        assert!(m.play(&mut a_always_wins(), |_, _| {}).is_err());
    }

    #[test]
    fn every_game_goes_to_the_pgn_file() {
        let path = temp("pgn");
        let _ = std::fs::remove_file(&path);
        let m = Match {
            pgn: Some(path.clone()),
            budgets: [Some(Duration::from_millis(30)); 2],
            ..Match::new(spec(), 2, parse("0,0 1,1").unwrap())
        };
        m.play(&mut racers(), |_, _| {}).unwrap();
        // A second match appends.
        m.play(&mut racers(), |_, _| {}).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(text.matches("[Event \"a vs b\"]").count(), 4);
        assert_eq!(text.matches("[Round \"1.2\"]").count(), 2);
        assert!(
            text.contains("[White \"b\"]\n[Black \"a\"]\n[Result \"1-0\"]"),
            "{text}"
        );
        assert!(text.contains("[TimeControl \"0.03/move\"]"), "{text}");
        assert!(text.contains("[Termination \"normal\"]"), "{text}");
        assert!(text.contains("[Opening \"0,0 1,1\"]"), "{text}");
        // The opening's moves, then the players' with what they said.
        assert!(
            text.contains("1. h8 {book} i7 {book} 2. a15 {+1/3 0.030s} a1 {+1/3 0.030s}"),
            "{text}"
        );
        assert!(text.contains("{five} 1-0"), "{text}");
    }

    #[test]
    fn progress_reads_as_a_status_line() {
        let mut pairs = Pentanomial::default();
        for _ in 0..3 {
            pairs.add(Score::Win, Score::Draw);
        }
        pairs.add(Score::Loss, Score::Draw);
        let mut tally = Tally::default();
        for s in [
            Score::Win,
            Score::Draw,
            Score::Win,
            Score::Draw,
            Score::Win,
            Score::Draw,
            Score::Loss,
            Score::Draw,
        ] {
            tally.add(s);
        }
        let progress = Progress {
            games: 8,
            planned: Some(20),
            tally,
            pairs,
            sprt: None,
            llr: None,
            verdict: None,
            elapsed: Duration::from_secs(40),
        };
        // 12 games left at 5 s a game.
        assert_eq!(progress.eta(), Some(Duration::from_secs(60)));
        // fishtest's get_elo on these pairs: 88.67 ± 172.94, LOS 0.8755.
        assert_eq!(
            progress.status_line(),
            "games 8/20  +3 =4 -1  62.5%  pairs 4  Elo +89 ± 173  LOS 87.6%  ETA 1m00s"
        );
        // With a test and no count, the ETA comes from the LLR's drift: 1.0 in 4 pairs,
        // 1.94 to go, about 7.8 pairs, 15.5 games.
        let sprt = Sprt::default();
        let progress = Progress {
            planned: None,
            sprt: Some(sprt),
            llr: Some(1.0),
            ..progress
        };
        let eta = progress.eta().unwrap().as_secs_f64();
        assert!((eta - 2.0 * 7.777_756 * 5.0).abs() < 0.01, "{eta}");
        assert!(progress.status_line().contains("LLR 1.00 [-2.94, 2.94]"));
        assert_eq!(clock(Duration::from_secs(3725)), "1h02m");
        assert_eq!(clock(Duration::from_secs(42)), "42s");
    }
}
