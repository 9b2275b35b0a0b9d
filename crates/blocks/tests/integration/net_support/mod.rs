//! Test support for the network blocks: a real local HTTP/1.1 server (one request per
//! connection, `Connection: close`) and a block context that records what the block logs.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use planwright_block::{BlockContext, BlockError, Values};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

pub use crate::contract::{assert_declared_outputs, block, context, NoAnswer, Recorder};

pub struct Harness {
    pub ctx: BlockContext,
    pub events: Arc<Recorder>,
    _dir: tempfile::TempDir,
}

impl Harness {
    pub fn new() -> Harness {
        let dir = tempfile::tempdir().unwrap();
        let events = Arc::new(Recorder::default());
        let ctx = context("call", dir.path(), events.clone(), Arc::new(NoAnswer));
        Harness { ctx, events, _dir: dir }
    }

    pub async fn run(&self, id: &str, inputs: Value) -> Result<Values, BlockError> {
        let Value::Object(inputs) = inputs else { panic!("inputs must be an object") };
        block(id).run(inputs, &self.ctx).await
    }
}

/// A request as the server saw it.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    pub target: String,
    pub headers: BTreeMap<String, String>,
    pub body: Vec<u8>,
}

pub struct Server {
    pub addr: SocketAddr,
    pub seen: Arc<Mutex<Vec<Seen>>>,
}

impl Server {
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

/// Starts the test server on 127.0.0.1 with these routes:
///
/// - `/json`: a JSON object with an `x-request-id` header;
/// - `/text`: `ok` as text/plain; `/jsonish`: `[1, 2, 3]` as text/plain;
/// - `/echo`: the request as JSON (`method`, `path`, `query`, `headers`, `body`);
/// - `/headers`: mixed-case and repeated headers;
/// - `/fail`: 500 with a 430-character body; `/missing`: 404 with no body;
/// - `/sleep?ms=N`: answers after N ms;
/// - `/big`: 11 MiB with a Content-Length; `/big-stream`: 11 MiB without one.
pub async fn serve() -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = seen.clone();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else { return };
            let record = record.clone();
            tokio::spawn(async move {
                let _ = handle(stream, record).await;
            });
        }
    });
    Server { addr, seen }
}

async fn handle(stream: TcpStream, seen: Arc<Mutex<Vec<Seen>>>) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).await?;
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let target = parts.next().unwrap_or("").to_string();
    let mut headers = BTreeMap::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).await? == 0 {
            break;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            headers.insert(name.trim().to_ascii_lowercase(), value.trim().to_string());
        }
    }
    let length: usize = headers.get("content-length").and_then(|v| v.parse().ok()).unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).await?;
    let request = Seen { method, target, headers, body };
    seen.lock().unwrap().push(request.clone());

    let mut stream = reader.into_inner();
    let (path, query) = request.target.split_once('?').unwrap_or((&request.target, ""));
    let head = request.method == "HEAD";
    match path {
        "/json" => {
            let body = json!({"invoices": [{"invoice_number": "INV-1", "amount": 132000}], "total_count": 1});
            respond(
                &mut stream,
                "200 OK",
                &[("Content-Type", "application/json; charset=utf-8"), ("X-Request-Id", "7f3c")],
                body.to_string().as_bytes(),
                head,
            )
            .await
        }
        "/text" => respond(&mut stream, "200 OK", &[("Content-Type", "text/plain; charset=utf-8")], b"ok", head).await,
        "/jsonish" => respond(&mut stream, "200 OK", &[("Content-Type", "text/plain")], b"[1, 2, 3]", head).await,
        "/echo" => {
            let body = json!({
                "method": request.method,
                "path": path,
                "query": query,
                "headers": request.headers,
                "body": String::from_utf8_lossy(&request.body),
            });
            respond(&mut stream, "200 OK", &[("Content-Type", "application/json")], body.to_string().as_bytes(), head)
                .await
        }
        "/headers" => {
            let headers = [
                ("Content-Type", "text/plain"),
                ("X-Mixed-CASE-Name", "Value-Keeps-Case"),
                ("Set-Cookie", "a=1"),
                ("Set-Cookie", "b=2"),
            ];
            respond(&mut stream, "200 OK", &headers, b"", head).await
        }
        "/fail" => {
            let body = format!("database exploded: {}", "x".repeat(400));
            respond(&mut stream, "500 Internal Server Error", &[("Content-Type", "text/plain")], body.as_bytes(), head)
                .await
        }
        "/missing" => respond(&mut stream, "404 Not Found", &[], b"", head).await,
        "/sleep" => {
            let ms: u64 = query.strip_prefix("ms=").and_then(|v| v.parse().ok()).unwrap_or(1000);
            tokio::time::sleep(Duration::from_millis(ms)).await;
            respond(&mut stream, "200 OK", &[("Content-Type", "text/plain")], b"late", head).await
        }
        "/big" | "/big-stream" => {
            const SIZE: usize = 11 * 1024 * 1024;
            let mut head_text =
                String::from("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n");
            if path == "/big" {
                head_text.push_str(&format!("Content-Length: {SIZE}\r\n"));
            }
            head_text.push_str("\r\n");
            stream.write_all(head_text.as_bytes()).await?;
            let chunk = vec![b'a'; 64 * 1024];
            for _ in 0..SIZE / chunk.len() {
                stream.write_all(&chunk).await?;
            }
            stream.shutdown().await
        }
        _ => respond(&mut stream, "404 Not Found", &[], b"no such route", head).await,
    }
}

async fn respond(
    stream: &mut TcpStream,
    status: &str,
    headers: &[(&str, &str)],
    body: &[u8],
    head: bool,
) -> std::io::Result<()> {
    let mut text = format!("HTTP/1.1 {status}\r\nConnection: close\r\nContent-Length: {}\r\n", body.len());
    for (name, value) in headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    text.push_str("\r\n");
    stream.write_all(text.as_bytes()).await?;
    if !head {
        stream.write_all(body).await?;
    }
    stream.shutdown().await
}
