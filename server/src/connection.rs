//! Bytes <-> messages for one client connection, and nothing else: what a message means
//! is the session's business.
//!
//! A connection is split in two halves behind two small traits, so a session serves a
//! TCP socket (bincode frames) and a browser's WebSocket (JSON) alike:
//!
//! - a [`FrameSource`] yields the client's messages;
//! - a [`FrameSink`] writes batches of [`Outgoing`] messages in its [`Format`].
//!
//! Everything bound for the client goes through its [`Outbox`], drained by the
//! connection's [`Writer`] task. An [`Outgoing`] message is encoded at most once per
//! format, however many clients receive it: a broadcast to a thousand spectators is one
//! allocation of bytes shared by a thousand queues. Each outbox is bounded in **bytes**
//! (`Config::outbox_bytes`): rooms and the lobby push without ever waiting, and a client
//! whose queue would grow past its budget is cut off (its connection token is cancelled,
//! with the reason logged) instead of holding memory or a room hostage. Before the socket
//! closes, the writer finishes the write in progress and says why
//! ([`ErrorCode::FellBehind`], and a WebSocket close frame with the same sentence), each
//! within [`FAREWELL_TIME`]: a client on a slow link learns why it was dropped, and one
//! that reads nothing costs no more than that wait.

use bytes::{BufMut, Bytes, BytesMut};
use futures::StreamExt;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadHalf, WriteHalf};
use tokio::net::TcpStream;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::sync::mpsc;
use tokio_util::codec::FramedRead;
use tokio_util::sync::CancellationToken;

use banco_protocol::wire::DecodeError;
use banco_protocol::{
    ClientMsg, ErrorCode, ErrorMsg, FrameError, MAX_SERVER_FRAME, ServerCodec, ServerMsg, wire,
};

/// How long a closing connection may take to deliver what is already queued (a last
/// error, a shutdown notice) before it is cut.
const DRAIN_TIME: Duration = Duration::from_secs(3);

/// How long a client cut for falling behind gets to take the write in progress, and then
/// the sentence saying why, before the socket is dropped without more ado.
pub const FAREWELL_TIME: Duration = Duration::from_secs(2);

/// The most bytes the writer gathers from the queue into one write: queued messages go
/// out together, in one system call, instead of one call each.
const BATCH_BYTES: usize = 64 * 1024;

/// One frame from the client.
#[derive(Debug)]
pub enum Incoming {
    Message(ClientMsg),
    /// A whole frame whose payload is not a message: answer `Malformed`, keep going.
    Malformed(DecodeError),
}

/// How a connection puts messages on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// bincode 2 payloads behind a 4-byte big-endian length: the terminal client's TCP.
    Binary,
    /// One JSON object per message: the browser's WebSocket.
    Json,
}

/// Where a session's client messages come from.
pub trait FrameSource: Send {
    /// The next message. `Ok(None)` is a clean close between frames; a close inside a
    /// frame, an oversized frame or an I/O error is an `Err`, after which nothing can be
    /// trusted.
    fn read(&mut self) -> impl Future<Output = Result<Option<Incoming>, FrameError>> + Send;
}

/// Where a session's messages go.
pub trait FrameSink: Send + 'static {
    /// The encoding this sink writes.
    fn format(&self) -> Format;
    /// Writes `batch` in order (each message's [`Outgoing::encoded`] form), as few
    /// system calls as the transport allows.
    fn write(&mut self, batch: &[Outgoing]) -> impl Future<Output = std::io::Result<()>> + Send;
    /// Flushes and closes the sending side.
    fn close(&mut self) -> impl Future<Output = std::io::Result<()>> + Send;
}

/// A message for clients, shared by everyone it is sent to and encoded at most once per
/// [`Format`]. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Outgoing(Arc<Shared>);

#[derive(Debug)]
struct Shared {
    /// What is said; `None` once a message for one client is encoded for it (see
    /// [`Outgoing::for_one`]): only its bytes wait in the queue.
    msg: Option<ServerMsg>,
    /// The whole binary frame (length prefix included), made on first use.
    binary: OnceLock<Option<Bytes>>,
    /// The JSON text, made on first use.
    json: OnceLock<Option<Bytes>>,
}

impl Outgoing {
    pub fn new(msg: ServerMsg) -> Outgoing {
        Outgoing(Arc::new(Shared {
            msg: Some(msg),
            binary: OnceLock::new(),
            json: OnceLock::new(),
        }))
    }

    /// A message for one client, encoded now in its `format`. Only the bytes are kept
    /// (the message itself is dropped), unless a sink reads the message as it writes
    /// ([`sink_reads`]). A room's snapshot waiting in a queue costs its encoded size,
    /// not its structures': a crowd walking into a room at once queues hundreds of them.
    pub fn for_one(msg: ServerMsg, format: Format) -> Outgoing {
        if sink_reads(&msg) {
            return Outgoing::new(msg);
        }
        let cell = OnceLock::new();
        let _ = cell.set(encode(&msg, format));
        let (binary, json) = match format {
            Format::Binary => (cell, OnceLock::new()),
            Format::Json => (OnceLock::new(), cell),
        };
        Outgoing(Arc::new(Shared {
            msg: None,
            binary,
            json,
        }))
    }

    /// The message itself, if it was kept (see [`Outgoing::for_one`]).
    pub fn msg(&self) -> Option<&ServerMsg> {
        self.0.msg.as_ref()
    }

    /// The message, kept or read back from its binary frame (`None` if it was kept as
    /// JSON only): for tests of actors, which look at what a client would read.
    pub fn message(&self) -> Option<ServerMsg> {
        if let Some(msg) = self.msg() {
            return Some(msg.clone());
        }
        let frame = self.encoded(Format::Binary)?;
        banco_protocol::wire::decode(frame.get(4..)?).ok()
    }

    /// The message in `format`: a whole frame for [`Format::Binary`], the JSON text for
    /// [`Format::Json`]. `None` if it cannot be encoded (larger than a frame may be:
    /// a bug, logged once).
    pub fn encoded(&self, format: Format) -> Option<&Bytes> {
        let cell = match format {
            Format::Binary => &self.0.binary,
            Format::Json => &self.0.json,
        };
        cell.get_or_init(|| {
            // A message kept as bytes only was encoded for its one client's format.
            encode(self.0.msg.as_ref()?, format)
        })
        .as_ref()
    }
}

/// Whether a sink reads the message itself as it writes it, beside its bytes: the
/// WebSocket sink watches for the welcome and for the errors that end a connection.
fn sink_reads(msg: &ServerMsg) -> bool {
    matches!(msg, ServerMsg::Welcome(_) | ServerMsg::Error(_))
}

/// `msg` in `format`; `None` (logged) if it cannot be encoded.
fn encode(msg: &ServerMsg, format: Format) -> Option<Bytes> {
    let encoded = match format {
        Format::Binary => binary_frame(msg),
        Format::Json => serde_json::to_vec(msg)
            .map(Bytes::from)
            .map_err(|e| e.to_string()),
    };
    encoded
        .inspect_err(|e| tracing::error!(error = %e, "a message could not be encoded"))
        .ok()
}

fn binary_frame(msg: &ServerMsg) -> Result<Bytes, String> {
    let payload = wire::encode(msg).map_err(|e| e.to_string())?;
    if payload.len() > MAX_SERVER_FRAME {
        return Err(format!(
            "{} bytes is more than a frame holds",
            payload.len()
        ));
    }
    let mut frame = BytesMut::with_capacity(4 + payload.len());
    frame.put_u32(payload.len() as u32);
    frame.put_slice(&payload);
    Ok(frame.freeze())
}

/// The queue of messages for one client. Cheap to clone; rooms and the lobby keep a clone
/// for each person they serve.
#[derive(Debug, Clone)]
pub struct Outbox {
    /// Into the writer task.
    tx: mpsc::UnboundedSender<Outgoing>,
    /// Bytes queued and not yet written, shared with the writer.
    queued: Arc<AtomicUsize>,
    /// The most bytes that may wait for this client.
    budget: usize,
    /// The writer's encoding, to count what a message costs this client.
    format: Format,
    /// Cancelled when the client cannot keep up (or its socket failed): the session sees
    /// it and ends.
    cut: CancellationToken,
    /// Set (before `cut`) when the cut is for falling behind, so the writer says so.
    behind: Arc<AtomicBool>,
}

impl Outbox {
    /// Queues `msg` without waiting. Returns `false` if the client is gone or was just cut
    /// off for falling too far behind.
    pub fn send(&self, msg: ServerMsg) -> bool {
        self.push(&Outgoing::for_one(msg, self.format))
    }

    /// How this client's messages are encoded.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Queues a shared message (a broadcast) without waiting; see [`Outbox::send`].
    pub fn push(&self, out: &Outgoing) -> bool {
        if self.cut.is_cancelled() || self.tx.is_closed() {
            return false;
        }
        let Some(size) = out.encoded(self.format).map(Bytes::len) else {
            return true;
        };
        let before = self.queued.fetch_add(size, Ordering::AcqRel);
        // One message always fits in an empty queue, however large: a client is cut for
        // falling behind, never for being sent a big room.
        if before > 0 && before + size > self.budget {
            self.queued.fetch_sub(size, Ordering::AcqRel);
            tracing::warn!(
                waiting = before,
                budget = self.budget,
                "client cannot keep up with its messages; disconnecting it"
            );
            self.behind.store(true, Ordering::Release);
            self.cut.cancel();
            return false;
        }
        if self.tx.send(out.clone()).is_err() {
            self.queued.fetch_sub(size, Ordering::AcqRel);
            return false;
        }
        true
    }

    /// Whether two outboxes lead to the same client.
    pub fn same_client(&self, other: &Outbox) -> bool {
        self.tx.same_channel(&other.tx)
    }

    /// An outbox whose messages land in the returned receiver: for unit tests of actors.
    pub fn for_test(budget: usize) -> (Outbox, TestInbox) {
        let (tx, rx) = mpsc::unbounded_channel();
        let queued = Arc::new(AtomicUsize::new(0));
        (
            Outbox {
                tx,
                queued: queued.clone(),
                budget,
                format: Format::Binary,
                cut: CancellationToken::new(),
                behind: Arc::new(AtomicBool::new(false)),
            },
            TestInbox { rx, queued },
        )
    }
}

/// What a test outbox received; reading a message frees its bytes, as the writer would.
pub struct TestInbox {
    rx: mpsc::UnboundedReceiver<Outgoing>,
    queued: Arc<AtomicUsize>,
}

impl TestInbox {
    /// The next message already queued, if any.
    pub fn try_recv(&mut self) -> Option<ServerMsg> {
        let out = self.rx.try_recv().ok()?;
        let size = out.encoded(Format::Binary).map_or(0, Bytes::len);
        self.queued.fetch_sub(size, Ordering::AcqRel);
        out.message()
    }

    /// The next message, waiting for it; `None` once every outbox is gone.
    pub async fn recv(&mut self) -> Option<ServerMsg> {
        let out = self.rx.recv().await?;
        let size = out.encoded(Format::Binary).map_or(0, Bytes::len);
        self.queued.fetch_sub(size, Ordering::AcqRel);
        out.message()
    }
}

/// The writing half: drains the outbox into a [`FrameSink`].
pub struct Writer<S> {
    /// Messages waiting for the socket.
    rx: mpsc::UnboundedReceiver<Outgoing>,
    /// Bytes waiting, shared with the outbox.
    queued: Arc<AtomicUsize>,
    /// Where they go.
    sink: S,
    /// Cancelled to stop at once (client cut off, or the socket failed).
    cut: CancellationToken,
    /// Set when the cut is for falling behind: then the client is told why first.
    behind: Arc<AtomicBool>,
    /// The outbox's budget in bytes, for the sentence that says why.
    budget: usize,
}

/// What became of one write.
enum Step {
    /// It finished (or failed) in its own time.
    Written(std::io::Result<()>),
    /// The client was cut for falling behind and the write still finished: say why.
    SayWhy,
    /// The connection was cut: stop now.
    Stop,
}

/// An outbox of at most `budget` bytes and the writer that drains it into `sink` (to be
/// run as its own task). `cut` is the connection's token: the outbox cancels it when the
/// client falls behind, the writer when the socket fails.
pub fn outbox<S: FrameSink>(sink: S, budget: usize, cut: CancellationToken) -> (Outbox, Writer<S>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let queued = Arc::new(AtomicUsize::new(0));
    let behind = Arc::new(AtomicBool::new(false));
    let budget = budget.max(1);
    (
        Outbox {
            tx,
            queued: queued.clone(),
            budget,
            format: sink.format(),
            cut: cut.clone(),
            behind: behind.clone(),
        },
        Writer {
            rx,
            queued,
            sink,
            cut,
            behind,
            budget,
        },
    )
}

impl<S: FrameSink> Writer<S> {
    /// Writes queued messages until `finish` fires (then delivers what is already queued,
    /// within a few seconds, and closes the socket) or the connection is cut.
    pub async fn run(mut self, finish: CancellationToken) {
        let mut batch = Vec::new();
        loop {
            let first = tokio::select! {
                biased;
                () = self.cut.cancelled() => return self.say_why_if_behind().await,
                out = self.rx.recv() => out,
                () = finish.cancelled() => break,
            };
            let Some(first) = first else { break };
            let bytes = self.gather(first, &mut batch);
            let step = {
                let write = self.sink.write(&batch);
                tokio::pin!(write);
                tokio::select! {
                    biased;
                    () = self.cut.cancelled() => {
                        // A frame cut in half would garble the farewell: finish it first.
                        if !self.behind.load(Ordering::Acquire) {
                            Step::Stop
                        } else if let Ok(Ok(())) = tokio::time::timeout(FAREWELL_TIME, &mut write).await {
                            Step::SayWhy
                        } else {
                            Step::Stop
                        }
                    }
                    written = &mut write => Step::Written(written),
                }
            };
            self.queued.fetch_sub(bytes, Ordering::AcqRel);
            batch.clear();
            let written = match step {
                Step::Written(written) => written,
                Step::SayWhy => return self.say_why_if_behind().await,
                Step::Stop => return,
            };
            if let Err(e) = written {
                tracing::debug!(error = %e, "write failed; closing the connection");
                self.cut.cancel();
                return;
            }
        }
        // Deliver what was queued before the end (a last error, a shutdown notice).
        let drain = async {
            while let Ok(out) = self.rx.try_recv() {
                self.sink.write(std::slice::from_ref(&out)).await?;
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

    /// After a cut: when it was for falling behind, tells the client so and closes (the
    /// WebSocket with a close frame carrying the sentence), within [`FAREWELL_TIME`].
    /// Whatever else was queued is dropped unsent.
    async fn say_why_if_behind(&mut self) {
        if !self.behind.load(Ordering::Acquire) {
            return;
        }
        let why = Outgoing::new(ServerMsg::Error(ErrorMsg::new(
            ErrorCode::FellBehind,
            // Short enough for a WebSocket close frame's reason (123 bytes).
            format!(
                "your connection fell over {} KiB behind its messages and was closed; \
                 reconnect to pick up where you were",
                self.budget.div_ceil(1024)
            ),
        )));
        let farewell = async {
            self.sink.write(std::slice::from_ref(&why)).await?;
            self.sink.close().await
        };
        match tokio::time::timeout(FAREWELL_TIME, farewell).await {
            Ok(Ok(())) => tracing::debug!("told the slow client why it was cut"),
            Ok(Err(e)) => tracing::debug!(error = %e, "could not tell the slow client why"),
            Err(_) => tracing::debug!("the slow client took nothing more; dropped"),
        }
    }

    /// `first` and whatever else is already queued, up to [`BATCH_BYTES`], into `batch`;
    /// returns their size.
    fn gather(&mut self, first: Outgoing, batch: &mut Vec<Outgoing>) -> usize {
        let format = self.sink.format();
        let size = |out: &Outgoing| out.encoded(format).map_or(0, Bytes::len);
        let mut bytes = size(&first);
        batch.push(first);
        while bytes < BATCH_BYTES {
            let Ok(next) = self.rx.try_recv() else { break };
            bytes += size(&next);
            batch.push(next);
        }
        bytes
    }
}

/// What a connection's read buffer starts at.
const READ_BUFFER: usize = 256;

/// A TCP connection's reading half (plain, or TLS over TCP: `R`): bincode frames of
/// client messages.
pub struct TcpSource<R = OwnedReadHalf> {
    /// Frames off the socket, decoded.
    frames: FramedRead<R, ServerCodec>,
}

impl<R: AsyncRead + Unpin + Send> FrameSource for TcpSource<R> {
    async fn read(&mut self) -> Result<Option<Incoming>, FrameError> {
        match self.frames.next().await {
            None => Ok(None),
            Some(Err(e)) => Err(e),
            Some(Ok(Ok(msg))) => Ok(Some(Incoming::Message(msg))),
            Some(Ok(Err(bad))) => Ok(Some(Incoming::Malformed(bad))),
        }
    }
}

/// A TCP connection's writing half (plain, or TLS over TCP: `W`): whole binary frames,
/// a batch per system call.
pub struct TcpSink<W = OwnedWriteHalf> {
    /// The socket.
    write: W,
    /// Where a batch of several frames is gathered (kept for the next batch).
    buffer: Vec<u8>,
}

impl<W: AsyncWrite + Unpin + Send + 'static> FrameSink for TcpSink<W> {
    fn format(&self) -> Format {
        Format::Binary
    }

    async fn write(&mut self, batch: &[Outgoing]) -> std::io::Result<()> {
        if let [one] = batch {
            if let Some(frame) = one.encoded(Format::Binary) {
                self.write.write_all(frame).await?;
            }
            return Ok(());
        }
        self.buffer.clear();
        for frame in batch.iter().filter_map(|out| out.encoded(Format::Binary)) {
            self.buffer.extend_from_slice(frame);
        }
        self.write.write_all(&self.buffer).await?;
        // A big batch leaves no big buffer behind on an idle connection.
        if self.buffer.capacity() > BATCH_BYTES * 2 {
            self.buffer = Vec::new();
        }
        Ok(())
    }

    async fn close(&mut self) -> std::io::Result<()> {
        self.write.shutdown().await
    }
}

/// Splits a TCP connection into its two halves.
pub fn tcp(stream: TcpStream) -> (TcpSource, TcpSink) {
    let (read, write) = stream.into_split();
    halves(read, write)
}

/// Splits any byte stream (TLS over TCP) into the two halves of a banco connection.
pub fn stream<S: AsyncRead + AsyncWrite + Send + 'static>(
    stream: S,
) -> (TcpSource<ReadHalf<S>>, TcpSink<WriteHalf<S>>) {
    let (read, write) = tokio::io::split(stream);
    halves(read, write)
}

fn halves<R: AsyncRead, W>(read: R, write: W) -> (TcpSource<R>, TcpSink<W>) {
    (
        TcpSource {
            // Client messages are small: an idle client's read buffer stays small too
            // (it grows for a bigger frame; the default would be 8 KiB for everyone).
            frames: FramedRead::with_capacity(read, ServerCodec::new(), READ_BUFFER),
        },
        TcpSink {
            write,
            buffer: Vec::new(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_protocol::ErrorMsg;

    fn chat(text: &str) -> ServerMsg {
        ServerMsg::Error(ErrorMsg::new(banco_protocol::ErrorCode::Busy, text))
    }

    #[test]
    fn a_message_for_one_client_waits_as_bytes_only() {
        let big = ServerMsg::Chat(banco_protocol::ChatLine {
            from: "An".into(),
            text: "x".repeat(300),
            at_ms: 1,
        });
        for format in [Format::Binary, Format::Json] {
            let one = Outgoing::for_one(big.clone(), format);
            assert!(one.msg().is_none(), "only the bytes are kept");
            let shared = Outgoing::new(big.clone());
            assert_eq!(
                one.encoded(format),
                shared.encoded(format),
                "the same bytes"
            );
            let other = match format {
                Format::Binary => Format::Json,
                Format::Json => Format::Binary,
            };
            assert_eq!(one.encoded(other), None, "encoded for its one client only");
        }
        assert_eq!(
            Outgoing::for_one(big.clone(), Format::Binary).message(),
            Some(big)
        );
        // The WebSocket sink reads errors and welcomes as it writes them.
        let error = chat("bye");
        assert_eq!(
            Outgoing::for_one(error.clone(), Format::Json).msg(),
            Some(&error)
        );
    }

    #[test]
    fn a_broadcast_is_encoded_once_and_shared() {
        let out = Outgoing::new(chat("hello"));
        let a = out.encoded(Format::Binary).unwrap().clone();
        let b = out.clone().encoded(Format::Binary).unwrap().clone();
        assert_eq!(a.as_ptr(), b.as_ptr(), "the same bytes, not a copy");
        let payload = &a[4..];
        assert_eq!(
            u32::from_be_bytes([a[0], a[1], a[2], a[3]]) as usize,
            payload.len()
        );
        assert_eq!(wire::decode::<ServerMsg>(payload).unwrap(), chat("hello"));
        let json = out.encoded(Format::Json).unwrap();
        let back: ServerMsg = serde_json::from_slice(json).unwrap();
        assert_eq!(back, chat("hello"));
    }

    #[test]
    fn an_outbox_is_bounded_in_bytes_and_cuts_the_slow() {
        let (outbox, mut inbox) = Outbox::for_test(1000);
        let big = Outgoing::new(chat(&"x".repeat(600)));
        assert!(outbox.push(&big), "one message fits an empty queue");
        assert!(!outbox.push(&big), "a second one is over the budget");
        assert!(outbox.cut.is_cancelled(), "the slow client is cut");
        assert!(!outbox.send(chat("small")), "nothing more is queued");
        assert!(inbox.try_recv().is_some());
        assert!(inbox.try_recv().is_none());

        // A queue read in time never fills, whatever passes through it.
        let (outbox, mut inbox) = Outbox::for_test(1000);
        for _ in 0..100 {
            assert!(outbox.push(&big));
            assert!(inbox.try_recv().is_some());
        }
        assert!(!outbox.cut.is_cancelled());
        // A message larger than the whole budget still reaches a client that keeps up.
        let huge = Outgoing::new(chat(&"y".repeat(5000)));
        assert!(outbox.push(&huge));
    }

    /// A sink whose writes wait for a permit each, recording what they wrote.
    struct Gated {
        permits: Arc<tokio::sync::Semaphore>,
        written: Arc<std::sync::Mutex<Vec<ServerMsg>>>,
        closed: Arc<AtomicBool>,
    }

    impl FrameSink for Gated {
        fn format(&self) -> Format {
            Format::Binary
        }

        async fn write(&mut self, batch: &[Outgoing]) -> std::io::Result<()> {
            let permit = self
                .permits
                .acquire()
                .await
                .map_err(std::io::Error::other)?;
            permit.forget();
            let mut written = self.written.lock().unwrap();
            written.extend(batch.iter().filter_map(Outgoing::message));
            Ok(())
        }

        async fn close(&mut self) -> std::io::Result<()> {
            self.closed.store(true, Ordering::Release);
            Ok(())
        }
    }

    #[tokio::test]
    async fn a_client_cut_for_falling_behind_is_told_why_after_the_write_in_progress() {
        let permits = Arc::new(tokio::sync::Semaphore::new(0));
        let written = Arc::new(std::sync::Mutex::new(Vec::new()));
        let closed = Arc::new(AtomicBool::new(false));
        let sink = Gated {
            permits: permits.clone(),
            written: written.clone(),
            closed: closed.clone(),
        };
        let cut = CancellationToken::new();
        let (outbox, writer) = outbox(sink, 1000, cut.clone());
        let writer = tokio::spawn(writer.run(CancellationToken::new()));
        let big = Outgoing::new(chat(&"x".repeat(400)));
        assert!(outbox.push(&big));
        // The writer is now inside its first write, waiting on the slow socket.
        tokio::task::yield_now().await;
        assert!(outbox.push(&big), "the second waits in the queue");
        assert!(!outbox.push(&big), "the third is over the budget");
        assert!(cut.is_cancelled());
        // The slow socket takes the write in progress, then the farewell.
        permits.add_permits(2);
        tokio::time::timeout(Duration::from_secs(5), writer)
            .await
            .unwrap()
            .unwrap();
        let written = written.lock().unwrap();
        assert_eq!(written.len(), 2, "{written:?}");
        assert_eq!(
            written[0],
            chat(&"x".repeat(400)),
            "the frame in progress whole"
        );
        match &written[1] {
            ServerMsg::Error(e) => {
                assert_eq!(e.code, ErrorCode::FellBehind);
                assert!(
                    e.message.contains("fell over 1 KiB behind"),
                    "{}",
                    e.message
                );
                assert!(e.message.len() <= 123, "{}", e.message);
            }
            other => panic!("the last word was {other:?}"),
        }
        assert!(closed.load(Ordering::Acquire), "the connection was closed");
    }

    #[tokio::test(start_paused = true)]
    async fn a_client_that_takes_nothing_is_dropped_after_the_farewell_time() {
        let permits = Arc::new(tokio::sync::Semaphore::new(0));
        let closed = Arc::new(AtomicBool::new(false));
        let sink = Gated {
            permits,
            written: Arc::new(std::sync::Mutex::new(Vec::new())),
            closed: closed.clone(),
        };
        let cut = CancellationToken::new();
        let (outbox, writer) = outbox(sink, 1000, cut.clone());
        let writer = tokio::spawn(writer.run(CancellationToken::new()));
        let big = Outgoing::new(chat(&"x".repeat(400)));
        assert!(outbox.push(&big));
        tokio::task::yield_now().await;
        assert!(outbox.push(&big));
        assert!(!outbox.push(&big));
        let started = tokio::time::Instant::now();
        writer.await.unwrap();
        assert_eq!(
            started.elapsed(),
            FAREWELL_TIME,
            "it waited the farewell time, no more"
        );
        assert!(!closed.load(Ordering::Acquire), "nothing more was tried");
    }
}
