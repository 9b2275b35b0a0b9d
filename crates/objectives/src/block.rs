//! `browser.run_objectives`: the block around the runner — its inputs read, the checklist made,
//! the run's browser opened at the start address, the objectives carried out, and the report.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use futures::future::BoxFuture;
use planwright_block::inputs::{choice, integer, text, web_address};
use planwright_block::{Block, BlockContext, BlockError, Values};
use planwright_browser::ActOptions;
use planwright_runs::objective::{ObjectiveProgress, StepStatus, StepType};
use planwright_runs::LogLevel;
use serde_json::{json, Value};

use crate::cache::{ActionCache, CACHE_FILE};
use crate::checklist::split_steps;
use crate::model::ModelHelp;
use crate::runner::{Decide, RunOutcome, Runner, RunnerConfig};

/// Where downloads go, under the work directory.
pub const DOWNLOADS_DIR: &str = "downloads";
/// The most attempts an objective may be given.
const MAX_ATTEMPTS: i64 = 10;

/// The block. Its action cache lives in the data home, opened on first use.
pub struct RunObjectives {
    cache_path: Option<PathBuf>,
    cache: OnceLock<Option<Arc<ActionCache>>>,
}

impl RunObjectives {
    /// With the action cache under `data_home` (`None`: no cache, every run decides again).
    pub fn new(data_home: Option<&std::path::Path>) -> RunObjectives {
        RunObjectives { cache_path: data_home.map(|home| home.join(CACHE_FILE)), cache: OnceLock::new() }
    }

    fn cache(&self, ctx: &BlockContext) -> Option<Arc<ActionCache>> {
        self.cache
            .get_or_init(|| {
                let path = self.cache_path.as_ref()?;
                match ActionCache::open(path) {
                    Ok(cache) => Some(Arc::new(cache)),
                    Err(error) => {
                        ctx.log(LogLevel::Warn, format!("{error}; objectives are decided again on every run"));
                        None
                    }
                }
            })
            .clone()
    }
}

impl Block for RunObjectives {
    fn id(&self) -> &'static str {
        "browser.run_objectives"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(async move {
            tokio::select! {
                biased;
                _ = ctx.cancel.cancelled() => Err(BlockError::Cancelled),
                result = self.objectives(inputs, ctx) => result,
            }
        })
    }
}

impl RunObjectives {
    async fn objectives(&self, inputs: Values, ctx: &BlockContext) -> Result<Values, BlockError> {
        let start = text(&inputs, "start_url", "the page to open first, e.g. https://portal.example.co.jp/login")?;
        let steps = text(
            &inputs,
            "steps",
            "the steps, one a line, e.g. \"1. Sign in with {{PORTAL_USER}} / {{PORTAL_PASSWORD}}\"",
        )?;
        let attempts = integer(&inputs, "max_retries_per_step", 3)?;
        if !(1..=MAX_ATTEMPTS).contains(&attempts) {
            return Err(BlockError::Input(format!(
                "`max_retries_per_step` is {attempts}; give the attempts an objective may take, 1 to {MAX_ATTEMPTS}"
            )));
        }
        let decide = match choice(&inputs, "decide_first", &["offline", "model"], "offline")? {
            "model" => Decide::ModelFirst,
            _ => Decide::OfflineFirst,
        };
        // A {{NAME}} in the address (a token) is filled only now.
        let url = web_address("start_url", &ctx.secrets.fill(start)?, "the page to open first")?;
        let model = match &ctx.models {
            Some(client) => {
                Some(Arc::new(ModelHelp::new(Arc::clone(client)).map_err(|e| BlockError::Failed(e.to_string()))?))
            }
            None => None,
        };
        let objectives = checklist(steps, model.as_deref(), ctx).await?;
        if objectives.is_empty() {
            return Err(BlockError::Input(
                "`steps` has no steps; write one a line, e.g. \"1. Open the Statements page\"".into(),
            ));
        }
        let session = ctx.browser.session(ctx).await?;
        let downloads_dir = ctx.workdir.resolve("downloads", DOWNLOADS_DIR)?;
        session.save_downloads_to(&downloads_dir).await.map_err(|e| BlockError::Failed(e.to_string()))?;
        let opened = session
            .navigate(url.as_str(), &ActOptions::default())
            .await
            .map_err(|e| BlockError::Failed(e.to_string()))?;
        ctx.log(
            LogLevel::Info,
            format!(
                "{} objective{} from {}",
                objectives.len(),
                if objectives.len() == 1 { "" } else { "s" },
                ctx.secrets.redact(&opened.url)
            ),
        );
        let config =
            RunnerConfig { max_attempts: attempts as u32, cache: self.cache(ctx), downloads_dir, model, decide };
        let progress = ObjectiveProgress::new(steps, objectives);
        let outcome = Runner::new(ctx, session, config, progress).run().await?;
        let summary = format!(
            "{}{}{}",
            outcome.progress.summary(),
            match outcome.replayed {
                0 => String::new(),
                n => format!("; {n} replayed from the action cache"),
            },
            match outcome.model_calls {
                0 => "; no model calls".to_owned(),
                n => format!("; {n} model call{}", if n == 1 { "" } else { "s" }),
            }
        );
        ctx.log(if outcome.progress.all_completed() { LogLevel::Info } else { LogLevel::Warn }, summary);
        Ok(outputs(&outcome, ctx))
    }
}

/// The objectives of `steps`: split where the person itemised them (one a line, numbered or
/// bulleted); a paragraph of prose goes to the model when there is one.
async fn checklist(steps: &str, model: Option<&ModelHelp>, ctx: &BlockContext) -> Result<Vec<String>, BlockError> {
    let split = split_steps(steps);
    let prose =
        split.len() == 1 && steps.lines().filter(|l| !l.trim().is_empty()).count() == 1 && sentences(&split[0]) > 1;
    match model {
        Some(model) if prose => match model.checklist(steps, &ctx.cancel).await {
            Ok(items) => Ok(items),
            Err(error) => {
                ctx.log(LogLevel::Warn, format!("{error}; the steps are taken as one objective"));
                Ok(split)
            }
        },
        _ => Ok(split),
    }
}

/// Sentences in a text: ends of sentence followed by more text.
fn sentences(text: &str) -> usize {
    let text = text.trim();
    1 + text
        .char_indices()
        .filter(|&(i, c)| {
            matches!(c, '.' | '。' | '!' | '?' | '！' | '？')
                && text[i + c.len_utf8()..].trim_start().chars().next().is_some_and(|n| !n.is_ascii_digit())
        })
        .count()
}

/// The block's outputs: the report (the documented per-step fields, and the whole progress),
/// `passed` and `extracted`.
fn outputs(outcome: &RunOutcome, ctx: &BlockContext) -> Values {
    let progress = &outcome.progress;
    let mut number = 0;
    let steps: Vec<Value> = progress
        .objective_steps
        .iter()
        .filter(|s| s.step_type == StepType::Objective)
        .map(|step| {
            number += 1;
            let recoveries: Vec<&str> = progress
                .objective_steps
                .iter()
                .filter(|r| r.parent_index == Some(step.index))
                .filter_map(|r| r.blocking_reason.as_deref())
                .collect();
            let mut note = step.completion_evidence.clone().unwrap_or_else(|| match step.status {
                StepStatus::Skipped => "not tried: an earlier step failed".to_owned(),
                _ => String::new(),
            });
            if !recoveries.is_empty() {
                note.push_str(&format!(" (got {} out of the way first)", recoveries.join(", ")));
            }
            let screenshot =
                outcome.screenshots.iter().find(|(i, _)| *i == step.index).map(|(_, p)| p.display().to_string());
            json!({
                "number": number,
                "objective": step.description,
                "status": match step.status {
                    StepStatus::Completed => "passed",
                    StepStatus::Skipped | StepStatus::Pending => "skipped",
                    StepStatus::Failed | StepStatus::InProgress => "failed",
                },
                "attempts": step.attempts,
                "note": ctx.secrets.redact(&note),
                "evidence_screenshot": screenshot,
            })
        })
        .collect();
    let passed_steps = steps.iter().filter(|s| s["status"] == "passed").count();
    let failed_steps = steps.iter().filter(|s| s["status"] == "failed").count();
    let downloads: Vec<Value> = outcome
        .downloads
        .iter()
        .map(|d| json!({"file": d.file_name, "path": d.path.display().to_string(), "bytes": d.bytes}))
        .collect();
    let mut out = Values::new();
    out.insert(
        "report".into(),
        json!({
            "steps": steps,
            "passed_steps": passed_steps,
            "failed_steps": failed_steps,
            "summary": progress.summary(),
            "downloads": downloads,
            "replayed_from_cache": outcome.replayed,
            "model_calls": outcome.model_calls,
            "progress": serde_json::to_value(progress).unwrap_or(Value::Null),
        }),
    );
    out.insert("passed".into(), Value::Bool(progress.all_completed() && !progress.objective_steps.is_empty()));
    out.insert("extracted".into(), Value::Object(outcome.extracted.clone()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_is_told_from_itemised_steps() {
        assert_eq!(sentences("Log in. Then open the statements and download October."), 2);
        assert_eq!(sentences("Open version 1.2 of the page"), 1);
        assert_eq!(sentences("ログインする。明細を開く。"), 2);
    }
}
