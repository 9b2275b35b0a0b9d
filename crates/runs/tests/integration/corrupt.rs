//! A damaged or foreign `runs.db` gives a clear error naming the file, never a panic.

use crate::common;

use std::io::{Seek, SeekFrom, Write};

use common::*;
use planwright_runs::{DataHome, RunStore, StoreError};

fn assert_clear(error: &StoreError, home: &DataHome) {
    let message = error.to_string();
    assert!(message.contains(&home.runs_db().display().to_string()), "the file is not named: {message}");
}

/// A home whose store recorded a few runs, closed again.
fn recorded_home() -> (tempfile::TempDir, DataHome) {
    let (dir, home) = temp_home();
    let store = RunStore::open(&home).unwrap();
    for r in 0..20 {
        let rec = store.begin(&format!("run{r}"), "p", &"plan text ".repeat(200), None).unwrap();
        for i in 0..50 {
            rec.record(log(&format!("event {i} of run {r}"))).unwrap();
        }
    }
    drop(store);
    assert!(!home.root().join("runs.db-wal").exists(), "closing the store checkpoints the WAL");
    (dir, home)
}

#[test]
fn a_file_that_is_not_a_database_is_reported() {
    let (_dir, home) = temp_home();
    std::fs::create_dir_all(home.root()).unwrap();
    std::fs::write(home.runs_db(), "this is not SQLite, just some text that happens to be here\n".repeat(100)).unwrap();
    let error = RunStore::open(&home).unwrap_err();
    assert!(matches!(error, StoreError::Corrupt { .. }), "{error:?}");
    assert_clear(&error, &home);
    assert!(error.to_string().contains("move it aside"), "{error}");
}

#[test]
fn a_damaged_header_is_reported() {
    let (_dir, home) = recorded_home();
    let mut file = std::fs::OpenOptions::new().write(true).open(home.runs_db()).unwrap();
    file.write_all(b"garbage garbage!").unwrap();
    drop(file);
    let error = RunStore::open(&home).unwrap_err();
    assert!(matches!(error, StoreError::Corrupt { .. }), "{error:?}");
    assert_clear(&error, &home);
}

#[test]
fn damaged_pages_give_an_error_not_a_panic() {
    let (_dir, home) = recorded_home();
    let len = std::fs::metadata(home.runs_db()).unwrap().len();
    assert!(len > 4 * 4096, "the database is too small to damage its middle ({len} bytes)");
    let mut file = std::fs::OpenOptions::new().write(true).open(home.runs_db()).unwrap();
    // Keep page 1 (the header and the schema); scribble over every later page.
    let mut offset = 4096;
    while offset < len {
        file.seek(SeekFrom::Start(offset)).unwrap();
        file.write_all(&[0xA5; 4096]).unwrap();
        offset += 8192;
    }
    drop(file);
    let result = RunStore::open(&home).and_then(|store| {
        store.list()?;
        for r in 0..20 {
            store.events(&format!("run{r}"))?;
        }
        Ok(())
    });
    let error = result.unwrap_err();
    assert!(matches!(error, StoreError::Corrupt { .. }), "{error:?}");
    assert_clear(&error, &home);
}

#[test]
fn a_foreign_sqlite_database_is_refused() {
    let (_dir, home) = temp_home();
    std::fs::create_dir_all(home.root()).unwrap();
    let conn = rusqlite::Connection::open(home.runs_db()).unwrap();
    conn.execute_batch("CREATE TABLE contacts (name TEXT);").unwrap();
    drop(conn);
    let error = RunStore::open(&home).unwrap_err();
    assert!(matches!(error, StoreError::Corrupt { .. }), "{error:?}");
    assert!(error.to_string().contains("contacts"), "{error}");
    assert_clear(&error, &home);
}

#[test]
fn a_newer_schema_is_refused() {
    let (_dir, home) = temp_home();
    drop(RunStore::open(&home).unwrap());
    let conn = rusqlite::Connection::open(home.runs_db()).unwrap();
    conn.execute("UPDATE schema_version SET version = 99", []).unwrap();
    drop(conn);
    let error = RunStore::open(&home).unwrap_err();
    assert!(matches!(error, StoreError::TooNew { found: 99, supported: 1, .. }), "{error:?}");
    assert!(error.to_string().contains("update Planwright"), "{error}");
    assert_clear(&error, &home);
}

#[test]
fn a_missing_table_is_reported() {
    let (_dir, home) = temp_home();
    drop(RunStore::open(&home).unwrap());
    let conn = rusqlite::Connection::open(home.runs_db()).unwrap();
    conn.execute_batch("DROP TABLE answers;").unwrap();
    drop(conn);
    let error = RunStore::open(&home).unwrap_err();
    assert!(matches!(error, StoreError::Corrupt { .. }), "{error:?}");
    assert!(error.to_string().contains("answers"), "{error}");
}

#[test]
fn an_unreadable_event_names_the_run_and_seq() {
    let (_dir, home) = temp_home();
    let store = RunStore::open(&home).unwrap();
    let rec = store.begin("r", "p", "id: p", None).unwrap();
    rec.record(log("fine")).unwrap();
    rec.record(log("soon broken")).unwrap();
    let conn = rusqlite::Connection::open(home.runs_db()).unwrap();
    conn.execute("UPDATE events SET json = '{oops' WHERE seq = 2", []).unwrap();
    let error = store.events("r").unwrap_err();
    assert!(matches!(error, StoreError::Unreadable { .. }), "{error:?}");
    let message = error.to_string();
    assert!(message.contains("`r`") && message.contains("event 2"), "{message}");
}
