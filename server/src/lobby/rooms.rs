//! The room directory: every open room by number, how sessions reach it, and who made
//! it, so one machine (or one account) can be refused more rooms than it may have open.

use std::collections::BTreeMap;

use banco_protocol::RoomId;

use crate::admission::AddressKey;
use crate::room::RoomHandle;

/// Who made a room: what its maker's rooms are counted by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Maker {
    /// The machine the room was made from.
    pub address: AddressKey,
    /// The account that made it (its name in compared form), if logged in.
    pub account: Option<String>,
}

/// A room as the directory knows it.
struct Listed {
    /// How sessions reach the room.
    handle: RoomHandle,
    /// Who made it; `None` for a game reopened after a restart.
    maker: Option<Maker>,
    /// The tournament's board played here (opened for it, or adopted after a restart):
    /// no other board may take it over.
    board: Option<BoardKey>,
}

/// A tournament's board: (tournament, round, board).
pub type BoardKey = (banco_protocol::TournamentId, u32, u32);

/// Every open room.
pub struct RoomDirectory {
    /// By number.
    rooms: BTreeMap<RoomId, Listed>,
    /// The number the next room gets (unless that one is taken).
    next_room: RoomId,
}

impl Default for RoomDirectory {
    fn default() -> RoomDirectory {
        RoomDirectory {
            rooms: BTreeMap::new(),
            next_room: 1,
        }
    }
}

impl RoomDirectory {
    /// The next room number no open room has (numbers of reopened rooms are kept, so
    /// the count skips them).
    pub fn free_number(&mut self) -> RoomId {
        loop {
            let id = self.next_room;
            self.next_room = self.next_room.wrapping_add(1).max(1);
            if !self.rooms.contains_key(&id) {
                return id;
            }
        }
    }

    /// Whether a room has number `id`.
    pub fn contains(&self, id: RoomId) -> bool {
        self.rooms.contains_key(&id)
    }

    /// Numbers already given are not given again: the count goes past `id`.
    pub fn skip_past(&mut self, id: RoomId) {
        self.next_room = self.next_room.max(id.wrapping_add(1)).max(1);
    }

    /// Lists the room `id`.
    pub fn open(&mut self, id: RoomId, handle: RoomHandle, maker: Option<Maker>) {
        self.rooms.insert(
            id,
            Listed {
                handle,
                maker,
                board: None,
            },
        );
    }

    /// Room `id` now plays `board`; `false` if another board already has it (or it is
    /// not open). After a restart the rooms' numbers start again, so the room a board
    /// remembers may by now hold another tournament's board.
    pub fn claim_for_board(&mut self, id: RoomId, board: BoardKey) -> bool {
        match self.rooms.get_mut(&id) {
            Some(listed) if listed.board.is_none_or(|b| b == board) => {
                listed.board = Some(board);
                true
            }
            _ => false,
        }
    }

    /// Whether room `id` is open and free for `board`: it plays no board, or that one.
    pub fn free_for(&self, id: RoomId, board: BoardKey) -> bool {
        self.rooms
            .get(&id)
            .is_some_and(|listed| listed.board.is_none_or(|b| b == board))
    }

    /// Forgets room `id` (it closed); `false` if it was not listed.
    pub fn close(&mut self, id: RoomId) -> bool {
        self.rooms.remove(&id).is_some()
    }

    /// How to reach room `id`.
    pub fn get(&self, id: RoomId) -> Option<&RoomHandle> {
        self.rooms.get(&id).map(|r| &r.handle)
    }

    /// How many rooms are open.
    pub fn len(&self) -> usize {
        self.rooms.len()
    }

    /// Whether no room is open.
    pub fn is_empty(&self) -> bool {
        self.rooms.is_empty()
    }

    /// Rooms open that were made from `maker`'s machine or by its account.
    pub fn made_by(&self, maker: &Maker) -> usize {
        self.rooms
            .values()
            .filter_map(|r| r.maker.as_ref())
            .filter(|m| {
                m.address == maker.address
                    || (maker.account.is_some() && m.account == maker.account)
            })
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_room_plays_one_board_only_even_when_a_board_remembers_its_number() {
        let mut rooms = RoomDirectory::default();
        // A game restored from the store, and a room opened for a board this run.
        rooms.open(3, RoomHandle::for_test(3), None);
        rooms.open(5, RoomHandle::for_test(5), None);
        let (mine, other) = ((36, 2, 1), (37, 1, 1));
        assert!(rooms.claim_for_board(5, mine), "opened for its board");
        // After a restart another tournament's board remembers room 5 from the last
        // run: it is taken, so that board gets a room of its own.
        assert!(!rooms.free_for(5, other));
        assert!(!rooms.claim_for_board(5, other));
        // Its own board may come back to it (a player told their board again).
        assert!(rooms.free_for(5, mine));
        assert!(rooms.claim_for_board(5, mine));
        // The restored game's room may be adopted by its board.
        assert!(rooms.free_for(3, other));
        assert!(rooms.claim_for_board(3, other));
        assert!(!rooms.free_for(3, mine));
        // A number no room has is nobody's to adopt.
        assert!(!rooms.free_for(9, mine));
        assert!(!rooms.claim_for_board(9, mine));
    }
}
