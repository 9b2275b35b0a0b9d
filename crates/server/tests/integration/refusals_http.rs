//! Two refusals as `planwright serve` answers them: a document name too long for the file
//! system is 400 with the rule, and of racing resumes of one run, one is 200 and the rest 409.

use std::time::Duration;

use base64::Engine as _;
use futures::StreamExt;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::common;
use common::Running;

const ASKS: &str = "apiVersion: planwright/v1\nid: asking\nversion: 1.0.0\ngraph:\n  - id: ask\n    block: ui.interactive_input\n    in:\n      mode: collect\n      message: Which month?\n      requirements:\n        - {id: month, type: text, label: Month, required: true}\n    out: {collected_data: data}\n";

/// Reads the run's events until one of type `kind`, failing after 20 s.
async fn until(s: &Running, run_id: &str, kind: &str) {
    let mut events = s.events(run_id).await;
    tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(event) = events.next().await {
            if event["type"] == kind {
                return;
            }
        }
        panic!("the events of {run_id} ended before {kind}");
    })
    .await
    .expect("the event came");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_document_name_over_255_bytes_is_400_with_the_rule() {
    let s = Running::start().await;
    let name = format!("{}.pdf", "経費精算規程".repeat(15));
    let content = base64::engine::general_purpose::STANDARD.encode(b"%PDF-1.4");
    let (status, error) =
        s.json(Method::POST, "/api/documents", json!({"name": name, "content_base64": content})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
    assert_eq!(error["said"]["key"], "document_name_too_long", "{error}");
    assert_eq!(error["said"]["params"]["max_bytes"], 200, "{error}");
    assert!(error["message"].as_str().unwrap().contains("UTF-8"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_resumes_of_one_run_are_one_200_and_409_for_the_rest() {
    let s = Running::start().await;
    let (_, started) = s.json(Method::POST, "/api/runs", json!({"plan": {"text": ASKS}})).await;
    let run_id = started["run_id"].as_str().unwrap().to_owned();
    until(&s, &run_id, "input_requested").await;
    s.json(Method::POST, &format!("/api/runs/{run_id}/stop"), json!({})).await;
    until(&s, &run_id, "run_finished").await;

    let path = format!("/api/runs/{run_id}/resume");
    let calls = (0..6).map(|_| s.json(Method::POST, &path, json!({})));
    let answers: Vec<(StatusCode, Value)> = futures::future::join_all(calls).await;
    let statuses: Vec<StatusCode> = answers.iter().map(|(status, _)| *status).collect();
    assert_eq!(statuses.iter().filter(|s| **s == StatusCode::OK).count(), 1, "{answers:?}");
    assert_eq!(statuses.iter().filter(|s| **s == StatusCode::CONFLICT).count(), 5, "{answers:?}");
    s.json(Method::POST, &format!("/api/runs/{run_id}/stop"), json!({})).await;
}
