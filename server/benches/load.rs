//! The load bench: the real `banco-server` binary (release build) under load from real
//! protocol clients, each figure beside a baseline measured in the same run.
//!
//! ```sh
//! cargo bench -p banco-server --bench load -- relay       # move relay latency vs a bare echo
//! cargo bench -p banco-server --bench load -- throughput  # durable moves/s, unpaced
//! cargo bench -p banco-server --bench load -- store-cost  # store time per move vs game length
//! cargo bench -p banco-server --bench load -- crowd       # 800 silent spectators in one room
//! cargo bench -p banco-server --bench load -- idle        # memory per idle client vs echo
//! cargo bench -p banco-server --bench load -- handshakes  # CPU per handshake vs echo, 10k
//! cargo bench -p banco-server --bench load -- lobby       # 5,000 lobby clients x 450 rooms
//! cargo bench -p banco-server --bench load -- accounts    # move acks, 200k accounts, 4 registering
//! ```
//!
//! Options (any section): `--rooms N`, `--rate MOVES_PER_S` (per room), `--secs S`,
//! `--sync normal|full`. Figures are printed; nothing is asserted (the machine is shared).
//! Run with `nice -n 10` beside other work, and read medians and ratios, not one run.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_util::codec::Framed;

use banco_protocol::{
    CaroOpening, ClientCodec, ClientMsg, GameSettings, Hello, Move, PROTOCOL_VERSION, Point,
    RoomSettings, Rule, ServerMsg,
};

type Result<T> = std::result::Result<T, Box<dyn std::error::Error + Send + Sync>>;

/// What the command line asked for.
#[derive(Debug, Clone)]
struct Options {
    section: String,
    rooms: usize,
    /// Clients for the sections that count people (crowd, idle, handshakes, lobby).
    clients: usize,
    rate: f64,
    secs: u64,
    sync: String,
}

fn options() -> Options {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let mut o = Options {
        section: String::new(),
        rooms: 0,
        clients: 0,
        rate: 20.0,
        secs: 20,
        sync: "normal".into(),
    };
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_default();
        match a.as_str() {
            "--rooms" => o.rooms = value().parse().unwrap_or(0),
            "--clients" => o.clients = value().parse().unwrap_or(0),
            "--rate" => o.rate = value().parse().unwrap_or(20.0),
            "--secs" => o.secs = value().parse().unwrap_or(20),
            "--sync" => o.sync = value(),
            "echo-server" => o.section = a,
            other if !other.starts_with('-') && o.section.is_empty() => o.section = a,
            _ => {}
        }
    }
    o
}

fn main() -> Result<()> {
    let o = options();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    match o.section.as_str() {
        "echo-server" => rt.block_on(echo_server()),
        "relay" => rt.block_on(relay(&o)),
        "throughput" => rt.block_on(throughput(&o)),
        "store-cost" => store_cost(),
        "crowd" => rt.block_on(crowd(&o)),
        "idle" => rt.block_on(idle(&o)),
        "handshakes" => rt.block_on(handshakes(&o)),
        "lobby" => rt.block_on(lobby(&o)),
        "accounts" => {
            accounts_store(ACCOUNTS, registrars(&o)).and_then(|()| rt.block_on(accounts(&o)))
        }
        _ => {
            eprintln!(
                "sections: relay, throughput, store-cost, crowd, idle, handshakes, lobby, accounts (e.g. cargo bench -p banco-server \
                 --bench load -- relay --rooms 100 --rate 20 --secs 20)"
            );
            Ok(())
        }
    }
}

// ---------------------------------------------------------------------------------------
// The processes under test.

/// A `banco-server` (or echo) process, killed on drop.
struct Process {
    child: Child,
    addr: SocketAddr,
}

impl Process {
    /// The release `banco-server` on a free loopback port, its database in `dir`.
    fn server(dir: &std::path::Path, extra: &[&str]) -> Result<Process> {
        let mut child = Command::new(env!("CARGO_BIN_EXE_banco-server"))
            .args(["--listen", "127.0.0.1:0", "--no-discovery", "--db"])
            .arg(dir.join("banco.db"))
            // Every client of the bench is on this one machine.
            .args(["--connections-per-address", "1000000"])
            .args(["--rooms-per-player", "1000000"])
            // The figures sit beside a bare TCP echo: the server is measured on the same
            // transport (TLS's own cost is not what these sections measure).
            .arg("--no-tls")
            .args(extra)
            .env("RUST_LOG", "warn,banco_server::server=info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()?;
        let addr = listening(&mut child, "banco server listening")?;
        Ok(Process { child, addr })
    }

    /// A bare tokio echo server: this bench binary, run as `echo-server`.
    fn echo() -> Result<Process> {
        let mut child = Command::new(std::env::current_exe()?)
            .arg("echo-server")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()?;
        let addr = listening(&mut child, "echo listening")?;
        Ok(Process { child, addr })
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// CPU seconds (user + system) the process has used.
    fn cpu(&self) -> f64 {
        let stat =
            std::fs::read_to_string(format!("/proc/{}/stat", self.pid())).unwrap_or_default();
        // Fields after the command's closing parenthesis: utime is 14th, stime 15th.
        let after = stat.rsplit_once(')').map_or("", |(_, r)| r);
        let f: Vec<&str> = after.split_whitespace().collect();
        let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
        (ticks(11) + ticks(12)) / 100.0
    }

    /// Resident memory, in bytes.
    fn rss(&self) -> u64 {
        let status =
            std::fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap_or_default();
        status
            .lines()
            // Anonymous memory only: what the server allocated (heap, stacks), not the
            // pages of its own binary it happened to touch, which grow with the binary.
            .find_map(|l| l.strip_prefix("RssAnon:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map_or(0, |kb| kb * 1024)
    }

    /// SIGTERM and a clean stop.
    fn stop(mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.pid().to_string()])
            .status();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads the child's stderr until a line with `marker` and an `addr=` (or `addr `) field.
fn listening(child: &mut Child, marker: &str) -> Result<SocketAddr> {
    use std::io::BufRead;
    let stderr = child.stderr.take().ok_or("no stderr")?;
    let mut lines = std::io::BufReader::new(stderr).lines();
    let addr = loop {
        let line = lines.next().ok_or("the process ended before listening")??;
        if line.contains(marker)
            && let Some(addr) = line
                .split_whitespace()
                .find_map(|w| w.strip_prefix("addr="))
                .and_then(|a| a.parse().ok())
        {
            break addr;
        }
    };
    // Keep draining its log so it never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines.map_while(std::result::Result::ok) {});
    Ok(addr)
}

/// The baseline: echoes every byte back, one task per connection.
async fn echo_server() -> Result<()> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    eprintln!("echo listening addr={}", listener.local_addr()?);
    loop {
        let (mut s, _) = listener.accept().await?;
        let _ = s.set_nodelay(true);
        tokio::spawn(async move {
            let mut buf = vec![0u8; 4096];
            loop {
                match s.read(&mut buf).await {
                    Ok(0) | Err(_) => return,
                    Ok(n) => {
                        if s.write_all(&buf[..n]).await.is_err() {
                            return;
                        }
                    }
                }
            }
        });
    }
}

// ---------------------------------------------------------------------------------------
// Protocol clients.

/// One client: a writer and a reader task; the reader answers heartbeats and hands every
/// other message, with when it arrived, to `events`.
struct Player {
    out: mpsc::UnboundedSender<ClientMsg>,
    events: mpsc::UnboundedReceiver<(ServerMsg, Instant)>,
}

impl Player {
    async fn connect(addr: SocketAddr, name: &str) -> Result<Player> {
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        let (mut sink, mut stream) = Framed::new(stream, ClientCodec::new()).split();
        let (out, mut out_rx) = mpsc::unbounded_channel::<ClientMsg>();
        let (tx, events) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Some(msg) = out_rx.recv().await {
                if sink.send(msg).await.is_err() {
                    return;
                }
            }
        });
        let pongs = out.clone();
        tokio::spawn(async move {
            while let Some(Ok(Ok(msg))) = stream.next().await {
                let at = Instant::now();
                if let ServerMsg::Ping(n) = msg {
                    let _ = pongs.send(ClientMsg::Pong(n));
                    continue;
                }
                if tx.send((msg, at)).is_err() {
                    return;
                }
            }
        });
        let p = Player { out, events };
        p.send(ClientMsg::Hello(Hello {
            version: PROTOCOL_VERSION,
            name: name.into(),
            resume: None,
            account: None,
        }));
        Ok(p)
    }

    fn send(&self, msg: ClientMsg) {
        let _ = self.out.send(msg);
    }

    async fn until(&mut self, pred: impl Fn(&ServerMsg) -> bool) -> Result<ServerMsg> {
        loop {
            let (msg, _) = tokio::time::timeout(Duration::from_secs(60), self.events.recv())
                .await?
                .ok_or("connection closed")?;
            if pred(&msg) {
                return Ok(msg);
            }
        }
    }
}

/// A 64x64 freestyle board: 4096 points, and the stones below never make five.
fn big_board() -> RoomSettings {
    RoomSettings {
        game: GameSettings::Caro {
            width: 64,
            height: 64,
            rule: Rule::Freestyle,
            opening: CaroOpening::None,
        },
        ..RoomSettings::default()
    }
}

/// The `n`th stone of a game on the big board (X on even points of even rows, O on odd
/// points of odd rows: no line of five, for 2048 moves).
fn point(n: usize) -> Point {
    let k = (n / 2) % 1024;
    let (x, y) = (2 * (k % 32), 2 * (k / 32));
    if n.is_multiple_of(2) {
        Point::new(x as u8, y as u8)
    } else {
        Point::new(x as u8 + 1, y as u8 + 1)
    }
}

/// Two players seated in a new room; the game has started.
async fn room(addr: SocketAddr, i: usize) -> Result<(Player, Player)> {
    let mut a = Player::connect(addr, &format!("A{i}")).await?;
    let mut b = Player::connect(addr, &format!("B{i}")).await?;
    a.until(|m| matches!(m, ServerMsg::Welcome(_))).await?;
    b.until(|m| matches!(m, ServerMsg::Welcome(_))).await?;
    a.send(ClientMsg::CreateRoom(big_board()));
    let ServerMsg::RoomCreated(id) = a.until(|m| matches!(m, ServerMsg::RoomCreated(_))).await?
    else {
        return Err("no room".into());
    };
    b.send(ClientMsg::JoinRoom(id));
    a.until(|m| matches!(m, ServerMsg::GameStarted(_))).await?;
    b.until(|m| matches!(m, ServerMsg::GameStarted(_))).await?;
    Ok((a, b))
}

/// Percentiles of a sample of durations, in microseconds.
fn percentiles(mut v: Vec<Duration>) -> (f64, f64, f64, usize) {
    if v.is_empty() {
        return (0.0, 0.0, 0.0, 0);
    }
    v.sort();
    let at = |q: f64| v[((v.len() as f64 - 1.0) * q).round() as usize].as_secs_f64() * 1e6;
    (at(0.5), at(0.99), at(1.0), v.len())
}

// ---------------------------------------------------------------------------------------
// relay: the time from a move sent to the opponent receiving it, against an echo round
// trip, both at the same paced load.

async fn relay(o: &Options) -> Result<()> {
    let rooms = if o.rooms == 0 { 100 } else { o.rooms };
    let every = Duration::from_secs_f64(1.0 / o.rate);
    let dir = tempdir("relay")?;
    println!(
        "relay: {rooms} rooms x {} moves/s for {} s each, file database (sync {}), 64x64 caro",
        o.rate, o.secs, o.sync
    );

    // Baseline: one echo connection per room, one 16-byte frame per tick, sent and read
    // through a writer task and a reader task as the protocol clients below do, so both
    // sides pay the same client-side hand-offs.
    let echo = Process::echo()?;
    let mut tasks = Vec::new();
    for i in 0..rooms {
        let addr = echo.addr;
        let secs = o.secs;
        tasks.push(tokio::spawn(async move {
            let s = TcpStream::connect(addr).await?;
            s.set_nodelay(true)?;
            let (mut rd, mut wr) = s.into_split();
            let (out, mut out_rx) = mpsc::unbounded_channel::<[u8; 16]>();
            let (back, mut back_rx) = mpsc::unbounded_channel::<Instant>();
            tokio::spawn(async move {
                while let Some(frame) = out_rx.recv().await {
                    if wr.write_all(&frame).await.is_err() {
                        return;
                    }
                }
            });
            tokio::spawn(async move {
                let mut buf = [0u8; 16];
                while rd.read_exact(&mut buf).await.is_ok() {
                    if back.send(Instant::now()).is_err() {
                        return;
                    }
                }
            });
            let mut lat = Vec::new();
            // Rooms keep their own beat, spread over the period (as real rooms do), not
            // all at once.
            let mut tick = tokio::time::interval_at(
                tokio::time::Instant::now() + every.mul_f64(i as f64 / rooms as f64),
                every,
            );
            let end = Instant::now() + Duration::from_secs(secs);
            while Instant::now() < end {
                tick.tick().await;
                let t0 = Instant::now();
                out.send([7u8; 16])?;
                let at = back_rx.recv().await.ok_or("echo closed")?;
                lat.push(at - t0);
            }
            Ok::<_, Box<dyn std::error::Error + Send + Sync>>(lat)
        }));
    }
    let mut echo_lat = Vec::new();
    for t in tasks {
        echo_lat.extend(t.await??);
    }
    echo.stop();

    // banco: two players per room, moving in turn at the same pace.
    let server = Process::server(&dir.0, &["--sync", &o.sync])?;
    let mut pairs = Vec::new();
    for i in 0..rooms {
        pairs.push(room(server.addr, i).await?);
    }
    let cpu0 = server.cpu();
    let mut tasks = Vec::new();
    for (i, (mut a, mut b)) in pairs.into_iter().enumerate() {
        let secs = o.secs;
        tasks.push(tokio::spawn(async move {
            let mut lat = Vec::new();
            let mut tick = tokio::time::interval_at(
                tokio::time::Instant::now() + every.mul_f64(i as f64 / rooms as f64),
                every,
            );
            let end = Instant::now() + Duration::from_secs(secs);
            let mut n = 0usize;
            while Instant::now() < end {
                tick.tick().await;
                let (mover, other) = if n.is_multiple_of(2) {
                    (&mut a, &mut b)
                } else {
                    (&mut b, &mut a)
                };
                let t0 = Instant::now();
                mover.send(ClientMsg::Move(Move::Caro(point(n))));
                let ply = n as u32 + 1;
                loop {
                    let (msg, at) = other.events.recv().await.ok_or("closed")?;
                    if matches!(msg, ServerMsg::Moved { ply: p, .. } if p == ply) {
                        lat.push(at - t0);
                        break;
                    }
                }
                // The mover's own acknowledgement, so its queue never grows.
                mover
                    .until(|m| matches!(m, ServerMsg::Moved { ply: p, .. } if *p == ply))
                    .await?;
                n += 1;
            }
            Ok::<_, Box<dyn std::error::Error + Send + Sync>>(lat)
        }));
    }
    let mut banco_lat = Vec::new();
    for t in tasks {
        banco_lat.extend(t.await??);
    }
    let cpu = server.cpu() - cpu0;
    let rss = server.rss();
    server.stop();

    let (e50, e99, emax, en) = percentiles(echo_lat);
    let (b50, b99, bmax, bn) = percentiles(banco_lat);
    println!(
        "echo round trip    ({en:>6} samples): p50 {e50:>8.0} us  p99 {e99:>8.0} us  max {emax:>9.0} us"
    );
    println!(
        "banco move relayed ({bn:>6} samples): p50 {b50:>8.0} us  p99 {b99:>8.0} us  max {bmax:>9.0} us"
    );
    println!(
        "banco / echo: p50 x{:.2}, p99 x{:.2}; server CPU {:.1} s for {} moves ({:.0} us a move), RSS {} MB",
        b50 / e50.max(1.0),
        b99 / e99.max(1.0),
        cpu,
        bn,
        cpu * 1e6 / bn.max(1) as f64,
        rss >> 20
    );
    Ok(())
}

// ---------------------------------------------------------------------------------------
// throughput: every room plays as fast as it can; every acknowledged move must be on disk.

async fn throughput(o: &Options) -> Result<()> {
    let rooms = if o.rooms == 0 { 500 } else { o.rooms };
    let dir = tempdir("throughput")?;
    println!(
        "throughput: {rooms} rooms playing unpaced for {} s, file database (sync {})",
        o.secs, o.sync
    );
    let server = Process::server(&dir.0, &["--sync", &o.sync])?;
    let mut pairs = Vec::new();
    for i in 0..rooms {
        pairs.push(room(server.addr, i).await?);
    }
    let acked = Arc::new(AtomicU64::new(0));
    let stop = Instant::now() + Duration::from_secs(o.secs);
    let cpu0 = server.cpu();
    let t0 = Instant::now();
    let mut tasks = Vec::new();
    for (i, (mut a, mut b)) in pairs.into_iter().enumerate() {
        let acked = acked.clone();
        tasks.push(tokio::spawn(async move {
            let mut n = 0usize;
            // 2048 stones fit the pattern; stop well before.
            while Instant::now() < stop && n < 2000 {
                let (mover, other) = if n.is_multiple_of(2) {
                    (&mut a, &mut b)
                } else {
                    (&mut b, &mut a)
                };
                mover.send(ClientMsg::Move(Move::Caro(point(n))));
                let ply = n as u32 + 1;
                let seen =
                    |m: &ServerMsg| matches!(m, ServerMsg::Moved { ply: p, .. } if *p == ply);
                other.until(seen).await?;
                mover.until(seen).await?;
                acked.fetch_add(1, Ordering::Relaxed);
                n += 1;
            }
            Ok::<_, Box<dyn std::error::Error + Send + Sync>>((i, n))
        }));
    }
    let mut told = HashMap::new();
    for t in tasks {
        let (i, n) = t.await??;
        told.insert(format!("A{i}"), n);
    }
    let elapsed = t0.elapsed().as_secs_f64();
    let cpu = server.cpu() - cpu0;
    let rss = server.rss();
    server.stop();

    // Zero dropped writes: every game's log holds every move its players were told of.
    let conn = rusqlite::Connection::open(dir.0.join("banco.db"))?;
    let mut kept_total = 0usize;
    let mut short = 0usize;
    let mut stmt = conn.prepare(
        "SELECT json_extract(g.seats, '$[0].Human.name'), count(e.seq)
         FROM live_games g LEFT JOIN live_events e ON e.game = g.key
         WHERE e.kind = 'move' GROUP BY g.key",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
    for row in rows {
        let (name, kept) = row?;
        kept_total += kept as usize;
        if (kept as usize) < told.get(&name).copied().unwrap_or(0) {
            short += 1;
        }
    }
    let total = acked.load(Ordering::Relaxed);
    println!(
        "{total} moves acknowledged in {elapsed:.1} s: {:.0} durable moves/s; server CPU {cpu:.1} s \
         ({:.0} us a move), RSS {} MB",
        total as f64 / elapsed,
        cpu * 1e6 / total.max(1) as f64,
        rss >> 20
    );
    println!(
        "on disk after the server stopped: {kept_total} moves; games missing a move they told: {short}"
    );
    Ok(())
}

// ---------------------------------------------------------------------------------------
// store-cost: what the store spends on a move early in a game and 2000 moves in.

fn store_cost() -> Result<()> {
    use banco_server::StoreLocation;
    use banco_server::store::{Entry, Event, LiveGame, LiveSeat, Store};
    let dir = tempdir("store")?;
    let store = Store::open(&StoreLocation::File(dir.0.join("banco.db")))?;
    let handle = store.handle();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let game = LiveGame {
        key: 1,
        room: 1,
        settings: big_board(),
        seats: [const { LiveSeat::Bot(banco_protocol::Level::Easy) }; 2],
        number: 1,
        first: banco_protocol::Seat::One,
        opening: Vec::new(),
        moves: Vec::new(),
        clocks: None,
        series: Default::default(),
        chat: Vec::new(),
        started_ms: 0,
        next_seq: 0,
        in_match: None,
    };
    rt.block_on(handle.commit(vec![Entry::Begin(Box::new(game))]));
    println!("store-cost: one commit per move (as a lone room makes), file database");
    let mut seq = 0u32;
    for (label, upto) in [
        ("plies 1-200", 200u32),
        ("plies 201-2000", 2000),
        ("plies 2001-2200", 2200),
    ] {
        let from = seq;
        let t0 = Instant::now();
        while seq < upto {
            let event = Event::Move {
                mv: Move::Caro(point(seq as usize)),
                clocks: Some([1000, 1000]),
            };
            rt.block_on(handle.commit(vec![Entry::Event {
                game: 1,
                seq,
                event,
            }]));
            seq += 1;
        }
        let per = t0.elapsed().as_secs_f64() * 1e6 / f64::from(seq - from);
        println!("  {label:<16} {per:>7.1} us a move");
    }
    drop(handle);
    store.close();
    Ok(())
}

/// A fresh directory under the system's temp dir, removed on drop.
struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn tempdir(tag: &str) -> Result<TempDir> {
    let dir = std::env::temp_dir().join(format!("banco-bench-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    Ok(TempDir(dir))
}

// ---------------------------------------------------------------------------------------
// Clients by the thousand: they only listen.

/// What a crowd of listeners has been sent.
#[derive(Default)]
struct Heard {
    bytes: AtomicU64,
    messages: AtomicU64,
}

/// The next frame's body off `stream`.
async fn read_frame(stream: &mut TcpStream) -> std::io::Result<Vec<u8>> {
    let mut len = [0u8; 4];
    stream.read_exact(&mut len).await?;
    let mut body = vec![0u8; u32::from_be_bytes(len) as usize];
    stream.read_exact(&mut body).await?;
    Ok(body)
}

/// One length-prefixed frame of `msg`.
fn frame(msg: &ClientMsg) -> Vec<u8> {
    let payload = banco_protocol::wire::encode(msg).unwrap_or_default();
    let mut out = (payload.len() as u32).to_be_bytes().to_vec();
    out.extend(payload);
    out
}

/// A client that says Hello (and `then`), then only listens: it answers heartbeats,
/// counts what it is sent in `heard`, and hands each message to `tap` if given. Returns
/// once its Welcome and first room list are in (the handshake is done).
async fn listener(
    addr: SocketAddr,
    name: String,
    then: Vec<ClientMsg>,
    heard: Arc<Heard>,
    tap: Option<mpsc::UnboundedSender<(ServerMsg, Instant)>>,
) -> Result<tokio::task::JoinHandle<()>> {
    let mut stream = TcpStream::connect(addr).await?;
    stream.set_nodelay(true)?;
    let mut hello = frame(&ClientMsg::Hello(Hello {
        version: PROTOCOL_VERSION,
        name,
        resume: None,
        account: None,
    }));
    for msg in &then {
        hello.extend(frame(msg));
    }
    stream.write_all(&hello).await?;
    // The handshake: Welcome, then the room list.
    loop {
        let body = read_frame(&mut stream).await?;
        if let Ok(ServerMsg::Rooms(_)) = banco_protocol::wire::decode::<ServerMsg>(&body) {
            break;
        }
    }
    Ok(tokio::spawn(async move {
        while let Ok(body) = read_frame(&mut stream).await {
            heard
                .bytes
                .fetch_add(body.len() as u64 + 4, Ordering::Relaxed);
            heard.messages.fetch_add(1, Ordering::Relaxed);
            match banco_protocol::wire::decode::<ServerMsg>(&body) {
                Ok(ServerMsg::Ping(n)) => {
                    if stream.write_all(&frame(&ClientMsg::Pong(n))).await.is_err() {
                        return;
                    }
                }
                Ok(msg) => {
                    if let Some(tap) = &tap {
                        let _ = tap.send((msg, Instant::now()));
                    }
                }
                Err(_) => {}
            }
        }
    }))
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / f64::from(1 << 20)
}

// ---------------------------------------------------------------------------------------
// crowd: a room with hundreds of spectators who never read; its players' acks.

async fn paced_acks(
    a: &mut Player,
    b: &mut Player,
    from: usize,
    moves: usize,
    rate: f64,
) -> Result<Vec<Duration>> {
    let mut lat = Vec::new();
    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / rate));
    for n in from..from + moves {
        tick.tick().await;
        let (mover, other) = if n.is_multiple_of(2) {
            (&mut *a, &mut *b)
        } else {
            (&mut *b, &mut *a)
        };
        let t0 = Instant::now();
        mover.send(ClientMsg::Move(Move::Caro(point(n))));
        let ply = n as u32 + 1;
        let seen = |m: &ServerMsg| matches!(m, ServerMsg::Moved { ply: p, .. } if *p == ply);
        mover.until(seen).await?;
        lat.push(t0.elapsed());
        other.until(seen).await?;
    }
    Ok(lat)
}

async fn crowd(o: &Options) -> Result<()> {
    let n = if o.clients == 0 { 800 } else { o.clients };
    let dir = tempdir("crowd")?;
    println!(
        "crowd: {n} spectators who never read, in one room; its players move {} times a second",
        o.rate
    );
    let server = Process::server(&dir.0, &["--spectators", &n.to_string()])?;
    let (mut a, mut b) = room(server.addr, 0).await?;
    let rss0 = server.rss();
    // `--secs` of play before the crowd and as long with it: enough moves that the p99
    // is not just the slowest one.
    let moves = ((o.secs as f64 * o.rate) as usize).clamp(100, 1000);
    let quiet = paced_acks(&mut a, &mut b, 0, moves, o.rate).await?;
    let mut silent = Vec::new();
    let t0 = Instant::now();
    for i in 0..n {
        let mut s = TcpStream::connect(server.addr).await?;
        let mut bytes = frame(&ClientMsg::Hello(Hello {
            version: PROTOCOL_VERSION,
            name: format!("w{i}"),
            resume: None,
            account: None,
        }));
        bytes.extend(frame(&ClientMsg::WatchRoom(1)));
        s.write_all(&bytes).await?;
        silent.push(s);
    }
    let came = t0.elapsed();
    // Let the crowd settle in (each newcomer is told to everyone, in batches), then play.
    let mut seen = 0usize;
    while seen < n {
        if let ServerMsg::People { came, .. } =
            a.until(|m| matches!(m, ServerMsg::People { .. })).await?
        {
            seen += came.len();
        }
    }
    let settled = t0.elapsed();
    let crowded = paced_acks(&mut a, &mut b, moves, moves, o.rate).await?;
    let rss1 = server.rss();
    let (q50, q99, _, _) = percentiles(quiet);
    let (c50, c99, cmax, _) = percentiles(crowded);
    println!(
        "server RSS: {:.1} MB alone, {:.1} MB with the crowd ({:.1} KB a spectator); the crowd \
         connected in {:.2} s and the players had been told of all of it after {:.2} s",
        mb(rss0),
        mb(rss1),
        (rss1.saturating_sub(rss0)) as f64 / 1024.0 / n as f64,
        came.as_secs_f64(),
        settled.as_secs_f64()
    );
    println!(
        "player's move acknowledged: alone p50 {q50:.0} us p99 {q99:.0} us; with the crowd p50 {c50:.0} us p99 {c99:.0} us max {cmax:.0} us"
    );
    drop(silent);
    server.stop();
    Ok(())
}

// ---------------------------------------------------------------------------------------
// idle: what an idle connected client costs, against an echo server's connection.

async fn idle(o: &Options) -> Result<()> {
    let n = if o.clients == 0 { 2000 } else { o.clients };
    println!("idle: {n} connected clients doing nothing");
    let echo = Process::echo()?;
    let e0 = echo.rss();
    let mut conns = Vec::new();
    for _ in 0..n {
        let mut s = TcpStream::connect(echo.addr).await?;
        s.write_all(&[1u8; 16]).await?;
        let mut buf = [0u8; 16];
        s.read_exact(&mut buf).await?;
        conns.push(s);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let e1 = echo.rss();
    drop(conns);
    echo.stop();

    let dir = tempdir("idle")?;
    let server = Process::server(&dir.0, &[])?;
    let b0 = server.rss();
    let heard = Arc::new(Heard::default());
    let mut tasks = Vec::new();
    for i in 0..n {
        tasks.push(listener(server.addr, format!("idle{i}"), vec![], heard.clone(), None).await?);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let b1 = server.rss();
    let per = |a: u64, b: u64| (b.saturating_sub(a)) as f64 / 1024.0 / n as f64;
    println!("echo:  {:.1} KB a connection", per(e0, e1));
    println!(
        "banco: {:.1} KB an idle client (RSS {:.1} MB -> {:.1} MB)",
        per(b0, b1),
        mb(b0),
        mb(b1)
    );
    for t in tasks {
        t.abort();
    }
    server.stop();
    Ok(())
}

// ---------------------------------------------------------------------------------------
// handshakes: CPU per connection as clients pile up, against an echo server.

async fn handshakes(o: &Options) -> Result<()> {
    let n = if o.clients == 0 { 10_000 } else { o.clients };
    let batch = (n / 4).max(1);
    println!("handshakes: {n} clients connect and stay, in batches of {batch}");
    let echo = Process::echo()?;
    let mut conns = Vec::new();
    let mut echo_cpu = Vec::new();
    for _ in 0..n / batch {
        let c0 = echo.cpu();
        for _ in 0..batch {
            let mut s = TcpStream::connect(echo.addr).await?;
            s.write_all(&[1u8; 16]).await?;
            let mut buf = [0u8; 16];
            s.read_exact(&mut buf).await?;
            conns.push(s);
        }
        echo_cpu.push((echo.cpu() - c0) * 1e6 / batch as f64);
    }
    drop(conns);
    echo.stop();

    let dir = tempdir("handshakes")?;
    let server = Process::server(&dir.0, &[])?;
    let heard = Arc::new(Heard::default());
    let mut tasks = Vec::new();
    let mut banco_cpu = Vec::new();
    for k in 0..n / batch {
        let c0 = server.cpu();
        for i in 0..batch {
            // Everyone is called An: the server numbers them (An 2, An 3, ...).
            let _ = i;
            tasks.push(listener(server.addr, "An".into(), vec![], heard.clone(), None).await?);
        }
        banco_cpu.push((server.cpu() - c0) * 1e6 / batch as f64);
        let _ = k;
    }
    for (k, (e, b)) in echo_cpu.iter().zip(&banco_cpu).enumerate() {
        println!(
            "clients {:>6}-{:<6} echo {e:>6.0} us a connection, banco {b:>6.0} us a handshake (x{:.2})",
            k * batch + 1,
            (k + 1) * batch,
            b / e.max(1.0)
        );
    }
    println!("server RSS with {n} clients: {:.1} MB", mb(server.rss()));
    for t in tasks {
        t.abort();
    }
    server.stop();
    Ok(())
}

// ---------------------------------------------------------------------------------------
// lobby: thousands of people in the lobby while hundreds of rooms change.

async fn lobby(o: &Options) -> Result<()> {
    let n = if o.clients == 0 { 5000 } else { o.clients };
    let rooms = if o.rooms == 0 { 450 } else { o.rooms };
    let rate = if o.rate == 20.0 { 20.0 } else { o.rate };
    let dir = tempdir("lobby")?;
    println!(
        "lobby: {n} clients in the lobby, {rooms} rooms, {rate} room changes a second for {} s",
        o.secs
    );
    let server = Process::server(&dir.0, &[])?;
    // The rooms: each owner waits in its own.
    let mut owners = Vec::new();
    for i in 0..rooms {
        let mut p = Player::connect(server.addr, &format!("owner{i}")).await?;
        p.until(|m| matches!(m, ServerMsg::Welcome(_))).await?;
        p.send(ClientMsg::CreateRoom(big_board()));
        p.until(|m| matches!(m, ServerMsg::RoomCreated(_))).await?;
        owners.push(p);
    }
    // When each room last changed on purpose, to time how late the lobby hears of it.
    let changed_at: Arc<std::sync::Mutex<HashMap<u32, Instant>>> = Arc::default();
    let staleness: Arc<std::sync::Mutex<Vec<Duration>>> = Arc::default();
    let heard = Arc::new(Heard::default());
    let mut tasks = Vec::new();
    for i in 0..n {
        // One in a hundred listeners reports what it hears.
        let tap = if i % 100 == 0 {
            let (tx, mut rx) = mpsc::unbounded_channel::<(ServerMsg, Instant)>();
            let changed_at = changed_at.clone();
            let staleness = staleness.clone();
            tokio::spawn(async move {
                while let Some((msg, at)) = rx.recv().await {
                    if let ServerMsg::RoomsChanged { changed, .. } = msg {
                        let marks = changed_at.lock().map(|m| m.clone()).unwrap_or_default();
                        let mut late = staleness.lock().unwrap_or_else(|e| e.into_inner());
                        for r in changed {
                            if let Some(t) = marks.get(&r.id) {
                                late.push(at.saturating_duration_since(*t));
                            }
                        }
                    }
                }
            });
            Some(tx)
        } else {
            None
        };
        tasks.push(listener(server.addr, format!("l{i}"), vec![], heard.clone(), tap).await?);
    }
    let bytes0 = heard.bytes.load(Ordering::Relaxed);
    let cpu0 = server.cpu();
    // Churn: spectators come and go, each a change to a room's line.
    let end = Instant::now() + Duration::from_secs(o.secs);
    let churners = 10usize;
    let mut churn = Vec::new();
    for c in 0..churners {
        let addr = server.addr;
        let changed_at = changed_at.clone();
        let every = Duration::from_secs_f64(churners as f64 / rate);
        churn.push(tokio::spawn(async move {
            let mut p = Player::connect(addr, &format!("churn{c}")).await?;
            p.until(|m| matches!(m, ServerMsg::Rooms(_))).await?;
            let mut tick = tokio::time::interval(every);
            let mut k = c;
            while Instant::now() < end {
                tick.tick().await;
                let id = (k % rooms) as u32 + 1;
                k += churners;
                p.send(ClientMsg::WatchRoom(id));
                p.until(|m| matches!(m, ServerMsg::Joined(_))).await?;
                if let Ok(mut m) = changed_at.lock() {
                    m.insert(id, Instant::now());
                }
                tick.tick().await;
                p.send(ClientMsg::LeaveRoom);
                p.until(|m| matches!(m, ServerMsg::Left)).await?;
                if let Ok(mut m) = changed_at.lock() {
                    m.insert(id, Instant::now());
                }
            }
            Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
        }));
    }
    // A probe asks for the whole list now and then, from a thread and runtime of its
    // own so the bench's thousands of listeners do not delay its reading.
    let addr = server.addr;
    let probe = std::thread::spawn(move || -> Result<Vec<Duration>> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        rt.block_on(async move {
            let mut probe = Player::connect(addr, "probe").await?;
            probe.until(|m| matches!(m, ServerMsg::Rooms(_))).await?;
            let mut asks = Vec::new();
            while Instant::now() < end {
                tokio::time::sleep(Duration::from_millis(100)).await;
                let t0 = Instant::now();
                probe.send(ClientMsg::ListRooms);
                probe.until(|m| matches!(m, ServerMsg::Rooms(_))).await?;
                asks.push(t0.elapsed());
            }
            Ok(asks)
        })
    });
    let asks = probe.join().map_err(|_| "the probe panicked")??;
    for c in churn {
        c.await??;
    }
    tokio::time::sleep(Duration::from_millis(600)).await;
    let cpu = server.cpu() - cpu0;
    let bytes = heard.bytes.load(Ordering::Relaxed) - bytes0;
    let late = staleness.lock().map(|l| l.clone()).unwrap_or_default();
    let (l50, l99, lmax, ln) = percentiles(late);
    let (a50, a99, amax, an) = percentiles(asks);
    let secs = o.secs as f64;
    println!(
        "a change reaches the lobby ({ln} seen): p50 {:.0} ms p99 {:.0} ms max {:.0} ms",
        l50 / 1e3,
        l99 / 1e3,
        lmax / 1e3
    );
    println!(
        "ListRooms answered ({an} asked): p50 {:.1} ms p99 {:.1} ms max {:.1} ms",
        a50 / 1e3,
        a99 / 1e3,
        amax / 1e3
    );
    println!(
        "lobby traffic: {:.2} MB/s in all, {:.0} bytes/s a client; server CPU {:.0}% of a core; RSS {:.0} MB",
        mb(bytes) / secs,
        bytes as f64 / secs / n as f64,
        cpu / secs * 100.0,
        mb(server.rss())
    );
    for t in tasks {
        t.abort();
    }
    server.stop();
    Ok(())
}

// ---------------------------------------------------------------------------------------
// accounts: move acknowledgements in rooms while clients register accounts in a loop, on
// a database that already holds 200,000 accounts, against the same rooms without them.

/// Writes `n` accounts straight into a fresh database at `path` (fake hashes: nobody
/// logs in to them), with their look-alike keys as the server computes them.
fn many_accounts(path: &std::path::Path, n: usize) -> Result<()> {
    use banco_server::StoreLocation;
    use banco_server::store::Store;
    Store::open(&StoreLocation::File(path.to_path_buf()))?.close();
    let mut conn = rusqlite::Connection::open(path)?;
    let tx = conn.transaction()?;
    {
        let mut insert = tx.prepare(
            "INSERT INTO accounts (name, name_key, hash, registered_at, skeleton)
             VALUES (?1, ?2, 'not a hash', ?3, ?4)",
        )?;
        for i in 0..n {
            let name = format!("Member {i}");
            let skeleton = banco_server::names::look_alike_key(&name);
            insert.execute(rusqlite::params![
                name,
                name.to_lowercase(),
                i as i64,
                skeleton
            ])?;
        }
    }
    tx.commit()?;
    Ok(())
}

/// One registration: connect, register `name`, read the answer, hang up.
async fn register_once(addr: SocketAddr, name: String) -> Result<bool> {
    let stream = TcpStream::connect(addr).await?;
    stream.set_nodelay(true)?;
    let mut framed = Framed::new(stream, ClientCodec::new());
    framed
        .send(ClientMsg::Hello(Hello {
            version: PROTOCOL_VERSION,
            name,
            resume: None,
            account: Some(banco_protocol::Credentials::password(
                "a password for the bench",
                true,
            )),
        }))
        .await?;
    loop {
        match tokio::time::timeout(Duration::from_secs(60), framed.next()).await? {
            Some(Ok(Ok(ServerMsg::Welcome(_)))) => return Ok(true),
            Some(Ok(Ok(ServerMsg::Error(_)))) | None => return Ok(false),
            Some(Ok(Ok(_))) => {}
            Some(Ok(Err(e))) => return Err(e.to_string().into()),
            Some(Err(e)) => return Err(e.to_string().into()),
        }
    }
}

/// The store alone, no server and no password hashing: a room's commits one after
/// another, timed, without and then with `registrars` threads registering accounts as
/// fast as the store takes them.
fn accounts_store(existing: usize, registrars: usize) -> Result<()> {
    use banco_server::StoreLocation;
    use banco_server::store::{Entry, Event, LiveGame, LiveSeat, Store};
    let dir = tempdir("accounts-store")?;
    let db = dir.0.join("banco.db");
    many_accounts(&db, existing)?;
    let store = Store::open(&StoreLocation::File(db))?;
    let handle = store.handle();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let game = LiveGame {
        key: 1,
        room: 1,
        settings: big_board(),
        seats: [const { LiveSeat::Bot(banco_protocol::Level::Easy) }; 2],
        number: 1,
        first: banco_protocol::Seat::One,
        opening: Vec::new(),
        moves: Vec::new(),
        clocks: None,
        series: Default::default(),
        chat: Vec::new(),
        started_ms: 0,
        next_seq: 0,
        in_match: None,
    };
    rt.block_on(handle.commit(vec![Entry::Begin(Box::new(game))]));
    let mut seq = 0u32;
    let mut commits = |n: u32| {
        let mut lat = Vec::new();
        for _ in 0..n {
            let event = Event::Move {
                mv: Move::Caro(point(seq as usize)),
                clocks: None,
            };
            let t0 = Instant::now();
            rt.block_on(handle.commit(vec![Entry::Event {
                game: 1,
                seq,
                event,
            }]));
            lat.push(t0.elapsed());
            seq += 1;
            std::thread::sleep(Duration::from_micros(500));
        }
        lat
    };
    let quiet = commits(2000);
    // Registering as fast as the hashing lets a server (about 50 a second on the
    // development machine), then as fast as the store takes them.
    let mut phases = Vec::new();
    for pace in [Some(Duration::from_millis(20) * registrars as u32), None] {
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let made = Arc::new(AtomicU64::new(0));
        let mut threads = Vec::new();
        for k in 0..registrars {
            let (stop, made, handle) = (stop.clone(), made.clone(), handle.clone());
            let round = phases.len();
            threads.push(std::thread::spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("a runtime");
                let mut i = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    let name = format!("New {round}x{k}x{i}");
                    if rt
                        .block_on(handle.register(name, "not a hash".into(), false))
                        .is_ok()
                    {
                        made.fetch_add(1, Ordering::Relaxed);
                    }
                    i += 1;
                    if let Some(pace) = pace {
                        std::thread::sleep(pace);
                    }
                }
            }));
        }
        let t1 = Instant::now();
        let busy = commits(2000);
        let spent = t1.elapsed();
        stop.store(true, Ordering::Relaxed);
        for t in threads {
            let _ = t.join();
        }
        let rate = made.load(Ordering::Relaxed) as f64 / spent.as_secs_f64();
        phases.push((rate, busy));
    }
    drop(handle);
    store.close();
    let (q50, q99, qmax, _) = percentiles(quiet);
    println!(
        "store alone: a commit, no registrations: p50 {q50:>6.0} us  p99 {q99:>6.0} us  max {qmax:>7.0} us"
    );
    for (rate, busy) in phases {
        let (b50, b99, bmax, _) = percentiles(busy);
        println!(
            "store alone: a commit, {registrars} threads registering {rate:>5.0}/s (no hashing): p50 {b50:>6.0} us  p99 {b99:>6.0} us  max {bmax:>7.0} us"
        );
    }
    Ok(())
}

/// Accounts in the store before the `accounts` section starts.
const ACCOUNTS: usize = 200_000;

/// Clients (or threads) registering in the `accounts` section: `--clients`, else 4.
fn registrars(o: &Options) -> usize {
    if o.clients == 0 { 4 } else { o.clients }
}

async fn accounts(o: &Options) -> Result<()> {
    let rooms = if o.rooms == 0 { 10 } else { o.rooms };
    let registrars = registrars(o);
    let existing = ACCOUNTS;
    let dir = tempdir("accounts")?;
    let db = dir.0.join("banco.db");
    let t0 = Instant::now();
    many_accounts(&db, existing)?;
    println!(
        "accounts: {existing} accounts written in {:.1} s; {rooms} rooms x {} moves/s for {} s \
         without registrations, then {} s with {registrars} clients registering in a loop \
         (file database, sync {}, --registration-wait 0s)",
        t0.elapsed().as_secs_f64(),
        o.rate,
        o.secs,
        o.secs,
        o.sync
    );
    let server = Process::server(&dir.0, &["--sync", &o.sync, "--registration-wait", "0s"])?;
    let mut pairs = Vec::new();
    for i in 0..rooms {
        pairs.push(room(server.addr, i).await?);
    }
    let moves = (o.secs as f64 * o.rate) as usize;
    let play = |pairs: Vec<(Player, Player)>, from: usize| {
        let rate = o.rate;
        async move {
            let mut tasks = Vec::new();
            for (mut a, mut b) in pairs {
                tasks.push(tokio::spawn(async move {
                    let lat = paced_acks(&mut a, &mut b, from, moves, rate).await?;
                    Ok::<_, Box<dyn std::error::Error + Send + Sync>>((a, b, lat))
                }));
            }
            let mut back = Vec::new();
            let mut lat = Vec::new();
            for t in tasks {
                let (a, b, l) = t.await??;
                back.push((a, b));
                lat.extend(l);
            }
            Ok::<_, Box<dyn std::error::Error + Send + Sync>>((back, lat))
        }
    };
    let (pairs, quiet) = play(pairs, 0).await?;

    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let made = Arc::new(AtomicU64::new(0));
    let refused = Arc::new(AtomicU64::new(0));
    let mut loops = Vec::new();
    for k in 0..registrars {
        let (stop, made, refused, addr) =
            (stop.clone(), made.clone(), refused.clone(), server.addr);
        loops.push(tokio::spawn(async move {
            let mut i = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let name = format!("Newcomer {k}x{i}");
                match register_once(addr, name).await {
                    Ok(true) => made.fetch_add(1, Ordering::Relaxed),
                    _ => refused.fetch_add(1, Ordering::Relaxed),
                };
                i += 1;
            }
        }));
    }
    let t1 = Instant::now();
    let (_pairs, busy) = play(pairs, moves).await?;
    let spent = t1.elapsed();
    stop.store(true, Ordering::Relaxed);
    for l in loops {
        let _ = l.await;
    }
    let rss = server.rss();
    server.stop();

    let (q50, q99, qmax, qn) = percentiles(quiet);
    let (b50, b99, bmax, bn) = percentiles(busy);
    let made = made.load(Ordering::Relaxed);
    println!(
        "move acknowledged, no registrations  ({qn:>5} moves): p50 {q50:>7.0} us  p99 {q99:>7.0} us  max {qmax:>8.0} us"
    );
    println!(
        "move acknowledged, {registrars} registering ({bn:>5} moves): p50 {b50:>7.0} us  p99 {b99:>7.0} us  max {bmax:>8.0} us"
    );
    println!(
        "registrations: {made} made ({:.1}/s), {} refused; server RSS {} MB",
        made as f64 / spent.as_secs_f64(),
        refused.load(Ordering::Relaxed),
        rss >> 20
    );
    Ok(())
}
