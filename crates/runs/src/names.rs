//! The names events and statuses have in JSON, for the SQLite columns (`events.type`,
//! `events.node`, `runs.status`) and for readers filtering events.

use crate::{EventKind, RunStatus};

impl EventKind {
    /// The `type` tag this event has in JSON (`run_started`, `node_finished` …).
    pub fn type_name(&self) -> &'static str {
        match self {
            EventKind::RunStarted { .. } => "run_started",
            EventKind::RunFinished { .. } => "run_finished",
            EventKind::NodeStarted { .. } => "node_started",
            EventKind::NodeFinished { .. } => "node_finished",
            EventKind::NodeSkipped { .. } => "node_skipped",
            EventKind::NodeFailed { .. } => "node_failed",
            EventKind::NodeRetried { .. } => "node_retried",
            EventKind::InputRequested { .. } => "input_requested",
            EventKind::InputReceived { .. } => "input_received",
            EventKind::Log { .. } => "log",
            EventKind::Artifact { .. } => "artifact",
            EventKind::Progress { .. } => "progress",
            EventKind::ModelCall { .. } => "model_call",
        }
    }

    /// The node path the event is about, if any.
    pub fn node(&self) -> Option<&str> {
        match self {
            EventKind::RunStarted { .. } | EventKind::RunFinished { .. } => None,
            EventKind::Log { node, .. } => node.as_deref(),
            EventKind::NodeStarted { node, .. }
            | EventKind::NodeFinished { node, .. }
            | EventKind::NodeSkipped { node, .. }
            | EventKind::NodeFailed { node, .. }
            | EventKind::NodeRetried { node, .. }
            | EventKind::InputRequested { node, .. }
            | EventKind::InputReceived { node, .. }
            | EventKind::Artifact { node, .. }
            | EventKind::Progress { node, .. }
            | EventKind::ModelCall { node, .. } => Some(node),
        }
    }
}

impl RunStatus {
    /// The status in words, for people.
    pub fn words(self) -> &'static str {
        match self {
            RunStatus::Running => "running",
            RunStatus::Succeeded => "succeeded",
            RunStatus::Failed => "failed",
            RunStatus::Stopped => "stopped",
            RunStatus::WaitingForInput => "waiting for input",
            RunStatus::Interrupted => "interrupted",
        }
    }

    /// The status as written in JSON (`succeeded`, `waiting_for_input` …).
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Running => "running",
            RunStatus::Succeeded => "succeeded",
            RunStatus::Failed => "failed",
            RunStatus::Stopped => "stopped",
            RunStatus::WaitingForInput => "waiting_for_input",
            RunStatus::Interrupted => "interrupted",
        }
    }

    /// The status named `name` in JSON.
    pub fn from_name(name: &str) -> Option<RunStatus> {
        [
            RunStatus::Running,
            RunStatus::Succeeded,
            RunStatus::Failed,
            RunStatus::Stopped,
            RunStatus::WaitingForInput,
            RunStatus::Interrupted,
        ]
        .into_iter()
        .find(|status| status.as_str() == name)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use crate::{ArtifactKind, Counts, EventKind, LogLevel, RunStatus};

    fn one_of_each() -> Vec<EventKind> {
        let node = || "loop[3]/inner".to_string();
        vec![
            EventKind::RunStarted {
                plan_id: "p".into(),
                plan_version: "1".into(),
                plan_path: None,
                vars: json!({}),
                workdir: "/w".into(),
                resumed_after: None,
            },
            EventKind::RunFinished {
                status: RunStatus::Succeeded,
                counts: Counts::default(),
                elapsed_ms: 1,
                reason: None,
                said: None,
            },
            EventKind::NodeStarted { node: node(), attempt: 1, inputs: json!({}) },
            EventKind::NodeFinished { node: node(), elapsed_ms: 1, attempts: 1, outputs: json!({}) },
            EventKind::NodeSkipped { node: node(), reason: "r".into(), said: None },
            EventKind::NodeFailed {
                node: node(),
                elapsed_ms: 1,
                attempts: 1,
                error: "e".into(),
                timed_out: false,
                continued: false,
                said: None,
                outputs: None,
            },
            EventKind::NodeRetried { node: node(), attempt: 1, error: "e".into(), backoff_ms: 5, said: None },
            EventKind::InputRequested {
                node: node(),
                request: serde_json::from_value(json!({"mode": "inquire", "message": "?"})).unwrap(),
            },
            EventKind::Progress {
                node: node(),
                progress: crate::Progress::Items { done: 1, total: 3, unit: "documents".into() },
            },
            EventKind::InputReceived { node: node(), answer: json!(true) },
            EventKind::Log { node: Some(node()), level: LogLevel::Info, message: "m".into(), said: None },
            EventKind::Artifact { node: node(), path: "/a".into(), kind: ArtifactKind::File, bytes: 3 },
            EventKind::ModelCall {
                node: node(),
                tier: "fast".into(),
                provider: "openai".into(),
                model: "m".into(),
                messages: json!([{"role": "user", "content": "hi"}]),
                response: Some("hello".into()),
                error: None,
                input_tokens: 3,
                output_tokens: 1,
                latency_ms: 20,
            },
        ]
    }

    #[test]
    fn type_names_and_nodes_match_the_serde_form() {
        for kind in one_of_each() {
            let value = serde_json::to_value(&kind).unwrap();
            assert_eq!(value["type"], Value::from(kind.type_name()), "{kind:?}");
            assert_eq!(value.get("node").and_then(Value::as_str), kind.node(), "{kind:?}");
        }
    }

    #[test]
    fn status_names_match_the_serde_form() {
        for name in ["running", "succeeded", "failed", "stopped", "waiting_for_input", "interrupted"] {
            let status = RunStatus::from_name(name).unwrap();
            assert_eq!(serde_json::to_value(status).unwrap(), Value::from(name));
            assert_eq!(status.as_str(), name);
        }
        assert_eq!(RunStatus::from_name("done"), None);
    }
}
