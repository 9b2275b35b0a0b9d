//! The objective state machine of seed 000 over the run record's [`ObjectiveProgress`]: the
//! objectives as written, each pending → in progress → completed or failed (the rest skipped),
//! recovery steps inserted for the objective they unblock and returned from, and a new pass
//! of the task loop reopening what is not done. The record's types live in `planwright-runs`;
//! how they change lives here, beside the runner that changes them.

use planwright_runs::objective::{ObjectiveProgress, ObjectiveStep, StepSaid, StepStats, StepStatus, StepType};

/// A change of state that the step's status does not allow.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("step {index} is {status:?}: it cannot be {change}")]
pub struct TransitionError {
    pub index: usize,
    pub status: StepStatus,
    pub change: &'static str,
}

/// The changes the runner makes to its progress.
pub trait ObjectiveTransitions {
    /// The objectives as written, all pending, the first one current.
    fn begin(original_input: impl Into<String>, objectives: impl IntoIterator<Item = String>) -> Self;

    /// The current step, to change.
    fn current_step_mut(&mut self) -> Option<&mut ObjectiveStep>;

    /// The current step starts: pending → in progress.
    fn start_current(&mut self) -> Result<&mut ObjectiveStep, TransitionError>;

    /// The current step is done, with what proves it.
    fn complete_current(&mut self, evidence: impl Into<String>) -> Result<(), TransitionError>;

    /// The current step cannot be done: why.
    fn fail_current(&mut self, reason: impl Into<String>) -> Result<(), TransitionError>;

    /// Every step still pending is skipped (an objective failed); their indexes.
    fn skip_pending(&mut self) -> Vec<usize>;

    /// A new pass of the task loop: the first objective not completed (a failed one, or the
    /// first still pending) and every objective after it that is not completed become pending
    /// again, and the first of them current; `None` when every objective is completed.
    fn reopen(&mut self) -> Option<usize>;

    /// Inserts a recovery step for `parent_index` right after the current step (the indexes after
    /// it move up by one, parents included) and returns its index. It is pending: the run moves
    /// to it with [`ObjectiveTransitions::advance`].
    fn insert_recovery_step(
        &mut self,
        parent_index: usize,
        description: impl Into<String>,
        blocking_reason: impl Into<String>,
        execution_plan: Vec<String>,
    ) -> usize;

    /// Moves to the next pending step and starts it; `false` when none is left.
    fn advance(&mut self) -> bool;

    /// After a recovery step: back to its objective, which is in progress again with its
    /// execution plan cleared, to be made again from the page as it now is. `false` when the
    /// current step is not a recovery.
    fn return_to_parent(&mut self) -> bool;
}

impl ObjectiveTransitions for ObjectiveProgress {
    fn begin(original_input: impl Into<String>, objectives: impl IntoIterator<Item = String>) -> ObjectiveProgress {
        let objective_steps = objectives
            .into_iter()
            .enumerate()
            .map(|(index, description)| ObjectiveStep {
                index,
                description,
                step_type: StepType::Objective,
                status: StepStatus::Pending,
                execution_plan: Vec::new(),
                executed_actions: Vec::new(),
                parent_index: None,
                blocking_reason: None,
                completion_evidence: None,
                attempts: 0,
                stats: StepStats::default(),
                said: StepSaid::default(),
            })
            .collect();
        ObjectiveProgress { original_input: original_input.into(), objective_steps, current_step_index: 0 }
    }

    fn current_step_mut(&mut self) -> Option<&mut ObjectiveStep> {
        self.objective_steps.get_mut(self.current_step_index)
    }

    fn start_current(&mut self) -> Result<&mut ObjectiveStep, TransitionError> {
        let step = current_or_error(self, "started")?;
        if step.status != StepStatus::Pending {
            return Err(TransitionError { index: step.index, status: step.status, change: "started" });
        }
        step.status = StepStatus::InProgress;
        Ok(step)
    }

    fn complete_current(&mut self, evidence: impl Into<String>) -> Result<(), TransitionError> {
        let step = in_progress(self, "completed")?;
        step.status = StepStatus::Completed;
        step.completion_evidence = Some(evidence.into());
        // Codes of an earlier pass's words (a failure) would say what these words no longer do.
        step.said.evidence_said = None;
        step.said.evidence_parts.clear();
        Ok(())
    }

    fn fail_current(&mut self, reason: impl Into<String>) -> Result<(), TransitionError> {
        let step = in_progress(self, "failed")?;
        step.status = StepStatus::Failed;
        step.completion_evidence = Some(reason.into());
        step.said.evidence_said = None;
        step.said.evidence_parts.clear();
        Ok(())
    }

    fn skip_pending(&mut self) -> Vec<usize> {
        let mut skipped = Vec::new();
        for step in &mut self.objective_steps {
            if step.status == StepStatus::Pending {
                step.status = StepStatus::Skipped;
                skipped.push(step.index);
            }
        }
        skipped
    }

    fn reopen(&mut self) -> Option<usize> {
        let first = self
            .objective_steps
            .iter()
            .position(|s| s.step_type == StepType::Objective && s.status != StepStatus::Completed)?;
        for step in self.objective_steps.iter_mut().skip(first) {
            if step.step_type == StepType::Objective && step.status != StepStatus::Completed {
                step.status = StepStatus::Pending;
            }
        }
        self.current_step_index = first;
        Some(first)
    }

    fn insert_recovery_step(
        &mut self,
        parent_index: usize,
        description: impl Into<String>,
        blocking_reason: impl Into<String>,
        execution_plan: Vec<String>,
    ) -> usize {
        let at = (self.current_step_index + 1).min(self.objective_steps.len());
        for step in &mut self.objective_steps {
            if let Some(parent) = step.parent_index.as_mut().filter(|p| **p >= at) {
                *parent += 1;
            }
        }
        self.objective_steps.insert(
            at,
            ObjectiveStep {
                index: at,
                description: description.into(),
                step_type: StepType::Recovery,
                status: StepStatus::Pending,
                execution_plan,
                executed_actions: Vec::new(),
                parent_index: Some(parent_index),
                blocking_reason: Some(blocking_reason.into()),
                completion_evidence: None,
                attempts: 0,
                stats: StepStats::default(),
                said: StepSaid::default(),
            },
        );
        for (index, step) in self.objective_steps.iter_mut().enumerate().skip(at + 1) {
            step.index = index;
        }
        at
    }

    fn advance(&mut self) -> bool {
        let next =
            self.objective_steps.iter().skip(self.current_step_index + 1).position(|s| s.status == StepStatus::Pending);
        match next {
            Some(offset) => {
                self.current_step_index += 1 + offset;
                self.objective_steps[self.current_step_index].status = StepStatus::InProgress;
                true
            }
            None => false,
        }
    }

    fn return_to_parent(&mut self) -> bool {
        let Some(parent) =
            self.current_step().filter(|s| s.step_type == StepType::Recovery).and_then(|s| s.parent_index)
        else {
            return false;
        };
        let Some(step) = self.objective_steps.get_mut(parent) else { return false };
        step.status = StepStatus::InProgress;
        step.execution_plan.clear();
        self.current_step_index = parent;
        true
    }
}

/// The current step, or an error saying `change` found none.
fn current_or_error<'p>(
    progress: &'p mut ObjectiveProgress,
    change: &'static str,
) -> Result<&'p mut ObjectiveStep, TransitionError> {
    let index = progress.current_step_index;
    progress.objective_steps.get_mut(index).ok_or(TransitionError { index, status: StepStatus::Skipped, change })
}

/// The current step if it is in progress, or an error saying `change` does not apply.
fn in_progress<'p>(
    progress: &'p mut ObjectiveProgress,
    change: &'static str,
) -> Result<&'p mut ObjectiveStep, TransitionError> {
    let step = current_or_error(progress, change)?;
    if step.status != StepStatus::InProgress {
        return Err(TransitionError { index: step.index, status: step.status, change });
    }
    Ok(step)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn three() -> ObjectiveProgress {
        ObjectiveProgress::begin(
            "1. Sign in 2. Open Statements 3. Download October",
            ["Sign in", "Open Statements", "Download October"].map(String::from),
        )
    }

    fn statuses(progress: &ObjectiveProgress) -> Vec<(usize, StepType, StepStatus)> {
        progress.objective_steps.iter().map(|s| (s.index, s.step_type, s.status)).collect()
    }

    #[test]
    fn a_new_progress_has_every_objective_pending_and_the_first_current() {
        let progress = three();
        assert_eq!(progress.current_step_index, 0);
        assert!(progress.objective_steps.iter().all(|s| s.status == StepStatus::Pending));
        assert_eq!((progress.completed_objectives(), progress.total_objectives()), (0, 3));
        assert_eq!(progress.summary(), "0/3 objectives");
    }

    #[test]
    fn pending_starts_then_completes_with_evidence_then_the_next_starts() {
        let mut progress = three();
        progress.start_current().unwrap();
        assert_eq!(progress.current_step().unwrap().status, StepStatus::InProgress);
        assert!(progress.start_current().is_err(), "in progress cannot start again");
        progress.complete_current("heading \"Welcome, alice\" is shown").unwrap();
        let first = &progress.objective_steps[0];
        assert_eq!(first.status, StepStatus::Completed);
        assert_eq!(first.completion_evidence.as_deref(), Some("heading \"Welcome, alice\" is shown"));
        assert!(progress.complete_current("again").is_err(), "completed cannot complete again");
        assert!(progress.advance());
        assert_eq!(progress.current_step_index, 1);
        assert_eq!(progress.current_step().unwrap().status, StepStatus::InProgress);
        assert_eq!(progress.summary(), "1/3 objectives");
    }

    #[test]
    fn a_pending_step_cannot_complete_or_fail() {
        let mut progress = three();
        let error = progress.complete_current("x").unwrap_err();
        assert_eq!((error.index, error.status), (0, StepStatus::Pending));
        assert!(progress.fail_current("x").is_err());
    }

    #[test]
    fn a_new_pass_reopens_the_failed_objective_and_those_after_it() {
        let mut progress = three();
        progress.start_current().unwrap();
        progress.complete_current("signed in").unwrap();
        progress.advance();
        progress.fail_current("no link \"Statements\"").unwrap();
        assert_eq!(progress.reopen(), Some(1));
        assert_eq!(
            statuses(&progress),
            vec![
                (0, StepType::Objective, StepStatus::Completed),
                (1, StepType::Objective, StepStatus::Pending),
                (2, StepType::Objective, StepStatus::Pending)
            ]
        );
        progress.start_current().unwrap();
        assert_eq!(progress.current_step().unwrap().status, StepStatus::InProgress);
        for step in &mut progress.objective_steps {
            step.status = StepStatus::Completed;
        }
        assert_eq!(progress.reopen(), None, "nothing is left to reopen");
    }

    #[test]
    fn a_step_done_in_a_later_pass_keeps_no_code_of_its_failure() {
        let mut progress = three();
        progress.start_current().unwrap();
        progress.fail_current("no link \"Sign in\"").unwrap();
        let failed = planwright_runs::RunMessage::ObjectiveNotReached { kind: "not_found".into(), attempts: 1 };
        progress.objective_steps[0].said.evidence_said = Some(failed);
        assert_eq!(progress.reopen(), Some(0));
        progress.start_current().unwrap();
        progress.complete_current("now at menu.html").unwrap();
        // The studio says the codes over the words: a failure's would contradict "done".
        assert_eq!(progress.objective_steps[0].said.evidence_said, None);
    }

    #[test]
    fn a_failed_objective_skips_the_rest() {
        let mut progress = three();
        progress.start_current().unwrap();
        progress.fail_current("no button \"Sign in\" on the page").unwrap();
        assert_eq!(progress.skip_pending(), vec![1, 2]);
        assert_eq!(
            statuses(&progress),
            vec![
                (0, StepType::Objective, StepStatus::Failed),
                (1, StepType::Objective, StepStatus::Skipped),
                (2, StepType::Objective, StepStatus::Skipped)
            ]
        );
        assert!(!progress.advance(), "nothing is pending any more");
        assert_eq!(progress.summary(), "0/3 objectives");
    }

    #[test]
    fn a_recovery_inserted_while_an_objective_is_in_progress_runs_then_returns_to_it() {
        let mut progress = three();
        progress.start_current().unwrap();
        progress.complete_current("signed in").unwrap();
        assert!(progress.advance());
        progress.current_step_mut().unwrap().execution_plan = vec!["click link \"Statements\"".into()];

        let at = progress.insert_recovery_step(
            1,
            "Close the dialog \"We value your privacy\"",
            "dialog \"We value your privacy\"",
            vec!["click button \"Reject non-essential\"".into()],
        );
        assert_eq!(at, 2);
        assert_eq!(
            statuses(&progress),
            vec![
                (0, StepType::Objective, StepStatus::Completed),
                (1, StepType::Objective, StepStatus::InProgress),
                (2, StepType::Recovery, StepStatus::Pending),
                (3, StepType::Objective, StepStatus::Pending)
            ]
        );
        assert_eq!(progress.total_objectives(), 3, "a recovery step is never counted as an objective");

        assert!(progress.advance());
        assert_eq!(progress.current_step_index, 2);
        assert_eq!(progress.current_step().unwrap().status, StepStatus::InProgress);
        assert!(progress.progress_summary().contains("Blocked by: dialog \"We value your privacy\""));
        assert!(progress.progress_summary().contains("For objective: #2"));
        progress.complete_current("the dialog went away").unwrap();

        assert!(progress.return_to_parent());
        assert_eq!(progress.current_step_index, 1);
        let parent = progress.current_step().unwrap();
        assert_eq!(parent.status, StepStatus::InProgress);
        assert!(parent.execution_plan.is_empty(), "the parent is planned again from the page as it now is");
        assert!(!progress.return_to_parent(), "an objective has no parent to return to");

        progress.complete_current("heading \"Statements\" is shown").unwrap();
        assert!(progress.advance());
        assert_eq!(progress.current_step_index, 3, "the completed recovery step is passed over");
        assert_eq!(progress.summary(), "2/3 objectives");
    }

    #[test]
    fn inserting_renumbers_the_steps_after_and_the_parents_that_pointed_there() {
        let mut progress = three();
        progress.start_current().unwrap();
        progress.complete_current("ok").unwrap();
        progress.advance();
        progress.complete_current("ok").unwrap();
        progress.advance();
        // A recovery for objective 2 (index 2) sits after it.
        progress.insert_recovery_step(2, "Close the ad", "dialog \"Special offer\"", Vec::new());
        assert_eq!(progress.objective_steps[3].parent_index, Some(2));
        // Back at objective 1, a recovery inserted before index 2 moves it and its recovery's parent.
        progress.current_step_index = 1;
        let at = progress.insert_recovery_step(1, "Close the banner", "banner", Vec::new());
        assert_eq!(at, 2);
        let indexes: Vec<usize> = progress.objective_steps.iter().map(|s| s.index).collect();
        assert_eq!(indexes, vec![0, 1, 2, 3, 4]);
        assert_eq!(progress.objective_steps[3].description, "Download October");
        assert_eq!(
            progress.objective_steps[4].parent_index,
            Some(3),
            "the ad's recovery still points at its objective"
        );
    }
}
