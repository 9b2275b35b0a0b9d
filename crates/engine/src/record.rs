//! Recording a run: every event is masked (secret values, as they are or encoded, become `***`),
//! written through the run store, and streamed to subscribers. Inputs and outputs are summarised
//! for the record; the full outputs are stored separately for resume — a table of more than
//! [`Recorder`]'s `table_file_rows` as a file of its own ([`table_record`]).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use planwright_runs::{Event, EventKind, RunRecorder};
use serde_json::{Map, Value};
use tokio::sync::mpsc::UnboundedSender;

use crate::values::NodeValue;
use crate::EngineError;

mod mask;
mod table_record;

use mask::Secret;
use planwright_block::RunTables;
pub use table_record::{recorded_table, RecordedTable};
pub(crate) use table_record::{restore_tables, RestoreError};

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
    /// The run's tables, which values hold by handle.
    tables: std::sync::Arc<RunTables>,
    /// A table output of more rows than this is recorded as a file, not as rows.
    table_file_rows: usize,
}

impl Recorder {
    pub fn new(store: RunRecorder, subscriber: Option<UnboundedSender<Event>>, table_file_rows: usize) -> Recorder {
        Recorder {
            store,
            secrets: Mutex::new(Vec::new()),
            subscriber,
            store_nanos: AtomicU64::new(0),
            tables: std::sync::Arc::new(RunTables::new()),
            table_file_rows,
        }
    }

    pub fn tables(&self) -> &std::sync::Arc<RunTables> {
        &self.tables
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
        let event = self.timed(|| {
            let stored = self.stored_outputs(node, &outputs)?;
            self.store.finish_node(node, elapsed_ms, attempts, &stored, summary).map_err(EngineError::Store)
        })?;
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
        let summary = Value::Object(self.summariser(&|text| text.to_owned()).walk_map(&outputs, 0));
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
        self.with_mask(|mask| self.summariser(mask).walk(value, 0))
    }

    /// [`Recorder::summary`] of an object's entries (a node's inputs), the object not copied.
    pub fn summary_of(&self, map: &Map<String, Value>) -> Map<String, Value> {
        self.with_mask(|mask| self.summariser(mask).walk_map(map, 0))
    }

    fn summariser<'a>(&'a self, mask: &'a dyn Fn(&str) -> String) -> Summariser<'a> {
        Summariser { mask, tables: &self.tables }
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
        if let Some(table) = self.tables.get(&value) {
            // A table keeps its handle unless a secret is in it: then the masked copy is the table.
            return match table.map_text(&|text| self.mask_text(text)) {
                Some(masked) => self.tables.put(masked),
                None => value,
            };
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

/// Makes record-sized copies of values: long strings cut, long lists shortened, deep values
/// elided, a table summarised as its first rows; each text kept (keys too) passed through `mask`
/// before it is cut.
struct Summariser<'a> {
    mask: &'a dyn Fn(&str) -> String,
    tables: &'a RunTables,
}

impl Summariser<'_> {
    /// The summary of an object's entries, the object at `depth`.
    fn walk_map(&self, map: &Map<String, Value>, depth: usize) -> Map<String, Value> {
        map.iter().map(|(k, v)| ((self.mask)(k), self.walk(v, depth + 1))).collect()
    }

    fn walk(&self, value: &Value, depth: usize) -> Value {
        if let Some(table) = self.tables.get(value) {
            // As the list of its rows would be summarised, only its first rows read.
            let rows = table.first_rows(MAX_ITEMS);
            return self.list(rows.iter(), table.row_count(), depth);
        }
        match value {
            _ if depth >= MAX_DEPTH => Value::String("…".into()),
            Value::String(s) => {
                let s = (self.mask)(s);
                let chars = s.chars().count();
                if chars > MAX_STRING {
                    Value::String(format!("{}… ({chars} chars)", s.chars().take(MAX_STRING).collect::<String>()))
                } else {
                    Value::String(s)
                }
            }
            Value::Array(items) => self.list(items.iter(), items.len(), depth),
            Value::Object(map) => Value::Object(self.walk_map(map, depth)),
            other => other.clone(),
        }
    }

    /// The summary of a list of `len` items, `items` its first ones.
    fn list<'v>(&self, items: impl Iterator<Item = &'v Value>, len: usize, depth: usize) -> Value {
        if depth >= MAX_DEPTH {
            return Value::String("…".into());
        }
        let mut kept: Vec<Value> = items.take(MAX_ITEMS).map(|v| self.walk(v, depth + 1)).collect();
        if len > MAX_ITEMS {
            kept.push(Value::String(format!("… {} more items", len - MAX_ITEMS)));
        }
        Value::Array(kept)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn summaries_cut_long_values() {
        let long = "x".repeat(500);
        let tables = RunTables::new();
        let summariser = Summariser { mask: &|t| t.to_owned(), tables: &tables };
        let summary = summariser.walk(&json!({"text": long, "rows": (0..60).collect::<Vec<_>>()}), 0);
        assert!(summary["text"].as_str().unwrap().ends_with("(500 chars)"));
        assert_eq!(summary["rows"].as_array().unwrap().len(), 51);
        assert_eq!(summary["rows"][50], "… 10 more items");
    }
}
