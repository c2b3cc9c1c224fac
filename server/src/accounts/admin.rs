//! The host's account commands (`banco-server account list|reset-password|remove`),
//! run on the database file directly. Safe while the server runs: SQLite's locks order
//! these writes with the server's, and the server reads accounts fresh at every login.

use rusqlite::Connection;
use std::path::Path;
use std::time::Duration;

use crate::store::accounts;

/// How long a command waits for the running server's writes to finish.
const BUSY_WAIT: Duration = Duration::from_secs(10);

/// The database at `path`, brought up to date, for an account command.
pub fn open(path: &Path) -> anyhow::Result<Connection> {
    if !path.exists() {
        anyhow::bail!(
            "there is no database at {}: name the server's file with --db PATH",
            path.display()
        );
    }
    let mut conn = Connection::open(path)?;
    conn.busy_timeout(BUSY_WAIT)?;
    crate::store::upgrade(&mut conn)?;
    Ok(conn)
}

/// One line per account: its name and registration date.
pub fn list(conn: &Connection) -> anyhow::Result<Vec<String>> {
    Ok(accounts::list(conn)?
        .into_iter()
        .map(|(name, registered)| format!("{name:<24} registered {}", date(registered)))
        .collect())
}

/// Gives `name` a new random password (logging out every browser kept logged in to it), returned to be told to its owner (who can
/// change it after logging in).
pub fn reset_password(conn: &mut Connection, name: &str) -> anyhow::Result<String> {
    let password = random_password();
    let hash = super::password::hash(&password).map_err(anyhow::Error::msg)?;
    if !accounts::set_hash(conn, name, &hash, None)? {
        anyhow::bail!("there is no account {name}: `banco-server account list` shows them");
    }
    Ok(password)
}

/// Removes the account `name`; its games stay in the records under the name, which
/// anyone may register again.
pub fn remove(conn: &mut Connection, name: &str) -> anyhow::Result<()> {
    if !accounts::remove(conn, name)? {
        anyhow::bail!("there is no account {name}: `banco-server account list` shows them");
    }
    Ok(())
}

/// Four groups of four letters and digits, without look-alikes (0/O, 1/l/I).
fn random_password() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    (0..4)
        .map(|_| {
            (0..4)
                .map(|_| ALPHABET[rand::random_range(0..ALPHABET.len())] as char)
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("-")
}

fn date(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(1_795_000_000_000), "2026-11-18");
    }

    #[test]
    fn random_passwords_are_long_enough_to_set() {
        let p = random_password();
        assert_eq!(p.len(), 19);
        assert!(crate::accounts::check_password(&p).is_ok());
    }
}
