//! Helpers shared by the integration tests (each test file uses a part of them).
#![allow(dead_code)]

use std::path::Path;

use planwright_runs::{Counts, DataHome, Event, EventKind, LogLevel, RunStatus};
use serde_json::{json, Map, Value};
use tempfile::TempDir;

/// A fresh data home in a temporary folder (kept while the `TempDir` lives).
pub fn temp_home() -> (TempDir, DataHome) {
    let dir = tempfile::tempdir().unwrap();
    let home = DataHome::at(dir.path().join("home"));
    (dir, home)
}

pub fn run_started(plan_id: &str, resumed_after: Option<u64>) -> EventKind {
    EventKind::RunStarted {
        plan_id: plan_id.into(),
        plan_version: "1".into(),
        plan_path: None,
        vars: json!({"month": "2025-03"}),
        workdir: "/work".into(),
        resumed_after,
    }
}

pub fn run_finished(status: RunStatus, counts: Counts) -> EventKind {
    EventKind::RunFinished { status, counts, elapsed_ms: 12, reason: None, said: None }
}

pub fn node_started(node: &str) -> EventKind {
    EventKind::NodeStarted { node: node.into(), attempt: 1, inputs: json!({"path": "in.csv"}) }
}

pub fn node_failed(node: &str) -> EventKind {
    EventKind::NodeFailed {
        node: node.into(),
        elapsed_ms: 3,
        attempts: 2,
        error: "the file is missing".into(),
        timed_out: false,
        continued: false,
        said: None,
        outputs: None,
    }
}

pub fn log(message: &str) -> EventKind {
    EventKind::Log { node: None, level: LogLevel::Info, message: message.into(), said: None }
}

pub fn input_requested(node: &str) -> EventKind {
    let request = serde_json::from_value(json!({"mode": "confirm", "message": "Save them?"})).unwrap();
    EventKind::InputRequested { node: node.into(), request }
}

/// A JSON object from a `json!` value.
pub fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

/// The events of a JSONL log, checking that every line is exactly the serde form of its event.
pub fn read_jsonl(path: &Path) -> Vec<Event> {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.is_empty() || text.ends_with('\n'), "the log does not end with a newline");
    text.lines()
        .map(|line| {
            let event: Event = serde_json::from_str(line).unwrap_or_else(|e| panic!("bad line {line:?}: {e}"));
            assert_eq!(serde_json::to_string(&event).unwrap(), line);
            event
        })
        .collect()
}

/// Asserts that events are numbered 1..=n in order.
pub fn assert_dense(events: &[Event]) {
    let seqs: Vec<u64> = events.iter().map(|e| e.seq).collect();
    let expected: Vec<u64> = (1..=events.len() as u64).collect();
    assert_eq!(seqs, expected);
}
