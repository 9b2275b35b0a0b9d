//! The OpenAI-compatible client over real HTTP against the replay server: every kind of
//! answer, retries, timeouts, cancellation, Azure, embeddings.

use std::sync::Arc;
use std::time::Duration;

use planwright_llm::{
    ChatMessage, ChatRequest, LlmClient, LlmError, OpenAiClient, Provider, RetryPolicy, Secret, Settings, Tier, Usage,
};
use planwright_llm_replay::{Match, ReplayServer, Reply, Script};
use serde_json::json;
use tokio_util::sync::CancellationToken;

/// Bound against hangs only; no test asserts on durations beyond this.
const HANG_GUARD: Duration = Duration::from_secs(30);

fn settings(server: &ReplayServer) -> Settings {
    let mut settings = Settings {
        provider: Some(Provider::OpenAi { base_url: server.base_url(), api_key: Some(Secret::new("test-key")) }),
        timeout: Duration::from_secs(10),
        max_retries: 2,
        embedding_model: Some("embed-1".into()),
        ..Settings::default()
    };
    settings.fast.model = "fast-model".into();
    settings
}

fn client(settings: Settings) -> Arc<dyn LlmClient> {
    settings.client().expect("client").expect("not offline")
}

/// Retries without real waiting, where the wait itself is not what is tested.
fn quick(settings: Settings) -> OpenAiClient {
    let policy = RetryPolicy { base: Duration::from_millis(10), ..RetryPolicy::new(settings.max_retries) };
    OpenAiClient::new(settings).unwrap().with_retry_policy(policy)
}

fn ask(text: &str) -> ChatRequest {
    ChatRequest::new(Tier::Fast, vec![ChatMessage::system("be brief"), ChatMessage::user(text)])
}

async fn chat(client: &dyn LlmClient, request: ChatRequest) -> Result<planwright_llm::ChatReply, LlmError> {
    tokio::time::timeout(HANG_GUARD, client.chat(request, &CancellationToken::new())).await.expect("no hang")
}

#[tokio::test]
async fn a_completion_reports_text_model_usage_and_latency() {
    let server =
        ReplayServer::start(Script::new().then(Reply::text("hello").usage(12, 3).model("fast-model-0613"))).await;
    let reply = chat(client(settings(&server)).as_ref(), ask("hi")).await.unwrap();
    assert_eq!(reply.text, "hello");
    assert_eq!(reply.model, "fast-model-0613");
    assert_eq!(reply.usage, Usage { input_tokens: 12, output_tokens: 3 });
    assert!(reply.latency > Duration::ZERO);

    let sent = &server.requests()[0];
    assert_eq!(sent.path, "/v1/chat/completions");
    assert_eq!(sent.header("authorization"), Some("Bearer test-key"));
    let body = sent.json().unwrap();
    assert_eq!(body["model"], "fast-model");
    assert_eq!(body["temperature"], 0.0);
    assert_eq!(body["max_tokens"], 2048);
    assert_eq!(body["stream"], false);
    assert_eq!(body["messages"], json!([{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}]));
    assert!(body.get("response_format").is_none());
}

#[tokio::test]
async fn request_overrides_win_over_the_tier() {
    let server = ReplayServer::start(Script::new().then(Reply::text("x"))).await;
    let mut request = ask("hi");
    request.temperature = Some(0.5);
    request.max_tokens = Some(7);
    chat(client(settings(&server)).as_ref(), request).await.unwrap();
    let body = server.requests()[0].json().unwrap();
    assert_eq!((body["temperature"].as_f64(), body["max_tokens"].as_u64()), (Some(0.5), Some(7)));
}

#[tokio::test]
async fn servers_quirks_are_tolerated() {
    let server = ReplayServer::start(Script::in_order([
        Reply::text("odd")
            .finish_reason("eos")
            .without_object()
            .without_usage()
            .extra("system_fingerprint", json!({"nested": [1]}))
            .message_extra("reasoning_content", json!("thinking…")),
        Reply::tool_call("answer", &json!({"a": 1})),
    ]))
    .await;
    let client = client(settings(&server));
    let reply = chat(client.as_ref(), ask("a")).await.unwrap();
    assert_eq!((reply.text.as_str(), reply.usage), ("odd", Usage::default()));
    // A server answering with a tool call: its arguments are the answer.
    let reply = chat(client.as_ref(), ask("b")).await.unwrap();
    assert_eq!(serde_json::from_str::<serde_json::Value>(&reply.text).unwrap(), json!({"a": 1}));
}

#[tokio::test]
async fn a_malformed_body_is_reported_without_retrying() {
    let server = ReplayServer::start(Script::in_order([Reply::malformed(), Reply::text("unused")])).await;
    let error = chat(client(settings(&server)).as_ref(), ask("a")).await.unwrap_err();
    assert!(matches!(&error, LlmError::Malformed { message, .. } if message.contains("not JSON")), "{error:?}");
    assert_eq!(server.requests().len(), 1);
    let server = ReplayServer::start(Script::new().then(Reply::raw(200, r#"{"choices": []}"#))).await;
    let error = chat(client(settings(&server)).as_ref(), ask("a")).await.unwrap_err();
    assert!(matches!(&error, LlmError::Malformed { message, .. } if message.contains("choices")), "{error:?}");
}

#[tokio::test]
async fn rate_limits_are_waited_out_as_the_server_asks() {
    let server = ReplayServer::start(Script::in_order([Reply::rate_limited(1), Reply::text("after the wait")])).await;
    let reply = chat(client(settings(&server)).as_ref(), ask("a")).await.unwrap();
    assert_eq!(reply.text, "after the wait");
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    // The server saw the second request no sooner than Retry-After said.
    assert!(requests[1].at.duration_since(requests[0].at) >= Duration::from_millis(950));
}

/// Whatever number a server puts in `Retry-After` — past what a `Duration` holds, or in
/// exponent form — the wait is bounded by the cap and the call goes on (it once panicked).
#[tokio::test]
async fn any_retry_after_value_gives_a_bounded_wait() {
    for value in ["1e300", "99999999999999999999", "1.7976931348623157e308", "inf", "-3", "soon"] {
        let limited = Reply::error(429, "slow down").header("retry-after", value);
        let server = ReplayServer::start(Script::in_order([limited, Reply::text("ok")])).await;
        let policy = RetryPolicy {
            retry_after_cap: Duration::from_millis(100),
            base: Duration::from_millis(10),
            ..RetryPolicy::new(2)
        };
        let client = OpenAiClient::new(settings(&server)).unwrap().with_retry_policy(policy);
        let reply = chat(&client, ask("hi")).await.unwrap_or_else(|e| panic!("Retry-After: {value}: {e}"));
        assert_eq!(reply.text, "ok", "{value}");
    }
}

/// An answer larger than a model answer can be is refused, saying so, before it fills memory, a
/// log line or a record.
#[tokio::test]
async fn an_answer_over_the_size_limit_is_refused_saying_so() {
    // Twice the limit, not more: the replay server's unoptimised JSON encoding of a far larger
    // answer once took over the 10 s timeout on a loaded machine, and the timeout's retry was
    // counted as a second request.
    let huge = "x".repeat(2 * 1024 * 1024);
    let server = ReplayServer::start(Script::new().always(Match::chat(), Reply::text(huge))).await;
    let patient = Settings { timeout: HANG_GUARD, ..settings(&server) };
    let error = chat(client(patient).as_ref(), ask("hi")).await.unwrap_err();
    let LlmError::Malformed { message, .. } = &error else { panic!("{error:?}") };
    assert!(message.contains("larger than 1024 KiB"), "{message}");
    assert!(error.to_string().len() < 1_000, "the error stays small");
    assert_eq!(server.requests().len(), 1, "a too-large answer is not asked for again");
    let fine = "y".repeat(200 * 1024);
    let server = ReplayServer::start(Script::new().always(Match::chat(), Reply::text(fine.clone()))).await;
    assert_eq!(chat(client(settings(&server)).as_ref(), ask("hi")).await.unwrap().text, fine);
}

#[tokio::test]
async fn retry_after_is_capped() {
    let server = ReplayServer::start(Script::in_order([Reply::rate_limited(3600), Reply::text("ok")])).await;
    let settings = settings(&server);
    let policy = RetryPolicy { retry_after_cap: Duration::from_millis(200), ..RetryPolicy::new(2) };
    let client = OpenAiClient::new(settings).unwrap().with_retry_policy(policy);
    assert_eq!(chat(&client, ask("a")).await.unwrap().text, "ok");
    let requests = server.requests();
    assert!(requests[1].at.duration_since(requests[0].at) >= Duration::from_millis(190));
}

#[tokio::test]
async fn server_errors_and_dropped_connections_are_retried() {
    let server = ReplayServer::start(Script::in_order([
        Reply::error(500, "boom"),
        Reply::drop_connection(),
        Reply::text("third time"),
    ]))
    .await;
    assert_eq!(chat(&quick(settings(&server)), ask("a")).await.unwrap().text, "third time");
    assert_eq!(server.requests().len(), 3);
}

#[tokio::test]
async fn retries_end_with_the_last_failure() {
    let server = ReplayServer::start(Script::new().always(Match::any(), Reply::error(503, "overloaded"))).await;
    let error = chat(&quick(settings(&server)), ask("a")).await.unwrap_err();
    match &error {
        LlmError::Unavailable { attempts, message, .. } => {
            assert_eq!(*attempts, 3);
            assert!(message.contains("503") && message.contains("overloaded"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(server.requests().len(), 3);

    let server = ReplayServer::start(Script::new().always(Match::any(), Reply::drop_connection())).await;
    let error = chat(&quick(settings(&server)), ask("a")).await.unwrap_err();
    assert!(matches!(error, LlmError::Connection { .. }), "{error:?}");
    assert_eq!(server.requests().len(), 3);
}

#[tokio::test]
async fn refusals_are_not_retried() {
    let server = ReplayServer::start(Script::in_order([
        Reply::error(401, "Incorrect API key provided"),
        Reply::raw(404, "<html>not found</html>"),
    ]))
    .await;
    let client = client(settings(&server));
    let error = chat(client.as_ref(), ask("a")).await.unwrap_err();
    assert_eq!(
        error,
        LlmError::Refused {
            provider: format!("openai-compatible at {}", server.base_url()),
            status: 401,
            message: "Incorrect API key provided".into()
        }
    );
    // A non-JSON error body keeps its status.
    let error = chat(client.as_ref(), ask("a")).await.unwrap_err();
    assert!(
        matches!(&error, LlmError::Refused { status: 404, message, .. } if message.contains("not found")),
        "{error:?}"
    );
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn a_slow_server_times_out_on_every_attempt() {
    let server =
        ReplayServer::start(Script::new().always(Match::any(), Reply::text("late").delay(Duration::from_secs(20))))
            .await;
    let mut settings = settings(&server);
    settings.timeout = Duration::from_millis(300);
    settings.max_retries = 1;
    let error = chat(&quick(settings), ask("a")).await.unwrap_err();
    assert!(matches!(error, LlmError::Timeout { after, .. } if after == Duration::from_millis(300)), "{error:?}");
    assert_eq!(server.requests().len(), 2);
}

async fn wait_for_requests(server: &ReplayServer, count: usize) {
    tokio::time::timeout(HANG_GUARD, async {
        while server.requests().len() < count {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("the request arrives");
}

#[tokio::test]
async fn cancellation_ends_a_call_mid_request() {
    let server = ReplayServer::start(Script::new().then(Reply::text("late").delay(Duration::from_secs(60)))).await;
    let client = client(settings(&server));
    let cancel = CancellationToken::new();
    let call = client.chat(ask("a"), &cancel);
    let canceller = async {
        wait_for_requests(&server, 1).await;
        cancel.cancel();
    };
    let (result, ()) =
        tokio::time::timeout(HANG_GUARD, async { tokio::join!(call, canceller) }).await.expect("no hang");
    assert_eq!(result.unwrap_err(), LlmError::Cancelled);
}

#[tokio::test]
async fn cancellation_ends_a_call_mid_backoff() {
    let server = ReplayServer::start(Script::in_order([Reply::rate_limited(50), Reply::text("never")])).await;
    let client = client(settings(&server));
    let cancel = CancellationToken::new();
    let call = client.chat(ask("a"), &cancel);
    let canceller = async {
        wait_for_requests(&server, 1).await;
        tokio::time::sleep(Duration::from_millis(50)).await;
        cancel.cancel();
    };
    let (result, ()) =
        tokio::time::timeout(HANG_GUARD, async { tokio::join!(call, canceller) }).await.expect("no hang");
    assert_eq!(result.unwrap_err(), LlmError::Cancelled);
    assert_eq!(server.requests().len(), 1);
    // Cancelled before it starts: no request at all.
    let cancel = CancellationToken::new();
    cancel.cancel();
    assert_eq!(client.chat(ask("a"), &cancel).await.unwrap_err(), LlmError::Cancelled);
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn azure_uses_deployments_api_version_and_the_api_key_header() {
    let server = ReplayServer::start(
        Script::new()
            .on(Match::path_contains("/openai/deployments/fast-dep/chat/completions"), Reply::text("from azure"))
            .on(Match::path_contains("/openai/deployments/embed-dep/embeddings"), Reply::embeddings(vec![vec![0.5]])),
    )
    .await;
    let mut settings = Settings {
        provider: Some(Provider::Azure {
            endpoint: server.endpoint(),
            api_version: "2024-10-21".into(),
            api_key: Secret::new("azure-key"),
        }),
        embedding_model: Some("embed-dep".into()),
        ..Settings::default()
    };
    settings.fast.model = "fast-dep".into();
    let client = client(settings);
    assert_eq!(client.provider(), "azure");
    assert_eq!(chat(client.as_ref(), ask("a")).await.unwrap().text, "from azure");
    let embeddings = client.embed(vec!["x".into()], &CancellationToken::new()).await.unwrap();
    assert_eq!(embeddings.vectors, vec![vec![0.5]]);
    for sent in server.requests() {
        assert_eq!(sent.query_param("api-version"), Some("2024-10-21"));
        assert_eq!(sent.header("api-key"), Some("azure-key"));
        assert_eq!(sent.header("authorization"), None);
    }
}

#[tokio::test]
async fn a_keyless_local_server_gets_no_authorization_header() {
    let server = ReplayServer::start(Script::new().then(Reply::text("local"))).await;
    let mut settings = settings(&server);
    settings.provider = Some(Provider::OpenAi { base_url: server.base_url(), api_key: None });
    assert_eq!(chat(client(settings).as_ref(), ask("a")).await.unwrap().text, "local");
    assert_eq!(server.requests()[0].header("authorization"), None);
}

#[tokio::test]
async fn embeddings_come_back_in_input_order_with_usage() {
    let server = ReplayServer::start(
        Script::new()
            .then(Reply::error(429, "slow down").header("retry-after", "0"))
            .always(Match::embeddings(), Reply::embeddings_with(|text| vec![text.len() as f32, 1.0]).usage(7, 0)),
    )
    .await;
    let client = client(settings(&server));
    let cancel = CancellationToken::new();
    let embeddings = client.embed(vec!["a".into(), "abc".into()], &cancel).await.unwrap();
    assert_eq!(embeddings.vectors, vec![vec![1.0, 1.0], vec![3.0, 1.0]]);
    assert_eq!((embeddings.model.as_str(), embeddings.usage.input_tokens), ("embed-1", 7));
    let body = server.requests()[1].json().unwrap();
    assert_eq!(body, json!({"model": "embed-1", "input": ["a", "abc"], "encoding_format": "float"}));
    assert!(client.embed(Vec::new(), &cancel).await.unwrap().vectors.is_empty());

    let mut no_model = settings(&server);
    no_model.embedding_model = None;
    let error = no_model.client().unwrap().unwrap().embed(vec!["a".into()], &cancel).await.unwrap_err();
    assert!(matches!(&error, LlmError::NotConfigured(m) if m.contains("PLANWRIGHT_EMBEDDING_MODEL")), "{error}");
}

#[tokio::test]
async fn offline_settings_give_no_client() {
    assert!(Settings::default().client().unwrap().is_none());
}
