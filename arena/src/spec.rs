//! Players as named on the command line, and the factory that builds them.
//!
//! A [`PlayerSpec`] is parsed from `banco:LEVEL`, `seed:NAME`, `gomocup:COMMAND` or
//! `uci:COMMAND` and builds the [`Player`]. This is the one module that knows every kind
//! of player; the players know only [`crate::player`].

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use anyhow::Result;
use banco_rules::Level;

use crate::banco_player::BancoPlayer;
use crate::beginner::BeginnerPlayer;
use crate::gomocup::GomocupEngine;
use crate::player::Player;
use crate::seeds;
use crate::uci::UciEngine;

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
    /// `seed:NAME`, a seed program's bot by its name (see [`seeds::NAMES`]; its
    /// document's number, `seed:000`, is still read).
    Seed(&'static str),
    /// `gomocup:COMMAND` (run through `sh -c`).
    Gomocup(String),
    /// `uci:COMMAND` (run through `sh -c`): a xiangqi engine.
    Uci(String),
    /// `beginner`: a beginner's plain play at caro (see [`crate::beginner`]).
    Beginner,
}

/// A player name that means nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown player '{0}': use banco:LEVEL (easy, casual, medium, advanced, hard, expert, max, or 1 to 7), seed:NAME (console-caro, lan-caro, web-caro, alphabeta-caro for caro; xiangqi-thesis for xiangqi), beginner (caro), gomocup:COMMAND or uci:COMMAND"
)]
pub struct UnknownPlayer(pub String);

impl FromStr for PlayerSpec {
    type Err = UnknownPlayer;

    fn from_str(s: &str) -> Result<PlayerSpec, UnknownPlayer> {
        let bad = || UnknownPlayer(s.to_string());
        if s == "beginner" {
            return Ok(PlayerSpec::Beginner);
        }
        let (kind, rest) = s.split_once(':').unwrap_or(("banco", s));
        match kind {
            "banco" => rest.parse().map(PlayerSpec::Banco).map_err(|_| bad()),
            "seed" => seeds::canonical(rest).map(PlayerSpec::Seed).ok_or_else(bad),
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
            PlayerSpec::Beginner => f.write_str("beginner"),
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
            PlayerSpec::Seed(name) => seeds::player(name, seed)?,
            PlayerSpec::Gomocup(cmd) => {
                let mut engine = GomocupEngine::new(cmd, self.to_string());
                if let Some(grace) = options.grace {
                    engine.set_grace(grace);
                }
                Box::new(engine)
            }
            PlayerSpec::Uci(cmd) => Box::new(UciEngine::started(cmd)?),
            PlayerSpec::Beginner => Box::new(BeginnerPlayer::new(seed)),
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
        assert_eq!("seed:001".parse(), Ok(PlayerSpec::Seed("lan-caro")));
        assert_eq!("seed:lan-caro".parse(), Ok(PlayerSpec::Seed("lan-caro")));
        assert_eq!("seed:002".parse(), Ok(PlayerSpec::Seed("xiangqi-thesis")));
        assert_eq!("seed:0".parse(), Ok(PlayerSpec::Seed("console-caro")));
        assert!("seed:005".parse::<PlayerSpec>().is_err());
        assert!("seed:caro".parse::<PlayerSpec>().is_err());
        assert_eq!("beginner".parse(), Ok(PlayerSpec::Beginner));
        assert_eq!(PlayerSpec::Beginner.to_string(), "beginner");
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

    #[test]
    fn seed_players_are_named_after_their_program() {
        for (name, aliases) in seeds::NAMES {
            for alias in aliases.iter().chain([&name]) {
                let spec: PlayerSpec = format!("seed:{alias}").parse().unwrap();
                assert_eq!(spec.to_string(), format!("seed:{name}"));
                let player = spec.build(1).unwrap();
                assert_eq!(player.name(), format!("seed:{name}"));
            }
        }
    }
}
