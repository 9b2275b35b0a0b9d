//! The evaluation sets: instructions as people write them, in English and Japanese, each with
//! the blocks a correct plan needs; and the recall they give. `eval/instructions.yaml` is the set
//! the ranking was tuned on; `eval/heldout.yaml` was written before the tuning for it and is only
//! measured.
//!
//! Recall is micro-averaged: needed blocks found over needed blocks, across the set.

use serde::Deserialize;

use crate::{RetrievalError, Retriever, SearchOptions};

const BUNDLED: &str = include_str!("../eval/instructions.yaml");
const HELD_OUT: &str = include_str!("../eval/heldout.yaml");

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    En,
    Ja,
}

impl Lang {
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ja => "ja",
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub lang: Lang,
    pub instruction: String,
    /// Block ids a correct plan uses.
    pub needs: Vec<String>,
}

/// The evaluation set shipped with the crate.
pub fn cases() -> Result<Vec<Case>, serde_yaml::Error> {
    serde_yaml::from_str(BUNDLED)
}

/// The held-out set: never tuned on.
pub fn held_out_cases() -> Result<Vec<Case>, serde_yaml::Error> {
    serde_yaml::from_str(HELD_OUT)
}

/// How one instruction fared.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub lang: Lang,
    pub needed: usize,
    /// Needed blocks among the results (top K per category, at most 30).
    pub found: usize,
    /// Needed blocks among the first five results overall.
    pub found_in_top5: usize,
    pub results: usize,
    /// Needed blocks not retrieved.
    pub missed: Vec<String>,
}

/// Runs one instruction through BM25 alone with `options`.
pub fn evaluate(retriever: &Retriever, case: &Case, options: &SearchOptions) -> Result<Outcome, RetrievalError> {
    let result = retriever.search_bm25(&case.instruction, options)?;
    let ids: Vec<&str> = result.hits.iter().map(|h| h.id.as_str()).collect();
    let missed: Vec<String> = case.needs.iter().filter(|n| !ids.contains(&n.as_str())).cloned().collect();
    Ok(Outcome {
        lang: case.lang,
        needed: case.needs.len(),
        found: case.needs.len() - missed.len(),
        found_in_top5: case.needs.iter().filter(|n| ids.iter().take(5).any(|id| id == n)).count(),
        results: ids.len(),
        missed,
    })
}

/// The set's figures over some outcomes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    pub instructions: usize,
    pub recall_at_k: f64,
    pub recall_at_5: f64,
    pub mean_results: f64,
}

impl Summary {
    pub fn of<'a>(outcomes: impl IntoIterator<Item = &'a Outcome>) -> Summary {
        let (mut n, mut needed, mut found, mut top5, mut results) = (0, 0, 0, 0, 0);
        for o in outcomes {
            n += 1;
            needed += o.needed;
            found += o.found;
            top5 += o.found_in_top5;
            results += o.results;
        }
        let ratio = |a: usize, b: usize| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        Summary {
            instructions: n,
            recall_at_k: ratio(found, needed),
            recall_at_5: ratio(top5, needed),
            mean_results: ratio(results, n),
        }
    }
}
