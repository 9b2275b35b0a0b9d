//! What every HTTP test starts with: a real `planwright serve` on a free port, with its own
//! workspace and data home, and a client carrying its token.
#![allow(dead_code)] // Each test binary uses part of it.

use std::path::{Path, PathBuf};

use futures::StreamExt;
use planwright_api::{DataHome, KeyStore, Studio, StudioConfig};
use planwright_server::Server;
use reqwest::header::AUTHORIZATION;
use reqwest::StatusCode;
use serde_json::Value;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

pub struct Running {
    pub base: String,
    pub port: u16,
    pub token: String,
    pub http: reqwest::Client,
    _dirs: tempfile::TempDir,
    pub workspace: std::path::PathBuf,
    pub home: std::path::PathBuf,
}

impl Running {
    pub async fn start() -> Running {
        Running::start_with(planwright_server::ServeLimits::default()).await
    }

    pub async fn start_with(limits: planwright_server::ServeLimits) -> Running {
        let dirs = tempfile::tempdir().unwrap();
        let workspace = dirs.path().join("workspace");
        let home = dirs.path().join("home");
        let studio = Studio::open(StudioConfig {
            workspace: Some(workspace.clone()),
            data_home: Some(DataHome::at(&home)),
            key_store: KeyStore::File,
        })
        .unwrap();
        let ui = dirs.path().join("ui");
        std::fs::create_dir_all(&ui).unwrap();
        std::fs::write(ui.join("index.html"), "<!doctype html><title>studio</title>").unwrap();
        let server = Server::bind_with(studio, 0, &ui, limits).await.unwrap();
        let port = server.addr().port();
        let token = server.token().to_owned();
        assert_eq!(server.url(), format!("http://127.0.0.1:{port}/?token={token}"));
        tokio::spawn(server.serve(std::future::pending()));
        Running {
            base: format!("http://127.0.0.1:{port}"),
            port,
            token,
            http: reqwest::Client::new(),
            _dirs: dirs,
            workspace,
            home,
        }
    }

    pub fn get(&self, path: &str) -> reqwest::RequestBuilder {
        self.http.get(format!("{}{path}", self.base)).header(AUTHORIZATION, format!("Bearer {}", self.token))
    }

    pub fn send(&self, method: reqwest::Method, path: &str, body: Value) -> reqwest::RequestBuilder {
        self.http
            .request(method, format!("{}{path}", self.base))
            .header(AUTHORIZATION, format!("Bearer {}", self.token))
            .json(&body)
    }

    pub async fn json(&self, method: reqwest::Method, path: &str, body: Value) -> (StatusCode, Value) {
        let response = self.send(method, path, body).send().await.unwrap();
        let status = response.status();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    pub async fn events(&self, run_id: &str) -> futures::stream::BoxStream<'static, Value> {
        self.stream(&format!("/api/runs/{run_id}/events?after=0")).await
    }

    /// A streaming operation's items, as JSON, until the server closes the socket.
    pub async fn stream(&self, path: &str) -> futures::stream::BoxStream<'static, Value> {
        let url = format!("ws://127.0.0.1:{}{path}", self.port);
        let mut request = url.into_client_request().unwrap();
        request.headers_mut().insert(AUTHORIZATION, format!("Bearer {}", self.token).parse().unwrap());
        let (socket, _) = tokio_tungstenite::connect_async(request).await.unwrap();
        socket
            .filter_map(|message| async move {
                match message {
                    Ok(Message::Text(text)) => Some(serde_json::from_str::<Value>(&text).unwrap()),
                    _ => None,
                }
            })
            .boxed()
    }
}

/// Every file under `dir`, in its folders too.
pub fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            if entry.file_type().unwrap().is_dir() {
                dirs.push(entry.path());
            } else {
                files.push(entry.path());
            }
        }
    }
    files
}
