//! The browser client: the page (embedded at build time from the workspace's `web/`) and
//! the WebSocket that carries the protocol's messages as JSON, on the game port itself.
//!
//! - [`sniff`]: tells a browser's HTTP from a banco client's frames by the first byte.
//! - [`http`]: one HTTP/1.1 connection with bounded header size and time: GET of the
//!   embedded assets, and the WebSocket upgrade (same origin only).
//! - [`hosts`]: the host names requests must name (the DNS rebinding guard).
//! - [`assets`]: the embedded files, with their types.
//! - [`locale`]: the terminal client's locale files as JSON for the page.
//! - [`socket`]: a WebSocket as a session's transport: JSON text both ways, the same
//!   message limit as a TCP frame.
//!
//! A browser player gets a session exactly like a terminal player's: the same handshake,
//! rooms, limits and outbox budget. Which connection is a browser's is decided in
//! [`crate::door::accept`], by the first byte (and inside TLS, by ALPN).

pub mod assets;
pub mod hosts;
pub mod http;
pub mod locale;
pub mod sniff;
pub mod socket;
