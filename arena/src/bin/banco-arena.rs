//! `banco-arena`: plays matches between banco levels, the seed programs' bots and
//! external engines, and generates balanced openings.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use banco_arena::affinity;
use banco_arena::matches::{Clock, Match};
use banco_arena::openings::{self, Opening, caro_token};
use banco_arena::player::Player;
use banco_arena::record::describe;
use banco_arena::rng::Rng;
use banco_arena::spec::{Options, PlayerSpec};
use banco_arena::sprt::Sprt;
use banco_engine::bot::{Bot, Limits};
use banco_engine::caro::Config;
use banco_engine::caro::Engine;
use banco_engine::caro::position::Position;
use banco_rules::Level;
use banco_rules::caro::swap::SwapKind;
use banco_rules::caro::{Game, Point, Rule};
use banco_rules::game::GameSpec;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    version,
    about = "Matches between caro and xiangqi engines: banco levels, seed bots, Gomocup and UCI engines"
)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a match: N games, both colours of each opening, scored game by game and by
    /// pairs (the two games of an opening); optionally several at once and stopped by an
    /// SPRT.
    ///
    /// While it plays, a status line on standard error gives the games played, the
    /// score, the Elo difference from the pairs with its 95% margin, the likelihood of
    /// superiority (LOS), the LLR within its bounds (with --sprt) and an ETA (to -n, or
    /// to the SPRT's decision at its pace so far): rewritten in place on a terminal, one
    /// line per pair otherwise. At the end: the game-by-game score and Elo, the pairs
    /// (Ptnml(0-2): LL, LD, DD/WL, WD, WW) with their Elo and LOS, the SPRT's verdict,
    /// each player's move statistics and forfeits.
    Match {
        /// Player A: banco:LEVEL, seed:NAME, gomocup:COMMAND (caro) or uci:COMMAND
        /// (xiangqi).
        a: PlayerSpec,
        /// Player B.
        b: PlayerSpec,
        /// caro or xiangqi.
        #[arg(long, default_value = "caro")]
        game: GameKind,
        /// Number of games (even numbers give every opening both colours). Default 100;
        /// with --sprt, the most games the test may take (default: no limit).
        #[arg(long, short = 'n')]
        games: Option<usize>,
        /// Games played at once, each with its own two engines (own processes for
        /// external engines) and, when there are at least as many CPUs, pinned to a CPU
        /// of its own.
        #[arg(long, short = 'c', default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
        concurrency: u16,
        /// Stop as soon as a sequential probability ratio test decides on the game pairs
        /// (fishtest's GSPRT): `--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05`, with
        /// model=logistic (the default, Elo as reported) or model=normalized. What is
        /// left out keeps those defaults. It takes the KEY=VALUE words that follow it, so
        /// name the players before it.
        #[arg(long, num_args = 0.., value_name = "KEY=VALUE")]
        sprt: Option<Vec<String>>,
        /// Append every game to this PGN file (tags, moves in the game's notation, each
        /// move's reported score, depth and time).
        #[arg(long)]
        pgn: Option<PathBuf>,
        /// Board size: N or WxH.
        #[arg(long, default_value = "15")]
        size: String,
        /// caro, freestyle, standard or caro-overline.
        #[arg(long, default_value = "caro")]
        rule: Rule,
        /// Xiangqi: start every game from this FEN instead of the usual position (the
        /// openings then do not apply).
        #[arg(long)]
        fen: Option<String>,
        /// Openings file (default: the shipped openings of the game).
        #[arg(long)]
        openings: Option<PathBuf>,
        /// Begin at the Nth opening of the file (1: its first), as cutechess-cli's
        /// `-openings start=N`: a match that goes on where an earlier one stopped, on the
        /// openings it has not played.
        #[arg(long, value_name = "N", default_value_t = 1,
              value_parser = clap::value_parser!(u64).range(1..),
              conflicts_with_all = ["fen", "opening"])]
        openings_start: u64,
        /// Caro: open every game with a swap opening the two players play themselves
        /// instead of one from the openings file: swap2 or swap1. A proposes (places the
        /// first three stones) in games 1, 3, 5, ..., B in games 2, 4, 6, ...; the
        /// decisions decide who plays X. External engines are asked through Gomocup's
        /// SWAP2BOARD, banco levels answer with pbrain-banco's own code. The report adds
        /// each player's score as proposer and as responder and the responders' choices.
        #[arg(long, value_name = "swap2|swap1")]
        opening: Option<SwapArg>,
        /// Time per move in milliseconds for every player (default: banco levels use
        /// their own budget, external engines get 1000).
        #[arg(long)]
        time_ms: Option<u64>,
        /// Player B's time per move in milliseconds, when it differs from --time-ms (a
        /// time-odds match: how much more time one engine needs to hold the other).
        #[arg(long, requires = "time_ms")]
        time_ms_b: Option<u64>,
        /// A game clock for both players instead of a time per move: SECONDS+INCREMENT
        /// (`60+1`: a minute each and a second added per move; `180+2`). Banco levels plan
        /// as the server's bot seat does, Gomocup engines are told `INFO timeout_match`
        /// and `INFO time_left`, UCI engines `go wtime btime winc binc`; a player whose
        /// clock runs out loses on time (a forfeit). The report adds each player's lowest
        /// clock.
        #[arg(long, conflicts_with_all = ["time_ms", "nodes", "opening"])]
        clock: Option<Clock>,
        /// Nodes per move for every player (banco levels and UCI engines): a match
        /// between engine builds that machine load cannot skew. Without --time-ms, time
        /// does not count.
        #[arg(long)]
        nodes: Option<u64>,
        /// How late past the turn time a Gomocup engine may answer before it forfeits
        /// (default 1000, GomocupJudge's tolerance).
        #[arg(long)]
        grace_ms: Option<u64>,
        /// Directory to save every game in, one text file each (what caro-tune,
        /// xiangqi-positions and tactics read).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Seed for the seed bots' random choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print one line per game.
        #[arg(long, short)]
        verbose: bool,
    },
    /// Xiangqi self-play tuning: the engine with changed evaluation weights against the
    /// defaults, at a fixed number of nodes per move, each shipped opening with both
    /// colours.
    Tune {
        /// Weight changes, NAME=MG,EG (e.g. material.soldier=20,30 rook_mobility=8,8).
        #[arg(required = true)]
        set: Vec<String>,
        /// Openings to play (each with both colours).
        #[arg(long, default_value_t = 48)]
        pairs: usize,
        /// Nodes per move.
        #[arg(long, default_value_t = 10_000)]
        nodes: u64,
    },
    /// Generate balanced caro openings: random stones near the centre that a quick
    /// search scores close to even.
    Openings {
        /// How many.
        #[arg(long, default_value_t = 40)]
        count: usize,
        /// Stones per opening.
        #[arg(long, default_value_t = 3)]
        stones: usize,
        /// Largest |score| (evaluation units) accepted as balanced.
        #[arg(long, default_value_t = 120)]
        max_score: i32,
        #[arg(long, default_value_t = 7)]
        seed: u64,
        #[arg(long, default_value = "caro")]
        rule: Rule,
    },
    /// Show what a banco level thinks of a caro position: its move, score, depth, nodes
    /// and principal variation.
    Think {
        /// The moves so far, `x,y` each, X first.
        moves: Vec<String>,
        /// banco level.
        #[arg(long, default_value = "max")]
        level: Level,
        #[arg(long, default_value = "15")]
        size: String,
        #[arg(long, default_value = "caro")]
        rule: Rule,
        /// Time for the move in milliseconds (default: the level's).
        #[arg(long)]
        time_ms: Option<u64>,
        /// Most nodes.
        #[arg(long)]
        nodes: Option<u64>,
    },
    /// Fit the caro evaluation's weights to saved games (Texel's method) and print them as
    /// Rust source for `engine/src/caro/eval.rs`.
    CaroTune {
        /// Game files written by `match --out`, or directories of them.
        games: Vec<PathBuf>,
        /// Gradient steps.
        #[arg(long, default_value_t = 1000)]
        iterations: usize,
        /// One game in this many is kept apart to check the fit on (unless `--check`
        /// names the games to check on).
        #[arg(long, default_value_t = 10)]
        holdout: usize,
        /// Games to check the fit on instead of held-out ones: from other openings or
        /// other players than the training games, a check that the fit did not learn
        /// its training games' openings.
        #[arg(long, num_args = 1..)]
        check: Vec<PathBuf>,
        /// Strength of the pull towards the current weights.
        #[arg(long, default_value_t = 1e-7)]
        l2: f64,
        /// Write the quiet positions' moves, one line each, to this file and stop (for a
        /// teacher engine to score).
        #[arg(long)]
        dump_positions: Option<PathBuf>,
        /// A teacher's scores for the positions: lines `MOVES;SCORE`, side to move's view.
        #[arg(long)]
        teacher: Option<PathBuf>,
        /// The share of a scored position's target that comes from the teacher (0 to 1).
        #[arg(long, default_value_t = 0.5, requires = "teacher")]
        teacher_share: f64,
        /// Fit one worth per set of a point's four line patterns (a point table, see
        /// `PointTable`) instead of the weights, and write it to this file.
        #[arg(long)]
        table: Option<PathBuf>,
        /// Fit renju's weights, one set for Black and one for White (the games must be
        /// renju games), and print them as Rust source for `Weights::renju`.
        #[arg(long, conflicts_with = "table")]
        renju: bool,
    },
    /// Xiangqi: balanced random openings (random legal moves from the start, kept when a
    /// short search scores them near even), as an openings file.
    XiangqiOpenings {
        #[arg(long, default_value_t = 200)]
        count: usize,
        /// Moves per opening.
        #[arg(long, default_value_t = 8)]
        plies: usize,
        /// Largest |score| accepted as balanced.
        #[arg(long, default_value_t = 80)]
        max_score: i32,
        #[arg(long, default_value_t = 7)]
        seed: u64,
    },
    /// Xiangqi: quiet positions from games saved by `match --out`, one line each,
    /// `FEN;result;score` (Red's result; the teacher's score for Red, if one is named).
    XiangqiPositions {
        /// Game files.
        games: Vec<PathBuf>,
        /// Leave out the first plies of each game (the opening).
        #[arg(long, default_value_t = 10)]
        skip: usize,
        /// Take every Nth quiet position.
        #[arg(long, default_value_t = 1)]
        every: usize,
        /// An engine that scores each position: uci:COMMAND.
        #[arg(long)]
        teacher: Option<String>,
        /// The teacher's search depth.
        #[arg(long, default_value_t = 8)]
        depth: u32,
    },
    /// Xiangqi: Texel tuning of the evaluation on a positions file; prints the tuned
    /// tables as Rust source.
    Texel {
        /// The positions file (from xiangqi-positions).
        positions: PathBuf,
        #[arg(long, default_value_t = 600)]
        epochs: usize,
        /// Adam's step.
        #[arg(long, default_value_t = 0.5)]
        rate: f64,
        /// Pull of each weight toward its current value.
        #[arg(long, default_value_t = 1e-8)]
        pull: f64,
        /// Share of the teacher's verdict in the target (the rest is the game result).
        #[arg(long, default_value_t = 0.5)]
        teacher_share: f64,
        /// Teacher centipawns per unit of its logistic verdict.
        #[arg(long, default_value_t = 150.0)]
        teacher_scale: f64,
    },
    /// Mine a VCF tactical suite from saved games: positions where the side to move has
    /// a forced win by fours (with the proof's main line), and positions with fours to
    /// play but no such win. Prints suite lines (see engine/benches/data/vcf.txt).
    Tactics {
        /// Game files written by `match --out`.
        games: Vec<PathBuf>,
        /// Shortest proof kept, in plies (attacker and defender moves).
        #[arg(long, default_value_t = 9)]
        min_line: usize,
        /// Refuted positions kept per game.
        #[arg(long, default_value_t = 1)]
        nowins: usize,
    },
}

/// Prints a line on standard output. A reader that has gone (`banco-arena think ... |
/// head -1`) ends the program quietly, as a closed pipe ends other command-line tools,
/// instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {
        print_line(format_args!($($arg)*))
    };
}

fn print_line(line: std::fmt::Arguments) {
    use std::io::Write;
    if let Err(e) = writeln!(std::io::stdout().lock(), "{line}") {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("banco-arena: cannot write the output: {e}");
        std::process::exit(1);
    }
}

fn main() -> Result<()> {
    match Args::parse().command {
        Command::Match {
            a,
            b,
            game,
            fen,
            games,
            concurrency,
            sprt,
            pgn,
            size,
            rule,
            openings,
            openings_start,
            opening,
            time_ms,
            time_ms_b,
            clock,
            nodes,
            grace_ms,
            out,
            seed,
            verbose,
        } => {
            let (spec, shipped) = match game {
                GameKind::Caro => {
                    let (width, height) = parse_size(&size)?;
                    (
                        GameSpec::Caro {
                            width,
                            height,
                            rule,
                            opening: Vec::new(),
                        },
                        openings::CARO,
                    )
                }
                GameKind::Xiangqi => (GameSpec::Xiangqi { fen: fen.clone() }, openings::XIANGQI),
            };
            let mut openings = match (&openings, &fen) {
                (Some(path), _) => openings::parse(
                    &std::fs::read_to_string(path)
                        .with_context(|| format!("cannot read {}", path.display()))?,
                )?,
                // An arranged position is the opening.
                (None, Some(_)) => vec![Opening {
                    moves: Vec::new(),
                    line: 0,
                }],
                (None, None) => openings::parse(shipped)?,
            };
            let skip = usize::try_from(openings_start - 1).unwrap_or(usize::MAX);
            if skip >= openings.len() {
                bail!(
                    "--openings-start {openings_start} is past the end: the file has {}",
                    plural(openings.len(), "opening", "openings")
                );
            }
            openings.drain(..skip);
            let sprt = sprt.map(|words| Sprt::parse(&words)).transpose()?;
            let m = Match {
                spec,
                games: match (games, sprt) {
                    (Some(n), _) => Some(n),
                    (None, Some(_)) => None,
                    (None, None) => Some(100),
                },
                openings,
                budgets: [time_ms, time_ms_b.or(time_ms)].map(|t| t.map(Duration::from_millis)),
                nodes,
                record_dir: out,
                pgn,
                sprt,
                concurrency: usize::from(concurrency),
                swap: opening.map(|o| match o {
                    SwapArg::Swap1 => SwapKind::Swap1,
                    SwapArg::Swap2 => SwapKind::Swap2,
                }),
                clock,
            };
            run_match(
                &m,
                openings_start,
                &a,
                &b,
                seed,
                grace_ms.map(Duration::from_millis),
                verbose,
            )
        }
        Command::Tune { set, pairs, nodes } => {
            let candidate = banco_arena::tune::xiangqi_selfplay::weights(&set)?;
            let openings = openings::parse(openings::XIANGQI)?;
            out!(
                "{} vs default weights: {pairs} openings x 2 colours, {nodes} nodes per move",
                set.join(" ")
            );
            let t =
                banco_arena::tune::xiangqi_selfplay::ab(candidate, &openings, pairs, nodes, |t| {
                    eprint!("\r  +{} ={} -{}", t.wins, t.draws, t.losses);
                })?;
            eprintln!();
            out!(
                "{}: +{} ={} -{}  ({:.1}%)  Elo {}",
                set.join(" "),
                t.wins,
                t.draws,
                t.losses,
                100.0 * t.score(),
                t.elo()
            );
            Ok(())
        }
        Command::Openings {
            count,
            stones,
            max_score,
            seed,
            rule,
        } => generate_openings(count, stones, max_score, seed, rule),
        Command::Tactics {
            games,
            min_line,
            nowins,
        } => mine_tactics(&games, min_line, nowins),
        Command::Think {
            moves,
            level,
            size,
            rule,
            time_ms,
            nodes,
        } => think(&moves, level, &size, rule, time_ms, nodes),
        Command::CaroTune {
            games,
            iterations,
            holdout,
            check,
            l2,
            dump_positions,
            teacher,
            teacher_share,
            table,
            renju,
        } => caro_tune(
            &games,
            &check,
            iterations,
            holdout,
            l2,
            dump_positions.as_deref(),
            teacher.as_deref().map(|t| (t, teacher_share)),
            table.as_deref(),
            renju,
        ),
        Command::XiangqiOpenings {
            count,
            plies,
            max_score,
            seed,
        } => {
            print!(
                "{}",
                banco_arena::tune::xiangqi_texel::random_openings(count, plies, max_score, seed)?
            );
            Ok(())
        }
        Command::XiangqiPositions {
            games,
            skip,
            every,
            teacher,
            depth,
        } => {
            let mut teacher = match teacher {
                Some(spec) => {
                    let command = spec
                        .strip_prefix("uci:")
                        .context("the teacher is named uci:COMMAND")?;
                    Some(banco_arena::tune::xiangqi_texel::Teacher::start(
                        command, depth,
                    )?)
                }
                None => None,
            };
            use std::io::Write as _;
            let mut out = std::io::stdout().lock();
            let mut failed = None;
            let kept = banco_arena::tune::xiangqi_texel::positions(
                &games,
                skip,
                every,
                teacher.as_mut(),
                |l| {
                    if failed.is_none() {
                        failed = writeln!(out, "{l}").err();
                    }
                },
            )?;
            if let Some(e) = failed {
                bail!("cannot write the positions: {e}");
            }
            eprintln!("{kept} positions");
            Ok(())
        }
        Command::Texel {
            positions,
            epochs,
            rate,
            pull,
            teacher_share,
            teacher_scale,
        } => texel(&positions, epochs, rate, pull, teacher_share, teacher_scale),
    }
}

fn texel(
    path: &PathBuf,
    epochs: usize,
    rate: f64,
    pull: f64,
    teacher_share: f64,
    teacher_scale: f64,
) -> Result<()> {
    use banco_arena::tune::xiangqi_texel as texel;
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut samples = texel::read_samples(&text, teacher_share, teacher_scale)?;
    // The last tenth is held out to see whether the fit generalises: positions come in
    // game order, so these are other games than the ones fitted.
    let held = samples.split_off(samples.len() - samples.len() / 10);
    let mut params = texel::current_params();
    let k = texel::fit_scale(&samples, &params);
    eprintln!(
        "{} samples ({} held out), scale {k:.5}: error {:.6}, held out {:.6}",
        samples.len(),
        held.len(),
        texel::error(&samples, &params, k),
        texel::error(&held, &params, k)
    );
    texel::fit(
        &samples,
        &mut params,
        k,
        epochs,
        rate,
        pull,
        |epoch, e, now| {
            eprintln!(
                "epoch {epoch}: error {e:.6}, held out {:.6}",
                texel::error(&held, now, k)
            )
        },
    );
    print!("{}", texel::source(&params));
    Ok(())
}

/// A swap opening for `match --opening`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum SwapArg {
    Swap1,
    Swap2,
}

/// Which game a match plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum GameKind {
    Caro,
    Xiangqi,
}

fn parse_size(s: &str) -> Result<(u8, u8)> {
    let (w, h) = s.split_once(['x', 'X']).unwrap_or((s, s));
    let w: u8 = w
        .trim()
        .parse()
        .with_context(|| format!("bad size '{s}'"))?;
    let h: u8 = h
        .trim()
        .parse()
        .with_context(|| format!("bad size '{s}'"))?;
    Ok((w, h))
}

/// `n` and the noun for one or for many.
fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// 1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st.
fn ordinal(n: u64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Plays `m`, whose first opening is the `first_opening`th of its file.
fn run_match(
    m: &Match,
    first_opening: u64,
    a: &PlayerSpec,
    b: &PlayerSpec,
    seed: u64,
    grace: Option<Duration>,
    verbose: bool,
) -> Result<()> {
    let options = Options { grace };
    // Slot k's seed bots draw from seeds of their own; slot 0's are those of a match
    // played one game at a time.
    let make = |slot: usize| -> Result<[Box<dyn Player>; 2]> {
        let seed = seed.wrapping_add(2 * slot as u64);
        Ok([
            a.build_with(seed, &options)?,
            b.build_with(seed.wrapping_add(1), &options)?,
        ])
    };
    let odds = match m.budgets {
        [Some(a), Some(b)] if a != b => {
            format!(", {} ms against {} ms a move", a.as_millis(), b.as_millis())
        }
        _ => String::new(),
    };
    let (count, until) = match m.games {
        Some(n) => (format!("{n} games"), ""),
        None => ("games".to_string(), " until the SPRT decides"),
    };
    let openings = match m.swap {
        Some(SwapKind::Swap2) => "Swap2 openings (A proposes in odd games, B in even)".into(),
        Some(SwapKind::Swap1) => "Swap1 openings (A proposes in odd games, B in even)".into(),
        None if first_opening > 1 => format!(
            "{} from the file's {}",
            plural(m.openings.len(), "opening", "openings"),
            ordinal(first_opening)
        ),
        None => plural(m.openings.len(), "opening", "openings"),
    };
    out!(
        "{a} vs {b}: {count} of {}{until}, {openings}{odds}",
        describe(&m.spec),
    );
    if m.concurrency > 1 {
        let cpus = affinity::allowed_cpus();
        match affinity::plan(m.concurrency, cpus.as_deref()) {
            Some(pins) => out!(
                "  {} games at once, each game's engines on a CPU of their own: {}",
                m.concurrency,
                pins.iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None => out!(
                "  {} games at once, engines not pinned ({} CPUs: too few to give each game its own)",
                m.concurrency,
                cpus.map_or_else(|| "unknown".to_string(), |c| c.len().to_string())
            ),
        }
    }
    if let Some(s) = &m.sprt {
        let (lower, upper) = s.bounds();
        out!("  SPRT {s}: bounds [{lower:.2}, {upper:.2}]");
    }
    let start = Instant::now();
    let mut status = StatusLine::new();
    let report = m.play_with(&make, |record, progress| {
        if verbose {
            let forfeit = if record.forfeit.is_some() {
                " FORFEIT"
            } else {
                ""
            };
            status.clear();
            out!(
                "game {:>3}: {} first, {} in {} plies ({}){forfeit}  [{}: +{} ={} -{}]",
                record.number,
                record.names[record.first],
                record.result(),
                record.moves.len(),
                record.reason,
                record.names[0],
                progress.tally.wins,
                progress.tally.draws,
                progress.tally.losses
            );
            if record.swap.is_some() {
                out!("          {}", record.opening);
            }
        }
        status.show(progress);
    })?;
    status.finish();
    let t = report.tally;
    out!(
        "{} vs {}: +{} ={} -{}  ({:.1}%)  Elo {}  [{:.0} s]",
        report.names[0],
        report.names[1],
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.score(),
        t.elo(),
        start.elapsed().as_secs_f64()
    );
    let p = report.pairs;
    if p.pairs() > 0 {
        let (elo, los) = p.elo();
        let c = p.counts;
        out!(
            "  pairs: {} (Ptnml(0-2) LL {} LD {} DD/WL {} WD {} WW {}): {:.1}%  Elo {elo}  LOS {:.1}%",
            p.pairs(),
            c[0],
            c[1],
            c[2],
            c[3],
            c[4],
            100.0 * p.score(),
            100.0 * los
        );
    }
    if let (Some(s), Some(llr)) = (&m.sprt, report.llr) {
        let (lower, upper) = s.bounds();
        let verdict = match report.verdict {
            Some(v) => format!(
                "{} accepted after {} pairs (LLR {:.2})",
                v.hypothesis, v.pairs, v.llr
            ),
            None => "no decision".to_string(),
        };
        out!("  SPRT {s}: LLR {llr:.2} [{lower:.2}, {upper:.2}]: {verdict}");
    }
    if let Some(swap) = &report.swap {
        for (p, name) in report.names.iter().enumerate() {
            let [stay, swapped, two] = swap.answers[p];
            let (a, r) = (swap.proposing[p], swap.responding[p]);
            out!(
                "  {name}: as proposer +{} ={} -{} ({:.1}%), as responder +{} ={} -{} ({:.1}%); answered: took O {stay}, took X {swapped}, placed two {two}",
                a.wins,
                a.draws,
                a.losses,
                100.0 * a.score(),
                r.wins,
                r.draws,
                r.losses,
                100.0 * r.score()
            );
        }
        let [x, o, d] = swap.colours;
        out!("  by colour: X won {x}, O won {o}, drawn {d}");
    }
    for (name, s) in report.names.iter().zip(report.stats) {
        let depth = s
            .mean_depth()
            .map_or_else(|| "-".to_string(), |d| format!("{d:.1}"));
        out!(
            "  {name}: {} moves, {:.3} s/move, longest {:.3} s, {} overruns (worst {} ms), mean depth {depth}{}",
            s.moves,
            s.mean_time().as_secs_f64(),
            s.longest.as_secs_f64(),
            s.overruns,
            s.worst_overrun.as_millis(),
            s.lowest_clock.map_or_else(String::new, |l| format!(
                ", lowest clock {:.3} s",
                l.as_secs_f64()
            ))
        );
    }
    // A game lost off the board measures nothing: say so where the score is read.
    out!(
        "  forfeits: {} {}, {} {}{}",
        report.names[0],
        report.forfeits[0],
        report.names[1],
        report.forfeits[1],
        if report.forfeits == [0, 0] {
            ""
        } else {
            "  (games lost off the board: the score above does not measure strength)"
        }
    );
    Ok(())
}

/// The live status line on standard error: rewritten in place on a terminal, else one
/// line per game pair (a log gets the progress without a line per game).
struct StatusLine {
    /// Whether standard error is a terminal.
    terminal: bool,
    /// Whether a line is on the terminal now, to be cleared before other output.
    shown: bool,
    /// Pairs when a line was last printed (not on a terminal).
    pairs_printed: u32,
}

impl StatusLine {
    fn new() -> StatusLine {
        use std::io::IsTerminal;
        StatusLine {
            terminal: std::io::stderr().is_terminal(),
            shown: false,
            pairs_printed: 0,
        }
    }

    fn show(&mut self, progress: &banco_arena::matches::Progress) {
        if self.terminal {
            eprint!("\r\x1b[2K{}", progress.status_line());
            self.shown = true;
        } else if progress.pairs.pairs() > self.pairs_printed {
            self.pairs_printed = progress.pairs.pairs();
            eprintln!("{}", progress.status_line());
        }
    }

    /// Takes the line off the terminal, before other output.
    fn clear(&mut self) {
        if self.shown {
            eprint!("\r\x1b[2K");
            self.shown = false;
        }
    }

    /// Leaves the last line on the terminal and moves past it.
    fn finish(&mut self) {
        if self.shown {
            eprintln!();
            self.shown = false;
        }
    }
}

/// Random `stones`-stone openings within two points of the centre whose quick search
/// score is within `max_score` for the side to move, printed as an openings file.
fn generate_openings(
    count: usize,
    stones: usize,
    max_score: i32,
    seed: u64,
    rule: Rule,
) -> Result<()> {
    if stones == 0 || stones > 12 {
        bail!("--stones must be 1 to 12");
    }
    let mut rng = Rng::new(seed);
    let mut config = Config::for_level(Level::Hard);
    config.move_time = Duration::from_millis(300);
    config.root_vct_nodes = 20_000;
    let mut engine = Engine::with_config(config);
    let mut found: Vec<Opening> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    out!("# Balanced caro openings: offsets (dx,dy) from the centre, moves alternate from X.");
    out!(
        "# Generated by `banco-arena openings --count {count} --stones {stones} --max-score {max_score} --seed {seed} --rule {rule}`:"
    );
    out!("# random stones within two points of the centre, kept when a 0.3 s search scores");
    out!("# the position within {max_score} for the side to move and finds no forced win.");
    let mut tries = 0;
    while found.len() < count {
        tries += 1;
        if tries > count * 1000 {
            bail!("found only {} balanced openings", found.len());
        }
        let mut game = Game::new(15, 15, rule)?;
        for _ in 0..stones {
            loop {
                let p = Point::new(5 + rng.below(5) as u8, 5 + rng.below(5) as u8);
                if game.play(p).is_ok() {
                    break;
                }
            }
        }
        if game.outcome().is_some() || !seen.insert(game.board().hash()) {
            continue;
        }
        let mut pos = Position::from_game(&game);
        engine.new_game();
        let thought = engine.search(&mut pos, &Limits::none());
        if thought.score.abs() > max_score {
            continue;
        }
        let tokens: Vec<String> = game
            .moves()
            .iter()
            .map(|p| caro_token(*p, 15, 15))
            .collect();
        out!(
            "{}  # score {:+} depth {}",
            tokens.join(" "),
            thought.score,
            thought.depth
        );
        found.push(Opening {
            moves: tokens,
            line: 0,
        });
    }
    Ok(())
}

/// Whether every attacking move of a main line threatens a five (a pure VCF, which a
/// brute-force prover can check quickly), the defender's answers in between.
fn all_fours(pos: &mut Position, line: &[usize]) -> bool {
    use banco_engine::caro::pattern::Combo;
    let attacker = pos.to_move();
    let mut ok = true;
    let mut made = 0;
    for (i, &c) in line.iter().enumerate() {
        if !pos.is_empty(c) {
            ok = false;
            break;
        }
        pos.make(c);
        made += 1;
        if i % 2 == 0 && i + 1 < line.len() && pos.count(attacker, Combo::Five) == 0 {
            ok = false;
            break;
        }
    }
    for _ in 0..made {
        pos.unmake();
    }
    ok
}

/// A saved game: its spec and moves.
fn read_game(path: &PathBuf) -> Result<(u8, u8, Rule, Vec<Point>)> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let header = text
        .lines()
        .find_map(|l| l.strip_prefix("# game: caro "))
        .with_context(|| format!("{} is not a saved caro game", path.display()))?;
    let mut words = header.split_whitespace();
    let (w, h) = parse_size(words.next().unwrap_or(""))?;
    let rule: Rule = words.nth(1).unwrap_or("").parse()?;
    let moves = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| banco_rules::caro::notation::parse_point(l, w, h).map_err(anyhow::Error::from))
        .collect::<Result<Vec<Point>>>()?;
    Ok((w, h, rule, moves))
}

fn think(
    moves: &[String],
    level: Level,
    size: &str,
    rule: Rule,
    time_ms: Option<u64>,
    nodes: Option<u64>,
) -> Result<()> {
    let (w, h) = parse_size(size)?;
    let mut game = Game::new(u32::from(w), u32::from(h), rule)?;
    for m in moves.iter().flat_map(|m| m.split_whitespace()) {
        let p = banco_rules::caro::notation::parse_point(m, w, h)?;
        game.play(p)?;
    }
    let mut config = Config::for_level(level);
    if let Some(ms) = time_ms {
        config.move_time = Duration::from_millis(ms);
    }
    let mut engine = Engine::with_config(config);
    let mut limits = Limits::none();
    if time_ms.is_some() {
        // As in a match with --time-ms: the move's own time, spent.
        limits = limits.spending_all();
    }
    if let Some(n) = nodes {
        limits = limits.nodes(n);
    }
    let t = engine.think(&game, &limits);
    let pv: Vec<String> = t.pv.iter().map(|p| p.to_string()).collect();
    out!(
        "{} to move: best {} score {} depth {} nodes {} time {} ms",
        game.to_move(),
        t.best.map_or_else(|| "-".to_string(), |p| p.to_string()),
        t.score,
        t.depth,
        t.nodes,
        t.elapsed.as_millis()
    );
    out!("pv {}", pv.join(" "));
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn caro_tune(
    paths: &[PathBuf],
    check: &[PathBuf],
    iterations: usize,
    holdout: usize,
    l2: f64,
    dump: Option<&Path>,
    teacher: Option<(&Path, f64)>,
    table: Option<&Path>,
    renju: bool,
) -> Result<()> {
    use banco_arena::tune::caro_texel as texel;
    use banco_engine::caro::eval::Weights;
    if let Some((_, share)) = teacher
        && !(0.0..=1.0).contains(&share)
    {
        bail!("--teacher-share is a share of the target: between 0 and 1, not {share}");
    }
    let list = |paths: &[PathBuf]| -> Result<Vec<PathBuf>> {
        let mut files = Vec::new();
        for path in paths {
            if path.is_dir() {
                for entry in std::fs::read_dir(path)? {
                    files.push(entry?.path());
                }
            } else {
                files.push(path.clone());
            }
        }
        files.sort();
        Ok(files)
    };
    let files = list(paths)?;
    let check_files = list(check)?;
    let (mut train, mut test) = (Vec::new(), Vec::new());
    let (mut table_train, mut table_test) = (Vec::new(), Vec::new());
    let tagged = files
        .iter()
        .enumerate()
        .map(|(i, f)| (f, check_files.is_empty() && holdout > 0 && i % holdout == 0))
        .chain(check_files.iter().map(|f| (f, true)));
    for (file, to_check) in tagged {
        let game = texel::read_caro_game(file)?;
        if renju && game.rule != banco_rules::caro::Rule::Renju {
            bail!(
                "{} is a {} game: --renju fits renju's weights, from renju games only",
                file.display(),
                game.rule
            );
        }
        let form = if renju {
            texel::Form::Renju
        } else {
            texel::Form::Weights
        };
        let samples = texel::samples_for(&game, form)?;
        let table_samples = match table {
            Some(_) => texel::samples_for(&game, texel::Form::Table)?,
            None => Vec::new(),
        };
        // Whole games go to one side, so the check set is not the training set's
        // neighbours.
        if to_check {
            test.extend(samples);
            table_test.extend(table_samples);
        } else {
            train.extend(samples);
            table_train.extend(table_samples);
        }
    }
    eprintln!(
        "{} games: {} training positions, {} check positions",
        files.len() + check_files.len(),
        train.len(),
        test.len()
    );
    if let Some(dump) = dump {
        let lines: String = train
            .iter()
            .chain(&test)
            .map(|s| format!("{}\n", s.moves))
            .collect();
        std::fs::write(dump, lines).with_context(|| format!("cannot write {}", dump.display()))?;
        return Ok(());
    }
    if let Some((path, share)) = teacher {
        let scores = texel::read_teacher(path)?;
        let taught = texel::apply_teacher(&mut train, &scores, share)
            + texel::apply_teacher(&mut test, &scores, share);
        texel::apply_teacher(&mut table_train, &scores, share);
        texel::apply_teacher(&mut table_test, &scores, share);
        eprintln!("teacher: {taught} positions scored, {share} of their target");
    }
    if let Some(out) = table {
        // The weights first (they share what they learn between sets of patterns), then
        // each set's own worth from there.
        let weights = texel::fit(
            &Weights::default_weights(),
            &train,
            iterations,
            l2,
            |_, _| {},
        );
        report("weights", texel::error, &weights, &train, &test);
        let (train, test) = (table_train, table_test);
        let start = banco_engine::caro::eval::PointTable::from_weights(&weights);
        report("start", texel::table_error, &start, &train, &test);
        let fitted = texel::fit_table(&start, &train, iterations, l2, |it, e| {
            eprintln!("  step {it}: error {e:.5}");
        });
        report("fitted", texel::table_error, &fitted, &train, &test);
        std::fs::write(out, fitted.to_text())
            .with_context(|| format!("cannot write {}", out.display()))?;
        return Ok(());
    }
    if renju {
        let start = Weights::renju();
        report("start", texel::renju_error, &start, &train, &test);
        let fitted = texel::fit_renju(&start, &train, iterations, l2, |it, e| {
            eprintln!("  step {it}: error {e:.5}");
        });
        report("fitted", texel::renju_error, &fitted, &train, &test);
        for (weights, colour) in fitted.iter().zip(["Black", "White"]) {
            print!("// {colour}\n{}", texel::source(weights));
        }
        return Ok(());
    }
    let start = Weights::default_weights();
    report("start", texel::error, &start, &train, &test);
    let fitted = texel::fit(&start, &train, iterations, l2, |it, e| {
        eprintln!("  step {it}: error {e:.5}");
    });
    report("fitted", texel::error, &fitted, &train, &test);
    print!("{}", texel::source(&fitted));
    Ok(())
}

/// Prints what `error` says of `model` on the training and the check positions.
fn report<M>(
    what: &str,
    error: fn(&M, &[banco_arena::tune::caro_texel::Sample]) -> f64,
    model: &M,
    train: &[banco_arena::tune::caro_texel::Sample],
    test: &[banco_arena::tune::caro_texel::Sample],
) {
    eprintln!(
        "{what}: error {:.5} (check {:.5})",
        error(model, train),
        error(model, test)
    );
}

fn mine_tactics(paths: &[PathBuf], min_line: usize, nowins: usize) -> Result<()> {
    use banco_engine::caro::pattern::Combo;
    use banco_engine::caro::vcf::{Proof, vcf};
    let points = |v: &[Point]| {
        v.iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    for path in paths {
        let (w, h, rule, moves) = read_game(path)?;
        let mut game = Game::new(u32::from(w), u32::from(h), rule)?;
        let mut won = [false; 2];
        let mut refuted = 0;
        for (ply, &mv) in moves.iter().enumerate() {
            if ply >= 8 && game.outcome().is_none() {
                let side = game.to_move().index();
                let mut pos = Position::from_game(&game);
                let fours = pos.count_at_least(game.to_move(), Combo::Block4);
                match vcf(&mut pos, 40, 2_000_000) {
                    Proof::Win(line)
                        if !won[side] && line.len() >= min_line && all_fours(&mut pos, &line) =>
                    {
                        won[side] = true;
                        let line: Vec<Point> = line.iter().map(|c| pos.point(*c)).collect();
                        out!(
                            "{rule} {w}x{h}; {}; win; {}",
                            points(game.moves()),
                            points(&line)
                        );
                    }
                    Proof::NoWin if refuted < nowins && fours >= 3 => {
                        refuted += 1;
                        out!("{rule} {w}x{h}; {}; nowin;", points(game.moves()));
                    }
                    _ => {}
                }
            }
            if game.play(mv).is_err() {
                break;
            }
        }
    }
    Ok(())
}
