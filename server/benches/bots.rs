//! The engine pool under load: the real release `banco-server` with many rooms of max
//! against max, beside a game between two people and a person's game against a medium bot.
//!
//! ```sh
//! nice -n 10 cargo bench -p banco-server --bench bots -- --rooms 50 --secs 60
//! ```
//!
//! Options: `--rooms N` (bots-only rooms, default 50), `--xiangqi N` (how many of them
//! play xiangqi, default none: caro), `--secs S` (how long the people play, default 60),
//! `--memory SIZE` (`--engine-memory`, default 256MiB), `--threads N`
//! (`--engine-threads`, default the server's own), `--server PATH` (another build of
//! `banco-server`, to compare builds in one run; default this one). A host with one search thread, a
//! caro and a xiangqi game between bots and a person's caro bot (`--rooms 2 --xiangqi 1
//! --threads 1`) has the thread move between the games at nearly every job. Prints the server's RSS against the
//! engine budget + 100 MB, the people's move acknowledgements (p50/p99/max, target
//! < 5 ms) and the medium bot's answers against its level's time + 20%. Nothing is
//! asserted: the machine is shared; read the figures.

use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_util::codec::Framed;

use banco_protocol::{
    ClientCodec, ClientMsg, GameSettings, Hello, Level, Move, PROTOCOL_VERSION, Point,
    RoomSettings, Seat, SeatKind, ServerMsg,
};

type Result<T> = std::result::Result<T, Box<dyn std::error::Error + Send + Sync>>;

/// A medium caro bot's time per move (the engine's level table).
fn medium_time() -> Duration {
    banco_engine::caro::Config::for_level(banco_rules::Level::Medium).move_time
}

struct Options {
    rooms: usize,
    xiangqi: usize,
    secs: u64,
    memory: String,
    threads: Option<String>,
    server: Option<String>,
}

fn options() -> Options {
    let mut o = Options {
        rooms: 50,
        xiangqi: 0,
        secs: 60,
        memory: "256MiB".into(),
        threads: None,
        server: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_default();
        match a.as_str() {
            "--rooms" => o.rooms = value().parse().unwrap_or(50),
            "--xiangqi" => o.xiangqi = value().parse().unwrap_or(0),
            "--secs" => o.secs = value().parse().unwrap_or(60),
            "--memory" => o.memory = value(),
            "--threads" => o.threads = Some(value()),
            "--server" => o.server = Some(value()),
            _ => {}
        }
    }
    o
}

/// The server process, killed when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start(o: &Options) -> Result<Server> {
        let mut cmd = Command::new(
            o.server
                .as_deref()
                .unwrap_or(env!("CARGO_BIN_EXE_banco-server")),
        );
        cmd.args([
            "--listen",
            "127.0.0.1:0",
            "--no-discovery",
            "--db",
            ":memory:",
            // Plain TCP, as the figures logged before TLS: the engine pool is measured.
            "--no-tls",
        ])
        .args(["--engine-memory", &o.memory])
        // Every client of the bench is on this one machine.
        .args(["--connections-per-address", "1000000"])
        .args(["--rooms-per-player", "1000000"]);
        if let Some(t) = &o.threads {
            cmd.args(["--engine-threads", t]);
        }
        let mut child = cmd
            .env("RUST_LOG", "warn,banco_server::server=info")
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()?;
        let stderr = child.stderr.take().ok_or("no stderr")?;
        let mut lines = BufReader::new(stderr).lines();
        let addr = loop {
            let line = lines
                .next()
                .ok_or("the server stopped before listening")??;
            if let Some(at) = line.find("addr=") {
                let rest = &line[at + 5..];
                let end = rest.find(' ').unwrap_or(rest.len());
                break rest[..end].parse()?;
            }
        };
        // Keep draining its log so it never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        Ok(Server { child, addr })
    }

    fn rss(&self) -> u64 {
        std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default()
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map_or(0, |kb| kb * 1024)
    }

    fn threads_named(&self, prefix: &str) -> usize {
        std::fs::read_dir(format!("/proc/{}/task", self.child.id()))
            .map(|d| {
                d.flatten()
                    .filter_map(|t| std::fs::read_to_string(t.path().join("comm")).ok())
                    .filter(|c| c.starts_with(prefix))
                    .count()
            })
            .unwrap_or(0)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A protocol client.
struct Client {
    framed: Framed<TcpStream, ClientCodec>,
}

impl Client {
    async fn connect(addr: SocketAddr, name: &str) -> Result<Client> {
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        let mut c = Client {
            framed: Framed::new(stream, ClientCodec::new()),
        };
        c.send(ClientMsg::Hello(Hello {
            version: PROTOCOL_VERSION,
            name: name.into(),
            resume: None,
            account: None,
        }))
        .await?;
        c.until(|m| matches!(m, ServerMsg::Welcome(_))).await?;
        Ok(c)
    }

    async fn send(&mut self, msg: ClientMsg) -> Result<()> {
        self.framed.send(msg).await?;
        Ok(())
    }

    /// The next message; the heartbeat is answered, as every client must, or be dropped.
    async fn recv(&mut self) -> Result<ServerMsg> {
        loop {
            let frame = self.framed.next().await.ok_or("the server closed")??;
            match frame.map_err(|e| format!("an unreadable message: {e}"))? {
                ServerMsg::Ping(n) => self.send(ClientMsg::Pong(n)).await?,
                msg => return Ok(msg),
            }
        }
    }

    async fn until(&mut self, mut pred: impl FnMut(&ServerMsg) -> bool) -> Result<ServerMsg> {
        loop {
            let m = self.recv().await?;
            if pred(&m) {
                return Ok(m);
            }
        }
    }

    async fn create(&mut self, settings: RoomSettings) -> Result<u32> {
        self.send(ClientMsg::CreateRoom(settings)).await?;
        match self
            .until(|m| matches!(m, ServerMsg::RoomCreated(_) | ServerMsg::Error(_)))
            .await?
        {
            ServerMsg::RoomCreated(id) => Ok(id),
            other => Err(format!("no room: {other:?}").into()),
        }
    }
}

/// Points in an order that makes no five for a long while: a spread over the board.
fn spread() -> Vec<Point> {
    let mut all: Vec<Point> = (0..15u8)
        .flat_map(|y| (0..15u8).map(move |x| Point::new(x, y)))
        .collect();
    // A fixed shuffle (a multiplicative walk over the 225 points).
    let mut out = Vec::with_capacity(all.len());
    let mut i = 0usize;
    while !all.is_empty() {
        i = (i + 97) % all.len();
        out.push(all.swap_remove(i));
    }
    out
}

/// The next free point of `order`.
fn next_free(order: &[Point], taken: &HashSet<Point>) -> Option<Point> {
    order.iter().copied().find(|p| !taken.contains(p))
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Two people alternate moves (one every 50 ms); returns each move's acknowledgement time
/// (from sending it to the mover reading it played).
async fn human_game(addr: SocketAddr, until: Instant) -> Result<Vec<Duration>> {
    let mut acks = Vec::new();
    let order = spread();
    let mut games = 0;
    while Instant::now() < until {
        games += 1;
        let mut a = Client::connect(addr, &format!("An{games}")).await?;
        let mut b = Client::connect(addr, &format!("Binh{games}")).await?;
        let id = a.create(RoomSettings::default()).await?;
        b.send(ClientMsg::JoinRoom(id)).await?;
        a.until(|m| matches!(m, ServerMsg::GameStarted(_))).await?;
        b.until(|m| matches!(m, ServerMsg::GameStarted(_))).await?;
        let mut taken = HashSet::new();
        let mut players = [a, b];
        let mut turn = 0;
        'game: while Instant::now() < until {
            let Some(p) = next_free(&order, &taken) else {
                break;
            };
            taken.insert(p);
            let sent = Instant::now();
            players[turn].send(ClientMsg::Move(Move::Caro(p))).await?;
            loop {
                match players[turn].recv().await? {
                    ServerMsg::Moved { .. } => break,
                    ServerMsg::GameOver(_) => break 'game,
                    ServerMsg::Error(e) => return Err(format!("move refused: {e:?}").into()),
                    _ => {}
                }
            }
            acks.push(sent.elapsed());
            // The other player reads it too.
            let other = 1 - turn;
            loop {
                match players[other].recv().await? {
                    ServerMsg::Moved { .. } => break,
                    ServerMsg::GameOver(_) => break 'game,
                    _ => {}
                }
            }
            turn = other;
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    Ok(acks)
}

/// A person against the medium bot; returns the bot's answer times (from the person's
/// move acknowledged to the bot's move read).
async fn bot_game(addr: SocketAddr, until: Instant) -> Result<Vec<Duration>> {
    let mut answers = Vec::new();
    let order = spread();
    let mut games = 0;
    while Instant::now() < until {
        games += 1;
        let mut me = Client::connect(addr, &format!("Chi{games}")).await?;
        me.create(RoomSettings {
            seats: [SeatKind::Human, SeatKind::Bot(Level::Medium)],
            ..RoomSettings::default()
        })
        .await?;
        me.until(|m| matches!(m, ServerMsg::GameStarted(_))).await?;
        let mut taken = HashSet::new();
        'game: while Instant::now() < until {
            let Some(p) = next_free(&order, &taken) else {
                break;
            };
            me.send(ClientMsg::Move(Move::Caro(p))).await?;
            let acked = loop {
                match me.recv().await? {
                    ServerMsg::Moved { record, .. } if record.by == Seat::One => {
                        taken.insert(p);
                        break Instant::now();
                    }
                    ServerMsg::GameOver(_) => break 'game,
                    ServerMsg::Error(e) => return Err(format!("move refused: {e:?}").into()),
                    _ => {}
                }
            };
            loop {
                match me.recv().await? {
                    ServerMsg::Moved { record, .. } => {
                        if let Move::Caro(q) = record.mv {
                            taken.insert(q);
                        }
                        answers.push(acked.elapsed());
                        break;
                    }
                    ServerMsg::GameOver(_) => break 'game,
                    _ => {}
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    Ok(answers)
}

async fn run(o: Options) -> Result<()> {
    let server = Server::start(&o)?;
    let addr = server.addr;
    println!(
        "banco-server at {addr}: --engine-memory {} --engine-threads {}",
        o.memory,
        o.threads.as_deref().unwrap_or("(default)")
    );
    let idle_rss = server.rss();
    // The bots-only rooms, each watched by its creator (who only reads).
    let mut watchers = Vec::new();
    for i in 0..o.rooms {
        let mut w = Client::connect(addr, &format!("watcher{i}")).await?;
        let game = if i < o.xiangqi {
            GameSettings::Xiangqi { fen: None }
        } else {
            RoomSettings::default().game
        };
        w.create(RoomSettings {
            game,
            seats: [SeatKind::Bot(Level::Max), SeatKind::Bot(Level::Max)],
            ..RoomSettings::default()
        })
        .await?;
        watchers.push(tokio::spawn(async move {
            let mut moves = 0u64;
            while let Ok(m) = w.recv().await {
                if matches!(m, ServerMsg::Moved { .. }) {
                    moves += 1;
                }
            }
            moves
        }));
    }
    // Let the pool fill up before the people start.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let until = Instant::now() + Duration::from_secs(o.secs);
    let people = tokio::spawn(human_game(addr, until));
    let bot = tokio::spawn(bot_game(addr, until));
    let mut peak = 0;
    while Instant::now() < until {
        peak = peak.max(server.rss());
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let mut acks = people.await??;
    let mut answers = bot.await??;
    peak = peak.max(server.rss());
    let engine_threads = server.threads_named("engine-");
    drop(server);
    let mut bot_moves = 0;
    for w in watchers {
        bot_moves += w.await.unwrap_or(0);
    }

    let budget = banco_server::limits::size(&o.memory)?;
    let mb = |b: u64| b as f64 / (1 << 20) as f64;
    println!(
        "{} max-vs-max rooms ({} of xiangqi), {} search threads; bots-only moves seen: {bot_moves}",
        o.rooms,
        o.xiangqi.min(o.rooms),
        engine_threads
    );
    println!(
        "server RSS: idle {:.0} MB, peak {:.0} MB; budget (engine memory + 100 MB) {:.0} MB: {}",
        mb(idle_rss),
        mb(peak),
        mb(budget) + 100.0,
        if peak <= budget + (100 << 20) {
            "within"
        } else {
            "OVER"
        }
    );
    acks.sort();
    println!(
        "human-vs-human acks: n={} p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms (target p99 < 5 ms)",
        acks.len(),
        ms(percentile(&acks, 0.5)),
        ms(percentile(&acks, 0.99)),
        ms(acks.last().copied().unwrap_or_default()),
    );
    answers.sort();
    let limit = medium_time().mul_f64(1.2);
    let late = answers.iter().filter(|a| **a > limit).count();
    println!(
        "medium bot answers: n={} p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms; level time {:.0} ms + 20% = {:.0} ms; later than that: {late}",
        answers.len(),
        ms(percentile(&answers, 0.5)),
        ms(percentile(&answers, 0.99)),
        ms(answers.last().copied().unwrap_or_default()),
        ms(medium_time()),
        ms(limit),
    );
    Ok(())
}

fn main() -> Result<()> {
    let o = options();
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?
        .block_on(run(o))
}
