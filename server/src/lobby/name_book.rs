//! The name book: the names in use on the server, by connected people and by seats held
//! for dropped ones, found by their look-alike key ([`look_alike_key`]) so nobody can
//! take a name that only looks like one in use.

use std::collections::HashMap;

use banco_protocol::{ErrorCode, ErrorMsg, MAX_NAME_CHARS};

use crate::names::look_alike_key;

/// The names in use on a server (by connected people and by seats held for dropped
/// ones), found by their look-alike key in one lookup.
#[derive(Debug, Default)]
pub struct NameBook {
    /// Look-alike key -> the name as it is shown.
    used: HashMap<String, String>,
    /// Look-alike key of a name -> the number its next namesake starts looking from, so
    /// a thousand people all called "An" cost a lookup each, not a scan each.
    next_number: HashMap<String, u32>,
}

impl NameBook {
    /// Takes a name for a newcomer who asked for `asked` (already [`clean_name`](crate::names::clean_name)d): the
    /// name itself if free; `An 2`, `An 3`, ... if someone has exactly that name (case
    /// aside); refused if it only looks like a name in use (`Аlice` beside `Alice`).
    pub fn claim(&mut self, asked: &str) -> Result<String, ErrorMsg> {
        let key = look_alike_key(asked);
        let Some(shown) = self.used.get(&key) else {
            self.used.insert(key, asked.to_string());
            return Ok(asked.to_string());
        };
        if shown.to_lowercase() != asked.to_lowercase() {
            return Err(ErrorMsg::new(
                ErrorCode::BadName,
                format!(
                    "'{asked}' looks the same as '{shown}', who is on this server: choose a \
                     name nobody could mistake for theirs"
                ),
            ));
        }
        let start = self.next_number.get(&key).copied().unwrap_or(2);
        for n in start.. {
            let suffix = format!(" {n}");
            let keep = MAX_NAME_CHARS.saturating_sub(suffix.chars().count());
            let stem: String = asked.chars().take(keep).collect();
            let candidate = format!("{}{suffix}", stem.trim_end());
            let candidate_key = look_alike_key(&candidate);
            if !self.used.contains_key(&candidate_key) {
                self.next_number.insert(key, n + 1);
                self.used.insert(candidate_key, candidate.clone());
                return Ok(candidate);
            }
        }
        unreachable!("some numbered name is free: finitely many names are taken")
    }

    /// A name is given up (its person left and holds no seat): free for anyone.
    pub fn release(&mut self, name: &str) {
        let key = look_alike_key(name);
        if self.used.get(&key).is_some_and(|shown| shown == name) {
            self.used.remove(&key);
            if self.used.is_empty() {
                self.next_number.clear();
            }
        }
    }

    /// A name that comes back in use without being claimed (a game reopened after a
    /// restart holds its players' names).
    pub fn keep(&mut self, name: &str) {
        self.used.insert(look_alike_key(name), name.to_string());
    }

    /// How many names are in use.
    pub fn len(&self) -> usize {
        self.used.len()
    }

    /// Whether no name is in use.
    pub fn is_empty(&self) -> bool {
        self.used.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_book_numbers_namesakes_and_refuses_look_alikes() {
        let mut book = NameBook::default();
        assert_eq!(book.claim("An").unwrap(), "An");
        assert_eq!(book.claim("an").unwrap(), "an 2");
        assert_eq!(book.claim("An").unwrap(), "An 3");
        assert_eq!(book.claim("Alice").unwrap(), "Alice");
        let e = book.claim("\u{0410}lice").unwrap_err();
        assert_eq!(e.code, ErrorCode::BadName);
        assert!(
            e.message.contains("looks the same as 'Alice'"),
            "{}",
            e.message
        );
        // Given up, a name is free again, for look-alikes too.
        book.release("Alice");
        assert_eq!(book.claim("\u{0410}lice").unwrap(), "\u{0410}lice");
        // Releasing a name not held as written changes nothing.
        book.release("an");
        assert_eq!(book.len(), 4);
        // A number fits the length limit.
        let long = "y".repeat(MAX_NAME_CHARS);
        assert_eq!(book.claim(&long).unwrap(), long);
        let again = book.claim(&long).unwrap();
        assert_eq!(again.chars().count(), MAX_NAME_CHARS);
        assert!(again.ends_with(" 2"));
    }

    #[test]
    fn a_thousand_namesakes_each_get_their_own_number() {
        let mut book = NameBook::default();
        let names: std::collections::HashSet<String> =
            (0..1000).map(|_| book.claim("An").unwrap()).collect();
        assert_eq!(names.len(), 1000);
        assert!(names.contains("An 1000"));
    }
}
