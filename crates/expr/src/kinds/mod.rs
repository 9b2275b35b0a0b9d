//! Static kind checks: what can be told about a condition from the kinds of its operands alone,
//! before any value exists. The rules follow the evaluator (`eval.rs`) exactly: what it rejects
//! is a failing problem, and an equality or membership test whose answer is fixed by the kinds
//! is a warning. Operands of unknown kind are never reported.

use std::fmt;

use planwright_plan::reference::Reference;
use serde_json::Value;

use crate::parser::{CmpOp, Node};
use crate::show::show;

use advice::{is_literal, len_of, shown, text};

mod advice;
mod compare;

/// What the validator knows of a referenced value's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Text.
    String,
    /// An integer or decimal number.
    Number,
    /// `true` or `false`.
    Boolean,
    /// Always `null`.
    Null,
    /// A JSON array.
    List,
    /// A JSON object.
    Object,
    /// Not known: it may be any of the others, so nothing is reported about it.
    Unknown,
}

impl Kind {
    /// The kind of a JSON value (never [`Kind::Unknown`]).
    pub fn of(value: &Value) -> Kind {
        match value {
            Value::Null => Kind::Null,
            Value::Bool(_) => Kind::Boolean,
            Value::Number(_) => Kind::Number,
            Value::String(_) => Kind::String,
            Value::Array(_) => Kind::List,
            Value::Object(_) => Kind::Object,
        }
    }

    /// The name used in messages: "string", "number", "boolean", "null", "list", "object" or
    /// "unknown".
    pub fn name(self) -> &'static str {
        match self {
            Kind::String => "string",
            Kind::Number => "number",
            Kind::Boolean => "boolean",
            Kind::Null => "null",
            Kind::List => "list",
            Kind::Object => "object",
            Kind::Unknown => "unknown",
        }
    }

    fn known(self) -> bool {
        self != Kind::Unknown
    }

    /// The name with an article: "a string", "an object", "null".
    fn described(self) -> &'static str {
        match self {
            Kind::String => "a string",
            Kind::Number => "a number",
            Kind::Boolean => "a boolean",
            Kind::Null => "null",
            Kind::List => "a list",
            Kind::Object => "an object",
            Kind::Unknown => "of unknown kind",
        }
    }

    fn plural(self) -> &'static str {
        match self {
            Kind::String => "strings",
            Kind::Number => "numbers",
            Kind::Boolean => "booleans",
            Kind::Null => "nulls",
            Kind::List => "lists",
            Kind::Object => "objects",
            Kind::Unknown => "values of unknown kind",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A condition that is wrong whatever the data, found by [`Expr::check_kinds`](crate::Expr::check_kinds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindProblem {
    /// What is wrong, for a person and a model repairing the plan; names the operator, both sides (reference text or literal) and their kinds, and what would fix it.
    pub message: String,
    /// true: evaluation would fail at run time whatever the values (e.g. ordering a boolean, `and` on a string, `len` of a number) — an error.
    /// false: it evaluates, but the answer never depends on the data (e.g. `${x.approved} == 'yes'` where approved is a boolean: always false) — a warning.
    pub fails: bool,
}

pub(crate) type KindOf<'a> = dyn FnMut(&Reference) -> Kind + 'a;

/// The problems of `root` as a condition: its operands and its own result must be booleans.
pub(crate) fn check(root: &Node, kind_of: &mut KindOf<'_>) -> Vec<KindProblem> {
    let mut checker = Checker { kind_of, problems: Vec::new() };
    let kind = checker.kind(root);
    checker.boolean(root, kind, "a condition must be true or false", None);
    checker.problems
}

/// The kind of the value `root` evaluates to, when it evaluates.
pub(crate) fn result_kind(root: &Node, kind_of: &mut KindOf<'_>) -> Kind {
    Checker { kind_of, problems: Vec::new() }.kind(root)
}

struct Checker<'k, 'a> {
    kind_of: &'k mut KindOf<'a>,
    problems: Vec<KindProblem>,
}

impl Checker<'_, '_> {
    /// The kind `node` evaluates to, recording the problems inside it, innermost first.
    fn kind(&mut self, node: &Node) -> Kind {
        match node {
            Node::Literal(value) => Kind::of(value),
            Node::Ref(reference) => (self.kind_of)(reference),
            Node::List(items) => {
                for item in items {
                    self.kind(item);
                }
                Kind::List
            }
            Node::Not(operand) => {
                let kind = self.kind(operand);
                self.boolean(operand, kind, "`not` needs true or false", Some(node));
                Kind::Boolean
            }
            Node::And(operands) | Node::Or(operands) => {
                let context = match node {
                    Node::And(_) => "`and` needs true or false on each side",
                    _ => "`or` needs true or false on each side",
                };
                for operand in operands {
                    let kind = self.kind(operand);
                    self.boolean(operand, kind, context, Some(node));
                }
                Kind::Boolean
            }
            Node::Compare(left, op, right) => {
                self.compare(node, left, *op, right);
                Kind::Boolean
            }
            Node::Len(argument) => {
                let kind = self.kind(argument);
                self.len(node, argument, kind);
                Kind::Number
            }
        }
    }

    fn report(&mut self, fails: bool, message: String) {
        self.problems.push(KindProblem { message, fails });
    }

    /// Reports `operand` if it is known not to be a boolean; `whole` is the operator using it.
    fn boolean(&mut self, operand: &Node, kind: Kind, context: &str, whole: Option<&Node>) {
        if !kind.known() || kind == Kind::Boolean {
            return;
        }
        let consequence = match whole {
            Some(whole) => format!("so `{}` fails at run time", show(whole)),
            None => "so it fails at run time".to_owned(),
        };
        let fix = if is_literal(operand) {
            "write a comparison there, e.g. `${vars.status} == 'done'`".to_owned()
        } else {
            match kind {
                Kind::String => format!("compare it, e.g. `{}`", shown(operand.clone(), CmpOp::Eq, text("done"))),
                Kind::Number => {
                    format!("compare it, e.g. `{}`", shown(operand.clone(), CmpOp::Gt, Node::Literal(0.into())))
                }
                Kind::List | Kind::Object => {
                    format!("test its size, e.g. `{}`", shown(len_of(operand), CmpOp::Gt, Node::Literal(0.into())))
                }
                _ => "it is always null: check that it names the value you meant".to_owned(),
            }
        };
        self.report(true, format!("{context}, but `{}` is {}, {consequence}; {fix}", show(operand), kind.described()));
    }

    fn len(&mut self, whole: &Node, argument: &Node, kind: Kind) {
        let fix = match kind {
            Kind::Number => "use the number itself, without `len`",
            Kind::Boolean => "a boolean has no length: use it as it is",
            Kind::Null => "null has no length: check that it names the value you meant",
            _ => return,
        };
        self.report(
            true,
            format!(
                "`len` takes a string, a list or an object, but `{}` is {}, so `{}` fails at run time; {fix}",
                show(argument),
                kind.described(),
                show(whole)
            ),
        );
    }
}
