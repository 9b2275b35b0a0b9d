//! What a block is to the engine: a function from inputs to outputs that can be cancelled, logs,
//! writes artifacts, reports progress, may ask a person for input, reach a secret, drive the
//! run's browser and call the run's model.

use std::sync::Arc;

use futures::future::BoxFuture;
use planwright_runs::{ArtifactKind, InputAnswer, InputRequest, LogLevel, Progress, Reason};
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use crate::browser_slot::BrowserSlot;
use crate::workdir::Workdir;

/// A block's inputs or outputs: input name → value, output key → value.
pub type Values = Map<String, Value>;

/// A block: the implementation of one catalog id. Families live in crates of their own.
pub trait Block: Send + Sync {
    /// The catalog id this implements (`file.read_csv`).
    fn id(&self) -> &'static str;

    /// Runs the block. `inputs` are resolved (references replaced, secrets filled in) and
    /// defaults applied; the result holds every output the block produces. Long work must watch
    /// `ctx.cancel` and return [`BlockError::Cancelled`] promptly (timeouts and the stop button
    /// cancel through it).
    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>>;

    /// Whether the block reads tables by their handle (`ctx.tables`); the engine gives every
    /// other block the rows a handle stands for. A block that takes tables still takes rows.
    fn takes_tables(&self) -> bool {
        false
    }

    /// Reads again the table this block read from a file, as `source` (what it put with the
    /// table, [`crate::RunTables::put_read`]) says, for a resumed run; an error when the file is
    /// gone or is no longer the same. `None`: the block makes no such tables.
    fn reopen_table(&self, source: &Value, workdir: &Workdir) -> Option<Result<planwright_tables::Table, BlockError>> {
        let _ = (source, workdir);
        None
    }
}

/// Why a block did not produce outputs. Messages are for the person reading the run: what went
/// wrong and what would fix it, never a secret's value. Each is English text, and for the common
/// errors the same as a [`planwright_runs::RunMessage`] the studio says in the person's language.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BlockError {
    /// An input is wrong for this block (`path` escapes the work directory, a column is missing).
    #[error("{0}")]
    Input(Reason),
    /// The block's work failed (a file is unreadable, the server answered 500).
    #[error("{0}")]
    Failed(Reason),
    /// Something the block needs is not set up (no model is configured): another attempt
    /// cannot succeed, so the engine does not retry it, as with [`BlockError::Input`].
    #[error("{0}")]
    NotSetUp(Reason),
    /// A person declined or could not answer, and the block cannot go on without it.
    #[error("{0}")]
    NoAnswer(Reason),
    /// `ctx.cancel` fired.
    #[error("cancelled")]
    Cancelled,
}

impl BlockError {
    pub fn input(reason: impl Into<Reason>) -> BlockError {
        BlockError::Input(reason.into())
    }

    pub fn failed(reason: impl Into<Reason>) -> BlockError {
        BlockError::Failed(reason.into())
    }

    pub fn not_set_up(reason: impl Into<Reason>) -> BlockError {
        BlockError::NotSetUp(reason.into())
    }

    pub fn no_answer(reason: impl Into<Reason>) -> BlockError {
        BlockError::NoAnswer(reason.into())
    }
}

/// What a block may use while it runs.
#[derive(Clone)]
pub struct BlockContext {
    /// The node being run (`read`, `each[3]/fetch`).
    pub node: String,
    pub workdir: Workdir,
    pub cancel: CancellationToken,
    pub events: Arc<dyn BlockEvents>,
    pub input: Arc<dyn HumanInput>,
    /// The run's browser session, shared by its browser blocks; started by the first of them.
    pub browser: Arc<BrowserSlot>,
    /// The language model, when one is configured; the engine records every call made through it.
    pub models: Option<Arc<dyn planwright_llm::LlmClient>>,
    /// The run's secrets, by name, for the moment a block needs a value (typing a password).
    pub secrets: Arc<dyn BlockSecrets>,
    /// A folder of this node's own in the run's record (beside the run's log, in the data home,
    /// readable by its owner alone) for what the block keeps of its work — the objective
    /// runner's `steps.jsonl` and evidence. Not created until a block writes there.
    pub record_dir: std::path::PathBuf,
    /// The run's tables, for a block that makes one (it outputs the handle) or takes them.
    pub tables: Arc<crate::RunTables>,
}

impl BlockContext {
    /// A line for the run's log: English text, coded when the studio should say it in the
    /// person's language (`Reason::said`).
    pub fn log(&self, level: LogLevel, message: impl Into<Reason>) {
        self.events.log(&self.node, level, message.into());
    }

    pub fn artifact(&self, path: &std::path::Path, kind: ArtifactKind) {
        let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        self.events.artifact(&self.node, path, kind, bytes);
    }

    pub fn progress(&self, progress: Progress) {
        self.events.progress(&self.node, progress);
    }
}

/// How a block reaches the run's secrets: by name, at the moment it needs a value, so that a
/// secret travels as its placeholder (`{{PORTAL_PASSWORD}}`) everywhere else — in the plan, in
/// records, in what a model sees. Every value handed out is registered for masking in the run's
/// record before the block can use it.
pub trait BlockSecrets: Send + Sync {
    /// The value of secret `name`; [`BlockError::NotSetUp`] when it has none.
    fn reveal(&self, name: &str) -> Result<String, BlockError>;

    /// `text` with every secret value the run knows replaced by `***`: for what a block writes
    /// itself (a log of its own) from text a page or a server gave it.
    fn redact(&self, text: &str) -> String;
}

impl dyn BlockSecrets {
    /// `text` with each `{{NAME}}` placeholder replaced by the value of secret `NAME`.
    pub fn fill(&self, text: &str) -> Result<String, BlockError> {
        planwright_plan::reference::fill_placeholders(text, |name| self.reveal(name))
    }
}

/// Where a block's log lines, artifacts and progress go (the engine records them as run events,
/// masked, and forwards them to whoever watches).
pub trait BlockEvents: Send + Sync {
    fn log(&self, node: &str, level: LogLevel, message: Reason);
    fn artifact(&self, node: &str, path: &std::path::Path, kind: ArtifactKind, bytes: u64);
    fn progress(&self, node: &str, progress: Progress);
}

/// How a block asks a person. The engine answers from the studio, an answers file or a
/// terminal; the answer is validated against the request before it comes back.
pub trait HumanInput: Send + Sync {
    /// Waits for the answer to `request`. `Err` when no answer can come.
    fn ask<'a>(&'a self, node: &'a str, request: InputRequest) -> BoxFuture<'a, Result<InputAnswer, BlockError>>;
}
