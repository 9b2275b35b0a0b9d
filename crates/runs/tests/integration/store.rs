//! The run store with real files in temporary folders, in one process.

use crate::common;

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use common::*;
use planwright_runs::{
    new_run_id, Counts, DataHome, EventKind, RunRecorder, RunStatus, RunStore, RunSummary, StoreError,
};
use serde_json::json;

fn assert_send_sync<T: Send + Sync>() {}

#[test]
fn store_and_recorder_are_send_and_sync() {
    assert_send_sync::<RunStore>();
    assert_send_sync::<RunRecorder>();
    assert_send_sync::<StoreError>();
}

#[test]
fn open_creates_the_folders_and_the_database() {
    let (_dir, home) = temp_home();
    let store = RunStore::open(&home).unwrap();
    assert!(home.runs_db().is_file());
    assert!(home.runs_dir().is_dir());
    assert_eq!(store.db_path(), home.runs_db());
    // Opening again (another process would) finds the schema in place.
    drop(store);
    RunStore::open(&home).unwrap();
    let conn = rusqlite::Connection::open(home.runs_db()).unwrap();
    let version: i64 = conn.query_row("SELECT version FROM schema_version", [], |r| r.get(0)).unwrap();
    assert_eq!(version, planwright_runs::DB_SCHEMA_VERSION);
    let mode: String = conn.query_row("PRAGMA journal_mode", [], |r| r.get(0)).unwrap();
    assert_eq!(mode, "wal");
}

/// The data home holds run records (and the studio's settings and keys): its folders are the
/// owner's alone (0700), its files too (0600) — the database, its WAL files, logs and locks —
/// and a home made more open by an older version is tightened.
#[cfg(unix)]
#[test]
fn the_data_home_and_its_files_are_the_owners_alone() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    let (_dir, home) = temp_home();
    std::fs::create_dir_all(home.root()).unwrap();
    std::fs::set_permissions(home.root(), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(home.runs_db(), b"").unwrap();
    std::fs::set_permissions(home.runs_db(), std::fs::Permissions::from_mode(0o644)).unwrap();
    let store = RunStore::open(&home).unwrap();
    let run_id = new_run_id();
    let recorder = store.begin(&run_id, "perms", "plan text", None).unwrap();
    recorder.record(run_started("perms", None)).unwrap();
    for dir in [home.root().to_path_buf(), home.runs_dir(), home.runs_dir().join("perms")] {
        assert_eq!(mode(&dir), 0o700, "{}", dir.display());
    }
    let db = home.runs_db().display().to_string();
    let files = [
        home.runs_db(),
        format!("{db}-wal").into(),
        format!("{db}-shm").into(),
        home.run_log("perms", &run_id),
        home.run_lock("perms", &run_id),
    ];
    for file in files {
        assert_eq!(mode(&file), 0o600, "{}", file.display());
    }
}

#[test]
fn file_names_follow_the_layout() {
    let home = DataHome::at("/data");
    assert_eq!(home.run_log("invoices", "r1"), Path::new("/data/runs/invoices/r1.jsonl"));
    assert_eq!(home.run_lock("invoices", "r1"), Path::new("/data/runs/invoices/r1.lock"));
    assert_eq!(home.runs_db(), Path::new("/data/runs.db"));
    assert_eq!(home.root(), Path::new("/data"));
}

#[test]
fn a_run_is_recorded_in_sqlite_and_jsonl_with_dense_seq() {
    let (_dir, home) = temp_home();
    let store = RunStore::open(&home).unwrap();
    let run_id = new_run_id();
    let rec = store.begin(&run_id, "invoices", "id: invoices\n", Some(Path::new("/plans/invoices.yaml"))).unwrap();
    assert_eq!(rec.run_id(), run_id);
    assert_eq!(rec.next_seq(), 1);

    let mut returned = vec![rec.record(run_started("invoices", None)).unwrap()];
    returned.push(rec.record(node_started("read")).unwrap());
    returned
        .push(rec.finish_node("read", 5, 1, &object(json!({"rows": [1, 2, 3]})), json!({"rows": "3 items"})).unwrap());
    returned.push(rec.record(log("read 3 rows")).unwrap());
    returned
        .push(rec.record(run_finished(RunStatus::Succeeded, Counts { succeeded: 1, ..Counts::default() })).unwrap());

    assert_dense(&returned);
    assert!(returned.iter().all(|e| e.run_id == run_id && e.schema == planwright_runs::EVENT_SCHEMA_VERSION));
    assert!(returned.windows(2).all(|w| w[0].at <= w[1].at));
    let stored = store.events(&run_id).unwrap();
    assert_eq!(stored, returned);
    assert_eq!(read_jsonl(&home.run_log("invoices", &run_id)), returned);
    assert_eq!(rec.log_path(), home.run_log("invoices", &run_id));

    let (text, path) = store.plan(&run_id).unwrap();
    assert_eq!(text, "id: invoices\n");
    assert_eq!(path.as_deref(), Some(Path::new("/plans/invoices.yaml")));

    // SQLite columns, as other tools read them.
    let conn = rusqlite::Connection::open(home.runs_db()).unwrap();
    let rows: Vec<(i64, String, Option<String>)> = conn
        .prepare("SELECT seq, type, node FROM events WHERE run_id = ?1 ORDER BY seq")
        .unwrap()
        .query_map([&run_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        rows,
        vec![
            (1, "run_started".into(), None),
            (2, "node_started".into(), Some("read".into())),
            (3, "node_finished".into(), Some("read".into())),
            (4, "log".into(), None),
            (5, "run_finished".into(), None),
        ]
    );
}

#[test]
fn statuses_come_from_run_finished_or_the_recorder_being_alive() {
    let (_dir, home) = temp_home();
    let store = RunStore::open(&home).unwrap();

    let ok = store.begin("run-ok", "p", "id: p", None).unwrap();
    let started = ok.record(run_started("p", None)).unwrap();
    ok.finish_node("a", 1, 1, &object(json!({"x": 1})), json!({"x": 1})).unwrap();
    assert_eq!(store.summary("run-ok").unwrap().status, RunStatus::Running);
    let counts = Counts { succeeded: 1, ..Counts::default() };
    let finished = ok.record(run_finished(RunStatus::Succeeded, counts)).unwrap();
    // Final as soon as RunFinished is recorded, even while the recorder still lives.
    assert_eq!(
        store.summary("run-ok").unwrap(),
        RunSummary {
            run_id: "run-ok".into(),
            plan_id: "p".into(),
            status: RunStatus::Succeeded,
            started_at: started.at.clone(),
            finished_at: Some(finished.at.clone()),
            counts,
        }
    );
    drop(ok);
    assert_eq!(store.summary("run-ok").unwrap().status, RunStatus::Succeeded);

    let failed = store.begin("run-failed", "p", "id: p", None).unwrap();
    failed.record(run_started("p", None)).unwrap();
    failed.record(node_failed("a")).unwrap();
    let counts = Counts { failed: 1, ..Counts::default() };
    failed.record(run_finished(RunStatus::Failed, counts)).unwrap();
    drop(failed);
    let summary = store.summary("run-failed").unwrap();
    assert_eq!((summary.status, summary.counts), (RunStatus::Failed, counts));

    let live = store.begin("run-live", "q", "id: q", None).unwrap();
    live.record(run_started("q", None)).unwrap();
    live.record(node_started("a")).unwrap();
    live.finish_node("a", 1, 1, &object(json!({})), json!({})).unwrap();
    live.record(EventKind::NodeRetried {
        node: "b".into(),
        attempt: 1,
        error: "503".into(),
        backoff_ms: 100,
        said: None,
    })
    .unwrap();
    live.record(EventKind::NodeSkipped { node: "c".into(), reason: "when is false".into(), said: None }).unwrap();
    let summary = store.summary("run-live").unwrap();
    assert_eq!(summary.status, RunStatus::Running);
    assert_eq!(summary.finished_at, None);
    assert_eq!(summary.counts, Counts { succeeded: 1, skipped: 1, retried: 1, ..Counts::default() });

    // Newest first.
    let listed: Vec<(String, RunStatus)> = store.list().unwrap().into_iter().map(|s| (s.run_id, s.status)).collect();
    assert_eq!(
        listed,
        vec![
            ("run-live".into(), RunStatus::Running),
            ("run-failed".into(), RunStatus::Failed),
            ("run-ok".into(), RunStatus::Succeeded),
        ]
    );

    // Dropped without RunFinished: interrupted, with the counts so far.
    drop(live);
    let summary = store.summary("run-live").unwrap();
    assert_eq!(summary.status, RunStatus::Interrupted);
    assert_eq!(summary.counts.succeeded, 1);
    assert_eq!(store.list().unwrap()[0].status, RunStatus::Interrupted);
}

#[test]
fn a_store_opened_later_sees_the_same_statuses() {
    let (_dir, home) = temp_home();
    {
        let store = RunStore::open(&home).unwrap();
        let rec = store.begin("r1", "p", "id: p", None).unwrap();
        rec.record(run_started("p", None)).unwrap();
        rec.record(run_finished(RunStatus::Stopped, Counts::default())).unwrap();
        let rec = store.begin("r2", "p", "id: p", None).unwrap();
        rec.record(run_started("p", None)).unwrap();
    }
    let store = RunStore::open(&home).unwrap();
    let statuses: HashMap<String, RunStatus> =
        store.list().unwrap().into_iter().map(|s| (s.run_id, s.status)).collect();
    assert_eq!(statuses["r1"], RunStatus::Stopped);
    assert_eq!(statuses["r2"], RunStatus::Interrupted);
}

#[test]
fn an_unanswered_input_request_makes_a_stopped_run_wait_for_input() {
    let (_dir, home) = temp_home();
    let store = RunStore::open(&home).unwrap();
    let rec = store.begin("r", "p", "id: p", None).unwrap();
    rec.record(run_started("p", None)).unwrap();
    rec.finish_node("read", 1, 1, &object(json!({"rows": 3})), json!({"rows": 3})).unwrap();
    rec.record(input_requested("approve")).unwrap();
    // Another branch goes on meanwhile, and the node logs: the request is still unanswered.
    rec.record(node_started("other")).unwrap();
    rec.record(EventKind::Log {
        node: Some("approve".into()),
        level: planwright_runs::LogLevel::Info,
        message: "waiting".into(),
        said: None,
    })
    .unwrap();
    assert_eq!(store.summary("r").unwrap().status, RunStatus::Running);
    drop(rec);
    assert_eq!(store.summary("r").unwrap().status, RunStatus::WaitingForInput);

    // Answered on resume, then interrupted again: no longer waiting.
    let rec = store.resume("r").unwrap();
    rec.record(run_started("p", Some(5))).unwrap();
    rec.receive_input("approve", &json!({"confirmed": true, "note": "full text"}), json!({"confirmed": true})).unwrap();
    drop(rec);
    assert_eq!(store.summary("r").unwrap().status, RunStatus::Interrupted);
    assert_eq!(store.answers("r").unwrap()["approve"], json!({"confirmed": true, "note": "full text"}));

    // A request whose node then failed is not pending either.
    let rec = store.begin("r2", "p", "id: p", None).unwrap();
    rec.record(input_requested("approve")).unwrap();
    rec.record(node_failed("approve")).unwrap();
    drop(rec);
    assert_eq!(store.summary("r2").unwrap().status, RunStatus::Interrupted);

    // RunFinished with WaitingForInput is final as recorded.
    let rec = store.begin("r3", "p", "id: p", None).unwrap();
    rec.record(input_requested("approve")).unwrap();
    rec.record(run_finished(RunStatus::WaitingForInput, Counts::default())).unwrap();
    drop(rec);
    let summary = store.summary("r3").unwrap();
    assert_eq!(summary.status, RunStatus::WaitingForInput);
    assert!(summary.finished_at.is_some());
}

#[test]
fn resume_continues_seq_and_reopens_a_finished_record() {
    let (_dir, home) = temp_home();
    let store = RunStore::open(&home).unwrap();
    let rec = store.begin("r", "p", "id: p", None).unwrap();
    rec.record(run_started("p", None)).unwrap();
    rec.record(input_requested("approve")).unwrap();
    rec.record(run_finished(RunStatus::WaitingForInput, Counts::default())).unwrap();
    drop(rec);
    let first = store.summary("r").unwrap();

    let rec = store.resume("r").unwrap();
    assert_eq!(rec.next_seq(), 4);
    rec.record(run_started("p", Some(3))).unwrap();
    let summary = store.summary("r").unwrap();
    assert_eq!((summary.status, summary.finished_at.clone()), (RunStatus::Running, None));
    assert_eq!(summary.started_at, first.started_at, "a resume keeps the run's start time");
    rec.receive_input("approve", &json!("yes"), json!("yes")).unwrap();
    rec.finish_node("approve", 1, 1, &object(json!({"answer": "yes"})), json!({"answer": "yes"})).unwrap();
    rec.record(run_finished(RunStatus::Succeeded, Counts { succeeded: 1, ..Counts::default() })).unwrap();
    drop(rec);

    let events = store.events("r").unwrap();
    assert_eq!(events.len(), 7);
    assert_dense(&events);
    assert_eq!(read_jsonl(&home.run_log("p", "r")), events);
    assert_eq!(store.summary("r").unwrap().status, RunStatus::Succeeded);

    // And again, from a store opened anew.
    let store = RunStore::open(&home).unwrap();
    let rec = store.resume("r").unwrap();
    assert_eq!(rec.record(log("again")).unwrap().seq, 8);
}

#[test]
fn resume_refuses_a_run_whose_recorder_is_alive() {
    let (_dir, home) = temp_home();
    let store = RunStore::open(&home).unwrap();
    let rec = store.begin("r", "p", "id: p", None).unwrap();
    rec.record(run_started("p", None)).unwrap();
    let error = store.resume("r").unwrap_err();
    assert!(matches!(error, StoreError::Active { .. }), "{error:?}");
    let message = error.to_string();
    assert!(message.contains("`r`") && message.contains("r.lock"), "{message}");
    assert!(message.contains(&format!("process {}", std::process::id())), "{message}");
    drop(rec);
    store.resume("r").unwrap();
}

#[test]
fn resume_repairs_a_log_that_does_not_match_the_database() {
    let (_dir, home) = temp_home();
    let store = RunStore::open(&home).unwrap();
    let rec = store.begin("r", "p", "id: p", None).unwrap();
    for i in 0..5 {
        rec.record(log(&format!("line {i}"))).unwrap();
    }
    drop(rec);
    let log_path = home.run_log("p", "r");
    let good = std::fs::read_to_string(&log_path).unwrap();

    // Killed mid-write: a torn last line.
    std::fs::write(&log_path, format!("{good}{{\"schema\":1,\"run_id\":\"r\",\"se")).unwrap();
    store.resume("r").unwrap().record(log("after a torn line")).unwrap();
    let events = store.events("r").unwrap();
    assert_eq!(events.len(), 6);
    assert_eq!(read_jsonl(&log_path), events);

    // Killed between SQLite and the log: the log lacks the last lines.
    let lines: Vec<&str> = good.lines().collect();
    std::fs::write(&log_path, format!("{}\n", lines[..3].join("\n"))).unwrap();
    store.resume("r").unwrap().record(log("after missing lines")).unwrap();
    let events = store.events("r").unwrap();
    assert_eq!(events.len(), 7);
    assert_eq!(read_jsonl(&log_path), events);

    // The log deleted: rebuilt whole.
    std::fs::remove_file(&log_path).unwrap();
    store.resume("r").unwrap();
    assert_eq!(read_jsonl(&log_path), events);

    // A line the database does not have (and a foreign edit) is dropped.
    let mut text = std::fs::read_to_string(&log_path).unwrap();
    text.push_str("{\"not\": \"an event\"}\n");
    std::fs::write(&log_path, text).unwrap();
    let rec = store.resume("r").unwrap();
    assert_eq!(read_jsonl(&log_path), events);
    assert_eq!(rec.record(log("next")).unwrap().seq, 8);
}

#[test]
fn finished_outputs_and_answers_are_kept_in_full() {
    let (_dir, home) = temp_home();
    let store = RunStore::open(&home).unwrap();
    let rec = store.begin("r", "p", "id: p", None).unwrap();
    let big = "x".repeat(100_000);
    let full = object(json!({"text": big, "rows": [{"a": 1}, {"a": 2}], "n": 18446744073709551615u64}));
    let event = rec.finish_node("loop[3]/inner", 7, 2, &full, json!({"text": "100000 characters"})).unwrap();
    assert_eq!(
        event.kind,
        EventKind::NodeFinished {
            node: "loop[3]/inner".into(),
            elapsed_ms: 7,
            attempts: 2,
            outputs: json!({"text": "100000 characters"})
        }
    );
    rec.finish_node("call/inner", 1, 1, &object(json!({})), json!({})).unwrap();
    let event = rec.receive_input("approve", &json!({"password_free": "long answer"}), json!("masked")).unwrap();
    assert_eq!(event.kind, EventKind::InputReceived { node: "approve".into(), answer: json!("masked") });
    // A plain record of NodeFinished keeps no outputs.
    rec.record(EventKind::NodeFinished { node: "plain".into(), elapsed_ms: 1, attempts: 1, outputs: json!({}) })
        .unwrap();

    let outputs = store.finished_outputs("r").unwrap();
    assert_eq!(outputs.len(), 2);
    assert_eq!(outputs["loop[3]/inner"], full);
    assert!(outputs["call/inner"].is_empty());
    assert_eq!(
        store.answers("r").unwrap(),
        HashMap::from([("approve".to_string(), json!({"password_free": "long answer"}))])
    );
    // The log holds only the summaries.
    let log_text = std::fs::read_to_string(home.run_log("p", "r")).unwrap();
    assert!(!log_text.contains(&big) && !log_text.contains("long answer"));

    // Another run has none.
    store.begin("other", "p", "id: p", None).unwrap();
    assert!(store.finished_outputs("other").unwrap().is_empty());
    assert!(store.answers("other").unwrap().is_empty());
}

#[test]
fn eight_threads_recording_keep_seq_unique_and_dense() {
    let (_dir, home) = temp_home();
    let store = RunStore::open(&home).unwrap();
    let rec = Arc::new(store.begin("r", "p", "id: p", None).unwrap());
    rec.record(run_started("p", None)).unwrap();
    let per_thread = 250;
    let handles: Vec<_> = (0..8)
        .map(|t| {
            let rec = Arc::clone(&rec);
            std::thread::spawn(move || {
                let mut seqs = Vec::new();
                for i in 0..per_thread {
                    let node = format!("branch{t}/node[{i}]");
                    let event = match i % 3 {
                        0 => rec.record(node_started(&node)).unwrap(),
                        1 => rec.finish_node(&node, 1, 1, &object(json!({"t": t, "i": i})), json!({})).unwrap(),
                        _ => rec.record(log(&format!("thread {t} event {i}"))).unwrap(),
                    };
                    seqs.push(event.seq);
                }
                seqs
            })
        })
        .collect();
    let mut seqs: Vec<u64> = handles.into_iter().flat_map(|h| h.join().unwrap()).collect();
    seqs.sort_unstable();
    let expected: Vec<u64> = (2..=8 * per_thread as u64 + 1).collect();
    assert_eq!(seqs, expected);

    let events = store.events("r").unwrap();
    assert_eq!(events.len(), 8 * per_thread + 1);
    assert_dense(&events);
    assert_eq!(read_jsonl(&home.run_log("p", "r")), events, "the log is in seq order");
    let outputs = store.finished_outputs("r").unwrap();
    assert_eq!(outputs.len(), 8 * (per_thread / 3 + usize::from(per_thread % 3 > 1)));
    assert_eq!(outputs["branch5/node[4]"], object(json!({"t": 5, "i": 4})));
}

#[test]
fn two_runs_record_at_the_same_time() {
    let (_dir, home) = temp_home();
    let store = RunStore::open(&home).unwrap();
    let a = store.begin("a", "p", "id: p", None).unwrap();
    let b = store.clone().begin("b", "q", "id: q", None).unwrap();
    std::thread::scope(|s| {
        for rec in [&a, &b] {
            s.spawn(move || {
                for i in 0..200 {
                    rec.record(log(&i.to_string())).unwrap();
                }
            });
        }
    });
    for (id, plan) in [("a", "p"), ("b", "q")] {
        let events = store.events(id).unwrap();
        assert_eq!(events.len(), 200);
        assert_dense(&events);
        assert_eq!(read_jsonl(&home.run_log(plan, id)), events);
    }
}

#[test]
fn ten_thousand_events_take_well_under_seconds() {
    let (_dir, home) = temp_home();
    let store = RunStore::open(&home).unwrap();
    let rec = store.begin("r", "p", "id: p", None).unwrap();
    let start = Instant::now();
    rec.record(run_started("p", None)).unwrap();
    for i in 0..3333 {
        let node = format!("loop[{i}]/inner");
        rec.record(node_started(&node)).unwrap();
        rec.finish_node(&node, 1, 1, &object(json!({"row": i, "text": "some value"})), json!({"row": i})).unwrap();
        rec.record(log("row done")).unwrap();
    }
    rec.record(run_finished(RunStatus::Succeeded, Counts { succeeded: 3333, ..Counts::default() })).unwrap();
    let elapsed = start.elapsed();
    eprintln!("10,000 events recorded in {elapsed:?} ({:?} per event)", elapsed / 10_001);
    // Generous for unoptimised test builds on a loaded machine; release builds take a fraction.
    assert!(elapsed.as_secs_f64() < 8.0, "10,000 events took {elapsed:?}");
    assert_eq!(store.events("r").unwrap().len(), 10_001);
    assert_eq!(store.summary("r").unwrap().status, RunStatus::Succeeded);
}

#[test]
fn unknown_runs_are_named_in_not_found() {
    let (_dir, home) = temp_home();
    let store = RunStore::open(&home).unwrap();
    let checks: Vec<StoreError> = vec![
        store.summary("nope").unwrap_err(),
        store.events("nope").unwrap_err(),
        store.plan("nope").unwrap_err(),
        store.finished_outputs("nope").unwrap_err(),
        store.answers("nope").unwrap_err(),
        store.resume("nope").unwrap_err(),
    ];
    for error in checks {
        assert!(matches!(error, StoreError::NotFound { .. }), "{error:?}");
        let message = error.to_string();
        assert!(message.contains("`nope`") && message.contains("runs.db"), "{message}");
    }
}

#[test]
fn a_run_id_is_found_by_a_unique_prefix_as_git_finds_commits() {
    let (_dir, home) = temp_home();
    let store = RunStore::open(&home).unwrap();
    for id in ["0194aa-first", "0194ab-second", "0194ab-second-2"] {
        drop(store.begin(id, "plan", "id: plan", None).unwrap());
    }
    assert_eq!(store.resolve_id("0194aa").unwrap(), "0194aa-first");
    assert_eq!(store.resolve_id("0194aa-first").unwrap(), "0194aa-first");
    // A full id wins over the longer ids it starts.
    assert_eq!(store.resolve_id("0194ab-second").unwrap(), "0194ab-second");
    let ambiguous = store.resolve_id("0194").unwrap_err();
    assert!(matches!(&ambiguous, StoreError::AmbiguousId { candidates, .. } if candidates.len() == 3), "{ambiguous:?}");
    assert!(ambiguous.to_string().contains("0194ab-second-2"), "{ambiguous}");
    // SQL wildcards in what was typed are plain characters.
    assert!(matches!(store.resolve_id("0194_").unwrap_err(), StoreError::NotFound { .. }));
    assert!(matches!(store.resolve_id("%").unwrap_err(), StoreError::NotFound { .. }));
}

#[test]
fn begin_refuses_used_or_unsafe_ids() {
    let (_dir, home) = temp_home();
    let store = RunStore::open(&home).unwrap();
    let live = store.begin("r", "p", "id: p", None).unwrap();
    // Used by a live recorder, and used by a finished run.
    assert!(matches!(store.begin("r", "p", "x", None), Err(StoreError::AlreadyExists { .. })));
    live.record(log("kept")).unwrap();
    drop(live);
    let error = store.begin("r", "p", "x", None).unwrap_err();
    assert!(matches!(error, StoreError::AlreadyExists { .. }), "{error:?}");
    assert!(error.to_string().contains("`r`"));
    // The refused begin left the run's log alone.
    assert_eq!(read_jsonl(&home.run_log("p", "r")).len(), 1);

    for (plan_id, run_id) in [("../escape", "r2"), ("p", "a/b"), ("", "r3"), ("p", ".lock")] {
        let error = store.begin(run_id, plan_id, "x", None).unwrap_err();
        assert!(matches!(error, StoreError::InvalidId { .. }), "{error:?}");
    }
    assert!(!home.root().parent().unwrap().join("escape").exists());
}

#[test]
fn a_missing_data_home_folder_is_created_and_an_unusable_one_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let home = DataHome::at(dir.path().join("deep/er/home"));
    RunStore::open(&home).unwrap();

    let file = dir.path().join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let error = RunStore::open(&DataHome::at(&file)).unwrap_err();
    assert!(matches!(error, StoreError::Io { .. }), "{error:?}");
    assert!(error.to_string().contains("a-file"), "{error}");
}

#[test]
fn data_home_resolution_prefers_planwright_home() {
    let data = Some(Path::new("/users/x/.local/share").to_path_buf());
    let from = |home: Option<&str>, data: Option<std::path::PathBuf>| {
        DataHome::resolve(home.map(Into::into), data).map(|h| h.root().to_path_buf())
    };
    assert_eq!(from(Some("/srv/pw"), data.clone()).unwrap(), Path::new("/srv/pw"));
    assert_eq!(from(Some("/srv/pw"), None).unwrap(), Path::new("/srv/pw"));
    assert_eq!(from(Some(""), data.clone()).unwrap(), Path::new("/users/x/.local/share/planwright"));
    assert_eq!(from(None, data).unwrap(), Path::new("/users/x/.local/share/planwright"));
    let error = from(None, None).unwrap_err();
    assert!(matches!(error, StoreError::NoDataHome));
    assert!(error.to_string().contains("PLANWRIGHT_HOME"), "{error}");
    assert!(matches!(from(Some(""), None), Err(StoreError::NoDataHome)));
}
