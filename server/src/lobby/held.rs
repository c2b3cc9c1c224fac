//! The held-seat book: seats kept for players whose connection dropped, by the hash of
//! the token that takes them back, with whom each was held for (an address, an
//! account), so one machine or one account can be told it holds enough already.
//!
//! The book only keeps the record: the room keeps the seat itself and says when it gives
//! it up; the lobby frees the name then (or when a hold outlives its room's word).

use std::collections::HashMap;
use tokio::time::Instant;

use banco_protocol::RoomId;

use crate::admission::AddressKey;
use crate::token::TokenHash;

/// A seat held for a dropped player: their name stays theirs until it is given up.
#[derive(Debug, Clone)]
pub struct Held {
    /// Reserved for the player until the seat is given up.
    pub name: String,
    /// The room holding the seat, where a resume is sent.
    pub room: RoomId,
    /// When the lobby forgets it even if the room's release never arrives.
    pub until: Instant,
    /// The machine the player was on (`None` for a game reopened after a restart), for
    /// the cap on seats held per machine.
    pub address: Option<AddressKey>,
    /// Logged in to the account `name` (only a login to it takes the seat back), or a
    /// guest (only a guest's Hello with the token does); `None` for a seat of a game
    /// saved before the kind was kept (reopened after a restart): the token alone, or a
    /// login to the name, brings it back, as it always did.
    pub account: Option<bool>,
}

/// Every seat held on the server.
#[derive(Debug, Default)]
pub struct HeldSeats {
    /// By the hash of the token that takes each back.
    by_token: HashMap<TokenHash, Held>,
}

impl HeldSeats {
    /// Records a seat held under `token`.
    pub fn hold(&mut self, token: TokenHash, held: Held) {
        self.by_token.insert(token, held);
    }

    /// The seat held under `token`, if any.
    pub fn get(&self, token: &TokenHash) -> Option<&Held> {
        self.by_token.get(token)
    }

    /// Takes the seat held under `token` out of the book (its player is back, or it was
    /// given up).
    pub fn take(&mut self, token: &TokenHash) -> Option<Held> {
        self.by_token.remove(token)
    }

    /// Takes out the seat held for the account `name` (any case), with its token.
    pub fn take_account(&mut self, name: &str) -> Option<(TokenHash, Held)> {
        let key = name.to_lowercase();
        let token = self
            .by_token
            .iter()
            .find(|(_, h)| h.account != Some(false) && h.name.to_lowercase() == key)
            .map(|(token, _)| *token)?;
        self.by_token.remove(&token).map(|held| (token, held))
    }

    /// Takes out every hold whose `until` has passed: their release was lost.
    pub fn take_expired(&mut self, now: Instant) -> Vec<Held> {
        self.take_where(|h| h.until <= now)
    }

    /// Takes out every seat held in room `room` (it closed).
    pub fn take_in_room(&mut self, room: RoomId) -> Vec<Held> {
        self.take_where(|h| h.room == room)
    }

    /// Seats held for players on `address`, and for the account `account` if given.
    pub fn held_for(&self, address: AddressKey, account: Option<&str>) -> usize {
        let account = account.map(str::to_lowercase);
        self.by_token
            .values()
            .filter(|h| {
                h.address == Some(address)
                    || account
                        .as_deref()
                        .is_some_and(|a| h.account == Some(true) && h.name.to_lowercase() == a)
            })
            .count()
    }

    /// How many seats are held.
    pub fn len(&self) -> usize {
        self.by_token.len()
    }

    /// Whether no seat is held.
    pub fn is_empty(&self) -> bool {
        self.by_token.is_empty()
    }

    fn take_where(&mut self, gone: impl Fn(&Held) -> bool) -> Vec<Held> {
        let tokens: Vec<TokenHash> = self
            .by_token
            .iter()
            .filter(|(_, h)| gone(h))
            .map(|(token, _)| *token)
            .collect();
        tokens
            .iter()
            .filter_map(|token| self.by_token.remove(token))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_protocol::ResumeToken;

    fn held(name: &str, room: RoomId, address: u8, account: bool) -> Held {
        let account = Some(account);
        Held {
            name: name.into(),
            room,
            until: Instant::now() + std::time::Duration::from_secs(60),
            address: Some(AddressKey::V4(std::net::Ipv4Addr::new(10, 0, 0, address))),
            account,
        }
    }

    fn token(n: u8) -> TokenHash {
        TokenHash::of(&ResumeToken([n; 16]))
    }

    #[test]
    fn holds_are_counted_by_machine_and_account_and_taken_by_room() {
        let mut book = HeldSeats::default();
        book.hold(token(1), held("~An", 1, 2, false));
        book.hold(token(2), held("~An 2", 2, 2, false));
        book.hold(token(3), held("Bình", 3, 3, true));
        let two = AddressKey::V4(std::net::Ipv4Addr::new(10, 0, 0, 2));
        let four = AddressKey::V4(std::net::Ipv4Addr::new(10, 0, 0, 4));
        assert_eq!(book.held_for(two, None), 2);
        assert_eq!(
            book.held_for(four, Some("BÌNH")),
            1,
            "the account, anywhere"
        );
        assert_eq!(
            book.held_for(four, Some("~An")),
            0,
            "a guest's name is no account"
        );
        assert!(book.take_account("~an").is_none());
        let (t, h) = book.take_account("bình").unwrap();
        assert_eq!((t, h.room), (token(3), 3));
        assert_eq!(book.take_in_room(2).len(), 1);
        assert_eq!(book.len(), 1);
        assert!(book.get(&token(1)).is_some());
        assert!(book.take_expired(Instant::now()).is_empty());
        assert_eq!(
            book.take_expired(Instant::now() + std::time::Duration::from_secs(61))
                .len(),
            1
        );
        assert!(book.is_empty());
    }
}
