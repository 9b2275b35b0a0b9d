//! The engine against real blocks, a real run store (SQLite + JSONL in a temp data home) and a
//! real local HTTP server.

use crate::support;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use planwright_catalog::Catalog;
use planwright_engine::{
    BrowserSettings, Engine, GivenAnswers, NoAnswers, RunOptions, RunOutcome, RunRequest, SecretSource,
};
use planwright_runs::{Event, EventKind, RunMessage, RunStatus};
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;

struct Secrets;

impl SecretSource for Secrets {
    fn secret(&self, name: &str) -> Option<String> {
        (name == "API_TOKEN").then(|| "canary-5e3f-never-recorded".to_owned())
    }
}

impl support::Fixture {
    /// This file's run options: its secrets, no events, the system's headless Chromium, no model.
    fn options(&self, answers: Arc<dyn planwright_engine::AnswerSource>, stop: CancellationToken) -> RunOptions {
        RunOptions {
            workdir: self.workdir.path().to_owned(),
            secrets: Arc::new(Secrets),
            answers,
            stop,
            events: None,
            browser: BrowserSettings::default(),
            models: None,
        }
    }

    async fn run(
        &self,
        plan: &str,
        vars: Value,
        answers: Option<HashMap<String, Value>>,
        stop: CancellationToken,
    ) -> (RunOutcome, Vec<Event>) {
        let answers: Arc<dyn planwright_engine::AnswerSource> = match answers {
            Some(answers) => Arc::new(GivenAnswers(answers)),
            None => Arc::new(NoAnswers),
        };
        let options = self.options(answers, stop);
        let request = RunRequest {
            plan_text: plan.to_owned(),
            plan_path: None,
            vars: vars.as_object().cloned().unwrap_or_default(),
        };
        let outcome = self.engine.run(&self.store, request, options).await.unwrap_or_else(|e| panic!("{e}"));
        let events = self.store.events(&outcome.run_id).unwrap();
        (outcome, events)
    }
}

fn plan(graph: &str) -> String {
    format!("apiVersion: planwright/v1\nid: engine_test\nversion: 1.0.0\nvars:\n  base: null\nsecrets: [API_TOKEN]\ngraph:\n{graph}")
}

fn http(id: &str, path: &str, extra: &str) -> String {
    format!("  - id: {id}\n    block: external.api.http\n    in: {{url: \"${{vars.base}}{path}\"}}\n    out: {{status: status, response_json: body}}\n{extra}")
}

fn kinds<'a>(events: &'a [Event], node: &str) -> Vec<&'a str> {
    events
        .iter()
        .filter_map(|e| {
            let (n, kind) = match &e.kind {
                EventKind::NodeStarted { node, .. } => (node, "started"),
                EventKind::NodeFinished { node, .. } => (node, "finished"),
                EventKind::NodeFailed { node, .. } => (node, "failed"),
                EventKind::NodeSkipped { node, .. } => (node, "skipped"),
                EventKind::NodeRetried { node, .. } => (node, "retried"),
                _ => return None,
            };
            (n == node).then_some(kind)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn independent_nodes_run_at_the_same_time() {
    let server = support::start().await;
    let f = support::fixture();
    let graph =
        [http("a", "/sleep/400/a", ""), http("b", "/sleep/400/b", ""), http("c", "/json/1", "    after: [a, b]\n")]
            .concat();
    let (outcome, _) = f.run(&plan(&graph), json!({"base": server.base}), None, CancellationToken::new()).await;
    assert_eq!(outcome.status, RunStatus::Succeeded, "{:?}", outcome.reason);
    let requests = server.log.requests();
    let a = requests.iter().find(|r| r.path.ends_with("/a")).unwrap();
    let b = requests.iter().find(|r| r.path.ends_with("/b")).unwrap();
    let c = requests.iter().find(|r| r.path.starts_with("/json")).unwrap();
    assert!(b.started < a.finished.unwrap() && a.started < b.finished.unwrap(), "a and b overlapped");
    assert!(c.started >= a.finished.unwrap().max(b.finished.unwrap()), "c waited for both");
    assert_eq!((outcome.counts.succeeded, outcome.counts.failed), (3, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_false_condition_skips_the_node_and_what_needs_its_outputs() {
    let server = support::start().await;
    let f = support::fixture();
    let graph = [
        http("check", "/json/1", ""),
        http("gated", "/json/2", "    when: {expr: \"${check.status} == 404\"}\n"),
        "  - id: uses_gated\n    block: transforms.pick\n    in: {source: \"${gated.body}\", path: n}\n    out: {value: n}\n".to_owned(),
        http("only_after", "/json/3", "    after: [gated]\n"),
    ]
    .concat();
    let (outcome, events) = f.run(&plan(&graph), json!({"base": server.base}), None, CancellationToken::new()).await;
    assert_eq!(outcome.status, RunStatus::Succeeded);
    let reason = |node: &str| {
        events.iter().find_map(|e| match &e.kind {
            EventKind::NodeSkipped { node: n, reason, said } if n == node => Some((reason.clone(), said.clone())),
            _ => None,
        })
    };
    let (gated, said) = reason("gated").unwrap();
    assert!(gated.contains("is false"));
    assert_eq!(said, Some(RunMessage::ConditionFalse { condition: "${check.status} == 404".into() }));
    let (uses_gated, said) = reason("uses_gated").unwrap();
    assert!(uses_gated.contains("`gated`, which was skipped"));
    assert_eq!(said, Some(RunMessage::DependencySkipped { dependency: "gated".into() }));
    assert_eq!(kinds(&events, "only_after"), ["started", "finished"], "ordering without data is not a need");
    assert_eq!((outcome.counts.succeeded, outcome.counts.skipped), (2, 2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn continue_records_the_failure_gives_null_and_is_never_success() {
    let server = support::start().await;
    let f = support::fixture();
    let graph = [
        http("bad", "/fail", "    policy: {on_error: continue}\n"),
        "  - id: save\n    block: report.write\n    in: {data: {status: \"${bad.status}\"}, format: json, path: out/status.json}\n    out: {path: saved}\n".to_owned(),
    ]
    .concat();
    let (outcome, events) = f.run(&plan(&graph), json!({"base": server.base}), None, CancellationToken::new()).await;
    assert_eq!(outcome.status, RunStatus::Failed, "a continued failure is not a success");
    assert_eq!((outcome.counts.succeeded, outcome.counts.failed), (1, 1));
    assert!(events
        .iter()
        .any(|e| matches!(&e.kind, EventKind::NodeFailed { node, continued: true, .. } if node == "bad")));
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(f.workdir.path().join("out/status.json")).unwrap()).unwrap();
    assert_eq!(saved, json!({"status": null}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn halt_stops_the_run_at_the_first_failure() {
    let server = support::start().await;
    let f = support::fixture();
    let graph = [http("bad", "/fail", ""), http("next", "/json/1", "    after: [bad]\n")].concat();
    let (outcome, events) = f.run(&plan(&graph), json!({"base": server.base}), None, CancellationToken::new()).await;
    assert_eq!(outcome.status, RunStatus::Failed);
    assert!(outcome.reason.unwrap().contains("`bad` failed"));
    assert!(kinds(&events, "next").is_empty(), "nothing after a halting failure starts");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retry_backs_off_and_counts_every_retry() {
    let server = support::start().await;
    let f = support::fixture();
    let graph = http("flaky", "/flaky/2/k", "    policy: {on_error: retry, retries: 3, retry_backoff_ms: 20}\n");
    let (outcome, events) = f.run(&plan(&graph), json!({"base": server.base}), None, CancellationToken::new()).await;
    assert_eq!(outcome.status, RunStatus::Succeeded);
    assert_eq!(kinds(&events, "flaky"), ["started", "retried", "started", "retried", "started", "finished"]);
    let backoffs: Vec<u64> = events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::NodeRetried { backoff_ms, .. } => Some(backoff_ms),
            _ => None,
        })
        .collect();
    assert_eq!(backoffs, [20, 40], "exponential from retry_backoff_ms");
    assert_eq!((outcome.counts.succeeded, outcome.counts.retried), (1, 2));
    assert_eq!(server.log.count("/flaky"), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_input_the_block_refuses_is_not_retried() {
    let f = support::fixture();
    let graph = "  - id: escape\n    block: report.write\n    in: {data: {a: 1}, format: json, path: ../outside.json}\n    policy: {on_error: retry, retries: 3, retry_backoff_ms: 20}\n";
    let (outcome, events) =
        f.run(&plan(graph), json!({"base": "http://127.0.0.1:9"}), None, CancellationToken::new()).await;
    assert_eq!(outcome.status, RunStatus::Failed);
    assert_eq!(kinds(&events, "escape"), ["started", "failed"], "another attempt could not change the answer");
    assert_eq!(outcome.counts.retried, 0);
    // A common block error carries its code, the path the plan gave as a parameter.
    let said = events.iter().find_map(|e| match &e.kind {
        EventKind::NodeFailed { said, .. } => said.clone(),
        _ => None,
    });
    assert!(
        matches!(&said, Some(RunMessage::PathOutsideWorkdir { input, path, .. }) if input == "path" && path == "../outside.json"),
        "{said:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_block_error_in_words_of_its_own_is_said_as_its_kind() {
    let f = support::fixture();
    // Rows that are not rows: only the run can tell, from the value the var has.
    let graph = "  - id: keep\n    block: transforms.filter\n    in: {items: \"${vars.base}\", conditions: []}\n";
    let (outcome, events) = f.run(&plan(graph), json!({"base": [1, 2]}), None, CancellationToken::new()).await;
    assert_eq!(outcome.status, RunStatus::Failed);
    let (error, said) = events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::NodeFailed { error, said, .. } => Some((error.clone(), said.clone())),
            _ => None,
        })
        .expect("the node failed");
    // The block's own words stay the record's text; the code says what kind of error it is.
    assert!(error.contains("`items` item 0"), "{error}");
    assert_eq!(said, Some(RunMessage::BlockInputInvalid { block: "transforms.filter".into() }));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engines_own_messages_carry_their_code_beside_the_english() {
    let server = support::start().await;
    let f = support::fixture();
    let graph = http(
        "slow",
        "/sleep/10000/x",
        "    policy: {on_error: retry, retries: 1, retry_backoff_ms: 10, timeout_ms: 200}
",
    );
    let (outcome, events) = f.run(&plan(&graph), json!({"base": server.base}), None, CancellationToken::new()).await;
    assert_eq!(outcome.status, RunStatus::Failed);
    let timed_out = Some(RunMessage::TimedOut { ms: 200 });
    let retried = events.iter().find_map(|e| match &e.kind {
        EventKind::NodeRetried { error, said, .. } => Some((error.clone(), said.clone())),
        _ => None,
    });
    let (error, said) = retried.expect("a retry");
    assert!(error.starts_with("timed out after 200 ms"), "the English stays: {error}");
    assert_eq!(said, timed_out);
    let failed = events.iter().find_map(|e| match &e.kind {
        EventKind::NodeFailed { error, said, .. } => Some((error.clone(), said.clone())),
        _ => None,
    });
    let (error, said) = failed.expect("a failure");
    assert!(error.starts_with("timed out after 200 ms"), "{error}");
    assert_eq!(said, timed_out);
    let Some(EventKind::RunFinished { reason, said, .. }) = events.last().map(|e| &e.kind) else { panic!("no end") };
    assert!(reason.as_deref().is_some_and(|r| r.starts_with("`slow` failed: timed out")), "{reason:?}");
    assert_eq!(said, &Some(RunMessage::NodeHalted { node: "slow".into() }));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timeout_cancels_the_blocks_work() {
    let server = support::start().await;
    let f = support::fixture();
    // A bound long enough for the request to reach the server on a loaded machine (at 300 ms it
    // once timed out before the server had read it, and there was no request to see dropped).
    let graph = http("slow", "/sleep/30000/x", "    policy: {timeout_ms: 1500}\n");
    let (outcome, events) = f.run(&plan(&graph), json!({"base": server.base}), None, CancellationToken::new()).await;
    assert_eq!(outcome.status, RunStatus::Failed);
    assert!(events
        .iter()
        .any(|e| matches!(&e.kind, EventKind::NodeFailed { node, timed_out: true, .. } if node == "slow")));
    // The request itself was dropped: the server sees the client go away, long before its 30 s.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match server.log.requests().into_iter().find(|r| r.path.starts_with("/sleep")) {
            Some(request) if request.abandoned => break,
            _ if Instant::now() < deadline => tokio::time::sleep(Duration::from_millis(50)).await,
            other => panic!("the HTTP request was not seen cancelled: {other:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn foreach_collects_in_input_order_whatever_order_items_finish() {
    let server = support::start().await;
    let f = support::fixture();
    let graph = "  - id: each\n    foreach: {input: [900, 10, 450], item_var: ms, index_var: i, max_concurrency: 3}\n    body:\n      plan:\n        graph:\n          - id: wait\n            block: external.api.http\n            in: {url: \"${vars.base}/sleep/${vars.ms}/${vars.i}\"}\n            out: {response_json: waited}\n    out: {collect: results}\n  - id: save\n    block: report.write\n    in: {data: \"${each.results}\", format: json, path: out/results.json}\n";
    let (outcome, events) = f.run(&plan(graph), json!({"base": server.base}), None, CancellationToken::new()).await;
    assert_eq!(outcome.status, RunStatus::Succeeded, "{:?}", outcome.reason);
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(f.workdir.path().join("out/results.json")).unwrap()).unwrap();
    assert_eq!(saved, json!([{"waited": {"slept": 900}}, {"waited": {"slept": 10}}, {"waited": {"slept": 450}}]));
    assert_eq!(kinds(&events, "each[1]/wait"), ["started", "finished"], "iterations have their own node paths");
    let finished: Vec<&str> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::NodeFinished { node, .. } if node.ends_with("/wait") => Some(node.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(finished, ["each[1]/wait", "each[2]/wait", "each[0]/wait"], "they ran in parallel");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn while_runs_its_body_until_the_condition_is_false() {
    let server = support::start().await;
    let f = support::fixture();
    let graph = "  - id: poll\n    while: {condition: {expr: \"${check.status} != 200\"}, max_iterations: 5}\n    body:\n      plan:\n        graph:\n          - id: check\n            block: external.api.http\n            policy: {on_error: continue}\n            in: {url: \"${vars.base}/flaky/2/poll\"}\n            out: {status: status}\n    out: {collect: attempts}\n";
    let (outcome, events) = f.run(&plan(graph), json!({"base": server.base}), None, CancellationToken::new()).await;
    assert_eq!(server.log.count("/flaky"), 3, "two failures, then done");
    assert_eq!(kinds(&events, "poll[2]/check"), ["started", "finished"]);
    assert_eq!(outcome.counts.failed, 2, "the continued failures count");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stop_ends_the_run_promptly_with_a_consistent_record() {
    let server = support::start().await;
    let f = support::fixture();
    let stop = CancellationToken::new();
    let trigger = stop.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        trigger.cancel();
    });
    let started = Instant::now();
    let graph = http("slow", "/sleep/20000/s", "");
    let (outcome, events) = f.run(&plan(&graph), json!({"base": server.base}), None, stop).await;
    assert!(started.elapsed() < Duration::from_secs(10), "the stop was not honoured");
    assert_eq!(outcome.status, RunStatus::Stopped);
    assert!(matches!(events.last().unwrap().kind, EventKind::RunFinished { status: RunStatus::Stopped, .. }));
    assert_eq!(f.store.summary(&outcome.run_id).unwrap().status, RunStatus::Stopped);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_path_that_escapes_the_workdir_fails_the_node() {
    let f = support::fixture();
    let graph = "  - id: save\n    block: report.write\n    in: {data: {a: 1}, format: json, path: ../escaped.json}\n";
    let (outcome, events) = f.run(&plan(graph), json!({"base": "http://unused"}), None, CancellationToken::new()).await;
    assert_eq!(outcome.status, RunStatus::Failed);
    let error = events.iter().find_map(|e| match &e.kind {
        EventKind::NodeFailed { error, .. } => Some(error.clone()),
        _ => None,
    });
    assert!(error.unwrap().contains("work directory"));
    assert!(!f.workdir.path().parent().unwrap().join("escaped.json").exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secrets_are_used_but_never_recorded() {
    let server = support::start().await;
    let f = support::fixture();
    let graph = "  - id: call\n    block: external.api.http\n    in:\n      url: \"${vars.base}/json/1\"\n      headers: {Authorization: \"Bearer ${secrets.API_TOKEN}\"}\n      body: {token_echo: \"${secrets.API_TOKEN}\"}\n      method: POST\n    out: {status: status}\n";
    let (outcome, events) = f.run(&plan(graph), json!({"base": server.base}), None, CancellationToken::new()).await;
    assert_eq!(outcome.status, RunStatus::Succeeded, "{:?}", outcome.reason);
    let recorded = serde_json::to_string(&events).unwrap();
    assert!(!recorded.contains("canary-5e3f"), "the secret reached the events");
    assert!(recorded.contains("Bearer ***"));
    for entry in support::files_under(f.home.path()) {
        let bytes = std::fs::read(&entry).unwrap();
        assert!(!String::from_utf8_lossy(&bytes).contains("canary-5e3f"), "the secret reached {}", entry.display());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn human_input_is_asked_validated_and_recorded() {
    let f = support::fixture();
    let graph = "  - id: approve\n    block: ui.confirmation\n    in: {message: 今月の支払いを承認しますか？}\n    out: {approved: ok}\n  - id: save\n    block: report.write\n    when: {expr: \"${approve.ok} == true\"}\n    in: {data: {approved: \"${approve.ok}\"}, format: json, path: out/approved.json}\n";
    let mut answers = HashMap::new();
    answers.insert("approve".to_owned(), json!({"approved": true, "comment": "OK"}));
    let (outcome, events) = f.run(&plan(graph), json!({"base": "x"}), Some(answers), CancellationToken::new()).await;
    assert_eq!(outcome.status, RunStatus::Succeeded, "{:?}", outcome.reason);
    assert!(events.iter().any(|e| matches!(&e.kind, EventKind::InputRequested { node, .. } if node == "approve")));
    assert!(events.iter().any(|e| matches!(&e.kind, EventKind::InputReceived { node, .. } if node == "approve")));
    assert!(f.workdir.path().join("out/approved.json").exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_no_one_to_ask_the_run_waits_and_names_what_is_missing() {
    let f = support::fixture();
    let graph = "  - id: ask\n    block: ui.interactive_input\n    in:\n      mode: collect\n      message: 入金明細を選んでください\n      requirements:\n        - {id: bank_file, type: file, label: 入金明細, accept: .csv, required: true}\n    out: {collected_data: data}\n";
    let (outcome, events) = f.run(&plan(graph), json!({"base": "x"}), None, CancellationToken::new()).await;
    assert_eq!(outcome.status, RunStatus::WaitingForInput);
    assert!(outcome.reason.as_deref().unwrap().contains("`bank_file`"), "{:?}", outcome.reason);
    assert_eq!(f.store.summary(&outcome.run_id).unwrap().status, RunStatus::WaitingForInput);
    assert!(!events.iter().any(|e| matches!(e.kind, EventKind::NodeFailed { .. })), "waiting is not failing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalid_answer_keeps_the_request_open() {
    let f = support::fixture();
    let graph = "  - id: ask\n    block: ui.interactive_input\n    in:\n      mode: collect\n      requirements:\n        - {id: month, type: text, required: true, validation: {regex: \"^[0-9]{4}-[0-9]{2}$\"}}\n    out: {collected_data: data}\n";
    let mut answers = HashMap::new();
    answers.insert("ask".to_owned(), json!({"month": "October"}));
    let (outcome, events) = f.run(&plan(graph), json!({"base": "x"}), Some(answers), CancellationToken::new()).await;
    assert_eq!(outcome.status, RunStatus::WaitingForInput);
    assert!(outcome.reason.unwrap().contains("month"));
    assert!(events.iter().any(|e| matches!(&e.kind, EventKind::Log { message, .. } if message.contains("answer refused") && message.contains("month"))));
    assert!(!events.iter().any(|e| matches!(e.kind, EventKind::InputReceived { .. })));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resume_does_not_rerun_finished_nodes() {
    let server = support::start().await;
    let f = support::fixture();
    let graph = [
        http("first", "/json/1", ""),
        "  - id: ask\n    block: ui.confirmation\n    in: {message: \"status ${first.status}: continue?\"}\n    out: {approved: ok}\n"
            .to_owned(),
        http("last", "/json/2", "    after: [ask]\n"),
    ]
    .concat();
    let (waiting, _) = f.run(&plan(&graph), json!({"base": server.base}), None, CancellationToken::new()).await;
    assert_eq!(waiting.status, RunStatus::WaitingForInput);
    let mut answers = HashMap::new();
    answers.insert("ask".to_owned(), json!({"approved": true}));
    let options = f.options(Arc::new(GivenAnswers(answers)), CancellationToken::new());
    let resumed = f.engine.resume(&f.store, &waiting.run_id, options).await.unwrap();
    assert_eq!(resumed.status, RunStatus::Succeeded, "{:?}", resumed.reason);
    assert_eq!(server.log.count("/json/1"), 1, "`first` finished before and was not run again");
    assert_eq!(server.log.count("/json/2"), 1);
    assert_eq!(resumed.counts.succeeded, 3);
    let events = f.store.events(&waiting.run_id).unwrap();
    let seqs: Vec<u64> = events.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, (1..=events.len() as u64).collect::<Vec<_>>(), "one gap-free sequence across the resume");
}

#[test]
fn a_run_can_be_spawned_on_a_multi_threaded_runtime() {
    fn assert_send<T: Send>(_: &T) {}
    let f = support::fixture();
    let options = f.options(Arc::new(NoAnswers), CancellationToken::new());
    let request = RunRequest { plan_text: plan(""), plan_path: None, vars: Default::default() };
    let run = f.engine.run(&f.store, request, options);
    assert_send(&run);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_subflow_runs_the_registered_plan_with_its_inputs_and_maps_its_outputs() {
    let designs = tempfile::tempdir().unwrap();
    let child = "apiVersion: planwright/v1\nid: totals_by_vendor\nversion: 1.0.0\nvars:\n  rows: null\ngraph:\n  - id: totals\n    block: transforms.group_by_agg\n    in: {items: \"${vars.rows}\", by: [vendor], aggregations: [{field: amount, op: sum, as: total}]}\n    out: {rows: vendor_totals}\n";
    std::fs::write(designs.path().join("totals_by_vendor_202611220900.yaml"), child).unwrap();
    let mut f = support::fixture();
    f.engine = Engine::new(
        Arc::new(Catalog::bundled().unwrap()),
        planwright_blocks::builtin(),
        Arc::new(planwright_designs::Designs::new(designs.path())),
    );
    let graph = "  - id: sub\n    call:\n      plan_id: totals_by_vendor\n      inputs:\n        rows: [{vendor: A, amount: \"1,200\"}, {vendor: B, amount: 5}, {vendor: A, amount: 300}]\n    out: {vendor_totals: totals}\n  - id: save\n    block: report.write\n    in: {data: \"${sub.totals}\", format: json, path: out/totals.json}\n";
    let (outcome, events) = f.run(&plan(graph), json!({"base": "x"}), None, CancellationToken::new()).await;
    assert_eq!(outcome.status, RunStatus::Succeeded, "{:?}", outcome.reason);
    assert_eq!(kinds(&events, "sub/totals"), ["started", "finished"], "the child's nodes run under the call's path");
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(f.workdir.path().join("out/totals.json")).unwrap()).unwrap();
    assert_eq!(saved, json!([{"vendor": "A", "total": 1500}, {"vendor": "B", "total": 5}]));
    let artifact = events.iter().find_map(|e| match &e.kind {
        EventKind::Artifact { node, path, bytes, .. } if node == "save" => Some((path.clone(), *bytes)),
        _ => None,
    });
    let (path, bytes) = artifact.expect("the written file is recorded as an artifact");
    assert!(path.ends_with("out/totals.json") && bytes > 0);

    // Called again and again from a loop: the plan is looked up once per run, each call runs.
    let graph = "  - id: each\n    foreach: {input: [[{vendor: A, amount: 1}], [{vendor: B, amount: 2}], [{vendor: C, amount: 3}]], item_var: rows}\n    body:\n      plan:\n        graph:\n          - id: sub\n            call: {plan_id: totals_by_vendor, inputs: {rows: \"${vars.rows}\"}}\n            out: {vendor_totals: totals}\n    out: {collect: all}\n  - id: save\n    block: report.write\n    in: {data: \"${each.all}\", format: json, path: out/all.json}\n";
    let (outcome, _) = f.run(&plan(graph), json!({"base": "x"}), None, CancellationToken::new()).await;
    assert_eq!(outcome.status, RunStatus::Succeeded, "{:?}", outcome.reason);
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(f.workdir.path().join("out/all.json")).unwrap()).unwrap();
    assert_eq!(saved[2], json!({"totals": [{"vendor": "C", "total": 3}]}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_condition_that_cannot_be_evaluated_fails_and_halts_whatever_runs() {
    let server = support::start().await;
    let f = support::fixture();
    let graph = [
        http("slow", "/sleep/10000/s", ""),
        http("first", "/sleep/200/f", ""),
        http("gated", "/json/1", "    after: [first]\n    when: {expr: \"${vars.base} > 3\"}\n"),
    ]
    .concat();
    let (outcome, events) = f.run(&plan(&graph), json!({"base": server.base}), None, CancellationToken::new()).await;
    assert_eq!(outcome.status, RunStatus::Failed);
    let error = events.iter().find_map(|e| match &e.kind {
        EventKind::NodeFailed { node, error, .. } if node == "gated" => Some(error.clone()),
        _ => None,
    });
    assert!(error.unwrap().contains("cannot evaluate `when`"), "never silently true");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let slow = server.log.requests().into_iter().find(|r| r.path == "/sleep/10000/s").unwrap();
    assert!(slow.abandoned, "the halt cancelled the node already running");
}

#[tokio::test]
async fn every_missing_secret_is_named_before_any_node_runs() {
    let f = support::fixture();
    let server = support::start().await;
    let text = plan(&http("first", "/json/1", ""))
        .replace("secrets: [API_TOKEN]", "secrets: [API_TOKEN, PORTAL_USER, PORTAL_PASSWORD]");
    let options = f.options(Arc::new(NoAnswers), CancellationToken::new());
    let request = RunRequest {
        plan_text: text,
        plan_path: None,
        vars: json!({"base": server.base}).as_object().cloned().unwrap_or_default(),
    };
    let error = f.engine.run(&f.store, request, options).await.unwrap_err();
    assert!(
        matches!(&error, planwright_engine::EngineError::MissingSecrets(names) if names == &["PORTAL_USER", "PORTAL_PASSWORD"]),
        "{error:?}"
    );
    assert!(error.to_string().contains("`PORTAL_USER`, `PORTAL_PASSWORD`"), "{error}");
    assert_eq!(server.log.count("/json/1"), 0, "no node ran");
    assert!(f.store.list().unwrap().is_empty(), "no run was recorded");
}

#[tokio::test]
async fn a_var_given_at_run_time_without_a_value_stops_the_run_before_any_node() {
    let f = support::fixture();
    let server = support::start().await;
    let text = plan(&http("first", "/json/1", "")).replace("  base: null\n", "  base: null\n  month: null\n");
    for vars in [json!({"base": server.base}), json!({"base": server.base, "month": " "})] {
        let options = f.options(Arc::new(NoAnswers), CancellationToken::new());
        let request = RunRequest {
            plan_text: text.clone(),
            plan_path: None,
            vars: vars.as_object().cloned().unwrap_or_default(),
        };
        let error = f.engine.run(&f.store, request, options).await.unwrap_err();
        assert!(
            matches!(&error, planwright_engine::EngineError::MissingVars(names) if names == &["month"]),
            "{error:?}"
        );
        assert!(error.to_string().contains("`month`") && error.to_string().contains("--var"), "{error}");
    }
    assert_eq!(server.log.count("/json/1"), 0, "no node ran");
    assert!(f.store.list().unwrap().is_empty(), "no run was recorded");
}
