//! The progress of a run of browser objectives, as the record keeps it: the objectives a person
//! wrote, kept apart from the actions chosen to reach each one (its execution plan) and from the
//! recovery steps inserted when something got in the way (a cookie banner, an ad). Progress is
//! counted in objectives, never in actions or recovery steps.
//!
//! The state of a step moves `pending → in_progress → completed | failed`, or `pending →
//! skipped` (an earlier objective failed). A recovery step is inserted right after the step in
//! progress, becomes the step in progress, and when it is done the run returns to its parent
//! objective, whose execution plan is made again from the page as it now is.

use serde::{Deserialize, Serialize};

use crate::planning::Approach;
use crate::RunMessage;

/// Every step of a run of objectives and which one is in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ObjectiveProgress {
    /// The steps as the person wrote them.
    pub original_input: String,
    /// Objectives and recovery steps, in the order they run.
    pub objective_steps: Vec<ObjectiveStep>,
    pub current_step_index: usize,
}

/// One objective, or one recovery step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ObjectiveStep {
    /// Its place in `objective_steps`, from 0.
    pub index: usize,
    /// What is to be achieved: the objective as written, or what a recovery does.
    pub description: String,
    pub step_type: StepType,
    pub status: StepStatus,
    /// The actions chosen to reach it (`fill "Username" with {{PORTAL_USER}}`), made again when
    /// the step is planned again.
    pub execution_plan: Vec<String>,
    pub executed_actions: Vec<ExecutedAction>,
    /// A recovery step's objective.
    pub parent_index: Option<usize>,
    /// What a recovery step removed (`dialog "We value your privacy"`).
    pub blocking_reason: Option<String>,
    /// What the page showed that proves the step done (or, failed, why not).
    pub completion_evidence: Option<String>,
    /// Attempts made at it.
    pub attempts: u32,
    #[serde(flatten)]
    pub stats: StepStats,
    /// The runner's own words in `description` and `completion_evidence` coded for the studio's
    /// language (a recovery's description, a failure by its kind); none where the words are the
    /// plan's or the page's.
    #[serde(flatten)]
    pub said: StepSaid,
}

/// A step's runner-made texts as codes (see [`ObjectiveStep::said`]). Absent from records written
/// before they were kept.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StepSaid {
    /// `description`, coded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub description_said: Option<RunMessage>,
    /// `completion_evidence`, coded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub evidence_said: Option<RunMessage>,
    /// A step done: its evidence piece by piece (`completion_evidence` is their English words
    /// joined), each coded where the words are the runner's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<EvidencePart>>", optional))]
    pub evidence_parts: Vec<EvidencePart>,
}

/// A piece of a step's evidence: its English words, and the same as codes (said one after the
/// other: an action, then what it brought about) where the runner wrote them. No codes for words
/// from elsewhere (a model's, an element the page describes its own way): they are shown as
/// they are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct EvidencePart {
    pub text: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<RunMessage>>", optional))]
    pub said: Vec<RunMessage>,
}

impl EvidencePart {
    /// Words with no codes.
    pub fn words(text: impl Into<String>) -> EvidencePart {
        EvidencePart { text: text.into(), said: Vec::new() }
    }

    /// Words with their codes.
    pub fn coded(text: impl Into<String>, said: Vec<RunMessage>) -> EvidencePart {
        EvidencePart { text: text.into(), said }
    }

    /// The pieces' English words, as `completion_evidence` keeps them.
    pub fn joined(parts: &[EvidencePart]) -> String {
        parts.iter().map(|p| p.text.as_str()).collect::<Vec<_>>().join("; ")
    }
}

/// What a step cost and how it was done, for the live view and the reports. (Absent from
/// records written before they were kept: read as zero and none.)
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StepStats {
    /// Time spent on it, over every attempt and pass.
    #[serde(default)]
    pub elapsed_ms: u64,
    #[serde(default)]
    pub model_calls: u32,
    #[serde(default)]
    pub input_tokens: u64,
    #[serde(default)]
    pub output_tokens: u64,
    /// Who decided the actions of its last attempt.
    #[serde(default)]
    pub decided_by: Option<DecidedBy>,
    /// How its last attempt approached it (see `planning::Approach`).
    #[serde(default)]
    pub approach: Option<Approach>,
    /// The pass of the task loop it was last worked in (1 for the first).
    #[serde(default)]
    pub iteration: u32,
    /// The evidence screenshot (absolute path, an artifact of the run).
    #[serde(default)]
    pub screenshot: Option<String>,
}

/// Who decided a step's actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum DecidedBy {
    /// Replayed from the action cache, with no model call.
    Cache,
    /// The offline resolver, with no model call.
    Offline,
    /// The configured model.
    Model,
}

impl DecidedBy {
    /// Its name as the record writes it (`steps.jsonl`'s `decided_by`).
    pub fn name(self) -> &'static str {
        match self {
            DecidedBy::Cache => "cache",
            DecidedBy::Offline => "offline",
            DecidedBy::Model => "model",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum StepType {
    /// What the person wrote.
    Objective,
    /// Inserted to get something out of the way.
    Recovery,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum StepStatus {
    Pending,
    InProgress,
    Completed,
    Failed,
    /// Not tried: an objective before it failed.
    Skipped,
}

/// One action carried out for a step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ExecutedAction {
    /// The action as people read it (`click getByRole('button', { name: "Sign in" })`), with
    /// placeholders, never a secret's value.
    pub action: String,
    /// The driver's operation.
    pub tool_name: Tool,
    /// The element acted on, as a Playwright locator (`getByRole('button', { name: "Sign in" })`).
    #[serde(default)]
    pub locator: Option<String>,
    /// What happened (`navigated to …/home.html`, or the error).
    pub result: String,
    /// `result`, coded, when the runner wrote all of it (a field read back, where the page went);
    /// none for words from elsewhere, and in records written before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<RunMessage>>", optional))]
    pub result_said: Vec<RunMessage>,
    /// It was carried out as asked (false: `result` says why not). Records written before
    /// this was kept read as true.
    #[serde(default = "carried_out")]
    pub succeeded: bool,
    /// When, RFC 3339.
    pub timestamp: String,
    /// The requests it started that matter to its effect — those that write, and those the
    /// server refused — at most [`REQUESTS_KEPT`]. Absent from records written before they were
    /// kept.
    #[serde(default)]
    pub requests: Vec<RequestSeen>,
    /// What it did to the world, as the runner holds it. Records written before this was kept
    /// read as safe (they said nothing of it).
    #[serde(default)]
    pub effect: ActionEffect,
}

fn carried_out() -> bool {
    true
}

/// The most requests an action's record keeps (a page can start hundreds).
pub const REQUESTS_KEPT: usize = 8;

/// The driver's operation an action carried out, as the record names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Tool {
    Navigate,
    Click,
    Fill,
    Select,
    /// Ticks or clears a checkbox, a radio button, a switch.
    Check,
    Press,
    Hover,
    Scroll,
    Back,
    /// A name this version does not know, in a record written by another one (`read`).
    #[serde(other)]
    Other,
}

impl Tool {
    /// Its name as the record writes it (`steps.jsonl`'s `action`).
    pub fn name(self) -> &'static str {
        match self {
            Tool::Navigate => "navigate",
            Tool::Click => "click",
            Tool::Fill => "fill",
            Tool::Select => "select",
            Tool::Check => "check",
            Tool::Press => "press",
            Tool::Hover => "hover",
            Tool::Scroll => "scroll",
            Tool::Back => "back",
            Tool::Other => "other",
        }
    }
}

/// A request an action started, as the record keeps it: never its body or headers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RequestSeen {
    /// `POST`, `PUT`, `GET`…
    pub method: String,
    /// Its path and query (`/api/answer?form=contact`), any secret masked, a long one cut.
    pub url: String,
    /// The HTTP status of its answer; none when it had no answer yet as the action ended (or
    /// failed without one: `error`).
    pub status: Option<u16>,
    /// Why it failed without an answer (`net::ERR_CONNECTION_REFUSED`), when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub error: Option<String>,
}

impl std::fmt::Display for RequestSeen {
    /// `POST /api/answer → 200`, `POST /api/slow → no answer yet`, `POST /api/x → failed (…)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} → ", self.method, self.url)?;
        match (self.status, &self.error) {
            (Some(status), _) => write!(f, "{status}"),
            (None, Some(error)) => write!(f, "failed ({error})"),
            (None, None) => f.write_str("no answer yet"),
        }
    }
}

impl RequestSeen {
    /// As the record keeps it: its address and error masked by `redact`, then cut (cut first, a
    /// secret could be left in part where masking no longer finds it).
    pub fn masked(self, redact: impl Fn(&str) -> String) -> RequestSeen {
        let keep = |text: &str| crate::bounded(&redact(text));
        RequestSeen { url: keep(&self.url), error: self.error.as_deref().map(keep), ..self }
    }

    /// The server answered with an error: a 4xx or a 5xx.
    pub fn refused(&self) -> bool {
        self.status.is_some_and(|status| status >= 400)
    }
}

/// What an action did to the world, as the runner holds it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ActionEffect {
    /// Nothing outside the page changed: typing, a link followed, a menu opened — or the driver
    /// could not carry it out.
    #[default]
    Safe,
    /// Carried out once, and it may have changed something (a send, a payment, a save, any
    /// request other than GET): the runner never does it again on its own.
    Effectful,
    /// Not carried out: the same effectful action was already done for the objective.
    NotRepeated,
    /// Not carried out: a safety rule refused it (a secret where it may not go, a look-alike).
    Refused,
}

impl ObjectiveProgress {
    pub fn current_step(&self) -> Option<&ObjectiveStep> {
        self.objective_steps.get(self.current_step_index)
    }

    /// The objectives, without the recovery steps.
    pub fn objectives_only(&self) -> impl Iterator<Item = &ObjectiveStep> {
        self.objective_steps.iter().filter(|s| s.step_type == StepType::Objective)
    }

    /// Objective number `number` (1 for the first; recovery steps are not counted).
    pub fn objective_numbered(&self, number: usize) -> Option<&ObjectiveStep> {
        self.objectives_only().nth(number.checked_sub(1)?)
    }

    /// The number of the objective at step `index` — for a recovery step, its objective's — as
    /// the person wrote it (1 for the first).
    pub fn objective_number(&self, index: usize) -> usize {
        let step = self.objective_steps.get(index);
        let index = step.and_then(|s| s.parent_index).unwrap_or(index);
        self.objective_steps.iter().take(index + 1).filter(|s| s.step_type == StepType::Objective).count()
    }

    pub fn completed_objectives(&self) -> usize {
        self.objectives_only().filter(|s| s.status == StepStatus::Completed).count()
    }

    pub fn total_objectives(&self) -> usize {
        self.objectives_only().count()
    }

    /// Every objective completed.
    pub fn all_completed(&self) -> bool {
        self.objectives_only().all(|s| s.status == StepStatus::Completed)
    }

    /// `2/3 objectives`.
    pub fn summary(&self) -> String {
        format!("{}/{} objectives", self.completed_objectives(), self.total_objectives())
    }

    /// The summary, the current step and, for a recovery, why and for which objective: what a
    /// person (or a model) is shown of where the run is.
    pub fn progress_summary(&self) -> String {
        let mut lines = vec![format!("Progress: {}", self.summary())];
        if let Some(step) = self.current_step() {
            let kind = match step.step_type {
                StepType::Objective => "objective",
                StepType::Recovery => "recovery",
            };
            lines.push(format!("Current step: [{kind}] {}", step.description));
            lines.push(format!("Status: {}", status_name(step.status)));
            if let (Some(reason), Some(parent)) = (&step.blocking_reason, step.parent_index) {
                lines.push(format!("Blocked by: {reason}"));
                lines.push(format!("For objective: #{}", self.objective_number(parent)));
            }
        }
        lines.join("\n")
    }
}

/// A status in words.
pub fn status_name(status: StepStatus) -> &'static str {
    match status {
        StepStatus::Pending => "pending",
        StepStatus::InProgress => "in progress",
        StepStatus::Completed => "completed",
        StepStatus::Failed => "failed",
        StepStatus::Skipped => "skipped",
    }
}

/// What happened to a step, as a progress event says (`Progress::Objective`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ObjectiveChange {
    /// The objectives were read from the steps: `steps` holds them all, pending.
    Planned,
    /// The step is in progress (again, after a recovery or a failed attempt).
    Started,
    /// An action was carried out for it (`action`).
    ActionExecuted,
    /// A recovery step was inserted (it is `step`).
    RecoveryInserted,
    Completed,
    Failed,
    Skipped,
    /// The step's evidence screenshot was saved (`step.screenshot`).
    EvidenceKept,
}

/// What a `progress` event of kind `objective` says: a step changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ObjectiveEvent {
    pub change: ObjectiveChange,
    /// The step after the change.
    pub step: StepState,
    /// The action carried out, for `action_executed`.
    pub action: Option<ExecutedAction>,
    /// Every step, for `planned`.
    pub steps: Option<Vec<StepState>>,
    /// Objectives completed so far, and in all (recovery steps are not counted).
    pub completed: usize,
    pub total: usize,
}

/// A step as an event shows it: everything but the actions already reported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StepState {
    pub index: usize,
    pub description: String,
    pub step_type: StepType,
    pub status: StepStatus,
    pub execution_plan: Vec<String>,
    pub parent_index: Option<usize>,
    pub blocking_reason: Option<String>,
    pub completion_evidence: Option<String>,
    pub attempts: u32,
    #[serde(flatten)]
    pub stats: StepStats,
    #[serde(flatten)]
    pub said: StepSaid,
}

impl From<&ObjectiveStep> for StepState {
    fn from(step: &ObjectiveStep) -> StepState {
        StepState {
            index: step.index,
            description: step.description.clone(),
            step_type: step.step_type,
            status: step.status,
            execution_plan: step.execution_plan.clone(),
            parent_index: step.parent_index,
            blocking_reason: step.blocking_reason.clone(),
            completion_evidence: step.completion_evidence.clone(),
            attempts: step.attempts,
            stats: step.stats.clone(),
            said: step.said.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialised_as_the_record_and_the_events_show_it() {
        let step = |index: usize, description: &str| {
            serde_json::json!({
                "index": index, "description": description, "step_type": "objective", "status": "pending",
                "execution_plan": [], "executed_actions": [], "parent_index": null, "blocking_reason": null,
                "completion_evidence": null, "attempts": 0
            })
        };
        let written = serde_json::json!({
            "original_input": "1. Sign in 2. Open Statements",
            "objective_steps": [step(0, "Sign in"), step(1, "Open Statements")],
            "current_step_index": 0
        });
        let progress: ObjectiveProgress = serde_json::from_value(written).unwrap();
        let json = serde_json::to_value(&progress).unwrap();
        assert_eq!(json["objective_steps"][0]["step_type"], "objective");
        assert_eq!(json["objective_steps"][0]["status"], "pending");
        assert_eq!(json["current_step_index"], 0);
        let back: ObjectiveProgress = serde_json::from_value(json).unwrap();
        assert_eq!(back, progress);
        assert_eq!((progress.total_objectives(), progress.summary().as_str()), (2, "0/2 objectives"));
        let state = StepState::from(&progress.objective_steps[1]);
        assert_eq!(serde_json::to_value(&state).unwrap()["description"], "Open Statements");

        let event = crate::Progress::Objective(Box::new(ObjectiveEvent {
            change: ObjectiveChange::Started,
            step: state,
            action: None,
            steps: None,
            completed: 0,
            total: 2,
        }));
        let json = serde_json::to_value(&event).unwrap();
        assert_eq!((json["kind"].as_str(), json["change"].as_str()), (Some("objective"), Some("started")));
        assert_eq!(json["step"]["index"], 1);
        assert_eq!(serde_json::from_value::<crate::Progress>(json).unwrap(), event);
    }

    #[test]
    fn an_action_recorded_before_tools_requests_and_effects_were_typed_still_loads() {
        let old = serde_json::json!({
            "action": "click getByRole('button', { name: \"Send\" })", "tool_name": "click",
            "locator": null, "result": "done (started POST /api/answer → 200)", "timestamp": "t"
        });
        let action: ExecutedAction = serde_json::from_value(old).unwrap();
        assert_eq!(action.tool_name, Tool::Click);
        assert!(action.succeeded);
        assert!(action.requests.is_empty());
        assert_eq!(action.effect, ActionEffect::Safe, "an old record said nothing of its effect");
    }

    #[test]
    fn a_tool_this_version_does_not_know_loads_as_other() {
        let old =
            serde_json::json!({"action": "read the table", "tool_name": "read", "result": "ok", "timestamp": "t"});
        let action: ExecutedAction = serde_json::from_value(old).unwrap();
        assert_eq!(action.tool_name, Tool::Other);
    }

    #[test]
    fn a_requests_address_and_error_are_kept_masked_and_cut() {
        let canary = "s3cr3t-canary-7781";
        let redact = |text: &str| text.replace(canary, "***");
        let long = format!("/api/answer?token={canary}&pad={}", "x".repeat(crate::REPEATED_TEXT_CHARS));
        let request = RequestSeen {
            method: "POST".into(),
            url: long,
            status: None,
            error: Some(format!("net::ERR_FAILED {canary}")),
        };
        let kept = request.masked(redact);
        assert!(kept.url.starts_with("/api/answer?token=***&pad=xx"), "{}", kept.url);
        assert!(kept.url.chars().count() < crate::REPEATED_TEXT_CHARS + 40, "a long address is cut");
        assert_eq!(kept.error.as_deref(), Some("net::ERR_FAILED ***"));
        assert!(!serde_json::to_string(&kept).unwrap().contains(canary));
    }

    #[test]
    fn tools_are_written_by_the_names_records_always_used() {
        for (tool, name) in [
            (Tool::Navigate, "navigate"),
            (Tool::Click, "click"),
            (Tool::Fill, "fill"),
            (Tool::Select, "select"),
            (Tool::Check, "check"),
            (Tool::Press, "press"),
            (Tool::Hover, "hover"),
            (Tool::Scroll, "scroll"),
            (Tool::Back, "back"),
        ] {
            assert_eq!(serde_json::to_value(tool).unwrap(), name);
            assert_eq!(tool.name(), name);
            assert_eq!(serde_json::from_value::<Tool>(name.into()).unwrap(), tool);
        }
    }

    #[test]
    fn an_actions_requests_and_effect_are_written_and_read_back() {
        let action = ExecutedAction {
            action: "click button \"Send message\"".into(),
            tool_name: Tool::Click,
            locator: None,
            result: "done".into(),
            result_said: vec![crate::RunMessage::ActionDone],
            succeeded: true,
            timestamp: "t".into(),
            requests: vec![
                RequestSeen {
                    method: "POST".into(),
                    url: "/api/answer?form=contact".into(),
                    status: Some(200),
                    error: None,
                },
                RequestSeen { method: "PUT".into(), url: "/api/slow".into(), status: None, error: None },
            ],
            effect: ActionEffect::Effectful,
        };
        let json = serde_json::to_value(&action).unwrap();
        assert_eq!(json["effect"], "effectful");
        assert_eq!(json["requests"][0]["status"], 200);
        assert_eq!(json["requests"][1]["status"], serde_json::Value::Null, "no answer yet");
        assert!(json["requests"][0].get("error").is_none());
        assert_eq!(serde_json::from_value::<ExecutedAction>(json).unwrap(), action);
        let said: Vec<String> = action.requests.iter().map(ToString::to_string).collect();
        assert_eq!(said, ["POST /api/answer?form=contact → 200", "PUT /api/slow → no answer yet"]);
        let failed = RequestSeen {
            status: None,
            error: Some("net::ERR_CONNECTION_REFUSED".into()),
            ..action.requests[1].clone()
        };
        assert_eq!(failed.to_string(), "PUT /api/slow → failed (net::ERR_CONNECTION_REFUSED)");
        for (effect, name) in [
            (ActionEffect::Safe, "safe"),
            (ActionEffect::Effectful, "effectful"),
            (ActionEffect::NotRepeated, "not_repeated"),
            (ActionEffect::Refused, "refused"),
        ] {
            assert_eq!(serde_json::to_value(effect).unwrap(), name);
        }
    }
}
