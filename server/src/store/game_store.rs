//! The seam between the server and where its games are kept: [`GameStore`], the one trait
//! the rooms, the lobby, the sessions, the accounts and the reviews call, and
//! [`StoreHandle`], the cheap handle they hold. SQLite ([`super::Store::open_with`]) is
//! the implementation shipped; a shared database for a club's several servers would be a
//! second one, not a rewrite. Nothing here names a SQLite type: what crosses the seam is
//! the game's own vocabulary and the store's own errors ([`ReadError`]).
//!
//! The promise every implementation keeps is the write-ahead one: [`GameStore::commit`]
//! answers only once its entries are durable (or held, and everyone told), entries of
//! many rooms may share one transaction, and nothing is ever dropped: a full queue makes
//! rooms wait.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use tokio::sync::watch;

use banco_protocol::{GameId, GameKind, GameReview, GameSummary, Level, Profile, Standing};

use super::accounts::{Account, Registered};
use super::journal::Entry;
use super::{ReadError, Saved};
use crate::token::TokenHash;

/// What a store's call comes back with, later: a boxed future, so the trait can be used
/// through `dyn` and its implementations stay free to answer from threads of their own.
pub type Answer<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Everything the server asks of its store, by the part of the records it touches.
pub trait GameStore: Send + Sync + 'static {
    // --- The live journal: games in progress, written ahead.

    /// Commits `entries` (in order, all or none) and answers once they are durable, or
    /// held because the disk refuses them. Waits while the store's queue is full.
    fn commit(&self, entries: Vec<Entry>) -> Answer<'_, Saved>;

    /// Whether games are being saved, kept current by the store.
    fn status(&self) -> watch::Receiver<banco_protocol::Storage>;

    // --- Finished games.

    /// The newest finished games, newest first; only `player`'s if given.
    fn history(&self, player: Option<String>) -> Answer<'_, Result<Vec<GameSummary>, ReadError>>;

    /// Finished game `id`, move by move; `None` if there is no such finished game.
    fn replay(
        &self,
        id: GameId,
    ) -> Answer<'_, Result<Option<banco_protocol::GameRecord>, ReadError>>;

    // --- Ratings and profiles.

    /// The best rated players at `kind`, best first.
    fn leaderboard(&self, kind: GameKind) -> Answer<'_, Result<Vec<Standing>, ReadError>>;

    /// The record of the person `name`, or of the bot at `bot`; `None` if nobody by that
    /// name has played or registered here.
    fn profile(
        &self,
        name: String,
        bot: Option<Level>,
    ) -> Answer<'_, Result<Option<Profile>, ReadError>>;

    // --- Engine reviews.

    /// The stored engine review of finished game `id`, if it was reviewed before.
    fn review(&self, id: GameId) -> Answer<'_, Result<Option<GameReview>, ReadError>>;

    /// Keeps `made` with its game, so the next asker gets it at once.
    fn save_review(&self, made: GameReview) -> Answer<'_, Result<(), ReadError>>;

    // --- Accounts: on a path of their own, never in line with the games' commits.

    /// The account registered under `name` (any case), if any.
    fn account(&self, name: String) -> Answer<'_, Result<Option<Account>, ReadError>>;

    /// Registers `name` with password hash `hash`, unless the name is taken or looks
    /// like an account's.
    fn register(
        &self,
        name: String,
        hash: String,
        bot: bool,
    ) -> Answer<'_, Result<Registered, ReadError>>;

    /// Replaces the password hash of account `name` and revokes its account tokens but
    /// `keep`; `Ok(false)` if there is no such account.
    fn set_password(
        &self,
        name: String,
        hash: String,
        keep: Option<TokenHash>,
    ) -> Answer<'_, Result<bool, ReadError>>;

    /// Keeps the account token hashed as `token` for account `name`, so it logs in to it
    /// ([`GameStore::recall`]); `Ok(false)` if there is no such account.
    fn remember(&self, name: String, token: TokenHash) -> Answer<'_, Result<bool, ReadError>>;

    /// The account the token hashed as `token` logs in to (its name as registered),
    /// marking it used; `None` once revoked or unused too long.
    fn recall(&self, token: TokenHash) -> Answer<'_, Result<Option<String>, ReadError>>;

    /// Revokes the account token hashed as `token`.
    fn forget(&self, token: TokenHash) -> Answer<'_, Result<(), ReadError>>;
}

/// Where rooms send their entries and sessions their reads. Cheap to clone; calls go
/// straight to the [`GameStore`] behind it.
#[derive(Clone)]
pub struct StoreHandle(
    /// The store itself, shared by every room and session.
    Arc<dyn GameStore>,
);

impl StoreHandle {
    /// A handle on `store`.
    pub fn new(store: Arc<dyn GameStore>) -> StoreHandle {
        StoreHandle(store)
    }
}

impl std::ops::Deref for StoreHandle {
    type Target = dyn GameStore;

    fn deref(&self) -> &(dyn GameStore + 'static) {
        &*self.0
    }
}

impl std::fmt::Debug for StoreHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StoreHandle")
    }
}
