//! Perft: counting the leaf nodes of the legal move tree, the proof that move generation
//! is exact. The last ply is counted, not played ("bulk counting").

use super::movegen::{GenType, MoveList};
use super::position::{Position, Tally};
use super::square::Move;

/// Legal move paths of length `depth` from `pos`.
pub fn perft<T: Tally>(pos: &mut Position<T>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.generate(GenType::All, &mut list);
    let in_check = pos.in_check();
    let mut nodes = 0;
    for &mv in list.iter() {
        if !pos.is_legal(mv, in_check) {
            continue;
        }
        if depth == 1 {
            nodes += 1;
        } else {
            let undo = pos.make(mv);
            nodes += perft(pos, depth - 1);
            pos.unmake(mv, undo);
        }
    }
    nodes
}

/// Perft split by first move, for finding where two generators disagree.
pub fn divide<T: Tally>(pos: &mut Position<T>, depth: u32) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    moves
        .iter()
        .map(|&mv| {
            let undo = pos.make(mv);
            let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
            pos.unmake(mv, undo);
            (mv, n)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(fen: &str, counts: &[u64]) {
        let mut pos = Position::from_fen(fen).unwrap();
        let before = pos.clone();
        for (i, &want) in counts.iter().enumerate() {
            assert_eq!(perft(&mut pos, i as u32 + 1), want, "{fen} depth {}", i + 1);
        }
        assert_eq!(pos, before, "make/unmake restores the position");
        assert_eq!(pos.key(), before.key());
    }

    #[test]
    fn start_position() {
        check(super::super::fen::START, &[44, 1920, 79666, 3290240]);
    }

    #[test]
    fn midgame_position() {
        check(
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            &[38, 1128, 43929, 1339047],
        );
    }

    #[test]
    fn after_central_cannon() {
        let mut pos = Position::start();
        pos.make("h2e2".parse().unwrap());
        assert_eq!(perft(&mut pos, 4), 2379130);
    }

    #[test]
    fn divide_sums_to_perft() {
        let mut pos = Position::start();
        let total: u64 = divide(&mut pos, 3).iter().map(|(_, n)| n).sum();
        assert_eq!(total, 79666);
    }

    #[test]
    fn incremental_state_matches_scratch_along_a_walk() {
        // Walk a pseudo-random path and compare the incremental key with a fresh one.
        let mut pos = Position::start();
        let mut seed = 7u64;
        for _ in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mv = moves[(seed >> 33) as usize % moves.len()];
            pos.make(mv);
            assert_eq!(pos.key(), pos.key_from_scratch());
            assert_eq!(Position::from_fen(&pos.fen()).unwrap(), pos);
        }
    }
}
