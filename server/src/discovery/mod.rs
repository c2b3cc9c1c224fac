//! LAN discovery: players find servers on their network without typing an address.
//!
//! A client broadcasts a [`Probe`](banco_protocol::discovery::Probe) to UDP port 7373;
//! every server listening for discovery answers the sender with a
//! [`Beacon`](banco_protocol::discovery::Beacon): its name, the TCP port of its game
//! service, and how many rooms and people it has. The game address is the beacon's
//! source address with that port.
//!
//! - `answer`: the server side, a task answering probes ([`answer::serve`]).
//! - `throttle`: how often the server answers, so it cannot be used to flood anyone.
//! - `probe`: the client side, [`probe()`] and [`default_targets`].

pub mod answer;
mod probe;
mod throttle;

pub use answer::Census;
pub use probe::{default_targets, discover, probe};
