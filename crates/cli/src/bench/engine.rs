//! `planwright bench engine`: the engine's overhead per node, with the record's write cost
//! (SQLite and JSONL) measured apart.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{ensure, Context, Result};
use planwright_engine::{Engine, EnvSecrets, NoAnswers, RunOptions, RunRequest};
use planwright_runs::{DataHome, Event, RunStatus, RunStore};
use planwright_validate::NoPlans;
use serde::Serialize;
use tokio::sync::mpsc::UnboundedSender;
use tokio_util::sync::CancellationToken;

#[derive(Serialize)]
pub struct EngineRow {
    pub case: &'static str,
    pub node_runs: u64,
    pub total_ms: f64,
    /// Time spent writing the record (SQLite + JSONL).
    pub record_ms: f64,
    /// Everything else: scheduling, resolving inputs, running the (trivial) blocks, events.
    pub engine_ms: f64,
    pub engine_us_per_node: f64,
    pub record_us_per_node: f64,
}

/// 1,000 trivial nodes, each reading the one before and one further back; a foreach over
/// 10,000 items with a one-node body. Medians of `repeat` runs, each in a fresh data home.
pub fn run(repeat: usize) -> Result<Vec<EngineRow>> {
    let runtime = tokio::runtime::Runtime::new()?;
    let cases: [(&'static str, String); 2] =
        [("1,000 trivial nodes", chain(1000)), ("foreach over 10,000 items", foreach(10_000))];
    let mut rows = Vec::new();
    for (case, plan) in cases {
        let mut samples = Vec::new();
        for _ in 0..repeat {
            let bench = BenchHome::new()?;
            let request = RunRequest { plan_text: plan.clone(), plan_path: None, vars: Default::default() };
            let started = Instant::now();
            let outcome = runtime
                .block_on(bench.engine.run(&bench.store, request, bench.options(CancellationToken::new(), None)))
                .context("running the benchmark plan")?;
            let total = started.elapsed();
            ensure!(outcome.status == RunStatus::Succeeded, "{case}: {:?}", outcome.reason);
            samples.push((total, outcome.recording, outcome.counts.succeeded));
        }
        samples.sort_by_key(|s| s.0);
        let (total, record, nodes) = samples[samples.len() / 2];
        let engine = total.saturating_sub(record);
        rows.push(EngineRow {
            case,
            node_runs: nodes,
            total_ms: ms(total),
            record_ms: ms(record),
            engine_ms: ms(engine),
            engine_us_per_node: engine.as_secs_f64() * 1e6 / nodes as f64,
            record_us_per_node: record.as_secs_f64() * 1e6 / nodes as f64,
        });
    }
    Ok(rows)
}

/// How long a run takes to end after its stop token is cancelled, while a node waits on a
/// server that never answers. Median of `repeat` stops, in milliseconds.
pub fn stop_latency(repeat: usize) -> Result<f64> {
    let runtime = tokio::runtime::Runtime::new()?;
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    let plan = header()
        + &format!(
            "graph:\n  - id: wait\n    block: external.api.http\n    in: {{url: \"http://{}/never\", timeout_sec: 600}}\n",
            listener.local_addr()?
        );
    let mut samples = Vec::new();
    for _ in 0..repeat {
        let bench = BenchHome::new()?;
        let stop = CancellationToken::new();
        let (sender, mut events) = tokio::sync::mpsc::unbounded_channel();
        let options = bench.options(stop.clone(), Some(sender));
        let request = RunRequest { plan_text: plan.clone(), plan_path: None, vars: Default::default() };
        let (engine, store) = (bench.engine.clone(), bench.store.clone());
        let latency = runtime.block_on(async {
            let run = tokio::spawn(async move { engine.run(&store, request, options).await });
            // Stop once the node is running.
            while let Some(event) = events.recv().await {
                if matches!(event.kind, planwright_runs::EventKind::NodeStarted { .. }) {
                    break;
                }
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
            let stopped = Instant::now();
            stop.cancel();
            let outcome = run.await;
            (stopped.elapsed(), outcome)
        });
        let (elapsed, outcome) = latency;
        let status = outcome.context("the run task")?.context("the run")?.status;
        ensure!(status == RunStatus::Stopped, "the run ended {status:?}, not stopped");
        samples.push(elapsed);
    }
    samples.sort();
    Ok(ms(samples[samples.len() / 2]))
}

/// A fresh data home and work directory in the temp folder, with an engine; removed on drop.
struct BenchHome {
    home: PathBuf,
    work: PathBuf,
    store: RunStore,
    engine: Engine,
}

impl BenchHome {
    fn new() -> Result<BenchHome> {
        let home = std::env::temp_dir().join(format!("planwright-bench-{}", planwright_runs::new_run_id()));
        let work = home.join("work");
        std::fs::create_dir_all(&work)?;
        let store = RunStore::open(&DataHome::at(&home))?;
        let engine =
            Engine::new(Arc::new(crate::commands::catalog(None)?), planwright_blocks::builtin(), Arc::new(NoPlans));
        Ok(BenchHome { home, work, store, engine })
    }

    fn options(&self, stop: CancellationToken, events: Option<UnboundedSender<Event>>) -> RunOptions {
        RunOptions {
            workdir: self.work.clone(),
            secrets: Arc::new(EnvSecrets),
            answers: Arc::new(NoAnswers),
            stop,
            events,
            browser: Default::default(),
            models: None,
        }
    }
}

impl Drop for BenchHome {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.home);
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn header() -> String {
    "apiVersion: planwright/v1\nid: engine_bench\nversion: 1.0.0\n".to_owned()
}

fn chain(nodes: usize) -> String {
    let mut plan = header() + "graph:\n";
    for i in 0..nodes {
        let source = match i {
            0 => "{v: 0}".to_owned(),
            _ => format!("{{prev: \"${{n{}.v}}\", back: \"${{n{}.v}}\", v: {i}}}", i - 1, i / 2),
        };
        plan.push_str(&format!(
            "  - id: n{i}\n    block: transforms.pick\n    in: {{source: {source}, path: v}}\n    out: {{value: v}}\n"
        ));
    }
    plan
}

fn foreach(items: usize) -> String {
    let list: Vec<String> = (0..items).map(|i| i.to_string()).collect();
    header()
        + &format!(
            "vars:\n  items: [{}]\ngraph:\n  - id: each\n    foreach: {{input: \"${{vars.items}}\", max_concurrency: 8}}\n    body:\n      plan:\n        graph:\n          - id: pick\n            block: transforms.pick\n            in: {{source: {{x: \"${{vars.item}}\"}}, path: x}}\n            out: {{value: x}}\n    out: {{collect: xs}}\n",
            list.join(", ")
        )
}
