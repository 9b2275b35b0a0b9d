//! The Planwright run engine: executes a validated plan with real concurrency — a node starts as
//! soon as what it depends on has settled — under each node's policy, records every event
//! (masked) through the run store, and resumes interrupted runs without re-running finished
//! nodes. A run has one browser session, started by its first browser step and closed when the
//! run ends, however it ends. It knows the plan format, the catalog and the blocks' trait; it
//! knows nothing of any user interface: the CLI and the studio drive it through [`Engine`],
//! [`RunOptions`] and the [`AnswerSource`] they provide.

mod call;
mod input;
mod looping;
mod models;
mod node;
mod record;
mod run;
mod schedule;
mod values;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use planwright_block::{Block, BrowserSlot, RunTables, Workdir};
use planwright_catalog::Catalog;
use planwright_plan::{load_plan, Finding, LoadError, Plan};
use planwright_runs::{new_run_id, Counts, Event, EventKind, Reason, RunMessage, RunStatus, RunStore, StoreError};
use planwright_validate::{validate_loaded, PlanSource, Validation};
use serde_json::{Map, Value};
use tokio::sync::mpsc::UnboundedSender;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

pub use input::{AnswerSource, GivenAnswers, NoAnswers};
pub use planwright_block::BrowserSettings;
pub use values::{EnvSecrets, SecretSource};

use crate::record::Recorder;
pub use crate::record::{recorded_table, RecordedTable};
use crate::run::{Abort, RunCtx};
use crate::schedule::{run_graph, GraphScope};
use crate::values::Env;

/// Runs plans. Cheap to clone.
#[derive(Clone)]
pub struct Engine {
    catalog: Arc<Catalog>,
    blocks: Arc<HashMap<String, Arc<dyn Block>>>,
    plans: Arc<dyn PlanSource + Send + Sync>,
}

/// What to run.
pub struct RunRequest {
    /// The plan file's text (stored with the run, so that resume runs exactly this plan).
    pub plan_text: String,
    pub plan_path: Option<PathBuf>,
    /// Values that replace the plan's var defaults (`--var k=v`).
    pub vars: Map<String, Value>,
}

/// How to run it.
pub struct RunOptions {
    /// Where relative paths in blocks resolve; blocks may not leave it.
    pub workdir: PathBuf,
    pub secrets: Arc<dyn SecretSource>,
    pub answers: Arc<dyn AnswerSource>,
    /// Cancelling it stops the run within a second, leaving a consistent record.
    pub stop: CancellationToken,
    /// Every event, as recorded, for a live display.
    pub events: Option<UnboundedSender<Event>>,
    /// Where the run's browser comes from, should a browser step need one:
    /// [`BrowserSettings::from_env`] for what the user set up, `BrowserSettings::default()` for a
    /// headless Chromium found on the system.
    pub browser: BrowserSettings,
    /// The language model `ai.*` blocks use (`planwright_llm::Settings` builds it); `None`
    /// when none is configured, and those blocks then fail saying so. Every call is recorded.
    pub models: Option<Arc<dyn planwright_llm::LlmClient>>,
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOutcome {
    pub run_id: String,
    pub status: RunStatus,
    pub counts: Counts,
    pub reason: Option<String>,
    /// How long this process spent writing the run's record (SQLite and JSONL).
    pub recording: std::time::Duration,
}

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("the plan cannot be read: {0}")]
    Load(#[from] LoadError),
    #[error("the plan is invalid ({} error(s)); run `planwright validate` for the details", .0.len())]
    Invalid(Vec<Finding>),
    #[error("var `{0}` is not one of the plan's vars ({1})")]
    UnknownVar(String, String),
    /// Checked before any node runs, so that a run never stops halfway for a password.
    #[error(
        "the plan's secret(s) {} have no value; set each in the environment as PLANWRIGHT_SECRET_<NAME>",
        .0.iter().map(|name| format!("`{name}`")).collect::<Vec<_>>().join(", ")
    )]
    MissingSecrets(Vec<String>),
    /// The plan's open questions: vars given at run time (a `null` default) with no value. Checked
    /// before any node runs, so that a run never fails halfway for want of an answer.
    #[error(
        "the plan's var(s) {} have no value; give each with --var NAME=VALUE (they are the questions the plan \
         still asks)",
        .0.iter().map(|name| format!("`{name}`")).collect::<Vec<_>>().join(", ")
    )]
    MissingVars(Vec<String>),
    #[error("work directory {0}: {1}")]
    Workdir(PathBuf, std::io::Error),
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A large table could not be kept in the run's folder.
    #[error(transparent)]
    TableFile(#[from] planwright_tables::TableFileError),
    #[error("{TABLE_FILE_ROWS_VAR} is {0:?}; give the number of rows above which a table output is kept as a file, e.g. 10000")]
    TableFileRows(String),
    #[error("run {0} cannot be resumed: {1}")]
    NotResumable(String, String),
    /// A recorded table's source (the file it was read from) cannot be read as it was.
    #[error("the table cannot be read again from the file it was read from: {0}")]
    TableSource(String),
}

/// Where the threshold for keeping a table output as a file ([`DEFAULT_TABLE_FILE_ROWS`]) is set.
pub const TABLE_FILE_ROWS_VAR: &str = "PLANWRIGHT_TABLE_FILE_ROWS";
/// A table output of more rows than this is recorded as an Arrow IPC file, not as rows.
pub const DEFAULT_TABLE_FILE_ROWS: usize = 10_000;

/// The threshold the environment sets ([`TABLE_FILE_ROWS_VAR`]), or the default.
fn table_file_rows() -> Result<usize, EngineError> {
    match std::env::var(TABLE_FILE_ROWS_VAR) {
        Err(_) => Ok(DEFAULT_TABLE_FILE_ROWS),
        Ok(text) => text.trim().parse().map_err(|_| EngineError::TableFileRows(text)),
    }
}

impl Engine {
    pub fn new(catalog: Arc<Catalog>, blocks: Vec<Arc<dyn Block>>, plans: Arc<dyn PlanSource + Send + Sync>) -> Engine {
        let blocks = blocks.into_iter().map(|b| (b.id().to_owned(), b)).collect();
        Engine { catalog, blocks: Arc::new(blocks), plans }
    }

    /// Validates and runs a plan to its end (or until stopped or waiting for input).
    pub async fn run(
        &self,
        store: &RunStore,
        request: RunRequest,
        options: RunOptions,
    ) -> Result<RunOutcome, EngineError> {
        let (plan, validation) = self.checked(&request.plan_text)?;
        let mut vars: Map<String, Value> = plan.vars.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        for (name, value) in request.vars {
            if !vars.contains_key(&name) {
                return Err(EngineError::UnknownVar(name, plan.vars.keys().cloned().collect::<Vec<_>>().join(", ")));
            }
            vars.insert(name, value);
        }
        missing_vars(&plan, &vars)?;
        missing_secrets(&plan, options.secrets.as_ref())?;
        let workdir = Workdir::new(&options.workdir).map_err(|e| EngineError::Workdir(options.workdir.clone(), e))?;
        // Every setting is read before the run's record begins: a refused one leaves no record.
        let table_file_rows = table_file_rows()?;
        let run_id = new_run_id();
        let recorder = store.begin(&run_id, &plan.id, &request.plan_text, request.plan_path.as_deref())?;
        let recorder = Arc::new(Recorder::new(recorder, options.events.clone(), table_file_rows));
        recorder.emit(EventKind::RunStarted {
            plan_id: plan.id.clone(),
            plan_version: plan.version.clone(),
            plan_path: request.plan_path.map(|p| p.display().to_string()),
            vars: Value::Object(vars.clone()),
            workdir: workdir.root().display().to_string(),
            resumed_after: None,
        })?;
        let ctx = self.context(recorder, workdir, &options, HashMap::new(), HashMap::new());
        let span = tracing::info_span!("run", run_id = %run_id, plan = %plan.id);
        self.drive(&ctx, &plan, &validation.analysis, vars, &options, None).instrument(span).await
    }

    /// Continues an interrupted, stopped, failed or waiting run from its record: nodes that
    /// finished keep their stored outputs and do not run again; answers given are reused.
    pub async fn resume(&self, store: &RunStore, run_id: &str, options: RunOptions) -> Result<RunOutcome, EngineError> {
        let summary = store.summary(run_id)?;
        if matches!(summary.status, RunStatus::Succeeded | RunStatus::Running) {
            let why = if summary.status == RunStatus::Running { "it is still running" } else { "it succeeded" };
            return Err(EngineError::NotResumable(run_id.to_owned(), why.to_owned()));
        }
        let (plan_text, plan_path) = store.plan(run_id)?;
        let (plan, validation) = self.checked(&plan_text)?;
        missing_secrets(&plan, options.secrets.as_ref())?;
        let events = store.events(run_id)?;
        let last_seq = events.last().map_or(0, |e| e.seq);
        let Some((vars, workdir)) = events.iter().find_map(|e| match &e.kind {
            EventKind::RunStarted { vars, workdir, .. } => {
                Some((vars.as_object().cloned().unwrap_or_default(), PathBuf::from(workdir)))
            }
            _ => None,
        }) else {
            return Err(EngineError::NotResumable(run_id.to_owned(), "its record has no start".into()));
        };
        let workdir = Workdir::new(&workdir).map_err(|e| EngineError::Workdir(workdir.clone(), e))?;
        let table_file_rows = table_file_rows()?;
        let recorder = Arc::new(Recorder::new(store.resume(run_id)?, options.events.clone(), table_file_rows));
        recorder.emit(EventKind::RunStarted {
            plan_id: plan.id.clone(),
            plan_version: plan.version.clone(),
            plan_path: plan_path.map(|p| p.display().to_string()),
            vars: Value::Object(vars.clone()),
            workdir: workdir.root().display().to_string(),
            resumed_after: Some(last_seq),
        })?;
        let finished = restored_outputs(self, &recorder, &workdir, store.finished_outputs(run_id)?)?;
        let ctx = self.context(recorder, workdir, &options, finished, store.answers(run_id)?);
        let span = tracing::info_span!("resume", run_id = %run_id, plan = %plan.id);
        self.drive(&ctx, &plan, &validation.analysis, vars, &options, Some(store)).instrument(span).await
    }

    /// The plan in `text`, loaded and validated; only a valid plan runs.
    fn checked(&self, text: &str) -> Result<(Plan, Validation), EngineError> {
        let loaded = load_plan(text)?;
        let validation = validate_loaded(&loaded, &self.catalog, self.plans.as_ref());
        match loaded.plan {
            Some(plan) if validation.is_valid() => Ok((plan, validation)),
            _ => Err(EngineError::Invalid(validation.errors().cloned().collect())),
        }
    }

    fn context(
        &self,
        recorder: Arc<Recorder>,
        workdir: Workdir,
        options: &RunOptions,
        finished: HashMap<String, Map<String, Value>>,
        answers: HashMap<String, Value>,
    ) -> RunCtx {
        RunCtx {
            engine: self.clone(),
            tables: recorder.tables().clone(),
            recorder,
            workdir,
            secrets: options.secrets.clone(),
            answers: options.answers.clone(),
            browser: Arc::new(BrowserSlot::new(options.browser.clone())),
            browser_turn: tokio::sync::Mutex::new(()),
            finished,
            stored_answers: Arc::new(answers),
            counts: Arc::new(Mutex::new(Counts::default())),
            models: options.models.clone(),
            called: Mutex::new(HashMap::new()),
            declared_secrets: Mutex::default(),
        }
    }

    /// Runs the top-level graph and records how the run ended. `resumed` gives the store when
    /// the counts must cover the whole record, not only this process's part.
    async fn drive(
        &self,
        ctx: &RunCtx,
        plan: &Plan,
        analysis: &planwright_validate::GraphAnalysis,
        vars: Map<String, Value>,
        options: &RunOptions,
        resumed: Option<&RunStore>,
    ) -> Result<RunOutcome, EngineError> {
        let started = Instant::now();
        ctx.register_secrets(&plan.secrets);
        let scope = GraphScope {
            prefix: String::new(),
            env: Arc::new(Env { vars, nodes: HashMap::new(), parent: None }),
            policy: plan.policy.unwrap_or_default(),
        };
        let outcome = run_graph(ctx, &plan.graph, analysis, scope, options.stop.child_token()).await;
        // Nothing runs any more: the browser goes before the run is recorded as ended, whatever
        // the outcome (a waiting run resumes with a new browser).
        ctx.browser.close().await;
        let counts = match resumed {
            Some(store) => counts_from_record(&store.events(ctx.recorder.run_id())?),
            None => *ctx.counts.lock().unwrap_or_else(|e| e.into_inner()),
        };
        let (status, reason) = match outcome {
            Ok(_) if counts.failed == 0 => (RunStatus::Succeeded, None),
            Ok(_) => {
                let text = format!("{} node(s) failed and the run continued past them", counts.failed);
                (RunStatus::Failed, Some(Reason::said(RunMessage::FailuresContinued { failed: counts.failed }, text)))
            }
            Err(Abort::Halted(why)) => (RunStatus::Failed, Some(why)),
            Err(Abort::Stopped) => {
                (RunStatus::Stopped, Some(Reason::said(RunMessage::StoppedBeforeEnd, "stopped before the end")))
            }
            Err(Abort::Waiting(why)) => (RunStatus::WaitingForInput, Some(why)),
            // The store's own error (a full disk, a locked database), with its type, to the edge.
            Err(Abort::Record(error)) => return Err(error),
        };
        let (reason, said) = match reason {
            Some(reason) => {
                let (text, said) = reason.into_parts();
                (Some(ctx.recorder.mask_text(&text)), said)
            }
            None => (None, None),
        };
        ctx.recorder.emit(EventKind::RunFinished {
            status,
            counts,
            elapsed_ms: started.elapsed().as_millis() as u64,
            reason: reason.clone(),
            said,
        })?;
        Ok(RunOutcome {
            run_id: ctx.recorder.run_id().to_owned(),
            status,
            counts,
            reason,
            recording: ctx.recorder.store_time(),
        })
    }
}

impl Engine {
    /// Reads a table's `$table_source` again (through the block that read it first) into
    /// `tables`, giving its handle; a source read once, however many tables are rows of it.
    fn reopener<'a>(
        &'a self,
        workdir: &'a Workdir,
        tables: &'a RunTables,
    ) -> impl FnMut(&Value) -> Result<Value, String> + 'a {
        let mut reopened: HashMap<String, Value> = HashMap::new();
        move |source: &Value| {
            let key = source.to_string();
            if let Some(handle) = reopened.get(&key) {
                return Ok(handle.clone());
            }
            let block = source.get("block").and_then(Value::as_str).and_then(|id| self.blocks.get(id));
            let table = match block.and_then(|block| block.reopen_table(source, workdir)) {
                Some(Ok(table)) => table,
                Some(Err(error)) => return Err(error.to_string()),
                None => return Err(format!("no block of this build reads the table's source again ({source})")),
            };
            let handle = tables.put_read(table, source.clone());
            reopened.insert(key, handle.clone());
            Ok(handle)
        }
    }

    /// The whole table a run's record keeps for `value` (one of a finished node's outputs as
    /// `RunStore::finished_outputs` gives them): read back from its file in `node_dir` (the
    /// node's folder), or again from the file it was read from in `workdir` — what a person
    /// opens beyond the record's preview. `None` when `value` is not a table the record keeps
    /// that way (a small table is kept as its rows).
    pub fn open_recorded_table(
        &self,
        value: &Value,
        node_dir: &Path,
        workdir: &Path,
    ) -> Result<Option<Arc<planwright_tables::Table>>, EngineError> {
        if recorded_table(value).is_none() {
            return Ok(None);
        }
        let workdir = Workdir::new(workdir).map_err(|e| EngineError::Workdir(workdir.to_owned(), e))?;
        let tables = RunTables::new();
        let mut reopen = self.reopener(&workdir, &tables);
        let handle = match record::restore_tables(&tables, node_dir, value.clone(), &mut reopen) {
            Ok(handle) => handle,
            Err(record::RestoreError::Record(error)) => return Err(EngineError::TableFile(error)),
            Err(record::RestoreError::Source(why)) => return Err(EngineError::TableSource(why)),
        };
        Ok(tables.get(&handle))
    }
}

/// A resumed run's finished outputs, each table read back from where the record kept it. A node
/// whose table file is gone or changed runs again, as if it had not finished; a file a table was
/// read from that changed ends the resume (the run's later steps used it as it was).
fn restored_outputs(
    engine: &Engine,
    recorder: &Recorder,
    workdir: &Workdir,
    finished: HashMap<String, Map<String, Value>>,
) -> Result<HashMap<String, Map<String, Value>>, EngineError> {
    let mut reopen = engine.reopener(workdir, recorder.tables());
    let mut restored = HashMap::with_capacity(finished.len());
    for (node, outputs) in finished {
        let dir = recorder.node_dir(&node);
        match record::restore_tables(recorder.tables(), &dir, Value::Object(outputs), &mut reopen) {
            Ok(Value::Object(outputs)) => {
                restored.insert(node, outputs);
            }
            Ok(_) => unreachable!("restoring keeps an object an object"),
            Err(record::RestoreError::Record(error)) => {
                recorder.emit(EventKind::Log {
                    node: Some(node.clone()),
                    level: planwright_runs::LogLevel::Warn,
                    message: format!("{error}; `{node}` runs again"),
                    said: None,
                })?;
            }
            Err(record::RestoreError::Source(why)) => {
                return Err(EngineError::NotResumable(recorder.run_id().to_owned(), format!("`{node}`: {why}")));
            }
        }
    }
    Ok(restored)
}

/// Every var given at run time (a `null` default) that has no value — none, `null`, or blank
/// text — as one error.
fn missing_vars(plan: &Plan, vars: &Map<String, Value>) -> Result<(), EngineError> {
    let missing: Vec<String> = plan
        .vars
        .iter()
        .filter(|(_, default)| default.is_null())
        .filter(|(name, _)| {
            vars.get(*name).is_none_or(|v| v.is_null() || v.as_str().is_some_and(|s| s.trim().is_empty()))
        })
        .map(|(name, _)| name.clone())
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(EngineError::MissingVars(missing))
    }
}

/// Every secret the plan declares that `secrets` has no value for, as one error.
fn missing_secrets(plan: &Plan, secrets: &dyn SecretSource) -> Result<(), EngineError> {
    let missing: Vec<String> = plan.secrets.iter().filter(|name| secrets.secret(name).is_none()).cloned().collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(EngineError::MissingSecrets(missing))
    }
}

/// Counts over a whole record (a resumed run spans processes): a node counts once, by its last
/// outcome; every retry counts.
fn counts_from_record(events: &[Event]) -> Counts {
    let mut last: HashMap<&str, &'static str> = HashMap::new();
    let mut counts = Counts::default();
    for event in events {
        match &event.kind {
            EventKind::NodeFinished { node, .. } => {
                last.insert(node, "succeeded");
            }
            EventKind::NodeFailed { node, .. } => {
                last.insert(node, "failed");
            }
            EventKind::NodeSkipped { node, .. } => {
                last.insert(node, "skipped");
            }
            EventKind::NodeRetried { .. } => counts.retried += 1,
            EventKind::ModelCall { input_tokens, output_tokens, .. } => {
                counts.model_calls += 1;
                counts.input_tokens += input_tokens;
                counts.output_tokens += output_tokens;
            }
            _ => {}
        }
    }
    for outcome in last.values() {
        match *outcome {
            "succeeded" => counts.succeeded += 1,
            "failed" => counts.failed += 1,
            _ => counts.skipped += 1,
        }
    }
    counts
}
