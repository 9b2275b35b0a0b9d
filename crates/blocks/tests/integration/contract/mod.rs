//! What every block test shares: the block by its id, outputs exactly as its spec declares
//! them, and a `BlockContext` over a temporary work directory whose events are recorded, with
//! the human-input and secrets ports a test gives. Re-exported by the support modules of the
//! data, human and network tests.

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use planwright_block::{
    Block, BlockContext, BlockError, BlockEvents, BlockSecrets, BrowserSettings, BrowserSlot, HumanInput, Values,
    Workdir,
};
use planwright_catalog::Catalog;
use planwright_runs::{ArtifactKind, InputAnswer, InputRequest, LogLevel, Progress, Reason, RunMessage};
use tokio_util::sync::CancellationToken;

/// The built-in block with this id, from the library's registry.
pub fn block(id: &str) -> Arc<dyn Block> {
    planwright_blocks::builtin().into_iter().find(|b| b.id() == id).unwrap_or_else(|| panic!("no block {id}"))
}

/// Every output is declared by the spec and admits its declared type; every declared output is
/// produced, in the spec's order.
pub fn assert_declared_outputs(id: &str, outputs: &Values) {
    let catalog = Catalog::bundled().unwrap();
    let spec = catalog.get(id).unwrap();
    let declared: Vec<&String> = spec.outputs.keys().collect();
    let produced: Vec<&String> = outputs.keys().collect();
    assert_eq!(produced, declared, "{id}: outputs exactly as declared, in order");
    for (key, value) in outputs {
        assert!(spec.outputs[key].ty().admits(value), "{id}: {key} = {value}");
    }
}

/// What a block reported while it ran.
#[derive(Default)]
pub struct Recorder {
    pub logs: Mutex<Vec<(LogLevel, String)>>,
    /// Each log line's code, in the order of `logs`.
    pub logs_said: Mutex<Vec<Option<RunMessage>>>,
    pub artifacts: Mutex<Vec<(PathBuf, ArtifactKind, u64)>>,
    pub progress: Mutex<Vec<Progress>>,
}

impl BlockEvents for Recorder {
    fn log(&self, _node: &str, level: LogLevel, message: Reason) {
        let (text, said) = message.into_parts();
        self.logs.lock().unwrap().push((level, text));
        self.logs_said.lock().unwrap().push(said);
    }

    fn artifact(&self, _node: &str, path: &Path, kind: ArtifactKind, bytes: u64) {
        self.artifacts.lock().unwrap().push((path.to_path_buf(), kind, bytes));
    }

    fn progress(&self, _node: &str, progress: Progress) {
        self.progress.lock().unwrap().push(progress);
    }
}

impl Recorder {
    pub fn lines(&self) -> Vec<String> {
        self.logs.lock().unwrap().iter().map(|(_, m)| m.clone()).collect()
    }

    pub fn warnings(&self) -> Vec<String> {
        self.logs.lock().unwrap().iter().filter(|(l, _)| *l == LogLevel::Warn).map(|(_, m)| m.clone()).collect()
    }
}

/// Nobody answers: a block that asks gets `NoAnswer`.
pub struct NoAnswer;

impl HumanInput for NoAnswer {
    fn ask<'a>(&'a self, _node: &'a str, _request: InputRequest) -> BoxFuture<'a, Result<InputAnswer, BlockError>> {
        Box::pin(async { Err(BlockError::no_answer("no person answers in this test")) })
    }
}

/// Secrets a test gives by value (in a run, the engine reads them from their source and
/// registers each for masking).
#[derive(Default)]
pub struct GivenSecrets(pub HashMap<String, String>);

impl GivenSecrets {
    pub fn of(pairs: &[(&str, &str)]) -> Arc<GivenSecrets> {
        Arc::new(GivenSecrets(pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()))
    }
}

impl BlockSecrets for GivenSecrets {
    fn reveal(&self, name: &str) -> Result<String, BlockError> {
        self.0.get(name).cloned().ok_or_else(|| BlockError::not_set_up(format!("secret `{name}` has no value")))
    }

    fn redact(&self, text: &str) -> String {
        self.0.values().fold(text.to_owned(), |text, value| text.replace(value.as_str(), "***"))
    }
}

/// A context for node `node` working in `dir`, its events going to `events`, asking `input`;
/// no secrets, no model, a browser launched on first use.
pub fn context(node: &str, dir: &Path, events: Arc<dyn BlockEvents>, input: Arc<dyn HumanInput>) -> BlockContext {
    BlockContext {
        node: node.into(),
        workdir: Workdir::new(dir).unwrap(),
        cancel: CancellationToken::new(),
        events,
        input,
        browser: Arc::new(BrowserSlot::new(BrowserSettings::default())),
        models: None,
        secrets: Arc::new(GivenSecrets::default()),
        record_dir: dir.join(".records").join(node),
        tables: Arc::default(),
    }
}
