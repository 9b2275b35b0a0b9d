//! What a configured model adds to the runner: the checklist of steps written as prose (fast
//! tier), an action decision where the offline resolver found no target (fast tier, the seed's
//! `ActionDecisionOutput`, or `TARGET_NOT_FOUND`), and a judgement of a model-planned objective
//! (evaluator tier, `{achieved, evidence}`). Every call goes through the run's recorded client,
//! so it is a `model_call` event with its tier and tokens, masked.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use planwright_browser::Locator;
use planwright_llm::{structured, ChatRequest, LlmClient, LlmError, Prompts, StructuredError, Tier};
use planwright_runs::objective::Tool;
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;

use crate::resolve::{Op, ValueKind, ValueSpec};

/// The most actions one decision may carry.
const MAX_ACTIONS: usize = 6;

/// Why the model could not help.
#[derive(Debug, Clone, thiserror::Error)]
#[error("the model: {message}")]
pub struct ModelError {
    pub(crate) message: String,
    pub(crate) retriable: bool,
}

impl ModelError {
    /// Whether another attempt could go better (a bad answer, a timeout), or not (no key).
    pub fn retriable(&self) -> bool {
        self.retriable
    }
}

impl From<StructuredError> for ModelError {
    fn from(error: StructuredError) -> ModelError {
        let retriable = !matches!(
            error.error,
            LlmError::Refused { status: 401 | 403 | 404, .. } | LlmError::InvalidSchema { .. } | LlmError::Cancelled
        );
        ModelError { message: error.to_string(), retriable }
    }
}

/// What a decision says to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelPlan {
    Act(Vec<Op>),
    /// The model could not tell, and said why.
    TargetNotFound(String),
}

/// One structured question: which prompt, on which tier, answered in which schema.
pub(crate) struct Ask<'a> {
    pub prompt: &'a str,
    pub tier: Tier,
    pub max_tokens: u32,
    /// The schema's name as the server sees it.
    pub name: &'a str,
    pub schema: Value,
}

/// The model, with the prompts, counting its calls and tokens.
pub struct ModelHelp {
    client: Arc<dyn LlmClient>,
    prompts: Prompts,
    calls: AtomicUsize,
    input_tokens: AtomicU64,
    output_tokens: AtomicU64,
}

/// Calls and tokens spent, as counted so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Spent {
    pub calls: usize,
    pub input_tokens: u64,
    pub output_tokens: u64,
}

impl std::ops::Sub for Spent {
    type Output = Spent;
    fn sub(self, before: Spent) -> Spent {
        Spent {
            calls: self.calls.saturating_sub(before.calls),
            input_tokens: self.input_tokens.saturating_sub(before.input_tokens),
            output_tokens: self.output_tokens.saturating_sub(before.output_tokens),
        }
    }
}

impl ModelHelp {
    pub fn new(client: Arc<dyn LlmClient>) -> Result<ModelHelp, planwright_llm::PromptError> {
        Ok(ModelHelp {
            client,
            prompts: Prompts::built_in()?,
            calls: AtomicUsize::new(0),
            input_tokens: AtomicU64::new(0),
            output_tokens: AtomicU64::new(0),
        })
    }

    /// Calls made so far (a re-ask counts).
    pub fn calls(&self) -> usize {
        self.calls.load(Ordering::Relaxed)
    }

    /// Calls and tokens so far.
    pub fn spent(&self) -> Spent {
        Spent {
            calls: self.calls(),
            input_tokens: self.input_tokens.load(Ordering::Relaxed),
            output_tokens: self.output_tokens.load(Ordering::Relaxed),
        }
    }

    pub(crate) async fn ask(
        &self,
        ask: Ask<'_>,
        values: &[(&str, &str)],
        cancel: &CancellationToken,
    ) -> Result<Value, ModelError> {
        let rendered = self
            .prompts
            .render(ask.prompt, values)
            .map_err(|e| ModelError { message: e.to_string(), retriable: false })?;
        let mut request = ChatRequest::new(ask.tier, rendered.messages());
        request.max_tokens = Some(ask.max_tokens);
        let answer = structured(self.client.as_ref(), &self.prompts, request, ask.name, &ask.schema, cancel).await;
        let exchanges = match &answer {
            Ok(answer) => &answer.exchanges,
            Err(error) => &error.exchanges,
        };
        for exchange in exchanges {
            self.input_tokens.fetch_add(exchange.reply.usage.input_tokens, Ordering::Relaxed);
            self.output_tokens.fetch_add(exchange.reply.usage.output_tokens, Ordering::Relaxed);
        }
        self.calls.fetch_add(exchanges.len().max(1), Ordering::Relaxed);
        Ok(answer?.value)
    }

    /// The checklist of steps written as prose; items as written, `[]` taken off.
    pub async fn checklist(&self, steps: &str, cancel: &CancellationToken) -> Result<Vec<String>, ModelError> {
        let schema = json!({
            "type": "object",
            "properties": {"checklist": {"type": "array", "items": {"type": "string"}, "maxItems": 100}},
            "required": ["checklist"],
            "additionalProperties": false
        });
        let ask = Ask { prompt: "objective_checklist", tier: Tier::Fast, max_tokens: 3000, name: "checklist", schema };
        let answer = self.ask(ask, &[("steps", steps)], cancel).await?;
        let items: Vec<String> = answer["checklist"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(|item| item.trim().trim_start_matches("[]").trim_start_matches("[ ]").trim().to_owned())
            .filter(|item| !item.is_empty())
            .collect();
        if items.is_empty() {
            return Err(ModelError { message: "the checklist came back empty".into(), retriable: true });
        }
        Ok(items)
    }

    /// The actions for an objective, from the page's snapshot.
    #[allow(clippy::too_many_arguments)]
    pub async fn decide(
        &self,
        step: &str,
        checklist: &[String],
        index: usize,
        snapshot: &str,
        failures: &[String],
        placeholders: &[String],
        cancel: &CancellationToken,
    ) -> Result<ModelPlan, ModelError> {
        let listed: Vec<String> = checklist.iter().enumerate().map(|(i, s)| format!("{}. {s}", i + 1)).collect();
        let named: Vec<String> = placeholders.iter().map(|p| format!("{{{{{p}}}}}")).collect();
        let number = (index + 1).to_string();
        let failures = if failures.is_empty() { "nothing yet".to_owned() } else { failures.join("\n") };
        let values = [
            ("snapshot", snapshot),
            ("step", step),
            ("checklist", &listed.join("\n")),
            ("step_index", &number),
            ("placeholders", &if named.is_empty() { "none".to_owned() } else { named.join(", ") }),
            ("failures", &failures),
        ];
        let ask = Ask {
            prompt: "objective_decide",
            tier: Tier::Fast,
            max_tokens: 1500,
            name: "action_decision",
            schema: decision_schema(),
        };
        let answer = self.ask(ask, &values, cancel).await?;
        plan_of(&answer)
    }

    /// Whether the page now shows the objective achieved, and the evidence (or what is missing).
    pub async fn judge(
        &self,
        step: &str,
        actions: &[String],
        snapshot: &str,
        cancel: &CancellationToken,
    ) -> Result<(bool, String), ModelError> {
        let schema = json!({
            "type": "object",
            "properties": {"achieved": {"type": "boolean"}, "evidence": {"type": "string"}},
            "required": ["achieved", "evidence"],
            "additionalProperties": false
        });
        let values = [("step", step), ("actions", &actions.join("\n")), ("snapshot", snapshot)];
        let ask = Ask {
            prompt: "objective_judge",
            tier: Tier::Evaluator,
            max_tokens: 800,
            name: "objective_judgement",
            schema,
        };
        let answer = self.ask(ask, &values, cancel).await?;
        Ok((answer["achieved"].as_bool().unwrap_or(false), answer["evidence"].as_str().unwrap_or_default().to_owned()))
    }
}

/// The seed's `ActionDecisionOutput`, several actions at once, or `TARGET_NOT_FOUND`.
pub fn decision_schema() -> Value {
    let nullable = |t: &str| json!({"type": [t, "null"]});
    json!({
        "type": "object",
        "properties": {
            "status": {"type": "string", "enum": ["act", "TARGET_NOT_FOUND"]},
            "actions": {
                "type": "array",
                "maxItems": MAX_ACTIONS,
                "items": {
                    "type": "object",
                    "properties": {
                        "method": {"type": "string", "enum": ["getByRole", "getByText", "getByTestId", "none"]},
                        "selector": {
                            "type": "object",
                            "properties": {
                                "role": nullable("string"),
                                "name": nullable("string"),
                                "text": nullable("string"),
                                "testId": nullable("string"),
                                "near": nullable("string")
                            },
                            "required": ["role", "name", "text", "testId", "near"],
                            "additionalProperties": false
                        },
                        "action": {"type": "string", "enum": ["click", "fill", "select", "check", "uncheck", "press", "navigate", "hover", "scroll"]},
                        "value": {
                            "type": ["object", "null"],
                            "properties": {"kind": {"type": "string", "enum": ["placeholder", "literal"]}, "value": {"type": "string"}},
                            "required": ["kind", "value"],
                            "additionalProperties": false
                        },
                        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
                        "rationale": {"type": "string"}
                    },
                    "required": ["method", "selector", "action", "value", "confidence", "rationale"],
                    "additionalProperties": false
                }
            },
            "reason": {"type": "string"}
        },
        "required": ["status", "actions", "reason"],
        "additionalProperties": false
    })
}

/// A decision as operations. An action without what it needs makes it a failed decision saying
/// so. Where its secrets may go is the runner's check ([`crate::secret_use`]), which refuses
/// and records a placeholder the objective does not name.
pub fn plan_of(answer: &Value) -> Result<ModelPlan, ModelError> {
    let reason = answer["reason"].as_str().unwrap_or_default().to_owned();
    if answer["status"] == "TARGET_NOT_FOUND" {
        return Ok(ModelPlan::TargetNotFound(if reason.is_empty() { "no reason given".into() } else { reason }));
    }
    let invalid = |message: String| ModelError { message, retriable: true };
    let actions = answer["actions"].as_array().cloned().unwrap_or_default();
    if actions.is_empty() {
        return Ok(ModelPlan::TargetNotFound(format!("the decision had no actions ({reason})")));
    }
    let mut ops = Vec::with_capacity(actions.len());
    for action in actions.iter().take(MAX_ACTIONS) {
        let selector = &action["selector"];
        let text = |key: &str| selector[key].as_str().map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned);
        let locator = match action["method"].as_str().unwrap_or_default() {
            "getByRole" => text("role").map(|role| Locator::Role { role, name: text("name"), exact: false }),
            "getByText" => text("text").map(|text| Locator::Text { text, exact: false }),
            "getByTestId" => text("testId").map(|id| Locator::TestId { id }),
            _ => None,
        };
        // One of several elements of that name, told apart by what surrounds it.
        let locator = match (locator, text("near")) {
            (Some(target), Some(near)) => Some(Locator::Near { target: Box::new(target), text: near }),
            (locator, _) => locator,
        };
        let value = match (&action["value"]["kind"], action["value"]["value"].as_str()) {
            (kind, Some(value)) if kind == "placeholder" => {
                let name = value.trim().trim_start_matches("{{").trim_end_matches("}}").trim();
                Some(ValueSpec { kind: ValueKind::Placeholder, value: format!("{{{{{name}}}}}") })
            }
            (_, Some(value)) => Some(ValueSpec { kind: ValueKind::Literal, value: value.to_owned() }),
            _ => None,
        };
        let kind = action["action"].as_str().unwrap_or_default();
        let need_locator = || locator.clone().ok_or_else(|| invalid(format!("the decision's {kind} names no element")));
        let need_value = || value.clone().ok_or_else(|| invalid(format!("the decision's {kind} gives no value")));
        // The schema's actions are the driver's tools by their record names, and `uncheck`: a
        // check that clears. A name no tool has reads as `Other`.
        let (tool, on) = match kind {
            "uncheck" => (Tool::Check, false),
            _ => (serde_json::from_value(Value::from(kind)).unwrap_or(Tool::Other), true),
        };
        ops.push(match tool {
            Tool::Click => Op::Click { locator: need_locator()?, downloads: false },
            Tool::Fill => Op::Fill { locator: need_locator()?, value: need_value()? },
            Tool::Select => Op::Select { locator: need_locator()?, option: need_value()?.value },
            Tool::Check => Op::Check { locator: need_locator()?, on },
            Tool::Press => Op::Press { locator: locator.clone(), key: need_value()?.value },
            Tool::Navigate => Op::Navigate { url: need_value()?.value },
            Tool::Hover => Op::Hover { locator: need_locator()? },
            Tool::Scroll => Op::Scroll { down: value.as_ref().is_none_or(|v| v.value != "up") },
            // Going back is the runner's own move (the schema does not offer it).
            Tool::Back | Tool::Other => {
                return Err(invalid(format!(
                    "the decision's action {kind:?} is not one a decision may take (click, fill, select, check, uncheck, press, navigate, hover, scroll)"
                )))
            }
        });
    }
    Ok(ModelPlan::Act(ops))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decision_becomes_operations_with_placeholders_kept() {
        let answer = json!({
            "status": "act",
            "reason": "",
            "actions": [
                {"method": "getByRole", "selector": {"role": "textbox", "name": "Password", "text": null, "testId": null, "near": null},
                 "action": "fill", "value": {"kind": "placeholder", "value": "{{PORTAL_PASSWORD}}"}, "confidence": 0.9, "rationale": "the password field"},
                {"method": "getByText", "selector": {"role": null, "name": null, "text": "Star", "testId": null, "near": null},
                 "action": "click", "value": null, "confidence": 0.8, "rationale": "the star"},
                {"method": "none", "selector": {"role": null, "name": null, "text": null, "testId": null, "near": null},
                 "action": "press", "value": {"kind": "literal", "value": "Enter"}, "confidence": 1, "rationale": "submit"}
            ]
        });
        let ModelPlan::Act(ops) = plan_of(&answer).unwrap() else { panic!() };
        assert_eq!(ops.len(), 3);
        assert_eq!(ops[0].describe(), "fill getByRole(\"textbox\", { name: \"Password\" }) with {{PORTAL_PASSWORD}}");
        assert_eq!(
            ops[1],
            Op::Click { locator: Locator::Text { text: "Star".into(), exact: false }, downloads: false }
        );
        assert_eq!(ops[2], Op::Press { locator: None, key: "Enter".into() });
    }

    #[test]
    fn a_near_text_picks_one_of_several_elements_of_a_name() {
        let answer = json!({"status": "act", "reason": "", "actions": [
            {"method": "getByRole", "selector": {"role": "link", "name": "Download", "text": null, "testId": null, "near": "October 2026"},
             "action": "click", "value": null, "confidence": 0.9, "rationale": "the October row"}]});
        let ModelPlan::Act(ops) = plan_of(&answer).unwrap() else { panic!() };
        assert_eq!(ops[0].describe(), "click getByRole(\"link\", { name: \"Download\" }).near(\"October 2026\")");
    }

    #[test]
    fn target_not_found_and_actions_without_an_element_are_not_actions() {
        let not_found = json!({"status": "TARGET_NOT_FOUND", "actions": [], "reason": "no Export button"});
        assert_eq!(plan_of(&not_found).unwrap(), ModelPlan::TargetNotFound("no Export button".into()));
        let no_element = json!({"status": "act", "reason": "", "actions": [
            {"method": "none", "selector": {"role": null, "name": null, "text": null, "testId": null, "near": null},
             "action": "click", "value": null, "confidence": 1, "rationale": ""}]});
        assert!(plan_of(&no_element).is_err());
    }

    #[test]
    fn an_uncheck_clears_and_an_action_no_tool_has_is_refused_saying_which() {
        let decision = |action: &str| {
            json!({"status": "act", "reason": "", "actions": [
                {"method": "getByRole", "selector": {"role": "checkbox", "name": "Newsletter", "text": null, "testId": null, "near": null},
                 "action": action, "value": null, "confidence": 1, "rationale": ""}]})
        };
        let ModelPlan::Act(ops) = plan_of(&decision("uncheck")).unwrap() else { panic!() };
        assert!(matches!(ops[0], Op::Check { on: false, .. }));
        let ModelPlan::Act(ops) = plan_of(&decision("check")).unwrap() else { panic!() };
        assert!(matches!(ops[0], Op::Check { on: true, .. }));
        for unknown in ["drag", "back", ""] {
            let error = plan_of(&decision(unknown)).unwrap_err();
            assert!(
                error.message.contains(&format!("{unknown:?} is not one a decision may take")),
                "{}",
                error.message
            );
            assert!(error.retriable, "the model is asked again");
        }
    }

    #[test]
    fn the_decision_schema_is_strict_compatible() {
        let strict = planwright_llm::strict_schema(&decision_schema()).unwrap();
        assert!(planwright_llm::is_strict(&strict));
    }
}
