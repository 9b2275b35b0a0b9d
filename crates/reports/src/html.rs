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
use planwright_runs::{ArtifactKind, RunMessage, RunStatus};

use serde_json::json;

use crate::objectives::{Objectives, Step, StepAction, StepEntry};
use crate::record::{Artifact, HistoryEntry, HistoryKind, NodeOutcome, NodeRecord, RunRecord};
use crate::screenshot::{file_name, read_png};
use crate::text::{duration, escape as e, record_name};
use crate::words::{ReportOptions, Words};

const STYLE: &str = include_str!("html.css");

/// The HTML report of a run, in the reader's language and time zone.
pub fn html(run: &RunRecord, options: &ReportOptions) -> String {
    let w = &Words { options };
    let plan = if run.plan_id.is_empty() { "plan" } else { run.plan_id.as_str() };
    let mut page = String::with_capacity(64 * 1024);
    let title = w.say(
        "title",
        json!({"plan": e(plan), "run": e(short_id(&run.run_id)), "status": w.word(run_status(run.status).1)}),
    );
    page.push_str(&format!(
        "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{title}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n",
        w.lang().code(),
    ));
    header(&mut page, w, run, plan);
    nodes_table(&mut page, w, run);
    for node in &run.nodes {
        match &node.objectives {
            Some(objectives) => runner_section(&mut page, w, node, objectives),
            None if node.screenshots().next().is_some() => screenshots_section(&mut page, w, node),
            None => {}
        }
    }
    let footer = w.say("footer", json!({"mask": "<code>***</code>", "placeholder": "<code>{{NAME}}</code>"}));
    let zone = w.say("times_in", json!({"zone": e(&w.zone_name())}));
    page.push_str(&format!("<footer>{footer} {zone}</footer>\n</body>\n</html>\n"));
    page
}

/// The first part of a run id, enough to tell runs apart in a title.
fn short_id(run_id: &str) -> &str {
    run_id.get(..13).unwrap_or(run_id)
}

/// A run status's pill class and the key of its word.
fn run_status(status: Option<RunStatus>) -> (&'static str, &'static str) {
    match status {
        Some(RunStatus::Succeeded) => ("passed", "run.succeeded"),
        Some(RunStatus::Failed) => ("failed", "run.failed"),
        Some(RunStatus::Stopped) => ("failed", "run.stopped"),
        Some(RunStatus::WaitingForInput) => ("waiting", "run.waiting"),
        Some(RunStatus::Interrupted) => ("running", "run.interrupted"),
        Some(RunStatus::Running) | None => ("running", "run.unfinished"),
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

/// A step's status in words; one that succeeded with objectives unmet (`passed: false`) did
/// not pass.
fn node_word(w: &Words, node: &NodeRecord) -> String {
    w.word(match node.outcome {
        NodeOutcome::Succeeded if node.passed == Some(false) => "node.not_passed",
        NodeOutcome::Succeeded => "node.succeeded",
        NodeOutcome::Failed { .. } => "node.failed",
        NodeOutcome::Skipped { .. } => "node.skipped",
        NodeOutcome::Waiting { .. } => "node.waiting",
        NodeOutcome::Unfinished => "node.unfinished",
    })
}

fn step_class(status: StepStatus) -> &'static str {
    match status {
        StepStatus::Completed => "passed",
        StepStatus::Failed => "failed",
        StepStatus::InProgress => "running",
        StepStatus::Pending | StepStatus::Skipped => "skipped",
    }
}

fn header(page: &mut String, w: &Words, run: &RunRecord, plan: &str) {
    page.push_str(&format!("<header>\n<p class=\"eyebrow\">{}</p>\n", w.word("eyebrow")));
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
        page.push_str(&format!("<p class=\"run-id\">{} <code>{}</code></p>\n", w.word("run"), e(&run.run_id)));
    }
    // A run that ran to its end with a node's objectives (or request) unmet is no pass for the
    // person reading the report, though the engine counts it succeeded.
    let unmet = run.nodes.iter().filter(|n| n.outcome == NodeOutcome::Succeeded && n.passed == Some(false)).count();
    let (class, word) = match run.status {
        Some(RunStatus::Succeeded) if unmet > 0 => ("failed", "run.not_passed"),
        status => run_status(status),
    };
    let reason = match (&run.reason, unmet) {
        (Some(r), _) => format!("<span class=\"reason\">{}</span>", e(r)),
        (None, 0) => String::new(),
        (None, n) => format!("<span class=\"reason\">{}</span>", w.say("nodes_not_passed", json!({"n": n}))),
    };
    let verdict = w.say("verdict", json!({"status": w.word(word)}));
    page.push_str(&format!("<p class=\"verdict\"><span class=\"pill large {class}\">{verdict}</span>{reason}</p>\n"));

    let counts = &run.counts;
    let mut facts = vec![
        ("fact.started", run.started_at.as_deref().map_or("—".to_owned(), |at| e(&w.when(at)))),
        ("fact.duration", format!("<span class=\"figure\">{}</span>", duration(run.elapsed_ms))),
        (
            "fact.steps",
            w.say(
                "fact.steps_value",
                json!({"succeeded": counts.succeeded, "failed": counts.failed, "skipped": counts.skipped, "retried": counts.retried}),
            ),
        ),
    ];
    let (done, total) = run.nodes.iter().filter_map(|n| n.objectives.as_ref()).fold((0, 0), |(d, t), o| {
        let (done, total) = o.completed();
        (d + done, t + total)
    });
    if total > 0 {
        facts
            .push(("fact.objectives", format!("<span class=\"figure\">{done}/{total}</span> {}", w.word("completed"))));
    }
    facts.push((
        "fact.model",
        match counts.model_calls {
            0 => w.word("model.none"),
            calls => w.say(
                "model.calls",
                json!({"calls": calls, "input": counts.input_tokens, "output": counts.output_tokens}),
            ),
        },
    ));
    page.push_str("<dl class=\"facts\">\n");
    for (name, value) in facts {
        page.push_str(&format!("<div><dt>{}</dt><dd>{value}</dd></div>\n", w.word(name)));
    }
    page.push_str("</dl>\n");
    let lines = run.plan_text.lines().count();
    page.push_str(&format!(
        "<details class=\"plan-text\"><summary>{}</summary><pre>{}</pre></details>\n</header>\n",
        w.say("plan_as_run", json!({"lines": lines})),
        e(&run.plan_text)
    ));
}

fn nodes_table(page: &mut String, w: &Words, run: &RunRecord) {
    page.push_str(&format!("<h2>{}</h2>\n", w.word("steps")));
    if run.nodes.is_empty() {
        page.push_str(&format!("<p class=\"muted\">{}</p>\n", w.word("steps.none")));
        return;
    }
    page.push_str(&format!(
        "<table class=\"nodes\">\n<thead><tr><th>{}</th><th>{}</th><th>{}</th><th class=\"num\">{}</th><th class=\"num\">{}</th><th>{}</th></tr></thead>\n<tbody>\n",
        w.word("col.step"),
        w.word("col.block"),
        w.word("col.status"),
        w.word("col.time"),
        w.word("col.attempts"),
        w.word("col.details")
    ));
    for node in &run.nodes {
        let mut details = Vec::new();
        match &node.outcome {
            NodeOutcome::Failed { error, timed_out, continued } => {
                let mut text = format!("<span class=\"error\">{}</span>", e(error));
                if *timed_out {
                    text.push_str(&format!(" <small>{}</small>", w.word("timed_out")));
                }
                if *continued {
                    text.push_str(&format!(" <small>{}</small>", w.word("went_on")));
                }
                details.push(text);
            }
            NodeOutcome::Skipped { reason } => details.push(e(reason)),
            NodeOutcome::Waiting { message } => details.push(w.say("asked", json!({"message": e(message)}))),
            NodeOutcome::Succeeded | NodeOutcome::Unfinished => {}
        }
        if let Some(objectives) = &node.objectives {
            let (done, total) = objectives.completed();
            details.push(w.say("objectives_of", json!({"done": done, "total": total})));
        }
        if let Some(why) = node.unsatisfied() {
            details.push(e(&why));
        } else if node.passed == Some(false) && node.outcome == NodeOutcome::Succeeded {
            details.push(w.word("unmet_reported"));
        }
        for (attempt, error) in &node.retries {
            details.push(format!(
                "<small>{}</small>",
                w.say("attempt_failed", json!({"attempt": attempt, "error": e(error)}))
            ));
        }
        page.push_str(&format!(
            "<tr><td><code>{}</code></td><td class=\"muted\">{}</td><td><span class=\"pill {}\">{}</span></td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>\n",
            e(&node.path),
            node.block.as_deref().map_or("—".to_owned(), e),
            node_class(node),
            node_word(w, node),
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

fn runner_section(page: &mut String, w: &Words, node: &NodeRecord, objectives: &Objectives) {
    let (done, total) = objectives.completed();
    let failed = objectives.objectives().filter(|(_, s)| s.state.status == StepStatus::Failed).count();
    page.push_str("<section class=\"runner\">\n");
    page.push_str(&format!(
        "<h2 class=\"runner-head\">{} <span class=\"block\">{}</span></h2>\n",
        e(&node.path),
        e(node.block.as_deref().unwrap_or("browser.run_objectives"))
    ));
    let completed = w.say("objectives_completed", json!({"done": done, "total": total}));
    let mut summary = vec![completed.clone(), node_word(w, node)];
    if node.elapsed_ms > 0 {
        summary.push(duration(node.elapsed_ms));
    }
    if node.model_calls > 0 {
        summary.push(w.say(
            "model.calls",
            json!({"calls": node.model_calls, "input": node.input_tokens, "output": node.output_tokens}),
        ));
    }
    page.push_str(&format!("<p class=\"runner-summary\">{}</p>\n", summary.join(" · ")));
    if total > 0 {
        let share = |n: usize| n as f64 * 100.0 / total as f64;
        page.push_str(&format!(
            "<div class=\"progress\" role=\"img\" aria-label=\"{completed}\"><span class=\"passed\" style=\"width:{:.1}%\"></span><span class=\"failed\" style=\"width:{:.1}%\"></span></div>\n",
            share(done),
            share(failed)
        ));
    }
    if let Some(error) = node.error() {
        page.push_str(&format!(
            "<p class=\"evidence failed\"><span class=\"label\">{}</span>{}</p>\n",
            w.word("step_failed"),
            e(error)
        ));
    }
    if let Some(input) = objectives.original_input.as_deref().filter(|i| !i.trim().is_empty()) {
        page.push_str(&format!(
            "<details><summary>{}</summary><pre>{}</pre></details>\n",
            w.word("steps_as_written"),
            e(input)
        ));
    }
    page.push_str("<ol class=\"objectives\">\n");
    for (number, step) in objectives.objectives() {
        objective_item(page, w, objectives, number, step);
    }
    page.push_str("</ol>\n");
    if !node.warnings.is_empty() {
        page.push_str(&format!("<h4>{}</h4>\n<ul class=\"warnings\">\n", w.word("warnings")));
        for warning in &node.warnings {
            page.push_str(&format!("<li>{}</li>\n", e(&w.message(&warning.text, warning.said.as_ref()))));
        }
        page.push_str("</ul>\n");
    }
    let others = node.other_screenshots();
    if !others.is_empty() {
        page.push_str(&format!("<h4>{}</h4>\n", w.word("other_screenshots")));
        for shot in others {
            figure(page, w, &shot.path, &w.say("screenshot_of", json!({"step": node.path})));
        }
    }
    if !node.history.is_empty() {
        page.push_str(&format!("<h4>{}</h4>\n<ol class=\"timeline\">\n", w.word("planning_history")));
        for entry in &node.history {
            moment(page, w, entry, &node.artifacts);
        }
        page.push_str("</ol>\n");
    }
    page.push_str("</section>\n");
}

fn screenshots_section(page: &mut String, w: &Words, node: &NodeRecord) {
    page.push_str(&format!(
        "<section>\n<h2 class=\"runner-head\">{} <span class=\"block\">{}</span></h2>\n",
        e(&node.path),
        e(node.block.as_deref().unwrap_or(""))
    ));
    for shot in node.screenshots() {
        figure(page, w, &shot.path, &w.say("screenshot_of", json!({"step": node.path})));
    }
    page.push_str("</section>\n");
}

fn objective_item(page: &mut String, w: &Words, objectives: &Objectives, number: usize, step: &Step) {
    let state = &step.state;
    let class = step_class(state.status);
    page.push_str(&format!("<li class=\"objective {class}\">\n"));
    page.push_str(&format!(
        "<div class=\"objective-head\"><span class=\"number\">{number}</span><h3>{}</h3><span class=\"pill {class}\">{}</span></div>\n",
        e(&state.description),
        w.word(&format!("objective.{}", status_name(state.status)))
    ));
    if state.attempts > 0 || state.stats.elapsed_ms > 0 {
        page.push_str(&format!("<div class=\"stats\">{}</div>\n", stats(w, step).join("")));
    }
    page.push_str("<div class=\"body\">\n");
    let label = w.word(match state.status {
        StepStatus::Completed => "label.evidence",
        StepStatus::Failed => "label.why_failed",
        StepStatus::Skipped | StepStatus::Pending => "label.not_tried",
        StepStatus::InProgress => "label.in_progress",
    });
    let evidence = match step.evidence() {
        Some(english) => evidence_of(w, state, english),
        None => w.word(match state.status {
            StepStatus::Skipped => "none.skipped",
            StepStatus::Pending => "none.pending",
            StepStatus::InProgress => "none.in_progress",
            _ => "none.other",
        }),
    };
    page.push_str(&format!("<p class=\"evidence {class}\"><span class=\"label\">{label}</span>{evidence}</p>\n"));
    if state.status != StepStatus::Completed && !state.execution_plan.is_empty() {
        page.push_str(&format!(
            "<p class=\"plan-line\">{} <span class=\"action-text\">{}</span></p>\n",
            w.word("planned"),
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
                    action_text(page, w, action);
                    page.push_str("</li>\n");
                }
                StepEntry::Recovery(recovery) => recovery_item(page, w, recovery),
            }
        }
        page.push_str("</ol>\n");
    }
    if let Some(path) = &state.stats.screenshot {
        figure(page, w, path, &w.say("page_after", json!({"n": number})));
    }
    page.push_str("</div>\n</li>\n");
}

/// A step's evidence (or why it failed) as HTML, in the reader's language where the runner
/// coded it; a failure's English words follow as details, as the studio shows them.
fn evidence_of(w: &Words, state: &planwright_runs::objective::StepState, english: &str) -> String {
    let said = if state.said.evidence_parts.is_empty() {
        w.message(english, state.said.evidence_said.as_ref())
    } else {
        w.evidence(english, &state.said.evidence_parts)
    };
    if said == english {
        e(english)
    } else if state.status == StepStatus::Completed {
        e(&said)
    } else {
        format!("{}<br><small>{}: {}</small>", e(&said), w.word("details_english"), e(english))
    }
}

/// How an attempt approached its objective, in the reader's words, escaped.
fn approach_words(w: &Words, approach: planwright_runs::planning::Approach) -> String {
    e(&w.message(approach.describe(), Some(&approach.said())))
}

/// Attempts, time, tokens, who decided, the approach and the pass, as short facts.
fn stats(w: &Words, step: &Step) -> Vec<String> {
    let stats = &step.state.stats;
    let mut facts = vec![format!("<span><b>{}</b></span>", w.say("attempts", json!({"n": step.state.attempts})))];
    if stats.elapsed_ms > 0 {
        facts.push(format!("<span><b>{}</b></span>", duration(stats.elapsed_ms)));
    }
    facts.push(match stats.model_calls {
        0 => format!("<span>{}</span>", w.word("no_model_call")),
        calls => format!(
            "<span>{}</span>",
            w.say("model.calls", json!({"calls": calls, "input": stats.input_tokens, "output": stats.output_tokens}))
        ),
    });
    if let Some(decided_by) = stats.decided_by {
        let who = w.word(&format!("decided.{}", record_name(&decided_by)));
        facts.push(format!("<span>{}</span>", w.say("decided_by", json!({"who": format!("<b>{who}</b>")}))));
    }
    if let Some(approach) = stats.approach {
        facts.push(format!("<span>{}</span>", w.say("approach", json!({"approach": approach_words(w, approach)}))));
    }
    if stats.iteration > 1 {
        facts.push(format!("<span>{}</span>", w.say("pass", json!({"n": stats.iteration}))));
    }
    facts
}

fn action_text(page: &mut String, w: &Words, action: &StepAction) {
    let executed = &action.action;
    page.push_str(&format!("<span class=\"action-text\">{}</span>", e(&executed.action)));
    if let Some((class, word, help)) = effect_badge(executed.effect) {
        page.push_str(&format!(" <span class=\"effect {class}\" title=\"{}\">{}</span>", w.word(help), w.word(word)));
    }
    if let Some(locator) = executed.locator.as_deref().filter(|l| !l.is_empty() && !executed.action.contains(*l)) {
        page.push_str(&format!("<span class=\"locator\">{} <code>{}</code></span>", w.word("locator"), e(locator)));
    }
    if !executed.requests.is_empty() {
        page.push_str(&format!("<span class=\"requests\">{} ", w.word("requests_started")));
        for request in &executed.requests {
            let class = if request.refused() { "request refused" } else { "request" };
            page.push_str(&format!("<code class=\"{class}\">{}</code>", e(&request.to_string())));
        }
        page.push_str("</span>");
    }
    if !executed.result.is_empty() {
        let class = if executed.succeeded { "result" } else { "result failed" };
        let result = w.all(&executed.result, &executed.result_said, "");
        page.push_str(&format!("<span class=\"{class}\">→ {}</span>", e(&result)));
    }
}

/// How an action's effect is shown — its class, the keys of its word and of what the word
/// means — when it is more than safe.
fn effect_badge(effect: ActionEffect) -> Option<(&'static str, &'static str, &'static str)> {
    match effect {
        ActionEffect::Safe => None,
        ActionEffect::Effectful => Some(("once", "effect.once", "effect.once_help")),
        ActionEffect::NotRepeated => Some(("held", "effect.held", "effect.held_help")),
        ActionEffect::Refused => Some(("refused", "effect.refused", "effect.refused_help")),
    }
}

fn recovery_item(page: &mut String, w: &Words, recovery: &Step) {
    let state = &recovery.state;
    let class = step_class(state.status);
    page.push_str("<li class=\"recovery\">\n");
    page.push_str(&format!(
        "<div class=\"recovery-head\"><span class=\"kind\">{}</span><strong>{}</strong><span class=\"pill {class}\">{}</span></div>\n",
        w.word("recovery"),
        e(&w.message(&state.description, state.said.description_said.as_ref())),
        w.word(&format!("objective.{}", status_name(state.status)))
    ));
    if let Some(reason) = &state.blocking_reason {
        // By its role and name when the runner coded them, as the studio names it.
        let named = match &state.said.description_said {
            Some(RunMessage::RecoveryClose { blocking_role, blocking, .. }) => {
                w.say("element", json!({"role": blocking_role, "name": blocking}))
            }
            _ => reason.clone(),
        };
        page.push_str(&format!("<p><span class=\"muted\">{}</span> {}</p>\n", w.word("in_the_way"), e(&named)));
    }
    if let Some(evidence) = recovery.evidence() {
        page.push_str(&format!(
            "<p><span class=\"muted\">{}</span> {}</p>\n",
            w.word("outcome"),
            evidence_of(w, state, evidence)
        ));
    }
    if !recovery.actions.is_empty() {
        page.push_str("<ul>\n");
        for action in &recovery.actions {
            page.push_str("<li>");
            action_text(page, w, action);
            page.push_str("</li>\n");
        }
        page.push_str("</ul>\n");
    }
    page.push_str("</li>\n");
}

/// The size past which a page embeds no more screenshots.
const MAX_PAGE_BYTES: usize = 64 * 1024 * 1024;

/// A screenshot embedded, or a line naming it and why it is not.
fn figure(page: &mut String, w: &Words, path: &str, alt: &str) {
    // The page itself is the budget: past it, screenshots are named, not embedded, so a run
    // with many of them cannot make a report of gigabytes.
    if page.len() > MAX_PAGE_BYTES {
        let said = w.say(
            "shot_over_limit",
            json!({"file": format!("<code>{}</code>", e(path)), "mib": MAX_PAGE_BYTES / (1024 * 1024)}),
        );
        page.push_str(&format!("<p class=\"missing\">{said}</p>\n"));
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
            "<p class=\"missing\">{}</p>\n",
            w.say("shot_unreadable", json!({"file": format!("<code>{}</code>", e(path)), "why": e(&why)}))
        )),
    }
}

/// One moment of the planning history.
fn moment(page: &mut String, w: &Words, entry: &HistoryEntry, artifacts: &[Artifact]) {
    let (class, title, body) = match &entry.kind {
        HistoryKind::Planning(PlanningEntry::Plan { plan, .. }) => ("plan", plan_title(w, plan), plan_body(w, plan)),
        HistoryKind::Planning(PlanningEntry::Reflection { reflection, .. }) => {
            ("reflection", reflection_title(w, reflection), reflection_body(w, reflection))
        }
        HistoryKind::Planning(PlanningEntry::Revision { revision, .. }) => {
            ("revision", w.say("revision", json!({"n": revision.number})), revision_body(w, revision))
        }
        HistoryKind::Task(task) => task_moment(w, task, artifacts),
    };
    page.push_str(&format!(
        "<li class=\"{class}\"><div class=\"moment\"><time datetime=\"{}\">{}</time><strong>{}</strong></div>{body}</li>\n",
        e(&entry.at),
        e(&w.clock(&entry.at)),
        e(&title)
    ));
}

fn plan_title(w: &Words, plan: &TaskPlan) -> String {
    let model = plan.made_by == planwright_runs::planning::MadeBy::Model;
    match (plan.iteration <= 1, model) {
        (true, false) => w.word("plan.offline"),
        (true, true) => w.word("plan.model"),
        (false, false) => w.say("plan.continuation_offline", json!({"n": plan.iteration})),
        (false, true) => w.say("plan.continuation_model", json!({"n": plan.iteration})),
    }
}

fn plan_body(w: &Words, plan: &TaskPlan) -> String {
    let goal = &plan.goal_understanding;
    let mut body = format!("<p>{}</p>", e(&w.message(&goal.main_objective, goal.main_objective_said.as_ref())));
    if !plan.task_decomposition.subtasks.is_empty() {
        body.push_str("<ol>");
        for subtask in &plan.task_decomposition.subtasks {
            let criterion = criterion_of(w, subtask);
            body.push_str(&format!(
                "<li>{} <span class=\"sub\">— {}</span></li>",
                e(&subtask.description),
                w.say("done_when", json!({"criterion": e(&criterion)}))
            ));
        }
        body.push_str("</ol>");
    }
    if !plan.action_plan.actions.is_empty() {
        body.push_str(&format!(
            "<p class=\"sub\">{} <span class=\"action-text\">{}</span></p>",
            w.word("first_actions"),
            e(&plan.action_plan.actions.join("; "))
        ));
    }
    if let Some(continuation) = &plan.continuation {
        for (label, items) in
            [("failed_approaches", &continuation.failed_approaches), ("learned", &continuation.learned_constraints)]
        {
            if !items.is_empty() {
                body.push_str(&format!("<p class=\"sub\">{}</p>{}", w.word(label), list(items)));
            }
        }
        if let Some(detail) = &continuation.person_detail {
            body.push_str(&format!("<p class=\"sub\">{}</p>", w.say("person_added", json!({"detail": e(detail)}))));
        }
    }
    body
}

/// A subtask's success criterion in the reader's language when the runner coded it.
fn criterion_of(w: &Words, subtask: &planwright_runs::planning::Subtask) -> String {
    w.all(&subtask.success_criterion, &subtask.success_criterion_said, "、")
}

fn reflection_title(w: &Words, reflection: &Reflection) -> String {
    let status = w.word(&format!("reflection.{}", record_name(&reflection.status)));
    match reflection.trigger {
        ReflectionTrigger::Error => match (reflection.objective, reflection.attempt) {
            (Some(objective), Some(attempt)) => {
                w.say("reflection.error_at", json!({"attempt": attempt, "objective": objective, "status": status}))
            }
            _ => w.say("reflection.error", json!({"status": status})),
        },
        ReflectionTrigger::Interval => w.say("reflection.interval", json!({"n": reflection.actions, "status": status})),
        ReflectionTrigger::Iteration => w.say("reflection.iteration", json!({"status": status})),
    }
}

fn reflection_body(w: &Words, reflection: &Reflection) -> String {
    let mut body = format!("<p>{}</p>", e(&w.all(&reflection.evaluation, &reflection.evaluation_said, "")));
    if reflection.plan_revision_needed {
        body.push_str(&format!("<p class=\"sub\">{}</p>", w.word("needs_revising")));
    }
    body
}

fn revision_body(w: &Words, revision: &Revision) -> String {
    let mut body = format!("<p>{}</p>", e(&w.all(&revision.reason, &revision.reason_said, "")));
    if !revision.changes.is_empty() {
        body.push_str("<ul>");
        for change in &revision.changes {
            body.push_str(&format!(
                "<li>{}",
                w.say(
                    "revision.objective",
                    json!({"n": change.objective, "what": e(&w.message(&change.description, change.description_said.as_ref()))})
                )
            ));
            if change.description != change.approach.describe() {
                body.push_str(&format!(" <span class=\"sub\">({})</span>", approach_words(w, change.approach)));
            }
            if !change.execution_plan_after.is_empty() {
                body.push_str(&format!(
                    "<br><span class=\"sub\">{} <span class=\"action-text\">{}</span></span>",
                    w.word("revision.now"),
                    e(&change.execution_plan_after.join("; "))
                ));
            }
            body.push_str("</li>");
        }
        body.push_str("</ul>");
    }
    body
}

fn task_moment(w: &Words, task: &TaskEvent, artifacts: &[Artifact]) -> (&'static str, String, String) {
    let score = task.satisfaction.as_ref().map(|s| format!("{:.0} %", s.overall_score * 100.0));
    match task.change {
        TaskChange::IterationStarted => {
            ("pass", w.say("pass_started", json!({"n": task.iteration, "max": task.max_iterations})), String::new())
        }
        TaskChange::Evaluated => {
            let mut body = String::new();
            if let Some(satisfaction) = &task.satisfaction {
                let said = w.message(&satisfaction.quality_assessment, satisfaction.quality_assessment_said.as_ref());
                body.push_str(&format!("<p>{}</p>", e(&said)));
                if !satisfaction.missing_aspects.is_empty() {
                    body.push_str(&format!(
                        "<p class=\"sub\">{}</p>{}",
                        w.word("missing"),
                        list(&satisfaction.missing_aspects)
                    ));
                }
            }
            let title = match &score {
                Some(score) => w.say("pass_judged", json!({"n": task.iteration, "score": score})),
                None => w.say("pass_judged_none", json!({"n": task.iteration})),
            };
            ("pass", title, body)
        }
        TaskChange::Escalated => (
            "escalation",
            w.say("escalated", json!({"n": task.iteration})),
            task.report.as_ref().map(|report| situation(w, report, artifacts)).unwrap_or_default(),
        ),
        TaskChange::Answered => (
            "answer",
            match task.choice {
                Some(choice) => w.say("person_chose", json!({"choice": choice_word(w, choice)})),
                None => w.word("person_answered"),
            },
            String::new(),
        ),
        TaskChange::Finished => (
            "pass",
            match score {
                Some(score) => w.say("ended_scored", json!({"n": task.iteration, "score": score})),
                None => w.say("ended", json!({"n": task.iteration})),
            },
            String::new(),
        ),
    }
}

/// An escalation's choice in the reader's words.
fn choice_word(w: &Words, choice: planwright_runs::planning::EscalationChoice) -> String {
    w.word(&format!("choice.{}", record_name(&choice)))
}

/// What the person was shown when the decision went back to them.
fn situation(w: &Words, report: &SituationReport, artifacts: &[Artifact]) -> String {
    let mut body = format!(
        "<p>{}</p>",
        w.say(
            "situation",
            json!({"percent": format!("{:.0}", report.satisfaction * 100.0), "n": report.iterations, "max": report.max_iterations}),
        )
    );
    let items = |items: &[planwright_runs::planning::ReportItem]| -> Vec<String> {
        items.iter().map(|i| format!("{} — {}", i.description, i.detail)).collect()
    };
    for (label, lines) in
        [("achieved", items(&report.achieved)), ("missing", items(&report.missing)), ("tried", report.tried.clone())]
    {
        if !lines.is_empty() {
            body.push_str(&format!("<p class=\"sub\">{}</p>{}", w.word(label), list(&lines)));
        }
    }
    if !report.choices.is_empty() {
        let choices: Vec<String> = report.choices.iter().map(|c| choice_word(w, *c)).collect();
        body.push_str(&format!(
            "<p class=\"sub\">{}</p>",
            w.say("offered", json!({"choices": e(&choices.join(" · "))}))
        ));
    }
    if let Some(path) = &report.analysis {
        match analysis_text(path, artifacts) {
            Some(text) => body.push_str(&format!(
                "<details><summary>{}</summary><pre>{}</pre></details>",
                w.word("analysis"),
                e(&text)
            )),
            None => body.push_str(&format!(
                "<p class=\"sub\">{}</p>",
                w.say("analysis_elsewhere", json!({"path": format!("<code>{}</code>", e(path))}))
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
