//! The recorder of one run: numbers events, writes them to SQLite and to the run's JSONL log.

use std::fmt;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use rusqlite::{params, Connection, TransactionBehavior};
use serde_json::{Map, Value};

use crate::lock::RunLock;
use crate::{Event, EventKind, StoreError, EVENT_SCHEMA_VERSION};

/// Records the events of one run. `Send + Sync`: concurrent node tasks share one recorder (behind
/// an `Arc`); an internal mutex keeps `seq` unique, dense and in file order.
///
/// Each event goes first into SQLite (the source of truth for listing and resume), then as one
/// line into the JSONL log, written before the call returns. A process killed between the two
/// leaves the log a line short; [`RunStore::resume`](crate::RunStore::resume) repairs the log from
/// SQLite before the run continues.
///
/// While the recorder lives it holds the run's lock file, so other processes see the run as
/// running; dropping it (or the process ending) releases the lock.
pub struct RunRecorder {
    run_id: String,
    plan_id: String,
    log_path: PathBuf,
    db_path: PathBuf,
    state: Mutex<State>,
    _lock: RunLock,
}

struct State {
    conn: Connection,
    log: File,
    next_seq: u64,
}

/// What a recorder is made of, opened by the store.
pub(crate) struct Parts {
    pub run_id: String,
    pub plan_id: String,
    pub log_path: PathBuf,
    pub db_path: PathBuf,
    /// The recorder's own connection.
    pub conn: Connection,
    /// The run's JSONL log, positioned at its end.
    pub log: File,
    pub next_seq: u64,
    pub lock: RunLock,
}

/// A row stored with the event in the same transaction.
struct Extra {
    sql: &'static str,
    json: String,
}

const INSERT_EVENT: &str = "INSERT INTO events (run_id, seq, type, node, json) VALUES (?1, ?2, ?3, ?4, ?5)";
const INSERT_OUTPUTS: &str = "INSERT OR REPLACE INTO node_outputs (run_id, node, seq, outputs) VALUES (?1, ?2, ?3, ?4)";
const INSERT_ANSWER: &str = "INSERT OR REPLACE INTO answers (run_id, node, seq, answer) VALUES (?1, ?2, ?3, ?4)";
const RUN_STARTED: &str = "UPDATE runs SET status = 'running', finished_at = NULL, counts = NULL, \
                           started_at = CASE WHEN ?2 THEN started_at ELSE ?3 END WHERE run_id = ?1";
const RUN_FINISHED: &str = "UPDATE runs SET status = ?2, finished_at = ?3, counts = ?4 WHERE run_id = ?1";

impl RunRecorder {
    pub(crate) fn new(parts: Parts) -> RunRecorder {
        let Parts { run_id, plan_id, log_path, db_path, conn, log, next_seq, lock } = parts;
        RunRecorder {
            run_id,
            plan_id,
            log_path,
            db_path,
            state: Mutex::new(State { conn, log, next_seq }),
            _lock: lock,
        }
    }

    pub fn run_id(&self) -> &str {
        &self.run_id
    }

    pub fn plan_id(&self) -> &str {
        &self.plan_id
    }

    /// The run's JSONL log.
    pub fn log_path(&self) -> &Path {
        &self.log_path
    }

    /// A folder of `node`'s own beside the run's log (`<run id>/<node>/` next to
    /// `<run id>.jsonl`), for what a block keeps of its work: the objective runner's
    /// `steps.jsonl` and evidence. Not created here. A node path's `/` and brackets
    /// (`each[3]/fetch`) become `_` and `-` (`each-3-_fetch`).
    pub fn node_dir(&self, node: &str) -> PathBuf {
        node_dir_beside(&self.log_path, node)
    }

    /// The seq the next recorded event will get.
    pub fn next_seq(&self) -> u64 {
        self.state.lock().unwrap_or_else(PoisonError::into_inner).next_seq
    }

    /// Assigns the next seq and the current time, inserts the event into SQLite and appends it as
    /// one JSON line to the run's log. Returns the event (for streaming to subscribers).
    ///
    /// `RunStarted` marks the run running again (clearing a previous finish); `RunFinished` stores
    /// its status, time and counts on the run. Record `NodeFinished` with
    /// [`finish_node`](Self::finish_node) and `InputReceived` with
    /// [`receive_input`](Self::receive_input): through `record` their full values are not kept,
    /// so a resume would run the node again.
    pub fn record(&self, kind: EventKind) -> Result<Event, StoreError> {
        self.write(kind, None)
    }

    /// `NodeFinished`, atomically with the node's full outputs: the outputs and the event are
    /// committed in one SQLite transaction (a process killed at any instant leaves both or
    /// neither), then the JSONL line is written. `summary` is the event's `outputs` field.
    pub fn finish_node(
        &self,
        node: &str,
        elapsed_ms: u64,
        attempts: u32,
        outputs: &Map<String, Value>,
        summary: Value,
    ) -> Result<Event, StoreError> {
        let json = self.encode(outputs, || format!("the outputs of node `{node}`"))?;
        let kind = EventKind::NodeFinished { node: node.to_string(), elapsed_ms, attempts, outputs: summary };
        self.write(kind, Some(Extra { sql: INSERT_OUTPUTS, json }))
    }

    /// `InputReceived`, atomically with the full answer kept for resume (as
    /// [`finish_node`](Self::finish_node)). `answer_summary` is the event's `answer` field.
    pub fn receive_input(&self, node: &str, answer_full: &Value, answer_summary: Value) -> Result<Event, StoreError> {
        let json = self.encode(answer_full, || format!("the answer for node `{node}`"))?;
        let kind = EventKind::InputReceived { node: node.to_string(), answer: answer_summary };
        self.write(kind, Some(Extra { sql: INSERT_ANSWER, json }))
    }

    fn encode(&self, value: &impl serde::Serialize, what: impl FnOnce() -> String) -> Result<String, StoreError> {
        serde_json::to_string(value).map_err(|source| StoreError::Encode {
            run_id: self.run_id.clone(),
            what: what(),
            source,
        })
    }

    fn write(&self, kind: EventKind, extra: Option<Extra>) -> Result<Event, StoreError> {
        let mut guard = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let state = &mut *guard;
        let event = Event {
            schema: EVENT_SCHEMA_VERSION,
            run_id: self.run_id.clone(),
            seq: state.next_seq,
            at: crate::now_utc(),
            kind,
        };
        let mut line = self.encode(&event, || format!("event {}", event.seq))?;
        self.store(&mut state.conn, &event, &line, extra)?;
        state.next_seq += 1;
        line.push('\n');
        // One write of the whole line: no buffering, so it is in the file when this returns.
        state.log.write_all(line.as_bytes()).map_err(StoreError::io("append to the run log", &self.log_path))?;
        Ok(event)
    }

    fn store(&self, conn: &mut Connection, event: &Event, json: &str, extra: Option<Extra>) -> Result<(), StoreError> {
        let db = |action| StoreError::db(action, &self.db_path);
        let insert = |conn: &Connection| {
            let node = event.kind.node();
            conn.prepare_cached(INSERT_EVENT)?.execute(params![
                self.run_id,
                event.seq as i64,
                event.kind.type_name(),
                node,
                json
            ])
        };
        let updates_run = matches!(event.kind, EventKind::RunStarted { .. } | EventKind::RunFinished { .. });
        if extra.is_none() && !updates_run {
            insert(conn).map_err(db("insert the event"))?;
            return Ok(());
        }
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(db("start a transaction"))?;
        insert(&tx).map_err(db("insert the event"))?;
        match &event.kind {
            EventKind::RunStarted { resumed_after, .. } => {
                tx.prepare_cached(RUN_STARTED)
                    .and_then(|mut stmt| stmt.execute(params![self.run_id, resumed_after.is_some(), event.at]))
                    .map_err(db("mark the run started"))?;
            }
            EventKind::RunFinished { status, counts, .. } => {
                let counts = self.encode(counts, || "the run's counts".to_string())?;
                tx.prepare_cached(RUN_FINISHED)
                    .and_then(|mut stmt| stmt.execute(params![self.run_id, status.as_str(), event.at, counts]))
                    .map_err(db("mark the run finished"))?;
            }
            _ => {}
        }
        if let Some(Extra { sql, json }) = extra {
            tx.prepare_cached(sql)
                .and_then(|mut stmt| stmt.execute(params![self.run_id, event.kind.node(), event.seq as i64, json]))
                .map_err(db("store the full values"))?;
        }
        tx.commit().map_err(db("commit the event"))
    }
}

impl fmt::Debug for RunRecorder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RunRecorder")
            .field("run_id", &self.run_id)
            .field("plan_id", &self.plan_id)
            .field("log_path", &self.log_path)
            .field("next_seq", &self.state.try_lock().map(|state| state.next_seq).ok())
            .finish()
    }
}

/// `node`'s folder beside the run log at `log_path` (see [`RunRecorder::node_dir`]).
pub(crate) fn node_dir_beside(log_path: &Path, node: &str) -> PathBuf {
    let name: String = node
        .chars()
        .map(|c| match c {
            '/' | '\\' => '_',
            '[' | ']' => '-',
            c if c.is_alphanumeric() || c == '_' || c == '-' || c == '.' => c,
            _ => '_',
        })
        .collect();
    let name = name.trim_start_matches('.');
    log_path.with_extension("").join(if name.is_empty() { "node" } else { name })
}
