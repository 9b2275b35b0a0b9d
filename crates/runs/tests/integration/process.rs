//! Runs recorded by other processes: this test binary re-runs itself (`child_process`, with
//! `PW_RUNS_TEST_ROLE` set) to record a run and then abort, be killed, or stay alive; the parent
//! opens the same data home and checks what it sees. No test changes its own environment.

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::*;
use planwright_runs::{Counts, DataHome, EventKind, RunStatus, RunStore, StoreError, HOME_ENV};
use serde_json::json;

const ROLE: &str = "PW_RUNS_TEST_ROLE";
const RUN: &str = "PW_RUNS_TEST_RUN";

/// The child side: does nothing unless started by a test below.
#[test]
fn child_process() {
    let Ok(role) = std::env::var(ROLE) else { return };
    let home = match DataHome::from_env() {
        Ok(home) => home,
        Err(error) => {
            println!("ERROR={error}");
            return;
        }
    };
    if role == "home" {
        println!("HOME={}", home.root().display());
        return;
    }
    let run_id = std::env::var(RUN).unwrap();
    let store = RunStore::open(&home).unwrap();
    let rec = store.begin(&run_id, "invoices", "id: invoices\n", None).unwrap();
    rec.record(run_started("invoices", None)).unwrap();
    match role.as_str() {
        "abort" => {
            rec.record(node_started("read")).unwrap();
            rec.finish_node("read", 4, 1, &object(json!({"rows": [1, 2, 3]})), json!({"rows": "3 items"})).unwrap();
            rec.record(node_started("loop[0]/inner")).unwrap();
            rec.finish_node("loop[0]/inner", 1, 1, &object(json!({"ok": true})), json!({"ok": true})).unwrap();
            rec.record(node_started("loop[1]/inner")).unwrap();
            std::process::abort();
        }
        "hold" => {
            println!("READY");
            std::io::stdout().flush().unwrap();
            // Alive until the parent closes our stdin.
            let mut sink = Vec::new();
            std::io::stdin().read_to_end(&mut sink).unwrap();
        }
        "churn" => {
            for i in 0..100_000 {
                let node = format!("loop[{i}]/inner");
                rec.record(node_started(&node)).unwrap();
                rec.finish_node(&node, 1, 1, &object(json!({"i": i, "pad": "x".repeat(200)})), json!({"i": i}))
                    .unwrap();
                rec.record(log("row done")).unwrap();
                if i == 10 {
                    println!("READY");
                    std::io::stdout().flush().unwrap();
                }
            }
            panic!("the parent should have killed this process by now");
        }
        other => panic!("unknown role {other}"),
    }
}

/// This test binary, to run only `child_process` in the role `role`.
fn child_in(role: &str) -> Command {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["process::child_process", "--exact", "--nocapture", "--test-threads=1", "--quiet"]).env(ROLE, role);
    cmd
}

fn child(role: &str, home: &Path, run_id: &str) -> Command {
    let mut cmd = child_in(role);
    cmd.env(HOME_ENV, home).env(RUN, run_id).env("RUST_BACKTRACE", "0");
    cmd
}

/// Reads the child's stdout up to the line `READY`.
fn wait_ready(child: &mut Child) {
    let stdout = child.stdout.as_mut().unwrap();
    let mut lines = BufReader::new(stdout).lines();
    loop {
        match lines.next() {
            Some(line) if line.as_deref().unwrap().trim() == "READY" => return,
            Some(_) => continue,
            None => panic!("the child ended before it was ready: {:?}", child.wait()),
        }
    }
}

#[test]
fn an_aborted_run_is_interrupted_keeps_finished_outputs_and_resumes() {
    let (_dir, home) = temp_home();
    let output = child("abort", home.root(), "killed-run").output().unwrap();
    assert!(!output.status.success(), "the child should have aborted: {output:?}");

    let store = RunStore::open(&home).unwrap();
    let summary = store.summary("killed-run").unwrap();
    assert_eq!(summary.status, RunStatus::Interrupted);
    assert_eq!(summary.finished_at, None);
    assert_eq!(summary.counts, Counts { succeeded: 2, ..Counts::default() });
    assert_eq!(store.list().unwrap(), vec![summary]);

    let events = store.events("killed-run").unwrap();
    assert_eq!(events.len(), 6);
    assert_dense(&events);
    assert_eq!(read_jsonl(&home.run_log("invoices", "killed-run")), events);
    let outputs = store.finished_outputs("killed-run").unwrap();
    assert_eq!(outputs.len(), 2);
    assert_eq!(outputs["read"], object(json!({"rows": [1, 2, 3]})));
    assert_eq!(outputs["loop[0]/inner"], object(json!({"ok": true})));
    assert_eq!(store.plan("killed-run").unwrap(), ("id: invoices\n".to_string(), None));

    // Resume: the next seq follows the last recorded one.
    let rec = store.resume("killed-run").unwrap();
    let restarted = rec.record(run_started("invoices", Some(6))).unwrap();
    assert_eq!(restarted.seq, 7);
    assert_eq!(store.summary("killed-run").unwrap().status, RunStatus::Running);
    rec.record(node_started("loop[1]/inner")).unwrap();
    rec.finish_node("loop[1]/inner", 1, 1, &object(json!({"ok": true})), json!({"ok": true})).unwrap();
    let counts = Counts { succeeded: 3, ..Counts::default() };
    rec.record(EventKind::RunFinished {
        status: RunStatus::Succeeded,
        counts,
        elapsed_ms: 9,
        reason: None,
        said: None,
    })
    .unwrap();
    drop(rec);

    let events = store.events("killed-run").unwrap();
    assert_eq!(events.len(), 10);
    assert_dense(&events);
    assert_eq!(read_jsonl(&home.run_log("invoices", "killed-run")), events);
    let summary = store.summary("killed-run").unwrap();
    assert_eq!((summary.status, summary.counts), (RunStatus::Succeeded, counts));
    assert_eq!(store.finished_outputs("killed-run").unwrap().len(), 3);
}

#[test]
fn a_run_recorded_by_a_live_process_is_running() {
    let (_dir, home) = temp_home();
    let mut proc = child("hold", home.root(), "held-run").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    wait_ready(&mut proc);

    let store = RunStore::open(&home).unwrap();
    assert_eq!(store.summary("held-run").unwrap().status, RunStatus::Running);
    assert_eq!(store.list().unwrap()[0].status, RunStatus::Running);
    match store.resume("held-run") {
        Err(StoreError::Active { pid, .. }) => assert_eq!(pid, Some(proc.id())),
        other => panic!("resume of a live run: {other:?}"),
    }

    drop(proc.stdin.take());
    assert!(proc.wait().unwrap().success());
    assert_eq!(store.summary("held-run").unwrap().status, RunStatus::Interrupted);
    assert_eq!(store.resume("held-run").unwrap().next_seq(), 2);
}

#[test]
fn a_process_killed_at_any_instant_leaves_outputs_and_events_consistent() {
    let (_dir, home) = temp_home();
    let mut proc = child("churn", home.root(), "churned").stdout(Stdio::piped()).spawn().unwrap();
    wait_ready(&mut proc);
    std::thread::sleep(Duration::from_millis(250));
    proc.kill().unwrap();
    assert!(!proc.wait().unwrap().success());

    let store = RunStore::open(&home).unwrap();
    assert_eq!(store.summary("churned").unwrap().status, RunStatus::Interrupted);
    let events = store.events("churned").unwrap();
    assert!(events.len() > 30, "only {} events before the kill", events.len());
    assert_dense(&events);
    let finished: Vec<&str> = events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::NodeFinished { .. }))
        .map(|e| e.kind.node().unwrap())
        .collect();
    let outputs = store.finished_outputs("churned").unwrap();
    assert_eq!(outputs.len(), finished.len(), "every NodeFinished has its outputs and no more");
    assert!(finished.iter().all(|node| outputs.contains_key(*node)));

    // The log may be a line short or end in a torn line; resume makes it match again.
    let logged = std::fs::read_to_string(home.run_log("invoices", "churned")).unwrap();
    assert!(logged.lines().count() + 1 >= events.len(), "the log lags by more than one event");
    let rec = store.resume("churned").unwrap();
    assert_eq!(rec.next_seq(), events.len() as u64 + 1);
    assert_eq!(read_jsonl(&home.run_log("invoices", "churned")), events);
}

fn home_of_child(env: &[(&str, Option<&Path>)]) -> String {
    let mut cmd = child_in("home");
    for (key, value) in env {
        match value {
            Some(value) => cmd.env(key, value),
            None => cmd.env_remove(key),
        };
    }
    let output = cmd.output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    stdout
        .lines()
        .find_map(|line| line.strip_prefix("HOME=").or_else(|| line.strip_prefix("ERROR=")))
        .unwrap_or_else(|| panic!("no home printed: {stdout}"))
        .to_string()
}

#[test]
fn planwright_home_is_honoured() {
    let dir = tempfile::tempdir().unwrap();
    let chosen = dir.path().join("my-home");
    assert_eq!(home_of_child(&[(HOME_ENV, Some(&chosen))]), chosen.display().to_string());

    // Unset or empty: the platform data folder.
    let data = dir.path().join("xdg-data");
    let fallback = home_of_child(&[(HOME_ENV, Some(Path::new(""))), ("XDG_DATA_HOME", Some(&data))]);
    assert!(fallback.ends_with("planwright"), "{fallback}");
    let unset = home_of_child(&[(HOME_ENV, None), ("XDG_DATA_HOME", Some(&data))]);
    assert_eq!(unset, fallback);
    if cfg!(target_os = "linux") {
        assert_eq!(fallback, data.join("planwright").display().to_string());
    }
}
