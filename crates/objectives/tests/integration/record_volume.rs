//! What a run's record repeats of a long step: the step's text whole once (the plan, the node's
//! `steps` output), and a summary everywhere it comes again — every progress event and log line,
//! `steps.jsonl`, `planning.jsonl` and the reports made from the record.

use crate::support;

use planwright_reports::RunRecord;
use planwright_runs::{DataHome, RunStore};
use planwright_sites::FixtureSites;
use serde_json::json;

/// Bytes a record may hold beyond the text it keeps whole: summaries of ~2,000 characters, each
/// repeated by a few dozen events at most.
const SUMMARIES: usize = 300_000;

#[tokio::test]
async fn a_long_step_is_kept_whole_once_and_summarised_everywhere_else() {
    let sites = FixtureSites::start().await.unwrap();
    let check = format!("Check that the page says {}", "lorem ipsum ".repeat(35_000));
    let text = check.len();
    let inputs = json!({
        "start_url": sites.url("/trust/form.html?instant=1"),
        "steps": format!("1. Click Send\n2. {check}"),
        // The person accepts the result as it is: the node ends with its outputs whole (a node
        // that fails keeps a summary of them on its failure).
        "on_unsatisfied": "ask",
        "max_retries_per_step": 1,
    });
    let node = json!({"id": "task", "block": "browser.run_objectives", "in": inputs,
                      "out": {"report": "report", "passed": "passed"}});
    let plan = format!(
        "apiVersion: planwright/v1\nid: volume\nversion: 1.0.0\npolicy: {{on_error: continue}}\ngraph:\n  - {node}\n"
    );
    let run = support::run_plan_on(
        &sites,
        "volume",
        &plan,
        &Default::default(),
        tempfile::tempdir().unwrap(),
        None,
        support::Person::answering(vec![json!({"choice": "accept_partial"})]),
    )
    .await;
    assert_eq!(run.outputs["report"]["steps"][1]["status"], "failed");
    let store = RunStore::open(&DataHome::at(run.home.path())).unwrap();
    let outputs = store.finished_outputs(&run.outcome.run_id).unwrap().remove("task").unwrap();
    let kept = outputs["report"]["steps"][1]["objective"].as_str().unwrap();
    assert!(kept == check.trim(), "the step's text is whole once, in the node's outputs: {} bytes", kept.len());
    let outputs = serde_json::to_string(&outputs).unwrap();
    assert!(outputs.len() < text + SUMMARIES, "the outputs hold {} bytes for a {text}-byte step", outputs.len());

    let events = serde_json::to_string(&run.events).unwrap();
    assert!(events.len() < SUMMARIES, "the events hold {} bytes for a {text}-byte step", events.len());
    assert!(
        events.contains(&format!("({} characters)", check.trim().chars().count())),
        "a summary says how long the text was"
    );
    for file in ["steps.jsonl", "planning.jsonl"] {
        let bytes = std::fs::metadata(run.records().join(file)).unwrap().len() as usize;
        assert!(bytes < SUMMARIES, "{file} holds {bytes} bytes for a {text}-byte step");
    }

    let record = RunRecord::read(&store, &run.outcome.run_id).unwrap();
    for (report, bytes) in [
        ("HTML", planwright_reports::html(&record, &planwright_reports::ReportOptions::default()).len()),
        ("JUnit", planwright_reports::junit(&record).len()),
    ] {
        assert!(bytes < text + SUMMARIES, "the {report} report holds {bytes} bytes for a {text}-byte step");
    }
}
