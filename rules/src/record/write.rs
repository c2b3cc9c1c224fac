//! The writer: a [`Record`] as the text of a record file, headers then moves, two to a
//! numbered line, padded into columns for the eye (the reader only splits on spaces).

use crate::caro::notation::{point_name, stones_text};
use crate::game::{GameSpec, Move};
use crate::xiangqi;

use super::{Record, SideWord};

/// The record as text, in the format of [`super`]. Trusts the record: check one made
/// elsewhere with [`Record::check`] first, so that what is written reads back.
pub fn write(r: &Record) -> String {
    let mut out =
        String::from("# banco game record. `banco replay FILE` shows it; # starts a comment.\n");
    let mut header = |name: &str, value: &str| out.push_str(&format!("{name}: {value}\n"));
    match &r.game {
        GameSpec::Caro {
            width,
            height,
            rule,
            opening,
        } => {
            header("game", "caro");
            header("board", &format!("{width}x{height}"));
            header("rule", rule.name());
            if !opening.is_empty() {
                header("opening", &stones_text(opening, *width, *height));
            }
        }
        GameSpec::Xiangqi { fen } => {
            header("game", "xiangqi");
            header("start", fen.as_deref().unwrap_or(xiangqi::START));
        }
    }
    if let Some(t) = &r.time {
        header("time", &t.to_string());
    }
    // The sides in playing order: X before O, the first mover's colour first.
    let sides = r.side_words().unwrap_or([SideWord::Red, SideWord::Black]);
    for (side, name) in sides.iter().zip(&r.players) {
        header(side.as_str(), name);
    }
    match &r.ending {
        Some(ending) => {
            let result = ending.winner.map_or("draw", |w| sides[w.index()].as_str());
            header("result", result);
            header("reason", ending.reason.word());
        }
        None => header("result", "unfinished"),
    }
    if let Some(ended) = r.ended {
        header("ended", &ended.to_string());
    }
    if let Some(id) = r.id {
        header("id", &id.to_string());
    }
    out.push('\n');
    for (n, pair) in r.moves.chunks(2).enumerate() {
        let mut line = format!("{}.", n + 1);
        for played in pair {
            match (&r.game, played.mv) {
                (GameSpec::Caro { width, height, .. }, Move::Caro(p)) => {
                    line.push_str(&format!(" {:<5}", point_name(p, *width, *height)));
                }
                (_, Move::Caro(p)) => line.push_str(&format!(" {:<5}", p.to_string())),
                (_, Move::Xiangqi(m)) if !played.note.wxf.is_empty() => {
                    line.push_str(&format!(" {m} {:<6}", played.note.wxf));
                }
                (_, Move::Xiangqi(m)) => line.push_str(&format!(" {:<5}", m.to_string())),
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// A name for the file a record is saved to: `banco-caro-42.txt`, or with the date for
/// games without a server number.
pub fn file_name(r: &Record) -> String {
    let game = match r.game {
        GameSpec::Caro { .. } => "caro",
        GameSpec::Xiangqi { .. } => "xiangqi",
    };
    match (r.id, r.ended) {
        (Some(id), _) => format!("banco-{game}-{id}.txt"),
        (None, Some(t)) => format!("banco-{game}-{}.txt", t.compact()),
        (None, None) => format!("banco-{game}.txt"),
    }
}
