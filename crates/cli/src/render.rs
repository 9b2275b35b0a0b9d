//! Output: findings, dry-runs and the catalog as text for people and JSON for tools.

use std::fmt::Write;

use planwright_catalog::{BlockSpec, Catalog};
use planwright_plan::{Finding, Plan};
use planwright_validate::{DryRun, Step, Validation};
use serde::Serialize;
use serde_json::Value;

pub fn json(value: &impl Serialize) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// A recorded time (RFC 3339, UTC) as `2026-11-27 18:48:38` at `offset` (UTC when none); the
/// text as it is when it does not parse.
pub fn local_time(at: &str, offset: Option<time::UtcOffset>) -> String {
    use time::format_description::well_known::Rfc3339;
    let format = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]:[second]");
    match time::OffsetDateTime::parse(at, &Rfc3339) {
        Ok(moment) => {
            moment.to_offset(offset.unwrap_or(time::UtcOffset::UTC)).format(&format).unwrap_or_else(|_| at.to_owned())
        }
        Err(_) => at.to_owned(),
    }
}

/// `{"valid": bool, "errors": [...], "warnings": [...]}`: the contract of `validate --format json`.
#[derive(Serialize)]
pub struct ValidationReport<'a> {
    valid: bool,
    errors: Vec<&'a Finding>,
    warnings: Vec<&'a Finding>,
}

pub fn validation_report(validation: &Validation) -> ValidationReport<'_> {
    ValidationReport {
        valid: validation.is_valid(),
        errors: validation.errors().collect(),
        warnings: validation.warnings().collect(),
    }
}

/// The validate contract plus `levels`, `order` (steps in execution order) and `estimate`.
#[derive(Serialize)]
pub struct DryRunReport<'a> {
    #[serde(flatten)]
    validation: ValidationReport<'a>,
    levels: usize,
    order: &'a [Step],
    estimate: &'a planwright_validate::Estimate,
}

pub fn dry_run_report(run: &DryRun) -> DryRunReport<'_> {
    DryRunReport {
        validation: validation_report(&run.validation),
        levels: run.steps.iter().filter(|s| s.depth == 0).map(|s| s.level + 1).max().unwrap_or(0),
        order: &run.steps,
        estimate: &run.estimate,
    }
}

pub fn validation_text(file: &str, validation: &Validation) -> String {
    let mut out = String::new();
    for finding in &validation.findings {
        finding_text(&mut out, file, finding);
    }
    let errors = validation.errors().count();
    let warnings = validation.warnings().count();
    let verdict = if errors == 0 { "valid" } else { "invalid" };
    let _ = writeln!(out, "{file}: {verdict} ({}, {})", plural(errors, "error"), plural(warnings, "warning"));
    out
}

fn finding_text(out: &mut String, file: &str, finding: &Finding) {
    let position = match (finding.line, finding.column) {
        (Some(line), Some(column)) => format!("{file}:{line}:{column}"),
        (Some(line), None) => format!("{file}:{line}"),
        _ => file.to_owned(),
    };
    let severity = if finding.is_error() { "error" } else { "warning" };
    let mut place = Vec::new();
    if let Some(node) = &finding.node {
        place.push(format!("node `{node}`"));
    }
    if let Some(field) = &finding.field {
        place.push(format!("`{field}`"));
    }
    let place = if place.is_empty() { String::new() } else { format!(" {}:", place.join(" ")) };
    let _ = writeln!(out, "{position}: {severity}[{}]{place} {}", finding.code.as_str(), finding.message);
    if let Some(hint) = &finding.hint {
        let _ = writeln!(out, "    hint: {hint}");
    }
}

fn plural(count: usize, word: &str) -> String {
    format!("{count} {word}{}", if count == 1 { "" } else { "s" })
}

pub fn dry_run_text(file: &str, plan: &Plan, run: &DryRun) -> String {
    let mut out = String::new();
    for finding in &run.validation.findings {
        finding_text(&mut out, file, finding);
    }
    if !run.validation.is_valid() {
        let _ = writeln!(out, "{file}: invalid ({}); no dry-run", plural(run.validation.errors().count(), "error"));
        return out;
    }
    let _ = writeln!(out, "dry-run of {} {}: {} steps", plan.id, plan.version, run.steps.len());
    let _ = writeln!(
        out,
        "  (node outputs are the blocks' example values, or the first rows of input files in the work folder, \
         standing in for the data a run reads)"
    );
    let width = run.steps.iter().map(|s| s.id.len() + 2 * s.depth).max().unwrap_or(0);
    for step in &run.steps {
        step_text(&mut out, step, width);
    }
    let estimate = &run.estimate;
    let _ = writeln!(
        out,
        "work per run: {}, {}, {}{}",
        plural(estimate.node_runs as usize, "node run"),
        plural(estimate.model_calls as usize, "model call"),
        plural(estimate.browser_objectives as usize, "browser objective"),
        if estimate.exact { "" } else { " (estimated)" }
    );
    for note in &estimate.notes {
        let _ = writeln!(out, "  note: {note}");
    }
    let _ = writeln!(out, "{file}: valid ({})", plural(run.validation.warnings().count(), "warning"));
    out
}

fn step_text(out: &mut String, step: &Step, width: usize) {
    let indent = "  ".repeat(step.depth);
    let name = format!("{indent}{}", step.id.rsplit('/').next().unwrap_or(&step.id));
    let runs = match step.runs {
        Some(n) if n != 1 => format!("  ×{n}"),
        _ => String::new(),
    };
    let _ = writeln!(out, "  L{:<2} {name:<width$}  {}{runs}", step.level, step.what);
    for (name, value) in &step.inputs {
        let _ = writeln!(out, "       {indent}  in.{name} = {}", short(value));
    }
}

/// One line of JSON, cut at a readable length.
fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 100 {
        format!("{}…", text.chars().take(100).collect::<String>())
    } else {
        text
    }
}

pub fn blocks_text(catalog: &Catalog) -> String {
    let mut out = String::new();
    let width = catalog.blocks().map(|b| b.id.len()).max().unwrap_or(0);
    for spec in catalog.blocks() {
        let _ = writeln!(out, "{:<width$}  {} / {}", spec.id, spec.title.en, spec.title.ja);
        let _ = writeln!(out, "{:<width$}  in: {}  →  out: {}", "", ports(spec, true), ports(spec, false));
    }
    let _ = writeln!(out, "{} blocks", catalog.len());
    out
}

fn ports(spec: &BlockSpec, inputs: bool) -> String {
    let ports = if inputs { &spec.inputs } else { &spec.outputs };
    if ports.is_empty() {
        return "-".into();
    }
    ports
        .iter()
        .map(|(name, port)| format!("{name}{}: {}", if port.required { "*" } else { "" }, port.ty()))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::local_time;

    #[test]
    fn recorded_times_are_shown_at_the_local_offset() {
        let tokyo = time::UtcOffset::from_hms(9, 0, 0).ok();
        assert_eq!(local_time("2026-11-27T23:48:38.120Z", tokyo), "2026-11-28 08:48:38");
        assert_eq!(local_time("2026-11-27T23:48:38.120Z", None), "2026-11-27 23:48:38");
        assert_eq!(local_time("not a time", tokyo), "not a time");
    }
}
