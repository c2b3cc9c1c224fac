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
//! rooms, limits and outbox budget.

pub mod assets;
pub mod hosts;
pub mod http;
pub mod locale;
pub mod sniff;
pub mod socket;

use std::net::SocketAddr;
use tokio::net::TcpStream;
use tokio_util::task::TaskTracker;

use crate::session::{self, SessionContext};

/// Serves one accepted connection: a browser's HTTP (the page or its WebSocket) or a
/// banco client's session, told apart by the first byte the peer sends.
pub async fn serve_either(
    stream: TcpStream,
    peer: SocketAddr,
    ctx: SessionContext,
    tracker: TaskTracker,
) {
    if sniff::speaks_http(&stream).await {
        http::serve(stream, peer, ctx, tracker).await;
    } else {
        session::serve(stream, peer, ctx).await;
    }
}
