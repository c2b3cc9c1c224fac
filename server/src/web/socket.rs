//! A browser's WebSocket as a session's transport: each text message is one protocol
//! message in serde's JSON, both ways. The message size limit is a TCP frame's
//! ([`banco_protocol::MAX_CLIENT_FRAME`]), set on the upgrade.
//!
//! The server's close carries a status code and a reason ([`close_frame`]): the error
//! that ended the session (a refusal at the door, the server shutting down), so the
//! page can say why instead of showing the browser's bare 1005 or 1006.

use axum::extract::ws::{CloseCode, CloseFrame, Message, Utf8Bytes, WebSocket, close_code};
use futures::stream::{SplitSink, SplitStream};
use futures::{SinkExt, StreamExt};

use banco_protocol::wire::DecodeError;
use banco_protocol::{ClientMsg, ErrorCode, ErrorMsg, FrameError, ServerMsg};

use crate::connection::{Format, FrameSink, FrameSource, Incoming, Outgoing};

/// The longest reason a close frame carries (its payload is 125 bytes with the code).
const MAX_REASON_BYTES: usize = 123;

/// Splits an upgraded WebSocket into a session's two halves.
pub fn split(socket: WebSocket) -> (WsSource, WsSink) {
    let (sink, stream) = socket.split();
    (
        WsSource { stream },
        WsSink {
            sink,
            welcomed: false,
            ending: None,
        },
    )
}

/// The browser's messages.
pub struct WsSource {
    stream: SplitStream<WebSocket>,
}

/// What the session sends the browser.
pub struct WsSink {
    /// The socket's sending half.
    sink: SplitSink<WebSocket, Message>,
    /// Whether the session was welcomed: errors after that are answers to requests,
    /// not why the connection ends (except the server shutting down).
    welcomed: bool,
    /// The error the session ended on, told again in the close frame.
    ending: Option<ErrorMsg>,
}

/// The reading of one WebSocket text as a client message.
pub fn decode(text: &str) -> Incoming {
    match serde_json::from_str::<ClientMsg>(text) {
        Ok(msg) => Incoming::Message(msg),
        Err(e) => Incoming::Malformed(DecodeError::Json(e.to_string())),
    }
}

impl FrameSource for WsSource {
    async fn read(&mut self) -> Result<Option<Incoming>, FrameError> {
        loop {
            let Some(next) = self.stream.next().await else {
                return Ok(None);
            };
            let message = next.map_err(|e| FrameError::Io(std::io::Error::other(e)))?;
            return Ok(Some(match message {
                Message::Text(text) => decode(text.as_str()),
                Message::Binary(_) => Incoming::Malformed(DecodeError::Json(
                    "the page sends its messages as text".to_string(),
                )),
                // Answered by the WebSocket layer itself.
                Message::Ping(_) | Message::Pong(_) => continue,
                Message::Close(_) => return Ok(None),
            }));
        }
    }
}

impl FrameSink for WsSink {
    fn format(&self) -> Format {
        Format::Json
    }

    async fn write(&mut self, batch: &[Outgoing]) -> std::io::Result<()> {
        for out in batch {
            let Some(json) = out.encoded(Format::Json) else {
                continue;
            };
            match out.msg() {
                Some(ServerMsg::Welcome(_)) => self.welcomed = true,
                Some(ServerMsg::Error(e))
                    if !self.welcomed
                        || matches!(
                            e.code,
                            ErrorCode::ShuttingDown | ErrorCode::TakenOver | ErrorCode::FellBehind
                        ) =>
                {
                    self.ending = Some(e.clone());
                }
                _ => {}
            }
            let text = Utf8Bytes::try_from(json.clone()).map_err(std::io::Error::other)?;
            self.sink
                .feed(Message::Text(text))
                .await
                .map_err(std::io::Error::other)?;
        }
        self.sink.flush().await.map_err(std::io::Error::other)
    }

    async fn close(&mut self) -> std::io::Result<()> {
        let frame = close_frame(self.ending.as_ref());
        self.sink
            .send(Message::Close(Some(frame)))
            .await
            .map_err(std::io::Error::other)?;
        self.sink.close().await.map_err(std::io::Error::other)
    }
}

/// The close frame for a session that ended on `error` (`None`: it simply ended).
pub fn close_frame(error: Option<&ErrorMsg>) -> CloseFrame {
    let Some(error) = error else {
        return CloseFrame {
            code: close_code::NORMAL,
            reason: Utf8Bytes::from_static("the connection is closed"),
        };
    };
    let code: CloseCode = match error.code {
        ErrorCode::ShuttingDown => close_code::AWAY,
        ErrorCode::Busy | ErrorCode::TooManyTries => close_code::AGAIN,
        ErrorCode::VersionMismatch | ErrorCode::Malformed | ErrorCode::Unexpected => {
            close_code::PROTOCOL
        }
        ErrorCode::Internal => close_code::ERROR,
        _ => close_code::POLICY,
    };
    let message = error.message.as_str();
    let reason = if message.len() <= MAX_REASON_BYTES {
        message.to_string()
    } else {
        let mut end = MAX_REASON_BYTES - '…'.len_utf8();
        while !message.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}…", message[..end].trim_end())
    };
    CloseFrame {
        code,
        reason: Utf8Bytes::from(reason),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_protocol::{Move, Point};

    #[test]
    fn the_page_s_json_reads_as_protocol_messages() {
        let hello = r#"{"Hello":{"version":2,"name":"An","resume":null}}"#;
        assert!(matches!(
            decode(hello),
            Incoming::Message(ClientMsg::Hello(_))
        ));
        assert!(matches!(
            decode(r#"{"Move":{"caro":{"x":7,"y":7}}}"#),
            Incoming::Message(ClientMsg::Move(Move::Caro(p))) if p == Point::new(7, 7)
        ));
        assert!(matches!(
            decode(r#""ListRooms""#),
            Incoming::Message(ClientMsg::ListRooms)
        ));
        assert!(matches!(decode("{\"Nope\":1}"), Incoming::Malformed(_)));
        assert!(matches!(decode("not json"), Incoming::Malformed(_)));
    }

    #[test]
    fn a_close_says_why_in_a_frame_s_room() {
        assert_eq!(close_frame(None).code, close_code::NORMAL);
        let busy = ErrorMsg::new(ErrorCode::Busy, "é".repeat(200));
        let frame = close_frame(Some(&busy));
        assert_eq!(frame.code, close_code::AGAIN);
        assert!(
            frame.reason.len() <= MAX_REASON_BYTES,
            "{}",
            frame.reason.len()
        );
        assert!(frame.reason.as_str().ends_with("é…"));
        let away = ErrorMsg::new(ErrorCode::ShuttingDown, "the server is shutting down");
        let frame = close_frame(Some(&away));
        assert_eq!(
            (frame.code, frame.reason.as_str()),
            (close_code::AWAY, "the server is shutting down")
        );
        let refused = ErrorMsg::new(ErrorCode::NameRegistered, "An is a registered name");
        assert_eq!(close_frame(Some(&refused)).code, close_code::POLICY);
    }
}
