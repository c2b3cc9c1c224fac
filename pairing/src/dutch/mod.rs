//! The FIDE Dutch system (Handbook C.04.3, the 2025 rules) for Swiss tournaments.
//!
//! - [`pair`]: the next round's boards and bye from a [`Tournament`]'s history.
//! - `entrant`: each player's score, colour preference, floats and bye eligibility.
//! - `weights`: the quality criteria packed into matching weights.
//! - `brackets`: the bracket-by-bracket procedure over one warm-started matching.
//! - `colours`: who takes white on each board (C.04.3 article 5).
//! - [`recheck`]: re-pair every recorded round and report differences (bbpPairings' `-c`).
//!
//! The approach, and the checks it must agree with, come from bbpPairings, the engine
//! FIDE endorses for the Dutch system: the tests re-pair tournaments it generated and
//! expect its pairings board for board.

mod brackets;
mod colours;
mod entrant;
mod recheck;
mod weights;

pub use recheck::{Discrepancy, recheck, recorded, same_pairing};

use std::collections::BTreeMap;

use thiserror::Error;

use crate::tournament::{
    Board, Bye, ByeKind, Colour, History, HistoryError, RoundPairing, Tournament,
};
use entrant::Entrant;
use weights::Layout;

/// Why a round cannot be paired.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum PairError {
    /// The recorded rounds are inconsistent.
    #[error(transparent)]
    History(#[from] HistoryError),
    /// Every round of the event has been paired already.
    #[error("all {total} rounds have been paired; add a round to pair another")]
    AllRoundsPaired {
        /// The event's number of rounds.
        total: u32,
    },
    /// A bye request names a player who is not entered, or asks for the
    /// pairing-allocated bye, which only the pairing gives.
    #[error(
        "a bye before the round can be half-point, full-point or zero-point, for an entered player (player {player})"
    )]
    BadByeRequest {
        /// The player named (1-based pairing number).
        player: usize,
    },
    /// No pairing meets the absolute criteria (new opponents only, one bye at most and
    /// not to a player who had one, no clash of absolute colour preferences).
    #[error(
        "no pairing of this round meets the absolute criteria (new opponents, one bye at most, absolute colours)"
    )]
    NoValidPairing,
    /// The round is too large for the weights this build supports.
    #[error("the round is too large to pair ({players} players in {groups} score groups)")]
    TooLarge {
        /// Players to pair.
        players: usize,
        /// Distinct scores among them.
        groups: usize,
    },
}

/// Pairs the next round of `t` by the Dutch system. `byes` are the byes known before the
/// round (half-point byes asked for, absences); withdrawn players and players whose entry
/// round has not come are not paired either.
pub fn pair(t: &Tournament, byes: &[Bye]) -> Result<RoundPairing, PairError> {
    let history = History::of(t)?;
    let played = t.rounds.len();
    if played as u64 >= u64::from(t.total_rounds) {
        return Err(PairError::AllRoundsPaired {
            total: t.total_rounds,
        });
    }
    let count = t.players.len();
    let mut absent = vec![false; count];
    for bye in byes {
        if bye.player >= count || bye.kind == ByeKind::PairingAllocated {
            return Err(PairError::BadByeRequest {
                player: bye.player.saturating_add(1),
            });
        }
        absent[bye.player] = true;
    }
    for (i, p) in t.players.iter().enumerate() {
        if p.withdrawn || (p.joins as usize) > played + 1 {
            absent[i] = true;
        }
    }
    // Effective pairing numbers: players here now or paired before, in pairing order.
    let mut ranks = vec![usize::MAX; count];
    let mut next_rank = 0;
    for (i, rank) in ranks.iter_mut().enumerate() {
        if !absent[i] || history.entries[i].iter().any(|e| e.paired) {
            *rank = next_rank;
            next_rank += 1;
        }
    }
    let scores = entrant::scores_before(&history, &t.scoring);
    let mut players: Vec<Entrant> = (0..count)
        .filter(|&i| !absent[i])
        .map(|i| Entrant::new(i, ranks[i], &history, &t.scoring, &scores))
        .collect();
    players.sort_by(|a, b| b.now().cmp(&a.now()).then(a.rank.cmp(&b.rank)));

    let partners = match_players(t, &history, &players)?;
    publish(t, &players, &partners)
}

/// Runs the procedure, sizing the weights for the round.
fn match_players(
    t: &Tournament,
    history: &History,
    players: &[Entrant],
) -> Result<Vec<Option<usize>>, PairError> {
    let n = players.len();
    // Score groups, from the lowest: each gets a counter wide enough for its size.
    let mut shifts: BTreeMap<u32, u32> = BTreeMap::new();
    let mut groups_bits = 0u32;
    let mut largest = 0usize;
    let mut i = n;
    while i > 0 {
        let score = players[i - 1].now();
        let mut j = i;
        while j > 0 && players[j - 1].now() == score {
            j -= 1;
        }
        let size = i - j;
        shifts.insert(score, groups_bits);
        groups_bits += bits(size);
        largest = largest.max(size);
        i = j;
    }
    let layout = Layout::new(bits(largest), groups_bits, history.rounds());
    let shift = |score: u32| shifts.get(&score).copied().unwrap_or(0);

    // Absolute criteria: new opponents only, forbidden pairs, and no two players with
    // the same absolute colour preference (except top scorers in the last round).
    let mut met = vec![false; t.players.len() * t.players.len()];
    let size = t.players.len();
    for (p, line) in history.entries.iter().enumerate() {
        for e in line.iter().filter(|e| e.played) {
            if let Some(o) = e.opponent {
                met[p * size + o] = true;
                met[o * size + p] = true;
            }
        }
    }
    for &(a, b) in &t.forbidden {
        if a < size && b < size {
            met[a * size + b] = true;
            met[b * size + a] = true;
        }
    }
    let played = history.rounds() as u32;
    let last_round = played + 1 >= t.total_rounds;
    let best = t.scoring.win.0.max(t.scoring.draw.0);
    let top_scorer_above = (played * best) / 2;
    let mut may_meet = vec![false; n * n];
    for u in 0..n {
        for v in 0..n {
            if u == v {
                continue;
            }
            let (a, b) = (&players[u], &players[v]);
            let colours_ok = !a.absolute()
                || !b.absolute()
                || a.preference != b.preference
                || (last_round && (a.now() > top_scorer_above || b.now() > top_scorer_above));
            may_meet[u * n + v] = !met[a.id * size + b.id] && colours_ok;
        }
    }
    let setup = brackets::Setup {
        players,
        may_meet: &may_meet,
        layout: &layout,
        shift: &shift,
        odd: n % 2 == 1,
    };
    // Weights need the fields plus room for doubling and duals in the matcher.
    let limbs = (layout.max_bits() + 8).div_ceil(64) as usize;
    let result = match limbs {
        0..=1 => brackets::pair::<1>(&setup),
        2 => brackets::pair::<2>(&setup),
        3 => brackets::pair::<3>(&setup),
        4 => brackets::pair::<4>(&setup),
        5..=6 => brackets::pair::<6>(&setup),
        7..=8 => brackets::pair::<8>(&setup),
        9..=12 => brackets::pair::<12>(&setup),
        13..=16 => brackets::pair::<16>(&setup),
        17..=24 => brackets::pair::<24>(&setup),
        25..=32 => brackets::pair::<32>(&setup),
        33..=48 => brackets::pair::<48>(&setup),
        49..=64 => brackets::pair::<64>(&setup),
        _ => {
            return Err(PairError::TooLarge {
                players: n,
                groups: shifts.len(),
            });
        }
    };
    result.map_err(|brackets::NoPairing| PairError::NoValidPairing)
}

/// The number of binary digits of `x`.
fn bits(x: usize) -> u32 {
    usize::BITS - x.leading_zeros()
}

/// Colours and board order (C.04.3 article 5; boards by the higher player's score, then
/// the lower player's, then the higher player's pairing number).
fn publish(
    t: &Tournament,
    players: &[Entrant],
    partners: &[Option<usize>],
) -> Result<RoundPairing, PairError> {
    // (higher vertex, lower vertex, board); vertices are in score order.
    let mut boards: Vec<(usize, usize, Board)> = Vec::new();
    let mut bye = None;
    for (v, partner) in partners.iter().enumerate() {
        match *partner {
            Some(u) => {
                // Colours are decided from the side of the lower pairing number.
                let (a, b) = (&players[v], &players[u]);
                if a.id < b.id {
                    let board = match colours::colour_of(a, b, t.initial_colour) {
                        Colour::White => Board {
                            white: a.id,
                            black: b.id,
                        },
                        Colour::Black => Board {
                            white: b.id,
                            black: a.id,
                        },
                    };
                    boards.push((v.min(u), v.max(u), board));
                }
            }
            None if bye.is_none() => bye = Some(players[v].id),
            // The procedure leaves at most one player over; two would be a bug, not a bye.
            None => return Err(PairError::NoValidPairing),
        }
    }
    boards.sort_by_key(|&(higher, lower, _)| {
        (
            std::cmp::Reverse(players[higher].now()),
            std::cmp::Reverse(players[lower].now()),
            players[higher].rank,
        )
    });
    Ok(RoundPairing {
        boards: boards.into_iter().map(|(_, _, b)| b).collect(),
        bye,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{Game, GameResult, Player, Points, Round};

    fn event(players: usize, rounds: u32) -> Tournament {
        Tournament::new(
            (0..players)
                .map(|i| Player::new(format!("P{}", i + 1), 2500 - i as u16))
                .collect(),
            rounds,
        )
    }

    fn boards(p: &RoundPairing) -> Vec<(usize, usize)> {
        p.boards
            .iter()
            .map(|b| (b.white + 1, b.black + 1))
            .collect()
    }

    /// Plays a pairing: White wins every game.
    fn play(t: &mut Tournament, p: &RoundPairing, byes: &[Bye]) {
        let mut round = Round {
            games: p
                .boards
                .iter()
                .map(|b| Game {
                    white: b.white,
                    black: b.black,
                    result: GameResult::WhiteWins,
                })
                .collect(),
            byes: byes.to_vec(),
        };
        if let Some(b) = p.bye {
            round.byes.push(Bye {
                player: b,
                kind: ByeKind::PairingAllocated,
            });
        }
        t.rounds.push(round);
    }

    #[test]
    fn round_one_pairs_the_top_half_against_the_bottom_half() {
        let t = event(8, 5);
        let p = pair(&t, &[]).expect("a pairing");
        assert_eq!(boards(&p), vec![(1, 5), (6, 2), (3, 7), (8, 4)]);
        assert_eq!(p.bye, None);
        let mut black_first = t.clone();
        black_first.initial_colour = Colour::Black;
        let p = pair(&black_first, &[]).expect("a pairing");
        assert_eq!(boards(&p), vec![(5, 1), (2, 6), (7, 3), (4, 8)]);
    }

    #[test]
    fn the_bye_goes_to_the_lowest_player_and_never_twice() {
        let mut t = event(5, 4);
        let p = pair(&t, &[]).expect("round 1");
        assert_eq!(p.bye, Some(4));
        assert_eq!(boards(&p), vec![(1, 3), (4, 2)]);
        play(&mut t, &p, &[]);
        // Player 5 now has a point; the bye goes to a lowest player who has not had one.
        let p = pair(&t, &[]).expect("round 2");
        assert_ne!(p.bye, Some(4));
        assert!(p.bye.is_some());
    }

    #[test]
    fn requested_byes_withdrawals_and_late_entries_are_not_paired() {
        let mut t = event(7, 5);
        t.players[5].withdrawn = true;
        t.players[6].joins = 2;
        let byes = [Bye {
            player: 1,
            kind: ByeKind::HalfPoint,
        }];
        let p = pair(&t, &byes).expect("round 1");
        let paired: Vec<usize> = p
            .boards
            .iter()
            .flat_map(|b| [b.white, b.black])
            .chain(p.bye)
            .collect();
        assert_eq!(paired.len(), 4);
        for absent in [1, 5, 6] {
            assert!(
                !paired.contains(&absent),
                "player {} was paired",
                absent + 1
            );
        }
        play(&mut t, &p, &byes);
        let p = pair(&t, &[]).expect("round 2");
        let paired: Vec<usize> = p
            .boards
            .iter()
            .flat_map(|b| [b.white, b.black])
            .chain(p.bye)
            .collect();
        assert!(paired.contains(&6), "the late entry plays from round 2");
        assert!(paired.contains(&1), "the half-point bye was for one round");
        assert!(!paired.contains(&5));
    }

    #[test]
    fn the_pairing_bye_is_worth_what_the_event_says() {
        let mut t = event(3, 3);
        t.scoring.pairing_bye = Points(5);
        let p = pair(&t, &[]).expect("round 1");
        play(&mut t, &p, &[]);
        let history = History::of(&t).expect("a history");
        let bye = p.bye.expect("an odd count has a bye");
        assert_eq!(history.score(bye, &t.scoring), Points(5));
    }

    #[test]
    fn impossible_rounds_and_bad_requests_are_errors() {
        let mut t = event(2, 3);
        let p = pair(&t, &[]).expect("round 1");
        play(&mut t, &p, &[]);
        assert_eq!(
            pair(&t, &[]),
            Err(PairError::NoValidPairing),
            "they have met"
        );
        let mut done = event(2, 1);
        let p = pair(&done, &[]).expect("round 1");
        play(&mut done, &p, &[]);
        assert_eq!(
            pair(&done, &[]),
            Err(PairError::AllRoundsPaired { total: 1 })
        );
        let t = event(4, 3);
        let asked = [Bye {
            player: 0,
            kind: ByeKind::PairingAllocated,
        }];
        assert_eq!(
            pair(&t, &asked),
            Err(PairError::BadByeRequest { player: 1 })
        );
        let unknown = [Bye {
            player: 9,
            kind: ByeKind::HalfPoint,
        }];
        assert_eq!(
            pair(&t, &unknown),
            Err(PairError::BadByeRequest { player: 10 })
        );
    }
}
