//! One JSONL line per generation under the data home (`design/generations.jsonl`), and their
//! summary (`planwright generate --stats`): error rate, repair rounds, time. A line holds counts
//! and names of blocks — never the instruction, a document or a value.

use std::fs::{self, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The metrics file under a data home.
pub fn metrics_file(data_home: &Path) -> PathBuf {
    data_home.join("design").join("generations.jsonl")
}

/// One generation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GenerationMetrics {
    /// RFC 3339, UTC.
    pub at: String,
    pub language: String,
    /// `offline`, or the model that answered.
    pub provenance: String,
    pub apply_mode: String,
    pub attempts: u32,
    /// Validation errors of each attempt, in order.
    pub errors_per_attempt: Vec<usize>,
    pub repair_rounds: u32,
    pub valid: bool,
    pub requirements: usize,
    pub dry_run_ms: f64,
    pub duration_ms: f64,
    pub blocks: Vec<String>,
    pub templates: Vec<String>,
    pub model_calls: u32,
    pub input_tokens: u64,
    pub output_tokens: u64,
}

/// Appends one line (one `write`, so concurrent writers do not interleave lines).
pub fn append(path: &Path, metrics: &GenerationMetrics) -> io::Result<()> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    let mut line = serde_json::to_string(metrics).map_err(io::Error::other)?;
    line.push('\n');
    OpenOptions::new().create(true).append(true).open(path)?.write_all(line.as_bytes())
}

/// What the metrics say, over every generation recorded.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MetricsSummary {
    pub generations: usize,
    pub valid: usize,
    /// The share of generations with no valid plan.
    pub error_rate: f64,
    pub mean_repair_rounds: f64,
    /// The share of generations that needed at least one repair round.
    pub repaired_share: f64,
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub offline: usize,
    pub with_model: usize,
    pub model_calls: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Lines that could not be read (kept out of the figures).
    pub unreadable_lines: usize,
}

/// Reads the metrics file line by line (no file is no generation yet).
pub fn summarise(path: &Path) -> io::Result<MetricsSummary> {
    history(path, 0).map(|(summary, _)| summary)
}

/// [`summarise`], with the last `recent` generations (oldest first); memory stays bounded by
/// `recent`, however long the file.
pub fn history(path: &Path, recent: usize) -> io::Result<(MetricsSummary, Vec<GenerationMetrics>)> {
    let file = match fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((MetricsSummary::default(), Vec::new())),
        Err(e) => return Err(e),
    };
    let mut last = std::collections::VecDeque::with_capacity(recent.min(1024));
    let mut summary = MetricsSummary::default();
    let mut durations = Vec::new();
    let mut rounds = 0u64;
    let mut repaired = 0usize;
    for line in BufReader::new(file).lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let Ok(m) = serde_json::from_str::<GenerationMetrics>(&line) else {
            summary.unreadable_lines += 1;
            continue;
        };
        summary.generations += 1;
        summary.valid += usize::from(m.valid);
        rounds += u64::from(m.repair_rounds);
        repaired += usize::from(m.repair_rounds > 0);
        if m.provenance == "offline" {
            summary.offline += 1;
        } else {
            summary.with_model += 1;
        }
        summary.model_calls += u64::from(m.model_calls);
        summary.input_tokens += m.input_tokens;
        summary.output_tokens += m.output_tokens;
        durations.push(m.duration_ms);
        if recent > 0 {
            if last.len() == recent {
                last.pop_front();
            }
            last.push_back(m);
        }
    }
    if summary.generations > 0 {
        let n = summary.generations as f64;
        summary.error_rate = (summary.generations - summary.valid) as f64 / n;
        summary.mean_repair_rounds = rounds as f64 / n;
        summary.repaired_share = repaired as f64 / n;
        durations.sort_by(f64::total_cmp);
        summary.p50_ms = percentile(&durations, 0.5);
        summary.p95_ms = percentile(&durations, 0.95);
    }
    Ok((summary, last.into()))
}

/// The value at `q` of sorted `values` (nearest rank).
pub fn percentile(values: &[f64], q: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let rank = ((q * values.len() as f64).ceil() as usize).clamp(1, values.len());
    values[rank - 1]
}
