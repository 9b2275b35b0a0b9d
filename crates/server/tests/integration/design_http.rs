//! The Design tab's operations over real HTTP and WebSocket: templates, candidates, documents
//! uploaded into the workspace, a generation streamed stage by stage (and cancelled), answers
//! filled in, requirements moved to run time, the generation history and the design session
//! kept with a draft.

use std::path::{Path, PathBuf};
use std::time::Duration;

use base64::Engine as _;
use futures::StreamExt;
use planwright_llm_replay::{Match, ReplayServer, Reply, Script};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use crate::common;
use common::{walk, Running};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui/e2e/fixtures").join(name)
}

fn base64_of(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Starts a generation and follows it to its end: every event.
async fn generate(s: &Running, request: Value) -> Vec<Value> {
    let (status, started) = s.json(Method::POST, "/api/design/generations", request).await;
    assert_eq!(status, StatusCode::OK, "{started}");
    let generation = started["generation"].as_str().unwrap().to_owned();
    let mut events = s.stream(&format!("/api/design/generations/{generation}")).await;
    tokio::time::timeout(Duration::from_secs(60), async {
        let mut seen = Vec::new();
        while let Some(event) = events.next().await {
            seen.push(event);
        }
        seen
    })
    .await
    .expect("the generation ends")
}

fn stages(events: &[Value]) -> Vec<String> {
    events.iter().filter(|e| e["type"] == "progress").map(|e| e["step"]["stage"].as_str().unwrap().to_owned()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn templates_are_listed_with_what_they_need_and_give() {
    let s = Running::start().await;
    let (status, templates) = s.json(Method::GET, "/api/templates", Value::Null).await;
    assert_eq!(status, StatusCode::OK, "{templates}");
    let templates = templates.as_array().unwrap();
    assert!(templates.len() >= 10, "the bundled templates are seeded: {}", templates.len());
    let bank = templates.iter().find(|t| t["id"] == "bank_reconciliation").expect("bank_reconciliation");
    assert_eq!(bank["category"], "finance");
    assert!(!bank["title"]["ja"].as_str().unwrap().is_empty());
    assert!(!bank["imports"].as_array().unwrap().is_empty(), "{bank}");
    assert!(bank["imports"][0]["type"].is_string());
    assert!(!bank["nodes"].as_array().unwrap().is_empty());
    assert!(templates.iter().all(|t| t["problem"].is_null()), "every bundled template loads");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn candidates_rank_blocks_for_the_instruction_and_keep_the_pinned_ones() {
    let s = Running::start().await;
    let request =
        json!({"instruction": "Read expenses.csv and keep the rows over 50000", "pinned": ["ui.confirmation"]});
    let (status, found) = s.json(Method::POST, "/api/design/candidates", request).await;
    assert_eq!(status, StatusCode::OK, "{found}");
    let hits = found["hits"].as_array().unwrap();
    let ids: Vec<&str> = hits.iter().map(|h| h["id"].as_str().unwrap()).collect();
    assert!(ids.contains(&"file.read_csv"), "{ids:?}");
    let pinned = hits.iter().find(|h| h["id"] == "ui.confirmation").expect("a pinned block is always a candidate");
    assert_eq!(pinned["pinned"], true);
    let csv = hits.iter().find(|h| h["id"] == "file.read_csv").unwrap();
    assert_eq!(csv["pinned"], false);
    assert!(!csv["why"].as_array().unwrap().is_empty(), "each candidate says why it ranked");

    let (_, empty) = s.json(Method::POST, "/api/design/candidates", json!({"instruction": "  "})).await;
    assert_eq!(empty["hits"], json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn documents_land_in_the_workspace_and_say_what_was_read() {
    let s = Running::start().await;
    let pdf = std::fs::read(fixture("expense_rules.pdf")).unwrap();
    // A name with folders keeps its last part: nothing lands outside `documents/`.
    let upload = json!({"name": "../../outside/expense_rules.pdf", "content_base64": base64_of(&pdf)});
    let (status, info) = s.json(Method::POST, "/api/documents", upload.clone()).await;
    assert_eq!(status, StatusCode::OK, "{info}");
    assert_eq!(info["name"], "expense_rules.pdf");
    assert_eq!(info["path"], "documents/expense_rules.pdf");
    assert_eq!(info["format"], "pdf");
    assert_eq!(info["pages"], 1);
    assert_eq!(info["size"], pdf.len());
    assert!(info["chars"].as_u64().unwrap() > 50, "{info}");
    assert!(info["skipped"].is_null());
    assert_eq!(std::fs::read(s.workspace.join("documents/expense_rules.pdf")).unwrap(), pdf);
    assert!(!s.workspace.parent().unwrap().join("outside").exists());

    // The same bytes again are the same document; other bytes of the same name are kept apart.
    let (_, again) = s.json(Method::POST, "/api/documents", upload).await;
    assert_eq!(again["name"], "expense_rules.pdf");
    let other = json!({"name": "expense_rules.pdf", "content_base64": base64_of(b"%PDF-1.4 not really")});
    let (status, kept) = s.json(Method::POST, "/api/documents", other).await;
    assert_eq!(status, StatusCode::OK, "{kept}");
    assert_eq!(kept["name"], "expense_rules_2.pdf");
    assert!(kept["skipped"].as_str().unwrap().contains("skipped"), "a damaged file says so: {kept}");
    assert_eq!(std::fs::read(s.workspace.join("documents/expense_rules.pdf")).unwrap(), pdf, "nothing overwritten");

    let text = json!({"name": "notes.md", "content_base64": base64_of("# 手順\n請求書を確認する".as_bytes())});
    let (_, notes) = s.json(Method::POST, "/api/documents", text).await;
    assert_eq!((notes["format"].as_str(), notes["chars"].as_u64()), (Some("text"), Some(13)), "{notes}");

    for (name, content, expected) in [
        ("run.exe", base64_of(b"MZ"), "kind of document"),
        (".hidden.pdf", base64_of(b"x"), "not a document name"),
        ("a.pdf", "not base64!".to_owned(), "not base64"),
    ] {
        let (status, error) =
            s.json(Method::POST, "/api/documents", json!({"name": name, "content_base64": content})).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name}: {error}");
        assert!(error["message"].as_str().unwrap().contains(expected), "{name}: {error}");
        assert!(error["hint"].is_string(), "{error}");
    }
    let huge = vec![b'a'; planwright_api::MAX_DOCUMENT_BYTES + 1];
    let (status, error) =
        s.json(Method::POST, "/api/documents", json!({"name": "huge.txt", "content_base64": base64_of(&huge)})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
    assert!(error["message"].as_str().unwrap().contains("up to 20 MB"), "{error}");
    let over = "A".repeat(planwright_api::MAX_DOCUMENT_BYTES / 3 * 4 + 128 * 1024);
    let (status, error) =
        s.json(Method::POST, "/api/documents", json!({"name": "over.txt", "content_base64": over})).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{error}");
    assert!(!s.workspace.join("documents/huge.txt").exists() && !s.workspace.join("documents/over.txt").exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_generation_streams_its_stages_then_a_valid_plan() {
    let s = Running::start().await;
    let pdf = std::fs::read(fixture("expense_rules.pdf")).unwrap();
    let (_, doc) = s
        .json(Method::POST, "/api/documents", json!({"name": "expense_rules.pdf", "content_base64": base64_of(&pdf)}))
        .await;
    let events = generate(
        &s,
        json!({"instruction": "expenses.csv を読み込み、金額が50000円を超える行を抽出して over.csv に出力する",
               "documents": [doc["name"]]}),
    )
    .await;
    assert_eq!(stages(&events), ["documents", "documents", "candidates", "offline", "validating"]);
    let last = events.last().unwrap();
    assert_eq!(last["type"], "done", "{last}");
    let result = &last["result"];
    assert_eq!(result["valid"], true, "{}", result["findings"]);
    assert_eq!(result["offline"], true);
    assert_eq!(result["designed_by"], "the offline designer");
    assert_eq!(result["language"], "ja");
    assert_eq!(result["documents"][0]["name"], "expense_rules.pdf");
    assert_eq!(result["documents"][0]["pages"], 1);
    let text = result["text"].as_str().unwrap();
    assert!(text.contains("file.read_csv") && text.contains("expenses.csv") && text.contains("50000"), "{text}");
    let (_, checked) = s.json(Method::POST, "/api/validate", json!({"text": text})).await;
    assert_eq!(checked["valid"], true, "the text validates as the studio checks it: {checked}");
    assert_eq!(result["attempts"].as_array().unwrap().len(), 1);
    assert!(!result["candidates"].as_array().unwrap().is_empty());

    let (_, metrics) = s.json(Method::GET, "/api/design/metrics", Value::Null).await;
    assert_eq!(metrics["summary"]["generations"], 1, "{metrics}");
    assert_eq!(metrics["recent"][0]["language"], "ja");
    assert_eq!(metrics["recent"][0]["provenance"], "offline");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_template_in_compose_mode_puts_its_nodes_in_the_plan() {
    let s = Running::start().await;
    let events = generate(
        &s,
        json!({"instruction": "Reconcile the bank statement with the ledger",
               "templates": ["bank_reconciliation"], "apply_mode": "compose"}),
    )
    .await;
    assert_eq!(stages(&events), ["candidates", "offline", "validating"], "no documents, no reading step");
    let result = &events.last().unwrap()["result"];
    assert_eq!(result["templates_used"], json!(["bank_reconciliation"]), "{result}");
    assert!(result["text"].as_str().unwrap().contains("id: bank_reconciliation_"), "ids are prefixed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_generation_that_needs_repairs_shows_each_round_with_what_it_fixed() {
    let s = Running::start().await;
    // A template with a misspelt block: the rule-based repair renames it to its one close match.
    let template = std::fs::read_to_string(fixture("misspelt_report.yaml")).unwrap();
    let dir = s.workspace.join("designs/templates/test");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("misspelt_report.yaml"), template).unwrap();
    let events =
        generate(&s, json!({"instruction": "Read expenses.csv and write a report", "templates": ["misspelt_report"]}))
            .await;
    let result = &events.last().unwrap()["result"];
    let attempts = result["attempts"].as_array().unwrap();
    if attempts.len() < 2 {
        panic!("no repair round ran: {result}");
    }
    assert!(stages(&events).contains(&"repairing".to_owned()), "{:?}", stages(&events));
    let first = &attempts[0];
    let second = &attempts[1];
    assert!(first["errors"].as_u64().unwrap() > second["errors"].as_u64().unwrap(), "{attempts:?}");
    assert!(!second["fixed"].as_array().unwrap().is_empty(), "{second}");
    let change = &second["changes"][0];
    assert!(change["before"].is_string() || change["after"].is_string(), "{change}");
    assert!(first["text"].as_str().unwrap().contains("report.writ\n"), "an earlier attempt can be gone back to");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_generation_is_started_once_and_bad_requests_are_named() {
    let s = Running::start().await;
    for (request, expected) in [
        (json!({"instruction": "   "}), "instruction is empty"),
        (json!({"instruction": "x", "documents": ["missing.pdf"]}), "no document"),
        (json!({"instruction": "x", "templates": ["no_such_template"]}), "no template"),
    ] {
        let (status, error) = s.json(Method::POST, "/api/design/generations", request).await;
        assert!(status.is_client_error(), "{error}");
        assert!(error["message"].as_str().unwrap().contains(expected), "{error}");
    }
    let (status, error) = s.json(Method::GET, "/api/design/generations/generation-99", Value::Null).await;
    assert!(status.is_client_error(), "{error}");

    // A link in documents/ that leads out of the workspace is not read.
    let outside = s.home.join("outside.txt");
    std::fs::write(&outside, "not the workspace's").unwrap();
    std::fs::create_dir_all(s.workspace.join("documents")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&outside, s.workspace.join("documents/linked.txt")).unwrap();
    #[cfg(unix)]
    {
        let request = json!({"instruction": "x", "documents": ["linked.txt"]});
        let (status, error) = s.json(Method::POST, "/api/design/generations", request).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
        assert!(error["message"].as_str().unwrap().contains("outside the workspace"), "{error}");
    }
}

/// With a model that takes its time, cancelling the stream stops the generation: no result comes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_a_generation_stops_it_without_a_result() {
    let model =
        ReplayServer::start(Script::new().always(Match::chat(), Reply::text("{}").delay(Duration::from_secs(60))))
            .await;
    let s = Running::start().await;
    let (_, mut settings) = s.json(Method::GET, "/api/settings", Value::Null).await;
    settings["models"]["provider"] = json!("compatible");
    settings["models"]["base_url"] = json!(model.base_url());
    let (status, saved) = s.json(Method::PUT, "/api/settings", settings).await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    let (status, key) =
        s.json(Method::PUT, "/api/settings/key", json!({"provider": "compatible", "key": "sk-test"})).await;
    assert_eq!(status, StatusCode::OK, "{key}");

    let (_, started) =
        s.json(Method::POST, "/api/design/generations", json!({"instruction": "Read expenses.csv"})).await;
    let generation = started["generation"].as_str().unwrap();
    let url = format!("ws://127.0.0.1:{}/api/design/generations/{generation}?stream=mine", s.port);
    let mut request = url.into_client_request().unwrap();
    request.headers_mut().insert(reqwest::header::AUTHORIZATION, format!("Bearer {}", s.token).parse().unwrap());
    let (mut socket, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    let mut seen = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(Ok(Message::Text(text))) = socket.next().await {
            let event: Value = serde_json::from_str(&text).unwrap();
            let at_model = event["step"]["stage"] == "skeleton";
            seen.push(event);
            if at_model {
                break;
            }
        }
    })
    .await
    .expect("the generation reaches the model's first stage");
    assert_eq!(stages(&seen).last().map(String::as_str), Some("skeleton"), "{seen:?}");
    let (_, cancelled) = s.json(Method::POST, "/api/streams/mine/cancel", Value::Null).await;
    assert_eq!(cancelled["cancelled"], true);
    let rest = tokio::time::timeout(Duration::from_secs(20), async {
        let mut rest = Vec::new();
        while let Some(Ok(message)) = socket.next().await {
            if let Message::Text(text) = message {
                rest.push(serde_json::from_str::<Value>(&text).unwrap());
            }
        }
        rest
    })
    .await
    .expect("the stream closes when cancelled, long before the model answers");
    assert!(rest.iter().all(|e| e["type"] == "progress"), "no result after a cancel: {rest:?}");
    let (_, metrics) = s.json(Method::GET, "/api/design/metrics", Value::Null).await;
    assert_eq!(metrics["summary"]["generations"], 0, "a cancelled generation records nothing: {metrics}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_fill_the_plan_and_requirements_move_to_run_time() {
    let s = Running::start().await;
    let events = generate(&s, json!({"instruction": "Read the CSV file and write the rows over 100 to big.csv"})).await;
    let result = &events.last().unwrap()["result"];
    let requirements = result["requirements"].as_array().unwrap().clone();
    let file = requirements.iter().find(|r| r["type"] == "file").unwrap_or_else(|| panic!("{requirements:?}"));
    assert_eq!(file["target"]["kind"], "var", "{file}");
    let var = file["target"]["name"].as_str().unwrap();
    let text = result["text"].as_str().unwrap();
    let (_, before) = s.json(Method::POST, "/api/validate", json!({"text": text})).await;

    let answers = json!({ file["id"].as_str().unwrap(): "data/sales.csv" });
    let request = json!({"text": text, "requirements": requirements, "answers": answers});
    let (status, applied) = s.json(Method::POST, "/api/design/answers", request).await;
    assert_eq!(status, StatusCode::OK, "{applied}");
    assert_eq!(applied["filled"], json!([format!("vars.{var}")]));
    let filled = applied["text"].as_str().unwrap();
    assert!(filled.contains("data/sales.csv"), "{filled}");
    assert!(filled.starts_with("# Generated by"), "the rest of the text is kept: {filled}");
    let (_, after) = s.json(Method::POST, "/api/validate", json!({"text": filled})).await;
    assert_eq!(after["valid"], true, "before: {before}\nafter: {after}");

    let request = json!({"text": text, "requirements": [file], "language": "en"});
    let (status, asked) = s.json(Method::POST, "/api/design/ask-at-run-time", request).await;
    assert_eq!(status, StatusCode::OK, "{asked}");
    assert_eq!(asked["node"], "ask_at_run_time");
    let moved = asked["text"].as_str().unwrap();
    let (_, checked) = s.json(Method::POST, "/api/validate", json!({"text": moved})).await;
    assert_eq!(checked["valid"], true, "{moved}\n{checked}");
    let graph: Value = serde_yaml::from_str(moved).unwrap();
    assert_eq!(graph["graph"][0]["block"], "ui.interactive_input", "{moved}");
    assert!(moved.contains("ask_at_run_time.collected_data."), "{moved}");
    assert!(!moved.contains(&format!("vars.{var}")), "{moved}");

    let secret =
        json!({"id": "LOGIN_PASSWORD", "type": "text", "target": {"kind": "secret", "name": "LOGIN_PASSWORD"}});
    let (status, error) = s
        .json(
            Method::POST,
            "/api/design/ask-at-run-time",
            json!({"text": text, "requirements": [secret], "language": "en"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draft_keeps_its_design_session() {
    let s = Running::start().await;
    let events = generate(&s, json!({"instruction": "Read expenses.csv and write out.csv"})).await;
    let result = events.last().unwrap()["result"].clone();
    let (status, _) = s.json(Method::PUT, "/api/drafts/mine.yaml", json!({"text": result["text"]})).await;
    assert_eq!(status, StatusCode::OK);
    let session = json!({
        "instruction": "Read expenses.csv and write out.csv", "documents": [], "templates": ["bank_reconciliation"],
        "apply_mode": "hint", "pinned": ["file.read_csv"], "answers": {"input_file": "a.csv"}, "at_run_time": ["open.url"],
        "chat": [{"from": "studio", "text": "Which file?", "requirement": "input_file"},
                 {"from": "person", "text": "a.csv", "requirement": "input_file"}],
        "generation": result,
    });
    let (status, saved) = s.json(Method::PUT, "/api/drafts/mine.yaml/session", session.clone()).await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    let (_, opened) = s.json(Method::GET, "/api/drafts/mine.yaml", Value::Null).await;
    assert_eq!(opened["session"], session);
    let (_, drafts) = s.json(Method::GET, "/api/drafts", Value::Null).await;
    assert_eq!(drafts.as_array().unwrap().len(), 1, "a session is not a draft of its own: {drafts}");
    let (status, _) = s.json(Method::PUT, "/api/drafts/..%2Fx.yaml/session", session).await;
    assert!(status.is_client_error());
}

/// A password written into the instruction never comes back from a generation, and is never
/// written with the draft's session: only its placeholder is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spelled_out_password_is_kept_as_its_placeholder_only() {
    const CANARY: &str = "Canary-7f3a9d2e";
    let s = Running::start().await;
    let instruction =
        format!("Log in to https://portal.example.com with user admin and password {CANARY} and download the invoices");
    let events = generate(&s, json!({ "instruction": instruction })).await;
    let result = &events.last().unwrap()["result"];
    assert_eq!(events.last().unwrap()["type"], "done", "{events:?}");
    assert!(result["instruction"].as_str().unwrap().contains("{{LOGIN_PASSWORD}}"), "{}", result["instruction"]);
    assert!(!serde_json::to_string(&events).unwrap().contains(CANARY), "the canary came back in the stream");

    let (status, _) = s.json(Method::PUT, "/api/drafts/login.yaml", json!({"text": result["text"]})).await;
    assert_eq!(status, StatusCode::OK);
    let session = json!({ "instruction": instruction, "documents": [], "templates": [], "apply_mode": "compose",
        "pinned": [], "answers": {}, "chat": [], "generation": result });
    let (status, kept) = s.json(Method::PUT, "/api/drafts/login.yaml/session", session).await;
    assert_eq!(status, StatusCode::OK, "{kept}");
    assert!(!kept.to_string().contains(CANARY));
    for dir in [&s.workspace, &s.home] {
        for entry in walk(dir) {
            let bytes = std::fs::read(&entry).unwrap();
            assert!(!String::from_utf8_lossy(&bytes).contains(CANARY), "the canary reached {}", entry.display());
        }
    }
}
