//! The terminal front end: the event task and the main loop.
//!
//! - [`terminal`]: raw mode, alternate screen, mouse, and the panic hook.
//!
//! One channel carries everything that can happen: terminal input, a tick for the
//! clocks, the outcome of a connection attempt and the server's messages. The loop takes
//! events, hands them to the [`App`], carries out the effects it queued, and draws.

pub mod terminal;

use crossterm::event::{Event as TermEvent, EventStream};
use futures::StreamExt;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

use crate::app::{App, Effect};
use crate::known_hosts::Trust;
use crate::net::{ConnectError, Connection, Link, NetEvent};
use crate::seats::SeatKeeper;
use crate::settings::settings_path;
use crate::tr;

/// How often the screen is redrawn when nothing happens (the clocks move).
const TICK: Duration = Duration::from_millis(200);

/// Everything the loop waits for.
enum Event {
    Term(TermEvent),
    Tick,
    /// A connection attempt finished; `attempt` tells stale attempts apart.
    Connected {
        attempt: u64,
        result: Result<Link, ConnectError>,
    },
    /// From the connection of attempt `attempt`.
    Net {
        attempt: u64,
        event: NetEvent,
    },
    /// A look for servers on the network finished.
    Discovered(Vec<crate::discover::Found>),
}

/// Runs the terminal client until the user quits. With `connect_now`, the connect
/// form's address is dialled at once (as `banco join ADDR` and `banco host` do).
/// `seats` keeps the resume token of a seat held, and gives one back when a server is
/// dialled where an earlier run held a seat.
/// `trust` checks each server's key (pinning it on first use).
/// `stop` (listening since before the caller started anything) ends it as `q` would.
pub async fn run(
    mut app: App,
    connect_now: bool,
    seats: SeatKeeper,
    trust: Trust,
    stop: banco_server::StopSignal,
) -> anyhow::Result<()> {
    let mut term = terminal::enter()?;
    // SIGTERM (or a Ctrl-C sent by `kill`: in the full screen Ctrl-C is a key) quits as
    // `q` would: the terminal is given back, and `banco host` then stops its server
    // cleanly, instead of dying with the terminal left in raw mode.
    let result = tokio::select! {
        r = main_loop(&mut term, &mut app, connect_now, seats, trust) => r,
        () = stop.recv() => Ok(()),
    };
    terminal::leave();
    result
}

async fn main_loop(
    term: &mut terminal::Term,
    app: &mut App,
    connect_now: bool,
    mut seats: SeatKeeper,
    trust: Trust,
) -> anyhow::Result<()> {
    let (tx, mut rx) = mpsc::unbounded_channel::<Event>();
    let input = tx.clone();
    tokio::spawn(async move {
        let mut events = EventStream::new();
        while let Some(Ok(ev)) = events.next().await {
            if input.send(Event::Term(ev)).is_err() {
                break;
            }
        }
    });
    let ticks = tx.clone();
    tokio::spawn(async move {
        let mut interval = tokio::time::interval(TICK);
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            interval.tick().await;
            if ticks.send(Event::Tick).is_err() {
                break;
            }
        }
    });

    let size = term.size()?;
    app.resize(size.width, size.height);
    app.now = Instant::now();
    if connect_now {
        app.connect();
    }
    let mut attempt = 0u64;
    let mut link: Option<Link> = None;
    // The server as first dialled: seats are kept under it (a reconnection dials the
    // address it resolved to).
    let mut seat_server = String::new();
    let mut forwarder: Option<tokio::task::JoinHandle<()>> = None;
    loop {
        // Carry out what the last events asked for.
        for effect in app.take_effects() {
            match effect {
                Effect::Send(msg) => {
                    let refused = match &link {
                        Some(l) => l.outgoing.try_send(msg).err().map(|_| "net.busy"),
                        None => Some("net.offline"),
                    };
                    if let Some(key) = refused {
                        let text = tr!(app.loc, key).to_string();
                        app.warn(text);
                    }
                }
                Effect::Connect {
                    address,
                    name,
                    mut resume,
                    account,
                } => {
                    if resume.is_none() {
                        // A fresh start: a seat an earlier run held there is taken back.
                        seat_server.clone_from(&address);
                        resume = seats.claim(&address);
                    }
                    attempt += 1;
                    if let Some(f) = forwarder.take() {
                        f.abort();
                    }
                    link = None;
                    let tx = tx.clone();
                    let this = attempt;
                    let trust = trust.clone();
                    tokio::spawn(async move {
                        let result =
                            Connection::open_trusting(&address, &name, resume, account, &trust)
                                .await
                                .map(Connection::start);
                        let _ = tx.send(Event::Connected {
                            attempt: this,
                            result,
                        });
                    });
                }
                Effect::Discover => {
                    let tx = tx.clone();
                    // Targets from the settings (a bad one is skipped: the others still
                    // answer); none means every network this machine is on.
                    let targets: Vec<_> = app
                        .settings
                        .discover
                        .iter()
                        .filter_map(|t| crate::discover::target(t).ok())
                        .collect();
                    let targets = (!app.settings.discover.is_empty()).then_some(targets);
                    let trust = trust.clone();
                    tokio::spawn(async move {
                        let mut found =
                            crate::discover::scan(targets, crate::discover::SCAN_WAIT).await;
                        crate::discover::vouch(&mut found, &trust);
                        let _ = tx.send(Event::Discovered(found));
                    });
                }
                Effect::KeepSeat { room } => {
                    if let Some(l) = &link
                        && let Err(e) = seats.keep(&seat_server, l.welcome.resume, room)
                    {
                        app.warn(e.to_string());
                    }
                }
                Effect::ForgetSeat => seats.forget(),
                Effect::Bell => {
                    use std::io::Write;
                    // BEL straight to the terminal: it rings (or flashes) whatever is drawn.
                    let mut out = std::io::stdout();
                    let _ = out.write_all(b"\x07").and_then(|()| out.flush());
                }
                Effect::SaveSettings => {
                    if let Some(dir) = &app.config_dir
                        && let Err(e) = app.settings.save(&settings_path(dir))
                    {
                        app.warn(e.to_string());
                    }
                }
                Effect::SaveRecord { path, text } => {
                    // The games folder is made on the first save; a failure to make it
                    // shows as the save's own error.
                    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                        let _ = std::fs::create_dir_all(dir);
                    }
                    let result = crate::record::file::save_new(&path, &text);
                    app.record_saved(&path, result);
                }
                Effect::Disconnect => {
                    // Events of the closed link are stale from here on.
                    attempt += 1;
                    if let Some(f) = forwarder.take() {
                        f.abort();
                    }
                    if let Some(l) = link.take() {
                        tokio::spawn(l.close(Duration::from_secs(1)));
                    }
                }
                Effect::Quit => {
                    if let Some(f) = forwarder.take() {
                        f.abort();
                    }
                    if let Some(l) = link.take() {
                        l.close(Duration::from_secs(1)).await;
                    }
                    return Ok(());
                }
            }
        }
        term.draw(|frame| crate::ui::draw(frame, app))?;

        // Wait for something, then take everything already queued before drawing again.
        let Some(first) = rx.recv().await else {
            return Ok(());
        };
        let mut next = Some(first);
        while let Some(event) = next {
            app.now = Instant::now();
            match event {
                Event::Term(TermEvent::Key(k)) => app.key(k),
                Event::Term(TermEvent::Mouse(m)) => app.mouse(m),
                Event::Term(TermEvent::Resize(w, h)) => {
                    app.resize(w, h);
                    term.autoresize()?;
                }
                Event::Tick => app.tick(),
                Event::Term(_) => {}
                Event::Connected { attempt: a, result } if a == attempt => match result {
                    Ok(mut l) => {
                        seats.greeted(l.welcome.resume);
                        let address =
                            crate::net::address_text(&l.addr.ip().to_string(), l.addr.port());
                        app.connected(l.welcome.clone(), address);
                        app.session.security = Some(l.security);
                        if let Some(problem) = l.pin_problem.take() {
                            app.warn(problem);
                        } else if l.security.first_use() {
                            // The first meeting: the player compares the fingerprint the
                            // lobby shows with the host's.
                            let addr = crate::seats::server_key(&app.session.address);
                            let text = tr!(app.loc, "net.first_use_above", addr = addr);
                            app.info(text);
                        }
                        let mut incoming = std::mem::replace(&mut l.incoming, mpsc::channel(1).1);
                        let tx = tx.clone();
                        forwarder = Some(tokio::spawn(async move {
                            while let Some(event) = incoming.recv().await {
                                if tx.send(Event::Net { attempt: a, event }).is_err() {
                                    break;
                                }
                            }
                        }));
                        link = Some(l);
                    }
                    Err(e) => app.connect_failed(&e),
                },
                Event::Connected { .. } => {}
                Event::Net { attempt: a, event } if a == attempt => match event {
                    NetEvent::Msg(msg) => app.server(msg),
                    NetEvent::Closed(lost) => {
                        link = None;
                        app.disconnected(lost);
                    }
                },
                Event::Net { .. } => {}
                Event::Discovered(found) => app.discovered(found),
            }
            next = rx.try_recv().ok();
        }
    }
}
