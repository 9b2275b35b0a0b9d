//! `planwright bench generate`: the design engine on its evaluation sets (`crates/design/eval`:
//! the tuning set, the two held-out sets looked at after their first measurement, and the blind set), offline and through the two model stages with a
//! scripted model that answers each stage with the offline design (so the model path's schema,
//! conversion and checks are measured, not a model's judgement).

use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result};
use planwright_design::eval::{self, EvalSet, Score, SlotScore};
use planwright_design::metrics::percentile;
use planwright_design::{model, redact_instruction, DesignEngine, DesignRequest};
use planwright_designs::{Designs, TemplateSpec};
use planwright_llm::{LlmClient, Prompts, Provider, Secret, Settings};
use planwright_llm_replay::{Match, ReplayServer, Reply, Script};
use planwright_retrieval::Retriever;
use serde::Serialize;
use tokio_util::sync::CancellationToken;

use super::jobs;
use crate::commands::catalog;

/// One case's score, its time in ms and its model calls.
type Timed = (Score, f64, u32);

#[derive(Serialize)]
pub struct Row {
    /// `tuning`, `held-out-1`, `held-out-2` or `blind` (`planwright_design::eval::EvalSet`).
    pub set: &'static str,
    /// `offline` or `scripted model`.
    pub mode: &'static str,
    /// `en`, `ja` or `all`.
    pub lang: &'static str,
    pub instructions: usize,
    /// Plans that validate and dry-run with no error.
    pub valid_share: f64,
    pub mean_f1: f64,
    pub files: SlotScore,
    pub columns: SlotScore,
    pub thresholds: SlotScore,
    pub urls: SlotScore,
    pub secrets_ok: usize,
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub model_calls: u32,
}

#[derive(Serialize)]
pub struct Bench {
    /// The end-to-end jobs, judged by the table written.
    pub jobs: jobs::JobBench,
    pub rows: Vec<Row>,
    /// Every case's score, offline, for the cases a person wants to look at.
    pub cases: Vec<Score>,
}

pub fn run(repeat: usize, jobs_only: bool, job: Option<&str>) -> Result<Bench> {
    let catalog = catalog(None)?;
    let retriever = Retriever::for_catalog(&catalog, None);
    let library: Vec<TemplateSpec> = Designs::new("designs")
        .templates()
        .map(|files| files.into_iter().filter_map(|f| f.spec.ok()).collect())
        .unwrap_or_default();
    let prompts = Prompts::built_in().context("the built-in prompts")?;
    let runtime = tokio::runtime::Runtime::new()?;
    let cancel = CancellationToken::new();
    let sets: Vec<(&'static str, Vec<eval::Case>)> =
        EvalSet::ALL.iter().map(|set| Ok((set.name(), set.cases()?))).collect::<Result<_, serde_yaml::Error>>()?;
    let mut rows = Vec::new();
    let mut all_scores = Vec::new();
    let offline = DesignEngine {
        catalog: &catalog,
        retriever: &retriever,
        library: &library,
        model: None,
        metrics: None,
        files: None,
        trial: None,
    };
    let jobs = runtime.block_on(jobs::run(&offline, job))?;
    if jobs_only || job.is_some() {
        return Ok(Bench { jobs, rows, cases: all_scores });
    }
    runtime.block_on(async {
        let server = ReplayServer::start(Script::new()).await;
        let settings = Settings {
            provider: Some(Provider::OpenAi { base_url: server.base_url(), api_key: Some(Secret::new("bench")) }),
            max_retries: 0,
            ..Settings::default()
        };
        let client: Arc<dyn LlmClient> = settings.client()?.context("a scripted model client")?;
        for (set, cases) in &sets {
            let scripted = DesignEngine {
                catalog: &catalog,
                retriever: &retriever,
                library: &library,
                model: Some((Arc::clone(&client), &prompts)),
                metrics: None,
                files: None,
                trial: None,
            };
            let mut results: Vec<(&'static str, Vec<Timed>)> =
                vec![("offline", Vec::new()), ("scripted model", Vec::new())];
            for case in cases {
                let request = DesignRequest { instruction: case.instruction.clone(), ..DesignRequest::default() };
                let mut times = Vec::new();
                let mut last = None;
                for _ in 0..repeat {
                    let started = Instant::now();
                    let generated = offline.generate(&request, &cancel).await?;
                    times.push(started.elapsed().as_secs_f64() * 1000.0);
                    last = Some(generated);
                }
                let generated = last.context("at least one generation")?;
                let score = eval::score(case, &generated.plan, generated.valid);
                times.sort_by(f64::total_cmp);
                results[0].1.push((score.clone(), percentile(&times, 0.5), 0));
                all_scores.push(score);

                // Each stage is told by its prompt; the instruction tells the cases apart.
                let (skeleton, wiring) = model::stage_answers(&generated.plan);
                let sent = redact_instruction(case.instruction.trim()).text;
                server.extend(
                    Script::new()
                        .always(
                            Match::user_contains(sent.clone()).and(Match::user_contains("Candidate blocks:")),
                            Reply::json(&skeleton),
                        )
                        .always(
                            Match::user_contains(sent).and(Match::user_contains("Skeleton (fixed):")),
                            Reply::json(&wiring),
                        ),
                );
                let started = Instant::now();
                let through_model = scripted.generate(&request, &cancel).await?;
                let ms = started.elapsed().as_secs_f64() * 1000.0;
                let score = eval::score(case, &through_model.plan, through_model.valid);
                results[1].1.push((score, ms, through_model.metrics.model_calls));
            }
            for (mode, scored) in results {
                for lang in ["all", "en", "ja"] {
                    let chosen: Vec<&(Score, f64, u32)> =
                        scored.iter().filter(|(s, _, _)| lang == "all" || s.lang == lang).collect();
                    rows.push(row(set, mode, lang, &chosen));
                }
            }
        }
        anyhow::Ok(())
    })?;
    Ok(Bench { jobs, rows, cases: all_scores })
}

fn row(set: &'static str, mode: &'static str, lang: &'static str, scored: &[&(Score, f64, u32)]) -> Row {
    let n = scored.len().max(1) as f64;
    let mut times: Vec<f64> = scored.iter().map(|(_, ms, _)| *ms).collect();
    times.sort_by(f64::total_cmp);
    let mut row = Row {
        set,
        mode,
        lang,
        instructions: scored.len(),
        valid_share: scored.iter().filter(|(s, _, _)| s.valid).count() as f64 / n,
        mean_f1: scored.iter().map(|(s, _, _)| s.f1).sum::<f64>() / n,
        files: SlotScore::default(),
        columns: SlotScore::default(),
        thresholds: SlotScore::default(),
        urls: SlotScore::default(),
        secrets_ok: scored.iter().filter(|(s, _, _)| s.secrets_ok).count(),
        p50_ms: percentile(&times, 0.5),
        p95_ms: percentile(&times, 0.95),
        model_calls: scored.iter().map(|(_, _, c)| c).sum(),
    };
    for (s, _, _) in scored {
        row.files += s.files;
        row.columns += s.columns;
        row.thresholds += s.thresholds;
        row.urls += s.urls;
    }
    row
}

pub fn render(bench: &Bench) -> String {
    let mut out =
        format!("design engine; release build: {}\n", if cfg!(debug_assertions) { "NO (debug build)" } else { "yes" });
    out.push_str(&jobs::render(&bench.jobs));
    if bench.rows.is_empty() {
        return out;
    }
    out.push_str("\nblock-F1 sets\n");
    out.push_str("set       mode            lang  cases  valid   F1     files   columns  thresholds  urls   secrets  p50 ms  p95 ms  calls\n");
    let frac = |s: SlotScore| format!("{}/{}", s.found, s.expected);
    for r in &bench.rows {
        out.push_str(&format!(
            "{:<9} {:<15} {:<5} {:>5}  {:>5.1}%  {:.3}  {:>6}  {:>7}  {:>10}  {:>5}  {:>7}  {:>6.2}  {:>6.2}  {:>5}\n",
            r.set,
            r.mode,
            r.lang,
            r.instructions,
            r.valid_share * 100.0,
            r.mean_f1,
            frac(r.files),
            frac(r.columns),
            frac(r.thresholds),
            frac(r.urls),
            r.secrets_ok,
            r.p50_ms,
            r.p95_ms,
            r.model_calls
        ));
    }
    let wrong: Vec<&Score> = bench.cases.iter().filter(|s| !s.valid || s.f1 < 1.0 || !s.secrets_ok).collect();
    if !wrong.is_empty() {
        out.push_str("\ncases the offline designer gets wrong (missing / extra blocks):\n");
        for s in wrong {
            out.push_str(&format!(
                "  {:<36} valid {:<5} F1 {:.2}  missing [{}]  extra [{}]{}\n",
                s.id,
                s.valid,
                s.f1,
                s.missing.join(", "),
                s.extra.join(", "),
                if s.secrets_ok { "" } else { "  credential not moved out" }
            ));
        }
    }
    out
}
