//! `planwright bench objectives`: the objective runner on the fixture task suite, side by side
//! in one run with `tools/playwright/objectives.mjs` — a hand-written playwright-core program
//! that already knows every locator (the floor): success, objectives, actions and recovery
//! steps per task, time per objective and the ratio to the script, offline and on a cached
//! re-run, with the passes and reflections the planning layer took; then, with a scripted model
//! deciding every action, model calls and tokens per step, and the tokens the planning layer
//! (plan, requirements, reflections, satisfaction) adds to the seed 004 loop alone, measured
//! side by side with planning on and off.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use planwright_catalog::Catalog;
use planwright_engine::{BrowserSettings, Engine, NoAnswers, RunOptions, RunRequest, SecretSource};
use planwright_llm::{LlmClient, Provider, Secret, Settings};
use planwright_llm_replay::{Match, ReplayServer, Reply, Script};
use planwright_objectives::resolve::{Op, ValueKind};
use planwright_objectives::ActionCache;
use planwright_runs::{DataHome, Event, EventKind, RunStore};
use planwright_sites::tasks::{tasks, Task};
use planwright_sites::FixtureSites;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use tokio_util::sync::CancellationToken;

use super::browser::{median, Pair};

/// One line of `objectives.mjs`.
#[derive(Deserialize)]
struct ScriptLine {
    id: String,
    ok: bool,
    ms: f64,
}

/// One run of a task by the runner.
#[derive(Debug, Clone, Serialize)]
pub struct RunnerRun {
    pub ok: bool,
    pub wrong: Vec<String>,
    /// From the browser's start to the last objective's end: opening the start page included,
    /// the browser's launch not (the script starts from a launched browser too).
    pub ms: f64,
    /// From the browser's start to the node's end: the last objective's screenshot kept as its
    /// evidence and the request judged, which the script does not do.
    pub node_ms: f64,
    pub objectives: usize,
    pub actions: usize,
    pub recoveries: usize,
    pub replayed: usize,
    pub model_calls: usize,
    /// Passes over the task, reflections and revisions (0 with planning off).
    pub iterations: u64,
    pub reflections: u64,
    pub revisions: u64,
    /// Effects the site recorded more often than the task asks (`Task::repeated_effects`): a
    /// form sent twice, a payment made twice. Must be 0.
    pub repeated_effects: u64,
}

#[derive(Debug, Serialize)]
pub struct TaskRow {
    pub id: String,
    pub family: String,
    /// From the held-out part of the suite (never tuned on).
    pub held_out: bool,
    pub offline: RunnerRun,
    pub cached: RunnerRun,
    pub script_ok: bool,
    /// The task is meant to succeed (the impossible task and the false check are not).
    pub happy: bool,
    /// Medians over the rounds, milliseconds.
    pub offline_ms: f64,
    pub cached_ms: f64,
    pub offline_node_ms: f64,
    pub cached_node_ms: f64,
    pub script_ms: f64,
    pub offline_ratio: f64,
    pub cached_ratio: f64,
    /// Repeated effects over every round, offline and cached.
    pub offline_repeated_effects: u64,
    pub cached_repeated_effects: u64,
}

#[derive(Debug, Serialize)]
pub struct ModelRow {
    pub id: String,
    pub ok: bool,
    pub wrong: Vec<String>,
    /// The task is meant to succeed (the happy path).
    pub happy: bool,
    pub objectives: usize,
    /// Calls and o200k_base tokens (prompt and answer) per objective that asked the model.
    pub calls: Vec<usize>,
    pub tokens: Vec<usize>,
    /// The task's tokens with planning off (seed 004's loop alone) and on, and of the planning
    /// calls alone in the run with planning on.
    pub tokens_loop: usize,
    pub tokens_planned: usize,
    pub tokens_planning: usize,
    /// The run with planning on ended as expected.
    pub planned_ok: bool,
    /// The planning calls' tokens by question (schema name).
    pub planning_by_question: std::collections::BTreeMap<String, usize>,
    /// From the held-out part of the suite.
    pub held_out: bool,
    /// Repeated effects of both runs (planning off and on).
    pub repeated_effects: u64,
}

/// The figures of one part of the suite — the tasks the runner was tuned on, or the held-out
/// ones — reported apart.
#[derive(Debug, Serialize)]
pub struct PartFigures {
    pub tasks: usize,
    /// Tasks ending as expected, offline, cached and with the scripted model deciding.
    pub offline_success: f64,
    pub cached_success: f64,
    pub model_success: f64,
    /// Effects done more often than the tasks ask, summed over every run. Must be 0.
    pub offline_repeated_effects: u64,
    pub cached_repeated_effects: u64,
    pub model_repeated_effects: u64,
    /// Time to declare failure of the tasks meant to fail (the impossible task, the false
    /// check): from the browser's start to the node's end, milliseconds, p50 and p95 over those
    /// tasks' medians; NaN when the part has none.
    pub offline_time_to_fail_ms: (f64, f64),
    pub cached_time_to_fail_ms: (f64, f64),
    /// The part's totals of the medians against the script's, and over the tasks meant to succeed.
    pub offline_total: Pair,
    pub offline_total_happy: Pair,
}

#[derive(Debug, Serialize)]
pub struct ObjectivesBench {
    pub rounds: usize,
    pub instant: bool,
    pub tasks: Vec<TaskRow>,
    /// Tasks ending as expected (the server's record, the outputs), offline and cached.
    pub offline_success: f64,
    pub cached_success: f64,
    pub script_success: f64,
    /// Milliseconds per objective, p50 and p95 over the tasks.
    pub offline_per_objective_ms: (f64, f64),
    pub cached_per_objective_ms: (f64, f64),
    pub script_per_objective_ms: (f64, f64),
    /// Suite totals of the medians, and their ratio.
    pub offline_total: Pair,
    pub cached_total: Pair,
    /// The same over the tasks meant to succeed: a task designed to fail waits to be sure that
    /// nothing more is coming, where the script knows it at once.
    pub offline_total_happy: Pair,
    pub cached_total_happy: Pair,
    /// The same to the node's end.
    pub offline_node_total_happy: Pair,
    pub cached_node_total_happy: Pair,
    /// The worst task's ratio.
    pub offline_worst_ratio: f64,
    pub cached_worst_ratio: f64,
    pub cached_model_calls: usize,
    pub model: Vec<ModelRow>,
    pub model_success: f64,
    /// p95 over the objectives that asked the model.
    pub model_tokens_per_step_p95: f64,
    pub model_calls_per_objective_max: usize,
    /// The same over the tasks meant to succeed.
    pub model_calls_per_objective_happy_max: usize,
    /// Offline, with planning on: passes and reflections per task (mean, max).
    pub iterations_per_task: (f64, u64),
    pub reflections_per_task: (f64, u64),
    /// In model mode: what planning adds to the loop's tokens over the suite, and its worst task.
    pub planning_overhead: f64,
    pub planning_overhead_worst: f64,
    /// The suite's figures for the tuned part and the held-out part apart.
    pub tuned: PartFigures,
    pub held_out: PartFigures,
}

struct Secrets(HashMap<String, String>);

impl SecretSource for Secrets {
    fn secret(&self, name: &str) -> Option<String> {
        self.0.get(name).cloned()
    }
}

pub fn run(rounds: usize, instant: bool, tools: &Path) -> Result<ObjectivesBench> {
    let runtime =
        tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the async runtime")?;
    runtime.block_on(measure(rounds, instant, tools))
}

async fn measure(rounds: usize, instant: bool, tools: &Path) -> Result<ObjectivesBench> {
    if !tools.join("node_modules/playwright-core").is_dir() {
        bail!("playwright-core is not installed in {}: run `npm ci --prefix {}`", tools.display(), tools.display());
    }
    let suite = tasks();
    let sites = FixtureSites::start().await.context("starting the fixture sites")?;
    let mut script_ms: HashMap<String, Vec<f64>> = HashMap::new();
    let mut script_ok: HashMap<String, bool> = HashMap::new();
    let mut offline: HashMap<String, Vec<RunnerRun>> = HashMap::new();
    let mut cached: HashMap<String, Vec<RunnerRun>> = HashMap::new();
    let mut homes: HashMap<String, tempfile::TempDir> = HashMap::new();
    // Rounds alternate the script and the runner, so that a slow spell weighs on both.
    for _ in 0..rounds {
        for line in script_round(&sites, instant, tools).await? {
            script_ok.entry(line.id.clone()).and_modify(|ok| *ok &= line.ok).or_insert(line.ok);
            script_ms.entry(line.id).or_default().push(line.ms);
        }
        for task in &suite {
            let home = tempfile::tempdir()?;
            sites.reset();
            let first = run_task(&sites, task, instant, home.path(), None, false).await?;
            offline.entry(task.id.clone()).or_default().push(first);
            sites.reset();
            let again = run_task(&sites, task, instant, home.path(), None, false).await?;
            cached.entry(task.id.clone()).or_default().push(again);
            homes.insert(task.id.clone(), home);
        }
    }
    let model = model_mode(&sites, &suite, instant, &homes).await?;

    let mut rows = Vec::new();
    for task in &suite {
        let runs = |all: &HashMap<String, Vec<RunnerRun>>| all.get(&task.id).cloned().unwrap_or_default();
        let (first, again) = (runs(&offline), runs(&cached));
        let script = median(script_ms.get(&task.id).map(Vec::as_slice).unwrap_or_default());
        let offline_ms = median(&first.iter().map(|r| r.ms).collect::<Vec<_>>());
        let cached_ms = median(&again.iter().map(|r| r.ms).collect::<Vec<_>>());
        let node_ms = |runs: &[RunnerRun]| median(&runs.iter().map(|r| r.node_ms).collect::<Vec<_>>());
        let repeated = |runs: &[RunnerRun]| runs.iter().map(|r| r.repeated_effects).sum();
        rows.push(TaskRow {
            id: task.id.clone(),
            family: task.family.clone(),
            held_out: task.held_out,
            offline_repeated_effects: repeated(&first),
            cached_repeated_effects: repeated(&again),
            offline: worst(&first),
            cached: worst(&again),
            script_ok: script_ok.get(&task.id).copied().unwrap_or(false),
            happy: task.expect_passed,
            offline_ms,
            cached_ms,
            offline_node_ms: node_ms(&first),
            cached_node_ms: node_ms(&again),
            script_ms: script,
            offline_ratio: offline_ms / script,
            cached_ratio: cached_ms / script,
        });
    }
    let share = |ok: usize| ok as f64 / rows.len().max(1) as f64;
    let per_objective = |f: &dyn Fn(&TaskRow) -> f64| {
        let values: Vec<f64> = rows.iter().map(|r| f(r) / r.offline.objectives.max(1) as f64).collect();
        (percentile(&values, 0.5), percentile(&values, 0.95))
    };
    let tokens: Vec<f64> = model.iter().flat_map(|m| m.tokens.iter().map(|t| *t as f64)).collect();
    let per_task = |f: &dyn Fn(&RunnerRun) -> u64| {
        let values: Vec<u64> = rows.iter().map(|r| f(&r.offline)).collect();
        (values.iter().sum::<u64>() as f64 / values.len().max(1) as f64, values.iter().copied().max().unwrap_or(0))
    };
    let overhead = |on: usize, off: usize| if off == 0 { 0.0 } else { on as f64 / off as f64 - 1.0 };
    Ok(ObjectivesBench {
        tuned: part(&rows, &model, false),
        held_out: part(&rows, &model, true),
        iterations_per_task: per_task(&|r| r.iterations),
        reflections_per_task: per_task(&|r| r.reflections),
        planning_overhead: overhead(
            model.iter().map(|m| m.tokens_planned).sum(),
            model.iter().map(|m| m.tokens_loop).sum(),
        ),
        planning_overhead_worst: model.iter().map(|m| overhead(m.tokens_planned, m.tokens_loop)).fold(0.0, f64::max),
        rounds,
        instant,
        offline_success: share(rows.iter().filter(|r| r.offline.ok).count()),
        cached_success: share(rows.iter().filter(|r| r.cached.ok).count()),
        script_success: share(rows.iter().filter(|r| r.script_ok).count()),
        offline_per_objective_ms: per_objective(&|r| r.offline_ms),
        cached_per_objective_ms: per_objective(&|r| r.cached_ms),
        script_per_objective_ms: per_objective(&|r| r.script_ms),
        offline_total: total(rows.iter(), false, |r| r.offline_ms),
        cached_total: total(rows.iter(), false, |r| r.cached_ms),
        offline_total_happy: total(rows.iter(), true, |r| r.offline_ms),
        cached_total_happy: total(rows.iter(), true, |r| r.cached_ms),
        offline_node_total_happy: total(rows.iter(), true, |r| r.offline_node_ms),
        cached_node_total_happy: total(rows.iter(), true, |r| r.cached_node_ms),
        offline_worst_ratio: rows.iter().map(|r| r.offline_ratio).fold(0.0, f64::max),
        cached_worst_ratio: rows.iter().map(|r| r.cached_ratio).fold(0.0, f64::max),
        cached_model_calls: rows.iter().map(|r| r.cached.model_calls).sum(),
        model_success: model.iter().filter(|m| m.ok).count() as f64 / model.len().max(1) as f64,
        model_tokens_per_step_p95: percentile(&tokens, 0.95),
        model_calls_per_objective_max: model.iter().flat_map(|m| m.calls.iter().copied()).max().unwrap_or(0),
        model_calls_per_objective_happy_max: model
            .iter()
            .filter(|m| m.happy)
            .flat_map(|m| m.calls.iter().copied())
            .max()
            .unwrap_or(0),
        model,
        tasks: rows,
    })
}

/// The figures of the held-out part (`held_out`) or of the tuned one.
fn part(rows: &[TaskRow], model: &[ModelRow], held_out: bool) -> PartFigures {
    let rows: Vec<&TaskRow> = rows.iter().filter(|r| r.held_out == held_out).collect();
    let model: Vec<&ModelRow> = model.iter().filter(|m| m.held_out == held_out).collect();
    let share = |ok: usize, of: usize| ok as f64 / of.max(1) as f64;
    let to_fail = |ms: &dyn Fn(&TaskRow) -> f64| {
        let values: Vec<f64> = rows.iter().filter(|r| !r.happy).map(|r| ms(r)).collect();
        (percentile(&values, 0.5), percentile(&values, 0.95))
    };
    PartFigures {
        tasks: rows.len(),
        offline_success: share(rows.iter().filter(|r| r.offline.ok).count(), rows.len()),
        cached_success: share(rows.iter().filter(|r| r.cached.ok).count(), rows.len()),
        model_success: share(model.iter().filter(|m| m.ok && m.planned_ok).count(), model.len()),
        offline_repeated_effects: rows.iter().map(|r| r.offline_repeated_effects).sum(),
        cached_repeated_effects: rows.iter().map(|r| r.cached_repeated_effects).sum(),
        model_repeated_effects: model.iter().map(|m| m.repeated_effects).sum(),
        offline_time_to_fail_ms: to_fail(&|r| r.offline_node_ms),
        cached_time_to_fail_ms: to_fail(&|r| r.cached_node_ms),
        offline_total: total(rows.iter().copied(), false, |r| r.offline_ms),
        offline_total_happy: total(rows.iter().copied(), true, |r| r.offline_ms),
    }
}

/// The run that did worst among a task's runs (a failure, else the slowest), for the table.
fn worst(runs: &[RunnerRun]) -> RunnerRun {
    runs.iter()
        .max_by(|a, b| (!a.ok, a.ms).partial_cmp(&(!b.ok, b.ms)).unwrap_or(std::cmp::Ordering::Equal))
        .cloned()
        .unwrap_or(RunnerRun {
            ok: false,
            wrong: vec!["not run".into()],
            ms: f64::NAN,
            node_ms: f64::NAN,
            objectives: 0,
            actions: 0,
            recoveries: 0,
            replayed: 0,
            model_calls: 0,
            iterations: 0,
            reflections: 0,
            revisions: 0,
            repeated_effects: 0,
        })
}

fn percentile(values: &[f64], p: f64) -> f64 {
    let mut sorted: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    sorted.sort_by(f64::total_cmp);
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

async fn script_round(sites: &FixtureSites, instant: bool, tools: &Path) -> Result<Vec<ScriptLine>> {
    let script = tools.join("objectives.mjs");
    let base = sites.url("").trim_end_matches('/').to_owned();
    let output = tokio::task::spawn_blocking(move || {
        let mut command = Command::new("node");
        command.arg(script).arg(base);
        if instant {
            command.arg("--instant");
        }
        command.output()
    })
    .await?
    .context("running node (install Node.js 20 or newer)")?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<ScriptLine> = stdout.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    if lines.is_empty() {
        bail!("objectives.mjs printed no task: {}", String::from_utf8_lossy(&output.stderr));
    }
    Ok(lines)
}

async fn run_task(
    sites: &FixtureSites,
    task: &Task,
    instant: bool,
    home: &Path,
    models: Option<Arc<dyn LlmClient>>,
    model_first: bool,
) -> Result<RunnerRun> {
    let store = RunStore::open(&DataHome::at(home))?;
    let engine = Engine::new(
        Arc::new(Catalog::bundled()?),
        planwright_api::blocks(home),
        Arc::new(planwright_designs::Designs::new(home.join("designs"))),
    );
    let workdir = tempfile::tempdir()?;
    let options = RunOptions {
        workdir: workdir.path().to_owned(),
        secrets: Arc::new(Secrets(task.secrets.clone())),
        answers: Arc::new(NoAnswers),
        stop: CancellationToken::new(),
        events: None,
        browser: BrowserSettings::default(),
        models,
    };
    let request = RunRequest {
        plan_text: task.plan(&sites.url(&task.start_path(instant)), model_first),
        plan_path: None,
        vars: Map::new(),
    };
    let outcome = engine.run(&store, request, options).await?;
    let events = store.events(&outcome.run_id)?;
    // A page records with a request that may still be on its way.
    tokio::time::sleep(Duration::from_millis(150)).await;
    Ok(summarise(task, &events, &sites.state()))
}

/// Sums of the medians, ours against the script's, over every task or the happy ones.
fn total<'a>(
    rows: impl Iterator<Item = &'a TaskRow> + Clone,
    happy_only: bool,
    ours: impl Fn(&TaskRow) -> f64,
) -> Pair {
    let rows = rows.filter(|r| r.happy || !happy_only);
    Pair::new(rows.clone().map(&ours).sum(), rows.map(|r| r.script_ms).sum())
}

fn summarise(task: &Task, events: &[Event], state: &Value) -> RunnerRun {
    let outputs = events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::NodeFinished { outputs, .. } => Some(outputs.clone()),
            // A task the runner could not complete fails the node, its report with it.
            EventKind::NodeFailed { outputs: Some(outputs), .. } => Some(outputs.clone()),
            _ => None,
        })
        .unwrap_or(Value::Null);
    let objective_event = |e: &Event| match &e.kind {
        EventKind::Progress { progress, .. } => {
            serde_json::to_value(progress).ok().filter(|p| p["kind"] == "objective")
        }
        _ => None,
    };
    let recovered = events.iter().filter_map(objective_event).any(|p| p["change"] == "recovery_inserted");
    let wrong = task.mismatches(&outputs, state, recovered);
    let at = |e: &Event| time::OffsetDateTime::parse(&e.at, &time::format_description::well_known::Rfc3339).ok();
    // From the browser's start (its log line) to the last objective's end: its last change other
    // than the screenshot kept as evidence (which the task loop awaits before judging); and to
    // the node's end.
    let started = events
        .iter()
        .find(|e| matches!(&e.kind, EventKind::Log { message, .. } if message.starts_with("started ")))
        .and_then(at);
    let ended =
        events.iter().rev().find(|e| objective_event(e).is_some_and(|p| p["change"] != "evidence_kept")).and_then(at);
    let finished = events
        .iter()
        .rev()
        .find(|e| matches!(e.kind, EventKind::NodeFinished { .. } | EventKind::NodeFailed { .. }))
        .and_then(at);
    let since_start = |end: Option<time::OffsetDateTime>| match (started, end) {
        (Some(a), Some(b)) => (b - a).as_seconds_f64() * 1000.0,
        _ => f64::NAN,
    };
    let steps = outputs["report"]["progress"]["objective_steps"].as_array().cloned().unwrap_or_default();
    let objectives = steps.iter().filter(|s| s["step_type"] == "objective");
    RunnerRun {
        ok: wrong.is_empty(),
        wrong,
        ms: since_start(ended),
        node_ms: since_start(finished),
        objectives: objectives.clone().count(),
        actions: objectives.map(|s| s["executed_actions"].as_array().map_or(0, Vec::len)).sum(),
        recoveries: steps.iter().filter(|s| s["step_type"] == "recovery").count(),
        replayed: outputs["report"]["replayed_from_cache"].as_u64().unwrap_or(0) as usize,
        model_calls: events.iter().filter(|e| matches!(e.kind, EventKind::ModelCall { .. })).count(),
        iterations: outputs["report"]["iterations"].as_u64().unwrap_or(0),
        reflections: outputs["report"]["reflections"].as_u64().unwrap_or(0),
        revisions: outputs["report"]["revisions"].as_u64().unwrap_or(0),
        repeated_effects: task.repeated_effects(state),
    }
}

/// Every task with a scripted model deciding every action (`decide_first: model`): its answers
/// are the actions the offline runs cached — what a model that understood the page would say —
/// and a judgement that each objective is done; with planning on, the planning layer's questions
/// are answered with what the offline planner made of the task. Each task runs with planning off
/// (seed 004's loop alone) and on. Counts calls and o200k_base tokens (prompt and scripted
/// answer) per step and per task.
async fn model_mode(
    sites: &FixtureSites,
    suite: &[Task],
    instant: bool,
    homes: &HashMap<String, tempfile::TempDir>,
) -> Result<Vec<ModelRow>> {
    let tokenizer = tiktoken_rs::o200k_base().context("loading the o200k_base tokenizer")?;
    let count = |text: &str| tokenizer.encode_ordinary(text).len();
    let mut script = Script::new();
    // What each scripted answer costs, by the text that identifies the question.
    let mut answers: Vec<(String, usize)> = Vec::new();
    for task in suite {
        for (schema, key, reply) in planning_answers(task) {
            answers.push((format!("{schema}|{key}"), count(&reply.to_string())));
            script = script.always(Match::schema(schema).and(Match::user_contains(key)), Reply::json(&reply));
        }
    }
    let reflection = json!({"status": "partial", "evaluation": "The last actions changed the page as the step expected; the objective's own judgement will tell.", "plan_revision_needed": false});
    answers.push(("reflection|".into(), count(&reflection.to_string())));
    script = script.always(Match::schema("reflection"), Reply::json(&reflection));
    for home in homes.values() {
        let cache = ActionCache::open(&home.path().join(planwright_objectives::CACHE_FILE))?;
        for entry in cache.entries()? {
            let (objective, ops) = (entry.objective, entry.ops);
            let actions: Vec<Value> = ops.iter().filter_map(decision_of).collect();
            let decision = json!({"status": "act", "actions": actions, "reason": ""});
            let judgement = json!({"achieved": true, "evidence": "the page shows the objective done"});
            answers.push((format!("action_decision|{objective}"), count(&decision.to_string())));
            answers.push((format!("objective_judgement|{objective}"), count(&judgement.to_string())));
            script = script
                .always(Match::user_contains(format!("Current objective: {objective}\n")), Reply::json(&decision))
                .always(Match::user_contains(format!("Objective: {objective}\n")), Reply::json(&judgement));
        }
    }
    let server = ReplayServer::start(script).await;
    let settings = Settings {
        provider: Some(Provider::OpenAi { base_url: server.base_url(), api_key: Some(Secret::new("bench")) }),
        max_retries: 0,
        ..Settings::default()
    };
    let client = settings.client()?.context("a scripted model client")?;
    let mut rows = Vec::new();
    for task in suite {
        let mut spent = Vec::new();
        for planning in [false, true] {
            let mut task = task.clone();
            task.inputs.insert("planning".into(), json!(planning));
            let home = tempfile::tempdir()?;
            sites.reset();
            let before = server.requests().len();
            let run = run_task(sites, &task, instant, home.path(), Some(Arc::clone(&client)), true).await?;
            let mut per_objective: HashMap<String, (usize, usize)> = HashMap::new();
            let (mut total, mut planning_tokens) = (0, 0);
            let mut by_question = std::collections::BTreeMap::new();
            for request in server.requests().into_iter().skip(before) {
                let body = request.json().unwrap_or(Value::Null);
                let sent: String = body["messages"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|m| m["content"].as_str())
                    .collect::<Vec<_>>()
                    .join("\n");
                let schema = body["response_format"]["json_schema"]["name"].as_str().unwrap_or_default().to_owned();
                let user = request.last_user_message().unwrap_or_default();
                let answer = answers
                    .iter()
                    .filter(|(key, _)| key.split_once('|').is_some_and(|(s, text)| s == schema && user.contains(text)))
                    .map(|(_, tokens)| *tokens)
                    .max()
                    .unwrap_or(0);
                let tokens = count(&sent) + answer;
                total += tokens;
                let objective = user
                    .lines()
                    .find_map(|l| l.strip_prefix("Current objective: ").or_else(|| l.strip_prefix("Objective: ")));
                match objective {
                    Some(objective) if !PLANNING_SCHEMAS.contains(&schema.as_str()) => {
                        let entry = per_objective.entry(objective.to_owned()).or_default();
                        entry.0 += 1;
                        entry.1 += tokens;
                    }
                    _ => {
                        planning_tokens += tokens;
                        *by_question.entry(schema).or_insert(0) += tokens;
                    }
                }
            }
            spent.push((run, per_objective, total, planning_tokens, by_question));
        }
        let (planned, _, tokens_planned, tokens_planning, planning_by_question) =
            spent.pop().context("the planned run")?;
        let (run, per_objective, tokens_loop, ..) = spent.pop().context("the loop's run")?;
        let (calls, tokens): (Vec<usize>, Vec<usize>) = per_objective.into_values().unzip();
        rows.push(ModelRow {
            id: task.id.clone(),
            ok: run.ok,
            wrong: run.wrong.into_iter().chain(planned.wrong.iter().map(|w| format!("with planning: {w}"))).collect(),
            happy: task.expect_passed,
            objectives: run.objectives,
            calls,
            tokens,
            tokens_loop,
            tokens_planned,
            tokens_planning,
            planned_ok: planned.ok,
            planning_by_question,
            held_out: task.held_out,
            repeated_effects: run.repeated_effects + planned.repeated_effects,
        });
    }
    Ok(rows)
}

/// The structured questions of the planning layer and the task loop.
const PLANNING_SCHEMAS: [&str; 7] =
    ["task_plan", "requirements", "satisfaction", "reflection", "missing_information", "continuation", "analysis"];

/// The planning layer's questions about `task`, each with the text that identifies it and the
/// answer a model that understood the task would give: the offline planner's plan and
/// requirements, and every requirement satisfied.
fn planning_answers(task: &Task) -> Vec<(&'static str, String, Value)> {
    use planwright_objectives::planning::offline::{self, Limits, PlanInput};
    use planwright_objectives::planning::settings::DecompositionLevel;
    use planwright_objectives::progress::ObjectiveTransitions;
    let objectives = planwright_objectives::checklist::split_steps(&task.steps);
    let Some(first) = objectives.first().cloned() else { return Vec::new() };
    let progress = planwright_runs::objective::ObjectiveProgress::begin(task.steps.clone(), objectives);
    let placeholders = planwright_objectives::runner::placeholders_in(&task.steps);
    let plan = offline::plan(&PlanInput {
        progress: &progress,
        start_url: &task.start,
        placeholders: &placeholders,
        level: DecompositionLevel::Moderate,
        limits: Limits { max_attempts: 3, max_revisions: 3, max_iterations: 3 },
    });
    let subtasks: Vec<Value> = plan
        .task_decomposition
        .subtasks
        .iter()
        .map(|s| json!({"id": s.id, "dependencies": s.dependencies, "complexity": s.complexity, "success_criterion": s.success_criterion}))
        .collect();
    let requirements: Vec<Value> = plan
        .requirements
        .iter()
        .enumerate()
        .map(|(n, r)| json!({"requirement": r.requirement, "priority": r.priority, "objective": n + 1}))
        .collect();
    let scores: Vec<f64> = plan.requirements.iter().map(|_| 1.0).collect();
    vec![
        (
            "task_plan",
            first.clone(),
            json!({"main_objective": plan.goal_understanding.main_objective,
                   "constraints": ["stay on the start page's site"],
                   "reasoning": plan.task_decomposition.reasoning,
                   "subtasks": subtasks}),
        ),
        ("requirements", first.clone(), json!({"requirements": requirements})),
        (
            "satisfaction",
            first,
            json!({"overall_score": 1.0, "scores": scores, "missing_aspects": [],
                   "quality_assessment": "Every objective shows its evidence on the page.", "completion_recommendation": true}),
        ),
    ]
}

/// An operation as the decision a model would answer.
fn decision_of(op: &Op) -> Option<Value> {
    use planwright_browser::Locator;
    fn selector(locator: Option<&Locator>) -> (String, Value) {
        let mut selector = json!({"role": null, "name": null, "text": null, "testId": null, "near": null});
        let method = match locator {
            Some(Locator::Near { target, text }) => {
                let (method, inner) = selector_of(target);
                selector = inner;
                selector["near"] = json!(text);
                method
            }
            Some(other) => {
                let (method, inner) = selector_of(other);
                selector = inner;
                method
            }
            None => "none".to_owned(),
        };
        (method, selector)
    }
    fn selector_of(locator: &Locator) -> (String, Value) {
        let mut selector = json!({"role": null, "name": null, "text": null, "testId": null, "near": null});
        let method = match locator {
            Locator::Role { role, name, .. } => {
                selector["role"] = json!(role);
                selector["name"] = json!(name);
                "getByRole"
            }
            Locator::Text { text, .. } => {
                selector["text"] = json!(text);
                "getByText"
            }
            Locator::TestId { id } => {
                selector["testId"] = json!(id);
                "getByTestId"
            }
            Locator::Ref { .. } | Locator::Near { .. } => "none",
        };
        (method.to_owned(), selector)
    }
    let literal = |value: &str| json!({"kind": "literal", "value": value});
    let (action, value) = match op {
        Op::Click { .. } => ("click", Value::Null),
        Op::Fill { value, .. } => (
            "fill",
            json!({"kind": if value.kind == ValueKind::Placeholder { "placeholder" } else { "literal" }, "value": value.value}),
        ),
        Op::Select { option, .. } => ("select", literal(option)),
        Op::Check { on, .. } => (if *on { "check" } else { "uncheck" }, Value::Null),
        Op::Press { key, .. } => ("press", literal(key)),
        Op::Navigate { url } => ("navigate", literal(url)),
        Op::Hover { .. } => ("hover", Value::Null),
        Op::Scroll { down } => ("scroll", literal(if *down { "down" } else { "up" })),
        Op::Back => return None,
    };
    let (method, selector) = selector(op.locator());
    Some(
        json!({"method": method, "selector": selector, "action": action, "value": value, "confidence": 0.9, "rationale": "bench"}),
    )
}

pub fn render(bench: &ObjectivesBench) -> String {
    let mut out = format!(
        "objective runner on the fixture suite, {} round(s){}, release build: {}\n\n",
        bench.rounds,
        if bench.instant { ", ?instant=1" } else { ", real page delays" },
        if cfg!(debug_assertions) { "NO (debug build)" } else { "yes" }
    );
    out.push_str(
        "task                               obj  act  rec  pass  refl   offline ms  cached ms  script ms  ×script  ×cached  ok\n",
    );
    for r in &bench.tasks {
        out.push_str(&format!(
            "{:<34} {:>3} {:>4} {:>4} {:>5} {:>5} {:>12.0} {:>10.0} {:>10.0} {:>8.2} {:>8.2}  {}{}{}\n",
            r.id,
            r.offline.objectives,
            r.offline.actions,
            r.offline.recoveries,
            r.offline.iterations,
            r.offline.reflections,
            r.offline_ms,
            r.cached_ms,
            r.script_ms,
            r.offline_ratio,
            r.cached_ratio,
            if r.offline.ok && r.cached.ok { "yes" } else { "NO" },
            if r.script_ok { "" } else { " (script failed)" },
            if r.held_out { " (held out)" } else { "" }
        ));
        for wrong in r.offline.wrong.iter().chain(&r.cached.wrong) {
            out.push_str(&format!("    {wrong}\n"));
        }
    }
    let pct = |v: f64| v * 100.0;
    out.push_str(&format!(
        "\nsuccess: offline {:.0} %, cached {:.0} %, script {:.0} %\n",
        pct(bench.offline_success),
        pct(bench.cached_success),
        pct(bench.script_success)
    ));
    out.push_str(&format!(
        "ms per objective p50 / p95: offline {:.0} / {:.0}, cached {:.0} / {:.0}, script {:.0} / {:.0}\n",
        bench.offline_per_objective_ms.0,
        bench.offline_per_objective_ms.1,
        bench.cached_per_objective_ms.0,
        bench.cached_per_objective_ms.1,
        bench.script_per_objective_ms.0,
        bench.script_per_objective_ms.1
    ));
    out.push_str(&format!(
        "suite total: offline {:.0} ms ({:.2}× the script's {:.0} ms, worst task {:.2}×), cached {:.0} ms ({:.2}×, worst {:.2}×) with {} model calls\n",
        bench.offline_total.ours,
        bench.offline_total.ratio,
        bench.offline_total.playwright,
        bench.offline_worst_ratio,
        bench.cached_total.ours,
        bench.cached_total.ratio,
        bench.cached_worst_ratio,
        bench.cached_model_calls
    ));
    out.push_str(&format!(
        "tasks meant to succeed: offline {:.0} ms ({:.2}× the script's {:.0} ms), cached {:.0} ms ({:.2}×)\n",
        bench.offline_total_happy.ours,
        bench.offline_total_happy.ratio,
        bench.offline_total_happy.playwright,
        bench.cached_total_happy.ours,
        bench.cached_total_happy.ratio
    ));
    out.push_str(&format!(
        "the same to the node's end (the last screenshot kept, the request judged): offline {:.0} ms ({:.2}×), cached {:.0} ms ({:.2}×)\n",
        bench.offline_node_total_happy.ours,
        bench.offline_node_total_happy.ratio,
        bench.cached_node_total_happy.ours,
        bench.cached_node_total_happy.ratio
    ));
    for (name, part) in [("tuned part", &bench.tuned), ("held-out part", &bench.held_out)] {
        out.push_str(&render_part(name, part));
    }
    out.push_str(&format!(
        "planning (offline): passes per task {:.2} (at most {}), reflections per task {:.2} (at most {})\n",
        bench.iterations_per_task.0,
        bench.iterations_per_task.1,
        bench.reflections_per_task.0,
        bench.reflections_per_task.1
    ));
    out.push_str(
        "\nmodel mode: task                    obj  calls/objective max  tokens/objective max  loop tokens  planned tokens  planning  ok\n",
    );
    for m in &bench.model {
        out.push_str(&format!(
            "{:<34} {:>3} {:>20} {:>21} {:>12} {:>15} {:>8.0} %  {}\n",
            m.id,
            m.objectives,
            m.calls.iter().max().unwrap_or(&0),
            m.tokens.iter().max().unwrap_or(&0),
            m.tokens_loop,
            m.tokens_planned,
            pct(if m.tokens_loop == 0 { 0.0 } else { m.tokens_planned as f64 / m.tokens_loop as f64 - 1.0 }),
            if m.ok && m.planned_ok { "yes" } else { "NO" }
        ));
        for wrong in &m.wrong {
            out.push_str(&format!("    {wrong}\n"));
        }
    }
    out.push_str(&format!(
        "model mode (a scripted model decides every action): success {:.0} %, tokens per objective p95 {:.0}, at most {} calls per objective on the happy path ({} with the failing tasks)\n",
        pct(bench.model_success),
        bench.model_tokens_per_step_p95,
        bench.model_calls_per_objective_happy_max,
        bench.model_calls_per_objective_max
    ));
    let mut by_question: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for m in &bench.model {
        for (question, tokens) in &m.planning_by_question {
            *by_question.entry(question).or_insert(0) += tokens;
        }
    }
    let listed: Vec<String> = by_question.iter().map(|(q, t)| format!("{q} {t}")).collect();
    out.push_str(&format!("planning tokens over the suite by question: {}\n", listed.join(", ")));
    out.push_str(&format!(
        "planning + reflection add {:.0} % to the tokens of the seed 004 loop alone over the suite (worst task {:.0} %; target ≤ 30 %)\n",
        pct(bench.planning_overhead),
        pct(bench.planning_overhead_worst)
    ));
    out
}

/// One part's line: success, repeated effects, time to declare failure, ratio to the script.
fn render_part(name: &str, part: &PartFigures) -> String {
    let pct = |v: f64| v * 100.0;
    format!(
        "{name} ({} tasks): success offline {:.0} %, cached {:.0} %, model {:.0} %; repeated effects {} (cached {}, \
         model {}); time to declare failure p50 / p95: offline {:.0} / {:.0} ms, cached {:.0} / {:.0} ms; \
         {:.2}× the script ({:.2}× on the tasks meant to succeed)\n",
        part.tasks,
        pct(part.offline_success),
        pct(part.cached_success),
        pct(part.model_success),
        part.offline_repeated_effects,
        part.cached_repeated_effects,
        part.model_repeated_effects,
        part.offline_time_to_fail_ms.0,
        part.offline_time_to_fail_ms.1,
        part.cached_time_to_fail_ms.0,
        part.cached_time_to_fail_ms.1,
        part.offline_total.ratio,
        part.offline_total_happy.ratio
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A task's row with every run `ok` or not, its repeated effects, and the node's time.
    fn row(held_out: bool, happy: bool, ok: bool, node_ms: f64, repeated: u64) -> TaskRow {
        let run = RunnerRun { ok, node_ms, repeated_effects: repeated, ..worst(&[]) };
        TaskRow {
            id: "task".into(),
            family: "forms".into(),
            held_out,
            offline: run.clone(),
            cached: run,
            script_ok: true,
            happy,
            offline_ms: 1000.0,
            cached_ms: 500.0,
            offline_node_ms: node_ms,
            cached_node_ms: node_ms,
            script_ms: 500.0,
            offline_ratio: 2.0,
            cached_ratio: 1.0,
            offline_repeated_effects: repeated,
            cached_repeated_effects: 0,
        }
    }

    #[test]
    fn the_held_out_part_is_reported_apart_with_its_repeated_effects_and_time_to_declare_failure() {
        let rows = [
            row(false, true, true, 3000.0, 0),
            row(false, false, true, 2000.0, 0),
            row(true, true, false, 4000.0, 1),
            row(true, false, true, 9000.0, 0),
            row(true, false, true, 3000.0, 0),
            row(true, false, true, 5000.0, 0),
        ];
        let (tuned, held_out) = (part(&rows, &[], false), part(&rows, &[], true));
        assert_eq!((tuned.tasks, held_out.tasks), (2, 4));
        assert_eq!((tuned.offline_success, held_out.offline_success), (1.0, 0.75));
        assert_eq!((tuned.offline_repeated_effects, held_out.offline_repeated_effects), (0, 1));
        // Only the tasks meant to fail: 3000, 5000 and 9000 ms in the held-out part.
        assert_eq!(tuned.offline_time_to_fail_ms, (2000.0, 2000.0));
        assert_eq!(held_out.offline_time_to_fail_ms, (5000.0, 9000.0));
        assert_eq!(held_out.offline_total.ratio, 2.0);
        let line = render_part("held-out part", &held_out);
        assert!(line.starts_with("held-out part (4 tasks): success offline 75 %"), "{line}");
        assert!(
            line.contains("repeated effects 1 (cached 0") && line.contains("p50 / p95: offline 5000 / 9000 ms"),
            "{line}"
        );
        let json = serde_json::to_value(&held_out).unwrap();
        assert_eq!(json["offline_repeated_effects"], 1, "{json}");
        assert_eq!(json["offline_time_to_fail_ms"], serde_json::json!([5000.0, 9000.0]), "{json}");
    }
}
