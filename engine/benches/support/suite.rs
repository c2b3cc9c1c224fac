//! The caro position files of the benchmark and the tactical tests.
//!
//! # Format
//! One position per line, `;`-separated fields, `#` comments:
//! `RULE WxH; MOVES; RESULT; PROOF` where MOVES are `x,y` points played alternately
//! from X, RESULT is `win` (the side to move wins by continuous fours), `nowin` (it does
//! not) or absent (a plain middle-game position), and PROOF is the recorded main line of
//! the win: attacker and defender moves alternating, ending with the five.
//!
//! Shared between `benches/caro.rs` and the engine's tests.

use banco_rules::caro::notation::parse_point;
use banco_rules::caro::{Game, Point, Rule};

/// One position of a suite.
pub struct Case {
    /// The rule line as written, for messages.
    pub label: String,
    /// What wins.
    pub rule: Rule,
    /// Board columns.
    pub width: u8,
    /// Board rows.
    pub height: u8,
    /// The moves played, alternately from X.
    pub moves: Vec<Point>,
    /// `Some(true)`: a forced win; `Some(false)`: none; `None`: no claim.
    pub win: Option<bool>,
    /// The recorded proof's main line.
    pub proof: Vec<Point>,
}

impl Case {
    /// The position as a game record.
    pub fn game(&self) -> Game {
        let mut g = Game::new(u32::from(self.width), u32::from(self.height), self.rule)
            .expect("suite sizes are legal");
        for p in &self.moves {
            g.play(*p).expect("suite moves are legal");
        }
        g
    }
}

/// Reads a suite file; panics on a malformed line (the files are ours).
pub fn parse(text: &str) -> Vec<Case> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split(';').map(str::trim).collect();
            let mut head = fields[0].split_whitespace();
            let rule: Rule = head.next().and_then(|r| r.parse().ok()).expect("rule");
            let (w, h) = head.next().and_then(|s| s.split_once('x')).expect("WxH");
            let (width, height): (u8, u8) = (w.parse().expect("width"), h.parse().expect("height"));
            let points = |s: &str| -> Vec<Point> {
                s.split_whitespace()
                    .map(|p| parse_point(p, width, height).expect("point"))
                    .collect()
            };
            Case {
                label: line.chars().take(60).collect(),
                rule,
                width,
                height,
                moves: points(fields.get(1).copied().unwrap_or("")),
                win: match fields.get(2).copied().unwrap_or("") {
                    "win" => Some(true),
                    "nowin" => Some(false),
                    _ => None,
                },
                proof: points(fields.get(3).copied().unwrap_or("")),
            }
        })
        .collect()
}
