//! A beginner's plain play, at caro and at xiangqi: the rules of thumb a new player
//! learns in the first evening, applied every move and nothing more. It is the yardstick
//! for the bottom of the level ladder: `banco:easy` must lose to it (see the results
//! log's ladders).
//!
//! Caro ([`Beginner`]), in order, the first that applies:
//! 1. make five if a move does;
//! 2. stop the opponent's five (block a four);
//! 3. turn an own open three into an open four;
//! 4. stop the opponent's open three at one of its ends (or inside it, when that is where
//!    it stops);
//! 5. otherwise lengthen an own line: the point whose longest line of own stones through
//!    it is longest, open ends counting for more, near the stones already down.
//!
//! Ties are broken at random. What it does not do is what beginners do not do: look for
//! a double threat (four-three, three-three) of its own, see one coming from the
//! opponent before it is made, or block anything short of an open three. The threats
//! are read with the engine's own threat finder, so they are exact under every rule.
//!
//! Xiangqi ([`XiangqiBeginner`]) looks one move ahead and counts material the way
//! beginners are taught (chariot 9, cannon 4.5, horse 4, advisor and elephant 2, soldier
//! 1, 2 across the river): it mates in one when it can; otherwise it plays the move that
//! leaves it best off in material, counting the piece it takes and, against it, every
//! piece of its own left where the opponent can take it with no recapture (half of one
//! that is defended, but attacked by a cheaper piece); a check is worth a little, and
//! among near-equals it picks at random. It does not look at the opponent's replies
//! beyond that: no forks, pins or mates in two, on either side.

use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use banco_engine::caro::{Threat, ThreatKind, threats};
use banco_rules::caro::{Board, Game, Point, Stone};
use banco_rules::game::{self, GameSpec, Move};
use banco_rules::xiangqi::{self, Color, Kind, Position};

use crate::player::{Budget, Player, Reply};
use crate::rng::Rng;
use crate::seeds::{DIRECTIONS, Seen, seen};

/// The beginner, with its own random draw.
pub struct Beginner {
    rng: Rng,
}

impl Beginner {
    pub fn new(seed: u64) -> Beginner {
        Beginner {
            rng: Rng::new(seed),
        }
    }

    /// A random one of `points`, or `None` if there are none.
    fn pick(&mut self, points: &[Point]) -> Option<Point> {
        (!points.is_empty()).then(|| points[self.rng.below(points.len())])
    }

    /// The move for the side to move; `None` only on a full board.
    pub fn choose(&mut self, game: &Game) -> Option<Point> {
        let board = game.board();
        let me = game.to_move();
        let them = me.opponent();
        let rule = game.rule();
        let legal = |p: &Point| game.check(*p).is_ok();
        let candidates: Vec<Point> = near_stones(board).into_iter().filter(legal).collect();
        if candidates.is_empty() {
            let centre = Point::new(board.width() / 2, board.height() / 2);
            if legal(&centre) {
                return Some(centre);
            }
            return board.points().find(legal);
        }
        // 1. A five.
        let fives: Vec<Point> = candidates
            .iter()
            .copied()
            .filter(|&p| {
                let mut g = game.clone();
                matches!(g.play(p), Ok(Some(_)))
            })
            .collect();
        if let Some(p) = self.pick(&fives) {
            return Some(p);
        }
        let theirs = threats(board, them, rule);
        let mine = threats(board, me, rule);
        // The legal points of `list`'s threats of kind `fours` (fours, or open threes),
        // their completions or their defences.
        let points = |list: &[Threat], fours: bool, defences: bool| -> Vec<Point> {
            list.iter()
                .filter(|t| (t.kind != ThreatKind::OpenThree) == fours)
                .flat_map(|t| {
                    if defences {
                        &t.defences
                    } else {
                        &t.completions
                    }
                })
                .copied()
                .filter(legal)
                .collect()
        };
        // 2. Their four; 3. my open four; 4. their open three.
        for (list, fours, defences) in [
            (&theirs, true, false),
            (&mine, false, false),
            (&theirs, false, true),
        ] {
            if let Some(p) = self.pick(&points(list, fours, defences)) {
                return Some(p);
            }
        }
        // 5. My longest line.
        let mut best = Vec::new();
        let mut best_score = i32::MIN;
        for p in candidates {
            let score = line_score(board, p, me);
            if score > best_score {
                best_score = score;
                best.clear();
            }
            if score == best_score {
                best.push(p);
            }
        }
        self.pick(&best)
    }
}

/// Empty points within two of a stone.
fn near_stones(board: &Board) -> Vec<Point> {
    board
        .points()
        .filter(|&p| board.is_empty_at(p))
        .filter(|&p| {
            let (x, y) = (i32::from(p.x), i32::from(p.y));
            (-2..=2)
                .any(|dy| (-2..=2).any(|dx| matches!(board.cell(x + dx, y + dy), Some(Some(_)))))
        })
        .collect()
}

/// How much a stone of `me` on empty `p` lengthens its lines: per direction, the run of
/// own stones through `p` (itself included) squared, times one more than its open ends,
/// and a run with no room to reach five counts nothing.
fn line_score(board: &Board, p: Point, me: Stone) -> i32 {
    let (x, y) = (i32::from(p.x), i32::from(p.y));
    DIRECTIONS
        .iter()
        .map(|&(dx, dy)| {
            let mut run = 1;
            let mut open = 0;
            let mut room = 1;
            for sign in [1, -1] {
                let mut k = 1;
                while seen(board, x + sign * dx * k, y + sign * dy * k, me) == Seen::Mine {
                    run += 1;
                    k += 1;
                }
                if seen(board, x + sign * dx * k, y + sign * dy * k, me) == Seen::Empty {
                    open += 1;
                }
                while k <= 5
                    && matches!(
                        seen(board, x + sign * dx * k, y + sign * dy * k, me),
                        Seen::Mine | Seen::Empty
                    )
                {
                    room += 1;
                    k += 1;
                }
            }
            if room + run - 1 < 5 {
                0
            } else {
                run * run * (open + 1)
            }
        })
        .sum()
}

/// The xiangqi beginner, with its own random draw.
pub struct XiangqiBeginner {
    rng: Rng,
}

/// Material in tenths of a soldier, as beginners count it.
fn value(kind: Kind, on_far_side: bool) -> i32 {
    match kind {
        Kind::King => 0,
        Kind::Rook => 90,
        Kind::Cannon => 45,
        Kind::Horse => 40,
        Kind::Advisor | Kind::Elephant => 20,
        Kind::Pawn if on_far_side => 20,
        Kind::Pawn => 10,
    }
}

/// Whether `sq` is across the river for `color`'s pieces.
fn across(color: Color, sq: xiangqi::Square) -> bool {
    match color {
        Color::Red => sq.rank() >= 5,
        Color::Black => sq.rank() <= 4,
    }
}

/// What `color`'s pieces on `pos` are worth, less what it stands to lose: each piece the
/// opponent attacks and `color` does not defend counts nothing, one that is defended but
/// attacked by a cheaper piece counts half.
fn material_after(pos: &Position, color: Color) -> i32 {
    let them = !color;
    pos.pieces()
        .filter(|(_, p)| p.color() == color)
        .map(|(sq, p)| {
            let v = value(p.kind(), across(color, sq));
            if p.kind() == Kind::King || !pos.defended(sq, them) {
                v
            } else if !pos.defended(sq, color) {
                0
            } else if cheapest_attacker(pos, sq, them).is_some_and(|a| a < v) {
                v / 2
            } else {
                v
            }
        })
        .sum()
}

/// The value of the cheapest piece of `by` that can take on `sq` (a general counts 0).
fn cheapest_attacker(pos: &Position, sq: xiangqi::Square, by: Color) -> Option<i32> {
    let mut scratch = pos.clone();
    if scratch.side_to_move() != by {
        scratch.make_null();
    }
    scratch
        .legal_moves()
        .iter()
        .filter(|m| m.to() == sq)
        .filter_map(|m| scratch.piece_at(m.from()))
        .map(|p| value(p.kind(), across(by, sq)))
        .min()
}

impl XiangqiBeginner {
    pub fn new(seed: u64) -> XiangqiBeginner {
        XiangqiBeginner {
            rng: Rng::new(seed),
        }
    }

    /// The move for the side to move; `None` when it has none.
    pub fn choose(&mut self, game: &xiangqi::Game) -> Option<xiangqi::Move> {
        let moves = game.legal_moves();
        let me = game.to_move();
        let mut scored: Vec<(i32, xiangqi::Move)> = Vec::with_capacity(moves.len());
        for mv in moves {
            let mut pos = game.position().clone();
            let taken = pos.piece_at(mv.to());
            let undo = pos.make(mv);
            let mate = pos.in_check() && !pos.has_legal_move();
            let score = if mate {
                i32::MAX / 2
            } else {
                let won = taken.map_or(0, |p| value(p.kind(), across(p.color(), mv.to())));
                let check = if pos.in_check() { 5 } else { 0 };
                won + material_after(&pos, me) + check
            };
            pos.unmake(mv, undo);
            scored.push((score, mv));
        }
        let best = scored.iter().map(|s| s.0).max()?;
        // Near-equals (within a fifth of a soldier) are all the same to a beginner.
        let pool: Vec<xiangqi::Move> = scored
            .iter()
            .filter(|s| s.0 >= best - 2)
            .map(|s| s.1)
            .collect();
        Some(pool[self.rng.below(pool.len())])
    }
}

/// The beginner as a match [`Player`], at either game.
pub struct BeginnerPlayer {
    caro: Beginner,
    xiangqi: XiangqiBeginner,
}

impl BeginnerPlayer {
    pub fn new(seed: u64) -> BeginnerPlayer {
        BeginnerPlayer {
            caro: Beginner::new(seed),
            xiangqi: XiangqiBeginner::new(seed ^ 0x9E37_79B9_7F4A_7C15),
        }
    }
}

impl Player for BeginnerPlayer {
    fn name(&self) -> String {
        "beginner".to_string()
    }

    fn new_game(&mut self, _spec: &GameSpec) -> Result<()> {
        Ok(())
    }

    /// The beginner thinks for no time: a clock changes nothing.
    fn play_clock(&mut self, game: &game::Game, _budget: Budget) -> Result<Reply> {
        self.play(game, None)
    }

    /// The beginner searches nothing: any node count suits it.
    fn limit_nodes(&mut self, _nodes: u64) -> Result<()> {
        Ok(())
    }

    fn play(&mut self, game: &game::Game, _budget: Option<Duration>) -> Result<Reply> {
        let start = Instant::now();
        let mv = match game {
            game::Game::Caro(g) => {
                Move::Caro(self.caro.choose(g).context("no move on a full board")?)
            }
            game::Game::Xiangqi(g) => {
                Move::Xiangqi(self.xiangqi.choose(g).context("no legal move")?)
            }
        };
        Ok(Reply::new(mv, start.elapsed()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_rules::caro::Rule;

    fn game(moves: &[(u8, u8)]) -> Game {
        let mut g = Game::new(15, 15, Rule::Caro).unwrap();
        for &(x, y) in moves {
            g.play(Point::new(x, y)).unwrap();
        }
        g
    }

    fn choices(g: &Game) -> Vec<Point> {
        let mut seen: Vec<Point> = (0..40).filter_map(|s| Beginner::new(s).choose(g)).collect();
        seen.sort();
        seen.dedup();
        seen
    }

    #[test]
    fn it_takes_a_five_before_blocking_one() {
        // X: 3..6 on row 7 (open); O: 3..6 on row 9 blocked at 2. X to move wins.
        let g = game(&[
            (3, 7),
            (3, 9),
            (4, 7),
            (4, 9),
            (5, 7),
            (5, 9),
            (6, 7),
            (6, 9),
        ]);
        for p in choices(&g) {
            let mut g2 = g.clone();
            assert!(g2.play(p).unwrap().is_some(), "{p} is no five");
        }
    }

    #[test]
    fn it_blocks_a_four_and_an_open_three() {
        // X: a four on row 7 (2..5, O at 1); O to move must block at 6,7.
        let g = game(&[(2, 7), (1, 7), (3, 7), (10, 10), (4, 7), (12, 3), (5, 7)]);
        assert_eq!(choices(&g), vec![Point::new(6, 7)]);
        // X: an open three 4..6 on row 7; O has nothing: O stops it at an end.
        let g = game(&[(4, 7), (10, 10), (5, 7), (12, 3), (6, 7)]);
        let stops = choices(&g);
        assert!(!stops.is_empty());
        for p in &stops {
            assert!(
                [(3, 7), (7, 7), (2, 7), (8, 7)]
                    .iter()
                    .any(|&(x, y)| *p == Point::new(x, y)),
                "{p} does not stop the three"
            );
        }
    }

    #[test]
    fn its_own_open_four_comes_before_the_opponents_open_three() {
        // X to move: X has an open three on row 3 (5..7), O one on row 9 (5..7).
        let g = game(&[(5, 3), (5, 9), (6, 3), (6, 9), (7, 3), (7, 9)]);
        for p in choices(&g) {
            assert_eq!(p.y, 3, "{p} is not on X's row");
            assert!(p == Point::new(4, 3) || p == Point::new(8, 3), "{p}");
        }
    }

    fn xiangqi_choices(fen: &str) -> Vec<String> {
        let g = xiangqi::Game::from_fen(fen).unwrap();
        let mut seen: Vec<String> = (0..20)
            .filter_map(|s| XiangqiBeginner::new(s).choose(&g))
            .map(|m| m.to_string())
            .collect();
        seen.sort();
        seen.dedup();
        seen
    }

    #[test]
    fn at_xiangqi_it_mates_in_one_and_takes_what_is_free() {
        assert_eq!(xiangqi_choices("4k4/R8/9/9/9/9/9/9/9/1R1K5 w"), ["b0b9"]);
        // Black's horse on a5 stands alone: the chariot takes it.
        assert_eq!(xiangqi_choices("4k4/9/9/9/n8/9/9/9/9/R2K5 w"), ["a0a5"]);
        // The same horse guarded by a chariot on a9: the beginner sees the recapture
        // and leaves it.
        assert!(!xiangqi_choices("r3k4/9/9/9/n8/9/9/9/9/R2K5 w").contains(&"a0a5".to_string()));
    }

    #[test]
    fn otherwise_it_lengthens_its_own_line() {
        // X two in a row on row 7; O's stones far apart: X makes three in a row.
        let g = game(&[(6, 7), (2, 2), (7, 7), (12, 12)]);
        for p in choices(&g) {
            // Three in a row, open at both ends (9 x 3), and a lone stone in each other
            // direction (1 x 3).
            assert_eq!(line_score(g.board(), p, Stone::X), 9 * 3 + 3 * 3, "{p}");
            assert_eq!(p.y, 7, "{p}");
        }
        // The first move is the centre.
        assert_eq!(choices(&game(&[])), vec![Point::new(7, 7)]);
    }
}
