//! An external caro engine spoken to over the Gomocup (piskvork "pbrain") protocol.
//!
//! The engine runs as a child process ([`EngineProcess`]). Per game: `START size` (or
//! `RECTSTART w,h`), the rule and memory as `INFO`; later games on the same board begin
//! with `RESTART`, on another board in a fresh process. Per move: the time as
//! `INFO timeout_turn` when it changed, then `BEGIN` on an empty board, `TURN x,y` when the
//! engine saw every move but the opponent's last, `BOARD ... DONE` otherwise.
//! `MESSAGE`/`DEBUG` lines are skipped; `ERROR`, `UNKNOWN`, silence past the time or a dead
//! process are errors (the arena scores them as a forfeit).
//!
//! Like the established managers (piskvork, GomocupJudge), the arena makes sure a match
//! measures play, not the protocol's timing:
//! - **Warm-up.** A fresh process searches one throwaway position, untimed, before its
//!   first game: engines that allocate their hash table at their first search (Rapfi does)
//!   pay for it there, not on the clock.
//! - **No reply racing.** An engine may print its move before its command loop is ready
//!   for the next command (Rapfi drops the first word of a command that arrives in that
//!   instant). Before each move's commands the arena waits until the engine is listening:
//!   it sends `ABOUT` and waits for the answer (asking again if the first was lost), or,
//!   for an engine that never answers `ABOUT`, lets a short pause pass since its last
//!   move. The clock starts after that, when the move's commands are written.
//! - **Tolerance.** An answer may come up to [`GRACE`] past the turn time, GomocupJudge's
//!   default tolerance (settable: on a machine shared with heavy work an engine can be
//!   kept off the processor for longer than that).
//!
//! For `banco bot`, besides: a game clock told the Gomocup way ([`GomocupEngine::play_on`]:
//! `INFO timeout_match`, `INFO time_left`, `INFO timeout_turn`), games that start from
//! opening stones (given as a `BOARD`, when [`GomocupEngine::taking_openings`] is set),
//! [`probe`] (whether an engine plays a board size and rule: `START`/`RECTSTART` and
//! `INFO rule` answered with `ERROR` or not), and [`GomocupEngine::restart`] after a crash.
//!
//! Swap openings ([`GomocupEngine::swap2_on`], and [`Player::swap2`] for the arena) go
//! through Gomocup's Swap2 extension, `SWAP2BOARD`, stones, `DONE`: no stones asks for
//! the first three (`x,y x,y x,y`); three ask the second player (`SWAP`, a fourth stone
//! `x,y` to stay White, or two more stones `x,y x,y`); five ask the first player (`SWAP`
//! or a sixth stone as White). The one asked is always the side to move, White; `SWAP`
//! means it takes Black. The stones go as `x,y,field` lines like `BOARD`'s (field 1 the
//! asked side's, 2 the other's), not the bare `x,y` of the extension's examples: Rapfi
//! reads a field on every line and refuses a line without one (`ERROR Color is not a
//! valid value`), and engines that read `x,y` only skip what follows. The extension
//! has no Swap1: a Swap1 opening asks the same questions, and two more stones are no
//! answer in it (the caller refuses them).

use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use banco_rules::caro::{Point, Rule};
use banco_rules::game::{Game, GameSpec, Move};

use crate::player::{Budget, Player, Reply, SwapReply, parse_swap_reply};
use crate::process::EngineProcess;

/// How long an engine may take to start a game (loading weights, allocating tables) or to
/// search its warm-up position.
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// Extra time allowed past the per-move budget before the engine is out of time
/// (GomocupJudge's default tolerance).
pub const GRACE: Duration = Duration::from_millis(1000);
/// The per-move time when the arena sets none.
const DEFAULT_TURN: Duration = Duration::from_secs(1);
/// How long the first `ABOUT` of a process may take to be answered; an engine silent that
/// long is taken not to answer `ABOUT` at all.
const ABOUT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long to wait for an `ABOUT` answer before asking again (the first may have been
/// dropped by an engine still leaving its thinking state).
const READY_RETRY: Duration = Duration::from_millis(50);
/// How many times to ask before going on regardless.
const READY_TRIES: u32 = 40;
/// For engines that do not answer `ABOUT`: the pause after an engine's move before it is
/// sent anything else.
const SETTLE: Duration = Duration::from_millis(20);
/// The warm-up search's time.
const WARM_UP_TURN: Duration = Duration::from_millis(500);

/// The Gomocup rule number of a banco rule.
pub fn rule_number(rule: Rule) -> u32 {
    match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::CaroOverline => 8,
        Rule::Caro => 9,
        // Gomocup's bit 4: renju (Piskvork and Rapfi take 4).
        Rule::Renju => 4,
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
    /// Whether this process answers `ABOUT` (learnt when it starts): then `ABOUT` is how
    /// the arena knows it is listening.
    answers_about: bool,
    /// Whether this process has searched its warm-up position.
    warmed_up: bool,
    /// The turn time this process was last told.
    told_turn: Option<Duration>,
    /// When the engine's last move arrived: nothing is sent before it is ready again.
    last_move_at: Option<Instant>,
    /// How late past the turn time an answer may come.
    grace: Duration,
    /// Whether games may start from opening stones (sent as a `BOARD`): `banco bot`
    /// plays a room's openings; the arena plays its openings as moves and refuses them.
    openings: bool,
}

impl GomocupEngine {
    pub fn new(command: &str, name: String) -> GomocupEngine {
        GomocupEngine {
            command: command.to_string(),
            name,
            running: None,
            known: Vec::new(),
            started: None,
            answers_about: false,
            warmed_up: false,
            told_turn: None,
            last_move_at: None,
            grace: GRACE,
            openings: false,
        }
    }

    /// Lets games start from opening stones, which the engine is then given as a `BOARD`.
    pub fn taking_openings(mut self) -> GomocupEngine {
        self.openings = true;
        self
    }

    /// Ends the process: the next game starts a fresh one, which is told the whole
    /// position (an engine that crashed, or one left thinking past its time).
    pub fn restart(&mut self) {
        self.stop();
        self.known.clear();
    }

    /// Whether the engine's process has exited (crashed) since it started.
    pub fn crashed(&mut self) -> bool {
        self.running.as_mut().is_some_and(EngineProcess::exited)
    }

    /// Lets answers come up to `grace` past the turn time.
    pub fn set_grace(&mut self, grace: Duration) {
        self.grace = grace;
    }

    fn spawn(&mut self) -> Result<()> {
        if self.running.is_none() {
            self.running = Some(EngineProcess::spawn(&self.command, "END")?);
            self.started = None;
            self.warmed_up = false;
            self.told_turn = None;
            self.last_move_at = None;
            self.answers_about = false;
        }
        Ok(())
    }

    fn send(&mut self, line: &str) -> Result<()> {
        let name = &self.name;
        let running = self.running.as_mut().context("engine not running")?;
        running.send(line).map_err(|e| anyhow!("{name}: {e}"))
    }

    /// The next line that is not chatter (nor a late `ABOUT` answer), within `timeout`.
    fn answer(&mut self, timeout: Duration) -> Result<String> {
        self.answer_until(Instant::now() + timeout)
    }

    fn answer_until(&mut self, deadline: Instant) -> Result<String> {
        let name = &self.name;
        let running = self.running.as_mut().context("engine not running")?;
        loop {
            let line = running
                .next_line(deadline)
                .map_err(|e| anyhow!("{name}: {e}"))?;
            let line = line.trim().to_string();
            if is_about_answer(&line) {
                continue;
            }
            let word = line.split_whitespace().next().unwrap_or("");
            match word.to_ascii_uppercase().as_str() {
                "" | "MESSAGE" | "DEBUG" | "SUGGEST" => continue,
                "ERROR" | "UNKNOWN" => bail!("{name} said: {line}"),
                _ => return Ok(line),
            }
        }
    }

    /// Asks `ABOUT` once, at the start of a process: learns whether the engine answers it.
    fn probe_about(&mut self) -> Result<()> {
        self.send("ABOUT")?;
        self.answers_about = self.await_about(ABOUT_TIMEOUT)?;
        Ok(())
    }

    /// Waits up to `timeout` for an `ABOUT` answer, skipping chatter. `Ok(false)` when none
    /// came.
    fn await_about(&mut self, timeout: Duration) -> Result<bool> {
        let name = &self.name;
        let running = self.running.as_mut().context("engine not running")?;
        let deadline = Instant::now() + timeout;
        loop {
            match running.next_line(deadline) {
                Ok(line) if is_about_answer(line.trim()) => return Ok(true),
                Ok(_) => continue,
                Err(_) if Instant::now() >= deadline => return Ok(false),
                Err(e) => bail!("{name}: {e}"),
            }
        }
    }

    /// Returns once the engine is listening for a new command (see the module doc).
    fn wait_until_ready(&mut self) -> Result<()> {
        if self.answers_about {
            for _ in 0..READY_TRIES {
                self.send("ABOUT")?;
                if self.await_about(READY_RETRY)? {
                    return Ok(());
                }
            }
            bail!("{} stopped answering ABOUT", self.name);
        }
        if let Some(at) = self.last_move_at {
            std::thread::sleep(SETTLE.saturating_sub(at.elapsed()));
        }
        Ok(())
    }

    /// Tells the engine the turn time if it does not know it yet.
    fn tell_turn(&mut self, turn: Duration) -> Result<()> {
        if self.told_turn != Some(turn) {
            self.send(&format!("INFO timeout_turn {}", turn.as_millis()))?;
            self.told_turn = Some(turn);
        }
        Ok(())
    }

    /// The warm-up search: one opponent stone in the centre, untimed, then `RESTART`.
    /// An engine that does not take `RESTART` afterwards is started again, cold.
    fn warm_up(&mut self, width: u8, height: u8) -> Result<()> {
        self.warmed_up = true;
        self.tell_turn(WARM_UP_TURN)?;
        self.send("BOARD")?;
        self.send(&format!("{},{},2", width / 2, height / 2))?;
        self.send("DONE")?;
        let reply = self.answer(START_TIMEOUT)?;
        parse_point(&reply)
            .with_context(|| format!("{} answered '{reply}' to its warm-up", self.name))?;
        self.last_move_at = Some(Instant::now());
        self.wait_until_ready()?;
        self.send("RESTART")?;
        if !self
            .answer(START_TIMEOUT)
            .is_ok_and(|a| a.eq_ignore_ascii_case("OK"))
        {
            self.stop();
            self.start_process(width, height)?;
            self.warmed_up = true;
        }
        Ok(())
    }

    /// A fresh process with a board of `width` x `height`.
    fn start_process(&mut self, width: u8, height: u8) -> Result<()> {
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
        self.probe_about()?;
        self.started = Some((width, height));
        Ok(())
    }
}

/// Whether `line` is an engine's answer to `ABOUT` (`name="...", version=...`).
fn is_about_answer(line: &str) -> bool {
    line.get(..5)
        .is_some_and(|head| head.eq_ignore_ascii_case("name="))
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
        if !opening.is_empty() && !self.openings {
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
            self.wait_until_ready()?;
            self.send("RESTART")?;
            if !self
                .answer(START_TIMEOUT)
                .is_ok_and(|a| a.eq_ignore_ascii_case("OK"))
            {
                self.stop();
            }
        }
        if self.started.is_none() {
            self.start_process(width, height)?;
        }
        self.known.clear();
        self.send(&format!("INFO rule {}", rule_number(rule)))?;
        self.send("INFO max_memory 268435456")?;
        self.send("INFO timeout_match 0")?;
        if !self.warmed_up {
            self.warm_up(width, height)?;
        }
        Ok(())
    }

    fn play(&mut self, game: &Game, budget: Option<Duration>) -> Result<Reply> {
        self.play_on(game, Budget::Move(budget.unwrap_or(DEFAULT_TURN)))
    }

    fn play_clock(&mut self, game: &Game, budget: Budget) -> Result<Reply> {
        self.play_on(game, budget)
    }

    fn swap2(&mut self, stones: &[Point], budget: Option<Duration>) -> Result<SwapReply> {
        self.swap2_on(stones, Budget::Move(budget.unwrap_or(DEFAULT_TURN)))
    }
}

impl GomocupEngine {
    /// Tells the engine its time for the next answer (see [`GomocupEngine::play_on`]);
    /// returns the time it has.
    fn tell_budget(&mut self, budget: Budget) -> Result<Duration> {
        let turn = match budget {
            Budget::Move(turn) => turn,
            Budget::Clock { own, initial, .. } => {
                self.send(&format!("INFO timeout_match {}", initial.as_millis()))?;
                self.send(&format!("INFO time_left {}", own.as_millis()))?;
                own
            }
        };
        self.tell_turn(turn)?;
        Ok(turn)
    }

    /// The engine's answer in a swap opening of the game started with
    /// [`Player::new_game`] (on its empty board), given the `stones` placed so far
    /// (none, three or five, X first), within `budget` (told and awaited as for a move).
    /// `Err` when it answers `ERROR`/`UNKNOWN` (an engine without the extension), late,
    /// or something that is no answer to this many stones; whether its stones are legal
    /// is the caller's to check.
    pub fn swap2_on(&mut self, stones: &[Point], budget: Budget) -> Result<SwapReply> {
        if self.running.is_none() || self.started.is_none() {
            bail!("{}: no game started for the swap opening", self.name);
        }
        self.wait_until_ready()?;
        let turn = self.tell_budget(budget)?;
        let start = Instant::now();
        self.send("SWAP2BOARD")?;
        // Field 1: the asked side's stones (the side to move), 2: the other's.
        let own_parity = stones.len() % 2;
        for (i, p) in stones.iter().enumerate() {
            let field = if i % 2 == own_parity { 1 } else { 2 };
            self.send(&format!("{},{},{field}", p.x, p.y))?;
        }
        self.send("DONE")?;
        let line = self
            .answer_until(start + turn + self.grace)
            .with_context(|| format!("in the swap opening after {} stones", stones.len()))?;
        self.last_move_at = Some(Instant::now());
        // The engine's board now holds the opening (and any stone it added): the next
        // move tells it the whole position again.
        self.known.clear();
        parse_swap_reply(stones.len(), &line).map_err(|e| anyhow!("{} {e}", self.name))
    }

    /// The move for the side to move in `game` within `budget`: a per-move time as
    /// `INFO timeout_turn`; a game clock as `INFO timeout_match` (the clock's start),
    /// `INFO time_left` and `INFO timeout_turn` (both the time left: Gomocup has no
    /// increment). The answer is awaited until the time is out plus the grace.
    pub fn play_on(&mut self, game: &Game, budget: Budget) -> Result<Reply> {
        let Game::Caro(g) = game else {
            bail!("{} plays caro only", self.name);
        };
        self.wait_until_ready()?;
        let turn = self.tell_budget(budget)?;
        let moves = game.moves();
        let opening = g.opening();
        // The engine knows the opening only once it was given a BOARD.
        let knows_opening = opening.is_empty() || !self.known.is_empty();
        let start = Instant::now();
        if moves.is_empty() && opening.is_empty() {
            self.send("BEGIN")?;
        } else if knows_opening
            && moves.len() == self.known.len() + 1
            && moves.starts_with(&self.known)
        {
            let Some(Move::Caro(p)) = moves.last() else {
                bail!("not a caro move");
            };
            self.send(&format!("TURN {},{}", p.x, p.y))?;
        } else {
            self.send("BOARD")?;
            // Field 1: the engine's own stones (the side to move), 2: the opponent's.
            // Opening stones come first, alternating like moves.
            let own_parity = (opening.len() + moves.len()) % 2;
            for (i, p) in opening.iter().chain(g.moves()).enumerate() {
                let field = if i % 2 == own_parity { 1 } else { 2 };
                self.send(&format!("{},{},{field}", p.x, p.y))?;
            }
            self.send("DONE")?;
        }
        let line = self.answer_until(start + turn + self.grace)?;
        let elapsed = start.elapsed();
        self.last_move_at = Some(Instant::now());
        let p = parse_point(&line).with_context(|| format!("{} answered '{line}'", self.name))?;
        self.known = moves;
        self.known.push(Move::Caro(p));
        Ok(Reply::new(Move::Caro(p), elapsed))
    }

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

/// Whether the engine started by `command` plays caro on a `width` x `height` board under
/// `rule`: asked in a process of its own, which is ended afterwards. `Err` says why not:
/// the engine's own `ERROR` line, or that it did not start.
///
/// The board is asked with `START n` (`RECTSTART w,h` for a rectangle), which must be
/// answered `OK`; then the rule with `INFO rule N` followed by `ABOUT`: an `ERROR` before
/// the `ABOUT` answer refuses the rule. An engine that answers neither within a few
/// seconds is taken to accept it (`INFO` has no answer in the protocol).
pub fn probe(command: &str, width: u8, height: u8, rule: Rule) -> std::result::Result<(), String> {
    let mut process = EngineProcess::spawn(command, "END").map_err(|e| format!("{e:#}"))?;
    let start = if width == height {
        format!("START {width}")
    } else {
        format!("RECTSTART {width},{height}")
    };
    process.send(&start).map_err(|e| format!("{e:#}"))?;
    let deadline = Instant::now() + START_TIMEOUT;
    loop {
        let line = process.next_line(deadline).map_err(|e| format!("{e:#}"))?;
        let line = line.trim();
        let word = line
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        match word.as_str() {
            "OK" => break,
            "" | "MESSAGE" | "DEBUG" => continue,
            _ => return Err(format!("{width}x{height}: {line}")),
        }
    }
    let number = rule_number(rule);
    process
        .send(&format!("INFO rule {number}"))
        .and_then(|()| process.send("ABOUT"))
        .map_err(|e| format!("{e:#}"))?;
    let deadline = Instant::now() + ABOUT_TIMEOUT;
    while let Ok(line) = process.next_line(deadline) {
        let line = line.trim();
        if is_about_answer(line) {
            return Ok(());
        }
        let word = line
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        if word == "ERROR" {
            return Err(format!("rule {number}: {line}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_rules::caro;

    /// A shell-script engine in a fresh folder that writes every line it is sent to
    /// `log` and answers like a Gomocup engine that plays freestyle only. Returns the
    /// command and the log's path.
    fn scripted(tag: &str) -> (String, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("banco-adapters-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("log");
        let _ = std::fs::remove_file(&log);
        let script = format!(
            "while read -r line; do\n  echo \"$line\" >> '{}'\n  case \"$line\" in\n    START*|RESTART*) echo OK ;;\n    'INFO rule 0') ;;\n    'INFO rule'*) echo 'ERROR unsupported rule' ;;\n    ABOUT*) echo 'name=\"scripted\"' ;;\n    DONE*|BEGIN*|TURN*) echo 0,0 ;;\n  esac\ndone\n",
            log.display()
        );
        let path = dir.join("engine.sh");
        std::fs::write(&path, script).unwrap();
        (format!("sh '{}'", path.display()), log)
    }

    /// A shell-script engine that answers `SWAP2BOARD` by the number of stones it is
    /// given: three stones for none, two more for three, `SWAP` for five.
    fn swapping(tag: &str) -> (String, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("banco-adapters-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("log");
        let _ = std::fs::remove_file(&log);
        let script = format!(
            "n=-1\nwhile read -r line; do\n  echo \"$line\" >> '{}'\n  case \"$line\" in\n    START*|RESTART*) echo OK ;;\n    ABOUT*) echo 'name=\"swapping\"' ;;\n    SWAP2BOARD) n=0 ;;\n    DONE) case $n in 0) echo '7,7 8,7 9,9' ;; 3) echo 'MESSAGE thinking'; echo '8,8 8,6' ;; 5) echo SWAP ;; *) echo 0,0 ;; esac; n=-1 ;;\n    [0-9]*) if [ $n -ge 0 ]; then n=$((n+1)); fi ;;\n    BEGIN*|TURN*) echo 0,0 ;;\n  esac\ndone\n",
            log.display()
        );
        let path = dir.join("engine.sh");
        std::fs::write(&path, script).unwrap();
        (format!("sh '{}'", path.display()), log)
    }

    #[test]
    fn swap_openings_go_as_swap2board_with_fields() {
        let (command, log) = swapping("swap2");
        let mut engine = GomocupEngine::new(&command, "swapping".into());
        let spec = GameSpec::Caro {
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
            opening: Vec::new(),
        };
        let p = caro::Point::new;
        let turn = Budget::Move(Duration::from_secs(5));
        assert!(engine.swap2_on(&[], turn).is_err(), "no game started yet");
        engine.new_game(&spec).unwrap();
        let three = [p(7, 7), p(8, 7), p(9, 9)];
        assert_eq!(
            engine.swap2_on(&[], turn).unwrap(),
            SwapReply::Propose(three)
        );
        assert_eq!(
            engine.swap2_on(&three, turn).unwrap(),
            SwapReply::PlaceTwo([p(8, 8), p(8, 6)])
        );
        let five = [p(7, 7), p(8, 7), p(9, 9), p(8, 8), p(8, 6)];
        assert_eq!(engine.swap2_on(&five, turn).unwrap(), SwapReply::Swap);
        let sent = std::fs::read_to_string(&log).unwrap();
        let lines: Vec<&str> = sent.lines().collect();
        // Five stones: the asked side (O, to move) is field 1.
        let last = lines.iter().rposition(|l| *l == "SWAP2BOARD").unwrap();
        assert_eq!(
            &lines[last + 1..last + 7],
            ["7,7,2", "8,7,1", "9,9,2", "8,8,1", "8,6,2", "DONE"]
        );
        // After the opening the game is told as a BOARD, stones played as moves.
        let mut game = Game::new(&spec).unwrap();
        for q in five {
            game.play(Move::Caro(q)).unwrap();
        }
        assert_eq!(engine.play(&game, None).unwrap().mv, Move::Caro(p(0, 0)));
        let sent = std::fs::read_to_string(&log).unwrap();
        assert!(sent.ends_with("8,6,2\nDONE\n"), "{sent}");
        // An engine without the extension answers nothing a swap opening can use.
        let (plain, _) = scripted("noswap");
        let mut engine = GomocupEngine::new(&plain, "plain".into());
        engine.new_game(&spec).unwrap();
        let err = format!("{:#}", engine.swap2_on(&[], turn).unwrap_err());
        assert!(err.contains("answered '0,0'"), "{err}");
    }

    #[test]
    fn a_probe_hears_the_engine_refuse_a_rule() {
        let (command, _) = scripted("probe");
        assert_eq!(probe(&command, 15, 15, Rule::Freestyle), Ok(()));
        let refused = probe(&command, 15, 15, Rule::Caro).unwrap_err();
        assert!(
            refused.contains("rule 9") && refused.contains("unsupported"),
            "{refused}"
        );
        assert!(probe("exit 3", 15, 15, Rule::Freestyle).is_err());
    }

    #[test]
    fn opening_stones_go_as_a_board_and_a_clock_as_time_left() {
        let (command, log) = scripted("opening");
        let mut engine = GomocupEngine::new(&command, "scripted".into()).taking_openings();
        let p = caro::Point::new;
        let spec = GameSpec::Caro {
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
            opening: vec![p(7, 7), p(7, 8), p(8, 8)],
        };
        engine.new_game(&spec).unwrap();
        let game = Game::new(&spec).unwrap();
        let budget = Budget::Clock {
            own: Duration::from_secs(5),
            other: Duration::from_secs(6),
            increment: Duration::ZERO,
            initial: Duration::from_secs(60),
        };
        let reply = engine.play_on(&game, budget).unwrap();
        assert_eq!(reply.mv, Move::Caro(p(0, 0)));
        let sent = std::fs::read_to_string(&log).unwrap();
        let lines: Vec<&str> = sent.lines().collect();
        // O moves after three opening stones: its own stone is field 1.
        let board = lines.iter().rposition(|l| *l == "BOARD").unwrap();
        assert_eq!(
            &lines[board + 1..board + 5],
            ["7,7,2", "7,8,1", "8,8,2", "DONE"]
        );
        assert!(lines.contains(&"INFO timeout_match 60000"), "{lines:?}");
        assert!(lines.contains(&"INFO time_left 5000"), "{lines:?}");
        assert!(lines.contains(&"INFO timeout_turn 5000"), "{lines:?}");
        // The arena's engines still refuse games given as stones.
        let mut arena = GomocupEngine::new(&command, "scripted".into());
        assert!(arena.new_game(&spec).is_err());
    }
}
