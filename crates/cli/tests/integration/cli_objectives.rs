//! The example plans with browser objectives run offline, as they are, against the fixture
//! sites (their addresses given with --var, their secrets from the environment): the supplier
//! portal's statement downloaded and saved to Excel, and the QA regression passing all four
//! cases with evidence. The action cache can be shown and cleared.

use crate::support;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use planwright_sites::FixtureSites;
use serde_json::Value;
use support::{assert_exit, files_under, said};

fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../designs/examples").join(name).to_str().unwrap().to_owned()
}

/// `planwright ARGS` in `work`, off the async runtime (the sites serve from it meanwhile).
async fn planwright(home: &Path, work: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_planwright"));
    command.args(args).current_dir(work).env("PLANWRIGHT_HOME", home).stdin(Stdio::null());
    for (name, value) in env {
        command.env(name, value);
    }
    tokio::task::spawn_blocking(move || command.output().unwrap()).await.unwrap()
}

fn recorded(sites: &FixtureSites, action: &str) -> Vec<Value> {
    sites.events(action)
}

/// The events `planwright runs show` gives for the run a `run --format json` printed.
async fn events_of(home: &Path, work: &Path, run_output: &Output) -> Vec<Value> {
    let outcome: Value = serde_json::from_slice(&run_output.stdout).unwrap();
    let run_id = outcome["run_id"].as_str().expect("the run printed its id");
    let shown = planwright(home, work, &["runs", "show", run_id, "--format", "json"], &[]).await;
    let shown: Value = serde_json::from_slice(&shown.stdout).unwrap();
    shown["events"].as_array().unwrap().clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_supplier_statement_example_downloads_and_saves_the_statement() {
    let sites = FixtureSites::start().await.unwrap();
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let portal = format!("portal_url={}", sites.url("objectives/supplier-ja/login.html"));
    let secrets = [
        ("PLANWRIGHT_SECRET_SUPPLIER_PORTAL_USER", "tk-suzuki"),
        ("PLANWRIGHT_SECRET_SUPPLIER_PORTAL_PASSWORD", "Ymd#2024-canary"),
    ];
    let output = planwright(
        home.path(),
        work.path(),
        &["run", &example("supplier_statement_download.yaml"), "--var", &portal, "--format", "json"],
        &secrets,
    )
    .await;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_exit(&output, 0);
    assert!(
        !stderr.contains("Ymd#2024-canary") && !String::from_utf8_lossy(&output.stdout).contains("Ymd#2024-canary")
    );
    assert_eq!(recorded(&sites, "login")[0]["detail"]["username"], "tk-suzuki");
    assert_eq!(recorded(&sites, "download")[0]["detail"]["file"], "torihiki-2024-04.csv");
    assert!(work.path().join("downloads/torihiki-2024-04.csv").is_file());
    let workbook = work.path().join("out/statements/取引明細_山田商事_2024-04.xlsx");
    assert!(workbook.is_file(), "{:?}", files_under(work.path()));
    assert!(work.path().join("out/statements/証跡_取引明細_2024-04.png").is_file());

    let shown = planwright(home.path(), work.path(), &["cache", "show", "--format", "json"], &[]).await;
    let cache: Value = serde_json::from_slice(&shown.stdout).unwrap();
    assert_eq!(cache["objectives"], 4, "the check reads the page and is not cached: {cache}");
    // Each entry with its objective, page, actions and locators, and when it was used.
    let entries = cache["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 4, "{cache}");
    let sign_in = entries.iter().find(|e| e["placeholders"].as_array().is_some_and(|p| p.len() == 2)).unwrap();
    assert!(sign_in["page"].as_str().unwrap().ends_with("/objectives/supplier-ja/login.html"), "{sign_in}");
    let actions = sign_in["actions"].as_array().unwrap();
    assert!(actions
        .iter()
        .any(|a| a["tool"] == "fill" && a["locator"].as_str().is_some_and(|l| l.starts_with("getByRole("))));
    assert!(
        actions.iter().any(|a| a["action"].as_str().unwrap().contains("{{SUPPLIER_PORTAL_PASSWORD}}")),
        "{sign_in}"
    );
    assert!(sign_in["updated_at"].is_string() && sign_in["used_at"].is_null() && sign_in["replays"] == 0, "{sign_in}");
    // Typing changes nothing in the world; signing in posts the form, and is kept as effectful.
    let effectful: Vec<(&str, bool)> =
        actions.iter().map(|a| (a["tool"].as_str().unwrap(), a["effectful"].as_bool().unwrap())).collect();
    assert_eq!(effectful, [("fill", false), ("fill", false), ("click", true)], "{sign_in}");
    let text = planwright(home.path(), work.path(), &["cache", "show"], &[]).await;
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains(sign_in["id"].as_str().unwrap()) && text.contains("never replayed"), "{text}");
    assert!(!text.contains("Ymd#2024-canary") && !shown.stdout.windows(15).any(|w| w == b"Ymd#2024-canary"));
    // One entry, then one site's (the rest), then nothing left.
    let id = entries[0]["id"].as_str().unwrap();
    let one = planwright(home.path(), work.path(), &["cache", "clear", "--entry", id], &[]).await;
    assert_exit(&one, 0);
    let again = planwright(home.path(), work.path(), &["cache", "clear", "--entry", id], &[]).await;
    assert_eq!(again.status.code(), Some(2), "an id no entry has is an error: {}", said(&again));
    assert!(String::from_utf8_lossy(&again.stderr).contains("cache show"), "{again:?}");
    let site = planwright(home.path(), work.path(), &["cache", "clear", "--site", &sites.url("")], &[]).await;
    assert!(String::from_utf8_lossy(&site.stdout).contains("3 objective"), "{site:?}");
    let shown = planwright(home.path(), work.path(), &["cache", "show", "--format", "json"], &[]).await;
    assert_eq!(serde_json::from_slice::<Value>(&shown.stdout).unwrap()["objectives"], 0);
    let cleared = planwright(home.path(), work.path(), &["cache", "clear"], &[]).await;
    assert!(String::from_utf8_lossy(&cleared.stdout).contains("0 objective"), "{cleared:?}");
    let shown = planwright(home.path(), work.path(), &["cache", "show", "--format", "json"], &[]).await;
    assert_eq!(serde_json::from_slice::<Value>(&shown.stdout).unwrap()["objectives"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_qa_example_passes_every_case_against_the_expense_app() {
    let sites = FixtureSites::start().await.unwrap();
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(work.path().join("answers.yaml"), "qa_signoff: {approved: true, comment: all four cases passed}\n")
        .unwrap();
    let base = format!("base_url={}", sites.url("objectives/expense").trim_end_matches('/'));
    let output = planwright(
        home.path(),
        work.path(),
        &[
            "run",
            &example("qa_expense_app_regression.yaml"),
            "--var",
            &base,
            "--inputs",
            "answers.yaml",
            "--format",
            "json",
        ],
        &[("PLANWRIGHT_SECRET_QA_USER", "qa-tester"), ("PLANWRIGHT_SECRET_QA_PASSWORD", "Exp-canary-4471")],
    )
    .await;
    assert_exit(&output, 0);
    let events = events_of(home.path(), work.path(), &output).await;
    let asked = events.iter().find(|e| e["type"] == "input_requested").expect("the sign-off is asked");
    let message = asked["request"]["message"].as_str().unwrap();
    assert!(message.contains("4 件中 4 件合格、0 件不合格"), "{message}");
    // Each case's result in words, shown with the question: never "TC-01 true".
    assert!(!message.contains("true"), "{message}");
    let context = &asked["request"]["context"];
    assert_eq!(context[0], serde_json::json!({"ケース": "TC-01", "結果": "合格"}), "{context}");
    assert_eq!(context.as_array().map(Vec::len), Some(4), "{context}");
    let pngs: Vec<_> =
        files_under(work.path()).into_iter().filter(|p| p.extension().is_some_and(|e| e == "png")).collect();
    assert_eq!(pngs.len(), 4, "one screenshot of evidence per passed case: {pngs:?}");
    // TC-03's evidence is the page when its check (step 2, the error under 金額) was judged, not
    // the history that step 3 opened afterwards.
    let tc03 =
        events.iter().find(|e| e["type"] == "node_finished" && e["node"] == "tc03_validation").expect("TC-03 finished");
    let steps = tc03["outputs"]["tc03_report"]["steps"].as_array().expect("TC-03's report has its steps").clone();
    let evidence = pngs.iter().find(|p| p.ends_with("TC-03_required_error.png")).expect("TC-03's evidence");
    let shot = |step: &Value| std::fs::read(step["evidence_screenshot"].as_str().unwrap()).unwrap();
    assert_eq!(std::fs::read(evidence).unwrap(), shot(&steps[1]), "the screenshot taken when step 2 was judged");
    assert_ne!(shot(&steps[1]), shot(&steps[2]));
    assert_eq!(steps[1]["evidence_file"], "evidence/exp-reg/2024.05.1/TC-03_required_error.png");
    assert_eq!(recorded(&sites, "claim_draft")[0]["detail"]["memo"], "新宿→品川 往復");
    assert_eq!(recorded(&sites, "claim_submitted").len(), 1);
    assert!(recorded(&sites, "claim_rejected_empty_amount").len() == 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_escalation_waits_for_input_and_resume_answers_it() {
    let sites = FixtureSites::start().await.unwrap();
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let plan = format!(
        "apiVersion: planwright/v1\nid: escalation\nversion: 1.0.0\ngraph:\n  - id: export\n    block: browser.run_objectives\n    \
         in:\n      start_url: {}\n      steps: \"1. Click Download as CSV\\n2. Click Send to my accountant\"\n      \
         max_iterations: 1\n      max_revisions: 0\n    out: {{report: report, passed: passed}}\n",
        sites.url("objectives/ledgerly/reports.html?instant=1")
    );
    std::fs::write(work.path().join("plan.yaml"), plan).unwrap();
    let output = planwright(home.path(), work.path(), &["run", "plan.yaml", "--format", "json"], &[]).await;
    assert_exit(&output, 3);
    let waiting: Value = serde_json::from_slice(&output.stdout).unwrap();
    let run_id = waiting["run_id"].as_str().unwrap();
    let shown = planwright(home.path(), work.path(), &["runs", "show", run_id, "--format", "json"], &[]).await;
    let shown: Value = serde_json::from_slice(&shown.stdout).unwrap();
    let asked = shown["events"].as_array().unwrap().iter().find(|e| e["type"] == "input_requested").unwrap().clone();
    assert_eq!(asked["request"]["context"]["escalation"]["missing"][0]["description"], "Click Send to my accountant");
    assert!(asked["request"]["message"].as_str().unwrap().contains("accept_partial"), "{asked}");

    std::fs::write(work.path().join("answers.yaml"), "export: {choice: accept_partial}\n").unwrap();
    let resumed =
        planwright(home.path(), work.path(), &["resume", run_id, "--inputs", "answers.yaml", "--format", "json"], &[])
            .await;
    assert_exit(&resumed, 0);
    let shown = planwright(home.path(), work.path(), &["runs", "show", run_id, "--format", "json"], &[]).await;
    let shown: Value = serde_json::from_slice(&shown.stdout).unwrap();
    let finished = shown["events"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|e| e["type"] == "node_finished" && e["node"] == "export")
        .unwrap()
        .clone();
    assert_eq!(finished["outputs"]["report"]["outcome"], "accepted_partial", "{finished}");
    assert_eq!(finished["outputs"]["passed"], false);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn evidence_is_saved_for_the_steps_done_and_a_step_not_done_writes_no_file() {
    let sites = FixtureSites::start().await.unwrap();
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let plan = |evidence: &str| {
        format!(
            "apiVersion: planwright/v1\nid: evidence\nversion: 1.0.0\ngraph:\n  - id: export\n    block: browser.run_objectives\n    \
             in:\n      start_url: {}\n      evidence: {evidence}\n      on_unsatisfied: report\n      \
             steps: \"1. Click Download as CSV\\n2. Click Send to my accountant\"\n      max_retries_per_step: 1\n      \
             max_iterations: 1\n      max_revisions: 0\n    out: {{report: report, passed: passed}}\n",
            sites.url("objectives/ledgerly/reports.html?instant=1")
        )
    };
    std::fs::write(work.path().join("plan.yaml"), plan("{1: shots/csv.png, 2: shots/sent.png}")).unwrap();
    let output = planwright(home.path(), work.path(), &["run", "plan.yaml", "--format", "json"], &[]).await;
    let events = events_of(home.path(), work.path(), &output).await;
    let finished = events.iter().find(|e| e["node"] == "export" && e["outputs"]["report"].is_object());
    let steps = finished.expect("the report is recorded")["outputs"]["report"]["steps"].as_array().unwrap().clone();
    assert_eq!(steps[0]["status"], "passed", "{steps:?}");
    assert_ne!(steps[1]["status"], "passed", "{steps:?}");
    let first = std::fs::read(steps[0]["evidence_screenshot"].as_str().unwrap()).unwrap();
    assert_eq!(std::fs::read(work.path().join("shots/csv.png")).unwrap(), first);
    assert!(!work.path().join("shots/sent.png").exists(), "a step not done has no evidence");
    let messages: Vec<&str> = events.iter().filter_map(|e| e["message"].as_str()).collect();
    assert!(
        messages.iter().any(|m| m.contains("step 2 was not done, so shots/sent.png was not written")),
        "{messages:?}"
    );

    // A step the list does not have is refused before the browser opens.
    std::fs::write(work.path().join("plan.yaml"), plan("{3: shots/third.png}")).unwrap();
    let output = planwright(home.path(), work.path(), &["run", "plan.yaml"], &[]).await;
    assert_exit(&output, 1);
    let text = said(&output);
    assert!(text.contains("`evidence.3`: there is no step 3; the steps are numbered 1 to 2"), "{text}");
    // So is a file outside the work folder.
    std::fs::write(work.path().join("plan.yaml"), plan("{1: ../outside.png}")).unwrap();
    let output = planwright(home.path(), work.path(), &["run", "plan.yaml"], &[]).await;
    assert_exit(&output, 1);
    let text = said(&output);
    assert!(text.contains("`evidence.1`") && text.contains("inside the run's work directory"), "{text}");
    assert!(!work.path().parent().unwrap().join("outside.png").exists());
}
