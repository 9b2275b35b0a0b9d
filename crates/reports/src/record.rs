//! A run as its record tells it: the plan, the run's start, end and counts, and every node with
//! its outcome, artifacts, objectives and planning history, in the order the nodes first
//! appeared. Built from any event sequence — events out of order, repeated, for unknown nodes
//! or steps — without failing: what the record lacks is left empty.

use std::collections::HashMap;

use planwright_plan::{load_plan, Node, Plan};
use planwright_runs::planning::{PlanningEntry, SatisfactionEvaluation, TaskChange, TaskEvent};
use planwright_runs::{
    ArtifactKind, Counts, Event, EventKind, LogLevel, Progress, RunMessage, RunStatus, RunStore, StoreError,
};
use serde_json::Value;

use crate::objectives::Objectives;

/// A run's record, ready to be written as a report.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunRecord {
    pub run_id: String,
    pub plan_id: String,
    pub plan_version: String,
    /// The plan's `description`, when it has one.
    pub plan_description: Option<String>,
    /// The plan as run.
    pub plan_text: String,
    /// The status of the last `run_finished` since the last start; `None`: the run has not
    /// finished (it is running, or was interrupted).
    pub status: Option<RunStatus>,
    /// The first start, and the last end.
    pub started_at: Option<String>,
    pub finished_at: Option<String>,
    /// The time the run spent running, over every start.
    pub elapsed_ms: u64,
    /// From the last `run_finished`, else counted from the node events.
    pub counts: Counts,
    pub reason: Option<String>,
    pub nodes: Vec<NodeRecord>,
}

/// A line a node logged: its English words, and the same as a code when the engine said it.
#[derive(Debug, Clone, PartialEq)]
pub struct Logged {
    pub text: String,
    pub said: Option<RunMessage>,
}

/// One node's execution (a node path: `read`, `each[2]/extract`).
#[derive(Debug, Clone, PartialEq)]
pub struct NodeRecord {
    pub path: String,
    /// The block it ran, as the plan names it (without a pinned version); `None` for loops,
    /// calls and nodes of called plans.
    pub block: Option<String>,
    pub outcome: NodeOutcome,
    pub elapsed_ms: u64,
    pub attempts: u32,
    pub started_at: Option<String>,
    pub ended_at: Option<String>,
    /// Errors of the attempts that were retried, by attempt.
    pub retries: Vec<(u32, String)>,
    /// Its warnings and errors logged.
    pub warnings: Vec<Logged>,
    pub artifacts: Vec<Artifact>,
    /// Whether a `browser.run_objectives` node that succeeded passed (its `passed` output).
    pub passed: Option<bool>,
    pub model_calls: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// The objectives of a `browser.run_objectives` node.
    pub objectives: Option<Objectives>,
    /// Its plans, reflections and revisions, and the task loop's passes, in order.
    pub history: Vec<HistoryEntry>,
    /// Its planning history file (`report.planning_history`, or a runner node's `.jsonl` artifact).
    pub planning_history: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum NodeOutcome {
    Succeeded,
    Failed {
        error: String,
        timed_out: bool,
        continued: bool,
    },
    Skipped {
        reason: String,
    },
    /// It asked a person and no answer came before the run paused.
    Waiting {
        message: String,
    },
    /// Started and never settled: the run stopped, paused or was interrupted meanwhile.
    Unfinished,
}

/// A file a node wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct Artifact {
    pub path: String,
    pub kind: ArtifactKind,
    pub bytes: u64,
}

/// A moment of a runner node's planning: a line of its history, or a change of the task loop.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryEntry {
    pub seq: u64,
    pub at: String,
    pub kind: HistoryKind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum HistoryKind {
    Planning(PlanningEntry),
    Task(TaskEvent),
}

impl RunRecord {
    /// The record of a run from the plan text it ran and its events (any order: they are
    /// taken by sequence number).
    pub fn from_events(plan_text: impl Into<String>, events: &[Event]) -> RunRecord {
        let plan_text = plan_text.into();
        let plan = load_plan(&plan_text).ok().and_then(|loaded| loaded.readable_plan());
        let mut record = RunRecord { plan_text, ..RunRecord::default() };
        if let Some(plan) = &plan {
            record.plan_id = plan.id.clone();
            record.plan_version = plan.version.clone();
            record.plan_description = plan.description.clone();
        }
        let mut ordered: Vec<&Event> = events.iter().collect();
        ordered.sort_by_key(|e| e.seq);
        let mut builder = Builder { record, index: HashMap::new(), fallbacks: HashMap::new(), finished: false };
        for event in ordered {
            builder.apply(event);
        }
        builder.finish(plan.as_ref())
    }

    /// The record of run `run_id` as `store` holds it: the plan text it ran and every event
    /// (across resumes).
    pub fn read(store: &RunStore, run_id: &str) -> Result<RunRecord, StoreError> {
        let (plan_text, _) = store.plan(run_id)?;
        let events = store.events(run_id)?;
        Ok(RunRecord::from_events(plan_text, &events))
    }

    /// The node at `path`, if the record has it.
    pub fn node(&self, path: &str) -> Option<&NodeRecord> {
        self.nodes.iter().find(|n| n.path == path)
    }
}

impl NodeRecord {
    fn new(path: &str) -> NodeRecord {
        NodeRecord {
            path: path.to_owned(),
            block: None,
            outcome: NodeOutcome::Unfinished,
            elapsed_ms: 0,
            attempts: 0,
            started_at: None,
            ended_at: None,
            retries: Vec::new(),
            warnings: Vec::new(),
            artifacts: Vec::new(),
            passed: None,
            model_calls: 0,
            input_tokens: 0,
            output_tokens: 0,
            objectives: None,
            history: Vec::new(),
            planning_history: None,
        }
    }

    /// It drives the browser: a `browser.*` block, or a node that reported objectives.
    pub fn is_browser(&self) -> bool {
        self.objectives.is_some() || self.block.as_deref().is_some_and(|b| b.starts_with("browser."))
    }

    /// Its screenshots, in the order written.
    pub fn screenshots(&self) -> impl Iterator<Item = &Artifact> {
        self.artifacts.iter().filter(|a| a.kind == ArtifactKind::Screenshot)
    }

    /// Its screenshots that no step names as its evidence.
    pub fn other_screenshots(&self) -> Vec<&Artifact> {
        let named: Vec<&str> = self
            .objectives
            .iter()
            .flat_map(|o| o.steps.iter())
            .filter_map(|s| s.state.stats.screenshot.as_deref())
            .collect();
        self.screenshots().filter(|a| !named.contains(&a.path.as_str())).collect()
    }
    /// The error of a failed node.
    pub fn error(&self) -> Option<&str> {
        match &self.outcome {
            NodeOutcome::Failed { error, .. } => Some(error),
            _ => None,
        }
    }

    /// Whether a runner node that succeeded passed, as its `passed` output says, read from the
    /// record itself (the outputs carry only what the plan names in `out`): the task loop's last
    /// judgement when it made one, else every objective done.
    fn judged_passed(&self) -> Option<bool> {
        let objectives = self.objectives.as_ref().filter(|_| self.outcome == NodeOutcome::Succeeded)?;
        let (done, total) = objectives.completed();
        Some(total > 0 && done == total && self.last_judgement().is_none_or(|s| s.completion_recommendation))
    }

    /// The task loop's judgement of the request as it ended (its `finished` event), if it made one.
    fn last_judgement(&self) -> Option<&SatisfactionEvaluation> {
        self.history.iter().rev().find_map(|entry| match &entry.kind {
            HistoryKind::Task(task) if task.change == TaskChange::Finished => task.satisfaction.as_ref(),
            _ => None,
        })
    }

    /// Why a node that succeeded with every objective done did not pass: the request was
    /// judged unsatisfied (a model found the evidence short) and the result stood as it was.
    pub fn unsatisfied(&self) -> Option<String> {
        let objectives = self.objectives.as_ref()?;
        let (done, total) = objectives.completed();
        if self.outcome != NodeOutcome::Succeeded || self.passed != Some(false) || done < total {
            return None;
        }
        Some(match self.last_judgement() {
            Some(s) => {
                let mut text = format!(
                    "every objective was done, but the request was judged {:.0} % satisfied: {}",
                    s.overall_score * 100.0,
                    s.quality_assessment
                );
                if !s.missing_aspects.is_empty() {
                    text.push_str(&format!("; missing: {}", s.missing_aspects.join("; ")));
                }
                text
            }
            None => "every objective was done, but the request was judged unsatisfied".to_owned(),
        })
    }
}

struct Builder {
    record: RunRecord,
    index: HashMap<String, usize>,
    /// Each node's reported progress (`report.progress` of its outputs), used when no
    /// `objective` event came.
    fallbacks: HashMap<String, Value>,
    /// A `run_finished` came since the last start.
    finished: bool,
}

impl Builder {
    fn node(&mut self, path: &str) -> &mut NodeRecord {
        let index = match self.index.get(path) {
            Some(&index) => index,
            None => {
                self.record.nodes.push(NodeRecord::new(path));
                self.index.insert(path.to_owned(), self.record.nodes.len() - 1);
                self.record.nodes.len() - 1
            }
        };
        &mut self.record.nodes[index]
    }

    fn apply(&mut self, event: &Event) {
        let at = event.at.as_str();
        match &event.kind {
            EventKind::RunStarted { plan_id, plan_version, .. } => {
                let record = &mut self.record;
                record.run_id = event.run_id.clone();
                record.plan_id = plan_id.clone();
                record.plan_version = plan_version.clone();
                record.started_at.get_or_insert_with(|| at.to_owned());
                record.status = None;
                record.finished_at = None;
                self.finished = false;
            }
            EventKind::RunFinished { status, counts, elapsed_ms, reason, .. } => {
                let record = &mut self.record;
                if record.run_id.is_empty() {
                    record.run_id = event.run_id.clone();
                }
                record.status = Some(*status);
                record.counts = *counts;
                record.elapsed_ms = record.elapsed_ms.saturating_add(*elapsed_ms);
                record.reason = reason.clone();
                record.finished_at = Some(at.to_owned());
                self.finished = true;
            }
            EventKind::NodeStarted { node, attempt, .. } => {
                let node = self.node(node);
                node.started_at.get_or_insert_with(|| at.to_owned());
                node.attempts = *attempt;
                node.outcome = NodeOutcome::Unfinished;
            }
            EventKind::NodeFinished { node: path, elapsed_ms, attempts, outputs } => {
                let report = &outputs["report"];
                if let Some(progress) = report.get("progress") {
                    self.fallbacks.insert(path.clone(), progress.clone());
                }
                let node = self.node(path);
                node.outcome = NodeOutcome::Succeeded;
                node.elapsed_ms = *elapsed_ms;
                node.attempts = *attempts;
                node.ended_at = Some(at.to_owned());
                if let Some(history) = report["planning_history"].as_str() {
                    node.planning_history = Some(history.to_owned());
                }
            }
            EventKind::NodeSkipped { node, reason, .. } => {
                let node = self.node(node);
                node.outcome = NodeOutcome::Skipped { reason: reason.clone() };
                node.ended_at = Some(at.to_owned());
            }
            EventKind::NodeFailed { node, elapsed_ms, attempts, error, timed_out, continued, .. } => {
                let node = self.node(node);
                node.outcome =
                    NodeOutcome::Failed { error: error.clone(), timed_out: *timed_out, continued: *continued };
                node.elapsed_ms = *elapsed_ms;
                node.attempts = *attempts;
                node.ended_at = Some(at.to_owned());
            }
            EventKind::NodeRetried { node, attempt, error, .. } => {
                self.node(node).retries.push((*attempt, error.clone()));
            }
            EventKind::InputRequested { node, request } => {
                let message = serde_json::to_value(request)
                    .ok()
                    .and_then(|r| r["message"].as_str().map(str::to_owned))
                    .unwrap_or_default();
                self.node(node).outcome = NodeOutcome::Waiting { message };
            }
            EventKind::InputReceived { node, .. } => {
                let node = self.node(node);
                if matches!(node.outcome, NodeOutcome::Waiting { .. }) {
                    node.outcome = NodeOutcome::Unfinished;
                }
            }
            EventKind::Log { node: Some(node), level: LogLevel::Warn | LogLevel::Error, message, said } => {
                self.node(node).warnings.push(Logged { text: message.clone(), said: said.clone() });
            }
            EventKind::Log { .. } => {}
            EventKind::Artifact { node, path, kind, bytes } => {
                let node = self.node(node);
                // Only a runner node's `.jsonl` is its planning history (a `report.write` may
                // write one too).
                let runner = node.objectives.is_some() || !node.history.is_empty();
                if runner && path.ends_with(".jsonl") && node.planning_history.is_none() {
                    node.planning_history = Some(path.clone());
                }
                node.artifacts.push(Artifact { path: path.clone(), kind: *kind, bytes: *bytes });
            }
            EventKind::Progress { node, progress } => {
                let seq = event.seq;
                let node = self.node(node);
                match progress {
                    Progress::Objective(objective) => {
                        node.objectives.get_or_insert_with(Objectives::default).apply(seq, at, objective)
                    }
                    Progress::Planning(planning) => node.history.push(HistoryEntry {
                        seq,
                        at: at.to_owned(),
                        kind: HistoryKind::Planning(planning.entry.clone()),
                    }),
                    Progress::Task(task) => node.history.push(HistoryEntry {
                        seq,
                        at: at.to_owned(),
                        kind: HistoryKind::Task((**task).clone()),
                    }),
                    Progress::Items { .. } => {}
                }
            }
            EventKind::ModelCall { node, input_tokens, output_tokens, .. } => {
                let node = self.node(node);
                node.model_calls += 1;
                node.input_tokens = node.input_tokens.saturating_add(*input_tokens);
                node.output_tokens = node.output_tokens.saturating_add(*output_tokens);
            }
        }
    }

    fn finish(mut self, plan: Option<&Plan>) -> RunRecord {
        for node in &mut self.record.nodes {
            node.block = plan.and_then(|plan| block_of(&plan.graph, &node.path));
            if node.objectives.is_none() {
                node.objectives = self.fallbacks.get(&node.path).and_then(Objectives::from_outputs);
            }
            node.passed = node.judged_passed();
        }
        if !self.finished {
            self.record.counts = counted(&self.record.nodes, self.record.counts);
        }
        self.record
    }
}

/// The counts of a run that has not finished, from its nodes (model calls as recorded).
fn counted(nodes: &[NodeRecord], mut counts: Counts) -> Counts {
    counts.succeeded = nodes.iter().filter(|n| n.outcome == NodeOutcome::Succeeded).count() as u64;
    counts.failed = nodes.iter().filter(|n| matches!(n.outcome, NodeOutcome::Failed { .. })).count() as u64;
    counts.skipped = nodes.iter().filter(|n| matches!(n.outcome, NodeOutcome::Skipped { .. })).count() as u64;
    counts.retried = nodes.iter().map(|n| n.retries.len() as u64).sum();
    counts.model_calls = nodes.iter().map(|n| n.model_calls).sum();
    counts.input_tokens = nodes.iter().map(|n| n.input_tokens).sum();
    counts.output_tokens = nodes.iter().map(|n| n.output_tokens).sum();
    counts
}

/// The block a node path runs, through loop bodies (`each[2]/extract`); `None` for a loop or
/// call node itself and inside called plans (their text is not in the record).
fn block_of(graph: &[Node], path: &str) -> Option<String> {
    let mut graph = graph;
    let mut block = None;
    for segment in path.split('/') {
        let id = segment.split('[').next().unwrap_or(segment);
        let node = graph.iter().find(|n| n.id == id)?;
        block = node.block.as_deref().map(|b| b.split('@').next().unwrap_or(b).to_owned());
        graph = node.body_graph();
    }
    block
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const PLAN: &str = "apiVersion: planwright/v1\nid: portal\nversion: 1.2.0\ndescription: Statements\ngraph:\n  - id: open\n    block: browser.navigate@1.0.0\n    in: {url: \"http://x\"}\n  - id: each\n    foreach: {input: [1, 2]}\n    body:\n      plan:\n        graph:\n          - id: read\n            block: file.read_csv\n            in: {path: a.csv}\n";

    fn event(seq: u64, kind: Value) -> Event {
        let mut value =
            json!({"schema": 4, "run_id": "r1", "seq": seq, "at": format!("2026-11-27T04:44:{seq:02}.000Z")});
        value.as_object_mut().unwrap().extend(kind.as_object().unwrap().clone());
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn nodes_outcomes_blocks_and_counts_come_from_the_events_and_the_plan() {
        let events = vec![
            event(
                1,
                json!({"type": "run_started", "plan_id": "portal", "plan_version": "1.2.0", "plan_path": null, "vars": {}, "workdir": "/w", "resumed_after": null}),
            ),
            event(2, json!({"type": "node_started", "node": "open", "attempt": 1, "inputs": {}})),
            event(
                3,
                json!({"type": "node_retried", "node": "open", "attempt": 1, "error": "HTTP 503", "backoff_ms": 10}),
            ),
            event(
                4,
                json!({"type": "artifact", "node": "open", "path": "/r/shot.png", "kind": "screenshot", "bytes": 10}),
            ),
            event(5, json!({"type": "node_finished", "node": "open", "elapsed_ms": 40, "attempts": 2, "outputs": {}})),
            event(
                6,
                json!({"type": "node_failed", "node": "each[1]/read", "elapsed_ms": 5, "attempts": 1, "error": "no file", "timed_out": false, "continued": true}),
            ),
            event(7, json!({"type": "node_skipped", "node": "later", "reason": "when is false"})),
            event(8, json!({"type": "log", "node": "each[1]/read", "level": "warn", "message": "odd"})),
        ];
        let mut shuffled = events.clone();
        shuffled.reverse();
        let record = RunRecord::from_events(PLAN, &shuffled);
        assert_eq!(record, RunRecord::from_events(PLAN, &events), "events are taken by sequence number");
        assert_eq!((record.run_id.as_str(), record.plan_version.as_str()), ("r1", "1.2.0"));
        assert_eq!(record.plan_description.as_deref(), Some("Statements"));
        assert_eq!(record.status, None, "no run_finished: not finished");
        let open = record.node("open").unwrap();
        assert_eq!(
            (open.block.as_deref(), &open.outcome, open.attempts),
            (Some("browser.navigate"), &NodeOutcome::Succeeded, 2)
        );
        assert!(open.is_browser());
        assert_eq!(open.retries, vec![(1, "HTTP 503".to_owned())]);
        assert_eq!(open.other_screenshots().len(), 1);
        let read = record.node("each[1]/read").unwrap();
        assert_eq!(read.block.as_deref(), Some("file.read_csv"));
        assert_eq!(read.error(), Some("no file"));
        assert_eq!(read.warnings, vec![Logged { text: "odd".to_owned(), said: None }]);
        assert_eq!(record.node("later").unwrap().block, None);
        assert_eq!(
            (record.counts.succeeded, record.counts.failed, record.counts.skipped, record.counts.retried),
            (1, 1, 1, 1)
        );
    }

    #[test]
    fn the_last_finish_gives_status_counts_and_end_and_a_resume_reopens_it() {
        let started = json!({"type": "run_started", "plan_id": "p", "plan_version": "1.0.0", "plan_path": null, "vars": {}, "workdir": "/w", "resumed_after": null});
        let finished = |status: &str| json!({"type": "run_finished", "status": status, "counts": {"succeeded": 2, "failed": 0, "skipped": 0, "retried": 0}, "elapsed_ms": 1000, "reason": null});
        let record = RunRecord::from_events(
            "not a plan",
            &[
                event(1, started.clone()),
                event(2, finished("waiting_for_input")),
                event(3, started.clone()),
                event(4, finished("succeeded")),
            ],
        );
        assert_eq!(record.status, Some(RunStatus::Succeeded));
        assert_eq!(record.elapsed_ms, 2000, "the time of every start");
        assert_eq!(record.started_at.as_deref(), Some("2026-11-27T04:44:01.000Z"));
        assert_eq!(record.finished_at.as_deref(), Some("2026-11-27T04:44:04.000Z"));
        assert_eq!(record.counts.succeeded, 2);
        let reopened =
            RunRecord::from_events("", &[event(1, started.clone()), event(2, finished("failed")), event(3, started)]);
        assert_eq!((reopened.status, reopened.finished_at), (None, None));
    }

    #[test]
    fn a_waiting_node_and_its_question_are_kept() {
        let record = RunRecord::from_events(
            "",
            &[event(
                1,
                json!({"type": "input_requested", "node": "ask", "request": {"mode": "confirm", "message": "Save them?", "options": {}}}),
            )],
        );
        assert_eq!(record.nodes[0].outcome, NodeOutcome::Waiting { message: "Save them?".into() });
        assert!(matches!(record.nodes[0].outcome, NodeOutcome::Waiting { .. }), "{:?}", record.nodes[0].outcome);
    }
}
