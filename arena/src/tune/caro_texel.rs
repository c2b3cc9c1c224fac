//! Texel tuning of the caro evaluation: fit the [`Weights`] so that the evaluation of a
//! position, through a logistic curve, predicts the result of the game it came from.
//!
//! The evaluation is linear in its weights: per side and role (to move or not), each
//! weight counts how many times its line pattern, pattern pair or combo occurs over the
//! empty points. So a position becomes a sparse feature vector once, and fitting is
//! minimising the mean squared error of `sigmoid(eval / SCALE)` against the result
//! (1 for a win of the side to move, 0 for a loss, 1/2 for a draw) by gradient descent
//! (Adam). `SCALE` ties the evaluation's units to win chances: 200 means a score of 200
//! wins about 73% of the time, the scale the search's margins are written for.
//!
//! The same goes for a [`PointTable`] (one worth per set of a point's four patterns and
//! role): its features count the sets ([`Form::Table`]).
//!
//! Under renju the colours play different games (Black may not play a double three, a
//! double four or an overline), so there each colour has weights of its own
//! ([`Form::Renju`], [`fit_renju`]), and a point whose shape is forbidden to Black is worth
//! nothing to Black, as in the engine.
//!
//! Only quiet positions are used: the side to move cannot win at once or by an open four
//! or a four-three, and is not answering a five or an open three. Positions from the
//! first moves of a game (the opening) are left out too.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result, bail};
use banco_engine::caro::eval::{
    COMBOS, PATTERNS, POINT_KEYS, PointTable, RoleWeights, Weights, forbidden_shape, ordered,
    point_key,
};
use banco_engine::caro::pattern::{Combo, Pattern};
use banco_engine::caro::position::Position;
use banco_rules::caro::{Game, Point, Rule, Stone};

/// The evaluation that means a 73% chance (`e^1` to 1).
pub const SCALE: f64 = 200.0;
/// Features per role: singles, pairs (upper triangle stored as a full square), combos.
const ROLE_FEATURES: usize = PATTERNS + PATTERNS * PATTERNS + COMBOS;
/// Plies at the start of a game left out.
const SKIP_PLIES: usize = 6;

/// A saved game: board, rule, moves, and which side won (`None`: a draw).
#[derive(Debug, Clone)]
pub struct SavedGame {
    pub width: u8,
    pub height: u8,
    pub rule: Rule,
    pub moves: Vec<Point>,
    pub winner: Option<Stone>,
    /// Whether the game ended by a forfeit rather than on the board.
    pub forfeit: bool,
}

/// Reads a game written by `banco-arena match --out`.
pub fn read_caro_game(path: &Path) -> Result<SavedGame> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let header = text
        .lines()
        .find_map(|l| l.strip_prefix("# game: caro "))
        .with_context(|| format!("{} is not a saved caro game", path.display()))?;
    let mut words = header.split_whitespace();
    let size = words.next().unwrap_or("");
    let (w, h) = size.split_once(['x', 'X']).unwrap_or((size, size));
    let width: u8 = w.parse().with_context(|| format!("bad size '{size}'"))?;
    let height: u8 = h.parse().with_context(|| format!("bad size '{size}'"))?;
    let rule: Rule = words.nth(1).unwrap_or("").parse()?;
    let result = text
        .lines()
        .find_map(|l| l.strip_prefix("# result: "))
        .unwrap_or("");
    let forfeit = result.contains("forfeit") || result.contains("failed");
    let winner = match result.split_whitespace().next() {
        Some("1-0") => Some(Stone::X),
        Some("0-1") => Some(Stone::O),
        Some("1/2-1/2") => None,
        _ => bail!("{} has no result", path.display()),
    };
    let moves = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            banco_rules::caro::notation::parse_point(l, width, height).map_err(anyhow::Error::from)
        })
        .collect::<Result<Vec<Point>>>()?;
    Ok(SavedGame {
        width,
        height,
        rule,
        moves,
        winner,
        forfeit,
    })
}

/// One training position: its features (index, count; movers' counts positive,
/// waiters' negative) and the result for the side to move.
#[derive(Debug, Clone)]
pub struct Sample {
    pub features: Vec<(u16, f32)>,
    pub result: f64,
    /// The moves that lead to the position, `x,y` each, space-separated (the key of a
    /// teacher's score).
    pub moves: String,
}

/// The form of the evaluation the features are for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// [`Weights`]: per pattern, pattern pair and combo.
    Weights,
    /// [`PointTable`]: per unordered set of a point's four patterns.
    Table,
    /// Renju's [`Weights`], one set per colour (Black's, then White's); a point whose
    /// shape is forbidden to Black counts nothing for Black.
    Renju,
}

impl Form {
    /// The length of a feature vector.
    fn len(self) -> usize {
        match self {
            Form::Weights => 2 * ROLE_FEATURES,
            Form::Table => 2 * POINT_KEYS,
            Form::Renju => 4 * ROLE_FEATURES,
        }
    }
}

/// The quiet positions of `game` as samples for [`Form::Weights`].
pub fn samples(game: &SavedGame) -> Result<Vec<Sample>> {
    samples_for(game, Form::Weights)
}

/// The quiet positions of `game` as samples for `form` (none if it ended by a forfeit:
/// its result says nothing about the positions).
pub fn samples_for(game: &SavedGame, form: Form) -> Result<Vec<Sample>> {
    if game.forfeit {
        return Ok(Vec::new());
    }
    let mut g = Game::new(u32::from(game.width), u32::from(game.height), game.rule)?;
    let mut out = Vec::new();
    let mut before: Option<Vec<(u16, f32)>> = None;
    for (ply, &mv) in game.moves.iter().enumerate() {
        if g.outcome().is_some() {
            break;
        }
        let pos = Position::from_game(&g);
        let now = match form {
            Form::Weights => features(&pos),
            Form::Table => table_features(&pos),
            Form::Renju => renju_features(&pos),
        };
        if ply >= SKIP_PLIES
            && is_quiet(&pos)
            && let Some(prev) = &before
        {
            let us = pos.to_move();
            let result = match game.winner {
                None => 0.5,
                Some(w) if w == us => 1.0,
                Some(_) => 0.0,
            };
            out.push(Sample {
                features: averaged(&now, prev, form),
                result,
                moves: game.moves[..ply]
                    .iter()
                    .map(|p| format!("{},{}", p.x, p.y))
                    .collect::<Vec<_>>()
                    .join(" "),
            });
        }
        before = Some(now);
        g.play(mv)?;
    }
    Ok(out)
}

/// Blends a teacher's scores into the samples' targets: a sample whose moves have a score
/// (side to move's view, the teacher's units, where 200 means a 73% chance like ours)
/// gets `share` of its target from the score's win chance and the rest from the game.
/// Returns how many samples had a score.
pub fn apply_teacher(
    samples: &mut [Sample],
    scores: &std::collections::HashMap<String, f64>,
    share: f64,
) -> usize {
    let mut taught = 0;
    for s in samples {
        if let Some(score) = scores.get(&s.moves) {
            let chance = 1.0 / (1.0 + (-score / SCALE).exp());
            s.result = share * chance + (1.0 - share) * s.result;
            taught += 1;
        }
    }
    taught
}

/// Reads a teacher's scores: lines `MOVES;SCORE`.
pub fn read_teacher(path: &Path) -> Result<std::collections::HashMap<String, f64>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = std::collections::HashMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (moves, score) = line
            .rsplit_once(';')
            .with_context(|| format!("{} line {}: no ';'", path.display(), n + 1))?;
        let score: f64 = score
            .trim()
            .parse()
            .with_context(|| format!("{} line {}: bad score", path.display(), n + 1))?;
        out.insert(moves.trim().to_string(), score);
    }
    Ok(out)
}

/// The features of the engine's evaluation, which averages the position now with the one
/// before the last move seen from the other side: `(now - before) / 2`.
fn averaged(now: &[(u16, f32)], before: &[(u16, f32)], form: Form) -> Vec<(u16, f32)> {
    let mut sum = vec![0f32; form.len()];
    for (i, v) in now {
        sum[usize::from(*i)] += v / 2.0;
    }
    for (i, v) in before {
        sum[usize::from(*i)] -= v / 2.0;
    }
    sparse(&sum)
}

fn sparse(counts: &[f32]) -> Vec<(u16, f32)> {
    counts
        .iter()
        .enumerate()
        .filter(|(_, v)| **v != 0.0)
        .map(|(i, v)| (i as u16, *v))
        .collect()
}

/// Whether nothing forcing is going on for the side to move.
fn is_quiet(pos: &Position) -> bool {
    let us = pos.to_move();
    let them = us.opponent();
    pos.count_at_least(us, Combo::Block4Flex3) == 0
        && pos.count(us, Combo::Flex3x2) == 0
        && pos.count(them, Combo::Five) == 0
        && pos.count(them, Combo::Flex4) == 0
}

/// The feature index of a weight: role (0 mover, 1 waiter), then kind.
fn single_index(role: usize, p: usize) -> usize {
    role * ROLE_FEATURES + p
}
fn pair_index(role: usize, a: usize, b: usize) -> usize {
    role * ROLE_FEATURES + PATTERNS + a * PATTERNS + b
}
fn combo_index(role: usize, c: usize) -> usize {
    role * ROLE_FEATURES + PATTERNS + PATTERNS * PATTERNS + c
}

/// Counts every weight's occurrences over the empty points: the side to move's as mover
/// (added), the opponent's as waiter (subtracted).
fn features(pos: &Position) -> Vec<(u16, f32)> {
    count_points(pos, Form::Weights.len(), |counts, role, _, sign, pats| {
        add_weights(counts, role, sign, pats);
    })
}

/// Adds one point's weights in `role` (0 mover, 1 waiter; `role` 2 and 3 are the second
/// set's, as [`Form::Renju`] lays them out).
fn add_weights(counts: &mut [f32], role: usize, sign: f32, pats: [Pattern; 4]) {
    counts[combo_index(role, Combo::of(pats) as usize)] += sign;
    for i in 0..4 {
        counts[single_index(role, pats[i] as usize)] += sign;
        for j in i + 1..4 {
            let (a, b) = ordered(pats[i], pats[j]);
            counts[pair_index(role, a, b)] += sign;
        }
    }
}

/// Counts every weight's occurrences as [`features`] does, Black's points in the first
/// set and White's in the second, leaving out the points forbidden to Black.
fn renju_features(pos: &Position) -> Vec<(u16, f32)> {
    count_points(pos, Form::Renju.len(), |counts, role, stone, sign, pats| {
        if stone == Stone::X && forbidden_shape(pats) {
            return;
        }
        add_weights(counts, 2 * stone.index() + role, sign, pats);
    })
}

/// Counts every set of four patterns over the empty points, as [`features`] counts
/// weights.
fn table_features(pos: &Position) -> Vec<(u16, f32)> {
    count_points(pos, Form::Table.len(), |counts, role, _, sign, pats| {
        counts[role * POINT_KEYS + point_key(pats)] += sign;
    })
}

/// `len` counts filled by `add` from every empty point's four patterns for each side:
/// the side to move's as role 0 with sign +1, the opponent's as role 1 with sign -1
/// (with the side's stone).
fn count_points(
    pos: &Position,
    len: usize,
    mut add: impl FnMut(&mut [f32], usize, Stone, f32, [Pattern; 4]),
) -> Vec<(u16, f32)> {
    let mut counts = vec![0f32; len];
    let us = pos.to_move();
    for y in 0..pos.height() {
        for x in 0..pos.width() {
            let c = pos.cell(Point::new(x as u8, y as u8));
            if !pos.is_empty(c) {
                continue;
            }
            for (role, stone, sign) in [(0, us, 1.0), (1, us.opponent(), -1.0)] {
                let pats = [0, 1, 2, 3].map(|d| pos.pattern(c, stone, d));
                add(&mut counts, role, stone, sign, pats);
            }
        }
    }
    sparse(&counts)
}

/// The weights as a parameter vector, and back.
fn to_params(w: &Weights) -> Vec<f64> {
    let mut p = vec![0.0; 2 * ROLE_FEATURES];
    for role in 0..2 {
        let r = &w.0[role];
        for a in 0..PATTERNS {
            p[single_index(role, a)] = f64::from(r.single[a]);
            for b in a..PATTERNS {
                p[pair_index(role, a, b)] = f64::from(r.pair[a][b]);
            }
        }
        for c in 0..COMBOS {
            p[combo_index(role, c)] = f64::from(r.combo[c]);
        }
    }
    p
}

fn from_params(p: &[f64]) -> Weights {
    let role = |role: usize| {
        let mut r = RoleWeights {
            single: [0; PATTERNS],
            pair: [[0; PATTERNS]; PATTERNS],
            combo: [0; COMBOS],
        };
        for a in 0..PATTERNS {
            r.single[a] = p[single_index(role, a)].round() as i32;
            for b in a..PATTERNS {
                r.pair[a][b] = p[pair_index(role, a, b)].round() as i32;
            }
        }
        for c in 0..COMBOS {
            r.combo[c] = p[combo_index(role, c)].round() as i32;
        }
        r
    };
    Weights([role(0), role(1)])
}

/// Weights that stay where they are: a dead line and "no combo" are the zero points,
/// pairs are only stored in their upper triangle.
fn frozen(i: usize) -> bool {
    let k = i % ROLE_FEATURES;
    if k < PATTERNS {
        return k == 0;
    }
    if k < PATTERNS + PATTERNS * PATTERNS {
        let (a, b) = ((k - PATTERNS) / PATTERNS, (k - PATTERNS) % PATTERNS);
        return a > b || (a == 0 && b == 0);
    }
    k == PATTERNS + PATTERNS * PATTERNS
}

/// The evaluation `p` gives a position with these (averaged) features, in the engine's
/// units.
fn evaluation(p: &[f64], features: &[(u16, f32)]) -> f64 {
    features
        .iter()
        .map(|(i, v)| p[usize::from(*i)] * f64::from(*v))
        .sum::<f64>()
        / 4.0
}

fn predict(p: &[f64], s: &Sample) -> f64 {
    let eval = evaluation(p, &s.features);
    1.0 / (1.0 + (-eval / SCALE).exp())
}

/// Mean squared error of `weights` over `samples`.
pub fn error(weights: &Weights, samples: &[Sample]) -> f64 {
    mean_error(&to_params(weights), samples)
}

/// Mean squared error of the parameters `p` over `samples`.
fn mean_error(p: &[f64], samples: &[Sample]) -> f64 {
    samples
        .iter()
        .map(|s| (predict(p, s) - s.result).powi(2))
        .sum::<f64>()
        / samples.len().max(1) as f64
}

/// Fits weights to `samples` from `start`, `iterations` full-batch Adam steps, with an
/// L2 pull of strength `l2` towards `start` (weights the data says little about stay
/// where they were); `progress` sees the iteration and the error now and then.
pub fn fit(
    start: &Weights,
    samples: &[Sample],
    iterations: usize,
    l2: f64,
    progress: impl FnMut(usize, f64),
) -> Weights {
    from_params(&adam(
        &to_params(start),
        samples,
        iterations,
        1.0,
        l2,
        frozen,
        progress,
    ))
}

/// Fits a point table to `samples` (made for [`Form::Table`]) from `start`, as [`fit`]
/// does; the all-dead point stays worth nothing.
pub fn fit_table(
    start: &PointTable,
    samples: &[Sample],
    iterations: usize,
    l2: f64,
    progress: impl FnMut(usize, f64),
) -> PointTable {
    let p = adam(
        &table_params(start),
        samples,
        iterations,
        0.1,
        l2,
        |i| i % POINT_KEYS == 0,
        progress,
    );
    let role = |r: usize| {
        p[r * POINT_KEYS..(r + 1) * POINT_KEYS]
            .iter()
            .map(|v| v.round() as i32)
            .collect()
    };
    PointTable([role(0), role(1)])
}

/// Fits renju's weights (Black's, White's) to `samples` (made for [`Form::Renju`]) from
/// `start`, as [`fit`] does.
pub fn fit_renju(
    start: &[Weights; 2],
    samples: &[Sample],
    iterations: usize,
    l2: f64,
    progress: impl FnMut(usize, f64),
) -> [Weights; 2] {
    let p = adam(
        &renju_params(start),
        samples,
        iterations,
        1.0,
        l2,
        frozen,
        progress,
    );
    let (black, white) = p.split_at(2 * ROLE_FEATURES);
    [from_params(black), from_params(white)]
}

/// Mean squared error of renju's weights (Black's, White's) over `samples` (made for
/// [`Form::Renju`]).
pub fn renju_error(weights: &[Weights; 2], samples: &[Sample]) -> f64 {
    mean_error(&renju_params(weights), samples)
}

fn renju_params(weights: &[Weights; 2]) -> Vec<f64> {
    weights.iter().flat_map(to_params).collect()
}

/// Mean squared error of `table` over `samples` (made for [`Form::Table`]).
pub fn table_error(table: &PointTable, samples: &[Sample]) -> f64 {
    mean_error(&table_params(table), samples)
}

/// A point table as a parameter vector (mover's worths, then waiter's).
fn table_params(table: &PointTable) -> Vec<f64> {
    table.0.iter().flatten().map(|v| f64::from(*v)).collect()
}

/// Full-batch Adam (step size `rate`) on the mean squared error from `p0`, with an L2
/// pull of strength `l2` towards `p0`; parameters `frozen` says so stay put.
fn adam(
    p0: &[f64],
    samples: &[Sample],
    iterations: usize,
    rate: f64,
    l2: f64,
    frozen: impl Fn(usize) -> bool,
    mut progress: impl FnMut(usize, f64),
) -> Vec<f64> {
    let mut p = p0.to_vec();
    let n = p.len();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    for it in 1..=iterations {
        let mut grad = vec![0.0; n];
        let mut loss = 0.0;
        for s in samples {
            let y = predict(&p, s);
            let e = y - s.result;
            loss += e * e;
            // d/dw (y - r)^2 = 2 e y (1 - y) x / (4 SCALE)
            let g = 2.0 * e * y * (1.0 - y) / (4.0 * SCALE);
            for (i, x) in &s.features {
                grad[usize::from(*i)] += g * f64::from(*x);
            }
        }
        let count = samples.len().max(1) as f64;
        for i in 0..n {
            if frozen(i) {
                continue;
            }
            let g = grad[i] / count + 2.0 * l2 * (p[i] - p0[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(it as i32));
            let vh = v[i] / (1.0 - b2.powi(it as i32));
            p[i] -= rate * mh / (vh.sqrt() + eps);
        }
        if it % 50 == 0 || it == 1 {
            progress(it, loss / count);
        }
    }
    p
}

/// `weights` as the Rust source of `Weights`.
pub fn source(weights: &Weights) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "Weights([");
    for (role, name) in weights.0.iter().zip(["mover", "waiter"]) {
        let _ = writeln!(s, "    // {name}");
        let _ = writeln!(s, "    RoleWeights {{");
        let _ = writeln!(s, "        single: {:?},", role.single);
        let _ = writeln!(s, "        pair: [");
        for row in &role.pair {
            let _ = writeln!(s, "            {row:?},");
        }
        let _ = writeln!(s, "        ],");
        let _ = writeln!(s, "        combo: {:?},", role.combo);
        let _ = writeln!(s, "    }},");
    }
    let _ = writeln!(s, "])");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_reproduce_the_engine_evaluation() {
        let mut g = Game::new(15, 15, Rule::Freestyle).unwrap();
        for (x, y) in [(7, 7), (8, 8), (7, 8), (9, 9), (7, 6), (6, 6)] {
            g.play(Point::new(x, y)).unwrap();
        }
        let mut pos = Position::from_game(&g);
        let before = features(&pos);
        let last = pos.cell(Point::new(10, 10));
        pos.make(last);
        let now = features(&pos);
        let p = to_params(&Weights::default_weights());
        let eval = evaluation(&p, &averaged(&now, &before, Form::Weights));
        let engine = banco_engine::caro::eval::evaluate(&pos);
        assert!(
            (eval - f64::from(engine)).abs() <= 1.0,
            "{eval} vs {engine}"
        );

        // The point table made from the same weights gives the same evaluation.
        let mut pos = Position::from_game(&g);
        let before = table_features(&pos);
        pos.make(last);
        let now = table_features(&pos);
        let table = PointTable::from_weights(&Weights::default_weights());
        let p = table_params(&table);
        let eval = evaluation(&p, &averaged(&now, &before, Form::Table));
        assert!(
            (eval - f64::from(engine)).abs() <= 1.0,
            "{eval} vs {engine}"
        );
    }

    #[test]
    fn renju_features_reproduce_the_engine_evaluation_with_black_forbidden_points() {
        // Black's h8 g8 i9 i10 make i8 a double three: worth nothing to Black in renju.
        let moves = [(7, 7), (0, 14), (6, 7), (14, 0), (8, 8), (14, 14), (8, 9)];
        let eval_of = |rule: Rule| {
            let mut g = Game::new(15, 15, rule).unwrap();
            for (x, y) in moves {
                g.play(Point::new(x, y)).unwrap();
            }
            let mut pos = Position::from_game(&g);
            let before = renju_features(&pos);
            pos.make(pos.cell(Point::new(0, 0)));
            let now = renju_features(&pos);
            (pos, averaged(&now, &before, Form::Renju))
        };
        let (pos, features) = eval_of(Rule::Renju);
        let p = renju_params(&Weights::renju());
        let eval = evaluation(&p, &features);
        let engine = banco_engine::caro::eval::evaluate(&pos);
        assert!(
            (eval - f64::from(engine)).abs() <= 1.0,
            "{eval} vs {engine}"
        );
        let (freestyle, _) = eval_of(Rule::Freestyle);
        assert_ne!(engine, banco_engine::caro::eval::evaluate(&freestyle));
        // The fit keeps the colours apart and lowers the error on what it saw.
        let sample = Sample {
            features,
            result: 0.0,
            moves: String::new(),
        };
        let data = [sample];
        let start = Weights::renju();
        let fitted = fit_renju(&start, &data, 100, 0.0, |_, _| {});
        assert!(renju_error(&fitted, &data) < renju_error(&start, &data));
    }

    #[test]
    fn a_teacher_moves_the_targets_of_the_positions_it_scored() {
        let game = SavedGame {
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
            moves: [
                (7, 7),
                (0, 14),
                (8, 7),
                (14, 0),
                (7, 9),
                (1, 14),
                (3, 3),
                (2, 2),
                (9, 9),
            ]
            .iter()
            .map(|(x, y)| Point::new(*x, *y))
            .collect(),
            winner: Some(Stone::O),
            forfeit: false,
        };
        let mut data = samples(&game).unwrap();
        assert!(data.len() >= 2, "{} samples", data.len());
        let dir = std::env::temp_dir().join(format!("banco-texel-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("teacher.txt");
        std::fs::write(&file, format!("# a teacher\n{};200\n", data[0].moves)).unwrap();
        let scores = read_teacher(&file).unwrap();
        let before: Vec<f64> = data.iter().map(|s| s.result).collect();
        assert_eq!(apply_teacher(&mut data, &scores, 0.5), 1);
        let chance = 1.0 / (1.0 + (-1.0f64).exp());
        assert!((data[0].result - (0.5 * chance + 0.5 * before[0])).abs() < 1e-9);
        assert_eq!(data[1].result, before[1]);
        std::fs::write(&file, "7,7 0,14;high\n").unwrap();
        let err = read_teacher(&file).unwrap_err().to_string();
        assert!(err.contains("line 1: bad score"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn fitting_lowers_the_error() {
        // Two kinds of position: X to move with an open two won, O to move with an open
        // two of X's lost... any consistent data must fit better after fitting.
        let mut games = Vec::new();
        for (i, winner) in [(0, Stone::X), (1, Stone::X), (2, Stone::O)] {
            let moves = [
                (7, 7),
                (0, 14),
                (8, 7),
                (14, 0),
                (7 + i, 9),
                (1, 14),
                (3, 3),
            ]
            .iter()
            .map(|(x, y)| Point::new(*x, *y))
            .collect();
            games.push(SavedGame {
                width: 15,
                height: 15,
                rule: Rule::Freestyle,
                moves,
                winner: Some(winner),
                forfeit: false,
            });
        }
        let data: Vec<Sample> = games.iter().flat_map(|g| samples(g).unwrap()).collect();
        assert!(!data.is_empty());
        let start = Weights::default_weights();
        let fitted = fit(&start, &data, 200, 0.0, |_, _| {});
        assert!(error(&fitted, &data) < error(&start, &data));
        assert!(source(&fitted).starts_with("Weights(["));
    }
}
