//! banco-pairing: who plays whom next, as a pure function of a tournament's history.
//!
//! - [`matching`]: maximum weight matching (Edmonds' blossoms) with warm starts.
//! - [`wide`]: the wide unsigned integers the Dutch weights need.

pub mod matching;
pub mod wide;
