//! The run store: `runs.db` under the data home, the source of truth for listing runs and for
//! resuming them, and the factory of [`RunRecorder`]s.

use std::collections::HashMap;
use std::fmt;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use rusqlite::{params, Connection, ErrorCode, OptionalExtension};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::home::check_id;
use crate::lock::{self, RunLock};
use crate::recorder::Parts;
use crate::{db, Counts, DataHome, Event, NodePath, RunRecorder, RunStatus, StoreError};

/// One line of the runs list.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunSummary {
    pub run_id: String,
    pub plan_id: String,
    /// The status of the last `RunFinished`; else `Running` while the run's recorder is alive, else
    /// `WaitingForInput` when a node's last event is an unanswered `InputRequested`, else
    /// `Interrupted`.
    pub status: RunStatus,
    pub started_at: String,
    /// The time of the last `RunFinished` (none while running or interrupted).
    pub finished_at: Option<String>,
    /// From `RunFinished`; for a run without one, counted from its events so far.
    pub counts: Counts,
}

/// The runs recorded under a data home. `Send + Sync`; clones share one database connection for
/// reading, and every recorder gets its own.
#[derive(Clone)]
pub struct RunStore {
    inner: Arc<Inner>,
}

struct Inner {
    home: DataHome,
    db_path: PathBuf,
    conn: Mutex<Connection>,
}

/// A `runs` row as read.
struct RunRow {
    run_id: String,
    plan_id: String,
    status: String,
    started_at: String,
    finished_at: Option<String>,
    counts: Option<String>,
}

const RUN_COLUMNS: &str = "run_id, plan_id, status, started_at, finished_at, counts";

impl RunRow {
    fn read(row: &rusqlite::Row<'_>) -> rusqlite::Result<RunRow> {
        Ok(RunRow {
            run_id: row.get(0)?,
            plan_id: row.get(1)?,
            status: row.get(2)?,
            started_at: row.get(3)?,
            finished_at: row.get(4)?,
            counts: row.get(5)?,
        })
    }
}

/// Whether any node's last event (logs aside) is an `InputRequested`.
const PENDING_INPUT: &str =
    "SELECT EXISTS (SELECT 1 FROM events AS r WHERE r.run_id = ?1 AND r.type = 'input_requested' \
     AND NOT EXISTS (SELECT 1 FROM events AS l WHERE l.run_id = ?1 AND l.seq > r.seq AND l.node = r.node \
     AND l.type <> 'log'))";

const EVENT_COUNTS: &str = "SELECT type, COUNT(*) FROM events WHERE run_id = ?1 \
     AND type IN ('node_finished', 'node_failed', 'node_skipped', 'node_retried') GROUP BY type";

impl RunStore {
    /// Opens the store of `home`: creates the folders and `runs.db` (WAL, foreign keys on, busy
    /// timeout) and migrates its schema to [`DB_SCHEMA_VERSION`](crate::DB_SCHEMA_VERSION).
    pub fn open(home: &DataHome) -> Result<RunStore, StoreError> {
        home.create()?;
        let runs_dir = home.runs_dir();
        planwright_fs::private_dir(&runs_dir).map_err(StoreError::io("create the folder", &runs_dir))?;
        let db_path = home.runs_db();
        db::create_private(&db_path)?;
        let mut conn = db::connect(&db_path)?;
        db::migrate(&mut conn, &db_path)?;
        Ok(RunStore { inner: Arc::new(Inner { home: home.clone(), db_path, conn: Mutex::new(conn) }) })
    }

    pub fn home(&self) -> &DataHome {
        &self.inner.home
    }

    /// `runs.db`
    pub fn db_path(&self) -> &Path {
        &self.inner.db_path
    }

    /// Starts the record of a new run: stores the plan text (for resume) and path, and returns a
    /// recorder whose first event gets seq 1. The caller then records `RunStarted`.
    pub fn begin(
        &self,
        run_id: &str,
        plan_id: &str,
        plan_text: &str,
        plan_path: Option<&Path>,
    ) -> Result<RunRecorder, StoreError> {
        check_id("plan id", plan_id)?;
        check_id("run id", run_id)?;
        let plan_path = plan_path
            .map(|path| path.to_str().map(str::to_owned).ok_or_else(|| StoreError::NonUtf8Path { path: path.into() }))
            .transpose()?;
        let home = &self.inner.home;
        let dir = home.runs_dir().join(plan_id);
        planwright_fs::private_dir(&dir).map_err(StoreError::io("create the folder", &dir))?;
        let lock = match RunLock::acquire(&home.run_lock(plan_id, run_id), run_id) {
            Err(StoreError::Active { .. }) if self.plan_id_of(run_id)?.is_some() => {
                return Err(self.exists_error(run_id))
            }
            other => other?,
        };
        let db_path = &self.inner.db_path;
        let conn = db::connect(db_path)?;
        let inserted = conn.execute(
            "INSERT INTO runs (run_id, plan_id, plan_path, plan_text, started_at, status) \
             VALUES (?1, ?2, ?3, ?4, ?5, 'running')",
            params![run_id, plan_id, plan_path, plan_text, crate::now_utc()],
        );
        match inserted {
            Err(error) if error.sqlite_error_code() == Some(ErrorCode::ConstraintViolation) => {
                return Err(self.exists_error(run_id))
            }
            other => other.map_err(StoreError::db("record the new run", db_path))?,
        };
        let log_path = home.run_log(plan_id, run_id);
        let log = match planwright_fs::private_file().write(true).create(true).truncate(true).open(&log_path) {
            Ok(log) => log,
            Err(source) => {
                if let Err(error) = conn.execute("DELETE FROM runs WHERE run_id = ?1", [run_id]) {
                    tracing::warn!(run_id, %error, "cannot remove the record of a run whose log cannot be created");
                }
                return Err(StoreError::Io { action: "create the run log", path: log_path, source });
            }
        };
        Ok(RunRecorder::new(Parts {
            run_id: run_id.into(),
            plan_id: plan_id.into(),
            log_path,
            db_path: db_path.clone(),
            conn,
            log,
            next_seq: 1,
            lock,
        }))
    }

    /// A recorder continuing an existing run (resume): the next seq follows the last recorded one.
    /// Fails with [`StoreError::Active`] while the run's recorder is alive in this or another
    /// process. The run's JSONL log is first made to match SQLite: a line torn by a kill is cut,
    /// lines SQLite lacks are dropped and lines the log lacks are appended.
    pub fn resume(&self, run_id: &str) -> Result<RunRecorder, StoreError> {
        check_id("run id", run_id)?;
        let plan_id = self.plan_id_of(run_id)?.ok_or_else(|| self.not_found(run_id))?;
        let home = &self.inner.home;
        let dir = home.runs_dir().join(&plan_id);
        planwright_fs::private_dir(&dir).map_err(StoreError::io("create the folder", &dir))?;
        let lock = RunLock::acquire(&home.run_lock(&plan_id, run_id), run_id)?;
        let db_path = &self.inner.db_path;
        let conn = db::connect(db_path)?;
        let lines: Vec<(i64, String)> = conn
            .prepare("SELECT seq, json FROM events WHERE run_id = ?1 ORDER BY seq")
            .and_then(|mut stmt| stmt.query_map([run_id], |row| Ok((row.get(0)?, row.get(1)?)))?.collect())
            .map_err(StoreError::db("read the run's events", db_path))?;
        let next_seq = lines.last().map_or(1, |(seq, _)| *seq as u64 + 1);
        let log_path = home.run_log(&plan_id, run_id);
        let log = repair_log(&log_path, lines.iter().map(|(_, json)| json.as_str()).collect())?;
        Ok(RunRecorder::new(Parts {
            run_id: run_id.into(),
            plan_id,
            log_path,
            db_path: db_path.clone(),
            conn,
            log,
            next_seq,
            lock,
        }))
    }

    /// All runs, newest first.
    pub fn list(&self) -> Result<Vec<RunSummary>, StoreError> {
        let conn = self.conn();
        let rows: Vec<RunRow> = conn
            .prepare_cached(&format!("SELECT {RUN_COLUMNS} FROM runs ORDER BY started_at DESC, rowid DESC"))
            .and_then(|mut stmt| stmt.query_map([], RunRow::read)?.collect())
            .map_err(self.db("list the runs"))?;
        rows.into_iter().map(|row| self.summarize(&conn, row)).collect()
    }

    /// The full id of the run `id` names: itself when recorded, else the one recorded id it
    /// starts (as git takes a commit's unique prefix). Several such ids are
    /// [`StoreError::AmbiguousId`], naming at most five of them.
    pub fn resolve_id(&self, id: &str) -> Result<String, StoreError> {
        let conn = self.conn();
        let matches: Vec<String> = conn
            .prepare_cached(
                "SELECT run_id FROM runs WHERE substr(run_id, 1, length(?1)) = ?1 \
                 ORDER BY run_id = ?1 DESC, started_at DESC LIMIT 6",
            )
            .and_then(|mut stmt| stmt.query_map([id], |row| row.get(0))?.collect())
            .map_err(self.db("look up the run"))?;
        match matches.as_slice() {
            [] => Err(self.not_found(id)),
            [only] => Ok(only.clone()),
            [exact, ..] if exact == id => Ok(exact.clone()),
            _ => Err(StoreError::AmbiguousId {
                prefix: id.to_owned(),
                candidates: matches.into_iter().take(5).collect(),
            }),
        }
    }

    /// The summary of one run (see [`RunSummary::status`]).
    pub fn summary(&self, run_id: &str) -> Result<RunSummary, StoreError> {
        let conn = self.conn();
        let row = self.run_row(&conn, run_id)?.ok_or_else(|| self.not_found(run_id))?;
        self.summarize(&conn, row)
    }

    /// The run's events in seq order.
    pub fn events(&self, run_id: &str) -> Result<Vec<Event>, StoreError> {
        let conn = self.conn();
        self.require(&conn, run_id)?;
        let rows: Vec<(i64, String)> = conn
            .prepare_cached("SELECT seq, json FROM events WHERE run_id = ?1 ORDER BY seq")
            .and_then(|mut stmt| stmt.query_map([run_id], |row| Ok((row.get(0)?, row.get(1)?)))?.collect())
            .map_err(self.db("read the run's events"))?;
        rows.into_iter().map(|(seq, json)| self.parse(run_id, &json, || format!("event {seq}"))).collect()
    }

    /// The plan text and path stored at [`begin`](Self::begin).
    pub fn plan(&self, run_id: &str) -> Result<(String, Option<PathBuf>), StoreError> {
        let conn = self.conn();
        let found: Option<(String, Option<String>)> = conn
            .prepare_cached("SELECT plan_text, plan_path FROM runs WHERE run_id = ?1")
            .and_then(|mut stmt| stmt.query_row([run_id], |row| Ok((row.get(0)?, row.get(1)?))).optional())
            .map_err(self.db("read the run's plan"))?;
        let (text, path) = found.ok_or_else(|| self.not_found(run_id))?;
        Ok((text, path.map(PathBuf::from)))
    }

    /// The full outputs of every node that finished (stored by
    /// [`RunRecorder::finish_node`]): on resume those nodes are not run again.
    pub fn finished_outputs(&self, run_id: &str) -> Result<HashMap<NodePath, Map<String, Value>>, StoreError> {
        self.values(run_id, "SELECT node, outputs FROM node_outputs WHERE run_id = ?1", "outputs")
    }

    /// The folder the run keeps `node`'s own files in, as its recorder named it
    /// ([`RunRecorder::node_dir`]): where a large table it gave is kept.
    pub fn node_dir(&self, run_id: &str, node: &str) -> Result<PathBuf, StoreError> {
        let plan_id = self.plan_id_of(run_id)?.ok_or_else(|| self.not_found(run_id))?;
        Ok(crate::recorder::node_dir_beside(&self.inner.home.run_log(&plan_id, run_id), node))
    }

    /// The answers accepted for input requests (stored by [`RunRecorder::receive_input`]), node
    /// path → answer, for resume.
    pub fn answers(&self, run_id: &str) -> Result<HashMap<NodePath, Value>, StoreError> {
        self.values(run_id, "SELECT node, answer FROM answers WHERE run_id = ?1", "answer")
    }

    fn values<T: serde::de::DeserializeOwned>(
        &self,
        run_id: &str,
        sql: &str,
        what: &str,
    ) -> Result<HashMap<NodePath, T>, StoreError> {
        let conn = self.conn();
        self.require(&conn, run_id)?;
        let rows: Vec<(String, String)> = conn
            .prepare_cached(sql)
            .and_then(|mut stmt| stmt.query_map([run_id], |row| Ok((row.get(0)?, row.get(1)?)))?.collect())
            .map_err(self.db("read the run's stored values"))?;
        rows.into_iter()
            .map(|(node, json)| {
                let value = self.parse(run_id, &json, || format!("the {what} of node `{node}`"))?;
                Ok((node, value))
            })
            .collect()
    }

    fn summarize(&self, conn: &Connection, mut row: RunRow) -> Result<RunSummary, StoreError> {
        let status = if row.finished_at.is_some() {
            self.stored_status(&row)?
        } else if lock::is_held(&self.inner.home.run_lock(&row.plan_id, &row.run_id)) {
            RunStatus::Running
        } else {
            // The recorder may have finished the run and gone between the read and the probe.
            row = self.run_row(conn, &row.run_id)?.ok_or_else(|| self.not_found(&row.run_id))?;
            if row.finished_at.is_some() {
                self.stored_status(&row)?
            } else if conn
                .prepare_cached(PENDING_INPUT)
                .and_then(|mut stmt| stmt.query_row([&row.run_id], |r| r.get(0)))
                .map_err(self.db("look for pending input"))?
            {
                RunStatus::WaitingForInput
            } else {
                RunStatus::Interrupted
            }
        };
        let counts = match (&row.finished_at, &row.counts) {
            (Some(_), Some(json)) => self.parse(&row.run_id, json, || "the counts".to_string())?,
            _ => self.count_events(conn, &row.run_id)?,
        };
        Ok(RunSummary {
            run_id: row.run_id,
            plan_id: row.plan_id,
            status,
            started_at: row.started_at,
            finished_at: row.finished_at,
            counts,
        })
    }

    fn stored_status(&self, row: &RunRow) -> Result<RunStatus, StoreError> {
        RunStatus::from_name(&row.status).ok_or_else(|| StoreError::Corrupt {
            path: self.inner.db_path.clone(),
            detail: format!("run `{}` has the unknown status `{}`", row.run_id, row.status),
        })
    }

    fn count_events(&self, conn: &Connection, run_id: &str) -> Result<Counts, StoreError> {
        let rows: Vec<(String, i64)> = conn
            .prepare_cached(EVENT_COUNTS)
            .and_then(|mut stmt| stmt.query_map([run_id], |row| Ok((row.get(0)?, row.get(1)?)))?.collect())
            .map_err(self.db("count the run's events"))?;
        let mut counts = Counts::default();
        for (kind, n) in rows {
            let n = n as u64;
            match kind.as_str() {
                "node_finished" => counts.succeeded = n,
                "node_failed" => counts.failed = n,
                "node_skipped" => counts.skipped = n,
                _ => counts.retried = n,
            }
        }
        Ok(counts)
    }

    fn run_row(&self, conn: &Connection, run_id: &str) -> Result<Option<RunRow>, StoreError> {
        conn.prepare_cached(&format!("SELECT {RUN_COLUMNS} FROM runs WHERE run_id = ?1"))
            .and_then(|mut stmt| stmt.query_row([run_id], RunRow::read).optional())
            .map_err(self.db("read the run"))
    }

    fn plan_id_of(&self, run_id: &str) -> Result<Option<String>, StoreError> {
        self.conn()
            .prepare_cached("SELECT plan_id FROM runs WHERE run_id = ?1")
            .and_then(|mut stmt| stmt.query_row([run_id], |row| row.get(0)).optional())
            .map_err(self.db("read the run"))
    }

    fn require(&self, conn: &Connection, run_id: &str) -> Result<(), StoreError> {
        let found = conn
            .prepare_cached("SELECT 1 FROM runs WHERE run_id = ?1")
            .and_then(|mut stmt| stmt.exists([run_id]))
            .map_err(self.db("read the run"))?;
        if found {
            Ok(())
        } else {
            Err(self.not_found(run_id))
        }
    }

    fn parse<T: serde::de::DeserializeOwned>(
        &self,
        run_id: &str,
        json: &str,
        what: impl FnOnce() -> String,
    ) -> Result<T, StoreError> {
        serde_json::from_str(json).map_err(|source| StoreError::Unreadable {
            run_id: run_id.to_string(),
            what: what(),
            path: self.inner.db_path.clone(),
            source,
        })
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        self.inner.conn.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn db(&self, action: &'static str) -> impl FnOnce(rusqlite::Error) -> StoreError {
        StoreError::db(action, &self.inner.db_path)
    }

    fn not_found(&self, run_id: &str) -> StoreError {
        StoreError::NotFound { run_id: run_id.to_string(), path: self.inner.db_path.clone() }
    }

    fn exists_error(&self, run_id: &str) -> StoreError {
        StoreError::AlreadyExists { run_id: run_id.to_string(), path: self.inner.db_path.clone() }
    }
}

/// Opens the run log at `path` for appending after making it exactly `lines` (the run's events
/// as stored in SQLite), one per line: the longest matching start is kept, the rest rewritten.
fn repair_log(path: &Path, lines: Vec<&str>) -> Result<File, StoreError> {
    let mut file = planwright_fs::private_file()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(StoreError::io("open the run log", path))?;
    let mut content = Vec::new();
    file.read_to_end(&mut content).map_err(StoreError::io("read the run log", path))?;
    let mut kept_bytes = 0;
    let mut kept_lines = 0;
    for line in &lines {
        let end = kept_bytes + line.len();
        if content.get(kept_bytes..end) == Some(line.as_bytes()) && content.get(end) == Some(&b'\n') {
            kept_bytes = end + 1;
            kept_lines += 1;
        } else {
            break;
        }
    }
    if kept_bytes < content.len() || kept_lines < lines.len() {
        tracing::warn!(
            path = %path.display(),
            kept_lines,
            dropped_bytes = content.len() - kept_bytes,
            appended_lines = lines.len() - kept_lines,
            "the run log did not match the run database; rewriting its end from the database"
        );
        let mut tail = String::new();
        for line in &lines[kept_lines..] {
            tail.push_str(line);
            tail.push('\n');
        }
        file.set_len(kept_bytes as u64)
            .and_then(|()| file.seek(SeekFrom::Start(kept_bytes as u64)))
            .and_then(|_| file.write_all(tail.as_bytes()))
            .map_err(StoreError::io("repair the run log", path))?;
    }
    file.seek(SeekFrom::End(0)).map_err(StoreError::io("open the run log", path))?;
    Ok(file)
}

impl fmt::Debug for RunStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RunStore").field("home", &self.inner.home.root()).finish_non_exhaustive()
    }
}
