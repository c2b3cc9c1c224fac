//! Invariants of the pairings on random tournaments played out round by round: whatever
//! the results, absences and byes, a Dutch pairing never repeats a game, never gives two
//! players with the same absolute colour preference that colour clash (but for the
//! last-round top-scorer exception), gives at most one bye and only to a player who has
//! had no bye or win without playing, and pairs exactly the players present. Also: TRF
//! files round-trip, standings rank everyone, arena waves pair everyone once.

use banco_pairing::arena::{ArenaPlayer, pair_wave};
use banco_pairing::dutch::{self, PairError};
use banco_pairing::tiebreak::{TieBreak, standings};
use banco_pairing::tournament::History;
use banco_pairing::{Bye, ByeKind, Colour, Game, GameResult, Player, Round, Tournament, trf};
use proptest::prelude::*;

/// A small deterministic generator for the choices inside one simulated event.
struct Dice(u64);

impl Dice {
    fn roll(&mut self, sides: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % sides.max(1)
    }
}

/// Colour preference data of a player, recomputed from scratch (independently of the
/// crate's own code): (imbalance, preference, absolute).
fn preference(t: &Tournament, p: usize) -> (u32, Option<Colour>, bool) {
    let h = History::of(t).expect("a valid history");
    let colours: Vec<Colour> = h.entries[p]
        .iter()
        .filter(|e| e.played)
        .filter_map(|e| e.colour)
        .collect();
    let whites = colours.iter().filter(|&&c| c == Colour::White).count() as i64;
    let blacks = colours.len() as i64 - whites;
    let last_two_same =
        colours.len() >= 2 && colours[colours.len() - 1] == colours[colours.len() - 2];
    let imbalance = (whites - blacks).unsigned_abs() as u32;
    let absolute = imbalance > 1 || last_two_same;
    let pref = if imbalance > 1 {
        Some(if whites > blacks {
            Colour::Black
        } else {
            Colour::White
        })
    } else if last_two_same {
        colours.last().map(|c| c.other())
    } else if imbalance == 1 {
        Some(if whites > blacks {
            Colour::Black
        } else {
            Colour::White
        })
    } else {
        colours.last().map(|c| c.other())
    };
    (imbalance, pref, absolute)
}

/// Plays out an event; checks every pairing; returns the final tournament.
fn play_out(players: usize, rounds: u32, seed: u64, absences: u64) -> Tournament {
    let mut dice = Dice(seed | 1);
    let mut t = Tournament::new(
        (0..players)
            .map(|i| Player::new(format!("Player {i}"), 2400 - i as u16))
            .collect(),
        rounds,
    );
    if dice.roll(2) == 0 {
        t.initial_colour = Colour::Black;
    }
    // Some late entries and withdrawals.
    for p in &mut t.players {
        if dice.roll(10) == 0 {
            p.joins = 1 + dice.roll(u64::from(rounds)) as u32;
        }
    }
    for r in 0..rounds {
        let round_number = r + 1;
        if dice.roll(12) == 0 {
            let p = dice.roll(players as u64) as usize;
            t.players[p].withdrawn = true;
        }
        let mut byes = Vec::new();
        for p in 0..players {
            if dice.roll(100) < absences {
                let kind = if dice.roll(2) == 0 {
                    ByeKind::HalfPoint
                } else {
                    ByeKind::ZeroPoint
                };
                byes.push(Bye { player: p, kind });
            }
        }
        let present: Vec<usize> = (0..players)
            .filter(|&p| {
                !t.players[p].withdrawn
                    && t.players[p].joins <= round_number
                    && !byes.iter().any(|b| b.player == p)
            })
            .collect();
        let pairing = match dutch::pair(&t, &byes) {
            Ok(p) => p,
            Err(PairError::NoValidPairing) => break,
            Err(e) => panic!("round {round_number}: {e}"),
        };
        let history = History::of(&t).expect("a valid history");
        // Everyone present exactly once, nobody else.
        let mut seen = vec![0; players];
        for b in &pairing.boards {
            seen[b.white] += 1;
            seen[b.black] += 1;
        }
        if let Some(p) = pairing.bye {
            seen[p] += 1;
        }
        for (p, &count) in seen.iter().enumerate() {
            assert_eq!(
                count,
                usize::from(present.contains(&p)),
                "round {round_number}: player {p}"
            );
        }
        assert_eq!(pairing.bye.is_some(), present.len() % 2 == 1);
        // The bye: not to a player who had a bye or a win without playing.
        if let Some(p) = pairing.bye {
            let earlier = &history.entries[p];
            assert!(
                !earlier.iter().any(|e| !e.played
                    && (e.is_pairing_bye()
                        || e.outcome == banco_pairing::tournament::Outcome::Win)),
                "round {round_number}: bye to {p} again"
            );
        }
        let last = round_number >= rounds;
        let top = r * 10 / 2;
        for b in &pairing.boards {
            // No game twice.
            assert!(
                !history.entries[b.white]
                    .iter()
                    .any(|e| e.played && e.opponent == Some(b.black)),
                "round {round_number}: {} and {} meet again",
                b.white,
                b.black
            );
            // No clash of absolute colour preferences.
            let (_, pw, aw) = preference(&t, b.white);
            let (_, pb, ab) = preference(&t, b.black);
            let top_scorer = |p: usize| history.score(p, &t.scoring).0 > top;
            if aw && ab && pw == pb && !(last && (top_scorer(b.white) || top_scorer(b.black))) {
                panic!(
                    "round {round_number}: {} and {} both must have {pw:?}",
                    b.white, b.black
                );
            }
            // An absolute preference is granted (outside that exception).
            if aw && !(last && (top_scorer(b.white) || top_scorer(b.black))) {
                assert_eq!(
                    pw,
                    Some(Colour::White),
                    "round {round_number}: {} wanted white",
                    b.white
                );
            }
            if ab && !(last && (top_scorer(b.white) || top_scorer(b.black))) {
                assert_eq!(
                    pb,
                    Some(Colour::Black),
                    "round {round_number}: {} wanted black",
                    b.black
                );
            }
        }
        // Play the round.
        let mut round = Round {
            games: Vec::new(),
            byes,
        };
        for b in &pairing.boards {
            let result = match dice.roll(20) {
                0 => GameResult::WhiteWinsByForfeit,
                1 => GameResult::BlackWinsByForfeit,
                2..=7 => GameResult::Draw,
                8..=13 => GameResult::WhiteWins,
                _ => GameResult::BlackWins,
            };
            round.games.push(Game {
                white: b.white,
                black: b.black,
                result,
            });
        }
        if let Some(p) = pairing.bye {
            round.byes.push(Bye {
                player: p,
                kind: ByeKind::PairingAllocated,
            });
        }
        t.rounds.push(round);
    }
    t
}

/// Whether the free players can all be paired (but one, when odd) without a rematch.
fn rematch_free_pairing_exists(free: &[ArenaPlayer]) -> bool {
    fn rematch(a: &ArenaPlayer, b: &ArenaPlayer) -> bool {
        a.last_opponent == Some(b.id) || b.last_opponent == Some(a.id)
    }
    fn go(left: &[usize], free: &[ArenaPlayer], may_wait: bool) -> bool {
        let Some((&first, rest)) = left.split_first() else {
            return true;
        };
        if may_wait && go(rest, free, false) {
            return true;
        }
        rest.iter().enumerate().any(|(k, &other)| {
            if rematch(&free[first], &free[other]) {
                return false;
            }
            let mut remaining = rest.to_vec();
            remaining.remove(k);
            go(&remaining, free, may_wait)
        })
    }
    let all: Vec<usize> = (0..free.len()).collect();
    go(&all, free, free.len() % 2 == 1)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn arena_waves_avoid_rematches_whenever_possible(
        lasts in proptest::collection::vec((0u32..5, 0usize..9), 2..9),
    ) {
        let free: Vec<ArenaPlayer> = lasts
            .iter()
            .enumerate()
            .map(|(id, &(score, last))| ArenaPlayer {
                id,
                score,
                rating: 1500,
                last_opponent: (last < lasts.len() && last != id).then_some(last),
                colour_balance: 0,
            })
            .collect();
        let wave = pair_wave(&free);
        let rematches = wave
            .boards
            .iter()
            .filter(|b| {
                free[b.white].last_opponent == Some(b.black)
                    || free[b.black].last_opponent == Some(b.white)
            })
            .count();
        if rematch_free_pairing_exists(&free) {
            prop_assert_eq!(rematches, 0, "{:?} -> {:?}", free, wave);
        }
    }

    #[test]
    fn dutch_pairings_keep_the_absolute_criteria(
        players in 2usize..40,
        rounds in 1u32..10,
        seed in any::<u64>(),
        absences in 0u64..15,
    ) {
        let t = play_out(players, rounds, seed, absences);
        // What was played re-pairs the same way.
        prop_assert!(dutch::recheck(&t).is_empty());
        // And round-trips through a TRF file.
        let text = trf::write("Random", &t, &[]).expect("writable");
        let finished = t.rounds.len() as u32 >= t.total_rounds;
        let back = if finished { trf::read(&text) } else { trf::read_next(&text) };
        let back = back.expect("readable").tournament;
        prop_assert_eq!(History::of(&back).expect("valid"), History::of(&t).expect("valid"));
        prop_assert_eq!(back.initial_colour, t.initial_colour);
        // Standings rank everybody once, places never going down.
        let order = [TieBreak::BuchholzCut1, TieBreak::Buchholz, TieBreak::SonnebornBerger,
            TieBreak::DirectEncounter, TieBreak::Wins];
        let lines = standings(&t, &order).expect("standings");
        let mut seen: Vec<usize> = lines.iter().map(|l| l.player).collect();
        seen.sort_unstable();
        prop_assert_eq!(seen, (0..players).collect::<Vec<_>>());
        prop_assert!(lines.windows(2).all(|w| w[0].rank <= w[1].rank && w[0].score >= w[1].score));
    }

    #[test]
    fn arena_waves_pair_every_free_player_once(
        scores in proptest::collection::vec((0u32..40, 0usize..60), 0..60),
    ) {
        let free: Vec<ArenaPlayer> = scores
            .iter()
            .enumerate()
            .map(|(id, &(score, last))| ArenaPlayer {
                id,
                score,
                rating: 1500,
                last_opponent: (last < scores.len() && last != id).then_some(last),
                colour_balance: (score % 3) as i32 - 1,
            })
            .collect();
        let wave = pair_wave(&free);
        let mut count = vec![0; free.len()];
        for b in &wave.boards {
            prop_assert!(b.white != b.black);
            count[b.white] += 1;
            count[b.black] += 1;
        }
        if let Some(w) = wave.waiting {
            count[w] += 1;
        }
        prop_assert!(count.iter().all(|&c| c == 1));
        prop_assert_eq!(wave.waiting.is_some(), free.len() % 2 == 1);
    }
}
