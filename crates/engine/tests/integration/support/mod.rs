//! What the engine's tests share: an engine over the bundled catalog with a run store in a temp
//! data home, and a real HTTP server on 127.0.0.1 with routes that behave like the servers plans
//! talk to: slow ones, flaky ones, failing ones. The server records every request: when it
//! arrived, and whether the client went away before the answer (a cancelled request).

#![allow(dead_code)] // each test file uses the routes it needs

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use planwright_catalog::Catalog;
use planwright_engine::Engine;
use planwright_runs::{DataHome, RunStore};
use planwright_validate::NoPlans;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// An engine with the built-in blocks, its run store in a temp data home, and a temp work
/// directory. Each test file adds the `run` it needs.
pub struct Fixture {
    pub engine: Engine,
    pub store: RunStore,
    pub home: tempfile::TempDir,
    pub workdir: tempfile::TempDir,
}

pub fn fixture() -> Fixture {
    let home = tempfile::tempdir().unwrap();
    let store = RunStore::open(&DataHome::at(home.path())).unwrap();
    let engine = Engine::new(Arc::new(Catalog::bundled().unwrap()), planwright_blocks::builtin(), Arc::new(NoPlans));
    Fixture { engine, store, home, workdir: tempfile::tempdir().unwrap() }
}

#[derive(Debug, Clone)]
pub struct Request {
    pub path: String,
    pub started: Instant,
    pub finished: Option<Instant>,
    /// The client closed the connection before the answer was sent.
    pub abandoned: bool,
}

#[derive(Clone, Default)]
pub struct Log(Arc<Mutex<Vec<Request>>>);

impl Log {
    pub fn requests(&self) -> Vec<Request> {
        self.0.lock().unwrap().clone()
    }

    pub fn count(&self, prefix: &str) -> usize {
        self.requests().iter().filter(|r| r.path.starts_with(prefix)).count()
    }
}

pub struct Server {
    pub base: String,
    pub log: Log,
}

/// Routes:
/// - `/json/<anything>` → 200 `{"path": "<path>", "n": <number in the path or 0>}`
/// - `/sleep/<ms>/<tag>` → waits, then 200 `{"slept": ms}`
/// - `/flaky/<failures>/<key>` → 500 for the first `failures` requests of `key`, then 200
/// - `/fail` → 500 `{"error": "boom"}`
/// - `/reflect…` → 200, a page showing what was typed (the `x-typed` header) in each of
///   [`encodings`], and the address asked for, as a page echoing a password would
pub async fn start() -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let log = Log::default();
    let flaky: Arc<Mutex<HashMap<String, u32>>> = Arc::default();
    let server_log = log.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else { return };
            let log = server_log.clone();
            let flaky = flaky.clone();
            tokio::spawn(async move {
                let mut head = Vec::new();
                let mut buf = [0u8; 1024];
                while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                    match socket.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => head.extend_from_slice(&buf[..n]),
                    }
                }
                let text = String::from_utf8_lossy(&head).to_string();
                let path = text.split_whitespace().nth(1).unwrap_or("/").to_owned();
                let index = {
                    let mut requests = log.0.lock().unwrap();
                    requests.push(Request {
                        path: path.clone(),
                        started: Instant::now(),
                        finished: None,
                        abandoned: false,
                    });
                    requests.len() - 1
                };
                let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
                let (status, body) = match parts.as_slice() {
                    ["sleep", ms, ..] => {
                        let ms: u64 = ms.parse().unwrap_or(0);
                        let mut probe = [0u8; 1];
                        tokio::select! {
                            _ = tokio::time::sleep(Duration::from_millis(ms)) => {}
                            // A read that returns means the client closed: the request was cancelled.
                            _ = socket.read(&mut probe) => {
                                let mut requests = log.0.lock().unwrap();
                                requests[index].abandoned = true;
                                requests[index].finished = Some(Instant::now());
                                return;
                            }
                        }
                        (200, format!("{{\"slept\": {ms}}}"))
                    }
                    ["flaky", failures, key] => {
                        let failures: u32 = failures.parse().unwrap_or(0);
                        let seen = {
                            let mut flaky = flaky.lock().unwrap();
                            let seen = flaky.entry(key.to_string()).or_insert(0);
                            *seen += 1;
                            *seen
                        };
                        if seen <= failures {
                            (500, "{\"error\": \"not yet\"}".to_owned())
                        } else {
                            (200, format!("{{\"attempt\": {seen}}}"))
                        }
                    }
                    ["fail"] => (500, "{\"error\": \"boom\"}".to_owned()),
                    [first, ..] if first.starts_with("reflect") => {
                        let typed = header(&text, "x-typed").unwrap_or_default();
                        let shown: Vec<String> =
                            encodings(&typed).into_iter().map(|(how, form)| format!("<p>{how}: {form}</p>")).collect();
                        (200, format!("<p>asked for {path}</p>{}", shown.concat()))
                    }
                    _ => {
                        let n: u64 = parts.iter().rev().find_map(|p| p.parse().ok()).unwrap_or(0);
                        (200, format!("{{\"path\": \"{path}\", \"n\": {n}}}"))
                    }
                };
                let reason = if status == 200 { "OK" } else { "Internal Server Error" };
                let response = format!(
                    "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = socket.write_all(response.as_bytes()).await;
                log.0.lock().unwrap()[index].finished = Some(Instant::now());
            });
        }
    });
    Server { base, log }
}

/// The value of the header `name` in a request head.
fn header(head: &str, name: &str) -> Option<String> {
    head.lines().skip(1).find_map(|line| {
        let (key, value) = line.split_once(':')?;
        key.trim().eq_ignore_ascii_case(name).then(|| value.trim().to_owned())
    })
}

/// `value` as pages and servers write it back: each way a value is encoded, re-cased or
/// rearranged, by name. What masking must find.
pub fn encodings(value: &str) -> Vec<(&'static str, String)> {
    use base64::Engine as _;
    let percent = |space: &str| -> String {
        value
            .bytes()
            .map(|b| match b {
                b' ' => space.to_owned(),
                b if b.is_ascii_alphanumeric() || b"-._~".contains(&b) => (b as char).to_string(),
                b => format!("%{b:02X}"),
            })
            .collect()
    };
    let entities = |numeric: fn(char) -> String| -> String {
        value.chars().map(|c| if c.is_ascii_alphanumeric() || c == ' ' { c.to_string() } else { numeric(c) }).collect()
    };
    let named = value.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;");
    let b64 = base64::engine::general_purpose::STANDARD;
    vec![
        ("form encoded", percent("+")),
        ("percent encoded", percent("%20")),
        ("percent encoded, lower-case hex", percent("%20").to_lowercase()),
        ("HTML entities", named),
        ("HTML decimal entities", entities(|c| format!("&#{};", c as u32))),
        ("HTML hex entities", entities(|c| format!("&#x{:x};", c as u32))),
        ("JSON escaped as Go does", serde_json::to_string(value).unwrap().replace('&', "\\u0026")),
        ("base64", b64.encode(value)),
        ("URL-safe base64 without padding", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(value)),
        ("base64 of user:password", b64.encode(format!("tk-suzuki:{value}"))),
        ("upper case", value.to_uppercase()),
        ("lower case", value.to_lowercase()),
        ("reversed", value.chars().rev().collect()),
    ]
}

/// Every file under `dir`, at any depth.
pub fn files_under(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(files_under(&path));
        } else {
            files.push(path);
        }
    }
    files
}
