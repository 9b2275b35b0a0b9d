//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::fs;
use std::path::Path;

/// A minimal valid plan with the given id and version.
pub fn plan_text(id: &str, version: &str) -> String {
    format!("apiVersion: planwright/v1\nid: {id}\nversion: {version}\ngraph:\n  - id: a\n    block: transforms.pick\n")
}

/// Writes `text` to `dir/name`, creating `dir`.
pub fn write(dir: &Path, name: &str, text: &str) {
    fs::create_dir_all(dir).unwrap();
    fs::write(dir.join(name), text).unwrap();
}

/// The names in `dir`, sorted; empty when it does not exist.
pub fn listing(dir: &Path) -> Vec<String> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}
