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
    AnswerSource, BrowserSettings, Engine, EngineError, EnvSecrets, GivenAnswers, NoAnswers, RunOptions, RunOutcome,
    RunRequest,
};
use planwright_reports::RunRecord;
use planwright_runs::{DataHome, Event, EventKind, RunStatus, RunStore};
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use crate::commands::{catalog, print, Exit};
use crate::reports::{ReportArgs, Reports};
use crate::terminal::TerminalAnswers;
use crate::Format;

/// What `run` and `resume` share.
#[derive(clap::Args, Clone)]
pub struct RunArgs {
    /// Answers for human-input nodes: a YAML map of node id → answer.
    #[arg(long, value_name = "FILE")]
    inputs: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    #[command(flatten)]
    reports: ReportArgs,
    /// Folder of registered plans, where `call.plan_id` is looked up.
    #[arg(long, value_name = "DIR", default_value = "designs")]
    designs: PathBuf,
}

pub fn run(file: &Path, vars: &[String], workdir: Option<&Path>, args: &RunArgs) -> Result<Exit> {
    let plan_text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("planwright: cannot read {}: {error}", file.display());
            return Ok(Exit::Unusable);
        }
    };
    let vars = match parse_vars(vars) {
        Ok(vars) => vars,
        Err(message) => {
            eprintln!("planwright: {message}");
            return Ok(Exit::Unusable);
        }
    };
    let workdir = match workdir {
        Some(dir) if !dir.exists() => match std::fs::create_dir_all(dir) {
            Ok(()) => {
                eprintln!("planwright: created the work directory {}", dir.display());
                dir.to_path_buf()
            }
            Err(error) => {
                eprintln!("planwright: --workdir {}: cannot create it: {error}", dir.display());
                return Ok(Exit::Unusable);
            }
        },
        Some(dir) => dir.to_path_buf(),
        None => std::env::current_dir().context("the current directory")?,
    };
    let beside = file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
    let request = RunRequest {
        plan_text,
        plan_path: Some(std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf())),
        vars,
    };
    execute(args, beside, |engine, store, options| async move { engine.run(&store, request, options).await }, workdir)
}

pub fn resume(run_id: &str, args: &RunArgs) -> Result<Exit> {
    execute(
        args,
        PathBuf::from("."),
        |engine, store, options| {
            let run_id = run_id.to_owned();
            async move { engine.resume(&store, &run_id, options).await }
        },
        PathBuf::from("."),
    )
}

/// Sets up the engine, the store, answers, Ctrl+C and the live display, then drives `start`.
fn execute<F, Fut>(args: &RunArgs, beside: PathBuf, start: F, workdir: PathBuf) -> Result<Exit>
where
    F: FnOnce(Engine, RunStore, RunOptions) -> Fut,
    Fut: std::future::Future<Output = std::result::Result<RunOutcome, EngineError>>,
{
    let reports = match args.reports.checked() {
        Ok(reports) => reports,
        Err(message) => {
            eprintln!("planwright: {message}");
            return Ok(Exit::Unusable);
        }
    };
    let answers: Arc<dyn AnswerSource> = match answer_source(args.inputs.as_deref()) {
        Ok(answers) => answers,
        Err(message) => {
            eprintln!("planwright: {message}");
            return Ok(Exit::Unusable);
        }
    };
    let home = DataHome::from_env()?;
    let store = RunStore::open(&home)?;
    let record = store.clone();
    let models = configured_models(&home);
    let plans = Arc::new(Designs::new(&args.designs).with_fallback_dir(beside));
    let engine = Engine::new(Arc::new(catalog(None)?), planwright_api::blocks(home.root()), plans);
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let exit = runtime.block_on(async {
        let stop = CancellationToken::new();
        let on_signal = stop.clone();
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                eprintln!("planwright: stopping…");
                on_signal.cancel();
            }
        });
        let (sender, mut receiver) = tokio::sync::mpsc::unbounded_channel::<Event>();
        let live = args.format == Format::Text;
        let display = tokio::spawn(async move {
            let terminal = std::io::stderr().is_terminal();
            while let Some(event) = receiver.recv().await {
                if live {
                    if let Some(line) = progress_line(&event, terminal) {
                        eprintln!("{line}");
                    }
                }
            }
        });
        let options = RunOptions {
            workdir,
            secrets: Arc::new(EnvSecrets),
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
                    eprintln!("planwright: {}: {} ({})", finding.code.as_str(), finding.message, finding.path);
                }
                eprintln!("planwright: the plan is invalid; `planwright validate` shows every finding with its line");
                Ok(Exit::Unusable)
            }
            Err(
                error @ (EngineError::Load(_)
                | EngineError::UnknownVar(..)
                | EngineError::Workdir(..)
                | EngineError::NotResumable(..)),
            ) => {
                eprintln!("planwright: {error}");
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
    if let Err(error) = reports.write(store, &outcome.run_id) {
        eprintln!("planwright: {error:#}");
        return Ok(Exit::Unusable);
    }
    Ok(match outcome.status {
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
        EventKind::NodeRetried { node, attempt, backoff_ms, error } => {
            line("↻", "retry", "33", format!("{node}: attempt {attempt} failed ({error}); retrying in {backoff_ms} ms"))
        }
        EventKind::NodeSkipped { node, reason } => line("–", "skipped", "2", format!("{node}: {reason}")),
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
        eprintln!("planwright: {problem} (AI steps will fail; `planwright doctor` checks them)");
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
        let text = std::fs::read_to_string(path).map_err(|e| format!("--inputs {}: {e}", path.display()))?;
        let answers: HashMap<String, Value> = serde_yaml::from_str(&text)
            .map_err(|e| format!("--inputs {}: a map of node id → answer is expected: {e}", path.display()))?;
        return Ok(Arc::new(GivenAnswers(answers)));
    }
    if std::io::stdin().is_terminal() && std::io::stderr().is_terminal() {
        return Ok(Arc::new(TerminalAnswers));
    }
    Ok(Arc::new(NoAnswers))
}

pub fn list(format: Format) -> Result<Exit> {
    let store = RunStore::open(&DataHome::from_env()?)?;
    let runs = store.list()?;
    match format {
        Format::Json => print(&crate::render::json(&runs))?,
        Format::Text => {
            let mut out = String::new();
            for run in &runs {
                out.push_str(&format!(
                    "{}  {:<24} {:<18} {}  ✓{} ✗{} –{}\n",
                    run.run_id,
                    run.plan_id,
                    run.status.words(),
                    run.started_at,
                    run.counts.succeeded,
                    run.counts.failed,
                    run.counts.skipped
                ));
            }
            out.push_str(&format!("{} run(s)\n", runs.len()));
            print(&out)?;
        }
    }
    Ok(Exit::Ok)
}

/// `planwright runs show`: the run's summary and events (and, as text, each runner node's
/// planning history), and the reports asked for, written from the record.
pub fn show(run_id: &str, format: Format, reports: &ReportArgs) -> Result<Exit> {
    let reports = match reports.checked() {
        Ok(reports) => reports,
        Err(message) => {
            eprintln!("planwright: {message}");
            return Ok(Exit::Unusable);
        }
    };
    let store = RunStore::open(&DataHome::from_env()?)?;
    let summary = match store.summary(run_id) {
        Ok(summary) => summary,
        Err(error) => {
            eprintln!("planwright: {error}");
            return Ok(Exit::Unusable);
        }
    };
    let events = store.events(run_id)?;
    let (plan_text, _) = store.plan(run_id)?;
    let record = RunRecord::from_events(plan_text, &events);
    match format {
        Format::Json => print(&crate::render::json(&serde_json::json!({ "summary": summary, "events": events })))?,
        Format::Text => {
            let mut out = format!("run {} of {} — {}\n", summary.run_id, summary.plan_id, summary.status.words());
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
        eprintln!("planwright: {error:#}");
        return Ok(Exit::Unusable);
    }
    Ok(Exit::Ok)
}

/// `planwright cache show` (with a format) and `cache clear` (without).
pub fn cache(show: Option<Format>) -> Result<Exit> {
    let home = DataHome::from_env()?;
    let path = home.root().join(planwright_objectives::CACHE_FILE);
    let cache = planwright_objectives::ActionCache::open(&path)?;
    match show {
        Some(Format::Json) => print(&crate::render::json(
            &serde_json::json!({"objectives": cache.len()?, "file": path.display().to_string()}),
        ))?,
        Some(Format::Text) => {
            print(&format!("{} objective(s) with cached actions in {}\n", cache.len()?, path.display()))?
        }
        None => print(&format!("forgot the cached actions of {} objective(s)\n", cache.clear()?))?,
    }
    Ok(Exit::Ok)
}
