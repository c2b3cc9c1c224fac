//! A player to be paired, as the Dutch rules see them: score, colour preference, floats,
//! and whether they may receive the pairing-allocated bye (C.04.3 articles 1.5-1.7 and
//! C.04.1).

use crate::tournament::{Colour, Entry, History, Points, Scoring};

/// Which way a player floated in an earlier round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Float {
    /// Played someone with a lower score, or scored more than a loss without playing.
    Down,
    /// Played someone with a higher score.
    Up,
    /// Neither.
    Level,
}

/// A player present for the round being paired.
#[derive(Clone, Debug)]
pub(super) struct Entrant {
    /// Index in the tournament's players (pairing number - 1).
    pub id: usize,
    /// The effective pairing number for this round (0-based), counting only players who
    /// are here or have been paired before: it breaks ties and alternates colours.
    pub rank: usize,
    /// Score now, before the last round, and before the last two rounds (tenths).
    pub score: [u32; 3],
    /// Games played over the board.
    pub played_games: u32,
    /// |whites - blacks| over played games.
    pub imbalance: u32,
    /// The colour the player should get next, if any.
    pub preference: Option<Colour>,
    /// Set when the last two played games had the same colour.
    pub repeated: Option<Colour>,
    /// A strong preference: an imbalance of one, not absolute.
    pub strong: bool,
    /// May receive the pairing-allocated bye (has not had one, nor any win without
    /// playing).
    pub bye_eligible: bool,
    /// Floats in the last round and in the round before.
    pub floats: [Float; 2],
    /// Colours of the played games, oldest first (for breaking colour ties).
    pub colours: Vec<Colour>,
}

impl Entrant {
    /// The current score.
    pub fn now(&self) -> u32 {
        self.score[0]
    }

    /// The colour imbalance alone makes the preference absolute.
    pub fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }

    /// An absolute colour preference: imbalance above one, or the same colour twice.
    pub fn absolute(&self) -> bool {
        self.absolute_imbalance() || self.repeated.is_some()
    }

    /// Reads player `id`'s line of `history`.
    pub fn new(
        id: usize,
        rank: usize,
        history: &History,
        scoring: &Scoring,
        scores_before: &[[u32; 3]],
    ) -> Entrant {
        let line = &history.entries[id];
        let (mut whites, mut blacks, mut run) = (0u32, 0u32, 0u32);
        let mut last: Option<Colour> = None;
        let mut colours = Vec::new();
        for entry in line.iter().filter(|e| e.played) {
            let Some(colour) = entry.colour else { continue };
            match colour {
                Colour::White => whites += 1,
                Colour::Black => blacks += 1,
            }
            run = if last == Some(colour) { run + 1 } else { 1 };
            last = Some(colour);
            colours.push(colour);
        }
        let lower = if whites > blacks {
            Colour::Black
        } else {
            Colour::White
        };
        let imbalance = whites.abs_diff(blacks);
        let preference = if imbalance > 1 {
            Some(lower)
        } else if run > 1 {
            last.map(Colour::other)
        } else if imbalance > 0 {
            Some(lower)
        } else if run > 0 {
            last.map(Colour::other)
        } else {
            None
        };
        let repeated = if run > 1 { last } else { None };
        let absolute = imbalance > 1 || repeated.is_some();
        let bye_eligible = !line
            .iter()
            .any(|e| !e.played && (e.points(scoring) >= scoring.win || e.is_pairing_bye()));
        let rounds = line.len();
        let float = |back: usize| -> Float {
            if rounds < back {
                return Float::Level;
            }
            float_in(line[rounds - back], scores_before, id, back, scoring)
        };
        Entrant {
            id,
            rank,
            score: scores_before[id],
            played_games: colours.len() as u32,
            imbalance,
            preference,
            repeated,
            strong: !absolute && imbalance > 0,
            bye_eligible,
            floats: [float(1), float(2)],
            colours,
        }
    }
}

/// The float of player `id` in the round `back` rounds ago, given by `entry`.
fn float_in(
    entry: Entry,
    scores_before: &[[u32; 3]],
    id: usize,
    back: usize,
    scoring: &Scoring,
) -> Float {
    match entry.opponent {
        Some(opponent) if entry.played => {
            let mine = scores_before[id][back];
            let theirs = scores_before[opponent][back];
            match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => Float::Down,
                std::cmp::Ordering::Less => Float::Up,
                std::cmp::Ordering::Equal => Float::Level,
            }
        }
        _ if entry.points(scoring) > scoring.loss => Float::Down,
        _ => Float::Level,
    }
}

/// Every player's score now, before the last round and before the last two rounds.
pub(super) fn scores_before(history: &History, scoring: &Scoring) -> Vec<[u32; 3]> {
    let rounds = history.rounds();
    (0..history.entries.len())
        .map(|p| {
            let at = |back: usize| {
                let Points(s) = history.score_before(p, rounds.saturating_sub(back), scoring);
                s
            };
            [at(0), at(1), at(2)]
        })
        .collect()
}
