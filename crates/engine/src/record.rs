//! Recording a run: every event is masked (secret values, as they are or encoded, become `***`),
//! written through the run store, and streamed to subscribers. Inputs and outputs are summarised
//! for the record; the full outputs are stored separately for resume.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use planwright_runs::{Event, EventKind, RunRecorder};
use serde_json::{Map, Value};
use tokio::sync::mpsc::UnboundedSender;

use crate::values::NodeValue;
use crate::EngineError;

mod mask;

use mask::Secret;

/// Strings longer than this are cut in records.
const MAX_STRING: usize = 200;
/// Lists longer than this keep their first items and a marker.
const MAX_ITEMS: usize = 50;
/// Deeper values are replaced by a marker.
const MAX_DEPTH: usize = 8;

pub(crate) struct Recorder {
    store: RunRecorder,
    /// Longest first, so that a secret containing another is masked whole.
    secrets: Mutex<Vec<Secret>>,
    subscriber: Option<UnboundedSender<Event>>,
    /// Time spent in the store (SQLite and JSONL), in nanoseconds: reported apart from the
    /// engine's own overhead.
    store_nanos: AtomicU64,
}

impl Recorder {
    pub fn new(store: RunRecorder, subscriber: Option<UnboundedSender<Event>>) -> Recorder {
        Recorder { store, secrets: Mutex::new(Vec::new()), subscriber, store_nanos: AtomicU64::new(0) }
    }

    /// Time spent writing the record so far.
    pub fn store_time(&self) -> Duration {
        Duration::from_nanos(self.store_nanos.load(Ordering::Relaxed))
    }

    fn timed<T>(&self, write: impl FnOnce() -> T) -> T {
        let started = Instant::now();
        let result = write();
        self.store_nanos.fetch_add(started.elapsed().as_nanos() as u64, Ordering::Relaxed);
        result
    }

    pub fn run_id(&self) -> &str {
        self.store.run_id()
    }

    /// The folder of `node`'s own records, beside the run's log.
    pub fn node_dir(&self, node: &str) -> std::path::PathBuf {
        self.store.node_dir(node)
    }

    /// Secret values resolved for a block: from now on they never reach a record, as they are
    /// or encoded (see [`mask`]).
    pub fn add_secrets(&self, values: Vec<String>) {
        let mut secrets = self.secrets.lock().unwrap_or_else(|e| e.into_inner());
        for value in values.into_iter().filter(|v| !v.is_empty()) {
            if !secrets.iter().any(|s| s.value() == value) {
                secrets.push(Secret::new(value));
            }
        }
        secrets.sort_by_key(|s| std::cmp::Reverse(s.value().len()));
    }

    pub fn emit(&self, kind: EventKind) -> Result<Event, EngineError> {
        let kind = self.recorded(kind);
        let event = self.timed(|| self.store.record(kind)).map_err(EngineError::Store)?;
        self.send(&event);
        Ok(event)
    }

    /// Records a node's outputs and gives back the node's value as dependants see it: secret
    /// values in the outputs (a server echoing a header, a page echoing what was typed) are
    /// masked before the store, a dependant, a model or a file written later can see them.
    pub fn finish_node(
        &self,
        node: &str,
        elapsed_ms: u64,
        attempts: u32,
        outputs: Map<String, Value>,
    ) -> Result<NodeValue, EngineError> {
        let (outputs, summary) = self.outputs(outputs);
        let event = self
            .timed(|| self.store.finish_node(node, elapsed_ms, attempts, &outputs, summary))
            .map_err(EngineError::Store)?;
        self.send(&event);
        Ok(NodeValue::Done(std::sync::Arc::new(outputs)))
    }

    /// A node's outputs as dependants see them, secret values masked, and their summary for
    /// the record.
    pub fn outputs(&self, outputs: Map<String, Value>) -> (Map<String, Value>, Value) {
        let outputs = match self.mask(Value::Object(outputs)) {
            Value::Object(masked) => masked,
            _ => unreachable!("masking keeps an object an object"),
        };
        let summary = Value::Object(walk_map(&outputs, 0, &|text| text.to_owned()));
        (outputs, summary)
    }

    pub fn receive_input(&self, node: &str, answer: &Value) -> Result<Event, EngineError> {
        let summary = self.summary(answer);
        let event = self.timed(|| self.store.receive_input(node, answer, summary)).map_err(EngineError::Store)?;
        self.send(&event);
        Ok(event)
    }

    /// A summary of `value` for a record, masked: each text of it that the summary keeps is masked
    /// whole before it is cut (a cut through a secret would leave its start where no mask finds
    /// it), and nothing else of the value is copied.
    pub fn summary(&self, value: &Value) -> Value {
        self.with_mask(|mask| summarize(value, mask))
    }

    /// [`Recorder::summary`] of an object's entries (a node's inputs), the object not copied.
    pub fn summary_of(&self, map: &Map<String, Value>) -> Map<String, Value> {
        self.with_mask(|mask| walk_map(map, 0, mask))
    }

    /// `summarise` given the run's masking, or none while no secret is known.
    fn with_mask<T>(&self, summarise: impl FnOnce(&dyn Fn(&str) -> String) -> T) -> T {
        if !self.has_secrets() {
            return summarise(&|text| text.to_owned());
        }
        summarise(&|text| self.mask_text(text))
    }

    /// `text` with every known secret value, and its encodings, replaced by `***`.
    pub fn mask_text(&self, text: &str) -> String {
        let secrets = self.secrets.lock().unwrap_or_else(|e| e.into_inner());
        secrets.iter().fold(text.to_owned(), |text, secret| secret.mask(&text))
    }

    fn send(&self, event: &Event) {
        if let Some(subscriber) = &self.subscriber {
            // A subscriber that went away does not stop the run.
            let _ = subscriber.send(event.clone());
        }
    }

    /// Whether any secret value is known to the run yet (until one is, nothing needs masking).
    fn has_secrets(&self) -> bool {
        !self.secrets.lock().unwrap_or_else(|e| e.into_inner()).is_empty()
    }

    fn mask(&self, value: Value) -> Value {
        if !self.has_secrets() {
            return value;
        }
        match value {
            Value::String(text) => Value::String(self.mask_text(&text)),
            Value::Array(items) => Value::Array(items.into_iter().map(|v| self.mask(v)).collect()),
            Value::Object(map) => {
                Value::Object(map.into_iter().map(|(k, v)| (self.mask_text(&k), self.mask(v))).collect())
            }
            other => other,
        }
    }

    /// The event as the record keeps it, in one pass over its strings: every string masked
    /// (errors and log lines may quote a secret), then a log line's or a progress event's long
    /// texts cut to a summary (`planwright_runs::bounded`) — a block repeats its step's or a page's
    /// text in them, which the node's outputs hold whole.
    fn recorded(&self, kind: EventKind) -> EventKind {
        let masked = self.has_secrets();
        // A question repeats the texts it is about (an escalation's report quotes the steps): a
        // summary of each is enough to answer it.
        let summarised =
            matches!(kind, EventKind::Log { .. } | EventKind::Progress { .. } | EventKind::InputRequested { .. });
        if !masked && !summarised {
            return kind;
        }
        match serde_json::to_value(&kind) {
            Ok(value) => {
                let value = self.mask(value);
                let value = if summarised { planwright_runs::bounded_strings(value) } else { value };
                serde_json::from_value(value).unwrap_or(kind)
            }
            Err(_) => kind,
        }
    }
}

/// Blocks' log lines, artifacts and progress, recorded as run events.
pub(crate) struct RunEvents(pub std::sync::Arc<Recorder>);

impl planwright_block::BlockEvents for RunEvents {
    fn log(&self, node: &str, level: planwright_runs::LogLevel, message: planwright_runs::Reason) {
        let (text, said) = message.into_parts();
        let kind = EventKind::Log { node: Some(node.to_owned()), level, message: text, said };
        if let Err(error) = self.0.emit(kind) {
            // The engine's next record of this node fails the same way and stops the run.
            tracing::error!(%error, "a block's log line could not be recorded");
        }
    }

    fn artifact(&self, node: &str, path: &std::path::Path, kind: planwright_runs::ArtifactKind, bytes: u64) {
        let event = EventKind::Artifact { node: node.to_owned(), path: path.display().to_string(), kind, bytes };
        if let Err(error) = self.0.emit(event) {
            tracing::error!(%error, "an artifact could not be recorded");
        }
    }

    fn progress(&self, node: &str, progress: planwright_runs::Progress) {
        if let Err(error) = self.0.emit(EventKind::Progress { node: node.to_owned(), progress }) {
            tracing::error!(%error, "a block's progress could not be recorded");
        }
    }
}

/// A record-sized copy of a value: long strings cut, long lists shortened, deep values elided;
/// each text it keeps (keys too) passed through `mask` before it is cut.
pub(crate) fn summarize(value: &Value, mask: &dyn Fn(&str) -> String) -> Value {
    walk(value, 0, mask)
}

/// The summary of an object's entries, the object at `depth`.
fn walk_map(map: &Map<String, Value>, depth: usize, mask: &dyn Fn(&str) -> String) -> Map<String, Value> {
    map.iter().map(|(k, v)| (mask(k), walk(v, depth + 1, mask))).collect()
}

fn walk(value: &Value, depth: usize, mask: &dyn Fn(&str) -> String) -> Value {
    match value {
        _ if depth >= MAX_DEPTH => Value::String("…".into()),
        Value::String(s) => {
            let s = mask(s);
            let chars = s.chars().count();
            if chars > MAX_STRING {
                Value::String(format!("{}… ({chars} chars)", s.chars().take(MAX_STRING).collect::<String>()))
            } else {
                Value::String(s)
            }
        }
        Value::Array(items) => {
            let mut kept: Vec<Value> = items.iter().take(MAX_ITEMS).map(|v| walk(v, depth + 1, mask)).collect();
            if items.len() > MAX_ITEMS {
                kept.push(Value::String(format!("… {} more items", items.len() - MAX_ITEMS)));
            }
            Value::Array(kept)
        }
        Value::Object(map) => Value::Object(walk_map(map, depth, mask)),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn summaries_cut_long_values() {
        let long = "x".repeat(500);
        let summary = summarize(&json!({"text": long, "rows": (0..60).collect::<Vec<_>>()}), &|t| t.to_owned());
        assert!(summary["text"].as_str().unwrap().ends_with("(500 chars)"));
        assert_eq!(summary["rows"].as_array().unwrap().len(), 51);
        assert_eq!(summary["rows"][50], "… 10 more items");
    }
}
