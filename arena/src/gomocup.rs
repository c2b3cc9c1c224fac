//! An external caro engine spoken to over the Gomocup (piskvork "pbrain") protocol.
//!
//! The engine runs as a child process ([`EngineProcess`]). Per game: `START size` (or
//! `RECTSTART w,h`), the rule and memory as `INFO`; later games on the same board begin
//! with `RESTART`, on another board in a fresh process. Per move: the time as
//! `INFO timeout_turn`, then `BEGIN` on an empty board, `TURN x,y` when the engine saw
//! every move but the opponent's last, `BOARD ... DONE` otherwise. `MESSAGE`/`DEBUG` lines
//! are skipped; `ERROR`, `UNKNOWN`, silence past the time or a dead process are errors
//! (the arena scores them as a loss).

use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use banco_engine::caro::{Point, Rule};
use banco_engine::game::{Game, GameSpec, Move};

use crate::player::{Player, Reply};
use crate::process::EngineProcess;

/// How long an engine may take to start a game (loading weights, allocating tables).
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// Extra time allowed past the per-move budget before the engine is out of time.
const GRACE: Duration = Duration::from_millis(500);
/// The per-move time when the arena sets none.
const DEFAULT_TURN: Duration = Duration::from_secs(1);

/// The Gomocup rule number of a banco rule.
pub fn rule_number(rule: Rule) -> u32 {
    match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::CaroOverline => 8,
        Rule::Caro => 9,
    }
}

/// An external Gomocup engine as a [`Player`].
pub struct GomocupEngine {
    /// The shell command that starts it.
    command: String,
    /// Its name in results.
    name: String,
    /// The process, once started.
    running: Option<EngineProcess>,
    /// Moves the engine knows, in order (its own answers included).
    known: Vec<Move>,
    /// The board size of the last game started in this process, if any: the next game on
    /// the same board begins with `RESTART`, one on another board in a fresh process
    /// (`RESTART` keeps the board, and not every engine takes a second `START`).
    started: Option<(u8, u8)>,
}

impl GomocupEngine {
    pub fn new(command: &str, name: String) -> GomocupEngine {
        GomocupEngine {
            command: command.to_string(),
            name,
            running: None,
            known: Vec::new(),
            started: None,
        }
    }

    fn spawn(&mut self) -> Result<()> {
        if self.running.is_none() {
            self.running = Some(EngineProcess::spawn(&self.command, "END")?);
            self.started = None;
        }
        Ok(())
    }

    fn send(&mut self, line: &str) -> Result<()> {
        let name = &self.name;
        let running = self.running.as_mut().context("engine not running")?;
        running.send(line).map_err(|e| anyhow!("{name}: {e}"))
    }

    /// The next line that is not chatter, within `timeout`.
    fn answer(&mut self, timeout: Duration) -> Result<String> {
        let name = &self.name;
        let running = self.running.as_mut().context("engine not running")?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = running
                .next_line(deadline)
                .map_err(|e| anyhow!("{name}: {e}"))?;
            let line = line.trim().to_string();
            let word = line.split_whitespace().next().unwrap_or("");
            match word.to_ascii_uppercase().as_str() {
                "" | "MESSAGE" | "DEBUG" | "SUGGEST" => continue,
                "ERROR" | "UNKNOWN" => bail!("{name} said: {line}"),
                _ => return Ok(line),
            }
        }
    }
}

impl Player for GomocupEngine {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, spec: &GameSpec) -> Result<()> {
        let GameSpec::Caro {
            width,
            height,
            rule,
            ref opening,
        } = *spec
        else {
            bail!("{} plays caro only (Gomocup protocol)", self.name);
        };
        if !opening.is_empty() {
            // The arena plays its openings as moves; stones outside the move list would
            // never reach the engine.
            bail!(
                "{}: games given as opening stones are not supported",
                self.name
            );
        }
        if self.started.is_some_and(|size| size != (width, height)) {
            self.stop();
        }
        if self.started.is_some() {
            // Engines without RESTART get a fresh process instead.
            self.send("RESTART")?;
            if !self
                .answer(START_TIMEOUT)
                .is_ok_and(|a| a.eq_ignore_ascii_case("OK"))
            {
                self.stop();
            }
        }
        if self.started.is_none() {
            self.spawn()?;
            if width == height {
                self.send(&format!("START {width}"))?;
            } else {
                self.send(&format!("RECTSTART {width},{height}"))?;
            }
            let ok = self.answer(START_TIMEOUT)?;
            if !ok.eq_ignore_ascii_case("OK") {
                bail!("{} answered '{ok}' to the start of a game", self.name);
            }
        }
        self.started = Some((width, height));
        self.known.clear();
        self.send(&format!("INFO rule {}", rule_number(rule)))?;
        self.send("INFO max_memory 268435456")?;
        self.send("INFO timeout_match 0")?;
        Ok(())
    }

    fn play(&mut self, game: &Game, budget: Option<Duration>) -> Result<Reply> {
        let Game::Caro(g) = game else {
            bail!("{} plays caro only", self.name);
        };
        let turn = budget.unwrap_or(DEFAULT_TURN);
        self.send(&format!("INFO timeout_turn {}", turn.as_millis()))?;
        let moves = game.moves();
        let start = Instant::now();
        if moves.is_empty() {
            self.send("BEGIN")?;
        } else if moves.len() == self.known.len() + 1 && moves.starts_with(&self.known) {
            let Some(Move::Caro(p)) = moves.last() else {
                bail!("not a caro move");
            };
            self.send(&format!("TURN {},{}", p.x, p.y))?;
        } else {
            self.send("BOARD")?;
            // Field 1: the engine's own stones (the side to move), 2: the opponent's.
            let own_parity = moves.len() % 2;
            for (i, p) in g.moves().iter().enumerate() {
                let field = if i % 2 == own_parity { 1 } else { 2 };
                self.send(&format!("{},{},{field}", p.x, p.y))?;
            }
            self.send("DONE")?;
        }
        let line = self.answer(turn + GRACE)?;
        let elapsed = start.elapsed();
        let p = parse_point(&line).with_context(|| format!("{} answered '{line}'", self.name))?;
        self.known = moves;
        self.known.push(Move::Caro(p));
        Ok(Reply {
            mv: Move::Caro(p),
            depth: None,
            elapsed,
        })
    }
}

impl GomocupEngine {
    /// Ends the process (`END`, a moment to leave on its own, then a kill).
    fn stop(&mut self) {
        self.running = None;
        self.started = None;
    }
}

/// `x,y` as an engine prints it.
fn parse_point(line: &str) -> Option<Point> {
    let (x, y) = line.split_once(',')?;
    Some(Point::new(x.trim().parse().ok()?, y.trim().parse().ok()?))
}
