//! Shared by the `data_*` tests: the data blocks from the library's registry, and a
//! `BlockContext` over a temporary work directory whose events are recorded and where nobody
//! answers.

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::Arc;

use planwright_block::{BlockContext, BlockError, Values};
use serde_json::Value;

/// The blocks these tests cover.
pub const DATA_BLOCKS: [&str; 15] = [
    "file.read_csv",
    "file.extract_texts",
    "excel.read_data",
    "excel.write",
    "transforms.filter",
    "transforms.pick",
    "transforms.group_by_agg",
    "transforms.join",
    "transforms.sort",
    "transforms.select_columns",
    "transforms.remove_duplicates",
    "transforms.find_duplicates",
    "transforms.add_columns",
    "transforms.append",
    "report.write",
];

/// The files blocks refuse to read when larger (200 MB).
pub const MAX_READ_BYTES: u64 = 200 * 1024 * 1024;
/// The CSV files `file.read_csv` refuses to read when larger (1024 MB): a table of typed columns.
pub const MAX_CSV_BYTES: u64 = 1024 * 1024 * 1024;
/// About how many characters `file.extract_texts` returns over all files.
pub const MAX_TEXT_CHARS: usize = 100_000;

pub use crate::contract::{block, context, NoAnswer, Recorder};

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
        let ctx = context("test", dir.path(), events.clone(), Arc::new(NoAnswer));
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

    /// Runs block `id`; a table it outputs is given as its rows, as the engine gives it to a
    /// block that does not take tables.
    pub async fn run(&self, id: &str, inputs: Value) -> Result<Values, BlockError> {
        Ok(self.ctx.tables.expand_map(self.run_keeping_tables(id, inputs).await?))
    }

    /// Runs block `id`; a table it outputs stays a handle into `self.ctx.tables`.
    pub async fn run_keeping_tables(&self, id: &str, inputs: Value) -> Result<Values, BlockError> {
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
            Err(BlockError::Input(planwright_runs::Reason { text: message, .. })) => message,
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
