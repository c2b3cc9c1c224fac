//! Round robins by the FIDE Berger tables (Handbook C.05, Annex 1).
//!
//! For `n` players (with an odd count, the highest number, `n + 1`, is the bye), round 1
//! is `1-n, 2-(n-1), 3-(n-2), ...`, the first-named player taking white. Each next round
//! adds `n/2` to every number except `n`, counting round `1..n-1` (so `n-1` is followed
//! by 1), and player `n` swaps sides: black in odd rounds, white in even ones. Player `n`'s
//! board is listed first. This reproduces the published tables (3-4 up to 15-16 players)
//! and extends them the same way to 20 and beyond.
//!
//! In a double round robin the second cycle repeats the first with colours reversed. The
//! Annex recommends swapping the last two rounds of the first cycle, so that nobody has
//! the same colour three times in a row across the cycles; [`RoundRobin::double`] does,
//! [`RoundRobin::double_as_tables`] keeps the tables' order.

use thiserror::Error;

use crate::tournament::{Board, RoundPairing};

/// A round robin schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundRobin {
    /// Players, numbered by their drawn numbers (index 0 is number 1).
    pub players: usize,
    /// Two cycles (each pair meets twice, once with each colour).
    pub double: bool,
    /// Swap the last two rounds of the first cycle (double round robins).
    pub swap_last_two: bool,
}

/// A round robin that cannot be scheduled as asked.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum BergerError {
    /// Fewer than two players.
    #[error("a round robin needs at least 2 players, not {0}")]
    TooFewPlayers(usize),
    /// A round outside the schedule.
    #[error("round {round} does not exist: the schedule has {rounds} rounds")]
    NoSuchRound {
        /// The round asked for (1-based).
        round: usize,
        /// Rounds in the schedule.
        rounds: usize,
    },
}

impl RoundRobin {
    /// A single round robin.
    pub fn single(players: usize) -> Self {
        RoundRobin {
            players,
            double: false,
            swap_last_two: false,
        }
    }

    /// A double round robin, with the Annex's recommended swap of the first cycle's last
    /// two rounds.
    pub fn double(players: usize) -> Self {
        RoundRobin {
            players,
            double: true,
            swap_last_two: true,
        }
    }

    /// A double round robin in the tables' own order.
    pub fn double_as_tables(players: usize) -> Self {
        RoundRobin {
            players,
            double: true,
            swap_last_two: false,
        }
    }

    /// The table size: the number of players, plus one for the bye when odd.
    fn size(&self) -> usize {
        self.players + self.players % 2
    }

    /// Rounds in one cycle.
    pub fn rounds_per_cycle(&self) -> usize {
        self.size().saturating_sub(1)
    }

    /// Rounds in the schedule.
    pub fn rounds(&self) -> usize {
        self.rounds_per_cycle() * if self.double { 2 } else { 1 }
    }

    /// The pairing of round `round` (1-based).
    pub fn round(&self, round: usize) -> Result<RoundPairing, BergerError> {
        if self.players < 2 {
            return Err(BergerError::TooFewPlayers(self.players));
        }
        let per_cycle = self.rounds_per_cycle();
        if round == 0 || round > self.rounds() {
            return Err(BergerError::NoSuchRound {
                round,
                rounds: self.rounds(),
            });
        }
        let second_cycle = round > per_cycle;
        let mut table_round = if second_cycle {
            round - per_cycle
        } else {
            round
        };
        if self.double && self.swap_last_two && per_cycle >= 2 && !second_cycle {
            if table_round == per_cycle {
                table_round = per_cycle - 1;
            } else if table_round == per_cycle - 1 {
                table_round = per_cycle;
            }
        }
        let mut pairing = table(self.size(), table_round);
        if second_cycle {
            for b in &mut pairing {
                *b = (b.1, b.0);
            }
        }
        // Table numbers are 1-based; the bye is the number past the last player.
        let mut out = RoundPairing::default();
        for (white, black) in pairing {
            if white > self.players {
                out.bye = Some(black - 1);
            } else if black > self.players {
                out.bye = Some(white - 1);
            } else {
                out.boards.push(Board {
                    white: white - 1,
                    black: black - 1,
                });
            }
        }
        Ok(out)
    }

    /// Every round, in order.
    pub fn schedule(&self) -> Result<Vec<RoundPairing>, BergerError> {
        (1..=self.rounds()).map(|r| self.round(r)).collect()
    }
}

/// Round `round` (1-based) of the Berger table for `n` (even) numbers: `(white, black)`
/// pairs of table numbers (1-based), board 1 first.
pub fn table(n: usize, round: usize) -> Vec<(usize, usize)> {
    let half = n / 2;
    let ring = n - 1;
    let turn = (round - 1) * half;
    let at = |zero_based: usize| (zero_based + turn) % ring + 1;
    let mut boards = Vec::with_capacity(half);
    let first = at(0);
    boards.push(if round % 2 == 1 {
        (first, n)
    } else {
        (n, first)
    });
    for j in 2..=half {
        boards.push((at(j - 1), at(n - j)));
    }
    boards
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parses "1-4 2-3 / 4-3 1-2 / ..." into rounds of (white, black).
    fn published(text: &str) -> Vec<Vec<(usize, usize)>> {
        text.split('/')
            .map(|round| {
                round
                    .split_whitespace()
                    .map(|b| {
                        let (w, k) = b.split_once('-').expect("a board");
                        (w.parse().expect("a number"), k.parse().expect("a number"))
                    })
                    .collect()
            })
            .collect()
    }

    // The tables as printed in FIDE Handbook C.05 Annex 1.
    const FOUR: &str = "1-4 2-3 / 4-3 1-2 / 2-4 3-1";
    const SIX: &str = "1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 / 6-5 1-4 2-3 / 3-6 4-2 5-1";
    const EIGHT: &str = "1-8 2-7 3-6 4-5 / 8-5 6-4 7-3 1-2 / 2-8 3-1 4-7 5-6 / \
                         8-6 7-5 1-4 2-3 / 3-8 4-2 5-1 6-7 / 8-7 1-6 2-5 3-4 / 4-8 5-3 6-2 7-1";
    const TEN: &str = "1-10 2-9 3-8 4-7 5-6 / 10-6 7-5 8-4 9-3 1-2 / 2-10 3-1 4-9 5-8 6-7 / \
                       10-7 8-6 9-5 1-4 2-3 / 3-10 4-2 5-1 6-9 7-8 / 10-8 9-7 1-6 2-5 3-4 / \
                       4-10 5-3 6-2 7-1 8-9 / 10-9 1-8 2-7 3-6 4-5 / 5-10 6-4 7-3 8-2 9-1";

    #[test]
    fn tables_match_the_published_ones() {
        for (n, text) in [(4, FOUR), (6, SIX), (8, EIGHT), (10, TEN)] {
            let expected = published(text);
            assert_eq!(expected.len(), n - 1);
            for (r, boards) in expected.iter().enumerate() {
                assert_eq!(&table(n, r + 1), boards, "{n} players, round {}", r + 1);
            }
        }
    }

    #[test]
    fn an_odd_count_gives_the_highest_number_a_bye() {
        // Five players use the six-player table, number 6 being the bye.
        let rr = RoundRobin::single(5);
        let r1 = rr.round(1).expect("round 1");
        assert_eq!(r1.bye, Some(0));
        assert_eq!(
            r1.boards,
            vec![Board { white: 1, black: 4 }, Board { white: 2, black: 3 }]
        );
        let r2 = rr.round(2).expect("round 2");
        assert_eq!(r2.bye, Some(3));
        assert_eq!(r2.boards[0], Board { white: 4, black: 2 });
    }

    #[test]
    fn every_size_from_3_to_20_is_a_proper_round_robin() {
        for players in 3..=20 {
            for rr in [RoundRobin::single(players), RoundRobin::double(players)] {
                let schedule = rr.schedule().expect("a schedule");
                let n = players + players % 2;
                assert_eq!(schedule.len(), (n - 1) * if rr.double { 2 } else { 1 });
                let mut meetings = vec![vec![0; players]; players];
                let mut whites = vec![vec![0; players]; players];
                let mut byes = vec![0; players];
                for round in &schedule {
                    let mut seen = vec![false; players];
                    for b in &round.boards {
                        assert!(!seen[b.white] && !seen[b.black], "someone plays twice");
                        seen[b.white] = true;
                        seen[b.black] = true;
                        meetings[b.white][b.black] += 1;
                        meetings[b.black][b.white] += 1;
                        whites[b.white][b.black] += 1;
                    }
                    if let Some(p) = round.bye {
                        assert!(!seen[p]);
                        seen[p] = true;
                        byes[p] += 1;
                    }
                    assert!(seen.iter().all(|&s| s), "everyone plays or has the bye");
                }
                let cycles = if rr.double { 2 } else { 1 };
                for a in 0..players {
                    for b in 0..players {
                        if a != b {
                            assert_eq!(meetings[a][b], cycles, "{players}: {a} and {b}");
                            if rr.double {
                                assert_eq!(whites[a][b], 1, "one white each way");
                            }
                        }
                    }
                    assert_eq!(byes[a], if players % 2 == 1 { cycles } else { 0 });
                }
            }
        }
    }

    #[test]
    fn the_last_number_alternates_colours_and_the_tables_give_colours() {
        for n in (4..=20).step_by(2) {
            for round in 1..n {
                let boards = table(n, round);
                let (w, b) = boards[0];
                if round % 2 == 1 {
                    assert_eq!(b, n, "{n}: round {round}: number {n} has black");
                } else {
                    assert_eq!(w, n, "{n}: round {round}: number {n} has white");
                }
                // Every other board: in round 1 the lower number has white.
                if round == 1 {
                    for (j, &(w, b)) in boards.iter().enumerate() {
                        assert_eq!((w, b), (j + 1, n - j));
                    }
                }
            }
            // Nobody but the ends of the table has the same colour twice running in a
            // cycle, and nobody three times.
            let rr = RoundRobin::double(n);
            let schedule = rr.schedule().expect("a schedule");
            for p in 0..n {
                let colours: Vec<bool> = schedule
                    .iter()
                    .map(|r| r.boards.iter().any(|b| b.white == p))
                    .collect();
                for w in colours.windows(3) {
                    assert!(
                        !(w[0] == w[1] && w[1] == w[2]),
                        "{n}: player {} thrice",
                        p + 1
                    );
                }
            }
        }
    }

    #[test]
    fn a_double_round_robin_reverses_colours_and_swaps_the_first_cycles_end() {
        let rr = RoundRobin::double(6);
        let per = rr.rounds_per_cycle();
        let plain = RoundRobin::double_as_tables(6);
        assert_eq!(rr.round(per).expect("r"), plain.round(per - 1).expect("r"));
        assert_eq!(rr.round(per - 1).expect("r"), plain.round(per).expect("r"));
        let first = plain.round(1).expect("r");
        let again = plain.round(per + 1).expect("r");
        for (a, b) in first.boards.iter().zip(&again.boards) {
            assert_eq!((a.white, a.black), (b.black, b.white));
        }
        assert!(RoundRobin::single(1).round(1).is_err());
        assert!(RoundRobin::single(4).round(4).is_err());
    }
}
