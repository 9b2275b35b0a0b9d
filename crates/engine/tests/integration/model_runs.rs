//! Runs with a language model: `ai.process_llm` through the real client against a local scripted
//! OpenAI-compatible server, every call recorded as a `model_call` event and counted per run.

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use planwright_engine::{BrowserSettings, EnvSecrets, NoAnswers, RunOptions, RunOutcome, RunRequest};
use planwright_llm::{LlmClient, Provider, Secret, Settings};
use planwright_llm_replay::{Match, ReplayServer, Reply, Script};
use planwright_runs::{Event, EventKind, RunStatus};
use serde_json::json;
use tokio_util::sync::CancellationToken;

const API_KEY: &str = "sk-canary-7d1e-never-written";

const PLAN: &str = r#"apiVersion: planwright/v1
id: classify_expenses
version: 1.0.0
graph:
  - id: classify
    block: ai.process_llm
    in:
      evidence_data: {expense: {摘要: 新幹線 東京-大阪, 金額: 14720}}
      instruction: Classify the expense.
      output_schema:
        type: object
        required: [category]
        properties:
          category: {type: string, enum: [travel, supplies, other]}
    out: {results: answer, summary: usage}
"#;

fn client(server: &ReplayServer) -> Arc<dyn LlmClient> {
    let settings = Settings {
        provider: Some(Provider::OpenAi { base_url: server.base_url(), api_key: Some(Secret::new(API_KEY)) }),
        timeout: Duration::from_secs(10),
        max_retries: 1,
        ..Settings::default()
    };
    settings.client().unwrap().unwrap()
}

impl support::Fixture {
    async fn run_with_models(&self, plan: &str, models: Option<Arc<dyn LlmClient>>) -> (RunOutcome, Vec<Event>) {
        let options = RunOptions {
            workdir: self.workdir.path().to_owned(),
            secrets: Arc::new(EnvSecrets),
            answers: Arc::new(NoAnswers),
            stop: CancellationToken::new(),
            events: None,
            browser: BrowserSettings::default(),
            models,
        };
        let request = RunRequest { plan_text: plan.to_owned(), plan_path: None, vars: Default::default() };
        let outcome = self.engine.run(&self.store, request, options).await.unwrap_or_else(|e| panic!("{e}"));
        let events = self.store.events(&outcome.run_id).unwrap();
        (outcome, events)
    }
}

fn model_calls(events: &[Event]) -> Vec<&EventKind> {
    events.iter().map(|e| &e.kind).filter(|k| matches!(k, EventKind::ModelCall { .. })).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_model_call_is_recorded_and_counted() {
    let server = ReplayServer::start(
        Script::new()
            .then(Reply::json(&json!({"category": "food"})).usage(300, 7).model("gpt-4o-mini-2024"))
            .then(Reply::json(&json!({"category": "travel"})).usage(340, 6).model("gpt-4o-mini-2024")),
    )
    .await;
    let f = support::fixture();
    let (outcome, events) = f.run_with_models(PLAN, Some(client(&server))).await;
    assert_eq!(outcome.status, RunStatus::Succeeded, "{:?}", outcome.reason);
    assert_eq!((outcome.counts.model_calls, outcome.counts.input_tokens, outcome.counts.output_tokens), (2, 640, 13));

    let calls = model_calls(&events);
    assert_eq!(calls.len(), 2, "the call and its one re-ask");
    let EventKind::ModelCall { node, tier, model, messages, response, error, input_tokens, .. } = calls[0] else {
        unreachable!()
    };
    assert_eq!((node.as_str(), tier.as_str(), model.as_str()), ("classify", "fast", "gpt-4o-mini-2024"));
    assert_eq!(response.as_deref(), Some(r#"{"category":"food"}"#));
    assert_eq!((error, *input_tokens), (&None, 300));
    assert!(messages[1]["content"].as_str().unwrap().contains("新幹線 東京-大阪"), "{messages}");
    let EventKind::ModelCall { messages: again, .. } = calls[1] else { unreachable!() };
    assert_eq!(again.as_array().unwrap().len(), 4, "system, user, the broken answer, the re-ask");

    let finished = events.iter().find_map(|e| match &e.kind {
        EventKind::RunFinished { counts, .. } => Some(*counts),
        _ => None,
    });
    assert_eq!(finished, Some(outcome.counts), "the totals are in the record");
    let listed = f.store.summary(&outcome.run_id).unwrap();
    assert_eq!(listed.counts.input_tokens, 640, "and in runs.db");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_call_is_recorded_with_its_error() {
    let refusal = Reply::error(401, "Incorrect API key provided").delay(std::time::Duration::from_millis(40));
    let server = ReplayServer::start(Script::new().always(Match::chat(), refusal)).await;
    let f = support::fixture();
    let (outcome, events) = f.run_with_models(PLAN, Some(client(&server))).await;
    assert_eq!(outcome.status, RunStatus::Failed);
    let calls = model_calls(&events);
    assert_eq!(calls.len(), 1, "a refusal is not retried");
    let EventKind::ModelCall { error, response, model, latency_ms, .. } = calls[0] else { unreachable!() };
    assert!(error.as_deref().unwrap().contains("HTTP 401"), "{error:?}");
    assert_eq!((response, model.as_str()), (&None, "gpt-4o-mini"), "the model asked is named");
    assert!(*latency_ms >= 40, "the call's real latency, not 0: {latency_ms}");
    assert_eq!(outcome.counts.model_calls, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_key_never_reaches_a_file_the_run_writes() {
    let server = ReplayServer::start(Script::new().always(Match::chat(), Reply::error(401, "bad key"))).await;
    let f = support::fixture();
    f.run_with_models(PLAN, Some(client(&server))).await;
    let sent = server.requests();
    assert_eq!(sent[0].header("authorization"), Some(format!("Bearer {API_KEY}").as_str()), "the key was used");
    let files = support::files_under(f.home.path());
    assert!(files.iter().any(|p| p.extension().is_some_and(|e| e == "jsonl")));
    for file in files.iter().chain(support::files_under(f.workdir.path()).iter()) {
        let bytes = std::fs::read(file).unwrap();
        assert!(!String::from_utf8_lossy(&bytes).contains(API_KEY), "{} holds the key", file.display());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_model_the_block_fails_and_nothing_is_counted() {
    let f = support::fixture();
    let (outcome, events) = f.run_with_models(PLAN, None).await;
    assert_eq!(outcome.status, RunStatus::Failed);
    assert!(outcome.reason.as_deref().unwrap().contains("no model configured"), "{:?}", outcome.reason);
    assert!(model_calls(&events).is_empty());
    assert_eq!(outcome.counts.model_calls, 0);
}
