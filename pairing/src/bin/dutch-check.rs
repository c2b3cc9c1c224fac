//! Checks the Dutch pairings against bbpPairings (filled in with the Dutch system).

fn main() {}
