//! `planwright bench generate`'s jobs (`crates/design/eval/jobs.yaml`): each instruction
//! designed offline with its files in the work folder, the plan run offline with no answers,
//! and the table it wrote read back and compared with the expected one. A plan that says valid
//! with nothing left to ask and then writes a wrong table (or none) is the figure that must be 0.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result};
use planwright_design::jobs::{jobs, same_table, Job, JobFile};
use planwright_design::metrics::percentile;
use planwright_design::{DesignEngine, DesignRequest};
use planwright_engine::{Engine, RunRequest};
use planwright_runs::{DataHome, EventKind, RunStore};
use planwright_validate::NoPlans;
use serde::Serialize;
use serde_json::{json, Map, Value};
use tokio_util::sync::CancellationToken;

/// How one job ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum JobOutcome {
    /// The plan, run with no answers, wrote the expected table (or, for a vague job, the engine
    /// asked).
    Success,
    /// The engine asked what it could not tell (open questions, or no plan at all).
    Asked,
    /// No valid plan and nothing asked: an honest failure.
    Invalid,
    /// Valid with nothing left to ask, and the table written was wrong or missing.
    WrongButValid,
}

#[derive(Debug, Clone, Serialize)]
pub struct JobResult {
    pub id: String,
    pub language: String,
    pub part: String,
    pub outcome: JobOutcome,
    /// What went wrong, for a person: the run's error, or the rows written.
    pub detail: String,
    pub generate_ms: f64,
    /// The plan designed and the engine's reasoning, when one job was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub design: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct JobRow {
    pub part: &'static str,
    pub language: &'static str,
    pub jobs: usize,
    pub success: usize,
    pub asked: usize,
    pub invalid: usize,
    pub wrong_but_valid: usize,
    pub p50_ms: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct JobBench {
    pub rows: Vec<JobRow>,
    pub jobs: Vec<JobResult>,
}

pub async fn run(designer: &DesignEngine<'_>, only: Option<&str>) -> Result<JobBench> {
    // One engine runs every job's plan and reads its output back.
    let runner =
        Engine::new(Arc::new(crate::commands::catalog(None)?), planwright_blocks::builtin(), Arc::new(NoPlans));
    let mut results = Vec::new();
    let all = jobs()?;
    if let Some(id) = only {
        anyhow::ensure!(all.iter().any(|j| j.id == id), "no job `{id}` in crates/design/eval/");
    }
    for job in all.iter().filter(|j| only.is_none_or(|id| id == j.id)) {
        let mut result = run_job(designer, &runner, job).await.with_context(|| format!("job {}", job.id))?;
        if only.is_none() {
            result.design = None;
        }
        results.push(result);
    }
    let mut rows = Vec::new();
    for part in ["heldout", "blind", "tuned"] {
        for language in ["en", "ja", "all"] {
            let chosen: Vec<&JobResult> =
                results.iter().filter(|r| r.part == part && (language == "all" || r.language == language)).collect();
            let count = |o: JobOutcome| chosen.iter().filter(|r| r.outcome == o).count();
            let mut times: Vec<f64> = chosen.iter().map(|r| r.generate_ms).collect();
            times.sort_by(f64::total_cmp);
            rows.push(JobRow {
                part,
                language,
                jobs: chosen.len(),
                success: count(JobOutcome::Success),
                asked: count(JobOutcome::Asked),
                invalid: count(JobOutcome::Invalid),
                wrong_but_valid: count(JobOutcome::WrongButValid),
                p50_ms: percentile(&times, 0.5),
            });
        }
    }
    Ok(JobBench { rows, jobs: results })
}

async fn run_job(shared: &DesignEngine<'_>, runner: &Engine, job: &Job) -> Result<JobResult> {
    let home = tempfile::tempdir()?;
    let work = home.path().join("work");
    std::fs::create_dir_all(&work)?;
    for (name, file) in &job.files {
        write_file(&work.join(name), file).with_context(|| format!("writing {name}"))?;
    }
    let files = planwright_api::WorkFolderFiles::new(&work);
    let trial = planwright_api::WorkFolderTrial::new(&work, Arc::new(shared.catalog.clone()));
    let engine = DesignEngine { files: Some(&files), trial: Some(&trial), model: None, metrics: None, ..*shared };
    let request = DesignRequest { instruction: job.instruction.clone(), ..DesignRequest::default() };
    let started = Instant::now();
    let generated = engine.generate(&request, &CancellationToken::new()).await;
    let generate_ms = started.elapsed().as_secs_f64() * 1000.0;
    let design = generated.as_ref().ok().map(|g| {
        let reasoning: String = g.reasoning.iter().map(|r| format!("#   {r}\n")).collect();
        let heading = if reasoning.is_empty() { "" } else { "# reasoning:\n" };
        // (What is asked, as the chat would ask it: why a job ended as questions.)
        let asked: String = g
            .requirements
            .iter()
            .filter(|r| r.asked())
            .map(|r| format!("#   {}\n", serde_json::to_string(&r.requirement).unwrap_or_default()))
            .collect();
        let asked_heading = if asked.is_empty() { "" } else { "# asked:\n" };
        format!("{}{heading}{reasoning}{asked_heading}{asked}", g.to_yaml().unwrap_or_default())
    });
    let result = |outcome, detail: String| JobResult {
        id: job.id.clone(),
        language: job.language.clone(),
        part: job.part.clone(),
        outcome,
        detail,
        generate_ms,
        design: design.clone(),
    };
    let generated = match generated {
        Ok(generated) => generated,
        // No plan: the engine refused and said what it needs.
        Err(e) if job.expects_question() => return Ok(result(JobOutcome::Success, e.to_string())),
        Err(e) => return Ok(result(JobOutcome::Asked, e.to_string())),
    };
    let open: Vec<String> = generated
        .requirements
        .iter()
        .filter(|r| r.asked() && r.requirement.required)
        .map(|r| r.requirement.id.clone())
        .collect();
    if !open.is_empty() {
        let outcome = if job.expects_question() { JobOutcome::Success } else { JobOutcome::Asked };
        return Ok(result(outcome, format!("asks {}", open.join(", "))));
    }
    if !generated.valid {
        let codes: Vec<String> =
            generated.findings.iter().filter(|f| f.is_error()).map(|f| f.code.as_str().to_owned()).collect();
        return Ok(result(JobOutcome::Invalid, format!("not valid: {}", codes.join(", "))));
    }
    if job.expects_question() {
        return Ok(result(JobOutcome::WrongButValid, "a plan for a job too vague to do, with nothing asked".into()));
    }
    let plan_text = serde_yaml::to_string(&generated.plan)?;
    let (expected, output) = match (&job.expected, &job.output) {
        (Some(expected), Some(output)) => (expected, output),
        _ => anyhow::bail!("job {} has neither an expected table nor `expect: ask`", job.id),
    };
    let written = match run_plan(runner, home.path(), &work, plan_text).await {
        Err(e) => return Ok(result(JobOutcome::WrongButValid, format!("the run failed: {e}"))),
        Ok(()) => read_back(runner, home.path(), &work, output).await,
    };
    Ok(match written {
        Ok(rows) if same_table(expected, &rows, job.ordered) => result(JobOutcome::Success, String::new()),
        Ok(rows) => {
            let shown: Vec<String> = rows.iter().take(3).map(|r| Value::Object(r.clone()).to_string()).collect();
            result(JobOutcome::WrongButValid, format!("wrote {} rows: {} …", rows.len(), shown.join(" ")))
        }
        Err(e) => result(JobOutcome::WrongButValid, format!("{output} not readable: {e}")),
    })
}

/// A CSV file as written, or a workbook of one sheet with its title rows above the header.
fn write_file(path: &Path, file: &JobFile) -> Result<()> {
    match file {
        JobFile::Text(text) => std::fs::write(path, text)?,
        JobFile::Sheet { sheet, title_rows, rows } => {
            let mut book = rust_xlsxwriter::Workbook::new();
            let ws = book.add_worksheet();
            ws.set_name(sheet)?;
            for (r, title) in title_rows.iter().enumerate() {
                ws.write_string(r as u32, 0, title)?;
            }
            for (r, row) in rows.iter().enumerate() {
                let r = (title_rows.len() + r) as u32;
                for (c, value) in row.iter().enumerate() {
                    let c = c as u16;
                    match value {
                        Value::Number(n) => ws.write_number(r, c, n.as_f64().unwrap_or_default()).map(|_| ())?,
                        Value::String(s) => ws.write_string(r, c, s).map(|_| ())?,
                        Value::Bool(b) => ws.write_boolean(r, c, *b).map(|_| ())?,
                        _ => {}
                    }
                }
            }
            book.save(path)?;
        }
    }
    Ok(())
}

/// Runs the plan offline with no answers; an error names the failed step's reason.
async fn run_plan(runner: &Engine, home: &Path, work: &Path, plan_text: String) -> Result<()> {
    let store = RunStore::open(&DataHome::at(home))?;
    let request = RunRequest { plan_text, plan_path: None, vars: Map::new() };
    let outcome = runner.run(&store, request, planwright_api::unattended(work.to_owned())).await?;
    let failure = store.events(&outcome.run_id)?.into_iter().find_map(|e| match e.kind {
        EventKind::NodeFailed { error, .. } => Some(error),
        _ => None,
    });
    match failure {
        Some(failure) => anyhow::bail!(failure),
        None => Ok(()),
    }
}

/// The rows of the file the plan wrote, read by the product's own read block.
async fn read_back(runner: &Engine, home: &Path, work: &Path, output: &str) -> Result<Vec<Map<String, Value>>> {
    let block = if output.ends_with(".xlsx") { "excel.read_data" } else { "file.read_csv" };
    let plan = json!({
        "apiVersion": "planwright/v1", "id": "read_back", "version": "1.0.0",
        "graph": [{"id": "read", "block": block, "in": {"path": output}, "out": {"rows": "rows"}}],
    });
    let store = RunStore::open(&DataHome::at(home))?;
    let request = RunRequest { plan_text: serde_json::to_string(&plan)?, plan_path: None, vars: Map::new() };
    let outcome = runner.run(&store, request, planwright_api::unattended(work.to_owned())).await?;
    for event in store.events(&outcome.run_id)? {
        match event.kind {
            EventKind::NodeFinished { outputs, .. } => {
                let rows = outputs.get("rows").and_then(Value::as_array).cloned().unwrap_or_default();
                return Ok(rows.into_iter().filter_map(|r| r.as_object().cloned()).collect());
            }
            EventKind::NodeFailed { error, .. } => anyhow::bail!("{error}"),
            _ => {}
        }
    }
    anyhow::bail!("the read step did not end")
}

pub fn render(bench: &JobBench) -> String {
    let mut out = String::from(
        "\njobs (crates/design/eval/jobs*.yaml): designed offline, run offline with no answers, judged by the table written\n",
    );
    out.push_str("part      lang  jobs  success   asked  no plan  wrong-but-valid  p50 ms\n");
    for r in &bench.rows {
        out.push_str(&format!(
            "{:<9} {:<5} {:>4}  {:>3} {:>3.0}%  {:>6}  {:>7}  {:>15}  {:>6.1}\n",
            r.part,
            r.language,
            r.jobs,
            r.success,
            r.success as f64 * 100.0 / r.jobs.max(1) as f64,
            r.asked,
            r.invalid,
            r.wrong_but_valid,
            r.p50_ms
        ));
    }
    for j in bench.jobs.iter().filter_map(|j| j.design.as_deref()) {
        out.push_str(&format!("\n{j}"));
    }
    // Held-out jobs are counted, not shown: reading their failures would make them tuning.
    out.push_str("\ntuned jobs not done:\n");
    for j in bench.jobs.iter().filter(|j| j.outcome != JobOutcome::Success && (j.part == "tuned" || j.design.is_some()))
    {
        let detail: String = j.detail.chars().take(160).collect();
        out.push_str(&format!("  {:<40} {:<8} {:?}: {detail}\n", j.id, j.part, j.outcome));
    }
    out
}
