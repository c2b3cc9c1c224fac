//! The engine's own thread: it owns the external engine (a Gomocup or UCI adapter from
//! `banco-adapters`, the code the arena drives engines with) and answers [`Job`]s one at
//! a time, since engine work blocks. The bot's loop stays async and free to answer the
//! server (offers, heartbeats) while the engine thinks.
//!
//! Swap openings ([`Job::Swap`]): a Gomocup engine is asked through Gomocup's
//! `SWAP2BOARD` ([`GomocupEngine::swap2_on`]); its stones are checked against the board
//! here (on it, free) and its answer comes back as [`Done::Swapped`]. When it took White
//! with a stone, that stone is kept and is its first move once the game starts from the
//! opening, without asking it again. An engine without the extension (it answers
//! `ERROR`/`UNKNOWN`, or nothing a swap opening can use) fails like any other answer.
//!
//! Faults are the thread's business: an engine that crashed is restarted and told the
//! position again, once per move; any other failure (garbage, an illegal move, silence
//! past the time) ends the engine's process, so the next game starts it afresh, and is
//! answered with the reason, which the bot resigns with.

use std::sync::mpsc;

use anyhow::{Result, anyhow, bail};
use banco_adapters::gomocup::{self, GomocupEngine};
use banco_adapters::player::{Budget, Eval, Player, SwapReply};
use banco_adapters::uci::UciEngine;
use banco_rules::caro::{Board, Point, Rule};
use banco_rules::game::{Game, GameSpec, Move};
use tokio::sync::mpsc::UnboundedSender;

/// Which protocol the engine speaks, and the command that starts it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineSpec {
    /// A caro engine over the Gomocup protocol.
    Gomocup(String),
    /// A xiangqi engine over UCI.
    Uci(String),
}

impl std::str::FromStr for EngineSpec {
    type Err = String;

    /// `gomocup:CMD ARGS` or `uci:CMD ARGS`.
    fn from_str(s: &str) -> Result<EngineSpec, String> {
        let (kind, command) = s.split_once(':').ok_or_else(|| {
            format!("'{s}' names no protocol: say gomocup:COMMAND or uci:COMMAND")
        })?;
        let command = command.trim();
        if command.is_empty() {
            return Err(format!("'{s}' names no command to start the engine"));
        }
        match kind.trim().to_ascii_lowercase().as_str() {
            "gomocup" | "pbrain" => Ok(EngineSpec::Gomocup(command.to_string())),
            "uci" => Ok(EngineSpec::Uci(command.to_string())),
            other => Err(format!(
                "'{other}' is not an engine protocol: say gomocup: (caro) or uci: (xiangqi)"
            )),
        }
    }
}

/// Which game of which room a move is for: answers for a game or position since left
/// behind are dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    /// The request's number: answers to any other request are dropped.
    pub job: u64,
    /// The room.
    pub room: u32,
    /// The room's game number.
    pub game: u32,
    /// Plies played when the move was asked for.
    pub ply: usize,
}

/// What the engine thread is asked to do.
#[derive(Debug)]
pub enum Job {
    /// Find the move for the side to move after `moves` in a game of `spec`.
    Move {
        /// Which position this is, echoed in the answer.
        stamp: Stamp,
        /// The game and its start.
        spec: GameSpec,
        /// The moves played since the start.
        moves: Vec<Move>,
        /// The time the engine is told it has.
        budget: Budget,
    },
    /// The engine's answer in a swap opening of a caro game of `spec` (no opening
    /// stones), given the `stones` placed so far: none, three or five.
    Swap {
        /// Which opening step this is, echoed in the answer (`ply`: the stones).
        stamp: Stamp,
        /// The game.
        spec: GameSpec,
        /// The stones so far, X first.
        stones: Vec<Point>,
        /// The time the engine is told it has.
        budget: Budget,
    },
}

/// The engine thread's answer.
#[derive(Debug)]
pub enum Done {
    /// A legal move, and the engine's score after it, if it said one.
    Moved {
        /// The position it answers.
        stamp: Stamp,
        /// The move, checked against the rules.
        mv: Move,
        /// The engine's score, from its own side.
        eval: Option<Eval>,
    },
    /// The engine's answer in a swap opening, its stones on the board and free.
    Swapped {
        /// The step it answers.
        stamp: Stamp,
        /// What it answered.
        reply: SwapReply,
    },
    /// The engine could not give a move; the reason, said to the opponent on resigning.
    Failed {
        /// The position it failed in.
        stamp: Stamp,
        /// Why, in a sentence.
        reason: String,
    },
}

/// The adapter, whichever protocol.
enum Adapter {
    Gomocup(GomocupEngine),
    Uci(UciEngine),
}

impl Adapter {
    fn new(spec: &EngineSpec) -> Adapter {
        match spec {
            EngineSpec::Gomocup(cmd) => {
                Adapter::Gomocup(GomocupEngine::new(cmd, "the engine".into()).taking_openings())
            }
            EngineSpec::Uci(cmd) => Adapter::Uci(UciEngine::new(cmd, "the engine".into())),
        }
    }

    fn new_game(&mut self, spec: &GameSpec) -> Result<()> {
        match self {
            Adapter::Gomocup(e) => e.new_game(spec),
            Adapter::Uci(e) => e.new_game(spec),
        }
    }

    fn play(&mut self, game: &Game, budget: Budget) -> Result<banco_adapters::player::Reply> {
        match self {
            Adapter::Gomocup(e) => e.play_on(game, budget),
            Adapter::Uci(e) => e.play_on(game, budget),
        }
    }

    fn swap2(&mut self, stones: &[Point], budget: Budget) -> Result<SwapReply> {
        match self {
            Adapter::Gomocup(e) => e.swap2_on(stones, budget),
            Adapter::Uci(_) => bail!("a UCI engine has no swap openings"),
        }
    }

    fn crashed(&mut self) -> bool {
        match self {
            Adapter::Gomocup(e) => e.crashed(),
            Adapter::Uci(e) => e.crashed(),
        }
    }

    fn restart(&mut self) {
        match self {
            Adapter::Gomocup(e) => e.restart(),
            Adapter::Uci(e) => e.restart(),
        }
    }
}

/// The engine's thread: send it jobs, read its answers as the bot's loop goes.
pub struct EngineThread {
    /// Where jobs go; the thread ends when this is dropped.
    jobs: mpsc::Sender<Job>,
}

impl EngineThread {
    /// Starts the thread; answers arrive on `done`.
    pub fn start(spec: &EngineSpec, done: UnboundedSender<Done>) -> EngineThread {
        let (jobs, rx) = mpsc::channel::<Job>();
        let mut adapter = Adapter::new(spec);
        std::thread::spawn(move || {
            // The game the engine was last told of: another one starts a new game.
            let mut current: Option<(u32, u32)> = None;
            // A stone the engine took White with in a swap opening (room, game, stone):
            // its first move once the game starts.
            let mut stay: Option<(u32, u32, Point)> = None;
            while let Ok(job) = rx.recv() {
                let (stamp, answer) = match job {
                    Job::Move {
                        stamp,
                        spec,
                        moves,
                        budget,
                    } => {
                        let kept = stay
                            .take()
                            .filter(|s| (s.0, s.1) == (stamp.room, stamp.game) && moves.is_empty());
                        let answer = match kept {
                            Some((.., p)) => checked(&spec, &moves, Move::Caro(p))
                                .map(|()| (Move::Caro(p), None)),
                            None => think(&mut adapter, &mut current, stamp, &spec, &moves, budget),
                        };
                        (
                            stamp,
                            answer.map(|(mv, eval)| Done::Moved { stamp, mv, eval }),
                        )
                    }
                    Job::Swap {
                        stamp,
                        spec,
                        stones,
                        budget,
                    } => {
                        let answer =
                            swap(&mut adapter, &mut current, stamp, &spec, &stones, budget);
                        if let Ok(SwapReply::Stay(p)) = answer {
                            stay = Some((stamp.room, stamp.game, p));
                        }
                        (stamp, answer.map(|reply| Done::Swapped { stamp, reply }))
                    }
                };
                let answer = answer.unwrap_or_else(|e| {
                    // Whatever state the engine is in, the next move starts it afresh.
                    adapter.restart();
                    current = None;
                    Done::Failed {
                        stamp,
                        reason: format!("{e:#}"),
                    }
                });
                if done.send(answer).is_err() {
                    break;
                }
            }
        });
        EngineThread { jobs }
    }

    /// Asks for a move.
    pub fn send(&self, job: Job) {
        // The thread only ends when this handle is dropped.
        let _ = self.jobs.send(job);
    }
}

/// One move: the game set up (anew when it is another game), the engine asked, its
/// answer checked. A crash is met once with a restart and the position told again.
fn think(
    adapter: &mut Adapter,
    current: &mut Option<(u32, u32)>,
    stamp: Stamp,
    spec: &GameSpec,
    moves: &[Move],
    budget: Budget,
) -> Result<(Move, Option<Eval>)> {
    let mut game = Game::new(spec).map_err(|e| anyhow!("the game cannot be set up: {e}"))?;
    for &mv in moves {
        game.play(mv)
            .map_err(|e| anyhow!("the server's moves do not fit the rules here: {e}"))?;
    }
    let mut tries = 0;
    loop {
        tries += 1;
        let attempt = (|| {
            if *current != Some((stamp.room, stamp.game)) {
                adapter.new_game(spec)?;
                *current = Some((stamp.room, stamp.game));
            }
            adapter.play(&game, budget)
        })();
        match attempt {
            Ok(reply) => {
                let mut after = game.clone();
                after.play(reply.mv).map_err(|e| {
                    anyhow!(
                        "the engine played an illegal move, {}: {e}",
                        move_text(reply.mv)
                    )
                })?;
                return Ok((reply.mv, reply.eval));
            }
            Err(e) if tries == 1 && adapter.crashed() => {
                println!("banco bot: the engine crashed ({e:#}); restarting it with the position");
                adapter.restart();
                *current = None;
            }
            Err(e) if adapter.crashed() => {
                bail!("the engine crashed again after a restart: {e:#}")
            }
            Err(e) => return Err(e),
        }
    }
}

/// Whether `mv` is legal after `moves` in a game of `spec`.
fn checked(spec: &GameSpec, moves: &[Move], mv: Move) -> Result<()> {
    let mut game = Game::new(spec).map_err(|e| anyhow!("the game cannot be set up: {e}"))?;
    for &m in moves {
        game.play(m)
            .map_err(|e| anyhow!("the server's moves do not fit the rules here: {e}"))?;
    }
    game.play(mv).map_err(|e| {
        anyhow!(
            "the engine's swap-opening stone is an illegal move, {}: {e}",
            move_text(mv)
        )
    })?;
    Ok(())
}

/// One swap-opening answer: the game set up (anew when it is another game), the engine
/// asked, its stones checked against the board (on it, free, not twice). A crash is met
/// once with a restart.
fn swap(
    adapter: &mut Adapter,
    current: &mut Option<(u32, u32)>,
    stamp: Stamp,
    spec: &GameSpec,
    stones: &[Point],
    budget: Budget,
) -> Result<SwapReply> {
    let GameSpec::Caro { width, height, .. } = *spec else {
        bail!("swap openings are caro's");
    };
    let mut board = Board::new(u32::from(width), u32::from(height))
        .map_err(|e| anyhow!("the board cannot be set up: {e}"))?;
    for &p in stones {
        if !board.contains_point(p) || !board.is_empty_at(p) {
            bail!("the server's opening stones do not fit the board here: {p}");
        }
        board.place(p, banco_rules::caro::Stone::X);
    }
    let mut tries = 0;
    let reply = loop {
        tries += 1;
        let attempt = (|| {
            if *current != Some((stamp.room, stamp.game)) {
                adapter.new_game(spec)?;
                *current = Some((stamp.room, stamp.game));
            }
            adapter.swap2(stones, budget)
        })();
        match attempt {
            Ok(reply) => break reply,
            Err(e) if tries == 1 && adapter.crashed() => {
                println!("banco bot: the engine crashed ({e:#}); restarting it");
                adapter.restart();
                *current = None;
            }
            Err(e) if adapter.crashed() => {
                bail!("the engine crashed again after a restart: {e:#}")
            }
            Err(e) => {
                return Err(e.context("the engine does not play this swap opening"));
            }
        }
    };
    let new: &[Point] = match &reply {
        SwapReply::Propose(ps) => ps,
        SwapReply::PlaceTwo(ps) => ps,
        SwapReply::Stay(p) => std::slice::from_ref(p),
        SwapReply::Swap => &[],
    };
    for &p in new {
        if !board.contains_point(p) || !board.is_empty_at(p) {
            bail!(
                "the engine answered '{reply}' in the swap opening: {p} is off the board or taken"
            );
        }
        board.place(p, banco_rules::caro::Stone::X);
    }
    Ok(reply)
}

/// A move as people read it: `7,7` or `h2e2`.
fn move_text(mv: Move) -> String {
    match mv {
        Move::Caro(p) => format!("{},{}", p.x, p.y),
        Move::Xiangqi(m) => m.to_string(),
    }
}

/// Whether a Gomocup engine plays caro on this board under this rule: `Err` says why
/// not (blocking: it starts the engine once; run it off the async runtime).
pub fn gomocup_plays(command: &str, width: u8, height: u8, rule: Rule) -> Result<(), String> {
    gomocup::probe(command, width, height, rule)
}

/// Starts a UCI engine once to see that it plays xiangqi (its `UCI_Variant` offers it, or
/// it has no variants at all: a native xiangqi engine), and how it calls itself.
pub fn uci_plays_xiangqi(command: &str) -> Result<String> {
    let engine = UciEngine::started(command)
        .map_err(|e| anyhow!("the engine did not start as a UCI xiangqi engine: {e:#}"))?;
    Ok(engine.name())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engines_are_named_by_protocol_and_command() {
        assert_eq!(
            "gomocup:pbrain-rapfi --x".parse(),
            Ok(EngineSpec::Gomocup("pbrain-rapfi --x".into()))
        );
        assert_eq!("uci: fsf".parse(), Ok(EngineSpec::Uci("fsf".into())));
        assert!(
            "fsf"
                .parse::<EngineSpec>()
                .unwrap_err()
                .contains("names no protocol")
        );
        assert!(
            "uci:"
                .parse::<EngineSpec>()
                .unwrap_err()
                .contains("no command")
        );
        assert!(
            "ucci:x"
                .parse::<EngineSpec>()
                .unwrap_err()
                .contains("not an engine protocol")
        );
    }
}
