//! `planwright bench retrieval`: recall of BM25 alone on the evaluation set the ranking was
//! tuned on (`crates/retrieval/eval/instructions.yaml`) and on the held-out set
//! (`heldout.yaml`), and search latency.

use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use planwright_retrieval::eval::{self, Lang, Outcome, Summary};
use planwright_retrieval::{Retriever, SearchOptions};
use serde::Serialize;

use crate::commands::catalog;

#[derive(Serialize)]
pub struct Row {
    /// `tuned` or `held-out`.
    pub collection: &'static str,
    /// `en`, `ja` or `all`.
    pub set: &'static str,
    pub instructions: usize,
    /// Needed blocks among the results at K per category (at most 30), micro-averaged.
    pub recall_at_k: f64,
    /// Needed blocks among the first five results overall.
    pub recall_at_5: f64,
    pub mean_results: f64,
}

#[derive(Serialize)]
pub struct Bench {
    pub top_k: usize,
    pub catalog_blocks: usize,
    pub rows: Vec<Row>,
    /// Median and 90th percentile of one search (tokenise, score, select), over every
    /// instruction repeated.
    pub search_p50_us: f64,
    pub search_p90_us: f64,
    /// Building the index over the catalog, once.
    pub index_build_ms: f64,
}

pub fn run(top_k: usize, repeat: usize) -> Result<Bench> {
    let catalog = catalog(None)?;
    let started = Instant::now();
    let retriever = Retriever::for_catalog(&catalog, None);
    let index_build = started.elapsed();
    let sets = [
        ("tuned", eval::cases().context("reading the evaluation set")?),
        ("held-out", eval::held_out_cases().context("reading the held-out set")?),
    ];
    let options = SearchOptions { top_k, pinned: Vec::new() };
    let mut rows: Vec<Row> = Vec::new();
    let mut samples: Vec<Duration> = Vec::new();
    for (collection, cases) in &sets {
        let mut outcomes: Vec<Outcome> = Vec::new();
        for case in cases {
            outcomes.push(eval::evaluate(&retriever, case, &options)?);
            for _ in 0..repeat {
                let start = Instant::now();
                std::hint::black_box(retriever.search_bm25(&case.instruction, &options)?);
                samples.push(start.elapsed());
            }
        }
        let row = |set: &'static str, summary: Summary| Row {
            collection,
            set,
            instructions: summary.instructions,
            recall_at_k: summary.recall_at_k,
            recall_at_5: summary.recall_at_5,
            mean_results: summary.mean_results,
        };
        for lang in [Lang::En, Lang::Ja] {
            rows.push(row(lang.name(), Summary::of(outcomes.iter().filter(|o| o.lang == lang))));
        }
        rows.push(row("all", Summary::of(&outcomes)));
    }
    samples.sort();
    let percentile = |p: usize| samples[(samples.len() - 1) * p / 100].as_secs_f64() * 1e6;
    Ok(Bench {
        top_k,
        catalog_blocks: catalog.len(),
        rows,
        search_p50_us: percentile(50),
        search_p90_us: percentile(90),
        index_build_ms: index_build.as_secs_f64() * 1e3,
    })
}

pub fn render(bench: &Bench, repeat: usize) -> String {
    let mut out = format!(
        "BM25 alone, K = {} per category, {} blocks in the catalog; release build: {}\n",
        bench.top_k,
        bench.catalog_blocks,
        if cfg!(debug_assertions) { "NO (debug build)" } else { "yes" }
    );
    out.push_str("set       lang  instructions  recall@K  recall@5  mean results\n");
    for r in &bench.rows {
        out.push_str(&format!(
            "{:<9} {:<5} {:>12} {:>9.3} {:>9.3} {:>13.1}\n",
            r.collection, r.set, r.instructions, r.recall_at_k, r.recall_at_5, r.mean_results
        ));
    }
    out.push_str(&format!(
        "search latency over {repeat} runs of each instruction: p50 {:.1} µs, p90 {:.1} µs; index build {:.2} ms\n",
        bench.search_p50_us, bench.search_p90_us, bench.index_build_ms
    ));
    out
}
