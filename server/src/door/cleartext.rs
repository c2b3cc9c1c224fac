//! What a browser gets on plain `http://` while TLS is on: not the game (its login form
//! would send a password in the clear) but one page saying so, with the `https://`
//! address on the same port and the key fingerprint to compare when the browser warns
//! about the self-signed certificate. Every GET gets it; nothing else is served, and
//! the same limits as the page's own HTTP hold (head size and time, lifetime).

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::net::SocketAddr;
use tokio::net::TcpStream;
use tokio_util::sync::CancellationToken;

use crate::tls::Identity;
use crate::web::http::{HEADER_TIME, LIFETIME, MAX_HEAD_BYTES};

/// Nothing to load: no script, no style, no frame.
const CONTENT_SECURITY_POLICY: &str =
    "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// What the page needs to say.
#[derive(Clone)]
struct Warning {
    /// This server's own address, for the link when the request's Host cannot be used.
    local: String,
    /// The key fingerprint, as the host's screen shows it.
    fingerprint: String,
    /// The certificate's own SHA-256, as Firefox and Safari show it.
    certificate: String,
}

/// Serves one plain HTTP connection with the warning page until it closes, outlives
/// [`LIFETIME`], or the server stops.
pub async fn serve(
    stream: TcpStream,
    peer: SocketAddr,
    identity: &Identity,
    shutdown: CancellationToken,
) {
    let local = stream
        .local_addr()
        .map(|a| a.to_string())
        .unwrap_or_else(|_| "this-server".to_string());
    let warning = Warning {
        local,
        fingerprint: identity.fingerprint.to_string(),
        certificate: identity.certificate_sha256_text(),
    };
    let app = Router::new().fallback(page).with_state(warning);
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIME)
        .max_buf_size(MAX_HEAD_BYTES);
    let conn = builder.serve_connection(TokioIo::new(stream), TowerToHyperService::new(app));
    tokio::pin!(conn);
    tokio::select! {
        done = conn.as_mut() => {
            if let Err(e) = done {
                tracing::debug!(%peer, error = %e, "plain HTTP connection ended");
            }
            return;
        }
        () = shutdown.cancelled() => {}
        () = tokio::time::sleep(LIFETIME) => {}
    }
    conn.as_mut().graceful_shutdown();
    let _ = tokio::time::timeout(std::time::Duration::from_secs(2), conn).await;
}

async fn page(State(warning): State<Warning>, method: Method, headers: HeaderMap) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return (
            StatusCode::METHOD_NOT_ALLOWED,
            [(header::ALLOW, "GET, HEAD")],
            "this address is not encrypted: use https://",
        )
            .into_response();
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| plain_host(h))
        .unwrap_or(&warning.local);
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::REFERRER_POLICY, "no-referrer"),
            (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        ],
        html(host, &warning.fingerprint, &warning.certificate),
    )
        .into_response()
}

/// Whether `host` (a Host header) can go into the page as it is: a name or an address
/// and a port, nothing that HTML or a URL would read otherwise.
fn plain_host(host: &str) -> bool {
    !host.is_empty()
        && host.len() <= 255
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b))
}

/// The page, in English and Vietnamese (the page's two languages).
fn html(host: &str, fingerprint: &str, certificate: &str) -> String {
    let url = format!("https://{host}/");
    format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>banco: use the encrypted address</title>
</head>
<body>
<h1>This address is not encrypted</h1>
<p>Over plain <code>http://</code>, the password you log in with and the token that keeps your seat would cross the network in the clear, where anyone on it could read them. This server encrypts its connections: play at</p>
<p><a id="https" href="{url}">{url}</a></p>
<p>The first time, your browser warns that the certificate is not trusted: the server made it itself, and no authority vouches for it. Open the certificate's details and compare its public key's SHA-256 fingerprint with the one the host's screen shows:</p>
<p><code id="fingerprint">{fingerprint}</code></p>
<p>Chromium, Chrome and Edge show it as “Public key” under the SHA-256 fingerprints. Firefox and Safari show the certificate's own SHA-256 instead: <code id="certificate">{certificate}</code>. If they match, accept the warning once. If they do not, go no further: something between you and the server is answering in its place.</p>
<hr>
<h2 lang="vi">Địa chỉ này không được mã hoá</h2>
<p lang="vi">Qua <code>http://</code>, mật khẩu và mã giữ chỗ của bạn sẽ đi qua mạng ở dạng ai cũng đọc được. Máy chủ này mã hoá kết nối: hãy chơi ở <a href="{url}">{url}</a>. Lần đầu, trình duyệt sẽ cảnh báo chứng chỉ không được tin cậy vì máy chủ tự tạo nó; hãy so dấu vân tay SHA-256 của khoá công khai với dấu trên màn hình của máy chủ ({fingerprint}). Trùng thì chấp nhận một lần; khác thì đừng tiếp tục.</p>
</body>
</html>
"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_plain_host_goes_into_the_page() {
        assert!(plain_host("192.168.1.20:7373"));
        assert!(plain_host("[fe80::1]:7373"));
        assert!(plain_host("pc-an.local:7373"));
        for bad in ["", "a\"b", "x/<script>", "a b", "h?x", &"a".repeat(300)] {
            assert!(!plain_host(bad), "{bad:?}");
        }
        let page = html("192.168.1.20:7373", "3f2a 0000", "AB:CD");
        assert!(page.contains(r#"href="https://192.168.1.20:7373/""#));
        assert!(page.contains("3f2a 0000") && page.contains("AB:CD"));
        assert!(page.contains("in the clear"));
    }
}
