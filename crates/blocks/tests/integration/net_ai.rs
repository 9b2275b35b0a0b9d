//! `ai.process_llm` through the real OpenAI-compatible client against a local scripted server.

use crate::net_support;

use std::time::Duration;

use planwright_block::BlockError;
use planwright_llm::{Provider, Secret, Settings};
use planwright_llm_replay::{Match, ReplayServer, Reply, Script};
use serde_json::{json, Value};

use net_support::{assert_declared_outputs, Harness};

const ID: &str = "ai.process_llm";

fn schema() -> Value {
    json!({
        "type": "object",
        "required": ["category"],
        "properties": {
            "category": {"type": "string", "enum": ["travel", "supplies", "other"]},
            "note": {"type": "string"}
        }
    })
}

fn inputs() -> Value {
    json!({
        "evidence_data": {"expense": {"摘要": "新幹線 東京-大阪", "金額": 14720}},
        "instruction": "Classify the expense into one category.",
        "system_prompt": "Amounts are in yen.",
        "output_schema": schema(),
    })
}

/// A harness whose block context has a model served by `server`, with no retries waiting long.
fn with_model(server: &ReplayServer) -> Harness {
    let mut h = Harness::new();
    let settings = Settings {
        provider: Some(Provider::OpenAi { base_url: server.base_url(), api_key: Some(Secret::new("sk-test")) }),
        timeout: Duration::from_secs(10),
        max_retries: 1,
        ..Settings::default()
    };
    h.ctx.models = settings.client().unwrap();
    assert!(h.ctx.models.is_some());
    h
}

#[tokio::test]
async fn answers_in_the_declared_structure_with_usage() {
    let server = ReplayServer::start(
        Script::new()
            .then(Reply::json(&json!({"category": "travel", "note": null})).usage(120, 9).model("gpt-4o-mini-2024")),
    )
    .await;
    let h = with_model(&server);
    let out = h.run(ID, inputs()).await.unwrap();
    assert_declared_outputs(ID, &out);
    assert_eq!(out["results"], json!({"category": "travel"}), "the null of an optional field is dropped");
    assert_eq!(out["summary"], json!({"model": "gpt-4o-mini-2024", "input_tokens": 120, "output_tokens": 9}));

    let sent = server.requests();
    assert_eq!(sent.len(), 1);
    let body = sent[0].json().unwrap();
    assert_eq!(body["model"], "gpt-4o-mini", "the fast tier's model");
    assert_eq!(body["response_format"]["type"], "json_schema");
    assert_eq!(body["response_format"]["json_schema"]["strict"], true);
    let strict = &body["response_format"]["json_schema"]["schema"];
    assert_eq!(strict["additionalProperties"], false);
    assert_eq!(strict["required"], json!(["category", "note"]), "strict mode: every property required");
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(messages[0]["role"], "system");
    assert!(messages[0]["content"].as_str().unwrap().contains("Amounts are in yen."));
    let user = messages[1]["content"].as_str().unwrap();
    assert!(user.contains("Classify the expense into one category."), "{user}");
    assert!(user.contains("新幹線 東京-大阪") && user.contains("14720"), "the evidence is in the prompt: {user}");
}

#[tokio::test]
async fn a_prompt_replaces_the_instruction() {
    let server = ReplayServer::start(Script::new().then(Reply::json(&json!({"category": "other"})))).await;
    let h = with_model(&server);
    let mut given = inputs();
    given["prompt"] = json!("Full prompt text: decide the category of ${expense}.");
    let out = h.run(ID, given).await.unwrap();
    assert_eq!(out["results"]["category"], "other");
    let user = server.requests()[0].last_user_message().unwrap();
    assert!(user.contains("Full prompt text") && !user.contains("Classify the expense"), "{user}");
}

#[tokio::test]
async fn a_broken_answer_gets_exactly_one_corrective_re_ask() {
    let server = ReplayServer::start(
        Script::new()
            .then(Reply::json(&json!({"category": "food"})).usage(100, 5))
            .then(Reply::json(&json!({"category": "supplies"})).usage(150, 6)),
    )
    .await;
    let h = with_model(&server);
    let out = h.run(ID, inputs()).await.unwrap();
    assert_eq!(out["results"], json!({"category": "supplies"}));
    assert_eq!(out["summary"]["input_tokens"], 250, "usage of both calls");
    assert_eq!(out["summary"]["output_tokens"], 11);
    let sent = server.requests();
    assert_eq!(sent.len(), 2);
    let reask = sent[1].last_user_message().unwrap();
    assert!(reask.contains("/category"), "the re-ask quotes where the answer broke: {reask}");
    assert!(h.events.lines().iter().any(|l| l.contains("the corrected one is used")));
}

#[tokio::test]
async fn still_broken_after_the_re_ask_fails_without_a_third_call() {
    let server =
        ReplayServer::start(Script::new().always(Match::chat(), Reply::text("I think it is travel, most likely.")))
            .await;
    let h = with_model(&server);
    let error = h.run(ID, inputs()).await.unwrap_err();
    let BlockError::Failed(planwright_runs::Reason { text: message, .. }) = error else { panic!("{error:?}") };
    assert!(message.contains("did not follow output_schema, even after being asked once more"), "{message}");
    assert_eq!(server.requests().len(), 2, "one call and one re-ask, never more");
}

#[tokio::test]
async fn without_a_model_it_says_how_to_configure_one() {
    let h = Harness::new();
    let error = h.run(ID, inputs()).await.unwrap_err();
    let BlockError::NotSetUp(planwright_runs::Reason { text: message, .. }) = error else { panic!("{error:?}") };
    assert!(message.starts_with("no model configured"), "{message}");
    assert!(message.contains("OPENAI_API_KEY") && message.contains("planwright doctor"), "{message}");
}

#[tokio::test]
async fn bad_inputs_are_refused_before_any_call() {
    let server = ReplayServer::start(Script::new().always(Match::any(), Reply::json(&json!({})))).await;
    let h = with_model(&server);
    let cases = [
        (json!({"output_schema": {"type": "array", "items": {"type": "string"}}}), "top level"),
        (json!({"output_schema": "category"}), "must be a JSON Schema object"),
        (json!({"instruction": null, "prompt": "  "}), "give `instruction`"),
        (json!({"evidence_data": {"rows": "x".repeat(250_000)}}), "narrow it first"),
        (
            json!({"output_schema": {"type": "object", "properties": {"a": {"type": "no-such-type"}}}}),
            "not a usable JSON Schema",
        ),
    ];
    for (change, expected) in cases {
        let mut given = inputs();
        for (key, value) in change.as_object().unwrap() {
            given[key] = value.clone();
        }
        let error = h.run(ID, given).await.unwrap_err();
        let BlockError::Input(planwright_runs::Reason { text: message, .. }) = error else {
            panic!("{expected}: {error:?}")
        };
        assert!(message.contains(expected), "{expected}: {message}");
    }
    assert!(server.requests().is_empty(), "nothing was sent");
}

#[tokio::test]
async fn cancelling_stops_a_slow_call() {
    let server = ReplayServer::start(
        Script::new().then(Reply::json(&json!({"category": "travel"})).delay(Duration::from_secs(30))),
    )
    .await;
    let h = with_model(&server);
    let cancel = h.ctx.cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(200)).await;
        cancel.cancel();
    });
    let outcome = tokio::time::timeout(Duration::from_secs(10), h.run(ID, inputs())).await;
    assert_eq!(outcome.expect("returned long before the answer would come"), Err(BlockError::Cancelled));
}
