//! banco-protocol: what client and server say to each other, and how it is framed.
//!
//! - [`client`]: [`ClientMsg`], everything a client may ask.
//! - [`server`]: [`ServerMsg`], everything the server tells a client.
//! - [`challenge`]: challenges by name or open to anyone, how they end, who may send
//!   them, and the people list they are sent from.
//! - [`tournament`]: Swiss, round robin and arena tournaments: settings, the list, the
//!   view with pairings, results, standings and crosstable, the game-ready notice.
//! - [`room`]: the shared vocabulary: room settings, seats, moves, clocks, offers, endings.
//! - [`record`]: record files on the wire: the game a file holds, and its conversions to
//!   and from the rules' record (whose reader and writer are the only ones).
//! - [`review`]: the engine's review of a finished game: move classes, chances by ply.
//! - [`convert`]: wire moves to rule moves and back.
//! - [`error`]: [`ErrorCode`], the stable machine-readable reason for a refusal.
//! - [`wire`]: the two functions that turn a message into bytes and back (bincode 2).
//! - [`codec`]: length-delimited frames over a byte stream, for `tokio_util::codec::Framed`.
//! - [`schema`]: the JSON form written down: a JSON Schema generated from these types, and
//!   the TypeScript declarations the browser page is checked against.
//! - [`discovery`]: the UDP probe and beacon that let clients find servers on the LAN.
//! - [`fingerprint`]: [`Fingerprint`], the SHA-256 of a server's public key, as players
//!   compare it and the terminal client pins it.
//!
//! A session starts with [`ClientMsg::Hello`] carrying [`PROTOCOL_VERSION`]; the server
//! answers [`ServerMsg::Welcome`] or an [`ErrorCode::VersionMismatch`] error and a close.

pub mod challenge;
pub mod client;
pub mod codec;
pub mod convert;
pub mod discovery;
pub mod error;
pub mod fingerprint;
pub mod record;
pub mod review;
pub mod room;
pub mod schema;
pub mod server;
pub mod tournament;
pub mod wire;

pub use challenge::{
    Challenge, ChallengeEnd, ChallengeId, ChallengePolicy, DeclineReason, PlayerLine,
};
pub use client::{ClientMsg, Credentials, Hello, PasswordChange};
pub use codec::{ClientCodec, FrameError, ServerCodec};
pub use error::{ErrorCode, ErrorMsg};
pub use fingerprint::Fingerprint;
pub use record::{MAX_RECORD_TEXT, RecordedGame, RecordedSummary};
pub use review::{GameReview, MoveClass, PlayerReview, ReviewedPly, Thresholds};
pub use room::*;
pub use server::{ServerMsg, Storage, Welcome};
pub use tournament::{
    BoardResult, BoardView, ByeRequestView, ByeValue, ByeView, CrossCell, CrossRow, Entrant,
    ExportFormat, StandingLine, TieBreak, TournamentFormat, TournamentGame, TournamentId,
    TournamentSettings, TournamentStart, TournamentStatus, TournamentSummary, TournamentView,
};

/// Bumped on every change to a message's encoding. Client and server must agree exactly.
pub const PROTOCOL_VERSION: u16 = 11;

/// The TCP port a server listens on unless told otherwise.
pub const DEFAULT_PORT: u16 = 7373;

/// Largest frame a client may send. Client messages are small; anything bigger is hostile.
pub const MAX_CLIENT_FRAME: usize = 64 * 1024;

/// Largest frame the server sends: a room snapshot with a 64x64 board's moves and the
/// chat history fits with room to spare.
pub const MAX_SERVER_FRAME: usize = 1024 * 1024;

/// How often the server pings a quiet connection, in seconds.
pub const HEARTBEAT_EVERY_SECS: u64 = 5;

/// Silence after which either side holds a connection dead, in seconds: three missed
/// heartbeats.
pub const HEARTBEAT_TIMEOUT_SECS: u64 = 15;

/// Longest player name, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// The mark every guest's name starts with: guests play under any name no account holds,
/// always marked, never rated.
pub const GUEST_MARK: char = '~';

/// Whether `name` is a guest's (marked with [`GUEST_MARK`]).
pub fn is_guest(name: &str) -> bool {
    name.starts_with(GUEST_MARK)
}

/// Shortest account password, in characters.
pub const MIN_PASSWORD_CHARS: usize = 8;

/// Longest account password, in characters (hashing cost grows with length).
pub const MAX_PASSWORD_CHARS: usize = 128;

/// How many days an [`AccountToken`] lasts without being used; each login with it starts
/// the count again.
pub const ACCOUNT_TOKEN_DAYS: u32 = 30;

/// Longest chat message, in characters.
pub const MAX_CHAT_CHARS: usize = 300;

/// How many chat lines a room keeps and sends to someone who comes in.
pub const CHAT_HISTORY: usize = 100;

#[cfg(test)]
mod tests;
