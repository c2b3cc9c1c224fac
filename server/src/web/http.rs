//! One browser's HTTP/1.1 connection: GET (and HEAD) of the embedded page, and the
//! upgrade to the game's WebSocket. Nothing else is served: other methods get 405, other
//! paths 404, and no request body is ever read.
//!
//! Every request must name this server in its `Host` header ([`hosts`]): one naming
//! another host is refused with 421 and a sentence (DNS rebinding). A connection over
//! its budget ([`crate::admission`]) gets 503 and the reason for its page requests, and
//! its WebSocket is closed with the reason after its Hello.
//!
//! Limits, so a browser connection costs no more than a terminal one: the request head
//! must arrive within [`HEADER_TIME`] and fit in [`MAX_HEAD_BYTES`] (a slow or bloated
//! sender is cut: slowloris), and a connection that has not become a WebSocket is closed
//! after [`LIFETIME`] (the page's few files load in well under a second). A WebSocket
//! then lives under the same session rules as a TCP client (Hello time, outbox budget,
//! message size).

use crate::admission::REFUSAL_TIME;
use axum::Router;
use axum::extract::State;
use axum::extract::ws::WebSocketUpgrade;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::net::SocketAddr;
use std::time::Duration;
use tokio_util::task::TaskTracker;

use banco_protocol::MAX_CLIENT_FRAME;

use super::{assets, hosts, locale, socket};
use crate::session::{self, SessionContext};

/// How long a request's head (request line and headers) may take to arrive.
pub const HEADER_TIME: Duration = Duration::from_secs(10);
/// The most bytes a request head may have (hyper's smallest read buffer).
pub const MAX_HEAD_BYTES: usize = 8 * 1024;
/// How long a plain HTTP connection (not a WebSocket) is kept at all.
pub const LIFETIME: Duration = Duration::from_secs(60);
/// How long a connection has to finish its response once the server stops.
const CLOSE_TIME: Duration = Duration::from_secs(2);

/// The page may load only itself: no other origin, no inline script, no frames.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
    style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; \
    base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// What the handlers of one connection need.
#[derive(Clone)]
struct Web {
    /// The server around the sessions a WebSocket becomes.
    ctx: SessionContext,
    /// The browser's address, for the session's logs.
    peer: SocketAddr,
    /// The server's tasks: a WebSocket's session is one of them, so shutdown waits for it.
    tracker: TaskTracker,
}

/// Serves one HTTP connection until it closes, becomes a WebSocket (whose session then
/// runs as its own task), outlives [`LIFETIME`], or the server stops.
pub async fn serve<S>(stream: S, peer: SocketAddr, ctx: SessionContext, tracker: TaskTracker)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    let shutdown = ctx.shutdown.clone();
    let refused = ctx.ticket.refusal().is_some();
    let app = Router::new()
        .route("/ws", get(upgrade))
        .fallback(page)
        .with_state(Web { ctx, peer, tracker });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIME)
        .max_buf_size(MAX_HEAD_BYTES);
    let conn = builder
        .serve_connection(TokioIo::new(stream), TowerToHyperService::new(app))
        .with_upgrades();
    tokio::pin!(conn);
    let lifetime = if refused { REFUSAL_TIME } else { LIFETIME };
    tokio::select! {
        done = conn.as_mut() => {
            if let Err(e) = done {
                tracing::debug!(%peer, error = %e, "HTTP connection ended");
            }
            return;
        }
        () = shutdown.cancelled() => {}
        () = tokio::time::sleep(lifetime) => {}
    }
    conn.as_mut().graceful_shutdown();
    let _ = tokio::time::timeout(CLOSE_TIME, conn).await;
}

/// The WebSocket: only for a page this server served (its `Origin` is this host), so a
/// page from elsewhere cannot play in its visitor's name.
async fn upgrade(State(web): State<Web>, headers: HeaderMap, ws: WebSocketUpgrade) -> Response {
    if let Some(refused) = foreign_host(&web, &headers) {
        return refused;
    }
    if !same_origin(&headers) {
        tracing::info!(peer = %web.peer, "WebSocket from another site's page refused");
        return (
            StatusCode::FORBIDDEN,
            "this game's WebSocket only answers the page it served",
        )
            .into_response();
    }
    ws.max_message_size(MAX_CLIENT_FRAME)
        .max_frame_size(MAX_CLIENT_FRAME)
        .on_upgrade(move |socket| {
            let (source, sink) = socket::split(socket);
            web.tracker
                .track_future(session::serve_transport(source, sink, web.peer, web.ctx))
        })
}

/// Whether the request comes from a page of this very host. A request without `Origin`
/// is not from a browser page (browsers always send it on a WebSocket); such a program
/// could as well speak the TCP protocol, so it is let through.
pub fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let (Ok(origin), Some(Ok(host))) = (
        origin.to_str(),
        headers.get(header::HOST).map(HeaderValue::to_str),
    ) else {
        return false;
    };
    origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .is_some_and(|authority| authority.eq_ignore_ascii_case(host))
}

/// The refusal of a request whose `Host` names another host than this server.
fn foreign_host(web: &Web, headers: &HeaderMap) -> Option<Response> {
    let host = match headers.get(header::HOST).map(HeaderValue::to_str) {
        None => None,
        Some(Ok(host)) => Some(host),
        Some(Err(_)) => Some(""),
    };
    if hosts::allowed(host, &web.ctx.config.hostnames) {
        return None;
    }
    let host = host.unwrap_or_default();
    tracing::info!(peer = %web.peer, host, "request for another host refused");
    Some(
        (
            StatusCode::MISDIRECTED_REQUEST,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            hosts::refusal(host),
        )
            .into_response(),
    )
}

/// GET of the page, its files and its locales.
async fn page(State(web): State<Web>, method: Method, uri: Uri, headers: HeaderMap) -> Response {
    if let Some(refused) = foreign_host(&web, &headers) {
        return refused;
    }
    if let Some(refusal) = web.ctx.ticket.refusal() {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            [
                (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
                (header::RETRY_AFTER, "30"),
            ],
            refusal.to_string(),
        )
            .into_response();
    }
    if method != Method::GET && method != Method::HEAD {
        return (
            StatusCode::METHOD_NOT_ALLOWED,
            [(header::ALLOW, "GET, HEAD")],
            "only GET is served here",
        )
            .into_response();
    }
    let path = uri.path();
    if let Some(file) = path.strip_prefix("/tournaments/") {
        return tournament_file(&web, file).await;
    }
    let found = if path == "/" || path == "/index.html" {
        Some((assets::index(), "text/html; charset=utf-8"))
    } else if let Some(code) = path
        .strip_prefix("/locales/")
        .and_then(|p| p.strip_suffix(".json"))
    {
        locale::json(code).map(|json| (json, "application/json"))
    } else {
        assets::find(path).map(|a| (a.body, a.content_type()))
    };
    let Some((body, content_type)) = found else {
        return (StatusCode::NOT_FOUND, "no such page: the game is at /").into_response();
    };
    (
        [
            (header::CONTENT_TYPE, content_type),
            // Always ask again: after an upgrade of the server the page must match it.
            (header::CACHE_CONTROL, "no-cache"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::REFERRER_POLICY, "no-referrer"),
            (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        ],
        body,
    )
        .into_response()
}

/// `GET /tournaments/ID.trf` (or `.csv`, `.json`): a tournament exported, as a file to
/// save (what `tournament export` writes in plain mode).
async fn tournament_file(web: &Web, file: &str) -> Response {
    use banco_protocol::ExportFormat;
    let parsed = file.rsplit_once('.').and_then(|(id, ext)| {
        let format = match ext {
            "trf" => ExportFormat::Trf,
            "csv" => ExportFormat::Csv,
            "json" => ExportFormat::Json,
            _ => return None,
        };
        Some((id.parse::<banco_protocol::TournamentId>().ok()?, format))
    });
    let Some((id, format)) = parsed else {
        return (
            StatusCode::NOT_FOUND,
            "ask for /tournaments/ID.trf, /tournaments/ID.csv or /tournaments/ID.json",
        )
            .into_response();
    };
    match web.ctx.lobby.export_tournament(id, format).await {
        Ok(Ok((name, text))) => {
            let content_type = match format {
                ExportFormat::Trf => "text/plain; charset=utf-8",
                ExportFormat::Csv => "text/csv; charset=utf-8",
                ExportFormat::Json => "application/json",
            };
            (
                [
                    (header::CONTENT_TYPE, content_type.to_string()),
                    (
                        header::CONTENT_DISPOSITION,
                        format!("attachment; filename=\"{name}\""),
                    ),
                    (header::CACHE_CONTROL, "no-cache".to_string()),
                    (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_string()),
                ],
                text,
            )
                .into_response()
        }
        Ok(Err(e)) => {
            let status = if e.code == banco_protocol::ErrorCode::NoSuchTournament {
                StatusCode::NOT_FOUND
            } else {
                StatusCode::UNPROCESSABLE_ENTITY
            };
            (status, e.message).into_response()
        }
        Err(_) => (StatusCode::SERVICE_UNAVAILABLE, "the server is stopping").into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(k.clone(), HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn only_this_host_s_pages_may_open_the_socket() {
        let host = (header::HOST, "192.168.1.20:7373");
        assert!(same_origin(&headers(&[
            host.clone(),
            (header::ORIGIN, "http://192.168.1.20:7373")
        ])));
        assert!(!same_origin(&headers(&[
            host.clone(),
            (header::ORIGIN, "http://evil.example")
        ])));
        assert!(!same_origin(&headers(&[
            host.clone(),
            (header::ORIGIN, "http://192.168.1.20:7374")
        ])));
        assert!(!same_origin(&headers(&[(header::ORIGIN, "null"), host])));
        assert!(!same_origin(&headers(&[(
            header::ORIGIN,
            "http://192.168.1.20:7373"
        )])));
        assert!(same_origin(&headers(&[])));
    }
}
