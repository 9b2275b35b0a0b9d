//! What the runner's tests share: the task suite of `assets/sites/objectives/tasks.json`, and a
//! task run whole — a one-node plan of `browser.run_objectives` through the real engine, a real
//! run store and real Chromium against fresh fixture sites — with what the site server recorded.

#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use futures::FutureExt;
use planwright_catalog::Catalog;
use planwright_engine::{
    AnswerSource, BrowserSettings, Engine, NoAnswers, RunOptions, RunOutcome, RunRequest, SecretSource,
};
use planwright_runs::{DataHome, Event, EventKind, InputRequest, RunStore};
use planwright_sites::FixtureSites;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

pub use planwright_sites::tasks::{tasks, Task};

pub fn task(id: &str) -> Task {
    tasks().into_iter().find(|t| t.id == id).unwrap_or_else(|| panic!("no task {id}"))
}

struct Secrets(HashMap<String, String>);

impl SecretSource for Secrets {
    fn secret(&self, name: &str) -> Option<String> {
        self.0.get(name).cloned()
    }
}

/// A task's run: the engine's outcome, the events recorded, the node's outputs, what the site
/// server recorded, and the data home (for the node's records).
pub struct TaskRun {
    pub outcome: RunOutcome,
    pub events: Vec<Event>,
    pub outputs: Value,
    pub state: Value,
    pub home: tempfile::TempDir,
    pub workdir: tempfile::TempDir,
}

/// Runs `task` on fresh sites (`?instant=1` when `instant`), with `home` as the data home and
/// the model `models`.
pub async fn run_task(
    task: &Task,
    instant: bool,
    home: tempfile::TempDir,
    models: Option<Arc<dyn planwright_llm::LlmClient>>,
) -> TaskRun {
    run_task_on(&FixtureSites::start().await.unwrap(), task, instant, home, models).await
}

/// [`run_task`] on `sites`, as they are (a second run on the same sites and data home shares
/// the first one's action cache: the origin is part of its key).
pub async fn run_task_on(
    sites: &FixtureSites,
    task: &Task,
    instant: bool,
    home: tempfile::TempDir,
    models: Option<Arc<dyn planwright_llm::LlmClient>>,
) -> TaskRun {
    let plan = task.plan(&sites.url(&task.start_path(instant)), false);
    run_plan_on(sites, &task.id, &plan, &task.secrets, home, models, Arc::new(NoAnswers)).await
}

/// The real model client, pointed at the scripted model server.
pub fn client(server: &planwright_llm_replay::ReplayServer) -> Arc<dyn planwright_llm::LlmClient> {
    let settings = planwright_llm::Settings {
        provider: Some(planwright_llm::Provider::OpenAi {
            base_url: server.base_url(),
            api_key: Some(planwright_llm::Secret::new("sk-test")),
        }),
        timeout: std::time::Duration::from_secs(20),
        max_retries: 0,
        ..planwright_llm::Settings::default()
    };
    settings.client().unwrap().unwrap()
}

/// A person who answers the run's questions from a list, in order, and keeps what was asked;
/// `None` once the list is spent (the run then waits).
#[derive(Default)]
pub struct Person {
    answers: Mutex<Vec<Value>>,
    pub asked: Mutex<Vec<InputRequest>>,
}

impl Person {
    pub fn answering(answers: Vec<Value>) -> Arc<Person> {
        let mut answers = answers;
        answers.reverse();
        Arc::new(Person { answers: Mutex::new(answers), asked: Mutex::default() })
    }

    pub fn asked(&self) -> Vec<InputRequest> {
        self.asked.lock().unwrap().clone()
    }
}

impl AnswerSource for Person {
    fn answer<'a>(
        &'a self,
        _node: &'a str,
        request: &'a InputRequest,
        _errors: &'a [planwright_block::FieldError],
    ) -> BoxFuture<'a, Option<Value>> {
        self.asked.lock().unwrap().push(request.clone());
        let answer = self.answers.lock().unwrap().pop();
        async move { answer }.boxed()
    }
}

/// Runs `plan` (its node `task` is the one whose outputs are read) on `sites` with `answers`
/// answering its questions.
pub async fn run_plan_on(
    sites: &FixtureSites,
    id: &str,
    plan: &str,
    secrets: &HashMap<String, String>,
    home: tempfile::TempDir,
    models: Option<Arc<dyn planwright_llm::LlmClient>>,
    answers: Arc<dyn AnswerSource>,
) -> TaskRun {
    let store = RunStore::open(&DataHome::at(home.path())).unwrap();
    let engine = Engine::new(
        Arc::new(Catalog::bundled().unwrap()),
        planwright_api::blocks(home.path()),
        Arc::new(planwright_designs::Designs::new(home.path().join("designs"))),
    );
    let workdir = tempfile::tempdir().unwrap();
    let options = RunOptions {
        workdir: workdir.path().to_owned(),
        secrets: Arc::new(Secrets(secrets.clone())),
        answers,
        stop: CancellationToken::new(),
        events: None,
        browser: BrowserSettings::default(),
        models,
    };
    let request = RunRequest { plan_text: plan.to_owned(), plan_path: None, vars: Map::new() };
    let outcome = engine.run(&store, request, options).await.unwrap_or_else(|e| panic!("{id}: {e}"));
    let events = store.events(&outcome.run_id).unwrap();
    let outputs = events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::NodeFinished { node, outputs, .. } if node == "task" => Some(outputs.clone()),
            // A task it could not complete fails the node, its report with it.
            EventKind::NodeFailed { node, outputs: Some(outputs), .. } if node == "task" => Some(outputs.clone()),
            _ => None,
        })
        .unwrap_or(Value::Null);
    let state = sites.state();
    TaskRun { outcome, events, outputs, state, home, workdir }
}

impl TaskRun {
    /// What the task expected and did not get, in words, with each step's note when it did
    /// not pass as expected (empty: the task did as expected).
    pub fn mismatches(&self, task: &Task) -> Vec<String> {
        let recovered = self.objective_changes().iter().any(|c| c == "recovery_inserted");
        let mut wrong = task.mismatches(&self.outputs, &self.state, recovered);
        if !wrong.is_empty() {
            wrong.push(self.notes());
        }
        wrong
    }

    /// The events the site server recorded for `action`, in order.
    pub fn recorded(&self, action: &str) -> Vec<Value> {
        self.state["events"].as_array().into_iter().flatten().filter(|e| e["action"] == action).cloned().collect()
    }

    /// Each step's status and note, for a failure message.
    pub fn notes(&self) -> String {
        self.outputs["report"]["steps"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|s| format!("[{} {} ×{}: {}]", s["number"], s["status"], s["attempts"], s["note"]))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The `change` of every objective progress event, in order.
    pub fn objective_changes(&self) -> Vec<String> {
        self.events
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Progress { progress, .. } => serde_json::to_value(progress).ok(),
                _ => None,
            })
            .filter(|p| p["kind"] == "objective")
            .filter_map(|p| p["change"].as_str().map(str::to_owned))
            .collect()
    }

    /// The node's record folder (steps.jsonl, evidence).
    pub fn records(&self) -> std::path::PathBuf {
        let log = std::fs::read_dir(self.home.path().join("runs"))
            .unwrap()
            .flatten()
            .flat_map(|plan| std::fs::read_dir(plan.path()).unwrap().flatten())
            .map(|e| e.path())
            .find(|p| p.file_name().is_some_and(|n| *n == *format!("{}.jsonl", self.outcome.run_id)))
            .unwrap();
        log.with_extension("").join("task")
    }
}

/// Every file under `dir`, at any depth.
pub fn files_under(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(files_under(&path));
        } else {
            files.push(path);
        }
    }
    files
}
