//! Texel tuning of the xiangqi evaluation: fit material, piece-square tables and the
//! multi-piece terms to what positions from real games turned out to be worth.
//!
//! The pipeline, each step a `banco-arena` subcommand:
//! 1. `xiangqi-openings`: balanced random openings, so that engines that play the same
//!    moves every time still give varied games.
//! 2. `match --out DIR` with those openings: games.
//! 3. `xiangqi-positions`: quiet positions from the games (not in check, no capture
//!    that wins material), each with the game's result and, if a teacher engine is
//!    named, that engine's search score.
//! 4. `texel`: fits the evaluation's weights by gradient descent on the squared error
//!    between the predicted and the observed result (and the teacher's verdict), and
//!    prints the tuned tables as Rust source for `psq.rs` and `eval.rs`.
//!
//! The evaluation is linear in its weights once the game phase is known (middlegame and
//! endgame parts blended by the material left), so each position becomes a sparse
//! feature vector computed once; the fit then runs over those vectors only.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use banco_engine::bot::{Bot, Limits};
use banco_engine::xiangqi::Config;
use banco_engine::xiangqi::eval::{TERM_NAMES, Weights, terms};
use banco_engine::xiangqi::psq::{MATERIAL, PHASE_MAX, PSQ};
use banco_engine::xiangqi::see::Exchange;
use banco_engine::xiangqi::{Engine, Position};
use banco_rules::Level;
use banco_rules::xiangqi::{Color, Game, GenType, Kind, MoveList, Piece, Square};

use crate::process::EngineProcess;
use crate::rng::Rng;

/// Piece-square entries per kind: ten ranks (from the owner's side) by five files (a
/// file and its mirror share an entry).
const PST_PER_KIND: usize = 50;
const MATERIAL_AT: usize = 0;
const PST_AT: usize = 6;
const TERMS_AT: usize = PST_AT + 7 * PST_PER_KIND;
const TEMPO_AT: usize = TERMS_AT + TERM_NAMES.len();
/// Weights fitted: six material values, the tables, the terms, the tempo.
pub const PARAMS: usize = TEMPO_AT + 1;

/// A position made ready for fitting.
#[derive(Debug, Clone)]
pub struct Sample {
    /// Middlegame share of the blend, 0..=PHASE_MAX.
    phase: f32,
    /// +1 when Red is to move, -1 otherwise (the tempo's sign).
    side: f32,
    /// What the position is worth for Red, 0..=1.
    target: f32,
    /// Non-zero features: (weight index, middlegame and endgame multipliers).
    features: Vec<(u16, f32, f32)>,
}

/// The piece-square entry of `piece` on `sq`.
fn pst_index(piece: Piece, sq: Square) -> usize {
    let rank = match piece.color() {
        Color::Red => sq.rank(),
        Color::Black => 9 - sq.rank(),
    } as usize;
    let file = sq.file().min(8 - sq.file()) as usize;
    PST_AT + piece.kind().index() * PST_PER_KIND + rank * 5 + file
}

/// The position's features, or `None` when the evaluation is not linear there (a side
/// with nothing left to attack with has its advantage scaled down).
pub fn sample(pos: &Position, target: f64) -> Option<Sample> {
    if !pos.has_attackers(Color::Red) || !pos.has_attackers(Color::Black) {
        return None;
    }
    let mut dense = vec![(0.0f32, 0.0f32); PARAMS];
    for (sq, piece) in pos.pieces() {
        let sign = if piece.color() == Color::Red {
            1.0
        } else {
            -1.0
        };
        if piece.kind() != Kind::King {
            let m = MATERIAL_AT + piece.kind().index() - 1;
            dense[m].0 += sign;
            dense[m].1 += sign;
        }
        let p = pst_index(piece, sq);
        dense[p].0 += sign;
        dense[p].1 += sign;
    }
    for (i, (mg, eg)) in terms(pos).into_iter().enumerate() {
        dense[TERMS_AT + i] = (mg as f32, eg as f32);
    }
    let features = dense
        .into_iter()
        .enumerate()
        .filter(|(_, (m, e))| *m != 0.0 || *e != 0.0)
        .map(|(i, (m, e))| (i as u16, m, e))
        .collect();
    Some(Sample {
        phase: pos.tally().phase.clamp(0, PHASE_MAX) as f32,
        side: if pos.side_to_move() == Color::Red {
            1.0
        } else {
            -1.0
        },
        target: target as f32,
        features,
    })
}

/// The evaluation's weights as the fit sees them: (middlegame, endgame) per index.
pub fn current_params() -> Vec<(f64, f64)> {
    let mut p = vec![(0.0, 0.0); PARAMS];
    for kind in 1..7 {
        let (mg, eg) = MATERIAL[kind];
        p[MATERIAL_AT + kind - 1] = (f64::from(mg), f64::from(eg));
    }
    for kind in Kind::ALL {
        let piece = Piece::new(Color::Red, kind);
        let (mg, eg) = MATERIAL[kind.index()];
        for rank in 0..10u8 {
            for file in 0..5u8 {
                let Some(sq) = Square::new(file, rank) else {
                    continue;
                };
                let (m, e) = PSQ[piece.code()][sq.index()];
                p[pst_index(piece, sq)] = (f64::from(m - mg), f64::from(e - eg));
            }
        }
    }
    let w = Weights::DEFAULT;
    let pairs = [
        (w.missing_advisor, 0),
        (w.missing_elephant, 0),
        w.hollow_cannon,
        w.central_cannon,
        w.rook_mobility,
        w.horse_mobility,
        w.cannon_mobility,
        w.trapped_horse,
        w.pawn_pair,
        w.king_attack,
    ];
    for (i, (m, e)) in pairs.into_iter().enumerate() {
        p[TERMS_AT + i] = (f64::from(m), f64::from(e));
    }
    p[TEMPO_AT] = (f64::from(w.tempo), f64::from(w.tempo));
    p
}

/// Red's evaluation of a sample under `params`.
fn predict(s: &Sample, params: &[(f64, f64)]) -> f64 {
    let mut mg = 0.0;
    let mut eg = 0.0;
    for &(i, m, e) in &s.features {
        let (pm, pe) = params[i as usize];
        mg += f64::from(m) * pm;
        eg += f64::from(e) * pe;
    }
    let phase = f64::from(s.phase);
    let max = f64::from(PHASE_MAX);
    (mg * phase + eg * (max - phase)) / max + f64::from(s.side) * params[TEMPO_AT].0
}

fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + (-k * e).exp())
}

/// Mean squared error of `params` on `samples` with scale `k`.
pub fn error(samples: &[Sample], params: &[(f64, f64)], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| (sigmoid(k, predict(s, params)) - f64::from(s.target)).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// The scale that fits the current weights best (golden-section search).
pub fn fit_scale(samples: &[Sample], params: &[(f64, f64)]) -> f64 {
    let (mut lo, mut hi) = (0.0005f64, 0.05f64);
    for _ in 0..40 {
        let a = lo + (hi - lo) * 0.382;
        let b = lo + (hi - lo) * 0.618;
        if error(samples, params, a) < error(samples, params, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Fits `params` to `samples` by Adam on the squared error, with a pull toward the
/// starting values (`pull` per unit squared) so that weights the data hardly sees stay
/// where they were. `on_epoch` hears the training error and the weights now and then.
pub fn fit(
    samples: &[Sample],
    params: &mut [(f64, f64)],
    k: f64,
    epochs: usize,
    rate: f64,
    pull: f64,
    mut on_epoch: impl FnMut(usize, f64, &[(f64, f64)]),
) {
    let start = params.to_vec();
    let n = samples.len().max(1) as f64;
    let mut m = vec![(0.0, 0.0); params.len()];
    let mut v = vec![(0.0, 0.0); params.len()];
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let max = f64::from(PHASE_MAX);
    for epoch in 1..=epochs {
        let mut grad = vec![(0.0f64, 0.0f64); params.len()];
        for s in samples {
            let p = sigmoid(k, predict(s, params));
            let d = 2.0 * (p - f64::from(s.target)) * p * (1.0 - p) * k / n;
            let phase = f64::from(s.phase);
            let (gm, ge) = (d * phase / max, d * (max - phase) / max);
            for &(i, fm, fe) in &s.features {
                let g = &mut grad[i as usize];
                g.0 += gm * f64::from(fm);
                g.1 += ge * f64::from(fe);
            }
            grad[TEMPO_AT].0 += d * f64::from(s.side);
        }
        for (i, g) in grad.iter_mut().enumerate() {
            g.0 += 2.0 * pull * (params[i].0 - start[i].0);
            g.1 += 2.0 * pull * (params[i].1 - start[i].1);
        }
        let t = epoch as i32;
        for i in 0..params.len() {
            let step = |m: &mut f64, v: &mut f64, g: f64| {
                *m = b1 * *m + (1.0 - b1) * g;
                *v = b2 * *v + (1.0 - b2) * g * g;
                let mh = *m / (1.0 - b1.powi(t));
                let vh = *v / (1.0 - b2.powi(t));
                rate * mh / (vh.sqrt() + eps)
            };
            params[i].0 -= step(&mut m[i].0, &mut v[i].0, grad[i].0);
            params[i].1 -= step(&mut m[i].1, &mut v[i].1, grad[i].1);
        }
        // The tempo is one number, not a pair.
        params[TEMPO_AT].1 = params[TEMPO_AT].0;
        if epoch % 50 == 0 || epoch == epochs {
            on_epoch(epoch, error(samples, params, k), params);
        }
    }
}

/// The fitted weights as Rust source: the material and square tables for `psq.rs`
/// (each kind's table shifted so that its mean over the points it can stand on is 0,
/// the shift moved into its material) and the terms for `eval.rs`.
pub fn source(params: &[(f64, f64)]) -> String {
    let mut out = String::new();
    let mut material = [(0i32, 0i32); 7];
    let _ = writeln!(
        out,
        "// Square tables (own side, rank 0 first; files a..e, mirrored):"
    );
    for kind in Kind::ALL {
        let piece = Piece::new(Color::Red, kind);
        // Points the kind can stand on, for the mean.
        let reachable: Vec<Square> = Square::all()
            .filter(|sq| sq.file() <= 4 && can_stand(kind, *sq))
            .collect();
        let mean = |f: fn(&(f64, f64)) -> f64| {
            reachable
                .iter()
                .map(|&sq| f(&params[pst_index(piece, sq)]))
                .sum::<f64>()
                / reachable.len().max(1) as f64
        };
        let (mm, me) = if kind == Kind::King {
            (0.0, 0.0)
        } else {
            (mean(|p| p.0), mean(|p| p.1))
        };
        if kind != Kind::King {
            let (bm, be) = params[MATERIAL_AT + kind.index() - 1];
            material[kind.index()] = ((bm + mm).round() as i32, (be + me).round() as i32);
        }
        let _ = writeln!(out, "// {}", kind.name());
        let _ = writeln!(
            out,
            "const {}: [[(i32, i32); 5]; 10] = [",
            kind.name().to_uppercase()
        );
        for rank in 0..10u8 {
            let row: Vec<String> = (0..5u8)
                .map(|file| {
                    let Some(sq) = Square::new(file, rank) else {
                        return "(0, 0)".to_string();
                    };
                    if !can_stand(kind, sq) {
                        return "(0, 0)".to_string();
                    }
                    let (m, e) = params[pst_index(piece, sq)];
                    format!("({}, {})", (m - mm).round() as i32, (e - me).round() as i32)
                })
                .collect();
            let _ = writeln!(out, "    [{}],", row.join(", "));
        }
        let _ = writeln!(out, "];");
    }
    let _ = writeln!(
        out,
        "// Material (general, advisor, elephant, horse, chariot, cannon, soldier):"
    );
    let _ = writeln!(out, "pub const MATERIAL: [(i32, i32); 7] = {material:?};");
    let _ = writeln!(out, "// Terms:");
    for (i, name) in TERM_NAMES.iter().enumerate() {
        let (m, e) = params[TERMS_AT + i];
        let _ = writeln!(
            out,
            "//   {name}: ({}, {})",
            m.round() as i32,
            e.round() as i32
        );
    }
    let _ = writeln!(out, "//   tempo: {}", params[TEMPO_AT].0.round() as i32);
    out
}

/// Whether a Red piece of `kind` can ever stand on `sq`.
fn can_stand(kind: Kind, sq: Square) -> bool {
    let (f, r) = (sq.file(), sq.rank());
    match kind {
        Kind::King => (3..=5).contains(&f) && r <= 2,
        Kind::Advisor => matches!((f, r), (3 | 5, 0 | 2) | (4, 1)),
        Kind::Elephant => matches!((f, r), (2 | 6, 0 | 4) | (0 | 4 | 8, 2)),
        Kind::Pawn => r >= 5 || (r >= 3 && f % 2 == 0),
        _ => true,
    }
}

/// Whether the side to move has nothing to settle: not in check, and no capture that
/// wins material (so the static evaluation is what a quiescence search would return).
pub fn is_quiet(pos: &Position) -> bool {
    if pos.in_check() {
        return false;
    }
    let mut caps = MoveList::new();
    pos.generate(GenType::Captures, &mut caps);
    !caps
        .iter()
        .any(|&m| pos.is_legal_move(m) && pos.see_ge(m, 1))
}

/// Balanced random openings: `plies` random legal moves from the start, kept when a
/// short search scores the position within `max_score` for the side to move. Written
/// as an openings file for `match --openings`.
pub fn random_openings(count: usize, plies: usize, max_score: i32, seed: u64) -> Result<String> {
    let mut rng = Rng::new(seed);
    let mut config = Config::for_level(Level::Max);
    config.use_book = false;
    config.hash_mb = 16;
    let mut engine = Engine::with_config(config);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Random xiangqi openings: `banco-arena xiangqi-openings --count {count} --plies {plies} --max-score {max_score} --seed {seed}`"
    );
    let mut seen = std::collections::HashSet::new();
    let mut found = 0;
    let mut tries = 0;
    while found < count {
        tries += 1;
        if tries > count * 200 {
            bail!("found only {found} balanced openings");
        }
        let mut game = Game::new();
        let mut moves = Vec::new();
        for _ in 0..plies {
            let legal = game.legal_moves();
            if legal.is_empty() || game.outcome().is_some() {
                break;
            }
            let mv = legal[rng.below(legal.len())];
            game.play(mv)?;
            moves.push(mv.to_string());
        }
        if moves.len() < plies || game.outcome().is_some() || !seen.insert(game.position().key()) {
            continue;
        }
        engine.new_game();
        let t = engine.think(&game, &Limits::none().depth(7));
        if t.score.abs() > max_score {
            continue;
        }
        let _ = writeln!(out, "{}  # score {:+}", moves.join(" "), t.score);
        found += 1;
    }
    Ok(out)
}

/// A saved game: its moves and Red's result (1, 1/2 or 0).
fn read_game(path: &Path) -> Result<(Vec<String>, f64)> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let result = text
        .lines()
        .find_map(|l| l.strip_prefix("# result: "))
        .with_context(|| format!("{} has no result line", path.display()))?;
    let red = match result.split_whitespace().next() {
        Some("1-0") => 1.0,
        Some("0-1") => 0.0,
        Some("1/2-1/2") => 0.5,
        _ => bail!("{}: unreadable result '{result}'", path.display()),
    };
    if !text.lines().any(|l| l == "# game: xiangqi") {
        bail!(
            "{} is not a xiangqi game from the start position",
            path.display()
        );
    }
    let moves = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.trim().to_string())
        .collect();
    Ok((moves, red))
}

/// A teacher: an external UCI engine that scores positions by a fixed-depth search.
pub struct Teacher {
    process: EngineProcess,
    depth: u32,
}

impl Teacher {
    pub fn start(command: &str, depth: u32) -> Result<Teacher> {
        let mut process = EngineProcess::spawn(command, "quit")?;
        process.send("uci")?;
        let mut variants = false;
        process.read_until(Duration::from_secs(60), |l| {
            variants |= l.starts_with("option name UCI_Variant");
            l == "uciok"
        })?;
        if variants {
            process.send("setoption name UCI_Variant value xiangqi")?;
        }
        process.send("isready")?;
        process.read_until(Duration::from_secs(60), |l| l == "readyok")?;
        Ok(Teacher { process, depth })
    }

    /// The teacher's score of `fen` for Red, in its centipawns (mates as ±10000).
    pub fn score(&mut self, fen: &str, red_to_move: bool) -> Result<i32> {
        self.process.send(&format!("position fen {fen}"))?;
        self.process.send(&format!("go depth {}", self.depth))?;
        let mut score = 0;
        self.process.read_until(Duration::from_secs(120), |l| {
            let mut words = l.split_whitespace();
            while let Some(w) = words.next() {
                if w == "score" {
                    match (
                        words.next(),
                        words.next().and_then(|n| n.parse::<i32>().ok()),
                    ) {
                        (Some("cp"), Some(n)) => score = n,
                        (Some("mate"), Some(n)) => score = if n > 0 { 10_000 } else { -10_000 },
                        _ => {}
                    }
                }
            }
            l.starts_with("bestmove")
        })?;
        Ok(if red_to_move { score } else { -score })
    }
}

/// Quiet positions from saved games, one line each: `FEN;result;teacher score` (the
/// score empty without a teacher). Positions before `skip` plies are left out, then
/// every `every`th quiet position is taken.
pub fn positions(
    games: &[impl AsRef<Path>],
    skip: usize,
    every: usize,
    mut teacher: Option<&mut Teacher>,
    mut emit: impl FnMut(&str),
) -> Result<usize> {
    let mut kept = 0;
    let mut seen = std::collections::HashSet::new();
    let mut counter = 0usize;
    for path in games {
        let (moves, result) = read_game(path.as_ref())?;
        let mut game = Game::new();
        for (ply, text) in moves.iter().enumerate() {
            let pos = game.position();
            if ply >= skip && is_quiet(&pos.with_tally()) && seen.insert(pos.key()) {
                counter += 1;
                if counter.is_multiple_of(every.max(1)) {
                    let fen = pos.fen();
                    let score = match teacher.as_deref_mut() {
                        Some(t) => t.score(&fen, pos.side_to_move() == Color::Red)?.to_string(),
                        None => String::new(),
                    };
                    emit(&format!("{fen};{result};{score}"));
                    kept += 1;
                }
            }
            let mv = text
                .parse()
                .with_context(|| format!("{}: bad move '{text}'", path.as_ref().display()))?;
            if game.play(mv).is_err() {
                break;
            }
        }
    }
    Ok(kept)
}

/// Reads a positions file into samples: the target is the game result, blended with
/// the teacher's verdict (a logistic of its score over `teacher_scale` centipawns)
/// by `teacher_share` where there is one.
pub fn read_samples(text: &str, teacher_share: f64, teacher_scale: f64) -> Result<Vec<Sample>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let (Some(fen), Some(result)) = (parts.next(), parts.next()) else {
            bail!("line {}: expected FEN;result;score", i + 1);
        };
        let result: f64 = result
            .trim()
            .parse()
            .with_context(|| format!("line {}: bad result", i + 1))?;
        let target = match parts.next().map(str::trim).filter(|s| !s.is_empty()) {
            Some(score) => {
                let score: f64 = score
                    .parse()
                    .with_context(|| format!("line {}: bad score", i + 1))?;
                let verdict = 1.0 / (1.0 + (-score / teacher_scale).exp());
                teacher_share * verdict + (1.0 - teacher_share) * result
            }
            None => result,
        };
        let pos = banco_engine::xiangqi::from_fen(fen)
            .with_context(|| format!("line {}: bad FEN", i + 1))?;
        if let Some(s) = sample(&pos, target) {
            out.push(s);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_engine::xiangqi::eval::evaluate;

    #[test]
    fn the_features_reproduce_the_evaluation() {
        let params = current_params();
        for fen in [
            banco_rules::xiangqi::START,
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "rnbakabnr/9/1c5c1/p1p3p1p/9/9/P1P3P1P/4C2C1/9/RNBAKABNR b",
            "2bak4/3Ra4/4bc3/4N4/2p6/9/9/4C4/9/3AK4 w",
        ] {
            let pos = banco_engine::xiangqi::from_fen(fen).unwrap();
            let s = sample(&pos, 0.5).unwrap();
            let red = predict(&s, &params);
            let own = f64::from(evaluate(&pos));
            let want = if pos.side_to_move() == Color::Red {
                own
            } else {
                -own
            };
            assert!((red - want).abs() <= 1.5, "{fen}: {red} vs {want}");
        }
    }

    #[test]
    fn fitting_lowers_the_error() {
        // Two made-up positions with results that disagree with the evaluation.
        let lines = "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w;0;\n\
                     rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN1 w;1;\n";
        let samples = read_samples(lines, 0.0, 100.0).unwrap();
        let mut params = current_params();
        let before = error(&samples, &params, 0.01);
        fit(&samples, &mut params, 0.01, 100, 2.0, 0.0, |_, _, _| {});
        assert!(error(&samples, &params, 0.01) < before);
        assert!(source(&params).contains("pub const MATERIAL"));
    }
}
