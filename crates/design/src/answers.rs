//! What a person's answer to a requirement does to a plan: the value it fills in
//! ([`answer_value`]), or — seed 002's run-time chat option — a `ui.interactive_input` node at
//! the head of the plan that asks the chosen requirements when the plan runs
//! ([`ask_at_run_time`]).

use planwright_plan::Plan;
use serde_json::{json, Value};

use crate::reading::Language;
use crate::requirements::{schema_template, DesignRequirement, Target, SCHEMA_TEMPLATES};

/// The value an answer puts in the plan: the answer itself, except for the choice of a model
/// step's answer format, whose name stands for a schema (`classification` → its JSON schema).
pub fn answer_value(requirement: &DesignRequirement, answer: &Value) -> Value {
    let offers_schemas = !requirement.requirement.options.is_empty()
        && requirement.requirement.options.iter().all(|o| SCHEMA_TEMPLATES.contains(&o.as_str()));
    match answer.as_str().filter(|_| offers_schemas).and_then(schema_template) {
        Some(schema) => schema,
        None => answer.clone(),
    }
}

/// The node [`ask_at_run_time`] adds, before any other of the same name.
const NODE_ID: &str = "ask_at_run_time";

/// Adds a `ui.interactive_input` node at the head of `plan` asking `chosen` when the plan runs,
/// and points what each one filled (a var's uses, a node's input) at its answer. Secrets are
/// left out: their values come from the key store or the run's own secret prompt. Returns the
/// new node's id, or `None` when nothing was left to ask.
pub fn ask_at_run_time(plan: &mut Plan, chosen: &[DesignRequirement], language: Language) -> Option<String> {
    // What the job is (read, do, write) is designed, never asked while a plan runs.
    let asked: Vec<&DesignRequirement> =
        chosen.iter().filter(|r| r.asked() && !matches!(r.target, Target::Instruction { .. })).collect();
    if asked.is_empty() {
        return None;
    }
    let id = free_id(plan);
    let mut fields = Vec::new();
    let mut graph = serde_json::to_value(&plan.graph).unwrap_or(Value::Null);
    for requirement in &asked {
        // A key of `collected_data` is one path segment: `read.path` would read as two.
        let key: String =
            requirement.requirement.id.chars().map(|c| if c.is_alphanumeric() || c == '_' { c } else { '_' }).collect();
        let mut field = serde_json::to_value(&requirement.requirement).unwrap_or(Value::Null);
        field["id"] = Value::from(key.as_str());
        fields.push(field);
        let answer = format!("{id}.collected_data.{key}");
        match &requirement.target {
            Target::Var { name } => {
                plan.vars.shift_remove(name);
                replace_var_uses(&mut graph, name, &answer);
            }
            Target::Input { node, field } => {
                if let Some(inputs) = node_inputs(&mut graph, node) {
                    inputs.insert(field.clone(), Value::from(format!("${{{answer}}}")));
                }
            }
            Target::Secret { .. } | Target::Instruction { .. } => {}
        }
    }
    if let Ok(rewritten) = serde_json::from_value(graph) {
        plan.graph = rewritten;
    }
    let message = language.pick(
        "Before this plan runs, please answer these questions.",
        "このプランを実行する前に、次の質問に答えてください。",
    );
    let node = json!({
        "id": id,
        "block": "ui.interactive_input",
        "description": language.pick("Ask what the plan needs when it runs", "実行時に必要な情報を担当者に尋ねる"),
        "in": { "mode": "collect", "message": message, "requirements": fields },
        "out": { "collected_data": "collected_data" },
    });
    if let Ok(node) = serde_json::from_value(node) {
        plan.graph.insert(0, node);
    }
    Some(id)
}

fn free_id(plan: &Plan) -> String {
    let taken = |candidate: &str| crate::nodes_and_bodies(plan).any(|n| n.id == candidate);
    std::iter::once(NODE_ID.to_owned())
        .chain((2..).map(|n| format!("{NODE_ID}_{n}")))
        .find(|candidate| !taken(candidate))
        .unwrap_or_else(|| NODE_ID.to_owned())
}

/// `vars.NAME` wherever the graph's strings use it (`${vars.NAME}`, `${vars.NAME.field}`, in an
/// expression), and nothing that only starts with it (`vars.NAME_2`).
fn replace_var_uses(value: &mut Value, name: &str, with: &str) {
    match value {
        Value::String(text) => {
            let pattern = format!("vars.{name}");
            let mut out = String::with_capacity(text.len());
            let mut rest = text.as_str();
            while let Some(at) = rest.find(&pattern) {
                let before = rest[..at].chars().next_back();
                let after = rest[at + pattern.len()..].chars().next();
                let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
                let whole = !word(before) && before != Some('.') && !word(after);
                out.push_str(&rest[..at]);
                out.push_str(if whole { with } else { &pattern });
                rest = &rest[at + pattern.len()..];
            }
            out.push_str(rest);
            *text = out;
        }
        Value::Array(items) => items.iter_mut().for_each(|v| replace_var_uses(v, name, with)),
        Value::Object(map) => map.values_mut().for_each(|v| replace_var_uses(v, name, with)),
        _ => {}
    }
}

/// The `in` map of the node `id`, at the top or in a loop's body.
fn node_inputs<'v>(graph: &'v mut Value, id: &str) -> Option<&'v mut serde_json::Map<String, Value>> {
    let nodes = graph.as_array_mut()?;
    for node in nodes {
        if node["id"] == id {
            let node = node.as_object_mut()?;
            return node.entry("in").or_insert_with(|| json!({})).as_object_mut();
        }
        if let Some(found) = node
            .get_mut("body")
            .and_then(|b| b.get_mut("plan"))
            .and_then(|p| p.get_mut("graph"))
            .and_then(|g| node_inputs(g, id))
        {
            return Some(found);
        }
    }
    None
}
