//! The HTTP side: a listener whose connections can be cut without an answer, and the one
//! handler that records each request and plays the script's reply.

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Instant;

use axum::body::{Body, Bytes};
use axum::extract::connect_info::Connected;
use axum::extract::{ConnectInfo, DefaultBodyLimit, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::serve::{IncomingStream, Listener};
use axum::Router;
use serde_json::{json, Map, Value};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

use crate::record::{Endpoint, RecordedRequest};
use crate::script::{Kind, Reply, Script};

pub(crate) struct Shared {
    pub(crate) script: Mutex<Script>,
    pub(crate) requests: Mutex<Vec<RecordedRequest>>,
    served: AtomicU64,
}

impl Shared {
    pub(crate) fn new(script: Script) -> Shared {
        Shared { script: Mutex::new(script), requests: Mutex::new(Vec::new()), served: AtomicU64::new(0) }
    }
}

pub(crate) fn router(shared: Arc<Shared>) -> Router {
    // Prompts carry whole documents: far above axum's 2 MB default.
    Router::new().fallback(handle).layer(DefaultBodyLimit::max(64 << 20)).with_state(shared)
}

async fn handle(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(conn): ConnectInfo<Conn>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let request = RecordedRequest {
        method: method.to_string(),
        path: uri.path().to_string(),
        query: uri.query().map(str::to_string),
        headers: headers
            .iter()
            .map(|(name, value)| (name.as_str().to_string(), String::from_utf8_lossy(value.as_bytes()).into_owned()))
            .collect(),
        body: String::from_utf8_lossy(&body).into_owned(),
        at: Instant::now(),
    };
    let reply = shared.script.lock().expect("replay script lock").answer(&request);
    shared.requests.lock().expect("replay record lock").push(request.clone());
    let Some(reply) = reply else {
        let what = request.last_user_message().map(|m| format!(" (last user message: {m:?})")).unwrap_or_default();
        return error_response(
            400,
            &format!("replay: no scripted reply for {} {}{what}", request.method, request.path),
        );
    };
    if !reply.delay.is_zero() {
        tokio::time::sleep(reply.delay).await;
    }
    let serial = shared.served.fetch_add(1, Ordering::Relaxed);
    let mut response = match &reply.kind {
        Kind::Drop => {
            // The response below is never written: the connection refuses every write, so
            // hyper closes the socket with nothing sent.
            conn.cut.store(true, Ordering::SeqCst);
            return StatusCode::OK.into_response();
        }
        Kind::Error { status, message } => error_response(*status, message),
        Kind::Raw { status, body } => json_text(*status, body.clone()),
        Kind::Content(_) | Kind::ToolCall { .. } => {
            json_text(200, chat_completion(&reply, &request, serial).to_string())
        }
        Kind::Embeddings(_) | Kind::EmbedWith(_) => json_text(200, embeddings(&reply, &request).to_string()),
    };
    for (name, value) in &reply.headers {
        if let (Ok(name), Ok(value)) = (name.parse::<axum::http::HeaderName>(), value.parse()) {
            response.headers_mut().append(name, value);
        }
    }
    response
}

fn json_text(status: u16, body: String) -> Response {
    Response::builder()
        .status(StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR))
        .header("content-type", "application/json")
        .body(Body::from(body))
        .expect("static response parts")
}

fn error_response(status: u16, message: &str) -> Response {
    let kind = match status {
        401 => "invalid_request_error",
        404 => "not_found_error",
        429 => "rate_limit_error",
        500..=599 => "server_error",
        _ => "invalid_request_error",
    };
    json_text(status, json!({"error": {"message": message, "type": kind, "param": null, "code": null}}).to_string())
}

fn chat_completion(reply: &Reply, request: &RecordedRequest, serial: u64) -> Value {
    let mut message = Map::new();
    message.insert("role".into(), json!("assistant"));
    let finish = match &reply.kind {
        Kind::ToolCall { name, arguments } => {
            message.insert("content".into(), Value::Null);
            message.insert(
                "tool_calls".into(),
                json!([{"id": format!("call_replay_{serial}"), "type": "function",
                        "function": {"name": name, "arguments": arguments}}]),
            );
            "tool_calls"
        }
        Kind::Content(text) => {
            message.insert("content".into(), json!(text));
            "stop"
        }
        _ => unreachable!("chat_completion is called for chat replies only"),
    };
    message.extend(reply.message_extra.clone());
    let mut body = Map::new();
    body.insert("id".into(), json!(format!("chatcmpl-replay-{serial}")));
    if reply.object {
        body.insert("object".into(), json!("chat.completion"));
    }
    body.insert("created".into(), json!(1_700_000_000u64 + serial));
    body.insert("model".into(), json!(answering_model(reply, request)));
    body.insert(
        "choices".into(),
        json!([{"index": 0, "message": message,
                "finish_reason": reply.finish_reason.as_deref().unwrap_or(finish), "logprobs": null}]),
    );
    if let Some((prompt, completion)) = reply.usage {
        body.insert(
            "usage".into(),
            json!({"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}),
        );
    }
    body.extend(reply.extra.clone());
    Value::Object(body)
}

fn embeddings(reply: &Reply, request: &RecordedRequest) -> Value {
    let inputs: Vec<String> = match request.json().and_then(|body| body.get("input").cloned()) {
        Some(Value::String(text)) => vec![text],
        Some(Value::Array(items)) => items.iter().map(|item| item.as_str().unwrap_or_default().to_string()).collect(),
        _ => Vec::new(),
    };
    let vectors = match &reply.kind {
        Kind::Embeddings(vectors) => vectors.clone(),
        Kind::EmbedWith(embed) => inputs.iter().map(|text| embed(text)).collect(),
        _ => unreachable!("embeddings is called for embedding replies only"),
    };
    let data: Vec<Value> = vectors
        .iter()
        .enumerate()
        .map(|(index, vector)| json!({"object": "embedding", "index": index, "embedding": vector}))
        .collect();
    let mut body = Map::new();
    if reply.object {
        body.insert("object".into(), json!("list"));
    }
    body.insert("data".into(), Value::Array(data));
    body.insert("model".into(), json!(answering_model(reply, request)));
    if let Some((prompt, _)) = reply.usage {
        body.insert("usage".into(), json!({"prompt_tokens": prompt, "total_tokens": prompt}));
    }
    body.extend(reply.extra.clone());
    Value::Object(body)
}

fn answering_model(reply: &Reply, request: &RecordedRequest) -> String {
    reply.model.clone().or_else(|| request.model()).unwrap_or_else(|| match request.endpoint() {
        Some(Endpoint::Embeddings) => "replay-embedding".to_string(),
        _ => "replay-model".to_string(),
    })
}

/// Accepts TCP connections, each with a switch that cuts it.
pub(crate) struct CuttableListener(pub(crate) TcpListener);

/// A connection's switch, handed to the handler as connect info.
#[derive(Clone)]
pub(crate) struct Conn {
    cut: Arc<AtomicBool>,
}

// axum logs accept details with the address's Debug.
impl std::fmt::Debug for Conn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("replay connection")
    }
}

impl Connected<IncomingStream<'_, CuttableListener>> for Conn {
    fn connect_info(stream: IncomingStream<'_, CuttableListener>) -> Conn {
        stream.remote_addr().clone()
    }
}

impl Listener for CuttableListener {
    type Io = CuttableStream;
    type Addr = Conn;

    async fn accept(&mut self) -> (CuttableStream, Conn) {
        loop {
            match self.0.accept().await {
                Ok((stream, _)) => {
                    let cut = Arc::new(AtomicBool::new(false));
                    return (CuttableStream { stream, cut: cut.clone() }, Conn { cut });
                }
                // Out of file descriptors and the like: wait instead of spinning.
                Err(_) => tokio::time::sleep(std::time::Duration::from_millis(10)).await,
            }
        }
    }

    fn local_addr(&self) -> io::Result<Conn> {
        Ok(Conn { cut: Arc::new(AtomicBool::new(false)) })
    }
}

/// A TCP stream that, once cut, reads end-of-file and refuses writes, so hyper drops it.
pub(crate) struct CuttableStream {
    stream: TcpStream,
    cut: Arc<AtomicBool>,
}

impl CuttableStream {
    fn is_cut(&self) -> bool {
        self.cut.load(Ordering::SeqCst)
    }
}

impl AsyncRead for CuttableStream {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        if self.is_cut() {
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for CuttableStream {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        if self.is_cut() {
            return Poll::Ready(Err(io::ErrorKind::ConnectionAborted.into()));
        }
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.is_cut() {
            return Poll::Ready(Err(io::ErrorKind::ConnectionAborted.into()));
        }
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}
