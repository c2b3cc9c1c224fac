//! Who a session is: a logged-in account, or a guest.
//!
//! A registered name can only be used by logging in to it; anyone else plays as a guest
//! under a name no account holds, shown with [`GUEST_MARK`] (`~An`) on every screen and
//! never rated. No name may pass for the server's bot ([`crate::names::poses_as_bot`]:
//! `Вot (max)` with a Cyrillic В is refused as `Bot (max)` is). Passwords are hashed with
//! argon2id ([`password`]) on the server's hashing threads ([`hashers`], `Config::hashing`
//! at a time, each in memory it keeps), never on the async runtime; failed logins are
//! throttled per name and address, per address, and gently per name ([`throttle`]), so
//! guessing is slow and the owner always gets in. Neither a password nor a hash is ever
//! logged or sent to anyone.
//!
//! A login that asks to be remembered is handed an account token ([`Accounts::remember`]),
//! 32 random bytes of which the store keeps the hash; presented in a later Hello it logs in
//! to that account alone ([`Credentials::Token`]) until it is revoked ([`Accounts::forget`]
//! at a log out, every other one at a password change) or unused for
//! [`banco_protocol::ACCOUNT_TOKEN_DAYS`] days.

pub mod admin;
pub mod hashers;
pub mod password;
pub mod registrations;
pub mod throttle;

use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use banco_protocol::{
    AccountToken, Credentials, ErrorCode, ErrorMsg, GUEST_MARK, MAX_NAME_CHARS, MAX_PASSWORD_CHARS,
    MIN_PASSWORD_CHARS,
};

use crate::admission::AddressKey;
use crate::names::poses_as_bot;
use crate::store::accounts::{Registered, name_key};
use crate::store::{ReadError, StoreHandle};
use crate::token::TokenHash;
use hashers::Hashers;
use registrations::Registrations;
use throttle::{Throttle, Verdict};

/// Who a session turned out to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Identity {
    /// Logged in: the account's name as registered.
    Account(String),
    /// Logged in to a bot account (an engine's, `banco bot`): its name as registered.
    Bot(String),
    /// A guest, under a marked name (`~An`).
    Guest(String),
    /// A guest under a marked name whose unmarked form is an account's, coming back with
    /// a resume token: let in only if the token brings back its own guest seat or
    /// session (the lobby checks), never under the name anew.
    Returning(String),
}

impl Identity {
    pub fn name(&self) -> &str {
        match self {
            Identity::Account(name)
            | Identity::Bot(name)
            | Identity::Guest(name)
            | Identity::Returning(name) => name,
        }
    }

    /// Logged in to an account, a person's or a bot's.
    pub fn is_account(&self) -> bool {
        matches!(self, Identity::Account(_) | Identity::Bot(_))
    }
}

pub use banco_protocol::is_guest;

/// The server's accounts: checks logins, registers names, changes passwords.
#[derive(Clone)]
pub struct Accounts {
    /// Where accounts are read and written.
    store: StoreHandle,
    /// Failed logins, shared by every session.
    throttle: Arc<Mutex<Throttle>>,
    /// The threads that hash and check passwords, in memory they keep.
    hashers: Hashers,
    /// Registrations per address, refused past their allowance before any hashing.
    registrations: Arc<Mutex<Registrations>>,
}

impl Accounts {
    /// The accounts of `store`, hashed on `hashing` threads.
    pub fn new(store: StoreHandle, hashing: usize) -> Accounts {
        Accounts {
            store,
            throttle: Arc::default(),
            hashers: Hashers::start(hashing),
            registrations: Arc::new(Mutex::new(Registrations::new(
                crate::config::REGISTRATION_BURST,
                crate::config::REGISTRATION_REFILL,
            ))),
        }
    }

    /// Allows each address `burst` registrations at once, then one per `refill` (zero:
    /// no limit).
    pub fn with_registrations(self, burst: u32, refill: std::time::Duration) -> Accounts {
        *self.registrations.lock().unwrap_or_else(|p| p.into_inner()) =
            Registrations::new(burst, refill);
        self
    }

    /// The hashing threads (for tests of their bounds).
    pub fn hashers(&self) -> &Hashers {
        &self.hashers
    }

    /// Who the client saying Hello as `name` (already cleaned) is: the account it logs
    /// in to or registers, or a guest. Refusals say why in a sentence. A guest with a
    /// resume token under a registered name is [`Identity::Returning`]: the lobby lets it
    /// in only if the token brings back its own seat.
    pub async fn identify(
        &self,
        name: &str,
        credentials: Option<Credentials>,
        resuming: bool,
        address: IpAddr,
    ) -> Result<Identity, ErrorMsg> {
        match credentials {
            None => self.guest(name, resuming).await,
            Some(Credentials::Password {
                password,
                register: true,
                bot,
                ..
            }) => self.register(name, password, bot, address).await,
            Some(Credentials::Password { password, bot, .. }) => {
                self.log_in(name, password, Some(bot), address).await
            }
            Some(Credentials::Token(token)) => self.log_in_with(name, &token).await,
        }
    }

    /// Logs in to `name` with an account token: the store says which account the token
    /// is for, and it must be this one.
    async fn log_in_with(&self, name: &str, token: &AccountToken) -> Result<Identity, ErrorMsg> {
        let hash = TokenHash::of_account(token);
        let mut pause = std::time::Duration::from_millis(5);
        let mut found = Err(ReadError::Busy);
        for _ in 0..20 {
            found = self.store.recall(hash).await;
            if !matches!(found, Err(ReadError::Busy)) {
                break;
            }
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(std::time::Duration::from_millis(200));
        }
        match found.map_err(read_failed)? {
            Some(account) if name_key(&account) == name_key(name) => {
                tracing::info!(name = %account, "logged in with an account token");
                Ok(Identity::Account(account))
            }
            Some(account) => {
                tracing::info!(%name, %account, "an account token was presented for another name");
                Err(ErrorMsg::new(
                    ErrorCode::LoginFailed,
                    format!(
                        "this browser's saved login is for {account}, not {name}: log in to \
                         {name} with its password"
                    ),
                ))
            }
            None => {
                tracing::info!(%name, "a revoked or unknown account token was refused");
                Err(ErrorMsg::new(
                    ErrorCode::LoginFailed,
                    format!(
                        "the saved login for {name} has ended (logged out, the password \
                         changed, or unused for {} days): log in with the password",
                        banco_protocol::ACCOUNT_TOKEN_DAYS
                    ),
                ))
            }
        }
    }

    /// A new account token for `name` (logged in), kept hashed in the store; `None` if
    /// the store could not keep it (the login goes on without one).
    pub async fn remember(&self, name: &str) -> Option<AccountToken> {
        let token = AccountToken(rand::random());
        match self
            .store
            .remember(name.to_string(), TokenHash::of_account(&token))
            .await
        {
            Ok(true) => Some(token),
            Ok(false) => None,
            Err(e) => {
                tracing::warn!(error = %e, %name, "an account token could not be kept");
                None
            }
        }
    }

    /// Revokes the account token hashed as `token`; `false` if the store could not.
    pub async fn forget(&self, token: TokenHash) -> bool {
        match self.store.forget(token).await {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!(error = %e, "an account token could not be revoked");
                false
            }
        }
    }

    async fn guest(&self, asked: &str, resuming: bool) -> Result<Identity, ErrorMsg> {
        let base = asked.trim_start_matches(GUEST_MARK).trim();
        if base.is_empty() {
            return Err(ErrorMsg::new(ErrorCode::BadName, "a name cannot be empty"));
        }
        if poses_as_bot(base) {
            return Err(ErrorMsg::new(
                ErrorCode::BadName,
                format!("{base} looks like the name of the server's bot: choose another name"),
            ));
        }
        let registered = self.find(base).await?.is_some();
        if registered && !resuming {
            return Err(ErrorMsg::new(
                ErrorCode::NameRegistered,
                format!(
                    "{base} is a registered name: log in with its password, or play as a \
                     guest under another name"
                ),
            ));
        }
        let base: String = base.chars().take(MAX_NAME_CHARS - 1).collect();
        let marked = format!("{GUEST_MARK}{}", base.trim_end());
        Ok(if registered {
            Identity::Returning(marked)
        } else {
            Identity::Guest(marked)
        })
    }

    async fn register(
        &self,
        name: &str,
        password: String,
        bot: bool,
        address: IpAddr,
    ) -> Result<Identity, ErrorMsg> {
        if is_guest(name) {
            return Err(ErrorMsg::new(
                ErrorCode::BadName,
                format!(
                    "names starting with {GUEST_MARK} are guests' names: register one without it"
                ),
            ));
        }
        if poses_as_bot(name) {
            return Err(ErrorMsg::new(
                ErrorCode::BadName,
                format!("{name} looks like the name of the server's bot: register another"),
            ));
        }
        check_password(&password)?;
        let allowed = self
            .registrations
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .spend(address, Instant::now());
        if let Err(wait) = allowed {
            tracing::info!(%address, "a registration was refused: too many from one address");
            return Err(ErrorMsg::new(
                ErrorCode::TooManyTries,
                format!(
                    "too many accounts were registered from your address: wait {} s, then \
                     try again (or play as a guest meanwhile)",
                    wait.as_secs().max(1)
                ),
            ));
        }
        if self.find(name).await?.is_some() {
            return Err(taken(name));
        }
        let hash = self.hash(password).await?;
        match self.store.register(name.to_string(), hash, bot).await {
            Ok(Registered::Done) => {
                tracing::info!(%name, bot, "account registered");
                Ok(if bot {
                    Identity::Bot(name.to_string())
                } else {
                    Identity::Account(name.to_string())
                })
            }
            Ok(Registered::Taken) => Err(taken(name)),
            Ok(Registered::LooksLike(other)) => Err(ErrorMsg::new(
                ErrorCode::NameTaken,
                format!(
                    "{name} looks too much like the account {other} (letters that look the \
                     same to a reader): register a name that is plainly different"
                ),
            )),
            Err(e) => Err(read_failed(e)),
        }
    }

    /// Checks `name`'s password; with `bot`, also that the account is a bot's (`true`)
    /// or a person's (`false`), as the client logging in says it is.
    async fn log_in(
        &self,
        name: &str,
        password: String,
        bot: Option<bool>,
        address: IpAddr,
    ) -> Result<Identity, ErrorMsg> {
        let key = name_key(name);
        let address = AddressKey::of(address);
        let verdict = self.lock().check(&key, address, Instant::now());
        match verdict {
            Verdict::Wait(wait) => {
                return Err(ErrorMsg::new(
                    ErrorCode::TooManyTries,
                    format!(
                        "too many wrong passwords for {name} from your machine: wait {}, \
                         then try again",
                        how_long(wait)
                    ),
                ));
            }
            // Tries at a name many have failed at lately wait a little (a second at
            // most): slow for a crowd of guessers, nothing to its owner.
            Verdict::Try(delay) if !delay.is_zero() => tokio::time::sleep(delay).await,
            Verdict::Try(_) => {}
        }
        let account = self.find(name).await?;
        let stored = account.as_ref().map(|a| a.hash.clone());
        let right = self
            .hashers
            .run(move |memory| match stored {
                Some(hash) => password::verify_in(&password, &hash, memory),
                None => {
                    password::waste_a_check(&password, memory);
                    false
                }
            })
            .await
            .map_err(|_| internal())?;
        let mut throttle = self.lock();
        match account {
            Some(account) if right => {
                throttle.succeeded(&key, address);
                match bot {
                    Some(true) if !account.bot => {
                        return Err(ErrorMsg::new(
                            ErrorCode::LoginFailed,
                            format!(
                                "{} is a person's account, not a bot's: register a bot account \
                                 for the engine (banco bot --register)",
                                account.name
                            ),
                        ));
                    }
                    Some(false) if account.bot => {
                        return Err(ErrorMsg::new(
                            ErrorCode::LoginFailed,
                            format!(
                                "{} is a bot account: its engine logs in with banco bot, \
                                 people with their own accounts",
                                account.name
                            ),
                        ));
                    }
                    _ => {}
                }
                tracing::info!(name = %account.name, bot = account.bot, "logged in");
                Ok(if account.bot {
                    Identity::Bot(account.name)
                } else {
                    Identity::Account(account.name)
                })
            }
            _ => {
                throttle.failed(&key, address, Instant::now());
                tracing::info!(%name, %address, "a login failed");
                Err(ErrorMsg::new(
                    ErrorCode::LoginFailed,
                    "wrong name or password: check both and try again (or play as a guest)",
                ))
            }
        }
    }

    /// Replaces the password of `name` (logged in) after checking `old`, and revokes the
    /// account's tokens but `keep` (the changing session's own).
    pub async fn change_password(
        &self,
        name: &str,
        old: String,
        new: String,
        address: IpAddr,
        keep: Option<TokenHash>,
    ) -> Result<(), ErrorMsg> {
        check_password(&new)?;
        self.log_in(name, old, None, address).await.map_err(|e| {
            if e.code == ErrorCode::LoginFailed {
                ErrorMsg::new(
                    ErrorCode::LoginFailed,
                    "that is not your current password: the password is unchanged",
                )
            } else {
                e
            }
        })?;
        let hash = self.hash(new).await?;
        match self.store.set_password(name.to_string(), hash, keep).await {
            Ok(true) => {
                tracing::info!(%name, "password changed");
                Ok(())
            }
            Ok(false) => Err(ErrorMsg::new(
                ErrorCode::NotLoggedIn,
                "your account was removed by the host: you are playing as a guest",
            )),
            Err(e) => Err(read_failed(e)),
        }
    }

    /// The account `name`, waiting out a busy reader: a crowd arriving at once (every
    /// Hello looks its name up) queues instead of being refused.
    async fn find(&self, name: &str) -> Result<Option<crate::store::accounts::Account>, ErrorMsg> {
        let mut pause = std::time::Duration::from_millis(5);
        for _ in 0..20 {
            match self.store.account(name.to_string()).await {
                Err(ReadError::Busy) => {
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(std::time::Duration::from_millis(200));
                }
                other => return other.map_err(read_failed),
            }
        }
        Err(read_failed(ReadError::Busy))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Throttle> {
        // A panic while holding it leaves counts that are still counts.
        self.throttle.lock().unwrap_or_else(|p| p.into_inner())
    }

    async fn hash(&self, password: String) -> Result<String, ErrorMsg> {
        self.hashers
            .run(move |memory| password::hash_in(&password, memory))
            .await
            .map_err(|_| internal())?
            .map_err(|e| {
                tracing::error!(error = %e, "a password could not be hashed");
                internal()
            })
    }
}

/// A wait in words: seconds under two minutes, else minutes.
fn how_long(wait: std::time::Duration) -> String {
    let secs = wait.as_secs_f64().ceil().max(1.0) as u64;
    match secs {
        1 => "a second".to_string(),
        2..=119 => format!("{secs} seconds"),
        _ => format!("{} minutes", secs.div_ceil(60)),
    }
}

/// A password that may be set: long enough to resist guessing, short enough to hash.
pub fn check_password(password: &str) -> Result<(), ErrorMsg> {
    let chars = password.chars().count();
    if chars < MIN_PASSWORD_CHARS {
        return Err(ErrorMsg::new(
            ErrorCode::BadPassword,
            format!("a password needs at least {MIN_PASSWORD_CHARS} characters"),
        ));
    }
    if chars > MAX_PASSWORD_CHARS {
        return Err(ErrorMsg::new(
            ErrorCode::BadPassword,
            format!("a password can be at most {MAX_PASSWORD_CHARS} characters"),
        ));
    }
    Ok(())
}

fn taken(name: &str) -> ErrorMsg {
    ErrorMsg::new(
        ErrorCode::NameTaken,
        format!("{name} is already registered: log in to it, or register another name"),
    )
}

fn internal() -> ErrorMsg {
    ErrorMsg::new(
        ErrorCode::Internal,
        "the server could not check the password (its log says why): try again",
    )
}

fn read_failed(e: ReadError) -> ErrorMsg {
    match e {
        ReadError::Busy => ErrorMsg::new(ErrorCode::Busy, e.to_string()),
        ReadError::Closed => ErrorMsg::new(ErrorCode::ShuttingDown, e.to_string()),
        ReadError::Failed(cause) => {
            tracing::error!(error = %cause, "the accounts could not be read or written");
            ErrorMsg::new(
                ErrorCode::Internal,
                "the server could not reach its accounts (its log says why): try again later",
            )
        }
    }
}
