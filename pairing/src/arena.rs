//! Arena tournaments (lichess-style): players who are free are paired again at once,
//! by close score, never with the opponent of their last game while another is free.
//!
//! - [`pair_wave`]: pairs a wave of free players. Order them by score (then rating, then
//!   id), pair neighbours down the list, skipping a neighbour who would be a rematch;
//!   afterwards swap partners with the nearest board (or the waiting player) that undoes
//!   a rematch left over. With
//!   an odd count the last player in the order waits for the next wave.
//! - [`ArenaScore`]: 2 points a win, 1 a draw, doubled while on a streak (after two wins
//!   in a row, until a game is not won); a berserk win earns one more.

use crate::tournament::Board;

/// A player free to be paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArenaPlayer {
    /// The caller's identifier for the player.
    pub id: usize,
    /// Arena points so far.
    pub score: u32,
    /// Rating, to order players with equal scores.
    pub rating: u16,
    /// The opponent of the player's last game, if any.
    pub last_opponent: Option<usize>,
    /// Games played with white minus games with black: the lower side gets white.
    pub colour_balance: i32,
}

/// A wave of pairings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Wave {
    /// The new games (ids of the players).
    pub boards: Vec<Board>,
    /// The player left over, who waits for the next wave.
    pub waiting: Option<usize>,
}

fn rematch(a: &ArenaPlayer, b: &ArenaPlayer) -> bool {
    a.last_opponent == Some(b.id) || b.last_opponent == Some(a.id)
}

/// Pairs the free players.
pub fn pair_wave(free: &[ArenaPlayer]) -> Wave {
    let mut order: Vec<&ArenaPlayer> = free.iter().collect();
    order.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then(b.rating.cmp(&a.rating))
            .then(a.id.cmp(&b.id))
    });
    let n = order.len();
    let mut taken = vec![false; n];
    let mut pairs: Vec<(usize, usize)> = Vec::with_capacity(n / 2);
    let mut i = 0;
    while i < n {
        if taken[i] {
            i += 1;
            continue;
        }
        // The nearest free partner below who is not a rematch, else the nearest.
        let mut nearest = None;
        let mut fresh = None;
        for j in i + 1..n {
            if taken[j] {
                continue;
            }
            nearest.get_or_insert(j);
            if !rematch(order[i], order[j]) {
                fresh = Some(j);
                break;
            }
            // Only look a little way down: a rematch is better than a mismatch in score.
            if j > i + 8 {
                break;
            }
        }
        let Some(j) = fresh.or(nearest) else {
            break;
        };
        taken[i] = true;
        taken[j] = true;
        pairs.push((i, j));
        i += 1;
    }
    let mut waiting = (0..n).find(|&k| !taken[k]);

    // Undo leftover rematches by swapping partners with a nearby board or the waiting one.
    for p in 0..pairs.len() {
        let (a, b) = pairs[p];
        if !rematch(order[a], order[b]) {
            continue;
        }
        if let Some(w) = waiting {
            if !rematch(order[a], order[w]) {
                pairs[p] = (a.min(w), a.max(w));
                waiting = Some(b);
                continue;
            }
            if !rematch(order[b], order[w]) {
                pairs[p] = (b.min(w), b.max(w));
                waiting = Some(a);
                continue;
            }
        }
        // The nearest board (by place in the order) whose partners can be swapped.
        let mut others: Vec<usize> = (0..pairs.len()).filter(|&q| q != p).collect();
        others.sort_by_key(|&q| q.abs_diff(p));
        'search: for q in others {
            let (c, d) = pairs[q];
            for (x, y, z, w) in [(a, c, b, d), (a, d, b, c)] {
                if !rematch(order[x], order[y]) && !rematch(order[z], order[w]) {
                    pairs[p] = (x.min(y), x.max(y));
                    pairs[q] = (z.min(w), z.max(w));
                    break 'search;
                }
            }
        }
    }

    let boards = pairs
        .into_iter()
        .map(|(a, b)| {
            let (a, b) = (order[a], order[b]);
            if b.colour_balance < a.colour_balance {
                Board {
                    white: b.id,
                    black: a.id,
                }
            } else {
                Board {
                    white: a.id,
                    black: b.id,
                }
            }
        })
        .collect();
    Wave {
        boards,
        waiting: waiting.map(|k| order[k].id),
    }
}

/// How an arena game ended for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArenaResult {
    /// Won.
    Win,
    /// Drew.
    Draw,
    /// Lost.
    Loss,
}

/// A player's arena points, kept game by game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ArenaScore {
    /// Points so far.
    pub points: u32,
    /// Wins in a row just now.
    pub streak: u32,
}

impl ArenaScore {
    /// Whether the next game counts double (two wins in a row or more).
    pub fn on_fire(&self) -> bool {
        self.streak >= 2
    }

    /// Adds a game; `berserk`: the player halved their clock (one more point on a win).
    /// Returns the points it earned.
    pub fn add(&mut self, result: ArenaResult, berserk: bool) -> u32 {
        let factor = if self.on_fire() { 2 } else { 1 };
        let earned = match result {
            ArenaResult::Win => 2 * factor + u32::from(berserk),
            ArenaResult::Draw => factor,
            ArenaResult::Loss => 0,
        };
        self.streak = if result == ArenaResult::Win {
            self.streak + 1
        } else {
            0
        };
        self.points += earned;
        earned
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(id: usize, score: u32, last: Option<usize>) -> ArenaPlayer {
        ArenaPlayer {
            id,
            score,
            rating: 1500,
            last_opponent: last,
            colour_balance: 0,
        }
    }

    #[test]
    fn pairs_neighbours_by_score_and_leaves_one_waiting() {
        let free: Vec<_> = [10, 2, 9, 3, 0]
            .iter()
            .enumerate()
            .map(|(i, &s)| player(i, s, None))
            .collect();
        let wave = pair_wave(&free);
        assert_eq!(
            wave.boards,
            vec![Board { white: 0, black: 2 }, Board { white: 3, black: 1 }]
        );
        assert_eq!(wave.waiting, Some(4));
    }

    #[test]
    fn never_a_rematch_when_someone_else_is_free() {
        // 0 and 1 just played; 2 and 3 just played.
        let free = vec![
            player(0, 10, Some(1)),
            player(1, 9, Some(0)),
            player(2, 8, Some(3)),
            player(3, 7, Some(2)),
        ];
        let wave = pair_wave(&free);
        for b in &wave.boards {
            assert!(!matches!(
                (b.white.min(b.black), b.white.max(b.black)),
                (0, 1) | (2, 3)
            ));
        }
        // Two players who just met, alone: they meet again rather than wait.
        let pair = pair_wave(&[player(0, 1, Some(1)), player(1, 1, Some(0))]);
        assert_eq!(pair.boards.len(), 1);
    }

    #[test]
    fn streaks_double_and_berserk_adds_one() {
        let mut s = ArenaScore::default();
        let earned: Vec<u32> = [
            (ArenaResult::Win, false),
            (ArenaResult::Win, true),
            (ArenaResult::Win, false),
            (ArenaResult::Draw, false),
            (ArenaResult::Draw, false),
            (ArenaResult::Loss, false),
        ]
        .iter()
        .map(|&(r, b)| s.add(r, b))
        .collect();
        assert_eq!(earned, vec![2, 3, 4, 2, 1, 0]);
        assert_eq!(s.points, 12);
    }
}
