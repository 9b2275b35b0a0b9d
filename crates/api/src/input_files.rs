//! The work folder's input files, as the plan checker sees them: the header and column kinds of
//! each file a read step names, read as the read blocks would read it.

use std::path::PathBuf;

use indexmap::IndexMap;
use planwright_validate::{InputFiles, InputTable};
use serde_json::Value;

/// The input files of the work folder at `root` (the workspace, or `--workdir`).
pub struct WorkFolderFiles {
    root: PathBuf,
}

impl WorkFolderFiles {
    pub fn new(root: impl Into<PathBuf>) -> WorkFolderFiles {
        WorkFolderFiles { root: root.into() }
    }
}

impl InputFiles for WorkFolderFiles {
    fn columns(&self, block: &str, inputs: &IndexMap<String, Value>) -> Option<InputTable> {
        let inputs: serde_json::Map<String, Value> = inputs.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        let file = inputs.get("path")?.as_str()?.to_owned();
        let table = planwright_blocks::input_table(block, &inputs, &self.root)?;
        Some(InputTable { file, columns: table.columns, rows: table.rows })
    }

    fn missing(&self, _block: &str, inputs: &IndexMap<String, Value>) -> bool {
        match inputs.get("path").and_then(Value::as_str) {
            Some(path) => {
                let Ok(root) = planwright_block::Workdir::new(&self.root) else { return false };
                match root.resolve("path", path) {
                    Ok(file) => !file.exists(),
                    // A path the work folder cannot hold, or `${vars.x}` given at run time.
                    Err(_) => true,
                }
            }
            None => true,
        }
    }
}
