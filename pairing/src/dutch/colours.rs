//! Colour allocation on a board (C.04.3 article 5): grant both preferences when they
//! differ; else the stronger preference (absolute over strong over mild, the larger
//! imbalance among absolutes); else alternate from the last round the two players had
//! different colours; else the higher-ranked player's preference, or, without any, the
//! initial colour alternating by pairing number.

use super::entrant::Entrant;
use super::weights::preferences_compatible;
use crate::tournament::Colour;

/// The colour `p` gets against `o`.
pub(super) fn colour_of(p: &Entrant, o: &Entrant, initial: Colour) -> Colour {
    if let Some(colour) = by_preferences(p, o) {
        return colour;
    }
    let p_below = (p.now(), o.rank) < (o.now(), p.rank);
    match p.preference {
        None if p_below => {
            if o.rank % 2 == 1 {
                initial
            } else {
                initial.other()
            }
        }
        None => {
            if p.rank % 2 == 1 {
                initial.other()
            } else {
                initial
            }
        }
        Some(own) if p_below => o.preference.map_or(own, Colour::other),
        Some(own) => own,
    }
}

/// The colour `p` gets when the preferences (and history) decide it.
fn by_preferences(p: &Entrant, o: &Entrant) -> Option<Colour> {
    if preferences_compatible(p.preference, o.preference) {
        return p.preference.or(o.preference.map(Colour::other));
    }
    if p.absolute() && (p.imbalance > o.imbalance || !o.absolute()) {
        return p.preference;
    }
    if o.absolute() && (o.imbalance > p.imbalance || !p.absolute()) {
        return o.preference.map(Colour::other);
    }
    if p.strong && !o.strong {
        return p.preference;
    }
    if o.strong && !p.strong {
        return o.preference.map(Colour::other);
    }
    // The latest round in which they had different colours: each takes the other's.
    let mut pi = p.colours.iter().rev();
    let mut oi = o.colours.iter().rev();
    loop {
        match (pi.next(), oi.next()) {
            (Some(a), Some(b)) if a == b => continue,
            (Some(_), Some(b)) => return Some(*b),
            _ => return None,
        }
    }
}
