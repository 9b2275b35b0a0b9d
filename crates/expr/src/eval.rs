//! Evaluation of a compiled tree. There is no truthiness: every operator checks its operands'
//! types and reports a mismatch as an error, because a plan must never run a branch by accident.

use std::cmp::Ordering;

use planwright_plan::reference::Reference;
use serde_json::Value;

use crate::parser::{CmpOp, Node};
use crate::value::{compare_numbers, describe, equal};
use crate::EvalError;

type Resolve<'a> = dyn FnMut(&Reference) -> Result<Value, String> + 'a;

pub(crate) fn eval(node: &Node, resolve: &mut Resolve<'_>) -> Result<Value, EvalError> {
    match node {
        Node::Literal(value) => Ok(value.clone()),
        Node::List(items) => items.iter().map(|item| eval(item, resolve)).collect::<Result<_, _>>().map(Value::Array),
        Node::Ref(reference) => {
            resolve(reference).map_err(|message| error(format!("cannot resolve `{reference}`: {message}")))
        }
        Node::Not(operand) => {
            let value = eval(operand, resolve)?;
            Ok(Value::Bool(!boolean(operand, &value, "`not` needs true or false")?))
        }
        // `and` and `or` stop at the first operand that decides the result.
        Node::And(operands) => short_circuit(operands, false, "`and` needs true or false on each side", resolve),
        Node::Or(operands) => short_circuit(operands, true, "`or` needs true or false on each side", resolve),
        Node::Compare(left_node, op, right_node) => {
            let left = eval(left_node, resolve)?;
            let right = eval(right_node, resolve)?;
            let left = Operand { node: left_node, value: &left };
            let right = Operand { node: right_node, value: &right };
            compare(left, *op, right).map(Value::Bool)
        }
        Node::Len(argument) => {
            let value = eval(argument, resolve)?;
            let length = match &value {
                Value::String(text) => text.chars().count(),
                Value::Array(items) => items.len(),
                Value::Object(map) => map.len(),
                _ => {
                    let found = Operand { node: argument, value: &value };
                    return Err(error(format!("`len` takes a string, list or object, got {found}")));
                }
            };
            Ok(Value::from(length))
        }
    }
}

/// `value`, which `node` evaluated to, as a boolean; otherwise an error starting with `context`.
pub(crate) fn boolean(node: &Node, value: &Value, context: &str) -> Result<bool, EvalError> {
    match value {
        Value::Bool(b) => Ok(*b),
        _ => Err(error(format!("{context}, got {}", Operand { node, value }))),
    }
}

/// Evaluates operands in order until one equals `decisive`, which is then the result.
fn short_circuit(
    operands: &[Node],
    decisive: bool,
    context: &str,
    resolve: &mut Resolve<'_>,
) -> Result<Value, EvalError> {
    for operand in operands {
        let value = eval(operand, resolve)?;
        if boolean(operand, &value, context)? == decisive {
            return Ok(Value::Bool(decisive));
        }
    }
    Ok(Value::Bool(!decisive))
}

/// An evaluated operand, displayed as its type and value plus the reference it came from.
#[derive(Clone, Copy)]
struct Operand<'a> {
    node: &'a Node,
    value: &'a Value,
}

impl std::fmt::Display for Operand<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&describe(self.value))?;
        if let Node::Ref(reference) = self.node {
            write!(f, " from `{reference}`")?;
        }
        Ok(())
    }
}

fn compare(left: Operand<'_>, op: CmpOp, right: Operand<'_>) -> Result<bool, EvalError> {
    let wanted: fn(Ordering) -> bool = match op {
        CmpOp::Eq => return Ok(equal(left.value, right.value)),
        CmpOp::Ne => return Ok(!equal(left.value, right.value)),
        CmpOp::In => return contains(op, left, right),
        CmpOp::NotIn => return contains(op, left, right).map(|found| !found),
        CmpOp::Lt => Ordering::is_lt,
        CmpOp::Le => Ordering::is_le,
        CmpOp::Gt => Ordering::is_gt,
        CmpOp::Ge => Ordering::is_ge,
    };
    let ordering = match (left.value, right.value) {
        (Value::Number(a), Value::Number(b)) => compare_numbers(a, b),
        (Value::String(a), Value::String(b)) => Some(a.cmp(b)),
        _ => None,
    };
    ordering.map(wanted).ok_or_else(|| {
        let symbol = op.symbol();
        error(format!(
            "cannot compare {left} with {right} using `{symbol}`; `{symbol}` compares two numbers or two strings"
        ))
    })
}

/// Whether `needle` is an item of a list, a substring of a string or a key of an object.
fn contains(op: CmpOp, needle: Operand<'_>, haystack: Operand<'_>) -> Result<bool, EvalError> {
    let symbol = op.symbol();
    let (text, what) = match (needle.value, haystack.value) {
        (_, Value::Array(items)) => return Ok(items.iter().any(|item| equal(needle.value, item))),
        (Value::String(part), Value::String(text)) => return Ok(text.contains(part.as_str())),
        (Value::String(key), Value::Object(map)) => return Ok(map.contains_key(key)),
        (_, Value::String(_)) => ("a string", "a substring"),
        (_, Value::Object(_)) => ("an object", "a key"),
        _ => {
            return Err(error(format!("`{symbol}` needs a list, string or object on the right, got {haystack}")));
        }
    };
    Err(error(format!(
        "`{symbol}` with {text} on the right looks for {what} and needs a string on the left, got {needle}"
    )))
}

fn error(message: String) -> EvalError {
    EvalError { message }
}
