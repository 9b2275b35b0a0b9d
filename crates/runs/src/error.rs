//! The one error type of the run store. Every message names the file or run concerned and says
//! what to do about it.

use std::io;
use std::path::{Path, PathBuf};

use rusqlite::ErrorCode;

/// What can go wrong while recording or reading runs.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Neither `PLANWRIGHT_HOME` nor a platform data folder is available.
    #[error(
        "no folder for Planwright's data: PLANWRIGHT_HOME is not set and this system reports no user data folder; \
         set PLANWRIGHT_HOME to a folder Planwright may write to"
    )]
    NoDataHome,

    /// A file or folder could not be read, written or created.
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: io::Error,
    },

    /// SQLite refused an operation on `runs.db` (other than corruption, see [`StoreError::Corrupt`]).
    #[error("run database {}: cannot {action}: {source}{}", path.display(), db_hint(source))]
    Db {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },

    /// `runs.db` is damaged or is not a Planwright run database.
    #[error(
        "{} is damaged or is not a Planwright run database ({detail}); move it aside and Planwright will create \
         a new one (the runs' JSONL logs in the runs folder next to it are not affected)",
        path.display()
    )]
    Corrupt { path: PathBuf, detail: String },

    /// `runs.db` was written by a newer Planwright.
    #[error(
        "{} has run-database schema version {found}, newer than this Planwright knows (up to {supported}); \
         update Planwright, or set PLANWRIGHT_HOME to another folder",
        path.display()
    )]
    TooNew { path: PathBuf, found: i64, supported: i64 },

    /// No run with this id is recorded.
    #[error("no run `{run_id}` is recorded in {}; list the runs to see the recorded ids", path.display())]
    NotFound { run_id: String, path: PathBuf },

    /// A shortened run id that starts more than one recorded run's id.
    #[error("`{prefix}` starts the ids of {} runs ({}); give more of the id", candidates.len(), candidates.join(", "))]
    AmbiguousId { prefix: String, candidates: Vec<String> },

    /// `begin` with an id that is already recorded.
    #[error("a run `{run_id}` is already recorded in {}; start the new run with a fresh id", path.display())]
    AlreadyExists { run_id: String, path: PathBuf },

    /// The run's recorder is alive (in this or another process), so it cannot be resumed or begun again.
    #[error(
        "run `{run_id}` is still being recorded{} (its lock {} is held); wait for it to end or stop it first",
        pid_note(*pid),
        lock.display()
    )]
    Active { run_id: String, lock: PathBuf, pid: Option<u32> },

    /// A plan id or run id that cannot name a file.
    #[error("invalid {what} `{value}`: {reason}")]
    InvalidId { what: &'static str, value: String, reason: &'static str },

    /// A plan path that is not UTF-8 (paths are stored and reported as text).
    #[error("the plan path {} is not valid UTF-8; move the plan to a folder whose name is UTF-8", path.display())]
    NonUtf8Path { path: PathBuf },

    /// A stored event, output or answer does not parse.
    #[error("run `{run_id}` in {}: {what} cannot be read ({source}); the database may be damaged", path.display())]
    Unreadable {
        run_id: String,
        what: String,
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },

    /// An event or value could not be turned into JSON.
    #[error("run `{run_id}`: cannot write {what} as JSON: {source}")]
    Encode {
        run_id: String,
        what: String,
        #[source]
        source: serde_json::Error,
    },
}

fn pid_note(pid: Option<u32>) -> String {
    pid.map(|pid| format!(" by process {pid}")).unwrap_or_default()
}

fn db_hint(error: &rusqlite::Error) -> &'static str {
    match error.sqlite_error_code() {
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => {
            " (another process kept the database locked for too long; try again when it is done)"
        }
        Some(ErrorCode::DiskFull) => " (the disk is full; free some space)",
        Some(ErrorCode::ReadOnly | ErrorCode::PermissionDenied | ErrorCode::CannotOpen) => {
            " (check that the folder exists and is writable)"
        }
        _ => "",
    }
}

impl StoreError {
    pub(crate) fn io(action: &'static str, path: impl Into<PathBuf>) -> impl FnOnce(io::Error) -> StoreError {
        let path = path.into();
        move |source| StoreError::Io { action, path, source }
    }

    /// Maps a SQLite error on `path`; corruption and "not a database" become [`StoreError::Corrupt`].
    pub(crate) fn db(action: &'static str, path: &Path) -> impl FnOnce(rusqlite::Error) -> StoreError {
        let path = path.to_path_buf();
        move |source| match source.sqlite_error_code() {
            Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => {
                StoreError::Corrupt { path, detail: format!("{action}: {source}") }
            }
            _ => StoreError::Db { action, path, source },
        }
    }
}
