//! `runs.db`: connections and the schema with its migrations.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior};

use crate::StoreError;

/// The schema version this build writes; `schema_version` holds the version of a database.
pub const DB_SCHEMA_VERSION: i64 = 1;

/// How long a statement waits for another connection's write lock before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Migration `i` takes a database from version `i` to `i + 1`.
const MIGRATIONS: [&str; DB_SCHEMA_VERSION as usize] = [r#"
CREATE TABLE runs (
    run_id      TEXT NOT NULL PRIMARY KEY,
    plan_id     TEXT NOT NULL,
    plan_path   TEXT,
    plan_text   TEXT NOT NULL,
    started_at  TEXT NOT NULL,
    finished_at TEXT,
    status      TEXT NOT NULL,
    counts      TEXT
);
CREATE INDEX runs_by_start ON runs (started_at);

CREATE TABLE events (
    run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
    seq    INTEGER NOT NULL,
    type   TEXT NOT NULL,
    node   TEXT,
    json   TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

CREATE TABLE node_outputs (
    run_id  TEXT NOT NULL,
    node    TEXT NOT NULL,
    seq     INTEGER NOT NULL,
    outputs TEXT NOT NULL,
    PRIMARY KEY (run_id, node),
    FOREIGN KEY (run_id, seq) REFERENCES events (run_id, seq) ON DELETE CASCADE
) WITHOUT ROWID;

CREATE TABLE answers (
    run_id TEXT NOT NULL,
    node   TEXT NOT NULL,
    seq    INTEGER NOT NULL,
    answer TEXT NOT NULL,
    PRIMARY KEY (run_id, node),
    FOREIGN KEY (run_id, seq) REFERENCES events (run_id, seq) ON DELETE CASCADE
) WITHOUT ROWID;
"#];

/// The tables a database of the current version must have.
const TABLES: [&str; 5] = ["schema_version", "runs", "events", "node_outputs", "answers"];

/// Creates the database file readable by its owner alone, or tightens the one there and its
/// WAL files (SQLite gives those the database file's permissions when it creates them).
pub(crate) fn create_private(path: &Path) -> Result<(), StoreError> {
    planwright_fs::private_file()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(StoreError::io("create the database", path))?;
    for suffix in ["", "-wal", "-shm"] {
        let file = PathBuf::from(format!("{}{suffix}", path.display()));
        planwright_fs::make_private(&file).map_err(StoreError::io("make private", &file))?;
    }
    Ok(())
}

/// Opens a connection to `path` set up for the store: WAL, `synchronous=NORMAL` (a crash of the
/// process loses nothing; a power cut may lose the last commits), foreign keys on, busy timeout.
pub(crate) fn connect(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path).map_err(StoreError::db("open the database", path))?;
    conn.busy_timeout(BUSY_TIMEOUT).map_err(StoreError::db("set the busy timeout", path))?;
    let mode: String = conn
        .pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0))
        .map_err(StoreError::db("switch to WAL", path))?;
    if !mode.eq_ignore_ascii_case("wal") {
        tracing::warn!(path = %path.display(), mode, "the run database cannot use WAL; writes will be slower");
    }
    conn.pragma_update(None, "synchronous", "NORMAL").map_err(StoreError::db("set synchronous", path))?;
    conn.pragma_update(None, "foreign_keys", "ON").map_err(StoreError::db("turn foreign keys on", path))?;
    Ok(conn)
}

/// Brings the database at `path` to [`DB_SCHEMA_VERSION`], refusing a newer or foreign one.
pub(crate) fn migrate(conn: &mut Connection, path: &Path) -> Result<(), StoreError> {
    let corrupt = |detail: String| StoreError::Corrupt { path: path.to_path_buf(), detail };
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(StoreError::db("start the schema migration", path))?;
    let tables: Vec<String> = {
        let mut stmt = tx
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
            .map_err(StoreError::db("read the schema", path))?;
        let names = stmt
            .query_map([], |row| row.get(0))
            .and_then(|rows| rows.collect::<Result<_, _>>())
            .map_err(StoreError::db("read the schema", path))?;
        names
    };
    let version = if tables.iter().any(|t| t == "schema_version") {
        let version: Option<i64> = tx
            .query_row("SELECT MAX(version) FROM schema_version", [], |row| row.get(0))
            .optional()
            .map_err(StoreError::db("read the schema version", path))?
            .flatten();
        match version {
            Some(v) if v > DB_SCHEMA_VERSION => {
                return Err(StoreError::TooNew { path: path.to_path_buf(), found: v, supported: DB_SCHEMA_VERSION })
            }
            Some(v) if v >= 1 => v,
            Some(v) => return Err(corrupt(format!("its schema version {v} is not a version"))),
            None => return Err(corrupt("its schema_version table is empty".into())),
        }
    } else if tables.is_empty() {
        tx.execute_batch("CREATE TABLE schema_version (version INTEGER NOT NULL);")
            .map_err(StoreError::db("create the schema", path))?;
        0
    } else {
        return Err(corrupt(format!("it has tables ({}) but no schema_version table", tables.join(", "))));
    };
    for (from, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        tx.execute_batch(sql).map_err(StoreError::db("migrate the schema", path))?;
        tracing::debug!(path = %path.display(), from, to = from + 1, "migrated the run database");
    }
    if version < DB_SCHEMA_VERSION {
        tx.execute("DELETE FROM schema_version", [])
            .and_then(|_| tx.execute("INSERT INTO schema_version (version) VALUES (?1)", [DB_SCHEMA_VERSION]))
            .map_err(StoreError::db("record the schema version", path))?;
    } else {
        let missing: Vec<&str> = TABLES.into_iter().filter(|t| !tables.iter().any(|have| have == t)).collect();
        if !missing.is_empty() {
            return Err(corrupt(format!("tables missing: {}", missing.join(", "))));
        }
    }
    tx.commit().map_err(StoreError::db("commit the schema migration", path))
}
