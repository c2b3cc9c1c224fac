//! Accounts as the database keeps them: a name, its argon2id hash, when it was
//! registered, and its look-alike skeleton. Plain queries on a connection, shared by the
//! server (through its registrar thread) and the host's `banco-server account` commands
//! (on their own connection to the same file).
//!
//! A name that looks like an account's (a Cyrillic `А` for a Latin `A`) is refused: the
//! `skeleton` column holds each name's look-alike key under a UNIQUE index, so the check
//! is one index lookup whatever the number of accounts, and two look-alikes can never
//! both be stored. The skeletons are computed by [`crate::names::look_alike_key`]; when
//! that function changes, the file's skeletons are computed again at the next start
//! ([`refresh_skeletons`]).
//!
//! An account token ([`remember`], [`recall`], [`forget`]) keeps a browser logged in
//! without its password: the file holds the token's hash with the account's id and when
//! it was made and last used. A token unused for [`TOKEN_UNUSED_MS`] is gone, as are all
//! of an account's when its password changes (but the changer's own) or it is removed.

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

/// One account row. The hash never leaves the server: nothing here is on the wire.
#[derive(Clone, PartialEq, Eq)]
pub struct Account {
    /// As registered (its case kept).
    pub name: String,
    /// argon2id in PHC string form.
    pub hash: String,
    /// Unix milliseconds.
    pub registered_ms: i64,
    /// A bot account: an engine's (`banco bot`), marked BOT wherever its name shows.
    pub bot: bool,
}

impl std::fmt::Debug for Account {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Account")
            .field("name", &self.name)
            .field("hash", &"<hidden>")
            .field("registered_ms", &self.registered_ms)
            .field("bot", &self.bot)
            .finish()
    }
}

/// How long an account token lasts unused, in milliseconds.
pub const TOKEN_UNUSED_MS: i64 = banco_protocol::ACCOUNT_TOKEN_DAYS as i64 * 86_400_000;

/// The most tokens one account keeps (browsers it stays logged in on): a new one beyond
/// that revokes the least recently used.
pub const TOKENS_PER_ACCOUNT: i64 = 16;

/// How names are compared: without case, so `An` and `an` cannot be two people.
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

/// The account registered under `name` (any case), if any.
pub fn find(conn: &Connection, name: &str) -> rusqlite::Result<Option<Account>> {
    conn.prepare_cached("SELECT name, hash, registered_at, bot FROM accounts WHERE name_key = ?1")?
        .query_row([name_key(name)], |row| {
            Ok(Account {
                name: row.get(0)?,
                hash: row.get(1)?,
                registered_ms: row.get(2)?,
                bot: row.get(3)?,
            })
        })
        .optional()
}

/// The compared names ([`name_key`]) of every bot account: few, read whole to mark
/// them on a leaderboard.
pub fn bot_keys(conn: &Connection) -> rusqlite::Result<std::collections::HashSet<String>> {
    let mut stmt = conn.prepare_cached("SELECT name_key FROM accounts WHERE bot = 1")?;
    let keys = stmt.query_map([], |row| row.get(0))?;
    keys.collect()
}

/// What registering a name came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Registered {
    Done,
    /// The name is already an account (any case).
    Taken,
    /// The name looks like this account's (a Cyrillic `А` for a Latin `A`, `I` for
    /// `l`): a person could not tell them apart, so one could pose as the other.
    LooksLike(String),
}

/// Registers `name` (a bot account's if `bot`), unless it is an account already or looks
/// like one: two lookups by index and an insert, in one `IMMEDIATE` transaction (nobody
/// registers in between).
pub fn insert(
    conn: &mut Connection,
    name: &str,
    hash: &str,
    now_ms: i64,
    bot: bool,
) -> rusqlite::Result<Registered> {
    let own = name_key(name);
    let skeleton = skeleton(name);
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let taken: bool = tx
        .prepare_cached("SELECT 1 FROM accounts WHERE name_key = ?1")?
        .query_row([&own], |_| Ok(()))
        .optional()?
        .is_some();
    if taken {
        return Ok(Registered::Taken);
    }
    let alike: Option<String> = tx
        .prepare_cached("SELECT name FROM accounts WHERE skeleton = ?1")?
        .query_row([&skeleton], |row| row.get(0))
        .optional()?;
    if let Some(other) = alike {
        return Ok(Registered::LooksLike(other));
    }
    tx.prepare_cached(
        "INSERT INTO accounts (name, name_key, hash, registered_at, skeleton, bot)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![name, own, hash, now_ms, skeleton, bot])?;
    tx.commit()?;
    Ok(Registered::Done)
}

/// The look-alike key a name is stored and looked up under.
fn skeleton(name: &str) -> String {
    crate::names::look_alike_key(name)
}

/// Names whose skeletons tell one version of [`skeleton`] from another: look-alikes
/// across scripts, case, digits for letters and marks.
const PROBES: [&str; 8] = [
    "\u{410}lice",
    "Bình",
    "I1l|",
    "0Oo",
    "\u{3a1}\u{430}ul",
    "r\u{6e}",
    "ǅ",
    "Ⅻ ",
];

/// A fingerprint of [`skeleton`] as this build computes it: stored with the file's
/// skeletons, so a build whose look-alike rule differs computes them again.
fn skeleton_rule() -> String {
    PROBES
        .iter()
        .map(|p| skeleton(p))
        .collect::<Vec<_>>()
        .join("\u{1f}")
}

/// Computes every account's skeleton again if the file's were made by another rule
/// (or by none: accounts from before version 10). Accounts are taken oldest first; a
/// later one that looks like an earlier one (registered before the check existed, or
/// alike only under the new rule) keeps a skeleton made unique with its own name, so
/// the index holds, and its look-alikes are still refused through the earlier one.
pub fn refresh_skeletons(conn: &mut Connection) -> rusqlite::Result<()> {
    let rule = skeleton_rule();
    let stored: Option<String> = conn
        .query_row(
            "SELECT value FROM store_facts WHERE name = 'skeleton_rule'",
            [],
            |row| row.get(0),
        )
        .optional()?;
    if stored.as_deref() == Some(rule.as_str()) {
        return Ok(());
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    tx.execute("UPDATE accounts SET skeleton = NULL", [])?;
    let rows: Vec<(i64, String, String)> = tx
        .prepare("SELECT id, name, name_key FROM accounts ORDER BY registered_at, id")?
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?
        .collect::<Result<_, _>>()?;
    let mut seen = std::collections::HashSet::with_capacity(rows.len());
    let mut set = tx.prepare("UPDATE accounts SET skeleton = ?2 WHERE id = ?1")?;
    for (id, name, key) in &rows {
        let mut skeleton = skeleton(name);
        if !seen.insert(skeleton.clone()) {
            // A newline is never in a name: no other account's skeleton is this.
            skeleton = format!("{skeleton}\n{key}");
        }
        set.execute(params![id, skeleton])?;
    }
    drop(set);
    tx.execute(
        "INSERT INTO store_facts (name, value) VALUES ('skeleton_rule', ?1)
         ON CONFLICT(name) DO UPDATE SET value = ?1",
        [&rule],
    )?;
    tx.commit()?;
    if !rows.is_empty() {
        tracing::info!(
            accounts = rows.len(),
            "the accounts' look-alike keys were computed again"
        );
    }
    Ok(())
}

/// Replaces the password hash of `name` and revokes its account tokens, all but `keep`
/// (the hash of the token of the session that changed it, if any): whoever had a token
/// without the password is logged out. `false` if there is no such account.
pub fn set_hash(
    conn: &mut Connection,
    name: &str,
    hash: &str,
    keep: Option<&str>,
) -> rusqlite::Result<bool> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let changed = tx
        .prepare_cached("UPDATE accounts SET hash = ?2 WHERE name_key = ?1")?
        .execute(params![name_key(name), hash])?;
    tx.prepare_cached(
        "DELETE FROM account_tokens WHERE account =
             (SELECT id FROM accounts WHERE name_key = ?1) AND hash IS NOT ?2",
    )?
    .execute(params![name_key(name), keep])?;
    tx.commit()?;
    Ok(changed == 1)
}

/// Removes the account `name` and its tokens (its games stay in the records, under the
/// name, which anyone may register again); `false` if there was none.
pub fn remove(conn: &mut Connection, name: &str) -> rusqlite::Result<bool> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    tx.prepare_cached(
        "DELETE FROM account_tokens WHERE account = (SELECT id FROM accounts WHERE name_key = ?1)",
    )?
    .execute([name_key(name)])?;
    let removed = tx
        .prepare_cached("DELETE FROM accounts WHERE name_key = ?1")?
        .execute([name_key(name)])?;
    tx.commit()?;
    Ok(removed == 1)
}

/// Keeps the token hashed as `hash` for the account `name`, made now; the account's
/// tokens unused too long, and its least recently used beyond [`TOKENS_PER_ACCOUNT`],
/// go. `false` if there is no such account.
pub fn remember(
    conn: &mut Connection,
    name: &str,
    hash: &str,
    now_ms: i64,
) -> rusqlite::Result<bool> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let account: Option<i64> = tx
        .prepare_cached("SELECT id FROM accounts WHERE name_key = ?1")?
        .query_row([name_key(name)], |row| row.get(0))
        .optional()?;
    let Some(account) = account else {
        return Ok(false);
    };
    tx.prepare_cached(
        "INSERT OR REPLACE INTO account_tokens (hash, account, created_at, used_at)
         VALUES (?1, ?2, ?3, ?3)",
    )?
    .execute(params![hash, account, now_ms])?;
    tx.prepare_cached("DELETE FROM account_tokens WHERE account = ?1 AND used_at < ?2")?
        .execute(params![account, now_ms - TOKEN_UNUSED_MS])?;
    tx.prepare_cached(
        "DELETE FROM account_tokens WHERE account = ?1 AND hash NOT IN
             (SELECT hash FROM account_tokens WHERE account = ?1
              ORDER BY used_at DESC, created_at DESC LIMIT ?2)",
    )?
    .execute(params![account, TOKENS_PER_ACCOUNT])?;
    tx.commit()?;
    Ok(true)
}

/// The name (as registered) of the account the token hashed as `hash` logs in to,
/// marking it used now; `None` for a token revoked, never made, or unused too long
/// (which is then forgotten).
pub fn recall(conn: &mut Connection, hash: &str, now_ms: i64) -> rusqlite::Result<Option<String>> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let found: Option<(String, i64)> = tx
        .prepare_cached(
            "SELECT accounts.name, account_tokens.used_at FROM account_tokens
             JOIN accounts ON accounts.id = account_tokens.account
             WHERE account_tokens.hash = ?1",
        )?
        .query_row([hash], |row| Ok((row.get(0)?, row.get(1)?)))
        .optional()?;
    let name = match found {
        Some((name, used)) if used >= now_ms - TOKEN_UNUSED_MS => {
            tx.prepare_cached("UPDATE account_tokens SET used_at = ?2 WHERE hash = ?1")?
                .execute(params![hash, now_ms])?;
            Some(name)
        }
        Some(_) => {
            forget(&tx, hash)?;
            None
        }
        None => None,
    };
    tx.commit()?;
    Ok(name)
}

/// Revokes the token hashed as `hash` (nothing if there is none).
pub fn forget(conn: &Connection, hash: &str) -> rusqlite::Result<()> {
    conn.prepare_cached("DELETE FROM account_tokens WHERE hash = ?1")?
        .execute([hash])?;
    Ok(())
}

/// Every account, by name: (name, registered at).
pub fn list(conn: &Connection) -> rusqlite::Result<Vec<(String, i64)>> {
    conn.prepare("SELECT name, registered_at FROM accounts ORDER BY name_key")?
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn db() -> Connection {
        let mut conn = Connection::open_in_memory().unwrap();
        super::super::schema::create(&mut conn).unwrap();
        conn
    }

    #[test]
    fn names_are_one_account_whatever_their_case() {
        let mut conn = db();
        assert_eq!(
            insert(&mut conn, "Bình", "h1", 5, false).unwrap(),
            Registered::Done
        );
        assert_eq!(
            insert(&mut conn, "BÌNH", "h2", 6, false).unwrap(),
            Registered::Taken
        );
        // A Cyrillic А in place of a Latin A: the same to a reader.
        assert_eq!(
            insert(&mut conn, "Alice", "h3", 7, false).unwrap(),
            Registered::Done
        );
        assert_eq!(
            insert(&mut conn, "\u{410}lice", "h4", 8, false).unwrap(),
            Registered::LooksLike("Alice".into())
        );
        assert!(find(&conn, "\u{410}lice").unwrap().is_none());
        let found = find(&conn, "bình").unwrap().unwrap();
        assert_eq!((found.name.as_str(), found.hash.as_str()), ("Bình", "h1"));
        assert!(set_hash(&mut conn, "BìNH", "h3", None).unwrap());
        assert_eq!(find(&conn, "Bình").unwrap().unwrap().hash, "h3");
        assert_eq!(
            list(&conn).unwrap(),
            vec![("Alice".to_string(), 7), ("Bình".to_string(), 5)]
        );
        assert!(remove(&mut conn, "bình").unwrap());
        assert!(find(&conn, "Bình").unwrap().is_none());
        assert!(!set_hash(&mut conn, "Bình", "h4", None).unwrap());
    }

    #[test]
    fn account_tokens_log_in_to_their_account_until_revoked_or_unused_too_long() {
        let mut conn = db();
        insert(&mut conn, "Mai", "h", 1, false).unwrap();
        insert(&mut conn, "Lan", "h", 1, false).unwrap();
        assert!(!remember(&mut conn, "Nobody", "t0", 10).unwrap());
        assert!(remember(&mut conn, "mai", "t1", 10).unwrap());
        assert!(remember(&mut conn, "Mai", "t2", 10).unwrap());
        assert!(remember(&mut conn, "Lan", "t3", 10).unwrap());
        assert_eq!(recall(&mut conn, "t1", 20).unwrap().as_deref(), Some("Mai"));
        assert_eq!(recall(&mut conn, "t3", 20).unwrap().as_deref(), Some("Lan"));
        assert_eq!(recall(&mut conn, "nope", 20).unwrap(), None);
        // Logging out revokes one.
        forget(&conn, "t1").unwrap();
        assert_eq!(recall(&mut conn, "t1", 30).unwrap(), None);
        // Used within the limit, it lasts: each use starts the count again.
        let later = 10 + TOKEN_UNUSED_MS;
        assert_eq!(
            recall(&mut conn, "t2", later).unwrap().as_deref(),
            Some("Mai")
        );
        assert_eq!(
            recall(&mut conn, "t2", later + TOKEN_UNUSED_MS)
                .unwrap()
                .as_deref(),
            Some("Mai")
        );
        // Unused for longer, it is gone.
        assert_eq!(recall(&mut conn, "t3", 21 + TOKEN_UNUSED_MS).unwrap(), None);
        // A password change revokes all of the account's but the changer's.
        assert!(remember(&mut conn, "Mai", "t4", later).unwrap());
        assert!(set_hash(&mut conn, "Mai", "h2", Some("t4")).unwrap());
        assert_eq!(recall(&mut conn, "t2", later + 2).unwrap(), None);
        assert_eq!(
            recall(&mut conn, "t4", later + 2).unwrap().as_deref(),
            Some("Mai")
        );
        // A removed account's tokens log nobody in, not even a new account of the name.
        assert!(remove(&mut conn, "Mai").unwrap());
        insert(&mut conn, "Mai", "h", later + 3, false).unwrap();
        assert_eq!(recall(&mut conn, "t4", later + 4).unwrap(), None);
        // At most so many per account: the least recently used go first.
        for n in 0..TOKENS_PER_ACCOUNT + 2 {
            assert!(remember(&mut conn, "Lan", &format!("many{n}"), 100 + n).unwrap());
        }
        assert_eq!(recall(&mut conn, "many0", 200).unwrap(), None);
        assert_eq!(recall(&mut conn, "many1", 200).unwrap(), None);
        assert_eq!(
            recall(&mut conn, "many2", 200).unwrap().as_deref(),
            Some("Lan")
        );
    }

    /// The query plan of `sql` in SQLite's words.
    fn plan(conn: &Connection, sql: &str) -> String {
        let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
        let rows: Vec<String> = stmt
            .query_map([], |row| row.get::<_, String>(3))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        rows.join("; ")
    }

    #[test]
    fn the_look_alike_check_is_one_index_lookup_not_a_scan() {
        let conn = db();
        let by_skeleton = plan(&conn, "SELECT name FROM accounts WHERE skeleton = 'x'");
        assert!(
            by_skeleton.contains("USING INDEX accounts_by_skeleton"),
            "{by_skeleton}"
        );
        let by_name = plan(&conn, "SELECT 1 FROM accounts WHERE name_key = 'x'");
        assert!(by_name.contains("USING"), "{by_name}");
        assert!(!by_name.starts_with("SCAN"), "{by_name}");
        // The index refuses a second look-alike whoever writes it.
        conn.execute(
            "INSERT INTO accounts (name, name_key, hash, registered_at, skeleton)
             VALUES ('a', 'a', 'h', 1, 's'), ('b', 'b', 'h', 2, 's')",
            [],
        )
        .unwrap_err();
    }

    #[test]
    fn skeletons_are_computed_again_under_another_rule_and_look_alikes_stay_refused() {
        let mut conn = db();
        insert(&mut conn, "Alice", "h", 1, false).unwrap();
        insert(&mut conn, "Bình", "h", 2, false).unwrap();
        // As if an older build had let a look-alike in and its rule were another: the
        // skeletons (and the rule's fingerprint) are not what this build computes.
        conn.execute_batch(
            "INSERT INTO accounts (name, name_key, hash, registered_at, skeleton)
                 VALUES ('\u{410}lice', '\u{430}lice', 'h', 3, 'old 3');
             UPDATE accounts SET skeleton = 'old ' || id;
             UPDATE store_facts SET value = 'another rule' WHERE name = 'skeleton_rule';",
        )
        .unwrap();
        refresh_skeletons(&mut conn).unwrap();
        let skeletons: Vec<(String, String)> = conn
            .prepare("SELECT name, skeleton FROM accounts ORDER BY id")
            .unwrap()
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(skeletons[0], ("Alice".to_string(), skeleton("Alice")));
        assert_eq!(skeletons[1], ("Bình".to_string(), skeleton("Bình")));
        assert_ne!(skeletons[2].1, skeleton("Alice"), "kept unique");
        // The first of the look-alikes still refuses the next one.
        assert_eq!(
            insert(&mut conn, "Alic\u{435}", "h", 4, false).unwrap(),
            Registered::LooksLike("Alice".into())
        );
        // Refreshed once: a second start finds the rule unchanged and leaves them.
        conn.execute("UPDATE accounts SET skeleton = 'kept' WHERE id = 1", [])
            .unwrap();
        refresh_skeletons(&mut conn).unwrap();
        let kept: String = conn
            .query_row("SELECT skeleton FROM accounts WHERE id = 1", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(kept, "kept");
    }

    #[test]
    fn debug_output_hides_the_hash() {
        let a = Account {
            name: "An".into(),
            hash: "$argon2id$secret".into(),
            registered_ms: 1,
            bot: false,
        };
        assert!(!format!("{a:?}").contains("argon2"));
    }
}
