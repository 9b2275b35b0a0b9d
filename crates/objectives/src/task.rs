//! Seed 003's task loop around the runner: success means the person's request is satisfied,
//! not that tools ran. The requirements are extracted before the first pass and scored after
//! each; the task is done when the score reaches the threshold with every high-priority
//! requirement met. Otherwise another pass, at most `max_iterations` in all, with a
//! continuation context that changes what it tries (it never takes an approach that already
//! failed on the objective); then the decision goes back to the person ([`crate::escalation`]).

use std::path::PathBuf;

use planwright_block::BlockError;
use planwright_runs::planning::{
    Approach, AttemptResult, ContinuationContext, EscalationChoice, MadeBy, PlanningEntry, Reflection,
    ReflectionStatus, ReflectionTrigger, RequirementItem, SatisfactionEvaluation, TaskChange, TaskEvent, TaskPlan,
};
use planwright_runs::{LogLevel, Progress, RunMessage};

use crate::escalation::{self, Answer};
use crate::intent::parse_step;
use crate::planning::offline::{self, Limits, PlanInput};
use crate::planning::{now, Planner};
use crate::progress::ObjectiveTransitions;
use crate::runner::{RunOutcome, Runner};

/// What happens when the passes are spent and the request is not satisfied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnUnsatisfied {
    /// The person decides (the run's input form; waiting from the command line).
    Ask,
    /// The result stands as it is: the node fails with its report (`passed: false`) as the
    /// failure's outputs, which dependants under `on_error: continue` read (a test sheet's
    /// failed check is its finding, and the run is not a success).
    Report,
    /// The node fails with the situation report.
    Fail,
}

/// The task loop's settings for one node.
#[derive(Debug, Clone, Copy)]
pub struct TaskSettings {
    pub max_iterations: u32,
    pub threshold: f64,
    pub on_unsatisfied: OnUnsatisfied,
    pub max_attempts: u32,
}

/// How a node's objectives ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Ending {
    /// Legacy mode: one pass of seed 004's loop (or a task loop cut short by an error).
    Legacy,
    /// The task loop ended.
    Task(Box<TaskSummary>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskOutcome {
    Satisfied,
    /// The person accepted the result as it is.
    AcceptedPartial,
    /// Not satisfied, reported as it is (`on_unsatisfied: report`).
    Reported,
}

impl TaskOutcome {
    pub fn name(self) -> &'static str {
        match self {
            TaskOutcome::Satisfied => "satisfied",
            TaskOutcome::AcceptedPartial => "accepted_partial",
            TaskOutcome::Reported => "reported",
        }
    }
}

/// What the task loop did, for the node's report.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskSummary {
    pub outcome: TaskOutcome,
    pub iterations: u32,
    pub satisfaction: SatisfactionEvaluation,
    pub requirements: Vec<RequirementItem>,
    pub reflections: u32,
    pub revisions: u32,
    pub history: PathBuf,
}

/// What the person's decision leads to.
enum Next {
    Done(TaskOutcome, SatisfactionEvaluation),
    AnotherPass,
}

/// The loop's running state.
struct TaskLoop<'r, 'a> {
    runner: &'r mut Runner<'a>,
    settings: TaskSettings,
    first_plan: TaskPlan,
    requirements: Vec<RequirementItem>,
    context: ContinuationContext,
    iteration: u32,
}

/// The task loop runs only when the runner has a planner ([`run`] checks it first).
const WITH_PLANNING: &str = "the task loop runs with the planning layer";

/// Runs the objectives under the task loop (with the planning layer), or as seed 004's loop
/// alone when the runner has none (legacy mode).
pub async fn run(mut runner: Runner<'_>, settings: TaskSettings, start_url: &str) -> Result<RunOutcome, BlockError> {
    let Some(planning) = runner.planner.as_ref().map(|p| p.settings.clone()) else {
        return runner.run().await;
    };
    runner.announce();
    let requirements = requirements(&runner).await;
    let placeholders = crate::runner::placeholders_in(&runner.progress().original_input);
    let progress = runner.progress().clone();
    let input = PlanInput {
        progress: &progress,
        start_url,
        placeholders: &placeholders,
        level: planning.decomposition_level,
        limits: Limits {
            max_attempts: settings.max_attempts,
            max_revisions: planning.revision.max_revisions,
            max_iterations: settings.max_iterations,
        },
    };
    let ctx = runner.ctx();
    let first_plan = runner.planner.as_mut().expect(WITH_PLANNING).plan(ctx, &input, &requirements).await;
    let mut task = TaskLoop {
        runner: &mut runner,
        settings,
        first_plan,
        requirements,
        context: ContinuationContext::default(),
        iteration: 1,
    };
    let outcome = task.drive().await;
    let (iterations, requirements) = (task.iteration, task.requirements.clone());
    match outcome {
        Ok((task_outcome, satisfaction)) => {
            if task_outcome != TaskOutcome::Satisfied {
                runner.skip_rest();
            }
            let planner = runner.planner.as_ref().expect(WITH_PLANNING);
            let ((reflections, revisions), history) = (planner.counts(), planner.history_path().to_path_buf());
            let summary = TaskSummary {
                outcome: task_outcome,
                iterations,
                satisfaction,
                requirements,
                reflections,
                revisions,
                history,
            };
            Ok(runner.finish(Ending::Task(Box::new(summary))).await)
        }
        Err(error) => {
            runner.skip_rest();
            runner.finish(Ending::Legacy).await;
            Err(error)
        }
    }
}

/// The requirements: the fast tier's, or one per objective.
async fn requirements(runner: &Runner<'_>) -> Vec<RequirementItem> {
    let offline = offline::requirements(runner.progress());
    let Some(model) = runner.planner.as_ref().and_then(Planner::model) else { return offline };
    match model.extract_requirements(runner.progress(), &runner.ctx().cancel).await {
        Ok(items) => items,
        Err(error) => {
            runner.ctx().log(LogLevel::Warn, format!("{error}; the requirements are one per objective"));
            offline
        }
    }
}

impl TaskLoop<'_, '_> {
    fn planner(&mut self) -> &mut Planner {
        self.runner.planner.as_mut().expect(WITH_PLANNING)
    }

    fn emit(
        &self,
        change: TaskChange,
        satisfaction: Option<SatisfactionEvaluation>,
        report: Option<planwright_runs::planning::SituationReport>,
        choice: Option<EscalationChoice>,
    ) {
        self.runner.ctx().progress(Progress::Task(Box::new(TaskEvent {
            change,
            iteration: self.iteration,
            max_iterations: self.settings.max_iterations,
            satisfaction,
            report,
            choice,
        })));
    }

    /// Passes until the request is satisfied, the person decides, or the settings end it.
    async fn drive(&mut self) -> Result<(TaskOutcome, SatisfactionEvaluation), BlockError> {
        loop {
            self.runner.start_pass(self.iteration);
            self.emit(TaskChange::IterationStarted, None, None, None);
            self.runner.pass().await?;
            // The pass's last screenshot is kept before it is judged, and shown with any question.
            self.runner.flush_evidence().await;
            let evaluation = self.evaluate().await;
            if evaluation.completion_recommendation {
                self.emit(TaskChange::Finished, Some(evaluation.clone()), None, None);
                return Ok((TaskOutcome::Satisfied, evaluation));
            }
            self.learn(&evaluation);
            let Some(failed) = self.runner.first_open() else {
                // Every objective done, yet not satisfied (a model judged the evidence short):
                // nothing left to try again; the person decides.
                match self.give_back(evaluation, None).await? {
                    Next::Done(outcome, evaluation) => return Ok((outcome, evaluation)),
                    Next::AnotherPass => continue,
                }
            };
            if self.iteration < self.settings.max_iterations {
                if let Some((approach, reasoning)) = self.continuation(failed).await {
                    self.continue_with(failed, approach, reasoning);
                    continue;
                }
                self.runner.ctx().log(
                    LogLevel::Info,
                    format!(
                        "objective {}: every approach that fits how it failed has been tried; another pass would repeat one",
                        self.runner.progress().objective_number(failed)
                    ),
                );
            }
            match self.give_back(evaluation, Some(failed)).await? {
                Next::Done(outcome, evaluation) => return Ok((outcome, evaluation)),
                Next::AnotherPass => continue,
            }
        }
    }

    /// The request's satisfaction after a pass: offline from the objectives' evidence, or the
    /// evaluator's within what the page showed; written as a reflection.
    async fn evaluate(&mut self) -> SatisfactionEvaluation {
        let partial = self.runner.failures.iter().map(|(i, r)| (*i, (r.intents_done, r.intents_total))).collect();
        let threshold = self.settings.threshold;
        let offline = offline::evaluate(&mut self.requirements, self.runner.progress(), &partial, threshold);
        // The evaluator can only lower the offline score: it is asked when the page showed every
        // objective done, to say whether that satisfies the request.
        let model = self.runner.planner.as_ref().and_then(Planner::model).cloned();
        let evaluation = match model.filter(|_| offline.completion_recommendation) {
            Some(model) => {
                match model
                    .evaluate_satisfaction(
                        self.runner.progress(),
                        &self.requirements,
                        &offline,
                        threshold,
                        &self.runner.ctx().cancel,
                    )
                    .await
                {
                    Ok(evaluation) => evaluation,
                    Err(error) => {
                        self.runner.ctx().log(LogLevel::Warn, format!("{error}; the satisfaction is judged offline"));
                        offline
                    }
                }
            }
            None => offline,
        };
        for requirement in &mut self.requirements {
            if let Some(score) = evaluation.requirement_scores.get(&requirement.requirement) {
                requirement.satisfaction_level = *score;
            }
        }
        self.emit(TaskChange::Evaluated, Some(evaluation.clone()), None, None);
        let planner = self.planner();
        if planner.settings.reflection.enabled {
            let status = if evaluation.completion_recommendation {
                ReflectionStatus::Success
            } else if evaluation.overall_score > 0.0 {
                ReflectionStatus::Partial
            } else {
                ReflectionStatus::Failure
            };
            // One rounding for the words and the codes, so that both say the same percent.
            let (percent, done_at) =
                ((evaluation.overall_score * 100.0).round() as u64, (threshold * 100.0).round() as u64);
            let reflection = Reflection {
                trigger: ReflectionTrigger::Iteration,
                objective: None,
                attempt: None,
                actions: 0,
                status,
                evaluation: format!(
                    "Pass {}: the request is satisfied to {percent} % (done at {done_at} %). {}",
                    self.iteration, evaluation.quality_assessment
                ),
                // Coded only when all of it is: a model's assessment is shown as it wrote it.
                evaluation_said: evaluation
                    .quality_assessment_said
                    .as_ref()
                    .map(|assessment| {
                        vec![
                            RunMessage::ReflectionPass { pass: u64::from(self.iteration), percent, threshold: done_at },
                            assessment.clone(),
                        ]
                    })
                    .unwrap_or_default(),
                plan_revision_needed: !evaluation.completion_recommendation,
                satisfaction: Some(evaluation.clone()),
                made_by: evaluation.made_by,
            };
            let ctx = self.runner.ctx();
            self.planner().reflect(ctx, reflection);
        }
        evaluation
    }

    /// What the pass taught, kept in the continuation context.
    fn learn(&mut self, evaluation: &SatisfactionEvaluation) {
        let progress = self.runner.progress();
        let errors: Vec<String> = self
            .runner
            .failures
            .iter()
            .map(|(i, r)| format!("objective {}: {}", progress.objective_number(*i), r.reason))
            .collect();
        let strategy: Vec<String> = progress
            .objectives_only()
            .filter_map(|s| {
                s.stats.approach.map(|a| format!("objective {}: {}", progress.objective_number(s.index), a.describe()))
            })
            .collect();
        let done: Vec<String> = progress
            .objectives_only()
            .filter(|s| {
                s.stats.iteration == self.iteration && s.status == planwright_runs::objective::StepStatus::Completed
            })
            .map(|s| {
                format!(
                    "objective {} done: {}",
                    progress.objective_number(s.index),
                    s.completion_evidence.clone().unwrap_or_default()
                )
            })
            .collect();
        let lessons: Vec<String> = self
            .runner
            .failures
            .values()
            .filter(|r| r.at_rest)
            .map(|r| {
                format!(
                    "objective {}: {} fails on a page at rest",
                    progress.objective_number(r.objective),
                    r.approach.describe()
                )
            })
            .collect();
        self.context.previous_attempts.push(AttemptResult {
            attempt_number: self.iteration,
            strategy: strategy.join("; "),
            satisfaction_score: evaluation.overall_score,
            errors: errors.clone(),
            lessons_learned: lessons.clone(),
        });
        self.context.execution_errors.extend(errors);
        self.context.partial_successes.extend(done);
        self.context.learned_constraints.extend(lessons);
        self.context.learned_constraints.dedup();
        let failed = self.planner_failed();
        self.context.failed_approaches = failed;
    }

    fn planner_failed(&self) -> Vec<String> {
        let progress = self.runner.progress();
        self.runner.planner.as_ref().map(|p| p.failed_approaches(progress)).unwrap_or_default()
    }

    /// The approach the next pass takes on `failed`: the creative tier's choice among those that
    /// fit how it failed and have not failed on it (with its reasoning), or the first of them.
    /// `None` when none is left.
    async fn continuation(&mut self, failed: usize) -> Option<(Approach, Option<String>)> {
        let report = self.runner.failures.get(&failed)?.clone();
        let intents = parse_step(&self.runner.progress().objective_steps.get(failed)?.description);
        let planner = self.runner.planner.as_ref()?;
        let allowed: Vec<Approach> = offline::approaches_for(&report, &intents, planner.has_model())
            .into_iter()
            .filter(|a| planner.untried(failed, &intents).contains(a) && self.runner.may_take(failed, *a))
            .collect();
        let first = *allowed.first()?;
        let (approach, reasoning) = match planner.model().cloned() {
            Some(model) => {
                match model
                    .plan_continuation(self.runner.progress(), &self.context, &allowed, &self.runner.ctx().cancel)
                    .await
                {
                    Ok((constraints, approach, reasoning)) => {
                        self.context.learned_constraints.extend(constraints);
                        (approach, Some(reasoning))
                    }
                    Err(error) => {
                        self.runner
                            .ctx()
                            .log(LogLevel::Warn, format!("{error}; the next pass takes the first approach left"));
                        (first, None)
                    }
                }
            }
            None => (first, None),
        };
        Some((approach, reasoning))
    }

    /// Writes the continuation plan and starts the next pass from the objective that failed,
    /// with `approach` — chosen by the model when its `reasoning` is given.
    fn continue_with(&mut self, failed: usize, approach: Approach, reasoning: Option<String>) {
        let mut plan = offline::continuation_plan(
            &self.first_plan,
            self.runner.progress(),
            self.iteration + 1,
            &self.context,
            &[(failed, approach)],
        );
        if let Some(reasoning) = reasoning {
            if !reasoning.trim().is_empty() {
                plan.task_decomposition.reasoning = reasoning;
            }
            plan.made_by = MadeBy::Model;
        }
        let ctx = self.runner.ctx();
        self.planner().write(ctx, PlanningEntry::Plan { timestamp: now(), plan });
        self.iteration += 1;
        self.runner.take_approach(failed, approach);
        if let Some(step) = self.runner.progress_mut().objective_steps.get_mut(failed) {
            step.execution_plan = crate::planning::approach_plan(approach, &step.execution_plan);
        }
        self.runner.progress_mut().reopen();
    }

    /// The passes are spent: as the node's settings say — report, fail, or ask the person.
    async fn give_back(
        &mut self,
        evaluation: SatisfactionEvaluation,
        failed: Option<usize>,
    ) -> Result<Next, BlockError> {
        match self.settings.on_unsatisfied {
            OnUnsatisfied::Report => {
                self.emit(TaskChange::Finished, Some(evaluation.clone()), None, None);
                return Ok(Next::Done(TaskOutcome::Reported, evaluation));
            }
            OnUnsatisfied::Fail => {
                let report = self.situation(&evaluation, failed, None);
                return Err(BlockError::failed(escalation::summary(&report)));
            }
            OnUnsatisfied::Ask => {}
        }
        let mut analysis: Option<String> = None;
        loop {
            let report = self.situation(&evaluation, failed, analysis.clone());
            self.emit(TaskChange::Escalated, Some(evaluation.clone()), Some(report.clone()), None);
            let answer = escalation::ask(self.runner.ctx(), &report).await?;
            self.emit(TaskChange::Answered, None, None, Some(answer.choice()));
            match answer {
                Answer::MoreDetail(detail) => {
                    let failed =
                        failed.ok_or_else(|| BlockError::no_answer("there is no objective left to give detail for"))?;
                    if self.context.person_detail.as_deref() == Some(detail.as_str()) {
                        return Err(BlockError::no_answer(format!(
                            "the same detail was given again and did not help (\"{detail}\"); give other detail or choose \
                             another way on"
                        )));
                    }
                    self.context.person_detail = Some(detail.clone());
                    self.runner.give_detail(failed, detail);
                    self.continue_with(failed, Approach::PersonDetail, None);
                    return Ok(Next::AnotherPass);
                }
                Answer::AlternativeApproach => {
                    let failed =
                        failed.ok_or_else(|| BlockError::no_answer("there is no objective left to try again"))?;
                    let intents = parse_step(&self.runner.progress().objective_steps[failed].description);
                    let untried = self.runner.planner.as_ref().map(|p| p.untried(failed, &intents)).unwrap_or_default();
                    let next = untried.into_iter().find(|a| self.runner.may_take(failed, *a));
                    let Some(approach) = next else {
                        return Err(BlockError::no_answer("every approach has been tried; choose another way on"));
                    };
                    self.continue_with(failed, approach, None);
                    return Ok(Next::AnotherPass);
                }
                Answer::AcceptPartial => {
                    self.emit(
                        TaskChange::Finished,
                        Some(evaluation.clone()),
                        None,
                        Some(EscalationChoice::AcceptPartial),
                    );
                    return Ok(Next::Done(TaskOutcome::AcceptedPartial, evaluation));
                }
                Answer::TechnicalAnalysis => {
                    analysis = Some(escalation::write_analysis(self.runner, &report, &self.context).await);
                }
                // The person looked on the site: the pass goes on after the objective, which is done.
                Answer::ItWasDone => {
                    let failed =
                        failed.ok_or_else(|| BlockError::no_answer("there is no objective left to confirm"))?;
                    self.runner.confirm_done(failed)?;
                    self.iteration += 1;
                    self.runner.progress_mut().reopen();
                    return Ok(Next::AnotherPass);
                }
                Answer::DoAgain => {
                    let failed =
                        failed.ok_or_else(|| BlockError::no_answer("there is no objective left to do again"))?;
                    self.runner.allow_again(failed);
                    self.continue_with(failed, Approach::AsWritten, None);
                    return Ok(Next::AnotherPass);
                }
                Answer::Cancel => {
                    return Err(BlockError::failed(format!(
                        "cancelled by the person after {} pass{}: {}",
                        self.iteration,
                        if self.iteration == 1 { "" } else { "es" },
                        escalation::summary(&report)
                    )));
                }
            }
        }
    }

    /// What the person is shown.
    fn situation(
        &self,
        evaluation: &SatisfactionEvaluation,
        failed: Option<usize>,
        analysis: Option<String>,
    ) -> planwright_runs::planning::SituationReport {
        let mut choices = EscalationChoice::ALL.to_vec();
        // "It was done" and "do it again" answer an effect not seen, and nothing else.
        let effect_unknown = failed
            .and_then(|failed| self.runner.failures.get(&failed))
            .is_some_and(|report| report.kind == crate::planning::FailureKind::EffectUnknown);
        if !effect_unknown {
            choices.retain(|c| !matches!(c, EscalationChoice::ItWasDone | EscalationChoice::DoAgain));
        }
        let alternatives = failed.map_or(0, |failed| {
            let intents = parse_step(&self.runner.progress().objective_steps[failed].description);
            self.runner.planner.as_ref().map_or(0, |p| p.untried(failed, &intents).len())
        });
        if alternatives == 0 {
            choices.retain(|c| *c != EscalationChoice::AlternativeApproach);
        }
        if failed.is_none() {
            choices.retain(|c| *c != EscalationChoice::MoreDetail);
        }
        if analysis.is_some() {
            choices.retain(|c| *c != EscalationChoice::TechnicalAnalysis);
        }
        escalation::report(
            self.runner.progress(),
            evaluation,
            &self.context,
            self.iteration,
            self.settings.max_iterations,
            choices,
            analysis,
        )
    }
}
