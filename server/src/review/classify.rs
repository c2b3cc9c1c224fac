//! From the engine's verdict on every position of a game to the review players read:
//! winning chances from one side's view, each move's loss and class, each player's
//! errors. Pure arithmetic, no engine and no I/O.

use banco_protocol::review::SCORE_CAP;
use banco_protocol::{
    GameId, GameReview, Move, MoveClass, PlayerReview, ReviewedPly, Seat, Thresholds,
};

/// Which game's scale and thresholds apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Caro,
    Xiangqi,
}

impl Kind {
    /// Scores at or beyond this are forced wins (each engine's `MATE_BOUND`).
    fn mate_bound(self) -> i32 {
        match self {
            Kind::Caro => banco_engine::caro::MATE_BOUND,
            Kind::Xiangqi => banco_engine::xiangqi::MATE_BOUND,
        }
    }

    /// Evaluation units that turn 50% into about 73%: caro's evaluation was fitted to
    /// results at 200 (see the arena's `caro_texel`), and xiangqi's is read like chess
    /// centipawns, lichess's curve (0.00368 a centipawn) giving about 270.
    fn scale(self) -> f64 {
        match self {
            Kind::Caro => 200.0,
            Kind::Xiangqi => 271.0,
        }
    }

    fn thresholds(self) -> Thresholds {
        match self {
            Kind::Caro => Thresholds::CARO,
            Kind::Xiangqi => Thresholds::XIANGQI,
        }
    }
}

/// The engine on one position, from the side to move there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// In the engine's units, forced wins as its mate scores.
    pub score: i32,
    /// Its move and the line it expected; empty when it has none (the game is over).
    pub line: Vec<Move>,
}

impl Verdict {
    /// A position the rules decided: won, lost or drawn for the side to move.
    pub fn decided(won: Option<bool>) -> Verdict {
        let score = match won {
            Some(true) => i32::MAX / 2,
            Some(false) => -(i32::MAX / 2),
            None => 0,
        };
        Verdict {
            score,
            line: Vec::new(),
        }
    }
}

/// Chances of the side to move, per mille.
fn chances(kind: Kind, score: i32) -> u16 {
    let bound = kind.mate_bound();
    if score >= bound {
        return 1000;
    }
    if score <= -bound {
        return 0;
    }
    let p = 1.0 / (1.0 + (-f64::from(score) / kind.scale()).exp());
    (p * 1000.0).round() as u16
}

/// A score clipped for averaging and showing.
fn clipped(score: i32) -> i32 {
    score.clamp(-SCORE_CAP, SCORE_CAP)
}

/// The review of game `game`: `moves[i]` played by `movers[i]` from position `i`,
/// `verdicts[i]` the engine on position `i` (one more verdict than moves).
pub fn review(
    game: GameId,
    kind: Kind,
    first: Seat,
    moves: &[(Move, Seat)],
    verdicts: &[Verdict],
    budget_ms: u32,
) -> GameReview {
    let bound = kind.mate_bound();
    // From position i (side to move: the mover of ply i, or for the last one whoever
    // is to move then) to the first mover's view.
    let to_move_at = |i: usize| match moves.get(i) {
        Some(&(_, by)) => by,
        None => moves.last().map_or(first, |&(_, by)| by.other()),
    };
    let first_view = |i: usize, value: i32| {
        if to_move_at(i) == first {
            value
        } else {
            -value
        }
    };
    let first_chances = |i: usize| {
        let c = chances(kind, verdicts[i].score);
        if to_move_at(i) == first { c } else { 1000 - c }
    };
    let mut players = [PlayerReview::default(); 2];
    let mut loss_sum = [0i64; 2];
    let mut counted = [0i64; 2];
    let mut plies = Vec::with_capacity(moves.len());
    for (i, &(played, by)) in moves.iter().enumerate() {
        let (before, after) = (&verdicts[i], &verdicts[i + 1]);
        let mover_before = chances(kind, before.score);
        let mover_after = 1000 - chances(kind, after.score);
        let loss = mover_before.saturating_sub(mover_after);
        let best = before.line.first().copied();
        let class = if kind == Kind::Caro && before.score >= bound && after.score > -bound {
            MoveClass::MissedWin
        } else if kind == Kind::Caro && before.score > -bound && after.score >= bound {
            MoveClass::MissedDefence
        } else if best == Some(played) {
            MoveClass::Best
        } else {
            MoveClass::of_loss(loss, kind.thresholds())
        };
        let p = &mut players[by.index()];
        match class {
            MoveClass::Inaccuracy => p.inaccuracies += 1,
            MoveClass::Mistake => p.mistakes += 1,
            MoveClass::Blunder => p.blunders += 1,
            MoveClass::MissedWin => p.missed_wins += 1,
            MoveClass::MissedDefence => p.missed_defences += 1,
            MoveClass::Best | MoveClass::Good => {}
        }
        loss_sum[by.index()] += i64::from((clipped(before.score) + clipped(after.score)).max(0));
        counted[by.index()] += 1;
        plies.push(ReviewedPly {
            played,
            by,
            chances: first_chances(i + 1),
            score: clipped(first_view(i + 1, verdicts[i + 1].score)),
            loss,
            class,
            best,
            line: before.line.clone(),
            reply: after.line.first().copied(),
        });
    }
    for (p, (sum, n)) in players.iter_mut().zip(loss_sum.iter().zip(counted)) {
        p.average_loss = if n == 0 { 0 } else { (sum / n) as u32 };
    }
    GameReview {
        game,
        first,
        start_chances: first_chances(0),
        plies,
        players,
        budget_ms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_protocol::Point;

    fn caro(x: u8, y: u8) -> Move {
        Move::Caro(Point::new(x, y))
    }

    fn verdict(score: i32, best: Option<Move>) -> Verdict {
        Verdict {
            score,
            line: best.into_iter().collect(),
        }
    }

    #[test]
    fn chances_follow_the_logistic_and_forced_wins_are_certain() {
        assert_eq!(chances(Kind::Caro, 0), 500);
        assert_eq!(chances(Kind::Caro, 200), 731);
        assert_eq!(chances(Kind::Caro, -200), 269);
        assert_eq!(chances(Kind::Caro, banco_engine::caro::MATE - 3), 1000);
        assert_eq!(chances(Kind::Xiangqi, -banco_engine::xiangqi::MATE + 5), 0);
    }

    #[test]
    fn a_move_that_throws_the_game_away_is_a_blunder_with_its_refutation() {
        let moves = [(caro(1, 1), Seat::One), (caro(3, 3), Seat::Two)];
        // Even, then One plays elsewhere than the engine and Two is winning by 800.
        let verdicts = [
            verdict(0, Some(caro(7, 7))),
            verdict(800, Some(caro(3, 3))),
            verdict(-800, Some(caro(4, 4))),
        ];
        let r = review(5, Kind::Caro, Seat::One, &moves, &verdicts, 100);
        assert_eq!(r.start_chances, 500);
        let p = &r.plies[0];
        assert_eq!(p.class, MoveClass::Blunder);
        assert_eq!(p.best, Some(caro(7, 7)));
        assert_eq!(p.reply, Some(caro(3, 3)), "the refutation");
        assert_eq!(p.chances, 1000 - chances(Kind::Caro, 800));
        assert_eq!(p.score, -800);
        // Two played the engine's move.
        assert_eq!(r.plies[1].class, MoveClass::Best);
        assert_eq!(r.players[0].blunders, 1);
        assert_eq!(r.players[0].average_loss, 800);
        assert_eq!(r.players[1], PlayerReview::default());
    }

    #[test]
    fn caro_marks_missed_wins_and_missed_defences() {
        let mate = banco_engine::caro::MATE;
        let moves = [(caro(1, 1), Seat::One), (caro(2, 2), Seat::Two)];
        // One had a forced win and let it go; Two then left One's forced win standing.
        let verdicts = [
            verdict(mate - 5, Some(caro(7, 7))),
            verdict(-100, Some(caro(3, 3))),
            verdict(mate - 9, Some(caro(4, 4))),
        ];
        let r = review(5, Kind::Caro, Seat::One, &moves, &verdicts, 100);
        assert_eq!(r.plies[0].class, MoveClass::MissedWin);
        assert_eq!(r.plies[1].class, MoveClass::MissedDefence);
        assert_eq!(r.players[0].missed_wins, 1);
        assert_eq!(r.players[1].missed_defences, 1);
        assert_eq!(r.plies[1].chances, 1000);
        // Xiangqi has no such classes: the same losses are blunders.
        let x = review(5, Kind::Xiangqi, Seat::One, &moves, &verdicts, 100);
        assert_eq!(x.plies[0].class, MoveClass::Blunder);
    }

    #[test]
    fn chances_are_from_the_first_movers_view_whoever_sits_where() {
        let moves = [(caro(1, 1), Seat::Two)];
        let verdicts = [verdict(200, None), Verdict::decided(Some(false))];
        let r = review(1, Kind::Caro, Seat::Two, &moves, &verdicts, 100);
        assert_eq!(r.first, Seat::Two);
        assert_eq!(r.start_chances, 731);
        assert_eq!(r.plies[0].chances, 1000, "the side to move after it lost");
        assert_eq!(r.plies[0].score, SCORE_CAP);
    }
}
