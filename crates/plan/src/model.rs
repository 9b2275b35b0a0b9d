//! The plan model: what a plan file says, as Rust types.
//!
//! The types deserialize leniently (missing fields take defaults, unknown keys are ignored) so
//! that the validator can report every problem of a plan at once. Strictness lives in the JSON
//! Schema generated from these same types (closed objects, required fields, patterns), which the
//! loader checks first and editors use as people type.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The only `apiVersion` this build reads.
pub const API_VERSION: &str = "planwright/v1";

/// A plan: a graph of typed blocks with its variables, secrets and policy.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(
    deny_unknown_fields,
    transform = require_plan_fields,
    title = "Planwright plan",
    description = "A graph of typed blocks. Spec: docs/plan-format.md"
)]
pub struct Plan {
    /// Format version; `planwright/v1`.
    #[serde(rename = "apiVersion", default)]
    #[schemars(extend("const" = API_VERSION))]
    pub api_version: String,
    /// Plan id: lower-case letters, digits, `_` and `-`, at most 64 characters.
    #[serde(default)]
    #[schemars(regex(pattern = r"^[a-z0-9][a-z0-9_-]*$"), length(max = 64))]
    pub id: String,
    /// Semantic version of this plan, e.g. `1.0.0`.
    #[serde(default)]
    #[schemars(regex(pattern = r"^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$"))]
    pub version: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Variables with their default values (`null`: given when the plan runs).
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    #[schemars(transform = identifier_keys)]
    pub vars: IndexMap<String, Value>,
    /// Names of the credentials the plan needs. Values never live in a plan file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Vec<SecretName>")]
    pub secrets: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<Policy>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ui: Option<Ui>,
    #[serde(default)]
    pub graph: Vec<Node>,
}

/// One step of a graph: a block, a loop over a body, or a call of another plan.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields, transform = require_node_fields)]
pub struct Node {
    /// Unique among its siblings; referenced as `${<id>.<alias>}`.
    #[serde(default)]
    #[schemars(with = "Identifier")]
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Block id from the catalog, optionally pinned: `excel.read_data` or `excel.read_data@1.0.0`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block: Option<String>,
    /// Block inputs: literal values or `${...}` references, nested anywhere.
    #[serde(rename = "in", default, skip_serializing_if = "IndexMap::is_empty")]
    pub inputs: IndexMap<String, Value>,
    /// Block output key → alias under which later nodes reference it.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    #[schemars(with = "IndexMap<String, Identifier>")]
    pub out: IndexMap<String, String>,
    /// Node ids this node runs after, for ordering without a data reference.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Vec<Identifier>")]
    pub after: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<Condition>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub foreach: Option<Foreach>,
    #[serde(rename = "while", default, skip_serializing_if = "Option::is_none")]
    pub while_: Option<While>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<Body>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<Call>,
    /// Merged field by field over the plan's policy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<Policy>,
    /// `loop` or `subflow`; inferred from `foreach`/`while`/`body` or `call` when absent.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<NodeKind>,
}

/// A boolean expression in the plan expression language (see docs/plan-format.md).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields, transform = require_condition_fields)]
pub struct Condition {
    #[serde(default)]
    pub expr: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields, transform = require_foreach_fields)]
pub struct Foreach {
    /// The list to iterate: a `${...}` reference or a literal list.
    #[serde(default)]
    pub input: Value,
    /// Name of the loop variable, seen in the body as `${vars.<item_var>}`.
    #[serde(default = "default_item_var")]
    #[schemars(with = "Identifier")]
    pub item_var: String,
    /// Name of the index variable (0-based), seen in the body as `${vars.<index_var>}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<Identifier>")]
    pub index_var: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub max_concurrency: Option<u32>,
}

impl Default for Foreach {
    fn default() -> Self {
        Foreach { input: Value::Null, item_var: default_item_var(), index_var: None, max_concurrency: None }
    }
}

fn default_item_var() -> String {
    "item".to_owned()
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields, transform = require_while_fields)]
pub struct While {
    /// Re-evaluated before each iteration against the body's latest outputs.
    #[serde(default)]
    pub condition: Condition,
    /// Upper bound on iterations; required so that no loop runs forever.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub max_iterations: u32,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields, transform = require_body_fields)]
pub struct Body {
    #[serde(default)]
    pub plan: BodyPlan,
}

/// The graph a loop runs for each iteration. It sees the parent's vars and outputs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields, transform = require_body_plan_fields)]
pub struct BodyPlan {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<Policy>,
    #[serde(default)]
    pub graph: Vec<Node>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields, transform = require_call_fields)]
pub struct Call {
    /// A registered plan id (newest registration) or `id@x.y.z`.
    #[serde(default)]
    pub plan_id: String,
    /// Values for the child plan's vars.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub inputs: IndexMap<String, Value>,
}

/// How a node reacts to failure and how long it may take. Every field is optional so that a
/// node's policy can override the plan's field by field.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Policy {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_error: Option<OnError>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retries: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_backoff_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub timeout_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub max_concurrency: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_unanswered: Option<OnUnanswered>,
}

impl Policy {
    /// `self` with every field it leaves unset taken from `base`.
    pub fn merged_over(&self, base: &Policy) -> Policy {
        Policy {
            on_error: self.on_error.or(base.on_error),
            retries: self.retries.or(base.retries),
            retry_backoff_ms: self.retry_backoff_ms.or(base.retry_backoff_ms),
            timeout_ms: self.timeout_ms.or(base.timeout_ms),
            max_concurrency: self.max_concurrency.or(base.max_concurrency),
            on_unanswered: self.on_unanswered.or(base.on_unanswered),
        }
    }
}

/// What a node does when it asks a person and nobody can answer now (no studio form, no answers
/// file entry, no terminal).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OnUnanswered {
    /// The run waits for input (`planwright run` exits 3; `planwright resume` answers it).
    Wait,
    /// The node fails, saying what it asked (for runs no person watches, such as CI).
    Fail,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OnError {
    /// Stop the run.
    Halt,
    /// Record the failure; dependants receive null with the failure visible.
    Continue,
    /// Retry with exponential backoff from `retry_backoff_ms`, `retries` times.
    Retry,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    Loop,
    Subflow,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Ui {
    /// Node ids in the order the studio lays them out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Vec<Identifier>")]
    pub layout: Vec<String>,
}

/// The pattern of node ids, aliases, vars and loop variables.
pub const IDENTIFIER_PATTERN: &str = r"^[A-Za-z_][A-Za-z0-9_-]*$";

/// The pattern of secret names: browser steps write them as `{{NAME}}` placeholders (no `-`).
pub const SECRET_NAME_PATTERN: &str = r"^[A-Za-z_][A-Za-z0-9_]*$";

/// Schema-only string types for names: a pattern, 1 to 64 characters, and a description.
macro_rules! name_schema {
    ($name:ident, $pattern:expr, $description:literal) => {
        struct $name;

        impl JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }

            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({
                    "type": "string",
                    "pattern": $pattern,
                    "minLength": 1,
                    "maxLength": 64,
                    "description": $description
                })
            }
        }
    };
}

name_schema!(Identifier, IDENTIFIER_PATTERN, "Letters, digits, `_` and `-`, starting with a letter or `_`.");
name_schema!(
    SecretName,
    SECRET_NAME_PATTERN,
    "Letters, digits and `_`, starting with a letter or `_`; usually UPPER_CASE."
);

/// Var names must be reachable as `${vars.<name>}`.
fn identifier_keys(schema: &mut schemars::Schema) {
    schema.insert("propertyNames".to_owned(), serde_json::json!({ "pattern": IDENTIFIER_PATTERN, "maxLength": 64 }));
}

/// What kind of work a node does, after inference from the fields it sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeRole<'a> {
    Block(&'a str),
    Loop,
    Subflow,
}

impl Node {
    /// The node's role as written or inferred; `None` when the fields leave it ambiguous or
    /// empty (the validator explains which).
    pub fn role(&self) -> Option<NodeRole<'_>> {
        let looping = self.foreach.is_some() || self.while_.is_some() || self.body.is_some();
        match (self.kind, self.block.as_deref(), looping, self.call.is_some()) {
            (Some(NodeKind::Loop), None, _, false) => Some(NodeRole::Loop),
            (Some(NodeKind::Subflow), None, false, true) => Some(NodeRole::Subflow),
            (None, Some(block), false, false) => Some(NodeRole::Block(block)),
            (None, None, true, false) => Some(NodeRole::Loop),
            (None, None, false, true) => Some(NodeRole::Subflow),
            _ => None,
        }
    }

    /// The body graph of a loop node (empty for other nodes).
    pub fn body_graph(&self) -> &[Node] {
        self.body.as_ref().map(|b| b.plan.graph.as_slice()).unwrap_or_default()
    }
}

fn require(schema: &mut schemars::Schema, fields: &[&str]) {
    schema.insert("required".to_owned(), Value::from(fields.to_vec()));
}
fn require_plan_fields(s: &mut schemars::Schema) {
    require(s, &["apiVersion", "id", "version", "graph"]);
}
fn require_node_fields(s: &mut schemars::Schema) {
    require(s, &["id"]);
}
fn require_condition_fields(s: &mut schemars::Schema) {
    require(s, &["expr"]);
}
fn require_foreach_fields(s: &mut schemars::Schema) {
    require(s, &["input"]);
}
fn require_while_fields(s: &mut schemars::Schema) {
    require(s, &["condition", "max_iterations"]);
}
fn require_body_fields(s: &mut schemars::Schema) {
    require(s, &["plan"]);
}
fn require_body_plan_fields(s: &mut schemars::Schema) {
    require(s, &["graph"]);
}
fn require_call_fields(s: &mut schemars::Schema) {
    require(s, &["plan_id"]);
}
