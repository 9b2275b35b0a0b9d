//! The HTML report: one self-contained page — inline CSS, screenshots embedded as `data:` URIs,
//! no script and nothing fetched — that a QA engineer attaches to a ticket: the plan, the run,
//! every node, and for each runner node its objectives with their evidence, actions, recovery
//! steps and screenshots, then its planning history as a timeline. Every text from the record
//! is escaped: page text and model answers are untrusted.

use base64::Engine as _;
use planwright_runs::objective::{status_name, ActionEffect, StepStatus};
use planwright_runs::planning::{
    PlanningEntry, Reflection, ReflectionTrigger, Revision, SituationReport, TaskChange, TaskEvent, TaskPlan,
};
use planwright_runs::{ArtifactKind, RunStatus};

use crate::objectives::{effect_said, Objectives, Step, StepAction, StepEntry};
use crate::record::{Artifact, HistoryEntry, HistoryKind, NodeOutcome, NodeRecord, RunRecord};
use crate::screenshot::{file_name, read_png};
use crate::text::{duration, escape as e, plural, when};

const STYLE: &str = include_str!("html.css");

/// The HTML report of a run.
pub fn html(run: &RunRecord) -> String {
    let plan = if run.plan_id.is_empty() { "plan" } else { run.plan_id.as_str() };
    let mut page = String::with_capacity(64 * 1024);
    page.push_str(&format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{} — run {} — {}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n",
        e(plan),
        e(short_id(&run.run_id)),
        run_status(run.status).1
    ));
    header(&mut page, run, plan);
    nodes_table(&mut page, run);
    for node in &run.nodes {
        match &node.objectives {
            Some(objectives) => runner_section(&mut page, node, objectives),
            None if node.screenshots().next().is_some() => screenshots_section(&mut page, node),
            None => {}
        }
    }
    page.push_str(
        "<footer>Written by Planwright from the run's record. Secret values are masked (<code>***</code>) as the record \
         holds them; placeholders such as <code>{{NAME}}</code> stand for values typed at run time.</footer>\n</body>\n</html>\n",
    );
    page
}

/// The first part of a run id, enough to tell runs apart in a title.
fn short_id(run_id: &str) -> &str {
    run_id.get(..13).unwrap_or(run_id)
}

/// A run status's pill class and word.
fn run_status(status: Option<RunStatus>) -> (&'static str, &'static str) {
    match status {
        Some(RunStatus::Succeeded) => ("passed", "succeeded"),
        Some(RunStatus::Failed) => ("failed", "failed"),
        Some(RunStatus::Stopped) => ("failed", "stopped"),
        Some(RunStatus::WaitingForInput) => ("waiting", "waiting for input"),
        Some(RunStatus::Interrupted) => ("running", "interrupted"),
        Some(RunStatus::Running) | None => ("running", "unfinished"),
    }
}

fn node_class(node: &NodeRecord) -> &'static str {
    match node.outcome {
        NodeOutcome::Succeeded if node.passed == Some(false) => "failed",
        NodeOutcome::Succeeded => "passed",
        NodeOutcome::Failed { .. } => "failed",
        NodeOutcome::Skipped { .. } => "skipped",
        NodeOutcome::Waiting { .. } => "waiting",
        NodeOutcome::Unfinished => "running",
    }
}

/// A node's status in words; a node that succeeded with objectives unmet (`passed: false`)
/// did not pass.
fn node_word(node: &NodeRecord) -> &'static str {
    match node.outcome {
        NodeOutcome::Succeeded if node.passed == Some(false) => "not passed",
        _ => node.status_word(),
    }
}

fn step_class(status: StepStatus) -> &'static str {
    match status {
        StepStatus::Completed => "passed",
        StepStatus::Failed => "failed",
        StepStatus::InProgress => "running",
        StepStatus::Pending | StepStatus::Skipped => "skipped",
    }
}

fn header(page: &mut String, run: &RunRecord, plan: &str) {
    page.push_str("<header>\n<p class=\"eyebrow\">Planwright run report</p>\n");
    let version = if run.plan_version.is_empty() {
        String::new()
    } else {
        format!("<span class=\"version\">v{}</span>", e(&run.plan_version))
    };
    page.push_str(&format!("<h1>{}{version}</h1>\n", e(plan)));
    if let Some(description) = &run.plan_description {
        page.push_str(&format!("<p class=\"description\">{}</p>\n", e(description)));
    }
    if !run.run_id.is_empty() {
        page.push_str(&format!("<p class=\"run-id\">Run <code>{}</code></p>\n", e(&run.run_id)));
    }
    // A run that ran to its end with a node's objectives (or request) unmet is no pass for the
    // person reading the report, though the engine counts it succeeded.
    let unmet = run.nodes.iter().filter(|n| n.outcome == NodeOutcome::Succeeded && n.passed == Some(false)).count();
    let (class, word) = match run.status {
        Some(RunStatus::Succeeded) if unmet > 0 => ("failed", "finished, not passed"),
        status => run_status(status),
    };
    let reason = match (&run.reason, unmet) {
        (Some(r), _) => format!("<span class=\"reason\">{}</span>", e(r)),
        (None, 0) => String::new(),
        (None, n) => format!("<span class=\"reason\">{} did not pass</span>", plural(n, "node")),
    };
    page.push_str(&format!("<p class=\"verdict\"><span class=\"pill large {class}\">Run {word}</span>{reason}</p>\n"));

    let counts = &run.counts;
    let mut facts = vec![
        ("Started", run.started_at.as_deref().map_or("—".to_owned(), |at| e(&when(at)))),
        ("Duration", format!("<span class=\"figure\">{}</span>", duration(run.elapsed_ms))),
        (
            "Nodes",
            format!(
                "{} succeeded · {} failed · {} skipped{}",
                counts.succeeded,
                counts.failed,
                counts.skipped,
                match counts.retried {
                    0 => String::new(),
                    n => format!(" · {}", plural(n as usize, "retry")),
                }
            ),
        ),
    ];
    let (done, total) = run.nodes.iter().filter_map(|n| n.objectives.as_ref()).fold((0, 0), |(d, t), o| {
        let (done, total) = o.completed();
        (d + done, t + total)
    });
    if total > 0 {
        facts.push(("Objectives", format!("<span class=\"figure\">{done}/{total}</span> completed")));
    }
    facts.push((
        "Model",
        match counts.model_calls {
            0 => "no model calls".to_owned(),
            calls => format!(
                "{} · {} + {} tokens",
                plural(calls as usize, "call"),
                counts.input_tokens,
                counts.output_tokens
            ),
        },
    ));
    page.push_str("<dl class=\"facts\">\n");
    for (name, value) in facts {
        page.push_str(&format!("<div><dt>{name}</dt><dd>{value}</dd></div>\n"));
    }
    page.push_str("</dl>\n");
    let lines = run.plan_text.lines().count();
    page.push_str(&format!(
        "<details class=\"plan-text\"><summary>The plan as run ({})</summary><pre>{}</pre></details>\n</header>\n",
        plural(lines, "line"),
        e(&run.plan_text)
    ));
}

fn nodes_table(page: &mut String, run: &RunRecord) {
    page.push_str("<h2>Nodes</h2>\n");
    if run.nodes.is_empty() {
        page.push_str("<p class=\"muted\">The record has no node events.</p>\n");
        return;
    }
    page.push_str(
        "<table class=\"nodes\">\n<thead><tr><th>Node</th><th>Block</th><th>Status</th><th class=\"num\">Time</th><th class=\"num\">Attempts</th><th>Details</th></tr></thead>\n<tbody>\n",
    );
    for node in &run.nodes {
        let mut details = Vec::new();
        match &node.outcome {
            NodeOutcome::Failed { error, timed_out, continued } => {
                let mut text = format!("<span class=\"error\">{}</span>", e(error));
                if *timed_out {
                    text.push_str(" <small>(timed out)</small>");
                }
                if *continued {
                    text.push_str(" <small>(the run went on)</small>");
                }
                details.push(text);
            }
            NodeOutcome::Skipped { reason } => details.push(e(reason)),
            NodeOutcome::Waiting { message } => details.push(format!("asked: {}", e(message))),
            NodeOutcome::Succeeded | NodeOutcome::Unfinished => {}
        }
        if let Some(objectives) = &node.objectives {
            let (done, total) = objectives.completed();
            details.push(format!("{done}/{total} objectives"));
        }
        if let Some(why) = node.unsatisfied() {
            details.push(e(&why));
        } else if node.passed == Some(false) && node.outcome == NodeOutcome::Succeeded {
            details.push("the node reported its objectives unmet rather than failing".to_owned());
        }
        for (attempt, error) in &node.retries {
            details.push(format!("<small>attempt {attempt} failed: {}</small>", e(error)));
        }
        page.push_str(&format!(
            "<tr><td><code>{}</code></td><td class=\"muted\">{}</td><td><span class=\"pill {}\">{}</span></td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>\n",
            e(&node.path),
            node.block.as_deref().map_or("—".to_owned(), e),
            node_class(node),
            node_word(node),
            match node.outcome {
                NodeOutcome::Unfinished | NodeOutcome::Waiting { .. } => "—".to_owned(),
                _ => duration(node.elapsed_ms),
            },
            node.attempts,
            details.join("<br>")
        ));
    }
    page.push_str("</tbody>\n</table>\n");
}

fn runner_section(page: &mut String, node: &NodeRecord, objectives: &Objectives) {
    let (done, total) = objectives.completed();
    let failed = objectives.objectives().filter(|(_, s)| s.state.status == StepStatus::Failed).count();
    page.push_str("<section class=\"runner\">\n");
    page.push_str(&format!(
        "<h2 class=\"runner-head\">{} <span class=\"block\">{}</span></h2>\n",
        e(&node.path),
        e(node.block.as_deref().unwrap_or("browser.run_objectives"))
    ));
    let mut summary = vec![format!("{done}/{total} objectives completed"), node_word(node).to_owned()];
    if node.elapsed_ms > 0 {
        summary.push(duration(node.elapsed_ms));
    }
    if node.model_calls > 0 {
        summary.push(format!(
            "{} · {} + {} tokens",
            plural(node.model_calls as usize, "model call"),
            node.input_tokens,
            node.output_tokens
        ));
    }
    page.push_str(&format!("<p class=\"runner-summary\">{}</p>\n", summary.join(" · ")));
    if total > 0 {
        let share = |n: usize| n as f64 * 100.0 / total as f64;
        page.push_str(&format!(
            "<div class=\"progress\" role=\"img\" aria-label=\"{done} of {total} objectives completed\"><span class=\"passed\" style=\"width:{:.1}%\"></span><span class=\"failed\" style=\"width:{:.1}%\"></span></div>\n",
            share(done),
            share(failed)
        ));
    }
    if let Some(error) = node.error() {
        page.push_str(&format!(
            "<p class=\"evidence failed\"><span class=\"label\">The node failed</span>{}</p>\n",
            e(error)
        ));
    }
    if let Some(input) = objectives.original_input.as_deref().filter(|i| !i.trim().is_empty()) {
        page.push_str(&format!("<details><summary>The steps as written</summary><pre>{}</pre></details>\n", e(input)));
    }
    page.push_str("<ol class=\"objectives\">\n");
    for (number, step) in objectives.objectives() {
        objective_item(page, objectives, number, step);
    }
    page.push_str("</ol>\n");
    if !node.warnings.is_empty() {
        page.push_str("<h4>Warnings</h4>\n<ul class=\"warnings\">\n");
        for warning in &node.warnings {
            page.push_str(&format!("<li>{}</li>\n", e(warning)));
        }
        page.push_str("</ul>\n");
    }
    let others = node.other_screenshots();
    if !others.is_empty() {
        page.push_str("<h4>Other screenshots</h4>\n");
        for shot in others {
            figure(page, &shot.path, &format!("Screenshot of {}", node.path));
        }
    }
    if !node.history.is_empty() {
        page.push_str("<h4>Planning history</h4>\n<ol class=\"timeline\">\n");
        for entry in &node.history {
            moment(page, entry, &node.artifacts);
        }
        page.push_str("</ol>\n");
    }
    page.push_str("</section>\n");
}

fn screenshots_section(page: &mut String, node: &NodeRecord) {
    page.push_str(&format!(
        "<section>\n<h2 class=\"runner-head\">{} <span class=\"block\">{}</span></h2>\n",
        e(&node.path),
        e(node.block.as_deref().unwrap_or(""))
    ));
    for shot in node.screenshots() {
        figure(page, &shot.path, &format!("Screenshot of {}", node.path));
    }
    page.push_str("</section>\n");
}

fn objective_item(page: &mut String, objectives: &Objectives, number: usize, step: &Step) {
    let state = &step.state;
    let class = step_class(state.status);
    page.push_str(&format!("<li class=\"objective {class}\">\n"));
    page.push_str(&format!(
        "<div class=\"objective-head\"><span class=\"number\">{number}</span><h3>{}</h3><span class=\"pill {class}\">{}</span></div>\n",
        e(&state.description),
        status_name(state.status)
    ));
    if state.attempts > 0 || state.stats.elapsed_ms > 0 {
        page.push_str(&format!("<div class=\"stats\">{}</div>\n", stats(step).join("")));
    }
    page.push_str("<div class=\"body\">\n");
    let label = match state.status {
        StepStatus::Completed => "Evidence",
        StepStatus::Failed => "Why it failed",
        StepStatus::Skipped | StepStatus::Pending => "Not tried",
        StepStatus::InProgress => "Still in progress when the run ended",
    };
    let evidence = step.evidence().map(e).unwrap_or_else(|| match state.status {
        StepStatus::Skipped => "an earlier objective failed".to_owned(),
        StepStatus::Pending => "the run ended before it".to_owned(),
        StepStatus::InProgress => "no evidence yet".to_owned(),
        _ => "the record gives no reason".to_owned(),
    });
    page.push_str(&format!("<p class=\"evidence {class}\"><span class=\"label\">{label}</span>{evidence}</p>\n"));
    if state.status != StepStatus::Completed && !state.execution_plan.is_empty() {
        page.push_str(&format!(
            "<p class=\"plan-line\">Planned: <span class=\"action-text\">{}</span></p>\n",
            e(&state.execution_plan.join("; "))
        ));
    }
    let entries = objectives.entries_of(state.index);
    if !entries.is_empty() {
        page.push_str("<ol class=\"entries\">\n");
        for entry in entries {
            match entry {
                StepEntry::Action(action) => {
                    page.push_str("<li class=\"action\">");
                    action_text(page, action);
                    page.push_str("</li>\n");
                }
                StepEntry::Recovery(recovery) => recovery_item(page, recovery),
            }
        }
        page.push_str("</ol>\n");
    }
    if let Some(path) = &state.stats.screenshot {
        figure(page, path, &format!("The page after objective {number}"));
    }
    page.push_str("</div>\n</li>\n");
}

/// Attempts, time, tokens, who decided, the approach and the pass, as short facts.
fn stats(step: &Step) -> Vec<String> {
    let stats = &step.state.stats;
    let mut facts = vec![format!("<span><b>{}</b></span>", plural(step.state.attempts as usize, "attempt"))];
    if stats.elapsed_ms > 0 {
        facts.push(format!("<span><b>{}</b></span>", duration(stats.elapsed_ms)));
    }
    facts.push(match stats.model_calls {
        0 => "<span>no model call</span>".to_owned(),
        calls => format!(
            "<span><b>{}</b> · {} + {} tokens</span>",
            plural(calls as usize, "model call"),
            stats.input_tokens,
            stats.output_tokens
        ),
    });
    if let Some(decided_by) = stats.decided_by {
        let who = match decided_by {
            planwright_runs::objective::DecidedBy::Cache => "replayed from the action cache",
            planwright_runs::objective::DecidedBy::Offline => "the offline resolver",
            planwright_runs::objective::DecidedBy::Model => "the model",
        };
        facts.push(format!("<span>decided by <b>{who}</b></span>"));
    }
    if let Some(approach) = stats.approach {
        facts.push(format!("<span>approach: {}</span>", e(approach.describe())));
    }
    if stats.iteration > 1 {
        facts.push(format!("<span>pass {}</span>", stats.iteration));
    }
    facts
}

fn action_text(page: &mut String, action: &StepAction) {
    let executed = &action.action;
    page.push_str(&format!("<span class=\"action-text\">{}</span>", e(&executed.action)));
    if let (Some(label), Some((class, help))) = (effect_said(executed.effect), effect_badge(executed.effect)) {
        page.push_str(&format!(" <span class=\"effect {class}\" title=\"{help}\">{label}</span>"));
    }
    if let Some(locator) = executed.locator.as_deref().filter(|l| !l.is_empty() && !executed.action.contains(*l)) {
        page.push_str(&format!("<span class=\"locator\">locator <code>{}</code></span>", e(locator)));
    }
    if !executed.requests.is_empty() {
        page.push_str("<span class=\"requests\">started ");
        for request in &executed.requests {
            let class = if request.refused() { "request refused" } else { "request" };
            page.push_str(&format!("<code class=\"{class}\">{}</code>", e(&request.to_string())));
        }
        page.push_str("</span>");
    }
    if !executed.result.is_empty() {
        let class = if executed.succeeded { "result" } else { "result failed" };
        page.push_str(&format!("<span class=\"{class}\">→ {}</span>", e(&executed.result)));
    }
}

/// How an action's effect is shown — its class and what its words mean — when it is more than
/// safe.
fn effect_badge(effect: ActionEffect) -> Option<(&'static str, &'static str)> {
    match effect {
        ActionEffect::Safe => None,
        ActionEffect::Effectful => Some((
            "once",
            "It may have changed something (sent, paid, saved): the runner never does it again on its own.",
        )),
        ActionEffect::NotRepeated => {
            Some(("held", "It was already done once for this objective, so it was not done again."))
        }
        ActionEffect::Refused => Some(("refused", "A safety rule refused it: it was not carried out.")),
    }
}

fn recovery_item(page: &mut String, recovery: &Step) {
    let state = &recovery.state;
    let class = step_class(state.status);
    page.push_str("<li class=\"recovery\">\n");
    page.push_str(&format!(
        "<div class=\"recovery-head\"><span class=\"kind\">Recovery</span><strong>{}</strong><span class=\"pill {class}\">{}</span></div>\n",
        e(&state.description),
        status_name(state.status)
    ));
    if let Some(reason) = &state.blocking_reason {
        page.push_str(&format!("<p><span class=\"muted\">In the way:</span> {}</p>\n", e(reason)));
    }
    if let Some(evidence) = recovery.evidence() {
        page.push_str(&format!("<p><span class=\"muted\">Outcome:</span> {}</p>\n", e(evidence)));
    }
    if !recovery.actions.is_empty() {
        page.push_str("<ul>\n");
        for action in &recovery.actions {
            page.push_str("<li>");
            action_text(page, action);
            page.push_str("</li>\n");
        }
        page.push_str("</ul>\n");
    }
    page.push_str("</li>\n");
}

/// The size past which a page embeds no more screenshots.
const MAX_PAGE_BYTES: usize = 64 * 1024 * 1024;

/// A screenshot embedded, or a line naming it and why it is not.
fn figure(page: &mut String, path: &str, alt: &str) {
    // The page itself is the budget: past it, screenshots are named, not embedded, so a run
    // with many of them cannot make a report of gigabytes.
    if page.len() > MAX_PAGE_BYTES {
        page.push_str(&format!(
            "<p class=\"missing\">Screenshot <code>{}</code> is not shown: the report has reached its size limit ({} MiB).</p>\n",
            e(path),
            MAX_PAGE_BYTES / (1024 * 1024)
        ));
        return;
    }
    match read_png(path) {
        Ok(bytes) => page.push_str(&format!(
            "<figure><img src=\"data:image/png;base64,{}\" alt=\"{}\"><figcaption>{}</figcaption></figure>\n",
            base64::engine::general_purpose::STANDARD.encode(bytes),
            e(alt),
            e(file_name(path))
        )),
        Err(why) => page.push_str(&format!(
            "<p class=\"missing\">Screenshot <code>{}</code> is not shown: {}.</p>\n",
            e(path),
            e(&why)
        )),
    }
}

/// One moment of the planning history.
fn moment(page: &mut String, entry: &HistoryEntry, artifacts: &[Artifact]) {
    let time = when(&entry.at);
    let clock = time.get(11..19).unwrap_or(&time);
    let (class, title, body) = match &entry.kind {
        HistoryKind::Planning(PlanningEntry::Plan { plan, .. }) => ("plan", plan_title(plan), plan_body(plan)),
        HistoryKind::Planning(PlanningEntry::Reflection { reflection, .. }) => {
            ("reflection", reflection_title(reflection), reflection_body(reflection))
        }
        HistoryKind::Planning(PlanningEntry::Revision { revision, .. }) => {
            ("revision", format!("Revision {}", revision.number), revision_body(revision))
        }
        HistoryKind::Task(task) => task_moment(task, artifacts),
    };
    page.push_str(&format!(
        "<li class=\"{class}\"><div class=\"moment\"><time datetime=\"{}\">{}</time><strong>{}</strong></div>{body}</li>\n",
        e(&entry.at),
        e(clock),
        e(&title)
    ));
}

fn plan_title(plan: &TaskPlan) -> String {
    let by = match plan.made_by {
        planwright_runs::planning::MadeBy::Offline => "offline",
        planwright_runs::planning::MadeBy::Model => "by the model",
    };
    if plan.iteration <= 1 {
        format!("Plan ({by})")
    } else {
        format!("Continuation plan for pass {} ({by})", plan.iteration)
    }
}

fn plan_body(plan: &TaskPlan) -> String {
    let goal = &plan.goal_understanding;
    let mut body = format!("<p>{}</p>", e(&goal.main_objective));
    if !plan.task_decomposition.subtasks.is_empty() {
        body.push_str("<ol>");
        for subtask in &plan.task_decomposition.subtasks {
            body.push_str(&format!(
                "<li>{} <span class=\"sub\">— done when {}</span></li>",
                e(&subtask.description),
                e(&subtask.success_criterion)
            ));
        }
        body.push_str("</ol>");
    }
    if !plan.action_plan.actions.is_empty() {
        body.push_str(&format!(
            "<p class=\"sub\">First actions: <span class=\"action-text\">{}</span></p>",
            e(&plan.action_plan.actions.join("; "))
        ));
    }
    if let Some(continuation) = &plan.continuation {
        for (label, items) in [
            ("Approaches that failed", &continuation.failed_approaches),
            ("Learned", &continuation.learned_constraints),
        ] {
            if !items.is_empty() {
                body.push_str(&format!("<p class=\"sub\">{label}:</p>{}", list(items)));
            }
        }
        if let Some(detail) = &continuation.person_detail {
            body.push_str(&format!("<p class=\"sub\">The person added: {}</p>", e(detail)));
        }
    }
    body
}

fn reflection_title(reflection: &Reflection) -> String {
    let when = match reflection.trigger {
        ReflectionTrigger::Error => match (reflection.objective, reflection.attempt) {
            (Some(objective), Some(attempt)) => format!("on failed attempt {attempt} at step {objective}"),
            _ => "on a failed attempt".to_owned(),
        },
        ReflectionTrigger::Interval => format!("after {}", plural(reflection.actions as usize, "action")),
        ReflectionTrigger::Iteration => "at the end of a pass".to_owned(),
    };
    let status = match reflection.status {
        planwright_runs::planning::ReflectionStatus::Success => "success",
        planwright_runs::planning::ReflectionStatus::Failure => "failure",
        planwright_runs::planning::ReflectionStatus::Partial => "partial",
    };
    format!("Reflection {when} — {status}")
}

fn reflection_body(reflection: &Reflection) -> String {
    let mut body = format!("<p>{}</p>", e(&reflection.evaluation));
    if reflection.plan_revision_needed {
        body.push_str("<p class=\"sub\">The plan needs revising.</p>");
    }
    body
}

fn revision_body(revision: &Revision) -> String {
    let mut body = format!("<p>{}</p>", e(&revision.reason));
    if !revision.changes.is_empty() {
        body.push_str("<ul>");
        for change in &revision.changes {
            body.push_str(&format!("<li>step {}: {}", change.objective, e(&change.description)));
            if change.description != change.approach.describe() {
                body.push_str(&format!(" <span class=\"sub\">({})</span>", e(change.approach.describe())));
            }
            if !change.execution_plan_after.is_empty() {
                body.push_str(&format!(
                    "<br><span class=\"sub\">now: <span class=\"action-text\">{}</span></span>",
                    e(&change.execution_plan_after.join("; "))
                ));
            }
            body.push_str("</li>");
        }
        body.push_str("</ul>");
    }
    body
}

fn task_moment(task: &TaskEvent, artifacts: &[Artifact]) -> (&'static str, String, String) {
    let score = task.satisfaction.as_ref().map(|s| format!("{:.0} %", s.overall_score * 100.0));
    match task.change {
        TaskChange::IterationStarted => {
            ("pass", format!("Pass {} of {} started", task.iteration, task.max_iterations), String::new())
        }
        TaskChange::Evaluated => {
            let mut body = String::new();
            if let Some(satisfaction) = &task.satisfaction {
                body.push_str(&format!("<p>{}</p>", e(&satisfaction.quality_assessment)));
                if !satisfaction.missing_aspects.is_empty() {
                    body.push_str(&format!("<p class=\"sub\">Missing:</p>{}", list(&satisfaction.missing_aspects)));
                }
            }
            (
                "pass",
                format!("Pass {} judged: the request is {} satisfied", task.iteration, score.unwrap_or("not".into())),
                body,
            )
        }
        TaskChange::Escalated => (
            "escalation",
            format!("Escalated to a person after {}", plural(task.iteration as usize, "pass")),
            task.report.as_ref().map(|report| situation(report, artifacts)).unwrap_or_default(),
        ),
        TaskChange::Answered => (
            "answer",
            match task.choice {
                Some(choice) => format!("The person chose: {}", choice.label()),
                None => "The person answered".to_owned(),
            },
            String::new(),
        ),
        TaskChange::Finished => (
            "pass",
            match score {
                Some(score) => format!("The task ended after pass {}, {score} satisfied", task.iteration),
                None => format!("The task ended after pass {}", task.iteration),
            },
            String::new(),
        ),
    }
}

/// What the person was shown when the decision went back to them.
fn situation(report: &SituationReport, artifacts: &[Artifact]) -> String {
    let mut body = format!(
        "<p>Satisfied to {:.0} % after {} of {} passes.</p>",
        report.satisfaction * 100.0,
        report.iterations,
        report.max_iterations
    );
    let items = |items: &[planwright_runs::planning::ReportItem]| -> Vec<String> {
        items.iter().map(|i| format!("{} — {}", i.description, i.detail)).collect()
    };
    for (label, lines) in
        [("Achieved", items(&report.achieved)), ("Missing", items(&report.missing)), ("Tried", report.tried.clone())]
    {
        if !lines.is_empty() {
            body.push_str(&format!("<p class=\"sub\">{label}:</p>{}", list(&lines)));
        }
    }
    if !report.choices.is_empty() {
        let choices: Vec<String> = report.choices.iter().map(|c| c.label().to_owned()).collect();
        body.push_str(&format!("<p class=\"sub\">Offered: {}</p>", e(&choices.join(" · "))));
    }
    if let Some(path) = &report.analysis {
        match analysis_text(path, artifacts) {
            Some(text) => body
                .push_str(&format!("<details><summary>Technical analysis</summary><pre>{}</pre></details>", e(&text))),
            None => body.push_str(&format!(
                "<p class=\"sub\">Technical analysis written to <code>{}</code> (not readable here).</p>",
                e(path)
            )),
        }
    }
    body
}

/// The technical analysis at `path` when the record names it as the node's report (never some
/// other file), up to 1 MiB.
fn analysis_text(path: &str, artifacts: &[Artifact]) -> Option<String> {
    use std::io::Read;
    const MAX_BYTES: u64 = 1024 * 1024;
    if !artifacts.iter().any(|a| a.path == path && a.kind == ArtifactKind::Report) {
        return None;
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path).ok()?.take(MAX_BYTES).read_to_end(&mut bytes).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

fn list(items: &[String]) -> String {
    let mut html = String::from("<ul>");
    for item in items {
        html.push_str(&format!("<li>{}</li>", e(item)));
    }
    html.push_str("</ul>");
    html
}
