//! The planning layer of a run of browser objectives, as the record keeps it: the plan written
//! before acting (seed 001's goal understanding, subtasks and first execution plan), the
//! reflections made on failed attempts, every N actions and at the end of each pass over the
//! task, the revisions they led to, and the task loop's judgement of whether the person's request
//! is satisfied (seed 003's requirements, satisfaction, continuation and escalation).
//!
//! A runner node writes its history as JSONL beside its `steps.jsonl`, one [`PlanningEntry`] a
//! line (`{"type":"plan"|"reflection"|"revision","timestamp",…}`), and reports each line as a
//! `planning` progress event; the task loop's changes are `task` progress events.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::RunMessage;

/// The history file's name in a runner node's record folder.
pub const PLANNING_HISTORY_FILE: &str = "planning.jsonl";

/// One line of the planning history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum PlanningEntry {
    /// The plan for the whole task, before acting (iteration 1), or a continuation plan.
    Plan { timestamp: String, plan: TaskPlan },
    /// A look back at what the actions achieved.
    Reflection {
        timestamp: String,
        #[serde(flatten)]
        reflection: Reflection,
    },
    /// A change of the plan a reflection asked for.
    Revision {
        timestamp: String,
        #[serde(flatten)]
        revision: Revision,
    },
}

impl PlanningEntry {
    pub fn timestamp(&self) -> &str {
        match self {
            PlanningEntry::Plan { timestamp, .. }
            | PlanningEntry::Reflection { timestamp, .. }
            | PlanningEntry::Revision { timestamp, .. } => timestamp,
        }
    }
}

/// Who made a plan, a reflection or an evaluation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum MadeBy {
    /// The deterministic counterpart: the checklist, the resolver, the page.
    Offline,
    /// The configured model (its tier is in the `model_call` event).
    Model,
}

/// Seed 001's plan: what the task is for, its subtasks, and how the first one is approached.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TaskPlan {
    /// 1 for the plan made before acting; 2, 3 … for a continuation plan.
    pub iteration: u32,
    pub goal_understanding: GoalUnderstanding,
    pub task_decomposition: TaskDecomposition,
    pub action_plan: ActionPlan,
    /// Seed 003's requirements, each scored after every pass.
    pub requirements: Vec<RequirementItem>,
    /// For a continuation plan: what the earlier passes taught.
    pub continuation: Option<ContinuationContext>,
    pub made_by: MadeBy,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GoalUnderstanding {
    pub main_objective: String,
    /// `main_objective`, coded, when the runner wrote it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub main_objective_said: Option<RunMessage>,
    pub success_criteria: Vec<String>,
    pub constraints: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TaskDecomposition {
    pub reasoning: String,
    /// One per objective the person wrote (never more, never fewer).
    pub subtasks: Vec<Subtask>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Subtask {
    /// `objective_1`, `objective_2` …
    pub id: String,
    pub description: String,
    /// Ids of the subtasks this one needs done first.
    pub dependencies: Vec<String>,
    pub complexity: Complexity,
    /// What the page must show for it to count as done.
    pub success_criterion: String,
    /// `success_criterion`, coded criterion by criterion, when the runner wrote it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<RunMessage>>", optional))]
    pub success_criterion_said: Vec<RunMessage>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Complexity {
    Low,
    Medium,
    High,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ActionPlan {
    pub execution_order: Vec<String>,
    /// The first objective's execution plan (the actions in words, placeholders never values).
    pub actions: Vec<String>,
}

/// When a reflection was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ReflectionTrigger {
    /// An attempt at an objective failed.
    Error,
    /// Every `reflection.trigger_interval` actions.
    Interval,
    /// A pass over the task ended: the request's satisfaction is judged.
    Iteration,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ReflectionStatus {
    Success,
    Failure,
    Partial,
}

/// Seed 001's reflection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Reflection {
    pub trigger: ReflectionTrigger,
    /// The objective reflected on, by its number among the person's objectives (1 for the
    /// first; recovery steps are not counted, so the number stays when one is inserted).
    pub objective: Option<usize>,
    /// The attempt that failed, for `error`.
    pub attempt: Option<u32>,
    /// Actions carried out so far in the task.
    pub actions: u32,
    pub status: ReflectionStatus,
    pub evaluation: String,
    /// `evaluation`, coded piece by piece (said one after the other), when the runner wrote it;
    /// none for a model's words.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<RunMessage>>", optional))]
    pub evaluation_said: Vec<RunMessage>,
    pub plan_revision_needed: bool,
    /// For `iteration`: the request's satisfaction after the pass.
    pub satisfaction: Option<SatisfactionEvaluation>,
    pub made_by: MadeBy,
}

/// How an objective is approached. A revision moves an objective to another approach; the
/// task loop never tries an approach again on an objective where it failed the same way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Approach {
    /// The step's words matched to the page as they are (the resolver, or the cache).
    AsWritten,
    /// A waiting step added: the page is let settle (its requests, its "Loading…") for longer
    /// before the target is looked for and before the result is judged.
    WaitForPage,
    /// The execution plan replaced: the page is scrolled through to bring a target that renders
    /// late (a lazy list) into the snapshot.
    ScrollToFind,
    /// A different locator strategy: the target by its visible text rather than its role.
    TextLocator,
    /// The execution plan replaced: the objective's page opened again, fresh, first.
    ReloadPage,
    /// The configured model decides the actions.
    ModelDecides,
    /// The person's added detail, read as the objective's steps.
    PersonDetail,
}

impl Approach {
    /// Its name in the record (`wait_for_page`), as a coded message's parameter.
    pub fn name(self) -> &'static str {
        match self {
            Approach::AsWritten => "as_written",
            Approach::WaitForPage => "wait_for_page",
            Approach::ScrollToFind => "scroll_to_find",
            Approach::TextLocator => "text_locator",
            Approach::ReloadPage => "reload_page",
            Approach::ModelDecides => "model_decides",
            Approach::PersonDetail => "person_detail",
        }
    }

    /// How the approach is said in the studio's language.
    pub fn said(self) -> RunMessage {
        RunMessage::ApproachDescribed { approach: self.name().to_owned() }
    }

    /// The approach in words, for the history and the situation report.
    pub fn describe(self) -> &'static str {
        match self {
            Approach::AsWritten => "the step's words matched to the page",
            Approach::WaitForPage => "wait for the page to settle before looking and judging",
            Approach::ScrollToFind => "scroll through the page to find the target",
            Approach::TextLocator => "find the target by its visible text instead of its role",
            Approach::ReloadPage => "open the objective's page again, fresh",
            Approach::ModelDecides => "let the model decide the actions",
            Approach::PersonDetail => "follow the detail the person gave",
        }
    }
}

/// Seed 001's plan revision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Revision {
    /// 1, 2 … within the node's run; at most `revision.max_revisions`.
    pub number: u32,
    pub reason: String,
    /// `reason`, coded piece by piece.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<RunMessage>>", optional))]
    pub reason_said: Vec<RunMessage>,
    pub changes: Vec<PlanChange>,
}

/// One change a revision makes to the progress.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PlanChange {
    /// The objective changed, by its number among the person's objectives (1 for the first).
    pub objective: usize,
    pub kind: PlanChangeKind,
    pub approach: Approach,
    pub description: String,
    /// `description`, coded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub description_said: Option<RunMessage>,
    /// The objective's execution plan before and after, when it was replaced.
    pub execution_plan_before: Vec<String>,
    pub execution_plan_after: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum PlanChangeKind {
    /// The objective's execution plan replaced.
    ExecutionPlanReplaced,
    /// A waiting step added before the objective's actions.
    WaitAdded,
    /// A different locator strategy.
    LocatorStrategy,
}

/// Seed 003's requirement: one thing the person asked for, scored after every pass.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RequirementItem {
    pub requirement: String,
    /// 0.0 – 1.0.
    pub satisfaction_level: f64,
    pub evidence: Vec<String>,
    /// 1 high, 2 medium, 3 low.
    pub priority: u8,
    /// The objective that carries it, by its number among the person's objectives (1 for the
    /// first), when one does.
    pub objective: Option<usize>,
}

/// Seed 003's satisfaction evaluation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SatisfactionEvaluation {
    /// 0.0 – 1.0.
    pub overall_score: f64,
    /// Requirement → its score.
    pub requirement_scores: BTreeMap<String, f64>,
    pub missing_aspects: Vec<String>,
    pub quality_assessment: String,
    /// `quality_assessment`, coded, when the runner wrote it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub quality_assessment_said: Option<RunMessage>,
    pub completion_recommendation: bool,
    pub made_by: MadeBy,
}

/// Seed 003's continuation context: what earlier passes taught, which changes what the next
/// one tries.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ContinuationContext {
    pub previous_attempts: Vec<AttemptResult>,
    pub execution_errors: Vec<String>,
    pub partial_successes: Vec<String>,
    /// `objective 3: scroll through the page to find the target — nothing on the page matches …`
    pub failed_approaches: Vec<String>,
    pub learned_constraints: Vec<String>,
    /// What the person added when asked, used by the next pass.
    pub person_detail: Option<String>,
}

/// One pass over the task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AttemptResult {
    pub attempt_number: u32,
    /// The approaches the pass used, in words.
    pub strategy: String,
    pub satisfaction_score: f64,
    pub errors: Vec<String>,
    pub lessons_learned: Vec<String>,
}

/// What the person is shown when the task loop gives the decision back to them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SituationReport {
    /// The steps as the person wrote them.
    pub request: String,
    pub iterations: u32,
    pub max_iterations: u32,
    pub satisfaction: f64,
    pub achieved: Vec<ReportItem>,
    pub missing: Vec<ReportItem>,
    /// The approaches tried, in words.
    pub tried: Vec<String>,
    /// The choices offered (an alternative only while one is left to try).
    pub choices: Vec<EscalationChoice>,
    /// The technical analysis written, once one was asked for.
    pub analysis: Option<String>,
}

/// One objective in a situation report: its evidence, or why it is missing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ReportItem {
    /// Its number among the person's objectives (1 for the first).
    pub objective: usize,
    pub description: String,
    pub detail: String,
}

/// Seed 003's five choices, and the two that answer an action whose effect was not seen (it
/// was done; do it again), offered only then.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum EscalationChoice {
    /// More detail (free text), used by the next pass.
    MoreDetail,
    /// Another pass with an approach not tried yet.
    AlternativeApproach,
    /// The node succeeds with `passed: false`, and the report says so.
    AcceptPartial,
    /// A written diagnosis, saved as an artifact; then the choice is asked again.
    TechnicalAnalysis,
    /// The node fails.
    Cancel,
    /// The person checked on the site: the action whose effect was not seen did happen; the
    /// objective is done and the task goes on. Offered only then.
    ItWasDone,
    /// The person checked: it did not happen; it is done once more. Offered only then.
    DoAgain,
}

impl EscalationChoice {
    pub const ALL: [EscalationChoice; 7] = [
        EscalationChoice::ItWasDone,
        EscalationChoice::DoAgain,
        EscalationChoice::MoreDetail,
        EscalationChoice::AlternativeApproach,
        EscalationChoice::AcceptPartial,
        EscalationChoice::TechnicalAnalysis,
        EscalationChoice::Cancel,
    ];

    /// The choice as an answer spells it.
    pub fn id(self) -> &'static str {
        match self {
            EscalationChoice::MoreDetail => "more_detail",
            EscalationChoice::AlternativeApproach => "alternative_approach",
            EscalationChoice::AcceptPartial => "accept_partial",
            EscalationChoice::TechnicalAnalysis => "technical_analysis",
            EscalationChoice::Cancel => "cancel",
            EscalationChoice::ItWasDone => "it_was_done",
            EscalationChoice::DoAgain => "do_again",
        }
    }

    pub fn from_id(id: &str) -> Option<EscalationChoice> {
        EscalationChoice::ALL.into_iter().find(|c| c.id() == id)
    }

    /// The choice for people (English; the studio shows its own words).
    pub fn label(self) -> &'static str {
        match self {
            EscalationChoice::MoreDetail => "Give more detail, then try again",
            EscalationChoice::AlternativeApproach => "Try an alternative approach",
            EscalationChoice::AcceptPartial => "Accept the partial result",
            EscalationChoice::TechnicalAnalysis => "Write a technical analysis",
            EscalationChoice::Cancel => "Cancel",
            EscalationChoice::ItWasDone => "It was done: continue",
            EscalationChoice::DoAgain => "It did not happen: do it again",
        }
    }
}

/// What changed in the task loop, as a `task` progress event says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TaskEvent {
    pub change: TaskChange,
    /// The pass under way (1 for the first).
    pub iteration: u32,
    pub max_iterations: u32,
    /// For `evaluated`: the request's satisfaction after the pass.
    pub satisfaction: Option<SatisfactionEvaluation>,
    /// For `escalated`: what the person is shown.
    pub report: Option<SituationReport>,
    /// For `answered`: what the person chose.
    pub choice: Option<EscalationChoice>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum TaskChange {
    /// A pass over the task began.
    IterationStarted,
    /// A pass ended and was judged.
    Evaluated,
    /// The decision went back to the person.
    Escalated,
    /// The person chose.
    Answered,
    /// The task is satisfied, or ended as the person or the node's settings chose.
    Finished,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_lines_read_as_seed_001_writes_them() {
        let line = r#"{"type":"revision","timestamp":"2026-11-27T10:35:00Z","number":1,"reason":"error recovery","changes":[]}"#;
        let entry: PlanningEntry = serde_json::from_str(line).unwrap();
        assert!(matches!(&entry, PlanningEntry::Revision { revision, .. } if revision.reason == "error recovery"));
        let back = serde_json::to_value(&entry).unwrap();
        assert_eq!(back["type"], "revision");
        assert_eq!(back["timestamp"], "2026-11-27T10:35:00Z");
        assert_eq!(back["reason"], "error recovery");
    }

    #[test]
    fn an_approachs_name_is_its_name_in_the_record() {
        use Approach::*;
        for approach in [AsWritten, WaitForPage, ScrollToFind, TextLocator, ReloadPage, ModelDecides, PersonDetail] {
            assert_eq!(serde_json::to_value(approach).unwrap(), approach.name());
        }
    }

    #[test]
    fn every_choice_reads_back_from_its_id() {
        for choice in EscalationChoice::ALL {
            assert_eq!(EscalationChoice::from_id(choice.id()), Some(choice));
        }
        assert_eq!(EscalationChoice::from_id("6"), None);
    }
}
