//! Seed 001's planning coordinator around the runner: a plan written before acting, a
//! reflection on every failed attempt and every N actions, and revisions (at most
//! `revision.max_revisions`) that change how the next attempt approaches an objective — a
//! waiting step added, the execution plan replaced (scroll to find, the page opened again, the
//! model deciding), a different locator strategy. Everything is written to the node's history
//! ([`history`]) and reported as `planning` progress events.
//!
//! Offline every judgement has a deterministic counterpart ([`offline`]); with a model, the
//! creative tier plans and the evaluator reflects ([`model`]). The evaluator is asked about an
//! interval only when the offline look finds something wrong, which keeps the tokens planning
//! adds small.

pub mod history;
mod model;
pub mod offline;
pub mod settings;

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use planwright_block::BlockContext;
use planwright_runs::objective::{ExecutedAction, ObjectiveProgress, Tool};
use planwright_runs::planning::{
    Approach, MadeBy, PlanChange, PlanChangeKind, PlanningEntry, Reflection, ReflectionStatus, ReflectionTrigger,
    Revision, TaskPlan,
};
use planwright_runs::{ArtifactKind, LogLevel, PlanningEvent, Progress, Reason, RunMessage};

pub use history::PlanningHistory;
pub use settings::PlanningSettings;

use crate::intent::Intent;
use crate::model::ModelHelp;
use offline::{approaches_for, PlanInput};

/// How an attempt failed, which decides what is worth trying next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FailureKind {
    /// Nothing on the page matches the step's target.
    NotFound,
    /// Several elements match and the step does not say which.
    Ambiguous,
    /// The action ran and the page shows no effect of it.
    NoEffect,
    /// What a check or a note looks for is not on the page.
    CheckFailed,
    /// A dialog or an overlay is in the way and could not be closed.
    Blocked,
    /// The same action over and over with the same result.
    Loop,
    /// The browser failed (a retriable error).
    Browser,
    /// The model could not help.
    Model,
    /// An action was refused: it would have moved a secret where a secret never goes, or pressed
    /// a look-alike of the control the step names (`secret_use`, `lookalike`).
    Refused,
    /// An action that may have changed the world (sent, paid, saved…) showed no effect, or
    /// was asked for again: it is never repeated on its own; the person checks and decides.
    EffectUnknown,
    /// The page answered with an error ("No customer with that ID.", a declined card, a 4xx):
    /// never evidence of success.
    PageError,
    /// Nothing another approach could change (the browser is gone, a secret is missing).
    Final,
}

impl FailureKind {
    /// Its name in a coded message (`RunMessage::ObjectiveNotReached`).
    pub fn name(self) -> &'static str {
        match self {
            FailureKind::NotFound => "not_found",
            FailureKind::Ambiguous => "ambiguous",
            FailureKind::NoEffect => "no_effect",
            FailureKind::CheckFailed => "check_failed",
            FailureKind::Blocked => "blocked",
            FailureKind::Loop => "loop",
            FailureKind::Browser => "browser",
            FailureKind::Model => "model",
            FailureKind::Refused => "refused",
            FailureKind::EffectUnknown => "effect_unknown",
            FailureKind::PageError => "page_error",
            FailureKind::Final => "final",
        }
    }
}

/// One failed attempt, as the planning layer reflects on it.
#[derive(Debug, Clone)]
pub struct AttemptReport {
    /// The step (its index in the progress).
    pub objective: usize,
    pub attempt: u32,
    pub approach: Approach,
    pub kind: FailureKind,
    pub reason: String,
    /// Of the things the objective asks for, how many were done before it failed, and in all.
    pub intents_done: usize,
    pub intents_total: usize,
    /// The page was at rest when the attempt gave up.
    pub at_rest: bool,
    /// The model decided the attempt's actions (so letting it decide is tried too).
    pub model_decided: bool,
    /// The page goes on below the window (a target may be further down).
    pub more_below: bool,
    /// No attempt is left in this pass (a revision would wait for the next pass, which chooses
    /// its own approach).
    pub last_in_pass: bool,
}

/// The planning layer of one node's run.
pub struct Planner {
    pub settings: PlanningSettings,
    history: PlanningHistory,
    model: Option<Arc<ModelHelp>>,
    revisions: u32,
    reflections: u32,
    actions: u32,
    /// The last actions with what each did, for the interval's look back.
    window: VecDeque<(String, String)>,
    /// The approaches that failed on each objective (by step index), with how.
    failed: BTreeMap<usize, Vec<(Approach, FailureKind, String)>>,
    /// The history file was announced as an artifact.
    announced: bool,
}

impl Planner {
    pub fn new(settings: PlanningSettings, history: PlanningHistory, model: Option<Arc<ModelHelp>>) -> Planner {
        Planner {
            settings,
            history,
            model,
            revisions: 0,
            reflections: 0,
            actions: 0,
            window: VecDeque::new(),
            failed: BTreeMap::new(),
            announced: false,
        }
    }

    /// Reflections and revisions made so far.
    pub fn counts(&self) -> (u32, u32) {
        (self.reflections, self.revisions)
    }

    pub fn history_path(&self) -> &std::path::Path {
        self.history.path()
    }

    pub fn has_model(&self) -> bool {
        self.model.is_some()
    }

    /// Writes `entry` to the history (masked) and reports it.
    pub fn write(&mut self, ctx: &BlockContext, entry: PlanningEntry) {
        let redact = |text: &str| ctx.secrets.redact(text);
        match self.history.append(&entry, &redact) {
            Ok(()) if !self.announced => {
                self.announced = true;
                ctx.artifact(self.history.path(), ArtifactKind::Report);
            }
            Ok(()) => {}
            Err(error) => ctx.log(LogLevel::Warn, format!("{}: {error}", self.history.path().display())),
        }
        // The event is masked by the engine like every event.
        ctx.progress(Progress::Planning(Box::new(PlanningEvent { entry })));
    }

    /// The plan before acting: the offline plan, or the creative tier's when a model is there
    /// (the offline one where its answer cannot be used).
    pub async fn plan(
        &mut self,
        ctx: &BlockContext,
        input: &PlanInput<'_>,
        requirements: &[planwright_runs::planning::RequirementItem],
    ) -> TaskPlan {
        let mut offline = offline::plan(input);
        offline.requirements = requirements.to_vec();
        let plan = match &self.model {
            Some(model) => match model.plan_task(input, &offline, self.settings.strategy, &ctx.cancel).await {
                Ok(plan) => plan,
                Err(error) => {
                    ctx.log(LogLevel::Warn, format!("{error}; the plan is the offline one"));
                    offline
                }
            },
            None => offline,
        };
        self.write(ctx, PlanningEntry::Plan { timestamp: now(), plan: plan.clone() });
        plan
    }

    /// Whether `approach` failed on `objective` (a step index).
    fn failed_on(&self, objective: usize, approach: Approach) -> bool {
        self.failed.get(&objective).is_some_and(|tries| tries.iter().any(|(tried, ..)| *tried == approach))
    }

    /// The approach not yet failed on the objective that fits how `report` failed, if any.
    pub fn next_approach(&self, report: &AttemptReport, intents: &[Intent]) -> Option<Approach> {
        approaches_for(report, intents, self.model.is_some())
            .into_iter()
            .find(|a| !self.failed_on(report.objective, *a))
    }

    /// Every approach not yet failed on `objective` (what "an alternative approach" may take).
    pub fn untried(&self, objective: usize, intents: &[Intent]) -> Vec<Approach> {
        offline::alternatives(intents, self.model.is_some())
            .into_iter()
            .filter(|a| !self.failed_on(objective, *a))
            .collect()
    }

    /// What failed, per objective, in words, each once: `objective 3: scroll through the page —
    /// nothing …`.
    pub fn failed_approaches(&self, progress: &ObjectiveProgress) -> Vec<String> {
        let mut lines: Vec<String> = Vec::new();
        for (objective, tries) in &self.failed {
            for (approach, _, reason) in tries {
                let line =
                    format!("objective {}: {} — {reason}", progress.objective_number(*objective), approach.describe());
                if !lines.contains(&line) {
                    lines.push(line);
                }
            }
        }
        lines
    }

    /// After a failed attempt: the failure kept, a reflection on it, and — when another approach
    /// fits and revisions are left — a revision applied to the objective's execution plan. The
    /// approach the next attempt takes, if it changed.
    pub async fn after_failure(
        &mut self,
        ctx: &BlockContext,
        progress: &mut ObjectiveProgress,
        report: &AttemptReport,
        intents: &[Intent],
    ) -> Option<Approach> {
        let tried = self.failed.entry(report.objective).or_default();
        tried.push((report.approach, report.kind, report.reason.clone()));
        if report.model_decided && report.approach != Approach::ModelDecides {
            tried.push((Approach::ModelDecides, report.kind, report.reason.clone()));
        }
        if !self.settings.reflection.enabled || !self.settings.reflection.trigger_on_error {
            return None;
        }
        let next = self.next_approach(report, intents);
        let revise = next.is_some() && self.revisions < self.settings.revision.max_revisions && !report.last_in_pass;
        let number = progress.objective_number(report.objective);
        let offline = offline::reflect_on_failure(report, number, next.filter(|_| revise));
        let status = if report.intents_done > 0 { ReflectionStatus::Partial } else { ReflectionStatus::Failure };
        // The evaluator is asked when its answer can change what comes next: a revision is possible.
        let ((evaluation, evaluation_said), needed, made_by) = match self.model.as_ref().filter(|_| revise) {
            Some(model) => {
                match model.reflect(progress, report, next.filter(|_| revise), &self.window_lines(), &ctx.cancel).await
                {
                    Ok((evaluation, needed)) => ((evaluation, Vec::new()), needed && revise, MadeBy::Model),
                    Err(error) => {
                        ctx.log(LogLevel::Warn, format!("{error}; the reflection is the offline one"));
                        (offline, revise, MadeBy::Offline)
                    }
                }
            }
            None => (offline, revise, MadeBy::Offline),
        };
        self.reflect(
            ctx,
            Reflection {
                trigger: ReflectionTrigger::Error,
                objective: Some(number),
                attempt: Some(report.attempt),
                actions: self.actions,
                status,
                evaluation,
                evaluation_said,
                plan_revision_needed: needed,
                satisfaction: None,
                made_by,
            },
        );
        let approach = next.filter(|_| needed)?;
        let reason = Reason::said(
            RunMessage::ObjectiveNotReached {
                kind: report.kind.name().to_owned(),
                attempts: u64::from(report.attempt),
            },
            format!("objective {number} failed: {}", report.reason),
        );
        self.revise(ctx, progress, report.objective, approach, reason);
        Some(approach)
    }

    /// Moves `objective` to `approach`: its execution plan replaced and the change written.
    pub fn revise(
        &mut self,
        ctx: &BlockContext,
        progress: &mut ObjectiveProgress,
        objective: usize,
        approach: Approach,
        reason: Reason,
    ) {
        self.revisions += 1;
        let number = progress.objective_number(objective);
        let Some(step) = progress.objective_steps.get_mut(objective) else { return };
        let before = step.execution_plan.clone();
        let after = approach_plan(approach, &before);
        step.execution_plan = after.clone();
        let kind = match approach {
            Approach::WaitForPage => PlanChangeKind::WaitAdded,
            Approach::TextLocator => PlanChangeKind::LocatorStrategy,
            _ => PlanChangeKind::ExecutionPlanReplaced,
        };
        let change = PlanChange {
            objective: number,
            kind,
            approach,
            description: approach.describe().to_owned(),
            description_said: Some(approach.said()),
            execution_plan_before: before,
            execution_plan_after: after,
        };
        let (reason, reason_said) = reason.into_parts();
        ctx.log(LogLevel::Info, format!("plan revision {}: {reason}; next: {}", self.revisions, approach.describe()));
        self.write(
            ctx,
            PlanningEntry::Revision {
                timestamp: now(),
                revision: Revision {
                    number: self.revisions,
                    reason,
                    reason_said: reason_said.into_iter().collect(),
                    changes: vec![change],
                },
            },
        );
    }

    /// Writes a reflection.
    pub fn reflect(&mut self, ctx: &BlockContext, reflection: Reflection) {
        self.reflections += 1;
        self.write(ctx, PlanningEntry::Reflection { timestamp: now(), reflection });
    }

    /// A new attempt: a loop is the same action repeated within one attempt, so the window
    /// starts again (three objectives that each click "Next" are not a loop).
    pub fn attempt_started(&mut self) {
        self.window.clear();
    }

    /// After every action: every `reflection.trigger_interval` actions, a look back at the last
    /// ones. Whether the attempt should stop (the same action keeps doing the same thing).
    pub async fn after_action(
        &mut self,
        ctx: &BlockContext,
        progress: &ObjectiveProgress,
        action: &ExecutedAction,
        failed: bool,
    ) -> bool {
        self.actions += 1;
        let interval = self.settings.reflection.trigger_interval as usize;
        self.window.push_back((action.action.clone(), action.result.clone()));
        while self.window.len() > interval.max(3) {
            self.window.pop_front();
        }
        if !self.settings.reflection.enabled || interval == 0 || !(self.actions as usize).is_multiple_of(interval) {
            return false;
        }
        let recent: Vec<(String, String)> = self.window.iter().cloned().collect();
        // Scrolling on is how a list is searched (the runner bounds its own scrolls), not a loop.
        let looping = offline::is_loop(&recent) && action.tool_name != Tool::Scroll;
        let status = if looping || failed {
            ReflectionStatus::Failure
        } else if recent.iter().any(|(_, result)| result == "done") {
            ReflectionStatus::Partial
        } else {
            ReflectionStatus::Success
        };
        let current = progress.current_step().map(|s| progress.objective_number(s.index));
        let offline = interval_evaluation(progress, &recent, looping);
        let ((evaluation, evaluation_said), made_by) = match (&self.model, status) {
            (Some(model), ReflectionStatus::Failure | ReflectionStatus::Partial) => {
                match model.reflect_interval(progress, &self.window_lines(), &ctx.cancel).await {
                    Ok(evaluation) => ((evaluation, Vec::new()), MadeBy::Model),
                    Err(error) => {
                        ctx.log(LogLevel::Warn, format!("{error}; the reflection is the offline one"));
                        (offline, MadeBy::Offline)
                    }
                }
            }
            _ => (offline, MadeBy::Offline),
        };
        self.reflect(
            ctx,
            Reflection {
                trigger: ReflectionTrigger::Interval,
                objective: current,
                attempt: None,
                actions: self.actions,
                status,
                evaluation,
                evaluation_said,
                plan_revision_needed: looping,
                satisfaction: None,
                made_by,
            },
        );
        if looping {
            self.window.clear();
        }
        looping
    }

    fn window_lines(&self) -> Vec<String> {
        self.window.iter().map(|(action, result)| format!("{action} → {result}")).collect()
    }

    pub(crate) fn model(&self) -> Option<&Arc<ModelHelp>> {
        self.model.as_ref()
    }
}

/// The execution plan an approach gives an objective.
pub fn approach_plan(approach: Approach, before: &[String]) -> Vec<String> {
    let mut after = match approach {
        Approach::WaitForPage => vec!["wait for the page to settle (up to 10 s), then look again".to_owned()],
        Approach::ScrollToFind => vec!["scroll down the page until the target shows".to_owned()],
        Approach::ReloadPage => vec!["open the objective's page again, fresh".to_owned()],
        Approach::TextLocator => {
            return before.iter().map(|line| format!("{line} (by its visible text)")).collect();
        }
        Approach::ModelDecides => return vec!["the model decides the actions from the page".to_owned()],
        Approach::PersonDetail => return vec!["follow the detail the person gave".to_owned()],
        Approach::AsWritten => Vec::new(),
    };
    after.extend(before.iter().cloned());
    after
}

/// The offline look back over the last actions.
fn interval_evaluation(
    progress: &ObjectiveProgress,
    recent: &[(String, String)],
    looping: bool,
) -> (String, Vec<RunMessage>) {
    let listed: Vec<String> = recent.iter().map(|(a, r)| format!("{a} → {r}")).collect();
    let mut text = format!("{} so far. The last actions: {}.", progress.summary(), listed.join("; "));
    let outcome = if looping {
        text.push_str(" The same action did the same thing each time: the attempt stops and the plan is revised.");
        "loop"
    } else if recent.iter().any(|(_, result)| result == "done") {
        text.push_str(" Some of them showed no visible change yet; the objective's judgement will tell.");
        "unseen"
    } else {
        text.push_str(" Each had a visible effect; the plan stands.");
        "visible"
    };
    // The actions themselves are listed under their objective; the look back says what they came to.
    let said = RunMessage::ReflectionInterval {
        done: progress.completed_objectives() as u64,
        total: progress.total_objectives() as u64,
        outcome: outcome.to_owned(),
    };
    (text, vec![said])
}

pub(crate) fn now() -> String {
    time::OffsetDateTime::now_utc().format(&time::format_description::well_known::Rfc3339).unwrap_or_default()
}
