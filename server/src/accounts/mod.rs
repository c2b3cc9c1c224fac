//! Who a session is: a logged-in account, or a guest.
//!
//! A registered name can only be used by logging in to it; anyone else plays as a guest
//! under a name no account holds, shown with [`GUEST_MARK`] (`~An`) on every screen and
//! never rated. Passwords are hashed with argon2id ([`password`]) on blocking threads,
//! two at a time at most (each hash takes 19 MiB), never on the async runtime; failed
//! logins are throttled per name and per address ([`throttle`]). Neither a password nor
//! a hash is ever logged or sent to anyone.

pub mod admin;
pub mod password;
pub mod registrations;
pub mod throttle;

use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::sync::Semaphore;

use banco_protocol::{
    Credentials, ErrorCode, ErrorMsg, GUEST_MARK, MAX_NAME_CHARS, MAX_PASSWORD_CHARS,
    MIN_PASSWORD_CHARS,
};

use crate::store::accounts::{Registered, name_key};
use crate::store::{ReadError, StoreHandle};
use registrations::Registrations;
use throttle::Throttle;

/// Password hashes computed at once, at most.
const HASHING_AT_ONCE: usize = 2;

/// Who a session turned out to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Identity {
    /// Logged in: the account's name as registered.
    Account(String),
    /// A guest, under a marked name (`~An`).
    Guest(String),
}

impl Identity {
    pub fn name(&self) -> &str {
        match self {
            Identity::Account(name) | Identity::Guest(name) => name,
        }
    }
}

pub use banco_protocol::is_guest;

/// The server's accounts: checks logins, registers names, changes passwords.
#[derive(Clone)]
pub struct Accounts {
    store: StoreHandle,
    throttle: Arc<Mutex<Throttle>>,
    hashing: Arc<Semaphore>,
    /// Registrations per address, refused past their allowance before any hashing.
    registrations: Arc<Mutex<Registrations>>,
}

impl Accounts {
    pub fn new(store: StoreHandle) -> Accounts {
        Accounts {
            store,
            throttle: Arc::default(),
            hashing: Arc::new(Semaphore::new(HASHING_AT_ONCE)),
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

    /// Who the client saying Hello as `name` (already cleaned) is: the account it logs
    /// in to or registers, or a guest. Refusals say why in a sentence. A guest coming
    /// back with a resume token is not refused a registered name: the token either
    /// brings back its seat, or it plays under the marked name.
    pub async fn identify(
        &self,
        name: &str,
        credentials: Option<Credentials>,
        resuming: bool,
        address: IpAddr,
    ) -> Result<Identity, ErrorMsg> {
        match credentials {
            None => self.guest(name, resuming).await,
            Some(c) if c.register => self.register(name, c.password, address).await,
            Some(c) => self.log_in(name, c.password, address).await,
        }
    }

    async fn guest(&self, asked: &str, resuming: bool) -> Result<Identity, ErrorMsg> {
        let base = asked.trim_start_matches(GUEST_MARK).trim();
        if base.is_empty() {
            return Err(ErrorMsg::new(ErrorCode::BadName, "a name cannot be empty"));
        }
        if !resuming && self.find(base).await?.is_some() {
            return Err(ErrorMsg::new(
                ErrorCode::NameRegistered,
                format!(
                    "{base} is a registered name: log in with its password, or play as a \
                     guest under another name"
                ),
            ));
        }
        let base: String = base.chars().take(MAX_NAME_CHARS - 1).collect();
        Ok(Identity::Guest(format!("{GUEST_MARK}{}", base.trim_end())))
    }

    async fn register(
        &self,
        name: &str,
        password: String,
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
        if crate::room::is_bot_name(name) {
            return Err(ErrorMsg::new(
                ErrorCode::BadName,
                format!("{name} is the name of the server's bot: register another"),
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
        match self.store.register(name.to_string(), hash).await {
            Ok(Registered::Done) => {
                tracing::info!(%name, "account registered");
                Ok(Identity::Account(name.to_string()))
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

    async fn log_in(
        &self,
        name: &str,
        password: String,
        address: IpAddr,
    ) -> Result<Identity, ErrorMsg> {
        let key = name_key(name);
        self.check_throttle(&key, address)?;
        let account = self.find(name).await?;
        let stored = account.as_ref().map(|a| a.hash.clone());
        let right = self
            .blocking(move || match stored {
                Some(hash) => password::verify(&password, &hash),
                None => {
                    password::waste_a_check(&password);
                    false
                }
            })
            .await?;
        let mut throttle = self.lock();
        match account {
            Some(account) if right => {
                throttle.succeeded(&key);
                tracing::info!(name = %account.name, "logged in");
                Ok(Identity::Account(account.name))
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

    /// Replaces the password of `name` (logged in) after checking `old`.
    pub async fn change_password(
        &self,
        name: &str,
        old: String,
        new: String,
        address: IpAddr,
    ) -> Result<(), ErrorMsg> {
        check_password(&new)?;
        self.log_in(name, old, address).await.map_err(|e| {
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
        match self.store.set_password(name.to_string(), hash).await {
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

    fn check_throttle(&self, key: &str, address: IpAddr) -> Result<(), ErrorMsg> {
        match self.lock().wait(key, address, Instant::now()) {
            None => Ok(()),
            Some(wait) => Err(ErrorMsg::new(
                ErrorCode::TooManyTries,
                format!(
                    "too many wrong passwords: wait {} minute(s), then try again",
                    wait.as_secs().div_ceil(60).max(1)
                ),
            )),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Throttle> {
        // A panic while holding it leaves counts that are still counts.
        self.throttle.lock().unwrap_or_else(|p| p.into_inner())
    }

    async fn hash(&self, password: String) -> Result<String, ErrorMsg> {
        self.blocking(move || password::hash(&password))
            .await?
            .map_err(|e| {
                tracing::error!(error = %e, "a password could not be hashed");
                internal()
            })
    }

    /// Runs `work` on a blocking thread, [`HASHING_AT_ONCE`] at a time.
    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ErrorMsg> {
        let _turn = self.hashing.acquire().await.map_err(|_| internal())?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|_| internal())
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
