//! A runner node's objectives rebuilt from its `objective` progress events, the way the
//! studio's run view rebuilds them (`ui/src/lib/run/reducer.ts`, `applyObjective`): `planned`
//! gives every step; `recovery_inserted` puts the new step at its index, the steps after it
//! moving up by one (their parents too); any other change replaces the step at its index, and
//! `action_executed` adds its action to that step. When the record has no such events, the
//! progress the node reported in its outputs stands in.

use planwright_runs::objective::{
    ActionEffect, ExecutedAction, ObjectiveChange, ObjectiveEvent, ObjectiveStep, StepState, StepStatus, StepType,
};
use serde_json::Value;

/// Every step of a runner node: its objectives and the recovery steps inserted among them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Objectives {
    /// Objectives and recovery steps, in the order they ran; `steps[i].state.index == i`.
    pub steps: Vec<Step>,
    /// The steps as the person wrote them, when the record says.
    pub original_input: Option<String>,
}

/// One objective or recovery step: its last state, the actions carried out for it, and when it
/// ran.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub state: StepState,
    pub actions: Vec<StepAction>,
    /// The `at` of its first `started` (a recovery's insertion), and of its last `completed`,
    /// `failed` or `skipped`.
    pub started_at: Option<String>,
    pub ended_at: Option<String>,
    /// The sequence number of the event that brought it in (a recovery's insertion), which
    /// orders it among its objective's actions.
    pub since_seq: u64,
}

/// An action, with the sequence number of the event that reported it.
#[derive(Debug, Clone, PartialEq)]
pub struct StepAction {
    pub seq: u64,
    pub action: ExecutedAction,
}

/// What happened within an objective, in order: its actions and its recovery steps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StepEntry<'a> {
    Action(&'a StepAction),
    Recovery(&'a Step),
}

impl Objectives {
    /// Applies one `objective` progress event (sequence number `seq`, recorded at `at`).
    pub(crate) fn apply(&mut self, seq: u64, at: &str, event: &ObjectiveEvent) {
        match event.change {
            ObjectiveChange::Planned => {
                let states = event.steps.clone().unwrap_or_else(|| vec![event.step.clone()]);
                self.steps = states.into_iter().map(|state| Step::new(state, seq)).collect();
                self.renumber();
            }
            ObjectiveChange::RecoveryInserted => {
                let at_index = event.step.index.min(self.steps.len());
                for step in &mut self.steps {
                    if let Some(parent) = step.state.parent_index.as_mut().filter(|p| **p >= at_index) {
                        *parent += 1;
                    }
                }
                self.steps.insert(at_index, Step::new(event.step.clone(), seq));
                self.renumber();
            }
            _ => {
                let index = event.step.index;
                if index >= self.steps.len() {
                    self.steps.push(Step::new(event.step.clone(), seq));
                    self.renumber();
                } else {
                    self.steps[index].state = event.step.clone();
                }
            }
        }
        let index = event.step.index.min(self.steps.len().saturating_sub(1));
        let Some(step) = self.steps.get_mut(index) else { return };
        match event.change {
            ObjectiveChange::Started | ObjectiveChange::RecoveryInserted if step.started_at.is_none() => {
                step.started_at = Some(at.to_owned())
            }
            ObjectiveChange::Completed | ObjectiveChange::Failed | ObjectiveChange::Skipped => {
                step.ended_at = Some(at.to_owned())
            }
            _ => {}
        }
        if let Some(action) = &event.action {
            step.actions.push(StepAction { seq, action: action.clone() });
        }
    }

    /// The progress a node reported in its outputs (`report.progress`), read step by step: the
    /// outputs are summarised for the record, so a step cut short is left out, not the others.
    pub(crate) fn from_outputs(progress: &Value) -> Option<Objectives> {
        let steps: Vec<Step> = progress
            .get("objective_steps")?
            .as_array()?
            .iter()
            .filter_map(|step| serde_json::from_value::<ObjectiveStep>(step.clone()).ok())
            .map(|step| Step {
                actions: step
                    .executed_actions
                    .iter()
                    .map(|action| StepAction { seq: 0, action: action.clone() })
                    .collect(),
                state: StepState::from(&step),
                started_at: None,
                ended_at: None,
                since_seq: 0,
            })
            .collect();
        let mut objectives = Objectives {
            steps,
            original_input: progress.get("original_input").and_then(Value::as_str).map(str::to_owned),
        };
        objectives.renumber();
        Some(objectives)
    }

    /// Keeps `state.index` equal to each step's place, whatever the events said.
    fn renumber(&mut self) {
        for (index, step) in self.steps.iter_mut().enumerate() {
            step.state.index = index;
        }
    }

    /// The objectives the person wrote, numbered from 1, without the recovery steps.
    pub fn objectives(&self) -> impl Iterator<Item = (usize, &Step)> {
        self.steps.iter().filter(|s| s.state.step_type == StepType::Objective).enumerate().map(|(i, s)| (i + 1, s))
    }

    /// The recovery steps inserted for the step at `index`, in the order they ran.
    pub fn recoveries_of(&self, index: usize) -> impl Iterator<Item = &Step> {
        self.steps
            .iter()
            .filter(move |s| s.state.step_type == StepType::Recovery && s.state.parent_index == Some(index))
    }

    /// What happened within the step at `index`: its actions and its recovery steps, in the
    /// order of the events that reported them.
    pub fn entries_of(&self, index: usize) -> Vec<StepEntry<'_>> {
        let Some(step) = self.steps.get(index) else { return Vec::new() };
        let mut entries: Vec<(u64, StepEntry<'_>)> =
            step.actions.iter().map(|action| (action.seq, StepEntry::Action(action))).collect();
        entries.extend(self.recoveries_of(index).map(|recovery| (recovery.since_seq, StepEntry::Recovery(recovery))));
        entries.sort_by_key(|(seq, _)| *seq);
        entries.into_iter().map(|(_, entry)| entry).collect()
    }

    /// Objectives completed, and in all (recovery steps are never counted).
    pub fn completed(&self) -> (usize, usize) {
        let done = self.objectives().filter(|(_, s)| s.state.status == StepStatus::Completed).count();
        (done, self.objectives().count())
    }

    /// An objective was still in progress when its node ended.
    pub fn any_in_progress(&self) -> bool {
        self.objectives().any(|(_, s)| s.state.status == StepStatus::InProgress)
    }
}

impl Step {
    fn new(state: StepState, since_seq: u64) -> Step {
        Step { state, actions: Vec::new(), started_at: None, ended_at: None, since_seq }
    }

    /// Why it did not complete, or what proves it did.
    pub fn evidence(&self) -> Option<&str> {
        self.state.completion_evidence.as_deref().filter(|e| !e.trim().is_empty())
    }
}

/// An action's effect in words, when it is more than safe.
pub fn effect_said(effect: ActionEffect) -> Option<&'static str> {
    match effect {
        ActionEffect::Safe => None,
        ActionEffect::Effectful => Some("done once"),
        ActionEffect::NotRepeated => Some("not repeated"),
        ActionEffect::Refused => Some("refused"),
    }
}

impl StepAction {
    /// The action in words, with its locator when the words do not already hold it, what
    /// happened, and — for one that may have changed something — that it was done once and the
    /// requests it started: `click getByRole('button', { name: "Send" }) → done (done once:
    /// started POST /api/answer → 200)`.
    pub fn line(&self) -> String {
        let action = &self.action;
        let mut line = action.action.clone();
        if let Some(locator) = action.locator.as_deref().filter(|l| !l.is_empty() && !action.action.contains(*l)) {
            line.push_str(&format!(" [{locator}]"));
        }
        if !action.result.is_empty() {
            line.push_str(&format!(" → {}", action.result));
        }
        let requests: Vec<String> = action.requests.iter().map(ToString::to_string).collect();
        let started = (!requests.is_empty()).then(|| format!("started {}", requests.join(", ")));
        // "not repeated" and "refused" are what the result already says.
        let once = effect_said(action.effect).filter(|_| action.effect == ActionEffect::Effectful);
        match (once, started) {
            (Some(once), Some(started)) => line.push_str(&format!(" ({once}: {started})")),
            (Some(once), None) => line.push_str(&format!(" ({once})")),
            (None, Some(started)) => line.push_str(&format!(" ({started})")),
            (None, None) => {}
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use planwright_runs::objective::{RequestSeen, StepStats, Tool};

    fn state(index: usize, description: &str, step_type: StepType, status: StepStatus) -> StepState {
        StepState {
            index,
            description: description.into(),
            step_type,
            status,
            execution_plan: vec![],
            parent_index: None,
            blocking_reason: None,
            completion_evidence: None,
            attempts: 0,
            stats: StepStats::default(),
            said: Default::default(),
        }
    }

    fn event(change: ObjectiveChange, step: StepState) -> ObjectiveEvent {
        ObjectiveEvent { change, step, action: None, steps: None, completed: 0, total: 0 }
    }

    fn action(text: &str) -> ExecutedAction {
        ExecutedAction {
            action: text.into(),
            tool_name: Tool::Click,
            locator: Some("getByRole('button', { name: \"Go\" })".into()),
            result: "clicked".into(),
            result_said: Vec::new(),
            succeeded: true,
            timestamp: "2026-11-27T04:44:02Z".into(),
            requests: Vec::new(),
            effect: ActionEffect::Safe,
        }
    }

    #[test]
    fn a_recovery_goes_in_after_the_step_in_progress_and_the_steps_after_it_move_up() {
        let mut objectives = Objectives::default();
        let planned = ObjectiveEvent {
            steps: Some(vec![
                state(0, "Sign in", StepType::Objective, StepStatus::Pending),
                state(1, "Open Statements", StepType::Objective, StepStatus::Pending),
                state(2, "Download October", StepType::Objective, StepStatus::Pending),
            ]),
            ..event(ObjectiveChange::Planned, state(0, "Sign in", StepType::Objective, StepStatus::Pending))
        };
        objectives.apply(1, "t1", &planned);
        objectives.apply(
            2,
            "t2",
            &event(ObjectiveChange::Started, state(1, "Open Statements", StepType::Objective, StepStatus::InProgress)),
        );
        let mut with_action = event(
            ObjectiveChange::ActionExecuted,
            state(1, "Open Statements", StepType::Objective, StepStatus::InProgress),
        );
        with_action.action = Some(action("click link \"Statements\""));
        objectives.apply(3, "t3", &with_action);
        let mut recovery = state(2, "Close the banner", StepType::Recovery, StepStatus::InProgress);
        recovery.parent_index = Some(1);
        objectives.apply(4, "t4", &event(ObjectiveChange::RecoveryInserted, recovery.clone()));
        recovery.status = StepStatus::Completed;
        objectives.apply(5, "t5", &event(ObjectiveChange::Completed, recovery));
        let mut after = action("click link \"Statements\" again");
        after.locator = None;
        let mut again = event(
            ObjectiveChange::ActionExecuted,
            state(1, "Open Statements", StepType::Objective, StepStatus::InProgress),
        );
        again.action = Some(after);
        objectives.apply(6, "t6", &again);
        objectives.apply(
            7,
            "t7",
            &event(ObjectiveChange::Completed, state(1, "Open Statements", StepType::Objective, StepStatus::Completed)),
        );

        let described: Vec<(usize, &str)> =
            objectives.steps.iter().map(|s| (s.state.index, s.state.description.as_str())).collect();
        assert_eq!(
            described,
            vec![(0, "Sign in"), (1, "Open Statements"), (2, "Close the banner"), (3, "Download October")]
        );
        assert_eq!(objectives.steps[2].ended_at.as_deref(), Some("t5"));
        assert_eq!(objectives.steps[1].started_at.as_deref(), Some("t2"));
        assert_eq!(objectives.completed(), (1, 3));
        let numbered: Vec<(usize, &str)> =
            objectives.objectives().map(|(n, s)| (n, s.state.description.as_str())).collect();
        assert_eq!(numbered, vec![(1, "Sign in"), (2, "Open Statements"), (3, "Download October")]);
        let entries = objectives.entries_of(1);
        assert!(
            matches!(entries.as_slice(), [StepEntry::Action(a), StepEntry::Recovery(r), StepEntry::Action(b)]
                if a.seq == 3 && r.state.description == "Close the banner" && b.seq == 6),
            "{entries:?}"
        );
        assert_eq!(
            objectives.steps[1].actions[0].line(),
            "click link \"Statements\" [getByRole('button', { name: \"Go\" })] → clicked"
        );
    }

    #[test]
    fn an_action_that_may_have_changed_something_says_it_was_done_once_and_what_it_started() {
        let request = |method: &str, url: &str, status| RequestSeen {
            method: method.into(),
            url: url.into(),
            status,
            error: None,
        };
        let sent = StepAction {
            seq: 1,
            action: ExecutedAction {
                requests: vec![request("POST", "/api/answer", Some(200)), request("PUT", "/api/slow", None)],
                effect: ActionEffect::Effectful,
                ..action("click button \"Send\"")
            },
        };
        assert_eq!(
            sent.line(),
            "click button \"Send\" [getByRole('button', { name: \"Go\" })] → clicked (done once: started POST /api/answer → 200, PUT /api/slow → no answer yet)"
        );
        let saved =
            StepAction { seq: 2, action: ExecutedAction { effect: ActionEffect::Effectful, ..action("click Save") } };
        assert!(saved.line().ends_with("→ clicked (done once)"), "{}", saved.line());
        let looked_up = StepAction {
            seq: 3,
            action: ExecutedAction {
                requests: vec![request("GET", "/api/find?id=88213", Some(404))],
                ..action("click Find")
            },
        };
        assert!(looked_up.line().ends_with("→ clicked (started GET /api/find?id=88213 → 404)"), "{}", looked_up.line());
    }

    #[test]
    fn indexes_out_of_range_are_taken_in_without_a_panic() {
        let mut objectives = Objectives::default();
        objectives.apply(
            1,
            "t",
            &event(ObjectiveChange::Completed, state(7, "late", StepType::Objective, StepStatus::Completed)),
        );
        objectives.apply(
            2,
            "t",
            &event(ObjectiveChange::RecoveryInserted, state(9, "far", StepType::Recovery, StepStatus::Pending)),
        );
        let indexes: Vec<usize> = objectives.steps.iter().map(|s| s.state.index).collect();
        assert_eq!(indexes, vec![0, 1]);
        assert!(objectives.entries_of(5).is_empty());
    }

    #[test]
    fn the_reported_progress_stands_in_and_a_step_cut_short_is_left_out() {
        let progress = serde_json::json!({
            "original_input": "1. Sign in\n2. Open",
            "objective_steps": [
                {"index": 0, "description": "Sign in", "step_type": "objective", "status": "completed",
                 "execution_plan": [], "executed_actions": [{"action": "click", "tool_name": "click", "result": "ok", "timestamp": "t"}],
                 "parent_index": null, "blocking_reason": null, "completion_evidence": "signed in", "attempts": 1},
                "… 1 more items"
            ],
            "current_step_index": 0
        });
        let objectives = Objectives::from_outputs(&progress).unwrap();
        assert_eq!(objectives.steps.len(), 1);
        assert_eq!(objectives.steps[0].actions.len(), 1);
        assert_eq!(objectives.steps[0].evidence(), Some("signed in"));
        assert_eq!(objectives.original_input.as_deref(), Some("1. Sign in\n2. Open"));
        assert!(Objectives::from_outputs(&serde_json::json!("…")).is_none());
    }
}
