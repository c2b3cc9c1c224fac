//! Moves between the wire's form ([`banco_protocol::Move`]) and the rules' form
//! ([`banco_rules::game::Move`]), for every game. The only place that knows both.

use banco_protocol::{Move, XqSquare};
use banco_rules::game::{Game, Move as RulesMove};
use banco_rules::xiangqi::{Move as XqMove, Square};

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

/// A legal move found without an engine, for when an engine gives none: in caro the free
/// point nearest the centre, in xiangqi the first legal move. `None` when there is none.
pub fn any_legal_move(game: &Game) -> Option<RulesMove> {
    match game {
        Game::Caro(g) => {
            let board = g.board();
            let (cx, cy) = (i32::from(board.width()) / 2, i32::from(board.height()) / 2);
            board
                .points()
                .filter(|p| g.check(*p).is_ok())
                .min_by_key(|p| (i32::from(p.x) - cx).abs() + (i32::from(p.y) - cy).abs())
                .map(RulesMove::Caro)
        }
        Game::Xiangqi(g) => g.legal_moves().first().copied().map(RulesMove::Xiangqi),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_rules::caro::{Point, Rule};
    use banco_rules::game::GameSpec;

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

    #[test]
    fn a_legal_move_is_found_while_there_is_one() {
        let spec = GameSpec::Caro {
            width: 5,
            height: 5,
            rule: Rule::Freestyle,
            opening: Vec::new(),
        };
        let mut g = Game::new(&spec).unwrap();
        assert_eq!(any_legal_move(&g), Some(RulesMove::Caro(Point::new(2, 2))));
        g.play(RulesMove::Caro(Point::new(2, 2))).unwrap();
        assert_ne!(any_legal_move(&g), Some(RulesMove::Caro(Point::new(2, 2))));
        let mut xq = Game::new(&GameSpec::Xiangqi { fen: None }).unwrap();
        let mv = any_legal_move(&xq).unwrap();
        assert!(xq.play(mv).is_ok());
    }
}
