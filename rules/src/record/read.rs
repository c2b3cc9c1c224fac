//! The reader: a record file's text to a [`Record`], every move checked by the rules and
//! the result checked against the moves; a file that does not hold together is refused
//! with the line at fault.

use crate::caro::notation::{parse_point, parse_size, parse_stones};
use crate::caro::{self, Rule};
use crate::game::{GameSpec, Move, MoveNote, Side};
use crate::time::TimeControl;
use crate::xiangqi;

use super::wall::WallTime;
use super::{Ending, Played, Reason, Record, RecordError, SideWord, declared};

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
pub fn parse(text: &str) -> Result<Record, RecordError> {
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
fn name_of(h: &Headers, side: SideWord) -> String {
    h.names
        .iter()
        .find(|(_, s, _)| s == side.as_str())
        .map_or_else(|| "?".to_string(), |(_, _, name)| name.clone())
}

/// Refuses names of the other game's sides (`red:` in a caro record).
fn check_sides(h: &Headers, allowed: [SideWord; 2], game: &str) -> Result<(), RecordError> {
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

fn read_caro(h: &Headers, moves: &[Written]) -> Result<Record, RecordError> {
    if let Some((n, _)) = &h.start {
        return fail(
            *n,
            "'start' is for xiangqi; a caro record gives board and rule",
        );
    }
    check_sides(h, [SideWord::X, SideWord::O], "caro")?;
    let (width, height) = match &h.board {
        Some((n, v)) => parse_size(v).map_err(|message| RecordError { line: *n, message })?,
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
            parse_stones(v, width, height).map_err(|message| RecordError { line: *n, message })?,
            *n,
        ),
        _ => (Vec::new(), 0),
    };
    let mut game = caro::Game::with_opening(u32::from(width), u32::from(height), rule, &opening)
        .map_err(|e| RecordError {
            line: opening_line,
            message: e.to_string(),
        })?;
    // The first side makes the first move: X, or O after an odd opening.
    let sides = match game.first_stone() {
        caro::Stone::X => [SideWord::X, SideWord::O],
        caro::Stone::O => [SideWord::O, SideWord::X],
    };
    let mut played = Vec::with_capacity(moves.len());
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
        played.push(Played {
            mv: Move::Caro(p),
            note: MoveNote::default(),
        });
    }
    let ruled = crate::game::Game::Caro(game).ending();
    let ending = result(h, sides, ruled)?;
    Ok(Record {
        game: GameSpec::Caro {
            width,
            height,
            rule,
            opening,
        },
        time: read_time(h)?,
        players: sides.map(|side| name_of(h, side)),
        ending,
        ended: read_ended(h)?,
        id: read_id(h)?,
        moves: played,
    })
}

fn read_xiangqi(h: &Headers, moves: &[Written]) -> Result<Record, RecordError> {
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
    check_sides(h, [SideWord::Red, SideWord::Black], "xiangqi")?;
    let (mut game, fen) = match &h.start {
        Some((n, fen)) => {
            let g = xiangqi::Game::from_fen(fen).map_err(|e| RecordError {
                line: *n,
                message: format!("the start position is not a FEN banco can play: {e}"),
            })?;
            let fen = (!g.is_standard_start()).then(|| fen.clone());
            (g, fen)
        }
        None => (xiangqi::Game::new(), None),
    };
    let first_color = game.start().side_to_move();
    let mut played: Vec<Played> = Vec::with_capacity(moves.len());
    // Whether the last move was written in ICCS and may still be followed by its WXF.
    let mut open_iccs = false;
    for w in moves {
        let iccs = w.text.parse::<xiangqi::Move>().ok();
        // WXF right after an ICCS move may be the same move written the other way;
        // if it is not, it is the next move.
        let mut unpaired: Option<(xiangqi::Move, String)> = None;
        if let (None, true) = (iccs, open_iccs) {
            open_iccs = false;
            // The move just played is taken back to read the WXF in the position it
            // was played from, then played again.
            if let Some(last) = game.undo() {
                let agrees = game.parse_move(&w.text).is_ok_and(|mv| mv == last.mv);
                if game.play_on(last.mv).is_err() {
                    return fail(w.line, "the move before this one could not be replayed");
                }
                if agrees {
                    continue;
                }
                unpaired = Some((last.mv, last.wxf));
            }
        }
        let ply = played.len() + 1;
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
        let ply_played = game.play_on(mv).map_err(|e| RecordError {
            line: w.line,
            message: format!("move {ply} ({}) is not legal: {e}", w.text),
        })?;
        played.push(Played {
            mv: Move::Xiangqi(ply_played.mv),
            note: MoveNote {
                wxf: ply_played.wxf.clone(),
                check: ply_played.check,
            },
        });
    }
    let side_of = |c: xiangqi::Color| match c {
        xiangqi::Color::Red => SideWord::Red,
        xiangqi::Color::Black => SideWord::Black,
    };
    let sides = [side_of(first_color), side_of(!first_color)];
    let ruled = crate::game::Game::Xiangqi(Box::new(game)).ending();
    let ending = result(h, sides, ruled)?;
    Ok(Record {
        game: GameSpec::Xiangqi { fen },
        time: read_time(h)?,
        players: sides.map(|side| name_of(h, side)),
        ending,
        ended: read_ended(h)?,
        id: read_id(h)?,
        moves: played,
    })
}

/// The game's ending: as the headers say, checked against what the rules saw (`ruled`:
/// the ending the last move made, if any). `sides`: the first side's word, then the
/// other's.
fn result(
    h: &Headers,
    sides: [SideWord; 2],
    ruled: Option<crate::game::Ending>,
) -> Result<Option<Ending>, RecordError> {
    let reason = match &h.reason {
        Some((n, v)) => Some(
            Reason::from_word(v)
                .map(|r| (*n, r))
                .ok_or_else(|| RecordError {
                    line: *n,
                    message: format!(
                        "'{}' is not a way a game ends: write one of {}",
                        v.to_ascii_lowercase().replace([' ', '-'], "_"),
                        Reason::ALL.map(Reason::word).join(", ")
                    ),
                })?,
        ),
        None => None,
    };
    let as_recorded = |r: crate::game::Ending| Ending {
        winner: r.winner,
        reason: Reason::Rules(r.reason),
        line: r.line,
    };
    let Some((n, word)) = &h.result else {
        if let Some((n, _)) = reason {
            return fail(
                n,
                "a reason needs a result line too (result: x, o, red, black or draw)",
            );
        }
        return Ok(ruled.map(as_recorded));
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
                        Reason::Rules(r.reason).word()
                    ),
                );
            }
            if let Some((rn, _)) = reason {
                return fail(rn, "an unfinished game has no reason");
            }
            return Ok(None);
        }
        w => match sides.iter().position(|s| s.as_str() == w) {
            Some(0) => Some(Side::First),
            Some(_) => Some(Side::Second),
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
    let side_word = |w: Option<Side>| w.map_or("draw", |s| sides[s.index()].as_str());
    if let Some(r) = ruled {
        if r.winner != winner {
            return fail(
                *n,
                format!(
                    "the moves end the game ({}) with the result {}, but the file says {}",
                    Reason::Rules(r.reason).word(),
                    side_word(r.winner),
                    side_word(winner)
                ),
            );
        }
        if let Some((rn, reason)) = reason
            && reason != Reason::Rules(r.reason)
        {
            return fail(
                rn,
                format!(
                    "the moves end the game by {}, not {}",
                    Reason::Rules(r.reason).word(),
                    reason.word()
                ),
            );
        }
        return Ok(Some(as_recorded(r)));
    }
    let Some((rn, reason)) = reason else {
        return fail(
            *n,
            "say how the game ended on a reason line (for example reason: resign)",
        );
    };
    declared(winner, reason).map_err(|message| RecordError { line: rn, message })?;
    Ok(Some(Ending {
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

fn read_ended(h: &Headers) -> Result<Option<WallTime>, RecordError> {
    h.ended
        .as_ref()
        .map(|(n, v)| {
            WallTime::parse(v).ok_or_else(|| RecordError {
                line: *n,
                message: format!("'{v}' is not a date: write it like 2025-05-01 19:42"),
            })
        })
        .transpose()
}
