//! `planwright doctor`: the browser, the data home and the workspace, then one tiny call per
//! configured tier (and one embedding when an embedding model is set), saying what works and
//! what to fix.

use anyhow::{Context, Result};
use planwright_api::{KeyStore, ModelCheck, SystemCheck};
use planwright_llm::SETTINGS_FILE;
use planwright_runs::DataHome;

use crate::commands::Exit;
use crate::{render, Format};

/// `--format json`: `{ok, offline, provider, settings_file, problem, checks: [{part, model, ok,
/// answered_by, latency_ms, problem, fix}], system: [{part, ok, detail, fix}]}` — the studio's
/// `check_models` answer, with the machine's checks.
pub fn doctor(format: Format) -> Result<Exit> {
    let home = DataHome::from_env()?;
    let settings_file = home.root().join(SETTINGS_FILE);
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let report = runtime.block_on(planwright_api::check_models_with(
        planwright_api::model_settings(home.root(), KeyStore::from_env()),
        &settings_file,
    ));
    let system = planwright_api::check_system(home.root());
    let ok = report.ok && system.iter().all(|check| check.ok);
    match format {
        Format::Json => {
            let mut json = serde_json::to_value(&report)?;
            json["ok"] = ok.into();
            json["system"] = serde_json::to_value(&system)?;
            print!("{}", render::json(&json));
        }
        Format::Text => print!("{}{}", text(&report), system_text(&system)),
    }
    Ok(if ok { Exit::Ok } else { Exit::Invalid })
}

fn system_text(checks: &[SystemCheck]) -> String {
    let mut out = String::new();
    for check in checks {
        let mark = if check.ok { "✓" } else { "✗" };
        out.push_str(&format!("{mark} {:<10} {}\n", check.part, check.detail));
        if let Some(fix) = &check.fix {
            out.push_str(&format!("      fix: {fix}\n"));
        }
    }
    out
}

fn text(report: &ModelCheck) -> String {
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
