//! The Dutch system against bbpPairings: every round of every committed fixture (random
//! tournaments generated and paired by bbpPairings, see tools/make-fixtures.sh) is paired
//! again from the rounds before it and must come out board for board the same, colours
//! and bye included.

use std::fs;
use std::path::{Path, PathBuf};

use banco_pairing::{dutch, trf};

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dutch");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("the fixtures directory")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .collect();
    files.sort();
    files
}

/// Re-pairs one file; returns its rounds and the rounds that differ.
fn check(path: &Path) -> (usize, Vec<String>) {
    let text = fs::read_to_string(path).expect("a readable fixture");
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let t = match trf::read(&text) {
        Ok(t) => t.tournament,
        Err(e) => return (0, vec![format!("{name}: {e}")]),
    };
    let differences = dutch::recheck(&t)
        .into_iter()
        .map(|d| {
            format!(
                "{name}: round {}: recorded {:?}, paired {:?}",
                d.round, d.recorded, d.paired
            )
        })
        .collect();
    (t.rounds.len(), differences)
}

#[test]
fn every_fixture_round_is_paired_as_bbppairings_paired_it() {
    let files = fixtures();
    assert!(
        files.len() >= 300,
        "expected the 300 committed fixtures, found {}",
        files.len()
    );
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let results: Vec<(usize, Vec<String>)> = std::thread::scope(|s| {
        let chunks: Vec<&[PathBuf]> = files.chunks(files.len().div_ceil(workers)).collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| s.spawn(move || chunk.iter().map(|f| check(f)).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a worker"))
            .collect()
    });
    let rounds: usize = results.iter().map(|(r, _)| r).sum();
    let differences: Vec<&String> = results.iter().flat_map(|(_, d)| d).collect();
    assert!(rounds > 1500, "only {rounds} rounds re-paired");
    assert!(
        differences.is_empty(),
        "{} of {rounds} rounds differ from bbpPairings:\n{}",
        differences.len(),
        differences
            .iter()
            .take(10)
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn a_round_paired_differently_is_reported() {
    let files = fixtures();
    let text = fs::read_to_string(&files[0]).expect("a readable fixture");
    let mut t = trf::read(&text).expect("a valid fixture").tournament;
    assert!(dutch::recheck(&t).is_empty());
    // Swap the colours of one board of round 2: the rules give the other way round.
    let game = &mut t.rounds[1].games[0];
    std::mem::swap(&mut game.white, &mut game.black);
    let differences = dutch::recheck(&t);
    assert!(differences.iter().any(|d| d.round == 2), "{differences:?}");
}
