//! `planwright serve` over real HTTP and a real WebSocket client: the security layer, the plan
//! operations, runs with their event stream, human input, stop, drafts and settings.

use std::time::Duration;

use futures::StreamExt;
use reqwest::header::{AUTHORIZATION, COOKIE, HOST, ORIGIN, SET_COOKIE};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use crate::common;
use common::{walk, Running};

fn plan(id: &str, graph: &str) -> String {
    format!("apiVersion: planwright/v1\nid: {id}\nversion: 1.0.0\nvars:\n  rows: [{{a: 1}}, {{a: 2}}]\ngraph:\n{graph}")
}

const WRITE: &str = "  - id: write\n    block: report.write\n    in: {data: \"${vars.rows}\", format: json, path: out/rows.json}\n    out: {path: written}\n";

const ASK: &str = "  - id: ask\n    block: ui.interactive_input\n    in:\n      mode: collect\n      message: Which month?\n      requirements:\n        - {id: month, type: text, label: Month, required: true}\n    out: {collected_data: data}\n";

/// Events until the stream closes (after `run_finished`), failing after 20 s.
async fn collect(mut events: futures::stream::BoxStream<'static, Value>, mut on: impl FnMut(&Value)) -> Vec<Value> {
    let mut seen = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(event) = events.next().await {
            on(&event);
            seen.push(event);
        }
    })
    .await
    .expect("the event stream ended");
    seen
}

/// Starts a run of `request` (`{"plan": …, "vars": …}`) and follows its events to its end: its
/// run id and the `run_finished` event.
async fn run_to_end(s: &Running, request: Value) -> (String, Value) {
    let (status, started) = s.json(reqwest::Method::POST, "/api/runs", request).await;
    assert_eq!(status, StatusCode::OK, "{started}");
    let run_id = started["run_id"].as_str().unwrap().to_owned();
    let events = collect(s.events(&run_id).await, |_| {}).await;
    let finished = events.into_iter().find(|e| e["type"] == "run_finished").expect("the run finished");
    (run_id, finished)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_without_the_token_or_from_elsewhere_are_refused() {
    let s = Running::start().await;
    let plain = &s.http;
    for path in ["/api/catalog", "/", "/index.html"] {
        let response = plain.get(format!("{}{path}", s.base)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "{path}");
    }
    let wrong = plain.get(format!("{}/api/catalog?token=nope", s.base)).send().await.unwrap();
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    let rebound = s.get("/api/catalog").header(HOST, format!("evil.example:{}", s.port)).send().await.unwrap();
    assert_eq!(rebound.status(), StatusCode::FORBIDDEN, "a foreign Host");
    let foreign = s.get("/api/catalog").header(ORIGIN, "http://evil.example").send().await.unwrap();
    assert_eq!(foreign.status(), StatusCode::FORBIDDEN, "a foreign Origin");
    let own = s.get("/api/catalog").header(ORIGIN, format!("http://localhost:{}", s.port)).send().await.unwrap();
    assert_eq!(own.status(), StatusCode::OK, "its own origin");

    // The WebSocket upgrade: refused without the token.
    let url = format!("ws://127.0.0.1:{}/api/runs/x/events", s.port);
    match tokio_tungstenite::connect_async(url).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => assert_eq!(response.status(), 401),
        other => panic!("expected 401, got {other:?}"),
    }

    // The token in the address becomes a cookie, which is then enough.
    let first = plain.get(format!("{}/?token={}", s.base, s.token)).send().await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    let cookie = first.headers().get(SET_COOKIE).expect("a cookie").to_str().unwrap().to_owned();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "{cookie}");
    assert!(first.text().await.unwrap().contains("<title>studio</title>"), "the UI is served");
    let pair = cookie.split(';').next().unwrap().to_owned();
    let again = plain.get(format!("{}/api/designs", s.base)).header(COOKIE, pair).send().await.unwrap();
    assert_eq!(again.status(), StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plans_validate_dry_run_register_and_list() {
    let s = Running::start().await;
    let text = plan("served_plan", WRITE);
    let (status, valid) = s.json(reqwest::Method::POST, "/api/validate", json!({"text": text})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(valid["valid"], true, "{valid}");

    let broken = text.replace("report.write", "report.writ");
    let (_, invalid) = s.json(reqwest::Method::POST, "/api/validate", json!({"text": broken})).await;
    assert_eq!(invalid["valid"], false);
    let finding = &invalid["findings"][0];
    assert_eq!(finding["code"], "unknown_block");
    assert_eq!(finding["line"], 8, "{finding}");

    let (_, yaml) = s.json(reqwest::Method::POST, "/api/validate", json!({"text": "graph: [\n  {id: a\n"})).await;
    assert_eq!(yaml["findings"][0]["code"], "unreadable", "{yaml}");

    let (status, dry) = s.json(reqwest::Method::POST, "/api/dry-run", json!({"text": text})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(dry["order"], json!([["write"]]));
    assert_eq!(dry["steps"][0]["what"], "report.write");
    assert_eq!(dry["estimate"]["node_runs"], 1);

    let (status, graph) = s
        .json(reqwest::Method::POST, "/api/graph", json!({"text": plan("g", &format!("{WRITE}{ASK}  - id: last\n    block: report.write\n    after: [ask]\n    in: {{data: \"${{write.written}}\", format: json, path: out/x.json}}\n"))}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(graph["nodes"].as_array().unwrap().len(), 3, "{graph}");
    assert!(graph["edges"].as_array().unwrap().contains(&json!({"from": "write", "to": "last", "kind": "data"})));
    assert!(graph["edges"].as_array().unwrap().contains(&json!({"from": "ask", "to": "last", "kind": "after"})));

    let (status, refused) = s.json(reqwest::Method::POST, "/api/register", json!({"text": broken})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(refused["code"], "invalid_input");
    assert_eq!(refused["findings"][0]["code"], "unknown_block");

    let (status, registered) = s.json(reqwest::Method::POST, "/api/register", json!({"text": text})).await;
    assert_eq!(status, StatusCode::OK, "{registered}");
    let file = registered["file"].as_str().unwrap().to_owned();
    assert!(file.starts_with("served_plan_") && file.ends_with(".yaml"), "{file}");
    let designs: Value = s.get("/api/designs").send().await.unwrap().json().await.unwrap();
    let listed: Vec<&str> = designs.as_array().unwrap().iter().map(|d| d["file"].as_str().unwrap()).collect();
    assert!(listed.contains(&file.as_str()), "{listed:?}");
    assert!(listed.contains(&"monthly_expense_approval.yaml"), "the examples are seeded: {listed:?}");
    let opened: Value = s.get(&format!("/api/designs/{file}")).send().await.unwrap().json().await.unwrap();
    assert_eq!(opened["text"], text);
    let outside = s.get("/api/designs/..%2F..%2Fetc%2Fpasswd.yaml").send().await.unwrap();
    assert!(outside.status().is_client_error());
}

/// A new workspace holds the examples and their sample inputs: the flagship example runs as it is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_flagship_example_runs_in_a_new_workspace() {
    let s = Running::start().await;
    let file = json!({"plan": {"file": "invoice_payment_reconciliation.yaml"}});
    let (status, started) = s.json(reqwest::Method::POST, "/api/runs", file).await;
    assert_eq!(status, StatusCode::OK, "{started}");
    let events = collect(s.events(started["run_id"].as_str().unwrap()).await, |_| {}).await;
    assert_eq!(events.last().unwrap()["status"], "succeeded", "{:?}", events.last());
    let summary = std::fs::read_to_string(s.workspace.join("out/消込サマリー_2024-04.md")).unwrap();
    assert!(summary.contains("**未入金**: 2") && summary.contains("**重複候補**: 1"), "{summary}");
}

#[tokio::test]
async fn a_new_workspace_holds_the_templates_and_lists_them_as_templates() {
    let s = Running::start().await;
    let designs: Value = s.get("/api/designs").send().await.unwrap().json().await.unwrap();
    let templates: Vec<&Value> = designs.as_array().unwrap().iter().filter(|d| d["template"] == true).collect();
    assert!(templates.len() >= 12, "{designs}");
    for template in &templates {
        assert!(template["problem"].is_null(), "{template}");
        assert!(template["file"].as_str().unwrap().starts_with("templates/"), "{template}");
    }
    assert!(templates.iter().any(|t| t["plan_id"] == "bank_reconciliation"), "{designs}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_streams_its_events_to_the_end() {
    let s = Running::start().await;
    let (status, started) = s
        .json(reqwest::Method::POST, "/api/runs", json!({"plan": {"text": plan("streamed", WRITE)}, "vars": {}}))
        .await;
    assert_eq!(status, StatusCode::OK, "{started}");
    let run_id = started["run_id"].as_str().unwrap().to_owned();
    let events = collect(s.events(&run_id).await, |_| {}).await;
    let kinds: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(kinds.first(), Some(&"run_started"));
    assert_eq!(kinds.last(), Some(&"run_finished"));
    assert_eq!(events.last().unwrap()["status"], "succeeded", "{events:?}");
    let seqs: Vec<u64> = events.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
    assert_eq!(seqs, (1..=seqs.len() as u64).collect::<Vec<_>>(), "every event once, in order");
    assert!(s.workspace.join("out/rows.json").is_file(), "the run works in the workspace");

    let detail: Value = s.get(&format!("/api/runs/{run_id}")).send().await.unwrap().json().await.unwrap();
    assert_eq!(detail["summary"]["status"], "succeeded");
    assert_eq!(detail["events"].as_array().unwrap().len(), events.len());
    let runs: Value = s.get("/api/runs?status=succeeded&limit=5").send().await.unwrap().json().await.unwrap();
    assert_eq!(runs[0]["run_id"], run_id.as_str());

    // A watcher that comes later gets the record after the given sequence number.
    let late = collect(
        {
            let url = format!("ws://127.0.0.1:{}/api/runs/{run_id}/events?after=2&token={}", s.port, s.token);
            let (socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
            socket
                .filter_map(|m| async move {
                    match m {
                        Ok(Message::Text(text)) => Some(serde_json::from_str(&text).unwrap()),
                        _ => None,
                    }
                })
                .boxed()
        },
        |_| {},
    )
    .await;
    assert_eq!(late.first().unwrap()["seq"], 3);

    let (status, invalid) = s
        .json(
            reqwest::Method::POST,
            "/api/runs",
            json!({"plan": {"text": plan("bad", &WRITE.replace("report.write", "nope.x"))}}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(invalid["findings"][0]["code"], "unknown_block");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn questions_are_answered_through_the_api_and_refused_answers_name_the_fields() {
    let s = Running::start().await;
    let (_, started) = s.json(reqwest::Method::POST, "/api/runs", json!({"plan": {"text": plan("asking", ASK)}})).await;
    let run_id = started["run_id"].as_str().unwrap().to_owned();
    let (asked_tx, mut asked) = tokio::sync::mpsc::unbounded_channel();
    let stream = s.events(&run_id).await;
    let watcher = tokio::spawn(collect(stream, move |event| {
        if event["type"] == "input_requested" {
            let _ = asked_tx.send(event["node"].as_str().unwrap().to_owned());
        }
    }));
    let node = tokio::time::timeout(Duration::from_secs(10), asked.recv()).await.unwrap().unwrap();
    assert_eq!(node, "ask");
    let path = format!("/api/runs/{run_id}/answer");
    let (status, refused) = s.json(reqwest::Method::POST, &path, json!({"node": "ask", "answer": {}})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    assert_eq!(refused["fields"][0]["field"], "month", "{refused}");
    let (status, accepted) =
        s.json(reqwest::Method::POST, &path, json!({"node": "ask", "answer": {"month": "2025-03"}})).await;
    assert_eq!(status, StatusCode::OK, "{accepted}");
    assert_eq!(accepted["accepted"], true);
    let events = watcher.await.unwrap();
    assert_eq!(events.last().unwrap()["status"], "succeeded", "{events:?}");
    assert!(events.iter().any(|e| e["type"] == "input_received"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_run_is_stopped() {
    let s = Running::start().await;
    let (_, started) =
        s.json(reqwest::Method::POST, "/api/runs", json!({"plan": {"text": plan("stopped", ASK)}})).await;
    let run_id = started["run_id"].as_str().unwrap().to_owned();
    let (asked_tx, mut asked) = tokio::sync::mpsc::unbounded_channel();
    let stream = s.events(&run_id).await;
    let watcher = tokio::spawn(collect(stream, move |event| {
        if event["type"] == "input_requested" {
            let _ = asked_tx.send(());
        }
    }));
    tokio::time::timeout(Duration::from_secs(10), asked.recv()).await.unwrap().unwrap();
    let (status, stopping) = s.json(reqwest::Method::POST, &format!("/api/runs/{run_id}/stop"), json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(stopping["stopping"], true);
    let events = watcher.await.unwrap();
    let last = events.last().unwrap();
    assert_eq!(last["type"], "run_finished");
    assert!(last["status"] == "stopped" || last["status"] == "waiting_for_input", "{last}");
    let (status, _) = s.json(reqwest::Method::POST, &format!("/api/runs/{run_id}/stop"), json!({})).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "an ended run is no longer live");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drafts_are_saved_and_read_back() {
    let s = Running::start().await;
    let (status, saved) = s.json(reqwest::Method::PUT, "/api/drafts/mine.yaml", json!({"text": "id: x\n"})).await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    let (_, again) = s.json(reqwest::Method::PUT, "/api/drafts/mine.yaml", json!({"text": "id: y\n"})).await;
    assert_eq!(again["name"], "mine.yaml");
    let opened: Value = s.get("/api/drafts/mine.yaml").send().await.unwrap().json().await.unwrap();
    assert_eq!(opened["text"], "id: y\n");
    let listed: Value = s.get("/api/drafts").send().await.unwrap().json().await.unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 1, "no temporary file is left: {listed}");
    let (status, _) = s.json(reqwest::Method::PUT, "/api/drafts/.hidden.yaml", json!({"text": ""})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let missing = s.get("/api/drafts/none.yaml").send().await.unwrap();
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);

    // Deleted with its design session; deleting again is no error; a path is refused.
    std::fs::create_dir_all(s.workspace.join("drafts/sessions")).unwrap();
    std::fs::write(s.workspace.join("drafts/sessions/mine.yaml.json"), "{}").unwrap();
    let (status, deleted) = s.json(reqwest::Method::DELETE, "/api/drafts/mine.yaml", Value::Null).await;
    assert_eq!((status, deleted), (StatusCode::OK, json!({"name": "mine.yaml"})));
    assert!(!s.workspace.join("drafts/mine.yaml").exists());
    assert!(!s.workspace.join("drafts/sessions/mine.yaml.json").exists());
    let (status, _) = s.json(reqwest::Method::DELETE, "/api/drafts/mine.yaml", Value::Null).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = s.json(reqwest::Method::DELETE, "/api/drafts/..%2Fdesigns%2Fx.yaml", Value::Null).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_round_trip_and_the_key_never_comes_back() {
    const CANARY: &str = "sk-canary-7f3a9d2e4b1c";
    let s = Running::start().await;
    let mut responses = String::new();
    let (status, settings) = s.json(reqwest::Method::GET, "/api/settings", Value::Null).await;
    assert_eq!(status, StatusCode::OK, "{settings}");
    let mut changed = settings.clone();
    changed["theme"] = json!("dark");
    changed["locale"] = json!("ja");
    changed["models"]["provider"] = json!("openai");
    changed["models"]["tiers"]["fast"]["model"] = json!("gpt-4o-mini-2");
    let (status, saved) = s.json(reqwest::Method::PUT, "/api/settings", changed).await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    assert_eq!(saved["theme"], "dark");
    assert_eq!(saved["models"]["tiers"]["fast"]["model"], "gpt-4o-mini-2");
    responses.push_str(&saved.to_string());

    let (status, key) =
        s.json(reqwest::Method::PUT, "/api/settings/key", json!({"provider": "openai", "key": CANARY})).await;
    assert_eq!(status, StatusCode::OK, "{key}");
    assert_eq!(key, json!({"stored": true, "hint": "sk-…4b1c", "where": "file"}));
    responses.push_str(&key.to_string());
    let (_, read) = s.json(reqwest::Method::GET, "/api/settings", Value::Null).await;
    assert_eq!(read["models"]["provider"], "openai");
    assert_eq!(read["models"]["key"]["stored"], true);
    assert_eq!(read["models"]["key"]["hint"], "sk-…4b1c");
    assert!(read["models"]["problem"].is_null(), "{read}");
    responses.push_str(&read.to_string());
    assert!(!responses.contains(CANARY), "the key came back in a response");

    for entry in walk(&s.home).into_iter().chain(walk(&s.workspace)) {
        let text = String::from_utf8_lossy(&std::fs::read(&entry).unwrap()).into_owned();
        if entry.file_name().unwrap() == "keys.yaml" {
            assert!(text.contains(CANARY));
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let mode = std::fs::metadata(&entry).unwrap().permissions().mode() & 0o777;
                assert_eq!(mode, 0o600, "the key file is the user's alone");
            }
        } else {
            assert!(!text.contains(CANARY), "the key reached {}", entry.display());
        }
    }
}

/// A key file that is not a list of keys is never overwritten: storing a key says which file and
/// what to do, and the file stays as it was.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreadable_key_file_is_named_and_left_alone() {
    let s = Running::start().await;
    let file = s.home.join("keys.yaml");
    std::fs::write(&file, "- [this is: not a map\n").unwrap();
    let (status, error) = s
        .json(reqwest::Method::PUT, "/api/settings/key", json!({"provider": "openai", "key": "sk-new-key-1234"}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
    assert_eq!(error["code"], "invalid_input");
    assert!(error["message"].as_str().unwrap().contains("keys.yaml"), "{error}");
    assert!(error["hint"].as_str().unwrap().contains("delete that file"), "{error}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "- [this is: not a map\n");
    let (status, settings) = s.json(reqwest::Method::GET, "/api/settings", Value::Null).await;
    assert_eq!(status, StatusCode::OK, "{settings}");
    assert_eq!(settings["models"]["key"]["stored"], false);
}

/// The studio's page and answers are never cached, so the printed address always reaches the
/// server: open, close the browser, open again — still signed in, even over a stale cookie.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_is_cached_and_the_tokened_address_always_signs_in() {
    let s = Running::start().await;
    for path in ["/", "/index.html", "/api/catalog"] {
        let response = s.get(path).send().await.unwrap();
        assert_eq!(response.headers().get("cache-control").map(|v| v.to_str().unwrap()), Some("no-store"), "{path}");
    }
    let refused = s.http.get(format!("{}/api/catalog", s.base)).send().await.unwrap();
    assert_eq!(refused.headers().get("cache-control").map(|v| v.to_str().unwrap()), Some("no-store"));
    for cookie in ["", "planwright_token=from-an-earlier-start"] {
        let mut request = s.http.get(format!("{}/?token={}", s.base, s.token));
        if !cookie.is_empty() {
            request = request.header(COOKIE, cookie);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let set = response.headers().get(SET_COOKIE).expect("the cookie is set again").to_str().unwrap();
        assert!(set.starts_with(&format!("planwright_token={}", s.token)), "{set}");
    }
}

/// Draft names keep to the documented set; anything else is a 400 with the rule, never a 500.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draft_names_outside_the_documented_set_are_refused_with_the_rule() {
    let s = Running::start().await;
    let long = format!("{}.yaml", "x".repeat(300));
    for name in ["a%20b.yaml", "a:b.yaml", "a%0Ab.yaml", "a%C2%A0b.yaml", "%E2%80%AEx.yaml", "x%00.yaml", long.as_str()]
    {
        let (status, error) =
            s.json(reqwest::Method::PUT, &format!("/api/drafts/{name}"), json!({"text": "id: x\n"})).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name}: {error}");
        assert_eq!(error["code"], "invalid_input", "{name}");
        assert!(error["hint"].as_str().unwrap().contains("letters, digits"), "{name}: {error}");
    }
    let (status, _) =
        s.json(reqwest::Method::PUT, "/api/drafts/%E8%AB%8B%E6%B1%82.yaml", json!({"text": "id: x\n"})).await;
    assert_eq!(status, StatusCode::OK, "letters of any script are letters");
}

/// Bodies and addresses that cannot be read are answered as the documented error JSON, with the
/// status that fits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unreadable_requests_are_answered_as_api_errors() {
    let s = Running::start().await;
    let url = format!("{}/api/validate", s.base);
    let bearer = format!("Bearer {}", s.token);
    let cases = [
        (
            s.http.post(&url).header(AUTHORIZATION, &bearer).body("{\"text\": \"x\"}"),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
        (
            s.http
                .post(&url)
                .header(AUTHORIZATION, &bearer)
                .header("content-type", "application/json")
                .body("{not json"),
            StatusCode::BAD_REQUEST,
        ),
        (s.http.post(&url).header(AUTHORIZATION, &bearer).json(&json!({"txt": 1})), StatusCode::UNPROCESSABLE_ENTITY),
        (
            s.http.post(&url).header(AUTHORIZATION, &bearer).json(&json!({"text": "x".repeat(3 * 1024 * 1024)})),
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
    ];
    for (request, expected) in cases {
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), expected);
        if expected == StatusCode::PAYLOAD_TOO_LARGE {
            // The rest of the body is unread: the connection must not carry the next request.
            assert_eq!(response.headers()["connection"], "close");
        }
        let error: Value = response.json().await.expect("JSON, not plain text");
        assert_eq!(error["code"], "invalid_input", "{error}");
        assert!(error["message"].is_string() && error["hint"].is_string(), "{error}");
    }
    let response = s.get("/api/runs?status=nonsense").send().await.unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert_eq!(response.json::<Value>().await.unwrap()["code"], "invalid_input");
}

/// A link inside `drafts/` or `designs/` that leads out of the workspace is not followed.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn links_leading_out_of_the_workspace_are_not_followed() {
    let s = Running::start().await;
    let outside = s.home.join("secret.yaml");
    std::fs::write(&outside, "id: stolen\n").unwrap();
    std::os::unix::fs::symlink(&outside, s.workspace.join("drafts/link.yaml")).unwrap();
    std::os::unix::fs::symlink(&outside, s.workspace.join("designs/link.yaml")).unwrap();
    for path in ["/api/drafts/link.yaml", "/api/designs/link.yaml"] {
        let response = s.get(path).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{path}");
        assert!(!response.text().await.unwrap().contains("stolen"), "{path}");
    }
    let listed: Value = s.get("/api/drafts").send().await.unwrap().json().await.unwrap();
    assert!(listed.as_array().unwrap().is_empty(), "{listed}");
    let (status, _) = s.json(reqwest::Method::PUT, "/api/drafts/link.yaml", json!({"text": "id: x\n"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "id: stolen\n", "nothing written through the link");
}

/// When the designs folder cannot be written, registering is the server's failure (500) and
/// says why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_register_that_cannot_write_is_a_server_error_with_the_reason() {
    let s = Running::start().await;
    let designs = s.workspace.join("designs");
    std::fs::remove_dir_all(&designs).unwrap();
    std::fs::write(&designs, "not a folder").unwrap();
    let text = plan(
        "blocked",
        "  - id: save\n    block: report.write\n    in: {data: {a: 1}, format: json, path: out/a.json}\n",
    );
    let (status, error) = s.json(reqwest::Method::POST, "/api/register", json!({"text": text})).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{error}");
    assert_eq!(error["code"], "internal");
    assert!(error["message"].as_str().unwrap().contains("designs"), "{error}");
}

/// A client that opens connections and never finishes its headers or its body cannot hold the
/// server: each is closed at its time limit, and past the connection limit a new one is closed
/// at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_that_never_finish_are_closed_at_their_limits() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let limits = planwright_server::ServeLimits {
        header_timeout: Duration::from_millis(500),
        body_timeout: Duration::from_millis(500),
        max_connections: 4,
    };
    let s = Running::start_with(limits).await;
    let addr = format!("127.0.0.1:{}", s.port);
    /// What the server sends before it closes the connection (bounded against a hang).
    async fn until_closed(stream: &mut tokio::net::TcpStream) -> String {
        let mut seen = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut seen)).await;
        assert!(read.is_ok(), "the server kept the connection open");
        String::from_utf8_lossy(&seen).into_owned()
    }
    let mut slow_headers = tokio::net::TcpStream::connect(&addr).await.unwrap();
    slow_headers.write_all(b"GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\n").await.unwrap();
    until_closed(&mut slow_headers).await;

    let mut slow_body = tokio::net::TcpStream::connect(&addr).await.unwrap();
    let head = format!(
        "POST /api/validate HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"text\"",
        s.port, s.token
    );
    slow_body.write_all(head.as_bytes()).await.unwrap();
    let answer = until_closed(&mut slow_body).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("did not arrive in time"), "{answer}");

    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(tokio::net::TcpStream::connect(&addr).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut one_more = tokio::net::TcpStream::connect(&addr).await.unwrap();
    one_more.write_all(b"GET / HTTP/1.1\r\n\r\n").await.ok();
    let mut buffer = [0u8; 64];
    let read = tokio::time::timeout(Duration::from_millis(400), one_more.read(&mut buffer)).await;
    assert!(matches!(read, Ok(Ok(0)) | Ok(Err(_))), "past the limit a new connection is closed at once");
    // The held ones are closed at the header limit; then the server answers again.
    for mut stream in held {
        until_closed(&mut stream).await;
    }
    let response = s.get("/api/catalog").send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
}

/// A block from the catalog is added on the parsed plan: an id and aliases not used yet, its
/// required inputs there to fill (each empty one a finding until it is), the rest of the text as
/// written.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn blocks_are_added_to_a_plan_on_its_parsed_text() {
    let s = Running::start().await;
    let text = "apiVersion: planwright/v1\nid: x   # keep me\nversion: 1.0.0\ngraph: []\n";
    let mut text = text.to_owned();
    for expected in ["read_csv", "read_csv_2"] {
        let (status, edited) = s
            .json(
                reqwest::Method::POST,
                "/api/plan/edit",
                json!({"text": text, "edit": {"kind": "add_block", "block": "file.read_csv"}}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{edited}");
        assert_eq!(edited["node"], expected);
        text = edited["text"].as_str().unwrap().to_owned();
    }
    assert!(text.contains("id: x   # keep me"), "{text}");
    let (_, checked) = s.json(reqwest::Method::POST, "/api/validate", json!({"text": text})).await;
    let codes: Vec<(&str, &str)> = checked["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] == "error")
        .map(|f| (f["code"].as_str().unwrap(), f["field"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(codes, [("missing_input", "in.path"), ("missing_input", "in.path")], "{checked}");
    let (status, error) = s
        .json(
            reqwest::Method::POST,
            "/api/plan/edit",
            json!({"text": text, "edit": {"kind": "set_input", "node": "nope", "input": "path", "value": "a.csv"}}),
        )
        .await;
    assert_eq!((status, error["code"].as_str()), (StatusCode::BAD_REQUEST, Some("invalid_input")), "{error}");
    let (status, edited) = s
        .json(reqwest::Method::POST, "/api/plan/edit", json!({"text": text, "edit": {"kind": "set_input", "node": "read_csv_2", "input": "path", "value": "data/b.csv"}}))
        .await;
    assert_eq!(status, StatusCode::OK);
    let text = edited["text"].as_str().unwrap();
    assert!(text.contains("  - id: read_csv_2\n") && text.contains("path: data/b.csv"), "{text}");
}

/// A stream the client names is ended by `cancel_stream`, over either transport.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_named_stream_is_ended_by_cancel_stream() {
    let s = Running::start().await;
    let plan = plan("waits", "  - id: ask\n    block: ui.confirmation\n    in: {message: Go on?}\n");
    let (_, started) = s.json(reqwest::Method::POST, "/api/runs", json!({"plan": {"text": plan}})).await;
    let run_id = started["run_id"].as_str().unwrap().to_owned();
    let url = format!("ws://127.0.0.1:{}/api/runs/{run_id}/events?after=0&stream=mine", s.port);
    let mut request = url.into_client_request().unwrap();
    request.headers_mut().insert(AUTHORIZATION, format!("Bearer {}", s.token).parse().unwrap());
    let (mut socket, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    // The run waits for an answer: its stream stays open until it is cancelled.
    let first = tokio::time::timeout(Duration::from_secs(20), socket.next()).await.unwrap();
    assert!(matches!(first, Some(Ok(Message::Text(_)))), "{first:?}");
    let (status, cancelled) = s.json(reqwest::Method::POST, "/api/streams/mine/cancel", json!(null)).await;
    assert_eq!((status, cancelled["cancelled"].as_bool()), (StatusCode::OK, Some(true)), "{cancelled}");
    let closed = tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(Ok(message)) = socket.next().await {
            if matches!(message, Message::Close(_)) {
                return true;
            }
        }
        true
    })
    .await;
    assert_eq!(closed, Ok(true), "the stream ends when cancelled");
    let (_, again) = s.json(reqwest::Method::POST, "/api/streams/mine/cancel", json!(null)).await;
    assert_eq!(again["cancelled"], false, "a stream that ended is forgotten");
    s.json(reqwest::Method::POST, &format!("/api/runs/{run_id}/stop"), json!(null)).await;
}

/// A local endpoint answering every request with `{}` and keeping what each request said.
async fn hook() -> (String, std::sync::Arc<std::sync::Mutex<Vec<String>>>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let mut buffer = vec![0u8; 16 * 1024];
            let read = socket.read(&mut buffer).await.unwrap_or(0);
            log.lock().unwrap().push(String::from_utf8_lossy(&buffer[..read]).into_owned());
            let reply =
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}";
            let _ = socket.write_all(reply.as_bytes()).await;
        }
    });
    (base, seen)
}

/// The run check names every missing var, file and secret at once; `start_run` refuses until
/// they are given; a secret stored through the API reaches the step that needs it and no file
/// the run or the studio wrote (the key file aside) holds its value.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_waits_for_its_secret_and_the_secret_is_written_nowhere() {
    const CANARY: &str = "tok-canary-91c4e7";
    let s = Running::start().await;
    let (base, seen) = hook().await;
    let plan = r#"apiVersion: planwright/v1
id: secret_check
version: 1.0.0
vars:
  base: null
  input: in/rows.csv
secrets: [API_TOKEN]
graph:
  - id: rows
    block: file.read_csv
    in: {path: "${vars.input}"}
    out: {rows: rows}
  - id: call
    block: external.api.http
    in:
      url: "${vars.base}/hook"
      headers: {Authorization: "Bearer ${secrets.API_TOKEN}"}
    after: [rows]
    out: {status: status}
"#;
    let request = json!({"plan": {"text": plan}, "vars": {}});
    let (status, check) = s.json(reqwest::Method::POST, "/api/runs/check", request.clone()).await;
    assert_eq!(status, StatusCode::OK, "{check}");
    assert_eq!(check["ready"], false);
    let problems: Vec<(&str, &str)> = check["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["code"].as_str().unwrap(), p["subject"].as_str().unwrap()))
        .collect();
    assert_eq!(problems, [("var_missing", "base"), ("secret_missing", "API_TOKEN"), ("file_missing", "in/rows.csv")]);
    // The var is typed and described by the input it fills; the file is offered a chooser.
    let input = check["vars"].as_array().unwrap().iter().find(|v| v["name"] == "input").unwrap();
    assert_eq!((input["type"].as_str(), input["file"].as_bool()), (Some("file"), Some(true)), "{input}");
    assert_eq!(input["description"]["en"], "The CSV file to read.");

    let (status, refused) = s.json(reqwest::Method::POST, "/api/runs", request).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    assert_eq!(refused["readiness"].as_array().unwrap().len(), 3, "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("secret `API_TOKEN` has no value"), "{refused}");
    assert!(seen.lock().unwrap().is_empty(), "nothing ran");

    let (status, stored) = s.json(reqwest::Method::PUT, "/api/secrets/API_TOKEN", json!({"value": CANARY})).await;
    assert_eq!((status, stored), (StatusCode::OK, json!({"name": "API_TOKEN", "where": "file"})));
    let (status, _) = s.json(reqwest::Method::PUT, "/api/secrets/not a name", json!({"value": "x"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    std::fs::create_dir_all(s.workspace.join("in")).unwrap();
    std::fs::write(s.workspace.join("in/rows.csv"), "id,amount\n1,100\n").unwrap();
    let request = json!({"plan": {"text": plan}, "vars": {"base": base}});
    let (_, check) = s.json(reqwest::Method::POST, "/api/runs/check", request.clone()).await;
    assert_eq!(check["ready"], true, "{check}");
    assert_eq!(check["secrets"], json!([{"name": "API_TOKEN", "where": "file"}]));

    let (run_id, finished) = run_to_end(&s, request).await;
    assert_eq!(finished["status"], "succeeded", "{finished}");
    let requests = seen.lock().unwrap().join("\n");
    assert!(requests.contains(&format!("Bearer {CANARY}")), "the stored secret reached the step: {requests}");

    let (_, detail) = s.json(reqwest::Method::GET, &format!("/api/runs/{run_id}"), Value::Null).await;
    assert!(!detail.to_string().contains(CANARY), "the run's detail holds the secret");
    for entry in walk(&s.home).into_iter().chain(walk(&s.workspace)) {
        let text = String::from_utf8_lossy(&std::fs::read(&entry).unwrap()).into_owned();
        if entry.file_name().unwrap() != "keys.yaml" {
            assert!(!text.contains(CANARY), "the secret reached {}", entry.display());
        }
    }

    let (status, forgotten) = s.json(reqwest::Method::DELETE, "/api/secrets/API_TOKEN", Value::Null).await;
    assert_eq!((status, forgotten), (StatusCode::OK, json!({"name": "API_TOKEN"})));
    let keys = std::fs::read_to_string(s.home.join("keys.yaml")).unwrap();
    assert!(!keys.contains(CANARY), "forgetting removes the value from the key file");
}

/// A finished run opens on its results: the last nodes' values and each file written, an Excel
/// workbook as a table of its first sheet, Markdown as text to render.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_run_gives_its_results_with_previews() {
    let s = Running::start().await;
    let plan = r#"apiVersion: planwright/v1
id: results_check
version: 1.0.0
graph:
  - id: book
    block: excel.write
    in:
      path: out/消込結果.xlsx
      sheets:
        未入金:
          - {請求番号: INV-1, 金額: 132000}
          - {請求番号: INV-2, 金額: 264000}
    out: {summary: summary}
  - id: note
    block: report.write
    in: {data: {done: "${book.summary}"}, format: markdown, path: out/note.md, title: Month end}
    out: {path: written}
"#;
    let (run_id, finished) = run_to_end(&s, json!({"plan": {"text": plan}})).await;
    assert_eq!(finished["status"], "succeeded", "{finished}");
    let (status, results) = s.json(reqwest::Method::GET, &format!("/api/runs/{run_id}/results"), Value::Null).await;
    assert_eq!(status, StatusCode::OK, "{results}");
    // `book` is read by `note`: only the last node's values are the results.
    let values: Vec<(&str, &str)> = results["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["node"].as_str().unwrap(), v["alias"].as_str().unwrap()))
        .collect();
    assert_eq!(values, [("note", "written")], "{results}");
    let files = results["files"].as_array().unwrap();
    let names: Vec<&str> = files.iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["消込結果.xlsx", "note.md"]);
    assert_eq!(files[0]["shown_path"], "out/消込結果.xlsx");
    assert_eq!(
        files[0]["preview"],
        json!({"kind": "table", "sheet": "未入金", "columns": ["請求番号", "金額"], "rows": [["INV-1", "132000"], ["INV-2", "264000"]], "total_rows": 2})
    );
    assert_eq!(files[1]["preview"]["kind"], "text");
    assert_eq!(files[1]["preview"]["markdown"], true);
    assert!(files[1]["preview"]["text"].as_str().unwrap().contains("Month end"), "{}", files[1]);
    let missing = s.get("/api/runs/no-such-run/results").send().await.unwrap();
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    // Only a file the run wrote is opened: any other path of the machine is refused, by name.
    let outside = s.home.join("elsewhere.txt");
    std::fs::write(&outside, "not the run's").unwrap();
    let (status, error) = s
        .json(
            reqwest::Method::POST,
            &format!("/api/runs/{run_id}/artifact/open"),
            json!({"path": outside.display().to_string(), "folder": true}),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{error}");
    assert_eq!(error["said"]["key"], "artifact_not_recorded", "{error}");
}

/// A table a run gave beyond the results' first rows is paged through on demand: kept as an
/// Arrow file of the run (a sort's output) or as the rows of the file it was read from (a
/// filter's), each read back from the record and given page by page, with its row count.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_table_of_the_results_is_read_page_by_page_from_the_record() {
    std::env::set_var("PLANWRIGHT_TABLE_FILE_ROWS", "100");
    let s = Running::start().await;
    let mut ledger = String::from("reference,status,amount\n");
    for i in 0..1_000 {
        ledger.push_str(&format!("INV-{i:04},{},{}\n", if i % 4 == 0 { "pending" } else { "approved" }, i * 3 % 1_000));
    }
    std::fs::write(s.workspace.join("ledger.csv"), ledger).unwrap();
    let plan = r#"apiVersion: planwright/v1
id: ledger_pages
version: 1.0.0
graph:
  - id: read
    block: file.read_csv
    in: {path: ledger.csv}
    out: {rows: rows}
  - id: approved
    block: transforms.filter
    in:
      items: "${read.rows}"
      conditions: [{field: status, operator: eq, value: approved}]
    out: {filtered: rows}
  - id: largest
    block: transforms.sort
    in: {items: "${read.rows}", by: [{column: amount, order: desc}, {column: reference, order: asc}]}
    out: {rows: rows}
"#;
    let (run_id, finished) = run_to_end(&s, json!({"plan": {"text": plan}})).await;
    assert_eq!(finished["status"], "succeeded", "{finished}");
    let (_, results) = s.json(reqwest::Method::GET, &format!("/api/runs/{run_id}/results"), Value::Null).await;
    let counted: Vec<(&str, u64, usize)> = results["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["node"].as_str().unwrap(), v["rows"].as_u64().unwrap(), v["value"].as_array().unwrap().len()))
        .collect();
    assert_eq!(counted, [("approved", 750, 20), ("largest", 1_000, 20)], "the results carry the first rows");

    let page = |node: &str, query: &str| format!("/api/runs/{run_id}/table?node={node}&alias=rows{query}");
    // The sort's table, kept as a file: its 1,000 rows in order, any page of them.
    let (status, first) = s.json(reqwest::Method::GET, &page("largest", ""), Value::Null).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    assert_eq!(first["columns"], json!(["reference", "status", "amount"]));
    assert_eq!((first["offset"].as_u64(), first["total"].as_u64()), (Some(0), Some(1_000)));
    assert_eq!(first["rows"].as_array().unwrap().len(), 100, "100 rows when the page size is not given");
    assert_eq!(first["rows"][0], json!({"reference": "INV-0333", "status": "approved", "amount": 999}));
    let (_, last) = s.json(reqwest::Method::GET, &page("largest", "&offset=990&limit=50"), Value::Null).await;
    let amounts: Vec<u64> = last["rows"].as_array().unwrap().iter().map(|r| r["amount"].as_u64().unwrap()).collect();
    assert_eq!(amounts, [9, 8, 7, 6, 5, 4, 3, 2, 1, 0], "the last page has what is left: {last}");
    // The filter's table, kept as the rows of the ledger it was read from.
    let (status, approved) =
        s.json(reqwest::Method::GET, &page("approved", "&offset=700&limit=1000"), Value::Null).await;
    assert_eq!(status, StatusCode::OK, "{approved}");
    assert_eq!(approved["total"], 750);
    let rows = approved["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 50);
    assert_eq!(rows[0]["reference"], "INV-0934", "the 701st approved row: {}", rows[0]);
    assert!(rows.iter().all(|r| r["status"] == "approved"));
    // The ledger changed since: its rows are no longer the run's, and are not shown as if they were.
    std::fs::write(s.workspace.join("ledger.csv"), "reference,status,amount\nINV-9,approved,1\n").unwrap();
    let (status, changed) = s.json(reqwest::Method::GET, &page("read", ""), Value::Null).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{changed}");
    assert_eq!(changed["said"]["key"], "table_unreadable", "{changed}");
    // A node or an output the run did not keep a table of is named as such.
    let (status, none) = s.json(reqwest::Method::GET, &page("nowhere", ""), Value::Null).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{none}");
    assert_eq!(none["said"]["key"], "table_not_kept", "{none}");
}

/// Every example that ships with the studio has, in a new workspace, the input files it reads:
/// what the run check finds missing is at most a secret to type or a var to choose.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_example_finds_its_sample_inputs_in_a_new_workspace() {
    let s = Running::start().await;
    let (_, designs) = s.json(reqwest::Method::GET, "/api/designs", Value::Null).await;
    let examples: Vec<&str> = designs
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["template"] == false)
        .map(|d| d["file"].as_str().unwrap())
        .collect();
    assert!(examples.len() >= 10, "{designs}");
    let mut report = Vec::new();
    for file in &examples {
        let (status, check) = s.json(reqwest::Method::POST, "/api/runs/check", json!({"plan": {"file": file}})).await;
        assert_eq!(status, StatusCode::OK, "{file}: {check}");
        for problem in check["problems"].as_array().unwrap() {
            report.push(format!("{file}: {} {}", problem["code"], problem["subject"]));
        }
    }
    let allowed = ["secret_missing", "var_missing", "model_missing"];
    assert!(report.iter().all(|r| allowed.iter().any(|code| r.contains(code))), "{report:#?}");
}
