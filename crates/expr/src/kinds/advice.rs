//! Literals and expression text for the advice in messages.

use serde_json::Value;

use super::Kind;
use crate::parser::{CmpOp, Node};
use crate::show::show;

pub(super) fn is_literal(node: &Node) -> bool {
    matches!(node, Node::Literal(_) | Node::List(_))
}

/// The literal `node` written as a literal of kind `to`, when it has an obvious counterpart:
/// `'3'` as `3`, `3` as `'3'`, `'true'` as `true`, `true` as `'true'`.
pub(super) fn convert(node: &Node, to: Kind) -> Option<Node> {
    let Node::Literal(value) = node else {
        return None;
    };
    let converted = match (value, to) {
        (Value::String(text), Kind::Number) => match crate::compile(text.trim()).ok()?.root {
            Node::Literal(number @ Value::Number(_)) => number,
            _ => return None,
        },
        (Value::String(text), Kind::Boolean) => match text.trim().to_lowercase().as_str() {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => return None,
        },
        (Value::Number(_) | Value::Bool(_), Kind::String) => Value::String(value.to_string()),
        _ => return None,
    };
    Some(Node::Literal(converted))
}

/// A literal of `kind` to show in advice.
pub(super) fn example(kind: Kind) -> Option<Node> {
    let value = match kind {
        Kind::String => Value::from("done"),
        Kind::Number => Value::from(0),
        Kind::Boolean => Value::from(true),
        Kind::Null => Value::Null,
        Kind::List | Kind::Object | Kind::Unknown => return None,
    };
    Some(Node::Literal(value))
}

/// Two literals of `kind` (strings when it has no literals) to show as the items of a list.
pub(super) fn examples(kind: Kind) -> Vec<Node> {
    match kind {
        Kind::Number => vec![Node::Literal(1.into()), Node::Literal(2.into())],
        Kind::Boolean => vec![Node::Literal(true.into())],
        _ => vec![text("a"), text("b")],
    }
}

pub(super) fn text(text: &str) -> Node {
    Node::Literal(Value::from(text))
}

pub(super) fn len_of(node: &Node) -> Node {
    Node::Len(Box::new(node.clone()))
}

/// `left op right` as expression text.
pub(super) fn shown(left: Node, op: CmpOp, right: Node) -> String {
    show(&Node::Compare(Box::new(left), op, Box::new(right)))
}
