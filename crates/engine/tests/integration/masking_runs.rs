//! A secret a server writes back encoded — form-encoded in the address it was asked for,
//! HTML entities, JSON escapes, base64, re-cased, reversed — is masked wherever the run keeps
//! it: the events, `runs.db`, the JSONL log, a file a block writes from it, and the HTML and
//! JUnit reports made from the record. A real run, a real run store and a real local server.

use crate::support;

use std::sync::Arc;

use planwright_engine::{BrowserSettings, NoAnswers, RunOptions, RunRequest, SecretSource};
use planwright_runs::RunStatus;
use tokio_util::sync::CancellationToken;

/// A space and characters every encoder escapes.
const CANARY: &str = "Pa ss!w@rd&1";

struct Secrets;

impl SecretSource for Secrets {
    fn secret(&self, name: &str) -> Option<String> {
        (name == "PORTAL_PASSWORD").then(|| CANARY.to_owned())
    }
}

/// This file's run options: its secret, no one to ask, no model.
fn options(f: &support::Fixture) -> RunOptions {
    RunOptions {
        workdir: f.workdir.path().to_owned(),
        secrets: Arc::new(Secrets),
        answers: Arc::new(NoAnswers),
        stop: CancellationToken::new(),
        events: None,
        browser: BrowserSettings::default(),
        models: None,
    }
}

fn request(plan: &str, base: &str) -> RunRequest {
    let vars = serde_json::json!({"base": base}).as_object().cloned().unwrap();
    RunRequest { plan_text: plan.to_owned(), plan_path: None, vars }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secret_written_back_encoded_is_masked_in_the_record_the_log_files_and_reports() {
    let server = support::start().await;
    let f = support::fixture();
    let plan = "apiVersion: planwright/v1\nid: masking_test\nversion: 1.0.0\nvars:\n  base: null\nsecrets: [PORTAL_PASSWORD]\ngraph:\n  - id: reflect\n    block: external.api.http\n    in:\n      url: \"${vars.base}/reflect\"\n      params: {p: \"${secrets.PORTAL_PASSWORD}\"}\n      headers: {X-Typed: \"${secrets.PORTAL_PASSWORD}\"}\n    out: {status: status, response_text: page}\n  - id: save\n    block: report.write\n    in: {data: {page: \"${reflect.page}\"}, format: markdown, path: out/page.md}\n";
    let outcome =
        f.engine.run(&f.store, request(plan, &server.base), options(&f)).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(outcome.status, RunStatus::Succeeded, "{:?}", outcome.reason);

    // The server was asked with the password form-encoded in the address, and wrote it back.
    let asked = server.log.requests().into_iter().map(|r| r.path).find(|p| p.starts_with("/reflect")).unwrap();
    assert!(asked.contains("Pa+ss%21w%40rd%261"), "{asked}");
    let forms = support::encodings(CANARY);
    let leaked = |what: &str, text: &str| {
        let found: Vec<&str> =
            forms.iter().filter(|(_, form)| text.contains(form.as_str())).map(|(how, _)| *how).collect();
        assert!(!text.contains(CANARY) && found.is_empty(), "{what} holds the secret {found:?}");
    };

    let events = f.store.events(&outcome.run_id).unwrap();
    let recorded = serde_json::to_string(&events).unwrap();
    leaked("the events", &recorded);
    assert!(recorded.contains("asked for /reflect?p=***"), "the page is recorded, masked: {recorded}");
    let saved = std::fs::read_to_string(f.workdir.path().join("out/page.md")).unwrap();
    leaked("the file report.write wrote", &saved);
    assert!(saved.contains("form encoded: ***"), "{saved}");
    // runs.db (and its write-ahead log), the run's JSONL log, the nodes' own records.
    let files = support::files_under(f.home.path());
    assert!(files.iter().any(|p| p.extension().is_some_and(|e| e == "jsonl")));
    assert!(files.iter().any(|p| p.file_name().is_some_and(|n| n == "runs.db")));
    for path in files {
        leaked(&path.display().to_string(), &String::from_utf8_lossy(&std::fs::read(&path).unwrap()));
    }
    let record = planwright_reports::RunRecord::read(&f.store, &outcome.run_id).unwrap();
    leaked("the HTML report", &planwright_reports::html(&record, &planwright_reports::ReportOptions::default()));
    leaked("the JUnit report", &planwright_reports::junit(&record));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secret_where_a_long_input_is_cut_for_the_record_leaves_none_of_itself() {
    let server = support::start().await;
    let f = support::fixture();
    // The record keeps 200 characters of a string: the secret sits across the cut.
    let padding = "x".repeat(195);
    let plan = format!("apiVersion: planwright/v1\nid: masking_test\nversion: 1.0.0\nvars:\n  base: null\nsecrets: [PORTAL_PASSWORD]\ngraph:\n  - id: send\n    block: external.api.http\n    in:\n      url: \"${{vars.base}}/json/1\"\n      method: POST\n      body: \"{padding}${{secrets.PORTAL_PASSWORD}}\"\n    out: {{status: status}}\n");
    let outcome =
        f.engine.run(&f.store, request(&plan, &server.base), options(&f)).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(outcome.status, RunStatus::Succeeded, "{:?}", outcome.reason);
    let recorded = serde_json::to_string(&f.store.events(&outcome.run_id).unwrap()).unwrap();
    assert!(recorded.contains("xxx***"), "the input is recorded, masked then cut: {recorded}");
    assert!(!recorded.contains("xxxPa"), "the start of the secret was left where the input was cut");
}
