//! banco-client: the `banco` program's insides: a ratatui terminal client and a plain
//! line mode, both speaking banco's protocol to a server (possibly one it hosts itself).
//!
//! Map of the crate:
//!
//! - [`cli`]: the command line (`banco host`, `banco join ADDR`, options), clap derive.
//! - [`net`]: connecting and greeting a server; the reader/writer tasks.
//! - [`tls`]: the TLS handshake, with the server's key taken for what its fingerprint
//!   says; [`known_hosts`]: those fingerprints pinned on first use, and the [`known_hosts::Trust`]
//!   each connection is checked against.
//! - [`reconnect`]: when to dial again after a lost connection, and where to go back to.
//! - [`seats`]: the seats this client holds, kept on disk to take back after a crash.
//! - [`host`]: starting the server in-process for `banco host`.
//! - [`discover`]: finding servers on the LAN, and this machine's own LAN addresses.
//! - [`room`]: the client's model of its room (seats, game, board copy, clocks, chat,
//!   threats), kept current from server messages; shared by both front ends.
//! - [`narrate`]: sentences about what happens, in the user's language.
//! - [`challenges`]: the challenges in play (to us, ours, open ones) and the people
//!   list, kept from the server's messages for both front ends, and their sentences.
//! - [`plain`]: the `--plain` / `--json` line mode.
//! - [`bot`]: `banco bot`, an external Gomocup or UCI engine on a server as a bot
//!   account (through `banco-adapters`, the arena's engine code).
//! - [`record`]: finished games stepped through move by move ([`record::Replay`]) and
//!   the game record files people save, edit and open with `banco replay FILE`.
//! - [`app`]: the terminal client's state machine (connect -> lobby -> room, and the
//!   leaderboard, history and replay screens) and its input handlers; no drawing, no
//!   I/O (it queues [`app::Effect`]s).
//! - [`layout`]: where things go on the screen, from its size and the state: `ui` draws
//!   there and `app` reads mouse clicks there; it imports neither.
//! - [`ui`]: drawing the [`app::App`] with ratatui; never changes it.
//! - [`tui`]: the terminal itself: raw mode, panic hook, the event task, the main loop.
//! - [`locale`], [`theme`], [`settings`]: text, colours, the settings file and the
//!   state directory.

pub mod app;
pub mod bot;
pub mod challenges;
pub mod cli;
pub mod discover;
pub mod host;
pub mod known_hosts;
pub mod layout;
pub mod locale;
pub mod narrate;
pub mod net;
pub mod plain;
pub mod reconnect;
pub mod record;
pub mod room;
pub mod seats;
pub mod settings;
pub mod theme;
pub mod tls;
pub mod tui;
pub mod ui;

#[cfg(test)]
mod testing;
