//! Model calls recorded wherever they are made: [`RecordedClient`] wraps any client so that
//! every call — answered, refused or failed — reaches a [`ModelCallSink`] as one
//! [`ModelCall`], with the model asked, the tokens and the real latency. A run records them as
//! `model_call` events; the design engine, outside any run, in its metrics. What the caller sends
//! passes its [`Redact`] first, so a secret's value never reaches the model server.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use crate::port::{ChatReply, ChatRequest, Embeddings, LlmClient, LlmError, Tier, Usage};

/// One model call as it went.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelCall {
    /// `creative`, `fast`, `evaluator`, or `embedding`.
    pub tier: String,
    pub provider: String,
    /// The model that answered; for a failed call, the model that was asked.
    pub model: String,
    /// The messages sent (`[{role, content}]`); for embeddings, only how many texts.
    pub messages: Value,
    pub response: Option<String>,
    pub error: Option<String>,
    pub usage: Usage,
    /// From the call to its answer or failure, retries included.
    pub latency: Duration,
}

/// Where recorded calls go (a run's record, the design engine's metrics).
pub trait ModelCallSink: Send + Sync {
    fn record(&self, call: ModelCall);
}

/// Removes what must never leave the process (secret values) from text sent to a model.
pub trait Redact: Send + Sync {
    fn redact(&self, text: &str) -> String;
}

/// Nothing to remove.
pub struct NoRedaction;

impl Redact for NoRedaction {
    fn redact(&self, text: &str) -> String {
        text.to_owned()
    }
}

/// A client whose every call is redacted, then recorded.
pub struct RecordedClient {
    inner: Arc<dyn LlmClient>,
    sink: Arc<dyn ModelCallSink>,
    redact: Arc<dyn Redact>,
}

impl RecordedClient {
    pub fn new(inner: Arc<dyn LlmClient>, sink: Arc<dyn ModelCallSink>, redact: Arc<dyn Redact>) -> RecordedClient {
        RecordedClient { inner, sink, redact }
    }

    fn record(
        &self,
        tier: &str,
        model: String,
        messages: Value,
        outcome: Result<(String, Usage), String>,
        latency: Duration,
    ) {
        let (response, error, usage) = match outcome {
            Ok((text, usage)) => (Some(text), None, usage),
            Err(error) => (None, Some(error), Usage::default()),
        };
        self.sink.record(ModelCall {
            tier: tier.to_owned(),
            provider: self.inner.provider(),
            model,
            messages,
            response,
            error,
            usage,
            latency,
        });
    }
}

impl LlmClient for RecordedClient {
    fn provider(&self) -> String {
        self.inner.provider()
    }

    fn model(&self, tier: Tier) -> String {
        self.inner.model(tier)
    }

    fn embedding_model(&self) -> Option<String> {
        self.inner.embedding_model()
    }

    fn chat<'a>(
        &'a self,
        mut request: ChatRequest,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<ChatReply, LlmError>> {
        let tier = request.tier;
        let span = tracing::info_span!("model_call", tier = tier.name());
        Box::pin(
            async move {
                for message in &mut request.messages {
                    message.content = self.redact.redact(&message.content);
                }
                let messages = json!(request.messages);
                let started = Instant::now();
                let result = self.inner.chat(request, cancel).await;
                let latency = started.elapsed();
                match &result {
                    Ok(reply) => self.record(
                        tier.name(),
                        reply.model.clone(),
                        messages,
                        Ok((reply.text.clone(), reply.usage)),
                        reply.latency,
                    ),
                    // A cancelled call is the caller's stop, recorded there.
                    Err(LlmError::Cancelled) => {}
                    Err(error) => {
                        self.record(tier.name(), self.inner.model(tier), messages, Err(error.to_string()), latency)
                    }
                }
                result
            }
            .instrument(span),
        )
    }

    fn embed<'a>(
        &'a self,
        texts: Vec<String>,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<Embeddings, LlmError>> {
        Box::pin(async move {
            let texts: Vec<String> = texts.iter().map(|t| self.redact.redact(t)).collect();
            let count = texts.len();
            // Embedded texts are not kept in the record: only how many, and the usage.
            let messages = json!([{ "role": "user", "content": format!("{count} text(s) to embed") }]);
            let started = Instant::now();
            let result = self.inner.embed(texts, cancel).await;
            let latency = started.elapsed();
            match &result {
                Ok(e) => self.record(
                    "embedding",
                    e.model.clone(),
                    messages,
                    Ok((format!("{} vector(s)", e.vectors.len()), e.usage)),
                    e.latency,
                ),
                Err(LlmError::Cancelled) => {}
                Err(error) => self.record(
                    "embedding",
                    self.inner.embedding_model().unwrap_or_default(),
                    messages,
                    Err(error.to_string()),
                    latency,
                ),
            }
            result
        })
    }
}
