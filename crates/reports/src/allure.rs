//! Allure results (the `allure-results` folder Allure's report and TestOps read): one
//! `<uuid>-result.json` per browser node — a `browser.run_objectives` node's objectives as its
//! steps, each objective's actions and recovery steps nested in it, its evidence screenshot
//! attached to it and written beside as `<uuid>-attachment.png`; a plain `browser.*` node as a
//! result without steps, its screenshots attached. The fields are those of Allure's result
//! model (allure-js-commons `TestResult` / `StepResult`). Identifiers are derived from the run
//! and the node, so writing the same run again replaces its files rather than adding to them.

use std::path::{Path, PathBuf};

use planwright_runs::objective::StepStatus;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::objectives::{effect_said, Objectives, Step, StepAction, StepEntry};
use crate::record::{NodeOutcome, NodeRecord, RunRecord};
use crate::screenshot::{file_name, read_png};
use crate::text::{clean, epoch_ms, record_name};
use crate::ReportError;

/// Writes the Allure results of `run` into `dir` (created when missing); the files written, each
/// atomically. A `dir` that is a link, or a link at a file's name, is refused, never written
/// through.
pub fn allure(run: &RunRecord, dir: &Path) -> Result<Vec<PathBuf>, ReportError> {
    let refused = |why: &str| ReportError::Write {
        path: dir.to_path_buf(),
        source: std::io::Error::new(std::io::ErrorKind::InvalidInput, why.to_owned()),
    };
    if dir.symlink_metadata().is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(refused("it is a link, and reports are never written through one; name a folder"));
    }
    std::fs::create_dir_all(dir).map_err(|source| ReportError::Write { path: dir.to_path_buf(), source })?;
    let mut files = Files { dir, written: Vec::new() };
    for node in run.nodes.iter().filter(|n| n.is_browser()) {
        let result = files.result(run, node)?;
        let uuid = result["uuid"].as_str().unwrap_or_default().to_owned();
        files.write(&format!("{uuid}-result.json"), result.to_string().as_bytes())?;
    }
    Ok(files.written)
}

/// A UUID derived from `parts`: the same parts give the same UUID.
fn stable_uuid(parts: &[&str]) -> String {
    let digest = Sha256::digest(parts.join("\u{1f}").as_bytes());
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    uuid::Builder::from_random_bytes(bytes).into_uuid().hyphenated().to_string()
}

/// Allure's name for a status.
fn step_status(status: StepStatus) -> &'static str {
    match status {
        StepStatus::Completed => "passed",
        StepStatus::Failed => "failed",
        StepStatus::InProgress => "broken",
        StepStatus::Pending | StepStatus::Skipped => "skipped",
    }
}

fn text(value: &str) -> String {
    clean(value).into_owned()
}

fn parameter(name: &str, value: impl Into<String>) -> Value {
    json!({"name": name, "value": text(&value.into())})
}

/// A time in milliseconds, or `fallback` when the record has none.
fn millis(at: Option<&str>, fallback: i64) -> i64 {
    at.and_then(epoch_ms).unwrap_or(fallback)
}

struct Files<'a> {
    dir: &'a Path,
    written: Vec<PathBuf>,
}

impl Files<'_> {
    fn write(&mut self, name: &str, bytes: &[u8]) -> Result<(), ReportError> {
        let path = self.dir.join(name);
        planwright_fs::write_atomically(&path, bytes, planwright_fs::Access::Shared)
            .map_err(|source| ReportError::Write { path: path.clone(), source })?;
        self.written.push(path);
        Ok(())
    }

    /// The screenshot at `path` copied in as an attachment, or why it cannot be.
    fn attach(&mut self, run: &RunRecord, path: &str, name: &str) -> Result<Result<Value, String>, ReportError> {
        let bytes = match read_png(path) {
            Ok(bytes) => bytes,
            Err(why) => return Ok(Err(format!("{path}: {why}"))),
        };
        let source = format!("{}-attachment.png", stable_uuid(&[&run.run_id, path]));
        self.write(&source, &bytes)?;
        Ok(Ok(json!({"name": text(name), "source": source, "type": "image/png"})))
    }

    fn result(&mut self, run: &RunRecord, node: &NodeRecord) -> Result<Value, ReportError> {
        let start = millis(node.started_at.as_deref().or(run.started_at.as_deref()), 0);
        let stop = millis(node.ended_at.as_deref(), start.saturating_add(node.elapsed_ms as i64));
        let mut steps = Vec::new();
        let mut attachments = Vec::new();
        let mut parameters = vec![parameter("run", run.run_id.as_str())];
        if let Some(objectives) = &node.objectives {
            for (number, step) in objectives.objectives() {
                steps.push(self.objective_step(run, objectives, number, step, start)?);
            }
        }
        let unattached = match &node.objectives {
            Some(_) => node.other_screenshots(),
            None => node.screenshots().collect(),
        };
        for shot in unattached {
            match self.attach(run, &shot.path, file_name(&shot.path))? {
                Ok(attachment) => attachments.push(attachment),
                Err(why) => parameters.push(parameter("screenshot not attached", why)),
            }
        }
        let (status, details) = result_status(node);
        let plan = if run.plan_id.is_empty() { "plan" } else { run.plan_id.as_str() };
        let block = node.block.as_deref().unwrap_or("browser.run_objectives");
        let description = node.objectives.as_ref().and_then(|o| o.original_input.clone()).unwrap_or_default();
        Ok(json!({
            "uuid": stable_uuid(&[&run.run_id, &node.path]),
            "historyId": hex(&Sha256::digest(format!("{plan}\u{1f}{}", node.path).as_bytes())[..16]),
            "name": text(&node.path),
            "fullName": text(&format!("{plan}.{}", node.path)),
            "description": text(&description),
            "status": status,
            "statusDetails": details,
            "stage": "finished",
            "start": start,
            "stop": stop,
            "labels": [
                {"name": "suite", "value": text(plan)},
                {"name": "feature", "value": text(block)},
                {"name": "framework", "value": "planwright"},
            ],
            "links": [],
            "parameters": parameters,
            "steps": steps,
            "attachments": attachments,
        }))
    }

    fn objective_step(
        &mut self,
        run: &RunRecord,
        objectives: &Objectives,
        number: usize,
        step: &Step,
        node_start: i64,
    ) -> Result<Value, ReportError> {
        let state = &step.state;
        let stats = &state.stats;
        let start = millis(step.started_at.as_deref(), node_start);
        let stop = millis(step.ended_at.as_deref(), start.saturating_add(stats.elapsed_ms as i64));
        let mut parameters = vec![parameter("attempts", state.attempts.to_string())];
        if let Some(decided_by) = stats.decided_by {
            parameters.push(parameter("decided by", record_name(&decided_by)));
        }
        if let Some(approach) = stats.approach {
            parameters.push(parameter("approach", approach.describe()));
        }
        if stats.model_calls > 0 {
            parameters.push(parameter(
                "tokens",
                format!("{} in, {} out ({} model calls)", stats.input_tokens, stats.output_tokens, stats.model_calls),
            ));
        }
        let mut attachments = Vec::new();
        if let Some(path) = &stats.screenshot {
            match self.attach(run, path, &format!("evidence of objective {number}"))? {
                Ok(attachment) => attachments.push(attachment),
                Err(why) => parameters.push(parameter("screenshot not attached", why)),
            }
        }
        let steps: Vec<Value> = objectives
            .entries_of(state.index)
            .into_iter()
            .map(|entry| match entry {
                StepEntry::Action(action) => action_step(action),
                StepEntry::Recovery(recovery) => recovery_step(recovery, start),
            })
            .collect();
        Ok(json!({
            "name": text(&format!("{number}. {}", state.description)),
            "status": step_status(state.status),
            "statusDetails": {"message": text(step.evidence().unwrap_or_default())},
            "stage": "finished",
            "start": start,
            "stop": stop,
            "parameters": parameters,
            "steps": steps,
            "attachments": attachments,
        }))
    }
}

/// An action as a step of its objective (or recovery), with where it acted and what happened.
fn action_step(action: &StepAction) -> Value {
    let executed = &action.action;
    let at = epoch_ms(&executed.timestamp).unwrap_or(0);
    let mut parameters = Vec::new();
    if let Some(locator) = executed.locator.as_deref().filter(|l| !l.is_empty()) {
        parameters.push(parameter("locator", locator));
    }
    parameters.push(parameter("result", executed.result.as_str()));
    if !executed.requests.is_empty() {
        let started: Vec<String> = executed.requests.iter().map(ToString::to_string).collect();
        parameters.push(parameter("requests", started.join(", ")));
    }
    if let Some(effect) = effect_said(executed.effect) {
        parameters.push(parameter("effect", effect));
    }
    json!({
        "name": text(&executed.action),
        "status": if executed.succeeded { "passed" } else { "failed" },
        "statusDetails": {},
        "stage": "finished",
        "start": at,
        "stop": at,
        "parameters": parameters,
        "steps": [],
        "attachments": [],
    })
}

/// A recovery step inside its objective's step: what was in the way, its actions, its outcome.
fn recovery_step(recovery: &Step, objective_start: i64) -> Value {
    let state = &recovery.state;
    let start = millis(recovery.started_at.as_deref(), objective_start);
    let stop = millis(recovery.ended_at.as_deref(), start.saturating_add(state.stats.elapsed_ms as i64));
    let mut parameters = Vec::new();
    if let Some(reason) = &state.blocking_reason {
        parameters.push(parameter("in the way", reason.as_str()));
    }
    json!({
        "name": text(&format!("recovery: {}", state.description)),
        "status": step_status(state.status),
        "statusDetails": {"message": text(recovery.evidence().unwrap_or_default())},
        "stage": "finished",
        "start": start,
        "stop": stop,
        "parameters": parameters,
        "steps": recovery.actions.iter().map(action_step).collect::<Vec<_>>(),
        "attachments": [],
    })
}

/// The result's status and its details: a failed objective (with its reason, attempts and
/// actions), the node's error, or a run that ended before it did.
fn result_status(node: &NodeRecord) -> (&'static str, Value) {
    let failed = node.objectives.as_ref().and_then(|objectives| {
        objectives.objectives().find(|(_, s)| s.state.status == StepStatus::Failed).map(|(n, s)| (objectives, n, s))
    });
    if let Some((objectives, number, step)) = failed {
        let reason = step.evidence().unwrap_or("no reason recorded");
        let mut trace = format!("attempts: {}\n", step.state.attempts);
        for entry in objectives.entries_of(step.state.index) {
            match entry {
                StepEntry::Action(action) => trace.push_str(&format!("- {}\n", action.line())),
                StepEntry::Recovery(recovery) => {
                    trace.push_str(&format!("- recovery: {}\n", recovery.state.description))
                }
            }
        }
        return (
            "failed",
            json!({"message": text(&format!("objective {number} failed: {reason}")), "trace": text(&trace)}),
        );
    }
    match &node.outcome {
        NodeOutcome::Failed { error, .. } => ("failed", json!({"message": text(error)})),
        NodeOutcome::Skipped { reason } => ("skipped", json!({"message": text(reason)})),
        NodeOutcome::Waiting { message } => {
            ("skipped", json!({"message": text(&format!("waiting for input: {message}"))}))
        }
        NodeOutcome::Unfinished => ("broken", json!({"message": "the run ended before this node settled"})),
        NodeOutcome::Succeeded if node.objectives.as_ref().is_some_and(Objectives::any_in_progress) => {
            ("broken", json!({"message": "an objective was still in progress when the node ended"}))
        }
        NodeOutcome::Succeeded => match node.unsatisfied() {
            Some(why) => ("failed", json!({"message": text(&why)})),
            None => ("passed", json!({})),
        },
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
