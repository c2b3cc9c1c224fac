//! Moves in a room: the wire/rules conversions (which live in the protocol crate, where
//! the store reads them too) and a legal move found without an engine.

pub use banco_protocol::convert::{to_rules, to_wire};
use banco_rules::game::{Game, Move as RulesMove};

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
