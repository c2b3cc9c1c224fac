//! Bytes <-> frames for one client connection, and nothing else: what a message means is
//! the session's business.
//!
//! A connection is split in two. [`Inbound`] reads [`ClientMsg`]s. Everything bound for
//! the client goes through its [`Outbox`], a bounded queue drained by the [`Writer`]
//! task. Rooms push into outboxes without ever waiting: a client whose queue is full is
//! cut off (its connection token is cancelled) instead of holding up a room.

use futures::{SinkExt, StreamExt};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::sync::mpsc;
use tokio_util::codec::{FramedRead, FramedWrite};
use tokio_util::sync::CancellationToken;

use banco_protocol::wire::DecodeError;
use banco_protocol::{ClientMsg, FrameError, ServerCodec, ServerMsg};

/// How long a closing connection may take to deliver what is already queued (a last
/// error, a shutdown notice) before it is cut.
const DRAIN_TIME: Duration = Duration::from_secs(3);

/// One frame from the client.
#[derive(Debug)]
pub enum Incoming {
    Message(ClientMsg),
    /// A whole frame whose payload is not a message: answer `Malformed`, keep going.
    Malformed(DecodeError),
}

/// The reading half of a connection.
pub struct Inbound {
    /// Frames off the socket, decoded.
    frames: FramedRead<OwnedReadHalf, ServerCodec>,
}

impl Inbound {
    /// The next frame. `Ok(None)` is a clean close between frames; a close inside a frame,
    /// an oversized frame or an I/O error is an `Err`, after which nothing can be trusted.
    pub async fn read(&mut self) -> Result<Option<Incoming>, FrameError> {
        match self.frames.next().await {
            None => Ok(None),
            Some(Err(e)) => Err(e),
            Some(Ok(Ok(msg))) => Ok(Some(Incoming::Message(msg))),
            Some(Ok(Err(bad))) => Ok(Some(Incoming::Malformed(bad))),
        }
    }
}

/// The queue of messages for one client. Cheap to clone; rooms and the lobby keep a clone
/// for each person they serve.
#[derive(Debug, Clone)]
pub struct Outbox {
    /// Into the writer task.
    tx: mpsc::Sender<ServerMsg>,
    /// Cancelled when the client cannot keep up (or its socket failed): the session sees
    /// it and ends.
    cut: CancellationToken,
}

impl Outbox {
    /// Queues `msg` without waiting. Returns `false` if the client is gone or was just cut
    /// off for falling too far behind.
    pub fn send(&self, msg: ServerMsg) -> bool {
        match self.tx.try_send(msg) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                if !self.cut.is_cancelled() {
                    tracing::warn!("client cannot keep up with its messages; disconnecting it");
                    self.cut.cancel();
                }
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }

    /// Whether two outboxes lead to the same client.
    pub fn same_client(&self, other: &Outbox) -> bool {
        self.tx.same_channel(&other.tx)
    }

    /// An outbox whose messages land in the returned receiver: for unit tests of actors.
    pub fn for_test(capacity: usize) -> (Outbox, mpsc::Receiver<ServerMsg>) {
        let (tx, rx) = mpsc::channel(capacity);
        (
            Outbox {
                tx,
                cut: CancellationToken::new(),
            },
            rx,
        )
    }
}

/// The writing half: drains the outbox onto the socket.
pub struct Writer {
    /// Messages waiting for the socket.
    rx: mpsc::Receiver<ServerMsg>,
    /// Frames onto the socket.
    sink: FramedWrite<OwnedWriteHalf, ServerCodec>,
    /// Cancelled to stop at once (client cut off, or the socket failed).
    cut: CancellationToken,
}

/// Splits a fresh connection into its reading half, its outbox (holding at most
/// `capacity` messages) and the writer that must be run as its own task.
/// `cut` is the connection's token: the outbox cancels it when the client falls behind.
pub fn split(
    stream: TcpStream,
    capacity: usize,
    cut: CancellationToken,
) -> (Inbound, Outbox, Writer) {
    let (read, write) = stream.into_split();
    let (tx, rx) = mpsc::channel(capacity.max(1));
    (
        Inbound {
            frames: FramedRead::new(read, ServerCodec::new()),
        },
        Outbox {
            tx,
            cut: cut.clone(),
        },
        Writer {
            rx,
            sink: FramedWrite::new(write, ServerCodec::new()),
            cut,
        },
    )
}

impl Writer {
    /// Writes queued messages until `finish` fires (then delivers what is already queued,
    /// within a few seconds, and closes the socket) or the connection is cut.
    pub async fn run(mut self, finish: CancellationToken) {
        loop {
            let msg = tokio::select! {
                biased;
                () = self.cut.cancelled() => return,
                msg = self.rx.recv() => msg,
                () = finish.cancelled() => break,
            };
            let Some(msg) = msg else { break };
            let sent = tokio::select! {
                biased;
                () = self.cut.cancelled() => return,
                sent = self.sink.send(msg) => sent,
            };
            if let Err(e) = sent {
                tracing::debug!(error = %e, "write failed; closing the connection");
                self.cut.cancel();
                return;
            }
        }
        // Deliver what was queued before the end (a last error, a shutdown notice).
        let drain = async {
            while let Ok(msg) = self.rx.try_recv() {
                self.sink.feed(msg).await?;
            }
            self.sink.close().await
        };
        tokio::select! {
            () = self.cut.cancelled() => {}
            done = tokio::time::timeout(DRAIN_TIME, drain) => {
                if let Ok(Err(e)) = done {
                    tracing::debug!(error = %e, "could not deliver the last messages");
                }
            }
        }
    }
}
