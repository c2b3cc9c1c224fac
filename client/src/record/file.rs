//! Game record files: a small text format a person can read, write by hand and edit.
//!
//! # Format
//! ```text
//! # banco game record. `banco replay FILE` shows it; # starts a comment.
//! game: caro
//! board: 15x15
//! rule: caro
//! time: 20s/move
//! x: An
//! o: Bình
//! result: x
//! reason: five
//! ended: 2025-05-01 19:42
//! id: 42
//!
//! 1. h8 i9
//! 2. h9 i8
//! ```
//! Headers are `name: value` lines before the moves, in any order, names in any case:
//!
//! - `game`: `caro` or `xiangqi` (the only one required).
//! - caro: `board` (`15x15`, or `15`; default 15x15), `rule` (`caro`, `freestyle`,
//!   `standard`, `caro-overline`; default caro), `opening` (stones already on the board
//!   before the first move, X first and alternating, written like moves: `h8 i9 h10`;
//!   default none), `x` and `o` (who played them; X moves first, or O after an odd
//!   opening).
//! - xiangqi: `start` (a FEN; default the usual start), `red` and `black` (the side to
//!   move in the start position moves first).
//! - `result`: the winner's side (`x`, `o`, `red`, `black`), `draw`, or `unfinished`;
//!   left out, the rules decide (a five, a checkmate, ...) or the game is unfinished.
//! - `reason`: how it ended: `five`, `draw` (a full board), `timeout`, `quit`,
//!   `abandoned`, `resign`, `checkmate`, `stalemate`, `perpetual_check`, `repetition`,
//!   `sixty_moves`, `no_material`, `agreement`.
//! - `time` (`none`, `20s/move`, `5m+3s`), `ended` (`2025-05-01 19:42`, local time),
//!   `id` (the server's game number): for the record only.
//!
//! Then the moves, in order, as many per line as you like: caro points as `h8` (letter
//! and row from the bottom, up to 26 columns) or `7,7` (0-based column and row from the
//! top left); xiangqi moves in ICCS (`h2e2`), in WXF (`C2.5`), or both (`h2e2 C2.5`: the
//! WXF is checked against the ICCS). Move numbers (`12.`) are for the eye and ignored.
//! Every move is checked against the rules, and the result against the moves; a file
//! that does not hold together is refused with the line at fault.

use banco_protocol::{
    CaroOpening, EndReason, GameOver, GameSettings, Move, MoveRecord, Seat, TimeControl,
};
use banco_rules::caro::notation::parse_point;
use banco_rules::caro::{self, Rule};
use banco_rules::xiangqi;
use banco_rules::xiangqi::piece::Color;
use chrono::{Local, TimeZone};
use std::path::Path;

use super::{Replay, Side, caro_ending};
use crate::room::board::{caro_point_text, wire_square};

/// The largest file read: a 64x64 board's every point fits many times over.
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// What is wrong with a record's text, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct RecordError {
    /// 1-based; 0 when the fault is the file as a whole.
    pub line: usize,
    pub message: String,
}

/// Why a record file could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("could not read {path}: {message}")]
    Read { path: String, message: String },
    #[error("{path} is larger than a game record can be ({size} bytes)")]
    TooLarge { path: String, size: u64 },
    #[error("{path} is not a banco game record, {source}")]
    Record { path: String, source: RecordError },
}

/// Reads and checks a record file.
pub fn load(path: &Path) -> Result<Replay, LoadError> {
    let shown = path.display().to_string();
    let read_err = |e: std::io::Error| LoadError::Read {
        path: shown.clone(),
        message: e.to_string(),
    };
    let size = std::fs::metadata(path).map_err(read_err)?.len();
    if size > MAX_FILE_BYTES {
        return Err(LoadError::TooLarge { path: shown, size });
    }
    let bytes = std::fs::read(path).map_err(read_err)?;
    let text = String::from_utf8(bytes).map_err(|_| LoadError::Record {
        path: shown.clone(),
        source: RecordError {
            line: 0,
            message: "it is not UTF-8 text".into(),
        },
    })?;
    parse(&text).map_err(|source| LoadError::Record {
        path: shown,
        source,
    })
}

/// Why a record could not be saved.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    #[error("{0} already exists: type another name")]
    Exists(String),
    #[error("could not write {path}: {message}")]
    Write { path: String, message: String },
}

/// Writes `text` to a new file at `path`, never over an existing one; returns where it
/// went, in full.
pub fn save_new(path: &Path, text: &str) -> Result<std::path::PathBuf, SaveError> {
    use std::io::Write;
    let shown = path.display().to_string();
    let write_err = |e: std::io::Error| SaveError::Write {
        path: shown.clone(),
        message: e.to_string(),
    };
    let mut file = match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            return Err(SaveError::Exists(shown));
        }
        Err(e) => return Err(write_err(e)),
    };
    file.write_all(text.as_bytes()).map_err(write_err)?;
    Ok(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
}

/// A name for the file a replay is saved to: `banco-caro-42.txt`, or with the date for
/// games without a server number.
pub fn default_name(r: &Replay) -> String {
    let game = r.game.game_name();
    match (r.id, r.ended_at_ms) {
        (Some(id), _) => format!("banco-{game}-{id}.txt"),
        (None, Some(ms)) => format!("banco-{game}-{}.txt", local_time(ms, "%Y%m%d-%H%M")),
        (None, None) => format!("banco-{game}.txt"),
    }
}

fn local_time(ms: u64, format: &str) -> String {
    match Local.timestamp_millis_opt(ms as i64) {
        chrono::LocalResult::Single(t) | chrono::LocalResult::Ambiguous(t, _) => {
            t.format(format).to_string()
        }
        chrono::LocalResult::None => "unknown".to_string(),
    }
}

/// The record as text, in the format above.
pub fn write(r: &Replay) -> String {
    let mut out =
        String::from("# banco game record. `banco replay FILE` shows it; # starts a comment.\n");
    let mut header = |name: &str, value: &str| out.push_str(&format!("{name}: {value}\n"));
    header("game", r.game.game_name());
    match &r.game {
        GameSettings::Caro {
            width,
            height,
            rule,
            ..
        } => {
            header("board", &format!("{width}x{height}"));
            header("rule", rule.name());
            if !r.opening.is_empty() {
                header(
                    "opening",
                    &crate::room::opening::stones_text(&r.opening, *width, *height),
                );
            }
        }
        GameSettings::Xiangqi { .. } => {
            let fen = if r.start_fen.is_empty() {
                xiangqi::fen::START.to_string()
            } else {
                r.start_fen.clone()
            };
            header("start", &fen);
        }
    }
    if let Some(t) = &r.time {
        header("time", &t.to_string());
    }
    // The sides in playing order: X before O, the first mover's colour first.
    for seat in [r.first, r.first.other()] {
        header(r.side(seat).as_str(), &r.players[seat.index()]);
    }
    match &r.over {
        Some(over) => {
            let result = over.winner.map_or("draw", |w| r.side(w).as_str());
            header("result", result);
            header("reason", over.reason.as_str());
        }
        None => header("result", "unfinished"),
    }
    if let Some(ms) = r.ended_at_ms {
        header("ended", &local_time(ms, "%Y-%m-%d %H:%M"));
    }
    if let Some(id) = r.id {
        header("id", &id.to_string());
    }
    out.push('\n');
    let xiangqi = matches!(r.game, GameSettings::Xiangqi { .. });
    for (n, pair) in r.moves.chunks(2).enumerate() {
        let mut line = format!("{}.", n + 1);
        for m in pair {
            let text = match (&r.game, m.mv) {
                (GameSettings::Caro { width, height, .. }, Move::Caro(p)) => {
                    caro_point_text(p, *width, *height)
                }
                _ => r.move_text(&m.mv),
            };
            // Padded into columns for the eye; the reader only splits on spaces.
            if xiangqi && !m.wxf.is_empty() {
                line.push_str(&format!(" {text} {:<6}", m.wxf));
            } else {
                line.push_str(&format!(" {text:<5}"));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The headers read so far, with the line each came from.
#[derive(Default)]
struct Headers {
    game: Option<(usize, String)>,
    board: Option<(usize, String)>,
    rule: Option<(usize, String)>,
    opening: Option<(usize, String)>,
    start: Option<(usize, String)>,
    time: Option<(usize, String)>,
    /// By side word (`x`, `o`, `red`, `black`).
    names: Vec<(usize, String, String)>,
    result: Option<(usize, String)>,
    reason: Option<(usize, String)>,
    ended: Option<(usize, String)>,
    id: Option<(usize, String)>,
}

const HEADER_NAMES: &str =
    "game, board, rule, opening, start, time, x, o, red, black, result, reason, ended, id";

fn fail<T>(line: usize, message: impl Into<String>) -> Result<T, RecordError> {
    Err(RecordError {
        line,
        message: message.into(),
    })
}

/// A move as written, with its line.
struct Written {
    line: usize,
    text: String,
}

/// Reads a record, checking every move against the rules.
pub fn parse(text: &str) -> Result<Replay, RecordError> {
    let mut h = Headers::default();
    let mut moves: Vec<Written> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some((name, value)) = header_line(line) {
            if !moves.is_empty() {
                return fail(n, format!("the header '{name}' must come before the moves"));
            }
            let value = value.trim().to_string();
            let slot = match name.as_str() {
                "game" => &mut h.game,
                "board" => &mut h.board,
                "rule" => &mut h.rule,
                "opening" => &mut h.opening,
                "start" => &mut h.start,
                "time" => &mut h.time,
                "result" => &mut h.result,
                "reason" => &mut h.reason,
                "ended" => &mut h.ended,
                "id" => &mut h.id,
                "x" | "o" | "red" | "black" => {
                    if h.names.iter().any(|(_, side, _)| *side == name) {
                        return fail(n, format!("'{name}' is given twice"));
                    }
                    h.names.push((n, name, value));
                    continue;
                }
                other => {
                    return fail(
                        n,
                        format!("unknown header '{other}': the headers are {HEADER_NAMES}"),
                    );
                }
            };
            if slot.is_some() {
                return fail(n, format!("'{name}' is given twice"));
            }
            *slot = Some((n, value));
            continue;
        }
        let body = line.split('#').next().unwrap_or_default();
        for token in body.split_whitespace() {
            let is_number = token.ends_with('.')
                && token
                    .trim_end_matches('.')
                    .chars()
                    .all(|c| c.is_ascii_digit());
            if !is_number {
                moves.push(Written {
                    line: n,
                    text: token.to_string(),
                });
            }
        }
    }
    let Some((game_line, game)) = &h.game else {
        return fail(
            0,
            "it has no 'game:' line (write game: caro or game: xiangqi before the moves)",
        );
    };
    match game.to_ascii_lowercase().as_str() {
        "caro" | "gomoku" => read_caro(&h, &moves),
        "xiangqi" => read_xiangqi(&h, &moves),
        other => fail(
            *game_line,
            format!("unknown game '{other}': write caro or xiangqi"),
        ),
    }
}

/// `name: value` with a one-word name, else `None` (a move line).
fn header_line(line: &str) -> Option<(String, &str)> {
    let (name, value) = line.split_once(':')?;
    let name = name.trim();
    let word = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphabetic() || c == '_');
    word.then(|| (name.to_ascii_lowercase(), value))
}

/// The name given for `side`, or a stand-in.
fn name_of(h: &Headers, side: Side) -> String {
    h.names
        .iter()
        .find(|(_, s, _)| s == side.as_str())
        .map_or_else(|| "?".to_string(), |(_, _, name)| name.clone())
}

/// Refuses names of the other game's sides (`red:` in a caro record).
fn check_sides(h: &Headers, allowed: [Side; 2], game: &str) -> Result<(), RecordError> {
    for (n, side, _) in &h.names {
        if !allowed.iter().any(|a| a.as_str() == side) {
            return fail(
                *n,
                format!(
                    "'{side}' is not a side in {game}: name the players with {}: and {}:",
                    allowed[0].as_str(),
                    allowed[1].as_str()
                ),
            );
        }
    }
    Ok(())
}

fn read_caro(h: &Headers, moves: &[Written]) -> Result<Replay, RecordError> {
    if let Some((n, _)) = &h.start {
        return fail(
            *n,
            "'start' is for xiangqi; a caro record gives board and rule",
        );
    }
    check_sides(h, [Side::X, Side::O], "caro")?;
    let (width, height) = match &h.board {
        Some((n, v)) => crate::plain::command::parse_size(v).map_err(|e| RecordError {
            line: *n,
            message: e.message,
        })?,
        None => (15, 15),
    };
    let rule = match &h.rule {
        Some((n, v)) => v.parse::<Rule>().map_err(|e| RecordError {
            line: *n,
            message: e.to_string(),
        })?,
        None => Rule::Caro,
    };
    let (opening, opening_line) = match &h.opening {
        Some((n, v)) if !v.trim().eq_ignore_ascii_case("none") => (
            crate::room::opening::parse_stones(v, width, height)
                .map_err(|message| RecordError { line: *n, message })?,
            *n,
        ),
        _ => (Vec::new(), 0),
    };
    let mut game = caro::Game::with_opening(u32::from(width), u32::from(height), rule, &opening)
        .map_err(|e| RecordError {
            line: opening_line,
            message: e.to_string(),
        })?;
    // Seat one makes the first move: X, or O after an odd opening.
    let sides = match game.first_stone() {
        caro::Stone::X => [Side::X, Side::O],
        caro::Stone::O => [Side::O, Side::X],
    };
    let mut records = Vec::with_capacity(moves.len());
    for (i, w) in moves.iter().enumerate() {
        let p = parse_point(&w.text, width, height).map_err(|e| RecordError {
            line: w.line,
            message: format!("move {}: {e}", i + 1),
        })?;
        if let Err(e) = game.play(p) {
            let why = match e {
                caro::MoveError::GameOver => {
                    "the game was already won (or the board full) before it".to_string()
                }
                caro::MoveError::Occupied(_) => format!("{} is already taken", w.text),
                other => other.to_string(),
            };
            return fail(w.line, format!("move {} ({}): {why}", i + 1, w.text));
        }
        records.push(MoveRecord {
            mv: Move::Caro(p),
            by: if i % 2 == 0 { Seat::One } else { Seat::Two },
            wxf: String::new(),
            check: false,
        });
    }
    let settings = GameSettings::Caro {
        width,
        height,
        rule,
        opening: if opening.is_empty() {
            CaroOpening::None
        } else {
            CaroOpening::Stones(opening.clone())
        },
    };
    let board = crate::room::Board::Caro(game);
    let ruled = caro_ending(&board, Seat::One);
    let over = result(h, sides, ruled)?;
    Ok(Replay::new(
        read_id(h)?,
        settings,
        read_time(h)?,
        sides.map(|side| name_of(h, side)),
        Seat::One,
        over,
        read_ended(h)?,
        String::new(),
        opening,
        records,
    ))
}

fn read_xiangqi(h: &Headers, moves: &[Written]) -> Result<Replay, RecordError> {
    for (slot, name) in [
        (&h.board, "board"),
        (&h.rule, "rule"),
        (&h.opening, "opening"),
    ] {
        if let Some((n, _)) = slot {
            return fail(
                *n,
                format!(
                    "'{name}' is for caro; a xiangqi record gives its start position with start:"
                ),
            );
        }
    }
    check_sides(h, [Side::Red, Side::Black], "xiangqi")?;
    let (mut game, start_fen) = match &h.start {
        Some((n, fen)) => {
            let g = xiangqi::game::Game::from_fen(fen).map_err(|e| RecordError {
                line: *n,
                message: format!("the start position is not a FEN banco can play: {e}"),
            })?;
            let fen = if g.is_standard_start() {
                String::new()
            } else {
                fen.clone()
            };
            (g, fen)
        }
        None => (xiangqi::game::Game::new(), String::new()),
    };
    let first_color = game.start().side_to_move();
    let mut records: Vec<MoveRecord> = Vec::with_capacity(moves.len());
    // Whether the last move was written in ICCS and may still be followed by its WXF.
    let mut open_iccs = false;
    for w in moves {
        let iccs = w.text.parse::<xiangqi::square::Move>().ok();
        // WXF right after an ICCS move may be the same move written the other way;
        // if it is not, it is the next move.
        let mut unpaired: Option<(xiangqi::square::Move, String)> = None;
        if let (None, true) = (iccs, open_iccs) {
            open_iccs = false;
            let played = game.undo().expect("an ICCS move was just played");
            let agrees = game.parse_move(&w.text).is_ok_and(|mv| mv == played.mv);
            game.play_on(played.mv)
                .expect("the move was legal a moment ago");
            if agrees {
                continue;
            }
            unpaired = Some((played.mv, played.wxf));
        }
        let ply = records.len() + 1;
        let mv = match iccs {
            Some(mv) => mv,
            None => game.parse_move(&w.text).map_err(|e| RecordError {
                line: w.line,
                message: match &unpaired {
                    Some((prev, wxf)) => format!(
                        "move {ply}: '{}' is neither {prev} in WXF (that is {wxf}) nor a move after it",
                        w.text
                    ),
                    None => format!("move {ply}: {e}"),
                },
            })?,
        };
        open_iccs = iccs.is_some();
        let played = game.play_on(mv).map_err(|e| RecordError {
            line: w.line,
            message: format!("move {ply} ({}) is not legal: {e}", w.text),
        })?;
        records.push(MoveRecord {
            mv: Move::Xiangqi {
                from: wire_square(played.mv.from()),
                to: wire_square(played.mv.to()),
            },
            by: if ply % 2 == 1 { Seat::One } else { Seat::Two },
            wxf: played.wxf.clone(),
            check: played.check,
        });
    }
    let side_of = |c: Color| match c {
        Color::Red => Side::Red,
        Color::Black => Side::Black,
    };
    let sides = [side_of(first_color), side_of(!first_color)];
    let ruled = game.outcome().map(|o| GameOver {
        winner: o.winner.map(|c| {
            if c == first_color {
                Seat::One
            } else {
                Seat::Two
            }
        }),
        reason: match o.reason {
            xiangqi::game::Reason::Checkmate => EndReason::Checkmate,
            xiangqi::game::Reason::Stalemate => EndReason::Stalemate,
            xiangqi::game::Reason::PerpetualCheck => EndReason::PerpetualCheck,
            xiangqi::game::Reason::Repetition => EndReason::Repetition,
            xiangqi::game::Reason::SixtyMoves => EndReason::SixtyMoves,
            xiangqi::game::Reason::NoMaterial => EndReason::NoMaterial,
        },
        line: Vec::new(),
    });
    let over = result(h, sides, ruled)?;
    Ok(Replay::new(
        read_id(h)?,
        GameSettings::Xiangqi {
            fen: (!start_fen.is_empty()).then(|| start_fen.clone()),
        },
        read_time(h)?,
        [name_of(h, sides[0]), name_of(h, sides[1])],
        Seat::One,
        over,
        read_ended(h)?,
        start_fen,
        Vec::new(),
        records,
    ))
}

/// Reasons the rules decide from the moves alone; the others (resign, timeout, ...)
/// come from the players or the clock and are taken as written.
fn ruled_by_moves(reason: EndReason) -> bool {
    matches!(
        reason,
        EndReason::Five
            | EndReason::Draw
            | EndReason::Checkmate
            | EndReason::Stalemate
            | EndReason::PerpetualCheck
            | EndReason::Repetition
            | EndReason::SixtyMoves
            | EndReason::NoMaterial
    )
}

/// The game's ending: as the headers say, checked against what the rules saw (`ruled`:
/// the ending the last move made, if any). `sides`: seat One's and seat Two's.
fn result(
    h: &Headers,
    sides: [Side; 2],
    ruled: Option<GameOver>,
) -> Result<Option<GameOver>, RecordError> {
    let reason = match &h.reason {
        Some((n, v)) => {
            let v = v.to_ascii_lowercase().replace([' ', '-'], "_");
            let r = EndReason::ALL.into_iter().find(|r| r.as_str() == v);
            Some(r.map(|r| (*n, r)).ok_or_else(|| RecordError {
                line: *n,
                message: format!(
                    "'{v}' is not a way a game ends: write one of {}",
                    EndReason::ALL.map(EndReason::as_str).join(", ")
                ),
            })?)
        }
        None => None,
    };
    let Some((n, word)) = &h.result else {
        if let Some((n, _)) = reason {
            return fail(
                n,
                "a reason needs a result line too (result: x, o, red, black or draw)",
            );
        }
        return Ok(ruled);
    };
    let word = word.to_ascii_lowercase();
    let winner = match word.as_str() {
        "draw" => None,
        "unfinished" => {
            if let Some(r) = &ruled {
                return fail(
                    *n,
                    format!(
                        "the result says unfinished, but the moves end the game ({})",
                        r.reason.as_str()
                    ),
                );
            }
            if let Some((rn, _)) = reason {
                return fail(rn, "an unfinished game has no reason");
            }
            return Ok(None);
        }
        w => match sides.iter().position(|s| s.as_str() == w) {
            Some(0) => Some(Seat::One),
            Some(_) => Some(Seat::Two),
            None => {
                return fail(
                    *n,
                    format!(
                        "the result is {}, {}, draw or unfinished, not '{w}'",
                        sides[0].as_str(),
                        sides[1].as_str()
                    ),
                );
            }
        },
    };
    let side_word = |w: Option<Seat>| w.map_or("draw", |s| sides[s.index()].as_str());
    if let Some(r) = &ruled {
        if r.winner != winner {
            return fail(
                *n,
                format!(
                    "the moves end the game ({}) with the result {}, but the file says {}",
                    r.reason.as_str(),
                    side_word(r.winner),
                    side_word(winner)
                ),
            );
        }
        if let Some((rn, reason)) = reason
            && reason != r.reason
        {
            return fail(
                rn,
                format!(
                    "the moves end the game by {}, not {}",
                    r.reason.as_str(),
                    reason.as_str()
                ),
            );
        }
        return Ok(ruled);
    }
    let Some((rn, reason)) = reason else {
        return fail(
            *n,
            "say how the game ended on a reason line (for example reason: resign)",
        );
    };
    if ruled_by_moves(reason) {
        return fail(
            rn,
            format!(
                "the result says {}, but the moves do not end that way",
                reason.as_str()
            ),
        );
    }
    if winner.is_none() && reason != EndReason::Agreement {
        return fail(
            rn,
            format!(
                "a draw ends by agreement or by the rules, not by {}",
                reason.as_str()
            ),
        );
    }
    if winner.is_some() && reason == EndReason::Agreement {
        return fail(rn, "agreement ends in a draw: write result: draw");
    }
    Ok(Some(GameOver {
        winner,
        reason,
        line: Vec::new(),
    }))
}

fn read_time(h: &Headers) -> Result<Option<TimeControl>, RecordError> {
    h.time
        .as_ref()
        .map(|(n, v)| {
            v.parse::<TimeControl>().map_err(|e| RecordError {
                line: *n,
                message: e.to_string(),
            })
        })
        .transpose()
}

fn read_id(h: &Headers) -> Result<Option<u64>, RecordError> {
    h.id.as_ref()
        .map(|(n, v)| {
            v.trim_start_matches('#')
                .parse::<u64>()
                .map_err(|_| RecordError {
                    line: *n,
                    message: format!("'{v}' is not a game number"),
                })
        })
        .transpose()
}

fn read_ended(h: &Headers) -> Result<Option<u64>, RecordError> {
    let Some((n, v)) = &h.ended else {
        return Ok(None);
    };
    let bad = || RecordError {
        line: *n,
        message: format!("'{v}' is not a date: write it like 2025-05-01 19:42"),
    };
    let naive = ["%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"]
        .iter()
        .find_map(|f| chrono::NaiveDateTime::parse_from_str(v, f).ok())
        .or_else(|| {
            chrono::NaiveDate::parse_from_str(v, "%Y-%m-%d")
                .ok()
                .and_then(|d| d.and_hms_opt(0, 0, 0))
        })
        .ok_or_else(bad)?;
    let local = Local
        .from_local_datetime(&naive)
        .earliest()
        .ok_or_else(bad)?;
    u64::try_from(local.timestamp_millis())
        .map(Some)
        .map_err(|_| bad())
}

#[cfg(test)]
mod tests;
