//! Helpers the command-line tests share (each test file uses some of them).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// `planwright` to be run in `workdir`, with `home` as its data home and nothing on its stdin.
pub fn planwright_in(home: &Path, workdir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_planwright"));
    command.current_dir(workdir).env("PLANWRIGHT_HOME", home).stdin(Stdio::null());
    command
}

/// Every file under `dir`, at any depth.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .flat_map(|entry| {
            let path = entry.unwrap().path();
            if path.is_dir() {
                files_under(&path)
            } else {
                vec![path]
            }
        })
        .collect()
}

/// Everything a run of the binary said — how it ended, its stdout and its stderr — for an
/// assertion's message: with `--format json` the reason a run ended is on stdout, not stderr.
pub fn said(output: &Output) -> String {
    format!(
        "{}\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Asserts that the binary exited with `code`, showing everything it said when it did not.
#[track_caller]
pub fn assert_exit(output: &Output, code: i32) {
    assert_eq!(output.status.code(), Some(code), "{}", said(output));
}
