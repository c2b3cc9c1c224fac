//! What each [`Level`] may spend and how it plays.
//!
//! Levels differ in time, depth, threat-search budgets and, for `easy` and `casual`, a
//! deliberate imprecision and lapses: they sometimes pick a move that scored a little below
//! the best, the way a casual player misjudges, and now and then play their own line
//! without looking at the opponent's, so an open three of the opponent's may go
//! unanswered, the way a beginner loses. Every level still takes an immediate five and
//! blocks a five threat (those are settled before any choice is made); the levels above
//! `casual` never lapse. Neighbours stand some 200-300 Elo apart, measured in the book's
//! caro results (the level ladder); a change here is measured there again.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use banco_rules::Level;

/// Engine settings. [`Config::for_level`] gives the tuned ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Nominal thinking time per move; a caller's deadline can only shorten it.
    pub move_time: Duration,
    /// Deepest iteration.
    pub max_depth: u32,
    /// Transposition table size: `2^tt_bits` buckets of two entries, 32 bytes each
    /// ([`BUCKET_BYTES`](super::tt::BUCKET_BYTES)).
    pub tt_bits: u32,
    /// Node budget of the VCF at the root (0: none).
    pub root_vcf_nodes: u64,
    /// Node budget of the VCT at the root (0: none).
    pub root_vct_nodes: u64,
    /// Most threats in a root VCT line.
    pub vct_depth: u32,
    /// Most fours in a row the quiescence search plays.
    pub qsearch_fours: u32,
    /// Node budget of the VCT the search tries at a principal-variation leaf with a
    /// double open three (0: none). Off at every level: in A/B matches at 300 ms/move it
    /// cost more depth than it found wins (-89 +- 109 Elo over 40 games).
    pub leaf_vct_nodes: u64,
    /// How far below the best score (in evaluation units) a move may score and still be
    /// picked; 0 always plays the best.
    pub imprecision: i32,
    /// In how many moves of a hundred the level lapses: it plays its own best line as a
    /// beginner would and does not look at the opponent's (it still takes a five and
    /// stops one). 0: never.
    pub lapse: u32,
    /// Seed of the generator behind that choice.
    pub seed: u64,
}

impl Config {
    /// The settings of `level`.
    pub fn for_level(level: Level) -> Config {
        let seed = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0x5EED, |d| d.as_nanos() as u64);
        match level {
            Level::Easy => Config {
                move_time: Duration::from_millis(200),
                max_depth: 2,
                tt_bits: 16,
                root_vcf_nodes: 0,
                root_vct_nodes: 0,
                vct_depth: 0,
                qsearch_fours: 1,
                leaf_vct_nodes: 0,
                imprecision: 200,
                lapse: 70,
                seed,
            },
            Level::Casual => Config {
                move_time: Duration::from_millis(300),
                max_depth: 3,
                tt_bits: 17,
                root_vcf_nodes: 0,
                root_vct_nodes: 0,
                vct_depth: 0,
                qsearch_fours: 2,
                leaf_vct_nodes: 0,
                imprecision: 70,
                lapse: 15,
                seed,
            },
            Level::Medium => Config {
                move_time: Duration::from_millis(500),
                max_depth: 5,
                tt_bits: 18,
                root_vcf_nodes: 20_000,
                root_vct_nodes: 0,
                vct_depth: 0,
                qsearch_fours: 4,
                leaf_vct_nodes: 0,
                imprecision: 0,
                lapse: 0,
                seed,
            },
            Level::Advanced => Config {
                move_time: Duration::from_millis(1000),
                max_depth: 7,
                tt_bits: 19,
                root_vcf_nodes: 80_000,
                root_vct_nodes: 20_000,
                vct_depth: 4,
                qsearch_fours: 6,
                leaf_vct_nodes: 0,
                imprecision: 0,
                lapse: 0,
                seed,
            },
            // `max` stopped at depth 10, with the threat solvers kept: it sees forced wins
            // but not as far. Before, it was `max` on less time and the ladder could not
            // tell them apart (max won 60% of 10 games); `advanced` (depth 7) and `expert`
            // (depth 13) stand between it and its neighbours (see the level ladder in the
            // book's caro results).
            Level::Hard => Config {
                move_time: Duration::from_millis(1500),
                max_depth: 10,
                tt_bits: 20,
                root_vcf_nodes: 200_000,
                root_vct_nodes: 60_000,
                vct_depth: 6,
                qsearch_fours: 8,
                leaf_vct_nodes: 0,
                imprecision: 0,
                lapse: 0,
                seed,
            },
            Level::Expert => Config {
                move_time: Duration::from_millis(3000),
                max_depth: 13,
                tt_bits: 21,
                root_vcf_nodes: 400_000,
                root_vct_nodes: 150_000,
                vct_depth: 7,
                qsearch_fours: 10,
                leaf_vct_nodes: 0,
                imprecision: 0,
                lapse: 0,
                seed,
            },
            Level::Max => Config {
                move_time: Duration::from_millis(5000),
                max_depth: 60,
                tt_bits: 22,
                root_vcf_nodes: 600_000,
                root_vct_nodes: 300_000,
                vct_depth: 8,
                qsearch_fours: 10,
                leaf_vct_nodes: 0,
                imprecision: 0,
                lapse: 0,
                seed,
            },
        }
    }
}
