//! Composing templates into a plan (seed 002 §4): the snippet's node ids prefixed with the
//! template id, its imports bound — to what the caller binds them to, else to a plan var of the
//! same name, else to an earlier node's output of that alias, else to a new `${vars.NAME}`
//! declared with no value (asked for) — its vars and secrets joined to the plan's, its exports
//! linked to the references later nodes use. What cannot be joined silently (a var the plan
//! already sets to another value, a node id taken) is a [`Conflict`] for the person to resolve.

use std::sync::LazyLock;

use indexmap::IndexMap;
use planwright_designs::{TemplateSpec, IMPORTS_ROOT};
use planwright_plan::{Node, Plan, Ui};
use regex::Regex;
use serde::Serialize;
use serde_json::Value;

/// Something composing could not decide alone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Conflict {
    pub template: String,
    /// What clashes, in a sentence.
    pub message: String,
    /// How to resolve it.
    pub hint: String,
}

/// What composing one template added to a plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Composed {
    pub template: String,
    /// Import name → what it was bound to (`${read.rows}`, `${vars.payments}`).
    pub bindings: IndexMap<String, String>,
    /// Imports nothing could be bound to: declared as vars with no value.
    pub unbound: Vec<String>,
    /// Export name → the reference that reads it in the plan.
    pub exports: IndexMap<String, String>,
    pub node_ids: Vec<String>,
    pub conflicts: Vec<Conflict>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("template `{template}`: {message}")]
pub struct ComposeError {
    pub template: String,
    pub message: String,
}

static IMPORT_REF: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"\$\{{\s*{IMPORTS_ROOT}\.([A-Za-z_][A-Za-z0-9_-]*)((?:\.[^}}\s]+)?)\s*\}}"))
        .expect("import reference")
});

/// Adds `template` to `plan` with `bindings` (import name → a `${…}` reference), returning what
/// was added. `plan` is changed only when the result is `Ok`.
pub fn compose(
    plan: &mut Plan,
    template: &TemplateSpec,
    bindings: &IndexMap<String, String>,
) -> Result<Composed, ComposeError> {
    let fail = |message: String| ComposeError { template: template.id.clone(), message };
    let mut conflicts = Vec::new();
    let mut bound = IndexMap::new();
    let mut unbound = Vec::new();
    for name in template.imports.keys() {
        let reference = bindings
            .get(name)
            .cloned()
            .or_else(|| plan.vars.contains_key(name).then(|| format!("${{vars.{name}}}")))
            .or_else(|| output_alias(plan, name));
        match reference {
            Some(reference) => {
                bound.insert(name.clone(), reference);
            }
            None => {
                unbound.push(name.clone());
                bound.insert(name.clone(), format!("${{vars.{name}}}"));
            }
        }
    }
    let ids = template.node_ids();
    let prefixed: IndexMap<String, String> = ids
        .iter()
        .map(|id| {
            let mut new = format!("{}_{id}", template.id);
            let mut n = 2;
            while plan.graph.iter().any(|node| node.id == new) {
                new = format!("{}_{id}_{n}", template.id);
                n += 1;
            }
            (id.clone(), new)
        })
        .collect();
    for (old, new) in &prefixed {
        if *new != format!("{}_{old}", template.id) {
            conflicts.push(Conflict {
                template: template.id.clone(),
                message: format!("the plan already has a node `{}_{old}`; the template's node is `{new}`", template.id),
                hint: "rename one of them if the plan should read the other".into(),
            });
        }
    }
    let mut nodes = Vec::new();
    for (index, yaml) in template.graph_snippet.iter().enumerate() {
        let mut json =
            serde_json::to_value(yaml).map_err(|e| fail(format!("node {} cannot be read: {e}", index + 1)))?;
        rewrite(&mut json, &bound, &prefixed);
        let mut node: Node =
            serde_json::from_value(json).map_err(|e| fail(format!("node {} is not a plan node: {e}", index + 1)))?;
        if let Some(new) = prefixed.get(&node.id) {
            node.id = new.clone();
        }
        node.after = node.after.iter().map(|a| prefixed.get(a).cloned().unwrap_or_else(|| a.clone())).collect();
        nodes.push(node);
    }
    for name in &unbound {
        plan.vars.entry(name.clone()).or_insert(Value::Null);
    }
    for (name, value) in &template.vars_defaults {
        let Some(name) = name.as_str() else { continue };
        let value = serde_json::to_value(value).unwrap_or(Value::Null);
        match plan.vars.get(name) {
            Some(existing) if !existing.is_null() && *existing != value => conflicts.push(Conflict {
                template: template.id.clone(),
                message: format!(
                    "var `{name}` is {existing} in the plan and {value} in the template; the plan's value is kept"
                ),
                hint: format!("set `{name}` to the value both should use, or rename the template's var"),
            }),
            Some(existing) if !existing.is_null() => {}
            _ => {
                plan.vars.insert(name.to_owned(), value);
            }
        }
    }
    for secret in &template.secrets {
        if !plan.secrets.contains(secret) {
            plan.secrets.push(secret.clone());
        }
    }
    let exports = template
        .exports
        .keys()
        .filter_map(|name| {
            let node = nodes.iter().find(|n| n.out.values().any(|alias| alias == name))?;
            Some((name.clone(), format!("${{{}.{name}}}", node.id)))
        })
        .collect();
    let node_ids: Vec<String> = nodes.iter().map(|n| n.id.clone()).collect();
    let layout = template.ui_suggestions.as_ref().map(|ui| &ui.layout);
    let layout: Vec<String> = match layout {
        Some(layout) => layout.iter().filter_map(|id| prefixed.get(id).cloned()).collect(),
        None => node_ids.clone(),
    };
    plan.ui.get_or_insert_with(Ui::default).layout.extend(layout);
    plan.graph.extend(nodes);
    Ok(Composed {
        template: template.id.clone(),
        bindings: bound.into_iter().filter(|(name, _)| !unbound.contains(name)).collect(),
        unbound,
        exports,
        node_ids,
        conflicts,
    })
}

/// `${node.ALIAS}` of an earlier node whose output alias is `name`.
fn output_alias(plan: &Plan, name: &str) -> Option<String> {
    plan.graph.iter().rev().find(|n| n.out.values().any(|a| a == name)).map(|n| format!("${{{}.{name}}}", n.id))
}

/// Imports replaced by their bindings, references to the snippet's nodes by their new ids, in
/// every string at any depth.
fn rewrite(value: &mut Value, bindings: &IndexMap<String, String>, prefixed: &IndexMap<String, String>) {
    match value {
        Value::String(s) => {
            // Node ids first: a binding may name a plan node whose id the snippet also uses.
            let mut renamed = s.clone();
            for (old, new) in prefixed {
                renamed = renamed
                    .replace(&format!("${{{old}."), &format!("${{{new}."))
                    .replace(&format!("${{ {old}."), &format!("${{ {new}."));
            }
            *s = IMPORT_REF
                .replace_all(&renamed, |c: &regex::Captures| match bindings.get(&c[1]) {
                    Some(reference) => {
                        let inner = reference.trim_start_matches("${").trim_end_matches('}');
                        format!("${{{inner}{}}}", &c[2])
                    }
                    None => c[0].to_owned(),
                })
                .into_owned();
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rewrite(v, bindings, prefixed)),
        Value::Object(map) => map.values_mut().for_each(|v| rewrite(v, bindings, prefixed)),
        _ => {}
    }
}
