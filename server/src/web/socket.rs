//! A browser's WebSocket as a session's transport: each text message is one protocol
//! message in serde's JSON, both ways. The message size limit is a TCP frame's
//! ([`banco_protocol::MAX_CLIENT_FRAME`]), set on the upgrade.

use axum::extract::ws::{Message, Utf8Bytes, WebSocket};
use futures::stream::{SplitSink, SplitStream};
use futures::{SinkExt, StreamExt};

use banco_protocol::wire::DecodeError;
use banco_protocol::{ClientMsg, FrameError};

use crate::connection::{Format, FrameSink, FrameSource, Incoming, Outgoing};

/// Splits an upgraded WebSocket into a session's two halves.
pub fn split(socket: WebSocket) -> (WsSource, WsSink) {
    let (sink, stream) = socket.split();
    (WsSource { stream }, WsSink { sink })
}

/// The browser's messages.
pub struct WsSource {
    stream: SplitStream<WebSocket>,
}

/// What the session sends the browser.
pub struct WsSink {
    sink: SplitSink<WebSocket, Message>,
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
            let text = Utf8Bytes::try_from(json.clone()).map_err(std::io::Error::other)?;
            self.sink
                .feed(Message::Text(text))
                .await
                .map_err(std::io::Error::other)?;
        }
        self.sink.flush().await.map_err(std::io::Error::other)
    }

    async fn close(&mut self) -> std::io::Result<()> {
        self.sink.close().await.map_err(std::io::Error::other)
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
}
