//! What each [`Level`] may spend and how it plays.
//!
//! Levels differ in time, depth and hash size (from `advanced` up each stops at a
//! depth, where `max` goes as deep as its time allows), and the three lower ones in a
//! deliberate imprecision: every root move is scored exactly and a random offset (up to
//! `root_noise`) is added before choosing, the way a casual player misjudges. Mate scores
//! get no offset, so every level plays a mate in one when it has one and never walks into
//! a mate in one it can avoid (easy searches two plies, enough to see both). `easy` and
//! `casual` also lapse now and then (`lapse`): they take the most they can, or move at
//! random, without looking at the reply, which is how a beginner's plain play beats
//! `easy`; a lapse still mates in one and never walks into a mate in one. Each level's
//! distance from its neighbours is measured in the book's xiangqi results (the level
//! ladder); a change here is measured there again.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::eval::Weights;
use banco_rules::Level;

/// Engine settings. [`Config::for_level`] gives the tuned ones.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Nominal thinking time per move; a caller's deadline can only shorten it.
    pub move_time: Duration,
    /// Deepest iteration.
    pub max_depth: u32,
    /// Transposition table size in megabytes.
    pub hash_mb: usize,
    /// Random offset (either way, at most) added to each root move's score; 0 plays the
    /// best move.
    pub root_noise: i32,
    /// In how many moves of a hundred the level lapses: it grabs what it can take, or
    /// else moves something, without looking at the reply (it still mates in one and
    /// never walks into a mate in one). 0: never.
    pub lapse: u32,
    /// Whether to play from the opening book.
    pub use_book: bool,
    /// The share of the move time planned for a settled position (the time manager
    /// spends more when the position asks for it).
    pub soft_fraction: f64,
    /// Evaluation weights.
    pub weights: Weights,
    /// How far below even the engine scores a draw for itself (plays on rather than
    /// repeat in a balanced position).
    pub contempt: i32,
    /// Seed for the book's and the noise's random choices.
    pub seed: u64,
}

impl Config {
    /// The settings of `level`.
    pub fn for_level(level: Level) -> Config {
        let seed = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0x5EED, |d| d.as_nanos() as u64);
        let base = Config {
            move_time: Duration::from_secs(5),
            max_depth: 96,
            hash_mb: 64,
            root_noise: 0,
            lapse: 0,
            use_book: true,
            soft_fraction: super::timeman::OPTIMUM_SHARE,
            weights: Weights::DEFAULT,
            contempt: 20,
            seed,
        };
        match level {
            Level::Easy => Config {
                move_time: Duration::from_millis(300),
                max_depth: 2,
                hash_mb: 4,
                root_noise: 150,
                lapse: 40,
                ..base
            },
            Level::Casual => Config {
                move_time: Duration::from_millis(500),
                max_depth: 2,
                hash_mb: 8,
                root_noise: 80,
                lapse: 10,
                ..base
            },
            Level::Medium => Config {
                move_time: Duration::from_millis(700),
                max_depth: 3,
                hash_mb: 16,
                root_noise: 80,
                ..base
            },
            Level::Advanced => Config {
                move_time: Duration::from_millis(800),
                max_depth: 5,
                hash_mb: 16,
                ..base
            },
            Level::Hard => Config {
                move_time: Duration::from_millis(1000),
                max_depth: 7,
                hash_mb: 32,
                ..base
            },
            Level::Expert => Config {
                move_time: Duration::from_millis(2500),
                max_depth: 10,
                hash_mb: 48,
                ..base
            },
            Level::Max => base,
        }
    }
}
