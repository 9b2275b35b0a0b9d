//! Seed 003's escalation: when the passes are spent and the request is not satisfied, the
//! decision goes back to the person through the run's human-input mechanism — a situation
//! report (what was asked, what was achieved with its evidence, what is missing and why, what
//! was tried) and the five choices — with "it was done" and "do it again" first when an action
//! that changes the world showed no effect. In the studio it is a form; from the command line the run
//! waits for input and `planwright resume --inputs` answers it (`{choice: accept_partial}`, or
//! `{choice: more_detail, detail: "…"}`).

use planwright_block::BlockError;
use planwright_runs::objective::{ObjectiveProgress, StepStatus};
use planwright_runs::planning::{
    ContinuationContext, EscalationChoice, ReportItem, SatisfactionEvaluation, SituationReport,
};
use planwright_runs::{ArtifactKind, FieldType, FormRequest, InputRequest, LogLevel, Requirement};
use serde_json::{json, Value};

use crate::runner::Runner;

/// The answer's field with the choice, and the one with the person's detail.
pub const CHOICE_FIELD: &str = "choice";
pub const DETAIL_FIELD: &str = "detail";

/// What the person chose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    MoreDetail(String),
    AlternativeApproach,
    AcceptPartial,
    TechnicalAnalysis,
    Cancel,
    ItWasDone,
    DoAgain,
}

impl Answer {
    pub fn choice(&self) -> EscalationChoice {
        match self {
            Answer::MoreDetail(_) => EscalationChoice::MoreDetail,
            Answer::AlternativeApproach => EscalationChoice::AlternativeApproach,
            Answer::AcceptPartial => EscalationChoice::AcceptPartial,
            Answer::TechnicalAnalysis => EscalationChoice::TechnicalAnalysis,
            Answer::Cancel => EscalationChoice::Cancel,
            Answer::ItWasDone => EscalationChoice::ItWasDone,
            Answer::DoAgain => EscalationChoice::DoAgain,
        }
    }
}

/// The situation report after the last pass.
pub fn report(
    progress: &ObjectiveProgress,
    evaluation: &SatisfactionEvaluation,
    context: &ContinuationContext,
    iterations: u32,
    max_iterations: u32,
    choices: Vec<EscalationChoice>,
    analysis: Option<String>,
) -> SituationReport {
    let item = |index: usize, description: &str, detail: String| ReportItem {
        objective: progress.objective_number(index),
        description: description.to_owned(),
        detail,
    };
    let achieved = progress
        .objectives_only()
        .filter(|s| s.status == StepStatus::Completed)
        .map(|s| item(s.index, &s.description, s.completion_evidence.clone().unwrap_or_default()))
        .collect();
    let missing = progress
        .objectives_only()
        .filter(|s| s.status != StepStatus::Completed)
        .map(|s| {
            let why = match (s.status, &s.completion_evidence) {
                (StepStatus::Failed, Some(reason)) => reason.clone(),
                _ => "not reached: an objective before it is not done".to_owned(),
            };
            item(s.index, &s.description, why)
        })
        .collect();
    SituationReport {
        request: progress.original_input.clone(),
        iterations,
        max_iterations,
        satisfaction: evaluation.overall_score,
        achieved,
        missing,
        tried: context.failed_approaches.clone(),
        choices,
        analysis,
    }
}

/// The report in a paragraph (English, for the record and the command line).
pub fn summary(report: &SituationReport) -> String {
    // Passes the person asked for come on top of the ones allowed.
    let passes = match (report.iterations, report.max_iterations) {
        (1, 1) => "its only pass".to_owned(),
        (n, max) if n <= max => format!("{n} of {max} passes"),
        (n, _) => format!("{n} passes"),
    };
    let mut text = format!(
        "the request is satisfied to {:.0} % after {passes}; {} of {} objectives done",
        report.satisfaction * 100.0,
        report.achieved.len(),
        report.achieved.len() + report.missing.len()
    );
    if let Some(first) = report.missing.first() {
        text.push_str(&format!("; missing: \"{}\" ({})", first.description, first.detail));
    }
    if !report.tried.is_empty() {
        text.push_str(&format!("; tried: {}", report.tried.join("; ")));
    }
    text
}

/// The form the person answers.
pub fn request(report: &SituationReport) -> InputRequest {
    let listed: Vec<String> =
        report.choices.iter().enumerate().map(|(n, c)| format!("{}. {} ({})", n + 1, c.label(), c.id())).collect();
    let message = format!(
        "The steps could not be completed as asked: {}.\nChoose how to go on:\n{}",
        summary(report),
        listed.join("\n")
    );
    let choice = Requirement {
        id: CHOICE_FIELD.into(),
        field: FieldType::Select,
        label: Some("How to go on".into()),
        description: Some(listed.join("; ")),
        options: report.choices.iter().map(|c| c.id().to_owned()).collect(),
        required: true,
        accept: None,
        hint: None,
        validation: None,
    };
    let detail = Requirement {
        id: DETAIL_FIELD.into(),
        field: FieldType::Text,
        label: Some("More detail (for more_detail)".into()),
        description: Some(
            "What the steps should do, in your words, e.g. 'Click \"Download CSV\"': used by the next pass".into(),
        ),
        options: Vec::new(),
        required: false,
        accept: None,
        hint: Some("Click \"Download CSV\" in the October row".into()),
        validation: None,
    };
    InputRequest::Collect(FormRequest {
        message,
        requirements: vec![choice, detail],
        context: json!({ "escalation": report }),
    })
}

/// The answer read: the choice among those offered, with the detail it needs.
pub fn read(answer: &planwright_runs::InputAnswer, report: &SituationReport) -> Result<Answer, String> {
    let choice = answer.values.get(CHOICE_FIELD).and_then(Value::as_str).unwrap_or_default();
    let Some(choice) = EscalationChoice::from_id(choice.trim()).filter(|c| report.choices.contains(c)) else {
        let offered: Vec<&str> = report.choices.iter().map(|c| c.id()).collect();
        return Err(format!("`choice` must be one of {}", offered.join(", ")));
    };
    Ok(match choice {
        EscalationChoice::MoreDetail => {
            let detail = answer.values.get(DETAIL_FIELD).and_then(Value::as_str).unwrap_or_default().trim();
            if detail.is_empty() {
                return Err("more_detail needs `detail`: what the steps should do, in your words".into());
            }
            Answer::MoreDetail(detail.to_owned())
        }
        EscalationChoice::AlternativeApproach => Answer::AlternativeApproach,
        EscalationChoice::AcceptPartial => Answer::AcceptPartial,
        EscalationChoice::TechnicalAnalysis => Answer::TechnicalAnalysis,
        EscalationChoice::Cancel => Answer::Cancel,
        EscalationChoice::ItWasDone => Answer::ItWasDone,
        EscalationChoice::DoAgain => Answer::DoAgain,
    })
}

/// The most times an answer that cannot be used is asked again before the run waits.
const MAX_UNUSABLE: usize = 2;

/// Asks the person; an answer the form could not check (a choice with no detail) is asked again.
pub async fn ask(ctx: &planwright_block::BlockContext, report: &SituationReport) -> Result<Answer, BlockError> {
    let mut problem: Option<String> = None;
    for _ in 0..=MAX_UNUSABLE {
        let mut form = request(report);
        if let (Some(problem), InputRequest::Collect(f)) = (&problem, &mut form) {
            f.message = format!("{problem}.\n\n{}", f.message);
        }
        let answer = ctx.input.ask(&ctx.node, form).await?;
        match read(&answer, report) {
            Ok(answer) => return Ok(answer),
            Err(why) => {
                ctx.log(LogLevel::Warn, format!("the answer cannot be used: {why}"));
                problem = Some(why);
            }
        }
    }
    Err(BlockError::no_answer(format!(
        "node `{}` waits for a decision: {} (answer `choice`, and `detail` for more_detail)",
        ctx.node,
        problem.unwrap_or_default()
    )))
}

/// Writes the technical analysis the person asked for — the request, the objectives with their
/// evidence, every approach tried and how it failed, the page as it is now (secrets masked),
/// and what could be changed; the evaluator's diagnosis added when a model is there — and
/// returns where it is.
pub async fn write_analysis(runner: &Runner<'_>, report: &SituationReport, context: &ContinuationContext) -> String {
    let ctx = runner.ctx();
    let progress = runner.progress();
    let url = runner.session().url().await.unwrap_or_default();
    let snapshot = runner.snapshot_for_analysis().await;
    let mut text = format!("# Technical analysis — node `{}`\n\n", ctx.node);
    text.push_str(&format!("## What was asked\n\n```\n{}\n```\n\n", report.request.trim()));
    text.push_str(&format!(
        "## Where it stands\n\n{} The page is at {}.\n\n",
        capitalised(&summary(report)),
        if url.is_empty() { "an unknown address".to_owned() } else { url }
    ));
    text.push_str("## Objectives\n\n");
    for step in progress.objectives_only() {
        let number = progress.objective_number(step.index);
        let state = planwright_runs::objective::status_name(step.status);
        text.push_str(&format!(
            "{number}. {} — **{state}** after {} attempt{}: {}\n",
            step.description,
            step.attempts,
            if step.attempts == 1 { "" } else { "s" },
            step.completion_evidence.as_deref().unwrap_or("—")
        ));
        for recovery in progress.objective_steps.iter().filter(|r| r.parent_index == Some(step.index)) {
            text.push_str(&format!("   - recovery: {}\n", recovery.description));
        }
    }
    text.push_str("\n## Approaches tried\n\n");
    if context.failed_approaches.is_empty() {
        text.push_str("None failed.\n");
    }
    for tried in &context.failed_approaches {
        text.push_str(&format!("- {tried}\n"));
    }
    text.push_str("\n## What could be changed\n\n");
    for suggestion in suggestions(runner) {
        text.push_str(&format!("- {suggestion}\n"));
    }
    if let Some(model) = runner.model() {
        match model
            .analyse_failure(&ctx.secrets.redact(&format!("{text}\n## The page now\n\n{snapshot}")), &ctx.cancel)
            .await
        {
            Ok(diagnosis) => text.push_str(&format!("\n## Diagnosis (the evaluator model)\n\n{diagnosis}\n")),
            Err(error) => ctx.log(LogLevel::Warn, format!("{error}; the analysis has no model diagnosis")),
        }
    }
    text.push_str(&format!("\n## The page now (interactive elements)\n\n```\n{snapshot}\n```\n"));
    text.push_str(&format!("\nThe attempts, one a line, are in `{}`.\n", ctx.record_dir.join("steps.jsonl").display()));
    let text = ctx.secrets.redact(&text);
    let count = std::fs::read_dir(&ctx.record_dir)
        .map(|d| d.flatten().filter(|e| e.file_name().to_string_lossy().starts_with("analysis")).count())
        .unwrap_or(0);
    let path = ctx.record_dir.join(format!("analysis-{}.md", count + 1));
    let written = planwright_fs::private_dir(&ctx.record_dir)
        .and_then(|()| planwright_fs::write_atomically(&path, text.as_bytes(), planwright_fs::Access::Private));
    match written {
        Ok(()) => ctx.artifact(&path, ArtifactKind::Report),
        Err(error) => ctx.log(LogLevel::Warn, format!("{}: {error}", path.display())),
    }
    path.display().to_string()
}

/// What the person could change, from how each open objective failed.
fn suggestions(runner: &Runner<'_>) -> Vec<String> {
    use crate::planning::FailureKind;
    let progress = runner.progress();
    let mut out = Vec::new();
    for (index, failure) in &runner.failures {
        let number = progress.objective_number(*index);
        out.push(match failure.kind {
            FailureKind::NotFound => format!(
                "objective {number}: the target was not on the page; write its name as the page shows it, in quotes, or \
                 add a step that opens the page it is on"
            ),
            FailureKind::Ambiguous => format!(
                "objective {number}: several elements fit; name the row, card or section it is in (\"in the October row\")"
            ),
            FailureKind::NoEffect => format!(
                "objective {number}: the action ran but the page showed no change; check that the page reacts to it, or \
                 say what should appear"
            ),
            FailureKind::CheckFailed => format!(
                "objective {number}: what the check looks for is not on the page; compare the expected text with what the \
                 page shows (the snapshot below)"
            ),
            FailureKind::Blocked => format!("objective {number}: something covers the page and has no button that closes it"),
            FailureKind::Loop => format!("objective {number}: the same action kept doing the same thing"),
            FailureKind::Browser | FailureKind::Final => {
                format!("objective {number}: the browser failed ({}); run it again", failure.reason)
            }
            FailureKind::Model => format!("objective {number}: the model could not help ({})", failure.reason),
            FailureKind::Refused => format!(
                "objective {number}: an action was refused for safety ({}); name the field or button exactly as the \
                 page labels it",
                failure.reason
            ),
            FailureKind::EffectUnknown => format!(
                "objective {number}: {}; check on the site whether it happened, then choose \"it was done\" or \"do it \
                 again\"",
                failure.reason
            ),
            FailureKind::PageError => format!(
                "objective {number}: the page answered with an error ({}); correct the value the steps give, or check \
                 the data on the site",
                failure.reason
            ),
        });
    }
    if out.is_empty() {
        out.push("every objective was reached; the request's evaluation found the evidence short".into());
    }
    out
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|c| c.to_uppercase().collect::<String>() + chars.as_str()).unwrap_or_default() + "."
}

#[cfg(test)]
mod tests {
    use super::*;
    use planwright_runs::planning::MadeBy;

    use crate::progress::ObjectiveTransitions;

    fn situation(choices: Vec<EscalationChoice>) -> SituationReport {
        let mut progress = ObjectiveProgress::begin(
            "1. Open Statements\n2. Export to PDF",
            ["Open Statements".into(), "Export to PDF".into()],
        );
        progress.start_current().unwrap();
        progress.complete_current("now at statements.html").unwrap();
        progress.advance();
        progress.fail_current("nothing matches \"Export to PDF\"").unwrap();
        let evaluation = SatisfactionEvaluation {
            overall_score: 0.4,
            requirement_scores: Default::default(),
            missing_aspects: vec![],
            quality_assessment: String::new(),
            quality_assessment_said: None,
            completion_recommendation: false,
            made_by: MadeBy::Offline,
        };
        report(&progress, &evaluation, &ContinuationContext::default(), 3, 3, choices, None)
    }

    #[test]
    fn the_report_says_what_was_achieved_and_what_is_missing() {
        let report = situation(EscalationChoice::ALL.to_vec());
        assert_eq!(report.achieved[0].detail, "now at statements.html");
        assert_eq!(report.missing[0].description, "Export to PDF");
        assert!(summary(&report).contains("40 % after 3 of 3 passes; 1 of 2 objectives done"), "{}", summary(&report));
        let InputRequest::Collect(form) = request(&report) else { panic!() };
        assert_eq!(form.requirements[0].options.len(), EscalationChoice::ALL.len());
        assert_eq!(form.context["escalation"]["missing"][0]["description"], "Export to PDF");
    }

    #[test]
    fn an_answer_is_one_of_the_choices_offered_with_the_detail_it_needs() {
        let report =
            situation(vec![EscalationChoice::MoreDetail, EscalationChoice::AcceptPartial, EscalationChoice::Cancel]);
        let answer = |v: Value| serde_json::from_value::<planwright_runs::InputAnswer>(v).unwrap();
        assert_eq!(read(&answer(json!({"choice": "accept_partial"})), &report), Ok(Answer::AcceptPartial));
        assert_eq!(
            read(&answer(json!({"choice": "more_detail", "detail": " Click \"Download PDF\" "})), &report),
            Ok(Answer::MoreDetail("Click \"Download PDF\"".into()))
        );
        assert!(read(&answer(json!({"choice": "more_detail"})), &report).unwrap_err().contains("detail"));
        assert!(read(&answer(json!({"choice": "alternative_approach"})), &report).unwrap_err().contains("one of"));
    }
}
