//! Re-pairing a finished (or running) tournament round by round, as bbpPairings' `-c`
//! does: each round is paired again from the rounds before it and the byes it recorded,
//! and compared board for board (colours included) with what was played.

use super::{PairError, pair};
use crate::tournament::{Board, ByeKind, Round, RoundPairing, Tournament};

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

/// Re-pairs every round of `t`; returns the rounds that differ.
pub fn recheck(t: &Tournament) -> Vec<Discrepancy> {
    let mut out = Vec::new();
    for (r, round) in t.rounds.iter().enumerate() {
        let mut before = t.clone();
        before.rounds.truncate(r);
        let byes: Vec<_> = round
            .byes
            .iter()
            .filter(|b| b.kind != ByeKind::PairingAllocated)
            .copied()
            .collect();
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
