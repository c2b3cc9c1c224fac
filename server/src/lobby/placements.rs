//! Rooms the lobby puts a session in without the session asking: a challenge it made was
//! accepted, a tournament paired it. The session takes them in order.
//!
//! A queue and a [`Notify`] rather than a channel: a tokio channel allocates its first
//! block of 32 slots when it is made, about 0.8 KB for every connection, and most
//! sessions are never placed at all (issue 28's spectator figure).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use tokio::sync::Notify;

use crate::room::RoomHandle;

/// The lobby's end and the session's end of one session's placements. Cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct Placements(Arc<Queue>);

#[derive(Debug, Default)]
struct Queue {
    /// Rooms placed and not yet taken, oldest first (empty, and unallocated, nearly
    /// always).
    rooms: Mutex<VecDeque<RoomHandle>>,
    /// Woken when a room is placed.
    placed: Notify,
}

impl Placements {
    /// Puts the session in `room` (it takes the seat kept for it there).
    pub fn place(&self, room: RoomHandle) {
        if let Ok(mut rooms) = self.0.rooms.lock() {
            rooms.push_back(room);
        }
        self.0.placed.notify_one();
    }

    /// The next room placed, waiting for one. Cancel-safe: a room placed while the
    /// future was dropped waits in the queue for the next call.
    pub async fn next(&self) -> RoomHandle {
        loop {
            let placed = self.0.placed.notified();
            tokio::pin!(placed);
            // Registered before looking, so a room placed in between wakes it.
            placed.as_mut().enable();
            if let Some(room) = self.take() {
                return room;
            }
            placed.await;
        }
    }

    fn take(&self) -> Option<RoomHandle> {
        self.0.rooms.lock().ok()?.pop_front()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn rooms_are_taken_in_order_and_none_is_lost_to_a_dropped_wait() {
        let a = RoomHandle::for_test(1);
        let b = RoomHandle::for_test(2);
        let placements = Placements::default();
        // A wait given up (as a `select!` does when another branch wins) loses nothing.
        let gave_up = tokio::time::timeout(Duration::from_millis(10), placements.next()).await;
        assert!(gave_up.is_err());
        placements.place(a);
        placements.clone().place(b);
        assert_eq!(placements.next().await.id(), 1);
        assert_eq!(placements.next().await.id(), 2);
        // A wait in progress is woken by a room placed later.
        let waiting = tokio::spawn({
            let p = placements.clone();
            async move { p.next().await.id() }
        });
        tokio::task::yield_now().await;
        let c = RoomHandle::for_test(3);
        placements.place(c);
        assert_eq!(waiting.await.unwrap(), 3);
    }

    #[test]
    fn a_placements_queue_is_smaller_than_a_channel_block() {
        // The point of the type: what every connection carries stays small.
        assert!(
            std::mem::size_of::<Queue>() <= 128,
            "{}",
            std::mem::size_of::<Queue>()
        );
    }
}
