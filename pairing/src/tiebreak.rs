//! Standings with FIDE tie-breaks (Handbook C.07, the tie-break regulations in force
//! since 2023), in an order the event chooses.
//!
//! Unplayed rounds follow C.07 (2023/2024) "unplayed rounds management", as read here:
//!
//! - A player's own unplayed round (pairing-allocated bye, forfeit win or loss, any bye,
//!   absence) counts, in their Buchholz and Sonneborn-Berger, as a game against a dummy
//!   opponent whose score is the player's own final score.
//! - In someone else's Buchholz or Sonneborn-Berger an opponent counts with their
//!   *adjusted score*: each of the opponent's voluntarily unplayed rounds (forfeit loss,
//!   half-point or zero-point bye, absence) counted as a draw.
//! - Buchholz Cut-1 cuts a voluntarily unplayed round's value first, if the player has
//!   one; otherwise the lowest value.
//!
//! All values are in hundredths of a point ([`TieValue`]), so Sonneborn-Berger's half
//! points stay exact.

use std::cmp::Ordering;
use std::fmt;

use crate::tournament::{Entry, History, HistoryError, Outcome, Points, Tournament};

/// A tie-break.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TieBreak {
    /// Buchholz (BH): the sum of the opponents' scores.
    Buchholz,
    /// Buchholz Cut-1 (BH-C1): Buchholz less its least significant value.
    BuchholzCut1,
    /// Sonneborn-Berger (SB): opponents' scores, weighted by the points scored against them.
    SonnebornBerger,
    /// Direct encounter (DE): points among the tied players, when they all met.
    DirectEncounter,
    /// Number of wins (WIN): rounds won, with or without playing.
    Wins,
    /// Games won over the board (WON).
    GamesWon,
}

impl TieBreak {
    /// The FIDE abbreviation.
    pub fn code(self) -> &'static str {
        match self {
            TieBreak::Buchholz => "BH",
            TieBreak::BuchholzCut1 => "BH-C1",
            TieBreak::SonnebornBerger => "SB",
            TieBreak::DirectEncounter => "DE",
            TieBreak::Wins => "WIN",
            TieBreak::GamesWon => "WON",
        }
    }
}

/// A tie-break value in hundredths of a point (or a plain count for WIN and WON,
/// also scaled by 100).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TieValue(pub i64);

impl fmt::Display for TieValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        if v % 100 == 0 {
            write!(f, "{}", v / 100)
        } else if v % 10 == 0 {
            write!(f, "{}.{}", v / 100, (v % 100).abs() / 10)
        } else {
            write!(f, "{}.{:02}", v / 100, (v % 100).abs())
        }
    }
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The player (index into the tournament's players).
    pub player: usize,
    /// Place, 1-based; players equal on score and every tie-break share it.
    pub rank: usize,
    /// Total score.
    pub score: Points,
    /// The tie-break values, in the order asked for.
    pub values: Vec<TieValue>,
}

/// Whether a round was a voluntarily unplayed one (forfeit loss, half- or zero-point
/// bye, absence).
fn voluntarily_unplayed(e: &Entry) -> bool {
    !e.played && !e.is_pairing_bye() && e.outcome != Outcome::Win
}

/// What the standings need from the history.
struct Table<'a> {
    /// The tournament.
    t: &'a Tournament,
    /// Per-player rounds.
    h: History,
    /// Scores (tenths).
    scores: Vec<i64>,
    /// Adjusted scores for opponents' tie-breaks (tenths).
    adjusted: Vec<i64>,
}

impl<'a> Table<'a> {
    fn new(t: &'a Tournament) -> Result<Self, HistoryError> {
        let h = History::of(t)?;
        let n = t.players.len();
        let s = &t.scoring;
        let scores: Vec<i64> = (0..n).map(|p| i64::from(h.score(p, s).0)).collect();
        let adjusted = (0..n)
            .map(|p| {
                h.entries[p]
                    .iter()
                    .map(|e| {
                        let points = if voluntarily_unplayed(e) {
                            s.draw
                        } else {
                            e.points(s)
                        };
                        i64::from(points.0)
                    })
                    .sum()
            })
            .collect();
        Ok(Table {
            t,
            h,
            scores,
            adjusted,
        })
    }

    /// Each round's contribution to `p`'s Buchholz (tenths), and whether it was a
    /// voluntarily unplayed round.
    fn opponents(&self, p: usize) -> Vec<(i64, bool, Entry)> {
        self.h.entries[p]
            .iter()
            .map(|e| match e.opponent {
                Some(o) if e.played => (self.adjusted[o], false, *e),
                _ => (self.scores[p], voluntarily_unplayed(e), *e),
            })
            .collect()
    }

    fn value(&self, p: usize, tb: TieBreak, tied: &[usize]) -> TieValue {
        let ten = 10; // tenths to hundredths
        match tb {
            TieBreak::Buchholz => TieValue(self.opponents(p).iter().map(|(v, _, _)| v * ten).sum()),
            TieBreak::BuchholzCut1 => {
                let values = self.opponents(p);
                let total: i64 = values.iter().map(|(v, _, _)| v).sum();
                let cut = values
                    .iter()
                    .filter(|(_, vur, _)| *vur)
                    .map(|(v, _, _)| *v)
                    .min()
                    .or_else(|| values.iter().map(|(v, _, _)| *v).min())
                    .unwrap_or(0);
                TieValue((total - cut) * ten)
            }
            TieBreak::SonnebornBerger => TieValue(
                self.opponents(p)
                    .iter()
                    .map(|(v, _, e)| match e.outcome {
                        Outcome::Win => v * ten,
                        Outcome::Draw => v * ten / 2,
                        Outcome::Loss => 0,
                    })
                    .sum(),
            ),
            TieBreak::DirectEncounter => {
                let all_met = tied.iter().all(|&a| {
                    tied.iter()
                        .all(|&b| a == b || self.h.entries[a].iter().any(|e| e.opponent == Some(b)))
                });
                if tied.len() < 2 || !all_met {
                    return TieValue(0);
                }
                let s = &self.t.scoring;
                TieValue(
                    self.h.entries[p]
                        .iter()
                        .filter(|e| e.opponent.is_some_and(|o| tied.contains(&o)))
                        .map(|e| i64::from(e.points(s).0) * ten)
                        .sum(),
                )
            }
            TieBreak::Wins => TieValue(
                100 * self.h.entries[p]
                    .iter()
                    .filter(|e| e.outcome == Outcome::Win)
                    .count() as i64,
            ),
            TieBreak::GamesWon => TieValue(
                100 * self.h.entries[p]
                    .iter()
                    .filter(|e| e.played && e.outcome == Outcome::Win)
                    .count() as i64,
            ),
        }
    }
}

/// The standings of `t`, best first, broken by `order`.
pub fn standings(t: &Tournament, order: &[TieBreak]) -> Result<Vec<Standing>, HistoryError> {
    let table = Table::new(t)?;
    let n = t.players.len();
    let mut lines: Vec<Standing> = (0..n)
        .map(|p| Standing {
            player: p,
            rank: 0,
            score: Points(table.scores[p] as u32),
            values: Vec::with_capacity(order.len()),
        })
        .collect();
    lines.sort_by(|a, b| b.score.cmp(&a.score).then(a.player.cmp(&b.player)));
    // Break ties one tie-break at a time; direct encounter looks only at the group still
    // tied when its turn comes.
    let mut groups: Vec<std::ops::Range<usize>> = tied_ranges(&lines, 0);
    for (k, &tb) in order.iter().enumerate() {
        for range in &groups {
            let members: Vec<usize> = lines[range.clone()].iter().map(|l| l.player).collect();
            for line in &mut lines[range.clone()] {
                let v = table.value(line.player, tb, &members);
                line.values.push(v);
            }
            lines[range.clone()]
                .sort_by(|a, b| b.values[k].cmp(&a.values[k]).then(a.player.cmp(&b.player)));
        }
        groups = tied_ranges(&lines, k + 1);
    }
    for range in groups {
        let first = range.start + 1;
        for line in &mut lines[range] {
            line.rank = first;
        }
    }
    Ok(lines)
}

/// Ranges of lines equal on score and the first `k` tie-breaks.
fn tied_ranges(lines: &[Standing], k: usize) -> Vec<std::ops::Range<usize>> {
    let same = |a: &Standing, b: &Standing| -> bool {
        a.score == b.score && a.values[..k].cmp(&b.values[..k]) == Ordering::Equal
    };
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=lines.len() {
        if i == lines.len() || !same(&lines[start], &lines[i]) {
            out.push(start..i);
            start = i;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{Bye, ByeKind, Game, GameResult, Player, Round};

    fn tournament(rounds: Vec<Round>, players: usize) -> Tournament {
        let mut t = Tournament::new(
            (0..players)
                .map(|i| Player::new(format!("p{i}"), 0))
                .collect(),
            3,
        );
        t.rounds = rounds;
        t
    }

    fn game(white: usize, black: usize, result: GameResult) -> Game {
        Game {
            white,
            black,
            result,
        }
    }

    #[test]
    fn buchholz_and_sonneborn_berger_of_played_games() {
        // A round robin of four: 0 beats all, 1 beats 2 and 3, 2 draws 3.
        let t = tournament(
            vec![
                Round {
                    games: vec![
                        game(0, 3, GameResult::WhiteWins),
                        game(1, 2, GameResult::WhiteWins),
                    ],
                    byes: vec![],
                },
                Round {
                    games: vec![
                        game(3, 2, GameResult::Draw),
                        game(0, 1, GameResult::WhiteWins),
                    ],
                    byes: vec![],
                },
                Round {
                    games: vec![
                        game(1, 3, GameResult::WhiteWins),
                        game(2, 0, GameResult::BlackWins),
                    ],
                    byes: vec![],
                },
            ],
            4,
        );
        let order = [
            TieBreak::Buchholz,
            TieBreak::SonnebornBerger,
            TieBreak::Wins,
        ];
        let s = standings(&t, &order).expect("standings");
        let by_player = |p: usize| s.iter().find(|l| l.player == p).expect("a line");
        // Scores: 3, 2, 0.5, 0.5.
        assert_eq!(by_player(0).score, Points(30));
        assert_eq!(by_player(0).values[0], TieValue(300)); // 2 + 0.5 + 0.5
        assert_eq!(by_player(0).values[1], TieValue(300));
        assert_eq!(by_player(1).values[0], TieValue(400)); // 3 + 0.5 + 0.5
        assert_eq!(by_player(1).values[1], TieValue(100));
        assert_eq!(by_player(2).values[1], TieValue(25)); // half of 3's 0.5
        assert_eq!(by_player(1).values[2], TieValue(200));
        // 2 and 3 tie on score and BH (5.5 each); SB is equal too; WIN 0: shared place.
        assert_eq!(by_player(2).rank, 3);
        assert_eq!(by_player(3).rank, 3);
        assert_eq!(TieValue(25).to_string(), "0.25");
        assert_eq!(TieValue(350).to_string(), "3.5");
    }

    #[test]
    fn unplayed_rounds_use_the_dummy_opponent_and_adjusted_scores() {
        // Round 1: 0 beats 1, 2 has the pairing-allocated bye.
        // Round 2: 2 beats 0; 1 asked for a half-point bye.
        let t = tournament(
            vec![
                Round {
                    games: vec![game(0, 1, GameResult::WhiteWins)],
                    byes: vec![Bye {
                        player: 2,
                        kind: ByeKind::PairingAllocated,
                    }],
                },
                Round {
                    games: vec![game(2, 0, GameResult::WhiteWins)],
                    byes: vec![Bye {
                        player: 1,
                        kind: ByeKind::HalfPoint,
                    }],
                },
            ],
            3,
        );
        let s = standings(&t, &[TieBreak::Buchholz, TieBreak::BuchholzCut1]).expect("standings");
        let line = |p: usize| s.iter().find(|l| l.player == p).expect("a line");
        // 2 scored 2: the bye counts as a dummy on 2 points, 0 counts 1 point.
        assert_eq!(line(2).values[0], TieValue(300));
        // 0 met 1 (0.5, adjusted: the half-point bye is voluntary: still 0.5) and 2 (2).
        assert_eq!(line(0).values[0], TieValue(250));
        // 1 met 0 (1) and had a voluntary bye (dummy on 0.5): cut-1 drops the bye first.
        assert_eq!(line(1).values[0], TieValue(150));
        assert_eq!(line(1).values[1], TieValue(100));
    }

    #[test]
    fn direct_encounter_only_among_players_who_all_met() {
        // 0 and 1 each scored 1; 1 beat 0.
        let t = tournament(
            vec![
                Round {
                    games: vec![game(0, 1, GameResult::BlackWins)],
                    byes: vec![Bye {
                        player: 2,
                        kind: ByeKind::ZeroPoint,
                    }],
                },
                Round {
                    games: vec![game(0, 2, GameResult::WhiteWins)],
                    byes: vec![Bye {
                        player: 1,
                        kind: ByeKind::ZeroPoint,
                    }],
                },
            ],
            3,
        );
        let s = standings(&t, &[TieBreak::DirectEncounter]).expect("standings");
        assert_eq!(s[0].player, 1);
        assert_eq!(s[0].rank, 1);
        assert_eq!(s[1].player, 0);
        assert_eq!(s[1].rank, 2);
    }
}
