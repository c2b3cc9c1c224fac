//! `banco`: host or join a game of caro or xiangqi on the LAN, in a terminal or in line
//! mode; replay saved games.

use anyhow::Context;
use banco_client::app::App;
use banco_client::cli::{Cli, Command, Player};
use banco_client::known_hosts::{self, PinSource, Trust};
use banco_client::locale::Locale;
use banco_client::net::{Connection, Link, address_text};
use banco_client::plain::{self, Ending, Format};
use banco_client::seats::SeatKeeper;
use banco_client::settings::{self, Settings, config_dir, os_user_name, settings_path, state_dir};
use banco_client::theme::Theme;
use banco_client::{discover, host, tui};
use clap::Parser;
use std::process::ExitCode;
use std::time::Instant;

/// What every front end needs: text, colours, settings and where they live.
struct Setup {
    loc: Locale,
    theme: Theme,
    settings: Settings,
    dir: Option<std::path::PathBuf>,
    /// Where replays are saved.
    games_dir: Option<std::path::PathBuf>,
    /// Problems with the user's files: shown, never fatal.
    warnings: Vec<String>,
    /// How servers' keys are checked: pinned on first use in the state directory,
    /// unless the command says otherwise (`--no-tls`, `--fingerprint`, hosting).
    trust: Trust,
}

fn setup(cli: &Cli) -> Setup {
    let dir = config_dir();
    let mut warnings = Vec::new();
    let settings = match dir.as_deref().map(|d| Settings::load(&settings_path(d))) {
        Some(Ok(s)) => s,
        Some(Err(e)) => {
            warnings.push(e.to_string());
            Settings::default()
        }
        None => Settings::default(),
    };
    let lang = cli
        .lang
        .clone()
        .or_else(|| settings.language.clone())
        .unwrap_or_else(|| "en".to_string());
    let loc = Locale::load(&lang, dir.as_deref()).unwrap_or_else(|e| {
        warnings.push(e.to_string());
        Locale::english()
    });
    let theme_id = cli
        .theme
        .clone()
        .or_else(|| settings.theme.clone())
        .unwrap_or_else(|| "classic".to_string());
    let theme = Theme::load(&theme_id, dir.as_deref()).unwrap_or_else(|e| {
        warnings.push(e.to_string());
        Theme::classic()
    });
    let trust = Trust::from_state_dir(state_dir().as_deref());
    warnings.extend(trust.problems.iter().cloned());
    Setup {
        loc,
        theme,
        games_dir: settings::games_dir(cli.games_dir.as_deref(), &settings),
        settings,
        dir,
        warnings,
        trust,
    }
}

/// Logs go to stderr in line mode and nowhere in the full-screen client (they would
/// scribble over it) unless `RUST_LOG` is set, in which case to
/// `<state dir>/banco.log` (see [`state_dir`]).
fn init_logging(plain: bool) {
    use tracing_subscriber::EnvFilter;
    let filter = || EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("warn"));
    if plain {
        let _ = tracing_subscriber::fmt()
            .with_env_filter(filter())
            .with_writer(std::io::stderr)
            .try_init();
        return;
    }
    if std::env::var_os("RUST_LOG").is_none() {
        return;
    }
    let Some(dir) = state_dir() else {
        return;
    };
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    if let Ok(file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("banco.log"))
    {
        let _ = tracing_subscriber::fmt()
            .with_env_filter(filter())
            .with_ansi(false)
            .with_writer(std::sync::Mutex::new(file))
            .try_init();
    }
}

fn player_name(player: &Player, settings: &Settings) -> String {
    player
        .name
        .clone()
        .or_else(|| settings.name.clone())
        .unwrap_or_else(os_user_name)
}

/// The trust `banco join` connects with: `--no-tls`, `--fingerprint`, or the pins.
fn join_trust(j: &banco_client::cli::JoinArgs, trust: Trust) -> Trust {
    match (j.no_tls, j.fingerprint) {
        (true, _) => trust.in_the_clear(),
        (false, Some(fp)) => trust.expecting(&j.address, fp, PinSource::Flag),
        (false, None) => trust,
    }
}

/// What line mode says on stderr about how the connection is protected: the server's
/// fingerprint the first time (to compare with the host's screen), a pin that could not
/// be kept.
fn say_security(link: &Link, address: &str, loc: &Locale) {
    if let Some(problem) = &link.pin_problem {
        eprintln!("banco: {problem}");
    }
    if let (true, Some(fp)) = (link.security.first_use(), link.security.fingerprint()) {
        let addr = banco_client::seats::server_key(address);
        eprintln!(
            "banco: {}",
            banco_client::tr!(loc, "net.first_use", addr = addr, fingerprint = fp)
        );
    }
}

/// Runs a line-mode session against `address`.
async fn run_plain(
    address: &str,
    name: &str,
    player: &Player,
    s: Setup,
) -> anyhow::Result<ExitCode> {
    let json = player.json;
    let trust = s.trust.clone();
    for w in &s.warnings {
        eprintln!("banco: {w}");
    }
    // A seat an earlier run held on this server (it crashed, or its terminal closed)
    // is taken back.
    let mut seats = SeatKeeper::new(state_dir().as_deref());
    let resume = seats.claim(address);
    let account = credentials(name, player)?;
    let link = Connection::open_trusting(address, name, resume, account.clone(), &trust)
        .await
        .map_err(|e| anyhow::anyhow!(e.describe(&s.loc)))?
        .start();
    say_security(&link, address, &s.loc);
    seats.greeted(link.welcome.resume);
    let format = if json { Format::Json } else { Format::Text };
    let stdin = tokio::io::BufReader::new(tokio::io::stdin());
    let printer = plain::Printer::new(std::io::stdout(), format, s.loc).with_bell(player.bell);
    let mut redial = plain::Redial::new(address, seats);
    redial.tty = std::io::IsTerminal::is_terminal(&std::io::stdin());
    redial.trust = trust;
    // Logging in again after a drop; a registration is a login by then.
    redial.account = account.map(banco_protocol::Credentials::as_login);
    let ending = plain::run_printing(link, stdin, printer, Some(redial)).await?;
    Ok(match ending {
        Ending::Quit => ExitCode::SUCCESS,
        Ending::ServerClosed => ExitCode::FAILURE,
    })
}

/// The password for `--login` / `--register`, read without echo from the terminal (twice
/// to register), or as the first line of piped input; never from the command line.
fn credentials(name: &str, player: &Player) -> anyhow::Result<Option<banco_protocol::Credentials>> {
    use std::io::IsTerminal;
    if !player.login && !player.register {
        return Ok(None);
    }
    let password = if std::io::stdin().is_terminal() {
        let first = rpassword::prompt_password(format!("Password for {name}: "))
            .context("could not read the password")?;
        if player.register {
            let again = rpassword::prompt_password("The same password again: ")
                .context("could not read the password")?;
            if again != first {
                anyhow::bail!("the two passwords differ: nothing was registered");
            }
        }
        first
    } else {
        let mut line = String::new();
        std::io::stdin()
            .read_line(&mut line)
            .context("could not read the password")?;
        line.trim_end_matches(['\r', '\n']).to_string()
    };
    Ok(Some(banco_protocol::Credentials::password(
        password,
        player.register,
    )))
}

/// `banco bot`: the engine checked, the bot account logged in (its password from
/// BANCO_PASSWORD, else asked for, else the first line of piped input), then the bot's
/// loop until it is stopped.
async fn run_bot(b: &banco_client::cli::BotArgs, s: Setup) -> anyhow::Result<ExitCode> {
    use banco_client::bot;
    let engine: bot::engine::EngineSpec = b.engine.parse().map_err(anyhow::Error::msg)?;
    let plan = b.plan(&engine).map_err(anyhow::Error::msg)?;
    let undo = b.undo.parse().map_err(anyhow::Error::msg)?;
    let draw = b.draw.parse().map_err(anyhow::Error::msg)?;
    let challenges: banco_protocol::ChallengePolicy =
        b.challenges.parse().map_err(anyhow::Error::msg)?;
    if challenges == banco_protocol::ChallengePolicy::Nobody {
        anyhow::bail!("a bot that takes no challenges would never play: say everyone or accounts");
    }
    let move_time = banco_protocol::parse_duration(&b.move_time)?;
    let password = match std::env::var("BANCO_PASSWORD") {
        Ok(p) if !p.is_empty() => p,
        _ => {
            let player = Player {
                login: true,
                register: b.register,
                ..Player::default()
            };
            match credentials(&b.name, &player)? {
                Some(banco_protocol::Credentials::Password { password, .. }) => password,
                _ => anyhow::bail!("no password for {}", b.name),
            }
        }
    };
    let credentials = banco_protocol::Credentials::Password {
        password,
        register: b.register,
        remember: false,
        bot: true,
    };
    for w in &s.warnings {
        eprintln!("banco: {w}");
    }
    let trust = match (b.no_tls, b.fingerprint) {
        (true, _) => s.trust.in_the_clear(),
        (false, Some(fp)) => s.trust.expecting(&b.address, fp, PinSource::Flag),
        (false, None) => s.trust,
    };
    bot::run(
        bot::Options {
            engine,
            name: b.name.clone(),
            address: b.address.clone(),
            credentials,
            undo,
            draw,
            challenges,
            move_time,
            trust,
            plan,
        },
        banco_server::StopSignal::listen().recv(),
    )
    .await?;
    Ok(ExitCode::SUCCESS)
}

/// The record `--open FILE` names, read before anything starts so a bad file is said at
/// once; the full-screen client opens it once connected.
fn open_record(player: &Player) -> anyhow::Result<Option<banco_client::record::Replay>> {
    let Some(path) = &player.open else {
        return Ok(None);
    };
    if player.plain || player.json {
        anyhow::bail!(
            "--open works in the full-screen client; in line mode, `banco replay FILE --plain` prints a record"
        );
    }
    Ok(Some(banco_client::record::file::load(path)?))
}

/// Runs the full-screen client; with an `address` it dials at once.
async fn run_tui(
    address: Option<String>,
    name: String,
    hosting: Option<(String, Vec<String>, Vec<String>)>,
    opened: Option<banco_client::record::Replay>,
    player: &Player,
    s: Setup,
    stop: banco_server::StopSignal,
) -> anyhow::Result<ExitCode> {
    let trust = s.trust.clone();
    let mut app = App::new(s.loc, s.theme, s.settings, s.dir, name, Instant::now());
    app.games_dir = s.games_dir;
    app.open_after_connect = opened;
    if let Some((listen, join_hint, web_urls)) = hosting {
        app.hosting = Some(banco_client::app::Hosting {
            listen,
            join_hint,
            web_urls,
        });
    }
    let login = player.login || player.register;
    // With --login the connect screen waits for the password.
    let connect_now = address.is_some() && !login;
    if let Some(a) = address {
        app.set_address(&a);
    }
    if login {
        app.ask_password(player.register);
    }
    if let Some(w) = s.warnings.first() {
        app.warn(w.clone());
    }
    tui::run(
        app,
        connect_now,
        SeatKeeper::new(state_dir().as_deref()),
        trust,
        stop,
    )
    .await?;
    Ok(ExitCode::SUCCESS)
}

async fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let mut s = setup(&cli);
    match cli.command {
        None => {
            run_tui(
                None,
                player_name(&Player::default(), &s.settings),
                None,
                None,
                &Player::default(),
                s,
                banco_server::StopSignal::listen(),
            )
            .await
        }
        Some(Command::Join(j)) => {
            let name = player_name(&j.player, &s.settings);
            let opened = open_record(&j.player)?;
            s.trust = join_trust(&j, s.trust);
            if j.player.plain || j.player.json {
                run_plain(&j.address, &name, &j.player, s).await
            } else {
                let stop = banco_server::StopSignal::listen();
                run_tui(
                    Some(j.address.clone()),
                    name,
                    None,
                    opened,
                    &j.player,
                    s,
                    stop,
                )
                .await
            }
        }
        Some(Command::Forget(f)) => {
            let said = known_hosts::forget(state_dir().as_deref(), &f.address)
                .map_err(anyhow::Error::msg)?;
            println!("{said}");
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Replay(r)) => {
            let replay = banco_client::record::file::load(&r.file)?;
            if r.plain || r.json {
                let format = if r.json { Format::Json } else { Format::Text };
                let mut printer = plain::Printer::new(std::io::stdout(), format, s.loc);
                printer.replay(&replay);
                return Ok(ExitCode::SUCCESS);
            }
            let mut app = App::new(
                s.loc,
                s.theme,
                s.settings,
                s.dir,
                String::new(),
                Instant::now(),
            );
            app.games_dir = s.games_dir;
            app.open_offline_replay(replay);
            tui::run(
                app,
                false,
                SeatKeeper::none(),
                Trust::default(),
                banco_server::StopSignal::listen(),
            )
            .await?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Discover(d)) => {
            let wait = banco_protocol::parse_duration(&d.wait)?;
            let targets = if d.targets.is_empty() {
                None
            } else {
                let parsed: Result<Vec<_>, String> =
                    d.targets.iter().map(|t| discover::target(t)).collect();
                Some(parsed.map_err(anyhow::Error::msg)?)
            };
            let mut found = discover::scan(targets, wait).await;
            discover::vouch(&mut found, &s.trust);
            let format = if d.json { Format::Json } else { Format::Text };
            plain::Printer::new(std::io::stdout(), format, s.loc).servers(&found, wait);
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Bot(b)) => run_bot(&b, s).await,
        Some(Command::Host(h)) => {
            let name = player_name(&h.player, &s.settings);
            let opened = open_record(&h.player)?;
            // Listening before the server starts: a Ctrl-C or SIGTERM from here on stops
            // it cleanly, however early it comes.
            let stop = banco_server::StopSignal::listen();
            let hosted =
                host::start(&h.listen, h.db.as_deref(), !h.no_web, &h.limits, &h.tls).await?;
            let target = hosted.connect_address();
            let shown = address_text(&hosted.addr.ip().to_string(), hosted.addr.port());
            // The host's own client expects its own server's key, pinned nowhere.
            s.trust = match hosted.fingerprint {
                Some(fp) => Trust::default().expecting(&target, fp, PinSource::OwnServer),
                None => Trust::default().in_the_clear(),
            };
            let code = if h.player.plain || h.player.json {
                match hosted.fingerprint {
                    Some(fp) => eprintln!(
                        "banco: hosting on {shown}, encrypted; players compare the key fingerprint {fp}"
                    ),
                    None => eprintln!(
                        "banco: hosting on {shown} without encryption (--no-tls): passwords cross the network in the clear"
                    ),
                }
                // Ctrl-C or SIGTERM stops the hosted server cleanly (its store closed).
                tokio::select! {
                    code = run_plain(&target, &name, &h.player, s) => code,
                    () = stop.recv() => Ok(ExitCode::SUCCESS),
                }
            } else {
                let lan = discover::lan_addresses();
                let join = discover::join_addresses(hosted.addr, &lan);
                let web = if h.no_web {
                    Vec::new()
                } else {
                    discover::web_urls(hosted.addr, &lan, hosted.fingerprint.is_some())
                };
                run_tui(
                    Some(target),
                    name,
                    Some((shown, join, web)),
                    opened,
                    &h.player,
                    s,
                    stop,
                )
                .await
            };
            hosted.stop().await;
            code
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let plain = match &cli.command {
        Some(Command::Join(j)) => j.player.plain || j.player.json,
        Some(Command::Host(h)) => h.player.plain || h.player.json,
        Some(Command::Replay(r)) => r.plain || r.json,
        Some(Command::Discover(_) | Command::Forget(_) | Command::Bot(_)) => true,
        None => false,
    };
    init_logging(plain);
    let runtime = match tokio::runtime::Runtime::new().context("could not start the async runtime")
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("banco: {e:#}");
            return ExitCode::FAILURE;
        }
    };
    let code = match runtime.block_on(run(cli)) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("banco: {e}");
            ExitCode::FAILURE
        }
    };
    // Everything that matters (the hosted server, its store) has stopped by now; a
    // thread still blocked reading stdin (plain mode told to stop by a signal) must not
    // keep the process alive, as dropping the runtime would wait for it.
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    code
}
