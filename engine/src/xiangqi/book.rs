//! The opening book: standard openings entered by hand as ICCS move sequences, each with a
//! weight for how often it is played, and every line also mirrored left to right (a
//! mirrored opening is the same opening played on the other wing). Positions are keyed
//! by Zobrist key, so transpositions between lines meet; a book move is drawn at random by
//! weight, which gives the bot variety from the first move.

use std::collections::HashMap;
use std::sync::LazyLock;

use banco_rules::xiangqi::square::{Move, Square};
use banco_rules::xiangqi::{Position, Tally};

/// (weight, moves from the start position).
const LINES: &[(u32, &str)] = &[
    // Central cannon (中炮) against screen horses (屏风马): the rook crossing the river.
    (12, "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 h0h6 g6g5 b0c2 c9e7"),
    // ... the five-seven cannons (五七炮).
    (8, "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0a2 g6g5 b2c2 c9e7"),
    // ... the seventh-file horse with the third pawn advanced.
    (6, "h2e2 h9g7 h0g2 b9c7 c3c4 i9h9 b0c2 c6c5"),
    // Same-direction cannons (顺炮), straight rook against crossing rook.
    (6, "h2e2 h7e7 h0g2 h9g7 i0h0 i9i8 h0h6 i8d8"),
    // Opposite cannons (列炮).
    (4, "h2e2 b7e7 h0g2 b9c7 i0h0 a9b9 b0c2 h9g7"),
    // Central cannon against the reverse palace horse (反宫马).
    (6, "h2e2 b9c7 h0g2 h7f7 i0h0 h9g7 c3c4 i9h9"),
    // Elephant opening (飞相局).
    (6, "g0e2 c6c5 h0g2 b9c7 i0h0 a9b9"),
    (4, "g0e2 h7e7 h0g2 h9g7 i0h0 i9h9"),
    (3, "g0e2 g9e7 h0g2 h9g7 i0h0"),
    // Pawn opening (仙人指路) against the pawn-bottom cannon (卒底炮) and the pawn reply.
    (5, "c3c4 b7c7 h2e2 c9e7 h0g2 h9g7"),
    (4, "c3c4 g6g5 b0c2 b9c7 h0g2 h9g7"),
    (3, "c3c4 c9e7 b0c2 b9c7"),
    // Horse opening (起马局).
    (4, "h0g2 g6g5 c3c4 h9g7 b0c2 b9c7"),
    (3, "h0g2 h7e7 g3g4 h9g7 b0c2"),
    // Palace-crossing cannon (过宫炮) and the advisor-corner cannon (士角炮).
    (2, "h2d2 h9g7 h0g2 i9h9"),
    (2, "h2f2 h9g7 h0g2 b9c7"),
];

/// How many plies into the game the book is consulted.
pub const BOOK_PLIES: usize = 12;

/// Book moves by position key, with their weights.
pub struct Book {
    /// Candidate moves and weights, by the key of the position they are played from.
    entries: HashMap<u64, Vec<(Move, u32)>>,
}

fn mirror(mv: Move) -> Move {
    let flip =
        |s: Square| Square::new(8 - s.file(), s.rank()).expect("mirrored square is on the board");
    Move::new(flip(mv.from()), flip(mv.to()))
}

impl Book {
    /// The built-in book.
    pub fn builtin() -> &'static Book {
        static BOOK: LazyLock<Book> = LazyLock::new(|| Book::from_lines(LINES));
        &BOOK
    }

    /// A book from lines of ICCS moves. Lines that stop being legal are cut where they do.
    pub fn from_lines(lines: &[(u32, &str)]) -> Book {
        let mut entries: HashMap<u64, Vec<(Move, u32)>> = HashMap::new();
        for &(weight, line) in lines {
            for mirrored in [false, true] {
                let mut pos = crate::xiangqi::start();
                for text in line.split_whitespace() {
                    let Ok(mv) = text.parse::<Move>() else { break };
                    let mv = if mirrored { mirror(mv) } else { mv };
                    if !pos.is_legal_move(mv) {
                        break;
                    }
                    let slot = entries.entry(pos.key()).or_default();
                    match slot.iter_mut().find(|(m, _)| *m == mv) {
                        Some((_, w)) => *w += weight,
                        None => slot.push((mv, weight)),
                    }
                    pos.make(mv);
                }
            }
        }
        Book { entries }
    }

    /// The book's moves for `pos`, with weights.
    pub fn moves<T: Tally>(&self, pos: &Position<T>) -> &[(Move, u32)] {
        self.entries.get(&pos.key()).map_or(&[], Vec::as_slice)
    }

    /// A book move for `pos` drawn by weight with `random` (any number), if the book knows
    /// the position.
    pub fn pick<T: Tally>(&self, pos: &Position<T>, random: u64) -> Option<Move> {
        let moves: Vec<(Move, u32)> = self
            .moves(pos)
            .iter()
            .copied()
            .filter(|&(m, _)| pos.is_legal_move(m))
            .collect();
        let total: u64 = moves.iter().map(|&(_, w)| u64::from(w)).sum();
        if total == 0 {
            return None;
        }
        let mut r = random % total;
        for (m, w) in moves {
            if r < u64::from(w) {
                return Some(m);
            }
            r -= u64::from(w);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_is_legal_to_its_end() {
        for &(_, line) in LINES {
            let mut pos = crate::xiangqi::start();
            for text in line.split_whitespace() {
                let mv: Move = text.parse().unwrap();
                assert!(pos.is_legal_move(mv), "{text} in {line}");
                pos.make(mv);
            }
        }
    }

    #[test]
    fn variety_from_the_first_move() {
        let book = Book::builtin();
        let start = crate::xiangqi::start();
        let firsts: std::collections::HashSet<Move> = (0..200u64)
            .filter_map(|r| book.pick(&start, r * 7919))
            .collect();
        assert!(firsts.len() >= 6, "{firsts:?}");
        assert!(firsts.contains(&"h2e2".parse().unwrap()));
        assert!(
            firsts.contains(&"b2e2".parse().unwrap()),
            "mirrored lines are in"
        );
        // Black's replies to the central cannon vary too.
        let mut pos = crate::xiangqi::start();
        pos.make("h2e2".parse().unwrap());
        assert!(book.moves(&pos).len() >= 4);
        // Out of book: nothing.
        let mut pos = crate::xiangqi::start();
        pos.make("a3a4".parse().unwrap());
        assert_eq!(book.pick(&pos, 1), None);
    }
}
