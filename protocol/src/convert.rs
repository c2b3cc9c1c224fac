//! Conversions between wire moves ([`crate::Move`]) and rule moves
//! ([`banco_rules::game::Move`]), for every game: the one place that knows both, so the
//! server's rooms and its store read and write moves the same way.

use banco_rules::game::Move as RulesMove;
use banco_rules::xiangqi::{Move as XqMove, Square};

use crate::{Move, XqSquare};

/// The rules' move for a wire move; `None` for a xiangqi square off the board.
pub fn to_rules(mv: Move) -> Option<RulesMove> {
    match mv {
        Move::Caro(p) => Some(RulesMove::Caro(p)),
        Move::Xiangqi { from, to } => {
            let square = |s: XqSquare| Square::new(s.file, s.rank);
            Some(RulesMove::Xiangqi(XqMove::new(square(from)?, square(to)?)))
        }
    }
}

/// The wire's form of a rules move.
pub fn to_wire(mv: RulesMove) -> Move {
    match mv {
        RulesMove::Caro(p) => Move::Caro(p),
        RulesMove::Xiangqi(m) => {
            let square = |s: Square| XqSquare {
                file: s.file(),
                rank: s.rank(),
            };
            Move::Xiangqi {
                from: square(m.from()),
                to: square(m.to()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_rules::caro::Point;

    #[test]
    fn moves_cross_both_ways() {
        let caro = Move::Caro(Point::new(3, 9));
        assert_eq!(to_wire(to_rules(caro).unwrap()), caro);
        let xq = Move::Xiangqi {
            from: XqSquare { file: 7, rank: 2 },
            to: XqSquare { file: 4, rank: 2 },
        };
        assert_eq!(to_wire(to_rules(xq).unwrap()), xq);
        let off = Move::Xiangqi {
            from: XqSquare { file: 9, rank: 0 },
            to: XqSquare { file: 0, rank: 0 },
        };
        assert_eq!(to_rules(off), None);
    }
}
