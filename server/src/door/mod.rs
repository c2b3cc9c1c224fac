//! The door of the game port: every accepted connection is told apart here, by its first
//! byte, and handed to what speaks its language.
//!
//! - [`accept`]: one accepted connection: TLS (then banco or HTTPS inside, by ALPN),
//!   plain HTTP, or a plain banco client; the handshake is bounded in time and runs in the
//!   connection's own task, never the accept loop's.
//! - [`cleartext`]: what plain HTTP gets while TLS is on: a page saying passwords would
//!   cross the network in the clear, with the HTTPS address and the fingerprint.
//!
//! It sits above the sessions and the page it hands connections to; [`crate::tls`] below
//! it only holds the certificate and the settings, so the configuration can name them.

pub mod accept;
pub mod cleartext;
