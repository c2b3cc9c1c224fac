//! UCI for xiangqi, engine side: what `banco-uci` speaks so GUIs and tournament managers
//! can run banco's engine.
//!
//! Squares are ICCS coordinates (files `a..i`, ranks `0..9` from Red's side), moves
//! `h2e2`, positions `position startpos|fen FEN [moves ...]`. `go` takes
//! `wtime btime winc binc movestogo movetime depth nodes infinite`, and `go perft N` counts
//! the move tree (one line per first move, then `Nodes searched: N`). The search runs on
//! its own thread, so `stop` and `isready` are answered while it thinks. Options: `Hash`
//! (megabytes) and `OwnBook` (play from the opening book). Anything not understood gets an
//! `info string` saying so, never a crash.
//!
//! Behind the protocol is the same [`Engine`] a banco room's bot seat plays with: book,
//! search and time manager. A clock (`wtime`/`btime`) is turned into a budget for the
//! move and a planned share of it; `movetime` is the move's own budget, less a margin
//! for the answer to travel, and spent to its end (time saved would be lost).

use std::io::{self, BufRead, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use banco_engine::bot::{Bot, Cancel, Limits};
use banco_engine::xiangqi::Config;
use banco_engine::xiangqi::Engine;
use banco_engine::xiangqi::OPTIMUM_SHARE;
use banco_engine::xiangqi::{Info, MATE, MATE_BOUND};
use banco_rules::Level;
use banco_rules::xiangqi::perft::{divide, perft};
use banco_rules::xiangqi::{Color, Game, Move};

const NAME: &str = concat!("banco ", env!("CARGO_PKG_VERSION"));
const DEFAULT_HASH_MB: usize = 64;
const MAX_HASH_MB: usize = 4096;

/// Where lines go: shared by the command loop and the search thread.
type Out = Arc<Mutex<Box<dyn Write + Send>>>;

fn say(out: &Out, line: &str) {
    // A closed output (the GUI went away) is not worth crashing over.
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// What the search thread owns while it runs: the engine, with its hash table and
/// history kept between moves until `ucinewgame`.
struct Brain {
    engine: Engine,
}

/// The engine's settings under UCI: the strongest level, with no time of its own (the
/// GUI's clock decides) and the default hash.
fn uci_config() -> Config {
    Config {
        move_time: Duration::from_secs(86_400),
        hash_mb: DEFAULT_HASH_MB,
        seed: 0x0BA4_C0DE,
        ..Config::for_level(Level::Max)
    }
}

/// A search in progress.
struct Running {
    /// The search thread; it prints `bestmove` before it ends.
    handle: JoinHandle<()>,
    /// Raised by `stop`, `quit` and new commands that need the engine.
    cancel: Cancel,
}

/// The protocol state between commands.
pub struct Uci {
    /// Where answers go.
    out: Out,
    /// The engine, lent to the search thread while it thinks.
    brain: Arc<Mutex<Brain>>,
    /// The position from the last `position` command, with its history (repetitions).
    game: Game,
    /// The search in progress, if any.
    running: Option<Running>,
}

/// How `go` asked the engine to spend its time.
#[derive(Debug, Default, Clone, PartialEq)]
struct Go {
    /// Red's clock, in milliseconds.
    wtime: Option<u64>,
    /// Black's clock, in milliseconds.
    btime: Option<u64>,
    /// Red's increment per move, in milliseconds.
    winc: u64,
    /// Black's increment per move, in milliseconds.
    binc: u64,
    /// Moves until the next time control.
    movestogo: Option<u64>,
    /// Exactly this long for this move, in milliseconds.
    movetime: Option<u64>,
    /// Search this many plies.
    depth: Option<u32>,
    /// Search about this many nodes.
    nodes: Option<u64>,
    /// Search until `stop`.
    infinite: bool,
    /// Count the move tree to this depth instead of searching.
    perft: Option<u32>,
}

fn parse_go(tokens: &[&str]) -> Go {
    let mut go = Go::default();
    let mut i = 0;
    while i < tokens.len() {
        let num = tokens
            .get(i + 1)
            .and_then(|t| t.parse::<i64>().ok())
            .map(|n| n.max(0) as u64);
        let mut used = true;
        match tokens[i] {
            "wtime" => go.wtime = num,
            "btime" => go.btime = num,
            "winc" => go.winc = num.unwrap_or(0),
            "binc" => go.binc = num.unwrap_or(0),
            "movestogo" => go.movestogo = num.filter(|&n| n > 0),
            "movetime" => go.movetime = num,
            "depth" => go.depth = num.map(|n| n.min(100) as u32),
            "nodes" => go.nodes = num,
            "perft" => go.perft = num.map(|n| n.min(12) as u32),
            "infinite" => {
                go.infinite = true;
                used = false;
            }
            _ => used = false,
        }
        i += if used { 2 } else { 1 };
    }
    go
}

impl Go {
    /// Limits for `side`, and the share of the deadline the time manager plans on.
    fn limits(&self, side: Color, cancel: Cancel) -> (Limits, f64) {
        let now = Instant::now();
        let mut limits = Limits::none().with_cancel(cancel);
        limits.max_depth = self.depth;
        limits.max_nodes = self.nodes;
        let mut soft = OPTIMUM_SHARE;
        if let Some(mt) = self.movetime {
            let margin = (mt / 20).clamp(1, 30);
            limits.deadline = Some(now + Duration::from_millis(mt.saturating_sub(margin).max(1)));
            // A move's own time: what is not spent now is not there later.
            limits.spend_all = true;
        } else if !self.infinite {
            let (time, inc) = match side {
                Color::Red => (self.wtime, self.winc),
                Color::Black => (self.btime, self.binc),
            };
            if let Some(time) = time {
                let mtg = self.movestogo.unwrap_or(30).min(60);
                let target = time / mtg + inc * 3 / 4;
                let most = (time / 5 + inc).min(time.saturating_sub(100)).max(1);
                let hard = (target * 5 / 2).min(most).max(1);
                soft = (target as f64 / hard as f64).clamp(0.1, 1.0);
                limits.deadline = Some(now + Duration::from_millis(hard));
            }
        }
        (limits, soft)
    }
}

/// The score as UCI writes it: `cp N` or `mate N` (moves, negative when being mated).
fn uci_score(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
}

fn info_line(i: &Info) -> String {
    let ms = i.elapsed.as_millis().max(1);
    let pv: Vec<String> = i.pv.iter().map(Move::to_string).collect();
    format!(
        "info depth {} seldepth {} score {} nodes {} nps {} hashfull {} time {} pv {}",
        i.depth,
        i.seldepth,
        uci_score(i.score),
        i.nodes,
        i.nodes as u128 * 1000 / ms,
        i.hashfull,
        ms,
        pv.join(" ")
    )
}

impl Uci {
    pub fn new(out: Box<dyn Write + Send>) -> Uci {
        Uci {
            out: Arc::new(Mutex::new(out)),
            brain: Arc::new(Mutex::new(Brain {
                engine: Engine::with_config(uci_config()),
            })),
            game: Game::new(),
            running: None,
        }
    }

    /// Reads commands until `quit` or the end of input; at the end of input a running
    /// search is allowed to finish and answer.
    pub fn run(mut self, input: impl BufRead) -> io::Result<()> {
        for line in input.lines() {
            if !self.command(&line?) {
                return Ok(());
            }
        }
        self.wait();
        Ok(())
    }

    fn say(&self, line: &str) {
        say(&self.out, line);
    }

    /// Waits for a running search to finish on its own.
    fn wait(&mut self) {
        if let Some(r) = self.running.take() {
            let _ = r.handle.join();
        }
    }

    /// Stops a running search (it still answers `bestmove`).
    fn stop(&mut self) {
        if let Some(r) = &self.running {
            r.cancel.cancel();
        }
        self.wait();
    }

    /// Handles one command line; `false` means quit.
    pub fn command(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else {
            return true;
        };
        match cmd {
            "uci" => {
                self.say(&format!("id name {NAME}"));
                self.say("id author the banco authors");
                self.say(&format!(
                    "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
                ));
                self.say("option name OwnBook type check default true");
                self.say("option name UCI_Variant type combo default xiangqi var xiangqi");
                self.say("uciok");
            }
            "isready" => self.say("readyok"),
            "ucinewgame" => {
                self.stop();
                if let Ok(mut b) = self.brain.lock() {
                    b.engine.new_game();
                }
                self.game = Game::new();
            }
            "setoption" => {
                self.stop();
                self.set_option(args);
            }
            "position" => {
                self.stop();
                self.position(args);
            }
            "go" => {
                self.stop();
                self.go(args);
            }
            "stop" => self.stop(),
            "ponderhit" => {}
            "quit" => {
                self.stop();
                return false;
            }
            "d" => {
                self.say(&self.game.position().to_string());
                self.say(&format!("Fen: {}", self.game.fen()));
            }
            _ => self.say(&format!("info string unknown command '{cmd}'")),
        }
        true
    }

    fn set_option(&mut self, args: &[&str]) {
        // setoption name NAME [value VALUE]; names may hold spaces.
        let text = args.join(" ");
        let Some(rest) = text.strip_prefix("name ") else {
            self.say("info string setoption needs 'name'");
            return;
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (rest.trim(), ""),
        };
        let Ok(mut brain) = self.brain.lock() else {
            return;
        };
        let mut config = brain.engine.config().clone();
        match name.to_ascii_lowercase().as_str() {
            "hash" => match value.parse::<usize>() {
                Ok(mb) => config.hash_mb = mb.clamp(1, MAX_HASH_MB),
                Err(_) => self.say(&format!("info string Hash wants megabytes, not '{value}'")),
            },
            "ownbook" => config.use_book = value.eq_ignore_ascii_case("true"),
            "uci_variant" if value.eq_ignore_ascii_case("xiangqi") => {}
            "uci_variant" => self.say(&format!(
                "info string only xiangqi is played, not '{value}'"
            )),
            "threads" | "ponder" | "multipv" => {}
            _ => self.say(&format!("info string unknown option '{name}'")),
        }
        brain.engine.set_config(config);
    }

    fn position(&mut self, args: &[&str]) {
        let (setup, moves) = match args.iter().position(|&t| t == "moves") {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let game = match setup.split_first() {
            Some((&"startpos", _)) => Ok(Game::new()),
            Some((&"fen", fen)) => Game::from_fen(&fen.join(" ")).map_err(|e| e.to_string()),
            _ => {
                Err("write 'position startpos' or 'position fen FEN', then 'moves ...'".to_string())
            }
        };
        let mut game = match game {
            Ok(g) => g,
            Err(e) => {
                self.say(&format!("info string bad position: {e}"));
                return;
            }
        };
        for text in moves {
            let played = text
                .parse::<Move>()
                .map_err(|e| e.to_string())
                .and_then(|mv| game.play_on(mv).map(|_| ()).map_err(|e| e.to_string()));
            if let Err(e) = played {
                self.say(&format!(
                    "info string illegal move {text}: {e}; position kept before it"
                ));
                break;
            }
        }
        self.game = game;
    }

    fn go(&mut self, args: &[&str]) {
        let go = parse_go(args);
        if let Some(depth) = go.perft {
            let mut pos = self.game.position().clone();
            let start = Instant::now();
            let total = if depth == 0 {
                perft(&mut pos, 0)
            } else {
                let mut total = 0;
                for (mv, n) in divide(&mut pos, depth) {
                    self.say(&format!("{mv}: {n}"));
                    total += n;
                }
                total
            };
            self.say("");
            self.say(&format!("Nodes searched: {total}"));
            self.say(&format!(
                "info string perft {depth} took {} ms",
                start.elapsed().as_millis()
            ));
            return;
        }
        let cancel = Cancel::new();
        let (limits, soft) = go.limits(self.game.to_move(), cancel.clone());
        let game = self.game.clone();
        let brain = Arc::clone(&self.brain);
        let out = Arc::clone(&self.out);
        let infinite = go.infinite;
        let stop = cancel.clone();
        let handle = std::thread::spawn(move || {
            let best = think(&brain, &game, &limits, soft, &out);
            // In infinite mode the answer waits for `stop`.
            while infinite && !stop.is_cancelled() {
                std::thread::sleep(Duration::from_millis(5));
            }
            match best {
                Some(mv) => say(&out, &format!("bestmove {mv}")),
                None => say(&out, "bestmove (none)"),
            }
        });
        self.running = Some(Running { handle, cancel });
    }
}

/// The search thread's work: the engine's book move or search.
fn think(brain: &Mutex<Brain>, game: &Game, limits: &Limits, soft: f64, out: &Out) -> Option<Move> {
    let Ok(mut brain) = brain.lock() else {
        return None;
    };
    let mut config = brain.engine.config().clone();
    config.soft_fraction = soft;
    brain.engine.set_config(config);
    let thought = brain
        .engine
        .think_reporting(game, limits, &mut |info| say(out, &info_line(info)));
    if thought.best.is_some() && thought.nodes == 0 {
        say(out, "info string book move");
    }
    thought.best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer the test can read back.
    #[derive(Clone, Default)]
    struct Transcript(Arc<Mutex<Vec<u8>>>);

    impl Write for Transcript {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn session(script: &str) -> Vec<String> {
        let t = Transcript::default();
        Uci::new(Box::new(t.clone()))
            .run(script.as_bytes())
            .unwrap();
        let text = String::from_utf8(t.0.lock().unwrap().clone()).unwrap();
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn handshake_and_search() {
        let out = session(
            "uci\nisready\nsetoption name Hash value 8\nsetoption name OwnBook value false\nucinewgame\nposition startpos moves h2e2 h9g7\ngo depth 4\n",
        );
        assert!(out.iter().any(|l| l.starts_with("id name banco")));
        assert!(out.contains(&"uciok".to_string()));
        assert!(out.contains(&"readyok".to_string()));
        assert!(
            out.iter().any(|l| l.starts_with("info depth 4 ")),
            "{out:?}"
        );
        let best = out
            .iter()
            .find_map(|l| l.strip_prefix("bestmove "))
            .expect("a bestmove");
        let mut game = Game::new();
        game.play("h2e2".parse().unwrap()).unwrap();
        game.play("h9g7".parse().unwrap()).unwrap();
        assert!(
            game.position().is_legal_move(best.parse().unwrap()),
            "{best}"
        );
    }

    #[test]
    fn perft_counts() {
        let out = session(
            "position startpos\ngo perft 3\nposition fen r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1\ngo perft 2\nposition startpos moves h2e2\ngo perft 3\n",
        );
        let totals: Vec<&str> = out
            .iter()
            .filter(|l| l.starts_with("Nodes searched"))
            .map(String::as_str)
            .collect();
        // The last is perft 4 after h2e2's first ply: perft 3 of the reply tree.
        assert_eq!(
            totals,
            [
                "Nodes searched: 79666",
                "Nodes searched: 1128",
                "Nodes searched: 66333"
            ]
        );
        // One line per first move: 44 from the start.
        assert_eq!(out.iter().take_while(|l| !l.is_empty()).count(), 44);
    }

    #[test]
    fn mate_is_found_and_reported() {
        let out = session(
            "setoption name OwnBook value false\nposition fen 4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1\ngo depth 3\n",
        );
        assert!(out.iter().any(|l| l.contains("score mate 1")), "{out:?}");
        assert!(out.contains(&"bestmove b0b9".to_string()));
    }

    #[test]
    fn stop_interrupts_infinite_and_bad_input_is_answered() {
        let out = session(
            "setoption name OwnBook value false\nposition startpos\ngo infinite\nisready\nstop\nposition fen nonsense\nposition startpos moves h2e2 e9e5\nfrobnicate\ngo movetime 50\nquit\n",
        );
        assert!(out.contains(&"readyok".to_string()));
        assert_eq!(
            out.iter().filter(|l| l.starts_with("bestmove ")).count(),
            2,
            "{out:?}"
        );
        assert!(
            out.iter()
                .any(|l| l.starts_with("info string bad position"))
        );
        assert!(
            out.iter()
                .any(|l| l.starts_with("info string illegal move e9e5"))
        );
        assert!(
            out.iter()
                .any(|l| l.contains("unknown command 'frobnicate'"))
        );
    }

    #[test]
    fn no_legal_move() {
        let out =
            session("position fen 4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1 moves b0b9\ngo depth 2\n");
        assert!(out.contains(&"bestmove (none)".to_string()), "{out:?}");
    }

    #[test]
    fn time_controls() {
        let go = parse_go(&[
            "wtime", "60000", "btime", "30000", "winc", "1000", "binc", "1000",
        ]);
        let (red, soft) = go.limits(Color::Red, Cancel::new());
        let (black, _) = go.limits(Color::Black, Cancel::new());
        assert!(red.deadline.unwrap() > black.deadline.unwrap());
        assert!(soft > 0.0 && soft <= 1.0);
        let (l, soft) = parse_go(&["movetime", "1000"]).limits(Color::Red, Cancel::new());
        assert!(l.deadline.is_some());
        assert_eq!(soft, OPTIMUM_SHARE);
        // A move's own time is spent; a clock's slice is planned.
        assert!(l.spend_all);
        assert!(!red.spend_all);
        let (l, _) = parse_go(&["depth", "7", "nodes", "1000"]).limits(Color::Red, Cancel::new());
        assert_eq!(
            (l.max_depth, l.max_nodes, l.deadline),
            (Some(7), Some(1000), None)
        );
        assert!(parse_go(&["infinite"]).infinite);
    }
}
