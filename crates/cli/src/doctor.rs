//! `planwright doctor`: one tiny call per configured tier (and one embedding when an embedding
//! model is set), saying what works and what to fix.

use std::time::Duration;

use anyhow::{Context, Result};
use planwright_llm::{
    ChatMessage, ChatRequest, LlmClient, LlmError, OpenAiClient, RetryPolicy, Settings, Tier, SETTINGS_FILE,
};
use planwright_runs::DataHome;
use serde::Serialize;
use tokio_util::sync::CancellationToken;

use crate::commands::Exit;
use crate::{render, Format};

/// A check waits at most this long, whatever the configured timeout.
const CHECK_TIMEOUT: Duration = Duration::from_secs(30);

/// `--format json`: `{ok, offline, provider, settings_file, problem, checks: [{part, model, ok,
/// answered_by, latency_ms, problem, fix}]}`.
#[derive(Serialize)]
struct Report {
    ok: bool,
    offline: bool,
    provider: Option<String>,
    settings_file: String,
    /// Settings that could not be read (then there are no checks).
    problem: Option<String>,
    checks: Vec<Check>,
}

#[derive(Serialize)]
struct Check {
    /// `creative`, `fast`, `evaluator` or `embeddings`.
    part: String,
    model: String,
    ok: bool,
    answered_by: Option<String>,
    latency_ms: Option<u64>,
    problem: Option<String>,
    fix: Option<String>,
}

pub fn doctor(format: Format) -> Result<Exit> {
    let home = DataHome::from_env()?;
    let settings_file = home.root().join(SETTINGS_FILE).display().to_string();
    let mut report =
        Report { ok: true, offline: false, provider: None, settings_file, problem: None, checks: Vec::new() };
    match Settings::load(home.root()) {
        Err(error) => {
            report.ok = false;
            report.problem = Some(error.to_string());
        }
        Ok(settings) if settings.is_offline() => report.offline = true,
        Ok(mut settings) => {
            settings.timeout = settings.timeout.min(CHECK_TIMEOUT);
            // No retries: a rate limit or an outage is reported as it is, at once.
            let client = OpenAiClient::new(settings.clone())?.with_retry_policy(RetryPolicy::new(0));
            report.provider = Some(client.provider());
            let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
            report.checks = runtime.block_on(checks(&client, &settings));
            report.ok = report.checks.iter().all(|c| c.ok);
        }
    }
    match format {
        Format::Json => print!("{}", render::json(&report)),
        Format::Text => print!("{}", text(&report)),
    }
    Ok(if report.ok { Exit::Ok } else { Exit::Invalid })
}

async fn checks(client: &OpenAiClient, settings: &Settings) -> Vec<Check> {
    let cancel = CancellationToken::new();
    let mut checks = Vec::new();
    for tier in Tier::ALL {
        let model = settings.tier(tier).model.clone();
        let mut request =
            ChatRequest::new(tier, vec![ChatMessage::user("This is a connection check. Reply with the word: ok")]);
        request.max_tokens = Some(16);
        let check = match client.chat(request, &cancel).await {
            Ok(reply) => Check {
                part: tier.name().into(),
                model,
                ok: true,
                answered_by: Some(reply.model),
                latency_ms: Some(reply.latency.as_millis() as u64),
                problem: None,
                fix: None,
            },
            Err(error) => {
                failed(tier.name(), model, &error, &format!("PLANWRIGHT_MODEL_{}", tier.name().to_uppercase()))
            }
        };
        checks.push(check);
    }
    if let Some(model) = &settings.embedding_model {
        let check = match client.embed(vec!["connection check".into()], &cancel).await {
            Ok(embeddings) => Check {
                part: "embeddings".into(),
                model: model.clone(),
                ok: true,
                answered_by: Some(format!(
                    "{} ({} dimensions)",
                    embeddings.model,
                    embeddings.vectors.first().map_or(0, Vec::len)
                )),
                latency_ms: Some(embeddings.latency.as_millis() as u64),
                problem: None,
                fix: None,
            },
            Err(error) => failed("embeddings", model.clone(), &error, "PLANWRIGHT_EMBEDDING_MODEL"),
        };
        checks.push(check);
    }
    checks
}

fn failed(part: &str, model: String, error: &LlmError, model_var: &str) -> Check {
    let fix = match error {
        LlmError::Refused { status: 401 | 403, .. } => {
            "the key is wrong or has no access: check OPENAI_API_KEY (Azure: AZURE_OPENAI_API_KEY)".to_string()
        }
        LlmError::Refused { status: 404, .. } => format!(
            "no model (Azure: deployment) named {model:?} there, or the base URL is wrong: set {model_var}, and check \
             that OPENAI_BASE_URL ends with /v1 (Azure: AZURE_OPENAI_ENDPOINT is https://NAME.openai.azure.com)"
        ),
        LlmError::Refused { .. } => {
            format!("the server refused the call: check that {model:?} is a chat model (or set {model_var})")
        }
        LlmError::Connection { .. } => {
            "check the URL (OPENAI_BASE_URL or AZURE_OPENAI_ENDPOINT) and that the server is running".to_string()
        }
        LlmError::Timeout { .. } => {
            "the server is slow or unreachable: check it, or raise PLANWRIGHT_LLM_TIMEOUT_SECS".into()
        }
        LlmError::Unavailable { .. } => "the server is rate limited or failing: try again later".to_string(),
        LlmError::Malformed { .. } => {
            "the server does not answer like the chat completions API: check the base URL".to_string()
        }
        LlmError::NotConfigured(_) | LlmError::InvalidOutput { .. } | LlmError::InvalidSchema { .. } => {
            "see the model settings in the README".to_string()
        }
        LlmError::Cancelled => "interrupted: run doctor again".to_string(),
    };
    Check {
        part: part.into(),
        model,
        ok: false,
        answered_by: None,
        latency_ms: None,
        problem: Some(error.to_string()),
        fix: Some(fix),
    }
}

fn text(report: &Report) -> String {
    if let Some(problem) = &report.problem {
        return format!("✗ model settings: {problem}\n");
    }
    if report.offline {
        return "offline: no model is configured, so AI steps use their rule-based path.\n  To use a model, set \
                OPENAI_API_KEY, or AZURE_OPENAI_API_KEY and AZURE_OPENAI_ENDPOINT, or OPENAI_BASE_URL for a local \
                server (Ollama, vLLM, LM Studio, llama.cpp), in the environment or .env.\n"
            .to_string();
    }
    let mut out = format!("provider: {}\n", report.provider.as_deref().unwrap_or("-"));
    for check in &report.checks {
        if check.ok {
            out.push_str(&format!(
                "  ✓ {:<10} {}: answered by {} in {} ms\n",
                check.part,
                check.model,
                check.answered_by.as_deref().unwrap_or("-"),
                check.latency_ms.unwrap_or(0)
            ));
        } else {
            out.push_str(&format!(
                "  ✗ {:<10} {}: {}\n      fix: {}\n",
                check.part,
                check.model,
                check.problem.as_deref().unwrap_or("-"),
                check.fix.as_deref().unwrap_or("-")
            ));
        }
    }
    out.push_str(if report.ok { "all configured parts work\n" } else { "something needs fixing (see above)\n" });
    out
}
