//! `browser.run_objectives`: the block around the runner — its inputs read, the checklist made,
//! the run's browser opened at the start address, the objectives carried out under the task
//! loop and the planning layer (or as seed 004's loop alone when planning is off), and the
//! report.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use futures::future::BoxFuture;
use planwright_block::inputs::{boolean, choice, describe, integer, text, web_address};
use planwright_block::{Block, BlockContext, BlockError, Values};
use planwright_browser::ActOptions;
use planwright_browser_port::{browser_reason, BrowserSlotSession};
use planwright_runs::objective::{ObjectiveProgress, StepStatus, StepType};
use planwright_runs::{bounded_strings, LogLevel, Reason, RunMessage};
use serde_json::{json, Value};

use crate::cache::{ActionCache, CACHE_FILE};
use crate::checklist::split_steps;
use crate::model::ModelHelp;
use crate::planning::{Planner, PlanningHistory, PlanningSettings};
use crate::progress::ObjectiveTransitions;
use crate::runner::{Decide, RunOutcome, Runner, RunnerConfig};
use crate::task::{self, Ending, OnUnsatisfied, TaskOutcome, TaskSettings};

/// Where downloads go, under the work directory.
pub const DOWNLOADS_DIR: &str = "downloads";
/// The most attempts an objective may be given.
const MAX_ATTEMPTS: i64 = 10;

/// The block. Its action cache lives in the data home, opened on first use; its planning
/// settings are read from the data home's `settings.yaml` at each run.
pub struct RunObjectives {
    data_home: Option<PathBuf>,
    cache: OnceLock<Option<Arc<ActionCache>>>,
}

impl RunObjectives {
    /// With the action cache and the planning settings under `data_home` (`None`: no cache,
    /// every run decides again, and the default planning settings).
    pub fn new(data_home: Option<&std::path::Path>) -> RunObjectives {
        RunObjectives { data_home: data_home.map(std::path::Path::to_path_buf), cache: OnceLock::new() }
    }

    /// The planning settings: the data home's, with the node's inputs over them.
    fn planning(&self, inputs: &Values) -> Result<PlanningSettings, BlockError> {
        let mut settings = match &self.data_home {
            Some(home) => PlanningSettings::load(home).map_err(|e| BlockError::not_set_up(e.to_string()))?,
            None => PlanningSettings::default(),
        };
        settings.enabled = boolean(inputs, "planning", settings.enabled)?;
        let bounded = |name: &str, default: u32, low: i64, high: i64| -> Result<u32, BlockError> {
            let value = integer(inputs, name, i64::from(default))?;
            if !(low..=high).contains(&value) {
                return Err(BlockError::input(format!(
                    "`{name}` is {value}; give a whole number from {low} to {high}"
                )));
            }
            Ok(value as u32)
        };
        settings.reflection.trigger_interval =
            bounded("reflection_interval", settings.reflection.trigger_interval, 0, 1000)?;
        settings.revision.max_revisions = bounded("max_revisions", settings.revision.max_revisions, 0, 10)?;
        settings.task_loop.max_iterations = bounded("max_iterations", settings.task_loop.max_iterations, 1, 10)?;
        settings.task_loop.satisfaction_threshold = match inputs.get("satisfaction_threshold") {
            None | Some(Value::Null) => settings.task_loop.satisfaction_threshold,
            Some(Value::Number(n)) if n.as_f64().is_some_and(|f| (0.0..=1.0).contains(&f)) => n.as_f64().unwrap_or(0.8),
            Some(other) => {
                return Err(BlockError::input(format!(
                    "`satisfaction_threshold` is {}; give a score from 0 to 1, e.g. 0.8",
                    describe(other)
                )))
            }
        };
        Ok(settings)
    }

    fn cache(&self, ctx: &BlockContext) -> Option<Arc<ActionCache>> {
        self.cache
            .get_or_init(|| {
                let path = self.data_home.as_ref()?.join(CACHE_FILE);
                match ActionCache::open(&path) {
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
            return Err(BlockError::input(format!(
                "`max_retries_per_step` is {attempts}; give the attempts an objective may take, 1 to {MAX_ATTEMPTS}"
            )));
        }
        let decide = match choice(&inputs, "decide_first", &["offline", "model"], "offline")? {
            "model" => Decide::ModelFirst,
            _ => Decide::OfflineFirst,
        };
        let on_unsatisfied = match choice(&inputs, "on_unsatisfied", &["ask", "report", "fail"], "ask")? {
            "report" => OnUnsatisfied::Report,
            "fail" => OnUnsatisfied::Fail,
            _ => OnUnsatisfied::Ask,
        };
        let planning = self.planning(&inputs)?;
        // A {{NAME}} in the address (a token) is filled only now.
        let url = web_address("start_url", &ctx.secrets.fill(start)?, "the page to open first")?;
        let model = match &ctx.models {
            Some(client) => {
                Some(Arc::new(ModelHelp::new(Arc::clone(client)).map_err(|e| BlockError::failed(e.to_string()))?))
            }
            None => None,
        };
        let objectives = checklist(steps, model.as_deref(), ctx).await?;
        if objectives.is_empty() {
            return Err(BlockError::input(
                "`steps` has no steps; write one a line, e.g. \"1. Open the Statements page\"",
            ));
        }
        let evidence_files = crate::evidence::wanted_files(&inputs, objectives.len(), &ctx.workdir)?;
        if planning.enabled && objectives.len() > planning.max_subtasks as usize {
            return Err(BlockError::input(format!(
                "`steps` has {} steps, more than the planning settings allow ({}, `planning.max_subtasks`); split them \
                 over several nodes or raise the limit",
                objectives.len(),
                planning.max_subtasks
            )));
        }
        let session = ctx.browser.session(ctx).await?;
        let downloads_dir = ctx.workdir.resolve("downloads", DOWNLOADS_DIR)?;
        let failed = |e: planwright_browser::BrowserError| BlockError::failed(browser_reason(&e));
        session.save_downloads_to(&downloads_dir).await.map_err(failed)?;
        let opened = session.navigate(url.as_str(), &ActOptions::default()).await.map_err(failed)?;
        let from = ctx.secrets.redact(&opened.url);
        let count = objectives.len();
        let text = format!("{count} objective{} from {from}", if count == 1 { "" } else { "s" });
        ctx.log(LogLevel::Info, Reason::said(RunMessage::ObjectivesStarted { count: count as u64, url: from }, text));
        let task_settings = TaskSettings {
            max_iterations: planning.task_loop.max_iterations,
            threshold: planning.task_loop.satisfaction_threshold,
            on_unsatisfied,
            max_attempts: attempts as u32,
        };
        let planner = planning.enabled.then(|| {
            let history = planning.history_path(&ctx.record_dir, self.data_home.as_deref());
            Planner::new(planning.clone(), PlanningHistory::new(history), model.clone())
        });
        let config =
            RunnerConfig { max_attempts: attempts as u32, cache: self.cache(ctx), downloads_dir, model, decide };
        let progress = ObjectiveProgress::begin(steps, objectives);
        let mut runner = Runner::new(ctx, session, config, progress);
        if let Some(planner) = planner {
            runner = runner.with_planner(planner);
        }
        // The plan names the start page as written: a token in it stays a placeholder.
        let outcome = task::run(runner, task_settings, start).await?;
        let summary = format!(
            "{}{}{}{}",
            outcome.progress.summary(),
            match &outcome.ending {
                Ending::Task(task) => format!(
                    "; {} after {} pass{} ({:.0} %)",
                    task.outcome.name().replace('_', " "),
                    task.iterations,
                    if task.iterations == 1 { "" } else { "es" },
                    task.satisfaction.overall_score * 100.0
                ),
                Ending::Legacy => String::new(),
            },
            match outcome.replayed {
                0 => String::new(),
                n => format!("; {n} replayed from the action cache"),
            },
            match outcome.model_calls {
                0 => "; no model calls".to_owned(),
                n => format!("; {n} model call{}", if n == 1 { "" } else { "s" }),
            }
        );
        let (task_outcome, passes, percent) = match &outcome.ending {
            Ending::Task(task) => {
                (task.outcome.name(), task.iterations as u64, (task.satisfaction.overall_score * 100.0).round() as u64)
            }
            Ending::Legacy => ("none", 0, 0),
        };
        let said = RunMessage::ObjectivesEnded {
            completed: outcome.progress.completed_objectives() as u64,
            total: outcome.progress.total_objectives() as u64,
            outcome: task_outcome.to_owned(),
            passes,
            percent,
            replayed: outcome.replayed as u64,
            model_calls: outcome.model_calls as u64,
        };
        let level = if outcome.progress.all_completed() { LogLevel::Info } else { LogLevel::Warn };
        ctx.log(level, Reason::said(said.clone(), summary.clone()));
        let mut outputs = outputs(&outcome, ctx);
        crate::evidence::save_files(&mut outputs, &evidence_files, ctx).await?;
        // A task the runner could not complete never ends as a success: the node fails with its
        // report (`on_unsatisfied: report`, and seed 004's loop alone), so that the run's status,
        // the runs list and the reports agree with `passed`. Only the person's "accept the result
        // as it is" ends it so.
        let accepted = matches!(&outcome.ending, Ending::Task(task) if task.outcome == TaskOutcome::AcceptedPartial);
        if outputs.get("passed") != Some(&Value::Bool(true)) && !accepted {
            let text = format!("the objectives were not all done: {summary}{}", first_failure(&outputs));
            return Err(BlockError::failed(Reason::said(said, text).with_outputs(outputs)));
        }
        Ok(outputs)
    }
}

/// The first objective of the report that failed, and why, for the node's failure: `; objective
/// 2 "Click Export to PDF": <its note>` (empty when none failed outright).
fn first_failure(outputs: &Values) -> String {
    let steps = outputs.get("report").and_then(|report| report["steps"].as_array());
    steps
        .into_iter()
        .flatten()
        .filter(|step| step["status"] == "failed")
        .map(|step| {
            let note = step["note"].as_str().unwrap_or_default();
            let objective = step["objective"].as_str().unwrap_or_default();
            format!("; objective {} \"{objective}\": {note}", step["number"])
        })
        .next()
        .unwrap_or_default()
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
/// `passed` and `extracted`. Each objective's text is whole once, in `steps`; everything that
/// repeats it (the progress, notes, requirements) keeps a summary ([`planwright_runs::bounded`]).
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
                "note": planwright_runs::bounded(&ctx.secrets.redact(&note)),
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
    let mut report = json!({
        "steps": steps,
        "passed_steps": passed_steps,
        "failed_steps": failed_steps,
        "summary": progress.summary(),
        "downloads": downloads,
        "replayed_from_cache": outcome.replayed,
        "model_calls": outcome.model_calls,
        "progress": bounded_strings(serde_json::to_value(progress).unwrap_or(Value::Null)),
    });
    if let Ending::Task(task) = &outcome.ending {
        report["outcome"] = json!(task.outcome.name());
        report["iterations"] = json!(task.iterations);
        report["satisfaction"] = json!(task.satisfaction.overall_score);
        report["requirements"] = bounded_strings(serde_json::to_value(&task.requirements).unwrap_or(Value::Null));
        report["reflections"] = bounded_strings(json!(task.reflections));
        report["revisions"] = bounded_strings(json!(task.revisions));
        report["planning_history"] = json!(task.history.display().to_string());
    }
    let mut out = Values::new();
    out.insert("report".into(), report);
    // Every objective done is not enough when the task loop judged the request unsatisfied
    // (a model found the evidence short) and the person accepted the result as it is.
    let satisfied = match &outcome.ending {
        Ending::Task(task) => task.outcome == TaskOutcome::Satisfied,
        Ending::Legacy => true,
    };
    out.insert(
        "passed".into(),
        Value::Bool(satisfied && progress.all_completed() && !progress.objective_steps.is_empty()),
    );
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
