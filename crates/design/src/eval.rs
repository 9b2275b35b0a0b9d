//! The evaluation sets of the design engine and how a generated plan is scored against a case:
//! the blocks a correct plan needs (node F1 over distinct block ids), the literal values it must
//! carry (file names, columns, thresholds, URLs found in its inputs or vars), and credentials
//! kept out of it.
//!
//! Four sets, kept apart by what they were used for ([`EvalSet`]): `tuning.yaml`, what the
//! offline designer was developed on; `generate.yaml` and `heldout.yaml`, each written blind by a
//! separate session, measured untouched first, then looked at while fixing general mistakes (so
//! no longer blind); `blind.yaml`, written last the same way and never tuned against — the
//! figure that stands for instructions nobody tuned for.

use std::collections::BTreeSet;

use planwright_plan::Plan;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One evaluation set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvalSet {
    Tuning,
    /// Written before tuning; its failures guided general fixes after the first measurement.
    FirstHeldOut,
    /// Written blind after the first round of fixes; its failures guided a second round.
    SecondHeldOut,
    /// Written blind after both rounds; never tuned against.
    Blind,
}

impl EvalSet {
    pub const ALL: [EvalSet; 4] = [EvalSet::Tuning, EvalSet::FirstHeldOut, EvalSet::SecondHeldOut, EvalSet::Blind];

    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            EvalSet::Tuning => "tuning",
            EvalSet::FirstHeldOut => "held-out-1",
            EvalSet::SecondHeldOut => "held-out-2",
            EvalSet::Blind => "blind",
        }
    }

    pub fn cases(self) -> Result<Vec<Case>, serde_yaml::Error> {
        let text = match self {
            EvalSet::Tuning => include_str!("../eval/tuning.yaml"),
            EvalSet::FirstHeldOut => include_str!("../eval/generate.yaml"),
            EvalSet::SecondHeldOut => include_str!("../eval/heldout.yaml"),
            EvalSet::Blind => include_str!("../eval/blind.yaml"),
        };
        serde_yaml::from_str::<Set>(text).map(|s| s.cases)
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub id: String,
    pub lang: String,
    pub instruction: String,
    pub blocks: Vec<String>,
    #[serde(default)]
    pub slots: Slots,
    /// How many credentials the instruction spells out.
    #[serde(default)]
    pub secrets: usize,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Slots {
    #[serde(default)]
    pub files: Vec<String>,
    #[serde(default)]
    pub columns: Vec<String>,
    #[serde(default)]
    pub thresholds: Vec<f64>,
    #[serde(default)]
    pub urls: Vec<String>,
}

#[derive(Deserialize)]
struct Set {
    cases: Vec<Case>,
}

/// Found and expected values of one kind of slot.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct SlotScore {
    pub found: usize,
    pub expected: usize,
}

impl std::ops::AddAssign for SlotScore {
    fn add_assign(&mut self, other: SlotScore) {
        self.found += other.found;
        self.expected += other.expected;
    }
}

/// How one generated plan scores.
#[derive(Debug, Clone, Serialize)]
pub struct Score {
    pub id: String,
    pub lang: String,
    /// Validates (and dry-runs) with no error.
    pub valid: bool,
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub missing: Vec<String>,
    pub extra: Vec<String>,
    pub files: SlotScore,
    pub columns: SlotScore,
    pub thresholds: SlotScore,
    pub urls: SlotScore,
    /// Every spelled-out credential declared as a secret, and no value left in the plan.
    pub secrets_ok: bool,
}

/// Scores `plan` against `case`, credentials against the values the instruction spells out.
pub fn score(case: &Case, plan: &Plan, valid: bool) -> Score {
    let credential_values: Vec<String> =
        crate::redact_instruction(&case.instruction).secrets.iter().map(|s| s.value().to_owned()).collect();
    let used: BTreeSet<String> = crate::blocks_of(plan).into_iter().collect();
    let expected: BTreeSet<String> = case.blocks.iter().cloned().collect();
    let hit = used.intersection(&expected).count() as f64;
    let precision = if used.is_empty() { 0.0 } else { hit / used.len() as f64 };
    let recall = if expected.is_empty() { 1.0 } else { hit / expected.len() as f64 };
    let f1 = if precision + recall == 0.0 { 0.0 } else { 2.0 * precision * recall / (precision + recall) };
    let mut texts = Vec::new();
    let mut numbers = Vec::new();
    let doc = serde_json::to_value(plan).unwrap_or(Value::Null);
    for part in ["vars", "graph"] {
        collect(&doc[part], &mut texts, &mut numbers);
    }
    let has_text = |v: &str| texts.iter().any(|t| t.to_lowercase().contains(&v.to_lowercase()));
    let count =
        |values: &[String]| SlotScore { found: values.iter().filter(|v| has_text(v)).count(), expected: values.len() };
    let thresholds = SlotScore {
        found: case.slots.thresholds.iter().filter(|t| numbers.iter().any(|n| (n - *t).abs() < 1e-9)).count(),
        expected: case.slots.thresholds.len(),
    };
    let plan_text = serde_yaml::to_string(plan).unwrap_or_default();
    let secrets_ok =
        plan.secrets.len() >= case.secrets && credential_values.iter().all(|v| !plan_text.contains(v.as_str()));
    Score {
        id: case.id.clone(),
        lang: case.lang.clone(),
        valid,
        precision,
        recall,
        f1,
        missing: expected.difference(&used).cloned().collect(),
        extra: used.difference(&expected).cloned().collect(),
        files: count(&case.slots.files),
        columns: count(&case.slots.columns),
        thresholds,
        urls: count(&case.slots.urls),
        secrets_ok,
    }
}

fn collect(value: &Value, texts: &mut Vec<String>, numbers: &mut Vec<f64>) {
    match value {
        Value::String(s) => texts.push(s.clone()),
        Value::Number(n) => numbers.extend(n.as_f64()),
        Value::Array(items) => items.iter().for_each(|v| collect(v, texts, numbers)),
        Value::Object(map) => map.values().for_each(|v| collect(v, texts, numbers)),
        _ => {}
    }
}
