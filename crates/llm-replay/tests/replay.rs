//! The replay server over real HTTP (plain reqwest: the model layer's own tests drive the real
//! client through every kind of reply).

use std::time::Duration;

use planwright_llm_replay::{Match, ReplayServer, Reply, Script};
use serde_json::{json, Value};

async fn post(url: &str, body: Value) -> reqwest::Result<(u16, reqwest::header::HeaderMap, String)> {
    let response = reqwest::Client::new().post(url).bearer_auth("k").json(&body).send().await?;
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    Ok((status, headers, response.text().await?))
}

fn chat(user: &str) -> Value {
    json!({"model": "m-1", "messages": [{"role": "system", "content": "s"}, {"role": "user", "content": user}]})
}

#[tokio::test]
async fn answers_in_order_and_records_each_request() {
    let server = ReplayServer::start(Script::in_order([Reply::text("one"), Reply::json(&json!({"a": 1}))])).await;
    let url = format!("{}/chat/completions", server.base_url());
    let (status, _, first) = post(&url, chat("hi")).await.unwrap();
    assert_eq!(status, 200);
    let first: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(first["choices"][0]["message"]["content"], "one");
    assert_eq!(first["model"], "m-1");
    assert_eq!(first["usage"]["prompt_tokens"], 10);
    let (_, _, second) = post(&url, chat("again")).await.unwrap();
    let second: Value = serde_json::from_str(&second).unwrap();
    assert_eq!(second["choices"][0]["message"]["content"], r#"{"a":1}"#);
    // Played out: the next request is refused with a message saying so.
    let (status, _, third) = post(&url, chat("more")).await.unwrap();
    assert_eq!(status, 400);
    assert!(third.contains("replay: no scripted reply"), "{third}");

    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    assert_eq!(requests[0].path, "/v1/chat/completions");
    assert_eq!(requests[0].header("Authorization"), Some("Bearer k"));
    assert_eq!(requests[1].last_user_message().as_deref(), Some("again"));
    assert_eq!(requests[0].model().as_deref(), Some("m-1"));
    assert!(requests[1].at >= requests[0].at);
    assert_eq!(server.unused(), 0);
}

#[tokio::test]
async fn matches_on_the_request() {
    let server = ReplayServer::start(
        Script::new()
            .on(Match::user_contains("beta"), Reply::text("B"))
            .on(Match::path_contains("/deployments/fast-dep/"), Reply::text("azure"))
            .always(Match::embeddings(), Reply::embeddings_with(|text| vec![text.len() as f32]))
            .on(Match::model("m-2").and(Match::chat()), Reply::text("model two")),
    )
    .await;
    let url = format!("{}/chat/completions", server.base_url());
    let (_, _, body) = post(&url, chat("alpha beta")).await.unwrap();
    assert!(body.contains("\"B\""));
    let (_, _, body) = post(&url, json!({"model": "m-2", "messages": []})).await.unwrap();
    assert!(body.contains("model two"));
    let azure = format!("{}/openai/deployments/fast-dep/chat/completions?api-version=2024-10-21", server.endpoint());
    let (_, _, body) = post(&azure, chat("x")).await.unwrap();
    assert!(body.contains("azure"));
    assert_eq!(server.requests()[2].query_param("api-version"), Some("2024-10-21"));
    for _ in 0..2 {
        let (_, _, body) =
            post(&format!("{}/embeddings", server.base_url()), json!({"input": ["ab", "abcd"]})).await.unwrap();
        let body: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(body["data"][1]["embedding"], json!([4.0]));
        assert_eq!(body["data"][1]["index"], 1);
    }
}

#[tokio::test]
async fn errors_quirks_and_tool_calls() {
    let server = ReplayServer::start(Script::in_order([
        Reply::rate_limited(7),
        Reply::error(503, "overloaded").header("retry-after", "2"),
        Reply::malformed(),
        Reply::tool_call("lookup", &json!({"q": 1})),
        Reply::text("odd").finish_reason("eos").without_object().without_usage().extra("x_vendor", json!(true)),
    ]))
    .await;
    let url = format!("{}/chat/completions", server.base_url());
    let (status, headers, body) = post(&url, chat("a")).await.unwrap();
    assert_eq!((status, headers["retry-after"].to_str().unwrap()), (429, "7"));
    assert!(body.contains("rate_limit_error"));
    let (status, headers, _) = post(&url, chat("a")).await.unwrap();
    assert_eq!((status, headers["retry-after"].to_str().unwrap()), (503, "2"));
    let (status, _, body) = post(&url, chat("a")).await.unwrap();
    assert_eq!(status, 200);
    assert!(serde_json::from_str::<Value>(&body).is_err());
    let (_, _, body) = post(&url, chat("a")).await.unwrap();
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["choices"][0]["message"]["tool_calls"][0]["function"]["name"], "lookup");
    assert_eq!(body["choices"][0]["finish_reason"], "tool_calls");
    let (_, _, body) = post(&url, chat("a")).await.unwrap();
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["choices"][0]["finish_reason"], "eos");
    assert!(body.get("object").is_none() && body.get("usage").is_none());
    assert_eq!(body["x_vendor"], true);
}

#[tokio::test]
async fn drops_the_connection_without_an_answer() {
    let server = ReplayServer::start(Script::in_order([Reply::drop_connection(), Reply::text("after")])).await;
    let url = format!("{}/chat/completions", server.base_url());
    let error = post(&url, chat("a")).await.expect_err("no response must arrive");
    assert!(!error.is_status() && !error.is_timeout(), "{error:?}");
    // The server keeps serving other connections.
    let (status, _, _) = post(&url, chat("a")).await.unwrap();
    assert_eq!(status, 200);
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn a_slow_answer_arrives_after_its_delay() {
    let server = ReplayServer::start(Script::new().then(Reply::text("late").delay(Duration::from_secs(30)))).await;
    let url = format!("{}/chat/completions", server.base_url());
    let client = reqwest::Client::builder().timeout(Duration::from_millis(200)).build().unwrap();
    let error = client.post(&url).json(&chat("a")).send().await.expect_err("the answer is slower than the timeout");
    assert!(error.is_timeout(), "{error:?}");
}

#[tokio::test]
async fn matches_a_structured_question_by_its_schema_name() {
    let server = ReplayServer::start(
        Script::new()
            .always(Match::schema("task_plan"), Reply::json(&json!({"plan": true})))
            .then(Reply::text("anything else")),
    )
    .await;
    let url = format!("{}/chat/completions", server.base_url());
    let structured = |name: &str| {
        let mut body = chat("plan this");
        body["response_format"] = json!({"type": "json_schema", "json_schema": {"name": name, "schema": {}}});
        body
    };
    for _ in 0..2 {
        let (_, _, body) = post(&url, structured("task_plan")).await.unwrap();
        assert!(body.contains("plan"), "{body}");
    }
    let (_, _, body) = post(&url, structured("reflection")).await.unwrap();
    assert!(body.contains("anything else"), "another schema takes the next rule: {body}");
}
