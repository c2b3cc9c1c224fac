//! Accounts as the database keeps them: a name, its argon2id hash and when it was
//! registered. Plain queries on a connection, shared by the server (through its writer
//! and reader threads) and the host's `banco-server account` commands (on their own
//! connection to the same file).

use rusqlite::{Connection, OptionalExtension, params};

/// One account row. The hash never leaves the server: nothing here is on the wire.
#[derive(Clone, PartialEq, Eq)]
pub struct Account {
    /// As registered (its case kept).
    pub name: String,
    /// argon2id in PHC string form.
    pub hash: String,
    /// Unix milliseconds.
    pub registered_ms: i64,
}

impl std::fmt::Debug for Account {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Account")
            .field("name", &self.name)
            .field("hash", &"<hidden>")
            .field("registered_ms", &self.registered_ms)
            .finish()
    }
}

/// How names are compared: without case, so `An` and `an` cannot be two people.
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

/// The account registered under `name` (any case), if any.
pub fn find(conn: &Connection, name: &str) -> rusqlite::Result<Option<Account>> {
    conn.prepare_cached("SELECT name, hash, registered_at FROM accounts WHERE name_key = ?1")?
        .query_row([name_key(name)], |row| {
            Ok(Account {
                name: row.get(0)?,
                hash: row.get(1)?,
                registered_ms: row.get(2)?,
            })
        })
        .optional()
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

/// Registers `name`, unless it is an account already or looks like one.
pub fn insert(
    conn: &Connection,
    name: &str,
    hash: &str,
    now_ms: i64,
) -> rusqlite::Result<Registered> {
    let key = crate::names::look_alike_key(name);
    let own = name_key(name);
    let mut stmt = conn.prepare_cached("SELECT name, name_key FROM accounts")?;
    let mut rows = stmt.query([])?;
    while let Some(row) = rows.next()? {
        let (other, other_key): (String, String) = (row.get(0)?, row.get(1)?);
        if other_key != own && crate::names::look_alike_key(&other) == key {
            return Ok(Registered::LooksLike(other));
        }
    }
    let added = conn
        .prepare_cached(
            "INSERT INTO accounts (name, name_key, hash, registered_at) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT(name_key) DO NOTHING",
        )?
        .execute(params![name, own, hash, now_ms])?;
    Ok(if added == 1 {
        Registered::Done
    } else {
        Registered::Taken
    })
}

/// Replaces the password hash of `name`; `false` if there is no such account.
pub fn set_hash(conn: &Connection, name: &str, hash: &str) -> rusqlite::Result<bool> {
    let changed = conn
        .prepare_cached("UPDATE accounts SET hash = ?2 WHERE name_key = ?1")?
        .execute(params![name_key(name), hash])?;
    Ok(changed == 1)
}

/// Removes the account `name` (its games stay in the records, under the name, which
/// anyone may register again); `false` if there was none.
pub fn remove(conn: &Connection, name: &str) -> rusqlite::Result<bool> {
    let removed = conn
        .prepare_cached("DELETE FROM accounts WHERE name_key = ?1")?
        .execute([name_key(name)])?;
    Ok(removed == 1)
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
        let conn = db();
        assert_eq!(insert(&conn, "Bình", "h1", 5).unwrap(), Registered::Done);
        assert_eq!(insert(&conn, "BÌNH", "h2", 6).unwrap(), Registered::Taken);
        // A Cyrillic А in place of a Latin A: the same to a reader.
        assert_eq!(insert(&conn, "Alice", "h3", 7).unwrap(), Registered::Done);
        assert_eq!(
            insert(&conn, "\u{410}lice", "h4", 8).unwrap(),
            Registered::LooksLike("Alice".into())
        );
        assert!(find(&conn, "\u{410}lice").unwrap().is_none());
        let found = find(&conn, "bình").unwrap().unwrap();
        assert_eq!((found.name.as_str(), found.hash.as_str()), ("Bình", "h1"));
        assert!(set_hash(&conn, "BìNH", "h3").unwrap());
        assert_eq!(find(&conn, "Bình").unwrap().unwrap().hash, "h3");
        assert_eq!(
            list(&conn).unwrap(),
            vec![("Alice".to_string(), 7), ("Bình".to_string(), 5)]
        );
        assert!(remove(&conn, "bình").unwrap());
        assert!(find(&conn, "Bình").unwrap().is_none());
        assert!(!set_hash(&conn, "Bình", "h4").unwrap());
    }

    #[test]
    fn debug_output_hides_the_hash() {
        let a = Account {
            name: "An".into(),
            hash: "$argon2id$secret".into(),
            registered_ms: 1,
        };
        assert!(!format!("{a:?}").contains("argon2"));
    }
}
