//! The planning layer and the task loop on real Chromium against the fixture sites, offline: a
//! plan is written before acting; a failed attempt is reflected on and the plan revised, and the
//! revised approach is what succeeds (a button drawn late is waited for, a lazy list scrolled);
//! every N actions a look back; with planning off the runner is seed 004's loop alone; when the
//! passes are spent the person decides — more detail, another approach, the partial result, a
//! technical analysis, cancel — and nobody to ask either waits or, by policy, fails the node.

use crate::support;

use std::collections::HashMap;
use std::sync::Arc;

use planwright_engine::NoAnswers;
use planwright_llm_replay::{Match, ReplayServer, Reply, Script};
use planwright_objectives::planning::history::{latest_plan, revisions, PlanningHistory};
use planwright_runs::{EventKind, RunStatus};
use planwright_sites::FixtureSites;
use serde_json::{json, Value};
use support::{client, run_plan_on, Person, TaskRun};

/// A plan of one runner node `task` with `inputs` over the start page and the steps, then the
/// nodes in `after` (YAML list items).
fn plan(sites: &FixtureSites, start: &str, steps: &str, inputs: Value, after: &str) -> String {
    let mut node = json!({
        "id": "task",
        "block": "browser.run_objectives",
        "in": {"start_url": sites.url(start), "steps": steps},
        "out": {"report": "report", "passed": "passed"},
    });
    for (key, value) in inputs.as_object().cloned().unwrap_or_default() {
        node["in"][key] = value;
    }
    format!("apiVersion: planwright/v1\nid: planning-test\nversion: 1.0.0\ngraph:\n  - {node}\n{after}")
}

async fn run(sites: &FixtureSites, plan: &str, person: Arc<Person>) -> TaskRun {
    run_plan_on(sites, "planning-test", plan, &HashMap::new(), tempfile::tempdir().unwrap(), None, person).await
}

/// `plan` with the scripted model, nobody to answer.
async fn run_with_model(sites: &FixtureSites, plan: &str, server: &ReplayServer) -> TaskRun {
    let home = tempfile::tempdir().unwrap();
    run_plan_on(sites, "model", plan, &HashMap::new(), home, Some(client(server)), Person::answering(vec![])).await
}

/// The tier and the schema of every model call, in order.
fn asked_of_model(run: &TaskRun, server: &ReplayServer) -> Vec<(String, String)> {
    let tiers: Vec<String> = run
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ModelCall { tier, .. } => Some(tier.clone()),
            _ => None,
        })
        .collect();
    let schemas = server.requests().into_iter().map(|r| {
        r.json()
            .map(|b| b["response_format"]["json_schema"]["name"].as_str().unwrap_or_default().to_owned())
            .unwrap_or_default()
    });
    tiers.into_iter().zip(schemas).collect()
}

/// The progress payloads of one kind (`planning`, `task`, `objective`), in order.
fn progress(run: &TaskRun, kind: &str) -> Vec<Value> {
    run.events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Progress { progress, .. } => serde_json::to_value(progress).ok(),
            _ => None,
        })
        .filter(|p| p["kind"] == kind)
        .collect()
}

/// A plan whose one objective cannot pass (the page has nothing to send with), giving the
/// decision back after one pass with no revision.
fn cannot_pass(sites: &FixtureSites) -> String {
    plan(
        sites,
        "/objectives/ledgerly/reports.html?instant=1",
        "1. Click Send to my accountant",
        json!({"max_iterations": 1, "max_revisions": 0}),
        "",
    )
}

/// Why the node failed.
fn node_error(run: &TaskRun) -> String {
    run.events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::NodeFailed { error, .. } => Some(error.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

fn objective(run: &TaskRun, n: usize) -> Value {
    run.outputs["report"]["progress"]["objective_steps"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|s| s["step_type"] == "objective")
        .nth(n)
        .cloned()
        .unwrap_or(Value::Null)
}

#[tokio::test]
async fn a_button_drawn_late_is_waited_for_after_the_plan_is_revised() {
    let sites = FixtureSites::start().await.unwrap();
    let plan = plan(&sites, "/objectives/ledgerly/reports.html", "1. Click Export October report", json!({}), "");
    let run = run(&sites, &plan, Person::answering(vec![])).await;
    assert_eq!(run.outputs["passed"], true, "{}", run.notes());
    assert_eq!(run.recorded("report_exported").len(), 1);
    // The history, read back from its file: the plan first, then the reflection on the failed
    // attempt, the revision that added the wait, and the pass judged satisfied.
    let path = run.outputs["report"]["planning_history"].as_str().unwrap();
    let entries = PlanningHistory::read(std::path::Path::new(path)).unwrap();
    let kinds: Vec<Value> = entries.iter().map(|e| serde_json::to_value(e).unwrap()).collect();
    assert_eq!(kinds[0]["type"], "plan");
    let plan = latest_plan(&entries).unwrap();
    assert_eq!(plan.task_decomposition.subtasks.len(), 1);
    assert!(plan.goal_understanding.main_objective.contains("Export October report"));
    let reflection = kinds.iter().find(|k| k["type"] == "reflection" && k["trigger"] == "error").unwrap();
    assert_eq!(reflection["status"], "failure");
    assert_eq!(reflection["plan_revision_needed"], true);
    assert!(reflection["evaluation"].as_str().unwrap().contains("Next: wait for the page"), "{reflection}");
    let revision = revisions(&entries)[0];
    assert_eq!(revision.changes[0].kind, planwright_runs::planning::PlanChangeKind::WaitAdded);
    assert!(revision.changes[0].execution_plan_after[0].starts_with("wait for the page"));
    assert!(kinds.iter().any(|k| k["type"] == "reflection" && k["trigger"] == "iteration" && k["status"] == "success"));
    // The objective records how it was reached, and the events carry the same history.
    let step = objective(&run, 0);
    assert_eq!(step["attempts"], 2, "{step}");
    assert_eq!(step["approach"], "wait_for_page");
    assert_eq!(step["decided_by"], "offline");
    assert!(step["elapsed_ms"].as_u64().unwrap() > 0);
    assert_eq!(progress(&run, "planning").len(), entries.len());
    assert_eq!(run.outputs["report"]["outcome"], "satisfied");
    assert_eq!(run.outputs["report"]["revisions"], 1);
}

#[tokio::test]
async fn a_statement_further_down_a_lazy_list_is_scrolled_for() {
    let sites = FixtureSites::start().await.unwrap();
    let plan = plan(
        &sites,
        "/objectives/ledgerly/archive.html?instant=1",
        "1. Open the statement for March 2024",
        json!({}),
        "",
    );
    let run = run(&sites, &plan, Person::answering(vec![])).await;
    assert_eq!(run.outputs["passed"], true, "{}", run.notes());
    assert_eq!(run.recorded("statement_opened")[0]["detail"]["month"], "March 2024");
    let step = objective(&run, 0);
    assert_eq!(step["approach"], "scroll_to_find", "the page went on below the window: scrolling came first");
    let actions: Vec<&str> =
        step["executed_actions"].as_array().unwrap().iter().filter_map(|a| a["action"].as_str()).collect();
    assert!(actions.iter().filter(|a| **a == "scroll down").count() >= 2, "{actions:?}");
    assert!(actions.last().unwrap().contains("Open statement for March 2024"), "{actions:?}");
}

#[tokio::test]
async fn with_planning_off_the_runner_is_seed_004s_loop_alone() {
    let sites = FixtureSites::start().await.unwrap();
    let plan = plan(
        &sites,
        "/objectives/ledgerly/reports.html",
        "1. Click Export October report",
        json!({"planning": false}),
        "",
    );
    let run = run(&sites, &plan, Person::answering(vec![])).await;
    assert_eq!(run.outputs["passed"], false, "without a revision nothing waits for the late button");
    assert_eq!(objective(&run, 0)["attempts"], 1, "a check of a page at rest is not tried again the same way");
    assert!(progress(&run, "planning").is_empty() && progress(&run, "task").is_empty());
    assert!(!run.records().join("planning.jsonl").exists());
    assert!(run.outputs["report"].get("outcome").is_none());
}

#[tokio::test]
async fn a_look_back_every_n_actions() {
    let sites = FixtureSites::start().await.unwrap();
    let steps = "1. Type Tailspin Toys in the Customer field\n2. Click Find orders\n3. Check that order SO-20436 is in the list";
    let plan = plan(&sites, "/objectives/ledgerly/orders.html?instant=1", steps, json!({"reflection_interval": 1}), "");
    let run = run(&sites, &plan, Person::answering(vec![])).await;
    assert_eq!(run.outputs["passed"], true, "{}", run.notes());
    let intervals: Vec<Value> = progress(&run, "planning")
        .into_iter()
        .filter(|p| p["entry"]["type"] == "reflection" && p["entry"]["trigger"] == "interval")
        .collect();
    assert_eq!(intervals.len(), 2, "one per action: the fill and the click");
    assert_eq!(intervals[1]["entry"]["actions"], 2);
    assert!(intervals.iter().all(|r| r["entry"]["plan_revision_needed"] == false));
}

#[tokio::test]
async fn more_detail_from_the_person_is_followed_by_the_next_pass() {
    let sites = FixtureSites::start().await.unwrap();
    let plan = plan(
        &sites,
        "/objectives/ledgerly/reports.html?instant=1",
        "1. Save the figures to my computer",
        json!({"max_iterations": 1, "max_revisions": 0}),
        "",
    );
    let person = Person::answering(vec![json!({"choice": "more_detail", "detail": "Click \"Download as CSV\""})]);
    let run = run(&sites, &plan, person.clone()).await;
    assert_eq!(run.outputs["passed"], true, "{}", run.notes());
    assert_eq!(run.outputs["report"]["outcome"], "satisfied");
    assert_eq!(run.outputs["report"]["iterations"], 2);
    assert_eq!(run.recorded("report_downloaded").len(), 1);
    let asked = person.asked();
    assert_eq!(asked.len(), 1);
    let report = &asked[0].requirements()[0];
    assert_eq!(
        report.options,
        ["more_detail", "alternative_approach", "accept_partial", "technical_analysis", "cancel"]
    );
    let form = serde_json::to_value(&asked[0]).unwrap();
    assert_eq!(form["context"]["escalation"]["missing"][0]["description"], "Save the figures to my computer");
    assert_eq!(form["context"]["escalation"]["iterations"], 1);
    let changes: Vec<Value> = progress(&run, "task").iter().map(|t| t["change"].clone()).collect();
    assert!(changes.contains(&json!("escalated")) && changes.contains(&json!("answered")), "{changes:?}");
    assert_eq!(objective(&run, 0)["approach"], "person_detail");
    let plans: Vec<Value> = progress(&run, "planning").into_iter().filter(|p| p["entry"]["type"] == "plan").collect();
    assert_eq!(plans.len(), 2, "a continuation plan for the person's detail");
    assert_eq!(plans[1]["entry"]["plan"]["continuation"]["person_detail"], "Click \"Download as CSV\"");
}

#[tokio::test]
async fn the_partial_result_accepted_ends_the_node_unpassed_and_the_run_goes_on() {
    let sites = FixtureSites::start().await.unwrap();
    let after = "  - id: after\n    block: transforms.pick\n    in: {source: \"${task.report}\", path: outcome}\n    out: {value: outcome}\n";
    let plan = plan(
        &sites,
        "/objectives/ledgerly/reports.html?instant=1",
        "1. Click Download as CSV\n2. Click Send to my accountant\n3. Check that \"Sent\" is shown",
        json!({"max_iterations": 1}),
        after,
    );
    let person = Person::answering(vec![json!({"choice": "accept_partial"})]);
    let run = run(&sites, &plan, person).await;
    assert_eq!(run.outcome.status, RunStatus::Succeeded);
    assert_eq!(run.outputs["passed"], false);
    assert_eq!(run.outputs["report"]["outcome"], "accepted_partial");
    let statuses: Vec<Value> = (0..3).map(|n| objective(&run, n)["status"].clone()).collect();
    assert_eq!(statuses, [json!("completed"), json!("failed"), json!("skipped")]);
    let picked = run.events.iter().find_map(|e| match &e.kind {
        EventKind::NodeFinished { node, outputs, .. } if node == "after" => Some(outputs["outcome"].clone()),
        _ => None,
    });
    assert_eq!(picked, Some(json!("accepted_partial")), "the next node ran on the accepted result");
    // The run's summary (its line in the history) counts the node as not passed, not only as done.
    let counts = run.events.iter().find_map(|e| match &e.kind {
        EventKind::RunFinished { counts, .. } => Some(*counts),
        _ => None,
    });
    assert!(counts.as_ref().is_some_and(|c| c.succeeded == 2 && c.not_passed == 1), "{counts:?}");
}

#[tokio::test]
async fn a_technical_analysis_is_written_then_cancel_fails_the_node() {
    let sites = FixtureSites::start().await.unwrap();
    let plan = cannot_pass(&sites);
    let person = Person::answering(vec![json!({"choice": "technical_analysis"}), json!({"choice": "cancel"})]);
    let run = run(&sites, &plan, person.clone()).await;
    assert_eq!(run.outcome.status, RunStatus::Failed);
    let error = node_error(&run);
    assert!(error.contains("cancelled by the person after 1 pass"), "{error}");
    let asked = person.asked();
    assert_eq!(asked.len(), 2);
    let second = serde_json::to_value(&asked[1]).unwrap();
    let analysis = second["context"]["escalation"]["analysis"].as_str().unwrap().to_owned();
    assert!(!asked[1].requirements()[0].options.contains(&"technical_analysis".to_owned()), "asked once");
    let text = std::fs::read_to_string(&analysis).unwrap();
    for part in ["## Objectives", "## Approaches tried", "## What could be changed", "button \"Download as CSV\""] {
        assert!(text.contains(part), "{part} missing from:\n{text}");
    }
    assert!(run.events.iter().any(|e| matches!(&e.kind, EventKind::Artifact { path, .. } if *path == analysis)));
}

#[tokio::test]
async fn another_approach_asked_for_is_one_not_tried_yet() {
    let sites = FixtureSites::start().await.unwrap();
    let plan = cannot_pass(&sites);
    let person =
        Person::answering(vec![json!({"choice": "alternative_approach"}), json!({"choice": "accept_partial"})]);
    let run = run(&sites, &plan, person.clone()).await;
    assert_eq!(run.outputs["report"]["outcome"], "accepted_partial", "{}", run.notes());
    assert_eq!(run.outputs["report"]["iterations"], 2);
    let approaches: Vec<Value> = progress(&run, "objective")
        .into_iter()
        .filter(|o| o["change"] == "started")
        .map(|o| o["step"]["approach"].clone())
        .collect();
    assert_eq!(approaches.first(), Some(&json!("as_written")));
    assert_ne!(approaches.last(), Some(&json!("as_written")), "{approaches:?}");
    let second = serde_json::to_value(&person.asked()[1]).unwrap();
    assert!(second["context"]["escalation"]["tried"].as_array().unwrap().len() >= 2, "{second}");
}

#[tokio::test]
async fn nobody_to_answer_waits_unless_the_policy_says_fail() {
    let sites = FixtureSites::start().await.unwrap();
    let waiting = cannot_pass(&sites);
    let run =
        run_plan_on(&sites, "wait", &waiting, &HashMap::new(), tempfile::tempdir().unwrap(), None, Arc::new(NoAnswers))
            .await;
    assert_eq!(run.outcome.status, RunStatus::WaitingForInput);
    let failing = waiting.replace("graph:\n", "policy: {on_unanswered: fail}\ngraph:\n");
    let run =
        run_plan_on(&sites, "fail", &failing, &HashMap::new(), tempfile::tempdir().unwrap(), None, Arc::new(NoAnswers))
            .await;
    assert_eq!(run.outcome.status, RunStatus::Failed);
    let error = node_error(&run);
    assert!(error.contains("on_unanswered: fail") && error.contains("choice"), "{error}");
}

#[tokio::test]
async fn with_a_model_each_planning_task_runs_on_its_tier() {
    let server = ReplayServer::start(
        Script::new()
            .always(
                Match::schema("requirements"),
                Reply::json(&json!({"requirements": [
                    {"requirement": "The October report is downloaded as CSV", "priority": 1, "objective": 1}]})),
            )
            .always(
                Match::schema("task_plan"),
                Reply::json(&json!({
                    "main_objective": "Get October's figures as a spreadsheet",
                    "constraints": ["use the Reports page"],
                    "reasoning": "One click on the CSV button of the October card.",
                    "subtasks": [{"id": "objective_1", "dependencies": [], "complexity": "low",
                                  "success_criterion": "the page says the report was downloaded"}]})),
            )
            .always(
                Match::schema("satisfaction"),
                Reply::json(&json!({"overall_score": 0.95, "scores": [0.95],
                    "missing_aspects": [], "quality_assessment": "The page confirms the download.",
                    "completion_recommendation": true})),
            ),
    )
    .await;
    let sites = FixtureSites::start().await.unwrap();
    let plan = plan(&sites, "/objectives/ledgerly/reports.html?instant=1", "1. Click Download as CSV", json!({}), "");
    let run = run_with_model(&sites, &plan, &server).await;
    assert_eq!(run.outputs["passed"], true, "{}", run.notes());
    let asked = asked_of_model(&run, &server);
    let expected = [("fast", "requirements"), ("creative", "task_plan"), ("evaluator", "satisfaction")];
    assert_eq!(asked, expected.map(|(t, s)| (t.to_owned(), s.to_owned())), "no model call for what the resolver did");
    let entries: Vec<Value> = progress(&run, "planning").into_iter().map(|p| p["entry"].clone()).collect();
    assert_eq!(entries[0]["plan"]["made_by"], "model");
    assert_eq!(entries[0]["plan"]["goal_understanding"]["main_objective"], "Get October's figures as a spreadsheet");
    assert_eq!(entries[0]["plan"]["task_decomposition"]["subtasks"][0]["description"], "Click Download as CSV");
    assert!(entries[0]["plan"]["goal_understanding"]["constraints"][0].as_str().unwrap().starts_with("start at"));
    assert!(entries[0]["plan"]["goal_understanding"]["constraints"]
        .as_array()
        .unwrap()
        .contains(&json!("use the Reports page")));
    assert_eq!(
        entries[0]["plan"]["goal_understanding"]["success_criteria"][0],
        "objective_1: the page says the report was downloaded"
    );
    assert_eq!(run.outputs["report"]["requirements"][0]["requirement"], "The October report is downloaded as CSV");
    assert_eq!(run.outputs["report"]["satisfaction"], 0.95);
}

#[tokio::test]
async fn every_objective_done_but_judged_short_of_the_request_is_not_passed() {
    let server = ReplayServer::start(Script::new().always(
        Match::schema("satisfaction"),
        Reply::json(
            &json!({"overall_score": 0.5, "scores": [0.5], "missing_aspects": ["the report was asked as Excel"],
                            "quality_assessment": "A CSV came, not the Excel file asked for.",
                            "completion_recommendation": false}),
        ),
    ))
    .await;
    let sites = FixtureSites::start().await.unwrap();
    let plan = plan(
        &sites,
        "/objectives/ledgerly/reports.html?instant=1",
        "1. Click Download as CSV",
        json!({"on_unsatisfied": "report"}),
        "",
    );
    let run = run_with_model(&sites, &plan, &server).await;
    assert_eq!(run.outputs["report"]["steps"][0]["status"], "passed", "{}", run.notes());
    assert_eq!(run.outputs["report"]["outcome"], "reported");
    assert_eq!(run.outputs["passed"], false, "the request was judged unsatisfied");
}

#[tokio::test]
async fn a_model_cannot_call_a_failed_objective_done_and_picks_only_an_allowed_approach() {
    let server = ReplayServer::start(
        Script::new()
            .always(Match::schema("action_decision"), Reply::json(&json!({"status": "TARGET_NOT_FOUND", "actions": [], "reason": "no such button"})))
            .always(
                Match::schema("reflection"),
                Reply::json(&json!({"status": "failure", "evaluation": "The page has no sending control.", "plan_revision_needed": true})),
            )
            .always(
                Match::schema("satisfaction"),
                Reply::json(&json!({"overall_score": 1.0, "scores": [1.0], "missing_aspects": [],
                                    "quality_assessment": "Looks fine to me.", "completion_recommendation": true})),
            )
            .always(Match::schema("missing_information"), Reply::json(&json!({"missing": ["the sending"], "constraints": ["the page has no Send button"]})))
            .always(Match::schema("continuation"), Reply::json(&json!({"reasoning": "reload", "approach": "reload_page"}))),
    )
    .await;
    let sites = FixtureSites::start().await.unwrap();
    let plan = plan(
        &sites,
        "/objectives/ledgerly/reports.html?instant=1",
        "1. Click Send to my accountant",
        json!({"max_iterations": 2, "max_revisions": 1, "on_unsatisfied": "report"}),
        "",
    );
    let run = run_with_model(&sites, &plan, &server).await;
    assert_eq!(run.outputs["passed"], false);
    assert_eq!(run.outputs["report"]["outcome"], "reported");
    assert_eq!(run.outputs["report"]["satisfaction"], 0.0, "bounded by what the page showed");
    let asked = asked_of_model(&run, &server);
    let tier_of = |schema: &str| asked.iter().find(|(_, s)| s == schema).map(|(t, _)| t.as_str());
    assert_eq!(tier_of("reflection"), Some("evaluator"));
    assert_eq!(tier_of("missing_information"), Some("fast"));
    assert_eq!(tier_of("continuation"), Some("creative"));
    let plans: Vec<Value> = progress(&run, "planning")
        .into_iter()
        .filter(|p| p["entry"]["type"] == "plan")
        .map(|p| p["entry"]["plan"].clone())
        .collect();
    let continuation = plans.iter().find(|p| p["iteration"] == 2).expect("a continuation plan");
    assert_eq!(continuation["made_by"], "model");
    assert!(continuation["continuation"]["learned_constraints"]
        .as_array()
        .unwrap()
        .contains(&json!("the page has no Send button")));
    let approaches: Vec<Value> = progress(&run, "objective")
        .into_iter()
        .filter(|o| o["change"] == "started" && o["step"]["iteration"] == 2)
        .map(|o| o["step"]["approach"].clone())
        .collect();
    assert_eq!(approaches.first(), Some(&json!("reload_page")), "{approaches:?}");
}

#[tokio::test]
async fn a_done_steps_evidence_is_kept_piece_by_piece_coded_for_the_studios_language() {
    let sites = FixtureSites::start().await.unwrap();
    let steps = "1. ユーザーID {{SUPPLIER_PORTAL_USER}} とパスワード {{SUPPLIER_PORTAL_PASSWORD}} でログインする\n\
                 2. メニューの「取引明細」を開く";
    let plan = plan(&sites, "/objectives/supplier-ja/login.html?instant=1", steps, json!({"max_iterations": 1}), "")
        .replace("graph:\n", "secrets: [SUPPLIER_PORTAL_USER, SUPPLIER_PORTAL_PASSWORD]\ngraph:\n");
    let canary = "canary-pw-5c1e";
    let secrets: HashMap<String, String> =
        [("SUPPLIER_PORTAL_USER", "tk-suzuki"), ("SUPPLIER_PORTAL_PASSWORD", canary)]
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .into();
    let run =
        run_plan_on(&sites, "evidence", &plan, &secrets, tempfile::tempdir().unwrap(), None, Person::answering(vec![]))
            .await;
    // Each step as the studio sees it: the event of its completion (the node's report bounds
    // its texts).
    let done: Vec<Value> = progress(&run, "objective")
        .into_iter()
        .filter(|p| p["change"] == "completed" && p["step"]["step_type"] == "objective")
        .map(|p| p["step"].clone())
        .collect();
    assert_eq!(done.len(), 2, "{}", run.notes());
    let keys = |step: &Value| -> Vec<Vec<String>> {
        step["evidence_parts"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|p| {
                p["said"].as_array().into_iter().flatten().map(|m| m["key"].as_str().unwrap().to_owned()).collect()
            })
            .collect()
    };
    for step in &done {
        // The pieces' words are the evidence the record and the command line show.
        let words: Vec<&str> =
            step["evidence_parts"].as_array().unwrap().iter().map(|p| p["text"].as_str().unwrap()).collect();
        assert_eq!(step["completion_evidence"], words.join("; "), "{step}");
    }
    // Signing in: both fields read back, then the button pressed and where it led.
    let login = keys(&done[0]);
    let holds = login.iter().filter(|k| *k == &["proof_field_holds_placeholder"]).count();
    assert_eq!(holds, 2, "{login:?}");
    assert!(login.iter().any(|k| k.first().is_some_and(|k| k.starts_with("proof_pressed"))), "{login:?}");
    let said = done[0]["evidence_parts"].to_string();
    assert!(said.contains("{{SUPPLIER_PORTAL_PASSWORD}}") && !said.contains(canary), "{said}");
    // Opening the statement: where the link led.
    let opened = keys(&done[1]);
    assert!(opened.iter().flatten().any(|k| k == "proof_now_at" || k == "proof_page_shows"), "{opened:?}");
}

#[tokio::test]
async fn a_recovery_step_does_not_stand_in_for_the_objective_after_it() {
    // The maintenance notice is closed as a recovery step of objective 2: objective 3's
    // requirement must still be judged by objective 3, which fails.
    let sites = FixtureSites::start().await.unwrap();
    let steps = "1. ユーザーID {{SUPPLIER_PORTAL_USER}} とパスワード {{SUPPLIER_PORTAL_PASSWORD}} でログインする\n\
                 2. メニューの「取引明細」を開く\n3. 「一括ダウンロード」を押す";
    let plan = plan(
        &sites,
        "/objectives/supplier-ja/login.html?instant=1",
        steps,
        json!({"max_iterations": 1, "max_revisions": 0, "on_unsatisfied": "report"}),
        "",
    )
    .replace("graph:\n", "secrets: [SUPPLIER_PORTAL_USER, SUPPLIER_PORTAL_PASSWORD]\ngraph:\n");
    let secrets: HashMap<String, String> = [("SUPPLIER_PORTAL_USER", "tk-suzuki"), ("SUPPLIER_PORTAL_PASSWORD", "pw")]
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .into();
    let run =
        run_plan_on(&sites, "recovery", &plan, &secrets, tempfile::tempdir().unwrap(), None, Person::answering(vec![]))
            .await;
    assert!(progress(&run, "objective").iter().any(|p| p["change"] == "recovery_inserted"), "{}", run.notes());
    assert_eq!(objective(&run, 2)["status"], "failed", "{}", run.notes());
    // The failure coded by its kind, for the studio's language; the runner's words stay the text.
    let said = &objective(&run, 2)["evidence_said"];
    assert_eq!(said["key"], "objective_not_reached", "{said}");
    assert!(
        said["params"]["attempts"].as_u64().is_some_and(|n| n >= 1) && said["params"]["kind"].is_string(),
        "{said}"
    );
    assert_eq!(run.outputs["report"]["outcome"], "reported");
    assert_eq!(run.outputs["passed"], false);
    let requirements = run.outputs["report"]["requirements"].as_array().unwrap().clone();
    assert_eq!(requirements[2]["objective"], 3);
    assert_eq!(requirements[2]["satisfaction_level"], 0.0, "{requirements:?}");
    assert!(run.outputs["report"]["satisfaction"].as_f64().unwrap() < 0.8);
}
