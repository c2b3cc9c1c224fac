//! `pbrain-banco`: banco's caro engine for Gomocup tournament managers (piskvork,
//! GomocupJudge, banco-arena). Speaks the pbrain protocol on stdin/stdout; see
//! `banco_arena::pbrain` for the commands.

use std::io::{BufRead, Write};

use anyhow::{Context, Result, bail};
use banco_arena::gomocup::Brain;
use banco_engine::caro::eval::{PointTable, ValueTable};
use banco_rules::Level;
use clap::Parser;

/// Play caro in a Gomocup tournament manager.
#[derive(Parser)]
#[command(version, about)]
struct Args {
    /// Strength: easy, casual, medium, advanced, hard, expert or max (or 1 to 7). The manager's time limits still apply.
    #[arg(long, default_value = "max")]
    level: Level,
    /// Most nodes per move (for load-independent test matches).
    #[arg(long)]
    nodes: Option<u64>,
    /// Evaluate with this point table (one worth per set of a point's four line patterns,
    /// as `banco-arena caro-tune --table` writes it) instead of the built-in weights
    /// (under every rule but renju, whose colours have weights of their own).
    #[arg(long)]
    points: Option<std::path::PathBuf>,
}

fn main() -> Result<()> {
    let args = Args::parse();
    if let Some(path) = &args.points {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let table = PointTable::parse(&text)
            .map_err(|e| anyhow::anyhow!("{} is not a point table: {e}", path.display()))?;
        if !ValueTable::install(&table) {
            bail!(
                "the evaluation was in use before {} could be loaded",
                path.display()
            );
        }
    }
    let mut brain = Brain::new(args.level).with_node_limit(args.nodes);
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        // Bytes that are not UTF-8 are junk like any other: answered, never fatal.
        let line = match line {
            Ok(l) => l,
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                writeln!(stdout, "ERROR input is not UTF-8 text")?;
                stdout.flush()?;
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        for answer in brain.handle(&line) {
            writeln!(stdout, "{answer}")?;
        }
        stdout.flush()?;
        if brain.ended() {
            break;
        }
    }
    Ok(())
}
