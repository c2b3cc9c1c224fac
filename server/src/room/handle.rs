//! The way in: [`RoomHandle`], cheap to clone, and the messages it carries to the room
//! task, one per intent. Replies come back on oneshot channels; refusals of in-room
//! requests go straight to the member's outbox.

use tokio::sync::{mpsc, oneshot};

use banco_protocol::{ErrorMsg, Move, OfferKind, ResumeToken, Role, RoomId, SwapChoice};

use crate::ClientId;
use crate::connection::Outbox;
use crate::token::TokenHash;

/// Someone coming into a room.
#[derive(Debug, Clone)]
pub struct Guest {
    /// Which session this is: requests and replies are matched by it.
    pub client: ClientId,
    /// How others see them (unique on the server).
    pub name: String,
    /// Their session's resume token: a held seat is given back to whoever presents it.
    pub token: ResumeToken,
    /// Where the room sends them everything.
    pub outbox: Outbox,
    /// Logged in to a bot account (an engine's): their seat shows a BOT tag.
    pub bot_account: bool,
}

/// A request from a member, forwarded by their session as it arrived.
#[derive(Debug, Clone)]
pub enum Request {
    Move(Move),
    Chat(String),
    Offer(OfferKind),
    Answer {
        kind: OfferKind,
        accept: bool,
    },
    Withdraw(OfferKind),
    Resign,
    /// Give up the room's match as a whole.
    ResignMatch,
    Hint,
    /// What the rules say about the position (for the browser page).
    Facts,
    /// Trial moves (draft mode) on a copy of the position (for the browser page).
    Trial(Vec<Move>),
    /// A swap opening's decision.
    Swap(SwapChoice),
    /// Halve one's clock in an arena game, for one more point on a win.
    Berserk,
}

/// One message per intent.
#[derive(Debug)]
pub enum RoomMsg {
    /// Come in: into the free seat (`seat`) or as a spectator. The room sends `Joined`.
    Join {
        guest: Guest,
        seat: bool,
        reply: oneshot::Sender<Result<Role, ErrorMsg>>,
    },
    /// Take back the seat held for `guest.token`. Answers whether it was held.
    Resume {
        guest: Guest,
        /// The token the seat is held under (the guest's own, or, for an account logging
        /// in again, the one its earlier connection had).
        seat: TokenHash,
        reply: oneshot::Sender<bool>,
    },
    /// Leave on purpose (mid-game a player loses). The room sends `Left`.
    Leave {
        client: ClientId,
        reply: oneshot::Sender<()>,
    },
    /// The member's connection is gone. Answers whether their seat is now held for them.
    Dropped {
        client: ClientId,
        reply: oneshot::Sender<bool>,
    },
    Request {
        client: ClientId,
        request: Request,
    },
    /// Play a tournament's board (a room reopened after a restart, its link found again).
    Adopt(super::BoardLink),
}

/// The room is gone (it closed, or the server is shutting down).
#[derive(Debug, Clone, Copy, thiserror::Error)]
#[error("the room is closed")]
pub struct RoomGone;

/// A cheap, cloneable way to talk to a room.
#[derive(Debug, Clone)]
pub struct RoomHandle {
    /// The room's number.
    id: RoomId,
    /// Its inbox.
    tx: mpsc::Sender<RoomMsg>,
}

impl RoomHandle {
    pub(super) fn new(id: RoomId, tx: mpsc::Sender<RoomMsg>) -> RoomHandle {
        RoomHandle { id, tx }
    }

    /// A handle to no room (its inbox dropped): for unit tests of the lobby's books.
    #[cfg(test)]
    pub fn for_test(id: RoomId) -> RoomHandle {
        let (tx, _) = mpsc::channel(1);
        RoomHandle { id, tx }
    }

    pub fn id(&self) -> RoomId {
        self.id
    }

    /// Enters the room as a player (`seat`) or a spectator.
    pub async fn join(&self, guest: Guest, seat: bool) -> Result<Result<Role, ErrorMsg>, RoomGone> {
        let (reply, answer) = oneshot::channel();
        self.send(RoomMsg::Join { guest, seat, reply }).await?;
        answer.await.map_err(|_| RoomGone)
    }

    /// Takes back a held seat; `false` if none is held for this token.
    pub async fn resume(&self, guest: Guest, seat: TokenHash) -> bool {
        let (reply, answer) = oneshot::channel();
        if self
            .send(RoomMsg::Resume { guest, seat, reply })
            .await
            .is_err()
        {
            return false;
        }
        answer.await.unwrap_or(false)
    }

    /// Leaves the room; `true` once the room has sent `Left`, `false` if it is gone.
    pub async fn leave(&self, client: ClientId) -> bool {
        let (reply, answer) = oneshot::channel();
        if self.send(RoomMsg::Leave { client, reply }).await.is_err() {
            return false;
        }
        answer.await.is_ok()
    }

    /// Reports the member's connection gone; `true` if the room holds their seat.
    pub async fn dropped(&self, client: ClientId) -> bool {
        let (reply, answer) = oneshot::channel();
        if self.send(RoomMsg::Dropped { client, reply }).await.is_err() {
            return false;
        }
        answer.await.unwrap_or(false)
    }

    /// Forwards a member's request; the room answers the member directly.
    pub async fn request(&self, client: ClientId, request: Request) -> Result<(), RoomGone> {
        self.send(RoomMsg::Request { client, request }).await
    }

    /// Tells a room reopened after a restart which tournament board it plays, without
    /// waiting (`false`: its inbox is full or it is gone).
    pub fn adopt(&self, link: super::BoardLink) -> bool {
        self.tx.try_send(RoomMsg::Adopt(link)).is_ok()
    }

    async fn send(&self, msg: RoomMsg) -> Result<(), RoomGone> {
        self.tx.send(msg).await.map_err(|_| RoomGone)
    }
}
