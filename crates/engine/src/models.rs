//! The language model as a node sees it: the run's client, with every call recorded as a
//! `model_call` event (masked like every event) and counted in the run's token totals.

use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use planwright_llm::{ChatReply, ChatRequest, Embeddings, LlmClient, LlmError};
use planwright_runs::{Counts, EventKind};
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use crate::record::Recorder;

/// The run's model client for one node.
pub(crate) struct RecordedModels {
    pub inner: Arc<dyn LlmClient>,
    pub recorder: Arc<Recorder>,
    pub counts: Arc<Mutex<Counts>>,
    pub node: String,
}

impl RecordedModels {
    fn record(
        &self,
        tier: &str,
        model: String,
        messages: Value,
        outcome: Result<(String, planwright_llm::Usage, u64), String>,
    ) {
        let (response, error, usage, latency_ms) = match outcome {
            Ok((text, usage, latency_ms)) => (Some(text), None, usage, latency_ms),
            Err(error) => (None, Some(error), planwright_llm::Usage::default(), 0),
        };
        {
            let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
            counts.model_calls += 1;
            counts.input_tokens += usage.input_tokens;
            counts.output_tokens += usage.output_tokens;
        }
        let event = EventKind::ModelCall {
            node: self.node.clone(),
            tier: tier.to_owned(),
            provider: self.inner.provider(),
            model,
            messages,
            response,
            error,
            input_tokens: usage.input_tokens,
            output_tokens: usage.output_tokens,
            latency_ms,
        };
        if let Err(error) = self.recorder.emit(event) {
            // The node's own record comes next and fails the same way, stopping the run.
            tracing::error!(%error, "a model call could not be recorded");
        }
    }
}

impl LlmClient for RecordedModels {
    fn provider(&self) -> String {
        self.inner.provider()
    }

    fn chat<'a>(
        &'a self,
        request: ChatRequest,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<ChatReply, LlmError>> {
        let span = tracing::info_span!("model_call", node = %self.node, tier = request.tier.name());
        Box::pin(
            async move {
                let tier = request.tier.name();
                let messages = json!(request.messages);
                let result = self.inner.chat(request, cancel).await;
                match &result {
                    Ok(reply) => self.record(
                        tier,
                        reply.model.clone(),
                        messages,
                        Ok((reply.text.clone(), reply.usage, reply.latency.as_millis() as u64)),
                    ),
                    // A cancelled call is the node's stop, recorded there.
                    Err(LlmError::Cancelled) => {}
                    Err(error) => self.record(tier, String::new(), messages, Err(error.to_string())),
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
            let count = texts.len();
            let result = self.inner.embed(texts, cancel).await;
            // Embedded texts are not kept in the record: only how many, and the usage.
            let messages = json!([{ "role": "user", "content": format!("{count} text(s) to embed") }]);
            match &result {
                Ok(e) => self.record(
                    "embedding",
                    e.model.clone(),
                    messages,
                    Ok((format!("{} vector(s)", e.vectors.len()), e.usage, e.latency.as_millis() as u64)),
                ),
                Err(LlmError::Cancelled) => {}
                Err(error) => self.record("embedding", String::new(), messages, Err(error.to_string())),
            }
            result
        })
    }
}
