//! Shared by the `data_*` tests: the data blocks from the library's registry, and a
//! `BlockContext` over a temporary work directory whose events are recorded and where nobody
//! answers.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use planwright_blocks::{BlockContext, BlockError, BlockEvents, HumanInput, Values, Workdir};
use planwright_runs::{ArtifactKind, LogLevel};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

/// The blocks these tests cover.
pub const DATA_BLOCKS: [&str; 9] = [
    "file.read_csv",
    "file.extract_texts",
    "excel.read_data",
    "excel.write",
    "transforms.filter",
    "transforms.pick",
    "transforms.group_by_agg",
    "transforms.join",
    "report.write",
];

/// The files blocks refuse to read when larger (200 MB).
pub const MAX_READ_BYTES: u64 = 200 * 1024 * 1024;
/// About how many characters `file.extract_texts` returns over all files.
pub const MAX_TEXT_CHARS: usize = 100_000;

#[path = "../contract/mod.rs"]
mod contract;

pub use contract::{block, GivenSecrets};

/// What a block reported while it ran.
#[derive(Default)]
pub struct Recorder {
    pub logs: Mutex<Vec<(String, LogLevel, String)>>,
    pub artifacts: Mutex<Vec<(String, PathBuf, ArtifactKind, u64)>>,
}

impl BlockEvents for Recorder {
    fn log(&self, node: &str, level: LogLevel, message: String) {
        self.logs.lock().unwrap().push((node.to_string(), level, message));
    }

    fn artifact(&self, node: &str, path: &Path, kind: ArtifactKind, bytes: u64) {
        self.artifacts.lock().unwrap().push((node.to_string(), path.to_path_buf(), kind, bytes));
    }
}

impl Recorder {
    pub fn warnings(&self) -> Vec<String> {
        self.logs.lock().unwrap().iter().filter(|(_, l, _)| *l == LogLevel::Warn).map(|(_, _, m)| m.clone()).collect()
    }
}

/// Nobody answers in tests.
pub struct NoHuman;

impl HumanInput for NoHuman {
    fn ask<'a>(&'a self, _node: &'a str, _request: Value) -> BoxFuture<'a, Result<Value, BlockError>> {
        Box::pin(async { Err(BlockError::NoAnswer("no person answers in tests".into())) })
    }
}

/// A work directory and a context over it.
pub struct Harness {
    pub dir: tempfile::TempDir,
    pub ctx: BlockContext,
    pub events: Arc<Recorder>,
}

impl Harness {
    pub fn new() -> Harness {
        let dir = tempfile::tempdir().unwrap();
        let events = Arc::new(Recorder::default());
        let ctx = BlockContext {
            node: "test".into(),
            workdir: Workdir::new(dir.path()).unwrap(),
            cancel: CancellationToken::new(),
            events: events.clone(),
            input: Arc::new(NoHuman),
            browser: Arc::new(planwright_blocks::BrowserSlot::new(Default::default())),
            models: None,
            secrets: Arc::new(GivenSecrets::default()),
        };
        Harness { dir, ctx, events }
    }

    /// A path inside the work directory.
    pub fn path(&self, relative: &str) -> PathBuf {
        self.ctx.workdir.root().join(relative)
    }

    /// Writes a file inside the work directory, creating its folders.
    pub fn write(&self, relative: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, bytes).unwrap();
        path
    }

    pub async fn run(&self, id: &str, inputs: Value) -> Result<Values, BlockError> {
        let Value::Object(inputs) = inputs else { panic!("inputs must be an object") };
        block(id).run(inputs, &self.ctx).await
    }

    /// Runs and unwraps, showing the error.
    pub async fn ok(&self, id: &str, inputs: Value) -> Values {
        match self.run(id, inputs).await {
            Ok(out) => out,
            Err(e) => panic!("{id} failed: {e:?}"),
        }
    }

    /// Runs and expects an input error; returns its message.
    pub async fn input_error(&self, id: &str, inputs: Value) -> String {
        match self.run(id, inputs).await {
            Err(BlockError::Input(message)) => message,
            other => panic!("{id}: expected an input error, got {other:?}"),
        }
    }
}

/// Shift_JIS bytes of `text`.
pub fn sjis(text: &str) -> Vec<u8> {
    let (bytes, _, errors) = encoding_rs::SHIFT_JIS.encode(text);
    assert!(!errors, "{text} is not representable in Shift_JIS");
    bytes.into_owned()
}
