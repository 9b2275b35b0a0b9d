//! One run's shared state: the recorder, the work directory, the browser, what a resumed run
//! already finished, the counts, and the ways a run ends early.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use planwright_block::{BrowserSlot, Workdir};
use planwright_catalog::Catalog;
use planwright_plan::{OnError, Policy};
use planwright_runs::{Counts, Event, EventKind, NodePath, Reason, RunMessage};
use serde_json::{Map, Value};

use crate::input::AnswerSource;
use crate::record::Recorder;
use crate::values::{NodeValue, SecretSource};
use crate::{Engine, EngineError};

/// Why a graph stopped before finishing.
#[derive(Debug)]
pub(crate) enum Abort {
    /// A node failed under `on_error: halt` (or an exhausted `retry`): the reason.
    Halted(Reason),
    /// Stopped from outside.
    Stopped,
    /// A person must answer and nobody can now: what is missing.
    Waiting(Reason),
    /// The record could not be written: the run stops rather than lose track.
    Record(EngineError),
}

pub(crate) struct RunCtx {
    pub engine: Engine,
    /// The run's tables (the recorder's), which values hold by handle.
    pub tables: Arc<planwright_block::RunTables>,
    pub recorder: Arc<Recorder>,
    pub workdir: Workdir,
    pub secrets: Arc<dyn SecretSource>,
    pub answers: Arc<dyn AnswerSource>,
    /// The run's one browser session, shared by its browser blocks and called plans; closed when
    /// the run ends.
    pub browser: Arc<BrowserSlot>,
    /// Browser blocks take turns on that one session, whatever the concurrency.
    pub browser_turn: tokio::sync::Mutex<()>,
    /// Outputs of nodes a resumed run had finished (node path → outputs).
    pub finished: HashMap<NodePath, Map<String, Value>>,
    /// Answers a resumed run had received (node path → answer).
    pub stored_answers: Arc<HashMap<NodePath, Value>>,
    pub counts: Arc<Mutex<Counts>>,
    /// The language model blocks may use; `None` when none is configured.
    pub models: Option<Arc<dyn planwright_llm::LlmClient>>,
    /// Called plans, resolved and validated once per run (a loop may call one thousands of times).
    pub called: Mutex<HashMap<String, Arc<CalledPlan>>>,
    /// The secrets the run's plans declare: the only ones a block may have revealed.
    pub declared_secrets: Mutex<std::collections::HashSet<String>>,
}

/// A called plan with its execution structure.
pub(crate) struct CalledPlan {
    pub plan: Arc<planwright_plan::Plan>,
    pub analysis: planwright_validate::GraphAnalysis,
}

impl RunCtx {
    pub fn catalog(&self) -> &Catalog {
        &self.engine.catalog
    }

    pub fn emit(&self, kind: EventKind) -> Result<Event, Abort> {
        self.recorder.emit(kind).map_err(Abort::Record)
    }

    pub fn count(&self, change: impl FnOnce(&mut Counts)) {
        change(&mut self.counts.lock().unwrap_or_else(|e| e.into_inner()));
    }

    /// Registers the values of the secrets a plan declares for masking before any of its nodes
    /// runs, so that a value turning up anywhere (a page or a server echoing it) is masked even
    /// before a block asks for it.
    pub fn register_secrets(&self, names: &[String]) {
        self.declared_secrets.lock().unwrap_or_else(|e| e.into_inner()).extend(names.iter().cloned());
        self.recorder.add_secrets(names.iter().filter_map(|name| self.secrets.secret(name)).collect());
    }

    /// The secrets port of a block: the declared secrets' values, masked in every record.
    pub fn block_secrets(&self) -> crate::values::RunSecrets {
        let declared = self.declared_secrets.lock().unwrap_or_else(|e| e.into_inner()).clone();
        crate::values::RunSecrets { source: self.secrets.clone(), recorder: self.recorder.clone(), declared }
    }

    /// The outputs a resumed run already has for `path`.
    pub fn restored(&self, path: &str) -> Option<Arc<Map<String, Value>>> {
        self.finished.get(path).map(|outputs| Arc::new(outputs.clone()))
    }

    /// Records a failure and applies the node's policy: `continue` gives dependants null, or
    /// the outputs the failure carries (and counts a failure, never a success); anything else
    /// halts the run.
    pub fn fail(
        &self,
        path: &str,
        elapsed_ms: u64,
        attempts: u32,
        error: impl Into<Reason>,
        timed_out: bool,
        policy: &Policy,
    ) -> Result<NodeValue, Abort> {
        let continued = policy.on_error == Some(OnError::Continue);
        let mut error: Reason = error.into();
        let outputs = error.outputs.take().map(|outputs| self.recorder.outputs(*outputs));
        let (text, said) = error.into_parts();
        let error = self.recorder.mask_text(&text);
        self.emit(EventKind::NodeFailed {
            node: path.to_owned(),
            elapsed_ms,
            attempts,
            error: error.clone(),
            timed_out,
            continued,
            said,
            outputs: outputs.as_ref().map(|(_, summary)| summary.clone()),
        })?;
        self.count(|c| c.failed += 1);
        if continued {
            // What the block produced before it failed (a report of what it could not do) is
            // worth more to a dependant than null.
            Ok(match outputs {
                Some((outputs, _)) => NodeValue::Done(Arc::new(outputs)),
                None => NodeValue::FailedContinued,
            })
        } else {
            Err(Abort::Halted(Reason::said(
                RunMessage::NodeHalted { node: path.to_owned() },
                format!("`{path}` failed: {error}"),
            )))
        }
    }
}

impl RunCtx {
    /// Where blocks' log lines and artifacts go: into the run's record.
    pub fn block_events(&self) -> Arc<dyn planwright_block::BlockEvents> {
        Arc::new(crate::record::RunEvents(self.recorder.clone()))
    }

    /// The model client a node's block gets: the run's secrets redacted from what it sends, every
    /// call recorded and counted.
    pub fn models_for(&self, node: &str) -> Option<Arc<dyn planwright_llm::LlmClient>> {
        let inner = self.models.clone()?;
        let sink = crate::models::NodeModelCalls {
            recorder: self.recorder.clone(),
            counts: self.counts.clone(),
            node: node.to_owned(),
        };
        Some(Arc::new(planwright_llm::RecordedClient::new(inner, Arc::new(sink), self.recorder.clone())))
    }
}

impl From<EngineError> for Abort {
    fn from(error: EngineError) -> Abort {
        Abort::Record(error)
    }
}
