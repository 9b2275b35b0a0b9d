//! `external.api.http` against a real local HTTP server.

use crate::net_support;

use std::time::{Duration, Instant};

use planwright_block::BlockError;
use planwright_runs::RunMessage;
use serde_json::{json, Value};

use net_support::{assert_declared_outputs, serve, Harness};

const ID: &str = "external.api.http";

fn failed(result: Result<planwright_block::Values, BlockError>) -> String {
    match result {
        Err(BlockError::Failed(planwright_runs::Reason { text: message, .. })) => message,
        other => panic!("expected Failed, got {other:?}"),
    }
}

fn input_error(result: Result<planwright_block::Values, BlockError>) -> String {
    match result {
        Err(BlockError::Input(planwright_runs::Reason { text: message, .. })) => message,
        other => panic!("expected Input, got {other:?}"),
    }
}

#[tokio::test]
async fn json_response() {
    let server = serve().await;
    let h = Harness::new();
    let out = h.run(ID, json!({"url": server.url("/json")})).await.unwrap();
    assert_declared_outputs(ID, &out);
    assert_eq!(out["status"], 200);
    assert_eq!(
        out["response_json"],
        json!({"invoices": [{"invoice_number": "INV-1", "amount": 132000}], "total_count": 1})
    );
    assert_eq!(serde_json::from_str::<Value>(out["response_text"].as_str().unwrap()).unwrap(), out["response_json"]);
    assert_eq!(out["headers"]["content-type"], "application/json; charset=utf-8");
    assert_eq!(out["headers"]["x-request-id"], "7f3c");
    assert_eq!(server.seen.lock().unwrap()[0].method, "GET");

    let lines = h.events.lines();
    assert_eq!(lines.len(), 1, "{lines:?}");
    let line = &lines[0];
    let prefix = format!("GET http://{}/json → 200 in ", server.addr);
    assert!(line.starts_with(&prefix) && line.ends_with(" ms"), "{line}");
    let said = h.events.logs_said.lock().unwrap().clone();
    assert!(
        matches!(&said[..], [Some(RunMessage::HttpAnswered { method, url, status: 200, .. })] if method == "GET" && url.ends_with("/json")),
        "{said:?}"
    );
}

#[tokio::test]
async fn text_response_has_null_json() {
    let server = serve().await;
    let h = Harness::new();
    let out = h.run(ID, json!({"url": server.url("/text")})).await.unwrap();
    assert_declared_outputs(ID, &out);
    assert_eq!(out["status"], 200);
    assert_eq!(out["response_json"], Value::Null);
    assert_eq!(out["response_text"], "ok");
}

#[tokio::test]
async fn a_body_that_parses_as_json_is_parsed_whatever_the_content_type() {
    let server = serve().await;
    let out = Harness::new().run(ID, json!({"url": server.url("/jsonish")})).await.unwrap();
    assert_eq!(out["response_json"], json!([1, 2, 3]));
    assert_eq!(out["response_text"], "[1, 2, 3]");
}

#[tokio::test]
async fn query_params_are_added_and_their_values_never_logged() {
    let server = serve().await;
    let h = Harness::new();
    let out = h
        .run(
            ID,
            json!({
                "url": server.url("/echo?fixed=1"),
                "params": {"status": "unpaid", "month": "2024-04", "n": 3, "ids": [7, 8], "skip": null},
            }),
        )
        .await
        .unwrap();
    assert_eq!(out["response_json"]["query"], "fixed=1&status=unpaid&month=2024-04&n=3&ids=7&ids=8");
    let lines = h.events.lines();
    assert!(
        lines[0]
            .starts_with(&format!("GET http://{}/echo?fixed=…&status=…&month=…&n=…&ids=…&ids=… → 200", server.addr)),
        "{lines:?}"
    );
    assert!(!lines[0].contains("unpaid"));
}

#[tokio::test]
async fn object_bodies_are_sent_as_json_and_text_as_text() {
    let server = serve().await;
    let h = Harness::new();
    let body = json!({"text": "4月分の入金消込が完了しました。", "count": 2, "items": [1, 2]});
    let out = h.run(ID, json!({"method": "POST", "url": server.url("/echo"), "body": body})).await.unwrap();
    let echo = &out["response_json"];
    assert_eq!(echo["method"], "POST");
    assert_eq!(echo["headers"]["content-type"], "application/json");
    assert_eq!(serde_json::from_str::<Value>(echo["body"].as_str().unwrap()).unwrap(), body);

    let out = h.run(ID, json!({"method": "PUT", "url": server.url("/echo"), "body": [1, "two"]})).await.unwrap();
    assert_eq!(out["response_json"]["body"], "[1,\"two\"]");
    assert_eq!(out["response_json"]["method"], "PUT");

    let out = h.run(ID, json!({"method": "patch", "url": server.url("/echo"), "body": "plain text"})).await.unwrap();
    let echo = &out["response_json"];
    assert_eq!(echo["method"], "PATCH");
    assert_eq!(echo["body"], "plain text");
    assert_eq!(echo["headers"]["content-type"], "text/plain; charset=utf-8");

    // A content type the plan sets wins.
    let out = h
        .run(
            ID,
            json!({"method": "POST", "url": server.url("/echo"), "body": "<a/>", "headers": {"Content-Type": "application/xml"}}),
        )
        .await
        .unwrap();
    assert_eq!(out["response_json"]["headers"]["content-type"], "application/xml");

    let out = h.run(ID, json!({"method": "DELETE", "url": server.url("/echo")})).await.unwrap();
    assert_eq!(out["response_json"]["method"], "DELETE");
    assert_eq!(out["response_json"]["body"], "");
}

#[tokio::test]
async fn request_headers_are_sent() {
    let server = serve().await;
    let out = Harness::new()
        .run(ID, json!({"url": server.url("/echo"), "headers": {"X-Api-Key": "k1", "X-Count": 3, "X-Gone": null}}))
        .await
        .unwrap();
    let headers = &out["response_json"]["headers"];
    assert_eq!(headers["x-api-key"], "k1");
    assert_eq!(headers["x-count"], "3");
    assert!(headers.get("x-gone").is_none());
}

#[tokio::test]
async fn response_header_names_are_lower_cased() {
    let server = serve().await;
    let out = Harness::new().run(ID, json!({"url": server.url("/headers")})).await.unwrap();
    let headers = out["headers"].as_object().unwrap();
    assert!(headers.keys().all(|k| *k == k.to_lowercase()), "{headers:?}");
    assert_eq!(headers["x-mixed-case-name"], "Value-Keeps-Case");
    assert_eq!(headers["set-cookie"], "a=1, b=2");
    assert_eq!(out["response_text"], "");
    assert_eq!(out["response_json"], Value::Null);
}

#[tokio::test]
async fn head_requests_have_no_body() {
    let server = serve().await;
    let out = Harness::new().run(ID, json!({"method": "HEAD", "url": server.url("/json")})).await.unwrap();
    assert_declared_outputs(ID, &out);
    assert_eq!(out["status"], 200);
    assert_eq!(out["response_text"], "");
    assert_eq!(out["response_json"], Value::Null);
    assert_eq!(server.seen.lock().unwrap()[0].method, "HEAD");
}

#[tokio::test]
async fn status_500_fails_with_the_status_reason_and_start_of_the_body() {
    let server = serve().await;
    let h = Harness::new();
    let message = failed(h.run(ID, json!({"url": server.url("/fail")})).await);
    let expected_start =
        format!("GET http://{}/fail answered 500 Internal Server Error: database exploded: ", server.addr);
    assert!(message.starts_with(&expected_start), "{message}");
    let excerpt =
        message.strip_prefix(&format!("GET http://{}/fail answered 500 Internal Server Error: ", server.addr)).unwrap();
    assert_eq!(excerpt.chars().count(), 301, "300 characters and an ellipsis");
    assert!(excerpt.ends_with('…'));
    assert!(h.events.lines()[0].contains("→ 500 in "), "{:?}", h.events.lines());
}

#[tokio::test]
async fn status_404_without_a_body() {
    let server = serve().await;
    let message = failed(Harness::new().run(ID, json!({"url": server.url("/missing")})).await);
    assert_eq!(message, format!("GET http://{}/missing answered 404 Not Found (no response body)", server.addr));
}

#[tokio::test]
async fn a_slow_server_times_out() {
    let server = serve().await;
    let started = Instant::now();
    let message = failed(Harness::new().run(ID, json!({"url": server.url("/sleep?ms=5000"), "timeout_sec": 1})).await);
    let elapsed = started.elapsed();
    assert!(message.contains("timed out after 1 s"), "{message}");
    assert!(message.contains("timeout_sec"), "{message}");
    assert!(!message.contains("5000"), "no query values: {message}");
    assert!(elapsed >= Duration::from_millis(900) && elapsed < Duration::from_millis(3000), "{elapsed:?}");
}

#[tokio::test]
async fn cancelling_stops_the_request_promptly() {
    let server = serve().await;
    let h = Harness::new();
    let cancel = h.ctx.cancel.clone();
    let cancelled_at = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        cancel.cancel();
        Instant::now()
    });
    let result = h.run(ID, json!({"url": server.url("/sleep?ms=10000"), "timeout_sec": 60})).await;
    let finished = Instant::now();
    assert_eq!(result, Err(BlockError::Cancelled));
    let cancelled_at = cancelled_at.await.unwrap();
    assert!(finished.duration_since(cancelled_at) < Duration::from_secs(1));
}

#[tokio::test]
async fn already_cancelled_sends_nothing() {
    let server = serve().await;
    let h = Harness::new();
    h.ctx.cancel.cancel();
    assert_eq!(h.run(ID, json!({"url": server.url("/json")})).await, Err(BlockError::Cancelled));
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(server.seen.lock().unwrap().is_empty());
}

#[tokio::test]
async fn a_body_over_10_mib_is_refused_with_its_size() {
    let server = serve().await;
    let started = Instant::now();
    let message = failed(Harness::new().run(ID, json!({"url": server.url("/big")})).await);
    assert!(message.contains("is 11 MiB (11534336 bytes), over the 10 MiB this block reads"), "{message}");
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[tokio::test]
async fn a_streamed_body_over_10_mib_stops_at_the_cap() {
    let server = serve().await;
    let message = failed(Harness::new().run(ID, json!({"url": server.url("/big-stream")})).await);
    assert!(message.contains("is larger than 10 MiB (stopped reading there)"), "{message}");
}

#[tokio::test]
async fn only_http_and_https_are_called() {
    let h = Harness::new();
    let message = input_error(h.run(ID, json!({"url": "ftp://files.example.com/report.csv"})).await);
    assert_eq!(message, "`url` uses the ftp: scheme; this block only calls http:// and https:// addresses");
    let message = input_error(h.run(ID, json!({"url": "file:///etc/passwd"})).await);
    assert!(message.contains("file: scheme"), "{message}");
    let message = input_error(h.run(ID, json!({"url": "api.example.com/v1"})).await);
    assert!(message.contains("not a valid address"), "{message}");
    let message = input_error(h.run(ID, json!({"url": "  "})).await);
    assert!(message.contains("`url` is empty"), "{message}");
}

#[tokio::test]
async fn inputs_out_of_range_are_refused() {
    let server = serve().await;
    let h = Harness::new();
    for timeout in [json!(0), json!(0.5), json!(601), json!("30")] {
        let message = input_error(h.run(ID, json!({"url": server.url("/json"), "timeout_sec": timeout})).await);
        assert!(message.starts_with("`timeout_sec` must be a number of seconds from 1 to 600"), "{message}");
    }
    let message = input_error(h.run(ID, json!({"url": server.url("/json"), "method": "FETCH"})).await);
    assert_eq!(message, "`method` \"FETCH\" is not one of GET, POST, PUT, PATCH, DELETE, HEAD");
    let message = input_error(h.run(ID, json!({"url": server.url("/json"), "headers": {"bad name": "x"}})).await);
    assert!(message.contains("`bad name` is not a valid header name"), "{message}");
    let message = input_error(h.run(ID, json!({"url": server.url("/json"), "params": {"q": {"nested": 1}}})).await);
    assert!(message.contains("`params`: `q`"), "{message}");
    let message = input_error(
        h.run(
            ID,
            json!({"url": server.url("/json"), "headers": {"Authorization": "Bearer secret-value\r\nX-Evil: 1"}}),
        )
        .await,
    );
    assert!(message.contains("header `Authorization`") && !message.contains("secret-value"), "{message}");
    assert!(server.seen.lock().unwrap().is_empty(), "nothing was sent");
}

#[tokio::test]
async fn connection_refused_says_so() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let message = failed(Harness::new().run(ID, json!({"url": format!("http://{addr}/x?token=abc")})).await);
    assert!(message.starts_with(&format!("GET http://{addr}/x?token=… could not connect")), "{message}");
    assert!(!message.contains("abc"), "{message}");
}

#[tokio::test]
async fn canary_secrets_never_reach_a_log_line_or_message() {
    const CANARY: &str = "canary-XYZ";
    let server = serve().await;
    let h = Harness::new();
    let headers = json!({"Authorization": format!("Bearer {CANARY}"), "X-Token": CANARY});
    let mut messages = Vec::new();

    let out =
        h.run(ID, json!({"url": server.url("/echo"), "headers": headers, "params": {"key": CANARY}})).await.unwrap();
    assert_eq!(out["response_json"]["headers"]["authorization"], format!("Bearer {CANARY}"), "the header was sent");
    for path in ["/fail", "/missing"] {
        messages.push(failed(h.run(ID, json!({"url": server.url(path), "headers": headers})).await));
    }
    messages.push(failed(
        h.run(
            ID,
            json!({"url": server.url(&format!("/sleep?ms=3000&t={CANARY}")), "headers": headers, "timeout_sec": 1}),
        )
        .await,
    ));
    let user_url = format!("http://user:{CANARY}@{}/json", server.addr);
    h.run(ID, json!({"url": user_url, "headers": headers})).await.unwrap();

    let lines = h.events.lines();
    assert!(lines.len() >= 5, "{lines:?}");
    for line in lines.iter().chain(&messages) {
        assert!(!line.contains(CANARY), "leaked: {line}");
    }
}
