//! What a running node can see — vars, loop variables, the outputs of finished nodes in its graph
//! and the enclosing ones — and the resolution of `${…}` references and `when` expressions
//! against it.

use std::collections::HashMap;
use std::sync::Arc;

use planwright_block::RunTables;
use planwright_plan::reference::Part;
use planwright_plan::{Reference, Root, Template};
use serde_json::{Map, Value};

/// The state of a node that other nodes may read.
#[derive(Debug, Clone, PartialEq)]
pub enum NodeValue {
    /// Finished: alias → value.
    Done(Arc<Map<String, Value>>),
    /// Failed under `on_error: continue`: every alias reads as null.
    FailedContinued,
    /// Skipped, with the reason.
    Skipped(String),
}

/// A frozen view of an enclosing graph, for loop bodies and called plans.
#[derive(Debug, Default)]
pub struct Env {
    /// Vars and loop variables visible at this level (innermost wins).
    pub vars: Map<String, Value>,
    /// Node id → value, for the graph this env was taken from.
    pub nodes: HashMap<String, NodeValue>,
    pub parent: Option<Arc<Env>>,
}

impl Env {
    fn var(&self, name: &str) -> Option<&Value> {
        self.vars.get(name).or_else(|| self.parent.as_ref().and_then(|p| p.var(name)))
    }

    fn node(&self, id: &str) -> Option<&NodeValue> {
        self.nodes.get(id).or_else(|| self.parent.as_ref().and_then(|p| p.node(id)))
    }
}

/// Where secrets come from. Values are asked for only when a block input needs them.
pub trait SecretSource: Send + Sync {
    fn secret(&self, name: &str) -> Option<String>;
}

/// Secrets from the environment, as `PLANWRIGHT_SECRET_<NAME>` only: a plan declaring a secret
/// `PATH` must not read the unrelated variable of that name.
pub struct EnvSecrets;

impl SecretSource for EnvSecrets {
    fn secret(&self, name: &str) -> Option<String> {
        std::env::var(format!("PLANWRIGHT_SECRET_{name}")).ok()
    }
}

/// What to say when a secret has no value.
pub(crate) fn missing_secret(name: &str) -> String {
    format!("secret `{name}` has no value; set it in the environment as PLANWRIGHT_SECRET_{name}")
}

/// The secrets port blocks get: only the secrets the run's plans declare, each value registered
/// for masking before a block sees it. A `{{NAME}}` a page, a model or a data value brings in
/// for any other secret the environment holds is refused.
pub(crate) struct RunSecrets {
    pub source: Arc<dyn SecretSource>,
    pub recorder: Arc<crate::record::Recorder>,
    pub declared: std::collections::HashSet<String>,
}

impl planwright_block::BlockSecrets for RunSecrets {
    fn reveal(&self, name: &str) -> Result<String, planwright_block::BlockError> {
        if !self.declared.contains(name) {
            let said = planwright_runs::RunMessage::SecretNotDeclared { name: name.to_owned() };
            let text = format!(
                "secret `{name}` is not declared by the plan, so it is never used; a plan that needs it lists it under `secrets`"
            );
            return Err(planwright_block::BlockError::input(planwright_runs::Reason::said(said, text)));
        }
        let value = self.source.secret(name).ok_or_else(|| {
            let said = planwright_runs::RunMessage::SecretNotSet { name: name.to_owned() };
            planwright_block::BlockError::not_set_up(planwright_runs::Reason::said(said, missing_secret(name)))
        })?;
        self.recorder.add_secrets(vec![value.clone()]);
        Ok(value)
    }

    fn redact(&self, text: &str) -> String {
        self.recorder.mask_text(text)
    }
}

/// Resolution of references for one node: its graph's finished nodes and the environment.
pub struct View<'a> {
    pub local: &'a HashMap<String, NodeValue>,
    pub env: &'a Env,
    /// Secrets, when resolving a block's inputs; `None` elsewhere (the validator refuses them).
    pub secrets: Option<&'a dyn SecretSource>,
    /// Every secret value resolved, so that records can mask it.
    pub used_secrets: Option<&'a mut Vec<String>>,
    /// The run's tables: a reference into a table (`${read.rows.0.amount}`), text around one and
    /// a condition read its rows; a reference to the whole table keeps the handle.
    pub tables: &'a RunTables,
}

impl View<'_> {
    /// Resolves every string in `value`: a string that is exactly one reference becomes the
    /// referenced value; text with references becomes text.
    pub fn resolve(&mut self, value: &Value) -> Result<Value, String> {
        match value {
            Value::String(text) if !text.contains("${") => Ok(Value::String(text.clone())),
            Value::String(text) => match Template::parse(text).map_err(|e| e.to_string())? {
                Template::Literal(text) => Ok(Value::String(text)),
                Template::Single(reference) => self.lookup(&reference),
                Template::Mixed(parts) => {
                    let mut out = String::new();
                    for part in parts {
                        match part {
                            Part::Text(text) => out.push_str(&text),
                            Part::Ref(reference) => match self.lookup_rows(&reference)? {
                                Value::String(s) => out.push_str(&s),
                                Value::Null => {}
                                other => out.push_str(&other.to_string()),
                            },
                        }
                    }
                    Ok(Value::String(out))
                }
            },
            Value::Array(items) => {
                items.iter().map(|item| self.resolve(item)).collect::<Result<_, _>>().map(Value::Array)
            }
            Value::Object(map) => map
                .iter()
                .map(|(k, v)| Ok((k.clone(), self.resolve(v)?)))
                .collect::<Result<Map<_, _>, String>>()
                .map(Value::Object),
            literal => Ok(literal.clone()),
        }
    }

    /// [`View::resolve`], with every table in the value as its rows (what a loop goes over).
    pub fn resolve_rows(&mut self, value: &Value) -> Result<Value, String> {
        let resolved = self.resolve(value)?;
        Ok(self.tables.expand(resolved))
    }

    /// [`View::lookup`], a table as its rows.
    fn lookup_rows(&mut self, reference: &Reference) -> Result<Value, String> {
        let value = self.lookup(reference)?;
        Ok(self.tables.expand(value))
    }

    /// The value of one reference; a whole table as its handle.
    pub fn lookup(&mut self, reference: &Reference) -> Result<Value, String> {
        let name = reference.path[0].as_str();
        let base = match &reference.root {
            Root::Vars => self.env.var(name).cloned().ok_or_else(|| format!("`{reference}`: no variable `{name}`"))?,
            Root::Env => std::env::var(name)
                .map(Value::String)
                .map_err(|_| format!("`{reference}`: environment variable `{name}` is not set"))?,
            Root::Secrets => {
                let source = self
                    .secrets
                    .ok_or_else(|| format!("`{reference}`: secrets are resolved only in a block's inputs"))?;
                let value = source.secret(name).ok_or_else(|| missing_secret(name))?;
                if let Some(used) = self.used_secrets.as_deref_mut() {
                    used.push(value.clone());
                }
                return Ok(Value::String(value));
            }
            Root::Node(id) => match self.local.get(id.as_str()).or_else(|| self.env.node(id)) {
                Some(NodeValue::Done(outputs)) => outputs
                    .get(name)
                    .cloned()
                    .ok_or_else(|| format!("`{reference}`: node `{id}` produced no `{name}`"))?,
                Some(NodeValue::FailedContinued) => return Ok(Value::Null),
                Some(NodeValue::Skipped(why)) => return Err(format!("`{reference}`: node `{id}` was skipped ({why})")),
                None => return Err(format!("`{reference}`: node `{id}` has not run")),
            },
        };
        // A path into a table goes through its rows.
        let mut current = if reference.path.len() > 1 { self.tables.expand(base) } else { base };
        for segment in &reference.path[1..] {
            current = match current {
                Value::Object(mut map) => map.remove(segment.as_str()).ok_or_else(|| {
                    let keys: Vec<&String> = map.keys().take(12).collect();
                    format!(
                        "`{reference}`: no `{segment}` here (it has {})",
                        keys.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", ")
                    )
                })?,
                Value::Array(mut items) => {
                    let len = items.len();
                    match segment.parse::<usize>() {
                        Ok(i) if i < len => items.swap_remove(i),
                        Ok(i) => return Err(format!("`{reference}`: no item {i}; the list has {len}")),
                        Err(_) => return Err(format!("`{reference}`: `{segment}` indexes a list; use a number")),
                    }
                }
                Value::Null => return Ok(Value::Null),
                other => return Err(format!("`{reference}`: cannot look up `{segment}` in {other}")),
            };
        }
        Ok(current)
    }

    /// Evaluates a `when`/`while` condition; an evaluation error is an error, never "true".
    pub fn condition(&mut self, expr: &str) -> Result<bool, String> {
        let compiled = planwright_expr::compile_condition(expr).map_err(|e| format!("`{expr}`: {}", e.message))?;
        compiled.eval_bool(&mut |reference| self.lookup_rows(reference)).map_err(|e| format!("`{expr}`: {}", e.message))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn env() -> Env {
        let mut nodes = HashMap::new();
        nodes.insert(
            "read".to_owned(),
            NodeValue::Done(Arc::new(json!({"rows": [{"amount": 5}, {"amount": 7}]}).as_object().unwrap().clone())),
        );
        nodes.insert("broken".to_owned(), NodeValue::FailedContinued);
        nodes.insert("later".to_owned(), NodeValue::Skipped("`when` was false".into()));
        Env { vars: json!({"month": "2026-10", "limit": 6}).as_object().unwrap().clone(), nodes, parent: None }
    }

    fn resolve(value: Value) -> Result<Value, String> {
        let env = env();
        let local = HashMap::new();
        View { local: &local, env: &env, secrets: None, used_secrets: None, tables: &RunTables::new() }.resolve(&value)
    }

    #[test]
    fn a_whole_reference_keeps_its_type_and_text_renders() {
        assert_eq!(resolve(json!("${read.rows.1.amount}")).unwrap(), json!(7));
        assert_eq!(resolve(json!("${vars.month}: ${read.rows.0.amount} yen")).unwrap(), json!("2026-10: 5 yen"));
        assert_eq!(resolve(json!({"items": ["${read.rows.0}"]})).unwrap(), json!({"items": [{"amount": 5}]}));
    }

    #[test]
    fn failed_continued_nodes_read_as_null_and_skipped_ones_refuse() {
        assert_eq!(resolve(json!("${broken.anything.deep}")).unwrap(), Value::Null);
        assert!(resolve(json!("${later.x}")).unwrap_err().contains("skipped"));
    }

    #[test]
    fn missing_paths_say_what_is_there() {
        assert!(resolve(json!("${read.rows.5}")).unwrap_err().contains("the list has 2"));
        assert!(resolve(json!("${read.rows.0.amt}")).unwrap_err().contains("it has amount"));
    }

    #[test]
    fn conditions_are_booleans_or_errors() {
        let env = env();
        let local = HashMap::new();
        let tables = RunTables::new();
        let mut view = View { local: &local, env: &env, secrets: None, used_secrets: None, tables: &tables };
        assert!(view.condition("${read.rows.1.amount} > ${vars.limit}").unwrap());
        assert!(view.condition("${vars.month} > 3").is_err(), "comparing text with a number is an error, not true");
    }

    #[test]
    fn secrets_resolve_only_where_allowed_and_are_remembered() {
        struct Fixed;
        impl SecretSource for Fixed {
            fn secret(&self, name: &str) -> Option<String> {
                (name == "TOKEN").then(|| "canary-123".to_owned())
            }
        }
        let env = env();
        let local = HashMap::new();
        let mut used = Vec::new();
        let value = View {
            local: &local,
            env: &env,
            secrets: Some(&Fixed),
            used_secrets: Some(&mut used),
            tables: &RunTables::new(),
        }
        .resolve(&json!("Bearer ${secrets.TOKEN}"))
        .unwrap();
        assert_eq!(value, json!("Bearer canary-123"));
        assert_eq!(used, vec!["canary-123"]);
        assert!(resolve(json!("${secrets.TOKEN}")).unwrap_err().contains("only in a block's inputs"));
    }
}
