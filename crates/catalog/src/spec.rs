//! A block spec: what one `block_specs/<category>/<id>.yaml` file declares.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::types::TypeDecl;

pub use planwright_plan::Localized;

/// One input or output of a block.
pub type Port = TypeDecl;

/// A shared resource a block acts on. Blocks on the same resource run in graph order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resource {
    /// The run's one browser session.
    Browser,
}

/// A rule about a block's inputs that per-port declarations cannot say. Written as a mapping
/// with one key: `- one_of_required: [prompt, instruction]` or `- non_empty: output_schema`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RuleDecl", into = "RuleDecl")]
pub enum Rule {
    /// At least one of these inputs must be set.
    OneOfRequired(Vec<String>),
    /// This input, when set to a literal, must not be empty (`{}`, `[]`, `""`).
    NonEmpty(String),
}

/// How a rule is written. (serde_yaml would otherwise expect enum variants as YAML tags.)
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleDecl {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    one_of_required: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    non_empty: Option<String>,
}

impl TryFrom<RuleDecl> for Rule {
    type Error = String;

    fn try_from(decl: RuleDecl) -> Result<Rule, String> {
        match (decl.one_of_required, decl.non_empty) {
            (Some(names), None) => Ok(Rule::OneOfRequired(names)),
            (None, Some(name)) => Ok(Rule::NonEmpty(name)),
            _ => Err("a rule has exactly one of `one_of_required` or `non_empty`".into()),
        }
    }
}

impl From<Rule> for RuleDecl {
    fn from(rule: Rule) -> RuleDecl {
        match rule {
            Rule::OneOfRequired(names) => RuleDecl { one_of_required: Some(names), ..RuleDecl::default() },
            Rule::NonEmpty(name) => RuleDecl { non_empty: Some(name), ..RuleDecl::default() },
        }
    }
}

/// What one invocation of the block costs, for dry-run estimates.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Work {
    /// Model calls per invocation (upper bound, when a model is configured).
    #[serde(default)]
    pub model_calls: u32,
    /// Browser objectives per invocation.
    #[serde(default)]
    pub browser_objectives: u32,
    /// Counts one browser objective per non-empty line of this input when it is literal text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub browser_objectives_from: Option<String>,
    /// Model calls for each browser objective (upper bound).
    #[serde(default)]
    pub model_calls_per_objective: u32,
}

/// An example invocation; the dry-run uses its outputs as sample values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Example {
    pub title: Localized<String>,
    #[serde(rename = "in", default)]
    pub inputs: IndexMap<String, Value>,
    #[serde(default)]
    pub out: IndexMap<String, Value>,
}

/// A block spec file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlockSpec {
    /// `category.name`, e.g. `excel.read_data`.
    pub id: String,
    /// Semantic version; nodes may pin it as `id@x.y.z`.
    pub version: semver::Version,
    /// The folder the file lives in; the part of the id before the first dot.
    pub category: String,
    pub title: Localized<String>,
    pub description: Localized<String>,
    pub tags: Localized<Vec<String>>,
    #[serde(default)]
    pub inputs: IndexMap<String, Port>,
    #[serde(default)]
    pub outputs: IndexMap<String, Port>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<Example>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource: Option<Resource>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<Rule>,
    #[serde(default)]
    pub work: Work,
}

impl BlockSpec {
    /// The spec's first example value for output `key`, if any.
    pub fn example_output(&self, key: &str) -> Option<&Value> {
        self.examples.iter().find_map(|e| e.out.get(key))
    }
}
