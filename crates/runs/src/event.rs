//! The run event: one type, streamed to subscribers (the CLI, later the studio) and written to
//! the run's JSONL log and to SQLite. `docs/events.md` documents it; bump
//! [`EVENT_SCHEMA_VERSION`] on any change a reader would notice.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::message::RunMessage;
use crate::objective::ObjectiveEvent;
use crate::planning::{PlanningEntry, TaskEvent};
use crate::InputRequest;

/// Version of the event schema written in every event. 2: `progress` events; `input_requested`
/// typed (the same JSON as before). 3: `objective` progress. 4: `planning` and `task` progress;
/// objective steps carry their time, tokens, decider, approach, pass and screenshot, actions
/// their locator. 5: `said` on `run_finished`, `node_skipped`, `node_failed`, `node_retried` and
/// `log`: the message as a code with parameters (records written before read as null). 6:
/// `outputs` on `node_failed`: what the block produced before it failed (before: read as null).
pub const EVENT_SCHEMA_VERSION: u32 = 6;

/// One thing that happened in a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Event {
    /// [`EVENT_SCHEMA_VERSION`] when written.
    pub schema: u32,
    pub run_id: String,
    /// 1, 2, 3 … within the run, without gaps, across resumes.
    pub seq: u64,
    /// RFC 3339 UTC with milliseconds.
    pub at: String,
    #[serde(flatten)]
    pub kind: EventKind,
}

/// A node's place in a run: its id, inside loop bodies `loop[3]/inner` (iteration 3, 0-based),
/// inside called plans `call/inner`.
pub type NodePath = String;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventKind {
    RunStarted {
        plan_id: String,
        plan_version: String,
        /// The plan file, when the run started from one.
        plan_path: Option<String>,
        /// The vars the run uses (secrets never appear here: they are not vars).
        vars: Value,
        /// The work directory relative paths resolve against.
        workdir: String,
        /// Set when this start resumes an interrupted run: the sequence number it resumes after.
        resumed_after: Option<u64>,
    },
    RunFinished {
        status: RunStatus,
        counts: Counts,
        elapsed_ms: u64,
        /// Why the run ended that way, in a sentence (the first failure, "stopped by the user" …).
        reason: Option<String>,
        /// The same as a code with parameters, when the engine said it (see [`RunMessage`]);
        /// absent from records of schema 4 and before.
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(optional = nullable))]
        said: Option<RunMessage>,
    },
    NodeStarted {
        node: NodePath,
        /// 1 for the first attempt.
        attempt: u32,
        /// Inputs as summarised for the record: long strings cut, bytes as a length, secrets masked.
        inputs: Value,
    },
    NodeFinished {
        node: NodePath,
        elapsed_ms: u64,
        attempts: u32,
        /// Outputs summarised like inputs (the full values are stored separately for resume).
        outputs: Value,
    },
    NodeSkipped {
        node: NodePath,
        reason: String,
        /// The same as a code with parameters, when the engine said it (see [`RunMessage`]);
        /// absent from records of schema 4 and before.
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(optional = nullable))]
        said: Option<RunMessage>,
    },
    NodeFailed {
        node: NodePath,
        elapsed_ms: u64,
        attempts: u32,
        error: String,
        timed_out: bool,
        /// `on_error: continue`: the run goes on; dependants receive null (or the outputs below),
        /// and this failure counts as a failure, never as a success.
        continued: bool,
        /// The same as a code with parameters, when the engine said it (see [`RunMessage`]);
        /// absent from records of schema 4 and before.
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(optional = nullable))]
        said: Option<RunMessage>,
        /// What the block produced before it failed, summarised like `node_finished`'s (the
        /// objective runner's report of objectives it could not complete); absent from records of
        /// schema 5 and before.
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(optional = nullable))]
        outputs: Option<Value>,
    },
    NodeRetried {
        node: NodePath,
        /// The attempt that failed.
        attempt: u32,
        error: String,
        /// How long the engine waits before the next attempt.
        backoff_ms: u64,
        /// The same as a code with parameters, when the engine said it (see [`RunMessage`]);
        /// absent from records of schema 4 and before.
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(optional = nullable))]
        said: Option<RunMessage>,
    },
    InputRequested {
        node: NodePath,
        /// What is asked: mode, message and the requirements or options (see `docs/events.md`).
        request: InputRequest,
    },
    InputReceived {
        node: NodePath,
        /// The accepted answer, summarised and masked like inputs.
        answer: Value,
    },
    Log {
        node: Option<NodePath>,
        level: LogLevel,
        message: String,
        /// The same as a code with parameters, when the engine said it (see [`RunMessage`]);
        /// absent from records of schema 4 and before.
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(optional = nullable))]
        said: Option<RunMessage>,
    },
    Artifact {
        node: NodePath,
        /// Absolute path of the file written.
        path: String,
        kind: ArtifactKind,
        bytes: u64,
    },
    /// Typed progress a block reports while it works (see [`Progress`]); masked like every event.
    Progress { node: NodePath, progress: Progress },
    /// One call to a language model made by a node: what was sent and what came back, masked
    /// like every event (secret values never reach a model: the validator refuses them in inputs
    /// sent to one).
    ModelCall {
        node: NodePath,
        /// `creative`, `fast` or `evaluator`.
        tier: String,
        provider: String,
        /// The model that answered; empty when the call failed before any did.
        model: String,
        /// The messages sent: `[{role, content}]`.
        messages: Value,
        /// The answer's text, when one came.
        response: Option<String>,
        /// Why no usable answer came.
        error: Option<String>,
        input_tokens: u64,
        output_tokens: u64,
        latency_ms: u64,
    },
}

/// What a block reports of its work beyond log lines and artifacts, typed so that a watcher can
/// show it (a bar, a checklist). Readers ignore kinds they do not know.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Progress {
    /// `done` of `total` items of the block's work: documents read, rows written, pages fetched.
    Items {
        done: u64,
        total: u64,
        /// What an item is, plural, for people: `documents`, `rows`.
        unit: String,
    },
    /// A step of a run of browser objectives changed (see `ObjectiveProgress`).
    Objective(Box<ObjectiveEvent>),
    /// A line of a runner node's planning history: a plan, a reflection, a revision.
    Planning(Box<PlanningEvent>),
    /// The task loop around the objectives moved on: a pass began or was judged, the decision
    /// went to the person, the person chose.
    Task(Box<TaskEvent>),
}

/// A `planning` progress event: the history line, as written to the node's `planning.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PlanningEvent {
    pub entry: PlanningEntry,
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    Running,
    Succeeded,
    /// At least one node failed (with `continue`, the run went on, but it did not succeed).
    Failed,
    /// Stopped from outside (the studio's stop button, Ctrl+C).
    Stopped,
    /// Paused for human input that nobody can give now; `planwright resume` continues it.
    WaitingForInput,
    /// The process ended without finishing the record (killed, machine off): resumable.
    Interrupted,
}

/// Node counts of a run, from what really happened.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub succeeded: u64,
    pub failed: u64,
    pub skipped: u64,
    /// Retries made (attempts beyond the first), over all nodes.
    pub retried: u64,
    /// Calls to language models, and the tokens they used as the servers reported them.
    /// (Absent from records written before model calls were counted: read as 0.)
    #[serde(default)]
    pub model_calls: u64,
    #[serde(default)]
    pub input_tokens: u64,
    #[serde(default)]
    pub output_tokens: u64,
    /// Nodes that ran to their end without passing (a `passed` output of false: a browser
    /// step's objectives not all done), counted among `succeeded` too. (Absent from records
    /// written before: read as 0.)
    #[serde(default)]
    pub not_passed: u64,
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LogLevel {
    Debug,
    Info,
    Warn,
    Error,
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArtifactKind {
    File,
    Screenshot,
    Report,
}
