//! Structured output through the real client against the replay server: local validation,
//! exactly one corrective re-ask, every exchange returned.

use std::sync::Arc;
use std::time::Duration;

use planwright_llm::{
    structured, ChatMessage, ChatRequest, LlmClient, LlmError, Prompts, Provider, Role, Secret, Settings, Tier,
};
use planwright_llm_replay::{ReplayServer, Reply, Script};
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;

fn client(server: &ReplayServer) -> Arc<dyn LlmClient> {
    let settings = Settings {
        provider: Some(Provider::OpenAi { base_url: server.base_url(), api_key: Some(Secret::new("k")) }),
        timeout: Duration::from_secs(10),
        ..Settings::default()
    };
    settings.client().unwrap().unwrap()
}

fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "invoice_number": {"type": "string"},
            "total": {"type": "integer"},
            "note": {"type": "string"}
        },
        "required": ["invoice_number", "total"]
    })
}

fn request() -> ChatRequest {
    ChatRequest::new(Tier::Fast, vec![ChatMessage::system("extract"), ChatMessage::user("INV-1, 100 yen")])
}

async fn ask(
    server: &ReplayServer,
    schema: &Value,
) -> Result<planwright_llm::Structured, planwright_llm::StructuredError> {
    let prompts = Prompts::built_in().unwrap();
    let client = client(server);
    let cancel = CancellationToken::new();
    let call = structured(client.as_ref(), &prompts, request(), "invoice", schema, &cancel);
    tokio::time::timeout(Duration::from_secs(30), call).await.expect("no hang")
}

#[tokio::test]
async fn a_valid_answer_needs_one_call_and_loses_its_optional_nulls() {
    let server = ReplayServer::start(
        Script::new().then(Reply::json(&json!({"invoice_number": "INV-1", "total": 100, "note": null}))),
    )
    .await;
    let answer = ask(&server, &schema()).await.unwrap();
    assert_eq!(answer.value, json!({"invoice_number": "INV-1", "total": 100}));
    assert_eq!(answer.exchanges.len(), 1);
    let format = &server.requests()[0].json().unwrap()["response_format"];
    assert_eq!(format["type"], "json_schema");
    assert_eq!(format["json_schema"]["name"], "invoice");
    assert_eq!(format["json_schema"]["strict"], true);
    assert_eq!(format["json_schema"]["schema"]["required"], json!(["invoice_number", "total", "note"]));
    assert_eq!(format["json_schema"]["schema"]["additionalProperties"], false);
    let exchange = &answer.exchanges[0];
    assert!(exchange.request.response_schema.is_some());
    assert_eq!(exchange.reply.text, r#"{"invoice_number":"INV-1","total":100,"note":null}"#);
}

#[tokio::test]
async fn an_answer_leaving_optional_properties_out_is_valid_as_the_schema_was_given() {
    // Local servers often ignore strict mode: the caller's schema, not the strict copy, decides.
    let server =
        ReplayServer::start(Script::new().then(Reply::json(&json!({"invoice_number": "INV-1", "total": 100})))).await;
    let answer = ask(&server, &schema()).await.unwrap();
    assert_eq!(answer.value, json!({"invoice_number": "INV-1", "total": 100}));
    assert_eq!(server.requests().len(), 1, "no re-ask");
}

#[tokio::test]
async fn a_fenced_answer_with_prose_is_accepted() {
    let server = ReplayServer::start(Script::new().then(Reply::text(
        "Here you go:\n```json\n{\"invoice_number\": \"INV-1\", \"total\": 100, \"note\": \"paid\"}\n```\nAnything else?",
    )))
    .await;
    let answer = ask(&server, &schema()).await.unwrap();
    assert_eq!(answer.value["note"], "paid");
}

#[tokio::test]
async fn one_corrective_reask_carries_the_errors() {
    let server = ReplayServer::start(Script::in_order([
        Reply::json(&json!({"invoice_number": "INV-1", "total": "one hundred", "note": null})),
        Reply::json(&json!({"invoice_number": "INV-1", "total": 100, "note": null})),
    ]))
    .await;
    let answer = ask(&server, &schema()).await.unwrap();
    assert_eq!(answer.value, json!({"invoice_number": "INV-1", "total": 100}));
    assert_eq!(answer.exchanges.len(), 2);
    let second = &answer.exchanges[1].request.messages;
    assert_eq!(second.len(), 4);
    assert_eq!(second[2].role, Role::Assistant);
    assert!(second[2].content.contains("one hundred"));
    assert_eq!(second[3].role, Role::User);
    assert!(second[3].content.contains("at /total"), "{}", second[3].content);
    assert!(second[3].content.contains("\"additionalProperties\": false"));
    // The server got the same conversation.
    let sent = server.requests()[1].json().unwrap();
    assert_eq!(sent["messages"].as_array().unwrap().len(), 4);
    assert!(sent["response_format"].is_object());
}

#[tokio::test]
async fn never_a_second_reask() {
    let server = ReplayServer::start(Script::in_order([
        Reply::text("I think the total is 100."),
        Reply::json(&json!({"invoice_number": "INV-1"})),
        Reply::json(&json!({"invoice_number": "INV-1", "total": 100, "note": null})),
    ]))
    .await;
    let failure = ask(&server, &schema()).await.unwrap_err();
    match &failure.error {
        LlmError::InvalidOutput { errors, text } => {
            assert!(errors.iter().any(|e| e.contains("total")), "{errors:?}");
            assert_eq!(text, r#"{"invoice_number":"INV-1"}"#);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(failure.exchanges.len(), 2);
    assert_eq!(server.requests().len(), 2);
    assert_eq!(server.unused(), 1);
    let first_errors = &failure.exchanges[1].request.messages[3].content;
    assert!(first_errors.contains("not JSON"), "{first_errors}");
}

#[tokio::test]
async fn a_failed_call_returns_the_exchanges_made() {
    let server =
        ReplayServer::start(Script::in_order([Reply::text("nope"), Reply::error(400, "context too long")])).await;
    let failure = ask(&server, &schema()).await.unwrap_err();
    assert!(matches!(failure.error, LlmError::Refused { status: 400, .. }), "{:?}", failure.error);
    assert_eq!(failure.exchanges.len(), 1);
}

#[tokio::test]
async fn a_schema_that_cannot_be_strict_is_sent_as_given_and_still_checked() {
    let map = json!({"type": "object", "additionalProperties": {"type": "integer"}});
    let server =
        ReplayServer::start(Script::in_order([Reply::json(&json!({"a": "x"})), Reply::json(&json!({"a": 1}))])).await;
    let answer = ask(&server, &map).await.unwrap();
    assert_eq!(answer.value, json!({"a": 1}));
    let format = &server.requests()[0].json().unwrap()["response_format"]["json_schema"];
    assert_eq!(format["strict"], false);
    assert_eq!(format["schema"], map);

    let broken = json!({"type": "nonsense"});
    let server = ReplayServer::start(Script::new()).await;
    let failure = ask(&server, &broken).await.unwrap_err();
    assert!(matches!(failure.error, LlmError::InvalidSchema { .. }), "{:?}", failure.error);
    assert!(server.requests().is_empty());
}
