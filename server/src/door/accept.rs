//! One accepted connection on the game port, in its own task: what it speaks is told by
//! its first byte (peeked, not read), then by ALPN inside TLS.
//!
//! | first byte        | TLS on                                   | `--no-tls`               |
//! |-------------------|------------------------------------------|--------------------------|
//! | 0x16 (handshake)  | TLS, then banco or HTTPS (by ALPN)       | closed (said in the log) |
//! | `A`-`Z` (HTTP)    | the [`super::cleartext`] page            | the page, as ever        |
//! | 0 (banco frame)   | one refusal frame saying why, then close | a banco session          |
//!
//! Inside TLS, ALPN `banco` is a banco session and `http/1.1` the page; a client that
//! asked for neither is told apart by its first decrypted byte, as on plain TCP. The
//! handshake must finish within [`HANDSHAKE_TIME`] and stops with the server.

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::TcpStream;
use tokio_util::task::TaskTracker;

use banco_protocol::{ErrorCode, ErrorMsg, ServerMsg};

use super::cleartext;
use crate::connection::{self, Format, Outgoing};
use crate::session::{self, SessionContext};
use crate::tls::Tls;
use crate::tls::identity::{ALPN_BANCO, ALPN_HTTP, Identity};
use crate::web::{http, sniff};

/// How long a TLS handshake may take, from its first byte to its last.
pub const HANDSHAKE_TIME: Duration = Duration::from_secs(10);

/// How long a refused plain client has to read the refusal before the socket closes.
const LINGER: Duration = Duration::from_secs(2);

/// The start of the refusal a plain banco client gets from a server with TLS on, so
/// banco's own client can tell it from a version mismatch and say what to do.
pub const PLAIN_REFUSAL: &str = "this server encrypts its connections (TLS)";

/// Serves one accepted connection to its end: TLS, the browser's HTTP or a banco
/// session, as the server's transport says and the first byte tells.
pub async fn serve(stream: TcpStream, peer: SocketAddr, ctx: SessionContext, tracker: TaskTracker) {
    let identity = match &ctx.config.tls {
        Tls::Off => None,
        Tls::Ready(identity) => Some(identity.clone()),
        Tls::SelfSigned | Tls::Files { .. } => {
            // The server loads its certificate before it accepts anything: a bug.
            tracing::error!(%peer, "TLS is on but no certificate was loaded: connection closed");
            return;
        }
    };
    let web = ctx.config.web;
    let first = sniff::first_byte(&stream).await;
    match (identity, first) {
        // Each way in but the plain session is boxed: a task is as big as its largest
        // branch, and the TLS one (handshake and all) would otherwise double what every
        // --no-tls client costs while it idles.
        (Some(identity), Some(b)) if sniff::starts_tls(b) => {
            Box::pin(encrypted(stream, identity, peer, ctx, tracker)).await;
        }
        (Some(identity), Some(b)) if sniff::starts_http(b) => {
            if web {
                Box::pin(cleartext::serve(
                    stream,
                    peer,
                    &identity,
                    ctx.shutdown.clone(),
                ))
                .await;
            }
        }
        (Some(_), Some(_)) => Box::pin(refuse_plain(stream, peer)).await,
        // Silent or gone before a word: nothing to serve.
        (Some(_), None) => {}
        (None, Some(b)) if sniff::starts_tls(b) => {
            tracing::info!(
                %peer,
                "a client asked for TLS, which is off (--no-tls): closed; it joins with --no-tls"
            );
        }
        (None, Some(b)) if web && sniff::starts_http(b) => {
            Box::pin(http::serve(stream, peer, ctx, tracker)).await;
        }
        (None, _) => session::serve(stream, peer, ctx).await,
    }
}

/// The TLS handshake, then the banco session or the page inside it.
async fn encrypted(
    stream: TcpStream,
    identity: Arc<Identity>,
    peer: SocketAddr,
    ctx: SessionContext,
    tracker: TaskTracker,
) {
    let acceptor = tokio_rustls::TlsAcceptor::from(identity.config.clone());
    let handshake = tokio::select! {
        () = ctx.shutdown.cancelled() => return,
        // Boxed: the handshake's state is freed once done, not kept in the session's task.
        done = tokio::time::timeout(HANDSHAKE_TIME, Box::pin(acceptor.accept(stream))) => done,
    };
    let tls = match handshake {
        Ok(Ok(tls)) => tls,
        Ok(Err(e)) => {
            // A browser that has not yet accepted the certificate ends here, once.
            tracing::debug!(%peer, error = %e, "TLS handshake failed");
            return;
        }
        Err(_) => {
            tracing::debug!(%peer, "TLS handshake not done in time: closed");
            return;
        }
    };
    let alpn = tls.get_ref().1.alpn_protocol().map(<[u8]>::to_vec);
    let web = ctx.config.web;
    match alpn.as_deref() {
        // The session runs as a task of its own, and this one (the handshake's locals
        // and all) ends: a TLS client idles at the cost of its session alone.
        Some(ALPN_BANCO) => {
            tracker.spawn(banco(tls, peer, ctx));
        }
        Some(ALPN_HTTP) => {
            if web {
                http::serve(tls, peer, ctx, tracker).await;
            }
        }
        // Boxed, as in `serve`: the rare way in does not size the common one's task.
        _ => {
            Box::pin(async move {
                let Some(sniffed) = Sniffed::read(tls).await else {
                    return;
                };
                if web && sniffed.first.is_some_and(sniff::starts_http) {
                    http::serve(sniffed, peer, ctx, tracker).await;
                } else {
                    banco(sniffed, peer, ctx).await;
                }
            })
            .await
        }
    }
}

/// A banco session over `stream`.
async fn banco<S: AsyncRead + AsyncWrite + Send + 'static>(
    stream: S,
    peer: SocketAddr,
    ctx: SessionContext,
) {
    let (source, sink) = connection::stream(stream);
    session::serve_transport(source, sink, peer, ctx).await;
}

/// A banco client that did not ask for TLS gets one frame saying why it cannot play
/// here, then the connection closes (after a moment for it to read the frame: closing
/// with its Hello unread would reset the connection and lose the frame).
async fn refuse_plain(mut stream: TcpStream, peer: SocketAddr) {
    tracing::info!(%peer, "a banco client without TLS was refused (it may be older, or told --no-tls)");
    let refusal = Outgoing::new(ServerMsg::Error(ErrorMsg::new(
        ErrorCode::VersionMismatch,
        format!(
            "{PLAIN_REFUSAL} and your client connected without it: join without --no-tls, \
             or update banco if yours is older than the server's; a host who must serve \
             older clients starts the server with --no-tls"
        ),
    )));
    let Some(frame) = refusal.encoded(Format::Binary) else {
        return;
    };
    let told = async {
        stream.write_all(frame).await?;
        stream.shutdown().await?;
        let mut sink = [0u8; 1024];
        let mut left = 64 * 1024usize;
        while left > 0 {
            match stream.read(&mut sink).await? {
                0 => break,
                n => left = left.saturating_sub(n),
            }
        }
        io::Result::Ok(())
    };
    let _ = tokio::time::timeout(LINGER, told).await;
}

/// A stream whose first byte was read to see what it speaks, handed back first.
struct Sniffed<S> {
    /// The byte read ahead; `None` once handed back.
    first: Option<u8>,
    /// The stream, past that byte.
    inner: S,
}

impl<S: AsyncRead + Unpin> Sniffed<S> {
    /// Reads the first byte (within [`sniff::SNIFF_TIME`]); `None` if none came.
    async fn read(mut inner: S) -> Option<Sniffed<S>> {
        let mut one = [0u8; 1];
        match tokio::time::timeout(sniff::SNIFF_TIME, inner.read(&mut one)).await {
            Ok(Ok(1)) => Some(Sniffed {
                first: Some(one[0]),
                inner,
            }),
            _ => None,
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Sniffed<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if buf.remaining() > 0
            && let Some(byte) = self.first.take()
        {
            buf.put_slice(&[byte]);
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Sniffed<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_sniffed_byte_is_handed_back_first() {
        let (mut a, b) = tokio::io::duplex(64);
        a.write_all(b"GET / HTTP/1.1").await.unwrap();
        drop(a);
        let mut sniffed = Sniffed::read(b).await.unwrap();
        assert_eq!(sniffed.first, Some(b'G'));
        let mut all = String::new();
        sniffed.read_to_string(&mut all).await.unwrap();
        assert_eq!(all, "GET / HTTP/1.1");
    }

    /// The size of the future an async fn of four arguments returns.
    fn future_size<A, B, C, D, F>(_: impl Fn(A, B, C, D) -> F) -> usize {
        std::mem::size_of::<F>()
    }

    #[test]
    fn a_connection_s_task_is_sized_by_its_session_not_by_the_rarer_ways_in() {
        // Every connection's task is as big as the largest branch of `serve`; the TLS
        // handshake, the page's HTTP and the refusals are boxed or spawned so that an
        // idle client costs its session and little more (the load bench's `idle`).
        let door = future_size(serve);
        let session = future_size(|s: TcpStream, p: SocketAddr, c: SessionContext, (): ()| {
            crate::session::serve(s, p, c)
        });
        assert!(
            door <= session + 1024,
            "the door's task is {door} bytes, its plain session's {session}"
        );
    }
}
