//! A secret a server writes back encoded — form-encoded in the address it was asked for,
//! HTML entities, JSON escapes, base64, re-cased, reversed — is masked wherever the run keeps
//! it: the events, `runs.db`, the JSONL log, a file a block writes from it, and the HTML and
//! JUnit reports made from the record. A real run, a real run store and a real local server.

mod support;

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secret_written_back_encoded_is_masked_in_the_record_the_log_files_and_reports() {
    let server = support::start().await;
    let f = support::fixture();
    let plan = "apiVersion: planwright/v1\nid: masking_test\nversion: 1.0.0\nvars:\n  base: null\nsecrets: [PORTAL_PASSWORD]\ngraph:\n  - id: reflect\n    block: external.api.http\n    in:\n      url: \"${vars.base}/reflect\"\n      params: {p: \"${secrets.PORTAL_PASSWORD}\"}\n      headers: {X-Typed: \"${secrets.PORTAL_PASSWORD}\"}\n    out: {status: status, response_text: page}\n  - id: save\n    block: report.write\n    in: {data: {page: \"${reflect.page}\"}, format: markdown, path: out/page.md}\n";
    let options = RunOptions {
        workdir: f.workdir.path().to_owned(),
        secrets: Arc::new(Secrets),
        answers: Arc::new(NoAnswers),
        stop: CancellationToken::new(),
        events: None,
        browser: BrowserSettings::default(),
        models: None,
    };
    let vars = serde_json::json!({"base": server.base}).as_object().cloned().unwrap();
    let request = RunRequest { plan_text: plan.to_owned(), plan_path: None, vars };
    let outcome = f.engine.run(&f.store, request, options).await.unwrap_or_else(|e| panic!("{e}"));
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
    leaked("the HTML report", &planwright_reports::html(&record));
    leaked("the JUnit report", &planwright_reports::junit(&record));
}
