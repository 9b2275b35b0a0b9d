//! Checking the model settings with one tiny call per tier (and one embedding when an embedding
//! model is set), saying what works and what to fix. `planwright doctor` prints it; the studio's
//! Settings page shows it.

use std::path::Path;
use std::time::Duration;

use planwright_llm::{
    ChatMessage, ChatRequest, LlmClient, LlmError, OpenAiClient, RetryPolicy, Settings, SettingsError, Tier,
};
use tokio_util::sync::CancellationToken;

use crate::types::{ModelCheck, PartCheck, SystemCheck};

/// A check waits at most this long, whatever the configured timeout.
const CHECK_TIMEOUT: Duration = Duration::from_secs(30);

/// Checks `settings` (as loaded; an error is reported as the problem); `settings_file` is named
/// in the report.
pub async fn check_models_with(settings: Result<Settings, SettingsError>, settings_file: &Path) -> ModelCheck {
    let mut report = ModelCheck {
        ok: true,
        offline: false,
        provider: None,
        settings_file: settings_file.display().to_string(),
        problem: None,
        checks: Vec::new(),
    };
    match settings {
        Err(error) => {
            report.ok = false;
            report.problem = Some(error.to_string());
        }
        Ok(settings) if settings.is_offline() => report.offline = true,
        Ok(mut settings) => {
            settings.timeout = settings.timeout.min(CHECK_TIMEOUT);
            // No retries: a rate limit or an outage is reported as it is, at once.
            match OpenAiClient::new(settings.clone()) {
                Ok(client) => {
                    let client = client.with_retry_policy(RetryPolicy::new(0));
                    report.provider = Some(client.provider());
                    report.checks = checks(&client, &settings).await;
                    report.ok = report.checks.iter().all(|c| c.ok);
                }
                Err(error) => {
                    report.ok = false;
                    report.problem = Some(error.to_string());
                }
            }
        }
    }
    report
}

async fn checks(client: &OpenAiClient, settings: &Settings) -> Vec<PartCheck> {
    let cancel = CancellationToken::new();
    let mut checks = Vec::new();
    for tier in Tier::ALL {
        let model = settings.tier(tier).model.clone();
        let mut request =
            ChatRequest::new(tier, vec![ChatMessage::user("This is a connection check. Reply with the word: ok")]);
        request.max_tokens = Some(16);
        let check = match client.chat(request, &cancel).await {
            Ok(reply) => PartCheck {
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
            Ok(embeddings) => PartCheck {
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

fn failed(part: &str, model: String, error: &LlmError, model_var: &str) -> PartCheck {
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
    PartCheck {
        part: part.into(),
        model,
        ok: false,
        answered_by: None,
        latency_ms: None,
        problem: Some(error.to_string()),
        fix: Some(fix),
    }
}

/// What runs need from this machine besides a model: the browser browser steps launch, the data
/// home (runs, settings, keys) and the studio's workspace, each with what to do when it fails.
pub fn check_system(data_home: &Path) -> Vec<SystemCheck> {
    let browser = match crate::readiness::browser_path(data_home) {
        Ok(path) => SystemCheck::ok("browser", path),
        Err(detail) => SystemCheck::failed(
            "browser",
            detail,
            "install Debian's Chromium (apt-get install chromium), or set CHROME to a Chromium or Chrome binary",
        ),
    };
    let home = match writable(data_home) {
        Ok(()) => SystemCheck::ok("data home", data_home.display().to_string()),
        Err(detail) => SystemCheck::failed(
            "data home",
            detail,
            "set PLANWRIGHT_HOME to a folder you can write, or make this one writable",
        ),
    };
    let workspace = match crate::settings::read_studio_file(data_home) {
        Err(error) => SystemCheck::failed("workspace", error.message, &error.hint.unwrap_or_default()),
        Ok(file) => match file.workspace.map(Ok).unwrap_or_else(crate::workspace::default_dir) {
            Err(error) => SystemCheck::failed("workspace", error.message, &error.hint.unwrap_or_default()),
            Ok(dir) if !dir.exists() => SystemCheck::ok(
                "workspace",
                format!("{} (created with the examples when the studio first opens)", dir.display()),
            ),
            Ok(dir) => match writable(&dir) {
                Ok(()) => SystemCheck::ok("workspace", dir.display().to_string()),
                Err(detail) => SystemCheck::failed(
                    "workspace",
                    detail,
                    "choose another workspace in the studio's Settings, or make this folder writable",
                ),
            },
        },
    };
    vec![browser, home, workspace]
}

/// Whether a file can be made in `dir` (it is created when missing, as runs would).
fn writable(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{} cannot be created: {e}", dir.display()))?;
    let probe = dir.join(format!(".planwright-check-{}", std::process::id()));
    let written = std::fs::write(&probe, b"");
    let _ = std::fs::remove_file(&probe);
    written.map_err(|e| format!("{} cannot be written: {e}", dir.display()))
}
