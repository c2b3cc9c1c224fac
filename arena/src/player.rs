//! Players: anything that can be asked for a move in a [`Game`].
//!
//! The arena only talks to [`Player`], whatever the game: a banco level
//! ([`BancoPlayer`], any game [`GameBot`] plays), a seed program's bot ([`SeedPlayer`]
//! for the caro seeds, [`Seed002Player`] for seed 002's xiangqi engine), or an external
//! engine over a text protocol (Gomocup for caro: [`crate::gomocup::GomocupEngine`]; UCI
//! for xiangqi: [`crate::uci_external::UciEngine`]). A [`PlayerSpec`] names one on the
//! command line.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use banco_engine::bot::{GameBot, Limits};
use banco_rules::Level;
use banco_rules::game::{Game, GameSpec, Move};

use crate::gomocup::GomocupEngine;
use crate::seeds::seed002::Seed002;
use crate::seeds::{self, SeedBot};
use crate::uci_external::UciEngine;

/// A player's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// The move.
    pub mv: Move,
    /// How deep it searched, if it says.
    pub depth: Option<u32>,
    /// Wall time from the question to the answer.
    pub elapsed: Duration,
}

/// Something that plays games.
pub trait Player {
    /// The name results are reported under.
    fn name(&self) -> String;
    /// A game like `spec` starts (from its start position; the opening moves follow in
    /// the first `play` call's game).
    fn new_game(&mut self, spec: &GameSpec) -> Result<()>;
    /// The move for the side to move in `game`, within about `budget` if one is set.
    fn play(&mut self, game: &Game, budget: Option<Duration>) -> Result<Reply>;
    /// The time per move the player means to use on its own, if it has one (a banco
    /// level's budget): overruns are measured against it.
    fn nominal_time(&self) -> Option<Duration> {
        None
    }
    /// Plays every later move to about `nodes` nodes instead of (or besides) the clock:
    /// matches between engine builds that a busy machine cannot skew. Players that cannot
    /// count nodes refuse.
    fn limit_nodes(&mut self, nodes: u64) -> Result<()> {
        let _ = nodes;
        bail!("{} cannot play to a node count", self.name())
    }
}

/// How a match builds its players.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// How late past its turn time an external Gomocup engine may answer (default: the
    /// adapter's, GomocupJudge's 1 s).
    pub grace: Option<Duration>,
}

/// A player as named on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayerSpec {
    /// `banco:LEVEL` (`banco:hard`, or just `hard`).
    Banco(Level),
    /// `seed:NNN` (000, 001, 003, 004 play caro; 002 plays xiangqi).
    Seed(String),
    /// `gomocup:COMMAND` (run through `sh -c`).
    Gomocup(String),
    /// `uci:COMMAND` (run through `sh -c`): a xiangqi engine.
    Uci(String),
}

/// A player name that means nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown player '{0}': use banco:LEVEL (easy, medium, hard, max), seed:NNN (000, 001, 003, 004 for caro; 002 for xiangqi), gomocup:COMMAND or uci:COMMAND"
)]
pub struct UnknownPlayer(pub String);

impl FromStr for PlayerSpec {
    type Err = UnknownPlayer;

    fn from_str(s: &str) -> Result<PlayerSpec, UnknownPlayer> {
        let bad = || UnknownPlayer(s.to_string());
        let (kind, rest) = s.split_once(':').unwrap_or(("banco", s));
        match kind {
            "banco" => rest.parse().map(PlayerSpec::Banco).map_err(|_| bad()),
            "seed" if seeds::by_number(rest, 0).is_some() || seeds::is_xiangqi(rest) => {
                Ok(PlayerSpec::Seed(rest.to_string()))
            }
            "gomocup" if !rest.trim().is_empty() => Ok(PlayerSpec::Gomocup(rest.to_string())),
            "uci" if !rest.trim().is_empty() => Ok(PlayerSpec::Uci(rest.to_string())),
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Banco(l) => write!(f, "banco:{l}"),
            PlayerSpec::Seed(n) => write!(f, "seed:{n}"),
            PlayerSpec::Gomocup(c) => write!(f, "gomocup:{}", program_name(c)),
            PlayerSpec::Uci(c) => write!(f, "uci:{}", program_name(c)),
        }
    }
}

/// The program a command runs, without its directory; for `node x/uci.js`, the script.
fn program_name(command: &str) -> &str {
    let mut words = command.split_whitespace().filter(|w| !w.starts_with('-'));
    let mut program = words.next().unwrap_or(command);
    if matches!(
        program.rsplit('/').next(),
        Some("node" | "python3" | "python" | "sh")
    ) {
        program = words.next().unwrap_or(program);
    }
    program.rsplit('/').next().unwrap_or(program)
}

impl PlayerSpec {
    /// Builds the player. `seed` feeds the random choices of seed bots.
    pub fn build(&self, seed: u64) -> Result<Box<dyn Player>> {
        self.build_with(seed, &Options::default())
    }

    /// Like [`PlayerSpec::build`], with match options.
    pub fn build_with(&self, seed: u64, options: &Options) -> Result<Box<dyn Player>> {
        Ok(match self {
            PlayerSpec::Banco(level) => Box::new(BancoPlayer::new(*level)),
            PlayerSpec::Seed(n) if seeds::is_xiangqi(n) => Box::new(Seed002Player {
                engine: Seed002::new(),
            }),
            PlayerSpec::Seed(n) => {
                let bot = seeds::by_number(n, seed).with_context(|| format!("no seed bot {n}"))?;
                Box::new(SeedPlayer { bot })
            }
            PlayerSpec::Gomocup(cmd) => {
                let mut engine = GomocupEngine::new(cmd, self.to_string());
                if let Some(grace) = options.grace {
                    engine.set_grace(grace);
                }
                Box::new(engine)
            }
            PlayerSpec::Uci(cmd) => Box::new(UciEngine::started(cmd)?),
        })
    }
}

/// A banco engine at a level.
pub struct BancoPlayer {
    /// The strength asked for.
    level: Level,
    /// Made per game (it depends on the game spec).
    bot: Option<GameBot>,
    /// Nodes per move, when the match counts nodes.
    nodes: Option<u64>,
}

impl BancoPlayer {
    pub fn new(level: Level) -> BancoPlayer {
        BancoPlayer {
            level,
            bot: None,
            nodes: None,
        }
    }
}

impl Player for BancoPlayer {
    fn name(&self) -> String {
        format!("banco:{}", self.level)
    }

    fn new_game(&mut self, spec: &GameSpec) -> Result<()> {
        match &mut self.bot {
            Some(bot) => bot.new_game(),
            None => self.bot = Some(GameBot::new(spec, self.level)),
        }
        Ok(())
    }

    fn nominal_time(&self) -> Option<Duration> {
        self.bot.as_ref().map(GameBot::move_time)
    }

    fn limit_nodes(&mut self, nodes: u64) -> Result<()> {
        self.nodes = Some(nodes);
        Ok(())
    }

    fn play(&mut self, game: &Game, budget: Option<Duration>) -> Result<Reply> {
        let bot = self.bot.as_mut().context("new_game was not called")?;
        // A match's time is per move: what a move does not spend is lost.
        let mut limits = budget.map_or_else(Limits::none, |b| Limits::within(b).spending_all());
        limits.max_nodes = self.nodes;
        let start = Instant::now();
        let thought = bot.think(game, &limits);
        let mv = thought.best.context("the engine found no move")?;
        Ok(Reply {
            mv,
            depth: Some(thought.depth),
            elapsed: start.elapsed(),
        })
    }
}

/// A seed program's bot (caro only).
pub struct SeedPlayer {
    /// The seed program's move picker.
    bot: Box<dyn SeedBot>,
}

impl Player for SeedPlayer {
    fn name(&self) -> String {
        self.bot.name().to_string()
    }

    fn new_game(&mut self, spec: &GameSpec) -> Result<()> {
        match spec {
            GameSpec::Caro { .. } => Ok(()),
            _ => bail!("{} only plays caro", self.bot.name()),
        }
    }

    fn play(&mut self, game: &Game, _budget: Option<Duration>) -> Result<Reply> {
        let Game::Caro(g) = game else {
            bail!("{} only plays caro", self.bot.name());
        };
        let start = Instant::now();
        let p = self.bot.choose(g).context("no move on a full board")?;
        Ok(Reply {
            mv: Move::Caro(p),
            depth: None,
            elapsed: start.elapsed(),
        })
    }
}

/// Seed 002's xiangqi engine.
pub struct Seed002Player {
    engine: Seed002,
}

/// Seed 002 searches at most this long when the arena gives no time.
const SEED002_DEFAULT: Duration = Duration::from_secs(1);

impl Player for Seed002Player {
    fn name(&self) -> String {
        "seed:002".to_string()
    }

    fn new_game(&mut self, spec: &GameSpec) -> Result<()> {
        match spec {
            GameSpec::Xiangqi { .. } => {
                self.engine.new_game();
                Ok(())
            }
            _ => bail!("seed:002 only plays xiangqi"),
        }
    }

    fn play(&mut self, game: &Game, budget: Option<Duration>) -> Result<Reply> {
        let Game::Xiangqi(g) = game else {
            bail!("seed:002 only plays xiangqi");
        };
        let start = Instant::now();
        let (mv, depth) = self
            .engine
            .choose(g, budget.unwrap_or(SEED002_DEFAULT))
            .context("no legal move")?;
        Ok(Reply {
            mv: Move::Xiangqi(mv),
            depth: Some(depth),
            elapsed: start.elapsed(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        assert_eq!("banco:hard".parse(), Ok(PlayerSpec::Banco(Level::Hard)));
        assert_eq!("max".parse(), Ok(PlayerSpec::Banco(Level::Max)));
        assert_eq!("seed:001".parse(), Ok(PlayerSpec::Seed("001".into())));
        assert_eq!("seed:002".parse(), Ok(PlayerSpec::Seed("002".into())));
        assert!("seed:005".parse::<PlayerSpec>().is_err());
        let u: PlayerSpec = "uci:node --no-experimental-fetch /x/fairy/uci.js"
            .parse()
            .unwrap();
        assert_eq!(u.to_string(), "uci:uci.js");
        assert_eq!(
            "uci:/opt/pikafish"
                .parse::<PlayerSpec>()
                .unwrap()
                .to_string(),
            "uci:pikafish"
        );
        assert!("uci: ".parse::<PlayerSpec>().is_err());
        assert!("banco:grandmaster".parse::<PlayerSpec>().is_err());
        assert!("gomocup:".parse::<PlayerSpec>().is_err());
        let g: PlayerSpec = "gomocup:/opt/x/pbrain-foo -v".parse().unwrap();
        assert_eq!(g.to_string(), "gomocup:pbrain-foo");
    }
}
