//! dutch-check: the Dutch system against bbpPairings on fresh random tournaments.
//!
//! ```sh
//! BBP=/path/to/bbpPairings cargo run -p banco-pairing --release --bin dutch-check -- --count 10000
//! cargo run -p banco-pairing --release --bin dutch-check -- --trf a.trf b.trf   # re-pair files
//! BBP=... cargo run -p banco-pairing --release --bin dutch-check -- --handover 200
//! ```
//!
//! For each seed from `--first-seed` on, a player count (7-200) and a round count (3-11,
//! below the player count) are drawn from the seed, bbpPairings generates a tournament
//! with its own generator (`--dutch -g CONFIG -o FILE -s SEED`, pairing every round
//! itself), and every round is paired again here and compared board for board. Seeds for
//! which bbpPairings finds no pairing are skipped and listed; every seed handed out is
//! finished, so a run may check up to `--jobs - 1` more than `--count`. Prints the discrepancy count
//! and the seeds that differ; exits 1 when any does. `--keep DIR` keeps differing files.
//!
//! `--handover N` goes the other way: it plays out N random events here (late entries,
//! withdrawals, half-, full- and zero-point byes, forfeits), and before each round writes
//! the tournament as a TRF file with that round's byes, has bbpPairings pair it (`-p`),
//! and compares with this crate's pairing: the TRF writer and the situations the
//! generator never makes are checked at once.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use anyhow::{Context, Result, bail};
use banco_pairing::{dutch, trf};

/// Command-line options.
struct Options {
    /// Tournaments to check.
    count: usize,
    /// The first seed.
    first_seed: u64,
    /// Worker threads.
    jobs: usize,
    /// Where to keep files that differ.
    keep: Option<PathBuf>,
    /// Files to re-pair instead of generating.
    files: Vec<PathBuf>,
    /// Events to play out here and hand to bbpPairings round by round.
    handover: usize,
}

fn options() -> Result<Options> {
    let mut o = Options {
        count: 100,
        first_seed: 1,
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        keep: None,
        files: Vec::new(),
        handover: 0,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().with_context(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--count" => o.count = value("--count")?.parse().context("--count: a number")?,
            "--first-seed" => {
                o.first_seed = value("--first-seed")?
                    .parse()
                    .context("--first-seed: a number")?
            }
            "--jobs" => o.jobs = value("--jobs")?.parse().context("--jobs: a number")?,
            "--keep" => o.keep = Some(PathBuf::from(value("--keep")?)),
            "--trf" => o.files.extend(args.by_ref().map(PathBuf::from)),
            "--handover" => {
                o.handover = value("--handover")?
                    .parse()
                    .context("--handover: a number")?
            }
            "-h" | "--help" => {
                println!(
                    "dutch-check [--count N] [--first-seed S] [--jobs J] [--keep DIR] | --trf FILE...\n\
                     Generates tournaments with $BBP (bbpPairings) and re-pairs every round."
                );
                std::process::exit(0);
            }
            other => bail!("unknown argument {other} (try --help)"),
        }
    }
    o.jobs = o.jobs.max(1);
    Ok(o)
}

/// SplitMix64: the player and round counts of a seed.
fn mix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The player and round counts for a seed.
fn shape(seed: u64) -> (u64, u64) {
    let r = mix(seed);
    let players = 7 + r % 194;
    let rounds = 3 + (r >> 32) % 9;
    (players, rounds.min(players - 1))
}

/// What happened to one seed.
enum Outcome {
    /// Checked: rounds, and the rounds that differ.
    Checked {
        rounds: usize,
        differing: Vec<usize>,
    },
    /// bbpPairings could not generate it.
    Skipped,
}

fn run_seed(bbp: &Path, dir: &Path, seed: u64, keep: Option<&Path>) -> Result<Outcome> {
    let (players, rounds) = shape(seed);
    let config = dir.join(format!("{seed}.cfg"));
    let file = dir.join(format!("{seed}.trf"));
    std::fs::write(
        &config,
        format!("PlayersNumber={players}\nRoundsNumber={rounds}\n"),
    )?;
    let status = Command::new(bbp)
        .arg("--dutch")
        .arg("-g")
        .arg(&config)
        .arg("-o")
        .arg(&file)
        .arg("-s")
        .arg(seed.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .with_context(|| format!("running {}", bbp.display()))?;
    let _ = std::fs::remove_file(&config);
    if !status.success() {
        let _ = std::fs::remove_file(&file);
        return Ok(Outcome::Skipped);
    }
    let outcome = check_file(&file)?;
    if let (Outcome::Checked { differing, .. }, Some(keep)) = (&outcome, keep)
        && !differing.is_empty()
    {
        std::fs::copy(
            &file,
            keep.join(format!("s{seed}-p{players}-r{rounds}.trf")),
        )?;
    }
    let _ = std::fs::remove_file(&file);
    Ok(outcome)
}

fn check_file(file: &Path) -> Result<Outcome> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let t = trf::read(&text)
        .with_context(|| format!("reading {}", file.display()))?
        .tournament;
    let differing = dutch::recheck(&t).into_iter().map(|d| d.round).collect();
    Ok(Outcome::Checked {
        rounds: t.rounds.len(),
        differing,
    })
}

fn main() -> Result<()> {
    let o = options()?;
    if !o.files.is_empty() {
        let mut bad = 0;
        for f in &o.files {
            match check_file(f)? {
                Outcome::Checked { rounds, differing } => {
                    println!(
                        "{}: {rounds} rounds, differing rounds: {differing:?}",
                        f.display()
                    );
                    bad += usize::from(!differing.is_empty());
                }
                Outcome::Skipped => {}
            }
        }
        std::process::exit(i32::from(bad > 0));
    }
    let bbp = PathBuf::from(std::env::var_os("BBP").context("set BBP to the bbpPairings program")?);
    if o.handover > 0 {
        return handover(&bbp, &o);
    }
    if let Some(keep) = &o.keep {
        std::fs::create_dir_all(keep)?;
    }
    let dir = std::env::temp_dir().join(format!("dutch-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;

    let next_seed = AtomicU64::new(o.first_seed);
    let checked = AtomicUsize::new(0);
    let report = Mutex::new((0usize, Vec::<(u64, Vec<usize>)>::new(), Vec::<u64>::new()));
    let started = std::time::Instant::now();
    std::thread::scope(|s| -> Result<()> {
        let mut workers = Vec::new();
        for _ in 0..o.jobs {
            workers.push(s.spawn(|| -> Result<()> {
                loop {
                    if checked.load(Ordering::SeqCst) >= o.count {
                        return Ok(());
                    }
                    let seed = next_seed.fetch_add(1, Ordering::SeqCst);
                    let outcome = run_seed(&bbp, &dir, seed, o.keep.as_deref())?;
                    let mut r = report
                        .lock()
                        .map_err(|_| anyhow::anyhow!("a worker panicked"))?;
                    match outcome {
                        Outcome::Skipped => r.2.push(seed),
                        Outcome::Checked { rounds, differing } => {
                            let done = checked.fetch_add(1, Ordering::SeqCst) + 1;
                            r.0 += rounds;
                            if !differing.is_empty() {
                                println!("seed {seed}: rounds {differing:?} differ");
                                r.1.push((seed, differing));
                            }
                            if done.is_multiple_of(100) {
                                println!(
                                    "{done} tournaments, {} rounds, {} differing, {:.0} s",
                                    r.0,
                                    r.1.len(),
                                    started.elapsed().as_secs_f64()
                                );
                            }
                        }
                    }
                }
            }));
        }
        for w in workers {
            w.join()
                .map_err(|_| anyhow::anyhow!("a worker panicked"))??;
        }
        Ok(())
    })?;
    let _ = std::fs::remove_dir_all(&dir);
    let (rounds, differing, skipped) = report
        .into_inner()
        .map_err(|_| anyhow::anyhow!("a worker panicked"))?;
    let last_seed = next_seed.load(Ordering::SeqCst).saturating_sub(1);
    println!(
        "checked {} tournaments (seeds {}..={last_seed}, players 7-200, rounds 3-11), {rounds} rounds: \
         {} tournaments with discrepancies {:?}; {} seeds skipped (bbpPairings found no pairing) {:?}; {:.0} s",
        checked.load(Ordering::SeqCst),
        o.first_seed,
        differing.len(),
        differing.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
        skipped.len(),
        skipped,
        started.elapsed().as_secs_f64()
    );
    std::process::exit(i32::from(!differing.is_empty()));
}

/// xorshift64 for the events played out by `--handover`.
struct Dice(u64);

impl Dice {
    fn roll(&mut self, sides: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % sides.max(1)
    }
}

/// Plays out `o.handover` events, asking bbpPairings for each round too.
fn handover(bbp: &Path, o: &Options) -> Result<()> {
    use banco_pairing::{Bye, ByeKind, Game, GameResult, Player, Round, Tournament};
    let dir = std::env::temp_dir().join(format!("dutch-handover-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let (mut rounds_checked, mut differing) = (0usize, Vec::new());
    for event in 0..o.handover as u64 {
        let seed = o.first_seed + event;
        let mut dice = Dice(mix(seed) | 1);
        let players = 7 + dice.roll(54) as usize;
        let total = 3 + dice.roll(7) as u32;
        let mut t = Tournament::new(
            (0..players)
                .map(|i| Player::new(format!("Player {}", i + 1), 2600 - 5 * i as u16))
                .collect(),
            total,
        );
        if dice.roll(2) == 0 {
            t.initial_colour = banco_pairing::Colour::Black;
        }
        if dice.roll(3) == 0 {
            t.scoring.pairing_bye = banco_pairing::Points(5);
        }
        for p in &mut t.players {
            if dice.roll(12) == 0 {
                p.joins = 2 + dice.roll(u64::from(total) - 1) as u32;
            }
        }
        for r in 0..total {
            if dice.roll(8) == 0 {
                let p = dice.roll(players as u64) as usize;
                t.players[p].withdrawn = true;
            }
            let mut byes: Vec<Bye> = Vec::new();
            for p in 0..players {
                let absent = t.players[p].withdrawn || t.players[p].joins > r + 1;
                if absent {
                    byes.push(Bye {
                        player: p,
                        kind: ByeKind::ZeroPoint,
                    });
                } else if dice.roll(25) == 0 {
                    let kind = match dice.roll(5) {
                        0 | 1 => ByeKind::HalfPoint,
                        2 | 3 => ByeKind::ZeroPoint,
                        _ => ByeKind::FullPoint,
                    };
                    byes.push(Bye { player: p, kind });
                }
            }
            if byes.len() + 2 > players {
                break;
            }
            let ours = dutch::pair(&t, &byes);
            let file = dir.join(format!("{seed}-{}.trf", r + 1));
            let out = dir.join(format!("{seed}-{}.txt", r + 1));
            let text = trf::write("handover", &t, &byes)?;
            std::fs::write(&file, &text)?;
            let status = Command::new(bbp)
                .arg("--dutch")
                .arg(&file)
                .arg("-p")
                .arg(&out)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status()?;
            let theirs = if status.success() {
                Some(read_pairs(&std::fs::read_to_string(&out)?)?)
            } else {
                None
            };
            rounds_checked += 1;
            let same = match (&ours, &theirs) {
                (Ok(p), Some(q)) => dutch::same_pairing(p, q),
                (Err(dutch::PairError::NoValidPairing), None) => true,
                _ => false,
            };
            if !same {
                println!(
                    "event seed {seed}, round {}: ours {ours:?}, bbpPairings {theirs:?}",
                    r + 1
                );
                if let Some(keep) = &o.keep {
                    std::fs::create_dir_all(keep)?;
                    std::fs::copy(&file, keep.join(format!("handover-{seed}-{}.trf", r + 1)))?;
                }
                differing.push((seed, r + 1));
            }
            let _ = std::fs::remove_file(&file);
            let _ = std::fs::remove_file(&out);
            let Ok(pairing) = ours else { break };
            let mut round = Round {
                games: Vec::new(),
                byes,
            };
            for b in &pairing.boards {
                let result = match dice.roll(30) {
                    0 => GameResult::WhiteWinsByForfeit,
                    1 => GameResult::BlackWinsByForfeit,
                    2 => GameResult::DoubleForfeit,
                    3..=10 => GameResult::Draw,
                    11..=20 => GameResult::WhiteWins,
                    _ => GameResult::BlackWins,
                };
                round.games.push(Game {
                    white: b.white,
                    black: b.black,
                    result,
                });
            }
            if let Some(p) = pairing.bye {
                round.byes.push(Bye {
                    player: p,
                    kind: ByeKind::PairingAllocated,
                });
            }
            t.rounds.push(round);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "handed over {} events (seeds {}..={}), {rounds_checked} rounds: {} differ {differing:?}",
        o.handover,
        o.first_seed,
        o.first_seed + o.handover as u64 - 1,
        differing.len()
    );
    std::process::exit(i32::from(!differing.is_empty()));
}

/// Reads bbpPairings' `-p` output: a count, then "white black" lines ("p 0": the bye).
fn read_pairs(text: &str) -> Result<banco_pairing::RoundPairing> {
    let mut pairing = banco_pairing::RoundPairing::default();
    for line in text.lines().skip(1) {
        let mut it = line.split_whitespace().map(str::parse::<usize>);
        let (Some(Ok(a)), Some(Ok(b))) = (it.next(), it.next()) else {
            bail!("unreadable pairing line {line:?}");
        };
        if b == 0 {
            pairing.bye = Some(a - 1);
        } else {
            pairing.boards.push(banco_pairing::Board {
                white: a - 1,
                black: b - 1,
            });
        }
    }
    Ok(pairing)
}
