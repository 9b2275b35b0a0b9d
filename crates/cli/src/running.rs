//! `planwright run`, `resume` and `runs`: starting and continuing runs, showing them live, and
//! listing the record.

use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};
use planwright_api::{KeyStore, ModelServices};
use planwright_designs::Designs;
use planwright_engine::{
    AnswerSource, BrowserSettings, Engine, EngineError, GivenAnswers, NoAnswers, RunOptions, RunOutcome, RunRequest,
};
use planwright_reports::RunRecord;
use planwright_runs::{DataHome, Event, EventKind, RunStatus, RunStore, StoreError};
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use crate::commands::{catalog, print, read_named, read_yaml, Exit};
use crate::reports::{ReportArgs, Reports};
use crate::terminal::{plain, say, TerminalAnswers};
use crate::Format;

/// What `run` and `resume` share.
#[derive(clap::Args, Clone)]
pub struct RunArgs {
    /// Answers for human-input nodes: a YAML map of node id → answer.
    #[arg(long, value_name = "FILE")]
    inputs: Option<PathBuf>,
    /// Text for people, or JSON for tools.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    #[command(flatten)]
    reports: ReportArgs,
    /// Folder of registered plans, where `call.plan_id` is looked up.
    #[arg(long, value_name = "DIR", default_value = "designs")]
    designs: PathBuf,
}

pub fn run(file: &Path, vars: &[String], workdir: Option<&Path>, args: &RunArgs) -> Result<Exit> {
    let limit = planwright_plan::load::MAX_PLAN_BYTES as u64;
    let plan_text = match read_named(&file.display().to_string(), file, limit, "a plan is never that large") {
        Ok(text) => text,
        Err(message) => {
            say(format_args!("planwright: {message}"));
            return Ok(Exit::Unusable);
        }
    };
    let vars = match parse_vars(vars) {
        Ok(vars) => vars,
        Err(message) => {
            say(format_args!("planwright: {message}"));
            return Ok(Exit::Unusable);
        }
    };
    let workdir = match workdir {
        Some(dir) if !dir.exists() => match std::fs::create_dir_all(dir) {
            Ok(()) => {
                say(format_args!("planwright: created the work directory {}", dir.display()));
                dir.to_path_buf()
            }
            Err(error) => {
                say(format_args!("planwright: --workdir {}: cannot create it: {error}", dir.display()));
                return Ok(Exit::Unusable);
            }
        },
        Some(dir) => dir.to_path_buf(),
        None => std::env::current_dir().context("the current directory")?,
    };
    let beside = file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
    let secrets = secret_names(&plan_text);
    let request = RunRequest {
        plan_text,
        plan_path: Some(std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf())),
        vars,
    };
    execute(
        args,
        beside,
        &secrets,
        |engine, store, options| async move { engine.run(&store, request, options).await },
        workdir,
    )
}

pub fn resume(run_id: &str, args: &RunArgs) -> Result<Exit> {
    let Some(run_id) = resolve_run_id(run_id)? else { return Ok(Exit::Unusable) };
    let run_id = run_id.as_str();
    let (plan_text, _) = RunStore::open(&DataHome::from_env()?)?.plan(run_id)?;
    execute(
        args,
        PathBuf::from("."),
        &secret_names(&plan_text),
        |engine, store, options| {
            let run_id = run_id.to_owned();
            async move { engine.resume(&store, &run_id, options).await }
        },
        PathBuf::from("."),
    )
}

/// The secrets a plan declares (none when it does not read: the engine says why).
fn secret_names(plan_text: &str) -> Vec<String> {
    planwright_plan::load_plan(plan_text)
        .ok()
        .and_then(|loaded| loaded.plan)
        .map(|plan| plan.secrets)
        .unwrap_or_default()
}

/// Sets up the engine, the store, answers, Ctrl+C and the live display, then drives `start`.
/// `secrets` are the plan's: their values come from the environment, else from those stored.
fn execute<F, Fut>(args: &RunArgs, beside: PathBuf, secrets: &[String], start: F, workdir: PathBuf) -> Result<Exit>
where
    F: FnOnce(Engine, RunStore, RunOptions) -> Fut,
    Fut: std::future::Future<Output = std::result::Result<RunOutcome, EngineError>>,
{
    let reports = match args.reports.checked() {
        Ok(reports) => reports,
        Err(message) => {
            say(format_args!("planwright: {message}"));
            return Ok(Exit::Unusable);
        }
    };
    let answers: Arc<dyn AnswerSource> = match answer_source(args.inputs.as_deref()) {
        Ok(answers) => answers,
        Err(message) => {
            say(format_args!("planwright: {message}"));
            return Ok(Exit::Unusable);
        }
    };
    let home = DataHome::from_env()?;
    let store = RunStore::open(&home)?;
    let record = store.clone();
    let models = configured_models(&home);
    let secrets = planwright_api::RunSecrets::load(home.root(), KeyStore::from_env(), secrets);
    let plans = Arc::new(Designs::new(&args.designs).with_fallback_dir(beside));
    let engine = Engine::new(Arc::new(catalog(None)?), planwright_api::blocks(home.root()), plans);
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let exit = runtime.block_on(async {
        let stop = CancellationToken::new();
        let on_signal = stop.clone();
        let interrupted = interrupts().context("listening for Ctrl+C")?;
        tokio::spawn(async move {
            interrupted.await;
            eprintln!("planwright: stopping…");
            on_signal.cancel();
        });
        let (sender, mut receiver) = tokio::sync::mpsc::unbounded_channel::<Event>();
        let live = args.format == Format::Text;
        let display = tokio::spawn(async move {
            let terminal = std::io::stderr().is_terminal();
            while let Some(event) = receiver.recv().await {
                if live {
                    if let Some(line) = progress_line(&event, terminal) {
                        // Made plain inside: only its own colours reach the terminal.
                        eprintln!("{line}");
                    }
                }
            }
        });
        let options = RunOptions {
            workdir,
            secrets: Arc::new(secrets),
            answers,
            stop,
            events: Some(sender),
            browser: BrowserSettings::from_env(),
            models,
        };
        let outcome = start(engine, store, options).await;
        // Every event is shown before the outcome is.
        let _ = display.await;
        match outcome {
            Ok(outcome) => finish(&outcome, args, &reports, &record),
            Err(EngineError::Invalid(findings)) => {
                for finding in findings.iter().take(20) {
                    say(format_args!("planwright: {}: {} ({})", finding.code.as_str(), finding.message, finding.path));
                }
                eprintln!("planwright: the plan is invalid; `planwright validate` shows every finding with its line");
                Ok(Exit::Unusable)
            }
            Err(
                error @ (EngineError::Load(_)
                | EngineError::UnknownVar(..)
                | EngineError::MissingVars(..)
                | EngineError::Workdir(..)
                | EngineError::TableFileRows(..)
                | EngineError::NotResumable(..)),
            ) => {
                say(format_args!("planwright: {error}"));
                Ok(Exit::Unusable)
            }
            Err(error @ EngineError::MissingSecrets(_)) => {
                say(format_args!("planwright: {error}, or store them in the studio's run check (Run → Start)"));
                Ok(Exit::Unusable)
            }
            Err(error) => Err(error.into()),
        }
    });
    // The run has ended and is recorded: a block still stuck in blocking work (a read that never
    // returns) is left behind rather than keeping the process alive.
    runtime.shutdown_background();
    exit
}

fn finish(outcome: &RunOutcome, args: &RunArgs, reports: &Reports, store: &RunStore) -> Result<Exit> {
    let counts = outcome.counts;
    match args.format {
        Format::Json => print(&crate::render::json(&serde_json::json!({
            "run_id": outcome.run_id, "status": outcome.status, "counts": counts, "reason": outcome.reason,
        })))?,
        Format::Text => {
            let reason = outcome.reason.as_deref().map_or(String::new(), |r| format!(": {r}"));
            let models = match counts.model_calls {
                0 => String::new(),
                calls => format!("; {calls} model call(s), {} + {} tokens", counts.input_tokens, counts.output_tokens),
            };
            print(&format!(
                "run {} {}{reason}\n  {} succeeded, {} failed, {} skipped, {} retries{models}\n",
                outcome.run_id,
                status_word(outcome.status),
                counts.succeeded,
                counts.failed,
                counts.skipped,
                counts.retried
            ))?;
            if outcome.status == RunStatus::WaitingForInput {
                print(&format!("  answer with --inputs answers.yaml, then: planwright resume {}\n", outcome.run_id))?;
            }
        }
    }
    // The outcome is printed first, so that a report that cannot be written never hides the
    // run's id or how to resume it.
    let written = reports.write(store, &outcome.run_id);
    if let Err(error) = &written {
        say(format_args!("planwright: {error:#}"));
    }
    Ok(match outcome.status {
        // A run that failed or waits says so whatever became of its reports.
        RunStatus::Succeeded if written.is_err() => Exit::ReportUnwritten,
        RunStatus::Succeeded => Exit::Ok,
        RunStatus::WaitingForInput => Exit::Waiting,
        _ => Exit::Invalid,
    })
}

fn status_word(status: RunStatus) -> &'static str {
    match status {
        RunStatus::Succeeded => "succeeded",
        RunStatus::Failed => "failed",
        RunStatus::Stopped => "stopped",
        RunStatus::WaitingForInput => "is waiting for input",
        RunStatus::Interrupted => "was interrupted",
        RunStatus::Running => "is running",
    }
}

/// One line per node event, for people watching a run; coloured marks in a terminal, words
/// otherwise (for logs and CI).
fn progress_line(event: &Event, terminal: bool) -> Option<String> {
    let line = |mark: &str, word: &str, color: &str, text: String| {
        let text = plain(&text);
        if terminal {
            format!("\x1b[{color}m{mark}\x1b[0m {text}")
        } else {
            format!("{word:<7} {text}")
        }
    };
    Some(match &event.kind {
        EventKind::NodeStarted { node, attempt: 1, .. } => line("…", "start", "2", node.clone()),
        EventKind::NodeFinished { node, elapsed_ms, .. } => {
            line("✓", "done", "32", format!("{node} ({elapsed_ms} ms)"))
        }
        EventKind::NodeFailed { node, error, continued, .. } => {
            line("✗", "failed", "31", format!("{node}: {error}{}", if *continued { " (continuing)" } else { "" }))
        }
        EventKind::NodeRetried { node, attempt, backoff_ms, error, .. } => {
            line("↻", "retry", "33", format!("{node}: attempt {attempt} failed ({error}); retrying in {backoff_ms} ms"))
        }
        EventKind::NodeSkipped { node, reason, .. } => line("–", "skipped", "2", format!("{node}: {reason}")),
        EventKind::InputRequested { node, .. } => line("?", "input", "36", format!("{node} asks for input")),
        EventKind::Log { node, message, .. } => {
            line("·", "log", "2", format!("{}: {message}", node.as_deref().unwrap_or("run")))
        }
        EventKind::Artifact { node, path, .. } => line("▣", "file", "2", format!("{node}: wrote {path}")),
        EventKind::ModelCall { node, model, error, input_tokens, output_tokens, latency_ms, .. } => {
            let outcome = match error {
                Some(error) => format!("failed: {error}"),
                None => format!("{input_tokens} + {output_tokens} tokens"),
            };
            line("◆", "model", "35", format!("{node}: {model}, {outcome} ({latency_ms} ms)"))
        }
        _ => return None,
    })
}

/// The model `ai.*` blocks use, from the environment, `.env`, the settings file and the keys the
/// studio stored. Broken model settings do not stop plans that need no model: they are
/// reported, and model blocks then fail.
fn configured_models(home: &DataHome) -> Option<Arc<dyn planwright_llm::LlmClient>> {
    let services = ModelServices::load(home.root(), KeyStore::from_env());
    if let Some(problem) = services.problem() {
        say(format_args!("planwright: {problem} (AI steps will fail; `planwright doctor` checks them)"));
    }
    services.client()
}

/// `--var k=v`: v is read as a YAML scalar, so numbers and booleans keep their type.
fn parse_vars(vars: &[String]) -> std::result::Result<Map<String, Value>, String> {
    let mut parsed = Map::new();
    for var in vars {
        let Some((name, text)) = var.split_once('=') else {
            return Err(format!("--var {var:?}: write it as name=value"));
        };
        let value = match serde_yaml::from_str::<Value>(text) {
            Ok(value @ (Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_))) => value,
            // Lists, mappings and YAML errors: the text as given.
            _ => Value::String(text.to_owned()),
        };
        parsed.insert(name.trim().to_owned(), value);
    }
    Ok(parsed)
}

/// Answers: from `--inputs` when given; else from the terminal when there is one; else nobody.
fn answer_source(inputs: Option<&Path>) -> std::result::Result<Arc<dyn AnswerSource>, String> {
    if let Some(path) = inputs {
        let answers: HashMap<String, Value> = match read_yaml("--inputs", path)? {
            Value::Object(map) => map.into_iter().collect(),
            Value::Null => HashMap::new(),
            _ => return Err(format!("--inputs {}: a map of node id → answer is expected", path.display())),
        };
        return Ok(Arc::new(GivenAnswers(answers)));
    }
    if std::io::stdin().is_terminal() && std::io::stderr().is_terminal() {
        return Ok(Arc::new(TerminalAnswers));
    }
    Ok(Arc::new(NoAnswers))
}

pub fn list(format: Format) -> Result<Exit> {
    // Asked first, while this process has one thread: the local offset is unknowable after.
    let offset = time::UtcOffset::current_local_offset().ok();
    let store = RunStore::open(&DataHome::from_env()?)?;
    let runs = store.list()?;
    match format {
        Format::Json => print(&crate::render::json(&runs))?,
        Format::Text => print(&runs_table(&runs, offset))?,
    }
    Ok(Exit::Ok)
}

/// A run's status in words; a run that succeeded with a step not passed (a browser step's
/// objectives unmet) is not called a success.
fn status_words(run: &planwright_runs::RunSummary) -> String {
    match (run.status, run.counts.not_passed) {
        (planwright_runs::RunStatus::Succeeded, n) if n > 0 => "finished, not passed".to_owned(),
        (status, _) => status.words().to_owned(),
    }
}

/// The runs as a table with a header, columns aligned to their widest value, start times in
/// local time (UTC, said so, when the local offset is unknown).
fn runs_table(runs: &[planwright_runs::RunSummary], offset: Option<time::UtcOffset>) -> String {
    if runs.is_empty() {
        return "no runs recorded yet; start one with `planwright run PLAN.yaml`\n".into();
    }
    let started = |at: &str| crate::render::local_time(at, offset);
    let header = [
        "RUN ID",
        "PLAN",
        "STATUS",
        if offset.is_some() { "STARTED" } else { "STARTED (UTC)" },
        "DONE",
        "FAILED",
        "SKIPPED",
    ];
    let rows: Vec<[String; 7]> = runs
        .iter()
        .map(|run| {
            [
                run.run_id.clone(),
                run.plan_id.clone(),
                status_words(run),
                started(&run.started_at),
                run.counts.succeeded.to_string(),
                run.counts.failed.to_string(),
                run.counts.skipped.to_string(),
            ]
        })
        .collect();
    let mut widths = header.map(|h| h.chars().count());
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |cells: [&str; 7]| {
        let mut out = String::new();
        for (i, (cell, width)) in cells.iter().zip(widths).enumerate() {
            let pad = width.saturating_sub(cell.chars().count());
            // Counts are right-aligned, the rest left; no padding after the last column.
            if i >= 4 {
                out.push_str(&" ".repeat(pad));
                out.push_str(cell);
            } else {
                out.push_str(cell);
                out.push_str(&" ".repeat(pad));
            }
            if i < 6 {
                out.push_str("  ");
            }
        }
        out.push('\n');
        out
    };
    let mut out = line(header);
    for row in &rows {
        out.push_str(&line(row.each_ref().map(String::as_str)));
    }
    out.push_str(&format!("{} run(s)\n", runs.len()));
    out
}

/// `planwright runs show`: the run's summary and events (and, as text, each runner node's
/// planning history), and the reports asked for, written from the record.
pub fn show(run_id: &str, format: Format, reports: &ReportArgs) -> Result<Exit> {
    let reports = match reports.checked() {
        Ok(reports) => reports,
        Err(message) => {
            say(format_args!("planwright: {message}"));
            return Ok(Exit::Unusable);
        }
    };
    let Some(run_id) = resolve_run_id(run_id)? else { return Ok(Exit::Unusable) };
    let run_id = run_id.as_str();
    let store = RunStore::open(&DataHome::from_env()?)?;
    let summary = store.summary(run_id)?;
    let events = store.events(run_id)?;
    let (plan_text, _) = store.plan(run_id)?;
    let record = RunRecord::from_events(plan_text, &events);
    match format {
        Format::Json => print(&crate::render::json(&serde_json::json!({ "summary": summary, "events": events })))?,
        Format::Text => {
            let mut out = format!("run {} of {} — {}\n", summary.run_id, summary.plan_id, status_words(&summary));
            for event in &events {
                if let Some(line) = progress_line(event, false) {
                    out.push_str(&format!("  {:>4} {}  {line}\n", event.seq, event.at));
                }
            }
            out.push_str(&crate::planning::text(&record));
            print(&out)?;
        }
    }
    if let Err(error) = reports.write_record(&record) {
        say(format_args!("planwright: {error:#}"));
        return Ok(Exit::ReportUnwritten);
    }
    Ok(Exit::Ok)
}

/// The full id of the run `id` names, whole or by a unique prefix; `None` (said on stderr) when
/// it names no run or several.
fn resolve_run_id(id: &str) -> Result<Option<String>> {
    let store = RunStore::open(&DataHome::from_env()?)?;
    match store.resolve_id(id) {
        Ok(run_id) => Ok(Some(run_id)),
        Err(error @ (StoreError::NotFound { .. } | StoreError::AmbiguousId { .. })) => {
            say(format_args!("planwright: {error}"));
            Ok(None)
        }
        Err(error) => Err(error.into()),
    }
}

/// Ctrl+C, listened for from now on. `tokio::signal::ctrl_c()` listens only once first polled: a
/// Ctrl+C before the task awaiting it ran would end the process the default way, its run left
/// recorded as running (seen under load in the Ctrl+C test).
fn interrupts() -> std::io::Result<impl std::future::Future<Output = ()>> {
    #[cfg(unix)]
    let mut signal = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())?;
    #[cfg(windows)]
    let mut signal = tokio::signal::windows::ctrl_c()?;
    Ok(async move {
        signal.recv().await;
    })
}

#[cfg(test)]
mod tests {
    use planwright_runs::{Counts, RunStatus, RunSummary};

    use super::runs_table;

    fn summary(run_id: &str, plan_id: &str, status: RunStatus, failed: u64) -> RunSummary {
        RunSummary {
            run_id: run_id.into(),
            plan_id: plan_id.into(),
            status,
            started_at: "2026-11-27T00:30:00.000Z".into(),
            finished_at: None,
            counts: Counts { succeeded: 12, failed, ..Counts::default() },
        }
    }

    #[test]
    fn the_runs_table_has_a_header_aligned_columns_and_local_times() {
        let mut unmet = summary("0194ab-3", "portal", RunStatus::Succeeded, 0);
        unmet.counts.not_passed = 1;
        let runs = [
            summary("0194ab-1", "monthly_invoices", RunStatus::WaitingForInput, 0),
            summary("0194ab-2", "qa", RunStatus::Failed, 3),
            unmet,
        ];
        let text = runs_table(&runs, time::UtcOffset::from_hms(9, 0, 0).ok());
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("RUN ID    PLAN              STATUS                STARTED"), "{text}");
        assert!(lines[1].contains("monthly_invoices  waiting for input     2026-11-27 09:30:00"), "{text}");
        assert!(lines[2].contains("qa                failed                2026-11-27 09:30:00"), "{text}");
        // Each column starts at the same place on every line.
        let status_at = lines[0].find("STATUS").unwrap();
        assert_eq!(lines[2].find("failed"), Some(status_at));
        assert!(lines[2].ends_with("12       3        0"), "{text}");
        assert!(lines[3].contains("portal            finished, not passed"), "{text}");
        assert_eq!(lines[4], "3 run(s)");
        assert!(runs_table(&runs, None).starts_with("RUN ID    PLAN              STATUS                STARTED (UTC)"));
        assert!(runs_table(&[], None).contains("no runs recorded yet"));
    }
}
