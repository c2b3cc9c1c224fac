//! The client's side of TLS: the handshake with a banco server and the key it showed.
//!
//! No authority vouches for a banco server's certificate (it made it itself), so the
//! certificate chain is not checked against one: what the client trusts is the key,
//! by its fingerprint, pinned on first use ([`crate::known_hosts`]). The handshake still
//! proves that the server holds that key's private half (rustls checks the handshake's
//! signature against the certificate), and nothing of the player's is sent before the
//! fingerprint has passed the check.

use banco_protocol::Fingerprint;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::{ClientConfig, DigitallySignedStruct, SignatureScheme};
use rustls_pki_types::{CertificateDer, ServerName, UnixTime};
use std::io;
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;

/// What banco's client asks for by ALPN (the server also speaks HTTP on the port).
pub const ALPN: &[u8] = b"banco";

/// How a TLS handshake failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HandshakeError {
    /// The server did not answer in TLS at all (it closed, or sent something else): a
    /// server with `--no-tls`, or a banco older than TLS.
    NotTls,
    /// It answered in TLS and something went wrong; the reason in words.
    Failed(String),
}

/// Accepts whatever certificate the server shows (its key is checked against the pins
/// after the handshake), and checks the handshake's signature with that certificate's
/// key, so the server must hold the private key of what it showed.
#[derive(Debug)]
struct AnyKeyHeld {
    /// The signature algorithms of the crypto provider.
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for AnyKeyHeld {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

/// A TLS configuration asking for `alpn` (none if empty).
fn config_for(alpn: &[u8]) -> Arc<ClientConfig> {
    let provider: CryptoProvider = rustls::crypto::ring::default_provider();
    let verifier = AnyKeyHeld {
        algorithms: provider.signature_verification_algorithms,
    };
    let mut config = ClientConfig::builder_with_provider(Arc::new(provider))
        .with_safe_default_protocol_versions()
        .expect("ring's provider supports the default TLS versions")
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    if !alpn.is_empty() {
        config.alpn_protocols = vec![alpn.to_vec()];
    }
    Arc::new(config)
}

/// The TLS handshake over `stream` with the server dialled as `host` (its name, sent
/// as SNI, or its address). Returns the stream and the fingerprint of the key shown.
pub async fn handshake(
    stream: TcpStream,
    host: &str,
    addr: SocketAddr,
) -> Result<(TlsStream<TcpStream>, Fingerprint), HandshakeError> {
    static BANCO: OnceLock<Arc<ClientConfig>> = OnceLock::new();
    let config = BANCO.get_or_init(|| config_for(ALPN)).clone();
    handshake_with(stream, host, addr, config).await
}

/// As [`handshake`], asking for the protocol `alpn` instead of banco's (`http/1.1` to
/// fetch the page; empty for none): for tests and tools.
pub async fn handshake_for(
    stream: TcpStream,
    host: &str,
    addr: SocketAddr,
    alpn: &[u8],
) -> Result<(TlsStream<TcpStream>, Fingerprint), HandshakeError> {
    handshake_with(stream, host, addr, config_for(alpn)).await
}

async fn handshake_with(
    stream: TcpStream,
    host: &str,
    addr: SocketAddr,
    config: Arc<ClientConfig>,
) -> Result<(TlsStream<TcpStream>, Fingerprint), HandshakeError> {
    let name = ServerName::try_from(host.to_string())
        .unwrap_or_else(|_| ServerName::IpAddress(addr.ip().into()));
    let connector = tokio_rustls::TlsConnector::from(config);
    let tls = connector
        .connect(name, stream)
        .await
        .map_err(|e| classify(&e))?;
    let fingerprint = tls
        .get_ref()
        .1
        .peer_certificates()
        .and_then(|chain| chain.first())
        .ok_or_else(|| HandshakeError::Failed("the server showed no certificate".into()))
        .and_then(|cert| {
            banco_server::tls::fingerprint_of(cert).map_err(|e| {
                HandshakeError::Failed(format!("the server's certificate cannot be read ({e})"))
            })
        })?;
    Ok((tls, fingerprint))
}

/// What a failed handshake says about the server.
fn classify(e: &io::Error) -> HandshakeError {
    match e.kind() {
        io::ErrorKind::UnexpectedEof
        | io::ErrorKind::ConnectionReset
        | io::ErrorKind::ConnectionAborted
        | io::ErrorKind::BrokenPipe => HandshakeError::NotTls,
        _ => match e
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<rustls::Error>())
        {
            // Bytes that are not TLS records: a plain banco frame, say.
            Some(rustls::Error::InvalidMessage(_)) => HandshakeError::NotTls,
            Some(other) => HandshakeError::Failed(other.to_string()),
            None => HandshakeError::Failed(e.kind().to_string()),
        },
    }
}
