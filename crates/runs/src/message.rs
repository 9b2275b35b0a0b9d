//! The run's messages as codes with parameters: the engine's own (a timeout, a skip, a halt …) and
//! the common block errors (an input left out, a path outside the work directory …). An event
//! carries its English text for the command line and the record, and beside it the same message
//! as a [`RunMessage`], which the studio says in the person's language (`ui/src/lib/i18n`, key
//! `run.said.<key>`). Free text from outside (an HTTP body, a page's message) stays a parameter,
//! never translated.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A message of the run with its parameters. Serialized as `{"key": "<snake_case>", "params":
/// {…}}` (no `params` for a message without any).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "key", content = "params", rename_all = "snake_case")]
pub enum RunMessage {
    /// An attempt ran past its policy's `timeout_ms`; its work was cancelled.
    TimedOut { ms: u64 },
    /// A loop ran past its policy's `timeout_ms`; its iterations were cancelled.
    LoopTimedOut { ms: u64 },
    /// Skipped: a node it reads was skipped.
    DependencySkipped { dependency: String },
    /// Skipped: its `when` is false.
    ConditionFalse { condition: String },
    /// Its `when` could not be evaluated (the evaluator's English reason in `detail`).
    ConditionUnreadable { detail: String },
    /// The run halted: this node failed (its own failure event says why).
    NodeHalted { node: String },
    /// Nodes failed under `on_error: continue`, and the run went on past them.
    FailuresContinued { failed: u64 },
    /// Stopped from outside before the end.
    StoppedBeforeEnd,
    /// A node waits for an answer nobody can give now: the fields it wants.
    WaitsForAnswer { node: String, wanted: String },
    /// As [`RunMessage::WaitsForAnswer`], and the policy says `on_unanswered: fail`.
    NobodyAnswered { node: String, wanted: String },
    /// An answer was refused (the fields and why, in English, in `fields`); the question stays.
    AnswerRefused { fields: String },
    /// The catalog has no such block.
    UnknownBlock { block: String },
    /// The block is in the catalog but not in this build.
    BlockNotBuilt { block: String },
    /// `foreach.input` is not a list.
    ForeachNotList,
    /// A `call` names a plan that is not registered.
    CalledPlanNotFound { plan: String },
    /// A called plan cannot be read, or is invalid (the reason in `detail`).
    CalledPlanInvalid { plan: String, detail: String },
    /// A secret has no value.
    SecretNotSet { name: String },
    /// A block input is left out.
    InputMissing { input: String },
    /// A block input is not text.
    InputNotText { input: String },
    /// A block input is not `true` or `false`.
    InputNotBoolean { input: String },
    /// A block input is not a whole number.
    InputNotInteger { input: String },
    /// A block input is not a list.
    InputNotList { input: String },
    /// A path input is empty.
    PathEmpty { input: String },
    /// A path input leads outside the run's work directory.
    PathOutsideWorkdir { input: String, path: String, workdir: String },
    /// The file a path input names is not in the work directory (the files that are there, in
    /// the English text).
    FileMissing { input: String, path: String },
    /// The path names a folder, not a file.
    FileIsFolder { input: String, path: String },
    /// The file is larger than a block reads.
    FileTooLarge { input: String, path: String, mb: u64, max_mb: u64 },
    /// An HTTP request got no complete answer in time.
    HttpTimedOut { method: String, url: String, seconds: String },
    /// An HTTP request was answered with an error status (the body, in the English text).
    HttpRefused { method: String, url: String, status: u16 },
    /// An HTTP request got no answer: the connection failed or broke (why, in the English text).
    HttpFailed { method: String, url: String },
    /// A block that needs a language model ran with none configured.
    ModelNotConfigured { block: String },
}

/// A message as the engine passes it on: the English text, and the same as a [`RunMessage`]
/// when it is one the studio says in the person's language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reason {
    pub text: String,
    pub said: Option<RunMessage>,
}

impl Reason {
    /// `text`, coded as `said`.
    pub fn said(said: RunMessage, text: impl Into<String>) -> Reason {
        Reason { text: text.into(), said: Some(said) }
    }
}

impl From<String> for Reason {
    fn from(text: String) -> Reason {
        Reason { text, said: None }
    }
}

impl From<&str> for Reason {
    fn from(text: &str) -> Reason {
        Reason { text: text.to_owned(), said: None }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_its_key_and_params() {
        let json = serde_json::to_value(RunMessage::TimedOut { ms: 3000 }).unwrap();
        assert_eq!(json, serde_json::json!({"key": "timed_out", "params": {"ms": 3000}}));
        let json = serde_json::to_value(RunMessage::StoppedBeforeEnd).unwrap();
        assert_eq!(json, serde_json::json!({"key": "stopped_before_end"}));
        let back: RunMessage = serde_json::from_value(serde_json::json!({"key": "stopped_before_end"})).unwrap();
        assert_eq!(back, RunMessage::StoppedBeforeEnd);
    }
    #[test]
    fn an_event_carries_its_code_and_an_old_one_without_reads_as_none() {
        let failed = crate::EventKind::NodeFailed {
            node: "fetch".into(),
            elapsed_ms: 300,
            attempts: 2,
            error: "timed out after 300 ms (policy timeout_ms); its work was cancelled".into(),
            timed_out: true,
            continued: false,
            said: Some(RunMessage::TimedOut { ms: 300 }),
        };
        let json = serde_json::to_value(&failed).unwrap();
        assert_eq!(json["said"], serde_json::json!({"key": "timed_out", "params": {"ms": 300}}));
        assert_eq!(serde_json::from_value::<crate::EventKind>(json).unwrap(), failed);
        // Schema 4 and before: no `said`.
        let old = r#"{"schema":4,"run_id":"r","seq":3,"at":"2026-11-27T04:48:00.731Z","type":"node_skipped","node":"save","reason":"its condition `x` is false"}"#;
        let event: crate::Event = serde_json::from_str(old).unwrap();
        assert_eq!(
            event.kind,
            crate::EventKind::NodeSkipped {
                node: "save".into(),
                reason: "its condition `x` is false".into(),
                said: None
            }
        );
        let old = r#"{"schema":4,"run_id":"r","seq":4,"at":"2026-11-27T04:48:00.731Z","type":"log","node":null,"level":"warn","message":"m"}"#;
        assert!(matches!(
            serde_json::from_str::<crate::Event>(old).unwrap().kind,
            crate::EventKind::Log { said: None, .. }
        ));
    }
}
