//! What the server received: one [`RecordedRequest`] per request, in arrival order.

use std::time::Instant;

use serde_json::Value;

/// Which API a request was for, by its path (OpenAI `/v1/…` or Azure
/// `/openai/deployments/{d}/…`, or any other prefix).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    Chat,
    Embeddings,
}

/// One request as it arrived, recorded before it was answered.
#[derive(Debug, Clone)]
pub struct RecordedRequest {
    pub method: String,
    /// The path without the query, e.g. `/v1/chat/completions`.
    pub path: String,
    /// The raw query string, e.g. `api-version=2024-10-21`.
    pub query: Option<String>,
    /// Header names lower-cased, in arrival order.
    pub headers: Vec<(String, String)>,
    /// The body as text (lossy UTF-8).
    pub body: String,
    /// When it arrived: compare two requests' times to see a client's backoff.
    pub at: Instant,
}

impl RecordedRequest {
    pub fn endpoint(&self) -> Option<Endpoint> {
        if self.path.ends_with("/chat/completions") {
            Some(Endpoint::Chat)
        } else if self.path.ends_with("/embeddings") {
            Some(Endpoint::Embeddings)
        } else {
            None
        }
    }

    /// The first header of that name (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(key, _)| key.eq_ignore_ascii_case(name)).map(|(_, value)| value.as_str())
    }

    /// The body parsed as JSON, if it is JSON.
    pub fn json(&self) -> Option<Value> {
        serde_json::from_str(&self.body).ok()
    }

    /// The `model` the body names.
    pub fn model(&self) -> Option<String> {
        self.json()?.get("model")?.as_str().map(str::to_string)
    }

    /// The content of the last `user` message of a chat request (text, or the text parts of
    /// a content array joined by newlines).
    pub fn last_user_message(&self) -> Option<String> {
        let body = self.json()?;
        let message = body.get("messages")?.as_array()?.iter().rev().find(|m| m["role"] == "user")?;
        match &message["content"] {
            Value::String(text) => Some(text.clone()),
            Value::Array(parts) => Some(parts.iter().filter_map(|p| p["text"].as_str()).collect::<Vec<_>>().join("\n")),
            _ => None,
        }
    }

    /// The query parameter of that name (no percent-decoding: replay values are plain).
    pub fn query_param(&self, name: &str) -> Option<&str> {
        self.query
            .as_deref()?
            .split('&')
            .filter_map(|pair| pair.split_once('='))
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v)
    }
}
