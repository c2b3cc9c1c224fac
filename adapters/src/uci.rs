//! An external xiangqi engine spoken to over UCI (the manager side), as a [`Player`].
//!
//! The engine runs as a child process ([`EngineProcess`]). At start: `uci` (waiting for `uciok`), xiangqi
//! selected with `UCI_Variant` when the engine offers variants (Fairy-Stockfish), then
//! `isready`. Per game `ucinewgame`; per move `position fen START moves ...` and
//! `go movetime N`, answered by `bestmove`.
//!
//! Engines disagree on rank numbers: UCCI and banco count ranks 0..9 (`h2e2`), while
//! Fairy-Stockfish's UCI mode counts 1..10 (`h3e3`). The convention is read from the
//! engine's own move list for the start position (`go perft 1`: a rank 10 gives it away)
//! and moves are translated both ways.
//!
//! For `banco bot`, besides: a game clock told the UCI way ([`UciEngine::play_on`]:
//! `go wtime btime winc binc`), an engine whose `UCI_Variant` offers no xiangqi refused at
//! start, and [`UciEngine::restart`] after a crash.

use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use banco_rules::game::{Game, GameSpec, Move};
use banco_rules::xiangqi;

use crate::player::{Budget, Eval, Player, Reply};
use crate::process::EngineProcess;
use banco_rules::xiangqi::piece::Color;

/// How long an engine may take to start (loading weights, allocating tables).
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// Extra time allowed past the per-move budget before the engine is out of time. Wide,
/// because a match measures strength, not timing: on a machine busy with other work an
/// engine that uses its whole budget (Fairy-Stockfish does, under `go movetime`) was
/// seen answering more than a second late, which would lose it a game off the board.
/// Lateness is still counted in the match's overrun statistics.
const GRACE: Duration = Duration::from_millis(3000);
/// The per-move time when the arena sets none.
const DEFAULT_TURN: Duration = Duration::from_secs(1);
/// How long a move searched to a node count may take before the engine is given up on.
const NODES_TIMEOUT: Duration = Duration::from_secs(120);

/// A running engine process.
struct Running {
    /// The process (asked to `quit`, then killed, on drop).
    process: EngineProcess,
    /// Ranks are written 1..10 instead of 0..9.
    one_based: bool,
    /// The engine's `id name`, up to any bracketed build details.
    id: Option<String>,
}

impl Running {
    fn send(&mut self, line: &str) -> Result<()> {
        self.process.send(line)
    }

    /// Reads lines until `done` says so (returning that line) or `timeout` passes.
    fn read_until(&mut self, timeout: Duration, done: impl FnMut(&str) -> bool) -> Result<String> {
        self.process.read_until(timeout, done)
    }

    fn ready(&mut self, timeout: Duration) -> Result<()> {
        self.send("isready")?;
        self.read_until(timeout, |l| l == "readyok").map(|_| ())
    }

    fn write_move(&self, mv: xiangqi::Move) -> String {
        if !self.one_based {
            return mv.to_string();
        }
        let (f, t) = (mv.from(), mv.to());
        format!(
            "{}{}{}{}",
            char::from(b'a' + f.file()),
            f.rank() + 1,
            char::from(b'a' + t.file()),
            t.rank() + 1
        )
    }

    fn read_move(&self, text: &str) -> Option<xiangqi::Move> {
        if !self.one_based {
            return text.parse().ok();
        }
        // A file letter and a rank 1..10, twice.
        let second = text
            .char_indices()
            .skip(1)
            .find(|(_, c)| c.is_ascii_alphabetic())?
            .0;
        let square = |s: &str| -> Option<String> {
            let mut chars = s.chars();
            let file = chars.next()?;
            let rank: u8 = chars.as_str().parse().ok()?;
            Some(format!("{file}{}", rank.checked_sub(1)?))
        };
        format!("{}{}", square(&text[..second])?, square(&text[second..])?)
            .parse()
            .ok()
    }
}

/// An external UCI xiangqi engine as a [`Player`].
pub struct UciEngine {
    /// The shell command that starts it.
    command: String,
    /// Its name in results.
    name: String,
    /// The process, once started.
    running: Option<Running>,
    /// Nodes per move (`go nodes N`), when the match counts nodes.
    nodes: Option<u64>,
}

impl UciEngine {
    /// An engine that starts on first use; `name` is what results call it.
    pub fn new(command: &str, name: String) -> UciEngine {
        UciEngine {
            command: command.to_string(),
            name,
            running: None,
            nodes: None,
        }
    }

    /// Starts the engine now and names it `uci:` + its `id name` (`uci:Fairy-Stockfish`).
    pub fn started(command: &str) -> Result<UciEngine> {
        let mut engine = UciEngine::new(command, format!("uci:{command}"));
        let id = engine.start()?.id.clone();
        if let Some(id) = id {
            engine.name = format!("uci:{id}");
        }
        Ok(engine)
    }

    fn start(&mut self) -> Result<&mut Running> {
        if self.running.is_none() {
            let process = EngineProcess::spawn(&self.command, "quit")?;
            let mut running = Running {
                process,
                one_based: false,
                id: None,
            };
            running.send("uci")?;
            let mut variants = false;
            let mut no_xiangqi = false;
            let mut id = None;
            running
                .read_until(START_TIMEOUT, |line| {
                    if line.starts_with("option name UCI_Variant") {
                        variants = true;
                        // A list of variants (`var chess var xiangqi ...`) without xiangqi.
                        let words: Vec<&str> = line.split_whitespace().collect();
                        no_xiangqi = words.contains(&"var") && !words.contains(&"xiangqi");
                    }
                    if let Some(name) = line.strip_prefix("id name ") {
                        let short = name.split(" [").next().unwrap_or(name).trim();
                        id = Some(short.split_whitespace().collect::<Vec<_>>().join("-"));
                    }
                    line == "uciok"
                })
                .context("no uciok")?;
            running.id = id;
            if no_xiangqi {
                bail!("its UCI_Variant option offers no xiangqi");
            }
            if variants {
                running.send("setoption name UCI_Variant value xiangqi")?;
            }
            running.ready(START_TIMEOUT)?;
            running.send("position startpos")?;
            running.send("go perft 1")?;
            let mut rank_ten = false;
            running
                .read_until(START_TIMEOUT, |line| {
                    rank_ten |= line
                        .split_once(':')
                        .is_some_and(|(mv, _)| mv.ends_with("10"));
                    line.starts_with("Nodes searched")
                })
                .context("no answer to 'go perft 1'")?;
            running.one_based = rank_ten;
            self.running = Some(running);
        }
        self.running.as_mut().context("the engine is not running")
    }
}

impl Player for UciEngine {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, spec: &GameSpec) -> Result<()> {
        if !matches!(spec, GameSpec::Xiangqi { .. }) {
            bail!("{} plays xiangqi only", self.name);
        }
        let running = self.start()?;
        running.send("ucinewgame")?;
        running.ready(START_TIMEOUT)
    }

    fn limit_nodes(&mut self, nodes: u64) -> Result<()> {
        self.nodes = Some(nodes);
        Ok(())
    }

    fn play(&mut self, game: &Game, budget: Option<Duration>) -> Result<Reply> {
        let nodes = self.nodes;
        let turn = budget.unwrap_or(DEFAULT_TURN);
        let go = match (nodes, budget) {
            (Some(n), Some(t)) => (
                format!("go nodes {n} movetime {}", t.as_millis().max(1)),
                t + GRACE,
            ),
            (Some(n), None) => (format!("go nodes {n}"), NODES_TIMEOUT),
            (None, _) => (
                format!("go movetime {}", turn.as_millis().max(1)),
                turn + GRACE,
            ),
        };
        self.search(game, go)
    }

    fn play_clock(&mut self, game: &Game, budget: Budget) -> Result<Reply> {
        self.play_on(game, budget)
    }
}

impl UciEngine {
    /// The move for the side to move in `game` within `budget`: a per-move time as
    /// `go movetime`, a game clock as `go wtime btime winc binc` (the mover's clock on its
    /// colour's side). The answer is awaited until the time is out plus the grace.
    pub fn play_on(&mut self, game: &Game, budget: Budget) -> Result<Reply> {
        let Game::Xiangqi(g) = game else {
            bail!("{} plays xiangqi only", self.name);
        };
        let go = match budget {
            Budget::Move(turn) => format!("go movetime {}", turn.as_millis().max(1)),
            Budget::Clock {
                own,
                other,
                increment,
                ..
            } => {
                let (red, black) = match g.to_move() {
                    Color::Red => (own, other),
                    Color::Black => (other, own),
                };
                let inc = increment.as_millis();
                format!(
                    "go wtime {} btime {} winc {inc} binc {inc}",
                    red.as_millis(),
                    black.as_millis()
                )
            }
        };
        self.search(game, (go, budget.most() + GRACE))
    }

    /// Ends the process: the next game starts a fresh one (an engine that crashed, or
    /// one left thinking past its time). UCI engines are told the whole position at
    /// every move, so nothing else is lost.
    pub fn restart(&mut self) {
        self.running = None;
    }

    /// Whether the engine's process has exited (crashed) since it started.
    pub fn crashed(&mut self) -> bool {
        self.running.as_mut().is_some_and(|r| r.process.exited())
    }

    /// Sends the position and `go` (the command and how long to wait for `bestmove`),
    /// and reads the answer with the depth and score the engine reported on the way.
    fn search(&mut self, game: &Game, (go, wait): (String, Duration)) -> Result<Reply> {
        let Game::Xiangqi(g) = game else {
            bail!("{} plays xiangqi only", self.name);
        };
        let running = self.running.as_mut().context("new_game was not called")?;
        let moves: Vec<String> = g.moves().map(|m| running.write_move(m)).collect();
        let mut position = format!("position fen {}", g.start_fen());
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        let start = Instant::now();
        running.send(&position)?;
        running.send(&go)?;
        let mut depth = None;
        let mut eval = None;
        let line = running.read_until(wait, |line| {
            let mut words = line.split_whitespace();
            if words.next() == Some("info") {
                while let Some(w) = words.next() {
                    match w {
                        "depth" => depth = words.next().and_then(|d| d.parse().ok()).or(depth),
                        "score" => eval = read_score(&mut words).or(eval),
                        _ => {}
                    }
                }
            }
            line.starts_with("bestmove")
        })?;
        let text = line.split_whitespace().nth(1).unwrap_or("");
        let mv = running
            .read_move(text)
            .with_context(|| format!("'{line}' names no move"))?;
        Ok(Reply {
            mv: Move::Xiangqi(mv),
            depth,
            eval,
            elapsed: start.elapsed(),
        })
    }
}

/// The score of an `info ... score cp N` or `score mate N` (N in moves, as UCI counts
/// them) line, the words after `score`.
fn read_score<'a>(words: &mut impl Iterator<Item = &'a str>) -> Option<Eval> {
    let kind = words.next()?;
    let n: i32 = words.next()?.parse().ok()?;
    match kind {
        "cp" => Some(Eval::Units(n)),
        // Mate in n moves is 2n - 1 plies; mated in n moves, 2n.
        "mate" if n > 0 => Some(Eval::MateIn(2 * n - 1)),
        "mate" => Some(Eval::MateIn(2 * n)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shell-script UCI engine that logs what it is sent; `variants` is its
    /// `UCI_Variant` option line, if any.
    fn scripted(tag: &str, variants: &str) -> (String, std::path::PathBuf) {
        let dir =
            std::env::temp_dir().join(format!("banco-adapters-uci-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("log");
        let _ = std::fs::remove_file(&log);
        let script = format!(
            "while read -r line; do\n  echo \"$line\" >> '{}'\n  case \"$line\" in\n    uci) echo 'id name Scripted'; {variants} echo uciok ;;\n    isready) echo readyok ;;\n    'go perft'*) echo 'h2e2: 1'; echo 'Nodes searched: 44' ;;\n    go*) echo 'info depth 3 score cp 120'; echo 'bestmove h2e2' ;;\n  esac\ndone\n",
            log.display()
        );
        let path = dir.join("engine.sh");
        std::fs::write(&path, script).unwrap();
        (format!("sh '{}'", path.display()), log)
    }

    #[test]
    fn a_clock_goes_as_wtime_and_btime_and_the_score_comes_back() {
        let (command, log) = scripted("clock", "");
        let mut engine = UciEngine::new(&command, "scripted".into());
        let spec = GameSpec::Xiangqi { fen: None };
        engine.new_game(&spec).unwrap();
        let game = Game::new(&spec).unwrap();
        let budget = Budget::Clock {
            own: Duration::from_millis(5000),
            other: Duration::from_millis(7000),
            increment: Duration::from_millis(300),
            initial: Duration::from_secs(60),
        };
        let reply = engine.play_on(&game, budget).unwrap();
        assert_eq!(reply.eval, Some(Eval::Units(120)));
        let sent = std::fs::read_to_string(&log).unwrap();
        assert!(
            sent.lines()
                .any(|l| l == "go wtime 5000 btime 7000 winc 300 binc 300"),
            "{sent}"
        );
    }

    #[test]
    fn an_engine_whose_variants_hold_no_xiangqi_is_refused() {
        let (command, _) = scripted(
            "variants",
            "echo 'option name UCI_Variant type combo default chess var chess var shogi';",
        );
        let err = UciEngine::started(&command).err().expect("refused");
        assert!(format!("{err:#}").contains("no xiangqi"), "{err:#}");
        let (command, _) = scripted(
            "xiangqi",
            "echo 'option name UCI_Variant type combo default chess var chess var xiangqi';",
        );
        assert!(UciEngine::started(&command).is_ok());
    }

    #[test]
    fn scores_are_read_from_info_lines() {
        let read = |s: &str| read_score(&mut s.split_whitespace());
        assert_eq!(read("cp 35 nodes 100"), Some(Eval::Units(35)));
        assert_eq!(read("cp -120"), Some(Eval::Units(-120)));
        assert_eq!(read("mate 3"), Some(Eval::MateIn(5)));
        assert_eq!(read("mate -2"), Some(Eval::MateIn(-4)));
        assert_eq!(read("lowerbound"), None);
    }
}
