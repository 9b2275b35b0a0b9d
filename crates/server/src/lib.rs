//! `planwright serve`: the studio's API (`planwright-api`) over HTTP and WebSocket, and the built
//! UI, on 127.0.0.1 only. Every route delegates to one `Studio` function; `docs/studio-api.md`
//! is the contract.
//!
//! Security: a random token per start, given in the first line printed
//! (`http://127.0.0.1:P/?token=T`); the first request carrying it gets it as an `HttpOnly;
//! SameSite=Strict` cookie; every request without the cookie, the `?token=` or `Authorization:
//! Bearer T` gets 401 — UI files and WebSocket upgrades included. A `Host` or `Origin` that is
//! not this server's gets 403 (DNS rebinding). Nothing is cached (`Cache-Control: no-store`), so
//! the printed address always reaches the server and signs in.
//!
//! Limits ([`ServeLimits`]): a connection must send its headers within a few seconds (an idle
//! keep-alive connection is closed after as long), a request body must arrive within its own
//! limit, and at most so many connections are open at once — a client that opens connections
//! and never finishes them cannot hold the server.

use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::{Json, Router};
use planwright_api::{ApiError, Studio};
use serde::Deserialize;
use tower_http::services::{ServeDir, ServeFile};
use tracing::Instrument;

mod connections;
mod extract;

use extract::{Body, Params, Segment};

/// The cookie that carries the token after the first request.
const COOKIE: &str = "planwright_token";

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("cannot listen on 127.0.0.1:{port}: {source}; choose another port with --port (0 picks a free one)")]
    Bind { port: u16, source: std::io::Error },
    #[error("no random source for the access token: {0}")]
    Random(String),
}

/// How long and how many: see the crate documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServeLimits {
    /// To send a request's headers; also how long an idle keep-alive connection stays open.
    pub header_timeout: Duration,
    /// To send a request's body once its headers are in.
    pub body_timeout: Duration,
    /// Connections open at once; one more is closed as soon as it is accepted.
    pub max_connections: usize,
}

impl Default for ServeLimits {
    fn default() -> ServeLimits {
        ServeLimits {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            max_connections: 128,
        }
    }
}

/// A bound server, not yet serving.
pub struct Server {
    listener: tokio::net::TcpListener,
    router: Router,
    addr: SocketAddr,
    token: String,
    limits: ServeLimits,
}

struct Guard {
    token: String,
    port: u16,
}

impl Server {
    /// Binds 127.0.0.1:`port` (0: any free port) with a fresh token; `ui` is the built UI
    /// (`ui/dist`).
    pub async fn bind(studio: Studio, port: u16, ui: &Path) -> Result<Server, ServeError> {
        Server::bind_with(studio, port, ui, ServeLimits::default()).await
    }

    /// [`Server::bind`] with other limits.
    pub async fn bind_with(studio: Studio, port: u16, ui: &Path, limits: ServeLimits) -> Result<Server, ServeError> {
        let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, port))
            .await
            .map_err(|source| ServeError::Bind { port, source })?;
        let addr = listener.local_addr().map_err(|source| ServeError::Bind { port, source })?;
        let token = new_token()?;
        let guard = Arc::new(Guard { token: token.clone(), port: addr.port() });
        let router = routes(studio, ui)
            .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(limits.body_timeout))
            .layer(middleware::from_fn_with_state(guard, guard_layer));
        Ok(Server { listener, router, addr, token, limits })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn token(&self) -> &str {
        &self.token
    }

    /// `http://127.0.0.1:P/?token=T`: what to open.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/?token={}", self.addr.port(), self.token)
    }

    /// Serves until `shutdown` completes, then lets the requests under way finish (a few
    /// seconds at most).
    pub async fn serve(self, shutdown: impl std::future::Future<Output = ()> + Send + 'static) -> std::io::Result<()> {
        crate::connections::serve(self.listener, self.router, self.limits, shutdown).await;
        Ok(())
    }
}

fn new_token() -> Result<String, ServeError> {
    let mut bytes = [0u8; 24];
    getrandom::fill(&mut bytes).map_err(|e| ServeError::Random(e.to_string()))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Equal without telling, by its timing, how much of a guess was right.
fn same(given: &str, token: &str) -> bool {
    given.len() == token.len() && given.bytes().zip(token.bytes()).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

async fn guard_layer(State(guard): State<Arc<Guard>>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    let port = guard.port;
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    if host != format!("127.0.0.1:{port}") && host != format!("localhost:{port}") {
        return refuse(StatusCode::FORBIDDEN, "this server answers only to 127.0.0.1 and localhost on its own port");
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        if origin != format!("http://127.0.0.1:{port}") && origin != format!("http://localhost:{port}") {
            return refuse(StatusCode::FORBIDDEN, "requests from other sites are refused");
        }
    }
    let from_query = request
        .uri()
        .query()
        .into_iter()
        .flat_map(|q| q.split('&'))
        .find_map(|pair| pair.strip_prefix("token="))
        .is_some_and(|t| same(t, &guard.token));
    let from_header = bearer(headers).is_some_and(|t| same(t, &guard.token));
    let from_cookie = cookie(headers).is_some_and(|t| same(t, &guard.token));
    if !(from_query || from_header || from_cookie) {
        return refuse(
            StatusCode::UNAUTHORIZED,
            "open the address planwright serve printed (it carries the access token)",
        );
    }
    let mut response = next.run(request).await;
    // The page and the API are never cached: a page from the cache would never bring the token.
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if from_query && !from_cookie {
        let value = format!("{COOKIE}={}; HttpOnly; SameSite=Strict; Path=/", guard.token);
        if let Ok(value) = HeaderValue::from_str(&value) {
            response.headers_mut().append(header::SET_COOKIE, value);
        }
    }
    response
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers.get(header::AUTHORIZATION)?.to_str().ok()?.strip_prefix("Bearer ")
}

fn cookie(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| pair.trim().strip_prefix(&format!("{COOKIE}=")).map(|_| pair.trim()))
        .map(|pair| &pair[COOKIE.len() + 1..])
}

fn refuse(status: StatusCode, message: &str) -> Response {
    let code = if status == StatusCode::FORBIDDEN { "forbidden" } else { "unauthorized" };
    let mut response = (status, Json(serde_json::json!({"code": code, "message": message}))).into_response();
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// An operation's result as HTTP: 200 with the answer, or the error's status with the error.
struct Answer<T>(Result<T, ApiError>);

impl<T: serde::Serialize> IntoResponse for Answer<T> {
    fn into_response(self) -> Response {
        match self.0 {
            Ok(value) => Json(value).into_response(),
            Err(error) => {
                let status = StatusCode::from_u16(error.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
                (status, Json(error)).into_response()
            }
        }
    }
}

/// A route's extractor for one argument of an operation.
macro_rules! extractor {
    (path $ty:ty) => { Segment<$ty> };
    (query $ty:ty) => { Params<$ty> };
    (body $ty:ty) => { Body<$ty> };
}

/// The route of one operation: the extractors of its arguments, the `Studio` call, its answer
/// as JSON (a call) or as WebSocket messages (a stream).
macro_rules! route {
    (call $name:ident $method:ident ( $( $ak:ident $arg:ident : $ty:ty ),* )) => {
        axum::routing::on(
            method_filter!($method),
            |State(studio): State<Studio>, $( $arg: extractor!($ak $ty) ),*| async move {
                Answer(studio.$name($( $arg.0 ),*).await)
            },
        )
    };
    (stream $name:ident $method:ident ( $( $ak:ident $arg:ident : $ty:ty ),* )) => {
        axum::routing::on(
            method_filter!($method),
            |State(studio): State<Studio>, $( $arg: extractor!($ak $ty), )* Params(named): Params<StreamName>, upgrade: WebSocketUpgrade| async move {
                match studio.$name($( $arg.0 ),*).await {
                    Ok(watch) => {
                        let span = tracing::info_span!("stream", operation = stringify!($name));
                        upgrade.on_upgrade(move |socket| stream(socket, watch, studio, named.stream).instrument(span))
                    }
                    Err(error) => Answer::<()>(Err(error)).into_response(),
                }
            },
        )
    };
}

macro_rules! method_filter {
    (GET) => {
        axum::routing::MethodFilter::GET
    };
    (POST) => {
        axum::routing::MethodFilter::POST
    };
    (PUT) => {
        axum::routing::MethodFilter::PUT
    };
    (DELETE) => {
        axum::routing::MethodFilter::DELETE
    };
}

/// The API's routes, one per operation of `planwright_api::studio_operations!`.
macro_rules! api_routes {
    ($( $kind:ident $name:ident $method:ident $path:literal ( $( $ak:ident $arg:ident : $ty:ty ),* ) -> $answer:ty ; )*) => {
        fn api_routes() -> Router<Studio> {
            Router::new() $( .route(
                $path,
                route!($kind $name $method ( $( $ak $arg : $ty ),* ))
                    .layer(axum::extract::DefaultBodyLimit::max(body_limit(stringify!($name)))),
            ) )*
        }
    };
}

planwright_api::studio_operations!(api_routes);

/// The largest request body an operation takes: a document in base64 for `upload_document`, a
/// design session (its generation's attempts included) for `save_design_session`, else 2 MB.
fn body_limit(operation: &str) -> usize {
    match operation {
        "upload_document" => planwright_api::MAX_DOCUMENT_BYTES / 3 * 4 + 64 * 1024,
        "save_design_session" => 16 * 1024 * 1024,
        _ => 2 * 1024 * 1024,
    }
}

fn routes(studio: Studio, ui: &Path) -> Router {
    let api = api_routes().layer(middleware::from_fn(trace_request)).with_state(studio);
    let index = ui.join("index.html");
    if index.is_file() {
        api.fallback_service(ServeDir::new(ui).fallback(ServeFile::new(index)))
    } else {
        let page = missing_ui_page(ui);
        api.fallback(move || async move { (StatusCode::SERVICE_UNAVAILABLE, Html(page)) })
    }
}

/// One span per API request.
async fn trace_request(request: Request, next: Next) -> Response {
    let span = tracing::info_span!("request", method = %request.method(), path = %request.uri().path());
    next.run(request).instrument(span).await
}

fn missing_ui_page(ui: &Path) -> String {
    format!(
        "<!doctype html><meta charset=utf-8><title>Planwright studio</title><h1>The studio's UI is not built</h1>\
         <p>planwright serve looked for it in <code>{}</code> and found no <code>index.html</code>.</p>\
         <p>Build it with <code>npm --prefix ui ci &amp;&amp; npm --prefix ui run build</code> in the repository, \
         or point to a built copy with <code>planwright serve --ui DIR</code>. The API under <code>/api/</code> \
         works without it.</p>",
        html_escape(&ui.display().to_string())
    )
}

fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The name a client gives the stream it opens (`?stream=NAME`), for `cancel_stream`.
#[derive(Deserialize)]
struct StreamName {
    #[serde(default)]
    stream: Option<String>,
}

/// A streaming operation over WebSocket: one JSON text message per item, then a close. The
/// client closing the socket drops the watch, which ends the stream.
async fn stream<T: serde::Serialize>(
    mut socket: WebSocket,
    mut watch: planwright_api::Watch<T>,
    studio: Studio,
    name: Option<String>,
) {
    if let Some(name) = &name {
        studio.name_stream(name, &watch);
    }
    loop {
        tokio::select! {
            item = watch.next() => {
                let Some(item) = item else { break };
                let Ok(text) = serde_json::to_string(&item) else { continue };
                if socket.send(Message::Text(text.into())).await.is_err() {
                    break;
                }
            }
            // The client went away (or closed the socket): nobody watches any more.
            incoming = socket.recv() => if !matches!(incoming, Some(Ok(_))) { break },
        }
    }
    if let Some(name) = &name {
        studio.forget_stream(name);
    }
    let _ = socket.send(Message::Close(None)).await;
}

/// The built UI next to this crate in the repository: `<repo>/ui/dist`.
pub fn default_ui_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui/dist")
}
