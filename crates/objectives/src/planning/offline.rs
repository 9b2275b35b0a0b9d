//! The planning layer's deterministic counterparts, used with no model (and whenever a model's
//! answer cannot be used): the plan from the checklist and the step reader, the requirements one
//! per objective, reflections from the attempts, the action reports and the page, revisions from
//! what failed, and the request's satisfaction from the objectives' evidence.

use std::collections::BTreeMap;

use planwright_runs::objective::{ObjectiveProgress, ObjectiveStep, StepStatus};
use planwright_runs::planning::{
    ActionPlan, Approach, Complexity, ContinuationContext, GoalUnderstanding, MadeBy, RequirementItem,
    SatisfactionEvaluation, Subtask, TaskDecomposition, TaskPlan,
};
use planwright_runs::RunMessage;

use super::settings::DecompositionLevel;
use super::{AttemptReport, FailureKind};
use crate::intent::{parse_step, Action, Intent};

/// What the plan is made for.
pub struct PlanInput<'a> {
    pub progress: &'a ObjectiveProgress,
    pub start_url: &'a str,
    pub placeholders: &'a [String],
    pub level: DecompositionLevel,
    pub limits: Limits,
}

/// The runner's limits, which the plan names as constraints.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_attempts: u32,
    pub max_revisions: u32,
    pub max_iterations: u32,
}

/// The plan before acting: the objectives as subtasks in order, each with how it will be judged,
/// and the first objective's execution plan.
pub fn plan(input: &PlanInput<'_>) -> TaskPlan {
    let objectives: Vec<&ObjectiveStep> = input.progress.objectives_only().collect();
    let intents: Vec<Vec<Intent>> = objectives.iter().map(|s| parse_step(&s.description)).collect();
    let subtasks: Vec<Subtask> = objectives
        .iter()
        .zip(&intents)
        .enumerate()
        .map(|(n, (step, intents))| Subtask {
            id: subtask_id(n),
            description: step.description.clone(),
            dependencies: if n == 0 { Vec::new() } else { vec![subtask_id(n - 1)] },
            complexity: complexity(intents),
            success_criterion: criteria(intents).join("; "),
            success_criterion_said: criteria_said(intents),
        })
        .collect();
    let first = input.progress.current_step().map(|s| s.index).unwrap_or(0);
    let first_intents =
        input.progress.objective_steps.get(first).map(|s| parse_step(&s.description)).unwrap_or_default();
    let (main_objective, main_objective_said) = main_objective(&objectives, &intents);
    TaskPlan {
        iteration: 1,
        goal_understanding: GoalUnderstanding {
            main_objective,
            main_objective_said,
            success_criteria: subtasks.iter().map(|s| format!("{}: {}", s.id, s.success_criterion)).collect(),
            constraints: constraints(input),
        },
        task_decomposition: TaskDecomposition { reasoning: reasoning(&objectives, &intents), subtasks },
        action_plan: ActionPlan {
            execution_order: (0..objectives.len()).map(subtask_id).collect(),
            actions: execution_plan(
                input.progress.objective_steps.get(first).map(|s| s.description.as_str()).unwrap_or_default(),
                &first_intents,
                input.level,
            ),
        },
        requirements: requirements(input.progress),
        continuation: None,
        made_by: MadeBy::Offline,
    }
}

/// A continuation plan: the objectives still open, the approach each next pass takes on the one
/// that failed, and what earlier passes taught.
pub fn continuation_plan(
    first_plan: &TaskPlan,
    progress: &ObjectiveProgress,
    iteration: u32,
    context: &ContinuationContext,
    next: &[(usize, Approach)],
) -> TaskPlan {
    let open: Vec<String> = progress
        .objectives_only()
        .enumerate()
        .filter(|(_, s)| s.status != StepStatus::Completed)
        .map(|(n, _)| subtask_id(n))
        .collect();
    let actions = next
        .iter()
        .map(|(index, approach)| format!("objective {}: {}", progress.objective_number(*index), approach.describe()))
        .collect();
    let mut plan = first_plan.clone();
    plan.iteration = iteration;
    plan.goal_understanding.constraints.extend(context.learned_constraints.iter().cloned());
    plan.goal_understanding.constraints.dedup();
    plan.task_decomposition.reasoning = format!(
        "Pass {iteration} picks up where pass {} stopped: the objectives done stay done, and the one that failed \
         is approached in a way that has not failed on it before ({}).",
        iteration - 1,
        if context.failed_approaches.is_empty() {
            "none failed yet".to_owned()
        } else {
            context.failed_approaches.join("; ")
        }
    );
    plan.action_plan = ActionPlan { execution_order: open, actions };
    plan.continuation = Some(context.clone());
    plan.made_by = MadeBy::Offline;
    plan
}

/// `objective_3`: a subtask's id, from its objective's position among the objectives (from 0).
pub fn subtask_id(n: usize) -> String {
    format!("objective_{}", n + 1)
}

/// Seed 003's requirements: one per objective; a check, a note, a wait and the task's last
/// objective (what the task is for) weigh most.
pub fn requirements(progress: &ObjectiveProgress) -> Vec<RequirementItem> {
    let objectives: Vec<&ObjectiveStep> = progress.objectives_only().collect();
    let items = objectives
        .iter()
        .enumerate()
        .map(|(n, step)| {
            let intents = parse_step(&step.description);
            let checks =
                intents.iter().any(|i| matches!(i.action, Action::Verify { .. } | Action::Note { .. } | Action::Wait));
            RequirementItem {
                requirement: step.description.clone(),
                satisfaction_level: 0.0,
                evidence: Vec::new(),
                priority: if checks || n + 1 == objectives.len() { 1 } else { 2 },
                objective: Some(n + 1),
            }
        })
        .collect();
    distinct(items)
}

/// The requirements with distinct texts: scores are kept by a requirement's text, so two
/// objectives written alike ("Click Next" twice) are told apart by their number.
pub fn distinct(mut items: Vec<RequirementItem>) -> Vec<RequirementItem> {
    let mut seen = std::collections::HashSet::new();
    for (n, item) in items.iter_mut().enumerate() {
        if !seen.insert(item.requirement.clone()) {
            item.requirement = match item.objective {
                Some(objective) => format!("{} (objective {objective})", item.requirement),
                None => format!("{} (requirement {})", item.requirement, n + 1),
            };
            seen.insert(item.requirement.clone());
        }
    }
    items
}

/// How much a requirement of this priority weighs in the overall score.
fn weight(priority: u8) -> f64 {
    match priority {
        1 => 3.0,
        2 => 2.0,
        _ => 1.0,
    }
}

/// The requirements scored from the objectives' state and evidence; `partial` gives, for a
/// failed objective, how many of the things it asks for were done before it failed.
pub fn evaluate(
    requirements: &mut [RequirementItem],
    progress: &ObjectiveProgress,
    partial: &BTreeMap<usize, (usize, usize)>,
    threshold: f64,
) -> SatisfactionEvaluation {
    let mut scores = BTreeMap::new();
    let mut missing = Vec::new();
    for requirement in requirements.iter_mut() {
        let step = requirement.objective.and_then(|n| progress.objective_numbered(n));
        let (level, evidence) = match step {
            Some(step) if step.status == StepStatus::Completed => {
                (1.0, step.completion_evidence.iter().cloned().collect::<Vec<_>>())
            }
            Some(step) => {
                let level = match (step.status, partial.get(&step.index)) {
                    (StepStatus::Failed, Some(&(done, total))) if total > 0 => 0.5 * done as f64 / total as f64,
                    _ => 0.0,
                };
                let why = match (step.status, &step.completion_evidence) {
                    (StepStatus::Failed, Some(reason)) => format!("{}: {reason}", requirement.requirement),
                    _ => format!("{}: not reached", requirement.requirement),
                };
                missing.push(why);
                (level, Vec::new())
            }
            // A requirement no objective carries is scored as the objectives are, on average.
            None => (progress.completed_objectives() as f64 / progress.total_objectives().max(1) as f64, Vec::new()),
        };
        requirement.satisfaction_level = level;
        requirement.evidence = evidence;
        scores.insert(requirement.requirement.clone(), level);
    }
    let total: f64 = requirements.iter().map(|r| weight(r.priority)).sum();
    let overall = if total == 0.0 {
        1.0
    } else {
        requirements.iter().map(|r| weight(r.priority) * r.satisfaction_level).sum::<f64>() / total
    };
    let overall = (overall * 1000.0).round() / 1000.0;
    let unmet_high = requirements.iter().filter(|r| r.priority == 1 && r.satisfaction_level < threshold).count();
    // An objective still open means a step the person asked for did not happen: never done.
    let completion = overall >= threshold && unmet_high == 0 && progress.all_completed();
    let quality = format!(
        "{} of {} objectives done with evidence from the page{}",
        progress.completed_objectives(),
        progress.total_objectives(),
        match unmet_high {
            0 => String::new(),
            1 => "; one high-priority requirement is not met".to_owned(),
            n => format!("; {n} high-priority requirements are not met"),
        }
    );
    SatisfactionEvaluation {
        overall_score: overall,
        requirement_scores: scores,
        missing_aspects: missing,
        quality_assessment: quality,
        quality_assessment_said: Some(RunMessage::ObjectivesDoneWithEvidence {
            done: progress.completed_objectives() as u64,
            total: progress.total_objectives() as u64,
            unmet_high: unmet_high as u64,
        }),
        completion_recommendation: completion,
        made_by: MadeBy::Offline,
    }
}

/// The approaches worth trying after a failure, in order (those the objective cannot use left
/// out). A target not found on a page that goes on below the window is scrolled for first.
pub fn approaches_for(report: &AttemptReport, intents: &[Intent], model: bool) -> Vec<Approach> {
    let candidates: &[Approach] = match report.kind {
        FailureKind::NotFound if report.more_below => {
            &[Approach::ScrollToFind, Approach::WaitForPage, Approach::ModelDecides, Approach::ReloadPage]
        }
        FailureKind::NotFound => {
            &[Approach::WaitForPage, Approach::ScrollToFind, Approach::ModelDecides, Approach::ReloadPage]
        }
        FailureKind::Ambiguous => &[Approach::ModelDecides],
        FailureKind::NoEffect => {
            &[Approach::WaitForPage, Approach::TextLocator, Approach::ReloadPage, Approach::ModelDecides]
        }
        // A check of a still page, with nothing loading, reads the same however long it waits.
        FailureKind::CheckFailed if report.at_rest => &[],
        FailureKind::CheckFailed => &[Approach::WaitForPage, Approach::ReloadPage],
        FailureKind::Blocked | FailureKind::Loop => &[Approach::ReloadPage, Approach::ModelDecides],
        FailureKind::Browser => &[Approach::ReloadPage],
        FailureKind::Model => &[Approach::AsWritten],
        // Another element may keep the rule; a model's choice is checked the same way.
        FailureKind::Refused => &[Approach::ModelDecides],
        // Another attempt would do the effect again, or meet the same answer: the person decides.
        FailureKind::EffectUnknown | FailureKind::PageError | FailureKind::Final => &[],
    };
    candidates.iter().copied().filter(|a| applies(*a, intents, model)).collect()
}

/// Every approach the person may ask for as "an alternative" on an objective.
pub fn alternatives(intents: &[Intent], model: bool) -> Vec<Approach> {
    [
        Approach::WaitForPage,
        Approach::ScrollToFind,
        Approach::TextLocator,
        Approach::ReloadPage,
        Approach::ModelDecides,
        Approach::AsWritten,
    ]
    .into_iter()
    .filter(|a| applies(*a, intents, model))
    .collect()
}

/// Whether an approach can change anything for these intents.
fn applies(approach: Approach, intents: &[Intent], model: bool) -> bool {
    let acts = intents.iter().any(is_action);
    let targets = intents.iter().any(|i| is_action(i) && !matches!(i.action, Action::Open { url: Some(_) }));
    match approach {
        Approach::ModelDecides => model && acts,
        Approach::TextLocator | Approach::ScrollToFind => targets,
        Approach::PersonDetail => false,
        _ => true,
    }
}

/// Whether an intent acts on the page (rather than reading it: a check, a note, a wait).
pub fn is_action(intent: &Intent) -> bool {
    !matches!(intent.action, Action::Verify { .. } | Action::Note { .. } | Action::Wait)
}

/// A reflection on a failed attempt: what failed, on what page, and what comes next.
pub fn reflect_on_failure(report: &AttemptReport, number: usize, next: Option<Approach>) -> (String, Vec<RunMessage>) {
    let mut text = format!(
        "Objective {number}, attempt {} ({}) failed: {}.",
        report.attempt,
        report.approach.describe(),
        report.reason
    );
    // The objective and the attempt are said beside the reflection; the failure by its kind.
    let mut said = vec![RunMessage::ObjectiveNotReached {
        kind: report.kind.name().to_owned(),
        attempts: u64::from(report.attempt),
    }];
    if report.intents_done > 0 {
        text.push_str(&format!(
            " {} of the {} things it asks for were done before that.",
            report.intents_done, report.intents_total
        ));
        said.push(RunMessage::ReflectionDoneBefore {
            done: report.intents_done as u64,
            total: report.intents_total as u64,
        });
    }
    text.push_str(if report.at_rest {
        " The page was at rest, so looking again the same way would see the same."
    } else {
        " The page was still changing."
    });
    said.push(RunMessage::ReflectionPage { at_rest: report.at_rest });
    match next {
        Some(approach) => {
            text.push_str(&format!(" Next: {} (not tried on this objective).", approach.describe()));
            said.extend([RunMessage::ReflectionNext, approach.said()]);
        }
        None if report.last_in_pass => {
            text.push_str(" No attempt is left in this pass; the task loop decides what comes next.");
            said.push(RunMessage::ReflectionNoAttemptLeft);
        }
        None => {
            text.push_str(" No other approach fits this failure that has not been tried or is allowed.");
            said.push(RunMessage::ReflectionNoOtherApproach);
        }
    }
    (text, said)
}

/// The actions of the last window, all the same and changing nothing: a loop.
pub fn is_loop(window: &[(String, String)]) -> bool {
    window.len() >= 3 && window.iter().all(|w| *w == window[0])
}

/// An execution plan for an objective at the level asked.
pub fn execution_plan(description: &str, intents: &[Intent], level: DecompositionLevel) -> Vec<String> {
    match level {
        DecompositionLevel::Coarse => vec![description.to_owned()],
        DecompositionLevel::Moderate => intents.iter().map(Intent::describe).collect(),
        DecompositionLevel::Fine => {
            intents.iter().flat_map(|i| [i.describe(), format!("then judge: {}", criterion(i))]).collect()
        }
    }
}

/// What the page must show for an intent to count as done.
pub fn criterion(intent: &Intent) -> String {
    let target = intent.names.first().map(|n| format!("\"{n}\"")).unwrap_or_else(|| {
        if intent.phrase.is_empty() {
            "the target".to_owned()
        } else {
            intent.phrase.clone()
        }
    });
    match &intent.action {
        Action::Open { url: Some(url) } => format!("the page at {url} is open"),
        Action::Open { url: None } => format!("the page {target} leads to is shown"),
        Action::Click if intent.downloads => format!("clicking {target} saves a file"),
        Action::Click | Action::Hover | Action::Press { .. } => format!("the page changes after {}", intent.describe()),
        Action::Fill(pairs) => pairs
            .iter()
            .map(|(field, value)| match field {
                Some(field) => format!("\"{field}\" holds {}", value.shown()),
                None => format!("the field holds {}", value.shown()),
            })
            .collect::<Vec<_>>()
            .join(", "),
        Action::Choose { field, value } => match field {
            Some(field) => format!("\"{field}\" shows \"{value}\""),
            None => format!("\"{value}\" is chosen"),
        },
        Action::Check { on } => format!("{target} is {}", if *on { "on" } else { "off" }),
        Action::Search { query } => format!("results for {} are shown", query.shown()),
        Action::Login { .. } => "the sign-in is accepted and the page moves on".to_owned(),
        Action::Download => format!("a file is downloaded ({target})"),
        Action::Wait => format!("{target} is shown"),
        Action::Verify { expected, negated, .. } => {
            let what = expected.iter().map(|e| format!("\"{e}\"")).collect::<Vec<_>>().join(" and ");
            format!("{what} {}", if *negated { "is not shown" } else { "is shown" })
        }
        Action::Note { label, name } => format!("\"{label}\" is read from the page and kept as {name}"),
        Action::Scroll { .. } => "the page scrolls".to_owned(),
        Action::Close => format!("{target} is closed"),
        Action::Back => "the page before is shown".to_owned(),
    }
}

fn criteria(intents: &[Intent]) -> Vec<String> {
    intents.iter().map(criterion).collect()
}

/// [`criterion`] coded, for the studio's language: none when one of them cannot be (an action
/// the codes have no words for), so that the codes never say less than the words.
fn criteria_said(intents: &[Intent]) -> Vec<RunMessage> {
    intents.iter().map(criterion_said).collect::<Option<Vec<Vec<_>>>>().map(|c| c.concat()).unwrap_or_default()
}

fn criterion_said(intent: &Intent) -> Option<Vec<RunMessage>> {
    // As `criterion` names it; with no words for it ("the target"), a code would say less.
    let target = match (intent.names.first(), intent.phrase.is_empty()) {
        (Some(name), _) => Some(format!("\"{name}\"")),
        (None, false) => Some(intent.phrase.clone()),
        (None, true) => None,
    };
    let one = |said: RunMessage| Some(vec![said]);
    match &intent.action {
        Action::Open { url: Some(url) } => one(RunMessage::CriterionPageOpen { url: url.clone() }),
        Action::Open { url: None } => one(RunMessage::CriterionLeadsTo { target: target? }),
        Action::Click if intent.downloads => one(RunMessage::CriterionSavesFile { target: target? }),
        Action::Click if intent.context.is_empty() => one(RunMessage::CriterionPageChanges { target: target? }),
        Action::Fill(pairs) => Some(
            pairs
                .iter()
                .map(|(field, value)| match field {
                    Some(field) => RunMessage::CriterionFieldHolds { field: field.clone(), value: value.shown() },
                    None => RunMessage::CriterionTyped { value: value.shown() },
                })
                .collect(),
        ),
        Action::Choose { field: Some(field), value } => {
            one(RunMessage::CriterionFieldShows { field: field.clone(), value: value.clone() })
        }
        Action::Choose { field: None, value } => one(RunMessage::CriterionChosen { value: value.clone() }),
        Action::Check { on } => one(RunMessage::CriterionSwitched { target: target?, on: *on }),
        Action::Search { query } => one(RunMessage::CriterionResultsShown { query: query.shown() }),
        Action::Login { .. } => one(RunMessage::CriterionSignedIn),
        Action::Download => one(RunMessage::CriterionFileDownloaded { target: target? }),
        Action::Wait => one(RunMessage::CriterionShown { what: target?, negated: false }),
        Action::Verify { expected, negated, .. } => {
            let what = expected.iter().map(|e| format!("\"{e}\"")).collect::<Vec<_>>().join(", ");
            one(RunMessage::CriterionShown { what, negated: *negated })
        }
        Action::Note { label, name } => one(RunMessage::CriterionNoted { label: label.clone(), name: name.clone() }),
        Action::Scroll { .. } => one(RunMessage::CriterionScrolls),
        Action::Close => one(RunMessage::CriterionClosed { target: target? }),
        Action::Back => one(RunMessage::CriterionBack),
        Action::Click | Action::Hover | Action::Press { .. } => None,
    }
}

fn complexity(intents: &[Intent]) -> Complexity {
    let unnamed = intents
        .iter()
        .filter(|i| is_action(i) && i.names.is_empty() && !matches!(i.action, Action::Open { url: Some(_) }))
        .count();
    match (intents.len(), unnamed) {
        (_, n) if n >= 2 => Complexity::High,
        (1, 0) => Complexity::Low,
        _ => Complexity::Medium,
    }
}

/// What the steps are for: the last step that acts, with how many there are; coded for the
/// studio's language when it says more than the step's own words.
fn main_objective(objectives: &[&ObjectiveStep], intents: &[Vec<Intent>]) -> (String, Option<RunMessage>) {
    let last_action = objectives.iter().zip(intents).rev().find(|(_, i)| i.iter().any(is_action)).map(|(s, _)| s);
    match (last_action, objectives.first()) {
        (Some(step), _) if objectives.len() == 1 => (step.description.clone(), None),
        (Some(step), _) => (
            format!("{} ({} steps in all)", step.description, objectives.len()),
            Some(RunMessage::PlanMainObjective { step: step.description.clone(), steps: objectives.len() as u64 }),
        ),
        (None, Some(first)) => (first.description.clone(), None),
        (None, None) => ("nothing: the steps are empty".to_owned(), None),
    }
}

fn constraints(input: &PlanInput<'_>) -> Vec<String> {
    let mut constraints = vec![format!("start at {}", input.start_url)];
    if !input.placeholders.is_empty() {
        let named: Vec<String> = input.placeholders.iter().map(|p| format!("{{{{{p}}}}}")).collect();
        constraints.push(format!(
            "credentials only as placeholders ({}): typed, never shown to a model or written down",
            named.join(", ")
        ));
    }
    constraints.push("dialogs and banners in the way are closed with the choice that keeps privacy".to_owned());
    constraints.push(format!(
        "at most {} attempts an objective, {} plan revisions, {} passes over the task",
        input.limits.max_attempts, input.limits.max_revisions, input.limits.max_iterations
    ));
    constraints
}

fn reasoning(objectives: &[&ObjectiveStep], intents: &[Vec<Intent>]) -> String {
    let checks: Vec<String> = intents
        .iter()
        .enumerate()
        .filter(|(_, i)| !i.is_empty() && i.iter().all(|i| !is_action(i)))
        .map(|(n, _)| (n + 1).to_string())
        .collect();
    let unnamed: Vec<String> = intents
        .iter()
        .enumerate()
        .filter(|(_, i)| complexity(i) == Complexity::High)
        .map(|(n, _)| (n + 1).to_string())
        .collect();
    let mut text = format!(
        "The steps were written as a checklist of {} objective{}: each is done in order, on the page the one \
         before leaves, and judged by what the page then shows.",
        objectives.len(),
        if objectives.len() == 1 { "" } else { "s" }
    );
    if !checks.is_empty() {
        text.push_str(&format!(
            " Objective{} {} only check{} the page: they weigh most.",
            plural(&checks),
            checks.join(", "),
            if checks.len() == 1 { "s" } else { "" }
        ));
    }
    if !unnamed.is_empty() {
        text.push_str(&format!(
            " Objective{} {} name{} targets in plain words, not in quotes: their words are matched to the page's names.",
            plural(&unnamed),
            unnamed.join(", "),
            if unnamed.len() == 1 { "s" } else { "" }
        ));
    }
    text
}

fn plural(list: &[String]) -> &'static str {
    if list.len() == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::ObjectiveTransitions;

    fn progress(steps: &[&str]) -> ObjectiveProgress {
        ObjectiveProgress::begin(steps.join("\n"), steps.iter().map(|s| s.to_string()))
    }

    fn input<'a>(progress: &'a ObjectiveProgress, placeholders: &'a [String]) -> PlanInput<'a> {
        PlanInput {
            progress,
            start_url: "http://127.0.0.1/portal/login.html",
            placeholders,
            level: DecompositionLevel::Moderate,
            limits: Limits { max_attempts: 3, max_revisions: 3, max_iterations: 3 },
        }
    }

    #[test]
    fn the_plan_has_one_subtask_per_objective_in_order_with_how_each_is_judged() {
        let progress = progress(&[
            "Sign in with {{PORTAL_USER}} / {{PORTAL_PASSWORD}}",
            "Open the Statements page",
            "Download the October 2026 statement",
            "Check that \"Downloaded\" is shown",
        ]);
        let names = vec!["PORTAL_USER".to_owned(), "PORTAL_PASSWORD".to_owned()];
        let plan = plan(&input(&progress, &names));
        let ids: Vec<&str> = plan.task_decomposition.subtasks.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["objective_1", "objective_2", "objective_3", "objective_4"]);
        assert_eq!(plan.task_decomposition.subtasks[2].dependencies, vec!["objective_2".to_owned()]);
        assert!(plan.task_decomposition.subtasks[2].success_criterion.contains("a file is downloaded"));
        assert!(plan.task_decomposition.subtasks[3].success_criterion.contains("\"Downloaded\" is shown"));
        assert_eq!(plan.goal_understanding.main_objective, "Download the October 2026 statement (4 steps in all)");
        // The same coded, for the studio's language: each criterion the words hold, none lost.
        assert_eq!(
            plan.goal_understanding.main_objective_said,
            Some(RunMessage::PlanMainObjective { step: "Download the October 2026 statement".into(), steps: 4 })
        );
        let said: Vec<&[RunMessage]> =
            plan.task_decomposition.subtasks.iter().map(|s| s.success_criterion_said.as_slice()).collect();
        assert_eq!(said[0], [RunMessage::CriterionSignedIn]);
        assert_eq!(said[3], [RunMessage::CriterionShown { what: "\"Downloaded\"".into(), negated: false }]);
        for subtask in &plan.task_decomposition.subtasks {
            assert_eq!(
                subtask.success_criterion_said.len(),
                subtask.success_criterion.split("; ").count(),
                "{subtask:?}"
            );
        }
        assert!(plan.goal_understanding.constraints.iter().any(|c| c.contains("{{PORTAL_PASSWORD}}")));
        assert!(plan.action_plan.actions[0].starts_with("sign in as {{PORTAL_USER}}"), "{:?}", plan.action_plan);
        let priorities: Vec<u8> = plan.requirements.iter().map(|r| r.priority).collect();
        assert_eq!(priorities, [2, 2, 2, 1], "the check weighs most");
    }

    #[test]
    fn satisfaction_counts_done_objectives_and_needs_every_high_priority_one() {
        let mut progress = progress(&["Open the Statements page", "Download the October statement"]);
        let mut requirements = requirements(&progress);
        progress.start_current().unwrap();
        progress.complete_current("now at statements.html").unwrap();
        progress.advance();
        progress.fail_current("nothing matches \"October\"").unwrap();
        let evaluation = evaluate(&mut requirements, &progress, &BTreeMap::new(), 0.8);
        assert_eq!(evaluation.overall_score, 0.4);
        assert!(!evaluation.completion_recommendation);
        assert_eq!(
            evaluation.missing_aspects,
            vec!["Download the October statement: nothing matches \"October\"".to_owned()]
        );
        progress.reopen();
        progress.start_current().unwrap();
        progress.complete_current("downloaded statement.csv").unwrap();
        let evaluation = evaluate(&mut requirements, &progress, &BTreeMap::new(), 0.8);
        assert_eq!(evaluation.overall_score, 1.0);
        assert!(evaluation.completion_recommendation);
        assert_eq!(requirements[1].evidence, vec!["downloaded statement.csv".to_owned()]);
    }

    #[test]
    fn a_check_is_not_given_to_a_model_or_scrolled_for_and_fails_at_once_on_a_still_page() {
        let check = parse_step("Check that the page says \"Welcome back\"");
        let loading = AttemptReport { at_rest: false, ..failed(FailureKind::CheckFailed, true) };
        assert_eq!(approaches_for(&loading, &check, true), vec![Approach::WaitForPage, Approach::ReloadPage]);
        assert_eq!(approaches_for(&failed(FailureKind::CheckFailed, true), &check, true), vec![]);
        let click = parse_step("Click Export to PDF");
        assert_eq!(
            approaches_for(&failed(FailureKind::NotFound, false), &click, false),
            vec![Approach::WaitForPage, Approach::ScrollToFind, Approach::ReloadPage]
        );
        assert_eq!(approaches_for(&failed(FailureKind::NotFound, true), &click, false)[0], Approach::ScrollToFind);
        assert!(approaches_for(&failed(FailureKind::NotFound, false), &click, true).contains(&Approach::ModelDecides));
    }

    fn failed(kind: FailureKind, more_below: bool) -> AttemptReport {
        AttemptReport {
            objective: 0,
            attempt: 1,
            approach: Approach::AsWritten,
            kind,
            reason: String::new(),
            intents_done: 0,
            intents_total: 1,
            at_rest: true,
            model_decided: false,
            more_below,
            last_in_pass: false,
        }
    }

    #[test]
    fn a_look_back_at_a_failure_is_coded_piece_by_piece_for_the_studios_language() {
        use planwright_runs::said::Lang;
        let report = AttemptReport {
            intents_done: 1,
            intents_total: 2,
            reason: "nothing on the page matches button \"Export\"".into(),
            ..failed(FailureKind::NotFound, false)
        };
        let (text, said) = reflect_on_failure(&report, 2, Some(Approach::WaitForPage));
        assert!(text.starts_with("Objective 2, attempt 1") && text.contains("button \"Export\""), "{text}");
        assert_eq!(
            said,
            vec![
                RunMessage::ObjectiveNotReached { kind: "not_found".into(), attempts: 1 },
                RunMessage::ReflectionDoneBefore { done: 1, total: 2 },
                RunMessage::ReflectionPage { at_rest: true },
                RunMessage::ReflectionNext,
                RunMessage::ApproachDescribed { approach: "wait_for_page".into() },
            ]
        );
        let japanese: String = said.iter().map(|s| s.say(Lang::Ja).expect("every piece has Japanese words")).collect();
        for words in ["必要なものがページにありません", "2 件のうち 1 件", "ページが落ち着くのを待ってから"]
        {
            assert!(japanese.contains(words), "{words} in {japanese}");
        }
        assert!(!japanese.contains(['{', '}']), "{japanese}");

        let last = AttemptReport { last_in_pass: true, ..report };
        assert_eq!(reflect_on_failure(&last, 2, None).1.last(), Some(&RunMessage::ReflectionNoAttemptLeft));
        assert_eq!(
            reflect_on_failure(&AttemptReport { last_in_pass: false, ..last }, 2, None).1.last(),
            Some(&RunMessage::ReflectionNoOtherApproach)
        );
    }

    #[test]
    fn the_same_action_three_times_with_the_same_result_is_a_loop() {
        let same = ("click \"Next\"".to_owned(), "done".to_owned());
        assert!(is_loop(&[same.clone(), same.clone(), same.clone()]));
        assert!(!is_loop(&[same.clone(), same.clone(), ("click \"Next\"".into(), "now at page 3".into())]));
    }
}
