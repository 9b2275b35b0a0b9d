//! The safe expression language of plan conditions: `when: {expr: ...}` and
//! `while: {condition: {expr: ...}}`.
//!
//! ```text
//! expr       := and ("or" and)*
//! and        := not ("and" not)*
//! not        := "not" not | comparison
//! comparison := primary (("==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not" "in") primary)?
//! primary    := number | string | "true" | "false" | "null" | "${" reference "}"
//!             | "[" (expr ("," expr)* ","?)? "]" | "(" expr ")" | "len" "(" expr ")"
//! ```
//!
//! Comparisons do not chain and there is no arithmetic. Evaluation never treats a non-boolean
//! as true or false: `and`, `or`, `not` and a condition's result must be booleans, and anything
//! else is an [`EvalError`]. Compiling is bounded (at most 4096 characters and 64 levels of
//! nesting), so hostile input gives an error rather than a panic, a hang or a stack overflow.
//!
//! Before any value exists, [`Expr::check_kinds`] finds what is wrong whatever the data from the
//! [`Kind`]s of the references: operands the evaluator would reject, and comparisons whose answer
//! is fixed.

mod eval;
mod kinds;
mod lexer;
mod parser;
mod show;
mod value;

pub use kinds::{Kind, KindProblem};

use planwright_plan::reference::Reference;
use serde_json::Value;

use parser::Node;

/// Longest accepted source, in characters.
const MAX_SOURCE_CHARS: usize = 4096;

/// A compiled expression.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    source: String,
    root: Node,
    references: Vec<Reference>,
}

/// Why a source text is not a valid expression.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ExprError {
    /// Character (not byte) offset in the source where the problem is.
    pub offset: usize,
    /// What was expected and what was found, including the character offset.
    pub message: String,
}

impl ExprError {
    /// An error whose message ends with where it happened: "`what` at character N".
    pub(crate) fn at(offset: usize, what: impl std::fmt::Display) -> Self {
        ExprError { offset, message: format!("{what} at character {offset}") }
    }

    /// Appends advice on how to repair the expression.
    pub(crate) fn hint(mut self, hint: impl std::fmt::Display) -> Self {
        self.message = format!("{}; {hint}", self.message);
        self
    }
}

/// Why evaluating an expression failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct EvalError {
    pub message: String,
}

/// Compiles an expression.
pub fn compile(source: &str) -> Result<Expr, ExprError> {
    if source.chars().nth(MAX_SOURCE_CHARS).is_some() {
        return Err(ExprError::at(
            MAX_SOURCE_CHARS,
            format!("expression longer than the limit of {MAX_SOURCE_CHARS} characters"),
        )
        .hint("shorten it, or compute part of it in an earlier step"));
    }
    let chars: Vec<char> = source.chars().collect();
    let tokens = lexer::lex(&chars)?;
    // Every token is consumed by a successful parse, so these are exactly the tree's references.
    let references = tokens
        .iter()
        .filter_map(|token| match &token.kind {
            lexer::Tok::Ref(reference) => Some(reference.clone()),
            _ => None,
        })
        .collect();
    let root = parser::parse(tokens, chars.len())?;
    Ok(Expr { source: source.to_owned(), root, references })
}

/// Like [`compile`], but rejects expressions that can never be boolean at the top level (a literal
/// number/string/null/list, or `len(...)`), with a message saying a condition is needed.
pub fn compile_condition(source: &str) -> Result<Expr, ExprError> {
    let expr = compile(source)?;
    let (found, hint) = match &expr.root {
        Node::Literal(Value::Bool(_)) => return Ok(expr),
        Node::Literal(literal) => {
            (value::describe(literal), "compare a value with it, e.g. `${vars.status} == 'done'`")
        }
        Node::List(_) => ("a list".to_owned(), "test membership with `in`, e.g. `${vars.status} in ['done', 'sent']`"),
        Node::Len(_) => ("`len(...)`".to_owned(), "`len` gives a number: compare it, e.g. `len(${vars.items}) > 0`"),
        _ => return Ok(expr),
    };
    let start = source.chars().take_while(|c| c.is_whitespace()).count();
    Err(ExprError::at(start, format!("expected a condition (something true or false), found {found}")).hint(hint))
}

impl Expr {
    /// The source text the expression was compiled from.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Every reference in the expression, in source order.
    pub fn references(&self) -> impl Iterator<Item = &Reference> {
        self.references.iter()
    }

    /// Evaluates; `resolve` gives each reference's value or an error message.
    pub fn eval(&self, resolve: &mut dyn FnMut(&Reference) -> Result<Value, String>) -> Result<Value, EvalError> {
        eval::eval(&self.root, resolve)
    }

    /// Evaluates and requires a boolean result (a non-boolean result is an EvalError, never "truthy").
    pub fn eval_bool(&self, resolve: &mut dyn FnMut(&Reference) -> Result<Value, String>) -> Result<bool, EvalError> {
        let result = eval::eval(&self.root, resolve)?;
        eval::boolean(&self.root, &result, "the condition must be true or false")
    }

    /// Checks the kinds of operands; `kind_of` gives each reference's kind (`Unknown` when not known: then nothing is reported about it).
    ///
    /// The expression is checked as a condition, as [`Expr::eval_bool`] evaluates it: operands
    /// of `and`, `or`, `not` and the result must be booleans. A problem is `fails` when the
    /// evaluator would raise an error on reaching that part, whatever the values (an operand
    /// after the first of `and`/`or` is reached only if the earlier ones do not decide);
    /// otherwise it is a warning that an `==`, `!=`, `in` or `not in` always gives the same
    /// answer. `kind_of` is called once per occurrence of a reference, in source order; problems
    /// come inner expressions first.
    pub fn check_kinds(&self, kind_of: &mut dyn FnMut(&Reference) -> Kind) -> Vec<KindProblem> {
        kinds::check(&self.root, kind_of)
    }

    /// The kind of the value the expression gives when it evaluates without error: `Boolean`
    /// for comparisons, `in` and `and`/`or`/`not`, `Number` for `len(...)`, a literal's kind, `List`
    /// for a list literal, and `kind_of` of a lone reference.
    pub fn result_kind(&self, kind_of: &mut dyn FnMut(&Reference) -> Kind) -> Kind {
        kinds::result_kind(&self.root, kind_of)
    }
}
