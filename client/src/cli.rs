//! The command line.
//!
//! ```text
//! banco                                   connect screen (last server filled in)
//! banco host [--listen ADDR] [--db PATH|:memory:] [--name NAME] [--plain|--json]
//! banco join ADDR [--name NAME] [--plain|--json] [--fingerprint FP | --no-tls]
//! banco forget HOST[:PORT]                        unpin a server's key (it changed)
//! banco replay FILE [--plain|--json]             a saved game, no server needed
//! banco discover [--wait 1.5s] [--json] [ADDR..]  servers on the LAN
//! banco bot --engine 'gomocup:CMD'|'uci:CMD' --name NAME [--login|--register] [ADDR]
//!           [--challenge NAME | --seek] [--game 'caro --clock 5m+3s'] [--games N]
//!           [--tournament ID] [--stay]        an external engine as a bot account
//! ```
//! `--lang`, `--theme` and `--games-dir` work everywhere and override the settings file.

use clap::{Args, Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "banco",
    version,
    about = "Play caro (gomoku) and xiangqi (Chinese chess) over your LAN from a terminal: host a game, or join one.",
    after_help = "Run `banco host` on one machine and `banco join ITS-IP` on the others.\n\
                  In the game, press ? for every key."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Language of the interface: en, vi, or a locale file's name.
    #[arg(long, global = true, value_name = "CODE")]
    pub lang: Option<String>,
    /// Colour theme: classic, paper, contrast, or a theme file's name.
    #[arg(long, global = true, value_name = "ID")]
    pub theme: Option<String>,
    /// Where games saved from a replay go (default: games in banco's data folder,
    /// ~/.local/share/banco/games, or the settings file's games_dir).
    #[arg(long, global = true, value_name = "DIR")]
    pub games_dir: Option<std::path::PathBuf>,
}

// Parsed once at start: its size does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Start a server on this machine and play on it.
    Host(Box<HostArgs>),
    /// Join a server on the network.
    Join(JoinArgs),
    /// Replay a saved game record (a file saved from a replay, or written by hand).
    Replay(ReplayArgs),
    /// List the banco servers on your network.
    Discover(DiscoverArgs),
    /// Forget the key pinned for a server, after its host confirmed that it changed
    /// (the next connection pins the key it shows).
    Forget(ForgetArgs),
    /// Bring an external engine onto a server as a bot account: it takes the challenges
    /// it can play (a Gomocup engine for caro, a UCI engine for xiangqi) and plays them
    /// on the game's clock.
    Bot(BotArgs),
}

/// Options shared by `host` and `join`.
#[derive(Debug, Default, Args)]
pub struct Player {
    /// Your name in the game (default: the settings file's, else your login name).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Line mode: commands on stdin, events on stdout, no full-screen interface.
    #[arg(long)]
    pub plain: bool,
    /// Line mode with one JSON object per event (implies --plain).
    #[arg(long)]
    pub json: bool,
    /// Line mode: ring the terminal bell when the opponent moves, an offer comes, or the
    /// game ends (the full-screen client rings unless the settings turn it off).
    #[arg(long)]
    pub bell: bool,
    /// Open a saved game record once connected: replay it, and press c at any move to
    /// play on from there in a new room (a saved unfinished game carries on this way).
    #[arg(long, value_name = "FILE")]
    pub open: Option<std::path::PathBuf>,
    /// Log in to your account (--name): the password is asked for without echo (in line
    /// mode with input piped in, it is the first line read). Without it you play as a
    /// guest, `~name`, unrated.
    #[arg(long, conflicts_with = "register")]
    pub login: bool,
    /// Register your name (--name) as an account, with a password asked for as --login
    /// does; you are logged in to it at once.
    #[arg(long)]
    pub register: bool,
}

#[derive(Debug, Args)]
pub struct HostArgs {
    /// Address to listen on; the port defaults to 7373.
    #[arg(long, value_name = "ADDR", default_value = "0.0.0.0:7373")]
    pub listen: String,
    /// Where the server keeps games and ratings: a SQLite file, or :memory: for none.
    #[arg(long, value_name = "PATH|:memory:")]
    pub db: Option<String>,
    /// Do not serve the browser client on the game port (only banco clients can join).
    #[arg(long)]
    pub no_web: bool,
    #[command(flatten)]
    pub limits: banco_server::Limits,
    #[command(flatten)]
    pub tls: banco_server::tls::TlsArgs,
    #[command(flatten)]
    pub player: Player,
}

#[derive(Debug, Args)]
pub struct JoinArgs {
    /// The host's address: an IP or name, optionally with :port (default 7373).
    #[arg(value_name = "ADDR")]
    pub address: String,
    /// The server's key fingerprint, as the host's screen shows it (64 hex digits,
    /// spaces allowed): the connection is refused unless the server shows this key, and
    /// it is pinned for next time.
    #[arg(long, value_name = "FP", value_parser = fingerprint, conflicts_with = "no_tls")]
    pub fingerprint: Option<banco_protocol::Fingerprint>,
    /// Join in the clear, a server started with --no-tls (an older banco's, say):
    /// passwords and the seat's token cross the network readable by anyone on it.
    /// Refused for a server whose key this machine has pinned.
    #[arg(long)]
    pub no_tls: bool,
    #[command(flatten)]
    pub player: Player,
}

fn fingerprint(text: &str) -> Result<banco_protocol::Fingerprint, String> {
    text.parse()
        .map_err(|e: banco_protocol::fingerprint::BadFingerprint| e.to_string())
}

#[derive(Debug, Args)]
pub struct ForgetArgs {
    /// The server, as you join it: a host or IP, optionally with :port (default 7373).
    #[arg(value_name = "ADDR")]
    pub address: String,
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The record file (its format: the book's "The record file", docs/src/formats/record-file.md).
    #[arg(value_name = "FILE")]
    pub file: std::path::PathBuf,
    /// Print the game (its facts, moves and final board) instead of opening the viewer.
    #[arg(long)]
    pub plain: bool,
    /// As --plain, as one JSON object.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct DiscoverArgs {
    /// How long to wait for answers.
    #[arg(long, value_name = "TIME", default_value = "1.5s")]
    pub wait: String,
    /// One JSON object instead of lines for people.
    #[arg(long)]
    pub json: bool,
    /// Where to ask instead of every network this machine is on: a host, an IP, or a
    /// broadcast address such as 192.168.1.255 (UDP port 7373 unless given).
    #[arg(value_name = "ADDR")]
    pub targets: Vec<String>,
}

/// `banco bot`'s options.
#[derive(Debug, Args)]
pub struct BotArgs {
    /// The engine: `gomocup:COMMAND ARGS` (a caro engine speaking the Gomocup protocol)
    /// or `uci:COMMAND ARGS` (a xiangqi engine speaking UCI), run with `sh -c`.
    #[arg(long, value_name = "KIND:COMMAND")]
    pub engine: String,
    /// The bot account's name.
    #[arg(long, value_name = "NAME")]
    pub name: String,
    /// Log in to the bot account (the default): the password comes from the
    /// BANCO_PASSWORD environment variable, else is asked for (or read as the first
    /// line of piped input).
    #[arg(long, conflicts_with = "register")]
    pub login: bool,
    /// Register the name as a bot account first, with the password as --login reads it.
    #[arg(long)]
    pub register: bool,
    /// The server: an IP or name, optionally with :port (default 7373).
    #[arg(value_name = "ADDR", default_value = "127.0.0.1")]
    pub address: String,
    /// Undo requests: `never` declines them, `always` takes the move back.
    #[arg(long, value_name = "never|always", default_value = "never")]
    pub undo: String,
    /// Draw offers: `never`, or `when-not-behind` (the engine's last score is even or
    /// better; an engine that gives no score is taken to be behind).
    #[arg(long, value_name = "never|when-not-behind", default_value = "never")]
    pub draw: String,
    /// Who may challenge the bot: everyone, or accounts only.
    #[arg(long, value_name = "everyone|accounts", default_value = "everyone")]
    pub challenges: String,
    /// The time per move in games without a clock.
    #[arg(long, value_name = "TIME", default_value = "2s")]
    pub move_time: String,
    /// The server's key fingerprint, as for `banco join`.
    #[arg(long, value_name = "FP", value_parser = fingerprint, conflicts_with = "no_tls")]
    pub fingerprint: Option<banco_protocol::Fingerprint>,
    /// Connect in the clear, to a server started with --no-tls.
    #[arg(long)]
    pub no_tls: bool,
    /// Challenge this player (a person, another bot account, or the server's bot by its
    /// name, `Bot (max)`) to the game --game says, again after each game until --games
    /// are played; a decline "not now" or a lapsed challenge is sent again, waiting as
    /// the server asks.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["seek", "tournament"])]
    pub challenge: Option<String>,
    /// Post an open challenge anyone may take (shown in the lobby, with a link), again
    /// after each game until --games are played.
    #[arg(long, conflicts_with = "tournament")]
    pub seek: bool,
    /// The game of --challenge or --seek, written as plain mode's `challenge NAME` goes
    /// on: `caro --size 15 --rule freestyle --clock 5m+3s [--match 2] [--casual]`, or
    /// `xiangqi --clock 10m+5s` (default: the engine's game, rated, no clock).
    #[arg(long, value_name = "GAME OPTIONS", allow_hyphen_values = true)]
    pub game: Option<String>,
    /// How many games (or matches, with --match in --game) the challenges play.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub games: u32,
    /// Enter this tournament and play every pairing in the room the server opens for
    /// it, on its clock; challenges are declined until it is over.
    #[arg(long, value_name = "ID")]
    pub tournament: Option<u32>,
    /// Stay on the server taking challenges once the games are played or the
    /// tournament is over (without it, the bot stops then; without --challenge, --seek
    /// or --tournament it runs until stopped).
    #[arg(long)]
    pub stay: bool,
}

impl BotArgs {
    /// The bot's plan (challenges, a tournament), read with plain mode's `challenge`
    /// parser; `Err`, a sentence, for flags that do not fit together.
    pub fn plan(
        &self,
        engine: &crate::bot::engine::EngineSpec,
    ) -> Result<crate::bot::plan::Plan, String> {
        crate::bot::plan::Plan::read(
            engine,
            self.challenge.as_deref(),
            self.seek,
            self.game.as_deref(),
            self.games,
            self.tournament,
            self.stay,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn bot_reads_its_engine_name_and_policies() {
        let cli = Cli::parse_from([
            "banco",
            "bot",
            "--engine",
            "gomocup:pbrain-rapfi --threads 1",
            "--name",
            "Rapfi",
            "--register",
            "--draw",
            "when-not-behind",
            "192.168.1.20",
        ]);
        let Some(Command::Bot(b)) = cli.command else {
            panic!("bot expected");
        };
        assert_eq!(b.engine, "gomocup:pbrain-rapfi --threads 1");
        assert_eq!(b.name, "Rapfi");
        assert!(b.register && !b.login);
        assert_eq!(b.address, "192.168.1.20");
        assert_eq!(
            (b.undo.as_str(), b.draw.as_str()),
            ("never", "when-not-behind")
        );
        let local = Cli::parse_from(["banco", "bot", "--engine", "uci:fsf", "--name", "F"]);
        let Some(Command::Bot(b)) = local.command else {
            panic!("bot expected");
        };
        assert_eq!(b.address, "127.0.0.1");
        assert!(
            Cli::try_parse_from(["banco", "bot", "--name", "F"]).is_err(),
            "no engine"
        );
    }

    #[test]
    fn bot_reads_its_challenges_and_tournament() {
        let bot = |args: &[&str]| {
            let mut all = vec!["banco", "bot", "--engine", "gomocup:pbrain", "--name", "P"];
            all.extend_from_slice(args);
            match Cli::try_parse_from(all).map(|c| c.command) {
                Ok(Some(Command::Bot(b))) => Ok(b),
                Ok(_) => panic!("bot expected"),
                Err(e) => Err(e),
            }
        };
        let engine = crate::bot::engine::EngineSpec::Gomocup("pbrain".into());
        let b = bot(&[
            "--challenge",
            "Rapfi",
            "--game",
            "caro --clock 1m+1s --rule freestyle",
            "--games",
            "3",
        ])
        .unwrap();
        let seek = b.plan(&engine).unwrap().seek.unwrap();
        assert_eq!((seek.to.as_deref(), seek.games), (Some("Rapfi"), 3));
        // The game may start with an option: the engine's game is taken.
        let b = bot(&["--seek", "--game", "--clock 2m"]).unwrap();
        assert_eq!(b.plan(&engine).unwrap().seek.unwrap().to, None);
        let b = bot(&["--tournament", "4"]).unwrap();
        assert_eq!(b.plan(&engine).unwrap().tournament, Some(4));
        assert!(bot(&["--challenge", "R", "--seek"]).is_err());
        assert!(bot(&["--challenge", "R", "--tournament", "4"]).is_err());
        assert!(bot(&["--seek", "--tournament", "4"]).is_err());
        assert!(bot(&["--games", "2"]).unwrap().plan(&engine).is_err());
    }

    #[test]
    fn command_line_reads_as_documented() {
        Cli::command().debug_assert();
        let cli = Cli::parse_from(["banco", "join", "192.168.1.20", "--name", "Lan", "--json"]);
        let Some(Command::Join(j)) = cli.command else {
            panic!("join expected");
        };
        assert_eq!(j.address, "192.168.1.20");
        assert_eq!(j.player.name.as_deref(), Some("Lan"));
        assert!(j.player.json);
        let cli = Cli::parse_from([
            "banco", "host", "--db", ":memory:", "--plain", "--lang", "vi",
        ]);
        assert_eq!(cli.lang.as_deref(), Some("vi"));
        let games = Cli::parse_from(["banco", "replay", "g.txt", "--games-dir", "/srv/g"]);
        assert_eq!(games.games_dir, Some(std::path::PathBuf::from("/srv/g")));
        let Some(Command::Host(h)) = cli.command else {
            panic!("host expected");
        };
        assert_eq!(h.listen, "0.0.0.0:7373");
        assert_eq!(h.db.as_deref(), Some(":memory:"));
        assert!(h.player.plain);
        let cli = Cli::parse_from([
            "banco",
            "host",
            "--engine-threads",
            "3",
            "--engine-memory",
            "1G",
        ]);
        let Some(Command::Host(h)) = cli.command else {
            panic!("host expected");
        };
        assert_eq!(h.limits.engine_threads, Some(3));
        assert_eq!(h.limits.engine_memory, 1_000_000_000);
        assert!(Cli::try_parse_from(["banco", "join"]).is_err());
        let cli = Cli::parse_from(["banco", "replay", "game.txt", "--json"]);
        let Some(Command::Replay(r)) = cli.command else {
            panic!("replay expected");
        };
        assert_eq!(r.file, std::path::PathBuf::from("game.txt"));
        assert!(r.json);
        let cli = Cli::parse_from(["banco", "discover", "--wait", "3s", "10.0.0.255"]);
        let Some(Command::Discover(d)) = cli.command else {
            panic!("discover expected");
        };
        assert_eq!(
            (d.wait.as_str(), d.targets.as_slice()),
            ("3s", &["10.0.0.255".to_string()][..])
        );
        assert!(!d.json);
        let fp = "3f2a".repeat(16);
        let cli = Cli::parse_from(["banco", "join", "pc-an", "--fingerprint", &fp]);
        let Some(Command::Join(j)) = cli.command else {
            panic!("join expected");
        };
        assert_eq!(j.fingerprint.map(|f| f.hex()), Some(fp.clone()));
        assert!(!j.no_tls);
        assert!(Cli::try_parse_from(["banco", "join", "pc-an", "--fingerprint", "3f2a"]).is_err());
        assert!(
            Cli::try_parse_from(["banco", "join", "pc-an", "--fingerprint", &fp, "--no-tls"])
                .is_err()
        );
        let cli = Cli::parse_from(["banco", "host", "--no-tls"]);
        let Some(Command::Host(h)) = cli.command else {
            panic!("host expected");
        };
        assert!(h.tls.no_tls);
        let cli = Cli::parse_from(["banco", "forget", "pc-an:7400"]);
        assert!(matches!(cli.command, Some(Command::Forget(f)) if f.address == "pc-an:7400"));
    }
}
