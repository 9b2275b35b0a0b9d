//! The runner with a model, through the real client against the scripted model server: the
//! model is asked only where the offline resolver found no target; a TARGET_NOT_FOUND is an
//! attempt that failed, an answer that breaks the schema is asked again once, a completion the
//! evaluator judges false is tried again; the actions that worked are cached, so the same
//! objective on the next run costs no model call. A secret typed into a plain text field never
//! reaches the model, the record, the logs or the report.

use crate::support;

use std::collections::HashMap;

use planwright_llm_replay::{ReplayServer, Reply, Script};
use planwright_runs::EventKind;
use planwright_sites::FixtureSites;
use serde_json::{json, Value};
use support::{client, run_task, run_task_on, Task};

fn task(id: &str, start: &str, steps: &str, secrets: &[(&str, &str)]) -> Task {
    Task {
        secrets: secrets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<HashMap<_, _>>(),
        ..Task::new(id, start, steps)
    }
}

fn decision(actions: Value) -> Reply {
    Reply::json(&json!({"status": "act", "actions": actions, "reason": ""}))
}

fn buy_now() -> Value {
    json!([{"method": "getByRole", "selector": {"role": "button", "name": "Buy now", "text": null, "testId": null, "near": null},
            "action": "click", "value": null, "confidence": 0.8, "rationale": "the keyboard's one-click purchase"}])
}

fn model_calls(run: &support::TaskRun) -> Vec<Value> {
    run.events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::ModelCall { .. }))
        .map(|e| serde_json::to_value(&e.kind).unwrap())
        .collect()
}

#[tokio::test]
async fn the_model_decides_what_the_resolver_cannot_and_a_rerun_replays_it_with_no_call() {
    let server = ReplayServer::start(Script::in_order([
        Reply::json(&json!({"status": "TARGET_NOT_FOUND", "actions": [], "reason": "I cannot tell which item"})),
        // Breaks the schema (no actions): asked again once, with the errors.
        Reply::json(&json!({"status": "act", "reason": "missing the actions"})),
        decision(buy_now()),
        Reply::json(&json!({"achieved": true, "evidence": "status: Mechanical keyboard: ordered with one click."})),
    ]))
    .await;
    // Seed 004's loop alone (legacy mode): the planning layer's calls are tested elsewhere.
    let mut task = task("model_keyboard", "/products.html?instant=1", "1. Get the mechanical keyboard", &[]);
    task.inputs.insert("planning".into(), json!(false));
    let sites = FixtureSites::start().await.unwrap();
    let first = run_task_on(&sites, &task, true, tempfile::tempdir().unwrap(), Some(client(&server))).await;
    assert_eq!(first.outputs["passed"], true, "{}", first.notes());
    assert_eq!(first.outputs["report"]["steps"][0]["attempts"], 2, "{}", first.notes());
    let calls = model_calls(&first);
    assert_eq!(calls.len(), 4, "{calls:#?}");
    assert_eq!(server.unused(), 0, "every scripted answer was asked for");
    let tiers: Vec<&str> = calls.iter().map(|c| c["tier"].as_str().unwrap_or_default()).collect();
    assert_eq!(tiers, ["fast", "fast", "fast", "evaluator"]);
    assert!(
        first.outcome.counts.input_tokens > 0 && first.outcome.counts.model_calls == 4,
        "{:?}",
        first.outcome.counts
    );
    let requests = server.requests();
    assert!(requests[2].body.contains("does not follow the required format"), "the re-ask quotes the errors");
    assert!(requests[1].body.contains("I cannot tell which item"), "the next attempt sees what failed");
    assert!(requests[0].body.contains("button \\\"Buy now\\\""), "the decision sees the page's snapshot");
    // A purchase the evaluator doubts is never made again on its own (`effects` tests that).
    assert_eq!(first.state["events"].as_array().unwrap().iter().filter(|e| e["action"] == "buy_now").count(), 1);

    // Same objective, same page, same data home: replayed from the cache, no model call at all.
    sites.reset();
    let second = run_task_on(&sites, &task, true, first.home, Some(client(&server))).await;
    assert_eq!(second.outputs["passed"], true, "{}", second.notes());
    assert_eq!(second.outputs["report"]["replayed_from_cache"], 1);
    assert_eq!(second.outputs["report"]["model_calls"], 0);
    assert!(model_calls(&second).is_empty());
    assert_eq!(server.requests().len(), 4, "the second run asked the model nothing");
    assert_eq!(second.state["events"].as_array().unwrap().iter().filter(|e| e["action"] == "buy_now").count(), 1);
}

#[tokio::test]
async fn a_secret_typed_in_a_plain_field_reaches_the_page_and_nothing_else() {
    const CANARY: &str = "canary-5e2b-typed-in-plain-sight";
    let server = ReplayServer::start(Script::new().always(
        planwright_llm_replay::Match::chat(),
        Reply::json(&json!({"status": "TARGET_NOT_FOUND", "actions": [], "reason": "no such thing"})),
    ))
    .await;
    let mut task = task(
        "canary",
        "/signup.html?instant=1",
        "1. Type {{NOTE_SECRET}} in the Full name field\n2. Get the onboarding call booked",
        &[("NOTE_SECRET", CANARY)],
    );
    // With the planning layer: its plan, reflections and evaluations go through the model too
    // (and fall back offline on these answers); the failed objective is reported, not asked about.
    task.inputs.insert("on_unsatisfied".into(), json!("report"));
    let run = run_task(&task, true, tempfile::tempdir().unwrap(), Some(client(&server))).await;
    assert_eq!(run.outputs["report"]["steps"][0]["status"], "passed", "{}", run.notes());
    assert_eq!(run.outputs["report"]["steps"][1]["status"], "failed");
    // The model was asked with the page, whose field shows the typed text: masked.
    let requests = server.requests();
    assert!(!requests.is_empty());
    for request in &requests {
        assert!(!request.body.contains(CANARY), "sent to the model: {}", request.body);
        if request.body.contains("\"action_decision\"") {
            assert!(request.body.contains("textbox"), "the snapshot was sent");
        }
    }
    // No continuation is planned (`missing_information`): the only approach left, opening the
    // page again, would undo the name objective 1 typed.
    for asked in ["task_plan", "requirements", "reflection", "action_decision"] {
        let asked_it = requests.iter().any(|r| r.body.contains(&format!("\"{asked}\"")));
        assert!(asked_it, "{asked} was asked of the model: {}", run.notes());
    }
    let everything = [
        serde_json::to_string(&run.events).unwrap(),
        run.outputs.to_string(),
        std::fs::read_to_string(run.records().join("steps.jsonl")).unwrap(),
        std::fs::read_to_string(run.records().join("planning.jsonl")).unwrap(),
    ];
    for text in &everything {
        assert!(!text.contains(CANARY));
    }
    assert!(everything[0].contains("{{NOTE_SECRET}}"), "the record names the placeholder");
    let logs: Vec<std::path::PathBuf> = support::files_under(run.home.path());
    for file in logs {
        let bytes = std::fs::read(&file).unwrap();
        assert!(!String::from_utf8_lossy(&bytes).contains(CANARY), "{} holds the secret", file.display());
    }
}
