//! The design engine's trial of a plan on the work folder's files: a plan that only reads, shapes
//! and writes tables is run offline, with no answers, on copies of the files it reads, in a folder
//! of its own, and the rows it wrote are counted. Nothing of the work folder is written.

use std::future::Future;
use std::path::{Component, Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;

use planwright_catalog::Catalog;
use planwright_design::trial::{Trial, TrialRun, Written};
use planwright_engine::{Engine, EnvSecrets, NoAnswers, RunOptions, RunRequest};
use planwright_plan::reference::var_named;
use planwright_plan::{Node, Plan, Root, Template};
use planwright_runs::{DataHome, RunStore};
use planwright_validate::NoPlans;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

/// The blocks a trial runs: they read files, shape tables and write files, and nothing else.
const READS: [&str; 2] = ["file.read_csv", "excel.read_data"];
const WRITES: [&str; 2] = ["report.write", "excel.write"];
/// Input files larger than this together are not tried: a generation waits for its trial, and a
/// year's ledger is a run, not a check.
const MAX_TRIED_BYTES: u64 = 8 * 1024 * 1024;

pub struct WorkFolderTrial {
    root: PathBuf,
    engine: Engine,
}

impl WorkFolderTrial {
    pub fn new(root: impl Into<PathBuf>, catalog: Arc<Catalog>) -> WorkFolderTrial {
        WorkFolderTrial {
            root: root.into(),
            engine: Engine::new(catalog, planwright_blocks::builtin(), Arc::new(NoPlans)),
        }
    }

    async fn trial(&self, plan: &Plan) -> Option<Trial> {
        let tried = plan.graph.iter().all(|node| {
            node.block
                .as_deref()
                .is_some_and(|b| READS.contains(&b) || WRITES.contains(&b) || b.starts_with("transforms."))
                && node.when.is_none()
        });
        if !tried || plan.graph.is_empty() {
            return None;
        }
        let reads = plan.graph.iter().filter(|n| n.block.as_deref().is_some_and(|b| READS.contains(&b)));
        let files: Vec<PathBuf> = reads.map(|node| relative_file(&path_of(plan, node)?)).collect::<Option<_>>()?;
        let bytes: u64 = files
            .iter()
            .map(|file| std::fs::metadata(self.root.join(file)).map(|m| m.len()))
            .sum::<Result<_, _>>()
            .ok()?;
        if bytes > MAX_TRIED_BYTES {
            return None;
        }
        let home = tempfile::tempdir().ok()?;
        let work = home.path().join("work");
        for file in files {
            let to = work.join(&file);
            std::fs::create_dir_all(to.parent()?).ok()?;
            std::fs::copy(self.root.join(&file), &to).ok()?;
        }
        let store = RunStore::open(&DataHome::at(home.path())).ok()?;
        let request = RunRequest { plan_text: serde_json::to_string(plan).ok()?, plan_path: None, vars: Map::new() };
        let outcome = self.engine.run(&store, request, unattended(work)).await.ok()?;
        let outputs = store.finished_outputs(&outcome.run_id).ok()?;
        let rows_of = |value: &Value| -> Option<(usize, &[Value])> {
            let Ok(Template::Single(reference)) = value.as_str().map(Template::parse)? else { return None };
            let Root::Node(id) = &reference.root else { return None };
            table_of(outputs.get(id)?.get(reference.path.first()?)?)
        };
        let columns_of = |rows: &[Value]| rows.first().and_then(Value::as_object).map_or(0, |row| row.len());
        let mut trial = Trial::default();
        for node in &plan.graph {
            let Some(block) = node.block.as_deref() else { continue };
            let file = || path_of(plan, node);
            if READS.contains(&block) {
                trial.rows_read += table_of(outputs.get(&node.id)?.get("rows")?)?.0;
            } else if block == "report.write" {
                let (rows, first) = rows_of(node.inputs.get("data")?)?;
                trial.written.push(Written { file: file()?, rows, columns: Some(columns_of(first)) });
            } else if block == "excel.write" {
                let sheets: Vec<(usize, &[Value])> =
                    node.inputs.get("sheets")?.as_object()?.values().map(rows_of).collect::<Option<_>>()?;
                let rows = sheets.iter().map(|(rows, _)| rows).sum();
                let columns = match sheets.as_slice() {
                    [(_, only)] => Some(columns_of(only)),
                    _ => None,
                };
                trial.written.push(Written { file: file()?, rows, columns });
            }
        }
        Some(trial)
    }
}

/// A node's rows as recorded: their count, and the first of them (a large table's record keeps a
/// preview).
fn table_of(value: &Value) -> Option<(usize, &[Value])> {
    match planwright_engine::recorded_table(value) {
        Some(table) => Some((table.rows, table.preview)),
        None => value.as_array().map(|rows| (rows.len(), rows.as_slice())),
    }
}

impl TrialRun for WorkFolderTrial {
    fn try_plan<'a>(&'a self, plan: &'a Plan) -> Pin<Box<dyn Future<Output = Option<Trial>> + Send + 'a>> {
        Box::pin(self.trial(plan))
    }
}

/// How a plan is run with nobody there: offline, no answers, secrets only from the environment.
pub fn unattended(workdir: PathBuf) -> RunOptions {
    RunOptions {
        workdir,
        secrets: Arc::new(EnvSecrets),
        answers: Arc::new(NoAnswers),
        stop: CancellationToken::new(),
        events: None,
        browser: Default::default(),
        models: None,
    }
}

/// A step's `path`: written in the step, or the default of the var it names.
fn path_of(plan: &Plan, node: &Node) -> Option<String> {
    let path = node.inputs.get("path")?.as_str()?;
    if let Some(var) = var_named(path) {
        return plan.vars.get(&var)?.as_str().map(str::to_owned);
    }
    match Template::parse(path).ok()? {
        Template::Literal(path) => Some(path),
        _ => None,
    }
}

/// A path inside the work folder: relative, never above it.
fn relative_file(path: &str) -> Option<PathBuf> {
    let path = Path::new(path);
    path.components().all(|c| matches!(c, Component::Normal(_))).then(|| path.to_owned())
}
