//! The fixture task suite, offline (no model configured): every family of page the runner is
//! for — sign-in with a late cookie banner, search and cards with one button name, an ad over
//! the page, a form with select, radio, checkbox and a submit enabled once valid, results that
//! render late, a value to note, a check that must fail, a shadow-DOM switch, a form in a
//! cross-origin frame, a new tab, Japanese pages with a session dialog, a supplier portal and
//! an expense app — each judged by what the fixture server recorded, not by the runner's report.

mod support;

use futures::StreamExt;
use planwright_runs::{Event, EventKind};
use support::{run_task, tasks};

/// The run's warnings and failures, for a task that did not end as expected.
fn said(events: &[Event]) -> String {
    let lines: Vec<String> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Log { level, message, .. } if *level != planwright_runs::LogLevel::Info => Some(message.clone()),
            EventKind::NodeFailed { error, .. } => Some(format!("node failed: {error}")),
            _ => None,
        })
        .collect();
    format!("[run: {}]", lines.join(" | "))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_task_of_the_suite_ends_as_expected_offline() {
    let tasks = tasks();
    assert!(tasks.len() >= 14, "the suite has a task for every family");
    // `PLANWRIGHT_TASKS=id,id` runs only those tasks (while working on them).
    let only = std::env::var("PLANWRIGHT_TASKS").ok();
    let tasks: Vec<_> =
        tasks.into_iter().filter(|t| only.as_deref().is_none_or(|only| only.split(',').any(|id| id == t.id))).collect();
    let results: Vec<(String, Vec<String>)> = futures::stream::iter(tasks.clone())
        .map(|task| async move {
            let run = run_task(&task, false, tempfile::tempdir().unwrap(), None).await;
            let mut wrong = run.mismatches(&task);
            if !wrong.is_empty() {
                wrong.push(said(&run.events));
            }
            // Evidence is what the action brought about, not the "Loading…" before it.
            let steps = run.outputs["report"]["progress"]["objective_steps"].as_array().cloned().unwrap_or_default();
            for step in &steps {
                let evidence = step["completion_evidence"].as_str().unwrap_or_default();
                if ["Loading", "読み込み中", "読み込んでいます"].iter().any(|w| evidence.contains(w)) {
                    wrong.push(format!("step {} has a loading text as evidence: {evidence}", step["index"]));
                }
            }
            (task.id.clone(), wrong)
        })
        .buffer_unordered(2)
        .collect()
        .await;
    let failed: Vec<String> = results
        .iter()
        .filter(|(_, wrong)| !wrong.is_empty())
        .map(|(id, wrong)| format!("{id}: {}", wrong.join("; ")))
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} tasks did not end as expected:\n{}",
        failed.len(),
        results.len(),
        failed.join("\n")
    );
}
