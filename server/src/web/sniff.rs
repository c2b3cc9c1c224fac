//! Which protocol a new connection speaks, from its first byte, without consuming it.
//!
//! A banco client's first bytes are a frame length, 4 bytes big-endian; frames are at
//! most [`banco_protocol::MAX_CLIENT_FRAME`] (64 KiB), so the first byte is always 0. An
//! HTTP request starts with its method in capital ASCII letters (`GET`). A TLS connection
//! starts with a handshake record, 0x16. Anything else is left to the banco session, which
//! refuses what it cannot read.

use std::time::Duration;
use tokio::net::TcpStream;

/// How long a new connection may stay silent before it is taken for a banco client (whose
/// session then waits for its Hello, and says so when none comes).
pub const SNIFF_TIME: Duration = Duration::from_secs(10);

/// Whether the peer's first byte starts an HTTP request.
pub async fn speaks_http(stream: &TcpStream) -> bool {
    first_byte(stream).await.is_some_and(starts_http)
}

/// The peer's first byte, left unread; `None` if it said nothing within [`SNIFF_TIME`]
/// or closed.
pub async fn first_byte(stream: &TcpStream) -> Option<u8> {
    let mut first = [0u8; 1];
    match tokio::time::timeout(SNIFF_TIME, stream.peek(&mut first)).await {
        Ok(Ok(1)) => Some(first[0]),
        _ => None,
    }
}

/// A TLS record of type handshake (a ClientHello): 0x16.
pub fn starts_tls(first: u8) -> bool {
    first == 0x16
}

/// `GET`, `HEAD`, `POST`, ... all start with a capital letter; a banco frame with 0.
pub fn starts_http(first: u8) -> bool {
    first.is_ascii_uppercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;
    use tokio::net::TcpListener;

    #[test]
    fn a_banco_frame_never_looks_like_http() {
        let largest = u32::try_from(banco_protocol::MAX_CLIENT_FRAME).unwrap();
        assert!(!starts_http(largest.to_be_bytes()[0]));
        assert!(starts_http(b'G') && starts_http(b'H'));
        assert!(!starts_tls(largest.to_be_bytes()[0]) && !starts_http(0x16));
        assert!(starts_tls(0x16) && !starts_tls(b'G'));
    }

    #[tokio::test]
    async fn peeking_leaves_the_bytes_for_whoever_reads_them() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let mut client = TcpStream::connect(listener.local_addr().unwrap())
            .await
            .unwrap();
        let (server, _) = listener.accept().await.unwrap();
        client.write_all(b"GET / HTTP/1.1\r\n").await.unwrap();
        assert!(speaks_http(&server).await);
        let mut buf = [0u8; 3];
        server.peek(&mut buf).await.unwrap();
        assert_eq!(&buf, b"GET");
    }
}
