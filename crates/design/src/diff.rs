//! What changed between two attempts at a plan, node by node: shown to the person and given to
//! the model in a repair round (seed 002 §6).

use planwright_plan::{Node, Plan};
use serde::Serialize;
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    Added,
    Removed,
    Changed,
}

/// One node's change; `node` is `(plan)` for vars and secrets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NodeChange {
    pub node: String,
    pub change: ChangeKind,
    /// The fields that differ (`block`, `in.items`, `out`, `when` …) for a changed node.
    pub fields: Vec<String>,
}

pub fn diff_plans(before: &Plan, after: &Plan) -> Vec<NodeChange> {
    let mut changes = Vec::new();
    let mut plan_fields = Vec::new();
    for (name, value) in &after.vars {
        if before.vars.get(name) != Some(value) {
            plan_fields.push(format!("vars.{name}"));
        }
    }
    plan_fields.extend(before.vars.keys().filter(|k| !after.vars.contains_key(*k)).map(|k| format!("vars.{k}")));
    if before.secrets != after.secrets {
        plan_fields.push("secrets".into());
    }
    if !plan_fields.is_empty() {
        changes.push(NodeChange { node: "(plan)".into(), change: ChangeKind::Changed, fields: plan_fields });
    }
    for node in &before.graph {
        match after.graph.iter().find(|n| n.id == node.id) {
            None => changes.push(NodeChange { node: node.id.clone(), change: ChangeKind::Removed, fields: Vec::new() }),
            Some(new) => {
                let fields = changed_fields(node, new);
                if !fields.is_empty() {
                    changes.push(NodeChange { node: node.id.clone(), change: ChangeKind::Changed, fields });
                }
            }
        }
    }
    for node in after.graph.iter().filter(|n| !before.graph.iter().any(|b| b.id == n.id)) {
        changes.push(NodeChange { node: node.id.clone(), change: ChangeKind::Added, fields: Vec::new() });
    }
    changes
}

fn changed_fields(a: &Node, b: &Node) -> Vec<String> {
    let a = serde_json::to_value(a).unwrap_or(Value::Null);
    let b = serde_json::to_value(b).unwrap_or(Value::Null);
    let mut fields = Vec::new();
    let keys = |v: &Value| v.as_object().map(|m| m.keys().cloned().collect::<Vec<_>>()).unwrap_or_default();
    let mut all = keys(&a);
    all.extend(keys(&b).into_iter().filter(|k| a.get(k).is_none()));
    for key in all {
        let (x, y) = (&a[&key], &b[&key]);
        if x == y {
            continue;
        }
        if key == "in" {
            let mut inputs = keys(x);
            inputs.extend(keys(y).into_iter().filter(|k| x.get(k).is_none()));
            fields.extend(inputs.into_iter().filter(|k| x.get(k) != y.get(k)).map(|k| format!("in.{k}")));
        } else {
            fields.push(key);
        }
    }
    fields
}

/// The changes as lines for a person or a prompt.
pub fn describe(changes: &[NodeChange]) -> String {
    if changes.is_empty() {
        return "no change".into();
    }
    changes
        .iter()
        .map(|c| match c.change {
            ChangeKind::Added => format!("+ {}", c.node),
            ChangeKind::Removed => format!("- {}", c.node),
            ChangeKind::Changed => format!("~ {}: {}", c.node, c.fields.join(", ")),
        })
        .collect::<Vec<_>>()
        .join("\n")
}
