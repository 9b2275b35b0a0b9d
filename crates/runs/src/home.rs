//! The data home: the one folder all of Planwright's state lives in, and the names of the run
//! files inside it.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::StoreError;

/// The environment variable naming the data home.
pub const HOME_ENV: &str = "PLANWRIGHT_HOME";

/// Where all state lives: `$PLANWRIGHT_HOME` when set (non-empty), else the platform data folder
/// (`dirs::data_dir()/planwright`).
///
/// Layout: `runs.db` (the SQLite store) and `runs/<plan_id>/<run_id>.jsonl` (each run's log, with
/// its `.lock` file next to it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataHome {
    root: PathBuf,
}

impl DataHome {
    /// The data home from this process's environment.
    pub fn from_env() -> Result<DataHome, StoreError> {
        DataHome::resolve(std::env::var_os(HOME_ENV), dirs::data_dir())
    }

    /// The rule of [`DataHome::from_env`] as a pure function: `planwright_home` is the value of
    /// `PLANWRIGHT_HOME` (if set), `data_dir` the platform data folder (if any).
    pub fn resolve(planwright_home: Option<OsString>, data_dir: Option<PathBuf>) -> Result<DataHome, StoreError> {
        match planwright_home {
            Some(home) if !home.is_empty() => Ok(DataHome::at(home)),
            _ => data_dir.map(|dir| DataHome::at(dir.join("planwright"))).ok_or(StoreError::NoDataHome),
        }
    }

    /// A data home at `root` (created when a store is opened).
    pub fn at(root: impl Into<PathBuf>) -> DataHome {
        DataHome { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Creates the data home readable by its owner alone (0700), tightening one that was open to
    /// others: it holds run records, settings and keys.
    pub fn create(&self) -> Result<(), StoreError> {
        planwright_fs::private_dir(&self.root).map_err(StoreError::io("create the data home", &self.root))
    }

    /// `runs/`: one folder per plan, holding its runs' logs.
    pub fn runs_dir(&self) -> PathBuf {
        self.root.join("runs")
    }

    /// `runs/<plan_id>/<run_id>.jsonl`
    pub fn run_log(&self, plan_id: &str, run_id: &str) -> PathBuf {
        self.runs_dir().join(plan_id).join(format!("{run_id}.jsonl"))
    }

    /// `runs/<plan_id>/<run_id>.lock`: held (advisory, exclusive) by the run's recorder while it lives.
    pub fn run_lock(&self, plan_id: &str, run_id: &str) -> PathBuf {
        self.runs_dir().join(plan_id).join(format!("{run_id}.lock"))
    }

    /// `runs.db`
    pub fn runs_db(&self) -> PathBuf {
        self.root.join("runs.db")
    }
}

/// A new run id: a UUIDv7 (time-ordered), hyphenated, lower case.
pub fn new_run_id() -> String {
    uuid::Uuid::now_v7().hyphenated().to_string()
}

/// Checks that a plan id or run id can name a file: 1–128 characters among `A–Z a–z 0–9 _ - .`,
/// not starting with a dot.
pub(crate) fn check_id(what: &'static str, value: &str) -> Result<(), StoreError> {
    let reason = if value.is_empty() {
        Some("it is empty")
    } else if value.len() > 128 {
        Some("it is longer than 128 characters")
    } else if value.starts_with('.') {
        Some("it starts with a dot")
    } else if !value.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')) {
        Some("only letters, digits, `_`, `-` and `.` may be used")
    } else {
        None
    };
    match reason {
        Some(reason) => Err(StoreError::InvalidId { what, value: value.to_string(), reason }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_that_cannot_name_files_are_refused() {
        for bad in ["", ".hidden", "../x", "a/b", "a\\b", "a b", "é", &"x".repeat(129)] {
            assert!(check_id("plan id", bad).is_err(), "{bad:?} accepted");
        }
        for good in ["unpaid_invoices", "a-b.c", "0195f0e2-7c1a-7d3e-9b1c-3f2a1b0c9d8e", "X"] {
            check_id("plan id", good).unwrap();
        }
    }

    #[test]
    fn run_ids_are_uuid_v7_time_ordered() {
        let a = new_run_id();
        let b = new_run_id();
        let parsed = uuid::Uuid::parse_str(&a).unwrap();
        assert_eq!(parsed.get_version_num(), 7);
        assert_eq!(a, a.to_lowercase());
        assert_eq!(a.len(), 36);
        assert!(a < b, "{a} !< {b}");
        check_id("run id", &a).unwrap();
    }
}
