//! An external caro engine spoken to over the Gomocup (piskvork "pbrain") protocol.
//!
//! The engine runs as a child process (`sh -c COMMAND`); a thread reads its stdout into a
//! channel so every wait has a timeout. Per game: `START size` (or `RECTSTART w,h`), the
//! rule and memory as `INFO`, then `RESTART` for later games. Per move: the time as
//! `INFO timeout_turn`, then `BEGIN` on an empty board, `TURN x,y` when the engine saw
//! every move but the opponent's last, `BOARD ... DONE` otherwise. `MESSAGE`/`DEBUG` lines
//! are skipped; `ERROR`, `UNKNOWN`, silence past the time or a dead process are errors
//! (the arena scores them as a loss).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use banco_engine::caro::{Point, Rule};
use banco_engine::game::{Game, GameSpec, Move};

use crate::player::{Player, Reply};

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

/// A running engine process.
struct Running {
    /// The process, to wait for or kill.
    child: Child,
    /// Where commands go.
    stdin: ChildStdin,
    /// Lines the engine printed, in order; disconnected when it exits.
    lines: Receiver<String>,
}

/// An external Gomocup engine as a [`Player`].
pub struct GomocupEngine {
    /// The shell command that starts it.
    command: String,
    /// Its name in results.
    name: String,
    /// The process, once started.
    running: Option<Running>,
    /// Moves the engine knows, in order (its own answers included).
    known: Vec<Move>,
    /// Whether a game was started since the process began (then `RESTART` is used).
    started: bool,
}

impl GomocupEngine {
    pub fn new(command: &str, name: String) -> GomocupEngine {
        GomocupEngine {
            command: command.to_string(),
            name,
            running: None,
            known: Vec::new(),
            started: false,
        }
    }

    fn spawn(&mut self) -> Result<&mut Running> {
        if self.running.is_none() {
            let mut child = Command::new("sh")
                .arg("-c")
                .arg(&self.command)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .with_context(|| format!("cannot start '{}'", self.command))?;
            let stdin = child.stdin.take().context("engine has no stdin")?;
            let stdout = child.stdout.take().context("engine has no stdout")?;
            let (tx, rx) = channel();
            std::thread::spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
            self.running = Some(Running {
                child,
                stdin,
                lines: rx,
            });
            self.started = false;
        }
        self.running.as_mut().context("engine not running")
    }

    fn send(&mut self, line: &str) -> Result<()> {
        let running = self.running.as_mut().context("engine not running")?;
        writeln!(running.stdin, "{line}")
            .and_then(|()| running.stdin.flush())
            .with_context(|| format!("{} stopped reading", self.name))
    }

    /// The next line that is not chatter, within `timeout`.
    fn answer(&mut self, timeout: Duration) -> Result<String> {
        let running = self.running.as_mut().context("engine not running")?;
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match running.lines.recv_timeout(left) {
                Ok(line) => {
                    let line = line.trim().to_string();
                    let word = line.split_whitespace().next().unwrap_or("");
                    match word.to_ascii_uppercase().as_str() {
                        "" | "MESSAGE" | "DEBUG" | "SUGGEST" => continue,
                        "ERROR" | "UNKNOWN" => bail!("{} said: {line}", self.name),
                        _ => return Ok(line),
                    }
                }
                Err(RecvTimeoutError::Timeout) => bail!("{} did not answer in time", self.name),
                Err(RecvTimeoutError::Disconnected) => bail!("{} exited", self.name),
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
        } = *spec
        else {
            bail!("{} plays caro only (Gomocup protocol)", self.name);
        };
        if self.started {
            // Engines without RESTART get a fresh process instead.
            self.send("RESTART")?;
            if !self
                .answer(START_TIMEOUT)
                .is_ok_and(|a| a.eq_ignore_ascii_case("OK"))
            {
                self.stop();
            }
        }
        if !self.started {
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
        self.started = true;
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
    /// Ends the process: `END`, a moment to leave on its own, then a kill.
    fn stop(&mut self) {
        if self.running.is_some() {
            let _ = self.send("END");
        }
        if let Some(mut running) = self.running.take() {
            let deadline = Instant::now() + Duration::from_millis(500);
            while Instant::now() < deadline {
                if matches!(running.child.try_wait(), Ok(Some(_))) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            if !matches!(running.child.try_wait(), Ok(Some(_))) {
                let _ = running.child.kill();
                let _ = running.child.wait();
            }
        }
        self.started = false;
    }
}

impl Drop for GomocupEngine {
    fn drop(&mut self) {
        self.stop();
    }
}

/// `x,y` as an engine prints it.
fn parse_point(line: &str) -> Option<Point> {
    let (x, y) = line.split_once(',')?;
    Some(Point::new(x.trim().parse().ok()?, y.trim().parse().ok()?))
}
