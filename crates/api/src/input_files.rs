//! The work folder's input files, as the plan checker sees them: the header and column kinds of
//! each file a read step names, read as the read blocks would read it.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;

use indexmap::IndexMap;
use planwright_validate::{InputFiles, InputTable};
use serde_json::Value;

/// The input files of the work folder at `root` (the workspace, or `--workdir`). Each file is
/// read once for as long as this lives (one check, one generation and its repair rounds), so a
/// design that validates a plan several times reads a ledger once.
pub struct WorkFolderFiles {
    root: PathBuf,
    read: Mutex<HashMap<String, Result<Option<InputTable>, String>>>,
}

impl WorkFolderFiles {
    pub fn new(root: impl Into<PathBuf>) -> WorkFolderFiles {
        WorkFolderFiles { root: root.into(), read: Mutex::new(HashMap::new()) }
    }
}

impl WorkFolderFiles {
    /// The table `block` would read, once per block and inputs.
    fn read(&self, block: &str, inputs: &IndexMap<String, Value>) -> Result<Option<InputTable>, String> {
        let inputs: serde_json::Map<String, Value> = inputs.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        let key = format!("{block} {}", Value::Object(inputs.clone()));
        if let Some(known) = self.read.lock().ok().and_then(|read| read.get(&key).cloned()) {
            return known;
        }
        let Some(file) = inputs.get("path").and_then(Value::as_str).map(str::to_owned) else { return Ok(None) };
        let table = planwright_blocks::input_table(block, &inputs, &self.root).map(|table| {
            table.map(|table| InputTable { file, columns: table.columns, rows: table.rows, complete: table.complete })
        });
        if let Ok(mut read) = self.read.lock() {
            read.insert(key, table.clone());
        }
        table
    }
}

impl InputFiles for WorkFolderFiles {
    fn columns(&self, block: &str, inputs: &IndexMap<String, Value>) -> Option<InputTable> {
        self.read(block, inputs).ok().flatten()
    }

    fn refused(&self, block: &str, inputs: &IndexMap<String, Value>) -> Option<String> {
        self.read(block, inputs).err()
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

    fn data_files(&self) -> Vec<String> {
        const DATA: [&str; 5] = ["csv", "tsv", "xlsx", "xlsm", "xls"];
        let Ok(entries) = std::fs::read_dir(&self.root) else { return Vec::new() };
        let mut files: Vec<String> = entries
            .filter_map(Result::ok)
            .filter(|entry| entry.file_type().is_ok_and(|t| t.is_file()))
            .filter_map(|entry| entry.file_name().into_string().ok())
            .filter(|name| !name.starts_with(['.', '~']))
            .filter(|name| {
                let extension = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
                extension.is_some_and(|e| DATA.contains(&e.as_str()))
            })
            .collect();
        files.sort();
        files
    }
}
