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

/// The account whose name looks the same as `name` (its TR39 skeleton, without case:
/// `Аlice` with a Cyrillic A beside `Alice`), if any. A scan: accounts on a LAN server
/// are few, and this runs only when someone registers.
pub fn look_alike(conn: &Connection, name: &str) -> rusqlite::Result<Option<String>> {
    let key = crate::names::look_alike_key(name);
    let mut names = conn.prepare_cached("SELECT name FROM accounts")?;
    let mut rows = names.query([])?;
    while let Some(row) = rows.next()? {
        let existing: String = row.get(0)?;
        if crate::names::look_alike_key(&existing) == key {
            return Ok(Some(existing));
        }
    }
    Ok(None)
}

/// Registers `name`; if an account already has that name or one that looks the same,
/// nothing is written and that account's name comes back.
pub fn insert(
    conn: &Connection,
    name: &str,
    hash: &str,
    now_ms: i64,
) -> rusqlite::Result<Option<String>> {
    if let Some(existing) = look_alike(conn, name)? {
        return Ok(Some(existing));
    }
    let added = conn
        .prepare_cached(
            "INSERT INTO accounts (name, name_key, hash, registered_at) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT(name_key) DO NOTHING",
        )?
        .execute(params![name, name_key(name), hash, now_ms])?;
    if added == 1 {
        Ok(None)
    } else {
        Ok(Some(
            find(conn, name)?.map_or_else(|| name.to_string(), |a| a.name),
        ))
    }
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
        assert_eq!(insert(&conn, "Bình", "h1", 5).unwrap(), None);
        assert_eq!(
            insert(&conn, "BÌNH", "h2", 6).unwrap().as_deref(),
            Some("Bình"),
            "taken"
        );
        let found = find(&conn, "bình").unwrap().unwrap();
        assert_eq!((found.name.as_str(), found.hash.as_str()), ("Bình", "h1"));
        assert!(set_hash(&conn, "BìNH", "h3").unwrap());
        assert_eq!(find(&conn, "Bình").unwrap().unwrap().hash, "h3");
        assert_eq!(list(&conn).unwrap(), vec![("Bình".to_string(), 5)]);
        assert!(remove(&conn, "bình").unwrap());
        assert!(find(&conn, "Bình").unwrap().is_none());
        assert!(!set_hash(&conn, "Bình", "h4").unwrap());
    }

    #[test]
    fn a_name_that_looks_like_an_account_is_not_registered() {
        let conn = db();
        assert_eq!(insert(&conn, "Alice", "h1", 5).unwrap(), None);
        for pose in ["\u{0410}lice", "AIice", "alice"] {
            assert_eq!(
                insert(&conn, pose, "h2", 6).unwrap().as_deref(),
                Some("Alice"),
                "{pose}"
            );
        }
        assert_eq!(look_alike(&conn, "Alicia").unwrap(), None);
        assert_eq!(insert(&conn, "Alicia", "h3", 7).unwrap(), None);
        assert_eq!(
            list(&conn).unwrap().len(),
            2,
            "nothing written for the posers"
        );
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
