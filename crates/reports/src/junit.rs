//! JUnit XML: one `<testsuite>` for the run; one `<testcase>` per objective of every runner node
//! (classname `<plan>.<node>`, name `<n>. <objective>`), with its actions and recovery steps in
//! `<system-out>`, what it took in `<properties>`, and a failure's reason, attempts and actions
//! in `<failure>` (and a failed `<node> (the request)` case when every objective was done but the
//! request was judged unsatisfied); one `<testcase>` per node for the others (classname the
//! plan, name the node).
//! Written with quick-xml, which escapes every attribute and text; control characters XML
//! refuses are dropped first.

use std::io;

use planwright_runs::objective::StepStatus;
use quick_xml::events::{BytesDecl, BytesText, Event};
use quick_xml::Writer;

use crate::objectives::{Objectives, Step, StepEntry};
use crate::record::{NodeOutcome, NodeRecord, RunRecord};
use crate::text::{clean, plural, record_name, seconds};

/// The JUnit XML of a run.
pub fn junit(run: &RunRecord) -> String {
    let mut writer = Writer::new_with_indent(Vec::new(), b' ', 2);
    // Writing into memory cannot fail.
    let _ = write_suite(&mut writer, run);
    let mut xml = String::from_utf8_lossy(&writer.into_inner()).into_owned();
    xml.push('\n');
    xml
}

struct Case {
    classname: String,
    name: String,
    ms: u64,
    verdict: Verdict,
    properties: Vec<(&'static str, String)>,
    out: String,
}

enum Verdict {
    Passed,
    Failed {
        message: String,
        kind: &'static str,
        body: String,
    },
    /// Neither passed nor failed: the run ended while it was under way.
    Error {
        message: String,
        kind: &'static str,
        body: String,
    },
    Skipped {
        message: String,
    },
}

fn write_suite(writer: &mut Writer<Vec<u8>>, run: &RunRecord) -> io::Result<()> {
    let cases: Vec<Case> = run.nodes.iter().flat_map(|node| node_cases(run, node)).collect();
    let count = |f: fn(&Verdict) -> bool| cases.iter().filter(|c| f(&c.verdict)).count().to_string();
    let plan = if run.plan_id.is_empty() { "plan" } else { run.plan_id.as_str() };
    let total_ms: u64 = run.nodes.iter().map(|n| n.elapsed_ms).sum();
    writer.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    let mut suite = writer
        .create_element("testsuite")
        .with_attribute(("name", clean(plan).as_ref()))
        .with_attribute(("tests", cases.len().to_string().as_str()))
        .with_attribute(("failures", count(|v| matches!(v, Verdict::Failed { .. })).as_str()))
        .with_attribute(("errors", count(|v| matches!(v, Verdict::Error { .. })).as_str()))
        .with_attribute(("skipped", count(|v| matches!(v, Verdict::Skipped { .. })).as_str()))
        .with_attribute(("time", seconds(total_ms).as_str()))
        .with_attribute(("id", clean(&run.run_id).as_ref()));
    if let Some(started) = &run.started_at {
        suite = suite.with_attribute(("timestamp", clean(started).as_ref()));
    }
    suite.write_inner_content(|writer| {
        let status = run.status.map_or("unfinished".to_owned(), |s| record_name(&s));
        write_properties(writer, &[("plan_version", run.plan_version.clone()), ("run_status", status)])?;
        for case in &cases {
            write_case(writer, case)?;
        }
        Ok(())
    })?;
    Ok(())
}

fn write_properties(writer: &mut Writer<Vec<u8>>, properties: &[(&str, String)]) -> io::Result<()> {
    if properties.is_empty() {
        return Ok(());
    }
    writer.create_element("properties").write_inner_content(|writer| {
        for (name, value) in properties {
            writer
                .create_element("property")
                .with_attribute(("name", *name))
                .with_attribute(("value", clean(value).as_ref()))
                .write_empty()?;
        }
        Ok(())
    })?;
    Ok(())
}

fn write_case(writer: &mut Writer<Vec<u8>>, case: &Case) -> io::Result<()> {
    let element = writer
        .create_element("testcase")
        .with_attribute(("classname", clean(&case.classname).as_ref()))
        .with_attribute(("name", clean(&case.name).as_ref()))
        .with_attribute(("time", seconds(case.ms).as_str()));
    if matches!(case.verdict, Verdict::Passed) && case.properties.is_empty() && case.out.is_empty() {
        element.write_empty()?;
        return Ok(());
    }
    element.write_inner_content(|writer| {
        write_properties(writer, &case.properties)?;
        match &case.verdict {
            Verdict::Passed => {}
            Verdict::Failed { message, kind, body } => write_problem(writer, "failure", message, kind, body)?,
            Verdict::Error { message, kind, body } => write_problem(writer, "error", message, kind, body)?,
            Verdict::Skipped { message } => {
                writer.create_element("skipped").with_attribute(("message", clean(message).as_ref())).write_empty()?;
            }
        }
        if !case.out.is_empty() {
            writer.create_element("system-out").write_text_content(text(&case.out))?;
        }
        Ok(())
    })?;
    Ok(())
}

fn write_problem(writer: &mut Writer<Vec<u8>>, tag: &str, message: &str, kind: &str, body: &str) -> io::Result<()> {
    let element =
        writer.create_element(tag).with_attribute(("message", clean(message).as_ref())).with_attribute(("type", kind));
    if body.is_empty() {
        element.write_empty()?;
    } else {
        element.write_text_content(text(body))?;
    }
    Ok(())
}

/// Element text, escaped where XML needs it (quotes stay as they are, for people reading the
/// file).
fn text(body: &str) -> BytesText<'static> {
    BytesText::from_escaped(quick_xml::escape::partial_escape(clean(body).as_ref()).into_owned())
}

/// A runner node's objectives, one case each (and the node's own failure when no objective
/// shows it); any other node, one case.
fn node_cases(run: &RunRecord, node: &NodeRecord) -> Vec<Case> {
    let Some(objectives) = node.objectives.as_ref().filter(|o| o.objectives().next().is_some()) else {
        return vec![node_case(run, node)];
    };
    let classname = format!("{}.{}", run.plan_id, node.path);
    let mut cases: Vec<Case> =
        objectives.objectives().map(|(number, step)| objective_case(&classname, objectives, number, step)).collect();
    let shown = cases.iter().any(|c| matches!(c.verdict, Verdict::Failed { .. } | Verdict::Error { .. }));
    if let (Some(why), false) = (node.unsatisfied(), shown) {
        let mut case = node_case(run, node);
        case.classname = classname.clone();
        case.name = format!("{} (the request)", node.path);
        case.verdict = Verdict::Failed { message: why, kind: "not satisfied", body: String::new() };
        cases.push(case);
    }
    if let (Some(error), false) = (node.error(), shown) {
        let mut case = node_case(run, node);
        case.classname = classname;
        case.name = format!("{} (the node)", node.path);
        case.verdict = Verdict::Failed { message: error.to_owned(), kind: "node failed", body: node_body(node) };
        cases.push(case);
    }
    cases
}

fn node_case(run: &RunRecord, node: &NodeRecord) -> Case {
    let verdict = match &node.outcome {
        NodeOutcome::Succeeded => Verdict::Passed,
        NodeOutcome::Failed { error, timed_out, .. } => Verdict::Failed {
            message: error.clone(),
            kind: if *timed_out { "timed out" } else { "node failed" },
            body: node_body(node),
        },
        NodeOutcome::Skipped { reason } => Verdict::Skipped { message: reason.clone() },
        NodeOutcome::Waiting { message } => Verdict::Skipped { message: format!("waiting for input: {message}") },
        NodeOutcome::Unfinished => Verdict::Error {
            message: "the run ended before this node settled".into(),
            kind: "unfinished",
            body: String::new(),
        },
    };
    let plan = if run.plan_id.is_empty() { "plan" } else { run.plan_id.as_str() };
    Case {
        classname: plan.to_owned(),
        name: node.path.clone(),
        ms: node.elapsed_ms,
        verdict,
        properties: Vec::new(),
        out: node.warnings.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join("\n"),
    }
}

/// A failed node's error and the errors of its retried attempts.
fn node_body(node: &NodeRecord) -> String {
    let mut lines: Vec<String> = node.error().map(str::to_owned).into_iter().collect();
    lines.extend(node.retries.iter().map(|(attempt, error)| format!("attempt {attempt} failed: {error}")));
    lines.join("\n")
}

fn objective_case(classname: &str, objectives: &Objectives, number: usize, step: &Step) -> Case {
    let state = &step.state;
    let reason = step.evidence().unwrap_or("").to_owned();
    let steps_text = entries_text(objectives, state.index);
    let verdict = match state.status {
        StepStatus::Completed => Verdict::Passed,
        StepStatus::Failed => Verdict::Failed {
            message: if reason.is_empty() { "the objective failed".into() } else { reason.clone() },
            kind: "objective failed",
            body: failure_body(step, &reason, &steps_text),
        },
        StepStatus::InProgress => Verdict::Error {
            message: "the run ended while this objective was in progress".into(),
            kind: "unfinished",
            body: failure_body(step, &reason, &steps_text),
        },
        StepStatus::Skipped => Verdict::Skipped {
            message: if reason.is_empty() { "not tried: an earlier objective failed".into() } else { reason.clone() },
        },
        StepStatus::Pending => Verdict::Skipped { message: "not reached: the run ended before it".into() },
    };
    let mut out = steps_text;
    if state.status == StepStatus::Completed && !reason.is_empty() {
        out.push_str(&format!("evidence: {reason}\n"));
    }
    if let Some(screenshot) = &state.stats.screenshot {
        out.push_str(&format!("screenshot: {screenshot}\n"));
    }
    Case {
        classname: classname.to_owned(),
        name: format!("{number}. {}", state.description),
        ms: state.stats.elapsed_ms,
        verdict,
        properties: properties(step),
        out,
    }
}

/// What an objective took: its evidence, attempts, approach, who decided, its pass, its tokens
/// and its screenshot.
fn properties(step: &Step) -> Vec<(&'static str, String)> {
    let stats = &step.state.stats;
    let mut properties = Vec::new();
    if let Some(evidence) = step.evidence() {
        properties.push(("evidence", evidence.to_owned()));
    }
    properties.push(("attempts", step.state.attempts.to_string()));
    if let Some(approach) = stats.approach {
        properties.push(("approach", approach.describe().to_owned()));
    }
    if let Some(decided_by) = stats.decided_by {
        properties.push(("decided_by", record_name(&decided_by)));
    }
    if stats.iteration > 0 {
        properties.push(("pass", stats.iteration.to_string()));
    }
    if stats.model_calls > 0 {
        properties.push(("model_calls", stats.model_calls.to_string()));
        properties.push(("tokens", format!("{} in, {} out", stats.input_tokens, stats.output_tokens)));
    }
    if let Some(screenshot) = &stats.screenshot {
        properties.push(("screenshot", screenshot.clone()));
    }
    properties
}

/// The objective's actions and recovery steps as numbered lines; a recovery step with what it
/// removed and its own actions under it.
fn entries_text(objectives: &Objectives, index: usize) -> String {
    let mut out = String::new();
    for (number, entry) in objectives.entries_of(index).into_iter().enumerate() {
        match entry {
            StepEntry::Action(action) => out.push_str(&format!("{}. action: {}\n", number + 1, action.line())),
            StepEntry::Recovery(recovery) => {
                let state = &recovery.state;
                let outcome = match (state.status, recovery.evidence()) {
                    (_, Some(evidence)) => evidence.to_owned(),
                    (status, None) => planwright_runs::objective::status_name(status).to_owned(),
                };
                out.push_str(&format!("{}. recovery: {} — {outcome}\n", number + 1, state.description));
                if let Some(reason) = &state.blocking_reason {
                    out.push_str(&format!("   blocked by: {reason}\n"));
                }
                for action in &recovery.actions {
                    out.push_str(&format!("   - {}\n", action.line()));
                }
            }
        }
    }
    out
}

fn failure_body(step: &Step, reason: &str, steps_text: &str) -> String {
    let state = &step.state;
    let mut body = String::new();
    if !reason.is_empty() {
        body.push_str(&format!("{reason}\n\n"));
    }
    body.push_str(&format!("{} made", plural(state.attempts as usize, "attempt")));
    if let Some(approach) = state.stats.approach {
        body.push_str(&format!("; the last: {}", approach.describe()));
    }
    body.push('\n');
    if !state.execution_plan.is_empty() {
        body.push_str(&format!("planned: {}\n", state.execution_plan.join("; ")));
    }
    if steps_text.is_empty() {
        body.push_str("no action was carried out\n");
    } else {
        body.push_str("actions taken:\n");
        body.push_str(steps_text);
    }
    if let Some(screenshot) = &state.stats.screenshot {
        body.push_str(&format!("screenshot: {screenshot}\n"));
    }
    body
}
