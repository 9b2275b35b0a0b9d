//! What a person can tune about generation (seed 002's `DesignEngineOptions`), each with its
//! documented default, and how templates are applied.

use planwright_plan::{OnError, Policy};
use serde::{Deserialize, Serialize};

/// The options of one generation. Defaults: `suggest_when` and `suggest_foreach` on, loop
/// variable `item`, 6 candidate blocks per category, 4,000 characters of documents for a model,
/// 2 repair rounds, and a generated plan's policy `on_error: halt, retries: 0, timeout_ms:
/// 600000` (a plan that stops at the first failure, so a person sees it; retries are set per
/// node where a call is safe to repeat).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DesignEngineOptions {
    /// Gate the steps after a confirmation with `when: ${confirm.approved} == true`.
    pub suggest_when: bool,
    /// Loop over rows with `foreach` where the instruction works per item.
    pub suggest_foreach: bool,
    /// The loop variable's name (`${vars.item}` in the loop's body).
    pub foreach_var_name: String,
    /// Candidate blocks per category (1–30; the default 6 suits most designs).
    pub topk_per_category: usize,
    /// Characters of the documents given to a model.
    pub max_docs_chars: usize,
    /// Repair rounds after the first attempt.
    pub max_attempts: u32,
    /// The policy a generated plan starts with.
    pub policy: Policy,
}

impl Default for DesignEngineOptions {
    fn default() -> DesignEngineOptions {
        DesignEngineOptions {
            suggest_when: true,
            suggest_foreach: true,
            foreach_var_name: "item".into(),
            topk_per_category: planwright_retrieval::DEFAULT_TOP_K,
            max_docs_chars: 4_000,
            max_attempts: 2,
            policy: Policy {
                on_error: Some(OnError::Halt),
                retries: Some(0),
                timeout_ms: Some(600_000),
                ..Policy::default()
            },
        }
    }
}

/// How the selected templates shape the plan.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ApplyMode {
    /// Templates are inserted as they are: node ids prefixed with the template id, imports bound
    /// to the plan's vars or earlier outputs, exports linked to the plan.
    #[default]
    Compose,
    /// Templates are examples and constraints for a model; nothing is inserted as is.
    Hint,
    /// Templates are not used.
    LlmOnly,
}

impl ApplyMode {
    pub fn name(self) -> &'static str {
        match self {
            ApplyMode::Compose => "compose",
            ApplyMode::Hint => "hint",
            ApplyMode::LlmOnly => "llm-only",
        }
    }
}
