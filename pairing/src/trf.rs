//! FIDE Tournament Report Files (TRF16 / TRF-2026) as bbpPairings reads and writes them:
//! player lines (`001`), the number of rounds (`XXR` / `142`), the initial colour (`XXC
//! white1|black1` / `152`), the point system (`BBW` `BBD` `BBL` `BBZ` `BBF` `BBU` /
//! `162`), forbidden pairs (`XXP`) and next-round byes (`240`).
//!
//! - [`read`] takes every round column as played (bbpPairings' `-c`).
//! - [`read_next`] reads a file handed over for pairing (bbpPairings' `-p`): a last column
//!   that lists byes for only some players holds the byes of the round to pair.
//! - [`write()`] writes a tournament, with the next round's byes as a last column when
//!   given, in the form both readers (and bbpPairings) accept.
//!
//! A `001` line is fixed-width: pairing number at columns 5-8, name 15-47, rating 49-52,
//! points 81-84, rank 86-89, then one ten-column block per round from column 92:
//! opponent (4), colour (`w`/`b`/`-`), result (`1 = 0 + - W D L H F U Z`).

use std::fmt::Write as _;

use thiserror::Error;

use crate::tournament::{
    Bye, ByeKind, Colour, Game, GameResult, History, Player, Points, Round, Scoring, Tournament,
};

/// A tournament read from a TRF file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrfTournament {
    /// The event's name (`012`).
    pub name: String,
    /// Players, rounds, scoring, colours.
    pub tournament: Tournament,
    /// Byes known for the round to be paired (from [`read_next`] only).
    pub next_byes: Vec<Bye>,
}

/// What is wrong with a TRF file.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum TrfError {
    /// A line could not be read.
    #[error("line {line}: {reason}")]
    Line {
        /// The line number (1-based).
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// The players' lines disagree with each other.
    #[error("{0}")]
    Inconsistent(String),
}

fn line_error(line: usize, reason: impl Into<String>) -> TrfError {
    TrfError::Line {
        line,
        reason: reason.into(),
    }
}

/// One round block of a `001` line, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cell {
    /// The opponent's pairing number (0-based), if any.
    opponent: Option<usize>,
    /// `w`, `b`, or none (`-` or blank).
    colour: Option<Colour>,
    /// The result character, upper-cased.
    result: char,
}

/// A `001` line.
struct PlayerLine {
    /// Pairing number (0-based).
    id: usize,
    /// Name field, trimmed.
    name: String,
    /// Rating (0 when blank).
    rating: u16,
    /// Points as written.
    points: Points,
    /// Round blocks; `None` for a blank block.
    cells: Vec<Option<Cell>>,
    /// Line number, for errors.
    line: usize,
}

/// Reads a TRF file, every round column a played round.
pub fn read(text: &str) -> Result<TrfTournament, TrfError> {
    parse(text, false)
}

/// Reads a TRF file handed over for pairing its next round: a last column of byes that
/// does not cover every player, and `240` lines, give the byes of that round. Requires the
/// number of rounds (`XXR` or `142`).
pub fn read_next(text: &str) -> Result<TrfTournament, TrfError> {
    parse(text, true)
}

fn parse(text: &str, for_pairing: bool) -> Result<TrfTournament, TrfError> {
    let mut name = String::new();
    let mut total_rounds: Option<u32> = None;
    let mut initial_colour: Option<Colour> = None;
    let mut scoring = Scoring::default();
    let mut pab_set = false;
    let mut forbidden = Vec::new();
    let mut lines_240: Vec<(usize, usize, usize)> = Vec::new(); // (round, player, line)
    let mut players: Vec<PlayerLine> = Vec::new();

    for (index, raw) in text.split(['\r', '\n']).enumerate() {
        let number = index + 1;
        let line: Vec<char> = raw.chars().collect();
        if line.len() < 3 {
            continue;
        }
        let prefix: String = line[..3].iter().collect();
        let rest: String = line[3..].iter().collect();
        match prefix.as_str() {
            "001" => players.push(player_line(&line, number)?),
            "012" => name = rest.trim().to_string(),
            "XXR" | "142" => {
                let rounds: u32 = rest
                    .trim()
                    .parse()
                    .map_err(|_| line_error(number, "the number of rounds is not a number"))?;
                if rounds == 0 {
                    return Err(line_error(
                        number,
                        "the number of rounds must be at least 1",
                    ));
                }
                total_rounds = Some(rounds);
            }
            "XXC" => {
                for token in rest.split_whitespace() {
                    match token {
                        "white1" => initial_colour = Some(Colour::White),
                        "black1" => initial_colour = Some(Colour::Black),
                        "rank" => {
                            return Err(line_error(
                                number,
                                "pairing by the rank column (XXC rank) is not supported",
                            ));
                        }
                        _ => {}
                    }
                }
            }
            "152" => {
                initial_colour = Some(match rest.trim() {
                    "W" => Colour::White,
                    "B" => Colour::Black,
                    _ => return Err(line_error(number, "the initial colour must be W or B")),
                });
            }
            "162" => point_system(&line, number, &mut scoring, &mut pab_set)?,
            "BBW" => {
                scoring.win = points_field(&rest, number)?;
                if !pab_set {
                    scoring.pairing_bye = scoring.win;
                }
            }
            "BBD" => scoring.draw = points_field(&rest, number)?,
            "BBL" => scoring.loss = points_field(&rest, number)?,
            "BBZ" => scoring.zero_point_bye = points_field(&rest, number)?,
            "BBF" => scoring.forfeit_loss = points_field(&rest, number)?,
            "BBU" => {
                scoring.pairing_bye = points_field(&rest, number)?;
                pab_set = true;
            }
            "XXP" => {
                let ids: Vec<usize> = rest
                    .split_whitespace()
                    .map(|t| pairing_number(t, number))
                    .collect::<Result<_, _>>()?;
                for (i, &a) in ids.iter().enumerate() {
                    for &b in &ids[i + 1..] {
                        forbidden.push((a, b));
                    }
                }
            }
            "240" => {
                if line.len() < 11 {
                    return Err(line_error(number, "a 240 line needs a round and players"));
                }
                let round_text: String = line[6..9].iter().collect();
                let round: usize = round_text
                    .trim()
                    .parse()
                    .map_err(|_| line_error(number, "the round of a 240 line is not a number"))?;
                let mut start = 10;
                while start + 4 <= line.len() {
                    let id: String = line[start..start + 4].iter().collect();
                    lines_240.push((round, pairing_number(&id, number)?, number));
                    start += 5;
                }
            }
            "XXA" | "250" => {
                return Err(line_error(number, "accelerated pairings are not supported"));
            }
            "013" | "310" => {
                return Err(line_error(number, "team tournaments are not supported"));
            }
            "299" => {
                return Err(line_error(
                    number,
                    "abnormal assignment points are not supported",
                ));
            }
            _ => {}
        }
    }

    // Pairing numbers must be 1..n, each once.
    let count = players.len();
    players.sort_by_key(|p| p.id);
    for (i, p) in players.iter().enumerate() {
        if p.id != i {
            return Err(if p.id < i {
                line_error(p.line, format!("pairing number {} is repeated", p.id + 1))
            } else {
                TrfError::Inconsistent(format!("pairing number {} is missing", i + 1))
            });
        }
        for cell in p.cells.iter().flatten() {
            if cell.opponent.is_some_and(|o| o >= count) {
                return Err(line_error(p.line, "an opponent is not among the players"));
            }
        }
    }

    if forbidden.iter().any(|&(a, b)| a >= count || b >= count) {
        return Err(TrfError::Inconsistent(
            "an XXP line names a player who is not entered".into(),
        ));
    }

    // Rounds: every column a player filled; for pairing, a last column of byes that
    // leaves someone out is the round to pair.
    let mut rounds = players.iter().map(|p| p.cells.len()).max().unwrap_or(0);
    let mut next_column = false;
    if for_pairing && rounds > 0 {
        let last = rounds - 1;
        let only_byes = players.iter().all(|p| {
            p.cells.get(last).copied().flatten().is_none_or(|c| {
                c.opponent.is_none() && matches!(c.result, 'H' | 'F' | 'Z' | '-' | ' ')
            })
        });
        let someone_missing = players
            .iter()
            .any(|p| p.cells.get(last).copied().flatten().is_none());
        if only_byes && someone_missing {
            next_column = true;
            rounds -= 1;
        }
    }

    let mut t = Tournament::new(
        players
            .iter()
            .map(|p| Player::new(p.name.clone(), p.rating))
            .collect(),
        0,
    );
    t.scoring = scoring;
    t.forbidden = forbidden;
    for r in 0..rounds {
        t.rounds.push(round_of(&players, r)?);
    }
    t.total_rounds = match total_rounds {
        Some(total) => {
            if (total as usize) < rounds + usize::from(for_pairing) {
                return Err(TrfError::Inconsistent(format!(
                    "the file has {rounds} rounds but says the event has {total}"
                )));
            }
            total
        }
        None if for_pairing => {
            return Err(TrfError::Inconsistent(
                "the number of rounds (XXR) is needed to pair the next round".into(),
            ));
        }
        None => rounds as u32,
    };
    t.initial_colour = initial_colour
        .or_else(|| infer_initial_colour(&t))
        .unwrap_or(Colour::White);

    let mut next_byes = Vec::new();
    if next_column {
        for p in &players {
            if let Some(Some(cell)) = p.cells.get(rounds) {
                next_byes.push(Bye {
                    player: p.id,
                    kind: absence_kind(cell.result),
                });
            }
        }
    }
    if for_pairing {
        for &(round, player, line) in &lines_240 {
            if player >= count {
                return Err(line_error(
                    line,
                    "a 240 line names a player who is not entered",
                ));
            }
            if round == rounds + 1 && !next_byes.iter().any(|b| b.player == player) {
                next_byes.push(Bye {
                    player,
                    kind: ByeKind::ZeroPoint,
                });
            }
        }
    }

    // The points column must agree with the results.
    let history = History::of(&t).map_err(|e| TrfError::Inconsistent(e.to_string()))?;
    for p in &players {
        let computed = history.score(p.id, &t.scoring);
        let with_next = next_byes
            .iter()
            .find(|b| b.player == p.id)
            .map_or(computed, |b| {
                Points(
                    computed.0
                        + crate::tournament::Entry::absent(b.kind)
                            .points(&t.scoring)
                            .0,
                )
            });
        if p.points != computed && p.points != with_next {
            return Err(TrfError::Inconsistent(format!(
                "player {} has {} points written but {} from the results",
                p.id + 1,
                p.points,
                computed
            )));
        }
    }
    Ok(TrfTournament {
        name,
        tournament: t,
        next_byes,
    })
}

/// Reads a `001` line.
fn player_line(line: &[char], number: usize) -> Result<PlayerLine, TrfError> {
    if line.len() < 84 {
        return Err(line_error(
            number,
            "a player line is shorter than its points column",
        ));
    }
    let text = |a: usize, b: usize| -> String { line[a..b.min(line.len())].iter().collect() };
    let id = pairing_number(&text(4, 8), number)?;
    let name = text(14, 47).trim().to_string();
    let rating_text = text(48, 52);
    let rating = if rating_text.trim().is_empty() {
        0
    } else {
        rating_text
            .trim()
            .parse()
            .map_err(|_| line_error(number, "the rating is not a number"))?
    };
    let points = parse_points(&text(80, 84))
        .ok_or_else(|| line_error(number, "the points column is not a number"))?;
    let mut cells = Vec::new();
    let mut start = 91;
    while start + 8 <= line.len() {
        let block: Vec<char> = line[start..start + 8].to_vec();
        cells.push(cell(&block, id, number)?);
        start += 10;
    }
    if line.len() > start && line[start..].iter().any(|c| *c != ' ') {
        return Err(line_error(number, "a round block is cut short"));
    }
    // Trailing blank blocks are not rounds.
    while cells.last().is_some_and(Option::is_none) {
        cells.pop();
    }
    Ok(PlayerLine {
        id,
        name,
        rating,
        points,
        cells,
        line: number,
    })
}

/// Reads a round block (`oooo c r`); `None` when blank.
fn cell(block: &[char], own: usize, number: usize) -> Result<Option<Cell>, TrfError> {
    let opponent_text: String = block[0..4].iter().collect();
    let colour_char = block[5];
    let result = block[7].to_ascii_uppercase();
    if opponent_text.trim().is_empty() && colour_char == ' ' && result == ' ' {
        return Ok(None);
    }
    let opponent = if opponent_text.trim().is_empty() || opponent_text == "0000" {
        None
    } else {
        let o = pairing_number(&opponent_text, number)?;
        if o == own {
            return Err(line_error(number, "a player is paired against themselves"));
        }
        Some(o)
    };
    let colour = match colour_char {
        'w' | 'W' => Some(Colour::White),
        'b' | 'B' => Some(Colour::Black),
        '-' | ' ' => None,
        _ => {
            return Err(line_error(
                number,
                format!("unknown colour '{colour_char}'"),
            ));
        }
    };
    if !"1=0+-WDLHFUZ ".contains(result) {
        return Err(line_error(number, format!("unknown result '{result}'")));
    }
    match (opponent, result) {
        (None, '1' | '=' | '0' | 'W' | 'D' | 'L') => {
            return Err(line_error(number, "a game result without an opponent"));
        }
        (Some(_), 'H' | 'F' | 'U' | 'Z' | ' ') => {
            return Err(line_error(number, "a bye with an opponent"));
        }
        (Some(_), '1' | '=' | '0' | 'W' | 'D' | 'L') if colour.is_none() => {
            return Err(line_error(number, "a played game without a colour"));
        }
        _ => {}
    }
    if opponent.is_none() && colour.is_some() {
        return Err(line_error(number, "a colour without an opponent"));
    }
    Ok(Some(Cell {
        opponent,
        colour,
        result,
    }))
}

/// The kind of an unpaired round's bye, by its result character.
fn absence_kind(result: char) -> ByeKind {
    match result {
        'H' | '=' | 'D' => ByeKind::HalfPoint,
        'F' | '1' | 'W' => ByeKind::FullPoint,
        'U' | '+' => ByeKind::PairingAllocated,
        _ => ByeKind::ZeroPoint,
    }
}

/// Builds round `r` from every player's block.
fn round_of(players: &[PlayerLine], r: usize) -> Result<Round, TrfError> {
    let mut round = Round::default();
    let cell_of = |p: usize| players[p].cells.get(r).copied().flatten();
    for p in players {
        let Some(c) = cell_of(p.id) else { continue };
        let Some(o) = c.opponent else {
            round.byes.push(Bye {
                player: p.id,
                kind: absence_kind(c.result),
            });
            continue;
        };
        let Some(oc) = cell_of(o) else {
            return Err(TrfError::Inconsistent(format!(
                "round {}: player {} meets {}, who has no game that round",
                r + 1,
                p.id + 1,
                o + 1
            )));
        };
        if oc.opponent != Some(p.id) {
            return Err(TrfError::Inconsistent(format!(
                "round {}: player {} meets {}, whose line says otherwise",
                r + 1,
                p.id + 1,
                o + 1
            )));
        }
        // Each game once: from White's side, or the lower number when neither has one.
        let is_white = match (c.colour, oc.colour) {
            (Some(Colour::White), _) => true,
            (Some(Colour::Black), _) => false,
            (None, Some(Colour::Black)) => true,
            (None, Some(Colour::White)) => false,
            (None, None) => p.id < o,
        };
        if !is_white {
            continue;
        }
        if c.colour.is_some() && c.colour == oc.colour {
            return Err(TrfError::Inconsistent(format!(
                "round {}: players {} and {} have the same colour",
                r + 1,
                p.id + 1,
                o + 1
            )));
        }
        let result = match (c.result, oc.result) {
            ('1' | 'W', '0' | 'L') => GameResult::WhiteWins,
            ('=' | 'D', '=' | 'D') => GameResult::Draw,
            ('0' | 'L', '1' | 'W') => GameResult::BlackWins,
            ('+', '-') => GameResult::WhiteWinsByForfeit,
            ('-', '+') => GameResult::BlackWinsByForfeit,
            ('-', '-') => GameResult::DoubleForfeit,
            _ => {
                return Err(TrfError::Inconsistent(format!(
                    "round {}: players {} and {} report results '{}' and '{}'",
                    r + 1,
                    p.id + 1,
                    o + 1,
                    c.result,
                    oc.result
                )));
            }
        };
        if result.played() && (c.colour.is_none() || oc.colour.is_none()) {
            return Err(TrfError::Inconsistent(format!(
                "round {}: a played game between {} and {} without colours",
                r + 1,
                p.id + 1,
                o + 1
            )));
        }
        round.games.push(Game {
            white: p.id,
            black: o,
            result,
        });
    }
    Ok(round)
}

/// The colour of round 1's top player, inferred as bbpPairings does when the file does
/// not say: the first round with colours, the first player (by pairing number) paired
/// by then who has a colour in it, flipped for each player paired by then before them.
fn infer_initial_colour(t: &Tournament) -> Option<Colour> {
    let history = History::of(t).ok()?;
    let first = (0..history.rounds())
        .find(|&r| history.entries.iter().any(|line| line[r].colour.is_some()))?;
    let mut counted = 0;
    for line in &history.entries {
        if line[..=first].iter().any(|e| e.paired) {
            if let Some(colour) = line[first].colour {
                return Some(if counted % 2 == 1 {
                    colour.other()
                } else {
                    colour
                });
            }
            counted += 1;
        }
    }
    None
}

/// Reads a 1-based pairing number.
fn pairing_number(text: &str, number: usize) -> Result<usize, TrfError> {
    let n: usize = text
        .trim()
        .parse()
        .map_err(|_| line_error(number, format!("'{}' is not a pairing number", text.trim())))?;
    if n == 0 {
        return Err(line_error(number, "pairing number 0"));
    }
    Ok(n - 1)
}

/// Reads a score with at most one decimal ("3", "3.5", " 10.0").
fn parse_points(text: &str) -> Option<Points> {
    let text = text.trim();
    let (whole, tenth) = match text.split_once('.') {
        Some((w, t)) => (w, t),
        None => (text, ""),
    };
    let whole: u32 = whole.parse().ok()?;
    let tenth: u32 = match tenth.len() {
        0 => 0,
        1 => tenth.parse().ok()?,
        _ => return None,
    };
    Some(Points(whole * 10 + tenth))
}

fn points_field(rest: &str, number: usize) -> Result<Points, TrfError> {
    parse_points(rest).ok_or_else(|| line_error(number, "a point value is not a number"))
}

/// Reads a `162` point-system line: `162  W 3.0    D 1.0 ...` blocks of nine columns.
fn point_system(
    line: &[char],
    number: usize,
    scoring: &mut Scoring,
    pab_set: &mut bool,
) -> Result<(), TrfError> {
    let mut start = 5;
    while start + 5 <= line.len() {
        let code = line[start];
        let value: String = line[start + 1..start + 5].iter().collect();
        let points = parse_points(&value)
            .ok_or_else(|| line_error(number, "a point value is not a number"))?;
        match code {
            'W' => {
                scoring.win = points;
                if !*pab_set {
                    scoring.pairing_bye = points;
                }
            }
            'D' => scoring.draw = points,
            'L' => scoring.loss = points,
            'Z' | 'A' => {
                scoring.zero_point_bye = points;
                scoring.forfeit_loss = points;
            }
            'P' => {
                scoring.pairing_bye = points;
                *pab_set = true;
            }
            ' ' => {}
            _ => return Err(line_error(number, format!("unknown point code '{code}'"))),
        }
        start += 9;
    }
    Ok(())
}

/// Writes `t` as a TRF file. The byes of the round to pair become a last column:
/// `next_byes`, and a zero-point bye for each withdrawn player and each late entry whose
/// round has not come (while rounds remain), so that bbpPairings pairs the same players
/// as [`crate::dutch::pair`] would. (A column that listed every player would read as a
/// played round.)
pub fn write(
    name: &str,
    t: &Tournament,
    next_byes: &[Bye],
) -> Result<String, crate::tournament::HistoryError> {
    let history = History::of(t)?;
    let mut out = String::new();
    let _ = writeln!(out, "012 {name}");
    let _ = writeln!(out, "XXR {}", t.total_rounds);
    let _ = writeln!(
        out,
        "XXC {}",
        match t.initial_colour {
            Colour::White => "white1",
            Colour::Black => "black1",
        }
    );
    let d = Scoring::default();
    let s = &t.scoring;
    let fields = [
        ("BBW", s.win, d.win),
        ("BBD", s.draw, d.draw),
        ("BBL", s.loss, d.loss),
        ("BBZ", s.zero_point_bye, d.zero_point_bye),
        ("BBF", s.forfeit_loss, d.forfeit_loss),
    ];
    for (code, value, default) in fields {
        if value != default {
            let _ = writeln!(out, "{code} {:>4}", value.to_string());
        }
    }
    if s.pairing_bye != s.win {
        let _ = writeln!(out, "BBU {:>4}", s.pairing_bye.to_string());
    }
    for &(a, b) in &t.forbidden {
        let _ = writeln!(out, "XXP {} {}", a + 1, b + 1);
    }
    // Standing ranks: score, then pairing number.
    let count = t.players.len();
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by_key(|&p| (std::cmp::Reverse(history.score(p, s)), p));
    let rounds_left = (t.rounds.len() as u64) < u64::from(t.total_rounds);
    let mut rank = vec![0; count];
    for (place, &p) in order.iter().enumerate() {
        rank[p] = place + 1;
    }
    for (p, player) in t.players.iter().enumerate() {
        let name: String = player.name.chars().take(33).collect();
        let rating = if player.rating == 0 {
            String::new()
        } else {
            player.rating.to_string()
        };
        let _ = write!(
            out,
            "001 {:>4}      {:<33} {:>4}{:28}{:>4} {:>4}",
            p + 1,
            name,
            rating,
            "",
            history.score(p, s).to_string(),
            rank[p]
        );
        for entry in &history.entries[p] {
            out.push_str("  ");
            match (entry.opponent, entry.colour) {
                (Some(o), Some(colour)) => {
                    let c = if colour == Colour::White { 'w' } else { 'b' };
                    let r = match (entry.played, entry.outcome) {
                        (true, crate::tournament::Outcome::Win) => '1',
                        (true, crate::tournament::Outcome::Draw) => '=',
                        (true, crate::tournament::Outcome::Loss) => '0',
                        (false, crate::tournament::Outcome::Win) => '+',
                        (false, _) => '-',
                    };
                    let _ = write!(out, "{:>4} {c} {r}", o + 1);
                }
                _ => {
                    let r = if entry.is_pairing_bye() {
                        'U'
                    } else {
                        match entry.outcome {
                            crate::tournament::Outcome::Win => 'F',
                            crate::tournament::Outcome::Draw => 'H',
                            crate::tournament::Outcome::Loss => 'Z',
                        }
                    };
                    let _ = write!(out, "0000 - {r}");
                }
            }
        }
        let absent =
            rounds_left && (player.withdrawn || player.joins as usize > t.rounds.len() + 1);
        let next = next_byes
            .iter()
            .find(|b| b.player == p)
            .copied()
            .or_else(|| {
                absent.then_some(Bye {
                    player: p,
                    kind: ByeKind::ZeroPoint,
                })
            });
        if let Some(bye) = next {
            let r = match bye.kind {
                ByeKind::HalfPoint => 'H',
                ByeKind::FullPoint => 'F',
                ByeKind::ZeroPoint | ByeKind::PairingAllocated => 'Z',
            };
            let _ = write!(out, "  0000 - {r}");
        }
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `001` line with its fixed columns.
    fn player(id: usize, name: &str, rating: u16, points: &str, blocks: &[&str]) -> String {
        let mut line = format!(
            "001 {id:>4}      {name:<33} {rating:>4}{:28}{points:>4} {id:>4}",
            ""
        );
        for b in blocks {
            line.push_str("  ");
            line.push_str(b);
        }
        line
    }

    fn sample() -> String {
        [
            "012 Club night".to_string(),
            "XXR 4".to_string(),
            "XXC black1".to_string(),
            player(1, "Ann", 2100, "1.5", &["   3 w 1", "   2 b =", "0000 - H"]),
            player(2, "Bob", 2000, "1.5", &["   4 w +", "   1 w ="]),
            player(3, "Cai", 1900, "1.0", &["   1 b 0", "0000 - U"]),
            player(4, "Dee", 1800, "0.0", &["   2 b -", "0000 - Z"]),
        ]
        .join("\n")
    }

    #[test]
    fn reads_players_rounds_and_byes() {
        let trf = read_next(&sample()).expect("valid file");
        let t = &trf.tournament;
        assert_eq!(trf.name, "Club night");
        assert_eq!(t.total_rounds, 4);
        assert_eq!(t.initial_colour, Colour::Black);
        assert_eq!(t.players.len(), 4);
        assert_eq!(t.players[0].name, "Ann");
        assert_eq!(t.players[1].rating, 2000);
        assert_eq!(t.rounds.len(), 2);
        assert_eq!(
            trf.next_byes,
            vec![Bye {
                player: 0,
                kind: ByeKind::HalfPoint
            }]
        );
        assert!(t.rounds[0].games.contains(&Game {
            white: 0,
            black: 2,
            result: GameResult::WhiteWins
        }));
        assert!(t.rounds[0].games.contains(&Game {
            white: 1,
            black: 3,
            result: GameResult::WhiteWinsByForfeit
        }));
        assert!(t.rounds[1].byes.contains(&Bye {
            player: 2,
            kind: ByeKind::PairingAllocated
        }));
        assert!(t.rounds[1].byes.contains(&Bye {
            player: 3,
            kind: ByeKind::ZeroPoint
        }));
    }

    #[test]
    fn writing_and_reading_back_is_the_identity() {
        let trf = read_next(&sample()).expect("valid file");
        let written = write(&trf.name, &trf.tournament, &trf.next_byes).expect("writable");
        let again = read_next(&written).expect("our own output reads");
        assert_eq!(again, trf);
        let rewritten = write(&again.name, &again.tournament, &again.next_byes).expect("writable");
        assert_eq!(rewritten, written);
    }

    #[test]
    fn withdrawn_players_and_late_entries_are_absent_next_round() {
        let mut t = read_next(&sample()).expect("valid file").tournament;
        t.players[2].withdrawn = true;
        t.players.push(Player {
            joins: 4,
            ..Player::new("Eve", 1700)
        });
        for round in &mut t.rounds {
            round.byes.push(Bye {
                player: 4,
                kind: ByeKind::ZeroPoint,
            });
        }
        let text = write(
            "x",
            &t,
            &[Bye {
                player: 0,
                kind: ByeKind::HalfPoint,
            }],
        )
        .expect("writable");
        let back = read_next(&text).expect("readable");
        let mut next = back.next_byes.clone();
        next.sort_by_key(|b| b.player);
        assert_eq!(
            next,
            vec![
                Bye {
                    player: 0,
                    kind: ByeKind::HalfPoint
                },
                Bye {
                    player: 2,
                    kind: ByeKind::ZeroPoint
                },
                Bye {
                    player: 4,
                    kind: ByeKind::ZeroPoint
                },
            ]
        );
    }

    #[test]
    fn wrong_points_and_broken_lines_are_refused() {
        let wrong = sample().replace(" 1.5    1", " 2.5    1");
        assert!(matches!(read_next(&wrong), Err(TrfError::Inconsistent(_))));
        let short = "001    1      Ann\n";
        assert!(matches!(read(short), Err(TrfError::Line { line: 1, .. })));
        let missing = sample().replace("001    2", "001    7");
        assert!(read(&missing).is_err());
    }
}
