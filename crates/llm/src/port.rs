//! The [`LlmClient`] trait and the plain types that cross it.

use std::time::Duration;

use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

/// Which kind of work a call is for; each tier has its own model, temperature and token limit
/// in the settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tier {
    /// Planning and generation.
    Creative,
    /// Checklists, extraction, classification.
    Fast,
    /// Completion and satisfaction judgements.
    Evaluator,
}

impl Tier {
    pub const ALL: [Tier; 3] = [Tier::Creative, Tier::Fast, Tier::Evaluator];

    pub fn name(self) -> &'static str {
        match self {
            Tier::Creative => "creative",
            Tier::Fast => "fast",
            Tier::Evaluator => "evaluator",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    System,
    User,
    Assistant,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    pub role: Role,
    pub content: String,
}

impl ChatMessage {
    pub fn system(content: impl Into<String>) -> ChatMessage {
        ChatMessage { role: Role::System, content: content.into() }
    }

    pub fn user(content: impl Into<String>) -> ChatMessage {
        ChatMessage { role: Role::User, content: content.into() }
    }

    pub fn assistant(content: impl Into<String>) -> ChatMessage {
        ChatMessage { role: Role::Assistant, content: content.into() }
    }
}

/// A JSON Schema the answer must follow, already made strict-compatible (every object closed,
/// every property required, optional ones nullable).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResponseSchema {
    /// The schema's name as the server sees it (`[A-Za-z0-9_-]{1,64}`).
    pub name: String,
    pub schema: Value,
}

/// One chat completion request. The model, and the temperature and token limit unless
/// overridden here, come from the tier's settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatRequest {
    pub tier: Tier,
    pub messages: Vec<ChatMessage>,
    /// When set, the server is asked for JSON following it (`response_format: json_schema`).
    pub response_schema: Option<ResponseSchema>,
    pub temperature: Option<f32>,
    pub max_tokens: Option<u32>,
}

impl ChatRequest {
    pub fn new(tier: Tier, messages: Vec<ChatMessage>) -> ChatRequest {
        ChatRequest { tier, messages, response_schema: None, temperature: None, max_tokens: None }
    }
}

/// Tokens a call used, as the server reported them (0 when it does not).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

impl std::ops::AddAssign for Usage {
    fn add_assign(&mut self, other: Usage) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
    }
}

/// Who produced a result: a model, or the built-in rule-based path used when none is
/// configured. Every result a caller shows carries one, so an offline result says so.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Provenance {
    Model { provider: String, model: String },
    Offline,
}

/// A chat completion's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatReply {
    /// The assistant message's text (for structured calls, the JSON text as sent).
    pub text: String,
    /// The model that answered, as the server named it (else the configured one).
    pub model: String,
    pub usage: Usage,
    pub latency: Duration,
}

/// Embedding vectors, one per input text, in input order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Embeddings {
    pub vectors: Vec<Vec<f32>>,
    pub model: String,
    pub usage: Usage,
    pub latency: Duration,
}

/// Why a model call gave no usable answer. Messages name the provider and what would fix it,
/// never an API key.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LlmError {
    /// No provider is set up (or not for what was asked, e.g. embeddings).
    #[error("no model configured: {0}")]
    NotConfigured(String),
    /// The server refused the request (4xx other than 429): bad key, unknown model, bad request.
    #[error("{provider} refused the request (HTTP {status}): {message}")]
    Refused { provider: String, status: u16, message: String },
    /// Still rate limited, overloaded or failing (429, 5xx) after the retries.
    #[error("{provider} is unavailable after {attempts} attempts: {message}")]
    Unavailable { provider: String, attempts: u32, message: String },
    /// No answer within the call's time limit (after the retries).
    #[error("{provider} did not answer within {}s", .after.as_secs())]
    Timeout { provider: String, after: Duration },
    /// The server could not be reached or dropped the connection.
    #[error("cannot reach {provider}: {message}")]
    Connection { provider: String, message: String },
    /// The answer was not the shape of a chat completion (or had no message).
    #[error("{provider} sent an answer that cannot be read: {message}")]
    Malformed { provider: String, message: String },
    /// Structured output still broke its schema after the one corrective re-ask.
    #[error("the model's answer does not follow the requested format: {}", .errors.join("; "))]
    InvalidOutput { errors: Vec<String>, text: String },
    /// The schema asked for is not a usable JSON Schema (or the re-ask prompt is broken): a
    /// fault of the caller's input, not of the model.
    #[error("the requested answer format is not a valid JSON Schema: {message}")]
    InvalidSchema { message: String },
    #[error("cancelled")]
    Cancelled,
}

/// A language model, whoever serves it. Implementations retry transient failures themselves
/// and return promptly once `cancel` fires.
pub trait LlmClient: Send + Sync {
    /// Short name of the provider for messages and records (`openai`, `azure`, `ollama at http://…`).
    fn provider(&self) -> String;

    /// The model a call on `tier` asks for (as configured; the answer names the one that replied).
    fn model(&self, tier: Tier) -> String;

    /// The embedding model, when one is configured.
    fn embedding_model(&self) -> Option<String>;

    /// One chat completion. With `response_schema` set the implementation asks for JSON output,
    /// but does not validate it: use [`crate::structured()`] for that.
    fn chat<'a>(
        &'a self,
        request: ChatRequest,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<ChatReply, LlmError>>;

    /// Embeddings of `texts` with the configured embedding model.
    fn embed<'a>(
        &'a self,
        texts: Vec<String>,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<Embeddings, LlmError>>;
}
