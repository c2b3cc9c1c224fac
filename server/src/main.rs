//! `banco-server`: the banco game server, headless. Serves until Ctrl-C or SIGTERM.

use anyhow::Context;
use clap::Parser;
use std::path::PathBuf;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

use banco_protocol::discovery::DISCOVERY_PORT;
use banco_protocol::{DEFAULT_PORT, parse_duration};
use banco_server::store::Archive;
use banco_server::{Config, StoreLocation, default_store_path};

/// Hosts banco rooms (caro and xiangqi) for players on your network.
#[derive(Debug, Parser)]
#[command(name = "banco-server", version, about)]
struct Args {
    /// Address to listen on. 0.0.0.0 lets other machines on the network in.
    #[arg(long, value_name = "ADDR", default_value_t = format!("0.0.0.0:{DEFAULT_PORT}"))]
    listen: String,
    /// SQLite file for players, ratings, finished games and games in progress, or
    /// `:memory:` to keep nothing. Default: banco.db in your data directory.
    #[arg(long, value_name = "PATH", global = true)]
    db: Option<String>,
    /// The server's name shown to players. Default: this machine's host name.
    #[arg(long)]
    name: Option<String>,
    /// How long a dropped player's seat is held for them (e.g. 30s, 2m).
    #[arg(long, value_name = "TIME", value_parser = duration, default_value = "30s")]
    grace: Duration,
    /// How long players of a game in progress when the server stopped have to come back
    /// after it starts again.
    #[arg(long, value_name = "TIME", value_parser = duration, default_value = "5m")]
    restart_grace: Duration,
    /// The pause between moves in rooms where two bots play.
    #[arg(long, value_name = "TIME", value_parser = duration, default_value = "800ms")]
    bot_delay: Duration,
    /// How long an address waits for each account registration once it has registered
    /// its burst of 5 (e.g. 30s; 0s: no limit, for a test bench).
    #[arg(long, value_name = "TIME", value_parser = duration, default_value = "30s")]
    registration_wait: Duration,
    /// Where to answer LAN discovery probes (UDP), so players see this server in their
    /// list without typing its address.
    #[arg(long, value_name = "ADDR", default_value_t = format!("0.0.0.0:{DISCOVERY_PORT}"))]
    discovery: String,
    /// Do not answer LAN discovery probes: players join by address only.
    #[arg(long, conflicts_with = "discovery")]
    no_discovery: bool,
    /// Do not serve the browser client on the game port: only banco clients can join.
    #[arg(long)]
    no_web: bool,
    /// Print the best rated players from the database and exit.
    #[arg(long)]
    leaderboard: bool,
    /// List the banco servers answering on the local network (a one-second broadcast
    /// probe) and exit: a way to check that this host can be discovered.
    #[arg(long)]
    discover: bool,
    /// With --discover: probe these addresses (e.g. 192.168.1.23:7373) instead of
    /// broadcasting.
    #[arg(long, value_name = "ADDR", requires = "discover")]
    probe: Vec<std::net::SocketAddr>,
    #[command(flatten)]
    limits: banco_server::Limits,
    #[command(flatten)]
    tls: banco_server::tls::TlsArgs,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Players' accounts in the database (--db): safe while the server runs.
    Account {
        #[command(subcommand)]
        action: AccountAction,
    },
}

#[derive(Debug, clap::Subcommand)]
enum AccountAction {
    /// Every account and when it was registered.
    List,
    /// Give an account a new random password, printed to tell its owner.
    ResetPassword { name: String },
    /// Remove an account: its games stay, and anyone may register the name again.
    Remove { name: String },
}

fn duration(text: &str) -> Result<Duration, String> {
    if let Some(ms) = text.trim().strip_suffix("ms") {
        return ms
            .trim()
            .parse()
            .map(Duration::from_millis)
            .map_err(|_| format!("'{text}' is not a time"));
    }
    parse_duration(text).map_err(|e| e.to_string())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        // Colours only for a person at a terminal: a log file or journald gets plain text.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        // A log that can no longer be written (the terminal closed, `| tee` stopped by
        // Ctrl-C, journald restarted) must cost log lines, never a task: by default the
        // subscriber reports the failure with eprintln!, which panics when stderr is
        // the broken pipe, taking down whichever room or session was logging.
        .log_internal_errors(false)
        .init();
    let args = Args::parse();

    let store = match args.db.as_deref() {
        Some(":memory:") => StoreLocation::Memory,
        Some(path) => StoreLocation::File(PathBuf::from(path)),
        None => default_store_path().map_or(StoreLocation::Memory, StoreLocation::File),
    };
    if let Some(Command::Account { action }) = &args.command {
        return account(&store, action);
    }
    if args.leaderboard {
        return print_leaderboard(&store);
    }
    if args.discover {
        return print_servers(&args.probe);
    }
    let discovery =
        if args.no_discovery {
            None
        } else {
            Some(args.discovery.parse().with_context(|| {
                format!("'{}' is not an address like 0.0.0.0:7373", args.discovery)
            })?)
        };
    let mut config = Config {
        store,
        discovery,
        grace: args.grace,
        restart_grace: args.restart_grace,
        bot_delay: args.bot_delay,
        registration_refill: args.registration_wait,
        web: !args.no_web,
        tls: args.tls.tls(),
        ..Config::default()
    };
    args.limits.apply(&mut config);
    if let Some(name) = args.name {
        config.name = name;
    }
    // Listening before anything starts: a stop signal however early is a clean stop.
    let stop = banco_server::StopSignal::listen();
    let listener = tokio::net::TcpListener::bind(&args.listen)
        .await
        .map_err(|e| listen_error(&args.listen, &e))?;
    let shutdown = CancellationToken::new();
    tokio::spawn({
        let shutdown = shutdown.clone();
        async move {
            stop.recv().await;
            shutdown.cancel();
            tracing::info!("stop signal received");
        }
    });
    banco_server::run(listener, config, shutdown).await
}

fn account(store: &StoreLocation, action: &AccountAction) -> anyhow::Result<()> {
    use banco_server::accounts::admin;
    let StoreLocation::File(path) = store else {
        anyhow::bail!("an in-memory store has no accounts: name the database with --db");
    };
    let mut conn = admin::open(path)?;
    match action {
        AccountAction::List => {
            let lines = admin::list(&conn)?;
            if lines.is_empty() {
                println!("No accounts yet.");
            }
            for line in lines {
                println!("{line}");
            }
        }
        AccountAction::ResetPassword { name } => {
            let password = admin::reset_password(&mut conn, name)?;
            println!("New password for {name}: {password}");
            println!("Tell them; they can choose their own once logged in.");
        }
        AccountAction::Remove { name } => {
            admin::remove(&mut conn, name)?;
            println!("Removed the account {name}; its games stay in the records.");
        }
    }
    Ok(())
}

fn print_servers(targets: &[std::net::SocketAddr]) -> anyhow::Result<()> {
    let targets = if targets.is_empty() {
        banco_server::discovery::default_targets()
    } else {
        targets.to_vec()
    };
    let found = banco_server::discovery::probe(&targets, Duration::from_secs(1));
    if found.is_empty() {
        println!(
            "No banco server answered. Servers answer on UDP port {DISCOVERY_PORT}: check that \
             a firewall lets it in, and that you are on the same network."
        );
        return Ok(());
    }
    for (addr, beacon) in found {
        let version = if beacon.version == banco_protocol::PROTOCOL_VERSION {
            String::new()
        } else {
            format!(
                "  (protocol {}: needs another banco version)",
                beacon.version
            )
        };
        println!(
            "{addr:<22} {:<24} {} room(s), {} player(s){version}",
            beacon.name, beacon.rooms, beacon.players
        );
    }
    Ok(())
}

fn print_leaderboard(store: &StoreLocation) -> anyhow::Result<()> {
    let StoreLocation::File(path) = store else {
        anyhow::bail!("an in-memory store has no leaderboard: name the database with --db");
    };
    let archive = Archive::open(path)
        .with_context(|| format!("cannot read the database {}", path.display()))?;
    for (n, kind) in banco_protocol::GameKind::ALL.into_iter().enumerate() {
        let standings = archive.leaderboard(kind, 20)?;
        if n > 0 {
            println!();
        }
        println!("{kind}:");
        if standings.is_empty() {
            println!("  No rated games yet.");
            continue;
        }
        println!(
            "{:>4}  {:<24} {:>7} {:>4} {:>5} {:>5} {:>5} {:>6}",
            "#", "player", "rating", "rd", "games", "won", "lost", "drawn"
        );
        for (i, s) in standings.iter().enumerate() {
            let name = match &s.bot {
                Some(level) => format!("{} [{level}]", s.name),
                None => s.name.clone(),
            };
            let rating = s.rating.to_wire();
            // Provisional ratings are listed after the settled ones, unranked.
            let place = if rating.provisional {
                "-".to_string()
            } else {
                (i + 1).to_string()
            };
            println!(
                "{:>4}  {:<24} {:>7} {:>4} {:>5} {:>5} {:>5} {:>6}",
                place,
                name,
                rating.to_string(),
                rating.deviation,
                s.games,
                s.wins,
                s.losses,
                s.draws
            );
        }
    }
    Ok(())
}

/// Why the server cannot listen on `listen`, in a sentence that says what to do and with
/// which flag, as `banco host` words it.
fn listen_error(listen: &str, e: &std::io::Error) -> anyhow::Error {
    let (host, port) = listen.rsplit_once(':').unwrap_or((listen, ""));
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let sentence = match (e.kind(), port.parse::<u16>()) {
        (std::io::ErrorKind::AddrInUse, Ok(port)) => {
            let next = port.wrapping_add(1).max(1024);
            format!(
                "port {port} is already in use on this machine (another banco server?). \
                 Listen on another port with --listen {host}:{next}, and players join with ADDRESS:{next}"
            )
        }
        (std::io::ErrorKind::AddrNotAvailable, _) => format!(
            "{host} is not an address of this machine: listen with --listen 0.0.0.0:{port} (every network) or on one of its own IPs"
        ),
        (std::io::ErrorKind::PermissionDenied, Ok(port)) => format!(
            "not allowed to listen on port {port}: ports below 1024 need administrator rights; the default {DEFAULT_PORT} does not"
        ),
        _ => format!(
            "cannot listen on {listen}: {e}; give --listen an address like 0.0.0.0:{DEFAULT_PORT}"
        ),
    };
    anyhow::anyhow!(sentence)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listen_errors_say_what_to_do() {
        let in_use = std::io::Error::from(std::io::ErrorKind::AddrInUse);
        assert_eq!(
            listen_error("0.0.0.0:7373", &in_use).to_string(),
            "port 7373 is already in use on this machine (another banco server?). \
             Listen on another port with --listen 0.0.0.0:7374, and players join with ADDRESS:7374"
        );
        let not_ours = std::io::Error::from(std::io::ErrorKind::AddrNotAvailable);
        assert!(
            listen_error("10.9.9.9:7373", &not_ours)
                .to_string()
                .starts_with("10.9.9.9 is not an address of this machine")
        );
        let denied = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        assert!(
            listen_error("0.0.0.0:80", &denied)
                .to_string()
                .contains("ports below 1024")
        );
    }

    #[tokio::test]
    async fn a_taken_port_is_worded_not_dumped() {
        let taken = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = taken.local_addr().unwrap().to_string();
        let e = tokio::net::TcpListener::bind(&addr).await.unwrap_err();
        let text = format!("{:?}", listen_error(&addr, &e));
        assert!(text.contains("is already in use"), "{text}");
        assert!(!text.contains("os error"), "{text}");
    }
}
