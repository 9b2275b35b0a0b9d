//! The language model as a node sees it: the run's client wrapped by
//! [`planwright_llm::RecordedClient`], with the run's secrets redacted from what is sent and
//! every call recorded as a `model_call` event (masked like every event) and counted in the
//! run's token totals.

use std::sync::{Arc, Mutex};

use planwright_llm::{ModelCall, ModelCallSink, Redact};
use planwright_runs::{Counts, EventKind};

use crate::record::Recorder;

/// Where one node's model calls go: its events and the run's counts.
pub(crate) struct NodeModelCalls {
    pub recorder: Arc<Recorder>,
    pub counts: Arc<Mutex<Counts>>,
    pub node: String,
}

impl ModelCallSink for NodeModelCalls {
    fn record(&self, call: ModelCall) {
        {
            let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
            counts.model_calls += 1;
            counts.input_tokens += call.usage.input_tokens;
            counts.output_tokens += call.usage.output_tokens;
        }
        let event = EventKind::ModelCall {
            node: self.node.clone(),
            tier: call.tier,
            provider: call.provider,
            model: call.model,
            messages: call.messages,
            response: call.response,
            error: call.error,
            input_tokens: call.usage.input_tokens,
            output_tokens: call.usage.output_tokens,
            latency_ms: call.latency.as_millis() as u64,
        };
        if let Err(error) = self.recorder.emit(event) {
            // The node's own record comes next and fails the same way, stopping the run.
            tracing::error!(%error, "a model call could not be recorded");
        }
    }
}

/// The run's secret values never reach a model server.
impl Redact for Recorder {
    fn redact(&self, text: &str) -> String {
        self.mask_text(text)
    }
}
