//! Re-pairing a finished (or running) tournament round by round, as bbpPairings' `-c`
//! does: each round is paired again from the rounds before it and the byes it recorded,
//! and compared board for board (colours included) with what was played.

use super::{PairError, pair};
use crate::tournament::{Board, Bye, ByeKind, Round, RoundPairing, Tournament};

/// A round whose recorded pairing differs from the one the rules give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Discrepancy {
    /// The round (1-based).
    pub round: usize,
    /// What was recorded (boards as played; forfeited games count as paired).
    pub recorded: RoundPairing,
    /// What the Dutch rules give, or why they give nothing.
    pub paired: Result<RoundPairing, PairError>,
}

/// The recorded pairing of a round: its boards and its pairing-allocated bye.
pub fn recorded(round: &Round) -> RoundPairing {
    RoundPairing {
        boards: round
            .games
            .iter()
            .map(|g| Board {
                white: g.white,
                black: g.black,
            })
            .collect(),
        bye: round
            .byes
            .iter()
            .find(|b| b.kind == ByeKind::PairingAllocated)
            .map(|b| b.player),
    }
}

/// Re-pairs every round of `t`; returns the rounds that differ. Who was there is read
/// from each round's record (players in no game and without the pairing-allocated bye
/// were absent), not from the players' current withdrawn and entry-round marks.
pub fn recheck(t: &Tournament) -> Vec<Discrepancy> {
    let mut out = Vec::new();
    let mut before = t.clone();
    for p in &mut before.players {
        p.withdrawn = false;
        p.joins = 1;
    }
    for (r, round) in t.rounds.iter().enumerate() {
        before.rounds = t.rounds[..r].to_vec();
        let mut present = vec![false; t.players.len()];
        for g in &round.games {
            for p in [g.white, g.black] {
                if let Some(x) = present.get_mut(p) {
                    *x = true;
                }
            }
        }
        let mut byes: Vec<Bye> = Vec::new();
        for b in &round.byes {
            match b.kind {
                ByeKind::PairingAllocated => {
                    if let Some(x) = present.get_mut(b.player) {
                        *x = true;
                    }
                }
                _ => byes.push(*b),
            }
        }
        for (p, &here) in present.iter().enumerate() {
            if !here && !byes.iter().any(|b| b.player == p) {
                byes.push(Bye {
                    player: p,
                    kind: ByeKind::ZeroPoint,
                });
            }
        }
        let recorded = recorded(round);
        let paired = pair(&before, &byes);
        let same = match &paired {
            Ok(p) => same_pairing(p, &recorded),
            Err(_) => false,
        };
        if !same {
            out.push(Discrepancy {
                round: r + 1,
                recorded,
                paired,
            });
        }
    }
    out
}

/// Whether two pairings have the same boards (in any order) and the same bye.
pub fn same_pairing(a: &RoundPairing, b: &RoundPairing) -> bool {
    let mut x = a.boards.clone();
    let mut y = b.boards.clone();
    let key = |b: &Board| (b.white, b.black);
    x.sort_by_key(key);
    y.sort_by_key(key);
    x == y && a.bye == b.bye
}
