//! `planwright bench`: speed measurements that docs/benchmarks.md reports.

mod browser;
mod child_usage;
mod documents;
mod engine;
mod generate;
mod hostile;
mod jobs;
mod objectives;
mod retrieval;
mod tables;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::Subcommand;
use planwright_plan::load_plan;
use planwright_validate::{dry_run_validated, validate_loaded, NoPlans};
use serde_json::json;

use crate::commands::{catalog, print, Exit};
use crate::render;
use crate::Format;

#[derive(Subcommand)]
pub enum BenchCommand {
    /// Load, validate and dry-run generated plans of several sizes.
    Validate {
        /// Plan sizes in nodes (loop bodies included).
        #[arg(long, value_delimiter = ',', default_value = "100,1000,10000")]
        nodes: Vec<usize>,
        /// Timed repetitions per size; the median is reported.
        #[arg(long, default_value_t = 21)]
        repeat: usize,
        /// Text for people, or JSON for tools.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        /// Also write each generated plan to this folder (to inspect it or time the CLI on it).
        #[arg(long, value_name = "DIR")]
        write_plans: Option<PathBuf>,
    },
    /// The engine's overhead per node: 1,000 trivial nodes, and a foreach over 10,000 items,
    /// with the record's write cost (SQLite + JSONL) measured apart.
    Engine {
        /// Runs per case; the median is reported.
        #[arg(long, default_value_t = 3)]
        repeat: usize,
        /// Text for people, or JSON for tools.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Our browser driver against playwright-core in the same Chromium on the fixture pages:
    /// snapshot time and tokens, click and fill, cold launch. Needs Node.js and
    /// `npm ci --prefix tools/playwright`.
    Browser {
        /// Timed repetitions of each measure per round; medians are reported.
        #[arg(long, default_value_t = 10)]
        repeat: usize,
        /// Rounds, alternating Playwright and ours; samples are pooled.
        #[arg(long, default_value_t = 3)]
        rounds: usize,
        /// Text for people, or JSON for tools.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        /// Where the Playwright reference scripts are.
        #[arg(long, value_name = "DIR", default_value = "tools/playwright")]
        tools: PathBuf,
    },
    /// The objective runner on the fixture task suite beside `tools/playwright/objectives.mjs`
    /// (a program that knows every locator): success, actions, recovery steps, time per
    /// objective and the ratio to the script, offline and on a cached re-run, passes and
    /// reflections per task; then tokens and model calls per step with a scripted model deciding
    /// every action, and the tokens planning adds (planning on against off). Needs Node.js and
    /// `npm ci --prefix tools/playwright`.
    Objectives {
        /// Rounds, alternating the script and the runner; medians are reported.
        #[arg(long, default_value_t = 2)]
        rounds: usize,
        /// Skip the pages' artificial delays (late banners and lists) on both sides.
        #[arg(long)]
        instant: bool,
        /// Text for people, or JSON for tools.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        /// Where the Playwright reference scripts are.
        #[arg(long, value_name = "DIR", default_value = "tools/playwright")]
        tools: PathBuf,
    },
    /// Block retrieval on the evaluation set (crates/retrieval/eval): recall per language at
    /// K per category, recall@5, mean results, and search latency. BM25 alone.
    Retrieval {
        /// Blocks per category, 5 to 8.
        #[arg(long, default_value_t = planwright_retrieval::DEFAULT_TOP_K)]
        top_k: usize,
        /// Timed searches per instruction.
        #[arg(long, default_value_t = 50)]
        repeat: usize,
        /// Text for people, or JSON for tools.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// The design engine judged by outcomes: each job of crates/design/eval/jobs.yaml designed
    /// and run offline and its written table compared with the expected one (job success, jobs
    /// asked, wrong-but-valid), by part (held out / tuned) and language; then on its block-F1
    /// evaluation sets (crates/design/eval: tuning and held-out): plans that validate and dry-run, node F1, slots carried (files, columns, thresholds,
    /// URLs), credentials moved out, time per generation; offline, then through the two model
    /// stages with a scripted model replaying the offline design. Lists the cases it gets wrong.
    Generate {
        /// Timed offline generations per instruction; the median is kept.
        #[arg(long, default_value_t = 5)]
        repeat: usize,
        /// Only the end-to-end jobs (crates/design/eval/jobs.yaml), not the block-F1 sets.
        #[arg(long)]
        jobs_only: bool,
        /// Only this job, with the plan designed for it and its reasoning (implies --jobs-only).
        #[arg(long, value_name = "ID")]
        job: Option<String>,
        /// Text for people, or JSON for tools.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Document extraction on a generated 100-page PDF, 10,000-row workbook and 200-page Word
    /// document, in process and through the worker process; `pdftotext` (poppler-utils) on the
    /// same PDF side by side when it is installed.
    Documents {
        /// Timed extractions per case; the median is reported.
        #[arg(long, default_value_t = 5)]
        repeat: usize,
        /// Text for people, or JSON for tools.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Tables at ledger scale: a four-node plan (read a CSV ledger, keep approved amounts of at
    /// least 100, total them per department, write a CSV) run by `planwright run` on generated
    /// ledgers, beside the same query in DuckDB (its Python package, installed from PyPI into a
    /// private environment in DIR the first time): wall time, peak memory, what the run added to
    /// its data home, and whether the totals agree to the cent.
    Tables {
        /// Ledger sizes in rows.
        #[arg(long, value_delimiter = ',', default_value = "10000,1000000,10000000")]
        rows: Vec<usize>,
        /// A process whose resident memory passes this many MiB is stopped and reported so.
        #[arg(long, default_value_t = 8192)]
        memory_limit_mib: u64,
        /// Where the ledgers, the data homes and the DuckDB environment go.
        #[arg(long, value_name = "DIR", default_value = "target/bench-tables")]
        dir: PathBuf,
        /// Text for people, or JSON for tools.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Run `planwright validate` on hostile files (alias bomb, deep nesting, huge strings,
    /// binary garbage): exit code, time and peak memory of each.
    Hostile {
        /// Text for people, or JSON for tools.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        /// Where to write the files while they are checked (removed afterwards).
        #[arg(long, value_name = "DIR", default_value = "target/hostile")]
        dir: PathBuf,
        /// Only write the files (the measuring process must not hold them; see hostile.rs).
        #[arg(long, hide = true)]
        write_only: bool,
    },
}

pub fn run(command: BenchCommand) -> Result<Exit> {
    match command {
        BenchCommand::Validate { nodes, repeat, format, write_plans } => {
            validate(&nodes, repeat.max(1), format, write_plans)
        }
        BenchCommand::Engine { repeat, format } => {
            let rows = engine::run(repeat.max(1))?;
            let output = match format {
                Format::Json => render::json(&rows),
                Format::Text => {
                    let mut out = medians_header(repeat);
                    out.push_str("case                          node runs   total ms  record ms  engine ms  engine µs/node  record µs/node\n");
                    for r in &rows {
                        out.push_str(&format!(
                            "{:<28} {:>10} {:>10.1} {:>10.1} {:>10.1} {:>15.1} {:>15.1}\n",
                            r.case,
                            r.node_runs,
                            r.total_ms,
                            r.record_ms,
                            r.engine_ms,
                            r.engine_us_per_node,
                            r.record_us_per_node
                        ));
                    }
                    out.push_str(&format!(
                        "stop → run ended (median of {repeat}): {:.1} ms\n",
                        engine::stop_latency(repeat.max(1))?
                    ));
                    out
                }
            };
            print(&output)?;
            Ok(Exit::Ok)
        }
        BenchCommand::Browser { repeat, rounds, format, tools } => {
            let bench = browser::run(repeat.max(1), rounds.max(1), &tools)?;
            let output = match format {
                Format::Json => render::json(&bench),
                Format::Text => browser::render(&bench),
            };
            print(&output)?;
            Ok(Exit::Ok)
        }
        BenchCommand::Objectives { rounds, instant, format, tools } => {
            let bench = objectives::run(rounds.max(1), instant, &tools)?;
            let output = match format {
                Format::Json => render::json(&bench),
                Format::Text => objectives::render(&bench),
            };
            print(&output)?;
            Ok(Exit::Ok)
        }
        BenchCommand::Retrieval { top_k, repeat, format } => {
            let bench = retrieval::run(top_k, repeat.max(1))?;
            let output = match format {
                Format::Json => render::json(&bench),
                Format::Text => retrieval::render(&bench, repeat.max(1)),
            };
            print(&output)?;
            Ok(Exit::Ok)
        }
        BenchCommand::Generate { repeat, format, jobs_only, job } => {
            let bench = generate::run(repeat.max(1), jobs_only, job.as_deref())?;
            let output = match format {
                Format::Json => render::json(&bench),
                Format::Text => generate::render(&bench),
            };
            print(&output)?;
            Ok(Exit::Ok)
        }
        BenchCommand::Documents { repeat, format } => {
            let bench = documents::run(repeat.max(1))?;
            let output = match format {
                Format::Json => render::json(&bench),
                Format::Text => documents::render(&bench, repeat.max(1)),
            };
            print(&output)?;
            Ok(Exit::Ok)
        }
        BenchCommand::Tables { rows, memory_limit_mib, dir, format } => {
            let bench = tables::run(&rows, &dir, memory_limit_mib)?;
            let output = match format {
                Format::Json => render::json(&bench),
                Format::Text => tables::render(&bench),
            };
            print(&output)?;
            Ok(Exit::Ok)
        }
        BenchCommand::Hostile { dir, write_only: true, .. } => {
            hostile::write_hostile(&dir)?;
            Ok(Exit::Ok)
        }
        BenchCommand::Hostile { format, dir, write_only: false } => {
            let exe = std::env::current_exe().context("finding the planwright executable")?;
            let rows = hostile::run_hostile(&exe, &dir)?;
            let output = match format {
                Format::Json => render::json(&rows),
                Format::Text => {
                    let mut out =
                        String::from("file                                  bytes  exit    ms  max RSS MiB  message\n");
                    for r in &rows {
                        out.push_str(&format!(
                            "{:<32} {:>11} {:>5} {:>5.0} {:>12.1}  {}\n",
                            r.name,
                            r.bytes,
                            r.exit_code,
                            r.millis,
                            r.max_rss_kib as f64 / 1024.0,
                            r.message
                        ));
                    }
                    out.push_str(&format!("slowest: {:.2} s\n", hostile::slowest(&rows).as_secs_f64()));
                    out
                }
            };
            print(&output)?;
            Ok(Exit::Ok)
        }
    }
}

struct Row {
    nodes: usize,
    bytes: usize,
    load: Duration,
    validate: Duration,
    dry_run: Duration,
}

fn validate(sizes: &[usize], repeat: usize, format: Format, write_plans: Option<PathBuf>) -> Result<Exit> {
    let catalog = catalog(None)?;
    let mut rows = Vec::new();
    for &nodes in sizes {
        let text = generated_plan(nodes);
        if let Some(dir) = &write_plans {
            std::fs::create_dir_all(dir)?;
            std::fs::write(dir.join(format!("bench_{nodes}.yaml")), &text).context("writing the generated plan")?;
        }
        let (mut load, mut check, mut dry) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..repeat {
            let start = Instant::now();
            let loaded = load_plan(&text)?;
            let loaded_at = Instant::now();
            let validation = validate_loaded(&loaded, &catalog, &NoPlans);
            let validated_at = Instant::now();
            anyhow::ensure!(
                validation.is_valid(),
                "the generated plan of {nodes} nodes is invalid: {:?}",
                validation.errors().next()
            );
            let plan = loaded.plan.as_ref().context("typed plan")?;
            let run = dry_run_validated(plan, &catalog, &NoPlans, validation);
            let done = Instant::now();
            anyhow::ensure!(run.steps.len() == nodes, "dry-run covered {} of {nodes} nodes", run.steps.len());
            load.push(loaded_at - start);
            check.push(validated_at - loaded_at);
            dry.push(done - validated_at);
        }
        rows.push(Row { nodes, bytes: text.len(), load: median(load), validate: median(check), dry_run: median(dry) });
    }
    let output = match format {
        Format::Json => render::json(&json!(rows
            .iter()
            .map(|r| json!({
                "nodes": r.nodes, "bytes": r.bytes,
                "load_ms": ms(r.load), "validate_ms": ms(r.validate), "dry_run_ms": ms(r.dry_run),
                "validate_and_dry_run_ms": ms(r.validate + r.dry_run),
                "total_ms": ms(r.load + r.validate + r.dry_run),
                "total_us_per_node": (r.load + r.validate + r.dry_run).as_secs_f64() * 1e6 / r.nodes as f64,
            }))
            .collect::<Vec<_>>())),
        Format::Text => {
            let mut out = medians_header(repeat);
            out.push_str(
                "   nodes      bytes   load ms  validate ms  dry-run ms  validate+dry-run ms  total ms  µs/node\n",
            );
            for r in &rows {
                let total = r.load + r.validate + r.dry_run;
                out.push_str(&format!(
                    "{:>8} {:>10} {:>9.2} {:>12.2} {:>11.2} {:>20.2} {:>9.2} {:>8.2}\n",
                    r.nodes,
                    r.bytes,
                    ms(r.load),
                    ms(r.validate),
                    ms(r.dry_run),
                    ms(r.validate + r.dry_run),
                    ms(total),
                    total.as_secs_f64() * 1e6 / r.nodes as f64
                ));
            }
            out
        }
    };
    print(&output)?;
    Ok(Exit::Ok)
}

/// The first line of a timing table: what the figures are, and whether the build was optimised
/// (a debug build's figures mean nothing).
fn medians_header(repeat: usize) -> String {
    format!(
        "median of {repeat} runs, release build: {}\n",
        if cfg!(debug_assertions) { "NO (debug build)" } else { "yes" }
    )
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// A valid plan of exactly `nodes` nodes shaped like real ones: CSV reads feeding filters,
/// aggregations and joins that reach back several steps, conditions, and every 25 nodes a
/// foreach loop whose two-node body reads the loop item and an outer node.
pub fn generated_plan(nodes: usize) -> String {
    let mut text = String::from(
        "apiVersion: planwright/v1\nid: bench\nversion: 1.0.0\ndescription: generated for planwright bench\n\
         vars:\n  dir: data\n  threshold: 1000\ngraph:\n",
    );
    let mut made = 0;
    // Nodes whose `rows_<i>` alias holds a list of rows, oldest first.
    let mut row_nodes: Vec<usize> = Vec::new();
    while made < nodes {
        let i = made;
        let left = nodes - made;
        if let (true, Some(&source)) = (i % 25 == 24 && left >= 3, row_nodes.last()) {
            text.push_str(&format!(
                "  - id: n{i}\n    foreach:\n      input: ${{n{source}.rows_{source}}}\n      item_var: row\n      max_concurrency: 4\n    \
                 body:\n      plan:\n        graph:\n          - id: n{i}_pick\n            block: transforms.pick\n            \
                 in:\n              source: ${{vars.row}}\n              path: vendor\n            out:\n              value: vendor_{i}\n          \
                 - id: n{i}_filter\n            block: transforms.filter\n            in:\n              items: ${{n{source}.rows_{source}}}\n              \
                 conditions:\n                - field: vendor\n                  operator: eq\n                  value: ${{n{i}_pick.vendor_{i}}}\n            \
                 out:\n              filtered: matches_{i}\n    out:\n      collect: per_vendor_{i}\n"
            ));
            made += 3;
            continue;
        }
        let when = if i % 7 == 6 {
            format!("    when:\n      expr: ${{vars.threshold}} > {i} and len(${{vars.dir}}) > 0\n")
        } else {
            String::new()
        };
        let body = match (i % 5, row_nodes.last().copied()) {
            (0, _) | (_, None) => format!(
                "    block: file.read_csv\n    in:\n      path: ${{vars.dir}}/invoices_{i}.csv\n      has_header: true\n    out:\n      rows: rows_{i}\n      summary: summary_{i}\n"
            ),
            (1 | 4, Some(p)) => format!(
                "    block: transforms.filter\n    in:\n      items: ${{n{p}.rows_{p}}}\n      conditions:\n        - field: amount\n          operator: gt\n          value: ${{vars.threshold}}\n    out:\n      filtered: rows_{i}\n"
            ),
            (2, Some(p)) => format!(
                "    block: transforms.group_by_agg\n    in:\n      items: ${{n{p}.rows_{p}}}\n      by: [vendor]\n      aggregations:\n        - field: amount\n          op: sum\n          as: total\n    out:\n      rows: rows_{i}\n"
            ),
            (_, Some(p)) => {
                let back = row_nodes[row_nodes.len().saturating_sub(4)];
                format!(
                    "    block: transforms.join\n    in:\n      left: ${{n{p}.rows_{p}}}\n      right: ${{n{back}.rows_{back}}}\n      left_key: invoice_no\n      right_key: invoice_no\n    out:\n      rows: rows_{i}\n"
                )
            }
        };
        text.push_str(&format!("  - id: n{i}\n    description: step {i}\n{when}{body}"));
        row_nodes.push(i);
        made += 1;
    }
    text
}
