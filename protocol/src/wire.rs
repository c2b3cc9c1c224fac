//! Message <-> bytes. These two functions are the only place the encoding is chosen:
//! bincode 2 (standard config: little-endian, varint lengths) with a decode limit so a
//! hostile length prefix cannot make the decoder allocate more than a frame can hold.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::MAX_SERVER_FRAME;

const CONFIG: bincode::config::Configuration<
    bincode::config::LittleEndian,
    bincode::config::Varint,
    bincode::config::Limit<MAX_SERVER_FRAME>,
> = bincode::config::standard().with_limit::<MAX_SERVER_FRAME>();

/// A message that could not be turned into bytes.
#[derive(Debug, thiserror::Error)]
#[error("could not encode message: {0}")]
pub struct EncodeError(#[from] bincode::error::EncodeError);

/// Bytes that are not a valid message.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    #[error("not a valid message: {0}")]
    Invalid(#[from] bincode::error::DecodeError),
    #[error("{0} bytes left over after the message")]
    TrailingBytes(usize),
    /// A browser's WebSocket text that is not a message in JSON (the page speaks the same
    /// messages as serde's JSON).
    #[error("not a valid message in JSON: {0}")]
    Json(String),
}

/// Encodes one message.
pub fn encode<T: Serialize>(msg: &T) -> Result<Vec<u8>, EncodeError> {
    Ok(bincode::serde::encode_to_vec(msg, CONFIG)?)
}

/// Decodes exactly one message from `bytes`; anything left over is an error.
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, DecodeError> {
    let (msg, used) = bincode::serde::decode_from_slice(bytes, CONFIG)?;
    if used != bytes.len() {
        return Err(DecodeError::TrailingBytes(bytes.len() - used));
    }
    Ok(msg)
}
