//! `banco-uci`: banco's xiangqi engine over UCI (ICCS coordinates, ranks 0..9), for GUIs
//! and tournament managers. See [`banco_arena::uci`] for what it understands.

use std::io::{BufReader, stdin, stdout};

use anyhow::Result;
use banco_arena::uci::Uci;

fn main() -> Result<()> {
    Uci::new(Box::new(stdout())).run(BufReader::new(stdin().lock()))?;
    Ok(())
}
