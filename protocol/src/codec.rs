//! Frames on a byte stream: a 4-byte big-endian length, then one [`crate::wire`] payload.
//!
//! The two failure levels are kept apart in the types. A frame whose *payload* does not
//! decode is yielded as `Ok(Some(Err(..)))`: the frame boundary is intact, so the server
//! answers with an error and keeps the connection. Broken *framing* (a length over the
//! limit, I/O failure) is an `Err(FrameError)`: the stream can't be trusted, so the
//! connection closes.

use bytes::{Bytes, BytesMut};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::io;
use std::marker::PhantomData;
use tokio_util::codec::{Decoder, Encoder, LengthDelimitedCodec};

use crate::wire::{self, DecodeError, EncodeError};
use crate::{ClientMsg, MAX_CLIENT_FRAME, MAX_SERVER_FRAME, ServerMsg};

/// The stream itself failed; the connection should close.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    /// I/O error, or a frame length over the limit.
    #[error("connection error: {0}")]
    Io(#[from] io::Error),
    #[error(transparent)]
    Encode(#[from] EncodeError),
}

/// Reads `In` messages and writes `Out` messages, each side with its own frame limit.
pub struct MessageCodec<In, Out> {
    /// Splits incoming bytes into frames of at most the incoming limit.
    incoming: LengthDelimitedCodec,
    /// Prefixes outgoing payloads with their length; refuses payloads over the limit.
    outgoing: LengthDelimitedCodec,
    _messages: PhantomData<fn(Out) -> In>,
}

impl<In, Out> MessageCodec<In, Out> {
    fn with_limits(max_in: usize, max_out: usize) -> Self {
        MessageCodec {
            incoming: LengthDelimitedCodec::builder()
                .max_frame_length(max_in)
                .new_codec(),
            outgoing: LengthDelimitedCodec::builder()
                .max_frame_length(max_out)
                .new_codec(),
            _messages: PhantomData,
        }
    }
}

/// The server's side of a connection: reads client messages, writes server messages.
pub type ServerCodec = MessageCodec<ClientMsg, ServerMsg>;
/// The client's side of a connection: reads server messages, writes client messages.
pub type ClientCodec = MessageCodec<ServerMsg, ClientMsg>;

impl ServerCodec {
    pub fn new() -> ServerCodec {
        MessageCodec::with_limits(MAX_CLIENT_FRAME, MAX_SERVER_FRAME)
    }
}

impl Default for ServerCodec {
    fn default() -> Self {
        ServerCodec::new()
    }
}

impl ClientCodec {
    pub fn new() -> ClientCodec {
        MessageCodec::with_limits(MAX_SERVER_FRAME, MAX_CLIENT_FRAME)
    }
}

impl Default for ClientCodec {
    fn default() -> Self {
        ClientCodec::new()
    }
}

impl<In: DeserializeOwned, Out> Decoder for MessageCodec<In, Out> {
    type Item = Result<In, DecodeError>;
    type Error = FrameError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Self::Item>, FrameError> {
        Ok(self.incoming.decode(src)?.map(|frame| wire::decode(&frame)))
    }
}

impl<In, Out: Serialize> Encoder<Out> for MessageCodec<In, Out> {
    type Error = FrameError;

    fn encode(&mut self, msg: Out, dst: &mut BytesMut) -> Result<(), FrameError> {
        let payload = Bytes::from(wire::encode(&msg)?);
        self.outgoing.encode(payload, dst)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Hello, PROTOCOL_VERSION};

    #[test]
    fn frames_round_trip_and_split_anywhere() {
        let mut client = ClientCodec::new();
        let mut server = ServerCodec::new();
        let msgs = vec![
            ClientMsg::Hello(Hello {
                version: PROTOCOL_VERSION,
                name: "An".into(),
                resume: None,
                account: None,
            }),
            ClientMsg::ListRooms,
            ClientMsg::Chat("xin chào".into()),
        ];
        let mut bytes = BytesMut::new();
        for m in msgs.clone() {
            client.encode(m, &mut bytes).unwrap();
        }
        // Feed the stream one byte at a time: frames come out whole and in order.
        let mut buf = BytesMut::new();
        let mut got = Vec::new();
        for b in bytes.iter() {
            buf.extend_from_slice(&[*b]);
            while let Some(m) = server.decode(&mut buf).unwrap() {
                got.push(m.unwrap());
            }
        }
        assert_eq!(got, msgs);
    }

    #[test]
    fn bad_payload_keeps_the_stream_oversized_frame_breaks_it() {
        let mut server = ServerCodec::new();
        let mut buf = BytesMut::new();
        // A well-framed payload that is not a message (variant 200 does not exist).
        buf.extend_from_slice(&[0, 0, 0, 1, 200]);
        assert!(matches!(server.decode(&mut buf), Ok(Some(Err(_)))));
        // The stream goes on: the next good frame decodes.
        let mut client = ClientCodec::new();
        client.encode(ClientMsg::ListRooms, &mut buf).unwrap();
        assert_eq!(
            server.decode(&mut buf).unwrap().unwrap().unwrap(),
            ClientMsg::ListRooms
        );
        // A length over the client limit is a framing error.
        let mut huge = BytesMut::new();
        huge.extend_from_slice(&((MAX_CLIENT_FRAME as u32) + 1).to_be_bytes());
        assert!(server.decode(&mut huge).is_err());
    }

    #[test]
    fn client_cannot_send_a_frame_over_its_limit() {
        let mut client = ClientCodec::new();
        let mut buf = BytesMut::new();
        let big = ClientMsg::Chat("a".repeat(MAX_CLIENT_FRAME + 1));
        assert!(client.encode(big, &mut buf).is_err());
    }
}
