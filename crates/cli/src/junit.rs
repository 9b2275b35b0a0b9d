//! `--report junit.xml`: a test case per node, so runs plug into CI dashboards.

use std::collections::BTreeMap;

use planwright_engine::RunOutcome;
use planwright_runs::{Event, EventKind};

enum Case {
    Passed(u64),
    Failed(u64, String),
    Skipped(String),
}

/// The JUnit XML of a run: one `<testsuite>` named after the run, one `<testcase>` per node,
/// by the node's last outcome.
pub fn report(outcome: &RunOutcome, events: &[Event]) -> String {
    let mut plan = String::from("plan");
    let mut cases: BTreeMap<String, Case> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    for event in events {
        let (node, case) = match &event.kind {
            EventKind::RunStarted { plan_id, .. } => {
                plan = plan_id.clone();
                continue;
            }
            EventKind::NodeFinished { node, elapsed_ms, .. } => (node, Case::Passed(*elapsed_ms)),
            EventKind::NodeFailed { node, elapsed_ms, error, .. } => (node, Case::Failed(*elapsed_ms, error.clone())),
            EventKind::NodeSkipped { node, reason } => (node, Case::Skipped(reason.clone())),
            _ => continue,
        };
        if !cases.contains_key(node) {
            order.push(node.clone());
        }
        cases.insert(node.clone(), case);
    }
    let failures = cases.values().filter(|c| matches!(c, Case::Failed(..))).count();
    let skipped = cases.values().filter(|c| matches!(c, Case::Skipped(_))).count();
    let total_ms: u64 = cases
        .values()
        .map(|c| match c {
            Case::Passed(ms) | Case::Failed(ms, _) => *ms,
            Case::Skipped(_) => 0,
        })
        .sum();
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.push_str(&format!(
        "<testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" skipped=\"{skipped}\" time=\"{:.3}\" id=\"{}\">\n",
        escape(&plan),
        cases.len(),
        total_ms as f64 / 1000.0,
        escape(&outcome.run_id)
    ));
    for node in &order {
        let (ms, body) = match &cases[node] {
            Case::Passed(ms) => (*ms, String::new()),
            Case::Failed(ms, error) => (*ms, format!("<failure message=\"{}\"/>", escape(error))),
            Case::Skipped(reason) => (0, format!("<skipped message=\"{}\"/>", escape(reason))),
        };
        xml.push_str(&format!(
            "  <testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\">{body}</testcase>\n",
            escape(&plan),
            escape(node),
            ms as f64 / 1000.0
        ));
    }
    xml.push_str("</testsuite>\n");
    xml
}

fn escape(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control() || *c == '\n' || *c == '\t')
        .map(|c| match c {
            '&' => "&amp;".to_owned(),
            '<' => "&lt;".to_owned(),
            '>' => "&gt;".to_owned(),
            '"' => "&quot;".to_owned(),
            '\'' => "&apos;".to_owned(),
            other => other.to_string(),
        })
        .collect()
}
