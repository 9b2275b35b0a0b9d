//! Findings: what the loader and the validator say about a plan, for a person and for a model
//! that must repair it.

use serde::{Deserialize, Serialize};

macro_rules! codes {
    ($($(#[$doc:meta])* $name:ident = $text:literal,)*) => {
        /// Stable finding codes. Tools and models match on these; never rename one.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum Code {
            $($(#[$doc])* #[serde(rename = $text)] $name,)*
        }

        impl Code {
            /// Every code, for documentation checks.
            pub const ALL: &'static [Code] = &[$(Code::$name),*];

            /// The code as it appears in output (`unknown_block`).
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$name => $text,)*
                }
            }
        }
    };
}

codes! {
    // Shape of the document.
    UnknownKey = "unknown_key",
    MissingField = "missing_field",
    InvalidType = "invalid_type",
    InvalidValue = "invalid_value",
    UnsupportedApiVersion = "unsupported_api_version",
    // Nodes and blocks.
    DuplicateNodeId = "duplicate_node_id",
    ReservedNodeId = "reserved_node_id",
    AmbiguousNodeType = "ambiguous_node_type",
    InvalidLoop = "invalid_loop",
    UnknownBlock = "unknown_block",
    UnknownBlockVersion = "unknown_block_version",
    UnknownInput = "unknown_input",
    MissingInput = "missing_input",
    UnknownOutput = "unknown_output",
    DuplicateAlias = "duplicate_alias",
    RuleViolation = "rule_violation",
    // References and types.
    InvalidReference = "invalid_reference",
    UnknownNode = "unknown_node",
    UnknownAlias = "unknown_alias",
    UndefinedVar = "undefined_var",
    UndeclaredSecret = "undeclared_secret",
    UndeclaredPlaceholder = "undeclared_placeholder",
    PlaceholderNotFilled = "placeholder_not_filled",
    UnknownPath = "unknown_path",
    TypeMismatch = "type_mismatch",
    InvalidExpression = "invalid_expression",
    // Tables and their columns.
    UnknownColumn = "unknown_column",
    ColumnKindMismatch = "column_kind_mismatch",
    NotATable = "not_a_table",
    // Graph.
    EmptyPlan = "empty_plan",
    Cycle = "cycle",
    BrowserOrderConflict = "browser_order_conflict",
    // Subflows.
    UnknownPlan = "unknown_plan",
    InvalidSubflow = "invalid_subflow",
    SubflowCycle = "subflow_cycle",
    // Advice (warnings).
    HardcodedSecret = "hardcoded_secret",
    UnusedVar = "unused_var",
    UnusedSecret = "unused_secret",
    ShadowedVar = "shadowed_var",
    PolicyConflict = "policy_conflict",
    // Dry-run.
    UnresolvedPath = "unresolved_path",
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
}

/// One problem found in a plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    pub code: Code,
    pub severity: Severity,
    /// The node's id; inside a loop body `loop_id/inner_id`. `None` for plan-level findings.
    pub node: Option<String>,
    /// The field within the node (or plan), like `in.items`, `foreach.input`, `ui.layout`.
    pub field: Option<String>,
    /// What is wrong, in a sentence.
    pub message: String,
    /// What would make it right.
    pub hint: Option<String>,
    /// The closest valid names, best first.
    pub candidates: Vec<String>,
    /// JSON pointer into the document (`/graph/3/in/items`).
    pub path: String,
    /// 1-based line and column in the source file, where known.
    pub line: Option<u32>,
    pub column: Option<u32>,
}

impl Finding {
    pub fn error(code: Code, path: impl Into<String>, message: impl Into<String>) -> Finding {
        Finding::new(code, Severity::Error, path, message)
    }

    pub fn warning(code: Code, path: impl Into<String>, message: impl Into<String>) -> Finding {
        Finding::new(code, Severity::Warning, path, message)
    }

    fn new(code: Code, severity: Severity, path: impl Into<String>, message: impl Into<String>) -> Finding {
        Finding {
            code,
            severity,
            node: None,
            field: None,
            message: message.into(),
            hint: None,
            candidates: Vec::new(),
            path: path.into(),
            line: None,
            column: None,
        }
    }

    pub fn node(mut self, node: impl Into<String>) -> Finding {
        self.node = Some(node.into());
        self
    }

    pub fn field(mut self, field: impl Into<String>) -> Finding {
        self.field = Some(field.into());
        self
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Finding {
        self.hint = Some(hint.into());
        self
    }

    pub fn candidates(mut self, candidates: Vec<String>) -> Finding {
        self.candidates = candidates;
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}
