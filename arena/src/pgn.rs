//! Games written as PGN, for reading back when tuning (and for any PGN viewer that
//! ignores what it does not know).
//!
//! # Format
//! One game per record, records separated by a blank line, appended as games end:
//!
//! ```text
//! [Event "banco:medium vs banco:easy"]
//! [Site "banco-arena"]
//! [Date "2025.01.31"]
//! [Round "3.2"]
//! [White "banco:easy"]
//! [Black "banco:medium"]
//! [Result "0-1"]
//! [Opening "0,0 1,-1"]
//! [Game "caro 15x15 rule caro"]
//! [TimeControl "0.1/move"]
//! [Termination "normal"]
//!
//! 1. h8 {book} i9 {book} 2. g8 {+35/6 0.101s} ...
//! {five} 0-1
//! ```
//!
//! - `Round` is `PAIR.GAME`: the pair (one opening, played once with each colour) and its
//!   first or second game. `White` moved first (X in caro, Red in xiangqi), `Black`
//!   second: the Seven Tag Roster's names, so that PGN tools read the file.
//! - With a swap opening (`banco-arena match --opening swap2`), `Opening` says it in
//!   words (`swap2: A proposed h8 i9 j10; B placed i8 h10; A took O`), `Proposer` names
//!   who placed the first three stones, and the stones carry `{proposer}` or
//!   `{responder}` instead of `{book}`.
//! - `Opening` is the opening's line as the openings file writes it; `Game` is the game:
//!   caro's board and rule (`caro 15x15 rule caro`), or `xiangqi` and its start FEN
//!   (also given as `FEN` with `SetUp "1"`, and `Variant "xiangqi"`, for PGN tools).
//! - `TimeControl` is the time per move in seconds (`0.1/move`, cutechess-cli's form),
//!   with `N nodes/move` when moves were searched to a node count, `?` when the arena set
//!   neither (banco levels then use their own time, external engines 1 s); when the
//!   players had different limits, `WhiteTimeControl` and `BlackTimeControl` give each.
//! - `Termination` is `normal` (the rules ended it), `rules infraction` (an illegal move)
//!   or `abandoned` (a player failed, answered too late or did not start); the comment
//!   before the result says why in words.
//! - Moves are in the game's notation: caro `h8` (column letter, row from the bottom;
//!   `x,y` on boards wider than 26), xiangqi ICCS (`h2e2`). The opening's moves carry
//!   `{book}`; every other move a comment with what its player reported: the score from
//!   the mover's side in the engine's units (centipawns for xiangqi, evaluation units for
//!   caro; `+M7` a win in 7 plies, `-M4` a loss in 4), `/` the depth, then the time it
//!   took (`{+35/12 0.101s}`); what a player does not report is left out
//!   (`{d12 0.101s}` with a depth alone, `{0.101s}` with nothing).

use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

use banco_rules::caro::notation::letter_name;
use banco_rules::game::{GameSpec, Move};

use crate::record::{GameRecord, MoveInfo, describe};

/// PGN's preferred longest line.
const LINE: usize = 79;

/// What every game of a match shares in its tags.
#[derive(Debug, Clone)]
pub struct Header {
    /// `YYYY.MM.DD`, the day the match started (UTC).
    pub date: String,
    /// Each player's limit as a `TimeControl` value, A then B.
    pub time_controls: [String; 2],
}

/// One game as a PGN record, ending in a blank line.
pub fn game(spec: &GameSpec, header: &Header, record: &GameRecord) -> String {
    let (first, second) = (record.first, 1 - record.first);
    let mut text = String::new();
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(text, "[{name} \"{}\"]", escape(value));
    };
    tag(
        "Event",
        &format!("{} vs {}", record.names[0], record.names[1]),
    );
    tag("Site", "banco-arena");
    tag("Date", &header.date);
    let (pair, game) = ((record.number - 1) / 2 + 1, (record.number - 1) % 2 + 1);
    tag("Round", &format!("{pair}.{game}"));
    tag("White", &record.names[first]);
    tag("Black", &record.names[second]);
    tag("Result", record.result());
    tag("Opening", &record.opening);
    if let Some(swap) = &record.swap {
        tag("Proposer", &record.names[swap.proposer]);
    }
    match &record.start_fen {
        Some(fen) => tag("Game", &format!("xiangqi {fen}")),
        None => tag("Game", &describe(spec)),
    }
    if let Some(fen) = &record.start_fen {
        tag("Variant", "xiangqi");
        tag("SetUp", "1");
        tag("FEN", fen);
    }
    if header.time_controls[0] == header.time_controls[1] {
        tag("TimeControl", &header.time_controls[0]);
    } else {
        tag("WhiteTimeControl", &header.time_controls[first]);
        tag("BlackTimeControl", &header.time_controls[second]);
    }
    tag("Termination", record.termination.name());
    text.push('\n');

    let height = match spec {
        GameSpec::Caro { height, .. } => *height,
        GameSpec::Xiangqi { .. } => 0,
    };
    let mut tokens = Vec::new();
    for (ply, mv) in record.moves.iter().enumerate() {
        if ply % 2 == 0 {
            tokens.push(format!("{}.", ply / 2 + 1));
        }
        tokens.push(move_name(mv, height));
        let comment = match ply.checked_sub(record.book_plies) {
            // A swap opening's stones: who placed them.
            None if record.swap.is_some() && ply < 3 => "proposer".to_string(),
            None if record.swap.is_some() => "responder".to_string(),
            None => "book".to_string(),
            Some(i) => record.info.get(i).map_or_else(String::new, comment),
        };
        if !comment.is_empty() {
            tokens.push(format!("{{{comment}}}"));
        }
    }
    tokens.push(format!("{{{}}}", record.reason.replace(['{', '}'], "")));
    tokens.push(record.result().to_string());
    wrap(&mut text, &tokens);
    text.push('\n');
    text
}

/// A move in the game's notation: `h8` (or `x,y` past 26 columns), `h2e2`.
pub fn move_name(mv: &Move, height: u8) -> String {
    match mv {
        Move::Caro(p) => letter_name(*p, height).unwrap_or_else(|| p.to_string()),
        Move::Xiangqi(m) => m.to_string(),
    }
}

/// What a player said of its move: `+35/12 0.101s`.
fn comment(info: &MoveInfo) -> String {
    let mut text = match (info.eval, info.depth) {
        (Some(e), Some(d)) => format!("{e}/{d} "),
        (Some(e), None) => format!("{e} "),
        (None, Some(d)) => format!("d{d} "),
        (None, None) => String::new(),
    };
    let _ = write!(text, "{:.3}s", info.elapsed.as_secs_f64());
    text
}

/// A tag value with `\` and `"` escaped.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Tokens joined by spaces into lines of at most [`LINE`] characters (a longer token
/// gets a line of its own).
fn wrap(text: &mut String, tokens: &[String]) {
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > LINE {
            text.push_str(&line);
            text.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(token);
    }
    text.push_str(&line);
    text.push('\n');
}

/// Today's date (UTC) as PGN writes it, `YYYY.MM.DD`.
pub fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::Eval;
    use crate::record::Termination;
    use banco_rules::caro::{Point, Rule};
    use std::time::Duration;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_089), (2025, 1, 1));
        assert_eq!(today().len(), 10);
    }

    #[test]
    fn a_caro_game() {
        let spec = GameSpec::Caro {
            width: 15,
            height: 15,
            rule: Rule::Caro,
            opening: Vec::new(),
        };
        let info = |eval, depth, ms| MoveInfo {
            eval,
            depth,
            elapsed: Duration::from_millis(ms),
        };
        let record = GameRecord {
            number: 6,
            first: 1,
            names: ["banco:medium".into(), "seed:\"x\"".into()],
            opening: "0,0 1,-1".into(),
            moves: [(7, 7), (8, 8), (6, 7)]
                .map(|(x, y)| Move::Caro(Point::new(x, y)))
                .to_vec(),
            book_plies: 2,
            info: vec![info(Some(Eval::Units(35)), Some(6), 101)],
            winner: Some(0),
            reason: "seed:\"x\" failed: {oops}".into(),
            forfeit: Some(1),
            termination: Termination::Abandoned,
            start_fen: None,
            swap: None,
        };
        let header = Header {
            date: "2025.01.31".into(),
            time_controls: ["0.1/move".into(), "0.2/move".into()],
        };
        let text = game(&spec, &header, &record);
        let expected = r#"[Event "banco:medium vs seed:\"x\""]
[Site "banco-arena"]
[Date "2025.01.31"]
[Round "3.2"]
[White "seed:\"x\""]
[Black "banco:medium"]
[Result "0-1"]
[Opening "0,0 1,-1"]
[Game "caro 15x15 rule caro"]
[WhiteTimeControl "0.2/move"]
[BlackTimeControl "0.1/move"]
[Termination "abandoned"]

1. h8 {book} i7 {book} 2. g8 {+35/6 0.101s} {seed:"x" failed: oops} 0-1

"#;
        assert_eq!(text, expected);
        assert_eq!(comment(&info(None, Some(4), 5)), "d4 0.005s");
        assert_eq!(
            comment(&info(Some(Eval::MateIn(-2)), None, 5)),
            "-M2 0.005s"
        );
    }

    #[test]
    fn long_games_wrap() {
        let tokens: Vec<String> = (0..100).map(|i| format!("m{i}")).collect();
        let mut text = String::new();
        wrap(&mut text, &tokens);
        assert!(text.lines().count() > 3);
        assert!(text.lines().all(|l| l.len() <= LINE));
        assert_eq!(text.split_whitespace().count(), 100);
    }
}
